/* SPDX-License-Identifier: GPL-2.0 */
/* Only the type: struct cpuidle_governor embeds a list node it never walks here. */
#ifndef _LINUX_LIST_H
#define _LINUX_LIST_H

struct list_head {
	struct list_head *next, *prev;
};

#endif /* _LINUX_LIST_H */

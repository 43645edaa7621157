/* SPDX-License-Identifier: GPL-2.0 */
/* Included by a governor for nothing it uses here; empty on purpose. */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#endif /* _LINUX_SCHED_H */

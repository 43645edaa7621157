/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BITS_H
#define _LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif /* _LINUX_BITS_H */

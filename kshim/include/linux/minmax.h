/* SPDX-License-Identifier: GPL-2.0 */
/*
 * min() and max() with the kernel's type check: comparing two different
 * types draws a "comparison of distinct pointer types" warning, as in the
 * kernel, instead of a silent conversion.
 */
#ifndef _LINUX_MINMAX_H
#define _LINUX_MINMAX_H

#define __kshim_cmp(x, y, op) ({					\
	__typeof__(x) __x = (x);					\
	__typeof__(y) __y = (y);					\
	(void)(&__x == &__y);						\
	__x op __y ? __x : __y;						\
})

#define min(x, y)	__kshim_cmp(x, y, <)
#define max(x, y)	__kshim_cmp(x, y, >)

#endif /* _LINUX_MINMAX_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* 64-bit division helpers, as the kernel implements them on 64-bit machines. */
#ifndef _LINUX_MATH64_H
#define _LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	u32 remainder;

	return div_u64_rem(dividend, divisor, &remainder);
}

/* Divides n in place by a 32-bit base and yields the remainder. */
#define do_div(n, base) ({						\
	u32 __base = (base);						\
	u32 __rem = ((u64)(n)) % __base;				\
	(n) = ((u64)(n)) / __base;					\
	__rem;								\
})

#endif /* _LINUX_MATH64_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* ktime_t is signed nanoseconds; conversions as on 64-bit kernels. */
#ifndef _LINUX_KTIME_H
#define _LINUX_KTIME_H

#include <linux/bug.h>
#include <linux/time64.h>
#include <linux/types.h>

#define KTIME_MAX	((s64)~((u64)1 << 63))

static inline s64 ktime_to_ns(const ktime_t kt)
{
	return kt;
}

static inline ktime_t ns_to_ktime(u64 ns)
{
	return ns;
}

static inline ktime_t ktime_sub(const ktime_t lhs, const ktime_t rhs)
{
	return lhs - rhs;
}

static inline s64 ktime_divns(const ktime_t kt, s64 div)
{
	WARN_ON(div < 0);
	return kt / div;
}

static inline s64 ktime_to_us(const ktime_t kt)
{
	return ktime_divns(kt, NSEC_PER_USEC);
}

static inline s64 ktime_to_ms(const ktime_t kt)
{
	return ktime_divns(kt, NSEC_PER_MSEC);
}

#endif /* _LINUX_KTIME_H */

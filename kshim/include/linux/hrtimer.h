/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_HRTIMER_H
#define _LINUX_HRTIMER_H

#include <linux/ktime.h>

#endif /* _LINUX_HRTIMER_H */

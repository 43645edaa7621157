/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HZ is a run-time setting of each machine (100, 250, 300 or 1000), so HZ,
 * TICK_NSEC and TICK_USEC read the calling machine's values.  They keep the
 * kernel's type (long) and rounding: TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ.
 */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

#include <linux/time64.h>
#include <kshim/context.h>

#define HZ		(kshim_cur->hz)
#define TICK_NSEC	(kshim_cur->tick_nsec)
#define TICK_USEC	(kshim_cur->tick_usec)

#endif /* _LINUX_JIFFIES_H */

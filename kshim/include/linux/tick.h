/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nohz tick queries a governor makes.  Every one of them is answered by
 * the host (kshim/host.h) for the CPU whose governor call is in progress:
 *
 *   tick_nohz_get_sleep_length()  host->sleep_length
 *   tick_nohz_tick_stopped()      host->tick_stopped
 *   tick_nohz_idle_got_tick()     host->got_tick
 *
 * tick_nohz_enabled is constant true: teosim models NO_HZ_IDLE kernels.
 */
#ifndef _LINUX_TICK_H
#define _LINUX_TICK_H

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/types.h>
#include <kshim/context.h>

#define tick_nohz_enabled	(true)

static inline ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
	int64_t delta;
	ktime_t sleep = kshim_cur->host->sleep_length(kshim_cur->host_priv,
						       kshim_cur_cpu, &delta);

	*delta_next = delta;
	return sleep;
}

static inline bool tick_nohz_tick_stopped(void)
{
	return kshim_cur->host->tick_stopped(kshim_cur->host_priv, kshim_cur_cpu);
}

static inline bool tick_nohz_idle_got_tick(void)
{
	return kshim_cur->host->got_tick(kshim_cur->host_priv, kshim_cur_cpu);
}

#endif /* _LINUX_TICK_H */

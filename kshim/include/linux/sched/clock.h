/* SPDX-License-Identifier: GPL-2.0 */
/* local_clock() is the host's clock of the calling CPU. */
#ifndef _LINUX_SCHED_CLOCK_H
#define _LINUX_SCHED_CLOCK_H

#include <linux/types.h>
#include <kshim/context.h>

static inline u64 local_clock(void)
{
	return kshim_cur->host->local_clock(kshim_cur->host_priv, kshim_cur_cpu);
}

#endif /* _LINUX_SCHED_CLOCK_H */

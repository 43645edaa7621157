/* SPDX-License-Identifier: GPL-2.0 */
/* nr_iowait_cpu() is the host's count for the given CPU. */
#ifndef _LINUX_SCHED_STAT_H
#define _LINUX_SCHED_STAT_H

#include <kshim/context.h>

static inline unsigned int nr_iowait_cpu(int cpu)
{
	return kshim_cur->host->nr_iowait(kshim_cur->host_priv, (unsigned int)cpu);
}

#endif /* _LINUX_SCHED_STAT_H */

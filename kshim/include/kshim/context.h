/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calling context that the shim headers read.
 *
 * A governor call runs on behalf of one CPU of one machine (a set of CPUs
 * sharing a driver and one governor instance).  kshim_machine_select() and
 * kshim_machine_reflect() set these thread-local pointers before calling
 * into the governor, so several machines can run in threads of one process
 * without sharing any per-CPU data, HZ, or host.
 */
#ifndef KSHIM_CONTEXT_H
#define KSHIM_CONTEXT_H

#include <kshim/host.h>

struct kshim_machine_ctx {
	char **percpu_areas;		/* nr_cpus copies of the kshim_percpu section */
	unsigned int nr_cpus;
	unsigned int hz;
	long tick_nsec;			/* TICK_NSEC for this HZ */
	long tick_usec;			/* TICK_USEC for this HZ */
	const struct kshim_host_ops *host;
	void *host_priv;
};

extern _Thread_local struct kshim_machine_ctx *kshim_cur;
extern _Thread_local unsigned int kshim_cur_cpu;

/* What WARN_ON() and BUG_ON() call: the first prints, the second aborts. */
void kshim_warn(const char *file, int line, const char *cond);
_Noreturn void kshim_bug(const char *file, int line, const char *cond);

#endif /* KSHIM_CONTEXT_H */

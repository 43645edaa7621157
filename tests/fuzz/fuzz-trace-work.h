/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the simulate harness: the work a trace brings each CPU before its
 * end, counted from the trace format's own rules (traces/trace-format.md),
 * apart from the simulator.  Every irq's and busy record's work counts,
 * and every timer expiry's: a one-shot timer fires at its fires_ns, else
 * at its expiry, a periodic one every period after that, until it is
 * re-armed or cancelled (an event at that very time sees it fired).  The
 * work of wheel timers counts whether or not a tick expires them.
 */
#ifndef TEOSIM_FUZZ_TRACE_WORK_H
#define TEOSIM_FUZZ_TRACE_WORK_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "trace.h"

struct cpu_work {
	uint64_t work_ns;	/* UINT64_MAX: more than fits */
	uint64_t last_ns;	/* when the last of it comes, at the latest */
	/*
	 * An expiry due before a cut (the end, a re-arming, a cancel) whose
	 * interrupt comes after it: another timer's interrupt before the cut
	 * runs it (one runs every expired hrtimer), so more may be done.
	 */
	bool may_run_sooner;
};

struct trace_work {
	uint64_t end_ns;
	unsigned int nr_cpus;
	struct cpu_work *cpus;
	uint64_t held_ns;	/* the longest held_ns of any record */
	uint64_t exit_ns;	/* the longest exit_ns of any record */
	bool wheel;		/* some of the work is wheel timers' */
	GHashTable *armed;	/* timer id -> its arming, while it may still fire */
};

void trace_work_init(struct trace_work *w, const struct trace_header *h);
/* ev, in the reader's order. */
void trace_work_add(struct trace_work *w, const struct trace_event *ev);
/* Counts the expiries of the timers still armed at the end: cpus[] is then complete. */
void trace_work_finish(struct trace_work *w);
void trace_work_clear(struct trace_work *w);

#endif /* TEOSIM_FUZZ_TRACE_WORK_H */

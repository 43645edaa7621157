/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scoring idle periods.  The scorer sees each period as it ends; the
 * hindsight-optimal state of a period needs the true end of the CPU's idle
 * stretch (the first wakeup by a timer or an interrupt: a kept tick or the
 * polling limit does not end it), so periods wait in the scorer until then.
 * Counters only: memory does not grow with the trace.
 */
#ifndef TEOSIM_SIM_SCORE_H
#define TEOSIM_SIM_SCORE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <kshim/machine.h>

#include "idle-loop.h"
#include "platform.h"

struct state_score {
	/* The kernel's counters (kshim_machine_usage()), see cpu_score. */
	uint64_t usage, time_ns, above, below;
	uint64_t idle_ns;		/* in the state, its exit latency excluded: for energy */
	uint64_t optimal;		/* periods for which hindsight picks this state */
	uint64_t event_wakeups;		/* non-timer wakeups from it: each costs its exit latency */
	uint64_t opt_idle_ns;		/* in it in the hindsight-optimal schedule */
};

struct cpu_score {
	unsigned int state_count;
	/*
	 * Whether above and below are the kernel's own counts (6.x cores);
	 * the 4.20 core kept none, so teosim counts them with the 6.x
	 * definitions from the same residencies.
	 */
	bool kernel_above_below;
	uint64_t scored;		/* periods whose idle stretch ended before end_ns */
	uint64_t unscored;		/* periods of the stretch still open at end_ns */
	uint64_t busy_ns, exit_ns, opt_exit_ns;
	uint64_t agree, too_deep, too_shallow;
	uint64_t timer_wakeups, event_wakeups, tick_wakeups, poll_limits;
	/* The governor asked to stop the tick and it was stopped, yet the stretch ended before the next tick. */
	uint64_t needless_stops;
	/* The governor asked to keep the tick and it ran on, yet the stretch outlasted the next tick. */
	uint64_t missed_stops;
	struct state_score states[KSHIM_STATE_MAX];
};

struct idle_scorer;

/* One period's verdict, once the end of its idle stretch is known. */
struct idle_verdict {
	const struct idle_period *period;
	uint64_t idle_ns;	/* from its entry to the end of its idle stretch */
	int optimal;		/* the hindsight-optimal state for that time */
	bool above, below;	/* the kernel's metrics for this period */
};

typedef void (*idle_verdict_fn)(void *priv, const struct idle_verdict *v);

/* A scorer of gov's periods on platform p. */
struct idle_scorer *idle_scorer_new(const struct platform *p, int32_t latency_limit_us,
				    const struct kshim_governor *gov);
void idle_scorer_free(struct idle_scorer *s);
void idle_scorer_add(struct idle_scorer *s, const struct idle_period *p);
/* Calls fn with every period's verdict (for the figures); fn may be NULL. */
void idle_scorer_observe(struct idle_scorer *s, idle_verdict_fn fn, void *priv);
/*
 * The CPU's score: the scorer's counts, the CPU's busy time, and the
 * kernel's counters from the machine that ran it.
 */
void idle_scorer_finish(struct idle_scorer *s, const struct sim_cpu *c,
			struct cpu_score *out);

/*
 * The hindsight-optimal state for an idle time of idle_ns: the deepest
 * enabled state whose target residency fits it and whose exit latency is
 * within the scorer's latency limit (state 0 when none is).
 */
int idle_scorer_hindsight(const struct idle_scorer *s, uint64_t idle_ns);

void cpu_score_add(struct cpu_score *sum, const struct cpu_score *s);

#endif /* TEOSIM_SIM_SCORE_H */

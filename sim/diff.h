/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where two governors decide differently.  Governor A drives the simulated
 * CPU; governor B follows it period by period: B is asked to select on the
 * same inputs (clock, sleep length, tick state, latency limit) just after
 * A, and then reflects on what happened to A (the same wakeup, residency
 * and got_tick), with its own choice as the entered state.  So B never
 * drifts onto another timeline, and two identical governors never differ.
 */
#ifndef TEOSIM_SIM_DIFF_H
#define TEOSIM_SIM_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

#include "plot-data.h"
#include "run.h"

#define DIFF_CASES_MAX	5

struct diff_case {
	unsigned int cpu;
	struct idle_period inputs;	/* entry, sleep length, tick state; A's choice */
	int state_b;
	bool stop_tick_b;
};

struct diff_result {
	uint64_t selects;
	uint64_t differ;		/* state or stop_tick differ */
	uint64_t differ_state;
	uint64_t differ_tick;
	unsigned int nr_cases;
	struct diff_case cases[DIFF_CASES_MAX];	/* the first ones, by CPU then time */
	struct plot_diff *plot;		/* with o->plots: every pair of decisions; free it */
};

/* Frees what a diff_result holds (its plot data). */
void diff_result_clear(struct diff_result *d);

bool sim_diff(const struct sim_run_options *o, const struct kshim_governor *a,
	      const struct kshim_governor *b, const char *trace, struct diff_result *out,
	      GError **error);

/* A summary and the first cases, for people. */
void diff_report(FILE *out, const struct sim_run_options *o, const struct kshim_governor *a,
		 const struct kshim_governor *b, const char *trace,
		 const struct diff_result *d);

/*
 * One row per trace: the decisions that differ, and how the scores of A and
 * B, each run on its own (runs[t * 2] is A on trace t, runs[t * 2 + 1] B),
 * moved from A to B, for the regression run of a governor change.
 */
void diff_summary(FILE *out, const struct sim_run_options *o, char *const *traces,
		  unsigned int nr_traces, const struct diff_result *d,
		  const struct sim_result *runs);

#endif /* TEOSIM_SIM_DIFF_H */

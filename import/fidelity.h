/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fidelity: does the simulation of a governor on an imported capture
 * choose what the captured kernel chose?  The real side is the capture's
 * idle periods (cpu_idle entry and exit), and, when the governor-call log
 * of the same run is given, the inputs the kernel gave the governor at
 * each of them.  The simulated side is the governor run by the idle-loop
 * model on the workload imported from the same capture.  The two are
 * compared as distributions (per-state shares of periods and of idle
 * time, above, below, tick stops) and period by period, where periods can
 * be matched by time.
 */
#ifndef TEOSIM_IMPORT_FIDELITY_H
#define TEOSIM_IMPORT_FIDELITY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>
#include <kshim/registry.h>

#include "calllog.h"
#include "capture.h"
#include "convert.h"
#include "run.h"

/* One idle period of either side, on the capture's clock. */
struct fid_period {
	uint64_t entry_ns, exit_ns;
	unsigned int cpu;
	int state;
	/* The governor's inputs and request: the simulation's, or the call log's. */
	bool has_inputs;
	bool tick_was_stopped;
	bool stop_tick;
	int64_t sleep_ns;
	uint32_t iowait_tasks;
	int64_t select_lag_ns;		/* real: entry − its select's clock */
	bool after_poll_limit;		/* real: its select followed a polling limit */
	/* The simulation's wakeup cause (enum wake_cause); -1 on the real side. */
	int cause;
	/* Index of the matched period on the other side, or -1. */
	gint64 match;
};

struct fid_side {
	GArray *periods;		/* struct fid_period, by CPU, then by entry */
	uint64_t usage[KSHIM_STATE_MAX];
	uint64_t time_ns[KSHIM_STATE_MAX];	/* exit − entry */
	uint64_t above, below;		/* cpuidle_enter_state()'s definitions */
	uint64_t tick_stops;		/* real: tick_stop success=1; sim: running → stopped */
	uint64_t idle_ns;
	/* Runs of polling periods (fidelity_count_poll_runs()): how many, their periods, ... */
	uint64_t poll_runs, poll_run_periods;
	uint64_t poll_run_unmatched;	/* ... those with no match on the other side */
	uint64_t usage_outside_runs[KSHIM_STATE_MAX];	/* usage less the runs' periods */
};

struct fid_options {
	const struct sim_run_options *run;	/* platform, HZ, latency limit */
	const struct kshim_governor *gov;
	const char *calls;		/* the run's governor-call log, or NULL ... */
	const GArray *selects;		/* ... and its selects (fidelity_read_selects()) */
	uint64_t match_ns;		/* periods match when their entries are this close */
	/*
	 * Periods entered in the capture's first warmup_ns, and each CPU's
	 * first warmup_periods, are simulated but not compared: the real
	 * governor came into the capture with a history the simulated one has
	 * to build up first, over periods (ladder climbs from its first state
	 * in steps of four, teo's bins decay by an eighth a period, menu keeps
	 * eight intervals), however long they take.
	 */
	uint64_t warmup_ns;
	unsigned int warmup_periods;
};

struct fidelity {
	unsigned int state_count;
	struct fid_side real, sim;
	double tvd_periods, tvd_time;	/* total variation distance of the per-state shares */
	double tvd_periods_outside_runs;	/* ... of periods, leaving out runs of polling periods */
	uint64_t matched;		/* real periods matched with a simulated one */
	uint64_t same_state;		/* ... and given the same state */
	/*
	 * What the simulation was given: measured from the call log, or the
	 * platform's (the import then takes the capture's own tick-stop cost
	 * where it tells one: tick_stop_logged false).
	 */
	uint64_t select_lead_ns, tick_stop_ns;
	bool tick_stop_logged;
	/* With a call log: real periods whose select was found in it ... */
	uint64_t with_inputs;
	/* ... and, of the matched ones among them, those whose inputs agree. */
	uint64_t matched_inputs, same_tick_state, same_stop_tick, same_iowait;
	/* Of them, those whose select asked the sleep length (ladder never does), and alike. */
	uint64_t told_sleep, same_sleep;
	/*
	 * Of those given different states, the ones where one side's sleep
	 * length is under two thirds of the other's: an event that side saw
	 * and the other did not (the kernel's: a timer the capture lacks).
	 */
	uint64_t differing_inputs, kernel_sleep_shorter, model_sleep_shorter;
	int64_t select_lag_ns;		/* median of cpu_idle time − select clock */
	/*
	 * ... of the periods that did not stop a running tick, and of those
	 * that did, leaving out those whose select followed a polling limit
	 * (after_poll_limit_n of them)
	 */
	int64_t select_lag_keep_ns, select_lag_stop_ns;
	guint select_lag_keep_n, select_lag_stop_n, after_poll_limit_n;
};

/*
 * The capture's side of the comparison, into *out: its idle periods and,
 * with a call log, the kernel's inputs at each, its select lead and what
 * stopping the tick cost it (fidelity.c: measure_leads()), else the
 * platform's.  The call log must be of the same run with its clock the
 * capture's trace clock (trace_clock global).  out->tick_stop_ns is what
 * import_convert_cut() takes.  *out must be cleared with fidelity_clear()
 * whatever the result.
 */
bool fidelity_prepare(const struct fid_options *o, const struct capture *c, struct fidelity *out,
		      GError **error);

/*
 * Simulates o->gov on the imported trace (written at trace_path), choosing
 * f->select_lead_ns before each entry, and compares it with the capture
 * that fidelity_prepare() read into f.  The figures are over the periods
 * entered after the warm-up.
 */
bool fidelity_compute(const struct fid_options *o, const struct capture *c,
		      const struct imported *im, const char *trace_path, struct fidelity *f,
		      GError **error);
void fidelity_clear(struct fidelity *f);
/* *dst: what fidelity_prepare() read into src, for another governor to be compared with. */
void fidelity_copy_prepared(const struct fidelity *src, struct fidelity *dst);

/*
 * A select of the call log that carries a decision, and whether the CPU
 * came to it from a polling limit (its last reflect's poll_time_limit):
 * the way back to select is then the idle loop's alone, not a task's
 * switch to the idle task, and the simulator takes no lead there.
 */
struct fid_select {
	struct calllog_select call;
	bool after_poll_limit;
};

/* The call log's selects (struct fid_select), by CPU and then clock; *out is the caller's to free. */
bool fidelity_read_selects(const char *calls, GArray **out, GError **error);

/*
 * The PM QoS limit those selects carried between from_ns and to_ns, the
 * most frequent if several (INT32_MAX: none, which the log writes as
 * 2000000000): what the simulation must run under.
 */
int32_t fidelity_latency_limit(const GArray *selects, uint64_t from_ns, uint64_t to_ns);

/* Total variation distance of two count vectors, as shares of their sums. */
double fidelity_tvd(const uint64_t *a, const uint64_t *b, unsigned int n);

/*
 * A run of polling periods: FIDELITY_POLL_RUN_MIN or more periods in a row
 * on one CPU, all in polling states.  Counts s's runs into s->poll_runs,
 * poll_run_periods and poll_run_unmatched (periods matched to none of the
 * other side's), and fills s->usage_outside_runs from s->usage.  The
 * periods must be by CPU, then by entry, and matched.
 */
#define FIDELITY_POLL_RUN_MIN	20
void fidelity_count_poll_runs(const struct platform *pl, struct fid_side *s);

/* The report: figures side by side, then the summary. */
void fidelity_print(FILE *out, const struct fid_options *o, const char *capture,
		    const struct fidelity *f);
/* Every period of both sides, matched pairs on one line (CSV). */
void fidelity_write_periods(FILE *out, const struct fidelity *f);

#endif /* TEOSIM_IMPORT_FIDELITY_H */

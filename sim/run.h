/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running governors over traces: every CPU of every trace under every
 * governor is one job with its own single-CPU machine.  The jobs of a trace
 * are split into as many groups as the threads allow; a group's jobs are fed
 * from one pass over the trace (feed.h), so a trace is read once per group,
 * not once per job.  Scores are merged in job order, so the results do not
 * depend on the number of threads.
 */
#ifndef TEOSIM_SIM_RUN_H
#define TEOSIM_SIM_RUN_H

#include <stdbool.h>

#include <glib.h>
#include <kshim/registry.h>

#include "idle-loop.h"
#include "phase-score.h"
#include "platform.h"
#include "plot-data.h"
#include "score.h"

struct sim_run_options {
	const struct platform *platform;
	unsigned int hz;
	int32_t latency_limit_us;	/* INT32_MAX: no limit */
	unsigned int threads;		/* 1: everything in the calling thread */
	bool progress;			/* count finished jobs on stderr */
	bool plots;			/* collect what the figures need */
	bool phases;			/* score each workload phase too */
};

/* One governor over one trace. */
struct sim_result {
	const struct kshim_governor *gov;
	const char *trace;		/* the path given */
	unsigned int nr_cpus;
	struct cpu_score *cpus;
	struct cpu_score all;		/* the CPUs' scores added up */
	/* With plots: all CPUs' decisions, and CPU 0's timeline and phases. */
	struct plot_series *plot;
	/* With phases: the phases' scores, the CPUs' added up. */
	struct phase_scores *phases;
};

/*
 * Runs each governor over each trace; (*out)[t * nr_govs + g] is governor g
 * on trace t.  On failure returns false with the error of the first failed
 * job (in job order, whatever thread ran it).
 */
bool sim_run_all(const struct sim_run_options *o, const struct kshim_governor *const *govs,
		 unsigned int nr_govs, char *const *traces, unsigned int nr_traces,
		 struct sim_result **out, GError **error);
void sim_results_free(struct sim_result *r, unsigned int n);

/* A governor with its own settings (platform, HZ, latency limit), for sim_run_cells(). */
struct sim_cell {
	const struct kshim_governor *gov;
	const struct sim_run_options *options;	/* its threads, progress and plots are not used */
};

/*
 * Runs every cell over one trace, all of them fed from a single pass over
 * it, in the calling thread: a sweep reads each trace once however many
 * governors, platforms and settings share it.  out[i] is cell i's result;
 * name stands for the trace's path in it.  On failure returns false with
 * the error of the first failed job, and out holds nothing to free.
 */
bool sim_run_cells(const char *trace, const char *name, const struct sim_cell *cells,
		   unsigned int n, struct sim_result *out, GError **error);

/* The configuration for a trace, from its header. */
struct sim_config sim_config_for(const struct sim_run_options *o,
				 const struct trace_header *h);

#endif /* TEOSIM_SIM_RUN_H */

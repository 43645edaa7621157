/* SPDX-License-Identifier: GPL-2.0 */
/* Figures for the simulation commands (--plot DIR, teosim plot). */
#ifndef TEOSIM_PLOT_OUTPUT_H
#define TEOSIM_PLOT_OUTPUT_H

#include <stdbool.h>

#include <glib.h>

#include "diff.h"
#include "run.h"

/*
 * Writes the per-governor figures and energy-latency for results (collected
 * with o->plots), one series per governor and trace.
 */
bool teosim_write_run_plots(const char *dir, const struct sim_run_options *o,
			    struct sim_result *results, unsigned int nr_results,
			    unsigned int nr_traces, GError **error);
bool teosim_write_diff_plots(const char *dir, const struct diff_result *d, GError **error);

#endif /* TEOSIM_PLOT_OUTPUT_H */

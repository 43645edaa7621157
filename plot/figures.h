/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures: for each, NAME.dat (the numbers), NAME.gp (the gnuplot
 * script, meant to be edited) and, when gnuplot is installed, NAME.png and
 * NAME.svg.
 *
 *   decisions-GOV       good / above / below decisions per selected state,
 *                       with the agreement with the hindsight-optimal state
 *   idle-histogram-GOV  actual idle durations (log axis) by selected state,
 *                       each state's target residency drawn as a line
 *   timeline-GOV        selected vs hindsight-optimal state over simulated
 *                       time, workload phase changes marked
 *   energy-latency      energy against added wakeup latency, a point per
 *                       governor (and platform)
 *   diff-matrix         how often governor A chose state i while B chose j
 *   diff-timeline       the share of decisions that differ, over time
 */
#ifndef TEOSIM_FIGURES_H
#define TEOSIM_FIGURES_H

#include <stdbool.h>

#include <glib.h>

#include "plot-data.h"

/*
 * Writes the per-governor figures of every series and energy-latency.
 * *rendered says whether gnuplot drew the images; when it is missing a
 * message says so on stderr, and data and scripts are still written.
 */
bool plot_write_runs(const char *dir, struct plot_series *series, unsigned int n,
		     bool *rendered, GError **error);
bool plot_write_diff(const char *dir, const struct plot_diff *d, bool *rendered,
		     GError **error);

#endif /* TEOSIM_FIGURES_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's figures, drawn by gnuplot from a summary (plot/gnuplot.h):
 * figures/NAME.dat, .gp, and, with gnuplot, .png and .svg.
 *
 *   SETTING      each governor's energy above the hindsight-optimal
 *                schedule per workload family, with 95% intervals
 *   gen-A-vs-B   governor B's energy minus A's, per setting and family,
 *                with the paired 95% intervals
 */
#ifndef TEOSIM_SWEEP_SWEEP_FIGURES_H
#define TEOSIM_SWEEP_SWEEP_FIGURES_H

#include <stdbool.h>

#include <glib.h>

#include "summary.h"

/* Writes every figure's data and script into dir. */
bool sweep_figures_write(const char *dir, struct sweep_summary *m, GError **error);
/*
 * Draws them all with gnuplot (its path), up to threads at a time; false
 * with the error of the first figure, in the report's order, that failed.
 */
bool sweep_figures_render(const char *dir, struct sweep_summary *m, const char *gnuplot,
			  unsigned int threads, GError **error);

/* The figure's name (without extension) under dir/figures; the caller frees it. */
char *sweep_figure_generation_name(const struct sweep *s, unsigned int a, unsigned int b);

#endif /* TEOSIM_SWEEP_SWEEP_FIGURES_H */

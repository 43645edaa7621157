/* SPDX-License-Identifier: GPL-2.0 */
/* Running the real gnuplot on a figure script. */
#ifndef TEOSIM_GNUPLOT_H
#define TEOSIM_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

#include "out-file.h"

/* The gnuplot program found in PATH, or NULL; the caller frees it. */
char *gnuplot_find(void);

/*
 * Starts a figure script NAME.gp in dir: a header saying how to redraw it,
 * and the PNG terminal.  The caller writes the plot commands, then calls
 * gnuplot_script_end(), which redraws the same plot as SVG.
 */
struct out_file *gnuplot_script_begin(const char *dir, const char *name, const char *what,
				      GError **error);
bool gnuplot_script_end(struct out_file *gp, const char *name, GError **error);

/* Runs gnuplot on dir/NAME.gp, in dir. */
bool gnuplot_render(const char *gnuplot, const char *dir, const char *name, GError **error);

/* dir/NAME.dat, for writing to ->f; in place once closed without an error. */
struct out_file *plot_data_open(const char *dir, const char *name, GError **error);
bool plot_data_close(struct out_file *dat, GError **error);

/* Width and height of every rendered figure, in pixels. */
#define PLOT_WIDTH	960
#define PLOT_HEIGHT	600

#endif /* TEOSIM_GNUPLOT_H */

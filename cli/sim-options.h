/* SPDX-License-Identifier: GPL-2.0 */
/* The options that run, compare and diff share, and turning them into a run's settings. */
#ifndef TEOSIM_SIM_OPTIONS_H
#define TEOSIM_SIM_OPTIONS_H

#include <glib.h>

#include "platform.h"
#include "report.h"
#include "run.h"

struct sim_cli_options {
	char *platform;
	gint hz;
	gint latency_limit_us;		/* -1: none */
	gint threads;
	char *format;
	char *plot_dir;			/* --plot DIR, or NULL */
};

#define SIM_CLI_ENTRIES_MAX	7

/* Fills entries (SIM_CLI_ENTRIES_MAX at most) for o; returns how many. */
unsigned int sim_cli_entries(struct sim_cli_options *o, GOptionEntry *entries, bool with_format);

/*
 * Loads the platform and checks the values; pl must be cleared with
 * platform_clear() whatever the result.  Without --platform, the platform
 * is the one the traces' headers name, which must be the same for all.
 */
bool sim_cli_prepare(const struct sim_cli_options *o, char *const *traces, unsigned int nr_traces,
		     struct platform *pl, struct sim_run_options *run,
		     enum report_format *format, GError **error);
void sim_cli_options_clear(struct sim_cli_options *o);

/*
 * Splits "a,b,c" into governors; fails on an unknown name, more than
 * max of them, or, when distinct, a name given twice (its columns and
 * figures' lines could not be told apart).
 */
bool sim_cli_governors(const char *list, unsigned int max, bool distinct,
		       const struct kshim_governor ***out, unsigned int *n, GError **error);

#endif /* TEOSIM_SIM_OPTIONS_H */

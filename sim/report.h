/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing scores: an aligned table for people, CSV and JSON for programs.
 * CSV and JSON hold every figure of every CPU; the tables show a run per
 * CPU, or governors side by side with the best of each figure marked.
 */
#ifndef TEOSIM_SIM_REPORT_H
#define TEOSIM_SIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

#include "run.h"

/* The most governors a comparison table shows side by side. */
#define REPORT_GOVERNORS_MAX	16

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON };

/* "table", "csv" or "json"; NULL means table. */
bool report_format_parse(const char *name, enum report_format *out, GError **error);

/* results[t * nr_govs + g], as sim_run_all() returns them. */
struct report {
	const struct sim_run_options *options;
	const struct sim_result *results;
	unsigned int nr_traces, nr_govs;
};

/* A table per result with a row per CPU, or CSV or JSON. */
void report_runs(FILE *out, enum report_format f, const struct report *r);
/* A table per trace with the governors side by side, or CSV or JSON. */
void report_compare(FILE *out, enum report_format f, const struct report *r);

#endif /* TEOSIM_SIM_REPORT_H */

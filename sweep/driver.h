/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three ways to run a sweep: whole, one shard of it, or the merge of
 * its shards.  Whole and merged sweeps write the same bytes: results.csv,
 * results.json, report.md, report.html, figures/ and cells/.
 */
#ifndef TEOSIM_SWEEP_DRIVER_H
#define TEOSIM_SWEEP_DRIVER_H

#include <stdbool.h>

#include <glib.h>

#include "setup.h"
#include "simulate.h"

/* The whole sweep (o->shard.count 1), or one shard of it, into dir. */
bool sweep_run(const struct sweep *s, const struct sweep_run_options *o, const char *dir,
	       GError **error);
/*
 * The shards' directories, merged into dir; of o, figures are drawn on
 * o->threads threads, and the summary's window is o->summary_units.
 */
bool sweep_merge(const struct sweep *s, const struct sweep_run_options *o, char *const *shards,
		 unsigned int nr_shards, const char *dir, GError **error);

#endif /* TEOSIM_SWEEP_DRIVER_H */

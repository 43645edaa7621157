/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a sweep's cells.  Each workload is one task: its trace is
 * generated (for a scenario and a seed) into a temporary file, read once
 * for all its cells (sim_run_cells()), and removed.  Tasks run in a thread
 * pool, and their cells are handed to the writer and the summary in the
 * sweep's order, so the output does not depend on the threads.  A task
 * waits before starting when it runs too far ahead of the oldest unfinished
 * one, which bounds the memory of cells waiting for their turn.
 */
#ifndef TEOSIM_SWEEP_SIMULATE_H
#define TEOSIM_SWEEP_SIMULATE_H

#include <stdbool.h>

#include <glib.h>

#include "results.h"
#include "setup.h"
#include "summary.h"

struct sweep_run_options {
	unsigned int threads;
	struct sweep_shard shard;
	bool progress;		/* the progress line on stderr */
	unsigned int summary_units;	/* units in the summary's window; 0: its budget's */
};

/*
 * Runs the shard's workloads, writes each workload's cell tables (the
 * governors side by side, as `teosim compare` prints them) as
 * dir/cells/SETTING/WORKLOAD.txt, and hands its cells to wr and to m (which
 * may be NULL).  Returns false with the error of the first failed workload.
 */
bool sweep_simulate(const struct sweep *s, const struct sweep_run_options *o, const char *dir,
		    struct sweep_writer *wr, struct sweep_summary *m, GError **error);

/* dir/cells/SETTING/WORKLOAD.txt */
char *sweep_cell_table_path(const char *dir, const struct sweep *s, unsigned int setting,
			    unsigned int w);
/* dir/cells/SETTING/ for every setting. */
bool sweep_make_cell_dirs(const char *dir, const struct sweep *s, GError **error);

#endif /* TEOSIM_SWEEP_SIMULATE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep's machine-readable results, written a workload at a time in
 * cell order: results.csv (a row per cell), results.json (the cells, then
 * each governor's means and intervals per setting and family), or, for one
 * shard of a sweep, shard.txt, which `teosim sweep --merge` reads back
 * (traces/sweeps/README.md documents all three).
 */
#ifndef TEOSIM_SWEEP_RESULTS_H
#define TEOSIM_SWEEP_RESULTS_H

#include <stdbool.h>

#include <glib.h>

#include "setup.h"
#include "summary.h"

/* Shard index of count; count 1 is the whole sweep. */
struct sweep_shard {
	unsigned int index, count;
};

static inline bool sweep_shard_has(const struct sweep_shard *sh, unsigned int workload)
{
	return workload % sh->count == sh->index;
}

struct sweep_writer;

/*
 * With sh->count > 1, dir/shard.txt; else dir/results.csv, results.json
 * and phases.csv, and, with cells_path, the cells as a shard lists them
 * (for sweep_cells_open()).
 */
struct sweep_writer *sweep_writer_open(const char *dir, const struct sweep *s,
				       const struct sweep_shard *sh, const char *cells_path,
				       GError **error);
/* A block's cells, in cell order; blocks come in the sweep's order. */
void sweep_writer_add(struct sweep_writer *wr, const struct sweep_block *b,
		      const struct sweep_cell_values *cells);
/* Ends the list of cells (cells_path), to be read back before the results end. */
bool sweep_writer_end_cells(struct sweep_writer *wr, GError **error);
/* Ends the files (results.json with m's summary); frees wr.  m is NULL for a shard. */
bool sweep_writer_close(struct sweep_writer *wr, struct sweep_summary *m, GError **error);

/* Reading shards back, for the merge. */
struct sweep_shard_reader;

/*
 * Opens every shard directory and checks that they are the count shards
 * of this sweep (the same file, by its SHA-256), each once.
 */
struct sweep_shard_reader *sweep_shards_open(const struct sweep *s, char *const *dirs,
					     unsigned int count, GError **error);
/* A whole sweep's cells, written with sweep_writer_open()'s cells_path, as a shard of one. */
struct sweep_shard_reader *sweep_cells_open(const struct sweep *s, const char *path,
					    GError **error);
/*
 * A block's cells, from the shard that ran its workload; blocks must be
 * read in the sweep's order.  Errors name file:line:field.
 */
bool sweep_shards_read(struct sweep_shard_reader *r, const struct sweep_block *b,
		       struct sweep_cell_values *cells, GError **error);
/* The shard directory that holds workload w's cell tables. */
const char *sweep_shards_dir(const struct sweep_shard_reader *r, unsigned int w);
/* Checks that every shard ended where it should, then frees r (error NULL: just frees). */
bool sweep_shards_close(struct sweep_shard_reader *r, GError **error);

#endif /* TEOSIM_SWEEP_RESULTS_H */

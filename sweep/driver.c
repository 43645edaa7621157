// SPDX-License-Identifier: GPL-2.0
#include <glib/gstdio.h>
#include <stdio.h>

#include "driver.h"
#include "kvline.h"
#include "out-dir.h"
#include "sweep-report.h"
#include "small-file.h"

/* A cell table is a page of text: anything larger is not one of ours. */
#define CELL_TABLE_MAX	(1u << 20)

/* A whole sweep's cells, listed while they run for the summary's later windows. */
#define CELLS_FILE	"cells-for-summary.txt"

/* Where the summary's later passes read the cells: a whole sweep's list, or the shards. */
struct cell_source {
	const char *path;
	char *const *shards;
	unsigned int nr_shards;
};

static bool copy_file(const char *from, const char *to, GError **error)
{
	g_autofree char *text = NULL;
	size_t len;

	return small_file_read(from, CELL_TABLE_MAX, &text, &len, error) &&
	       g_file_set_contents(to, text, (gssize)len, error);
}

/* A block's cell tables, from the shard that ran it. */
static bool copy_cell_tables(const struct sweep *s, const char *shard,
			     const struct sweep_block *b, const char *dir, GError **error)
{
	for (unsigned int set = b->setting; set < b->setting + b->nr_settings; set++) {
		g_autofree char *from = sweep_cell_table_path(shard, s, set, b->workload);
		g_autofree char *to = sweep_cell_table_path(dir, s, set, b->workload);

		if (!copy_file(from, to, error))
			return false;
	}
	return true;
}

/*
 * Every block's cells from r, in the sweep's order, to the summary's
 * window being filled; with wr (a merge's first pass), to the writer too,
 * with their cell tables copied into dir from the shard that ran them.
 */
static bool pass_cells(const struct sweep *s, struct sweep_shard_reader *r,
		       struct sweep_summary *m, struct sweep_writer *wr, const char *dir,
		       GError **error)
{
	g_autofree struct sweep_cell_values *cells =
		g_new(struct sweep_cell_values, (size_t)sweep_block_settings(s) * s->nr_govs);

	for (unsigned int w = 0; w < s->nr_workloads; w++)
		for (unsigned int k = 0; k < sweep_blocks_per_workload(s); k++) {
			struct sweep_block b = sweep_block_at(s, w, k);

			if (!sweep_shards_read(r, &b, cells, error) ||
			    (wr && !copy_cell_tables(s, sweep_shards_dir(r, w), &b, dir, error)))
				return false;
			if (wr)
				sweep_writer_add(wr, &b, cells);
			sweep_summary_add(m, &b, cells);
		}
	return true;
}

/* A pass over every cell, for the summary's window being filled. */
static bool summarize_pass(const struct sweep *s, const struct cell_source *src,
			   struct sweep_summary *m, GError **error)
{
	struct sweep_shard_reader *r = src->path ? sweep_cells_open(s, src->path, error) :
				       sweep_shards_open(s, src->shards, src->nr_shards, error);
	bool ok;

	if (!r)
		return false;
	ok = pass_cells(s, r, m, NULL, NULL, error);
	return sweep_shards_close(r, ok ? error : NULL) && ok;
}

/*
 * Once every cell went to the writer and to the summary's first window:
 * the summary's other windows, a pass each, then results.json's summary
 * and the report, all into dir.
 */
static bool finish_whole(const struct sweep *s, const char *dir, const struct cell_source *src,
			 struct sweep_writer *wr, struct sweep_summary *m, unsigned int threads,
			 bool ok, GError **error)
{
	ok = ok && sweep_writer_end_cells(wr, error) && sweep_summary_end_window(m, error);
	while (ok && m->filling)
		ok = summarize_pass(s, src, m, error) && sweep_summary_end_window(m, error);
	if (src->path)
		g_unlink(src->path);
	ok = sweep_writer_close(wr, ok ? m : NULL, ok ? error : NULL) && ok;
	return ok && sweep_report_write(dir, m, threads, error) && sweep_summary_check(m, error);
}

bool sweep_run(const struct sweep *s, const struct sweep_run_options *o, const char *dir,
	       GError **error)
{
	g_autofree char *cells = NULL;
	struct sweep_summary m;
	struct sweep_writer *wr;
	struct out_dir out;
	bool whole = o->shard.count == 1, ok;

	if (!out_dir_open(&out, dir, error))
		return false;
	if (whole) {
		sweep_summary_init(&m, s, o->summary_units, out.tmp);
		if (m.nr_windows > 1)
			cells = g_build_filename(out.tmp, CELLS_FILE, NULL);
	}
	wr = sweep_writer_open(out.tmp, s, &o->shard, cells, error);
	ok = wr && sweep_simulate(s, o, out.tmp, wr, whole ? &m : NULL, error);
	if (whole && wr)
		ok = finish_whole(s, out.tmp, &(struct cell_source){ .path = cells }, wr, &m,
				  o->threads, ok, error);
	else if (wr)
		ok = sweep_writer_close(wr, NULL, ok ? error : NULL) && ok;
	if (whole)
		sweep_summary_clear(&m);
	return out_dir_finish(&out, ok, ok ? error : NULL);
}

bool sweep_merge(const struct sweep *s, const struct sweep_run_options *o, char *const *shards,
		 unsigned int nr_shards, const char *dir, GError **error)
{
	struct sweep_shard whole = { .index = 0, .count = 1 };
	struct cell_source src = { .shards = shards, .nr_shards = nr_shards };
	struct sweep_shard_reader *r;
	struct sweep_summary m;
	struct sweep_writer *wr;
	struct out_dir out;
	bool ok;

	if (!(r = sweep_shards_open(s, shards, nr_shards, error)))
		return false;
	if (!out_dir_open(&out, dir, error)) {
		sweep_shards_close(r, NULL);
		return false;
	}
	if (!(wr = sweep_writer_open(out.tmp, s, &whole, NULL, error))) {
		sweep_shards_close(r, NULL);
		return out_dir_finish(&out, false, NULL);
	}
	sweep_summary_init(&m, s, o->summary_units, out.tmp);
	ok = sweep_make_cell_dirs(out.tmp, s, error) && pass_cells(s, r, &m, wr, out.tmp, error);
	ok = sweep_shards_close(r, ok ? error : NULL) && ok;
	ok = finish_whole(s, out.tmp, &src, wr, &m, o->threads, ok, error);
	sweep_summary_clear(&m);
	return out_dir_finish(&out, ok, ok ? error : NULL);
}

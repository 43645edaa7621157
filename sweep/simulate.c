// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "eta.h"
#include "gen.h"
#include "kvline.h"
#include "leftovers.h"
#include "report.h"
#include "simulate.h"

/* How far a task may run ahead of the oldest unfinished one, in tasks per thread. */
#define AHEAD_PER_THREAD	4

struct task {
	struct sweep_block block;
	struct sweep_cell_values *cells;	/* once done */
	GError *error;
	bool done;
};

struct runner {
	const struct sweep *sweep;
	const struct sweep_run_options *options;
	const char *dir;
	char *tmp_dir;			/* generated traces */
	struct sweep_writer *writer;
	struct sweep_summary *summary;
	struct task *tasks;
	unsigned int nr_tasks, committed, window;
	bool failed;
	GMutex lock;
	GCond cond;
	/* progress */
	unsigned int cells_done, cells_total;
	gint64 started, shown;
};

char *sweep_cell_table_path(const char *dir, const struct sweep *s, unsigned int setting,
			    unsigned int w)
{
	g_autofree char *file = g_strconcat(s->workloads[w].name, ".txt", NULL);

	return g_build_filename(dir, "cells", s->settings[setting].name, file, NULL);
}

/*
 * The workload's trace: the given one, or a new one from its scenario and
 * seed, one for each block (generating costs about what reading does, and
 * blocks of one workload may run at the same time).
 */
static char *workload_trace(struct runner *r, const struct task *t, GError **error)
{
	const struct sweep_workload *w = &r->sweep->workloads[t->block.workload];
	g_autofree char *file = g_strdup_printf("%s-%u.trace", w->name, t->block.setting);
	char *path;
	FILE *f;
	bool ok;

	if (w->trace)
		return g_strdup(w->trace);
	path = g_build_filename(r->tmp_dir, file, NULL);
	if (!(f = fopen(path, "w"))) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path, g_strerror(errno));
		g_free(path);
		return NULL;
	}
	ok = gen_write(w->scenario, w->seed, f, error);
	if (fclose(f) && ok) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path, g_strerror(errno));
		ok = false;
	}
	if (!ok) {
		g_unlink(path);
		g_clear_pointer(&path, g_free);
	}
	return path;
}

static bool write_cell_table(const char *path, const struct report *rep, GError **error)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path, g_strerror(errno));
		return false;
	}
	report_compare(f, REPORT_TABLE, rep);
	ok = !ferror(f);
	if (fclose(f) || !ok) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: write error", path);
		return false;
	}
	return true;
}

/* Simulates a block's cells; their tables go to files, their figures to t->cells. */
static bool run_block(struct runner *r, struct task *t, GError **error)
{
	const struct sweep *s = r->sweep;
	const struct sweep_block *b = &t->block;
	const struct sweep_workload *w = &s->workloads[b->workload];
	unsigned int per_setting = s->nr_govs, n = sweep_block_cells(s, b);
	g_autofree struct sim_cell *cells = g_new(struct sim_cell, n);
	g_autofree struct sim_result *res = g_new0(struct sim_result, n);
	g_autofree char *name = g_strconcat(w->name, ".trace", NULL);
	g_autofree char *trace = workload_trace(r, t, error);
	bool ok;

	if (!trace)
		return false;
	for (unsigned int i = 0; i < n; i++)
		cells[i] = (struct sim_cell){
			.gov = s->govs[i % per_setting],
			.options = &s->settings[b->setting + i / per_setting].options,
		};
	ok = sim_run_cells(trace, name, cells, n, res, error);
	if (!w->trace)
		g_unlink(trace);
	if (!ok) {
		g_prefix_error(error, "workload %s: ", w->name);
		return false;
	}
	t->cells = g_new(struct sweep_cell_values, n);
	for (unsigned int i = 0; ok && i < b->nr_settings; i++) {
		struct report rep = { .options = &s->settings[b->setting + i].options,
				      .results = res + i * per_setting,
				      .nr_traces = 1, .nr_govs = per_setting };
		g_autofree char *path = sweep_cell_table_path(r->dir, s, b->setting + i,
							      b->workload);

		ok = write_cell_table(path, &rep, error);
		for (unsigned int g = 0; g < per_setting; g++) {
			struct metric_value v[METRICS_MAX];
			struct sweep_cell_values *out = &t->cells[i * per_setting + g];
			const struct sim_result *cell = &res[i * per_setting + g];

			metrics_compute(rep.options->platform, &cell->all, v);
			for (unsigned int k = 0; k < summary_metric_count; k++)
				memcpy(out->text[k], v[k].text, METRIC_TEXT_MAX);
			sweep_phase_values_set(out, cell->phases);
		}
	}
	sim_results_free(g_steal_pointer(&res), n);
	return ok;
}

static void show_progress(struct runner *r, bool last)
{
	gint64 now = g_get_monotonic_time();
	char line[128];

	if (!r->options->progress || (!last && now - r->shown < G_USEC_PER_SEC / 5))
		return;
	r->shown = now;
	sweep_eta_format(line, sizeof(line), r->cells_done, r->cells_total,
			 (double)(now - r->started) / G_USEC_PER_SEC);
	fprintf(stderr, "\rteosim sweep: %s\033[K%s", line, last ? "\n" : "");
}

/* With the lock held: hands on every finished task whose turn has come. */
static void commit_ready(struct runner *r)
{
	const struct sweep *s = r->sweep;

	while (r->committed < r->nr_tasks && r->tasks[r->committed].done && !r->failed) {
		struct task *t = &r->tasks[r->committed];

		if (t->error) {
			r->failed = true;
			break;
		}
		sweep_writer_add(r->writer, &t->block, t->cells);
		if (r->summary)
			sweep_summary_add(r->summary, &t->block, t->cells);
		g_clear_pointer(&t->cells, g_free);
		r->committed++;
		r->cells_done += sweep_block_cells(s, &t->block);
		show_progress(r, false);
	}
	g_cond_broadcast(&r->cond);
}

static void run_task(gpointer data, gpointer user_data)
{
	struct runner *r = user_data;
	struct task *t = data;
	unsigned int k = (unsigned int)(t - r->tasks);
	bool skip;

	g_mutex_lock(&r->lock);
	while (k >= r->committed + r->window && !r->failed)
		g_cond_wait(&r->cond, &r->lock);
	skip = r->failed;
	g_mutex_unlock(&r->lock);
	if (skip)
		g_set_error(&t->error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "not run");
	else
		run_block(r, t, &t->error);
	g_mutex_lock(&r->lock);
	t->done = true;
	commit_ready(r);
	g_mutex_unlock(&r->lock);
}

bool sweep_make_cell_dirs(const char *dir, const struct sweep *s, GError **error)
{
	for (unsigned int set = 0; set < s->nr_settings; set++) {
		g_autofree char *path = g_build_filename(dir, "cells", s->settings[set].name, NULL);

		if (g_mkdir_with_parents(path, 0777)) {
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path,
				    g_strerror(errno));
			return false;
		}
	}
	return true;
}

bool sweep_simulate(const struct sweep *s, const struct sweep_run_options *o, const char *dir,
		    struct sweep_writer *wr, struct sweep_summary *m, GError **error)
{
	struct runner r = { .sweep = s, .options = o, .dir = dir, .writer = wr, .summary = m,
			    .window = AHEAD_PER_THREAD * MAX(o->threads, 1) };
	bool ok = true;

	if (!sweep_make_cell_dirs(dir, s, error))
		return false;
	r.tmp_dir = g_dir_make_tmp("teosim-sweep-XXXXXX", error);
	if (!r.tmp_dir)
		return false;
	leftovers_add(r.tmp_dir);
	r.tasks = g_new0(struct task, (size_t)s->nr_workloads * sweep_blocks_per_workload(s));
	for (unsigned int w = 0; w < s->nr_workloads; w++)
		for (unsigned int k = 0; sweep_shard_has(&o->shard, w) &&
					  k < sweep_blocks_per_workload(s); k++) {
			r.tasks[r.nr_tasks].block = sweep_block_at(s, w, k);
			r.cells_total += sweep_block_cells(s, &r.tasks[r.nr_tasks++].block);
		}
	r.started = g_get_monotonic_time();
	g_mutex_init(&r.lock);
	g_cond_init(&r.cond);
	if (o->threads <= 1) {
		for (unsigned int k = 0; k < r.nr_tasks; k++)
			run_task(&r.tasks[k], &r);
	} else {
		GThreadPool *pool = g_thread_pool_new(run_task, &r, (gint)o->threads, TRUE, NULL);

		for (unsigned int k = 0; k < r.nr_tasks; k++)
			g_thread_pool_push(pool, &r.tasks[k], NULL);
		g_thread_pool_free(pool, FALSE, TRUE);
	}
	show_progress(&r, true);
	for (unsigned int k = 0; k < r.nr_tasks; k++) {
		if (r.tasks[k].error && ok) {
			g_propagate_error(error, r.tasks[k].error);
			r.tasks[k].error = NULL;
			ok = false;
		}
		g_clear_error(&r.tasks[k].error);
		g_free(r.tasks[k].cells);
	}
	leftovers_remove(r.tmp_dir);
	g_free(r.tmp_dir);
	g_free(r.tasks);
	g_mutex_clear(&r.lock);
	g_cond_clear(&r.cond);
	return ok;
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kvline.h"
#include "text-out.h"
#include "results.h"

#define SHARD_FILE	"shard.txt"
#define KEY_COLUMNS	"workload,family,seed,platform,hz,latency_limit_us,governor"

struct sweep_writer {
	const struct sweep *sweep;
	char *csv_path, *json_path, *phases_path, *cells_path;
	FILE *csv, *json, *phases;	/* a whole sweep's results */
	FILE *cells;			/* the cells as a shard lists them */
	bool first_cell;
};

static FILE *create(const char *path, GError **error)
{
	FILE *f = fopen(path, "w");

	if (!f)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path,
			    g_strerror(errno));
	return f;
}

static bool finish(FILE *f, const char *path, GError **error)
{
	bool ok = !ferror(f);

	errno = 0;
	ok &= fclose(f) == 0;
	if (!ok)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path,
			    errno ? g_strerror(errno) : "write error");
	return ok;
}

struct sweep_writer *sweep_writer_open(const char *dir, const struct sweep *s,
				       const struct sweep_shard *sh, const char *cells_path,
				       GError **error)
{
	struct sweep_writer *wr = g_new0(struct sweep_writer, 1);

	wr->sweep = s;
	wr->first_cell = true;
	wr->cells_path = sh->count > 1 ? g_build_filename(dir, SHARD_FILE, NULL) :
					 g_strdup(cells_path);
	if (wr->cells_path) {
		if (!(wr->cells = create(wr->cells_path, error)))
			goto fail;
		fprintf(wr->cells, "# teosim sweep shard: the cells of one shard, for teosim sweep --merge\n"
				   "shard sweep=%s sha256=%s index=%u of=%u\n",
			s->spec.name, s->spec.sha256, sh->index, sh->count);
	}
	if (sh->count > 1)
		return wr;
	wr->csv_path = g_build_filename(dir, "results.csv", NULL);
	wr->json_path = g_build_filename(dir, "results.json", NULL);
	wr->phases_path = g_build_filename(dir, "phases.csv", NULL);
	if (!(wr->csv = create(wr->csv_path, error)) || !(wr->json = create(wr->json_path, error)) ||
	    !(wr->phases = create(wr->phases_path, error)))
		goto fail;
	fputs(KEY_COLUMNS, wr->csv);
	for (unsigned int k = 0; k < summary_metric_count; k++)
		fprintf(wr->csv, ",%s", summary_metrics[k].name);
	fputc('\n', wr->csv);
	fputs(KEY_COLUMNS ",phase", wr->phases);
	for (unsigned int k = 0; k < PHASE_METRICS; k++)
		fprintf(wr->phases, ",%s", sweep_phase_metric_names[k]);
	fputc('\n', wr->phases);
	fputs("{\n  \"sweep\": ", wr->json);
	json_string(wr->json, s->spec.name);
	fprintf(wr->json, ",\n  \"sha256\": \"%s\",\n  \"cells\": [", s->spec.sha256);
	return wr;
fail:
	if (wr->cells)
		fclose(wr->cells);
	if (wr->csv)
		fclose(wr->csv);
	if (wr->json)
		fclose(wr->json);
	g_free(wr->cells_path);
	g_free(wr->csv_path);
	g_free(wr->json_path);
	g_free(wr->phases_path);
	g_free(wr);
	return NULL;
}

static void shard_line(struct sweep_writer *wr, unsigned int cell, const struct sweep_workload *w,
		       const struct sweep_setting *set, const char *gov,
		       const struct sweep_cell_values *v)
{
	fprintf(wr->cells, "cell index=%u workload=%s setting=%s governor=%s phases=%u", cell,
		w->name, set->name, gov, v->nr_phases);
	for (unsigned int k = 0; k < summary_metric_count; k++)
		fprintf(wr->cells, " %s=%s", summary_metrics[k].name, v->text[k]);
	fputc('\n', wr->cells);
	for (unsigned int i = 0; i < v->nr_phases; i++) {
		fprintf(wr->cells, "phase name=%s", v->phases[i].name);
		for (unsigned int k = 0; k < PHASE_METRICS; k++)
			fprintf(wr->cells, " %s=%s", sweep_phase_metric_names[k],
				v->phases[i].text[k]);
		fputc('\n', wr->cells);
	}
}

/* The values of KEY_COLUMNS. */
static void csv_keys(FILE *f, const struct sweep_workload *w, const struct sweep_setting *set,
		     const char *gov)
{
	csv_field(f, w->name);
	fputc(',', f);
	csv_field(f, w->family);
	if (w->scenario)
		fprintf(f, ",%u,", w->seed);
	else
		fputs(",,", f);
	csv_field(f, set->options.platform->name);
	fprintf(f, ",%u,", set->options.hz);
	if (set->options.latency_limit_us == INT32_MAX)
		fputs("none", f);
	else
		fprintf(f, "%d", (int)set->options.latency_limit_us);
	fputc(',', f);
	csv_field(f, gov);
}

static void csv_row(struct sweep_writer *wr, const struct sweep_workload *w,
		    const struct sweep_setting *set, const char *gov,
		    const struct sweep_cell_values *v)
{
	csv_keys(wr->csv, w, set, gov);
	for (unsigned int k = 0; k < summary_metric_count; k++)
		fprintf(wr->csv, ",%s", v->text[k]);
	fputc('\n', wr->csv);
	for (unsigned int i = 0; i < v->nr_phases; i++) {
		csv_keys(wr->phases, w, set, gov);
		fputc(',', wr->phases);
		csv_field(wr->phases, v->phases[i].name);
		for (unsigned int k = 0; k < PHASE_METRICS; k++)
			fprintf(wr->phases, ",%s", v->phases[i].text[k]);
		fputc('\n', wr->phases);
	}
}

static void json_cell(struct sweep_writer *wr, const struct sweep_workload *w,
		      const struct sweep_setting *set, const char *gov,
		      const struct sweep_cell_values *v)
{
	FILE *f = wr->json;

	fputs(wr->first_cell ? "\n    {\"workload\": " : ",\n    {\"workload\": ", f);
	wr->first_cell = false;
	json_string(f, w->name);
	fputs(", \"family\": ", f);
	json_string(f, w->family);
	if (w->scenario)
		fprintf(f, ", \"seed\": %u", w->seed);
	else
		fputs(", \"seed\": null", f);
	fputs(", \"platform\": ", f);
	json_string(f, set->options.platform->name);
	fprintf(f, ", \"hz\": %u, \"latency_limit_us\": ", set->options.hz);
	if (set->options.latency_limit_us == INT32_MAX)
		fputs("null", f);
	else
		fprintf(f, "%d", (int)set->options.latency_limit_us);
	fputs(", \"governor\": ", f);
	json_string(f, gov);
	fputs(", \"metrics\": {", f);
	for (unsigned int k = 0; k < summary_metric_count; k++)
		fprintf(f, "%s\"%s\": %s", k ? ", " : "", summary_metrics[k].name, v->text[k]);
	fputs("}, \"phases\": [", f);
	for (unsigned int i = 0; i < v->nr_phases; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", f);
		json_string(f, v->phases[i].name);
		for (unsigned int k = 0; k < PHASE_METRICS; k++)
			fprintf(f, ", \"%s\": %s", sweep_phase_metric_names[k], v->phases[i].text[k]);
		fputc('}', f);
	}
	fputs("]}", f);
}

void sweep_writer_add(struct sweep_writer *wr, const struct sweep_block *b,
		      const struct sweep_cell_values *cells)
{
	const struct sweep *s = wr->sweep;
	unsigned int w = b->workload;
	unsigned int cell = sweep_cell_index(s, w, b->setting, 0);

	for (unsigned int set = b->setting; set < b->setting + b->nr_settings; set++)
		for (unsigned int g = 0; g < s->nr_govs; g++, cell++, cells++) {
			const char *gov = s->govs[g]->meta->name;

			if (wr->json) {
				csv_row(wr, &s->workloads[w], &s->settings[set], gov, cells);
				json_cell(wr, &s->workloads[w], &s->settings[set], gov, cells);
			}
			if (wr->cells)
				shard_line(wr, cell, &s->workloads[w], &s->settings[set], gov,
					   cells);
		}
}

bool sweep_writer_end_cells(struct sweep_writer *wr, GError **error)
{
	bool ok = !wr->cells || finish(wr->cells, wr->cells_path, error);

	wr->cells = NULL;
	return ok;
}

static void json_number(FILE *f, double v)
{
	char text[G_ASCII_DTOSTR_BUF_SIZE];

	fputs(g_ascii_formatd(text, sizeof(text), "%.9g", v), f);
}

static void json_summary(FILE *f, struct sweep_summary *m)
{
	const struct sweep *s = m->sweep;
	bool first = true;

	fputs("\n  ],\n  \"summary\": [", f);
	for (unsigned int set = 0; set < s->nr_settings; set++)
		for (unsigned int fam = 0; fam < s->nr_families; fam++)
			for (unsigned int g = 0; g < s->nr_govs; g++) {
				fputs(first ? "\n    {\"setting\": " : ",\n    {\"setting\": ", f);
				first = false;
				json_string(f, s->settings[set].name);
				fputs(", \"family\": ", f);
				json_string(f, s->families[fam]);
				fputs(", \"governor\": ", f);
				json_string(f, s->govs[g]->meta->name);
				fputs(", \"metrics\": {", f);
				for (unsigned int k = 0; k < summary_metric_count; k++) {
					struct sweep_stat st = sweep_summary_value(m, set, fam, g, k);

					fprintf(f, "%s\"%s\": {\"n\": %u, \"mean\": ", k ? ", " : "",
						summary_metrics[k].name, st.n);
					json_number(f, st.mean);
					fputs(", \"ci95\": ", f);
					if (st.interval)
						json_number(f, st.half_width);
					else
						fputs("null", f);
					fputc('}', f);
				}
				fputs("}}", f);
			}
	fputs("\n  ]\n}\n", f);
}

bool sweep_writer_close(struct sweep_writer *wr, struct sweep_summary *m, GError **error)
{
	bool ok = true;

	if (wr->cells)
		ok = finish(wr->cells, wr->cells_path, error);
	if (wr->json) {
		if (m)
			json_summary(wr->json, m);
		ok = finish(wr->csv, wr->csv_path, ok ? error : NULL) && ok;
		ok = finish(wr->json, wr->json_path, ok ? error : NULL) && ok;
		ok = finish(wr->phases, wr->phases_path, ok ? error : NULL) && ok;
	}
	g_free(wr->cells_path);
	g_free(wr->csv_path);
	g_free(wr->json_path);
	g_free(wr->phases_path);
	g_free(wr);
	return ok;
}

/* ---- reading shards ---- */

struct shard_in {
	char *dir;
	struct kv_reader kv;
	bool open;
};

struct sweep_shard_reader {
	const struct sweep *sweep;
	unsigned int count;
	struct shard_in *shards;	/* by shard index */
};

/* The shard file at path, of the shard directory dir (NULL for a whole sweep's cells). */
static bool read_shard_header(struct sweep_shard_reader *r, const char *dir, const char *path,
			      GError **error)
{
	const struct sweep *s = r->sweep;
	struct kv_reader kv;
	struct kv_line l;
	const char *name, *sha, *index, *of;
	uint64_t k, n;
	int got;

	if (!kv_open(&kv, path, error))
		return false;
	got = kv_next(&kv, &l, error);
	if (got == 0)
		kv_error(&kv, error, NULL, "empty: not a shard of teosim sweep");
	if (got <= 0)
		goto fail;
	if (strcmp(l.keyword, "shard")) {
		kv_error(&kv, error, NULL, "'%s': a shard file starts with a shard line", l.keyword);
		goto fail;
	}
	if (!(name = kv_need(&kv, &l, "sweep", error)) || !(sha = kv_need(&kv, &l, "sha256", error)) ||
	    !(index = kv_need(&kv, &l, "index", error)) || !(of = kv_need(&kv, &l, "of", error)) ||
	    !kv_check_all_used(&kv, &l, error) ||
	    !kv_u64(&kv, "of", of, 1, UINT32_MAX, &n, error) ||
	    !kv_u64(&kv, "index", index, 0, n - 1, &k, error))
		goto fail;
	if (strcmp(sha, s->spec.sha256)) {
		kv_error(&kv, error, "sha256", "a shard of another sweep file (%s is %s, not %s)",
			 s->spec.file.path, s->spec.sha256, sha);
		goto fail;
	}
	if (n != r->count) {
		kv_error(&kv, error, "of", "one of %" G_GUINT64_FORMAT " shards, but %u were given",
			 n, r->count);
		goto fail;
	}
	if (r->shards[k].open) {
		kv_error(&kv, error, "index", "shard %" G_GUINT64_FORMAT " is also %s", k,
			 r->shards[k].dir);
		goto fail;
	}
	r->shards[k] = (struct shard_in){ .dir = g_strdup(dir), .kv = kv, .open = true };
	return true;
fail:
	kv_close(&kv);
	return false;
}

static struct sweep_shard_reader *reader_new(const struct sweep *s, unsigned int count)
{
	struct sweep_shard_reader *r = g_new0(struct sweep_shard_reader, 1);

	r->sweep = s;
	r->count = count;
	r->shards = g_new0(struct shard_in, MAX(count, 1));
	return r;
}

struct sweep_shard_reader *sweep_shards_open(const struct sweep *s, char *const *dirs,
					     unsigned int count, GError **error)
{
	struct sweep_shard_reader *r = reader_new(s, count);

	if (count < 2) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "--merge needs the directories of 2 or more shards");
		sweep_shards_close(r, NULL);
		return NULL;
	}
	for (unsigned int i = 0; i < count; i++) {
		g_autofree char *path = g_build_filename(dirs[i], SHARD_FILE, NULL);

		if (!read_shard_header(r, dirs[i], path, error)) {
			sweep_shards_close(r, NULL);
			return NULL;
		}
	}
	return r;
}

struct sweep_shard_reader *sweep_cells_open(const struct sweep *s, const char *path,
					    GError **error)
{
	struct sweep_shard_reader *r = reader_new(s, 1);

	if (!read_shard_header(r, NULL, path, error)) {
		sweep_shards_close(r, NULL);
		return NULL;
	}
	return r;
}

static bool expect_field(const struct kv_reader *kv, struct kv_line *l, const char *key,
			 const char *want, GError **error)
{
	const char *got = kv_need(kv, l, key, error);

	if (!got)
		return false;
	if (strcmp(got, want)) {
		kv_error(kv, error, key, "'%s' where this sweep has '%s' (a shard of another sweep?)",
			 got, want);
		return false;
	}
	return true;
}

/* A metric's text: a finite number, short enough to print back as it came. */
static bool read_metric(const struct kv_reader *kv, struct kv_line *l, const char *name,
			char *out, GError **error)
{
	const char *text = kv_need(kv, l, name, error);
	char *end;
	double v;

	if (!text)
		return false;
	v = g_ascii_strtod(text, &end);
	if (!*text || *end || !isfinite(v) || strlen(text) >= METRIC_TEXT_MAX ||
	    strspn(text, "-0123456789.") != strlen(text)) {
		kv_error(kv, error, name, "'%s' is not a number as teosim prints them", text);
		return false;
	}
	memcpy(out, text, strlen(text) + 1);
	return true;
}

static bool read_phase_count(const struct kv_reader *kv, struct kv_line *l,
			     struct sweep_cell_values *c, GError **error)
{
	const char *text = kv_need(kv, l, "phases", error);
	uint64_t n;

	if (!text || !kv_u64(kv, "phases", text, 0, PHASE_SCORES_MAX, &n, error))
		return false;
	c->nr_phases = (unsigned int)n;
	return true;
}

/* The phase lines that follow a cell's line. */
static bool read_phases(struct kv_reader *kv, struct sweep_cell_values *c, GError **error)
{
	for (unsigned int i = 0; i < c->nr_phases; i++) {
		struct sweep_phase_values *v = &c->phases[i];
		const char *name;
		struct kv_line l;
		int got = kv_next(kv, &l, error);

		if (got == 0)
			kv_error(kv, error, NULL, "ends before the cell's phase %u (truncated?)", i);
		if (got <= 0)
			return false;
		if (strcmp(l.keyword, "phase")) {
			kv_error(kv, error, NULL, "'%s' where the cell's phase %u was due", l.keyword,
				 i);
			return false;
		}
		if (!(name = kv_need(kv, &l, "name", error)))
			return false;
		if (!*name || strlen(name) >= sizeof(v->name)) {
			kv_error(kv, error, "name", "a phase name has 1 to %zu characters",
				 sizeof(v->name) - 1);
			return false;
		}
		g_strlcpy(v->name, name, sizeof(v->name));
		for (unsigned int k = 0; k < PHASE_METRICS; k++)
			if (!read_metric(kv, &l, sweep_phase_metric_names[k], v->text[k], error))
				return false;
		if (!kv_check_all_used(kv, &l, error))
			return false;
	}
	return true;
}

bool sweep_shards_read(struct sweep_shard_reader *r, const struct sweep_block *b,
		       struct sweep_cell_values *cells, GError **error)
{
	const struct sweep *s = r->sweep;
	unsigned int w = b->workload;
	struct kv_reader *kv = &r->shards[w % r->count].kv;
	unsigned int cell = sweep_cell_index(s, w, b->setting, 0);
	char want[16];

	for (unsigned int set = b->setting; set < b->setting + b->nr_settings; set++)
		for (unsigned int g = 0; g < s->nr_govs; g++, cell++, cells++) {
			struct kv_line l;
			int got = kv_next(kv, &l, error);

			if (got == 0)
				kv_error(kv, error, NULL, "ends before cell %u (truncated?)", cell);
			if (got <= 0)
				return false;
			snprintf(want, sizeof(want), "%u", cell);
			if (strcmp(l.keyword, "cell")) {
				kv_error(kv, error, NULL, "'%s' where cell %u was due", l.keyword,
					 cell);
				return false;
			}
			if (!expect_field(kv, &l, "index", want, error) ||
			    !expect_field(kv, &l, "workload", s->workloads[w].name, error) ||
			    !expect_field(kv, &l, "setting", s->settings[set].name, error) ||
			    !expect_field(kv, &l, "governor", s->govs[g]->meta->name, error))
				return false;
			for (unsigned int k = 0; k < summary_metric_count; k++)
				if (!read_metric(kv, &l, summary_metrics[k].name, cells->text[k],
						 error))
					return false;
			if (!read_phase_count(kv, &l, cells, error) ||
			    !kv_check_all_used(kv, &l, error) || !read_phases(kv, cells, error))
				return false;
		}
	return true;
}

const char *sweep_shards_dir(const struct sweep_shard_reader *r, unsigned int w)
{
	return r->shards[w % r->count].dir;
}

bool sweep_shards_close(struct sweep_shard_reader *r, GError **error)
{
	bool ok = true;

	for (unsigned int i = 0; i < r->count; i++) {
		struct shard_in *in = &r->shards[i];
		struct kv_line l;

		if (!in->open)
			continue;
		if (error && ok) {
			int got = kv_next(&in->kv, &l, error);

			if (got > 0)
				kv_error(&in->kv, error, NULL,
					 "more cells than this shard's part of the sweep");
			ok = got == 0;
		}
		kv_close(&in->kv);
		g_free(in->dir);
	}
	g_free(r->shards);
	g_free(r);
	return ok;
}

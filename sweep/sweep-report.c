// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "doc.h"
#include "sweep-figures.h"
#include "gnuplot.h"
#include "kvline.h"
#include "sweep-report.h"

#define CELL_MAX	128

/* "1.234 ± 0.010", or "1.234" without an interval; value scaled first. */
static void format_stat(char *buf, const struct sweep_stat *st, double offset, double scale,
			int decimals)
{
	char mean[G_ASCII_DTOSTR_BUF_SIZE], half[G_ASCII_DTOSTR_BUF_SIZE], format[8];

	snprintf(format, sizeof(format), "%%.%df", decimals);
	g_ascii_formatd(mean, sizeof(mean), format, (st->mean + offset) * scale);
	if (!st->interval) {
		snprintf(buf, CELL_MAX, "%s", mean);
		return;
	}
	g_ascii_formatd(half, sizeof(half), format, st->half_width * scale);
	snprintf(buf, CELL_MAX, "%s ± %s", mean, half);
}

/* A difference and whether the seeds explain it: "+1.23 ± 0.40, differs". */
static void format_diff(char *buf, const struct sweep_stat *d, double scale, int decimals)
{
	char stat[CELL_MAX];

	format_stat(stat, d, 0, scale, decimals);
	snprintf(buf, CELL_MAX, "%s%.80s, %s", d->mean * scale > 0 ? "+" : "", stat,
		 !d->interval ? "one seed" : sweep_stat_differs(d) ? "differs" : "within noise");
}

static void intro(struct doc *d, struct sweep_summary *m)
{
	const struct sweep *s = m->sweep;
	/* The file's name, not its path: the same file gives the same report from anywhere. */
	g_autofree char *file = g_path_get_basename(s->spec.file.path);

	if (s->spec.description)
		doc_para(d, "%s", s->spec.description);
	doc_para(d, "%u governors, %u platforms, %u workload families (%u workloads), "
		    "%u settings (platform, HZ, latency limit): %u cells. Sweep file %s, "
		    "SHA-256 %s.", s->nr_govs, s->nr_platforms, s->nr_families, s->nr_workloads,
		 s->nr_settings, sweep_nr_cells(s), file, s->spec.sha256);
	doc_para(d, "Each figure is the mean over a family's seeds with its 95%% interval "
		    "(Student's t). Governors are ranked by their energy above the "
		    "hindsight-optimal schedule (energy_vs_optimal - 1). That schedule sleeps in "
		    "the deepest state whose target residency the idle time reaches, the kernel's "
		    "own rule, not the cheapest state: where a platform's power figures make a "
		    "shallower state cheaper for such times, a governor can come in below it "
		    "(a negative figure). 'vs best' is the paired "
		    "difference from the first governor over the same seeds: 'differs' when its "
		    "95%% interval leaves out zero. The cell tables are what `teosim compare` "
		    "prints for each workload.");
}

/* Governor indices by mean energy, the sweep's order breaking ties. */
static void rank(struct sweep_summary *m, unsigned int set, unsigned int f,
		 unsigned int *order)
{
	const struct sweep *s = m->sweep;

	for (unsigned int g = 0; g < s->nr_govs; g++)
		order[g] = g;
	for (unsigned int i = 1; i < s->nr_govs; i++)
		for (unsigned int j = i; j > 0; j--) {
			double x = sweep_summary_value(m, set, f, order[j - 1],
						       m->metric[RANK_ENERGY]).mean;
			double y = sweep_summary_value(m, set, f, order[j],
						       m->metric[RANK_ENERGY]).mean;

			if (y >= x)
				break;
			unsigned int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

static void cell_links(struct doc *d, const struct sweep *s, unsigned int set, unsigned int f)
{
	g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) hrefs = g_ptr_array_new_with_free_func(g_free);

	for (unsigned int w = 0; w < s->nr_workloads; w++) {
		if (strcmp(s->workloads[w].family, s->families[f]))
			continue;
		g_ptr_array_add(texts, s->workloads[w].scenario ?
				g_strdup_printf("seed %u", s->workloads[w].seed) :
				g_strdup(s->workloads[w].name));
		g_ptr_array_add(hrefs, g_strdup_printf("cells/%s/%s.txt", s->settings[set].name,
						       s->workloads[w].name));
	}
	doc_links(d, "Cell tables", texts->len, (const char *const *)texts->pdata,
		  (const char *const *)hrefs->pdata);
}

static void ranking_table(struct doc *d, struct sweep_summary *m, unsigned int set,
			  unsigned int f)
{
	static const char *const headers[] = {
		"rank", "governor", "energy above optimal, %", "vs best, points", "optimal, %",
		"above, %", "below, %", "wake latency, us",
	};
	const struct sweep *s = m->sweep;
	g_autofree unsigned int *order = g_new(unsigned int, s->nr_govs);
	char cells[8][CELL_MAX];
	const char *row[8];

	rank(m, set, f, order);
	doc_table_begin(d, 8, headers);
	for (unsigned int i = 0; i < s->nr_govs; i++) {
		unsigned int g = order[i];
		struct sweep_stat st;

		snprintf(cells[0], CELL_MAX, "%u", i + 1);
		snprintf(cells[1], CELL_MAX, "%s", s->govs[g]->meta->name);
		st = sweep_summary_value(m, set, f, g, m->metric[RANK_ENERGY]);
		format_stat(cells[2], &st, -1, 100, 2);
		if (i) {
			struct sweep_stat diff = sweep_summary_diff(m, set, f, order[0], g,
								    RANK_ENERGY);

			format_diff(cells[3], &diff, 100, 2);
		} else {
			snprintf(cells[3], CELL_MAX, "best");
		}
		st = sweep_summary_value(m, set, f, g, m->metric[RANK_OPTIMAL]);
		format_stat(cells[4], &st, 0, 1, 2);
		st = sweep_summary_value(m, set, f, g, m->metric[RANK_ABOVE]);
		format_stat(cells[5], &st, 0, 1, 2);
		st = sweep_summary_value(m, set, f, g, m->metric[RANK_BELOW]);
		format_stat(cells[6], &st, 0, 1, 2);
		st = sweep_summary_value(m, set, f, g, m->metric[RANK_LATENCY]);
		format_stat(cells[7], &st, 0, 1, 2);
		for (unsigned int c = 0; c < 8; c++)
			row[c] = cells[c];
		doc_table_row(d, row);
	}
	doc_table_end(d);
}

/* Each governor's share of hindsight-optimal choices in each phase of the workload. */
static void phase_table(struct doc *d, struct sweep_summary *m, unsigned int set,
			unsigned int f)
{
	const struct sweep *s = m->sweep;
	const struct sweep_family_phases *fp = &m->family_phases[f];
	g_autofree unsigned int *order = g_new(unsigned int, s->nr_govs);
	g_autofree const char **row = g_new(const char *, fp->n + 1);
	g_autofree char *cells = g_malloc((size_t)(fp->n + 1) * CELL_MAX);

	if (fp->n < 2)
		return;
	doc_para(d, "Optimal choices per phase, %% of the phase's scored periods:");
	row[0] = "governor";
	for (unsigned int i = 0; i < fp->n; i++)
		row[i + 1] = fp->names[i];
	doc_table_begin(d, fp->n + 1, row);
	rank(m, set, f, order);
	for (unsigned int r = 0; r < s->nr_govs; r++) {
		snprintf(cells, CELL_MAX, "%s", s->govs[order[r]]->meta->name);
		for (unsigned int i = 0; i < fp->n; i++) {
			struct sweep_stat st = sweep_summary_phase(m, set, f, order[r], i,
								   PHASE_OPTIMAL);

			format_stat(cells + (i + 1) * CELL_MAX, &st, 0, 1, 2);
		}
		for (unsigned int c = 0; c <= fp->n; c++)
			row[c] = cells + c * CELL_MAX;
		doc_table_row(d, row);
	}
	doc_table_end(d);
}

static void setting_heading(struct doc *d, const struct sweep *s, unsigned int set)
{
	const struct sweep_setting *st = &s->settings[set];
	const struct platform *p = st->options.platform;
	g_autofree char *limit = st->options.latency_limit_us == INT32_MAX ?
				 g_strdup("no latency limit") :
				 g_strdup_printf("latency limit %d us",
						 (int)st->options.latency_limit_us);
	g_autofree char *title = g_strdup_printf("%s: %s, HZ %u, %s", st->name, p->description,
						 st->options.hz, limit);

	doc_heading(d, 3, title);
}

static void rankings(struct doc *d, struct sweep_summary *m, bool drawn)
{
	const struct sweep *s = m->sweep;

	doc_heading(d, 2, "Governors ranked, per setting and workload");
	for (unsigned int set = 0; set < s->nr_settings; set++) {
		g_autofree char *svg = g_strdup_printf("figures/%s.svg", s->settings[set].name);

		setting_heading(d, s, set);
		if (drawn)
			doc_figure(d, svg, "energy above the hindsight-optimal schedule, per family");
		for (unsigned int f = 0; f < s->nr_families; f++) {
			g_autofree char *title = g_strdup_printf("%s on %s", s->families[f],
								 s->settings[set].name);

			doc_heading(d, 4, title);
			ranking_table(d, m, set, f);
			phase_table(d, m, set, f);
			cell_links(d, s, set, f);
		}
	}
}

static void generation_table(struct doc *d, struct sweep_summary *m, unsigned int a,
			     unsigned int b)
{
	static const char *const headers[] = {
		"setting", "family", "energy above optimal, points", "optimal, points",
		"wake latency, us",
	};
	const struct sweep *s = m->sweep;
	char cells[5][CELL_MAX];
	const char *row[5];

	doc_table_begin(d, 5, headers);
	for (unsigned int set = 0; set < s->nr_settings; set++)
		for (unsigned int f = 0; f < s->nr_families; f++) {
			struct sweep_stat e = sweep_summary_diff(m, set, f, a, b, RANK_ENERGY);
			struct sweep_stat o = sweep_summary_diff(m, set, f, a, b, RANK_OPTIMAL);
			struct sweep_stat l = sweep_summary_diff(m, set, f, a, b, RANK_LATENCY);

			snprintf(cells[0], CELL_MAX, "%s", s->settings[set].name);
			snprintf(cells[1], CELL_MAX, "%s", s->families[f]);
			format_diff(cells[2], &e, 100, 2);
			format_diff(cells[3], &o, 1, 2);
			format_diff(cells[4], &l, 1, 2);
			for (unsigned int c = 0; c < 5; c++)
				row[c] = cells[c];
			doc_table_row(d, row);
		}
	doc_table_end(d);
}

static void generations(struct doc *d, struct sweep_summary *m, bool drawn)
{
	const struct sweep *s = m->sweep;
	g_autofree unsigned int *a = NULL, *b = NULL;
	unsigned int n = sweep_generation_pairs(s, &a, &b);

	if (!n)
		return;
	doc_heading(d, 2, "Generations of a governor");
	doc_para(d, "The later generation minus the earlier, over the same seeds; "
		    "'differs' when the paired 95%% interval leaves out zero.");
	for (unsigned int i = 0; i < n; i++) {
		g_autofree char *name = sweep_figure_generation_name(s, a[i], b[i]);
		g_autofree char *svg = g_strdup_printf("figures/%s.svg", name);
		g_autofree char *title = g_strdup_printf("%s against %s", s->govs[b[i]]->meta->name,
							 s->govs[a[i]]->meta->name);

		doc_heading(d, 3, title);
		if (drawn)
			doc_figure(d, svg, title);
		generation_table(d, m, a[i], b[i]);
	}
}

bool sweep_report_write(const char *dir, struct sweep_summary *m, unsigned int threads,
			GError **error)
{
	g_autofree char *figures = g_build_filename(dir, "figures", NULL);
	g_autofree char *gnuplot = gnuplot_find();
	g_autofree char *title = g_strdup_printf("teosim sweep %s", m->sweep->spec.name);
	struct doc d;

	if (g_mkdir_with_parents(figures, 0777)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", figures,
			    g_strerror(errno));
		return false;
	}
	if (!gnuplot)
		fprintf(stderr, "teosim sweep: gnuplot is not installed: the report has no "
				"figures (their data and scripts are in %s)\n", figures);
	if (!sweep_figures_write(figures, m, error) ||
	    (gnuplot && !sweep_figures_render(figures, m, gnuplot, threads, error)) ||
	    !doc_open(&d, dir, "report", title, error))
		return false;
	intro(&d, m);
	rankings(&d, m, gnuplot != NULL);
	generations(&d, m, gnuplot != NULL);
	return doc_close(&d, error);
}

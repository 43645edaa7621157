// SPDX-License-Identifier: GPL-2.0
#include "sweep-figures.h"
#include "gnuplot.h"

/* energy_vs_optimal is a ratio near 1: its excess, in percent, shows the differences. */
static double excess_pct(double ratio)
{
	return (ratio - 1) * 100;
}

static void put_number(FILE *f, double v)
{
	char text[G_ASCII_DTOSTR_BUF_SIZE];

	fprintf(f, " %s", g_ascii_formatd(text, sizeof(text), "%.6f", v));
}

/* The plot command: one bar series with error bars per column pair of the data. */
static void plot_series(FILE *gp, const char *name, unsigned int n, const char *const *titles)
{
	fputs("plot ", gp);
	for (unsigned int i = 0; i < n; i++)
		fprintf(gp, "%s'%s.dat' using %u:%u%s title '%s' noenhanced", i ? ", \\\n     " : "",
			name, 2 + 2 * i, 3 + 2 * i, i ? "" : ":xtic(1)", titles[i]);
	fputc('\n', gp);
}

/* Labels turn upright when there are many of them. */
static void histogram_style(FILE *gp, const char *ylabel, unsigned int nr_labels)
{
	fprintf(gp, "set style data histograms\n"
		    "set style histogram errorbars gap 1 lw 1\n"
		    "set style fill solid 0.7 border -1\n"
		    "set key outside right top noenhanced\n"
		    "set xtics %s noenhanced\n"
		    "set ylabel '%s'\n"
		    "set yrange [*:*]\n",
		nr_labels > 8 ? "rotate by 90 right" : "rotate by -30", ylabel);
}

static bool write_setting(const char *dir, struct sweep_summary *m, unsigned int setting,
			  GError **error)
{
	const struct sweep *s = m->sweep;
	const char *name = s->settings[setting].name;
	g_autofree const char **titles = g_new(const char *, s->nr_govs);
	struct out_file *dat = plot_data_open(dir, name, error);
	struct out_file *gp;

	if (!dat)
		return false;
	fputs("# family, then per governor: energy above optimal (%), its 95% half-width\n",
	      dat->f);
	for (unsigned int f = 0; f < s->nr_families; f++) {
		fputs(s->families[f], dat->f);
		for (unsigned int g = 0; g < s->nr_govs; g++) {
			struct sweep_stat st = sweep_summary_value(m, setting, f, g,
								   m->metric[RANK_ENERGY]);

			put_number(dat->f, excess_pct(st.mean));
			put_number(dat->f, st.half_width * 100);
		}
		fputc('\n', dat->f);
	}
	if (!plot_data_close(dat, error))
		return false;
	gp = gnuplot_script_begin(dir, name, "energy above the hindsight-optimal schedule", error);
	if (!gp)
		return false;
	histogram_style(gp->f, "energy above optimal, % (95% interval over seeds)",
			s->nr_families);
	fprintf(gp->f, "set title '%s' noenhanced\n", name);
	for (unsigned int g = 0; g < s->nr_govs; g++)
		titles[g] = s->govs[g]->meta->name;
	plot_series(gp->f, name, s->nr_govs, titles);
	return gnuplot_script_end(gp, name, error);
}

char *sweep_figure_generation_name(const struct sweep *s, unsigned int a, unsigned int b)
{
	return g_strdup_printf("gen-%s-vs-%s", s->govs[a]->meta->name, s->govs[b]->meta->name);
}

static bool write_generation(const char *dir, struct sweep_summary *m, unsigned int a,
			     unsigned int b, GError **error)
{
	const struct sweep *s = m->sweep;
	g_autofree char *name = sweep_figure_generation_name(s, a, b);
	g_autofree char *what = g_strdup_printf("%s minus %s: energy above optimal",
						s->govs[b]->meta->name, s->govs[a]->meta->name);
	struct out_file *dat = plot_data_open(dir, name, error);
	struct out_file *gp;

	if (!dat)
		return false;
	fputs("# setting, then per family: the difference in energy above optimal (points of %), "
	      "its paired 95% half-width\n", dat->f);
	for (unsigned int set = 0; set < s->nr_settings; set++) {
		fputs(s->settings[set].name, dat->f);
		for (unsigned int f = 0; f < s->nr_families; f++) {
			struct sweep_stat d = sweep_summary_diff(m, set, f, a, b, RANK_ENERGY);

			put_number(dat->f, d.mean * 100);
			put_number(dat->f, d.half_width * 100);
		}
		fputc('\n', dat->f);
	}
	if (!plot_data_close(dat, error))
		return false;
	gp = gnuplot_script_begin(dir, name, what, error);
	if (!gp)
		return false;
	histogram_style(gp->f, "difference, points of % (paired 95% interval)", s->nr_settings);
	fprintf(gp->f, "set title '%s' noenhanced\n", what);
	plot_series(gp->f, name, s->nr_families, (const char *const *)s->families);
	return gnuplot_script_end(gp, name, error);
}

/* Every figure's name, in the report's order. */
static GPtrArray *figure_names(const struct sweep *s)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	g_autofree unsigned int *a = NULL, *b = NULL;
	unsigned int n = sweep_generation_pairs(s, &a, &b);

	for (unsigned int set = 0; set < s->nr_settings; set++)
		g_ptr_array_add(names, g_strdup(s->settings[set].name));
	for (unsigned int i = 0; i < n; i++)
		g_ptr_array_add(names, sweep_figure_generation_name(s, a[i], b[i]));
	return names;
}

bool sweep_figures_write(const char *dir, struct sweep_summary *m, GError **error)
{
	const struct sweep *s = m->sweep;
	g_autofree unsigned int *a = NULL, *b = NULL;
	unsigned int n = sweep_generation_pairs(s, &a, &b);

	for (unsigned int set = 0; set < s->nr_settings; set++)
		if (!write_setting(dir, m, set, error))
			return false;
	for (unsigned int i = 0; i < n; i++)
		if (!write_generation(dir, m, a[i], b[i], error))
			return false;
	return true;
}

struct drawing {
	const char *dir, *gnuplot, *name;
	GError *error;
};

static void draw(gpointer data, gpointer user_data)
{
	struct drawing *d = data;

	(void)user_data;
	gnuplot_render(d->gnuplot, d->dir, d->name, &d->error);
}

bool sweep_figures_render(const char *dir, struct sweep_summary *m, const char *gnuplot,
			  unsigned int threads, GError **error)
{
	g_autoptr(GPtrArray) names = figure_names(m->sweep);
	g_autofree struct drawing *d = g_new0(struct drawing, names->len);
	GThreadPool *pool = g_thread_pool_new(draw, NULL, (gint)MAX(threads, 1), TRUE, NULL);
	bool ok = true;

	for (unsigned int i = 0; i < names->len; i++) {
		d[i] = (struct drawing){ .dir = dir, .gnuplot = gnuplot, .name = names->pdata[i] };
		g_thread_pool_push(pool, &d[i], NULL);
	}
	g_thread_pool_free(pool, FALSE, TRUE);
	for (unsigned int i = 0; i < names->len; i++) {
		if (d[i].error && ok) {
			g_propagate_error(error, d[i].error);
			d[i].error = NULL;
			ok = false;
		}
		g_clear_error(&d[i].error);
	}
	return ok;
}

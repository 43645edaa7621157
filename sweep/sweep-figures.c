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

static bool render(const char *dir, const char *name, const char *gnuplot, GError **error)
{
	return !gnuplot || gnuplot_render(gnuplot, dir, name, error);
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

bool sweep_figure_setting(const char *dir, const struct sweep_summary *m, unsigned int setting,
			  const char *gnuplot, GError **error)
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
	return gnuplot_script_end(gp, name, error) && render(dir, name, gnuplot, error);
}

char *sweep_figure_generation_name(const struct sweep *s, unsigned int a, unsigned int b)
{
	return g_strdup_printf("gen-%s-vs-%s", s->govs[a]->meta->name, s->govs[b]->meta->name);
}

bool sweep_figure_generation(const char *dir, const struct sweep_summary *m, unsigned int a,
			     unsigned int b, const char *gnuplot, GError **error)
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
	return gnuplot_script_end(gp, name, error) && render(dir, name, gnuplot, error);
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <glib/gstdio.h>

#include "figures.h"
#include "gnuplot.h"
#include "kvline.h"

/* One colour per state index, shallow to deep. */
static const char *const state_colours[KSHIM_STATE_MAX] = {
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e",
	"#e6ab02", "#a6761d", "#666666", "#1f78b4", "#b15928",
};

static void write_state_tics(FILE *gp, const char *axis, const struct plot_state *states,
			     unsigned int count)
{
	fprintf(gp, "set %stics (", axis);
	for (unsigned int i = 0; i < count; i++)
		fprintf(gp, "%s\"%s\" %u", i ? ", " : "", states[i].name, i);
	fprintf(gp, ")\n");
}

static bool make_dir(const char *dir, GError **error)
{
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", dir, g_strerror(errno));
		return false;
	}
	return true;
}

static bool decisions_figure(const char *dir, const struct plot_series *s, GError **error)
{
	g_autofree char *name = g_strdup_printf("decisions-%s", s->governor);
	double agree = s->periods ? 100.0 * (double)s->agree / (double)s->periods : 0.0;
	struct out_file *dat = plot_data_open(dir, name, error), *gp;

	if (!dat)
		return false;
	fprintf(dat->f, "# state good above below (idle periods, by the state selected)\n");
	for (unsigned int i = 0; i < s->state_count; i++)
		fprintf(dat->f, "%s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
			s->states[i].name, s->good[i], s->above[i], s->below[i]);
	if (!plot_data_close(dat, error))
		return false;

	gp = gnuplot_script_begin(dir, name, "good, above and below decisions per state", error);
	if (!gp)
		return false;
	fprintf(gp->f, "set title \"%s on %s: decisions per selected state\\n"
		    "agreement with the hindsight-optimal state: %.2f %% of %" G_GUINT64_FORMAT
		    " idle periods\"\n"
		    "set style data histograms\nset style histogram rowstacked\n"
		    "set style fill solid 0.85 border -1\nset boxwidth 0.7\n"
		    "set xlabel 'selected idle state'\nset ylabel 'idle periods'\n"
		    "set yrange [0:*]\nset key outside right top\n"
		    "plot '%s.dat' using 2:xtic(1) title 'good' lc rgb '#4daf4a', \\\n"
		    "     '' using 3 title 'above (too deep)' lc rgb '#e41a1c', \\\n"
		    "     '' using 4 title 'below (too shallow)' lc rgb '#377eb8'\n",
		s->governor, s->platform, agree, s->periods, name);
	return gnuplot_script_end(gp, name, error);
}

static bool histogram_figure(const char *dir, const struct plot_series *s, GError **error)
{
	g_autofree char *name = g_strdup_printf("idle-histogram-%s", s->governor);
	struct out_file *dat = plot_data_open(dir, name, error), *gp;

	if (!dat)
		return false;
	/* Per bin: its edges, then each state's stack from and to. */
	fprintf(dat->f, "# from_us to_us then per state (by index): stack_from stack_to\n");
	for (unsigned int b = 0; b < PLOT_HIST_BINS; b++) {
		uint64_t below = 0;

		fprintf(dat->f, "%.6g %.6g", plot_hist_bin_start_us(b), plot_hist_bin_start_us(b + 1));
		for (unsigned int i = 0; i < s->state_count; i++) {
			fprintf(dat->f, " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, below,
				below + s->hist[b][i]);
			below += s->hist[b][i];
		}
		fputc('\n', dat->f);
	}
	if (!plot_data_close(dat, error))
		return false;

	gp = gnuplot_script_begin(dir, name, "idle durations by selected state", error);
	if (!gp)
		return false;
	fprintf(gp->f, "set title \"%s on %s: actual idle durations, coloured by the state selected\\n"
		    "dashed lines: target residencies\"\n"
		    "set logscale x 10\nset xrange [1:1e7]\nset format x '10^{%%L}'\n"
		    "set xlabel 'idle duration (us)'\nset ylabel 'idle periods'\n"
		    "set yrange [0:*]\nset key outside right top\n"
		    "set style fill solid 0.85 border -1\n", s->governor, s->platform);
	for (unsigned int i = 0; i < s->state_count; i++) {
		if (s->states[i].target_residency_us < 1)
			continue;	/* no place on a log axis */
		fprintf(gp->f, "set arrow from %u, graph 0 to %u, graph 1 nohead dt 2 lc rgb '%s'\n"
			    "set label \"%s %u us\" at %u, graph 0.97 rotate by 90 right font ',8'\n",
			s->states[i].target_residency_us, s->states[i].target_residency_us,
			state_colours[i], s->states[i].name, s->states[i].target_residency_us,
			s->states[i].target_residency_us);
	}
	fprintf(gp->f, "plot ");
	for (unsigned int i = 0; i < s->state_count; i++)
		fprintf(gp->f, "%s'%s.dat' using (sqrt($1*$2)):($%u):1:2:%u:%u with boxxyerror "
			    "lc rgb '%s' title '%s'",
			i ? ", \\\n     " : "", name, 4 + 2 * i, 3 + 2 * i, 4 + 2 * i,
			state_colours[i], s->states[i].name);
	fputc('\n', gp->f);
	return gnuplot_script_end(gp, name, error);
}

static bool timeline_figure(const char *dir, const struct plot_series *s, GError **error)
{
	g_autofree char *name = g_strdup_printf("timeline-%s", s->governor);
	struct out_file *dat = plot_data_open(dir, name, error), *gp;

	if (!dat)
		return false;
	fprintf(dat->f, "# time_ms selected optimal (CPU 0, one idle period in %" G_GUINT64_FORMAT ")\n",
		s->stride);
	for (guint i = 0; i < s->timeline->len; i++) {
		const struct plot_sample *p = &g_array_index(s->timeline, struct plot_sample, i);

		fprintf(dat->f, "%.6f %d %d\n", (double)p->entry_ns / 1e6, p->chosen, p->optimal);
	}
	if (!plot_data_close(dat, error))
		return false;

	gp = gnuplot_script_begin(dir, name, "selected and hindsight-optimal states over time",
				  error);
	if (!gp)
		return false;
	fprintf(gp->f, "set title \"%s on %s: selected against hindsight-optimal state\\n"
		    "(CPU 0, one idle period in %" G_GUINT64_FORMAT "; dashed lines: workload phase changes)\"\n"
		    "set xlabel 'simulated time (ms)'\nset ylabel 'idle state'\n"
		    "set yrange [-0.5:%u.5]\nset key outside right top\n",
		s->governor, s->platform, s->stride, s->state_count - 1);
	write_state_tics(gp->f, "y", s->states, s->state_count);
	for (guint i = 0; i < s->phases->len; i++) {
		const struct plot_phase *p = &g_array_index(s->phases, struct plot_phase, i);
		double ms = (double)p->at_ns / 1e6;

		fprintf(gp->f, "set arrow from %.6f, graph 0 to %.6f, graph 1 nohead dt 2 lc rgb '#777777'\n"
			    "set label \"%s\" at %.6f, graph 0.98 left offset 0.3,0 font ',8'\n",
			ms, ms, p->name, ms);
	}
	fprintf(gp->f, "plot '%s.dat' using 1:3 with steps lw 2 lc rgb '#4daf4a' title 'hindsight-optimal', \\\n"
		    "     '' using 1:2 with points pt 7 ps 0.4 lc rgb '#e41a1c' title 'selected'\n",
		name);
	return gnuplot_script_end(gp, name, error);
}

static bool energy_latency_figure(const char *dir, const struct plot_series *series,
				  unsigned int n, GError **error)
{
	const char *name = "energy-latency";
	struct out_file *dat = plot_data_open(dir, name, error), *gp;

	if (!dat)
		return false;
	fprintf(dat->f, "# governor platform energy_mj optimal_energy_mj latency_mean_us latency_p99_us\n");
	for (unsigned int i = 0; i < n; i++)
		fprintf(dat->f, "%s %s %.6f %.6f %.3f %.3f\n", series[i].governor, series[i].platform,
			series[i].energy_mj, series[i].optimal_energy_mj,
			series[i].latency_mean_us, series[i].latency_p99_us);
	if (!plot_data_close(dat, error))
		return false;

	gp = gnuplot_script_begin(dir, name, "energy against added wakeup latency", error);
	if (!gp)
		return false;
	fprintf(gp->f, "set title \"Estimated energy against wakeup latency added by exit latencies\\n"
		    "(non-timer wakeups; bars reach the 99th percentile)\"\n"
		    "set xlabel 'added wakeup latency, mean (us)'\nset ylabel 'energy (mJ)'\n"
		    "set offsets graph 0.1, graph 0.3, graph 0.1, graph 0.1\nset key off\n"
		    "plot '%s.dat' using 5:3:5:6 with xerrorbars pt 7 ps 1.5 lc rgb '#377eb8', \\\n"
		    "     '' using 5:3:(sprintf('%%s (%%s)', stringcolumn(1), stringcolumn(2))) "
		    "with labels left offset 1,0.8 font ',9'\n", name);
	return gnuplot_script_end(gp, name, error);
}

static bool render_all(const char *dir, GPtrArray *names, bool *rendered, GError **error)
{
	g_autofree char *gnuplot = gnuplot_find();

	*rendered = false;
	if (!gnuplot) {
		fprintf(stderr, "teosim: gnuplot not found: wrote the data and scripts to %s, "
				"but no images (install gnuplot-nox)\n", dir);
		return true;
	}
	for (guint i = 0; i < names->len; i++)
		if (!gnuplot_render(gnuplot, dir, g_ptr_array_index(names, i), error))
			return false;
	*rendered = true;
	return true;
}

bool plot_write_runs(const char *dir, struct plot_series *series, unsigned int n,
		     bool *rendered, GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);

	if (!make_dir(dir, error))
		return false;
	for (unsigned int i = 0; i < n; i++) {
		if (!decisions_figure(dir, &series[i], error) ||
		    !histogram_figure(dir, &series[i], error) ||
		    !timeline_figure(dir, &series[i], error))
			return false;
		g_ptr_array_add(names, g_strdup_printf("decisions-%s", series[i].governor));
		g_ptr_array_add(names, g_strdup_printf("idle-histogram-%s", series[i].governor));
		g_ptr_array_add(names, g_strdup_printf("timeline-%s", series[i].governor));
	}
	if (!energy_latency_figure(dir, series, n, error))
		return false;
	g_ptr_array_add(names, g_strdup("energy-latency"));
	return render_all(dir, names, rendered, error);
}

bool plot_write_diff(const char *dir, const struct plot_diff *d, bool *rendered,
		     GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	struct out_file *dat, *gp;

	if (!make_dir(dir, error))
		return false;
	dat = plot_data_open(dir, "diff-matrix", error);
	if (!dat)
		return false;
	fprintf(dat->f, "# rows: %s's state, columns: %s's state; idle periods\n",
		d->governor_a, d->governor_b);
	for (unsigned int a = 0; a < d->state_count; a++) {
		for (unsigned int b = 0; b < d->state_count; b++)
			fprintf(dat->f, "%s%" G_GUINT64_FORMAT, b ? " " : "", d->matrix[a][b]);
		fputc('\n', dat->f);
	}
	if (!plot_data_close(dat, error))
		return false;
	gp = gnuplot_script_begin(dir, "diff-matrix", "how two governors' decisions part", error);
	if (!gp)
		return false;
	fprintf(gp->f, "set title \"States chosen by %s (rows) and %s (columns) for the same idle periods\"\n"
		    "set xlabel '%s'\nset ylabel '%s'\nset yrange [-0.5:%u.5] reverse\n"
		    "set xrange [-0.5:%u.5]\nset cblabel 'idle periods'\n"
		    "set palette defined (0 '#ffffff', 1 '#08519c')\nset key off\n",
		d->governor_a, d->governor_b, d->governor_b, d->governor_a,
		d->state_count - 1, d->state_count - 1);
	write_state_tics(gp->f, "x", d->states, d->state_count);
	write_state_tics(gp->f, "y", d->states, d->state_count);
	fprintf(gp->f, "plot 'diff-matrix.dat' matrix with image, \\\n"
		    "     '' matrix using 1:2:(sprintf('%%d', $3)) with labels font ',9'\n");
	if (!gnuplot_script_end(gp, "diff-matrix", error))
		return false;

	dat = plot_data_open(dir, "diff-timeline", error);
	if (!dat)
		return false;
	fprintf(dat->f, "# slice_start_ms decisions differing percent_differing\n");
	for (unsigned int i = 0; i < PLOT_DIFF_BUCKETS; i++)
		fprintf(dat->f, "%.6f %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %.3f\n",
			(double)(i * (d->end_ns / PLOT_DIFF_BUCKETS + 1)) / 1e6, d->decisions[i],
			d->differing[i],
			d->decisions[i] ? 100.0 * (double)d->differing[i] / (double)d->decisions[i] : 0.0);
	if (!plot_data_close(dat, error))
		return false;
	gp = gnuplot_script_begin(dir, "diff-timeline", "share of differing decisions over time",
				  error);
	if (!gp)
		return false;
	fprintf(gp->f, "set title \"Where %s and %s decide differently\"\n"
		    "set xlabel 'simulated time (ms)'\nset ylabel 'decisions that differ (%%)'\n"
		    "set yrange [0:100]\nset style fill solid 0.8 border -1\nset key off\n"
		    "plot 'diff-timeline.dat' using 1:4 with boxes lc rgb '#e41a1c'\n",
		d->governor_a, d->governor_b);
	if (!gnuplot_script_end(gp, "diff-timeline", error))
		return false;
	g_ptr_array_add(names, g_strdup("diff-matrix"));
	g_ptr_array_add(names, g_strdup("diff-timeline"));
	return render_all(dir, names, rendered, error);
}

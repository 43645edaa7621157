// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "kvline.h"
#include "metrics.h"
#include "plot-output.h"

/* A summary metric's value by name; the metric table is the report's. */
static double metric(const struct metric_value *values, const char *name)
{
	for (unsigned int i = 0; i < summary_metric_count; i++)
		if (!strcmp(summary_metrics[i].name, name))
			return values[i].value;
	g_error("no summary metric %s", name);
}

static void report_written(const char *dir, bool rendered)
{
	fprintf(stderr, "teosim: figures written to %s%s\n", dir,
		rendered ? " (data, gnuplot scripts, PNG and SVG)" : " (data and gnuplot scripts)");
}

bool teosim_write_run_plots(const char *dir, const struct sim_run_options *o,
			    struct sim_result *results, unsigned int nr_results,
			    unsigned int nr_traces, GError **error)
{
	g_autofree struct plot_series *series = g_new0(struct plot_series, nr_results);
	bool rendered;

	for (unsigned int i = 0; i < nr_results; i++) {
		struct metric_value values[METRICS_MAX];
		struct plot_series *s = &series[i];

		/* A shallow copy: the result keeps ownership of the arrays. */
		*s = *results[i].plot;
		if (nr_traces > 1) {
			g_autofree char *base = g_path_get_basename(results[i].trace);
			char *dot = strrchr(base, '.');

			if (dot)
				*dot = '\0';
			s->governor = g_strdup_printf("%s@%s", results[i].gov->meta->name, base);
		}
		metrics_compute(o->platform, &results[i].all, values);
		s->energy_mj = metric(values, "energy_mj");
		s->optimal_energy_mj = metric(values, "energy_vs_optimal") > 0 ?
			s->energy_mj / metric(values, "energy_vs_optimal") : 0;
		s->latency_mean_us = metric(values, "wake_latency_mean_us");
		s->latency_p99_us = metric(values, "wake_latency_p99_us");
	}
	bool ok = plot_write_runs(dir, series, nr_results, &rendered, error);

	if (nr_traces > 1)
		for (unsigned int i = 0; i < nr_results; i++)
			g_free(series[i].governor);
	if (ok)
		report_written(dir, rendered);
	return ok;
}

bool teosim_write_diff_plots(const char *dir, const struct diff_result *d, GError **error)
{
	bool rendered;

	if (!plot_write_diff(dir, d->plot, &rendered, error))
		return false;
	report_written(dir, rendered);
	return true;
}

// SPDX-License-Identifier: GPL-2.0
#include "kvline.h"
#include "text-out.h"
#include "metrics.h"
#include "report.h"
#include "text-table.h"

bool report_format_parse(const char *name, enum report_format *out, GError **error)
{
	if (!name || !strcmp(name, "table"))
		*out = REPORT_TABLE;
	else if (!strcmp(name, "csv"))
		*out = REPORT_CSV;
	else if (!strcmp(name, "json"))
		*out = REPORT_JSON;
	else {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "--format %s: use table, csv or json", name);
		return false;
	}
	return true;
}

static const char *state_name(const struct report *r, unsigned int i)
{
	return r->options->platform->states[i].desc.name;
}

static void print_setting(FILE *out, const struct report *r)
{
	const struct sim_run_options *o = r->options;

	fprintf(out, "platform %s, HZ %u, ", o->platform->name, o->hz);
	if (o->latency_limit_us == INT32_MAX)
		fprintf(out, "no latency limit\n");
	else
		fprintf(out, "latency limit %d us\n", (int)o->latency_limit_us);
}

static void note_above_below(FILE *out, const struct sim_result *res)
{
	if (!res->all.kernel_above_below)
		fprintf(out, "(%s: the 4.20 core kept no above/below counters; teosim counts them "
			     "with the 6.x definitions)\n", res->gov->meta->name);
}

/* ---- tables ---- */

static void summary_row(struct text_table *t, const struct report *r, const char *label,
			const struct cpu_score *s)
{
	struct metric_value v[METRICS_MAX];

	metrics_compute(r->options->platform, s, v);
	text_table_row(t);
	text_table_cell(t, label);
	for (unsigned int m = 0; m < summary_metric_count; m++)
		text_table_cell(t, v[m].text);
}

static void state_rows(struct text_table *t, const struct report *r, const char *label,
		       const struct cpu_score *s)
{
	struct metric_value v[METRICS_MAX];

	for (unsigned int i = 0; i < s->state_count; i++) {
		state_metrics_compute(s, i, v);
		text_table_row(t);
		text_table_cell(t, label);
		text_table_cell(t, state_name(r, i));
		for (unsigned int m = 0; m < state_metric_count; m++)
			text_table_cell(t, v[m].text);
	}
}

static void table_run(FILE *out, const struct report *r, const struct sim_result *res)
{
	struct text_table *sum = text_table_new(), *st = text_table_new();
	char label[16];

	fprintf(out, "%s on %s (%u CPUs), ", res->gov->meta->name, res->trace, res->nr_cpus);
	print_setting(out, r);
	text_table_row(sum);
	text_table_cell(sum, "cpu");
	for (unsigned int m = 0; m < summary_metric_count; m++)
		text_table_cell(sum, summary_metrics[m].name);
	text_table_row(st);
	text_table_cell(st, "cpu");
	text_table_cell(st, "state");
	for (unsigned int m = 0; m < state_metric_count; m++)
		text_table_cell(st, state_metrics[m].name);
	for (unsigned int cpu = 0; cpu < res->nr_cpus; cpu++) {
		snprintf(label, sizeof(label), "%u", cpu);
		summary_row(sum, r, label, &res->cpus[cpu]);
		state_rows(st, r, label, &res->cpus[cpu]);
	}
	summary_row(sum, r, "all", &res->all);
	state_rows(st, r, "all", &res->all);
	text_table_print(sum, out);
	fputc('\n', out);
	text_table_print(st, out);
	note_above_below(out, res);
	text_table_free(sum);
	text_table_free(st);
}

/* Marks with '*' the best value of a row; ties all get the mark. */
static void compare_row(struct text_table *t, const char *name, enum metric_better better,
			const struct metric_value *v, unsigned int n)
{
	double best = v[0].value;

	for (unsigned int g = 1; g < n; g++)
		if ((better == BETTER_LOWER && v[g].value < best) ||
		    (better == BETTER_HIGHER && v[g].value > best))
			best = v[g].value;
	text_table_row(t);
	text_table_cell(t, name);
	for (unsigned int g = 0; g < n; g++) {
		bool mark = better != BETTER_NEITHER && n > 1 && v[g].value == best;

		text_table_cellf(t, "%s%s", v[g].text, mark ? "*" : " ");
	}
}

static void table_compare(FILE *out, const struct report *r, const char *title,
			  const struct cpu_score *scores)
{
	const unsigned int n = r->nr_govs;
	struct text_table *t = text_table_new();
	g_autofree struct metric_value *v = g_new0(struct metric_value, (gsize)n * METRICS_MAX);

	fprintf(out, "%s, ", title);
	print_setting(out, r);
	text_table_row(t);
	text_table_cell(t, "metric");
	for (unsigned int g = 0; g < n; g++)
		text_table_cellf(t, "%s ", r->results[g].gov->meta->name);
	for (unsigned int g = 0; g < n; g++)
		metrics_compute(r->options->platform, &scores[g], &v[g * METRICS_MAX]);
	for (unsigned int m = 0; m < summary_metric_count; m++) {
		struct metric_value row[REPORT_GOVERNORS_MAX];

		for (unsigned int g = 0; g < n; g++)
			row[g] = v[g * METRICS_MAX + m];
		compare_row(t, summary_metrics[m].name, summary_metrics[m].better, row, n);
	}
	for (unsigned int i = 0; i < scores[0].state_count; i++)
		for (unsigned int m = 0; m < state_metric_count; m++) {
			struct metric_value row[REPORT_GOVERNORS_MAX], sv[METRICS_MAX];
			g_autofree char *name = g_strdup_printf("%s.%s", state_name(r, i),
								 state_metrics[m].name);

			for (unsigned int g = 0; g < n; g++) {
				state_metrics_compute(&scores[g], i, sv);
				row[g] = sv[m];
			}
			compare_row(t, name, BETTER_NEITHER, row, n);
		}
	text_table_print(t, out);
	fprintf(out, "(* best of the row)\n");
	for (unsigned int g = 0; g < n; g++)
		note_above_below(out, &r->results[g]);
	text_table_free(t);
}

/* ---- CSV ---- */

static void csv_line(FILE *out, const struct sim_result *res, const char *cpu,
		     const char *state, const char *metric, const char *value)
{
	csv_field(out, res->trace);
	fprintf(out, ",%s,%s,", res->gov->meta->name, cpu);
	csv_field(out, state);
	fprintf(out, ",%s,%s\n", metric, value);
}

static void csv_score(FILE *out, const struct report *r, const struct sim_result *res,
		      const char *cpu, const struct cpu_score *s)
{
	struct metric_value v[METRICS_MAX], sv[METRICS_MAX];

	metrics_compute(r->options->platform, s, v);
	for (unsigned int m = 0; m < summary_metric_count; m++)
		csv_line(out, res, cpu, "", summary_metrics[m].name, v[m].text);
	for (unsigned int i = 0; i < s->state_count; i++) {
		state_metrics_compute(s, i, sv);
		for (unsigned int m = 0; m < state_metric_count; m++)
			csv_line(out, res, cpu, state_name(r, i), state_metrics[m].name, sv[m].text);
	}
}

static void csv_all(FILE *out, const struct report *r)
{
	fprintf(out, "trace,governor,cpu,state,metric,value\n");
	for (unsigned int k = 0; k < r->nr_traces * r->nr_govs; k++) {
		const struct sim_result *res = &r->results[k];
		char cpu[16];

		for (unsigned int c = 0; c < res->nr_cpus; c++) {
			snprintf(cpu, sizeof(cpu), "%u", c);
			csv_score(out, r, res, cpu, &res->cpus[c]);
		}
		csv_score(out, r, res, "all", &res->all);
	}
}

/* ---- JSON ---- */

static void json_score(FILE *out, const struct report *r, const char *cpu,
		       const struct cpu_score *s)
{
	struct metric_value v[METRICS_MAX], sv[METRICS_MAX];

	metrics_compute(r->options->platform, s, v);
	fprintf(out, "        {\"cpu\": \"%s\", \"above_below_by\": \"%s\"", cpu,
		s->kernel_above_below ? "kernel" : "teosim");
	for (unsigned int m = 0; m < summary_metric_count; m++)
		fprintf(out, ", \"%s\": %s", summary_metrics[m].name, v[m].text);
	fprintf(out, ",\n         \"states\": [");
	for (unsigned int i = 0; i < s->state_count; i++) {
		state_metrics_compute(s, i, sv);
		fprintf(out, "%s\n           {\"name\": ", i ? "," : "");
		json_string(out, state_name(r, i));
		for (unsigned int m = 0; m < state_metric_count; m++)
			fprintf(out, ", \"%s\": %s", state_metrics[m].name, sv[m].text);
		fputc('}', out);
	}
	fprintf(out, "]}");
}

static void json_all(FILE *out, const struct report *r)
{
	const struct sim_run_options *o = r->options;

	fprintf(out, "{\n  \"platform\": ");
	json_string(out, o->platform->name);
	fprintf(out, ",\n  \"hz\": %u,\n  \"latency_limit_us\": ", o->hz);
	if (o->latency_limit_us == INT32_MAX)
		fprintf(out, "null");
	else
		fprintf(out, "%d", (int)o->latency_limit_us);
	fprintf(out, ",\n  \"results\": [");
	for (unsigned int k = 0; k < r->nr_traces * r->nr_govs; k++) {
		const struct sim_result *res = &r->results[k];
		char cpu[16];

		fprintf(out, "%s\n    {\"trace\": ", k ? "," : "");
		json_string(out, res->trace);
		fprintf(out, ", \"governor\": ");
		json_string(out, res->gov->meta->name);
		fprintf(out, ",\n      \"cpus\": [\n");
		for (unsigned int c = 0; c < res->nr_cpus; c++) {
			snprintf(cpu, sizeof(cpu), "%u", c);
			json_score(out, r, cpu, &res->cpus[c]);
			fprintf(out, ",\n");
		}
		json_score(out, r, "all", &res->all);
		fprintf(out, "]}");
	}
	fprintf(out, "\n  ]\n}\n");
}

void report_runs(FILE *out, enum report_format f, const struct report *r)
{
	if (f == REPORT_CSV)
		return csv_all(out, r);
	if (f == REPORT_JSON)
		return json_all(out, r);
	for (unsigned int k = 0; k < r->nr_traces * r->nr_govs; k++) {
		if (k)
			fputc('\n', out);
		table_run(out, r, &r->results[k]);
	}
}

void report_compare(FILE *out, enum report_format f, const struct report *r)
{
	const unsigned int n = r->nr_govs;

	if (f != REPORT_TABLE)
		return report_runs(out, f, r);
	for (unsigned int t = 0; t < r->nr_traces; t++) {
		g_autofree struct cpu_score *all = g_new0(struct cpu_score, n);

		for (unsigned int g = 0; g < n; g++)
			all[g] = r->results[t * n + g].all;
		if (t)
			fputc('\n', out);
		table_compare(out, r, r->results[t * n].trace, all);
	}
	if (r->nr_traces > 1) {
		g_autofree struct cpu_score *sum = g_new0(struct cpu_score, n);

		for (unsigned int t = 0; t < r->nr_traces; t++)
			for (unsigned int g = 0; g < n; g++)
				cpu_score_add(&sum[g], &r->results[t * n + g].all);
		fputc('\n', out);
		table_compare(out, r, "all traces", sum);
	}
}

// SPDX-License-Identifier: GPL-2.0
#include "fidelity.h"
#include "import-report.h"
#include "text-table.h"

/* Times in ms with µs precision: idle periods are µs to ms long. */
static void cell_ms(struct text_table *t, uint64_t ns)
{
	text_table_cellf(t, "%" G_GUINT64_FORMAT ".%03" G_GUINT64_FORMAT, ns / 1000000,
			 ns / 1000 % 1000);
}

static void counter_cells(struct text_table *t, uint64_t usage, uint64_t time_ns,
			  uint64_t above, uint64_t below)
{
	text_table_cellf(t, "%" G_GUINT64_FORMAT, usage);
	cell_ms(t, time_ns);
	text_table_cellf(t, "%" G_GUINT64_FORMAT, above);
	text_table_cellf(t, "%" G_GUINT64_FORMAT, below);
}

static void real_rows(struct text_table *t, const struct import_report *r)
{
	const struct platform *p = r->options->platform;
	struct real_state_usage all = { 0 };

	for (unsigned int i = 0; i < p->state_count; i++) {
		const struct real_state_usage *u = &r->real->states[i];

		text_table_row(t);
		text_table_cell(t, "real");
		text_table_cell(t, p->states[i].desc.name);
		counter_cells(t, u->usage, u->time_ns, u->above, u->below);
		if (r->real->have_miss_events) {
			text_table_cellf(t, "%" G_GUINT64_FORMAT, u->miss_above);
			text_table_cellf(t, "%" G_GUINT64_FORMAT, u->miss_below);
		}
		all.usage += u->usage;
		all.time_ns += u->time_ns;
		all.above += u->above;
		all.below += u->below;
		all.miss_above += u->miss_above;
		all.miss_below += u->miss_below;
	}
	text_table_row(t);
	text_table_cell(t, "real");
	text_table_cell(t, "all");
	counter_cells(t, all.usage, all.time_ns, all.above, all.below);
	if (r->real->have_miss_events) {
		text_table_cellf(t, "%" G_GUINT64_FORMAT, all.miss_above);
		text_table_cellf(t, "%" G_GUINT64_FORMAT, all.miss_below);
	}
}

static void sim_rows(struct text_table *t, const struct import_report *r,
		     const struct sim_result *s)
{
	const struct platform *p = r->options->platform;
	struct state_score all = { 0 };

	for (unsigned int i = 0; i < p->state_count; i++) {
		const struct state_score *u = &s->all.states[i];

		text_table_row(t);
		text_table_cell(t, s->gov->meta->name);
		text_table_cell(t, p->states[i].desc.name);
		counter_cells(t, u->usage, u->time_ns, u->above, u->below);
		all.usage += u->usage;
		all.time_ns += u->time_ns;
		all.above += u->above;
		all.below += u->below;
	}
	text_table_row(t);
	text_table_cell(t, s->gov->meta->name);
	text_table_cell(t, "all");
	counter_cells(t, all.usage, all.time_ns, all.above, all.below);
}

void import_report_print(FILE *out, const struct import_report *r)
{
	const struct real_usage *real = r->real;
	struct text_table *t = text_table_new();

	fprintf(out, "capture %s (%s): cpus %u, %" G_GUINT64_FORMAT " ns\n",
		r->capture->path, cap_format_name(r->capture->format), r->imported->header.nr_cpus,
		r->imported->header.end_ns);
	fprintf(out, "platform %s, HZ %u\n", r->options->platform->name, r->options->hz);
	fprintf(out, "real: complete idle periods: %" G_GUINT64_FORMAT ", left out as cut by the "
		"capture's edges or lost events: %" G_GUINT64_FORMAT "\n", real->periods, real->partial);
	if (real->tick_stops || real->tick_stop_failures)
		fprintf(out, "real: tick stops: %" G_GUINT64_FORMAT ", failed attempts: %"
			G_GUINT64_FORMAT "\n", real->tick_stops, real->tick_stop_failures);
	fprintf(out, "above/below: the 6.x kernel's definitions, from the platform's target "
		     "residencies and exit latencies\n\n");
	text_table_row(t);
	text_table_cell(t, "source");
	text_table_cell(t, "state");
	text_table_cell(t, "usage");
	text_table_cell(t, "time_ms");
	text_table_cell(t, "above");
	text_table_cell(t, "below");
	if (real->have_miss_events) {
		/* The kernel's own count, from its cpu_idle_miss events: a check on ours. */
		text_table_cell(t, "miss_above");
		text_table_cell(t, "miss_below");
	}
	real_rows(t, r);
	for (unsigned int g = 0; g < r->nr_sims; g++)
		sim_rows(t, r, &r->sims[g]);
	text_table_print(t, out);
	text_table_free(t);
	fprintf(out, "\nfidelity from %u ms into the capture and after each CPU's first %u periods, "
		"as teosim fidelity computes it without a call log (sim/README.md \"Fidelity\"):\n"
		"total variation distance of the per-state shares, real vs simulated (0: the "
		"same, 1: disjoint), matched periods given the same state, and the TVD of periods "
		"outside runs of %d or more polling periods in a row on one CPU\n",
		REPORT_FIDELITY_WARMUP_NS / 1000000, REPORT_FIDELITY_WARMUP_PERIODS,
		FIDELITY_POLL_RUN_MIN);
	for (unsigned int g = 0; g < r->nr_sims; g++) {
		const struct fidelity *f = &r->fidelity[g];
		const char *name = r->sims[g].gov->meta->name;

		if (!f->real.periods->len) {
			fprintf(out, "%s: no real period to compare after the warm-up\n", name);
			continue;
		}
		fprintf(out, "%s: tvd_periods %.4f tvd_time %.4f same_state %.2f%% (%" G_GUINT64_FORMAT
			" of %" G_GUINT64_FORMAT " matched of %u real periods) "
			"tvd_periods_outside_polling_runs %.4f\n", name, f->tvd_periods, f->tvd_time,
			f->matched ? 100.0 * (double)f->same_state / (double)f->matched : 0.0,
			f->same_state, f->matched, f->real.periods->len, f->tvd_periods_outside_runs);
	}
	for (unsigned int g = 0; g < r->nr_sims; g++)
		if (!r->sims[g].all.kernel_above_below)
			fprintf(out, "(%s: the 4.20 core kept no above/below counters; teosim counts "
				     "them with the 6.x definitions)\n", r->sims[g].gov->meta->name);
}

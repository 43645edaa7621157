// SPDX-License-Identifier: GPL-2.0
/* teosim fidelity's output: the two sides' figures, the summary, and the periods as CSV. */
#include <inttypes.h>

#include "fidelity.h"
#include "idle-loop.h"
#include "text-table.h"

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void count_row(struct text_table *t, const char *name, uint64_t real, uint64_t sim)
{
	text_table_row(t);
	text_table_cell(t, name);
	text_table_cellf(t, "%" PRIu64, real);
	text_table_cellf(t, "%" PRIu64, sim);
}

static void ms_row(struct text_table *t, const char *name, uint64_t real, uint64_t sim)
{
	text_table_row(t);
	text_table_cell(t, name);
	text_table_cellf(t, "%.3f", (double)real / 1e6);
	text_table_cellf(t, "%.3f", (double)sim / 1e6);
}

static void pct_row(struct text_table *t, const char *name, double real, double sim)
{
	text_table_row(t);
	text_table_cell(t, name);
	text_table_cellf(t, "%.2f", real);
	text_table_cellf(t, "%.2f", sim);
}

static uint64_t sum(const uint64_t *v, unsigned int n)
{
	uint64_t s = 0;

	for (unsigned int i = 0; i < n; i++)
		s += v[i];
	return s;
}

void fidelity_print(FILE *out, const struct fid_options *o, const char *capture,
		    const struct fidelity *f)
{
	const struct platform *pl = o->run->platform;
	const struct fid_side *r = &f->real, *s = &f->sim;
	uint64_t rn = sum(r->usage, f->state_count), sn = sum(s->usage, f->state_count);
	struct text_table *t = text_table_new();

	fprintf(out, "fidelity of %s on %s, platform %s, HZ %u", o->gov->meta->name, capture,
		pl->name, o->run->hz);
	if (o->run->latency_limit_us != INT32_MAX)
		fprintf(out, ", latency limit %d us", o->run->latency_limit_us);
	if (o->calls)
		fprintf(out, ", call log %s", o->calls);
	fprintf(out, "\nperiods compared from %.3f ms into the capture, after each CPU's "
		"first %u periods\n", (double)o->warmup_ns / 1e6, o->warmup_periods);
	text_table_row(t);
	text_table_cell(t, "metric");
	text_table_cell(t, "real");
	text_table_cell(t, "simulated");
	count_row(t, "periods", rn, sn);
	ms_row(t, "idle_ms", r->idle_ns, s->idle_ns);
	count_row(t, "above", r->above, s->above);
	count_row(t, "below", r->below, s->below);
	count_row(t, "tick_stops", r->tick_stops, s->tick_stops);
	for (unsigned int i = 0; i < f->state_count; i++) {
		g_autofree char *pn = g_strdup_printf("%s_periods_pct", pl->states[i].desc.name);
		g_autofree char *tn = g_strdup_printf("%s_time_pct", pl->states[i].desc.name);

		pct_row(t, pn, share(r->usage[i], rn), share(s->usage[i], sn));
		pct_row(t, tn, share(r->time_ns[i], r->idle_ns), share(s->time_ns[i], s->idle_ns));
	}
	text_table_print(t, out);
	text_table_free(t);
	fprintf(out, "tvd_periods %.4f\ntvd_time %.4f\n", f->tvd_periods, f->tvd_time);
	fprintf(out, "matched %" PRIu64 " of %" PRIu64 " real periods (%.2f%%), within %" PRIu64
		" ns of a simulated entry\n", f->matched, rn, share(f->matched, rn), o->match_ns);
	fprintf(out, "same_state %" PRIu64 " of %" PRIu64 " matched (%.2f%%)\n", f->same_state,
		f->matched, share(f->same_state, f->matched));
	fprintf(out, "polling_runs real %" PRIu64 " (%" PRIu64 " periods, %" PRIu64 " unmatched) "
		"simulated %" PRIu64 " (%" PRIu64 " periods, %" PRIu64 " unmatched): %d or more "
		"periods in a row in a polling state on one CPU, where a held-up interrupt turns "
		"one decision into dozens of periods\n", r->poll_runs, r->poll_run_periods,
		r->poll_run_unmatched, s->poll_runs, s->poll_run_periods, s->poll_run_unmatched,
		FIDELITY_POLL_RUN_MIN);
	fprintf(out, "tvd_periods_outside_polling_runs %.4f\n", f->tvd_periods_outside_runs);
	if (!o->calls)
		return;
	fprintf(out, "call log: %" PRIu64 " of %" PRIu64 " real periods found with their select "
		"(median lag %" PRId64 " ns; %" PRId64 " ns over %u keeping the tick, %" PRId64
		" ns over %u stopping it, leaving out %u after a polling limit)\n", f->with_inputs,
		rn, f->select_lag_ns, f->select_lag_keep_ns, f->select_lag_keep_n,
		f->select_lag_stop_ns, f->select_lag_stop_n, f->after_poll_limit_n);
	fprintf(out, "inputs of %" PRIu64 " matched periods: same tick state %.2f%%, same "
		"sleep length (10 %% or 20 us) ", f->matched_inputs,
		share(f->same_tick_state, f->matched_inputs));
	if (f->told_sleep)
		fprintf(out, "%.2f%%", share(f->same_sleep, f->told_sleep));
	else
		fputs("n/a (never asked)", out);
	fprintf(out, ", same stop_tick %.2f%%, same tasks in iowait %.2f%%\n",
		share(f->same_stop_tick, f->matched_inputs), share(f->same_iowait, f->matched_inputs));
	fprintf(out, "differing %" PRIu64 " kernel_sleep_shorter %" PRIu64 " model_sleep_shorter %"
		PRIu64 " (of the %" PRIu64 " matched periods, those given different states, and "
		"of them those where one side's sleep length was under 2/3 of the other's; the "
		"kernel's shorter: mostly its idle entry time later on a long way from the switch "
		"to the entry than the model's, else an event the capture does not show, such as "
		"a timer-wheel timer)\n", f->differing_inputs, f->kernel_sleep_shorter, f->model_sleep_shorter,
		f->matched_inputs);
}

/* entry_ns,residency_ns,state,sleep_ns,tick_stopped,stop_tick,iowait,wake_cause; empty where unknown. */
static void period_cells(FILE *out, const struct fid_period *p)
{
	static const char *const causes[WAKE_CAUSES] = {
		[WAKE_TIMER] = "timer", [WAKE_EVENT] = "event", [WAKE_TICK] = "tick",
		[WAKE_POLL_LIMIT] = "poll_limit",
	};

	if (!p) {
		fputs(",,,,,,,,", out);
		return;
	}
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%d,", p->entry_ns, p->exit_ns - p->entry_ns,
		p->state);
	if (p->has_inputs && p->sleep_ns != INT64_MIN)
		fprintf(out, "%" PRId64, p->sleep_ns);
	if (p->has_inputs)
		fprintf(out, ",%d,%d,%" PRIu32 ",", p->tick_was_stopped, p->stop_tick,
			p->iowait_tasks);
	else
		fputs(",,,,", out);
	if (p->cause >= 0 && p->cause < WAKE_CAUSES)
		fputs(causes[p->cause], out);
}

static void period_row(FILE *out, const struct fid_period *real, const struct fid_period *sim)
{
	fprintf(out, "%u", real ? real->cpu : sim->cpu);
	period_cells(out, real);
	period_cells(out, sim);
	fputc('\n', out);
}

void fidelity_write_periods(FILE *out, const struct fidelity *f)
{
	const GArray *real = f->real.periods, *sim = f->sim.periods;
	guint j = 0;

	fputs("cpu,real_entry_ns,real_residency_ns,real_state,real_sleep_ns,real_tick_stopped,"
	      "real_stop_tick,real_iowait,real_wake_cause,sim_entry_ns,sim_residency_ns,sim_state,"
	      "sim_sleep_ns,sim_tick_stopped,sim_stop_tick,sim_iowait,sim_wake_cause\n", out);
	/*
	 * Matches keep both sides in order: the first matched simulated period
	 * not yet written is the match of the next matched real period, and
	 * the unmatched ones go on lines of their own where their entry falls.
	 */
	for (guint i = 0; i < real->len; i++) {
		const struct fid_period *p = &g_array_index(real, struct fid_period, i);

		for (; j < sim->len; j++) {
			const struct fid_period *q = &g_array_index(sim, struct fid_period, j);

			if (q->match >= 0 || (p->match < 0 && (q->cpu > p->cpu ||
			    (q->cpu == p->cpu && q->entry_ns > p->entry_ns))))
				break;
			period_row(out, NULL, q);
		}
		if (p->match >= 0)
			period_row(out, p, &g_array_index(sim, struct fid_period, j++));
		else
			period_row(out, p, NULL);
	}
	for (; j < sim->len; j++)
		period_row(out, NULL, &g_array_index(sim, struct fid_period, j));
}

// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "metrics.h"

const struct metric summary_metrics[] = {
	{ "periods", "idle periods (the core's usage, all states)", BETTER_NEITHER },
	{ "above_pct", "periods whose state was too deep (kernel 'above'), %", BETTER_LOWER },
	{ "below_pct", "periods whose state was too shallow (kernel 'below'), %", BETTER_LOWER },
	{ "optimal_pct", "scored periods in the hindsight-optimal state, %", BETTER_HIGHER },
	{ "too_deep", "scored periods deeper than hindsight-optimal", BETTER_LOWER },
	{ "too_shallow", "scored periods shallower than hindsight-optimal", BETTER_LOWER },
	{ "energy_mj", "busy + idle + exit energy of the scored time, mJ", BETTER_LOWER },
	{ "energy_vs_optimal", "energy over the hindsight-optimal schedule's", BETTER_LOWER },
	{ "wake_latency_mean_us", "exit latency added to non-timer wakeups, mean, us", BETTER_LOWER },
	{ "wake_latency_p99_us", "exit latency added to non-timer wakeups, 99th percentile, us", BETTER_LOWER },
	{ "event_wakeups", "wakeups by interrupts and new work", BETTER_NEITHER },
	{ "timer_wakeups", "wakeups by timers", BETTER_NEITHER },
	{ "tick_wakeups", "wakeups by a kept tick", BETTER_LOWER },
	{ "poll_limits", "polling stopped at its time limit", BETTER_LOWER },
	{ "needless_tick_stops", "tick stopped, idle ended before the next tick", BETTER_LOWER },
	{ "missed_tick_stops", "tick kept, idle lasted past the next tick", BETTER_LOWER },
	{ "unscored", "periods still idle at the trace's end, not scored", BETTER_NEITHER },
};
const unsigned int summary_metric_count = G_N_ELEMENTS(summary_metrics);
G_STATIC_ASSERT(G_N_ELEMENTS(summary_metrics) <= METRICS_MAX);

const struct metric state_metrics[] = {
	{ "usage", "times entered", BETTER_NEITHER },
	{ "time_ms", "residency as the core counts it (exit latency included), ms", BETTER_NEITHER },
	{ "above", "kernel 'above' count", BETTER_LOWER },
	{ "below", "kernel 'below' count", BETTER_LOWER },
	{ "optimal", "scored periods for which hindsight picks this state", BETTER_NEITHER },
};
const unsigned int state_metric_count = G_N_ELEMENTS(state_metrics);
G_STATIC_ASSERT(G_N_ELEMENTS(state_metrics) <= METRICS_MAX);

static void set_count(struct metric_value *m, uint64_t n)
{
	m->value = (double)n;
	snprintf(m->text, sizeof(m->text), "%" G_GUINT64_FORMAT, n);
}

/* Fixed precision, and a '.' whatever the locale: the same bytes everywhere. */
static void set_fixed(struct metric_value *m, double v, int decimals)
{
	char format[8];

	m->value = v;
	snprintf(format, sizeof(format), "%%.%df", decimals);
	g_ascii_formatd(m->text, sizeof(m->text), format, v);
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* mW over ns is 1e-9 mJ. */
static double energy_mj(const struct platform *p, const struct cpu_score *s, bool optimal)
{
	double e = p->busy_power_mw * (double)(s->busy_ns + (optimal ? s->opt_exit_ns : s->exit_ns));

	for (unsigned int i = 0; i < p->state_count; i++)
		e += p->states[i].power_mw *
		     (double)(optimal ? s->states[i].opt_idle_ns : s->states[i].idle_ns);
	return e / 1e9;
}

struct latency_count {
	uint32_t exit_latency_us;
	uint64_t wakeups;
};

static int by_latency(const void *a, const void *b)
{
	uint32_t x = ((const struct latency_count *)a)->exit_latency_us;
	uint32_t y = ((const struct latency_count *)b)->exit_latency_us;

	return (x > y) - (x < y);
}

/*
 * The exit latency a non-timer wakeup adds is the entered state's, so the
 * per-state counts of such wakeups are their exact distribution: the p99
 * is the smallest latency at or below which 99% of them fall (nearest
 * rank), with no binning and no memory beyond the counters.
 */
static void wake_latency(const struct platform *p, const struct cpu_score *s,
			 double *mean_us, double *p99_us)
{
	struct latency_count lc[KSHIM_STATE_MAX];
	uint64_t n = s->event_wakeups, rank = (99 * n + 99) / 100, seen = 0;
	double sum = 0;

	*mean_us = *p99_us = 0;
	if (!n)
		return;
	for (unsigned int i = 0; i < p->state_count; i++) {
		lc[i].exit_latency_us = p->states[i].exit_cost_us;
		lc[i].wakeups = s->states[i].event_wakeups;
		sum += (double)lc[i].exit_latency_us * (double)lc[i].wakeups;
	}
	*mean_us = sum / (double)n;
	qsort(lc, p->state_count, sizeof(lc[0]), by_latency);
	for (unsigned int i = 0; i < p->state_count; i++) {
		seen += lc[i].wakeups;
		if (seen >= rank) {
			*p99_us = lc[i].exit_latency_us;
			return;
		}
	}
}

void metrics_compute(const struct platform *p, const struct cpu_score *s,
		     struct metric_value *out)
{
	uint64_t periods = 0, above = 0, below = 0;
	double e = energy_mj(p, s, false), e_opt = energy_mj(p, s, true);
	double mean_us, p99_us;
	unsigned int k = 0;

	for (unsigned int i = 0; i < s->state_count; i++) {
		periods += s->states[i].usage;
		above += s->states[i].above;
		below += s->states[i].below;
	}
	wake_latency(p, s, &mean_us, &p99_us);
	set_count(&out[k++], periods);
	set_fixed(&out[k++], percent(above, periods), 2);
	set_fixed(&out[k++], percent(below, periods), 2);
	set_fixed(&out[k++], percent(s->agree, s->scored), 2);
	set_count(&out[k++], s->too_deep);
	set_count(&out[k++], s->too_shallow);
	set_fixed(&out[k++], e, 3);
	set_fixed(&out[k++], e_opt > 0 ? e / e_opt : 1.0, 4);
	set_fixed(&out[k++], mean_us, 3);
	set_fixed(&out[k++], p99_us, 3);
	set_count(&out[k++], s->event_wakeups);
	set_count(&out[k++], s->timer_wakeups);
	set_count(&out[k++], s->tick_wakeups);
	set_count(&out[k++], s->poll_limits);
	set_count(&out[k++], s->needless_stops);
	set_count(&out[k++], s->missed_stops);
	set_count(&out[k++], s->unscored);
	g_assert(k == summary_metric_count);
}

void state_metrics_compute(const struct cpu_score *s, unsigned int state,
			   struct metric_value *out)
{
	const struct state_score *st = &s->states[state];

	set_count(&out[0], st->usage);
	set_fixed(&out[1], (double)st->time_ns / 1e6, 3);
	set_count(&out[2], st->above);
	set_count(&out[3], st->below);
	set_count(&out[4], st->optimal);
}

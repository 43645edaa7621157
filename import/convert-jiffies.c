// SPDX-License-Identifier: GPL-2.0
/*
 * Where the capture's jiffies fall on its time line.  The timer wheel
 * counts in jiffies, and jiffy J begins at a tick boundary: at
 * CLOCK_MONOTONIC (J - base) * TICK_NSEC, for the kernel advances jiffies
 * by whole ticks from last_jiffies_update, which lies on the tick's grid.
 * Every timer_start and timer_expire_entry event tells jiffies at its
 * time, so base is the value most of them agree on, and the capture's HZ
 * the one at which most agree.  A capture too short to tell some HZ apart
 * gets the most common of them, in hz_values' order.
 */
#include "convert-private.h"
#include "tick.h"
#include "trace-limits.h"

/* The most frequent value of the sorted bases, the smallest of equals; *count how often. */
static uint64_t mode(const GArray *bases, unsigned int *count)
{
	uint64_t best = 0;
	unsigned int best_n = 0;

	for (guint i = 0, n; i < bases->len; i += n) {
		uint64_t v = g_array_index(bases, uint64_t, i);

		for (n = 1; i + n < bases->len && g_array_index(bases, uint64_t, i + n) == v; n++)
			;
		if (n > best_n) {
			best = v;
			best_n = n;
		}
	}
	*count = best_n;
	return best;
}

/* What one timer-wheel event tells: jiffies at CLOCK_MONOTONIC mono. */
struct jiffy_sample {
	uint64_t mono, jiffies;
};

void import_jiffies_map(const struct capture *c, uint64_t mono_ns, struct jiffies_map *out)
{
	/* The kernel's CONFIG_HZ choices, the most common first: ties go to the earlier. */
	static const unsigned int hz_values[] = { 250, 1000, 300, 100 };
	g_autoptr(GArray) samples = g_array_new(FALSE, FALSE, sizeof(struct jiffy_sample));
	g_autoptr(GArray) bases = g_array_new(FALSE, FALSE, sizeof(uint64_t));

	*out = (struct jiffies_map){ 0 };
	for (guint i = 0; i < c->events->len; i++) {
		const struct cap_event *e = &g_array_index(c->events, struct cap_event, i);
		struct jiffy_sample x = { e->ts_ns - c->first_ns + mono_ns, e->jiffies };

		if (e->kind == CAP_WHEEL_START || e->kind == CAP_WHEEL_EXPIRE)
			g_array_append_val(samples, x);
	}
	out->samples = samples->len;
	for (size_t h = 0; h < G_N_ELEMENTS(hz_values); h++) {
		uint64_t tick_ns = tick_nsec_for_hz(hz_values[h]), base;
		unsigned int agree;

		g_array_set_size(bases, 0);
		for (guint i = 0; i < samples->len; i++) {
			const struct jiffy_sample *x = &g_array_index(samples, struct jiffy_sample, i);

			base = x->jiffies - x->mono / tick_ns;
			g_array_append_val(bases, base);
		}
		g_array_sort(bases, import_by_u64);
		base = mode(bases, &agree);
		if (agree > out->agreeing) {
			out->agreeing = agree;
			out->base = base;
			out->hz = hz_values[h];
			out->tick_ns = tick_ns;
		}
	}
	/* A capture's HZ has most of its samples agree; another has them drift apart. */
	out->known = out->samples >= JIFFIES_MIN_SAMPLES && 2 * out->agreeing > out->samples;
}

bool import_jiffy_time(const struct jiffies_map *m, uint64_t mono_ns, uint64_t jiffy,
		       uint64_t *out)
{
	uint64_t ticks = jiffy - m->base, mono;

	/* Before the capture's jiffy 0 (wrapped) or beyond the trace format's times. */
	if ((int64_t)ticks < 0 || ticks > TRACE_TIME_MAX / m->tick_ns)
		return false;
	mono = ticks * m->tick_ns;
	*out = mono > mono_ns ? mono - mono_ns : 0;
	return *out <= TRACE_TIME_MAX;
}

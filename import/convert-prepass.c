// SPDX-License-Identifier: GPL-2.0
/*
 * What the converter must know before its walk: the hrtimer clock's
 * offset, where timers expire, which timers are the tick.
 */
#include "convert-private.h"

/*
 * Wider than the steps between the clock offset's samples: hundreds of
 * them lie within some tens of µs.
 */
#define OFFSET_GAP_NS	20000

static gint by_value(gconstpointer a, gconstpointer b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int64_t import_clock_offset(const struct capture *c, unsigned int *samples)
{
	g_autoptr(GArray) all = g_array_new(FALSE, FALSE, sizeof(int64_t));
	g_autoptr(GArray) tick = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GArray *use;
	guint n;

	for (guint i = 0; i < c->events->len; i++) {
		const struct cap_event *e = &g_array_index(c->events, struct cap_event, i);
		int64_t d = (int64_t)e->clock_ns - (int64_t)e->ts_ns;

		if (e->kind != CAP_TIMER_EXPIRE)
			continue;
		g_array_append_val(all, d);
		if (e->tick_timer)
			g_array_append_val(tick, d);
	}
	/* Other timers may run on CLOCK_REALTIME, whose "now" is the date. */
	use = tick->len ? tick : all;
	*samples = 0;
	if (!use->len)
		return 0;
	/*
	 * Each sample is the offset less the time from reading now to
	 * tracing the expiry, which is never negative and, under TCG, some
	 * µs at the best and tens at the median: the offset is the samples'
	 * upper edge.  A few lie far beyond it, timestamps taken early (up to
	 * one in seven in the captures of paired runs, tens of µs to ms):
	 * the samples end at the first gap above their median wider than
	 * OFFSET_GAP_NS, and the edge is the 90th percentile of the rest.
	 */
	g_array_sort(use, by_value);
	n = use->len;
	for (guint i = n / 2; i + 1 < n; i++) {
		/* Sorted, so the unsigned difference is exact. */
		if ((uint64_t)g_array_index(use, int64_t, i + 1) -
		    (uint64_t)g_array_index(use, int64_t, i) > OFFSET_GAP_NS) {
			n = i + 1;
			break;
		}
	}
	*samples = n;
	return g_array_index(use, int64_t, (guint)((uint64_t)n * 9 / 10));
}

void import_find_expiries(const struct capture *c, bool **expiry_cancel, unsigned int **expiry_cpu)
{
	g_autoptr(GHashTable) next_expiry = g_hash_table_new(g_int64_hash, g_int64_equal);
	g_autofree gint *last = g_new(gint, c->nr_cpus);
	guint n = c->events->len;

	*expiry_cancel = g_new0(bool, n);
	*expiry_cpu = g_new0(unsigned int, n);
	/* __run_hrtimer() traces hrtimer_cancel, then at once hrtimer_expire_entry. */
	for (unsigned int cpu = 0; cpu < c->nr_cpus; cpu++)
		last[cpu] = -1;
	for (guint i = 0; i < n; i++) {
		const struct cap_event *e = &g_array_index(c->events, struct cap_event, i);
		const struct cap_event *prev = last[e->cpu] < 0 ? NULL :
			&g_array_index(c->events, struct cap_event, last[e->cpu]);

		if (prev && prev->kind == CAP_TIMER_CANCEL && e->kind == CAP_TIMER_EXPIRE &&
		    prev->timer == e->timer)
			(*expiry_cancel)[last[e->cpu]] = true;
		last[e->cpu] = (gint)i;
	}
	/* Backwards: each arming expires at the next expiry before a re-arm or cancel. */
	for (guint i = n; i-- > 0;) {
		const struct cap_event *e = &g_array_index(c->events, struct cap_event, i);
		gpointer cpu;

		switch (e->kind) {
		case CAP_TIMER_EXPIRE:
			g_hash_table_insert(next_expiry, (gpointer)&e->timer,
					    GUINT_TO_POINTER(e->cpu + 1));
			break;
		case CAP_TIMER_START:
			cpu = g_hash_table_lookup(next_expiry, &e->timer);
			(*expiry_cpu)[i] = cpu ? GPOINTER_TO_UINT(cpu) - 1 : e->cpu;
			g_hash_table_remove(next_expiry, &e->timer);
			break;
		case CAP_TIMER_CANCEL:
			if (!(*expiry_cancel)[i])
				g_hash_table_remove(next_expiry, &e->timer);
			break;
		default:
			break;
		}
	}
}

gint import_by_u64(gconstpointer a, gconstpointer b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The addresses of the timers of the events pick() takes (the keys point into the capture). */
static GHashTable *timer_addresses(const struct capture *c, bool (*pick)(const struct cap_event *))
{
	GHashTable *set = g_hash_table_new(g_int64_hash, g_int64_equal);

	for (guint i = 0; i < c->events->len; i++) {
		const struct cap_event *e = &g_array_index(c->events, struct cap_event, i);

		if (pick(e))
			g_hash_table_add(set, (gpointer)&e->timer);
	}
	return set;
}

static bool is_tick_event(const struct cap_event *e)
{
	return e->tick_timer;
}

GHashTable *import_tick_timers(const struct capture *c)
{
	return timer_addresses(c, is_tick_event);
}

static bool is_deferrable_start(const struct cap_event *e)
{
	return e->kind == CAP_WHEEL_START && e->flag;
}

GHashTable *import_deferrable_timers(const struct capture *c)
{
	return timer_addresses(c, is_deferrable_start);
}

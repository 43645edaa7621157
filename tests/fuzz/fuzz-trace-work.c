// SPDX-License-Identifier: GPL-2.0
#include "fuzz-trace-work.h"

/* A timer record: the expiries it brings until it is re-armed or cancelled. */
struct arming {
	unsigned int cpu;
	uint64_t first_ns;	/* its first expiry's interrupt */
	uint64_t due_ns;	/* its first expiry */
	uint64_t period_ns;
	uint64_t work_ns;
};

/* Sums of work may pass 64 bits (each is below 2^62): they stop at UINT64_MAX. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static void add_work(struct trace_work *w, unsigned int cpu, uint64_t work_ns, uint64_t at_ns)
{
	struct cpu_work *c = &w->cpus[cpu];

	c->work_ns = add_sat(c->work_ns, work_ns);
	c->last_ns = MAX(c->last_ns, at_ns);
}

/* How many expiries from first_ns on, period_ns apart, come by last. */
static uint64_t expiries_by(const struct arming *a, uint64_t first_ns, uint64_t last)
{
	if (first_ns > last)
		return 0;
	return a->period_ns ? (last - first_ns) / a->period_ns + 1 : 1;
}

/*
 * The expiries of a that came by until (inclusive) and before the end.
 * Each comes as late after its due time as the first: the last one due by
 * then holds back the timers due behind it until its interrupt, which may
 * be after the end.
 */
static void count_expiries(struct trace_work *w, const struct arming *a, uint64_t until)
{
	uint64_t last = MIN(until, w->end_ns - 1), n = expiries_by(a, a->first_ns, last);
	uint64_t due = expiries_by(a, a->due_ns, last);

	if (due) {
		uint64_t last_due = a->due_ns + (due - 1) * a->period_ns;

		add_work(w, a->cpu, 0, last_due + (a->first_ns - a->due_ns));
		w->cpus[a->cpu].may_run_sooner |= a->work_ns && due > n;
	}
	if (n)
		add_work(w, a->cpu, mul_sat(n, a->work_ns), a->first_ns + (n - 1) * a->period_ns);
}

void trace_work_init(struct trace_work *w, const struct trace_header *h)
{
	*w = (struct trace_work){
		.end_ns = h->end_ns,
		.nr_cpus = h->nr_cpus,
		.cpus = g_new0(struct cpu_work, h->nr_cpus),
		.armed = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free),
	};
}

/* Ends the arming of timer id, if any, at at_ns: what fired by then counts. */
static void disarm(struct trace_work *w, uint64_t id, uint64_t at_ns)
{
	const struct arming *a = g_hash_table_lookup(w->armed, &id);

	if (!a)
		return;
	count_expiries(w, a, at_ns);
	g_hash_table_remove(w->armed, &id);
}

void trace_work_add(struct trace_work *w, const struct trace_event *ev)
{
	struct arming *a;

	w->held_ns = MAX(w->held_ns, ev->held_ns);
	w->exit_ns = MAX(w->exit_ns, ev->exit_ns);
	switch (ev->kind) {
	case TRACE_TIMER:
		disarm(w, ev->timer_id, ev->at_ns);
		/*
		 * One interrupt runs every hrtimer expired by then: one that
		 * comes late (fires_ns) holds back the timers due behind it,
		 * whose work may come as late.
		 */
		if (ev->fires_ns)
			w->cpus[ev->cpu].last_ns = MAX(w->cpus[ev->cpu].last_ns, ev->fires_ns);
		a = g_new(struct arming, 1);
		*a = (struct arming){ .cpu = ev->cpu, .period_ns = ev->period_ns,
				      .work_ns = ev->work_ns, .due_ns = ev->expires_ns,
				      .first_ns = ev->fires_ns ? ev->fires_ns : ev->expires_ns };
		g_hash_table_insert(w->armed, g_memdup2(&ev->timer_id, sizeof(ev->timer_id)), a);
		break;
	case TRACE_CANCEL:
		disarm(w, ev->timer_id, ev->at_ns);
		break;
	case TRACE_IRQ:
	case TRACE_BUSY:
		/* An event at the end ends the simulation before it is taken. */
		if (ev->at_ns < w->end_ns)
			add_work(w, ev->cpu, ev->work_ns, ev->at_ns);
		break;
	case TRACE_WHEEL:
		w->wheel = true;
		add_work(w, ev->cpu, ev->work_ns, ev->expires_ns);
		break;
	default:
		/* The rest bring no work. */
		break;
	}
}

void trace_work_finish(struct trace_work *w)
{
	GHashTableIter it;
	gpointer a;

	g_hash_table_iter_init(&it, w->armed);
	while (g_hash_table_iter_next(&it, NULL, &a)) {
		count_expiries(w, a, UINT64_MAX);
		g_hash_table_iter_remove(&it);
	}
}

void trace_work_clear(struct trace_work *w)
{
	g_hash_table_destroy(w->armed);
	g_free(w->cpus);
}

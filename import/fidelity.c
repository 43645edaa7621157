// SPDX-License-Identifier: GPL-2.0
/*
 * The real and the simulated idle periods of one capture, side by side.
 * fidelity_prepare() gathers the real periods, finds the kernel's inputs
 * in the call log and measures its select lead and tick stop cost from
 * them; fidelity_compute() simulates, restricts both sides to the stretch
 * of time the capture saw complete, counts each side alike and matches
 * periods.
 */
#include <stdlib.h>
#include <string.h>

#include "calllog.h"
#include "feed.h"
#include "fidelity.h"
#include "kvline.h"
#include "real-usage.h"

double fidelity_tvd(const uint64_t *a, const uint64_t *b, unsigned int n)
{
	uint64_t sa = 0, sb = 0;
	double d = 0;

	for (unsigned int i = 0; i < n; i++) {
		sa += a[i];
		sb += b[i];
	}
	if (!sa || !sb)
		return sa == sb ? 0.0 : 1.0;
	for (unsigned int i = 0; i < n; i++) {
		double x = (double)a[i] / (double)sa - (double)b[i] / (double)sb;

		d += x < 0 ? -x : x;
	}
	return d / 2;
}

static int by_cpu_then_entry(const void *pa, const void *pb)
{
	const struct fid_period *a = pa, *b = pb;

	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->entry_ns != b->entry_ns)
		return a->entry_ns < b->entry_ns ? -1 : 1;
	return 0;
}

static int by_cpu_then_clock(const void *pa, const void *pb)
{
	const struct calllog_select *a = &((const struct fid_select *)pa)->call;
	const struct calllog_select *b = &((const struct fid_select *)pb)->call;

	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return (a->clock_ns > b->clock_ns) - (a->clock_ns < b->clock_ns);
}

/* ---- the simulated side ---- */

struct sim_collector {
	struct sim_cpu sim;
	GArray *periods;	/* shared by the CPUs: one thread feeds them all */
	uint64_t t0_ns;
	uint64_t tick_stops;
};

/*
 * The real side's exit is the cpu_idle exit, traced once the wakeup has
 * taken its exit cost: so is the simulated one, and both residencies are
 * the ones the governor measures.
 */
static void collect_period(void *priv, const struct idle_period *p)
{
	struct sim_collector *k = priv;
	struct fid_period f = {
		.entry_ns = p->entry_ns + k->t0_ns,
		.exit_ns = p->wake_ns + p->exit_latency_ns + k->t0_ns,
		.cpu = k->sim.cpu,
		.state = p->state,
		.has_inputs = true,
		.tick_was_stopped = p->tick_was_stopped,
		.stop_tick = p->stop_tick,
		.sleep_ns = p->sleep_length_ns,
		.iowait_tasks = p->iowait_tasks,
		.cause = (int)p->cause,
		.match = -1,
	};

	k->tick_stops += p->tick_stopped && !p->tick_was_stopped;
	g_array_append_val(k->periods, f);
}

static bool simulate(const struct fid_options *o, const struct imported *im,
		     const char *trace_path, uint64_t lead_ns, GArray *out,
		     uint64_t *tick_stops, GError **error)
{
	struct trace_reader *r = trace_open(trace_path, error);
	struct sim_config cfg;
	struct sim_collector *cpus;
	struct feed_listener *l;
	unsigned int n, started = 0;
	bool ok = true;

	if (!r)
		return false;
	cfg = sim_config_for(o->run, trace_header(r));
	cfg.select_lead_ns = lead_ns;
	n = trace_header(r)->nr_cpus;
	cpus = g_new0(struct sim_collector, n);
	l = g_new0(struct feed_listener, n);
	for (; started < n && ok; started++) {
		struct sim_collector *k = &cpus[started];

		k->periods = out;
		k->t0_ns = im->t0_ns;
		ok = sim_cpu_init(&k->sim, started, o->gov, &cfg, error);
		k->sim.observer = (struct idle_observer){ .reflected = collect_period, .priv = k };
		l[started].cpu = &k->sim;
	}
	if (ok && !trace_feed(r, l, n, NULL)) {
		for (unsigned int i = 0; i < n && ok; i++) {
			if (l[i].error) {
				g_propagate_error(error, l[i].error);
				l[i].error = NULL;
				ok = false;
			}
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		g_clear_error(&l[i].error);
		/* The capture's tick_stop events count those of aborted selects too. */
		*tick_stops += cpus[i].tick_stops + cpus[i].sim.aborted_tick_stops;
	}
	for (unsigned int i = 0; i < started; i++)
		if (cpus[i].sim.machine)
			sim_cpu_clear(&cpus[i].sim);
	g_free(l);
	g_free(cpus);
	trace_close(r);
	return ok;
}

/*
 * Keeps the real periods entered from from_ns on, after each CPU's first
 * skip_periods (the real side lists each CPU's in time order), and the
 * simulated ones that lie within what is kept of their CPU's real ones,
 * from the first entry to the last exit (give or take the matching
 * distance): the simulation also runs before and after, where the real
 * side has nothing to compare with.
 */
static void keep_window(GArray *sim, GArray *real, unsigned int nr_cpus, uint64_t slack,
			uint64_t from_ns, unsigned int skip_periods)
{
	g_autofree uint64_t *from = g_new(uint64_t, nr_cpus);
	g_autofree uint64_t *to = g_new0(uint64_t, nr_cpus);
	g_autofree unsigned int *seen = g_new0(unsigned int, nr_cpus);
	guint kept = 0;

	for (unsigned int c = 0; c < nr_cpus; c++)
		from[c] = UINT64_MAX;
	for (guint i = 0; i < real->len; i++) {
		const struct fid_period *p = &g_array_index(real, struct fid_period, i);

		if (seen[p->cpu]++ < skip_periods || p->entry_ns < from_ns)
			continue;
		from[p->cpu] = MIN(from[p->cpu], p->entry_ns);
		to[p->cpu] = MAX(to[p->cpu], p->exit_ns);
		g_array_index(real, struct fid_period, kept++) = *p;
	}
	g_array_set_size(real, kept);
	kept = 0;
	for (guint i = 0; i < sim->len; i++) {
		const struct fid_period *p = &g_array_index(sim, struct fid_period, i);

		if (p->cpu >= nr_cpus || from[p->cpu] == UINT64_MAX)
			continue;
		if (p->entry_ns + slack < from[p->cpu] || p->exit_ns > to[p->cpu] + slack)
			continue;
		g_array_index(sim, struct fid_period, kept++) = *p;
	}
	g_array_set_size(sim, kept);
}

static void count_side(const struct platform *pl, struct fid_side *s)
{
	for (guint i = 0; i < s->periods->len; i++) {
		const struct fid_period *p = &g_array_index(s->periods, struct fid_period, i);
		uint64_t r = p->exit_ns - p->entry_ns;
		bool above, below;

		s->usage[p->state]++;
		s->time_ns[p->state] += r;
		s->idle_ns += r;
		real_above_below(pl, (unsigned int)p->state, r, &above, &below);
		s->above += above;
		s->below += below;
	}
}

/* ---- the kernel's inputs, from the call log ---- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

bool fidelity_read_selects(const char *calls, GArray **out, GError **error)
{
	struct calllog_reader *r = calllog_open(calls, error);
	const struct calllog_header *h;
	g_autofree bool *limited = NULL;
	struct calllog_record rec;
	GArray *sel;
	int ret;

	*out = NULL;
	if (!r)
		return false;
	h = calllog_header(r);
	limited = g_new0(bool, h->nr_cpus);
	sel = g_array_new(FALSE, FALSE, sizeof(struct fid_select));
	while ((ret = calllog_next(r, &rec, error)) > 0) {
		if (rec.kind == CALLLOG_REFLECT) {
			/*
			 * Only poll_idle() sets dev->poll_time_limit, and only it
			 * or teo clears it: under menu the flag stays set through
			 * the halting states after a limit.
			 */
			limited[rec.reflect.cpu] = rec.reflect.poll_time_limit &&
						   h->states[rec.reflect.state].polling;
		} else if (rec.select.has_decision) {
			struct fid_select s = { .call = rec.select,
						.after_poll_limit = limited[rec.select.cpu] };

			g_array_append_val(sel, s);
		}
	}
	calllog_close(r);
	if (ret < 0) {
		g_array_free(sel, TRUE);
		return false;
	}
	g_array_sort(sel, by_cpu_then_clock);
	*out = sel;
	return true;
}

/*
 * Whether the real period's select stopped a running tick, as its call log
 * tells: the governor asked to, the tick ran and a halting state followed.
 * (A timer due by the next tick keeps it running all the same; the log
 * cannot tell, and the capture's tick_stop events are not by period.)
 */
static bool stops_tick(const struct platform *pl, const struct fid_period *p)
{
	return p->stop_tick && !p->tick_was_stopped && p->state >= 0 &&
	       (unsigned int)p->state < pl->state_count && !pl->states[p->state].desc.polling;
}

/* The median of values (int64_t, sorted here), or 0 for none. */
static int64_t median_i64(GArray *values)
{
	if (!values->len)
		return 0;
	g_array_sort(values, cmp_i64);
	return g_array_index(values, int64_t, values->len / 2);
}

/*
 * The select before each real period: on its CPU, the last select whose
 * clock is at most its entry and less than match_ns before it, with the
 * state the period entered.  Both are read on one clock (trace_clock
 * global is the clock the recorder's local_clock() reads).
 */
static void attach_inputs(const struct fid_options *o, GArray *real)
{
	const GArray *sel = o->selects;
	guint j = 0;

	for (guint i = 0; i < real->len; i++) {
		struct fid_period *p = &g_array_index(real, struct fid_period, i);
		const struct fid_select *found = NULL;
		const struct calllog_select *s;

		while (j < sel->len) {
			const struct fid_select *x = &g_array_index(sel, const struct fid_select, j);

			if (x->call.cpu > p->cpu ||
			    (x->call.cpu == p->cpu && x->call.clock_ns > p->entry_ns))
				break;
			if (x->call.cpu == p->cpu)
				found = x;
			j++;
		}
		if (!found)
			continue;
		s = &found->call;
		if (p->entry_ns - s->clock_ns > o->match_ns || s->state != p->state)
			continue;
		p->has_inputs = true;
		p->after_poll_limit = found->after_poll_limit;
		p->tick_was_stopped = s->tick_stopped;
		p->stop_tick = s->stop_tick;
		p->sleep_ns = s->has_sleep ? s->sleep_ns : INT64_MIN;
		p->iowait_tasks = s->nr_iowait;
		p->select_lag_ns = (int64_t)(p->entry_ns - s->clock_ns);
	}
}

/*
 * How many of the real periods carry their select's inputs, and the
 * medians of their lags: over all of them, and by whether the select
 * stopped a running tick over those the simulator gives a lead, which
 * leaves out the selects after a polling limit.  Those come back through
 * the idle loop alone, in a few µs under TCG, where a select after a
 * task's work comes through the switch to the idle task; in captures that
 * poll much they would be most of the samples.
 */
static void count_inputs(const struct platform *pl, const GArray *real, struct fidelity *f)
{
	GArray *lags = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GArray *by[2] = { g_array_new(FALSE, FALSE, sizeof(int64_t)),
			  g_array_new(FALSE, FALSE, sizeof(int64_t)) };

	f->with_inputs = f->after_poll_limit_n = 0;
	for (guint i = 0; i < real->len; i++) {
		const struct fid_period *p = &g_array_index(real, struct fid_period, i);

		if (!p->has_inputs)
			continue;
		f->with_inputs++;
		g_array_append_val(lags, p->select_lag_ns);
		f->after_poll_limit_n += p->after_poll_limit;
		if (!p->after_poll_limit)
			g_array_append_val(by[stops_tick(pl, p)], p->select_lag_ns);
	}
	f->select_lag_ns = median_i64(lags);
	f->select_lag_keep_ns = median_i64(by[0]);
	f->select_lag_stop_ns = median_i64(by[1]);
	f->select_lag_keep_n = by[0]->len;
	f->select_lag_stop_n = by[1]->len;
	g_array_free(lags, TRUE);
	g_array_free(by[0], TRUE);
	g_array_free(by[1], TRUE);
}

/* What PM QoS stores when nobody asks for a limit (PM_QOS_RESUME_LATENCY_NO_CONSTRAINT). */
#define QOS_NO_LIMIT_US		2000000000

int32_t fidelity_latency_limit(const GArray *selects, uint64_t from_ns, uint64_t to_ns)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	int32_t limit_us = INT32_MAX;
	guint best = 0;

	for (guint i = 0; i < selects->len; i++) {
		const struct calllog_select *s = &g_array_index(selects, const struct fid_select, i).call;
		gpointer key = GINT_TO_POINTER(s->qos_us);
		guint n;

		if (s->clock_ns < from_ns || s->clock_ns > to_ns)
			continue;
		n = GPOINTER_TO_UINT(g_hash_table_lookup(seen, key)) + 1;
		g_hash_table_insert(seen, key, GUINT_TO_POINTER(n));
		/* Ties go to the smaller limit, so that the answer does not depend on order. */
		if (n > best || (n == best && s->qos_us < limit_us)) {
			best = n;
			limit_us = s->qos_us >= QOS_NO_LIMIT_US ? INT32_MAX : s->qos_us;
		}
	}
	return limit_us;
}

/* ---- matching ---- */

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * The sleep length a is well short of b: both known, and 3a < 2b, which
 * with b = 3q + r is a < 2q + r, with no product to overflow.
 */
static bool well_short_of(int64_t a, int64_t b)
{
	return a >= 0 && b > 0 && a < b / 3 * 2 + b % 3;
}

/* A matched pair given different states, by which side was told the shorter sleep. */
static void count_differing(struct fidelity *f, const struct fid_period *real,
			    const struct fid_period *sim)
{
	f->differing_inputs++;
	if (real->sleep_ns == INT64_MIN)
		return;
	f->kernel_sleep_shorter += well_short_of(real->sleep_ns, sim->sleep_ns);
	f->model_sleep_shorter += well_short_of(sim->sleep_ns, real->sleep_ns);
}

/*
 * Pairs each real period with the simulated period of its CPU whose entry
 * is nearest, within match_ns, keeping both sides in order: a simulated
 * period is given to at most one real period.
 */
static void match_periods(struct fidelity *f, uint64_t match_ns)
{
	GArray *real = f->real.periods, *sim = f->sim.periods;
	guint j = 0;

	for (guint i = 0; i < real->len; i++) {
		struct fid_period *p = &g_array_index(real, struct fid_period, i);
		struct fid_period *q;

		while (j < sim->len && g_array_index(sim, struct fid_period, j).cpu < p->cpu)
			j++;
		/* Past every simulated period that lies further from p than its successor. */
		while (j + 1 < sim->len) {
			const struct fid_period *a = &g_array_index(sim, struct fid_period, j);
			const struct fid_period *b = &g_array_index(sim, struct fid_period, j + 1);

			if (b->cpu != p->cpu || a->cpu != p->cpu ||
			    distance(b->entry_ns, p->entry_ns) > distance(a->entry_ns, p->entry_ns))
				break;
			j++;
		}
		if (j >= sim->len)
			break;
		q = &g_array_index(sim, struct fid_period, j);
		if (q->cpu != p->cpu || distance(q->entry_ns, p->entry_ns) > match_ns)
			continue;
		p->match = j;
		q->match = i;
		j++;
		f->matched++;
		f->same_state += p->state == q->state;
		if (!p->has_inputs)
			continue;
		f->matched_inputs++;
		f->same_tick_state += p->tick_was_stopped == q->tick_was_stopped;
		f->same_stop_tick += p->stop_tick == q->stop_tick;
		f->same_iowait += p->iowait_tasks == q->iowait_tasks;
		if (p->state != q->state)
			count_differing(f, p, q);
		/* Within 10 % or 20 us: the same timer, seen through the import. */
		if (p->sleep_ns != INT64_MIN) {
			uint64_t d = distance((uint64_t)p->sleep_ns, (uint64_t)q->sleep_ns);
			uint64_t ref = (uint64_t)(p->sleep_ns < 0 ? 0 : p->sleep_ns);

			f->told_sleep++;
			f->same_sleep += d <= MAX(20000, ref / 10);
		}
	}
}

/*
 * Under TCG the host now and then holds every timer's interrupt up for
 * milliseconds, and a governor that chose to poll then polls to one limit
 * after another until it comes (sim/README.md, "Residual differences"):
 * one decision on an edge, taken otherwise by the other side, becomes
 * dozens of periods on one side alone.  Counting those runs apart tells
 * such a difference from a drift of the model.
 */
void fidelity_count_poll_runs(const struct platform *pl, struct fid_side *s)
{
	const GArray *v = s->periods;
	guint i = 0;

	memcpy(s->usage_outside_runs, s->usage, sizeof(s->usage));
	while (i < v->len) {
		const struct fid_period *first = &g_array_index(v, struct fid_period, i);
		uint64_t unmatched = 0;
		guint j = i;

		for (; j < v->len; j++) {
			const struct fid_period *p = &g_array_index(v, struct fid_period, j);

			if (p->cpu != first->cpu || !pl->states[p->state].desc.polling)
				break;
			unmatched += p->match < 0;
		}
		if (j - i >= FIDELITY_POLL_RUN_MIN) {
			s->poll_runs++;
			s->poll_run_periods += j - i;
			s->poll_run_unmatched += unmatched;
			for (guint k = i; k < j; k++)
				s->usage_outside_runs[g_array_index(v, struct fid_period, k).state]--;
		}
		i = j > i ? j : i + 1;
	}
}

/* The capture's own periods, by CPU and entry, into f->real. */
static bool real_side(const struct capture *c, const struct platform *pl, struct fidelity *f,
		      GError **error)
{
	GArray *rp = g_array_new(FALSE, FALSE, sizeof(struct real_period));
	struct real_usage ru;
	bool ok;

	*f = (struct fidelity){ .state_count = pl->state_count };
	f->real.periods = g_array_new(FALSE, FALSE, sizeof(struct fid_period));
	f->sim.periods = g_array_new(FALSE, FALSE, sizeof(struct fid_period));
	ok = real_usage_compute(c, pl, &ru, rp, error);
	for (guint i = 0; ok && i < rp->len; i++) {
		const struct real_period *x = &g_array_index(rp, struct real_period, i);
		struct fid_period p = { .entry_ns = x->entry_ns, .exit_ns = x->exit_ns,
					.cpu = x->cpu, .state = (int)x->state, .cause = -1,
					.match = -1 };

		g_array_append_val(f->real.periods, p);
	}
	g_array_free(rp, TRUE);
	if (!ok)
		return false;
	f->real.tick_stops = ru.tick_stops;
	g_array_sort(f->real.periods, by_cpu_then_entry);
	return true;
}

/* Fewer periods with their select than this give no select lead. */
#define SELECT_LEAD_MIN_SAMPLES	20

/*
 * How long before the state's entry the captured kernel's governor chose,
 * and how much longer when it stopped a running tick, to the µs as a
 * platform gives them: the lead is the median lag over the whole
 * capture's periods that did not stop the tick, and the tick stop the
 * median over those that did, less the lead.  With fewer than
 * SELECT_LEAD_MIN_SAMPLES periods of a kind, the platform's select_lead_us
 * or tick_stop_us stands in; where only the stopping periods are enough,
 * their lead is the platform's lead plus what is left.
 */
static void measure_leads(struct fidelity *f)
{
	if (f->select_lag_keep_n >= SELECT_LEAD_MIN_SAMPLES)
		f->select_lead_ns = import_whole_us(f->select_lag_keep_ns);
	f->tick_stop_logged = f->select_lag_stop_n >= SELECT_LEAD_MIN_SAMPLES;
	if (f->tick_stop_logged)
		f->tick_stop_ns = import_whole_us(f->select_lag_stop_ns - (int64_t)f->select_lead_ns);
}

bool fidelity_prepare(const struct fid_options *o, const struct capture *c, struct fidelity *f,
		      GError **error)
{
	const struct platform *pl = o->run->platform;

	if (!real_side(c, pl, f, error))
		return false;
	f->select_lead_ns = (uint64_t)pl->select_lead_us * 1000;
	f->tick_stop_ns = (uint64_t)pl->tick_stop_us * 1000;
	if (o->selects) {
		attach_inputs(o, f->real.periods);
		count_inputs(pl, f->real.periods, f);
		measure_leads(f);
	}
	return true;
}

bool fidelity_compute(const struct fid_options *o, const struct capture *c,
		      const struct imported *im, const char *trace_path, struct fidelity *f,
		      GError **error)
{
	const struct platform *pl = o->run->platform;

	if (!simulate(o, im, trace_path, f->select_lead_ns, f->sim.periods, &f->sim.tick_stops,
		      error))
		return false;
	keep_window(f->sim.periods, f->real.periods, c->nr_cpus, o->match_ns,
		    c->first_ns + o->warmup_ns, o->warmup_periods);
	g_array_sort(f->sim.periods, by_cpu_then_entry);
	count_side(pl, &f->real);
	count_side(pl, &f->sim);
	f->tvd_periods = fidelity_tvd(f->real.usage, f->sim.usage, f->state_count);
	f->tvd_time = fidelity_tvd(f->real.time_ns, f->sim.time_ns, f->state_count);
	if (o->selects)
		count_inputs(pl, f->real.periods, f);
	match_periods(f, o->match_ns);
	fidelity_count_poll_runs(pl, &f->real);
	fidelity_count_poll_runs(pl, &f->sim);
	f->tvd_periods_outside_runs = fidelity_tvd(f->real.usage_outside_runs,
						   f->sim.usage_outside_runs, f->state_count);
	return true;
}

void fidelity_copy_prepared(const struct fidelity *src, struct fidelity *dst)
{
	*dst = *src;
	dst->real.periods = g_array_copy(src->real.periods);
	dst->sim.periods = g_array_new(FALSE, FALSE, sizeof(struct fid_period));
}

void fidelity_clear(struct fidelity *f)
{
	if (f->real.periods)
		g_array_free(f->real.periods, TRUE);
	if (f->sim.periods)
		g_array_free(f->sim.periods, TRUE);
	f->real.periods = f->sim.periods = NULL;
}

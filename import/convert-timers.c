// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's timers as the trace reader takes them (sim/trace.c): an
 * hrtimer or a timer-wheel timer lives on one CPU, only an armed timer is
 * cancelled, and an arming is written where the simulated CPU must know of
 * it (busy_anchor()).  The tick is the simulator's own: of it the capture
 * gives only when each interrupt came, as tick records.
 */
#include "convert-private.h"
#include "trace-limits.h"

/*
 * An expiry this far from its arming is on another clock base (REALTIME and
 * TAI are decades ahead of CLOCK_MONOTONIC).  A monotonic timer may be armed
 * in the past (a periodic task that has fallen behind does so all the
 * time): it expires at once, but not seconds late.
 */
#define OTHER_CLOCK_AHEAD_NS	(UINT64_C(1000000) * 1000000000)	/* 10^6 s */
#define OTHER_CLOCK_BEHIND_NS	(UINT64_C(10) * 1000000000)		/* 10 s */
/* An expiry traced this much before the arming's expiry time is still that arming's. */
#define EXPIRY_EARLY_NS		1000000

/* Whether the reader takes the timer as armed at time at (sim/trace.c is_armed()). */
static bool model_armed(const struct model_timer *t, uint64_t at)
{
	return t && !t->cancelled && at < t->fires_ns;
}

/*
 * Arms timer id on cpu, an hrtimer (TRACE_TIMER) or a wheel timer
 * (TRACE_WHEEL), first cancelling it where the reader still has it armed
 * elsewhere or as the other kind (an address on the stack serves both).
 */
static void arm_timer(struct converter *cv, enum trace_kind kind, uint64_t id, unsigned int cpu,
		      uint64_t at, uint64_t expires)
{
	struct model_timer *t = g_hash_table_lookup(cv->timers, &id);
	bool wheel = kind == TRACE_WHEEL;
	struct trace_event *ev;

	if (model_armed(t, at) && (t->cpu != cpu || t->wheel != wheel))
		import_emit(cv, TRACE_CANCEL, at, t->cpu)->timer_id = id;
	if (!t) {
		t = g_new0(struct model_timer, 1);
		t->id = id;	/* the key: set before the table hashes it */
		g_hash_table_add(cv->timers, t);
	}
	ev = import_emit(cv, kind, at, cpu);
	ev->timer_id = id;
	/*
	 * Armed in the past, as a task that fell behind arms them: due at its
	 * arming as written (the trace has no expiry before it), which is
	 * before the CPU can next go idle, so that both CPUs find it overdue.
	 */
	ev->expires_ns = MAX(expires, at);
	*t = (struct model_timer){ .id = id, .cpu = cpu, .expires_ns = ev->expires_ns,
				   .fires_ns = ev->expires_ns, .touched_ns = at, .wheel = wheel,
				   .out_index = cv->im->events->len - 1 };
}

/*
 * A capture time on the hrtimer clock, as a trace time (0 for one before
 * the capture), which may lie before at, the time it was armed at; false
 * for another clock base.
 */
static bool timer_time(struct converter *cv, uint64_t at, uint64_t clock_ns, uint64_t *out)
{
	int64_t trace_ts = (int64_t)clock_ns - cv->im->clock_offset_ns;
	int64_t t = trace_ts - (int64_t)cv->im->t0_ns;

	if (t > (int64_t)(at + OTHER_CLOCK_AHEAD_NS) ||
	    t + (int64_t)OTHER_CLOCK_BEHIND_NS < (int64_t)at || t > (int64_t)TRACE_TIME_MAX)
		return false;
	*out = t < 0 ? 0 : (uint64_t)t;
	return true;
}

/*
 * What a CPU does to timers while it runs after a wakeup is written at the
 * wakeup (the interrupt that caused it, else the idle exit): the simulated
 * CPU runs the same work, but not to the nanosecond, and must know of the
 * timers its work armed when it goes idle again.  Not before the timer's
 * previous arming is over (its interrupt came), so that no expiry is lost,
 * nor before its last arming or cancel, so that their order stays, nor
 * before an idle loop of that work that entered no state (its aborted
 * idle record), whose select came first: in pingpong a CPU went round
 * such loops 15 times in a millisecond before its task armed a timer, and
 * the selects the model made there saw that timer, 3 ms ahead, where the
 * kernel's saw none and stopped the tick.
 */
static uint64_t busy_anchor(struct converter *cv, unsigned int cpu, uint64_t id, uint64_t at)
{
	const struct cpu_track *p = &cv->cpus[cpu];
	const struct model_timer *t = g_hash_table_lookup(cv->timers, &id);
	uint64_t from;

	if (p->phase != PHASE_BUSY)
		return at;
	from = import_work_began(p, p->cause != CAUSE_NONE);
	if (t) {
		from = MAX(from, t->touched_ns);
		if (!t->cancelled)
			from = MAX(from, MIN(t->fires_ns, at));
	}
	return MIN(from, at);
}

/* Whether a wheel timer the trace has armed on cpu is due at the boundary at. */
static bool wheel_timer_due(struct converter *cv, unsigned int cpu, uint64_t at)
{
	GHashTableIter i;
	gpointer t;

	g_hash_table_iter_init(&i, cv->timers);
	while (g_hash_table_iter_next(&i, &t, NULL)) {
		const struct model_timer *m = t;

		if (m->wheel && !m->cancelled && m->cpu == cpu && m->expires_ns == at)
			return true;
	}
	return false;
}

/*
 * A stopped tick is programmed for the CPU's next wheel timer (on a tick
 * boundary; the do_timer CPU's limit is not on one).  A boundary past the
 * capture's end that no wheel timer of the trace explains is a timer armed
 * before the capture, which the capture will not see expire: armed at 0.
 */
static void unseen_wheel_timer(struct converter *cv, unsigned int cpu, uint64_t at)
{
	if (at < cv->im->header.end_ns || (at + cv->im->header.mono_ns) % cv->jiffies.tick_ns ||
	    wheel_timer_due(cv, cpu, at))
		return;
	arm_timer(cv, TRACE_WHEEL, IMPORT_UNSEEN_WHEEL_ID_BASE + cv->im->counts.unseen_wheel_timers++,
		  cpu, 0, at);
}

/*
 * A tick record: the interrupt of the CPU's tick for the boundary at_ns
 * came at fires_ns.  An idle CPU's record may move with its wakeup
 * (move_tick_interrupts()).
 */
static void tick_record(struct converter *cv, unsigned int cpu, uint64_t at_ns, uint64_t fires_ns)
{
	import_emit(cv, TRACE_TICK, at_ns, cpu)->fires_ns = MAX(fires_ns, at_ns);
	if (cv->cpus[cpu].phase == PHASE_IDLE) {
		struct cpu_track *p = &cv->cpus[cpu];

		p->tick_record = (gint)cv->im->events->len - 1;
		if (p->first_tick_record < 0)
			p->first_tick_record = p->tick_record;
	}
}

/*
 * The tick's hrtimer is re-armed or cancelled at time at while still armed
 * for a boundary that has passed: its interrupt had not come (a busy host
 * holds a vCPU's timer interrupts up for milliseconds), and now it never
 * will.  Until then the kernel counted the tick as pending (a negative
 * delta_next, which makes teo and menu choose shallow states): a tick
 * record that comes at the re-arming says so, where the simulator would
 * otherwise take the tick a timer latency after its boundary.
 */
static void tick_withdrawn(struct converter *cv, unsigned int cpu, uint64_t at)
{
	const struct tick_arming *t = &cv->ticks[cpu];

	if (!t->armed || t->at_ns > at || t->at_ns > cv->im->header.end_ns)
		return;
	tick_record(cv, cpu, t->at_ns, at);
	cv->im->counts.ticks_withdrawn++;
}

/*
 * The tick is the simulator's own, but when its interrupt came is the
 * capture's: under a busy host it can come milliseconds after its
 * boundary, and the CPU polls until then.  Each expiry of the tick gives a
 * tick record at the boundary it was armed for.
 */
static void on_tick_start(struct converter *cv, const struct cap_event *e, uint64_t at)
{
	struct tick_arming *t = &cv->ticks[e->cpu];

	tick_withdrawn(cv, e->cpu, at);
	/*
	 * A stopped tick is armed for a passed boundary where a wheel timer
	 * was already due (basemono): its record keeps that boundary, which
	 * the simulator's stopped tick is armed for then.
	 */
	t->armed = timer_time(cv, at, e->clock_ns, &t->at_ns);
	/* A running tick is armed for the next boundary; a stopped one for the next wheel timer. */
	if (t->armed && cv->jiffies.known && t->at_ns > at + cv->jiffies.tick_ns) {
		uint64_t *key = g_new(uint64_t, 1);

		*key = t->at_ns;
		if (g_hash_table_add(cv->stopped_tick_at[e->cpu], key))
			unseen_wheel_timer(cv, e->cpu, t->at_ns);
	}
}

void import_on_tick_expire(struct converter *cv, const struct cap_event *e)
{
	struct tick_arming *t = &cv->ticks[e->cpu];
	uint64_t at = import_rel(cv, e->ts_ns);

	if (!t->armed || t->at_ns > at + EXPIRY_EARLY_NS)
		return;
	t->armed = false;
	/* Early, and the capture ended before its boundary: never simulated. */
	if (t->at_ns > cv->im->header.end_ns)
		return;
	tick_record(cv, e->cpu, t->at_ns, at);
}

void import_on_timer_start(struct converter *cv, const struct cap_event *e, guint index)
{
	uint64_t at = import_rel(cv, e->ts_ns), expires;

	if (e->tick_timer) {
		on_tick_start(cv, e, at);
		return;
	}
	if (!timer_time(cv, at, e->clock_ns, &expires)) {
		cv->im->counts.other_clock_timers++;
		return;
	}
	arm_timer(cv, TRACE_TIMER, e->timer, cv->expiry_cpu[index],
		  busy_anchor(cv, e->cpu, e->timer, at), expires);
}

/*
 * A timer-wheel timer, on the timer base of the CPU the event names, due
 * at the tick boundary of its bucket's jiffy.  Deferrable timers are left
 * out: an idle CPU's NOHZ code does not look at them.
 */
void import_on_wheel_start(struct converter *cv, const struct cap_event *e)
{
	uint64_t at = import_rel(cv, e->ts_ns), due;

	if (e->flag) {
		cv->im->counts.deferrable_timers++;
		return;
	}
	if (!cv->jiffies.known || e->target_cpu >= cv->im->header.nr_cpus ||
	    !import_jiffy_time(&cv->jiffies, cv->im->header.mono_ns, e->clock_ns, &due)) {
		cv->im->counts.unplaced_wheel_timers++;
		return;
	}
	cv->im->counts.wheel_timers++;
	arm_timer(cv, TRACE_WHEEL, e->timer, e->target_cpu, busy_anchor(cv, e->cpu, e->timer, at),
		  due);
}

/* Whether a wheel timer run at at ran in p's idle period, or in the interrupt that ended it. */
static bool wheel_run_in_wakeup(const struct cpu_track *p, uint64_t at)
{
	return p->phase != PHASE_UNKNOWN &&
	       !(p->phase == PHASE_BUSY && at > p->since + CAUSE_WINDOW_NS);
}

/*
 * A wheel timer the trace leaves out ran on its CPU, in the idle period or
 * in the interrupt that ended it: the first such is noted, for end_busy()
 * to write it after all where it woke a task, whose work would be lost.
 * It is taken as due at the tick that ran it, the boundary before: its
 * base's jiffy (due) lags that by as long as the tick was stopped, which
 * holds up a deferrable timer, and NOHZ did not count it meanwhile.
 */
static void note_untraced_wheel_run(struct converter *cv, const struct cap_event *e, uint64_t due)
{
	struct cpu_track *p = &cv->cpus[e->cpu];
	uint64_t at = import_rel(cv, e->ts_ns);
	uint64_t past_boundary = (at + cv->im->header.mono_ns) % cv->jiffies.tick_ns;

	if (p->untraced_wheel || !wheel_run_in_wakeup(p, at))
		return;
	p->untraced_wheel = true;
	p->untraced_due = MAX(due, at - MIN(at, past_boundary));
}

/*
 * The expiry of a wheel timer the capture never saw armed: armed before
 * the capture, on the CPU that expires it, and due at the jiffy its base
 * expired it at (baseclk).  Only if the CPU's stopped tick was programmed
 * for that jiffy, which shows that NOHZ counted it: the expiry alone does
 * not tell a deferrable timer, which NOHZ leaves out and which expires
 * whenever the CPU happens to run its tick.  The simulator expires those
 * it knows at its own tick; the others, and deferrable ones, are noted.
 */
void import_on_wheel_expire(struct converter *cv, const struct cap_event *e)
{
	bool deferrable = g_hash_table_contains(cv->deferrable, &e->timer);
	bool placed;
	uint64_t due;

	if (g_hash_table_contains(cv->timers, &e->timer) || !cv->jiffies.known)
		return;
	placed = import_jiffy_time(&cv->jiffies, cv->im->header.mono_ns, e->clock_ns, &due);
	if (placed && !deferrable && g_hash_table_contains(cv->stopped_tick_at[e->cpu], &due)) {
		cv->im->counts.inferred_wheel_timers++;
		arm_timer(cv, TRACE_WHEEL, e->timer, e->cpu, 0, due);
		return;
	}
	cv->im->counts.unknown_wheel_expiries += !deferrable;
	if (placed)
		note_untraced_wheel_run(cv, e, due);
}

/*
 * A wheel timer of the trace ran on its CPU, in the idle period or in the
 * interrupt that ended it: the first such is noted, for end_busy() to give
 * it the work that follows a tick's wakeup.
 */
void import_note_wheel_run(struct converter *cv, const struct cap_event *e)
{
	struct cpu_track *p = &cv->cpus[e->cpu];
	const struct model_timer *t = g_hash_table_lookup(cv->timers, &e->timer);
	uint64_t at = import_rel(cv, e->ts_ns);

	if (p->wheel_event >= 0 || !wheel_run_in_wakeup(p, at) ||
	    !t || !t->wheel || t->cancelled || t->cpu != e->cpu || t->expires_ns > at)
		return;
	p->wheel_event = (gint)t->out_index;
}

/*
 * The capture's cancel of timer t by the CPU of e, written on the timer's
 * CPU, which need not be the cancelling one, at busy_anchor().
 */
static void cancel_timer(struct converter *cv, struct model_timer *t, const struct cap_event *e)
{
	uint64_t at = busy_anchor(cv, e->cpu, e->timer, import_rel(cv, e->ts_ns));

	import_emit(cv, TRACE_CANCEL, at, t->cpu)->timer_id = e->timer;
	t->cancelled = true;
	t->touched_ns = at;
}

/*
 * A wheel timer leaves its base when it is cancelled, and also just before
 * it runs (detach_timer() traces a cancel then too): after its boundary,
 * where the reader has it expired already and the simulator expires it
 * at the tick.
 */
void import_on_wheel_cancel(struct converter *cv, const struct cap_event *e)
{
	struct model_timer *t = g_hash_table_lookup(cv->timers, &e->timer);

	if (t && t->wheel && model_armed(t, import_rel(cv, e->ts_ns)))
		cancel_timer(cv, t, e);
}

void import_on_timer_cancel(struct converter *cv, const struct cap_event *e, guint index)
{
	struct model_timer *t = g_hash_table_lookup(cv->timers, &e->timer);
	uint64_t at = import_rel(cv, e->ts_ns);

	/*
	 * __run_hrtimer() traces a cancel just before each expiry: not a
	 * cancellation.  The tick is the simulator's own: its cancel says only
	 * that an interrupt still to come for a passed boundary never will.
	 */
	if (cv->expiry_cancel[index])
		return;
	if (g_hash_table_contains(cv->tick_timers, &e->timer)) {
		tick_withdrawn(cv, e->cpu, at);
		cv->ticks[e->cpu].armed = false;
		return;
	}
	if (!model_armed(t, at) || t->wheel) {
		cv->im->counts.skipped_cancels++;
		return;
	}
	cancel_timer(cv, t, e);
}

/*
 * The trace event of the arming that expired at time at on cpu, or -1: the
 * timer is not in the trace, was cancelled, lives elsewhere, or was armed
 * for a later time (then this expiry belongs to an arming the capture
 * missed).
 */
gint import_armed_event(struct converter *cv, uint64_t id, unsigned int cpu, uint64_t at)
{
	struct model_timer *t = g_hash_table_lookup(cv->timers, &id);

	if (!t || t->wheel || t->cancelled || t->cpu != cpu || t->expires_ns > at + EXPIRY_EARLY_NS)
		return -1;
	return (gint)t->out_index;
}

/*
 * A timer's expiry is traced when its interrupt really came, often well
 * after the expiry it was programmed for: that is the arming's fires_ns.
 */
void import_note_fires(struct converter *cv, const struct cap_event *e)
{
	uint64_t at = import_rel(cv, e->ts_ns);
	gint armed = e->tick_timer ? -1 : import_armed_event(cv, e->timer, e->cpu, at);
	struct trace_event *ev;

	if (armed < 0)
		return;
	ev = &g_array_index(cv->im->events, struct trace_event, armed);
	if (ev->kind == TRACE_TIMER && at > ev->expires_ns) {
		struct model_timer *t = g_hash_table_lookup(cv->timers, &e->timer);

		ev->fires_ns = at;
		if (t)
			t->fires_ns = at;
	}
}

/*
 * The tick's hrtimer still armed at the capture's end for a boundary that
 * has passed: its interrupt had not come by then, and the kernel counted the
 * tick as pending to the end (a vCPU polling through such a wait picks the
 * polling state at every reselect).  Its record comes at the end.
 */
void import_tick_pending_at_end(struct converter *cv, unsigned int cpu, uint64_t end)
{
	const struct tick_arming *t = &cv->ticks[cpu];

	if (!t->armed || t->at_ns >= end)
		return;
	tick_record(cv, cpu, t->at_ns, end);
	cv->im->counts.ticks_pending_at_end++;
}

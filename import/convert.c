// SPDX-License-Identifier: GPL-2.0
/*
 * From capture to workload trace.  The capture's events are walked once in
 * time order with a small state per CPU: idle (since an entry), busy
 * (since an exit, with the cause of that wakeup once it shows), or unknown
 * (before the CPU's first idle event).  When a busy period ends, its length
 * becomes the work of what woke the CPU: the hrtimer's timer event or an
 * irq event.  Timers follow the trace reader's rules (sim/trace.c): a
 * timer lives on one CPU, and only an armed timer is cancelled.
 */
#include <string.h>

#include <kshim/machine.h>

#include "convert-private.h"
#include "kvline.h"
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
/*
 * A wakeup's interrupt is traced right after the idle exit (the kernel
 * enables interrupts then); one this long after it is not what woke the CPU.
 */
#define CAUSE_WINDOW_NS		100000
/*
 * An exit from the polling state that nothing caused, followed this soon
 * by the next entry, woke nothing: the state reached its time limit and
 * the governor was asked anew.  Needs sched_wakeup in the capture, which
 * shows the wakeups that come without an interrupt.  A halting state is
 * left for an interrupt, shown or not, and the governor counted the period.
 */
#define RESELECT_NS		20000

static uint64_t rel(const struct converter *cv, uint64_t ts)
{
	return ts - cv->im->t0_ns;
}

static struct trace_event *emit(struct converter *cv, enum trace_kind kind, uint64_t at,
				unsigned int cpu)
{
	struct trace_event ev = { .kind = kind, .at_ns = at, .cpu = cpu,
				  .line = cv->im->events->len };

	g_array_append_val(cv->im->events, ev);
	return &g_array_index(cv->im->events, struct trace_event, cv->im->events->len - 1);
}

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
		emit(cv, TRACE_CANCEL, at, t->cpu)->timer_id = id;
	if (!t) {
		t = g_new0(struct model_timer, 1);
		t->id = id;	/* the key: set before the table hashes it */
		g_hash_table_add(cv->timers, t);
	}
	ev = emit(cv, kind, at, cpu);
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
 * Where the records of what p's running work did are written from: the
 * wakeup that started it (its cause where that came while the CPU was
 * still idle and the caller counts it, else the exit), but not before the
 * last idle loop of that work that entered no state, whose select came
 * first.
 */
static uint64_t work_began(const struct cpu_track *p, bool cause_counts)
{
	return MAX(cause_counts && p->cause_at < p->since ? p->cause_at : p->since,
		   p->aborted_at);
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
	from = work_began(p, p->cause != CAUSE_NONE);
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
	emit(cv, TRACE_TICK, at_ns, cpu)->fires_ns = MAX(fires_ns, at_ns);
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

static void on_tick_expire(struct converter *cv, const struct cap_event *e)
{
	struct tick_arming *t = &cv->ticks[e->cpu];
	uint64_t at = rel(cv, e->ts_ns);

	if (!t->armed || t->at_ns > at + EXPIRY_EARLY_NS)
		return;
	t->armed = false;
	/* Early, and the capture ended before its boundary: never simulated. */
	if (t->at_ns > cv->im->header.end_ns)
		return;
	tick_record(cv, e->cpu, t->at_ns, at);
}

static void on_timer_start(struct converter *cv, const struct cap_event *e, guint index)
{
	uint64_t at = rel(cv, e->ts_ns), expires;

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
static void on_wheel_start(struct converter *cv, const struct cap_event *e)
{
	uint64_t at = rel(cv, e->ts_ns), due;

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
	uint64_t at = rel(cv, e->ts_ns);
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
static void on_wheel_expire(struct converter *cv, const struct cap_event *e)
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
static void note_wheel_run(struct converter *cv, const struct cap_event *e)
{
	struct cpu_track *p = &cv->cpus[e->cpu];
	const struct model_timer *t = g_hash_table_lookup(cv->timers, &e->timer);
	uint64_t at = rel(cv, e->ts_ns);

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
	uint64_t at = busy_anchor(cv, e->cpu, e->timer, rel(cv, e->ts_ns));

	emit(cv, TRACE_CANCEL, at, t->cpu)->timer_id = e->timer;
	t->cancelled = true;
	t->touched_ns = at;
}

/*
 * A wheel timer leaves its base when it is cancelled, and also just before
 * it runs (detach_timer() traces a cancel then too): after its boundary,
 * where the reader has it expired already and the simulator expires it
 * at the tick.
 */
static void on_wheel_cancel(struct converter *cv, const struct cap_event *e)
{
	struct model_timer *t = g_hash_table_lookup(cv->timers, &e->timer);

	if (t && t->wheel && model_armed(t, rel(cv, e->ts_ns)))
		cancel_timer(cv, t, e);
}

static void on_timer_cancel(struct converter *cv, const struct cap_event *e, guint index)
{
	struct model_timer *t = g_hash_table_lookup(cv->timers, &e->timer);
	uint64_t at = rel(cv, e->ts_ns);

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
 * When the simulated CPU is to know of a change made at time at to what
 * its next select reads (its RCU callbacks, its tasks waiting for I/O):
 * as for the timers its work arms (busy_anchor()), from the interrupt or
 * exit that started the work, or the last idle loop of that work that
 * entered no state; in the idle state, from the interrupt whose handler
 * or softirq made it (a batch of RCU callbacks ends in the softirq of a
 * tick).  Where the simulated work ends sooner than the kernel's (a tick
 * stop's cost, an entry held up), the change still comes before the
 * select.
 */
static uint64_t change_time(const struct cpu_track *p, uint64_t at)
{
	bool interrupt = p->cause != CAUSE_NONE && p->cause != CAUSE_REMOTE;

	if (p->phase == PHASE_BUSY)
		return MIN(work_began(p, interrupt), at);
	if (p->phase == PHASE_IDLE && interrupt)
		return MIN(p->cause_at, at);
	return at;
}

/*
 * RCU callbacks queued on a CPU keep its tick (rcu_needs_cpu()).  The
 * capture gives the queue's length as each callback goes in and as a
 * batch starts, and how many callbacks a batch invoked; an rcu record is
 * written where the queue goes from empty to not, and back.  Before a
 * CPU's first such event its queue is taken as empty.
 */
static void on_rcu(struct converter *cv, const struct cap_event *e)
{
	uint32_t *n = &cv->rcu_callbacks[e->cpu];
	bool was_pending = *n > 0;

	if (e->kind == CAP_RCU_DONE)
		*n -= MIN(*n, e->callbacks);
	else
		*n = e->callbacks;
	if ((*n > 0) == was_pending)
		return;
	emit(cv, TRACE_RCU, change_time(&cv->cpus[e->cpu], rel(cv, e->ts_ns)), e->cpu)->rcu_pending =
		*n > 0;
	cv->im->counts.rcu_records++;
}

/*
 * Tasks waiting for I/O on a CPU (nr_iowait_cpu(), which menu of 6.1
 * reads): a task that blocks with io_schedule() counts on the CPU it
 * switched away from until it is woken (try_to_wake_up()).  The capture
 * shows the block as a switch away from a task in state D alone
 * (TASK_UNINTERRUPTIBLE), which other uninterruptible sleeps share, and
 * the end as its sched_wakeup, or its next switch in when that was lost.
 * An iowait record is written at each change; tasks already waiting when
 * the capture starts are not counted.
 */
static void iowait_change(struct converter *cv, uint64_t at, unsigned int cpu, bool up)
{
	uint32_t *n = &cv->iowait_tasks[cpu];

	*n = up ? *n + 1 : *n - 1;
	emit(cv, TRACE_IOWAIT, change_time(&cv->cpus[cpu], at), cpu)->iowait_tasks = *n;
	if (up)
		cv->im->counts.iowait_blocks++;
	else
		cv->im->counts.iowait_ends++;
}

/* Ends pid's wait for I/O, if it was waiting. */
static void iowait_end(struct converter *cv, uint64_t at, uint32_t pid)
{
	gpointer cpu;

	if (!pid || !g_hash_table_steal_extended(cv->io_waiters, GUINT_TO_POINTER(pid), NULL, &cpu))
		return;
	iowait_change(cv, at, GPOINTER_TO_UINT(cpu) - 1, false);
}

static void on_iowait_switch(struct converter *cv, const struct cap_event *e)
{
	uint64_t at = rel(cv, e->ts_ns);

	/* A task switched in again was woken, whether or not the capture shows it. */
	iowait_end(cv, at, e->next_pid);
	/* Blocked again: its wakeup in between was lost. */
	iowait_end(cv, at, e->pid);
	if (!e->blocked || !e->pid || cv->iowait_tasks[e->cpu] >= TRACE_IOWAIT_TASKS_MAX)
		return;
	g_hash_table_insert(cv->io_waiters, GUINT_TO_POINTER(e->pid), GUINT_TO_POINTER(e->cpu + 1));
	iowait_change(cv, at, e->cpu, true);
}

/*
 * Whether the interrupt that ended p's halting state ran its handler
 * alone: do_idle() loops while no task is to run, so with no task woken
 * on the CPU (nor switched in) up to its next entry, the kernel never
 * reached tick_nohz_idle_exit(): a stopped tick stayed stopped, and the
 * handler's return renewed the idle entry time whether the tick ran or
 * not (tick_nohz_irq_exit() looks only at whether the CPU is in the idle
 * loop).  The polling state takes such interrupts and polls on; a capture
 * without sched_wakeup cannot tell.
 */
static bool stays_in_idle_loop(const struct converter *cv, const struct cpu_track *p)
{
	return cv->sees_wakeups && p->state > 0 && !p->task_woken &&
	       !p->remote_wakeup && (p->cause == CAUSE_TIMER || p->cause == CAUSE_IRQ ||
				     p->cause == CAUSE_TICK || p->cause == CAUSE_NONE);
}

/*
 * A CPU that left do_idle() restarted the tick; one that stopped it again
 * before this entry (tick_stop) has it stopped.
 */
static void track_tick(const struct converter *cv, struct cpu_track *p)
{
	if (!stays_in_idle_loop(cv, p) && !p->stopped_tick)
		p->tick_off = false;
}

/*
 * A wakeup's record gets the busy period's work, whether it stayed in the
 * idle loop, and what the host did to p's polling loop around its
 * interrupt (held_in_poll(), stalled_in_poll()).
 */
static void give_work(struct converter *cv, const struct cpu_track *p, struct trace_event *ev,
		      uint64_t work, bool in_loop)
{
	ev->work_ns = work;
	ev->idle_loop = in_loop;
	ev->held_ns = p->held_ns;
	ev->exit_ns = p->exit_ns;
	ev->stalled_ns = p->stalled_ns;
	cv->im->counts.idle_loop_wakeups += in_loop;
}

/*
 * Whether no interrupt of its own woke p: a task woken from another CPU
 * with no IPI seen (the waker only set need_resched, as it does for a
 * polling CPU), or, from the polling state, nothing at all in the capture
 * (the wakeup is traced on the woken CPU, after its exit, when it runs the
 * waker's queued wakeup).  The simulated CPU then pays no interrupt's exit
 * cost if it polls, and the state's (the IPI's) if it halts.
 */
static bool woken_by_need_resched(const struct cpu_track *p)
{
	return p->cause == CAUSE_REMOTE || (p->cause == CAUSE_NONE && p->state == 0);
}

/*
 * Where an interrupt goes so that a simulated CPU that pays cost to leave
 * its state runs again where p did: cost before the exit, not before the
 * entry.
 */
static uint64_t cost_before_exit(const struct cpu_track *p, uint64_t cost)
{
	return MAX(p->since - MIN(cost, p->since), p->idle_since);
}

/* The capture's median exit cost of p's state if it halts (0: polling, or none measured). */
static uint64_t halting_exit_cost(const struct converter *cv, const struct cpu_track *p)
{
	if (!cv->first || p->state <= 0 || p->state >= KSHIM_STATE_MAX)
		return 0;
	return cv->first->exit_cost_ns[p->state];
}

/*
 * Where the irq record of p's wakeup goes (an interrupt, a remote wakeup,
 * an exit with no cause): at the interrupt (or the remote wakeup) where it
 * came while the CPU was still idle, the simulator adding the time the
 * wakeup takes (the exit cost) itself.  With no cause in the capture, a
 * halting state's exit cost before the exit, as hold_up() places the
 * interrupts the capture shows; a polling one left at once (remote=1).
 */
static uint64_t irq_record_at(const struct converter *cv, const struct cpu_track *p)
{
	if (p->cause != CAUSE_NONE && p->cause_at < p->since)
		return MAX(p->cause_at, p->idle_since);
	if (p->cause == CAUSE_NONE)
		return cost_before_exit(p, halting_exit_cost(cv, p));
	return p->since;
}

/* The pace of cpu's polling loop where it was last written, or 0 for none. */
static uint64_t poll_pace_of(const struct converter *cv, unsigned int cpu)
{
	const struct poll_pace *pp = &cv->poll_pace[cpu];

	return pp->written ? pp->written : cv->first ? cv->first->poll_check_ns : 0;
}

/*
 * With too few limits in the capture for a pace, how long a running
 * polling loop takes at most to reach its limit: cpuidle_poll_time() is
 * at most TICK_NSEC / 16, and a pace as long again still reaches it within
 * TICK_NSEC / 8 (0: HZ unknown too).  A polling state that went longer
 * with no limit was stopped by the host, from its entry.
 */
static uint64_t paceless_limit_within(const struct converter *cv)
{
	return cv->jiffies.known ? cv->jiffies.tick_ns / 8 : 0;
}

/*
 * The host stopped cpu's polling loop from `from` until `until`: its loop
 * read no clock meanwhile, and the kernel counted no limit.  Two poll
 * records say so: from `from` a pace that no limit can come at before
 * `until` (however early in its own pace a simulated CPU then polls), and
 * the CPU's pace again at `until`, where a simulated CPU polling past its
 * limit stops, as the kernel's loop did when it read the clock again.
 * With no pace known (0), the simulator's own pace comes back (check_ns=0),
 * and the first record outlasts any pace a loop reaches its limit at.
 */
static void poll_stopped(struct converter *cv, unsigned int cpu, uint64_t from,
			 uint64_t until, uint64_t pace)
{
	uint64_t margin = pace ? pace : paceless_limit_within(cv);

	emit(cv, TRACE_POLL, from, cpu)->check_ns = MIN(until - from + margin,
							TRACE_POLL_CHECK_MAX_NS);
	emit(cv, TRACE_POLL, until, cpu)->check_ns = pace;
}

/*
 * The polling loop reads the clock every 200 cpu_relax() and stops past
 * its limit; under TCG it takes the capture's median time to the limit
 * (the first pass's poll_check_ns, which the simulator polls for) or
 * about as long.  A polling state that an interrupt ended later than that
 * ran no loop meanwhile: the host held the vCPU up from before its limit
 * (the kernel polled on for milliseconds at times, through its limit and
 * even through the interrupt's need_resched, which held_ns tells).  The
 * interrupt says so (stalled_ns, from the entry): a simulated CPU that
 * polls then reaches no limit before it either, where it would otherwise
 * poll to its limit again and again and count periods the kernel did not.
 * The same holds for a wakeup that only set need_resched (a remote one,
 * or none in the capture), which a running loop notices at once: from
 * the entry to that wakeup the loop did not run.
 * The simulator sees an interrupt's stalled_ns only when that interrupt is
 * the CPU's next record, and under a busy host the records of late ticks
 * often come between (a polling state of 8.7 ms in io of teo-6.12 held
 * two, and the model polled to 150 limits where the kernel reached none):
 * poll records keep the loop from a limit from a pace after the entry to
 * the interrupt as well (from the entry, in a capture with too few limits
 * for a pace: paceless_limit_within()).
 */
static void stalled_in_poll(struct converter *cv, struct cpu_track *p, uint64_t wake_at)
{
	unsigned int cpu = (unsigned int)(p - cv->cpus);
	uint64_t polled = wake_at - p->idle_since;
	uint64_t to_limit = cv->first->poll_check_ns;
	uint64_t pace = poll_pace_of(cv, cpu);

	if (!to_limit)
		to_limit = paceless_limit_within(cv);
	if (!to_limit || polled <= to_limit)
		return;
	p->stalled_ns = polled;
	cv->poll_stalls++;
	cv->poll_stalled_ns += polled;
	if (pace < polled)
		poll_stopped(cv, cpu, p->idle_since + pace, wake_at, pace);
}

/*
 * The work of a busy period goes to what started it; in_loop: the CPU
 * stayed in the idle loop (stays_in_idle_loop()).
 */
static void end_busy(struct converter *cv, struct cpu_track *p, unsigned int cpu, uint64_t end,
		     bool in_loop)
{
	uint64_t work = end - p->since, irq_at;
	struct trace_event *ev;

	switch (p->cause) {
	case CAUSE_TIMER:
		cv->im->counts.timer_wakeups++;
		if (p->cause_event >= 0) {
			give_work(cv, p, &g_array_index(cv->im->events, struct trace_event,
							p->cause_event), work, in_loop);
			break;
		}
		/* Armed before the capture, or its hrtimer_start is missing. */
		ev = emit(cv, TRACE_TIMER, p->idle_since, cpu);
		ev->timer_id = IMPORT_INFERRED_ID_BASE + cv->im->counts.inferred_timers++;
		ev->expires_ns = MAX(p->cause_at, p->idle_since);
		give_work(cv, p, ev, work, in_loop);
		break;
	case CAUSE_TICK:
		cv->im->counts.tick_wakeups++;
		/*
		 * The tick ran a wheel timer whose callback woke a task: the
		 * work is that timer's, which the simulator expires at its own
		 * tick (a task woken by something else with it is taken as its).
		 */
		if (p->wheel_event >= 0 && cv->sees_wakeups && p->task_woken) {
			cv->im->counts.wheel_work_wakeups++;
			cv->im->counts.wheel_work_ns += work;
			give_work(cv, p, &g_array_index(cv->im->events, struct trace_event,
							p->wheel_event), work, false);
			break;
		}
		/*
		 * Or one the trace leaves out (deferrable, or armed before the
		 * capture and not shown counted by NOHZ): its work is a task's
		 * all the same.  Written now, armed at the idle entry, due at
		 * its boundary: it shapes no select before that entry, and a
		 * tick the simulated CPU keeps running expires it where the
		 * kernel's did.
		 */
		if (p->untraced_wheel && cv->sees_wakeups && p->task_woken) {
			cv->im->counts.untraced_wheel_ns += work;
			ev = emit(cv, TRACE_WHEEL, p->idle_since, cpu);
			ev->timer_id = IMPORT_UNTRACED_WHEEL_ID_BASE +
				       cv->im->counts.untraced_wheel_wakeups++;
			ev->expires_ns = MAX(p->untraced_due, p->idle_since);
			give_work(cv, p, ev, work, false);
			break;
		}
		cv->im->counts.tick_busy_ns += work;
		/* A polling state takes the tick without leaving. */
		if (p->state > 0)
			g_array_append_val(cv->tick_works, work);
		break;
	case CAUSE_IRQ:
	case CAUSE_REMOTE:
	case CAUSE_NONE:
		cv->im->counts.irq_wakeups += p->cause == CAUSE_IRQ;
		cv->im->counts.remote_wakeups += p->cause == CAUSE_REMOTE;
		cv->im->counts.unknown_wakeups += p->cause == CAUSE_NONE;
		cv->im->counts.unseen_interrupts +=
			p->cause == CAUSE_NONE && halting_exit_cost(cv, p) > 0;
		irq_at = irq_record_at(cv, p);
		if (cv->first && p->state == 0 && woken_by_need_resched(p))
			stalled_in_poll(cv, p, irq_at);
		ev = emit(cv, TRACE_IRQ, irq_at, cpu);
		/* Only an interrupt's can stay: stays_in_idle_loop() rules out the others. */
		give_work(cv, p, ev, work, in_loop);
		ev->remote = woken_by_need_resched(p);
		cv->im->counts.need_resched_wakeups += ev->remote;
		break;
	}
}

/*
 * Whether p's wakeup came by an interrupt taken in its idle state.  Not by
 * the tick in the polling state, which takes it and polls on: an exit
 * after it alone is the polling limit.
 */
static bool woken_in_state(const struct cpu_track *p)
{
	return p->state >= 0 && p->state < KSHIM_STATE_MAX &&
	       (p->cause == CAUSE_TIMER || p->cause == CAUSE_IRQ ||
		(p->cause == CAUSE_TICK && p->state > 0)) &&
	       p->cause_at >= p->idle_since && p->cause_at <= p->since;
}

/*
 * What a wakeup costs the CPU before it runs: from the first interrupt it
 * took in the state (the interrupt's own handler included) to its idle
 * exit.  Under TCG it depends on the host's load, so each capture measures
 * its own; a remote wakeup is no interrupt.
 */
static void sample_exit_cost(struct converter *cv, const struct cpu_track *p)
{
	uint64_t cost;

	if (!woken_in_state(p))
		return;
	cost = p->since - p->cause_at;
	g_array_append_val(cv->exit_costs[p->state], cost);
}

/*
 * The timer's handler ran at its interrupt, and what it did to the same
 * timer there (a re-arming, as dl_task_timer's) moves with the interrupt
 * to at: written where it was traced, before the interrupt the reader
 * takes at at, it would replace the arming whose expiry woke the CPU,
 * and the simulated CPU would never wake for it.  A re-arming for an
 * expiry already past at is due at once, as the reader wants it.
 */
static void move_handler_armings(struct converter *cv, guint cause_event, uint64_t at)
{
	const struct trace_event *cause = &g_array_index(cv->im->events, struct trace_event,
							 cause_event);
	struct model_timer *t = g_hash_table_lookup(cv->timers, &cause->timer_id);

	for (guint i = cause_event + 1; i < cv->im->events->len; i++) {
		struct trace_event *ev = &g_array_index(cv->im->events, struct trace_event, i);

		/* Not a wheel timer at the same address: its expiry stays on its boundary. */
		if (ev->timer_id != cause->timer_id || ev->at_ns >= at ||
		    (ev->kind != TRACE_TIMER && ev->kind != TRACE_CANCEL))
			continue;
		ev->at_ns = at;
		if (ev->kind == TRACE_CANCEL)
			continue;
		ev->expires_ns = MAX(ev->expires_ns, at);
		if (ev->fires_ns)
			ev->fires_ns = MAX(ev->fires_ns, ev->expires_ns);
		if (t && t->out_index == i) {
			t->expires_ns = ev->expires_ns;
			t->fires_ns = MAX(t->fires_ns, ev->expires_ns);
		}
		cv->im->counts.handler_armings_moved++;
	}
	if (t && t->out_index != cause_event)
		t->touched_ns = MAX(t->touched_ns, at);
}

/*
 * Moves the interrupt of the timer that woke p towards *at: never before
 * the expiry it was armed for.  An expiry traced before that time
 * (EXPIRY_EARLY_NS), and an expiry the capture did not see armed (whose
 * inferred timer expires at the interrupt), move only later.  False when
 * it stays; else *at is where it went.
 */
static bool move_timer_interrupt(struct converter *cv, const struct cpu_track *p, uint64_t *at)
{
	struct trace_event *ev;
	struct model_timer *t;

	if (p->cause_event < 0)
		return *at > p->cause_at;
	ev = &g_array_index(cv->im->events, struct trace_event, p->cause_event);
	if (*at <= ev->expires_ns && p->cause_at <= ev->expires_ns)
		return false;
	*at = MAX(*at, ev->expires_ns);
	ev->fires_ns = *at;
	t = g_hash_table_lookup(cv->timers, &ev->timer_id);
	if (t && t->out_index == (guint)p->cause_event)
		t->fires_ns = *at;
	move_handler_armings(cv, (guint)p->cause_event, *at);
	return true;
}

/*
 * The wakeup's interrupt moves from p->cause_at to at, and so do the tick
 * interrupts of the same idle period that the vCPU took with it: the one
 * that came with it (the cause itself, or tick_taken_with()), and, where
 * the wakeup is held up, every later one before at.  A host that stops
 * the vCPU for longer than a tick has the tick's next interrupts come in
 * the stop; left where they were traced, they would wake the simulated
 * CPU before its cause, to a timer already overdue that it would poll on
 * until the cause came, as the stopped vCPU did not.  Never before a
 * tick's boundary.
 */
static void move_tick_interrupts(struct converter *cv, const struct cpu_track *p,
				 unsigned int cpu, uint64_t at)
{
	if (p->first_tick_record < 0)
		return;
	for (guint i = (guint)p->first_tick_record; i < cv->im->events->len; i++) {
		struct trace_event *tick = &g_array_index(cv->im->events, struct trace_event, i);

		if (tick->kind != TRACE_TICK || tick->cpu != cpu || tick->fires_ns < p->cause_at)
			continue;
		if (tick->fires_ns == p->cause_at || tick->fires_ns < at)
			tick->fires_ns = MAX(at, tick->at_ns);
	}
}

/*
 * A polling state ends at the interrupt that wakes a task, but when the
 * host stops the vCPU right after it, the exit comes hundreds of µs later
 * and the kernel counts the wait in the period.  Moving the interrupt
 * there would have the simulated CPU poll on to its limit through the
 * wait, as the stopped vCPU did not; so the interrupt stays and holds the
 * CPU up (held_ns) by what its exit took beyond the state's median (or,
 * with too few for one, beyond the polling loop's pace).
 */
static void held_in_poll(struct converter *cv, struct cpu_track *p, uint64_t cost)
{
	uint64_t held;

	if (p->since - cost <= p->cause_at)
		return;
	held = p->since - cost - p->cause_at;
	p->held_ns = held;
	cv->poll_held++;
	cv->poll_held_ns += held;
}

/*
 * Under TCG the time from a wakeup's interrupt to the idle exit varies
 * from wakeup to wakeup (from some µs to hundreds, and milliseconds when
 * the host stops the vCPU right after the interrupt), where the simulator
 * gives each state one exit cost, the capture's median.  The kernel
 * counted that time in the idle period, and the CPU ran again at the
 * exit.  So a wakeup from a halting state has its interrupt written the
 * state's median exit cost before its exit, later or earlier than it was
 * traced: the simulated CPU then leaves the state where the kernel's did,
 * measures the residency the kernel's governor measured, and goes idle
 * again where the kernel's did, after its task has armed its next timer
 * (a wakeup held up that the model took early ran its work early and
 * waited for its timer while the kernel's CPU was stopped; one that was
 * quick left the state late, and went idle again late, where its timer
 * was closer).  What the woken CPU arms is written from then on
 * (busy_anchor() reads cause_at).  Not from the polling state: a
 * simulated CPU that polls on through a hold-up counts polling limits
 * that the stopped vCPU, which read no clock, did not.
 */
static void hold_up(struct converter *cv, struct cpu_track *p)
{
	uint64_t cost, at;

	if (!cv->first || !woken_in_state(p))
		return;
	if (p->state == 0)
		stalled_in_poll(cv, p, p->cause_at);
	cost = cv->first->exit_cost_ns[p->state];
	/*
	 * Too few interrupts ended polling for a median: the loop tests
	 * need_resched at every turn, so a vCPU back in it leaves within one
	 * of its paces between clock reads, and what took longer was held.
	 */
	if (!cost && p->state == 0)
		cost = cv->first->poll_check_ns;
	if (!cost || p->since < cost)
		return;
	if (p->state == 0) {
		held_in_poll(cv, p, cost);
		return;
	}
	at = cost_before_exit(p, cost);
	if (at == p->cause_at)
		return;
	if (p->cause == CAUSE_TIMER && (!move_timer_interrupt(cv, p, &at) || at == p->cause_at))
		return;
	move_tick_interrupts(cv, p, (unsigned int)(p - cv->cpus), at);
	if (at > p->cause_at) {
		cv->held_up++;
		cv->held_up_ns += at - p->cause_at;
	} else {
		cv->hurried++;
		cv->hurried_ns += p->cause_at - at;
	}
	p->cause_at = at;
}

/*
 * Where the simulated CPU takes p's interrupt, as end_busy() writes it
 * (an irq, the interrupt of an exit with no cause) or hold_up() left it
 * (a timer's fires_ns); false where the simulator places it itself (a
 * timer whose expiry came on time, or one the capture did not see armed).
 */
static bool simulated_interrupt(struct converter *cv, const struct cpu_track *p, uint64_t *at)
{
	const struct trace_event *ev;

	switch (p->cause) {
	case CAUSE_IRQ:
	case CAUSE_NONE:
		*at = irq_record_at(cv, p);
		return true;
	case CAUSE_TIMER:
		if (p->cause_event < 0)
			return false;
		ev = &g_array_index(cv->im->events, struct trace_event, p->cause_event);
		*at = MAX(ev->fires_ns, p->idle_since);
		return ev->fires_ns != 0;
	default:
		return false;
	}
}

/*
 * Under TCG an exit from a halting state takes from a few µs to hundreds
 * after its interrupt, where the simulator pays the state's median.
 * hold_up() writes a quick wakeup's interrupt the median before its exit,
 * but not before the entry (an interrupt pending there, as a tick
 * restarted for a boundary already past is) nor before its timer's
 * expiry: such a wakeup brings its own exit cost (exit_ns), so that the
 * simulated CPU leaves the state where the kernel's did and its governor
 * measures the same residency.  ladder, which takes a residency below the
 * state's exit latency as a very long one (an s64 against its u64
 * thresholds), demotes on 147 µs in C6 and not on the kernel's 61.
 */
static void own_exit_cost(struct converter *cv, struct cpu_track *p)
{
	uint64_t cost, at;

	p->exit_ns = 0;
	cost = halting_exit_cost(cv, p);
	if (!cost || !simulated_interrupt(cv, p, &at) || at + cost <= p->since)
		return;
	p->exit_ns = MAX(p->since - MIN(at, p->since), 1);
	cv->im->counts.quick_exits++;
	cv->im->counts.quick_exit_ns += cost - p->exit_ns;
}

/* The median of n values (n odd, at most POLL_PACE_RECENT), sorted as median() sorts. */
static uint64_t median_of(const uint64_t *values, unsigned int n)
{
	uint64_t v[POLL_PACE_RECENT];

	memcpy(v, values, n * sizeof(*v));
	qsort(v, n, sizeof(*v), import_by_u64);
	return v[n / 2];
}

/*
 * The polling loop's pace follows the host's load through a capture:
 * under TCG a CPU's time to its limit stays near the capture's median
 * (poll_check_ns, the first pass's) for a while, then near 40 µs or 70
 * for another.  A CPU's pace is the median of its last POLL_PACE_RECENT
 * times to the limit; where it moves by more than an eighth from the
 * pace last written for the CPU (at first the capture's median), a poll
 * record gives the new one from the entry of the polling state that
 * moved it (p->idle_since).
 */
static void pace_polling(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			 uint64_t to_limit)
{
	struct poll_pace *pp = &cv->poll_pace[cpu];
	uint64_t pace;

	if (!cv->first || !cv->first->poll_check_ns || !to_limit ||
	    to_limit > TRACE_POLL_CHECK_MAX_NS)
		return;
	if (!pp->written)
		pp->written = cv->first->poll_check_ns;
	pp->recent[pp->seen++ % POLL_PACE_RECENT] = to_limit;
	if (pp->seen < POLL_PACE_RECENT)
		return;
	pace = median_of(pp->recent, POLL_PACE_RECENT);
	if (pace * 8 >= pp->written * 7 && pace * 8 <= pp->written * 9)
		return;
	pp->written = pace;
	emit(cv, TRACE_POLL, p->idle_since, cpu)->check_ns = pace;
	cv->im->counts.poll_records++;
}

/*
 * A polling state that reached its limit more than two paces after its
 * entry was stopped from a pace after the entry at the latest until that
 * late limit; until the next entry where the idle loop after it took more
 * than a pace too.  One whose idle loop alone took that long was stopped
 * from its exit to the next entry.  The model's polling cycle need not be
 * in step with the kernel's: a simulated CPU polling when the host let the
 * kernel's loop run again leaves at that limit, and its next polling state
 * begins about where the kernel's did.
 */
static void stalled_at_limit(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			     uint64_t next_entry)
{
	uint64_t pace = poll_pace_of(cv, cpu);
	uint64_t within = pace ? 2 * pace : paceless_limit_within(cv);
	uint64_t loop_within = pace ? pace : within;
	uint64_t from, until = next_entry;

	if (!within)
		return;
	if (p->since - p->idle_since > within) {
		from = p->idle_since + pace;
		if (next_entry - p->since <= loop_within)
			until = p->since;
	} else if (next_entry - p->since > loop_within) {
		from = p->since;
	} else {
		return;
	}
	poll_stopped(cv, cpu, from, until, pace);
	cv->im->counts.limit_stalls++;
	cv->im->counts.limit_stalled_ns += until - from;
}

/*
 * A polling state takes the tick's interrupt and polls on, and leaves at
 * its limit after the handler or for a task the handler woke (item 12 of
 * sim/README.md).  Where the interrupt came more than two paces after the
 * entry, no limit came before it: the host had stopped the loop from a
 * pace after the entry at the latest, and took the interrupt when it ran
 * the vCPU again (10 ms once, in io of teo-6.1, where the model polled to
 * 202 limits).  Its tick's record says when the interrupt came, and the
 * poll records keep a simulated loop from a limit to the next entry.
 */
static void stalled_to_tick(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			    uint64_t next_entry)
{
	uint64_t pace = poll_pace_of(cv, cpu);
	uint64_t within = paceless_limit_within(cv);

	if (p->state != 0 || p->cause != CAUSE_TICK)
		return;
	if (pace ? p->cause_at < p->idle_since + 2 * pace :
		   !within || p->since - p->idle_since <= within)
		return;
	poll_stopped(cv, cpu, p->idle_since + pace, next_entry, pace);
	cv->im->counts.tick_stalls++;
	cv->im->counts.tick_stalled_ns += next_entry - (p->idle_since + pace);
}

/*
 * Whether p's exit was its polling state's time limit however long the
 * way back to select took: the capture's flags show need_resched clear at
 * the exit, where a wakeup has it set, and no task was woken on the CPU
 * before the next entry (else it ran).  Under TCG the way back sometimes
 * takes longer than RESELECT_NS, and such an exit, taken for a wakeup of
 * unknown cause, would end the simulated polling state and renew its idle
 * entry time, as the kernel's did not.
 */
static bool limit_exit(const struct cpu_track *p)
{
	return p->state == 0 && p->resched_clear && !p->task_woken;
}

static void on_idle(struct converter *cv, const struct cap_event *e)
{
	struct cpu_track *p = &cv->cpus[e->cpu];
	uint64_t at = rel(cv, e->ts_ns);

	if (e->state != CAP_IDLE_EXIT) {
		if (p->phase == PHASE_IDLE) {
			/* The exit was lost: the CPU is taken as idle throughout. */
			cv->im->counts.entries_without_exit++;
			return;
		}
		if (p->phase == PHASE_BUSY && p->cause == CAUSE_NONE && cv->sees_wakeups &&
		    p->state == 0 && (at - p->since <= RESELECT_NS || limit_exit(p))) {
			cv->im->counts.reselects++;
			cv->im->counts.reselect_ns += at - p->since;
			cv->im->counts.late_reselects += at - p->since > RESELECT_NS;
			if (p->state == 0) {
				uint64_t residency = p->since - p->idle_since;

				g_array_append_val(cv->poll_limits, residency);
				pace_polling(cv, p, e->cpu, residency);
				stalled_at_limit(cv, p, e->cpu, at);
			}
		} else if (p->phase == PHASE_BUSY) {
			uint64_t end = at;

			if (p->idle_record >= 0) {
				uint64_t way = at - g_array_index(cv->im->events, struct trace_event,
								  p->idle_record).at_ns;

				g_array_append_val(cv->ways[p->stopped_tick], way);
			}

			/*
			 * The kernel stopped the tick between select and this
			 * entry: the simulator adds that cost itself where it
			 * stops the tick.
			 */
			if (p->stopped_tick && cv->im->header.tick_stop_ns) {
				end = MAX(p->since, at - MIN(at, cv->im->header.tick_stop_ns));
				cv->im->counts.tick_stop_cuts++;
			}
			stalled_to_tick(cv, p, e->cpu, at);
			end_busy(cv, p, e->cpu, end, stays_in_idle_loop(cv, p));
			track_tick(cv, p);
		}
		if (p->phase == PHASE_UNKNOWN && at > p->first_seen)
			/* Running from the CPU's first event, before which nothing is known. */
			emit(cv, TRACE_BUSY, p->first_seen, e->cpu)->work_ns = at - p->first_seen;
		*p = (struct cpu_track){ .phase = PHASE_IDLE, .idle_since = at, .state = e->state,
					 .first_seen = p->first_seen, .seen = true,
					 .tick_record = -1, .first_tick_record = -1,
					 .wheel_event = -1, .idle_record = -1,
					 .tick_off = p->tick_off };
		return;
	}
	if (p->phase == PHASE_BUSY) {
		/* The entry was lost: the CPU is taken as running throughout. */
		cv->im->counts.exits_without_entry++;
		return;
	}
	if (p->phase == PHASE_UNKNOWN) {
		/* The capture starts in this idle period, in a state it does not show. */
		cv->cpus_started_idle++;
		p->idle_since = p->first_seen;
		p->state = -1;
	}
	p->phase = PHASE_BUSY;
	p->since = at;
	p->resched_clear = e->resched_clear;
	sample_exit_cost(cv, p);
	hold_up(cv, p);
	if (p->cause == CAUSE_NONE && p->remote_wakeup)
		p->cause = CAUSE_REMOTE;
	own_exit_cost(cv, p);
}

/*
 * The trace event of the arming that expired at time at on cpu, or -1: the
 * timer is not in the trace, was cancelled, lives elsewhere, or was armed
 * for a later time (then this expiry belongs to an arming the capture
 * missed).
 */
static gint armed_event(struct converter *cv, uint64_t id, unsigned int cpu, uint64_t at)
{
	struct model_timer *t = g_hash_table_lookup(cv->timers, &id);

	if (!t || t->wheel || t->cancelled || t->cpu != cpu || t->expires_ns > at + EXPIRY_EARLY_NS)
		return -1;
	return (gint)t->out_index;
}

/*
 * The tick's interrupt came while the CPU was idle, and another interrupt
 * came before it left the state: that one woke it.  A polling state takes
 * the tick and polls on.  A halting state that the tick ended was left
 * before another interrupt could come, unless the vCPU was held up after
 * the tick's handler (under TCG the host runs other threads for
 * milliseconds at a time); the CPU then took both interrupts when it ran
 * again, and the kernel counted one idle period with the tick in it.  The
 * tick record says so: its interrupt comes with the other.
 */
static void tick_taken_with(struct converter *cv, const struct cpu_track *p, uint64_t at)
{
	struct trace_event *tick;

	if (p->state <= 0 || p->tick_record < 0)
		return;
	/* Never before the boundary, which an early expiry (EXPIRY_EARLY_NS) can precede. */
	tick = &g_array_index(cv->im->events, struct trace_event, p->tick_record);
	tick->fires_ns = MAX(tick->fires_ns, at);
}

/*
 * The first interrupt or expiry on a CPU after it went idle is what woke
 * it, if it comes before the exit (polling states take interrupts while
 * idle) or within CAUSE_WINDOW_NS after it; later ones are part of the
 * work the wakeup started.  The tick is the exception: an interrupt after
 * it, before the exit, is the cause (tick_taken_with()).
 */
static void on_wake_source(struct converter *cv, const struct cap_event *e)
{
	struct cpu_track *p = &cv->cpus[e->cpu];
	uint64_t at = rel(cv, e->ts_ns);
	bool tick = e->kind == CAP_TIMER_EXPIRE && e->tick_timer;

	if (p->phase == PHASE_UNKNOWN)
		return;
	if (p->phase == PHASE_IDLE && p->cause == CAUSE_TICK && !tick)
		tick_taken_with(cv, p, at);
	else if (p->cause != CAUSE_NONE && p->cause != CAUSE_REMOTE)
		return;
	if (p->phase == PHASE_BUSY && at > p->since + CAUSE_WINDOW_NS)
		return;
	p->cause_at = at;
	if (e->kind == CAP_TIMER_EXPIRE) {
		p->cause = tick ? CAUSE_TICK : CAUSE_TIMER;
		p->cause_event = tick ? -1 : armed_event(cv, e->timer, e->cpu, at);
	} else {
		p->cause = CAUSE_IRQ;
	}
}

/*
 * A timer's expiry is traced when its interrupt really came, often well
 * after the expiry it was programmed for: that is the arming's fires_ns.
 */
static void note_fires(struct converter *cv, const struct cap_event *e)
{
	uint64_t at = rel(cv, e->ts_ns);
	gint armed = e->tick_timer ? -1 : armed_event(cv, e->timer, e->cpu, at);
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
 * The idle task gives way to a task before any state was entered.  With no
 * interrupt in its idle loop, a task was woken for the CPU without one (the
 * idle task polls need_resched until call_cpuidle()), and the governor's
 * select had come first: call_cpuidle() found the task and entered no state,
 * as a tick stop in that loop shows too (the call logs of paired runs have
 * about as many selects with no reflect as such loops).  An interrupt there
 * woke the task before the select, unless the tick was stopped.  The tick
 * stopped in the loop runs again as the CPU leaves it: that stop is not the
 * next entry's.
 */
static void idle_loop_left(struct converter *cv, struct cpu_track *p)
{
	struct trace_event *ev = &g_array_index(cv->im->events, struct trace_event, p->idle_record);

	if (p->stopped_tick || !p->loop_interrupted) {
		ev->aborted = true;
		cv->im->counts.aborted_selects++;
		p->aborted_at = ev->at_ns;
	}
	p->idle_record = -1;
	p->stopped_tick = p->tick_off = false;
}

static void on_event(struct converter *cv, const struct cap_event *e, guint index)
{
	struct cpu_track *p = &cv->cpus[e->cpu];

	if (!p->seen) {
		p->seen = true;
		p->first_seen = rel(cv, e->ts_ns);
	}
	switch (e->kind) {
	case CAP_IDLE:
		on_idle(cv, e);
		break;
	case CAP_TIMER_START:
		on_timer_start(cv, e, index);
		break;
	case CAP_TIMER_CANCEL:
		on_timer_cancel(cv, e, index);
		break;
	case CAP_TIMER_EXPIRE:
		if (e->tick_timer)
			on_tick_expire(cv, e);
		note_fires(cv, e);
		on_wake_source(cv, e);
		p->loop_interrupted = true;
		break;
	case CAP_IRQ:
	case CAP_IPI:
		on_wake_source(cv, e);
		p->loop_interrupted = true;
		break;
	case CAP_WAKEUP:
		iowait_end(cv, rel(cv, e->ts_ns), e->pid);
		cv->cpus[e->target_cpu].task_woken = true;
		/* A wakeup of an idle CPU from elsewhere, without an IPI when it polls. */
		if (e->target_cpu != e->cpu && cv->cpus[e->target_cpu].phase == PHASE_IDLE &&
		    !cv->cpus[e->target_cpu].remote_wakeup) {
			cv->cpus[e->target_cpu].remote_wakeup = true;
			cv->cpus[e->target_cpu].cause_at = rel(cv, e->ts_ns);
		}
		break;
	case CAP_SWITCH:
		on_iowait_switch(cv, e);
		/*
		 * A running CPU's task gives way to the idle task: do_idle()
		 * takes the idle entry time the sleep length counts from just
		 * after, however long the way to the state's entry then takes.
		 */
		if (e->flag && p->phase == PHASE_BUSY) {
			emit(cv, TRACE_IDLE, rel(cv, e->ts_ns), e->cpu);
			cv->im->counts.idle_switches++;
			p->idle_record = (gint)cv->im->events->len - 1;
			p->loop_interrupted = false;
		} else if (!e->flag) {
			/* A task runs: one moved here unwoken leaves the idle loop too. */
			p->task_woken = true;
			if (p->idle_record >= 0)
				idle_loop_left(cv, p);
		}
		break;
	case CAP_WHEEL_START:
		on_wheel_start(cv, e);
		break;
	case CAP_WHEEL_CANCEL:
		on_wheel_cancel(cv, e);
		break;
	case CAP_WHEEL_EXPIRE:
		on_wheel_expire(cv, e);
		note_wheel_run(cv, e);
		break;
	case CAP_RCU_QUEUE:
	case CAP_RCU_BATCH:
	case CAP_RCU_DONE:
		on_rcu(cv, e);
		break;
	case CAP_LOST:
		cv->lost_gaps++;
		break;
	case CAP_TICK_STOP:
		/* On the way into a state: its cost is not the work's (end_busy()). */
		if (e->flag && p->phase == PHASE_BUSY)
			p->stopped_tick = true;
		if (e->flag)
			p->tick_off = true;
		break;
	case CAP_IDLE_MISS:
		/* The real governor's outcome: for the report (real-usage.c), not the workload. */
		break;
	}
}

/*
 * The tick's hrtimer still armed at the capture's end for a boundary that
 * has passed: its interrupt had not come by then, and the kernel counted the
 * tick as pending to the end (a vCPU polling through such a wait picks the
 * polling state at every reselect).  Its record comes at the end.
 */
static void tick_pending_at_end(struct converter *cv, unsigned int cpu, uint64_t end)
{
	const struct tick_arming *t = &cv->ticks[cpu];

	if (!t->armed || t->at_ns >= end)
		return;
	tick_record(cv, cpu, t->at_ns, end);
	cv->im->counts.ticks_pending_at_end++;
}

/* Busy periods still open at the end, CPUs that never went idle, and ticks still due. */
static void finish_cpus(struct converter *cv)
{
	uint64_t end = cv->im->header.end_ns;

	for (unsigned int cpu = 0; cpu < cv->im->header.nr_cpus; cpu++) {
		struct cpu_track *p = &cv->cpus[cpu];

		tick_pending_at_end(cv, cpu, end);

		if (p->phase == PHASE_BUSY) {
			/* A polling state the tick ended late, its next entry past the end. */
			stalled_to_tick(cv, p, cpu, end);
			/* Whether a task would have run before the next entry, nothing tells. */
			end_busy(cv, p, cpu, end, false);
		} else if (p->phase == PHASE_UNKNOWN && p->seen) {
			cv->cpus_never_idle++;
			emit(cv, TRACE_BUSY, p->first_seen, cpu)->work_ns = end - p->first_seen;
		} else if (!p->seen) {
			cv->cpus_without_events++;
		}
	}
}

/* The median of values (uint64_t, sorted here), or 0 with fewer than min_samples. */
static uint64_t median(GArray *values, guint min_samples)
{
	if (values->len < min_samples)
		return 0;
	g_array_sort(values, import_by_u64);
	return g_array_index(values, uint64_t, values->len / 2);
}

/*
 * The time the polling state took to reach its limit is the machine's, and
 * under load more than the platform's poll_check_us makes it (TCG runs the
 * 200 cpu_relax() rounds between two clock reads slower on a busy host).
 * Its median goes into the trace as the check interval, which makes the
 * simulated polling limit that long: the first check past the limit is
 * the first check.  0 (the platform's) with too few samples.
 */
static uint64_t poll_check(GArray *residencies)
{
	return MIN(median(residencies, POLL_CHECK_MIN_SAMPLES), TRACE_POLL_CHECK_MAX_NS);
}

/* Each state's median exit cost, where enough wakeups show it. */
static void exit_costs(struct converter *cv)
{
	for (unsigned int s = 0; s < KSHIM_STATE_MAX; s++) {
		GArray *costs = cv->exit_costs[s];

		cv->im->exit_cost_ns[s] = median(costs, IMPORT_EXIT_COST_MIN_SAMPLES);
		cv->im->exit_cost_samples[s] = costs->len < IMPORT_EXIT_COST_MIN_SAMPLES ? 0 : costs->len;
	}
}

/*
 * From the exit of a halting state that the tick ended to the next entry,
 * the CPU returns through the idle loop to select and enters again, as
 * slowly as the host lets it (the platform's tick_work_us was measured on
 * an idle host).  Its median is the capture's tick work.
 */
static void tick_work(struct converter *cv)
{
	GArray *works = cv->tick_works;

	cv->im->tick_work_ns = median(works, IMPORT_EXIT_COST_MIN_SAMPLES);
	cv->im->tick_work_samples = works->len < IMPORT_EXIT_COST_MIN_SAMPLES ? 0 : works->len;
}

/*
 * The kernel stops the tick after its select, on the way from the switch
 * to the idle task to the state's entry; the rest of that way is the same
 * whether it stops the tick or not.  So the median way of the entries
 * that stopped it less that of the others is what stopping it cost, as a
 * call log tells it from the selects (fidelity.c: measure_leads()): to
 * within 1.3 to 2.5 µs at the median over the captures of three sets that
 * have enough of both, where the platform's figure is 5.5 to 7.1 µs off
 * (sim/README.md, item 69).  To the µs, as a platform gives it.
 */
static void own_tick_stop(struct converter *cv)
{
	GArray *keep = cv->ways[0], *stop = cv->ways[1];
	uint64_t kept, stopped;

	cv->im->tick_stop_samples = MIN(keep->len, stop->len);
	if (cv->im->tick_stop_samples < IMPORT_EXIT_COST_MIN_SAMPLES) {
		cv->im->tick_stop_samples = 0;
		return;
	}
	kept = median(keep, 1);
	stopped = median(stop, 1);
	cv->im->tick_stop_ns = MIN(import_whole_us((int64_t)stopped - (int64_t)kept),
				   TRACE_TICK_STOP_MAX_NS);
}

/*
 * By time; at one time an interrupt first, then in the order written.  The
 * records of what an interrupt's work did (the timers it armed, RCU's
 * callbacks) are written at the interrupt, while the interrupt's own
 * record is written only at the next idle entry: the simulated CPU must
 * meet the interrupt first, as the kernel's did, so that it sees what the
 * interrupt says of the state it ends (stalled_ns: no polling limit came
 * before it).
 */
static gint by_time_then_order(gconstpointer a, gconstpointer b)
{
	const struct trace_event *x = a, *y = b;
	bool xi = x->kind == TRACE_IRQ, yi = y->kind == TRACE_IRQ;

	if (x->at_ns != y->at_ns)
		return x->at_ns < y->at_ns ? -1 : 1;
	if (xi != yi)
		return xi ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The trace format's BUSY needs work >= 1 ns: drop empty ones, number lines afresh. */
static void sort_events(struct imported *im)
{
	guint kept = 0;

	g_array_sort(im->events, by_time_then_order);
	for (guint i = 0; i < im->events->len; i++) {
		struct trace_event ev = g_array_index(im->events, struct trace_event, i);

		if (ev.kind == TRACE_BUSY && ev.work_ns == 0)
			continue;
		ev.line = 0;
		g_array_index(im->events, struct trace_event, kept++) = ev;
	}
	g_array_set_size(im->events, kept);
}

static bool convert(const struct capture *c, const char *name, uint64_t tick_stop_ns,
		    struct imported *out, const struct first_pass *first, GError **error)
{
	struct converter cv = { .capture = c, .im = out, .sees_wakeups = c->counts[CAP_WAKEUP] > 0,
				.first = first };

	memset(out, 0, sizeof(*out));
	out->header.has_tick_stop = true;
	out->header.tick_stop_ns = MIN(tick_stop_ns, TRACE_TICK_STOP_MAX_NS);
	out->events = g_array_new(FALSE, FALSE, sizeof(struct trace_event));
	out->notes = g_ptr_array_new_with_free_func(g_free);
	out->header.name = g_strdup(name);
	out->header.nr_cpus = c->nr_cpus;
	out->t0_ns = c->first_ns;
	if (c->last_ns - c->first_ns >= TRACE_TIME_MAX) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: the capture spans %" G_GUINT64_FORMAT " ns, beyond the trace "
			    "format's limit", c->path, c->last_ns - c->first_ns);
		imported_clear(out);
		return false;
	}
	/* The last event is at end_ns - 1: still inside the simulated time. */
	out->header.end_ns = c->last_ns - c->first_ns + 1;
	if (c->nr_cpus > KSHIM_MAX_CPUS) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: %u CPUs, more than this teosim simulates (%u, meson option max_cpus)",
			    c->path, c->nr_cpus, KSHIM_MAX_CPUS);
		imported_clear(out);
		return false;
	}
	out->clock_offset_ns = import_clock_offset(c, &cv.offset_samples);
	/* The hrtimer clock at time 0 puts the simulated tick where the kernel's was. */
	if (cv.offset_samples && (int64_t)out->t0_ns + out->clock_offset_ns > 0)
		out->header.mono_ns = MIN((uint64_t)((int64_t)out->t0_ns + out->clock_offset_ns),
					  TRACE_TIME_MAX);
	cv.cpus = g_new0(struct cpu_track, c->nr_cpus);
	for (unsigned int i = 0; i < c->nr_cpus; i++) {
		cv.cpus[i].tick_record = cv.cpus[i].first_tick_record = cv.cpus[i].wheel_event = -1;
		cv.cpus[i].idle_record = -1;
	}
	cv.ticks = g_new0(struct tick_arming, c->nr_cpus);
	cv.rcu_callbacks = g_new0(uint32_t, c->nr_cpus);
	cv.iowait_tasks = g_new0(uint32_t, c->nr_cpus);
	cv.io_waiters = g_hash_table_new(g_direct_hash, g_direct_equal);
	cv.poll_pace = g_new0(struct poll_pace, c->nr_cpus);
	cv.poll_limits = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	cv.tick_works = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (unsigned int i = 0; i < G_N_ELEMENTS(cv.ways); i++)
		cv.ways[i] = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (unsigned int s = 0; s < KSHIM_STATE_MAX; s++)
		cv.exit_costs[s] = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	if (cv.offset_samples)
		import_jiffies_map(c, out->header.mono_ns, &cv.jiffies);
	cv.timers = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	cv.tick_timers = import_tick_timers(c);
	cv.deferrable = import_deferrable_timers(c);
	cv.stopped_tick_at = g_new(GHashTable *, c->nr_cpus);
	for (unsigned int i = 0; i < c->nr_cpus; i++)
		cv.stopped_tick_at[i] = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	import_find_expiries(c, &cv.expiry_cancel, &cv.expiry_cpu);
	for (guint i = 0; i < c->events->len; i++)
		on_event(&cv, &g_array_index(c->events, struct cap_event, i), i);
	finish_cpus(&cv);
	out->header.poll_check_ns = poll_check(cv.poll_limits);
	exit_costs(&cv);
	tick_work(&cv);
	own_tick_stop(&cv);
	sort_events(out);
	import_write_notes(&cv);
	g_free(cv.cpus);
	g_free(cv.ticks);
	g_free(cv.rcu_callbacks);
	g_free(cv.iowait_tasks);
	g_hash_table_destroy(cv.io_waiters);
	g_free(cv.poll_pace);
	g_array_free(cv.poll_limits, TRUE);
	g_array_free(cv.tick_works, TRUE);
	for (unsigned int i = 0; i < G_N_ELEMENTS(cv.ways); i++)
		g_array_free(cv.ways[i], TRUE);
	for (unsigned int s = 0; s < KSHIM_STATE_MAX; s++)
		g_array_free(cv.exit_costs[s], TRUE);
	g_free(cv.expiry_cancel);
	g_free(cv.expiry_cpu);
	g_hash_table_destroy(cv.timers);
	g_hash_table_destroy(cv.tick_timers);
	g_hash_table_destroy(cv.deferrable);
	for (unsigned int i = 0; i < c->nr_cpus; i++)
		g_hash_table_destroy(cv.stopped_tick_at[i]);
	g_free(cv.stopped_tick_at);
	return true;
}

void import_given_by(const struct platform *pl, struct import_given *out)
{
	*out = (struct import_given){ .tick_stop_ns = (uint64_t)pl->tick_stop_us * 1000 };
	for (unsigned int i = 0; i < pl->state_count && i < KSHIM_STATE_MAX; i++)
		out->exit_cost_ns[i] = (uint64_t)pl->states[i].exit_cost_us * 1000;
}

bool import_convert_cut(const struct capture *c, const char *name,
			const struct import_given *given, struct imported *out, GError **error)
{
	uint64_t tick_stop_ns = given ? given->tick_stop_ns : 0;
	struct first_pass first;

	/*
	 * Twice: hold_up() needs each state's median exit cost and the median
	 * time to the polling limit, which take the whole capture, and the
	 * cuts the capture's own tick-stop cost.
	 */
	if (!convert(c, name, tick_stop_ns, out, NULL, error))
		return false;
	if (given && !given->tick_stop_logged && out->tick_stop_samples)
		tick_stop_ns = out->tick_stop_ns;
	/* The polling state's lone wakeups go by its loop's pace (hold_up()). */
	for (unsigned int i = 0; i < KSHIM_STATE_MAX; i++)
		first.exit_cost_ns[i] = out->exit_cost_samples[i] || !given || i == 0 ?
					out->exit_cost_ns[i] : given->exit_cost_ns[i];
	first.poll_check_ns = out->header.poll_check_ns;
	imported_clear(out);
	return convert(c, name, tick_stop_ns, out, &first, error);
}

bool import_convert(const struct capture *c, const char *name, struct imported *out,
		    GError **error)
{
	return import_convert_cut(c, name, NULL, out, error);
}

static uint32_t to_us(uint64_t ns)
{
	return (uint32_t)MIN((ns + 500) / 1000, UINT32_MAX);
}

void imported_costs_to(const struct imported *im, struct platform *pl)
{
	for (unsigned int i = 0; i < pl->state_count && i < KSHIM_STATE_MAX; i++)
		if (im->exit_cost_samples[i])
			pl->states[i].exit_cost_us = to_us(im->exit_cost_ns[i]);
	if (im->tick_work_samples)
		pl->tick_work_us = to_us(im->tick_work_ns);
}

void imported_clear(struct imported *im)
{
	g_free(im->header.name);
	if (im->events)
		g_array_free(im->events, TRUE);
	if (im->notes)
		g_ptr_array_free(im->notes, TRUE);
	memset(im, 0, sizeof(*im));
}

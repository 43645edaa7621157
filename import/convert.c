// SPDX-License-Identifier: GPL-2.0
/*
 * From capture to workload trace.  The capture's events are walked once in
 * time order with a small state per CPU: idle (since an entry), busy
 * (since an exit, with the cause of that wakeup once it shows), or unknown
 * (before the CPU's first idle event).  When a busy period ends, its length
 * becomes the work of what woke the CPU: the hrtimer's timer event or an
 * irq event.  The timers are convert-timers.c's, RCU and I/O waits
 * convert-rcu-iowait.c's, where an interrupt goes convert-wakeups.c's and
 * the polling loop convert-polling.c's.
 */
#include <string.h>

#include "convert-private.h"
#include "kvline.h"
#include "trace-limits.h"

/*
 * An exit from the polling state that nothing caused, followed this soon
 * by the next entry, woke nothing: the state reached its time limit and
 * the governor was asked anew.  Needs sched_wakeup in the capture, which
 * shows the wakeups that come without an interrupt.  A halting state is
 * left for an interrupt, shown or not, and the governor counted the period.
 */
#define RESELECT_NS		20000

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
 * A wakeup's record gets the busy period's work, whether it stayed in the
 * idle loop, and what the host did to p's polling loop around its
 * interrupt (import_held_in_poll(), import_stalled_in_poll()).
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
		ev = import_emit(cv, TRACE_TIMER, p->idle_since, cpu);
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
			ev = import_emit(cv, TRACE_WHEEL, p->idle_since, cpu);
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
			p->cause == CAUSE_NONE && import_halting_exit_cost(cv, p) > 0;
		irq_at = import_irq_record_at(cv, p);
		if (cv->first && p->state == 0 && import_woken_by_need_resched(p))
			import_stalled_in_poll(cv, p, irq_at);
		ev = import_emit(cv, TRACE_IRQ, irq_at, cpu);
		/* Only an interrupt's can stay: stays_in_idle_loop() rules out the others. */
		give_work(cv, p, ev, work, in_loop);
		ev->remote = import_woken_by_need_resched(p);
		cv->im->counts.need_resched_wakeups += ev->remote;
		/*
		 * A handler that woke no task but left need_resched set (a
		 * reschedule IPI that kicks the CPU to look at a timer queued
		 * on it): do_idle() ends and begins again, the tick restarted.
		 */
		ev->resched = in_loop && p->resched_set;
		cv->im->counts.resched_wakeups += ev->resched;
		break;
	}
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
	uint64_t at = import_rel(cv, e->ts_ns);

	if (e->state != CAP_IDLE_EXIT) {
		if (p->phase == PHASE_IDLE) {
			/* The exit was lost: the CPU is taken as idle throughout. */
			cv->im->counts.entries_without_exit++;
			return;
		}
		if (p->phase == PHASE_BUSY && p->cause == CAUSE_NONE && cv->sees_wakeups &&
		    p->state == 0 && (at - p->since <= RESELECT_NS || limit_exit(p))) {
			uint64_t residency = p->since - p->idle_since;

			cv->im->counts.reselects++;
			cv->im->counts.reselect_ns += at - p->since;
			cv->im->counts.late_reselects += at - p->since > RESELECT_NS;
			g_array_append_val(cv->poll_limits, residency);
			import_pace_polling(cv, p, e->cpu, residency);
			import_stalled_at_limit(cv, p, e->cpu, at);
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
			import_stalled_to_tick(cv, p, e->cpu, at);
			end_busy(cv, p, e->cpu, end, stays_in_idle_loop(cv, p));
		}
		if (p->phase == PHASE_UNKNOWN && at > p->first_seen)
			/* Running from the CPU's first event, before which nothing is known. */
			import_emit(cv, TRACE_BUSY, p->first_seen, e->cpu)->work_ns = at - p->first_seen;
		*p = (struct cpu_track){ .phase = PHASE_IDLE, .idle_since = at, .state = e->state,
					 .first_seen = p->first_seen, .seen = true,
					 .tick_record = -1, .first_tick_record = -1,
					 .wheel_event = -1, .idle_record = -1 };
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
	p->resched_set = e->resched_set;
	import_sample_exit_cost(cv, p);
	import_hold_up(cv, p);
	if (p->cause == CAUSE_NONE && p->remote_wakeup)
		p->cause = CAUSE_REMOTE;
	import_own_exit_cost(cv, p);
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
	uint64_t at = import_rel(cv, e->ts_ns);
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
		p->cause_event = tick ? -1 : import_armed_event(cv, e->timer, e->cpu, at);
	} else {
		p->cause = CAUSE_IRQ;
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
	p->stopped_tick = false;
}

static void on_event(struct converter *cv, const struct cap_event *e, guint index)
{
	struct cpu_track *p = &cv->cpus[e->cpu];

	if (!p->seen) {
		p->seen = true;
		p->first_seen = import_rel(cv, e->ts_ns);
	}
	switch (e->kind) {
	case CAP_IDLE:
		on_idle(cv, e);
		break;
	case CAP_TIMER_START:
		import_on_timer_start(cv, e, index);
		break;
	case CAP_TIMER_CANCEL:
		import_on_timer_cancel(cv, e, index);
		break;
	case CAP_TIMER_EXPIRE:
		if (e->tick_timer)
			import_on_tick_expire(cv, e);
		import_note_fires(cv, e);
		on_wake_source(cv, e);
		p->loop_interrupted = true;
		break;
	case CAP_IRQ:
	case CAP_IPI:
		on_wake_source(cv, e);
		p->loop_interrupted = true;
		break;
	case CAP_WAKEUP:
		import_iowait_end(cv, import_rel(cv, e->ts_ns), e->pid);
		cv->cpus[e->target_cpu].task_woken = true;
		/* A wakeup of an idle CPU from elsewhere, without an IPI when it polls. */
		if (e->target_cpu != e->cpu && cv->cpus[e->target_cpu].phase == PHASE_IDLE &&
		    !cv->cpus[e->target_cpu].remote_wakeup) {
			cv->cpus[e->target_cpu].remote_wakeup = true;
			cv->cpus[e->target_cpu].cause_at = import_rel(cv, e->ts_ns);
		}
		break;
	case CAP_SWITCH:
		import_on_iowait_switch(cv, e);
		/*
		 * A running CPU's task gives way to the idle task: do_idle()
		 * takes the idle entry time the sleep length counts from just
		 * after, however long the way to the state's entry then takes.
		 */
		if (e->flag && p->phase == PHASE_BUSY) {
			import_emit(cv, TRACE_IDLE, import_rel(cv, e->ts_ns), e->cpu);
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
		import_on_wheel_start(cv, e);
		break;
	case CAP_WHEEL_CANCEL:
		import_on_wheel_cancel(cv, e);
		break;
	case CAP_WHEEL_EXPIRE:
		import_on_wheel_expire(cv, e);
		import_note_wheel_run(cv, e);
		break;
	case CAP_RCU_QUEUE:
	case CAP_RCU_BATCH:
	case CAP_RCU_DONE:
		import_on_rcu(cv, e);
		break;
	case CAP_LOST:
		cv->lost_gaps++;
		break;
	case CAP_TICK_STOP:
		/* On the way into a state: its cost is not the work's (end_busy()). */
		if (e->flag && p->phase == PHASE_BUSY)
			p->stopped_tick = true;
		break;
	case CAP_IDLE_MISS:
		/* The real governor's outcome: for the report (real-usage.c), not the workload. */
		break;
	}
}

/* Busy periods still open at the end, CPUs that never went idle, and ticks still due. */
static void finish_cpus(struct converter *cv)
{
	uint64_t end = cv->im->header.end_ns;

	for (unsigned int cpu = 0; cpu < cv->im->header.nr_cpus; cpu++) {
		struct cpu_track *p = &cv->cpus[cpu];

		import_tick_pending_at_end(cv, cpu, end);

		if (p->phase == PHASE_BUSY) {
			/* A polling state the tick ended late, its next entry past the end. */
			import_stalled_to_tick(cv, p, cpu, end);
			/* Whether a task would have run before the next entry, nothing tells. */
			end_busy(cv, p, cpu, end, false);
		} else if (p->phase == PHASE_UNKNOWN && p->seen) {
			cv->cpus_never_idle++;
			import_emit(cv, TRACE_BUSY, p->first_seen, cpu)->work_ns = end - p->first_seen;
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
	 * Twice: import_hold_up() needs each state's median exit cost and the
	 * median time to the polling limit, which take the whole capture, and
	 * the cuts the capture's own tick-stop cost.
	 */
	if (!convert(c, name, tick_stop_ns, out, NULL, error))
		return false;
	if (given && !given->tick_stop_logged && out->tick_stop_samples)
		tick_stop_ns = out->tick_stop_ns;
	/* The polling state's lone wakeups go by its loop's pace (import_hold_up()). */
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

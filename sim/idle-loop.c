// SPDX-License-Identifier: GPL-2.0
/*
 * The idle loop of one CPU.  Read advance() first: the CPU alternates
 * working and an idle period, which go_idle() begins and wake_up() ends;
 * they call the governor in the order kernel/sched/idle.c calls it.  Events
 * are pushed in (sim_cpu_feed()), so that one trace reader can feed many
 * CPUs; between two events the CPU keeps where it stands in struct sim_cpu.
 *
 * Ties: at one instant, timer expiries come first (in the order the timers
 * were armed), then trace events in file order, then the tick, then the
 * polling limit.  A one-shot timer has expired by the time a trace event at
 * its expiry time looks at it, as the trace reader assumes; and the tick or
 * the polling limit is the cause of a wakeup only when nothing else would
 * have woken the CPU at that very instant.
 */
#include "idle-loop.h"
#include "host.h"
#include "kvline.h"
#include "score.h"
#include "tick.h"

#define NEVER	UINT64_MAX

/*
 * The polling state's time limit.  6.x, cpuidle_poll_time(): the target
 * residency of the first enabled state after state 0 whose target residency
 * is at least 10 us, at most TICK_NSEC / 16; TICK_NSEC / 16 when there is
 * none.  The poll_idle() of the linux-pm tree the TEO v8 posting applies to
 * had neither bound: the target residency of the first enabled state after
 * state 0, and when there is none TICK_USEC, taken as nanoseconds (a unit
 * slip of that code, modelled as it ran).
 */
static uint64_t poll_limit_ns(const struct sim_cpu *c, const struct kshim_governor *gov)
{
	const struct platform *p = c->cfg->platform;
	bool legacy = !strcmp(gov->meta->api, "4.20");

	for (unsigned int i = 1; i < p->state_count; i++) {
		uint64_t target = (uint64_t)p->states[i].desc.target_residency_us * 1000;

		if (kshim_machine_is_disabled(c->machine, 0, (int)i))
			continue;
		if (legacy)
			return target;
		if (target < 10000)
			continue;
		return MIN(target, c->tick_nsec / 16);
	}
	return legacy ? (1000000 + c->cfg->hz / 2) / c->cfg->hz : c->tick_nsec / 16;
}

/*
 * The polling loop reads the clock every check ns (0: all the time): it
 * notices its limit at the first check past it.
 */
static void pace_polling(struct sim_cpu *c, uint64_t check)
{
	c->poll_limit_ns = check ? (c->poll_time_ns / check + 1) * check : c->poll_time_ns;
}

bool sim_cpu_new_machine(struct sim_cpu *c, const struct kshim_governor *gov,
			 struct kshim_machine **out, GError **error)
{
	const struct platform *p = c->cfg->platform;
	struct kshim_machine_config mc = {
		.nr_cpus = 1,
		.hz = c->cfg->hz,
		.state_count = p->state_count,
		.host = &sim_host_ops,
		.host_priv = c,
	};
	char err[256];

	for (unsigned int i = 0; i < p->state_count && i < KSHIM_STATE_MAX; i++)
		mc.states[i] = p->states[i].desc;
	if (kshim_machine_new(gov, &mc, out, err, sizeof(err))) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s on %s: %s",
			    gov->meta->name, p->name, err);
		return false;
	}
	return true;
}

bool sim_cpu_init(struct sim_cpu *c, unsigned int cpu, const struct kshim_governor *gov,
		  const struct sim_config *cfg, GError **error)
{
	/* Every CPU starts at 0 in the idle loop with the tick running: as if work had just ended. */
	*c = (struct sim_cpu){ .cpu = cpu, .cfg = cfg, .gov = gov, .phase = CPU_WORKING };
	/* With one state the kernel never calls the governor. */
	if (cfg->platform->state_count < 2) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: %u idle state: a governor needs at least two (the kernel "
			    "calls none with fewer)", cfg->platform->path ? cfg->platform->path :
			    cfg->platform->name, cfg->platform->state_count);
		return false;
	}
	if (!kshim_hz_valid(cfg->hz)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "HZ %u: the kernel offers 100, 250, 300 or 1000", cfg->hz);
		return false;
	}
	c->tick_nsec = tick_nsec_for_hz(cfg->hz);
	/* The kernel's ticks fall on multiples of TICK_NSEC of CLOCK_MONOTONIC. */
	c->tick_shift = cfg->mono_ns % c->tick_nsec;
	c->next_tick_ns = c->tick_shift ? c->tick_nsec - c->tick_shift : 0;
	c->end_ns = cfg->end_ns;
	c->tick_record_ns = NEVER;
	c->switched_idle_ns = NEVER;
	c->latency_limit_us = cfg->latency_limit_us;
	timer_queue_init(&c->timers);
	timer_queue_init(&c->wheel);
	if (!sim_cpu_new_machine(c, gov, &c->machine, error)) {
		timer_queue_clear(&c->timers);
		timer_queue_clear(&c->wheel);
		return false;
	}
	c->poll_time_ns = poll_limit_ns(c, gov);
	/* The trace's measured interval, else the platform's. */
	c->poll_check_ns = cfg->poll_check_ns ? cfg->poll_check_ns :
			   (uint64_t)cfg->platform->poll_check_us * 1000;
	pace_polling(c, c->poll_check_ns);
	c->idle_loop_ns = (uint64_t)cfg->platform->idle_loop_us * 1000;
	c->tick_work_ns = (uint64_t)cfg->platform->tick_work_us * 1000;
	c->select_lead_ns = cfg->select_lead_ns ? cfg->select_lead_ns :
			    (uint64_t)cfg->platform->select_lead_us * 1000;
	c->tick_stop_ns = cfg->has_tick_stop ? cfg->tick_stop_ns :
			  (uint64_t)cfg->platform->tick_stop_us * 1000;
	c->timer_latency_ns = (uint64_t)cfg->platform->timer_latency_us * 1000;
	c->idle_entry_lag_ns = (uint64_t)cfg->platform->idle_entry_us * 1000;
	c->idle_entry_pct = cfg->platform->idle_entry_pct;
	c->idle_entry_held_ns = (uint64_t)cfg->platform->idle_entry_held_us * 1000;
	c->residency_gap_ns = (uint64_t)cfg->platform->residency_gap_us * 1000;
	c->state_count = cfg->platform->state_count;
	for (unsigned int i = 0; i < c->state_count; i++) {
		const struct kshim_state_desc *d = &cfg->platform->states[i].desc;

		c->exit_cost_ns[i] = (uint64_t)cfg->platform->states[i].exit_cost_us * 1000;
		c->polling[i] = d->polling;
	}
	return true;
}

void sim_cpu_clear(struct sim_cpu *c)
{
	kshim_machine_free(c->machine);
	timer_queue_clear(&c->timers);
	timer_queue_clear(&c->wheel);
	c->machine = NULL;
}

/* A valid trace never gets here: kept apart from the inlined sim_cpu_feed(). */
static bool event_out_of_order(const struct sim_cpu *c, const struct trace_event *ev,
			       GError **error)
{
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "line %lu: CPU %u: event at %" G_GUINT64_FORMAT
		    " ns comes before the previous one", ev->line, c->cpu, ev->at_ns);
	return false;
}

/* The earliest expiry, as the kernel's timer code knows it. */
static inline uint64_t first_timer_ns(const struct sim_cpu *c)
{
	return timer_queue_first_ns(&c->timers);
}

/*
 * When that timer's interrupt reaches the CPU (the trace's fires_ns, or
 * the platform's timer latency after the expiry): only then does it run
 * and wake the CPU.  Until then the kernel counts it as pending, in the
 * past.
 */
static inline uint64_t first_timer_fires_ns(const struct sim_cpu *c)
{
	return timer_queue_first_fires_ns(&c->timers);
}

/*
 * What the earliest timer's interrupt does to the CPU it wakes: holds it up,
 * runs its handler alone, brings its own exit cost (none without a timer).
 */
static inline struct timer_wakeup first_timer_wake(const struct sim_cpu *c)
{
	const struct sim_timer *t = timer_queue_first(&c->timers);

	return t ? t->wake : (struct timer_wakeup){ 0 };
}

/*
 * The boundary the tick's next interrupt is for: the running tick's next
 * one; a stopped tick's hrtimer is programmed for the next event
 * tick_nohz_next_event() found besides hrtimers (tick_nohz_stop_tick()):
 * the first timer-wheel timer's boundary, or the next one while RCU
 * callbacks are queued, NEVER with neither.
 */
static inline uint64_t tick_boundary_ns(const struct sim_cpu *c)
{
	return c->tick_stopped ? sim_host_nohz_next_ns(c) : c->next_tick_ns;
}

/*
 * When the tick's interrupt for the boundary tick_ns comes, or NEVER: the
 * clock-event device is programmed for the earliest hrtimer, and a timer
 * due by the tick brings the one interrupt that runs both, whenever it
 * comes.  The trace's tick record for the boundary the hrtimer is armed
 * for (a stopped tick's, for a wheel timer already due, is basemono: see
 * sim_host_stopped_tick_ns()) says when it came; without one it comes the
 * platform's timer latency late.
 */
static inline uint64_t tick_interrupt_ns(const struct sim_cpu *c, uint64_t tick_ns)
{
	uint64_t armed_for;

	if (tick_ns == NEVER || first_timer_ns(c) <= tick_ns)
		return NEVER;
	armed_for = c->tick_stopped ? sim_host_stopped_tick_ns(c, tick_ns) : tick_ns;
	return armed_for == c->tick_record_ns ? c->tick_record_fires_ns :
						tick_ns + c->timer_latency_ns;
}

/*
 * Programs the tick for its next boundary (tick_at_for) and when its
 * interrupt comes (tick_at), not before from: a stopped tick programmed
 * for a wheel timer already overdue fires at once.  A wheel timer
 * cancelled or queued later leaves it as it is, as in the kernel, where
 * only the interrupt's return reprograms a stopped tick.
 */
static inline void program_tick(struct sim_cpu *c, uint64_t from)
{
	c->tick_at_for = tick_boundary_ns(c);
	c->tick_at = tick_interrupt_ns(c, c->tick_at_for);
	if (c->tick_stopped && c->tick_at != NEVER)
		c->tick_at = MAX(c->tick_at, from);
}

/*
 * A tick record arrives at its boundary, before the interrupt it tells of
 * (the default latency is never negative): an idle CPU waiting for that
 * very tick learns when it really comes.  A CPU whose simulated tick is
 * stopped, or due at another boundary, has nothing to learn.
 */
static void take_tick_record(struct sim_cpu *c, const struct trace_event *ev)
{
	c->tick_record_ns = ev->at_ns;
	c->tick_record_fires_ns = ev->fires_ns;
	if (c->phase != CPU_IDLE || c->tick_at == NEVER || c->tick_at_for != ev->at_ns)
		return;
	program_tick(c, c->period.entry_ns);
	c->wake_limit = MIN(c->tick_at, c->poll_end);
}

/*
 * A poll record: the polling loop's pace from then on (0: the trace's or
 * the platform's again).  A CPU polling then notices its limit at the new
 * pace (not before the record); one whose loop is stalled
 * (loop_stalled_at()) reaches none all the same.
 */
static void take_poll_pace(struct sim_cpu *c, const struct trace_event *ev)
{
	pace_polling(c, ev->check_ns ? ev->check_ns : c->poll_check_ns);
	if (c->phase != CPU_IDLE || c->poll_end == NEVER)
		return;
	c->poll_end = MAX(c->period.entry_ns + c->poll_limit_ns, ev->at_ns);
	c->wake_limit = MIN(c->tick_at, c->poll_end);
}

/*
 * Work that a timer or an event brings: a task's, or a handler's that
 * wakes one, takes the CPU out of the idle loop; a handler's alone
 * (idle_loop) does not.  Returns the work.
 */
static inline uint64_t bring_work(struct sim_cpu *c, uint64_t work_ns, bool idle_loop)
{
	if (work_ns && !idle_loop)
		c->in_idle_loop = false;
	return work_ns;
}

/*
 * The tasks that wheel timers' callbacks woke, work wheel_work, run from
 * from: the CPU leaves the idle loop.
 */
static inline void run_wheel_work(struct sim_cpu *c, uint64_t from, uint64_t wheel_work)
{
	c->work_from = from;
	c->busy_end = from + bring_work(c, wheel_work, false);
}

/*
 * A task ran since work_from: do_idle() was left, and
 * tick_nohz_idle_exit() restarted a stopped tick.
 */
static inline void tick_restarted_by_task(struct sim_cpu *c)
{
	if (c->tick_stopped) {
		c->tick_started_ns = c->work_from;
		c->tick_stopped = false;
	}
}

/*
 * An idle loop whose select was aborted (the idle record's aborted): the
 * governor chose at the idle entry time, but a task woken for the CPU
 * without an interrupt (its idle task polls need_resched) was found before
 * the entry.  call_cpuidle() enters no state and leaves a last residency
 * of 0, which the next select reads, and there is no reflect.  A tick
 * stopped for it runs again as the CPU leaves the idle loop for the task.
 * Returns the work of tasks that wheel timers expired by the running tick
 * woke: then, as in go_idle(), the loop runs them instead of selecting.
 */
static uint64_t select_aborted(struct sim_cpu *c, uint64_t switched_ns)
{
	struct idle_period p = { 0 };
	uint64_t wheel_work;
	bool stop_tick;

	/* A task ran up to the switch. */
	tick_restarted_by_task(c);
	c->in_idle_loop = false;
	c->switched_idle_ns = NEVER;
	c->idle_entry_ns = c->clock_ns = switched_ns + c->idle_entry_lag_ns;
	p.entry_ns = c->clock_ns;
	wheel_work = sim_host_enter_idle(c, &p);
	if (wheel_work)
		return bring_work(c, wheel_work, false);
	kshim_machine_select(c->machine, 0, &stop_tick);
	c->aborted_tick_stops += stop_tick && !c->tick_needed;
	kshim_machine_not_entered(c->machine, 0);
	return 0;
}

/*
 * The trace counts a timer's expiry as come at its interrupt where it gives
 * that (fires_ns), else at the expiry, though the interrupt comes the
 * platform's timer latency later: from then on its id may be armed or
 * cancelled anew (a generated workload re-arms its task's timer at the
 * expiry).  The expiry still interrupts the CPU at its own time, once.
 */
static inline void keep_counted_expiry(struct sim_cpu *c, const struct trace_event *ev)
{
	const struct sim_timer *t = timer_queue_find(&c->timers, ev->timer_id);

	if (t && t->expires_ns + (t->wake.late_counted ? t->late_ns : 0) <= ev->at_ns)
		timer_queue_detach(&c->timers, ev->timer_id);
}

/* Applies what ev brings to the CPU's timers; returns the work it brings. */
static inline uint64_t take_event(struct sim_cpu *c, const struct trace_event *ev)
{
	switch (ev->kind) {
	case TRACE_TIMER:
		keep_counted_expiry(c, ev);
		timer_queue_arm(&c->timers, ev->timer_id, ev->expires_ns,
				ev->fires_ns ? ev->fires_ns - ev->expires_ns : c->timer_latency_ns,
				ev->period_ns, ev->work_ns,
				&(struct timer_wakeup){ .held_ns = ev->held_ns,
							.exit_ns = ev->exit_ns,
							.late_counted = ev->fires_ns != 0,
							.stalled_ns = ev->stalled_ns,
							.idle_loop = ev->idle_loop });
		return 0;
	case TRACE_WHEEL:
		timer_queue_arm(&c->wheel, ev->timer_id, ev->expires_ns, 0, 0, ev->work_ns, NULL);
		return 0;
	case TRACE_CANCEL:
		keep_counted_expiry(c, ev);
		if (!timer_queue_cancel(&c->timers, ev->timer_id))
			timer_queue_cancel(&c->wheel, ev->timer_id);
		return 0;
	case TRACE_IRQ:
	case TRACE_BUSY:
		return bring_work(c, ev->work_ns, ev->idle_loop);
	case TRACE_TICK:
		take_tick_record(c, ev);
		return 0;
	case TRACE_RCU:
		c->rcu_pending = ev->rcu_pending;
		return 0;
	case TRACE_IOWAIT:
		c->iowait_tasks = ev->iowait_tasks;
		return 0;
	case TRACE_POLL:
		take_poll_pace(c, ev);
		return 0;
	case TRACE_IDLE:
		/* A switch while the simulated CPU sleeps already belongs to no work of its own. */
		if (c->phase != CPU_WORKING || ev->at_ns < c->work_from)
			return 0;
		if (G_UNLIKELY(ev->aborted))
			return select_aborted(c, ev->at_ns);
		c->switched_idle_ns = ev->at_ns;
		return 0;
	case TRACE_PHASE:
		break;
	}
	return 0;
}

/*
 * Expires the earliest timer, re-arming a periodic one (whose stalled
 * polling loop was its first expiry's); returns its work.
 */
static uint64_t expire_timer(struct sim_cpu *c)
{
	struct sim_timer t;

	timer_queue_pop(&c->timers, &t);
	if (t.period_ns) {
		struct timer_wakeup next = t.wake;

		next.stalled_ns = next.exit_ns = 0;
		timer_queue_arm(&c->timers, t.id, t.expires_ns + t.period_ns, t.late_ns, t.period_ns,
				t.work_ns, &next);
	}
	return bring_work(c, t.work_ns, t.wake.idle_loop);
}

/*
 * idle_call_stop_or_retain_tick(): once stopped, the tick stays stopped
 * whatever the governor says until the CPU leaves the idle loop to run a
 * task.  tick_nohz_idle_stop_tick() keeps a running tick only when
 * tick_nohz_next_event() finds an event within a tick: with high
 * resolution timers it looks at the timer wheel alone
 * (get_next_timer_interrupt(); hrtimer_get_next_event() answers KTIME_MAX
 * then), so an hrtimer due before the next boundary does not keep the
 * tick, and a wheel timer does, as do RCU's callbacks (tick_needed, host.h).
 */
static void stop_or_retain_tick(struct sim_cpu *c, bool stop_tick)
{
	if (stop_tick && !c->tick_needed)
		c->tick_stopped = true;
}

/*
 * The tick's interrupt while the CPU polls.  poll_idle() polls with
 * interrupts on and stops only when a task is to run or at its time limit:
 * the tick is handled where the CPU polls and the period goes on.  The
 * handler's return renews the tick code's idle entry time
 * (tick_nohz_irq_exit()), the governor will see got_tick, and the polling
 * loop notices its limit only once the handler is done.  A running tick's
 * handler re-arms it for the next boundary; a stopped tick's does not
 * (tick_nohz_handler() leaves that to the idle loop, which stops the tick
 * anew at the next select), so it fires no more in this period.
 */
static void tick_while_polling(struct sim_cpu *c)
{
	uint64_t done = c->tick_at + c->tick_work_ns;

	c->tick_while_polling = true;
	c->idle_entry_ns = done;
	/* None brings work: tick_wakes_task() was asked first. */
	timer_queue_expire_until(&c->wheel, c->tick_at_for);
	if (c->tick_stopped) {
		c->tick_at = NEVER;
	} else {
		/* The next boundary whose interrupt is still to come. */
		do
			c->next_tick_ns += c->tick_nsec;
		while (c->next_tick_ns + c->timer_latency_ns <= c->tick_at);
		program_tick(c, c->tick_at);
	}
	c->poll_end = MAX(c->poll_end, done);
	c->wake_limit = MIN(c->tick_at, c->poll_end);
}

/*
 * Whether the tick's interrupt runs a wheel timer whose callback wakes a
 * task (the work of its record): poll_idle() then stops, as at any wakeup,
 * instead of polling on.
 */
static inline bool tick_wakes_task(const struct sim_cpu *c)
{
	return timer_queue_first_ns(&c->wheel) <= c->tick_at_for &&
	       timer_queue_work_due(&c->wheel, c->tick_at_for);
}

/*
 * When the governor reads the clock, and from when the tick code measures
 * the sleep length (host.h), for the idle loop reached at now.  The
 * governor chooses some µs before the entry, within the work just done (a
 * trace's work runs to the entry, less the cost of stopping the tick where
 * the recorded kernel stopped it: go_idle() adds that where it stops the
 * tick), and do_idle() takes the idle entry time just before.  A polling
 * limit returns to select without passing through the tick code.  Neither
 * does a kept tick that woke the CPU from a halting state and brought no
 * work, nor an interrupt that ran its handler alone (in_idle_loop): the
 * handler's return took the idle entry time (wake_up()), and the select
 * comes within the tick's work or the handler's after it.  Where the trace
 * says when the work's task switched to the idle task (switched_idle_ns),
 * do_idle() took the idle entry time a share of the way from there to the
 * state's entry (idle_entry_pct: a slow host stretches the whole way, not
 * one part of it), but no later than idle_entry_us after the switch (a
 * longer way is long after that point: a dear tick stop, a slow select);
 * and the select comes no earlier than that, whatever the lead estimated
 * from the entry says.  A timer that expired on the way, its interrupt
 * still pending at the entry, was raised once the idle loop had disabled
 * interrupts, after the idle entry time, and held the entry up (under TCG,
 * some 30 us): the way is long after that time, which lies where the short
 * ways put it, idle_entry_held_us after the switch, if the share comes no
 * sooner (held_entry_ns()); not at the expiry, before which it came in
 * nine of ten such ways measured.  That holds wherever on the way the
 * timer expired, after the point the share gives too (item 74: on the
 * selects that this moves, the sleep length came within a median 1.6 us
 * of the kernel's, where the share's entry time left it 4.1 us off).
 */
static inline uint64_t held_entry_ns(const struct sim_cpu *c, uint64_t switched, uint64_t now,
				     uint64_t entry)
{
	const uint64_t expiry = first_timer_ns(c);

	if (!c->idle_entry_held_ns || expiry <= switched || expiry >= now ||
	    first_timer_fires_ns(c) < now)
		return entry;
	return MIN(entry, switched + c->idle_entry_held_ns);
}

static inline void select_times(struct sim_cpu *c, enum wake_cause cause, uint64_t now)
{
	if (cause == WAKE_POLL_LIMIT) {
		c->clock_ns = now;
	} else if ((cause == WAKE_TICK && now == c->work_from) || c->in_idle_loop) {
		c->clock_ns = now - MIN(c->select_lead_ns, now - c->idle_entry_ns);
	} else {
		c->clock_ns = now - MIN(c->select_lead_ns, now - c->work_from);
		c->idle_entry_ns = c->clock_ns;
		if (c->switched_idle_ns != NEVER) {
			const uint64_t switched = MIN(c->switched_idle_ns, now);
			/* From 100 lags on, every share but 0 % reaches the lag: way * pct stays small. */
			uint64_t way = MIN(now - switched, c->idle_entry_lag_ns * 100);

			c->idle_entry_ns = held_entry_ns(c, switched, now, switched +
					   MIN(c->idle_entry_lag_ns, way * c->idle_entry_pct / 100));
			c->clock_ns = MAX(c->clock_ns, c->idle_entry_ns);
		}
	}
	c->switched_idle_ns = NEVER;
}

/*
 * The work queued up to busy_end is done.  If there was any, a task ran:
 * do_idle() was left and tick_nohz_idle_exit() restarted the tick; unless
 * it was the handlers of interrupts that woke no task (in_idle_loop), after
 * which do_idle() goes on to the next select with the tick as it was.  Then,
 * unless the trace has ended, the first half of cpuidle_idle_call() at
 * busy_end: select, stop or retain the tick, enter the state; unless the
 * tick, running meanwhile, expired a wheel timer that brings work: the
 * CPU then stays working (CPU_WORKING).
 */
static G_ALWAYS_INLINE inline bool go_idle(struct sim_cpu *c, GError **error)
{
	const uint64_t now = c->busy_end, end = c->end_ns;
	struct idle_period *p = &c->period;
	uint64_t wheel_work;
	bool was_stopped;

	if (now > c->work_from) {
		c->busy_ns += MIN(now, end) - MIN(c->work_from, end);
		if (!c->in_idle_loop)
			tick_restarted_by_task(c);
	}
	if (c->loop_resched)
		tick_restarted_by_task(c);
	if (now >= end) {
		c->phase = CPU_DONE;
		return true;
	}
	select_times(c, p->cause, now);
	c->reselecting = false;
	c->in_idle_loop = c->loop_resched = false;
	*p = (struct idle_period){ .entry_ns = now };
	wheel_work = sim_host_enter_idle(c, p);
	if (G_UNLIKELY(wheel_work)) {
		/* The running tick ran wheel timers whose callbacks woke tasks: they run first. */
		run_wheel_work(c, now, wheel_work);
		return true;
	}
	p->state = kshim_machine_select(c->machine, 0, &p->stop_tick);
	if ((unsigned int)p->state >= c->state_count) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "CPU %u at %" G_GUINT64_FORMAT " ns: %s selected state %d of %u",
			    c->cpu, now, c->gov->meta->name, p->state, c->state_count);
		return false;
	}
	if (c->observer.selected)
		c->observer.selected(c->observer.priv, p);
	was_stopped = c->tick_stopped;
	stop_or_retain_tick(c, p->stop_tick);
	p->tick_stopped = c->tick_stopped;
	/*
	 * Stopping a running tick reprograms its hrtimer before the state is
	 * entered, with interrupts off: what comes meanwhile wakes the CPU at
	 * the entry (sleep_in_state()).
	 */
	if (c->tick_stopped && !was_stopped)
		p->entry_ns = now + c->tick_stop_ns;
	program_tick(c, p->entry_ns);
	c->poll_end = c->polling[p->state] ? p->entry_ns + c->poll_limit_ns : NEVER;
	c->wake_limit = MIN(c->tick_at, c->poll_end);
	c->tick_while_polling = false;
	c->phase = CPU_IDLE;
	return true;
}

/*
 * The second half of cpuidle_idle_call(): the CPU leaves the state at
 * wake_ns, the core accounts the residency (cpuidle_enter_state()) and the
 * governor reflects; then the CPU runs from the end of the exit latency.
 * A period still idle at the end of the trace is neither accounted nor
 * reflected.
 */
static inline void wake_up(struct sim_cpu *c, uint64_t wake_ns, enum wake_cause cause,
			   bool idle_loop, bool remote, uint64_t exit_ns)
{
	struct idle_period *p = &c->period;
	uint64_t residency_ns, wheel_work = 0;

	p->wake_ns = wake_ns;
	p->cause = cause;
	if (wake_ns >= c->end_ns) {
		c->phase = CPU_DONE;
		return;
	}
	/*
	 * The core reads local_clock() once the wakeup has taken the state's
	 * exit cost; a polling limit is no wakeup and costs nothing, nor does
	 * a remote wakeup of a polling CPU, which needs no interrupt: its loop
	 * sees need_resched set.  A halting CPU takes the waker's IPI.  A
	 * trace's wakeup may bring its own exit cost (exit_ns, a captured
	 * exit quicker than the state's).  The core's two clock reads lie
	 * inside the state's entry and exit by the platform's
	 * residency_gap_us in all.
	 */
	p->exit_latency_ns = cause == WAKE_POLL_LIMIT || (remote && c->polling[p->state]) ?
			     0 : exit_ns ? exit_ns : c->exit_cost_ns[p->state];
	residency_ns = wake_ns + p->exit_latency_ns - p->entry_ns;
	residency_ns -= MIN(residency_ns, c->residency_gap_ns);
	c->clock_ns = wake_ns + p->exit_latency_ns;
	/*
	 * The tick's handler wakes no task: as its interrupt returns to the
	 * idle loop, tick_nohz_irq_exit() takes the idle entry time anew, just
	 * before the exit (the exit cost includes the handler).  The next
	 * select's sleep length counts from there, not from the select.  So
	 * does any other interrupt whose handler wakes no task (idle_loop).
	 */
	if (cause == WAKE_TICK || idle_loop)
		c->idle_entry_ns = c->clock_ns;
	kshim_machine_entered(c->machine, 0, p->state, p->state, residency_ns,
			      cause == WAKE_POLL_LIMIT);
	/*
	 * One timer interrupt runs every hrtimer that has expired before it
	 * returns, which is when the CPU runs again: a running tick whose time
	 * has come by then runs along with the timer that woke the CPU, and is
	 * not due again until the next boundary.
	 */
	c->got_tick = cause == WAKE_TICK || c->tick_while_polling;
	if (cause == WAKE_TICK)
		wheel_work = timer_queue_expire_until(&c->wheel, c->tick_at_for);
	if (cause == WAKE_TIMER && !c->tick_stopped && c->next_tick_ns <= c->clock_ns) {
		c->got_tick = true;
		wheel_work = timer_queue_expire_until(&c->wheel, c->next_tick_ns);
		c->next_tick_ns += c->tick_nsec;
	}
	/*
	 * Nor does an interrupt's wakeup held up after it (held_ns) leave the
	 * running tick out when the tick's own interrupt came while the vCPU
	 * was held, before it left the state: that handler ran in the idle
	 * state too.
	 */
	if (cause == WAKE_EVENT && !c->tick_stopped && c->tick_at <= wake_ns) {
		c->got_tick = true;
		wheel_work = timer_queue_expire_until(&c->wheel, c->tick_at_for);
	}
	kshim_machine_reflect(c->machine, 0, p->state);
	if (c->observer.reflected)
		c->observer.reflected(c->observer.priv, p);
	c->got_tick = false;
	if (c->scorer)
		idle_scorer_add(c->scorer, p);
	/*
	 * Back to select through the tick's handler or the idle loop, which
	 * are not work (the tick stays as it is); the work a trace's wakeup
	 * brings includes them.
	 */
	c->work_from = c->busy_end = c->clock_ns +
		(cause == WAKE_TICK ? c->tick_work_ns : cause == WAKE_POLL_LIMIT ? c->idle_loop_ns : 0);
	c->phase = CPU_WORKING;
	c->reselecting = cause == WAKE_POLL_LIMIT;
	c->in_idle_loop = idle_loop;
	/*
	 * A wheel timer's callback woke a task: the CPU leaves the idle loop
	 * and runs it.  Its work counts from the exit, as a trace wakeup's does.
	 */
	if (wheel_work)
		run_wheel_work(c, c->clock_ns, wheel_work);
}

/* Whether ev interrupts the CPU (the rest only change its timers). */
static inline bool interrupts(const struct trace_event *ev)
{
	return ev->kind == TRACE_IRQ || ev->kind == TRACE_BUSY;
}

/*
 * Whether an interrupt at `at` comes as the work queued so far ends: the
 * CPU has gone idle, and the interrupt ends the state it entered at once
 * (sleep_in_state()).  teosim import writes a wakeup whose captured exit
 * came sooner than the state's exit cost allows at the captured entry,
 * where the work before it ends (the interrupt pending at the entry);
 * taken as work, it cost the simulated CPU that idle period and its exit,
 * and the CPU ran on ahead of the kernel's.  Not where no work has been
 * queued since the CPU woke: an interrupt then is the one that woke it
 * (from polling, with no exit cost, at that same instant), or comes as
 * the tick's handler or the idle loop returns to select, as before.
 */
static inline bool comes_as_work_ends(const struct sim_cpu *c, uint64_t at)
{
	return at == c->busy_end && c->busy_end > c->work_from;
}

/*
 * Working: every timer expiry and event up to the end of the work queued
 * so far adds its own work (first come, first served).  Returns true once
 * it has taken ev, false when the work is done first.  An interrupt taken
 * after the switch to the idle task renews the idle entry time at its
 * return, which the switch no longer tells.
 *
 * Between a polling limit and the next state entry the idle loop runs
 * with interrupts off: an interrupt that comes then is taken only once the
 * governor has selected again and the state is entered, which it ends at
 * once.  It is left pending for sleep_in_state().
 */
static inline bool run_work(struct sim_cpu *c, const struct trace_event *ev, uint64_t ev_at)
{
	for (;;) {
		uint64_t timer_at = first_timer_fires_ns(c);
		uint64_t at = MIN(ev_at, timer_at);

		if (at > c->busy_end || at >= c->end_ns)
			return false;
		if (timer_at > ev_at) {
			/*
			 * take_event()'s case for an interrupt, inline: nearly
			 * every event is one, and the call would cost more.
			 */
			if (interrupts(ev)) {
				if (c->reselecting || comes_as_work_ends(c, ev_at))
					return false;
				c->switched_idle_ns = NEVER;
				c->busy_end += bring_work(c, ev->work_ns, ev->idle_loop);
				return true;
			}
			c->busy_end += take_event(c, ev);
			return true;
		}
		if (c->reselecting || comes_as_work_ends(c, timer_at))
			return false;
		c->switched_idle_ns = NEVER;
		c->busy_end += expire_timer(c);
	}
}

/*
 * Whether the CPU's polling loop is stalled at its time limit, at: the
 * next interrupt to come, the earliest timer's or ev's, says that the host
 * held the vCPU up from before then (stalled_ns), so the loop read no
 * clock until the interrupt.  Past ev, which interrupts nothing, the next
 * interrupt is not known yet: then only the timer's can say.
 */
static inline bool loop_stalled_at(const struct sim_cpu *c, const struct trace_event *ev,
				   uint64_t ev_at, uint64_t timer_at, uint64_t at)
{
	const struct sim_timer *t = timer_queue_first(&c->timers);

	if (ev && interrupts(ev) && ev_at < timer_at)
		return ev->stalled_ns && ev_at <= at + ev->stalled_ns;
	return t && t->wake.stalled_ns && timer_at <= at + t->wake.stalled_ns;
}

/*
 * Idle: the CPU wakes at the first of a timer, an interrupt or busy record
 * (ev), and the wake source of its own (the kept tick, the polling limit);
 * a timer armed or cancelled meanwhile changes its queue without waking
 * it.  Returns true once it has taken such an ev, false when it woke.
 *
 * An interrupt may hold the CPU up (the trace's held_ns: the host stopped
 * the vCPU right after it): the CPU leaves its state that much later, and
 * a polling state, which the interrupt has ended, reaches no limit
 * meanwhile; nor, where the host stopped the vCPU before the interrupt
 * too (stalled_ns), from then on (loop_stalled_at()).
 */
static G_ALWAYS_INLINE inline bool sleep_in_state(struct sim_cpu *c,
						  const struct trace_event *ev, uint64_t ev_at)
{
	/* timer_at is NEVER, and so wakes the CPU past the end, if nothing is ahead. */
	uint64_t timer_at = first_timer_fires_ns(c);
	/* An interrupt left pending while the idle loop reselected wakes it at entry. */
	const uint64_t entry = c->period.entry_ns;

	for (;;) {
		if (timer_at <= MIN(ev_at, c->wake_limit)) {
			const struct timer_wakeup w = first_timer_wake(c);

			wake_up(c, MAX(timer_at, entry) + w.held_ns, WAKE_TIMER, w.idle_loop, false,
				w.exit_ns);
			return false;
		}
		if (ev_at <= c->wake_limit)
			break;
		if (c->tick_at > c->poll_end) {
			if (!loop_stalled_at(c, ev, ev_at, timer_at, c->poll_end)) {
				wake_up(c, c->wake_limit, WAKE_POLL_LIMIT, false, false, 0);
				return false;
			}
			c->poll_end = NEVER;
			c->wake_limit = c->tick_at;
			continue;
		}
		if (!c->polling[c->period.state] || tick_wakes_task(c)) {
			wake_up(c, c->wake_limit, WAKE_TICK, false, false, 0);
			return false;
		}
		tick_while_polling(c);
	}
	if (interrupts(ev)) {
		/* Its work is taken working. */
		wake_up(c, MAX(ev_at, entry) + ev->held_ns, WAKE_EVENT, ev->idle_loop,
			ev->remote, ev->exit_ns);
		c->loop_resched = ev->resched;
		return false;
	}
	take_event(c, ev);
	return true;
}

/*
 * Runs the CPU up to the event ev of its own, and takes it (ev NULL: to the
 * end of the trace).  Always inlined: it runs for every event, and the
 * event's time is then known to be NEVER in sim_cpu_finish().
 */
static G_ALWAYS_INLINE inline bool advance(struct sim_cpu *c, const struct trace_event *ev,
					   GError **error)
{
	const uint64_t ev_at = ev ? ev->at_ns : NEVER;

	/*
	 * Where the CPU stands decides where to start; then work and idle
	 * alternate.  go_idle() may leave the CPU working (wheel timers'
	 * work first) or done, and a wakeup leaves it working or done: one
	 * call of sleep_in_state(), inlined, serves both ways in.
	 */
	for (;;) {
		if (c->phase == CPU_IDLE && sleep_in_state(c, ev, ev_at))
			return true;
		if (c->phase == CPU_DONE)
			return true;
		if (run_work(c, ev, ev_at))
			return true;
		if (!go_idle(c, error))
			return false;
	}
}

bool sim_cpu_feed(struct sim_cpu *c, const struct trace_event *ev, GError **error)
{
	if (ev->at_ns >= c->end_ns)
		return sim_cpu_finish(c, error);
	if (ev->at_ns < c->last_event_ns)
		return event_out_of_order(c, ev, error);
	c->last_event_ns = ev->at_ns;
	return advance(c, ev, error);
}

bool sim_cpu_finish(struct sim_cpu *c, GError **error)
{
	return advance(c, NULL, error);
}

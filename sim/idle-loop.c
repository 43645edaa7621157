// SPDX-License-Identifier: GPL-2.0
/*
 * The idle loop of one CPU.  Read sim_cpu_run() first: it alternates a work
 * phase (run_work()) and an idle period (idle_once()), which is where the
 * governor is called, in the order kernel/sched/idle.c calls it.
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
		  const struct sim_config *cfg, struct sim_event_source src, GError **error)
{
	*c = (struct sim_cpu){ .cpu = cpu, .cfg = cfg, .gov = gov, .src = src };
	/* With one state the kernel never calls the governor. */
	if (cfg->platform->state_count < 2) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "platform %s: a governor needs at least two idle states",
			    cfg->platform->name);
		return false;
	}
	if (!kshim_hz_valid(cfg->hz)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "HZ %u: the kernel offers 100, 250, 300 or 1000", cfg->hz);
		return false;
	}
	c->tick_nsec = tick_nsec_for_hz(cfg->hz);
	c->end_ns = cfg->end_ns;
	c->latency_limit_us = cfg->latency_limit_us;
	timer_queue_init(&c->timers);
	if (!sim_cpu_new_machine(c, gov, &c->machine, error)) {
		timer_queue_clear(&c->timers);
		return false;
	}
	c->poll_limit_ns = poll_limit_ns(c, gov);
	c->state_count = cfg->platform->state_count;
	for (unsigned int i = 0; i < c->state_count; i++) {
		const struct kshim_state_desc *d = &cfg->platform->states[i].desc;

		c->exit_latency_ns[i] = (uint64_t)d->exit_latency_us * 1000;
		c->polling[i] = d->polling;
	}
	return true;
}

void sim_cpu_clear(struct sim_cpu *c)
{
	kshim_machine_free(c->machine);
	timer_queue_clear(&c->timers);
	c->machine = NULL;
}

/* A valid trace never gets here: kept apart from the inlined fetch_event(). */
static bool event_out_of_order(const struct sim_cpu *c, GError **error)
{
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "line %lu: CPU %u: event at %" G_GUINT64_FORMAT
		    " ns comes before the previous one", c->next_event.line, c->cpu,
		    c->next_event.at_ns);
	return false;
}

/*
 * Fills the look-ahead with the CPU's next event before the end, skipping
 * what the engine does not use; next_event_at is NEVER when there is none
 * (the source is not asked again: nothing takes an event at NEVER).
 * Inline: it runs for every event.
 */
static inline bool fetch_event(struct sim_cpu *c, GError **error)
{
	struct trace_event *ev = &c->next_event;

	for (;;) {
		int ret = c->src.next(c->src.priv, ev, error);

		if (ret < 0)
			return false;
		if (ret == 0 || ev->at_ns >= c->end_ns) {
			c->next_event_at = NEVER;
			return true;
		}
		if (ev->kind != TRACE_PHASE && ev->cpu == c->cpu)
			break;
	}
	if (ev->at_ns < c->last_event_ns)
		return event_out_of_order(c, error);
	c->last_event_ns = c->next_event_at = ev->at_ns;
	return true;
}

/*
 * Consumes the look-ahead event into *work (what it brings to the CPU) and
 * reads the next one.  Reading ahead right away is what the loop did when
 * it next peeked: every take is followed by a peek.
 */
static inline bool take_event(struct sim_cpu *c, uint64_t *work, GError **error)
{
	const struct trace_event *ev = &c->next_event;

	*work = 0;
	switch (ev->kind) {
	case TRACE_TIMER:
		timer_queue_arm(&c->timers, ev->timer_id, ev->expires_ns, ev->period_ns,
				ev->work_ns);
		break;
	case TRACE_CANCEL:
		timer_queue_cancel(&c->timers, ev->timer_id);
		break;
	case TRACE_IRQ:
	case TRACE_BUSY:
		*work = ev->work_ns;
		break;
	case TRACE_PHASE:
		break;
	}
	return fetch_event(c, error);
}

/* Expires the earliest timer, re-arming a periodic one; returns its work. */
static uint64_t expire_timer(struct sim_cpu *c)
{
	struct sim_timer t;

	timer_queue_pop(&c->timers, &t);
	if (t.period_ns)
		timer_queue_arm(&c->timers, t.id, t.expires_ns + t.period_ns, t.period_ns,
				t.work_ns);
	return t.work_ns;
}

static inline uint64_t first_timer_ns(const struct sim_cpu *c)
{
	return timer_queue_first_ns(&c->timers);
}

/*
 * The CPU runs from *busy_end on: every event and expiry up to the end of
 * the work queued so far adds its own work (first come, first served), until
 * nothing more arrives before the CPU runs out of work.
 */
static inline bool run_work(struct sim_cpu *c, uint64_t *busy_end, GError **error)
{
	for (;;) {
		uint64_t timer_at = first_timer_ns(c);
		uint64_t at = MIN(c->next_event_at, timer_at);
		uint64_t work;

		if (at > *busy_end || at >= c->end_ns)
			return true;
		if (timer_at <= c->next_event_at)
			work = expire_timer(c);
		else if (!take_event(c, &work, error))
			return false;
		*busy_end += work;
	}
}

/*
 * idle_call_stop_or_retain_tick(): once stopped, the tick stays stopped
 * whatever the governor says until the CPU leaves the idle loop to run a
 * task.  tick_nohz_idle_stop_tick() keeps a running tick when a timer is due
 * by the next tick boundary (tick_nohz_next_event() returns 0 then), as
 * stopping it would gain nothing.
 */
static void stop_or_retain_tick(struct sim_cpu *c, bool stop_tick)
{
	if (!stop_tick || c->tick_stopped)
		return;
	if (first_timer_ns(c) <= c->next_tick_ns)
		return;
	c->tick_stopped = true;
}

/*
 * Sleeps in state from p->entry_ns until the first wake source.  Timers
 * armed or cancelled meanwhile change the CPU's queue without waking it.
 * Sets p->wake_ns to NEVER when the CPU sleeps past the end.
 */
static inline bool sleep_until_wakeup(struct sim_cpu *c, struct idle_period *p,
				      GError **error)
{
	uint64_t poll_end = c->polling[p->state] ? p->entry_ns + c->poll_limit_ns : NEVER;
	uint64_t tick_at = c->tick_stopped ? NEVER : p->next_tick_ns;
	uint64_t limit = MIN(tick_at, poll_end);	/* the first wake source of the CPU's own */

	for (;;) {
		uint64_t timer_at = first_timer_ns(c);
		uint64_t ev_at = c->next_event_at;
		uint64_t work;

		if (timer_at <= MIN(ev_at, limit)) {
			p->wake_ns = timer_at;	/* NEVER if nothing at all is ahead */
			p->cause = WAKE_TIMER;
			return true;
		}
		if (ev_at > limit)
			break;
		if (c->next_event.kind == TRACE_IRQ || c->next_event.kind == TRACE_BUSY) {
			p->wake_ns = ev_at;
			p->cause = WAKE_EVENT;
			return true;
		}
		/* A timer armed or cancelled: it brings no work. */
		if (!take_event(c, &work, error))
			return false;
	}
	p->wake_ns = limit;
	p->cause = tick_at <= poll_end ? WAKE_TICK : WAKE_POLL_LIMIT;
	return true;
}

/*
 * One pass through cpuidle_idle_call() at time now: select, stop or retain
 * the tick, enter, wake, account (cpuidle_enter_state()), reflect.  Sets
 * *past_end when the CPU is still idle at the end of the trace: that
 * period is neither accounted nor reflected.
 */
static inline bool idle_once(struct sim_cpu *c, uint64_t now, bool *past_end, GError **error)
{
	struct idle_period p = { .entry_ns = now };
	uint64_t residency_ns;

	c->clock_ns = now;
	sim_host_enter_idle(c, &p);
	p.state = kshim_machine_select(c->machine, 0, &p.stop_tick);
	if ((unsigned int)p.state >= c->state_count) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "CPU %u at %" G_GUINT64_FORMAT " ns: %s selected state %d of %u",
			    c->cpu, now, c->gov->meta->name, p.state, c->state_count);
		return false;
	}
	if (c->observer.selected)
		c->observer.selected(c->observer.priv, &p);
	stop_or_retain_tick(c, p.stop_tick);
	p.tick_stopped = c->tick_stopped;

	if (!sleep_until_wakeup(c, &p, error))
		return false;
	*past_end = p.wake_ns >= c->end_ns;
	if (*past_end)
		return true;
	/* The core reads local_clock() once the state's exit latency has passed. */
	p.exit_latency_ns = c->exit_latency_ns[p.state];
	residency_ns = p.wake_ns + p.exit_latency_ns - now;
	c->clock_ns = p.wake_ns + p.exit_latency_ns;
	kshim_machine_entered(c->machine, 0, p.state, p.state, residency_ns,
			      p.cause == WAKE_POLL_LIMIT);
	c->got_tick = p.cause == WAKE_TICK;
	kshim_machine_reflect(c->machine, 0, p.state);
	if (c->observer.reflected)
		c->observer.reflected(c->observer.priv, &p);
	c->got_tick = false;
	if (c->scorer)
		idle_scorer_add(c->scorer, &p);
	return true;
}

bool sim_cpu_run(struct sim_cpu *c, GError **error)
{
	const uint64_t end = c->end_ns;
	uint64_t now = 0;	/* every CPU starts in the idle loop with the tick running */

	if (!fetch_event(c, error))
		return false;
	for (;;) {
		uint64_t busy_end = now;
		bool past_end = false;

		if (!run_work(c, &busy_end, error))
			return false;
		if (busy_end > now) {
			/* A task ran: do_idle() was left and tick_nohz_idle_exit() restarted the tick. */
			c->busy_ns += MIN(busy_end, end) - MIN(now, end);
			c->tick_stopped = false;
			now = busy_end;
		}
		if (now >= end)
			return true;
		if (!idle_once(c, now, &past_end, error))
			return false;
		if (past_end)
			return true;
		now = c->clock_ns;
	}
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's side of the kshim host interface: what a governor reads
 * from the kernel (clock, sleep length, tick state, QoS limit) is answered
 * from the simulated CPU (struct sim_cpu, the host's private pointer).
 */
#ifndef TEOSIM_SIM_HOST_H
#define TEOSIM_SIM_HOST_H

#include <stdint.h>

#include <kshim/host.h>

#include "idle-loop.h"
#include "tick.h"

extern const struct kshim_host_ops sim_host_ops;

/*
 * What tick_nohz_next_event() finds besides hrtimers, as of the CPU's last
 * idle entry: the first timer-wheel timer's boundary, or the next tick
 * while RCU callbacks are queued (rcu_needs_cpu()); UINT64_MAX with
 * neither.  A stopped tick is programmed for it (idle-loop.c).
 */
static inline uint64_t sim_host_nohz_next_ns(const struct sim_cpu *c)
{
	uint64_t wheel = timer_queue_first_ns(&c->wheel);

	return c->rcu_pending ? MIN(wheel, c->next_tick_ns) : wheel;
}

/*
 * What a stopped tick is armed for, given next, what
 * tick_nohz_next_event() found besides hrtimers: next itself, or, for a
 * wheel timer already due at the idle entry, basemono:
 * get_next_timer_interrupt() answers the boundary of the last jiffies
 * update, which with the tick stopped came with the interrupt that brought
 * the CPU back to the idle loop (taken as the boundary at or before the
 * idle entry).  The kernel arms the tick's hrtimer for that passed
 * boundary, and its interrupt comes when the host lets it (the trace's
 * tick record for the boundary).  A division, for a due timer only.
 */
static inline uint64_t sim_host_stopped_tick_ns(const struct sim_cpu *c, uint64_t next)
{
	uint64_t boundary;

	if (next > c->idle_entry_ns)
		return next;
	/* The grid's boundaries fall tick_shift before multiples of TICK_NSEC. */
	boundary = tick_next_after(c->idle_entry_ns + c->tick_shift, c->tick_nsec) - c->tick_nsec;
	return boundary < c->tick_shift ? 0 : boundary - c->tick_shift;
}

/*
 * tick_nohz_get_sleep_length(): the kernel returns the time to the next
 * timer with the tick left out, and in *delta_next the time to the event
 * the clock-event device is programmed for: the next tick while the tick
 * runs, else that timer.  tick_nohz_next_event() looks at the timer wheel
 * (with high resolution timers, the wheel alone), from the last tick
 * boundary on (basemono, last_jiffies_update): a wheel timer due by the
 * next boundary, or overdue, keeps a running tick, and the answer is then
 * *delta_next; otherwise the first of the wheel timer and the next hrtimer.
 * RCU callbacks queued on the CPU make the next event the next tick.
 * Trace hrtimers are exact to the nanosecond; wheel timers fall on tick
 * boundaries.  With no timer pending the kernel's answer is KTIME_MAX less
 * the current time (for any CPU that does not hold the do_timer duty).
 *
 * Both are measured from the tick code's idle entry time
 * (ts->idle_entrytime), not from the moment of the select: that time is
 * taken when the CPU enters the idle loop and when an interrupt returns to
 * it, but not when the polling state gives up at its time limit.  So the
 * selects that follow a polling limit are told the same sleep length as
 * the one before, however long the CPU polled (c->idle_entry_ns).
 *
 * At idle entry (the CPU's clock_ns): works out the next tick boundary, and
 * what tick_nohz_get_sleep_length() answers during this select, for the
 * host and in the period's record.  The wheel timers due by the boundary
 * before it have expired, if the tick ran then (a stopped tick's own
 * interrupt expires them, idle-loop.c): returns the work their callbacks
 * brought (the tasks they woke), which the CPU runs before it can go
 * idle; 0 nearly always.  Inline: it runs every period, and a call would
 * cost a good part of what it does.
 */
static G_ALWAYS_INLINE inline uint64_t sim_host_enter_idle(struct sim_cpu *c,
							   struct idle_period *p)
{
	const struct sim_timer *t = timer_queue_first(&c->timers);
	int64_t now = (int64_t)c->idle_entry_ns;
	int64_t sleep = t ? (int64_t)t->expires_ns - now : INT64_MAX - now;
	uint64_t next, wheel_work = 0;
	int64_t tick;

	/* A tick whose interrupt is still on its way is the next one. */
	c->next_tick_ns = tick_next_after_from(c->clock_ns + c->tick_shift -
					       MIN(c->clock_ns, c->timer_latency_ns),
					       c->next_tick_ns + c->tick_shift, c->tick_nsec) -
			  c->tick_shift;
	/*
	 * The trace's tick record overrides the latency for its boundary:
	 * late (if the tick ran then: a restarted tick starts at the next
	 * boundary), however many boundaries late, as the hrtimer stays armed
	 * for it until its interrupt; or already come.
	 */
	if (c->tick_record_fires_ns > c->clock_ns && c->tick_record_ns < c->next_tick_ns &&
	    c->tick_record_ns > c->tick_started_ns)
		c->next_tick_ns = c->tick_record_ns;
	else if (c->next_tick_ns == c->tick_record_ns && c->tick_record_fires_ns <= c->clock_ns)
		c->next_tick_ns += c->tick_nsec;
	tick = (int64_t)c->next_tick_ns - now;
	c->tick_needed = false;
	/* Most traces have no wheel timer nor RCU records: two compares then. */
	if (timer_queue_first_ns(&c->wheel) != UINT64_MAX || c->rcu_pending) {
		const uint64_t last_tick = c->next_tick_ns - MIN(c->next_tick_ns, c->tick_nsec);

		if (!c->tick_stopped && c->next_tick_ns >= c->tick_nsec)
			wheel_work = timer_queue_expire_until(&c->wheel, last_tick);
		next = sim_host_nohz_next_ns(c);
		c->tick_needed = !c->tick_stopped && next <= c->next_tick_ns;
		if (c->tick_needed)
			sleep = MIN(sleep, tick);
		else if (next != UINT64_MAX)
			sleep = MIN(sleep, (int64_t)sim_host_stopped_tick_ns(c, next) - now);
	}
	c->sleep_length_ns = p->sleep_length_ns = sleep;
	c->delta_next_ns = p->delta_next_ns = !c->tick_stopped && tick < sleep ? tick : sleep;
	p->next_tick_ns = c->next_tick_ns;
	p->tick_was_stopped = c->tick_stopped;
	p->iowait_tasks = c->iowait_tasks;
	return wheel_work;
}

#endif /* TEOSIM_SIM_HOST_H */

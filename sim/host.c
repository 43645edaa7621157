// SPDX-License-Identifier: GPL-2.0
/*
 * Every value here is the CPU's own: the machines are single-CPU, so the
 * cpu argument (always 0) is not needed.
 */
#include "host.h"
#include "idle-loop.h"
#include "tick.h"

static uint64_t host_local_clock(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct sim_cpu *)priv)->clock_ns;
}

/*
 * tick_nohz_get_sleep_length(): the kernel returns the time to the next
 * timer with the tick left out (tick_nohz_next_event(), then the next
 * hrtimer), and in *delta_next the time to the event the clock-event device
 * is programmed for: the next tick while the tick runs, else that timer.
 * All trace timers are hrtimers, exact to the nanosecond.  With no timer
 * pending the kernel's answer is KTIME_MAX less the current time (for any
 * CPU that does not hold the do_timer duty).
 */
void sim_host_enter_idle(struct sim_cpu *c, struct idle_period *p)
{
	const struct sim_timer *t = timer_queue_first(&c->timers);
	int64_t now = (int64_t)c->clock_ns;
	int64_t sleep = t ? (int64_t)t->expires_ns - now : INT64_MAX - now;
	int64_t tick;

	c->next_tick_ns = tick_next_after_from(c->clock_ns, c->next_tick_ns, c->tick_nsec);
	tick = (int64_t)c->next_tick_ns - now;
	c->sleep_length_ns = p->sleep_length_ns = sleep;
	c->delta_next_ns = p->delta_next_ns = !c->tick_stopped && tick < sleep ? tick : sleep;
	p->next_tick_ns = c->next_tick_ns;
	p->tick_was_stopped = c->tick_stopped;
}

static int64_t host_sleep_length(void *priv, unsigned int cpu, int64_t *delta_next_ns)
{
	const struct sim_cpu *c = priv;

	(void)cpu;
	*delta_next_ns = c->delta_next_ns;
	return c->sleep_length_ns;
}

static bool host_tick_stopped(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct sim_cpu *)priv)->tick_stopped;
}

static bool host_got_tick(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct sim_cpu *)priv)->got_tick;
}

static int32_t host_latency_limit_us(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct sim_cpu *)priv)->cfg->latency_limit_us;
}

/* Traces do not model tasks blocked on I/O. */
static unsigned int host_nr_iowait(void *priv, unsigned int cpu)
{
	(void)priv;
	(void)cpu;
	return 0;
}

const struct kshim_host_ops sim_host_ops = {
	.local_clock = host_local_clock,
	.sleep_length = host_sleep_length,
	.tick_stopped = host_tick_stopped,
	.got_tick = host_got_tick,
	.latency_limit_us = host_latency_limit_us,
	.nr_iowait = host_nr_iowait,
};

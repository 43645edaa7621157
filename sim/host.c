// SPDX-License-Identifier: GPL-2.0
/*
 * Every value here is the CPU's own: the machines are single-CPU, so the
 * cpu argument (always 0) is not needed.
 */
#include "host.h"
#include "idle-loop.h"

static uint64_t host_local_clock(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct sim_cpu *)priv)->clock_ns;
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
	return ((const struct sim_cpu *)priv)->latency_limit_us;
}

/* As the trace's iowait records last set it. */
static unsigned int host_nr_iowait(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct sim_cpu *)priv)->iowait_tasks;
}

const struct kshim_host_ops sim_host_ops = {
	.local_clock = host_local_clock,
	.sleep_length = host_sleep_length,
	.tick_stopped = host_tick_stopped,
	.got_tick = host_got_tick,
	.latency_limit_us = host_latency_limit_us,
	.nr_iowait = host_nr_iowait,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * The cpuidle core around a governor, for the API generation this object is
 * compiled for (-DKSHIM_API).  It mirrors what drivers/cpuidle/cpuidle.c
 * does for the governor: device set-up and enabling, select, reflect, and
 * the residency bookkeeping at the end of cpuidle_enter_state().
 */
#include <stdlib.h>

#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <kshim/core.h>

struct core {
	struct cpuidle_driver drv;
	unsigned int nr_cpus;
	struct cpuidle_device devs[];
};

static void *core_create(unsigned int nr_cpus, const struct kshim_state_desc *states,
			 unsigned int state_count)
{
	struct core *c = calloc(1, sizeof(*c) + nr_cpus * sizeof(c->devs[0]));
	unsigned int i, cpu;

	if (!c)
		return NULL;
	c->nr_cpus = nr_cpus;
	c->drv.name = "teosim";
	c->drv.state_count = (int)state_count;
	for (i = 0; i < state_count; i++) {
		struct cpuidle_state *s = &c->drv.states[i];

		memcpy(s->name, states[i].name, sizeof(s->name));
		s->exit_latency = states[i].exit_latency_us;
		s->target_residency = states[i].target_residency_us;
		s->flags = states[i].polling ? CPUIDLE_FLAG_POLLING : 0;
#if KSHIM_API >= KSHIM_API_6_1
		/* As cpuidle_register_driver() derives them from the us values. */
		s->exit_latency_ns = (s64)s->exit_latency * NSEC_PER_USEC;
		s->target_residency_ns = (s64)s->target_residency * NSEC_PER_USEC;
#else
		s->disabled = states[i].disabled;
#endif
	}
	/* Devices start zeroed, like the kernel's static per-CPU cpuidle_dev. */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		c->devs[cpu].cpu = cpu;
		c->devs[cpu].registered = 1;
#if KSHIM_API >= KSHIM_API_6_1
		for (i = 0; i < state_count; i++)
			if (states[i].disabled)
				c->devs[cpu].states_usage[i].disable =
					CPUIDLE_STATE_DISABLED_BY_DRIVER;
#endif
	}
	return c;
}

static void core_destroy(void *core)
{
	free(core);
}

static int core_enable(void *core, const void *gov, unsigned int cpu)
{
	struct core *c = core;
	const struct cpuidle_governor *g = gov;
	int ret = g->enable ? g->enable(&c->drv, &c->devs[cpu]) : 0;

	if (!ret)
		c->devs[cpu].enabled = 1;
	return ret;
}

static int core_select(void *core, const void *gov, unsigned int cpu, bool *stop_tick)
{
	struct core *c = core;
	const struct cpuidle_governor *g = gov;

	return g->select(&c->drv, &c->devs[cpu], stop_tick);
}

static void core_entered(void *core, unsigned int cpu, int requested, int entered,
			 uint64_t residency_ns, bool poll_time_limit)
{
	struct core *c = core;
	struct cpuidle_driver *drv = &c->drv;
	struct cpuidle_device *dev = &c->devs[cpu];

	dev->poll_time_limit = poll_time_limit;
#if KSHIM_API >= KSHIM_API_6_1
	if (entered >= 0) {
		s64 diff = (s64)residency_ns;
		s64 delay = drv->states[entered].exit_latency_ns;
		int i;

		dev->last_residency_ns = diff;
		dev->states_usage[entered].time_ns += diff;
		dev->states_usage[entered].usage++;

		/* "above": too deep, and some shallower state was enabled. */
		if (diff < drv->states[entered].target_residency_ns) {
			for (i = entered - 1; i >= 0; i--) {
				if (dev->states_usage[i].disable)
					continue;
				dev->states_usage[entered].above++;
				break;
			}
		} else if (diff > delay) {
			/* "below": the first enabled deeper state would have fit. */
			for (i = entered + 1; i < drv->state_count; i++) {
				if (dev->states_usage[i].disable)
					continue;
				if (diff - delay >= drv->states[i].target_residency_ns)
					dev->states_usage[entered].below++;
				break;
			}
		}
	} else {
		dev->last_residency_ns = 0;
		dev->states_usage[requested].rejected++;
	}
#else
	(void)drv;
	(void)requested;
	if (entered >= 0) {
		/* The 4.20 core kept the residency in us, clamped to INT_MAX. */
		s64 diff = (s64)(residency_ns / NSEC_PER_USEC);

		if (diff > INT_MAX)
			diff = INT_MAX;
		dev->last_residency = (int)diff;
		dev->states_usage[entered].time += dev->last_residency;
		dev->states_usage[entered].usage++;
	} else {
		dev->last_residency = 0;
	}
#endif
}

static void core_not_entered(void *core, unsigned int cpu)
{
	struct core *c = core;

	/* The idle loop's call_cpuidle(): no state, no counters, no reflect. */
#if KSHIM_API >= KSHIM_API_6_1
	c->devs[cpu].last_residency_ns = 0;
#else
	c->devs[cpu].last_residency = 0;
#endif
}

static void core_reflect(void *core, const void *gov, unsigned int cpu, int index)
{
	struct core *c = core;
	const struct cpuidle_governor *g = gov;

	if (g->reflect && index >= 0)
		g->reflect(&c->devs[cpu], index);
}

static void core_set_user_disabled(void *core, unsigned int cpu, int index, bool disabled)
{
	struct core *c = core;
	struct cpuidle_state_usage *su = &c->devs[cpu].states_usage[index];

#if KSHIM_API >= KSHIM_API_6_1
	if (disabled)
		su->disable |= CPUIDLE_STATE_DISABLED_BY_USER;
	else
		su->disable &= ~CPUIDLE_STATE_DISABLED_BY_USER;
#else
	su->disable = disabled;
#endif
}

static bool core_is_disabled(void *core, unsigned int cpu, int index)
{
	struct core *c = core;

#if KSHIM_API >= KSHIM_API_6_1
	return c->devs[cpu].states_usage[index].disable != 0;
#else
	return c->drv.states[index].disabled ||
	       c->devs[cpu].states_usage[index].disable;
#endif
}

static void core_usage(void *core, unsigned int cpu, int index, struct kshim_usage *out)
{
	struct core *c = core;
	const struct cpuidle_state_usage *su = &c->devs[cpu].states_usage[index];

	memset(out, 0, sizeof(*out));
	out->usage = su->usage;
#if KSHIM_API >= KSHIM_API_6_1
	out->time_ns = su->time_ns;
	out->above = su->above;
	out->below = su->below;
	out->rejected = su->rejected;
#else
	out->time_ns = su->time * NSEC_PER_USEC;
#endif
}

static const char *core_kernel_name(const void *gov)
{
	return ((const struct cpuidle_governor *)gov)->name;
}

#define CORE_NAME(api)	CORE_NAME2(api)
#define CORE_NAME2(api)	kshim_core_##api

const struct kshim_core_ops CORE_NAME(KSHIM_API) = {
	.api = KSHIM_API_NAME,
	.create = core_create,
	.destroy = core_destroy,
	.enable = core_enable,
	.select = core_select,
	.entered = core_entered,
	.not_entered = core_not_entered,
	.reflect = core_reflect,
	.set_user_disabled = core_set_user_disabled,
	.is_disabled = core_is_disabled,
	.usage = core_usage,
	.kernel_name = core_kernel_name,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * The scripted test governor (test-script.h), built once per API generation
 * with -DKSHIM_API and -DSCRIPT_NAME.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/tick.h>

#include "test-script.h"

const struct kshim_governor_meta KSHIM_GOVERNOR_META = {
	.name = SCRIPT_NAME, .api = KSHIM_API_NAME, .origin = "sim/test-script-governor.c",
	.path = "sim/test-script-governor.c", .sha256 = "-",
};

static int script_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	unsigned int k = script.selects;
	const struct script_step *step = &script.steps[k < script.nr_steps ? k : script.nr_steps - 1];
	ktime_t delta_next;

	(void)drv;
	if (k < SCRIPT_MAX) {
		struct script_select_seen *s = &script.selected[k];

		s->clock_ns = local_clock();
		s->sleep_length_ns = tick_nohz_get_sleep_length(&delta_next);
		s->delta_next_ns = delta_next;
		s->tick_stopped = tick_nohz_tick_stopped();
		s->iowait_tasks = nr_iowait_cpu(dev->cpu);
#if KSHIM_API >= KSHIM_API_6_1
		s->residency_ns = dev->last_residency_ns;
#else
		s->residency_ns = (uint64_t)dev->last_residency * 1000;
#endif
	}
	script.selects++;
	*stop_tick = step->stop_tick;
	return step->state;
}

static void script_reflect(struct cpuidle_device *dev, int index)
{
	unsigned int k = script.reflects++;

	if (k >= SCRIPT_MAX)
		return;
	script.reflected[k] = (struct script_reflect_seen){
		.state = index,
		.clock_ns = local_clock(),
#if KSHIM_API >= KSHIM_API_6_1
		.residency_ns = dev->last_residency_ns,
#else
		.residency_ns = (uint64_t)dev->last_residency * 1000,
#endif
		.got_tick = tick_nohz_idle_got_tick(),
		.poll_time_limit = dev->poll_time_limit,
	};
}

static struct cpuidle_governor script_governor = {
	.name = "script",
	.rating = 1,
	.select = script_select,
	.reflect = script_reflect,
};

static int __init script_init(void)
{
	return cpuidle_register_governor(&script_governor);
}

postcore_initcall(script_init);

// SPDX-License-Identifier: GPL-2.0
/* Machines: a governor's per-CPU data, driver, devices and host, bound together. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <kshim/context.h>
#include <kshim/machine.h>
#include "percpu-area.h"

struct kshim_machine {
	struct kshim_machine_ctx ctx;
	const struct kshim_governor *gov;
	void *core;
};

bool kshim_hz_valid(unsigned int hz)
{
	return hz == 100 || hz == 250 || hz == 300 || hz == 1000;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static void enter(struct kshim_machine *m, unsigned int cpu)
{
	kshim_cur = &m->ctx;
	kshim_cur_cpu = cpu;
}

int kshim_machine_new(const struct kshim_governor *gov,
		      const struct kshim_machine_config *cfg,
		      struct kshim_machine **out, char *err, size_t errlen)
{
	struct kshim_machine *m;
	unsigned int cpu;

	*out = NULL;
	if (cfg->nr_cpus < 1 || cfg->nr_cpus > KSHIM_MAX_CPUS)
		return fail(err, errlen, "%u CPUs: teosim supports 1 to %u",
			    cfg->nr_cpus, KSHIM_MAX_CPUS);
	if (!kshim_hz_valid(cfg->hz))
		return fail(err, errlen, "HZ %u: the kernel offers 100, 250, 300 or 1000",
			    cfg->hz);
	if (cfg->state_count < 1 || cfg->state_count > KSHIM_STATE_MAX)
		return fail(err, errlen, "%u idle states: cpuidle takes 1 to %d",
			    cfg->state_count, KSHIM_STATE_MAX);

	m = calloc(1, sizeof(*m));
	if (!m)
		return fail(err, errlen, "out of memory");
	m->gov = gov;
	m->ctx.nr_cpus = cfg->nr_cpus;
	m->ctx.hz = cfg->hz;
	m->ctx.tick_nsec = (1000000000L + (long)cfg->hz / 2) / (long)cfg->hz;
	m->ctx.tick_usec = (1000000L + (long)cfg->hz / 2) / (long)cfg->hz;
	m->ctx.host = cfg->host;
	m->ctx.host_priv = cfg->host_priv;
	m->ctx.percpu_areas = kshim_percpu_alloc(gov->percpu_start, gov->percpu_stop,
						  cfg->nr_cpus);
	m->core = gov->core->create(cfg->nr_cpus, cfg->states, cfg->state_count);
	if (!m->ctx.percpu_areas || !m->core) {
		kshim_machine_free(m);
		return fail(err, errlen, "out of memory");
	}
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		int ret;

		enter(m, cpu);
		ret = gov->core->enable(m->core, gov->gov, cpu);
		if (ret) {
			kshim_machine_free(m);
			return fail(err, errlen, "%s: enabling CPU %u failed (%d)",
				    gov->meta->name, cpu, ret);
		}
	}
	*out = m;
	return 0;
}

void kshim_machine_free(struct kshim_machine *m)
{
	if (!m)
		return;
	if (m->core)
		m->gov->core->destroy(m->core);
	kshim_percpu_free(m->ctx.percpu_areas, m->ctx.nr_cpus);
	if (kshim_cur == &m->ctx)
		kshim_cur = NULL;
	free(m);
}

int kshim_machine_select(struct kshim_machine *m, unsigned int cpu, bool *stop_tick)
{
	enter(m, cpu);
	*stop_tick = true;
	return m->gov->core->select(m->core, m->gov->gov, cpu, stop_tick);
}

void kshim_machine_entered(struct kshim_machine *m, unsigned int cpu, int requested,
			   int entered, uint64_t residency_ns, bool poll_time_limit)
{
	m->gov->core->entered(m->core, cpu, requested, entered, residency_ns,
			      poll_time_limit);
}

void kshim_machine_not_entered(struct kshim_machine *m, unsigned int cpu)
{
	m->gov->core->not_entered(m->core, cpu);
}

void kshim_machine_reflect(struct kshim_machine *m, unsigned int cpu, int index)
{
	enter(m, cpu);
	m->gov->core->reflect(m->core, m->gov->gov, cpu, index);
}

void kshim_machine_set_disabled(struct kshim_machine *m, unsigned int cpu,
				int index, bool disabled)
{
	m->gov->core->set_user_disabled(m->core, cpu, index, disabled);
}

bool kshim_machine_is_disabled(const struct kshim_machine *m, unsigned int cpu,
			       int index)
{
	return m->gov->core->is_disabled(m->core, cpu, index);
}

void kshim_machine_usage(const struct kshim_machine *m, unsigned int cpu,
			 int index, struct kshim_usage *out)
{
	m->gov->core->usage(m->core, cpu, index, out);
}

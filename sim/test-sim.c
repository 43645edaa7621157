// SPDX-License-Identifier: GPL-2.0
#include <kshim/registry.h>

#include "score.h"
#include "test-sim.h"

void script_run_init(struct script_run *r, uint64_t end_ns)
{
	memset(r, 0, sizeof(*r));
	test_platform(&r->platform);
	r->cfg = (struct sim_config){ .platform = &r->platform, .hz = 250,
				      .latency_limit_us = INT32_MAX, .end_ns = end_ns };
}

void script_run_start(struct script_run *r, const char *governor, const struct trace_event *ev,
		      size_t nr_events, uint64_t end_ns, const struct script_step *steps,
		      unsigned int nr_steps)
{
	script_run_init(r, end_ns);
	script_run_go(r, governor, ev, nr_events, steps, nr_steps);
}

void script_run_go(struct script_run *r, const char *governor, const struct trace_event *ev,
		   size_t nr_events, const struct script_step *steps, unsigned int nr_steps)
{
	const struct kshim_governor *gov;
	GError *error = NULL;

	kshim_registry_init();
	gov = kshim_governor_find(governor);
	assert_non_null(gov);
	memset(&script, 0, sizeof(script));
	memcpy(script.steps, steps, nr_steps * sizeof(*steps));
	script.nr_steps = nr_steps;
	assert_true(sim_cpu_init(&r->cpu, 0, gov, &r->cfg, &error));
	r->cpu.observer = r->observer;
	r->scorer = idle_scorer_new(&r->platform, INT32_MAX, gov);
	r->cpu.scorer = r->scorer;
	for (size_t k = 0; k < nr_events; k++)
		assert_true(sim_cpu_feed(&r->cpu, &ev[k], &error));
	assert_true(sim_cpu_finish(&r->cpu, &error));
	assert_null(error);
}

void script_run_finish(struct script_run *r, struct cpu_score *score)
{
	if (score)
		idle_scorer_finish(r->scorer, &r->cpu, score);
	idle_scorer_free(r->scorer);
	sim_cpu_clear(&r->cpu);
}

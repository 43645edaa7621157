/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the simulator's tests: a small platform built in memory and an
 * event source over an array, so that the engine is tested without files.
 *
 * The test platform, HZ 250 (TICK_NSEC 4 ms):
 *   state 0 POLL  exit   0 us  target   0 us  polling   1000 mW
 *   state 1 C1    exit   2 us  target   5 us             500 mW
 *   state 2 C6    exit 100 us  target 500 us             100 mW
 *   busy 1000 mW
 * Its polling limit: 6.x skips C1 (target below 10 us) and caps C6's 500 us
 * at TICK_NSEC / 16 = 250 us; 4.20 takes C1's 5 us.
 */
#ifndef TEOSIM_SIM_TEST_SIM_H
#define TEOSIM_SIM_TEST_SIM_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "idle-loop.h"
#include "platform.h"
#include "score.h"
#include "test-script.h"

#define US	1000ull
#define MS	1000000ull

static inline void test_platform(struct platform *p)
{
	static const struct { const char *name; uint32_t exit, target; bool poll; double mw; } s[] = {
		{ "POLL", 0, 0, true, 1000 }, { "C1", 2, 5, false, 500 }, { "C6", 100, 500, false, 100 },
	};

	memset(p, 0, sizeof(*p));
	p->name = (char *)"test";
	p->busy_power_mw = 1000;
	p->idle_entry_pct = 100;	/* platform_load()'s default */
	p->state_count = G_N_ELEMENTS(s);
	for (unsigned int i = 0; i < p->state_count; i++) {
		g_strlcpy(p->states[i].desc.name, s[i].name, sizeof(p->states[i].desc.name));
		p->states[i].desc.exit_latency_us = p->states[i].exit_cost_us = s[i].exit;
		p->states[i].desc.target_residency_us = s[i].target;
		p->states[i].desc.polling = s[i].poll;
		p->states[i].power_mw = s[i].mw;
	}
}

/* Event constructors, all on CPU 0. */
static inline struct trace_event ev_irq(uint64_t at, uint64_t work)
{
	return (struct trace_event){ .kind = TRACE_IRQ, .at_ns = at, .work_ns = work };
}

static inline struct trace_event ev_timer(uint64_t at, uint64_t id, uint64_t expires,
					  uint64_t period, uint64_t work)
{
	return (struct trace_event){ .kind = TRACE_TIMER, .at_ns = at, .timer_id = id,
				     .expires_ns = expires, .period_ns = period, .work_ns = work };
}

static inline struct trace_event ev_cancel(uint64_t at, uint64_t id)
{
	return (struct trace_event){ .kind = TRACE_CANCEL, .at_ns = at, .timer_id = id };
}

static inline struct trace_event ev_wheel(uint64_t at, uint64_t id, uint64_t boundary)
{
	return (struct trace_event){ .kind = TRACE_WHEEL, .at_ns = at, .timer_id = id,
				     .expires_ns = boundary };
}

static inline struct trace_event ev_tick(uint64_t boundary, uint64_t fires)
{
	return (struct trace_event){ .kind = TRACE_TICK, .at_ns = boundary, .fires_ns = fires };
}

static inline struct trace_event ev_idle(uint64_t at)
{
	return (struct trace_event){ .kind = TRACE_IDLE, .at_ns = at };
}

/* An idle record whose select was aborted before the entry. */
static inline struct trace_event ev_idle_aborted(uint64_t at)
{
	return (struct trace_event){ .kind = TRACE_IDLE, .at_ns = at, .aborted = true };
}

static inline struct trace_event ev_busy(uint64_t at, uint64_t work)
{
	return (struct trace_event){ .kind = TRACE_BUSY, .at_ns = at, .work_ns = work };
}

/* A run of one CPU through the scripted governor of the given generation. */
struct script_run {
	struct platform platform;
	struct sim_config cfg;
	struct idle_observer observer;	/* given to the CPU by script_run_go(); none by default */
	struct sim_cpu cpu;
	struct idle_scorer *scorer;
};

void script_run_start(struct script_run *r, const char *governor, const struct trace_event *ev,
		      size_t nr_events, uint64_t end_ns, const struct script_step *steps,
		      unsigned int nr_steps);
/*
 * The same in two steps, for a test that changes r->platform or r->cfg
 * (the platform's costs, the tick's phase), or sets r->observer, before
 * the CPU starts.
 */
void script_run_init(struct script_run *r, uint64_t end_ns);
void script_run_go(struct script_run *r, const char *governor, const struct trace_event *ev,
		   size_t nr_events, const struct script_step *steps, unsigned int nr_steps);
void script_run_finish(struct script_run *r, struct cpu_score *score);

#endif /* TEOSIM_SIM_TEST_SIM_H */

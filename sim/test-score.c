// SPDX-License-Identifier: GPL-2.0
/*
 * Scores of a hand-built mini trace, derived by hand from the kernel's
 * definitions (test-sim.h: C1 exit 2 us target 5 us; C6 exit 100 us target
 * 500 us).  Each period ends with an interrupt bringing 10 us of work, so
 * each is an idle stretch of its own.  r is the residency the core
 * measures (wakeup less entry, plus the exit latency); D the idle time.
 *
 *   P1 entry    0, C6, irq at  100: D 100, r 200.  r < 500 and POLL, C1
 *      are enabled: above.  Hindsight: deepest target <= 100 is C1:
 *      too deep.  CPU runs at 200, works to 210.
 *   P2 entry  210, C1, irq at 1210: D 1000, r 1002 >= 5: not above;
 *      r > 2 and r - 2 = 1000 >= C6's 500: below.  Hindsight C6: too
 *      shallow.  Runs 1212..1222.
 *   P3 entry 1222, C6, irq at 1822: D 600, r 700 >= 500, no deeper
 *      state: neither.  Hindsight C6: agrees.  Runs 1922..1932.
 *   P4 entry 1932, C1, irq at 1935: D 3, r 5, not below 5: not above
 *      (the kernel's test is strict); r - 2 = 3 < 500: not below.
 *      Hindsight: C1's 5 > 3, so POLL: too deep.  Runs 1937..1947.
 *   P5 entry 1947, C1, irq at 2450: D 503, r 505; r - 2 = 503 >= 500:
 *      below.  Hindsight C6: too shallow.  Runs 2452..2462, then the CPU
 *      sleeps past the end (3 ms): that select is never reflected.
 *
 * So: usage C1 3, C6 2; above C6 1; below C1 2; optimal POLL 1, C1 1,
 * C6 3; agree 1, too deep 2, too shallow 2.  Non-timer wakeups: 3 from C1
 * (2 us), 2 from C6 (100 us).  Every period stopped the tick (no timer
 * is pending) and ended before the 4 ms tick: 5 needless stops.
 * Energy terms: in C1 1000 + 3 + 503 = 1506 us, in C6 100 + 600 = 700 us,
 * exits 206 us; hindsight schedule: POLL 3, C1 100, C6 2103 us, exits
 * 0 + 2 + 100 * 3 = 302 us; busy 50 us.
 */
#include <kshim/registry.h>

#include "metrics.h"
#include "score.h"
#include "test-sim.h"

static const struct trace_event MINI[] = {
	{ .kind = TRACE_IRQ, .at_ns = 100 * US, .work_ns = 10 * US },
	{ .kind = TRACE_IRQ, .at_ns = 1210 * US, .work_ns = 10 * US },
	{ .kind = TRACE_IRQ, .at_ns = 1822 * US, .work_ns = 10 * US },
	{ .kind = TRACE_IRQ, .at_ns = 1935 * US, .work_ns = 10 * US },
	{ .kind = TRACE_IRQ, .at_ns = 2450 * US, .work_ns = 10 * US },
};
static const struct script_step CHOICES[] = {
	{ 2, true }, { 1, true }, { 2, true }, { 1, true }, { 1, true },
};

static void check_mini(const char *governor, bool kernel_counts)
{
	struct script_run r;
	struct cpu_score s;

	script_run_start(&r, governor, MINI, G_N_ELEMENTS(MINI), 3 * MS, CHOICES,
			 G_N_ELEMENTS(CHOICES));
	script_run_finish(&r, &s);
	assert_int_equal(s.kernel_above_below, kernel_counts);
	assert_int_equal(s.states[0].usage, 0);
	assert_int_equal(s.states[1].usage, 3);
	assert_int_equal(s.states[2].usage, 2);
	assert_int_equal(s.states[1].time_ns, (1002 + 5 + 505) * US);
	assert_int_equal(s.states[2].time_ns, (200 + 700) * US);
	assert_int_equal(s.states[2].above, 1);
	assert_int_equal(s.states[1].above + s.states[0].above, 0);
	assert_int_equal(s.states[1].below, 2);
	assert_int_equal(s.states[2].below + s.states[0].below, 0);
	assert_int_equal(s.states[0].optimal, 1);
	assert_int_equal(s.states[1].optimal, 1);
	assert_int_equal(s.states[2].optimal, 3);
	assert_int_equal(s.scored, 5);
	assert_int_equal(s.agree, 1);
	assert_int_equal(s.too_deep, 2);
	assert_int_equal(s.too_shallow, 2);
	assert_int_equal(s.event_wakeups, 5);
	assert_int_equal(s.states[1].event_wakeups, 3);
	assert_int_equal(s.states[2].event_wakeups, 2);
	assert_int_equal(s.needless_stops, 5);
	assert_int_equal(s.missed_stops, 0);
	assert_int_equal(s.states[1].idle_ns, 1506 * US);
	assert_int_equal(s.states[2].idle_ns, 700 * US);
	assert_int_equal(s.exit_ns, 206 * US);
	assert_int_equal(s.states[0].opt_idle_ns, 3 * US);
	assert_int_equal(s.states[1].opt_idle_ns, 100 * US);
	assert_int_equal(s.states[2].opt_idle_ns, 2103 * US);
	assert_int_equal(s.opt_exit_ns, 302 * US);
	assert_int_equal(s.busy_ns, 50 * US);
}

/* The 6.1 core's own above/below counters. */
static void test_mini_trace_6x(void **state)
{
	(void)state;
	check_mini("script-6.1", true);
}

/* The 4.20 core kept none: teosim's count with the 6.x definitions must match. */
static void test_mini_trace_420(void **state)
{
	(void)state;
	check_mini("script-4.20", false);
}

/*
 * The derived figures of the same score.  Wake latency: mean (3 * 2 + 2 *
 * 100) / 5 = 41.2 us; p99 is the 5th of 5 (nearest rank), 100 us.  Energy
 * in mJ = mW * ns / 1e9: C1 500 * 1506000 + C6 100 * 700000 + busy 1000 *
 * (50000 + 206000) = 1079000000 -> 1.079; hindsight: 1000 * 3000 + 500 *
 * 100000 + 100 * 2103000 + 1000 * (50000 + 302000) = 615300000 -> 0.6153;
 * ratio 1.7536.  above 1 / 5 = 20%, below 2 / 5 = 40%, optimal 1 / 5.
 */
static void test_mini_trace_metrics(void **state)
{
	struct metric_value v[METRICS_MAX];
	struct script_run r;
	struct cpu_score s;
	const char *want[] = {
		"5", "20.00", "40.00", "20.00", "2", "2", "1.079", "1.7536", "41.200", "100.000",
		"5", "0", "0", "0", "5", "0", "0",
	};

	(void)state;
	script_run_start(&r, "script-6.1", MINI, G_N_ELEMENTS(MINI), 3 * MS, CHOICES,
			 G_N_ELEMENTS(CHOICES));
	script_run_finish(&r, &s);
	metrics_compute(&r.platform, &s, v);
	assert_int_equal(summary_metric_count, G_N_ELEMENTS(want));
	for (unsigned int m = 0; m < summary_metric_count; m++)
		assert_string_equal(v[m].text, want[m]);
}

/* Hindsight: fit, latency limit, and a disabled state. */
static int hindsight(const struct platform *p, int32_t latency_limit_us, uint64_t idle_ns)
{
	struct idle_scorer *s;
	int state;

	kshim_registry_init();
	s = idle_scorer_new(p, latency_limit_us, kshim_governor_find("menu-6.1"));
	state = idle_scorer_hindsight(s, idle_ns);

	idle_scorer_free(s);
	return state;
}

static void test_hindsight_state(void **state)
{
	struct platform p;

	(void)state;
	test_platform(&p);
	assert_int_equal(hindsight(&p, INT32_MAX, 4 * US), 0);
	assert_int_equal(hindsight(&p, INT32_MAX, 5 * US), 1);
	assert_int_equal(hindsight(&p, INT32_MAX, 499 * US), 1);
	assert_int_equal(hindsight(&p, INT32_MAX, 500 * US), 2);
	assert_int_equal(hindsight(&p, 99, 10 * MS), 1);
	assert_int_equal(hindsight(&p, 100, 10 * MS), 2);
	assert_int_equal(hindsight(&p, 0, 10 * MS), 0);
	p.states[2].desc.disabled = true;
	assert_int_equal(hindsight(&p, INT32_MAX, 10 * MS), 1);
}

/*
 * A CPU idle through a long stretch with the tick kept: periods are
 * settled as soon as their outcome is certain, so few wait at any time.
 */
static void test_long_stretch_settles_early(void **state)
{
	const struct trace_event ev[] = { ev_irq(400 * MS, 0) };
	const struct script_step keep[] = { { 1, false } };
	struct script_run r;
	struct cpu_score s;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 1, 401 * MS, keep, 1);
	script_run_finish(&r, &s);
	/* Ticks at 4, 8, ..., 396 ms wake it, then the interrupt at 400 ms. */
	assert_int_equal(s.tick_wakeups, 99);
	assert_int_equal(s.event_wakeups, 1);
	assert_int_equal(s.scored, 100);
	assert_int_equal(s.too_shallow, 100);
	assert_int_equal(s.missed_stops, 99);
	assert_int_equal(s.states[2].opt_idle_ns, 400 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mini_trace_6x),
		cmocka_unit_test(test_mini_trace_420),
		cmocka_unit_test(test_mini_trace_metrics),
		cmocka_unit_test(test_hindsight_state),
		cmocka_unit_test(test_long_stretch_settles_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

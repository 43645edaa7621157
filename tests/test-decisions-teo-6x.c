// SPDX-License-Identifier: GPL-2.0
/*
 * teo-6.1 and teo-6.12 decisions, derived by hand from each source.
 * Platform: SKX with POLL (residencies 0, 2, 20, 600 us; exit latencies
 * 0, 2, 10, 133 us), HZ 250 (TICK_NSEC 4 ms), no latency limit.
 *
 * Both start from zeroed per-CPU data and a zeroed device, so
 * dev->last_state_idx is 0 and the first select runs teo_update() on
 * zeroes: time_span 0 >= sleep_length 0 counts as a timer wakeup matching
 * POLL, so bin 0 gets hits = PULSE (1024) and total = 1024.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>

#include <cmocka.h>

#include "replay-helpers.h"

/* Select 1, timer 10 ms away, then a wakeup after 50 us in C6 and select 2. */
static char *early_wakeup_log(void)
{
	struct calls c;

	calls_begin(&c, 250, 1, skx_states, 4);
	calls_select(&c, 0, 1 * MS, 10 * MS, 4 * MS);
	calls_reflect(&c, 0, 1 * MS + 50 * US, 3, 50 * US, false);
	calls_select(&c, 0, 2 * MS, 10 * MS, 4 * MS);
	return calls_end(&c);
}

/*
 * Select 1 (both): the sums over bins below C6 hold only bin 0's hits
 * (1024); intercepts 0, so "2 * 0 > total - idx_hit_sum = 0" is false:
 * C6, and 10 ms >= TICK_NSEC lets the tick stop.
 *
 * Select 2, teo-6.1: teo_update(): 50 us measured (last_residency_ns) is
 * below C6's exit latency, so halved: 25 us, which matches C1E (20 <= 25 <
 * 600) while the timer matched C6: an intercept in bin 2 (intercepts 1024,
 * recent 1); bin 0's hits decay to 896; total = 896 + 1024 = 1920.  At C6
 * the sums are intercepts 1024, hits 896: 2 * 1024 > 1920 - 896, so
 * alt_intercepts.  Walking down, bin 2 alone gives 2 * 1024 > 1024: C1E,
 * with duration the middle of bin 2, (20 + 600) / 2 = 310 us < TICK_NSEC:
 * the tick is kept, and C1E's 20 us fits the 4 ms to the tick.
 */
static void test_teo_6_1_intercepts(void **state)
{
	g_autofree char *text = early_wakeup_log();
	g_autoptr(GArray) d = replay_decisions("teo-6.1", text);

	(void)state;
	expect_decision(d, 1, 3, true);
	expect_decision(d, 2, 2, false);
}

/*
 * Select 2, teo-6.12: the same intercept lands in bin 2 (the timer is past
 * the tick, so idx_timer becomes state_count, and 25 us < TICK_NSEC is no
 * tick hit); total 1920.  The same sums select C1E.  Then 6.12 asks for
 * the sleep length (10 ms) as duration: C1E fits; tick_intercept_sum 1024
 * is not above 1920/2 + 1920/8 = 1200, so the duration stays 10 ms >=
 * TICK_NSEC and the tick may stop.  6.1 and 6.12 part on stop_tick.
 */
static void test_teo_6_12_intercepts(void **state)
{
	g_autofree char *text = early_wakeup_log();
	g_autoptr(GArray) d = replay_decisions("teo-6.12", text);

	(void)state;
	expect_decision(d, 1, 3, true);
	expect_decision(d, 2, 2, true);
}

/*
 * teo-6.12 decides without the sleep length when the candidate is shallow:
 * with POLL and C1 only, idx is C1, POLL is polling and C1's 2 us is under
 * RESIDENCY_THRESHOLD_NS (15 us): out_tick, the tick kept, C1.  The log
 * records no sleep length, which teo-6.1 (which always asks) refuses.
 */
static char *shallow_log(void)
{
	struct calllog_select s = { .cpu = 0, .clock_ns = 1 * MS, .qos_us = QOS_NONE };
	struct calls c;

	calls_begin(&c, 250, 1, skx_states, 2);
	calls_select_full(&c, &s);
	return calls_end(&c);
}

static void test_teo_6_12_shallow_without_sleep_length(void **state)
{
	g_autofree char *text = shallow_log();
	g_autoptr(GArray) d = replay_decisions("teo-6.12", text);

	(void)state;
	expect_decision(d, 1, 1, false);
}

static void test_teo_6_1_asks_for_sleep_length(void **state)
{
	g_autofree char *text = shallow_log();
	g_autofree char *message = replay_failure("teo-6.1", text);

	(void)state;
	assert_non_null(strstr(message, ":6: sleep_ns: teo-6.1 asked for the sleep length"));
}

/*
 * teo-6.1 with the tick stopped and a 2 ms timer: C6 fits (600 us <=
 * 2 ms), no intercepts, and "... && !tick_nohz_tick_stopped()" skips the
 * tick handling although 2 ms < TICK_NSEC: C6, stop_tick left true.
 */
static void test_teo_6_1_tick_stopped(void **state)
{
	struct calllog_select s = { .clock_ns = 1 * MS, .has_sleep = true, .sleep_ns = 2 * MS,
				    .tick_ns = 300 * US, .qos_us = QOS_NONE, .tick_stopped = true };
	g_autoptr(GArray) d = replay_one_select("teo-6.1", skx_states, 4, &s);

	(void)state;
	expect_decision(d, 1, 3, true);
}

/*
 * teo-6.1 with a 50 us latency limit: constraint_idx stops at C1E (C6's
 * 133 us exit latency is over the limit) and caps idx there; the duration
 * is still the 10 ms sleep length, so the tick may stop.
 */
static void test_teo_6_1_latency_limit(void **state)
{
	struct calllog_select s = { .clock_ns = 1 * MS, .has_sleep = true, .sleep_ns = 10 * MS,
				    .tick_ns = 4 * MS, .qos_us = 50 };
	g_autoptr(GArray) d = replay_one_select("teo-6.1", skx_states, 4, &s);

	(void)state;
	expect_decision(d, 1, 2, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_teo_6_1_intercepts),
		cmocka_unit_test(test_teo_6_12_intercepts),
		cmocka_unit_test(test_teo_6_12_shallow_without_sleep_length),
		cmocka_unit_test(test_teo_6_1_asks_for_sleep_length),
		cmocka_unit_test(test_teo_6_1_tick_stopped),
		cmocka_unit_test(test_teo_6_1_latency_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

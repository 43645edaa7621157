// SPDX-License-Identifier: GPL-2.0
/*
 * ladder decisions (6.1 and 6.12 share the algorithm), derived by hand.
 * Platform: SKX with POLL (exit latencies 0, 2, 10, 133 us).
 *
 * ladder_enable_device(): POLL is polling, so the ladder starts at C1
 * (first_idx 1, dev->last_state_idx 1).  Promotion from C1 needs 4
 * residencies above C1's exit latency (2 us); demotion from C1E needs one
 * residency below C1E's exit latency (10 us).  Residency here is
 * last_residency_ns minus the exit latency of the state it was spent in.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>

#include <cmocka.h>

#include "replay-helpers.h"

/*
 * The residency compared is an s64, but the thresholds are u64: the
 * comparison is unsigned, so a negative residency (wakeup before the exit
 * latency passed) compares as huge.
 *
 * Select 1: last_residency_ns 0 - 2 us is negative, hence "long": promotion
 * count 1.  Selects 2 and 3 follow 100 us in C1 (98 us > 2 us): counts 2
 * and 3, C1.  Select 4: count 4 reaches PROMOTION_COUNT: C1E.  Select 5
 * follows 15 us in C1E: 15 - 10 = 5 us is below C1E's 10 us demotion time,
 * and one demotion is enough: C1.  ladder never clears stop_tick.
 */
static void check_promotion_and_demotion(const char *governor)
{
	static const uint64_t residency_us[] = { 100, 100, 100, 15 };
	g_autofree char *text = NULL;
	g_autoptr(GArray) d = NULL;
	uint64_t t = 1 * MS;
	struct calls c;

	calls_begin(&c, 250, 1, skx_states, 4);
	for (int i = 0; i < 4; i++) {
		calls_select(&c, 0, t, 10 * MS, 4 * MS);
		calls_reflect(&c, 0, t + residency_us[i] * US, i == 3 ? 2 : 1,
			      residency_us[i] * US, false);
		t += 1 * MS;
	}
	calls_select(&c, 0, t, 10 * MS, 4 * MS);
	text = calls_end(&c);
	d = replay_decisions(governor, text);
	for (unsigned int n = 1; n <= 3; n++)
		expect_decision(d, n, 1, true);
	expect_decision(d, 4, 2, true);
	expect_decision(d, 5, 1, true);
}

/*
 * The same unsigned comparison the other way: wakeups 5 us into C1E
 * (5 - 10 us, negative) never demote; they count as promotions.  After
 * reaching C1E at select 4 (as above), selects 5-7 stay at C1E with
 * promotion counts 1-3, and select 8 goes deeper, to C6.
 */
static void check_too_short_residency_promotes(const char *governor)
{
	g_autofree char *text = NULL;
	g_autoptr(GArray) d = NULL;
	uint64_t t = 1 * MS;
	struct calls c;

	calls_begin(&c, 250, 1, skx_states, 4);
	for (int i = 1; i <= 7; i++) {
		uint64_t residency = i <= 3 ? 100 * US : 5 * US;

		calls_select(&c, 0, t, 10 * MS, 4 * MS);
		calls_reflect(&c, 0, t + residency, i <= 3 ? 1 : 2, residency, false);
		t += 1 * MS;
	}
	calls_select(&c, 0, t, 10 * MS, 4 * MS);
	text = calls_end(&c);
	d = replay_decisions(governor, text);
	for (unsigned int n = 4; n <= 7; n++)
		expect_decision(d, n, 2, true);
	expect_decision(d, 8, 3, true);
}

static void test_ladder_6_1(void **state)
{
	(void)state;
	check_promotion_and_demotion("ladder-6.1");
	check_too_short_residency_promotes("ladder-6.1");
}

static void test_ladder_6_12(void **state)
{
	(void)state;
	check_promotion_and_demotion("ladder-6.12");
	check_too_short_residency_promotes("ladder-6.12");
}

/* A latency limit of 0 sends ladder straight to state 0. */
static void test_ladder_zero_latency_limit(void **state)
{
	struct calllog_select s = { .clock_ns = 1 * MS, .has_sleep = true, .sleep_ns = 10 * MS,
				    .tick_ns = 4 * MS, .qos_us = 0 };
	g_autoptr(GArray) d = replay_one_select("ladder-6.1", skx_states, 4, &s);

	(void)state;
	expect_decision(d, 1, 0, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ladder_6_1),
		cmocka_unit_test(test_ladder_6_12),
		cmocka_unit_test(test_ladder_zero_latency_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * menu-6.1 and menu-6.12 decisions, derived by hand from each source.
 * Platform: SKX with POLL (residencies 0, 2, 20, 600 us; exit latencies
 * 0, 2, 10, 133 us), HZ 250 (TICK_NSEC 4 ms), no latency limit.
 *
 * menu_enable_device() zeroes the intervals and sets every correction
 * factor to RESOLUTION * DECAY (8192).  The first select has no update
 * pending and last_residency_ns 0, so it stores UINT_MAX in intervals[0].
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>

#include <cmocka.h>

#include "replay-helpers.h"

/*
 * n selects with a timer 10 ms away, each followed by a wakeup after
 * residency_ns in state entered.  With no_sleep_at, that select records
 * no sleep length.
 */
static char *repeated_log(unsigned int n, uint64_t residency_ns, int entered,
			  unsigned int no_sleep_at)
{
	uint64_t t = 1 * MS;
	struct calls c;

	calls_begin(&c, 250, 1, skx_states, 4);
	for (unsigned int i = 1; i <= n; i++) {
		struct calllog_select s = { .clock_ns = t, .has_sleep = i != no_sleep_at,
					    .sleep_ns = 10 * MS, .tick_ns = 4 * MS,
					    .qos_us = QOS_NONE };

		calls_select_full(&c, &s);
		calls_reflect(&c, 0, t + residency_ns, entered, residency_ns, false);
		t += 11 * MS;
	}
	return calls_end(&c);
}

/*
 * Timer wakeups after 10 ms in C6.  Each update measures 10 ms - 133 us =
 * 9867 us and stores 9867 in the next interval slot (slot 1 at select 2,
 * ..., slot 7 at select 8, slot 0 at select 9).
 *
 * menu-6.1, select 1: intervals UINT_MAX, then seven zeros.  The first
 * pass drops UINT_MAX (> INT_MAX): seven zeros, avg 0, variance 0 <= 400:
 * typical interval 0, so predicted 0 ns; the interactivity limit becomes
 * 0 ns, and POLL is the only state within it: POLL, tick kept (polling).
 * Select 2: 9867 and six zeros: avg 1409, variance 11921350 is neither
 * small nor small against avg^2; 7 of 8 values are not <= 3/4 of them,
 * so the outlier 9867 goes: six zeros, 0 again: POLL.
 * Select 8: seven values 9867 (UINT_MAX dropped): variance 0, typical 9867
 * us, below the corrected timer (the factor, decayed 7 times from 8192
 * towards 1010 * 8, is 8126: 9919 us), so 9867 us: C6 (600 us, latency
 * fine), 9867 us >= TICK_NSEC, the tick may stop.
 */
static void test_menu_6_1_learns_the_interval(void **state)
{
	g_autofree char *text = repeated_log(9, 10 * MS, 3, 0);
	g_autoptr(GArray) d = replay_decisions("menu-6.1", text);

	(void)state;
	expect_decision(d, 1, 0, false);
	expect_decision(d, 2, 0, false);
	expect_decision(d, 8, 3, true);
	expect_decision(d, 9, 3, true);
}

/*
 * menu-6.12, select 1: the intervals' maximum is 0 ("!max"), so the typical
 * interval is UINT_MAX us: above the 15 us threshold, so menu asks for the
 * sleep length, 10 ms, and predicts 10000 us (factor 8192): C6, tick
 * stopped.  6.1 and 6.12 part on the very first decision.
 */
static void test_menu_6_12_first_select(void **state)
{
	g_autofree char *text = repeated_log(1, 10 * MS, 3, 0);
	g_autoptr(GArray) d = replay_decisions("menu-6.12", text);

	(void)state;
	expect_decision(d, 1, 3, true);
}

/*
 * Short wakeups: 5 us in C1 each time; measured 5000 ns > 2 * 2000, so
 * 5000 - 2000 = 3000 ns: 3 us stored each time.  At select 9 all eight
 * intervals are 3: typical 3 us.  menu-6.12 then does not ask for the
 * sleep length (3000 ns <= RESIDENCY_THRESHOLD_NS, tick running): next
 * timer "distant", delta_tick TICK_NSEC / 2.  C1 (2 us <= 3 us) is
 * chosen, C1E's 20 us is too long and 3 us < TICK_NSEC: C1, tick kept.
 * The log records no sleep length at select 9; menu-6.1, which always
 * asks, refuses it.
 */
static void test_menu_6_12_short_intervals_skip_sleep_length(void **state)
{
	g_autofree char *text = repeated_log(9, 5 * US, 1, 9);
	g_autoptr(GArray) d = replay_decisions("menu-6.12", text);
	g_autofree char *message = replay_failure("menu-6.1", text);

	(void)state;
	expect_decision(d, 9, 1, false);
	assert_non_null(strstr(message, "sleep_ns: menu-6.1 asked for the sleep length"));
}

/*
 * menu-6.1 on the same short wakeups, with the sleep length recorded:
 * typical 3 us; the interactivity limit 3000 ns / 1 caps the exit latency
 * at 3 us: POLL then C1 (2 us, 2 us) fit, C1E's 20 us residency exceeds
 * the prediction and 3 us < TICK_NSEC: C1, tick kept.
 */
static void test_menu_6_1_short_intervals(void **state)
{
	g_autofree char *text = repeated_log(9, 5 * US, 1, 0);
	g_autoptr(GArray) d = replay_decisions("menu-6.1", text);

	(void)state;
	expect_decision(d, 9, 1, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_menu_6_1_learns_the_interval),
		cmocka_unit_test(test_menu_6_12_first_select),
		cmocka_unit_test(test_menu_6_12_short_intervals_skip_sleep_length),
		cmocka_unit_test(test_menu_6_1_short_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

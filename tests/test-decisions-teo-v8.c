// SPDX-License-Identifier: GPL-2.0
/*
 * teo-v8 decisions, each expected value derived by hand from the v8 source
 * (the steps are in the comments).  Platform: SKX with POLL (skx_states:
 * target residencies 0, 2, 20, 600 us; exit latencies 0, 2, 10, 133 us),
 * HZ 250 so TICK_USEC = 4000.  No latency limit unless stated.
 *
 * One fact matters everywhere: teo_enable_device() zeroes the CPU's data,
 * so last_state is 0 and the first select runs teo_update() on zeroes
 * (time_span 0 >= sleep_length 0: a "timer" wakeup, hits[0] += PULSE,
 * intervals[0] = UINT_MAX).  No state but POLL has early hits then.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>

#include <cmocka.h>

#include "replay-helpers.h"

#define expect expect_decision

/* One select on a fresh CPU, with the given inputs. */
static GArray *one_select(const struct calllog_select *s)
{
	return replay_one_select("teo-v8", skx_states, 4, s);
}

/*
 * Timer 10 ms away: every state's residency fits (600 <= 10000), no early
 * hits, the intervals are all UINT_MAX, so C6; 10000 us >= TICK_USEC, so
 * the tick may stop.
 */
static void test_far_timer_deepest_state(void **state)
{
	struct calllog_select s = { .has_sleep = true, .sleep_ns = 10 * MS,
				    .tick_ns = 4 * MS, .qos_us = QOS_NONE };
	g_autoptr(GArray) d = one_select(&s);

	(void)state;
	expect(d, 1, 3, true);
}

/*
 * Timer 1 ms away, before the next tick: C6 still fits (600 <= 1000), but
 * 1000 us < TICK_USEC keeps the tick; the tick is 1000 us away and C6's
 * 600 us fits within it, so C6 stays.
 */
static void test_near_timer_keeps_tick(void **state)
{
	struct calllog_select s = { .has_sleep = true, .sleep_ns = 1 * MS,
				    .tick_ns = 1 * MS, .qos_us = QOS_NONE };
	g_autoptr(GArray) d = one_select(&s);

	(void)state;
	expect(d, 1, 3, false);
}

/*
 * Timer 2 ms away (C6 fits, but 2000 < TICK_USEC keeps the tick) and the
 * next tick 300 us away: C6's 600 us exceeds the time to the tick, so
 * teo_find_shallower_state(3, 300) walks down to C1E (20 <= 300).
 */
static void test_kept_tick_limits_state(void **state)
{
	struct calllog_select s = { .has_sleep = true, .sleep_ns = 2 * MS,
				    .tick_ns = 300 * US, .qos_us = QOS_NONE };
	g_autoptr(GArray) d = one_select(&s);

	(void)state;
	expect(d, 1, 2, false);
}

/*
 * Latency limit 50 us: C6's exit latency 133 > 50 breaks the loop at i=3
 * with idx = C1E, and duration_us becomes C1E's residency, 20 us; 20 <
 * TICK_USEC keeps the tick; C1E's 20 us fits the 4 ms to the tick.
 */
static void test_latency_limit(void **state)
{
	struct calllog_select s = { .has_sleep = true, .sleep_ns = 10 * MS,
				    .tick_ns = 4 * MS, .qos_us = 50 };
	g_autoptr(GArray) d = one_select(&s);

	(void)state;
	expect(d, 1, 2, false);
}

/*
 * C6 disabled by the user: the loop skips it (max_early_idx is -1, so no
 * count change) and ends with C1E; duration stays 10000 us, the tick may
 * stop.
 */
static void test_disabled_state_skipped(void **state)
{
	struct calllog_select s = { .has_sleep = true, .sleep_ns = 10 * MS,
				    .tick_ns = 4 * MS, .qos_us = QOS_NONE,
				    .disable_mask = 1u << 3 };
	g_autoptr(GArray) d = one_select(&s);

	(void)state;
	expect(d, 1, 2, true);
}

/* The same with C6 disabled by the driver (4.20's drv->states[i].disabled). */
static void test_driver_disabled_state_skipped(void **state)
{
	struct calllog_select s = { .clock_ns = 1 * MS, .has_sleep = true, .sleep_ns = 10 * MS,
				    .tick_ns = 4 * MS, .qos_us = QOS_NONE };
	struct kshim_state_desc states[4];
	g_autoptr(GArray) d = NULL;

	(void)state;
	memcpy(states, skx_states, sizeof(states));
	states[3].disabled = true;
	d = replay_one_select("teo-v8", states, 4, &s);
	expect(d, 1, 2, true);
}

/*
 * Timer 2 ms away with the tick already stopped: C6 as in the kept-tick
 * case, but "&& !tick_nohz_tick_stopped()" skips the tick handling, so
 * stop_tick stays true.
 */
static void test_tick_already_stopped(void **state)
{
	struct calllog_select s = { .has_sleep = true, .sleep_ns = 2 * MS,
				    .tick_ns = 300 * US, .qos_us = QOS_NONE,
				    .tick_stopped = true };
	g_autoptr(GArray) d = one_select(&s);

	(void)state;
	expect(d, 1, 3, true);
}

/*
 * The early-hits switch.  Select 1 picks C6 (as above).  The CPU wakes
 * 60 us later although the timer was 10 ms away: teo_reflect() sets
 * time_span = 60000 ns.  At select 2, teo_update(): 60000 < sleep length,
 * measured = 60 us < C6's exit latency 133, so measured = 30; the timer
 * matches C6 (idx_timer 3) but 30 us matches C1E (idx_hit 2): misses[3]
 * = 1024, early_hits[2] = 1024.  The select loop then finds count 1024 at
 * C1E (max_early_idx 2); C6 has hits 0 <= misses 1024, so idx = C1E and
 * duration = 20 us.  The intervals hold no value below 20 (UINT_MAX and
 * 30), so no refinement; 20 < TICK_USEC keeps the tick; C1E fits the 4 ms
 * to the tick.
 */
static void test_early_hits_switch(void **state)
{
	g_autofree char *text = NULL;
	g_autoptr(GArray) d = NULL;
	struct calls c;

	(void)state;
	calls_begin(&c, 250, 1, skx_states, 4);
	calls_select(&c, 0, 1 * MS, 10 * MS, 4 * MS);
	calls_reflect(&c, 0, 1 * MS + 60 * US, 3, 60 * US, false);
	calls_select(&c, 0, 1 * MS + 100 * US, 10 * MS, 4 * MS);
	text = calls_end(&c);
	d = replay_decisions("teo-v8", text);
	expect(d, 1, 3, true);
	expect(d, 2, 2, false);
}

/*
 * Refinement from recent intervals, and v8's ring of intervals.
 *
 * Selects 1-30: timer 10 ms away, and the CPU sleeps the full 10 ms in C6
 * (time_span == sleep length: a timer wakeup).  Updates 2-31 each add a
 * hit to C6 (hits[3] climbs towards 8192; misses[3] stays 0) and store
 * UINT_MAX.  Selects 31-34: timer only 300 us away (so idx_timer is C1E
 * and the misses go to C1E, not C6), and the CPU wakes after 12 us:
 * measured = 12 - exit/2 = 7 us after C1E (reflect 31), 11 us after C1
 * (reflects 32-34).  Selects 35-37: timer 10 ms away again; the CPU wakes
 * after 12 us in C6 (12 < 133, so measured = 12 / 2 = 6).
 *
 * Update u (at select u, for reflect u-1) writes intervals[(u - 1) % 9]:
 * teo_update() resets the index only once it exceeds INTERVALS, so index
 * 8 is written, one past the array, and never read.  The short values:
 * reflects 31-34 at indices 4-7, reflect 35 at index 8 (lost), reflect 36
 * at index 0.
 *
 *   select 35: four in-bounds intervals below C6's 600 us; 4 is not > 4,
 *              no refinement: C6, tick stopped.
 *   select 36: still four (the fifth went to index 8): C6, tick stopped.
 *              An 8-slot ring would have refined here.
 *   select 37: five: 7 + 11 + 11 + 11 + 6 = 46, avg 9 us;
 *              teo_find_shallower_state(3, 9) gives C1 (20 > 9, 2 <= 9),
 *              and 9 < TICK_USEC keeps the tick.
 *
 * The early-hits switch plays no part: C6's hits (near 8192, decayed
 * twice) exceed its misses (1920 after reflects 35 and 36).
 */
static void test_refinement_and_interval_ring(void **state)
{
	g_autofree char *text = NULL;
	g_autoptr(GArray) d = NULL;
	uint64_t t = 1 * MS;
	struct calls c;
	int n;

	(void)state;
	calls_begin(&c, 250, 1, skx_states, 4);
	for (n = 1; n <= 30; n++) {
		calls_select(&c, 0, t, 10 * MS, 4 * MS);
		calls_reflect(&c, 0, t + 10 * MS, 3, 10 * MS, false);
		t += 11 * MS;
	}
	for (n = 31; n <= 34; n++) {
		calls_select(&c, 0, t, 300 * US, 300 * US);
		calls_reflect(&c, 0, t + 12 * US, n == 31 ? 2 : 1, 12 * US, false);
		t += 1 * MS;
	}
	for (n = 35; n <= 37; n++) {
		calls_select(&c, 0, t, 10 * MS, 4 * MS);
		calls_reflect(&c, 0, t + 12 * US, 3, 12 * US, false);
		t += 1 * MS;
	}
	text = calls_end(&c);
	d = replay_decisions("teo-v8", text);
	expect(d, 2, 3, true);
	expect(d, 30, 3, true);
	expect(d, 35, 3, true);
	expect(d, 36, 3, true);
	expect(d, 37, 1, false);
}

/*
 * A wakeup by the tick when the timer was more than a tick away counts as
 * a timer wakeup (time_span = sleep_length) whatever the clock says: after
 * it, no early hit exists and select 2 picks C6 again, although the clock
 * shows only 60 us of idle (which, as in test_early_hits_switch, would
 * have switched to C1E).
 */
static void test_tick_wakeup_counts_as_timer(void **state)
{
	g_autofree char *text = NULL;
	g_autoptr(GArray) d = NULL;
	struct calls c;

	(void)state;
	calls_begin(&c, 250, 1, skx_states, 4);
	calls_select(&c, 0, 1 * MS, 10 * MS, 4 * MS);
	calls_reflect(&c, 0, 1 * MS + 60 * US, 3, 60 * US, true);
	calls_select(&c, 0, 1 * MS + 100 * US, 10 * MS, 4 * MS);
	text = calls_end(&c);
	d = replay_decisions("teo-v8", text);
	expect(d, 2, 3, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_far_timer_deepest_state),
		cmocka_unit_test(test_near_timer_keeps_tick),
		cmocka_unit_test(test_kept_tick_limits_state),
		cmocka_unit_test(test_latency_limit),
		cmocka_unit_test(test_disabled_state_skipped),
		cmocka_unit_test(test_driver_disabled_state_skipped),
		cmocka_unit_test(test_tick_already_stopped),
		cmocka_unit_test(test_early_hits_switch),
		cmocka_unit_test(test_refinement_and_interval_ring),
		cmocka_unit_test(test_tick_wakeup_counts_as_timer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

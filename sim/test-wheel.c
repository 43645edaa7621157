// SPDX-License-Identifier: GPL-2.0
/*
 * Timer-wheel timers in the idle loop, one CPU, with the scripted
 * governor.  The expected values follow tick_nohz_next_event() and
 * tick_nohz_get_sleep_length() by hand.  Platform and times: test-sim.h
 * (HZ 250, tick boundaries every 4 ms from 0; C6 exit 100 us; no timer
 * latency, select lead or tick work).
 */
#include <kshim/registry.h>

#include "test-sim.h"

static const struct script_step C6_STOP[] = { { 2, true } };

/*
 * A wheel timer at the 12 ms boundary and an hrtimer at 30 ms.  At 0 the
 * sleep length is the wheel timer's 12 ms, delta_next the running tick's
 * 4 ms; the wheel timer is two boundaries away, so the tick stops, and its
 * hrtimer is programmed for 12 ms: the CPU wakes there, with got_tick, and
 * the tick's softirq expires the wheel timer.  No work: at 12.1 ms the
 * tick is still stopped and the sleep length runs to the hrtimer, 17.9
 * ms, which wakes the CPU without the tick.
 */
static void test_stopped_tick_wakes_for_wheel_timer(void **state)
{
	const struct trace_event ev[] = { ev_wheel(0, 1, 12 * MS), ev_timer(0, 2, 30 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 40 * MS, C6_STOP, 1);
	assert_int_equal(script.selects, 3);
	assert_int_equal(script.selected[0].sleep_length_ns, 12 * MS);
	assert_int_equal(script.selected[0].delta_next_ns, 4 * MS);
	assert_int_equal(script.reflected[0].clock_ns, 12100 * US);
	assert_true(script.reflected[0].got_tick);
	assert_true(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].sleep_length_ns, 17900 * US);
	assert_int_equal(script.selected[1].delta_next_ns, 17900 * US);
	assert_int_equal(script.reflected[1].clock_ns, 30100 * US);
	assert_false(script.reflected[1].got_tick);
	assert_int_equal(script.selected[2].sleep_length_ns, INT64_MAX - 30100 * (int64_t)US);
	script_run_finish(&r, NULL);
}

/*
 * The same wheel timer cancelled at 1 ms, while the CPU sleeps, with
 * another due at 20 ms: del_timer() leaves the stopped tick's hrtimer as it
 * was, so the CPU still wakes at 12 ms; that tick expires nothing, and the
 * next select is told the 20 ms timer, 7.9 ms away.  The CPU wakes for it
 * by the tick, then for the hrtimer at 30 ms.
 */
static void test_cancel_leaves_stopped_tick_programmed(void **state)
{
	const struct trace_event ev[] = {
		ev_wheel(0, 1, 12 * MS), ev_wheel(0, 3, 20 * MS), ev_timer(0, 2, 30 * MS, 0, 0),
		ev_cancel(1 * MS, 1),
	};
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 4, 40 * MS, C6_STOP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 12100 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.selected[1].sleep_length_ns, 7900 * US);
	assert_int_equal(script.reflected[1].clock_ns, 20100 * US);
	assert_true(script.reflected[1].got_tick);
	assert_int_equal(script.selected[2].sleep_length_ns, 9900 * US);
	assert_int_equal(script.reflected[2].clock_ns, 30100 * US);
	script_run_finish(&r, NULL);
}

/*
 * A wheel timer due at the next boundary (4 ms) keeps the running tick
 * whatever the governor asks, and the sleep length is then delta_next, the
 * tick's 4 ms, not the hrtimer's 30.  The tick at 4 ms expires it: at
 * 4.1 ms the sleep length is the hrtimer's 25.9 ms, delta_next the next
 * tick's 3.9, and the tick stops.
 */
static void test_wheel_timer_within_a_tick_keeps_it(void **state)
{
	const struct trace_event ev[] = { ev_wheel(0, 1, 4 * MS), ev_timer(0, 2, 30 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 40 * MS, C6_STOP, 1);
	assert_int_equal(script.selected[0].sleep_length_ns, 4 * MS);
	assert_int_equal(script.selected[0].delta_next_ns, 4 * MS);
	assert_false(script.selected[1].tick_stopped);
	assert_int_equal(script.reflected[0].clock_ns, 4100 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.selected[1].sleep_length_ns, 25900 * US);
	assert_int_equal(script.selected[1].delta_next_ns, 3900 * US);
	assert_int_equal(script.reflected[1].clock_ns, 30100 * US);
	assert_true(script.selected[2].tick_stopped);
	script_run_finish(&r, NULL);
}

/*
 * The tick runs while the CPU works, and expires a wheel timer due then:
 * work from 0 to 10 ms passes the 8 ms boundary, so at 10 ms no wheel
 * timer is left, and with no hrtimer the sleep length is KTIME_MAX less
 * now and the tick stops.  (Were the timer still there, it would be
 * overdue and keep the tick, with a sleep length of 2 ms.)
 */
static void test_running_tick_expires_wheel_timer_during_work(void **state)
{
	const struct trace_event ev[] = { ev_wheel(0, 1, 8 * MS), ev_busy(0, 10 * MS) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 20 * MS, C6_STOP, 1);
	assert_int_equal(script.selected[0].clock_ns, 10 * MS);
	assert_int_equal(script.selected[0].sleep_length_ns, INT64_MAX - 10 * (int64_t)MS);
	/* Nothing wakes the CPU again: no wheel timer is left to program the stopped tick for. */
	assert_int_equal(script.reflects, 0);
	script_run_finish(&r, NULL);
}

/*
 * A wheel timer queued already due, with the tick stopped: an interrupt at
 * 9 ms wakes the CPU from C6, which takes the idle entry time anew at
 * 9.1 ms, and its handler alone (50 us, idle_loop) queues a timer for the
 * jiffy that has passed (expires_ns at its queueing, as the importer
 * writes it).  get_next_timer_interrupt() then answers basemono, the 8 ms
 * boundary of the jiffies update that came with the interrupt: the select
 * at 9.15 ms is told 8 - 9.1 = -1.1 ms (not the timer's 9 ms: -0.1 ms),
 * and the stopped
 * tick's hrtimer is armed for 8 ms, whose interrupt the tick record says
 * came at 11 ms (not at once).  The CPU polls to its 250 us limit seven
 * times, each select told the same, takes the tick's interrupt at 11 ms
 * (which expires the timer and renews the idle entry time) and polls on
 * to 11.15 ms, where the select is told the hrtimer's 30 - 11 = 19 ms.
 */
static void test_stopped_tick_armed_for_basemono(void **state)
{
	static const struct script_step steps[] = {
		{ 2, true }, { 0, true }, { 0, true }, { 0, true }, { 0, true },
		{ 0, true }, { 0, true }, { 0, true }, { 0, true }, { 2, true },
	};
	struct trace_event handler = ev_irq(9 * MS, 50 * US);
	struct trace_event ev[] = { ev_timer(0, 2, 30 * MS, 0, 0), ev_tick(8 * MS, 11 * MS),
				    handler, ev_wheel(9 * MS, 1, 9 * MS) };
	struct script_run r;

	(void)state;
	ev[2].idle_loop = true;
	script_run_start(&r, "script-6.1", ev, G_N_ELEMENTS(ev), 40 * MS, steps,
			 G_N_ELEMENTS(steps));
	assert_int_equal(script.selected[1].clock_ns, 9150 * US);
	assert_true(script.selected[1].tick_stopped);
	for (unsigned int k = 1; k <= 8; k++) {
		assert_int_equal(script.selected[k].clock_ns, 9150 * US + (k - 1) * 250 * US);
		assert_int_equal(script.selected[k].sleep_length_ns, -1100 * (int64_t)US);
	}
	assert_true(script.reflected[7].poll_time_limit);
	assert_false(script.reflected[7].got_tick);
	assert_true(script.reflected[8].got_tick);
	assert_int_equal(script.selected[9].clock_ns, 11150 * US);
	assert_int_equal(script.selected[9].sleep_length_ns, 19 * MS);
	script_run_finish(&r, NULL);
}

/* A wheel timer whose callback wakes a task that runs work ns. */
static struct trace_event wheel_with_work(uint64_t at, uint64_t id, uint64_t boundary,
					  uint64_t work)
{
	struct trace_event ev = ev_wheel(at, id, boundary);

	ev.work_ns = work;
	return ev;
}

/*
 * As test_stopped_tick_wakes_for_wheel_timer(), but the wheel timer's
 * callback wakes a task that runs 1 ms: the CPU leaves the idle loop at
 * the wakeup (12.1 ms), runs to 13.1 ms and restarts the tick.  The next
 * select, at 13.1 ms, is told the hrtimer's 16.9 ms and the restarted
 * tick's next boundary, 2.9 ms away, with the tick running.
 */
static void test_wheel_work_leaves_the_idle_loop(void **state)
{
	const struct trace_event ev[] = { wheel_with_work(0, 1, 12 * MS, 1 * MS),
					  ev_timer(0, 2, 30 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 40 * MS, C6_STOP, 1);
	assert_int_equal(script.selects, 3);
	assert_int_equal(script.reflected[0].clock_ns, 12100 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.selected[1].clock_ns, 13100 * US);
	assert_false(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].sleep_length_ns, 16900 * US);
	assert_int_equal(script.selected[1].delta_next_ns, 2900 * US);
	assert_int_equal(script.reflected[1].clock_ns, 30100 * US);
	script_run_finish(&r, NULL);
}

/*
 * The running tick wakes the CPU from C1 at 4 ms (a wheel timer due then
 * keeps it), and the timer's callback wakes a task of 500 us: the next
 * select comes at 4.002 ms (C1's exit) plus the work, 4.502 ms, told the
 * hrtimer's 25.498 ms.
 */
static void test_running_tick_wheel_work(void **state)
{
	static const struct script_step c1_keep[] = { { 1, false } };
	const struct trace_event ev[] = { wheel_with_work(0, 1, 4 * MS, 500 * US),
					  ev_timer(0, 2, 30 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 40 * MS, c1_keep, 1);
	assert_int_equal(script.reflected[0].clock_ns, 4002 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.selected[1].clock_ns, 4502 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 25498 * US);
	script_run_finish(&r, NULL);
}

/*
 * A polling CPU takes the tick and polls on, unless the tick runs a wheel
 * timer whose callback wakes a task: then poll_idle() stops.  Work to
 * 100 us, then polling periods of 250 us (the polling limit) from 100 us:
 * the sixteenth, from 3.85 ms, would poll on through the 4 ms tick to
 * 4.1 ms; the wheel timer due at 4 ms ends it there (POLL's exit is
 * free), and its 1 ms of work puts the next select at 5 ms.
 */
static void test_polling_stops_for_wheel_work(void **state)
{
	static const struct script_step poll_keep[] = { { 0, false } };
	const struct trace_event ev[] = { ev_busy(0, 100 * US),
					  wheel_with_work(0, 1, 4 * MS, 1 * MS) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 6 * MS, poll_keep, 1);
	assert_int_equal(script.selected[15].clock_ns, 3850 * US);
	assert_int_equal(script.reflected[15].clock_ns, 4 * MS);
	assert_true(script.reflected[15].got_tick);
	assert_int_equal(script.selected[16].clock_ns, 5 * MS);
	script_run_finish(&r, NULL);
}

/*
 * As test_running_tick_expires_wheel_timer_during_work(), with a callback
 * that wakes a task of 1 ms: it runs after the work, so the first select
 * comes at 11 ms.
 */
static void test_wheel_work_during_work(void **state)
{
	const struct trace_event ev[] = { wheel_with_work(0, 1, 8 * MS, 1 * MS),
					  ev_busy(0, 10 * MS) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 20 * MS, C6_STOP, 1);
	assert_int_equal(script.selected[0].clock_ns, 11 * MS);
	assert_int_equal(script.selected[0].sleep_length_ns, INT64_MAX - 11 * (int64_t)MS);
	script_run_finish(&r, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stopped_tick_wakes_for_wheel_timer),
		cmocka_unit_test(test_cancel_leaves_stopped_tick_programmed),
		cmocka_unit_test(test_wheel_timer_within_a_tick_keeps_it),
		cmocka_unit_test(test_running_tick_expires_wheel_timer_during_work),
		cmocka_unit_test(test_wheel_work_leaves_the_idle_loop),
		cmocka_unit_test(test_running_tick_wheel_work),
		cmocka_unit_test(test_polling_stops_for_wheel_work),
		cmocka_unit_test(test_wheel_work_during_work),
		cmocka_unit_test(test_stopped_tick_armed_for_basemono),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RCU's callbacks and the tick, one CPU, with the scripted governor.  The
 * expected values follow tick_nohz_next_event() by hand: while
 * rcu_needs_cpu(), the next event is the next tick.  Platform and times:
 * test-sim.h (HZ 250, tick boundaries every 4 ms from 0; C6 exit 100 us;
 * no timer latency, select lead or tick work).
 */
#include <kshim/registry.h>

#include "test-sim.h"

static const struct script_step C6_STOP[] = { { 2, true } };

static struct trace_event ev_rcu(uint64_t at, bool pending)
{
	return (struct trace_event){ .kind = TRACE_RCU, .at_ns = at, .rcu_pending = pending };
}

/*
 * Callbacks queued from 0 to 9 ms, an hrtimer at 30 ms.  At 0 the sleep
 * length is the tick's 4 ms, and the governor's stop is refused; so at 4.1
 * and 8.1 ms (C6's exit after each tick), each told the 3.9 ms to the next
 * tick.  The callbacks are done at 9 ms, so the select at 12.1 ms is told
 * the hrtimer's 17.9 ms and stops the tick.
 */
static void test_callbacks_keep_the_tick(void **state)
{
	const struct trace_event ev[] = { ev_rcu(0, true), ev_timer(0, 2, 30 * MS, 0, 0),
					  ev_rcu(9 * MS, false) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 3, 40 * MS, C6_STOP, 1);
	assert_int_equal(script.selected[0].sleep_length_ns, 4 * MS);
	assert_int_equal(script.selected[0].delta_next_ns, 4 * MS);
	assert_int_equal(script.selected[1].clock_ns, 4100 * US);
	assert_false(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].sleep_length_ns, 3900 * US);
	assert_int_equal(script.selected[2].clock_ns, 8100 * US);
	assert_int_equal(script.selected[2].sleep_length_ns, 3900 * US);
	assert_int_equal(script.selected[3].clock_ns, 12100 * US);
	assert_false(script.selected[3].tick_stopped);
	assert_int_equal(script.selected[3].sleep_length_ns, 17900 * US);
	assert_int_equal(script.reflected[3].clock_ns, 30100 * US);
	assert_true(script.selected[4].tick_stopped);
	script_run_finish(&r, NULL);
}

/*
 * The tick is stopped at 0 (the hrtimer at 30 ms is the next event).  An
 * interrupt at 5 ms queues callbacks and wakes no task: the CPU stays in
 * the idle loop with the tick stopped, and at 5.11 ms (exit and handler)
 * it is told the 2.9 ms from the interrupt's return to the next boundary,
 * for which the stopped tick is programmed: it wakes there, with
 * got_tick.  The callbacks are done by then, and the select at 8.1 ms is
 * told the hrtimer's 21.9 ms.
 */
static void test_callbacks_with_the_tick_stopped(void **state)
{
	struct trace_event irq = ev_irq(5 * MS, 10 * US);
	struct trace_event ev[] = { ev_timer(0, 2, 30 * MS, 0, 0), ev_rcu(5 * MS, true), irq,
				    ev_rcu(8 * MS, false) };
	struct script_run r;

	(void)state;
	ev[2].idle_loop = true;
	script_run_start(&r, "script-6.1", ev, 4, 40 * MS, C6_STOP, 1);
	assert_int_equal(script.selected[0].sleep_length_ns, 30 * MS);
	assert_int_equal(script.selected[1].clock_ns, 5110 * US);
	assert_true(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].sleep_length_ns, 2900 * US);
	assert_int_equal(script.reflected[1].clock_ns, 8100 * US);
	assert_true(script.reflected[1].got_tick);
	assert_int_equal(script.selected[2].sleep_length_ns, 21900 * US);
	script_run_finish(&r, NULL);
}

/*
 * A stopped tick's interrupt while the CPU polls fires once: its handler
 * does not re-arm it (the idle loop does, at the next select).  The tick
 * is stopped at 0; an interrupt at 7.7 ms queues callbacks and wakes no
 * task: C6's exit takes the CPU to 7.8 ms, the handler to 7.81 ms, where
 * the governor polls with the tick still stopped, programmed for the next
 * boundary, 8 ms, while the callbacks wait (told 200 us, from the
 * interrupt's return).  The tick's interrupt comes
 * at 8 ms as the CPU polls, and the polling limit (250 us) ends the
 * period at 8.06 ms, with got_tick; the next select finds the tick still
 * stopped.  (The model once re-armed the stopped tick for the same
 * boundary, over and over, and never left the period.)
 */
static void test_stopped_tick_while_polling(void **state)
{
	static const struct script_step steps[] = { { 2, true }, { 0, true }, { 2, true } };
	struct trace_event ev[] = { ev_timer(0, 2, 30 * MS, 0, 0), ev_rcu(7700 * US, true),
				    ev_irq(7700 * US, 10 * US), ev_rcu(9 * MS, false) };
	struct script_run r;

	(void)state;
	ev[2].idle_loop = true;
	script_run_start(&r, "script-6.1", ev, 4, 40 * MS, steps, 3);
	assert_int_equal(script.selected[1].clock_ns, 7810 * US);
	assert_true(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].delta_next_ns, 200 * US);
	assert_int_equal(script.reflected[1].state, 0);
	assert_int_equal(script.reflected[1].clock_ns, 8060 * US);
	assert_true(script.reflected[1].got_tick);
	assert_true(script.reflected[1].poll_time_limit);
	assert_true(script.selected[2].tick_stopped);
	script_run_finish(&r, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callbacks_keep_the_tick),
		cmocka_unit_test(test_callbacks_with_the_tick_stopped),
		cmocka_unit_test(test_stopped_tick_while_polling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

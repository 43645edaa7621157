// SPDX-License-Identifier: GPL-2.0
/*
 * The idle loop, one CPU, with the scripted governor: what the governor is
 * told, when the CPU wakes and why, and when it runs again.  Platform and
 * times: test-sim.h (HZ 250, ticks every 4 ms; C1 exit 2 us, C6 exit 100 us).
 */
#include <kshim/registry.h>

#include "score.h"
#include "test-sim.h"

static const struct script_step C6_KEEP[] = { { 2, false } };
static const struct script_step C6_STOP[] = { { 2, true } };
static const struct script_step C1_STOP[] = { { 1, true } };
static const struct script_step C1_KEEP[] = { { 1, false } };
static const struct script_step POLL_KEEP[] = { { 0, false } };

/*
 * A kept tick wakes the CPU at each 4 ms boundary.  Entry at 0: tick at
 * 4 ms, C6's 100 us exit, nothing to run, select again at 4.1 ms; tick at
 * 8 ms; then the interrupt at 10 ms (got_tick false), 1 ms of work, select
 * at 11.1 ms; ticks at 12 and 16 ms; at 20 ms the trace ends.
 */
static void test_kept_tick_wakes_at_boundaries(void **state)
{
	const struct trace_event ev[] = { ev_irq(10 * MS, 1 * MS) };
	const uint64_t wake[] = { 4 * MS, 8 * MS, 10 * MS, 12 * MS, 16 * MS };
	const bool tick[] = { true, true, false, true, true };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 1, 20 * MS, C6_KEEP, 1);
	assert_int_equal(script.reflects, 5);
	assert_int_equal(script.selects, 6);
	for (unsigned int k = 0; k < 5; k++) {
		assert_int_equal(script.reflected[k].clock_ns, wake[k] + 100 * US);
		assert_int_equal(script.reflected[k].got_tick, tick[k]);
		assert_false(script.selected[k].tick_stopped);
	}
	assert_int_equal(script.selected[3].clock_ns, 11100 * US);
	assert_int_equal(script.reflected[2].residency_ns, 10 * MS - 8100 * US + 100 * US);
	script_run_finish(&r, NULL);
}

/*
 * A stopped tick lets the CPU sleep to the interrupt at 10 ms; the work it
 * brings takes the CPU out of the idle loop, which restarts the tick, so
 * the next select (at 11.1 ms) sees it running.
 */
static void test_stopped_tick_restarts_after_work(void **state)
{
	const struct trace_event ev[] = { ev_irq(10 * MS, 1 * MS) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 1, 20 * MS, C6_STOP, 1);
	assert_int_equal(script.reflects, 1);
	assert_int_equal(script.selects, 2);
	assert_int_equal(script.reflected[0].clock_ns, 10100 * US);
	assert_int_equal(script.reflected[0].residency_ns, 10100 * US);
	assert_false(script.reflected[0].got_tick);
	assert_false(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].clock_ns, 11100 * US);
	script_run_finish(&r, NULL);
}

/*
 * An interrupt with no work leaves the CPU in the idle loop: the tick stays
 * stopped even though the governor now asks to keep it (the kernel's
 * idle_call_stop_or_retain_tick()), so no tick at 12 ms: the next wakeup
 * is the interrupt at 15 ms.
 */
static void test_stopped_tick_stays_stopped_in_idle_loop(void **state)
{
	const struct trace_event ev[] = { ev_irq(10 * MS, 0), ev_irq(15 * MS, 0) };
	const struct script_step steps[] = { { 2, true }, { 2, false } };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 20 * MS, steps, 2);
	assert_int_equal(script.reflects, 2);
	assert_true(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].clock_ns, 10100 * US);
	assert_int_equal(script.reflected[1].clock_ns, 15100 * US);
	assert_false(script.reflected[1].got_tick);
	script_run_finish(&r, NULL);
}

/*
 * The sleep length and delta_next.  At 0: timers at 1 and 9 ms, the tick
 * at 4 ms: sleep 1 ms, delta_next 1 ms; the tick is stopped as asked,
 * though the 1 ms timer comes before the next tick: with high resolution
 * timers tick_nohz_next_event() looks at the timer wheel only, and the
 * trace's timers are hrtimers.  At 1.002 ms (C1's exit, no work: still in
 * the idle loop): sleep 7.998 ms, and delta_next the same with the tick
 * stopped.  At 9.002 ms: no timer: KTIME_MAX less now for both.
 */
static void test_sleep_length_and_tick_stopped_before_near_timer(void **state)
{
	const struct trace_event ev[] = {
		ev_timer(0, 1, 1 * MS, 0, 0), ev_timer(0, 2, 9 * MS, 0, 0),
	};
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 12 * MS, C1_STOP, 1);
	assert_int_equal(script.selects, 3);
	assert_int_equal(script.selected[0].sleep_length_ns, 1 * MS);
	assert_int_equal(script.selected[0].delta_next_ns, 1 * MS);
	assert_true(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].clock_ns, 1002 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 7998 * US);
	assert_int_equal(script.selected[1].delta_next_ns, 7998 * US);
	assert_true(script.selected[2].tick_stopped);
	assert_int_equal(script.selected[2].sleep_length_ns, INT64_MAX - 9002 * (int64_t)US);
	assert_int_equal(script.selected[2].delta_next_ns, INT64_MAX - 9002 * (int64_t)US);
	script_run_finish(&r, NULL);
}

/*
 * Ties and exit latency.  A timer (30 us of work) and an interrupt (50 us)
 * both at 2 ms: the timer is the cause.  C6's exit latency runs to 2.1 ms,
 * which is when reflect reads the clock and the residency ends; an
 * interrupt at 2.05 ms arrives during the exit and queues its 10 us.  The
 * CPU runs 90 us of work and selects again at 2.19 ms.
 */
static void test_ties_and_exit_latency(void **state)
{
	const struct trace_event ev[] = {
		ev_timer(0, 1, 2 * MS, 0, 30 * US), ev_irq(2 * MS, 50 * US), ev_irq(2050 * US, 10 * US),
	};
	struct script_run r;
	struct cpu_score s;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 3, 3 * MS, C6_STOP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 2100 * US);
	assert_int_equal(script.reflected[0].residency_ns, 2100 * US);
	assert_int_equal(script.selected[1].clock_ns, 2190 * US);
	script_run_finish(&r, &s);
	assert_int_equal(s.timer_wakeups, 1);
	assert_int_equal(s.event_wakeups, 0);
	assert_int_equal(s.busy_ns, 90 * US);
	assert_int_equal(s.exit_ns, 100 * US);
}

/*
 * An interrupt at the instant the work ends, and a timer's expiry there:
 * the CPU has gone idle, and each ends the state it entered at once.  C1
 * from 0; the interrupt at 1 ms (100 us of work) runs the CPU from its
 * exit at 1.002 ms to 1.102 ms, where the second interrupt comes: select
 * at 1.102 ms, C1 left at once (reflect at 1.104 ms, 2 us of residency),
 * 50 us of work, select at 1.154 ms.  Its work arms a timer due at its
 * end, 1.154 ms: the same again (reflect at 1.156 ms, select at 1.166 ms).
 * Taken as work, neither would have had its idle period.
 */
static void test_interrupt_as_work_ends(void **state)
{
	const struct trace_event ev[] = {
		ev_irq(1 * MS, 100 * US), ev_irq(1102 * US, 50 * US),
		ev_timer(1110 * US, 1, 1154 * US, 0, 10 * US),
	};
	const uint64_t select_at[] = { 0, 1102 * US, 1154 * US, 1166 * US };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 3, 2 * MS, C1_KEEP, 1);
	assert_int_equal(script.selects, 4);
	assert_int_equal(script.reflects, 3);
	for (unsigned int k = 0; k < 4; k++)
		assert_int_equal(script.selected[k].clock_ns, select_at[k]);
	assert_int_equal(script.reflected[1].clock_ns, 1104 * US);
	assert_int_equal(script.reflected[1].residency_ns, 2 * US);
	assert_int_equal(script.reflected[2].clock_ns, 1156 * US);
	assert_int_equal(script.reflected[2].residency_ns, 2 * US);
	script_run_finish(&r, NULL);
}

/*
 * A periodic timer every 1 ms, cancelled at 3 ms: the expiry at 3 ms comes
 * before the cancel of the same instant (as the trace reader sees it), so
 * the CPU wakes at 1, 2 and 3 ms and then sleeps to the end.
 */
static void test_periodic_timer_and_cancel(void **state)
{
	const struct trace_event ev[] = { ev_timer(0, 7, 1 * MS, 1 * MS, 0), ev_cancel(3 * MS, 7) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 10 * MS, C1_STOP, 1);
	assert_int_equal(script.reflects, 3);
	for (unsigned int k = 0; k < 3; k++)
		assert_int_equal(script.reflected[k].clock_ns, (k + 1) * MS + 2 * US);
	script_run_finish(&r, NULL);
}

/*
 * The polling limit, 6.x: 250 us (test-sim.h).  Polling from 0 stops at
 * 250, 500 and 750 us (poll_time_limit, no tick); from 750 us the limit and
 * the interrupt at 1 ms tie, and the interrupt is the cause.  The trace
 * ends at 1.1 ms, before the next polling limit.
 */
static void test_poll_limit_6x(void **state)
{
	const struct trace_event ev[] = { ev_irq(1 * MS, 0) };
	struct script_run r;
	struct cpu_score s;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 1, 1100 * US, POLL_KEEP, 1);
	assert_int_equal(r.cpu.poll_limit_ns, 250 * US);
	for (unsigned int k = 0; k < 4; k++) {
		assert_int_equal(script.reflected[k].clock_ns, (k + 1) * 250 * US);
		assert_int_equal(script.reflected[k].poll_time_limit, k < 3);
		assert_false(script.reflected[k].got_tick);
	}
	script_run_finish(&r, &s);
	assert_int_equal(s.poll_limits, 3);
	assert_int_equal(s.event_wakeups, 1);
}

/* The polling limit, 4.20: C1's 5 us target residency, no 10 us floor. */
static void test_poll_limit_420(void **state)
{
	const struct trace_event ev[] = { ev_irq(100 * US, 0) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-4.20", ev, 1, 102 * US, POLL_KEEP, 1);
	assert_int_equal(r.cpu.poll_limit_ns, 5 * US);
	assert_int_equal(script.reflects, 20);
	assert_true(script.reflected[18].poll_time_limit);
	assert_false(script.reflected[19].poll_time_limit);
	assert_int_equal(script.reflected[19].clock_ns, 100 * US);
	script_run_finish(&r, NULL);
}

/*
 * With every state after POLL disabled: 6.x polls for TICK_NSEC / 16 =
 * 250 us; the 4.20-era code for TICK_USEC = 4000, as nanoseconds.
 */
static void test_poll_limit_without_deeper_state(void **state)
{
	const char *const governors[] = { "script-6.1", "script-4.20" };
	const uint64_t want[] = { 250 * US, 4000 };
	struct platform p;

	(void)state;
	kshim_registry_init();
	test_platform(&p);
	p.states[1].desc.disabled = p.states[2].desc.disabled = true;
	for (unsigned int k = 0; k < 2; k++) {
		struct sim_config cfg = { .platform = &p, .hz = 250,
					  .latency_limit_us = INT32_MAX, .end_ns = MS };
		GError *error = NULL;
		struct sim_cpu c;

		assert_true(sim_cpu_init(&c, 0, kshim_governor_find(governors[k]), &cfg, &error));
		assert_int_equal(c.poll_limit_ns, want[k]);
		sim_cpu_clear(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_tick_wakes_at_boundaries),
		cmocka_unit_test(test_stopped_tick_restarts_after_work),
		cmocka_unit_test(test_stopped_tick_stays_stopped_in_idle_loop),
		cmocka_unit_test(test_sleep_length_and_tick_stopped_before_near_timer),
		cmocka_unit_test(test_ties_and_exit_latency),
		cmocka_unit_test(test_interrupt_as_work_ends),
		cmocka_unit_test(test_periodic_timer_and_cancel),
		cmocka_unit_test(test_poll_limit_6x),
		cmocka_unit_test(test_poll_limit_420),
		cmocka_unit_test(test_poll_limit_without_deeper_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

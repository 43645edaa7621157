// SPDX-License-Identifier: GPL-2.0
/*
 * The idle loop's timing as the kernel has it, found by comparing the
 * model with a booted kernel (sim/README.md, "Fidelity"): the sleep length
 * measured from the tick code's idle entry time, timer interrupts that come
 * late, one interrupt for every expired hrtimer, the tick's phase, and the
 * platform's measured costs.  Platform and times: test-sim.h (HZ 250,
 * ticks every 4 ms; POLL, C1 exit 2 us, C6 exit 100 us; polling limit
 * 250 us).
 */
#include <kshim/registry.h>

#include "score.h"
#include "test-sim.h"

static const struct script_step POLL_KEEP[] = { { 0, false } };
static const struct script_step C1_KEEP[] = { { 1, false } };
static const struct script_step C6_KEEP[] = { { 2, false } };

/*
 * A polling limit is no interrupt: the selects after it are told the sleep
 * length measured from the idle entry at 0, 1 ms, though the CPU polled
 * for 250, 500 and 750 us.  The timer's interrupt at 1 ms renews the idle
 * entry time: then no timer is left, KTIME_MAX less 1 ms.
 */
static void test_sleep_length_from_idle_entry(void **state)
{
	const struct trace_event ev[] = { ev_timer(0, 1, 1 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 1, 1100 * US, POLL_KEEP, 1);
	assert_int_equal(script.selects, 5);
	for (unsigned int k = 0; k < 4; k++) {
		assert_int_equal(script.selected[k].clock_ns, k * 250 * US);
		assert_int_equal(script.selected[k].sleep_length_ns, 1 * MS);
		assert_int_equal(script.selected[k].delta_next_ns, 1 * MS);
	}
	assert_true(script.reflected[2].poll_time_limit);
	assert_false(script.reflected[3].poll_time_limit);
	assert_int_equal(script.reflected[3].clock_ns, 1 * MS);
	assert_int_equal(script.selected[4].sleep_length_ns, INT64_MAX - (int64_t)MS);
	script_run_finish(&r, NULL);
}

/*
 * A timer expiring at 1 ms whose interrupt comes at 1.2 ms (fires_ns).  An
 * interrupt at 1.1 ms wakes the CPU from C1 (exit 2 us); at the select at
 * 1.102 ms the timer is still pending, 102 us in the past: a negative
 * sleep length.  The timer then wakes the CPU at 1.2 ms.
 */
static void test_timer_fires_late(void **state)
{
	struct trace_event timer = ev_timer(0, 1, 1 * MS, 0, 0);
	struct trace_event ev[] = { timer, ev_irq(1100 * US, 0) };
	struct script_run r;
	struct cpu_score s;

	(void)state;
	ev[0].fires_ns = 1200 * US;
	script_run_start(&r, "script-6.1", ev, 2, 2 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 1102 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, -102 * (int64_t)US);
	assert_int_equal(script.reflected[1].clock_ns, 1202 * US);
	script_run_finish(&r, &s);
	assert_int_equal(s.timer_wakeups, 1);
	assert_int_equal(s.event_wakeups, 1);
}

/* Without fires_ns, the platform's timer latency: 50 us after the expiry at 1 ms. */
static void test_platform_timer_latency(void **state)
{
	const struct trace_event ev[] = { ev_timer(0, 1, 1 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 2 * MS);
	r.platform.timer_latency_us = 50;
	script_run_go(&r, "script-6.1", ev, 1, C1_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 1052 * US);
	assert_false(script.reflected[0].got_tick);
	script_run_finish(&r, NULL);
}

/*
 * A timer due at 3.99 ms whose interrupt comes at 4.001 ms, past the tick's
 * boundary at 4 ms: the clock-event device was programmed for the timer, so
 * no tick interrupt comes first, and the timer's interrupt runs the tick
 * (got_tick) by the time the CPU runs again (C1's exit, 4.003 ms).  The
 * tick is next due at 8 ms.
 */
static void test_tick_runs_in_a_timer_interrupt(void **state)
{
	struct trace_event ev[] = { ev_timer(0, 1, 3990 * US, 0, 0) };
	struct script_run r;

	(void)state;
	ev[0].fires_ns = 4001 * US;
	script_run_start(&r, "script-6.1", ev, 1, 9 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflects, 2);
	assert_int_equal(script.reflected[0].clock_ns, 4003 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.reflected[1].clock_ns, 8002 * US);
	assert_true(script.reflected[1].got_tick);
	script_run_finish(&r, NULL);
}

/* C6 declares a 100 us exit latency but costs 10 us: the residency ends at 1.01 ms. */
static void test_exit_cost(void **state)
{
	const struct trace_event ev[] = { ev_irq(1 * MS, 0) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 2 * MS);
	r.platform.states[2].exit_cost_us = 10;
	script_run_go(&r, "script-6.1", ev, 1, C6_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 1010 * US);
	assert_int_equal(script.reflected[0].residency_ns, 1010 * US);
	script_run_finish(&r, NULL);
}

/*
 * The core's clock reads lie inside the state's entry and exit by the
 * platform's residency_gap_us, 3 us: the governor is told the residency
 * less 3 us, at the same clock.  C6 from 0, woken by an interrupt at 1 ms
 * (exit cost 10 us): reflected at 1.01 ms with 1007 us.  Polling from 0,
 * woken remotely (no exit cost) at 100 us and again at 102 us: 97 us, then
 * 2 us, which the gap takes to 0.
 */
static void test_residency_gap(void **state)
{
	const struct trace_event c6[] = { ev_irq(1 * MS, 0) };
	struct trace_event poll[] = { ev_irq(100 * US, 0), ev_irq(102 * US, 0) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 2 * MS);
	r.platform.states[2].exit_cost_us = 10;
	r.platform.residency_gap_us = 3;
	script_run_go(&r, "script-6.1", c6, 1, C6_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 1010 * US);
	assert_int_equal(script.reflected[0].residency_ns, 1007 * US);
	script_run_finish(&r, NULL);

	poll[0].remote = poll[1].remote = true;
	script_run_init(&r, 1 * MS);
	r.platform.residency_gap_us = 3;
	script_run_go(&r, "script-6.1", poll, 2, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 100 * US);
	assert_int_equal(script.reflected[0].residency_ns, 97 * US);
	assert_int_equal(script.reflected[1].clock_ns, 102 * US);
	assert_int_equal(script.reflected[1].residency_ns, 0);
	script_run_finish(&r, NULL);
}

/*
 * A remote wakeup (remote=1) costs a polling CPU no exit: another CPU set
 * its need_resched, which the loop sees at once; an interrupt costs it
 * POLL's exit cost, 20 us here.  Polling from 0: the remote wakeup at
 * 100 us is reflected at 100 us (residency 100 us); the CPU polls again
 * from there, and the interrupt at 200 us is reflected at 220 us.  A CPU
 * in C1 (exit cost 2 us) takes the waker's IPI: reflected at 102 us.
 */
static void test_remote_wakeup(void **state)
{
	struct trace_event ev[] = { ev_irq(100 * US, 0), ev_irq(200 * US, 0) };
	struct script_run r;

	(void)state;
	ev[0].remote = true;
	script_run_init(&r, 1 * MS);
	r.platform.states[0].exit_cost_us = 20;
	script_run_go(&r, "script-6.1", ev, 2, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 100 * US);
	assert_int_equal(script.reflected[0].residency_ns, 100 * US);
	assert_int_equal(script.reflected[1].clock_ns, 220 * US);
	assert_int_equal(script.reflected[1].residency_ns, 120 * US);
	script_run_finish(&r, NULL);

	script_run_start(&r, "script-6.1", ev, 1, 1 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 102 * US);
	script_run_finish(&r, NULL);
}

/*
 * The polling loop reads the clock every 100 us: past the 250 us limit
 * only at 300 us, where the CPU has paid no exit; the idle loop takes 5 us
 * to the next select.
 */
static void test_poll_check_and_idle_loop(void **state)
{
	struct script_run r;

	(void)state;
	script_run_init(&r, 400 * US);
	r.platform.poll_check_us = 100;
	r.platform.idle_loop_us = 5;
	script_run_go(&r, "script-6.1", NULL, 0, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 300 * US);
	assert_int_equal(script.reflected[0].residency_ns, 300 * US);
	assert_true(script.reflected[0].poll_time_limit);
	assert_int_equal(script.selected[1].clock_ns, 305 * US);
	script_run_finish(&r, NULL);
}

/*
 * From a polling limit to the next state entry the idle loop runs with
 * interrupts off: a timer whose interrupt comes at 252 us, in the idle
 * loop's 5 us after the limit at 250 us, is taken only once the governor
 * has selected again (at 255 us, still told the sleep length from the
 * idle entry at 0: 252 us) and the CPU polls: it ends that period at once,
 * after POLL's 3 us exit.  The timer's 20 us of work then runs to 278 us.
 * Taken as work at 252 us, it would have run to 275 us with no period
 * between.
 */
static void test_interrupt_pending_through_reselect(void **state)
{
	const struct trace_event ev[] = { ev_timer(0, 1, 252 * US, 0, 20 * US) };
	struct script_run r;
	struct cpu_score s;

	(void)state;
	script_run_init(&r, 400 * US);
	r.platform.idle_loop_us = 5;
	r.platform.states[0].exit_cost_us = 3;
	script_run_go(&r, "script-6.1", ev, 1, POLL_KEEP, 1);
	assert_true(script.reflected[0].poll_time_limit);
	assert_int_equal(script.reflected[0].clock_ns, 250 * US);
	assert_int_equal(script.selected[1].clock_ns, 255 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 252 * US);
	assert_false(script.reflected[1].poll_time_limit);
	assert_int_equal(script.reflected[1].clock_ns, 258 * US);
	assert_int_equal(script.reflected[1].residency_ns, 3 * US);
	assert_int_equal(script.selected[2].clock_ns, 278 * US);
	script_run_finish(&r, &s);
	assert_int_equal(s.timer_wakeups, 1);
}

/*
 * The governor chooses 10 us before the state is entered (select_lead_us):
 * the CPU works from 0 to 500 us and enters C1 at 500 us, so the select
 * reads the clock at 490 us and is told the timer at 1 ms 510 us away;
 * the residency counts from the entry, 500 us, to the timer's interrupt
 * at 1 ms, plus C1's 2 us exit.  A work shorter than the lead (20 us from
 * the wakeup at 1.002 ms) puts the select at its start: 1.002 ms.
 */
static void test_select_lead(void **state)
{
	const struct trace_event ev[] = { ev_busy(0, 500 * US), ev_timer(0, 1, 1 * MS, 0, 5 * US) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 2 * MS);
	r.platform.select_lead_us = 10;
	script_run_go(&r, "script-6.1", ev, 2, C1_KEEP, 1);
	assert_int_equal(script.selected[0].clock_ns, 490 * US);
	assert_int_equal(script.selected[0].sleep_length_ns, 510 * US);
	assert_int_equal(script.reflected[0].clock_ns, 1002 * US);
	assert_int_equal(script.reflected[0].residency_ns, 502 * US);
	assert_int_equal(script.selected[1].clock_ns, 1002 * US);
	script_run_finish(&r, NULL);
}

/*
 * The idle entry time follows the switch to the idle task (idle records)
 * by idle_entry_us, 7 us, however late the select (select_lead_us 10 us).
 * The CPU works from 0 to 500 us; its task switched to the idle task at
 * 400 us, so the select at 490 us is told timer 1 (1 ms) 593 us away, as
 * delta_next too (the clock device is programmed for the earlier of timer 1
 * and the tick at 4 ms).  Timer 1 wakes the CPU from C1 at 1 ms
 * (exit 2 us) with 100 us of work; the task switches away at 1.05 ms, but
 * an interrupt at 1.06 ms renews the entry time at its return, which the
 * trace does not tell: the select at 1.092 ms counts from itself, timer 2
 * (3 ms) 1908 us away.  An idle record at 2 ms, while the CPU sleeps, is
 * nobody's: after timer 2's wakeup at 3.002 ms (no work) the select counts
 * from 3.002 ms, with no timer left.
 */
static void test_idle_entry_after_switch(void **state)
{
	const struct trace_event ev[] = {
		ev_busy(0, 500 * US), ev_timer(0, 1, 1 * MS, 0, 100 * US), ev_timer(0, 2, 3 * MS, 0, 0),
		ev_idle(400 * US), ev_idle(1050 * US), ev_irq(1060 * US, 0), ev_idle(2 * MS),
	};
	struct script_run r;

	(void)state;
	script_run_init(&r, 4 * MS);
	r.platform.select_lead_us = 10;
	r.platform.idle_entry_us = 7;
	script_run_go(&r, "script-6.1", ev, G_N_ELEMENTS(ev), C1_KEEP, 1);
	assert_int_equal(script.selected[0].clock_ns, 490 * US);
	assert_int_equal(script.selected[0].sleep_length_ns, 593 * US);
	assert_int_equal(script.selected[0].delta_next_ns, 593 * US);
	assert_int_equal(script.selected[1].clock_ns, 1092 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 1908 * US);
	assert_int_equal(script.selected[2].clock_ns, 3002 * US);
	assert_int_equal(script.selected[2].sleep_length_ns, INT64_MAX - (int64_t)(3002 * US));
	script_run_finish(&r, NULL);
}

/*
 * A select the model would place before the switch to the idle task: the
 * CPU works to 500 us and would select 10 us before (select_lead_us), at
 * 490 us, but its task switched to the idle task only at 492 us.  do_idle()
 * took the idle entry time idle_entry_us (7 us) after the switch, at
 * 499 us, and selected after that: at 499 us, the sleep length to the
 * timer at 1 ms 501 us, not 510.  In the second loop, after the timer's
 * 100 us of work to 1.102 ms, the select at 1.092 ms comes after the
 * switch at 1.075 ms, and the idle entry time is again the earlier of the
 * two, 1.082 ms (test_idle_entry_after_switch): 1908 us to the timer at
 * 2.99 ms.
 */
static void test_idle_entry_not_before_switch(void **state)
{
	const struct trace_event ev[] = {
		ev_busy(0, 500 * US), ev_timer(0, 1, 1 * MS, 0, 100 * US),
		ev_timer(0, 2, 2990 * US, 0, 0), ev_idle(492 * US), ev_idle(1075 * US),
	};
	struct script_run r;

	(void)state;
	script_run_init(&r, 4 * MS);
	r.platform.select_lead_us = 10;
	r.platform.idle_entry_us = 7;
	script_run_go(&r, "script-6.1", ev, G_N_ELEMENTS(ev), C1_KEEP, 1);
	assert_int_equal(script.selected[0].clock_ns, 499 * US);
	assert_int_equal(script.selected[0].sleep_length_ns, 501 * US);
	assert_int_equal(script.selected[1].clock_ns, 1092 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 1908 * US);
	script_run_finish(&r, NULL);
}

/*
 * The idle entry time lies a share of the way from the switch to the
 * state's entry (idle_entry_pct 50), at most idle_entry_us (12 us) after
 * the switch.  The CPU works to 500 us, its task switched to the idle task
 * at 490 us: half the 10 us to the entry puts the idle entry time at
 * 495 us, and the select, estimated 10 us before the entry
 * (select_lead_us), no earlier: at 495 us, told the timer at 1 ms 505 us
 * away (510 if the entry time were the select's estimated 490 us).  Timer
 * 1 wakes the CPU from C1 at 1 ms (exit 2 us) with 100 us of work to
 * 1.102 ms, its task switched at 1.04 ms: half of that 62 us way is past
 * the 12 us, so the entry time is 1.052 ms, and the select at 1.092 ms is
 * told timer 2 (3 ms) 1948 us away.
 */
static void test_idle_entry_shares_the_way(void **state)
{
	const struct trace_event ev[] = {
		ev_busy(0, 500 * US), ev_timer(0, 1, 1 * MS, 0, 100 * US),
		ev_timer(0, 2, 3 * MS, 0, 0), ev_idle(490 * US), ev_idle(1040 * US),
	};
	struct script_run r;

	(void)state;
	script_run_init(&r, 4 * MS);
	r.platform.select_lead_us = 10;
	r.platform.idle_entry_us = 12;
	r.platform.idle_entry_pct = 50;
	script_run_go(&r, "script-6.1", ev, G_N_ELEMENTS(ev), C1_KEEP, 1);
	assert_int_equal(script.selected[0].clock_ns, 495 * US);
	assert_int_equal(script.selected[0].sleep_length_ns, 505 * US);
	assert_int_equal(script.selected[0].delta_next_ns, 505 * US);
	assert_int_equal(script.selected[1].clock_ns, 1092 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 1948 * US);
	script_run_finish(&r, NULL);
}

/* select_lead_us 10, idle_entry_us 12, idle_entry_pct 50, idle_entry_held_us 6 */
static void run_held_entry(struct script_run *r, const struct trace_event *ev, size_t n)
{
	script_run_init(r, 1 * MS);
	r->platform.select_lead_us = 10;
	r->platform.idle_entry_us = 12;
	r->platform.idle_entry_pct = 50;
	r->platform.idle_entry_held_us = 6;
	script_run_go(r, "script-6.1", ev, n, C1_KEEP, 1);
}

/*
 * A timer that expires on the way, its interrupt still pending at the
 * entry, held the entry up: the idle entry time is idle_entry_held_us
 * (6 us) after the switch, or the way's share if that is sooner, whenever
 * the timer expired (select_lead_us 10, idle_entry_us 12, idle_entry_pct
 * 50).  The CPU works to 500 us, its task switched at 460 us: half the
 * 40 us way, capped at 12 us, would put the entry time at 472 us, but
 * timer 1 expired at 470 us with its interrupt at 600 us: the entry time
 * is 466 us, before the expiry, and the select at 490 us is told 4 us.
 * Timer 1 wakes the CPU from C1 at 600 us (exit 2 us) with 100 us of work
 * to 702 us, its task switched at 698 us: half that 4 us way puts the
 * entry time at 700 us, sooner than 704 us; timer 2 expired at 699 us,
 * its interrupt at 800 us, and the select, no earlier than the entry
 * time, comes at 700 us too, told -1 us.
 */
static void test_idle_entry_held_up(void **state)
{
	const struct trace_event ev[] = {
		ev_busy(0, 500 * US),
		{ .kind = TRACE_TIMER, .timer_id = 1, .expires_ns = 470 * US, .fires_ns = 600 * US,
		  .work_ns = 100 * US },
		{ .kind = TRACE_TIMER, .timer_id = 2, .expires_ns = 699 * US, .fires_ns = 800 * US },
		ev_idle(460 * US), ev_idle(698 * US),
	};
	struct script_run r;

	(void)state;
	run_held_entry(&r, ev, G_N_ELEMENTS(ev));
	assert_int_equal(script.selected[0].clock_ns, 490 * US);
	assert_int_equal(script.selected[0].sleep_length_ns, 4 * (int64_t)US);
	assert_int_equal(script.selected[1].clock_ns, 700 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, -1 * (int64_t)US);
	script_run_finish(&r, NULL);
}

/*
 * The same where the timer expires after the point the way's share gives
 * but before the state's entry: its interrupt, pending at the entry, still
 * held the entry up, so the idle entry time is where a short way puts it
 * (item 74).  The CPU works to 500 us, its task switched at 460 us (share
 * 472 us); timer 1 expires at 480 us, its interrupt at 600 us: the entry
 * time is 466 us (472 before item 74) and the select at 490 us is told
 * 14 us.  Timer 1 wakes the CPU from C1 at 600 us (exit 2 us) with 100 us
 * of work to 702 us, its task switched at 660 us; timer 2 expires at
 * 710 us, after the way: the share's 672 us stands, and the select at
 * 692 us is told 38 us.
 */
static void test_idle_entry_held_up_after_share(void **state)
{
	const struct trace_event ev[] = {
		ev_busy(0, 500 * US),
		{ .kind = TRACE_TIMER, .timer_id = 1, .expires_ns = 480 * US, .fires_ns = 600 * US,
		  .work_ns = 100 * US },
		{ .kind = TRACE_TIMER, .timer_id = 2, .expires_ns = 710 * US, .fires_ns = 710 * US },
		ev_idle(460 * US), ev_idle(660 * US),
	};
	struct script_run r;

	(void)state;
	run_held_entry(&r, ev, G_N_ELEMENTS(ev));
	assert_int_equal(script.selected[0].clock_ns, 490 * US);
	assert_int_equal(script.selected[0].sleep_length_ns, 14 * (int64_t)US);
	assert_int_equal(script.selected[1].clock_ns, 692 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 38 * (int64_t)US);
	script_run_finish(&r, NULL);
}

/*
 * An idle loop whose select was aborted: the governor chooses, nothing is
 * entered or reflected, and the next select reads a last residency of 0.
 * The CPU works to 500 us; the governor chooses C1 and stops the tick at
 * 490 us (select_lead_us 10).  Timer 1 at 1 ms wakes it (exit 2 us):
 * residency 502 us, and 400 us of work to 1402 us.  At 1.2 ms its task
 * switches to the idle task, whose select was aborted: the task had run,
 * so the tick runs again; the governor chooses at the idle entry time,
 * 1207 us (idle_entry_us 7), told no timer and the tick at 4 ms, 2793 us
 * away, with period 0's residency, and asks to stop the tick (a stop).
 * At 1392 us it chooses again, reading a last residency of 0; the tick
 * stopped, nothing wakes the CPU before the end at 5 ms: one reflect.
 */
static void test_aborted_select(void **state)
{
	static const struct script_step steps[] = { { 1, true } };
	const struct trace_event ev[] = {
		ev_busy(0, 500 * US), ev_timer(0, 1, 1 * MS, 0, 400 * US), ev_idle_aborted(1200 * US),
	};
	struct script_run r;

	(void)state;
	script_run_init(&r, 5 * MS);
	r.platform.select_lead_us = 10;
	r.platform.idle_entry_us = 7;
	script_run_go(&r, "script-6.1", ev, G_N_ELEMENTS(ev), steps, 1);
	assert_int_equal(script.reflected[0].residency_ns, 502 * US);
	assert_int_equal(script.selected[1].clock_ns, 1207 * US);
	assert_int_equal(script.selected[1].delta_next_ns, 2793 * US);
	assert_false(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].residency_ns, 502 * US);
	assert_int_equal(script.selected[2].clock_ns, 1392 * US);
	assert_int_equal(script.selected[2].residency_ns, 0);
	assert_int_equal(r.cpu.aborted_tick_stops, 1);
	script_run_finish(&r, NULL);
	assert_int_equal(script.selects, 3);
	assert_int_equal(script.reflects, 1);
}

/*
 * Stopping the tick takes time between select and the entry (tick_stop_us,
 * 30 us), keeping it none.  The CPU works from 0 to 500 us, the governor
 * chooses C1 and asks to stop the tick at 490 us (select_lead_us, 10 us
 * before), told the timer at 2 ms 1510 us away; the tick stops, which
 * takes it to 530 us, the entry.  The timer's interrupt at 2 ms ends the
 * period: residency 2002 - 530 = 1472 us.  Its 50 us of work, with the
 * tick running again, end at 2052 us; this time the governor keeps the
 * tick, at 2042 us, and enters at 2052 us; the tick at 4 ms wakes it:
 * residency 4002 - 2052 = 1950 us.
 */
static void test_tick_stop_cost(void **state)
{
	static const struct script_step steps[] = { { 1, true }, { 1, false } };
	const struct trace_event ev[] = { ev_busy(0, 500 * US), ev_timer(0, 1, 2 * MS, 0, 50 * US) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 5 * MS);
	r.platform.select_lead_us = 10;
	r.platform.tick_stop_us = 30;
	script_run_go(&r, "script-6.1", ev, 2, steps, 2);
	assert_int_equal(script.selected[0].clock_ns, 490 * US);
	assert_int_equal(script.selected[0].sleep_length_ns, 1510 * US);
	assert_int_equal(script.reflected[0].clock_ns, 2002 * US);
	assert_int_equal(script.reflected[0].residency_ns, 1472 * US);
	assert_int_equal(script.selected[1].clock_ns, 2042 * US);
	assert_false(script.selected[1].tick_stopped);
	assert_int_equal(script.reflected[1].clock_ns, 4002 * US);
	assert_true(script.reflected[1].got_tick);
	assert_int_equal(script.reflected[1].residency_ns, 1950 * US);
	script_run_finish(&r, NULL);
}

/*
 * An interrupt whose handler wakes no task (idle_loop) leaves do_idle()
 * running: the tick stays stopped and the handler's return renews the
 * idle entry time.  As in test_tick_stop_cost, the governor stops the tick
 * at 490 us and the CPU enters C1 at 530 us.  Timer 1's interrupt at 2 ms
 * wakes it (exit 2 us): the idle entry time becomes 2002 us.  Its 50 us of
 * handler end at 2052 us; the governor chooses at 2042 us with the tick
 * still stopped, told timer 2 at 10 ms counted from 2002 us: 7998 us (a
 * task's work would have restarted the tick: 7958 us from the select).
 * Nothing to stop, so the entry is at 2052 us, and timer 2's interrupt at
 * 10 ms ends the period: residency 10002 - 2052 = 7950 us.
 */
static void test_handler_stays_in_idle_loop(void **state)
{
	static const struct script_step steps[] = { { 1, true }, { 1, true } };
	struct trace_event ev[] = { ev_busy(0, 500 * US), ev_timer(0, 1, 2 * MS, 0, 50 * US),
				    ev_timer(0, 2, 10 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	ev[1].idle_loop = true;
	script_run_init(&r, 11 * MS);
	r.platform.select_lead_us = 10;
	r.platform.tick_stop_us = 30;
	script_run_go(&r, "script-6.1", ev, 3, steps, 2);
	assert_int_equal(script.reflected[0].residency_ns, 1472 * US);
	assert_int_equal(script.selected[1].clock_ns, 2042 * US);
	assert_true(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].sleep_length_ns, 7998 * US);
	assert_int_equal(script.reflected[1].clock_ns, 10002 * US);
	assert_int_equal(script.reflected[1].residency_ns, 7950 * US);
	script_run_finish(&r, NULL);
}

/*
 * A handler that woke no task but left need_resched set (resched, a
 * reschedule IPI that kicks the CPU to look at a timer queued on it):
 * do_idle() ends, tick_nohz_idle_exit() restarts the tick, and the CPU
 * comes straight back.  As in test_handler_stays_in_idle_loop, the
 * governor stops the tick at 490 us and enters C1 at 530 us; the IPI at
 * 2 ms wakes it (exit 2 us), the idle entry time becomes 2002 us, and its
 * 50 us of handler end at 2052 us.  The select at 2042 us finds the tick
 * running again: told timer 2 at 10 ms 7998 us away (from 2002 us), and
 * the next tick, at the 4 ms boundary, 1998 us away.  Stopping it once
 * more costs 30 us: the entry is at 2082 us, and timer 2's interrupt at
 * 10 ms ends the period, residency 10002 - 2082 = 7920 us (7950 with the
 * tick left stopped, as test_handler_stays_in_idle_loop has it).
 */
static void test_kick_restarts_tick(void **state)
{
	static const struct script_step steps[] = { { 1, true }, { 1, true } };
	struct trace_event ev[] = { ev_busy(0, 500 * US), ev_timer(0, 2, 10 * MS, 0, 0),
				    ev_irq(2 * MS, 50 * US) };
	struct script_run r;

	(void)state;
	ev[2].idle_loop = ev[2].resched = true;
	script_run_init(&r, 11 * MS);
	r.platform.select_lead_us = 10;
	r.platform.tick_stop_us = 30;
	script_run_go(&r, "script-6.1", ev, 3, steps, 2);
	assert_int_equal(script.reflected[0].residency_ns, 1472 * US);
	assert_int_equal(script.selected[1].clock_ns, 2042 * US);
	assert_false(script.selected[1].tick_stopped);
	assert_int_equal(script.selected[1].sleep_length_ns, 7998 * US);
	assert_int_equal(script.selected[1].delta_next_ns, 1998 * US);
	assert_int_equal(script.reflected[1].clock_ns, 10002 * US);
	assert_int_equal(script.reflected[1].residency_ns, 7920 * US);
	script_run_finish(&r, NULL);
}

/*
 * A trace's tick-stop cost (tick_stop_ns, 0 here: an imported trace whose
 * work was not cut) stands for the platform's (30 us): the entry is at
 * the end of the work, 500 us, and the residency 2002 - 500 = 1502 us.
 */
static void test_trace_tick_stop(void **state)
{
	static const struct script_step steps[] = { { 1, true } };
	const struct trace_event ev[] = { ev_busy(0, 500 * US), ev_timer(0, 1, 2 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 3 * MS);
	r.platform.tick_stop_us = 30;
	r.cfg.has_tick_stop = true;
	r.cfg.tick_stop_ns = 0;
	script_run_go(&r, "script-6.1", ev, 2, steps, 1);
	assert_int_equal(script.reflected[0].residency_ns, 1502 * US);
	script_run_finish(&r, NULL);
}

/*
 * A trace's measured check interval (poll_check_ns, 70 us) stands for the
 * platform's (100 us): the 250 us limit is noticed at the fourth check,
 * 280 us.
 */
static void test_trace_poll_check(void **state)
{
	struct script_run r;

	(void)state;
	script_run_init(&r, 400 * US);
	r.platform.poll_check_us = 100;
	r.cfg.poll_check_ns = 70 * US;
	script_run_go(&r, "script-6.1", NULL, 0, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 280 * US);
	assert_true(script.reflected[0].poll_time_limit);
	script_run_finish(&r, NULL);
}

/*
 * CLOCK_MONOTONIC is 1 ms at time 0: the ticks fall at 3 and 7 ms of
 * trace time.  Each kept tick's handler takes 30 us after C6's 100 us exit.
 */
static void test_tick_phase_and_work(void **state)
{
	struct script_run r;

	(void)state;
	script_run_init(&r, 8 * MS);
	r.cfg.mono_ns = 1 * MS;
	r.platform.tick_work_us = 30;
	script_run_go(&r, "script-6.1", NULL, 0, C6_KEEP, 1);
	assert_int_equal(script.reflects, 2);
	assert_int_equal(script.reflected[0].clock_ns, 3100 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.selected[1].clock_ns, 3130 * US);
	assert_int_equal(script.reflected[1].clock_ns, 7100 * US);
	script_run_finish(&r, NULL);
}

/*
 * The tick's handler wakes no task, and as it returns it takes the tick
 * code's idle entry time anew (tick_nohz_irq_exit()), just before the
 * exit.  CLOCK_MONOTONIC is 1 ms at time 0: the tick at 3 ms of trace time
 * wakes the CPU from C6 (100 us exit) at 3.1 ms; its work takes 30 us and
 * the governor chooses 10 us before the entry, at 3.12 ms.  That select is
 * told the timer at 10 ms and the tick at 7 ms counted from 3.1 ms: 6.9
 * and 3.9 ms (from the select they would be 6.88 and 3.88 ms).
 */
static void test_tick_renews_idle_entry(void **state)
{
	const struct trace_event ev[] = { ev_timer(0, 1, 10 * MS, 0, 0) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 8 * MS);
	r.cfg.mono_ns = 1 * MS;
	r.platform.tick_work_us = 30;
	r.platform.select_lead_us = 10;
	script_run_go(&r, "script-6.1", ev, 1, C6_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 3100 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.selected[1].clock_ns, 3120 * US);
	assert_int_equal(script.selected[1].sleep_length_ns, 6900 * US);
	assert_int_equal(script.selected[1].delta_next_ns, 3900 * US);
	script_run_finish(&r, NULL);
}

/*
 * An interrupt that holds the CPU up (held_ns): the timer's interrupt at
 * 100 us ends the polling period started at 0, but the CPU leaves it
 * 200 us later, at 300 us (POLL costs no exit): the residency is 300 us,
 * and the polling limit at 250 us, which the stopped CPU did not reach,
 * is no limit.  The irq at 1 ms holds the CPU up 50 us: reflected at
 * 1.05 ms.
 */
static void test_held_up_by_the_interrupt(void **state)
{
	struct trace_event ev[] = { ev_timer(0, 1, 100 * US, 0, 20 * US), ev_irq(1 * MS, 0) };
	struct script_run r;
	unsigned int k;

	(void)state;
	ev[0].held_ns = 200 * US;
	ev[1].held_ns = 50 * US;
	script_run_start(&r, "script-6.1", ev, 2, 2 * MS, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 300 * US);
	assert_int_equal(script.reflected[0].residency_ns, 300 * US);
	assert_false(script.reflected[0].poll_time_limit);
	assert_int_equal(script.selected[1].clock_ns, 320 * US);
	/* Then polling limits, until the irq. */
	for (k = 1; k < script.reflects && script.reflected[k].poll_time_limit; k++)
		;
	assert_true(k < script.reflects);
	assert_int_equal(script.reflected[k].clock_ns, 1050 * US);
	script_run_finish(&r, NULL);
}

/*
 * Under a timer latency (60 us) a timer's interrupt comes after its expiry,
 * which the trace counts as come at the expiry: the task's timer due at
 * 1 ms is armed anew at 1 ms for 2 ms, as a generated workload's task
 * re-arms it, and cancelled at 2 ms.  Each expiry still wakes the CPU from
 * C1 (exit 2 us) at 1.062 and 2.062 ms; a periodic timer (5 ms, every
 * 1 ms) cancelled at its expiry at 6 ms wakes it at 6.062 ms, and then no
 * more: the tick's at 8 ms (at 8.062) is next.
 */
static void test_rearmed_at_expiry(void **state)
{
	const struct trace_event ev[] = {
		ev_timer(0, 1, 1 * MS, 0, 0), ev_timer(1 * MS, 1, 2 * MS, 0, 0),
		ev_cancel(2 * MS, 1), ev_timer(3 * MS, 2, 5 * MS, 1 * MS, 0), ev_cancel(6 * MS, 2),
	};
	struct script_run r;

	(void)state;
	script_run_init(&r, 9 * MS);
	r.platform.timer_latency_us = 60;
	script_run_go(&r, "script-6.1", ev, G_N_ELEMENTS(ev), C1_KEEP, 1);
	assert_true(script.reflects >= 6);
	assert_int_equal(script.reflected[0].clock_ns, 1062 * US);
	assert_int_equal(script.reflected[1].clock_ns, 2062 * US);
	assert_int_equal(script.reflected[2].clock_ns, 4062 * US);	/* the tick, as late */
	assert_int_equal(script.reflected[3].clock_ns, 5062 * US);
	assert_int_equal(script.reflected[4].clock_ns, 6062 * US);
	assert_int_equal(script.reflected[5].clock_ns, 8062 * US);	/* the tick */
	script_run_finish(&r, NULL);
}

/*
 * A wakeup with its own exit cost (exit_ns, a captured exit quicker than
 * the state's): the periodic timer's first expiry, at 1 ms, takes the CPU
 * out of C6 (exit 100 us) 30 us later; its second, at 2 ms, pays C6's
 * exit again (the first expiry's only).  The irq at 2.5 ms leaves 7 us
 * after it.  Each residency runs from the entry to that exit.
 */
static void test_own_exit_cost(void **state)
{
	struct trace_event ev[] = { ev_timer(0, 1, 1 * MS, 1 * MS, 0), ev_irq(2500 * US, 0) };
	struct script_run r;

	(void)state;
	ev[0].exit_ns = 30 * US;
	ev[1].exit_ns = 7 * US;
	script_run_start(&r, "script-6.1", ev, 2, 2900 * US, C6_KEEP, 1);
	assert_true(script.reflects >= 3);
	assert_int_equal(script.reflected[0].clock_ns, 1030 * US);
	assert_int_equal(script.reflected[0].residency_ns, 1030 * US);
	assert_int_equal(script.reflected[1].clock_ns, 2100 * US);
	assert_int_equal(script.reflected[1].residency_ns,
			 2100 * US - script.selected[1].clock_ns);
	assert_int_equal(script.reflected[2].clock_ns, 2507 * US);
	assert_int_equal(script.reflected[2].residency_ns,
			 2507 * US - script.selected[2].clock_ns);
	script_run_finish(&r, NULL);
}

/*
 * A polling loop stalled before its interrupt (stalled_ns): the host held
 * the vCPU up, and it read no clock.  The irq at 1 ms says the loop
 * stalled 600 us before it, at 400 us: the CPU polling from 0 reaches its
 * limit at 250 us, but the one polling from 250 us reaches none at 500 us
 * and polls on to the irq.  With the whole millisecond stalled, the CPU
 * polls from 0 to the irq in one period.
 */
static void test_stalled_polling_loop(void **state)
{
	struct trace_event ev[] = { ev_irq(1 * MS, 0) };
	struct script_run r;

	(void)state;
	ev[0].stalled_ns = 600 * US;
	script_run_start(&r, "script-6.1", ev, 1, 1100 * US, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 250 * US);
	assert_true(script.reflected[0].poll_time_limit);
	assert_int_equal(script.reflected[1].clock_ns, 1 * MS);
	assert_int_equal(script.reflected[1].residency_ns, 750 * US);
	assert_false(script.reflected[1].poll_time_limit);
	script_run_finish(&r, NULL);

	ev[0].stalled_ns = 1 * MS;
	script_run_start(&r, "script-6.1", ev, 1, 1100 * US, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 1 * MS);
	assert_int_equal(script.reflected[0].residency_ns, 1 * MS);
	assert_false(script.reflected[0].poll_time_limit);
	script_run_finish(&r, NULL);
}

static struct trace_event ev_poll(uint64_t at, uint64_t check)
{
	return (struct trace_event){ .kind = TRACE_POLL, .at_ns = at, .check_ns = check };
}

/*
 * Poll records change the polling loop's pace (the limit is 250 us, the
 * platform's loop checks all the time): at 10 us, to a check every 100
 * us, while the CPU polls from 0: the limit is noticed at 300 us, and
 * polling from 300 us at 600 us; at 650 us, every 70 us, while it polls
 * from 600 us: at 880 us (four checks), then from 880 us; at 1150 us,
 * every 1 us (251 us from 880 us, which is past): at once, 1150 us.
 */
static void test_poll_records(void **state)
{
	const struct trace_event ev[] = { ev_poll(10 * US, 100 * US), ev_poll(650 * US, 70 * US),
					  ev_poll(1150 * US, 1 * US) };
	const uint64_t want[] = { 300 * US, 600 * US, 880 * US, 1150 * US };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 3, 1300 * US, POLL_KEEP, 1);
	assert_int_equal(script.reflects, 4);
	for (unsigned int k = 0; k < 4; k++) {
		assert_int_equal(script.reflected[k].clock_ns, want[k]);
		assert_true(script.reflected[k].poll_time_limit);
	}
	script_run_finish(&r, NULL);
}

/*
 * A polling limit the host held up comes as two poll records
 * (import_stalled_at_limit()): the loop, checking every 100 us, reaches
 * its limit at 300 us; polling from 300 us it would at 600 us, but the
 * record at 400 us (a pace of 600 us) and the one at 900 us (100 us
 * again) hold it to 900 us, as the stopped vCPU read no clock; from there
 * it polls at its pace: 1200 us.
 */
static void test_poll_records_of_a_stall(void **state)
{
	const struct trace_event ev[] = { ev_poll(400 * US, 600 * US), ev_poll(900 * US, 100 * US) };
	const uint64_t want[] = { 300 * US, 900 * US, 1200 * US };
	struct script_run r;

	(void)state;
	script_run_init(&r, 1250 * US);
	r.cfg.poll_check_ns = 100 * US;
	script_run_go(&r, "script-6.1", ev, 2, POLL_KEEP, 1);
	assert_int_equal(script.reflects, 3);
	for (unsigned int k = 0; k < 3; k++) {
		assert_int_equal(script.reflected[k].clock_ns, want[k]);
		assert_true(script.reflected[k].poll_time_limit);
	}
	script_run_finish(&r, NULL);
}

/*
 * A poll record with check_ns=0 brings back the trace's pace, else the
 * platform's (what import writes where a capture has too few limits for
 * a pace of its own).  The limit is 250 us; the trace's loop checks every
 * 100 us.  At 10 us a record makes it every 70 us, while the CPU polls
 * from 0: its limit is noticed at 280 us, and polling from 280 us at
 * 560 us; at 650 us a record with 0 brings the 100 us back: from 560 us
 * at 860 us, then 1160 us.  With no pace in the trace the platform's loop
 * checks all the time: from 560 us at 810 us, then 1060 us.
 */
static void test_poll_record_back_to_default(void **state)
{
	const struct trace_event ev[] = { ev_poll(10 * US, 70 * US), ev_poll(650 * US, 0) };
	const uint64_t traced[] = { 280 * US, 560 * US, 860 * US, 1160 * US };
	const uint64_t platform[] = { 280 * US, 560 * US, 810 * US, 1060 * US };
	struct script_run r;

	(void)state;
	for (unsigned int run = 0; run < 2; run++) {
		const uint64_t *want = run ? platform : traced;

		script_run_init(&r, 1250 * US);
		r.cfg.poll_check_ns = run ? 0 : 100 * US;
		script_run_go(&r, "script-6.1", ev, 2, POLL_KEEP, 1);
		assert_int_equal(script.reflects, 4);
		for (unsigned int k = 0; k < 4; k++) {
			assert_int_equal(script.reflected[k].clock_ns, want[k]);
			assert_true(script.reflected[k].poll_time_limit);
		}
		script_run_finish(&r, NULL);
	}
}

/*
 * A periodic timer's stall is its first expiry's: the timer at 1 ms
 * stalled the loop polling from 0, which reaches no limit; re-armed for
 * 2 ms, it ends a loop that ran: polling from 1 ms, the CPU reaches its
 * limit at 1.25, 1.5 and 1.75 ms before the timer wakes it.
 */
static void test_stall_of_a_periodic_timer(void **state)
{
	struct trace_event ev[] = { ev_timer(0, 1, 1 * MS, 1 * MS, 0) };
	struct script_run r;

	(void)state;
	ev[0].stalled_ns = 1 * MS;
	script_run_start(&r, "script-6.1", ev, 1, 2100 * US, POLL_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 1 * MS);
	assert_false(script.reflected[0].poll_time_limit);
	for (unsigned int k = 1; k < 4; k++) {
		assert_int_equal(script.reflected[k].clock_ns, (1000 + 250 * k) * US);
		assert_true(script.reflected[k].poll_time_limit);
	}
	assert_int_equal(script.reflected[4].clock_ns, 2 * MS);
	assert_false(script.reflected[4].poll_time_limit);
	script_run_finish(&r, NULL);
}

/*
 * The tick does not end a polling period: poll_idle() takes interrupts and
 * polls on until a task is to run or its limit.  Ticks at 3.9 ms (mono_ns
 * 100 us); polling periods from 0 each reach the 250 us limit, the one from
 * 3750 us too, at 4000 us, with the tick handled inside it (30 us of
 * handler, done at 3930 us): the governor sees got_tick and the next
 * select's times count from the handler's return, the tick code's new idle
 * entry (next tick 7900 us: 3970 us).  The interrupt at 4100 us ends the
 * last period.
 */
static void test_tick_while_polling(void **state)
{
	const struct trace_event ev[] = { ev_irq(4100 * US, 0) };
	struct script_run r;

	(void)state;
	script_run_init(&r, 4200 * US);
	r.cfg.mono_ns = 100 * US;
	r.platform.tick_work_us = 30;
	script_run_go(&r, "script-6.1", ev, 1, POLL_KEEP, 1);
	assert_int_equal(script.reflects, 17);
	for (unsigned int k = 0; k < 16; k++) {
		assert_int_equal(script.reflected[k].clock_ns, (k + 1) * 250 * US);
		assert_true(script.reflected[k].poll_time_limit);
		assert_int_equal(script.reflected[k].got_tick, k == 15);
	}
	assert_int_equal(script.selected[16].clock_ns, 4000 * US);
	assert_int_equal(script.selected[16].delta_next_ns, 3970 * US);
	assert_int_equal(script.selected[16].sleep_length_ns, INT64_MAX - 3930 * US);
	assert_int_equal(script.reflected[16].clock_ns, 4100 * US);
	assert_false(script.reflected[16].got_tick);
	assert_false(script.reflected[16].poll_time_limit);
	script_run_finish(&r, NULL);
}

/*
 * A tick record tells when the interrupt of the tick due at its boundary
 * came: the tick of 4 ms reaches the CPU at 5 ms, and wakes it from C1
 * then (2 us exit); the next one, without a record, at 8 ms.
 */
static void test_tick_record_late(void **state)
{
	const struct trace_event ev[] = { ev_tick(4 * MS, 5 * MS) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 1, 9 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflects, 2);
	assert_int_equal(script.reflected[0].clock_ns, 5002 * US);
	assert_true(script.reflected[0].got_tick);
	assert_int_equal(script.reflected[1].clock_ns, 8002 * US);
	script_run_finish(&r, NULL);
}

/*
 * A CPU that goes idle after a tick's boundary but before its late
 * interrupt (work from 3.9 ms to 4.102 ms; the 4 ms tick comes at 4.5 ms)
 * finds the tick pending: the clock-event device is programmed for 4 ms,
 * in the past, and the governor is told so (delta_next -102 us).  The
 * interrupt wakes it at 4.5 ms.
 */
static void test_tick_record_pending_at_entry(void **state)
{
	const struct trace_event ev[] = { ev_busy(3900 * US, 200 * US), ev_tick(4 * MS, 4500 * US) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 6 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflects, 2);
	assert_int_equal(script.reflected[0].clock_ns, 3902 * US);
	assert_int_equal(script.selected[1].clock_ns, 4102 * US);
	assert_int_equal(script.selected[1].delta_next_ns, -102 * (int64_t)US);
	assert_int_equal(script.reflected[1].clock_ns, 4502 * US);
	assert_true(script.reflected[1].got_tick);
	script_run_finish(&r, NULL);
}

/*
 * A tick's interrupt more than a tick late: the hrtimer stays armed for its
 * passed boundary, and no later boundary is programmed until it fires.  The
 * CPU works from 3.902 ms to 8.102 ms; the 4 ms tick comes only at 9 ms, so
 * the select at 8.102 ms is told it is 4102 us overdue, not that the 12 ms
 * one is 3898 us away.  The interrupt wakes the CPU at 9 ms, and the next
 * tick is the 12 ms one.
 */
static void test_tick_record_ticks_late(void **state)
{
	const struct trace_event ev[] = { ev_busy(3900 * US, 4200 * US), ev_tick(4 * MS, 9 * MS) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, 2, 13 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflects, 3);
	assert_int_equal(script.selected[1].clock_ns, 8102 * US);
	assert_int_equal(script.selected[1].delta_next_ns, -4102 * (int64_t)US);
	assert_int_equal(script.reflected[1].clock_ns, 9002 * US);
	assert_true(script.reflected[1].got_tick);
	assert_int_equal(script.selected[2].delta_next_ns, 2998 * US);
	assert_int_equal(script.reflected[2].clock_ns, 12002 * US);
	script_run_finish(&r, NULL);
}

/*
 * An interrupt's wakeup held up after it (held_ns) takes the tick along
 * when the tick's interrupt comes before the CPU runs: the irq at 4 ms
 * wakes the CPU from C1, which leaves it 10 us later, at 4.01 ms, and runs
 * at 4.012 ms (2 us exit); the 4 ms tick's interrupt came at 4.005 ms, so
 * its handler ran in the idle state, and reflect sees got_tick.  Not held
 * up, the CPU leaves the state at 4 ms, before the tick's interrupt, which
 * comes during the exit (4.001 ms here): no got_tick.
 */
static void test_tick_in_held_wakeup(void **state)
{
	struct trace_event ev[] = { ev_tick(4 * MS, 4005 * US), ev_irq(4 * MS, 0) };
	struct script_run r;

	(void)state;
	ev[1].held_ns = 10 * US;
	script_run_start(&r, "script-6.1", ev, 2, 5 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 4012 * US);
	assert_true(script.reflected[0].got_tick);
	script_run_finish(&r, NULL);

	ev[1].held_ns = 0;
	ev[0].fires_ns = 4001 * US;
	script_run_start(&r, "script-6.1", ev, 2, 5 * MS, C1_KEEP, 1);
	assert_int_equal(script.reflected[0].clock_ns, 4002 * US);
	assert_false(script.reflected[0].got_tick);
	script_run_finish(&r, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleep_length_from_idle_entry),
		cmocka_unit_test(test_timer_fires_late),
		cmocka_unit_test(test_platform_timer_latency),
		cmocka_unit_test(test_tick_runs_in_a_timer_interrupt),
		cmocka_unit_test(test_exit_cost),
		cmocka_unit_test(test_residency_gap),
		cmocka_unit_test(test_remote_wakeup),
		cmocka_unit_test(test_poll_check_and_idle_loop),
		cmocka_unit_test(test_interrupt_pending_through_reselect),
		cmocka_unit_test(test_select_lead),
		cmocka_unit_test(test_idle_entry_not_before_switch),
		cmocka_unit_test(test_idle_entry_shares_the_way),
		cmocka_unit_test(test_idle_entry_held_up),
		cmocka_unit_test(test_idle_entry_held_up_after_share),
		cmocka_unit_test(test_idle_entry_after_switch),
		cmocka_unit_test(test_tick_stop_cost),
		cmocka_unit_test(test_aborted_select),
		cmocka_unit_test(test_trace_tick_stop),
		cmocka_unit_test(test_trace_poll_check),
		cmocka_unit_test(test_tick_phase_and_work),
		cmocka_unit_test(test_tick_renews_idle_entry),
		cmocka_unit_test(test_held_up_by_the_interrupt),
		cmocka_unit_test(test_own_exit_cost),
		cmocka_unit_test(test_rearmed_at_expiry),
		cmocka_unit_test(test_stalled_polling_loop),
		cmocka_unit_test(test_stall_of_a_periodic_timer),
		cmocka_unit_test(test_poll_records),
		cmocka_unit_test(test_poll_records_of_a_stall),
		cmocka_unit_test(test_poll_record_back_to_default),
		cmocka_unit_test(test_handler_stays_in_idle_loop),
		cmocka_unit_test(test_kick_restarts_tick),
		cmocka_unit_test(test_tick_while_polling),
		cmocka_unit_test(test_tick_record_late),
		cmocka_unit_test(test_tick_record_pending_at_entry),
		cmocka_unit_test(test_tick_record_ticks_late),
		cmocka_unit_test(test_tick_in_held_wakeup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Where the converter places a wakeup's interrupt (convert-wakeups.c): held
 * up, quick, with no cause in the capture, and the exit costs measured, on
 * the hand-made captures of import/testdata, each test deriving its
 * expected trace events from the capture as test-convert.c's do.
 */
#include "test-import-helpers.h"

/*
 * tick-in-hold-up.txt, t0 = 70 s, offset 0: cpu 0 wakes 21 times from
 * state 2 by an interrupt 100 us after each entry (every 200 us from 0)
 * and leaves idle 20 us after it, and once more at the end: the median
 * exit cost of state 2 is 20 us.  In between it enters state 2 at 4.2 ms;
 * its task's timer (armed for 5 ms) comes at 5.01 ms and wakes the task,
 * the tick's interrupt for the boundary at 6 ms comes at 6.01 ms, and the
 * CPU leaves the state only at 7 ms: the host held the vCPU up.  The
 * timer's interrupt moves to 7 ms less 20 us, 6.98 ms, and the tick's,
 * taken in the same hold-up, moves with it: traced at 6.01 ms, it would
 * wake the simulated CPU before its timer, to a timer already overdue.
 */
static void test_tick_in_hold_up(void **state)
{
	struct imported im;
	guint ticks = 0;

	(void)state;
	import_ok("tick-in-hold-up.txt", &im);
	assert_int_equal(im.exit_cost_ns[2], 20000);
	for (guint i = 0; i < im.events->len; i++) {
		const struct trace_event *ev = &g_array_index(im.events, struct trace_event, i);

		if (ev->kind == TRACE_TIMER) {
			assert_int_equal(ev->expires_ns, 5000000);
			assert_int_equal(ev->fires_ns, 6980000);
		} else if (ev->kind == TRACE_TICK) {
			assert_int_equal(ev->at_ns, 6000000);
			assert_int_equal(ev->fires_ns, 6980000);
			ticks++;
		}
	}
	assert_int_equal(ticks, 1);
	assert_true(has_note(&im, "wakeups held up after their interrupt (left idle later than the "
			     "state's median exit cost): 1, their interrupts taken 1970000 ns later"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * handler-rearm-held-up.txt, t0 = 70 s, offset 0: as tick-in-hold-up.txt,
 * a median exit cost of 20 us from state 2; the task arms its timer at
 * 4.15 ms (written at its wakeup, 4.1 ms) for 5 ms, and the expiry at
 * 5.01 ms re-arms it for 5.5 ms in its handler and wakes the task; the
 * host holds the vCPU up until the exit at 7 ms, so the interrupt moves
 * to 6.98 ms, and the re-arming with it: at 5.02 ms, the reader would
 * take it as replacing the first arming before its interrupt.  Its
 * expiry, 5.5 ms, is past there: due at once.  Its own interrupt came
 * at 7.4 ms.
 */
static void test_handler_rearm_held_up(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("handler-rearm-held-up.txt", &im);
	text = events_text(&im);
	assert_non_null(strstr(text, "timer at_ns=4100000 cpu=0 id=241 expires_ns=5000000 "
			       "fires_ns=6980000 work_ns=300000\n"
			       "timer at_ns=6980000 cpu=0 id=241 expires_ns=6980000 "
			       "fires_ns=7400000 work_ns=180000\n"));
	assert_int_equal(im.counts.handler_armings_moved, 1);
	assert_true(has_note(&im, "of those, timers their own handler re-armed before the exit: 1"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * quick-exit.txt, t0 = 70 s, offset 0: as tick-in-hold-up.txt, a median
 * exit cost of 20 us from state 2.  Then three quick wakeups:
 * - the task's timer, armed at 4.15 ms (written at its wakeup, 4.1 ms)
 *   for 4.19 ms, is pending at the entry at 4.2 ms; the CPU leaves 5 us
 *   later.  The interrupt moves to the entry (not before it), and the
 *   wakeup brings its own exit cost: 5 us;
 * - an exit with no cause 8 us after the entry at 4.3 ms: its unseen
 *   interrupt goes at the entry, exit_ns 8 us;
 * - an irq at 5 ms, exit 20 us later: the median, nothing of its own.
 * Neither of the last two wakes a task: idle_loop=1; the first of them
 * left need_resched set ('N' at the exit), a kick: resched=1.
 */
static void test_own_exit_cost(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("quick-exit.txt", &im);
	assert_int_equal(im.exit_cost_ns[2], 20000);
	text = events_text(&im);
	assert_non_null(strstr(text, "timer at_ns=4100000 cpu=0 id=241 expires_ns=4190000 "
			       "fires_ns=4200000 work_ns=95000 exit_ns=5000\n"
			       "irq at_ns=4300000 cpu=0 work_ns=92000 exit_ns=8000 idle_loop=1 "
			       "resched=1\n"
			       "irq at_ns=5000000 cpu=0 work_ns=80000 idle_loop=1\n"));
	assert_true(has_note(&im, "wakeups quicker than the state's median exit cost whose "
			     "interrupt cannot move earlier (pending at the entry, or a timer's "
			     "expiry): 2, 27000 ns quicker in all"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * early-expiry-held-up.txt, t0 = 90 s, offset 0: cpu 0 wakes 21 times from
 * state 2 by its task's hrtimer, each expiry traced 50 us before the time
 * it was armed for (the importer takes expiries up to 1 ms early, for the
 * clock offset), and leaves idle 10 to 30 us after it: the median exit
 * cost is 20 us.  The ten wakeups that took longer were held up, but by at
 * most 10 us, so the interrupt they would be moved to (exit less 20 us) is
 * at the latest 40 us before the expiry it was armed for: no interrupt
 * moves before its timer's expiry, and none is moved at all.  Every timer
 * keeps its traced interrupt: fires_ns 0 (it came early, so the
 * simulator's own latency applies).
 */
static void test_held_up_before_expiry(void **state)
{
	struct imported im;

	(void)state;
	import_ok("early-expiry-held-up.txt", &im);
	assert_int_equal(im.exit_cost_ns[2], 20000);
	for (guint i = 0; i < im.events->len; i++) {
		const struct trace_event *ev = &g_array_index(im.events, struct trace_event, i);

		if (ev->kind == TRACE_TIMER)
			assert_int_equal(ev->fires_ns, 0);
	}
	assert_false(has_note(&im, "wakeups held up"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * tick-stop-unseen-wakeup.txt, t0 = 50.0009 s: the work switches to the
 * idle task, the tick stops, C1E from 100 us and out at 115 us with
 * nothing traced, C1 again from 125 us (QEMU wakes a CPU so now and then
 * just after its tick stopped).  A halting state is left for an
 * interrupt: one the capture does not show, at the exit (too few exits
 * for a median cost), and with the tick stopped and no task woken the
 * kernel stayed in the idle loop: irq at 115 us, 10 us of work,
 * idle_loop=1.  No reselect.
 */
static void test_unseen_wakeup_after_tick_stop(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("tick-stop-unseen-wakeup.txt", &im);
	text = events_text(&im);
	assert_non_null(strstr(text, "busy at_ns=0 cpu=0 work_ns=100000\n"
			       "irq at_ns=115000 cpu=0 work_ns=10000 idle_loop=1\n"));
	assert_int_equal(im.counts.reselects, 0);
	assert_int_equal(im.counts.unknown_wakeups, 2);
	assert_reads_back(&im);
	imported_clear(&im);
}

/* Whether im has an irq event on cpu at at_ns. */
static bool has_irq_at(const struct imported *im, unsigned int cpu, uint64_t at_ns)
{
	for (guint i = 0; i < im->events->len; i++) {
		const struct trace_event *ev = &g_array_index(im->events, struct trace_event, i);

		if (ev->kind == TRACE_IRQ && ev->cpu == cpu && ev->at_ns == at_ns)
			return true;
	}
	return false;
}

/*
 * exit-cost.txt, t0 = 80 s: cpu 0 wakes 21 times from state 2 by an
 * interrupt 100 us after its entry and leaves idle 10 to 30 us after that
 * interrupt (each once, shuffled): the median exit cost, 20 us, of 21.  Its
 * 3 wakeups from state 1 are too few for a figure; the last wakeup from
 * state 2, only a sched_wakeup from cpu 1, is no interrupt and not counted.
 * The platform's states 1 and 3 keep their own costs.
 * Every wakeup has its interrupt taken the median before its exit, where
 * the CPU ran again: the first (interrupt at 100 us, exit at 110) was
 * quicker, and its irq is at 90 us; the second (interrupt at 260 us, exit
 * at 287) was held up, by 7 us: its irq is at 267 us.  Ten of the 21 took
 * longer than 20 us, by 1 + 2 + ... + 10 = 55 us in all, and ten less, by
 * as much.  Two exits from state 2 show no cause (the CPU runs 65 and 90 us
 * before its next entry): the interrupts the capture missed came the
 * median before the exit, at 4315 us for the exit at 4335, and for the
 * exit at 4410, 10 us after its entry, at the entry (4400 us).
 */
static void test_exit_costs_measured(void **state)
{
	struct platform pl = { .state_count = 4 };
	struct imported im;

	(void)state;
	import_ok("exit-cost.txt", &im);
	assert_false(has_irq_at(&im, 0, 100000));
	assert_true(has_irq_at(&im, 0, 90000));
	assert_false(has_irq_at(&im, 0, 260000));
	assert_true(has_irq_at(&im, 0, 267000));
	assert_true(has_irq_at(&im, 0, 4315000));
	assert_true(has_irq_at(&im, 0, 4400000));
	assert_int_equal(im.counts.unknown_wakeups, 2);
	assert_true(has_note(&im, "of those, from a halting state: 2 "));
	assert_true(has_note(&im, "wakeups held up after their interrupt (left idle later than the "
			     "state's median exit cost): 10, their interrupts taken 55000 ns later"));
	assert_true(has_note(&im, "wakeups quicker than the state's median exit cost: 10, their "
			     "interrupts taken 55000 ns earlier"));
	for (unsigned int i = 0; i < KSHIM_STATE_MAX; i++) {
		assert_int_equal(im.exit_cost_ns[i], i == 2 ? 20000 : 0);
		assert_int_equal(im.exit_cost_samples[i], i == 2 ? 21 : 0);
	}
	assert_true(has_note(&im, "state 2: 20000 ns (of 21 wakeups)"));
	for (unsigned int i = 0; i < pl.state_count; i++)
		pl.states[i].exit_cost_us = 100 + i;
	pl.tick_work_us = 60;
	imported_costs_to(&im, &pl);
	assert_int_equal(pl.tick_work_us, 60);
	assert_int_equal(pl.states[0].exit_cost_us, 100);
	assert_int_equal(pl.states[1].exit_cost_us, 101);
	assert_int_equal(pl.states[2].exit_cost_us, 20);
	assert_int_equal(pl.states[3].exit_cost_us, 103);
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * quick-wakeups.txt, t0 = 30 s, offset 0 (each "now" reads as its
 * timestamp): cpu 0 wakes 21 times from state 2 by an interrupt 100 us
 * after each entry (every 200 us from 0) and leaves idle 20 us after it;
 * then twice by its task's hrtimer, armed at 4150 us for 5000 and at
 * 5050 us for 6000.  The median exit cost of state 2 is 20 us (23
 * wakeups: 8, 10 and 21 of 20).
 * - The first expiry is traced at 5005 us and the CPU leaves idle at 5013,
 *   8 us later: the interrupt goes to 5013 - 20 = 4993 us, but no earlier
 *   than the expiry it was armed for: fires_ns 5000 us.  Its work runs to
 *   the entry at 5100: 87 us.  The arming is written at the wakeup of the
 *   interrupt before it (at 4100 us).
 * - The second is traced at 6030 us, exit at 6040: its interrupt goes to
 *   6040 - 20 = 6020 us.  The arming is written at the wakeup that did it,
 *   now 5000 us.  Work 6040..6100 = 60 us.
 * - 2 wakeups taken earlier, by 5 + 10 = 15 us; the irq wakeups took the
 *   median exactly and stay.
 */
static void test_quick_wakeups_taken_earlier(void **state)
{
	struct imported im;
	guint timers = 0;

	(void)state;
	import_ok("quick-wakeups.txt", &im);
	assert_int_equal(im.exit_cost_ns[2], 20000);
	for (guint i = 0; i < im.events->len; i++) {
		const struct trace_event *ev = &g_array_index(im.events, struct trace_event, i);

		if (ev->kind == TRACE_IRQ)
			assert_int_equal(ev->at_ns % 200000, 100000);
		if (ev->kind != TRACE_TIMER)
			continue;
		assert_int_equal(ev->at_ns, timers ? 5000000 : 4100000);
		assert_int_equal(ev->expires_ns, timers ? 6000000 : 5000000);
		assert_int_equal(ev->fires_ns, timers ? 6020000 : 5000000);
		assert_int_equal(ev->work_ns, timers ? 60000 : 87000);
		timers++;
	}
	assert_int_equal(timers, 2);
	assert_true(has_note(&im, "wakeups quicker than the state's median exit cost: 2, their "
			     "interrupts taken 15000 ns earlier"));
	assert_false(has_note(&im, "wakeups held up"));
	assert_reads_back(&im);
	imported_clear(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_in_hold_up),
		cmocka_unit_test(test_handler_rearm_held_up),
		cmocka_unit_test(test_own_exit_cost),
		cmocka_unit_test(test_held_up_before_expiry),
		cmocka_unit_test(test_unseen_wakeup_after_tick_stop),
		cmocka_unit_test(test_exit_costs_measured),
		cmocka_unit_test(test_quick_wakeups_taken_earlier),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

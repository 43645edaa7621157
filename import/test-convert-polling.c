// SPDX-License-Identifier: GPL-2.0
/*
 * The converter's polling state (convert-polling.c, and the polling limits
 * convert.c counts): its pace, its limits and the host's stops of its
 * loop, on the hand-made captures of import/testdata, each test deriving
 * its expected trace events from the capture as test-convert.c's do.
 */
#include "test-import-helpers.h"

/*
 * poll.txt, t0 = 70 s: cpu 0 polls (state 0) 21 times, each up to the
 * limit (30 to 50 us, in a shuffled order), and idles again 5 us after each
 * exit; then a C1 period of 500 us with no cause in the capture, and C1
 * again 5 us after it.  The median time to the polling limit, 40 us, is
 * the trace's poll_check_ns; the C1 period is no reselect: a halting state
 * is left for an interrupt, one the capture does not show here, which
 * ends the period the kernel's governor counted (an irq at the exit, less
 * no exit cost: too few C1 exits for a median), and wakes no task: the
 * CPU stays in the idle loop (idle_loop=1).
 */
static void test_poll_check_measured(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll.txt", &im);
	text = events_text(&im);
	assert_int_equal(im.header.poll_check_ns, 40000);
	assert_int_equal(im.counts.reselects, 21);
	assert_int_equal(im.counts.unknown_wakeups, 1);
	assert_non_null(strstr(text, "irq at_ns=1445000 cpu=0 work_ns=5000 idle_loop=1\n"));
	assert_true(has_note(&im, "polling limits: 21, the median time to the limit 40000 ns"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-few.txt, t0 = 70 s: cpu 0 polls to the limit five times (60, 30, 50,
 * 45 and 40 us), idling again 5 us after each exit, then C1 for 500 us
 * (a wakeup, not a reselect): five are enough for a median, 45 us.  poll-too-few.txt has the same
 * without the 30 us one: four give none, and the platform's pace stands.
 */
static void test_poll_check_few_limits(void **state)
{
	struct imported im;

	(void)state;
	import_ok("poll-few.txt", &im);
	assert_int_equal(im.counts.reselects, 5);
	assert_int_equal(im.header.poll_check_ns, 45000);
	assert_true(has_note(&im, "polling limits: 5, the median time to the limit 45000 ns"));
	assert_reads_back(&im);
	imported_clear(&im);
	import_ok("poll-too-few.txt", &im);
	assert_int_equal(im.counts.reselects, 4);
	assert_int_equal(im.header.poll_check_ns, 0);
	assert_false(has_note(&im, "polling limits:"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-stalled.txt: poll.txt (21 polling limits, median 40 us, then C1 to
 * 1445 us), then three polling periods of cpu 0, ended by interrupts:
 * - from 2000 us, an irq at 2500 us: 500 us polled, past the median time
 *   to the limit, so the loop was stalled: stalled_ns 500 us, work
 *   2510..3000 = 490 us;
 * - from 3000 us, an irq at 3020 us: 20 us, within it: no stall; work
 *   3030..3100 = 70 us, in which the task arms timer 0xd2 for 4000 us
 *   (written at the wakeup's interrupt, 3020 us);
 * - from 3100 us, that timer's expiry at 4000 us: stalled_ns 900 us on its
 *   record; work 4010..4100 = 90 us.
 * - after C1 from 4100 to 4500 us, from 4600 us, an irq at 4620 us, and
 *   the exit only at 5620 us; work 5620..5700 = 80 us.
 * Too few polling wakeups for an exit cost: a wakeup is held where its
 * exit came more than the loop's pace, 40 us, after its interrupt, which
 * only the last did: held_ns 5620 - 40 - 4620 = 960 us.
 * Each stall has its poll records too, which a record between the entry
 * and the interrupt cannot hide from the simulator: from a pace after the
 * entry, a pace to the interrupt and one more (2040 us: 500 us; 3140 us:
 * 900 us), and the pace of 40 us again at the interrupt.
 */
static void test_stalled_in_poll(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-stalled.txt", &im);
	assert_int_equal(im.header.poll_check_ns, 40000);
	text = events_text(&im);
	assert_non_null(strstr(text, "irq at_ns=2500000 cpu=0 work_ns=490000 stalled_ns=500000\n"));
	assert_non_null(strstr(text, "irq at_ns=3020000 cpu=0 work_ns=70000\n"));
	assert_non_null(strstr(text, "timer at_ns=3020000 cpu=0 id=210 expires_ns=4000000 "
			       "work_ns=90000 stalled_ns=900000\n"));
	assert_non_null(strstr(text, "irq at_ns=4620000 cpu=0 work_ns=80000 held_ns=960000\n"));
	assert_non_null(strstr(text, "poll at_ns=2040000 cpu=0 check_ns=500000\n"));
	assert_non_null(strstr(text, "irq at_ns=2500000 cpu=0 work_ns=490000 stalled_ns=500000\n"
			       "poll at_ns=2500000 cpu=0 check_ns=40000\n"));
	assert_non_null(strstr(text, "poll at_ns=3140000 cpu=0 check_ns=900000\n"));
	assert_non_null(strstr(text, "poll at_ns=4000000 cpu=0 check_ns=40000\n"));
	assert_int_equal(im.exit_cost_samples[0], 0);
	assert_true(has_note(&im, "wakeups from polling held up after their interrupt: 1, held "
			     "960000 ns in all"));
	assert_true(has_note(&im, "polling loops stalled: 2 polling states ended by an interrupt, "
			     "or a wakeup that only set need_resched, later than the median time "
			     "to the limit (with too few limits for one, TICK_NSEC / 8), 1400000 ns"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-resched-stalled.txt: poll.txt's 21 polling limits of cpu 0 (median
 * 40 us, the pace) and C1 to 1445 us, then two polling states that a
 * wakeup which only set need_resched ended, each later than the pace:
 * - from 2000 us, a task woken from cpu 1 at 2300 us (no IPI), the exit
 *   at 2303: 300 us with no limit, so the loop was stalled: stalled_ns
 *   300 us on the irq at the wakeup, remote=1, and poll records from a
 *   pace after the entry (2040 us: 2300 - 2040 + 40 = 300 us) to it;
 * - from 2400 us, the exit at 2600 with need_resched set and the wakeup
 *   traced on cpu 0 after it (no cause in the capture): irq at the exit,
 *   stalled_ns 200 us, records at 2440 us (200 us) and 2600 us.
 */
static void test_stalled_in_poll_by_need_resched(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-resched-stalled.txt", &im);
	assert_int_equal(im.header.poll_check_ns, 40000);
	text = events_text(&im);
	assert_non_null(strstr(text, "poll at_ns=2040000 cpu=0 check_ns=300000\n"
			       "irq at_ns=2300000 cpu=0 work_ns=97000 stalled_ns=300000 remote=1\n"
			       "poll at_ns=2300000 cpu=0 check_ns=40000\n"
			       "poll at_ns=2440000 cpu=0 check_ns=200000\n"
			       "irq at_ns=2600000 cpu=0 work_ns=100000 stalled_ns=200000 remote=1\n"
			       "poll at_ns=2600000 cpu=0 check_ns=40000\n"));
	assert_true(has_note(&im, "polling loops stalled: 2 polling states"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-stalled-no-pace.txt, t0 = 50 s: no polling limit, so no pace; the
 * tick's expiry and four timer_starts place jiffies at HZ 250.  cpu 0
 * polls from 1000 us to an interrupt at 1600 us: 600 us, more than
 * TICK_NSEC / 8 = 500 us, which any 6.x polling loop reaches its limit
 * (at most TICK_NSEC / 16) within: stalled_ns 600 us, and poll records
 * from the entry, whose pace, 600 + 500 us, outlasts the interrupt
 * whatever the simulator's own pace, which the one at the interrupt brings
 * back (check_ns=0).  From 2000 us to one at 2300 us, 300 us: it may have
 * polled that long, no stall.
 */
static void test_stalled_in_poll_without_pace(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-stalled-no-pace.txt", &im);
	assert_int_equal(im.header.poll_check_ns, 0);
	text = events_text(&im);
	assert_non_null(strstr(text, "poll at_ns=1000000 cpu=0 check_ns=1100000\n"
			       "irq at_ns=1600000 cpu=0 work_ns=390000 stalled_ns=600000\n"
			       "poll at_ns=1600000 cpu=0 check_ns=0\n"));
	assert_non_null(strstr(text, "irq at_ns=2300000 cpu=0 work_ns=90000\n"));
	assert_null(strstr(text, "poll at_ns=2000000"));
	assert_true(has_note(&im, "polling loops stalled: 1 polling states ended by an interrupt, "
			     "or a wakeup that only set need_resched, later than the median time "
			     "to the limit (with too few limits for one, TICK_NSEC / 8), 600000 ns"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-limit-stalled.txt, t0 = 70 s: poll.txt's 21 polling limits of cpu 0
 * (median 40 us, the pace), then three more:
 * - from 945 us to its limit at 1145 us, 200 us, more than two paces: the
 *   loop stopped from 985 us (a pace after the entry) until it read the
 *   clock at 1145 us, and the idle loop then took 5 us, less than a pace:
 *   a poll record at 985 us whose pace, 1145 - 985 + 40 = 200 us, no limit
 *   comes at meanwhile, and the pace of 40 us again at 1145 us, where a
 *   simulated CPU polling past its limit stops too;
 * - from 1150 us to 1190 us, one pace, but the next entry only at 1290 us:
 *   records at 1190 us (100 + 40 = 140 us) and at 1290 us (40 us);
 * - from 1290 us to 1330 us and C1 from 1335 us: no stall.
 * The median of the last five times to the limit stays within an eighth
 * of 40 us: no pace record of its own.
 */
static void test_limit_stalled(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("poll-limit-stalled.txt", 1335001, 2,
		"busy at_ns=0 cpu=1 work_ns=1335001\n"
		"poll at_ns=985000 cpu=0 check_ns=200000\n"
		"poll at_ns=1145000 cpu=0 check_ns=40000\n"
		"poll at_ns=1190000 cpu=0 check_ns=140000\n"
		"poll at_ns=1290000 cpu=0 check_ns=40000\n", &im);
	assert_int_equal(im.header.poll_check_ns, 40000);
	assert_int_equal(im.counts.limit_stalls, 2);
	assert_true(has_note(&im, "polling limits held up: 2 reached more than a pace late, or "
			     "followed by more than a pace in the idle loop (with too few limits for "
			     "a pace, TICK_NSEC / 8 after the entry or in the idle loop), 260000 ns "
			     "in all"));
	imported_clear(&im);
}

/*
 * poll-limit-stalled-no-pace.txt: poll-stalled-no-pace.txt's first lines
 * (HZ 250, no polling limit before), then cpu 0, with two limits in all,
 * too few for a pace: any running loop reaches its limit within
 * TICK_NSEC / 8 = 500 us of the entry.
 * - polls from 1000 us to its limit at 1300 us: 300 us, no stall;
 * - from 1305 us to its limit at 1905 us, 600 us, idle again 5 us later:
 *   stopped from the entry to that limit, a poll record at 1305 us whose
 *   pace, 600 + 500 us, no simulated pace reaches a limit at meanwhile,
 *   and one at 1905 us that brings the simulator's own pace back
 *   (check_ns=0);
 * - C1 from 1910 us to an interrupt at 3800 us;
 * - polls from 3900 us, the tick's interrupt at 4457 us, out at 4560 us
 *   with need_resched clear (a limit), C1 from 4570 us: 660 us without a
 *   limit, stopped from the entry to the next entry (670 + 500 us).
 */
static void test_stalled_without_pace(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-limit-stalled-no-pace.txt", &im);
	assert_int_equal(im.header.poll_check_ns, 0);
	text = events_text(&im);
	assert_non_null(strstr(text, "poll at_ns=1305000 cpu=0 check_ns=1100000\n"
			       "poll at_ns=1905000 cpu=0 check_ns=0\n"
			       "irq at_ns=3800000 cpu=0 work_ns=90000\n"
			       "poll at_ns=3900000 cpu=0 check_ns=1170000\n"
			       "poll at_ns=4570000 cpu=0 check_ns=0\n"));
	assert_null(strstr(text, "poll at_ns=1000000"));
	assert_int_equal(im.counts.limit_stalls, 1);
	assert_int_equal(im.counts.limit_stalled_ns, 600000);
	assert_int_equal(im.counts.tick_stalls, 1);
	assert_int_equal(im.counts.tick_stalled_ns, 670000);
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-tick-stalled-end.txt: poll-tick-stalled.txt up to the exit at
 * 1360 us, where the capture ends before the next entry: the stop is
 * written all the same, from 1085 us to the end (1360 us + 1 ns), whose
 * pace is 1360001 - 1085000 + 40000 ns.
 */
static void test_stalled_to_tick_at_end(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-tick-stalled-end.txt", &im);
	text = events_text(&im);
	assert_non_null(strstr(text, "poll at_ns=1085000 cpu=0 check_ns=315001\n"
			       "poll at_ns=1360001 cpu=0 check_ns=40000\n"));
	assert_int_equal(im.counts.tick_stalls, 1);
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-tick-stalled.txt, t0 = 70 s: poll.txt's 21 polling limits of cpu 0
 * (median 40 us, the pace), then two polling states that the tick's
 * interrupt ended:
 * - from 945 us, the tick at 1000 us, within two paces of the entry, and
 *   the exit at 1040 us: the loop ran; no records;
 * - from 1045 us, the tick only at 1345 us, more than two paces after the
 *   entry, its softirq waking rcu_sched; the exit at 1360 us, C1 from
 *   1400 us: no limit came before the tick, so the loop was stopped from
 *   a pace after the entry at the latest, 1085 us: a poll record there
 *   whose pace, 1400 - 1085 + 40 = 355 us, no limit comes at before the
 *   next entry, and the pace of 40 us again at 1400 us.
 * The tick's work is dropped either way; rcu_sched's switch to the idle
 * task at 1380 us is an idle record.
 */
static void test_stalled_to_tick(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("poll-tick-stalled.txt", 1400001, 2,
		"busy at_ns=0 cpu=1 work_ns=1400001\n"
		"poll at_ns=1085000 cpu=0 check_ns=355000\n"
		"idle at_ns=1380000 cpu=0\n"
		"poll at_ns=1400000 cpu=0 check_ns=40000\n", &im);
	assert_int_equal(im.counts.tick_wakeups, 2);
	assert_int_equal(im.counts.tick_stalls, 1);
	assert_int_equal(im.counts.limit_stalls, 0);
	assert_true(has_note(&im, "polling states held up to the tick: 1 took the tick's interrupt "
			     "more than two paces after the entry (with too few limits for a pace, "
			     "left the state more than TICK_NSEC / 8 after it), with no limit before "
			     "it, 315000 ns"));
	imported_clear(&im);
}

/*
 * poll-pace.txt, t0 = 70 s: cpu 0 polls to the limit 30 times, idling
 * again 5 us after each exit: 20 times in 40 us (entries every 45 us),
 * then 10 times in 60 us (entries from 900 us, every 65 us).  The median,
 * 40 us, is the header's pace; the median of the last five times to the
 * limit stays 40 us until the third 60 us one, whose entry (900 + 2 * 65
 * = 1030 us) starts the 60 us pace: one poll record.
 */
static void test_poll_pace(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-pace.txt", &im);
	assert_int_equal(im.header.poll_check_ns, 40000);
	assert_int_equal(im.counts.poll_records, 1);
	text = events_text(&im);
	assert_non_null(strstr(text, "poll at_ns=1030000 cpu=0 check_ns=60000\n"));
	assert_true(has_note(&im, "polling pace: 1 poll records"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-late-limit.txt, t0 = 30 s, cpu 0 polling: an exit at 30 us with
 * need_resched clear ('.' second in the flags) and the next entry 30 us
 * later, past the 20 us window: a polling limit all the same, dropped; an
 * exit at 90 us with it set ('N'): a wakeup of unknown cause, an irq there
 * with work to the entry at 120 us, remote=1 as it left the polling state;
 * an exit at 150 us with it clear but a task woken on cpu 0 at 160 us
 * before the entry at 220 us: the CPU ran it, an irq at 150 us with 70 us
 * of work, remote=1 (its only cause is a wakeup from cpu 1).
 */
static void test_late_polling_limit(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-late-limit.txt", &im);
	assert_int_equal(im.counts.reselects, 1);
	assert_int_equal(im.counts.late_reselects, 1);
	assert_int_equal(im.counts.reselect_ns, 30000);
	text = events_text(&im);
	assert_null(strstr(text, "irq at_ns=30000 "));
	assert_non_null(strstr(text, "irq at_ns=90000 cpu=0 work_ns=30000 remote=1\n"));
	assert_non_null(strstr(text, "irq at_ns=150000 cpu=0 work_ns=70000 remote=1\n"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-tick.txt, t0 = 20 s, offset 0: cpu 0 polls (state 0) every 100 us.
 * The first 21 periods end by an interrupt 50 us in, and the CPU leaves
 * 10 us after it; in the next 30 the tick's interrupt comes 5 us in and
 * the CPU leaves 40 us after it.  A polling state takes the tick and
 * polls on: those 30 exits cost the tick nothing, and state 0's exit cost
 * is the median of the 21 others, 10 us (with them it would be 40 us, of
 * 51).
 */
static void test_poll_exit_cost_without_the_tick(void **state)
{
	struct imported im;

	(void)state;
	import_ok("poll-tick.txt", &im);
	assert_int_equal(im.exit_cost_ns[0], 10000);
	assert_int_equal(im.exit_cost_samples[0], 21);
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * poll-held.txt, t0 = 20 s, offset 0: cpu 0 polls (state 0) every 100 us
 * and leaves 10 us after an interrupt 50 us in, 21 times: state 0's exit
 * cost is 10 us (23 wakeups: those and 120 and 70 us).  Then:
 * - the task's timer, armed at 2080 us (written at the interrupt of that
 *   wakeup, 2050 us) for 2500 us, expires at 2505 us while the CPU polls
 *   from 2100 us, and the CPU leaves at 2625 us, 120 us after it: the
 *   interrupt stays where it came (fires_ns 2505 us) and holds the CPU up
 *   120 - 10 = 110 us.  Work 2625..2700 = 75 us.
 * - an irq at 2800 us while it polls from 2700 us, exit at 2870 us: held
 *   70 - 10 = 60 us; work 2870..2900 = 30 us.
 * Two held, 170 us in all.
 */
static void test_held_in_poll(void **state)
{
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ok("poll-held.txt", &im);
	assert_int_equal(im.exit_cost_ns[0], 10000);
	text = events_text(&im);
	assert_non_null(strstr(text, "timer at_ns=2050000 cpu=0 id=209 expires_ns=2500000 "
			       "fires_ns=2505000 work_ns=75000 held_ns=110000\n"));
	assert_non_null(strstr(text, "irq at_ns=2800000 cpu=0 work_ns=30000 held_ns=60000\n"));
	assert_non_null(strstr(text, "irq at_ns=1950000 cpu=0 work_ns=40000\n"));
	assert_true(has_note(&im, "wakeups from polling held up after their interrupt: 2, held "
			     "170000 ns in all"));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * The same capture without its sched_wakeup events: a wakeup without an
 * interrupt would not show, so the exit at 1130 is taken as a wakeup with
 * no cause: an irq there, with the 4 µs to the next entry as its work, and
 * remote=1, as the CPU was polling.
 */
static void test_polling_limit_needs_wakeups(void **state)
{
	g_autofree char *orig = testdata("kernel-timing.txt");
	g_autofree char *text = NULL;
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *events = NULL;
	struct imported im;
	struct capture c;
	char *wakeup;

	(void)state;
	assert_true(g_file_get_contents(orig, &text, NULL, &error));
	wakeup = strstr(text, "sched_wakeup:");
	assert_non_null(wakeup);
	for (; wakeup; wakeup = strstr(wakeup, "sched_wakeup:"))
		memcpy(wakeup, "foo_event:", strlen("foo_event:"));
	path = test_write(dir, "no-wakeups.txt", text, -1);
	assert_true(capture_load(path, &c, &error));
	assert_true(import_convert(&c, NULL, &im, &error));
	events = events_text(&im);
	assert_non_null(strstr(events, "irq at_ns=1130000 cpu=0 work_ns=4000 remote=1\n"));
	assert_int_equal(im.counts.reselects, 0);
	assert_int_equal(im.counts.unknown_wakeups, 1);
	assert_true(has_note(&im, "without sched_wakeup events"));
	imported_clear(&im);
	capture_clear(&c);
	test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poll_check_measured),
		cmocka_unit_test(test_poll_check_few_limits),
		cmocka_unit_test(test_poll_exit_cost_without_the_tick),
		cmocka_unit_test(test_held_in_poll),
		cmocka_unit_test(test_stalled_in_poll),
		cmocka_unit_test(test_stalled_in_poll_without_pace),
		cmocka_unit_test(test_stalled_without_pace),
		cmocka_unit_test(test_limit_stalled),
		cmocka_unit_test(test_stalled_in_poll_by_need_resched),
		cmocka_unit_test(test_stalled_to_tick_at_end),
		cmocka_unit_test(test_stalled_to_tick),
		cmocka_unit_test(test_poll_pace),
		cmocka_unit_test(test_late_polling_limit),
		cmocka_unit_test(test_polling_limit_needs_wakeups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

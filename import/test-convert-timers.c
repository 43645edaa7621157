// SPDX-License-Identifier: GPL-2.0
/*
 * The converter's timers (convert-timers.c): hrtimers, timer-wheel timers
 * and the tick's interrupts, on the hand-made captures of import/testdata,
 * each test deriving its expected trace events from the capture as
 * test-convert.c's do.
 */
#include "test-import-helpers.h"

/*
 * no-start.txt, t0 = 40.000000 s, no hrtimer_start at all: timer
 * deadbeef expires at 2001 and 4002 µs.  Each expiry becomes a timer
 * inferred to be armed at the idle entry before it (0, then 2050), with
 * its own id from 2^40, and the work to the next entry: 2000..2050 = 50,
 * 4000..4052 = 52 µs.
 */
static void test_timers_inferred_from_expiries(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("no-start.txt", 4052001, 1,
		"timer at_ns=0 cpu=0 id=1099511627776 expires_ns=2001000 work_ns=50000\n"
		"timer at_ns=2050000 cpu=0 id=1099511627777 expires_ns=4002000 work_ns=52000\n", &im);
	assert_int_equal(im.counts.inferred_timers, 2);
	assert_true(has_note(&im, "no hrtimer_start events: next-timer knowledge is inferred "
			     "from expiries"));
	imported_clear(&im);
}

/*
 * timers.txt, t0 = 60.000000 s:
 * - a1 armed by cpu 0 at 0 for 500 µs, cancelled at 10 (a real cancel:
 *   no expiry follows it on cpu 0), re-armed at 20 for 600 µs; it expires
 *   on cpu 1 (at 602), so that arming is put on cpu 1.
 * - cpu 1 exits at 601, a1's cancel + expiry at 602 (fires_ns): the
 *   timer's work is 601..700 = 99 µs.
 * - b2 is armed for 1764000000 s: a CLOCK_REALTIME timer, left out.
 * - cpu 0 runs 0..30 then idles; the hrtimer_cancel of c3 at 801 is of a
 *   timer never armed in the trace: left out; irq at 800, work to 900.
 * - d4 is the tick (tick_sched_timer), restarted at 850 and cancelled at
 *   860: neither is written nor counted as a skipped cancel.
 */
static void test_timer_rules(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("timers.txt", 900001, 2,
		"timer at_ns=0 cpu=0 id=161 expires_ns=500000\n"
		"busy at_ns=0 cpu=0 work_ns=30000\n"
		"cancel at_ns=10000 cpu=0 id=161\n"
		"timer at_ns=20000 cpu=1 id=161 expires_ns=600000 fires_ns=602000 work_ns=99000\n"
		"irq at_ns=800000 cpu=0 work_ns=100000\n", &im);
	assert_int_equal(im.counts.other_clock_timers, 1);
	assert_int_equal(im.counts.skipped_cancels, 1);
	imported_clear(&im);
}

/*
 * tick.txt, t0 = 50 s, the hrtimer clock reads as the trace clock (offset
 * 0): cpu 0's tick, armed at 10 us for the boundary at 4 ms, expires at
 * 4.9 ms: a tick record at 4 ms that fires at 4.9 ms.  Its re-arming for
 * 8 ms never expires in the capture, and cpu 1's tick expiry at 2 ms has
 * no arming in it: neither gives a record.  The tick's wakeup of cpu 0 at
 * 4.95 ms is dropped as ever (the simulator runs its own tick).
 */
static void test_tick_records(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("tick.txt", 4960001, 2,
		"tick at_ns=4000000 cpu=0 fires_ns=4900000\n", &im);
	assert_int_equal(im.clock_offset_ns, 0);
	assert_int_equal(im.header.mono_ns, 50000000000);
	assert_int_equal(im.counts.tick_wakeups, 1);
	imported_clear(&im);
}

/*
 * tick-past.txt, t0 = 50 s, offset 0: cpu 0, in C1 with its tick stopped,
 * is woken by an interrupt at 10.2 ms; before it polls from 10.31 ms its
 * stopped tick is armed for the 8 ms boundary, passed (a wheel timer
 * already due: basemono), and the interrupt comes at 11 ms.  The record
 * keeps the boundary the tick was armed for, 8 ms, not the arming time,
 * 10.3 ms: the simulator's stopped tick is armed for that boundary then.
 * The interrupt's work runs from the exit at 10.21 ms to 10.31 ms.
 */
static void test_tick_armed_for_passed_boundary(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("tick-past.txt", 11050001, 1,
		"tick at_ns=8000000 cpu=0 fires_ns=11000000\n"
		"irq at_ns=10200000 cpu=0 work_ns=100000\n", &im);
	imported_clear(&im);
}

/*
 * tick-withdrawn.txt, t0 = 50 s, offset 0: two ticks whose interrupt never
 * came, and one that did.
 * - cpu 1's tick, armed for the boundary at 2 ms, has not expired when an
 *   interrupt wakes the CPU at 2.29 ms; the tick is re-armed for 6 ms at
 *   2.3 ms: a record at 2 ms that comes at 2.3 ms (the kernel counted the
 *   2 ms tick pending until then).
 * - cpu 0 polls with its tick armed for 4 ms; an IPI wakes it at 4.6 ms
 *   and its tick is cancelled at 4.65 ms, never expired: a record at 4 ms
 *   that comes at 4.65 ms.
 * - cpu 1's tick for 6 ms expires at 6.01 ms (the cancel traced with it is
 *   the expiry's own): a record at 6 ms that comes at 6.01 ms, as ever.
 * - cpu 0's tick, re-armed at 6.5 ms for 8 ms, has not expired when the
 *   capture ends at 9 ms: a record at 8 ms that comes at the end, 9 ms and
 *   1 ns (the kernel counted the tick pending to the end).
 */
static void test_tick_withdrawn(void **state)
{
	static const uint64_t expected[][3] = {
		{ 1, 2000000, 2300000 }, { 0, 4000000, 4650000 }, { 1, 6000000, 6010000 },
		{ 0, 8000000, 9000001 },
	};
	struct imported im;
	guint ticks = 0;

	(void)state;
	import_ok("tick-withdrawn.txt", &im);
	for (guint i = 0; i < im.events->len; i++) {
		const struct trace_event *ev = &g_array_index(im.events, struct trace_event, i);

		if (ev->kind != TRACE_TICK)
			continue;
		assert_true(ticks < G_N_ELEMENTS(expected));
		assert_int_equal(ev->cpu, expected[ticks][0]);
		assert_int_equal(ev->at_ns, expected[ticks][1]);
		assert_int_equal(ev->fires_ns, expected[ticks][2]);
		ticks++;
	}
	assert_int_equal(ticks, G_N_ELEMENTS(expected));
	assert_int_equal(im.counts.ticks_withdrawn, 2);
	assert_true(has_note(&im, "ticks whose interrupt never came: 2 "));
	assert_int_equal(im.counts.ticks_pending_at_end, 1);
	assert_true(has_note(&im, "ticks still due at the capture's end: 1 "));
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * wheel.txt, t0 = 50 s, hrtimer clock offset 0 (the tick's expiry at 0),
 * so mono_ns 50 s: at HZ 250 the boundary of jiffy J is at trace time
 * (J - base) * 4 ms - 50 s.  Every timer-wheel event tells jiffies: the
 * four timer_starts 4294900000 (expires less timeout) at 50.00001 to
 * 50.00004 s, the expiries 4294900004 at 50.016051 s, 4294900025 at
 * 50.10001 to 50.10003 s and 4294900104 at 50.4161 s: all nine agree on
 * base = 4294900000 - 50 s / 4 ms = 4294887500 at HZ 250 (at HZ 300 the
 * last disagrees, at 100 and 1000 the expiries do).
 * - a1 (cpu 0, level 0, 6.1's format): bucket expires + 1 = 4294900004,
 *   12504 ticks: 50.016 s, trace 16 ms; armed at 10 us.
 * - a2 is deferrable: left out.
 * - a3 (6.12's format, bucket_expiry 4294900104, on cpu 1's base though
 *   cpu 0 armed it): 12604 ticks, trace 416 ms.
 * - a4 (level 1, idx 70 / 64, 6.1's format): ((expires >> 3) + 1) << 3 =
 *   4294900056, 12556 ticks, trace 224 ms; cancelled at 5 ms, before it.
 * - a1's cancel at 16.05 ms is its expiry's (after its boundary): none.
 * - cpu 1, idle from 105 us, programs its stopped tick for 100 ms (more
 *   than a tick ahead), which comes at 100.005 ms: a tick record.
 * - a5 expires at 100.01 ms with no arming in the capture: armed before
 *   it, so at 0, on cpu 1 that expires it, due at its baseclk 4294900025,
 *   12525 ticks: 100 ms, for which cpu 1's stopped tick was programmed.
 *   a6 expires at the same jiffy on cpu 0, whose tick was programmed for
 *   no such boundary: left out.  a2's expiry is a deferrable timer's:
 *   none.
 * - cpu 0, idle again from 20.1 ms, programs its stopped tick for 1 s, past
 *   the capture's end and due for no timer the capture shows: a timer
 *   armed before the capture, at 0, with the first id of its kind.
 * - busy: cpu 0 0..100 us, cpu 1 from its first event, 40 us, to 105 us;
 *   cpu 0's exit at 20 ms without a cause: irq, work to 20.1 ms.
 */
static void test_wheel_timers(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("wheel.txt", 416100001, 2,
		"busy at_ns=0 cpu=0 work_ns=100000\n"
		"wheel at_ns=0 cpu=0 id=2199023255552 expires_ns=1000000000\n"
		"wheel at_ns=0 cpu=1 id=165 expires_ns=100000000\n"
		"wheel at_ns=10000 cpu=0 id=161 expires_ns=16000000\n"
		"wheel at_ns=30000 cpu=1 id=163 expires_ns=416000000\n"
		"wheel at_ns=40000 cpu=1 id=164 expires_ns=224000000\n"
		"busy at_ns=40000 cpu=1 work_ns=65000\n"
		"cancel at_ns=5000000 cpu=1 id=164\n"
		"irq at_ns=20000000 cpu=0 work_ns=100000\n"
		"tick at_ns=100000000 cpu=1 fires_ns=100005000\n", &im);
	assert_int_equal(im.header.mono_ns, 50000000000);
	assert_int_equal(im.counts.wheel_timers, 3);
	assert_int_equal(im.counts.inferred_wheel_timers, 1);
	assert_int_equal(im.counts.unknown_wheel_expiries, 1);
	assert_int_equal(im.counts.unseen_wheel_timers, 1);
	assert_int_equal(im.counts.deferrable_timers, 1);
	assert_int_equal(im.counts.unplaced_wheel_timers, 0);
	assert_int_equal(im.counts.skipped_cancels, 0);
	imported_clear(&im);
}

/*
 * wheel-work.txt, t0 = 50 s, HZ 250 from jiffy 4294887500 at 0 (as
 * wheel.txt): both CPUs go idle in C1 with their ticks stopped, programmed
 * for their wheel timers' boundaries.
 * - cpu 0's timer (b1, expires 4294900003, bucket 4294900004: 16 ms) runs
 *   in the tick's softirq at 16 ms and its callback wakes a kworker on the
 *   CPU, which runs from the exit at 16.02 ms to the entry at 16.52 ms:
 *   those 500 us are b1's work, not the tick's.
 * - cpu 1's timer (b2, bucket 4294900005: 20 ms) runs at 20 ms and wakes
 *   nothing: the 80 us to the next entry are the tick's, dropped.
 */
static void test_wheel_timer_work(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("wheel-work.txt", 20100001, 2,
		"busy at_ns=0 cpu=0 work_ns=100000\n"
		"wheel at_ns=10000 cpu=0 id=177 expires_ns=16000000 work_ns=500000\n"
		"wheel at_ns=30000 cpu=1 id=178 expires_ns=20000000\n"
		"busy at_ns=30000 cpu=1 work_ns=75000\n"
		"tick at_ns=16000000 cpu=0 fires_ns=16005000\n"
		"tick at_ns=20000000 cpu=1 fires_ns=20005000\n", &im);
	assert_int_equal(im.counts.tick_wakeups, 2);
	assert_int_equal(im.counts.wheel_work_wakeups, 1);
	assert_int_equal(im.counts.wheel_work_ns, 500000);
	assert_int_equal(im.counts.tick_busy_ns, 80000);
	imported_clear(&im);
}

/*
 * wheel-untraced-work.txt, t0 = 50 s, HZ 250 as wheel.txt: both CPUs go
 * idle in C1, their ticks stopped and programmed for 20 ms (jiffy
 * 4294900005); at 20 ms each tick runs a wheel timer the trace leaves out,
 * whose callback wakes a kworker:
 * - cpu 0's c1 is deferrable (flags D), armed for jiffy 4294900003, so
 *   its bucket's 4294900004 (16 ms) passed while the tick was stopped;
 * - cpu 1's d1 was armed before the capture, its base's jiffy 4294900003
 *   (12 ms), for which no stopped tick was programmed.
 * Each is written after all, armed at its CPU's idle entry (100 and
 * 105 us), due at the tick that ran it (20 ms), with the work from the
 * exit at 20.02 ms to the next entry: 500 us (cpu 0), 300 us (cpu 1).
 * cpu 1's c3 (44 ms) is written as ever.
 */
static void test_untraced_wheel_timer_work(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("wheel-untraced-work.txt", 20520001, 2,
		"busy at_ns=0 cpu=0 work_ns=100000\n"
		"wheel at_ns=30000 cpu=1 id=195 expires_ns=44000000\n"
		"busy at_ns=30000 cpu=1 work_ns=75000\n"
		"wheel at_ns=100000 cpu=0 id=3298534883329 expires_ns=20000000 work_ns=500000\n"
		"wheel at_ns=105000 cpu=1 id=3298534883328 expires_ns=20000000 work_ns=300000\n"
		"tick at_ns=20000000 cpu=1 fires_ns=20005000\n"
		"tick at_ns=20000000 cpu=0 fires_ns=20005000\n", &im);
	assert_int_equal(im.counts.tick_wakeups, 2);
	assert_int_equal(im.counts.untraced_wheel_wakeups, 2);
	assert_int_equal(im.counts.untraced_wheel_ns, 800000);
	assert_int_equal(im.counts.tick_busy_ns, 0);
	assert_int_equal(im.counts.deferrable_timers, 1);
	assert_int_equal(im.counts.unknown_wheel_expiries, 1);
	imported_clear(&im);
}

/*
 * tick-after-end.txt, t0 = 50 s, offset 0: the tick armed for the boundary
 * at 4 ms expires at 3.5 ms (early, as the hrtimer clock allows), and the
 * capture ends there (end_ns 3.5 ms + 1).  The boundary is past the end, so
 * the simulation never reaches it: no tick record, whose at_ns would be
 * after end_ns and the trace unreadable.
 */
static void test_tick_boundary_after_end(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("tick-after-end.txt", 3500001, 1, "", &im);
	assert_int_equal(im.clock_offset_ns, 0);
	imported_clear(&im);
}

/*
 * A timer re-armed by another CPU while the trace still has it armed on
 * the first: the converter cancels it there first, as the reader
 * requires.  cpu 0 arms t at 0 for 1000 µs and that arming is never seen
 * to expire; cpu 1 re-arms it at 100 for 2000 µs (its cancel was lost).
 */
static void test_rearm_elsewhere_cancels_first(void **state)
{
	static const char text[] =
		"  a-1 [000] d..1.  5.000000: hrtimer_start: hrtimer=00000000000000f1 function=f "
		"expires=5001000000 softexpires=5001000000 mode=ABS\n"
		"  <idle>-0 [000] d..1.  5.000050: cpu_idle: state=1 cpu_id=0\n"
		"  b-2 [001] d..1.  5.000100: hrtimer_start: hrtimer=00000000000000f1 function=f "
		"expires=5002000000 softexpires=5002000000 mode=ABS\n"
		"  <idle>-0 [001] d..1.  5.000150: cpu_idle: state=1 cpu_id=1\n";
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "rearm.txt", text, -1);
	g_autoptr(GError) error = NULL;
	g_autofree char *events = NULL;
	struct imported im;
	struct capture c;

	(void)state;
	assert_true(capture_load(path, &c, &error));
	assert_true(import_convert(&c, NULL, &im, &error));
	events = events_text(&im);
	assert_string_equal(events,
		"timer at_ns=0 cpu=0 id=241 expires_ns=1000000\n"
		"busy at_ns=0 cpu=0 work_ns=50000\n"
		"cancel at_ns=100000 cpu=0 id=241\n"
		"timer at_ns=100000 cpu=1 id=241 expires_ns=2000000\n"
		"busy at_ns=100000 cpu=1 work_ns=50000\n");
	assert_reads_back(&im);
	imported_clear(&im);
	capture_clear(&c);
	test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timers_inferred_from_expiries),
		cmocka_unit_test(test_timer_rules),
		cmocka_unit_test(test_tick_records),
		cmocka_unit_test(test_tick_withdrawn),
		cmocka_unit_test(test_tick_armed_for_passed_boundary),
		cmocka_unit_test(test_wheel_timers),
		cmocka_unit_test(test_wheel_timer_work),
		cmocka_unit_test(test_untraced_wheel_timer_work),
		cmocka_unit_test(test_tick_boundary_after_end),
		cmocka_unit_test(test_rearm_elsewhere_cancels_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

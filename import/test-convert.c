// SPDX-License-Identifier: GPL-2.0
/*
 * From capture to workload trace, on the hand-made captures of
 * import/testdata.  Each test states the expected trace events and how
 * they follow from the capture (times relative to the capture's first
 * timestamp, in µs where the derivation is easier to read).  Every
 * imported trace must also read back through the trace reader, whose
 * rules (time order, timers armed on one CPU, cancels of armed timers
 * only) the converter must keep.
 */
#include "test-import-helpers.h"
#include "trace-write.h"

/* The events as trace-file lines, the format the expectations are written in. */
static char *events_text(const struct imported *im)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (guint i = 0; i < im->events->len; i++)
		trace_write_event(f, &g_array_index(im->events, struct trace_event, i));
	fclose(f);
	return text;
}

static void assert_reads_back(const struct imported *im)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = g_build_filename(dir, "imported.trace", NULL);
	g_autoptr(GError) error = NULL;
	struct trace_reader *r;
	const struct trace_event *ev;
	FILE *f = fopen(path, "w");
	int ret;

	assert_non_null(f);
	imported_write(f, im, "capture");
	assert_int_equal(fclose(f), 0);
	r = trace_open(path, &error);
	if (!r)
		fail_msg("%s", error->message);
	while ((ret = trace_next(r, &ev, &error)) > 0)
		;
	if (ret < 0)
		fail_msg("the imported trace does not read back: %s", error->message);
	trace_close(r);
	test_rmtree(dir);
}

static void assert_imports_to(const char *capture, uint64_t end_ns, unsigned int cpus,
			      const char *expected, struct imported *im)
{
	g_autofree char *text = NULL;

	import_ok(capture, im);
	text = events_text(im);
	assert_string_equal(text, expected);
	assert_int_equal(im->header.end_ns, end_ns);
	assert_int_equal(im->header.nr_cpus, cpus);
	assert_reads_back(im);
}

/*
 * basic.txt, t0 = 100.000000 s:
 * - cpu 0 runs sshd at 0 (hrtimer_start of ffff0001 for 100.001000 s:
 *   timer at 0, expires 1000 µs) and goes idle at 10: busy 0..10.
 * - It leaves idle at 1005; the hrtimer_cancel + hrtimer_expire_entry
 *   pair at 1006 is that timer's expiry (not a cancellation), traced 6 µs
 *   after the timer's expires: fires_ns 1006 µs.  The busy time to the
 *   next entry, 1005..1206 = 201 µs, is the timer's work.
 * - Exit at 1306, irq_handler_entry at 1307: irq at 1306, work to the
 *   entry at 1407 = 101 µs.  Its handler wakes a task on cpu 1, none on
 *   cpu 0, which stays in the idle loop: idle_loop=1.
 * - Exit at 2000 woken by tick_sched_timer: dropped, 2000..2003 = 3 µs.
 * - cpu 1's first event is an exit at 500 (the capture starts while it is
 *   idle); ipi_entry at 501: irq at 500, work to 800 = 300 µs.
 * - cpu 1 is idle from 800; cpu 0's sched_wakeup for it at 1400 is the
 *   only cause of its exit at 1500: an irq at the wakeup, 1400, and the
 *   work from the exit to the entry, 1500..1600 = 100 µs; no IPI is seen,
 *   so it is a wakeup by need_resched (remote=1).
 *   (cpu 1's wakeup of cpu 0 at 700 is overridden by cpu 0's own expiry.)
 * - end: the last line (foo_event) at 3000 µs, + 1 ns.
 */
static void test_basic(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("basic.txt", 3000001, 2,
		"timer at_ns=0 cpu=0 id=4294901761 expires_ns=1000000 fires_ns=1006000 "
		"work_ns=201000\n"
		"busy at_ns=0 cpu=0 work_ns=10000\n"
		"irq at_ns=500000 cpu=1 work_ns=300000\n"
		"irq at_ns=1306000 cpu=0 work_ns=101000 idle_loop=1\n"
		"irq at_ns=1400000 cpu=1 work_ns=100000 remote=1\n", &im);
	assert_int_equal(im.counts.timer_wakeups, 1);
	assert_int_equal(im.counts.irq_wakeups, 2);
	assert_int_equal(im.counts.remote_wakeups, 1);
	assert_int_equal(im.counts.tick_wakeups, 1);
	assert_int_equal(im.counts.tick_busy_ns, 3000);
	assert_int_equal(im.counts.unknown_wakeups, 0);
	assert_int_equal(im.clock_offset_ns, 0);
	assert_true(has_note(&im, "CPUs idle when the capture started: 1"));
	assert_true(has_note(&im, "no tick_stop events"));
	assert_true(has_note(&im, "events not used: foo_event (1), hrtimer_expire_exit (1)"));
	imported_clear(&im);
}

/*
 * poll-remote.txt, t0 = 300.000000 s: wakeups with no interrupt of their
 * own are marked remote=1, the others are not.
 * - cpu 0 polls from 0; cpu 1 wakes a task on it at 100 (sched_wakeup on
 *   cpu 1, no IPI): it leaves at 103.  irq at the wakeup, 100, remote; its
 *   work runs 103..130 = 27 µs.
 * - It polls from 130 and leaves at 200 with need_resched set; the wakeup
 *   is traced on cpu 0 itself at 202, as it runs the waker's queued
 *   wakeup: no cause in the capture, from the polling state: irq at the
 *   exit, 200, remote; work 200..230 = 30 µs.
 * - The same from C1 at 230..300: a halting CPU needs an interrupt, which
 *   the capture does not show: irq at 300, not remote; work 300..330.
 * - cpu 1 never goes idle: busy from its first event, 100..400 µs.
 */
static void test_need_resched_wakeups(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("poll-remote.txt", 400001, 2,
		"irq at_ns=100000 cpu=0 work_ns=27000 remote=1\n"
		"busy at_ns=100000 cpu=1 work_ns=300001\n"
		"irq at_ns=200000 cpu=0 work_ns=30000 remote=1\n"
		"irq at_ns=300000 cpu=0 work_ns=30000\n", &im);
	assert_int_equal(im.counts.remote_wakeups, 1);
	assert_int_equal(im.counts.unknown_wakeups, 2);
	assert_int_equal(im.counts.need_resched_wakeups, 2);
	assert_true(has_note(&im, "woken with no interrupt of their own: 2"));
	imported_clear(&im);
}

/*
 * never-idle.txt, t0 = 50.000000 s, "#P:3":
 * - cpu 1 has events (0 and 1000 µs) but never a cpu_idle: busy from its
 *   first event to the end, 0 .. 1000 µs + 1 ns.
 * - cpu 0 enters idle at 100 (its first event: nothing before is known),
 *   exits at 400 for irq 30: irq at 400, work to 600 = 200 µs.
 * - cpu 2 has no events: nothing, and a note.
 */
static void test_never_idle(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("never-idle.txt", 1000001, 3,
		"busy at_ns=0 cpu=1 work_ns=1000001\n"
		"irq at_ns=400000 cpu=0 work_ns=200000\n", &im);
	assert_true(has_note(&im, "CPUs that never went idle: 1"));
	assert_true(has_note(&im, "CPUs without any event: 1"));
	imported_clear(&im);
}

/*
 * out-of-order.txt, t0 = 10.000050 s (cpu 1's first line, which comes
 * after cpu 0's block): cpu 1 exits at 300 - 50 = 250 µs, irq, work to
 * 500 - 50 = 450: 200 µs; cpu 0 exits at 900 - 50 = 850, irq, work to
 * 1000 - 50 = 950: 100 µs.  end = 950 µs + 1 ns.
 */
static void test_out_of_order(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("out-of-order.txt", 950001, 2,
		"irq at_ns=250000 cpu=1 work_ns=200000\n"
		"irq at_ns=850000 cpu=0 work_ns=100000\n", &im);
	assert_true(has_note(&im, "events out of time order in the capture: 1 (sorted)"));
	imported_clear(&im);
}

/*
 * lost.txt, t0 = 20.000000 s: exit at 1000, irq, work to 1100; idle again
 * at 1100; events lost; the next event is an exit at 5000: the CPU is
 * taken as idle through the gap, irq at 5000 with work to 5200; exit at
 * 6200, irq, work to 6300.  end = 6300 µs + 1 ns.
 */
static void test_lost_events(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("lost.txt", 6300001, 1,
		"irq at_ns=1000000 cpu=0 work_ns=100000\n"
		"irq at_ns=5000000 cpu=0 work_ns=200000\n"
		"irq at_ns=6200000 cpu=0 work_ns=100000\n", &im);
	assert_true(has_note(&im, "lost-events markers: 1"));
	imported_clear(&im);
}

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
 * idle-switch.txt, t0 = 50 s: cpu 1's task switches to the idle task at
 * 0, before cpu 1's first idle entry, so nothing says it was running: no
 * record (its first 10 us are busy time, as ever).  cpu 0, woken by an
 * interrupt at 990 us, leaves C1E at 1 ms and switches to sshd at 1.005
 * ms (not to idle: no record); sshd switches to the idle task at 1.2 ms,
 * while cpu 0 runs: an idle record there.  The work runs to the entry at
 * 1.23 ms, 230 us from the exit, as it would without the switch.
 */
static void test_idle_switch(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("idle-switch.txt", 2000001, 2,
		"busy at_ns=0 cpu=1 work_ns=10000\n"
		"irq at_ns=990000 cpu=0 work_ns=230000\n"
		"idle at_ns=1200000 cpu=0\n"
		"irq at_ns=2000000 cpu=1 work_ns=1\n", &im);
	assert_int_equal(im.counts.idle_switches, 1);
	assert_true(has_note(&im, "switches to the idle task: 1 "));
	imported_clear(&im);
}

/*
 * aborted-select.txt, t0 = 60 s, one CPU: woken by eth0 at 990 us, it
 * leaves C1 at 1 ms and runs ping, which goes back to the idle task four
 * times.  At 1.2 ms the idle loop stops the tick (1.25 ms) and gives way to
 * ping at 1.3 ms with no state entered: aborted.  At 1.5 ms it gives way at
 * 1.56 ms with no interrupt and no tick stop: aborted too (the task was
 * woken without one).  At 1.7 ms eth0's interrupt at 1.71 ms wakes ping
 * before any select: not aborted.  At 1.9 ms C1 is entered at 1.93 ms:
 * the work runs 1 to 1.93 ms, 930 us, which a tick stop of 40 us does not
 * cut: that loop stopped no tick (the stop at 1.25 ms was its own loop's).
 */
static void test_aborted_select(void **state)
{
	g_autoptr(GError) error = NULL;
	struct imported im;
	struct capture c;

	(void)state;
	assert_imports_to("aborted-select.txt", 3000001, 1,
		"irq at_ns=990000 cpu=0 work_ns=930000\n"
		"idle at_ns=1200000 cpu=0 aborted=1\n"
		"idle at_ns=1500000 cpu=0 aborted=1\n"
		"idle at_ns=1700000 cpu=0\n"
		"idle at_ns=1900000 cpu=0\n"
		"irq at_ns=2990000 cpu=0 work_ns=1\n", &im);
	assert_int_equal(im.counts.idle_switches, 4);
	assert_int_equal(im.counts.aborted_selects, 2);
	assert_true(has_note(&im, "idle loops left for a task before any state was entered, "
			     "with a tick stop or no interrupt in them: 2 "));
	imported_clear(&im);
	load_ok("aborted-select.txt", &c);
	if (!import_convert_cut(&c, "test", &(struct import_given){ .tick_stop_ns = 40000 }, &im,
				&error))
		fail_msg("%s", error->message);
	assert_int_equal(im.counts.tick_stop_cuts, 0);
	assert_int_equal(g_array_index(im.events, struct trace_event, 0).work_ns, 930000);
	imported_clear(&im);
	capture_clear(&c);
}

/*
 * aborted-then-armed.txt: aborted-select.txt with two timers that ping
 * arms in the work eth0's interrupt started: at 1.1 ms, before any idle
 * loop, written at the interrupt (990 us); at 1.65 ms, after the loop at
 * 1.5 ms that entered no state, written at that loop's record, since its
 * select came before the arming and must not see the timer.  The same
 * for the RCU callback ping queues at 1.66 ms, the CPU's first.
 */
static void test_armed_after_aborted_select(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("aborted-then-armed.txt", 3000001, 1,
		"irq at_ns=990000 cpu=0 work_ns=930000\n"
		"timer at_ns=990000 cpu=0 id=177 expires_ns=4000000\n"
		"idle at_ns=1200000 cpu=0 aborted=1\n"
		"idle at_ns=1500000 cpu=0 aborted=1\n"
		"timer at_ns=1500000 cpu=0 id=178 expires_ns=5000000\n"
		"rcu at_ns=1500000 cpu=0 pending=1\n"
		"idle at_ns=1700000 cpu=0\n"
		"idle at_ns=1900000 cpu=0\n"
		"irq at_ns=2990000 cpu=0 work_ns=1\n", &im);
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
 * rcu.txt, t0 = 50 s: RCU callback queues, as rcu records where they go
 * from empty to not and back.
 * - cpu 0 (C1 from 100 us) is woken by an interrupt at 1 ms; its work
 *   queues two callbacks (queue length 1, then 2): pending from the
 *   interrupt, 1 ms, where the work it started is written (after the
 *   interrupt's record, which the CPU meets first).  The tick at
 *   4 ms wakes it, and the batch in its softirq invokes both: not pending
 *   from the tick's interrupt, 4 ms.
 * - cpu 1, never idle, queues three (rcu_kvfree_callback, length 3) at
 *   200 us; a batch invokes 1 at 2 ms (2 left), another the rest at 2.1
 *   ms (5 invoked, more than are known: none left).  Its last callback
 *   has no queue length and is skipped with a warning.
 */
static void test_rcu_callbacks(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("rcu.txt", 4030001, 2,
		"busy at_ns=0 cpu=0 work_ns=100000\n"
		"rcu at_ns=200000 cpu=1 pending=1\n"
		"busy at_ns=200000 cpu=1 work_ns=3830001\n"
		"irq at_ns=1000000 cpu=0 work_ns=190000\n"
		"rcu at_ns=1000000 cpu=0 pending=1\n"
		"rcu at_ns=2100000 cpu=1 pending=0\n"
		"rcu at_ns=4000000 cpu=0 pending=0\n", &im);
	assert_int_equal(im.counts.rcu_records, 4);
	assert_int_equal(im.counts.tick_wakeups, 1);
	imported_clear(&im);
}

/* The lines of im's events that begin with prefix. */
static char *lines_of(const struct imported *im, const char *prefix)
{
	g_autofree char *text = events_text(im);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *out = g_string_new(NULL);

	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, prefix))
			g_string_append_printf(out, "%s\n", *l);
	return g_string_free(out, FALSE);
}

/*
 * iowait.txt, t0 = 10 s: tasks waiting for I/O, counted on the CPU they
 * blocked on, each change written where the work that made it began (as
 * for RCU callbacks), so that the simulated CPU knows of it by its next
 * select.
 * - reader (70) blocks in state D on cpu 0 at 0: 1.  Its wakeup at 505 us
 *   comes in the handler of the interrupt at 500 us that ends cpu 0's
 *   C1E: 0 at 500 us; it blocks again at 800 us, in the work that
 *   interrupt began: 1 at 500 us, after the 0.  Its wakeup is not in the
 *   capture, but it is switched in on cpu 1 at 1510 us: 0 on cpu 0 then
 *   (idle from 810 us, no interrupt of its own since).
 * - writer (71) blocks on cpu 1 at 2 ms, in the work cpu 1's interrupt of
 *   1500 us began: 1 there at 1500 us; cpu 0 wakes it at 2505 us, while
 *   cpu 1 sleeps: 0 on cpu 1 at 2505 us.
 * - Switches away in states S, I and D|K count nothing.
 */
static void test_iowait(void **state)
{
	g_autofree char *iowait = NULL;
	struct imported im;

	(void)state;
	import_ok("iowait.txt", &im);
	iowait = lines_of(&im, "iowait ");
	assert_string_equal(iowait,
		"iowait at_ns=0 cpu=0 tasks=1\n"
		"iowait at_ns=500000 cpu=0 tasks=0\n"
		"iowait at_ns=500000 cpu=0 tasks=1\n"
		"iowait at_ns=1500000 cpu=1 tasks=1\n"
		"iowait at_ns=1510000 cpu=0 tasks=0\n"
		"iowait at_ns=2505000 cpu=1 tasks=0\n");
	assert_int_equal(im.counts.iowait_blocks, 3);
	assert_int_equal(im.counts.iowait_ends, 3);
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * tick-held-up.txt, t0 = 60 s, offset 0 (hrtimer "now" reads as the trace
 * clock):
 * - cpu 0 (C1E, state 2, from 50 us) takes the tick's interrupt for the
 *   boundary at 4 ms at 4.01 ms, and then nothing for 2 ms, as a vCPU the
 *   host holds up; the task's timer (armed at 0 for 6 ms) comes at 6.1 ms
 *   and wakes the task, and the CPU leaves C1E at 6.15 ms: one idle period
 *   with the tick in it.  The timer woke the CPU: its work is the busy
 *   time 6.15..6.4 ms = 250 us, and the tick record's interrupt comes with
 *   it, at 6.1 ms.
 * - cpu 1 polls (state 0) from 60 us: the tick at 2 ms comes at 2.01 ms
 *   and it polls on; the task's timer (armed at 55 us for 2.5 ms) comes at
 *   2.51 ms and wakes it, work 2.53..2.63 ms = 100 us.  Its tick record
 *   keeps the interrupt where it came: a polling state takes it and polls on.
 *   Its tick for 6 ms has not come when the capture ends at 6.4 ms: a
 *   record at 6 ms that comes at the end.
 * - Neither wakeup is the tick's, whose busy time would be dropped.
 * - The busy times before the first entries: cpu 0 0..50 us, cpu 1
 *   55..60 us.
 */
static void test_tick_before_the_wakeup(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("tick-held-up.txt", 6400001, 2,
		"timer at_ns=0 cpu=0 id=241 expires_ns=6000000 fires_ns=6100000 work_ns=250000\n"
		"busy at_ns=0 cpu=0 work_ns=50000\n"
		"timer at_ns=55000 cpu=1 id=242 expires_ns=2500000 fires_ns=2510000 work_ns=100000\n"
		"busy at_ns=55000 cpu=1 work_ns=5000\n"
		"tick at_ns=2000000 cpu=1 fires_ns=2010000\n"
		"tick at_ns=4000000 cpu=0 fires_ns=6100000\n"
		"tick at_ns=6000000 cpu=1 fires_ns=6400001\n", &im);
	assert_int_equal(im.counts.timer_wakeups, 2);
	assert_int_equal(im.counts.tick_wakeups, 0);
	imported_clear(&im);
}

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
 * A capture of one CPU going idle 2 * n times from a task (sched_switch to
 * the idle task, then the state's entry, one ms apart, from 60 s; t0 =
 * 59.999 s, the exit from a state the capture does not show): the first
 * n keep the tick, on ways of 8, 9, 10, 11 and 12 us in turn; the others
 * stop it (tick_stop 2 us before the entry), on ways of 28 to 32 us.  An
 * interrupt ends each period 500 us after its switch, the exit 10 us
 * later, and the task runs.
 */
static char *ways_capture(unsigned int n)
{
	GString *s = g_string_new("# tracer: nop\n"
				  "  <idle>-0 [000] .N.1. 59.999000: cpu_idle: state=4294967295 "
				  "cpu_id=0\n");

	for (unsigned int i = 0; i < 2 * n; i++) {
		const bool stop = i >= n;
		const double t = 60.0 + i * 0.001, way = (stop ? 28 : 8) + i % 5;

		g_string_append_printf(s, "  worker-900 [000] d..2. %.6f: sched_switch: prev_comm=worker "
				       "prev_pid=900 prev_prio=120 prev_state=S ==> next_comm=swapper/0 "
				       "next_pid=0 next_prio=120\n", t);
		if (stop)
			g_string_append_printf(s, "  <idle>-0 [000] d..1. %.6f: tick_stop: success=1 "
					       "dependency=NONE\n", t + (way - 2) * 1e-6);
		g_string_append_printf(s, "  <idle>-0 [000] d..1. %.6f: cpu_idle: state=2 cpu_id=0\n"
				       "  <idle>-0 [000] d.h1. %.6f: irq_handler_entry: irq=30 name=virtio0\n"
				       "  <idle>-0 [000] dNh1. %.6f: sched_wakeup: comm=worker pid=900 "
				       "prio=120 target_cpu=000\n"
				       "  <idle>-0 [000] .N.1. %.6f: cpu_idle: state=4294967295 cpu_id=0\n"
				       "  <idle>-0 [000] d..2. %.6f: sched_switch: prev_comm=swapper/0 "
				       "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker "
				       "next_pid=900 next_prio=120\n",
				       t + way * 1e-6, t + 500e-6, t + 501e-6, t + 510e-6, t + 515e-6);
	}
	return g_string_free(s, FALSE);
}

/* The capture of ways_capture(n) converted with given (NULL: import_convert()). */
static void import_ways(unsigned int n, const struct import_given *given, struct imported *im)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *text = ways_capture(n);
	g_autofree char *path = test_write(dir, "ways.txt", text, -1);
	g_autoptr(GError) error = NULL;
	struct capture c;

	assert_true(capture_load(path, &c, &error));
	if (!(given ? import_convert_cut(&c, "test", given, im, &error) :
		      import_convert(&c, "test", im, &error)))
		fail_msg("%s", error->message);
	capture_clear(&c);
	test_rmtree(dir);
}

/*
 * What the tick stop cost, from the capture: with 20 ways each side, the
 * medians are 10 and 30 us, so 20 us.  It replaces the platform's 14 us
 * (the trace's tick_stop_ns, and the cut of each stopping entry's work:
 * the interrupt of period 38, at 60.0385 s, 39.5 ms from t0, has as its
 * work the time from its exit, 10 us later, to the next entry, 1 ms + 32
 * us after its switch, less 20 us: 502 us) but not a call log's;
 * import_convert() leaves the work as captured; with 19 ways each side
 * there is no measure, and the platform's stands.
 */
static void test_own_tick_stop(void **state)
{
	struct import_given platform = { .tick_stop_ns = 14000 };
	struct import_given logged = { .tick_stop_ns = 14000, .tick_stop_logged = true };
	struct imported im;
	g_autofree char *text = NULL;

	(void)state;
	import_ways(20, &platform, &im);
	assert_int_equal(im.tick_stop_ns, 20000);
	assert_int_equal(im.tick_stop_samples, 20);
	assert_int_equal(im.header.tick_stop_ns, 20000);
	assert_int_equal(im.counts.tick_stop_cuts, 20);
	text = events_text(&im);
	assert_non_null(strstr(text, "irq at_ns=39500000 cpu=0 work_ns=502000\n"));
	assert_true(has_note(&im, "what stopping the tick cost, measured from the capture: the "
			     "median way from a switch to the idle task to the state's entry is "
			     "20000 ns longer where the tick was stopped on it (of at least 20 "
			     "each way)"));
	assert_reads_back(&im);
	imported_clear(&im);
	import_ways(20, &logged, &im);
	assert_int_equal(im.header.tick_stop_ns, 14000);
	imported_clear(&im);
	import_ways(20, NULL, &im);
	assert_int_equal(im.header.tick_stop_ns, 0);
	imported_clear(&im);
	import_ways(19, &platform, &im);
	assert_int_equal(im.tick_stop_samples, 0);
	assert_int_equal(im.header.tick_stop_ns, 14000);
	imported_clear(&im);
}

/*
 * few-exits.txt, t0 = 90 s: three wakeups from C1 by irq 30, fewer than
 * IMPORT_EXIT_COST_MIN_SAMPLES: no median exit cost.  As captured, the
 * interrupts are at 100, 300 and 500 us, with the work from each exit to
 * the next entry (150..200, 305..400, and 520 to the end, 1 ns).  Given
 * the platform's exit cost of C1, 20 us, each is placed 20 us before its
 * exit, as a median places them: the first, 50 us before its exit, held
 * up: at 130 (30 us later); the second, 5 us before, quick: at 285 (15 us
 * earlier, after the entry at 200); the third, 20 us before, stays.
 */
static void test_given_exit_cost(void **state)
{
	struct import_given given = { .exit_cost_ns[1] = 20000 };
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;
	struct imported im;
	struct capture c;

	(void)state;
	assert_imports_to("few-exits.txt", 520001, 1,
		"irq at_ns=100000 cpu=0 work_ns=50000\n"
		"irq at_ns=300000 cpu=0 work_ns=95000\n"
		"irq at_ns=500000 cpu=0 work_ns=1\n", &im);
	imported_clear(&im);
	load_ok("few-exits.txt", &c);
	if (!import_convert_cut(&c, "test", &given, &im, &error))
		fail_msg("%s", error->message);
	text = events_text(&im);
	assert_string_equal(text, "irq at_ns=130000 cpu=0 work_ns=50000\n"
			    "irq at_ns=285000 cpu=0 work_ns=95000\n"
			    "irq at_ns=500000 cpu=0 work_ns=1\n");
	assert_int_equal(im.exit_cost_samples[1], 0);
	assert_true(has_note(&im, "exit costs of states with fewer than 20 wakeups, the "
			     "platform's: state 1: 20000 ns (3 wakeups)"));
	assert_true(has_note(&im, "wakeups held up after their interrupt (left idle later than "
			     "the state's median exit cost): 1, their interrupts taken 30000 ns "
			     "later"));
	assert_true(has_note(&im, "wakeups quicker than the state's median exit cost: 1, their "
			     "interrupts taken 15000 ns earlier"));
	assert_reads_back(&im);
	imported_clear(&im);
	capture_clear(&c);
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
 * Neither of the last two wakes a task: idle_loop=1.
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
			       "irq at_ns=4300000 cpu=0 work_ns=92000 exit_ns=8000 idle_loop=1\n"
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
 * tick-work.txt, t0 = 40 s, offset 0: cpu 0 idles in state 2 from 0, and
 * the tick's interrupt ends each period 10 us after its boundary (every
 * 4 ms from 4 ms); the CPU leaves the state 20 us later and enters it again
 * 20 to 40 us after that exit (each once, shuffled), 21 times.  The tick's
 * work is their median, 30 us, of 21; their 21 x 30 = 630 us of busy time
 * are dropped (the simulator runs its own tick).  The captured machine
 * takes it for its tick_work_us, and state 2 the exit cost of 20 us.
 */
static void test_tick_work_measured(void **state)
{
	struct platform pl = { .state_count = 3, .tick_work_us = 60 };
	struct imported im;

	(void)state;
	import_ok("tick-work.txt", &im);
	assert_int_equal(im.tick_work_ns, 30000);
	assert_int_equal(im.tick_work_samples, 21);
	assert_int_equal(im.counts.tick_busy_ns, 630000);
	assert_true(has_note(&im, "the tick's work, the median time from an idle exit the tick "
			     "caused to the next entry: 30000 ns (of 21)"));
	imported_costs_to(&im, &pl);
	assert_int_equal(pl.tick_work_us, 30);
	assert_int_equal(pl.states[2].exit_cost_us, 20);
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * idle-loop.txt, t0 = 300 s, one CPU in state 2, woken by irq 30 at 1000,
 * 2000, 3000, 4000 and 5000 us.  The tick was stopped before the first
 * entry.  The first interrupt wakes no task: the CPU stays in do_idle()
 * with the tick stopped, so its record says idle_loop.  The second wakes
 * a task on the CPU (sched_wakeup), which leaves the idle loop and
 * restarts the tick.  The third comes with the tick running (no tick_stop
 * since) and wakes no task: it stays in the loop all the same.  At the
 * fourth a task is switched in that no wakeup shows (moved here): it
 * leaves the loop.  The fifth ends the capture before its next entry.
 */
static void test_idle_loop_wakeups(void **state)
{
	const bool want[] = { true, false, true, false };
	struct imported im;
	unsigned int k = 0;

	(void)state;
	import_ok("idle-loop.txt", &im);
	for (guint i = 0; i < im.events->len; i++) {
		const struct trace_event *ev = &g_array_index(im.events, struct trace_event, i);

		if (ev->kind != TRACE_IRQ || k == G_N_ELEMENTS(want))
			continue;
		assert_int_equal(ev->idle_loop, want[k++]);
	}
	assert_int_equal(k, G_N_ELEMENTS(want));
	assert_int_equal(im.counts.idle_loop_wakeups, 2);
	assert_reads_back(&im);
	imported_clear(&im);
}

/*
 * tick-stop.txt, t0 = 200 s, one CPU woken by irq 30 at 1000, 2000 and
 * 3000 us.  Before the entries at 1160 and 3020 the kernel stopped the
 * tick (tick_stop success=1); before the one at 2100 it could not.  Cut
 * by a tick stop of 40 us, the first work is 1000..1120 = 120 us (160
 * uncut), the second stays 2000..2100 = 100 us, and the third, 20 us
 * long, ends at its exit: 0.  The header says the cost left out.
 */
static void test_tick_stop_cut(void **state)
{
	g_autoptr(GError) error = NULL;
	const uint64_t want[] = { 120000, 100000, 0 };
	struct imported im;
	struct capture c;
	unsigned int k = 0;

	(void)state;
	load_ok("tick-stop.txt", &c);
	if (!import_convert_cut(&c, "test", &(struct import_given){ .tick_stop_ns = 40000 }, &im,
				&error))
		fail_msg("%s", error->message);
	assert_true(im.header.has_tick_stop);
	assert_int_equal(im.header.tick_stop_ns, 40000);
	assert_int_equal(im.counts.tick_stop_cuts, 2);
	for (guint i = 0; i < im.events->len; i++) {
		const struct trace_event *ev = &g_array_index(im.events, struct trace_event, i);

		if (ev->kind != TRACE_IRQ)
			continue;
		assert_true(k < G_N_ELEMENTS(want));
		assert_int_equal(ev->work_ns, want[k++]);
	}
	assert_int_equal(k, G_N_ELEMENTS(want));
	assert_reads_back(&im);
	imported_clear(&im);
	/* Uncut: the work as captured, and a tick stop that costs nothing. */
	import_ok("tick-stop.txt", &im);
	assert_true(im.header.has_tick_stop);
	assert_int_equal(im.header.tick_stop_ns, 0);
	assert_int_equal(im.counts.tick_stop_cuts, 0);
	imported_clear(&im);
	capture_clear(&c);
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

/*
 * report.txt, t0 = 200 s, nanosecond stamps: cpu 0 runs 0..10 µs (its
 * tick_stop at 0), exits at 510 for an IPI (call_function_single_entry):
 * irq at 510, work to 700; cpu 1's tick wakeup at 900 is dropped.  The
 * tick expiry's now - timestamp = 200000901500 - 200000901000 = 500 ns.
 */
static void test_trace_cmd_report(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("report.txt", 950001, 2,
		"busy at_ns=0 cpu=0 work_ns=10000\n"
		"irq at_ns=510000 cpu=0 work_ns=190000\n", &im);
	assert_int_equal(im.clock_offset_ns, 500);
	assert_int_equal(im.counts.tick_wakeups, 1);
	imported_clear(&im);
}

/*
 * clock-offset.txt, t0 = 300 s, CLOCK_MONOTONIC 1 s ahead of the trace
 * clock, cpu 0 idle from 0 to 95 ms: 22 tick expiries meanwhile, 19
 * traced 2, 3, ... 20 us after their now and three 40, 500 and 900 us
 * before it (timestamps taken early).  now - timestamp is 1 s less each
 * delay: sorted, 1 s - 20 us ... 1 s - 2 us, then 1 s + 40, + 500 and
 * + 900 us.  The first gap above the median (1 s - 9 us, the 12th) wider
 * than 20 us is the 42 us to the first early one: 19 samples are left,
 * and their 90th percentile, the 18th (19 * 9 / 10 = 17 from 0), is
 * 1 s - 3 us.  Over all 22 it would be the first early one, 1 s + 40 us.
 */
static void test_clock_offset_edge(void **state)
{
	struct imported im;

	(void)state;
	import_ok("clock-offset.txt", &im);
	assert_int_equal(im.clock_offset_ns, 999997000);
	assert_true(has_note(&im, "clock offset 999997000 ns (90th percentile of now - "
			     "timestamp over 19 hrtimer_expire_entry events"));
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

/*
 * kernel-timing.txt, t0 = 200.000000 s, what a booted kernel's timing
 * shows (sim/README.md, "Fidelity"):
 * - timer a1, armed at 50 for 950 µs, expires at 1000: its interrupt came
 *   50 µs late, fires_ns 1000 µs; the work, exit 1010 to entry 1100, is
 *   90 µs.
 * - the woken task re-arms a1 at 1030 for 900 µs, in the past (a periodic
 *   task behind its schedule): kept, written at the wakeup, 1000 (the
 *   interrupt; a1's previous arming has run by then), and due there, the
 *   earliest time the trace can give it: overdue, as in the kernel, once
 *   the CPU runs.  It runs at 1060 while the CPU is busy: fires_ns 1060.
 * - the polling state is left at 1130 with nothing on the CPU and
 *   re-entered at 1134: a polling limit, no event; 4 µs dropped.
 * - irq 24 at 1290 while idle, exit at 1300: irq at 1290, work to the
 *   entry at 1400 = 100 µs.
 * - the two expiries' now = timestamp: clock offset 0, so CLOCK_MONOTONIC
 *   is 200 s at time 0 (mono_ns).
 */
static void test_kernel_timing(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("kernel-timing.txt", 1400001, 1,
		"busy at_ns=0 cpu=0 work_ns=100000\n"
		"timer at_ns=50000 cpu=0 id=161 expires_ns=950000 fires_ns=1000000 work_ns=90000\n"
		"timer at_ns=1000000 cpu=0 id=161 expires_ns=1000000 fires_ns=1060000\n"
		"irq at_ns=1290000 cpu=0 work_ns=100000\n", &im);
	assert_int_equal(im.header.mono_ns, 200000000000);
	assert_int_equal(im.counts.reselects, 1);
	assert_int_equal(im.counts.reselect_ns, 4000);
	assert_int_equal(im.counts.other_clock_timers, 0);
	assert_int_equal(im.counts.unknown_wakeups, 0);
	assert_true(has_note(&im, "polling-state exits that woke nothing"));
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
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_need_resched_wakeups),
		cmocka_unit_test(test_never_idle),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_lost_events),
		cmocka_unit_test(test_timers_inferred_from_expiries),
		cmocka_unit_test(test_timer_rules),
		cmocka_unit_test(test_tick_records),
		cmocka_unit_test(test_tick_withdrawn),
		cmocka_unit_test(test_tick_armed_for_passed_boundary),
		cmocka_unit_test(test_idle_switch),
		cmocka_unit_test(test_aborted_select),
		cmocka_unit_test(test_armed_after_aborted_select),
		cmocka_unit_test(test_wheel_timers),
		cmocka_unit_test(test_wheel_timer_work),
		cmocka_unit_test(test_untraced_wheel_timer_work),
		cmocka_unit_test(test_rcu_callbacks),
		cmocka_unit_test(test_iowait),
		cmocka_unit_test(test_tick_before_the_wakeup),
		cmocka_unit_test(test_tick_in_hold_up),
		cmocka_unit_test(test_handler_rearm_held_up),
		cmocka_unit_test(test_own_tick_stop),
		cmocka_unit_test(test_given_exit_cost),
		cmocka_unit_test(test_own_exit_cost),
		cmocka_unit_test(test_held_up_before_expiry),
		cmocka_unit_test(test_tick_boundary_after_end),
		cmocka_unit_test(test_poll_check_measured),
		cmocka_unit_test(test_unseen_wakeup_after_tick_stop),
		cmocka_unit_test(test_poll_check_few_limits),
		cmocka_unit_test(test_exit_costs_measured),
		cmocka_unit_test(test_quick_wakeups_taken_earlier),
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
		cmocka_unit_test(test_tick_work_measured),
		cmocka_unit_test(test_tick_stop_cut),
		cmocka_unit_test(test_idle_loop_wakeups),
		cmocka_unit_test(test_trace_cmd_report),
		cmocka_unit_test(test_clock_offset_edge),
		cmocka_unit_test(test_rearm_elsewhere_cancels_first),
		cmocka_unit_test(test_kernel_timing),
		cmocka_unit_test(test_polling_limit_needs_wakeups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

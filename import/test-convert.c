// SPDX-License-Identifier: GPL-2.0
/*
 * From capture to workload trace, on the hand-made captures of
 * import/testdata: the walk over the capture (convert.c).  Each test
 * states the expected trace events and how they follow from the capture
 * (times relative to the capture's first timestamp, in µs where the
 * derivation is easier to read).  Every imported trace must also read
 * back through the trace reader, whose rules (time order, timers armed on
 * one CPU, cancels of armed timers only) the converter must keep.  The
 * converter's parts have their own tests beside them
 * (test-convert-*.c), written the same way.
 */
#include "test-import-helpers.h"

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
 * idle-loop-kick.txt, t0 = 400 s, one CPU in state 2 with its tick
 * stopped, a sched_wakeup in the capture (so that a wakeup that wakes no
 * task can be told):
 * - 999 us: a reschedule IPI, and the exit at 1000 us with need_resched
 *   set ('N') but no task woken or switched in before the entry at
 *   1040 us: a kick to look at a timer; do_idle() ends and begins again.
 *   irq at 999 us, 40 us of work, idle_loop=1 resched=1.
 * - 1999 us: a device's interrupt, the exit at 2000 us with need_resched
 *   clear, the entry at 2020 us: the handler alone, idle_loop=1.
 * - 2998 us: an IPI that wakes worker on the CPU, the exit at 3000 us
 *   ('N'), worker runs from 3010 to 3090 us (its switch back to the idle
 *   task is an idle record) and the entry at 3100 us: a task ran, neither
 *   flag; 100 us of work.
 * - 3499 us: a device's interrupt again, idle_loop=1; the exit at
 *   4000 us, the capture's last event, is an irq with 1 ns of work.
 * The first 10 us are the CPU's work before its first entry.
 */
static void test_kick_leaves_idle_loop(void **state)
{
	struct imported im;

	(void)state;
	assert_imports_to("idle-loop-kick.txt", 4000001, 1,
		"busy at_ns=0 cpu=0 work_ns=10000\n"
		"irq at_ns=999000 cpu=0 work_ns=40000 idle_loop=1 resched=1\n"
		"irq at_ns=1999000 cpu=0 work_ns=20000 idle_loop=1\n"
		"irq at_ns=2998000 cpu=0 work_ns=100000\n"
		"idle at_ns=3090000 cpu=0\n"
		"irq at_ns=3499000 cpu=0 work_ns=20000 idle_loop=1\n"
		"irq at_ns=4000000 cpu=0 work_ns=1\n", &im);
	assert_int_equal(im.counts.idle_loop_wakeups, 3);
	assert_int_equal(im.counts.resched_wakeups, 1);
	assert_true(has_note(&im, "1 of them left need_resched set"));
	imported_clear(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_need_resched_wakeups),
		cmocka_unit_test(test_never_idle),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_lost_events),
		cmocka_unit_test(test_idle_switch),
		cmocka_unit_test(test_aborted_select),
		cmocka_unit_test(test_armed_after_aborted_select),
		cmocka_unit_test(test_tick_before_the_wakeup),
		cmocka_unit_test(test_own_tick_stop),
		cmocka_unit_test(test_given_exit_cost),
		cmocka_unit_test(test_tick_work_measured),
		cmocka_unit_test(test_tick_stop_cut),
		cmocka_unit_test(test_idle_loop_wakeups),
		cmocka_unit_test(test_kick_leaves_idle_loop),
		cmocka_unit_test(test_trace_cmd_report),
		cmocka_unit_test(test_clock_offset_edge),
		cmocka_unit_test(test_kernel_timing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd .dat files are recognised by their magic bytes and read by
 * libtracecmd; a file with the magic that the library cannot read, or any
 * .dat without the library, is an error that names the file, never a crash.
 *
 * tiny.dat is made by testdata/make-tiny-dat.py (this machine has no
 * tracefs to record one); tiny-report.txt is `trace-cmd report -i tiny.dat`
 * (of trace-cmd 3.1.6 for the RCU lines; the other lines are an earlier
 * version's, which renders timer_start's flags= as the kernel does), so the
 * two readers can be held to the same result.
 */
#include "test-import-helpers.h"

/*
 * tiny.dat, t0 = 5 s, two CPUs:
 * - cpu 0: hrtimer_start of 0xffff888000001000 at 0 for 1000 µs; idle
 *   (C1E) 10..1005; the cancel + expire_entry pair at 1006 is the timer's
 *   expiry (fires_ns 1006 µs), so its work is 1005..1206 = 201 µs; busy
 *   0..10 before that.
 * - cpu 1: idle (C1) from 100; its second page carries the "events lost"
 *   flag, so a lost marker comes before the exit at 900; irq 24 at 900.5
 *   makes the wakeup an irq with work 900..1000 = 100 µs; tick_stop at 1100.
 * - timer-wheel timers, queued by cpu 0 at 1 to 4 µs with jiffies 4294900000
 *   at 5 s (an expiry on cpu 1 at 1100 µs says so too; the capture is too
 *   short to tell HZ 100, 250 and 300 apart, and the tie goes to 250, so
 *   jiffy J begins at (J - 4294898750) x 4 ms): ...2000 on cpu 0, level 0,
 *   due at J0 + 4, trace 16 ms; ...2100 on cpu 1's base, level 1 (idx 76),
 *   ((J0 + 100) >> 3 + 1) << 3 = J0 + 104, 416 ms; ...2200 deferrable,
 *   left out; ...2300 on cpu 1, level 1, J0 + 56, 224 ms, cancelled at 5 µs.
 *   The expiry of ...2400, never queued in the capture and with no stopped
 *   tick programmed for it, writes nothing.
 * - RCU: cpu 0's work queues a callback at 1100 (queue length 1): pending
 *   from its wakeup's exit, 1005, where the work's changes are written;
 *   on cpu 1, idle, a batch starts at 1101 with 2 queued and invokes both
 *   at 1102: pending from 1101 to 1102.
 * - switches: cpu 0 runs sshd from 1007 (next_pid 812: no record), which
 *   switches to the idle task (next_pid 0) at 1200, while cpu 0 runs: an
 *   idle record there.  sshd goes in state D (prev_state 2), so it waits
 *   for I/O on cpu 0 from then, written as the RCU change is, at 1005.
 * - end: the last record, 1206 µs, + 1 ns.
 */
static void test_tiny_dat(void **state)
{
	g_autofree char *events = NULL;
	g_autofree char *from_text = NULL;
	struct imported im, text;
	struct capture c;

	(void)state;
	if (!HAVE_LIBTRACECMD)
		skip();
	load_ok("tiny.dat", &c);
	assert_int_equal(c.format, CAP_FORMAT_DAT);
	assert_int_equal(c.nr_cpus, 2);
	assert_int_equal(c.counts[CAP_IDLE], 6);
	assert_int_equal(c.counts[CAP_IDLE_MISS], 1);
	assert_int_equal(c.counts[CAP_TIMER_START], 1);
	assert_int_equal(c.counts[CAP_TIMER_CANCEL], 1);
	assert_int_equal(c.counts[CAP_TIMER_EXPIRE], 1);
	assert_int_equal(c.counts[CAP_TICK_STOP], 1);
	assert_int_equal(c.counts[CAP_IRQ], 1);
	assert_int_equal(c.counts[CAP_LOST], 1);
	assert_int_equal(c.counts[CAP_WHEEL_START], 4);
	assert_int_equal(c.counts[CAP_WHEEL_CANCEL], 1);
	assert_int_equal(c.counts[CAP_WHEEL_EXPIRE], 1);
	assert_int_equal(c.counts[CAP_RCU_QUEUE], 1);
	assert_int_equal(c.counts[CAP_RCU_BATCH], 1);
	assert_int_equal(c.counts[CAP_RCU_DONE], 1);
	assert_int_equal(c.counts[CAP_SWITCH], 2);
	assert_int_equal(c.malformed, 0);
	/* The switches' tasks: 0 to sshd (812), not blocked; sshd to 0 in state D. */
	for (guint i = 0, n = 0; i < c.events->len; i++) {
		const struct cap_event *e = &g_array_index(c.events, struct cap_event, i);

		if (e->kind != CAP_SWITCH)
			continue;
		assert_int_equal(e->pid, n ? 812 : 0);
		assert_int_equal(e->next_pid, n ? 0 : 812);
		assert_int_equal(e->blocked, n == 1);
		n++;
	}
	/* make-tiny-dat.py writes every record's common_flags 0: need_resched clear. */
	for (guint i = 0; i < c.events->len; i++)
		if (g_array_index(c.events, struct cap_event, i).kind == CAP_IDLE)
			assert_true(g_array_index(c.events, struct cap_event, i).resched_clear);
	capture_clear(&c);

	import_ok("tiny.dat", &im);
	events = events_text(&im);
	assert_string_equal(events,
		"timer at_ns=0 cpu=0 id=18446612682070036480 expires_ns=1000000 fires_ns=1006000 "
		"work_ns=201000\n"
		"busy at_ns=0 cpu=0 work_ns=10000\n"
		"wheel at_ns=1000 cpu=0 id=18446612682070040576 expires_ns=16000000\n"
		"wheel at_ns=2000 cpu=1 id=18446612682070040832 expires_ns=416000000\n"
		"wheel at_ns=4000 cpu=1 id=18446612682070041344 expires_ns=224000000\n"
		"cancel at_ns=5000 cpu=1 id=18446612682070041344\n"
		"irq at_ns=900000 cpu=1 work_ns=100000\n"
		"rcu at_ns=1005000 cpu=0 pending=1\n"
		"iowait at_ns=1005000 cpu=0 tasks=1\n"
		"rcu at_ns=1101000 cpu=1 pending=1\n"
		"rcu at_ns=1102000 cpu=1 pending=0\n"
		"idle at_ns=1200000 cpu=0\n");
	assert_int_equal(im.counts.deferrable_timers, 1);
	assert_int_equal(im.counts.unknown_wheel_expiries, 1);
	assert_int_equal(im.header.end_ns, 1206001);
	assert_true(has_note(&im, "lost-events markers: 1"));

	/* The same capture through trace-cmd report's text: the same workload. */
	import_ok("tiny-report.txt", &text);
	from_text = events_text(&text);
	assert_string_equal(from_text, events);
	imported_clear(&text);
	imported_clear(&im);
}

static void test_fake_dat(void **state)
{
	g_autoptr(GError) error = load_fails("fake.dat");

	(void)state;
	assert_non_null(strstr(error->message, "fake.dat: a trace-cmd .dat file"));
	assert_non_null(strstr(error->message, HAVE_LIBTRACECMD ? "libtracecmd cannot read it"
							      : "built without libtracecmd"));
}

/* Only the magic: a .dat cut right after its first bytes. */
static void test_magic_only(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "cut.dat", "\x17\x08\x44tracing", -1);
	g_autoptr(GError) error = NULL;
	struct capture c;

	(void)state;
	assert_false(capture_load(path, &c, &error));
	assert_non_null(strstr(error->message, "cut.dat: a trace-cmd .dat file"));
	capture_clear(&c);
	test_rmtree(dir);
}

/*
 * tiny.dat cut after 5000 bytes, inside its data: libtracecmd 1.3 crashes
 * on it, and the import says so instead of crashing with it.
 */
static void test_cut_dat(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *tiny = testdata("tiny.dat");
	g_autofree char *bytes = NULL;
	g_autofree char *path = NULL;
	g_autoptr(GError) error = NULL;
	struct capture c;
	gsize len;

	(void)state;
	assert_true(g_file_get_contents(tiny, &bytes, &len, NULL));
	assert_true(len > 5000);
	path = test_write(dir, "cut.dat", bytes, 5000);
	assert_false(capture_load(path, &c, &error));
	assert_non_null(strstr(error->message, "cut.dat: a trace-cmd .dat file"));
	capture_clear(&c);
	test_rmtree(dir);
}

/* Fewer bytes than the magic, starting like it: text, and no capture. */
static void test_short_file_is_text(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "short.dat", "\x17\x08", -1);
	g_autoptr(GError) error = NULL;
	struct capture c;

	(void)state;
	assert_false(capture_load(path, &c, &error));
	assert_non_null(strstr(error->message, "short.dat"));
	capture_clear(&c);
	test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiny_dat),
		cmocka_unit_test(test_fake_dat),
		cmocka_unit_test(test_magic_only),
		cmocka_unit_test(test_cut_dat),
		cmocka_unit_test(test_short_file_is_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

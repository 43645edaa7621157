// SPDX-License-Identifier: GPL-2.0
/*
 * Reading text captures: ftrace's trace file and `trace-cmd report`
 * output, their headers, lost-events markers, disorder, bad lines and
 * files that are no captures.  Expected values are counted by hand from
 * the files in import/testdata.
 */
#include "test-import-helpers.h"

static const struct cap_event *event(const struct capture *c, guint i)
{
	assert_true(i < c->events->len);
	return &g_array_index(c->events, struct cap_event, i);
}

static guint ignored(const struct capture *c, const char *name)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(c->ignored, name));
}

/*
 * basic.txt: 11 cpu_idle lines (6 entries, 5 exits), one each of
 * cpu_idle_miss, hrtimer_start, hrtimer_cancel, irq_handler_entry and
 * ipi_entry, two hrtimer_expire_entry and two sched_wakeup; not used: one
 * hrtimer_expire_exit, one foo_event.  "#P:2" in the header.
 */
static void test_basic_ftrace(void **state)
{
	struct capture c;

	(void)state;
	load_ok("basic.txt", &c);
	assert_int_equal(c.format, CAP_FORMAT_FTRACE);
	assert_int_equal(c.nr_cpus, 2);
	assert_int_equal(c.events->len, 20);
	assert_int_equal(c.counts[CAP_IDLE], 11);
	assert_int_equal(c.counts[CAP_IDLE_MISS], 1);
	assert_int_equal(c.counts[CAP_TIMER_START], 1);
	assert_int_equal(c.counts[CAP_TIMER_CANCEL], 1);
	assert_int_equal(c.counts[CAP_TIMER_EXPIRE], 2);
	assert_int_equal(c.counts[CAP_IRQ], 1);
	assert_int_equal(c.counts[CAP_IPI], 1);
	assert_int_equal(c.counts[CAP_WAKEUP], 2);
	assert_int_equal(ignored(&c, "hrtimer_expire_exit"), 1);
	assert_int_equal(ignored(&c, "foo_event"), 1);
	assert_int_equal(c.malformed, 0);
	assert_int_equal(c.out_of_order, 0);
	/* The span includes foo_event, the last line, though it is not used. */
	assert_int_equal(c.first_ns, 100000000000ULL);
	assert_int_equal(c.last_ns, 100003000000ULL);
	/* Line 13: expires=, not softexpires=, and the hashed pointer as hex. */
	assert_int_equal(event(&c, 0)->kind, CAP_TIMER_START);
	assert_int_equal(event(&c, 0)->timer, 0xffff0001);
	assert_int_equal(event(&c, 0)->clock_ns, 100001000000ULL);
	assert_int_equal(event(&c, 0)->where, 13);
	assert_false(event(&c, 0)->tick_timer);
	/* Line 14: cpu 0 enters state 2 at 100.000010. */
	assert_int_equal(event(&c, 1)->kind, CAP_IDLE);
	assert_int_equal(event(&c, 1)->state, 2);
	assert_int_equal(event(&c, 1)->ts_ns, 100000010000ULL);
	/* Line 15: cpu 1's exit, 4294967295. */
	assert_int_equal(event(&c, 2)->cpu, 1);
	assert_int_equal(event(&c, 2)->state, CAP_IDLE_EXIT);
	/* Line 31: the tick's expiry. */
	assert_int_equal(event(&c, 17)->kind, CAP_TIMER_EXPIRE);
	assert_true(event(&c, 17)->tick_timer);
	/* Line 33: cpu_idle_miss type=below. */
	assert_int_equal(event(&c, 19)->kind, CAP_IDLE_MISS);
	assert_true(event(&c, 19)->flag);
	capture_clear(&c);
}

/*
 * idle-switch.txt: three sched_switch lines, at 50.000000 (cpu 1, to
 * swapper/1: pid 0), 50.001005 (cpu 0, to sshd) and 50.001200 (cpu 0,
 * from sshd to swapper/0): the flag says whether the idle task is next.
 */
static void test_sched_switch(void **state)
{
	static const bool to_idle[] = { true, false, true };
	struct capture c;
	guint n = 0;

	(void)state;
	load_ok("idle-switch.txt", &c);
	assert_int_equal(c.counts[CAP_SWITCH], 3);
	for (guint i = 0; i < c.events->len; i++) {
		if (event(&c, i)->kind != CAP_SWITCH)
			continue;
		assert_true(n < G_N_ELEMENTS(to_idle));
		assert_int_equal(event(&c, i)->flag, to_idle[n]);
		n++;
	}
	assert_int_equal(event(&c, 0)->ts_ns, 50000000000ULL);
	assert_int_equal(event(&c, 0)->cpu, 1);
	capture_clear(&c);
}

/*
 * iowait.txt: a switch away from a task in state D alone is blocked, with
 * the task's pid (line 5: reader, 70, to the idle task); one to a task
 * names it (line 11: swapper/0 to reader, next_pid 70); "S", "I" and
 * "D|K" are not blocked (lines 17, 19, 27); a wakeup names its task (line
 * 9: 70, and line 22: 71 on cpu 1).
 */
static void test_switch_tasks(void **state)
{
	struct capture c;

	(void)state;
	load_ok("iowait.txt", &c);
	assert_int_equal(c.counts[CAP_SWITCH], 11);
	assert_true(event(&c, 0)->kind == CAP_SWITCH && event(&c, 0)->blocked);
	assert_true(event(&c, 0)->pid == 70 && event(&c, 0)->next_pid == 0 && event(&c, 0)->flag);
	assert_true(event(&c, 4)->kind == CAP_WAKEUP && event(&c, 4)->pid == 70);
	assert_true(event(&c, 6)->kind == CAP_SWITCH && !event(&c, 6)->blocked);
	assert_true(event(&c, 6)->pid == 0 && event(&c, 6)->next_pid == 70);
	assert_true(event(&c, 12)->kind == CAP_SWITCH && !event(&c, 12)->blocked);
	assert_true(event(&c, 13)->blocked && event(&c, 13)->pid == 71);
	assert_true(event(&c, 14)->pid == 40 && !event(&c, 14)->blocked);
	assert_true(event(&c, 17)->kind == CAP_WAKEUP && event(&c, 17)->pid == 71);
	assert_true(event(&c, 17)->target_cpu == 1);
	assert_true(event(&c, 22)->kind == CAP_SWITCH && event(&c, 22)->pid == 41);
	assert_false(event(&c, 22)->blocked);
	capture_clear(&c);
}

/*
 * report.txt: trace-cmd report output with nanosecond timestamps, "cpus=2",
 * padded event names, 0x pointers and a "CPU:1 [3 EVENTS DROPPED]" marker,
 * which lands just before cpu 1's next event (200.000900000).
 */
static void test_trace_cmd_report(void **state)
{
	struct capture c;

	(void)state;
	load_ok("report.txt", &c);
	assert_int_equal(c.format, CAP_FORMAT_REPORT);
	assert_int_equal(c.nr_cpus, 2);
	assert_int_equal(c.counts[CAP_TICK_STOP], 1);
	assert_true(event(&c, 0)->flag);
	assert_int_equal(c.counts[CAP_IPI], 1);
	assert_int_equal(c.counts[CAP_LOST], 1);
	assert_int_equal(event(&c, 6)->kind, CAP_LOST);
	assert_int_equal(event(&c, 6)->cpu, 1);
	assert_int_equal(event(&c, 6)->ts_ns, 200000900000ULL);
	assert_int_equal(event(&c, 7)->kind, CAP_IDLE);
	assert_int_equal(event(&c, 8)->timer, 0xffff888003a1c2d0ULL);
	assert_int_equal(event(&c, 8)->clock_ns, 200000901500ULL);
	capture_clear(&c);
}

/* out-of-order.txt: cpu 1's block (from 10.000050) follows cpu 0's (to 10.001000). */
/*
 * wheel.txt's timer-wheel events: 6.1's timer_start (the bucket worked out
 * from expires and idx), 6.12's (bucket_expiry read), the flags, the base's
 * CPU, jiffies (expires less timeout; now= of an expiry).
 */
static void test_wheel_events(void **state)
{
	struct capture c;
	const struct cap_event *a1, *a2, *a3, *a4, *x1;

	(void)state;
	load_ok("wheel.txt", &c);
	assert_int_equal(c.counts[CAP_WHEEL_START], 4);
	assert_int_equal(c.counts[CAP_WHEEL_CANCEL], 4);
	assert_int_equal(c.counts[CAP_WHEEL_EXPIRE], 5);
	a1 = event(&c, 1), a2 = event(&c, 2), a3 = event(&c, 3), a4 = event(&c, 4);
	x1 = event(&c, 10);
	assert_true(a1->kind == CAP_WHEEL_START && a1->timer == 0xa1);
	assert_int_equal(a1->clock_ns, 4294900004);
	assert_int_equal(a1->jiffies, 4294900000);
	assert_true(!a1->flag && !a1->pinned && a1->target_cpu == 0);
	assert_true(a2->flag && !a2->pinned);
	assert_int_equal(a3->clock_ns, 4294900104);
	assert_true(!a3->flag && a3->pinned && a3->target_cpu == 1 && a3->cpu == 0);
	assert_int_equal(a4->clock_ns, 4294900056);
	assert_true(x1->kind == CAP_WHEEL_EXPIRE && x1->timer == 0xa1 && x1->jiffies == 4294900004 &&
		    x1->clock_ns == 4294900004);
	capture_clear(&c);
}

/*
 * rcu.txt's RCU events: the queue length that ends rcu_callback and
 * rcu_kvfree_callback, CBs= of rcu_batch_start, CBs-invoked= of
 * rcu_batch_end; a callback without a length is skipped, with its line.
 */
static void test_rcu_events(void **state)
{
	struct capture c;

	(void)state;
	load_ok("rcu.txt", &c);
	assert_int_equal(c.counts[CAP_RCU_QUEUE], 3);
	assert_int_equal(c.counts[CAP_RCU_BATCH], 1);
	assert_int_equal(c.counts[CAP_RCU_DONE], 3);
	assert_true(event(&c, 2)->kind == CAP_RCU_QUEUE && event(&c, 2)->callbacks == 3 &&
		    event(&c, 2)->cpu == 1);
	assert_true(event(&c, 5)->kind == CAP_RCU_QUEUE && event(&c, 5)->callbacks == 1);
	assert_true(event(&c, 11)->kind == CAP_RCU_BATCH && event(&c, 11)->callbacks == 2);
	assert_true(event(&c, 12)->kind == CAP_RCU_DONE && event(&c, 12)->callbacks == 2);
	assert_int_equal(c.warnings->len, 1);
	assert_non_null(strstr(g_ptr_array_index(c.warnings, 0),
			       ":15: rcu_callback: no queue length at the end"));
	capture_clear(&c);
}

/*
 * The bucket's jiffy of calc_index(), 64 buckets a level, each level 8
 * times coarser: level 0 (idx < 64) rounds expires up by one jiffy, level
 * 1 to the next multiple of 8 above, level 2 of 64; a timer already due
 * goes to now.
 */
static void test_wheel_bucket(void **state)
{
	(void)state;
	assert_int_equal(cap_wheel_bucket(1000, 990, 5), 1001);
	assert_int_equal(cap_wheel_bucket(1000, 900, 64 + 13), 1008);
	assert_int_equal(cap_wheel_bucket(1007, 900, 64 + 13), 1008);
	assert_int_equal(cap_wheel_bucket(1008, 900, 64 + 13), 1016);
	assert_int_equal(cap_wheel_bucket(5000, 900, 128 + 1), 5056);
	assert_int_equal(cap_wheel_bucket(980, 990, 3), 990);
}

static void test_out_of_order_sorted(void **state)
{
	struct capture c;

	(void)state;
	load_ok("out-of-order.txt", &c);
	assert_int_equal(c.out_of_order, 1);
	for (guint i = 1; i < c.events->len; i++)
		assert_true(event(&c, i - 1)->ts_ns <= event(&c, i)->ts_ns);
	assert_int_equal(event(&c, 0)->cpu, 1);
	assert_int_equal(c.nr_cpus, 2);
	capture_clear(&c);
}

/*
 * truncated.txt: line 4 is no event line, line 5 has state=abc, line 9 is
 * cut off without a newline; lines 3, 6, 7 and 8 remain.
 */
static void test_bad_lines_skipped_with_their_line(void **state)
{
	g_autofree char *path = testdata("truncated.txt");
	g_autofree char *at4 = g_strdup_printf("%s:4: not an ftrace event line", path);
	g_autofree char *at5 = g_strdup_printf("%s:5: cpu_idle: state=abc", path);
	g_autofree char *at9 = g_strdup_printf("%s:9: the last line has no newline", path);
	struct capture c;

	(void)state;
	load_ok("truncated.txt", &c);
	assert_int_equal(c.malformed, 3);
	assert_int_equal(c.warnings->len, 3);
	assert_non_null(strstr(g_ptr_array_index(c.warnings, 0), at4));
	assert_non_null(strstr(g_ptr_array_index(c.warnings, 1), at5));
	assert_non_null(strstr(g_ptr_array_index(c.warnings, 2), at9));
	assert_int_equal(c.events->len, 4);
	assert_int_equal(c.last_ns, 30000700000ULL);
	capture_clear(&c);
}

/* lost.txt: "CPU:0 [LOST 12 EVENTS]" between 20.001100 and 20.005000. */
static void test_lost_marker_before_next_event(void **state)
{
	struct capture c;

	(void)state;
	load_ok("lost.txt", &c);
	assert_int_equal(c.counts[CAP_LOST], 1);
	assert_int_equal(event(&c, 4)->kind, CAP_LOST);
	assert_int_equal(event(&c, 4)->ts_ns, 20005000000ULL);
	assert_int_equal(event(&c, 5)->state, CAP_IDLE_EXIT);
	capture_clear(&c);
}

/*
 * Variants of the line format: no flags column (older kernels), a tgid
 * column, task names with blanks and dashes, -1 as the exit state, a
 * counter clock (no fraction: refused), and a lost marker for a CPU with
 * no later event (placed at the end).
 */
static void test_line_variants(void **state)
{
	static const char text[] =
		"          <idle>-0     [000]     1.000001: cpu_idle: state=1 cpu_id=0\n"
		"          <idle>-0       (-------) [001] d..1.     1.000002: cpu_idle: state=1 cpu_id=1\n"
		"     Web Content-1234    [000] d..1.     1.000003: cpu_idle: state=-1 cpu_id=0\n"
		"   kworker/u8:2-ev-99    [001] d..1.     1.000004: cpu_idle: state=4294967295 cpu_id=1\n"
		"          <idle>-0     [000] d..1.     1000005: cpu_idle: state=1 cpu_id=0\n"
		"CPU:3 [LOST 1 EVENTS]\n";
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "variants.txt", text, -1);
	g_autoptr(GError) error = NULL;
	struct capture c;

	(void)state;
	assert_true(capture_load(path, &c, &error));
	assert_int_equal(c.counts[CAP_IDLE], 4);
	assert_int_equal(event(&c, 1)->cpu, 1);
	assert_int_equal(event(&c, 2)->state, CAP_IDLE_EXIT);
	assert_int_equal(event(&c, 3)->state, CAP_IDLE_EXIT);
	assert_int_equal(c.malformed, 1);
	assert_non_null(strstr(g_ptr_array_index(c.warnings, 0), ":5: timestamp 1000005 has no "
			       "fraction"));
	/* The CPU count follows the lost marker's CPU 3. */
	assert_int_equal(c.nr_cpus, 4);
	assert_int_equal(event(&c, 4)->kind, CAP_LOST);
	assert_int_equal(event(&c, 4)->ts_ns, 1000004000ULL);
	capture_clear(&c);
	test_rmtree(dir);
}

/*
 * The flags column's second letter is the need-resched state: '.' clear,
 * 'N' set; without the column, or too short to be it, unknown (false).
 */
static void test_resched_flag(void **state)
{
	static const char text[] =
		"          <idle>-0     [000] .....     1.000001: cpu_idle: state=4294967295 cpu_id=0\n"
		"          <idle>-0     [000] .N...     1.000002: cpu_idle: state=4294967295 cpu_id=0\n"
		"          <idle>-0     [000]     1.000003: cpu_idle: state=4294967295 cpu_id=0\n"
		"          <idle>-0     [000] d..1     1.000004: cpu_idle: state=4294967295 cpu_id=0\n"
		"          <idle>-0     [000] ..     1.000005: cpu_idle: state=4294967295 cpu_id=0\n";
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "flags.txt", text, -1);
	g_autoptr(GError) error = NULL;
	struct capture c;

	(void)state;
	assert_true(capture_load(path, &c, &error));
	assert_int_equal(c.counts[CAP_IDLE], 5);
	assert_true(event(&c, 0)->resched_clear);
	assert_false(event(&c, 1)->resched_clear);
	assert_false(event(&c, 2)->resched_clear);
	assert_true(event(&c, 3)->resched_clear);
	assert_false(event(&c, 4)->resched_clear);
	capture_clear(&c);
	test_rmtree(dir);
}

static void test_not_captures(void **state)
{
	g_autoptr(GError) bin = load_fails("not-a-trace.bin");
	g_autoptr(GError) empty = load_fails("empty.txt");
	g_autoptr(GError) missing = load_fails("no-such-file.txt");

	(void)state;
	/* The first NUL byte is the 8th: "\x7f" "ELF" "\x02\x01\x01" then NUL. */
	assert_non_null(strstr(bin->message, "not-a-trace.bin:1: byte offset 7: binary data"));
	assert_non_null(strstr(empty->message, "empty.txt: no power:cpu_idle events"));
	assert_non_null(strstr(missing->message, "no-such-file.txt"));
}

/* basic.txt's fourth used event is on line 16: a limit of 3 stops the reader there. */
static void test_event_limit(void **state)
{
	g_autofree char *path = testdata("basic.txt");
	g_autoptr(GError) error = NULL;
	struct capture c;

	(void)state;
	assert_false(capture_load_max(path, 3, &c, &error));
	assert_non_null(strstr(error->message, "basic.txt:16: more than 3 events"));
	assert_int_equal(c.events->len, 3);
	capture_clear(&c);
}

/*
 * A task name is any bytes, not UTF-8 (the line must still be read), and
 * a line too long to be ftrace's is skipped without being held whole.
 */
static void test_raw_bytes_and_long_lines(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autoptr(GString) text = g_string_new("#P:1\n");
	g_autofree char *path = NULL;
	g_autoptr(GError) error = NULL;
	struct capture c;

	(void)state;
	g_string_append(text, "   \xff\xfe\xc3-7  [000] d..1.  1.000001: cpu_idle: state=1 cpu_id=0\n");
	g_string_append(text, "x-1 [000] d..1. 1.000002: ");
	for (int i = 0; i < 2000; i++)
		g_string_append(text, "pad=x ");
	g_string_append(text, "\n          <idle>-0  [000] d..1.  1.000003: cpu_idle: state=-1 cpu_id=0\n");
	path = test_write(dir, "bytes.txt", text->str, (gssize)text->len);
	assert_true(capture_load(path, &c, &error));
	assert_int_equal(c.counts[CAP_IDLE], 2);
	assert_int_equal(c.malformed, 1);
	assert_non_null(strstr(g_ptr_array_index(c.warnings, 0), ":3: line longer than 8192 bytes"));
	capture_clear(&c);
	test_rmtree(dir);
}

/* A damaged capture makes up event names: beyond the limit they are counted as one. */
static void test_ignored_names_capped(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autoptr(GString) text = g_string_new("x-1 [000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0\n");
	g_autofree char *path = NULL;
	struct capture c;

	(void)state;
	for (int i = 0; i < CAP_IGNORED_NAMES_MAX + 44; i++)
		g_string_append_printf(text, "x-1 [000] d..1. 1.000001: made_up_%d: a=1\n", i);
	path = test_write(dir, "names.txt", text->str, (gssize)text->len);
	load_path_ok(path, &c);
	assert_int_equal(g_hash_table_size(c.ignored), CAP_IGNORED_NAMES_MAX + 1);
	assert_int_equal(ignored(&c, "made_up_0"), 1);
	assert_int_equal(ignored(&c, "(other names)"), 44);
	capture_clear(&c);
	test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_ftrace),
		cmocka_unit_test(test_sched_switch),
		cmocka_unit_test(test_switch_tasks),
		cmocka_unit_test(test_trace_cmd_report),
		cmocka_unit_test(test_out_of_order_sorted),
		cmocka_unit_test(test_bad_lines_skipped_with_their_line),
		cmocka_unit_test(test_lost_marker_before_next_event),
		cmocka_unit_test(test_line_variants),
		cmocka_unit_test(test_resched_flag),
		cmocka_unit_test(test_wheel_events),
		cmocka_unit_test(test_wheel_bucket),
		cmocka_unit_test(test_rcu_events),
		cmocka_unit_test(test_not_captures),
		cmocka_unit_test(test_event_limit),
		cmocka_unit_test(test_raw_bytes_and_long_lines),
		cmocka_unit_test(test_ignored_names_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The converter's RCU callbacks and I/O waits (convert-rcu-iowait.c), on
 * the hand-made captures of import/testdata, each test deriving its
 * expected trace events from the capture as test-convert.c's do.
 */
#include "test-import-helpers.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rcu_callbacks),
		cmocka_unit_test(test_iowait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

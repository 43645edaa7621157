// SPDX-License-Identifier: GPL-2.0
/*
 * An imported workload runs under every governor built in, and the work
 * it carries is the capture's busy time: whatever states a governor picks,
 * the simulated CPUs are busy exactly as long as the real ones were
 * (exit latencies shift the work, they do not shorten it).
 */
#include <kshim/registry.h>

#include "run.h"
#include "test-import-helpers.h"

/*
 * Imports capture, simulates it on skx under every governor built in, and
 * fails unless each keeps busy_ns of work.
 */
static void assert_every_governor_keeps(const char *capture, uint64_t busy_ns)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = g_build_filename(dir, "imported.trace", NULL);
	g_autofree const struct kshim_governor **govs = NULL;
	g_autoptr(GError) error = NULL;
	struct sim_result *results;
	struct sim_run_options o;
	struct imported im;
	struct platform p;
	unsigned int n;
	FILE *f;

	import_ok(capture, &im);
	f = fopen(path, "w");
	assert_non_null(f);
	imported_write(f, &im, capture);
	assert_int_equal(fclose(f), 0);
	assert_true(platform_load("skx", &p, &error));
	o = (struct sim_run_options){ .platform = &p, .hz = 250, .latency_limit_us = INT32_MAX,
				      .threads = 1 };
	kshim_registry_init();
	n = (unsigned int)kshim_governor_count();
	assert_true(n > 0);
	govs = g_new(const struct kshim_governor *, n);
	for (unsigned int i = 0; i < n; i++)
		govs[i] = kshim_governor_at(i);
	if (!sim_run_all(&o, govs, n, &path, 1, &results, &error))
		fail_msg("%s", error->message);
	for (unsigned int i = 0; i < n; i++) {
		if (results[i].all.busy_ns != busy_ns)
			fail_msg("%s: %s: busy %" G_GUINT64_FORMAT " ns, the capture's is %"
				 G_GUINT64_FORMAT, capture, govs[i]->meta->name,
				 results[i].all.busy_ns, busy_ns);
	}
	sim_results_free(results, n);
	platform_clear(&p);
	imported_clear(&im);
	test_rmtree(dir);
}

/*
 * basic.txt's busy time, dropped tick wakeups aside: cpu 0 0..10,
 * 1005..1206, 1306..1407 = 312 µs; cpu 1 500..800, 1500..1600 = 400 µs.
 */
static void test_every_governor_keeps_the_work(void **state)
{
	(void)state;
	assert_every_governor_keeps("basic.txt", 712000);
}

/*
 * handler-rearm-held-up.txt: 21 interrupts from state 2, each followed by
 * 80 us of work (1680 us); then the task's timer expires at 5.01 ms, its
 * handler re-arms it and wakes the task, and the host holds the vCPU up
 * until the exit at 7 ms: 300 us of work to 7.3 ms; the re-armed timer's
 * interrupt at 7.4 ms brings 180 us more, and the CPU idles from 7.6 ms
 * to the capture's end at 20 ms.  The held-up expiry comes at its moved
 * interrupt, before the re-arming: else it is lost with its 300 us.
 */
static void test_handler_rearm_keeps_the_work(void **state)
{
	(void)state;
	assert_every_governor_keeps("handler-rearm-held-up.txt", 1680000 + 300000 + 180000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_governor_keeps_the_work),
		cmocka_unit_test(test_handler_rearm_keeps_the_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

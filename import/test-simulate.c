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
 * basic.txt's busy time, dropped tick wakeups aside: cpu 0 0..10,
 * 1005..1206, 1306..1407 = 312 µs; cpu 1 500..800, 1500..1600 = 400 µs.
 */
#define BASIC_BUSY_NS	712000

static void test_every_governor_keeps_the_work(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = g_build_filename(dir, "basic.trace", NULL);
	g_autofree const struct kshim_governor **govs = NULL;
	g_autoptr(GError) error = NULL;
	struct sim_result *results;
	struct sim_run_options o;
	struct imported im;
	struct platform p;
	unsigned int n;
	FILE *f;

	(void)state;
	import_ok("basic.txt", &im);
	f = fopen(path, "w");
	assert_non_null(f);
	imported_write(f, &im, "basic.txt");
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
		if (results[i].all.busy_ns != BASIC_BUSY_NS)
			fail_msg("%s: busy %" G_GUINT64_FORMAT " ns, the capture's is %d",
				 govs[i]->meta->name, results[i].all.busy_ns, BASIC_BUSY_NS);
	}
	sim_results_free(results, n);
	platform_clear(&p);
	imported_clear(&im);
	test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_governor_keeps_the_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Whole runs through trace files and real governors: the same inputs give
 * the same bytes in every format, with one thread or several, and a CPU's
 * score does not depend on the other CPUs' events.
 */
#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>
#include <kshim/registry.h>

#include "report.h"
#include "run.h"
#include "test-sim.h"

#define NR_CPUS	4

/*
 * A pseudo-random workload (a fixed LCG), written in time order: each CPU
 * has a periodic timer, and one-shot timers, interrupts and busy stretches
 * arrive at random.  With only_cpu >= 0 the other CPUs' events are left
 * out (the header still names NR_CPUS).
 */
static char *write_trace(const char *dir, const char *name, int only_cpu)
{
	g_autoptr(GString) s = g_string_new("teosim-trace 1\n");
	uint64_t x = 12345, t = 0, id = 100;

	g_string_append_printf(s, "cpus %d\nend_ns %llu\n", NR_CPUS, 200 * MS);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (only_cpu < 0 || cpu == only_cpu)
			g_string_append_printf(s, "timer at_ns=0 cpu=%d id=%d expires_ns=%llu "
					       "period_ns=%llu work_ns=20000\n",
					       cpu, cpu, (cpu + 1) * MS, (cpu + 3) * MS);
	for (;;) {
		int cpu, kind;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		t += (x >> 33) % (300 * US);
		if (t >= 199 * MS)
			break;
		cpu = (int)((x >> 20) % NR_CPUS);
		kind = (int)((x >> 10) % 3);
		if (only_cpu >= 0 && cpu != only_cpu)
			continue;
		if (kind == 0)
			g_string_append_printf(s, "timer at_ns=%llu cpu=%d id=%llu expires_ns=%llu "
					       "work_ns=5000\n", (unsigned long long)t, cpu,
					       (unsigned long long)id++,
					       (unsigned long long)(t + (x >> 40) % (5 * MS)));
		else if (kind == 1)
			g_string_append_printf(s, "irq at_ns=%llu cpu=%d work_ns=%llu\n",
					       (unsigned long long)t, cpu,
					       (unsigned long long)((x >> 45) % (50 * US)));
		else
			g_string_append_printf(s, "busy at_ns=%llu cpu=%d work_ns=%llu\n",
					       (unsigned long long)t, cpu,
					       (unsigned long long)(1 + (x >> 45) % (200 * US)));
	}
	{
		char *path = g_build_filename(dir, name, NULL);

		assert_true(g_file_set_contents(path, s->str, (gssize)s->len, NULL));
		return path;
	}
}

struct fixture {
	char *dir;
	char *full, *cpu1_only;
	struct platform platform;
	const struct kshim_governor *govs[4];
	unsigned int nr_govs;
};

static int setup(void **state)
{
	static const char *const names[] = { "teo-6.1", "menu-6.1", "ladder-6.12", "teo-v8" };
	struct fixture *f = g_new0(struct fixture, 1);

	kshim_registry_init();
	f->dir = g_dir_make_tmp("teosim-sim-XXXXXX", NULL);
	f->full = write_trace(f->dir, "full.trace", -1);
	f->cpu1_only = write_trace(f->dir, "cpu1.trace", 1);
	test_platform(&f->platform);
	for (unsigned int i = 0; i < G_N_ELEMENTS(names); i++)
		if (kshim_governor_find(names[i]))
			f->govs[f->nr_govs++] = kshim_governor_find(names[i]);
	assert_true(f->nr_govs > 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	g_unlink(f->full);
	g_unlink(f->cpu1_only);
	g_rmdir(f->dir);
	g_free(f->full);
	g_free(f->cpu1_only);
	g_free(f->dir);
	g_free(f);
	return 0;
}

/* All governors over the full trace twice; every format, into one string. */
static char *run_and_report(struct fixture *f, unsigned int threads)
{
	struct sim_run_options o = { .platform = &f->platform, .hz = 250,
				     .latency_limit_us = INT32_MAX, .threads = threads };
	char *traces[] = { f->full, f->full };
	struct sim_result *res;
	GError *error = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct report r = { .options = &o, .nr_traces = 2, .nr_govs = f->nr_govs };

	assert_true(sim_run_all(&o, f->govs, f->nr_govs, traces, 2, &res, &error));
	assert_null(error);
	r.results = res;
	report_compare(out, REPORT_TABLE, &r);
	report_runs(out, REPORT_TABLE, &r);
	report_runs(out, REPORT_CSV, &r);
	report_runs(out, REPORT_JSON, &r);
	fclose(out);
	sim_results_free(res, 2 * f->nr_govs);
	return buf;
}

static void test_same_bytes_with_threads(void **state)
{
	struct fixture *f = *state;
	char *one = run_and_report(f, 1), *again = run_and_report(f, 1);
	char *three = run_and_report(f, 3);

	assert_true(strlen(one) > 1000);
	assert_string_equal(one, again);
	assert_string_equal(one, three);
	free(one);
	free(again);
	free(three);
}

static void test_cpu_independent_of_others(void **state)
{
	struct fixture *f = *state;
	struct sim_run_options o = { .platform = &f->platform, .hz = 250,
				     .latency_limit_us = INT32_MAX, .threads = 2 };
	struct sim_result *full, *alone;
	GError *error = NULL;

	assert_true(sim_run_all(&o, f->govs, f->nr_govs, &f->full, 1, &full, &error));
	assert_true(sim_run_all(&o, f->govs, f->nr_govs, &f->cpu1_only, 1, &alone, &error));
	for (unsigned int g = 0; g < f->nr_govs; g++) {
		assert_true(full[g].cpus[1].scored > 100);
		assert_memory_equal(&full[g].cpus[1], &alone[g].cpus[1], sizeof(struct cpu_score));
		assert_int_equal(alone[g].cpus[0].scored, 0);
	}
	sim_results_free(full, f->nr_govs);
	sim_results_free(alone, f->nr_govs);
}

static void test_bad_trace_fails_cleanly(void **state)
{
	struct fixture *f = *state;
	struct sim_run_options o = { .platform = &f->platform, .hz = 250,
				     .latency_limit_us = INT32_MAX, .threads = 2 };
	char *missing = g_build_filename(f->dir, "missing.trace", NULL);
	char *bad = g_build_filename(f->dir, "bad.trace", NULL);
	char *traces[] = { f->full, bad };
	struct sim_result *res = NULL;
	GError *error = NULL;

	assert_false(sim_run_all(&o, f->govs, 1, &missing, 1, &res, &error));
	assert_non_null(error);
	assert_null(res);
	g_clear_error(&error);
	/* The error surfaces in a CPU's job, after the header was read fine. */
	assert_true(g_file_set_contents(bad, "teosim-trace 1\ncpus 2\nend_ns 1000000\n"
					"irq at_ns=10 cpu=1 work_ns=5\nirq at_ns=5 cpu=0\n", -1, NULL));
	assert_false(sim_run_all(&o, f->govs, 1, traces, 2, &res, &error));
	assert_non_null(strstr(error->message, "bad.trace"));
	g_clear_error(&error);
	g_unlink(bad);
	g_free(bad);
	g_free(missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes_with_threads),
		cmocka_unit_test(test_cpu_independent_of_others),
		cmocka_unit_test(test_bad_trace_fails_cleanly),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

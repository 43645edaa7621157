// SPDX-License-Identifier: GPL-2.0
/*
 * teosim fidelity's comparison (import/fidelity.c): the total variation
 * distance, the real side of a hand-made capture counted by hand, the
 * kernel's inputs found in a hand-written call log, the PM QoS limit taken
 * from it, and the warm-up.  The simulated side is whatever the governor
 * does; here only its consistency with the figures is checked.
 */
#include <math.h>

#include <kshim/registry.h>

#include "fidelity.h"
#include "test-import-helpers.h"

/* Shares 3/4, 1/4, 0 against 1/4, 1/4, 1/2: half of 1/2 + 0 + 1/2. */
static void test_tvd(void **state)
{
	const uint64_t a[] = { 3, 1, 0 }, b[] = { 1, 1, 2 }, c[] = { 30, 10, 0 };
	const uint64_t none[] = { 0, 0, 0 };

	(void)state;
	assert_true(fabs(fidelity_tvd(a, b, 3) - 0.5) < 1e-12);
	assert_true(fabs(fidelity_tvd(b, a, 3) - 0.5) < 1e-12);
	assert_true(fidelity_tvd(a, c, 3) == 0.0);	/* the same shares */
	assert_true(fidelity_tvd(none, none, 3) == 0.0);
	assert_true(fidelity_tvd(a, none, 3) == 1.0);
}

struct fixture {
	char *dir, *trace;
	struct capture capture;
	struct imported imported;
	struct platform platform;
	struct sim_run_options run;
	struct fid_options options;
};

static void fixture_open(struct fixture *f, uint64_t warmup_ns)
{
	g_autoptr(GError) error = NULL;
	FILE *out;

	memset(f, 0, sizeof(*f));
	f->dir = test_tmpdir();
	f->trace = g_build_filename(f->dir, "kernel-timing.trace", NULL);
	load_ok("kernel-timing.txt", &f->capture);
	assert_true(import_convert(&f->capture, NULL, &f->imported, &error));
	out = fopen(f->trace, "w");
	assert_non_null(out);
	imported_write(out, &f->imported, "kernel-timing.txt");
	assert_int_equal(fclose(out), 0);
	assert_true(platform_load("qemu-tcg", &f->platform, &error));
	f->run = (struct sim_run_options){ .platform = &f->platform, .hz = 250,
					   .latency_limit_us = INT32_MAX, .threads = 1 };
	kshim_registry_init();
	f->options = (struct fid_options){ .run = &f->run, .gov = kshim_governor_find("menu-6.1"),
					   .calls = NULL, .match_ns = 100000,
					   .warmup_ns = warmup_ns };
	assert_non_null(f->options.gov);
}

static void fixture_close(struct fixture *f)
{
	imported_clear(&f->imported);
	capture_clear(&f->capture);
	platform_clear(&f->platform);
	test_rmtree(f->dir);
	g_free(f->dir);
	g_free(f->trace);
}

static void assert_consistent(const struct fidelity *f)
{
	uint64_t sim = 0;

	for (unsigned int i = 0; i < f->state_count; i++)
		sim += f->sim.usage[i];
	assert_int_equal(sim, f->sim.periods->len);
	assert_true(f->tvd_periods == fidelity_tvd(f->real.usage, f->sim.usage, f->state_count));
	assert_true(f->tvd_time == fidelity_tvd(f->real.time_ns, f->sim.time_ns, f->state_count));
	assert_true(f->same_state <= f->matched);
	assert_true(f->matched <= f->real.periods->len && f->matched <= f->sim.periods->len);
}

/*
 * kernel-timing.txt's complete periods (test-convert.c): C1E 100..1010 µs,
 * POLL 1100..1130 and 1134..1300; the C1 entry at 1400 has no exit.  On
 * qemu-tcg: the C1E period is below (910 − 10 ≥ C6's 600), each polling
 * period below (more than C1's 2 µs); none above.  No tick_stop events.
 * The log's first two selects precede their entries by 1 and 0.5 µs with
 * the states entered; the third names C1 for a POLL entry and is not the
 * period's.  Three of its four selects carry a 20 µs limit.
 */
static void test_real_side_and_inputs(void **state)
{
	g_autofree char *calls = testdata("kernel-timing.calls");
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) selects = NULL;
	struct fixture fx;
	struct fidelity f;

	(void)state;
	fixture_open(&fx, 0);
	assert_true(fidelity_read_selects(calls, &selects, &error));
	fx.options.calls = calls;
	fx.options.selects = selects;
	if (!fidelity_compute(&fx.options, &fx.capture, &fx.imported, fx.trace, &f, &error))
		fail_msg("%s", error->message);
	assert_int_equal(f.real.periods->len, 3);
	assert_int_equal(f.real.usage[0], 2);
	assert_int_equal(f.real.usage[2], 1);
	assert_int_equal(f.real.time_ns[0], 196000);
	assert_int_equal(f.real.time_ns[2], 910000);
	assert_int_equal(f.real.idle_ns, 1106000);
	assert_int_equal(f.real.above, 0);
	assert_int_equal(f.real.below, 3);
	assert_int_equal(f.real.tick_stops, 0);
	assert_int_equal(f.with_inputs, 2);
	assert_int_equal(f.select_lag_ns, 1000);
	assert_consistent(&f);
	fidelity_clear(&f);

	assert_int_equal(fidelity_latency_limit(selects, fx.capture.first_ns, fx.capture.last_ns),
			 20);
	/* Only the last select, outside the capture but for its last µs: no limit. */
	assert_int_equal(fidelity_latency_limit(selects, 200001398000, 200001400000), INT32_MAX);
	fixture_close(&fx);
}

/* With 1 ms of warm-up only the two polling periods, entered at 1100 and 1134 µs, count. */
static void test_warmup(void **state)
{
	g_autoptr(GError) error = NULL;
	struct fixture fx;
	struct fidelity f;

	(void)state;
	fixture_open(&fx, 1000000);
	assert_true(fidelity_compute(&fx.options, &fx.capture, &fx.imported, fx.trace, &f, &error));
	assert_int_equal(f.real.periods->len, 2);
	assert_int_equal(f.real.usage[0], 2);
	assert_int_equal(f.real.usage[2], 0);
	for (guint i = 0; i < f.sim.periods->len; i++)
		assert_true(g_array_index(f.sim.periods, struct fid_period, i).entry_ns + 100000 >=
			    200001100000);
	assert_consistent(&f);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/*
 * A simulated period ends where the real side's do, at the idle exit: the
 * CPU woken by the timer whose interrupt came at 200.001000 s (its
 * hrtimer_expire_entry) leaves idle once the state's exit cost has passed,
 * and its residency is the one the governor measures.
 */
static void test_sim_exit_after_exit_cost(void **state)
{
	g_autoptr(GError) error = NULL;
	struct fixture fx;
	struct fidelity f;
	guint woken = 0;

	(void)state;
	fixture_open(&fx, 0);
	assert_true(fidelity_compute(&fx.options, &fx.capture, &fx.imported, fx.trace, &f, &error));
	for (guint i = 0; i < f.sim.periods->len; i++) {
		const struct fid_period *p = &g_array_index(f.sim.periods, struct fid_period, i);

		if (p->cause != WAKE_TIMER)
			continue;
		assert_int_equal(p->exit_ns, 200001000000 +
				 (uint64_t)fx.platform.states[p->state].exit_cost_us * 1000);
		woken++;
	}
	assert_int_equal(woken, 1);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/* The CSV: a header, then every period once, matched pairs on one line. */
static void test_periods_csv(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	struct fixture fx;
	struct fidelity f;
	size_t size;
	FILE *out;

	(void)state;
	fixture_open(&fx, 0);
	assert_true(fidelity_compute(&fx.options, &fx.capture, &fx.imported, fx.trace, &f, &error));
	out = open_memstream(&text, &size);
	fidelity_write_periods(out, &f);
	assert_int_equal(fclose(out), 0);
	lines = g_strsplit(text, "\n", -1);
	assert_true(g_str_has_prefix(lines[0], "cpu,real_entry_ns,"));
	assert_int_equal(g_strv_length(lines) - 2,
			 f.real.periods->len + f.sim.periods->len - f.matched);
	for (char **l = lines + 1; *l && **l; l++) {
		g_auto(GStrv) fields = g_strsplit(*l, ",", -1);

		assert_int_equal(g_strv_length(fields), 15);
	}
	fidelity_clear(&f);
	fixture_close(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tvd),
		cmocka_unit_test(test_real_side_and_inputs),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_sim_exit_after_exit_cost),
		cmocka_unit_test(test_periods_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

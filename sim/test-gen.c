// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario generator: determinism, traces that read back, shapes that
 * follow from a scenario's rules, the bundled traces, scenario errors.
 */
#include <math.h>
#include <stdio.h>

#include "gen-random.h"
#include "gen.h"
#include "test-files.h"
#include "trace.h"

#define SCENARIOS	TEOSIM_SOURCE_ROOT "/traces/scenarios"
#define TRACES		TEOSIM_SOURCE_ROOT "/traces"
#define EXAMPLE		SCENARIOS "/example.scenario"

/* The trace gen_write() makes, as a string. */
static char *generate(const char *scenario, uint32_t seed, size_t *len)
{
	g_autoptr(GError) error = NULL;
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	assert_non_null(out);
	if (!gen_write(scenario, seed, out, &error))
		fail_msg("%s", error->message);
	assert_int_equal(fclose(out), 0);
	if (len)
		*len = size;
	return buf;
}

static char *generate_file(const char *dir, const char *scenario_text, uint32_t seed)
{
	g_autofree char *scenario = test_write(dir, "s.scenario", scenario_text, -1);
	size_t len;
	g_autofree char *text = generate(scenario, seed, &len);

	return test_write(dir, "s.trace", text, (gssize)len);
}

static GArray *read_all(const char *path)
{
	GArray *events = g_array_new(FALSE, FALSE, sizeof(struct trace_event));
	g_autoptr(GError) error = NULL;
	struct trace_reader *r = trace_open(path, &error);
	const struct trace_event *ev;
	int ret;

	if (!r)
		fail_msg("%s", error->message);
	while ((ret = trace_next(r, &ev, &error)) > 0)
		g_array_append_vals(events, ev, 1);
	if (ret < 0)
		fail_msg("%s", error->message);
	trace_close(r);
	return events;
}

#define EV(a, i)	(&g_array_index((a), struct trace_event, (i)))

static void test_same_seed_same_bytes(void **state)
{
	size_t l1, l2, l3;
	g_autofree char *a = generate(EXAMPLE, 7, &l1);
	g_autofree char *b = generate(EXAMPLE, 7, &l2);
	g_autofree char *c = generate(EXAMPLE, 8, &l3);

	(void)state;
	assert_int_equal(l1, l2);
	assert_memory_equal(a, b, l1);
	assert_true(l1 != l3 || memcmp(a, c, l1) != 0);
}

/* example.scenario: 4 CPUs, phases timers, io, ipi, mixed of 1000 ms each. */
static void test_example_reads_back(void **state)
{
	g_autofree char *dir = test_tmpdir();
	size_t len;
	g_autofree char *text = generate(EXAMPLE, 1, &len);
	g_autofree char *path = test_write(dir, "example.trace", text, (gssize)len);
	g_autoptr(GError) error = NULL;
	struct trace_reader *r = trace_open(path, &error);
	static const char *const phases[] = { "timers", "io", "ipi", "mixed" };
	g_autoptr(GArray) all = NULL;
	unsigned int kinds[TRACE_IOWAIT + 1] = { 0 }, nr_phases = 0, per_cpu[4] = { 0 };

	(void)state;
	assert_non_null(r);
	assert_int_equal(trace_header(r)->nr_cpus, 4);
	assert_true(trace_header(r)->end_ns == 4000000000u);
	assert_string_equal(trace_header(r)->name, "example");
	trace_close(r);
	all = read_all(path);
	for (unsigned int i = 0; i < all->len; i++) {
		const struct trace_event *ev = EV(all, i);

		assert_true(ev->kind < G_N_ELEMENTS(kinds));
		kinds[ev->kind]++;
		if (ev->kind != TRACE_PHASE)
			per_cpu[ev->cpu]++;
		if (ev->kind == TRACE_PHASE) {
			assert_true(nr_phases < 4);
			assert_string_equal(ev->phase, phases[nr_phases]);
			assert_true(ev->at_ns == nr_phases * 1000000000ull);
			nr_phases++;
		}
		/* Only the source "batch" makes busy periods, in phase "mixed". */
		if (ev->kind == TRACE_BUSY)
			assert_true(ev->at_ns >= 3000000000ull);
	}
	assert_int_equal(nr_phases, 4);
	assert_true(kinds[TRACE_TIMER] && kinds[TRACE_CANCEL] && kinds[TRACE_IRQ] &&
		    kinds[TRACE_BUSY] && kinds[TRACE_IOWAIT]);
	/* The housekeeping timer runs on every CPU. */
	for (int cpu = 0; cpu < 4; cpu++)
		assert_true(per_cpu[cpu] > 0);
	test_rmtree(dir);
}

/*
 * One exact periodic timer on one CPU for one 1000 ms phase: the rules give
 * the whole trace: the phase, the timer armed at 0 with its first expiry in
 * (0, 10 ms] and period 10 ms, and its cancel when the phase ends.
 */
static void test_exact_periodic_trace(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = generate_file(dir,
		"[scenario]\nname=one\ncpus=1\n[phase only]\nduration_ms=1000\n"
		"[source tick]\nkind=periodic\nrate_hz=100\nwork_us=5\n", 3);
	g_autoptr(GArray) ev = read_all(path);

	(void)state;
	assert_int_equal(ev->len, 3);
	assert_int_equal(EV(ev, 0)->kind, TRACE_PHASE);
	assert_int_equal(EV(ev, 1)->kind, TRACE_TIMER);
	assert_true(EV(ev, 1)->at_ns == 0 && EV(ev, 1)->period_ns == 10000000);
	assert_true(EV(ev, 1)->expires_ns >= 1 && EV(ev, 1)->expires_ns <= 10000000);
	assert_true(EV(ev, 1)->work_ns == 5000);
	assert_int_equal(EV(ev, 2)->kind, TRACE_CANCEL);
	assert_true(EV(ev, 2)->at_ns == 1000000000 && EV(ev, 2)->timer_id == EV(ev, 1)->timer_id);
	test_rmtree(dir);
}

/*
 * A 1000 Hz timer with 100 us jitter for 100 ms: a chain of one-shots, each
 * armed when the last expires, 0.9 to 1.1 ms apart (the first within 1 ms),
 * cancelled at the end only if the last one is still armed.
 */
static void test_jittered_chain(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = generate_file(dir,
		"[scenario]\nname=j\ncpus=1\n[phase only]\nduration_ms=100\n"
		"[source tick]\nkind=periodic\nrate_hz=1000\njitter_us=100\n", 1);
	g_autoptr(GArray) ev = read_all(path);
	uint64_t expires = 0;
	unsigned int timers = 0;

	(void)state;
	for (unsigned int i = 1; i < ev->len; i++) {
		const struct trace_event *e = EV(ev, i);

		if (e->kind == TRACE_CANCEL) {
			assert_int_equal(i, ev->len - 1);
			assert_true(e->at_ns == 100000000 && expires > 100000000);
			continue;
		}
		assert_int_equal(e->kind, TRACE_TIMER);
		assert_true(e->at_ns == expires && e->period_ns == 0);
		if (timers++ == 0)
			assert_true(e->expires_ns >= 1 && e->expires_ns <= 1000000);
		else
			assert_true(e->expires_ns - e->at_ns >= 900000 &&
				    e->expires_ns - e->at_ns <= 1100000);
		expires = e->expires_ns;
	}
	assert_true(timers >= 95 && timers <= 105);
	test_rmtree(dir);
}

/*
 * Ping-pong, 2 round trips: each exchange is 5 interrupts on CPUs 0, 1, 0,
 * 1, 0, each 7 us of work + 3 us latency after the one before.
 */
static void test_pingpong_shape(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = generate_file(dir,
		"[scenario]\nname=pp\ncpus=2\n[phase only]\nduration_ms=1000\n"
		"[source pp]\nkind=pingpong\nrate_hz=100\nrounds=2\nlatency_us=3\nwork_us=7\n", 1);
	g_autoptr(GArray) ev = read_all(path);
	unsigned int irqs = 0;
	uint64_t prev = 0;

	(void)state;
	for (unsigned int i = 1; i < ev->len; i++, irqs++) {
		const struct trace_event *e = EV(ev, i);

		assert_int_equal(e->kind, TRACE_IRQ);
		assert_true(e->work_ns == 7000);
		assert_int_equal(e->cpu, (irqs % 5) % 2);
		if (irqs % 5)
			assert_true(e->at_ns == prev + 10000);
		prev = e->at_ns;
	}
	assert_true(irqs / 5 >= 70 && irqs / 5 <= 130);
	test_rmtree(dir);
}

/*
 * Tasks waiting for I/O: each io source's task waits on its CPU while its
 * stretch lasts, and the trace gives each CPU's sum.  CPU 0 has two io
 * sources, one from 0 to 1 s (phases a, b), one over b only, 0.5 to 1 s;
 * CPU 1 one, over b.  The records, in order: at 0 CPU 0 has 1; at 0.5 s
 * CPU 0 has 2, then CPU 1 has 1 (stream order: the second source's CPU 0
 * copy, then the third's); at 1 s all end: CPU 0 1, then 0, CPU 1 0.
 */
static void test_io_tasks_wait(void **state)
{
	static const struct { uint64_t at_ns; unsigned int cpu; uint32_t tasks; } want[] = {
		{ 0, 0, 1 }, { 500000000, 0, 2 }, { 500000000, 1, 1 },
		{ 1000000000, 0, 1 }, { 1000000000, 0, 0 }, { 1000000000, 1, 0 },
	};
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = generate_file(dir,
		"[scenario]\nname=io\ncpus=2\n[phase a]\nduration_ms=500\n[phase b]\nduration_ms=500\n"
		"[source disk]\nkind=io\ncpus=0\nlatency_us=100\nwork_us=10\n"
		"[source fast]\nkind=io\nphases=b\ncpus=0\nlatency_us=50\n"
		"[source slow]\nkind=io\nphases=b\ncpus=1\nlatency_us=1000\n", 1);
	g_autoptr(GArray) ev = read_all(path);
	unsigned int n = 0;

	(void)state;
	for (guint i = 0; i < ev->len; i++) {
		const struct trace_event *e = EV(ev, i);

		if (e->kind != TRACE_IOWAIT)
			continue;
		assert_true(n < G_N_ELEMENTS(want));
		assert_int_equal(e->at_ns, want[n].at_ns);
		assert_int_equal(e->cpu, want[n].cpu);
		assert_int_equal(e->iowait_tasks, want[n].tasks);
		n++;
	}
	assert_int_equal(n, G_N_ELEMENTS(want));
	test_rmtree(dir);
}

/* Every bundled trace is what `teosim gen SCENARIO --seed 1` writes, and reads back. */
static void test_bundled_traces_are_generated(void **state)
{
	g_autoptr(GDir) dir = g_dir_open(SCENARIOS, 0, NULL);
	unsigned int n = 0;
	const char *name;

	(void)state;
	assert_non_null(dir);
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *scenario = g_build_filename(SCENARIOS, name, NULL);
		g_autofree char *base = NULL, *trace = NULL, *bundled = NULL, *made = NULL;
		g_autoptr(GArray) events = NULL;
		size_t len, made_len;

		if (!g_str_has_suffix(name, ".scenario"))
			continue;
		base = g_strndup(name, strlen(name) - strlen(".scenario"));
		trace = g_strconcat(TRACES "/", base, ".trace", NULL);
		if (!g_file_get_contents(trace, &bundled, &len, NULL))
			fail_msg("%s: no bundled trace for %s", trace, scenario);
		made = generate(scenario, 1, &made_len);
		if (len != made_len || memcmp(bundled, made, len))
			fail_msg("%s differs from what %s gives with seed 1", trace, scenario);
		assert_true(len < 2 * 1024 * 1024);
		events = read_all(trace);
		assert_true(events->len > 0);
		n++;
	}
	assert_true(n >= 6);
}

/* gen_log() against libm: equal to within a few units in the last place. */
static void test_log(void **state)
{
	(void)state;
	for (double x = 1e-300; x <= 1.0; x *= 1.37) {
		double want = log(x), got = gen_log(x);

		assert_true(fabs(got - want) <= 4e-16 * fmax(1.0, fabs(want)));
	}
	assert_true(fabs(gen_log(1.0)) < 1e-16);
}

/* A valid scenario; the tests replace its lines.  Line numbers in the comments. */
static const char base[] =
	"[scenario]\n"		/* 1 */
	"name=s\n"		/* 2 */
	"cpus=2\n"		/* 3 */
	"\n"			/* 4 */
	"[phase a]\n"		/* 5 */
	"duration_ms=10\n"	/* 6 */
	"\n"			/* 7 */
	"[phase b]\n"		/* 8 */
	"duration_ms=10\n"	/* 9 */
	"\n"			/* 10 */
	"[source x]\n"		/* 11 */
	"kind=poisson\n"	/* 12 */
	"phases=a\n"		/* 13 */
	"cpus=0,1\n"		/* 14 */
	"rate_hz=100\n"		/* 15 */
	"work_us=5\n";		/* 16 */

static void expect_error_in(const char *text, unsigned long line, const char *key)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "bad.scenario", text, -1);
	g_autoptr(GError) error = NULL;
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	if (gen_write(path, 1, out, &error))
		fail_msg("accepted:\n%s", text);
	fclose(out);
	free(buf);
	test_assert_names(error, path, line, key);
	test_rmtree(dir);
}

static void expect_error(unsigned int replace, const char *with, unsigned long line,
			 const char *key)
{
	g_autofree char *text = test_replace_line(base, replace, with);

	expect_error_in(text, line, key);
}

static void test_base_scenario_is_valid(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = generate_file(dir, base, 1);
	g_autoptr(GArray) ev = read_all(path);

	(void)state;
	/* Poisson at 100 Hz on 2 CPUs for 10 ms: a few interrupts at most, all in phase a. */
	for (unsigned int i = 0; i < ev->len; i++)
		if (EV(ev, i)->kind == TRACE_IRQ)
			assert_true(EV(ev, i)->at_ns < 10000000);
	test_rmtree(dir);
}

static void test_bad_rates(void **state)
{
	(void)state;
	expect_error(15, "rate_hz=-3", 15, "rate_hz");
	expect_error(15, "rate_hz=0", 15, "rate_hz");
	expect_error(15, "rate_hz=fast", 15, "rate_hz");
	expect_error(15, "rate_hz=1e400", 15, "rate_hz");
	expect_error(16, "work_us=-1", 16, "work_us");
	expect_error(6, "duration_ms=0", 6, "duration_ms");
}

static void test_unknown_keys_and_groups(void **state)
{
	(void)state;
	expect_error(16, "work_us=5\ncolor=red", 17, "color");
	expect_error(16, "gap_us=3", 16, "gap_us");		/* bursty's, not poisson's */
	expect_error(3, "cpus=2\nseed=4", 4, "seed");
	expect_error(8, "[stage b]", 8, "stage b");
	expect_error(12, "kind=sometimes", 12, "kind");
	expect_error(7, "[phase a]", 7, "phase a");		/* a second [phase a] */
}

static void test_missing_keys(void **state)
{
	(void)state;
	expect_error(15, "", 11, "rate_hz");
	expect_error(12, "", 11, "kind");
	expect_error(2, "", 1, "name");
	expect_error(6, "", 5, "duration_ms");
}

static void test_bad_lists(void **state)
{
	(void)state;
	expect_error(13, "phases=a,c", 13, "phases");
	expect_error(14, "cpus=0,2", 14, "cpus");
	expect_error(14, "cpus=1,1", 14, "cpus");
	expect_error(3, "cpus=0", 3, "cpus");
}

static void test_kind_rules(void **state)
{
	g_autofree char *pp = test_replace_line(base, 14, "cpus=0\nrounds=1");
	g_autofree char *pp1 = test_replace_line(pp, 12, "kind=pingpong");
	g_autofree char *per = test_replace_line(base, 16, "jitter_us=5000");
	g_autofree char *per1 = test_replace_line(per, 12, "kind=periodic");
	g_autofree char *rounds = test_replace_line(base, 16, "rounds=1.5");
	g_autofree char *rounds1 = test_replace_line(rounds, 12, "kind=pingpong");

	(void)state;
	expect_error_in(pp1, 14, "cpus");		/* a ping-pong needs 2 CPUs */
	expect_error_in(per1, 16, "jitter_us");		/* half of the 10 ms period */
	expect_error_in(rounds1, 16, "rounds");
}

static void test_no_phase(void **state)
{
	(void)state;
	expect_error_in("[scenario]\nname=s\ncpus=1\n", 1, "phase");
	expect_error_in("[scenario]\nname=s\ncpus=1\n[phase a]\nduration_ms=1\n"
			"[source x]\nkind=busy\nrate_hz=1\nwork_us=0\n", 9, "work_us");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_same_bytes),
		cmocka_unit_test(test_example_reads_back),
		cmocka_unit_test(test_exact_periodic_trace),
		cmocka_unit_test(test_jittered_chain),
		cmocka_unit_test(test_pingpong_shape),
		cmocka_unit_test(test_io_tasks_wait),
		cmocka_unit_test(test_bundled_traces_are_generated),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_base_scenario_is_valid),
		cmocka_unit_test(test_bad_rates),
		cmocka_unit_test(test_unknown_keys_and_groups),
		cmocka_unit_test(test_missing_keys),
		cmocka_unit_test(test_bad_lists),
		cmocka_unit_test(test_kind_rules),
		cmocka_unit_test(test_no_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

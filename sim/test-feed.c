// SPDX-License-Identifier: GPL-2.0
/*
 * One pass over a trace file feeds several CPU simulations (feed.c): each
 * gets its own CPU's events, however many listen to the same CPU; phase
 * markers go to the hook; a reader's error reaches every listener that has
 * not failed by itself, and one that has keeps its own error.  Platform and
 * times: test-sim.h (C6: exit 100 us).
 */
#include <kshim/registry.h>

#include "feed.h"
#include "test-files.h"
#include "test-sim.h"

/* Two CPUs; the scripted governor picks C6 and stops the tick, so only interrupts wake them. */
static const char TRACE[] =
	"teosim-trace 1\n"
	"cpus 2\n"
	"end_ns 10000000\n"
	"phase at_ns=0 name=a\n"
	"irq at_ns=1000000 cpu=0 work_ns=100000\n"
	"irq at_ns=2000000 cpu=1 work_ns=100000\n"
	"phase at_ns=5000000 name=b\n"
	"irq at_ns=6000000 cpu=0 work_ns=100000\n";

static const struct script_step C6_STOP = { 2, true };

#define NR_LISTENERS	3

struct feed_test {
	char *dir;
	struct platform platform;
	struct sim_config cfg;
	struct sim_cpu cpus[NR_LISTENERS];
	struct feed_listener l[NR_LISTENERS];
	GString *phases;	/* "name@at_ns " for each phase the hook saw */
};

static void note_phase(void *priv, const struct trace_event *ev)
{
	g_string_append_printf(priv, "%s@%" G_GUINT64_FORMAT " ", ev->phase, ev->at_ns);
}

/*
 * Listener k runs governor names[k] on CPU cpus[k], fed from a trace of
 * text; the scripted governor follows step.
 */
static bool feed(struct feed_test *t, const char *text, const char *const *names,
		 const unsigned int *cpus, struct script_step step)
{
	g_autofree char *path = NULL;
	struct feed_hooks hooks = { .phase = note_phase };
	struct trace_reader *r;
	GError *error = NULL;
	bool ok;

	kshim_registry_init();
	memset(&script, 0, sizeof(script));
	script.steps[0] = step;
	script.nr_steps = 1;
	t->dir = test_tmpdir();
	path = test_write(t->dir, "feed.trace", text, -1);
	test_platform(&t->platform);
	t->cfg = (struct sim_config){ .platform = &t->platform, .hz = 250,
				      .latency_limit_us = INT32_MAX, .end_ns = 10 * MS };
	t->phases = g_string_new(NULL);
	hooks.priv = t->phases;
	for (unsigned int k = 0; k < NR_LISTENERS; k++) {
		assert_true(sim_cpu_init(&t->cpus[k], cpus[k], kshim_governor_find(names[k]),
					 &t->cfg, &error));
		t->l[k] = (struct feed_listener){ .cpu = &t->cpus[k] };
	}
	r = trace_open(path, &error);
	assert_non_null(r);
	ok = trace_feed(r, t->l, NR_LISTENERS, &hooks);
	trace_close(r);
	return ok;
}

static void feed_test_clear(struct feed_test *t)
{
	for (unsigned int k = 0; k < NR_LISTENERS; k++) {
		sim_cpu_clear(&t->cpus[k]);
		g_clear_error(&t->l[k].error);
	}
	g_string_free(t->phases, TRUE);
	test_rmtree(t->dir);
	g_free(t->dir);
}

static uint64_t c6_usage(const struct sim_cpu *c)
{
	struct kshim_usage u;

	kshim_machine_usage(c->machine, 0, 2, &u);
	return u.usage;
}

/*
 * CPU 0 sleeps in C6 from 0 to the interrupt at 1 ms and from 1.2 ms (its
 * exit latency and work done) to the one at 6 ms; from 6.2 ms it sleeps past
 * the end: two periods.  CPU 1 wakes at 2 ms only: one.  The second
 * listener on CPU 0 sees all that CPU's events too.
 */
static void test_each_listener_gets_its_cpu(void **state)
{
	static const char *const names[] = { "script-6.1", "script-6.1", "script-6.1" };
	static const unsigned int cpus[] = { 0, 1, 0 };
	struct feed_test t;

	(void)state;
	assert_true(feed(&t, TRACE, names, cpus, C6_STOP));
	assert_int_equal(c6_usage(&t.cpus[0]), 2);
	assert_int_equal(c6_usage(&t.cpus[1]), 1);
	assert_int_equal(c6_usage(&t.cpus[2]), 2);
	assert_int_equal(t.cpus[0].busy_ns, 200 * US);
	assert_int_equal(t.cpus[1].busy_ns, 100 * US);
	assert_string_equal(t.phases->str, "a@0 b@5000000 ");
	for (unsigned int k = 0; k < NR_LISTENERS; k++)
		assert_null(t.l[k].error);
	feed_test_clear(&t);
}

/* A bad line 9: every listener fails with the reader's file:line:field. */
static void test_reader_error_reaches_all(void **state)
{
	static const char *const names[] = { "script-6.1", "script-6.1", "menu-6.1" };
	static const unsigned int cpus[] = { 0, 1, 1 };
	g_autofree char *text = g_strconcat(TRACE, "irq at_ns=7000000 cpu=2\n", NULL);
	struct feed_test t;

	(void)state;
	assert_false(feed(&t, text, names, cpus, C6_STOP));
	for (unsigned int k = 0; k < NR_LISTENERS; k++) {
		assert_non_null(t.l[k].error);
		assert_non_null(strstr(t.l[k].error->message, "feed.trace:9: cpu:"));
	}
	feed_test_clear(&t);
}

/*
 * The scripted governor asks for state 3 of three: that listener fails at
 * its first select and keeps its error; the others run on, and then meet
 * the reader's error at line 9.
 */
static void test_own_failure_kept(void **state)
{
	static const char *const names[] = { "script-6.1", "menu-6.1", "teo-6.1" };
	static const unsigned int cpus[] = { 0, 0, 1 };
	static const struct script_step BAD = { 3, true };
	g_autofree char *text = g_strconcat(TRACE, "irq at_ns=7000000 cpu=2\n", NULL);
	struct feed_test t;

	(void)state;
	assert_false(feed(&t, text, names, cpus, BAD));
	assert_non_null(strstr(t.l[0].error->message, "selected state 3 of 3"));
	assert_non_null(strstr(t.l[1].error->message, "feed.trace:9: cpu:"));
	assert_non_null(strstr(t.l[2].error->message, "feed.trace:9: cpu:"));
	feed_test_clear(&t);
}

/* A listener on a CPU the trace does not have fails; the others run as if it were not there. */
static void test_listener_on_missing_cpu(void **state)
{
	static const char *const names[] = { "script-6.1", "script-6.1", "script-6.1" };
	static const unsigned int cpus[] = { 0, 5, 1 };
	struct feed_test t;

	(void)state;
	assert_false(feed(&t, TRACE, names, cpus, C6_STOP));
	assert_non_null(strstr(t.l[1].error->message, "CPU 5: the trace has 2 CPUs"));
	assert_null(t.l[0].error);
	assert_null(t.l[2].error);
	assert_int_equal(c6_usage(&t.cpus[0]), 2);
	assert_int_equal(c6_usage(&t.cpus[2]), 1);
	feed_test_clear(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_listener_gets_its_cpu),
		cmocka_unit_test(test_reader_error_reaches_all),
		cmocka_unit_test(test_own_failure_kept),
		cmocka_unit_test(test_listener_on_missing_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

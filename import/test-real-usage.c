// SPDX-License-Identifier: GPL-2.0
/*
 * The real kernel's counters from a capture: usage and time per state
 * from complete entry/exit pairs, above and below by the 6.x definitions.
 * Expected values are worked out by hand in each test's comment, with the
 * bundled skx platform: POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 (exit
 * latency / target residency, µs).
 */
#include "real-usage.h"
#include "test-import-helpers.h"

static void compute_ok(const char *capture, const char *platform, struct real_usage *u)
{
	g_autoptr(GError) error = NULL;
	struct platform p;
	struct capture c;

	load_ok(capture, &c);
	assert_true(platform_load(platform, &p, &error));
	if (!real_usage_compute(&c, &p, u, NULL, &error))
		fail_msg("%s", error->message);
	platform_clear(&p);
	capture_clear(&c);
}

/*
 * basic.txt, complete periods:
 *   cpu 0: C1E 10..1005 = 995 µs: not above (>= 20); 995 - 10 = 985 >= C6's 600: below.
 *   cpu 0: C6 1206..1306 = 100 µs < 600 with shallower states enabled: above.
 *   cpu 0: C1 1407..2000 = 593 µs: 593 - 2 >= C1E's 20: below.
 *   cpu 1: C1 800..1500 = 700 µs: below likewise.
 * Cut: cpu 1's exit at 500 (no entry), the open periods at the end of
 * cpu 0 (2003) and cpu 1 (1600).  The kernel's cpu_idle_miss: one below in C1.
 */
static void test_basic(void **state)
{
	struct real_usage u;

	(void)state;
	compute_ok("basic.txt", "skx", &u);
	assert_int_equal(u.periods, 4);
	assert_int_equal(u.partial, 3);
	assert_int_equal(u.states[0].usage, 0);
	assert_int_equal(u.states[1].usage, 2);
	assert_int_equal(u.states[1].time_ns, 1293000);
	assert_int_equal(u.states[1].above, 0);
	assert_int_equal(u.states[1].below, 2);
	assert_int_equal(u.states[1].miss_below, 1);
	assert_int_equal(u.states[2].usage, 1);
	assert_int_equal(u.states[2].time_ns, 995000);
	assert_int_equal(u.states[2].below, 1);
	assert_int_equal(u.states[3].usage, 1);
	assert_int_equal(u.states[3].time_ns, 100000);
	assert_int_equal(u.states[3].above, 1);
	assert_int_equal(u.states[3].below, 0);
	assert_true(u.have_miss_events);
}

/*
 * lost.txt: C6 0..1000 (deepest: never below, 1000 >= 600: not above);
 * the C6 period from 1100 is cut by the lost events; C1 5200..6200 =
 * 1000 µs: below; the period from 6300 is open at the end.
 */
static void test_lost_periods_left_out(void **state)
{
	struct real_usage u;

	(void)state;
	compute_ok("lost.txt", "skx", &u);
	assert_int_equal(u.periods, 2);
	assert_int_equal(u.partial, 2);
	assert_int_equal(u.states[3].usage, 1);
	assert_int_equal(u.states[3].time_ns, 1000000);
	assert_int_equal(u.states[3].above + u.states[3].below, 0);
	assert_int_equal(u.states[1].usage, 1);
	assert_int_equal(u.states[1].below, 1);
}

/*
 * report.txt: C1E 10..510 = 500 µs: not above, 500 - 10 = 490 < 600: not
 * below.  Cut: cpu 1's period across the dropped events, and both CPUs'
 * open periods at the end.  One tick_stop with success=1.
 */
static void test_trace_cmd_report(void **state)
{
	struct real_usage u;

	(void)state;
	compute_ok("report.txt", "skx", &u);
	assert_int_equal(u.periods, 1);
	assert_int_equal(u.partial, 3);
	assert_int_equal(u.states[2].usage, 1);
	assert_int_equal(u.states[2].above + u.states[2].below, 0);
	assert_int_equal(u.tick_stops, 1);
	assert_false(u.have_miss_events);
}

/* A platform for the definitions: exit latency / target residency in µs. */
static void definition_platform(struct platform *p, bool poll_disabled)
{
	static const struct { const char *name; uint32_t lat, target; bool disabled; } s[] = {
		{ "POLL", 0, 0, false }, { "A", 10, 20, false }, { "B", 50, 200, true },
		{ "C", 100, 1000, false },
	};

	memset(p, 0, sizeof(*p));
	p->name = g_strdup("definitions");
	p->state_count = G_N_ELEMENTS(s);
	for (unsigned int i = 0; i < p->state_count; i++) {
		strcpy(p->states[i].desc.name, s[i].name);
		p->states[i].desc.exit_latency_us = s[i].lat;
		p->states[i].desc.target_residency_us = s[i].target;
		p->states[i].desc.disabled = s[i].disabled;
	}
	p->states[0].desc.polling = true;
	p->states[0].desc.disabled = poll_disabled;
}

/*
 * One CPU's periods, each "state residency_µs":
 *   A 15:   15 < 20, POLL enabled: above.
 *   A 20:   20 >= 20: not above; 20 - 10 = 10 < C's 1000: not below.
 *   A 1010: 1010 - 10 = 1000 >= 1000 (B is disabled, C is next): below.
 *   A 1009: 999 < 1000: not below, though B's 200 would have fit.
 *   C 500:  500 < 1000, A enabled: above.
 *   POLL 5: 5 - 0 < A's 20: nothing.  POLL 30: 30 >= 20: below.
 * With POLL disabled, A 15 has no enabled shallower state: not above.
 */
static void test_above_below_definitions(void **state)
{
	static const unsigned int periods[][2] = {
		{ 1, 15 }, { 1, 20 }, { 1, 1010 }, { 1, 1009 }, { 3, 500 }, { 0, 5 }, { 0, 30 },
	};
	g_autofree char *dir = test_tmpdir();
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	g_autofree char *path = NULL;
	struct real_usage u;
	struct platform p;
	struct capture c;
	uint64_t t = 0;

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(periods); i++) {
		g_string_append_printf(text, "<idle>-0 [000] d..1. 1.%06" G_GUINT64_FORMAT
				       ": cpu_idle: state=%u cpu_id=0\n", t, periods[i][0]);
		t += periods[i][1];
		g_string_append_printf(text, "<idle>-0 [000] d..1. 1.%06" G_GUINT64_FORMAT
				       ": cpu_idle: state=4294967295 cpu_id=0\n", t);
		t += 10;
	}
	path = test_write(dir, "periods.txt", text->str, -1);
	assert_true(capture_load(path, &c, &error));
	definition_platform(&p, false);
	assert_true(real_usage_compute(&c, &p, &u, NULL, &error));
	assert_int_equal(u.states[1].usage, 4);
	assert_int_equal(u.states[1].above, 1);
	assert_int_equal(u.states[1].below, 1);
	assert_int_equal(u.states[3].above, 1);
	assert_int_equal(u.states[0].usage, 2);
	assert_int_equal(u.states[0].below, 1);
	platform_clear(&p);
	definition_platform(&p, true);
	assert_true(real_usage_compute(&c, &p, &u, NULL, &error));
	assert_int_equal(u.states[1].above, 0);
	platform_clear(&p);
	capture_clear(&c);
	test_rmtree(dir);
}

/* basic.txt's line 14 enters state 2: a two-state platform cannot be the captured one. */
static void test_wrong_platform(void **state)
{
	g_autoptr(GError) error = NULL;
	struct real_usage u;
	struct platform p;
	struct capture c;

	(void)state;
	load_ok("basic.txt", &c);
	definition_platform(&p, false);
	p.state_count = 2;
	assert_false(real_usage_compute(&c, &p, &u, NULL, &error));
	assert_non_null(strstr(error->message, "basic.txt:14: cpu 0 enters idle state 2, but "
			       "platform definitions has 2 states"));
	platform_clear(&p);
	capture_clear(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_lost_periods_left_out),
		cmocka_unit_test(test_trace_cmd_report),
		cmocka_unit_test(test_above_below_definitions),
		cmocka_unit_test(test_wrong_platform),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

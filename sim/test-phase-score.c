// SPDX-License-Identifier: GPL-2.0
/*
 * Phase scores: each verdict counts in the phase its period was entered
 * in, by the markers' times; the counts below are worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "phase-score.h"

static void verdict(struct phase_scores *s, uint64_t entry_ns, int state, int optimal,
		    bool above, bool below)
{
	struct idle_period p = { .entry_ns = entry_ns, .state = state };
	struct idle_verdict v = { .period = &p, .optimal = optimal, .above = above,
				  .below = below };

	phase_scores_add(s, &v);
}

static void test_periods_by_entry(void **state)
{
	struct phase_scores s = { 0 };

	(void)state;
	verdict(&s, 10, 1, 1, false, false);	/* before any marker: in no phase */
	phase_scores_begin(&s, 100, "warm");
	phase_scores_begin(&s, 1000, "hot");
	verdict(&s, 100, 1, 1, false, false);	/* warm: optimal */
	verdict(&s, 999, 2, 1, true, false);	/* warm: too deep, above */
	verdict(&s, 1000, 0, 1, false, true);	/* hot: too shallow, below */
	verdict(&s, 5000, 1, 1, false, false);	/* hot: optimal */
	assert_int_equal(s.n, 2);
	assert_string_equal(s.p[0].name, "warm");
	assert_int_equal(s.p[0].periods, 2);
	assert_int_equal(s.p[0].optimal, 1);
	assert_int_equal(s.p[0].above, 1);
	assert_int_equal(s.p[0].below, 0);
	assert_int_equal(s.p[1].periods, 2);
	assert_int_equal(s.p[1].optimal, 1);
	assert_int_equal(s.p[1].above, 0);
	assert_int_equal(s.p[1].below, 1);
}

static void test_late_verdicts_and_merge(void **state)
{
	struct phase_scores cpu0 = { 0 }, cpu1 = { 0 }, sum = { 0 };

	(void)state;
	/* A verdict comes once its idle stretch ends: after the next marker, here. */
	phase_scores_begin(&cpu0, 0, "a");
	phase_scores_begin(&cpu0, 500, "b");
	verdict(&cpu0, 400, 1, 1, false, false);	/* a */
	verdict(&cpu0, 600, 1, 2, false, true);		/* b */
	phase_scores_begin(&cpu1, 0, "a");
	phase_scores_begin(&cpu1, 500, "b");
	verdict(&cpu1, 700, 1, 1, false, false);	/* b */
	phase_scores_merge(&sum, &cpu0);
	phase_scores_merge(&sum, &cpu1);
	assert_int_equal(sum.p[0].periods, 1);
	assert_int_equal(sum.p[1].periods, 2);
	assert_int_equal(sum.p[1].optimal, 1);
	assert_int_equal(sum.p[1].below, 1);
}

static void test_more_phases_than_room(void **state)
{
	struct phase_scores s = { 0 };
	char name[8];

	(void)state;
	for (unsigned int i = 0; i < PHASE_SCORES_MAX + 3; i++) {
		snprintf(name, sizeof(name), "p%u", i);
		phase_scores_begin(&s, i * 100, name);
	}
	/* The later markers are dropped: their periods count in the last phase kept. */
	verdict(&s, (PHASE_SCORES_MAX + 2) * 100, 1, 1, false, false);
	assert_int_equal(s.n, PHASE_SCORES_MAX);
	assert_int_equal(s.p[PHASE_SCORES_MAX - 1].periods, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periods_by_entry),
		cmocka_unit_test(test_late_verdicts_and_merge),
		cmocka_unit_test(test_more_phases_than_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

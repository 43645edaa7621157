// SPDX-License-Identifier: GPL-2.0
/*
 * Means, intervals and the progress line, against values worked out by
 * hand (the working is in the comments).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "eta.h"
#include "stats.h"

static struct sweep_acc acc_of(const double *x, unsigned int n)
{
	struct sweep_acc a = { 0 };

	for (unsigned int i = 0; i < n; i++)
		sweep_acc_add(&a, x[i]);
	return a;
}

static void test_t_quantiles(void **state)
{
	(void)state;
	/* Printed tables of Student's t (two-sided 95%): df 1, 4, 10, 30. */
	assert_float_equal(sweep_t95(1), 12.706, 1e-9);
	assert_float_equal(sweep_t95(4), 2.776, 1e-9);
	assert_float_equal(sweep_t95(10), 2.228, 1e-9);
	assert_float_equal(sweep_t95(30), 2.042, 1e-9);
	/* Past the table the expansion takes over: df 40 is 2.021, 60 is 2.000, 120 is 1.980. */
	assert_float_equal(sweep_t95(40), 2.021, 5e-4);
	assert_float_equal(sweep_t95(60), 2.000, 5e-4);
	assert_float_equal(sweep_t95(120), 1.980, 5e-4);
	/* It falls towards the normal's 1.96 and never below it. */
	assert_true(sweep_t95(100000) > 1.959964 && sweep_t95(100000) < 1.96);
	for (unsigned int df = 1; df < 200; df++)
		assert_true(sweep_t95(df + 1) < sweep_t95(df));
}

static void test_interval(void **state)
{
	/*
	 * 1, 2, 3, 4, 5: mean 3, squares 4+1+0+1+4 = 10, variance 10/4 = 2.5,
	 * standard error sqrt(2.5/5) = 0.70711, times t(4) 2.776: 1.96293.
	 */
	const double x[] = { 1, 2, 3, 4, 5 };
	struct sweep_acc a = acc_of(x, 5);
	struct sweep_stat s = sweep_stat_of(&a);

	(void)state;
	assert_int_equal(s.n, 5);
	assert_float_equal(s.mean, 3, 1e-12);
	assert_true(s.interval);
	assert_float_equal(s.half_width, 2.776 * sqrt(0.5), 1e-12);
	assert_float_equal(s.half_width, 1.96293, 1e-5);
}

static void test_one_value_has_no_interval(void **state)
{
	const double x[] = { 7.5 };
	struct sweep_acc a = acc_of(x, 1);
	struct sweep_stat s = sweep_stat_of(&a);

	(void)state;
	assert_float_equal(s.mean, 7.5, 0);
	assert_false(s.interval);
	assert_false(sweep_stat_differs(&s));
}

static void test_differs(void **state)
{
	/* 1, 1.2, 0.8: mean 1, variance 0.04, se 0.11547, t(2) 4.303: 0.49686. */
	const double apart[] = { 1, 1.2, 0.8 };
	/* -1, 1, 0.3: mean 0.1, the interval holds zero. */
	const double around[] = { -1, 1, 0.3 };
	struct sweep_acc a = acc_of(apart, 3), b = acc_of(around, 3);
	struct sweep_stat sa = sweep_stat_of(&a), sb = sweep_stat_of(&b);

	(void)state;
	assert_float_equal(sa.half_width, 0.49686, 1e-5);
	assert_true(sweep_stat_differs(&sa));
	assert_false(sweep_stat_differs(&sb));
}

static void test_welford_keeps_precision(void **state)
{
	/* Values near 1e9 differing by 1: a naive sum of squares loses them. */
	const double x[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	struct sweep_acc a = acc_of(x, 3);
	struct sweep_stat s = sweep_stat_of(&a);

	(void)state;
	/* variance 1, se sqrt(1/3), t(2) 4.303 */
	assert_float_equal(s.half_width, 4.303 / sqrt(3), 1e-6);
}

static void test_eta(void **state)
{
	char line[128];

	(void)state;
	sweep_eta_format(line, sizeof(line), 0, 100, 0);
	assert_string_equal(line, "0/100 cells, estimating");
	/* 20 cells in 4 s: 5 cells/s, 80 left: 16 s. */
	sweep_eta_format(line, sizeof(line), 20, 100, 4);
	assert_string_equal(line, "20/100 cells, 5.0 cells/s, 16 s left");
	/* 1 cell in 10 s, 400 left: 4000 s = 1 h 06 min 40 s. */
	sweep_eta_format(line, sizeof(line), 1, 401, 10);
	assert_string_equal(line, "1/401 cells, 0.1 cells/s, 1 h 06 min left");
	/* 10 in 10 s, 95 left: 95 s. */
	sweep_eta_format(line, sizeof(line), 10, 105, 10);
	assert_string_equal(line, "10/105 cells, 1.0 cells/s, 1 min 35 s left");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_one_value_has_no_interval),
		cmocka_unit_test(test_differs),
		cmocka_unit_test(test_welford_keeps_precision),
		cmocka_unit_test(test_eta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

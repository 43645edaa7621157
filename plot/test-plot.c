// SPDX-License-Identifier: GPL-2.0
/*
 * The figures: data files hold the numbers they were given, gnuplot (the
 * real program) renders PNG and SVG of the promised size, and without
 * gnuplot the data and scripts are still written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "figures.h"
#include "gnuplot.h"

static const struct plot_state states[3] = {
	{ "POLL", 0 }, { "C1", 2 }, { "C6", 600 },
};

/*
 * Six periods, by hand: C1 good twice (idle 5 and 50 us: bins 6 and 16),
 * C1 below once (idle 2 ms, bin 33: C6 would have fitted), C6 above once
 * (idle 100 us, bin 20), C6 good twice (idle 1 ms, bin 30).  The chosen
 * state is optimal in the four good periods.
 */
static void fill(struct plot_series *s)
{
	static const struct plot_period periods[] = {
		{ .entry_ns = 1000000, .idle_ns = 5000, .chosen = 1, .optimal = 1 },
		{ .entry_ns = 2000000, .idle_ns = 50000, .chosen = 1, .optimal = 1 },
		{ .entry_ns = 3000000, .idle_ns = 2000000, .chosen = 1, .optimal = 2, .below = true },
		{ .entry_ns = 6000000, .idle_ns = 100000, .chosen = 2, .optimal = 1, .above = true },
		{ .entry_ns = 7000000, .idle_ns = 1000000, .chosen = 2, .optimal = 2 },
		{ .entry_ns = 9000000, .idle_ns = 1000000, .chosen = 2, .optimal = 2 },
	};

	plot_series_init(s, "teo-6.1", "skx", states, 3);
	plot_series_add_phase(s, 5000000, "interrupts");
	for (size_t i = 0; i < G_N_ELEMENTS(periods); i++)
		plot_series_add(s, &periods[i]);
	s->energy_mj = 12.5;
	s->optimal_energy_mj = 10.25;
	s->latency_mean_us = 66.5;
	s->latency_p99_us = 133;
}

static char *read_file(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		fail_msg("%s was not written", path);
	return text;
}

/* Removes a figure directory and everything in it. */
static void remove_dir(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		g_unlink(path);
	}
	g_rmdir(dir);
}

static void assert_png(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *data = NULL;
	const unsigned char *p;
	gsize len = 0;

	if (!g_file_get_contents(path, &data, &len, NULL))
		fail_msg("%s was not rendered", path);
	p = (const unsigned char *)data;
	assert_true(len > 1000);
	assert_memory_equal(p, "\x89PNG\r\n\x1a\n", 8);
	assert_memory_equal(p + 12, "IHDR", 4);
	assert_int_equal((p[16] << 24) | (p[17] << 16) | (p[18] << 8) | p[19], PLOT_WIDTH);
	assert_int_equal((p[20] << 24) | (p[21] << 16) | (p[22] << 8) | p[23], PLOT_HEIGHT);
}

static void assert_svg(const char *dir, const char *name)
{
	g_autofree char *text = read_file(dir, name);
	g_autofree char *size = g_strdup_printf("width=\"%d\" height=\"%d\"", PLOT_WIDTH, PLOT_HEIGHT);

	assert_non_null(strstr(text, "<svg"));
	assert_non_null(strstr(text, size));
	assert_non_null(strstr(text, "</svg>"));
}

static void test_series_counts(void **state)
{
	struct plot_series s;

	(void)state;
	fill(&s);
	assert_int_equal(s.periods, 6);
	assert_int_equal(s.agree, 4);
	assert_int_equal(s.good[1], 2);
	assert_int_equal(s.below[1], 1);
	assert_int_equal(s.above[2], 1);
	assert_int_equal(s.good[2], 2);
	assert_int_equal(s.hist[6][1], 1);	/* 5 us: log10(5) = 0.70 */
	assert_int_equal(s.hist[16][1], 1);	/* 50 us */
	assert_int_equal(s.hist[33][1], 1);	/* 2000 us: log10 = 3.30 */
	assert_int_equal(s.hist[20][2], 1);	/* 100 us */
	assert_int_equal(s.hist[30][2], 2);	/* 1000 us */
	plot_series_clear(&s);
}

/* The timeline keeps at most PLOT_TIMELINE_MAX periods, evenly spread. */
static void test_timeline_thinning(void **state)
{
	struct plot_series s;

	(void)state;
	plot_series_init(&s, "g", "p", states, 3);
	for (uint64_t i = 0; i < 3 * PLOT_TIMELINE_MAX; i++) {
		struct plot_period p = { .entry_ns = i, .idle_ns = 1000 };

		plot_series_add(&s, &p);
	}
	/* 12288 periods: the stride doubled to 4, keeping periods 0, 4, 8, ... */
	assert_int_equal(s.stride, 4);
	assert_int_equal(s.timeline->len, 3 * PLOT_TIMELINE_MAX / 4);
	for (guint i = 0; i < s.timeline->len; i++)
		assert_int_equal(g_array_index(s.timeline, struct plot_sample, i).entry_ns, 4 * i);
	plot_series_clear(&s);
}

static void test_render_run_figures(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("teosim-plot-XXXXXX", NULL);
	g_autofree char *decisions = NULL, *energy = NULL, *timeline = NULL, *histogram = NULL;
	g_autoptr(GError) error = NULL;
	struct plot_series s;
	bool rendered;

	(void)state;
	fill(&s);
	assert_true(plot_write_runs(dir, &s, 1, &rendered, &error));
	assert_true(rendered);

	decisions = read_file(dir, "decisions-teo-6.1.dat");
	assert_non_null(strstr(decisions, "\nPOLL 0 0 0\nC1 2 0 1\nC6 2 1 0\n"));
	energy = read_file(dir, "energy-latency.dat");
	assert_non_null(strstr(energy, "\nteo-6.1 skx 12.500000 10.250000 66.500 133.000\n"));
	timeline = read_file(dir, "timeline-teo-6.1.dat");
	assert_non_null(strstr(timeline, "\n3.000000 1 2\n6.000000 2 1\n"));
	histogram = read_file(dir, "idle-histogram-teo-6.1.dat");
	/* Bin 30 (1000 us): POLL none, C1 none, C6 two, stacked: 0 0, 0 0, 0 2. */
	assert_non_null(strstr(histogram, "\n1000 1258.93 0 0 0 0 0 2\n"));

	for (const char *const *n = (const char *const[]){ "decisions-teo-6.1",
			"idle-histogram-teo-6.1", "timeline-teo-6.1", "energy-latency", NULL };
	     *n; n++) {
		g_autofree char *png = g_strdup_printf("%s.png", *n);
		g_autofree char *svg = g_strdup_printf("%s.svg", *n);

		assert_png(dir, png);
		assert_svg(dir, svg);
	}
	plot_series_clear(&s);
	remove_dir(dir);
}

static void test_render_diff_figures(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("teosim-plot-XXXXXX", NULL);
	g_autofree char *matrix = NULL, *timeline = NULL;
	g_autoptr(GError) error = NULL;
	struct plot_diff d;
	bool rendered;

	(void)state;
	plot_diff_init(&d, "teo-6.1", "menu-6.1", states, 3, 100000000);
	plot_diff_add(&d, 0, 2, 2);
	plot_diff_add(&d, 1000, 2, 0);		/* slice 0: 1 of 2 differ */
	plot_diff_add(&d, 99999999, 1, 1);	/* the last slice */
	assert_true(plot_write_diff(dir, &d, &rendered, &error));
	assert_true(rendered);
	matrix = read_file(dir, "diff-matrix.dat");
	assert_non_null(strstr(matrix, "\n0 0 0\n0 1 0\n1 0 1\n"));
	timeline = read_file(dir, "diff-timeline.dat");
	assert_non_null(strstr(timeline, "\n0.000000 2 1 50.000\n"));
	assert_png(dir, "diff-matrix.png");
	assert_svg(dir, "diff-timeline.svg");
	plot_diff_clear(&d);
	remove_dir(dir);
}

static void test_without_gnuplot(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("teosim-plot-XXXXXX", NULL);
	g_autofree char *path_env = g_strdup(g_getenv("PATH"));
	g_autofree char *script = NULL, *png = NULL;
	g_autoptr(GError) error = NULL;
	struct plot_series s;
	bool rendered = true;

	(void)state;
	fill(&s);
	g_setenv("PATH", "/nonexistent", TRUE);
	assert_true(plot_write_runs(dir, &s, 1, &rendered, &error));
	g_setenv("PATH", path_env, TRUE);
	assert_false(rendered);
	script = read_file(dir, "decisions-teo-6.1.gp");
	assert_non_null(strstr(script, "set output 'decisions-teo-6.1.png'"));
	png = g_build_filename(dir, "decisions-teo-6.1.png", NULL);
	assert_false(g_file_test(png, G_FILE_TEST_EXISTS));
	plot_series_clear(&s);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_counts),
		cmocka_unit_test(test_timeline_thinning),
		cmocka_unit_test(test_render_run_figures),
		cmocka_unit_test(test_render_diff_figures),
		cmocka_unit_test(test_without_gnuplot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

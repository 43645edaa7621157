// SPDX-License-Identifier: GPL-2.0
/*
 * Sweep files: what a good one lays out (cells, settings, workloads, the
 * order of both), and that every bad one is refused with its file, line
 * and key.  Shard files: written, read back, and refused when they belong
 * to another sweep or are cut short.
 */
#include "../sim/test-files.h"

#include <kshim/registry.h>

#include "leftovers.h"
#include "results.h"
#include "setup.h"
#include "sweep-report.h"

static char *dir;

static const char good[] =
	"# a comment\n"					/* 1 */
	"[sweep]\n"					/* 2 */
	"name=check\n"					/* 3 */
	"description=two of each\n"			/* 4 */
	"governors=teo-6.12, menu-6.12,teo-6.1\n"	/* 5 */
	"platforms=skx,rk3399\n"			/* 6 */
	"scenarios=teo-timers-dominate,io-heavy\n"	/* 7 */
	"seeds=1-2\n"					/* 8 */
	"hz=250,1000\n"					/* 9 */
	"latency_limits_us=none,20\n";			/* 10 */

static const struct kshim_governor *find(const char *name, GError **error)
{
	const struct kshim_governor *g = kshim_governor_find(name);

	if (!g)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "unknown governor %s", name);
	return g;
}

static int setup_dir(void **state)
{
	(void)state;
	kshim_registry_init();
	dir = test_tmpdir();
	return 0;
}

static int remove_dir(void **state)
{
	(void)state;
	leftovers_remove(dir);
	g_free(dir);
	return 0;
}

static void test_good_layout(void **state)
{
	g_autofree char *path = test_write(dir, "good.sweep", good, -1);
	GError *error = NULL;
	struct sweep s;

	(void)state;
	assert_true(sweep_setup(path, find, &s, &error));
	assert_null(error);
	assert_int_equal(s.nr_govs, 3);
	assert_string_equal(s.govs[1]->meta->name, "menu-6.12");
	/* 2 platforms x 2 HZ x 2 limits, platform first, limit last */
	assert_int_equal(s.nr_settings, 8);
	assert_string_equal(s.settings[0].name, "skx-hz250");
	assert_string_equal(s.settings[1].name, "skx-hz250-lat20");
	assert_string_equal(s.settings[2].name, "skx-hz1000");
	assert_string_equal(s.settings[7].name, "rk3399-hz1000-lat20");
	assert_int_equal(s.settings[1].options.latency_limit_us, 20);
	assert_int_equal(s.settings[0].options.latency_limit_us, INT32_MAX);
	assert_int_equal(s.settings[2].options.hz, 1000);
	/* 2 scenarios x 2 seeds, scenario first */
	assert_int_equal(s.nr_workloads, 4);
	assert_string_equal(s.workloads[0].name, "teo-timers-dominate-seed1");
	assert_string_equal(s.workloads[3].name, "io-heavy-seed2");
	assert_int_equal(s.nr_families, 2);
	assert_int_equal(sweep_family_of(&s, 3), 1);
	assert_int_equal(sweep_nr_cells(&s), 4 * 8 * 3);
	/* The last cell is workload 3, setting 7, governor 2; cell 25 is 1 * 24 + 0 * 3 + 1. */
	assert_int_equal(sweep_cell_index(&s, 3, 7, 2), 4 * 8 * 3 - 1);
	assert_int_equal(sweep_cell_index(&s, 1, 0, 1), 25);
	assert_int_equal(sweep_cell_index(&s, 0, 1, 0), 3);
	assert_int_equal(strlen(s.spec.sha256), 64);
	sweep_clear(&s);
}

static void test_generation_pairs(void **state)
{
	g_autofree char *text = test_replace_line(good, 5,
		"governors=teo-6.1,menu-6.1,ladder-6.12,teo-6.12,menu-6.12,teo-v8");
	g_autofree char *path = test_write(dir, "pairs.sweep", text, -1);
	g_autofree unsigned int *a = NULL, *b = NULL;
	GError *error = NULL;
	struct sweep s;

	(void)state;
	assert_true(sweep_setup(path, find, &s, &error));
	/* teo-6.1 -> teo-6.12 -> teo-v8, menu-6.1 -> menu-6.12; ladder alone */
	assert_int_equal(sweep_generation_pairs(&s, &a, &b), 3);
	assert_int_equal(a[0], 0);
	assert_int_equal(b[0], 3);
	assert_int_equal(a[1], 1);
	assert_int_equal(b[1], 4);
	assert_int_equal(a[2], 3);
	assert_int_equal(b[2], 5);
	sweep_clear(&s);
}

struct bad {
	unsigned int line;
	const char *replacement;
	unsigned int error_line;	/* 0: the error names no line */
	const char *key;
};

static void test_bad_files(void **state)
{
	static const struct bad cases[] = {
		{ 3, "name=two words", 3, "name" },
		{ 3, "# no name", 2, "name" },
		{ 4, "colour=blue", 4, "colour" },
		{ 5, "governors=teo-6.12,nosuch", 5, "governors" },
		{ 5, "governors=teo-6.12,,menu-6.12", 5, "governors" },
		{ 5, "governors=teo-6.12,teo-6.12", 5, "governors" },
		{ 5, "governors=", 5, "governors" },
		{ 6, "platforms=skx,nosuch", 6, "platforms" },
		{ 6, "platforms=skx,skx.platform.missing/", 6, "platforms" },
		{ 7, "scenarios=nosuch", 7, "scenarios" },
		{ 7, "scenarios=io-heavy,../io-heavy.scenario.nope", 7, "scenarios" },
		{ 8, "seeds=5-1", 8, "seeds" },
		{ 8, "seeds=1,x", 8, "seeds" },
		{ 8, "seeds=1-3,2", 8, "seeds" },
		{ 8, "seeds=4294967296", 8, "seeds" },
		{ 8, "seeds=0-4294967295", 8, "seeds" },
		{ 8, "# no seeds", 7, "scenarios" },
		{ 9, "hz=251", 9, "hz" },
		{ 9, "hz=250,-1", 9, "hz" },
		{ 10, "latency_limits_us=-5", 10, "latency_limits_us" },
		{ 10, "latency_limits_us=2147483647", 10, "latency_limits_us" },
		{ 10, "[other]", 10, "other" },
		{ 2, "[sweeps]", 2, "sweeps" },
		{ 7, "name=again", 7, "name" },
	};
	GError *error = NULL;
	struct sweep s;

	(void)state;
	for (unsigned int i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = test_replace_line(good, cases[i].line,
							  cases[i].replacement);
		g_autofree char *path = test_write(dir, "bad.sweep", text, -1);

		assert_false(sweep_setup(path, find, &s, &error));
		test_assert_names(error, path, cases[i].error_line, cases[i].key);
		sweep_clear(&s);
		g_clear_error(&error);
	}
}

static void test_too_many_cells(void **state)
{
	g_autofree char *text = test_replace_line(good, 8, "seeds=0-9999");
	g_autofree char *more = test_replace_line(text, 9, "hz=100,250,300,1000");
	g_autofree char *path = test_write(dir, "big.sweep", more, -1);
	GError *error = NULL;
	struct sweep s;

	(void)state;
	/* 3 x 2 x 4 x 2 x 2 x 10000 = 960000 cells: allowed; a third platform list... */
	assert_true(sweep_setup(path, find, &s, &error));
	sweep_clear(&s);
	{
		g_autofree char *all = test_replace_line(more, 6, "platforms=all");
		g_autofree char *p2 = test_write(dir, "bigger.sweep", all, -1);

		/* ... of every bundled platform (over 10) makes it more than 10^7. */
		assert_false(sweep_setup(p2, find, &s, &error));
		test_assert_names(error, p2, 2, "cells");
		sweep_clear(&s);
		g_clear_error(&error);
	}
}

/* Workload w's cells, all in one block: the good sweep's 8 x 3 cells are far fewer than a block's. */
static struct sweep_block whole(const struct sweep *s, unsigned int w)
{
	assert_int_equal(sweep_blocks_per_workload(s), 1);
	return sweep_block_at(s, w, 0);
}

static void test_blocks(void **state)
{
	g_autofree char *text = test_replace_line(good, 5, "governors=all");
	g_autofree char *more = test_replace_line(text, 6, "platforms=all");
	g_autofree char *path = test_write(dir, "blocks.sweep", more, -1);
	GError *error = NULL;
	unsigned int per, next = 0;
	struct sweep s;

	(void)state;
	assert_true(sweep_setup(path, find, &s, &error));
	/* 7 governors: 36 settings (252 cells) a block; 24 platforms x 2 HZ x 2 limits = 96 settings. */
	assert_int_equal(s.nr_govs, 7);
	per = sweep_block_settings(&s);
	assert_int_equal(per, 36);
	assert_int_equal(s.nr_settings, 96);
	assert_int_equal(sweep_blocks_per_workload(&s), 3);
	for (unsigned int k = 0; k < 3; k++) {
		struct sweep_block b = sweep_block_at(&s, 2, k);

		assert_int_equal(b.workload, 2);
		assert_int_equal(b.setting, next);
		assert_true(sweep_block_cells(&s, &b) <= SWEEP_BLOCK_CELLS);
		next += b.nr_settings;
	}
	assert_int_equal(next, 96);
	sweep_clear(&s);
}

/* A shard of the good sweep, written with made-up figures. */
static char *write_shard(struct sweep *s, unsigned int index, unsigned int count)
{
	struct sweep_shard sh = { index, count };
	unsigned int per = s->nr_settings * s->nr_govs;
	g_autofree struct sweep_cell_values *cells = g_new0(struct sweep_cell_values, per);
	g_autofree char *name = g_strdup_printf("shard%u", index);
	char *shard_dir = g_build_filename(dir, name, NULL);
	struct sweep_writer *wr;

	assert_int_equal(g_mkdir_with_parents(shard_dir, 0777), 0);
	assert_non_null(wr = sweep_writer_open(shard_dir, s, &sh, NULL, NULL));
	for (unsigned int w = 0; w < s->nr_workloads; w++) {
		if (!sweep_shard_has(&sh, w))
			continue;
		for (unsigned int c = 0; c < per; c++)
			for (unsigned int k = 0; k < summary_metric_count; k++)
				snprintf(cells[c].text[k], METRIC_TEXT_MAX, "%u.%u", w, c * 100 + k);
		struct sweep_block b = whole(s, w);

		sweep_writer_add(wr, &b, cells);
	}
	assert_true(sweep_writer_close(wr, NULL, NULL));
	return shard_dir;
}

static void test_shards_round_trip(void **state)
{
	g_autofree char *path = test_write(dir, "good.sweep", good, -1);
	g_autofree struct sweep_cell_values *cells = NULL;
	char *dirs[2], want[16];
	struct sweep_shard_reader *r;
	GError *error = NULL;
	struct sweep s;

	(void)state;
	assert_true(sweep_setup(path, find, &s, &error));
	cells = g_new0(struct sweep_cell_values, s.nr_settings * s.nr_govs);
	dirs[1] = write_shard(&s, 0, 2);
	dirs[0] = write_shard(&s, 1, 2);
	/* Given in any order, read in the sweep's. */
	assert_non_null(r = sweep_shards_open(&s, dirs, 2, &error));
	for (unsigned int w = 0; w < s.nr_workloads; w++) {
		struct sweep_block b = whole(&s, w);

		assert_true(sweep_shards_read(r, &b, cells, &error));
		assert_string_equal(sweep_shards_dir(r, w), dirs[w % 2 ? 0 : 1]);
		snprintf(want, sizeof(want), "%u.%u", w, 503);
		assert_string_equal(cells[5].text[3], want);
	}
	assert_true(sweep_shards_close(r, &error));
	assert_null(error);

	/* The same shard twice. */
	{
		char *twice[2] = { dirs[1], dirs[1] };

		assert_null(sweep_shards_open(&s, twice, 2, &error));
		test_assert_names(error, "shard.txt", 2, "index");
		g_clear_error(&error);
	}
	/* A shard cut short: the error names the line where it ends. */
	{
		g_autofree char *file = g_build_filename(dirs[0], "shard.txt", NULL);
		g_autofree char *text = NULL;
		size_t len;

		assert_true(g_file_get_contents(file, &text, &len, NULL));
		*strrchr(text, '\n') = '\0';
		*(strrchr(text, '\n') + 1) = '\0';
		assert_true(g_file_set_contents(file, text, -1, NULL));
		assert_non_null(r = sweep_shards_open(&s, dirs, 2, &error));
		for (unsigned int w = 0; w < s.nr_workloads; w++) {
			struct sweep_block b = whole(&s, w);

			assert_true(sweep_shards_read(r, &b, cells, &error) ==
				    (w < s.nr_workloads - 1));
		}
		test_assert_names(error, file, 0, "truncated");
		g_clear_error(&error);
		sweep_shards_close(r, NULL);
	}
	sweep_clear(&s);
	/* A shard of another sweep file (another HZ list): refused by its SHA-256. */
	{
		g_autofree char *text = test_replace_line(good, 9, "hz=250");
		g_autofree char *other = test_write(dir, "good.sweep", text, -1);

		assert_true(sweep_setup(other, find, &s, &error));
		assert_null(sweep_shards_open(&s, dirs, 2, &error));
		test_assert_names(error, "shard.txt", 2, "sha256");
		g_clear_error(&error);
		sweep_clear(&s);
	}
	g_free(dirs[0]);
	g_free(dirs[1]);
}

static void test_bad_shard_lines(void **state)
{
	static const struct {
		const char *from, *to, *field;
	} cases[] = {
		{ "governor=teo-6.12", "governor=teo-6.1", "governor" },
		{ "cell index=0 ", "cell index=1 ", "index" },
		{ "periods=0.0 ", "periods=1e5 ", "periods" },
		{ "periods=0.0 ", "periods=nan ", "periods" },
		{ "periods=0.0 ", "", "periods" },
		{ "periods=0.0 ", "periods=0.0 extra=1 ", "extra" },
		{ "cell index=0", "cells index=0", "cells" },
	};
	g_autofree char *path = test_write(dir, "good.sweep", good, -1);
	g_autofree struct sweep_cell_values *cells = NULL;
	GError *error = NULL;
	struct sweep s;

	(void)state;
	assert_true(sweep_setup(path, find, &s, &error));
	cells = g_new0(struct sweep_cell_values, s.nr_settings * s.nr_govs);
	for (unsigned int i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *dirs[2] = { write_shard(&s, 0, 2), write_shard(&s, 1, 2) };
		g_autofree char *file = g_build_filename(dirs[0], "shard.txt", NULL);
		g_autofree char *text = NULL;
		struct sweep_shard_reader *r;
		GString *edited;

		assert_true(g_file_get_contents(file, &text, NULL, NULL));
		edited = g_string_new(text);
		/* The first cell line is line 3. */
		assert_true(g_string_replace(edited, cases[i].from, cases[i].to, 1) == 1);
		assert_true(g_file_set_contents(file, edited->str, -1, NULL));
		g_string_free(edited, TRUE);
		r = sweep_shards_open(&s, dirs, 2, &error);
		if (!r)
			fail_msg("%s", error->message);
		struct sweep_block b = whole(&s, 0);

		assert_false(sweep_shards_read(r, &b, cells, &error));
		test_assert_names(error, file, 3, cases[i].field);
		g_clear_error(&error);
		sweep_shards_close(r, NULL);
		g_free(dirs[0]);
		g_free(dirs[1]);
	}
	sweep_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_layout),
		cmocka_unit_test(test_generation_pairs),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_too_many_cells),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_shards_round_trip),
		cmocka_unit_test(test_bad_shard_lines),
	};

	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel version of a tree's Makefile, and the API generation it maps
 * to: the three kshim provides, and every other version refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "kernel-api.h"

static void assert_version(const char *text, const char *want)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *got = kernel_version_parse(text, "Makefile", &error);

	assert_non_null(got);
	assert_string_equal(got, want);
}

static void assert_refused(const char *text, const char *message)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *got = kernel_version_parse(text, "Makefile", &error);

	assert_null(got);
	assert_string_equal(error->message, message);
}

static void test_version_lines(void **state)
{
	(void)state;
	/* The top of a kernel Makefile: comment, then the four version lines. */
	assert_version("# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 12\n"
		       "SUBLEVEL = 118\nEXTRAVERSION =\nNAME = x\n", "6.12.118");
	/* Spacing and tabs, and the first of each line only. */
	assert_version("VERSION=4\nPATCHLEVEL\t=\t20\nSUBLEVEL = 0\nVERSION = 9\n", "4.20.0");
	/* A variable whose name starts alike is not the field. */
	assert_version("VERSIONS = 7\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 3\n", "6.1.3");
}

static void test_version_refusals(void **state)
{
	(void)state;
	assert_refused("VERSION = 6\nSUBLEVEL = 1\n",
		       "Makefile: no PATCHLEVEL line: not a kernel tree's top-level Makefile");
	assert_refused("", "Makefile: no VERSION line: not a kernel tree's top-level Makefile");
	assert_refused("VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = -1\n",
		       "Makefile:3: SUBLEVEL: '-1' is not a version number");
	assert_refused("VERSION = $(X)\nPATCHLEVEL = 12\nSUBLEVEL = 1\n",
		       "Makefile:1: VERSION: '$(X)' is not a version number");
	assert_refused("VERSION = 6\nPATCHLEVEL = 123456\nSUBLEVEL = 1\n",
		       "Makefile:2: PATCHLEVEL: '123456' is not a version number");
	assert_refused("VERSION = 6\nPATCHLEVEL =\nSUBLEVEL = 1\n",
		       "Makefile:2: PATCHLEVEL: '' is not a version number");
}

/* A tree at dir whose Makefile sets VERSION.PATCHLEVEL.1. */
static char *make_tree(const char *version, const char *patchlevel)
{
	char *dir = g_dir_make_tmp("teosim-tree-XXXXXX", NULL);
	g_autofree char *makefile = g_build_filename(dir, "Makefile", NULL);
	g_autofree char *text = g_strdup_printf("VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 1\n",
						version, patchlevel);
	g_autofree char *governors = g_build_filename(dir, "drivers", "cpuidle", "governors", NULL);
	g_autofree char *teo = g_build_filename(governors, "teo.c", NULL);

	assert_true(g_file_set_contents(makefile, text, -1, NULL));
	assert_int_equal(g_mkdir_with_parents(governors, 0700), 0);
	assert_true(g_file_set_contents(teo, "", -1, NULL));
	return dir;
}

static void remove_tree(const char *dir)
{
	g_autofree char *makefile = g_build_filename(dir, "Makefile", NULL);
	g_autofree char *teo = g_build_filename(dir, "drivers/cpuidle/governors/teo.c", NULL);
	g_autofree char *g = g_build_filename(dir, "drivers/cpuidle/governors", NULL);
	g_autofree char *c = g_build_filename(dir, "drivers/cpuidle", NULL);
	g_autofree char *d = g_build_filename(dir, "drivers", NULL);

	g_unlink(makefile);
	g_unlink(teo);
	g_rmdir(g);
	g_rmdir(c);
	g_rmdir(d);
	g_rmdir(dir);
}

static void test_tree_api(void **state)
{
	static const struct { const char *v, *p, *api; } cases[] = {
		{ "4", "20", "420" }, { "6", "1", "601" }, { "6", "12", "612" },
		{ "6", "6", NULL }, { "6", "13", NULL }, { "5", "10", NULL }, { "61", "2", NULL },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *dir = make_tree(cases[i].v, cases[i].p);
		g_autofree char *teo = g_build_filename(dir, "drivers/cpuidle/governors/teo.c", NULL);
		g_autofree char *root = kernel_tree_root(teo);
		g_autofree char *real = realpath(dir, NULL);
		g_autoptr(GError) error = NULL;
		const struct kernel_api *api;

		/* The root is found from a file four levels down. */
		assert_non_null(root);
		assert_string_equal(root, real);
		api = kernel_api_of_tree(root, &error);
		if (cases[i].api) {
			assert_non_null(api);
			assert_string_equal(api->define, cases[i].api);
		} else {
			g_autofree char *want = g_strdup_printf(
				"%s is Linux %s.%s.1, and kshim provides the APIs of 4.20, 6.1 and 6.12: "
				"give --api with the one to build against", real, cases[i].v, cases[i].p);

			assert_null(api);
			assert_string_equal(error->message, want);
		}
		remove_tree(dir);
	}
}

static void test_api_names(void **state)
{
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_string_equal(kernel_api_named("4.20", NULL)->define, "420");
	assert_string_equal(kernel_api_named("6.1", NULL)->define, "601");
	assert_string_equal(kernel_api_named("6.12", NULL)->define, "612");
	assert_null(kernel_api_named("6.12.1", &error));
	assert_string_equal(error->message, "unknown kernel API '6.12.1': kshim provides 4.20, 6.1 and 6.12");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_lines),
		cmocka_unit_test(test_version_refusals),
		cmocka_unit_test(test_tree_api),
		cmocka_unit_test(test_api_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

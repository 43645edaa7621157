// SPDX-License-Identifier: GPL-2.0
/*
 * teosim test: governor unit tests.  A test is a call log whose selects
 * carry the decisions expected of the governor (traces/calls-format.md);
 * it passes when the governor decides every one of them so.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "governor-arg.h"
#include "kvline.h"
#include "options.h"
#include "replay.h"

#define TEST_SUFFIX	".calls"

enum outcome { TEST_PASSED, TEST_FAILED, TEST_BROKEN };

static gint compare_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tests named by paths: files as given, a directory's *.calls in name order. */
static GPtrArray *collect_tests(char **paths, int n, GError **error)
{
	g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func(g_free);

	for (int i = 0; i < n; i++) {
		g_autoptr(GPtrArray) found = NULL;
		g_autoptr(GDir) dir = NULL;
		const char *name;

		if (!g_file_test(paths[i], G_FILE_TEST_IS_DIR)) {
			g_ptr_array_add(tests, g_strdup(paths[i]));
			continue;
		}
		dir = g_dir_open(paths[i], 0, error);
		if (!dir)
			return NULL;
		found = g_ptr_array_new();
		while ((name = g_dir_read_name(dir)))
			if (g_str_has_suffix(name, TEST_SUFFIX))
				g_ptr_array_add(found, g_build_filename(paths[i], name, NULL));
		g_ptr_array_sort(found, compare_paths);
		if (!found->len) {
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
				    "%s: no tests (*%s files) in this directory", paths[i], TEST_SUFFIX);
			return NULL;
		}
		g_ptr_array_extend_and_steal(tests, g_steal_pointer(&found));
	}
	return g_steal_pointer(&tests);
}

/* Runs one test; *detail says what passed, the first wrong decision, or what is broken. */
static enum outcome run_test(const char *governor, const char *path, char **detail)
{
	g_autoptr(GError) error = NULL;
	const struct kshim_governor *gov = teosim_log_governor(governor, path, &error);
	struct replay_result result;

	if (gov && replay_run(gov, path, NULL, REPLAY_CHECK_RECORDED, NULL, &result, &error)) {
		if (!result.compared) {
			*detail = g_strdup_printf("%s: no select carries an expected decision", path);
			return TEST_BROKEN;
		}
		*detail = g_strdup_printf("%s: %s, %lu expected decision%s", path,
					  gov->meta->name, result.compared,
					  result.compared == 1 ? "" : "s");
		return TEST_PASSED;
	}
	*detail = g_strdup(error->message);
	return gov && result.mismatches ? TEST_FAILED : TEST_BROKEN;
}

/* TAP version 13, or one PASS/FAIL/ERROR line per test and a summary. */
static int run_tests(const char *governor, GPtrArray *tests, bool tap)
{
	unsigned int counts[3] = { 0 };

	if (tap)
		printf("TAP version 13\n1..%u\n", tests->len);
	for (guint i = 0; i < tests->len; i++) {
		g_autofree char *detail = NULL;
		enum outcome o = run_test(governor, g_ptr_array_index(tests, i), &detail);

		counts[o]++;
		if (tap) {
			g_auto(GStrv) lines = g_strsplit(detail, "\n", -1);

			printf("%s %u - %s\n", o == TEST_PASSED ? "ok" : "not ok", i + 1, lines[0]);
			for (char **l = lines + 1; *l; l++)
				printf("# %s\n", g_strstrip(*l));
		} else {
			printf("%-5s %s\n", o == TEST_PASSED ? "PASS" : o == TEST_FAILED ? "FAIL" : "ERROR",
			       detail);
		}
	}
	if (!tap)
		printf("%u tests: %u passed, %u failed, %u could not run\n", tests->len,
		       counts[TEST_PASSED], counts[TEST_FAILED], counts[TEST_BROKEN]);
	return counts[TEST_BROKEN] ? 2 : counts[TEST_FAILED] ? 1 : 0;
}

int cmd_test(int argc, char **argv)
{
	g_autofree char *governor = NULL;
	gboolean tap = FALSE;
	const GOptionEntry entries[] = {
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &governor,
		  "Run every test with this governor (default: the one each test names)", "NAME" },
		{ "tap", 0, 0, G_OPTION_ARG_NONE, &tap,
		  "Report in the Test Anything Protocol", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GPtrArray) tests = NULL;
	GError *error = NULL;

	if (!teosim_parse_options(&argc, &argv, "TEST...",
				  "Runs governor unit tests: call logs (traces/calls-format.md) whose\n"
				  "selects carry the decisions expected; a directory stands for its\n"
				  "*.calls files.  A test fails at the first decision that differs, shown\n"
				  "with its inputs.  Exit status: 0 when all pass, 1 when some fail, 2\n"
				  "when a test cannot run.",
				  entries))
		return 2;
	if (argc < 2) {
		fprintf(stderr, "teosim test: need one TEST file or directory at least\n");
		return 2;
	}
	tests = collect_tests(argv + 1, argc - 1, &error);
	if (!tests) {
		teosim_fail(error);
		return 2;
	}
	return run_tests(governor, tests, tap);
}

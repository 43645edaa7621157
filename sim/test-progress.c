// SPDX-License-Identifier: GPL-2.0
/* The progress line: the mean of the groups' shares, printed when its whole percent changes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "progress.h"

/* Runs the steps with stderr going to a file; returns what they printed. */
static char *printed(bool show, void (*steps)(struct progress *pr))
{
	g_autofree char *dir = g_dir_make_tmp("teosim-test-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "stderr", NULL);
	int saved = dup(STDERR_FILENO);
	struct progress pr;
	char *text = NULL;

	fflush(stderr);
	assert_non_null(freopen(path, "w", stderr));
	progress_init(&pr, show, 2);
	steps(&pr);
	progress_clear(&pr);
	fflush(stderr);
	assert_int_equal(dup2(saved, STDERR_FILENO), STDERR_FILENO);
	close(saved);
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_unlink(path);
	g_rmdir(dir);
	return text;
}

/* Group 0 halfway (25% overall), again (no change), group 1 done (75%), group 0 done. */
static void two_groups(struct progress *pr)
{
	progress_at(pr, 0, 500, 1000);
	progress_at(pr, 0, 501, 1000);
	progress_at(pr, 1, 1000, 1000);
	progress_at(pr, 0, 1, 1);
}

static void test_mean_of_groups(void **state)
{
	g_autofree char *text = printed(true, two_groups);

	(void)state;
	assert_string_equal(text, "\rteosim: 25% simulated\rteosim: 75% simulated"
			    "\rteosim: 100% simulated\n");
}

static void test_silent_unless_shown(void **state)
{
	g_autofree char *text = printed(false, two_groups);

	(void)state;
	assert_string_equal(text, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_of_groups),
		cmocka_unit_test(test_silent_unless_shown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

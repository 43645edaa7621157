// SPDX-License-Identifier: GPL-2.0
/*
 * Output files: a regular file is replaced whole, and only on commit; an
 * output that is no regular file (here a named pipe, as /dev/null or
 * /dev/stdout would be) is written straight to and stays what it was,
 * where a rename would have put a regular file in its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "out-file.h"

static void test_regular_file_replaced_on_commit(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("teosim-test-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "out.txt", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	struct out_file *o;

	(void)state;
	assert_true(g_file_set_contents(path, "old\n", -1, NULL));
	o = out_file_open(path, &error);
	assert_non_null(o);
	fputs("new\n", o->f);
	/* Not yet: the old text stands until the commit. */
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	assert_string_equal(text, "old\n");
	g_clear_pointer(&text, g_free);
	assert_true(out_file_commit(o, &error));
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	assert_string_equal(text, "new\n");
	assert_int_equal(g_unlink(path), 0);
	assert_int_equal(g_rmdir(dir), 0);
}

static void test_pipe_written_straight(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("teosim-test-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "pipe", NULL);
	g_autoptr(GError) error = NULL;
	char buf[16] = { 0 };
	struct out_file *o;
	GStatBuf st;
	int reader;

	(void)state;
	assert_int_equal(mkfifo(path, 0600), 0);
	/* A reader first, so that opening the pipe to write does not wait. */
	reader = open(path, O_RDONLY | O_NONBLOCK);
	assert_true(reader >= 0);
	o = out_file_open(path, &error);
	assert_non_null(o);
	fputs("through\n", o->f);
	assert_true(out_file_commit(o, &error));
	assert_int_equal(read(reader, buf, sizeof(buf) - 1), 8);
	assert_string_equal(buf, "through\n");
	assert_int_equal(g_stat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	close(reader);
	assert_int_equal(g_unlink(path), 0);
	assert_int_equal(g_rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_file_replaced_on_commit),
		cmocka_unit_test(test_pipe_written_straight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

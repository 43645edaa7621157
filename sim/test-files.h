/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the sim_io tests: files written into a fresh temporary
 * directory, variants of a text with one line replaced, and an assertion
 * that an error names the file, the line and the field.
 */
#ifndef TEOSIM_TEST_FILES_H
#define TEOSIM_TEST_FILES_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

/* A new directory under the system's temporary directory. */
static inline char *test_tmpdir(void)
{
	char *dir = g_dir_make_tmp("teosim-test-XXXXXX", NULL);

	assert_non_null(dir);
	return dir;
}

/* Writes len bytes (-1: a string) to dir/name and returns the path. */
static inline char *test_write(const char *dir, const char *name, const char *text, gssize len)
{
	char *path = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(path, text, len, NULL));
	return path;
}

/* text with its line number line (from 1) replaced by replacement. */
static inline char *test_replace_line(const char *text, unsigned int line,
				      const char *replacement)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	assert_true(line >= 1 && line <= g_strv_length(lines));
	g_free(lines[line - 1]);
	lines[line - 1] = g_strdup(replacement);
	return g_strjoinv("\n", lines);
}

/* The error message holds the file's name, ":LINE:" and the field. */
static inline void test_assert_names(const GError *error, const char *path, unsigned long line,
				     const char *field)
{
	g_autofree char *at = g_strdup_printf(":%lu:", line);

	assert_non_null(error);
	if (!strstr(error->message, path) || (line && !strstr(error->message, at)) ||
	    (field && !strstr(error->message, field)))
		fail_msg("'%s' should name %s, line %lu and %s", error->message, path, line,
			 field ? field : "(no field)");
}

/* Removes a directory the test made, with the files in it (one level). */
static inline void test_rmtree(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			test_rmtree(p);
		else
			g_unlink(p);
	}
	g_dir_close(d);
	g_rmdir(dir);
}

#endif /* TEOSIM_TEST_FILES_H */

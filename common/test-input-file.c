// SPDX-License-Identifier: GPL-2.0
/*
 * input_path(): a file is read where it is; a pipe, asked for by several
 * threads at once (as a sweep's do), is copied once, and every open of the
 * copy reads all the pipe delivered, from the start; the copy leaves
 * nothing in TMPDIR.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "input-file.h"

/* More than a pipe's buffer holds, so that the copy must wait for the writer. */
#define PIPE_BYTES (1 << 20)

static char tmpdir[] = "/tmp/teosim-test-input-XXXXXX";

struct writer {
	int fd;
	const char *data;
};

static gpointer write_all(gpointer p)
{
	struct writer *w = p;

	for (size_t done = 0; done < PIPE_BYTES;) {
		ssize_t n = write(w->fd, w->data + done, PIPE_BYTES - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(w->fd);
	return NULL;
}

static gpointer ask(gpointer path)
{
	return (gpointer)input_path(path, NULL);
}

static char *read_all(const char *path, size_t *len)
{
	g_autoptr(GError) error = NULL;
	FILE *f = input_fopen(path, "rb", &error);
	char *buf = g_malloc(PIPE_BYTES + 1);

	assert_non_null(f);
	*len = fread(buf, 1, PIPE_BYTES + 1, f);
	fclose(f);
	return buf;
}

static void test_file_read_in_place(void **state)
{
	g_autofree char *file = g_build_filename(tmpdir, "in.trace", NULL);
	g_autofree char *missing = g_build_filename(tmpdir, "missing.trace", NULL);
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_true(g_file_set_contents(file, "teosim-trace 1\n", -1, NULL));
	assert_ptr_equal(input_path(file, NULL), file);
	/* Left to fopen(), whose message names the path as the user gave it. */
	assert_ptr_equal(input_path(missing, NULL), missing);
	assert_null(input_fopen(missing, "r", &error));
	assert_true(g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT));
	assert_non_null(strstr(error->message, missing));
	g_unlink(file);
}

static void test_pipe_copied_once(void **state)
{
	g_autofree char *data = g_malloc(PIPE_BYTES);
	g_autofree char *path = NULL;
	GThread *writer, *askers[4];
	const char *copies[4];
	struct writer w;
	int fds[2];

	(void)state;
	for (size_t i = 0; i < PIPE_BYTES; i++)
		data[i] = (char)('a' + i % 23);
	assert_int_equal(pipe(fds), 0);
	w = (struct writer){ .fd = fds[1], .data = data };
	writer = g_thread_new("writer", write_all, &w);
	path = g_strdup_printf("/proc/self/fd/%d", fds[0]);
	for (unsigned int i = 0; i < G_N_ELEMENTS(askers); i++)
		askers[i] = g_thread_new("asker", ask, path);
	for (unsigned int i = 0; i < G_N_ELEMENTS(askers); i++)
		copies[i] = g_thread_join(askers[i]);
	g_thread_join(writer);
	close(fds[0]);
	assert_non_null(copies[0]);
	assert_string_not_equal(copies[0], path);
	for (unsigned int i = 1; i < G_N_ELEMENTS(askers); i++)
		assert_ptr_equal(copies[i], copies[0]);
	/* The pipe is closed now; the copy reads all it delivered, every time. */
	for (int round = 0; round < 2; round++) {
		size_t len;
		g_autofree char *got = read_all(path, &len);

		assert_int_equal(len, PIPE_BYTES);
		assert_memory_equal(got, data, PIPE_BYTES);
	}
}

static void test_nothing_left_in_tmpdir(void **state)
{
	GDir *dir = g_dir_open(tmpdir, 0, NULL);

	(void)state;
	assert_non_null(dir);
	assert_null(g_dir_read_name(dir));
	g_dir_close(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_read_in_place),
		cmocka_unit_test(test_pipe_copied_once),
		cmocka_unit_test(test_nothing_left_in_tmpdir),
	};
	int failed;

	if (!mkdtemp(tmpdir))
		return 1;
	/* Before anything asks GLib for it: g_get_tmp_dir() keeps its first answer. */
	g_setenv("TMPDIR", tmpdir, TRUE);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	g_rmdir(tmpdir);
	return failed;
}

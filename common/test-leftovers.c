// SPDX-License-Identifier: GPL-2.0
/*
 * A child process registers temporary paths and is sent a signal: it must
 * die of that signal with the registered paths gone, those forgotten kept,
 * and nothing removed through a symbolic link; a signal ignored before the
 * watch began must stay ignored.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "leftovers.h"

static char *make_file(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(path, "x\n", -1, NULL));
	return path;
}

static int child_status(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void test_signal_removes_registered(void **state)
{
	g_autofree char *base = g_dir_make_tmp("teosim-test-XXXXXX", NULL);
	g_autofree char *tree = g_build_filename(base, "partial", NULL);
	g_autofree char *sub = g_build_filename(tree, "cells", NULL);
	g_autofree char *outside = g_build_filename(base, "outside", NULL);
	g_autofree char *link = g_build_filename(tree, "link", NULL);
	g_autofree char *kept_file = NULL, *inner = NULL, *lone = NULL, *renamed = NULL;
	int status;
	pid_t pid;

	(void)state;
	assert_non_null(base);
	assert_int_equal(g_mkdir_with_parents(sub, 0700), 0);
	assert_int_equal(g_mkdir(outside, 0700), 0);
	kept_file = make_file(outside, "not-ours");
	inner = make_file(sub, "table.txt");
	lone = make_file(base, "out.csv.tmp");
	renamed = make_file(base, "renamed.tmp");
	assert_int_equal(symlink(outside, link), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		leftovers_watch();
		leftovers_add(tree);
		leftovers_add(lone);
		leftovers_add(renamed);
		leftovers_forget(renamed);
		raise(SIGTERM);
		/* The watching thread removes them and ends the process. */
		for (;;)
			pause();
	}
	status = child_status(pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_false(g_file_test(tree, G_FILE_TEST_EXISTS));
	assert_false(g_file_test(lone, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(renamed, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(kept_file, G_FILE_TEST_EXISTS));
	g_unlink(renamed);
	g_unlink(kept_file);
	g_rmdir(outside);
	assert_int_equal(g_rmdir(base), 0);
}

static void test_ignored_signal_stays_ignored(void **state)
{
	g_autofree char *base = g_dir_make_tmp("teosim-test-XXXXXX", NULL);
	g_autofree char *file = NULL;
	int status;
	pid_t pid;

	(void)state;
	assert_non_null(base);
	file = make_file(base, "out.tmp");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGHUP, SIG_IGN);
		leftovers_watch();
		leftovers_add(file);
		raise(SIGHUP);
		/* Given time, a wrongly caught SIGHUP would have ended it. */
		g_usleep(G_USEC_PER_SEC / 5);
		_exit(7);
	}
	status = child_status(pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
	assert_true(g_file_test(file, G_FILE_TEST_EXISTS));
	g_unlink(file);
	assert_int_equal(g_rmdir(base), 0);
}

static void test_remove_now(void **state)
{
	g_autofree char *base = g_dir_make_tmp("teosim-test-XXXXXX", NULL);
	g_autofree char *tree = g_build_filename(base, "build", NULL);
	g_autofree char *file = NULL;

	(void)state;
	assert_int_equal(g_mkdir(tree, 0700), 0);
	file = make_file(tree, "teo.c");
	leftovers_add(tree);
	leftovers_remove(tree);
	assert_false(g_file_test(tree, G_FILE_TEST_EXISTS));
	assert_int_equal(g_rmdir(base), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_removes_registered),
		cmocka_unit_test(test_ignored_signal_stays_ignored),
		cmocka_unit_test(test_remove_now),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

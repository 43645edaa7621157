// SPDX-License-Identifier: GPL-2.0
/*
 * Without libFuzzer (a gcc build), each harness runs the files it is given,
 * and every file of the directories it is given, once: how the seed corpus
 * and the kept findings are checked on every build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fuzz-input.h"

static unsigned int run_file(const char *path)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *data = NULL;
	gsize size;

	if (!g_file_get_contents(path, &data, &size, &error)) {
		fprintf(stderr, "%s\n", error->message);
		exit(2);
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, size);
	return 1;
}

static int compare_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static unsigned int run_path(const char *path)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) names = NULL;
	g_autoptr(GDir) dir = NULL;
	unsigned int runs = 0;
	const char *name;

	if (!g_file_test(path, G_FILE_TEST_IS_DIR))
		return run_file(path);
	dir = g_dir_open(path, 0, &error);
	if (!dir) {
		fprintf(stderr, "%s\n", error->message);
		exit(2);
	}
	/* In name order: the same runs in the same order on every machine. */
	names = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(dir)))
		g_ptr_array_add(names, g_build_filename(path, name, NULL));
	g_ptr_array_sort(names, compare_paths);
	for (guint i = 0; i < names->len; i++)
		runs += run_path(names->pdata[i]);
	return runs;
}

int main(int argc, char **argv)
{
	unsigned int runs = 0;

	for (int i = 1; i < argc; i++)
		runs += run_path(argv[i]);
	printf("%u inputs run, none crashed\n", runs);
	return 0;
}

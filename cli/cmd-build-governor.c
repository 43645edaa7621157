// SPDX-License-Identifier: GPL-2.0
/*
 * teosim build-governor: a governor source, unmodified, compiled at run
 * time into a module that every command takes by path (module/build.h).
 */
#include <errno.h>
#include <stdio.h>

#include <glib/gstdio.h>
#include <gmodule.h>

#include "build.h"
#include "commands.h"
#include "kvline.h"
#include "options.h"

/* The governors a kernel tree has, each built into OUTDIR/GOV-SUFFIX.so. */
static const char *const tree_governors[] = { "teo", "menu", "ladder" };

static void report(const char *output, const struct kshim_governor *g)
{
	printf("%s: %s, API %s, from %s, %s, SHA-256 %s\n", output, g->meta->name, g->meta->api,
	       g->meta->origin, g->meta->path, g->meta->sha256);
}

static int build_tree(const char *tree, const char *api, const char *suffix, const char *outdir)
{
	g_autofree char *real = realpath(tree, NULL);
	g_autofree char *base = real ? g_path_get_basename(real) : NULL;

	if (!real || !g_file_test(real, G_FILE_TEST_IS_DIR)) {
		fprintf(stderr, "teosim: %s: not a directory\n", tree);
		return 1;
	}
	if (g_mkdir_with_parents(outdir, 0777)) {
		fprintf(stderr, "teosim: %s: cannot make it: %s\n", outdir, g_strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(tree_governors); i++) {
		g_autofree char *source = g_strdup_printf("%s/drivers/cpuidle/governors/%s.c", tree,
							  tree_governors[i]);
		g_autofree char *name = g_strdup_printf("%s-%s", tree_governors[i],
							suffix ? suffix : base);
		g_autofree char *output = g_strdup_printf("%s/%s.%s", outdir, name, G_MODULE_SUFFIX);
		struct module_request r = { .source = source, .api = api, .name = name,
					    .output = output };
		GError *error = NULL;
		const struct kshim_governor *g = module_build(&r, &error);

		if (!g)
			return teosim_fail(error);
		report(output, g);
	}
	return 0;
}

int cmd_build_governor(int argc, char **argv)
{
	g_autofree char *source = NULL, *tree = NULL, *base = NULL, *patch = NULL;
	g_autofree char *api = NULL, *name = NULL, *output = NULL;
	const GOptionEntry entries[] = {
		{ "source", 0, 0, G_OPTION_ARG_FILENAME, &source,
		  "A governor source file (its API from the kernel tree it is in)", "FILE" },
		{ "kernel-tree", 0, 0, G_OPTION_ARG_FILENAME, &tree,
		  "A kernel tree: build its teo, menu and ladder", "DIR" },
		{ "base", 0, 0, G_OPTION_ARG_STRING, &base,
		  "Start from this built-in governor's source", "NAME" },
		{ "patch", 0, 0, G_OPTION_ARG_FILENAME, &patch,
		  "Apply this patch (-p1, no fuzz) to the --base source first", "FILE" },
		{ "api", 0, 0, G_OPTION_ARG_STRING, &api,
		  "Build against this kernel API: 4.20, 6.1 or 6.12 (default: the tree's)", "GEN" },
		{ "name", 0, 0, G_OPTION_ARG_STRING, &name,
		  "The governor's name (default: the output's file name; with --kernel-tree, "
		  "GOV-NAME, default GOV-<tree's directory name>)", "NAME" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "The module to write (with --kernel-tree, the directory to write them in)", "PATH" },
		G_OPTION_ENTRY_NULL
	};
	const struct kshim_governor *g;
	GError *error = NULL;

	if (!teosim_parse_options(&argc, &argv, "",
				  "Compiles a cpuidle governor source, unmodified, against kshim into a\n"
				  "module that every command takes where it takes a governor: give its path\n"
				  "(-g ./teo-fix.so).  The source is a file (--source), the teo, menu and\n"
				  "ladder of a kernel tree (--kernel-tree), or a built-in governor's with a\n"
				  "patch applied (--base, --patch).  The API generation is the tree's\n"
				  "(VERSION and PATCHLEVEL of its Makefile) or the base's; a version kshim\n"
				  "does not provide is refused unless --api says which to use.  The module\n"
				  "records its name, API, origin, path and the SHA-256 of the file compiled\n"
				  "(teosim governors MODULE prints them).  The compiler is $CC, or cc.",
				  entries))
		return 2;
	if (argc > 1 || !output || (!!source + !!tree + !!base) != 1 || (patch && !base)) {
		fprintf(stderr, "teosim build-governor: give -o and one of --source, --kernel-tree "
			"or --base (--patch only with --base); see --help\n");
		return 2;
	}
	if (tree)
		return build_tree(tree, api, name, output);
	struct module_request r = { .source = source, .base = base, .patch = patch, .api = api,
				    .name = name, .output = output };
	g = module_build(&r, &error);
	if (!g)
		return teosim_fail(error);
	report(output, g);
	return 0;
}

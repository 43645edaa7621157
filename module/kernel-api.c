// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "kernel-api.h"
#include "kvline.h"
#include "small-file.h"

static const struct kernel_api apis[] = {
	{ "4.20", "420" },
	{ "6.1", "601" },
	{ "6.12", "612" },
};

const struct kernel_api *kernel_api_named(const char *name, GError **error)
{
	for (size_t i = 0; i < G_N_ELEMENTS(apis); i++)
		if (!strcmp(apis[i].name, name))
			return &apis[i];
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "unknown kernel API '%s': kshim provides %s", name, KERNEL_API_LIST);
	return NULL;
}

/* A kernel's top-level Makefile is some 70 KiB. */
#define MAKEFILE_MAX_BYTES	(1u << 20)

/* The value of "NAME = value" when line sets NAME, else NULL. */
static const char *assignment(const char *line, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(line, name, n))
		return NULL;
	line += n;
	line += strspn(line, " \t");
	if (*line != '=')
		return NULL;
	return line + 1 + strspn(line + 1, " \t");
}

/* Whether s is a version number field: digits only, not empty, not absurd. */
static bool is_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n < 6 && s[n] == '\0';
}

char *kernel_version_parse(const char *text, const char *makefile, GError **error)
{
	static const char *const fields[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL" };
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	char *values[G_N_ELEMENTS(fields)] = { 0 };
	unsigned int where[G_N_ELEMENTS(fields)] = { 0 };
	char *version = NULL;

	for (unsigned int l = 0; lines[l]; l++)
		for (size_t f = 0; f < G_N_ELEMENTS(fields); f++) {
			const char *v = assignment(lines[l], fields[f]);

			if (!v || values[f])
				continue;
			values[f] = g_strstrip(g_strdup(v));
			where[f] = l + 1;
		}
	for (size_t f = 0; f < G_N_ELEMENTS(fields); f++) {
		if (!values[f])
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
				    "%s: no %s line: not a kernel tree's top-level Makefile",
				    makefile, fields[f]);
		else if (!is_number(values[f]))
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
				    "%s:%u: %s: '%s' is not a version number", makefile,
				    where[f], fields[f], values[f]);
		else
			continue;
		goto out;
	}
	version = g_strdup_printf("%s.%s.%s", values[0], values[1], values[2]);
out:
	for (size_t f = 0; f < G_N_ELEMENTS(fields); f++)
		g_free(values[f]);
	return version;
}

char *kernel_tree_version(const char *makefile, GError **error)
{
	g_autofree char *text = NULL;
	size_t len;

	if (!small_file_read(makefile, MAKEFILE_MAX_BYTES, &text, &len, error))
		return NULL;
	return kernel_version_parse(text, makefile, error);
}

/* Whether dir has a Makefile that sets VERSION, as a kernel tree's top does. */
static bool is_tree_root(const char *dir)
{
	g_autofree char *makefile = g_build_filename(dir, "Makefile", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(makefile, &text, NULL, NULL))
		return false;
	lines = g_strsplit(text, "\n", 8);
	for (unsigned int l = 0; lines[l]; l++)
		if (assignment(lines[l], "VERSION"))
			return true;
	return false;
}

char *kernel_tree_root(const char *file)
{
	g_autofree char *real = realpath(file, NULL);
	char *dir = real ? g_path_get_dirname(real) : NULL;

	while (dir) {
		char *up;

		if (is_tree_root(dir))
			return dir;
		up = g_path_get_dirname(dir);
		if (!strcmp(up, dir)) {
			g_free(up);
			g_free(dir);
			return NULL;
		}
		g_free(dir);
		dir = up;
	}
	return NULL;
}

const struct kernel_api *kernel_api_of_tree(const char *root, GError **error)
{
	g_autofree char *makefile = g_build_filename(root, "Makefile", NULL);
	g_autofree char *version = kernel_tree_version(makefile, error);
	g_autofree char *generation = NULL;

	if (!version)
		return NULL;
	/* VERSION.PATCHLEVEL: the part of the version that changes the API. */
	generation = g_strndup(version, strrchr(version, '.') - version);
	for (size_t i = 0; i < G_N_ELEMENTS(apis); i++)
		if (!strcmp(apis[i].name, generation))
			return &apis[i];
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "%s is Linux %s, and kshim provides the APIs of %s: "
		    "give --api with the one to build against", root, version, KERNEL_API_LIST);
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture-arg.h"
#include "keyfile-lines.h"
#include "kvline.h"
#include "leftovers.h"
#include "out-file.h"
#include "platform-write.h"
#include "trace-limits.h"

static void print_warnings(const char *cmd, const struct capture *c)
{
	for (guint i = 0; i < c->warnings->len; i++)
		fprintf(stderr, "teosim %s: %s\n", cmd, (char *)g_ptr_array_index(c->warnings, i));
	if (c->malformed > c->warnings->len)
		fprintf(stderr, "teosim %s: %s: %" G_GUINT64_FORMAT " more unreadable lines or "
			"records\n", cmd, c->path, c->malformed - c->warnings->len);
}

/* The capture's file name without its extension, as a trace name may be spelt. */
static char *default_name(const char *path)
{
	g_autofree char *base = g_path_get_basename(path);
	char *dot = strrchr(base, '.');

	if (dot && dot != base)
		*dot = '\0';
	for (char *s = base; *s; s++)
		if (!g_ascii_isalnum(*s) && *s != '_' && *s != '.' && *s != '-')
			*s = '_';
	if (strlen(base) > TRACE_NAME_MAX)
		base[TRACE_NAME_MAX] = '\0';
	return g_strdup(base);
}

bool capture_import_cut(const char *cmd, const char *path, const char *name,
			capture_given_fn given, void *priv, struct capture *c,
			struct imported *im, GError **error)
{
	g_autofree char *own = name ? NULL : default_name(path);
	struct import_given told;
	bool ok;

	memset(im, 0, sizeof(*im));
	ok = capture_load(path, c, error);
	print_warnings(cmd, c);
	ok = ok && (!given || given(priv, c, &told, error)) &&
	     import_convert_cut(c, name ? name : own, given ? &told : NULL, im, error);
	for (guint i = 0; ok && i < im->notes->len; i++)
		fprintf(stderr, "teosim %s: note: %s\n", cmd, (char *)g_ptr_array_index(im->notes, i));
	return ok;
}

/* The stems of a capture's path, longest first: a/b.trace.txt gives a/b.trace, a/b. */
static GPtrArray *capture_stems(const char *capture)
{
	GPtrArray *stems = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *stem = g_strdup(capture);
	char *base = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
	char *dot;

	while ((dot = strrchr(base, '.')) && dot != base) {
		*dot = '\0';
		g_ptr_array_add(stems, g_strdup(stem));
	}
	return stems;
}

char *capture_platform_spec(const char *capture, const char *given)
{
	g_autoptr(GPtrArray) stems = NULL;

	if (given)
		return g_strdup(given);
	stems = capture_stems(capture);
	for (guint i = 0; i < stems->len; i++) {
		const char *stem = g_ptr_array_index(stems, i);
		g_autofree char *file = g_strconcat(stem, PLATFORM_SUFFIX, NULL);
		g_autofree char *cpuidle = g_strconcat(stem, ".cpuidle", NULL);

		if (g_file_test(file, G_FILE_TEST_IS_REGULAR))
			return g_steal_pointer(&file);
		if (g_file_test(cpuidle, G_FILE_TEST_IS_DIR))
			return g_strconcat("sysfs:", cpuidle, NULL);
	}
	return NULL;
}

void capture_platform_missing(const char *capture, GError **error)
{
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "%s: the captured machine's idle states are unknown: give --platform P "
		    "(a platform file made by 'teosim capture-platform' on that machine, "
		    "'sysfs:DIR' for a copy of its cpuidle directory, or a bundled name), "
		    "or keep NAME.platform or NAME.cpuidle/ beside the capture as "
		    "kernel/capture-ftrace.sh does", capture);
}

/* A bundled platform's name, as opposed to a file or a sysfs directory. */
static bool is_bundled(const char *spec)
{
	return !strchr(spec, '/') && !g_str_has_suffix(spec, PLATFORM_SUFFIX) &&
	       strcmp(spec, "sysfs") && !g_str_has_prefix(spec, "sysfs:");
}

/* Whether a and b are one file (neither need exist). */
static bool same_file(const char *a, const char *b)
{
	g_autofree char *ra = realpath(a, NULL);
	g_autofree char *rb = realpath(b, NULL);

	return ra && rb && !strcmp(ra, rb);
}

/*
 * The header's platform for a trace at path: a bundled platform's name as it
 * is, any other as a platform file beside the trace, written there unless it
 * is that file already.
 */
static bool name_platform(const char *spec, const char *path, char **header, GError **error)
{
	g_autofree char *stem = g_str_has_suffix(path, ".trace") ?
				g_strndup(path, strlen(path) - strlen(".trace")) : g_strdup(path);
	g_autofree char *file = g_strconcat(stem, PLATFORM_SUFFIX, NULL);
	g_autofree char *base = g_path_get_basename(file);
	struct platform p;
	bool ok;

	if (!platform_load(spec, &p, error))
		return false;
	if (is_bundled(spec)) {
		*header = g_strdup(spec);
		ok = true;
	} else if (!kf_valid_name(base, TRACE_PLATFORM_MAX)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: the platform file beside a trace is named with 1 to %d of "
			    "[A-Za-z0-9_.-]: choose another -o", file, TRACE_PLATFORM_MAX);
		ok = false;
	} else {
		/* A machine read from sysfs is called after its file, as capture-platform does. */
		g_autofree char *name = g_str_has_prefix(spec, "sysfs") ? g_path_get_basename(stem) : NULL;

		ok = same_file(spec, file) || platform_save(file, &p, name, error);
		if (ok)
			*header = g_steal_pointer(&base);
	}
	platform_clear(&p);
	return ok;
}

bool imported_save(const struct imported *im, const char *capture, const char *platform,
		   const char *path, char **tmp, GError **error)
{
	g_autofree char *header_platform = NULL;
	struct imported named = *im;
	struct out_file *o;

	*tmp = NULL;
	if (!path) {
		int fd = g_file_open_tmp("teosim-import-XXXXXX.trace", tmp, error);

		if (fd < 0)
			return false;
		close(fd);
		leftovers_add(*tmp);
		path = *tmp;
	} else if (platform && out_file_is_stream(path)) {
		/* Nothing goes beside /dev/stdout or a pipe: a bundled name alone is named. */
		header_platform = is_bundled(platform) ? g_strdup(platform) : NULL;
	} else if (platform && !name_platform(platform, path, &header_platform, error)) {
		return false;
	}
	named.header.platform = header_platform;
	o = out_file_open(path, error);
	if (!o)
		return false;
	imported_write(o->f, &named, capture);
	return out_file_commit(o, error);
}

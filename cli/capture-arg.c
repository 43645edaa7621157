// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture-arg.h"
#include "kvline.h"
#include "out-file.h"
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

bool capture_import(const char *cmd, const char *path, const char *name, struct capture *c,
		    struct imported *im, GError **error)
{
	g_autofree char *own = name ? NULL : default_name(path);
	bool ok;

	memset(im, 0, sizeof(*im));
	ok = capture_load(path, c, error);
	print_warnings(cmd, c);
	ok = ok && import_convert(c, name ? name : own, im, error);
	for (guint i = 0; ok && i < im->notes->len; i++)
		fprintf(stderr, "teosim %s: note: %s\n", cmd, (char *)g_ptr_array_index(im->notes, i));
	return ok;
}

bool imported_save(const struct imported *im, const char *capture, const char *path,
		   char **tmp, GError **error)
{
	struct out_file *o;

	*tmp = NULL;
	if (!path) {
		int fd = g_file_open_tmp("teosim-import-XXXXXX.trace", tmp, error);

		if (fd < 0)
			return false;
		close(fd);
		path = *tmp;
	}
	o = out_file_open(path, error);
	if (!o)
		return false;
	imported_write(o->f, im, capture);
	return out_file_commit(o, error);
}

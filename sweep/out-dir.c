// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "kvline.h"
#include "leftovers.h"
#include "out-dir.h"

static bool empty_or_absent(const char *path, GError **error)
{
	GDir *dir;
	bool empty;

	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return true;
	dir = g_dir_open(path, 0, NULL);
	empty = dir && !g_dir_read_name(dir);
	if (dir)
		g_dir_close(dir);
	if (!empty)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s exists and is not an empty directory: remove it or choose "
			    "another output", path);
	return empty;
}

bool out_dir_open(struct out_dir *d, const char *path, GError **error)
{
	g_autofree char *clean = g_strdup(path);
	size_t len = strlen(clean);

	memset(d, 0, sizeof(*d));
	while (len > 1 && clean[len - 1] == '/')
		clean[--len] = '\0';
	if (!empty_or_absent(clean, error))
		return false;
	d->tmp = g_strconcat(clean, ".partial-XXXXXX", NULL);
	if (!g_mkdtemp(d->tmp)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", d->tmp,
			    g_strerror(errno));
		g_clear_pointer(&d->tmp, g_free);
		return false;
	}
	/* mkdtemp's 0700 is for the name's sake: the result is as readable as any output. */
	{
		mode_t mask = umask(0);

		umask(mask);
		g_chmod(d->tmp, 0777 & ~mask);
	}
	leftovers_add(d->tmp);
	d->path = g_steal_pointer(&clean);
	return true;
}

bool out_dir_finish(struct out_dir *d, bool ok, GError **error)
{
	if (ok && g_rename(d->tmp, d->path)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "renaming %s to %s: %s", d->tmp,
			    d->path, g_strerror(errno));
		ok = false;
	}
	if (ok)
		leftovers_forget(d->tmp);
	else
		leftovers_remove(d->tmp);
	g_free(d->tmp);
	g_free(d->path);
	memset(d, 0, sizeof(*d));
	return ok;
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kvline.h"
#include "leftovers.h"
#include "out-file.h"

static void out_file_free(struct out_file *o)
{
	g_free(o->path);
	g_free(o->tmp);
	g_free(o);
}

bool out_file_is_stream(const char *path)
{
	GStatBuf st;

	return g_stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

struct out_file *out_file_open(const char *path, GError **error)
{
	struct out_file *o = g_new0(struct out_file, 1);
	int fd;

	o->path = g_strdup(path);
	if (out_file_is_stream(path)) {
		o->f = g_fopen(path, "w");
		if (!o->f) {
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path,
				    g_strerror(errno));
			out_file_free(o);
			return NULL;
		}
		return o;
	}
	/* Beside the output: a rename within one file system is atomic. */
	o->tmp = g_strconcat(path, ".XXXXXX", NULL);
	fd = g_mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path, g_strerror(errno));
		if (fd >= 0) {
			close(fd);
			g_unlink(o->tmp);
		}
		out_file_free(o);
		return NULL;
	}
	leftovers_add(o->tmp);
	return o;
}

bool out_file_commit(struct out_file *o, GError **error)
{
	bool ok = !ferror(o->f);
	const char *why = ok ? NULL : "write failed";

	if (fclose(o->f) != 0 && ok) {
		ok = false;
		why = g_strerror(errno);
	}
	/* mkstemp makes the file 0600; an output gets the usual mode. */
	if (ok && o->tmp) {
		mode_t mask = umask(0);

		umask(mask);
		if (g_chmod(o->tmp, 0666 & ~mask) != 0 || g_rename(o->tmp, o->path) != 0) {
			ok = false;
			why = g_strerror(errno);
		}
	}
	if (!o->tmp) {
		if (!ok)
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", o->path, why);
	} else if (ok) {
		leftovers_forget(o->tmp);
	} else {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s (left as it was)", o->path, why);
		leftovers_remove(o->tmp);
	}
	out_file_free(o);
	return ok;
}

void out_file_abort(struct out_file *o)
{
	fclose(o->f);
	if (o->tmp)
		leftovers_remove(o->tmp);
	out_file_free(o);
}

bool out_file_finish(struct out_file *o, bool ok, GError **error)
{
	if (ok)
		return out_file_commit(o, error);
	out_file_abort(o);
	return false;
}

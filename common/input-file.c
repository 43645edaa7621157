// SPDX-License-Identifier: GPL-2.0
/* Inputs that can be read more than once, pipes included. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input-file.h"
#include "kvline.h"

static GMutex copies_lock;
/* The user's path -> "/proc/self/fd/N" of its copy; never freed. */
static GHashTable *copies;

static bool is_stream(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		return true;
	/* A path stat() cannot follow is left to fopen(), whose error names it. */
	return stat(path, &st) == 0 &&
	       (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode));
}

static bool copy_all(int from, int to)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		for (ssize_t done = 0, w; done < n; done += w) {
			w = write(to, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)
				return false;
		}
	}
	return true;
}

/* An unlinked copy of what path delivers; its descriptor, or -1 with error set. */
static int copy_stream(const char *path, GError **error)
{
	g_autofree char *name = NULL;
	int from, to, saved;

	from = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (from < 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path, g_strerror(errno));
		return -1;
	}
	to = g_file_open_tmp("teosim-input-XXXXXX", &name, error);
	if (to < 0) {
		g_prefix_error(error, "%s: cannot keep a copy to read it again: ", path);
		if (from != STDIN_FILENO)
			close(from);
		return -1;
	}
	/* Unlinked at once: nothing is left behind, however the process ends. */
	unlink(name);
	if (!copy_all(from, to)) {
		saved = errno;
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path, g_strerror(saved));
		close(to);
		to = -1;
	}
	if (from != STDIN_FILENO)
		close(from);
	return to;
}

const char *input_path(const char *path, GError **error)
{
	const char *copy;
	int fd;

	g_mutex_lock(&copies_lock);
	if (!copies)
		copies = g_hash_table_new(g_str_hash, g_str_equal);
	/* Looked up first: the pipe may be gone (closed, unlinked) by now. */
	copy = g_hash_table_lookup(copies, path);
	if (!copy && !is_stream(path))
		copy = path;
	else if (!copy && (fd = copy_stream(path, error)) >= 0) {
		copy = g_strdup_printf("/proc/self/fd/%d", fd);
		g_hash_table_insert(copies, g_strdup(path), (char *)copy);
	}
	g_mutex_unlock(&copies_lock);
	return copy;
}

FILE *input_fopen(const char *path, const char *mode, GError **error)
{
	const char *real = input_path(path, error);
	FILE *f;

	if (!real)
		return NULL;
	f = fopen(real, mode);
	if (!f)
		/* In GLib's domain, as g_file_get_contents() would: callers tell ENOENT apart. */
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "%s: %s", path,
			    g_strerror(errno));
	return f;
}

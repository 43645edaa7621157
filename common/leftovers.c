// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "leftovers.h"

static GMutex lock;
static GPtrArray *paths;	/* owned strings, under lock */
static int wakeup[2] = { -1, -1 };

/* A tree this program wrote: symbolic links are removed, never followed. */
static void remove_path(const char *path)
{
	GDir *dir = g_file_test(path, G_FILE_TEST_IS_SYMLINK) ? NULL : g_dir_open(path, 0, NULL);
	const char *entry;

	if (!dir) {
		g_unlink(path);
		return;
	}
	while ((entry = g_dir_read_name(dir))) {
		g_autofree char *child = g_build_filename(path, entry, NULL);

		remove_path(child);
	}
	g_dir_close(dir);
	g_rmdir(path);
}

static void forget_locked(const char *path)
{
	for (guint i = 0; paths && i < paths->len; i++)
		if (!g_strcmp0(g_ptr_array_index(paths, i), path)) {
			g_ptr_array_remove_index_fast(paths, i);
			return;
		}
}

void leftovers_add(const char *path)
{
	g_mutex_lock(&lock);
	if (!paths)
		paths = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(paths, g_strdup(path));
	g_mutex_unlock(&lock);
}

void leftovers_forget(const char *path)
{
	g_mutex_lock(&lock);
	forget_locked(path);
	g_mutex_unlock(&lock);
}

void leftovers_remove(const char *path)
{
	g_mutex_lock(&lock);
	remove_path(path);
	forget_locked(path);
	g_mutex_unlock(&lock);
}

static void on_signal(int sig)
{
	const int saved = errno;
	const unsigned char b = (unsigned char)sig;

	if (write(wakeup[1], &b, 1) < 0)
		_exit(128 + sig);	/* the pipe is gone: end as the signal would */
	errno = saved;
}

/*
 * The lock stays held to the end, so that no path is added after the
 * removal; one renamed to its output meanwhile is no longer there under
 * its temporary name (the rename comes before the forgetting).
 */
static gpointer remove_on_signal(gpointer unused)
{
	unsigned char sig;

	(void)unused;
	while (read(wakeup[0], &sig, 1) != 1)
		if (errno != EINTR)
			return NULL;
	g_mutex_lock(&lock);
	for (guint i = 0; paths && i < paths->len; i++)
		remove_path(g_ptr_array_index(paths, i));
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

void leftovers_watch(void)
{
	static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	if (wakeup[0] >= 0 || pipe2(wakeup, O_CLOEXEC))
		return;
	sigemptyset(&sa.sa_mask);
	g_thread_unref(g_thread_new("leftovers", remove_on_signal, NULL));
	for (size_t i = 0; i < G_N_ELEMENTS(caught); i++) {
		struct sigaction old;

		/* A signal ignored at start (a background job's SIGINT) stays ignored. */
		if (!sigaction(caught[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
}

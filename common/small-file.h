/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a file that is small by nature (a key file, a sysfs attribute)
 * whole, without trusting it to be: a larger one is an error, never an
 * allocation of its size.
 */
#ifndef TEOSIM_SMALL_FILE_H
#define TEOSIM_SMALL_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

/*
 * *text (NUL-terminated, for g_free()) and *len.  False with "PATH: ...":
 * in G_FILE_ERROR when unreadable, in TEOSIM_ERROR when above max bytes.
 */
bool small_file_read(const char *path, size_t max, char **text, size_t *len, GError **error);

#endif /* TEOSIM_SMALL_FILE_H */

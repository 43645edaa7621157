/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TEOSIM_INPUT_FILE_H
#define TEOSIM_INPUT_FILE_H

#include <stdio.h>

#include <glib.h>

/*
 * Readers open an input more than once (a trace's header for its
 * platform, then the trace for each group of governors; a call log's
 * header for its governor, then the log), and may from several threads.
 * A pipe gives its data to the first reader only.  input_path() returns a
 * path that every reader can open from the start: the user's path itself
 * for a file, or for a pipe, a terminal or a socket (and "-", standard
 * input) a copy of all it delivers, read once on the first call into an
 * unlinked temporary file and named by its descriptor in /proc/self/fd,
 * which this process holds open to its end.  NULL, with an error naming
 * path, when the copy fails.  Messages name the user's path, not this one.
 */
const char *input_path(const char *path, GError **error);

/* fopen(input_path(path), mode), with errno's message naming path. */
FILE *input_fopen(const char *path, const char *mode, GError **error);

#endif /* TEOSIM_INPUT_FILE_H */

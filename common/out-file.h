/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files written whole or not at all: the text goes to a temporary
 * file beside the output, renamed over it only once every write and the
 * close have succeeded.  A failed run leaves an existing output as it was.
 * An output that exists and is no regular file (/dev/null, /dev/stdout, a
 * named pipe) is written straight to: a rename would replace the device
 * node or the pipe with a file.
 */
#ifndef TEOSIM_OUT_FILE_H
#define TEOSIM_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

struct out_file {
	FILE *f;		/* write here */
	char *path;		/* the output */
	char *tmp;		/* the temporary file beside it, or NULL: written straight to */
};

/* Whether path exists as no regular file (stat() follows links): written straight to. */
bool out_file_is_stream(const char *path);
/* NULL with "PATH: reason" when the temporary file cannot be made. */
struct out_file *out_file_open(const char *path, GError **error);
/* Closes and renames; on any error the temporary file is removed.  Frees o. */
bool out_file_commit(struct out_file *o, GError **error);
/* Closes and removes the temporary file: the output is not touched.  Frees o. */
void out_file_abort(struct out_file *o);
/* After the writer's run: commits when it went well (ok), else aborts.  Frees o. */
bool out_file_finish(struct out_file *o, bool ok, GError **error);

#endif /* TEOSIM_OUT_FILE_H */

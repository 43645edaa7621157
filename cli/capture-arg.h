/* SPDX-License-Identifier: GPL-2.0 */
/* Loading a capture and importing it: what import and fidelity share. */
#ifndef TEOSIM_CAPTURE_ARG_H
#define TEOSIM_CAPTURE_ARG_H

#include <stdbool.h>

#include <glib.h>

#include "capture.h"
#include "convert.h"

/*
 * What the simulation will take where the capture does not tell (a tick
 * stop's cost, exit costs: import_convert_cut()), told once the capture
 * is read; false with *error set to give up.
 */
typedef bool (*capture_given_fn)(void *priv, const struct capture *c, struct import_given *out,
				 GError **error);

/*
 * Reads the capture at path and imports it as a trace named name (a valid
 * trace name, or NULL: after the file), with the work cut and the wakeups
 * placed by given()'s answer (NULL: the capture's own figures alone),
 * printing the readers' warnings and the import's notes on stderr as
 * "teosim CMD: ...".  c must be cleared with capture_clear() and im with
 * imported_clear() whatever the result.
 */
bool capture_import_cut(const char *cmd, const char *path, const char *name,
			capture_given_fn given, void *priv, struct capture *c,
			struct imported *im, GError **error);

/*
 * The captured machine's platform spec (platform_load()): given when not
 * NULL, else the platform file or cpuidle copy that kernel/capture-ftrace.sh
 * leaves beside the capture (NAME.platform, NAME.cpuidle/ for a capture
 * NAME.trace.txt or NAME.dat), else NULL.
 */
char *capture_platform_spec(const char *capture, const char *given);

/* The error for a capture whose machine is unknown, saying how to name it. */
void capture_platform_missing(const char *capture, GError **error);

/*
 * Writes the imported trace to path, or to a new temporary file (*tmp) when
 * path is NULL.  With a platform spec, a trace at path names it in its
 * header: a bundled platform by its name, any other as a platform file
 * written beside the trace (path without .trace, plus .platform).
 */
bool imported_save(const struct imported *im, const char *capture, const char *platform,
		   const char *path, char **tmp, GError **error);

#endif /* TEOSIM_CAPTURE_ARG_H */

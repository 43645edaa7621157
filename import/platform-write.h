/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a platform as a key file in the format of traces/platforms/
 * (traces/platforms/README.md), so that a machine's idle-state table,
 * read from its sysfs, can be stored next to its captures.
 */
#ifndef TEOSIM_IMPORT_PLATFORM_WRITE_H
#define TEOSIM_IMPORT_PLATFORM_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

#include "platform.h"

/* name replaces p->name (a sysfs platform is called "sysfs"); NULL keeps it. */
void platform_write(FILE *out, const struct platform *p, const char *name);
/*
 * Writes p to path whole or not at all (out-file.h) and reads it back
 * through platform_load(): what is stored must load as it was read.
 */
bool platform_save(const char *path, const struct platform *p, const char *name,
		   GError **error);

#endif /* TEOSIM_IMPORT_PLATFORM_WRITE_H */

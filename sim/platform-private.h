/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two platform readers share: the rules every platform obeys,
 * whatever it was read from (traces/platforms/README.md explains each).
 */
#ifndef TEOSIM_PLATFORM_PRIVATE_H
#define TEOSIM_PLATFORM_PRIVATE_H

#include "platform.h"

/*
 * Reports a broken rule at state index (-1: the platform as a whole) and
 * key, a key file's key name; the reader maps it to its own file and line.
 */
typedef void (*platform_fail_fn)(void *ctx, GError **error, int index, const char *key,
				 const char *msg);

/* Checks a table that was read completely; reports the first broken rule. */
bool platform_check(const struct platform *p, platform_fail_fn fail, void *ctx,
		    GError **error);

/* Reads "sysfs" or "sysfs:DIR" (see platform_load()). */
bool platform_load_sysfs(const char *dir, struct platform *out, GError **error);

#endif /* TEOSIM_PLATFORM_PRIVATE_H */

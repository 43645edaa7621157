/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TEOSIM_GOVERNOR_ARG_H
#define TEOSIM_GOVERNOR_ARG_H

#include <glib.h>
#include <kshim/registry.h>

/*
 * The governor called name, or the module at that path (module/load.h);
 * NULL with an error listing those built in.
 */
const struct kshim_governor *teosim_find_governor(const char *name, GError **error);
/*
 * The governor to replay the call log at path with: name when not NULL,
 * else the one the log's header names; NULL with an error otherwise.
 */
const struct kshim_governor *teosim_log_governor(const char *name, const char *path,
						 GError **error);

#endif /* TEOSIM_GOVERNOR_ARG_H */

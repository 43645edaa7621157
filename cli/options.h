/* SPDX-License-Identifier: GPL-2.0 */
/* Option parsing shared by the subcommands. */
#ifndef TEOSIM_OPTIONS_H
#define TEOSIM_OPTIONS_H

#include <glib.h>

/*
 * Parses argv with entries; on error prints "teosim CMD: message" and
 * returns FALSE.  parameter is the summary of positional arguments.
 */
gboolean teosim_parse_options(int *argc, char ***argv, const char *parameter,
			      const char *description, const GOptionEntry *entries);

/* Prints "teosim: message" for error and frees it; returns exit status 1. */
int teosim_fail(GError *error);

#endif /* TEOSIM_OPTIONS_H */

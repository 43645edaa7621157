// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "options.h"

gboolean teosim_parse_options(int *argc, char ***argv, const char *parameter,
			      const char *description, const GOptionEntry *entries)
{
	g_autofree char *prog = g_strdup_printf("teosim %s", (*argv)[0]);
	g_autoptr(GOptionContext) ctx = g_option_context_new(parameter);
	g_autoptr(GError) error = NULL;

	g_set_prgname(prog);
	g_option_context_set_summary(ctx, description);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, argc, argv, &error)) {
		fprintf(stderr, "%s: %s\n", prog, error->message);
		return FALSE;
	}
	return TRUE;
}

int teosim_fail(GError *error)
{
	fprintf(stderr, "teosim: %s\n", error->message);
	g_error_free(error);
	return 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * teosim governors: what was built, from which source, with which hash;
 * and the same of the governor modules named.
 */
#include <stdio.h>
#include <string.h>

#include <kshim/core.h>
#include <kshim/registry.h>

#include "commands.h"
#include "governor-arg.h"
#include "options.h"

int cmd_governors(int argc, char **argv)
{
	static const GOptionEntry entries[] = { G_OPTION_ENTRY_NULL };
	size_t i, n;

	if (!teosim_parse_options(&argc, &argv, "[MODULE...]",
				  "Lists every governor compiled into this teosim: its name, the kernel API\n"
				  "generation it was built against, where its source came from, the file's\n"
				  "path there, and the SHA-256 of the file that was compiled.  With module\n"
				  "files (from teosim build-governor), those are loaded and listed after.",
				  entries))
		return 2;
	for (int a = 1; a < argc; a++) {
		GError *error = NULL;

		if (!teosim_find_governor(argv[a], &error))
			return teosim_fail(error);
	}
	n = kshim_governor_count();
	/* Columns as wide as their widest entry, so that the table lines up. */
	int w_name = 4, w_api = 3, w_origin = 6, w_path = 4;
	for (i = 0; i < n; i++) {
		const struct kshim_governor_meta *m = kshim_governor_at(i)->meta;

		w_name = MAX(w_name, (int)strlen(m->name));
		w_api = MAX(w_api, (int)strlen(m->api));
		w_origin = MAX(w_origin, (int)strlen(m->origin));
		w_path = MAX(w_path, (int)strlen(m->path));
	}
	printf("%-*s  %-*s  %-*s  %-*s  %s\n", w_name, "NAME", w_api, "API", w_origin, "ORIGIN",
	       w_path, "PATH", "SHA256");
	for (i = 0; i < n; i++) {
		const struct kshim_governor_meta *m = kshim_governor_at(i)->meta;

		printf("%-*s  %-*s  %-*s  %-*s  %s\n", w_name, m->name, w_api, m->api,
		       w_origin, m->origin, w_path, m->path, m->sha256);
	}
	return 0;
}

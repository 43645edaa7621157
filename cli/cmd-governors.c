// SPDX-License-Identifier: GPL-2.0
/* teosim governors: what was built, from which source, with which hash. */
#include <stdio.h>

#include <kshim/core.h>
#include <kshim/registry.h>

#include "commands.h"
#include "options.h"

int cmd_governors(int argc, char **argv)
{
	static const GOptionEntry entries[] = { G_OPTION_ENTRY_NULL };
	size_t i, n;

	if (!teosim_parse_options(&argc, &argv, "",
				  "Lists every governor compiled into this teosim: its name, the kernel API\n"
				  "generation it was built against, where its source came from, the file's\n"
				  "path there, and the SHA-256 of the file that was compiled.",
				  entries))
		return 2;
	if (argc > 1) {
		fprintf(stderr, "teosim governors: takes no arguments\n");
		return 2;
	}
	n = kshim_governor_count();
	printf("%-11s %-5s %-34s %-32s %s\n", "NAME", "API", "ORIGIN", "PATH", "SHA256");
	for (i = 0; i < n; i++) {
		const struct kshim_governor *g = kshim_governor_at(i);

		printf("%-11s %-5s %-34s %-32s %s\n", g->meta->name, g->meta->api,
		       g->meta->origin, g->meta->path, g->meta->sha256);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* teosim replay: a governor-call log through a governor, decision by decision. */
#include <stdio.h>

#include "commands.h"
#include "governor-arg.h"
#include "kvline.h"
#include "options.h"
#include "out-file.h"
#include "replay.h"

int cmd_replay(int argc, char **argv)
{
	g_autofree char *governor = NULL, *usage_path = NULL;
	gboolean check = FALSE, quiet = FALSE;
	const GOptionEntry entries[] = {
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &governor,
		  "Governor to run (see 'teosim governors'; default: the one the log names)", "NAME" },
		{ "check", 'c', 0, G_OPTION_ARG_NONE, &check,
		  "Compare with the recorded decisions; exit 1 at the first difference", NULL },
		{ "usage", 'u', 0, G_OPTION_ARG_FILENAME, &usage_path,
		  "Write the per-CPU state counters (usage, time, above, below) to FILE", "FILE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "Do not print the decisions", NULL },
		G_OPTION_ENTRY_NULL
	};
	const struct kshim_governor *gov;
	struct replay_result result;
	struct out_file *usage = NULL;
	GError *error = NULL;
	bool ok;

	if (!teosim_parse_options(&argc, &argv, "LOG",
				  "Runs a governor-call log (traces/calls-format.md) through one governor,\n"
				  "each CPU with its own instance, and prints one decision per select:\n"
				  "  decision line=L cpu=C state=S stop_tick=B",
				  entries))
		return 2;
	if (argc != 2) {
		fprintf(stderr, "teosim replay: need one LOG\n");
		return 2;
	}
	gov = teosim_log_governor(governor, argv[1], &error);
	if (!gov)
		return teosim_fail(error);
	if (usage_path && !(usage = out_file_open(usage_path, &error)))
		return teosim_fail(error);
	ok = replay_run(gov, argv[1], quiet ? NULL : stdout,
			check ? REPLAY_CHECK_EVERY : REPLAY_NO_CHECK, usage ? usage->f : NULL,
			&result, &error);
	if (usage)
		ok = out_file_finish(usage, ok, &error);
	if (!ok)
		return teosim_fail(error);
	if (check)
		fprintf(stderr, "%s: %lu of %lu decisions compared, all identical\n",
			gov->meta->name, result.compared, result.selects);
	return 0;
}

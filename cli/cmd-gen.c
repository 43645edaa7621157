// SPDX-License-Identifier: GPL-2.0
/* teosim gen: a workload trace from a scenario, the same bytes for the same seed. */
#include <stdio.h>

#include "commands.h"
#include "gen.h"
#include "options.h"
#include "out-file.h"

int cmd_gen(int argc, char **argv)
{
	g_autofree char *output = NULL;
	gint64 seed = 1;
	const GOptionEntry entries[] = {
		{ "seed", 's', 0, G_OPTION_ARG_INT64, &seed,
		  "Random seed, 0 to 4294967295 (default 1)", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "Write the trace to FILE instead of standard output", "FILE" },
		G_OPTION_ENTRY_NULL
	};
	struct out_file *o = NULL;
	GError *error = NULL;
	bool ok;

	if (!teosim_parse_options(&argc, &argv, "SCENARIO",
				  "Writes a workload trace (traces/trace-format.md) made from a scenario\n"
				  "(traces/scenarios/README.md) and a seed.  The same scenario and seed\n"
				  "give the same bytes on every machine.",
				  entries))
		return 2;
	if (argc != 2 || seed < 0 || seed > G_MAXUINT32) {
		fprintf(stderr, "teosim gen: need one SCENARIO and a --seed from 0 to %u\n",
			G_MAXUINT32);
		return 2;
	}
	if (output && !(o = out_file_open(output, &error)))
		return teosim_fail(error);
	ok = gen_write(argv[1], (uint32_t)seed, o ? o->f : stdout, &error);
	/* No half-written trace is left to be mistaken for a whole one, nor an older one clobbered. */
	if (o)
		ok = out_file_finish(o, ok, &error);
	return ok ? 0 : teosim_fail(error);
}

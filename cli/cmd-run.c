// SPDX-License-Identifier: GPL-2.0
/* teosim run: one governor over workload traces, scored per CPU. */
#include <stdio.h>

#include "commands.h"
#include "governor-arg.h"
#include "options.h"
#include "plot-output.h"
#include "sim-options.h"

int cmd_run(int argc, char **argv)
{
	struct sim_cli_options so;
	g_autofree char *governor = NULL;
	GOptionEntry entries[SIM_CLI_ENTRIES_MAX + 1];
	const struct kshim_governor *gov;
	struct sim_run_options run;
	struct sim_result *results;
	enum report_format format;
	struct platform pl = { 0 };
	GError *error = NULL;
	int status = 0;

	sim_cli_entries(&so, entries + 1, true);
	entries[0] = (GOptionEntry){ "governor", 'g', 0, G_OPTION_ARG_STRING, &governor,
		"Governor to run (see 'teosim governors')", "G" };
	if (!teosim_parse_options(&argc, &argv, "TRACE...",
				  "Simulates each CPU's idle loop over workload traces\n"
				  "(traces/trace-format.md) with one governor and scores it (sim/README.md).",
				  entries))
		return 2;
	if (!governor || argc < 2) {
		fprintf(stderr, "teosim run: need --governor G, --platform P and a TRACE\n");
		sim_cli_options_clear(&so);
		return 2;
	}
	gov = teosim_find_governor(governor, &error);
	if (!gov || !sim_cli_prepare(&so, argv + 1, (unsigned int)argc - 1, &pl, &run, &format, &error) ||
	    !sim_run_all(&run, &gov, 1, argv + 1, (unsigned int)argc - 1, &results, &error)) {
		status = teosim_fail(error);
	} else {
		struct report r = { .options = &run, .results = results,
				    .nr_traces = (unsigned int)argc - 1, .nr_govs = 1 };

		report_runs(stdout, format, &r);
		if (so.plot_dir && !teosim_write_run_plots(so.plot_dir, &run, results, r.nr_traces,
							   r.nr_traces, &error))
			status = teosim_fail(error);
		sim_results_free(results, r.nr_traces);
	}
	platform_clear(&pl);
	sim_cli_options_clear(&so);
	return status;
}

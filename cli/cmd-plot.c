// SPDX-License-Identifier: GPL-2.0
/* teosim plot: the figures of a comparison, without its table. */
#include <stdio.h>

#include "commands.h"
#include "options.h"
#include "plot-output.h"
#include "sim-options.h"

int cmd_plot(int argc, char **argv)
{
	struct sim_cli_options so;
	g_autofree char *governors = NULL;
	g_autofree const struct kshim_governor **govs = NULL;
	GOptionEntry entries[SIM_CLI_ENTRIES_MAX + 1];
	struct sim_run_options run;
	struct sim_result *results;
	struct platform pl = { 0 };
	unsigned int nr_govs = 0, nr_traces;
	GError *error = NULL;
	int status = 0;

	sim_cli_entries(&so, entries + 1, false);
	entries[0] = (GOptionEntry){ "governors", 'g', 0, G_OPTION_ARG_STRING, &governors,
		"Governors to draw, separated by commas", "A,B,..." };
	if (!teosim_parse_options(&argc, &argv, "TRACE...",
				  "Simulates governors over traces and writes the figures of their\n"
				  "state selection into the --plot directory: decisions per state,\n"
				  "idle-duration histograms, timelines, energy against latency.\n"
				  "Each figure comes as NAME.dat, NAME.gp (edit and rerun gnuplot),\n"
				  "NAME.png and NAME.svg.",
				  entries))
		return 2;
	if (!governors || !so.plot_dir || argc < 2) {
		fprintf(stderr, "teosim plot: need --governors A,B,..., --platform P, --plot DIR "
				"and a TRACE\n");
		sim_cli_options_clear(&so);
		return 2;
	}
	nr_traces = (unsigned int)argc - 1;
	if (!sim_cli_governors(governors, 16, true, &govs, &nr_govs, &error) ||
	    !sim_cli_prepare(&so, argv + 1, nr_traces, &pl, &run, NULL, &error) ||
	    !sim_run_all(&run, govs, nr_govs, argv + 1, nr_traces, &results, &error)) {
		status = teosim_fail(error);
	} else {
		if (!teosim_write_run_plots(so.plot_dir, &run, results, nr_traces * nr_govs,
					    nr_traces, &error))
			status = teosim_fail(error);
		sim_results_free(results, nr_traces * nr_govs);
	}
	platform_clear(&pl);
	sim_cli_options_clear(&so);
	return status;
}

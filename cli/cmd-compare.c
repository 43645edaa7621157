// SPDX-License-Identifier: GPL-2.0
/* teosim compare: several governors over the same traces, side by side. */
#include <stdio.h>

#include "commands.h"
#include "options.h"
#include "plot-output.h"
#include "sim-options.h"

int cmd_compare(int argc, char **argv)
{
	struct sim_cli_options so;
	g_autofree char *governors = NULL;
	g_autofree const struct kshim_governor **govs = NULL;
	GOptionEntry entries[SIM_CLI_ENTRIES_MAX + 1];
	struct sim_run_options run;
	struct sim_result *results;
	enum report_format format;
	struct platform pl = { 0 };
	unsigned int nr_govs = 0;
	GError *error = NULL;
	int status = 0;

	sim_cli_entries(&so, entries + 1, true);
	entries[0] = (GOptionEntry){ "governors", 'g', 0, G_OPTION_ARG_STRING, &governors,
		"Governors to compare, separated by commas", "A,B,..." };
	if (!teosim_parse_options(&argc, &argv, "TRACE...",
				  "Runs several governors over the same traces and shows their scores\n"
				  "side by side, the best of each figure marked with '*'.",
				  entries))
		return 2;
	if (!governors || argc < 2) {
		fprintf(stderr, "teosim compare: need --governors A,B,..., --platform P and a TRACE\n");
		sim_cli_options_clear(&so);
		return 2;
	}
	if (!sim_cli_governors(governors, REPORT_GOVERNORS_MAX, true, &govs, &nr_govs, &error) ||
	    !sim_cli_prepare(&so, argv + 1, (unsigned int)argc - 1, &pl, &run, &format, &error) ||
	    !sim_run_all(&run, govs, nr_govs, argv + 1, (unsigned int)argc - 1, &results, &error)) {
		status = teosim_fail(error);
	} else {
		struct report r = { .options = &run, .results = results,
				    .nr_traces = (unsigned int)argc - 1, .nr_govs = nr_govs };

		report_compare(stdout, format, &r);
		if (so.plot_dir && !teosim_write_run_plots(so.plot_dir, &run, results,
							   r.nr_traces * nr_govs, r.nr_traces,
							   &error))
			status = teosim_fail(error);
		sim_results_free(results, r.nr_traces * nr_govs);
	}
	platform_clear(&pl);
	sim_cli_options_clear(&so);
	return status;
}

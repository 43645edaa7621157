// SPDX-License-Identifier: GPL-2.0
/* teosim diff: where two governors (or two versions of one) decide differently. */
#include <stdio.h>

#include "commands.h"
#include "diff.h"
#include "options.h"
#include "plot-output.h"
#include "sim-options.h"

int cmd_diff(int argc, char **argv)
{
	struct sim_cli_options so;
	g_autofree char *governors = NULL;
	g_autofree const struct kshim_governor **govs = NULL;
	GOptionEntry entries[SIM_CLI_ENTRIES_MAX + 1];
	struct sim_run_options run;
	struct diff_result d;
	struct platform pl = { 0 };
	unsigned int nr_govs = 0;
	GError *error = NULL;
	int status;

	sim_cli_entries(&so, entries + 1, false);
	entries[0] = (GOptionEntry){ "governors", 'g', 0, G_OPTION_ARG_STRING, &governors,
		"The two governors, A,B: A drives the CPU, B is asked on the same inputs", "A,B" };
	if (!teosim_parse_options(&argc, &argv, "TRACE",
				  "Compares two governors' decisions period by period over one trace and\n"
				  "shows how often they differ and the first cases with their inputs.\n"
				  "Exit status: 0 when all decisions are identical, 1 when some differ,\n"
				  "2 on bad input.",
				  entries))
		return 2;
	if (!governors || argc != 2) {
		fprintf(stderr, "teosim diff: need --governors A,B, --platform P and one TRACE\n");
		sim_cli_options_clear(&so);
		return 2;
	}
	if (!sim_cli_governors(governors, 2, &govs, &nr_govs, &error) ||
	    !sim_cli_prepare(&so, argv + 1, 1, &pl, &run, NULL, &error)) {
		teosim_fail(error);
		status = 2;
	} else if (nr_govs != 2) {
		fprintf(stderr, "teosim diff: --governors takes exactly two names\n");
		status = 2;
	} else if (!sim_diff(&run, govs[0], govs[1], argv[1], &d, &error)) {
		teosim_fail(error);
		status = 2;
	} else {
		diff_report(stdout, &run, govs[0], govs[1], argv[1], &d);
		status = d.differ ? 1 : 0;
		if (so.plot_dir && !teosim_write_diff_plots(so.plot_dir, &d, &error)) {
			teosim_fail(error);
			status = 2;
		}
		diff_result_clear(&d);
	}
	platform_clear(&pl);
	sim_cli_options_clear(&so);
	return status;
}

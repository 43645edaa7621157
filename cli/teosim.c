// SPDX-License-Identifier: GPL-2.0
/* teosim: run Linux cpuidle governors in userspace. */
#include <errno.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "commands.h"
#include "leftovers.h"

static const struct teosim_command commands[] = {
	{ "governors", "list the governors built in, with their origin and SHA-256", cmd_governors },
	{ "build-governor", "compile a governor source or a patched governor into a module", cmd_build_governor },
	{ "replay", "run a governor-call log through a governor", cmd_replay },
	{ "test", "run governor unit tests: call logs with the decisions expected", cmd_test },
	{ "random-calls", "write a random governor-call log", cmd_random_calls },
	{ "run", "simulate a governor over workload traces and score it", cmd_run },
	{ "compare", "simulate several governors over the same traces, side by side", cmd_compare },
	{ "sweep", "simulate a matrix of governors, platforms, workloads and seeds, with a report", cmd_sweep },
	{ "diff", "show where two governors decide differently on a trace", cmd_diff },
	{ "gen", "write a workload trace from a scenario file and a seed", cmd_gen },
	{ "plot", "draw figures of governors' state selection with gnuplot", cmd_plot },
	{ "import", "turn a kernel trace capture into a workload trace, compare with the real kernel", cmd_import },
	{ "fidelity", "compare a governor simulated on a capture with the captured kernel", cmd_fidelity },
	{ "capture-platform", "store this machine's idle states as a platform file", cmd_capture_platform },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: teosim COMMAND [OPTION…]\n\n"
		     "Runs the Linux kernel's cpuidle governors, compiled unmodified, in userspace.\n\n"
		     "Commands:\n");
	for (i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(out, "  %-16s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'teosim COMMAND --help' describes a command.\n");
}

/*
 * A result that did not reach standard output (a full disk, a closed pipe)
 * is a failure, never a silent success.
 */
static int close_stdout(int status)
{
	bool failed = ferror(stdout) != 0;

	errno = 0;
	failed |= fclose(stdout) != 0;
	if (failed && status == 0) {
		fprintf(stderr, "teosim: writing standard output: %s\n",
			errno ? g_strerror(errno) : "write error");
		return 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	size_t i;

	/*
	 * Characters only (GLib's help text has UTF-8 ellipses): numbers stay
	 * in the C locale, so that the output is the same bytes everywhere.
	 */
	setlocale(LC_CTYPE, "");
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("teosim %s\n", TEOSIM_VERSION);
		return 0;
	}
	/* Before any command makes a temporary file or a thread. */
	leftovers_watch();
	for (i = 0; i < G_N_ELEMENTS(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return close_stdout(commands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "teosim: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}

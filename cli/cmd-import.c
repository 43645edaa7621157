// SPDX-License-Identifier: GPL-2.0
/*
 * teosim import: a kernel trace capture (ftrace text, trace-cmd report
 * text or a trace-cmd .dat file) to a workload trace, and with --report
 * the real kernel's idle-state counters next to the simulated governors'.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <kshim/registry.h>

#include "capture-arg.h"
#include "commands.h"
#include "convert.h"
#include "import-report.h"
#include "keyfile-lines.h"
#include "kvline.h"
#include "leftovers.h"
#include "options.h"
#include "plot-output.h"
#include "real-usage.h"
#include "sim-options.h"
#include "trace-limits.h"

struct import_cli {
	char *output;
	char *name;
	char *governors;
	gboolean report;
	struct sim_cli_options sim;
};

/* Every governor built in, or those named. */
static bool pick_governors(const char *list, const struct kshim_governor ***govs,
			   unsigned int *n, GError **error)
{
	if (list)
		return sim_cli_governors(list, REPORT_GOVERNORS_MAX, true, govs, n, error);
	kshim_registry_init();
	*n = (unsigned int)MIN(kshim_governor_count(), REPORT_GOVERNORS_MAX);
	*govs = g_new(const struct kshim_governor *, *n);
	for (unsigned int i = 0; i < *n; i++)
		(*govs)[i] = kshim_governor_at(i);
	return true;
}

/*
 * Each governor against the capture, as teosim fidelity compares them
 * without a call log: the capture's side is read once for all of them.
 */
static bool compare(const struct sim_run_options *run, const struct kshim_governor *const *govs,
		    unsigned int n, const struct capture *c, const struct imported *im,
		    const char *trace, struct fidelity *out, GError **error)
{
	struct fid_options fo = { .run = run, .match_ns = REPORT_FIDELITY_MATCH_NS,
				  .warmup_ns = REPORT_FIDELITY_WARMUP_NS,
				  .warmup_periods = REPORT_FIDELITY_WARMUP_PERIODS };
	struct fidelity real = { 0 };
	bool ok = fidelity_prepare(&fo, c, &real, error);

	for (unsigned int g = 0; ok && g < n; g++) {
		fo.gov = govs[g];
		fidelity_copy_prepared(&real, &out[g]);
		ok = fidelity_compute(&fo, c, im, trace, &out[g], error);
	}
	fidelity_clear(&real);
	return ok;
}

/* The real side from the capture, the simulated side from the written trace. */
static bool report(struct import_cli *o, const struct capture *c, const struct imported *im,
		   const char *trace, GError **error)
{
	g_autofree const struct kshim_governor **govs = NULL;
	g_autofree struct fidelity *fid = NULL;
	struct sim_result *sims = NULL;
	struct sim_run_options run;
	struct real_usage real;
	struct platform pl;
	char *traces[] = { (char *)trace };
	unsigned int n = 0;
	bool ok;

	ok = sim_cli_prepare(&o->sim, NULL, 0, &pl, &run, NULL, error);
	if (ok)
		imported_costs_to(im, &pl);
	ok = ok && real_usage_compute(c, &pl, &real, NULL, error) &&
	     pick_governors(o->governors, &govs, &n, error) &&
	     sim_run_all(&run, govs, n, traces, 1, &sims, error);
	if (ok) {
		fid = g_new0(struct fidelity, n);
		ok = compare(&run, govs, n, c, im, trace, fid, error);
	}
	if (ok) {
		struct import_report r = { .capture = c, .imported = im, .options = &run,
					   .real = &real, .sims = sims, .fidelity = fid,
					   .nr_sims = n };

		import_report_print(stdout, &r);
		if (o->sim.plot_dir)
			ok = teosim_write_run_plots(o->sim.plot_dir, &run, sims, n, 1, error);
	}
	for (unsigned int g = 0; fid && g < n; g++)
		fidelity_clear(&fid[g]);
	if (sims)
		sim_results_free(sims, n);
	platform_clear(&pl);
	return ok;
}

/*
 * What the named machine's platform tells the import: its tick-stop cost,
 * left out of the work where the kernel stopped the tick (unless the
 * capture tells its own), and the exit costs of the states the capture
 * has too few wakeups from.
 */
static bool given_by_platform(void *priv, const struct capture *c, struct import_given *out,
			      GError **error)
{
	const char *spec = priv;
	struct platform pl = { 0 };
	bool ok;

	(void)c;
	*out = (struct import_given){ 0 };
	if (!spec)
		return true;
	ok = platform_load(spec, &pl, error);
	if (ok)
		import_given_by(&pl, out);
	platform_clear(&pl);
	return ok;
}

static int run_import(struct import_cli *o, const char *path)
{
	g_autofree char *tmp = NULL;
	struct imported im;
	struct capture c;
	GError *error = NULL;
	char *platform = capture_platform_spec(path, o->sim.platform);
	bool ok;

	/* The report simulates on the captured machine, which the trace names too. */
	g_free(o->sim.platform);
	o->sim.platform = platform;
	if (o->report && !o->sim.platform) {
		capture_platform_missing(path, &error);
		return teosim_fail(error);
	}
	ok = capture_import_cut("import", path, o->name, given_by_platform, o->sim.platform, &c, &im,
				&error) &&
	     imported_save(&im, path, o->sim.platform, o->output, &tmp, &error);
	if (ok && o->output && !o->sim.platform)
		fprintf(stderr, "teosim import: note: %s names no platform: the capture's machine is "
			"unknown (give --platform P to name it)\n", o->output);
	ok = ok && (!o->report || report(o, &c, &im, o->output ? o->output : tmp, &error));
	if (tmp)
		leftovers_remove(tmp);
	imported_clear(&im);
	capture_clear(&c);
	return ok ? 0 : teosim_fail(error);
}

int cmd_import(int argc, char **argv)
{
	struct import_cli o = { 0 };
	GOptionEntry entries[4 + SIM_CLI_ENTRIES_MAX + 1];
	int status;

	entries[0] = (GOptionEntry){ "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
		"Write the workload trace to TRACE", "TRACE" };
	entries[1] = (GOptionEntry){ "name", 0, 0, G_OPTION_ARG_STRING, &o.name,
		"The trace's name (default: the capture's file name)", "NAME" };
	entries[2] = (GOptionEntry){ "report", 'r', 0, G_OPTION_ARG_NONE, &o.report,
		"Print the real kernel's per-state usage, above and below next to each simulated "
		"governor's, on the captured machine's platform", NULL };
	entries[3] = (GOptionEntry){ "governors", 'g', 0, G_OPTION_ARG_STRING, &o.governors,
		"With --report: the governors to simulate (default: all built in); the options "
		"below are for them", "A,B,…" };
	sim_cli_entries(&o.sim, entries + 4, false);
	if (!teosim_parse_options(&argc, &argv, "CAPTURE",
				  "Reads a kernel trace capture (the tracefs trace file, 'trace-cmd report'\n"
				  "output or a trace-cmd .dat file) and writes the workload it shows as a\n"
				  "teosim trace.  What the capture lacks is said on stderr and in the trace.\n"
				  "The trace names the captured machine's platform (--platform, else\n"
				  "NAME.platform or NAME.cpuidle/ beside the capture), written beside it.\n"
				  "traces/import-format.md says how to capture and what is approximated.",
				  entries)) {
		status = 2;
	} else if (o.name && !kf_valid_name(o.name, TRACE_NAME_MAX)) {
		fprintf(stderr, "teosim import: --name %s: 1 to %d of [A-Za-z0-9_.-]\n", o.name,
			TRACE_NAME_MAX);
		status = 2;
	} else if (argc != 2 || (!o.output && !o.report)) {
		fprintf(stderr, "teosim import: need one CAPTURE and -o TRACE, --report, or both\n");
		status = 2;
	} else if (!o.report && o.sim.plot_dir) {
		fprintf(stderr, "teosim import: --plot draws the simulated governors: it needs --report\n");
		status = 2;
	} else {
		status = run_import(&o, argv[1]);
	}
	g_free(o.output);
	g_free(o.name);
	g_free(o.governors);
	sim_cli_options_clear(&o.sim);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * teosim fidelity: a governor simulated on an imported capture against
 * what the captured kernel's governor did, as distributions and period by
 * period (import/fidelity.h).  With --max-tvd and --min-same it is a
 * check: exit status 1 when the simulation strays further.
 */
#include <stdio.h>
#include <string.h>

#include "capture-arg.h"
#include "commands.h"
#include "fidelity.h"
#include "governor-arg.h"
#include "import-report.h"
#include "kvline.h"
#include "leftovers.h"
#include "options.h"
#include "out-file.h"
#include "sim-options.h"

struct fidelity_cli {
	char *governor;
	char *calls;
	char *periods;
	gint match_us;
	gint warmup_ms;
	gint warmup_periods;
	gdouble max_tvd;
	gdouble min_same;
	struct sim_cli_options sim;
};

static bool write_periods(const struct fidelity *f, const char *path, GError **error)
{
	struct out_file *o = out_file_open(path, error);

	if (!o)
		return false;
	fidelity_write_periods(o->f, f);
	return out_file_commit(o, error);
}

/* The bounds asked for; false (and why, on stderr) when one is missed. */
static bool within_bounds(const struct fidelity_cli *o, const struct fidelity *f)
{
	double same = f->matched ? 100.0 * (double)f->same_state / (double)f->matched : 0.0;
	bool ok = true;

	if (o->max_tvd >= 0 && (f->tvd_periods > o->max_tvd || f->tvd_time > o->max_tvd)) {
		fprintf(stderr, "teosim fidelity: TVD %.4f (periods), %.4f (time) above --max-tvd "
			"%.4f\n", f->tvd_periods, f->tvd_time, o->max_tvd);
		ok = false;
	}
	if (o->min_same >= 0 && same < o->min_same) {
		fprintf(stderr, "teosim fidelity: %.2f%% of matched periods got the same state, "
			"below --min-same %.2f\n", same, o->min_same);
		ok = false;
	}
	return ok;
}

struct real_side {
	const struct fid_options *options;
	struct fidelity *f;
};

/*
 * The capture's side, read as soon as the capture is: it tells what a tick
 * stop cost; the platform, the exit costs the capture has too few wakeups for.
 */
static bool prepare(void *priv, const struct capture *c, struct import_given *given,
		    GError **error)
{
	struct real_side *r = priv;

	if (!fidelity_prepare(r->options, c, r->f, error))
		return false;
	import_given_by(r->options->run->platform, given);
	given->tick_stop_ns = r->f->tick_stop_ns;
	given->tick_stop_logged = r->f->tick_stop_logged;
	return true;
}

static int run_fidelity(struct fidelity_cli *o, const char *path)
{
	g_autofree char *tmp = NULL;
	g_autoptr(GArray) selects = NULL;
	struct sim_run_options run;
	struct fidelity f = { 0 };
	struct imported im = { 0 };
	struct capture c = { 0 };
	struct platform pl = { 0 };
	GError *error = NULL;
	struct fid_options fo = { .run = &run, .calls = o->calls,
				  .match_ns = (uint64_t)o->match_us * 1000,
				  .warmup_ns = (uint64_t)o->warmup_ms * 1000000,
				  .warmup_periods = (unsigned int)o->warmup_periods };
	struct real_side real = { &fo, &f };
	bool ok, bounds = true;
	char *platform = capture_platform_spec(path, o->sim.platform);

	g_free(o->sim.platform);
	o->sim.platform = platform;
	if (!platform)
		capture_platform_missing(path, &error);
	ok = platform && sim_cli_prepare(&o->sim, NULL, 0, &pl, &run, NULL, &error) &&
	     (fo.gov = teosim_find_governor(o->governor, &error)) &&
	     (!o->calls || fidelity_read_selects(o->calls, &selects, &error));
	fo.selects = selects;
	/* The log tells what a tick stop cost, which the import leaves out of the work. */
	ok = ok && capture_import_cut("fidelity", path, NULL, prepare, &real, &c, &im, &error) &&
	     imported_save(&im, path, NULL, NULL, &tmp, &error);
	if (ok)
		imported_costs_to(&im, &pl);
	/* Unless told otherwise, the limit the kernel ran under, from its log. */
	if (ok && selects && o->sim.latency_limit_us < 0)
		run.latency_limit_us = fidelity_latency_limit(selects, c.first_ns, c.last_ns);
	ok = ok &&
	     fidelity_compute(&fo, &c, &im, tmp, &f, &error) &&
	     (!o->periods || write_periods(&f, o->periods, &error));
	if (ok) {
		fidelity_print(stdout, &fo, path, &f);
		bounds = within_bounds(o, &f);
	}
	if (tmp)
		leftovers_remove(tmp);
	fidelity_clear(&f);
	capture_clear(&c);
	imported_clear(&im);
	platform_clear(&pl);
	if (!ok)
		return teosim_fail(error);
	return bounds ? 0 : 1;
}

int cmd_fidelity(int argc, char **argv)
{
	struct fidelity_cli o = {
		.match_us = 100, .warmup_ms = 100, .warmup_periods = REPORT_FIDELITY_WARMUP_PERIODS,
		.max_tvd = -1, .min_same = -1,
		.sim = { .hz = 250, .latency_limit_us = -1, .threads = 1 },
	};
	GOptionEntry entries[] = {
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &o.governor,
		  "The governor the captured kernel ran", "NAME" },
		{ "platform", 'p', 0, G_OPTION_ARG_STRING, &o.sim.platform,
		  "The captured machine's idle states: a platform file, 'sysfs:DIR' or a bundled name "
		  "(default: NAME.platform or NAME.cpuidle/ beside the capture)",
		  "P" },
		{ "hz", 0, 0, G_OPTION_ARG_INT, &o.sim.hz,
		  "The captured kernel's HZ: 100, 250, 300 or 1000 (default 250)", "HZ" },
		{ "latency-limit-us", 0, 0, G_OPTION_ARG_INT, &o.sim.latency_limit_us,
		  "The PM QoS resume latency limit the capture ran under (default: the call log's, "
		  "else none)", "US" },
		{ "calls", 0, 0, G_OPTION_ARG_FILENAME, &o.calls,
		  "The governor-call log recorded in the same run, with the capture's clock "
		  "(trace_clock global): the kernel's inputs at each period", "LOG" },
		{ "periods", 0, 0, G_OPTION_ARG_FILENAME, &o.periods,
		  "Write every period of both sides, matched ones on one line, as CSV", "FILE" },
		{ "match-us", 0, 0, G_OPTION_ARG_INT, &o.match_us,
		  "Periods match when their entries are at most US apart (default 100)", "US" },
		{ "warmup-ms", 0, 0, G_OPTION_ARG_INT, &o.warmup_ms,
		  "Compare periods from MS into the capture on: the simulated governor first "
		  "builds up a history (default 100)", "MS" },
		{ "warmup-periods", 0, 0, G_OPTION_ARG_INT, &o.warmup_periods,
		  "Nor each CPU's first N periods, however long they take (default 10)", "N" },
		{ "max-tvd", 0, 0, G_OPTION_ARG_DOUBLE, &o.max_tvd,
		  "Exit 1 when the TVD of per-state shares (periods or time) is above X", "X" },
		{ "min-same", 0, 0, G_OPTION_ARG_DOUBLE, &o.min_same,
		  "Exit 1 when fewer than PCT % of matched periods get the same state", "PCT" },
		G_OPTION_ENTRY_NULL
	};
	int status;

	if (!teosim_parse_options(&argc, &argv, "CAPTURE",
				  "Simulates the governor the captured kernel ran on the workload imported\n"
				  "from the capture, and compares: per-state shares of idle periods and of\n"
				  "idle time (with their total variation distance), above, below, tick\n"
				  "stops, and period by period the state chosen.  sim/README.md explains\n"
				  "the figures.",
				  entries)) {
		status = 2;
	} else if (argc != 2) {
		fprintf(stderr, "teosim fidelity: need one CAPTURE\n");
		status = 2;
	} else if (!o.governor) {
		fprintf(stderr, "teosim fidelity: need --governor NAME\n");
		status = 2;
	} else if (o.match_us < 0 || o.match_us > 1000000) {
		fprintf(stderr, "teosim fidelity: --match-us %d: 0 to 1000000\n", o.match_us);
		status = 2;
	} else if (o.warmup_ms < 0) {
		fprintf(stderr, "teosim fidelity: --warmup-ms %d: must be 0 or more\n", o.warmup_ms);
		status = 2;
	} else if (o.warmup_periods < 0) {
		fprintf(stderr, "teosim fidelity: --warmup-periods %d: must be 0 or more\n",
			o.warmup_periods);
		status = 2;
	} else {
		status = run_fidelity(&o, argv[1]);
	}
	g_free(o.governor);
	g_free(o.calls);
	g_free(o.periods);
	sim_cli_options_clear(&o.sim);
	return status;
}

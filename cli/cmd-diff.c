// SPDX-License-Identifier: GPL-2.0
/* teosim diff: where two governors (or two versions of one) decide differently. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "commands.h"
#include "diff.h"
#include "gen.h"
#include "leftovers.h"
#include "options.h"
#include "plot-output.h"
#include "sim-options.h"

#define SCENARIO_SUFFIX	".scenario"

/* The workloads: traces as given, scenarios generated with seed into temporary traces. */
struct workloads {
	unsigned int n;
	char **shown;		/* as given, for the reports */
	char **traces;		/* what the simulator reads */
	GPtrArray *generated;	/* the temporary files, removed by workloads_clear() */
};

static bool workloads_make(struct workloads *w, char **args, unsigned int n, guint32 seed,
			   GError **error)
{
	*w = (struct workloads){ .n = n, .shown = args, .traces = g_new0(char *, n),
				 .generated = g_ptr_array_new_with_free_func(g_free) };
	for (unsigned int i = 0; i < n; i++) {
		char *tmp = NULL;
		int fd;
		FILE *f;
		bool ok;

		if (!g_str_has_suffix(args[i], SCENARIO_SUFFIX)) {
			w->traces[i] = args[i];
			continue;
		}
		fd = g_file_open_tmp("teosim-diff-XXXXXX.trace", &tmp, error);
		if (fd < 0)
			return false;
		leftovers_add(tmp);
		g_ptr_array_add(w->generated, tmp);
		w->traces[i] = tmp;
		f = fdopen(fd, "w");
		if (!f) {
			close(fd);
			g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "%s: %s",
				    tmp, g_strerror(errno));
			return false;
		}
		ok = gen_write(args[i], seed, f, error);
		if (fclose(f) && ok) {
			g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "%s: %s",
				    tmp, g_strerror(errno));
			ok = false;
		}
		if (!ok)
			return false;
	}
	return true;
}

static void workloads_clear(struct workloads *w)
{
	for (guint i = 0; i < w->generated->len; i++)
		leftovers_remove(g_ptr_array_index(w->generated, i));
	g_ptr_array_unref(w->generated);
	g_free(w->traces);
}

/*
 * Each workload's diff, then with several a summary with the scores of A
 * and B each run alone; returns the exit status.
 */
static int diff_workloads(const struct sim_run_options *run, const struct kshim_governor **govs,
			  const struct workloads *w, const char *plot_dir)
{
	g_autofree struct diff_result *d = g_new0(struct diff_result, w->n);
	struct sim_result *runs = NULL;
	GError *error = NULL;
	bool differ = false, ok = true;
	unsigned int done;

	for (done = 0; ok && done < w->n; done++) {
		ok = sim_diff(run, govs[0], govs[1], w->traces[done], &d[done], &error);
		if (ok) {
			diff_report(stdout, run, govs[0], govs[1], w->shown[done], &d[done]);
			differ |= d[done].differ > 0;
		}
	}
	if (ok && plot_dir)
		ok = teosim_write_diff_plots(plot_dir, &d[0], &error);
	if (ok && w->n > 1) {
		ok = sim_run_all(run, govs, 2, w->traces, w->n, &runs, &error);
		if (ok) {
			printf("\n%s -> %s, each run alone:\n", govs[0]->meta->name, govs[1]->meta->name);
			diff_summary(stdout, run, w->shown, w->n, d, runs);
			sim_results_free(runs, 2 * w->n);
		}
	}
	for (unsigned int i = 0; i < w->n; i++)
		diff_result_clear(&d[i]);
	if (!ok) {
		teosim_fail(error);
		return 2;
	}
	return differ ? 1 : 0;
}

int cmd_diff(int argc, char **argv)
{
	struct sim_cli_options so;
	g_autofree char *governors = NULL;
	g_autofree const struct kshim_governor **govs = NULL;
	GOptionEntry entries[SIM_CLI_ENTRIES_MAX + 2];
	struct sim_run_options run;
	struct workloads w = { 0 };
	struct platform pl = { 0 };
	unsigned int nr_govs = 0;
	GError *error = NULL;
	gint64 seed = 1;
	int status;

	sim_cli_entries(&so, entries + 2, false);
	entries[0] = (GOptionEntry){ "governors", 'g', 0, G_OPTION_ARG_STRING, &governors,
		"The two governors, A,B: A drives the CPU, B is asked on the same inputs", "A,B" };
	entries[1] = (GOptionEntry){ "seed", 's', 0, G_OPTION_ARG_INT64, &seed,
		"The seed of the traces made from SCENARIO files (default 1)", "N" };
	if (!teosim_parse_options(&argc, &argv, "TRACE|SCENARIO...",
				  "Compares two governors' decisions period by period over each trace (or\n"
				  "scenario, turned into a trace as 'teosim gen' does) and shows how often\n"
				  "they differ and the first cases with their inputs; with several, a\n"
				  "summary of the decisions changed and the scores moved, per trace.\n"
				  "Exit status: 0 when all decisions are identical, 1 when some differ,\n"
				  "2 on bad input.",
				  entries))
		return 2;
	if (!governors || argc < 2) {
		fprintf(stderr, "teosim diff: need --governors A,B and one TRACE or SCENARIO at least\n");
		status = 2;
	} else if (seed < 0 || seed > G_MAXUINT32) {
		fprintf(stderr, "teosim diff: --seed %" G_GINT64_FORMAT ": 0 to %u\n", seed, G_MAXUINT32);
		status = 2;
	} else if (so.plot_dir && argc > 2) {
		fprintf(stderr, "teosim diff: --plot draws one trace's decisions: give one TRACE\n");
		status = 2;
	} else if (/* one governor twice shows that its runs repeat exactly */
		   !sim_cli_governors(governors, 2, false, &govs, &nr_govs, &error) ||
		   !workloads_make(&w, argv + 1, (unsigned int)argc - 1, (guint32)seed, &error) ||
		   !sim_cli_prepare(&so, w.traces, w.n, &pl, &run, NULL, &error)) {
		teosim_fail(error);
		status = 2;
	} else if (nr_govs != 2) {
		fprintf(stderr, "teosim diff: --governors takes exactly two names\n");
		status = 2;
	} else {
		status = diff_workloads(&run, govs, &w, so.plot_dir);
	}
	if (w.generated)
		workloads_clear(&w);
	platform_clear(&pl);
	sim_cli_options_clear(&so);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * teosim sweep: every governor x platform x workload x seed x HZ x latency
 * limit of a sweep file, simulated into one directory of results and a
 * report; or one shard of it, or the merge of its shards (sweep/driver.h).
 */
#include <stdio.h>
#include <unistd.h>

#include "commands.h"
#include "driver.h"
#include "governor-arg.h"
#include "kvline.h"
#include "options.h"

struct sweep_cli {
	char *output;
	char *shard;
	gboolean merge;
	gint threads;
};

/* "K/N" with 0 <= K < N; N 1 is the whole sweep. */
static bool parse_shard(const char *text, struct sweep_shard *out, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(text, "/", 3);
	guint64 k, n;

	if (g_strv_length(parts) != 2 ||
	    !g_ascii_string_to_unsigned(parts[1], 10, 1, 100000, &n, NULL) ||
	    !g_ascii_string_to_unsigned(parts[0], 10, 0, n - 1, &k, NULL)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "--shard %s: want K/N, shard K (0 .. N-1) of N (1 .. 100000)", text);
		return false;
	}
	*out = (struct sweep_shard){ .index = (unsigned int)k, .count = (unsigned int)n };
	return true;
}

/*
 * TEOSIM_SWEEP_SUMMARY_UNITS: how many (setting, family) units the
 * summary holds at a time, instead of what its memory budget holds; the
 * tests set it to check that windows change no byte.
 */
static bool summary_units_from_env(unsigned int *out, GError **error)
{
	const char *text = g_getenv("TEOSIM_SWEEP_SUMMARY_UNITS");
	guint64 n;

	*out = 0;
	if (!text)
		return true;
	if (!g_ascii_string_to_unsigned(text, 10, 1, UINT32_MAX, &n, NULL)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "TEOSIM_SWEEP_SUMMARY_UNITS '%s': want a count of units, 1 or more", text);
		return false;
	}
	*out = (unsigned int)n;
	return true;
}

static int run(struct sweep_cli *o, const char *file, char **shards, unsigned int nr_shards)
{
	struct sweep_run_options ro = { .shard = { 0, 1 }, .progress = isatty(STDERR_FILENO) };
	gint64 started = g_get_monotonic_time();
	GError *error = NULL;
	struct sweep s;
	bool ok;

	if (o->threads < 0) {
		g_set_error(&error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "--threads %d: must be 0 or more", o->threads);
		return teosim_fail(error);
	}
	ro.threads = o->threads ? (unsigned int)o->threads : g_get_num_processors();
	if ((o->shard && !parse_shard(o->shard, &ro.shard, &error)) ||
	    !summary_units_from_env(&ro.summary_units, &error))
		return teosim_fail(error);
	if (!sweep_setup(file, teosim_find_governor, &s, &error)) {
		sweep_clear(&s);
		return teosim_fail(error);
	}
	if (o->merge)
		ok = sweep_merge(&s, &ro, shards, nr_shards, o->output, &error);
	else
		ok = sweep_run(&s, &ro, o->output, &error);
	if (ok) {
		double seconds = (double)(g_get_monotonic_time() - started) / G_USEC_PER_SEC;
		unsigned int cells = sweep_nr_cells(&s);

		if (!o->merge)
			cells = (cells / (s.nr_settings * s.nr_govs) + ro.shard.count - 1 -
				 ro.shard.index) / ro.shard.count * s.nr_settings * s.nr_govs;
		fprintf(stderr, "teosim sweep: %u cells %s in %.1f s (%.0f cells/s): %s\n", cells,
			o->merge ? "merged" : "simulated", seconds, cells / MAX(seconds, 1e-6),
			o->output);
	}
	sweep_clear(&s);
	return ok ? 0 : teosim_fail(error);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_cli o = { .threads = 0 };
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
		  "The directory to write (new, or empty)", "DIR" },
		{ "threads", 'j', 0, G_OPTION_ARG_INT, &o.threads,
		  "Threads (default 0: one per processor); the output does not depend on it", "N" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &o.shard,
		  "Run only shard K of N (0-based), for --merge later", "K/N" },
		{ "merge", 0, 0, G_OPTION_ARG_NONE, &o.merge,
		  "Merge the shard directories given after the sweep file", NULL },
		G_OPTION_ENTRY_NULL,
	};
	int status;

	if (!teosim_parse_options(&argc, &argv, "SWEEPFILE [SHARDDIR...]",
				  "Simulates every cell of a sweep file (traces/sweeps/README.md):\n"
				  "governors x platforms x workloads x seeds x HZ x latency limits.\n"
				  "Writes DIR/results.csv, results.json, report.md, report.html,\n"
				  "figures/ and cells/. The same sweep file gives the same bytes\n"
				  "whatever -j, and whether run whole or as --shard K/N merged.",
				  entries))
		return 2;
	if (argc < 2 || !o.output || (o.merge && o.shard) || (!o.merge && argc > 2)) {
		fprintf(stderr, "teosim sweep: need SWEEPFILE and -o DIR; --merge takes the shard "
				"directories after SWEEPFILE, and no --shard\n");
		status = 2;
	} else {
		status = run(&o, argv[1], argv + 2, (unsigned int)argc - 2);
	}
	g_free(o.output);
	g_free(o.shard);
	return status;
}

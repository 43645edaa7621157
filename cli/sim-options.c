// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <unistd.h>

#include <kshim/machine.h>

#include "governor-arg.h"
#include "kvline.h"
#include "sim-options.h"
#include "trace.h"

unsigned int sim_cli_entries(struct sim_cli_options *o, GOptionEntry *e, bool with_format)
{
	unsigned int n = 0;

	*o = (struct sim_cli_options){ .hz = 250, .latency_limit_us = -1, .threads = 1 };
	e[n++] = (GOptionEntry){ "platform", 'p', 0, G_OPTION_ARG_STRING, &o->platform,
		"Idle states and power: a bundled name (traces/platforms), a file, 'sysfs' or 'sysfs:DIR'",
		"P" };
	e[n++] = (GOptionEntry){ "hz", 0, 0, G_OPTION_ARG_INT, &o->hz,
		"The kernel's HZ: 100, 250, 300 or 1000 (default 250)", "HZ" };
	e[n++] = (GOptionEntry){ "latency-limit-us", 0, 0, G_OPTION_ARG_INT, &o->latency_limit_us,
		"PM QoS resume latency limit (default: none)", "US" };
	e[n++] = (GOptionEntry){ "threads", 'j', 0, G_OPTION_ARG_INT, &o->threads,
		"Threads (0: one per processor); the output does not depend on it", "N" };
	if (with_format)
		e[n++] = (GOptionEntry){ "format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
			"Output: table (default), csv or json", "F" };
	e[n++] = (GOptionEntry){ "plot", 0, 0, G_OPTION_ARG_FILENAME, &o->plot_dir,
		"Also write figures (data, gnuplot scripts, PNG and SVG) into DIR", "DIR" };
	e[n++] = (GOptionEntry)G_OPTION_ENTRY_NULL;
	return n;
}

/* The platform spec that trace's header names, or NULL (with *error set if unreadable). */
static char *platform_of_trace(const char *trace, GError **error)
{
	struct trace_reader *r = trace_open(trace, error);
	char *spec;

	if (!r)
		return NULL;
	spec = trace_platform_spec(trace, trace_header(r));
	trace_close(r);
	return spec;
}

/* The one platform the traces name; an error when they name none or differ. */
static char *platform_of_traces(char *const *traces, unsigned int n, GError **error)
{
	g_autofree char *spec = NULL;

	for (unsigned int i = 0; i < n; i++) {
		GError *read_error = NULL;
		g_autofree char *own = platform_of_trace(traces[i], &read_error);

		if (read_error) {
			g_propagate_error(error, read_error);
			return NULL;
		}
		if (!own) {
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
				    "need --platform P: trace %s names no platform (P is a bundled "
				    "name, see 'ls %s', a platform file from 'teosim capture-platform', "
				    "or 'sysfs' for this machine)", traces[i], platform_dir());
			return NULL;
		}
		if (spec && strcmp(spec, own)) {
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
				    "need --platform P: trace %s names platform %s, trace %s names %s",
				    traces[0], spec, traces[i], own);
			return NULL;
		}
		if (!spec)
			spec = g_steal_pointer(&own);
	}
	if (!spec)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "need --platform P");
	return g_steal_pointer(&spec);
}

bool sim_cli_prepare(const struct sim_cli_options *o, char *const *traces, unsigned int nr_traces,
		     struct platform *pl, struct sim_run_options *run,
		     enum report_format *format, GError **error)
{
	g_autofree char *named = NULL;

	memset(pl, 0, sizeof(*pl));
	if (format && !report_format_parse(o->format, format, error))
		return false;
	if (!o->platform && !(named = platform_of_traces(traces, nr_traces, error)))
		return false;
	if (o->hz < 0 || !kshim_hz_valid((unsigned int)o->hz)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "--hz %d: the kernel offers 100, 250, 300 or 1000", o->hz);
		return false;
	}
	if (o->latency_limit_us < -1) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "--latency-limit-us %d: must be 0 or more", o->latency_limit_us);
		return false;
	}
	if (o->threads < 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "--threads %d: must be 0 or more", o->threads);
		return false;
	}
	if (!platform_load(o->platform ? o->platform : named, pl, error)) {
		if (named)
			g_prefix_error(error, "the platform that %s names: ", traces[0]);
		return false;
	}
	*run = (struct sim_run_options){
		.platform = pl,
		.hz = (unsigned int)o->hz,
		.latency_limit_us = o->latency_limit_us < 0 ? INT32_MAX : o->latency_limit_us,
		.threads = o->threads ? (unsigned int)o->threads : g_get_num_processors(),
		.progress = isatty(STDERR_FILENO),
		.plots = o->plot_dir != NULL,
	};
	return true;
}

void sim_cli_options_clear(struct sim_cli_options *o)
{
	g_free(o->platform);
	g_free(o->format);
	g_free(o->plot_dir);
}

bool sim_cli_governors(const char *list, unsigned int max, bool distinct,
		       const struct kshim_governor ***out, unsigned int *n, GError **error)
{
	g_auto(GStrv) names = g_strsplit(list ? list : "", ",", -1);
	unsigned int count = g_strv_length(names);

	*out = NULL;
	*n = 0;
	if (!list || !count || count > max) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "need 1 to %u governors separated by commas", max);
		return false;
	}
	*out = g_new0(const struct kshim_governor *, count);
	for (unsigned int i = 0; i < count; i++) {
		(*out)[i] = teosim_find_governor(g_strstrip(names[i]), error);
		if (!(*out)[i]) {
			g_clear_pointer(out, g_free);
			return false;
		}
		for (unsigned int j = 0; distinct && j < i; j++) {
			if (strcmp((*out)[j]->meta->name, (*out)[i]->meta->name) == 0) {
				g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
					    "governor %s named twice", (*out)[i]->meta->name);
				g_clear_pointer(out, g_free);
				return false;
			}
		}
	}
	*n = count;
	return true;
}

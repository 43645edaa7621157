// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "gen-scenario.h"
#include "keyfile-lines.h"
#include "trace-limits.h"

#define NS_PER_US	1000.0
#define NS_PER_MS	1000000.0
#define PHASE_MS_MAX	1e7		/* under three hours per phase */
#define TIME_US_MAX	1e9		/* any duration parameter: at most 1000 s */

/* Numeric parameters of the sources, with the range each accepts. */
enum param { P_RATE, P_JITTER, P_WORK, P_BURST, P_GAP, P_ROUNDS, P_LATENCY, P_TIMEOUT,
	     P_CANCEL_PROB, P_CANCEL_AFTER, P_COUNT };

static const struct {
	const char *key;
	double min, max;
} params[P_COUNT] = {
	[P_RATE] = { "rate_hz", 0.001, 1e6 },
	[P_JITTER] = { "jitter_us", 0, TIME_US_MAX },
	[P_WORK] = { "work_us", 0, TIME_US_MAX },
	[P_BURST] = { "burst_size", 1, 1e6 },
	[P_GAP] = { "gap_us", 0, TIME_US_MAX },
	[P_ROUNDS] = { "rounds", 1, 1e6 },
	[P_LATENCY] = { "latency_us", 0, TIME_US_MAX },
	[P_TIMEOUT] = { "timeout_us", 1, TIME_US_MAX },
	[P_CANCEL_PROB] = { "cancel_prob", 0, 1 },
	[P_CANCEL_AFTER] = { "cancel_after_us", 0, TIME_US_MAX },
};

#define BIT(p)	(1u << (p))

static const struct {
	const char *name;
	unsigned int required, optional;	/* masks of enum param */
} kinds[] = {
	[GEN_PERIODIC] = { "periodic", BIT(P_RATE), BIT(P_JITTER) | BIT(P_WORK) },
	[GEN_POISSON] = { "poisson", BIT(P_RATE), BIT(P_WORK) },
	[GEN_BURSTY] = { "bursty", BIT(P_RATE) | BIT(P_BURST) | BIT(P_GAP), BIT(P_WORK) },
	[GEN_PINGPONG] = { "pingpong", BIT(P_RATE) | BIT(P_ROUNDS), BIT(P_LATENCY) | BIT(P_WORK) },
	[GEN_IO] = { "io", BIT(P_LATENCY), BIT(P_WORK) },
	[GEN_BUSY] = { "busy", BIT(P_RATE) | BIT(P_WORK), 0 },
	[GEN_TIMEOUT] = { "timeout",
			  BIT(P_RATE) | BIT(P_TIMEOUT) | BIT(P_CANCEL_PROB) | BIT(P_CANCEL_AFTER),
			  BIT(P_WORK) },
};

static uint64_t to_ns(double v, double scale)
{
	return (uint64_t)(v * scale + 0.5);
}

void gen_scenario_clear(struct gen_scenario *s)
{
	for (unsigned int i = 0; i < s->nr_sources; i++) {
		g_free(s->sources[i].cpus);
		g_free(s->sources[i].windows);
	}
	g_free(s->sources);
	g_free(s->name);
	memset(s, 0, sizeof(*s));
}

static bool read_header(const struct kf_file *f, struct gen_scenario *s, GError **error)
{
	static const char *const keys[] = { "name", "description", "cpus", NULL };
	uint64_t n;

	if (!g_key_file_has_group(f->kf, "scenario")) {
		kf_error(f, error, NULL, NULL, "no [scenario] group");
		return false;
	}
	if (!kf_check_keys(f, "scenario", keys, error) ||
	    !kf_get_string(f, "scenario", "name", true, &s->name, error))
		return false;
	if (!kf_valid_name(s->name, TRACE_NAME_MAX)) {
		kf_error(f, error, "scenario", "name", "'%s' is not 1 to %d of [A-Za-z0-9_.-]",
			 s->name, TRACE_NAME_MAX);
		return false;
	}
	if (!kf_get_u64(f, "scenario", "cpus", true, 1, KSHIM_MAX_CPUS, &n, error))
		return false;
	s->nr_cpus = (unsigned int)n;
	return true;
}

static bool read_phase(const struct kf_file *f, const char *group, const char *name,
		       struct gen_scenario *s, GError **error)
{
	static const char *const keys[] = { "duration_ms", NULL };
	struct gen_phase *p = &s->phases[s->nr_phases];
	double ms;

	if (s->nr_phases == GEN_PHASES_MAX) {
		kf_error(f, error, group, NULL, "more than %d phases", GEN_PHASES_MAX);
		return false;
	}
	if (!kf_valid_name(name, GEN_NAME_MAX)) {
		kf_error(f, error, group, NULL, "phase name '%s' is not 1 to %d of [A-Za-z0-9_.-]",
			 name, GEN_NAME_MAX);
		return false;
	}
	for (unsigned int i = 0; i < s->nr_phases; i++) {
		if (!strcmp(s->phases[i].name, name)) {
			kf_error(f, error, group, NULL, "a second phase named '%s'", name);
			return false;
		}
	}
	if (!kf_check_keys(f, group, keys, error) ||
	    !kf_get_double(f, group, "duration_ms", true, 0.001, PHASE_MS_MAX, &ms, error))
		return false;
	strcpy(p->name, name);
	p->start_ns = s->end_ns;
	p->end_ns = p->start_ns + to_ns(ms, NS_PER_MS);
	s->end_ns = p->end_ns;
	s->nr_phases++;
	return true;
}

/* "a,b": phases by name, as a mask; absent means all. */
static bool read_phase_list(const struct kf_file *f, const char *group,
			    const struct gen_scenario *s, uint64_t *mask, GError **error)
{
	g_autofree char *v = NULL;
	g_auto(GStrv) items = NULL;

	*mask = s->nr_phases == 64 ? UINT64_MAX : (UINT64_C(1) << s->nr_phases) - 1;
	if (!kf_get_string(f, group, "phases", false, &v, error))
		return false;
	if (!v)
		return true;
	*mask = 0;
	items = g_strsplit(v, ",", -1);
	for (char **it = items; *it; it++) {
		const char *name = g_strstrip(*it);
		unsigned int i;

		for (i = 0; i < s->nr_phases && strcmp(s->phases[i].name, name); i++)
			;
		if (i == s->nr_phases) {
			kf_error(f, error, group, "phases", "no phase named '%s'", name);
			return false;
		}
		*mask |= UINT64_C(1) << i;
	}
	return true;
}

/* "0,2": CPUs by number; absent means all. */
static bool read_cpu_list(const struct kf_file *f, const char *group, unsigned int nr_cpus,
			  struct gen_source *src, GError **error)
{
	g_autofree char *v = NULL;
	g_auto(GStrv) items = NULL;
	g_autofree bool *seen = g_new0(bool, nr_cpus);

	if (!kf_get_string(f, group, "cpus", false, &v, error))
		return false;
	if (!v) {
		src->cpus = g_new(unsigned int, nr_cpus);
		for (unsigned int i = 0; i < nr_cpus; i++)
			src->cpus[i] = i;
		src->nr_cpus = nr_cpus;
		return true;
	}
	items = g_strsplit(v, ",", -1);
	src->cpus = g_new(unsigned int, g_strv_length(items));
	for (char **it = items; *it; it++) {
		const char *item = g_strstrip(*it);
		guint64 cpu;

		if (!g_ascii_string_to_unsigned(item, 10, 0, nr_cpus - 1, &cpu, NULL)) {
			kf_error(f, error, group, "cpus", "'%s' is not a CPU from 0 to %u", item,
				 nr_cpus - 1);
			return false;
		}
		if (seen[cpu]) {
			kf_error(f, error, group, "cpus", "cpu %s is listed twice", item);
			return false;
		}
		seen[cpu] = true;
		src->cpus[src->nr_cpus++] = (unsigned int)cpu;
	}
	return true;
}

static void make_windows(const struct gen_scenario *s, uint64_t mask, struct gen_source *src)
{
	src->windows = g_new(struct gen_window, s->nr_phases);
	for (unsigned int i = 0; i < s->nr_phases; i++) {
		struct gen_window *last = src->nr_windows ? &src->windows[src->nr_windows - 1] : NULL;

		if (!(mask & (UINT64_C(1) << i)))
			continue;
		if (last && last->end_ns == s->phases[i].start_ns)
			last->end_ns = s->phases[i].end_ns;
		else
			src->windows[src->nr_windows++] = (struct gen_window){
				s->phases[i].start_ns, s->phases[i].end_ns };
	}
}

static bool read_kind(const struct kf_file *f, const char *group, enum gen_kind *kind,
		      GError **error)
{
	g_autofree char *v = NULL;

	if (!kf_get_string(f, group, "kind", true, &v, error))
		return false;
	for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
		if (!strcmp(v, kinds[k].name)) {
			*kind = (enum gen_kind)k;
			return true;
		}
	}
	kf_error(f, error, group, "kind", "'%s' is not periodic, poisson, bursty, pingpong, io, "
		 "busy or timeout", v);
	return false;
}

/* The kind's parameters, checked for range and for what the kind needs. */
static bool read_params(const struct kf_file *f, const char *group, enum gen_kind kind,
			double *val, GError **error)
{
	unsigned int allowed = kinds[kind].required | kinds[kind].optional;
	const char *keys[P_COUNT + 4] = { "kind", "phases", "cpus" };
	unsigned int n = 3;

	for (int p = 0; p < P_COUNT; p++)
		if (allowed & BIT(p))
			keys[n++] = params[p].key;
	keys[n] = NULL;
	if (!kf_check_keys(f, group, keys, error))
		return false;
	for (int p = 0; p < P_COUNT; p++) {
		val[p] = 0;
		if ((allowed & BIT(p)) &&
		    !kf_get_double(f, group, params[p].key, kinds[kind].required & BIT(p),
				   params[p].min, params[p].max, &val[p], error))
			return false;
	}
	if (val[P_ROUNDS] != floor(val[P_ROUNDS])) {
		kf_error(f, error, group, "rounds", "must be a whole number");
		return false;
	}
	if (kind == GEN_BUSY && val[P_WORK] <= 0) {
		kf_error(f, error, group, "work_us", "a busy period lasts more than 0 us");
		return false;
	}
	if (kind == GEN_IO && val[P_LATENCY] <= 0) {
		kf_error(f, error, group, "latency_us", "the device takes more than 0 us");
		return false;
	}
	return true;
}

static bool read_source(const struct kf_file *f, const char *group, const char *name,
			struct gen_scenario *s, GError **error)
{
	struct gen_source *src;
	double val[P_COUNT];
	uint64_t mask;
	enum gen_kind kind;

	if (!kf_valid_name(name, GEN_NAME_MAX)) {
		kf_error(f, error, group, NULL, "source name '%s' is not 1 to %d of [A-Za-z0-9_.-]",
			 name, GEN_NAME_MAX);
		return false;
	}
	if (!read_kind(f, group, &kind, error) || !read_params(f, group, kind, val, error) ||
	    !read_phase_list(f, group, s, &mask, error))
		return false;
	src = &s->sources[s->nr_sources++];
	strcpy(src->name, name);
	src->kind = kind;
	if (!read_cpu_list(f, group, s->nr_cpus, src, error))
		return false;
	if (kind == GEN_PINGPONG && src->nr_cpus != 2) {
		kf_error(f, error, group, "cpus", "a ping-pong runs between exactly 2 CPUs");
		return false;
	}
	make_windows(s, mask, src);
	src->rate_hz = val[P_RATE];
	src->period_ns = kind == GEN_PERIODIC ? to_ns(1.0 / val[P_RATE], 1e9) : 0;
	src->jitter_ns = to_ns(val[P_JITTER], NS_PER_US);
	if (2 * src->jitter_ns >= src->period_ns && kind == GEN_PERIODIC && src->jitter_ns) {
		kf_error(f, error, group, "jitter_us", "must be below half the period (%g us)",
			 (double)src->period_ns / NS_PER_US);
		return false;
	}
	src->work_ns = to_ns(val[P_WORK], NS_PER_US);
	src->burst_size = val[P_BURST];
	src->gap_ns = val[P_GAP] * NS_PER_US;
	src->rounds = (uint64_t)val[P_ROUNDS];
	src->latency_ns = val[P_LATENCY] * NS_PER_US;
	src->timeout_ns = to_ns(val[P_TIMEOUT], NS_PER_US);
	src->cancel_prob = val[P_CANCEL_PROB];
	src->cancel_after_ns = val[P_CANCEL_AFTER] * NS_PER_US;
	return true;
}

static bool read_groups(const struct kf_file *f, struct gen_scenario *s, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(f->kf, NULL);
	unsigned int nr_sources = 0;

	/* Phases first: sources name them, wherever they stand in the file. */
	for (char **g = groups; *g; g++) {
		if (g_str_has_prefix(*g, "phase ")) {
			if (!read_phase(f, *g, *g + strlen("phase "), s, error))
				return false;
		} else if (g_str_has_prefix(*g, "source ")) {
			nr_sources++;
		} else if (strcmp(*g, "scenario")) {
			kf_error(f, error, *g, NULL, "unknown group ([scenario], [phase NAME], "
				 "[source NAME])");
			return false;
		}
	}
	if (!s->nr_phases) {
		kf_error(f, error, "scenario", NULL, "no [phase NAME] group: a scenario has at least one");
		return false;
	}
	s->sources = g_new0(struct gen_source, nr_sources);
	for (char **g = groups; *g; g++) {
		const char *name = *g + strlen("source ");

		if (!g_str_has_prefix(*g, "source "))
			continue;
		for (unsigned int i = 0; i < s->nr_sources; i++) {
			if (!strcmp(s->sources[i].name, name)) {
				kf_error(f, error, *g, NULL, "a second source named '%s'", name);
				return false;
			}
		}
		if (!read_source(f, *g, name, s, error))
			return false;
	}
	return true;
}

bool gen_scenario_load(const char *path, struct gen_scenario *out, GError **error)
{
	struct kf_file f;
	bool ok;

	memset(out, 0, sizeof(*out));
	ok = kf_load(&f, path, error) && read_header(&f, out, error) &&
	     read_groups(&f, out, error);
	kf_clear(&f);
	if (!ok)
		gen_scenario_clear(out);
	return ok;
}

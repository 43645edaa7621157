// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "kvline.h"
#include "setup.h"

void sweep_clear(struct sweep *s)
{
	for (unsigned int i = 0; i < s->nr_platforms; i++)
		platform_clear(&s->platforms[i]);
	for (unsigned int i = 0; i < s->nr_settings; i++)
		g_free(s->settings[i].name);
	for (unsigned int i = 0; i < s->nr_workloads; i++) {
		g_free(s->workloads[i].name);
		g_free(s->workloads[i].family);
	}
	g_free(s->platforms);
	g_free(s->settings);
	g_free(s->workloads);
	g_free(s->families);
	g_free(s->govs);
	sweep_spec_clear(&s->spec);
	memset(s, 0, sizeof(*s));
}

static bool find_governors(struct sweep *s, sweep_find_governor_fn find, GError **error)
{
	GPtrArray *names = s->spec.governors;

	if (names->len == 1 && !strcmp(names->pdata[0], "all")) {
		s->nr_govs = (unsigned int)kshim_governor_count();
		s->govs = g_new(const struct kshim_governor *, s->nr_govs);
		for (unsigned int g = 0; g < s->nr_govs; g++)
			s->govs[g] = kshim_governor_at(g);
		return true;
	}
	s->govs = g_new0(const struct kshim_governor *, names->len);
	for (unsigned int g = 0; g < names->len; g++) {
		GError *err = NULL;

		s->govs[g] = find(names->pdata[g], &err);
		if (!s->govs[g]) {
			kf_error(&s->spec.file, error, "sweep", "governors", "%s", err->message);
			g_error_free(err);
			return false;
		}
		for (unsigned int k = 0; k < g; k++)
			if (s->govs[k] == s->govs[g]) {
				kf_error(&s->spec.file, error, "sweep", "governors",
					 "'%s' is governor %s again", (char *)names->pdata[g],
					 s->govs[k]->meta->name);
				return false;
			}
		s->nr_govs++;
	}
	return true;
}

static bool load_platforms(struct sweep *s, GError **error)
{
	GPtrArray *specs = s->spec.platforms;

	s->platforms = g_new0(struct platform, specs->len);
	for (unsigned int p = 0; p < specs->len; p++) {
		GError *err = NULL;

		if (!platform_load(specs->pdata[p], &s->platforms[p], &err)) {
			kf_error(&s->spec.file, error, "sweep", "platforms", "%s", err->message);
			g_error_free(err);
			return false;
		}
		s->nr_platforms++;
		for (unsigned int k = 0; k < p; k++)
			if (!strcmp(s->platforms[k].name, s->platforms[p].name)) {
				kf_error(&s->spec.file, error, "sweep", "platforms",
					 "'%s' and '%s' are both named %s: the report needs "
					 "them apart", (char *)specs->pdata[k],
					 (char *)specs->pdata[p], s->platforms[p].name);
				return false;
			}
	}
	return true;
}

static void make_settings(struct sweep *s)
{
	GArray *hz = s->spec.hz, *limits = s->spec.latency_limits_us;
	unsigned int n = 0;

	s->nr_settings = s->nr_platforms * hz->len * limits->len;
	s->settings = g_new0(struct sweep_setting, s->nr_settings);
	for (unsigned int p = 0; p < s->nr_platforms; p++)
		for (unsigned int h = 0; h < hz->len; h++)
			for (unsigned int l = 0; l < limits->len; l++) {
				struct sweep_setting *set = &s->settings[n++];
				int32_t limit = g_array_index(limits, int32_t, l);

				set->platform = p;
				set->options = (struct sim_run_options){
					.platform = &s->platforms[p],
					.hz = g_array_index(hz, unsigned int, h),
					.latency_limit_us = limit, .threads = 1,
					.phases = true,
				};
				set->name = limit == INT32_MAX ?
					g_strdup_printf("%s-hz%u", s->platforms[p].name,
							set->options.hz) :
					g_strdup_printf("%s-hz%u-lat%d", s->platforms[p].name,
							set->options.hz, (int)limit);
			}
}

static char *file_stem(const char *path, const char *suffix)
{
	g_autofree char *base = g_path_get_basename(path);

	if (g_str_has_suffix(base, suffix) && strlen(base) > strlen(suffix))
		base[strlen(base) - strlen(suffix)] = '\0';
	return g_steal_pointer(&base);
}

static bool add_family(struct sweep *s, char *family, const char *key, GError **error)
{
	for (unsigned int f = 0; f < s->nr_families; f++)
		if (!strcmp(s->families[f], family)) {
			kf_error(&s->spec.file, error, "sweep", key,
				 "two workloads are named %s: the report needs them apart", family);
			return false;
		}
	s->families[s->nr_families++] = family;
	return true;
}

static bool make_workloads(struct sweep *s, GError **error)
{
	GPtrArray *scenarios = s->spec.scenarios, *traces = s->spec.traces;
	GArray *seeds = s->spec.seeds;
	unsigned int n = 0;

	s->nr_workloads = scenarios->len * seeds->len + traces->len;
	s->workloads = g_new0(struct sweep_workload, s->nr_workloads);
	s->families = g_new0(char *, scenarios->len + traces->len);
	for (unsigned int i = 0; i < scenarios->len; i++) {
		char *family = file_stem(scenarios->pdata[i], ".scenario");

		for (unsigned int k = 0; k < seeds->len; k++) {
			struct sweep_workload *w = &s->workloads[n++];

			w->scenario = scenarios->pdata[i];
			w->seed = g_array_index(seeds, uint32_t, k);
			w->family = g_strdup(family);
			w->name = g_strdup_printf("%s-seed%u", family, w->seed);
		}
		if (!add_family(s, s->workloads[n - 1].family, "scenarios", error)) {
			g_free(family);
			return false;
		}
		g_free(family);
	}
	for (unsigned int i = 0; i < traces->len; i++) {
		struct sweep_workload *w = &s->workloads[n++];

		w->trace = traces->pdata[i];
		w->name = file_stem(w->trace, ".trace");
		w->family = g_strdup(w->name);
		for (unsigned int k = 0; k + 1 < n; k++)
			if (!strcmp(s->workloads[k].name, w->name)) {
				kf_error(&s->spec.file, error, "sweep", "traces",
					 "trace %s has the name of a generated workload", w->name);
				return false;
			}
		if (!add_family(s, w->family, "traces", error))
			return false;
	}
	return true;
}

static char *family_prefix(const char *name)
{
	const char *dash = strrchr(name, '-');

	return dash ? g_strndup(name, (size_t)(dash - name)) : g_strdup(name);
}

unsigned int sweep_generation_pairs(const struct sweep *s, unsigned int **a, unsigned int **b)
{
	unsigned int n = 0;

	*a = g_new(unsigned int, MAX(s->nr_govs, 1));
	*b = g_new(unsigned int, MAX(s->nr_govs, 1));
	for (unsigned int i = 0; i < s->nr_govs; i++) {
		g_autofree char *kind = family_prefix(s->govs[i]->meta->name);

		for (unsigned int j = i + 1; j < s->nr_govs; j++) {
			g_autofree char *other = family_prefix(s->govs[j]->meta->name);

			if (!strcmp(kind, other)) {
				(*a)[n] = i;
				(*b)[n++] = j;
				break;
			}
		}
	}
	return n;
}

unsigned int sweep_family_of(const struct sweep *s, unsigned int w)
{
	for (unsigned int f = 0; f < s->nr_families; f++)
		if (!strcmp(s->families[f], s->workloads[w].family))
			return f;
	g_assert_not_reached();
}

bool sweep_setup(const char *path, sweep_find_governor_fn find, struct sweep *out,
		 GError **error)
{
	memset(out, 0, sizeof(*out));
	if (!sweep_spec_load(path, &out->spec, error) || !find_governors(out, find, error) ||
	    !load_platforms(out, error) || !make_workloads(out, error))
		return false;
	make_settings(out);
	return true;
}

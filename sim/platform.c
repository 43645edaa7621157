// SPDX-License-Identifier: GPL-2.0
/* Platforms from key files (traces/platforms/README.md); sysfs is in platform-sysfs.c. */
#include <string.h>

#include "data-dir.h"
#include "keyfile-lines.h"
#include "kvline.h"
#include "platform-private.h"

/* Far above any CPU's per-core power; catches a value in W or µW by mistake. */
#define POWER_MAX_MW		1e6

static const char *const platform_keys[] = {
	"name", "description", "source", "busy_power_mw", "timer_latency_us", "poll_check_us",
	"idle_loop_us", "tick_work_us", "select_lead_us", "tick_stop_us", "idle_entry_us",
	"idle_entry_pct", "idle_entry_held_us", "residency_gap_us", NULL
};
static const char *const state_keys[] = {
	"name", "exit_latency_us", "exit_cost_us", "target_residency_us", "flags", "power_mw",
	"power_assumed", "disabled", NULL
};

const char *platform_dir(void)
{
	static const char *bundled;
	const char *env = g_getenv("TEOSIM_PLATFORM_DIR");

	if (env && *env)
		return env;
	if (g_once_init_enter(&bundled))
		g_once_init_leave(&bundled, g_build_filename(teosim_data_dir(), "platforms", NULL));
	return bundled;
}

void platform_clear(struct platform *p)
{
	g_free(p->name);
	g_free(p->description);
	g_free(p->source);
	g_free(p->path);
	memset(p, 0, sizeof(*p));
}

static void keyfile_fail(void *ctx, GError **error, int index, const char *key, const char *msg)
{
	g_autofree char *group = index < 0 ? g_strdup("platform") : g_strdup_printf("state%d", index);

	kf_error(ctx, error, group, key, "%s", msg);
}

static bool read_state(const struct kf_file *f, unsigned int i, struct platform_state *s,
		       GError **error)
{
	g_autofree char *group = g_strdup_printf("state%u", i);
	g_autofree char *name = NULL, *flags = NULL;
	uint64_t n;

	if (!kf_check_keys(f, group, state_keys, error) ||
	    !kf_get_string(f, group, "name", true, &name, error))
		return false;
	if (!kf_valid_name(name, KSHIM_STATE_NAME_LEN - 1)) {
		kf_error(f, error, group, "name", "'%s' is not 1 to %d of [A-Za-z0-9_.-]",
			 name, KSHIM_STATE_NAME_LEN - 1);
		return false;
	}
	strcpy(s->desc.name, name);
	if (!kf_get_u64(f, group, "exit_latency_us", true, 0, UINT32_MAX, &n, error))
		return false;
	s->desc.exit_latency_us = (uint32_t)n;
	n = s->desc.exit_latency_us;
	if (!kf_get_u64(f, group, "exit_cost_us", false, 0, UINT32_MAX, &n, error))
		return false;
	s->exit_cost_us = (uint32_t)n;
	if (!kf_get_u64(f, group, "target_residency_us", true, 0, UINT32_MAX, &n, error))
		return false;
	s->desc.target_residency_us = (uint32_t)n;
	if (!kf_get_string(f, group, "flags", false, &flags, error))
		return false;
	if (flags && strcmp(flags, "polling")) {
		kf_error(f, error, group, "flags", "'%s' is not a known flag (polling)", flags);
		return false;
	}
	s->desc.polling = flags != NULL;
	return kf_get_double(f, group, "power_mw", true, 0, POWER_MAX_MW, &s->power_mw, error) &&
	       kf_get_bool(f, group, "power_assumed", true, &s->power_assumed, error) &&
	       kf_get_bool(f, group, "disabled", false, &s->desc.disabled, error);
}

/* The groups must be [platform] and [state0] .. [stateN-1], nothing else. */
static bool count_states(const struct kf_file *f, unsigned int *count, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(f->kf, NULL);
	bool seen[KSHIM_STATE_MAX] = { false };
	unsigned int n = 0;

	for (char **g = groups; *g; g++) {
		const char *digits = g_str_has_prefix(*g, "state") ? *g + strlen("state") : "";
		uint64_t i;

		if (!strcmp(*g, "platform"))
			continue;
		/* "state" and a number without leading zeros. */
		if (!*digits || strspn(digits, "0123456789") != strlen(digits) ||
		    (digits[0] == '0' && digits[1])) {
			kf_error(f, error, *g, NULL, "unknown group ([platform] and [stateN] only)");
			return false;
		}
		i = g_ascii_strtoull(digits, NULL, 10);
		if (i >= KSHIM_STATE_MAX) {
			kf_error(f, error, *g, NULL, "cpuidle has at most %d states (state0 .. state%d)",
				 KSHIM_STATE_MAX, KSHIM_STATE_MAX - 1);
			return false;
		}
		seen[i] = true;
		n = MAX(n, (unsigned int)i + 1);
	}
	if (!g_key_file_has_group(f->kf, "platform")) {
		kf_error(f, error, NULL, NULL, "no [platform] group");
		return false;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (!seen[i]) {
			g_autofree char *next = g_strdup_printf("state%u", n - 1);

			kf_error(f, error, next, NULL, "[state%u] is missing: states are numbered from 0", i);
			return false;
		}
	}
	if (n == 0) {
		kf_error(f, error, "platform", NULL, "no [state0]: a platform has at least one state");
		return false;
	}
	*count = n;
	return true;
}

/* An optional [platform] key in µs, 0 when absent. */
static bool get_u32(const struct kf_file *f, const char *key, uint32_t *out, GError **error)
{
	uint64_t n = 0;

	if (!kf_get_u64(f, "platform", key, false, 0, UINT32_MAX, &n, error))
		return false;
	*out = (uint32_t)n;
	return true;
}

/* The share of the way to a state's entry that precedes the idle entry time; *out when absent. */
static bool get_idle_entry_pct(const struct kf_file *f, uint32_t *out, GError **error)
{
	uint64_t n = *out;

	if (!kf_get_u64(f, "platform", "idle_entry_pct", false, 0, 100, &n, error))
		return false;
	*out = (uint32_t)n;
	return true;
}

static bool load_keyfile(const char *path, struct platform *p, GError **error)
{
	struct kf_file f;
	bool ok;

	ok = kf_load(&f, path, error) && count_states(&f, &p->state_count, error) &&
	     kf_check_keys(&f, "platform", platform_keys, error) &&
	     kf_get_string(&f, "platform", "name", true, &p->name, error) &&
	     kf_get_string(&f, "platform", "description", true, &p->description, error) &&
	     kf_get_string(&f, "platform", "source", true, &p->source, error) &&
	     kf_get_double(&f, "platform", "busy_power_mw", true, 0, POWER_MAX_MW,
			   &p->busy_power_mw, error) &&
	     get_u32(&f, "timer_latency_us", &p->timer_latency_us, error) &&
	     get_u32(&f, "poll_check_us", &p->poll_check_us, error) &&
	     get_u32(&f, "idle_loop_us", &p->idle_loop_us, error) &&
	     get_u32(&f, "tick_work_us", &p->tick_work_us, error) &&
	     get_u32(&f, "select_lead_us", &p->select_lead_us, error) &&
	     get_u32(&f, "tick_stop_us", &p->tick_stop_us, error) &&
	     get_u32(&f, "idle_entry_us", &p->idle_entry_us, error) &&
	     get_idle_entry_pct(&f, &p->idle_entry_pct, error) &&
	     get_u32(&f, "idle_entry_held_us", &p->idle_entry_held_us, error) &&
	     get_u32(&f, "residency_gap_us", &p->residency_gap_us, error);
	for (unsigned int i = 0; ok && i < p->state_count; i++)
		ok = read_state(&f, i, &p->states[i], error);
	ok = ok && platform_check(p, keyfile_fail, &f, error);
	kf_clear(&f);
	return ok;
}

static int compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A name that is not bundled: say which are. */
static void unknown_bundled(const char *name, GError **error)
{
	g_autoptr(GDir) dir = g_dir_open(platform_dir(), 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *list = NULL;
	const char *file;

	while (dir && (file = g_dir_read_name(dir)))
		if (g_str_has_suffix(file, PLATFORM_SUFFIX))
			g_ptr_array_add(names, g_strndup(file, strlen(file) - strlen(PLATFORM_SUFFIX)));
	g_ptr_array_sort(names, compare_names);
	g_ptr_array_add(names, NULL);
	list = g_strjoinv(", ", (char **)names->pdata);
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "unknown platform '%s' (bundled in %s: %s; or a path, sysfs, sysfs:DIR)",
		    name, platform_dir(), *list ? list : "none");
}

bool platform_load(const char *spec, struct platform *out, GError **error)
{
	g_autofree char *path = NULL;
	bool ok;

	memset(out, 0, sizeof(*out));
	/* Unless the file says otherwise, idle_entry_us is the whole lag. */
	out->idle_entry_pct = 100;
	if (!strcmp(spec, "sysfs"))
		path = g_strdup("/sys/devices/system/cpu/cpu0/cpuidle");
	else if (g_str_has_prefix(spec, "sysfs:"))
		path = g_strdup(spec + strlen("sysfs:"));
	if (path)
		ok = platform_load_sysfs(path, out, error);
	else if (strchr(spec, '/') || g_str_has_suffix(spec, PLATFORM_SUFFIX))
		ok = load_keyfile(path = g_strdup(spec), out, error);
	else {
		/* A bare name is a bundled platform. */
		path = g_strconcat(platform_dir(), "/", spec, PLATFORM_SUFFIX, NULL);
		if (g_file_test(path, G_FILE_TEST_EXISTS)) {
			ok = load_keyfile(path, out, error);
		} else {
			unknown_bundled(spec, error);
			ok = false;
		}
	}
	if (ok)
		out->path = g_steal_pointer(&path);
	else
		platform_clear(out);
	return ok;
}

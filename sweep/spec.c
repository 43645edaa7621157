// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "data-dir.h"
#include "kvline.h"
#include "platform.h"
#include "small-file.h"
#include "spec.h"

#define GROUP	"sweep"

static const char *const keys[] = {
	"name", "description", "governors", "platforms", "scenarios", "traces", "seeds", "hz",
	"latency_limits_us", NULL,
};

void sweep_spec_clear(struct sweep_spec *s)
{
	kf_clear(&s->file);
	g_free(s->name);
	g_free(s->description);
	g_clear_pointer(&s->governors, g_ptr_array_unref);
	g_clear_pointer(&s->platforms, g_ptr_array_unref);
	g_clear_pointer(&s->scenarios, g_ptr_array_unref);
	g_clear_pointer(&s->traces, g_ptr_array_unref);
	g_clear_pointer(&s->seeds, g_array_unref);
	g_clear_pointer(&s->hz, g_array_unref);
	g_clear_pointer(&s->latency_limits_us, g_array_unref);
	memset(s, 0, sizeof(*s));
}

/*
 * A comma-separated list: items trimmed, none empty, none twice, at most
 * SWEEP_LIST_MAX.  An absent key gives an empty list.
 */
static GPtrArray *read_list(const struct sweep_spec *s, const char *key, GError **error)
{
	g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *value = NULL;
	g_auto(GStrv) parts = NULL;

	if (!kf_get_string(&s->file, GROUP, key, false, &value, error))
		return NULL;
	if (!value)
		return g_steal_pointer(&items);
	parts = g_strsplit(value, ",", -1);
	for (char **p = parts; *p; p++) {
		char *item = g_strstrip(*p);

		if (!*item) {
			kf_error(&s->file, error, GROUP, key, "an empty item in '%s'", value);
			return NULL;
		}
		for (unsigned int i = 0; i < items->len; i++)
			if (!strcmp(items->pdata[i], item)) {
				kf_error(&s->file, error, GROUP, key, "'%s' is listed twice", item);
				return NULL;
			}
		if (items->len == SWEEP_LIST_MAX) {
			kf_error(&s->file, error, GROUP, key, "more than %d items", SWEEP_LIST_MAX);
			return NULL;
		}
		g_ptr_array_add(items, g_strdup(item));
	}
	return g_steal_pointer(&items);
}

/* A decimal integer in [min, max], all of s. */
static bool parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return g_ascii_string_to_unsigned(s, 10, min, max, out, NULL);
}

/* seeds=1-5,9: ranges and single seeds, each seed once. */
static bool read_seeds(struct sweep_spec *s, GError **error)
{
	g_autoptr(GPtrArray) items = read_list(s, "seeds", error);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);

	if (!items)
		return false;
	s->seeds = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	for (unsigned int i = 0; i < items->len; i++) {
		const char *item = items->pdata[i];
		g_auto(GStrv) ends = g_strsplit(item, "-", 2);
		uint64_t from, to;

		if (!parse_uint(ends[0], 0, UINT32_MAX, &from) ||
		    !parse_uint(ends[1] ? ends[1] : ends[0], 0, UINT32_MAX, &to) || to < from) {
			kf_error(&s->file, error, GROUP, "seeds",
				 "'%s' is neither a seed nor a range FIRST-LAST of seeds (0 .. %u)",
				 item, UINT32_MAX);
			return false;
		}
		if (to - from >= SWEEP_SEEDS_MAX || s->seeds->len + (to - from) >= SWEEP_SEEDS_MAX) {
			kf_error(&s->file, error, GROUP, "seeds", "more than %d seeds",
				 SWEEP_SEEDS_MAX);
			return false;
		}
		for (uint64_t seed = from; seed <= to; seed++) {
			uint32_t v = (uint32_t)seed;

			/* Seed 0 and seed 2^32-1 stay apart: keys are seed + 1 in 64 bits. */
			if (!g_hash_table_add(seen, GSIZE_TO_POINTER((gsize)seed + 1))) {
				kf_error(&s->file, error, GROUP, "seeds", "seed %u is listed twice", v);
				return false;
			}
			g_array_append_val(s->seeds, v);
		}
	}
	return true;
}

static bool read_hz(struct sweep_spec *s, GError **error)
{
	g_autoptr(GPtrArray) items = read_list(s, "hz", error);
	unsigned int fallback = 250;

	if (!items)
		return false;
	s->hz = g_array_new(FALSE, FALSE, sizeof(unsigned int));
	for (unsigned int i = 0; i < items->len; i++) {
		uint64_t hz;

		if (!parse_uint(items->pdata[i], 1, 1000, &hz) ||
		    (hz != 100 && hz != 250 && hz != 300 && hz != 1000)) {
			kf_error(&s->file, error, GROUP, "hz",
				 "'%s': the kernel offers 100, 250, 300 or 1000",
				 (const char *)items->pdata[i]);
			return false;
		}
		g_array_append_val(s->hz, hz);
	}
	if (!s->hz->len)
		g_array_append_val(s->hz, fallback);
	return true;
}

static bool read_limits(struct sweep_spec *s, GError **error)
{
	g_autoptr(GPtrArray) items = read_list(s, "latency_limits_us", error);
	int32_t none = INT32_MAX;

	if (!items)
		return false;
	s->latency_limits_us = g_array_new(FALSE, FALSE, sizeof(int32_t));
	for (unsigned int i = 0; i < items->len; i++) {
		const char *item = items->pdata[i];
		uint64_t us;
		int32_t v;

		if (!strcmp(item, "none")) {
			g_array_append_val(s->latency_limits_us, none);
			continue;
		}
		if (!parse_uint(item, 0, INT32_MAX - 1, &us)) {
			kf_error(&s->file, error, GROUP, "latency_limits_us",
				 "'%s' is neither 'none' nor a limit of 0 .. %d us", item,
				 INT32_MAX - 1);
			return false;
		}
		v = (int32_t)us;
		g_array_append_val(s->latency_limits_us, v);
	}
	if (!s->latency_limits_us->len)
		g_array_append_val(s->latency_limits_us, none);
	return true;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* NAME.SUFFIX of every file in dir, as full paths, sorted by name. */
static GPtrArray *bundled_files(const char *dir, const char *suffix, bool names_only)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	const char *file;

	while (d && (file = g_dir_read_name(d)))
		if (g_str_has_suffix(file, suffix))
			g_ptr_array_add(out, names_only ?
					g_strndup(file, strlen(file) - strlen(suffix)) :
					g_build_filename(dir, file, NULL));
	g_ptr_array_sort(out, by_name);
	return out;
}

/*
 * A scenario or trace as written: a path (with a '/' or the suffix),
 * relative to the sweep file's directory, or a bundled name.
 */
static char *resolve_file(const struct sweep_spec *s, const char *key, const char *item,
			  const char *bundled_dir, const char *suffix, GError **error)
{
	g_autofree char *base = g_path_get_dirname(s->file.path);
	char *path;

	if (strchr(item, '/') || g_str_has_suffix(item, suffix))
		path = g_path_is_absolute(item) ? g_strdup(item) :
		       g_build_filename(base, item, NULL);
	else
		path = g_strconcat(bundled_dir, "/", item, suffix, NULL);
	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		kf_error(&s->file, error, GROUP, key, "'%s': no such file %s", item, path);
		g_free(path);
		return NULL;
	}
	return path;
}

static GPtrArray *read_files(const struct sweep_spec *s, const char *key, const char *subdir,
			     const char *suffix, GError **error)
{
	g_autofree char *dir = g_build_filename(teosim_data_dir(), subdir, NULL);
	g_autoptr(GPtrArray) items = read_list(s, key, error);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);

	if (!items)
		return NULL;
	if (items->len == 1 && !strcmp(items->pdata[0], "all"))
		return bundled_files(dir, suffix, false);
	for (unsigned int i = 0; i < items->len; i++) {
		char *path = resolve_file(s, key, items->pdata[i], dir, suffix, error);

		if (!path)
			return NULL;
		g_ptr_array_add(paths, path);
	}
	return g_steal_pointer(&paths);
}

static bool read_lists(struct sweep_spec *s, GError **error)
{
	uint64_t cells;

	if (!(s->governors = read_list(s, "governors", error)) ||
	    !(s->platforms = read_list(s, "platforms", error)) ||
	    !(s->scenarios = read_files(s, "scenarios", "scenarios", ".scenario", error)) ||
	    !(s->traces = read_files(s, "traces", ".", ".trace", error)) ||
	    !read_seeds(s, error) || !read_hz(s, error) || !read_limits(s, error))
		return false;
	if (s->platforms->len == 1 && !strcmp(s->platforms->pdata[0], "all")) {
		g_ptr_array_unref(s->platforms);
		s->platforms = bundled_files(platform_dir(), ".platform", true);
	}
	if (!s->governors->len || !s->platforms->len) {
		kf_error(&s->file, error, GROUP, s->governors->len ? "platforms" : "governors",
			 "needs at least one");
		return false;
	}
	if (!s->scenarios->len && !s->traces->len) {
		kf_error(&s->file, error, GROUP, NULL, "needs scenarios=, traces= or both");
		return false;
	}
	if (s->scenarios->len && !s->seeds->len) {
		kf_error(&s->file, error, GROUP, "scenarios", "needs seeds= to generate them");
		return false;
	}
	cells = (uint64_t)s->governors->len * s->platforms->len * s->hz->len *
		s->latency_limits_us->len *
		((uint64_t)s->scenarios->len * s->seeds->len + s->traces->len);
	if (cells > SWEEP_CELLS_MAX) {
		kf_error(&s->file, error, GROUP, NULL, "%" G_GUINT64_FORMAT " cells: at most %u",
			 cells, SWEEP_CELLS_MAX);
		return false;
	}
	return true;
}

static bool hash_file(struct sweep_spec *s, GError **error)
{
	g_autofree char *text = NULL;
	g_autofree char *sum = NULL;
	g_autoptr(GError) err = NULL;
	size_t len;

	if (!small_file_read(s->file.path, KF_FILE_MAX, &text, &len, &err)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s", err->message);
		return false;
	}
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	g_strlcpy(s->sha256, sum, sizeof(s->sha256));
	return true;
}

bool sweep_spec_load(const char *path, struct sweep_spec *out, GError **error)
{
	memset(out, 0, sizeof(*out));
	if (!kf_load(&out->file, path, error) || !hash_file(out, error))
		goto fail;
	{
		g_auto(GStrv) groups = g_key_file_get_groups(out->file.kf, NULL);

		for (char **g = groups; *g; g++)
			if (strcmp(*g, GROUP)) {
				kf_error(&out->file, error, *g, NULL, "unknown group ([sweep] only)");
				goto fail;
			}
	}
	if (!g_key_file_has_group(out->file.kf, GROUP)) {
		kf_error(&out->file, error, NULL, NULL, "no [sweep] group");
		goto fail;
	}
	if (!kf_check_keys(&out->file, GROUP, keys, error) ||
	    !kf_get_string(&out->file, GROUP, "name", true, &out->name, error) ||
	    !kf_get_string(&out->file, GROUP, "description", false, &out->description, error))
		goto fail;
	if (!kf_valid_name(out->name, 64)) {
		kf_error(&out->file, error, GROUP, "name", "'%s' is not 1 to 64 of [A-Za-z0-9_.-]",
			 out->name);
		goto fail;
	}
	if (read_lists(out, error))
		return true;
fail:
	sweep_spec_clear(out);
	return false;
}

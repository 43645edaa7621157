// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "keyfile-lines.h"
#include "kvline.h"
#include "small-file.h"

static char *line_key(const char *group, const char *key)
{
	return key ? g_strconcat(group, "\n", key, NULL) : g_strdup(group);
}

unsigned long kf_line(const struct kf_file *f, const char *group, const char *key)
{
	g_autofree char *k = line_key(group, key);

	return GPOINTER_TO_SIZE(g_hash_table_lookup(f->lines, k));
}

static void set_error_at(GError **error, const char *path, unsigned long line,
			 const char *group, const char *key, const char *msg)
{
	g_autofree char *where = NULL;

	if (group && key)
		where = g_strdup_printf("[%s] %s: ", group, key);
	else if (group)
		where = g_strdup_printf("[%s]: ", group);
	else
		where = g_strdup("");
	if (line)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE, "%s:%lu: %s%s",
			    path, line, where, msg);
	else
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE, "%s: %s%s", path, where, msg);
}

void kf_error(const struct kf_file *f, GError **error, const char *group, const char *key,
	      const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	unsigned long line;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	/* A missing key has no line: point at its group instead. */
	line = key ? kf_line(f, group, key) : 0;
	if (!line && group)
		line = kf_line(f, group, NULL);
	set_error_at(error, f->path, line, group, key, msg);
}

/*
 * Records the line of every group and key, refusing what GKeyFile would
 * accept silently (a repeated group or key) or report without a line.
 */
static bool index_lines(struct kf_file *f, const char *text, GError **error)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *group = NULL;

	for (unsigned long n = 0; lines[n]; n++) {
		unsigned long line = n + 1;
		char *s = g_strstrip(lines[n]);
		char *eq, *k;

		if (!*s || *s == '#')
			continue;
		if (*s == '[') {
			size_t len = strlen(s);

			if (len < 3 || s[len - 1] != ']') {
				set_error_at(error, f->path, line, NULL, NULL, "malformed group header");
				return false;
			}
			g_free(group);
			group = g_strndup(s + 1, len - 2);
			if (g_hash_table_contains(f->lines, group)) {
				set_error_at(error, f->path, line, group, NULL, "group given twice");
				return false;
			}
			g_hash_table_insert(f->lines, g_strdup(group), GSIZE_TO_POINTER(line));
			continue;
		}
		eq = strchr(s, '=');
		if (!eq || eq == s) {
			set_error_at(error, f->path, line, group, NULL,
				     "neither a group, a key=value pair nor a comment");
			return false;
		}
		if (!group) {
			set_error_at(error, f->path, line, NULL, NULL, "a key before the first group");
			return false;
		}
		*eq = '\0';
		k = line_key(group, g_strchomp(s));
		if (g_hash_table_contains(f->lines, k)) {
			set_error_at(error, f->path, line, group, s, "given twice");
			g_free(k);
			return false;
		}
		g_hash_table_insert(f->lines, k, GSIZE_TO_POINTER(line));
	}
	return true;
}

bool kf_load(struct kf_file *f, const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	size_t len;

	memset(f, 0, sizeof(*f));
	f->path = g_strdup(path);
	f->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	f->kf = g_key_file_new();
	if (!small_file_read(path, KF_FILE_MAX, &text, &len, &err)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s", err->message);
		return false;
	}
	if (strlen(text) != len) {
		set_error_at(error, path, 0, NULL, NULL, "NUL byte in a key file");
		return false;
	}
	if (!index_lines(f, text, error))
		return false;
	if (!g_key_file_load_from_data(f->kf, text, len, G_KEY_FILE_NONE, &err)) {
		set_error_at(error, path, 0, NULL, NULL, err->message);
		return false;
	}
	return true;
}

void kf_clear(struct kf_file *f)
{
	g_free(f->path);
	if (f->kf)
		g_key_file_free(f->kf);
	if (f->lines)
		g_hash_table_destroy(f->lines);
	memset(f, 0, sizeof(*f));
}

bool kf_check_keys(const struct kf_file *f, const char *group, const char *const *allowed,
		   GError **error)
{
	g_auto(GStrv) keys = g_key_file_get_keys(f->kf, group, NULL, NULL);

	for (char **k = keys; k && *k; k++) {
		if (!g_strv_contains(allowed, *k)) {
			kf_error(f, error, group, *k, "unknown key");
			return false;
		}
	}
	return true;
}

/* The raw value with surrounding blanks removed, or NULL when absent. */
static char *raw_value(const struct kf_file *f, const char *group, const char *key,
		       bool required, GError **error)
{
	char *v = g_key_file_get_value(f->kf, group, key, NULL);

	if (!v) {
		if (required)
			kf_error(f, error, group, key, "missing");
		return NULL;
	}
	return g_strstrip(v);
}

bool kf_get_string(const struct kf_file *f, const char *group, const char *key,
		   bool required, char **out, GError **error)
{
	g_autoptr(GError) err = NULL;
	char *v;

	if (!g_key_file_has_key(f->kf, group, key, NULL)) {
		if (required)
			kf_error(f, error, group, key, "missing");
		return !required;
	}
	v = g_key_file_get_string(f->kf, group, key, &err);
	if (!v) {
		kf_error(f, error, group, key, "%s", err->message);
		return false;
	}
	g_free(*out);
	*out = v;
	return true;
}

bool kf_get_u64(const struct kf_file *f, const char *group, const char *key, bool required,
		uint64_t min, uint64_t max, uint64_t *out, GError **error)
{
	g_autofree char *v = raw_value(f, group, key, required, error);
	uint64_t n = 0;

	if (!v)
		return !required;
	if (!*v || strspn(v, "0123456789") != strlen(v)) {
		kf_error(f, error, group, key, "'%s' is not a decimal number", v);
		return false;
	}
	for (const char *s = v; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (n > (UINT64_MAX - d) / 10 || n * 10 + d > max) {
			kf_error(f, error, group, key, "%s is out of range (%" G_GUINT64_FORMAT
				 " to %" G_GUINT64_FORMAT ")", v, min, max);
			return false;
		}
		n = n * 10 + d;
	}
	if (n < min) {
		kf_error(f, error, group, key, "%s is out of range (%" G_GUINT64_FORMAT
			 " to %" G_GUINT64_FORMAT ")", v, min, max);
		return false;
	}
	*out = n;
	return true;
}

bool kf_get_double(const struct kf_file *f, const char *group, const char *key, bool required,
		   double min, double max, double *out, GError **error)
{
	g_autofree char *v = raw_value(f, group, key, required, error);
	char *end;
	double d;

	if (!v)
		return !required;
	/* Plain decimal only: g_ascii_strtod would also take hex, inf and nan. */
	if (!*v || strspn(v, "0123456789.eE+-") != strlen(v)) {
		kf_error(f, error, group, key, "'%s' is not a decimal number", v);
		return false;
	}
	errno = 0;
	d = g_ascii_strtod(v, &end);
	if (*end || end == v) {
		kf_error(f, error, group, key, "'%s' is not a decimal number", v);
		return false;
	}
	if (errno == ERANGE || !isfinite(d) || d < min || d > max) {
		kf_error(f, error, group, key, "%s is out of range (%g to %g)", v, min, max);
		return false;
	}
	*out = d;
	return true;
}

bool kf_get_bool(const struct kf_file *f, const char *group, const char *key, bool required,
		 bool *out, GError **error)
{
	g_autofree char *v = raw_value(f, group, key, required, error);

	if (!v)
		return !required;
	if (!strcmp(v, "true") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "false") || !strcmp(v, "0"))
		*out = false;
	else {
		kf_error(f, error, group, key, "'%s' is not true or false", v);
		return false;
	}
	return true;
}

bool kf_valid_name(const char *s, size_t max_len)
{
	size_t len = strlen(s);

	return len >= 1 && len <= max_len &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == len;
}

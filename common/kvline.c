// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "kvline.h"

G_DEFINE_QUARK(teosim-error-quark, teosim_error)

bool kv_open(struct kv_reader *r, const char *path, GError **error)
{
	memset(r, 0, sizeof(*r));
	r->file = fopen(path, "r");
	if (!r->file) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s",
			    path, g_strerror(errno));
		return false;
	}
	r->path = g_strdup(path);
	return true;
}

void kv_close(struct kv_reader *r)
{
	if (r->file)
		fclose(r->file);
	g_free(r->path);
	r->file = NULL;
	r->path = NULL;
}

void kv_error(const struct kv_reader *r, GError **error, const char *field,
	      const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (field)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE, "%s:%lu: %s: %s",
			    r->path, r->line, field, msg);
	else
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE, "%s:%lu: %s",
			    r->path, r->line, msg);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool split(const struct kv_reader *r, char *s, struct kv_line *out, GError **error)
{
	out->keyword = NULL;
	out->nr_fields = 0;
	while (*s) {
		char *word, *eq;

		while (is_blank(*s))
			s++;
		if (!*s)
			break;
		word = s;
		while (*s && !is_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
		if (!out->keyword) {
			out->keyword = word;
			continue;
		}
		if (out->nr_fields == KV_FIELDS_MAX) {
			kv_error(r, error, NULL, "more than %d fields", KV_FIELDS_MAX);
			return false;
		}
		eq = strchr(word, '=');
		if (eq)
			*eq = '\0';
		for (unsigned int i = 0; i < out->nr_fields; i++) {
			if (!strcmp(out->fields[i].key, word)) {
				kv_error(r, error, word, "given twice");
				return false;
			}
		}
		out->fields[out->nr_fields++] = (struct kv_field){
			.key = word, .value = eq ? eq + 1 : NULL,
		};
	}
	return true;
}

/*
 * Reads one line into r->buf, byte by byte so that a NUL inside it is seen.
 * Returns its length with the newline, 0 at the end, -1 on error.
 */
static long read_line(struct kv_reader *r, GError **error)
{
	bool nul = false;
	size_t len = 0;
	int c = EOF;

	while ((c = getc_unlocked(r->file)) != EOF) {
		if (len == KV_LINE_MAX) {
			r->line++;
			kv_error(r, error, NULL, "line longer than %d bytes", KV_LINE_MAX - 1);
			return -1;
		}
		r->buf[len++] = (char)c;
		nul |= c == '\0';
		if (c == '\n')
			break;
	}
	if (ferror(r->file)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO,
			    "%s: read error after line %lu", r->path, r->line);
		return -1;
	}
	if (len == 0)
		return 0;
	r->line++;
	if (nul) {
		kv_error(r, error, NULL, "NUL byte in line");
		return -1;
	}
	if (c != '\n') {
		kv_error(r, error, NULL, "truncated line: the file ends without a newline");
		return -1;
	}
	r->buf[len - 1] = '\0';
	return (long)len;
}

int kv_next(struct kv_reader *r, struct kv_line *out, GError **error)
{
	for (;;) {
		long len = read_line(r, error);
		char *s;

		if (len <= 0)
			return (int)len;
		if (len >= 2 && r->buf[len - 2] == '\r')
			r->buf[len - 2] = '\0';
		s = r->buf;
		while (is_blank(*s))
			s++;
		if (!*s || *s == '#')
			continue;
		return split(r, s, out, error) ? 1 : -1;
	}
}

const char *kv_get(struct kv_line *l, const char *key)
{
	for (unsigned int i = 0; i < l->nr_fields; i++) {
		if (!strcmp(l->fields[i].key, key)) {
			l->fields[i].used = true;
			return l->fields[i].value ? l->fields[i].value : "";
		}
	}
	return NULL;
}

const char *kv_need(const struct kv_reader *r, struct kv_line *l, const char *key,
		    GError **error)
{
	const char *v = kv_get(l, key);

	if (!v)
		kv_error(r, error, key, "missing in '%s' record", l->keyword);
	return v;
}

bool kv_check_all_used(const struct kv_reader *r, const struct kv_line *l,
		       GError **error)
{
	for (unsigned int i = 0; i < l->nr_fields; i++) {
		if (!l->fields[i].used) {
			kv_error(r, error, l->fields[i].key, "unknown key in '%s' record",
				 l->keyword);
			return false;
		}
	}
	return true;
}

/* Digits only, at least one; leading zeros allowed. */
static bool parse_digits(const char *s, uint64_t *out, bool *overflow)
{
	uint64_t v = 0;

	*overflow = false;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			*overflow = true;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

bool kv_u64(const struct kv_reader *r, const char *field, const char *value,
	    uint64_t min, uint64_t max, uint64_t *out, GError **error)
{
	bool overflow;
	uint64_t v;

	if (!parse_digits(value, &v, &overflow)) {
		kv_error(r, error, field, "'%s' is not a decimal number", value);
		return false;
	}
	if (overflow || v < min || v > max) {
		kv_error(r, error, field, "%s is out of range (%" G_GUINT64_FORMAT
			 " to %" G_GUINT64_FORMAT ")", value, min, max);
		return false;
	}
	*out = v;
	return true;
}

bool kv_s64(const struct kv_reader *r, const char *field, const char *value,
	    int64_t min, int64_t max, int64_t *out, GError **error)
{
	bool negative = value[0] == '-';
	bool overflow;
	uint64_t mag;
	int64_t v;

	if (!parse_digits(value + negative, &mag, &overflow)) {
		kv_error(r, error, field, "'%s' is not a decimal number", value);
		return false;
	}
	if (!overflow && negative && mag <= (uint64_t)INT64_MAX + 1)
		v = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	else if (!overflow && !negative && mag <= (uint64_t)INT64_MAX)
		v = (int64_t)mag;
	else
		overflow = true;
	if (overflow || v < min || v > max) {
		kv_error(r, error, field, "%s is out of range (%" G_GINT64_FORMAT
			 " to %" G_GINT64_FORMAT ")", value, min, max);
		return false;
	}
	*out = v;
	return true;
}

bool kv_bool(const struct kv_reader *r, const char *field, const char *value,
	     bool *out, GError **error)
{
	if (strcmp(value, "0") && strcmp(value, "1")) {
		kv_error(r, error, field, "'%s' is not 0 or 1", value);
		return false;
	}
	*out = value[0] == '1';
	return true;
}

// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <string.h>

#include "input-file.h"
#include "kvline.h"

G_DEFINE_QUARK(teosim-error-quark, teosim_error)

bool kv_open(struct kv_reader *r, const char *path, GError **error)
{
	memset(r, 0, sizeof(*r));
	r->file = input_fopen(path, "r", error);
	if (!r->file)
		return false;
	r->path = g_strdup(path);
	r->block = g_malloc0(KV_BLOCK + KV_SLACK);
	return true;
}

void kv_close(struct kv_reader *r)
{
	if (r->file)
		fclose(r->file);
	g_free(r->path);
	g_free(r->block);
	r->file = NULL;
	r->path = NULL;
	r->block = NULL;
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

/* What ends a word (a blank or the end of the line), and '=', by byte. */
enum { WORD_END = 1, EQUALS = 2 };
static const unsigned char byte_class[256] = {
	['\0'] = WORD_END, [' '] = WORD_END, ['\t'] = WORD_END, ['='] = EQUALS,
};

/* Keys are short and mostly differ in their first byte: no call to strcmp. */
static inline bool key_equal(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Cuts the word at s, noting its first '='; returns where the next word may start. */
static char *cut_word(char *s, char **eq)
{
	unsigned char cls;

	*eq = NULL;
	for (;;) {
		while (!(cls = byte_class[(unsigned char)*s]))
			s++;
		if (cls == WORD_END)
			break;
		if (!*eq)
			*eq = s;
		s++;
	}
	if (!*s)
		return s;
	*s = '\0';
	return s + 1;
}

static bool add_field(const struct kv_reader *r, struct kv_line *out, char *word, char *eq,
		      GError **error)
{
	if (out->nr_fields == KV_FIELDS_MAX) {
		kv_error(r, error, NULL, "more than %d fields", KV_FIELDS_MAX);
		return false;
	}
	if (eq)
		*eq = '\0';
	for (unsigned int i = 0; i < out->nr_fields; i++) {
		if (key_equal(out->fields[i].key, word)) {
			kv_error(r, error, word, "given twice");
			return false;
		}
	}
	out->fields[out->nr_fields++] = (struct kv_field){
		.key = word, .value = eq ? eq + 1 : NULL,
	};
	return true;
}

bool kv_split(const struct kv_reader *r, char *s, struct kv_line *out, GError **error)
{
	out->keyword = NULL;
	out->nr_fields = 0;
	out->next_get = 0;
	for (;;) {
		char *word, *eq;

		while (is_blank(*s))
			s++;
		if (!*s)
			return true;
		word = s;
		s = cut_word(s, &eq);
		if (!out->keyword)
			out->keyword = word;
		else if (!add_field(r, out, word, eq, error))
			return false;
	}
}

/* Sets nul_at to the first NUL at or after pos. */
static void find_nul(struct kv_reader *r)
{
	const char *nul = memchr(r->block + r->pos, '\0', r->end - r->pos);

	r->nul_at = nul ? (size_t)(nul - r->block) : r->end;
}

/* Reads more of the file behind the partial line left in the block. */
static bool refill(struct kv_reader *r, GError **error)
{
	size_t left = r->end - r->pos, n;

	memmove(r->block, r->block + r->pos, left);
	r->pos = 0;
	n = fread(r->block + left, 1, KV_BLOCK - left, r->file);
	if (ferror(r->file)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO,
			    "%s: read error after line %lu", r->path, r->line);
		return false;
	}
	r->eof = n == 0;
	r->end = left + n;
	find_nul(r);
	return true;
}

static bool has_nul(const struct kv_reader *r, size_t len)
{
	return r->nul_at < r->pos + len;
}

/* Consumes the line of len bytes, its newline included, at r->pos. */
static bool take_line(struct kv_reader *r, size_t len, char **line, GError **error)
{
	char *s = r->block + r->pos;
	bool nul = has_nul(r, len);

	r->line++;
	r->pos += len;
	if (nul) {
		find_nul(r);
		kv_error(r, error, NULL, "NUL byte in line");
		return false;
	}
	s[len - 1] = '\0';
	if (len >= 2 && s[len - 2] == '\r')
		s[len - 2] = '\0';
	*line = s;
	return true;
}

/*
 * Sets *line to the next line, its newline (and a '\r' before it) cut.
 * Returns 1, 0 at the end, -1 on error.  The errors are those of reading
 * byte by byte, in the same order: a line of more than KV_LINE_MAX bytes
 * with its newline, then a NUL byte, then a last line without a newline.
 */
static int read_line(struct kv_reader *r, char **line, GError **error)
{
	for (;;) {
		size_t left = r->end - r->pos;
		char *s = r->block + r->pos;
		char *nl = memchr(s, '\n', MIN(left, KV_LINE_MAX));

		if (nl)
			return take_line(r, (size_t)(nl - s) + 1, line, error) ? 1 : -1;
		if (left > KV_LINE_MAX) {
			r->line++;
			kv_error(r, error, NULL, "line longer than %d bytes", KV_LINE_MAX - 1);
			return -1;
		}
		if (r->eof) {
			if (!left)
				return 0;
			r->line++;
			kv_error(r, error, NULL, "%s", has_nul(r, left) ? "NUL byte in line" :
				 "truncated line: the file ends without a newline");
			return -1;
		}
		if (!refill(r, error))
			return -1;
	}
}

/* Any line: the next one read_line() returns that is neither blank nor a comment. */
int kv_next_text_slow(struct kv_reader *r, char **line, GError **error)
{
	for (;;) {
		char *s;
		int ret = read_line(r, &s, error);

		if (ret <= 0)
			return ret;
		while (is_blank(*s))
			s++;
		if (!*s || *s == '#')
			continue;
		*line = s;
		return 1;
	}
}

int kv_next(struct kv_reader *r, struct kv_line *out, GError **error)
{
	char *s;
	int ret = kv_next_text(r, &s, error);

	if (ret <= 0)
		return ret;
	return kv_split(r, s, out, error) ? 1 : -1;
}

const char *kv_get(struct kv_line *l, const char *key)
{
	unsigned int i = l->next_get;

	for (unsigned int n = 0; n < l->nr_fields; n++, i++) {
		struct kv_field *f;

		if (i >= l->nr_fields)
			i = 0;
		f = &l->fields[i];
		if (key_equal(f->key, key)) {
			f->used = true;
			l->next_get = i + 1;
			return f->value ? f->value : "";
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

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Digits only, at least one; leading zeros allowed.  Any 19 digits fit in
 * 64 bits, so only a longer number needs the overflow test on each digit.
 */
static bool parse_digits(const char *s, uint64_t *out, bool *overflow)
{
	const char *first = s;
	uint64_t v = 0;

	*overflow = false;
	if (!*s)
		return false;
	for (; *s && s - first < 19; s++) {
		if (!is_digit(*s))
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	for (; *s; s++) {
		if (!is_digit(*s))
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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading line-oriented "keyword key=value ..." text files, the shape of
 * teosim's call logs and traces: a line reader that counts lines and
 * refuses truncated or overlong lines, a splitter into fields, and typed
 * value parsers whose errors name the file, the line and the field.
 */
#ifndef TEOSIM_KVLINE_H
#define TEOSIM_KVLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#define KV_LINE_MAX	4096
#define KV_FIELDS_MAX	32
/* Bytes read at a time: many lines per read(), and room for the longest line. */
#define KV_BLOCK	65536
/* Readable bytes past the end of any line kv_next_text() returns. */
#define KV_SLACK	16
/* Readable bytes from the start of a line kv_peek_text() returns. */
#define KV_PEEK		512

#define TEOSIM_ERROR	(teosim_error_quark())
GQuark teosim_error_quark(void);

enum teosim_error_code {
	TEOSIM_ERROR_IO,
	TEOSIM_ERROR_PARSE,
	TEOSIM_ERROR_INVALID,
};

struct kv_reader {
	FILE *file;
	char *path;
	unsigned long line;		/* of the line last returned */
	/*
	 * Lines are split in place in block[], so the strings of the last
	 * line returned stay valid until the next kv_next().
	 */
	char *block;			/* KV_BLOCK + KV_SLACK bytes */
	size_t pos, end;		/* the bytes not yet returned */
	size_t nul_at;			/* the first NUL in block[pos..end), or end */
	bool eof;
};

struct kv_field {
	const char *key;
	const char *value;		/* NULL for a bare word */
	bool used;
};

/* One split line: the keyword and its fields. */
struct kv_line {
	const char *keyword;
	struct kv_field fields[KV_FIELDS_MAX];
	unsigned int nr_fields;
	/*
	 * Where kv_get() starts looking: after the key it found last, so keys
	 * read in the order they are written are found at the first try.
	 */
	unsigned int next_get;
};

bool kv_open(struct kv_reader *r, const char *path, GError **error);
void kv_close(struct kv_reader *r);

/*
 * Reads the next line that is neither blank nor a comment and splits it.
 * Returns 1 with a line, 0 at the end of the file, -1 on error.
 */
int kv_next(struct kv_reader *r, struct kv_line *out, GError **error);
/*
 * The two halves of kv_next(), for a reader with a faster path for the
 * lines it expects: the next line that is neither blank nor a comment, its
 * leading blanks skipped and left whole (valid until the next read), and
 * the splitting of such a line in place.  At least KV_SLACK bytes can be
 * read past the line's terminating NUL, so that short keys can be compared
 * and numbers read a word at a time (memcmp() or memcpy() of a constant
 * size) without looking for it.
 */
static inline int kv_next_text(struct kv_reader *r, char **line, GError **error);
/*
 * For a reader that reads the writer's own lines up to their newline and
 * needs no search for it first: the start of the next line, unread, with
 * KV_PEEK readable bytes from there, or NULL near the end of the block
 * (kv_next_text() then).  A line read there whole, no blank first, no
 * NUL, '\r' or second newline in it, and at most KV_PEEK bytes long, is
 * the line kv_next_text() would have returned: kv_take_text() consumes
 * it, up to its newline at nl.  Any other is left to kv_next_text().
 */
static inline const char *kv_peek_text(const struct kv_reader *r)
{
	return r->end - r->pos >= KV_PEEK ? r->block + r->pos : NULL;
}

static inline void kv_take_text(struct kv_reader *r, const char *nl)
{
	r->line++;
	r->pos = (size_t)(nl - r->block) + 1;
}

bool kv_split(const struct kv_reader *r, char *line, struct kv_line *out, GError **error);

/* Sets error to "PATH:LINE: FIELD: message"; field may be NULL. */
void kv_error(const struct kv_reader *r, GError **error, const char *field,
	      const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/*
 * Looks up key in the line and marks it used.  Returns NULL, without
 * error, when the key is absent.
 */
const char *kv_get(struct kv_line *l, const char *key);
/* Like kv_get, but an absent key is an error. */
const char *kv_need(const struct kv_reader *r, struct kv_line *l, const char *key,
		    GError **error);
/* After a record's keys were read: any key left unused is an error. */
bool kv_check_all_used(const struct kv_reader *r, const struct kv_line *l,
		       GError **error);

/* Strict decimal parsers with range checks; errors name the field. */
bool kv_u64(const struct kv_reader *r, const char *field, const char *value,
	    uint64_t min, uint64_t max, uint64_t *out, GError **error);
bool kv_s64(const struct kv_reader *r, const char *field, const char *value,
	    int64_t min, int64_t max, int64_t *out, GError **error);
bool kv_bool(const struct kv_reader *r, const char *field, const char *value,
	     bool *out, GError **error);

/*
 * ---- kv_next_text(), inline: it runs once a line ----
 *
 * Most lines are whole in the block, without a NUL, a '\r', or anything
 * to skip: they are taken inline, in the few steps of kvline.c's
 * read_line() and take_line() that apply to them.  Any other line, and
 * the end of the block, go the byte-exact way, errors included.
 */
int kv_next_text_slow(struct kv_reader *r, char **line, GError **error);

/* Whether a line starting with c has nothing to skip or cut: c is no blank, '#' or line end. */
static inline bool kv_starts_plain(unsigned char c)
{
	const uint64_t special = UINT64_C(1) << ' ' | UINT64_C(1) << '\t' | UINT64_C(1) << '\n' |
				 UINT64_C(1) << '\r' | UINT64_C(1) << '#';

	return c >= 64 || !(special >> c & 1);
}

static inline int kv_next_text(struct kv_reader *r, char **line, GError **error)
{
	char *s = r->block + r->pos;
	char *nl = memchr(s, '\n', MIN(r->end - r->pos, KV_LINE_MAX));
	size_t len;

	if (!nl || !kv_starts_plain(*s))
		return kv_next_text_slow(r, line, error);
	len = (size_t)(nl - s) + 1;
	/* A NUL in the line, or a '\r' to cut (there is a byte before nl: *s is not '\n'). */
	if (r->nul_at < r->pos + len || nl[-1] == '\r')
		return kv_next_text_slow(r, line, error);
	r->line++;
	r->pos += len;
	*nl = '\0';
	*line = s;
	return 1;
}

#endif /* TEOSIM_KVLINE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GLib key files with line numbers.  GKeyFile parses the values but forgets
 * where they were, and it silently merges a repeated group or keeps the last
 * of a repeated key.  This loader indexes the text itself so that every
 * error can name file:line:key, and it refuses repeats.
 */
#ifndef TEOSIM_KEYFILE_LINES_H
#define TEOSIM_KEYFILE_LINES_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* Platforms and scenarios are a few kilobytes: a larger file is refused, not loaded. */
#define KF_FILE_MAX	(1u << 20)

struct kf_file {
	char *path;
	GKeyFile *kf;
	GHashTable *lines;	/* "group\nkey" or "group" -> line number */
};

/* Loads path; errors (GLib's syntax errors, repeats) name the file and line. */
bool kf_load(struct kf_file *f, const char *path, GError **error);
void kf_clear(struct kf_file *f);

/* The line of a group, or of a key in it (key NULL for the group's header). */
unsigned long kf_line(const struct kf_file *f, const char *group, const char *key);

/* Sets error to "PATH:LINE: [GROUP] KEY: message"; key may be NULL. */
void kf_error(const struct kf_file *f, GError **error, const char *group, const char *key,
	      const char *fmt, ...) G_GNUC_PRINTF(5, 6);

/* Every key of group must be one of allowed (NULL-terminated). */
bool kf_check_keys(const struct kf_file *f, const char *group, const char *const *allowed,
		   GError **error);

/*
 * Typed getters.  With required false an absent key leaves *out untouched
 * and returns true; a present key must parse and lie in range.
 */
bool kf_get_string(const struct kf_file *f, const char *group, const char *key,
		   bool required, char **out, GError **error);
bool kf_get_u64(const struct kf_file *f, const char *group, const char *key, bool required,
		uint64_t min, uint64_t max, uint64_t *out, GError **error);
bool kf_get_double(const struct kf_file *f, const char *group, const char *key, bool required,
		   double min, double max, double *out, GError **error);
bool kf_get_bool(const struct kf_file *f, const char *group, const char *key, bool required,
		 bool *out, GError **error);

/* A name of 1 to max_len characters of [A-Za-z0-9_.-]. */
bool kf_valid_name(const char *s, size_t max_len);

#endif /* TEOSIM_KEYFILE_LINES_H */

// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "kvline.h"
#include "patch.h"
#include "small-file.h"

/* Far beyond any patch to one governor. */
#define PATCH_MAX_BYTES	(16u << 20)

/* The path of a "+++ b/path" line after -p1, or NULL for /dev/null or no path. */
static char *new_path(const char *line)
{
	const char *p = line + 4, *slash, *end;

	end = p + strcspn(p, "\t\r");
	slash = memchr(p, '/', (size_t)(end - p));
	if (!slash || !strncmp(p, "/dev/null", 9))
		return NULL;
	return g_strndup(slash + 1, (size_t)(end - slash - 1));
}

char *patch_hunk_header(const char *text, const char *file, unsigned int number)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	bool in_file = false;
	unsigned int hunk = 0;

	for (unsigned int l = 0; lines[l]; l++) {
		if (g_str_has_prefix(lines[l], "+++ ")) {
			g_autofree char *path = new_path(lines[l]);

			if (in_file)
				return NULL;
			in_file = path && !strcmp(path, file);
		} else if (in_file && g_str_has_prefix(lines[l], "@@ ") && ++hunk == number) {
			return g_strdup(g_strchomp(lines[l]));
		}
	}
	return NULL;
}

/*
 * patch's own account, one line per problem, with each failed hunk's @@
 * line from the patch text: "Hunk #2 FAILED at 471." under the file it
 * was patching.
 */
static char *explain(const char *output, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(output, "\n", -1);
	g_autoptr(GString) why = g_string_new(NULL);
	g_autofree char *file = NULL;

	for (unsigned int l = 0; lines[l]; l++) {
		const char *line = lines[l];
		unsigned int number, at;

		if (g_str_has_prefix(line, "patching file ")) {
			g_free(file);
			file = g_strdup(line + strlen("patching file "));
		} else if (sscanf(line, "Hunk #%u FAILED at %u", &number, &at) == 2) {
			g_autofree char *header = file ? patch_hunk_header(text, file, number) : NULL;

			g_string_append_printf(why, "\n  %s: hunk #%u %s does not apply (expected at line %u)",
					       file ? file : "?", number, header ? header : "", at);
		} else if (strstr(line, "can't find file to patch") ||
			   strstr(line, "No file to patch") || strstr(line, "malformed patch") ||
			   strstr(line, "Only garbage") || strstr(line, "Reversed") ||
			   strstr(line, "doesn't exist") || strstr(line, "unexpected end")) {
			g_string_append_printf(why, "\n  %s", g_strstrip(lines[l]));
		}
	}
	if (!why->len)
		g_string_append_printf(why, "\n  %s", g_strstrip((char *)output));
	return g_string_free(g_steal_pointer(&why), FALSE);
}

bool patch_apply(const char *patch, const char *dir, GError **error)
{
	g_autofree char *text = NULL, *out = NULL, *err = NULL, *why = NULL;
	g_autofree char *real = NULL;
	int status;
	size_t len;

	if (!small_file_read(patch, PATCH_MAX_BYTES, &text, &len, error))
		return false;
	if (!strstr(text, "\n@@ ") && !g_str_has_prefix(text, "@@ ")) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
			    "%s: not a unified diff: it has no hunk (@@ line)", patch);
		return false;
	}
	real = realpath(patch, NULL);
	const char *argv[] = { "patch", "-p1", "--batch", "--forward", "--fuzz=0",
			       "--no-backup-if-mismatch", "--directory", dir,
			       "--input", real, NULL };
	/* patch's messages in English, which explain() reads. */
	g_auto(GStrv) envp = g_environ_setenv(g_get_environ(), "LC_ALL", "C", TRUE);

	if (!real) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: no such file", patch);
		return false;
	}
	if (!g_spawn_sync(NULL, (char **)argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL,
			  &out, &err, &status, error))
		return false;
	if (g_spawn_check_wait_status(status, NULL))
		return true;
	why = explain(out, text);
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s does not apply:%s%s%s", patch,
		    why, err && *err ? "\n  " : "", err ? g_strstrip(err) : "");
	return false;
}

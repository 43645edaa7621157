// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include <glib.h>

#include "diagnostics.h"
#include "kernel-api.h"

/*
 * gcc's messages for what a translation unit uses but nothing declares,
 * each with the phrase that shows it and the words for what is missing.
 * %s are the quoted names, in order.
 */
static const struct {
	const char *pattern;	/* a GRegex over the message after "error: " */
	const char *what;	/* the missing thing; \1, \2 the pattern's groups */
} kinds[] = {
	{ "^implicit declaration of function '([^']+)'", "the function \\1()" },
	{ "^'([^']+)' undeclared", "the name \\1" },
	{ "^unknown type name '([^']+)'", "the type \\1" },
	{ "^'(struct|union) ([^']+)' has no member named '([^']+)'", "the field \\3 of \\1 \\2" },
	{ "^invalid use of undefined type '([^']+)'", "the definition of \\1" },
	{ "^([^ :]+\\.h): No such file or directory", "the header <\\1>" },
};

char *diagnostics_missing(const char *output, const char *api)
{
	g_autoptr(GRegex) located = g_regex_new(
		"^(.+):([0-9]+):[0-9]+: (?:fatal )?error: (.*)$", G_REGEX_MULTILINE, 0, NULL);
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GMatchInfo) m = NULL;

	for (g_regex_match(located, output, 0, &m); g_match_info_matches(m);
	     g_match_info_next(m, NULL)) {
		g_autofree char *file = g_match_info_fetch(m, 1);
		g_autofree char *line = g_match_info_fetch(m, 2);
		g_autofree char *message = g_match_info_fetch(m, 3);

		for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
			g_autoptr(GRegex) re = g_regex_new(kinds[k].pattern, 0, 0, NULL);
			g_autoptr(GMatchInfo) km = NULL;
			g_autofree char *what = NULL;

			if (!g_regex_match(re, message, 0, &km))
				continue;
			what = g_match_info_expand_references(km, kinds[k].what, NULL);
			/* gcc says it once per function; the first use is enough. */
			if (g_hash_table_add(seen, g_strdup(what)))
				g_string_append_printf(out, "%s:%s: uses %s, which kshim's %s API does not provide\n",
						       file, line, what, api);
			break;
		}
	}
	if (!out->len)
		return NULL;
	g_string_append_printf(out, "(kshim provides the APIs of %s; what each has is in kshim/README.md)",
			       KERNEL_API_LIST);
	return g_string_free(g_steal_pointer(&out), FALSE);
}

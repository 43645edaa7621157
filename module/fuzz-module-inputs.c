// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of what teosim build-governor reads from the user's files
 * and from the compiler: a kernel Makefile's version lines, a patch's
 * hunks, gcc's errors.  Beyond not crashing: a version read is three
 * numbers that read back the same; a hunk found is an @@ line of the
 * input; every line of an explanation says what is missing.
 */
#include <string.h>

#include <glib.h>

#include "diagnostics.h"
#include "fuzz-input.h"
#include "kernel-api.h"
#include "patch.h"

static void check_version(const char *text)
{
	GError *error = NULL;
	g_autofree char *version = kernel_version_parse(text, "Makefile", &error);
	g_autofree char *again = NULL, *lines = NULL;
	g_auto(GStrv) parts = NULL;

	FUZZ_ASSERT(!version == !!error);
	if (!version) {
		FUZZ_ASSERT(g_str_has_prefix(error->message, "Makefile"));
		g_error_free(error);
		return;
	}
	parts = g_strsplit(version, ".", -1);
	FUZZ_ASSERT(g_strv_length(parts) == 3);
	lines = g_strdup_printf("VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n",
				parts[0], parts[1], parts[2]);
	again = kernel_version_parse(lines, "Makefile", NULL);
	FUZZ_ASSERT(again && !strcmp(again, version));
}

static void check_hunks(const char *text)
{
	for (unsigned int n = 1; n <= 3; n++) {
		g_autofree char *header = patch_hunk_header(text, "drivers/cpuidle/governors/teo.c", n);

		/* An @@ line of the input, its trailing blanks dropped. */
		FUZZ_ASSERT(!header || (g_str_has_prefix(header, "@@") && strstr(text, header)));
	}
}

static void check_diagnostics(const char *text)
{
	g_autofree char *missing = diagnostics_missing(text, "6.12");
	g_auto(GStrv) lines = NULL;
	guint n;

	if (!missing)
		return;
	lines = g_strsplit(missing, "\n", -1);
	n = g_strv_length(lines);
	FUZZ_ASSERT(n >= 2 && g_str_has_prefix(lines[n - 1], "(kshim provides the APIs of "));
	for (guint i = 0; i + 1 < n; i++)
		FUZZ_ASSERT(strstr(lines[i], ": uses ") &&
			    g_str_has_suffix(lines[i], ", which kshim's 6.12 API does not provide"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = g_strndup((const char *)data, size);

	check_version(text);
	check_hunks(text);
	check_diagnostics(text);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Finding a hunk by its number among the hunks of one file of a patch. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>
#include <glib.h>

#include "patch.h"

static const char patch[] =
	"From: someone\nSubject: two files\n---\n"
	"diff --git a/drivers/cpuidle/governors/gov.h b/drivers/cpuidle/governors/gov.h\n"
	"--- a/drivers/cpuidle/governors/gov.h\n"
	"+++ b/drivers/cpuidle/governors/gov.h\n"
	"@@ -1 +1 @@ gov\n-a\n+b\n"
	"--- a/drivers/cpuidle/governors/teo.c\t2024-01-01 00:00:00\n"
	"+++ b/drivers/cpuidle/governors/teo.c\t2024-01-01 00:00:00\n"
	"@@ -10,3 +10,3 @@ static int first\n x\n-y\n+z\n x\n"
	"@@ -200 +200 @@ static int second\r\n-p\n+q\n"
	"--- /dev/null\n+++ b/drivers/cpuidle/governors/new.c\n@@ -0,0 +1 @@\n+n\n";

static void test_hunks(void **state)
{
	g_autofree char *first = patch_hunk_header(patch, "drivers/cpuidle/governors/teo.c", 1);
	g_autofree char *second = patch_hunk_header(patch, "drivers/cpuidle/governors/teo.c", 2);
	g_autofree char *gov = patch_hunk_header(patch, "drivers/cpuidle/governors/gov.h", 1);
	g_autofree char *created = patch_hunk_header(patch, "drivers/cpuidle/governors/new.c", 1);

	(void)state;
	assert_string_equal(first, "@@ -10,3 +10,3 @@ static int first");
	/* The timestamp after a tab and a CR at the end are not part of it. */
	assert_string_equal(second, "@@ -200 +200 @@ static int second");
	assert_string_equal(gov, "@@ -1 +1 @@ gov");
	assert_string_equal(created, "@@ -0,0 +1 @@");
	/* Past the last hunk of a file, of a file it does not change, hunk 0. */
	assert_null(patch_hunk_header(patch, "drivers/cpuidle/governors/teo.c", 3));
	assert_null(patch_hunk_header(patch, "drivers/cpuidle/governors/gov.h", 2));
	assert_null(patch_hunk_header(patch, "drivers/cpuidle/governors/menu.c", 1));
	assert_null(patch_hunk_header(patch, "drivers/cpuidle/governors/teo.c", 0));
	assert_null(patch_hunk_header("+++ b\n@@ x\n", "b", 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hunks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * gcc's errors, as gcc 12 writes them with LC_ALL=C, told as what kshim
 * lacks; anything else left to the compiler's own words.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>
#include <glib.h>

#include "diagnostics.h"

#define TAIL	"(kshim provides the APIs of 4.20, 6.1 and 6.12; what each has is in kshim/README.md)"

static void test_each_kind(void **state)
{
	static const char output[] =
		"teo.c: In function 'teo_select':\n"
		"teo.c:301:9: error: implicit declaration of function 'tick_nohz_frob' [-Werror=implicit-function-declaration]\n"
		"  301 |         tick_nohz_frob(dev->cpu);\n"
		"      |         ^~~~~~~~~~~~~~\n"
		"teo.c:302:12: error: 'struct cpuidle_device' has no member named 'frobs'\n"
		"teo.c:303:5: error: 'FROB_MAX' undeclared (first use in this function)\n"
		"teo.c:303:5: note: each undeclared identifier is reported only once for each function it appears in\n"
		"teo.c:40:1: error: unknown type name 'frob_t'\n"
		"teo.c:310:9: error: implicit declaration of function 'tick_nohz_frob' [-Werror=implicit-function-declaration]\n"
		"teo.c:50:22: error: invalid use of undefined type 'struct frob'\n"
		"cc1: some warnings being treated as errors\n";
	g_autofree char *got = diagnostics_missing(output, "6.12");

	(void)state;
	/* Each in the compiler's order, and the function's second use not again. */
	assert_string_equal(got,
		"teo.c:301: uses the function tick_nohz_frob(), which kshim's 6.12 API does not provide\n"
		"teo.c:302: uses the field frobs of struct cpuidle_device, which kshim's 6.12 API does not provide\n"
		"teo.c:303: uses the name FROB_MAX, which kshim's 6.12 API does not provide\n"
		"teo.c:40: uses the type frob_t, which kshim's 6.12 API does not provide\n"
		"teo.c:50: uses the definition of struct frob, which kshim's 6.12 API does not provide\n"
		TAIL);
}

static void test_missing_header(void **state)
{
	static const char output[] =
		"drivers/cpuidle/governors/menu.c:19:10: fatal error: linux/frob.h: No such file or directory\n"
		"   19 | #include <linux/frob.h>\n"
		"compilation terminated.\n";
	g_autofree char *got = diagnostics_missing(output, "6.1");

	(void)state;
	assert_string_equal(got,
		"drivers/cpuidle/governors/menu.c:19: uses the header <linux/frob.h>, which kshim's 6.1 API does not provide\n"
		TAIL);
}

static void test_other_errors(void **state)
{
	(void)state;
	/* A syntax error is the governor's own: no claim about kshim. */
	assert_null(diagnostics_missing("teo.c:12:1: error: expected ';' before '}' token\n", "6.12"));
	assert_null(diagnostics_missing("", "6.12"));
	assert_null(diagnostics_missing("cc: fatal error: no input files\n", "6.12"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_kind),
		cmocka_unit_test(test_missing_header),
		cmocka_unit_test(test_other_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Platform loading: the bundled tables against the kernel's numbers (from
 * Linux 6.1 intel_idle.c and the device trees, as listed in each test), the
 * error paths of the key-file reader, and a fake sysfs directory.
 */
#include "keyfile-lines.h"
#include "platform.h"
#include "test-files.h"

/* A valid platform; the tests below replace one line of it.  Line numbers in the comments. */
static const char base[] =
	"[platform]\n"			/* 1 */
	"name=test\n"			/* 2 */
	"description=a test\n"		/* 3 */
	"source=by hand\n"		/* 4 */
	"busy_power_mw=1000\n"		/* 5 */
	"\n"				/* 6 */
	"[state0]\n"			/* 7 */
	"name=POLL\n"			/* 8 */
	"exit_latency_us=0\n"		/* 9 */
	"target_residency_us=0\n"	/* 10 */
	"flags=polling\n"		/* 11 */
	"power_mw=1000\n"		/* 12 */
	"power_assumed=true\n"		/* 13 */
	"\n"				/* 14 */
	"[state1]\n"			/* 15 */
	"name=C1\n"			/* 16 */
	"exit_latency_us=2\n"		/* 17 */
	"target_residency_us=2\n"	/* 18 */
	"power_mw=300\n"		/* 19 */
	"power_assumed=true\n"		/* 20 */
	"\n"				/* 21 */
	"[state2]\n"			/* 22 */
	"name=C6\n"			/* 23 */
	"exit_latency_us=100\n"		/* 24 */
	"target_residency_us=400\n"	/* 25 */
	"power_mw=20\n"			/* 26 */
	"power_assumed=false\n"		/* 27 */
	"disabled=true\n";		/* 28 */

struct expected_state {
	const char *name;
	uint32_t exit_us, residency_us;
	bool polling;
};

struct expected_platform {
	const char *name;
	unsigned int state_count;
	struct expected_state states[KSHIM_STATE_MAX];
};

/*
 * The kernel's numbers, each from the source named beside it.  intel_idle
 * and acpi_idle add POLL 0/0 before their tables; the Arm device trees
 * have none, and their exit latency is the binding's entry + exit latency.
 */
static const struct expected_platform bundled[] = {
	/* skx_cstates: C1 2/2, C1E 10/20, C6 133/600. */
	{ "skx", 4, { { "POLL", 0, 0, true }, { "C1", 2, 2, false }, { "C1E", 10, 20, false },
		      { "C6", 133, 600, false } } },
	/* icx_cstates: C1 1/1, C1E 4/4, C6 170/600. */
	{ "icx", 4, { { "POLL", 0, 0, true }, { "C1", 1, 1, false }, { "C1E", 4, 4, false },
		      { "C6", 170, 600, false } } },
	/* spr_cstates: C1 1/1, C1E 2/4, C6 290/800. */
	{ "spr", 4, { { "POLL", 0, 0, true }, { "C1", 1, 1, false }, { "C1E", 2, 4, false },
		      { "C6", 290, 800, false } } },
	/* hsw_cstates. */
	{ "hsw", 9, { { "POLL", 0, 0, true }, { "C1", 2, 2, false }, { "C1E", 10, 20, false },
		      { "C3", 33, 100, false }, { "C6", 133, 400, false }, { "C7s", 166, 500, false },
		      { "C8", 300, 900, false }, { "C9", 600, 1800, false }, { "C10", 2600, 7700, false } } },
	/* skl_cstates. */
	{ "skl", 9, { { "POLL", 0, 0, true }, { "C1", 2, 2, false }, { "C1E", 10, 20, false },
		      { "C3", 70, 100, false }, { "C6", 85, 200, false }, { "C7s", 124, 800, false },
		      { "C8", 200, 800, false }, { "C9", 480, 5000, false }, { "C10", 890, 5000, false } } },
	/*
	 * rk3399.dtsi: cpu-sleep entry 120 + exit 250 = 370, min-residency 900;
	 * cluster-sleep 400 + 500 = 900, 2000; cpuidle-psci's WFI 1/1.
	 */
	{ "rk3399", 3, { { "WFI", 1, 1, false }, { "cpu-sleep", 370, 900, false },
			 { "cluster-sleep", 900, 2000, false } } },
	/*
	 * A Ryzen 7 PRO 4750U board's _CST (C1 1, C2 18, C3 350 us); acpi_idle
	 * adds POLL and makes each target residency twice the latency.
	 */
	{ "amd-renoir", 4, { { "POLL", 0, 0, true }, { "C1", 1, 2, false }, { "C2", 18, 36, false },
			     { "C3", 350, 700, false } } },
	/* juno.dts: cpu-sleep-0 300 + 1200 = 1500, 2000; cluster-sleep-0 400 + 1200 = 1600, 2500. */
	{ "juno", 3, { { "WFI", 1, 1, false }, { "cpu-sleep-0", 1500, 2000, false },
		       { "cluster-sleep-0", 1600, 2500, false } } },
};

static void expect_state(const struct platform *p, unsigned int i, const char *name,
			 uint32_t exit_us, uint32_t residency_us, bool polling)
{
	assert_true(i < p->state_count);
	assert_string_equal(p->states[i].desc.name, name);
	assert_int_equal(p->states[i].desc.exit_latency_us, exit_us);
	assert_int_equal(p->states[i].desc.target_residency_us, residency_us);
	assert_int_equal(p->states[i].desc.polling, polling);
}

static void load_bundled(const char *name, struct platform *p)
{
	g_autoptr(GError) error = NULL;

	if (!platform_load(name, p, &error))
		fail_msg("%s: %s", name, error->message);
	assert_string_equal(p->name, name);
	assert_non_null(p->source);
	assert_non_null(p->description);
}

/* Each bundled table, state by state, against the kernel's numbers above. */
static void test_bundled_tables(void **state)
{
	(void)state;
	for (size_t k = 0; k < G_N_ELEMENTS(bundled); k++) {
		const struct expected_platform *want = &bundled[k];
		struct platform p;

		load_bundled(want->name, &p);
		print_message("%s\n", want->name);
		assert_int_equal(p.state_count, want->state_count);
		for (unsigned int i = 0; i < want->state_count; i++)
			expect_state(&p, i, want->states[i].name, want->states[i].exit_us,
				     want->states[i].residency_us, want->states[i].polling);
		platform_clear(&p);
	}
}

/* Every file in the platform directory loads, including any added later. */
static void test_every_bundled_platform_loads(void **state)
{
	g_autoptr(GDir) dir = g_dir_open(platform_dir(), 0, NULL);
	unsigned int n = 0;
	const char *name;

	(void)state;
	assert_non_null(dir);
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *path = g_build_filename(platform_dir(), name, NULL);
		g_autoptr(GError) error = NULL;
		struct platform p;

		if (!g_str_has_suffix(name, ".platform"))
			continue;
		if (!platform_load(path, &p, &error))
			fail_msg("%s", error->message);
		for (unsigned int i = 0; i < p.state_count; i++)
			assert_true(p.states[i].power_mw <= p.busy_power_mw);
		platform_clear(&p);
		n++;
	}
	assert_true(n >= 7);
}

static void test_base_loads(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "t.platform", base, -1);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	if (!platform_load(path, &p, &error))
		fail_msg("%s", error->message);
	assert_string_equal(p.name, "test");
	assert_true(p.busy_power_mw == 1000);
	assert_int_equal(p.state_count, 3);
	expect_state(&p, 2, "C6", 100, 400, false);
	assert_true(p.states[1].power_mw == 300 && p.states[1].power_assumed);
	assert_true(p.states[2].power_mw == 20 && !p.states[2].power_assumed);
	assert_true(p.states[2].desc.disabled && !p.states[1].desc.disabled);
	/* No idle_entry_pct: idle_entry_us is the whole lag. */
	assert_int_equal(p.idle_entry_pct, 100);
	platform_clear(&p);
	test_rmtree(dir);
}

/* base with one line replaced must fail naming that file, line and key. */
static void expect_error(unsigned int replace, const char *with, unsigned long line,
			 const char *key)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *text = test_replace_line(base, replace, with);
	g_autofree char *path = test_write(dir, "bad.platform", text, -1);
	g_autoptr(GError) error = NULL;
	struct platform p;

	if (platform_load(path, &p, &error))
		fail_msg("line %u '%s' was accepted", replace, with);
	test_assert_names(error, path, line, key);
	test_rmtree(dir);
}

static void test_unknown_key(void **state)
{
	(void)state;
	expect_error(20, "power_assumed=true\nvoltage=3", 21, "voltage");
	expect_error(3, "descripton=typo", 3, "descripton");
}

static void test_unknown_group(void **state)
{
	(void)state;
	expect_error(21, "[bogus]", 21, "bogus");
	expect_error(21, "[ab]", 21, "ab");
	expect_error(21, "[state01]", 21, "state01");
}

/* An absent key has no line of its own: the error points at its group. */
static void test_missing_key(void **state)
{
	(void)state;
	expect_error(17, "", 15, "exit_latency_us");
	expect_error(2, "", 1, "name");
	expect_error(27, "", 22, "power_assumed");
}

static void test_too_many_states(void **state)
{
	(void)state;
	expect_error(22, "[state10]", 22, "state10");
}

static void test_no_states(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = test_write(dir, "empty.platform",
					   "[platform]\nname=x\ndescription=x\nsource=x\n"
					   "busy_power_mw=1\n", -1);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	assert_false(platform_load(path, &p, &error));
	test_assert_names(error, path, 1, "state0");
	test_rmtree(dir);
}

static void test_gap_in_states(void **state)
{
	(void)state;
	expect_error(22, "[state3]", 22, "state2");
}

static void test_bad_names(void **state)
{
	(void)state;
	expect_error(16, "name=ABCDEFGHIJKLMNOP", 16, "name");	/* 16 characters */
	expect_error(16, "name=", 16, "name");
	expect_error(16, "name=C 1", 16, "name");
	expect_error(23, "name=C1", 23, "name");		/* state1's name again */
}

static void test_residency_goes_down(void **state)
{
	(void)state;
	expect_error(25, "target_residency_us=1", 25, "target_residency_us");
}

static void test_equal_residencies_accepted(void **state)
{
	g_autofree char *dir = test_tmpdir();
	/* state2 gets state1's residency (2) and an exit latency that fits it. */
	g_autofree char *t1 = test_replace_line(base, 25, "target_residency_us=2");
	g_autofree char *t2 = test_replace_line(t1, 24, "exit_latency_us=2");
	g_autofree char *path = test_write(dir, "eq.platform", t2, -1);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	if (!platform_load(path, &p, &error))
		fail_msg("%s", error->message);
	platform_clear(&p);
	test_rmtree(dir);
}

static void test_exit_exceeds_residency(void **state)
{
	(void)state;
	expect_error(17, "exit_latency_us=3", 17, "exit_latency_us");
}

static void test_polling_not_state0(void **state)
{
	(void)state;
	expect_error(20, "power_assumed=true\nflags=polling", 21, "flags");
	expect_error(11, "flags=spinning", 11, "flags");
}

static void test_bad_power(void **state)
{
	(void)state;
	expect_error(19, "power_mw=-5", 19, "power_mw");
	expect_error(26, "power_mw=400", 26, "power_mw");	/* above state1's 300 */
	expect_error(19, "power_mw=2000", 19, "power_mw");	/* above busy and POLL */
	expect_error(19, "power_mw=nan", 19, "power_mw");
	expect_error(20, "power_assumed=maybe", 20, "power_assumed");
}

static void test_bad_numbers(void **state)
{
	(void)state;
	expect_error(24, "exit_latency_us=12abc", 24, "exit_latency_us");
	expect_error(24, "exit_latency_us=-1", 24, "exit_latency_us");
	expect_error(24, "exit_latency_us=4294967296", 24, "exit_latency_us");	/* 2^32 */
	expect_error(24, "exit_latency_us=99999999999999999999999", 24, "exit_latency_us");
}

/*
 * A share of the way from the switch to the entry is a percentage; the
 * entry time after a held-up way, microseconds as the other costs.
 */
static void test_idle_entry_keys(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *text = test_replace_line(base, 5, "busy_power_mw=1000\nidle_entry_pct=50\n"
						  "idle_entry_held_us=4");
	g_autofree char *path = test_write(dir, "t.platform", text, -1);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	if (!platform_load(path, &p, &error))
		fail_msg("%s", error->message);
	assert_int_equal(p.idle_entry_pct, 50);
	assert_int_equal(p.idle_entry_held_us, 4);
	platform_clear(&p);
	test_rmtree(dir);
	expect_error(5, "busy_power_mw=1000\nidle_entry_pct=101", 6, "idle_entry_pct");
	expect_error(5, "busy_power_mw=1000\nidle_entry_pct=-1", 6, "idle_entry_pct");
	expect_error(5, "busy_power_mw=1000\nidle_entry_held_us=-4", 6, "idle_entry_held_us");
	expect_error(5, "busy_power_mw=1000\nidle_entry_held_us=4294967296", 6,
		     "idle_entry_held_us");
}

static void test_repeats_and_syntax(void **state)
{
	(void)state;
	expect_error(18, "target_residency_us=2\nexit_latency_us=3", 19, "exit_latency_us");
	expect_error(21, "[state0]", 21, "state0");
	expect_error(6, "garbage", 6, NULL);
}

static void test_unknown_bundled_name(void **state)
{
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	assert_false(platform_load("no-such-cpu", &p, &error));
	assert_non_null(strstr(error->message, "no-such-cpu"));
	assert_non_null(strstr(error->message, "rk3399, skl, skx, spr"));
}

/* A fake cpuidle directory; each state is "name latency residency disable power". */
static char *fake_sysfs(const char *const states[][5], unsigned int n)
{
	char *dir = test_tmpdir();
	static const char *const files[] = { "name", "latency", "residency", "disable", "power" };

	for (unsigned int i = 0; i < n; i++) {
		g_autofree char *sub = g_strdup_printf("%s/state%u", dir, i);

		assert_int_equal(g_mkdir(sub, 0755), 0);
		for (unsigned int f = 0; f < 5; f++) {
			g_autofree char *text = NULL;

			if (!states[i][f])
				continue;
			text = g_strconcat(states[i][f], "\n", NULL);
			g_free(test_write(sub, files[f], text, -1));
		}
	}
	return dir;
}

static void test_sysfs_assumed_power(void **state)
{
	static const char *const states[][5] = {
		{ "POLL", "0", "0", "0", "4294967295" },
		{ "C1", "2", "2", "0", "0" },
		{ "C6", "133", "600", "1", "0" },
	};
	g_autofree char *dir = fake_sysfs(states, 3);
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	if (!platform_load(spec, &p, &error))
		fail_msg("%s", error->message);
	assert_int_equal(p.state_count, 3);
	expect_state(&p, 0, "POLL", 0, 0, true);
	expect_state(&p, 1, "C1", 2, 2, false);
	expect_state(&p, 2, "C6", 133, 600, false);
	assert_true(p.states[2].desc.disabled && !p.states[1].desc.disabled);
	/* The documented assumption: busy 1000, POLL as busy, then 30% and half of that. */
	assert_true(p.busy_power_mw == 1000);
	assert_true(p.states[0].power_mw == 1000 && p.states[0].power_assumed);
	assert_true(p.states[1].power_mw == 300 && p.states[1].power_assumed);
	assert_true(p.states[2].power_mw == 150 && p.states[2].power_assumed);
	platform_clear(&p);
	test_rmtree(dir);
}

/* cpuidle-haltpoll (a KVM guest) names its state "haltpoll idle". */
static void test_sysfs_name_with_space(void **state)
{
	static const char *const states[][5] = {
		{ "POLL", "0", "0", "0", "4294967295" },
		{ "haltpoll idle", "1", "1", "0", "4294967295" },
	};
	g_autofree char *dir = fake_sysfs(states, 2);
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	if (!platform_load(spec, &p, &error))
		fail_msg("%s", error->message);
	expect_state(&p, 1, "haltpoll_idle", 1, 1, false);
	platform_clear(&p);
	test_rmtree(dir);
}

static void test_sysfs_reported_power(void **state)
{
	static const char *const states[][5] = {
		{ "C1", "3", "3", NULL, "500" },
		{ "C3", "100", "300", NULL, "100" },
	};
	g_autofree char *dir = fake_sysfs(states, 2);
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	if (!platform_load(spec, &p, &error))
		fail_msg("%s", error->message);
	assert_true(p.states[0].power_mw == 500 && !p.states[0].power_assumed);
	assert_true(p.states[1].power_mw == 100 && !p.states[1].power_assumed);
	assert_false(p.states[0].desc.polling);
	assert_true(p.busy_power_mw == 1000);
	platform_clear(&p);
	test_rmtree(dir);
}

/* ACPI-style figures above the assumed 1000 mW busy power raise it. */
static void test_sysfs_reported_power_above_busy(void **state)
{
	static const char *const states[][5] = {
		{ "POLL", "0", "0", NULL, "4294967295" },
		{ "C1", "1", "1", NULL, "1500" },
		{ "C2", "50", "150", NULL, "700" },
	};
	g_autofree char *dir = fake_sysfs(states, 3);
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	if (!platform_load(spec, &p, &error))
		fail_msg("%s", error->message);
	assert_true(p.busy_power_mw == 1500);
	assert_true(p.states[0].power_mw == 1500 && p.states[0].power_assumed);
	assert_true(p.states[1].power_mw == 1500 && !p.states[1].power_assumed);
	assert_true(p.states[2].power_mw == 700);
	platform_clear(&p);
	test_rmtree(dir);
}

static void expect_sysfs_error(const char *const states[][5], unsigned int n,
			       const char *file, const char *field)
{
	g_autofree char *dir = fake_sysfs(states, n);
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autoptr(GError) error = NULL;
	struct platform p;

	assert_false(platform_load(spec, &p, &error));
	test_assert_names(error, path, 1, field);
	test_rmtree(dir);
}

static void test_sysfs_errors(void **state)
{
	static const char *const bad_latency[][5] = {
		{ "POLL", "0", "0", "0", NULL }, { "C1", "abc", "2", "0", NULL },
	};
	static const char *const residency_down[][5] = {
		{ "C1", "1", "10", "0", NULL }, { "C2", "2", "5", "0", NULL },
	};
	static const char *const long_name[][5] = {
		{ "ABCDEFGHIJKLMNOP", "1", "1", "0", NULL },
	};
	static const char *const too_big[][5] = {
		{ "C1", "4294967296", "1", "0", NULL },
	};
	static const char *const polling_late[][5] = {
		{ "C1", "1", "1", "0", NULL }, { "POLL", "1", "1", "0", NULL },
	};

	(void)state;
	expect_sysfs_error(bad_latency, 2, "state1/latency", "latency");
	expect_sysfs_error(residency_down, 2, "state1/residency", "residency");
	expect_sysfs_error(long_name, 1, "state0/name", "name");
	expect_sysfs_error(too_big, 1, "state0/latency", "latency");
	expect_sysfs_error(polling_late, 2, "state1/name", "name");
}

/* Key files and sysfs attributes are small by nature: a huge one is refused before it is loaded. */
static void test_oversized_files(void **state)
{
	static const char *const one_state[][5] = { { "C1", "1", "1", "0", NULL } };
	g_autofree char *dir = fake_sysfs(one_state, 1);
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autofree char *attr = g_build_filename(dir, "state0", "latency", NULL);
	g_autofree char *padded = g_strnfill(KF_FILE_MAX, '#');
	g_autofree char *one_more = g_strconcat(padded, "\n", NULL);
	g_autofree char *zeros = g_strnfill(5000, '0');
	g_autofree char *huge = NULL;
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	/* Exactly the limit is still read (and refused for what it holds), one byte more is not. */
	huge = test_write(dir, "huge.platform", padded, KF_FILE_MAX);
	assert_false(platform_load(huge, &p, &error));
	assert_null(strstr(error->message, "larger than"));
	g_clear_error(&error);
	g_free(huge);
	huge = test_write(dir, "huge.platform", one_more, KF_FILE_MAX + 1);
	assert_false(platform_load(huge, &p, &error));
	test_assert_names(error, huge, 0, "larger than 1048576 bytes");
	g_clear_error(&error);
	g_free(test_write(dir, "state0/latency", zeros, -1));
	assert_false(platform_load(spec, &p, &error));
	test_assert_names(error, attr, 0, "larger than 4096 bytes");
	test_rmtree(dir);
}

static void test_sysfs_missing(void **state)
{
	static const char *const no_residency[][5] = {
		{ "C1", "1", NULL, "0", NULL },
	};
	g_autofree char *dir = fake_sysfs(no_residency, 1);
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autoptr(GError) error = NULL;
	struct platform p;

	(void)state;
	assert_false(platform_load(spec, &p, &error));
	assert_non_null(strstr(error->message, "state0/residency"));
	g_clear_error(&error);
	assert_false(platform_load("sysfs:/nonexistent/cpuidle", &p, &error));
	assert_non_null(strstr(error->message, "/nonexistent/cpuidle"));
	test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bundled_tables),
		cmocka_unit_test(test_every_bundled_platform_loads),
		cmocka_unit_test(test_base_loads),
		cmocka_unit_test(test_idle_entry_keys),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_unknown_group),
		cmocka_unit_test(test_missing_key),
		cmocka_unit_test(test_too_many_states),
		cmocka_unit_test(test_no_states),
		cmocka_unit_test(test_gap_in_states),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_residency_goes_down),
		cmocka_unit_test(test_equal_residencies_accepted),
		cmocka_unit_test(test_exit_exceeds_residency),
		cmocka_unit_test(test_polling_not_state0),
		cmocka_unit_test(test_bad_power),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_repeats_and_syntax),
		cmocka_unit_test(test_unknown_bundled_name),
		cmocka_unit_test(test_sysfs_assumed_power),
		cmocka_unit_test(test_sysfs_name_with_space),
		cmocka_unit_test(test_sysfs_reported_power),
		cmocka_unit_test(test_sysfs_reported_power_above_busy),
		cmocka_unit_test(test_sysfs_errors),
		cmocka_unit_test(test_sysfs_missing),
		cmocka_unit_test(test_oversized_files),
	};

	/* The bundled platforms of this source tree, not an installed copy. */
	g_setenv("TEOSIM_PLATFORM_DIR", TEOSIM_SOURCE_ROOT "/traces/platforms", TRUE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Platform files written by capture-platform load back, through the same
 * loader --platform uses, as the table they were written from.
 */
#include <glib/gstdio.h>

#include "platform-write.h"
#include "test-files.h"

static void assert_same_states(const struct platform *a, const struct platform *b)
{
	assert_int_equal(a->state_count, b->state_count);
	assert_true(a->busy_power_mw == b->busy_power_mw);
	for (unsigned int i = 0; i < a->state_count; i++) {
		const struct platform_state *x = &a->states[i], *y = &b->states[i];

		assert_string_equal(x->desc.name, y->desc.name);
		assert_int_equal(x->desc.exit_latency_us, y->desc.exit_latency_us);
		assert_int_equal(x->desc.target_residency_us, y->desc.target_residency_us);
		assert_int_equal(x->desc.polling, y->desc.polling);
		assert_int_equal(x->desc.disabled, y->desc.disabled);
		assert_true(x->power_mw == y->power_mw);
		assert_int_equal(x->power_assumed, y->power_assumed);
	}
}

/* Writes p to dir/name.platform and loads it back. */
static void round_trip(const struct platform *p, const char *dir, const char *name,
		       struct platform *back)
{
	g_autofree char *file = g_strconcat(name, ".platform", NULL);
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autoptr(GError) error = NULL;
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	platform_write(f, p, name);
	assert_int_equal(fclose(f), 0);
	if (!platform_load(path, back, &error))
		fail_msg("%s", error->message);
}

static void test_bundled_platform_round_trip(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autoptr(GError) error = NULL;
	struct platform skx, back;

	(void)state;
	assert_true(platform_load("skx", &skx, &error));
	round_trip(&skx, dir, "skx-copy", &back);
	assert_string_equal(back.name, "skx-copy");
	assert_string_equal(back.description, skx.description);
	assert_string_equal(back.source, skx.source);
	assert_same_states(&skx, &back);
	platform_clear(&skx);
	platform_clear(&back);
	test_rmtree(dir);
}

/* qemu-tcg has every cost a capture's platform can carry; a copy keeps them. */
static void test_costs_round_trip(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autoptr(GError) error = NULL;
	struct platform tcg, back;

	(void)state;
	assert_true(platform_load("qemu-tcg", &tcg, &error));
	assert_int_not_equal(tcg.idle_entry_pct, 100);
	assert_int_not_equal(tcg.idle_entry_held_us, 0);
	round_trip(&tcg, dir, "tcg-copy", &back);
	assert_same_states(&tcg, &back);
	assert_int_equal(back.timer_latency_us, tcg.timer_latency_us);
	assert_int_equal(back.poll_check_us, tcg.poll_check_us);
	assert_int_equal(back.idle_loop_us, tcg.idle_loop_us);
	assert_int_equal(back.tick_work_us, tcg.tick_work_us);
	assert_int_equal(back.select_lead_us, tcg.select_lead_us);
	assert_int_equal(back.tick_stop_us, tcg.tick_stop_us);
	assert_int_equal(back.idle_entry_us, tcg.idle_entry_us);
	assert_int_equal(back.idle_entry_pct, tcg.idle_entry_pct);
	assert_int_equal(back.idle_entry_held_us, tcg.idle_entry_held_us);
	assert_int_equal(back.residency_gap_us, tcg.residency_gap_us);
	for (unsigned int i = 0; i < tcg.state_count; i++)
		assert_int_equal(back.states[i].exit_cost_us, tcg.states[i].exit_cost_us);
	platform_clear(&tcg);
	platform_clear(&back);
	test_rmtree(dir);
}

static void write_state(const char *root, unsigned int i, const char *name, const char *latency,
			const char *residency, const char *disable)
{
	g_autofree char *sub = g_strdup_printf("%s/state%u", root, i);

	assert_int_equal(g_mkdir_with_parents(sub, 0755), 0);
	g_free(test_write(sub, "name", name, -1));
	g_free(test_write(sub, "latency", latency, -1));
	g_free(test_write(sub, "residency", residency, -1));
	g_free(test_write(sub, "disable", disable, -1));
}

/* A copy of a machine's cpuidle directory with a disabled state, as capture-platform reads it. */
static void test_sysfs_copy_round_trip(void **state)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *cpuidle = g_build_filename(dir, "cpuidle", NULL);
	g_autofree char *spec = g_strconcat("sysfs:", cpuidle, NULL);
	g_autoptr(GError) error = NULL;
	struct platform live, back;

	(void)state;
	write_state(cpuidle, 0, "POLL\n", "0\n", "0\n", "0\n");
	write_state(cpuidle, 1, "C1\n", "1\n", "1\n", "0\n");
	write_state(cpuidle, 2, "C1E\n", "10\n", "20\n", "1\n");
	write_state(cpuidle, 3, "C6\n", "170\n", "600\n", "0\n");
	if (!platform_load(spec, &live, &error))
		fail_msg("%s", error->message);
	round_trip(&live, dir, "mybox", &back);
	assert_string_equal(back.name, "mybox");
	assert_same_states(&live, &back);
	assert_true(back.states[0].desc.polling);
	assert_true(back.states[2].desc.disabled);
	assert_true(back.states[3].power_assumed);
	platform_clear(&live);
	platform_clear(&back);
	test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bundled_platform_round_trip),
		cmocka_unit_test(test_costs_round_trip),
		cmocka_unit_test(test_sysfs_copy_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

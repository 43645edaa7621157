// SPDX-License-Identifier: GPL-2.0
/*
 * teosim fidelity's comparison (import/fidelity.c): the total variation
 * distance, the real side of a hand-made capture counted by hand, the
 * kernel's inputs found in a hand-written call log, the PM QoS limit taken
 * from it, the select lead and tick stop cost measured from a generated
 * one, the warm-up, and the runs of polling periods.  The simulated side
 * is whatever the governor does; here only its consistency with the
 * figures is checked (the differing decisions are counted again from the
 * periods), but for the generated capture, where the model cannot see the
 * kernel's timers.
 */
#include <math.h>

#include <kshim/registry.h>

#include "fidelity.h"
#include "test-import-helpers.h"

/* Shares 3/4, 1/4, 0 against 1/4, 1/4, 1/2: half of 1/2 + 0 + 1/2. */
static void test_tvd(void **state)
{
	const uint64_t a[] = { 3, 1, 0 }, b[] = { 1, 1, 2 }, c[] = { 30, 10, 0 };
	const uint64_t none[] = { 0, 0, 0 };

	(void)state;
	assert_true(fabs(fidelity_tvd(a, b, 3) - 0.5) < 1e-12);
	assert_true(fabs(fidelity_tvd(b, a, 3) - 0.5) < 1e-12);
	assert_true(fidelity_tvd(a, c, 3) == 0.0);	/* the same shares */
	assert_true(fidelity_tvd(none, none, 3) == 0.0);
	assert_true(fidelity_tvd(a, none, 3) == 1.0);
}

struct fixture {
	char *dir, *trace, *calls;
	struct capture capture;
	struct imported imported;
	struct platform platform;
	struct sim_run_options run;
	struct fid_options options;
};

/*
 * The capture at path (in f->dir, or NULL for testdata/kernel-timing.txt)
 * loaded and imported, its trace written, and the options to simulate gov
 * on it on qemu-tcg.
 */
static void fixture_import(struct fixture *f, const char *path, const char *gov,
			   uint64_t warmup_ns)
{
	g_autoptr(GError) error = NULL;
	FILE *out;

	f->trace = g_build_filename(f->dir, "imported.trace", NULL);
	if (path)
		load_path_ok(path, &f->capture);
	else
		load_ok("kernel-timing.txt", &f->capture);
	assert_true(import_convert(&f->capture, NULL, &f->imported, &error));
	out = fopen(f->trace, "w");
	assert_non_null(out);
	imported_write(out, &f->imported, "capture");
	assert_int_equal(fclose(out), 0);
	assert_true(platform_load("qemu-tcg", &f->platform, &error));
	f->run = (struct sim_run_options){ .platform = &f->platform, .hz = 250,
					   .latency_limit_us = INT32_MAX, .threads = 1 };
	kshim_registry_init();
	f->options = (struct fid_options){ .run = &f->run, .gov = kshim_governor_find(gov),
					   .calls = NULL, .match_ns = 100000,
					   .warmup_ns = warmup_ns };
	assert_non_null(f->options.gov);
}

static void fixture_open(struct fixture *f, uint64_t warmup_ns)
{
	memset(f, 0, sizeof(*f));
	f->dir = test_tmpdir();
	fixture_import(f, NULL, "menu-6.1", warmup_ns);
}

static void fixture_close(struct fixture *f)
{
	imported_clear(&f->imported);
	capture_clear(&f->capture);
	platform_clear(&f->platform);
	test_rmtree(f->dir);
	g_free(f->dir);
	g_free(f->trace);
	g_free(f->calls);
}

/* Both steps, as teosim fidelity takes them. */
static bool compare(struct fixture *fx, struct fidelity *f, GError **error)
{
	return fidelity_prepare(&fx->options, &fx->capture, f, error) &&
	       fidelity_compute(&fx->options, &fx->capture, &fx->imported, fx->trace, f, error);
}

/* The matched pairs with inputs given different states, counted again from the periods. */
static void assert_differing(const struct fidelity *f)
{
	uint64_t differing = 0, kernel_shorter = 0, model_shorter = 0;

	for (guint i = 0; i < f->real.periods->len; i++) {
		const struct fid_period *p = &g_array_index(f->real.periods, struct fid_period, i);
		const struct fid_period *q;

		if (p->match < 0 || !p->has_inputs)
			continue;
		q = &g_array_index(f->sim.periods, struct fid_period, p->match);
		if (p->state == q->state)
			continue;
		differing++;
		if (p->sleep_ns == INT64_MIN || p->sleep_ns < 0 || q->sleep_ns < 0)
			continue;
		/* 3a < 2b, in doubles: the sleep lengths here are far from their limits. */
		kernel_shorter += q->sleep_ns > 0 && 3.0 * (double)p->sleep_ns < 2.0 * (double)q->sleep_ns;
		model_shorter += p->sleep_ns > 0 && 3.0 * (double)q->sleep_ns < 2.0 * (double)p->sleep_ns;
	}
	assert_int_equal(f->differing_inputs, differing);
	assert_int_equal(f->kernel_sleep_shorter, kernel_shorter);
	assert_int_equal(f->model_sleep_shorter, model_shorter);
	assert_true(f->differing_inputs + f->same_state >= f->matched_inputs);
}

static void assert_consistent(const struct fidelity *f)
{
	uint64_t sim = 0;

	assert_differing(f);
	for (unsigned int i = 0; i < f->state_count; i++)
		sim += f->sim.usage[i];
	assert_int_equal(sim, f->sim.periods->len);
	assert_true(f->tvd_periods == fidelity_tvd(f->real.usage, f->sim.usage, f->state_count));
	assert_true(f->tvd_time == fidelity_tvd(f->real.time_ns, f->sim.time_ns, f->state_count));
	assert_true(f->same_state <= f->matched);
	assert_true(f->matched <= f->real.periods->len && f->matched <= f->sim.periods->len);
}

/* Appends n periods of cpu in state, the first unmatched of them with no match. */
static void add_periods(struct fid_side *s, unsigned int cpu, int state, unsigned int n,
			unsigned int unmatched)
{
	for (unsigned int i = 0; i < n; i++) {
		struct fid_period p = { .cpu = cpu, .state = state, .match = i < unmatched ? -1 : 0 };

		g_array_append_val(s->periods, p);
		s->usage[state]++;
	}
}

/*
 * Runs of polling periods, on qemu-tcg (POLL, C1, C1E, C6): CPU 0 has 25
 * POLL periods, 5 of them unmatched (a run), a C1, then 19 POLL (one too
 * few); CPU 1 then 20 POLL (a run: CPU 0's last 19 do not join it) and 2
 * C1E.  Two runs of 45 periods, 5 unmatched; outside them POLL keeps 19.
 */
static void test_poll_runs(void **state)
{
	g_autoptr(GError) error = NULL;
	struct fid_side s = { .periods = g_array_new(FALSE, FALSE, sizeof(struct fid_period)) };
	struct platform p;

	(void)state;
	assert_true(platform_load("qemu-tcg", &p, &error));
	add_periods(&s, 0, 0, 25, 5);
	add_periods(&s, 0, 1, 1, 0);
	add_periods(&s, 0, 0, 19, 19);
	add_periods(&s, 1, 0, 20, 0);
	add_periods(&s, 1, 2, 2, 0);
	fidelity_count_poll_runs(&p, &s);
	assert_int_equal(s.poll_runs, 2);
	assert_int_equal(s.poll_run_periods, 45);
	assert_int_equal(s.poll_run_unmatched, 5);
	assert_int_equal(s.usage_outside_runs[0], 19);
	assert_int_equal(s.usage_outside_runs[1], 1);
	assert_int_equal(s.usage_outside_runs[2], 2);
	assert_int_equal(s.usage_outside_runs[3], 0);
	g_array_free(s.periods, TRUE);
	platform_clear(&p);
}

/*
 * kernel-timing.txt's complete periods (test-convert.c): C1E 100..1010 µs,
 * POLL 1100..1130 and 1134..1300; the C1 entry at 1400 has no exit.  On
 * qemu-tcg: the C1E period is below (910 − 10 ≥ C6's 600), each polling
 * period below (more than C1's 2 µs); none above.  No tick_stop events.
 * The log's first two selects precede their entries by 1 and 0.5 µs with
 * the states entered; the third names C1 for a POLL entry and is not the
 * period's.  Three of its four selects carry a 20 µs limit.
 */
static void test_real_side_and_inputs(void **state)
{
	g_autofree char *calls = testdata("kernel-timing.calls");
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) selects = NULL;
	struct fixture fx;
	struct fidelity f;

	(void)state;
	fixture_open(&fx, 0);
	assert_true(fidelity_read_selects(calls, &selects, &error));
	fx.options.calls = calls;
	fx.options.selects = selects;
	if (!compare(&fx, &f, &error))
		fail_msg("%s", error->message);
	assert_int_equal(f.real.periods->len, 3);
	assert_int_equal(f.real.usage[0], 2);
	assert_int_equal(f.real.usage[2], 1);
	assert_int_equal(f.real.time_ns[0], 196000);
	assert_int_equal(f.real.time_ns[2], 910000);
	assert_int_equal(f.real.idle_ns, 1106000);
	assert_int_equal(f.real.above, 0);
	assert_int_equal(f.real.below, 3);
	assert_int_equal(f.real.tick_stops, 0);
	assert_int_equal(f.with_inputs, 2);
	assert_int_equal(f.select_lag_ns, 1000);
	/* Two periods with their select, fewer than the 20 a measured lead needs. */
	assert_int_equal(f.select_lead_ns, (uint64_t)fx.platform.select_lead_us * 1000);
	assert_int_equal(f.tick_stop_ns, (uint64_t)fx.platform.tick_stop_us * 1000);
	assert_consistent(&f);
	fidelity_clear(&f);

	assert_int_equal(fidelity_latency_limit(selects, fx.capture.first_ns, fx.capture.last_ns),
			 20);
	/* Only the last select, outside the capture but for its last µs: no limit. */
	assert_int_equal(fidelity_latency_limit(selects, 200001398000, 200001400000), INT32_MAX);
	fixture_close(&fx);
}

/*
 * The inputs are found over the whole capture, but the figures printed are
 * over the periods compared: after 1 ms of warm-up, only the polling
 * period entered at 1100 µs, 0.5 µs after its select.
 */
static void test_inputs_after_warmup(void **state)
{
	g_autofree char *calls = testdata("kernel-timing.calls");
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) selects = NULL;
	struct fixture fx;
	struct fidelity f = { 0 };

	(void)state;
	fixture_open(&fx, 1000000);
	assert_true(fidelity_read_selects(calls, &selects, &error));
	fx.options.calls = calls;
	fx.options.selects = selects;
	assert_true(fidelity_prepare(&fx.options, &fx.capture, &f, &error));
	assert_int_equal(f.with_inputs, 2);
	assert_int_equal(f.real.periods->len, 3);
	assert_true(fidelity_compute(&fx.options, &fx.capture, &fx.imported, fx.trace, &f, &error));
	assert_int_equal(f.real.periods->len, 2);
	assert_int_equal(f.with_inputs, 1);
	assert_int_equal(f.select_lag_ns, 500);
	assert_consistent(&f);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/* One kind of period of a generated capture: its state, select and reflect. */
struct generated_kind {
	unsigned int state, lag_us, stop_tick, poll_limit;
};

/*
 * Four kinds that take turns: a polling period chosen 3 µs before its
 * entry that ends at its polling limit; two more chosen 1 µs before
 * theirs, after a polling limit (the first of them ends at one too); and
 * a C1E period whose select stopped the running tick 25 µs before its
 * entry.
 */
static const struct generated_kind teo_kinds[] = {
	{ 0, 3, 0, 1 }, { 0, 1, 0, 1 }, { 0, 1, 0, 0 }, { 2, 25, 1, 0 },
};

/*
 * As menu's kernel logs them, whose dev->poll_time_limit only poll_idle()
 * clears: a polling period chosen 3 µs before its entry that ends at its
 * limit, then three halting ones whose reflects still carry the flag: C1E
 * chosen 1 µs before its entry, after the limit; C1E whose select stopped
 * the running tick 25 µs before; C1 chosen 3 µs before.
 */
static const struct generated_kind menu_kinds[] = {
	{ 0, 3, 0, 1 }, { 2, 1, 0, 1 }, { 2, 25, 1, 1 }, { 1, 3, 0, 1 },
};

/*
 * A generated capture of one CPU and its call log, written into dir: 96
 * periods, each 40 µs long, 100 µs apart, every select told a sleep
 * length of 50 µs, of the kinds given in turn, and every eighth (from the
 * first) told a task waits for I/O.  No timer, and no task switch, is in
 * the capture.
 */
static void write_generated(const char *dir, const struct generated_kind *kinds,
			    unsigned int nr_kinds, char **cap_path, char **log_path)
{
	g_autoptr(GString) capture = g_string_new("# tracer: nop\n#\n#P:1\n");
	g_autoptr(GString) log = g_string_new("teosim-calls 1\nhz 250\ncpus 1\n"
					      "state 0 name=POLL exit_us=0 residency_us=0 flags=polling\n"
					      "state 1 name=C1 exit_us=2 residency_us=2\n"
					      "state 2 name=C1E exit_us=10 residency_us=20\n"
					      "state 3 name=C6 exit_us=133 residency_us=600\n");

	for (unsigned int k = 0; k < 96; k++) {
		unsigned int entry_us = 100 + k * 100;
		const struct generated_kind *kind = &kinds[k % nr_kinds];
		uint64_t entry_ns = (200000000 + (uint64_t)entry_us) * 1000;

		g_string_append_printf(log, "select cpu=0 clock=%" G_GUINT64_FORMAT " sleep_ns=50000 "
				       "tick_ns=50000 qos_us=2000000000 stopped=0 iowait=%u state=%u "
				       "stop_tick=%u\n", entry_ns - kind->lag_us * 1000, k % 8 == 0,
				       kind->state, kind->stop_tick);
		g_string_append_printf(log, "reflect cpu=0 clock=%" G_GUINT64_FORMAT " state=%u "
				       "residency_ns=40000 got_tick=0 poll_limit=%u\n",
				       entry_ns + 40000, kind->state, kind->poll_limit);
		g_string_append_printf(capture, "<idle>-0 [000] d..1. 200.%06u: cpu_idle: state=%u "
				       "cpu_id=0\n", entry_us, kind->state);
		g_string_append_printf(capture, "<idle>-0 [000] d..1. 200.%06u: cpu_idle: "
				       "state=4294967295 cpu_id=0\n", entry_us + 40);
	}
	*cap_path = g_build_filename(dir, "generated.txt", NULL);
	*log_path = g_build_filename(dir, "generated.calls", NULL);
	assert_true(g_file_set_contents(*cap_path, capture->str, -1, NULL));
	assert_true(g_file_set_contents(*log_path, log->str, -1, NULL));
}

/*
 * The real periods carry the call log's count of tasks waiting for I/O:
 * 1 at every eighth entry of the generated capture (entries at 100 µs +
 * 100 µs k, so k % 8 is (entry − 100 µs) / 100 µs % 8), 0 elsewhere; the
 * simulation, whose capture shows no task, 0 everywhere.  Only the
 * matched periods with inputs are compared.
 */
static void assert_iowait_from_log(const struct fidelity *f)
{
	uint64_t waiting = 0;

	for (guint i = 0; i < f->real.periods->len; i++) {
		const struct fid_period *p = &g_array_index(f->real.periods, struct fid_period, i);
		uint64_t k = (p->entry_ns - 200000100000) / 100000;

		if (!p->has_inputs)
			continue;
		assert_int_equal(p->iowait_tasks, k % 8 == 0);
		waiting += p->match >= 0 && p->iowait_tasks;
	}
	for (guint i = 0; i < f->sim.periods->len; i++)
		assert_int_equal(g_array_index(f->sim.periods, struct fid_period, i).iowait_tasks, 0);
	assert_true(waiting > 0);
	assert_int_equal(f->same_iowait, f->matched_inputs - waiting);
}

/* A generated capture of these kinds, imported, and its call log's selects; teo-6.1, no warm-up. */
static void open_generated(struct fixture *fx, const struct generated_kind *kinds,
			   unsigned int nr_kinds, GArray **selects)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *cap_path = NULL;

	memset(fx, 0, sizeof(*fx));
	fx->dir = test_tmpdir();
	write_generated(fx->dir, kinds, nr_kinds, &cap_path, &fx->calls);
	fixture_import(fx, cap_path, "teo-6.1", 0);
	fx->options.calls = fx->calls;
	if (!fidelity_read_selects(fx->calls, selects, &error))
		fail_msg("%s", error->message);
	fx->options.selects = *selects;
}

/*
 * The generated capture of teo_kinds, both steps.  With 20 or more periods of each
 * kind, the lead and the tick stop cost are measured, leaving out the 48
 * selects after a polling limit (whose 1 µs would be the median of all
 * that keep the tick): a lead of 3 µs, and 25 − 3 = 22 µs for the stop.  The kernel was told a sleep length of
 * 50 µs at every select; the model, with no timer in the capture, is told
 * none (KTIME_MAX).  Wherever the two chose differently, the kernel's sleep
 * length was the shorter one, and there are such periods: the kernel
 * alternates POLL and C1E, which a governor fed the same wakeups does not.
 */
static void test_generated_capture(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) selects = NULL;
	struct fixture fx;
	struct fidelity f = { 0 };

	(void)state;
	open_generated(&fx, teo_kinds, G_N_ELEMENTS(teo_kinds), &selects);
	if (!fidelity_prepare(&fx.options, &fx.capture, &f, &error))
		fail_msg("%s", error->message);
	assert_int_equal(f.with_inputs, 96);
	assert_int_equal(f.after_poll_limit_n, 48);
	assert_int_equal(f.select_lag_keep_n, 24);
	assert_int_equal(f.select_lag_stop_n, 24);
	assert_int_equal(f.select_lead_ns, 3000);
	assert_int_equal(f.tick_stop_ns, 22000);
	if (!fidelity_compute(&fx.options, &fx.capture, &fx.imported, fx.trace, &f, &error))
		fail_msg("%s", error->message);
	assert_true(f.differing_inputs > 0);
	assert_int_equal(f.kernel_sleep_shorter, f.differing_inputs);
	assert_int_equal(f.model_sleep_shorter, 0);
	assert_consistent(&f);
	/* Every select asked, and none was told what the kernel's were (50 µs against none). */
	assert_int_equal(f.told_sleep, f.matched_inputs);
	assert_int_equal(f.same_sleep, 0);
	assert_iowait_from_log(&f);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/*
 * The generated capture of menu_kinds: the flag its halting states' reflects
 * carry is the last polling limit's, so only the 24 C1E selects right after
 * a polling state are left out; the 48 others that keep the tick give a
 * lead of 3 µs (the 24 polling selects' and the 24 C1 selects'), the 24
 * that stop it 25 − 3 = 22 µs.  (Taken at its word, the flag would leave
 * out 95 of the 96, and the platform's figures would stand in.)
 */
static void test_poll_limit_flag_left_set(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) selects = NULL;
	struct fixture fx;
	struct fidelity f = { 0 };

	(void)state;
	open_generated(&fx, menu_kinds, G_N_ELEMENTS(menu_kinds), &selects);
	if (!fidelity_prepare(&fx.options, &fx.capture, &f, &error))
		fail_msg("%s", error->message);
	assert_int_equal(f.with_inputs, 96);
	assert_int_equal(f.after_poll_limit_n, 24);
	assert_int_equal(f.select_lag_keep_n, 48);
	assert_int_equal(f.select_lag_stop_n, 24);
	assert_int_equal(f.select_lead_ns, 3000);
	assert_int_equal(f.tick_stop_ns, 22000);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/* With 1 ms of warm-up only the two polling periods, entered at 1100 and 1134 µs, count. */
static void test_warmup(void **state)
{
	g_autoptr(GError) error = NULL;
	struct fixture fx;
	struct fidelity f;

	(void)state;
	fixture_open(&fx, 1000000);
	assert_true(compare(&fx, &f, &error));
	assert_int_equal(f.real.periods->len, 2);
	assert_int_equal(f.real.usage[0], 2);
	assert_int_equal(f.real.usage[2], 0);
	for (guint i = 0; i < f.sim.periods->len; i++)
		assert_true(g_array_index(f.sim.periods, struct fid_period, i).entry_ns + 100000 >=
			    200001100000);
	assert_consistent(&f);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/*
 * Each CPU's first periods are left out too, however long they took: of
 * the capture's three complete periods (C1E from 100 us, POLL from 1100
 * and 1134 us), two left out leave the last POLL alone; with 1 ms of
 * warm-up as well, one left out is the one the 1 ms leaves out already.
 */
static void test_warmup_periods(void **state)
{
	g_autoptr(GError) error = NULL;
	struct fixture fx;
	struct fidelity f;

	(void)state;
	fixture_open(&fx, 0);
	fx.options.warmup_periods = 2;
	assert_true(compare(&fx, &f, &error));
	assert_int_equal(f.real.periods->len, 1);
	assert_int_equal(g_array_index(f.real.periods, struct fid_period, 0).entry_ns,
			 200001134000);
	assert_int_equal(f.real.usage[0], 1);
	for (guint i = 0; i < f.sim.periods->len; i++)
		assert_true(g_array_index(f.sim.periods, struct fid_period, i).entry_ns + 100000 >=
			    200001134000);
	assert_consistent(&f);
	fidelity_clear(&f);
	fixture_close(&fx);

	fixture_open(&fx, 1000000);
	fx.options.warmup_periods = 1;
	assert_true(compare(&fx, &f, &error));
	assert_int_equal(f.real.periods->len, 2);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/*
 * A simulated period ends where the real side's do, at the idle exit: the
 * CPU woken by the timer whose interrupt came at 200.001000 s (its
 * hrtimer_expire_entry) leaves idle once the state's exit cost has passed,
 * and its residency is the one the governor measures.
 */
static void test_sim_exit_after_exit_cost(void **state)
{
	g_autoptr(GError) error = NULL;
	struct fixture fx;
	struct fidelity f;
	guint woken = 0;

	(void)state;
	fixture_open(&fx, 0);
	assert_true(compare(&fx, &f, &error));
	for (guint i = 0; i < f.sim.periods->len; i++) {
		const struct fid_period *p = &g_array_index(f.sim.periods, struct fid_period, i);

		if (p->cause != WAKE_TIMER)
			continue;
		assert_int_equal(p->exit_ns, 200001000000 +
				 (uint64_t)fx.platform.states[p->state].exit_cost_us * 1000);
		woken++;
	}
	assert_int_equal(woken, 1);
	fidelity_clear(&f);
	fixture_close(&fx);
}

/* The CSV: a header, then every period once, matched pairs on one line. */
static void test_periods_csv(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	struct fixture fx;
	struct fidelity f;
	size_t size;
	FILE *out;

	(void)state;
	fixture_open(&fx, 0);
	assert_true(compare(&fx, &f, &error));
	out = open_memstream(&text, &size);
	fidelity_write_periods(out, &f);
	assert_int_equal(fclose(out), 0);
	lines = g_strsplit(text, "\n", -1);
	assert_string_equal(lines[0], "cpu,real_entry_ns,real_residency_ns,real_state,real_sleep_ns,"
			    "real_tick_stopped,real_stop_tick,real_iowait,real_wake_cause,sim_entry_ns,"
			    "sim_residency_ns,sim_state,sim_sleep_ns,sim_tick_stopped,sim_stop_tick,"
			    "sim_iowait,sim_wake_cause");
	assert_int_equal(g_strv_length(lines) - 2,
			 f.real.periods->len + f.sim.periods->len - f.matched);
	for (char **l = lines + 1; *l && **l; l++) {
		g_auto(GStrv) fields = g_strsplit(*l, ",", -1);

		assert_int_equal(g_strv_length(fields), 17);
	}
	fidelity_clear(&f);
	fixture_close(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tvd),
		cmocka_unit_test(test_poll_runs),
		cmocka_unit_test(test_real_side_and_inputs),
		cmocka_unit_test(test_inputs_after_warmup),
		cmocka_unit_test(test_generated_capture),
		cmocka_unit_test(test_poll_limit_flag_left_set),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_warmup_periods),
		cmocka_unit_test(test_sim_exit_after_exit_cost),
		cmocka_unit_test(test_periods_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's own behaviour: kernel arithmetic helpers, HZ-derived constants,
 * and per-CPU data that is private to each CPU of each machine, also with
 * machines running in several threads at once.
 *
 * A tiny governor, "probe", is compiled here against the 6.1 API the way
 * the real ones are: it counts its select calls in per-CPU data and
 * returns the count, and records TICK_NSEC and TICK_USEC as it sees them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>

#include <cmocka.h>

#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <kshim/machine.h>
#include <kshim/registry.h>

const struct kshim_governor_meta probe_meta = {
	.name = "probe", .api = "6.1", .origin = "kshim/test-shim.c",
	.path = "kshim/test-shim.c", .sha256 = "-",
};

struct probe {
	unsigned int calls;
	u64 last_clock;
};

static DEFINE_PER_CPU(struct probe, probes);

/* What the last select saw, for the HZ and residency tests. */
static _Thread_local long seen_tick_nsec, seen_tick_usec;
static _Thread_local u64 seen_last_residency_ns;

static int probe_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	struct probe *p = per_cpu_ptr(&probes, dev->cpu);

	(void)drv;
	(void)stop_tick;
	seen_tick_nsec = TICK_NSEC;
	seen_tick_usec = TICK_USEC;
	seen_last_residency_ns = dev->last_residency_ns;
	p->last_clock = local_clock();
	return (int)++p->calls;
}

static struct cpuidle_governor probe_governor = {
	.name = "probe",
	.select = probe_select,
};

static int __init probe_init(void)
{
	return cpuidle_register_governor(&probe_governor);
}

postcore_initcall(probe_init);

static uint64_t host_clock(void *priv, unsigned int cpu)
{
	(void)priv;
	return cpu * 1000u;
}

static int64_t host_sleep(void *priv, unsigned int cpu, int64_t *delta)
{
	(void)priv;
	(void)cpu;
	*delta = 0;
	return 0;
}

static bool host_false(void *priv, unsigned int cpu)
{
	(void)priv;
	(void)cpu;
	return false;
}

static int32_t host_qos(void *priv, unsigned int cpu)
{
	(void)priv;
	(void)cpu;
	return 2000000000;
}

static unsigned int host_iowait(void *priv, unsigned int cpu)
{
	(void)priv;
	(void)cpu;
	return 0;
}

static const struct kshim_host_ops host = {
	.local_clock = host_clock, .sleep_length = host_sleep,
	.tick_stopped = host_false, .got_tick = host_false,
	.latency_limit_us = host_qos, .nr_iowait = host_iowait,
};

static struct kshim_machine *new_machine(unsigned int nr_cpus, unsigned int hz)
{
	struct kshim_machine_config cfg = {
		.nr_cpus = nr_cpus, .hz = hz, .state_count = KSHIM_STATE_MAX,
		.host = &host,
	};
	struct kshim_machine *m = NULL;
	char err[128];

	assert_int_equal(kshim_machine_new(kshim_governor_find("probe"), &cfg, &m,
					   err, sizeof(err)), 0);
	return m;
}

static void test_ktime_conversions(void **state)
{
	(void)state;
	assert_int_equal(ktime_to_us(1999), 1);
	assert_int_equal(ktime_to_us(-1999), -1);	/* truncates toward zero */
	assert_int_equal(ktime_to_us(KTIME_MAX), 9223372036854775LL);
	assert_int_equal(ktime_to_ms(4000000), 4);
	assert_int_equal(ktime_to_ns(ns_to_ktime(42)), 42);
	assert_true(KTIME_MAX == INT64_MAX);
}

static void test_math64(void **state)
{
	u64 n = 1000000007ULL;
	u32 rem = do_div(n, 1000);

	(void)state;
	assert_int_equal(n, 1000000);
	assert_int_equal(rem, 7);
	assert_int_equal(div64_u64(U64_MAX, 3), 6148914691236517205ULL);
	assert_int_equal(div_u64(10, 4), 2);
	assert_int_equal(min(3u, 7u), 3);
	assert_int_equal(max(-3, 7), 7);
	/* The kernel's constants are long, which decides mixed comparisons. */
	assert_int_equal(sizeof(NSEC_PER_USEC), sizeof(long));
}

static void test_tick_constants_follow_hz(void **state)
{
	static const struct { unsigned int hz; long nsec, usec; } cases[] = {
		{ 100, 10000000, 10000 },
		{ 250, 4000000, 4000 },
		{ 300, 3333333, 3333 },		/* (10^9 + 150) / 300, rounded down */
		{ 1000, 1000000, 1000 },
	};
	bool stop_tick;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kshim_machine *m = new_machine(1, cases[i].hz);

		kshim_machine_select(m, 0, &stop_tick);
		assert_int_equal(seen_tick_nsec, cases[i].nsec);
		assert_int_equal(seen_tick_usec, cases[i].usec);
		kshim_machine_free(m);
	}
}

static void test_bad_machine_config(void **state)
{
	struct kshim_machine_config cfg = { .nr_cpus = 1, .hz = 200, .state_count = 1,
					    .host = &host };
	struct kshim_machine *m = NULL;
	char err[128];

	(void)state;
	assert_int_equal(kshim_machine_new(kshim_governor_find("probe"), &cfg, &m,
					   err, sizeof(err)), -1);
	assert_null(m);
	assert_string_equal(err, "HZ 200: the kernel offers 100, 250, 300 or 1000");
	cfg.hz = 250;
	cfg.state_count = KSHIM_STATE_MAX + 1;
	assert_int_equal(kshim_machine_new(kshim_governor_find("probe"), &cfg, &m,
					   err, sizeof(err)), -1);
	cfg.state_count = 1;
	cfg.nr_cpus = KSHIM_MAX_CPUS + 1;
	assert_int_equal(kshim_machine_new(kshim_governor_find("probe"), &cfg, &m,
					   err, sizeof(err)), -1);
}

/* Each CPU counts only its own calls. */
static void test_percpu_isolation_across_cpus(void **state)
{
	struct kshim_machine *m = new_machine(4, 250);
	bool stop_tick;

	(void)state;
	assert_int_equal(kshim_machine_select(m, 2, &stop_tick), 1);
	assert_int_equal(kshim_machine_select(m, 2, &stop_tick), 2);
	assert_int_equal(kshim_machine_select(m, 0, &stop_tick), 1);
	assert_int_equal(kshim_machine_select(m, 3, &stop_tick), 1);
	assert_int_equal(kshim_machine_select(m, 2, &stop_tick), 3);
	assert_int_equal(kshim_machine_select(m, 1, &stop_tick), 1);
	kshim_machine_free(m);
}

/* Two machines in one thread share nothing either. */
static void test_percpu_isolation_across_machines(void **state)
{
	struct kshim_machine *a = new_machine(2, 250), *b = new_machine(2, 1000);
	bool stop_tick;

	(void)state;
	assert_int_equal(kshim_machine_select(a, 1, &stop_tick), 1);
	assert_int_equal(kshim_machine_select(b, 1, &stop_tick), 1);
	assert_int_equal(seen_tick_nsec, 1000000);
	assert_int_equal(kshim_machine_select(a, 1, &stop_tick), 2);
	assert_int_equal(seen_tick_nsec, 4000000);
	kshim_machine_free(a);
	kshim_machine_free(b);
}

/*
 * The core's bookkeeping: an entered state sets the last residency and
 * counts usage; an entry the idle loop skipped (work pending) zeroes the
 * last residency and counts nothing.
 */
static void test_entered_and_not_entered(void **state)
{
	struct kshim_machine *m = new_machine(2, 250);
	struct kshim_usage u;
	bool stop_tick;

	(void)state;
	kshim_machine_select(m, 1, &stop_tick);
	kshim_machine_entered(m, 1, 3, 3, 5000, false);
	kshim_machine_select(m, 1, &stop_tick);
	assert_int_equal(seen_last_residency_ns, 5000);
	kshim_machine_not_entered(m, 1);
	kshim_machine_select(m, 1, &stop_tick);
	assert_int_equal(seen_last_residency_ns, 0);
	kshim_machine_usage(m, 1, 3, &u);
	assert_int_equal(u.usage, 1);
	assert_int_equal(u.time_ns, 5000);
	assert_int_equal(u.rejected, 0);
	/* A rejected entry is counted as such, and also zeroes the residency. */
	kshim_machine_entered(m, 1, 2, -1, 0, false);
	kshim_machine_usage(m, 1, 2, &u);
	assert_int_equal(u.rejected, 1);
	assert_int_equal(u.usage, 0);
	kshim_machine_free(m);
}

#define THREADS		8
#define ROUNDS		2000

struct thread_result {
	unsigned int hz;
	bool ok;
};

/*
 * Every thread drives its own 3-CPU machine through the same call pattern
 * at the same time; any sharing of per-CPU data or HZ between threads
 * shows up as a count or a tick length out of sequence.
 */
static void *thread_main(void *arg)
{
	struct thread_result *r = arg;
	struct kshim_machine *m = NULL;
	struct kshim_machine_config cfg = {
		.nr_cpus = 3, .hz = r->hz, .state_count = KSHIM_STATE_MAX, .host = &host,
	};
	long want_tick = (1000000000L + (long)r->hz / 2) / (long)r->hz;
	unsigned int expected[3] = { 0 };
	char err[128];
	bool stop_tick;

	r->ok = kshim_machine_new(kshim_governor_find("probe"), &cfg, &m, err, sizeof(err)) == 0;
	for (unsigned int i = 0; r->ok && i < ROUNDS; i++) {
		unsigned int cpu = i % 3 == 2 ? 1 : i % 3;

		if (kshim_machine_select(m, cpu, &stop_tick) != (int)++expected[cpu] ||
		    seen_tick_nsec != want_tick)
			r->ok = false;
	}
	kshim_machine_free(m);
	return NULL;
}

static void test_percpu_isolation_across_threads(void **state)
{
	static const unsigned int hz[] = { 100, 250, 300, 1000 };
	struct thread_result results[THREADS];
	pthread_t threads[THREADS];

	(void)state;
	for (int i = 0; i < THREADS; i++) {
		results[i] = (struct thread_result){ .hz = hz[i % 4] };
		assert_int_equal(pthread_create(&threads[i], NULL, thread_main, &results[i]), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(threads[i], NULL), 0);
		assert_true(results[i].ok);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ktime_conversions),
		cmocka_unit_test(test_math64),
		cmocka_unit_test(test_tick_constants_follow_hz),
		cmocka_unit_test(test_bad_machine_config),
		cmocka_unit_test(test_percpu_isolation_across_cpus),
		cmocka_unit_test(test_percpu_isolation_across_machines),
		cmocka_unit_test(test_percpu_isolation_across_threads),
		cmocka_unit_test(test_entered_and_not_entered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * teosim random-calls: a random but valid governor-call log, the same bytes
 * for the same seed.  It exercises the paths of every governor: sleep
 * lengths over five decades, a tick kept or stopped, latency limits,
 * I/O waiters, wakeups by the tick, poll time limits, and states disabled
 * and re-enabled by the user.
 */
#include <math.h>
#include <stdio.h>

#include "calllog.h"
#include "commands.h"
#include "options.h"

/* A log-uniform duration between lo and hi nanoseconds. */
static int64_t log_uniform(GRand *rand, double lo, double hi)
{
	return (int64_t)exp(g_rand_double_range(rand, log(lo), log(hi)));
}

static void random_select(GRand *rand, const struct calllog_header *h, unsigned int cpu,
			  uint64_t clock, struct calllog_select *s)
{
	int64_t tick_ns = (1000000000 + h->hz / 2) / h->hz;

	*s = (struct calllog_select){ .cpu = cpu, .clock_ns = clock };
	s->has_sleep = true;
	s->sleep_ns = log_uniform(rand, 1e3, 1e8);
	s->tick_ns = MIN(s->sleep_ns, g_rand_int_range(rand, 1, (gint32)tick_ns + 1));
	s->tick_stopped = g_rand_int_range(rand, 0, 5) == 0;
	s->qos_us = g_rand_int_range(rand, 0, 10) == 0 ? g_rand_int_range(rand, 0, 300)
						       : 2000000000;
	s->nr_iowait = g_rand_int_range(rand, 0, 8) == 0 ? (uint32_t)g_rand_int_range(rand, 1, 4) : 0;
	if (g_rand_int_range(rand, 0, 200) == 0)
		s->disable_mask = (uint16_t)(1u << g_rand_int_range(rand, 0, (gint32)h->state_count));
	else if (g_rand_int_range(rand, 0, 100) == 0)
		s->enable_mask = (uint16_t)(1u << g_rand_int_range(rand, 0, (gint32)h->state_count));
}

static void random_reflect(GRand *rand, const struct calllog_header *h,
			   const struct calllog_select *s, struct calllog_reflect *f)
{
	*f = (struct calllog_reflect){ .cpu = s->cpu };
	f->state = g_rand_int_range(rand, 0, (gint32)h->state_count);
	/* Mostly woken before the timer, sometimes by it. */
	if (g_rand_int_range(rand, 0, 3) == 0)
		f->residency_ns = (uint64_t)s->sleep_ns;
	else
		f->residency_ns = (uint64_t)log_uniform(rand, 100, (double)s->sleep_ns + 101);
	f->got_tick = g_rand_int_range(rand, 0, 6) == 0;
	f->poll_time_limit = h->states[f->state].polling && g_rand_int_range(rand, 0, 4) == 0;
	f->clock_ns = s->clock_ns + f->residency_ns + (uint64_t)g_rand_int_range(rand, 0, 2000);
}

int cmd_random_calls(int argc, char **argv)
{
	gint64 seed = 1, selects = 100000, cpus = 4, hz = 250;
	const GOptionEntry entries[] = {
		{ "seed", 's', 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 1)", "N" },
		{ "selects", 'n', 0, G_OPTION_ARG_INT64, &selects,
		  "Select/reflect pairs to write (default 100000)", "N" },
		{ "cpus", 0, 0, G_OPTION_ARG_INT64, &cpus, "CPUs (default 4)", "N" },
		{ "hz", 0, 0, G_OPTION_ARG_INT64, &hz, "HZ (default 250)", "N" },
		G_OPTION_ENTRY_NULL
	};
	/* Skylake server's table (intel_idle SKX) with the kernel's poll state. */
	struct calllog_header h = {
		.state_count = 4,
		.states = {
			{ .name = "POLL", .exit_latency_us = 0, .target_residency_us = 0, .polling = true },
			{ .name = "C1", .exit_latency_us = 2, .target_residency_us = 2 },
			{ .name = "C1E", .exit_latency_us = 10, .target_residency_us = 20 },
			{ .name = "C6", .exit_latency_us = 133, .target_residency_us = 600 },
		},
	};
	g_autoptr(GRand) rand = NULL;
	g_autofree uint64_t *clock = NULL;

	if (!teosim_parse_options(&argc, &argv, "",
				  "Writes a random governor-call log to standard output.", entries))
		return 2;
	if (argc != 1 || selects < 0 || cpus < 1 || cpus > KSHIM_MAX_CPUS ||
	    hz < 1 || !kshim_hz_valid((unsigned int)hz)) {
		fprintf(stderr, "teosim random-calls: need --selects >= 0, 1 <= --cpus <= %u, "
			"--hz of 100, 250, 300 or 1000, and no arguments\n", KSHIM_MAX_CPUS);
		return 2;
	}
	h.hz = (unsigned int)hz;
	h.nr_cpus = (unsigned int)cpus;
	rand = g_rand_new_with_seed((guint32)seed);
	clock = g_new0(uint64_t, cpus);
	calllog_write_header(stdout, &h);
	for (gint64 i = 0; i < selects; i++) {
		unsigned int cpu = (unsigned int)g_rand_int_range(rand, 0, (gint32)cpus);
		struct calllog_select s;
		struct calllog_reflect f;

		clock[cpu] += (uint64_t)log_uniform(rand, 500, 2e6);	/* the busy period */
		random_select(rand, &h, cpu, clock[cpu], &s);
		random_reflect(rand, &h, &s, &f);
		clock[cpu] = f.clock_ns;
		calllog_write_select(stdout, &s);
		calllog_write_reflect(stdout, &f);
	}
	return 0;
}

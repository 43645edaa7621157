// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's speed and memory (meson benchmark, suite 'sim').
 *
 * A one-CPU workload is generated from a scenario written here (timers,
 * Poisson interrupts, I/O completions, bursts, timeouts), and for each
 * governor three runs are timed over the same trace:
 *   file:   the whole simulator: trace reader, idle loop, scorer;
 *   memory: the same with the events read into an array first (no parsing);
 *   bare:   only kshim_machine_select/entered/reflect on the inputs the
 *           memory run recorded (clock, sleep length, tick state, residency,
 *           got_tick), through a host that answers from those arrays.
 * Each is the best of five, in CPU time.  The bare loop's decisions are checked
 * against the recorded ones.  Memory: the peak resident size during a run
 * over the trace and during a run over one LONG_FACTOR times as long.
 *
 * Usage: bench-sim [SECONDS [GOVERNOR]]  (simulated seconds of the short
 * trace, default 20; only that governor, for a run under callgrind)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>
#include <kshim/registry.h>

#include "feed.h"
#include "gen.h"
#include "host.h"
#include "idle-loop.h"
#include "platform.h"
#include "run.h"
#include "score.h"

static const char SCENARIO[] =
	"[scenario]\nname=bench\ncpus=1\n\n"
	"[phase all]\nduration_ms=%u\n\n"
	"[source housekeeping]\nkind=periodic\nrate_hz=100\njitter_us=200\nwork_us=15\n\n"
	"[source frames]\nkind=periodic\nrate_hz=250\nwork_us=300\n\n"
	"[source stray]\nkind=poisson\nrate_hz=3000\nwork_us=10\n\n"
	"[source disk]\nkind=io\nlatency_us=150\nwork_us=25\n\n"
	"[source nic]\nkind=bursty\nrate_hz=200\nburst_size=8\ngap_us=60\nwork_us=12\n\n"
	"[source rto]\nkind=timeout\nrate_hz=500\ntimeout_us=20000\ncancel_prob=0.9\n"
	"cancel_after_us=800\n";

/* How much longer the second trace of the memory check is: flat means flat over 10x. */
#define LONG_FACTOR	10

/* What one period's governor calls saw, for the bare loop. */
struct recorded {
	uint64_t entry_ns, reflect_clock_ns, residency_ns;
	int64_t sleep_length_ns, delta_next_ns;
	int state;
	bool stop_tick, tick_stopped, got_tick, poll_time_limit;
};

struct recorder {
	GArray *periods;	/* struct recorded */
	struct recorded pending;
};

/* CPU time, which other work on a shared machine disturbs less than wall time. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Linux resets the peak resident size (VmHWM) on writing 5 to clear_refs. */
static void reset_peak_rss(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

/* The peak resident size since the last reset, in KiB; -1 if unknown. */
static long peak_rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

static char *generate(const char *dir, const char *name, unsigned int ms)
{
	g_autofree char *scenario = g_strdup_printf(SCENARIO, ms);
	g_autofree char *spath = g_build_filename(dir, "bench.scenario", NULL);
	char *path = g_build_filename(dir, name, NULL);
	GError *error = NULL;
	FILE *out = fopen(path, "w");

	if (!out || !g_file_set_contents(spath, scenario, -1, &error) ||
	    !gen_write(spath, 1, out, &error)) {
		fprintf(stderr, "bench-sim: %s\n", error ? error->message : path);
		exit(1);
	}
	fclose(out);
	g_unlink(spath);
	return path;
}

static void die(GError *error)
{
	fprintf(stderr, "bench-sim: %s\n", error->message);
	exit(1);
}

/* ---- the simulator, from a trace file or from an array ---- */

struct event_array {
	GArray *events;
	guint next;
};

static int array_next(void *priv, const struct trace_event **ev, GError **error)
{
	struct event_array *a = priv;

	(void)error;
	if (a->next == a->events->len)
		return 0;
	*ev = &g_array_index(a->events, struct trace_event, a->next++);
	return 1;
}

static void record_select(void *priv, const struct idle_period *p)
{
	struct recorder *r = priv;

	r->pending = (struct recorded){
		.entry_ns = p->entry_ns, .sleep_length_ns = p->sleep_length_ns,
		.delta_next_ns = p->delta_next_ns, .tick_stopped = p->tick_was_stopped,
		.state = p->state, .stop_tick = p->stop_tick,
	};
}

static void record_reflect(void *priv, const struct idle_period *p)
{
	struct recorder *r = priv;

	r->pending.reflect_clock_ns = p->wake_ns + p->exit_latency_ns;
	r->pending.residency_ns = p->wake_ns + p->exit_latency_ns - p->entry_ns;
	r->pending.got_tick = p->cause == WAKE_TICK;
	r->pending.poll_time_limit = p->cause == WAKE_POLL_LIMIT;
	g_array_append_val(r->periods, r->pending);
}

/*
 * One simulation, fed from the reader r as teosim runs are, or else from
 * the array a; returns the idle periods scored.
 */
static uint64_t simulate(const struct kshim_governor *gov, const struct sim_config *cfg,
			 struct trace_reader *r, struct event_array *a, struct recorder *rec)
{
	struct idle_scorer *scorer = idle_scorer_new(cfg->platform, cfg->latency_limit_us);
	GError *error = NULL;
	struct cpu_score score;
	struct sim_cpu c;

	if (!sim_cpu_init(&c, 0, gov, cfg, &error))
		die(error);
	c.scorer = scorer;
	if (rec)
		c.observer = (struct idle_observer){ record_select, record_reflect, rec };
	if (r) {
		struct feed_listener l = { .cpu = &c };

		if (!trace_feed(r, &l, 1, NULL))
			die(l.error);
	} else if (!sim_cpu_run(&c, (struct sim_event_source){ array_next, a }, &error)) {
		die(error);
	}
	idle_scorer_finish(scorer, &c, &score);
	idle_scorer_free(scorer);
	sim_cpu_clear(&c);
	return score.scored + score.unscored;
}

static double time_file_run(const struct kshim_governor *gov, const struct sim_config *cfg,
			    const char *path, uint64_t *periods)
{
	GError *error = NULL;
	struct trace_reader *r = trace_open(path, &error);
	double t0;

	if (!r)
		die(error);
	t0 = now_s();
	*periods = simulate(gov, cfg, r, NULL, NULL);
	t0 = now_s() - t0;
	trace_close(r);
	return t0;
}

static double time_memory_run(const struct kshim_governor *gov, const struct sim_config *cfg,
			      GArray *events, struct recorder *rec)
{
	struct event_array a = { .events = events };
	double t0 = now_s();

	simulate(gov, cfg, NULL, &a, rec);
	return now_s() - t0;
}

/* ---- the bare loop ---- */

struct bare_host {
	const struct recorded *cur;
	bool in_reflect;
};

static uint64_t bare_clock(void *priv, unsigned int cpu)
{
	const struct bare_host *h = priv;

	(void)cpu;
	return h->in_reflect ? h->cur->reflect_clock_ns : h->cur->entry_ns;
}

static int64_t bare_sleep_length(void *priv, unsigned int cpu, int64_t *delta_next)
{
	const struct bare_host *h = priv;

	(void)cpu;
	*delta_next = h->cur->delta_next_ns;
	return h->cur->sleep_length_ns;
}

static bool bare_tick_stopped(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct bare_host *)priv)->cur->tick_stopped;
}

static bool bare_got_tick(void *priv, unsigned int cpu)
{
	const struct bare_host *h = priv;

	(void)cpu;
	return h->in_reflect && h->cur->got_tick;
}

static int32_t bare_latency_limit(void *priv, unsigned int cpu)
{
	(void)priv;
	(void)cpu;
	return INT32_MAX;
}

static unsigned int bare_nr_iowait(void *priv, unsigned int cpu)
{
	(void)priv;
	(void)cpu;
	return 0;
}

static const struct kshim_host_ops bare_ops = {
	bare_clock, bare_sleep_length, bare_tick_stopped, bare_got_tick, bare_latency_limit,
	bare_nr_iowait,
};

/* Returns the time; *mismatches counts decisions unlike the recorded ones. */
static double time_bare_loop(const struct kshim_governor *gov, const struct sim_config *cfg,
			     const GArray *periods, uint64_t *mismatches)
{
	const struct platform *p = cfg->platform;
	struct kshim_machine_config mc = { .nr_cpus = 1, .hz = cfg->hz,
					   .state_count = p->state_count, .host = &bare_ops };
	struct bare_host host = { 0 };
	struct kshim_machine *m;
	char err[256];
	double t0;

	for (unsigned int i = 0; i < p->state_count; i++)
		mc.states[i] = p->states[i].desc;
	mc.host_priv = &host;
	if (kshim_machine_new(gov, &mc, &m, err, sizeof(err))) {
		fprintf(stderr, "bench-sim: %s\n", err);
		exit(1);
	}
	*mismatches = 0;
	t0 = now_s();
	for (guint k = 0; k < periods->len; k++) {
		const struct recorded *r = &g_array_index(periods, struct recorded, k);
		bool stop_tick;
		int state;

		host.cur = r;
		host.in_reflect = false;
		state = kshim_machine_select(m, 0, &stop_tick);
		*mismatches += state != r->state || stop_tick != r->stop_tick;
		kshim_machine_entered(m, 0, r->state, r->state, r->residency_ns, r->poll_time_limit);
		host.in_reflect = true;
		kshim_machine_reflect(m, 0, r->state);
	}
	t0 = now_s() - t0;
	kshim_machine_free(m);
	return t0;
}

static GArray *load_events(const char *path)
{
	GArray *events = g_array_new(FALSE, FALSE, sizeof(struct trace_event));
	GError *error = NULL;
	struct trace_reader *r = trace_open(path, &error);
	const struct trace_event *ev;
	int ret;

	if (!r)
		die(error);
	while ((ret = trace_next(r, &ev, &error)) > 0)
		g_array_append_vals(events, ev, 1);
	if (ret < 0)
		die(error);
	trace_close(r);
	return events;
}

static struct sim_config config_of(const char *path, const struct platform *p)
{
	GError *error = NULL;
	struct trace_reader *r = trace_open(path, &error);
	struct sim_config cfg;

	if (!r)
		die(error);
	cfg = (struct sim_config){ .platform = p, .hz = 250, .latency_limit_us = INT32_MAX,
				   .end_ns = trace_header(r)->end_ns };
	trace_close(r);
	return cfg;
}

int main(int argc, char **argv)
{
	unsigned int seconds = argc > 1 ? (unsigned int)atoi(argv[1]) : 20;
	const char *only = argc > 2 ? argv[2] : NULL;
	g_autofree char *dir = g_dir_make_tmp("teosim-bench-XXXXXX", NULL);
	char *shortp, *longp;
	struct sim_config cfg, cfg_long;
	struct platform p;
	GError *error = NULL;
	uint64_t periods, long_periods;
	long rss_short, rss_long;
	GArray *events;

	kshim_registry_init();
	if (!seconds || !platform_load("skx", &p, &error) ||
	    (only && !kshim_governor_find(only)))
		die(error ? error : g_error_new(G_FILE_ERROR, 0,
						"usage: bench-sim [SECONDS [GOVERNOR]]"));
	shortp = generate(dir, "short.trace", seconds * 1000);
	longp = generate(dir, "long.trace", LONG_FACTOR * seconds * 1000);
	cfg = config_of(shortp, &p);
	cfg_long = config_of(longp, &p);

	reset_peak_rss();
	time_file_run(kshim_governor_find("teo-6.1"), &cfg, shortp, &periods);
	rss_short = peak_rss_kib();
	reset_peak_rss();
	time_file_run(kshim_governor_find("teo-6.1"), &cfg_long, longp, &long_periods);
	rss_long = peak_rss_kib();
	printf("memory (teo-6.1, from file): %" G_GUINT64_FORMAT " periods: peak RSS %ld KiB; "
	       "%" G_GUINT64_FORMAT " periods: %ld KiB\n\n", periods, rss_short, long_periods,
	       rss_long);

	events = load_events(shortp);
	printf("trace: %u s simulated, %u events, one CPU, platform skx, HZ 250\n", seconds,
	       events->len);
	printf("%-12s %9s %14s %14s %14s %10s %10s %s\n", "governor", "periods", "file/s",
	       "memory/s", "bare/s", "mem/bare", "file/bare", "bare-mismatch");
	for (size_t g = 0; g < kshim_governor_count(); g++) {
		const struct kshim_governor *gov = kshim_governor_at(g);
		double t_file = 1e9, t_mem = 1e9, t_bare = 1e9;
		struct recorder rec = { .periods = g_array_new(FALSE, FALSE, sizeof(struct recorded)) };
		uint64_t mismatches = 0;

		if (only && strcmp(gov->meta->name, only))
			continue;
		time_memory_run(gov, &cfg, events, &rec);
		for (int k = 0; k < 5; k++) {
			t_file = MIN(t_file, time_file_run(gov, &cfg, shortp, &periods));
			t_mem = MIN(t_mem, time_memory_run(gov, &cfg, events, NULL));
			t_bare = MIN(t_bare, time_bare_loop(gov, &cfg, rec.periods, &mismatches));
		}
		printf("%-12s %9u %14.0f %14.0f %14.0f %10.2f %10.2f %" G_GUINT64_FORMAT "\n",
		       gov->meta->name, rec.periods->len, rec.periods->len / t_file,
		       rec.periods->len / t_mem, rec.periods->len / t_bare, t_mem / t_bare,
		       t_file / t_bare, mismatches);
		g_array_free(rec.periods, TRUE);
	}
	g_array_free(events, TRUE);
	g_unlink(shortp);
	g_unlink(longp);
	g_rmdir(dir);
	g_free(shortp);
	g_free(longp);
	platform_clear(&p);
	return 0;
}

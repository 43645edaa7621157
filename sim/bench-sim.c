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
 *           memory run recorded (clock, sleep length, tick state, tasks in
 *           iowait, residency, got_tick), through a host that answers from
 *           those arrays.
 * Times are CPU time; each rate and ratio is the median over ROUNDS rounds
 * of the three.  The bare loop's decisions are checked against the
 * recorded ones.  The last rows time the README's main command on the same
 * trace, three governors fed from one pass over the file, and all the
 * governors benched fed from one pass as a sweep's cells are, each against
 * the sum of their bare loops.  Memory: the peak resident size during a run over the
 * trace and during a run over one LONG_FACTOR times as long.
 *
 * Usage: bench-sim [SECONDS [GOVERNOR...]]  (simulated seconds of the short
 * trace, default 20; only those governors, built-in names or module paths:
 * one for a run under callgrind, or a built-in governor beside the module
 * built from its own source, to show that a module costs nothing more)
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
#include "load.h"
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
	unsigned int iowait_tasks;
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

static void record_select(void *priv, const struct idle_period *p)
{
	struct recorder *r = priv;

	r->pending = (struct recorded){
		.entry_ns = p->entry_ns, .sleep_length_ns = p->sleep_length_ns,
		.delta_next_ns = p->delta_next_ns, .tick_stopped = p->tick_was_stopped,
		.state = p->state, .stop_tick = p->stop_tick, .iowait_tasks = p->iowait_tasks,
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
 * One simulation of each of the n governors, all fed from one pass of the
 * reader r as teosim runs are, or else from the events of the array;
 * returns the idle periods scored.  rec records the first governor's calls.
 */
static uint64_t simulate(const struct kshim_governor *const *govs, unsigned int n,
			 const struct sim_config *cfg, struct trace_reader *r,
			 const GArray *events, struct recorder *rec)
{
	struct sim_cpu *cpus = g_new0(struct sim_cpu, n);
	struct feed_listener *l = g_new0(struct feed_listener, n);
	GError *error = NULL;
	uint64_t periods = 0;

	for (unsigned int k = 0; k < n; k++) {
		if (!sim_cpu_init(&cpus[k], 0, govs[k], cfg, &error))
			die(error);
		cpus[k].scorer = idle_scorer_new(cfg->platform, cfg->latency_limit_us, govs[k]);
		l[k].cpu = &cpus[k];
	}
	if (rec)
		cpus[0].observer = (struct idle_observer){ record_select, record_reflect, rec };
	if (r && !trace_feed(r, l, n, NULL))
		for (unsigned int k = 0; k < n; k++)
			if (l[k].error)
				die(l[k].error);
	for (unsigned int k = 0; !r && k < n; k++) {
		const struct trace_event *ev = (const struct trace_event *)events->data;

		for (guint e = 0; e < events->len; e++)
			if (!sim_cpu_feed(&cpus[k], &ev[e], &error))
				die(error);
		if (!sim_cpu_finish(&cpus[k], &error))
			die(error);
	}
	for (unsigned int k = 0; k < n; k++) {
		struct cpu_score score;

		idle_scorer_finish(cpus[k].scorer, &cpus[k], &score);
		periods += score.scored + score.unscored;
		idle_scorer_free(cpus[k].scorer);
		sim_cpu_clear(&cpus[k]);
	}
	g_free(l);
	g_free(cpus);
	return periods;
}

/* Times a simulation of the n governors from one pass over the trace at path. */
static double time_file_run(const struct kshim_governor *const *govs, unsigned int n,
			    const struct sim_config *cfg, const char *path, uint64_t *periods)
{
	GError *error = NULL;
	struct trace_reader *r = trace_open(path, &error);
	double t0;

	if (!r)
		die(error);
	t0 = now_s();
	*periods = simulate(govs, n, cfg, r, NULL, NULL);
	t0 = now_s() - t0;
	trace_close(r);
	return t0;
}

static double time_memory_run(const struct kshim_governor *gov, const struct sim_config *cfg,
			      GArray *events, struct recorder *rec)
{
	double t0 = now_s();

	simulate(&gov, 1, cfg, NULL, events, rec);
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

/* What the simulation told: menu of 6.1 reads it, and the bench's I/O source sets it. */
static unsigned int bare_nr_iowait(void *priv, unsigned int cpu)
{
	(void)cpu;
	return ((const struct bare_host *)priv)->cur->iowait_tasks;
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

/* The trace's events without its phase markers, which the idle loop is not fed. */
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
		if (ev->kind != TRACE_PHASE)
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

/* How many rounds of file, memory and bare runs each ratio is the median of. */
#define ROUNDS	7

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v. */
static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), compare_doubles);
	return v[n / 2];
}

/* What the bare loop of one governor needs, kept for the compare row. */
struct governor_bench {
	const struct kshim_governor *gov;
	struct recorder rec;
	double t_bare;		/* the latest round's */
};

static double time_bare(struct governor_bench *b, const struct sim_config *cfg)
{
	uint64_t mismatches;
	double t = time_bare_loop(b->gov, cfg, b->rec.periods, &mismatches);

	if (mismatches) {
		fprintf(stderr, "bench-sim: %s: the bare loop decided %" G_GUINT64_FORMAT
			" periods otherwise than the simulation\n", b->gov->meta->name, mismatches);
		exit(1);
	}
	return t;
}

/*
 * The rounds of one governor: medians of the rates, and of the ratios of
 * each round (the runs of a round are close in time, so a machine busy
 * elsewhere slows them alike).
 */
static void bench_governor(struct governor_bench *b, const struct sim_config *cfg,
			   const char *path, GArray *events)
{
	double file[ROUNDS], mem[ROUNDS], bare[ROUNDS], mem_ratio[ROUNDS], file_ratio[ROUNDS];
	double n = b->rec.periods->len;
	uint64_t periods;

	for (unsigned int k = 0; k < ROUNDS; k++) {
		file[k] = time_file_run(&b->gov, 1, cfg, path, &periods);
		mem[k] = time_memory_run(b->gov, cfg, events, NULL);
		bare[k] = time_bare(b, cfg);
		mem_ratio[k] = mem[k] / bare[k];
		file_ratio[k] = file[k] / bare[k];
	}
	printf("%-22s %9.0f %12.0f %12.0f %12.0f %9.2f %9.2f\n", b->gov->meta->name, n,
	       n / median(file, ROUNDS), n / median(mem, ROUNDS), n / median(bare, ROUNDS),
	       median(mem_ratio, ROUNDS), median(file_ratio, ROUNDS));
}

/*
 * Several governors from one pass over the file, against their bare loops:
 * the README's main command, or a sweep's block of cells (sim_run_cells()
 * feeds them the same way).  label NULL: their names.
 */
static void bench_compare(struct governor_bench **b, unsigned int n,
			  const struct sim_config *cfg, const char *path, const char *label)
{
	g_autofree const struct kshim_governor **govs = g_new(const struct kshim_governor *, n);
	double file[ROUNDS], bare[ROUNDS], ratio[ROUNDS];
	g_autoptr(GString) names = g_string_new(label);
	double periods_all = 0;
	uint64_t periods;

	for (unsigned int g = 0; g < n; g++) {
		govs[g] = b[g]->gov;
		if (!label)
			g_string_append_printf(names, "%s%s", g ? "," : "", govs[g]->meta->name);
		periods_all += b[g]->rec.periods->len;
	}
	for (unsigned int k = 0; k < ROUNDS; k++) {
		file[k] = time_file_run(govs, n, cfg, path, &periods);
		bare[k] = 0;
		for (unsigned int g = 0; g < n; g++)
			bare[k] += time_bare(b[g], cfg);
		ratio[k] = file[k] / bare[k];
	}
	printf("%-22s %9.0f %12.0f %12s %12.0f %9s %9.2f\n", names->str, periods_all,
	       periods_all / median(file, ROUNDS), "-", periods_all / median(bare, ROUNDS), "-",
	       median(ratio, ROUNDS));
}

int main(int argc, char **argv)
{
	static const char *const compared[] = { "teo-v8", "teo-6.1", "menu-6.1" };
	unsigned int seconds = argc > 1 ? (unsigned int)atoi(argv[1]) : 20;
	g_autofree char *dir = g_dir_make_tmp("teosim-bench-XXXXXX", NULL);
	const struct kshim_governor *teo;
	struct governor_bench *benches, *for_compare[G_N_ELEMENTS(compared)];
	g_autoptr(GPtrArray) govs = g_ptr_array_new();
	unsigned int nr_compared = 0;
	char *shortp, *longp;
	struct sim_config cfg, cfg_long;
	struct platform p;
	GError *error = NULL;
	uint64_t periods, long_periods;
	long rss_short, rss_long;
	GArray *events;

	kshim_registry_init();
	if (!seconds || !platform_load("skx", &p, &error))
		die(error ? error : g_error_new(G_FILE_ERROR, 0,
						"usage: bench-sim [SECONDS [GOVERNOR...]]"));
	for (int a = 2; a < argc; a++) {
		const struct kshim_governor *g = module_arg_is_path(argv[a]) ?
			module_load(argv[a], &error) : kshim_governor_find(argv[a]);

		if (!g)
			die(error ? error : g_error_new(G_FILE_ERROR, 0, "no governor %s", argv[a]));
		g_ptr_array_add(govs, (gpointer)g);
	}
	for (size_t g = 0; argc < 3 && g < kshim_governor_count(); g++)
		g_ptr_array_add(govs, (gpointer)kshim_governor_at(g));
	shortp = generate(dir, "short.trace", seconds * 1000);
	longp = generate(dir, "long.trace", LONG_FACTOR * seconds * 1000);
	cfg = config_of(shortp, &p);
	cfg_long = config_of(longp, &p);
	teo = kshim_governor_find("teo-6.1");

	reset_peak_rss();
	time_file_run(&teo, 1, &cfg, shortp, &periods);
	rss_short = peak_rss_kib();
	reset_peak_rss();
	time_file_run(&teo, 1, &cfg_long, longp, &long_periods);
	rss_long = peak_rss_kib();
	printf("memory (teo-6.1, from file): %" G_GUINT64_FORMAT " periods: peak RSS %ld KiB; "
	       "%" G_GUINT64_FORMAT " periods: %ld KiB\n\n", periods, rss_short, long_periods,
	       rss_long);

	events = load_events(shortp);
	printf("trace: %u s simulated, %u events, one CPU, platform skx, HZ 250; "
	       "periods/s and ratios: medians of %d rounds\n", seconds, events->len, ROUNDS);
	printf("%-22s %9s %12s %12s %12s %9s %9s\n", "governor", "periods", "file/s",
	       "memory/s", "bare/s", "mem/bare", "file/bare");
	benches = g_new0(struct governor_bench, govs->len);
	for (guint g = 0; g < govs->len; g++) {
		struct governor_bench *b = &benches[g];

		b->gov = g_ptr_array_index(govs, g);
		b->rec.periods = g_array_new(FALSE, FALSE, sizeof(struct recorded));
		time_memory_run(b->gov, &cfg, events, &b->rec);
		bench_governor(b, &cfg, shortp, events);
		for (unsigned int k = 0; k < G_N_ELEMENTS(compared); k++)
			if (!strcmp(b->gov->meta->name, compared[k]))
				for_compare[nr_compared++] = b;
	}
	if (nr_compared == G_N_ELEMENTS(compared))
		bench_compare(for_compare, nr_compared, &cfg, shortp, NULL);
	if (govs->len > 1) {
		g_autofree struct governor_bench **all = g_new(struct governor_bench *, govs->len);
		g_autofree char *label = g_strdup_printf("all %u, one pass", govs->len);

		for (guint g = 0; g < govs->len; g++)
			all[g] = &benches[g];
		bench_compare(all, govs->len, &cfg, shortp, label);
	}
	for (guint g = 0; g < govs->len; g++)
		g_array_free(benches[g].rec.periods, TRUE);
	g_free(benches);
	g_array_free(events, TRUE);
	g_unlink(shortp);
	g_unlink(longp);
	g_rmdir(dir);
	g_free(shortp);
	g_free(longp);
	platform_clear(&p);
	return 0;
}

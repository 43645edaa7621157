// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the simulator: a workload trace (traces/trace-format.md)
 * that the reader accepts is simulated under every governor built in, on
 * two platforms, as `teosim run` does.  Besides not crashing and ending
 * (libFuzzer's timeout is a hang, as in sim/README.md, item 54), every
 * result keeps what the simulation of any trace must (check_cpu()), and
 * where no cost of the platform can move work in time, every governor
 * runs the same work, all of what the trace brings unless the end cuts it
 * (check_same_work(); fuzz-trace-work.h counts that work apart from the
 * simulator).
 */
#include <kshim/registry.h>

#include "fuzz-input.h"
#include "fuzz-trace-work.h"
#include "run.h"

/*
 * Only inputs that simulate in well under a second each under the
 * sanitizers are run, so that libFuzzer's timeout means a hang.  Each CPU
 * is simulated by 14 jobs (7 governors, 2 platforms), each with a machine
 * of its own, whose setup alone takes about a second for the 256 CPUs the
 * reader allows: 16 take 60 ms.  A period costs about 6 us.  Besides the
 * trace's own wakeups, a CPU's periods end at the tick or at a polling
 * limit, which a timer whose interrupt is late makes the governors reach
 * one after another: at least 2 us apart on these platforms for teo-v8
 * (which polls to C1's target residency), 20 us for the others, so the
 * simulated time of all CPUs bounds them: 64 ms, 0.2 s of such periods
 * (a timer due at once whose interrupt comes at the end).  The trace's
 * wakeups are one per event at most, and one per expiry of a periodic
 * timer before the end (a 1 us period alone could make millions): 4000
 * of them take 0.1 to 0.2 s.
 */
#define SIM_CPUS_MAX		16
#define SIM_CPU_TIME_MAX_NS	(64ull * 1000 * 1000)
#define SIM_WAKEUPS_MAX		4000

#define NR_PLATFORMS	2

/* A platform and the HZ it is simulated with. */
struct sim_platform {
	struct platform p;
	unsigned int hz;
	uint64_t max_exit_cost_ns;
};

static struct sim_platform platforms[NR_PLATFORMS];
static const struct kshim_governor **govs;
static unsigned int nr_govs;

/* What one pass of the reader tells of a trace, before it is simulated. */
struct trace_facts {
	unsigned int nr_cpus;
	uint64_t end_ns;
	uint64_t wakeups;	/* at most this many come from its events */
	bool tick_stop_cost;	/* its header says stopping the tick takes time */
	struct trace_work work;
};

/*
 * Every cost in time of the platform, 0: the exit of every state, the
 * timer's latency and the idle loop's own paths.  The governors still see
 * the declared exit latencies and target residencies, so they choose as on
 * the real table (item 54's hang came with measured exit costs of 0 and
 * the declared latencies).
 */
static void zero_costs(struct sim_platform *sp)
{
	struct platform *p = &sp->p;

	g_free(p->name);
	p->name = g_strdup("qemu-tcg-zero");
	p->timer_latency_us = p->poll_check_us = p->idle_loop_us = p->tick_work_us = 0;
	p->select_lead_us = p->tick_stop_us = p->idle_entry_us = p->residency_gap_us = 0;
	p->idle_entry_held_us = 0;
	for (unsigned int i = 0; i < p->state_count; i++)
		p->states[i].exit_cost_us = 0;
}

/*
 * qemu-tcg is the bundled platform with a cost of its own for every step
 * (timer latency, tick work, select lead, tick stop, idle entry, residency
 * gap, polling pace, exit costs); the other is the same table with none,
 * where time passes only where the trace says.  Two HZ: a trace's tick
 * records and wheel timers meet both grids.
 */
static void set_up(void)
{
	GError *error = NULL;

	for (unsigned int i = 0; i < NR_PLATFORMS; i++) {
		struct sim_platform *sp = &platforms[i];

		if (!platform_load("qemu-tcg", &sp->p, &error)) {
			fprintf(stderr, "%s\n", error->message);
			FUZZ_ASSERT(!error);
		}
		sp->hz = i ? 1000 : 250;
		if (i)
			zero_costs(sp);
		for (unsigned int s = 0; s < sp->p.state_count; s++)
			sp->max_exit_cost_ns = MAX(sp->max_exit_cost_ns,
						   (uint64_t)sp->p.states[s].exit_cost_us * 1000);
	}
	kshim_registry_init();
	nr_govs = (unsigned int)kshim_governor_count();
	FUZZ_ASSERT(nr_govs > 0);
	govs = g_new(const struct kshim_governor *, nr_govs);
	for (unsigned int g = 0; g < nr_govs; g++)
		govs[g] = kshim_governor_at(g);
}

/* The expiries of a periodic timer's arming after its first, before the end. */
static uint64_t later_expiries(const struct trace_event *ev, uint64_t end_ns)
{
	if (ev->kind != TRACE_TIMER || !ev->period_ns || ev->expires_ns >= end_ns)
		return 0;
	return (end_ns - 1 - ev->expires_ns) / ev->period_ns;
}

/*
 * Reads the trace at path to its end: false if the reader refuses it or
 * if it would take too long to simulate (SIM_CPUS_MAX and the rest), else
 * true with f->work to clear.
 */
static bool read_facts(const char *path, struct trace_facts *f)
{
	const struct trace_header *h;
	const struct trace_event *ev;
	struct trace_reader *r;
	GError *error = NULL;
	int got = 0;

	r = trace_open(path, &error);
	if (!r) {
		FUZZ_ASSERT(error && error->message[0]);
		g_error_free(error);
		return false;
	}
	h = trace_header(r);
	*f = (struct trace_facts){ .nr_cpus = h->nr_cpus, .end_ns = h->end_ns,
				   .tick_stop_cost = h->has_tick_stop && h->tick_stop_ns };
	FUZZ_ASSERT(f->nr_cpus > 0 && f->end_ns > 0);
	if (f->nr_cpus > SIM_CPUS_MAX || f->end_ns > SIM_CPU_TIME_MAX_NS / f->nr_cpus) {
		trace_close(r);
		return false;
	}
	trace_work_init(&f->work, h);
	while (f->wakeups <= SIM_WAKEUPS_MAX && (got = trace_next(r, &ev, &error)) == 1) {
		f->wakeups += 1 + later_expiries(ev, f->end_ns);
		trace_work_add(&f->work, ev);
	}
	trace_close(r);
	FUZZ_ASSERT((got < 0) == (error != NULL));
	FUZZ_ASSERT(!error || error->message[0]);
	if (error || f->wakeups > SIM_WAKEUPS_MAX) {
		g_clear_error(&error);
		trace_work_clear(&f->work);
		return false;
	}
	trace_work_finish(&f->work);
	return true;
}

/*
 * One CPU's score.  Its periods, the exits from them and its work take
 * turns in [0, end_ns): each period runs from its entry to its wakeup, the
 * CPU runs from the end of the exit, and enters the next state at the end
 * of its work or later.  Only the last period's exit may reach past the
 * end, where the work is cut.  Every figure is unsigned, so one that went
 * below zero shows up as far too large.
 */
static void check_cpu(const struct cpu_score *s, const struct cpu_work *w,
		      const struct trace_facts *f, const struct sim_platform *sp)
{
	uint64_t idle = 0, opt_idle = 0, kernel_time = 0, usage = 0, events = 0;
	uint64_t periods = s->timer_wakeups + s->event_wakeups + s->tick_wakeups + s->poll_limits;
	uint64_t max_exit = MAX(sp->max_exit_cost_ns, f->work.exit_ns);

	FUZZ_ASSERT(s->state_count == sp->p.state_count);
	for (unsigned int i = 0; i < s->state_count; i++) {
		const struct state_score *st = &s->states[i];

		/* The kernel counts a residency as above or below, never both. */
		FUZZ_ASSERT(st->above + st->below <= st->usage);
		idle += st->idle_ns;
		opt_idle += st->opt_idle_ns;
		kernel_time += st->time_ns;
		usage += st->usage;
		events += st->event_wakeups;
	}
	FUZZ_ASSERT(s->busy_ns <= f->end_ns);
	/* No work runs twice.  Less may run: the end cuts it. */
	FUZZ_ASSERT(s->busy_ns <= w->work_ns);
	FUZZ_ASSERT(idle <= f->end_ns - s->busy_ns);
	/*
	 * The hindsight schedule sleeps through each idle stretch in one
	 * state, the periods of a stretch lie in it, and stretches do not
	 * overlap.
	 */
	FUZZ_ASSERT(idle <= opt_idle && opt_idle <= f->end_ns);
	/*
	 * The core's residencies include the exit (less the residency gap),
	 * the state's or the wakeup's own (exit_ns).
	 */
	FUZZ_ASSERT(kernel_time <= f->end_ns - s->busy_ns + max_exit);
	FUZZ_ASSERT(s->exit_ns <= periods * max_exit);
	/*
	 * Each period is entered once (the kernel's usage), woken once, and
	 * scored once, or left unscored when the trace ends in its stretch.
	 */
	FUZZ_ASSERT(usage == periods);
	FUZZ_ASSERT(s->scored + s->unscored == periods);
	/* Of the periods scored, the governor's choice agreed, was too deep, or too shallow. */
	FUZZ_ASSERT(s->agree + s->too_deep <= s->scored);
	FUZZ_ASSERT(events == s->event_wakeups);
	FUZZ_ASSERT(s->needless_stops <= s->scored && s->missed_stops <= s->scored);
}

/*
 * Whether every governor must find the same work on this platform.  The
 * work a trace carries, and when it comes, do not depend on the governor,
 * but when it runs may: a state's exit cost (or a wakeup's own, exit_ns),
 * the tick's handler, the way
 * from a polling limit back to select and a tick stop's cost (the
 * platform's or the trace's tick_stop_ns) each delay the work that comes
 * meanwhile or follows, so that more or less of it is cut at end_ns, and
 * an interrupt's held_ns counts only if it finds the CPU idle.  The
 * others (timer latency, select lead, idle entry, residency gap, polling
 * pace) move no work, or move it alike for every governor.  Nor may the
 * trace have wheel timers: they expire with the tick, running or stopped
 * as the governor chose, and one queued while the tick is stopped waits
 * for the next wakeup.
 */
static bool same_work_expected(const struct trace_facts *f, const struct sim_platform *sp)
{
	const struct platform *p = &sp->p;

	return !sp->max_exit_cost_ns && !f->work.exit_ns && !p->tick_work_us &&
	       !p->idle_loop_us && !p->tick_stop_us && !f->tick_stop_cost && !f->work.wheel;
}

/*
 * Then each CPU is busy equally long, and idle at the same times: the
 * same timers and interrupts end its idle stretches (a kept tick or a
 * polling limit splits a stretch, which is the governor's doing).  It
 * runs every bit of its work, unless the end may cut it: after the last
 * of the work comes, the CPU may wait for an interrupt held up (held_ns)
 * and then works off what is left.  An expiry whose late interrupt comes
 * after a cut may run sooner, with another timer's: then at least that.
 */
static void check_same_work(const struct sim_result *res, const struct trace_facts *f)
{
	for (unsigned int cpu = 0; cpu < f->nr_cpus; cpu++) {
		const struct cpu_work *w = &f->work.cpus[cpu];
		uint64_t done_by = w->last_ns + f->work.held_ns + w->work_ns;

		/* The times are below 2^62: with work below 2^63 the sum fits. */
		if (w->work_ns < UINT64_MAX / 2 && done_by < f->end_ns)
			FUZZ_ASSERT(w->may_run_sooner ? res[0].cpus[cpu].busy_ns >= w->work_ns :
							res[0].cpus[cpu].busy_ns == w->work_ns);
		for (unsigned int g = 1; g < nr_govs; g++) {
			const struct cpu_score *a = &res[0].cpus[cpu], *b = &res[g].cpus[cpu];

			FUZZ_ASSERT(a->busy_ns == b->busy_ns);
			FUZZ_ASSERT(a->timer_wakeups == b->timer_wakeups);
			FUZZ_ASSERT(a->event_wakeups == b->event_wakeups);
		}
	}
}

static void simulate(const char *path, const struct trace_facts *f,
		     const struct sim_platform *sp)
{
	struct sim_run_options o = { .platform = &sp->p, .hz = sp->hz,
				     .latency_limit_us = INT32_MAX, .threads = 1 };
	char *traces[] = { (char *)path };
	struct sim_result *res;
	GError *error = NULL;

	/* A trace the reader accepts is one every governor can run. */
	if (!sim_run_all(&o, govs, nr_govs, traces, 1, &res, &error)) {
		fprintf(stderr, "%s on %s: %s\n", path, sp->p.name, error->message);
		FUZZ_ASSERT(!error);
	}
	for (unsigned int g = 0; g < nr_govs; g++) {
		FUZZ_ASSERT(res[g].gov == govs[g] && res[g].nr_cpus == f->nr_cpus);
		for (unsigned int cpu = 0; cpu < f->nr_cpus; cpu++)
			check_cpu(&res[g].cpus[cpu], &f->work.cpus[cpu], f, sp);
	}
	if (same_work_expected(f, sp))
		check_same_work(res, f);
	sim_results_free(res, nr_govs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(0, data, size);
	struct trace_facts f;

	if (!govs)
		set_up();
	if (!read_facts(path, &f))
		return 0;
	for (unsigned int i = 0; i < NR_PLATFORMS; i++)
		simulate(path, &f, &platforms[i]);
	trace_work_clear(&f.work);
	return 0;
}

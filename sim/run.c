// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "feed.h"
#include "kvline.h"
#include "run.h"

struct job {
	const struct kshim_governor *gov;
	unsigned int cpu;
	const struct sim_config *cfg;
	struct cpu_score *out;
	struct plot_series *plot;	/* NULL unless the figures are wanted */
	struct phase_scores *phases;	/* NULL unless phases are scored */
	GError *error;
	struct sim_cpu sim;		/* while it runs */
	bool started;
};

struct sim_config sim_config_for(const struct sim_run_options *o,
				 const struct trace_header *h)
{
	return (struct sim_config){
		.platform = o->platform,
		.hz = o->hz,
		.latency_limit_us = o->latency_limit_us,
		.end_ns = h->end_ns,
		.mono_ns = h->mono_ns,
		.poll_check_ns = h->poll_check_ns,
		.has_tick_stop = h->has_tick_stop,
		.tick_stop_ns = h->tick_stop_ns,
	};
}

/* For the figures: the trace's phase markers, which the idle loop passes over. */
static void job_phase(void *priv, unsigned int k, const struct trace_event *ev)
{
	struct job *j = (struct job *)priv + k;

	if (j->plot)
		plot_series_add_phase(j->plot, ev->at_ns, ev->phase);
	if (j->phases)
		phase_scores_begin(j->phases, ev->at_ns, ev->phase);
}

static void job_verdict(void *priv, const struct idle_verdict *v)
{
	struct job *j = priv;

	if (j->plot) {
		struct plot_period p = {
			.entry_ns = v->period->entry_ns, .idle_ns = v->idle_ns,
			.chosen = v->period->state, .optimal = v->optimal,
			.above = v->above, .below = v->below,
		};

		plot_series_add(j->plot, &p);
	}
	if (j->phases)
		phase_scores_add(j->phases, v);
}

/* Job k of a group's jobs: a CPU with its governor and its scorer. */
static bool job_start(void *priv, unsigned int k, struct sim_cpu **cpu, GError **error)
{
	struct job *j = (struct job *)priv + k;

	if (!sim_cpu_init(&j->sim, j->cpu, j->gov, j->cfg, error))
		return false;
	j->sim.scorer = idle_scorer_new(j->cfg->platform, j->cfg->latency_limit_us, j->gov);
	if (j->plot || j->phases)
		idle_scorer_observe(j->sim.scorer, job_verdict, j);
	j->started = true;
	*cpu = &j->sim;
	return true;
}

static void job_end(void *priv, unsigned int k, GError *error)
{
	struct job *j = (struct job *)priv + k;

	j->error = error;
	if (!j->started)
		return;
	if (!error)
		idle_scorer_finish(j->sim.scorer, &j->sim, j->out);
	idle_scorer_free(j->sim.scorer);
	sim_cpu_clear(&j->sim);
}

static struct plot_series *new_plot(const struct sim_run_options *o,
				    const struct sim_result *r)
{
	struct plot_series *s = g_new0(struct plot_series, 1);
	struct plot_state states[KSHIM_STATE_MAX];

	for (unsigned int i = 0; i < o->platform->state_count; i++) {
		g_strlcpy(states[i].name, o->platform->states[i].desc.name, sizeof(states[i].name));
		states[i].target_residency_us = o->platform->states[i].desc.target_residency_us;
	}
	plot_series_init(s, r->gov->meta->name, o->platform->name, states,
			 o->platform->state_count);
	return s;
}

static void free_plot(struct plot_series *s)
{
	if (!s)
		return;
	plot_series_clear(s);
	g_free(s);
}

/* Each result keeps its CPU 0 job's series, with the other CPUs' counts added. */
static void merge_plots(struct sim_result *res, unsigned int nr_results, struct job *jobs,
			unsigned int nr_jobs)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < nr_results && k < nr_jobs; i++) {
		res[i].plot = jobs[k].plot;
		for (unsigned int cpu = 1; cpu < res[i].nr_cpus; cpu++) {
			if (res[i].plot)
				plot_series_add_counts(res[i].plot, jobs[k + cpu].plot);
			free_plot(jobs[k + cpu].plot);
		}
		k += res[i].nr_cpus;
	}
}

/* Each result's phase scores: its CPUs' jobs', added up. */
static void merge_phases(struct sim_result *res, unsigned int nr_results, struct job *jobs)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < nr_results; i++)
		for (unsigned int cpu = 0; cpu < res[i].nr_cpus; cpu++, k++) {
			if (!jobs[k].phases)
				continue;
			if (!res[i].phases)
				res[i].phases = g_new0(struct phase_scores, 1);
			phase_scores_merge(res[i].phases, jobs[k].phases);
			g_free(jobs[k].phases);
		}
}

static bool read_header(const char *path, struct trace_header *out, GError **error)
{
	struct trace_reader *r = trace_open(path, error);

	if (!r)
		return false;
	*out = *trace_header(r);
	out->name = NULL;
	trace_close(r);
	if (out->nr_cpus < 1) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s: no CPUs", path);
		return false;
	}
	return true;
}

/*
 * Runs the jobs, each trace's split into groups of consecutive jobs, as
 * many per trace as the threads allow, since each group reads its trace
 * once.
 */
static void run_jobs(const struct sim_run_options *o, char *const *traces,
		     unsigned int nr_traces, struct job *jobs, const unsigned int *jobs_per_trace)
{
	unsigned int per_trace = MAX(1, (o->threads + nr_traces - 1) / nr_traces);
	struct feed_group *groups = g_new0(struct feed_group, nr_traces * per_trace);
	unsigned int n = 0;

	for (unsigned int t = 0; t < nr_traces; t++) {
		unsigned int count = MIN(per_trace, jobs_per_trace[t]);

		for (unsigned int k = 0; k < count; k++) {
			unsigned int from = k * jobs_per_trace[t] / count;
			unsigned int to = (k + 1) * jobs_per_trace[t] / count;

			groups[n++] = (struct feed_group){
				.trace = traces[t], .end_ns = jobs[from].cfg->end_ns,
				.jobs = { .n = to - from, .start = job_start, .end = job_end,
					  .phase = job_phase, .priv = jobs + from },
			};
		}
		jobs += jobs_per_trace[t];
	}
	feed_run_groups(groups, n, o->threads, o->progress);
	g_free(groups);
}

/* Takes the first failed job's error, in job order; false if any failed. */
static bool collect_errors(struct job *jobs, unsigned int n, GError **error)
{
	bool ok = true;

	for (unsigned int k = 0; k < n; k++) {
		if (jobs[k].error && ok) {
			g_propagate_error(error, jobs[k].error);
			jobs[k].error = NULL;
			ok = false;
		}
		g_clear_error(&jobs[k].error);
	}
	return ok;
}

static void add_up_cpus(struct sim_result *res, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int cpu = 0; cpu < res[i].nr_cpus; cpu++)
			cpu_score_add(&res[i].all, &res[i].cpus[cpu]);
}

bool sim_run_all(const struct sim_run_options *o, const struct kshim_governor *const *govs,
		 unsigned int nr_govs, char *const *traces, unsigned int nr_traces,
		 struct sim_result **out, GError **error)
{
	unsigned int nr_results = nr_govs * nr_traces, nr_jobs = 0, k = 0;
	struct sim_result *res = g_new0(struct sim_result, nr_results);
	struct sim_config *cfgs = g_new0(struct sim_config, nr_traces);
	unsigned int *jobs_per_trace = g_new0(unsigned int, nr_traces);
	struct job *jobs;
	bool ok;

	*out = NULL;
	for (unsigned int t = 0; t < nr_traces; t++) {
		struct trace_header h;

		if (!read_header(traces[t], &h, error)) {
			sim_results_free(res, nr_results);
			g_free(cfgs);
			g_free(jobs_per_trace);
			return false;
		}
		cfgs[t] = sim_config_for(o, &h);
		for (unsigned int g = 0; g < nr_govs; g++) {
			struct sim_result *r = &res[t * nr_govs + g];

			r->gov = govs[g];
			r->trace = traces[t];
			r->nr_cpus = h.nr_cpus;
			r->cpus = g_new0(struct cpu_score, h.nr_cpus);
			jobs_per_trace[t] += h.nr_cpus;
		}
		nr_jobs += jobs_per_trace[t];
	}
	jobs = g_new0(struct job, nr_jobs);
	for (unsigned int t = 0; t < nr_traces; t++)
		for (unsigned int g = 0; g < nr_govs; g++) {
			struct sim_result *r = &res[t * nr_govs + g];

			for (unsigned int cpu = 0; cpu < r->nr_cpus; cpu++)
				jobs[k++] = (struct job){ .gov = r->gov, .cpu = cpu, .cfg = &cfgs[t],
							  .out = &r->cpus[cpu],
							  .plot = o->plots ? new_plot(o, r) : NULL,
							  .phases = o->phases ?
								    g_new0(struct phase_scores, 1) :
								    NULL };
		}
	run_jobs(o, traces, nr_traces, jobs, jobs_per_trace);
	ok = collect_errors(jobs, nr_jobs, error);
	if (ok)
		add_up_cpus(res, nr_results);
	merge_plots(res, nr_results, jobs, nr_jobs);
	merge_phases(res, nr_results, jobs);
	g_free(jobs);
	g_free(cfgs);
	g_free(jobs_per_trace);
	if (!ok) {
		sim_results_free(res, nr_results);
		return false;
	}
	*out = res;
	return true;
}

void sim_results_free(struct sim_result *r, unsigned int n)
{
	if (!r)
		return;
	for (unsigned int i = 0; i < n; i++) {
		g_free(r[i].cpus);
		g_free(r[i].phases);
		free_plot(r[i].plot);
	}
	g_free(r);
}

bool sim_run_cells(const char *trace, const char *name, const struct sim_cell *cells,
		   unsigned int n, struct sim_result *out, GError **error)
{
	struct trace_header h;
	struct sim_config *cfgs;
	struct job *jobs;
	struct feed_group group;
	unsigned int k = 0;
	bool ok;

	memset(out, 0, n * sizeof(*out));
	if (!read_header(trace, &h, error))
		return false;
	cfgs = g_new(struct sim_config, n);
	jobs = g_new0(struct job, (size_t)n * h.nr_cpus);
	for (unsigned int i = 0; i < n; i++) {
		cfgs[i] = sim_config_for(cells[i].options, &h);
		out[i] = (struct sim_result){ .gov = cells[i].gov, .trace = name,
					      .nr_cpus = h.nr_cpus,
					      .cpus = g_new0(struct cpu_score, h.nr_cpus) };
		for (unsigned int cpu = 0; cpu < h.nr_cpus; cpu++)
			jobs[k++] = (struct job){ .gov = cells[i].gov, .cpu = cpu, .cfg = &cfgs[i],
						  .out = &out[i].cpus[cpu],
						  .phases = cells[i].options->phases ?
							    g_new0(struct phase_scores, 1) : NULL };
	}
	group = (struct feed_group){
		.trace = trace, .end_ns = h.end_ns,
		.jobs = { .n = k, .start = job_start, .end = job_end, .phase = job_phase,
			  .priv = jobs },
	};
	feed_run_groups(&group, 1, 1, false);
	ok = collect_errors(jobs, k, error);
	merge_phases(out, n, jobs);
	if (ok) {
		add_up_cpus(out, n);
	} else {
		for (unsigned int i = 0; i < n; i++) {
			g_free(out[i].cpus);
			g_free(out[i].phases);
		}
		memset(out, 0, n * sizeof(*out));
	}
	g_free(jobs);
	g_free(cfgs);
	return ok;
}

// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "kvline.h"
#include "run.h"

struct job {
	const struct kshim_governor *gov;
	const char *trace;
	unsigned int cpu;
	const struct sim_config *cfg;
	struct cpu_score *out;
	struct plot_series *plot;	/* NULL unless the figures are wanted */
	GError *error;
};

struct progress {
	bool show;
	unsigned int total;
	gint done;
	GMutex lock;
};

static int trace_source_next(void *priv, struct trace_event *ev, GError **error)
{
	return trace_next(priv, ev, error);
}

struct sim_event_source sim_trace_source(struct trace_reader *r)
{
	return (struct sim_event_source){ .next = trace_source_next, .priv = r };
}

struct sim_config sim_config_for(const struct sim_run_options *o,
				 const struct trace_header *h)
{
	return (struct sim_config){
		.platform = o->platform,
		.hz = o->hz,
		.latency_limit_us = o->latency_limit_us,
		.end_ns = h->end_ns,
	};
}

/* For the figures: the trace's phase markers, which the idle loop ignores. */
struct phase_source {
	struct trace_reader *reader;
	struct plot_series *plot;
};

static int phase_source_next(void *priv, struct trace_event *ev, GError **error)
{
	struct phase_source *ps = priv;
	int ret = trace_next(ps->reader, ev, error);

	if (ret > 0 && ev->kind == TRACE_PHASE)
		plot_series_add_phase(ps->plot, ev->at_ns, ev->phase);
	return ret;
}

static void plot_verdict(void *priv, const struct idle_verdict *v)
{
	struct plot_period p = {
		.entry_ns = v->period->entry_ns, .idle_ns = v->idle_ns,
		.chosen = v->period->state, .optimal = v->optimal,
		.above = v->above, .below = v->below,
	};

	plot_series_add(priv, &p);
}

/* One CPU of one trace under one governor, from trace reader to score. */
static bool run_one_cpu(struct job *j)
{
	struct trace_reader *r = trace_open(j->trace, (int)j->cpu, &j->error);
	struct phase_source phases = { .reader = r, .plot = j->plot };
	struct sim_event_source src = sim_trace_source(r);
	struct idle_scorer *scorer;
	struct sim_cpu c;
	bool ok;

	if (!r)
		return false;
	if (j->plot)
		src = (struct sim_event_source){ .next = phase_source_next, .priv = &phases };
	if (!sim_cpu_init(&c, j->cpu, j->gov, j->cfg, src, &j->error)) {
		trace_close(r);
		return false;
	}
	scorer = idle_scorer_new(j->cfg->platform, j->cfg->latency_limit_us);
	if (j->plot)
		idle_scorer_observe(scorer, plot_verdict, j->plot);
	c.scorer = scorer;
	/* The reader's errors name the file and line already. */
	ok = sim_cpu_run(&c, &j->error);
	if (ok)
		idle_scorer_finish(scorer, &c, j->out);
	idle_scorer_free(scorer);
	sim_cpu_clear(&c);
	trace_close(r);
	return ok;
}

static void job_done(struct progress *pr)
{
	gint done = g_atomic_int_add(&pr->done, 1) + 1;

	if (!pr->show)
		return;
	g_mutex_lock(&pr->lock);
	fprintf(stderr, "\rteosim: %d of %u CPU runs done", done, pr->total);
	if ((unsigned int)done == pr->total)
		fputc('\n', stderr);
	g_mutex_unlock(&pr->lock);
}

static void pool_func(gpointer data, gpointer user_data)
{
	run_one_cpu(data);
	job_done(user_data);
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

static bool read_header(const char *path, struct trace_header *out, GError **error)
{
	struct trace_reader *r = trace_open(path, -1, error);

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

static void run_jobs(const struct sim_run_options *o, struct job *jobs, unsigned int n)
{
	struct progress pr = { .show = o->progress, .total = n };
	GThreadPool *pool;

	g_mutex_init(&pr.lock);
	if (o->threads <= 1 || n <= 1) {
		for (unsigned int k = 0; k < n; k++)
			pool_func(&jobs[k], &pr);
	} else {
		pool = g_thread_pool_new(pool_func, &pr, (gint)MIN(o->threads, n), TRUE, NULL);
		for (unsigned int k = 0; k < n; k++)
			g_thread_pool_push(pool, &jobs[k], NULL);
		g_thread_pool_free(pool, FALSE, TRUE);
	}
	g_mutex_clear(&pr.lock);
}

bool sim_run_all(const struct sim_run_options *o, const struct kshim_governor *const *govs,
		 unsigned int nr_govs, char *const *traces, unsigned int nr_traces,
		 struct sim_result **out, GError **error)
{
	unsigned int nr_results = nr_govs * nr_traces, nr_jobs = 0, k = 0;
	struct sim_result *res = g_new0(struct sim_result, nr_results);
	struct sim_config *cfgs = g_new0(struct sim_config, nr_traces);
	struct job *jobs;
	bool ok = true;

	*out = NULL;
	for (unsigned int t = 0; t < nr_traces; t++) {
		struct trace_header h;

		if (!read_header(traces[t], &h, error)) {
			sim_results_free(res, nr_results);
			g_free(cfgs);
			return false;
		}
		cfgs[t] = sim_config_for(o, &h);
		for (unsigned int g = 0; g < nr_govs; g++) {
			struct sim_result *r = &res[t * nr_govs + g];

			r->gov = govs[g];
			r->trace = traces[t];
			r->nr_cpus = h.nr_cpus;
			r->cpus = g_new0(struct cpu_score, h.nr_cpus);
			nr_jobs += h.nr_cpus;
		}
	}
	jobs = g_new0(struct job, nr_jobs);
	for (unsigned int t = 0; t < nr_traces; t++)
		for (unsigned int g = 0; g < nr_govs; g++) {
			struct sim_result *r = &res[t * nr_govs + g];

			for (unsigned int cpu = 0; cpu < r->nr_cpus; cpu++)
				jobs[k++] = (struct job){ .gov = r->gov, .trace = r->trace,
							  .cpu = cpu, .cfg = &cfgs[t],
							  .out = &r->cpus[cpu],
							  .plot = o->plots ? new_plot(o, r) : NULL };
		}
	run_jobs(o, jobs, nr_jobs);
	for (k = 0; k < nr_jobs; k++) {
		if (jobs[k].error && ok) {
			g_propagate_error(error, jobs[k].error);
			jobs[k].error = NULL;
			ok = false;
		}
		g_clear_error(&jobs[k].error);
	}
	for (unsigned int i = 0; ok && i < nr_results; i++)
		for (unsigned int cpu = 0; cpu < res[i].nr_cpus; cpu++)
			cpu_score_add(&res[i].all, &res[i].cpus[cpu]);
	merge_plots(res, nr_results, jobs, nr_jobs);
	g_free(jobs);
	g_free(cfgs);
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
		free_plot(r[i].plot);
	}
	g_free(r);
}

// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "feed.h"
#include "kvline.h"
#include "progress.h"

/* Events between two progress reports: rare enough to cost nothing. */
#define PROGRESS_EVERY	65536

/*
 * The listeners by CPU: those of CPU k are order[first[k] .. first[k + 1]),
 * in the caller's order.  A listener on a CPU the trace does not have is
 * in none of them (trace_feed() fails it).
 */
struct routes {
	unsigned int *first;
	unsigned int *order;
};

static void routes_init(struct routes *rt, const struct feed_listener *l, unsigned int n,
			unsigned int nr_cpus)
{
	unsigned int *next = g_new0(unsigned int, nr_cpus + 1);

	rt->first = g_new0(unsigned int, nr_cpus + 1);
	rt->order = g_new(unsigned int, MAX(n, 1));
	for (unsigned int k = 0; k < n; k++)
		if (l[k].cpu->cpu < nr_cpus)
			rt->first[l[k].cpu->cpu + 1]++;
	for (unsigned int c = 0; c < nr_cpus; c++)
		rt->first[c + 1] += rt->first[c];
	memcpy(next, rt->first, (nr_cpus + 1) * sizeof(*next));
	for (unsigned int k = 0; k < n; k++)
		if (l[k].cpu->cpu < nr_cpus)
			rt->order[next[l[k].cpu->cpu]++] = k;
	g_free(next);
}

static void routes_clear(struct routes *rt)
{
	g_free(rt->first);
	g_free(rt->order);
}

/* Phase markers never come here: sim_cpu_feed() takes none. */
static void feed_cpu(const struct routes *rt, struct feed_listener *l,
		     const struct trace_event *ev)
{
	for (unsigned int i = rt->first[ev->cpu]; i < rt->first[ev->cpu + 1]; i++) {
		struct feed_listener *x = &l[rt->order[i]];

		if (!x->error)
			sim_cpu_feed(x->cpu, ev, &x->error);
	}
}

bool trace_feed(struct trace_reader *r, struct feed_listener *l, unsigned int n,
		const struct feed_hooks *hooks)
{
	const struct trace_event *ev;
	GError *error = NULL;
	struct routes rt;
	uint64_t count = 0;
	bool ok = true;
	int ret;

	routes_init(&rt, l, n, trace_header(r)->nr_cpus);
	for (unsigned int k = 0; k < n; k++)
		if (l[k].cpu->cpu >= trace_header(r)->nr_cpus && !l[k].error)
			g_set_error(&l[k].error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
				    "CPU %u: the trace has %u CPUs", l[k].cpu->cpu,
				    trace_header(r)->nr_cpus);
	while ((ret = trace_next(r, &ev, &error)) > 0) {
		if (ev->kind == TRACE_PHASE) {
			if (hooks && hooks->phase)
				hooks->phase(hooks->priv, ev);
			continue;
		}
		feed_cpu(&rt, l, ev);
		if (hooks && hooks->progress && ++count % PROGRESS_EVERY == 0)
			hooks->progress(hooks->priv, ev->at_ns);
	}
	for (unsigned int k = 0; k < n; k++) {
		if (!l[k].error && ret < 0)
			l[k].error = g_error_copy(error);
		else if (!l[k].error)
			sim_cpu_finish(l[k].cpu, &l[k].error);
		ok &= !l[k].error;
	}
	g_clear_error(&error);
	routes_clear(&rt);
	return ok;
}

/* A group while it runs: where it counts in the progress line. */
struct running {
	struct feed_group *group;
	struct progress *progress;
	unsigned int index;
};

static void running_phase(void *priv, const struct trace_event *ev)
{
	const struct feed_jobs *jobs = &((struct running *)priv)->group->jobs;

	for (unsigned int k = 0; k < jobs->n; k++)
		jobs->phase(jobs->priv, k, ev);
}

static void running_progress(void *priv, uint64_t at_ns)
{
	struct running *run = priv;

	progress_at(run->progress, run->index, at_ns, run->group->end_ns);
}

static void run_group(struct running *run)
{
	const struct feed_jobs *jobs = &run->group->jobs;
	struct feed_hooks hooks = { .phase = jobs->phase ? running_phase : NULL,
				    .progress = running_progress, .priv = run };
	struct feed_listener *l = g_new0(struct feed_listener, MAX(jobs->n, 1));
	struct trace_reader *r = NULL;
	GError *error = NULL;

	for (unsigned int k = 0; k < jobs->n; k++)
		if (!jobs->start(jobs->priv, k, &l[k].cpu, &error))
			break;
	if (!error)
		r = trace_open(run->group->trace, &error);
	if (r)
		trace_feed(r, l, jobs->n, &hooks);
	for (unsigned int k = 0; k < jobs->n; k++)
		jobs->end(jobs->priv, k, r ? l[k].error : g_error_copy(error));
	trace_close(r);
	g_clear_error(&error);
	g_free(l);
	progress_at(run->progress, run->index, 1, 1);
}

static void pool_func(gpointer data, gpointer unused)
{
	(void)unused;
	run_group(data);
}

void feed_run_groups(struct feed_group *groups, unsigned int n, unsigned int threads,
		     bool progress)
{
	struct running *runs = g_new(struct running, MAX(n, 1));
	struct progress pr;

	progress_init(&pr, progress, n);
	for (unsigned int k = 0; k < n; k++)
		runs[k] = (struct running){ .group = &groups[k], .progress = &pr, .index = k };
	if (threads <= 1 || n <= 1) {
		for (unsigned int k = 0; k < n; k++)
			run_group(&runs[k]);
	} else {
		GThreadPool *pool = g_thread_pool_new(pool_func, NULL, (gint)MIN(threads, n), TRUE,
						      NULL);

		for (unsigned int k = 0; k < n; k++)
			g_thread_pool_push(pool, &runs[k], NULL);
		g_thread_pool_free(pool, FALSE, TRUE);
	}
	progress_clear(&pr);
	g_free(runs);
}

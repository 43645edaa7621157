// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <string.h>

#include "diff.h"
#include "feed.h"
#include "kvline.h"
#include "metrics.h"
#include "text-table.h"

struct diff_cpu {
	const struct kshim_governor *gov_a, *gov_b;
	unsigned int cpu;
	const struct sim_config *cfg;
	struct sim_cpu sim;		/* A runs the CPU ... */
	struct kshim_machine *follower;	/* ... and B follows its periods */
	bool started;
	int state_b;			/* B's choice for the current period */
	struct diff_result result;
	GError *error;
};

static void follower_select(void *priv, const struct idle_period *p)
{
	struct diff_cpu *d = priv;
	struct diff_result *r = &d->result;
	bool stop_b;

	d->state_b = kshim_machine_select(d->follower, 0, &stop_b);
	r->selects++;
	if (r->plot)
		plot_diff_add(r->plot, p->entry_ns, p->state, d->state_b);
	if (d->state_b == p->state && stop_b == p->stop_tick)
		return;
	r->differ++;
	r->differ_state += d->state_b != p->state;
	r->differ_tick += stop_b != p->stop_tick;
	if (r->nr_cases < DIFF_CASES_MAX)
		r->cases[r->nr_cases++] = (struct diff_case){
			.cpu = d->cpu, .inputs = *p, .state_b = d->state_b, .stop_tick_b = stop_b,
		};
}

static void follower_reflect(void *priv, const struct idle_period *p)
{
	struct diff_cpu *d = priv;
	uint64_t residency_ns = p->wake_ns + p->exit_latency_ns - p->entry_ns;

	kshim_machine_entered(d->follower, 0, d->state_b, d->state_b, residency_ns,
			      p->cause == WAKE_POLL_LIMIT);
	kshim_machine_reflect(d->follower, 0, d->state_b);
}

/* CPU k of a group's CPUs: A runs it, B follows. */
static bool diff_start(void *priv, unsigned int k, struct sim_cpu **cpu, GError **error)
{
	struct diff_cpu *d = (struct diff_cpu *)priv + k;

	if (!sim_cpu_init(&d->sim, d->cpu, d->gov_a, d->cfg, error))
		return false;
	if (!sim_cpu_new_machine(&d->sim, d->gov_b, &d->follower, error)) {
		sim_cpu_clear(&d->sim);
		return false;
	}
	d->sim.observer = (struct idle_observer){
		.selected = follower_select, .reflected = follower_reflect, .priv = d,
	};
	d->started = true;
	*cpu = &d->sim;
	return true;
}

static void diff_end(void *priv, unsigned int k, GError *error)
{
	struct diff_cpu *d = (struct diff_cpu *)priv + k;

	d->error = error;
	if (!d->started)
		return;
	kshim_machine_free(d->follower);
	sim_cpu_clear(&d->sim);
}

static void merge(struct diff_result *sum, const struct diff_result *r)
{
	sum->selects += r->selects;
	sum->differ += r->differ;
	sum->differ_state += r->differ_state;
	sum->differ_tick += r->differ_tick;
	for (unsigned int k = 0; k < r->nr_cases && sum->nr_cases < DIFF_CASES_MAX; k++)
		sum->cases[sum->nr_cases++] = r->cases[k];
	if (sum->plot)
		plot_diff_add_counts(sum->plot, r->plot);
}

static struct plot_diff *new_plot(const struct sim_run_options *o,
				  const struct kshim_governor *a,
				  const struct kshim_governor *b, uint64_t end_ns)
{
	struct plot_diff *d = g_new0(struct plot_diff, 1);
	struct plot_state states[KSHIM_STATE_MAX];

	for (unsigned int i = 0; i < o->platform->state_count; i++) {
		g_strlcpy(states[i].name, o->platform->states[i].desc.name, sizeof(states[i].name));
		states[i].target_residency_us = o->platform->states[i].desc.target_residency_us;
	}
	plot_diff_init(d, a->meta->name, b->meta->name, states, o->platform->state_count, end_ns);
	return d;
}

void diff_result_clear(struct diff_result *d)
{
	if (d->plot) {
		plot_diff_clear(d->plot);
		g_free(d->plot);
		d->plot = NULL;
	}
}

bool sim_diff(const struct sim_run_options *o, const struct kshim_governor *a,
	      const struct kshim_governor *b, const char *trace, struct diff_result *out,
	      GError **error)
{
	struct trace_reader *r = trace_open(trace, error);
	struct sim_config cfg;
	struct diff_cpu *cpus;
	struct feed_group *groups;
	unsigned int n, nr_groups;
	bool ok = true;

	*out = (struct diff_result){ 0 };
	if (!r)
		return false;
	cfg = sim_config_for(o, trace_header(r));
	n = trace_header(r)->nr_cpus;
	trace_close(r);
	cpus = g_new0(struct diff_cpu, n);
	for (unsigned int k = 0; k < n; k++) {
		cpus[k] = (struct diff_cpu){ .gov_a = a, .gov_b = b, .cpu = k, .cfg = &cfg };
		if (o->plots)
			cpus[k].result.plot = new_plot(o, a, b, cfg.end_ns);
	}
	if (o->plots)
		out->plot = new_plot(o, a, b, cfg.end_ns);
	/* Each thread's group of CPUs reads the trace once. */
	nr_groups = MIN(MAX(o->threads, 1), n);
	groups = g_new(struct feed_group, nr_groups);
	for (unsigned int k = 0; k < nr_groups; k++)
		groups[k] = (struct feed_group){
			.trace = trace, .end_ns = cfg.end_ns,
			.jobs = { .n = (k + 1) * n / nr_groups - k * n / nr_groups,
				  .start = diff_start, .end = diff_end,
				  .priv = cpus + k * n / nr_groups },
		};
	feed_run_groups(groups, nr_groups, o->threads, o->progress);
	g_free(groups);
	for (unsigned int k = 0; k < n; k++) {
		if (cpus[k].error && ok) {
			g_propagate_error(error, cpus[k].error);
			cpus[k].error = NULL;
			ok = false;
		}
		g_clear_error(&cpus[k].error);
		merge(out, &cpus[k].result);
		diff_result_clear(&cpus[k].result);
	}
	g_free(cpus);
	return ok;
}

void diff_report(FILE *out, const struct sim_run_options *o, const struct kshim_governor *a,
		 const struct kshim_governor *b, const char *trace,
		 const struct diff_result *d)
{
	const char *na = a->meta->name, *nb = b->meta->name;
	char percent[G_ASCII_DTOSTR_BUF_SIZE];

	fprintf(out, "%s vs %s on %s, platform %s, HZ %u\n", na, nb, trace,
		o->platform->name, o->hz);
	g_ascii_formatd(percent, sizeof(percent), "%.2f",
			d->selects ? 100.0 * (double)d->differ / (double)d->selects : 0.0);
	fprintf(out, "selects: %" PRIu64 ", decided differently: %" PRIu64 " (%s%%): "
		"state %" PRIu64 ", stop_tick %" PRIu64 "\n",
		d->selects, d->differ, percent, d->differ_state, d->differ_tick);
	for (unsigned int k = 0; k < d->nr_cases; k++) {
		const struct diff_case *c = &d->cases[k];
		const struct idle_period *p = &c->inputs;

		fprintf(out, "case %u: cpu=%u clock_ns=%" PRIu64 " sleep_length_ns=%" PRId64
			" delta_next_ns=%" PRId64 " tick_stopped=%d\n"
			"  %s: state=%d (%s) stop_tick=%d\n  %s: state=%d (%s) stop_tick=%d\n",
			k + 1, c->cpu, p->entry_ns, p->sleep_length_ns, p->delta_next_ns,
			p->tick_was_stopped, na, p->state, o->platform->states[p->state].desc.name,
			p->stop_tick, nb, c->state_b, o->platform->states[c->state_b].desc.name,
			c->stop_tick_b);
	}
	if (d->differ > d->nr_cases)
		fprintf(out, "(%" PRIu64 " more)\n", d->differ - d->nr_cases);
}

/* The scores a governor change most often moves, each "A -> B". */
static const char *const moved_metrics[] = {
	"above_pct", "below_pct", "optimal_pct", "energy_mj", "wake_latency_mean_us",
};

static unsigned int metric_index(const char *name)
{
	unsigned int i = 0;

	while (strcmp(summary_metrics[i].name, name))
		i++;
	return i;
}

void diff_summary(FILE *out, const struct sim_run_options *o, char *const *traces,
		  unsigned int nr_traces, const struct diff_result *d,
		  const struct sim_result *runs)
{
	struct text_table *t = text_table_new();

	text_table_row(t);
	text_table_cell(t, "trace");
	text_table_cell(t, "selects");
	text_table_cell(t, "differ");
	text_table_cell(t, "differ_pct");
	for (size_t m = 0; m < G_N_ELEMENTS(moved_metrics); m++)
		text_table_cell(t, moved_metrics[m]);
	for (unsigned int i = 0; i < nr_traces; i++) {
		struct metric_value va[METRICS_MAX], vb[METRICS_MAX];
		char percent[G_ASCII_DTOSTR_BUF_SIZE];

		metrics_compute(o->platform, &runs[2 * i].all, va);
		metrics_compute(o->platform, &runs[2 * i + 1].all, vb);
		g_ascii_formatd(percent, sizeof(percent), "%.2f",
				d[i].selects ? 100.0 * (double)d[i].differ / (double)d[i].selects : 0.0);
		text_table_row(t);
		text_table_cell(t, traces[i]);
		text_table_cellf(t, "%" PRIu64, d[i].selects);
		text_table_cellf(t, "%" PRIu64, d[i].differ);
		text_table_cell(t, percent);
		for (size_t m = 0; m < G_N_ELEMENTS(moved_metrics); m++) {
			unsigned int k = metric_index(moved_metrics[m]);

			text_table_cellf(t, "%s -> %s", va[k].text, vb[k].text);
		}
	}
	text_table_print(t, out);
	text_table_free(t);
}

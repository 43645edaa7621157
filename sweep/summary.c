// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "summary.h"

static const char *const rank_names[RANK_METRICS] = {
	[RANK_ENERGY] = "energy_vs_optimal",
	[RANK_OPTIMAL] = "optimal_pct",
	[RANK_ABOVE] = "above_pct",
	[RANK_BELOW] = "below_pct",
	[RANK_LATENCY] = "wake_latency_mean_us",
};

const char *const sweep_phase_metric_names[PHASE_METRICS] = {
	[PHASE_PERIODS] = "periods",
	[PHASE_OPTIMAL] = "optimal_pct",
	[PHASE_ABOVE] = "above_pct",
	[PHASE_BELOW] = "below_pct",
};

static void set_percent(char *text, uint64_t part, uint64_t whole)
{
	g_ascii_formatd(text, METRIC_TEXT_MAX, "%.2f",
			whole ? 100.0 * (double)part / (double)whole : 0.0);
}

void sweep_phase_values_set(struct sweep_cell_values *c, const struct phase_scores *p)
{
	c->nr_phases = p ? p->n : 0;
	for (unsigned int i = 0; i < c->nr_phases; i++) {
		const struct phase_score *ps = &p->p[i];
		struct sweep_phase_values *v = &c->phases[i];

		g_strlcpy(v->name, ps->name, sizeof(v->name));
		snprintf(v->text[PHASE_PERIODS], METRIC_TEXT_MAX, "%" G_GUINT64_FORMAT, ps->periods);
		set_percent(v->text[PHASE_OPTIMAL], ps->optimal, ps->periods);
		set_percent(v->text[PHASE_ABOVE], ps->above, ps->periods);
		set_percent(v->text[PHASE_BELOW], ps->below, ps->periods);
	}
}

static size_t value_index(const struct sweep_summary *m, unsigned int setting,
			  unsigned int family, unsigned int gov)
{
	const struct sweep *s = m->sweep;

	return (((size_t)setting * s->nr_families + family) * s->nr_govs + gov) *
	       summary_metric_count;
}

static size_t diff_index(const struct sweep_summary *m, unsigned int setting,
			 unsigned int family, unsigned int a, unsigned int b)
{
	const struct sweep *s = m->sweep;

	return ((((size_t)setting * s->nr_families + family) * s->nr_govs + a) * s->nr_govs + b) *
	       RANK_METRICS;
}

static size_t phase_index(const struct sweep_summary *m, unsigned int setting,
			  unsigned int family, unsigned int gov, unsigned int phase)
{
	const struct sweep *s = m->sweep;

	return (((size_t)setting * s->nr_govs + gov) * m->family_phases[family].n + phase) *
	       PHASE_METRICS;
}

void sweep_summary_init(struct sweep_summary *m, const struct sweep *s)
{
	size_t groups = (size_t)s->nr_settings * s->nr_families * s->nr_govs;

	memset(m, 0, sizeof(*m));
	m->sweep = s;
	for (unsigned int r = 0; r < RANK_METRICS; r++)
		for (unsigned int k = 0; k < summary_metric_count; k++)
			if (!strcmp(summary_metrics[k].name, rank_names[r]))
				m->metric[r] = k;
	m->values = g_new0(struct sweep_acc, groups * summary_metric_count);
	m->diffs = g_new0(struct sweep_acc, groups * s->nr_govs * RANK_METRICS);
	m->family_phases = g_new0(struct sweep_family_phases, s->nr_families);
}

void sweep_summary_clear(struct sweep_summary *m)
{
	g_free(m->values);
	g_free(m->diffs);
	for (unsigned int f = 0; m->family_phases && f < m->sweep->nr_families; f++)
		g_free(m->family_phases[f].acc);
	g_free(m->family_phases);
	memset(m, 0, sizeof(*m));
}

static double value_of(const struct sweep_cell_values *c, unsigned int metric)
{
	return g_ascii_strtod(c->text[metric], NULL);
}

/* The first workload of a family sets its phases: the first cell's. */
static void learn_phases(const struct sweep *s, struct sweep_family_phases *fp,
			 const struct sweep_cell_values *c)
{
	if (fp->acc)
		return;
	fp->n = c->nr_phases;
	for (unsigned int i = 0; i < fp->n; i++)
		g_strlcpy(fp->names[i], c->phases[i].name, sizeof(fp->names[i]));
	fp->acc = g_new0(struct sweep_acc,
			 (size_t)s->nr_settings * s->nr_govs * MAX(fp->n, 1) * PHASE_METRICS);
}

static void add_phases(struct sweep_summary *m, unsigned int set, unsigned int f,
		       unsigned int g, const struct sweep_cell_values *c)
{
	const struct sweep_family_phases *fp = &m->family_phases[f];

	for (unsigned int i = 0; i < MIN(fp->n, c->nr_phases); i++) {
		struct sweep_acc *acc = fp->acc + phase_index(m, set, f, g, i);

		if (strcmp(fp->names[i], c->phases[i].name))
			continue;
		for (unsigned int k = 0; k < PHASE_METRICS; k++)
			sweep_acc_add(&acc[k], g_ascii_strtod(c->phases[i].text[k], NULL));
	}
}

void sweep_summary_add(struct sweep_summary *m, const struct sweep_block *b,
		       const struct sweep_cell_values *cells)
{
	const struct sweep *s = m->sweep;
	unsigned int f = sweep_family_of(s, b->workload), n = summary_metric_count;
	/* A setting's figures, read once from their text: x[g * n + k]. */
	g_autofree double *x = g_new(double, (size_t)s->nr_govs * n);

	learn_phases(s, &m->family_phases[f], cells);
	for (unsigned int set = b->setting; set < b->setting + b->nr_settings; set++) {
		const struct sweep_cell_values *row =
			cells + (size_t)(set - b->setting) * s->nr_govs;

		for (unsigned int g = 0; g < s->nr_govs; g++) {
			struct sweep_acc *acc = m->values + value_index(m, set, f, g);

			for (unsigned int k = 0; k < n; k++) {
				x[g * n + k] = value_of(&row[g], k);
				sweep_acc_add(&acc[k], x[g * n + k]);
			}
			add_phases(m, set, f, g, &row[g]);
		}
		for (unsigned int ga = 0; ga < s->nr_govs; ga++)
			for (unsigned int gb = 0; gb < s->nr_govs; gb++) {
				struct sweep_acc *acc = m->diffs + diff_index(m, set, f, ga, gb);

				for (unsigned int r = 0; r < RANK_METRICS; r++)
					sweep_acc_add(&acc[r], x[gb * n + m->metric[r]] -
							       x[ga * n + m->metric[r]]);
			}
	}
}

struct sweep_stat sweep_summary_value(const struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int metric)
{
	return sweep_stat_of(&m->values[value_index(m, setting, family, gov) + metric]);
}

struct sweep_stat sweep_summary_diff(const struct sweep_summary *m, unsigned int setting,
				     unsigned int family, unsigned int a, unsigned int b,
				     enum sweep_rank_metric r)
{
	return sweep_stat_of(&m->diffs[diff_index(m, setting, family, a, b) + r]);
}

struct sweep_stat sweep_summary_phase(const struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int phase,
				      enum sweep_phase_metric k)
{
	return sweep_stat_of(&m->family_phases[family].acc[phase_index(m, setting, family, gov,
								       phase) + k]);
}

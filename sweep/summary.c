// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kvline.h"
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

/* Each unit's accumulators: values, differences and phases. */
static size_t unit_values(const struct sweep *s)
{
	return (size_t)s->nr_govs * summary_metric_count;
}

static size_t unit_diffs(const struct sweep *s)
{
	return (size_t)s->nr_govs * s->nr_govs * RANK_METRICS;
}

static size_t unit_phases(const struct sweep_summary *m, unsigned int unit)
{
	const struct sweep *s = m->sweep;

	return (size_t)s->nr_govs * m->family_phases[unit % s->nr_families].n * PHASE_METRICS;
}

/* A family has at most PHASE_SCORES_MAX phases: a unit needs at most this. */
static unsigned int units_in_budget(const struct sweep *s)
{
	size_t unit = (unit_values(s) + unit_diffs(s) +
		       (size_t)s->nr_govs * PHASE_SCORES_MAX * PHASE_METRICS) * sizeof(struct sweep_acc);

	return (unsigned int)MAX(1, MIN(SWEEP_SUMMARY_BUDGET / unit, UINT32_MAX));
}

/* Makes window k the one held, with every figure zero. */
static void hold_empty(struct sweep_summary *m, unsigned int k)
{
	const struct sweep *s = m->sweep;

	for (unsigned int u = 0; u < m->n; u++)
		g_clear_pointer(&m->phases[u], g_free);
	m->window = k;
	m->from = k * m->window_units;
	m->n = MIN(m->window_units, m->nr_units - m->from);
	memset(m->values, 0, m->n * unit_values(s) * sizeof(*m->values));
	memset(m->diffs, 0, m->n * unit_diffs(s) * sizeof(*m->diffs));
}

void sweep_summary_init(struct sweep_summary *m, const struct sweep *s,
			unsigned int window_units, const char *dir)
{
	memset(m, 0, sizeof(*m));
	m->sweep = s;
	for (unsigned int r = 0; r < RANK_METRICS; r++)
		for (unsigned int k = 0; k < summary_metric_count; k++)
			if (!strcmp(summary_metrics[k].name, rank_names[r]))
				m->metric[r] = k;
	m->nr_units = MAX(1, s->nr_settings * s->nr_families);
	m->window_units = MIN(window_units ? window_units : units_in_budget(s), m->nr_units);
	m->nr_windows = (m->nr_units + m->window_units - 1) / m->window_units;
	m->values = g_new(struct sweep_acc, m->window_units * unit_values(s));
	m->diffs = g_new(struct sweep_acc, m->window_units * unit_diffs(s));
	m->phases = g_new0(struct sweep_acc *, m->window_units);
	m->family_phases = g_new0(struct sweep_family_phases, s->nr_families);
	m->dir = dir;
	m->store = -1;
	m->window_at = g_new0(off_t, m->nr_windows + 1);
	m->filling = true;
	hold_empty(m, 0);
}

void sweep_summary_clear(struct sweep_summary *m)
{
	for (unsigned int u = 0; m->phases && u < m->n; u++)
		g_free(m->phases[u]);
	g_free(m->phases);
	g_free(m->values);
	g_free(m->diffs);
	g_free(m->family_phases);
	g_free(m->window_at);
	if (m->store >= 0)
		close(m->store);
	g_clear_error(&m->error);
	memset(m, 0, sizeof(*m));
}

static double value_of(const struct sweep_cell_values *c, unsigned int metric)
{
	return g_ascii_strtod(c->text[metric], NULL);
}

/* The first workload of a family sets its phases: the first cell's. */
static void learn_phases(struct sweep_family_phases *fp, const struct sweep_cell_values *c)
{
	if (fp->learned)
		return;
	fp->learned = true;
	fp->n = c->nr_phases;
	for (unsigned int i = 0; i < fp->n; i++)
		g_strlcpy(fp->names[i], c->phases[i].name, sizeof(fp->names[i]));
}

static void add_phases(struct sweep_summary *m, unsigned int unit, unsigned int g,
		       const struct sweep_cell_values *c)
{
	const struct sweep *s = m->sweep;
	const struct sweep_family_phases *fp = &m->family_phases[unit % s->nr_families];
	struct sweep_acc **acc = &m->phases[unit - m->from];

	if (!fp->n)
		return;
	if (!*acc)
		*acc = g_new0(struct sweep_acc, unit_phases(m, unit));
	for (unsigned int i = 0; i < MIN(fp->n, c->nr_phases); i++) {
		struct sweep_acc *a = *acc + ((size_t)g * fp->n + i) * PHASE_METRICS;

		if (strcmp(fp->names[i], c->phases[i].name))
			continue;
		for (unsigned int k = 0; k < PHASE_METRICS; k++)
			sweep_acc_add(&a[k], g_ascii_strtod(c->phases[i].text[k], NULL));
	}
}

void sweep_summary_add(struct sweep_summary *m, const struct sweep_block *b,
		       const struct sweep_cell_values *cells)
{
	const struct sweep *s = m->sweep;
	unsigned int f = sweep_family_of(s, b->workload), n = summary_metric_count;
	/* A setting's figures, read once from their text: x[g * n + k]. */
	g_autofree double *x = g_new(double, (size_t)s->nr_govs * n);

	learn_phases(&m->family_phases[f], cells);
	for (unsigned int set = b->setting; set < b->setting + b->nr_settings; set++) {
		const struct sweep_cell_values *row =
			cells + (size_t)(set - b->setting) * s->nr_govs;
		unsigned int unit = set * s->nr_families + f;
		size_t u = unit - m->from;

		if (unit < m->from || u >= m->n)
			continue;
		for (unsigned int g = 0; g < s->nr_govs; g++) {
			struct sweep_acc *acc = m->values + u * unit_values(s) + (size_t)g * n;

			for (unsigned int k = 0; k < n; k++) {
				x[g * n + k] = value_of(&row[g], k);
				sweep_acc_add(&acc[k], x[g * n + k]);
			}
			add_phases(m, unit, g, &row[g]);
		}
		for (unsigned int ga = 0; ga < s->nr_govs; ga++)
			for (unsigned int gb = 0; gb < s->nr_govs; gb++) {
				struct sweep_acc *acc = m->diffs + u * unit_diffs(s) +
							((size_t)ga * s->nr_govs + gb) * RANK_METRICS;

				for (unsigned int r = 0; r < RANK_METRICS; r++)
					sweep_acc_add(&acc[r], x[gb * n + m->metric[r]] -
							       x[ga * n + m->metric[r]]);
			}
	}
}

/* ---- the store of finished windows ---- */

static bool store_error(const struct sweep_summary *m, const char *what, int err,
			GError **error)
{
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO,
		    "%s: the summary's store of windows: %s: %s", m->dir, what,
		    err ? g_strerror(err) : "it ends early");
	return false;
}

/* The store loses its name at once: it goes when the sweep ends, however it ends. */
static bool store_open(struct sweep_summary *m, GError **error)
{
	g_autofree char *path = g_build_filename(m->dir, ".summary-XXXXXX", NULL);

	m->store = g_mkstemp_full(path, O_RDWR | O_CLOEXEC, 0600);
	if (m->store < 0)
		return store_error(m, "creating", errno, error);
	g_unlink(path);
	return true;
}

static bool store_write(struct sweep_summary *m, const void *p, size_t len, off_t *at,
			GError **error)
{
	for (size_t done = 0; done < len;) {
		ssize_t got = pwrite(m->store, (const char *)p + done, len - done, *at);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return store_error(m, "writing", got < 0 ? errno : ENOSPC, error);
		done += (size_t)got;
		*at += got;
	}
	return true;
}

static bool store_read(struct sweep_summary *m, void *p, size_t len, off_t *at,
		       GError **error)
{
	for (size_t done = 0; done < len;) {
		ssize_t got = pread(m->store, (char *)p + done, len - done, *at);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return store_error(m, "reading", got < 0 ? errno : 0, error);
		done += (size_t)got;
		*at += got;
	}
	return true;
}

/* Window after window: each one's values, differences, then its units' phases. */
static bool save_window(struct sweep_summary *m, GError **error)
{
	const struct sweep *s = m->sweep;
	off_t at = m->window_at[m->window];

	if (m->store < 0 && !store_open(m, error))
		return false;
	if (!store_write(m, m->values, m->n * unit_values(s) * sizeof(*m->values), &at, error) ||
	    !store_write(m, m->diffs, m->n * unit_diffs(s) * sizeof(*m->diffs), &at, error))
		return false;
	for (unsigned int u = 0; u < m->n; u++) {
		size_t len = unit_phases(m, m->from + u) * sizeof(struct sweep_acc);

		if (len && !m->phases[u])
			m->phases[u] = g_malloc0(len);
		if (!store_write(m, m->phases[u], len, &at, error))
			return false;
	}
	m->window_at[m->window + 1] = at;
	return true;
}

static bool load_window(struct sweep_summary *m, unsigned int k, GError **error)
{
	const struct sweep *s = m->sweep;
	off_t at = m->window_at[k];

	hold_empty(m, k);
	if (!store_read(m, m->values, m->n * unit_values(s) * sizeof(*m->values), &at, error) ||
	    !store_read(m, m->diffs, m->n * unit_diffs(s) * sizeof(*m->diffs), &at, error))
		return false;
	for (unsigned int u = 0; u < m->n; u++) {
		size_t len = unit_phases(m, m->from + u) * sizeof(struct sweep_acc);

		m->phases[u] = len ? g_malloc(len) : NULL;
		if (!store_read(m, m->phases[u], len, &at, error))
			return false;
	}
	return true;
}

bool sweep_summary_end_window(struct sweep_summary *m, GError **error)
{
	if (m->nr_windows > 1 && !save_window(m, error))
		return false;
	if (m->window + 1 < m->nr_windows)
		hold_empty(m, m->window + 1);
	else
		m->filling = false;
	return true;
}

/* ---- reading ---- */

/* Holds the unit's window, read back when another is held; false once reading failed. */
static bool hold_unit(struct sweep_summary *m, unsigned int unit)
{
	if (unit >= m->from && unit - m->from < m->n)
		return true;
	g_return_val_if_fail(!m->filling, false);
	if (m->error)
		return false;
	if (load_window(m, unit / m->window_units, &m->error))
		return true;
	hold_empty(m, m->window);
	return false;
}

struct sweep_stat sweep_summary_value(struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int metric)
{
	const struct sweep *s = m->sweep;
	unsigned int unit = setting * s->nr_families + family;

	if (!hold_unit(m, unit))
		return (struct sweep_stat){ 0 };
	return sweep_stat_of(&m->values[(unit - m->from) * unit_values(s) +
					(size_t)gov * summary_metric_count + metric]);
}

struct sweep_stat sweep_summary_diff(struct sweep_summary *m, unsigned int setting,
				     unsigned int family, unsigned int a, unsigned int b,
				     enum sweep_rank_metric r)
{
	const struct sweep *s = m->sweep;
	unsigned int unit = setting * s->nr_families + family;

	if (!hold_unit(m, unit))
		return (struct sweep_stat){ 0 };
	return sweep_stat_of(&m->diffs[(unit - m->from) * unit_diffs(s) +
				       ((size_t)a * s->nr_govs + b) * RANK_METRICS + r]);
}

struct sweep_stat sweep_summary_phase(struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int phase,
				      enum sweep_phase_metric k)
{
	const struct sweep *s = m->sweep;
	unsigned int unit = setting * s->nr_families + family;
	const struct sweep_acc *acc;

	if (!hold_unit(m, unit) || !(acc = m->phases[unit - m->from]))
		return (struct sweep_stat){ 0 };
	return sweep_stat_of(&acc[((size_t)gov * m->family_phases[family].n + phase) *
				  PHASE_METRICS + k]);
}

bool sweep_summary_check(const struct sweep_summary *m, GError **error)
{
	if (!m->error)
		return true;
	g_propagate_error(error, g_error_copy(m->error));
	return false;
}

// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "plot-data.h"

void plot_series_init(struct plot_series *s, const char *governor, const char *platform,
		      const struct plot_state *states, unsigned int state_count)
{
	memset(s, 0, sizeof(*s));
	s->governor = g_strdup(governor);
	s->platform = g_strdup(platform);
	s->state_count = state_count;
	memcpy(s->states, states, state_count * sizeof(*states));
	s->timeline = g_array_new(FALSE, FALSE, sizeof(struct plot_sample));
	s->phases = g_array_new(FALSE, FALSE, sizeof(struct plot_phase));
	s->stride = 1;
}

void plot_series_clear(struct plot_series *s)
{
	g_free(s->governor);
	g_free(s->platform);
	if (s->timeline)
		g_array_free(s->timeline, TRUE);
	if (s->phases)
		g_array_free(s->phases, TRUE);
	memset(s, 0, sizeof(*s));
}

unsigned int plot_hist_bin(uint64_t idle_ns)
{
	double us = (double)idle_ns / 1000.0;
	double bin;

	if (us < 1.0)
		return 0;
	bin = floor(log10(us) * PLOT_HIST_PER_DECADE);
	return bin >= PLOT_HIST_BINS ? PLOT_HIST_BINS - 1 : (unsigned int)bin;
}

double plot_hist_bin_start_us(unsigned int bin)
{
	return pow(10.0, (double)bin / PLOT_HIST_PER_DECADE);
}

/* Keeps every stride-th period; when full, keeps every other one and doubles the stride. */
static void timeline_add(struct plot_series *s, const struct plot_period *p)
{
	struct plot_sample sample = { p->entry_ns, p->chosen, p->optimal };

	if (s->seen++ % s->stride)
		return;
	if (s->timeline->len == PLOT_TIMELINE_MAX) {
		for (guint i = 0; i < PLOT_TIMELINE_MAX / 2; i++)
			g_array_index(s->timeline, struct plot_sample, i) =
				g_array_index(s->timeline, struct plot_sample, 2 * i);
		g_array_set_size(s->timeline, PLOT_TIMELINE_MAX / 2);
		s->stride *= 2;
		if ((s->seen - 1) % s->stride)
			return;
	}
	g_array_append_val(s->timeline, sample);
}

void plot_series_add(struct plot_series *s, const struct plot_period *p)
{
	s->periods++;
	s->agree += p->chosen == p->optimal;
	if (p->above)
		s->above[p->chosen]++;
	else if (p->below)
		s->below[p->chosen]++;
	else
		s->good[p->chosen]++;
	s->hist[plot_hist_bin(p->idle_ns)][p->chosen]++;
	timeline_add(s, p);
}

void plot_series_add_phase(struct plot_series *s, uint64_t at_ns, const char *name)
{
	struct plot_phase phase = { .at_ns = at_ns };

	g_strlcpy(phase.name, name, sizeof(phase.name));
	g_array_append_val(s->phases, phase);
}

void plot_series_add_counts(struct plot_series *dst, const struct plot_series *src)
{
	dst->periods += src->periods;
	dst->agree += src->agree;
	for (unsigned int i = 0; i < dst->state_count; i++) {
		dst->good[i] += src->good[i];
		dst->above[i] += src->above[i];
		dst->below[i] += src->below[i];
		for (unsigned int b = 0; b < PLOT_HIST_BINS; b++)
			dst->hist[b][i] += src->hist[b][i];
	}
}

void plot_diff_init(struct plot_diff *d, const char *governor_a, const char *governor_b,
		    const struct plot_state *states, unsigned int state_count, uint64_t end_ns)
{
	memset(d, 0, sizeof(*d));
	d->governor_a = g_strdup(governor_a);
	d->governor_b = g_strdup(governor_b);
	d->state_count = state_count;
	memcpy(d->states, states, state_count * sizeof(*states));
	d->end_ns = end_ns ? end_ns : 1;
}

void plot_diff_clear(struct plot_diff *d)
{
	g_free(d->governor_a);
	g_free(d->governor_b);
	memset(d, 0, sizeof(*d));
}

void plot_diff_add(struct plot_diff *d, uint64_t at_ns, int state_a, int state_b)
{
	uint64_t bucket = at_ns >= d->end_ns ? PLOT_DIFF_BUCKETS - 1
					      : at_ns / (d->end_ns / PLOT_DIFF_BUCKETS + 1);

	d->matrix[state_a][state_b]++;
	d->decisions[bucket]++;
	d->differing[bucket] += state_a != state_b;
}

void plot_diff_add_counts(struct plot_diff *dst, const struct plot_diff *src)
{
	for (unsigned int a = 0; a < dst->state_count; a++)
		for (unsigned int b = 0; b < dst->state_count; b++)
			dst->matrix[a][b] += src->matrix[a][b];
	for (unsigned int i = 0; i < PLOT_DIFF_BUCKETS; i++) {
		dst->decisions[i] += src->decisions[i];
		dst->differing[i] += src->differing[i];
	}
}

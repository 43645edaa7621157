// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include <glib.h>

#include "phase-score.h"

void phase_scores_begin(struct phase_scores *s, uint64_t at_ns, const char *name)
{
	struct phase_score *p;

	if (s->n == PHASE_SCORES_MAX)
		return;
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	g_strlcpy(p->name, name, sizeof(p->name));
	p->start_ns = at_ns;
}

void phase_scores_add(struct phase_scores *s, const struct idle_verdict *v)
{
	uint64_t at = v->period->entry_ns;
	struct phase_score *p;

	if (!s->n || at < s->p[0].start_ns)
		return;
	/* Verdicts of one CPU come in entry order, so the phase only moves on. */
	if (s->cursor >= s->n || at < s->p[s->cursor].start_ns)
		s->cursor = 0;
	while (s->cursor + 1 < s->n && s->p[s->cursor + 1].start_ns <= at)
		s->cursor++;
	p = &s->p[s->cursor];
	p->periods++;
	p->optimal += v->period->state == v->optimal;
	p->above += v->above;
	p->below += v->below;
}

void phase_scores_merge(struct phase_scores *sum, const struct phase_scores *cpu)
{
	if (!sum->n) {
		*sum = *cpu;
		return;
	}
	for (unsigned int i = 0; i < MIN(sum->n, cpu->n); i++) {
		sum->p[i].periods += cpu->p[i].periods;
		sum->p[i].optimal += cpu->p[i].optimal;
		sum->p[i].above += cpu->p[i].above;
		sum->p[i].below += cpu->p[i].below;
	}
}

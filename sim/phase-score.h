/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scores per workload phase: the trace's phase markers split its time,
 * and each scored period counts in the phase its state was entered in.
 * Periods before the first marker count in none.  Counters only, a fixed
 * array: a trace with more phases counts the rest in the last one.
 */
#ifndef TEOSIM_SIM_PHASE_SCORE_H
#define TEOSIM_SIM_PHASE_SCORE_H

#include <stdint.h>

#include "score.h"
#include "trace.h"

#define PHASE_SCORES_MAX	32

struct phase_score {
	char name[sizeof(((struct trace_event *)0)->phase)];
	uint64_t start_ns;
	uint64_t periods;		/* scored periods entered in the phase */
	uint64_t optimal, above, below;	/* of them: in the hindsight-optimal state, too deep, too shallow */
};

struct phase_scores {
	unsigned int n;
	unsigned int cursor;		/* the phase of the verdict seen last: verdicts come in order */
	struct phase_score p[PHASE_SCORES_MAX];
};

/* The marker of a phase that starts at at_ns (markers come in time order). */
void phase_scores_begin(struct phase_scores *s, uint64_t at_ns, const char *name);
/* A scored period, counted in the phase it was entered in. */
void phase_scores_add(struct phase_scores *s, const struct idle_verdict *v);
/* Another CPU's counts of the same phases, added. */
void phase_scores_merge(struct phase_scores *sum, const struct phase_scores *cpu);

#endif /* TEOSIM_SIM_PHASE_SCORE_H */

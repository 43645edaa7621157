/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the report is drawn from: for each setting, workload family and
 * governor, every summary metric accumulated over the family's seeds; and
 * for each pair of governors, their per-seed differences in the ranking
 * metrics.  Its size depends on the numbers of settings, families and
 * governors, never on the number of seeds or the length of the traces.
 */
#ifndef TEOSIM_SWEEP_SUMMARY_H
#define TEOSIM_SWEEP_SUMMARY_H

#include "metrics.h"
#include "phase-score.h"
#include "setup.h"
#include "stats.h"

/* A phase's figures, from its scored periods. */
enum sweep_phase_metric { PHASE_PERIODS, PHASE_OPTIMAL, PHASE_ABOVE, PHASE_BELOW,
			  PHASE_METRICS };

extern const char *const sweep_phase_metric_names[PHASE_METRICS];

struct sweep_phase_values {
	char name[sizeof(((struct phase_score *)0)->name)];
	char text[PHASE_METRICS][METRIC_TEXT_MAX];
};

/*
 * A cell's summary metrics as printed (metrics_compute()), in
 * summary_metrics[] order, and its phases' figures.
 */
struct sweep_cell_values {
	char text[METRICS_MAX][METRIC_TEXT_MAX];
	unsigned int nr_phases;
	struct sweep_phase_values phases[PHASE_SCORES_MAX];
};

/* The figures of a cell's phase scores, printed. */
void sweep_phase_values_set(struct sweep_cell_values *c, const struct phase_scores *p);

/* The metrics the report ranks and compares governors by. */
enum sweep_rank_metric { RANK_ENERGY, RANK_OPTIMAL, RANK_ABOVE, RANK_BELOW, RANK_LATENCY,
			 RANK_METRICS };

struct sweep_summary {
	const struct sweep *sweep;
	unsigned int metric[RANK_METRICS];	/* index into summary_metrics[] */
	struct sweep_acc *values;		/* [setting][family][gov][summary metric] */
	struct sweep_acc *diffs;		/* [setting][family][gov a][gov b][rank metric]: b − a */
	/*
	 * Each family's phases, as its first workload had them; a later seed's
	 * phase counts where its name is the same at the same place.
	 */
	struct sweep_family_phases {
		unsigned int n;
		char names[PHASE_SCORES_MAX][sizeof(((struct phase_score *)0)->name)];
		struct sweep_acc *acc;		/* [setting][gov][phase][phase metric] */
	} *family_phases;
};

void sweep_summary_init(struct sweep_summary *m, const struct sweep *s);
void sweep_summary_clear(struct sweep_summary *m);

/*
 * Adds a block's cells, in cell order.  Blocks must come in the sweep's
 * order: that fixes the bits.
 */
void sweep_summary_add(struct sweep_summary *m, const struct sweep_block *b,
		       const struct sweep_cell_values *cells);

struct sweep_stat sweep_summary_value(const struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int metric);
struct sweep_stat sweep_summary_phase(const struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int phase,
				      enum sweep_phase_metric k);
struct sweep_stat sweep_summary_diff(const struct sweep_summary *m, unsigned int setting,
				     unsigned int family, unsigned int a, unsigned int b,
				     enum sweep_rank_metric r);

#endif /* TEOSIM_SWEEP_SUMMARY_H */

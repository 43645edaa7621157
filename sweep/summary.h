/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the report is drawn from: for each setting, workload family and
 * governor, every summary metric and phase figure accumulated over the
 * family's seeds; and for each pair of governors, their per-seed
 * differences in the ranking metrics.
 *
 * Its memory is bounded, whatever the sweep: it holds a window of
 * (setting, family) units at a time.  A sweep with more units than one
 * window holds is summarized in passes over its cells, a window a pass
 * (the first while they are simulated or merged, the others from the
 * cells written), and the finished windows go to a file, from which the
 * report, figures and results.json read them back in turn.  Each unit's
 * cells are added in the same order in every pass, so the windows change
 * no bit.
 */
#ifndef TEOSIM_SWEEP_SUMMARY_H
#define TEOSIM_SWEEP_SUMMARY_H

#include <sys/types.h>

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

/*
 * What the summary holds of its memory budget: a window of units at a
 * time, each unit a setting with a workload family (unit set * families
 * + family, the report's order).
 */
#define SWEEP_SUMMARY_BUDGET	(8u << 20)

struct sweep_summary {
	const struct sweep *sweep;
	unsigned int metric[RANK_METRICS];	/* index into summary_metrics[] */
	unsigned int nr_units, window_units, nr_windows;
	unsigned int window;			/* held: units [from, from + n) */
	unsigned int from, n;
	bool filling;				/* window still taking cells */
	struct sweep_acc *values;		/* [unit - from][gov][summary metric] */
	struct sweep_acc *diffs;		/* [unit - from][gov a][gov b][rank metric]: b − a */
	struct sweep_acc **phases;		/* [unit - from]: [gov][phase][phase metric] */
	/*
	 * Each family's phases, as its first workload had them; a later seed's
	 * phase counts where its name is the same at the same place.
	 */
	struct sweep_family_phases {
		bool learned;
		unsigned int n;
		char names[PHASE_SCORES_MAX][sizeof(((struct phase_score *)0)->name)];
	} *family_phases;
	/* With several windows, the finished ones, in an unnamed file in dir. */
	const char *dir;
	int store;
	off_t *window_at;			/* [window]: where it starts in the store */
	GError *error;				/* the first failure to read the store */
};

/*
 * Starts window 0 of units windows of window_units units (0: as many as
 * SWEEP_SUMMARY_BUDGET holds), with dir for the store of finished windows.
 */
void sweep_summary_init(struct sweep_summary *m, const struct sweep *s,
			unsigned int window_units, const char *dir);
void sweep_summary_clear(struct sweep_summary *m);

/*
 * Adds a block's cells, in cell order, to the units of the window being
 * filled; the others it skips.  Blocks must come in the sweep's order:
 * that fixes the bits.
 */
void sweep_summary_add(struct sweep_summary *m, const struct sweep_block *b,
		       const struct sweep_cell_values *cells);
/*
 * The window's cells are all in: stores it when there are several and
 * starts the next, empty (m->filling), or, after the last, leaves the
 * summary to be read.
 */
bool sweep_summary_end_window(struct sweep_summary *m, GError **error);

/*
 * A figure over the family's seeds.  A unit of another window is read
 * back from the store; if that fails, the figures are zeros and
 * sweep_summary_check() reports it.
 */
struct sweep_stat sweep_summary_value(struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int metric);
struct sweep_stat sweep_summary_phase(struct sweep_summary *m, unsigned int setting,
				      unsigned int family, unsigned int gov, unsigned int phase,
				      enum sweep_phase_metric k);
struct sweep_stat sweep_summary_diff(struct sweep_summary *m, unsigned int setting,
				     unsigned int family, unsigned int a, unsigned int b,
				     enum sweep_rank_metric r);
/* Whether every figure read so far was read whole. */
bool sweep_summary_check(const struct sweep_summary *m, GError **error);

#endif /* TEOSIM_SWEEP_SUMMARY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Means and 95% confidence intervals across seeds.  The seeds of a sweep
 * are independent draws of the same workload, so a figure's mean over them
 * comes with Student's t interval; two governors on the same seeds are
 * compared by the interval of their per-seed differences (a paired test),
 * which removes what the seeds share.
 */
#ifndef TEOSIM_SWEEP_STATS_H
#define TEOSIM_SWEEP_STATS_H

#include <stdbool.h>

/*
 * Values taken one at a time (Welford's update: no sum of squares to lose
 * precision in), always in the sweep's cell order, so that the same cells
 * give the same bits however they were run.
 */
struct sweep_acc {
	unsigned int n;
	double mean, m2;
};

static inline void sweep_acc_add(struct sweep_acc *a, double x)
{
	double delta = x - a->mean;

	a->n++;
	a->mean += delta / a->n;
	a->m2 += delta * (x - a->mean);
}

struct sweep_stat {
	unsigned int n;
	double mean;
	double half_width;	/* of the 95% interval: mean ± half_width; 0 when n < 2 */
	bool interval;		/* n >= 2: the interval exists */
};

/* The two-sided 95% quantile of Student's t with df degrees of freedom (df >= 1). */
double sweep_t95(unsigned int df);

struct sweep_stat sweep_stat_of(const struct sweep_acc *a);

/*
 * Whether a difference's interval leaves out zero: the two differ beyond
 * what the seeds explain.
 */
static inline bool sweep_stat_differs(const struct sweep_stat *d)
{
	return d->interval && (d->mean - d->half_width > 0 || d->mean + d->half_width < 0);
}

#endif /* TEOSIM_SWEEP_STATS_H */

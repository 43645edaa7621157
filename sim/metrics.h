/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures reported for a score, each with its fixed precision, so that
 * the same score always prints the same bytes in every output format.
 */
#ifndef TEOSIM_SIM_METRICS_H
#define TEOSIM_SIM_METRICS_H

#include "platform.h"
#include "score.h"

enum metric_better { BETTER_NEITHER, BETTER_LOWER, BETTER_HIGHER };

struct metric {
	const char *name;
	const char *help;
	enum metric_better better;
};

#define METRIC_TEXT_MAX	32

struct metric_value {
	double value;			/* for comparisons only */
	char text[METRIC_TEXT_MAX];	/* what is printed */
};

/* Room for every metric of either list, for callers' arrays. */
#define METRICS_MAX	32

extern const struct metric summary_metrics[];
extern const unsigned int summary_metric_count;

/* The summary metrics of score s, in summary_metrics[] order. */
void metrics_compute(const struct platform *p, const struct cpu_score *s,
		     struct metric_value *out);

extern const struct metric state_metrics[];
extern const unsigned int state_metric_count;

void state_metrics_compute(const struct cpu_score *s, unsigned int state,
			   struct metric_value *out);

#endif /* TEOSIM_SIM_METRICS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep's report, report.md and report.html with figures/: per setting
 * and workload family, the governors ranked by energy above the
 * hindsight-optimal schedule with 95% intervals over the seeds and a paired
 * test against the best; then each pair of generations of a governor (teo
 * 6.1 against 6.12, say) and by how much they differ.
 */
#ifndef TEOSIM_SWEEP_SWEEP_REPORT_H
#define TEOSIM_SWEEP_SWEEP_REPORT_H

#include <stdbool.h>

#include <glib.h>

#include "summary.h"

bool sweep_report_write(const char *dir, const struct sweep_summary *m, GError **error);

/*
 * Pairs of generations: governors whose names agree up to their last '-'
 * ("teo-6.1", "teo-6.12"), each with the next one of its kind in the
 * sweep's order.  Returns how many pairs; (*a)[i] and (*b)[i] for each.
 */
unsigned int sweep_generation_pairs(const struct sweep *s, unsigned int **a, unsigned int **b);

#endif /* TEOSIM_SWEEP_SWEEP_REPORT_H */

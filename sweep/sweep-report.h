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

/* Figures are drawn on threads threads. */
bool sweep_report_write(const char *dir, struct sweep_summary *m, unsigned int threads,
			GError **error);

#endif /* TEOSIM_SWEEP_SWEEP_REPORT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teosim import --report: the real kernel's per-state counters from the
 * capture next to those of each governor simulated on the imported workload.
 */
#ifndef TEOSIM_IMPORT_REPORT_H
#define TEOSIM_IMPORT_REPORT_H

#include <stdio.h>

#include "capture.h"
#include "convert.h"
#include "fidelity.h"
#include "real-usage.h"
#include "run.h"

/* What --report compares as teosim fidelity does, without a call log. */
#define REPORT_FIDELITY_MATCH_NS	100000
#define REPORT_FIDELITY_WARMUP_NS	100000000
#define REPORT_FIDELITY_WARMUP_PERIODS	10

struct import_report {
	const struct capture *capture;
	const struct imported *imported;
	const struct sim_run_options *options;	/* platform, HZ, latency limit */
	const struct real_usage *real;
	const struct sim_result *sims;		/* one per governor, on the imported trace */
	const struct fidelity *fidelity;	/* ... and its comparison with the capture */
	unsigned int nr_sims;
};

void import_report_print(FILE *out, const struct import_report *r);

#endif /* TEOSIM_IMPORT_REPORT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "teosim: N% simulated" on stderr while trace groups are read, for long
 * runs on a terminal: each group reports how far into its trace it is,
 * and the line shows their mean whenever its whole percent changes.
 */
#ifndef TEOSIM_SIM_PROGRESS_H
#define TEOSIM_SIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

struct progress {
	bool show;			/* false: every call does nothing */
	unsigned int nr_groups;
	unsigned int *permille;		/* per group, in thousandths */
	unsigned int shown;		/* the percentage last printed */
	GMutex lock;
};

void progress_init(struct progress *pr, bool show, unsigned int nr_groups);
void progress_clear(struct progress *pr);
/* Group group has read up to at_ns of a trace that ends at end_ns. */
void progress_at(struct progress *pr, unsigned int group, uint64_t at_ns, uint64_t end_ns);

#endif /* TEOSIM_SIM_PROGRESS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* The progress line of a sweep: cells done, cells per second, time left. */
#ifndef TEOSIM_SWEEP_ETA_H
#define TEOSIM_SWEEP_ETA_H

#include <stddef.h>

/*
 * "120/4830 cells, 85.2 cells/s, 55 s left" after elapsed_s seconds;
 * the rate and the time left once a cell is done ("estimating" before).
 */
void sweep_eta_format(char *buf, size_t size, unsigned int done, unsigned int total,
		      double elapsed_s);

#endif /* TEOSIM_SWEEP_ETA_H */

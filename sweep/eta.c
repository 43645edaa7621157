// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>

#include "eta.h"

/* Minutes and seconds past a minute, hours past an hour: as precise as an estimate deserves. */
static void format_duration(char *buf, size_t size, double s)
{
	unsigned long t = (unsigned long)ceil(s);

	if (t < 60)
		snprintf(buf, size, "%lu s", t);
	else if (t < 3600)
		snprintf(buf, size, "%lu min %02lu s", t / 60, t % 60);
	else
		snprintf(buf, size, "%lu h %02lu min", t / 3600, t / 60 % 60);
}

void sweep_eta_format(char *buf, size_t size, unsigned int done, unsigned int total,
		      double elapsed_s)
{
	char left[32];
	double rate;

	if (!done || elapsed_s <= 0) {
		snprintf(buf, size, "%u/%u cells, estimating", done, total);
		return;
	}
	rate = done / elapsed_s;
	format_duration(left, sizeof(left), (total - done) / rate);
	snprintf(buf, size, "%u/%u cells, %.1f cells/s, %s left", done, total, rate, left);
}

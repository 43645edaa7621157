// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "stats.h"

/* Student's t, 97.5th percentile, for 1 to 30 degrees of freedom (any table of t). */
static const double t95[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double sweep_t95(unsigned int df)
{
	const double z = 1.959964;	/* the normal's 97.5th percentile */
	double d = df;

	if (df >= 1 && df <= sizeof(t95) / sizeof(t95[0]))
		return t95[df - 1];
	/* Beyond the table, the first terms of the Cornish-Fisher expansion in 1/df. */
	return z + (z * z * z + z) / (4 * d) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

struct sweep_stat sweep_stat_of(const struct sweep_acc *a)
{
	struct sweep_stat s = { .n = a->n, .mean = a->mean };

	if (a->n < 2)
		return s;
	s.half_width = sweep_t95(a->n - 1) * sqrt(a->m2 / (a->n - 1) / a->n);
	s.interval = true;
	return s;
}

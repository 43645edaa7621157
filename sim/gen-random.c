// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "gen-random.h"
#include "trace-limits.h"

#define LN2		0.69314718055994530942
#define LOG_TERMS	16	/* 0.18^32 is far below a double's precision */

double gen_log(double x)
{
	int e;
	/* x = m * 2^e with m in [0.5, 1): frexp() and the doubling are exact. */
	double m = frexp(x, &e), z, z2, term, sum = 0;

	/* m in [sqrt(1/2), sqrt(2)), where ln(m) is small: ln(1) comes out exactly 0. */
	if (m < M_SQRT1_2) {
		m *= 2;
		e--;
	}
	/* ln(m) = 2 atanh(z), z = (m - 1) / (m + 1) within +-0.18: the series converges fast. */
	z = (m - 1) / (m + 1);
	z2 = z * z;
	term = z;
	for (int k = 0; k < LOG_TERMS; k++) {
		sum += term / (2 * k + 1);
		term *= z2;
	}
	return 2 * sum + e * LN2;
}

static uint64_t clamp_ns(double ns)
{
	return ns >= (double)TRACE_TIME_MAX ? TRACE_TIME_MAX : (uint64_t)(ns + 0.5);
}

uint64_t gen_exp_ns(GRand *rand, double mean_ns)
{
	/* 1 - U is in (0, 1], so the logarithm is finite. */
	return clamp_ns(-mean_ns * gen_log(1.0 - g_rand_double(rand)));
}

uint64_t gen_uniform_ns(GRand *rand, uint64_t lo, uint64_t hi)
{
	return lo + clamp_ns(g_rand_double(rand) * (double)(hi - lo));
}

uint64_t gen_geometric(GRand *rand, double mean)
{
	/* P(N = k) = (1 - p)^(k - 1) p with p = 1 / mean; by inversion. */
	double q = 1.0 - 1.0 / mean;
	double u = 1.0 - g_rand_double(rand);

	if (q <= 0)
		return 1;
	return 1 + (uint64_t)floor(gen_log(u) / gen_log(q));
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random draws for the generator that give the same bits on every machine:
 * GRand's Mersenne Twister for uniform numbers, and a logarithm made of
 * IEEE-754 operations only (these files are built with -ffp-contract=off),
 * because libm's log() may differ in its last bit between C libraries.
 */
#ifndef TEOSIM_GEN_RANDOM_H
#define TEOSIM_GEN_RANDOM_H

#include <stdint.h>

#include <glib.h>

/* ln(x) for x > 0. */
double gen_log(double x);
/* An exponentially distributed duration with this mean, in ns (>= 0). */
uint64_t gen_exp_ns(GRand *rand, double mean_ns);
/* Uniform in [lo, hi]. */
uint64_t gen_uniform_ns(GRand *rand, uint64_t lo, uint64_t hi);
/* A geometric count >= 1 with this mean (>= 1). */
uint64_t gen_geometric(GRand *rand, double mean);

#endif /* TEOSIM_GEN_RANDOM_H */

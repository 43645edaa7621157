/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenario generator behind `teosim gen`: a scenario key file and a seed
 * in, a workload trace out, the same bytes for the same inputs.
 */
#ifndef TEOSIM_GEN_H
#define TEOSIM_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

/* Writes the trace to out; errors name the scenario's file:line:key. */
bool gen_write(const char *scenario_path, uint32_t seed, FILE *out, GError **error);

#endif /* TEOSIM_GEN_H */

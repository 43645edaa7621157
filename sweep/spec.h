/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep file: which governors, platforms, workloads, seeds, HZ values and
 * latency limits to cross (traces/sweeps/README.md).  Reading it checks the
 * syntax and the lists; whether each governor and platform exists is
 * checked when the sweep is set up (setup.h), with the same file:line:key.
 */
#ifndef TEOSIM_SWEEP_SPEC_H
#define TEOSIM_SWEEP_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "keyfile-lines.h"

/* More would not fit the report or the time anyone waits for it. */
#define SWEEP_LIST_MAX		256
#define SWEEP_SEEDS_MAX		10000
#define SWEEP_CELLS_MAX		10000000u

struct sweep_spec {
	struct kf_file file;		/* kept for errors naming file:line:key */
	char sha256[65];		/* of the file's bytes: shards and merge must agree on it */
	char *name, *description;
	GPtrArray *governors;		/* names or module paths; "all" expanded by setup */
	GPtrArray *platforms;		/* platform specs (platform_load()); "all" expanded here */
	GPtrArray *scenarios;		/* paths */
	GPtrArray *traces;		/* paths */
	GArray *seeds;			/* uint32_t, in the order given */
	GArray *hz;			/* unsigned int */
	GArray *latency_limits_us;	/* int32_t; INT32_MAX: none */
};

bool sweep_spec_load(const char *path, struct sweep_spec *out, GError **error);
void sweep_spec_clear(struct sweep_spec *s);

#endif /* TEOSIM_SWEEP_SPEC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep ready to run: its governors found, its platforms loaded, and the
 * cells laid out.  A cell is one governor on one workload with one setting
 * (platform, HZ, latency limit); cell (w, s, g) has the index
 * (w * nr_settings + s) * nr_govs + g, so a workload's cells are
 * consecutive and run together from one pass over its trace.
 */
#ifndef TEOSIM_SWEEP_SETUP_H
#define TEOSIM_SWEEP_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <kshim/registry.h>

#include "platform.h"
#include "run.h"
#include "spec.h"

struct sweep_workload {
	char *name;		/* "SCENARIO-seedN", or the trace's file name without .trace */
	char *family;		/* what seeds vary: the scenario's file name, or the trace's name */
	const char *scenario;	/* the scenario's path, or NULL for a trace */
	const char *trace;	/* the trace's path, or NULL for a scenario */
	uint32_t seed;
};

struct sweep_setting {
	char *name;		/* "PLATFORM-hzHZ", with "-latUS" under a latency limit */
	unsigned int platform;	/* index into the sweep's platforms */
	struct sim_run_options options;
};

struct sweep {
	struct sweep_spec spec;
	const struct kshim_governor **govs;
	unsigned int nr_govs;
	struct platform *platforms;
	unsigned int nr_platforms;
	struct sweep_setting *settings;
	unsigned int nr_settings;
	struct sweep_workload *workloads;
	unsigned int nr_workloads;
	char **families;	/* the workloads' families, each once, in order */
	unsigned int nr_families;
};

/* A governor by name or module path (the command line's lookup). */
typedef const struct kshim_governor *(*sweep_find_governor_fn)(const char *name,
								GError **error);

/* Reads the sweep file and sets the sweep up; sweep_clear() it whatever the result. */
bool sweep_setup(const char *path, sweep_find_governor_fn find, struct sweep *out,
		 GError **error);
void sweep_clear(struct sweep *s);

static inline unsigned int sweep_nr_cells(const struct sweep *s)
{
	return s->nr_workloads * s->nr_settings * s->nr_govs;
}

/* The number of the cell of workload w, setting set and governor g. */
static inline unsigned int sweep_cell_index(const struct sweep *s, unsigned int w,
					    unsigned int set, unsigned int g)
{
	return (w * s->nr_settings + set) * s->nr_govs + g;
}

/*
 * A block of cells: one workload's, for some of the settings, with every
 * governor.  Cells are simulated, written and merged a block at a time;
 * a block holds at most SWEEP_BLOCK_CELLS cells (or one setting's, when
 * the governors alone are more), so the memory a block needs does not
 * grow with the number of settings and governors.
 */
#define SWEEP_BLOCK_CELLS	256

struct sweep_block {
	unsigned int workload;
	unsigned int setting, nr_settings;
};

static inline unsigned int sweep_block_settings(const struct sweep *s)
{
	return MAX(1u, SWEEP_BLOCK_CELLS / s->nr_govs);
}

/* How many blocks workload w's cells make. */
static inline unsigned int sweep_blocks_per_workload(const struct sweep *s)
{
	unsigned int per = sweep_block_settings(s);

	return (s->nr_settings + per - 1) / per;
}

/* Block k of workload w. */
static inline struct sweep_block sweep_block_at(const struct sweep *s, unsigned int w,
						unsigned int k)
{
	unsigned int per = sweep_block_settings(s), from = k * per;

	return (struct sweep_block){ .workload = w, .setting = from,
				     .nr_settings = MIN(per, s->nr_settings - from) };
}

static inline unsigned int sweep_block_cells(const struct sweep *s, const struct sweep_block *b)
{
	return b->nr_settings * s->nr_govs;
}

/*
 * Pairs of generations: governors whose names agree up to their last '-'
 * ("teo-6.1", "teo-6.12"), each with the next one of its kind in the
 * sweep's order.  Returns how many pairs; (*a)[i] and (*b)[i] for each.
 */
unsigned int sweep_generation_pairs(const struct sweep *s, unsigned int **a, unsigned int **b);

/* The family index of workload w. */
unsigned int sweep_family_of(const struct sweep *s, unsigned int w);

#endif /* TEOSIM_SWEEP_SETUP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the figures are drawn from, collected while a simulation runs.
 * Memory is bounded whatever the trace length: counters, a fixed
 * histogram, and a timeline thinned by doubling its stride.
 */
#ifndef TEOSIM_PLOT_DATA_H
#define TEOSIM_PLOT_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <kshim/machine.h>

/* Idle-duration histogram: 10 bins per decade from 1 us to 10 s. */
#define PLOT_HIST_DECADES	7
#define PLOT_HIST_PER_DECADE	10
#define PLOT_HIST_BINS		(PLOT_HIST_DECADES * PLOT_HIST_PER_DECADE)
/* The timeline keeps at most this many idle periods. */
#define PLOT_TIMELINE_MAX	4096

struct plot_state {
	char name[KSHIM_STATE_NAME_LEN];
	uint32_t target_residency_us;
};

/* One idle period as the scorer judged it. */
struct plot_period {
	uint64_t entry_ns;
	uint64_t idle_ns;		/* how long the CPU really stayed idle */
	int chosen;			/* the state entered */
	int optimal;			/* the hindsight-optimal state */
	bool above, below;		/* the kernel's metrics for this period */
};

struct plot_sample {
	uint64_t entry_ns;
	int chosen;
	int optimal;
};

struct plot_phase {
	uint64_t at_ns;
	char name[32];
};

/* One governor's run on one platform. */
struct plot_series {
	char *governor;
	char *platform;
	unsigned int state_count;
	struct plot_state states[KSHIM_STATE_MAX];
	uint64_t good[KSHIM_STATE_MAX], above[KSHIM_STATE_MAX], below[KSHIM_STATE_MAX];
	uint64_t periods, agree;
	uint64_t hist[PLOT_HIST_BINS][KSHIM_STATE_MAX];
	/* Set from the scores when the run ends. */
	double energy_mj;
	double optimal_energy_mj;
	double latency_mean_us;
	double latency_p99_us;
	/* Every stride-th period, up to PLOT_TIMELINE_MAX of them. */
	GArray *timeline;		/* struct plot_sample */
	uint64_t stride;
	uint64_t seen;
	GArray *phases;			/* struct plot_phase */
};

/* Where two governors part, for the diff figure. */
#define PLOT_DIFF_BUCKETS	100

struct plot_diff {
	char *governor_a, *governor_b;
	unsigned int state_count;
	struct plot_state states[KSHIM_STATE_MAX];
	uint64_t matrix[KSHIM_STATE_MAX][KSHIM_STATE_MAX];	/* [a's state][b's state] */
	uint64_t end_ns;
	uint64_t decisions[PLOT_DIFF_BUCKETS];			/* per slice of the run */
	uint64_t differing[PLOT_DIFF_BUCKETS];
};

void plot_series_init(struct plot_series *s, const char *governor, const char *platform,
		      const struct plot_state *states, unsigned int state_count);
void plot_series_clear(struct plot_series *s);
void plot_series_add(struct plot_series *s, const struct plot_period *p);
void plot_series_add_phase(struct plot_series *s, uint64_t at_ns, const char *name);
/*
 * Adds another CPU's counts and histogram to dst; dst keeps its own
 * timeline and phases (the figures show one CPU's timeline).
 */
void plot_series_add_counts(struct plot_series *dst, const struct plot_series *src);
/* The histogram bin of an idle duration. */
unsigned int plot_hist_bin(uint64_t idle_ns);
/* The lower edge of a bin, in us. */
double plot_hist_bin_start_us(unsigned int bin);

void plot_diff_init(struct plot_diff *d, const char *governor_a, const char *governor_b,
		    const struct plot_state *states, unsigned int state_count, uint64_t end_ns);
void plot_diff_clear(struct plot_diff *d);
void plot_diff_add(struct plot_diff *d, uint64_t at_ns, int state_a, int state_b);
/* Adds another CPU's counts to dst. */
void plot_diff_add_counts(struct plot_diff *dst, const struct plot_diff *src);

#endif /* TEOSIM_PLOT_DATA_H */

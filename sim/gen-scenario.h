/* SPDX-License-Identifier: GPL-2.0 */
/* Scenarios for `teosim gen` (traces/scenarios/README.md), read from a GLib key file. */
#ifndef TEOSIM_GEN_SCENARIO_H
#define TEOSIM_GEN_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#define GEN_PHASES_MAX		64	/* a source's phases are a 64-bit mask */
#define GEN_NAME_MAX		31

enum gen_kind {
	GEN_PERIODIC,		/* a periodic timer, optionally jittered */
	GEN_POISSON,		/* interrupts at exponential intervals */
	GEN_BURSTY,		/* bursts of interrupts */
	GEN_PINGPONG,		/* IPIs back and forth between two CPUs */
	GEN_IO,			/* one I/O request at a time, completions by interrupt */
	GEN_BUSY,		/* busy periods at exponential intervals */
	GEN_TIMEOUT,		/* timeouts, mostly cancelled before they expire */
};

/* A stretch of time in which a source is active: its phases, merged. */
struct gen_window {
	uint64_t start_ns, end_ns;
};

struct gen_source {
	char name[GEN_NAME_MAX + 1];
	enum gen_kind kind;
	unsigned int *cpus;
	unsigned int nr_cpus;
	struct gen_window *windows;
	unsigned int nr_windows;
	/* The kind's parameters, in ns where they are times; unused ones are 0. */
	uint64_t period_ns;	/* periodic: 1 / rate_hz */
	uint64_t jitter_ns;	/* periodic */
	double rate_hz;		/* poisson, bursty (bursts), pingpong (exchanges), busy, timeout */
	double burst_size;	/* bursty: mean interrupts per burst */
	double gap_ns;		/* bursty: mean spacing inside a burst */
	uint64_t rounds;	/* pingpong: round trips per exchange */
	double latency_ns;	/* pingpong: IPI delivery (fixed); io: mean device latency */
	uint64_t work_ns;	/* work per wakeup (busy: the mean length) */
	uint64_t timeout_ns;	/* timeout */
	double cancel_prob;	/* timeout */
	double cancel_after_ns;	/* timeout: mean time to the cancel */
};

struct gen_phase {
	char name[GEN_NAME_MAX + 1];
	uint64_t start_ns, end_ns;
};

struct gen_scenario {
	char *name;
	unsigned int nr_cpus;
	uint64_t end_ns;
	struct gen_phase phases[GEN_PHASES_MAX];
	unsigned int nr_phases;
	struct gen_source *sources;
	unsigned int nr_sources;
};

/* Errors name file:line: [group] key. */
bool gen_scenario_load(const char *path, struct gen_scenario *out, GError **error);
void gen_scenario_clear(struct gen_scenario *s);

#endif /* TEOSIM_GEN_SCENARIO_H */

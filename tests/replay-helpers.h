/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for governor decision tests: build a call log in memory, replay
 * it through a governor with the real replayer, and look at the decisions.
 */
#ifndef TEOSIM_TEST_REPLAY_HELPERS_H
#define TEOSIM_TEST_REPLAY_HELPERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

#include "calllog.h"

/* Latency limit PM QoS reports when nobody asked for one: 2000 s in us. */
#define QOS_NONE	2000000000

struct decision {
	unsigned long line;
	unsigned int cpu;
	int state;
	bool stop_tick;
};

struct calls {
	FILE *f;
	char *buf;
	size_t len;
	unsigned int selects;
};

/* POLL, C1 2/2, C1E 10/20, C6 133/600 us: intel_idle's SKX table. */
extern const struct kshim_state_desc skx_states[4];

void calls_begin(struct calls *c, unsigned int hz, unsigned int cpus,
		 const struct kshim_state_desc *states, unsigned int count);
/* A select with no latency limit, tick running, no I/O waiters. */
void calls_select(struct calls *c, unsigned int cpu, uint64_t clock_ns,
		  int64_t sleep_ns, int64_t tick_ns);
void calls_select_full(struct calls *c, const struct calllog_select *s);
void calls_reflect(struct calls *c, unsigned int cpu, uint64_t clock_ns, int state,
		   uint64_t residency_ns, bool got_tick);
/* Returns the log text; the caller frees it. */
char *calls_end(struct calls *c);

/* One select on a fresh CPU of a machine with these states, replayed. */
GArray *replay_one_select(const char *governor, const struct kshim_state_desc *states,
			  unsigned int count, const struct calllog_select *s);
/* Replays text through governor; fails the test on any error. */
GArray *replay_decisions(const char *governor, const char *text);
/* Replays text expecting an error; returns its message. */
char *replay_failure(const char *governor, const char *text);
/* The decision of the n-th select (1-based) in a result. */
const struct decision *nth_select(GArray *decisions, unsigned int n);
/* Fails the test unless the n-th select decided state and stop_tick. */
void expect_decision(GArray *decisions, unsigned int n, int state, bool stop_tick);

#define MS	1000000LL
#define US	1000LL

#endif /* TEOSIM_TEST_REPLAY_HELPERS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One source of a scenario on one CPU (a ping-pong: on its two CPUs) as a
 * lazy stream of trace events in time order.  A stream holds a few words
 * of state and its own random generator, so a trace of any length is made
 * in constant memory, and each stream's draws do not depend on the others.
 */
#ifndef TEOSIM_GEN_STREAM_H
#define TEOSIM_GEN_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "gen-scenario.h"
#include "trace.h"

struct gen_stream {
	const struct gen_source *src;
	unsigned int index;		/* events at the same time go out in stream order */
	unsigned int cpu, peer;		/* peer: a ping-pong's second CPU */
	uint64_t timer_id;
	GRand *rand;
	unsigned int window;		/* the source's current window */
	bool in_window;
	uint64_t t;			/* when the stream acts next */
	bool first;			/* periodic: the window's first expiry is random */
	uint64_t left;			/* bursty: interrupts left; pingpong: hops left */
	bool on_peer;			/* pingpong: the next hop lands on peer */
	bool timer_armed, timer_periodic;
	uint64_t timer_expires;
	struct trace_event queue[2];	/* one step makes at most two events */
	unsigned int qhead, qlen;
};

/*
 * A stream's iowait events say whether its own task waits for I/O (1) or
 * not (0); the writer sums them per CPU into the trace's counts.
 *
 * The stream of src on cpu (pingpong: on src->cpus[0] and [1]).  Its
 * generator is seeded from (seed, source_index, cpu).
 */
void gen_stream_init(struct gen_stream *st, const struct gen_source *src,
		     unsigned int source_index, unsigned int cpu, unsigned int index,
		     uint32_t seed);
void gen_stream_clear(struct gen_stream *st);
/* The next event; false when the stream is over. */
bool gen_stream_next(struct gen_stream *st, struct trace_event *ev);

#endif /* TEOSIM_GEN_STREAM_H */

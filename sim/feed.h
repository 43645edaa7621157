/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One pass over a trace feeds every CPU simulation listening to it: the
 * trace is read and checked once for any number of CPUs and governors,
 * rather than once per CPU and governor.
 */
#ifndef TEOSIM_SIM_FEED_H
#define TEOSIM_SIM_FEED_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "idle-loop.h"
#include "trace.h"

struct feed_listener {
	struct sim_cpu *cpu;	/* fed the events of its CPU */
	/* Why it stopped: its own failure, or the reader's.  It is fed no more. */
	GError *error;
};

struct feed_hooks {
	/* Each phase marker, for the figures; may be NULL. */
	void (*phase)(void *priv, const struct trace_event *ev);
	/* Now and then: the time of the event read last; may be NULL. */
	void (*progress)(void *priv, uint64_t at_ns);
	void *priv;
};

/*
 * Reads r to its end, feeding each event to the listeners of its CPU, then
 * finishes them all.  An error of the reader goes to every listener that
 * has not failed yet.  Returns false if any listener failed.
 */
bool trace_feed(struct trace_reader *r, struct feed_listener *l, unsigned int n,
		const struct feed_hooks *hooks);

/* Jobs, each one CPU simulation, that one pass over a trace runs together. */
struct feed_jobs {
	unsigned int n;
	/* Prepares job k's CPU; false with error set. */
	bool (*start)(void *priv, unsigned int k, struct sim_cpu **cpu, GError **error);
	/*
	 * Job k is over: error (which end() now owns) is NULL if it went well.
	 * Called for every job, also those that were never started.
	 */
	void (*end)(void *priv, unsigned int k, GError *error);
	/* Each phase marker, for job k (the figures); may be NULL. */
	void (*phase)(void *priv, unsigned int k, const struct trace_event *ev);
	void *priv;
};

/* A trace, and the jobs on it that one thread runs from one pass over it. */
struct feed_group {
	const char *trace;
	uint64_t end_ns;	/* the trace's end, for the progress line */
	struct feed_jobs jobs;
};

/*
 * Runs every group: starts its jobs, feeds them its trace, and ends them.
 * A job that cannot start, or a trace that cannot be opened, fails every
 * job of the group with that error, and the jobs after it are not started.
 * Up to threads groups run at once (1: all in the calling thread); with
 * progress set, stderr shows how far they are (progress.h).
 */
void feed_run_groups(struct feed_group *groups, unsigned int n, unsigned int threads,
		     bool progress);

#endif /* TEOSIM_SIM_FEED_H */

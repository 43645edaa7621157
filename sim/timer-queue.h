/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's pending timers, earliest first.  Timers that expire at the same
 * time leave the queue in the order they were armed, so runs are
 * reproducible.  Memory grows with the number of live timers only.
 */
#ifndef TEOSIM_SIM_TIMER_QUEUE_H
#define TEOSIM_SIM_TIMER_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "idmap.h"

/* What a timer's interrupt does to a CPU it wakes from idle (the trace's fields of that name). */
struct timer_wakeup {
	uint64_t held_ns;	/* it leaves its state this long after the interrupt */
	uint64_t exit_ns;	/* ... and this long after that, not the state's exit cost (0) */
	bool late_counted;	/* the trace counts its expiry at its interrupt (fires_ns) */
	uint64_t stalled_ns;	/* polling, it ran no polling loop from this long before */
	bool idle_loop;		/* it runs the handler alone, staying in the idle loop */
};

struct sim_timer {
	uint64_t id;
	uint64_t expires_ns;
	uint64_t late_ns;	/* its interrupt comes this long after expires_ns */
	uint64_t period_ns;	/* 0: one shot */
	uint64_t work_ns;	/* run on the CPU after each expiry */
	struct timer_wakeup wake;
	uint64_t armed_seq;	/* tie-break between equal expiries */
	bool detached;		/* no longer its id's: timer_queue_detach() */
};

struct timer_queue {
	struct sim_timer *heap;	/* binary min-heap on (expires_ns, armed_seq) */
	unsigned int len, cap;
	/* Timer id -> heap index + 1; every move in the heap updates it. */
	struct idmap ids;
	uint64_t next_seq;
	/*
	 * The earliest expiry, UINT64_MAX with no timer: the idle loop asks
	 * several times per period and the queue changes far less often.
	 */
	uint64_t first_ns;
	/* The earliest timer's interrupt: the CPU wakes then (UINT64_MAX: none). */
	uint64_t first_fires_ns;
};

void timer_queue_init(struct timer_queue *q);
void timer_queue_clear(struct timer_queue *q);
/*
 * Arms a timer; an armed timer with the same id is re-armed (hrtimer_start()).
 * Its interrupt comes late_ns after expires_ns, and does wake to a CPU it
 * wakes (NULL: nothing more than waking it).
 */
void timer_queue_arm(struct timer_queue *q, uint64_t id, uint64_t expires_ns, uint64_t late_ns,
		     uint64_t period_ns, uint64_t work_ns, const struct timer_wakeup *wake);
/* Returns false when no timer of that id is armed. */
bool timer_queue_cancel(struct timer_queue *q, uint64_t id);
/* The timer of that id, or NULL. */
const struct sim_timer *timer_queue_find(const struct timer_queue *q, uint64_t id);
/*
 * The timer of that id, if any, still comes once as it is (a periodic one
 * without its next periods), but no longer answers to its id, which a new
 * arming may take.
 */
void timer_queue_detach(struct timer_queue *q, uint64_t id);
/* The earliest timer, or NULL. */
static inline const struct sim_timer *timer_queue_first(const struct timer_queue *q)
{
	return q->len ? &q->heap[0] : NULL;
}
/* The earliest timer's expiry, or UINT64_MAX when there is none. */
static inline uint64_t timer_queue_first_ns(const struct timer_queue *q)
{
	return q->first_ns;
}
/* When the earliest timer's interrupt comes, or UINT64_MAX when there is none. */
static inline uint64_t timer_queue_first_fires_ns(const struct timer_queue *q)
{
	return q->first_fires_ns;
}
/* Removes the earliest timer into *out (the queue must not be empty). */
void timer_queue_pop(struct timer_queue *q, struct sim_timer *out);
/* timer_queue_expire_until()'s work, once some timer is due. */
uint64_t timer_queue_expire_due(struct timer_queue *q, uint64_t upto);
/*
 * Removes every timer that expires at or before upto, periodic or not, and
 * returns the sum of their work (at most INT64_MAX): inline, as it is asked
 * every period.
 */
static inline uint64_t timer_queue_expire_until(struct timer_queue *q, uint64_t upto)
{
	return q->first_ns <= upto ? timer_queue_expire_due(q, upto) : 0;
}
/* Whether a timer that expires at or before upto brings work (the queue unchanged). */
bool timer_queue_work_due(const struct timer_queue *q, uint64_t upto);

#endif /* TEOSIM_SIM_TIMER_QUEUE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's idle loop, as a discrete-event model of the 6.x kernel's
 * do_idle() / cpuidle_idle_call() (sim/README.md walks through one period).
 *
 * The CPU is fed its trace events in time order.  Whenever it has no work
 * left it goes idle: the governor selects a state through the host
 * interface (sim/host.c), the tick is stopped or kept, the state is entered
 * and left at the first wake source, the core accounts the residency and
 * the governor reflects.  Each idle period is handed, as a struct
 * idle_period, to the scorer and to an optional observer.
 */
#ifndef TEOSIM_SIM_IDLE_LOOP_H
#define TEOSIM_SIM_IDLE_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <kshim/machine.h>

#include "platform.h"
#include "timer-queue.h"
#include "trace.h"

/* What one simulation run needs besides a governor and the events. */
struct sim_config {
	const struct platform *platform;
	unsigned int hz;
	int32_t latency_limit_us;	/* PM QoS resume latency; INT32_MAX: none */
	uint64_t end_ns;		/* the trace header's end */
	uint64_t mono_ns;		/* ... and its CLOCK_MONOTONIC at time 0 */
	uint64_t poll_check_ns;		/* ... and its polling check interval; 0: the platform's */
	uint64_t select_lead_ns;	/* measured select lead (teosim fidelity); 0: the platform's */
	bool has_tick_stop;		/* the trace's tick-stop cost, else the platform's */
	uint64_t tick_stop_ns;
};

enum wake_cause {
	WAKE_TIMER,		/* a timer of the CPU's queue expired */
	WAKE_EVENT,		/* a non-timer interrupt or new work (IRQ, BUSY) */
	WAKE_TICK,		/* the kept tick */
	WAKE_POLL_LIMIT,	/* polling stopped at its time limit: no wakeup at all */
	WAKE_CAUSES		/* how many there are */
};

/* One pass through cpuidle_idle_call(). */
struct idle_period {
	uint64_t entry_ns;		/* the state's entry (select: select_lead before, and tick_stop more if stopped) */
	int64_t sleep_length_ns;	/* what the governor was told ... */
	int64_t delta_next_ns;
	bool tick_was_stopped;		/* ... the tick state it saw ... */
	uint32_t iowait_tasks;		/* ... and the tasks waiting for I/O (nr_iowait_cpu()) */
	int state;			/* selected and entered */
	bool stop_tick;			/* the governor's request */
	bool tick_stopped;		/* the tick state after the decision */
	uint64_t next_tick_ns;		/* first tick boundary after entry */
	uint64_t wake_ns;		/* the state was left (wakeup or poll limit) */
	uint64_t exit_latency_ns;	/* then this passed before the CPU ran (the exit cost) */
	enum wake_cause cause;
};

/* Sees each period around the governor's calls; used by the decision diff. */
struct idle_observer {
	/* After select, before the tick decision: the host still answers as it did. */
	void (*selected)(void *priv, const struct idle_period *p);
	/* After reflect: the host's clock and got_tick are those reflect saw. */
	void (*reflected)(void *priv, const struct idle_period *p);
	void *priv;
};

struct idle_scorer;

/* Where a CPU stands between two events. */
enum cpu_phase {
	CPU_WORKING,		/* running the work queued so far */
	CPU_IDLE,		/* in the state its governor selected */
	CPU_DONE,		/* at the end of the trace */
};

struct sim_cpu {
	unsigned int cpu;			/* the trace's CPU number */
	const struct sim_config *cfg;
	const struct kshim_governor *gov;
	struct kshim_machine *machine;		/* single-CPU: the governor's CPU 0 */
	struct idle_scorer *scorer;		/* may be NULL */
	struct idle_observer observer;		/* callbacks may be NULL */

	enum cpu_phase phase;
	uint64_t work_from, busy_end;		/* CPU_WORKING: since when, until when */
	struct idle_period period;		/* CPU_IDLE: the one under way ... */
	uint64_t tick_at, poll_end;		/* ... its own wake sources (UINT64_MAX: none) */
	uint64_t tick_at_for;			/* ... the boundary tick_at is the interrupt of */
	uint64_t wake_limit;			/* ... and the first of them */
	uint64_t last_event_ns;
	struct timer_queue timers;		/* hrtimers */
	/*
	 * Timer-wheel timers, by the tick boundary they are due at: they have
	 * no interrupt of their own and expire at the CPU's first tick at or
	 * after it (sim/README.md, the timer wheel).
	 */
	struct timer_queue wheel;
	uint64_t tick_nsec;
	uint64_t tick_shift;			/* the tick fires where (t + tick_shift) % tick_nsec is 0 */
	uint64_t poll_time_ns;			/* the polling state's time limit ... */
	uint64_t poll_limit_ns;			/* ... as its loop's clock checks notice it */
	uint64_t poll_check_ns;			/* the pace a poll record's check_ns=0 brings back */
	/* Copies of cfg's, read every event or period without following cfg. */
	uint64_t end_ns;
	int32_t latency_limit_us;
	/* The platform's figures the loop reads every period, per state. */
	unsigned int state_count;
	uint64_t exit_cost_ns[KSHIM_STATE_MAX];
	uint64_t timer_latency_ns;		/* a timer's interrupt comes this long after its expiry */
	uint64_t idle_loop_ns;			/* from a polling limit to the next select */
	uint64_t tick_work_ns;			/* the tick's handler, when the tick woke the CPU */
	uint64_t select_lead_ns;		/* select comes this long before the state's entry ... */
	uint64_t tick_stop_ns;			/* ... and this much more when it stops the tick */
	uint64_t idle_entry_lag_ns;		/* from a switch to the idle task to the idle entry time: */
	uint32_t idle_entry_pct;		/* this share of the way to the state's entry, at most the lag */
	uint64_t idle_entry_held_ns;		/* after a held-up way, at least this (0: none) */
	uint64_t residency_gap_ns;		/* the measured residency falls this short of the state's */
	/* The trace's last tick record: the boundary and when its interrupt came. */
	uint64_t tick_record_ns, tick_record_fires_ns;
	bool polling[KSHIM_STATE_MAX];

	/* What the host interface answers (sim/host.c). */
	uint64_t clock_ns;
	bool tick_stopped;
	uint64_t tick_started_ns;		/* the tick last started running again */
	bool got_tick;
	bool tick_while_polling;		/* CPU_IDLE: the tick ran in the polling loop */
	bool reselecting;			/* CPU_WORKING: from a polling limit to the next entry */
	bool in_idle_loop;			/* CPU_WORKING: only handlers ran, no task: do_idle() goes on */
	bool loop_resched;			/* ... but left need_resched set: the tick restarts */
	uint64_t idle_entry_ns;			/* the tick code's idle entry time (host.h) */
	uint64_t switched_idle_ns;		/* CPU_WORKING: the trace's idle record, or NEVER */
	uint64_t next_tick_ns;			/* these four: as of the last idle entry */
	int64_t sleep_length_ns, delta_next_ns;
	/* A wheel timer due by the next boundary, or RCU's callbacks, keep the tick running. */
	bool tick_needed;
	bool rcu_pending;			/* RCU callbacks are queued (the trace's rcu records) */
	uint32_t iowait_tasks;			/* tasks waiting for I/O (the trace's iowait records) */

	uint64_t busy_ns;			/* running work, up to end_ns */
	/* The tick stops of selects aborted before an entry (the trace's idle records). */
	uint64_t aborted_tick_stops;
};

/*
 * Prepares cpu with its own instance of gov.  Returns false with error set
 * when the governor or the platform cannot be used.
 */
bool sim_cpu_init(struct sim_cpu *c, unsigned int cpu, const struct kshim_governor *gov,
		  const struct sim_config *cfg, GError **error);
void sim_cpu_clear(struct sim_cpu *c);

/*
 * Makes another machine that answers its host calls from this CPU, for a
 * governor following this CPU's periods (the diff's second governor).
 */
bool sim_cpu_new_machine(struct sim_cpu *c, const struct kshim_governor *gov,
			 struct kshim_machine **out, GError **error);

/*
 * Runs the CPU up to the event ev, one of its own CPU and not a phase
 * marker, and takes it.  An event at or after cfg->end_ns ends the run, as
 * sim_cpu_finish() does; once at the end, the CPU passes over every event.
 * False with error set on a bad event or a governor's bad choice; the CPU
 * must not be fed after that.
 */
bool sim_cpu_feed(struct sim_cpu *c, const struct trace_event *ev, GError **error);
/* Runs the CPU to cfg->end_ns when no more events come. */
bool sim_cpu_finish(struct sim_cpu *c, GError **error);

#endif /* TEOSIM_SIM_IDLE_LOOP_H */

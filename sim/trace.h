/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workload traces (traces/trace-format.md): what happens on each CPU, as a
 * stream of events in time order.  The reader never loads a trace whole:
 * memory stays flat in trace length.
 */
#ifndef TEOSIM_TRACE_H
#define TEOSIM_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#define TRACE_VERSION	1

enum trace_kind {
	TRACE_TIMER,		/* a timer is armed (or re-armed) on a CPU */
	TRACE_CANCEL,		/* a timer is cancelled */
	TRACE_IRQ,		/* a non-timer interrupt or IPI wakes the CPU */
	TRACE_BUSY,		/* the CPU runs work (waking it if idle) */
	TRACE_PHASE,		/* the workload changes phase (a marker) */
	TRACE_TICK,		/* when the tick's interrupt for a boundary came */
	TRACE_WHEEL,		/* a timer-wheel timer is queued (or re-queued) on a CPU */
	TRACE_RCU,		/* a CPU starts or stops having RCU callbacks queued */
	TRACE_POLL,		/* a CPU's polling loop changes pace */
	TRACE_IDLE,		/* a CPU's task switches to the idle task: its idle loop begins */
	TRACE_IOWAIT,		/* the count of tasks waiting for I/O on a CPU changes (the last kind) */
};

/* Kind and CPU side by side: no padding, and the fields the idle loop reads first together. */
struct trace_event {
	enum trace_kind kind;
	unsigned int cpu;	/* not for TRACE_PHASE */
	uint64_t at_ns;		/* when it happens */
	unsigned long line;
	uint64_t timer_id;	/* TIMER, CANCEL, WHEEL */
	/* TIMER: absolute expiry, >= at_ns; WHEEL: the tick boundary it is due at, >= at_ns */
	uint64_t expires_ns;
	/*
	 * TIMER: its interrupt reaches the CPU, >= expires_ns; 0: the
	 * platform's timer latency.  TICK: the interrupt of the tick due at
	 * at_ns (a tick boundary) reached the CPU, >= at_ns.
	 */
	uint64_t fires_ns;
	uint64_t period_ns;	/* TIMER: re-armed every period after expiry; 0 = one shot */
	/* TIMER, IRQ: work run after the wakeup; WHEEL: after its expiry; BUSY: its length */
	uint64_t work_ns;
	/*
	 * TIMER, IRQ: a CPU this interrupt wakes from idle leaves its state
	 * this long after the interrupt came, before its exit cost (a vCPU
	 * the host held up); 0: at once.
	 */
	uint64_t held_ns;
	/*
	 * TIMER, IRQ: a CPU this interrupt wakes from idle leaves its state
	 * this long after the interrupt (and its held_ns), in place of the
	 * state's exit cost: the capture's own exit, quicker than that; 0:
	 * the state's.  A periodic timer's first expiry only.
	 */
	uint64_t exit_ns;
	/*
	 * TIMER, IRQ: a CPU polling when this interrupt wakes it had stopped
	 * running its polling loop this long before the interrupt (the host
	 * held the vCPU up): a polling time limit due after that does not end
	 * the state first; 0: the loop ran.  A periodic timer's first expiry
	 * only.
	 */
	uint64_t stalled_ns;
	/*
	 * TIMER, IRQ: a CPU this interrupt wakes from idle runs only its
	 * handler and stays in the idle loop: the tick stays as it is.
	 */
	bool idle_loop;
	/*
	 * IRQ: no interrupt of this CPU's own: another CPU woke a task here by
	 * setting need_resched, which a polling CPU notices at once (no IPI,
	 * no exit cost); a CPU in a halting state takes the IPI.
	 */
	bool remote;
	/*
	 * IRQ, with idle_loop: the handler woke no task but left need_resched
	 * set (a reschedule IPI that kicks an idle CPU to look at a timer
	 * queued on it): the CPU leaves do_idle() and comes straight back, so
	 * its tick restarts; the idle entry time is taken anew as for idle_loop.
	 */
	bool resched;
	/*
	 * IDLE: the idle loop's select was aborted: a task was woken for the
	 * CPU without an interrupt (its idle task polls need_resched) after
	 * the governor chose and before the state was entered.
	 */
	bool aborted;
	bool rcu_pending;	/* RCU: from at_ns the CPU has RCU callbacks queued */
	uint64_t check_ns;	/* POLL: from at_ns its polling loop reads the clock this often */
	/* IOWAIT: from at_ns this many tasks that blocked on the CPU wait for I/O (nr_iowait_cpu()) */
	uint32_t iowait_tasks;
	char phase[32];		/* PHASE: its name */
};

struct trace_header {
	unsigned int nr_cpus;
	uint64_t end_ns;	/* the simulation stops here */
	char *name;		/* the scenario's name, or NULL */
	/*
	 * The machine the workload was recorded on, or NULL: a bundled
	 * platform's name or a platform file beside the trace (see
	 * trace_platform_spec()).
	 */
	char *platform;
	/* CLOCK_MONOTONIC at time 0: the phase of the tick grid (0 unless given). */
	uint64_t mono_ns;
	/*
	 * The polling loop's clock-check interval measured on the recorded
	 * machine under this workload, or 0: the platform's poll_check_us.
	 */
	uint64_t poll_check_ns;
	/*
	 * With has_tick_stop: what stopping the tick cost the recorded
	 * machine, left out of the work before each idle entry at which its
	 * kernel stopped the tick; the simulator adds it where it stops the
	 * tick itself, in place of the platform's tick_stop_us.
	 */
	bool has_tick_stop;
	uint64_t tick_stop_ns;
};

struct trace_reader;

/* Opens a trace and reads its header. */
struct trace_reader *trace_open(const char *path, GError **error);
const struct trace_header *trace_header(const struct trace_reader *r);
/* For tests: fewer timers armed at once than TRACE_ARMED_MAX (trace-limits.h). */
void trace_limit_armed(struct trace_reader *r, unsigned int max);
/*
 * 1 with *ev pointing at the next event, 0 at the end, -1 on error
 * (file:line:field).  The event is the reader's: valid until the next call.
 */
int trace_next(struct trace_reader *r, const struct trace_event **ev, GError **error);
void trace_close(struct trace_reader *r);

/*
 * The platform_load() spec of the header's platform, or NULL when it names
 * none: a name ending in PLATFORM_SUFFIX is a file in the directory of the
 * trace at path; any other is a bundled platform's.
 */
char *trace_platform_spec(const char *path, const struct trace_header *h);

#endif /* TEOSIM_TRACE_H */

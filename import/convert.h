/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turning a capture into a workload trace (traces/import-format.md has the
 * mapping and every approximation): the real CPUs' busy periods become the
 * work that their wakeups bring, hrtimers become the trace's timers, and
 * what the capture lacks is said in notes, written into the trace as
 * comments and shown on stderr.
 */
#ifndef TEOSIM_IMPORT_CONVERT_H
#define TEOSIM_IMPORT_CONVERT_H

#include <stdio.h>

#include <kshim/machine.h>

#include "capture.h"
#include "platform.h"
#include "trace.h"

/* Timers known only from their expiry get ids from here up: no kernel pointer is there. */
#define IMPORT_INFERRED_ID_BASE	(UINT64_C(1) << 40)
/* Wheel timers known only from a stopped tick's programming, from here up. */
#define IMPORT_UNSEEN_WHEEL_ID_BASE	(UINT64_C(1) << 41)
/* Wheel timers the trace leaves out, written only for the work they brought, from here up. */
#define IMPORT_UNTRACED_WHEEL_ID_BASE	(UINT64_C(3) << 40)

/* How each imported wakeup was classified, for the notes and the tests. */
struct import_counts {
	uint64_t timer_wakeups;		/* hrtimer expiry: work given to its timer event */
	uint64_t inferred_timers;	/* ... of a timer whose hrtimer_start is not in the capture */
	uint64_t irq_wakeups;		/* irq_handler_entry or IPI */
	uint64_t remote_wakeups;	/* only a sched_wakeup from another CPU: imported as irq */
	uint64_t unknown_wakeups;	/* no cause in the capture: imported as irq */
	uint64_t unseen_interrupts;	/* ... from a halting state: the irq an exit cost before the exit */
	uint64_t need_resched_wakeups;	/* ... remote ones, and unknown ones from polling: remote=1 */
	uint64_t quick_exits;		/* wakeups with an exit cost of their own (exit_ns) */
	uint64_t quick_exit_ns;		/* ... and how much quicker than the state's they were */
	uint64_t handler_armings_moved;	/* a held-up timer's re-arming by its handler, moved with it */
	uint64_t tick_wakeups;		/* the tick: dropped, the simulator has its own */
	uint64_t idle_loop_wakeups;	/* timer or irq whose handler woke no task (idle_loop) */
	uint64_t resched_wakeups;	/* ... an irq of them leaving need_resched set (resched) */
	uint64_t idle_switches;		/* sched_switch to the idle task while running: idle records */
	uint64_t aborted_selects;	/* of them, idle loops that entered no state: select aborted */
	uint64_t ticks_withdrawn;	/* tick re-armed or cancelled with its boundary passed and no expiry */
	uint64_t ticks_pending_at_end;	/* tick armed for a passed boundary at the capture's end */
	uint64_t limit_stalls;		/* polling limits the host held up: two poll records each */
	uint64_t limit_stalled_ns;	/* ... and the time from each stall's start to the next entry */
	uint64_t tick_stalls;		/* polling states the host held up to the tick: two poll records */
	uint64_t tick_stalled_ns;	/* ... and the time from each stall's start to the next entry */
	uint64_t tick_stop_cuts;	/* busy periods import_convert_cut() ended header.tick_stop_ns early */
	uint64_t reselects;		/* exits that woke nothing: the CPU stayed idle */
	uint64_t reselect_ns;		/* ... and the time from each to the next entry */
	uint64_t late_reselects;	/* ... of them later than RESELECT_NS: polling limits by the flags */
	uint64_t tick_busy_ns;		/* busy time after tick wakeups, dropped */
	uint64_t wheel_work_wakeups;	/* tick wakeups whose wheel timer woke a task: work given to it */
	uint64_t wheel_work_ns;		/* ... and that work */
	uint64_t untraced_wheel_wakeups;	/* ... whose timer the trace leaves out: one written */
	uint64_t untraced_wheel_ns;	/* ... and that work */
	uint64_t other_clock_timers;	/* expiry far from the trace clock: another clock base */
	uint64_t skipped_cancels;	/* cancels of timers not armed in the trace */
	uint64_t wheel_timers;		/* timer_start of timer-wheel timers: wheel events */
	uint64_t inferred_wheel_timers;	/* ... and expiries of ones armed before the capture */
	uint64_t unknown_wheel_expiries;	/* ... not shown counted by NOHZ: left out */
	uint64_t unseen_wheel_timers;	/* due after the capture, shown by a stopped tick's programming */
	uint64_t deferrable_timers;	/* ... deferrable: left out, as NOHZ leaves them */
	uint64_t unplaced_wheel_timers;	/* ... whose jiffy the capture cannot place in time */
	uint64_t rcu_records;		/* a CPU's RCU callback queue went from empty to not, or back */
	uint64_t iowait_blocks;		/* a task slept uninterruptibly (prev_state D): iowait up */
	uint64_t iowait_ends;		/* ... and was woken, or ran, again: iowait down */
	uint64_t poll_records;		/* a CPU's polling loop changed pace */
	uint64_t entries_without_exit;	/* idle entry while already idle */
	uint64_t exits_without_entry;	/* idle exit while running */
};

struct imported {
	struct trace_header header;
	GArray *events;			/* struct trace_event, in time order */
	GPtrArray *notes;		/* char *: one approximation or missing piece each */
	uint64_t t0_ns;			/* the capture's time of the trace's time 0 */
	int64_t clock_offset_ns;	/* hrtimer clock minus trace clock */
	struct import_counts counts;
	/*
	 * By state: the median time from the first interrupt a CPU took in
	 * the state to its idle exit, and how many exits it is the median
	 * of; 0 with fewer than IMPORT_EXIT_COST_MIN_SAMPLES.
	 */
	uint64_t exit_cost_ns[KSHIM_STATE_MAX];
	unsigned int exit_cost_samples[KSHIM_STATE_MAX];
	/*
	 * The median time from the idle exit of a halting state that the
	 * tick's interrupt ended to the next entry, and of how many; 0 with
	 * fewer than IMPORT_EXIT_COST_MIN_SAMPLES.
	 */
	uint64_t tick_work_ns;
	unsigned int tick_work_samples;
	/*
	 * What stopping the tick cost the captured kernel: the median way
	 * from a switch to the idle task to the state's entry where the tick
	 * was stopped on it, less the median where it was not, to the µs
	 * (own_tick_stop()), and the fewer of the two counts; 0 with fewer
	 * than IMPORT_EXIT_COST_MIN_SAMPLES of either.
	 */
	uint64_t tick_stop_ns;
	unsigned int tick_stop_samples;
};

/* Fewer wakeups from a state than this give no exit cost for it. */
#define IMPORT_EXIT_COST_MIN_SAMPLES	20

/* A cost measured in ns, to the µs as a platform gives it; 0 for none or less. */
static inline uint64_t import_whole_us(int64_t ns)
{
	return ns <= 0 ? 0 : ((uint64_t)ns + 500) / 1000 * 1000;
}

/*
 * What the simulator will take where the capture does not tell: what a
 * tick stop costs (tick_stop_logged: measured from a call log, which
 * tells it better than the capture does), and each state's exit cost
 * (the platform's, for the states with too few wakeups for a median of
 * their own).
 */
struct import_given {
	uint64_t tick_stop_ns;
	bool tick_stop_logged;
	uint64_t exit_cost_ns[KSHIM_STATE_MAX];
};

/* The platform's figures, as import_convert_cut() takes them. */
void import_given_by(const struct platform *pl, struct import_given *out);

/*
 * name: the trace's name, or NULL.  The trace's header says what a tick
 * stop costs (tick_stop_ns): import_convert() leaves the work as captured
 * and says 0; import_convert_cut() ends each busy period that led to an
 * idle entry at which the kernel stopped the tick (a tick_stop event with
 * success=1 after its exit) that much earlier, for the simulator adds
 * that cost itself wherever it stops the tick: given->tick_stop_ns if it
 * was logged, else the capture's own where it has enough ways to the idle
 * entry to tell it (imported.tick_stop_ns), else given's.  It also
 * places the wakeups from a state with too few of them for a median exit
 * cost by given->exit_cost_ns, as it places the others by their median:
 * so that the simulated CPU, paying that cost, runs again where the
 * kernel's did.  import_convert() places them as captured.
 */
bool import_convert(const struct capture *c, const char *name, struct imported *out,
		    GError **error);
bool import_convert_cut(const struct capture *c, const char *name,
			const struct import_given *given, struct imported *out, GError **error);
void imported_clear(struct imported *im);

/*
 * pl is the captured machine: its states take the exit costs measured in
 * the capture, and it takes the tick's work, where the capture measured
 * them.
 */
void imported_costs_to(const struct imported *im, struct platform *pl);

/* The header, the notes as comments, the events. */
void imported_write(FILE *out, const struct imported *im, const char *capture_path);

#endif /* TEOSIM_IMPORT_CONVERT_H */

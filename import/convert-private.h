/* SPDX-License-Identifier: GPL-2.0 */
/* The converter's state and its parts' functions, shared by the import/convert*.c files. */
#ifndef TEOSIM_IMPORT_CONVERT_PRIVATE_H
#define TEOSIM_IMPORT_CONVERT_PRIVATE_H

#include "convert.h"

enum cpu_phase {
	PHASE_UNKNOWN,		/* before the CPU's first idle event */
	PHASE_IDLE,		/* since an idle entry */
	PHASE_BUSY,		/* since an idle exit */
};

enum wake_cause {
	CAUSE_NONE,		/* nothing seen (yet) */
	CAUSE_TIMER,		/* an hrtimer other than the tick expired */
	CAUSE_TICK,		/* tick_sched_timer expired */
	CAUSE_IRQ,		/* irq_handler_entry or an IPI */
	CAUSE_REMOTE,		/* only a sched_wakeup from another CPU while idle */
};

struct cpu_track {
	enum cpu_phase phase;
	bool seen;
	uint64_t first_seen;	/* trace time of the CPU's first event */
	uint64_t idle_since;	/* the last idle entry (or first_seen, capture starting idle) */
	uint64_t since;		/* BUSY: the exit */
	enum wake_cause cause;
	uint64_t cause_at;	/* when the cause came: an expiry, an interrupt, a remote wakeup */
	/* BUSY, for the record of the interrupt that ended a polling state: */
	uint64_t held_ns;	/* it held the CPU up this long */
	uint64_t stalled_ns;	/* the loop had stalled this long before it */
	uint64_t exit_ns;	/* BUSY: its exit cost, quicker than the state's (import_own_exit_cost()) */
	gint cause_event;	/* TIMER: the trace event of its arming, or -1 */
	bool remote_wakeup;	/* IDLE: another CPU woke a task here */
	int state;		/* IDLE, BUSY: the state entered; -1 unknown */
	gint tick_record;	/* IDLE: the last tick record whose interrupt came in it, or -1 */
	gint first_tick_record;	/* IDLE, BUSY: the first of them, or -1 */
	bool stopped_tick;	/* BUSY: the kernel stopped the tick on its way to the next entry */
	bool task_woken;	/* IDLE, BUSY: a task was woken or switched in on this CPU since the entry */
	bool resched_clear;	/* BUSY: the exit's flags showed need_resched clear */
	bool resched_set;	/* BUSY: ... or set (TIF_NEED_RESCHED) */
	gint wheel_event;	/* IDLE, BUSY: the record of the first wheel timer run since, or -1 */
	bool untraced_wheel;	/* IDLE, BUSY: a wheel timer the trace leaves out ran since, */
	uint64_t untraced_due;	/* ... the first, due at this boundary */
	gint idle_record;	/* BUSY: the idle record of the idle loop under way, or -1 */
	bool loop_interrupted;	/* BUSY: an interrupt came in that idle loop */
	uint64_t aborted_at;	/* the idle record of the last loop that entered no state */
};

/*
 * Jiffies on the trace's time line (convert-jiffies.c): jiffy J begins at
 * CLOCK_MONOTONIC (J - base) * tick_ns.  Known when at least
 * JIFFIES_MIN_SAMPLES timer-wheel events tell jiffies and most agree.
 */
struct jiffies_map {
	bool known;
	unsigned int hz;
	uint64_t tick_ns;
	uint64_t base;
	unsigned int samples, agreeing;
};
#define JIFFIES_MIN_SAMPLES	4

/* A CPU's tick hrtimer: armed, for a boundary (trace time). */
struct tick_arming {
	bool armed;
	uint64_t at_ns;
};

/* A timer as the trace reader will see it (sim/trace.c known_timer). */
struct model_timer {
	uint64_t id;		/* first: hashed as a gint64 */
	unsigned int cpu;
	uint64_t expires_ns;
	uint64_t fires_ns;	/* its interrupt came (expires_ns until the expiry is seen) */
	uint64_t touched_ns;	/* its last timer or cancel event */
	bool cancelled;
	bool wheel;		/* a timer-wheel timer */
	guint out_index;	/* its last timer event in im->events */
};

/* What the first pass over a capture found, for the second. */
struct first_pass {
	uint64_t exit_cost_ns[KSHIM_STATE_MAX];	/* each state's median exit cost, or given (0: none) */
	uint64_t poll_check_ns;			/* the median time to the polling limit (0: none) */
};

/* A CPU's polling pace is the median of its last this many times to the limit. */
#define POLL_PACE_RECENT	5

struct converter {
	const struct capture *capture;
	struct imported *im;
	struct cpu_track *cpus;
	struct tick_arming *ticks;	/* by CPU */
	GArray *poll_limits;		/* uint64_t: residencies of state 0 up to its limit */
	GArray *tick_works;		/* uint64_t: from an exit the tick caused to the next entry */
	GArray *ways[2];		/* uint64_t: switch to idle task to entry; [1] stopping the tick */
	GArray *exit_costs[KSHIM_STATE_MAX];	/* uint64_t: interrupt to exit, by state */
	/* The first pass's figures, for import_hold_up(); NULL in the first pass. */
	const struct first_pass *first;
	uint64_t held_up, held_up_ns;	/* wakeups import_hold_up() moved later, and by how much */
	uint64_t hurried, hurried_ns;	/* and those it moved earlier */
	uint64_t poll_held, poll_held_ns;	/* polling wakeups import_held_in_poll() held up */
	uint64_t poll_stalls, poll_stalled_ns;	/* polling loops import_stalled_in_poll() found stalled */
	GHashTable *timers;		/* model_timer by id */
	GHashTable *tick_timers;	/* the tick's hrtimer addresses (uint64_t *, in the capture) */
	bool *expiry_cancel;		/* by capture event: a cancel that is part of an expiry */
	unsigned int *expiry_cpu;	/* by capture event: hrtimer_start: the CPU it expires on */
	bool sees_wakeups;		/* the capture has sched_wakeup events */
	unsigned int offset_samples;	/* hrtimer_expire_entry events behind clock_offset_ns */
	struct jiffies_map jiffies;	/* where timer-wheel expiries fall */
	GHashTable *deferrable;		/* addresses of deferrable wheel timers (uint64_t *, in the capture) */
	GHashTable **stopped_tick_at;	/* by CPU: boundaries a stopped tick was programmed for (uint64_t *) */
	uint32_t *rcu_callbacks;	/* by CPU: RCU callbacks queued, as the capture tells */
	uint32_t *iowait_tasks;		/* by CPU: tasks that blocked there for I/O, not woken since */
	GHashTable *io_waiters;		/* pid -> the CPU it blocked on, plus 1 */
	struct poll_pace {
		uint64_t written;		/* the pace last written (0: the median) */
		uint64_t recent[POLL_PACE_RECENT];	/* the last times to the limit, a ring */
		unsigned int seen;		/* how many went into it */
	} *poll_pace;			/* by CPU */
	unsigned int cpus_started_idle, cpus_never_idle, cpus_without_events;
	uint64_t lost_gaps;
};

/*
 * The polling loop's clock-check interval, as the simulator takes it, is
 * the median time the polling state took to reach its limit; with fewer
 * polling limits than this, the platform's is kept.
 */
#define POLL_CHECK_MIN_SAMPLES	5

/*
 * The hrtimer clock minus the trace clock: the upper edge of "now -
 * timestamp" over hrtimer_expire_entry events (the tick's, when there
 * are, as its clock is always CLOCK_MONOTONIC), the 90th percentile of
 * those up to the first wide gap above their median; 0 when there are
 * none.  *samples: how many it took.
 */
int64_t import_clock_offset(const struct capture *c, unsigned int *samples);

/*
 * For each capture event: whether it is a cancel traced as part of an
 * expiry, and for an hrtimer_start the CPU its timer expires on (its own
 * when it never expires in the capture).
 */
void import_find_expiries(const struct capture *c, bool **expiry_cancel,
			  unsigned int **expiry_cpu);

/*
 * The addresses of the tick's hrtimers: those of every start or expiry of
 * tick_sched_timer, since hrtimer_cancel does not name the function.  The
 * keys point into the capture.
 */
GHashTable *import_tick_timers(const struct capture *c);

/* For g_array_sort() of uint64_t values, ascending. */
gint import_by_u64(gconstpointer a, gconstpointer b);

/* The addresses of the timer-wheel timers that some timer_start shows deferrable. */
GHashTable *import_deferrable_timers(const struct capture *c);


/* From the capture's wheel events; mono_ns is CLOCK_MONOTONIC at the trace's time 0. */
void import_jiffies_map(const struct capture *c, uint64_t mono_ns, struct jiffies_map *out);
/* The trace time at which jiffy begins (0 for one before time 0); false when out of range. */
bool import_jiffy_time(const struct jiffies_map *m, uint64_t mono_ns, uint64_t jiffy,
		       uint64_t *out);

/* Fills im->notes from the capture's gaps and the converter's counts. */
void import_write_notes(struct converter *cv);

/*
 * A wakeup's interrupt is traced right after the idle exit (the kernel
 * enables interrupts then); one this long after it is not what woke the CPU.
 */
#define CAUSE_WINDOW_NS		100000

/* A capture time as a trace time: from the capture's first event. */
static inline uint64_t import_rel(const struct converter *cv, uint64_t ts)
{
	return ts - cv->im->t0_ns;
}

/* Appends a record to the workload trace and returns it, numbered in the order written. */
static inline struct trace_event *import_emit(struct converter *cv, enum trace_kind kind,
					      uint64_t at, unsigned int cpu)
{
	struct trace_event ev = { .kind = kind, .at_ns = at, .cpu = cpu,
				  .line = cv->im->events->len };

	g_array_append_val(cv->im->events, ev);
	return &g_array_index(cv->im->events, struct trace_event, cv->im->events->len - 1);
}

/*
 * Where the records of what p's running work did are written from: the
 * wakeup that started it (its cause where that came while the CPU was
 * still idle and the caller counts it, else the exit), but not before the
 * last idle loop of that work that entered no state, whose select came
 * first.
 */
static inline uint64_t import_work_began(const struct cpu_track *p, bool cause_counts)
{
	return MAX(cause_counts && p->cause_at < p->since ? p->cause_at : p->since,
		   p->aborted_at);
}

/*
 * convert-timers.c: the hrtimers, timer-wheel timers and tick interrupts
 * of the capture as the trace reader's timer, wheel and tick records.
 */
void import_on_timer_start(struct converter *cv, const struct cap_event *e, guint index);
void import_on_timer_cancel(struct converter *cv, const struct cap_event *e, guint index);
void import_on_tick_expire(struct converter *cv, const struct cap_event *e);
/* An expiry's interrupt came at its trace time: the arming's fires_ns. */
void import_note_fires(struct converter *cv, const struct cap_event *e);
void import_on_wheel_start(struct converter *cv, const struct cap_event *e);
void import_on_wheel_cancel(struct converter *cv, const struct cap_event *e);
void import_on_wheel_expire(struct converter *cv, const struct cap_event *e);
/* A wheel timer of the trace ran in the idle period or its wakeup: its work may follow. */
void import_note_wheel_run(struct converter *cv, const struct cap_event *e);
/* The record of the arming of hrtimer id that expired at time at on cpu, or -1. */
gint import_armed_event(struct converter *cv, uint64_t id, unsigned int cpu, uint64_t at);
/* The tick's interrupt still due at the capture's end comes at the end. */
void import_tick_pending_at_end(struct converter *cv, unsigned int cpu, uint64_t end);

/*
 * convert-rcu-iowait.c: what else a select reads, RCU callbacks queued
 * and tasks waiting for I/O, as rcu and iowait records.
 */
void import_on_rcu(struct converter *cv, const struct cap_event *e);
/* Ends pid's wait for I/O, if it was waiting. */
void import_iowait_end(struct converter *cv, uint64_t at, uint32_t pid);
void import_on_iowait_switch(struct converter *cv, const struct cap_event *e);

/*
 * convert-wakeups.c: where a wakeup's interrupt goes, so that the
 * simulated CPU leaves its state where the kernel's did.
 */
/* No interrupt of its own woke p: a remote wakeup, or none shown from polling. */
bool import_woken_by_need_resched(const struct cpu_track *p);
/* The capture's median exit cost of p's state if it halts (0: polling, or none measured). */
uint64_t import_halting_exit_cost(const struct converter *cv, const struct cpu_track *p);
/* Where the irq record of p's wakeup goes. */
uint64_t import_irq_record_at(const struct converter *cv, const struct cpu_track *p);
/* At an exit: a sample of the state's exit cost, from the interrupt taken in it. */
void import_sample_exit_cost(struct converter *cv, const struct cpu_track *p);
/* At an exit: moves its interrupt to the state's median exit cost before it. */
void import_hold_up(struct converter *cv, struct cpu_track *p);
/* At an exit: the wakeup's own exit cost, where it was quicker than the median. */
void import_own_exit_cost(struct converter *cv, struct cpu_track *p);

/*
 * convert-polling.c: the polling state's loop, its pace and the host's
 * stops of it, as poll records and the wakeups' held_ns and stalled_ns.
 */
/* A polling state woken at wake_at after no limit came: its loop was stopped. */
void import_stalled_in_poll(struct converter *cv, struct cpu_track *p, uint64_t wake_at);
/* A polling state left long after its interrupt: the interrupt holds the CPU up. */
void import_held_in_poll(struct converter *cv, struct cpu_track *p, uint64_t cost);
/* A polling limit reached to_limit after the entry moves cpu's pace. */
void import_pace_polling(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			 uint64_t to_limit);
/* A polling limit reached late, or followed by a long way to next_entry. */
void import_stalled_at_limit(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			     uint64_t next_entry);
/* A polling state whose tick came late, more than two paces after the entry. */
void import_stalled_to_tick(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			    uint64_t next_entry);

#endif /* TEOSIM_IMPORT_CONVERT_PRIVATE_H */

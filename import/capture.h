/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel trace capture (traces/import-format.md), reduced to the events
 * teosim uses: idle entries and exits, hrtimers and timer-wheel timers,
 * the tick, interrupts, IPIs, task wakeups and switches to the idle task.
 * The readers (capture-text.c for ftrace and `trace-cmd report` text,
 * capture-dat.c for trace-cmd .dat files) turn every record into a struct
 * cap_event; the capture holds them sorted by time, with what the readers
 * had to skip.
 */
#ifndef TEOSIM_IMPORT_CAPTURE_H
#define TEOSIM_IMPORT_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* cpu_idle's state on exit: PWR_EVENT_EXIT, (u32)-1. */
#define CAP_IDLE_EXIT	UINT32_MAX

enum cap_kind {
	CAP_IDLE,		/* power:cpu_idle: state, or CAP_IDLE_EXIT */
	CAP_IDLE_MISS,		/* power:cpu_idle_miss: state, below */
	CAP_TIMER_START,	/* timer:hrtimer_start: timer, expires, tick_timer */
	CAP_TIMER_CANCEL,	/* timer:hrtimer_cancel: timer */
	CAP_TIMER_EXPIRE,	/* timer:hrtimer_expire_entry: timer, now, tick_timer */
	CAP_TICK_STOP,		/* timer:tick_stop: success */
	CAP_IRQ,		/* irq:irq_handler_entry */
	CAP_IPI,		/* ipi:ipi_entry, x86 irq_vectors:*function*_entry, reschedule_entry */
	CAP_WAKEUP,		/* sched:sched_wakeup: target_cpu, pid */
	CAP_SWITCH,		/* sched:sched_switch: flag, the next task is the idle task; pid, next_pid, blocked */
	CAP_WHEEL_START,	/* timer:timer_start: timer, bucket, jiffies, target_cpu, flag, pinned */
	CAP_WHEEL_CANCEL,	/* timer:timer_cancel: timer */
	CAP_WHEEL_EXPIRE,	/* timer:timer_expire_entry: timer, jiffies, clock_ns */
	CAP_RCU_QUEUE,		/* rcu:rcu_callback, rcu_kvfree_callback: callbacks, queued after */
	CAP_RCU_BATCH,		/* rcu:rcu_batch_start: callbacks, queued before the batch */
	CAP_RCU_DONE,		/* rcu:rcu_batch_end: callbacks, invoked by the batch */
	CAP_LOST,		/* events of this CPU were lost just before this point */
};

struct cap_event {
	uint64_t ts_ns;		/* the trace clock */
	uint64_t seq;		/* position in the capture: keeps file order among equal times */
	unsigned long where;	/* text: line number; .dat: record offset */
	unsigned int cpu;
	enum cap_kind kind;
	uint32_t state;		/* IDLE, IDLE_MISS */
	/* IDLE_MISS: below (not above); TICK_STOP: success; WHEEL_START: deferrable; SWITCH: to idle */
	bool flag;
	bool tick_timer;	/* TIMER_START, TIMER_EXPIRE: function=tick_sched_timer */
	bool pinned;		/* WHEEL_START: TIMER_PINNED */
	bool resched_clear;	/* IDLE: the record's flags show need_resched clear (unknown: false) */
	bool resched_set;	/* IDLE: ... or TIF_NEED_RESCHED set (unknown: false) */
	/* SWITCH: the previous task went to sleep uninterruptibly (prev_state D), as for I/O */
	bool blocked;
	/* WAKEUP: the woken task; SWITCH: the previous task (0: not given) */
	uint32_t pid;
	uint32_t next_pid;	/* SWITCH: the next task (0: the idle task, or not given) */
	/* WAKEUP: the woken task's CPU; WHEEL_START: the CPU whose timer base queued it */
	unsigned int target_cpu;
	uint32_t callbacks;	/* RCU_*: a count of RCU callbacks (above), at most UINT32_MAX */
	/* TIMER_*, WHEEL_*: the timer's address (hashed in text captures) */
	uint64_t timer;
	/*
	 * TIMER_START: expires; TIMER_EXPIRE: now (the hrtimer's clock).
	 * WHEEL_START: the jiffy of the wheel bucket it went into (cap_wheel_bucket());
	 * WHEEL_EXPIRE: baseclk, the jiffy the base expired it at.
	 */
	uint64_t clock_ns;
	uint64_t jiffies;	/* WHEEL_START, WHEEL_EXPIRE: jiffies as traced */
};

enum cap_format { CAP_FORMAT_FTRACE, CAP_FORMAT_REPORT, CAP_FORMAT_DAT };

struct capture {
	char *path;
	enum cap_format format;
	unsigned int nr_cpus;		/* from the capture's header, else the highest CPU + 1 */
	GArray *events;			/* struct cap_event, sorted by ts_ns then seq */
	uint64_t first_ns, last_ns;	/* the span of every timestamp read, used events or not */
	uint64_t counts[CAP_LOST + 1];	/* events read, by kind */
	GHashTable *ignored;		/* event name -> count (GUINT_TO_POINTER) */
	uint64_t out_of_order;		/* events earlier than the one before them */
	uint64_t malformed;		/* lines or records skipped as unreadable */
	GPtrArray *warnings;		/* char *: "path:line: reason", at most CAP_WARNINGS_MAX */
	guint events_max;		/* the readers stop at this many events ... */
	unsigned long full_at;		/* ... where they reached it (0: not reached) */
};

/* CPU numbers a capture may name: far above any machine, and CPU + 1 cannot overflow. */
#define CAP_CPUS_MAX	65536

/* Task ids a capture may name: at most a kernel's PID_MAX_LIMIT. */
#define CAP_PID_MAX	(1u << 22)

/*
 * Events held in memory (88 bytes each, and the workload made of them as
 * much again): a capture of more is refused, not left to exhaust memory.
 */
#define CAP_EVENTS_MAX		(1u << 24)
/* Distinct names of ignored events counted by name; the rest as one. */
#define CAP_IGNORED_NAMES_MAX	256

/* The first warnings are kept with their location; the rest only counted. */
#define CAP_WARNINGS_MAX	20

/*
 * Reads path, whatever its format: a trace-cmd .dat file (by its magic
 * bytes) or text.  Unreadable lines are skipped with a warning; an error
 * means nothing usable: not a capture, a binary file, no idle events.
 * Whatever the result, c holds the warnings and must be cleared with
 * capture_clear().
 */
bool capture_load(const char *path, struct capture *c, GError **error);
/* The same, refusing a capture of more than events_max events (tests use small limits). */
bool capture_load_max(const char *path, guint events_max, struct capture *c, GError **error);
void capture_clear(struct capture *c);

/*
 * The kind of the event called name (without its system: "cpu_idle"), or
 * false for an event teosim does not use.
 */
bool cap_kind_of(const char *name, enum cap_kind *out);

/* The format's name for messages. */
const char *cap_format_name(enum cap_format f);

/*
 * The jiffy a timer-wheel timer is due at: the start of the bucket it was
 * queued in, which 6.x kernels before 6.3 do not print.  calc_index()
 * rounds expires up to the next multiple of its level's granularity
 * (8^level jiffies, the level being wheel_idx / 64); a timer already due
 * goes into the bucket of the base's clock, about now.
 */
uint64_t cap_wheel_bucket(uint64_t expires, uint64_t now, unsigned int wheel_idx);

/*
 * For the readers: adding events and warnings, finishing.  capture_add()
 * returns false once the capture holds events_max events: the reader stops.
 */
bool capture_add(struct capture *c, struct cap_event *ev);
/* Every record's time, also of events not used: the capture's span. */
void capture_saw_time(struct capture *c, uint64_t ts_ns);
void capture_ignore(struct capture *c, const char *event_name);
void capture_warn(struct capture *c, unsigned long where, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
/* Sorts, counts the CPUs; fails when no cpu_idle event was read. */
bool capture_finish(struct capture *c, GError **error);

/* A count of RCU callbacks as an event has it: more than UINT32_MAX is UINT32_MAX. */
static inline uint32_t cap_callbacks(uint64_t n)
{
	return (uint32_t)MIN(n, UINT32_MAX);
}

/* Readers of each format (capture-text.c, capture-dat.c). */
bool capture_read_text(const char *path, struct capture *c, GError **error);
bool capture_read_dat(const char *path, struct capture *c, GError **error);

#endif /* TEOSIM_IMPORT_CAPTURE_H */

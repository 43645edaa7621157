// SPDX-License-Identifier: GPL-2.0
/*
 * The notes of an import: what the capture lacks and what was approximated
 * because of it, one line each, so that nothing is guessed silently.
 */
#include <stdarg.h>

#include "convert-private.h"

static void note(struct converter *cv, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void note(struct converter *cv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(cv->im->notes, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

/* The exit costs the capture measured, one "state N: X ns (of M wakeups)" each. */
static void exit_cost_note(struct converter *cv)
{
	const struct imported *im = cv->im;
	GString *s = g_string_new(NULL);

	for (unsigned int i = 0; i < KSHIM_STATE_MAX; i++)
		if (im->exit_cost_samples[i])
			g_string_append_printf(s, "%sstate %u: %" G_GUINT64_FORMAT " ns (of %u wakeups)",
					       s->len ? ", " : "", i, im->exit_cost_ns[i],
					       im->exit_cost_samples[i]);
	if (s->len)
		note(cv, "exit costs, the median time from a state's first interrupt to the idle "
		     "exit: %s; teosim fidelity and import --report simulate with them in place of "
		     "the platform's", s->str);
	g_string_truncate(s, 0);
	for (unsigned int i = 1; cv->first && i < KSHIM_STATE_MAX; i++)
		if (!im->exit_cost_samples[i] && cv->exit_costs[i]->len && cv->first->exit_cost_ns[i])
			g_string_append_printf(s, "%sstate %u: %" G_GUINT64_FORMAT " ns (%u wakeups)",
					       s->len ? ", " : "", i, cv->first->exit_cost_ns[i],
					       cv->exit_costs[i]->len);
	if (s->len)
		note(cv, "exit costs of states with fewer than %d wakeups, the platform's: %s; "
		     "their wakeups are placed by them as the others by their median",
		     IMPORT_EXIT_COST_MIN_SAMPLES, s->str);
	g_string_free(s, TRUE);
	if (im->tick_work_samples)
		note(cv, "the tick's work, the median time from an idle exit the tick caused to the "
		     "next entry: %" G_GUINT64_FORMAT " ns (of %u); teosim fidelity and import "
		     "--report simulate with it in place of the platform's", im->tick_work_ns,
		     im->tick_work_samples);
	if (cv->held_up)
		note(cv, "wakeups held up after their interrupt (left idle later than the state's "
		     "median exit cost): %" G_GUINT64_FORMAT ", their interrupts taken %"
		     G_GUINT64_FORMAT " ns later in all, where the CPU ran again", cv->held_up,
		     cv->held_up_ns);
	if (cv->im->counts.handler_armings_moved)
		note(cv, "of those, timers their own handler re-armed before the exit: %"
		     G_GUINT64_FORMAT " (the re-arming written at the moved interrupt, which the "
		     "first arming's expiry still comes at; an expiry already past is due at once)",
		     cv->im->counts.handler_armings_moved);
	if (cv->im->counts.quick_exits)
		note(cv, "wakeups quicker than the state's median exit cost whose interrupt cannot "
		     "move earlier (pending at the entry, or a timer's expiry): %"
		     G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " ns quicker in all: each brings "
		     "its own exit cost (exit_ns)", cv->im->counts.quick_exits,
		     cv->im->counts.quick_exit_ns);
	if (cv->poll_held)
		note(cv, "wakeups from polling held up after their interrupt: %" G_GUINT64_FORMAT
		     ", held %" G_GUINT64_FORMAT " ns in all (held_ns) before leaving the state",
		     cv->poll_held, cv->poll_held_ns);
	if (cv->poll_stalls)
		note(cv, "polling loops stalled: %" G_GUINT64_FORMAT " polling states ended by an "
		     "interrupt, or a wakeup that only set need_resched, later than the median "
		     "time to the limit (with too few limits for one, TICK_NSEC / 8), %"
		     G_GUINT64_FORMAT " ns "
		     "from entry to interrupt in all (stalled_ns, and two poll records, from the "
		     "entry and the simulator's own pace after where the capture has no pace): the "
		     "host held the vCPU up, and a simulated CPU polling then reaches no limit "
		     "before the interrupt either",
		     cv->poll_stalls, cv->poll_stalled_ns);
	if (cv->im->counts.idle_loop_wakeups)
		note(cv, "wakeups by a handler alone, no task woken: %" G_GUINT64_FORMAT
		     " (idle_loop): the CPU stayed in the idle loop; %" G_GUINT64_FORMAT
		     " of them left need_resched set in the capture's flags (resched: it left "
		     "do_idle() and came straight back, restarting its tick)",
		     cv->im->counts.idle_loop_wakeups, cv->im->counts.resched_wakeups);
	if (cv->hurried)
		note(cv, "wakeups quicker than the state's median exit cost: %" G_GUINT64_FORMAT
		     ", their interrupts taken %" G_GUINT64_FORMAT " ns earlier in all, so that "
		     "the CPU runs again where it did", cv->hurried, cv->hurried_ns);
}

/* Event kinds the capture has none of, and what follows from that. */
static void missing_events(struct converter *cv)
{
	const uint64_t *n = cv->capture->counts;

	if (!n[CAP_TIMER_START])
		note(cv, "no hrtimer_start events: next-timer knowledge is inferred from expiries "
		     "(each timer taken as armed from the idle entry before its expiry)");
	if (!n[CAP_TIMER_CANCEL] && n[CAP_TIMER_START])
		note(cv, "no hrtimer_cancel events: no timer is ever cancelled, so the governors "
		     "may see timers that the real kernel had cancelled");
	if (!n[CAP_TIMER_EXPIRE])
		note(cv, "no hrtimer_expire_entry events: timer wakeups cannot be told from others "
		     "(all are imported as irq) and the hrtimer clock is taken to be the trace "
		     "clock (exact only when recorded with -C mono)");
	else
		note(cv, "hrtimer expiry times converted with clock offset %" G_GINT64_FORMAT
		     " ns (90th percentile of now - timestamp over %u hrtimer_expire_entry "
		     "events, each traced some time after its now, up to the first 20 us gap "
		     "above their median)",
		     cv->im->clock_offset_ns, cv->offset_samples);
	if (!n[CAP_IRQ] && !n[CAP_IPI])
		note(cv, "no irq_handler_entry or IPI events: interrupt wakeups show only as "
		     "wakeups without a timer expiry");
	if (!n[CAP_WAKEUP])
		note(cv, "no sched_wakeup events: a CPU woken without an interrupt (polling) "
		     "counts as woken for an unknown reason");
	if (!n[CAP_SWITCH])
		note(cv, "no sched_switch events: the simulator takes the kernel's idle entry "
		     "time, which sleep lengths count from, at its select, where the kernel takes "
		     "it as the idle task starts");
	if (!n[CAP_WHEEL_START])
		note(cv, "no timer_start events: the timer wheel's timers are unknown, so a sleep "
		     "length counts hrtimers alone, where the kernel's may end at a wheel timer");
	else if (!cv->jiffies.known)
		note(cv, "timer_start events whose jiffies cannot be placed in time (%u timer-wheel "
		     "events tell jiffies, at most %u of them agree at any HZ%s): wheel timers left out",
		     cv->jiffies.samples, cv->jiffies.agreeing,
		     cv->offset_samples ? "" : "; no hrtimer expiry gives CLOCK_MONOTONIC");
	else
		note(cv, "timer-wheel timers: %" G_GUINT64_FORMAT " armings and %" G_GUINT64_FORMAT
		     " expiries of timers armed before the capture placed on the tick's boundaries "
		     "(HZ %u: %u of %u timer-wheel events agree that jiffies would be %"
		     G_GUINT64_FORMAT " at CLOCK_MONOTONIC 0), %" G_GUINT64_FORMAT " deferrable "
		     "left out, %" G_GUINT64_FORMAT " beyond the capture's time, %" G_GUINT64_FORMAT
		     " expiries of timers armed before it left out (no stopped tick was programmed "
		     "for them: deferrable, or due while the tick ran), and %" G_GUINT64_FORMAT
		     " due after the capture that a stopped tick was programmed for, armed at 0 (ids "
		     "from %" G_GUINT64_FORMAT ")",
		     cv->im->counts.wheel_timers, cv->im->counts.inferred_wheel_timers, cv->jiffies.hz,
		     cv->jiffies.agreeing, cv->jiffies.samples, cv->jiffies.base,
		     cv->im->counts.deferrable_timers, cv->im->counts.unplaced_wheel_timers,
		     cv->im->counts.unknown_wheel_expiries, cv->im->counts.unseen_wheel_timers,
		     IMPORT_UNSEEN_WHEEL_ID_BASE);
	if (!n[CAP_RCU_QUEUE] && !n[CAP_RCU_BATCH])
		note(cv, "no rcu_callback or rcu_batch_start events (a kernel without "
		     "CONFIG_RCU_TRACE?): RCU callbacks, which keep the tick running, are unknown");
	else
		note(cv, "RCU callbacks: a CPU's queue became non-empty or empty again %"
		     G_GUINT64_FORMAT " times (rcu records: it keeps the tick meanwhile)",
		     cv->im->counts.rcu_records);
	if (n[CAP_SWITCH])
		note(cv, "tasks waiting for I/O (menu of 6.1 reads their count): %" G_GUINT64_FORMAT
		     " switches away from a task in state D, each counted on its CPU (iowait "
		     "records) until the task's wakeup or its next switch in, %" G_GUINT64_FORMAT
		     " of those seen",
		     cv->im->counts.iowait_blocks, cv->im->counts.iowait_ends);
	if (!n[CAP_TICK_STOP])
		note(cv, "no tick_stop events: the report cannot show how often the real kernel "
		     "stopped the tick");
}

/* How the wakeups were classified and what was dropped. */
static void classification(struct converter *cv)
{
	const struct import_counts *k = &cv->im->counts;

	if (k->inferred_timers)
		note(cv, "timer wakeups by timers whose arming is not in the capture: %"
		     G_GUINT64_FORMAT " (timer ids from %" G_GUINT64_FORMAT " up, armed at the idle "
		     "entry before the expiry)", k->inferred_timers, IMPORT_INFERRED_ID_BASE);
	if (k->tick_wakeups > k->wheel_work_wakeups + k->untraced_wheel_wakeups)
		note(cv, "wakeups by the tick: %" G_GUINT64_FORMAT " dropped with the %"
		     G_GUINT64_FORMAT " ns of busy time after them (the simulator runs its own tick)",
		     k->tick_wakeups - k->wheel_work_wakeups - k->untraced_wheel_wakeups,
		     k->tick_busy_ns);
	if (k->wheel_work_wakeups)
		note(cv, "wakeups by the tick that ran a timer-wheel timer and woke a task: %"
		     G_GUINT64_FORMAT ", their %" G_GUINT64_FORMAT " ns of work given to that timer "
		     "(work_ns: the simulated CPU runs it where its tick expires the timer)",
		     k->wheel_work_wakeups, k->wheel_work_ns);
	if (k->untraced_wheel_wakeups)
		note(cv, "wakeups by the tick that ran a timer-wheel timer the trace leaves out "
		     "(deferrable, or armed before the capture and not shown counted by NOHZ) and "
		     "woke a task: %" G_GUINT64_FORMAT ", each written as a wheel timer armed at the "
		     "idle entry before it and due at its boundary, with the %" G_GUINT64_FORMAT
		     " ns of work after them (timer ids from %" G_GUINT64_FORMAT " up)",
		     k->untraced_wheel_wakeups, k->untraced_wheel_ns, IMPORT_UNTRACED_WHEEL_ID_BASE);
	if (k->reselects)
		note(cv, "polling-state exits that woke nothing (no interrupt, expiry or wakeup, and "
		     "idle again within 20 us, or later with need_resched clear in the capture's "
		     "flags: a polling state's time limit): %" G_GUINT64_FORMAT " (%"
		     G_GUINT64_FORMAT " of them later), the CPU kept idle through them and the %"
		     G_GUINT64_FORMAT " ns between exit and entry dropped",
		     k->reselects, k->late_reselects, k->reselect_ns);
	if (cv->im->header.poll_check_ns)
		note(cv, "polling limits: %u, the median time to the limit %" G_GUINT64_FORMAT " ns: "
		     "the trace's poll_check_ns, for the polling loop's pace on this machine",
		     cv->poll_limits->len, cv->im->header.poll_check_ns);
	if (k->poll_records)
		note(cv, "polling pace: %" G_GUINT64_FORMAT " poll records, where a CPU's time to the "
		     "limit moved by more than an eighth from the pace last written for it (at first "
		     "the median): the simulated loop keeps that pace from the polling state's entry",
		     k->poll_records);
	if (k->limit_stalls)
		note(cv, "polling limits held up: %" G_GUINT64_FORMAT " reached more than a pace late, "
		     "or followed by more than a pace in the idle loop (with too few limits for a "
		     "pace, TICK_NSEC / 8 after the entry or in the idle loop), %" G_GUINT64_FORMAT
		     " ns in all "
		     "to the next entries: the host stopped the vCPU, and two poll records each keep a "
		     "simulated loop from any limit meanwhile", k->limit_stalls, k->limit_stalled_ns);
	if (k->tick_stalls)
		note(cv, "polling states held up to the tick: %" G_GUINT64_FORMAT " took the tick's "
		     "interrupt more than two paces after the entry (with too few limits for a pace, "
		     "left the state more than TICK_NSEC / 8 after it), with no limit before it, "
		     "%" G_GUINT64_FORMAT " ns in all from a pace after the entry to the next entries: "
		     "two poll records each keep a simulated loop from any limit meanwhile",
		     k->tick_stalls, k->tick_stalled_ns);
	if (k->idle_switches)
		note(cv, "switches to the idle task: %" G_GUINT64_FORMAT " (idle records: the "
		     "kernel's idle entry time, which its sleep lengths count from, follows each "
		     "by the platform's idle_entry_pct of the way to the state's entry, at most "
		     "its idle_entry_us)", k->idle_switches);
	if (k->aborted_selects)
		note(cv, "idle loops left for a task before any state was entered, with a tick stop "
		     "or no interrupt in them: %" G_GUINT64_FORMAT " (aborted=1: the governor chose, "
		     "then call_cpuidle() found a task woken without an interrupt; no entry, no "
		     "reflect, and the next select reads a last residency of 0)", k->aborted_selects);
	if (k->ticks_withdrawn)
		note(cv, "ticks whose interrupt never came: %" G_GUINT64_FORMAT " (the tick's hrtimer "
		     "re-armed or cancelled after its boundary, with no expiry): a tick record has "
		     "each come at that time, till when the kernel counted the tick as pending",
		     k->ticks_withdrawn);
	if (k->ticks_pending_at_end)
		note(cv, "ticks still due at the capture's end: %" G_GUINT64_FORMAT " (the tick's "
		     "hrtimer armed for a boundary already passed, with no expiry): a tick record "
		     "has each come at the end, the kernel counting the tick as pending till then",
		     k->ticks_pending_at_end);
	if (k->tick_stop_cuts)
		note(cv, "idle entries after a tick stop (tick_stop success=1): %" G_GUINT64_FORMAT
		     ", the work before each ended %" G_GUINT64_FORMAT " ns early, the trace's "
		     "tick_stop_ns, which the simulator adds where it stops the tick",
		     k->tick_stop_cuts, cv->im->header.tick_stop_ns);
	if (cv->im->tick_stop_samples)
		note(cv, "what stopping the tick cost, measured from the capture: the median way from "
		     "a switch to the idle task to the state's entry is %" G_GUINT64_FORMAT " ns "
		     "longer where the tick was stopped on it (of at least %u each way); without a "
		     "call log that tells it, the trace's tick_stop_ns",
		     cv->im->tick_stop_ns, cv->im->tick_stop_samples);
	exit_cost_note(cv);
	if (k->remote_wakeups)
		note(cv, "wakeups shown only by a sched_wakeup from another CPU: %" G_GUINT64_FORMAT
		     " (imported as irq)", k->remote_wakeups);
	if (k->unknown_wakeups)
		note(cv, "wakeups with no cause in the capture: %" G_GUINT64_FORMAT " (imported as "
		     "irq)%s", k->unknown_wakeups, cv->sees_wakeups ? "" :
		     "; without sched_wakeup events, also the exits that woke nothing");
	if (k->unseen_interrupts)
		note(cv, "of those, from a halting state: %" G_GUINT64_FORMAT " (the interrupt the "
		     "capture does not show came the state's exit cost before the exit, or at the "
		     "entry, so that the CPU runs again where it did)", k->unseen_interrupts);
	if (k->need_resched_wakeups)
		note(cv, "of those, woken with no interrupt of their own: %" G_GUINT64_FORMAT
		     " (remote=1: a polling CPU leaves its state with no exit cost, as the "
		     "waker only set need_resched; a halting one takes the IPI)",
		     k->need_resched_wakeups);
	if (k->other_clock_timers)
		note(cv, "hrtimer_start events with an expiry far from the trace clock (REALTIME or "
		     "TAI timers): %" G_GUINT64_FORMAT " left out", k->other_clock_timers);
	if (k->skipped_cancels)
		note(cv, "hrtimer_cancel events of timers not armed in the trace (armed before the "
		     "capture, or already expired): %" G_GUINT64_FORMAT " left out",
		     k->skipped_cancels);
	if (k->entries_without_exit || k->exits_without_entry)
		note(cv, "idle entries while idle: %" G_GUINT64_FORMAT ", exits while running: %"
		     G_GUINT64_FORMAT " (events lost?): the CPU was taken to stay as it was",
		     k->entries_without_exit, k->exits_without_entry);
}

/* What the capture's edges and gaps do to the CPUs. */
static void coverage(struct converter *cv)
{
	const struct capture *c = cv->capture;

	note(cv, "times are ns from the capture's first event, at %" G_GUINT64_FORMAT ".%09"
	     G_GUINT64_FORMAT " s of the trace clock", cv->im->t0_ns / 1000000000,
	     cv->im->t0_ns % 1000000000);
	if (cv->cpus_started_idle)
		note(cv, "CPUs idle when the capture started: %u (idle from their first event)",
		     cv->cpus_started_idle);
	if (cv->cpus_never_idle)
		note(cv, "CPUs that never went idle: %u (busy from their first event to the end)",
		     cv->cpus_never_idle);
	if (cv->cpus_without_events)
		note(cv, "CPUs without any event: %u (simulated idle throughout)",
		     cv->cpus_without_events);
	if (cv->lost_gaps)
		note(cv, "lost-events markers: %" G_GUINT64_FORMAT " (around each gap the CPU was "
		     "taken to stay as it was last seen; timers armed or cancelled in a gap are "
		     "missing)", cv->lost_gaps);
	if (c->out_of_order)
		note(cv, "events out of time order in the capture: %" G_GUINT64_FORMAT " (sorted)",
		     c->out_of_order);
	if (c->malformed)
		note(cv, "unreadable lines or records skipped: %" G_GUINT64_FORMAT, c->malformed);
}

static void ignored_events(struct converter *cv)
{
	g_autoptr(GList) names = g_hash_table_get_keys(cv->capture->ignored);
	g_autoptr(GString) s = g_string_new(NULL);

	if (!names)
		return;
	names = g_list_sort(names, (GCompareFunc)g_strcmp0);
	for (GList *l = names; l; l = l->next)
		g_string_append_printf(s, "%s%s (%u)", s->len ? ", " : "", (char *)l->data,
				       GPOINTER_TO_UINT(g_hash_table_lookup(cv->capture->ignored,
									   l->data)));
	note(cv, "events not used: %s", s->str);
}

void import_write_notes(struct converter *cv)
{
	coverage(cv);
	missing_events(cv);
	classification(cv);
	ignored_events(cv);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Where a wakeup's interrupt goes.  Under TCG the time from an interrupt
 * to the idle exit varies from wakeup to wakeup, where the simulator pays
 * each state's median: the interrupts are placed so that the simulated CPU
 * leaves its state where the kernel's did, and measures the residency the
 * kernel's governor measured.
 */
#include "convert-private.h"

/*
 * Whether no interrupt of its own woke p: a task woken from another CPU
 * with no IPI seen (the waker only set need_resched, as it does for a
 * polling CPU), or, from the polling state, nothing at all in the capture
 * (the wakeup is traced on the woken CPU, after its exit, when it runs the
 * waker's queued wakeup).  The simulated CPU then pays no interrupt's exit
 * cost if it polls, and the state's (the IPI's) if it halts.
 */
bool import_woken_by_need_resched(const struct cpu_track *p)
{
	return p->cause == CAUSE_REMOTE || (p->cause == CAUSE_NONE && p->state == 0);
}

/*
 * Where an interrupt goes so that a simulated CPU that pays cost to leave
 * its state runs again where p did: cost before the exit, not before the
 * entry.
 */
static uint64_t cost_before_exit(const struct cpu_track *p, uint64_t cost)
{
	return MAX(p->since - MIN(cost, p->since), p->idle_since);
}

/* The capture's median exit cost of p's state if it halts (0: polling, or none measured). */
uint64_t import_halting_exit_cost(const struct converter *cv, const struct cpu_track *p)
{
	if (!cv->first || p->state <= 0 || p->state >= KSHIM_STATE_MAX)
		return 0;
	return cv->first->exit_cost_ns[p->state];
}

/*
 * Where the irq record of p's wakeup goes (an interrupt, a remote wakeup,
 * an exit with no cause): at the interrupt (or the remote wakeup) where it
 * came while the CPU was still idle, the simulator adding the time the
 * wakeup takes (the exit cost) itself.  With no cause in the capture, a
 * halting state's exit cost before the exit, as import_hold_up() places the
 * interrupts the capture shows; a polling one left at once (remote=1).
 */
uint64_t import_irq_record_at(const struct converter *cv, const struct cpu_track *p)
{
	if (p->cause != CAUSE_NONE && p->cause_at < p->since)
		return MAX(p->cause_at, p->idle_since);
	if (p->cause == CAUSE_NONE)
		return cost_before_exit(p, import_halting_exit_cost(cv, p));
	return p->since;
}

/*
 * Whether p's wakeup came by an interrupt taken in its idle state.  Not by
 * the tick in the polling state, which takes it and polls on: an exit
 * after it alone is the polling limit.
 */
static bool woken_in_state(const struct cpu_track *p)
{
	return p->state >= 0 && p->state < KSHIM_STATE_MAX &&
	       (p->cause == CAUSE_TIMER || p->cause == CAUSE_IRQ ||
		(p->cause == CAUSE_TICK && p->state > 0)) &&
	       p->cause_at >= p->idle_since && p->cause_at <= p->since;
}

/*
 * What a wakeup costs the CPU before it runs: from the first interrupt it
 * took in the state (the interrupt's own handler included) to its idle
 * exit.  Under TCG it depends on the host's load, so each capture measures
 * its own; a remote wakeup is no interrupt.
 */
void import_sample_exit_cost(struct converter *cv, const struct cpu_track *p)
{
	uint64_t cost;

	if (!woken_in_state(p))
		return;
	cost = p->since - p->cause_at;
	g_array_append_val(cv->exit_costs[p->state], cost);
}

/*
 * The timer's handler ran at its interrupt, and what it did to the same
 * timer there (a re-arming, as dl_task_timer's) moves with the interrupt
 * to at: written where it was traced, before the interrupt the reader
 * takes at at, it would replace the arming whose expiry woke the CPU,
 * and the simulated CPU would never wake for it.  A re-arming for an
 * expiry already past at is due at once, as the reader wants it.
 */
static void move_handler_armings(struct converter *cv, guint cause_event, uint64_t at)
{
	const struct trace_event *cause = &g_array_index(cv->im->events, struct trace_event,
							 cause_event);
	struct model_timer *t = g_hash_table_lookup(cv->timers, &cause->timer_id);

	for (guint i = cause_event + 1; i < cv->im->events->len; i++) {
		struct trace_event *ev = &g_array_index(cv->im->events, struct trace_event, i);

		/* Not a wheel timer at the same address: its expiry stays on its boundary. */
		if (ev->timer_id != cause->timer_id || ev->at_ns >= at ||
		    (ev->kind != TRACE_TIMER && ev->kind != TRACE_CANCEL))
			continue;
		ev->at_ns = at;
		if (ev->kind == TRACE_CANCEL)
			continue;
		ev->expires_ns = MAX(ev->expires_ns, at);
		if (ev->fires_ns)
			ev->fires_ns = MAX(ev->fires_ns, ev->expires_ns);
		if (t && t->out_index == i) {
			t->expires_ns = ev->expires_ns;
			t->fires_ns = MAX(t->fires_ns, ev->expires_ns);
		}
		cv->im->counts.handler_armings_moved++;
	}
	if (t && t->out_index != cause_event)
		t->touched_ns = MAX(t->touched_ns, at);
}

/*
 * Moves the interrupt of the timer that woke p towards *at: never before
 * the expiry it was armed for.  An expiry traced before that time
 * (EXPIRY_EARLY_NS), and an expiry the capture did not see armed (whose
 * inferred timer expires at the interrupt), move only later.  False when
 * it stays; else *at is where it went.
 */
static bool move_timer_interrupt(struct converter *cv, const struct cpu_track *p, uint64_t *at)
{
	struct trace_event *ev;
	struct model_timer *t;

	if (p->cause_event < 0)
		return *at > p->cause_at;
	ev = &g_array_index(cv->im->events, struct trace_event, p->cause_event);
	if (*at <= ev->expires_ns && p->cause_at <= ev->expires_ns)
		return false;
	*at = MAX(*at, ev->expires_ns);
	ev->fires_ns = *at;
	t = g_hash_table_lookup(cv->timers, &ev->timer_id);
	if (t && t->out_index == (guint)p->cause_event)
		t->fires_ns = *at;
	move_handler_armings(cv, (guint)p->cause_event, *at);
	return true;
}

/*
 * The wakeup's interrupt moves from p->cause_at to at, and so do the tick
 * interrupts of the same idle period that the vCPU took with it: the one
 * that came with it (the cause itself, or tick_taken_with()), and, where
 * the wakeup is held up, every later one before at.  A host that stops
 * the vCPU for longer than a tick has the tick's next interrupts come in
 * the stop; left where they were traced, they would wake the simulated
 * CPU before its cause, to a timer already overdue that it would poll on
 * until the cause came, as the stopped vCPU did not.  Never before a
 * tick's boundary.
 */
static void move_tick_interrupts(struct converter *cv, const struct cpu_track *p,
				 unsigned int cpu, uint64_t at)
{
	if (p->first_tick_record < 0)
		return;
	for (guint i = (guint)p->first_tick_record; i < cv->im->events->len; i++) {
		struct trace_event *tick = &g_array_index(cv->im->events, struct trace_event, i);

		if (tick->kind != TRACE_TICK || tick->cpu != cpu || tick->fires_ns < p->cause_at)
			continue;
		if (tick->fires_ns == p->cause_at || tick->fires_ns < at)
			tick->fires_ns = MAX(at, tick->at_ns);
	}
}

/*
 * Under TCG the time from a wakeup's interrupt to the idle exit varies
 * from wakeup to wakeup (from some µs to hundreds, and milliseconds when
 * the host stops the vCPU right after the interrupt), where the simulator
 * gives each state one exit cost, the capture's median.  The kernel
 * counted that time in the idle period, and the CPU ran again at the
 * exit.  So a wakeup from a halting state has its interrupt written the
 * state's median exit cost before its exit, later or earlier than it was
 * traced: the simulated CPU then leaves the state where the kernel's did,
 * measures the residency the kernel's governor measured, and goes idle
 * again where the kernel's did, after its task has armed its next timer
 * (a wakeup held up that the model took early ran its work early and
 * waited for its timer while the kernel's CPU was stopped; one that was
 * quick left the state late, and went idle again late, where its timer
 * was closer).  What the woken CPU arms is written from then on
 * (busy_anchor() reads cause_at).  Not from the polling state: a
 * simulated CPU that polls on through a hold-up counts polling limits
 * that the stopped vCPU, which read no clock, did not.
 */
void import_hold_up(struct converter *cv, struct cpu_track *p)
{
	uint64_t cost, at;

	if (!cv->first || !woken_in_state(p))
		return;
	if (p->state == 0)
		import_stalled_in_poll(cv, p, p->cause_at);
	cost = cv->first->exit_cost_ns[p->state];
	/*
	 * Too few interrupts ended polling for a median: the loop tests
	 * need_resched at every turn, so a vCPU back in it leaves within one
	 * of its paces between clock reads, and what took longer was held.
	 */
	if (!cost && p->state == 0)
		cost = cv->first->poll_check_ns;
	if (!cost || p->since < cost)
		return;
	if (p->state == 0) {
		import_held_in_poll(cv, p, cost);
		return;
	}
	at = cost_before_exit(p, cost);
	if (at == p->cause_at)
		return;
	if (p->cause == CAUSE_TIMER && (!move_timer_interrupt(cv, p, &at) || at == p->cause_at))
		return;
	move_tick_interrupts(cv, p, (unsigned int)(p - cv->cpus), at);
	if (at > p->cause_at) {
		cv->held_up++;
		cv->held_up_ns += at - p->cause_at;
	} else {
		cv->hurried++;
		cv->hurried_ns += p->cause_at - at;
	}
	p->cause_at = at;
}

/*
 * Where the simulated CPU takes p's interrupt, as end_busy() writes it
 * (an irq, the interrupt of an exit with no cause) or import_hold_up() left it
 * (a timer's fires_ns); false where the simulator places it itself (a
 * timer whose expiry came on time, or one the capture did not see armed).
 */
static bool simulated_interrupt(struct converter *cv, const struct cpu_track *p, uint64_t *at)
{
	const struct trace_event *ev;

	switch (p->cause) {
	case CAUSE_IRQ:
	case CAUSE_NONE:
		*at = import_irq_record_at(cv, p);
		return true;
	case CAUSE_TIMER:
		if (p->cause_event < 0)
			return false;
		ev = &g_array_index(cv->im->events, struct trace_event, p->cause_event);
		*at = MAX(ev->fires_ns, p->idle_since);
		return ev->fires_ns != 0;
	default:
		return false;
	}
}

/*
 * Under TCG an exit from a halting state takes from a few µs to hundreds
 * after its interrupt, where the simulator pays the state's median.
 * import_hold_up() writes a quick wakeup's interrupt the median before
 * its exit, but not before the entry (an interrupt pending there, as a
 * tick restarted for a boundary already past is) nor before its timer's
 * expiry: such a wakeup brings its own exit cost (exit_ns), so that the
 * simulated CPU leaves the state where the kernel's did and its governor
 * measures the same residency.  ladder, which takes a residency below the
 * state's exit latency as a very long one (an s64 against its u64
 * thresholds), demotes on 147 µs in C6 and not on the kernel's 61.
 */
void import_own_exit_cost(struct converter *cv, struct cpu_track *p)
{
	uint64_t cost, at;

	p->exit_ns = 0;
	cost = import_halting_exit_cost(cv, p);
	if (!cost || !simulated_interrupt(cv, p, &at) || at + cost <= p->since)
		return;
	p->exit_ns = MAX(p->since - MIN(at, p->since), 1);
	cv->im->counts.quick_exits++;
	cv->im->counts.quick_exit_ns += cost - p->exit_ns;
}

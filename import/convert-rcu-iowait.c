// SPDX-License-Identifier: GPL-2.0
/*
 * Besides its timers, a select reads whether RCU callbacks are queued on
 * its CPU (they keep the tick) and, for menu of 6.1, how many tasks wait
 * there for I/O: each change is an rcu or iowait record, written where the
 * simulated CPU is to know of it.
 */
#include "convert-private.h"
#include "trace-limits.h"

/*
 * When the simulated CPU is to know of a change made at time at to what
 * its next select reads (its RCU callbacks, its tasks waiting for I/O):
 * as for the timers its work arms (busy_anchor()), from the interrupt or
 * exit that started the work, or the last idle loop of that work that
 * entered no state; in the idle state, from the interrupt whose handler
 * or softirq made it (a batch of RCU callbacks ends in the softirq of a
 * tick).  Where the simulated work ends sooner than the kernel's (a tick
 * stop's cost, an entry held up), the change still comes before the
 * select.
 */
static uint64_t change_time(const struct cpu_track *p, uint64_t at)
{
	bool interrupt = p->cause != CAUSE_NONE && p->cause != CAUSE_REMOTE;

	if (p->phase == PHASE_BUSY)
		return MIN(import_work_began(p, interrupt), at);
	if (p->phase == PHASE_IDLE && interrupt)
		return MIN(p->cause_at, at);
	return at;
}

/*
 * RCU callbacks queued on a CPU keep its tick (rcu_needs_cpu()).  The
 * capture gives the queue's length as each callback goes in and as a
 * batch starts, and how many callbacks a batch invoked; an rcu record is
 * written where the queue goes from empty to not, and back.  Before a
 * CPU's first such event its queue is taken as empty.
 */
void import_on_rcu(struct converter *cv, const struct cap_event *e)
{
	uint32_t *n = &cv->rcu_callbacks[e->cpu];
	bool was_pending = *n > 0;
	uint64_t at;

	if (e->kind == CAP_RCU_DONE)
		*n -= MIN(*n, e->callbacks);
	else
		*n = e->callbacks;
	if ((*n > 0) == was_pending)
		return;
	at = change_time(&cv->cpus[e->cpu], import_rel(cv, e->ts_ns));
	import_emit(cv, TRACE_RCU, at, e->cpu)->rcu_pending = *n > 0;
	cv->im->counts.rcu_records++;
}

/*
 * Tasks waiting for I/O on a CPU (nr_iowait_cpu(), which menu of 6.1
 * reads): a task that blocks with io_schedule() counts on the CPU it
 * switched away from until it is woken (try_to_wake_up()).  The capture
 * shows the block as a switch away from a task in state D alone
 * (TASK_UNINTERRUPTIBLE), which other uninterruptible sleeps share, and
 * the end as its sched_wakeup, or its next switch in when that was lost.
 * An iowait record is written at each change; tasks already waiting when
 * the capture starts are not counted.
 */
static void iowait_change(struct converter *cv, uint64_t at, unsigned int cpu, bool up)
{
	uint32_t *n = &cv->iowait_tasks[cpu];

	*n = up ? *n + 1 : *n - 1;
	import_emit(cv, TRACE_IOWAIT, change_time(&cv->cpus[cpu], at), cpu)->iowait_tasks = *n;
	if (up)
		cv->im->counts.iowait_blocks++;
	else
		cv->im->counts.iowait_ends++;
}

/* Ends pid's wait for I/O, if it was waiting. */
void import_iowait_end(struct converter *cv, uint64_t at, uint32_t pid)
{
	gpointer cpu;

	if (!pid || !g_hash_table_steal_extended(cv->io_waiters, GUINT_TO_POINTER(pid), NULL, &cpu))
		return;
	iowait_change(cv, at, GPOINTER_TO_UINT(cpu) - 1, false);
}

void import_on_iowait_switch(struct converter *cv, const struct cap_event *e)
{
	uint64_t at = import_rel(cv, e->ts_ns);

	/* A task switched in again was woken, whether or not the capture shows it. */
	import_iowait_end(cv, at, e->next_pid);
	/* Blocked again: its wakeup in between was lost. */
	import_iowait_end(cv, at, e->pid);
	if (!e->blocked || !e->pid || cv->iowait_tasks[e->cpu] >= TRACE_IOWAIT_TASKS_MAX)
		return;
	g_hash_table_insert(cv->io_waiters, GUINT_TO_POINTER(e->pid), GUINT_TO_POINTER(e->cpu + 1));
	iowait_change(cv, at, e->cpu, true);
}

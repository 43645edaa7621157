// SPDX-License-Identifier: GPL-2.0
/*
 * The polling state's loop reads the clock at its own pace and stops past
 * its limit; under TCG the host stops the loop at times, and then no limit
 * comes.  Poll records give the simulated loop the kernel's pace and its
 * stops, and a wakeup's held_ns and stalled_ns what the host did around
 * its interrupt.
 */
#include <string.h>

#include "convert-private.h"
#include "trace-limits.h"

/* The pace of cpu's polling loop where it was last written, or 0 for none. */
static uint64_t poll_pace_of(const struct converter *cv, unsigned int cpu)
{
	const struct poll_pace *pp = &cv->poll_pace[cpu];

	return pp->written ? pp->written : cv->first ? cv->first->poll_check_ns : 0;
}

/*
 * With too few limits in the capture for a pace, how long a running
 * polling loop takes at most to reach its limit: cpuidle_poll_time() is
 * at most TICK_NSEC / 16, and a pace as long again still reaches it within
 * TICK_NSEC / 8 (0: HZ unknown too).  A polling state that went longer
 * with no limit was stopped by the host, from its entry.
 */
static uint64_t paceless_limit_within(const struct converter *cv)
{
	return cv->jiffies.known ? cv->jiffies.tick_ns / 8 : 0;
}

/*
 * The host stopped cpu's polling loop from `from` until `until`: its loop
 * read no clock meanwhile, and the kernel counted no limit.  Two poll
 * records say so: from `from` a pace that no limit can come at before
 * `until` (however early in its own pace a simulated CPU then polls), and
 * the CPU's pace again at `until`, where a simulated CPU polling past its
 * limit stops, as the kernel's loop did when it read the clock again.
 * With no pace known (0), the simulator's own pace comes back (check_ns=0),
 * and the first record outlasts any pace a loop reaches its limit at.
 */
static void poll_stopped(struct converter *cv, unsigned int cpu, uint64_t from,
			 uint64_t until, uint64_t pace)
{
	uint64_t margin = pace ? pace : paceless_limit_within(cv);

	import_emit(cv, TRACE_POLL, from, cpu)->check_ns = MIN(until - from + margin,
							       TRACE_POLL_CHECK_MAX_NS);
	import_emit(cv, TRACE_POLL, until, cpu)->check_ns = pace;
}

/*
 * The polling loop reads the clock every 200 cpu_relax() and stops past
 * its limit; under TCG it takes the capture's median time to the limit
 * (the first pass's poll_check_ns, which the simulator polls for) or
 * about as long.  A polling state that an interrupt ended later than that
 * ran no loop meanwhile: the host held the vCPU up from before its limit
 * (the kernel polled on for milliseconds at times, through its limit and
 * even through the interrupt's need_resched, which held_ns tells).  The
 * interrupt says so (stalled_ns, from the entry): a simulated CPU that
 * polls then reaches no limit before it either, where it would otherwise
 * poll to its limit again and again and count periods the kernel did not.
 * The same holds for a wakeup that only set need_resched (a remote one,
 * or none in the capture), which a running loop notices at once: from
 * the entry to that wakeup the loop did not run.
 * The simulator sees an interrupt's stalled_ns only when that interrupt is
 * the CPU's next record, and under a busy host the records of late ticks
 * often come between (a polling state of 8.7 ms in io of teo-6.12 held
 * two, and the model polled to 150 limits where the kernel reached none):
 * poll records keep the loop from a limit from a pace after the entry to
 * the interrupt as well (from the entry, in a capture with too few limits
 * for a pace: paceless_limit_within()).
 */
void import_stalled_in_poll(struct converter *cv, struct cpu_track *p, uint64_t wake_at)
{
	unsigned int cpu = (unsigned int)(p - cv->cpus);
	uint64_t polled = wake_at - p->idle_since;
	uint64_t to_limit = cv->first->poll_check_ns;
	uint64_t pace = poll_pace_of(cv, cpu);

	if (!to_limit)
		to_limit = paceless_limit_within(cv);
	if (!to_limit || polled <= to_limit)
		return;
	p->stalled_ns = polled;
	cv->poll_stalls++;
	cv->poll_stalled_ns += polled;
	if (pace < polled)
		poll_stopped(cv, cpu, p->idle_since + pace, wake_at, pace);
}

/*
 * A polling state ends at the interrupt that wakes a task, but when the
 * host stops the vCPU right after it, the exit comes hundreds of µs later
 * and the kernel counts the wait in the period.  Moving the interrupt
 * there would have the simulated CPU poll on to its limit through the
 * wait, as the stopped vCPU did not; so the interrupt stays and holds the
 * CPU up (held_ns) by what its exit took beyond the state's median (or,
 * with too few for one, beyond the polling loop's pace).
 */
void import_held_in_poll(struct converter *cv, struct cpu_track *p, uint64_t cost)
{
	uint64_t held;

	if (p->since - cost <= p->cause_at)
		return;
	held = p->since - cost - p->cause_at;
	p->held_ns = held;
	cv->poll_held++;
	cv->poll_held_ns += held;
}

/* The median of n values (n odd, at most POLL_PACE_RECENT), sorted as convert.c's median() sorts. */
static uint64_t median_of(const uint64_t *values, unsigned int n)
{
	uint64_t v[POLL_PACE_RECENT];

	memcpy(v, values, n * sizeof(*v));
	qsort(v, n, sizeof(*v), import_by_u64);
	return v[n / 2];
}

/*
 * The polling loop's pace follows the host's load through a capture:
 * under TCG a CPU's time to its limit stays near the capture's median
 * (poll_check_ns, the first pass's) for a while, then near 40 µs or 70
 * for another.  A CPU's pace is the median of its last POLL_PACE_RECENT
 * times to the limit; where it moves by more than an eighth from the
 * pace last written for the CPU (at first the capture's median), a poll
 * record gives the new one from the entry of the polling state that
 * moved it (p->idle_since).
 */
void import_pace_polling(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			 uint64_t to_limit)
{
	struct poll_pace *pp = &cv->poll_pace[cpu];
	uint64_t pace;

	if (!cv->first || !cv->first->poll_check_ns || !to_limit ||
	    to_limit > TRACE_POLL_CHECK_MAX_NS)
		return;
	if (!pp->written)
		pp->written = cv->first->poll_check_ns;
	pp->recent[pp->seen++ % POLL_PACE_RECENT] = to_limit;
	if (pp->seen < POLL_PACE_RECENT)
		return;
	pace = median_of(pp->recent, POLL_PACE_RECENT);
	if (pace * 8 >= pp->written * 7 && pace * 8 <= pp->written * 9)
		return;
	pp->written = pace;
	import_emit(cv, TRACE_POLL, p->idle_since, cpu)->check_ns = pace;
	cv->im->counts.poll_records++;
}

/*
 * A polling state that reached its limit more than two paces after its
 * entry was stopped from a pace after the entry at the latest until that
 * late limit; until the next entry where the idle loop after it took more
 * than a pace too.  One whose idle loop alone took that long was stopped
 * from its exit to the next entry.  The model's polling cycle need not be
 * in step with the kernel's: a simulated CPU polling when the host let the
 * kernel's loop run again leaves at that limit, and its next polling state
 * begins about where the kernel's did.
 */
void import_stalled_at_limit(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			     uint64_t next_entry)
{
	uint64_t pace = poll_pace_of(cv, cpu);
	uint64_t within = pace ? 2 * pace : paceless_limit_within(cv);
	uint64_t loop_within = pace ? pace : within;
	uint64_t from, until = next_entry;

	if (!within)
		return;
	if (p->since - p->idle_since > within) {
		from = p->idle_since + pace;
		if (next_entry - p->since <= loop_within)
			until = p->since;
	} else if (next_entry - p->since > loop_within) {
		from = p->since;
	} else {
		return;
	}
	poll_stopped(cv, cpu, from, until, pace);
	cv->im->counts.limit_stalls++;
	cv->im->counts.limit_stalled_ns += until - from;
}

/*
 * A polling state takes the tick's interrupt and polls on, and leaves at
 * its limit after the handler or for a task the handler woke (item 12 of
 * sim/README.md).  Where the interrupt came more than two paces after the
 * entry, no limit came before it: the host had stopped the loop from a
 * pace after the entry at the latest, and took the interrupt when it ran
 * the vCPU again (10 ms once, in io of teo-6.1, where the model polled to
 * 202 limits).  Its tick's record says when the interrupt came, and the
 * poll records keep a simulated loop from a limit to the next entry.
 */
void import_stalled_to_tick(struct converter *cv, const struct cpu_track *p, unsigned int cpu,
			    uint64_t next_entry)
{
	uint64_t pace = poll_pace_of(cv, cpu);
	uint64_t within = paceless_limit_within(cv);

	if (p->state != 0 || p->cause != CAUSE_TICK)
		return;
	if (pace ? p->cause_at < p->idle_since + 2 * pace :
		   !within || p->since - p->idle_since <= within)
		return;
	poll_stopped(cv, cpu, p->idle_since + pace, next_entry, pace);
	cv->im->counts.tick_stalls++;
	cv->im->counts.tick_stalled_ns += next_entry - (p->idle_since + pace);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler tick's grid.  While it runs, the tick fires at every
 * multiple of TICK_NSEC: stopping and restarting it (tick_nohz_restart()
 * forwards the old expiry by whole periods) never moves the grid.
 */
#ifndef TEOSIM_SIM_TICK_H
#define TEOSIM_SIM_TICK_H

#include <stdint.h>

/* The kernel's TICK_NSEC: (NSEC_PER_SEC + HZ/2) / HZ. */
static inline uint64_t tick_nsec_for_hz(unsigned int hz)
{
	return (1000000000ull + hz / 2) / hz;
}

/* The first tick strictly after t: a tick at t itself has already fired. */
static inline uint64_t tick_next_after(uint64_t t, uint64_t tick_nsec)
{
	return (t / tick_nsec + 1) * tick_nsec;
}

/*
 * The same, given prev, its answer for an earlier time (or 0): a 64-bit
 * division costs more than the rest of an idle entry, and a CPU's clock
 * mostly stays within a tick or two of its last idle entry.
 */
static inline uint64_t tick_next_after_from(uint64_t t, uint64_t prev, uint64_t tick_nsec)
{
	if (t < prev)
		return prev;
	if (t - prev < tick_nsec)
		return prev + tick_nsec;
	return tick_next_after(t, tick_nsec);
}

#endif /* TEOSIM_SIM_TICK_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host interface: everything a governor learns from the kernel around
 * it.  Whoever drives a governor (the simulator, the call-log replayer, a
 * unit test) implements these callbacks; the shim's tick.h, sched/clock.h,
 * sched/stat.h and cpuidle.h turn the governors' kernel calls into them.
 *
 * Each callback gets the host's private pointer and the CPU the governor is
 * running on (the CPU whose select or reflect is in progress).  All times
 * are nanoseconds.
 */
#ifndef KSHIM_HOST_H
#define KSHIM_HOST_H

#include <stdbool.h>
#include <stdint.h>

struct kshim_host_ops {
	/* local_clock(): the CPU's clock now. */
	uint64_t (*local_clock)(void *priv, unsigned int cpu);
	/*
	 * tick_nohz_get_sleep_length(): time from now to the next timer event
	 * (the tick excluded when it can be stopped), and in *delta_next_ns
	 * the time to the next event with the tick included.
	 */
	int64_t (*sleep_length)(void *priv, unsigned int cpu, int64_t *delta_next_ns);
	/* tick_nohz_tick_stopped(): the tick is already stopped on this CPU. */
	bool (*tick_stopped)(void *priv, unsigned int cpu);
	/* tick_nohz_idle_got_tick(): the last wakeup from idle was the tick. */
	bool (*got_tick)(void *priv, unsigned int cpu);
	/*
	 * The CPU's PM QoS resume-latency limit in microseconds, as PM QoS
	 * stores it (the smaller of the global and per-device requests).
	 * Each API generation converts it to its governors' unit.
	 */
	int32_t (*latency_limit_us)(void *priv, unsigned int cpu);
	/* nr_iowait_cpu(): tasks waiting for I/O on this CPU. */
	unsigned int (*nr_iowait)(void *priv, unsigned int cpu);
};

#endif /* KSHIM_HOST_H */

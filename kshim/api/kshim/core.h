/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cpuidle core of one API generation, seen through a generation-neutral
 * table of operations.
 *
 * kshim/core.c is compiled once per generation (with that generation's
 * cpuidle.h); it owns the driver and the per-CPU devices in that
 * generation's layout and does what drivers/cpuidle/cpuidle.c does around a
 * governor: enable it per CPU, call select and reflect, and account the
 * entered state's residency.  kshim/machine.c picks the table that belongs
 * to a governor's generation, so nothing outside kshim sees either layout.
 */
#ifndef KSHIM_CORE_H
#define KSHIM_CORE_H

#include <stdbool.h>
#include <stdint.h>

#define KSHIM_STATE_NAME_LEN	16

/* One idle state, as a platform describes it. */
struct kshim_state_desc {
	char name[KSHIM_STATE_NAME_LEN];
	uint32_t exit_latency_us;
	uint32_t target_residency_us;
	bool polling;			/* CPUIDLE_FLAG_POLLING */
	bool disabled;			/* disabled by the driver on every CPU */
};

/* A state's counters in one CPU's device, as sysfs shows them. */
struct kshim_usage {
	uint64_t usage;
	uint64_t time_ns;
	uint64_t above;			/* 6.x only: the 4.20 core did not count them */
	uint64_t below;
	uint64_t rejected;
};

struct kshim_core_ops {
	const char *api;		/* "4.20", "6.1", "6.12" */
	void *(*create)(unsigned int nr_cpus, const struct kshim_state_desc *states,
			unsigned int state_count);
	void (*destroy)(void *core);
	int (*enable)(void *core, const void *gov, unsigned int cpu);
	int (*select)(void *core, const void *gov, unsigned int cpu, bool *stop_tick);
	/*
	 * The end of cpuidle_enter_state(): the state entered (negative when
	 * the driver rejected it), the residency the core measured around
	 * it, and whether polling stopped at its time limit.
	 */
	void (*entered)(void *core, unsigned int cpu, int requested, int entered,
			uint64_t residency_ns, bool poll_time_limit);
	/* call_cpuidle() found work pending and entered nothing. */
	void (*not_entered)(void *core, unsigned int cpu);
	void (*reflect)(void *core, const void *gov, unsigned int cpu, int index);
	void (*set_user_disabled)(void *core, unsigned int cpu, int index, bool disabled);
	bool (*is_disabled)(void *core, unsigned int cpu, int index);
	void (*usage)(void *core, unsigned int cpu, int index, struct kshim_usage *out);
	const char *(*kernel_name)(const void *gov);	/* the governor's .name */
};

extern const struct kshim_core_ops kshim_core_420;
extern const struct kshim_core_ops kshim_core_601;
extern const struct kshim_core_ops kshim_core_612;

#endif /* KSHIM_CORE_H */

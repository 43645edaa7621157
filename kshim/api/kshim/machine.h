/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A machine: one governor instance driving a set of CPUs that share one
 * idle-state table, with its own per-CPU data, HZ and host.  This is the
 * whole interface between teosim and a governor: the simulator and the
 * replayer create machines and call them as the kernel's idle loop would.
 *
 * For one idle period on one CPU the caller does, in order:
 *   kshim_machine_select()    cpuidle_select(): the governor picks a state
 *   kshim_machine_entered()   cpuidle_enter_state(): residency accounting
 *   kshim_machine_reflect()   cpuidle_reflect(): the governor learns of it
 * The calls of one machine must come from one thread at a time.
 */
#ifndef KSHIM_MACHINE_H
#define KSHIM_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kshim/core.h>
#include <kshim/host.h>
#include <kshim/registry.h>

/* The kernel's CPUIDLE_STATE_MAX, which every generation shares. */
#define KSHIM_STATE_MAX		10

struct kshim_machine;

struct kshim_machine_config {
	unsigned int nr_cpus;		/* 1 .. KSHIM_MAX_CPUS */
	unsigned int hz;		/* 100, 250, 300 or 1000 */
	unsigned int state_count;	/* 1 .. KSHIM_STATE_MAX */
	struct kshim_state_desc states[KSHIM_STATE_MAX];
	const struct kshim_host_ops *host;
	void *host_priv;
};

/* Whether the kernel accepts this HZ; teosim models the four it offers. */
bool kshim_hz_valid(unsigned int hz);

/*
 * Builds the driver and devices and enables the governor on every CPU.
 * Returns 0, or -1 with a reason in err.
 */
int kshim_machine_new(const struct kshim_governor *gov,
		      const struct kshim_machine_config *cfg,
		      struct kshim_machine **out, char *err, size_t errlen);
void kshim_machine_free(struct kshim_machine *m);

/* Returns the state index; *stop_tick starts true, as in the idle loop. */
int kshim_machine_select(struct kshim_machine *m, unsigned int cpu, bool *stop_tick);
void kshim_machine_entered(struct kshim_machine *m, unsigned int cpu, int requested,
			   int entered, uint64_t residency_ns, bool poll_time_limit);
void kshim_machine_reflect(struct kshim_machine *m, unsigned int cpu, int index);
/*
 * Instead of entered and reflect: the idle loop's call_cpuidle() found the
 * CPU had work and entered no state.  The core zeroes the last residency
 * (which menu and ladder read at the next select); nothing is counted and
 * the governor does not reflect.
 */
void kshim_machine_not_entered(struct kshim_machine *m, unsigned int cpu);

/* A user's write to cpuN/cpuidle/stateI/disable. */
void kshim_machine_set_disabled(struct kshim_machine *m, unsigned int cpu,
				int index, bool disabled);
bool kshim_machine_is_disabled(const struct kshim_machine *m, unsigned int cpu,
			       int index);
void kshim_machine_usage(const struct kshim_machine *m, unsigned int cpu,
			 int index, struct kshim_usage *out);

#endif /* KSHIM_MACHINE_H */

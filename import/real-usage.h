/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the real kernel's governor chose, from a capture's cpu_idle events:
 * the counters cpuidle keeps per state (usage, time, above, below),
 * computed the way cpuidle_enter_state() computes them, which needs the
 * platform's target residencies and exit latencies.
 */
#ifndef TEOSIM_IMPORT_REAL_USAGE_H
#define TEOSIM_IMPORT_REAL_USAGE_H

#include <kshim/machine.h>

#include "capture.h"
#include "platform.h"

struct real_state_usage {
	uint64_t usage, time_ns, above, below;
	uint64_t miss_above, miss_below;	/* the kernel's own cpu_idle_miss events */
};

struct real_usage {
	unsigned int state_count;
	struct real_state_usage states[KSHIM_STATE_MAX];
	uint64_t periods;		/* complete idle periods: entry and exit both seen */
	uint64_t partial;		/* cut by the capture's start or a lost-events gap */
	uint64_t tick_stops, tick_stop_failures;
	bool have_miss_events;
};

/*
 * 6.x cpuidle_enter_state()'s verdict on a residency in state: "above"
 * when it fell short of the state's target residency while some shallower
 * state is enabled; otherwise, when it exceeds the state's exit latency,
 * "below" when the first enabled deeper state's target residency is at
 * most the residency minus that exit latency.
 */
void real_above_below(const struct platform *p, unsigned int state, uint64_t residency,
		      bool *above, bool *below);

/* One complete idle period of the capture, on the capture's clock. */
struct real_period {
	uint64_t entry_ns, exit_ns;
	unsigned int cpu;
	unsigned int state;
};

/*
 * Fails, naming the capture's line or offset, when an entered state is not
 * in the platform: the platform is not the captured machine's.  periods,
 * if not NULL, gets every complete period (struct real_period) in time order.
 */
bool real_usage_compute(const struct capture *c, const struct platform *p,
			struct real_usage *out, GArray *periods, GError **error);

#endif /* TEOSIM_IMPORT_REAL_USAGE_H */

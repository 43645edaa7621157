/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scripted governor for the simulator's tests, compiled against kshim as
 * the real governors are ("script-6.1" and "script-4.20"): select returns
 * the next scripted state and stop_tick, and both calls record what the
 * governor saw through the host interface.  Plain C: no kernel types.
 */
#ifndef TEOSIM_SIM_TEST_SCRIPT_H
#define TEOSIM_SIM_TEST_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#define SCRIPT_MAX	64

struct script_step {
	int state;
	bool stop_tick;
};

struct script_select_seen {
	uint64_t clock_ns;
	int64_t sleep_length_ns, delta_next_ns;
	bool tick_stopped;
	unsigned int iowait_tasks;	/* nr_iowait_cpu() */
	uint64_t residency_ns;		/* the core's last residency, as menu and ladder read it */
};

struct script_reflect_seen {
	int state;
	uint64_t clock_ns;
	uint64_t residency_ns;		/* the core's last residency, in its unit times 1000 for 4.20 */
	bool got_tick;
	bool poll_time_limit;
};

struct script {
	struct script_step steps[SCRIPT_MAX];
	unsigned int nr_steps;		/* past the last step, the last one repeats */
	unsigned int selects, reflects;
	struct script_select_seen selected[SCRIPT_MAX];
	struct script_reflect_seen reflected[SCRIPT_MAX];
};

/* The script of the calling thread; tests fill steps and read the rest. */
extern _Thread_local struct script script;

#endif /* TEOSIM_SIM_TEST_SCRIPT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Platforms: a CPU's idle-state table with per-state power, from a GLib key
 * file in traces/platforms/ (format: traces/platforms/README.md) or from a
 * live machine's sysfs.
 */
#ifndef TEOSIM_PLATFORM_H
#define TEOSIM_PLATFORM_H

#include <stdbool.h>

#include <glib.h>
#include <kshim/machine.h>

struct platform_state {
	struct kshim_state_desc desc;	/* name, exit latency, target residency, flags */
	/*
	 * What a wakeup from the state really takes before the CPU runs: the
	 * declared exit latency (desc) is a worst case the governors plan
	 * with; a virtual machine's states, for instance, cost the same.
	 * The exit latency unless the file says otherwise.
	 */
	uint32_t exit_cost_us;
	double power_mw;		/* while in the state, per CPU */
	bool power_assumed;		/* no public figure: an assumption */
};

struct platform {
	char *name;			/* "skx", or the file's base name */
	char *description;
	char *source;			/* where the table comes from */
	char *path;			/* the file or sysfs directory it was read from */
	double busy_power_mw;		/* while running, per CPU */
	/* How long after its expiry a timer's interrupt reaches the CPU (0 unless given). */
	uint32_t timer_latency_us;
	/*
	 * The polling state reads the clock only every poll_check_us (200
	 * rounds of cpu_relax()), so it stops at the first check past its
	 * limit (0: exactly at it).
	 */
	uint32_t poll_check_us;
	/* From the end of a polling limit to the next select: the idle loop's own path. */
	uint32_t idle_loop_us;
	/* What the tick's handler takes when it wakes an idle CPU, before the next select. */
	uint32_t tick_work_us;
	/*
	 * The governor chooses this long before the state is entered: the rest
	 * of the idle loop's way into the state, which a trace's work (up to
	 * the entry) includes.
	 */
	uint32_t select_lead_us;
	/*
	 * What tick_nohz_idle_stop_tick() adds between select and the entry
	 * when it stops a running tick (the hrtimer reprogrammed): select
	 * comes select_lead_us + tick_stop_us before such an entry.
	 */
	uint32_t tick_stop_us;
	/*
	 * From a task's switch to the idle task (a trace's idle record) to
	 * tick_nohz_idle_enter(), whose time the sleep length counts from:
	 * idle_entry_pct percent of the way from the switch to the state's
	 * entry (a slow host stretches the whole way alike), and at most
	 * idle_entry_us.
	 */
	uint32_t idle_entry_us;
	uint32_t idle_entry_pct;
	/*
	 * Where a timer's interrupt held the entry up (the timer expired on
	 * the way, before where idle_entry_pct puts the idle entry time, its
	 * interrupt still pending at the entry): that time is this long
	 * after the switch, or where idle_entry_pct puts it if that is
	 * sooner.  0: no such hold-up.
	 */
	uint32_t idle_entry_held_us;
	/*
	 * The core's clock reads around a state (cpuidle_enter_state()) lie
	 * inside its entry and exit this long in all: the residency the
	 * governors are told is that much shorter than the state's time.
	 */
	uint32_t residency_gap_us;
	unsigned int state_count;
	struct platform_state states[KSHIM_STATE_MAX];
};

/* A spec ending so (or with a '/') is a file, not a bundled platform's name. */
#define PLATFORM_SUFFIX		".platform"

/*
 * spec is a path to a key file, the name of a bundled platform ("skx",
 * looked up in the platform directory), "sysfs" (this machine's
 * /sys/devices/system/cpu/cpu0/cpuidle) or "sysfs:DIR" (a copy of such a
 * directory).  Errors name the file, line (where known) and key.
 */
bool platform_load(const char *spec, struct platform *out, GError **error);
void platform_clear(struct platform *p);

/*
 * The directory searched for bundled platform names: $TEOSIM_PLATFORM_DIR,
 * else the data directory's platforms/ (data-dir.h).
 */
const char *platform_dir(void);

#endif /* TEOSIM_PLATFORM_H */

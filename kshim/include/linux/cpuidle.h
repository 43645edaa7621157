/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cpuidle driver, device and governor structures, in the shape each API
 * generation gives them (kshim/api.h).  Only the members some governor or
 * the shim's core reads are declared; layout is not the kernel's, meaning is.
 *
 *   4.20:  state exit_latency / target_residency in us, per-state driver
 *          flag "disabled", usage "disable" set by the user, and
 *          cpuidle_governor_latency_req() returning int microseconds.
 *   6.x:   the same in ns as well as us, driver disabling folded into
 *          usage "disable" as CPUIDLE_STATE_DISABLED_BY_DRIVER,
 *          dev->last_state_idx and dev->last_residency_ns, and the latency
 *          request as s64 nanoseconds.
 */
#ifndef _LINUX_CPUIDLE_H
#define _LINUX_CPUIDLE_H

#include <linux/bits.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <kshim/api.h>
#include <kshim/context.h>

#define CPUIDLE_STATE_MAX	10
#define CPUIDLE_NAME_LEN	16
#define CPUIDLE_DESC_LEN	32

#define CPUIDLE_FLAG_NONE	(0x00)
#define CPUIDLE_FLAG_POLLING	BIT(0)
#define CPUIDLE_FLAG_COUPLED	BIT(1)
#define CPUIDLE_FLAG_TIMER_STOP	BIT(2)

#define CPUIDLE_STATE_DISABLED_BY_USER		BIT(0)
#define CPUIDLE_STATE_DISABLED_BY_DRIVER	BIT(1)

struct cpuidle_device;
struct cpuidle_driver;

struct cpuidle_state_usage {
	unsigned long long	disable;
	unsigned long long	usage;
#if KSHIM_API >= KSHIM_API_6_1
	u64			time_ns;
	unsigned long long	above;	/* entered state was too deep */
	unsigned long long	below;	/* entered state was too shallow */
	unsigned long long	rejected;
#else
	unsigned long long	time;	/* in us */
#endif
};

struct cpuidle_state {
	char		name[CPUIDLE_NAME_LEN];
	char		desc[CPUIDLE_DESC_LEN];
#if KSHIM_API >= KSHIM_API_6_1
	s64		exit_latency_ns;
	s64		target_residency_ns;
#endif
	unsigned int	flags;
	unsigned int	exit_latency;		/* in us */
	int		power_usage;		/* in mW */
	unsigned int	target_residency;	/* in us */
#if KSHIM_API < KSHIM_API_6_1
	bool		disabled;		/* disabled on all CPUs */
#endif
};

struct cpuidle_device {
	unsigned int		registered:1;
	unsigned int		enabled:1;
	unsigned int		poll_time_limit:1;
	unsigned int		cpu;
#if KSHIM_API >= KSHIM_API_6_1
	int			last_state_idx;
	u64			last_residency_ns;
	u64			poll_limit_ns;
#else
	int			last_residency;		/* in us */
#endif
	struct cpuidle_state_usage	states_usage[CPUIDLE_STATE_MAX];
};

struct cpuidle_driver {
	const char		*name;
	struct cpuidle_state	states[CPUIDLE_STATE_MAX];
	int			state_count;
	int			safe_state_index;
};

struct cpuidle_governor {
	char			name[CPUIDLE_NAME_LEN];
	struct list_head	governor_list;
	unsigned int		rating;

	int  (*enable)		(struct cpuidle_driver *drv,
				 struct cpuidle_device *dev);
	void (*disable)		(struct cpuidle_driver *drv,
				 struct cpuidle_device *dev);

	int  (*select)		(struct cpuidle_driver *drv,
				 struct cpuidle_device *dev,
				 bool *stop_tick);
	void (*reflect)		(struct cpuidle_device *dev, int index);
};

/* Hands the governor to the registry entry whose initcall is running. */
int kshim_register_governor(const void *gov);

static inline int cpuidle_register_governor(struct cpuidle_governor *gov)
{
	return kshim_register_governor(gov);
}

/* The PM QoS limit from the host, in this generation's unit and type. */
#if KSHIM_API >= KSHIM_API_6_1
static inline s64 cpuidle_governor_latency_req(unsigned int cpu)
{
	return (s64)kshim_cur->host->latency_limit_us(kshim_cur->host_priv, cpu) *
	       NSEC_PER_USEC;
}
#else
static inline int cpuidle_governor_latency_req(unsigned int cpu)
{
	return kshim_cur->host->latency_limit_us(kshim_cur->host_priv, cpu);
}
#endif

#endif /* _LINUX_CPUIDLE_H */

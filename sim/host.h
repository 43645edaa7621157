/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's side of the kshim host interface: what a governor reads
 * from the kernel (clock, sleep length, tick state, QoS limit) is answered
 * from the simulated CPU (struct sim_cpu, the host's private pointer).
 */
#ifndef TEOSIM_SIM_HOST_H
#define TEOSIM_SIM_HOST_H

#include <stdint.h>

#include <kshim/host.h>

struct sim_cpu;
struct idle_period;

extern const struct kshim_host_ops sim_host_ops;

/*
 * At idle entry (the CPU's clock_ns): works out the next tick boundary and
 * what tick_nohz_get_sleep_length() answers during this select, for the
 * host and in the period's record.
 */
void sim_host_enter_idle(struct sim_cpu *c, struct idle_period *p);

#endif /* TEOSIM_SIM_HOST_H */

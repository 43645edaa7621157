/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel API generation a governor object is compiled against.
 *
 * The build passes -DKSHIM_API=<n> for every governor object.  The shim
 * headers below use it wherever the governors' view of the kernel differs
 * between generations:
 *
 *   420: the API the TEO v8 posting (December 2018) was written for:
 *        idle-state exit latency and target residency in microseconds,
 *        a per-state "disabled" flag in the driver, and the latency
 *        request returned as an int in microseconds.
 *   601: Linux 6.1: nanosecond state fields, dev->last_state_idx and
 *        dev->last_residency_ns, the latency request as s64 nanoseconds.
 *   612: Linux 6.12: as 6.1 for everything the governors touch.
 */
#ifndef KSHIM_API_H
#define KSHIM_API_H

#define KSHIM_API_4_20	420
#define KSHIM_API_6_1	601
#define KSHIM_API_6_12	612

#ifndef KSHIM_API
#error "KSHIM_API must be defined to the kernel API generation (420, 601 or 612)"
#endif

#if KSHIM_API == KSHIM_API_4_20
#define KSHIM_API_NAME	"4.20"
#elif KSHIM_API == KSHIM_API_6_1
#define KSHIM_API_NAME	"6.1"
#elif KSHIM_API == KSHIM_API_6_12
#define KSHIM_API_NAME	"6.12"
#else
#error "KSHIM_API names no known generation"
#endif

#endif /* KSHIM_API_H */

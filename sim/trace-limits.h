/* SPDX-License-Identifier: GPL-2.0 */
/* Limits of the trace format (traces/trace-format.md), shared by reader and writers. */
#ifndef TEOSIM_TRACE_LIMITS_H
#define TEOSIM_TRACE_LIMITS_H

#include <stdint.h>

/* Every time and duration is below 2^62, so a sum of two never overflows. */
#define TRACE_TIME_MAX		((UINT64_C(1) << 62) - 1)
/* A shorter period would have the simulator do little but re-arm timers. */
#define TRACE_PERIOD_MIN_NS	1000
/* The header's name; phase names fit struct trace_event's phase[]. */
#define TRACE_NAME_MAX		63
/* The header's platform: a file name, as long as a file system allows. */
#define TRACE_PLATFORM_MAX	255
/* The header's poll_check_ns: as much as a platform's poll_check_us may say. */
#define TRACE_POLL_CHECK_MAX_NS	((uint64_t)UINT32_MAX * 1000)
/* The header's tick_stop_ns: as much as a platform's tick_stop_us may say. */
#define TRACE_TICK_STOP_MAX_NS	((uint64_t)UINT32_MAX * 1000)
/*
 * An iowait record's tasks: no more than a kernel has pids (PID_MAX_LIMIT),
 * and menu's 1 + 10 per task stays within its int.
 */
#define TRACE_IOWAIT_TASKS_MAX	(1u << 22)
/* Timers armed at once: what the reader and each simulated CPU hold in memory. */
#define TRACE_ARMED_MAX		(1u << 20)

#endif /* TEOSIM_TRACE_LIMITS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* For the fuzz harnesses: reading a workload trace to its end, checking what trace.h promises. */
#ifndef TEOSIM_FUZZ_TRACE_READ_H
#define TEOSIM_FUZZ_TRACE_READ_H

#include <stdbool.h>

/*
 * Reads the trace at path.  Every event must keep trace.h's promises (time
 * order, CPUs, expiries); with must_be_valid, the file must also read
 * without an error: it was written by teosim.
 */
void fuzz_read_trace(const char *path, bool must_be_valid);

#endif /* TEOSIM_FUZZ_TRACE_READ_H */

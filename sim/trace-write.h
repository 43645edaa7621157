/* SPDX-License-Identifier: GPL-2.0 */
/* Writing workload traces (traces/trace-format.md): what trace_open() reads back. */
#ifndef TEOSIM_TRACE_WRITE_H
#define TEOSIM_TRACE_WRITE_H

#include <stdio.h>

#include "trace.h"

void trace_write_header(FILE *out, const struct trace_header *h);
/* One record; fields at their default (0) are left out. */
void trace_write_event(FILE *out, const struct trace_event *ev);

#endif /* TEOSIM_TRACE_WRITE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the workload-trace reader (traces/trace-format.md):
 * besides not crashing, every event it hands out keeps the promises that
 * trace.h makes and the simulator relies on.
 */
#include "fuzz-input.h"
#include "fuzz-trace-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_trace(fuzz_input_path(0, data, size), false);
	return 0;
}

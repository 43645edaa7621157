// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the scenario reader and generator (traces/scenarios/).
 * Beyond not crashing: every trace the generator writes in full is one
 * the trace reader accepts.  Output is capped (the generator stops at the
 * first failed write), so that long scenarios cost no more than short ones.
 */
#include <stdlib.h>

#include "fuzz-input.h"
#include "fuzz-trace-read.h"
#include "gen.h"

#define FUZZ_TRACE_MAX	(256 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *trace;
	const char *path = fuzz_input_path(0, data, size);
	GError *error = NULL;
	FILE *out;
	bool ok;

	if (!trace) {
		trace = malloc(FUZZ_TRACE_MAX);
		FUZZ_ASSERT(trace);
	}
	out = fmemopen(trace, FUZZ_TRACE_MAX, "w");
	FUZZ_ASSERT(out);
	ok = gen_write(path, 1, out, &error);
	FUZZ_ASSERT(ok == (error == NULL));
	g_clear_error(&error);
	if (ok) {
		long len = ftell(out);

		FUZZ_ASSERT(len >= 0);
		fclose(out);
		/* Written in full: now the reader's turn. */
		fwrite(trace, 1, (size_t)len, out = fuzz_output(1));
		FUZZ_ASSERT(fclose(out) == 0);
		fuzz_read_trace(fuzz_slot_path(1), true);
	} else {
		fclose(out);
	}
	return 0;
}

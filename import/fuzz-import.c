// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of `teosim import`: the capture readers (ftrace text,
 * `trace-cmd report` text, trace-cmd .dat through its child process) and
 * the conversion to a workload trace.  Beyond not crashing: every trace
 * the importer writes is one the trace reader accepts.
 */
#include "capture.h"
#include "convert.h"
#include "fuzz-input.h"
#include "fuzz-trace-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(0, data, size);
	struct imported im;
	struct capture c;
	GError *error = NULL;
	FILE *out;

	if (!capture_load(path, &c, &error) || !import_convert(&c, "fuzzed", &im, &error)) {
		FUZZ_ASSERT(error && error->message[0]);
		g_error_free(error);
		capture_clear(&c);
		return 0;
	}
	out = fuzz_output(1);
	imported_write(out, &im, path);
	FUZZ_ASSERT(fclose(out) == 0);
	fuzz_read_trace(fuzz_slot_path(1), true);
	imported_clear(&im);
	capture_clear(&c);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the governor-call log reader (traces/calls-format.md).
 * Beyond not crashing: whatever the reader accepts, the writer writes as a
 * log that the reader accepts again and that a second round leaves as it is.
 */
#include "calllog.h"
#include "fuzz-input.h"

/* Reads the log at path and writes what it read into slot `to`; false on a read error. */
static bool rewrite(const char *path, unsigned int to)
{
	struct calllog_record rec;
	struct calllog_reader *r;
	GError *error = NULL;
	FILE *out;
	int got;

	r = calllog_open(path, &error);
	if (!r) {
		FUZZ_ASSERT(error && error->message[0]);
		g_error_free(error);
		return false;
	}
	out = fuzz_output(to);
	calllog_write_header(out, calllog_header(r));
	while ((got = calllog_next(r, &rec, &error)) == 1) {
		if (rec.kind == CALLLOG_SELECT)
			calllog_write_select(out, &rec.select);
		else
			calllog_write_reflect(out, &rec.reflect);
	}
	FUZZ_ASSERT((got < 0) == (error != NULL));
	g_clear_error(&error);
	calllog_close(r);
	FUZZ_ASSERT(fclose(out) == 0);
	return got == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!rewrite(fuzz_input_path(0, data, size), 1))
		return 0;
	FUZZ_ASSERT(rewrite(fuzz_slot_path(1), 2));
	FUZZ_ASSERT(fuzz_same_contents(1, 2));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the platform key-file reader (traces/platforms/README.md).
 * Beyond not crashing: a platform it accepts, written back as a key file,
 * is accepted again and written the same way a second time.
 */
#include "fuzz-input.h"
#include "fuzz-platform-check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_platform_round_trip(fuzz_input_path(0, data, size));
	return 0;
}

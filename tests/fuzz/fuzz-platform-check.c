// SPDX-License-Identifier: GPL-2.0
#include "fuzz-input.h"
#include "fuzz-platform-check.h"
#include "platform-write.h"
#include "platform.h"

/*
 * Loads the platform at spec and writes it into slot `to`; false when
 * refused, which teosim's own output must never be.
 */
static bool rewrite(const char *spec, unsigned int to, bool must_accept)
{
	struct platform p;
	GError *error = NULL;
	FILE *out;

	if (!platform_load(spec, &p, &error)) {
		FUZZ_ASSERT(error && error->message[0]);
		if (must_accept)
			fprintf(stderr, "teosim wrote a platform that it refuses: %s\n", error->message);
		FUZZ_ASSERT(!must_accept);
		g_error_free(error);
		return false;
	}
	FUZZ_ASSERT(p.state_count > 0 && p.state_count <= KSHIM_STATE_MAX);
	out = fuzz_output(to);
	platform_write(out, &p, NULL);
	FUZZ_ASSERT(fclose(out) == 0);
	platform_clear(&p);
	return true;
}

void fuzz_platform_round_trip(const char *spec)
{
	if (!rewrite(spec, 1, false))
		return;
	rewrite(fuzz_slot_path(1), 2, true);
	FUZZ_ASSERT(fuzz_same_contents(1, 2));
}

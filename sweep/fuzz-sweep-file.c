// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the sweep-file reader (traces/sweeps/README.md).  Beyond
 * not crashing: a refusal always says why, and an accepted sweep lays out
 * cells that split back into their workload, setting and governor.
 */
#include <string.h>

#include <kshim/registry.h>

#include "fuzz-input.h"
#include "setup.h"

static const struct kshim_governor *find(const char *name, GError **error)
{
	const struct kshim_governor *g = kshim_governor_find(name);

	if (!g)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "unknown governor %s", name);
	return g;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool registered;
	GError *error = NULL;
	struct sweep s;
	unsigned int n;

	if (!registered) {
		kshim_registry_init();
		registered = true;
	}
	if (!sweep_setup(fuzz_input_path(0, data, size), find, &s, &error)) {
		FUZZ_ASSERT(error && error->message[0]);
		g_error_free(error);
		sweep_clear(&s);
		return 0;
	}
	n = sweep_nr_cells(&s);
	FUZZ_ASSERT(n > 0 && n <= SWEEP_CELLS_MAX);
	for (unsigned int i = 0; i < n; i += 1 + n / 64) {
		unsigned int w, set, g;

		sweep_cell_split(&s, i, &w, &set, &g);
		FUZZ_ASSERT(w < s.nr_workloads && set < s.nr_settings && g < s.nr_govs);
		FUZZ_ASSERT((w * s.nr_settings + set) * s.nr_govs + g == i);
	}
	for (unsigned int a = 0; a < s.nr_settings; a++)
		for (unsigned int b = a + 1; b < s.nr_settings; b++)
			FUZZ_ASSERT(strcmp(s.settings[a].name, s.settings[b].name));
	sweep_clear(&s);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the sweep-file reader (traces/sweeps/README.md).  Beyond
 * not crashing: a refusal always says why, and an accepted sweep numbers
 * its cells without gaps and its blocks cover every setting once.
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
	unsigned int n, next = 0;

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
	/* Cells are numbered without gaps: the last is n - 1, and blocks cover each workload. */
	FUZZ_ASSERT(sweep_cell_index(&s, s.nr_workloads - 1, s.nr_settings - 1, s.nr_govs - 1) ==
		    n - 1);
	for (unsigned int k = 0; k < sweep_blocks_per_workload(&s); k++) {
		struct sweep_block b = sweep_block_at(&s, 0, k);

		FUZZ_ASSERT(b.setting == next && b.nr_settings > 0);
		FUZZ_ASSERT(sweep_block_cells(&s, &b) <= MAX(SWEEP_BLOCK_CELLS, s.nr_govs));
		next += b.nr_settings;
	}
	FUZZ_ASSERT(next == s.nr_settings);
	for (unsigned int a = 0; a < s.nr_settings; a++)
		for (unsigned int b = a + 1; b < s.nr_settings; b++)
			FUZZ_ASSERT(strcmp(s.settings[a].name, s.settings[b].name));
	sweep_clear(&s);
	return 0;
}

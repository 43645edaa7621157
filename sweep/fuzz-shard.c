// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the shard reader behind `teosim sweep --merge`: the input
 * is shard 0 of 2 of a small fixed sweep, beside a good shard 1.  Beyond
 * not crashing: a refusal always says why, and what is accepted is every
 * cell of shard 0, each a number as teosim prints them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kshim/registry.h>

#include "data-dir.h"
#include "fuzz-input.h"
#include "leftovers.h"
#include "results.h"
#include "setup.h"

static const char sweep_text[] =
	"[sweep]\nname=fuzz\ngovernors=teo-6.12,menu-6.12\nplatforms=skx\n"
	"scenarios=io-heavy\nseeds=1-3\nlatency_limits_us=none,20\n";

static struct sweep sweep;
static char *base;		/* holds the shards; removed when the fuzzer exits */
static char *dirs[2];
static struct sweep_cell_values *cells;

static const struct kshim_governor *find(const char *name, GError **error)
{
	const struct kshim_governor *g = kshim_governor_find(name);

	if (!g)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "unknown governor %s", name);
	return g;
}

static void remove_base(void)
{
	leftovers_remove(base);
}

/* The sweep, and shard 1 of it with made-up figures, once. */
static void prepare(void)
{
	char *path;
	struct sweep_shard one = { 1, 2 };
	unsigned int per;
	struct sweep_writer *wr;

	base = g_dir_make_tmp("teosim-fuzz-shard-XXXXXX", NULL);
	FUZZ_ASSERT(base);
	atexit(remove_base);
	path = g_build_filename(base, "fuzz.sweep", NULL);
	FUZZ_ASSERT(g_file_set_contents(path, sweep_text, -1, NULL));
	kshim_registry_init();
	FUZZ_ASSERT(sweep_setup(path, find, &sweep, NULL));
	for (unsigned int k = 0; k < 2; k++) {
		dirs[k] = g_strdup_printf("%s/shard%u", base, k);
		FUZZ_ASSERT(g_mkdir_with_parents(dirs[k], 0777) == 0);
	}
	per = sweep.nr_settings * sweep.nr_govs;
	cells = g_new0(struct sweep_cell_values, per);
	for (unsigned int c = 0; c < per; c++)
		for (unsigned int k = 0; k < summary_metric_count; k++)
			strcpy(cells[c].text[k], "1.5");
	wr = sweep_writer_open(dirs[1], &sweep, &one, NULL, NULL);
	FUZZ_ASSERT(wr);
	FUZZ_ASSERT(sweep_blocks_per_workload(&sweep) == 1);
	for (unsigned int w = 0; w < sweep.nr_workloads; w++) {
		struct sweep_block b = sweep_block_at(&sweep, w, 0);

		if (sweep_shard_has(&one, w))
			sweep_writer_add(wr, &b, cells);
	}
	FUZZ_ASSERT(sweep_writer_close(wr, NULL, NULL));
	g_free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *file = NULL;
	struct sweep_shard_reader *r;
	GError *error = NULL;
	bool ok = true;

	if (!dirs[0])
		prepare();
	file = g_build_filename(dirs[0], "shard.txt", NULL);
	FUZZ_ASSERT(g_file_set_contents(file, (const char *)data, (gssize)size, NULL));
	r = sweep_shards_open(&sweep, dirs, 2, &error);
	if (!r) {
		FUZZ_ASSERT(error && error->message[0]);
		g_error_free(error);
		return 0;
	}
	for (unsigned int w = 0; ok && w < sweep.nr_workloads; w++) {
		struct sweep_block b = sweep_block_at(&sweep, w, 0);

		ok = sweep_shards_read(r, &b, cells, &error);
		for (unsigned int c = 0; ok && c < sweep.nr_settings * sweep.nr_govs; c++)
			for (unsigned int k = 0; k < summary_metric_count; k++)
				FUZZ_ASSERT(isfinite(g_ascii_strtod(cells[c].text[k], NULL)));
	}
	ok = sweep_shards_close(r, ok ? &error : NULL) && ok;
	FUZZ_ASSERT(ok == (error == NULL));
	g_clear_error(&error);
	return 0;
}

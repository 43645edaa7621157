/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the import tests: the hand-made captures of import/testdata,
 * loaded and converted, with the expected workload events written out.
 */
#ifndef TEOSIM_TEST_IMPORT_HELPERS_H
#define TEOSIM_TEST_IMPORT_HELPERS_H

#include "test-files.h"

#include "capture.h"
#include "convert.h"

static inline char *testdata(const char *name)
{
	return g_build_filename(IMPORT_TESTDATA, name, NULL);
}

/* Loads path, which must be a usable capture. */
static inline void load_path_ok(const char *path, struct capture *c)
{
	g_autoptr(GError) error = NULL;

	if (!capture_load(path, c, &error))
		fail_msg("%s", error->message);
}

/* Loads testdata/name, which must be a usable capture. */
static inline void load_ok(const char *name, struct capture *c)
{
	g_autofree char *path = testdata(name);

	load_path_ok(path, c);
}

/* Loads and converts testdata/name; the capture is cleared. */
static inline void import_ok(const char *name, struct imported *im)
{
	g_autoptr(GError) error = NULL;
	struct capture c;

	load_ok(name, &c);
	if (!import_convert(&c, "test", im, &error))
		fail_msg("%s: %s", name, error->message);
	capture_clear(&c);
}

/* The loader's error for testdata/name, which must be unusable. */
static inline GError *load_fails(const char *name)
{
	g_autofree char *path = testdata(name);
	GError *error = NULL;
	struct capture c;

	assert_false(capture_load(path, &c, &error));
	assert_non_null(error);
	capture_clear(&c);
	return error;
}

/* Whether a note contains text. */
static inline bool has_note(const struct imported *im, const char *text)
{
	for (guint i = 0; i < im->notes->len; i++)
		if (strstr(g_ptr_array_index(im->notes, i), text))
			return true;
	return false;
}

#endif /* TEOSIM_TEST_IMPORT_HELPERS_H */

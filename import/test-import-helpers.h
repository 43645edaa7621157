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
#include "trace-write.h"

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

/* The events as trace-file lines, the format the expectations are written in. */
static inline char *events_text(const struct imported *im)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (guint i = 0; i < im->events->len; i++)
		trace_write_event(f, &g_array_index(im->events, struct trace_event, i));
	fclose(f);
	return text;
}

static inline void assert_reads_back(const struct imported *im)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = g_build_filename(dir, "imported.trace", NULL);
	g_autoptr(GError) error = NULL;
	struct trace_reader *r;
	const struct trace_event *ev;
	FILE *f = fopen(path, "w");
	int ret;

	assert_non_null(f);
	imported_write(f, im, "capture");
	assert_int_equal(fclose(f), 0);
	r = trace_open(path, &error);
	if (!r)
		fail_msg("%s", error->message);
	while ((ret = trace_next(r, &ev, &error)) > 0)
		;
	if (ret < 0)
		fail_msg("the imported trace does not read back: %s", error->message);
	trace_close(r);
	test_rmtree(dir);
}

static inline void assert_imports_to(const char *capture, uint64_t end_ns, unsigned int cpus,
				     const char *expected, struct imported *im)
{
	g_autofree char *text = NULL;

	import_ok(capture, im);
	text = events_text(im);
	assert_string_equal(text, expected);
	assert_int_equal(im->header.end_ns, end_ns);
	assert_int_equal(im->header.nr_cpus, cpus);
	assert_reads_back(im);
}

#endif /* TEOSIM_TEST_IMPORT_HELPERS_H */

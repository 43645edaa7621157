// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of the sysfs idle-state reader (platform_load("sysfs:DIR")).
 * The input describes a cpuidle directory, one file per line:
 *
 *     STATE ATTRIBUTE CONTENTS
 *
 * becomes DIR/stateSTATE/ATTRIBUTE holding CONTENTS and a newline (none
 * after the input's last line when it has none); "STATE" alone makes an
 * empty state directory.  Beyond not crashing: a table it accepts, written
 * as a key file, is accepted again and written the same way a second time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "fuzz-platform-check.h"
#include "platform.h"

/* One more state than the reader takes, to reach its limit. */
#define FUZZ_SYSFS_STATES	(KSHIM_STATE_MAX + 1)

/* What a cpuidle state directory holds; other names are not written. */
static const char *const attributes[] = {
	"name", "desc", "latency", "residency", "disable", "default_status", "power",
	"usage", "time", "above", "below", NULL,
};

static char *cpuidle_dir;

/* Leaves DIR/state0 .. stateN empty of every attribute and removes the directories. */
static void clear_dir(void)
{
	for (unsigned int i = 0; i < FUZZ_SYSFS_STATES; i++) {
		g_autofree char *state = g_strdup_printf("%s/state%u", cpuidle_dir, i);

		for (const char *const *a = attributes; *a; a++) {
			g_autofree char *file = g_build_filename(state, *a, NULL);

			FUZZ_ASSERT(unlink(file) == 0 || errno == ENOENT);
		}
		FUZZ_ASSERT(rmdir(state) == 0 || errno == ENOENT);
	}
}

static void remove_dir(void)
{
	clear_dir();
	rmdir(cpuidle_dir);
}

static bool known_attribute(const char *name)
{
	for (const char *const *a = attributes; *a; a++)
		if (!strcmp(*a, name))
			return true;
	return false;
}

/* One input line: "STATE" or "STATE ATTRIBUTE CONTENTS"; lines of another shape are ignored. */
static void make_entry(const char *line, size_t len, bool newline)
{
	g_autofree char *text = g_strndup(line, len);
	g_autofree char *state = NULL, *file = NULL;
	char *attr, *contents, *end;
	unsigned long i;
	FILE *f;

	i = strtoul(text, &end, 10);
	if (end == text || i >= FUZZ_SYSFS_STATES || (*end && *end != ' '))
		return;
	state = g_strdup_printf("%s/state%lu", cpuidle_dir, i);
	FUZZ_ASSERT(mkdir(state, 0700) == 0 || errno == EEXIST);
	if (!*end)
		return;
	attr = end + 1;
	contents = strchr(attr, ' ');
	if (!contents)
		return;
	*contents++ = '\0';
	if (!known_attribute(attr))
		return;
	file = g_build_filename(state, attr, NULL);
	f = fopen(file, "w");
	FUZZ_ASSERT(f);
	/* The contents may hold NUL bytes: written by length, not as a string. */
	fwrite(contents, 1, len - (size_t)(contents - text), f);
	if (newline)
		fputc('\n', f);
	FUZZ_ASSERT(fclose(f) == 0);
}

static void make_dir(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;

	if (!cpuidle_dir) {
		cpuidle_dir = g_dir_make_tmp("teosim-fuzz-sysfs-XXXXXX", NULL);
		FUZZ_ASSERT(cpuidle_dir);
		atexit(remove_dir);
	}
	clear_dir();
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *stop = nl ? nl : end;

		make_entry(s, (size_t)(stop - s), nl != NULL);
		s = stop + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *spec = NULL;

	make_dir(data, size);
	spec = g_strconcat("sysfs:", cpuidle_dir, NULL);
	fuzz_platform_round_trip(spec);
	return 0;
}

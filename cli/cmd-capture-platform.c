// SPDX-License-Identifier: GPL-2.0
/* teosim capture-platform: a machine's idle-state table, stored as a platform file. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "kvline.h"
#include "options.h"
#include "platform-write.h"

#define SYSFS_CPUIDLE	"/sys/devices/system/cpu/cpu0/cpuidle"

/* The platform's name: the output file's base name, as for bundled platforms. */
static char *name_from_output(const char *output)
{
	g_autofree char *base = g_path_get_basename(output);

	if (g_str_has_suffix(base, PLATFORM_SUFFIX) && strlen(base) > strlen(PLATFORM_SUFFIX))
		base[strlen(base) - strlen(PLATFORM_SUFFIX)] = '\0';
	return g_strdup(base);
}

static int capture_platform(const char *dir, const char *output, const char *name)
{
	g_autofree char *spec = g_strconcat("sysfs:", dir, NULL);
	g_autofree char *own_name = name ? g_strdup(name) : name_from_output(output);
	struct platform p;
	GError *error = NULL;
	bool ok;

	if (!platform_load(spec, &p, &error))
		return teosim_fail(error);
	ok = platform_save(output, &p, own_name, &error);
	if (ok)
		printf("%s: platform %s, %u idle states\n", output, own_name, p.state_count);
	platform_clear(&p);
	return ok ? 0 : teosim_fail(error);
}

int cmd_capture_platform(int argc, char **argv)
{
	g_autofree char *dir = NULL, *output = NULL, *name = NULL;
	const GOptionEntry entries[] = {
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &dir,
		  "A cpuidle directory or a copy of one (default " SYSFS_CPUIDLE ")", "DIR" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "The platform file to write", "FILE" },
		{ "name", 0, 0, G_OPTION_ARG_STRING, &name,
		  "The platform's name (default: FILE's base name)", "NAME" },
		G_OPTION_ENTRY_NULL
	};

	if (!teosim_parse_options(&argc, &argv, "",
				  "Reads a machine's idle states (name, exit latency, target residency,\n"
				  "disabled) from sysfs and writes them as a platform file for --platform,\n"
				  "so that an imported capture is replayed with the states it ran on.",
				  entries))
		return 2;
	if (argc != 1 || !output) {
		fprintf(stderr, "teosim capture-platform: need -o FILE and no arguments\n");
		return 2;
	}
	return capture_platform(dir ? dir : SYSFS_CPUIDLE, output, name);
}

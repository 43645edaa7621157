// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "data-dir.h"

/* Whether /proc/self/exe lies under the build tree this file was compiled in. */
static bool running_from_build_tree(void)
{
	g_autofree char *build = realpath(TEOSIM_BUILD_ROOT, NULL);
	g_autofree char *exe = realpath("/proc/self/exe", NULL);
	size_t n;

	if (!build || !exe)
		return false;
	n = strlen(build);
	return !strncmp(exe, build, n) && exe[n] == '/';
}

const char *teosim_data_dir(void)
{
	static const char *dir;

	if (g_once_init_enter(&dir)) {
		const char *env = g_getenv("TEOSIM_DATA_DIR");
		const char *found = env && *env ? env :
				    running_from_build_tree() ? TEOSIM_SOURCE_DATA_DIR :
				    TEOSIM_INSTALLED_DATA_DIR;

		g_once_init_leave(&dir, found);
	}
	return dir;
}

const char *teosim_kshim_dir(void)
{
	return running_from_build_tree() ? TEOSIM_SOURCE_ROOT "/kshim" :
					   TEOSIM_INSTALLED_DATA_DIR "/kshim";
}

const char *teosim_governor_sources_dir(void)
{
	return running_from_build_tree() ? TEOSIM_BUILD_ROOT "/teo" :
					   TEOSIM_INSTALLED_DATA_DIR "/governors";
}

// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include <gmodule.h>
#include <kshim/module.h>

#include "kvline.h"
#include "load.h"

bool module_arg_is_path(const char *arg)
{
	return strchr(arg, '/') || g_str_has_suffix(arg, G_MODULE_SUFFIX);
}

/* The modules loaded so far, by real path: each is opened once. */
static GHashTable *loaded;
G_LOCK_DEFINE_STATIC(loaded);

/* The dynamic linker's "undefined symbol: X", told as what the module lacks. */
static void explain_open_failure(const char *path, GError **error)
{
	const char *why = g_module_error();
	const char *undefined = why ? strstr(why, "undefined symbol: ") : NULL;

	if (undefined)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: the governor uses %s, which kshim does not provide "
			    "(teosim build-governor names the line)",
			    path, undefined + strlen("undefined symbol: "));
	else
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: cannot load it: %s", path, why ? why : "unknown error");
}

static const struct kshim_governor *open_module(const char *path, GError **error)
{
	const struct kshim_module_info *info;
	const struct kshim_governor *gov;
	GModule *module;
	char err[256];

	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%s: no such governor module", path);
		return NULL;
	}
	/* Every symbol now, so that a missing one is an error here, not a crash later. */
	module = g_module_open(path, G_MODULE_BIND_LOCAL);
	if (!module) {
		explain_open_failure(path, error);
		return NULL;
	}
	if (!g_module_symbol(module, KSHIM_MODULE_SYMBOL, (gpointer *)&info) || !info) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: not a teosim governor module (no %s): build it with teosim build-governor",
			    path, KSHIM_MODULE_SYMBOL);
		g_module_close(module);
		return NULL;
	}
	gov = kshim_registry_add_module(info, err, sizeof(err));
	if (!gov) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s: %s", path, err);
		g_module_close(module);
		return NULL;
	}
	/* The registry keeps pointers into it. */
	g_module_make_resident(module);
	return gov;
}

const struct kshim_governor *module_load(const char *path, GError **error)
{
	g_autofree char *real = realpath(path, NULL);
	const struct kshim_governor *gov;

	G_LOCK(loaded);
	if (!loaded)
		loaded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	gov = real ? g_hash_table_lookup(loaded, real) : NULL;
	if (!gov) {
		gov = open_module(real ? real : path, error);
		if (gov)
			g_hash_table_insert(loaded, g_steal_pointer(&real), (gpointer)gov);
	}
	G_UNLOCK(loaded);
	return gov;
}

// SPDX-License-Identifier: GPL-2.0
#include "calllog.h"
#include "governor-arg.h"
#include "kvline.h"
#include "load.h"

const struct kshim_governor *teosim_find_governor(const char *name, GError **error)
{
	const struct kshim_governor *g;
	g_autoptr(GString) known = NULL;

	if (module_arg_is_path(name))
		return module_load(name, error);
	g = kshim_governor_find(name);
	if (g)
		return g;
	known = g_string_new(NULL);
	for (size_t i = 0; i < kshim_governor_count(); i++)
		g_string_append_printf(known, "%s%s", i ? ", " : "",
				       kshim_governor_at(i)->meta->name);
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "unknown governor '%s' (built in: %s; or a module's path, from teosim build-governor)", name,
		    known->len ? known->str : "none");
	return NULL;
}

const struct kshim_governor *teosim_log_governor(const char *name, const char *path,
						 GError **error)
{
	struct calllog_reader *r;
	const struct kshim_governor *g = NULL;

	if (name)
		return teosim_find_governor(name, error);
	r = calllog_open(path, error);
	if (!r)
		return NULL;
	if (calllog_header(r)->governor[0])
		g = teosim_find_governor(calllog_header(r)->governor, error);
	else
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s names no governor: give --governor NAME", path);
	calllog_close(r);
	return g;
}

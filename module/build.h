/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teosim build-governor: compiles one governor source, unmodified, against
 * kshim's headers into a module that every command loads by path
 * (load.h), with the same identity as a built-in governor: name, API
 * generation, origin, path, and the SHA-256 of the exact file compiled.
 */
#ifndef TEOSIM_MODULE_BUILD_H
#define TEOSIM_MODULE_BUILD_H

#include <glib.h>
#include <kshim/registry.h>

struct module_request {
	/* Either a governor source file ... */
	const char *source;
	/* ... or a built-in governor's name, with a patch to apply or none. */
	const char *base;
	const char *patch;
	/* The API generation; NULL: the kernel tree's that source lies in, or the base's. */
	const char *api;
	/* The governor's name; NULL: output's file name without its suffix. */
	const char *name;
	/* The module file to write. */
	const char *output;
};

/*
 * Builds the module and loads it, to prove it loads; writes output only
 * when all went well.  Returns its governor, or NULL with an error that
 * names the file, line and what is missing, or the hunk that did not apply.
 * The compiler is $CC, or cc.
 */
const struct kshim_governor *module_build(const struct module_request *r, GError **error);

#endif /* TEOSIM_MODULE_BUILD_H */

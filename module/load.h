/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Governor modules: a governor source compiled at run time into a shared
 * object (build.h), loaded with GModule and added to kshim's registry, so
 * that every command that takes a governor takes one by path too.
 */
#ifndef TEOSIM_MODULE_LOAD_H
#define TEOSIM_MODULE_LOAD_H

#include <stdbool.h>

#include <glib.h>
#include <kshim/registry.h>

/* Whether a governor argument names a module file rather than a governor. */
bool module_arg_is_path(const char *arg);

/*
 * Loads the module at path, once per file, and returns its governor; NULL
 * with an error naming the file and what is wrong with it.  Modules stay
 * loaded until the program ends.
 */
const struct kshim_governor *module_load(const char *path, GError **error);

#endif /* TEOSIM_MODULE_LOAD_H */

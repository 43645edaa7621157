/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel API generation a governor source is built against: the one
 * given, or the one of the kernel tree the source lies in.  kshim provides
 * three (kshim/include/kshim/api.h); any other version is refused rather
 * than guessed, since a governor compiled against the wrong generation's
 * structs could build and still decide wrongly.
 */
#ifndef TEOSIM_MODULE_KERNEL_API_H
#define TEOSIM_MODULE_KERNEL_API_H

#include <stdbool.h>

#include <glib.h>

/* The generations kshim provides, for messages: "4.20, 6.1 and 6.12". */
#define KERNEL_API_LIST	"4.20, 6.1 and 6.12"

struct kernel_api {
	const char *name;	/* "4.20", "6.1", "6.12" */
	const char *define;	/* the KSHIM_API value: "420", "601", "612" */
};

/* The generation called name ("6.12"), or NULL with an error. */
const struct kernel_api *kernel_api_named(const char *name, GError **error);

/*
 * The version that a top-level kernel Makefile's text sets: "6.12.38" from
 * its first VERSION, PATCHLEVEL and SUBLEVEL lines, each a number.  NULL
 * with an error naming makefile, the line and the field otherwise.
 */
char *kernel_version_parse(const char *text, const char *makefile, GError **error);

/*
 * The version of the kernel tree whose top-level Makefile is at path
 * ("6.12.38" from its VERSION, PATCHLEVEL and SUBLEVEL lines); NULL with
 * an error naming the file, line and field when it cannot be read.
 */
char *kernel_tree_version(const char *makefile, GError **error);

/*
 * The root of the kernel tree that holds file: the nearest directory above
 * it whose Makefile sets VERSION.  NULL when there is none.
 */
char *kernel_tree_root(const char *file);

/*
 * The generation of the tree at root, by its version's VERSION.PATCHLEVEL;
 * NULL with an error when kshim provides none for it.
 */
const struct kernel_api *kernel_api_of_tree(const char *root, GError **error);

#endif /* TEOSIM_MODULE_KERNEL_API_H */

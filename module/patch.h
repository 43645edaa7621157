/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Applying a patch to a governor source, with the rules of the kernel's
 * Documentation/process/applying-patches.rst: paths from the top of the
 * tree after one leading component (a/, b/), applied by GNU patch -p1, but
 * with no fuzz, as git apply would, so that a hunk whose context moved is
 * an error and not a change in the wrong place.
 */
#ifndef TEOSIM_MODULE_PATCH_H
#define TEOSIM_MODULE_PATCH_H

#include <stdbool.h>

#include <glib.h>

/*
 * Applies the patch file to the tree at dir, in which only the files of
 * one governor are.  On failure the error names the patch, the file and
 * each hunk that did not apply, with its @@ line.
 */
bool patch_apply(const char *patch, const char *dir, GError **error);

/*
 * The "@@ ... @@" line of hunk number (from 1) of the patch text's first
 * section that changes file (a path after -p1), or NULL.
 */
char *patch_hunk_header(const char *text, const char *file, unsigned int number);

#endif /* TEOSIM_MODULE_PATCH_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output directory written whole or not at all: everything goes to a
 * new directory beside it, renamed onto it once complete.  The output must
 * not exist yet, or be empty: a sweep never mixes its files with an older
 * run's, and a failed sweep leaves nothing behind.
 */
#ifndef TEOSIM_SWEEP_OUT_DIR_H
#define TEOSIM_SWEEP_OUT_DIR_H

#include <stdbool.h>

#include <glib.h>

struct out_dir {
	char *path;	/* the output */
	char *tmp;	/* write here */
};

bool out_dir_open(struct out_dir *d, const char *path, GError **error);
/* With ok, renames tmp onto the output (ok false, or a failed rename: removes tmp). */
bool out_dir_finish(struct out_dir *d, bool ok, GError **error);

#endif /* TEOSIM_SWEEP_OUT_DIR_H */

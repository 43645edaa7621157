/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where teosim's bundled data is: the platforms, scenarios and example
 * traces of the source tree's traces/ directory, which meson install copies
 * to DATADIR/teosim.
 */
#ifndef TEOSIM_DATA_DIR_H
#define TEOSIM_DATA_DIR_H

/*
 * $TEOSIM_DATA_DIR when set; else the source tree's traces/ when the
 * running program is one of the build tree's, so that an uninstalled teosim
 * never reads an older installed copy; else the installed DATADIR/teosim.
 */
const char *teosim_data_dir(void);

/*
 * What teosim build-governor compiles a governor against: kshim's headers
 * and module entry (the source tree's kshim/ when running from the build
 * tree, else the installed DATADIR/teosim/kshim), and the built-in
 * governors' own sources, by API directory (v8/, 6.1/, 6.12/: the build
 * tree's teo/, else DATADIR/teosim/governors).
 */
const char *teosim_kshim_dir(void);
const char *teosim_governor_sources_dir(void);

#endif /* TEOSIM_DATA_DIR_H */

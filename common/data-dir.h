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

#endif /* TEOSIM_DATA_DIR_H */

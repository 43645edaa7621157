/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiler's errors on a governor source, told as what the governor
 * needs of the kernel that kshim lacks: the function, name, type, field
 * or header, with the line of the governor that uses it.
 */
#ifndef TEOSIM_MODULE_DIAGNOSTICS_H
#define TEOSIM_MODULE_DIAGNOSTICS_H

/*
 * One line per thing missing, each "FILE:LINE: uses WHAT, which kshim's
 * API API does not provide", in the order the compiler found them and
 * each once; NULL when output holds no such error (the caller then shows
 * the compiler's own words).  output is gcc's, with LC_ALL=C.
 */
char *diagnostics_missing(const char *output, const char *api);

#endif /* TEOSIM_MODULE_DIAGNOSTICS_H */

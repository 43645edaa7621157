/* SPDX-License-Identifier: GPL-2.0 */
/* Strings in CSV and JSON output, quoted as each format needs. */
#ifndef TEOSIM_SIM_TEXT_OUT_H
#define TEOSIM_SIM_TEXT_OUT_H

#include <stdio.h>

/* A CSV field: as it is, or in double quotes when it holds a comma, a quote or a line end. */
void csv_field(FILE *out, const char *s);
/* A JSON string, quotes included. */
void json_string(FILE *out, const char *s);

#endif /* TEOSIM_SIM_TEXT_OUT_H */

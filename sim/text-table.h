/* SPDX-License-Identifier: GPL-2.0 */
/* Aligned text tables: the first column left-aligned, the others right-aligned. */
#ifndef TEOSIM_SIM_TEXT_TABLE_H
#define TEOSIM_SIM_TEXT_TABLE_H

#include <stdio.h>

#include <glib.h>

struct text_table;

struct text_table *text_table_new(void);
void text_table_free(struct text_table *t);
/* Starts a row; the cells that follow belong to it. */
void text_table_row(struct text_table *t);
void text_table_cell(struct text_table *t, const char *text);
void text_table_cellf(struct text_table *t, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void text_table_print(const struct text_table *t, FILE *out);

#endif /* TEOSIM_SIM_TEXT_TABLE_H */

// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>

#include "text-table.h"

struct text_table {
	GPtrArray *rows;	/* of GPtrArray of char * */
};

struct text_table *text_table_new(void)
{
	struct text_table *t = g_new0(struct text_table, 1);

	t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	return t;
}

void text_table_free(struct text_table *t)
{
	if (!t)
		return;
	g_ptr_array_unref(t->rows);
	g_free(t);
}

void text_table_row(struct text_table *t)
{
	g_ptr_array_add(t->rows, g_ptr_array_new_with_free_func(g_free));
}

void text_table_cell(struct text_table *t, const char *text)
{
	g_ptr_array_add(g_ptr_array_index(t->rows, t->rows->len - 1), g_strdup(text));
}

void text_table_cellf(struct text_table *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(g_ptr_array_index(t->rows, t->rows->len - 1), g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

void text_table_print(const struct text_table *t, FILE *out)
{
	g_autoptr(GArray) width = g_array_new(FALSE, TRUE, sizeof(int));

	for (guint r = 0; r < t->rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(t->rows, r);

		if (width->len < row->len)
			g_array_set_size(width, row->len);
		for (guint c = 0; c < row->len; c++) {
			int w = (int)g_utf8_strlen(g_ptr_array_index(row, c), -1);

			g_array_index(width, int, c) = MAX(g_array_index(width, int, c), w);
		}
	}
	for (guint r = 0; r < t->rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(t->rows, r);

		for (guint c = 0; c < row->len; c++) {
			const char *s = g_ptr_array_index(row, c);
			int pad = g_array_index(width, int, c) - (int)g_utf8_strlen(s, -1);

			if (c == 0)
				fprintf(out, "%s%*s", s, c + 1 < row->len ? pad : 0, "");
			else
				fprintf(out, "  %*s%s", pad, "", s);
		}
		fputc('\n', out);
	}
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One document written twice: as Markdown and as a self-contained HTML
 * page (figures embedded as data URIs), from the same calls, so the two
 * never say different things.
 */
#ifndef TEOSIM_SWEEP_DOC_H
#define TEOSIM_SWEEP_DOC_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

struct doc {
	FILE *md, *html;
	const char *dir;	/* where relative links and figures are */
	unsigned int columns;	/* of the table being written */
};

/* Starts both files (dir/NAME.md, dir/NAME.html); the title heads both. */
bool doc_open(struct doc *d, const char *dir, const char *name, const char *title,
	      GError **error);
/* Ends the HTML and closes both; false on any write error. */
bool doc_close(struct doc *d, GError **error);

void doc_heading(struct doc *d, unsigned int level, const char *text);
void doc_para(struct doc *d, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void doc_table_begin(struct doc *d, unsigned int columns, const char *const *headers);
void doc_table_row(struct doc *d, const char *const *cells);
void doc_table_end(struct doc *d);
/* "label: text1 · text2 ...", each a link to a file under dir. */
void doc_links(struct doc *d, const char *label, unsigned int n, const char *const *texts,
	       const char *const *hrefs);
/* A figure: the SVG at dir/path, linked from Markdown and embedded in the HTML. */
void doc_figure(struct doc *d, const char *path, const char *caption);

#endif /* TEOSIM_SWEEP_DOC_H */

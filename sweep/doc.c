// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "doc.h"
#include "kvline.h"
#include "small-file.h"

/* A figure larger than this is linked, not embedded. */
#define FIGURE_EMBED_MAX	(8u << 20)

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* Markdown: a cell's '|' would end the cell. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

bool doc_open(struct doc *d, const char *dir, const char *name, const char *title,
	      GError **error)
{
	g_autofree char *md = g_strdup_printf("%s/%s.md", dir, name);
	g_autofree char *html = g_strdup_printf("%s/%s.html", dir, name);

	memset(d, 0, sizeof(*d));
	d->dir = dir;
	if (!(d->md = fopen(md, "w")) || !(d->html = fopen(html, "w"))) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", d->md ? html : md,
			    g_strerror(errno));
		if (d->md)
			fclose(d->md);
		return false;
	}
	fprintf(d->md, "# %s\n", title);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
	      d->html);
	html_text(d->html, title);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em; }\n"
	      "table { border-collapse: collapse; margin: 1em 0; }\n"
	      "th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }\n"
	      "th:first-child, td:first-child, th:nth-child(2), td:nth-child(2) { text-align: left; }\n"
	      "img { max-width: 100%; }\n"
	      "</style>\n</head>\n<body>\n<h1>", d->html);
	html_text(d->html, title);
	fputs("</h1>\n", d->html);
	return true;
}

bool doc_close(struct doc *d, GError **error)
{
	bool ok;

	fputs("</body>\n</html>\n", d->html);
	ok = !ferror(d->md) && !ferror(d->html);
	ok &= fclose(d->md) == 0;
	ok &= fclose(d->html) == 0;
	if (!ok)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: writing the report failed",
			    d->dir);
	return ok;
}

void doc_heading(struct doc *d, unsigned int level, const char *text)
{
	fprintf(d->md, "\n%.*s %s\n", (int)MIN(level, 6), "######", text);
	fprintf(d->html, "<h%u>", level);
	html_text(d->html, text);
	fprintf(d->html, "</h%u>\n", level);
}

/* Text with Markdown's `code` spans, in HTML. */
static void html_inline(FILE *f, const char *text)
{
	g_auto(GStrv) parts = g_strsplit(text, "`", -1);

	for (unsigned int i = 0; parts[i]; i++) {
		/* Odd parts are inside backticks, unless the last backtick has no match. */
		bool code = i % 2 && parts[i + 1];

		if (i % 2 && !code)
			fputc('`', f);
		fputs(code ? "<code>" : "", f);
		html_text(f, parts[i]);
		fputs(code ? "</code>" : "", f);
	}
}

void doc_para(struct doc *d, const char *fmt, ...)
{
	g_autofree char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fprintf(d->md, "\n%s\n", text);
	fputs("<p>", d->html);
	html_inline(d->html, text);
	fputs("</p>\n", d->html);
}

void doc_table_begin(struct doc *d, unsigned int columns, const char *const *headers)
{
	d->columns = columns;
	fputs("\n|", d->md);
	fputs("<table>\n<tr>", d->html);
	for (unsigned int c = 0; c < columns; c++) {
		fputc(' ', d->md);
		md_cell(d->md, headers[c]);
		fputs(" |", d->md);
		fputs("<th>", d->html);
		html_text(d->html, headers[c]);
		fputs("</th>", d->html);
	}
	fputs("\n|", d->md);
	for (unsigned int c = 0; c < columns; c++)
		fputs(c < 2 ? " --- |" : " ---: |", d->md);
	fputs("</tr>\n", d->html);
	fputc('\n', d->md);
}

void doc_table_row(struct doc *d, const char *const *cells)
{
	fputc('|', d->md);
	fputs("<tr>", d->html);
	for (unsigned int c = 0; c < d->columns; c++) {
		fputc(' ', d->md);
		md_cell(d->md, cells[c]);
		fputs(" |", d->md);
		fputs("<td>", d->html);
		html_text(d->html, cells[c]);
		fputs("</td>", d->html);
	}
	fputc('\n', d->md);
	fputs("</tr>\n", d->html);
}

void doc_table_end(struct doc *d)
{
	fputs("</table>\n", d->html);
}

void doc_links(struct doc *d, const char *label, unsigned int n, const char *const *texts,
	       const char *const *hrefs)
{
	fprintf(d->md, "\n%s:", label);
	fputs("<p>", d->html);
	html_text(d->html, label);
	fputc(':', d->html);
	for (unsigned int i = 0; i < n; i++) {
		fprintf(d->md, "%s [%s](%s)", i ? " ·" : "", texts[i], hrefs[i]);
		fputs(i ? " · <a href=\"" : " <a href=\"", d->html);
		html_text(d->html, hrefs[i]);
		fputs("\">", d->html);
		html_text(d->html, texts[i]);
		fputs("</a>", d->html);
	}
	fputc('\n', d->md);
	fputs("</p>\n", d->html);
}

void doc_figure(struct doc *d, const char *path, const char *caption)
{
	g_autofree char *full = g_build_filename(d->dir, path, NULL);
	g_autofree char *svg = NULL;
	size_t len;

	fprintf(d->md, "\n![%s](%s)\n", caption, path);
	fputs("<figure>", d->html);
	if (small_file_read(full, FIGURE_EMBED_MAX, &svg, &len, NULL)) {
		g_autofree char *b64 = g_base64_encode((const guchar *)svg, len);

		fprintf(d->html, "<img src=\"data:image/svg+xml;base64,%s\" alt=\"", b64);
	} else {
		fputs("<img src=\"", d->html);
		html_text(d->html, path);
		fputs("\" alt=\"", d->html);
	}
	html_text(d->html, caption);
	fputs("\"><figcaption>", d->html);
	html_text(d->html, caption);
	fputs("</figcaption></figure>\n", d->html);
}

// SPDX-License-Identifier: GPL-2.0
/* Writing an imported workload: the trace, with where it came from and its notes as comments. */
#include "convert.h"
#include "trace-write.h"

void imported_write(FILE *out, const struct imported *im, const char *capture_path)
{
	/* Escaped: a newline in the path would end the comment. */
	g_autofree char *path = g_strescape(capture_path, NULL);

	trace_write_header(out, &im->header);
	fprintf(out, "# imported by teosim import from %s\n", path);
	for (guint i = 0; i < im->notes->len; i++) {
		/* A note names events from the capture, whose names a broken .dat may garble. */
		g_autofree char *note = g_strdelimit(g_strdup(g_ptr_array_index(im->notes, i)),
						     "\n\r", ' ');

		fprintf(out, "# note: %s\n", note);
	}
	for (guint i = 0; i < im->events->len; i++)
		trace_write_event(out, &g_array_index(im->events, struct trace_event, i));
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>

#include "input-file.h"
#include "kvline.h"
#include "small-file.h"

bool small_file_read(const char *path, size_t max, char **text, size_t *len, GError **error)
{
	FILE *f;
	char *buf;
	size_t n;

	*text = NULL;
	if (!(f = input_fopen(path, "rb", error)))
		return false;
	/* One byte past the limit tells a file of exactly max bytes from a larger one. */
	buf = g_malloc(max + 2);
	n = fread(buf, 1, max + 1, f);
	if (ferror(f)) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "%s: %s", path,
			    g_strerror(errno));
		fclose(f);
		g_free(buf);
		return false;
	}
	fclose(f);
	if (n > max) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: larger than %zu bytes: not a file of this kind", path, max);
		g_free(buf);
		return false;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return true;
}

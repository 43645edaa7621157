// SPDX-License-Identifier: GPL-2.0
/* Built without libtracecmd: .dat files are refused with the way around it. */
#include "capture.h"
#include "kvline.h"

bool capture_read_dat(const char *path, struct capture *c, GError **error)
{
	(void)c;
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "%s: a trace-cmd .dat file, but this teosim was built without libtracecmd "
		    "(apt-get install libtracecmd-dev libtracefs-dev, then reconfigure); "
		    "or import the text of 'trace-cmd report -i %s'", path, path);
	return false;
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "gnuplot.h"
#include "kvline.h"

char *gnuplot_find(void)
{
	return g_find_program_in_path("gnuplot");
}

static FILE *open_in(const char *dir, const char *name, const char *ext, GError **error)
{
	g_autofree char *path = g_strdup_printf("%s/%s.%s", dir, name, ext);
	FILE *f = fopen(path, "w");

	if (!f)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", path, g_strerror(errno));
	return f;
}

static bool close_in(FILE *f, const char *dir, const char *name, const char *ext,
		     GError **error)
{
	if (fclose(f) != 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s/%s.%s: %s",
			    dir, name, ext, g_strerror(errno));
		return false;
	}
	return true;
}

FILE *plot_data_open(const char *dir, const char *name, GError **error)
{
	return open_in(dir, name, "dat", error);
}

bool plot_data_close(FILE *f, const char *dir, const char *name, GError **error)
{
	return close_in(f, dir, name, "dat", error);
}

FILE *gnuplot_script_begin(const char *dir, const char *name, const char *what,
			   GError **error)
{
	FILE *gp = open_in(dir, name, "gp", error);

	if (!gp)
		return NULL;
	fprintf(gp, "# teosim figure: %s.\n"
		    "# Data: %s.dat.  Edit freely; 'gnuplot %s.gp' redraws %s.png and %s.svg.\n\n"
		    "set terminal pngcairo size %d,%d enhanced font 'DejaVu Sans,10'\n"
		    "set output '%s.png'\n"
		    "set grid ytics lc rgb '#dddddd'\n\n",
		what, name, name, name, name, PLOT_WIDTH, PLOT_HEIGHT, name);
	return gp;
}

bool gnuplot_script_end(FILE *gp, const char *name, GError **error)
{
	fprintf(gp, "\nset terminal svg size %d,%d dynamic enhanced font 'DejaVu Sans,10'\n"
		    "set output '%s.svg'\nreplot\n", PLOT_WIDTH, PLOT_HEIGHT, name);
	if (fclose(gp) != 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s.gp: %s", name,
			    g_strerror(errno));
		return false;
	}
	return true;
}

bool gnuplot_render(const char *gnuplot, const char *dir, const char *name, GError **error)
{
	g_autofree char *script = g_strdup_printf("%s.gp", name);
	g_autofree char *err = NULL;
	const char *argv[] = { gnuplot, script, NULL };
	int status;

	if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
			  NULL, &err, &status, error))
		return false;
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "gnuplot %s/%s failed: %s",
			    dir, script, err && *err ? g_strchomp(err) : "no message");
		return false;
	}
	return true;
}

// SPDX-License-Identifier: GPL-2.0

#include "gnuplot.h"
#include "kvline.h"
#include "out-file.h"

char *gnuplot_find(void)
{
	return g_find_program_in_path("gnuplot");
}

/* Written whole or not at all (out-file.h): a failed run leaves older figures as they were. */
static struct out_file *open_in(const char *dir, const char *name, const char *ext,
				GError **error)
{
	g_autofree char *path = g_strdup_printf("%s/%s.%s", dir, name, ext);

	return out_file_open(path, error);
}

struct out_file *plot_data_open(const char *dir, const char *name, GError **error)
{
	return open_in(dir, name, "dat", error);
}

bool plot_data_close(struct out_file *dat, GError **error)
{
	return out_file_commit(dat, error);
}

struct out_file *gnuplot_script_begin(const char *dir, const char *name, const char *what,
				      GError **error)
{
	struct out_file *gp = open_in(dir, name, "gp", error);

	if (!gp)
		return NULL;
	fprintf(gp->f, "# teosim figure: %s.\n"
		    "# Data: %s.dat.  Edit freely; 'gnuplot %s.gp' redraws %s.png and %s.svg.\n\n"
		    "set terminal pngcairo size %d,%d enhanced font 'DejaVu Sans,10'\n"
		    "set output '%s.png'\n"
		    "set grid ytics lc rgb '#dddddd'\n\n",
		what, name, name, name, name, PLOT_WIDTH, PLOT_HEIGHT, name);
	return gp;
}

bool gnuplot_script_end(struct out_file *gp, const char *name, GError **error)
{
	fprintf(gp->f, "\nset terminal svg size %d,%d dynamic enhanced font 'DejaVu Sans,10'\n"
		    "set output '%s.svg'\nreplot\n", PLOT_WIDTH, PLOT_HEIGHT, name);
	return out_file_commit(gp, error);
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

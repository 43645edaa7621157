// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include <gmodule.h>

#include "build.h"
#include "build-flags.h"
#include "data-dir.h"
#include "diagnostics.h"
#include "kernel-api.h"
#include "kvline.h"
#include "leftovers.h"
#include "load.h"
#include "out-file.h"
#include "patch.h"

/* The symbol of the generated identity (kshim/include/kshim/initcall.h). */
#define META_SYMBOL	"kshim_module_meta"

/* One governor source ready to compile, and who it is. */
struct job {
	char *dir;		/* the temporary directory, removed after */
	char *cwd;		/* where the compiler runs: NULL for here */
	char *source;		/* the file compiled, from cwd */
	const struct kernel_api *api;
	char *name;
	char *origin;
	char *path;		/* the file's path inside its origin */
};

static void job_clear(struct job *j)
{
	if (j->dir)
		leftovers_remove(j->dir);
	g_free(j->dir);
	g_free(j->cwd);
	g_free(j->source);
	g_free(j->name);
	g_free(j->origin);
	g_free(j->path);
}

static bool invalid(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool invalid(GError **error, const char *fmt, ...)
{
	g_autofree char *message = NULL;
	va_list ap;

	va_start(ap, fmt);
	message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, message);
	return false;
}

/* A name that tables, file names and key files all take as it is. */
static bool name_ok(const char *name)
{
	return *name && strlen(name) < 64 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") ==
		       strlen(name);
}

static bool choose_name(const struct module_request *r, struct job *j, GError **error)
{
	g_autofree char *base = g_path_get_basename(r->output);

	if (r->name)
		j->name = g_strdup(r->name);
	else if (g_str_has_suffix(base, "." G_MODULE_SUFFIX))
		j->name = g_strndup(base, strlen(base) - strlen("." G_MODULE_SUFFIX));
	else
		j->name = g_strdup(base);
	if (!name_ok(j->name))
		return invalid(error, "governor name '%s': use letters, digits and . _ + - (at most 63)",
			       j->name);
	if (kshim_governor_find(j->name))
		return invalid(error, "governor name '%s' is taken by a governor already here: "
			       "give the module another name (--name)", j->name);
	return true;
}

/* A source file of a kernel tree, or of none with the API given. */
static bool prepare_source(const struct module_request *r, struct job *j, GError **error)
{
	g_autofree char *real = realpath(r->source, NULL);
	g_autofree char *root = NULL;
	g_autofree char *version = NULL;

	if (!real || !g_file_test(real, G_FILE_TEST_IS_REGULAR)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: no such file", r->source);
		return false;
	}
	root = kernel_tree_root(real);
	if (r->api)
		j->api = kernel_api_named(r->api, error);
	else if (root)
		j->api = kernel_api_of_tree(root, error);
	else
		return invalid(error, "%s: cannot tell which kernel API it was written for: no kernel "
			       "tree above it (a Makefile that sets VERSION); give --api (kshim provides %s)",
			       r->source, KERNEL_API_LIST);
	if (!j->api)
		return false;
	if (root) {
		g_autofree char *makefile = g_build_filename(root, "Makefile", NULL);

		version = kernel_tree_version(makefile, NULL);
		j->origin = g_strdup_printf("Linux %s tree %s", version ? version : "?", root);
		j->path = g_strdup(real + strlen(root) + 1);
	} else {
		j->origin = g_strdup("a file");
		j->path = g_steal_pointer(&real);
	}
	j->source = g_strdup(r->source);
	return true;
}

/* Copies the file at from to to; false with an error naming both. */
static bool copy_file(const char *from, const char *to, GError **error)
{
	g_autofree char *text = NULL;
	gsize len;

	return g_file_get_contents(from, &text, &len, error) &&
	       g_file_set_contents(to, text, (gssize)len, error);
}

static char *file_sha256(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	gsize len;

	if (!g_file_get_contents(path, &text, &len, error))
		return NULL;
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
}

/*
 * The built-in governor's own source, proved to be the file compiled into
 * this teosim, in a tree of its own under the temporary directory, with
 * the patch applied.
 */
static bool prepare_base(const struct module_request *r, struct job *j, GError **error)
{
	const struct kshim_governor *base = kshim_governor_find(r->base);
	g_autofree char *from = NULL, *subdir = NULL, *to = NULL, *file = NULL, *sha = NULL;
	g_autofree char *patch_name = NULL;
	const char *entry;
	GDir *dir;

	if (!base)
		return invalid(error, "--base %s: no such built-in governor (teosim governors lists them)",
			       r->base);
	j->api = kernel_api_named(base->meta->api, error);
	if (!j->api)
		return false;
	if (r->api && strcmp(r->api, base->meta->api))
		return invalid(error, "--api %s: %s is written for the %s API", r->api, r->base,
			       base->meta->api);
	from = g_build_filename(teosim_governor_sources_dir(),
				!strcmp(base->meta->api, "4.20") ? "v8" : base->meta->api, NULL);
	j->path = g_strdup(base->meta->path);
	j->cwd = g_strdup(j->dir);
	subdir = g_path_get_dirname(j->path);
	to = g_build_filename(j->dir, subdir, NULL);
	if (g_mkdir_with_parents(to, 0700))
		return invalid(error, "%s: cannot make it", to);
	dir = g_dir_open(from, 0, error);
	if (!dir) {
		g_prefix_error(error, "the sources of the built-in governors: ");
		return false;
	}
	while ((entry = g_dir_read_name(dir))) {
		g_autofree char *src = g_build_filename(from, entry, NULL);
		g_autofree char *dst = g_build_filename(to, entry, NULL);

		if (!copy_file(src, dst, error)) {
			g_dir_close(dir);
			return false;
		}
	}
	g_dir_close(dir);
	file = g_build_filename(j->dir, j->path, NULL);
	sha = file_sha256(file, error);
	if (!sha)
		return false;
	if (strcmp(sha, base->meta->sha256))
		return invalid(error, "%s: not the source compiled into this teosim's %s "
			       "(SHA-256 %s, not %s)", file, r->base, sha, base->meta->sha256);
	if (r->patch && !patch_apply(r->patch, j->dir, error))
		return false;
	patch_name = r->patch ? g_path_get_basename(r->patch) : NULL;
	j->origin = patch_name ? g_strdup_printf("%s + %s", r->base, patch_name)
			       : g_strdup(r->base);
	j->source = g_strdup(j->path);
	return true;
}

/* The governor's identity as C, beside the sources; the path of the file. */
static char *write_meta(const struct job *j, const char *sha, GError **error)
{
	g_autofree char *name = g_strescape(j->name, NULL);
	g_autofree char *origin = g_strescape(j->origin, NULL);
	g_autofree char *path = g_strescape(j->path, NULL);
	g_autofree char *text = g_strdup_printf(
		"/* Written by teosim build-governor. */\n"
		"#include <kshim/registry.h>\n\n"
		"const struct kshim_governor_meta " META_SYMBOL " = {\n"
		"\t.name = \"%s\",\n\t.api = \"%s\",\n\t.origin = \"%s\",\n"
		"\t.path = \"%s\",\n\t.sha256 = \"%s\",\n};\n",
		name, j->api->name, origin, path, sha);
	char *file = g_build_filename(j->dir, "teosim-meta.c", NULL);

	if (!g_file_set_contents(file, text, -1, error))
		g_clear_pointer(&file, g_free);
	return file;
}

/* The compiler's command: $CC's words, or cc. */
static bool compiler_argv(GPtrArray *argv, GError **error)
{
	const char *cc = g_getenv("CC");
	g_auto(GStrv) words = NULL;

	if (!cc || !*cc)
		cc = "cc";
	if (!g_shell_parse_argv(cc, NULL, &words, error)) {
		g_prefix_error(error, "the compiler command '%s': ", cc);
		return false;
	}
	for (unsigned int i = 0; words[i]; i++)
		g_ptr_array_add(argv, g_strdup(words[i]));
	return true;
}

static bool compile(const struct module_request *r, const struct job *j, const char *meta,
		    const char *out, GError **error)
{
	static const char *const kernel_args[] = { MODULE_KERNEL_C_ARGS };
	const char *kshim = teosim_kshim_dir();
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *output = NULL, *missing = NULL;
	g_auto(GStrv) envp = g_environ_setenv(g_get_environ(), "LC_ALL", "C", TRUE);
	int status;

	if (!compiler_argv(argv, error))
		return false;
	/* As the build compiles a built-in governor (teo/meson.build), into a shared object. */
	for (size_t i = 0; i < G_N_ELEMENTS(kernel_args); i++)
		g_ptr_array_add(argv, g_strdup(kernel_args[i]));
	g_ptr_array_add(argv, g_strdup_printf("-DKSHIM_API=%s", j->api->define));
	g_ptr_array_add(argv, g_strdup("-DKSHIM_GOVERNOR_META=" META_SYMBOL));
	g_ptr_array_add(argv, g_strdup_printf("-I%s/include", kshim));
	g_ptr_array_add(argv, g_strdup_printf("-I%s/api", kshim));
	for (const char *const *a = (const char *const[]){
		     "-std=gnu11", "-O2", "-g", "-fPIC", "-shared", "-D_GNU_SOURCE",
		     /* What kshim lacks is an error with its line, not a symbol missing at load. */
		     "-Werror=implicit-function-declaration", "-Werror=implicit-int",
		     /* The module's sections are its own (kshim/api/kshim/module.h). */
		     "-Wl,-z,start-stop-visibility=hidden", "-o", NULL };
	     *a; a++)
		g_ptr_array_add(argv, g_strdup(*a));
	g_ptr_array_add(argv, g_strdup(out));
	g_ptr_array_add(argv, g_strdup(j->source));
	g_ptr_array_add(argv, g_strdup(meta));
	g_ptr_array_add(argv, g_strdup_printf("%s/module-entry.c", kshim));
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_sync(j->cwd, (char **)argv->pdata, envp, G_SPAWN_SEARCH_PATH |
			  G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &output, &status, error)) {
		g_prefix_error(error, "running the compiler: ");
		return false;
	}
	if (g_spawn_check_wait_status(status, NULL))
		return true;
	missing = diagnostics_missing(output, j->api->name);
	if (missing)
		return invalid(error, "%s does not build against kshim:\n%s", r->source ? r->source :
			       j->origin, missing);
	return invalid(error, "%s does not build against kshim's %s API; the compiler said:\n%s",
		       r->source ? r->source : j->origin, j->api->name, g_strchomp(output));
}

const struct kshim_governor *module_build(const struct module_request *r, GError **error)
{
	struct job j = { 0 };
	const struct kshim_governor *gov = NULL;
	g_autofree char *sha = NULL, *meta = NULL, *compiled = NULL, *written = NULL;
	struct out_file *out = NULL;

	if (!r->source == !r->base) {
		invalid(error, "give a governor source or a built-in governor to start from, not %s",
			r->source ? "both" : "neither");
		return NULL;
	}
	if (r->patch && !r->base) {
		invalid(error, "a patch applies to a built-in governor (--base)");
		return NULL;
	}
	if (!choose_name(r, &j, error))
		goto out;
	j.dir = g_dir_make_tmp("teosim-build-XXXXXX", error);
	if (j.dir)
		leftovers_add(j.dir);
	if (!j.dir || !(r->source ? prepare_source(r, &j, error) : prepare_base(r, &j, error)))
		goto out;
	compiled = j.cwd ? g_build_filename(j.cwd, j.source, NULL) : g_strdup(j.source);
	if (!(sha = file_sha256(compiled, error)) || !(meta = write_meta(&j, sha, error)))
		goto out;
	out = out_file_open(r->output, error);
	if (!out)
		goto out;
	/* The compiler may run elsewhere (j.cwd). */
	written = g_canonicalize_filename(out->tmp, NULL);
	if (!compile(r, &j, meta, written, error) || !(gov = module_load(written, error))) {
		out_file_abort(out);
		gov = NULL;
		goto out;
	}
	if (!out_file_commit(out, error))
		gov = NULL;
out:
	job_clear(&j);
	return gov;
}

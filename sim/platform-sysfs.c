// SPDX-License-Identifier: GPL-2.0
/*
 * A platform read from a CPU's cpuidle directory in sysfs (or a copy of
 * one): /sys/devices/system/cpu/cpuN/cpuidle/stateI/{name,latency,
 * residency,disable,default_status,power}.  latency and residency are in
 * µs; the kernel's poll state is named "POLL".
 */
#include <errno.h>
#include <string.h>

#include "keyfile-lines.h"
#include "kvline.h"
#include "platform-private.h"
#include "small-file.h"

/*
 * sysfs has no busy power and drivers rarely report idle power (intel_idle
 * leaves it 0; the poll state's -1 shows as 4294967295), so teosim
 * assumes: busy 1000 mW, polling as busy, the first other state 30% of
 * busy and each deeper one half the one before.  Reported idle powers are
 * used only when every non-polling state has one (ACPI _CST tables); busy
 * power is then raised to the largest of them if it is below.
 */
#define SYSFS_BUSY_MW		1000.0
#define SYSFS_SHALLOW_SHARE	0.3
#define SYSFS_REPORTED_MAX_MW	1000000
/* A sysfs attribute is at most a page. */
#define SYSFS_ATTR_MAX		4096

#define NAME_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

struct sysfs_ctx {
	const char *dir;
};

/* The sysfs file each key-file key comes from. */
static const char *sysfs_file(const char *key)
{
	if (!key || !strcmp(key, "name") || !strcmp(key, "flags"))
		return "name";
	if (!strcmp(key, "exit_latency_us"))
		return "latency";
	if (!strcmp(key, "target_residency_us"))
		return "residency";
	if (!strcmp(key, "power_mw"))
		return "power";
	return key;
}

static void sysfs_fail(void *ctx, GError **error, int index, const char *key, const char *msg)
{
	const struct sysfs_ctx *c = ctx;

	if (index < 0)
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s: %s", c->dir, msg);
	else
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s/state%d/%s:1: %s: %s",
			    c->dir, index, sysfs_file(key), sysfs_file(key), msg);
}

/*
 * One sysfs attribute: a single line, in *out.  An absent optional file
 * leaves *out NULL and is no error.
 */
static bool read_attr(const char *dir, unsigned int i, const char *file, bool required,
		      char **out, GError **error)
{
	g_autofree char *path = g_strdup_printf("%s/state%u/%s", dir, i, file);
	g_autoptr(GError) err = NULL;
	char *text = NULL;
	size_t len;

	*out = NULL;
	if (!small_file_read(path, SYSFS_ATTR_MAX, &text, &len, &err)) {
		if (!required && g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return true;
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s", err->message);
		return false;
	}
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	if (!len || strlen(text) != len || strchr(text, '\n')) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
			    "%s:1: %s: expected one non-empty line", path, file);
		g_free(text);
		return false;
	}
	*out = text;
	return true;
}

static bool read_u64_attr(const char *dir, unsigned int i, const char *file, bool required,
			  uint64_t max, uint64_t *out, GError **error)
{
	g_autofree char *v = NULL;
	uint64_t n = 0;

	if (!read_attr(dir, i, file, required, &v, error))
		return false;
	if (!v)
		return true;
	for (const char *s = v; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (*s < '0' || *s > '9' || n > (UINT64_MAX - d) / 10 || n * 10 + d > max) {
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
				    "%s/state%u/%s:1: %s: '%s' is not a number from 0 to %"
				    G_GUINT64_FORMAT, dir, i, file, file, v, max);
			return false;
		}
		n = n * 10 + d;
	}
	*out = n;
	return true;
}

static bool read_state(struct sysfs_ctx *c, unsigned int i, struct platform_state *s,
		       uint64_t *power, GError **error)
{
	g_autofree char *name = NULL, *status = NULL;
	uint64_t n, disable = 0;

	if (!read_attr(c->dir, i, "name", true, &name, error))
		return false;
	/*
	 * Drivers name states freely ("haltpoll idle"), but teosim's files
	 * keep names to [A-Za-z0-9_.-]: anything else becomes '_'.
	 */
	g_strcanon(name, NAME_CHARS, '_');
	if (!kf_valid_name(name, KSHIM_STATE_NAME_LEN - 1)) {
		g_autofree char *msg = g_strdup_printf("'%s' is longer than %d characters",
						       name, KSHIM_STATE_NAME_LEN - 1);

		sysfs_fail(c, error, (int)i, "name", msg);
		return false;
	}
	strcpy(s->desc.name, name);
	s->desc.polling = !strcmp(name, "POLL");
	if (!read_u64_attr(c->dir, i, "latency", true, UINT32_MAX, &n, error))
		return false;
	s->desc.exit_latency_us = (uint32_t)n;
	s->exit_cost_us = s->desc.exit_latency_us;
	if (!read_u64_attr(c->dir, i, "residency", true, UINT32_MAX, &n, error))
		return false;
	s->desc.target_residency_us = (uint32_t)n;
	/* The user's switch on this CPU, or the driver's default (6.x "default_status"). */
	if (!read_u64_attr(c->dir, i, "disable", false, 1, &disable, error))
		return false;
	if (!read_attr(c->dir, i, "default_status", false, &status, error))
		return false;
	s->desc.disabled = disable || (status && !strcmp(status, "disabled"));
	*power = 0;
	return read_u64_attr(c->dir, i, "power", false, UINT32_MAX, power, error);
}

static void assume_power(struct platform *p, const uint64_t *reported)
{
	bool all_reported = true;
	double share = SYSFS_SHALLOW_SHARE;

	p->busy_power_mw = SYSFS_BUSY_MW;
	for (unsigned int i = 0; i < p->state_count; i++)
		if (!p->states[i].desc.polling &&
		    (reported[i] == 0 || reported[i] > SYSFS_REPORTED_MAX_MW))
			all_reported = false;
	/* Running costs at least as much as any reported idle state. */
	for (unsigned int i = 0; all_reported && i < p->state_count; i++)
		if (!p->states[i].desc.polling)
			p->busy_power_mw = MAX(p->busy_power_mw, (double)reported[i]);
	for (unsigned int i = 0; i < p->state_count; i++) {
		struct platform_state *s = &p->states[i];

		s->power_assumed = s->desc.polling || !all_reported;
		if (s->desc.polling) {
			s->power_mw = p->busy_power_mw;
		} else if (all_reported) {
			s->power_mw = (double)reported[i];
		} else {
			s->power_mw = SYSFS_BUSY_MW * share;
			share /= 2;
		}
	}
}

bool platform_load_sysfs(const char *dir, struct platform *p, GError **error)
{
	struct sysfs_ctx c = { .dir = dir };
	uint64_t reported[KSHIM_STATE_MAX];
	unsigned int i;

	for (i = 0;; i++) {
		g_autofree char *sub = g_strdup_printf("%s/state%u", dir, i);

		if (!g_file_test(sub, G_FILE_TEST_IS_DIR))
			break;
		if (i == KSHIM_STATE_MAX) {
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
				    "%s: more than %d states", sub, KSHIM_STATE_MAX);
			return false;
		}
		if (!read_state(&c, i, &p->states[i], &reported[i], error))
			return false;
	}
	if (i == 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO,
			    "%s: no state0 directory (not a cpuidle directory, or cpuidle is off)", dir);
		return false;
	}
	p->state_count = i;
	p->name = g_strdup("sysfs");
	p->description = g_strdup_printf("idle states read from %s", dir);
	p->source = g_strdup(dir);
	assume_power(p, reported);
	return platform_check(p, sysfs_fail, &c, error);
}

// SPDX-License-Identifier: GPL-2.0
/* What every capture reader shares: the event list, warnings, the format check. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "input-file.h"
#include "kvline.h"

/* trace-cmd's file magic: 0x17 0x08 0x44, then "tracing". */
static const char dat_magic[] = "\x17\x08\x44tracing";

const char *cap_format_name(enum cap_format f)
{
	switch (f) {
	case CAP_FORMAT_FTRACE:
		return "ftrace text";
	case CAP_FORMAT_REPORT:
		return "trace-cmd report text";
	case CAP_FORMAT_DAT:
		return "trace-cmd .dat";
	}
	return "?";
}

bool cap_kind_of(const char *name, enum cap_kind *out)
{
	static const struct { const char *name; enum cap_kind kind; } used[] = {
		{ "cpu_idle", CAP_IDLE },
		{ "cpu_idle_miss", CAP_IDLE_MISS },
		{ "hrtimer_start", CAP_TIMER_START },
		{ "hrtimer_cancel", CAP_TIMER_CANCEL },
		{ "hrtimer_expire_entry", CAP_TIMER_EXPIRE },
		{ "tick_stop", CAP_TICK_STOP },
		{ "irq_handler_entry", CAP_IRQ },
		/* IPIs: ipi:ipi_entry on ARM, irq_vectors:* on x86. */
		{ "ipi_entry", CAP_IPI },
		{ "call_function_entry", CAP_IPI },
		{ "call_function_single_entry", CAP_IPI },
		{ "reschedule_entry", CAP_IPI },
		{ "sched_wakeup", CAP_WAKEUP },
		{ "sched_switch", CAP_SWITCH },
		{ "timer_start", CAP_WHEEL_START },
		{ "timer_cancel", CAP_WHEEL_CANCEL },
		{ "timer_expire_entry", CAP_WHEEL_EXPIRE },
		{ "rcu_callback", CAP_RCU_QUEUE },
		{ "rcu_kvfree_callback", CAP_RCU_QUEUE },
		{ "rcu_batch_start", CAP_RCU_BATCH },
		{ "rcu_batch_end", CAP_RCU_DONE },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(used); i++) {
		if (!strcmp(name, used[i].name)) {
			*out = used[i].kind;
			return true;
		}
	}
	return false;
}

uint64_t cap_wheel_bucket(uint64_t expires, uint64_t now, unsigned int wheel_idx)
{
	/* LVL_CLK_SHIFT 3, LVL_BITS 6: levels of 64 buckets, each 8 times coarser. */
	unsigned int shift = 3 * MIN(wheel_idx / 64, 8u);

	if ((int64_t)(expires - now) < 0)
		return now;
	return ((expires >> shift) + 1) << shift;
}

static void capture_init(struct capture *c, const char *path, enum cap_format format)
{
	memset(c, 0, sizeof(*c));
	c->path = g_strdup(path);
	c->format = format;
	c->events = g_array_new(FALSE, FALSE, sizeof(struct cap_event));
	c->ignored = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	c->warnings = g_ptr_array_new_with_free_func(g_free);
	c->first_ns = UINT64_MAX;
}

void capture_clear(struct capture *c)
{
	g_free(c->path);
	if (c->events)
		g_array_free(c->events, TRUE);
	if (c->ignored)
		g_hash_table_destroy(c->ignored);
	if (c->warnings)
		g_ptr_array_free(c->warnings, TRUE);
	memset(c, 0, sizeof(*c));
}

bool capture_add(struct capture *c, struct cap_event *ev)
{
	const struct cap_event *last = c->events->len ?
		&g_array_index(c->events, struct cap_event, c->events->len - 1) : NULL;

	if (c->events->len >= c->events_max) {
		c->full_at = c->full_at ? c->full_at : MAX(ev->where, 1);
		return false;
	}
	if (last && ev->ts_ns < last->ts_ns)
		c->out_of_order++;
	ev->seq = c->events->len;
	c->counts[ev->kind]++;
	g_array_append_val(c->events, *ev);
	return true;
}

void capture_saw_time(struct capture *c, uint64_t ts_ns)
{
	c->first_ns = MIN(c->first_ns, ts_ns);
	c->last_ns = MAX(c->last_ns, ts_ns);
}

void capture_ignore(struct capture *c, const char *event_name)
{
	gpointer n;

	/* A damaged capture can make up any number of names. */
	if (!g_hash_table_contains(c->ignored, event_name) &&
	    g_hash_table_size(c->ignored) >= CAP_IGNORED_NAMES_MAX)
		event_name = "(other names)";
	n = g_hash_table_lookup(c->ignored, event_name);
	g_hash_table_replace(c->ignored, g_strdup(event_name),
			     GUINT_TO_POINTER(GPOINTER_TO_UINT(n) + 1));
}

/* "path:line" for text, "path: byte offset N" for a .dat record. */
static char *capture_where(const struct capture *c, unsigned long where)
{
	if (c->format == CAP_FORMAT_DAT)
		return g_strdup_printf("%s: byte offset %lu", c->path, where);
	return g_strdup_printf("%s:%lu", c->path, where);
}

void capture_warn(struct capture *c, unsigned long where, const char *fmt, ...)
{
	g_autofree char *msg = NULL, *at = NULL;
	va_list ap;

	c->malformed++;
	if (c->warnings->len >= CAP_WARNINGS_MAX)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	at = capture_where(c, where);
	g_ptr_array_add(c->warnings, g_strdup_printf("%s: %s", at, msg));
}

static gint by_time(gconstpointer a, gconstpointer b)
{
	const struct cap_event *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

bool capture_finish(struct capture *c, GError **error)
{
	unsigned int highest = 0;

	if (c->full_at) {
		g_autofree char *at = capture_where(c, c->full_at);

		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s: more than %u events: "
			    "import a shorter capture, or fewer CPUs (traces/import-format.md)", at,
			    c->events_max);
		return false;
	}
	g_array_sort(c->events, by_time);
	for (guint i = 0; i < c->events->len; i++) {
		const struct cap_event *ev = &g_array_index(c->events, struct cap_event, i);

		highest = MAX(highest, ev->kind == CAP_WAKEUP ? MAX(ev->cpu, ev->target_cpu) : ev->cpu);
	}
	if (c->events->len)
		c->nr_cpus = MAX(c->nr_cpus, highest + 1);
	if (!c->counts[CAP_IDLE]) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s: no power:cpu_idle events in this %s capture%s: nothing to import "
			    "(record with -e power:cpu_idle, traces/import-format.md)", c->path,
			    cap_format_name(c->format),
			    c->malformed ? " (and some lines were unreadable, see above)" : "");
		return false;
	}
	return true;
}

static bool has_dat_magic(const char *path, bool *is_dat, GError **error)
{
	char head[sizeof(dat_magic) - 1];
	FILE *f = input_fopen(path, "rb", error);
	size_t n;

	if (!f)
		return false;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	*is_dat = n == sizeof(head) && !memcmp(head, dat_magic, sizeof(head));
	return true;
}

bool capture_load(const char *path, struct capture *c, GError **error)
{
	return capture_load_max(path, CAP_EVENTS_MAX, c, error);
}

bool capture_load_max(const char *path, guint events_max, struct capture *c, GError **error)
{
	bool is_dat, ok;

	/* Text until the magic says otherwise: ftrace's and trace-cmd's are read alike. */
	capture_init(c, path, CAP_FORMAT_FTRACE);
	c->events_max = events_max;
	if (!has_dat_magic(path, &is_dat, error))
		return false;
	if (is_dat)
		c->format = CAP_FORMAT_DAT;
	ok = is_dat ? capture_read_dat(path, c, error) : capture_read_text(path, c, error);
	return ok && capture_finish(c, error);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Text captures: the tracefs "trace" file (ftrace's own format) and the
 * output of `trace-cmd report`.  Both print one event a line,
 *
 *   <idle>-0     [001] d..2.  5123.456789: cpu_idle: state=2 cpu_id=1
 *
 * as task-pid, [cpu], optional irq/preempt flags, seconds.fraction, the
 * event's name and its fields as key=value.  Lines starting with '#' are
 * ftrace's header ("#P:4" gives the CPU count); `trace-cmd report` starts
 * with "cpus=4".  Lost events show as "CPU:N [LOST M EVENTS]" (ftrace) or
 * "CPU:N [M EVENTS DROPPED]" (trace-cmd).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "input-file.h"
#include "kvline.h"

/* Longer lines are not ftrace output: report them instead of parsing them. */
#define TEXT_LINE_MAX		8192
/* 2^62 ns, the trace format's limit, is about 4.6e9 s. */
#define TEXT_SECONDS_MAX	4000000000ULL

struct text_reader {
	struct capture *c;
	GRegex *event_line;
	GRegex *lost_line;
	unsigned long line;
	bool *lost_pending;		/* by CPU: a lost-events marker waits for the CPU's next event */
	unsigned int lost_size;
};

/* One event line: what the regular expression captured. */
struct text_line {
	uint64_t ts_ns;
	const char *name;
	const char *fields;
};

/*
 * The value of key in "k1=v1 k2=v2 ...": up to the next blank.  Keys are
 * matched at the start of a word, so "expires" does not find "softexpires".
 */
static bool field(const char *fields, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	for (const char *p = fields; (p = strstr(p, key)); p += klen) {
		size_t vlen;

		if ((p != fields && p[-1] != ' ' && p[-1] != '\t') || p[klen] != '=')
			continue;
		p += klen + 1;
		vlen = strcspn(p, " \t");
		if (vlen == 0 || vlen >= size)
			return false;
		memcpy(out, p, vlen);
		out[vlen] = '\0';
		return true;
	}
	return false;
}

static bool parse_unsigned(const char *s, unsigned int base, uint64_t max, uint64_t *out)
{
	if (base == 16 && (g_str_has_prefix(s, "0x") || g_str_has_prefix(s, "0X")))
		s += 2;
	return g_ascii_string_to_unsigned(s, base, 0, max, out, NULL);
}

/* Reads a numeric field; warns and returns false when absent or bad. */
static bool number_field(struct text_reader *t, const struct text_line *l, const char *key,
			 unsigned int base, uint64_t max, uint64_t *out)
{
	char v[64];

	if (!field(l->fields, key, v, sizeof(v))) {
		capture_warn(t->c, t->line, "%s: no %s= field: event skipped", l->name, key);
		return false;
	}
	/* cpu_idle's exit state prints as -1 where the field is signed. */
	if (!strcmp(v, "-1") && !strcmp(key, "state")) {
		*out = CAP_IDLE_EXIT;
		return true;
	}
	if (!parse_unsigned(v, base, max, out)) {
		capture_warn(t->c, t->line, "%s: %s=%s is not a %s number up to %" G_GUINT64_FORMAT
			     ": event skipped", l->name, key, v, base == 16 ? "hexadecimal" : "decimal",
			     max);
		return false;
	}
	return true;
}

static bool is_tick_function(const char *fields)
{
	char fn[128];

	/* tick_sched_timer (high resolution) or tick_nohz_handler (6.x, low resolution). */
	return field(fields, "function", fn, sizeof(fn)) &&
	       (g_str_has_prefix(fn, "tick_sched_timer") || g_str_has_prefix(fn, "tick_nohz_handler"));
}

/*
 * timer_start's "[timeout=%ld]", expires less jiffies at the start: its
 * key follows a bracket, not a blank, and its value may be negative.
 */
static bool timeout_field(struct text_reader *t, const struct text_line *l, int64_t *out)
{
	const char *p = strstr(l->fields, "[timeout=");
	char v[32];
	size_t vlen;

	if (p) {
		p += strlen("[timeout=");
		vlen = strcspn(p, "]");
		if (p[vlen] == ']' && vlen > 0 && vlen < sizeof(v)) {
			memcpy(v, p, vlen);
			v[vlen] = '\0';
			if (g_ascii_string_to_signed(v, 10, INT64_MIN / 2, INT64_MAX / 2, out, NULL))
				return true;
		}
	}
	capture_warn(t->c, t->line, "%s: no [timeout=N] field: event skipped", l->name);
	return false;
}

/*
 * timer_start: the bucket's jiffy (printed since 6.3, else worked out from
 * expires and the wheel index), jiffies at the start, the base's CPU and
 * the flags.
 */
static bool parse_wheel_start(struct text_reader *t, const struct text_line *l,
			      struct cap_event *ev)
{
	uint64_t expires, idx, cpu;
	int64_t timeout;
	char v[64];

	if (!number_field(t, l, "expires", 10, UINT64_MAX, &expires) ||
	    !timeout_field(t, l, &timeout) ||
	    !number_field(t, l, "cpu", 10, CAP_CPUS_MAX - 1, &cpu) ||
	    !number_field(t, l, "idx", 10, UINT32_MAX, &idx))
		return false;
	ev->jiffies = expires - (uint64_t)timeout;
	ev->target_cpu = (unsigned int)cpu;
	if (field(l->fields, "bucket_expiry", v, sizeof(v))) {
		if (!number_field(t, l, "bucket_expiry", 10, UINT64_MAX, &ev->clock_ns))
			return false;
	} else {
		ev->clock_ns = cap_wheel_bucket(expires, ev->jiffies, (unsigned int)idx);
	}
	/* flags= is empty, or letters joined by '|': M, D, P, I. */
	if (field(l->fields, "flags", v, sizeof(v))) {
		ev->flag = strchr(v, 'D') != NULL;
		ev->pinned = strchr(v, 'P') != NULL;
	}
	return true;
}

/*
 * rcu_callback and rcu_kvfree_callback print the CPU's queue length after
 * the callback went in last, with no key: "rcu_sched rhp=... func=... 3".
 */
static bool queue_length(struct text_reader *t, const struct text_line *l, struct cap_event *ev)
{
	const char *last = strrchr(l->fields, ' ');
	uint64_t n;

	if (!last || !parse_unsigned(last + 1, 10, UINT64_MAX, &n)) {
		capture_warn(t->c, t->line, "%s: no queue length at the end: event skipped",
			     l->name);
		return false;
	}
	ev->callbacks = cap_callbacks(n);
	return true;
}

/* A task id that the line may leave out (then 0); false (after a warning) when malformed. */
static bool optional_pid(struct text_reader *t, const struct text_line *l, const char *key,
			 uint32_t *out)
{
	char v[64];
	uint64_t n;

	if (!field(l->fields, key, v, sizeof(v)))
		return true;
	if (!number_field(t, l, key, 10, CAP_PID_MAX, &n))
		return false;
	*out = (uint32_t)n;
	return true;
}

/* Fills the kind-specific part of ev; false (after a warning) skips the event. */
static bool parse_fields(struct text_reader *t, const struct text_line *l, struct cap_event *ev)
{
	uint64_t n;
	char v[64];

	switch (ev->kind) {
	case CAP_IDLE:
	case CAP_IDLE_MISS:
		if (!number_field(t, l, "state", 10, UINT32_MAX, &n))
			return false;
		ev->state = (uint32_t)n;
		/* cpu_id names the CPU the event is about; it is the line's CPU in practice. */
		if (field(l->fields, "cpu_id", v, sizeof(v))) {
			if (!number_field(t, l, "cpu_id", 10, CAP_CPUS_MAX - 1, &n))
				return false;
			ev->cpu = (unsigned int)n;
		}
		if (ev->kind == CAP_IDLE_MISS) {
			if (!field(l->fields, "type", v, sizeof(v)) ||
			    (strcmp(v, "below") && strcmp(v, "above"))) {
				capture_warn(t->c, t->line, "cpu_idle_miss: type= is not 'above' or "
					     "'below': event skipped");
				return false;
			}
			ev->flag = !strcmp(v, "below");
		}
		return true;
	case CAP_TIMER_START:
	case CAP_TIMER_CANCEL:
	case CAP_TIMER_EXPIRE:
		if (!number_field(t, l, "hrtimer", 16, UINT64_MAX, &ev->timer))
			return false;
		ev->tick_timer = is_tick_function(l->fields);
		if (ev->kind == CAP_TIMER_START)
			return number_field(t, l, "expires", 10, INT64_MAX, &ev->clock_ns);
		if (ev->kind == CAP_TIMER_EXPIRE)
			return number_field(t, l, "now", 10, INT64_MAX, &ev->clock_ns);
		return true;
	case CAP_WHEEL_START:
		return number_field(t, l, "timer", 16, UINT64_MAX, &ev->timer) &&
		       parse_wheel_start(t, l, ev);
	case CAP_WHEEL_CANCEL:
		return number_field(t, l, "timer", 16, UINT64_MAX, &ev->timer);
	case CAP_WHEEL_EXPIRE:
		return number_field(t, l, "timer", 16, UINT64_MAX, &ev->timer) &&
		       number_field(t, l, "now", 10, UINT64_MAX, &ev->jiffies) &&
		       number_field(t, l, "baseclk", 10, UINT64_MAX, &ev->clock_ns);
	case CAP_TICK_STOP:
		if (!field(l->fields, "success", v, sizeof(v))) {
			capture_warn(t->c, t->line, "tick_stop: no success= field: event skipped");
			return false;
		}
		ev->flag = !strcmp(v, "1") || !strcmp(v, "yes");
		return true;
	case CAP_WAKEUP:
		if (!number_field(t, l, "target_cpu", 10, CAP_CPUS_MAX - 1, &n))
			return false;
		ev->target_cpu = (unsigned int)n;
		return optional_pid(t, l, "pid", &ev->pid);
	case CAP_SWITCH:
		/* The idle task is pid 0 on every CPU. */
		if (!number_field(t, l, "next_pid", 10, UINT64_MAX, &n))
			return false;
		ev->flag = n == 0;
		ev->next_pid = n <= CAP_PID_MAX ? (uint32_t)n : 0;
		/* "D" alone: TASK_UNINTERRUPTIBLE, how a task waits for I/O (io_schedule()). */
		ev->blocked = field(l->fields, "prev_state", v, sizeof(v)) && !strcmp(v, "D");
		return optional_pid(t, l, "prev_pid", &ev->pid);
	case CAP_RCU_QUEUE:
		return queue_length(t, l, ev);
	case CAP_RCU_BATCH:
	case CAP_RCU_DONE:
		if (!number_field(t, l, ev->kind == CAP_RCU_BATCH ? "CBs" : "CBs-invoked", 10,
				  UINT64_MAX, &n))
			return false;
		ev->callbacks = cap_callbacks(n);
		return true;
	case CAP_IRQ:
	case CAP_IPI:
	case CAP_LOST:
		return true;
	}
	return true;
}

/* seconds.fraction, the fraction 1 to 9 digits, to ns. */
static bool parse_timestamp(const char *secs, const char *frac, uint64_t *ns)
{
	uint64_t s, f;
	size_t digits = strlen(frac);

	if (!digits || digits > 9 || !parse_unsigned(secs, 10, TEXT_SECONDS_MAX, &s) ||
	    !parse_unsigned(frac, 10, UINT64_MAX, &f))
		return false;
	for (size_t i = digits; i < 9; i++)
		f *= 10;
	*ns = s * 1000000000ULL + f;
	return true;
}

static void mark_lost(struct text_reader *t, unsigned int cpu)
{
	if (cpu >= t->lost_size) {
		unsigned int size = MAX(cpu + 1, 2 * t->lost_size);

		t->lost_pending = g_renew(bool, t->lost_pending, size);
		memset(t->lost_pending + t->lost_size, 0, (size - t->lost_size) * sizeof(bool));
		t->lost_size = size;
	}
	t->lost_pending[cpu] = true;
}

/*
 * A lost-events marker has no time of its own: it is placed just before
 * the CPU's next event, which is where the gap ends.
 */
static void add_lost_before(struct text_reader *t, const struct cap_event *next)
{
	struct cap_event lost = { .ts_ns = next->ts_ns, .where = t->line, .cpu = next->cpu,
				  .kind = CAP_LOST };

	if (next->cpu >= t->lost_size || !t->lost_pending[next->cpu])
		return;
	t->lost_pending[next->cpu] = false;
	capture_add(t->c, &lost);
}

/*
 * The flags column ("d.h1.", irqs-off first) has the need-resched state
 * second: '.' when no task is to run (else 'N', 'n', 'p' and, on later
 * kernels, letters for the lazy kinds).  Without the column it is unknown.
 */
static bool resched_clear(const char *flags)
{
	return strlen(flags) >= 4 && flags[1] == '.';
}

/* Whether they show TIF_NEED_RESCHED set: 'n', 'N' (with PREEMPT_NEED_RESCHED), 'b', 'B'. */
static bool resched_set(const char *flags)
{
	return strlen(flags) >= 4 && strchr("nNbB", flags[1]);
}

static void read_event_line(struct text_reader *t, GMatchInfo *m)
{
	g_autofree char *cpu = g_match_info_fetch(m, 1);
	g_autofree char *flags = g_match_info_fetch(m, 2);
	g_autofree char *secs = g_match_info_fetch(m, 3);
	g_autofree char *frac = g_match_info_fetch(m, 4);
	g_autofree char *name = g_match_info_fetch(m, 5);
	g_autofree char *fields = g_match_info_fetch(m, 6);
	struct text_line l = { .name = name, .fields = fields };
	struct cap_event ev = { .where = t->line };
	uint64_t n;

	if (!parse_unsigned(cpu, 10, CAP_CPUS_MAX - 1, &n)) {
		capture_warn(t->c, t->line, "[%s]: not a CPU number: line skipped", cpu);
		return;
	}
	ev.cpu = (unsigned int)n;
	if (!*frac) {
		capture_warn(t->c, t->line, "timestamp %s has no fraction of a second: a counter "
			     "clock cannot be imported (record with -C mono): line skipped", secs);
		return;
	}
	if (!parse_timestamp(secs, frac, &l.ts_ns)) {
		capture_warn(t->c, t->line, "timestamp %s.%s is not seconds with 1 to 9 decimals: "
			     "line skipped", secs, frac);
		return;
	}
	capture_saw_time(t->c, l.ts_ns);
	if (!cap_kind_of(name, &ev.kind)) {
		capture_ignore(t->c, name);
		return;
	}
	ev.ts_ns = l.ts_ns;
	ev.resched_clear = resched_clear(flags);
	ev.resched_set = resched_set(flags);
	if (!parse_fields(t, &l, &ev))
		return;
	add_lost_before(t, &ev);
	capture_add(t->c, &ev);
}

/* Header lines: ftrace's "# ... #P:4", trace-cmd's "cpus=4". */
static void read_header_line(struct text_reader *t, const char *s)
{
	const char *p = strstr(s, "#P:");
	uint64_t n;

	if (s[0] == '#' && strstr(s, "tracer:"))
		t->c->format = CAP_FORMAT_FTRACE;
	if (s[0] == '#' && p && g_ascii_string_to_unsigned(p + 3, 10, 1, CAP_CPUS_MAX, &n, NULL))
		t->c->nr_cpus = (unsigned int)n;
	if (g_str_has_prefix(s, "cpus=")) {
		t->c->format = CAP_FORMAT_REPORT;
		if (g_ascii_string_to_unsigned(s + 5, 10, 1, CAP_CPUS_MAX, &n, NULL))
			t->c->nr_cpus = (unsigned int)n;
		else
			capture_warn(t->c, t->line, "%s: not a CPU count: ignored", s);
	}
}

static void read_line(struct text_reader *t, char *s)
{
	g_autoptr(GMatchInfo) m = NULL;

	g_strchomp(s);
	s = g_strchug(s);
	if (!*s)
		return;
	if (s[0] == '#' || g_str_has_prefix(s, "cpus=")) {
		read_header_line(t, s);
		return;
	}
	/* trace-cmd report prints its file format version first. */
	if (g_str_has_prefix(s, "version = "))
		return;
	if (g_regex_match(t->lost_line, s, 0, &m)) {
		g_autofree char *cpu = g_match_info_fetch(m, 1);
		uint64_t n;

		if (g_ascii_string_to_unsigned(cpu, 10, 0, CAP_CPUS_MAX - 1, &n, NULL))
			mark_lost(t, (unsigned int)n);
		else
			capture_warn(t->c, t->line, "lost-events marker for CPU %s: not a CPU number",
				     cpu);
		return;
	}
	g_clear_pointer(&m, g_match_info_free);
	if (!g_regex_match(t->event_line, s, 0, &m)) {
		capture_warn(t->c, t->line, "not an ftrace event line (TASK-PID [CPU] SECONDS: "
			     "EVENT: FIELDS): line skipped");
		return;
	}
	read_event_line(t, m);
}

/* Lost markers that no later event of their CPU followed: at the capture's end. */
static void add_trailing_lost(struct text_reader *t)
{
	for (unsigned int cpu = 0; cpu < t->lost_size; cpu++) {
		struct cap_event lost = { .ts_ns = t->c->last_ns, .where = t->line, .cpu = cpu,
					  .kind = CAP_LOST };

		if (t->lost_pending[cpu])
			capture_add(t->c, &lost);
	}
}

/* One line, read as getline() would but never holding more than TEXT_LINE_MAX bytes of it. */
struct text_line_buf {
	char text[TEXT_LINE_MAX + 1];
	uint64_t len;			/* the whole line's, its newline included */
	uint64_t nul_at;		/* the offset of its first NUL byte, or UINT64_MAX */
	bool newline;
};

/* False at the end of the file. */
static bool read_bounded_line(FILE *f, struct text_line_buf *b)
{
	size_t kept = 0;
	int ch;

	b->len = 0;
	b->nul_at = UINT64_MAX;
	b->newline = false;
	while ((ch = getc_unlocked(f)) != EOF) {
		if (ch == '\0' && b->nul_at == UINT64_MAX)
			b->nul_at = b->len;
		b->len++;
		if (kept < TEXT_LINE_MAX)
			b->text[kept++] = (char)ch;
		if (ch == '\n') {
			b->newline = true;
			break;
		}
	}
	b->text[kept] = '\0';
	return b->len > 0;
}

static bool read_lines(struct text_reader *t, FILE *f, GError **error)
{
	g_autofree struct text_line_buf *b = g_new(struct text_line_buf, 1);
	uint64_t offset = 0;

	/* Up to the end, or to the capture's limit on events (an error then). */
	while (!t->c->full_at && read_bounded_line(f, b)) {
		t->line++;
		if (b->nul_at != UINT64_MAX) {
			/* A text capture has no NUL byte: this is some binary file. */
			g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
				    "%s:%lu: byte offset %" G_GUINT64_FORMAT ": binary data: neither "
				    "ftrace text nor a trace-cmd .dat file (which starts with "
				    "\\x17\\x08\\x44tracing)", t->c->path, t->line, offset + b->nul_at);
			return false;
		}
		offset += b->len;
		if (!b->newline) {
			capture_warn(t->c, t->line, "the last line has no newline: the capture was "
				     "cut off; line skipped");
			break;
		}
		if (b->len > TEXT_LINE_MAX) {
			capture_warn(t->c, t->line, "line longer than %d bytes: skipped", TEXT_LINE_MAX);
			continue;
		}
		read_line(t, b->text);
	}
	if (ferror(f)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: %s", t->c->path,
			    g_strerror(errno));
		return false;
	}
	return true;
}

bool capture_read_text(const char *path, struct capture *c, GError **error)
{
	struct text_reader t = { .c = c };
	FILE *f = input_fopen(path, "r", error);
	bool ok;

	if (!f)
		return false;
	/*
	 * Matched as bytes (G_REGEX_RAW): a task name is whatever bytes the
	 * task chose, not UTF-8, and PCRE must not decode it as such.
	 * task-pid (the task name may hold '-' and blanks), optional
	 * "(tgid)", [cpu], optional flags ("d..2."), seconds[.fraction],
	 * event name, fields.
	 */
	t.event_line = g_regex_new("^.*?-\\d+\\s+(?:\\(\\s*[-\\d]+\\)\\s+)?\\[(\\d+)\\]\\s+"
				   "(?:([^\\s:]+)\\s+)?(\\d+)(?:\\.(\\d+))?:\\s+(\\w+):\\s*(.*)$",
				   G_REGEX_OPTIMIZE | G_REGEX_RAW, 0, NULL);
	t.lost_line = g_regex_new("^CPU:\\s*(\\d+)\\s+\\[(?:LOST \\d+ EVENTS|\\d+ EVENTS DROPPED|"
				  "EVENTS DROPPED)\\]$", G_REGEX_OPTIMIZE | G_REGEX_RAW, 0, NULL);
	ok = read_lines(&t, f, error);
	if (ok)
		add_trailing_lost(&t);
	fclose(f);
	g_regex_unref(t.event_line);
	g_regex_unref(t.lost_line);
	g_free(t.lost_pending);
	return ok;
}

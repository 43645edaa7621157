// SPDX-License-Identifier: GPL-2.0
/* The workload-trace reader (traces/trace-format.md). */
#include <inttypes.h>
#include <string.h>

#include "idmap.h"
#include "keyfile-lines.h"
#include "kvline.h"
#include "platform.h"
#include "trace-limits.h"
#include "trace.h"

/*
 * A timer the reader knows of: armed until cancelled or, one-shot, until
 * it fires (its expiry, or the later time its interrupt came).
 */
struct known_timer {
	uint64_t id;
	uint64_t fires_ns;
	unsigned int cpu;
	bool periodic;
	bool wheel;		/* a timer-wheel timer (an id names one kind of timer while armed) */
};

struct trace_reader {
	struct kv_reader kv;
	struct trace_header header;
	uint64_t last_at;
	/* The timers that may still be armed, and their index + 1 by id. */
	struct known_timer *timers;
	unsigned int nr_timers, timers_cap;
	unsigned int forget_at;		/* nr_timers that triggers forget_expired() */
	unsigned int armed_max;		/* TRACE_ARMED_MAX, or a test's limit */
	bool armed_full;		/* more than armed_max timers are armed */
	struct idmap timer_ids;
	struct kv_line pending;		/* the first event, read while ending the header */
	bool has_pending;
	struct trace_event ev;		/* the event trace_next() returned last */
};

#define FORGET_MIN	64

static bool is_armed(const struct known_timer *t, uint64_t at)
{
	return t->periodic || at < t->fires_ns;
}

/* The known timer of that id, or NULL. */
static struct known_timer *find_timer(const struct trace_reader *r, uint64_t id)
{
	unsigned int i = idmap_get(&r->timer_ids, id);

	return i ? &r->timers[i - 1] : NULL;
}

/* Drops t, moving the last known timer into its place. */
static void forget_timer(struct trace_reader *r, struct known_timer *t)
{
	struct known_timer *last = &r->timers[--r->nr_timers];

	idmap_remove(&r->timer_ids, t->id);
	if (t == last)
		return;
	*t = *last;
	idmap_put(&r->timer_ids, t->id, (unsigned int)(t - r->timers) + 1);
}

/*
 * Forgets one-shot timers that have expired, whenever the timers known
 * have doubled since the last time: memory follows the timers armed at
 * once, not the length of the trace.
 */
static void forget_expired(struct trace_reader *r)
{
	for (unsigned int i = r->nr_timers; i-- > 0;)
		if (!is_armed(&r->timers[i], r->last_at))
			forget_timer(r, &r->timers[i]);
	r->forget_at = MIN(MAX(FORGET_MIN, 2 * r->nr_timers), 2 * r->armed_max);
}

/*
 * A new known timer of that id, which the reader does not know; the caller
 * fills it.  NULL when more than armed_max timers are armed at once.  That
 * is checked whenever the table, expired timers included, fills up to
 * forget_at (at most twice armed_max): forgetting then at least halves it,
 * so reading stays linear in the trace and memory bounded.
 */
static struct known_timer *add_timer(struct trace_reader *r, uint64_t id)
{
	struct known_timer *t;

	if (r->nr_timers >= r->forget_at) {
		forget_expired(r);
		r->armed_full = r->nr_timers > r->armed_max;
	}
	if (r->armed_full)
		return NULL;
	if (r->nr_timers == r->timers_cap) {
		r->timers_cap = MAX(FORGET_MIN, 2 * r->timers_cap);
		r->timers = g_renew(struct known_timer, r->timers, r->timers_cap);
	}
	t = &r->timers[r->nr_timers++];
	t->id = id;
	idmap_put(&r->timer_ids, id, r->nr_timers);
	return t;
}

static bool parse_u64(struct trace_reader *r, struct kv_line *l, const char *key, bool required,
		      uint64_t min, uint64_t max, uint64_t *out, GError **error)
{
	const char *v = required ? kv_need(&r->kv, l, key, error) : kv_get(l, key);

	if (!v)
		return !required;
	return kv_u64(&r->kv, key, v, min, max, out, error);
}

/* Times and durations stay below 2^62 so that adding two never overflows. */
static bool parse_time(struct trace_reader *r, struct kv_line *l, const char *key, bool required,
		       uint64_t min, uint64_t *out, GError **error)
{
	return parse_u64(r, l, key, required, min, TRACE_TIME_MAX, out, error);
}

static bool parse_name(struct kv_reader *kv, const char *field, const char *v, size_t max,
		       GError **error)
{
	if (!kf_valid_name(v, max)) {
		kv_error(kv, error, field, "'%s' is not 1 to %zu of [A-Za-z0-9_.-]", v, max);
		return false;
	}
	return true;
}

/* "cpus N": the single value is the record's only bare word. */
static const char *single_value(struct kv_reader *kv, struct kv_line *l, GError **error)
{
	if (l->nr_fields != 1 || l->fields[0].value) {
		kv_error(kv, error, l->keyword, "takes exactly one value");
		return NULL;
	}
	return l->fields[0].key;
}

/* The event records, by keyword: the first of them ends the header. */
static const struct { const char *keyword; enum trace_kind kind; } event_kinds[] = {
	{ "timer", TRACE_TIMER }, { "cancel", TRACE_CANCEL }, { "irq", TRACE_IRQ },
	{ "busy", TRACE_BUSY }, { "phase", TRACE_PHASE }, { "tick", TRACE_TICK },
	{ "wheel", TRACE_WHEEL }, { "rcu", TRACE_RCU }, { "poll", TRACE_POLL },
	{ "idle", TRACE_IDLE }, { "iowait", TRACE_IOWAIT },
};

/* Whether k is an event record's keyword, and which (into *kind, if not NULL). */
static bool event_kind_of(const char *k, enum trace_kind *kind)
{
	for (size_t i = 0; i < G_N_ELEMENTS(event_kinds); i++) {
		if (!strcmp(k, event_kinds[i].keyword)) {
			if (kind)
				*kind = event_kinds[i].kind;
			return true;
		}
	}
	return false;
}

static bool read_version(struct trace_reader *r, GError **error)
{
	struct kv_reader *kv = &r->kv;
	struct kv_line l;
	uint64_t n;
	int ret = kv_next(kv, &l, error);

	if (ret < 0)
		return false;
	if (ret == 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
			    "%s: empty file: a trace starts with 'teosim-trace %d'", kv->path,
			    TRACE_VERSION);
		return false;
	}
	if (strcmp(l.keyword, "teosim-trace") || l.nr_fields != 1 || l.fields[0].value) {
		kv_error(kv, error, "teosim-trace", "not a trace: it must start with 'teosim-trace %d'",
			 TRACE_VERSION);
		return false;
	}
	if (!kv_u64(kv, "teosim-trace", l.fields[0].key, 0, UINT64_MAX, &n, error))
		return false;
	if (n != TRACE_VERSION) {
		kv_error(kv, error, "teosim-trace", "version %" PRIu64 " (this teosim reads %d)",
			 n, TRACE_VERSION);
		return false;
	}
	return true;
}

/* The header's records, each allowed once (traces/trace-format.md). */
enum header_record { HDR_CPUS, HDR_END, HDR_NAME, HDR_MONO, HDR_PLATFORM, HDR_POLL_CHECK,
		     HDR_TICK_STOP, HDR_COUNT };
static const char *const header_records[HDR_COUNT] = {
	"cpus", "end_ns", "name", "mono_ns", "platform", "poll_check_ns", "tick_stop_ns",
};

static int header_record_index(const char *keyword)
{
	for (int i = 0; i < HDR_COUNT; i++)
		if (!strcmp(keyword, header_records[i]))
			return i;
	return -1;
}

/* A bundled platform's name, or a platform file in the trace's own directory. */
static bool parse_platform(struct kv_reader *kv, const char *v, GError **error)
{
	if (!kf_valid_name(v, TRACE_PLATFORM_MAX) || !strcmp(v, ".") || !strcmp(v, "..")) {
		kv_error(kv, error, "platform",
			 "'%s' is neither a bundled platform's name nor a file name "
			 "(1 to %d of [A-Za-z0-9_.-])", v, TRACE_PLATFORM_MAX);
		return false;
	}
	return true;
}

static bool read_header_value(struct trace_reader *r, int record, const char *v, GError **error)
{
	struct kv_reader *kv = &r->kv;
	struct trace_header *h = &r->header;
	uint64_t n;

	switch (record) {
	case HDR_CPUS:
		if (!kv_u64(kv, "cpus", v, 1, KSHIM_MAX_CPUS, &n, error))
			return false;
		h->nr_cpus = (unsigned int)n;
		return true;
	case HDR_END:
		return kv_u64(kv, "end_ns", v, 1, TRACE_TIME_MAX, &h->end_ns, error);
	case HDR_MONO:
		return kv_u64(kv, "mono_ns", v, 0, TRACE_TIME_MAX, &h->mono_ns, error);
	case HDR_POLL_CHECK:
		return kv_u64(kv, "poll_check_ns", v, 1, TRACE_POLL_CHECK_MAX_NS, &h->poll_check_ns,
			      error);
	case HDR_TICK_STOP:
		h->has_tick_stop = true;
		return kv_u64(kv, "tick_stop_ns", v, 0, TRACE_TICK_STOP_MAX_NS, &h->tick_stop_ns,
			      error);
	case HDR_NAME:
		if (!parse_name(kv, "name", v, TRACE_NAME_MAX, error))
			return false;
		h->name = g_strdup(v);
		return true;
	default:
		if (!parse_platform(kv, v, error))
			return false;
		h->platform = g_strdup(v);
		return true;
	}
}

static bool read_header(struct trace_reader *r, GError **error)
{
	struct kv_reader *kv = &r->kv;
	bool seen[HDR_COUNT] = { false };
	struct kv_line l;
	const char *v;
	int ret;

	if (!read_version(r, error))
		return false;
	while ((ret = kv_next(kv, &l, error)) > 0 && !event_kind_of(l.keyword, NULL)) {
		int record = header_record_index(l.keyword);

		if (record < 0) {
			kv_error(kv, error, l.keyword, "unknown record in the header");
			return false;
		}
		if (seen[record]) {
			kv_error(kv, error, l.keyword, "given twice");
			return false;
		}
		seen[record] = true;
		if (!(v = single_value(kv, &l, error)) || !read_header_value(r, record, v, error))
			return false;
	}
	if (ret < 0)
		return false;
	if (!seen[HDR_CPUS] || !seen[HDR_END]) {
		kv_error(kv, error, !seen[HDR_CPUS] ? "cpus" : "end_ns", "the header ends without it");
		return false;
	}
	if (ret > 0) {
		r->pending = l;
		r->has_pending = true;
	}
	return true;
}

struct trace_reader *trace_open(const char *path, GError **error)
{
	struct trace_reader *r = g_new0(struct trace_reader, 1);

	r->forget_at = FORGET_MIN;
	r->armed_max = TRACE_ARMED_MAX;
	idmap_init(&r->timer_ids);
	if (!kv_open(&r->kv, path, error)) {
		trace_close(r);
		return NULL;
	}
	if (!read_header(r, error)) {
		trace_close(r);
		return NULL;
	}
	return r;
}

void trace_limit_armed(struct trace_reader *r, unsigned int max)
{
	r->armed_max = max;
	r->forget_at = MIN(r->forget_at, 2 * max);
}

const struct trace_header *trace_header(const struct trace_reader *r)
{
	return &r->header;
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	kv_close(&r->kv);
	g_free(r->timers);
	idmap_clear(&r->timer_ids);
	g_free(r->header.name);
	g_free(r->header.platform);
	g_free(r);
}

/* at_ns, in global order and before the end; and cpu, unless a phase. */
static bool parse_when_where(struct trace_reader *r, struct kv_line *l, struct trace_event *ev,
			     GError **error)
{
	uint64_t n;

	if (!parse_time(r, l, "at_ns", true, 0, &ev->at_ns, error))
		return false;
	if (ev->at_ns < r->last_at) {
		kv_error(&r->kv, error, "at_ns", "%" PRIu64 " is before the previous event's %" PRIu64
			 ": events are in time order", ev->at_ns, r->last_at);
		return false;
	}
	if (ev->at_ns > r->header.end_ns) {
		kv_error(&r->kv, error, "at_ns", "%" PRIu64 " is after end_ns %" PRIu64,
			 ev->at_ns, r->header.end_ns);
		return false;
	}
	r->last_at = ev->at_ns;
	if (ev->kind == TRACE_PHASE)
		return true;
	if (!parse_u64(r, l, "cpu", true, 0, r->header.nr_cpus - 1, &n, error))
		return false;
	ev->cpu = (unsigned int)n;
	return true;
}

/*
 * Re-arming a timer that is still armed on another CPU is an error, and so
 * is re-arming an hrtimer as a timer-wheel timer or the other way round.
 */
static bool armed_elsewhere(const struct known_timer *t, const struct trace_event *ev)
{
	return t && is_armed(t, ev->at_ns) &&
	       (t->cpu != ev->cpu || t->wheel != (ev->kind == TRACE_WHEEL));
}

/* Only a timer armed on the event's CPU can be cancelled. */
static bool cancellable(const struct known_timer *t, const struct trace_event *ev)
{
	return t && is_armed(t, ev->at_ns) && t->cpu == ev->cpu;
}

/* Notes a valid timer event: t is the table's entry for its id, or NULL. */
static bool note_timer(struct trace_reader *r, struct known_timer *t, const struct trace_event *ev,
		       GError **error)
{
	if (!t)
		t = add_timer(r, ev->timer_id);
	if (!t) {
		kv_error(&r->kv, error, "id", "%u timers armed at once, more than the %u a trace "
			 "may have", r->nr_timers, r->armed_max);
		return false;
	}
	t->cpu = ev->cpu;
	t->fires_ns = ev->fires_ns ? ev->fires_ns : ev->expires_ns;
	t->periodic = ev->period_ns != 0;
	t->wheel = ev->kind == TRACE_WHEEL;
	return true;
}

/*
 * A flag, 0 or 1: TIMER and IRQ's optional idle_loop, IRQ's remote and
 * resched, IDLE's aborted, RCU's pending.
 */
static bool parse_flag(struct trace_reader *r, struct kv_line *l, const char *key,
		       bool required, bool *out, GError **error)
{
	uint64_t v = 0;

	if (!parse_u64(r, l, key, required, 0, 1, &v, error))
		return false;
	*out = v;
	return true;
}

/* A timer or wheel record's id: armed on no other CPU, nor as the other kind of timer. */
static bool note_armed(struct trace_reader *r, const struct trace_event *ev, GError **error)
{
	struct known_timer *t = find_timer(r, ev->timer_id);

	if (armed_elsewhere(t, ev)) {
		if (t->cpu != ev->cpu)
			kv_error(&r->kv, error, "id", "timer %" PRIu64 " is still armed on cpu %u: "
				 "cancel it there first", ev->timer_id, t->cpu);
		else
			kv_error(&r->kv, error, "id", "timer %" PRIu64 " is still armed as %s: "
				 "cancel it first", ev->timer_id,
				 t->wheel ? "a timer-wheel timer" : "an hrtimer");
		return false;
	}
	return note_timer(r, t, ev, error);
}

/* A timer or wheel record's expiry: never before its arming. */
static bool expiry_after_arming(struct trace_reader *r, const struct trace_event *ev,
				GError **error)
{
	if (ev->expires_ns >= ev->at_ns)
		return true;
	kv_error(&r->kv, error, "expires_ns", "%" PRIu64 " is before at_ns %" PRIu64,
		 ev->expires_ns, ev->at_ns);
	return false;
}

/* What a TIMER's or an IRQ's interrupt brings the CPU it wakes (the writer's write_work()). */
static bool parse_wakeup(struct trace_reader *r, struct kv_line *l, struct trace_event *ev,
			 GError **error)
{
	return parse_time(r, l, "work_ns", false, 0, &ev->work_ns, error) &&
	       parse_time(r, l, "held_ns", false, 0, &ev->held_ns, error) &&
	       parse_time(r, l, "exit_ns", false, 0, &ev->exit_ns, error) &&
	       parse_time(r, l, "stalled_ns", false, 0, &ev->stalled_ns, error) &&
	       parse_flag(r, l, "idle_loop", false, &ev->idle_loop, error);
}

static bool parse_timer(struct trace_reader *r, struct kv_line *l, struct trace_event *ev,
			GError **error)
{
	if (!parse_u64(r, l, "id", true, 0, UINT64_MAX, &ev->timer_id, error) ||
	    !parse_time(r, l, "expires_ns", true, 0, &ev->expires_ns, error) ||
	    !parse_time(r, l, "fires_ns", false, 0, &ev->fires_ns, error) ||
	    !parse_time(r, l, "period_ns", false, 0, &ev->period_ns, error) ||
	    !parse_wakeup(r, l, ev, error) || !expiry_after_arming(r, ev, error))
		return false;
	if (ev->fires_ns && ev->fires_ns < ev->expires_ns) {
		kv_error(&r->kv, error, "fires_ns", "%" PRIu64 " is before expires_ns %" PRIu64,
			 ev->fires_ns, ev->expires_ns);
		return false;
	}
	if (ev->period_ns && ev->period_ns < TRACE_PERIOD_MIN_NS) {
		kv_error(&r->kv, error, "period_ns", "%" PRIu64 " is below %d (0: one shot)",
			 ev->period_ns, TRACE_PERIOD_MIN_NS);
		return false;
	}
	return note_armed(r, ev, error);
}

/* A timer-wheel timer: no interrupt of its own, it expires at the tick (sim/README.md). */
static bool parse_wheel(struct trace_reader *r, struct kv_line *l, struct trace_event *ev,
			GError **error)
{
	if (!parse_u64(r, l, "id", true, 0, UINT64_MAX, &ev->timer_id, error) ||
	    !parse_time(r, l, "expires_ns", true, 0, &ev->expires_ns, error) ||
	    !parse_time(r, l, "work_ns", false, 0, &ev->work_ns, error))
		return false;
	return expiry_after_arming(r, ev, error) && note_armed(r, ev, error);
}

static bool parse_cancel(struct trace_reader *r, struct kv_line *l, struct trace_event *ev,
			 GError **error)
{
	struct known_timer *t;

	if (!parse_u64(r, l, "id", true, 0, UINT64_MAX, &ev->timer_id, error))
		return false;
	t = find_timer(r, ev->timer_id);
	if (!cancellable(t, ev)) {
		kv_error(&r->kv, error, "id", "timer %" PRIu64 " is not armed on cpu %u", ev->timer_id,
			 ev->cpu);
		return false;
	}
	forget_timer(r, t);
	return true;
}

static bool parse_event(struct trace_reader *r, struct kv_line *l, struct trace_event *ev,
			GError **error)
{
	const char *v;
	uint64_t n;

	memset(ev, 0, sizeof(*ev));
	ev->line = r->kv.line;
	if (!event_kind_of(l->keyword, &ev->kind)) {
		kv_error(&r->kv, error, l->keyword,
			 "unknown record (a trace has timer, wheel, cancel, irq, busy, tick, rcu, "
			 "poll, idle, iowait and phase)");
		return false;
	}
	if (!parse_when_where(r, l, ev, error))
		return false;
	switch (ev->kind) {
	case TRACE_TIMER:
		if (!parse_timer(r, l, ev, error))
			return false;
		break;
	case TRACE_WHEEL:
		if (!parse_wheel(r, l, ev, error))
			return false;
		break;
	case TRACE_CANCEL:
		if (!parse_cancel(r, l, ev, error))
			return false;
		break;
	case TRACE_IRQ:
		if (!parse_wakeup(r, l, ev, error) ||
		    !parse_flag(r, l, "remote", false, &ev->remote, error) ||
		    !parse_flag(r, l, "resched", false, &ev->resched, error))
			return false;
		if (ev->resched && !ev->idle_loop) {
			kv_error(&r->kv, error, "resched", "1 needs idle_loop=1: a CPU that runs a "
				 "task leaves the idle loop anyway");
			return false;
		}
		break;
	case TRACE_BUSY:
		if (!parse_time(r, l, "work_ns", true, 1, &ev->work_ns, error))
			return false;
		break;
	case TRACE_TICK:
		if (!parse_time(r, l, "fires_ns", true, 0, &ev->fires_ns, error))
			return false;
		if (ev->fires_ns < ev->at_ns) {
			kv_error(&r->kv, error, "fires_ns", "%" PRIu64 " is before at_ns %" PRIu64,
				 ev->fires_ns, ev->at_ns);
			return false;
		}
		break;
	case TRACE_RCU:
		if (!parse_flag(r, l, "pending", true, &ev->rcu_pending, error))
			return false;
		break;
	case TRACE_POLL:
		if (!parse_u64(r, l, "check_ns", true, 0, TRACE_POLL_CHECK_MAX_NS, &ev->check_ns,
			       error))
			return false;
		break;
	case TRACE_IDLE:
		if (!parse_flag(r, l, "aborted", false, &ev->aborted, error))
			return false;
		break;
	case TRACE_IOWAIT:
		if (!parse_u64(r, l, "tasks", true, 0, TRACE_IOWAIT_TASKS_MAX, &n, error))
			return false;
		ev->iowait_tasks = (uint32_t)n;
		break;
	case TRACE_PHASE:
		if (!(v = kv_need(&r->kv, l, "name", error)) ||
		    !parse_name(&r->kv, "name", v, sizeof(ev->phase) - 1, error))
			return false;
		strcpy(ev->phase, v);
		break;
	}
	return kv_check_all_used(&r->kv, l, error);
}

/*
 * ---- The fast path: event lines exactly as trace_write_event() writes them ----
 *
 * It reads such a line in one pass and makes every check the general path
 * makes, but changes nothing until all have passed.  Any other line, valid
 * or not, goes the general way, which gives the errors.
 */

/*
 * Skips key, a string literal, at *s.  kv_next_text() leaves KV_SLACK
 * readable bytes past the line, and kv_peek_text() KV_PEEK from its start
 * (FAST_REACH below), so a memcmp() of the literal's constant size, a
 * word compare or two, is safe; equal means all of it is before the line's
 * end, a NUL or a newline, which the key does not contain.
 */
#define SKIP_KEY(s, key)	skip_key(s, key, sizeof(key) - 1)
G_STATIC_ASSERT(sizeof("expires_ns=") - 1 <= KV_SLACK);

static G_ALWAYS_INLINE inline bool skip_key(const char **s, const char *key, size_t len)
{
	if (memcmp(*s, key, len))
		return false;
	*s += len;
	return true;
}

/*
 * ---- Digits eight at a time (SWAR: the 8 bytes of a uint64_t as 8 lanes) ----
 *
 * A value is read from 8-byte words; the word holds the text's first byte
 * in its low lane whatever the host's byte order, so that "the first n
 * bytes" are the low lanes.  A word may extend past the value into the
 * rest of the line, and past its NUL into the KV_SLACK bytes: only the
 * lanes before the first non-digit are used.
 */
#define LANES(b)	(UINT64_C(0x0101010101010101) * (b))

/* The word at p, each byte less '0': the digits' lanes hold 0 to 9. */
static inline uint64_t load_digits(const char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));	/* p need not be aligned */
	return GUINT64_FROM_LE(x) - LANES('0');
}

/*
 * How many of the lanes of x (from load_digits()), from the first, are
 * digits.  A lane of 0 to 9 keeps its top bit clear, alone and with 0x76
 * added; any other byte sets it in one or the other.  Borrows of the
 * subtraction of '0', and carries of this addition, go up a lane only
 * from a lane that is not a digit: the lanes before the first non-digit
 * are exact, and the lowest top bit set is the first non-digit's.
 */
static inline unsigned int count_digits(uint64_t x)
{
	uint64_t wrong = (x | (x + LANES(0x76))) & LANES(0x80);

	return wrong ? (unsigned int)__builtin_ctzll(wrong) / 8 : 8;
}

/*
 * The number written by the first n lanes of x, 1 <= n <= 8.  Shifting
 * them to the top puts zeros, leading zeros, in the lanes below.  Then the
 * lanes are joined in pairs, tens and units, each sum under 256; and the
 * four pairs in one go: the two multiplies add 10^6, 10^4, 10^2 and 1
 * times the pairs, in that order, in the top half of the word (Lemire,
 * "Faster decimal parsing with SWAR", parse_eight_digits_unrolled()).
 */
static inline uint64_t digits_value(uint64_t x, unsigned int n)
{
	const uint64_t pairs = UINT64_C(0x000000ff000000ff);

	x <<= 8 * (8 - n);
	x = x * 10 + (x >> 8);
	return ((x & pairs) * (100 + (UINT64_C(1000000) << 32)) +
		((x >> 16) & pairs) * (1 + (UINT64_C(10000) << 32))) >> 32;
}

/*
 * The digits of a value, then a space or the end of the line: a NUL, or
 * the newline of a line read before kv_take_text() (a NUL in such a line
 * ends a value too, and fast_event() then refuses the line, as the newline
 * does not follow).  At most 19 digits, which fit in 64 bits; longer ones
 * go the general way, read no further than 24 bytes from the first.  Every
 * word read starts on a digit or at the NUL, so it ends at most 7 bytes
 * past the NUL.
 */
G_STATIC_ASSERT(sizeof(uint64_t) - 1 <= KV_SLACK);

/* Bits of the bytes that may follow a value: NUL, newline, space. */
#define VALUE_ENDS	(UINT64_C(1) | UINT64_C(1) << '\n' | UINT64_C(1) << ' ')

static G_ALWAYS_INLINE inline bool scan_digits(const char **s, uint64_t *out)
{
	static const uint64_t scale[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
					  100000000 };
	const char *p = *s;
	uint64_t x = load_digits(p);
	unsigned int n = count_digits(x), k = n;
	uint64_t v;

	if (!n)
		return false;
	v = digits_value(x, n);
	/* Past 19 digits v may wrap, but then the value is refused anyway. */
	while (k == 8 && n <= 19) {
		x = load_digits(p + n);
		k = count_digits(x);
		if (k)
			v = v * scale[k] + digits_value(x, k);
		n += k;
	}
	p += n;
	if (n > 19 || (unsigned char)*p > ' ' || !(VALUE_ENDS >> *p & 1))
		return false;
	*out = v;
	*s = p + (*p == ' ');
	return true;
}

/* "key=DIGITS" (the key given with its '='). */
#define SCAN_NUMBER(s, key, out)	(SKIP_KEY(s, key) && scan_digits(s, out))
/* Whether an optional "key=" is absent, else skips it.  Most are, and their first byte says so. */
#define KEY_ABSENT(s, key)		(**(s) != (key)[0] || !SKIP_KEY(s, key))
/* An optional "key=DIGITS": when absent, *out keeps its 0, as in the general path. */
#define SCAN_OPTIONAL(s, key, out)	(KEY_ABSENT(s, key) || scan_digits(s, out))

/* The record's keyword and a single space. */
static bool scan_kind(const char **s, enum trace_kind *kind)
{
	switch (**s) {
	case 't':
		*kind = (*s)[1] == 'i' && (*s)[2] == 'c' ? TRACE_TICK : TRACE_TIMER;
		return *kind == TRACE_TICK ? SKIP_KEY(s, "tick ") : SKIP_KEY(s, "timer ");
	case 'c':
		*kind = TRACE_CANCEL;
		return SKIP_KEY(s, "cancel ");
	case 'i':
		if ((*s)[1] == 'd') {
			*kind = TRACE_IDLE;
			return SKIP_KEY(s, "idle ");
		}
		*kind = (*s)[1] == 'o' ? TRACE_IOWAIT : TRACE_IRQ;
		return *kind == TRACE_IOWAIT ? SKIP_KEY(s, "iowait ") : SKIP_KEY(s, "irq ");
	case 'b':
		*kind = TRACE_BUSY;
		return SKIP_KEY(s, "busy ");
	case 'w':
		*kind = TRACE_WHEEL;
		return SKIP_KEY(s, "wheel ");
	case 'r':
		*kind = TRACE_RCU;
		return SKIP_KEY(s, "rcu ");
	case 'p':
		*kind = TRACE_POLL;
		return SKIP_KEY(s, "poll ");	/* phases are rare: the general path reads them */
	default:
		return false;
	}
}

/* The writer writes a flag only as 1; anything else takes the general path. */
static G_ALWAYS_INLINE inline bool scan_flag_value(const char **s, bool *out)
{
	uint64_t v = 0;

	if (!scan_digits(s, &v) || v > 1)
		return false;
	*out = v;
	return true;
}

/* An optional flag "key=1" (the key given with its '='): when absent, *out keeps its false. */
#define SCAN_FLAG(s, key, out)	(KEY_ABSENT(s, key) || scan_flag_value(s, out))

/* parse_wakeup()'s fields, in the writer's order. */
static G_ALWAYS_INLINE inline bool scan_wakeup(const char **s, struct trace_event *ev)
{
	return SCAN_OPTIONAL(s, "work_ns=", &ev->work_ns) &&
	       SCAN_OPTIONAL(s, "held_ns=", &ev->held_ns) &&
	       SCAN_OPTIONAL(s, "exit_ns=", &ev->exit_ns) &&
	       SCAN_OPTIONAL(s, "stalled_ns=", &ev->stalled_ns) &&
	       SCAN_FLAG(s, "idle_loop=", &ev->idle_loop);
}

/* The fields after at_ns and cpu, in trace_write_event()'s order. */
static bool scan_kind_fields(const char **s, struct trace_event *ev)
{
	uint64_t v;

	switch (ev->kind) {
	case TRACE_TIMER:
		return SCAN_NUMBER(s, "id=", &ev->timer_id) &&
		       SCAN_NUMBER(s, "expires_ns=", &ev->expires_ns) &&
		       SCAN_OPTIONAL(s, "fires_ns=", &ev->fires_ns) &&
		       SCAN_OPTIONAL(s, "period_ns=", &ev->period_ns) && scan_wakeup(s, ev);
	case TRACE_WHEEL:
		return SCAN_NUMBER(s, "id=", &ev->timer_id) &&
		       SCAN_NUMBER(s, "expires_ns=", &ev->expires_ns) &&
		       SCAN_OPTIONAL(s, "work_ns=", &ev->work_ns);
	case TRACE_CANCEL:
		return SCAN_NUMBER(s, "id=", &ev->timer_id);
	case TRACE_IRQ:
		return scan_wakeup(s, ev) && SCAN_FLAG(s, "remote=", &ev->remote) &&
		       SCAN_FLAG(s, "resched=", &ev->resched);
	case TRACE_BUSY:
		return SCAN_NUMBER(s, "work_ns=", &ev->work_ns);
	case TRACE_TICK:
		return SCAN_NUMBER(s, "fires_ns=", &ev->fires_ns);
	case TRACE_RCU:
		if (!SCAN_NUMBER(s, "pending=", &v) || v > 1)
			return false;
		ev->rcu_pending = v;
		return true;
	case TRACE_POLL:
		return SCAN_NUMBER(s, "check_ns=", &ev->check_ns);
	case TRACE_IDLE:
		return SCAN_FLAG(s, "aborted=", &ev->aborted);
	case TRACE_IOWAIT:
		if (!SCAN_NUMBER(s, "tasks=", &v) || v > TRACE_IOWAIT_TASKS_MAX)
			return false;
		ev->iowait_tasks = (uint32_t)v;
		return true;
	case TRACE_PHASE:
		break;
	}
	return false;
}

/* TRACE_TIME_MAX is 2^62 - 1: values are all at most it exactly when their bitwise or is. */
G_STATIC_ASSERT((TRACE_TIME_MAX & (TRACE_TIME_MAX + 1)) == 0);

/*
 * The general path's checks of one event's own values.  at_ns is at most
 * end_ns, which the header limits to TRACE_TIME_MAX; cpu was checked as
 * it was read; a timer's id may be any number.
 */
static bool values_valid(const struct trace_reader *r, const struct trace_event *ev)
{
	if (ev->at_ns < r->last_at || ev->at_ns > r->header.end_ns)
		return false;
	switch (ev->kind) {
	case TRACE_TIMER:
		return (ev->expires_ns | ev->fires_ns | ev->period_ns | ev->work_ns |
			ev->held_ns | ev->exit_ns | ev->stalled_ns) <= TRACE_TIME_MAX &&
		       ev->expires_ns >= ev->at_ns &&
		       (!ev->fires_ns || ev->fires_ns >= ev->expires_ns) &&
		       (!ev->period_ns || ev->period_ns >= TRACE_PERIOD_MIN_NS);
	case TRACE_WHEEL:
		return (ev->expires_ns | ev->work_ns) <= TRACE_TIME_MAX &&
		       ev->expires_ns >= ev->at_ns;
	case TRACE_CANCEL:
		return true;
	case TRACE_IRQ:
		return (ev->work_ns | ev->held_ns | ev->exit_ns | ev->stalled_ns) <= TRACE_TIME_MAX &&
		       (!ev->resched || ev->idle_loop);
	case TRACE_BUSY:
		return ev->work_ns >= 1 && ev->work_ns <= TRACE_TIME_MAX;
	case TRACE_TICK:
		return ev->fires_ns <= TRACE_TIME_MAX && ev->fires_ns >= ev->at_ns;
	case TRACE_RCU:
		return true;
	case TRACE_POLL:
		return ev->check_ns <= TRACE_POLL_CHECK_MAX_NS;
	case TRACE_IDLE:
	case TRACE_IOWAIT:
		return true;
	case TRACE_PHASE:
		break;
	}
	return false;
}

/*
 * How far fast_event() reads from a line's start, at most: the keyword
 * and its space, then at most 12 fields (a timer's), each a key of at
 * most 11 bytes and a value read no further than 24 bytes from its start.
 */
#define FAST_REACH	(sizeof("cancel ") - 1 + 12 * (sizeof("expires_ns=") - 1 + 24))
G_STATIC_ASSERT(FAST_REACH <= KV_PEEK);

/*
 * Reads a line in the writer's form at *line, which ends at eol (a NUL, or
 * its newline), into ev, and sets *line to its end; false, with r
 * unchanged, for any other.
 */
static bool fast_event(struct trace_reader *r, const char **line, char eol,
		       struct trace_event *ev)
{
	const char *s = *line;
	struct known_timer *t = NULL;
	uint64_t cpu;
	bool arms;

	/* What the line may leave out is 0, as in the general path (the name is for phases). */
	ev->timer_id = ev->expires_ns = ev->fires_ns = ev->period_ns = ev->work_ns = 0;
	ev->held_ns = ev->exit_ns = ev->stalled_ns = ev->check_ns = 0;
	ev->iowait_tasks = 0;
	ev->idle_loop = ev->remote = ev->resched = ev->aborted = ev->rcu_pending = false;
	ev->phase[0] = '\0';
	if (!scan_kind(&s, &ev->kind) || !SCAN_NUMBER(&s, "at_ns=", &ev->at_ns) ||
	    !SCAN_NUMBER(&s, "cpu=", &cpu) || cpu >= r->header.nr_cpus)
		return false;
	ev->cpu = (unsigned int)cpu;
	if (!scan_kind_fields(&s, ev) || *s != eol || !values_valid(r, ev))
		return false;
	arms = ev->kind == TRACE_TIMER || ev->kind == TRACE_WHEEL;
	if (arms || ev->kind == TRACE_CANCEL) {
		t = find_timer(r, ev->timer_id);
		if (arms ? armed_elsewhere(t, ev) : !cancellable(t, ev))
			return false;
	}
	/* A full table: the general path says so. */
	if (arms && !t && !(t = add_timer(r, ev->timer_id)))
		return false;
	r->last_at = ev->at_ns;
	if (arms)
		note_timer(r, t, ev, NULL);
	else if (ev->kind == TRACE_CANCEL)
		forget_timer(r, t);
	*line = s;
	return true;
}

/*
 * Any other line, split into fields and read by key.  Out of line: its
 * kv_line of 32 fields stays off the fast path's stack frame.
 */
static G_GNUC_NO_INLINE int general_event(struct trace_reader *r, char *s, struct trace_event *ev,
					  GError **error)
{
	struct kv_line l;

	if (!kv_split(&r->kv, s, &l, error) || !parse_event(r, &l, ev, error))
		return -1;
	return 1;
}

/* The next event of any CPU: the pending one, a line in the writer's form, or any other. */
static inline int next_any_event(struct trace_reader *r, struct trace_event *ev,
				 GError **error)
{
	const char *line = kv_peek_text(&r->kv);
	char eol = '\n', *s;
	int ret;

	if (r->has_pending) {
		r->has_pending = false;
		return parse_event(r, &r->pending, ev, error) ? 1 : -1;
	}
	/*
	 * Most lines: read to their newline, with no search for it first.
	 * Any other line is taken whole, and read the fast way or else the
	 * general way.  One call of fast_event(), which stays inline.
	 */
	for (;;) {
		if (line && fast_event(r, &line, eol, ev)) {
			if (eol)
				kv_take_text(&r->kv, line);
			ev->line = r->kv.line;
			return 1;
		}
		if (!eol)
			return general_event(r, s, ev, error);
		ret = kv_next_text(&r->kv, &s, error);
		if (ret <= 0)
			return ret;
		line = s;
		eol = '\0';
	}
}

int trace_next(struct trace_reader *r, const struct trace_event **ev, GError **error)
{
	*ev = &r->ev;
	return next_any_event(r, &r->ev, error);
}

char *trace_platform_spec(const char *path, const struct trace_header *h)
{
	g_autofree char *dir = NULL;

	if (!h->platform)
		return NULL;
	if (!g_str_has_suffix(h->platform, PLATFORM_SUFFIX))
		return g_strdup(h->platform);
	dir = g_path_get_dirname(path);
	return g_build_filename(dir, h->platform, NULL);
}

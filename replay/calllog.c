// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <string.h>

#include "calllog.h"

struct calllog_reader {
	struct kv_reader kv;
	struct calllog_header header;
	/* Per CPU: the last clock seen, and whether a select awaits its reflect. */
	uint64_t *last_clock;
	bool *select_open;
	/* The first call record, read while looking for the header's end. */
	struct kv_line pending;
	bool has_pending;
};

/* A name of 1 to size - 1 characters of [A-Za-z0-9_.-] into out[size]. */
static bool parse_name(struct kv_reader *kv, const char *field, const char *value, char *out,
		       size_t size, GError **error)
{
	size_t len = strlen(value);

	if (len < 1 || len >= size ||
	    strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != len) {
		kv_error(kv, error, field, "'%s' is not 1 to %zu of [A-Za-z0-9_.-]", value, size - 1);
		return false;
	}
	memcpy(out, value, len + 1);
	return true;
}

static bool parse_state(struct calllog_reader *r, struct kv_line *l, GError **error)
{
	struct kv_reader *kv = &r->kv;
	struct calllog_header *h = &r->header;
	struct kshim_state_desc *s;
	const char *v;
	uint64_t n;

	if (l->nr_fields < 1 || l->fields[0].value) {
		kv_error(kv, error, "state", "the index must follow 'state'");
		return false;
	}
	l->fields[0].used = true;
	if (!kv_u64(kv, "state", l->fields[0].key, 0, UINT64_MAX, &n, error))
		return false;
	if (n >= KSHIM_STATE_MAX) {
		kv_error(kv, error, "state", "index %" PRIu64 ": cpuidle has at most %d states",
			 n, KSHIM_STATE_MAX);
		return false;
	}
	if (n != h->state_count) {
		kv_error(kv, error, "state", "index %" PRIu64 " where %u was expected", n,
			 h->state_count);
		return false;
	}
	s = &h->states[h->state_count];
	memset(s, 0, sizeof(*s));
	if (!(v = kv_need(kv, l, "name", error)) || !parse_name(kv, "name", v, s->name, sizeof(s->name), error))
		return false;
	if (!(v = kv_need(kv, l, "exit_us", error)) ||
	    !kv_u64(kv, "exit_us", v, 0, UINT32_MAX, &n, error))
		return false;
	s->exit_latency_us = (uint32_t)n;
	if (!(v = kv_need(kv, l, "residency_us", error)) ||
	    !kv_u64(kv, "residency_us", v, 0, UINT32_MAX, &n, error))
		return false;
	s->target_residency_us = (uint32_t)n;
	if ((v = kv_get(l, "flags"))) {
		if (strcmp(v, "polling")) {
			kv_error(kv, error, "flags", "'%s' is not a known flag (polling)", v);
			return false;
		}
		s->polling = true;
	}
	if ((v = kv_get(l, "disabled")) && !kv_bool(kv, "disabled", v, &s->disabled, error))
		return false;
	if (!kv_check_all_used(kv, l, error))
		return false;
	h->state_count++;
	return true;
}

/* "hz N" / "cpus N": the single value is the record's only bare word. */
static bool parse_single(struct kv_reader *kv, struct kv_line *l, uint64_t min,
			 uint64_t max, uint64_t *out, GError **error)
{
	if (l->nr_fields != 1 || l->fields[0].value) {
		kv_error(kv, error, l->keyword, "takes exactly one number");
		return false;
	}
	return kv_u64(kv, l->keyword, l->fields[0].key, min, max, out, error);
}

static bool read_header(struct calllog_reader *r, GError **error)
{
	struct kv_reader *kv = &r->kv;
	struct calllog_header *h = &r->header;
	bool have_hz = false, have_cpus = false;
	struct kv_line l;
	uint64_t n;
	int ret;

	ret = kv_next(kv, &l, error);
	if (ret < 0)
		return false;
	if (ret == 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
			    "%s: empty file: a call log starts with 'teosim-calls %d'",
			    kv->path, CALLLOG_VERSION);
		return false;
	}
	if (strcmp(l.keyword, "teosim-calls") || l.nr_fields != 1 || l.fields[0].value) {
		kv_error(kv, error, NULL, "not a call log: it must start with 'teosim-calls %d'",
			 CALLLOG_VERSION);
		return false;
	}
	if (!kv_u64(kv, "teosim-calls", l.fields[0].key, 0, UINT64_MAX, &n, error))
		return false;
	if (n != CALLLOG_VERSION) {
		kv_error(kv, error, "teosim-calls", "version %" PRIu64 " (this teosim reads %d)",
			 n, CALLLOG_VERSION);
		return false;
	}

	for (;;) {
		ret = kv_next(kv, &l, error);
		if (ret < 0)
			return false;
		if (ret == 0 || !strcmp(l.keyword, "select") || !strcmp(l.keyword, "reflect"))
			break;
		if (!strcmp(l.keyword, "hz")) {
			if (have_hz) {
				kv_error(kv, error, "hz", "given twice");
				return false;
			}
			if (!parse_single(kv, &l, 0, UINT32_MAX, &n, error))
				return false;
			if (!kshim_hz_valid((unsigned int)n)) {
				kv_error(kv, error, "hz", "%" PRIu64 ": the kernel offers 100, 250, 300 or 1000", n);
				return false;
			}
			h->hz = (unsigned int)n;
			have_hz = true;
		} else if (!strcmp(l.keyword, "cpus")) {
			if (have_cpus) {
				kv_error(kv, error, "cpus", "given twice");
				return false;
			}
			if (!parse_single(kv, &l, 1, KSHIM_MAX_CPUS, &n, error))
				return false;
			h->nr_cpus = (unsigned int)n;
			have_cpus = true;
		} else if (!strcmp(l.keyword, "state")) {
			if (!parse_state(r, &l, error))
				return false;
		} else if (!strcmp(l.keyword, "governor")) {
			if (h->governor[0]) {
				kv_error(kv, error, "governor", "given twice");
				return false;
			}
			if (l.nr_fields != 1 || l.fields[0].value) {
				kv_error(kv, error, "governor", "takes exactly one value");
				return false;
			}
			if (!parse_name(kv, "governor", l.fields[0].key, h->governor,
					sizeof(h->governor), error))
				return false;
		} else {
			kv_error(kv, error, l.keyword, "unknown record in the header");
			return false;
		}
	}
	if (!have_hz || !have_cpus || h->state_count == 0) {
		kv_error(kv, error, !have_hz ? "hz" : !have_cpus ? "cpus" : "state",
			 "the header ends without it");
		return false;
	}
	if (ret > 0) {
		r->pending = l;
		r->has_pending = true;
	}
	return true;
}

struct calllog_reader *calllog_open(const char *path, GError **error)
{
	struct calllog_reader *r = g_new0(struct calllog_reader, 1);

	if (!kv_open(&r->kv, path, error)) {
		g_free(r);
		return NULL;
	}
	if (!read_header(r, error)) {
		calllog_close(r);
		return NULL;
	}
	r->last_clock = g_new0(uint64_t, r->header.nr_cpus);
	r->select_open = g_new0(bool, r->header.nr_cpus);
	return r;
}

void calllog_close(struct calllog_reader *r)
{
	if (!r)
		return;
	kv_close(&r->kv);
	g_free(r->last_clock);
	g_free(r->select_open);
	g_free(r);
}

const struct calllog_header *calllog_header(const struct calllog_reader *r)
{
	return &r->header;
}

const char *calllog_path(const struct calllog_reader *r)
{
	return r->kv.path;
}

static bool parse_u64_field(struct calllog_reader *r, struct kv_line *l, const char *key,
			    uint64_t min, uint64_t max, uint64_t *out, GError **error)
{
	const char *v = kv_need(&r->kv, l, key, error);

	return v && kv_u64(&r->kv, key, v, min, max, out, error);
}

static bool parse_bool_field(struct calllog_reader *r, struct kv_line *l, const char *key,
			     bool *out, GError **error)
{
	const char *v = kv_need(&r->kv, l, key, error);

	return v && kv_bool(&r->kv, key, v, out, error);
}

/* cpu= and clock=, with the per-CPU clock order check. */
static bool parse_cpu_clock(struct calllog_reader *r, struct kv_line *l, unsigned int *cpu,
			    uint64_t *clock, GError **error)
{
	uint64_t n;

	if (!parse_u64_field(r, l, "cpu", 0, r->header.nr_cpus - 1, &n, error))
		return false;
	*cpu = (unsigned int)n;
	if (!parse_u64_field(r, l, "clock", 0, UINT64_MAX, clock, error))
		return false;
	if (*clock < r->last_clock[*cpu]) {
		kv_error(&r->kv, error, "clock", "%" PRIu64 " goes backwards on cpu %u (after %" PRIu64 ")",
			 *clock, *cpu, r->last_clock[*cpu]);
		return false;
	}
	r->last_clock[*cpu] = *clock;
	return true;
}

static bool parse_state_index(struct calllog_reader *r, const char *key, const char *v,
			      int *out, GError **error)
{
	uint64_t n;

	if (!kv_u64(&r->kv, key, v, 0, UINT64_MAX, &n, error))
		return false;
	if (n >= r->header.state_count) {
		kv_error(&r->kv, error, key, "state %" PRIu64 " does not exist (the header has %u)",
			 n, r->header.state_count);
		return false;
	}
	*out = (int)n;
	return true;
}

/* "1,3": a set of state indices as a bit mask. */
static bool parse_state_list(struct calllog_reader *r, const char *key, const char *v,
			     uint16_t *mask, GError **error)
{
	g_auto(GStrv) items = g_strsplit(v, ",", -1);

	for (char **it = items; *it; it++) {
		int idx;

		if (!parse_state_index(r, key, *it, &idx, error))
			return false;
		*mask |= (uint16_t)(1u << idx);
	}
	return true;
}

static bool parse_select(struct calllog_reader *r, struct kv_line *l,
			 struct calllog_select *s, GError **error)
{
	const char *sleep, *tick, *v;
	uint64_t n;

	memset(s, 0, sizeof(*s));
	if (!parse_cpu_clock(r, l, &s->cpu, &s->clock_ns, error))
		return false;
	sleep = kv_get(l, "sleep_ns");
	tick = kv_get(l, "tick_ns");
	if (!sleep != !tick) {
		kv_error(&r->kv, error, sleep ? "tick_ns" : "sleep_ns",
			 "sleep_ns and tick_ns come together");
		return false;
	}
	if (sleep) {
		s->has_sleep = true;
		if (!kv_s64(&r->kv, "sleep_ns", sleep, INT64_MIN, INT64_MAX, &s->sleep_ns, error) ||
		    !kv_s64(&r->kv, "tick_ns", tick, INT64_MIN, INT64_MAX, &s->tick_ns, error))
			return false;
	}
	if (!parse_u64_field(r, l, "qos_us", 0, INT32_MAX, &n, error))
		return false;
	s->qos_us = (int32_t)n;
	if (!parse_bool_field(r, l, "stopped", &s->tick_stopped, error))
		return false;
	if (!parse_u64_field(r, l, "iowait", 0, UINT32_MAX, &n, error))
		return false;
	s->nr_iowait = (uint32_t)n;
	if ((v = kv_get(l, "disable")) && !parse_state_list(r, "disable", v, &s->disable_mask, error))
		return false;
	if ((v = kv_get(l, "enable")) && !parse_state_list(r, "enable", v, &s->enable_mask, error))
		return false;
	if (s->disable_mask & s->enable_mask) {
		kv_error(&r->kv, error, "enable", "a state is both disabled and enabled");
		return false;
	}
	v = kv_get(l, "state");
	tick = kv_get(l, "stop_tick");
	if (!v != !tick) {
		kv_error(&r->kv, error, v ? "stop_tick" : "state",
			 "a recorded decision has both state and stop_tick");
		return false;
	}
	if (v) {
		s->has_decision = true;
		if (!parse_state_index(r, "state", v, &s->state, error) ||
		    !kv_bool(&r->kv, "stop_tick", tick, &s->stop_tick, error))
			return false;
	}
	if (!kv_check_all_used(&r->kv, l, error))
		return false;
	r->select_open[s->cpu] = true;
	return true;
}

static bool parse_reflect(struct calllog_reader *r, struct kv_line *l,
			  struct calllog_reflect *f, GError **error)
{
	const char *v;

	memset(f, 0, sizeof(*f));
	if (!parse_cpu_clock(r, l, &f->cpu, &f->clock_ns, error))
		return false;
	if (!r->select_open[f->cpu]) {
		kv_error(&r->kv, error, "cpu", "reflect on cpu %u without a select before it", f->cpu);
		return false;
	}
	if (!(v = kv_need(&r->kv, l, "state", error)) ||
	    !parse_state_index(r, "state", v, &f->state, error))
		return false;
	if (!parse_u64_field(r, l, "residency_ns", 0, UINT64_MAX, &f->residency_ns, error) ||
	    !parse_bool_field(r, l, "got_tick", &f->got_tick, error) ||
	    !parse_bool_field(r, l, "poll_limit", &f->poll_time_limit, error) ||
	    !kv_check_all_used(&r->kv, l, error))
		return false;
	r->select_open[f->cpu] = false;
	return true;
}

int calllog_next(struct calllog_reader *r, struct calllog_record *rec, GError **error)
{
	struct kv_line l;

	if (r->has_pending) {
		l = r->pending;
		r->has_pending = false;
	} else {
		int ret = kv_next(&r->kv, &l, error);

		if (ret <= 0)
			return ret;
	}
	rec->line = r->kv.line;
	if (!strcmp(l.keyword, "select")) {
		rec->kind = CALLLOG_SELECT;
		return parse_select(r, &l, &rec->select, error) ? 1 : -1;
	}
	if (!strcmp(l.keyword, "reflect")) {
		rec->kind = CALLLOG_REFLECT;
		return parse_reflect(r, &l, &rec->reflect, error) ? 1 : -1;
	}
	kv_error(&r->kv, error, l.keyword,
		 "unknown record (a call log has 'select' and 'reflect' after its header)");
	return -1;
}

void calllog_write_header(FILE *out, const struct calllog_header *h)
{
	fprintf(out, "teosim-calls %d\nhz %u\ncpus %u\n", CALLLOG_VERSION, h->hz, h->nr_cpus);
	if (h->governor[0])
		fprintf(out, "governor %s\n", h->governor);
	for (unsigned int i = 0; i < h->state_count; i++) {
		const struct kshim_state_desc *s = &h->states[i];

		fprintf(out, "state %u name=%s exit_us=%" PRIu32 " residency_us=%" PRIu32 "%s%s\n",
			i, s->name, s->exit_latency_us, s->target_residency_us,
			s->polling ? " flags=polling" : "", s->disabled ? " disabled=1" : "");
	}
}

static void write_state_list(FILE *out, const char *key, uint16_t mask)
{
	const char *sep = "";

	if (!mask)
		return;
	fprintf(out, " %s=", key);
	for (int i = 0; i < KSHIM_STATE_MAX; i++) {
		if (mask & (1u << i)) {
			fprintf(out, "%s%d", sep, i);
			sep = ",";
		}
	}
}

void calllog_write_select(FILE *out, const struct calllog_select *s)
{
	fprintf(out, "select cpu=%u clock=%" PRIu64, s->cpu, s->clock_ns);
	if (s->has_sleep)
		fprintf(out, " sleep_ns=%" PRId64 " tick_ns=%" PRId64, s->sleep_ns, s->tick_ns);
	fprintf(out, " qos_us=%" PRId32 " stopped=%d iowait=%" PRIu32,
		s->qos_us, s->tick_stopped, s->nr_iowait);
	write_state_list(out, "disable", s->disable_mask);
	write_state_list(out, "enable", s->enable_mask);
	if (s->has_decision)
		fprintf(out, " state=%d stop_tick=%d", s->state, s->stop_tick);
	fputc('\n', out);
}

void calllog_write_reflect(FILE *out, const struct calllog_reflect *f)
{
	fprintf(out, "reflect cpu=%u clock=%" PRIu64 " state=%d residency_ns=%" PRIu64
		" got_tick=%d poll_limit=%d\n",
		f->cpu, f->clock_ns, f->state, f->residency_ns, f->got_tick, f->poll_time_limit);
}

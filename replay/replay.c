// SPDX-License-Identifier: GPL-2.0
/*
 * The replay host: every kernel value a governor asks for during a call is
 * answered from the log record of that call.
 */
#include <inttypes.h>

#include <kshim/machine.h>

#include "calllog.h"
#include "replay.h"

struct replay_cpu {
	uint64_t clock_ns;
	const struct calllog_select *select;	/* during select */
	bool got_tick;				/* during reflect */
	bool asked_missing_sleep;
	bool select_unreflected;		/* a select awaits its reflect */
};

struct replay_host {
	struct replay_cpu *cpus;
};

static uint64_t host_local_clock(void *priv, unsigned int cpu)
{
	return ((struct replay_host *)priv)->cpus[cpu].clock_ns;
}

static int64_t host_sleep_length(void *priv, unsigned int cpu, int64_t *delta_next_ns)
{
	struct replay_cpu *c = &((struct replay_host *)priv)->cpus[cpu];

	if (!c->select || !c->select->has_sleep) {
		/* Reported after the call; the governor gets a harmless value. */
		c->asked_missing_sleep = true;
		*delta_next_ns = 0;
		return 0;
	}
	*delta_next_ns = c->select->tick_ns;
	return c->select->sleep_ns;
}

static bool host_tick_stopped(void *priv, unsigned int cpu)
{
	const struct replay_cpu *c = &((struct replay_host *)priv)->cpus[cpu];

	return c->select && c->select->tick_stopped;
}

static bool host_got_tick(void *priv, unsigned int cpu)
{
	return ((struct replay_host *)priv)->cpus[cpu].got_tick;
}

static int32_t host_latency_limit_us(void *priv, unsigned int cpu)
{
	const struct replay_cpu *c = &((struct replay_host *)priv)->cpus[cpu];

	return c->select ? c->select->qos_us : INT32_MAX;
}

static unsigned int host_nr_iowait(void *priv, unsigned int cpu)
{
	const struct replay_cpu *c = &((struct replay_host *)priv)->cpus[cpu];

	return c->select ? c->select->nr_iowait : 0;
}

static const struct kshim_host_ops replay_host_ops = {
	.local_clock = host_local_clock,
	.sleep_length = host_sleep_length,
	.tick_stopped = host_tick_stopped,
	.got_tick = host_got_tick,
	.latency_limit_us = host_latency_limit_us,
	.nr_iowait = host_nr_iowait,
};

static void apply_disable_changes(struct kshim_machine *m, const struct calllog_select *s)
{
	for (int i = 0; i < KSHIM_STATE_MAX; i++) {
		if (s->disable_mask & (1u << i))
			kshim_machine_set_disabled(m, s->cpu, i, true);
		if (s->enable_mask & (1u << i))
			kshim_machine_set_disabled(m, s->cpu, i, false);
	}
}

static void write_usage(FILE *usage, const struct kshim_machine *m,
			const struct calllog_header *h)
{
	for (unsigned int cpu = 0; cpu < h->nr_cpus; cpu++) {
		for (unsigned int i = 0; i < h->state_count; i++) {
			struct kshim_usage u;

			kshim_machine_usage(m, cpu, (int)i, &u);
			fprintf(usage, "usage cpu=%u state=%u usage=%" PRIu64 " time_ns=%" PRIu64
				" above=%" PRIu64 " below=%" PRIu64 " rejected=%" PRIu64 "\n",
				cpu, i, u.usage, u.time_ns, u.above, u.below, u.rejected);
		}
	}
}

static bool do_select(struct kshim_machine *m, struct replay_host *host,
		      const struct calllog_reader *log, const struct kshim_governor *gov,
		      const struct calllog_record *rec, FILE *out, enum replay_check check,
		      struct replay_result *result, GError **error)
{
	const struct calllog_select *s = &rec->select;
	struct replay_cpu *c = &host->cpus[s->cpu];
	bool stop_tick;
	int state;

	if (check == REPLAY_CHECK_EVERY && !s->has_decision) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s:%lu: state: --check needs a recorded decision on every select",
			    calllog_path(log), rec->line);
		return false;
	}
	/*
	 * A select after a select: the kernel entered no state in between
	 * (call_cpuidle() saw work pending), which zeroes the last residency.
	 */
	if (c->select_unreflected)
		kshim_machine_not_entered(m, s->cpu);
	c->select_unreflected = true;
	apply_disable_changes(m, s);
	c->clock_ns = s->clock_ns;
	c->select = s;
	c->asked_missing_sleep = false;
	state = kshim_machine_select(m, s->cpu, &stop_tick);
	c->select = NULL;
	if (c->asked_missing_sleep) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s:%lu: sleep_ns: %s asked for the sleep length, which this select does not record",
			    calllog_path(log), rec->line, gov->meta->name);
		return false;
	}
	result->selects++;
	if (out)
		fprintf(out, "decision line=%lu cpu=%u state=%d stop_tick=%d\n",
			rec->line, s->cpu, state, stop_tick);
	if (!s->has_decision)
		return true;
	result->compared++;
	if (check != REPLAY_NO_CHECK && (state != s->state || stop_tick != s->stop_tick)) {
		g_autoptr(GString) inputs = g_string_new(NULL);
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);

		calllog_write_select(mem, s);
		fclose(mem);
		g_string_append_len(inputs, buf, (gssize)len);
		free(buf);
		result->mismatches++;
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
			    "%s:%lu: %s decided state=%d stop_tick=%d; the log recorded state=%d stop_tick=%d\n"
			    "  inputs: %s",
			    calllog_path(log), rec->line, gov->meta->name, state, stop_tick,
			    s->state, s->stop_tick, g_strchomp(inputs->str));
		return false;
	}
	return true;
}

static void do_reflect(struct kshim_machine *m, struct replay_host *host,
		       const struct calllog_reflect *f)
{
	struct replay_cpu *c = &host->cpus[f->cpu];

	c->select_unreflected = false;
	kshim_machine_entered(m, f->cpu, f->state, f->state, f->residency_ns,
			      f->poll_time_limit);
	c->clock_ns = f->clock_ns;
	c->got_tick = f->got_tick;
	kshim_machine_reflect(m, f->cpu, f->state);
	c->got_tick = false;
}

bool replay_run(const struct kshim_governor *gov, const char *path, FILE *out,
		enum replay_check check, FILE *usage, struct replay_result *result,
		GError **error)
{
	struct kshim_machine_config cfg = { 0 };
	struct replay_host host = { 0 };
	struct kshim_machine *m = NULL;
	struct calllog_reader *log;
	const struct calllog_header *h;
	struct calllog_record rec;
	char err[256];
	bool ok = false;
	int ret;

	*result = (struct replay_result){ 0 };
	log = calllog_open(path, error);
	if (!log)
		return false;
	h = calllog_header(log);
	cfg.nr_cpus = h->nr_cpus;
	cfg.hz = h->hz;
	cfg.state_count = h->state_count;
	memcpy(cfg.states, h->states, sizeof(cfg.states));
	cfg.host = &replay_host_ops;
	cfg.host_priv = &host;
	host.cpus = g_new0(struct replay_cpu, h->nr_cpus);
	if (kshim_machine_new(gov, &cfg, &m, err, sizeof(err))) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID, "%s: %s", path, err);
		goto out;
	}
	if (out)
		fprintf(out, "teosim-decisions 1 governor=%s\n", gov->meta->name);
	while ((ret = calllog_next(log, &rec, error)) > 0) {
		if (rec.kind == CALLLOG_SELECT) {
			if (!do_select(m, &host, log, gov, &rec, out, check, result, error))
				goto out;
		} else {
			do_reflect(m, &host, &rec.reflect);
		}
	}
	if (ret < 0)
		goto out;
	if (usage)
		write_usage(usage, m, h);
	ok = true;
out:
	kshim_machine_free(m);
	g_free(host.cpus);
	calllog_close(log);
	return ok;
}

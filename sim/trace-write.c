// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>

#include "trace-write.h"

void trace_write_header(FILE *out, const struct trace_header *h)
{
	fprintf(out, "teosim-trace %d\n", TRACE_VERSION);
	if (h->name)
		fprintf(out, "name %s\n", h->name);
	fprintf(out, "cpus %u\nend_ns %" PRIu64 "\n", h->nr_cpus, h->end_ns);
	if (h->mono_ns)
		fprintf(out, "mono_ns %" PRIu64 "\n", h->mono_ns);
	if (h->poll_check_ns)
		fprintf(out, "poll_check_ns %" PRIu64 "\n", h->poll_check_ns);
	if (h->has_tick_stop)
		fprintf(out, "tick_stop_ns %" PRIu64 "\n", h->tick_stop_ns);
	if (h->platform)
		fprintf(out, "platform %s\n", h->platform);
}

static void write_work(FILE *out, const struct trace_event *ev)
{
	if (ev->work_ns)
		fprintf(out, " work_ns=%" PRIu64, ev->work_ns);
	if (ev->held_ns)
		fprintf(out, " held_ns=%" PRIu64, ev->held_ns);
	if (ev->exit_ns)
		fprintf(out, " exit_ns=%" PRIu64, ev->exit_ns);
	if (ev->stalled_ns)
		fprintf(out, " stalled_ns=%" PRIu64, ev->stalled_ns);
	if (ev->idle_loop)
		fprintf(out, " idle_loop=1");
}

void trace_write_event(FILE *out, const struct trace_event *ev)
{
	switch (ev->kind) {
	case TRACE_TIMER:
		fprintf(out, "timer at_ns=%" PRIu64 " cpu=%u id=%" PRIu64 " expires_ns=%" PRIu64,
			ev->at_ns, ev->cpu, ev->timer_id, ev->expires_ns);
		if (ev->fires_ns)
			fprintf(out, " fires_ns=%" PRIu64, ev->fires_ns);
		if (ev->period_ns)
			fprintf(out, " period_ns=%" PRIu64, ev->period_ns);
		write_work(out, ev);
		break;
	case TRACE_WHEEL:
		fprintf(out, "wheel at_ns=%" PRIu64 " cpu=%u id=%" PRIu64 " expires_ns=%" PRIu64,
			ev->at_ns, ev->cpu, ev->timer_id, ev->expires_ns);
		if (ev->work_ns)
			fprintf(out, " work_ns=%" PRIu64, ev->work_ns);
		break;
	case TRACE_CANCEL:
		fprintf(out, "cancel at_ns=%" PRIu64 " cpu=%u id=%" PRIu64,
			ev->at_ns, ev->cpu, ev->timer_id);
		break;
	case TRACE_IRQ:
		fprintf(out, "irq at_ns=%" PRIu64 " cpu=%u", ev->at_ns, ev->cpu);
		write_work(out, ev);
		if (ev->remote)
			fprintf(out, " remote=1");
		if (ev->resched)
			fprintf(out, " resched=1");
		break;
	case TRACE_BUSY:
		fprintf(out, "busy at_ns=%" PRIu64 " cpu=%u work_ns=%" PRIu64,
			ev->at_ns, ev->cpu, ev->work_ns);
		break;
	case TRACE_TICK:
		fprintf(out, "tick at_ns=%" PRIu64 " cpu=%u fires_ns=%" PRIu64,
			ev->at_ns, ev->cpu, ev->fires_ns);
		break;
	case TRACE_RCU:
		fprintf(out, "rcu at_ns=%" PRIu64 " cpu=%u pending=%d", ev->at_ns, ev->cpu,
			ev->rcu_pending);
		break;
	case TRACE_POLL:
		fprintf(out, "poll at_ns=%" PRIu64 " cpu=%u check_ns=%" PRIu64, ev->at_ns, ev->cpu,
			ev->check_ns);
		break;
	case TRACE_IDLE:
		fprintf(out, "idle at_ns=%" PRIu64 " cpu=%u", ev->at_ns, ev->cpu);
		if (ev->aborted)
			fprintf(out, " aborted=1");
		break;
	case TRACE_IOWAIT:
		fprintf(out, "iowait at_ns=%" PRIu64 " cpu=%u tasks=%" PRIu32, ev->at_ns, ev->cpu,
			ev->iowait_tasks);
		break;
	case TRACE_PHASE:
		fprintf(out, "phase at_ns=%" PRIu64 " name=%s", ev->at_ns, ev->phase);
		break;
	}
	fputc('\n', out);
}

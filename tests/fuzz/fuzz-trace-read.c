// SPDX-License-Identifier: GPL-2.0
#include "fuzz-input.h"
#include "fuzz-trace-read.h"
#include "trace-limits.h"
#include "trace.h"

static void check_event(const struct trace_header *h, const struct trace_event *ev,
			uint64_t *last_at)
{
	FUZZ_ASSERT(ev->at_ns >= *last_at);
	*last_at = ev->at_ns;
	FUZZ_ASSERT(ev->at_ns <= TRACE_TIME_MAX);
	if (ev->kind != TRACE_PHASE)
		FUZZ_ASSERT(ev->cpu < h->nr_cpus);
	if (ev->kind == TRACE_TIMER) {
		FUZZ_ASSERT(ev->expires_ns >= ev->at_ns);
		FUZZ_ASSERT(ev->fires_ns == 0 || ev->fires_ns >= ev->expires_ns);
		FUZZ_ASSERT(ev->period_ns == 0 || ev->period_ns >= TRACE_PERIOD_MIN_NS);
	}
	/* A wheel timer has its boundary and its callback's work, nothing else. */
	if (ev->kind == TRACE_WHEEL) {
		FUZZ_ASSERT(ev->expires_ns >= ev->at_ns && ev->expires_ns <= TRACE_TIME_MAX);
		FUZZ_ASSERT(ev->work_ns <= TRACE_TIME_MAX);
		FUZZ_ASSERT(!ev->fires_ns && !ev->period_ns && !ev->held_ns && !ev->exit_ns &&
			    !ev->idle_loop);
	}
	/* An rcu record says only whether callbacks are queued. */
	if (ev->kind == TRACE_RCU)
		FUZZ_ASSERT(!ev->expires_ns && !ev->fires_ns && !ev->work_ns && !ev->timer_id);
	else
		FUZZ_ASSERT(!ev->rcu_pending);
	/* A poll record's pace is a check interval (0: the default's); no other record has one. */
	if (ev->kind == TRACE_POLL)
		FUZZ_ASSERT(ev->check_ns <= TRACE_POLL_CHECK_MAX_NS);
	else
		FUZZ_ASSERT(!ev->check_ns);
	/* An iowait record's count stays within a kernel's pids; no other record has one. */
	if (ev->kind == TRACE_IOWAIT)
		FUZZ_ASSERT(ev->iowait_tasks <= TRACE_IOWAIT_TASKS_MAX);
	else
		FUZZ_ASSERT(!ev->iowait_tasks);
	/* Only an idle record's select is aborted. */
	FUZZ_ASSERT(!ev->aborted || ev->kind == TRACE_IDLE);
}

/* Refused input must say why; teosim's own output must not be refused. */
static void check_error(GError *error, bool must_be_valid)
{
	if (!error)
		return;
	FUZZ_ASSERT(error->message[0]);
	if (must_be_valid) {
		fprintf(stderr, "teosim wrote a trace that it refuses: %s\n", error->message);
		FUZZ_ASSERT(!must_be_valid);
	}
	g_error_free(error);
}

void fuzz_read_trace(const char *path, bool must_be_valid)
{
	const struct trace_event *ev;
	struct trace_reader *r;
	GError *error = NULL;
	uint64_t last_at = 0;
	int got;

	r = trace_open(path, &error);
	if (!r) {
		FUZZ_ASSERT(error);
		check_error(error, must_be_valid);
		return;
	}
	FUZZ_ASSERT(trace_header(r)->nr_cpus > 0);
	while ((got = trace_next(r, &ev, &error)) == 1)
		check_event(trace_header(r), ev, &last_at);
	FUZZ_ASSERT((got < 0) == (error != NULL));
	check_error(error, must_be_valid);
	trace_close(r);
}

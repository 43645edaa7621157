// SPDX-License-Identifier: GPL-2.0
/* What each kind of source does (traces/scenarios/README.md describes the kinds). */
#include <string.h>

#include "gen-random.h"
#include "gen-stream.h"

#define NS_PER_S	1e9

void gen_stream_init(struct gen_stream *st, const struct gen_source *src,
		     unsigned int source_index, unsigned int cpu, unsigned int index,
		     uint32_t seed)
{
	guint32 key[3] = { seed, source_index, cpu };

	memset(st, 0, sizeof(*st));
	st->src = src;
	st->index = index;
	st->cpu = cpu;
	st->peer = src->kind == GEN_PINGPONG ? src->cpus[1] : cpu;
	st->timer_id = index + 1;	/* one timer per stream: a unique id */
	st->rand = g_rand_new_with_seed_array(key, G_N_ELEMENTS(key));
}

void gen_stream_clear(struct gen_stream *st)
{
	if (st->rand)
		g_rand_free(st->rand);
	st->rand = NULL;
}

static struct trace_event *push(struct gen_stream *st, enum trace_kind kind, uint64_t at,
				unsigned int cpu)
{
	struct trace_event *ev = &st->queue[(st->qhead + st->qlen++) % G_N_ELEMENTS(st->queue)];

	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->at_ns = at;
	ev->cpu = cpu;
	return ev;
}

static void push_timer(struct gen_stream *st, uint64_t at, uint64_t expires, uint64_t period)
{
	struct trace_event *ev = push(st, TRACE_TIMER, at, st->cpu);

	ev->timer_id = st->timer_id;
	ev->expires_ns = expires;
	ev->period_ns = period;
	ev->work_ns = st->src->work_ns;
	st->timer_armed = true;
	st->timer_periodic = period != 0;
	st->timer_expires = expires;
}

static void push_cancel(struct gen_stream *st, uint64_t at)
{
	push(st, TRACE_CANCEL, at, st->cpu)->timer_id = st->timer_id;
	st->timer_armed = false;
}

static void push_irq(struct gen_stream *st, uint64_t at, unsigned int cpu)
{
	push(st, TRACE_IRQ, at, cpu)->work_ns = st->src->work_ns;
}

/* The mean time between events of a rate. */
static double mean_gap_ns(const struct gen_source *src)
{
	return NS_PER_S / src->rate_hz;
}

static void start_window(struct gen_stream *st, const struct gen_window *w)
{
	const struct gen_source *src = st->src;

	st->first = true;
	st->left = 0;
	switch (src->kind) {
	case GEN_PERIODIC:
		st->t = w->start_ns;
		break;
	case GEN_IO:
		/* Its task issues the first request: it waits for I/O on the CPU from now. */
		push(st, TRACE_IOWAIT, w->start_ns, st->cpu)->iowait_tasks = 1;
		st->t = w->start_ns + gen_exp_ns(st->rand, src->latency_ns);
		break;
	default:
		st->t = w->start_ns + gen_exp_ns(st->rand, mean_gap_ns(src));
		break;
	}
}

static void step_periodic(struct gen_stream *st, const struct gen_window *w)
{
	const struct gen_source *src = st->src;
	uint64_t period = src->period_ns, jitter = src->jitter_ns, expires;

	/* The first expiry falls anywhere in the first period: CPUs do not tick together. */
	if (st->first)
		expires = st->t + gen_uniform_ns(st->rand, 1, period);
	else
		expires = st->t + period - jitter + gen_uniform_ns(st->rand, 0, 2 * jitter);
	st->first = false;
	if (!jitter) {
		/* The simulator re-arms it; nothing more to do in this window. */
		push_timer(st, st->t, expires, period);
		st->t = w->end_ns;
		return;
	}
	/* A jittered timer is a chain of one-shots, each armed as the last expires. */
	push_timer(st, st->t, expires, 0);
	st->t = expires;
}

static void step_bursty(struct gen_stream *st)
{
	const struct gen_source *src = st->src;

	if (!st->left)
		st->left = gen_geometric(st->rand, src->burst_size);
	push_irq(st, st->t, st->cpu);
	st->left--;
	st->t += st->left ? gen_exp_ns(st->rand, src->gap_ns)
			  : gen_exp_ns(st->rand, mean_gap_ns(src));
}

/*
 * An exchange: an interrupt wakes the first CPU, then rounds round trips of
 * IPIs, each hop landing after the sender's work and the delivery latency.
 */
static void step_pingpong(struct gen_stream *st)
{
	const struct gen_source *src = st->src;
	uint64_t hop = src->work_ns + (uint64_t)(src->latency_ns + 0.5);

	if (!st->left) {
		st->left = 2 * src->rounds + 1;
		st->on_peer = false;
	}
	push_irq(st, st->t, st->on_peer ? st->peer : st->cpu);
	st->on_peer = !st->on_peer;
	st->left--;
	st->t += st->left ? hop : src->work_ns + gen_exp_ns(st->rand, mean_gap_ns(src));
}

static void step_timeout(struct gen_stream *st, const struct gen_window *w)
{
	const struct gen_source *src = st->src;
	uint64_t arm = st->t;

	/* Arming the same id again before it fires re-arms it, as mod_timer() does. */
	push_timer(st, arm, arm + src->timeout_ns, 0);
	if (g_rand_double(st->rand) < src->cancel_prob) {
		/* Before the expiry: a timer that fired cannot be cancelled. */
		uint64_t after = gen_exp_ns(st->rand, src->cancel_after_ns);
		uint64_t cancel = arm + MIN(after, src->timeout_ns - 1);

		if (cancel < w->end_ns) {
			push_cancel(st, cancel);
			st->t = cancel + gen_exp_ns(st->rand, mean_gap_ns(src));
			return;
		}
	}
	st->t = arm + gen_exp_ns(st->rand, mean_gap_ns(src));
}

static void step_busy(struct gen_stream *st)
{
	uint64_t work = gen_exp_ns(st->rand, (double)st->src->work_ns);

	/* A busy period has a length: at least 1 ns. */
	push(st, TRACE_BUSY, st->t, st->cpu)->work_ns = MAX(work, 1);
	st->t += gen_exp_ns(st->rand, mean_gap_ns(st->src));
}

/* One action at st->t, which lies inside window w. */
static void step(struct gen_stream *st, const struct gen_window *w)
{
	const struct gen_source *src = st->src;

	switch (src->kind) {
	case GEN_PERIODIC:
		step_periodic(st, w);
		break;
	case GEN_POISSON:
		push_irq(st, st->t, st->cpu);
		st->t += gen_exp_ns(st->rand, mean_gap_ns(src));
		break;
	case GEN_BURSTY:
		step_bursty(st);
		break;
	case GEN_PINGPONG:
		step_pingpong(st);
		break;
	case GEN_IO:
		/* One request in flight: the next completes a device latency after this one's work. */
		push_irq(st, st->t, st->cpu);
		st->t += src->work_ns + gen_exp_ns(st->rand, src->latency_ns);
		break;
	case GEN_BUSY:
		step_busy(st);
		break;
	case GEN_TIMEOUT:
		step_timeout(st, w);
		break;
	}
}

bool gen_stream_next(struct gen_stream *st, struct trace_event *ev)
{
	const struct gen_source *src = st->src;

	while (!st->qlen) {
		const struct gen_window *w;

		if (st->window == src->nr_windows)
			return false;
		w = &src->windows[st->window];
		if (!st->in_window) {
			start_window(st, w);
			st->in_window = true;
		}
		if (st->t < w->end_ns) {
			step(st, w);
			continue;
		}
		/* The window ends: its timer goes with it (a one-shot that is still armed). */
		if (st->timer_armed && (st->timer_periodic || st->timer_expires > w->end_ns))
			push_cancel(st, w->end_ns);
		/* ... and an I/O source's task waits no more. */
		if (src->kind == GEN_IO)
			push(st, TRACE_IOWAIT, w->end_ns, st->cpu)->iowait_tasks = 0;
		st->timer_armed = false;
		st->in_window = false;
		st->window++;
	}
	*ev = st->queue[st->qhead];
	st->qhead = (st->qhead + 1) % G_N_ELEMENTS(st->queue);
	st->qlen--;
	return true;
}

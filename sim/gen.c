// SPDX-License-Identifier: GPL-2.0
/* Merging the scenario's streams into one trace, by time, with a binary heap. */
#include <errno.h>
#include <string.h>

#include "gen-scenario.h"
#include "gen-stream.h"
#include "gen.h"
#include "kvline.h"
#include "trace-write.h"

struct head {
	struct trace_event ev;		/* the stream's next event */
	struct gen_stream *st;
};

struct heap {
	struct head *items;
	unsigned int len;
};

static bool before(const struct head *a, const struct head *b)
{
	return a->ev.at_ns != b->ev.at_ns ? a->ev.at_ns < b->ev.at_ns : a->st->index < b->st->index;
}

static void swap(struct head *a, struct head *b)
{
	struct head t = *a;

	*a = *b;
	*b = t;
}

static void sift_down(struct heap *h, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, min = i;

		if (l < h->len && before(&h->items[l], &h->items[min]))
			min = l;
		if (r < h->len && before(&h->items[r], &h->items[min]))
			min = r;
		if (min == i)
			return;
		swap(&h->items[i], &h->items[min]);
		i = min;
	}
}

static void push(struct heap *h, struct gen_stream *st)
{
	struct head item = { .st = st };
	unsigned int i = h->len;

	if (!gen_stream_next(st, &item.ev))
		return;
	h->items[h->len++] = item;
	while (i && before(&h->items[i], &h->items[(i - 1) / 2])) {
		swap(&h->items[i], &h->items[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

/* Replaces the top with its stream's next event, or drops it when the stream is over. */
static void advance_top(struct heap *h)
{
	struct gen_stream *st = h->items[0].st;

	if (gen_stream_next(st, &h->items[0].ev)) {
		sift_down(h, 0);
		return;
	}
	h->items[0] = h->items[--h->len];
	sift_down(h, 0);
}

static unsigned int count_streams(const struct gen_scenario *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nr_sources; i++)
		n += s->sources[i].kind == GEN_PINGPONG ? 1 : s->sources[i].nr_cpus;
	return n;
}

static void write_phase(FILE *out, const struct gen_phase *p)
{
	struct trace_event ev = { .kind = TRACE_PHASE, .at_ns = p->start_ns };

	strcpy(ev.phase, p->name);
	trace_write_event(out, &ev);
}

static void write_trace(const struct gen_scenario *s, struct gen_stream *streams,
			unsigned int nr_streams, uint32_t seed, FILE *out)
{
	struct trace_header th = { .nr_cpus = s->nr_cpus, .end_ns = s->end_ns, .name = s->name };
	struct heap h = { .items = g_new(struct head, nr_streams) };
	uint32_t *waiting = g_new0(uint32_t, s->nr_cpus);	/* tasks waiting for I/O, by CPU */
	unsigned int phase = 0;

	trace_write_header(out, &th);
	fprintf(out, "# teosim gen: scenario %s, seed %u\n", s->name, seed);
	for (unsigned int i = 0; i < nr_streams; i++)
		push(&h, &streams[i]);
	/* A write error (a full disk) ends the work early; gen_write() reports it. */
	while (h.len && !ferror(out)) {
		/* A phase marker goes before the events at its start. */
		while (phase < s->nr_phases && s->phases[phase].start_ns <= h.items[0].ev.at_ns)
			write_phase(out, &s->phases[phase++]);
		if (h.items[0].ev.kind == TRACE_IOWAIT) {
			struct trace_event *ev = &h.items[0].ev;

			waiting[ev->cpu] = ev->iowait_tasks ? waiting[ev->cpu] + 1 : waiting[ev->cpu] - 1;
			ev->iowait_tasks = waiting[ev->cpu];
		}
		trace_write_event(out, &h.items[0].ev);
		advance_top(&h);
	}
	while (phase < s->nr_phases)
		write_phase(out, &s->phases[phase++]);
	g_free(waiting);
	g_free(h.items);
}

bool gen_write(const char *scenario_path, uint32_t seed, FILE *out, GError **error)
{
	struct gen_scenario s;
	struct gen_stream *streams;
	unsigned int n = 0;

	if (!gen_scenario_load(scenario_path, &s, error))
		return false;
	streams = g_new(struct gen_stream, count_streams(&s));
	for (unsigned int i = 0; i < s.nr_sources; i++) {
		const struct gen_source *src = &s.sources[i];
		unsigned int cpus = src->kind == GEN_PINGPONG ? 1 : src->nr_cpus;

		for (unsigned int c = 0; c < cpus; c++, n++)
			gen_stream_init(&streams[n], src, i, src->cpus[c], n, seed);
	}
	write_trace(&s, streams, n, seed, out);
	for (unsigned int i = 0; i < n; i++)
		gen_stream_clear(&streams[i]);
	g_free(streams);
	gen_scenario_clear(&s);
	if (fflush(out) || ferror(out)) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "writing the trace: %s",
			    g_strerror(errno));
		return false;
	}
	return true;
}

// SPDX-License-Identifier: GPL-2.0
#include "timer-queue.h"

void timer_queue_init(struct timer_queue *q)
{
	*q = (struct timer_queue){ .first_ns = UINT64_MAX, .first_fires_ns = UINT64_MAX };
	idmap_init(&q->ids);
}

void timer_queue_clear(struct timer_queue *q)
{
	g_free(q->heap);
	idmap_clear(&q->ids);
	*q = (struct timer_queue){ 0 };
}

static bool earlier(const struct sim_timer *a, const struct sim_timer *b)
{
	if (a->expires_ns != b->expires_ns)
		return a->expires_ns < b->expires_ns;
	return a->armed_seq < b->armed_seq;
}

/* Puts t, which the id map holds already, at heap index i. */
static void place(struct timer_queue *q, unsigned int i, const struct sim_timer *t)
{
	q->heap[i] = *t;
	if (!t->detached)
		idmap_find(&q->ids, t->id)->value = i + 1;
}

/* Moves the timer at i up or down until the heap order holds again. */
static void restore(struct timer_queue *q, unsigned int i)
{
	struct sim_timer t = q->heap[i];

	while (i > 0 && earlier(&t, &q->heap[(i - 1) / 2])) {
		place(q, i, &q->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		unsigned int child = 2 * i + 1;

		if (child >= q->len)
			break;
		if (child + 1 < q->len && earlier(&q->heap[child + 1], &q->heap[child]))
			child++;
		if (!earlier(&q->heap[child], &t))
			break;
		place(q, i, &q->heap[child]);
		i = child;
	}
	place(q, i, &t);
}

/* Keeps first_ns up to date after a change of the heap. */
static void note_first(struct timer_queue *q)
{
	q->first_ns = q->len ? q->heap[0].expires_ns : UINT64_MAX;
	q->first_fires_ns = q->len ? q->heap[0].expires_ns + q->heap[0].late_ns : UINT64_MAX;
}

static void remove_at(struct timer_queue *q, unsigned int i)
{
	if (!q->heap[i].detached)
		idmap_remove(&q->ids, q->heap[i].id);
	q->len--;
	if (i == q->len)
		return;
	q->heap[i] = q->heap[q->len];
	restore(q, i);
}

void timer_queue_arm(struct timer_queue *q, uint64_t id, uint64_t expires_ns, uint64_t late_ns,
		     uint64_t period_ns, uint64_t work_ns, const struct timer_wakeup *wake)
{
	unsigned int pos = idmap_get(&q->ids, id);
	struct sim_timer *t;
	unsigned int i;

	if (pos) {
		i = pos - 1;
	} else {
		if (q->len == q->cap) {
			q->cap = q->cap ? 2 * q->cap : 16;
			q->heap = g_renew(struct sim_timer, q->heap, q->cap);
		}
		i = q->len++;
		idmap_put(&q->ids, id, i + 1);
	}
	t = &q->heap[i];
	t->id = id;
	t->expires_ns = expires_ns;
	t->late_ns = late_ns;
	t->period_ns = period_ns;
	t->work_ns = work_ns;
	t->wake = wake ? *wake : (struct timer_wakeup){ 0 };
	t->armed_seq = q->next_seq++;
	t->detached = false;
	restore(q, i);
	note_first(q);
}

bool timer_queue_cancel(struct timer_queue *q, uint64_t id)
{
	unsigned int pos = idmap_get(&q->ids, id);

	if (!pos)
		return false;
	remove_at(q, pos - 1);
	note_first(q);
	return true;
}

const struct sim_timer *timer_queue_find(const struct timer_queue *q, uint64_t id)
{
	unsigned int pos = idmap_get(&q->ids, id);

	return pos ? &q->heap[pos - 1] : NULL;
}

void timer_queue_detach(struct timer_queue *q, uint64_t id)
{
	unsigned int pos = idmap_get(&q->ids, id);

	if (!pos)
		return;
	idmap_remove(&q->ids, id);
	q->heap[pos - 1].detached = true;
	q->heap[pos - 1].period_ns = 0;
}

void timer_queue_pop(struct timer_queue *q, struct sim_timer *out)
{
	*out = q->heap[0];
	remove_at(q, 0);
	note_first(q);
}

uint64_t timer_queue_expire_due(struct timer_queue *q, uint64_t upto)
{
	uint64_t work = 0;

	/* Saturated: each work is at most a trace time, but many may be due at once. */
	while (q->len && q->heap[0].expires_ns <= upto) {
		work = MIN(work + q->heap[0].work_ns, (uint64_t)INT64_MAX);
		remove_at(q, 0);
	}
	note_first(q);
	return work;
}

/* A heap's subtree holds nothing earlier than its root: only due roots are looked into. */
static bool work_due_from(const struct timer_queue *q, unsigned int i, uint64_t upto)
{
	if (i >= q->len || q->heap[i].expires_ns > upto)
		return false;
	return q->heap[i].work_ns || work_due_from(q, 2 * i + 1, upto) ||
	       work_due_from(q, 2 * i + 2, upto);
}

bool timer_queue_work_due(const struct timer_queue *q, uint64_t upto)
{
	return work_due_from(q, 0, upto);
}

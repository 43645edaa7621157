// SPDX-License-Identifier: GPL-2.0
#include "timer-queue.h"

/* Timer ids are 64-bit and stored in the table's pointer-sized keys. */
G_STATIC_ASSERT(sizeof(gpointer) >= sizeof(uint64_t));

#define ID_KEY(id)	((gpointer)(guintptr)(id))

void timer_queue_init(struct timer_queue *q)
{
	*q = (struct timer_queue){ 0 };
	q->slot_of = g_hash_table_new(g_direct_hash, g_direct_equal);
}

void timer_queue_clear(struct timer_queue *q)
{
	g_free(q->heap);
	if (q->slot_of)
		g_hash_table_destroy(q->slot_of);
	*q = (struct timer_queue){ 0 };
}

static bool earlier(const struct sim_timer *a, const struct sim_timer *b)
{
	if (a->expires_ns != b->expires_ns)
		return a->expires_ns < b->expires_ns;
	return a->armed_seq < b->armed_seq;
}

static void place(struct timer_queue *q, unsigned int i, const struct sim_timer *t)
{
	q->heap[i] = *t;
	g_hash_table_insert(q->slot_of, ID_KEY(t->id), GUINT_TO_POINTER(i + 1));
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

static void remove_at(struct timer_queue *q, unsigned int i)
{
	g_hash_table_remove(q->slot_of, ID_KEY(q->heap[i].id));
	q->len--;
	if (i == q->len)
		return;
	q->heap[i] = q->heap[q->len];
	restore(q, i);
}

void timer_queue_arm(struct timer_queue *q, uint64_t id, uint64_t expires_ns,
		     uint64_t period_ns, uint64_t work_ns)
{
	gpointer slot = g_hash_table_lookup(q->slot_of, ID_KEY(id));
	struct sim_timer *t;
	unsigned int i;

	if (slot) {
		i = GPOINTER_TO_UINT(slot) - 1;
	} else {
		if (q->len == q->cap) {
			q->cap = q->cap ? 2 * q->cap : 16;
			q->heap = g_renew(struct sim_timer, q->heap, q->cap);
		}
		i = q->len++;
	}
	t = &q->heap[i];
	t->id = id;
	t->expires_ns = expires_ns;
	t->period_ns = period_ns;
	t->work_ns = work_ns;
	t->armed_seq = q->next_seq++;
	restore(q, i);
}

bool timer_queue_cancel(struct timer_queue *q, uint64_t id)
{
	gpointer slot = g_hash_table_lookup(q->slot_of, ID_KEY(id));

	if (!slot)
		return false;
	remove_at(q, GPOINTER_TO_UINT(slot) - 1);
	return true;
}

void timer_queue_pop(struct timer_queue *q, struct sim_timer *out)
{
	*out = q->heap[0];
	remove_at(q, 0);
}

// SPDX-License-Identifier: GPL-2.0
#include "timer-queue.h"

#define SLOTS_MIN	16

void timer_queue_init(struct timer_queue *q)
{
	*q = (struct timer_queue){ .slot_mask = SLOTS_MIN - 1, .first_ns = UINT64_MAX };
	q->slots = g_new0(struct timer_slot, SLOTS_MIN);
}

void timer_queue_clear(struct timer_queue *q)
{
	g_free(q->heap);
	g_free(q->slots);
	*q = (struct timer_queue){ 0 };
}

/* Fibonacci hashing: ids that differ in their low bits spread over the table. */
static unsigned int home_slot(const struct timer_queue *q, uint64_t id)
{
	return (unsigned int)((id * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & q->slot_mask;
}

/* The slot holding id, or the free slot where it would go. */
static struct timer_slot *find_slot(const struct timer_queue *q, uint64_t id)
{
	unsigned int i = home_slot(q, id);

	while (q->slots[i].pos && q->slots[i].id != id)
		i = (i + 1) & q->slot_mask;
	return &q->slots[i];
}

/* Doubles the table when it would be more than half full with one more timer. */
static void reserve_slot(struct timer_queue *q)
{
	struct timer_slot *old = q->slots;
	unsigned int old_count = q->slot_mask + 1;

	if (2 * (q->len + 1) <= old_count)
		return;
	q->slots = g_new0(struct timer_slot, 2 * old_count);
	q->slot_mask = 2 * old_count - 1;
	for (unsigned int i = 0; i < old_count; i++)
		if (old[i].pos)
			*find_slot(q, old[i].id) = old[i];
	g_free(old);
}

/*
 * Frees the slot at i, moving later slots of the same probe run back so
 * that every id stays reachable from its home slot (no tombstones).
 */
static void free_slot(struct timer_queue *q, unsigned int i)
{
	unsigned int j = i;

	for (;;) {
		unsigned int home;

		q->slots[i].pos = 0;
		do {
			j = (j + 1) & q->slot_mask;
			if (!q->slots[j].pos)
				return;
			home = home_slot(q, q->slots[j].id);
			/* The slot at j may move to i when its home is not in (i, j]. */
		} while (i <= j ? i < home && home <= j : i < home || home <= j);
		q->slots[i] = q->slots[j];
		i = j;
	}
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
	find_slot(q, t->id)->pos = i + 1;
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
}

static void remove_at(struct timer_queue *q, unsigned int i)
{
	free_slot(q, (unsigned int)(find_slot(q, q->heap[i].id) - q->slots));
	q->len--;
	if (i == q->len)
		return;
	q->heap[i] = q->heap[q->len];
	restore(q, i);
}

void timer_queue_arm(struct timer_queue *q, uint64_t id, uint64_t expires_ns,
		     uint64_t period_ns, uint64_t work_ns)
{
	struct timer_slot *slot = find_slot(q, id);
	struct sim_timer *t;
	unsigned int i;

	if (slot->pos) {
		i = slot->pos - 1;
	} else {
		reserve_slot(q);
		if (q->len == q->cap) {
			q->cap = q->cap ? 2 * q->cap : 16;
			q->heap = g_renew(struct sim_timer, q->heap, q->cap);
		}
		i = q->len++;
		slot = find_slot(q, id);
		*slot = (struct timer_slot){ .id = id, .pos = i + 1 };
	}
	t = &q->heap[i];
	t->id = id;
	t->expires_ns = expires_ns;
	t->period_ns = period_ns;
	t->work_ns = work_ns;
	t->armed_seq = q->next_seq++;
	restore(q, i);
	note_first(q);
}

bool timer_queue_cancel(struct timer_queue *q, uint64_t id)
{
	struct timer_slot *slot = find_slot(q, id);

	if (!slot->pos)
		return false;
	remove_at(q, slot->pos - 1);
	note_first(q);
	return true;
}

void timer_queue_pop(struct timer_queue *q, struct sim_timer *out)
{
	*out = q->heap[0];
	remove_at(q, 0);
	note_first(q);
}

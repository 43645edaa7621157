// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>

#include <glib.h>

#include "idmap.h"

#define SLOTS_MIN	16

void idmap_init(struct idmap *m)
{
	*m = (struct idmap){ .slots = g_new0(struct idmap_slot, SLOTS_MIN),
			     .mask = SLOTS_MIN - 1 };
}

void idmap_clear(struct idmap *m)
{
	g_free(m->slots);
	*m = (struct idmap){ 0 };
}

/* Doubles the table when it would be more than half full with one more id. */
static void reserve(struct idmap *m)
{
	struct idmap_slot *old = m->slots;
	unsigned int old_count = m->mask + 1;

	if (2 * (m->count + 1) <= old_count)
		return;
	m->slots = g_new0(struct idmap_slot, 2 * old_count);
	m->mask = 2 * old_count - 1;
	for (unsigned int i = 0; i < old_count; i++)
		if (old[i].value)
			*idmap_find(m, old[i].id) = old[i];
	g_free(old);
}

void idmap_put(struct idmap *m, uint64_t id, unsigned int value)
{
	struct idmap_slot *s = idmap_find(m, id);

	if (!s->value) {
		reserve(m);
		s = idmap_find(m, id);
		s->id = id;
		m->count++;
	}
	s->value = value;
}

bool idmap_remove(struct idmap *m, uint64_t id)
{
	struct idmap_slot *s = idmap_find(m, id);
	unsigned int i = (unsigned int)(s - m->slots), j = i;

	if (!s->value)
		return false;
	m->count--;
	for (;;) {
		unsigned int home;

		m->slots[i].value = 0;
		do {
			j = (j + 1) & m->mask;
			if (!m->slots[j].value)
				return true;
			home = idmap_home(m, m->slots[j].id);
			/* The slot at j may move to i when its home is not in (i, j]. */
		} while (i <= j ? i < home && home <= j : i < home || home <= j);
		m->slots[i] = m->slots[j];
		i = j;
	}
}

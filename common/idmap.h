/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map from 64-bit ids to small values, for the timers that traces name
 * by id: open addressing with linear probing, at most half full, so that a
 * lookup is a multiply and a probe or two.  A removal moves later entries
 * of its probe run back, so there are no tombstones.
 */
#ifndef TEOSIM_IDMAP_H
#define TEOSIM_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

struct idmap_slot {
	uint64_t id;
	unsigned int value;	/* 0 marks a free slot: values are 1 or more */
};

struct idmap {
	struct idmap_slot *slots;
	unsigned int mask;	/* slots has mask + 1 entries, a power of 2 */
	unsigned int count;	/* slots in use */
};

void idmap_init(struct idmap *m);
void idmap_clear(struct idmap *m);

/* Fibonacci hashing: ids that differ in their low bits spread over the table. */
static inline unsigned int idmap_home(const struct idmap *m, uint64_t id)
{
	return (unsigned int)((id * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & m->mask;
}

/* The slot holding id, or the free slot where it would go. */
static inline struct idmap_slot *idmap_find(const struct idmap *m, uint64_t id)
{
	unsigned int i = idmap_home(m, id);

	while (m->slots[i].value && m->slots[i].id != id)
		i = (i + 1) & m->mask;
	return &m->slots[i];
}

/* The value of id, 0 when it is not in the map. */
static inline unsigned int idmap_get(const struct idmap *m, uint64_t id)
{
	return idmap_find(m, id)->value;
}

/* Maps id, which may be in the map already, to value (at least 1). */
void idmap_put(struct idmap *m, uint64_t id, unsigned int value);
/* Removes id; false when it was not in the map. */
bool idmap_remove(struct idmap *m, uint64_t id);

#endif /* TEOSIM_IDMAP_H */

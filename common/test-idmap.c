// SPDX-License-Identifier: GPL-2.0
/*
 * The id map against a GHashTable doing the same: 512 ids, put and removed
 * at random in tables of 16 slots and more, so that probe runs are long and
 * wrap around the table's end, and every id is checked again and again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>
#include <glib.h>

#include "idmap.h"

#define IDS	512

/* Every id used, mapped or not, must give what the model says. */
static void check_all(const struct idmap *m, GHashTable *model, const uint64_t *ids)
{
	for (unsigned int k = 0; k < IDS; k++) {
		gpointer v = g_hash_table_lookup(model, &ids[k]);

		assert_int_equal(idmap_get(m, ids[k]), GPOINTER_TO_UINT(v));
	}
	assert_int_equal(m->count, g_hash_table_size(model));
}

static void test_against_model(void **state)
{
	g_autoptr(GHashTable) model = g_hash_table_new(g_int64_hash, g_int64_equal);
	uint64_t ids[IDS], x = 2463534242u;
	struct idmap m;

	(void)state;
	/* Small ids and ids with only high bits set: the hash must spread both. */
	for (unsigned int k = 0; k < IDS; k++)
		ids[k] = k % 2 ? (uint64_t)k << 32 : k * 7919u;
	idmap_init(&m);
	for (unsigned int step = 0; step < 20000; step++) {
		const uint64_t *id;
		unsigned int value;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		id = &ids[x % IDS];
		value = 1 + (unsigned int)(x >> 40);
		if (x >> 63) {
			assert_int_equal(idmap_remove(&m, *id), g_hash_table_remove(model, id));
		} else {
			idmap_put(&m, *id, value);
			g_hash_table_insert(model, (gpointer)id, GUINT_TO_POINTER(value));
		}
		if (step % 97 == 0)
			check_all(&m, model, ids);
	}
	check_all(&m, model, ids);
	/* At most half full, always. */
	assert_true(2 * m.count <= m.mask + 1);
	idmap_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* The timer queue: earliest first, ties in arming order, re-arm and cancel by id. */
#include "test-sim.h"
#include "timer-queue.h"

static uint64_t pop_id(struct timer_queue *q)
{
	struct sim_timer t;

	timer_queue_pop(q, &t);
	return t.id;
}

static void test_order_and_ties(void **state)
{
	struct timer_queue q;

	(void)state;
	timer_queue_init(&q);
	timer_queue_arm(&q, 1, 300, 0, 0, 0, 0, false);
	timer_queue_arm(&q, 2, 100, 0, 0, 0, 0, false);
	timer_queue_arm(&q, 3, 200, 0, 0, 0, 0, false);
	timer_queue_arm(&q, 4, 100, 0, 0, 0, 0, false);	/* ties with 2, armed later */
	assert_int_equal(pop_id(&q), 2);
	assert_int_equal(pop_id(&q), 4);
	assert_int_equal(pop_id(&q), 3);
	assert_int_equal(pop_id(&q), 1);
	assert_null(timer_queue_first(&q));
	timer_queue_clear(&q);
}

static void test_rearm_and_cancel(void **state)
{
	struct timer_queue q;

	(void)state;
	timer_queue_init(&q);
	for (uint64_t id = 0; id < 100; id++)
		timer_queue_arm(&q, id, 1000 + id, 0, 0, id, 0, false);
	timer_queue_arm(&q, 50, 10, 0, 0, 7, 0, false);	/* re-armed: moves to the front */
	assert_true(timer_queue_cancel(&q, 0));
	assert_false(timer_queue_cancel(&q, 0));
	assert_int_equal(q.len, 99);
	assert_int_equal(timer_queue_first(&q)->id, 50);
	assert_int_equal(timer_queue_first(&q)->work_ns, 7);
	pop_id(&q);
	for (uint64_t id = 1; id < 100; id++) {
		if (id == 50)
			continue;
		assert_int_equal(pop_id(&q), id);
	}
	assert_int_equal(q.len, 0);
	timer_queue_clear(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_ties),
		cmocka_unit_test(test_rearm_and_cancel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

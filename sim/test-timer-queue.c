// SPDX-License-Identifier: GPL-2.0
/*
 * The timer queue: earliest first, ties in arming order, re-arm and cancel
 * by id, a timer detached from its id, expiry up to a time with the work it
 * brings.
 */
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
	timer_queue_arm(&q, 1, 300, 0, 0, 0, NULL);
	timer_queue_arm(&q, 2, 100, 0, 0, 0, NULL);
	timer_queue_arm(&q, 3, 200, 0, 0, 0, NULL);
	timer_queue_arm(&q, 4, 100, 0, 0, 0, NULL);	/* ties with 2, armed later */
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
		timer_queue_arm(&q, id, 1000 + id, 0, 0, id, NULL);
	timer_queue_arm(&q, 50, 10, 0, 0, 7, NULL);	/* re-armed: moves to the front */
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

/*
 * Expiring up to a time removes exactly the timers due by then and sums
 * their work, at most INT64_MAX; asking first changes nothing.  Timers at
 * 10..80 with work only at 40 (5) and 70 (9), armed out of order so that
 * the due ones are spread over the heap.
 */
/*
 * A detached timer still comes once, where it was (a periodic one without
 * its next period), however the heap moves around it; its id is free: a
 * new arming takes it, a cancel finds only that, and a detach of an id
 * not armed does nothing.
 */
static void test_detach(void **state)
{
	struct timer_queue q;
	struct sim_timer t;

	(void)state;
	timer_queue_init(&q);
	timer_queue_arm(&q, 1, 100, 60, 1000, 5, NULL);
	timer_queue_arm(&q, 2, 50, 0, 0, 0, NULL);
	timer_queue_detach(&q, 1);
	timer_queue_detach(&q, 7);
	assert_null(timer_queue_find(&q, 1));
	timer_queue_arm(&q, 1, 80, 0, 0, 3, NULL);	/* a new arming, earlier */
	timer_queue_arm(&q, 3, 10, 0, 0, 0, NULL);	/* moves the heap around */
	assert_non_null(timer_queue_find(&q, 1));
	assert_int_equal(timer_queue_find(&q, 1)->expires_ns, 80);
	assert_true(timer_queue_cancel(&q, 1));
	assert_false(timer_queue_cancel(&q, 1));
	assert_int_equal(pop_id(&q), 3);
	assert_int_equal(pop_id(&q), 2);
	timer_queue_pop(&q, &t);
	assert_int_equal(t.id, 1);
	assert_int_equal(t.expires_ns, 100);
	assert_int_equal(t.late_ns, 60);
	assert_int_equal(t.period_ns, 0);
	assert_int_equal(t.work_ns, 5);
	assert_null(timer_queue_first(&q));
	timer_queue_clear(&q);
}

static void test_expire_until(void **state)
{
	static const uint64_t expires[] = { 80, 30, 70, 10, 60, 20, 50, 40 };
	struct timer_queue q;

	(void)state;
	timer_queue_init(&q);
	for (unsigned int i = 0; i < G_N_ELEMENTS(expires); i++)
		timer_queue_arm(&q, i, expires[i], 0, 0,
				expires[i] == 40 ? 5 : expires[i] == 70 ? 9 : 0, NULL);
	assert_false(timer_queue_work_due(&q, 39));
	assert_true(timer_queue_work_due(&q, 40));
	assert_int_equal(q.len, 8);
	assert_int_equal(timer_queue_expire_until(&q, 5), 0);
	assert_int_equal(timer_queue_expire_until(&q, 35), 0);
	assert_int_equal(q.len, 5);
	assert_int_equal(timer_queue_first_ns(&q), 40);
	assert_int_equal(timer_queue_expire_until(&q, 75), 14);
	assert_int_equal(q.len, 1);
	assert_false(timer_queue_work_due(&q, 1000));
	assert_int_equal(timer_queue_expire_until(&q, 1000), 0);
	assert_int_equal(timer_queue_first_ns(&q), UINT64_MAX);
	/* Three works of the largest trace time due at once: their sum saturates. */
	for (uint64_t id = 0; id < 3; id++)
		timer_queue_arm(&q, id, 100, 0, 0, (UINT64_C(1) << 62) - 1, NULL);
	assert_int_equal(timer_queue_expire_until(&q, 100), INT64_MAX);
	timer_queue_clear(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_ties),
		cmocka_unit_test(test_rearm_and_cancel),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_expire_until),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

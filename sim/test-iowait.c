// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks waiting for I/O (the trace's iowait records), one CPU: what
 * nr_iowait_cpu() answers each select, and what it changes for menu of
 * 6.1, which reads it, and of 6.12, which does not.  Platform and times:
 * test-sim.h (HZ 250, so TICK_NSEC 4 ms; C1 exit 2 us, target 5 us; C6
 * exit 100 us, target 500 us; no timer latency, select lead or tick work).
 */
#include "test-sim.h"

static const struct script_step C1_KEEP[] = { { 1, false } };

static struct trace_event ev_iowait(uint64_t at, uint32_t tasks)
{
	return (struct trace_event){ .kind = TRACE_IOWAIT, .at_ns = at, .iowait_tasks = tasks };
}

/*
 * A task blocks for I/O at 0, before the first select; it is woken at
 * 0.5 ms, while the CPU sleeps, and two others block at 1.5 ms, again
 * while it sleeps.  Each select sees the count as it stands then: 1 at 0,
 * 0 after the timer of 1 ms (at 1.002 ms, C1's exit), 2 after the timer
 * of 3 ms (at 3.002 ms).
 */
static void test_count_as_of_each_select(void **state)
{
	const struct trace_event ev[] = { ev_iowait(0, 1), ev_timer(0, 2, 1 * MS, 0, 0),
					  ev_timer(0, 3, 3 * MS, 0, 0), ev_iowait(500 * US, 0),
					  ev_iowait(1500 * US, 2) };
	struct script_run r;

	(void)state;
	script_run_start(&r, "script-6.1", ev, G_N_ELEMENTS(ev), 3500 * US, C1_KEEP, 1);
	assert_int_equal(script.selects, 3);
	assert_int_equal(script.selected[0].clock_ns, 0);
	assert_int_equal(script.selected[0].iowait_tasks, 1);
	assert_int_equal(script.selected[1].clock_ns, 1002 * US);
	assert_int_equal(script.selected[1].iowait_tasks, 0);
	assert_int_equal(script.selected[2].clock_ns, 3002 * US);
	assert_int_equal(script.selected[2].iowait_tasks, 2);
	script_run_finish(&r, NULL);
}

/* The states chosen, period by period. */
static void note_state(void *priv, const struct idle_period *p)
{
	g_array_append_val((GArray *)priv, p->state);
}

/*
 * The states governor chose over 50 ms of a periodic timer every 1 ms, with
 * tasks waiting for I/O throughout (a real governor: the script is unused).
 */
static GArray *choices(const char *governor, uint32_t tasks)
{
	const struct trace_event ev[] = { ev_iowait(0, tasks), ev_timer(0, 2, 1 * MS, 1 * MS, 0) };
	GArray *states = g_array_new(FALSE, FALSE, sizeof(int));
	struct script_run r;

	script_run_init(&r, 50 * MS);
	r.observer = (struct idle_observer){ .selected = note_state, .priv = states };
	script_run_go(&r, governor, ev, G_N_ELEMENTS(ev), C1_KEEP, 1);
	script_run_finish(&r, NULL);
	return states;
}

/* Whether the last 20 periods, after the first 20 ms, all went to state. */
static void assert_settles_in(GArray *states, int state)
{
	assert_true(states->len >= 40);
	for (guint i = states->len - 20; i < states->len; i++)
		assert_int_equal(g_array_index(states, int, i), state);
	g_array_free(states, TRUE);
}

/*
 * menu once its eight intervals are all of this timer: each period sleeps
 * a little under 1 ms (the timer's period less the last state's exit), and
 * menu predicts about that (its typical interval, and the sleep length
 * times a correction factor near one): between C6's 500 us target and
 * 1 ms.  The tick runs (the prediction is under TICK_NSEC), so menu of
 * 6.1 allows an exit latency of at most the prediction divided by 1 + 10
 * per waiting task: with none, at least 500 us, and C6 (100 us) is
 * chosen; with one, under 1,000 / 11 = 91 us, and C1 is.  menu of 6.12 no
 * longer asks: C6 both ways.
 */
static void test_menu_61_stays_shallow(void **state)
{
	(void)state;
	assert_settles_in(choices("menu-6.1", 0), 2);
	assert_settles_in(choices("menu-6.1", 1), 1);
	assert_settles_in(choices("menu-6.12", 0), 2);
	assert_settles_in(choices("menu-6.12", 1), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_as_of_each_select),
		cmocka_unit_test(test_menu_61_stays_shallow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

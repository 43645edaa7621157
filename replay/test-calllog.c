// SPDX-License-Identifier: GPL-2.0
/*
 * The call-log reader: every malformed input is refused with
 * "FILE:LINE: FIELD: reason", and what the writer writes reads back the same.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "calllog.h"

#define HEADER \
	"teosim-calls 1\n" \
	"hz 250\n" \
	"cpus 2\n" \
	"state 0 name=POLL exit_us=0 residency_us=0 flags=polling\n" \
	"state 1 name=C1 exit_us=2 residency_us=2\n"
#define SELECT "select cpu=0 clock=100 sleep_ns=5000 tick_ns=4000 qos_us=2000000000 stopped=0 iowait=0"

static char *temp_path;

static int setup(void **state)
{
	(void)state;
	temp_path = g_build_filename(g_get_tmp_dir(), "teosim-test-calllog.calls", NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(temp_path);
	g_free(temp_path);
	return 0;
}

/* Reads a whole log of len bytes; returns the error message, or NULL. */
static char *read_bytes(const char *text, gssize len)
{
	g_autoptr(GError) error = NULL;
	struct calllog_reader *r;
	struct calllog_record rec;
	int ret;

	assert_true(g_file_set_contents(temp_path, text, len, NULL));
	r = calllog_open(temp_path, &error);
	if (!r)
		return g_strdup(error->message);
	while ((ret = calllog_next(r, &rec, &error)) > 0)
		;
	calllog_close(r);
	return ret < 0 ? g_strdup(error->message) : NULL;
}

static char *read_all(const char *text)
{
	return read_bytes(text, -1);
}

/* Asserts that text is refused with "<file>:<suffix>". */
static void assert_refused(const char *text, const char *suffix)
{
	g_autofree char *message = read_all(text);
	g_autofree char *expected = g_strdup_printf("%s:%s", temp_path, suffix);

	if (!message)
		fail_msg("accepted, expected: %s", expected);
	assert_string_equal(message, expected);
}

static void test_valid_log(void **state)
{
	g_autofree char *message = read_all(HEADER "# a comment\n\n" SELECT "\n"
					    "reflect cpu=0 clock=200 state=1 residency_ns=90 got_tick=0 poll_limit=0\n");

	(void)state;
	assert_null(message);
}

static void test_empty_file(void **state)
{
	g_autofree char *message = read_all("");
	g_autofree char *expected = g_strdup_printf(
		"%s: empty file: a call log starts with 'teosim-calls 1'", temp_path);

	(void)state;
	assert_string_equal(message, expected);
}

static void test_truncated_line(void **state)
{
	(void)state;
	assert_refused(HEADER SELECT, "6: truncated line: the file ends without a newline");
	assert_refused("teosim-calls 1\nhz 25", "2: truncated line: the file ends without a newline");
}

static void test_unknown_key(void **state)
{
	(void)state;
	assert_refused(HEADER SELECT " colour=blue\n", "6: colour: unknown key in 'select' record");
	assert_refused(HEADER "state 2 name=C6 exit_us=1 residency_us=1 depth=3\n",
		       "6: depth: unknown key in 'state' record");
}

static void test_unknown_record(void **state)
{
	(void)state;
	assert_refused(HEADER SELECT "\nwakeup cpu=0\n",
		       "7: wakeup: unknown record (a call log has 'select' and 'reflect' after its header)");
	assert_refused("teosim-calls 1\nhz 250\nfrequency 3\n",
		       "3: frequency: unknown record in the header");
}

static void test_non_numeric_value(void **state)
{
	(void)state;
	assert_refused(HEADER "select cpu=zero clock=1 qos_us=0 stopped=0 iowait=0\n",
		       "6: cpu: 'zero' is not a decimal number");
	assert_refused(HEADER "select cpu=0 clock=0x10 qos_us=0 stopped=0 iowait=0\n",
		       "6: clock: '0x10' is not a decimal number");
	assert_refused(HEADER "select cpu=0 clock=1 qos_us=-5 stopped=0 iowait=0\n",
		       "6: qos_us: '-5' is not a decimal number");
	assert_refused(HEADER "select cpu=0 clock=1 qos_us=0 stopped=2 iowait=0\n",
		       "6: stopped: '2' is not 0 or 1");
}

static void test_overflowing_value(void **state)
{
	(void)state;
	assert_refused(HEADER "select cpu=0 clock=18446744073709551616 qos_us=0 stopped=0 iowait=0\n",
		       "6: clock: 18446744073709551616 is out of range (0 to 18446744073709551615)");
	assert_refused(HEADER "select cpu=0 clock=1 sleep_ns=9223372036854775808 tick_ns=0 qos_us=0 stopped=0 iowait=0\n",
		       "6: sleep_ns: 9223372036854775808 is out of range (-9223372036854775808 to 9223372036854775807)");
	assert_refused(HEADER "select cpu=0 clock=1 qos_us=2147483648 stopped=0 iowait=0\n",
		       "6: qos_us: 2147483648 is out of range (0 to 2147483647)");
	assert_refused(HEADER "state 2 name=C6 exit_us=4294967296 residency_us=1\n",
		       "6: exit_us: 4294967296 is out of range (0 to 4294967295)");
}

static void test_state_index_out_of_range(void **state)
{
	(void)state;
	assert_refused(HEADER SELECT " state=2 stop_tick=1\n",
		       "6: state: state 2 does not exist (the header has 2)");
	assert_refused(HEADER SELECT "\nreflect cpu=0 clock=200 state=7 residency_ns=90 got_tick=0 poll_limit=0\n",
		       "7: state: state 7 does not exist (the header has 2)");
	assert_refused(HEADER SELECT " disable=1,5\n",
		       "6: disable: state 5 does not exist (the header has 2)");
	assert_refused(HEADER "select cpu=2 clock=1 qos_us=0 stopped=0 iowait=0\n",
		       "6: cpu: 2 is out of range (0 to 1)");
}

static void test_too_many_states(void **state)
{
	GString *text = g_string_new("teosim-calls 1\nhz 250\ncpus 1\n");

	(void)state;
	for (int i = 0; i <= 10; i++)
		g_string_append_printf(text, "state %d name=S%d exit_us=%d residency_us=%d\n",
				       i, i, i, i);
	assert_refused(text->str, "14: state: index 10: cpuidle has at most 10 states");
	g_string_free(text, TRUE);
}

static void test_states_out_of_order(void **state)
{
	(void)state;
	assert_refused("teosim-calls 1\nhz 250\ncpus 1\nstate 1 name=C1 exit_us=1 residency_us=1\n",
		       "4: state: index 1 where 0 was expected");
}

static void test_clock_backwards(void **state)
{
	(void)state;
	assert_refused(HEADER SELECT "\nreflect cpu=0 clock=99 state=1 residency_ns=90 got_tick=0 poll_limit=0\n",
		       "7: clock: 99 goes backwards on cpu 0 (after 100)");
	/* Other CPUs have clocks of their own. */
	g_free(read_all(HEADER SELECT "\nselect cpu=1 clock=5 qos_us=0 stopped=0 iowait=0\n"));
}

static void test_reflect_without_select(void **state)
{
	(void)state;
	assert_refused(HEADER "reflect cpu=1 clock=200 state=1 residency_ns=90 got_tick=0 poll_limit=0\n",
		       "6: cpu: reflect on cpu 1 without a select before it");
}

static void test_header_problems(void **state)
{
	(void)state;
	assert_refused("teosim-calls 2\n", "1: teosim-calls: version 2 (this teosim reads 1)");
	assert_refused("hz 250\n", "1: not a call log: it must start with 'teosim-calls 1'");
	assert_refused("teosim-calls 1\nhz 200\n",
		       "2: hz: 200: the kernel offers 100, 250, 300 or 1000");
	assert_refused("teosim-calls 1\nhz 250\nhz 250\n", "3: hz: given twice");
	assert_refused("teosim-calls 1\nhz 250\nstate 0 name=POLL exit_us=0 residency_us=0\n" SELECT "\n",
		       "4: cpus: the header ends without it");
	assert_refused("teosim-calls 1\nhz 250\ncpus 1\nstate 0 name=ThisNameIsFarTooLong exit_us=0 residency_us=0\n",
		       "4: name: 'ThisNameIsFarTooLong' is not 1 to 15 of [A-Za-z0-9_.-]");
	assert_refused(HEADER "state 2 name=C6 exit_us=1 residency_us=1 flags=deep\n",
		       "6: flags: 'deep' is not a known flag (polling)");
	assert_refused(HEADER "governor teo-6.1\ngovernor teo-6.1\n", "7: governor: given twice");
	assert_refused(HEADER "governor\n", "6: governor: takes exactly one value");
	assert_refused(HEADER "governor teo 6.1\n", "6: governor: takes exactly one value");
	assert_refused(HEADER "governor ../teo.so\n",
		       "6: governor: '../teo.so' is not 1 to 31 of [A-Za-z0-9_.-]");
	assert_refused(HEADER "governor a-name-of-thirty-two-characters2\n",
		       "6: governor: 'a-name-of-thirty-two-characters2' is not 1 to 31 of [A-Za-z0-9_.-]");
}

static void test_field_pairs(void **state)
{
	(void)state;
	assert_refused(HEADER "select cpu=0 clock=1 sleep_ns=5 qos_us=0 stopped=0 iowait=0\n",
		       "6: tick_ns: sleep_ns and tick_ns come together");
	assert_refused(HEADER SELECT " state=1\n",
		       "6: stop_tick: a recorded decision has both state and stop_tick");
	assert_refused(HEADER SELECT " cpu=1\n", "6: cpu: given twice");
	assert_refused(HEADER "select cpu=0 clock=1 stopped=0 iowait=0\n",
		       "6: qos_us: missing in 'select' record");
}

static void test_bad_bytes(void **state)
{
	g_autofree char *text = g_strdup(HEADER SELECT "\n");
	g_autofree char *message = NULL, *expected = NULL;
	GString *long_line = g_string_new(HEADER "# ");

	(void)state;
	text[strlen(HEADER) + 3] = '\0';
	message = read_bytes(text, (gssize)strlen(HEADER SELECT "\n"));
	expected = g_strdup_printf("%s:6: NUL byte in line", temp_path);
	assert_string_equal(message, expected);
	for (int i = 0; i < KV_LINE_MAX; i++)
		g_string_append_c(long_line, 'x');
	g_string_append_c(long_line, '\n');
	assert_refused(long_line->str, "6: line longer than 4095 bytes");
	g_string_free(long_line, TRUE);
}

static void assert_header_equal(const struct calllog_header *a, const struct calllog_header *b)
{
	assert_string_equal(a->governor, b->governor);
	assert_int_equal(a->hz, b->hz);
	assert_int_equal(a->nr_cpus, b->nr_cpus);
	assert_int_equal(a->state_count, b->state_count);
	for (unsigned int i = 0; i < a->state_count; i++) {
		assert_string_equal(a->states[i].name, b->states[i].name);
		assert_int_equal(a->states[i].exit_latency_us, b->states[i].exit_latency_us);
		assert_int_equal(a->states[i].target_residency_us, b->states[i].target_residency_us);
		assert_int_equal(a->states[i].polling, b->states[i].polling);
		assert_int_equal(a->states[i].disabled, b->states[i].disabled);
	}
}

static void assert_select_equal(const struct calllog_select *a, const struct calllog_select *b)
{
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->clock_ns, b->clock_ns);
	assert_int_equal(a->has_sleep, b->has_sleep);
	assert_int_equal(a->sleep_ns, b->sleep_ns);
	assert_int_equal(a->tick_ns, b->tick_ns);
	assert_int_equal(a->qos_us, b->qos_us);
	assert_int_equal(a->tick_stopped, b->tick_stopped);
	assert_int_equal(a->nr_iowait, b->nr_iowait);
	assert_int_equal(a->disable_mask, b->disable_mask);
	assert_int_equal(a->enable_mask, b->enable_mask);
	assert_int_equal(a->has_decision, b->has_decision);
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->stop_tick, b->stop_tick);
}

static void assert_reflect_equal(const struct calllog_reflect *a, const struct calllog_reflect *b)
{
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->clock_ns, b->clock_ns);
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->residency_ns, b->residency_ns);
	assert_int_equal(a->got_tick, b->got_tick);
	assert_int_equal(a->poll_time_limit, b->poll_time_limit);
}

/* Records written by the writer read back field for field. */
static void test_round_trip(void **state)
{
	struct calllog_header h = {
		.governor = "menu-6.12", .hz = 300, .nr_cpus = 3, .state_count = 2,
		.states = {
			{ .name = "POLL", .polling = true },
			{ .name = "C6", .exit_latency_us = 133, .target_residency_us = 600,
			  .disabled = true },
		},
	};
	struct calllog_select s = {
		.cpu = 2, .clock_ns = 18446744073709551615ULL, .has_sleep = true,
		.sleep_ns = -5, .tick_ns = 9223372036854775807LL, .qos_us = 2147483647,
		.tick_stopped = true, .nr_iowait = 4294967295u, .disable_mask = 1,
		.enable_mask = 2, .has_decision = true, .state = 1, .stop_tick = true,
	};
	struct calllog_reflect f = {
		.cpu = 2, .clock_ns = 18446744073709551615ULL, .state = 1,
		.residency_ns = 18446744073709551615ULL, .got_tick = true, .poll_time_limit = true,
	};
	g_autoptr(GError) error = NULL;
	struct calllog_record rec;
	struct calllog_reader *r;
	FILE *out = fopen(temp_path, "w");

	(void)state;
	assert_non_null(out);
	calllog_write_header(out, &h);
	calllog_write_select(out, &s);
	calllog_write_reflect(out, &f);
	fclose(out);

	r = calllog_open(temp_path, &error);
	assert_non_null(r);
	assert_header_equal(calllog_header(r), &h);
	assert_int_equal(calllog_next(r, &rec, &error), 1);
	assert_int_equal(rec.kind, CALLLOG_SELECT);
	assert_int_equal(rec.line, 7);
	assert_select_equal(&rec.select, &s);
	assert_int_equal(calllog_next(r, &rec, &error), 1);
	assert_int_equal(rec.kind, CALLLOG_REFLECT);
	assert_reflect_equal(&rec.reflect, &f);
	assert_int_equal(calllog_next(r, &rec, &error), 0);
	calllog_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_log),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_truncated_line),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_unknown_record),
		cmocka_unit_test(test_non_numeric_value),
		cmocka_unit_test(test_overflowing_value),
		cmocka_unit_test(test_state_index_out_of_range),
		cmocka_unit_test(test_too_many_states),
		cmocka_unit_test(test_states_out_of_order),
		cmocka_unit_test(test_clock_backwards),
		cmocka_unit_test(test_reflect_without_select),
		cmocka_unit_test(test_header_problems),
		cmocka_unit_test(test_field_pairs),
		cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

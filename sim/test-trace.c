// SPDX-License-Identifier: GPL-2.0
/* The trace reader: a hand-written trace read back, numbers of every width, every error path. */
#include <stdlib.h>

#include "test-files.h"
#include "trace-write.h"
#include "trace.h"

/* A valid trace; the tests replace one of its lines.  Line numbers in the comments. */
static const char base[] =
	"teosim-trace 1\n"							/* 1 */
	"name t\n"								/* 2 */
	"cpus 2\n"								/* 3 */
	"end_ns 1000000\n"							/* 4 */
	"# a comment\n"								/* 5 */
	"phase at_ns=0 name=start\n"						/* 6 */
	"timer at_ns=0 cpu=0 id=1 expires_ns=5000 period_ns=10000 work_ns=100\n"	/* 7 */
	"irq at_ns=100 cpu=1 work_ns=50\n"					/* 8 */
	"timer at_ns=200 cpu=1 id=2 expires_ns=300\n"				/* 9 */
	"busy at_ns=400 cpu=1 work_ns=1000\n"					/* 10 */
	"cancel at_ns=500 cpu=0 id=1\n"						/* 11 */
	"timer at_ns=600 cpu=1 id=2 expires_ns=900\n"				/* 12 */
	"phase at_ns=700 name=second\n"						/* 13 */
	"irq at_ns=700 cpu=0\n";						/* 14 */

struct fixture {
	char *dir;
	char *path;
};

static char *write_trace(struct fixture *f, const char *text, gssize len)
{
	g_free(f->path);
	f->path = test_write(f->dir, "t.trace", text, len);
	return f->path;
}

static int setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);

	f->dir = test_tmpdir();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	test_rmtree(f->dir);
	g_free(f->dir);
	g_free(f->path);
	g_free(f);
	return 0;
}

/* Reads the whole trace; returns the events, or NULL with the error. */
static GArray *read_all(const char *path, GError **error)
{
	g_autoptr(GArray) events = g_array_new(FALSE, FALSE, sizeof(struct trace_event));
	struct trace_reader *r = trace_open(path, error);
	const struct trace_event *ev;
	int ret;

	if (!r)
		return NULL;
	while ((ret = trace_next(r, &ev, error)) > 0)
		g_array_append_vals(events, ev, 1);
	trace_close(r);
	return ret < 0 ? NULL : g_steal_pointer(&events);
}

static const struct trace_event *at(GArray *a, unsigned int i)
{
	assert_true(i < a->len);
	return &g_array_index(a, struct trace_event, i);
}

/* The events of a trace that must be read without an error. */
static GArray *read_ok(struct fixture *f, const char *text)
{
	g_autoptr(GError) error = NULL;
	GArray *ev = read_all(write_trace(f, text, -1), &error);

	if (!ev)
		fail_msg("%s", error->message);
	return ev;
}

/* The writer writes the n events ev... as want. */
static void assert_writes(const char *want, unsigned int n, ...)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	va_list ap;

	va_start(ap, n);
	for (unsigned int i = 0; i < n; i++)
		trace_write_event(out, va_arg(ap, const struct trace_event *));
	va_end(ap);
	fclose(out);
	assert_string_equal(text, want);
	free(text);
}

static void test_reads_back(void **state)
{
	struct fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) ev = NULL;
	struct trace_reader *r;

	r = trace_open(write_trace(f, base, -1), &error);
	assert_non_null(r);
	assert_int_equal(trace_header(r)->nr_cpus, 2);
	assert_true(trace_header(r)->end_ns == 1000000);
	assert_string_equal(trace_header(r)->name, "t");
	trace_close(r);

	ev = read_all(f->path, &error);
	assert_non_null(ev);
	assert_int_equal(ev->len, 9);
	assert_int_equal(at(ev, 0)->kind, TRACE_PHASE);
	assert_string_equal(at(ev, 0)->phase, "start");
	assert_int_equal(at(ev, 0)->line, 6);
	assert_int_equal(at(ev, 1)->kind, TRACE_TIMER);
	assert_int_equal(at(ev, 1)->cpu, 0);
	assert_true(at(ev, 1)->timer_id == 1 && at(ev, 1)->expires_ns == 5000);
	assert_true(at(ev, 1)->period_ns == 10000 && at(ev, 1)->work_ns == 100);
	assert_int_equal(at(ev, 2)->kind, TRACE_IRQ);
	assert_true(at(ev, 2)->at_ns == 100 && at(ev, 2)->cpu == 1 && at(ev, 2)->work_ns == 50);
	assert_true(at(ev, 3)->period_ns == 0 && at(ev, 3)->work_ns == 0);
	assert_int_equal(at(ev, 4)->kind, TRACE_BUSY);
	assert_true(at(ev, 4)->work_ns == 1000);
	assert_int_equal(at(ev, 5)->kind, TRACE_CANCEL);
	assert_true(at(ev, 5)->timer_id == 1 && at(ev, 5)->line == 11);
	assert_int_equal(at(ev, 8)->kind, TRACE_IRQ);
	assert_true(at(ev, 8)->work_ns == 0 && at(ev, 8)->line == 14);
}

/* The writer's output reads back as the same events. */
static void test_writer_round_trip(void **state)
{
	struct fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) ev = read_all(write_trace(f, base, -1), &error);
	g_autoptr(GArray) again = NULL;
	g_autofree char *copy = g_build_filename(f->dir, "copy.trace", NULL);
	struct trace_header h = { .nr_cpus = 2, .end_ns = 1000000, .name = "t" };
	FILE *out = fopen(copy, "w");

	assert_non_null(out);
	trace_write_header(out, &h);
	for (unsigned int i = 0; i < ev->len; i++)
		trace_write_event(out, at(ev, i));
	assert_int_equal(fclose(out), 0);
	again = read_all(copy, &error);
	assert_non_null(again);
	assert_int_equal(again->len, ev->len);
	for (unsigned int i = 0; i < ev->len; i++) {
		const struct trace_event *a = at(ev, i), *b = at(again, i);

		assert_int_equal(a->kind, b->kind);
		assert_true(a->at_ns == b->at_ns && a->cpu == b->cpu);
		assert_true(a->timer_id == b->timer_id && a->expires_ns == b->expires_ns);
		assert_true(a->period_ns == b->period_ns && a->work_ns == b->work_ns);
		assert_string_equal(a->phase, b->phase);
	}
	g_unlink(copy);
}

/* Re-arming a timer that is still armed, on its own CPU, is allowed (mod_timer()). */
static void test_rearm_same_cpu(void **state)
{
	struct fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autofree char *text = test_replace_line(base, 10, "timer at_ns=250 cpu=1 id=2 expires_ns=800");
	g_autoptr(GArray) ev = read_all(write_trace(f, text, -1), &error);

	if (!ev)
		fail_msg("%s", error->message);
}

/*
 * fires_ns (when the expiry's interrupt came) keeps a one-shot timer armed
 * past its expiry: timer 2 of line 9 may be cancelled at 400 when it fires
 * at 450, not when it fires at its expiry, 300.  The writer keeps it, and
 * the mono_ns header.
 */
static void test_fires_and_mono(void **state)
{
	struct fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autofree char *t1 = test_replace_line(base, 9,
						"timer at_ns=200 cpu=1 id=2 expires_ns=300 fires_ns=450");
	g_autofree char *t2 = test_replace_line(t1, 10, "cancel at_ns=400 cpu=1 id=2");
	g_autofree char *t3 = test_replace_line(t2, 5, "mono_ns 12345\npoll_check_ns 61000");
	g_autofree char *late = test_replace_line(base, 10, "cancel at_ns=400 cpu=1 id=2");
	g_autofree char *copy = g_build_filename(f->dir, "copy.trace", NULL);
	g_autoptr(GArray) ev = read_all(write_trace(f, t3, -1), &error);
	g_autoptr(GArray) again = NULL;
	struct trace_reader *r;
	FILE *out;

	if (!ev)
		fail_msg("%s", error->message);
	assert_int_equal(at(ev, 3)->fires_ns, 450);
	assert_int_equal(at(ev, 1)->fires_ns, 0);
	r = trace_open(f->path, &error);
	assert_non_null(r);
	assert_int_equal(trace_header(r)->mono_ns, 12345);
	assert_int_equal(trace_header(r)->poll_check_ns, 61000);
	out = fopen(copy, "w");
	assert_non_null(out);
	trace_write_header(out, trace_header(r));
	trace_close(r);
	for (unsigned int i = 0; i < ev->len; i++)
		trace_write_event(out, at(ev, i));
	assert_int_equal(fclose(out), 0);
	again = read_all(copy, &error);
	assert_non_null(again);
	assert_int_equal(at(again, 3)->fires_ns, 450);
	r = trace_open(copy, &error);
	assert_int_equal(trace_header(r)->mono_ns, 12345);
	assert_int_equal(trace_header(r)->poll_check_ns, 61000);
	trace_close(r);
	g_unlink(copy);
	assert_null(read_all(write_trace(f, late, -1), &error));
	assert_non_null(strstr(error->message, ":10: "));
}

/*
 * A tick record: the general path (fields out of the writer's order) and
 * the writer's form read the same event, which writes back as the latter.
 */
static void test_tick_record(void **state)
{
	struct fixture *f = *state;
	g_autofree char *general = test_replace_line(base, 11, "tick fires_ns=560 cpu=1 at_ns=500");
	g_autofree char *fast = test_replace_line(base, 11, "tick at_ns=500 cpu=1 fires_ns=560");
	g_autoptr(GArray) a = read_ok(f, general);
	g_autoptr(GArray) b = read_ok(f, fast);

	assert_int_equal(at(a, 5)->kind, TRACE_TICK);
	assert_true(at(a, 5)->at_ns == 500 && at(a, 5)->cpu == 1 && at(a, 5)->fires_ns == 560);
	assert_int_equal(at(b, 5)->kind, TRACE_TICK);
	assert_true(at(b, 5)->at_ns == 500 && at(b, 5)->cpu == 1 && at(b, 5)->fires_ns == 560);
	assert_int_equal(at(b, 5)->line, at(a, 5)->line);
	assert_writes("tick at_ns=500 cpu=1 fires_ns=560\n", 1, at(a, 5));
}

/*
 * held_ns, exit_ns and stalled_ns on an irq (line 8) and a timer (line 9),
 * in the writer's order and out of it: each reads the same, and writes
 * back in the writer's order; absent, they are 0.
 */
static void test_held(void **state)
{
	struct fixture *f = *state;
	g_autofree char *irq_fast = test_replace_line(base, 8, "irq at_ns=100 cpu=1 work_ns=50 "
						      "held_ns=70 exit_ns=20 stalled_ns=90");
	g_autofree char *fast = test_replace_line(irq_fast, 9, "timer at_ns=200 cpu=1 id=2 "
						  "expires_ns=300 fires_ns=450 held_ns=30");
	g_autofree char *irq_general = test_replace_line(base, 8, "irq stalled_ns=90 held_ns=70 "
							 "cpu=1 exit_ns=20 at_ns=100 work_ns=50");
	g_autofree char *general = test_replace_line(irq_general, 9, "timer held_ns=30 at_ns=200 "
						     "cpu=1 stalled_ns=250 id=2 expires_ns=300 "
						     "exit_ns=5 fires_ns=450");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);

	for (unsigned int k = 0; k < 2; k++) {
		GArray *ev = k ? b : a;

		assert_int_equal(at(ev, 2)->held_ns, 70);
		assert_int_equal(at(ev, 2)->exit_ns, 20);
		assert_int_equal(at(ev, 2)->stalled_ns, 90);
		assert_int_equal(at(ev, 2)->work_ns, 50);
		assert_int_equal(at(ev, 3)->held_ns, 30);
		assert_int_equal(at(ev, 3)->exit_ns, k ? 5 : 0);
		assert_int_equal(at(ev, 3)->stalled_ns, k ? 250 : 0);
		assert_int_equal(at(ev, 3)->fires_ns, 450);
		assert_int_equal(at(ev, 1)->held_ns, 0);
		assert_int_equal(at(ev, 1)->exit_ns, 0);
		assert_int_equal(at(ev, 1)->stalled_ns, 0);
	}
	assert_writes("irq at_ns=100 cpu=1 work_ns=50 held_ns=70 exit_ns=20 stalled_ns=90\n"
		      "timer at_ns=200 cpu=1 id=2 expires_ns=300 fires_ns=450 held_ns=30 "
		      "exit_ns=5 stalled_ns=250\n",
		      2, at(b, 2), at(b, 3));
}

/*
 * idle_loop on an irq (line 8) and a timer (line 9), in the writer's order
 * and out of it: each reads the same and writes back in the writer's
 * order; absent or 0, it is false.
 */
static void test_idle_loop(void **state)
{
	struct fixture *f = *state;
	g_autofree char *irq_fast = test_replace_line(base, 8, "irq at_ns=100 cpu=1 work_ns=50 "
						      "idle_loop=1");
	g_autofree char *fast = test_replace_line(irq_fast, 9, "timer at_ns=200 cpu=1 id=2 "
						  "expires_ns=300 held_ns=30 idle_loop=0");
	g_autofree char *irq_general = test_replace_line(base, 8, "irq idle_loop=1 cpu=1 "
							 "at_ns=100 work_ns=50");
	g_autofree char *general = test_replace_line(irq_general, 9, "timer idle_loop=1 at_ns=200 "
						     "cpu=1 id=2 expires_ns=300");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);

	assert_true(at(a, 2)->idle_loop);
	assert_false(at(a, 3)->idle_loop);
	assert_int_equal(at(a, 3)->held_ns, 30);
	assert_true(at(b, 2)->idle_loop);
	assert_true(at(b, 3)->idle_loop);
	assert_false(at(b, 1)->idle_loop);
	assert_writes("irq at_ns=100 cpu=1 work_ns=50 idle_loop=1\n"
		      "timer at_ns=200 cpu=1 id=2 expires_ns=300 idle_loop=1\n",
		      2, at(b, 2), at(b, 3));
}

static void expect_error(struct fixture *f, unsigned int replace, const char *with,
			 unsigned long line, const char *field)
{
	g_autofree char *text = test_replace_line(base, replace, with);
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) ev = read_all(write_trace(f, text, -1), &error);

	if (ev)
		fail_msg("line %u '%s' was accepted", replace, with);
	test_assert_names(error, f->path, line, field);
}

/*
 * remote on an irq (line 8), in the writer's order (after the wakeup's
 * fields) and out of it: both read the same and write back in the
 * writer's order; absent, it is false.  A timer has no such field.
 */
static void test_remote(void **state)
{
	struct fixture *f = *state;
	g_autofree char *fast = test_replace_line(base, 8, "irq at_ns=100 cpu=1 work_ns=50 "
						  "idle_loop=1 remote=1");
	g_autofree char *general = test_replace_line(base, 8, "irq remote=1 at_ns=100 cpu=1 "
						     "work_ns=50");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);
	g_autoptr(GArray) none = read_ok(f, base);

	assert_true(at(a, 2)->remote);
	assert_true(at(a, 2)->idle_loop);
	assert_true(at(b, 2)->remote);
	assert_false(at(b, 2)->idle_loop);
	assert_false(at(none, 2)->remote);
	assert_writes("irq at_ns=100 cpu=1 work_ns=50 idle_loop=1 remote=1\n"
		      "irq at_ns=100 cpu=1 work_ns=50 remote=1\n", 2, at(a, 2), at(b, 2));
	expect_error(f, 8, "irq at_ns=100 cpu=1 remote=2", 8, "remote");
	expect_error(f, 9, "timer at_ns=200 cpu=1 id=2 expires_ns=300 remote=1", 9, "remote");
}

/*
 * resched on an irq (line 8) with idle_loop, in the writer's order (last)
 * and out of it: both read the same and write back in the writer's order;
 * absent, it is false.  Without idle_loop=1, in either order, it is an
 * error naming the field (a CPU that runs a task leaves the idle loop
 * anyway); a timer has no such field.
 */
static void test_resched(void **state)
{
	struct fixture *f = *state;
	g_autofree char *fast = test_replace_line(base, 8, "irq at_ns=100 cpu=1 work_ns=50 "
						  "idle_loop=1 resched=1");
	g_autofree char *general = test_replace_line(base, 8, "irq resched=1 at_ns=100 cpu=1 "
						     "idle_loop=1");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);
	g_autoptr(GArray) none = read_ok(f, base);

	assert_true(at(a, 2)->resched);
	assert_true(at(b, 2)->resched);
	assert_false(at(none, 2)->resched);
	assert_writes("irq at_ns=100 cpu=1 work_ns=50 idle_loop=1 resched=1\n"
		      "irq at_ns=100 cpu=1 idle_loop=1 resched=1\n", 2, at(a, 2), at(b, 2));
	expect_error(f, 8, "irq at_ns=100 cpu=1 resched=1", 8, "resched");
	expect_error(f, 8, "irq at_ns=100 cpu=1 idle_loop=0 resched=1", 8, "resched");
	expect_error(f, 8, "irq resched=1 at_ns=100 cpu=1", 8, "resched");
	expect_error(f, 8, "irq at_ns=100 cpu=1 idle_loop=1 resched=2", 8, "resched");
	expect_error(f, 9, "timer at_ns=200 cpu=1 id=2 expires_ns=300 idle_loop=1 resched=1", 9,
		     "resched");
}

/*
 * Numbers of every width from 1 to 19 digits, in lines of every length, so
 * that values start and end at every offset of a word and the 64 KiB
 * blocks the reader refills end inside lines and inside numbers.  The
 * expected value of each is libc's strtoull() of the text written.
 */
static void test_number_widths(void **state)
{
	struct fixture *f = *state;
	g_autoptr(GString) text = g_string_new("teosim-trace 1\ncpus 1\nend_ns 4611686018427387903\n");
	g_autoptr(GPtrArray) works = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) ev = NULL;
	uint64_t x = 88172645463325252ull;

	for (unsigned int k = 0; text->len < 300000; k++) {
		unsigned int width = 1 + k % 19;
		char *work;

		/* xorshift64; the digits are its value's, cut to width, the first one 1 to 3 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		work = g_strdup_printf("%u%018" G_GUINT64_FORMAT, 1 + (unsigned int)(x % 3),
				       (guint64)(x % 1000000000000000000ull));
		work[width] = '\0';
		g_string_append_printf(text, "irq at_ns=%u cpu=0 work_ns=%s\n", k, work);
		g_ptr_array_add(works, work);
	}
	ev = read_all(write_trace(f, text->str, -1), &error);
	if (!ev)
		fail_msg("%s", error->message);
	assert_int_equal(ev->len, works->len);
	for (unsigned int k = 0; k < ev->len; k++) {
		assert_int_equal(at(ev, k)->at_ns, k);
		assert_int_equal(at(ev, k)->work_ns, strtoull(works->pdata[k], NULL, 10));
	}
}

/*
 * Leading zeros are digits like the others: a value of 19 digits is read on
 * the writer's fast path, one of 20 by the general parser; both say 50.
 */
static void test_leading_zeros(void **state)
{
	static const char *const lines[] = {
		"irq at_ns=100 cpu=1 work_ns=0000000000000000050",
		"irq at_ns=100 cpu=1 work_ns=00000000000000000050",
	};
	struct fixture *f = *state;

	for (unsigned int k = 0; k < G_N_ELEMENTS(lines); k++) {
		g_autofree char *text = test_replace_line(base, 8, lines[k]);
		g_autoptr(GError) error = NULL;
		g_autoptr(GArray) ev = read_all(write_trace(f, text, -1), &error);

		if (!ev)
			fail_msg("%s", error->message);
		assert_int_equal(at(ev, 2)->work_ns, 50);
	}
}

static void test_bad_times(void **state)
{
	struct fixture *f = *state;

	expect_error(f, 8, "irq at_ns=-1 cpu=1", 8, "at_ns");
	expect_error(f, 8, "irq at_ns=100 cpu=1 idle_loop=2", 8, "idle_loop");
	expect_error(f, 10, "busy at_ns=50 cpu=1 work_ns=1000", 10, "at_ns");	/* after 200 */
	expect_error(f, 9, "timer at_ns=200 cpu=1 id=2 expires_ns=100", 9, "expires_ns");
	expect_error(f, 9, "timer at_ns=200 cpu=1 id=2 expires_ns=300 fires_ns=299", 9, "fires_ns");
	expect_error(f, 5, "mono_ns -1", 5, "mono_ns");
	expect_error(f, 5, "poll_check_ns 0", 5, "poll_check_ns");
	expect_error(f, 5, "poll_check_ns 4294967296000", 5, "poll_check_ns");
	expect_error(f, 14, "irq at_ns=1000001 cpu=0", 14, "at_ns");		/* after end_ns */
	expect_error(f, 7, "timer at_ns=0 cpu=0 id=1 expires_ns=5000 period_ns=999", 7, "period_ns");
	expect_error(f, 10, "busy at_ns=400 cpu=1 work_ns=0", 10, "work_ns");
	expect_error(f, 11, "tick at_ns=500 cpu=1 fires_ns=499", 11, "fires_ns");
	expect_error(f, 11, "tick at_ns=500 cpu=1", 11, "fires_ns");
	expect_error(f, 11, "tick at_ns=500 fires_ns=600", 11, "cpu");
}

static void test_overflow(void **state)
{
	struct fixture *f = *state;

	expect_error(f, 8, "irq at_ns=18446744073709551616 cpu=1", 8, "at_ns");	/* 2^64 */
	expect_error(f, 8, "irq at_ns=100 cpu=1 work_ns=4611686018427387904", 8, "work_ns"); /* 2^62 */
	expect_error(f, 8, "irq at_ns=100 cpu=1 exit_ns=4611686018427387904", 8, "exit_ns");
	expect_error(f, 4, "end_ns 99999999999999999999999999", 4, "end_ns");
	expect_error(f, 9, "timer at_ns=200 cpu=1 id=18446744073709551616 expires_ns=300", 9, "id");
}

static void test_unknown_records_and_keys(void **state)
{
	struct fixture *f = *state;

	expect_error(f, 8, "irq at_ns=100 cpu=1 color=red", 8, "color");
	expect_error(f, 8, "wakeup at_ns=100 cpu=1", 8, "wakeup");
	expect_error(f, 5, "hz 250", 5, "hz");
	expect_error(f, 8, "irq at_ns=100 cpu=1 cpu=0", 8, "cpu");
	expect_error(f, 13, "phase at_ns=700 cpu=0 name=second", 13, "cpu");
}

static void test_missing_fields(void **state)
{
	struct fixture *f = *state;

	expect_error(f, 8, "irq cpu=1", 8, "at_ns");
	expect_error(f, 8, "irq at_ns=100", 8, "cpu");
	expect_error(f, 9, "timer at_ns=200 cpu=1 expires_ns=300", 9, "id");
	expect_error(f, 9, "timer at_ns=200 cpu=1 id=2", 9, "expires_ns");
	expect_error(f, 13, "phase at_ns=700", 13, "name");
	/* The header ends at the first event (line 6) without it. */
	expect_error(f, 3, "", 6, "cpus");
	expect_error(f, 4, "", 6, "end_ns");
}

static void test_cpu_out_of_range(void **state)
{
	struct fixture *f = *state;

	expect_error(f, 8, "irq at_ns=100 cpu=2", 8, "cpu");
	expect_error(f, 3, "cpus 0", 3, "cpus");
}

static void test_header_errors(void **state)
{
	struct fixture *f = *state;

	expect_error(f, 1, "teosim-trace 2", 1, "teosim-trace");
	expect_error(f, 1, "teosim-calls 1", 1, "teosim-trace");
	expect_error(f, 2, "name has space", 2, "name");
	expect_error(f, 5, "cpus 4", 5, "cpus");				/* given twice */
	expect_error(f, 13, "phase at_ns=700 name=a-name-longer-than-31-characters", 13, "name");
}

/* The header's platform: a bundled name as it is, a file beside the trace. */
static char *platform_spec_of(struct fixture *f, const char *line, const char *trace)
{
	g_autofree char *text = test_replace_line(base, 5, line);
	g_autoptr(GError) error = NULL;
	struct trace_reader *r;
	char *spec;

	write_trace(f, text, -1);
	r = trace_open(f->path, &error);
	if (!r)
		fail_msg("%s", error->message);
	spec = trace_platform_spec(trace, trace_header(r));
	trace_close(r);
	return spec;
}

static void test_platform_header(void **state)
{
	struct fixture *f = *state;
	g_autofree char *none = platform_spec_of(f, "# no platform", "dir/t.trace");
	g_autofree char *bundled = platform_spec_of(f, "platform skx", "dir/t.trace");
	g_autofree char *beside = platform_spec_of(f, "platform box.platform", "dir/t.trace");
	g_autofree char *here = platform_spec_of(f, "platform box.platform", "t.trace");
	g_autofree char *copy = g_build_filename(f->dir, "copy.trace", NULL);
	g_autoptr(GError) error = NULL;
	struct trace_reader *r;
	FILE *out;

	assert_null(none);
	assert_string_equal(bundled, "skx");
	assert_string_equal(beside, "dir/box.platform");
	assert_string_equal(here, "./box.platform");
	/* The writer keeps it. */
	r = trace_open(f->path, &error);
	assert_non_null(r);
	out = fopen(copy, "w");
	assert_non_null(out);
	trace_write_header(out, trace_header(r));
	trace_close(r);
	assert_int_equal(fclose(out), 0);
	r = trace_open(copy, &error);
	assert_non_null(r);
	assert_string_equal(trace_header(r)->platform, "box.platform");
	trace_close(r);
	g_unlink(copy);
	/* Only a name: nothing outside the trace's directory. */
	expect_error(f, 5, "platform ../box.platform", 5, "platform");
	expect_error(f, 5, "platform /etc/box.platform", 5, "platform");
	expect_error(f, 5, "platform ..", 5, "platform");
	expect_error(f, 5, "platform a b", 5, "platform");
	expect_error(f, 2, "platform skx\nplatform skx", 3, "platform");	/* given twice */
}

/*
 * A wheel record, in the writer's order (fast path) and out of it: both
 * read the same and write back alike, with the work its callback brings
 * (work_ns, optional).  It is armed until its boundary:
 * cancelled before it (line 11 at 500, due at 600), refused after it; and
 * its id names a wheel timer while armed, so a timer record for it is an
 * error, as is an expiry before at_ns.
 */
static void test_wheel_record(void **state)
{
	struct fixture *f = *state;
	g_autofree char *fast = test_replace_line(base, 9, "wheel at_ns=200 cpu=1 id=5 expires_ns=600 "
						  "work_ns=70");
	g_autofree char *general = test_replace_line(base, 9, "wheel work_ns=70 expires_ns=600 id=5 "
						     "at_ns=200 cpu=1");
	g_autofree char *cancel = test_replace_line(fast, 11, "cancel at_ns=500 cpu=1 id=5");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);
	g_autoptr(GArray) c = read_ok(f, cancel);

	assert_int_equal(at(a, 3)->kind, TRACE_WHEEL);
	assert_true(at(a, 3)->at_ns == 200 && at(a, 3)->cpu == 1 && at(a, 3)->timer_id == 5 &&
		    at(a, 3)->expires_ns == 600 && at(a, 3)->work_ns == 70);
	assert_int_equal(at(b, 3)->kind, TRACE_WHEEL);
	assert_true(at(b, 3)->expires_ns == 600 && at(b, 3)->timer_id == 5 &&
		    at(b, 3)->work_ns == 70);
	assert_int_equal(at(c, 5)->kind, TRACE_CANCEL);
	assert_writes("wheel at_ns=200 cpu=1 id=5 expires_ns=600 work_ns=70\n", 1, at(b, 3));
	expect_error(f, 9, "wheel at_ns=200 cpu=1 id=5 expires_ns=100", 9, "expires_ns");
	expect_error(f, 9, "wheel at_ns=200 cpu=1 id=5", 9, "expires_ns");
	expect_error(f, 9, "wheel at_ns=200 cpu=1 id=5 expires_ns=300 work_ns=4611686018427387904", 9,
		     "work_ns");
	expect_error(f, 9, "wheel at_ns=200 cpu=1 id=5 expires_ns=300 held_ns=1", 9, "held_ns");
	expect_error(f, 9, "wheel at_ns=200 cpu=1 id=5 expires_ns=300 exit_ns=1", 9, "exit_ns");
	expect_error(f, 9, "wheel at_ns=200 cpu=1 id=5 expires_ns=300 stalled_ns=1", 9,
		     "stalled_ns");
	expect_error(f, 8, "irq at_ns=100 cpu=1 stalled_ns=4611686018427387904", 8, "stalled_ns");
	/* Timer 1 is an hrtimer armed on cpu 0 until 500, timer 2 one on cpu 1 from 600 to 900. */
	expect_error(f, 9, "wheel at_ns=200 cpu=0 id=1 expires_ns=300", 9, "id");
	expect_error(f, 13, "wheel at_ns=700 cpu=1 id=2 expires_ns=900", 13, "id");
}

/*
 * An rcu record, in the writer's order and out of it, and as the first
 * event; pending is 0 or 1 and required.
 */
static void test_rcu_record(void **state)
{
	struct fixture *f = *state;
	g_autofree char *fast = test_replace_line(base, 9, "rcu at_ns=200 cpu=1 pending=1");
	g_autofree char *general = test_replace_line(base, 9, "rcu pending=0 cpu=1 at_ns=200");
	/* The first event ends the header, whatever its kind. */
	g_autofree char *first = test_replace_line(base, 6, "rcu at_ns=0 cpu=0 pending=1");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);
	g_autoptr(GArray) c = read_ok(f, first);

	assert_int_equal(at(a, 3)->kind, TRACE_RCU);
	assert_true(at(a, 3)->at_ns == 200 && at(a, 3)->cpu == 1 && at(a, 3)->rcu_pending);
	assert_int_equal(at(b, 3)->kind, TRACE_RCU);
	assert_false(at(b, 3)->rcu_pending);
	assert_writes("rcu at_ns=200 cpu=1 pending=1\n", 1, at(a, 3));
	assert_writes("rcu at_ns=200 cpu=1 pending=0\n", 1, at(b, 3));
	expect_error(f, 9, "rcu at_ns=200 cpu=1 pending=2", 9, "pending");
	expect_error(f, 9, "rcu at_ns=200 cpu=1", 9, "pending");
	expect_error(f, 9, "rcu at_ns=200 cpu=1 pending=1 work_ns=5", 9, "work_ns");
	expect_error(f, 9, "rcu at_ns=200 cpu=7 pending=1", 9, "cpu");
	assert_true(at(c, 0)->kind == TRACE_RCU && at(c, 0)->rcu_pending);
}

/*
 * An iowait record, in the writer's order and out of it, and as the first
 * event; tasks is 0 .. TRACE_IOWAIT_TASKS_MAX (2^22) and required; an irq
 * and an idle line, which also start with 'i', still read.
 */
static void test_iowait_record(void **state)
{
	struct fixture *f = *state;
	g_autofree char *fast = test_replace_line(base, 9, "iowait at_ns=200 cpu=1 tasks=2");
	g_autofree char *general = test_replace_line(base, 9, "iowait tasks=4194304 cpu=1 at_ns=200");
	g_autofree char *first = test_replace_line(base, 6, "iowait at_ns=0 cpu=0 tasks=1");
	g_autofree char *none = test_replace_line(base, 9, "iowait at_ns=200 cpu=1 tasks=0");
	g_autofree char *irq = test_replace_line(base, 9, "irq at_ns=200 cpu=1");
	g_autofree char *idle = test_replace_line(base, 9, "idle at_ns=200 cpu=1");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);
	g_autoptr(GArray) c = read_ok(f, first);
	g_autoptr(GArray) d = read_ok(f, none);
	g_autoptr(GArray) e = read_ok(f, irq);
	g_autoptr(GArray) g = read_ok(f, idle);

	assert_int_equal(at(a, 3)->kind, TRACE_IOWAIT);
	assert_true(at(a, 3)->at_ns == 200 && at(a, 3)->cpu == 1 && at(a, 3)->iowait_tasks == 2);
	assert_true(at(b, 3)->kind == TRACE_IOWAIT && at(b, 3)->iowait_tasks == 4194304);
	assert_true(at(c, 0)->kind == TRACE_IOWAIT && at(c, 0)->iowait_tasks == 1);
	assert_true(at(d, 3)->kind == TRACE_IOWAIT && at(d, 3)->iowait_tasks == 0);
	assert_true(at(e, 3)->kind == TRACE_IRQ && !at(e, 3)->iowait_tasks);
	assert_true(at(g, 3)->kind == TRACE_IDLE && !at(g, 3)->iowait_tasks);
	assert_writes("iowait at_ns=200 cpu=1 tasks=2\n", 1, at(a, 3));
	assert_writes("iowait at_ns=200 cpu=1 tasks=4194304\n", 1, at(b, 3));
	assert_writes("iowait at_ns=200 cpu=1 tasks=0\n", 1, at(d, 3));
	expect_error(f, 9, "iowait at_ns=200 cpu=1 tasks=4194305", 9, "tasks");
	expect_error(f, 9, "iowait at_ns=200 cpu=1 tasks=-1", 9, "tasks");
	expect_error(f, 9, "iowait at_ns=200 cpu=1", 9, "tasks");
	expect_error(f, 9, "iowait at_ns=200 cpu=1 tasks=1 work_ns=5", 9, "work_ns");
	expect_error(f, 9, "iowait at_ns=200 cpu=7 tasks=1", 9, "cpu");
	expect_error(f, 9, "iowait at_ns=99 cpu=1 tasks=1", 9, "at_ns");
}

/*
 * A poll record, in the writer's order and out of it, and as the first
 * event; check_ns is 1 .. the header's limit for poll_check_ns, and
 * required; a phase line, which also starts with 'p', still reads.
 */
static void test_poll_record(void **state)
{
	struct fixture *f = *state;
	g_autofree char *fast = test_replace_line(base, 9, "poll at_ns=200 cpu=1 check_ns=41000");
	g_autofree char *general = test_replace_line(base, 9, "poll check_ns=7 cpu=1 at_ns=200");
	g_autofree char *first = test_replace_line(base, 6, "poll at_ns=0 cpu=0 check_ns=1");
	g_autofree char *phase = test_replace_line(base, 9, "phase at_ns=200 name=pace");
	g_autofree char *back = test_replace_line(base, 9, "poll at_ns=200 cpu=1 check_ns=0");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);
	g_autoptr(GArray) c = read_ok(f, first);
	g_autoptr(GArray) d = read_ok(f, phase);
	g_autoptr(GArray) e = read_ok(f, back);

	assert_int_equal(at(a, 3)->kind, TRACE_POLL);
	assert_true(at(a, 3)->at_ns == 200 && at(a, 3)->cpu == 1 && at(a, 3)->check_ns == 41000);
	assert_int_equal(at(b, 3)->check_ns, 7);
	assert_int_equal(at(a, 2)->check_ns, 0);
	assert_writes("poll at_ns=200 cpu=1 check_ns=41000\n", 1, at(a, 3));
	assert_writes("poll at_ns=200 cpu=1 check_ns=7\n", 1, at(b, 3));
	assert_true(at(c, 0)->kind == TRACE_POLL && at(c, 0)->check_ns == 1);
	assert_true(at(d, 3)->kind == TRACE_PHASE && !strcmp(at(d, 3)->phase, "pace"));
	assert_true(at(e, 3)->kind == TRACE_POLL && at(e, 3)->check_ns == 0);
	assert_writes("poll at_ns=200 cpu=1 check_ns=0\n", 1, at(e, 3));
	expect_error(f, 9, "poll at_ns=200 cpu=1 check_ns=4294967296000", 9, "check_ns");
	expect_error(f, 9, "poll at_ns=200 cpu=1", 9, "check_ns");
	expect_error(f, 9, "poll at_ns=200 cpu=1 check_ns=5 work_ns=5", 9, "work_ns");
	expect_error(f, 9, "poll at_ns=200 cpu=9 check_ns=5", 9, "cpu");
}

/*
 * An idle record, in the writer's order and out of it, and as the first
 * event; its one field of its own, aborted, is optional; an irq line,
 * which also starts with 'i', still reads.
 */
static void test_idle_record(void **state)
{
	struct fixture *f = *state;
	g_autofree char *fast = test_replace_line(base, 9, "idle at_ns=200 cpu=1");
	g_autofree char *general = test_replace_line(base, 9, "idle cpu=1 at_ns=200");
	g_autofree char *first = test_replace_line(base, 6, "idle at_ns=0 cpu=0");
	g_autofree char *irq = test_replace_line(base, 9, "irq at_ns=200 cpu=1");
	g_autofree char *aborted = test_replace_line(base, 9, "idle at_ns=200 cpu=1 aborted=1");
	g_autofree char *aborted_general = test_replace_line(base, 9,
							     "idle aborted=1 cpu=1 at_ns=200");
	g_autofree char *not_aborted = test_replace_line(base, 9, "idle at_ns=200 cpu=1 aborted=0");
	g_autoptr(GArray) a = read_ok(f, fast);
	g_autoptr(GArray) b = read_ok(f, general);
	g_autoptr(GArray) c = read_ok(f, first);
	g_autoptr(GArray) d = read_ok(f, irq);
	g_autoptr(GArray) e = read_ok(f, aborted);
	g_autoptr(GArray) g = read_ok(f, aborted_general);
	g_autoptr(GArray) h = read_ok(f, not_aborted);

	assert_int_equal(at(a, 3)->kind, TRACE_IDLE);
	assert_true(at(a, 3)->at_ns == 200 && at(a, 3)->cpu == 1 && !at(a, 3)->work_ns);
	assert_true(at(b, 3)->kind == TRACE_IDLE && at(b, 3)->at_ns == 200 && at(b, 3)->cpu == 1);
	assert_writes("idle at_ns=200 cpu=1\n", 1, at(a, 3));
	assert_true(at(c, 0)->kind == TRACE_IDLE && at(c, 0)->cpu == 0);
	assert_int_equal(at(d, 3)->kind, TRACE_IRQ);
	assert_false(at(a, 3)->aborted || at(b, 3)->aborted || at(h, 3)->aborted);
	assert_true(at(e, 3)->kind == TRACE_IDLE && at(e, 3)->aborted && at(e, 3)->at_ns == 200);
	assert_true(at(g, 3)->kind == TRACE_IDLE && at(g, 3)->aborted);
	assert_writes("idle at_ns=200 cpu=1 aborted=1\n", 1, at(e, 3));
	expect_error(f, 9, "idle at_ns=200 cpu=1 aborted=2", 9, "aborted");
	expect_error(f, 9, "idle at_ns=200 cpu=1 aborted=1 work_ns=5", 9, "work_ns");
	expect_error(f, 9, "idle at_ns=200 cpu=1 work_ns=5", 9, "work_ns");
	expect_error(f, 9, "idle at_ns=200", 9, "cpu");
	expect_error(f, 9, "idle at_ns=200 cpu=9", 9, "cpu");
	expect_error(f, 9, "idle at_ns=99 cpu=1", 9, "at_ns");
}

static void test_timer_ids(void **state)
{
	struct fixture *f = *state;

	expect_error(f, 9, "timer at_ns=200 cpu=1 id=1 expires_ns=300", 9, "id");
	expect_error(f, 11, "cancel at_ns=500 cpu=0 id=7", 11, "id");		/* never armed */
	expect_error(f, 11, "cancel at_ns=500 cpu=1 id=2", 11, "id");		/* expired at 300 */
	expect_error(f, 11, "cancel at_ns=500 cpu=1 id=1", 11, "id");		/* armed on cpu 0 */
}

/*
 * A trace of n timers, each id its own: expiring 5 ns after it is armed
 * (one armed at a time), or all at 1 s.
 */
static char *many_timers(struct fixture *f, unsigned int n, bool short_lived)
{
	g_autoptr(GString) text = g_string_new("teosim-trace 1\ncpus 1\nend_ns 2000000000\n");

	for (unsigned int i = 0; i < n; i++)
		g_string_append_printf(text, "timer at_ns=%u cpu=0 id=%u expires_ns=%u\n", i * 10, i,
				       short_lived ? i * 10 + 5 : 1000000000);
	return write_trace(f, text->str, (gssize)text->len);
}

/* Reads the trace with a limit on timers armed at once: the events read, or -1 with the error. */
static int read_limited(const char *path, unsigned int max, GError **error)
{
	struct trace_reader *r = trace_open(path, error);
	const struct trace_event *ev;
	int n = 0, ret;

	assert_non_null(r);
	trace_limit_armed(r, max);
	while ((ret = trace_next(r, &ev, error)) > 0)
		n++;
	trace_close(r);
	return ret < 0 ? -1 : n;
}

/*
 * Memory follows the timers armed at once, up to a limit (TRACE_ARMED_MAX;
 * 100 here, so that the test stays small).  The reader checks it as its
 * table fills: at 64 known timers, then 128, then 200 (twice the limit).
 * With all armed, the check at 128 finds more than 100: the 129th timer,
 * on line 3 + 129, is the error.
 */
static void test_armed_limit(void **state)
{
	struct fixture *f = *state;
	g_autoptr(GError) error = NULL;

	assert_int_equal(read_limited(many_timers(f, 1000, true), 100, &error), 1000);
	assert_int_equal(read_limited(many_timers(f, 100, false), 100, &error), 100);
	assert_int_equal(read_limited(many_timers(f, 300, false), 100, &error), -1);
	test_assert_names(error, f->path, 132, "id");
	assert_non_null(strstr(error->message, "128 timers armed at once, more than the 100"));
}

static void expect_raw_error(struct fixture *f, const char *text, gssize len,
			     unsigned long line, const char *what)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) ev = read_all(write_trace(f, text, len), &error);

	assert_null(ev);
	test_assert_names(error, f->path, line, NULL);
	if (!strstr(error->message, what))
		fail_msg("'%s' should say '%s'", error->message, what);
}

static void test_broken_lines(void **state)
{
	struct fixture *f = *state;
	static const char nul[] = "teosim-trace 1\ncpus 1\nend_ns 9\nirq at_ns=1\0 cpu=0\n";
	g_autoptr(GString) longline = g_string_new("teosim-trace 1\ncpus 1\nend_ns 9\nirq at_ns=1 cpu=0");

	expect_raw_error(f, "", 0, 0, "empty");
	expect_raw_error(f, "# only a comment\n", -1, 0, "empty");
	/* base without its last newline: line 14 is cut short. */
	expect_raw_error(f, base, (gssize)strlen(base) - 1, 14, "truncated");
	expect_raw_error(f, nul, sizeof(nul) - 1, 4, "NUL");
	while (longline->len < 5000)
		g_string_append(longline, " x=1");
	g_string_append_c(longline, '\n');
	expect_raw_error(f, longline->str, -1, 4, "longer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writer_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rearm_same_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remote, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resched, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wheel_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rcu_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iowait_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fires_and_mono, setup, teardown),
		cmocka_unit_test_setup_teardown(test_number_widths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_leading_zeros, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_times, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_records_and_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_out_of_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_platform_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timer_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_broken_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_armed_limit, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

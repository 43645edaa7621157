// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "replay.h"
#include "replay-helpers.h"

const struct kshim_state_desc skx_states[4] = {
	{ .name = "POLL", .exit_latency_us = 0, .target_residency_us = 0, .polling = true },
	{ .name = "C1", .exit_latency_us = 2, .target_residency_us = 2 },
	{ .name = "C1E", .exit_latency_us = 10, .target_residency_us = 20 },
	{ .name = "C6", .exit_latency_us = 133, .target_residency_us = 600 },
};

void calls_begin(struct calls *c, unsigned int hz, unsigned int cpus,
		 const struct kshim_state_desc *states, unsigned int count)
{
	struct calllog_header h = { .hz = hz, .nr_cpus = cpus, .state_count = count };

	memcpy(h.states, states, count * sizeof(*states));
	memset(c, 0, sizeof(*c));
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	calllog_write_header(c->f, &h);
}

void calls_select_full(struct calls *c, const struct calllog_select *s)
{
	calllog_write_select(c->f, s);
	c->selects++;
}

void calls_select(struct calls *c, unsigned int cpu, uint64_t clock_ns,
		  int64_t sleep_ns, int64_t tick_ns)
{
	struct calllog_select s = {
		.cpu = cpu, .clock_ns = clock_ns, .has_sleep = true,
		.sleep_ns = sleep_ns, .tick_ns = tick_ns, .qos_us = QOS_NONE,
	};

	calls_select_full(c, &s);
}

void calls_reflect(struct calls *c, unsigned int cpu, uint64_t clock_ns, int state,
		   uint64_t residency_ns, bool got_tick)
{
	struct calllog_reflect r = {
		.cpu = cpu, .clock_ns = clock_ns, .state = state,
		.residency_ns = residency_ns, .got_tick = got_tick,
	};

	calllog_write_reflect(c->f, &r);
}

char *calls_end(struct calls *c)
{
	fclose(c->f);
	return c->buf;
}

static char *write_temp(const char *text)
{
	g_autoptr(GError) error = NULL;
	char *path = NULL;
	int fd = g_file_open_tmp("teosim-test-XXXXXX.calls", &path, &error);

	assert_true(fd >= 0);
	assert_true(g_file_set_contents(path, text, -1, &error));
	close(fd);
	return path;
}

static bool run(const char *governor, const char *text, GArray **decisions, char **message)
{
	const struct kshim_governor *gov = kshim_governor_find(governor);
	g_autofree char *path = write_temp(text);
	g_autoptr(GError) error = NULL;
	struct replay_result result;
	char *out = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;
	bool ok;

	if (!gov) {
		/* Its source was missing at configure time (meson says which). */
		print_message("governor %s is not built in: skipped\n", governor);
		skip();
	}
	f = open_memstream(&out, &len);
	ok = replay_run(gov, path, f, REPLAY_NO_CHECK, NULL, &result, &error);
	fclose(f);
	unlink(path);
	if (!ok)
		*message = g_strdup(error->message);
	*decisions = g_array_new(FALSE, TRUE, sizeof(struct decision));
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct decision d;
		int stop;

		if (sscanf(line, "decision line=%lu cpu=%u state=%d stop_tick=%d",
			   &d.line, &d.cpu, &d.state, &stop) == 4) {
			d.stop_tick = stop;
			g_array_append_val(*decisions, d);
		}
	}
	free(out);
	return ok;
}

GArray *replay_decisions(const char *governor, const char *text)
{
	g_autofree char *message = NULL;
	GArray *decisions;

	if (!run(governor, text, &decisions, &message))
		fail_msg("%s: %s", governor, message);
	return decisions;
}

char *replay_failure(const char *governor, const char *text)
{
	g_autoptr(GArray) decisions = NULL;
	char *message = NULL;

	if (run(governor, text, &decisions, &message))
		fail_msg("%s: replay succeeded where it should fail", governor);
	return message;
}

GArray *replay_one_select(const char *governor, const struct kshim_state_desc *states,
			  unsigned int count, const struct calllog_select *s)
{
	g_autofree char *text = NULL;
	struct calls c;

	calls_begin(&c, 250, 1, states, count);
	calls_select_full(&c, s);
	text = calls_end(&c);
	return replay_decisions(governor, text);
}

const struct decision *nth_select(GArray *decisions, unsigned int n)
{
	assert_true(n >= 1 && n <= decisions->len);
	return &g_array_index(decisions, struct decision, n - 1);
}

void expect_decision(GArray *decisions, unsigned int n, int state, bool stop_tick)
{
	const struct decision *x = nth_select(decisions, n);

	if (x->state != state || x->stop_tick != stop_tick)
		fail_msg("select %u (line %lu): got state=%d stop_tick=%d, expected state=%d stop_tick=%d",
			 n, x->line, x->state, x->stop_tick, state, stop_tick);
}

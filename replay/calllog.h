/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The governor-call log (traces/calls-format.md): a streaming reader that
 * validates everything the format promises, and a writer.
 */
#ifndef TEOSIM_CALLLOG_H
#define TEOSIM_CALLLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>
#include <kshim/machine.h>

#include "kvline.h"

#define CALLLOG_VERSION		1

/* A governor's name in the header, with its NUL. */
#define CALLLOG_GOVERNOR_MAX	32

struct calllog_header {
	/* The governor whose decisions the log records, or "" when it names none. */
	char governor[CALLLOG_GOVERNOR_MAX];
	unsigned int hz;
	unsigned int nr_cpus;
	unsigned int state_count;
	struct kshim_state_desc states[KSHIM_STATE_MAX];
};

struct calllog_select {
	unsigned int cpu;
	uint64_t clock_ns;
	bool has_sleep;			/* sleep_ns and tick_ns present */
	int64_t sleep_ns;
	int64_t tick_ns;
	int32_t qos_us;
	bool tick_stopped;
	uint32_t nr_iowait;
	uint16_t disable_mask;		/* bit i: the user disables state i */
	uint16_t enable_mask;
	bool has_decision;
	int state;
	bool stop_tick;
};

struct calllog_reflect {
	unsigned int cpu;
	uint64_t clock_ns;
	int state;
	uint64_t residency_ns;
	bool got_tick;
	bool poll_time_limit;
};

enum calllog_kind { CALLLOG_SELECT, CALLLOG_REFLECT };

struct calllog_record {
	enum calllog_kind kind;
	unsigned long line;
	union {
		struct calllog_select select;
		struct calllog_reflect reflect;
	};
};

struct calllog_reader;

/* Opens the log and reads its header. */
struct calllog_reader *calllog_open(const char *path, GError **error);
void calllog_close(struct calllog_reader *r);
const struct calllog_header *calllog_header(const struct calllog_reader *r);
const char *calllog_path(const struct calllog_reader *r);
/* Returns 1 with a record, 0 at the end, -1 on error. */
int calllog_next(struct calllog_reader *r, struct calllog_record *rec, GError **error);

void calllog_write_header(FILE *out, const struct calllog_header *h);
void calllog_write_select(FILE *out, const struct calllog_select *s);
void calllog_write_reflect(FILE *out, const struct calllog_reflect *r);

#endif /* TEOSIM_CALLLOG_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Replaying a governor-call log through a governor (traces/calls-format.md). */
#ifndef TEOSIM_REPLAY_H
#define TEOSIM_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>
#include <kshim/registry.h>

struct replay_result {
	unsigned long selects;
	unsigned long compared;		/* selects with a recorded decision */
	unsigned long mismatches;	/* 0 or 1: --check stops at the first */
};

enum replay_check {
	REPLAY_NO_CHECK,
	REPLAY_CHECK_EVERY,	/* every select must carry a recorded decision */
	REPLAY_CHECK_RECORDED,	/* selects without one only lead up to those that have */
};

/*
 * Runs the log at path through gov, writing decisions to out (may be NULL).
 * When checking, stops at the first decision that differs from the recorded
 * one and fails with TEOSIM_ERROR_INVALID describing both.  With usage
 * (may be NULL), writes the per-CPU state counters the core accumulated.
 */
bool replay_run(const struct kshim_governor *gov, const char *path, FILE *out,
		enum replay_check check, FILE *usage, struct replay_result *result,
		GError **error);

#endif /* TEOSIM_REPLAY_H */

// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <string.h>

#include "platform-private.h"

static bool fail(platform_fail_fn fn, void *ctx, GError **error, int index, const char *key,
		 const char *fmt, ...) G_GNUC_PRINTF(6, 7);

static bool fail(platform_fail_fn fn, void *ctx, GError **error, int index, const char *key,
		 const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fn(ctx, error, index, key, msg);
	return false;
}

bool platform_check(const struct platform *p, platform_fail_fn fn, void *ctx, GError **error)
{
	if (p->state_count < 1 || p->state_count > KSHIM_STATE_MAX)
		return fail(fn, ctx, error, -1, NULL, "%u states: cpuidle takes 1 to %d",
			    p->state_count, KSHIM_STATE_MAX);
	for (unsigned int i = 0; i < p->state_count; i++) {
		const struct platform_state *s = &p->states[i];
		const struct platform_state *prev = i ? &p->states[i - 1] : NULL;
		int idx = (int)i;

		for (unsigned int j = 0; j < i; j++)
			if (!strcmp(p->states[j].desc.name, s->desc.name))
				return fail(fn, ctx, error, idx, "name",
					    "'%s' is also state %u's name", s->desc.name, j);
		/*
		 * The kernel installs its poll state only as state 0
		 * (cpuidle_poll_state_init()), and menu looks for polling at
		 * drv->states[0] when it decides about the tick.
		 */
		if (s->desc.polling && i != 0)
			return fail(fn, ctx, error, idx, "flags",
				    "only state 0 may be a polling state");
		/*
		 * Governors walk the table from shallow to deep and stop at
		 * the first state whose residency does not fit, so a table
		 * whose residencies go down hides its deeper states.  Equal
		 * residencies occur in the kernel's own tables (Skylake client
		 * C7s/C8 and C9/C10), so they are accepted.
		 */
		if (prev && s->desc.target_residency_us < prev->desc.target_residency_us)
			return fail(fn, ctx, error, idx, "target_residency_us",
				    "%u us is below state %u's %u us: states go from shallow to deep",
				    s->desc.target_residency_us, i - 1,
				    prev->desc.target_residency_us);
		/*
		 * The kernel does not check this, but every intel_idle table
		 * and the DT binding (residency includes entry and exit) obey
		 * it, and the energy estimate assumes the exit fits inside
		 * the residency.
		 */
		if (s->desc.exit_latency_us > s->desc.target_residency_us)
			return fail(fn, ctx, error, idx, "exit_latency_us",
				    "%u us exceeds the target residency (%u us)",
				    s->desc.exit_latency_us, s->desc.target_residency_us);
		if (s->power_mw > p->busy_power_mw)
			return fail(fn, ctx, error, idx, "power_mw",
				    "%g mW exceeds the busy power (%g mW)", s->power_mw,
				    p->busy_power_mw);
		if (prev && s->power_mw > prev->power_mw)
			return fail(fn, ctx, error, idx, "power_mw",
				    "%g mW exceeds state %u's %g mW: deeper states draw less",
				    s->power_mw, i - 1, prev->power_mw);
	}
	return true;
}

// SPDX-License-Identifier: GPL-2.0
/* The real kernel's per-state counters, recomputed from cpu_idle entry/exit pairs. */
#include <string.h>

#include "kvline.h"
#include "real-usage.h"

/* An idle period open on a CPU: the state entered, and when. */
struct open_period {
	bool open;
	bool cut;		/* a gap closed the open period: its exit is not another one */
	uint32_t state;
	uint64_t since;
};

static uint64_t us_to_ns(uint32_t us)
{
	return (uint64_t)us * 1000;
}

void real_above_below(const struct platform *p, unsigned int state, uint64_t residency,
		      bool *above, bool *below)
{
	const struct kshim_state_desc *entered = &p->states[state].desc;
	uint64_t latency = us_to_ns(entered->exit_latency_us);

	*above = *below = false;
	if (residency < us_to_ns(entered->target_residency_us)) {
		for (unsigned int i = state; i-- > 0;) {
			if (!p->states[i].desc.disabled) {
				*above = true;
				break;
			}
		}
		return;
	}
	if (residency <= latency)
		return;
	for (unsigned int i = state + 1; i < p->state_count; i++) {
		if (p->states[i].desc.disabled)
			continue;
		*below = residency - latency >= us_to_ns(p->states[i].desc.target_residency_us);
		break;
	}
}

static bool check_state(const struct capture *c, const struct platform *p,
			const struct cap_event *e, GError **error)
{
	if (e->state < p->state_count)
		return true;
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_INVALID,
		    "%s:%s%lu: cpu %u enters idle state %u, but platform %s has %u states "
		    "(states 0 to %u): not the captured machine's platform?", c->path,
		    c->format == CAP_FORMAT_DAT ? " byte offset " : "", e->where, e->cpu, e->state,
		    p->name, p->state_count, p->state_count - 1);
	return false;
}

static bool count_event(const struct capture *c, const struct platform *p,
			const struct cap_event *e, struct open_period *open, struct real_usage *out,
			GArray *periods, GError **error)
{
	struct open_period *o = &open[e->cpu];

	switch (e->kind) {
	case CAP_IDLE:
		if (e->state == CAP_IDLE_EXIT) {
			if (o->open) {
				struct real_state_usage *u = &out->states[o->state];

				u->usage++;
				u->time_ns += e->ts_ns - o->since;
				bool above, below;

				real_above_below(p, o->state, e->ts_ns - o->since, &above, &below);
				u->above += above;
				u->below += below;
				out->periods++;
				if (periods) {
					struct real_period rp = { .entry_ns = o->since, .exit_ns = e->ts_ns,
								  .cpu = e->cpu, .state = o->state };

					g_array_append_val(periods, rp);
				}
			} else if (!o->cut) {
				out->partial++;
			}
			o->open = o->cut = false;
			return true;
		}
		if (!check_state(c, p, e, error))
			return false;
		if (o->open)
			out->partial++;
		*o = (struct open_period){ .open = true, .state = e->state, .since = e->ts_ns };
		return true;
	case CAP_IDLE_MISS:
		if (!check_state(c, p, e, error))
			return false;
		out->have_miss_events = true;
		if (e->flag)
			out->states[e->state].miss_below++;
		else
			out->states[e->state].miss_above++;
		return true;
	case CAP_TICK_STOP:
		if (e->flag)
			out->tick_stops++;
		else
			out->tick_stop_failures++;
		return true;
	case CAP_LOST:
		/* The period around the gap cannot be measured. */
		if (o->open)
			out->partial++;
		o->cut = o->open;
		o->open = false;
		return true;
	default:
		return true;
	}
}

bool real_usage_compute(const struct capture *c, const struct platform *p,
			struct real_usage *out, GArray *periods, GError **error)
{
	g_autofree struct open_period *open = g_new0(struct open_period, c->nr_cpus);

	memset(out, 0, sizeof(*out));
	out->state_count = p->state_count;
	for (guint i = 0; i < c->events->len; i++)
		if (!count_event(c, p, &g_array_index(c->events, struct cap_event, i), open, out,
				 periods, error))
			return false;
	/* Periods still open at the end are cut by it. */
	for (unsigned int cpu = 0; cpu < c->nr_cpus; cpu++)
		out->partial += open[cpu].open;
	return true;
}

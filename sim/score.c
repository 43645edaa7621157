// SPDX-License-Identifier: GPL-2.0
#include "score.h"

/*
 * An idle stretch runs from the CPU's first select after work to the first
 * wakeup by a timer or an interrupt; kept ticks and polling limits split it
 * into several periods.
 */
struct idle_scorer {
	unsigned int state_count;
	/* The platform's figures in ns, and which states hindsight may pick. */
	uint64_t target_ns[KSHIM_STATE_MAX], exit_ns[KSHIM_STATE_MAX];
	uint64_t cost_ns[KSHIM_STATE_MAX];	/* what an exit really takes (platform.h) */
	bool enabled[KSHIM_STATE_MAX], usable[KSHIM_STATE_MAX];
	/*
	 * Per state, for above_below() on every period without a loop: the
	 * residency below which a period is "above" (its target residency, or
	 * 0 when no shallower state is enabled), and the target residency of
	 * the first enabled deeper state (UINT64_MAX when there is none: never
	 * reached).
	 */
	uint64_t above_under_ns[KSHIM_STATE_MAX];
	uint64_t deeper_target_ns[KSHIM_STATE_MAX];
	/*
	 * The states hindsight may pick after state 0, shallowest first, with
	 * their target residencies, which never decrease (platform_check()):
	 * the pick for an idle time is pick_state[n], n the number of those
	 * targets that fit, counted without a branch that depends on the
	 * time (pick_state[0] is 0).
	 */
	unsigned int pick_count;
	int pick_state[KSHIM_STATE_MAX + 1];
	uint64_t pick_target_ns[KSHIM_STATE_MAX];
	/* Past this much idle time every usable state's target residency fits. */
	uint64_t saturation_ns;
	struct cpu_score score;
	uint64_t wakeups[WAKE_CAUSES];		/* by enum wake_cause */
	/* Counted only for a core that keeps no above/below counters itself. */
	uint64_t sim_above[KSHIM_STATE_MAX], sim_below[KSHIM_STATE_MAX];

	bool stretch_open;
	uint64_t stretch_start_ns;
	uint64_t stretch_idle_ns[KSHIM_STATE_MAX];	/* energy, committed at its end */
	uint64_t stretch_exit_ns;
	GArray *unsettled;	/* struct idle_period whose optimal state is not known yet */
	idle_verdict_fn observer;
	void *observer_priv;
};

static bool usable(const struct kshim_state_desc *d, int32_t latency_limit_us)
{
	return !d->disabled && d->exit_latency_us <= (uint32_t)MAX(latency_limit_us, 0);
}

/* Inline: the scorer asks once per period. */
static inline int hindsight(const struct idle_scorer *s, uint64_t idle_ns)
{
	unsigned int fit = 0;

	for (unsigned int k = 0; k < s->pick_count; k++)
		fit += s->pick_target_ns[k] <= idle_ns;
	return s->pick_state[fit];
}

int idle_scorer_hindsight(const struct idle_scorer *s, uint64_t idle_ns)
{
	return hindsight(s, idle_ns);
}

/* Fills pick_state[] and pick_target_ns[] from usable[]. */
static void pickable_states(struct idle_scorer *s)
{
	s->pick_state[0] = 0;
	for (unsigned int i = 1; i < s->state_count; i++) {
		if (!s->usable[i])
			continue;
		s->pick_target_ns[s->pick_count++] = s->target_ns[i];
		s->pick_state[s->pick_count] = (int)i;
	}
}

/* Fills above_under_ns[] and deeper_target_ns[] from enabled[]. */
static void neighbour_states(struct idle_scorer *s)
{
	bool seen = false;
	uint64_t deeper = UINT64_MAX;

	for (unsigned int i = 0; i < s->state_count; i++) {
		s->above_under_ns[i] = seen ? s->target_ns[i] : 0;
		seen |= s->enabled[i];
	}
	for (unsigned int i = s->state_count; i-- > 0;) {
		s->deeper_target_ns[i] = deeper;
		if (s->enabled[i])
			deeper = s->target_ns[i];
	}
}

struct idle_scorer *idle_scorer_new(const struct platform *p, int32_t latency_limit_us,
				    const struct kshim_governor *gov)
{
	struct idle_scorer *s = g_new0(struct idle_scorer, 1);

	s->score.kernel_above_below = !!strcmp(gov->meta->api, "4.20");
	s->state_count = p->state_count;
	for (unsigned int i = 0; i < p->state_count; i++) {
		const struct kshim_state_desc *d = &p->states[i].desc;

		s->target_ns[i] = (uint64_t)d->target_residency_us * 1000;
		s->exit_ns[i] = (uint64_t)d->exit_latency_us * 1000;
		s->cost_ns[i] = (uint64_t)p->states[i].exit_cost_us * 1000;
		s->enabled[i] = !d->disabled;
		s->usable[i] = usable(d, latency_limit_us);
	}
	neighbour_states(s);
	pickable_states(s);
	s->saturation_ns = s->target_ns[hindsight(s, UINT64_MAX)];
	s->score.state_count = p->state_count;
	s->unsettled = g_array_new(FALSE, FALSE, sizeof(struct idle_period));
	return s;
}

void idle_scorer_free(struct idle_scorer *s)
{
	if (!s)
		return;
	g_array_free(s->unsettled, TRUE);
	g_free(s);
}

/*
 * cpuidle_enter_state()'s definitions, on the residency r the core measures
 * (the exit paid included): "above" when r is below the entered state's
 * target residency and some shallower state is enabled; otherwise "below"
 * when r exceeds the declared exit latency and r less it reaches the
 * target residency of the first enabled deeper state.
 */
static inline void above_below(const struct idle_scorer *s, const struct idle_period *p,
			       bool *above, bool *below)
{
	uint64_t r = p->wake_ns + p->exit_latency_ns - p->entry_ns;
	int i = p->state;

	*above = r < s->above_under_ns[i];
	*below = r >= s->target_ns[i] && r > s->exit_ns[i] &&
		 r - s->exit_ns[i] >= s->deeper_target_ns[i];
}

static void count_above_below(struct idle_scorer *s, const struct idle_period *p)
{
	bool above, below;

	above_below(s, p, &above, &below);
	s->sim_above[p->state] += above;
	s->sim_below[p->state] += below;
}

void idle_scorer_observe(struct idle_scorer *s, idle_verdict_fn fn, void *priv)
{
	s->observer = fn;
	s->observer_priv = priv;
}

/* Counted by cause, without branching on it: the causes come in no pattern. */
static void count_wakeup(struct idle_scorer *s, const struct idle_period *p)
{
	s->wakeups[p->cause]++;
	s->score.states[p->state].event_wakeups += p->cause == WAKE_EVENT;
}

/*
 * Judges a period's choices, knowing its stretch ends at end_ns, or at
 * least lasts until end_ns when that already settles them.  Returns the
 * hindsight-optimal state, for a caller that needs it too.  Inline, with
 * the observer's rare work apart: it runs once per period.
 */
static inline int judge(struct idle_scorer *s, const struct idle_period *p, uint64_t end_ns)
{
	struct cpu_score *sc = &s->score;
	int best = hindsight(s, end_ns - p->entry_ns);

	/*
	 * Counted without branches, as in count_wakeup(); scored and
	 * too_shallow follow from these at the end.
	 */
	sc->states[best].optimal++;
	sc->agree += p->state == best;
	sc->too_deep += p->state > best;
	/*
	 * Judged on the tick as the period left it: a stop request the kernel
	 * ignored (a timer due before the next tick) cost nothing.
	 */
	sc->needless_stops += p->stop_tick & p->tick_stopped & (end_ns < p->next_tick_ns);
	sc->missed_stops += !p->stop_tick & !p->tick_stopped & (end_ns > p->next_tick_ns);
	return best;
}

/* Hands the observer a judged period's verdict. */
static void tell_observer(const struct idle_scorer *s, const struct idle_period *p,
			  uint64_t end_ns, int best)
{
	struct idle_verdict v = { .period = p, .idle_ns = end_ns - p->entry_ns,
				  .optimal = best };

	above_below(s, p, &v.above, &v.below);
	s->observer(s->observer_priv, &v);
}

/* judge(), and the verdict to the observer. */
static inline int settle(struct idle_scorer *s, const struct idle_period *p, uint64_t end_ns)
{
	int best = judge(s, p, end_ns);

	if (s->observer)
		tell_observer(s, p, end_ns, best);
	return best;
}

/*
 * The stretch is still open at now: a period is settled once the deepest
 * usable state fits its idle time and its next tick has passed, so that
 * only a bounded window of periods ever waits (memory stays flat even when
 * a CPU idles through the whole trace).
 */
static void settle_early(struct idle_scorer *s, uint64_t now)
{
	GArray *a = s->unsettled;
	guint n = 0;

	while (n < a->len) {
		const struct idle_period *p = &g_array_index(a, struct idle_period, n);

		if (now - p->entry_ns < s->saturation_ns || now <= p->next_tick_ns)
			break;
		settle(s, p, now);
		n++;
	}
	if (n)
		g_array_remove_range(a, 0, n);
}

/*
 * The stretch ended at end_ns.  The optimal schedule sleeps through it in
 * one state and pays one exit latency; both schedules' energy terms are
 * committed now, so a stretch cut by the end of the trace counts for neither.
 */
static void close_stretch(struct idle_scorer *s, uint64_t end_ns)
{
	struct cpu_score *sc = &s->score;
	GArray *a = s->unsettled;
	int best = hindsight(s, end_ns - s->stretch_start_ns);

	for (guint k = 0; k < a->len; k++)
		settle(s, &g_array_index(a, struct idle_period, k), end_ns);
	g_array_set_size(a, 0);
	for (unsigned int i = 0; i < s->state_count; i++) {
		sc->states[i].idle_ns += s->stretch_idle_ns[i];
		s->stretch_idle_ns[i] = 0;
	}
	sc->exit_ns += s->stretch_exit_ns;
	s->stretch_exit_ns = 0;
	sc->states[best].opt_idle_ns += end_ns - s->stretch_start_ns;
	sc->opt_exit_ns += s->cost_ns[best];
	s->stretch_open = false;
}

/* The common case: one period that is a whole stretch by itself. */
static inline void score_lone_period(struct idle_scorer *s, const struct idle_period *p)
{
	struct cpu_score *sc = &s->score;
	int best = settle(s, p, p->wake_ns);

	sc->states[p->state].idle_ns += p->wake_ns - p->entry_ns;
	sc->exit_ns += p->exit_latency_ns;
	sc->states[best].opt_idle_ns += p->wake_ns - p->entry_ns;
	sc->opt_exit_ns += s->cost_ns[best];
}

/*
 * A period that opens or continues a stretch of several.  Never inlined:
 * it is the rare case, and kept apart the common one needs fewer registers.
 */
static G_GNUC_NO_INLINE void add_to_stretch(struct idle_scorer *s,
					    const struct idle_period *p, bool ends_stretch)
{
	if (!s->stretch_open) {
		s->stretch_open = true;
		s->stretch_start_ns = p->entry_ns;
	}
	s->stretch_idle_ns[p->state] += p->wake_ns - p->entry_ns;
	s->stretch_exit_ns += p->exit_latency_ns;
	g_array_append_val(s->unsettled, *p);
	if (ends_stretch)
		close_stretch(s, p->wake_ns);
	else
		settle_early(s, p->wake_ns);
}

void idle_scorer_add(struct idle_scorer *s, const struct idle_period *p)
{
	bool ends_stretch = p->cause == WAKE_TIMER || p->cause == WAKE_EVENT;

	if (!s->score.kernel_above_below)
		count_above_below(s, p);
	count_wakeup(s, p);
	if (s->stretch_open || !ends_stretch)
		add_to_stretch(s, p, ends_stretch);
	else
		score_lone_period(s, p);
}

void idle_scorer_finish(struct idle_scorer *s, const struct sim_cpu *c,
			struct cpu_score *out)
{
	*out = s->score;
	out->timer_wakeups = s->wakeups[WAKE_TIMER];
	out->event_wakeups = s->wakeups[WAKE_EVENT];
	out->tick_wakeups = s->wakeups[WAKE_TICK];
	out->poll_limits = s->wakeups[WAKE_POLL_LIMIT];
	for (unsigned int i = 0; i < s->state_count; i++)
		out->scored += out->states[i].optimal;
	out->too_shallow = out->scored - out->agree - out->too_deep;
	out->unscored = s->unsettled->len;
	out->busy_ns = c->busy_ns;
	for (unsigned int i = 0; i < s->state_count; i++) {
		struct state_score *st = &out->states[i];
		struct kshim_usage u;

		kshim_machine_usage(c->machine, 0, (int)i, &u);
		st->usage = u.usage;
		st->time_ns = u.time_ns;
		st->above = out->kernel_above_below ? u.above : s->sim_above[i];
		st->below = out->kernel_above_below ? u.below : s->sim_below[i];
	}
}

void cpu_score_add(struct cpu_score *sum, const struct cpu_score *s)
{
	sum->state_count = s->state_count;
	sum->kernel_above_below = s->kernel_above_below;
	sum->scored += s->scored;
	sum->unscored += s->unscored;
	sum->busy_ns += s->busy_ns;
	sum->exit_ns += s->exit_ns;
	sum->opt_exit_ns += s->opt_exit_ns;
	sum->agree += s->agree;
	sum->too_deep += s->too_deep;
	sum->too_shallow += s->too_shallow;
	sum->timer_wakeups += s->timer_wakeups;
	sum->event_wakeups += s->event_wakeups;
	sum->tick_wakeups += s->tick_wakeups;
	sum->poll_limits += s->poll_limits;
	sum->needless_stops += s->needless_stops;
	sum->missed_stops += s->missed_stops;
	for (unsigned int i = 0; i < KSHIM_STATE_MAX; i++) {
		struct state_score *d = &sum->states[i];
		const struct state_score *x = &s->states[i];

		d->usage += x->usage;
		d->time_ns += x->time_ns;
		d->above += x->above;
		d->below += x->below;
		d->idle_ns += x->idle_ns;
		d->optimal += x->optimal;
		d->event_wakeups += x->event_wakeups;
		d->opt_idle_ns += x->opt_idle_ns;
	}
}

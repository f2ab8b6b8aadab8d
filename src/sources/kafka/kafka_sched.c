/*
 * kafka_sched.c: which groups a refresh asks about (see kafka_sched.h).
 *
 * A plan walks the groups by priority, spending a token bucket of requests;
 * the rotation sorts what is left by the age of its data.  Everything is a
 * function of the groups handed in and the time given: no clock, no I/O.
 */
#include "config.h"

#include "sources/kafka/kafka_sched.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PRIO_SUSPECT 3
#define PRIO_ROTATION 5
#define RISK_SHARE 0.85 /* of the budget the plan may count on (see plan_risk) */

/* Start a scheduler. */
void
kafka_sched_init(ksched *s, const ksched_config *cfg)
{
	memset(s, 0, sizeof *s);
	s->cfg = *cfg;
	s->tokens = s->cfg.max_requests;
}

/* Paced (a screen) or as fast as the budget allows. */
void
kafka_sched_paced(ksched *s, bool paced)
{
	s->paced = paced;
}

/* A new handle's cache is empty: what was asked before is as far back as the cache reaches. */
void
kafka_sched_coords_forgotten(ksched *s)
{
	s->asked += (uint64_t)(s->cfg.coord_cache > 0 ? s->cfg.coord_cache : 0);
}

/* True when a description can tell more than the listing. */
bool
kafka_sched_needs_describe(const ksched_group *g)
{
	if ((g->flags & KSCHED_WATCHED) || g->undescribable)
		return false;
	if (g->listed == KG_STATE_EMPTY)
		return g->described != KG_STATE_EMPTY && g->described != KG_STATE_UNKNOWN;
	return true;
}

/* Members and lag: a consumer that can stall. */
bool
kafka_sched_at_risk(const ksched_group *g)
{
	return (g->flags & (KSCHED_MEMBERS | KSCHED_LAG)) == (KSCHED_MEMBERS | KSCHED_LAG);
}

/*
 * A freeze under way for cfg.settle_us: its verdict is known, asking it
 * every refresh tells nothing new to a screen (without one, --json, every
 * line stays as fresh as the budget allows).
 */
bool
kafka_sched_settled(const ksched *s, const ksched_group *g, int64_t now_us)
{
	return s->paced && s->cfg.settle_us > 0 && kafka_sched_at_risk(g) && g->still_us > 0 &&
	       now_us - g->still_us >= s->cfg.settle_us + 2 * g->gap_us;
}

/* Describe this group if it is asked about at all. */
static bool
wants_describe(const ksched_group *g)
{
	if ((g->flags & KSCHED_WATCHED) || g->undescribable)
		return false;
	return kafka_sched_needs_describe(g) || (g->flags & KSCHED_SELECTED);
}

/* The groups of a plan: as many as in the one before when this one has not taken more yet; the first, all of them. */
static int
plan_size(const ksched *s)
{
	if (s->last_asked < 0)
		return s->ngroups;
	return s->plan_asked > s->last_asked ? s->plan_asked : s->last_asked;
}

/* The listed state moved away from the last description, or a rebalance is under way. */
static bool
changed(const ksched_group *g)
{
	if (g->listed != KG_STATE_UNKNOWN && g->described != KG_STATE_UNKNOWN && g->listed != g->described)
		return true;
	if (state_rebalancing(g->listed))
		return true;
	return g->listed == KG_STATE_UNKNOWN && state_rebalancing(g->described);
}

/*
 * A group at risk off screen whose description is younger than
 * KSCHED_QUIET_US and whose listed state is the one it was described in
 * (not rebalancing): its committed offsets alone tell a freeze (one
 * OffsetFetch, not two requests), and the progress rules judge them by
 * their own time (kg_group.offs_time_us).  A change of its members shows
 * in the listing (changed: described at once, priority 1); else it is
 * described once its description is KSCHED_QUIET_US old.  A screen's
 * groups (selected, shown, watched, spoken of) are described as before,
 * and every group while the budget covers the groups at risk described
 * (not s->lean: a small cluster's data stays as fresh as before).
 */
static bool
offsets_alone(const ksched *s, const ksched_group *g, int64_t now_us)
{
	return s->lean && kafka_sched_at_risk(g) && !(g->flags & KSCHED_SCREEN_FLAGS) && g->desc_us > 0 &&
	       now_us - g->desc_us < KSCHED_QUIET_US && g->listed != KG_STATE_UNKNOWN && g->listed == g->described &&
	       !changed(g);
}

/*
 * A settled freeze (kafka_sched_settled), not selected, watched or just
 * spoken of by a trace, whose description is younger than
 * KSCHED_SETTLED_DESC_US and whose listed state is the one it was
 * described in: its committed offsets alone each KSCHED_QUIET_US (its
 * recovery shows there), its description each KSCHED_SETTLED_DESC_US.  A
 * description of it tells its members, which only a rebalance changes and
 * the listing shows (changed: described at once), or a static member's
 * restart, which changes no state: seen within KSCHED_SETTLED_DESC_US.
 */
static bool
settled_alone(const ksched *s, const ksched_group *g, int64_t now_us)
{
	return kafka_sched_settled(s, g, now_us) && !(g->flags & (KSCHED_SELECTED | KSCHED_WATCHED | KSCHED_HOT)) &&
	       g->desc_us > 0 && now_us - g->desc_us < KSCHED_SETTLED_DESC_US && g->listed != KG_STATE_UNKNOWN &&
	       g->listed == g->described && !changed(g);
}

/* Describe g if it is asked about at now_us (with `everything`, whenever it wants it). */
static bool
describe_now(const ksched *s, const ksched_group *g, int64_t now_us)
{
	return wants_describe(g) && (s->cfg.everything || !(offsets_alone(s, g, now_us) || settled_alone(s, g, now_us)));
}

/*
 * True when librdkafka still keeps g's coordinator: fewer other groups
 * were asked since g than it keeps (cfg.coord_cache, least recently asked
 * going first).  The plans' order is not the order the requests go out
 * in, so a plan's worth is added: never counted kept when it may not be.
 */
static bool
coord_kept(const ksched *s, const ksched_group *g)
{
	return s->cfg.coord_cache > 0 && g->asked_seq > 0 &&
	       s->asked - g->asked_seq + (uint64_t)plan_size(s) < (uint64_t)s->cfg.coord_cache;
}

/*
 * Requests asking about g at now_us costs: an OffsetFetch, a description's
 * one or two requests (KSCHED_COST_DESCRIBE_TWICE) when it gets one
 * (describe_now), and a
 * FindCoordinator before each unless librdkafka keeps the coordinator:
 * from the last refresh (coord_kept), or from the group's first request
 * in this one when the cache holds twice a plan (descriptions go out
 * first, then offsets).  Without a cache: KSCHED_COST_* as they are.
 */
static int
cost_of(const ksched *s, const ksched_group *g, bool describe)
{
	int dc = g->describe_cost > 0 ? g->describe_cost : KSCHED_COST_DESCRIBE;
	int lookups = 1 + (describe ? dc / 2 : 0), sent = lookups;
	if (coord_kept(s, g))
		sent = 0;
	else if (s->cfg.coord_cache > 2 * plan_size(s))
		sent = 1;
	return lookups + sent;
}

/* What asking about g at now_us costs (cost_of, with its description when it gets one). */
static int
cost(const ksched *s, const ksched_group *g, int64_t now_us)
{
	return cost_of(s, g, describe_now(s, g, now_us));
}

/* The time of a group's oldest data it needs (0: never asked); a settled freeze's description counts at its own pace. */
static int64_t
age_key(const ksched *s, const ksched_group *g, int64_t now_us)
{
	if (kafka_sched_needs_describe(g) && g->desc_us < g->offs_us && !settled_alone(s, g, now_us))
		return g->desc_us;
	return g->offs_us;
}

/* Its data is KSCHED_QUIET_US old (or it was never asked). */
static bool
quiet_due(const ksched *s, const ksched_group *g, int64_t now_us)
{
	int64_t key = age_key(s, g, now_us);
	return key == 0 || now_us - key >= KSCHED_QUIET_US;
}

/* At risk and not settled: it can change between two refreshes in a way that matters (a freeze beginning, or ending). */
static bool
moving(const ksched *s, const ksched_group *g, int64_t now_us)
{
	return kafka_sched_at_risk(g) && !kafka_sched_settled(s, g, now_us);
}

/* Worth asking now if it could be: moving, or its data KSCHED_QUIET_US old (a settled freeze, a quiet group). */
static bool
due(const ksched *s, const ksched_group *g, int64_t now_us)
{
	return moving(s, g, now_us) || quiet_due(s, g, now_us);
}

/* KSCHED_QUIET_US for a group a screen needs only at that pace (a settled freeze's description: KSCHED_SETTLED_DESC_US), else 0 (every refresh). */
int64_t
kafka_sched_pace(const ksched *s, const ksched_group *g, int64_t now_us)
{
	if (!s->paced || (g->flags & (KSCHED_SELECTED | KSCHED_WATCHED)) || moving(s, g, now_us))
		return 0;
	/* a settled freeze's description (what a row's age reads): settled_alone */
	if (kafka_sched_settled(s, g, now_us) && !(g->flags & KSCHED_HOT))
		return KSCHED_SETTLED_DESC_US;
	return KSCHED_QUIET_US;
}

/* 0 (always) to PRIO_ROTATION (when its turn comes). */
static int
priority(const ksched *s, const ksched_group *g, int64_t now_us)
{
	if (g->flags & (KSCHED_SELECTED | KSCHED_WATCHED))
		return 0;
	if (changed(g))
		return 1;
	if (g->flags & KSCHED_HOT)
		return 2;
	if (moving(s, g, now_us) && (g->flags & KSCHED_STILL))
		return PRIO_SUSPECT;
	if ((g->flags & KSCHED_FOCUS) && due(s, g, now_us))
		return 4;
	return PRIO_ROTATION;
}

/* Ask about g in this refresh at now_us (its description too when it gets one), spending its cost. */
static void
take(ksched *s, ksched_plan *p, ksched_group *g, int64_t now_us)
{
	int c = cost(s, g, now_us);
	g->offsets = true;
	g->describe = describe_now(s, g, now_us);
	if (!g->describe && wants_describe(g))
		s->spared += cost_of(s, g, true) - c; /* its offsets alone (offsets_alone) */
	p->offsets++;
	p->describe += g->describe;
	p->requests += c;
	p->risk += kafka_sched_at_risk(g);
	s->tokens -= c;
	s->asked++;
	s->plan_asked++;
	g->asked_seq = s->asked;
}

/* A group in the rotation's order: its index and its age_key, computed once a plan (nothing a plan does moves it). */
typedef struct rot_item {
	size_t i;
	int64_t key;
	int32_t id;
} rot_item;

/* Rotation order: oldest data first, then by id. */
static int
rotation_cmp(const void *a, const void *b)
{
	const rot_item *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The rotation: the oldest first, just fast enough that each group is asked
 * again within --full-refresh of its last answer (a cycle one refresh
 * shorter), faster for the groups already that old, within the budget;
 * groups at risk only when overdue (their pace is plan_risk's).
 * Without a screen, when the budget covers every group, all of them.
 */
static void
plan_rotation(ksched *s, ksched_group *g, size_t n, int64_t now_us, int64_t dt_us, ksched_plan *p)
{
	rot_item *idx = xmalloc((n ? n : 1) * sizeof *idx);
	size_t nidx = 0, i;
	double total = 0, quota, need, cum;
	int64_t period = s->cfg.full_refresh_us - dt_us > dt_us ? s->cfg.full_refresh_us - dt_us : s->cfg.full_refresh_us;
	bool all;
	for (i = 0; i < n; i++) {
		int64_t key;
		if (g[i].offsets)
			continue;
		key = age_key(s, &g[i], now_us);
		/* a group at risk has a pace of its own (plan_risk): here only when the budget left it overdue */
		if (kafka_sched_at_risk(&g[i]) && key > 0 && now_us - key < period)
			continue;
		idx[nidx++] = (rot_item){ i, key, g[i].id };
		total += cost(s, &g[i], now_us);
	}
	qsort(idx, nidx, sizeof *idx, rotation_cmp);
	all = !s->paced && total <= s->tokens;
	/*
	 * The pace: the cycle's average, or faster when the groups coming due
	 * soon need it (the least constant pace that asks each group before it
	 * is overdue, earliest deadline first): groups asked together (all of
	 * them at start-up) come due together, and taken in one refresh past
	 * their turn they would leave nothing to the groups at risk, cycle
	 * after cycle.  So they are spread ahead of their turn.
	 */
	need = total * (double)dt_us / (double)period;
	for (i = 0, cum = 0; i < nidx && dt_us > 0; i++) {
		int64_t key = idx[i].key, left = key > 0 ? key + period - now_us : 0;
		cum += cost(s, &g[idx[i].i], now_us);
		if (left > dt_us && cum * (double)dt_us / (double)left > need)
			need = cum * (double)dt_us / (double)left;
	}
	quota = s->carry + need;
	for (i = 0; i < nidx; i++) {
		ksched_group *x = &g[idx[i].i];
		int64_t key = idx[i].key;
		bool overdue = key == 0 || now_us - key >= period;
		int c = cost(s, x, now_us);
		if (!all && !overdue && quota < c)
			break;
		if (s->tokens < c)
			break;
		take(s, p, x, now_us);
		quota -= c;
	}
	for (; i < nidx; i++) {
		int64_t key = idx[i].key;
		if (key > 0 && (p->oldest_us == 0 || key < p->oldest_us))
			p->oldest_us = key;
	}
	s->carry = quota < 0 ? 0 : quota > total ? total : quota;
	free(idx);
}

/* Offsets' age, then id: the risky group asked longest ago first. */
static int
risk_cmp(const void *a, const void *b, void *arg)
{
	const ksched_group *g = arg;
	const ksched_group *x = &g[*(const size_t *)a], *y = &g[*(const size_t *)b];
	if (x->offs_us != y->offs_us)
		return x->offs_us < y->offs_us ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The groups at risk the plan left, the oldest offsets first, each at most
 * once a refresh, with what the budget has left within RISK_SHARE of it
 * over the time since the last plan (what the plan does not count, the
 * time-lag reads' fetches, about 7 % at 10,000 groups, stays within the
 * budget: bench-attention sends 1,460-1,490 a second of 1,500 at 0.9).  Off screen,
 * its offsets alone while its description is recent (offsets_alone): the
 * STALLED rule judges the offsets by their own time.  A settled group is
 * one of them only once its data is KSCHED_QUIET_US old.
 */
static void
plan_risk(ksched *s, ksched_group *g, size_t n, int64_t now_us, int64_t dt_us, int fixed_cost, ksched_plan *p)
{
	size_t *idx = xmalloc((n ? n : 1) * sizeof *idx), nidx = 0, i;
	double room = RISK_SHARE * s->cfg.max_requests * (double)dt_us / 1e6 - fixed_cost - p->requests;
	for (i = 0; i < n; i++) {
		/* a settled freeze: once its data is KSCHED_QUIET_US old */
		if (!g[i].offsets && kafka_sched_at_risk(&g[i]) && !(g[i].flags & KSCHED_WATCHED) &&
		    due(s, &g[i], now_us))
			idx[nidx++] = i;
	}
	qsort_r(idx, nidx, sizeof *idx, risk_cmp, g);
	for (i = 0; i < nidx; i++) {
		ksched_group *x = &g[idx[i]];
		int c = cost(s, x, now_us);
		if (s->tokens < c || room < c)
			break;
		take(s, p, x, now_us);
		room -= c;
	}
	p->risk_left = (int)(nidx - i);
	/* short of them: their offsets alone from the next plan on; until a plan leaves room for what that spared */
	if (p->risk_left > 0)
		s->lean = true;
	else if (s->lean && (room < s->tokens ? room : s->tokens) >= s->spared)
		s->lean = false;
	free(idx);
}

/* Plan one refresh. */
ksched_plan
kafka_sched_plan(ksched *s, ksched_group *g, size_t n, int64_t now_us, int fixed_cost)
{
	ksched_plan p;
	int64_t dt = s->last_us > 0 && now_us > s->last_us ? now_us - s->last_us : 0;
	size_t i;
	int prio;
	memset(&p, 0, sizeof p);
	for (i = 0; i < n; i++)
		g[i].describe = g[i].offsets = false;
	s->last_us = now_us;
	s->last_asked = s->plans++ > 0 ? s->plan_asked : -1;
	s->plan_asked = 0;
	s->ngroups = (int)n;
	s->spared = 0;
	if (s->cfg.everything) {
		for (i = 0; i < n; i++)
			take(s, &p, &g[i], now_us);
		return p;
	}
	s->tokens += s->cfg.max_requests * (double)dt / 1e6;
	if (s->tokens > 2 * s->cfg.max_requests)
		s->tokens = 2 * s->cfg.max_requests;
	s->tokens -= fixed_cost;
	for (prio = 0; prio < PRIO_ROTATION; prio++) {
		for (i = 0; i < n; i++) {
			if (priority(s, &g[i], now_us) != prio || (prio > 0 && s->tokens < cost(s, &g[i], now_us)))
				continue;
			take(s, &p, &g[i], now_us);
		}
	}
	plan_rotation(s, g, n, now_us, dt, &p);
	plan_risk(s, g, n, now_us, dt, fixed_cost, &p);
	return p;
}

/*
 * test_kafka_sched.c: the kafka source's scheduler (which groups a refresh
 * asks about): priorities, the Empty rule, the request budget, the paced
 * rotation of a dashboard and the greedy one of --json, every group within
 * --full-refresh, and --once asking everything; and the focus channel that
 * feeds it (collector_set_focus() and the groups observations spoke of, to
 * the sources' focus op); and the table's test for coordinators that moved
 * (which makes the source renew its client handle).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/collector.h"
#include "model/intern.h"
#include "sources/kafka/kafka_sched.h"
#include "sources/kafka/kafka_table.h"
#include "util/util.h"

#define SEC 1000000LL

/* n groups listed in state st, described so at t0 (0: never asked). */
static ksched_group *
groups(size_t n, kg_group_state st, int64_t t0)
{
	ksched_group *g = xcalloc(n, sizeof *g);
	size_t i;
	for (i = 0; i < n; i++) {
		g[i].id = (int32_t)i;
		g[i].listed = st;
		g[i].described = t0 > 0 ? st : KG_STATE_UNKNOWN;
		g[i].desc_us = g[i].offs_us = t0;
	}
	return g;
}

/* What the source does with a plan: the asked groups' data is now. */
static void
apply(ksched_group *g, size_t n, int64_t now)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (g[i].describe) {
			g[i].desc_us = now;
			if (g[i].listed != KG_STATE_UNKNOWN)
				g[i].described = g[i].listed;
		}
		if (g[i].offsets)
			g[i].offs_us = now;
	}
}

/* A scheduler. */
static ksched
sched(double max_requests, int64_t full_us, bool paced)
{
	ksched s;
	ksched_config c = { .full_refresh_us = full_us, .max_requests = max_requests };
	kafka_sched_init(&s, &c);
	kafka_sched_paced(&s, paced);
	return s;
}

/* --once: everything, whatever the budget; Empty groups only listed unless selected. */
static void
test_everything(void **state)
{
	ksched_config c = { .full_refresh_us = 30 * SEC, .max_requests = 1, .everything = true };
	ksched s;
	ksched_group *g = groups(10, KG_STATE_STABLE, 0);
	ksched_plan p;
	(void)state;
	kafka_sched_init(&s, &c);
	g[3].listed = KG_STATE_EMPTY;
	g[4].listed = KG_STATE_EMPTY;
	g[4].flags = KSCHED_SELECTED;
	p = kafka_sched_plan(&s, g, 10, 5 * SEC, 10);
	assert_int_equal(p.offsets, 10);
	assert_int_equal(p.describe, 9);
	assert_false(g[3].describe);
	assert_true(g[3].offsets);
	assert_true(g[4].describe);
	assert_int_equal(p.requests, 10 * KSCHED_COST_OFFSETS + 9 * KSCHED_COST_DESCRIBE);
	free(g);
}

/* The Empty rule: never described while Empty, described once when it becomes Empty. */
static void
test_empty_rule(void **state)
{
	ksched_group g = { .listed = KG_STATE_EMPTY, .described = KG_STATE_UNKNOWN };
	(void)state;
	assert_false(kafka_sched_needs_describe(&g));
	g.described = KG_STATE_EMPTY;
	assert_false(kafka_sched_needs_describe(&g));
	g.described = KG_STATE_STABLE;
	assert_true(kafka_sched_needs_describe(&g));
	g.listed = KG_STATE_STABLE;
	g.described = KG_STATE_EMPTY;
	assert_true(kafka_sched_needs_describe(&g));
	g.flags = KSCHED_WATCHED;
	assert_false(kafka_sched_needs_describe(&g));
}

/* The selected group always goes, even without budget; the others wait for it. */
static void
test_selected_in_debt(void **state)
{
	ksched s = sched(10, 30 * SEC, true);
	ksched_group *g = groups(100, KG_STATE_STABLE, 1 * SEC);
	ksched_plan p;
	(void)state;
	g[50].flags = KSCHED_SELECTED;
	g[51].flags = KSCHED_FOCUS;
	p = kafka_sched_plan(&s, g, 100, 2 * SEC, 50); /* the fixed cost alone is over the budget */
	assert_true(g[50].describe && g[50].offsets);
	assert_false(g[51].offsets);
	assert_int_equal(p.offsets, 1);
	free(g);
}

/* Priorities under a tight budget: changed and rebalancing, then traced, then on screen. */
static void
test_priorities(void **state)
{
	ksched s = sched(10, 30 * SEC, true); /* ten requests: two groups and a half */
	ksched_group *g = groups(20, KG_STATE_STABLE, 1 * SEC);
	(void)state;
	g[2].flags = KSCHED_FOCUS | KSCHED_MEMBERS | KSCHED_LAG; /* on screen, and it can change */
	g[3].flags = KSCHED_HOT;
	g[4].listed = KG_STATE_PREPARING_REBALANCE;
	g[5].listed = KG_STATE_COMPLETING_REBALANCE;
	g[5].described = KG_STATE_PREPARING_REBALANCE;
	kafka_sched_plan(&s, g, 20, 1 * SEC, 0);
	assert_true(g[4].describe && g[5].describe);
	assert_false(g[3].offsets);
	assert_false(g[2].offsets);
	/* a second later: ten more requests, the traced group's turn */
	apply(g, 20, 2 * SEC);
	g[4].listed = g[4].described = KG_STATE_STABLE;
	g[5].listed = g[5].described = KG_STATE_STABLE;
	kafka_sched_plan(&s, g, 20, 2 * SEC, 0);
	assert_true(g[3].offsets);
	assert_true(g[2].offsets);
	assert_false(g[4].offsets);
	free(g);
}

/* A listed state that differs from the description: described now; Empty to Empty: never. */
static void
test_state_change(void **state)
{
	ksched s = sched(1000, 30 * SEC, true);
	ksched_group *g = groups(4, KG_STATE_STABLE, 1 * SEC);
	(void)state;
	g[0].listed = KG_STATE_EMPTY;        /* everybody left */
	g[1].listed = KG_STATE_EMPTY;        /* still Empty */
	g[1].described = KG_STATE_EMPTY;
	g[2].listed = KG_STATE_UNKNOWN;      /* an older broker: the listing says nothing */
	g[2].described = KG_STATE_PREPARING_REBALANCE;
	kafka_sched_plan(&s, g, 4, 2 * SEC, 0);
	assert_true(g[0].describe);
	assert_false(g[1].describe);
	assert_true(g[2].describe);
	assert_false(g[3].offsets); /* Stable and fresh: its turn comes */
	apply(g, 4, 2 * SEC);
	kafka_sched_plan(&s, g, 4, 3 * SEC, 0);
	assert_false(g[0].describe); /* Empty now, and described so */
	free(g);
}

/* Run a scheduler over groups for secs seconds, a refresh every step; the most requests in one refresh. */
static int
simulate(ksched *s, ksched_group *g, size_t n, int64_t from, int secs, int64_t step, int64_t *max_age, long *total)
{
	int64_t now;
	int most = 0;
	size_t i;
	*total = 0;
	*max_age = 0;
	for (now = from; now < from + secs * SEC; now += step) {
		ksched_plan p = kafka_sched_plan(s, g, n, now, 0);
		apply(g, n, now);
		*total += p.requests;
		most = p.requests > most ? p.requests : most;
		for (i = 0; now > from + 35 * SEC && i < n; i++) {
			int64_t age = now - (g[i].offs_us < g[i].desc_us || !kafka_sched_needs_describe(&g[i]) ? g[i].offs_us
														 : g[i].desc_us);
			*max_age = age > *max_age ? age : *max_age;
		}
	}
	return most;
}

/*
 * A dashboard over 100 idle groups, 10 on screen: the 5 with members and lag
 * each second, the 5 quiet ones (no lag: nothing to commit until their log
 * end moves) once their data is KSCHED_QUIET_US old, the others at the pace
 * of --full-refresh.
 */
static void
test_paced_idle(void **state)
{
	ksched s = sched(1000, 30 * SEC, true);
	ksched_group *g = groups(100, KG_STATE_STABLE, 0);
	int64_t max_age, now;
	long total;
	size_t i;
	int most, quiet = 0;
	(void)state;
	for (i = 0; i < 5; i++)
		g[i].flags = KSCHED_FOCUS | KSCHED_MEMBERS | KSCHED_LAG;
	for (i = 5; i < 10; i++)
		g[i].flags = KSCHED_FOCUS | KSCHED_MEMBERS;
	for (i = 50; i < 100; i++)
		g[i].listed = KG_STATE_EMPTY;
	/* the first refresh asks everything it never asked, within the budget */
	kafka_sched_plan(&s, g, 100, 1 * SEC, 0);
	for (i = 0; i < 100; i++)
		assert_true(g[i].offsets);
	apply(g, 100, 1 * SEC);
	most = simulate(&s, g, 100, 2 * SEC, 120, SEC, &max_age, &total);
	/* on screen: 5 x 4 = 20 a second and 5 x 4 / 10 s = 2; the rest: (40 x 4 + 50 x 2) / 30 s, about 9 a second */
	assert_true(total / 120 <= 22 + 12);
	assert_true(total / 120 >= 22 + 6);
	assert_true(most <= 40 + 20);
	assert_true(max_age <= 31 * SEC);
	for (now = 122 * SEC; now < 152 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 100, now, 0);
		for (i = 0; i < 5; i++)
			assert_true(g[i].offsets);
		for (i = 5; i < 10; i++) {
			quiet += g[i].offsets;
			assert_true(g[i].offsets || now - g[i].offs_us < KSCHED_QUIET_US);
		}
		apply(g, 100, now);
	}
	assert_true(quiet >= 5 * 3 && quiet <= 5 * 3 + 5); /* every 10 s in 30 s, the rotation's turn not on top */
	free(g);
}

/*
 * --json over 10,000 groups at -i 1 (half Empty): every group asked again
 * within 30 s, at about the pace that needs (30,000 requests a cycle, about
 * 1,000 a second), well within 1,500 a second.
 */
static void
test_json_10k(void **state)
{
	ksched s = sched(1500, 30 * SEC, false);
	ksched_group *g = groups(10000, KG_STATE_STABLE, 0);
	int64_t max_age;
	long total;
	size_t i;
	int most;
	(void)state;
	for (i = 5000; i < 10000; i++)
		g[i].listed = KG_STATE_EMPTY;
	most = simulate(&s, g, 10000, 1 * SEC, 120, SEC, &max_age, &total);
	assert_true(most <= 2 * 1500);          /* at most two seconds saved */
	/* the first fill as fast as the budget allows (30,000 in 20 s), then the pace, not the whole budget */
	assert_true(total <= 30000L + 1100L * 100);
	assert_true(total >= 30000L + 950L * 95);
	assert_true(max_age <= 30 * SEC);
	free(g);
}

/* --json over a few groups: the budget covers them all, so every line is fresh. */
static void
test_json_small(void **state)
{
	ksched s = sched(1500, 30 * SEC, false);
	ksched_group *g = groups(40, KG_STATE_STABLE, 0);
	int64_t max_age;
	long total;
	(void)state;
	simulate(&s, g, 40, 1 * SEC, 60, SEC, &max_age, &total);
	assert_true(max_age == 0);              /* asked in every refresh */
	assert_int_equal(total, 40L * 4 * 60);
	free(g);
}

/* The budget below what --full-refresh needs: the data gets older, the requests stay within it. */
static void
test_budget_wins(void **state)
{
	ksched s = sched(100, 30 * SEC, true);
	ksched_group *g = groups(3000, KG_STATE_STABLE, 0);
	int64_t max_age;
	long total;
	(void)state;
	simulate(&s, g, 3000, 1 * SEC, 200, SEC, &max_age, &total);
	assert_true(total <= 100L * 201 + 4);
	assert_true(max_age > 30 * SEC); /* 12,000 requests a cycle at 100 a second: 120 s */
	assert_true(max_age <= 125 * SEC);
	free(g);
}

/* A refresh slower than the interval (every 3.5 s): the pace follows the time, not the count of refreshes. */
static void
test_slow_refreshes(void **state)
{
	ksched s = sched(1000, 30 * SEC, true);
	ksched_group *g = groups(2000, KG_STATE_STABLE, 0);
	int64_t max_age;
	long total;
	(void)state;
	simulate(&s, g, 2000, 1 * SEC, 200, 3500000, &max_age, &total);
	assert_true(max_age <= 34 * SEC);
	assert_true(total <= 1000L * 201);
	free(g);
}

/* A source that speaks of a group once (an observation), and remembers what the collector told it. */
typedef struct fake {
	bool spoke;
	kg_focus got;
	int32_t shown[8], hot[8];
	int calls;
} fake;

/* poll: news until it spoke. */
static int
fake_poll(kg_source *s, int64_t now)
{
	fake *f = s->impl;
	(void)now;
	return f->spoke ? 0 : KG_SRC_NEWS;
}

/* drain: one observation of g-hot. */
static void
fake_drain(kg_source *s, kg_obsq *q)
{
	fake *f = s->impl;
	if (!f->spoke)
		obsq_push(q, obs_new(KG_OBS_HEARTBEAT, util_now_us(), intern_group("g-hot"), "fake"));
	f->spoke = true;
}

/* focus: keep a copy. */
static void
fake_focus(kg_source *s, const kg_focus *x)
{
	fake *f = s->impl;
	f->got = *x;
	f->got.nshown = x->nshown < 8 ? x->nshown : 8;
	f->got.nhot = x->nhot < 8 ? x->nhot : 8;
	memcpy(f->shown, x->shown, f->got.nshown * sizeof *f->shown);
	memcpy(f->hot, x->hot, f->got.nhot * sizeof *f->hot);
	f->calls++;
}

/* close: nothing owned. */
static void
fake_close(kg_source *s)
{
	(void)s;
}

static const kg_source_ops fake_ops = {
	.kind = "fake", .poll = fake_poll, .drain = fake_drain, .focus = fake_focus, .close = fake_close,
};

/* The collector tells sources the groups on screen, the selected one, and those observations spoke of. */
static void
test_focus_channel(void **state)
{
	fake f;
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_collector_config cc = { 1000000, 0, NULL };
	kg_collector *c;
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	int32_t shown[2] = { intern_group("g-a"), intern_group("g-b") };
	int i;
	(void)state;
	memset(&f, 0, sizeof f);
	collector_add_source(c, source_new(&fake_ops, "fake", &f), NULL, 0);
	for (i = 0; i < 3; i++)
		collector_step(c, 0);
	assert_int_equal(f.calls, 1); /* the observation's group, told once */
	assert_int_equal(f.got.nhot, 1);
	assert_int_equal(f.hot[0], intern_group("g-hot"));
	assert_false(f.got.screen);
	collector_set_focus(c, shown, 2, shown[1]);
	collector_step(c, 0);
	assert_int_equal(f.calls, 2);
	assert_true(f.got.screen);
	assert_int_equal(f.got.nshown, 2);
	assert_int_equal(f.shown[0], shown[0]);
	assert_int_equal(f.got.selected, shown[1]);
	assert_int_equal(f.got.nhot, 0);
	collector_step(c, 0);
	assert_int_equal(f.calls, 2); /* nothing new: not told again */
	collector_free(c);
	tracker_free(t);
}

/* A table entry for group name, described with coordinator coord (-2: never described). */
static void
table_group(ktable *t, const char *name, int32_t coord)
{
	kentry *e = kafka_table_add(t, intern_group(name));
	if (coord == -2)
		return;
	e->desc = xcalloc(1, sizeof *e->desc);
	e->desc->refs = 1;
	e->desc->coordinator = coord;
}

/*
 * The groups whose described coordinator is not the metadata's leader of
 * their __consumer_offsets partition: a broker that died leaves its
 * partitions to others (the leaders given here), a partition without a
 * leader says nothing, an undescribed group nothing either.
 */
static void
test_coordinators_moved(void **state)
{
	enum { NP = 50 };
	int32_t leader[NP], first;
	int p;
	ktable t = { 0 };
	(void)state;
	for (p = 0; p < NP; p++)
		leader[p] = 1 + p % 3;
	table_group(&t, "g-stay", leader[group_offsets_partition("g-stay", NP)]);
	table_group(&t, "g-new", -2);
	table_group(&t, "g-unknown", -1);
	assert_int_equal(kafka_table_coordinators_moved(&t, leader, NP, &first), 0);
	assert_int_equal(first, -1);
	assert_int_equal(kafka_table_coordinators_moved(&t, NULL, 0, &first), 0); /* no __consumer_offsets in the metadata */
	/* g-move's coordinator died: the metadata names another leader of its partition */
	p = group_offsets_partition("g-move", NP);
	table_group(&t, "g-move", leader[p] % 3 + 1);
	assert_int_equal(kafka_table_coordinators_moved(&t, leader, NP, &first), 1);
	assert_int_equal(first, intern_group("g-move"));
	/* before the controller moved it: no leader at all, nothing to follow yet */
	leader[p] = -1;
	assert_int_equal(kafka_table_coordinators_moved(&t, leader, NP, &first), 0);
	/* a partition count that differs maps the groups elsewhere: still the leader of each one's own partition */
	for (p = 0; p < NP; p++)
		leader[p] = 7;
	assert_int_equal(kafka_table_coordinators_moved(&t, leader, 10, &first), 2); /* g-stay and g-move, not 7 */
	kafka_table_free(&t);
}

/* The longest a group matching flags went without its offsets asked, over secs seconds from `from`, and requests. */
static int64_t
risk_gap(ksched *s, ksched_group *g, size_t n, int64_t from, int secs, unsigned flags, long *total, int *most)
{
	int64_t now, gap = 0;
	size_t i;
	*total = 0;
	*most = 0;
	for (now = from; now < from + secs * SEC; now += SEC) {
		ksched_plan p = kafka_sched_plan(s, g, n, now, 0);
		for (i = 0; i < n; i++) {
			if ((g[i].flags & flags) == flags && g[i].offsets && g[i].offs_us > 0 && now - g[i].offs_us > gap &&
			    now > from + 35 * SEC)
				gap = now - g[i].offs_us;
		}
		apply(g, n, now);
		*total += p.requests;
		*most = p.requests > *most ? p.requests : *most;
	}
	return gap;
}

/*
 * A dashboard over 100 groups, 10 on screen: the 40 others with members and
 * lag are asked every refresh (the budget covers them), those at zero lag
 * and the Empty ones at the pace of --full-refresh.
 */
static void
test_risk_every_refresh(void **state)
{
	ksched s = sched(1000, 30 * SEC, true);
	ksched_group *g = groups(100, KG_STATE_STABLE, 0);
	int64_t max_age, now;
	long total;
	size_t i;
	int asked_calm = 0;
	(void)state;
	for (i = 0; i < 10; i++)
		g[i].flags = KSCHED_FOCUS | KSCHED_MEMBERS | KSCHED_LAG;
	for (i = 10; i < 50; i++)
		g[i].flags = KSCHED_MEMBERS | KSCHED_LAG;  /* at risk, off screen */
	for (i = 50; i < 75; i++)
		g[i].flags = KSCHED_MEMBERS;               /* zero lag */
	for (i = 75; i < 100; i++) {
		g[i].listed = KG_STATE_EMPTY;              /* lag, but nobody to stall */
		g[i].flags = KSCHED_LAG;
	}
	simulate(&s, g, 100, 1 * SEC, 40, SEC, &max_age, &total);
	for (now = 41 * SEC; now < 71 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 100, now, 0);
		for (i = 0; i < 50; i++)
			assert_true(g[i].offsets && g[i].describe); /* on screen or at risk: every refresh, described
								      (the budget covers it: never its offsets alone) */
		for (i = 50; i < 100; i++)
			asked_calm += g[i].offsets;
		apply(g, 100, now);
	}
	/* the calm ones about once in 30 s: 50 groups over 30 refreshes */
	assert_true(asked_calm >= 40 && asked_calm <= 70);
	free(g);
}

/*
 * 10,000 groups, 1,000 of them at risk and 9,000 Empty, on 1,500 requests a
 * second: the groups at risk take what the rotation leaves (the budget is
 * used, never exceeded), each asked again within a few seconds; every group
 * still within --full-refresh.
 */
static void
test_risk_budget(void **state)
{
	ksched s = sched(1500, 30 * SEC, true);
	ksched_group *g = groups(10000, KG_STATE_STABLE, 0);
	int64_t max_age, gap;
	long total;
	size_t i;
	int most;
	(void)state;
	for (i = 0; i < 1000; i++)
		g[i].flags = KSCHED_MEMBERS | KSCHED_LAG;
	for (i = 1000; i < 10000; i++) {
		g[i].listed = KG_STATE_EMPTY;
		g[i].flags = KSCHED_LAG;
	}
	most = simulate(&s, g, 10000, 1 * SEC, 60, SEC, &max_age, &total);
	assert_true(max_age <= 30 * SEC);
	gap = risk_gap(&s, g, 10000, 61 * SEC, 60, KSCHED_MEMBERS | KSCHED_LAG, &total, &most);
	assert_true(most <= 2 * 1500);
	assert_true(total <= 1500L * 61);
	assert_true(total >= 1150L * 60); /* the budget left is used, but what the plan cannot count (RISK_SHARE) */
	/* 9,000 x 2 / 29 s for the rotation (about 620 a second): about 650 left for 1,000 groups x 4 */
	assert_true(gap <= 8 * SEC);
	free(g);
}

/*
 * The budget short of the groups at risk: one whose last answer left a
 * partition with lag where it was (KSCHED_STILL) is asked every refresh,
 * before the others at risk.
 */
static void
test_risk_still_first(void **state)
{
	ksched s = sched(200, 30 * SEC, true);
	ksched_group *g = groups(500, KG_STATE_STABLE, 0);
	int64_t max_age, now;
	long total;
	size_t i;
	(void)state;
	for (i = 0; i < 500; i++)
		g[i].flags = KSCHED_MEMBERS | KSCHED_LAG;
	simulate(&s, g, 500, 1 * SEC, 40, SEC, &max_age, &total);
	g[321].flags |= KSCHED_STILL;
	for (now = 41 * SEC; now < 61 * SEC; now += SEC) {
		ksched_plan p = kafka_sched_plan(&s, g, 500, now, 0);
		assert_true(g[321].offsets);
		assert_true(p.risk_left > 0); /* the others wait their turn */
		apply(g, 500, now);
	}
	/* at zero lag now: no longer at risk, back to the rotation */
	g[321].flags = KSCHED_MEMBERS | KSCHED_STILL;
	kafka_sched_plan(&s, g, 500, 61 * SEC, 0);
	assert_false(g[321].offsets);
	free(g);
}

/*
 * librdkafka's coordinator cache as rdkafka_coord.c keeps it: the last cap
 * groups asked (least recently asked evicted).  A group is kept while fewer
 * than cap others were asked after it, counted with a Fenwick tree over the
 * asking's ticks (each group marked at its last tick).
 */
typedef struct lru {
	int cap;
	long tick, nticks;
	long *tree;   /* Fenwick tree over ticks 1..nticks */
	long *last;   /* per group, the tick of its last asking, 0 never */
} lru;

/* Add v at tick t. */
static void
lru_add(lru *c, long t, long v)
{
	for (; t <= c->nticks; t += t & -t)
		c->tree[t] += v;
}

/* Marks at ticks 1..t. */
static long
lru_sum(const lru *c, long t)
{
	long v = 0;
	for (; t > 0; t -= t & -t)
		v += c->tree[t];
	return v;
}

/* Ask about group id: 1 when librdkafka sends a FindCoordinator first (it does not keep it). */
static int
lru_ask(lru *c, int32_t id)
{
	long t = ++c->tick;
	int miss = c->last[id] == 0 || lru_sum(c, t - 1) - lru_sum(c, c->last[id]) >= c->cap;
	assert_true(t <= c->nticks);
	if (c->last[id] > 0)
		lru_add(c, c->last[id], -1);
	lru_add(c, t, 1);
	c->last[id] = t;
	return miss;
}

/* The requests a plan really sends, in kafka_groups_ask's order: the descriptions, then the offsets, each in table order. */
static long
lru_plan(lru *c, const ksched_group *g, size_t n)
{
	long sent = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		if (g[i].describe)
			sent += 1 + lru_ask(c, g[i].id);
	}
	for (i = 0; i < n; i++) {
		if (g[i].offsets)
			sent += 1 + lru_ask(c, g[i].id);
	}
	return sent;
}

/*
 * issue 24's cluster (bench-attention): 10,000 groups, 1,000 at risk and
 * 9,000 Empty, 1,500 requests a second, a dashboard.  With the bundled
 * librdkafka's coordinator cache (4,096 groups) a group asked again a
 * refresh later costs its requests alone, no FindCoordinator: a group at
 * risk two (DescribeGroups, OffsetFetch), so each is asked about
 * every 3 s, against every 7 or 8 when each asking cost four
 * (test_risk_budget).  The requests the plan counts are never fewer than
 * a model of librdkafka's cache sends, nor many more (the budget is used);
 * every group is still asked within --full-refresh, its description too.
 * Without the cache (librdkafka's 11), the plan counts what is sent too.
 */
static void
test_risk_coord_cache(void **state)
{
	static const int caps[2] = { KSCHED_COORD_CACHE_BUNDLED, KSCHED_COORD_CACHE_RDKAFKA };
	int k;
	(void)state;
	for (k = 0; k < 2; k++) {
		ksched s;
		ksched_config cf = { .full_refresh_us = 30 * SEC, .max_requests = 1500, .coord_cache = caps[k] };
		ksched_group *g = groups(10000, KG_STATE_STABLE, 0);
		lru c = { .cap = caps[k], .nticks = 2000000 };
		int64_t now, gap = 0, max_age = 0;
		long planned = 0, sent = 0, risk = 0, least = -1;
		size_t i;
		c.tree = xcalloc((size_t)c.nticks + 1, sizeof *c.tree);
		c.last = xcalloc(10000, sizeof *c.last);
		kafka_sched_init(&s, &cf);
		kafka_sched_paced(&s, true);
		for (i = 0; i < 1000; i++)
			g[i].flags = KSCHED_MEMBERS | KSCHED_LAG;
		for (i = 1000; i < 10000; i++) {
			g[i].listed = KG_STATE_EMPTY;
			g[i].flags = KSCHED_LAG;
		}
		for (now = 1 * SEC; now < 121 * SEC; now += SEC) {
			ksched_plan p = kafka_sched_plan(&s, g, 10000, now, 0);
			long real = lru_plan(&c, g, 10000);
			for (i = 0; i < 10000 && now > 61 * SEC; i++) {
				if (i < 1000 && g[i].offsets && now - g[i].offs_us > gap)
					gap = now - g[i].offs_us;
				if (now - g[i].offs_us > max_age)
					max_age = now - g[i].offs_us;
				if (i < 1000 && now - g[i].desc_us > max_age)
					max_age = now - g[i].desc_us;
			}
			apply(g, 10000, now);
			assert_true(real <= p.requests); /* never more than the plan counted */
			if (now > 61 * SEC) {
				planned += p.requests;
				sent += real;
				risk += p.risk;
				if (least < 0 || p.risk < least)
					least = p.risk;
			}
		}
		assert_true(planned <= 1500L * 60);
		assert_true(sent * 10 >= planned * 9);
		assert_true(max_age <= 30 * SEC);
		print_message("# coordinators kept %d: a group at risk asked again within %.1f s, at least %ld of them a "
			      "refresh; %ld of %ld requests planned\n",
			      caps[k], (double)gap / SEC, least, planned, 1500L * 60);
		if (caps[k] == KSCHED_COORD_CACHE_BUNDLED) {
			/* each group at risk about every 3 s (every 7 or 8 before); the rotation's groups asked
			 * together at the start, due together again, are spread ahead of their turn: no refresh
			 * leaves the groups at risk out (two a cycle did, 5 s between askings) */
			assert_true(risk >= 300L * 60);
			assert_true(least >= 200);
			assert_true(gap <= 4 * SEC);
			assert_true(planned >= 1250L * 60); /* the budget is used, but what the plan cannot count */
		}
		free(c.tree);
		free(c.last);
		free(g);
	}
}

/*
 * issue 24, item 2's target on the same cluster (bench-attention): a group
 * at risk off screen whose description is younger than KSCHED_QUIET_US
 * and whose listed state is the one it was described in is asked its
 * committed offsets alone (one OffsetFetch, its coordinator kept), and
 * described once its description is KSCHED_QUIET_US old.  The rotation
 * (9,000 Empty groups x 2 / 29 s, about 620 a second) leaves about 650 of
 * the 1,275 a second the plan counts on: each group at risk is asked its
 * offsets about every 2 s, at most 3 (every 3 or 4 when each asking was
 * described too), the budget kept; a change of its listed state
 * is described at once, and so is a shown group every refresh; once the
 * budget covers them described, they are described again.
 */
static void
test_risk_offsets_alone(void **state)
{
	ksched s;
	ksched_config cf = { .full_refresh_us = 30 * SEC, .max_requests = 1500, .coord_cache = KSCHED_COORD_CACHE_BUNDLED };
	ksched_group *g = groups(10000, KG_STATE_STABLE, 0);
	lru c = { .cap = KSCHED_COORD_CACHE_BUNDLED, .nticks = 2000000 };
	int64_t now, gap = 0, desc_gap = 0, max_age = 0;
	long planned = 0, sent = 0, alone = 0, asked = 0, least = -1;
	size_t i;
	(void)state;
	c.tree = xcalloc((size_t)c.nticks + 1, sizeof *c.tree);
	c.last = xcalloc(10000, sizeof *c.last);
	kafka_sched_init(&s, &cf);
	kafka_sched_paced(&s, true);
	for (i = 0; i < 1000; i++)
		g[i].flags = KSCHED_MEMBERS | KSCHED_LAG | (i < 24 ? KSCHED_FOCUS : 0);
	for (i = 1000; i < 10000; i++) {
		g[i].listed = KG_STATE_EMPTY;
		g[i].flags = KSCHED_LAG;
	}
	for (now = 1 * SEC; now < 121 * SEC; now += SEC) {
		ksched_plan p = kafka_sched_plan(&s, g, 10000, now, 0);
		long real = lru_plan(&c, g, 10000), risk = 0;
		for (i = 0; i < 1000 && now > 61 * SEC; i++) {
			if (g[i].offsets && now - g[i].offs_us > gap)
				gap = now - g[i].offs_us;
			if (g[i].describe && now - g[i].desc_us > desc_gap)
				desc_gap = now - g[i].desc_us;
			if (i < 24)
				assert_true(g[i].offsets && g[i].describe); /* shown: described every refresh */
			alone += g[i].offsets && !g[i].describe;
			risk += g[i].offsets;
		}
		for (i = 0; i < 10000 && now > 61 * SEC; i++) {
			if (now - g[i].offs_us > max_age)
				max_age = now - g[i].offs_us;
			if (i < 1000 && now - g[i].desc_us > max_age)
				max_age = now - g[i].desc_us;
		}
		apply(g, 10000, now);
		assert_true(real <= p.requests); /* never more than the plan counted */
		if (now > 61 * SEC) {
			planned += p.requests;
			sent += real;
			asked += risk;
			if (least < 0 || risk < least)
				least = risk;
		}
	}
	print_message("# offsets alone: a group at risk asked again within %.1f s, described again within %.1f s, "
		      "at least %ld of them a refresh; %ld of %ld requests planned, %ld sent\n",
		      (double)gap / SEC, (double)desc_gap / SEC, least, planned, 1500L * 60, sent);
	assert_true(planned <= 1500L * 60);
	assert_true(sent * 10 >= planned * 9);
	assert_true(max_age <= 30 * SEC);
	assert_true(alone > 0);
	/* about 500 groups at risk a refresh, each every 2 s (about 300, every 3 or 4 s, when described every time);
	 * every refresh would need about 1,000 + 100 descriptions + 620 for the rotation, more than 1,275 */
	assert_true(asked >= 480L * 60);
	assert_true(gap <= 3 * SEC);
	assert_true(desc_gap <= KSCHED_QUIET_US + 2 * SEC); /* described about every KSCHED_QUIET_US */
	/* a listed state change: described at once, however recent its description */
	g[500].listed = KG_STATE_PREPARING_REBALANCE;
	g[600].listed = KG_STATE_COMPLETING_REBALANCE;
	g[700].listed = KG_STATE_UNKNOWN; /* the listing says nothing: nothing says it did not change */
	for (i = 0; i < 1000; i++)
		g[i].desc_us = now - SEC;
	kafka_sched_plan(&s, g, 10000, now, 0);
	assert_true(g[500].offsets && g[500].describe);
	assert_true(g[600].offsets && g[600].describe);
	assert_false(g[700].offsets && !g[700].describe);
	/* a budget that covers them described: within a few refreshes, every one described again */
	s.cfg.max_requests = 20000;
	for (now += SEC; now < 130 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 10000, now, 0);
		apply(g, 10000, now);
	}
	kafka_sched_plan(&s, g, 10000, now, 0);
	for (i = 0; i < 1000; i++)
		assert_true(g[i].offsets && g[i].describe);
	free(c.tree);
	free(c.last);
	free(g);
}

/*
 * A group asked again a refresh later is charged its requests alone while
 * librdkafka keeps its coordinator; once a new client handle forgot them
 * all (kafka_sched_coords_forgotten), the FindCoordinators again.
 */
static void
test_coord_forgotten(void **state)
{
	ksched s;
	ksched_config cf = { .full_refresh_us = 30 * SEC, .max_requests = 1000, .coord_cache = KSCHED_COORD_CACHE_BUNDLED };
	ksched_group *g = groups(3, KG_STATE_STABLE, 0);
	ksched_plan p;
	(void)state;
	kafka_sched_init(&s, &cf);
	kafka_sched_paced(&s, true);
	g[0].flags = g[1].flags = g[2].flags = KSCHED_MEMBERS | KSCHED_LAG;
	p = kafka_sched_plan(&s, g, 3, 1 * SEC, 0);
	assert_int_equal(p.offsets, 3);
	assert_int_equal(p.requests, 3 * 3); /* a lookup, then a description and offsets from the cache */
	apply(g, 3, 1 * SEC);
	p = kafka_sched_plan(&s, g, 3, 2 * SEC, 0);
	assert_int_equal(p.requests, 3 * 2);
	apply(g, 3, 2 * SEC);
	kafka_sched_coords_forgotten(&s);
	p = kafka_sched_plan(&s, g, 3, 3 * SEC, 0);
	assert_int_equal(p.requests, 3 * 3);
	free(g);
}

/* A scheduler whose freezes settle after settle_us. */
static ksched
sched_settle(double max_requests, int64_t settle_us)
{
	ksched s;
	ksched_config c = { .full_refresh_us = 30 * SEC, .max_requests = max_requests, .settle_us = settle_us };
	kafka_sched_init(&s, &c);
	kafka_sched_paced(&s, true);
	return s;
}

/*
 * idle-100's shape: 50 groups with members and a lag that never moves (on
 * screen and off), 50 Empty.  Until a freeze is settled (a lagging
 * partition still for settle_us: the STALLED rule has fired) each group is
 * asked every refresh; after, once its data is KSCHED_QUIET_US old, so
 * the requests fall to about a tenth; the selected one stays every refresh.
 */
static void
test_settled_slow(void **state)
{
	ksched s = sched_settle(1500, 32 * SEC);
	ksched_group *g = groups(100, KG_STATE_STABLE, 0);
	int64_t now, first = 0;
	long before = 0, after = 0;
	size_t i;
	(void)state;
	for (i = 0; i < 50; i++)
		g[i].flags = KSCHED_MEMBERS | KSCHED_LAG | (i < 20 ? KSCHED_FOCUS : 0);
	g[3].flags |= KSCHED_SELECTED;
	for (i = 50; i < 100; i++)
		g[i].listed = KG_STATE_EMPTY;
	for (now = 1 * SEC; now < 100 * SEC; now += SEC) {
		ksched_plan p = kafka_sched_plan(&s, g, 100, now, 0);
		for (i = 0; i < 50; i++) {
			if (now < 32 * SEC)
				assert_true(g[i].offsets); /* not settled yet: every refresh */
			else if (i != 3)
				assert_true(g[i].offsets || now - g[i].offs_us < KSCHED_QUIET_US);
		}
		assert_true(g[3].offsets);
		if (now >= 10 * SEC && now < 30 * SEC)
			before += p.requests;
		if (now >= 60 * SEC && now < 80 * SEC)
			after += p.requests;
		apply(g, 100, now);
		/* what kafka_table_publish says: the lag stood still since the first answer */
		for (i = 0; i < 50; i++) {
			g[i].flags |= KSCHED_STILL;
			if (first == 0)
				first = now;
			g[i].still_us = first;
		}
	}
	/* 50 x 4 a second before; after: the selected one's 4, 49 x 4 / 10 s, the Empty ones' turns */
	assert_true(before >= 20 * 50 * 4);
	assert_true(after <= 20 * (4 + 49 * 4 / 10 + 10));
	free(g);
}

/*
 * The pace a row's age is judged by (kafka_sched_pace): KSCHED_SETTLED_DESC_US
 * for a settled freeze, KSCHED_QUIET_US for a group without lag or members, 0 for the
 * selected one, a freeze not settled yet and everything without a screen;
 * and the plan keeps to it: a group on screen is never left older than its
 * pace (so the list, which flags a row only past it, flags none of them).
 */
static void
test_pace(void **state)
{
	ksched s = sched_settle(1500, 32 * SEC);
	ksched_group *g = groups(4, KG_STATE_STABLE, 0);
	int64_t now;
	size_t i;
	(void)state;
	g[0].flags = KSCHED_MEMBERS | KSCHED_LAG | KSCHED_STILL | KSCHED_FOCUS; /* a freeze since 1 s: settled at 33 s */
	g[0].still_us = 1 * SEC;
	g[1].listed = KG_STATE_EMPTY;
	g[1].flags = KSCHED_FOCUS;
	g[2].flags = KSCHED_MEMBERS | KSCHED_FOCUS | KSCHED_SELECTED; /* quiet, but selected */
	g[3].flags = KSCHED_MEMBERS | KSCHED_LAG | KSCHED_FOCUS;   /* lag moving: no freeze */
	assert_int_equal(kafka_sched_pace(&s, &g[0], 20 * SEC), 0);
	assert_int_equal(kafka_sched_pace(&s, &g[0], 40 * SEC), KSCHED_SETTLED_DESC_US); /* its description's (test_settled_describe) */
	assert_int_equal(kafka_sched_pace(&s, &g[1], 20 * SEC), KSCHED_QUIET_US);
	assert_int_equal(kafka_sched_pace(&s, &g[2], 20 * SEC), 0);
	assert_int_equal(kafka_sched_pace(&s, &g[3], 20 * SEC), 0);
	for (now = 1 * SEC; now < 100 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 4, now, 0);
		apply(g, 4, now);
		for (i = 0; i < 4; i++) {
			int64_t pace = kafka_sched_pace(&s, &g[i], now);
			assert_true(now - g[i].offs_us <= pace);
			assert_true(g[i].listed == KG_STATE_EMPTY || now - g[i].desc_us <= pace);
		}
	}
	/* without a screen (--json): every group every refresh */
	kafka_sched_paced(&s, false);
	for (i = 0; i < 4; i++)
		assert_int_equal(kafka_sched_pace(&s, &g[i], 100 * SEC), 0);
	free(g);
}

/*
 * A settled freeze's description: its offsets are asked once they are
 * KSCHED_QUIET_US old (its recovery shows there), its description once it
 * is KSCHED_SETTLED_DESC_US old (only a rebalance, which the listing shows,
 * or a static member's restart changes what it tells); a listed state
 * that moved away from it, or a selection, has it described at once.
 */
static void
test_settled_describe(void **state)
{
	ksched s = sched_settle(1500, 32 * SEC);
	ksched_group *g = groups(4, KG_STATE_STABLE, 1 * SEC);
	int64_t now, last_desc = 1 * SEC, last_offs = 1 * SEC;
	int ndesc = 0, noffs = 0;
	(void)state;
	g[0].flags = KSCHED_MEMBERS | KSCHED_LAG | KSCHED_STILL | KSCHED_FOCUS;
	g[0].still_us = 1 * SEC; /* settled from 33 s */
	for (now = 40 * SEC; now < 220 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 4, now, 0);
		if (g[0].describe) {
			assert_true(now - last_desc >= KSCHED_SETTLED_DESC_US || last_desc < 33 * SEC);
			last_desc = now;
			ndesc++;
		}
		if (g[0].offsets) {
			assert_true(now - last_offs >= KSCHED_QUIET_US || g[0].describe || last_offs < 33 * SEC); /* or with its description */
			last_offs = now;
			noffs++;
		}
		apply(g, 4, now);
		assert_true(now - g[0].offs_us <= KSCHED_QUIET_US);
		assert_true(now - g[0].desc_us <= KSCHED_SETTLED_DESC_US);
	}
	/* 180 s: its offsets 18 times, its description 3 times (every 6th) */
	assert_in_range(noffs, 16, 19);
	assert_in_range(ndesc, 3, 4);
	/* a listed state away from its description: described at once */
	g[0].listed = KG_STATE_PREPARING_REBALANCE;
	kafka_sched_plan(&s, g, 4, 220 * SEC, 0);
	assert_true(g[0].describe);
	apply(g, 4, 220 * SEC);
	g[0].listed = KG_STATE_STABLE;
	kafka_sched_plan(&s, g, 4, 221 * SEC, 0);
	assert_true(g[0].describe);
	apply(g, 4, 221 * SEC);
	/* selected: every refresh */
	g[0].flags |= KSCHED_SELECTED;
	for (now = 222 * SEC; now < 226 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 4, now, 0);
		assert_true(g[0].describe && g[0].offsets);
		apply(g, 4, now);
	}
	free(g);
}

/*
 * A settled freeze that recovers: its commits move again, so its next
 * answer clears still_us; it is asked every refresh again at once, and a
 * new freeze is watched each refresh until it settles.  A freeze not yet
 * settled (still_us recent) is asked every refresh, before the screen.
 */
static void
test_settled_recovers(void **state)
{
	ksched s = sched_settle(1500, 32 * SEC);
	ksched_group *g = groups(10, KG_STATE_STABLE, 1 * SEC);
	int64_t now, asked_at = -1;
	(void)state;
	g[0].flags = KSCHED_MEMBERS | KSCHED_LAG | KSCHED_STILL;
	g[0].still_us = 1 * SEC;
	/* settled at 33 s: at most every KSCHED_QUIET_US after that */
	for (now = 40 * SEC; now < 60 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 10, now, 0);
		if (g[0].offsets) {
			assert_true(asked_at < 0 || now - asked_at >= KSCHED_QUIET_US);
			asked_at = now;
		}
		apply(g, 10, now);
	}
	assert_true(asked_at >= 0);
	/* its answer at asked_at saw the commits move: no freeze */
	g[0].flags = KSCHED_MEMBERS | KSCHED_LAG;
	g[0].still_us = 0;
	for (now = 60 * SEC; now < 65 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 10, now, 0);
		assert_true(g[0].offsets);
		apply(g, 10, now);
	}
	/* a new freeze, seen at 64 s: every refresh until 96 s */
	g[0].flags |= KSCHED_STILL;
	g[0].still_us = 64 * SEC;
	for (now = 65 * SEC; now < 96 * SEC; now += SEC) {
		kafka_sched_plan(&s, g, 10, now, 0);
		assert_true(g[0].offsets);
		apply(g, 10, now);
	}
	kafka_sched_plan(&s, g, 10, 97 * SEC, 0);
	assert_false(g[0].offsets);
	assert_true(kafka_sched_settled(&s, &g[0], 97 * SEC));
	/* a group whose commits were 20 s apart: the rule waits twice that, so does the settling */
	g[0].gap_us = 20 * SEC;
	assert_false(kafka_sched_settled(&s, &g[0], (64 + 32 + 39) * SEC));
	assert_true(kafka_sched_settled(&s, &g[0], (64 + 32 + 40) * SEC));
	/* without a screen (--json) every line is as fresh as the budget allows: nothing settles */
	kafka_sched_paced(&s, false);
	assert_false(kafka_sched_settled(&s, &g[0], (64 + 32 + 40) * SEC));
	kafka_sched_plan(&s, g, 10, 200 * SEC, 0);
	assert_true(g[0].offsets);
	kafka_sched_paced(&s, true);
	/* no settle_us (no --lag-window known): never settled */
	s = sched(1500, 30 * SEC, true);
	assert_false(kafka_sched_settled(&s, &g[0], 1000 * SEC));
	free(g);
}

/*
 * The table's side: each commit keeps when the answers first gave its
 * offset; a group's still_us is the oldest such time of its lagging
 * partitions that stood still.  A partition that moves and one that stands
 * take turns (a healthy group committing every few seconds): no freeze
 * stands, so the group never looks settled; one partition that stays is.
 */
static koffs *
offs_new(int64_t t, const int64_t *off, int n)
{
	koffs *o = xcalloc(1, sizeof *o);
	int q;
	o->refs = 1;
	o->time_us = t;
	o->c = xcalloc((size_t)n, sizeof *o->c);
	for (q = 0; q < n; q++) {
		o->c[q].tp.topic = intern_topic("t-still");
		o->c[q].tp.partition = q;
		o->c[q].offset = off[q];
	}
	o->nc = n;
	return o;
}

static void
test_table_still_since(void **state)
{
	ktable t;
	kresult *r = xcalloc(1, sizeof *r);
	kentry *e;
	int64_t off[2] = { 10, 20 }, now;
	int k;
	(void)state;
	memset(&t, 0, sizeof t);
	e = kafka_table_add(&t, intern_group("g-still"));
	e->s.listed = KG_STATE_STABLE;
	r->ntopics = 1;
	r->topics = xcalloc(1, sizeof *r->topics);
	r->topics[0].id = intern_topic("t-still");
	r->topics[0].np = 2;
	/* one block, as refresh_metadata makes it: log ends, log starts, then the leaders */
	r->part_mem = xcalloc(5, sizeof *r->part_mem);
	r->topics[0].log_end = r->part_mem;
	r->topics[0].log_start = r->part_mem + 2;
	r->topics[0].leader = (int32_t *)(r->part_mem + 4);
	r->topics[0].log_end[0] = r->topics[0].log_end[1] = 1000;
	/* the two partitions take turns: one moves while the other stands, every answer */
	for (k = 0; k < 10; k++) {
		now = (1 + k) * SEC;
		off[k % 2] += 5;
		kafka_table_offsets(e, offs_new(now, off, 2));
		kafka_table_publish(&t, r, now);
		if (k > 0) {
			assert_true(e->s.flags & KSCHED_STILL);     /* a lagging partition where it was: suspect */
			assert_int_equal(e->s.still_us, now - SEC); /* but no freeze older than one answer */
		}
		if (k > 1)
			assert_int_equal(e->s.gap_us, 2 * SEC);     /* each partition commits every other answer */
		while (r->ngroups > 0)
			kafka_desc_unref(r->groups[--r->ngroups].desc), kafka_offs_unref(r->groups[r->ngroups].offs),
				free(r->groups[r->ngroups].error);
		free(r->groups);
		r->groups = NULL;
	}
	/* partition 1 stays from now on: its freeze dates from the first answer that gave its offset */
	for (k = 10; k < 20; k++) {
		now = (1 + k) * SEC;
		off[0] += 5;
		kafka_table_offsets(e, offs_new(now, off, 2));
		kafka_table_publish(&t, r, now);
		assert_int_equal(e->s.still_us, 10 * SEC); /* answer 9 (at 10 s) moved partition 1 last */
		while (r->ngroups > 0)
			kafka_desc_unref(r->groups[--r->ngroups].desc), kafka_offs_unref(r->groups[r->ngroups].offs),
				free(r->groups[r->ngroups].error);
		free(r->groups);
		r->groups = NULL;
	}
	/* a freeze of both: the gap between commits the answers saw before it stays (the rule's does) */
	{
		int64_t gap = e->s.gap_us;
		assert_true(gap >= SEC);
		for (k = 20; k < 30; k++) {
			kafka_table_offsets(e, offs_new((1 + k) * SEC, off, 2));
			assert_int_equal(e->s.gap_us, gap);
		}
	}
	/* at zero lag it is no freeze */
	r->topics[0].log_end[0] = off[0];
	r->topics[0].log_end[1] = off[1];
	kafka_table_offsets(e, offs_new(31 * SEC, off, 2));
	kafka_table_publish(&t, r, 31 * SEC);
	assert_int_equal(e->s.still_us, 0);
	kafka_result_free(r);
	kafka_table_free(&t);
}

/* Run. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_everything),
		cmocka_unit_test(test_empty_rule),
		cmocka_unit_test(test_selected_in_debt),
		cmocka_unit_test(test_priorities),
		cmocka_unit_test(test_state_change),
		cmocka_unit_test(test_paced_idle),
		cmocka_unit_test(test_pace),
		cmocka_unit_test(test_json_10k),
		cmocka_unit_test(test_json_small),
		cmocka_unit_test(test_budget_wins),
		cmocka_unit_test(test_slow_refreshes),
		cmocka_unit_test(test_focus_channel),
		cmocka_unit_test(test_coordinators_moved),
		cmocka_unit_test(test_risk_every_refresh),
		cmocka_unit_test(test_risk_budget),
		cmocka_unit_test(test_risk_still_first),
		cmocka_unit_test(test_risk_coord_cache),
		cmocka_unit_test(test_risk_offsets_alone),
		cmocka_unit_test(test_coord_forgotten),
		cmocka_unit_test(test_settled_slow),
		cmocka_unit_test(test_settled_recovers),
		cmocka_unit_test(test_settled_describe),
		cmocka_unit_test(test_table_still_since),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

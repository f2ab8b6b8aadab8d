/*
 * test_tracker.c: the domain rules, pinned on the seeds' own runs.
 *
 * Each test feeds the tracker what a broker description (polling) or a
 * consumer's callbacks (exact) would say, and asserts the derived events
 * and episodes: full versus incremental revokes, one episode for a
 * two-round cooperative rebalance, orphans, storms, static members, lag,
 * health, and timing from coordinator logs.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "model/intern.h"
#include "model/tracker_episode.h"
#include "model/tracker_int.h"
#include "scenario.h"
#include "util/util.h"

#define E KG_PROTO_EAGER
#define C KG_PROTO_COOPERATIVE
#define LANE_CAP 64 /* 62 letters, plus the members present */

/* Text of an event. */
static char *
text(const kg_event *e)
{
	sbuf s = { 0 };
	event_format(e, &s);
	return s.s ? s.s : xstrdup("");
}

/* Assert an event's text. */
static void
assert_text(const kg_event *e, const char *want)
{
	char *got;
	assert_non_null(e);
	got = text(e);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "# got:  %s\n# want: %s\n", got, want);
	assert_string_equal(got, want);
	free(got);
}

/* The episodes of a group. */
static int
episodes(sc *s, const char *group, kg_episode **out)
{
	return history_episodes(tracker_history(s->t), intern_group(group), out);
}

/* Settle three exact members with callbacks at ms. */
static void
settle_exact(sc *s, const char *g, kg_proto p, int64_t ms, const char *a, const char *b, const char *c)
{
	sc_obs(s, KG_OBS_ASSIGNED, ms, g, "consumer-a", p, a);
	sc_obs(s, KG_OBS_ASSIGNED, ms, g, "consumer-b", p, b);
	sc_obs(s, KG_OBS_ASSIGNED, ms, g, "consumer-c", p, c);
}

/* Seed 000, range: when d joins, a, b and c each revoke everything (stop-the-world). */
static void
test_seed_range(void **state)
{
	sc *s = sc_new(6, NULL);
	char m[256];
	kg_episode *ep;
	int n;
	(void)state;
	snprintf(m, sizeof m, "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_set(s, "g-range", KG_STATE_STABLE, "range", m);
	sc_group_exact(s, "g-range", true);
	settle_exact(s, "g-range", E, 0, "0 1", "2 3", "4 5");
	sc_tick(s, 100);
	sc_tick(s, 2000); /* settled: the first episode closed */
	/* the seed's log: [3.213s] a, b, c revoked everything */
	sc_obs(s, KG_OBS_REVOKED, 3213, "g-range", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_REVOKED, 3213, "g-range", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_REVOKED, 3213, "g-range", "consumer-c", E, "4 5");
	sc_group_set(s, "g-range", KG_STATE_PREPARING_REBALANCE, "range", "consumer-a;consumer-b;consumer-c;consumer-d");
	sc_tick(s, 3300);
	sc_obs(s, KG_OBS_ASSIGNED, 3700, "g-range", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 3700, "g-range", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, 3700, "g-range", "consumer-c", E, "4");
	sc_obs(s, KG_OBS_ASSIGNED, 3700, "g-range", "consumer-d", E, "5");
	sc_group_set(s, "g-range", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_tick(s, 3800);
	sc_tick(s, 5000);
	assert_int_equal(sc_count_revokes(s, "g-range", NULL, KG_CLASS_FULL), 3);
	assert_int_equal(sc_count_revokes(s, "g-range", NULL, KG_CLASS_INCREMENTAL), 0);
	assert_text(sc_find(s, KG_EV_REVOKED, "consumer-a", 0), "consumer-a revoked [0 1] (all: stop-the-world)");
	assert_text(sc_find(s, KG_EV_REVOKED, "consumer-b", 0), "consumer-b revoked [2 3] (all: stop-the-world)");
	assert_text(sc_find(s, KG_EV_REVOKED, "consumer-c", 0), "consumer-c revoked [4 5] (all: stop-the-world)");
	assert_int_equal(sc_find(s, KG_EV_REVOKED, "consumer-a", 0)->time_us, sc_us(s, 3213));
	n = episodes(s, "g-range", &ep);
	assert_int_equal(n, 2); /* the first settling, then d's join */
	assert_int_equal(ep[1].start_us, sc_us(s, 3213));
	assert_int_equal(ep[1].end_us, sc_us(s, 3700));
	assert_int_equal(ep[1].nfull, 3);
	assert_int_equal(ep[1].proto, KG_PROTO_EAGER);
	assert_true(episode_member(&ep[1], 0)->stopped_us >= 487000);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * Seed 000, cooperative-sticky: the first round revokes nothing, then
 * [4] of [0 4] (incremental), and d gets [4]; no member loses everything.
 */
static void
test_seed_coop(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "g-coop", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 4;consumer-b=1 2;consumer-c=3 5");
	sc_group_exact(s, "g-coop", true);
	settle_exact(s, "g-coop", C, 0, "0 4", "1 2", "3 5");
	sc_tick(s, 100);
	sc_tick(s, 2000);
	sc_obs(s, KG_OBS_REVOKED, 12118, "g-coop", "consumer-a", C, "");
	sc_obs(s, KG_OBS_REVOKED, 12118, "g-coop", "consumer-b", C, "");
	sc_obs(s, KG_OBS_REVOKED, 12118, "g-coop", "consumer-c", C, "");
	sc_obs(s, KG_OBS_REVOKED, 12121, "g-coop", "consumer-a", C, "4");
	sc_group_set(s, "g-coop", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky",
		     "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d");
	sc_tick(s, 12200);
	sc_obs(s, KG_OBS_ASSIGNED, 12626, "g-coop", "consumer-d", C, "4");
	sc_obs(s, KG_OBS_ASSIGNED, 12626, "g-coop", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 12626, "g-coop", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 12626, "g-coop", "consumer-c", C, "");
	sc_group_set(s, "g-coop", KG_STATE_STABLE, "cooperative-sticky",
		     "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d=4");
	sc_tick(s, 12700);
	sc_tick(s, 14000);
	assert_int_equal(sc_count_revokes(s, "g-coop", NULL, KG_CLASS_FULL), 0);
	assert_int_equal(sc_count_revokes(s, "g-coop", NULL, KG_CLASS_NONE), 3);
	assert_int_equal(sc_count_revokes(s, "g-coop", NULL, KG_CLASS_INCREMENTAL), 1);
	assert_text(sc_find(s, KG_EV_REVOKED, "consumer-b", 0), "consumer-b revoked [] (nothing)");
	assert_text(sc_find(s, KG_EV_REVOKED, "consumer-a", 1), "consumer-a revoked [4] of [0 4] (incremental)");
	assert_text(sc_find(s, KG_EV_ASSIGNED, "consumer-d", 0), "consumer-d assigned [4]");
	assert_int_equal(sc_find(s, KG_EV_ASSIGNED, "consumer-d", 0)->time_us, sc_us(s, 12626));
	sc_free(s);
}

/*
 * The demo's view of a cooperative join: JoinGroup marks rounds.  The
 * moving partition is revoked in round one and assigned in round two,
 * all within one episode.
 */
static void
test_coop_rounds_exact(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	const kg_event *rv, *as;
	(void)state;
	sc_group_set(s, "g", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 4;consumer-b=1 2;consumer-c=3 5");
	sc_group_exact(s, "g", true);
	settle_exact(s, "g", C, 0, "0 4", "1 2", "3 5");
	sc_tick(s, 100);
	sc_tick(s, 2000);
	/* round 1: everyone joins, the leader withholds 4 from a */
	sc_obs(s, KG_OBS_JOIN_SENT, 10000, "g", "consumer-d", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "g", "consumer-a", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "g", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "g", "consumer-c", C, "");
	sc_group_set(s, "g", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky",
		     "consumer-a=0 4;consumer-b=1 2;consumer-c=3 5;consumer-d");
	sc_tick(s, 10200);
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "g", "consumer-d", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "g", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "g", "consumer-c", C, "");
	sc_obs(s, KG_OBS_REVOKED, 13010, "g", "consumer-a", C, "4");
	sc_group_set(s, "g", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d");
	sc_tick(s, 13100); /* Stable, but 4 has no owner: still the same episode */
	sc_tick(s, 14500);
	/* round 2: a rejoins, d gets 4 */
	sc_obs(s, KG_OBS_JOIN_SENT, 14600, "g", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 16000, "g", "consumer-d", C, "4");
	sc_obs(s, KG_OBS_ASSIGNED, 16000, "g", "consumer-a", C, "");
	sc_group_set(s, "g", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d=4");
	sc_tick(s, 16100);
	sc_tick(s, 17500);
	rv = sc_find(s, KG_EV_REVOKED, "consumer-a", 0);
	as = sc_find(s, KG_EV_ASSIGNED, "consumer-d", 1);
	if (as == NULL)
		as = sc_find(s, KG_EV_ASSIGNED, "consumer-d", 0);
	assert_non_null(rv);
	assert_int_equal(rv->cls, KG_CLASS_INCREMENTAL);
	assert_int_equal(rv->round, 1);
	assert_non_null(as);
	assert_int_equal(as->nparts, 1);
	assert_int_equal(as->round, 2);
	assert_int_equal(rv->episode, as->episode);
	assert_int_equal(sc_count_revokes(s, "g", NULL, KG_CLASS_FULL), 0);
	n = episodes(s, "g", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[1].rounds, 2);
	assert_int_equal(ep[1].start_us, sc_us(s, 10000));
	assert_int_equal(ep[1].end_us, sc_us(s, 16000));
	assert_int_equal(ep[1].nincremental, 1);
	assert_int_equal(ep[1].nfull, 0);
	assert_int_equal(ep[1].moved, 1);
	/* a, b and c joined in the first rebalance, not in d's */
	assert_false(episode_member(&ep[1], 0)->joined);
	assert_false(episode_member(&ep[1], 2)->joined);
	episodes_free(ep, n);
	sc_free(s);
}

/* Polling a broker: eager members revoke everything by protocol; one episode, one round. */
static void
test_polled_eager_join(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	const kg_event *e;
	(void)state;
	sc_group_set(s, "p-range", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 0);
	sc_group_set(s, "p-range", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b;consumer-c;consumer-d");
	sc_tick(s, 2000);
	/* described without assignments: that is not a revoke, the protocol is */
	assert_int_equal(sc_count_revokes(s, "p-range", NULL, KG_CLASS_FULL), 3);
	e = sc_find(s, KG_EV_REVOKED, "consumer-b", 0);
	assert_int_equal(e->evidence, KG_EVID_PROTOCOL);
	assert_text(e, "consumer-b revoked [2 3] (all: stop-the-world) [eager protocol]");
	assert_int_equal(sc_count(s, KG_EV_MEMBER_JOINED, "consumer-d"), 1);
	sc_group_set(s, "p-range", KG_STATE_COMPLETING_REBALANCE, "", "consumer-a;consumer-b;consumer-c;consumer-d");
	sc_tick(s, 3000);
	sc_group_set(s, "p-range", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_tick(s, 4000);
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, "consumer-d"), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	assert_int_equal(sc_count_revokes(s, "p-range", NULL, KG_CLASS_FULL), 3);
	n = episodes(s, "p-range", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].rounds, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 2000));
	assert_int_equal(ep[0].end_us, sc_us(s, 4000));
	assert_string_equal(ep[0].trigger_text, "joined: consumer-d");
	assert_int_equal(ep[0].moved, 1);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A group that never rebalanced keeps no round starts (most groups of a
 * cluster: 256 of a group's 616 bytes of episode state were these); its
 * first episode makes them, and round 2 is timed by them.
 */
static void
test_rounds_made_by_first_episode(void **state)
{
	sc *s = sc_new(4, NULL);
	tgroup *g;
	kg_episode *ep;
	int n;
	(void)state;
	assert_true(sizeof(tk_epgroup) <= 400);
	sc_group_set(s, "quiet", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	g = tk_group_find(s->t, intern_group_find("quiet"));
	assert_non_null(g);
	assert_null(g->eps->round_t);
	sc_group_set(s, "quiet", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b;consumer-c");
	sc_tick(s, 2000);
	assert_non_null(g->eps->round_t);
	assert_int_equal(g->eps->round_t[0], sc_us(s, 2000));
	sc_group_set(s, "quiet", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=1 2;consumer-c=3");
	sc_tick(s, 3000);
	n = episodes(s, "quiet", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 2000));
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A group that emptied and fills again with another assignor: the new
 * episode is not explained by the old members' leaves, and it runs the
 * protocol its new members report.
 */
static void
test_refilled_group(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_obs *o;
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_exact(s, "refill", true);
	sc_group_set(s, "refill", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1");
	sc_obs(s, KG_OBS_ASSIGNED, 0, "refill", "consumer-a", C, "0");
	sc_obs(s, KG_OBS_ASSIGNED, 0, "refill", "consumer-b", C, "1");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	o = obs_new(KG_OBS_LEFT, sc_us(s, 1500), intern_group("refill"), "demo");
	obs_member(o, "consumer-b-m", "consumer-b", NULL, NULL);
	o->reason = KG_REASON_SESSION_TIMEOUT;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_LEFT, sc_us(s, 1500), intern_group("refill"), "demo");
	obs_member(o, "consumer-a-m", "consumer-a", NULL, NULL);
	o->reason = KG_REASON_SESSION_TIMEOUT;
	sc_obs_push(s, o);
	sc_group_set(s, "refill", KG_STATE_EMPTY, "", "");
	sc_tick(s, 2000);
	/* 3 s later two members with an eager assignor: their first sign is an assign callback */
	sc_obs(s, KG_OBS_ASSIGNED, 5000, "refill", "consumer-c", E, "0");
	sc_group_set(s, "refill", KG_STATE_PREPARING_REBALANCE, "", "consumer-c");
	sc_tick(s, 5000);
	sc_obs(s, KG_OBS_ASSIGNED, 6000, "refill", "consumer-d", E, "1");
	sc_group_set(s, "refill", KG_STATE_STABLE, "range", "consumer-c=0;consumer-d=1");
	sc_tick(s, 6000);
	sc_tick(s, 20000);
	n = episodes(s, "refill", &ep);
	assert_true(n >= 1);
	assert_null(strstr(ep[n - 1].trigger_text, "left"));
	assert_int_equal(ep[n - 1].proto, KG_PROTO_EAGER);
	episodes_free(ep, n);
	/* nobody was consuming before either episode: the group formed */
	assert_non_null(strstr(sc_find(s, KG_EV_REBALANCE_END, NULL, 0)->text, "group formed with 2 members"));
	assert_non_null(strstr(sc_find(s, KG_EV_REBALANCE_END, NULL, 1)->text, "group formed with 2 members"));
	sc_free(s);
}

/* Lag growing in the first minute already shows a trend (over 10 s until a minute is known). */
static void
test_lag_trend_early(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_snapshot *snap;
	int ms;
	(void)state;
	sc_group_set(s, "trend", KG_STATE_STABLE, "range", "consumer-a=0 1");
	for (ms = 0; ms <= 20000; ms += 1000) {
		sc_group_offsets(s, "trend", 100, 100 + ms / 100);
		snap = sc_tick(s, ms);
	}
	assert_true(snapshot_group(snap, intern_group("trend"))->sum.lag_delta_1m > 0);
	sc_free(s);
}

/*
 * The mock reuses member ids: a member leaves and a new incarnation with the
 * same id takes its lane; the old one's late leave must not mark the lane
 * gone while the new one is on it.
 */
static void
test_lane_reused_id(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_obs *o;
	kg_hview *v;
	int i, found = 0;
	(void)state;
	sc_group_set(s, "reuse", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=1");
	sc_tick(s, 0);
	/* consumer-b goes (polling sees it gone), and is back under the same id */
	sc_group_set(s, "reuse", KG_STATE_STABLE, "range", "consumer-a=0 1");
	sc_tick(s, 1000);
	sc_group_set(s, "reuse", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=1");
	sc_tick(s, 5000);
	/* the first incarnation's leave reason arrives late (a coordinator log read behind) */
	o = obs_new(KG_OBS_LEFT, sc_us(s, 900), intern_group("reuse"), "log");
	obs_member(o, "consumer-b-m", "consumer-b", NULL, NULL);
	o->reason = KG_REASON_GRACEFUL;
	sc_obs_push(s, o);
	sc_tick(s, 6000);
	sc_tick(s, 7000);
	v = history_view(tracker_history(s->t), intern_group("reuse"), sc_us(s, 0), sc_us(s, 7000));
	for (i = 0; i < v->nlanes; i++) {
		if (strcmp(v->lanes[i].client_id, "consumer-b") == 0 && v->lanes[i].present) {
			found++;
			/* the first leave's reason, learnt late, is kept on the lane */
			assert_int_equal(v->lanes[i].last_leave, KG_REASON_GRACEFUL);
		}
	}
	assert_int_equal(found, 1);
	/* back under the same id: a join, and it did not revoke what it had before it left */
	assert_int_equal(sc_count(s, KG_EV_MEMBER_JOINED, "consumer-b"), 1);
	assert_int_equal(sc_count(s, KG_EV_REVOKED, "consumer-b"), 0);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, "consumer-b"), 1);
	hview_free(v);
	sc_free(s);
}

/* A group that empties during a rebalance did not "form"; a first-seen member's early-stamped leave is kept. */
static void
test_empties_and_skewed_leave(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_obs *o;
	const kg_event *e;
	kg_hview *v;
	int i, found = 0;
	(void)state;
	sc_group_set(s, "drain", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=1");
	sc_tick(s, 0);
	sc_group_set(s, "drain", KG_STATE_PREPARING_REBALANCE, "", "consumer-a");
	sc_tick(s, 1000);
	sc_group_set(s, "drain", KG_STATE_EMPTY, "", "");
	sc_tick(s, 2000);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(e);
	assert_null(strstr(e->text, "group formed"));
	sc_free(s);

	/* consumer-c first polled at 5 s; the coordinator's clock stamps its max.poll leave at 4 s */
	s = sc_new(2, NULL);
	sc_group_set(s, "skew", KG_STATE_STABLE, "range", "consumer-a=0");
	sc_tick(s, 0);
	sc_group_set(s, "skew", KG_STATE_STABLE, "range", "consumer-a=0;consumer-c=1");
	sc_tick(s, 5000);
	o = obs_new(KG_OBS_LEFT, sc_us(s, 4000), intern_group("skew"), "log");
	obs_member(o, "consumer-c-m", "consumer-c", NULL, NULL);
	o->reason = KG_REASON_MAX_POLL;
	sc_obs_push(s, o);
	sc_group_set(s, "skew", KG_STATE_STABLE, "range", "consumer-a=0 1");
	sc_tick(s, 6000);
	v = history_view(tracker_history(s->t), intern_group("skew"), sc_us(s, 0), sc_us(s, 6000));
	for (i = 0; i < v->nlanes; i++) {
		if (strcmp(v->lanes[i].client_id, "consumer-c") == 0) {
			assert_int_equal(v->lanes[i].last_leave, KG_REASON_MAX_POLL);
			found = 1;
		}
	}
	assert_true(found);
	hview_free(v);
	sc_free(s);
}

/* Members first seen together get their letters (lanes) in client id order, not the broker's. */
static void
test_lane_order(void **state)
{
	sc *s = sc_new(3, NULL);
	kg_snapshot *snap;
	const kg_group *G;
	(void)state;
	sc_group_set(s, "ord", KG_STATE_STABLE, "range", "consumer-c=2;consumer-a=0;consumer-b=1");
	snap = sc_tick(s, 0);
	G = snapshot_group(snap, intern_group("ord"));
	assert_int_equal(G->members[group_member_index(G, "consumer-a-m")].lane, 0);
	assert_int_equal(G->members[group_member_index(G, "consumer-b-m")].lane, 1);
	assert_int_equal(G->members[group_member_index(G, "consumer-c-m")].lane, 2);
	sc_free(s);
	/* consumers reporting themselves: c's callback first, all in one batch: still a, b, c */
	s = sc_new(3, NULL);
	sc_group_set(s, "ordx", KG_STATE_EMPTY, "", "");
	sc_group_exact(s, "ordx", true);
	sc_tick(s, 0);
	sc_obs(s, KG_OBS_ASSIGNED, 1010, "ordx", "consumer-c", E, "2");
	sc_obs(s, KG_OBS_ASSIGNED, 1011, "ordx", "consumer-b", E, "1");
	sc_obs(s, KG_OBS_ASSIGNED, 1012, "ordx", "consumer-a", E, "0");
	sc_group_set(s, "ordx", KG_STATE_STABLE, "range", "consumer-c=2;consumer-a=0;consumer-b=1");
	snap = sc_tick(s, 2000);
	G = snapshot_group(snap, intern_group("ordx"));
	assert_int_equal(G->members[group_member_index(G, "consumer-a-m")].lane, 0);
	assert_int_equal(G->members[group_member_index(G, "consumer-b-m")].lane, 1);
	assert_int_equal(G->members[group_member_index(G, "consumer-c-m")].lane, 2);
	sc_free(s);
}

/* Several members joining together are one trigger that names three of them and counts the rest. */
static void
test_joiners_listed(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	const kg_event *e;
	(void)state;
	sc_group_set(s, "p-fleet", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "p-fleet", KG_STATE_PREPARING_REBALANCE, "",
		     "consumer-a;consumer-b;consumer-c;consumer-d;consumer-e;consumer-f");
	sc_tick(s, 1000);
	sc_group_set(s, "p-fleet", KG_STATE_STABLE, "range",
		     "consumer-a=0;consumer-b=1;consumer-c=2;consumer-d=3;consumer-e=4;consumer-f=5");
	sc_tick(s, 2000);
	n = episodes(s, "p-fleet", &ep);
	assert_int_equal(n, 1);
	assert_string_equal(ep[0].trigger_text, "joined: consumer-c, consumer-d, consumer-e and 1 more");
	episodes_free(ep, n);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(e);
	assert_non_null(strstr(e->text, "joined: consumer-c, consumer-d, consumer-e and 1 more;"));
	/* a later lone joiner, in a new episode, is named alone */
	sc_group_set(s, "p-fleet", KG_STATE_PREPARING_REBALANCE, "",
		     "consumer-a;consumer-b;consumer-c;consumer-d;consumer-e;consumer-f;consumer-g");
	sc_tick(s, 30000);
	sc_group_set(s, "p-fleet", KG_STATE_STABLE, "range",
		     "consumer-a=0;consumer-b=1;consumer-c=2;consumer-d=3;consumer-e=4;consumer-f=5;consumer-g");
	sc_tick(s, 31000);
	n = episodes(s, "p-fleet", &ep);
	assert_int_equal(n, 2);
	assert_string_equal(ep[1].trigger_text, "joined: consumer-g");
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The newcomer's JoinGroup for round two can come before the other members'
 * round-one callbacks (threads): its second JoinGroup still starts round two,
 * so the moving partition is assigned in round two, not one.
 */
static void
test_coop_second_join_is_next_round(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *rv, *as;
	(void)state;
	sc_group_set(s, "r2", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=1 4;consumer-b=0 3;consumer-c=2 5");
	sc_group_exact(s, "r2", true);
	settle_exact(s, "r2", C, 0, "1 4", "0 3", "2 5");
	sc_tick(s, 100);
	sc_tick(s, 2000);
	sc_obs(s, KG_OBS_JOIN_SENT, 8615, "r2", "consumer-d", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 9008, "r2", "consumer-a", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 9008, "r2", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 9009, "r2", "consumer-c", C, "");
	sc_group_set(s, "r2", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky",
		     "consumer-a=1 4;consumer-b=0 3;consumer-c=2 5;consumer-d");
	sc_tick(s, 9100);
	/* d's second JoinGroup first, then the others' round-one callbacks */
	sc_obs(s, KG_OBS_JOIN_SENT, 11617, "r2", "consumer-d", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 11617, "r2", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 11617, "r2", "consumer-a", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 11617, "r2", "consumer-a", C, "");
	sc_obs(s, KG_OBS_REVOKED, 11618, "r2", "consumer-c", C, "2");
	sc_obs(s, KG_OBS_JOIN_SENT, 11618, "r2", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 11618, "r2", "consumer-c", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 11618, "r2", "consumer-c", C, "");
	sc_tick(s, 11700);
	sc_obs(s, KG_OBS_ASSIGNED, 14620, "r2", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 14620, "r2", "consumer-c", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 14620, "r2", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 14620, "r2", "consumer-d", C, "2");
	sc_group_set(s, "r2", KG_STATE_STABLE, "cooperative-sticky",
		     "consumer-a=1 4;consumer-b=0 3;consumer-c=5;consumer-d=2");
	sc_tick(s, 14700);
	sc_tick(s, 17000);
	rv = sc_find(s, KG_EV_REVOKED, "consumer-c", 0);
	as = sc_find(s, KG_EV_ASSIGNED, "consumer-d", 0);
	sc_dump(s);
	assert_non_null(rv);
	assert_non_null(as);
	assert_int_equal(rv->cls, KG_CLASS_INCREMENTAL);
	assert_int_equal(rv->round, 1);
	assert_int_equal(as->round, 2);
	sc_free(s);
}

/*
 * A coordinator log's round of group: "preparing" at prep (old generation
 * gen, a join's reason and text), "stabilized" generation gen + 1 with n
 * members at stab, the leader's assignment at sync.
 */
static void
log_round(sc *s, const char *group, int64_t prep, int64_t stab, int64_t sync, int gen, int n, const char *text)
{
	kg_obs *o = obs_new(KG_OBS_PREPARING, sc_us(s, prep), intern_group(group), "log");
	o->generation = gen;
	o->reason = KG_REASON_JOINED;
	obs_text(o, text);
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_STABILIZED, sc_us(s, stab), intern_group(group), "log");
	o->generation = gen + 1;
	o->nmembers = n;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_SYNCED, sc_us(s, sync), intern_group(group), "log");
	o->generation = gen + 1;
	sc_obs_push(s, o);
}

/*
 * The group's one episode, its one end told: began at start, ended at end
 * (ms), measured (its earliest end is its end: a coordinator timed it),
 * rounds rounds.
 */
static void
assert_one_log_episode(sc *s, const char *group, int64_t start, int64_t end, int rounds)
{
	kg_episode *ep;
	int n = episodes(s, group, &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, start));
	assert_int_equal(ep[0].end_us, sc_us(s, end));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, end));
	assert_int_equal(ep[0].rounds, rounds);
	assert_int_equal(ep[0].evidence, KG_EVID_EXACT);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	episodes_free(ep, n);
}

/* A coordinator's line (the demo's mock cluster) about a group. */
static void
coord_obs(sc *s, kg_obs_kind kind, int64_t ms, const char *group, int generation)
{
	kg_obs *o = obs_new(kind, sc_us(s, ms), intern_group(group), "mock");
	o->generation = generation;
	sc_obs_push(s, o);
}

/*
 * The newcomer's round-two JoinGroup stamped a moment before the
 * coordinator's "preparing" that began round two (two threads' clocks):
 * its second JoinGroup of the episode is still round two's, so the moving
 * partition is assigned in round two.  The demo's order, seen in a loaded
 * run: d's first JoinGroup reported after round two began.
 */
static void
test_coop_second_join_stamped_early(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *as;
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "r2e", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=1 4;consumer-b=0 3;consumer-c=2 5");
	sc_group_exact(s, "r2e", true);
	settle_exact(s, "r2e", C, 0, "1 4", "0 3", "2 5");
	sc_tick(s, 100);
	sc_tick(s, 2000);
	sc_group_set(s, "r2e", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a=1 4;consumer-b=0 3;consumer-c=2 5");
	sc_tick(s, 8728); /* polling opens the episode; d is not described yet */
	coord_obs(s, KG_OBS_PREPARING, 8635, "r2e", 2);
	sc_obs(s, KG_OBS_JOIN_SENT, 9033, "r2e", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 9034, "r2e", "consumer-c", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 9034, "r2e", "consumer-a", C, "");
	coord_obs(s, KG_OBS_STABILIZED, 11637, "r2e", 3);
	sc_obs(s, KG_OBS_ASSIGNED, 11638, "r2e", "consumer-b", C, "");
	sc_obs(s, KG_OBS_REVOKED, 11638, "r2e", "consumer-c", C, "2");
	sc_obs(s, KG_OBS_ASSIGNED, 11638, "r2e", "consumer-a", C, "");
	coord_obs(s, KG_OBS_PREPARING, 11639, "r2e", 3);
	sc_obs(s, KG_OBS_ASSIGNED, 11639, "r2e", "consumer-c", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 11639, "r2e", "consumer-c", C, "");
	sc_tick(s, 11700);
	/* d's two JoinGroups reported late, in the next batch; the second stamped before round two's start */
	sc_obs(s, KG_OBS_JOINED, 8635, "r2e", "consumer-d", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 8635, "r2e", "consumer-d", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 11638, "r2e", "consumer-d", C, "");
	sc_group_set(s, "r2e", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky",
		     "consumer-a=1 4;consumer-b=0 3;consumer-c=5;consumer-d");
	sc_tick(s, 11800);
	sc_obs(s, KG_OBS_JOIN_SENT, 12639, "r2e", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 12640, "r2e", "consumer-a", C, "");
	sc_tick(s, 12700);
	coord_obs(s, KG_OBS_STABILIZED, 14647, "r2e", 4);
	sc_obs(s, KG_OBS_ASSIGNED, 14647, "r2e", "consumer-d", C, "2");
	sc_obs(s, KG_OBS_ASSIGNED, 14648, "r2e", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 14648, "r2e", "consumer-c", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 14648, "r2e", "consumer-b", C, "");
	sc_group_set(s, "r2e", KG_STATE_STABLE, "cooperative-sticky",
		     "consumer-a=1 4;consumer-b=0 3;consumer-c=5;consumer-d=2");
	sc_tick(s, 14740);
	sc_tick(s, 17000);
	sc_dump(s);
	as = sc_find(s, KG_EV_ASSIGNED, "consumer-d", 0);
	assert_non_null(as);
	assert_int_equal(as->round, 2);
	n = episodes(s, "r2e", &ep);
	assert_int_equal(ep[n - 1].rounds, 2);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A member that left comes back during the next episode: its JoinGroups
 * count from that episode, not from the one it last joined in.  The demo's
 * order: a's own "lost" callback opens the episode while a is gone, d's
 * JoinGroup is seen before a's, and after the first sync both rejoin.  Two
 * rounds, as the coordinator ran two generations (a stale round count of
 * a's made its second JoinGroup a third round).
 */
static void
test_coop_rejoin_after_leave_rounds(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	kg_obs *o;
	const kg_event *as;
	int n;
	(void)state;
	sc_group_set(s, "back", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=3 4 5;consumer-d=0 1 2");
	sc_group_exact(s, "back", true);
	sc_tick(s, 0);
	/* an episode both join in: a's JoinGroup of round one */
	sc_obs(s, KG_OBS_JOIN_SENT, 1000, "back", "consumer-a", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 1000, "back", "consumer-d", C, "");
	sc_group_set(s, "back", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a=3 4 5;consumer-d=0 1 2");
	sc_tick(s, 1100);
	sc_obs(s, KG_OBS_ASSIGNED, 2000, "back", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 2000, "back", "consumer-d", C, "");
	sc_group_set(s, "back", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=3 4 5;consumer-d=0 1 2");
	sc_tick(s, 2100);
	sc_tick(s, 5000);
	/* a is taken out (max.poll.interval.ms); d gets everything */
	o = obs_new(KG_OBS_LEFT, sc_us(s, 10000), intern_group("back"), "log");
	obs_member(o, "consumer-a-m", "consumer-a", NULL, NULL);
	o->reason = KG_REASON_MAX_POLL;
	sc_obs_push(s, o);
	sc_obs(s, KG_OBS_JOIN_SENT, 10001, "back", "consumer-d", C, "");
	sc_group_set(s, "back", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-d=0 1 2");
	sc_tick(s, 10100);
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "back", "consumer-d", C, "3 4 5");
	sc_group_set(s, "back", KG_STATE_STABLE, "cooperative-sticky", "consumer-d=0 1 2 3 4 5");
	sc_tick(s, 13100);
	sc_tick(s, 20000);
	/* a polls again: its own "lost" opens the episode; d's JoinGroup is seen before a's */
	o = obs_new(KG_OBS_LOST, sc_us(s, 25000), intern_group("back"), "test");
	obs_member(o, "consumer-a-m", "consumer-a", NULL, "/127.0.0.1");
	o->proto = C;
	o->reason = KG_REASON_MAX_POLL;
	sc_obs_push(s, o);
	sc_obs(s, KG_OBS_JOIN_SENT, 25300, "back", "consumer-d", C, "");
	sc_obs(s, KG_OBS_JOINED, 25002, "back", "consumer-a", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 25002, "back", "consumer-a", C, "");
	sc_group_set(s, "back", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-d=0 1 2 3 4 5;consumer-a");
	sc_tick(s, 25400);
	/* round one synced: d gives up 0 1 2; both rejoin for round two */
	sc_obs(s, KG_OBS_REVOKED, 28000, "back", "consumer-d", C, "0 1 2");
	sc_obs(s, KG_OBS_ASSIGNED, 28000, "back", "consumer-d", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 28000, "back", "consumer-d", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 28001, "back", "consumer-a", C, "");
	sc_tick(s, 28100);
	sc_obs(s, KG_OBS_ASSIGNED, 31000, "back", "consumer-d", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 31000, "back", "consumer-a", C, "0 1 2");
	sc_group_set(s, "back", KG_STATE_STABLE, "cooperative-sticky", "consumer-d=3 4 5;consumer-a=0 1 2");
	sc_tick(s, 31100);
	sc_tick(s, 35000);
	n = episodes(s, "back", &ep);
	sc_dump(s);
	assert_true(n >= 3);
	assert_int_equal(ep[n - 1].rounds, 2);
	episodes_free(ep, n);
	as = sc_find(s, KG_EV_ASSIGNED, "consumer-a", sc_count(s, KG_EV_ASSIGNED, "consumer-a") - 1);
	assert_non_null(as);
	assert_int_equal(as->round, 2);
	sc_free(s);
}

/*
 * Polling a broker, cooperative: round one ends Stable with the moving
 * partition owned by nobody; round two assigns it.  One episode, two
 * rounds, an incremental revoke, no full one.
 */
static void
test_polled_coop_join(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	const kg_event *rv, *as;
	(void)state;
	sc_group_set(s, "p-coop", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 4;consumer-b=1 2;consumer-c=3 5");
	sc_tick(s, 0);
	sc_group_set(s, "p-coop", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b;consumer-c;consumer-d");
	{
		kg_snapshot *snap = sc_tick(s, 1000);
		const kg_group *G = snapshot_group(snap, intern_group("p-coop"));
		/* described without assignor and assignments, yet cooperative members keep consuming */
		assert_int_equal(G->proto, KG_PROTO_COOPERATIVE);
		assert_string_equal(G->assignor, "cooperative-sticky");
		assert_int_equal(G->parts[1].owner, group_member_index(G, "consumer-b-m"));
		assert_int_equal(G->members[group_member_index(G, "consumer-b-m")].nassigned, 0);
	}
	assert_int_equal(sc_count(s, KG_EV_REVOKED, NULL), 0); /* cooperative: nothing implied */
	sc_group_set(s, "p-coop", KG_STATE_COMPLETING_REBALANCE, "", "consumer-a;consumer-b;consumer-c;consumer-d");
	sc_tick(s, 2000);
	sc_group_set(s, "p-coop", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d");
	sc_tick(s, 3000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 0); /* [4] is orphaned: round two to come */
	sc_group_set(s, "p-coop", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b;consumer-c;consumer-d");
	sc_tick(s, 4000);
	sc_group_set(s, "p-coop", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d=4");
	sc_tick(s, 5000);
	rv = sc_find(s, KG_EV_REVOKED, "consumer-a", 0);
	as = sc_find(s, KG_EV_ASSIGNED, "consumer-d", 0);
	assert_text(rv, "consumer-a revoked [4] of [0 4] (incremental) [polled]");
	assert_int_equal(rv->round, 1);
	assert_int_equal(as->round, 2);
	assert_int_equal(sc_count_revokes(s, "p-coop", NULL, KG_CLASS_FULL), 0);
	assert_int_equal(sc_count(s, KG_EV_REVOKED, "consumer-b"), 0);
	assert_int_equal(sc_count(s, KG_EV_ROUND, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	n = episodes(s, "p-coop", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].rounds, 2);
	assert_int_equal(ep[0].nincremental, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 1000));
	assert_int_equal(ep[0].end_us, sc_us(s, 5000));
	/* b never stopped; d joined and waited for round two */
	assert_int_equal(episode_member(&ep[0], 1)->stopped_us, 0);
	assert_true(episode_member(&ep[0], 3)->joined);
	assert_false(episode_member(&ep[0], 0)->joined);
	episodes_free(ep, n);
	/* a join older than the last rebalance's end is not this rebalance's */
	n = episodes(s, "p-coop", &ep);
	assert_true(episode_member(&ep[0], 3)->stopped_us >= 4000000);
	episodes_free(ep, n);
	sc_free(s);
}

/* Member status along a polled cooperative rebalance. */
static void
test_status(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_snapshot *snap;
	const kg_group *G;
	(void)state;
	sc_group_set(s, "st", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 4;consumer-b=1 2;consumer-c=3 5");
	sc_tick(s, 0);
	sc_group_set(s, "st", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d");
	snap = sc_tick(s, 1000);
	G = snapshot_group(snap, intern_group("st"));
	assert_true(G->sum.in_episode);
	assert_int_equal(G->members[group_member_index(G, "consumer-a-m")].status, KG_MEMBER_PARTIAL);
	assert_int_equal(G->members[group_member_index(G, "consumer-b-m")].status, KG_MEMBER_CONSUMING);
	assert_int_equal(G->members[group_member_index(G, "consumer-d-m")].status, KG_MEMBER_STOPPED);
	assert_int_equal(G->norphaned, 0); /* in flight between the rounds, not orphaned */
	assert_true(G->parts[4].in_flight);
	sc_group_set(s, "st", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d=4");
	snap = sc_tick(s, 2000);
	G = snapshot_group(snap, intern_group("st"));
	assert_false(G->sum.in_episode);
	assert_int_equal(G->members[group_member_index(G, "consumer-a-m")].status, KG_MEMBER_CONSUMING);
	/* the moved mark: 4 came from a's lane */
	assert_true(G->parts[4].moved);
	assert_int_equal(G->parts[4].moved_from, G->members[group_member_index(G, "consumer-a-m")].lane);
	assert_false(G->parts[0].moved);
	assert_int_equal(G->sum.rebalances_1h, 1);
	/* finding 2: a cooperative move takes two generations, whatever polling saw of them: at least two */
	assert_int_equal(G->sum.rounds, 2);
	assert_true(G->sum.rounds_min);
	/* not asked again: the next snapshots keep its rows (rows.h), the moved mark in them, no copy made */
	sc_group_data_time(s, "st", 2000);
	sc_tick(s, 3000);
	sc_tick(s, 4000); /* (3000 was the first at that data time: the rows of 4000 are the first the next may keep) */
	snap = sc_tick(s, 5000);
	G = snapshot_group(snap, intern_group("st"));
	assert_true(G->kept);
	assert_true(G->parts[4].moved);
	assert_int_equal(G->parts[4].moved_from, G->members[group_member_index(G, "consumer-a-m")].lane);
	assert_false(G->parts[0].moved);
	assert_int_equal(G->members[group_member_index(G, "consumer-d-m")].status, KG_MEMBER_CONSUMING);
	sc_free(s);
}

/*
 * Moves callbacks told while the description stood still (rows kept,
 * rows.h): the marks of the new moves in a copy that starts unmarked (not
 * the formation's any more), then kept with them.
 */
static void
test_kept_rows_marked_anew(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_snapshot *snap;
	const kg_group *G;
	int lane_b;
	(void)state;
	sc_group_exact(s, "km", true);
	sc_group_set(s, "km", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3");
	sc_group_data_time(s, "km", 0);
	sc_obs(s, KG_OBS_ASSIGNED, 0, "km", "consumer-a", C, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 0, "km", "consumer-b", C, "2 3");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	snap = sc_tick(s, 2000);
	G = snapshot_group(snap, intern_group("km"));
	assert_true(G->kept);
	assert_true(G->parts[0].moved); /* the formation's marks: every partition got its first owner */
	lane_b = G->members[group_member_index(G, "consumer-b-m")].lane;
	/* b hands 3 to a in two cooperative rounds, told by their callbacks alone */
	sc_obs(s, KG_OBS_JOIN_SENT, 2100, "km", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 2100, "km", "consumer-a", C, "");
	sc_obs(s, KG_OBS_REVOKED, 2200, "km", "consumer-b", C, "3");
	sc_obs(s, KG_OBS_ASSIGNED, 2300, "km", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 2300, "km", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 2400, "km", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 2500, "km", "consumer-a", C, "3");
	sc_obs(s, KG_OBS_ASSIGNED, 2500, "km", "consumer-b", C, "");
	snap = sc_tick(s, 3000);
	G = snapshot_group(snap, intern_group("km"));
	assert_false(G->sum.in_episode);
	assert_true(G->parts[3].moved);
	assert_int_equal(G->parts[3].moved_from, lane_b);
	assert_false(G->parts[0].moved); /* not the formation's any more */
	snap = sc_tick(s, 4000);
	G = snapshot_group(snap, intern_group("km"));
	assert_true(G->kept); /* those marks kept */
	assert_true(G->parts[3].moved);
	assert_false(G->parts[0].moved);
	sc_free(s);
}

/* A member that leaves between two refreshes: one short episode; no commit or silence seen: the cause unknown. */
static void
test_polled_leave(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	(void)state;
	sc_group_set(s, "lv", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 0);
	sc_group_set(s, "lv", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 1000);
	e = sc_find(s, KG_EV_MEMBER_LEFT, "consumer-c", 0);
	/* no commit seen: a timeout is as possible as a leave (test_progress: the reasons commits give) */
	assert_text(e, "consumer-c left (unknown) holding [4 5]");
	assert_int_equal(e->reason, KG_REASON_UNKNOWN);
	e = sc_find(s, KG_EV_REBALANCE_START, NULL, 0);
	assert_string_equal(e->text, "left: consumer-c (unknown)");
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	assert_int_equal(sc_count_revokes(s, "lv", NULL, KG_CLASS_FULL), 2);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(strstr(e->text, "between two refreshes"));
	assert_int_equal(e->reason, KG_REASON_UNKNOWN);
	sc_free(s);
}

/*
 * The same seen by a description asked before its refresh (as every real
 * one is): the episode polling opens on that description is over in it.
 * Only a coordinator's line or record newer than a description holds the
 * close (poll_predates); the refresh that opened the episode is no such
 * line, and the episode ends in that refresh, between two refreshes.
 */
static void
test_polled_leave_asked_before(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	(void)state;
	sc_group_set(s, "lw", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 0);
	sc_group_set(s, "lw", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_group_data_time(s, "lw", 900);
	sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(strstr(e->text, "between two refreshes"));
	sc_free(s);
}

/* A reason reported by a callback source is kept when polling later sees the member gone. */
static void
test_leave_reason(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_obs *o;
	const kg_event *e;
	kg_snapshot *snap;
	(void)state;
	sc_group_set(s, "lr", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	o = obs_new(KG_OBS_LEFT, sc_us(s, 900), intern_group("lr"), "log");
	obs_member(o, "consumer-b-m", "consumer-b", NULL, NULL);
	o->reason = KG_REASON_MAX_POLL;
	obs_text(o, "consumer poll timeout has expired");
	sc_obs_push(s, o);
	sc_group_set(s, "lr", KG_STATE_PREPARING_REBALANCE, "", "consumer-a");
	snap = sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, "consumer-b"), 1);
	e = sc_find(s, KG_EV_MEMBER_LEFT, "consumer-b", 0);
	assert_int_equal(e->time_us, sc_us(s, 900));
	assert_text(e, "consumer-b left (max.poll.interval: consumer poll timeout has expired) holding [3 4 5]");
	e = sc_find(s, KG_EV_REBALANCE_START, NULL, 0);
	assert_int_equal(e->reason, KG_REASON_MAX_POLL);
	assert_string_equal(e->text, "left: consumer-b (max.poll.interval)");
	(void)snap;
	sc_free(s);
}

/* An extra eager round (the mock does that under load) is still all full revokes, two rounds. */
static void
test_exact_eager_extra_round(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "x", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	sc_group_exact(s, "x", true);
	sc_obs(s, KG_OBS_ASSIGNED, 0, "x", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 0, "x", "consumer-b", E, "2 3");
	sc_tick(s, 100);
	sc_tick(s, 2000);
	sc_obs(s, KG_OBS_REVOKED, 5000, "x", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_REVOKED, 5000, "x", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, 6000, "x", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 6000, "x", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_REVOKED, 6100, "x", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_REVOKED, 6100, "x", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, 7000, "x", "consumer-a", E, "0");
	sc_obs(s, KG_OBS_ASSIGNED, 7000, "x", "consumer-b", E, "2");
	sc_obs(s, KG_OBS_ASSIGNED, 7000, "x", "consumer-c", E, "1 3");
	sc_group_set(s, "x", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=2;consumer-c=1 3");
	sc_tick(s, 7100);
	sc_tick(s, 9000);
	assert_int_equal(sc_count_revokes(s, "x", NULL, KG_CLASS_FULL), 4);
	assert_int_equal(sc_count_revokes(s, "x", NULL, KG_CLASS_INCREMENTAL), 0);
	n = episodes(s, "x", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[1].rounds, 2);
	assert_int_equal(ep[1].end_us, sc_us(s, 7000));
	episodes_free(ep, n);
	sc_free(s);
}

/* Partitions nobody owns in a stable group: the episode closes after the grace, orphans reported. */
static void
test_orphans(void **state)
{
	kg_tracker_config cfg;
	sc *s;
	const kg_event *e;
	(void)state;
	cfg = options_model_defaults();
	cfg.orphan_grace_us = 5000000;
	s = sc_new(6, &cfg);
	sc_group_set(s, "o", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "o", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4 5");
	sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	sc_tick(s, 3000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 0);
	sc_tick(s, 7000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	e = sc_find(s, KG_EV_ORPHANED, NULL, 0);
	assert_non_null(e);
	assert_int_equal(e->nparts, 1);
	assert_int_equal(e->parts[0].partition, 2);
	sc_tick(s, 8000);
	assert_int_equal(sc_count(s, KG_EV_ORPHANED, NULL), 1); /* reported once */
	sc_free(s);
}

/* Several rebalances in a short window make a storm; a quiet window ends it. */
static void
test_storm(void **state)
{
	sc *s = sc_new(4, NULL);
	int i;
	int64_t t = 0;
	kg_snapshot *snap;
	(void)state;
	sc_group_set(s, "s", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, t);
	for (i = 0; i < 3; i++) {
		t += 20000;
		sc_group_set(s, "s", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b");
		sc_tick(s, t);
		t += 5000;
		sc_group_set(s, "s", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
		snap = sc_tick(s, t);
	}
	assert_int_equal(sc_count(s, KG_EV_STORM_BEGIN, NULL), 1);
	assert_true(snapshot_group(snap, intern_group("s"))->sum.storm);
	assert_int_equal(snapshot_group(snap, intern_group("s"))->sum.rebalances_1h, 3);
	snap = sc_tick(s, t + 400000);
	assert_int_equal(sc_count(s, KG_EV_STORM_END, NULL), 1);
	assert_false(snapshot_group(snap, intern_group("s"))->sum.storm);
	sc_free(s);
}

/* More time rebalancing than consuming is a storm even with two long rebalances. */
static void
test_storm_ratio(void **state)
{
	sc *s = sc_new(4, NULL);
	(void)state;
	sc_group_set(s, "r", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, 0);
	sc_group_set(s, "r", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b");
	sc_tick(s, 10000);
	sc_group_set(s, "r", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, 50000);
	sc_group_set(s, "r", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b");
	sc_tick(s, 55000);
	sc_tick(s, 90000);
	assert_int_equal(sc_count(s, KG_EV_STORM_BEGIN, NULL), 1);
	sc_free(s);
}

/* One rebalance that keeps starting new rounds (members dropping out of it) is a storm too. */
static void
test_storm_rounds(void **state)
{
	sc *s = sc_new(2, NULL);
	int i;
	(void)state;
	sc_group_set(s, "rr", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1");
	sc_tick(s, 0);
	for (i = 0; i < 8; i++) {
		sc_group_set(s, "rr", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b");
		sc_tick(s, 10000 + (int64_t)i * 10000);
		/* round done, but partition 1 has no owner again: not settled */
		sc_group_set(s, "rr", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b");
		sc_tick(s, 15000 + (int64_t)i * 10000);
	}
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_STORM_BEGIN, NULL), 1);
	sc_free(s);
}

/* A storm's words, or NULL when there was none. */
static const char *
storm_text(sc *s)
{
	const kg_event *e = sc_find(s, KG_EV_STORM_BEGIN, NULL, 0);
	return e != NULL ? e->text : NULL;
}

/*
 * Storms that are storms (issue 22), with the defaults (3 rebalances of
 * the same member, or nothing explains, in 5 minutes): a group that forms,
 * six members joining 1.5 s apart (each join a rebalance, polled every
 * half second), is no storm; before, it was flagged after the third join.
 */
static void
test_storm_formation(void **state)
{
	sc *s = sc_new(12, NULL);
	static const char *const stable[] = {
		"c1=0 1 2 3 4 5 6 7 8 9 10 11", "c1=0 1 2 3 4 5;c2=6 7 8 9 10 11", "c1=0 1 2 3;c2=4 5 6 7;c3=8 9 10 11",
		"c1=0 1 2;c2=3 4 5;c3=6 7 8;c4=9 10 11", "c1=0 1 2;c2=3 4 5;c3=6 7;c4=8 9;c5=10 11",
		"c1=0 1;c2=2 3;c3=4 5;c4=6 7;c5=8 9;c6=10 11",
	};
	static const char *const joining[] = { "c1", "c1;c2", "c1;c2;c3", "c1;c2;c3;c4", "c1;c2;c3;c4;c5", "c1;c2;c3;c4;c5;c6" };
	int i;
	int64_t t = 0;
	(void)state;
	sc_group_set(s, "f", KG_STATE_EMPTY, "", "");
	sc_tick(s, t);
	for (i = 0; i < 6; i++) {
		sc_group_set(s, "f", KG_STATE_PREPARING_REBALANCE, "", joining[i]);
		sc_tick(s, t += 500);
		sc_group_set(s, "f", KG_STATE_STABLE, "range", stable[i]);
		sc_tick(s, t += 1000);
	}
	sc_tick(s, t += 60000);
	assert_true(sc_count(s, KG_EV_REBALANCE_END, NULL) >= 5);
	assert_null(storm_text(s));
	sc_free(s);
}

/* A rolling restart of four members (each leaves, then comes back under a new member id): no storm. */
static void
test_storm_rolling_restart(void **state)
{
	sc *s = sc_new(8, NULL);
	static const char *const out[] = { "b/b-m/=0 1 2;c/c-m/=3 4 5;d/d-m/=6 7", "a/a-2/=0 1 2;c/c-m/=3 4 5;d/d-m/=6 7",
					   "a/a-2/=0 1 2;b/b-2/=3 4 5;d/d-m/=6 7", "a/a-2/=0 1 2;b/b-2/=3 4 5;c/c-2/=6 7" };
	static const char *const back[] = { "a/a-2/=0 1;b/b-m/=2 3;c/c-m/=4 5;d/d-m/=6 7",
					    "a/a-2/=0 1;b/b-2/=2 3;c/c-m/=4 5;d/d-m/=6 7",
					    "a/a-2/=0 1;b/b-2/=2 3;c/c-2/=4 5;d/d-m/=6 7",
					    "a/a-2/=0 1;b/b-2/=2 3;c/c-2/=4 5;d/d-2/=6 7" };
	int i;
	int64_t t = 0;
	(void)state;
	sc_group_set(s, "rr", KG_STATE_STABLE, "range", "a/a-m/=0 1;b/b-m/=2 3;c/c-m/=4 5;d/d-m/=6 7");
	sc_tick(s, t);
	for (i = 0; i < 4; i++) {
		sc_group_set(s, "rr", KG_STATE_STABLE, "range", out[i]); /* it left: the others took its partitions */
		sc_tick(s, t += 5000);
		sc_group_set(s, "rr", KG_STATE_STABLE, "range", back[i]); /* back, a new member id */
		sc_tick(s, t += 5000);
	}
	sc_tick(s, t += 5000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 8);
	assert_null(storm_text(s));
	sc_free(s);
}

/*
 * The demo's cooperative group, one loop of its default script: a fourth
 * member joins (two rounds), a member leaves, one crashes (removed on its
 * session timeout), one stalls (removed on max.poll.interval.ms) and
 * comes back, the group is refilled to three: six rebalances, no member
 * in more than two of them: no storm (before: flagged at the third).
 */
static void
test_storm_demo_loop(void **state)
{
	sc *s = sc_new(6, NULL);
	static const struct {
		kg_group_state st;
		const char *members;
	} steps[] = {
		{ KG_STATE_PREPARING_REBALANCE, "a/a-1/;b/b-1/;c/c-1/;d/d-1/" },
		{ KG_STATE_STABLE, "a/a-1/=0 1;b/b-1/=2 3;c/c-1/=4" }, /* round one: 5 withheld */
		{ KG_STATE_PREPARING_REBALANCE, "a/a-1/;b/b-1/;c/c-1/;d/d-1/" },
		{ KG_STATE_STABLE, "a/a-1/=0 1;b/b-1/=2 3;c/c-1/=4;d/d-1/=5" },
		{ KG_STATE_PREPARING_REBALANCE, "a/a-1/;c/c-1/;d/d-1/" }, /* b leaves */
		{ KG_STATE_STABLE, "a/a-1/=0 1;c/c-1/=2 3 4;d/d-1/=5" },
		{ KG_STATE_PREPARING_REBALANCE, "a/a-1/;d/d-1/" }, /* c crashed, removed */
		{ KG_STATE_STABLE, "a/a-1/=0 1 2;d/d-1/=3 4 5" },
		{ KG_STATE_PREPARING_REBALANCE, "d/d-1/" }, /* a stalled, removed */
		{ KG_STATE_STABLE, "d/d-1/=0 1 2 3 4 5" },
		{ KG_STATE_PREPARING_REBALANCE, "a/a-2/;d/d-1/" }, /* a back */
		{ KG_STATE_STABLE, "a/a-2/=0 1 2;d/d-1/=3 4 5" },
		{ KG_STATE_PREPARING_REBALANCE, "a/a-2/;b/b-2/;c/c-2/;d/d-1/" }, /* refilled */
		{ KG_STATE_STABLE, "a/a-2/=0 1;b/b-2/=2;c/c-2/=3;d/d-1/=4 5" },
	};
	size_t i;
	int64_t t = 0;
	(void)state;
	sc_group_set(s, "coop", KG_STATE_STABLE, "cooperative-sticky", "a/a-1/=0 1;b/b-1/=2 3;c/c-1/=4 5");
	sc_tick(s, t);
	for (i = 0; i < KG_ARRAY_LEN(steps); i++) {
		sc_group_set(s, "coop", steps[i].st, steps[i].st == KG_STATE_STABLE ? "cooperative-sticky" : "",
			     steps[i].members);
		sc_tick(s, t += 2000);
	}
	sc_tick(s, t += 4000);
	assert_true(sc_count(s, KG_EV_REBALANCE_END, NULL) >= 5);
	assert_null(storm_text(s));
	sc_free(s);
}

/* A real storm: the same member leaves and comes back again and again (a crash loop): a storm naming it. */
static void
test_storm_churn(void **state)
{
	sc *s = sc_new(4, NULL);
	int i;
	int64_t t = 0;
	char m[64];
	(void)state;
	sc_group_set(s, "loop", KG_STATE_STABLE, "range", "a/a-m/=0 1;c/c-0/=2 3");
	sc_tick(s, t);
	for (i = 1; i <= 3 && storm_text(s) == NULL; i++) {
		sc_group_set(s, "loop", KG_STATE_STABLE, "range", "a/a-m/=0 1 2 3"); /* c gone */
		sc_tick(s, t += 10000);
		snprintf(m, sizeof m, "a/a-m/=0 1;c/c-%d/=2 3", i); /* c back, a new member id */
		sc_group_set(s, "loop", KG_STATE_STABLE, "range", m);
		sc_tick(s, t += 10000);
	}
	assert_non_null(storm_text(s));
	assert_non_null(strstr(storm_text(s), "c joined or left in 3 rebalances"));
	assert_true(t <= 40000); /* at its second leave and come-back at the latest */
	sc_free(s);
}

/* One long rebalance of a single round is stuck, not a storm. */
static void
test_stuck_is_not_storm(void **state)
{
	sc *s = sc_new(4, NULL);
	(void)state;
	sc_group_set(s, "st1", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, 0);
	sc_group_set(s, "st1", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b");
	sc_tick(s, 10000);
	sc_tick(s, 50000);
	sc_tick(s, 90000);
	assert_int_equal(sc_count(s, KG_EV_STORM_BEGIN, NULL), 0);
	sc_free(s);
}

/* A group whose describe failed for a moment (no members, state unknown) is not a rebalance. */
static void
test_describe_error_is_not_a_rebalance(void **state)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_evlist ev = { 0 };
	int32_t topic = intern_topic(SC_TOPIC), gid = intern_group("derr");
	kg_tp a[2] = { { topic, 0 }, { topic, 1 } };
	int round;
	(void)state;
	for (round = 0; round < 3; round++) {
		kg_builder *b = builder_new(1000000 + round * 1000000);
		kg_bgroup *g = builder_group(b, gid);
		kg_snapshot *snap;
		builder_topic(b, topic, 2);
		if (round == 1) {
			bgroup_error(g, "coordinator load in progress");
		} else {
			kg_bmember *m = bgroup_member(g, "a-1");
			bgroup_state(g, KG_STATE_STABLE);
			bgroup_protocol(g, "consumer", "range");
			bmember_ids(m, "a", "/h", NULL);
			bmember_assignment(m, a, 2);
		}
		snap = builder_finish(b);
		tracker_apply(t, NULL, snap, &ev);
		snapshot_unref(snap);
	}
	assert_int_equal(ev.n, 0);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
}

/*
 * Everybody leaves between two refreshes (static members closed without
 * LeaveGroup, dropped on their session timeout): the coordinator's last
 * generation empties the group, a rebalance polling counts (it counted
 * none: the Kafka harness's t_static.sh), begun and ended at once; no
 * rebalance stays open.
 */
static void
test_empty_closes(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_snapshot *snap;
	const kg_event *e;
	(void)state;
	sc_group_set(s, "emp", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=1");
	sc_tick(s, 0);
	sc_group_set(s, "emp", KG_STATE_EMPTY, "", "");
	sc_tick(s, 1000);
	snap = sc_tick(s, 60000);
	assert_false(snapshot_group(snap, intern_group("emp"))->sum.in_episode);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, NULL), 2);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(e);
	assert_true(e->duration.min == 0 && e->duration.max <= 1000000); /* between the two refreshes */
	assert_int_equal(e->nunconsumed, 2);
	assert_true(e->unconsumed_us.min == 0); /* polling proves no stretch; no commit seen: no upper bound either */
	assert_int_equal(sc_count(s, KG_EV_STORM_BEGIN, NULL), 0);
	/* the group forms again later: a formation, not a second rebalance of the old members */
	sc_group_set(s, "emp", KG_STATE_STABLE, "range", "consumer-c=0 1");
	sc_tick(s, 61000);
	sc_tick(s, 62000);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 1);
	assert_true(e == NULL || strstr(e->text, "group formed") != NULL);
	sc_free(s);
}

/* An eager episode that stays open while Stable does not repeat assignments or invent revokes. */
static void
test_eager_no_repeats(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "rep", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "rep", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b;consumer-c");
	sc_tick(s, 1000);
	/* Stable, but partition 5 has no owner: the episode stays open for the grace */
	sc_group_set(s, "rep", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4");
	sc_tick(s, 2000);
	sc_tick(s, 3000);
	sc_tick(s, 4000);
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, "consumer-a"), 1);
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, "consumer-c"), 1);
	assert_int_equal(sc_count(s, KG_EV_REVOKED, "consumer-c"), 0);
	assert_int_equal(sc_count_revokes(s, "rep", NULL, KG_CLASS_FULL), 2);
	sc_free(s);
}

/* A member known from callbacks whose assign never arrives does not hold a polled episode open. */
static void
test_callback_gap_in_polled_group(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_snapshot *snap;
	(void)state;
	sc_group_set(s, "gap", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, 0);
	sc_obs(s, KG_OBS_REVOKED, 500, "gap", "consumer-a", C, "1");
	sc_group_set(s, "gap", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=2 3;consumer-c=1");
	sc_tick(s, 1000);
	sc_tick(s, 2000);
	snap = sc_tick(s, 30000);
	assert_false(snapshot_group(snap, intern_group("gap"))->sum.in_episode);
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, "consumer-c"), 1);
	sc_free(s);
}

/* A static member replaced (coordinator log) and seen back with a new id: no rebalance. */
static void
test_static_replaced_in_log(void **state)
{
	kg_tracker_config mc2 = options_model_defaults();
	kg_tracker *t = tracker_new(&mc2);
	kg_evlist ev = { 0 };
	kg_obsq q = { 0 };
	int32_t topic = intern_topic(SC_TOPIC), gid = intern_group("static-log");
	kg_tp a[2] = { { topic, 0 }, { topic, 1 } }, b2[2] = { { topic, 2 }, { topic, 3 } };
	int round, back = 0, starts = 0;
	size_t i;
	(void)state;
	for (round = 0; round < 2; round++) {
		kg_builder *b = builder_new(1000000 + round * 1000000);
		kg_bgroup *g = builder_group(b, gid);
		kg_bmember *m;
		kg_snapshot *snap;
		if (round == 1) {
			kg_obs *o = obs_new(KG_OBS_STATIC_REPLACED, 1500000, gid, "log");
			obs_member(o, "static-a-1111", NULL, "pod-a", NULL);
			obsq_push(&q, o);
		}
		builder_topic(b, topic, 4);
		bgroup_state(g, KG_STATE_STABLE);
		bgroup_protocol(g, "consumer", "range");
		m = bgroup_member(g, round == 0 ? "static-a-1111" : "static-a-2222");
		bmember_ids(m, "static-a", "/10.0.0.1", "pod-a");
		bmember_assignment(m, a, 2);
		m = bgroup_member(g, "static-b-3333");
		bmember_ids(m, "static-b", "/10.0.0.2", "pod-b");
		bmember_assignment(m, b2, 2);
		snap = builder_finish(b);
		tracker_apply(t, &q, snap, &ev);
		snapshot_unref(snap);
	}
	for (i = 0; i < ev.n; i++) {
		back += ev.v[i]->kind == KG_EV_MEMBER_BACK;
		starts += ev.v[i]->kind == KG_EV_REBALANCE_START;
	}
	assert_int_equal(back, 1);
	assert_int_equal(starts, 0);
	{
		/* the old member id went because it was replaced: the health view can say so */
		kg_hview *v = history_view(tracker_history(t), gid, 0, 3000000);
		int found = 0;
		for (i = 0; i < (size_t)v->nlanes; i++) {
			if (v->lanes[i].instance_id != NULL && strcmp(v->lanes[i].instance_id, "pod-a") == 0) {
				assert_int_equal(v->lanes[i].last_leave, KG_REASON_REPLACED);
				found = 1;
			}
		}
		assert_true(found);
		hview_free(v);
	}
	evlist_clear(&ev);
	free(ev.v);
	free(q.v);
	tracker_free(t);
}

/* A leave reason from a log line that arrives after polling saw the member gone is kept. */
static void
test_late_leave_reason(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_obs *o;
	kg_snapshot *snap;
	const kg_group *G;
	int i;
	bool found = false;
	(void)state;
	sc_group_set(s, "late", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "late", KG_STATE_STABLE, "range", "consumer-a=0 1 2 3 4 5");
	sc_tick(s, 1000); /* polling: consumer-b left, reason unknown */
	o = obs_new(KG_OBS_LEFT, sc_us(s, 600), intern_group("late"), "log");
	obs_member(o, "consumer-b-m", "consumer-b", NULL, NULL);
	o->reason = KG_REASON_MAX_POLL;
	sc_obs_push(s, o);
	sc_group_set(s, "late", KG_STATE_STABLE, "range", "consumer-b=0 1 2 3 4 5;consumer-a");
	sc_group_set(s, "late", KG_STATE_STABLE, "range", "consumer-a=0 1 2 3 4 5");
	snap = sc_tick(s, 2000);
	/* the reason reaches the lane, so the health view and the timeline know why */
	(void)snap;
	{
		kg_hview *v = history_view(tracker_history(s->t), intern_group("late"), sc_us(s, 0), sc_us(s, 2000));
		for (i = 0; i < v->nlanes; i++) {
			if (strcmp(v->lanes[i].client_id, "consumer-b") == 0) {
				assert_int_equal(v->lanes[i].last_leave, KG_REASON_MAX_POLL);
				found = true;
			}
		}
		assert_true(found);
		assert_string_equal(v->episodes[0].trigger_text, "left: consumer-b (max.poll.interval)");
		hview_free(v);
	}
	G = snapshot_group(s->last, intern_group("late"));
	assert_non_null(G);
	sc_free(s);
}

/* A callback that arrives after polling saw its member leave does not bring the member back. */
static void
test_late_callback_no_revival(void **state)
{
	sc *s = sc_new(4, NULL);
	(void)state;
	sc_group_set(s, "rev", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, 0);
	sc_group_set(s, "rev", KG_STATE_STABLE, "cooperative-sticky", "consumer-b=0 1 2 3");
	sc_tick(s, 1000);
	sc_tick(s, 2000);
	sc_obs(s, KG_OBS_REVOKED, 400, "rev", "consumer-a", C, "0 1");
	sc_tick(s, 3000);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, "consumer-a"), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	sc_free(s);
}

/* A member id reused by another client (the mock does that) is a new member; the old one left. */
static void
test_reused_member_id(void **state)
{
	kg_tracker_config mc3 = options_model_defaults();
	kg_tracker *t = tracker_new(&mc3);
	kg_evlist ev = { 0 };
	int32_t topic = intern_topic(SC_TOPIC), gid = intern_group("reuse");
	kg_tp a[1] = { { topic, 0 } };
	int round, left = 0;
	size_t i;
	kg_snapshot *last = NULL;
	(void)state;
	for (round = 0; round < 2; round++) {
		kg_builder *b = builder_new(1000000 + round * 1000000);
		kg_bgroup *g = builder_group(b, gid);
		kg_bmember *m;
		builder_topic(b, topic, 1);
		bgroup_state(g, KG_STATE_STABLE);
		bgroup_protocol(g, "consumer", "range");
		m = bgroup_member(g, "rdkafka-0x55d0");
		bmember_ids(m, round == 0 ? "consumer-a" : "consumer-e", "/h", NULL);
		bmember_assignment(m, a, 1);
		snapshot_unref(last);
		last = builder_finish(b);
		tracker_apply(t, NULL, last, &ev);
	}
	for (i = 0; i < ev.n; i++)
		left += ev.v[i]->kind == KG_EV_MEMBER_LEFT && strcmp(ev.v[i]->client_id, "consumer-a") == 0;
	assert_int_equal(left, 1);
	assert_int_equal(history_nlanes(tracker_history(t), gid), 2);
	snapshot_unref(last);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
}

/* Members that never stopped are not counted as stopped. */
static void
test_stopped_count(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	(void)state;
	sc_group_set(s, "cnt", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 4;consumer-b=1 2;consumer-c=3 5");
	sc_tick(s, 0);
	sc_group_set(s, "cnt", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d");
	sc_tick(s, 1000);
	sc_group_set(s, "cnt", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d=4");
	sc_tick(s, 2000);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(e);
	assert_non_null(strstr(e->text, "0 of 3 members stopped"));
	e = sc_find(s, KG_EV_REBALANCE_START, NULL, 0);
	assert_int_equal(e->evidence, KG_EVID_POLLED);
	sc_free(s);
}

/* A pod that restarts with a new identity every 10 s does not grow lanes past the window. */
static void
test_lanes_bounded(void **state)
{
	kg_tracker_config cfg;
	sc *s;
	int i;
	char spec[64];
	(void)state;
	cfg = options_model_defaults();
	cfg.window_us = 600LL * 1000000;
	s = sc_new(2, &cfg);
	for (i = 0; i < 200; i++) {
		snprintf(spec, sizeof spec, "steady=0;pod-%d=1", i);
		sc_group_set(s, "churn", KG_STATE_STABLE, "range", spec);
		sc_tick(s, (int64_t)i * 10000);
	}
	assert_true(history_nlanes(tracker_history(s->t), intern_group("churn")) <= LANE_CAP);
	sc_free(s);
}

/* KIP-345: a static member back with a new member id and its partitions is not a rebalance. */
static void
test_static_restart(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_builder *b;
	(void)state;
	(void)b;
	sc_group_set(s, "sm", KG_STATE_STABLE, "range", "static-a=0 1;static-b=2 3");
	sc_tick(s, 0);
	/* the scenario helper gives member ids client-m; a restart gets a new one */
	sc_group_set(s, "sm", KG_STATE_STABLE, "range", "static-a=0 1;static-b=2 3");
	sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 0);
	sc_free(s);
}

/* The same with real instance ids, built by hand. */
static void
test_static_replaced(void **state)
{
	kg_tracker_config mc4 = options_model_defaults();
	kg_tracker *t = tracker_new(&mc4);
	kg_evlist ev = { 0 };
	int32_t topic = intern_topic(SC_TOPIC), gid = intern_group("static-g");
	kg_tp a[2] = { { topic, 0 }, { topic, 1 } }, b2[2] = { { topic, 2 }, { topic, 3 } };
	int round, back = 0, starts = 0;
	size_t i;
	(void)state;
	for (round = 0; round < 2; round++) {
		kg_builder *b = builder_new(1000000 + round * 1000000);
		kg_bgroup *g = builder_group(b, gid);
		kg_bmember *m;
		kg_snapshot *snap;
		builder_topic(b, topic, 4);
		bgroup_state(g, KG_STATE_STABLE);
		bgroup_protocol(g, "consumer", "range");
		m = bgroup_member(g, round == 0 ? "static-a-1111" : "static-a-2222");
		bmember_ids(m, "static-a", "/10.0.0.1", "pod-a");
		bmember_assignment(m, a, 2);
		m = bgroup_member(g, "static-b-3333");
		bmember_ids(m, "static-b", "/10.0.0.2", "pod-b");
		bmember_assignment(m, b2, 2);
		snap = builder_finish(b);
		tracker_apply(t, NULL, snap, &ev);
		if (round == 1) {
			const kg_group *G = snapshot_group(snap, gid);
			/* same lane as before: the timeline keeps one row */
			assert_int_equal(G->members[group_member_index(G, "static-a-2222")].lane, 0);
		}
		snapshot_unref(snap);
	}
	for (i = 0; i < ev.n; i++) {
		back += ev.v[i]->kind == KG_EV_MEMBER_BACK;
		starts += ev.v[i]->kind == KG_EV_REBALANCE_START;
	}
	assert_int_equal(back, 1);
	assert_int_equal(starts, 0);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
}

/* A member that leaves and comes back with the same client id keeps its lane. */
static void
test_lanes(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_snapshot *snap;
	const kg_group *G;
	int lane_b;
	(void)state;
	sc_group_set(s, "ln", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	snap = sc_tick(s, 0);
	G = snapshot_group(snap, intern_group("ln"));
	lane_b = G->members[group_member_index(G, "consumer-b-m")].lane;
	sc_group_set(s, "ln", KG_STATE_STABLE, "range", "consumer-a=0 1 2 3");
	sc_tick(s, 1000);
	sc_group_set(s, "ln", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3");
	snap = sc_tick(s, 2000);
	G = snapshot_group(snap, intern_group("ln"));
	assert_int_equal(G->members[group_member_index(G, "consumer-b-m")].lane, lane_b);
	assert_int_equal(history_nlanes(tracker_history(s->t), intern_group("ln")), 2);
	sc_free(s);
}

/* Coordinator log lines give an episode seen between two polls its real timing and generation. */
static void
test_log_retime(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_obs *o;
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "lg", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "lg", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 1000); /* polling saw the result only */
	o = obs_new(KG_OBS_PREPARING, sc_us(s, 200), intern_group("lg"), "log");
	o->generation = 6;
	obs_text(o, "Adding new member consumer-c-m with group instance id None");
	o->reason = KG_REASON_JOINED;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_STABILIZED, sc_us(s, 700), intern_group("lg"), "log");
	o->generation = 7;
	o->nmembers = 3;
	sc_obs_push(s, o);
	sc_tick(s, 2000);
	n = episodes(s, "lg", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 200));
	assert_int_equal(ep[0].end_us, sc_us(s, 700));
	assert_int_equal(ep[0].gen_start, 6);
	assert_int_equal(ep[0].gen_end, 7);
	assert_int_equal(ep[0].evidence, KG_EVID_EXACT);
	/* the event list says the log gave it its timing: once, when its late lines settled (a later round's could follow) */
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0);
	sc_tick(s, 3000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0);
	sc_tick(s, 4000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);
	assert_text(sc_find(s, KG_EV_RETIMED, NULL, 0),
		    "the coordinator times that rebalance: 500ms, generation 7 (from generation 6)");
	episodes_free(ep, n);
	sc_free(s);
}

/* A coordinator log line of the log kind at ms, of a generation of nmembers (-1 the line does not say). */
static void
log_line_n(sc *s, kg_obs_kind kind, int64_t ms, const char *group, int generation, int nmembers)
{
	kg_obs *o = obs_new(kind, sc_us(s, ms), intern_group(group), "log");
	o->generation = generation;
	o->nmembers = nmembers;
	sc_obs_push(s, o);
}

/* A coordinator log line of the log kind at ms (a "Stabilized" of 3 members). */
static void
log_line(sc *s, kg_obs_kind kind, int64_t ms, const char *group, int generation)
{
	log_line_n(s, kind, ms, group, generation, kind == KG_OBS_STABILIZED ? 3 : -1);
}

/* A coordinator's "Group G with generation N is now empty", at ms. */
static void
emptied_line(sc *s, int64_t ms, const char *group, int generation)
{
	log_line_n(s, KG_OBS_STABILIZED, ms, group, generation, 0);
}

/*
 * A member joins an empty group and leaves before the leader's assignment;
 * the log's "is now empty" is read after polling closed the episode
 * (test_bounds, the log 200 ms behind, seed 1624).  The generation it
 * stabilized never synced: one round, the emptying generation, as when
 * the line comes in time.  The late line counted both: "2 rounds".
 */
static void
test_log_late_emptied_unsynced(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "le-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "le", KG_STATE_EMPTY, "", "");
	sc_tick(s, 13000);
	sc_tick(s, 14000);
	log_line(s, KG_OBS_PREPARING, 14770, "le", 3);
	log_line(s, KG_OBS_STABILIZED, 14770, "le", 4);
	sc_tick(s, 14980); /* still Empty: polling closes it */
	emptied_line(s, 14950, "le", 5);
	for (k = 15; k < 20; k++)
		sc_tick(s, k * 1000 - 20);
	n = episodes(s, "le", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 14770));
	assert_int_equal(ep[0].end_us, sc_us(s, 14950));
	assert_int_equal(ep[0].rounds, 1);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The group's only member leaves (the group empties) and joins again
 * between two refreshes; polling sees the join, the log's lines come a
 * refresh late (test_bounds, the log 1 s behind, seed 416).  The emptying
 * was a rebalance of its own: the join's episode begins at its "preparing"
 * and has one round.  It counted the emptying generation too: "2 rounds".
 */
static void
test_log_late_emptied_then_join(void **state)
{
	sc *s = sc_new(1, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "ej-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "ej", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0");
	sc_tick(s, 16000);
	sc_tick(s, 18000);
	sc_group_set(s, "ej", KG_STATE_COMPLETING_REBALANCE, "cooperative-sticky", "consumer-a/a2");
	sc_tick(s, 20160); /* a1 left at 19.44, the group empty, a2 joined at 20.08 */
	emptied_line(s, 19440, "ej", 4);
	log_line(s, KG_OBS_PREPARING, 20080, "ej", 4);
	log_line(s, KG_OBS_STABILIZED, 20080, "ej", 5);
	log_line(s, KG_OBS_SYNCED, 20380, "ej", 5);
	sc_group_set(s, "ej", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a2=0");
	sc_tick(s, 22160);
	n = episodes(s, "ej", &ep);
	assert_true(n >= 1);
	assert_int_equal(ep[n - 1].start_us, sc_us(s, 20080));
	assert_int_equal(ep[n - 1].end_us, sc_us(s, 20380));
	assert_int_equal(ep[n - 1].rounds, 1);
	assert_false(ep[n - 1].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A cooperative join of two rounds, the log a second behind polling
 * (test_bounds, seed 425): the Stable description shows a member that
 * stayed gave a partition up, and the log has told the first round only.
 * The end is between that round's sync and the description, at least two
 * rounds, until the second round's lines come (then measured, retimed).
 * It said "800ms, 1 round", exact, for a rebalance of 1.68 s and two.
 */
static void
test_log_behind_cooperative_second_round(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "cb-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "cb", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=2 3;consumer-d/d1=0 1");
	sc_tick(s, 18230);
	sc_group_set(s, "cb", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a1;consumer-d/d1;consumer-c/c1");
	sc_tick(s, 19730); /* c1 joined at 19.43 */
	log_line(s, KG_OBS_PREPARING, 19430, "cb", 6);
	log_line(s, KG_OBS_STABILIZED, 20210, "cb", 7);
	log_line(s, KG_OBS_SYNCED, 20230, "cb", 7); /* round one: d1 gives partition 1 up */
	sc_group_set(s, "cb", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=2 3;consumer-d/d1=0;consumer-c/c1=1");
	sc_tick(s, 21230); /* round two synced at 21.11: its lines not read yet */
	n = episodes(s, "cb", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 19430));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 20230));
	assert_int_equal(ep[0].end_us, sc_us(s, 21230));
	assert_int_equal(ep[0].rounds, 2);
	assert_true(ep[0].rounds_min);
	episodes_free(ep, n);
	log_line(s, KG_OBS_PREPARING, 20240, "cb", 7);
	log_line(s, KG_OBS_STABILIZED, 21090, "cb", 8);
	log_line(s, KG_OBS_SYNCED, 21110, "cb", 8);
	for (k = 0; k < 5; k++)
		sc_tick(s, 22730 + k * 1500);
	n = episodes(s, "cb", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_us, sc_us(s, 21110));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 21110));
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A join the coordinator began again before the leader's assignment (a
 * member came back), its lines read after polling closed the episode
 * (test_bounds, the log 1 s behind, seed 2020): the generation stabilized
 * before the join began again was no round.  The late lines counted it:
 * "2 rounds", exact, for one.
 */
static void
test_log_late_join_again(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "ja-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "ja", KG_STATE_STABLE, "range", "consumer-a/a1=0 1");
	sc_tick(s, 1780);
	sc_group_set(s, "ja", KG_STATE_PREPARING_REBALANCE, "range", "consumer-a/a1;consumer-d/d1");
	sc_tick(s, 3280);
	sc_tick(s, 4780);
	log_line(s, KG_OBS_PREPARING, 3160, "ja", 0);
	sc_tick(s, 6280);
	log_line(s, KG_OBS_STABILIZED, 6750, "ja", 1); /* a1 timed out: d1 alone */
	sc_group_set(s, "ja", KG_STATE_STABLE, "range", "consumer-a/a2=0;consumer-d/d1=1");
	sc_tick(s, 7780); /* a2 joined at 6.88, the join began again: synced at 7.73 */
	log_line(s, KG_OBS_PREPARING, 6880, "ja", 1);
	log_line(s, KG_OBS_STABILIZED, 7430, "ja", 2);
	log_line(s, KG_OBS_SYNCED, 7730, "ja", 2);
	for (k = 0; k < 5; k++)
		sc_tick(s, 9280 + k * 1500);
	n = episodes(s, "ja", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 3160));
	assert_int_equal(ep[0].end_us, sc_us(s, 7730));
	assert_int_equal(ep[0].rounds, 1);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The log a second behind polling across two rebalances back to back
 * (test_bounds, seed 1039): the first one's sync is timed at the very
 * moment of the description that showed it over, the one the second
 * episode's start is bounded by.  That line is the first one's, not a
 * round of the second ("2 rounds" for one).
 */
static void
test_log_late_sync_at_bound(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "sb-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "sb", KG_STATE_STABLE, "range", "consumer-a/a1=0;consumer-d/d1=1");
	sc_tick(s, 15710);
	sc_group_set(s, "sb", KG_STATE_PREPARING_REBALANCE, "range", "consumer-a/a1");
	sc_tick(s, 16210); /* d1 left at 15.96 */
	sc_group_set(s, "sb", KG_STATE_STABLE, "range", "consumer-a/a1=0 1");
	sc_tick(s, 16710); /* synced at 16.71 */
	log_line(s, KG_OBS_PREPARING, 15960, "sb", 6);
	sc_group_set(s, "sb", KG_STATE_PREPARING_REBALANCE, "range", "consumer-a/a1;consumer-d/d2");
	sc_tick(s, 17210); /* d2 joined at 16.75 */
	log_line(s, KG_OBS_STABILIZED, 16690, "sb", 7);
	log_line(s, KG_OBS_SYNCED, 16710, "sb", 7);
	log_line(s, KG_OBS_PREPARING, 16750, "sb", 7);
	sc_tick(s, 17710);
	log_line(s, KG_OBS_STABILIZED, 18000, "sb", 8);
	log_line(s, KG_OBS_SYNCED, 18100, "sb", 8);
	sc_group_set(s, "sb", KG_STATE_STABLE, "range", "consumer-a/a1=0;consumer-d/d2=1");
	sc_tick(s, 18210);
	n = episodes(s, "sb", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[0].end_us, sc_us(s, 16710));
	assert_int_equal(ep[1].start_us, sc_us(s, 16750));
	assert_int_equal(ep[1].end_us, sc_us(s, 18100));
	assert_int_equal(ep[1].rounds, 1);
	assert_false(ep[1].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A join's "Stabilized" read after polling closed its episode, from a log
 * that tells the leader's assignment (test_bounds, the log 1 s behind,
 * seed 585): the join completed then, the end (the assignment) is still
 * to be told: the end stays between polling's bounds until it is.  It
 * ended the episode at the "Stabilized": "0 ms", exact, for 300.
 */
static void
test_log_late_stabilized_not_end(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "sn-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "sn", KG_STATE_EMPTY, "", "");
	sc_tick(s, 24400);
	sc_tick(s, 24900);
	sc_group_set(s, "sn", KG_STATE_COMPLETING_REBALANCE, "range", "consumer-a/a1");
	sc_tick(s, 25400);
	sc_group_set(s, "sn", KG_STATE_STABLE, "range", "consumer-a/a1=0 1 2 3 4 5");
	sc_tick(s, 25900);
	log_line(s, KG_OBS_PREPARING, 25390, "sn", 8);
	log_line(s, KG_OBS_STABILIZED, 25390, "sn", 9);
	sc_tick(s, 26400);
	n = episodes(s, "sn", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 25390));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 25400));
	assert_int_equal(ep[0].end_us, sc_us(s, 25900));
	episodes_free(ep, n);
	log_line(s, KG_OBS_SYNCED, 25690, "sn", 9);
	sc_tick(s, 26900);
	n = episodes(s, "sn", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 25690));
	assert_int_equal(ep[0].end_us, sc_us(s, 25690));
	assert_int_equal(ep[0].rounds, 1);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A cooperative rebalance of two rounds polling saw begin, go on and end,
 * its log lines read 2 s behind (test_bounds, seed 514): the first
 * round's sync came before the description that still showed the group
 * rebalancing, so it is no end.  It ended the episode there: "520 ms",
 * exact, for 980.  The end stays within polling's bounds, at least one
 * round more, until the second round's lines tell it.
 */
static void
test_log_late_sync_before_polled_end(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "se-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "se", KG_STATE_STABLE, "cooperative-sticky", "consumer-d/d1=0 1 2 3 4 5");
	sc_tick(s, 21750);
	sc_group_set(s, "se", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-d/d1;consumer-c/c1");
	sc_tick(s, 22250); /* c1 joined at 21.96 */
	sc_tick(s, 22750);
	sc_group_set(s, "se", KG_STATE_STABLE, "cooperative-sticky", "consumer-d/d1=0 1 2;consumer-c/c1=3 4 5");
	sc_tick(s, 23250); /* round two synced at 22.94 */
	sc_tick(s, 23750);
	log_line(s, KG_OBS_PREPARING, 21960, "se", 1);
	sc_tick(s, 24250);
	log_line(s, KG_OBS_STABILIZED, 22380, "se", 2);
	log_line(s, KG_OBS_SYNCED, 22480, "se", 2); /* round one: d1 gives 3 4 5 up */
	log_line(s, KG_OBS_PREPARING, 22490, "se", 2);
	sc_tick(s, 24750);
	n = episodes(s, "se", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 21960));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 22750));
	assert_int_equal(ep[0].end_us, sc_us(s, 23250));
	assert_true(ep[0].rounds >= 2);
	assert_true(ep[0].rounds_min);
	episodes_free(ep, n);
	log_line(s, KG_OBS_STABILIZED, 22840, "se", 3);
	log_line(s, KG_OBS_SYNCED, 22940, "se", 3);
	for (k = 0; k < 5; k++)
		sc_tick(s, 25250 + k * 500);
	n = episodes(s, "se", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 22940));
	assert_int_equal(ep[0].end_us, sc_us(s, 22940));
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * Two joins polling saw as one rebalance, the log behind it (test_bounds,
 * 2 s behind, seed 457): the log's last word when polling saw the group
 * Stable was a "Stabilized" (the join completed), and polling had seen the
 * group rebalancing after that line.  The close took the "Stabilized" for
 * the moment the leader's assignment could come after and dated the end
 * exactly at the Stable description: "3.2 s", exact, for 2.61.  The end is
 * between polling's last sight of the rebalance and the Stable
 * description, the rounds at least, until the late lines tell them.
 */
static void
test_log_behind_stabilized_before_polled(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "sp-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "sp", KG_STATE_EMPTY, "", "");
	sc_tick(s, 30);
	sc_tick(s, 1030);
	sc_group_set(s, "sp", KG_STATE_COMPLETING_REBALANCE, "range", "consumer-a/a1");
	sc_tick(s, 2030); /* a1 joined at 1.83, synced at 2.13; d1 joined at 2.31 */
	sc_group_set(s, "sp", KG_STATE_COMPLETING_REBALANCE, "range", "consumer-a/a1;consumer-d/d1");
	sc_tick(s, 3030);
	log_line(s, KG_OBS_PREPARING, 1830, "sp", 0);
	log_line(s, KG_OBS_STABILIZED, 1830, "sp", 1);
	sc_group_set(s, "sp", KG_STATE_PREPARING_REBALANCE, "range", "consumer-a/a1;consumer-d/d1");
	sc_tick(s, 4030); /* the join of generation 2 begun again at 3.32 */
	log_line(s, KG_OBS_SYNCED, 2130, "sp", 1);
	log_line(s, KG_OBS_PREPARING, 2310, "sp", 1);
	log_line(s, KG_OBS_STABILIZED, 3010, "sp", 2);
	sc_group_set(s, "sp", KG_STATE_STABLE, "range", "consumer-a/a1=0 1;consumer-d/d1=2 3");
	sc_tick(s, 5030); /* synced at 4.44 */
	n = episodes(s, "sp", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 1830));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 4030));
	assert_int_equal(ep[0].end_us, sc_us(s, 5030));
	assert_true(ep[0].rounds_min);
	episodes_free(ep, n);
	log_line(s, KG_OBS_SYNCED, 3310, "sp", 2);
	log_line(s, KG_OBS_PREPARING, 3320, "sp", 2);
	sc_tick(s, 6030);
	log_line(s, KG_OBS_STABILIZED, 4140, "sp", 3);
	log_line(s, KG_OBS_SYNCED, 4440, "sp", 3);
	for (k = 0; k < 5; k++)
		sc_tick(s, 7030 + k * 1000);
	n = episodes(s, "sp", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 4440));
	assert_int_equal(ep[0].end_us, sc_us(s, 4440));
	assert_int_equal(ep[0].rounds, 3);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A cooperative rebalance of two rounds, a member joining in the second,
 * the log 1 s behind polling (test_bounds, seed 1689): polling saw round
 * one synced (Stable, a member revoked) and round two begin; the log's
 * sync of round one came later, timed at the very description that
 * showed it synced.  It was taken for round two's sync, and the member
 * that joined in round two began "round 3": "at least 3 rounds" for 2.
 */
static void
test_log_late_sync_at_polled_sync(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "ps-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "ps", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2 3");
	sc_tick(s, 1830);
	sc_group_set(s, "ps", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a1;consumer-b/b1");
	sc_tick(s, 2330); /* b1 joined at 2.00 */
	sc_group_set(s, "ps", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1;consumer-b/b1");
	sc_tick(s, 2830); /* round one synced at 2.83: a1 gave 2 3 up */
	log_line(s, KG_OBS_PREPARING, 2000, "ps", 1);
	sc_group_set(s, "ps", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a1;consumer-b/b1");
	sc_tick(s, 3330); /* round two began at 2.84 */
	log_line(s, KG_OBS_STABILIZED, 2730, "ps", 2);
	log_line(s, KG_OBS_SYNCED, 2830, "ps", 2);
	sc_group_set(s, "ps", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky",
		     "consumer-a/a1;consumer-b/b1;consumer-c/c1");
	sc_tick(s, 3830); /* c1 joined at 3.50, within round two's join */
	log_line(s, KG_OBS_PREPARING, 2840, "ps", 2);
	sc_group_set(s, "ps", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1;consumer-b/b1=2;consumer-c/c1=3");
	sc_tick(s, 4330); /* round two synced at 3.96 */
	n = episodes(s, "ps", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 2000));
	assert_int_equal(ep[0].rounds, 2);
	episodes_free(ep, n);
	log_line(s, KG_OBS_STABILIZED, 3860, "ps", 3);
	log_line(s, KG_OBS_SYNCED, 3960, "ps", 3);
	for (k = 0; k < 5; k++)
		sc_tick(s, 4830 + k * 500);
	n = episodes(s, "ps", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 3960));
	assert_int_equal(ep[0].end_us, sc_us(s, 3960));
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A rebalance that emptied the group, and members that joined again
 * before the next refresh: polling, every 2 s, saw the group rebalancing
 * throughout, then Empty 13 s later (test_bounds, the log 200 ms behind,
 * seed 7531).  The first emptying ended the episode when polling saw the
 * group Empty: "6.22 to 12.21 s, 4 rounds", the rounds of the joins after
 * it counted in a rebalance of one.  The emptying that the join after it
 * went past is no end: the episode goes on to the emptying polling saw.
 */
static void
test_log_emptied_then_joined_unpolled(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "eu-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "eu", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0;consumer-b/b1=1");
	sc_tick(s, 5820);
	log_line(s, KG_OBS_PREPARING, 6220, "eu", 0); /* a1 left */
	sc_group_set(s, "eu", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-b/b1");
	for (k = 0; k < 3; k++)
		sc_tick(s, 7820 + k * 2000);
	emptied_line(s, 12210, "eu", 1); /* b1 never joined: removed, the group empty */
	log_line(s, KG_OBS_PREPARING, 12610, "eu", 1);
	log_line(s, KG_OBS_STABILIZED, 12610, "eu", 2);
	log_line(s, KG_OBS_SYNCED, 12610, "eu", 2);
	log_line(s, KG_OBS_PREPARING, 13570, "eu", 2);
	sc_group_set(s, "eu", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a2;consumer-b/b2");
	sc_tick(s, 13820);
	log_line(s, KG_OBS_STABILIZED, 14170, "eu", 3);
	log_line(s, KG_OBS_SYNCED, 14170, "eu", 3);
	log_line(s, KG_OBS_PREPARING, 14180, "eu", 3);
	sc_tick(s, 15820);
	log_line(s, KG_OBS_STABILIZED, 17490, "eu", 4);
	log_line(s, KG_OBS_SYNCED, 17490, "eu", 4);
	sc_group_set(s, "eu", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a2");
	sc_tick(s, 17820);
	log_line(s, KG_OBS_PREPARING, 17700, "eu", 4); /* b2 left */
	for (k = 0; k < 3; k++)
		sc_tick(s, 19820 + k * 2000);
	sc_group_set(s, "eu", KG_STATE_EMPTY, "", "");
	sc_tick(s, 25820); /* a2 removed at 25.70 */
	n = episodes(s, "eu", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 6220));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 23820));
	assert_int_equal(ep[0].end_us, sc_us(s, 25820));
	assert_true(ep[0].rounds_min);
	episodes_free(ep, n);
	emptied_line(s, 25700, "eu", 5);
	for (k = 0; k < 3; k++)
		sc_tick(s, 27820 + k * 2000);
	n = episodes(s, "eu", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 25700));
	assert_int_equal(ep[0].end_us, sc_us(s, 25700));
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A member joins and leaves between two refreshes, the log 100 ms behind
 * polling (test_bounds, seed 5257): when polling saw the group Stable
 * again, the log had told the first generation (2 members) and its sync,
 * not the one after it (1 member).  The episode ended at that sync:
 * "550 ms, 1 round", exact, for 620 ms and 2.  The description's members
 * are not that generation's: a generation more, the end between the
 * log's sync and the description, until the late lines tell it.
 */
static void
test_log_behind_members_differ(void **state)
{
	sc *s = sc_new(3, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "md-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "md", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2");
	sc_tick(s, 4050);
	log_line(s, KG_OBS_PREPARING, 5400, "md", 0); /* b1 joined */
	log_line_n(s, KG_OBS_STABILIZED, 5930, "md", 1, 2);
	log_line_n(s, KG_OBS_SYNCED, 5950, "md", 1, 2); /* a1 gave 2 up */
	sc_tick(s, 6050); /* b1 left at 6.00, a1 got 2 back at 6.02 */
	n = episodes(s, "md", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 5400));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 5950));
	assert_int_equal(ep[0].end_us, sc_us(s, 6050));
	assert_int_equal(ep[0].rounds, 2);
	assert_true(ep[0].rounds_min);
	episodes_free(ep, n);
	log_line(s, KG_OBS_PREPARING, 5960, "md", 1);
	log_line_n(s, KG_OBS_STABILIZED, 6000, "md", 2, 1);
	log_line_n(s, KG_OBS_SYNCED, 6020, "md", 2, 1);
	for (k = 0; k < 3; k++)
		sc_tick(s, 8050 + k * 2000);
	n = episodes(s, "md", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 6020));
	assert_int_equal(ep[0].end_us, sc_us(s, 6020));
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A member leaves, its rebalance closed by polling at the refresh that saw
 * it gone; its consumer joins again later, the log 1 s behind polling
 * (test_bounds, seed 7064).  The log's "preparing" of that join opens the
 * next episode before polling sees the member back: the member that left
 * was taken for one that left just before it (its leave seen at the very
 * refresh that closed the last episode), its old partition for one it
 * still had, so the partition that moved to it did not move: "860 ms,
 * 1 round", exact, for a cooperative rebalance of two rounds and 1.5 s.
 */
static void
test_log_rejoin_after_polled_leave(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "rj-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "rj", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0;consumer-b/b1=1");
	sc_tick(s, 3780);
	log_line(s, KG_OBS_PREPARING, 4190, "rj", 0); /* a1 left */
	sc_group_set(s, "rj", KG_STATE_STABLE, "cooperative-sticky", "consumer-b/b1=1;consumer-c/c1=0");
	sc_tick(s, 5780);
	log_line_n(s, KG_OBS_STABILIZED, 4970, "rj", 1, 2);
	log_line_n(s, KG_OBS_SYNCED, 4990, "rj", 1, 2);
	sc_tick(s, 7780);
	log_line(s, KG_OBS_PREPARING, 7920, "rj", 1); /* consumer-a back, as a2 */
	log_line_n(s, KG_OBS_STABILIZED, 8760, "rj", 2, 3);
	log_line_n(s, KG_OBS_SYNCED, 8780, "rj", 2, 3); /* round one: c1 gave 0 up */
	sc_group_set(s, "rj", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a2=0;consumer-b/b1=1;consumer-c/c1");
	sc_tick(s, 9780); /* round two synced at 9.42: its lines not read yet */
	n = episodes(s, "rj", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[1].start_us, sc_us(s, 7920));
	assert_int_equal(ep[1].moved, 1);
	assert_int_equal(ep[1].end_lo_us, sc_us(s, 8780));
	assert_int_equal(ep[1].end_us, sc_us(s, 9780));
	assert_int_equal(ep[1].rounds, 2);
	assert_true(ep[1].rounds_min);
	episodes_free(ep, n);
	log_line(s, KG_OBS_PREPARING, 8790, "rj", 2);
	log_line_n(s, KG_OBS_STABILIZED, 9400, "rj", 3, 3);
	log_line_n(s, KG_OBS_SYNCED, 9420, "rj", 3, 3);
	for (k = 0; k < 3; k++)
		sc_tick(s, 11780 + k * 2000);
	n = episodes(s, "rj", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[1].end_us, sc_us(s, 9420));
	assert_int_equal(ep[1].rounds, 2);
	assert_false(ep[1].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * Two rebalances polling saw and closed, the log 2 s behind it (test_bounds,
 * seed 1673): the first one's later lines are read once the second is
 * the last closed one.  Its "preparing" of round two, before the
 * description that showed the group not rebalancing yet, moved the second
 * one's start back to it, and its sync then ended it: "1.45 s, 2 rounds"
 * for 150 ms and one.  Such a line is the earlier rebalance's.
 */
static void
test_log_late_line_of_earlier_episode(void **state)
{
	sc *s = sc_new(5, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "ol-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "ol", KG_STATE_STABLE, "cooperative-sticky", "consumer-b/b1=0 1 2 3 4");
	sc_tick(s, 8040);
	sc_group_set(s, "ol", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a1;consumer-b/b1");
	sc_tick(s, 8540); /* a1 joined at 8.33 */
	sc_tick(s, 9040);
	sc_group_set(s, "ol", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=2 3 4;consumer-b/b1=0 1");
	sc_tick(s, 9540); /* round two synced at 9.18 */
	sc_tick(s, 10040);
	log_line(s, KG_OBS_PREPARING, 8330, "ol", 3);
	sc_group_set(s, "ol", KG_STATE_STABLE, "cooperative-sticky", "consumer-b/b1=0 1 2 3 4");
	sc_tick(s, 10540); /* a1 left at 10.07, synced at 10.22 */
	log_line_n(s, KG_OBS_STABILIZED, 8760, "ol", 4, 2);
	log_line_n(s, KG_OBS_SYNCED, 8760, "ol", 4, 2);
	log_line(s, KG_OBS_PREPARING, 8770, "ol", 4);
	sc_tick(s, 11040);
	log_line_n(s, KG_OBS_STABILIZED, 9180, "ol", 5, 2);
	log_line_n(s, KG_OBS_SYNCED, 9180, "ol", 5, 2);
	sc_tick(s, 11540);
	sc_tick(s, 12040);
	log_line(s, KG_OBS_PREPARING, 10070, "ol", 5);
	log_line_n(s, KG_OBS_STABILIZED, 10220, "ol", 6, 1);
	log_line_n(s, KG_OBS_SYNCED, 10220, "ol", 6, 1);
	for (k = 0; k < 4; k++)
		sc_tick(s, 12540 + k * 500);
	n = episodes(s, "ol", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[0].start_us, sc_us(s, 8330));
	assert_true(ep[0].end_lo_us <= sc_us(s, 9180) && ep[0].end_us >= sc_us(s, 9180));
	assert_int_equal(ep[1].start_us, sc_us(s, 10070));
	assert_int_equal(ep[1].end_us, sc_us(s, 10220));
	assert_int_equal(ep[1].rounds, 1);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The log read from the middle of a rebalance (kgtop started reading it
 * after the first "preparing": test_bounds, seed 159): the first lines
 * read are round one's sync and round two's "preparing".  That line moved
 * the start polling bounded to it, exact: after round one's sync, for a
 * rebalance that began 0.7 s before.  The start stays polling's.
 */
static void
test_log_read_from_mid_rebalance(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "mr-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "mr", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2 3 4 5");
	sc_tick(s, 8920);
	sc_group_set(s, "mr", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a1;consumer-b/b1");
	sc_tick(s, 9920); /* b1 joined at 9.14 */
	log_line_n(s, KG_OBS_STABILIZED, 9510, "mr", 1, 2);
	log_line_n(s, KG_OBS_SYNCED, 9810, "mr", 1, 2);
	log_line(s, KG_OBS_PREPARING, 9820, "mr", 1);
	sc_group_set(s, "mr", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2;consumer-b/b1=3 4 5");
	sc_tick(s, 10920);
	n = episodes(s, "mr", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_lo_us, sc_us(s, 8920));
	assert_int_equal(ep[0].start_us, sc_us(s, 9920));
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A member joins an empty group and leaves again between two refreshes
 * that both saw it Empty; the log's lines of it are read later
 * (test_bounds, seed 9933).  They open an episode, and the next Empty
 * description closed it between the one before and itself, though that
 * one said Empty after the episode began: "1.3-2.8 s" for 720 ms.  It was
 * over by the description before.
 */
static void
test_log_late_join_while_polled_empty(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "pe-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "pe", KG_STATE_EMPTY, "", "");
	/* each description asked 40 ms before the refresh hands it over, as kgtop's source dates them */
	sc_group_data_time(s, "pe", 20310);
	sc_tick(s, 20350);
	sc_group_data_time(s, "pe", 21810);
	sc_tick(s, 21850); /* a1 joined at 20.56, synced at once, left at 21.28 */
	log_line(s, KG_OBS_PREPARING, 20560, "pe", 2);
	log_line_n(s, KG_OBS_STABILIZED, 20560, "pe", 3, 1);
	log_line_n(s, KG_OBS_SYNCED, 20560, "pe", 3, 1);
	sc_group_data_time(s, "pe", 23310);
	sc_tick(s, 23350);
	n = episodes(s, "pe", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 20560));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 20560));
	assert_int_equal(ep[0].end_us, sc_us(s, 21850));
	episodes_free(ep, n);
	emptied_line(s, 21280, "pe", 4);
	for (k = 0; k < 3; k++) {
		sc_group_data_time(s, "pe", 24810 + k * 1500);
		sc_tick(s, 24850 + k * 1500);
	}
	n = episodes(s, "pe", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_us, sc_us(s, 21280));
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The same shape as test_log_late_sync_before_polled_end, the broker's
 * clock 40 ms behind kgtop's: the only round's sync is logged 30 ms
 * before the description (dated by kgtop's clock) that still showed the
 * group rebalancing.  Within what two clocks may differ, it is the end,
 * one round, not an earlier round's sync.
 */
static void
test_log_late_sync_within_skew(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "sk-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "sk", KG_STATE_STABLE, "range", "consumer-d/d1=0 1 2 3 4 5");
	sc_tick(s, 21750);
	sc_group_set(s, "sk", KG_STATE_PREPARING_REBALANCE, "range", "consumer-d/d1;consumer-c/c1");
	sc_tick(s, 22250);
	sc_group_set(s, "sk", KG_STATE_STABLE, "range", "consumer-d/d1=0 1 2;consumer-c/c1=3 4 5");
	sc_tick(s, 22750);
	sc_tick(s, 23250);
	log_line(s, KG_OBS_PREPARING, 21960, "sk", 1);
	log_line_n(s, KG_OBS_STABILIZED, 22180, "sk", 2, 2);
	log_line_n(s, KG_OBS_SYNCED, 22220, "sk", 2, 2);
	for (k = 0; k < 5; k++)
		sc_tick(s, 23750 + k * 500);
	n = episodes(s, "sk", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_us, sc_us(s, 22220));
	assert_int_equal(ep[0].rounds, 1);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * An episode the log opened whose rebalance polling never saw (the
 * assignment the same before and after), closed by polling after the 30 s
 * it waits for the log's sync; the sync comes later still.  The earliest
 * end polling gave proves nothing (no description showed the group
 * rebalancing then): the late sync is the end, one round.
 */
static void
test_log_sync_after_wait(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "lw-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "lw", KG_STATE_STABLE, "range", "consumer-a/a1=0;consumer-b/b1=1");
	sc_tick(s, 500);
	log_line(s, KG_OBS_PREPARING, 1000, "lw", 4);
	for (k = 0; k < 34; k++)
		sc_tick(s, 1500 + k * 1000);
	n = episodes(s, "lw", &ep);
	assert_int_equal(n, 1);
	assert_true(ep[0].end_us > 0);
	episodes_free(ep, n);
	log_line_n(s, KG_OBS_STABILIZED, 1600, "lw", 5, 2);
	log_line_n(s, KG_OBS_SYNCED, 1620, "lw", 5, 2);
	for (k = 0; k < 5; k++)
		sc_tick(s, 35500 + k * 1000);
	n = episodes(s, "lw", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_us, sc_us(s, 1620));
	assert_int_equal(ep[0].rounds, 1);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * test_log_rejoin_after_polled_leave's schedule with the log read in time
 * (each line by the next refresh): the member's leave ended exactly at the
 * log's sync, before the refresh that saw it gone; its partition was given
 * out then.  Its consumer's return is no leave just before: the partition
 * that moved to it moved.
 */
static void
test_log_rejoin_in_time(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "rt-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "rt", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0;consumer-b/b1=1");
	sc_tick(s, 3780);
	log_line(s, KG_OBS_PREPARING, 4190, "rt", 0); /* a1 left */
	log_line_n(s, KG_OBS_STABILIZED, 4970, "rt", 1, 2);
	log_line_n(s, KG_OBS_SYNCED, 4990, "rt", 1, 2);
	sc_group_set(s, "rt", KG_STATE_STABLE, "cooperative-sticky", "consumer-b/b1=1;consumer-c/c1=0");
	sc_tick(s, 5780);
	sc_tick(s, 7780);
	log_line(s, KG_OBS_PREPARING, 7920, "rt", 1); /* consumer-a back, as a2 */
	log_line_n(s, KG_OBS_STABILIZED, 8760, "rt", 2, 3);
	log_line_n(s, KG_OBS_SYNCED, 8780, "rt", 2, 3); /* round one: c1 gave 0 up */
	log_line(s, KG_OBS_PREPARING, 8790, "rt", 2);
	log_line_n(s, KG_OBS_STABILIZED, 9400, "rt", 3, 3);
	log_line_n(s, KG_OBS_SYNCED, 9420, "rt", 3, 3);
	sc_group_set(s, "rt", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a2=0;consumer-b/b1=1;consumer-c/c1");
	for (k = 0; k < 3; k++)
		sc_tick(s, 9780 + k * 2000);
	n = episodes(s, "rt", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[1].start_us, sc_us(s, 7920));
	assert_int_equal(ep[1].end_us, sc_us(s, 9420));
	assert_int_equal(ep[1].moved, 1);
	assert_int_equal(ep[1].rounds, 2);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The group empties (the log read in time), then a member joins after the
 * Empty description was asked; polling opens that episode, its "preparing"
 * is read a refresh later.  The last episode's sync, after the Empty
 * description was asked, is no sync of this one: the line is its start,
 * exact.
 */
static void
test_log_start_after_emptied_episode(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "xe-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "xe", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2 3");
	sc_group_data_time(s, "xe", 900);
	sc_tick(s, 1000);
	log_line(s, KG_OBS_PREPARING, 1940, "xe", 1); /* a1 left */
	emptied_line(s, 1950, "xe", 2);
	sc_group_set(s, "xe", KG_STATE_EMPTY, "", "");
	sc_group_data_time(s, "xe", 1900); /* asked before the emptying, answered after it */
	sc_tick(s, 2000);
	sc_group_set(s, "xe", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-b/b1");
	sc_group_data_time(s, "xe", 2900);
	sc_tick(s, 3000); /* b1 joined at 2.96 */
	log_line(s, KG_OBS_PREPARING, 2960, "xe", 2);
	log_line_n(s, KG_OBS_STABILIZED, 3400, "xe", 3, 1);
	log_line_n(s, KG_OBS_SYNCED, 3420, "xe", 3, 1);
	sc_group_set(s, "xe", KG_STATE_STABLE, "cooperative-sticky", "consumer-b/b1=0 1 2 3");
	for (k = 0; k < 4; k++) {
		sc_group_data_time(s, "xe", 3900 + k * 1000);
		sc_tick(s, 4000 + k * 1000);
	}
	n = episodes(s, "xe", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[1].start_us, sc_us(s, 2960));
	assert_int_equal(ep[1].start_lo_us, sc_us(s, 2960));
	assert_int_equal(ep[1].end_us, sc_us(s, 3420));
	assert_int_equal(ep[1].rounds, 1);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * kgtop starts reading the coordinator's log at its end (a stream's
 * default) while a rebalance is under way: the member joined at 4.36 s,
 * the reader began at 5.0 s, the first lines it reads are round one's
 * "Stabilized" and sync and round two's "preparing" (test_bounds with the
 * log read from 5 s on, seed 163).  That line was taken for the start,
 * exact: 700 ms late.  The source says from when it reads
 * (KG_OBS_LOG_FROM): the last description that showed the group calm is
 * older, so the start is bounded by polling, the rounds at least.
 */
static void
test_log_read_from_its_end(void **state)
{
	sc *s = sc_new(5, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "lf-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "lf", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2 3 4");
	sc_tick(s, 1130);
	sc_tick(s, 3130); /* b1 joined at 4.36 */
	sc_obs_push(s, obs_new(KG_OBS_LOG_FROM, sc_us(s, 5000), -1, "log"));
	log_line_n(s, KG_OBS_STABILIZED, 5030, "lf", 2, 2);
	log_line_n(s, KG_OBS_SYNCED, 5050, "lf", 2, 2); /* round one: a1 gave 3 4 up */
	log_line(s, KG_OBS_PREPARING, 5060, "lf", 2);
	sc_group_set(s, "lf", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a1;consumer-b/b1");
	sc_tick(s, 5130);
	log_line_n(s, KG_OBS_STABILIZED, 7060, "lf", 3, 2);
	log_line_n(s, KG_OBS_SYNCED, 7080, "lf", 3, 2);
	sc_group_set(s, "lf", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2;consumer-b/b1=3 4");
	for (k = 0; k < 3; k++)
		sc_tick(s, 7130 + k * 2000);
	n = episodes(s, "lf", &ep);
	assert_int_equal(n, 1);
	assert_true(ep[0].start_lo_us <= sc_us(s, 4360));
	assert_true(ep[0].start_us >= sc_us(s, 4360));
	assert_true(ep[0].end_lo_us <= sc_us(s, 7080) && ep[0].end_us >= sc_us(s, 7080));
	assert_true(ep[0].rounds_min);
	assert_true(ep[0].rounds <= 2);
	episodes_free(ep, n);
	sc_free(s);
}

/* The same log read from before the rebalance (its reader began at 2.0 s): the first "preparing" is the start, exact. */
static void
test_log_read_since_before(void **state)
{
	sc *s = sc_new(5, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "lb-other", 1); /* this broker's log tells the assignment */
	sc_obs_push(s, obs_new(KG_OBS_LOG_FROM, sc_us(s, 2000), -1, "log"));
	sc_group_set(s, "lb", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2 3 4");
	sc_tick(s, 3130);
	log_line(s, KG_OBS_PREPARING, 4360, "lb", 1); /* b1 joined */
	log_line_n(s, KG_OBS_STABILIZED, 5030, "lb", 2, 2);
	log_line_n(s, KG_OBS_SYNCED, 5050, "lb", 2, 2);
	log_line(s, KG_OBS_PREPARING, 5060, "lb", 2);
	sc_group_set(s, "lb", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a/a1;consumer-b/b1");
	sc_tick(s, 5130);
	log_line_n(s, KG_OBS_STABILIZED, 7060, "lb", 3, 2);
	log_line_n(s, KG_OBS_SYNCED, 7080, "lb", 3, 2);
	sc_group_set(s, "lb", KG_STATE_STABLE, "cooperative-sticky", "consumer-a/a1=0 1 2;consumer-b/b1=3 4");
	for (k = 0; k < 3; k++)
		sc_tick(s, 7130 + k * 2000);
	n = episodes(s, "lb", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_lo_us, sc_us(s, 4360));
	assert_int_equal(ep[0].start_us, sc_us(s, 4360));
	assert_int_equal(ep[0].end_us, sc_us(s, 7080));
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A cooperative rebalance polling saw whole, its log lines read a round a
 * tick (CI, 2026-12-04: "368 871", the first round's sync told as the
 * rebalance's end, the second's a tick later): one retimed event, with
 * both rounds, told when the lines settled.
 */
static void
test_log_retime_rounds(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "lc", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "lc", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 1000); /* polling saw the result only */
	log_line(s, KG_OBS_PREPARING, 200, "lc", 6);
	log_line(s, KG_OBS_STABILIZED, 500, "lc", 7);
	sc_tick(s, 2000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0);
	log_line(s, KG_OBS_PREPARING, 520, "lc", 7);
	log_line(s, KG_OBS_STABILIZED, 900, "lc", 8);
	sc_tick(s, 3000);
	sc_tick(s, 4000);
	n = episodes(s, "lc", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 200));
	assert_int_equal(ep[0].end_us, sc_us(s, 900));
	assert_int_equal(ep[0].rounds, 2);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);
	assert_text(sc_find(s, KG_EV_RETIMED, NULL, 0),
		    "the coordinator times that rebalance: 700ms, 2 rounds, generation 8 (from generation 6)");
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A cooperative rebalance polling closed between its rounds (a description
 * asked just before round two began said Stable), its log read late: round
 * two's "preparing" is before polling's close, its sync after it.  That
 * sync ends the episode (its end was polling's, 600 ms short of the
 * truth), and the retimed event that waited for it is told: it waited for
 * ever, and every later retimed event of the group with it.
 */
static void
test_log_late_round_after_close(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "lz", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "lz", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 1000); /* polling saw the result only, and closed it */
	log_line(s, KG_OBS_PREPARING, 200, "lz", 6);
	log_line(s, KG_OBS_STABILIZED, 500, "lz", 7);
	log_line(s, KG_OBS_PREPARING, 950, "lz", 7); /* round two, before the close */
	sc_tick(s, 2000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0); /* its sync is awaited */
	log_line(s, KG_OBS_STABILIZED, 1100, "lz", 8); /* after the close */
	sc_tick(s, 3000);
	sc_tick(s, 4000);
	sc_tick(s, 5000);
	n = episodes(s, "lz", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 200));
	assert_int_equal(ep[0].end_us, sc_us(s, 1100));
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	assert_int_equal(ep[0].gen_end, 8);
	episodes_free(ep, n);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);
	assert_text(sc_find(s, KG_EV_RETIMED, NULL, 0),
		    "the coordinator times that rebalance: 900ms, 2 rounds, generation 8 (from generation 6)");
	sc_free(s);
}

/*
 * A rebalance polling saw begin (PreparingRebalance at 2 s, Stable at 1 s
 * before) whose first round's lines the log lost (the reader started after
 * them): only round two's, read late.  Its "preparing" at 2.5 s is after
 * polling's start, so it is no start of the rebalance: the start stays
 * between the two descriptions (the truth, 1.8 s, inside), not the polled
 * start taken as the coordinator's own time (the duration's bound missed
 * it by 200 ms), and the rounds are "at least" what the log told.
 */
static void
test_log_late_round_first_lost(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	kg_episode *ep;
	kg_span d;
	int n;
	(void)state;
	sc_group_set(s, "l1", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	sc_group_set(s, "l1", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 2000);
	sc_group_set(s, "l1", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 4000);
	/* the truth: preparing 1800 (generation 6), sync 2100 (7), preparing 2500 (7), sync 2900 (8); the first two lost */
	log_line(s, KG_OBS_PREPARING, 2500, "l1", 7);
	log_line(s, KG_OBS_STABILIZED, 2900, "l1", 8);
	sc_tick(s, 5000);
	sc_tick(s, 6000);
	sc_tick(s, 9000);
	n = episodes(s, "l1", &ep);
	assert_int_equal(n, 1);
	assert_true(ep[0].start_us >= sc_us(s, 1800));
	assert_true(ep[0].start_lo_us > 0 && ep[0].start_lo_us <= sc_us(s, 1800));
	assert_int_equal(ep[0].end_us, sc_us(s, 2900));
	d = episode_duration(&ep[0], sc_us(s, 9000));
	assert_true(d.min <= 1100 * 1000LL && d.max >= 1100 * 1000LL);
	assert_true(ep[0].rounds_min || ep[0].rounds >= 2);
	assert_true(ep[0].gen_start != 7); /* round two's generation is not the one it began from */
	episodes_free(ep, n);
	e = sc_find(s, KG_EV_RETIMED, NULL, 0); /* its end is the sync's */
	assert_non_null(e);
	assert_true(e->duration.min <= 1100 * 1000LL && e->duration.max >= 1100 * 1000LL);
	assert_text(e, "the coordinator times that rebalance: 0.9-1.9s, at least 2 rounds, generation 8");
	sc_free(s);
}

/*
 * The log behind polling by more than a rebalance (a storm): polling closed
 * one rebalance (it saw only its result) and opened the next before the
 * first one's lines came.  Those lines are the first rebalance's: they
 * retime it, and neither move the open one's start back to them nor count
 * as its rounds.
 */
static void
test_log_late_previous_episode(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "lp", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "lp", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 1000); /* the first rebalance's result */
	sc_group_set(s, "lp", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky",
		     "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 2000); /* the second one, begun */
	log_line(s, KG_OBS_PREPARING, 200, "lp", 6); /* the first one's lines, read now */
	log_line(s, KG_OBS_STABILIZED, 500, "lp", 7);
	sc_tick(s, 2500);
	sc_group_set(s, "lp", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 3000);
	sc_tick(s, 7000);
	n = episodes(s, "lp", &ep);
	assert_int_equal(n, 2);
	assert_int_equal(ep[0].start_us, sc_us(s, 200)); /* the first one, retimed */
	assert_int_equal(ep[0].end_us, sc_us(s, 500));
	assert_int_equal(ep[0].gen_end, 7);
	/* the second one began after the description at 1 s said the first one's result */
	assert_true(ep[1].start_lo_us >= sc_us(s, 1000) && ep[1].start_us <= sc_us(s, 2000));
	assert_true(ep[1].gen_start != 6);
	assert_true(ep[1].gen_end != 7); /* it moved the group past the generation the first one's line told */
	episodes_free(ep, n);
	assert_text(sc_find(s, KG_EV_RETIMED, NULL, 0),
		    "the coordinator times that rebalance: 300ms, at least 2 rounds, generation 7 (from generation 6)");
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);
	assert_int_equal(sc_find(s, KG_EV_REBALANCE_END, NULL, 1)->generation, -1);
	sc_free(s);
}

/*
 * A late round whose sync is never read (the log stopped; or the next
 * rebalance's lines come first): the retimed event is told all the same,
 * LATE_ROUND_WAIT (30 s) after its last evidence, or as soon as a new
 * rebalance opens, whose own retimed event is then told too.
 */
static void
test_log_late_round_unsynced(void **state)
{
	sc *s = sc_new(6, NULL);
	int k;
	(void)state;
	sc_group_set(s, "lu", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "lu", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 1000);
	log_line(s, KG_OBS_PREPARING, 200, "lu", 6);
	log_line(s, KG_OBS_STABILIZED, 500, "lu", 7);
	log_line(s, KG_OBS_PREPARING, 950, "lu", 7);
	for (k = 2; k <= 30; k++)
		sc_tick(s, k * 1000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0); /* waiting for round two's sync */
	sc_tick(s, 31000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);

	/* the same, but a new rebalance begins first: the late round's wait ends with it */
	sc_group_set(s, "lu", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 40000);
	log_line(s, KG_OBS_PREPARING, 39200, "lu", 8);
	log_line(s, KG_OBS_STABILIZED, 39500, "lu", 9);
	log_line(s, KG_OBS_PREPARING, 39950, "lu", 9);
	sc_tick(s, 41000);
	log_line(s, KG_OBS_PREPARING, 45000, "lu", 9); /* a new rebalance, past the last one's close */
	sc_tick(s, 46000);
	sc_tick(s, 47000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 2);
	log_line(s, KG_OBS_STABILIZED, 45300, "lu", 10);
	sc_group_set(s, "lu", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 48000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 3);
	sc_free(s);
}

/* A generation record of the coordinator's (--trace offsets) at ms, its join phase ended at begun_ms. */
static void
gen_record(sc *s, int64_t ms, int64_t begun_ms, const char *group, int generation, int nmembers, bool loaded)
{
	kg_obs *o = obs_new(KG_OBS_GENERATION, sc_us(s, ms), intern_group(group), "offsets");
	o->generation = generation;
	o->nmembers = nmembers;
	o->value = sc_us(s, begun_ms);
	o->proto = KG_PROTO_COOPERATIVE;
	o->loaded = loaded;
	sc_obs_push(s, o);
}

/*
 * A formation of two generations read from the topic's history at kgtop's
 * first look (t_offsets.sh, seen on 2026-12-04: r2 formed generation 1
 * alone, r1 and r3 joined 11 ms after its sync): one rebalance before
 * kgtop watched, of two rounds.  Its end event is told with the first
 * record, its second round once the records settled (a third could
 * follow), by a retimed event that counts the rounds and names the
 * coordinator, not its log (--trace offsets reads no log).
 */
static void
test_history_formation_rounds(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	const kg_event *ev;
	int n;
	(void)state;
	gen_record(s, 8000, 7990, "fh", 1, 1, true);
	gen_record(s, 8500, 8480, "fh", 2, 3, true);
	sc_group_set(s, "fh", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 10000); /* kgtop's first look */
	n = episodes(s, "fh", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	assert_int_equal(ep[0].end_us, sc_us(s, 8500));
	assert_int_equal(ep[0].gen_end, 2);
	episodes_free(ep, n);
	ev = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(ev);
	assert_int_equal(ev->round, 1);
	sc_tick(s, 11000); /* 2.5 s after the last record: a next generation could still be this rebalance's */
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0);
	sc_tick(s, 12000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);
	ev = sc_find(s, KG_EV_RETIMED, NULL, 0);
	assert_int_equal(ev->round, 2);
	assert_text(ev, "the coordinator times that rebalance: ≥510ms, 2 rounds, generation 2");
	sc_free(s);
}

/*
 * A cooperative rebalance whose first generation's record came while it
 * was open and whose second came after polling closed it: the late record
 * amends the episode, and its rounds are both generations.  The amend
 * counted only the late ones: "1 round", exact, for a rebalance of two.
 */
static void
test_records_amend_counts_open(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	sc_group_set(s, "ra", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "ra", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5;consumer-c");
	sc_tick(s, 1000);
	gen_record(s, 1100, 1050, "ra", 5, 3, false); /* round one, read while the episode is open */
	sc_group_set(s, "ra", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 2000); /* polling closes it */
	n = episodes(s, "ra", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_us, sc_us(s, 1100));
	episodes_free(ep, n);
	gen_record(s, 1900, 1890, "ra", 6, 3, false); /* round two's record, read after */
	for (k = 3; k < 8; k++)
		sc_tick(s, k * 1000);
	n = episodes(s, "ra", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	assert_int_equal(ep[0].end_us, sc_us(s, 1900));
	assert_int_equal(ep[0].gen_end, 6);
	episodes_free(ep, n);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);
	assert_int_equal(sc_find(s, KG_EV_RETIMED, NULL, 0)->round, 2);
	sc_free(s);
}

/*
 * A description asked during a short rebalance and handed over after it
 * ended (t_offsets.sh in CI, 2026-12-04: the join of 106 ms, the refresh
 * timed 6 ms after the coordinator's sync) opens the episode after its
 * only generation's record.  That record, read while the episode is open,
 * is its end: the round began before it (by its join's end), not at the
 * refresh.  It was taken for a late record of an earlier round: the
 * episode closed at the next refresh, unmeasured, 0-2 s for 106 ms.
 */
static void
test_records_sync_before_polled_start(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "rb", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "rb", KG_STATE_PREPARING_REBALANCE, "range", "consumer-a=0 1 2;consumer-b=3 4 5;consumer-c");
	sc_tick(s, 1006); /* asked before the sync, handed over after it */
	gen_record(s, 1000, 995, "rb", 3, 3, false);
	sc_group_set(s, "rb", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 2006);
	n = episodes(s, "rb", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_us, sc_us(s, 1000));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 1000));
	assert_true(ep[0].start_us <= sc_us(s, 995));
	assert_true(ep[0].start_lo_us <= sc_us(s, 995));
	assert_int_equal(ep[0].rounds, 1);
	assert_false(ep[0].rounds_min);
	assert_int_equal(ep[0].gen_end, 3);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The coordinator's record ends a rebalance of one round exactly; the
 * log's lines of it come after, its "Assignment received" a millisecond
 * before the record (t_offsets.sh B, the log and the records read
 * together).  That sync is the record's generation's, not an earlier
 * round's: one round, exact (it said "at least 2").
 */
static void
test_log_sync_after_record_end(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	(void)state;
	log_line(s, KG_OBS_SYNCED, 0, "rl-other", 1); /* this broker's log tells the assignment */
	sc_group_set(s, "rl", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_group_set(s, "rl", KG_STATE_PREPARING_REBALANCE, "range", "consumer-a;consumer-b;consumer-c");
	sc_tick(s, 1006);
	gen_record(s, 1168, 1163, "rl", 3, 3, false);
	sc_group_set(s, "rl", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 2006);
	n = episodes(s, "rl", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_us, sc_us(s, 1168));
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 1168));
	assert_int_equal(ep[0].rounds, 1);
	episodes_free(ep, n);
	log_line(s, KG_OBS_PREPARING, 1000, "rl", 2);
	log_line_n(s, KG_OBS_STABILIZED, 1163, "rl", 3, 3);
	log_line_n(s, KG_OBS_SYNCED, 1167, "rl", 3, 3);
	sc_tick(s, 3006);
	sc_tick(s, 4006);
	n = episodes(s, "rl", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].rounds, 1);
	assert_false(ep[0].rounds_min);
	assert_true(ep[0].end_us >= sc_us(s, 1167) && ep[0].end_us <= sc_us(s, 1168));
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * The same with the coordinator's log: round one's lines read while the
 * episode was open, polling closes it (after round one's sync, at least
 * two rounds: members that stayed gave partitions up; it said "ended at
 * round one's sync, 1 round", exact), round two's read after.  The late
 * sync counted only the late lines: "1 round", exact, for two.
 */
static void
test_log_late_round_counts_open(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n, k;
	(void)state;
	sc_group_set(s, "lr", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	log_line(s, KG_OBS_PREPARING, 1200, "lr", 6);
	sc_group_set(s, "lr", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5;consumer-c");
	sc_tick(s, 2000);
	log_line(s, KG_OBS_STABILIZED, 2100, "lr", 7);
	sc_group_set(s, "lr", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 3000); /* polling closes it: after round one's sync (a and b gave partitions up: a round more) */
	n = episodes(s, "lr", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].end_lo_us, sc_us(s, 2100));
	assert_int_equal(ep[0].end_us, sc_us(s, 3000));
	assert_int_equal(ep[0].rounds, 2);
	assert_true(ep[0].rounds_min);
	episodes_free(ep, n);
	log_line(s, KG_OBS_PREPARING, 2110, "lr", 7);
	log_line(s, KG_OBS_STABILIZED, 2400, "lr", 8);
	for (k = 4; k < 9; k++)
		sc_tick(s, k * 1000);
	n = episodes(s, "lr", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 1200));
	assert_int_equal(ep[0].end_us, sc_us(s, 2400));
	assert_int_equal(ep[0].rounds, 2);
	assert_false(ep[0].rounds_min);
	episodes_free(ep, n);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 1);
	assert_int_equal(sc_find(s, KG_EV_RETIMED, NULL, 0)->round, 2);
	sc_free(s);
}

/*
 * A slow reader of __consumer_offsets (t_rebalance.sh, seen in CI): polling
 * saw a cooperative join begin and end before the reader got through the
 * topic's history, so the formation's generations (before kgtop watched)
 * and the join's two come after the join's episode closed.  The formation
 * is a rebalance before kgtop watched; the join's episode keeps its two
 * rounds, ends at the join's last generation, and stays the group's last
 * rebalance (the summary, the count since a time): the episode told late
 * goes before it.
 */
static void
test_late_history_keeps_last(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_group *G;
	kg_episode *ep;
	int n;
	(void)state;
	sc_group_set(s, "lh", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 10000); /* kgtop's first look: formed */
	sc_tick(s, 11000);
	sc_group_set(s, "lh", KG_STATE_PREPARING_REBALANCE, "cooperative-sticky",
		     "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5;consumer-d");
	sc_tick(s, 12000);
	sc_group_set(s, "lh", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_tick(s, 13000);
	sc_tick(s, 14000);
	/* the records, late: the formation (loaded), then the join's two rounds */
	gen_record(s, 8000, 7990, "lh", 1, 1, true);
	gen_record(s, 8030, 8020, "lh", 2, 2, true);
	gen_record(s, 9500, 9490, "lh", 3, 3, true);
	gen_record(s, 11900, 11800, "lh", 4, 4, false);
	gen_record(s, 12400, 12390, "lh", 5, 4, false);
	sc_tick(s, 15000);
	n = episodes(s, "lh", &ep);
	assert_true(n >= 2);
	/* in the order they began: the rebalance before kgtop watched first, the join's last */
	assert_true(ep[0].start_us < ep[n - 1].start_us);
	assert_int_equal(ep[n - 1].gen_end, 5);
	assert_int_equal(ep[n - 1].rounds, 2);
	assert_false(ep[n - 1].rounds_min);
	assert_int_equal(ep[n - 1].end_us, sc_us(s, 12400));
	/* and numbered in that order: the episode told late takes its place, the later ones one more */
	{
		int i;
		for (i = 0; i < n; i++)
			assert_int_equal(ep[i].number, i + 1);
	}
	G = snapshot_group(s->last, intern_group("lh"));
	assert_non_null(G);
	assert_int_equal(G->sum.last_rounds, 2);
	assert_false(G->sum.last_rounds_min);
	assert_int_equal(G->sum.last_episode_us, ep[n - 1].end_us - ep[n - 1].start_us);
	assert_int_equal(history_count_episodes(tracker_history(s->t), intern_group("lh"), sc_us(s, 10000)), 1);
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A cooperative join timed by the coordinator's log (t_rebalance.sh, seen
 * in CI): round one's lines are read in the same refresh as a description
 * asked before the rebalance began (Stable, every partition owned).  That
 * description cannot say the episode is over: it stays open, and round
 * two, 8 ms after round one's sync, is its second round, not a rebalance
 * of its own.
 */
static void
test_log_stale_description(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "ls", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	/* round one: preparing at 1,500, its sync at 1,690; the refresh's description was asked at 1,400 */
	log_round(s, "ls", 1500, 1680, 1690, 2, 4, "Adding new member consumer-d-m with group instance id None");
	sc_group_data_time(s, "ls", 1400);
	sc_tick(s, 1695);
	/* round two, then a description of the end */
	log_round(s, "ls", 1698, 2200, 2210, 3, 4, "Preparing to rebalance group ls in state PreparingRebalance with old generation 3");
	sc_group_set(s, "ls", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_group_data_time(s, "ls", 2500);
	sc_tick(s, 2600);
	sc_tick(s, 3600);
	assert_one_log_episode(s, "ls", 1500, 2210, 2);
	sc_free(s);
}

/*
 * The eager case of the same (t_rebalance.sh 30, a run after the change
 * above): the description from before the rebalance, handed over with
 * its lines, ends no round either; the next one, with the new owners,
 * does not look like a generation polling missed: one round, ended at the
 * coordinator's sync, measured.
 */
static void
test_log_stale_description_eager(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "le", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	log_round(s, "le", 1500, 1667, 1674, 1, 4, "Adding new member consumer-d-m with group instance id None");
	sc_group_data_time(s, "le", 1400);
	sc_tick(s, 1700);
	sc_group_set(s, "le", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2;consumer-c=3 4;consumer-d=5");
	sc_group_data_time(s, "le", 2500);
	sc_tick(s, 2600);
	sc_tick(s, 3600);
	assert_one_log_episode(s, "le", 1500, 1674, 1);
	sc_free(s);
}

/*
 * The coordinator's log read behind polling (t_rebalance.sh 30, in CI and
 * with the log's lines held back 0.8-1.2 s): polling opens the eager
 * join's episode when the rebalance is over; the log's lines, read a
 * refresh later, move its start back to the coordinator's "preparing"
 * and time its sync.  That sync is the round's (it follows the start the
 * log gave, not the refresh that opened the episode): the episode ends
 * there, measured, not at the refresh.
 */
static void
test_log_behind_polling(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "lb", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	/* the join, 1,547-1,988, seen by the next description only */
	sc_group_set(s, "lb", KG_STATE_STABLE, "range", "consumer-a=0 1;consumer-b=2;consumer-c=3 4;consumer-d=5");
	sc_group_data_time(s, "lb", 2150);
	sc_tick(s, 2253);
	log_round(s, "lb", 1547, 1982, 1988, 2, 4, "Adding new member consumer-d-m with group instance id None");
	sc_tick(s, 3154);
	sc_tick(s, 4154);
	assert_one_log_episode(s, "lb", 1547, 1988, 1);
	sc_free(s);
}

/*
 * The cooperative case (t_rebalance.sh 31 in CI: g-coop's duration not
 * measured): polling opens the episode between the two rounds; round
 * one's lines, read a refresh later with the same description (Stable, a
 * partition withheld), end round one at the coordinator's sync, so round
 * two's lines, read after, are its second round: two rounds, ended and
 * measured at round two's sync.
 */
static void
test_log_behind_polling_cooperative(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "lc", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	/* round one 1,375-1,490: consumer-c gives up 5, consumer-d gets nothing yet */
	sc_group_set(s, "lc", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=");
	sc_group_data_time(s, "lc", 1900);
	sc_tick(s, 2000);
	log_round(s, "lc", 1375, 1480, 1490, 2, 4, "Adding new member consumer-d-m with group instance id None");
	sc_tick(s, 2700);
	/* round two 2,150-2,300, its lines a refresh later with a description of the end */
	log_round(s, "lc", 2150, 2290, 2300, 3, 4, "Preparing to rebalance group lc in state PreparingRebalance with old generation 3");
	sc_group_set(s, "lc", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_group_data_time(s, "lc", 3600);
	sc_tick(s, 3700);
	sc_tick(s, 4700);
	assert_one_log_episode(s, "lc", 1375, 2300, 2);
	sc_free(s);
}

/* Log lines that arrive first open the episode; polling closes it at the coordinator's time. */
static void
test_log_first(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_obs *o;
	kg_episode *ep;
	int n;
	const kg_event *e;
	(void)state;
	sc_group_set(s, "lf", KG_STATE_STABLE, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	o = obs_new(KG_OBS_PREPARING, sc_us(s, 1200), intern_group("lf"), "log");
	o->generation = 3;
	obs_text(o, "removing member consumer-b-m on heartbeat expiration");
	o->reason = KG_REASON_SESSION_TIMEOUT;
	sc_obs_push(s, o);
	sc_tick(s, 1300);
	o = obs_new(KG_OBS_STABILIZED, sc_us(s, 1500), intern_group("lf"), "log");
	o->generation = 4;
	sc_obs_push(s, o);
	sc_group_set(s, "lf", KG_STATE_STABLE, "range", "consumer-a=0 1 2 3 4 5");
	sc_tick(s, 2000);
	n = episodes(s, "lf", &ep);
	assert_int_equal(n, 1);
	assert_int_equal(ep[0].start_us, sc_us(s, 1200));
	assert_int_equal(ep[0].end_us, sc_us(s, 1500));
	assert_int_equal(ep[0].gen_end, 4);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_int_equal(e->generation, 4);
	assert_int_equal(e->duration_us, 300000);
	/* the stale Stable description at 1.3 s was not read as the round's result */
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, "consumer-a"), 1);
	assert_int_equal(sc_find(s, KG_EV_ASSIGNED, "consumer-a", 0)->time_us, sc_us(s, 1500));
	episodes_free(ep, n);
	sc_free(s);
}

/*
 * A coordinator's log ends a cooperative join before any description
 * shows it (t_rebalance.sh: the group was not described in between): the
 * revokes and the assignments the next description shows are that
 * episode's, not lost, and no second rebalance.
 */
static void
test_log_closed_moves(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_obs *o;
	const kg_event *e;
	int n;
	kg_episode *ep;
	(void)state;
	sc_group_set(s, "lm", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	o = obs_new(KG_OBS_PREPARING, sc_us(s, 1100), intern_group("lm"), "log");
	o->generation = 3;
	obs_text(o, "Adding new member consumer-c-m with group instance id None");
	o->reason = KG_REASON_JOINED;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_STABILIZED, sc_us(s, 1200), intern_group("lm"), "log");
	o->generation = 4;
	o->nmembers = 3;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_PREPARING, sc_us(s, 1250), intern_group("lm"), "log");
	o->generation = 4;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_STABILIZED, sc_us(s, 1400), intern_group("lm"), "log");
	o->generation = 5;
	o->nmembers = 3;
	sc_obs_push(s, o);
	sc_group_data_time(s, "lm", 1000); /* not asked again in this refresh (a group asked in turn) */
	sc_tick(s, 1500);
	sc_group_data_time(s, "lm", -1);
	sc_group_set(s, "lm", KG_STATE_STABLE, "cooperative-sticky", "consumer-a=0 1;consumer-b=3 4;consumer-c=2 5");
	sc_tick(s, 2000);
	n = episodes(s, "lm", &ep);
	if (n != 1 || sc_count(s, KG_EV_REVOKED, "consumer-a") != 1)
		sc_dump(s);
	assert_int_equal(n, 1);
	assert_int_equal(sc_count_revokes(s, "lm", "consumer-a", KG_CLASS_INCREMENTAL), 1);
	assert_int_equal(sc_count_revokes(s, "lm", "consumer-b", KG_CLASS_INCREMENTAL), 1);
	e = sc_find(s, KG_EV_ASSIGNED, "consumer-c", 0);
	assert_non_null(e);
	assert_int_equal(e->nparts, 2);
	assert_int_equal(e->episode, ep[0].id);
	episodes_free(ep, n);
	sc_free(s);
}

/* What a rebalance cost in lag. */
static void
test_lag_cost(void **state)
{
	sc *s = sc_new(2, NULL);
	const kg_event *e;
	kg_snapshot *snap;
	(void)state;
	sc_group_set(s, "lag", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=1");
	sc_group_offsets(s, "lag", 100, 110);
	snap = sc_tick(s, 0);
	assert_int_equal(snapshot_group(snap, intern_group("lag"))->lag, 20);
	sc_group_set(s, "lag", KG_STATE_PREPARING_REBALANCE, "", "consumer-a;consumer-b");
	sc_group_offsets(s, "lag", 100, 600);
	sc_tick(s, 1000);
	sc_group_set(s, "lag", KG_STATE_STABLE, "range", "consumer-a=0;consumer-b=1");
	sc_group_offsets(s, "lag", 100, 1100);
	sc_tick(s, 2000);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_non_null(e);
	assert_int_equal(e->lag_cost, 2000 - 20);
	sc_free(s);
}

/* Heartbeat age and poll gap against their limits. */
static void
test_health(void **state)
{
	sc *s = sc_new(2, NULL);
	kg_obs *o;
	kg_snapshot *snap;
	const kg_member *m;
	(void)state;
	sc_group_set(s, "h", KG_STATE_STABLE, "range", "consumer-a=0 1");
	sc_group_exact(s, "h", true);
	sc_obs(s, KG_OBS_ASSIGNED, 0, "h", "consumer-a", E, "0 1");
	o = obs_new(KG_OBS_HEARTBEAT, sc_us(s, 1000), intern_group("h"), "demo");
	obs_member(o, "consumer-a-m", NULL, NULL, NULL);
	o->session_timeout_ms = 4000;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_POLL, sc_us(s, 500), intern_group("h"), "demo");
	obs_member(o, "consumer-a-m", NULL, NULL, NULL);
	sc_obs_push(s, o);
	snap = sc_tick(s, 3000);
	m = &snapshot_group(snap, intern_group("h"))->members[0];
	assert_int_equal(m->health.hb_age_us, 2000000);
	assert_int_equal(m->health.session_timeout_us, 4000000);
	assert_int_equal(m->health.session_src, KG_LIMIT_TRACE);
	assert_int_equal(m->health.poll_gap_us, 2500000);
	assert_int_equal(m->health.max_poll_us, 300000000);
	assert_int_equal(m->health.max_poll_src, KG_LIMIT_DEFAULT);
	/* metrics keyed by client id alone find their member */
	o = obs_new(KG_OBS_METRICS, sc_us(s, 3500), -1, "jolokia");
	obs_member(o, NULL, "consumer-a", NULL, NULL);
	o->failed_rebalances = 2;
	sc_obs_push(s, o);
	snap = sc_tick(s, 4000);
	m = &snapshot_group(snap, intern_group("h"))->members[0];
	assert_int_equal(m->health.failed_rebalances, 2);
	sc_free(s);
}

/* A group that disappears, and source health changes, become events. */
static void
test_group_gone_and_sources(void **state)
{
	sc *s = sc_new(2, NULL);
	(void)state;
	sc_group_set(s, "gone", KG_STATE_STABLE, "range", "consumer-a=0 1");
	sc_tick(s, 0);
	sc_group_drop(s, "gone");
	sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_GROUP_GONE, NULL), 1);
	sc_group_set(s, "gone", KG_STATE_STABLE, "range", "consumer-a=0 1");
	sc_tick(s, 2000);
	assert_int_equal(sc_count(s, KG_EV_GROUP_APPEARED, NULL), 1);
	sc_free(s);
}

/* The history keeps only the window, and views copy what the renderer needs. */
static void
test_history_window(void **state)
{
	kg_tracker_config cfg;
	sc *s;
	kg_hview *v;
	int i;
	(void)state;
	cfg = options_model_defaults();
	cfg.window_us = 60LL * 1000000;
	s = sc_new(2, &cfg);
	for (i = 0; i < 20; i++) {
		sc_group_set(s, "w", KG_STATE_STABLE, "range", i % 2 ? "consumer-a=0 1" : "consumer-a=0;consumer-b=1");
		sc_tick(s, (int64_t)i * 10000);
	}
	v = history_view(tracker_history(s->t), intern_group("w"), sc_us(s, 100000), sc_us(s, 190000));
	assert_true(v->nsamples > 0);
	assert_true(v->oldest_us >= sc_us(s, 190000) - 70LL * 1000000);
	assert_int_equal(v->nlanes, 2);
	assert_non_null(hview_sample_at(v, sc_us(s, 150000)));
	hview_free(v);
	sc_free(s);
}

/* Run. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_range),
		cmocka_unit_test(test_seed_coop),
		cmocka_unit_test(test_coop_rounds_exact),
		cmocka_unit_test(test_polled_eager_join),
		cmocka_unit_test(test_rounds_made_by_first_episode),
		cmocka_unit_test(test_polled_coop_join),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_kept_rows_marked_anew),
		cmocka_unit_test(test_polled_leave),
		cmocka_unit_test(test_polled_leave_asked_before),
		cmocka_unit_test(test_leave_reason),
		cmocka_unit_test(test_exact_eager_extra_round),
		cmocka_unit_test(test_orphans),
		cmocka_unit_test(test_storm),
		cmocka_unit_test(test_storm_ratio),
		cmocka_unit_test(test_storm_rounds),
		cmocka_unit_test(test_storm_formation),
		cmocka_unit_test(test_storm_rolling_restart),
		cmocka_unit_test(test_storm_demo_loop),
		cmocka_unit_test(test_storm_churn),
		cmocka_unit_test(test_stuck_is_not_storm),
		cmocka_unit_test(test_describe_error_is_not_a_rebalance),
		cmocka_unit_test(test_empty_closes),
		cmocka_unit_test(test_eager_no_repeats),
		cmocka_unit_test(test_callback_gap_in_polled_group),
		cmocka_unit_test(test_static_replaced_in_log),
		cmocka_unit_test(test_late_leave_reason),
		cmocka_unit_test(test_late_callback_no_revival),
		cmocka_unit_test(test_reused_member_id),
		cmocka_unit_test(test_stopped_count),
		cmocka_unit_test(test_lanes_bounded),
		cmocka_unit_test(test_static_restart),
		cmocka_unit_test(test_static_replaced),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_log_retime),
		cmocka_unit_test(test_log_retime_rounds),
		cmocka_unit_test(test_log_late_emptied_unsynced),
		cmocka_unit_test(test_log_late_emptied_then_join),
		cmocka_unit_test(test_log_behind_cooperative_second_round),
		cmocka_unit_test(test_log_late_join_again),
		cmocka_unit_test(test_log_late_sync_at_bound),
		cmocka_unit_test(test_log_late_stabilized_not_end),
		cmocka_unit_test(test_log_late_sync_before_polled_end),
		cmocka_unit_test(test_log_behind_stabilized_before_polled),
		cmocka_unit_test(test_log_late_sync_at_polled_sync),
		cmocka_unit_test(test_log_emptied_then_joined_unpolled),
		cmocka_unit_test(test_log_behind_members_differ),
		cmocka_unit_test(test_log_rejoin_after_polled_leave),
		cmocka_unit_test(test_log_late_line_of_earlier_episode),
		cmocka_unit_test(test_log_read_from_mid_rebalance),
		cmocka_unit_test(test_log_late_join_while_polled_empty),
		cmocka_unit_test(test_log_late_sync_within_skew),
		cmocka_unit_test(test_log_sync_after_wait),
		cmocka_unit_test(test_log_rejoin_in_time),
		cmocka_unit_test(test_log_start_after_emptied_episode),
		cmocka_unit_test(test_log_read_from_its_end),
		cmocka_unit_test(test_log_read_since_before),
		cmocka_unit_test(test_log_late_round_after_close),
		cmocka_unit_test(test_log_late_round_unsynced),
		cmocka_unit_test(test_log_late_round_first_lost),
		cmocka_unit_test(test_log_late_previous_episode),
		cmocka_unit_test(test_log_late_round_counts_open),
		cmocka_unit_test(test_records_amend_counts_open),
		cmocka_unit_test(test_records_sync_before_polled_start),
		cmocka_unit_test(test_log_sync_after_record_end),
		cmocka_unit_test(test_history_formation_rounds),
		cmocka_unit_test(test_late_history_keeps_last),
		cmocka_unit_test(test_log_stale_description),
		cmocka_unit_test(test_log_stale_description_eager),
		cmocka_unit_test(test_log_behind_polling),
		cmocka_unit_test(test_log_behind_polling_cooperative),
		cmocka_unit_test(test_log_first), cmocka_unit_test(test_log_closed_moves),
		cmocka_unit_test(test_lag_cost),
		cmocka_unit_test(test_health),
		cmocka_unit_test(test_group_gone_and_sources),
		cmocka_unit_test(test_history_window),
		cmocka_unit_test(test_joiners_listed),
		cmocka_unit_test(test_refilled_group),
		cmocka_unit_test(test_lane_order),
		cmocka_unit_test(test_lane_reused_id),
		cmocka_unit_test(test_coop_second_join_is_next_round),
		cmocka_unit_test(test_coop_rejoin_after_leave_rounds),
		cmocka_unit_test(test_coop_second_join_stamped_early),
		cmocka_unit_test(test_empties_and_skewed_leave),
		cmocka_unit_test(test_lag_trend_early),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

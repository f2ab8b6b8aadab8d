/*
 * test_kafka.c: the real kafka source, collector and tracker against the
 * fixture broker: a stable cluster, a fourth member joining under range
 * and under cooperative-sticky, a member leaving, faults (not authorized,
 * the whole cluster down and back, slow and failing answers), the tiers of
 * a refresh (the groups on screen every time, the others in turn, Empty
 * ones never described, a changed state described at once) and the health
 * when the cluster goes and comes back, the log starts read once a period
 * and published in between, the log ends of a small cluster read without
 * waking a thread of their own, and together again when answers are slow
 * or a leader is down.  Every test also proves kgtop is
 * read-only: the broker rejected no write because kgtop sent none.
 */
#include "config.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture_util.h"
#include "model/defaults.h"
#include "model/intern.h"
#include "model/progress.h"
#include "sources/kafka/kafka_logend.h"
#include "sources/kafka/kafka_stamp.h"
#include "sources/kafka/kafka_sched.h"
#include "util/util.h"

typedef struct want_state {
	const char *group;
	kg_group_state state;
} want_state;

typedef struct want_members {
	const char *group;
	kg_group_state state;
	int members;
} want_members;

/* Predicate: state and member count. */
static bool
pred_members(live *l, const void *arg)
{
	const want_members *w = arg;
	const kg_group *g = live_group(l, w->group);
	return g != NULL && g->state == w->state && g->nmembers == w->members;
}

/* Predicate: at least n groups. */
static bool
pred_ngroups(live *l, const void *arg)
{
	return l->snap->ngroups >= *(const int *)arg;
}

/* Predicate: the kafka source has a status. */
static bool
pred_source(live *l, const void *arg)
{
	int i;
	for (i = 0; i < l->snap->nsources; i++) {
		if (strcmp(l->snap->sources[i].name, "kafka") == 0)
			return l->snap->sources[i].status == *(const kg_src_status *)arg;
	}
	return false;
}

/* Predicate: a group has a describe error. */
static bool
pred_group_error(live *l, const void *arg)
{
	const kg_group *g = live_group(l, arg);
	return g != NULL && g->error != NULL;
}

/* Predicate: a group has no describe error. */
static bool
pred_group_ok(live *l, const void *arg)
{
	const kg_group *g = live_group(l, arg);
	return g != NULL && g->error == NULL && g->state == KG_STATE_STABLE;
}

/* Predicate: the cluster source's refreshes reached a number. */
static bool
pred_refresh(live *l, const void *arg)
{
	return l->snap != NULL && l->snap->refresh >= *(const uint64_t *)arg;
}

/* The kafka source's health in the newest snapshot. */
static const kg_source_health *
kafka_health(live *l)
{
	int i;
	for (i = 0; l->snap != NULL && i < l->snap->nsources; i++) {
		if (strcmp(l->snap->sources[i].name, "kafka") == 0)
			return &l->snap->sources[i];
	}
	return NULL;
}

/* DescribeGroups requests the broker logged for a group. */
static int
describes(fixture *f, const char *group)
{
	char key[96];
	snprintf(key, sizeof key, "first=%s\n", group);
	return fixture_log_count(f, "DescribeGroups", key);
}

/* OffsetFetch requests the broker logged for a group. */
static int
fetches(fixture *f, const char *group)
{
	char key[96];
	snprintf(key, sizeof key, "group=%s ", group);
	return fixture_log_count(f, "OffsetFetch", key);
}

/* Step the fixture and wait for a state. */
static void
step_to(fixture *f, live *l, const char *group, kg_group_state st, int members)
{
	want_members w = { group, st, members };
	assert_int_equal(fixture_step(f), 0);
	if (!live_wait(l, pred_members, &w, 10000)) {
		live_dump(l);
		fail_msg("group %s never reached %s with %d members", group, state_name(st), members);
	}
}

/* A stable cluster: groups, members, offsets, lag; nothing derived as a rebalance. */
static void
test_stable(void **state)
{
	fixture f;
	live l;
	int four = 4;
	const kg_group *g;
	kg_src_status ok = KG_SRC_OK;
	(void)state;
	assert_int_equal(fixture_start(&f, "stable.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_ngroups, &four, 10000));
	assert_true(live_wait(&l, pred_source, &ok, 5000));
	g = live_group(&l, "g-coop");
	assert_non_null(g);
	assert_int_equal(g->state, KG_STATE_STABLE);
	assert_int_equal(g->proto, KG_PROTO_COOPERATIVE);
	assert_int_equal(g->nmembers, 2);
	assert_string_equal(g->members[0].host, "/127.0.0.1");
	assert_non_null(g->members[0].instance_id);
	assert_int_equal(g->lag, 1030);
	assert_true(g->coordinator >= 1);
	g = live_group(&l, "g-idle");
	assert_int_equal(g->state, KG_STATE_EMPTY);
	assert_int_equal(g->nmembers, 0);
	assert_int_equal(g->parts[0].lag, 4990);
	g = live_group(&l, "g-multi");
	assert_int_equal(g->proto, KG_PROTO_EAGER);
	assert_int_equal(g->nparts, 9);
	assert_int_equal(l.snap->nbrokers, 3);
	assert_int_equal(live_count(&l, "g-coop", KG_EV_REBALANCE_START, NULL), 0);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* range: consumer-d joins; a, b, c each revoke everything (by the eager protocol). */
static void
test_join_range(void **state)
{
	fixture f;
	live l;
	want_members w = { "g-range", KG_STATE_STABLE, 3 };
	(void)state;
	assert_int_equal(fixture_start(&f, "join-range.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_members, &w, 10000));
	step_to(&f, &l, "g-range", KG_STATE_PREPARING_REBALANCE, 4);
	step_to(&f, &l, "g-range", KG_STATE_COMPLETING_REBALANCE, 4);
	step_to(&f, &l, "g-range", KG_STATE_STABLE, 4);
	if (live_revokes(&l, "g-range", KG_CLASS_FULL) != 3)
		live_dump(&l);
	assert_int_equal(live_revokes(&l, "g-range", KG_CLASS_FULL), 3);
	assert_int_equal(live_revokes(&l, "g-range", KG_CLASS_INCREMENTAL), 0);
	assert_int_equal(live_count(&l, "g-range", KG_EV_MEMBER_JOINED, "consumer-d"), 1);
	assert_int_equal(live_count(&l, "g-range", KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(live_count(&l, "g-range", KG_EV_REBALANCE_END, NULL), 1);
	assert_int_equal(live_count(&l, "g-range", KG_EV_ASSIGNED, "consumer-d"), 1);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* cooperative-sticky: only partition 3 moves, revoked in round one and assigned in round two. */
static void
test_join_coop(void **state)
{
	fixture f;
	live l;
	want_members w = { "g-coop", KG_STATE_STABLE, 3 };
	size_t i;
	const kg_event *rv = NULL, *as = NULL, *end = NULL;
	(void)state;
	assert_int_equal(fixture_start(&f, "join-coop.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_members, &w, 10000));
	step_to(&f, &l, "g-coop", KG_STATE_PREPARING_REBALANCE, 4);
	step_to(&f, &l, "g-coop", KG_STATE_COMPLETING_REBALANCE, 4);
	step_to(&f, &l, "g-coop", KG_STATE_STABLE, 4);
	assert_int_equal(live_count(&l, "g-coop", KG_EV_REBALANCE_END, NULL), 0); /* 3 is in flight */
	assert_true(live_group(&l, "g-coop")->sum.in_episode);
	step_to(&f, &l, "g-coop", KG_STATE_PREPARING_REBALANCE, 4);
	step_to(&f, &l, "g-coop", KG_STATE_COMPLETING_REBALANCE, 4);
	step_to(&f, &l, "g-coop", KG_STATE_STABLE, 4);
	for (i = 0; i < l.ev.n; i++) {
		const kg_event *e = l.ev.v[i];
		if (e->kind == KG_EV_REVOKED && rv == NULL)
			rv = e;
		if (e->kind == KG_EV_ASSIGNED && e->client_id && strcmp(e->client_id, "consumer-d") == 0)
			as = e;
		if (e->kind == KG_EV_REBALANCE_END)
			end = e;
	}
	if (rv == NULL || as == NULL || end == NULL)
		live_dump(&l);
	assert_non_null(rv);
	assert_string_equal(rv->client_id, "consumer-a");
	assert_int_equal(rv->cls, KG_CLASS_INCREMENTAL);
	assert_int_equal(rv->nparts, 1);
	assert_int_equal(rv->parts[0].partition, 3);
	assert_int_equal(rv->round, 1);
	assert_non_null(as);
	assert_int_equal(as->round, 2);
	assert_int_equal(as->parts[0].partition, 3);
	assert_non_null(end);
	assert_int_equal(end->round, 2);
	assert_int_equal(live_revokes(&l, "g-coop", KG_CLASS_FULL), 0);
	assert_int_equal(live_count(&l, "g-coop", KG_EV_REBALANCE_START, NULL), 1);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* A member leaves, then everyone; then one comes back on its old lane. */
static void
test_leave(void **state)
{
	fixture f;
	live l;
	want_members w = { "g-leave", KG_STATE_STABLE, 3 };
	const kg_group *g;
	int lane_a;
	(void)state;
	assert_int_equal(fixture_start(&f, "leave.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_members, &w, 10000));
	g = live_group(&l, "g-leave");
	lane_a = g->members[0].lane; /* member ids sort by client id here: consumer-a first */
	step_to(&f, &l, "g-leave", KG_STATE_PREPARING_REBALANCE, 2);
	assert_int_equal(live_count(&l, "g-leave", KG_EV_MEMBER_LEFT, "consumer-c"), 1);
	step_to(&f, &l, "g-leave", KG_STATE_COMPLETING_REBALANCE, 2);
	step_to(&f, &l, "g-leave", KG_STATE_STABLE, 2);
	assert_int_equal(live_count(&l, "g-leave", KG_EV_REBALANCE_END, NULL), 1);
	assert_int_equal(live_revokes(&l, "g-leave", KG_CLASS_FULL), 2);
	step_to(&f, &l, "g-leave", KG_STATE_EMPTY, 0);
	assert_int_equal(live_count(&l, "g-leave", KG_EV_MEMBER_LEFT, NULL), 3);
	step_to(&f, &l, "g-leave", KG_STATE_STABLE, 1);
	g = live_group(&l, "g-leave");
	assert_int_equal(g->members[0].lane, lane_a);
	assert_int_equal(live_count(&l, "g-leave", KG_EV_MEMBER_JOINED, "consumer-a"), 1);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Faults: not authorized, the cluster down briefly, slow and failing answers. */
static void
test_faults(void **state)
{
	fixture f;
	live l;
	want_members w = { "g-ok", KG_STATE_STABLE, 1 };
	kg_src_status ok = KG_SRC_OK;
	const kg_group *g;
	int i;
	(void)state;
	assert_int_equal(fixture_start(&f, "faults.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_members, &w, 10000));
	/* 1: g-denied is not authorized; g-ok is unaffected */
	assert_int_equal(fixture_step(&f), 0);
	assert_true(live_wait(&l, pred_group_error, "g-denied", 10000));
	g = live_group(&l, "g-denied");
	assert_non_null(strstr(g->error, "not authorized"));
	assert_null(live_group(&l, "g-ok")->error);
	/* 2: cleared, and the cluster blinks for 1 s */
	assert_int_equal(fixture_step(&f), 0);
	assert_true(live_wait(&l, pred_group_ok, "g-denied", 15000));
	/* 3-7: slow answers, loading coordinators, closed connections, a moved coordinator, all clear */
	for (i = 3; i <= 7; i++)
		assert_int_equal(fixture_step(&f), 0);
	assert_true(live_wait(&l, pred_source, &ok, 30000));
	assert_true(live_wait(&l, pred_group_ok, "g-ok", 30000));
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Predicate: the wall clock reached a time (us). */
static bool
pred_wall(live *l, const void *arg)
{
	(void)l;
	return util_now_us() >= *(const int64_t *)arg;
}

/*
 * The broker stops for 8 s: the source goes stale with librdkafka's reason
 * within the refresh under way (not when a request times out), the data
 * keeps its own time while stale, then ok by itself within two refreshes
 * of the return, "ok since" the first answer after it; groups stay.
 */
static void
test_outage(void **state)
{
	fixture f;
	live l;
	want_members w = { "g-outage", KG_STATE_STABLE, 1 };
	kg_src_status stale = KG_SRC_STALE, ok = KG_SRC_OK;
	const kg_source_health *h;
	uint64_t r0, r_back;
	int64_t step_wall, back, data_before;
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/outage.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_members, &w, 10000));
	assert_true(live_wait(&l, pred_source, &ok, 5000));
	r0 = l.snap->refresh;
	step_wall = util_now_us();
	assert_int_equal(fixture_step(&f), 0);
	assert_true(live_wait(&l, pred_source, &stale, 15000));
	assert_true(l.snap->refresh <= r0 + 1);
	h = kafka_health(&l);
	assert_non_null(h->message);
	assert_true(h->since_us > 0);
	/* the last known picture stays on screen while stale, under the time it was asked */
	assert_non_null(live_group(&l, "g-outage"));
	data_before = l.snap->data_time_us;
	assert_true(data_before > 0 && data_before <= step_wall);
	assert_true(live_group(&l, "g-outage")->data_time_us <= step_wall);
	back = step_wall + 8LL * 1000000;
	assert_true(live_wait(&l, pred_wall, &back, 15000));
	if (kafka_health(&l)->status == KG_SRC_STALE)
		assert_int_equal(l.snap->data_time_us, data_before);
	r_back = l.snap->refresh;
	assert_true(live_wait(&l, pred_source, &ok, 30000));
	assert_true(l.snap->refresh - r_back <= 2);
	assert_true(kafka_health(&l)->since_us >= back - 100000);
	assert_true(live_wait(&l, pred_members, &w, 10000));
	assert_true(live_count(&l, NULL, KG_EV_SOURCE, NULL) >= 2); /* stale, then ok */
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Predicate: a group's lag is known. */
static bool
pred_lag(live *l, const void *arg)
{
	const kg_group *g = live_group(l, arg);
	return g != NULL && g->lag >= 0;
}

/*
 * An old broker answers "all partitions" with nothing: the offsets are
 * asked again, explicitly.  Its listing gives no states, so an Empty group
 * is described like any other (the listing cannot say it is Empty).
 */
static void
test_old_broker_offsets(void **state)
{
	fixture f;
	live l;
	want_members idle = { "g-old-idle", KG_STATE_EMPTY, 0 };
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/old-broker.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_lag, "g-old", 10000));
	assert_int_equal(live_group(&l, "g-old")->lag, 40);
	assert_true(live_wait(&l, pred_members, &idle, 10000));
	assert_true(describes(&f, "g-old-idle") >= 1);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/*
 * The tiers of a refresh, with a screen showing three groups: those are
 * described and asked their offsets every refresh; the others once (their
 * turn comes every --full-refresh, a minute here); Empty groups are never
 * described (the listing says they are Empty); a group whose listed state
 * changes is described in the next refresh, on screen or not.  Every
 * group on screen has its records read, not only the selected one: its
 * time lag is exact (issue 22: the list's TIME-LAG was exact for the
 * selected row only); a group off screen is not read.
 */
static void
test_tiers(void **state)
{
	fixture f;
	live l;
	int32_t shown[3];
	uint64_t want = 12, r0;
	want_members wake = { "g-wake", KG_STATE_PREPARING_REBALANCE, 1 };
	const kg_group *on, *off;
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/tiered.json", true), 0);
	assert_int_equal(live_open_tiers(&l, f.bootstrap, 200, 60LL * 1000000, 1000), 0);
	shown[0] = intern_group("g-shown-1");
	shown[1] = intern_group("g-shown-2");
	shown[2] = intern_group("g-shown-3");
	collector_set_focus(l.c, shown, 3, shown[0]);
	assert_true(live_wait(&l, pred_refresh, &want, 20000));
	assert_true(describes(&f, "g-shown-2") >= 10);
	assert_true(fetches(&f, "g-shown-2") >= 10);
	assert_int_equal(describes(&f, "g-off-1"), 1);
	assert_int_equal(fetches(&f, "g-off-1"), 1);
	/* off screen with members and lag: at risk, asked every refresh the budget allows (it allows all) */
	assert_true(describes(&f, "g-risk") >= 10);
	assert_true(fetches(&f, "g-risk") >= 10);
	assert_int_equal(describes(&f, "g-empty-1"), 0);
	assert_int_equal(fetches(&f, "g-empty-1"), 1);
	assert_int_equal(live_group(&l, "g-empty-1")->state, KG_STATE_EMPTY);
	/* every row says how old its data is */
	on = live_group(&l, "g-shown-2");
	off = live_group(&l, "g-off-1");
	/* each shown group at an offset of its own (880, 860; the selected one 900): read, exact */
	assert_int_equal(on->tlag_kind, KG_TLAG_EXACT);
	assert_int_equal(live_group(&l, "g-shown-3")->tlag_kind, KG_TLAG_EXACT);
	assert_int_equal(live_group(&l, "g-shown-1")->tlag_kind, KG_TLAG_EXACT);
	assert_true(live_group(&l, "g-risk")->tlag_kind != KG_TLAG_EXACT); /* off screen: no record read */
	assert_true(on->data_time_us > off->data_time_us);
	assert_true(off->data_time_us > 0 && off->data_time_us <= l.snap->time_us);
	/* g-wake, off screen, starts to rebalance: described in the next refresh (the one under way may not see it) */
	r0 = l.snap->refresh;
	assert_int_equal(describes(&f, "g-wake"), 0);
	step_to(&f, &l, "g-wake", KG_STATE_PREPARING_REBALANCE, 1);
	assert_true(live_wait(&l, pred_members, &wake, 1000));
	assert_true(l.snap->refresh - r0 <= 2);
	assert_true(describes(&f, "g-wake") >= 1);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

typedef struct want_verdict {
	const char *group;
	kg_verdict at_least;
} want_verdict;

/* Predicate: the group's verdict is at least this bad (LOST aside). */
static bool
pred_verdict(live *l, const void *arg)
{
	const want_verdict *w = arg;
	const kg_group *g = live_group(l, w->group);
	return g != NULL && g->verdict >= w->at_least && g->verdict != KG_VERDICT_LOST;
}

/* Predicate: the group's verdict is better than this one now. */
static bool
pred_not_verdict(live *l, const void *arg)
{
	const want_verdict *w = arg;
	const kg_group *g = live_group(l, w->group);
	return g != NULL && g->verdict < w->at_least;
}

/* Predicate: every partition of the group was seen moving, its usual gap between commits known, its verdict OK. */
static bool
pred_moving(live *l, const void *arg)
{
	return live_group_moving(l, arg);
}

/*
 * Attention by risk (issue 24): g-stall is not selected nor shown (g-sel
 * is); its commits freeze while its topic grows.  The STALLED rule holds
 * a frozen partition with lag for its threshold (a tenth of --lag-window,
 * at least two intervals and twice the usual gap between commits): asked
 * every refresh because it has members and lag, g-stall turns STALLED
 * within that threshold and two refreshes of the freeze (plus a second
 * for the step's signal and a refresh's own time).  Before, a group off
 * screen was asked every --full-refresh (30 s): its gap grew to a quarter
 * window, and the verdict came tens of seconds late.  Then the freeze is
 * settled (kafka_sched.h): g-stall is asked once its data is 10 s old,
 * not every refresh (before, every refresh: 24 fetches in 12 s), and
 * stays STALLED; when its commits move again (no member changes, so the
 * listing says nothing) the verdict leaves STALLED within those 10 s and
 * two refreshes (plus a second for the step's signal and a refresh).
 */
static void
test_stall_off_screen(void **state)
{
	const int interval_ms = 500;
	const int64_t window_us = 20 * 1000000LL, iv = interval_ms * 1000LL;
	fixture f;
	live l;
	int32_t shown[1];
	want_verdict stalled = { "g-stall", KG_VERDICT_STALLED };
	const kg_group *g;
	int64_t gap = 0, thr, deadline_us, t0;
	uint64_t want;
	int k, n0, n1;
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/stall-off.json", true), 0);
	assert_int_equal(live_open_window(&l, f.bootstrap, interval_ms, 0, 0, window_us), 0);
	shown[0] = intern_group("g-sel");
	collector_set_focus(l.c, shown, 1, shown[0]);
	/* judged moving first: seen moving on every partition, OK */
	assert_true(live_wait(&l, pred_moving, "g-stall", 30000));
	g = live_group(&l, "g-stall");
	for (k = 0; k < g->nparts; k++)
		gap = g->parts[k].commit_gap_us > gap ? g->parts[k].commit_gap_us : gap;
	thr = progress_stall_us(window_us, iv);
	thr = 2 * gap > thr ? 2 * gap : thr;
	deadline_us = thr + 2 * iv + 1000000;
	t0 = util_mono_us();
	assert_int_equal(fixture_step(&f), 0);
	if (!live_wait(&l, pred_verdict, &stalled, (int)(deadline_us / 1000))) {
		g = live_group(&l, "g-stall");
		fprintf(stderr, "# g-stall: verdict %d %.1f s after the freeze (threshold %.1f s, gap %.1f s)\n",
			g != NULL ? g->verdict : -1, (double)(util_mono_us() - t0) / 1e6, (double)thr / 1e6, (double)gap / 1e6);
		fail();
	}
	fprintf(stderr, "# g-stall STALLED %.1f s after the freeze (threshold %.1f s, %d ms refreshes)\n",
		(double)(util_mono_us() - t0) / 1e6, (double)thr / 1e6, interval_ms);
	assert_int_equal(live_group(&l, "g-stall")->verdict, KG_VERDICT_STALLED);
	assert_int_equal(live_group(&l, "g-sel")->verdict, KG_VERDICT_OK);
	/* settled once still for the threshold, two refreshes and twice its gap: then 8 s of refreshes */
	want = l.snap->refresh + (uint64_t)((2 * gap + 2 * iv) / iv) + 2;
	assert_true(live_wait(&l, pred_refresh, &want, 20000));
	n0 = fetches(&f, "g-stall");
	want += 24;
	assert_true(live_wait(&l, pred_refresh, &want, 30000));
	n1 = fetches(&f, "g-stall");
	fprintf(stderr, "# g-stall settled: %d fetches in 24 refreshes of %d ms\n", n1 - n0, interval_ms);
	assert_true(n1 - n0 >= 1 && n1 - n0 <= 2); /* once its data is 10 s old, not before */
	assert_int_equal(live_group(&l, "g-stall")->verdict, KG_VERDICT_STALLED);
	t0 = util_mono_us();
	assert_int_equal(fixture_step(&f), 0);
	if (!live_wait(&l, pred_not_verdict, &stalled, (int)((KSCHED_QUIET_US + 2 * iv + 1000000) / 1000 + interval_ms))) {
		fprintf(stderr, "# g-stall: still STALLED %.1f s after its commits moved again\n", (double)(util_mono_us() - t0) / 1e6);
		fail();
	}
	fprintf(stderr, "# g-stall left STALLED %.1f s after its commits moved again\n", (double)(util_mono_us() - t0) / 1e6);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

typedef struct want_start {
	const char *group;
	int64_t log_start;
	bool lost;
} want_start;

/* Predicate: every partition of the group has this log start (and, when lost, is LOST). */
static bool
pred_start(live *l, const void *arg)
{
	const want_start *w = arg;
	const kg_group *g = live_group(l, w->group);
	int k;
	if (g == NULL || g->nparts == 0)
		return false;
	for (k = 0; k < g->nparts; k++) {
		if (g->parts[k].log_start != w->log_start || (w->lost && g->parts[k].verdict != KG_VERDICT_LOST))
			return false;
	}
	return true;
}

/* The partitions the broker was asked the log start (EARLIEST) of, so far. */
static int
earliest_asked(fixture *f)
{
	return fixture_log_sum(f, "ListOffsets", NULL, "earliest=");
}

/*
 * Log starts (issue 24): a topic's are read once every
 * KG_KAFKA_LOG_START_US, not every refresh, and the last read ones are
 * published in between; retention that passes a group's committed offset
 * still turns it LOST, by the next read.  progress.json's topics have 11
 * partitions: over a window of refreshes each is asked at most once a
 * period (before, every refresh asked all 11: 25 refreshes, 275).
 */
static void
test_log_start_kept(void **state)
{
	const int partitions = 11;
	fixture f;
	live l;
	want_start kept = { "g-lost", 1000, false }, lost = { "g-lost", 2800, true };
	uint64_t want;
	int e0, e1, bound;
	int64_t t0, t1;
	(void)state;
	assert_int_equal(fixture_start(&f, "progress.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_start, &kept, 10000));
	want = l.snap->refresh + 25;
	e0 = earliest_asked(&f);
	t0 = util_mono_us();
	assert_true(live_wait(&l, pred_refresh, &want, 30000));
	e1 = earliest_asked(&f);
	t1 = util_mono_us();
	bound = partitions * (int)(1 + (t1 - t0) / KG_KAFKA_LOG_START_US);
	fprintf(stderr, "# %d log starts asked over 25 refreshes in %.1f s (at most %d)\n", e1 - e0,
		(double)(t1 - t0) / 1e6, bound);
	assert_true(e0 > 0);
	assert_true(e1 - e0 <= bound);
	/* published at every refresh all the same */
	assert_true(pred_start(&l, &kept));
	/* step 1 rewinds another group; step 2: retention passes g-lost's commits */
	assert_int_equal(fixture_step(&f), 0);
	assert_int_equal(fixture_step(&f), 0);
	if (!live_wait(&l, pred_start, &lost, (int)(KG_KAFKA_LOG_START_US / 1000) + 10000)) {
		live_dump(&l);
		fail_msg("g-lost never LOST at log start 2800");
	}
	assert_int_equal(live_group(&l, "g-lost")->parts[0].lost, 2800 - live_group(&l, "g-lost")->parts[0].committed);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* The partitions the broker was asked the log end (LATEST) of, so far. */
static int
latest_asked(fixture *f)
{
	return fixture_log_sum(f, "ListOffsets", NULL, "partitions=") - earliest_asked(f);
}

/* Predicate: a group's lag is above a bound. */
typedef struct want_lag {
	const char *group;
	int64_t above;
} want_lag;

static bool
pred_lag_above(live *l, const void *arg)
{
	const want_lag *w = arg;
	const kg_group *g = live_group(l, w->group);
	return g != NULL && g->lag > w->above;
}

/*
 * Over n refreshes from now, the log ends asked: the busy topics' partitions
 * every refresh, the quiet ones' once a KG_KAFKA_LOG_QUIET_US at most.
 */
static void
assert_quiet_reads(live *l, fixture *f, int busy, int quiet, int n, const char *what)
{
	uint64_t r0 = l->snap->refresh, want = r0 + (uint64_t)n;
	int a0 = latest_asked(f), a1, bound, refreshes;
	int64_t t0 = util_mono_us(), t1;
	assert_true(live_wait(l, pred_refresh, &want, 30000));
	a1 = latest_asked(f);
	t1 = util_mono_us();
	refreshes = (int)(l->snap->refresh - r0);
	bound = busy * (refreshes + 1) + quiet * (int)(1 + (t1 - t0) / KG_KAFKA_LOG_QUIET_US);
	fprintf(stderr, "# %s: %d log ends asked over %d refreshes in %.1f s (at most %d; every refresh: %d)\n", what,
		a1 - a0, refreshes, (double)(t1 - t0) / 1e6, bound, (busy + quiet) * refreshes);
	assert_true(a1 - a0 >= busy * (refreshes - 1)); /* the busy topics every refresh */
	assert_true(a1 - a0 <= bound);
}

/* After the next step (something produced to a quiet topic), group's lag grows above `above` by its next read. */
static void
assert_lag_grows(live *l, fixture *f, const char *group, int64_t above, int timeout_ms)
{
	want_lag grew = { group, above };
	int64_t t0 = util_mono_us();
	assert_int_equal(fixture_step(f), 0);
	if (!live_wait(l, pred_lag_above, &grew, timeout_ms)) {
		live_dump(l);
		fail_msg("%s's lag never grew after its topic moved", group);
	}
	fprintf(stderr, "# %s's lag grew %.1f s after its topic moved (at most %.0f s + a refresh)\n", group,
		(double)(util_mono_us() - t0) / 1e6, (double)KG_KAFKA_LOG_QUIET_US / 1e6);
}

/*
 * A quiet topic's log ends (issue 24): a topic only an Empty group uses,
 * whose log ends do not move, is asked once every KG_KAFKA_LOG_QUIET_US,
 * its last log ends published in between (its group's lag stays known);
 * a topic a group with members uses is asked every refresh.  When
 * something is produced to the quiet topic, its group's lag grows by its
 * next read.  Over 25 refreshes the quiet topic's 20 partitions were
 * asked 25 times each before (500 log ends).
 */
static void
test_log_end_quiet(void **state)
{
	const int quiet = 20, busy = 1;
	fixture f;
	live l;
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/quiet-topic.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_lag, "g-quiet", 10000));
	assert_true(live_wait(&l, pred_lag, "g-busy", 10000));
	assert_quiet_reads(&l, &f, busy, quiet, 25, "quiet");
	/* published at every refresh all the same */
	assert_int_equal(live_group(&l, "g-quiet")->lag, quiet * 100);
	assert_lag_grows(&l, &f, "g-quiet", quiet * 100, (int)(KG_KAFKA_LOG_QUIET_US / 1000) + 10000);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Predicate: a group's published pace is the scheduler's for a settled freeze. */
static bool
pred_settled_pace(live *l, const void *arg)
{
	const kg_group *g = live_group(l, arg);
	return g != NULL && g->pace_ms == (int32_t)(KSCHED_SETTLED_DESC_US / 1000);
}

/*
 * A settled freeze's topic (issue 24, item 5): g-frozen has a member and
 * lag on 'frozen', its commits standing still; once the freeze is settled
 * (its pace published: asked every KSCHED_QUIET_US), nothing on 'frozen'
 * can change but by a produce, so its log ends are read at that pace too,
 * the last ones published in between (its lag stays known), while the
 * selected group's 'busy' is read every refresh.  Produced to, its lag
 * grows by its next read, and a topic whose log ends moved is read every
 * refresh again.  Before, every refresh read the 10 partitions of
 * 'frozen' (at rest on 100 groups, 300 log ends a second for 6).
 */
static void
test_log_end_settled(void **state)
{
	const int frozen = 10, busy = 1, interval_ms = 500;
	fixture f;
	live l;
	int32_t shown[1];
	uint64_t want, r0;
	int a0, a1, refreshes;
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/settled-topic.json", true), 0);
	assert_int_equal(live_open_window(&l, f.bootstrap, interval_ms, 0, 0, 20 * 1000000LL), 0);
	shown[0] = intern_group("g-sel");
	collector_set_focus(l.c, shown, 1, shown[0]); /* a screen: the scheduler paces what it need not show each refresh */
	if (!live_wait(&l, pred_settled_pace, "g-frozen", 30000)) {
		live_dump(&l);
		fail_msg("g-frozen's freeze never settled");
	}
	assert_int_equal(live_group(&l, "g-frozen")->lag, frozen * 100);
	/* a refresh for the reads of the turn before the freeze settled */
	want = l.snap->refresh + 1;
	assert_true(live_wait(&l, pred_refresh, &want, 5000));
	assert_quiet_reads(&l, &f, busy, frozen, 24, "settled");
	assert_int_equal(live_group(&l, "g-frozen")->lag, frozen * 100); /* published at every refresh all the same */
	assert_lag_grows(&l, &f, "g-frozen", frozen * 100, (int)(KG_KAFKA_LOG_QUIET_US / 1000) + 2 * interval_ms + 1000);
	/* moving: its log ends every refresh */
	want = l.snap->refresh + 1;
	assert_true(live_wait(&l, pred_refresh, &want, 5000));
	r0 = l.snap->refresh;
	want = r0 + 6;
	a0 = latest_asked(&f);
	assert_true(live_wait(&l, pred_refresh, &want, 10000));
	a1 = latest_asked(&f);
	refreshes = (int)(l.snap->refresh - r0);
	fprintf(stderr, "# moving: %d log ends asked over %d refreshes\n", a1 - a0, refreshes);
	assert_true(a1 - a0 >= (busy + frozen) * (refreshes - 1));
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Predicate: every group of the snapshot has its lag known (at least n groups). */
static bool
pred_all_lags(live *l, const void *arg)
{
	int i, n = 0;
	for (i = 0; l->snap != NULL && i < l->snap->ngroups; i++) {
		if (l->snap->groups[i].lag < 0)
			return false;
		n++;
	}
	return n >= *(const int *)arg;
}

/*
 * Quiet topics read together (issue 24, item 5): 8 still topics only Empty
 * groups use, each on the 3 brokers.  Their turns were spread over the
 * period (8 turns, a ListOffsets a leader each); once the first turn
 * comes, all of them are read in the same calls, with the log starts, so
 * a period asks each leader once for their log ends: over 24 refreshes
 * of 500 ms (12 s, at most two periods' turns) at most 2 calls a leader
 * for them (the spread turns: up to 8 a leader a period).  A ninth Empty
 * group's topic has records produced to it: its 1 partition is read every
 * refresh (its log end moves), in a call of its own leader's, and takes
 * no still topic with it (24 x 3 log ends more if it did).
 */
static void
test_log_end_quiet_together(void **state)
{
	const int ngroups = 9, leaders = 3, still = 8 * 3, moving = 1;
	fixture f;
	live l;
	uint64_t want, r0;
	int c0, c1, a0, a1, refreshes;
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/quiet-many.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 500), 0);
	assert_true(live_wait(&l, pred_all_lags, &ngroups, 10000));
	/* the first reads (every topic), the first turn (all of them together from then on) */
	want = l.snap->refresh + 6;
	assert_true(live_wait(&l, pred_refresh, &want, 10000));
	r0 = l.snap->refresh;
	c0 = fixture_log_count(&f, "ListOffsets", "earliest=0");
	a0 = latest_asked(&f);
	want = r0 + 24;
	assert_true(live_wait(&l, pred_refresh, &want, 30000));
	c1 = fixture_log_count(&f, "ListOffsets", "earliest=0");
	a1 = latest_asked(&f);
	refreshes = (int)(l.snap->refresh - r0);
	fprintf(stderr,
		"# %d log-end calls, %d log ends over %d refreshes for 8 still topics and a moving one on %d leaders "
		"(at most %d calls, %d log ends)\n",
		c1 - c0, a1 - a0, refreshes, leaders, (refreshes + 1) + 2 * leaders, moving * (refreshes + 1) + 2 * still);
	assert_true(c1 - c0 >= refreshes - 1);                     /* the moving topic every refresh */
	assert_true(c1 - c0 <= (refreshes + 1) + 2 * leaders);     /* the still ones together, twice at most */
	assert_true(a1 - a0 <= moving * (refreshes + 1) + 2 * still); /* not every refresh with the moving one */
	assert_true(pred_all_lags(&l, &ngroups)); /* the kept log ends published all the same */
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Threads of this process whose name is name (/proc/self/task/N/comm). */
static int
threads_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[300], comm[64] = "";
		FILE *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof comm, f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
		n += strcmp(comm, name) == 0;
	}
	closedir(d);
	return n;
}

/*
 * A refresh of a few log-end calls makes them on the worker, one after the
 * other: on the stable cluster (3 leaders, a call each) the refreshes ask
 * alone (at least half of them: a refresh slower than 100 ms on a loaded
 * machine makes the next one ask together, as it should), and every
 * group's lag is known all the same; a refresh of many calls (20,000
 * partitions: a hundred calls and more) asks the leaders together, on
 * threads of their own, kept until the source closes.
 */
static void
test_log_end_alone(void **state)
{
	fixture f;
	live l;
	uint64_t want, a0, t0, a1, t1;
	int two = 2000;
	(void)state;
	assert_int_equal(fixture_start(&f, "stable.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_lag, "g-range", 10000));
	kafka_logend_counts(&a0, &t0);
	want = l.snap->refresh + 10;
	assert_true(live_wait(&l, pred_refresh, &want, 30000));
	assert_true(pred_lag(&l, "g-range"));
	kafka_logend_counts(&a1, &t1);
	fprintf(stderr, "# stable (3 leaders): %llu refreshes asked alone, %llu together; %d log-end threads\n",
		(unsigned long long)(a1 - a0), (unsigned long long)(t1 - t0), threads_named("kg-logend"));
	assert_true(a1 - a0 >= 5);
	assert_true(a1 - a0 > t1 - t0);
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);

	assert_int_equal(fixture_start_quiet(&f, "progress-20k.json"), 0);
	kafka_logend_counts(&a0, &t0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_ngroups, &two, 60000));
	assert_true(live_wait(&l, pred_lag, "group-0001", 60000));
	kafka_logend_counts(&a1, &t1);
	fprintf(stderr, "# progress-20k (20,000 partitions): %llu refreshes asked together; %d log-end threads\n",
		(unsigned long long)(t1 - t0), threads_named("kg-logend"));
	assert_true(t1 - t0 >= 1);
	assert_true(threads_named("kg-logend") >= 1);
	live_close(&l);
	assert_int_equal(threads_named("kg-logend"), 0);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Predicate: every partition of a group has its log end. */
static bool
pred_all_ends(live *l, const void *arg)
{
	const kg_group *g = live_group(l, arg);
	int k;
	if (g == NULL || g->nparts == 0)
		return false;
	for (k = 0; k < g->nparts; k++) {
		if (g->parts[k].log_end < 0)
			return false;
	}
	return true;
}

/*
 * Each partition gets its own log end when a leader's call names many
 * (tests/integration/scenarios/wide.json: 80 partitions of two topics,
 * each log end its own, some 27 a leader): the bundled librdkafka matches
 * a call's partitions to their leaders and to the answers through an index
 * (deps/librdkafka-tp-index.patch), the distribution's by walking the
 * lists; both must give every partition its answer, at every refresh.
 */
static void
test_log_end_each(void **state)
{
	fixture f;
	live l;
	uint64_t want;
	int round;
	(void)state;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/wide.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	assert_true(live_wait(&l, pred_all_ends, "g-wide", 10000));
	for (round = 0; round < 3; round++) {
		const kg_group *g = live_group(&l, "g-wide");
		int k, seen[2] = { 0, 0 };
		assert_non_null(g);
		assert_int_equal(g->nparts, 80);
		for (k = 0; k < g->nparts; k++) {
			const kg_gpart *gp = &g->parts[k];
			const char *topic = intern_topic_name(gp->tp.topic);
			bool a = strcmp(topic, "wide-a") == 0;
			int64_t end = a ? 10000 + 37 * gp->tp.partition : 20000 + 41 * gp->tp.partition;
			if (gp->log_end != end)
				fail_msg("%s [%d]: log end %lld, the broker's is %lld", topic, gp->tp.partition,
					 (long long)gp->log_end, (long long)end);
			assert_int_equal(gp->lag, end - 5000);
			seen[a ? 0 : 1]++;
		}
		assert_int_equal(seen[0], 40);
		assert_int_equal(seen[1], 40);
		want = l.snap->refresh + 1;
		assert_true(live_wait(&l, pred_refresh, &want, 10000));
	}
	live_close(&l);
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/* Predicate: a refresh asked the leaders together since the count in arg. */
static bool
pred_together_since(live *l, const void *arg)
{
	uint64_t a, t;
	(void)l;
	kafka_logend_counts(&a, &t);
	return t > *(const uint64_t *)arg;
}

/*
 * Few calls are made one after the other only while that is quick: when
 * the ListOffsets answers are held 300 ms (a refresh's three calls then
 * take 900 ms one after the other, the slowest leader's 300 at once), and
 * when a leader is down (its call waits the listing's grace), a later
 * refresh asks the leaders together, on threads of their own.
 */
static void
test_log_end_together(void **state)
{
	static const char *const scenarios[] = { "tests/integration/scenarios/slow-logend.json",
						 "tests/integration/scenarios/silent-leader.json" };
	size_t i;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(scenarios); i++) {
		fixture f;
		live l;
		uint64_t want, a0, t0;
		assert_int_equal(fixture_start(&f, scenarios[i], true), 0);
		assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
		assert_true(live_wait(&l, pred_lag, "g-slow", 10000));
		want = l.snap->refresh + 5;
		assert_true(live_wait(&l, pred_refresh, &want, 30000));
		assert_int_equal(fixture_step(&f), 0);
		kafka_logend_counts(&a0, &t0);
		if (!live_wait(&l, pred_together_since, &t0, 15000)) {
			live_dump(&l);
			fail_msg("%s: the leaders were never asked together", scenarios[i]);
		}
		fprintf(stderr, "# %s: asked together after the step; %d log-end threads\n", scenarios[i],
			threads_named("kg-logend"));
		assert_true(threads_named("kg-logend") >= 1);
		live_close(&l);
		assert_int_equal(fixture_rejected_writes(&f), 0);
		fixture_stop(&f);
	}
}

/* Predicate: the group's first partition is committed at this offset and its time lag is exact (its record read). */
typedef struct want_read {
	const char *group;
	int64_t committed;
} want_read;

static bool
pred_read(live *l, const void *arg)
{
	const want_read *w = arg;
	const kg_group *g = live_group(l, w->group);
	return g != NULL && g->nparts > 0 && g->parts[0].committed == w->committed && g->tlag_kind == KG_TLAG_EXACT;
}

/* Predicate: the reads' client handles dropped so far reached *arg. */
static bool
pred_reads_dropped(live *l, const void *arg)
{
	uint64_t made, dropped;
	(void)l;
	kafka_stamps_counts(&made, &dropped);
	return dropped >= *(const uint64_t *)arg;
}

/*
 * The record reads have a client handle of their own (kafka_stamp.c),
 * dropped once no read was made for stamps_rest_us (librdkafka serves
 * every partition of a topic a handle read from at each wakeup of its
 * leader's thread until the handle ends) and made again for the next
 * read: g-read, on screen, is read (its time lag exact), its handle
 * dropped after the rest; its commits move and the new offsets are read
 * on a new handle; the source's own handle is not renewed for it.
 */
static void
test_reads_handle_rests(void **state)
{
	fixture f;
	live l;
	int32_t shown;
	uint64_t m0, d0, m, d, want;
	want_read first = { "g-read", 900 }, moved = { "g-read", 950 };
	(void)state;
	kafka_stamps_counts(&m0, &d0);
	live_stamps_rest_us = 600 * 1000LL;
	assert_int_equal(fixture_start(&f, "tests/integration/scenarios/reads-rest.json", true), 0);
	assert_int_equal(live_open(&l, f.bootstrap, 200), 0);
	live_stamps_rest_us = 0;
	shown = intern_group("g-read");
	collector_set_focus(l.c, &shown, 1, shown);
	assert_true(live_wait(&l, pred_read, &first, 10000));
	kafka_stamps_counts(&m, &d);
	assert_int_equal(m, m0 + 1);
	/* nothing more to read: the handle rests */
	want = d0 + 1;
	assert_true(live_wait(&l, pred_reads_dropped, &want, 10000));
	kafka_stamps_counts(&m, &d);
	assert_int_equal(m, m0 + 1);
	assert_true(live_group(&l, "g-read")->tlag_kind == KG_TLAG_EXACT); /* the reads kept stay */
	/* the commits move: read again, on a new handle (950 was never read: an exact time lag is a new read) */
	assert_int_equal(fixture_step(&f), 0);
	assert_true(live_wait(&l, pred_read, &moved, 10000));
	kafka_stamps_counts(&m, &d);
	assert_int_equal(m, m0 + 2);
	want = d;
	live_close(&l);
	kafka_stamps_counts(&m, &d);
	assert_int_equal(m, m0 + 2);
	assert_int_equal(d, want); /* closed with the source: no rest */
	assert_int_equal(fixture_rejected_writes(&f), 0);
	fixture_stop(&f);
}

/*
 * At a whole-second interval the refreshes begin as a wall second does
 * (kafka.c, next_refresh(): the dashboard's frames then draw its clock,
 * one draw a second at rest): started half-way into a second, the first
 * refresh begins there, the following ones at their second's start (before
 * the rule, half-way in, each an interval after the one before).
 */
static void
test_refresh_on_second(void **state)
{
	fixture f;
	live l;
	uint64_t want;
	int64_t deadline = util_mono_us() + 5000000, phase[4];
	int i, early = 0;
	(void)state;
	assert_int_equal(fixture_start(&f, "stable.json", true), 0);
	/* start half-way into a wall second (a phase set by reading the clock, not a wait for a state) */
	while (util_mono_us() < deadline && (util_now_us() % 1000000 < 450000 || util_now_us() % 1000000 > 550000))
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	assert_int_equal(live_open(&l, f.bootstrap, 1000), 0);
	want = 1;
	assert_true(live_wait(&l, pred_refresh, &want, 10000));
	for (i = 0; i < 4; i++) {
		want = l.snap->refresh + 1;
		assert_true(live_wait(&l, pred_refresh, &want, 10000));
		phase[i] = l.snap->data_time_us % 1000000;
		early += phase[i] < 300000;
	}
	fprintf(stderr, "# refreshes begin %lld, %lld, %lld and %lld ms into their second\n", (long long)phase[0] / 1000,
		(long long)phase[1] / 1000, (long long)phase[2] / 1000, (long long)phase[3] / 1000);
	/* a loaded machine may wake the worker late once */
	assert_true(early >= 3);
	live_close(&l);
	fixture_stop(&f);
}

/* Run. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stable),
		cmocka_unit_test(test_join_range),
		cmocka_unit_test(test_join_coop),
		cmocka_unit_test(test_leave),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_outage),
		cmocka_unit_test(test_old_broker_offsets),
		cmocka_unit_test(test_tiers),
		cmocka_unit_test(test_stall_off_screen),
		cmocka_unit_test(test_log_start_kept),
		cmocka_unit_test(test_log_end_quiet),
		cmocka_unit_test(test_log_end_settled),
		cmocka_unit_test(test_log_end_quiet_together),
		cmocka_unit_test(test_log_end_alone),
		cmocka_unit_test(test_reads_handle_rests),
		cmocka_unit_test(test_log_end_each),
		cmocka_unit_test(test_log_end_together),
		cmocka_unit_test(test_refresh_on_second),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

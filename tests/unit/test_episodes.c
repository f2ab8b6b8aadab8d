/*
 * test_episodes.c: episodes exactly as the protocol ran them (issue 11).
 *
 * Each numbered finding of the issue is pinned here on the tracker, fed
 * what a broker's description (polling), a consumer's callbacks or a
 * coordinator's log would say:
 *  1. the stopped count after a static restart (members filed by member
 *     id, not by lane);
 *  2. rounds are completed generations: a JoinGroup retried after
 *     MEMBER_ID_REQUIRED is no round, and polling says "at least";
 *  3. durations carry their precision (measured, or bounded by two
 *     refreshes);
 *  4. no phantom members: an older description cannot bring back a member
 *     a trace said left, nor the old id of a static member back;
 *  5. a member stops "consuming" at the first evidence (silent since T);
 *  8. a group known only from a static member's replacement in its
 *     coordinator's log is listed, with its event;
 * and the cost of an episode: stopped member-seconds and unconsumed
 * partition-seconds, eager against cooperative.
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
#include <time.h>

#include "core/options.h"
#include "model/intern.h"
#include "record/json.h"
#include "scenario.h"
#include "sources/trace/parse_log.h"
#include "sources/trace/trace_groups.h"
#include "util/util.h"

#define E KG_PROTO_EAGER
#define C KG_PROTO_COOPERATIVE
#define S KG_STATE_STABLE
#define P KG_STATE_PREPARING_REBALANCE

/* Text of an event (caller frees). */
static char *
text(const kg_event *e)
{
	sbuf s = { 0 };
	event_format(e, &s);
	return s.s ? s.s : xstrdup("");
}

/* Assert an event's text contains want. */
static void
assert_says(const kg_event *e, const char *want)
{
	char *got;
	assert_non_null(e);
	got = text(e);
	if (strstr(got, want) == NULL)
		fprintf(stderr, "# got:  %s\n# want: ...%s...\n", got, want);
	assert_non_null(strstr(got, want));
	free(got);
}

/* The last event of a kind, NULL when none. */
static const kg_event *
last_of(sc *s, kg_event_kind kind)
{
	int n = sc_count(s, kind, NULL);
	return n > 0 ? sc_find(s, kind, NULL, n - 1) : NULL;
}

/*
 * The group's last episode end: its duration bounds (us), its text holds
 * says and its --json line json (and not nojson, when given).
 */
static void
assert_end(sc *s, int64_t min_us, int64_t max_us, const char *says, const char *json, const char *nojson)
{
	const kg_event *end = last_of(s, KG_EV_REBALANCE_END);
	sbuf j = { 0 };
	assert_non_null(end);
	assert_int_equal(end->duration.min, min_us);
	assert_int_equal(end->duration.max, max_us);
	assert_says(end, says);
	json_put_event(&j, end, s->t0_us, JSON_PARTS_SET);
	if (strstr(sbuf_str(&j), json) == NULL)
		fprintf(stderr, "# got:  %s\n# want: ...%s...\n", sbuf_str(&j), json);
	assert_non_null(strstr(sbuf_str(&j), json));
	if (nojson != NULL)
		assert_null(strstr(sbuf_str(&j), nojson));
	sbuf_free(&j);
}

/* The episodes of a group (caller frees with episodes_free). */
static int
episodes(sc *s, const char *group, kg_episode **out)
{
	return history_episodes(tracker_history(s->t), intern_group(group), out);
}

/* A member's status in the last snapshot. */
static kg_member_status
status_of(sc *s, const char *group, const char *member_id)
{
	const kg_group *G = snapshot_group(s->last, intern_group(group));
	int i = G != NULL ? group_member_index(G, member_id) : -1;
	assert_true(i >= 0);
	return G->members[i].status;
}

/* Three exact members of an eager group settle with [0 1] [2 3] [4 5] at ms. */
static void
settle3(sc *s, const char *g, kg_proto p, int64_t ms)
{
	sc_obs(s, KG_OBS_ASSIGNED, ms, g, "consumer-a", p, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, ms, g, "consumer-b", p, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, ms, g, "consumer-c", p, "4 5");
}

/* A member's LEFT observation with a reason. */
static void
left(sc *s, int64_t ms, const char *group, const char *client, const char *member_id, const char *instance,
     kg_reason reason)
{
	kg_obs *o = sc_obs_id(s, KG_OBS_LEFT, ms, group, client, member_id, instance, KG_PROTO_UNKNOWN, "");
	o->reason = reason;
}

/*
 * Finding 1: a static member crashes at 8 s and is back at 11 s under a
 * new member id (no rebalance); another member leaves cleanly at 20 s.
 * Both remaining members of the eager group revoke everything: "2 of 2
 * members stopped", not "1 of 1" (the back incarnation shared its lane's
 * record with the one that left, and was skipped).
 */
static void
test_finding1_static_restart_then_leave(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_obs *o;
	(void)state;
	sc_group_set(s, "sr", S, "range", "static-a/sa-1/pod-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_exact(s, "sr", true);
	sc_obs_id(s, KG_OBS_ASSIGNED, 0, "sr", "static-a", "sa-1", "pod-a", E, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 0, "sr", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, 0, "sr", "consumer-c", E, "4 5");
	sc_tick(s, 100);
	sc_tick(s, 2000);
	/* 8 s: closed without LeaveGroup (static): away */
	left(s, 8000, "sr", "static-a", "sa-1", "pod-a", KG_REASON_NONE);
	sc_tick(s, 8100);
	/* 11 s: the same instance back under a new id, with its partitions */
	sc_obs_id(s, KG_OBS_JOINED, 11000, "sr", "static-a", "sa-2", "pod-a", E, "");
	sc_obs_id(s, KG_OBS_ASSIGNED, 11050, "sr", "static-a", "sa-2", "pod-a", E, "0 1");
	sc_group_set(s, "sr", S, "range", "static-a/sa-2/pod-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 11100);
	sc_tick(s, 13000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1); /* only the group's forming */
	assert_int_equal(sc_count(s, KG_EV_MEMBER_BACK, "static-a"), 1);
	/* 20 s: consumer-c leaves; the two others revoke everything (eager) */
	o = sc_obs_id(s, KG_OBS_REVOKED, 20000, "sr", "consumer-c", "consumer-c-m", NULL, E, "4 5");
	o->reason = KG_REASON_GRACEFUL;
	left(s, 20000, "sr", "consumer-c", "consumer-c-m", NULL, KG_REASON_GRACEFUL);
	sc_obs_id(s, KG_OBS_REVOKED, 20100, "sr", "static-a", "sa-2", "pod-a", E, "0 1");
	sc_obs(s, KG_OBS_REVOKED, 20100, "sr", "consumer-b", E, "2 3");
	sc_group_set(s, "sr", P, "range", "static-a/sa-2/pod-a;consumer-b");
	sc_tick(s, 20200);
	sc_obs_id(s, KG_OBS_ASSIGNED, 23000, "sr", "static-a", "sa-2", "pod-a", E, "0 1 2");
	sc_obs(s, KG_OBS_ASSIGNED, 23000, "sr", "consumer-b", E, "3 4 5");
	sc_group_set(s, "sr", S, "range", "static-a/sa-2/pod-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 23100);
	sc_tick(s, 25000);
	assert_says(last_of(s, KG_EV_REBALANCE_END), "2 of 2 members stopped");
	assert_int_equal(last_of(s, KG_EV_REBALANCE_END)->nstopped, 2);
	sc_free(s);
}

/* The JoinGroup of a new member, and its retry once MEMBER_ID_REQUIRED gave it an id. */
static void
join_with_retry(sc *s, int64_t ms, const char *group, const char *client, kg_proto p)
{
	sc_obs(s, KG_OBS_JOIN_SENT, ms, group, client, p, "");
	sc_obs(s, KG_OBS_JOIN_SENT, ms + 4, group, client, p, "");
}

/*
 * Finding 2, eager: a fourth member joins; its first JoinGroup is
 * answered MEMBER_ID_REQUIRED and retried at once.  One generation: one
 * round (the retry counted as a second one).
 */
static void
test_finding2_eager_join_one_round(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *end;
	(void)state;
	sc_group_set(s, "ej", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_exact(s, "ej", true);
	settle3(s, "ej", E, 0);
	sc_tick(s, 100);
	sc_tick(s, 2000);
	join_with_retry(s, 10000, "ej", "consumer-d", E);
	sc_obs(s, KG_OBS_REVOKED, 10100, "ej", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "ej", "consumer-a", E, "");
	sc_obs(s, KG_OBS_REVOKED, 10100, "ej", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "ej", "consumer-b", E, "");
	sc_obs(s, KG_OBS_REVOKED, 10100, "ej", "consumer-c", E, "4 5");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "ej", "consumer-c", E, "");
	sc_group_set(s, "ej", P, "range", "consumer-a;consumer-b;consumer-c;consumer-d");
	sc_tick(s, 10200);
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ej", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ej", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ej", "consumer-c", E, "4");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ej", "consumer-d", E, "5");
	sc_group_set(s, "ej", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_tick(s, 13100);
	sc_tick(s, 15000);
	end = last_of(s, KG_EV_REBALANCE_END);
	assert_non_null(end);
	assert_int_equal(end->round, 1);
	assert_false(end->rounds_min);
	assert_says(end, "after 3.0s, 1 round;");
	sc_free(s);
}

/*
 * Finding 2, cooperative: the same join takes two generations (round one
 * revokes the moving partition, round two assigns it), not three.
 */
static void
test_finding2_coop_join_two_rounds(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *end, *as;
	(void)state;
	sc_group_set(s, "cj", S, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_exact(s, "cj", true);
	settle3(s, "cj", C, 0);
	sc_tick(s, 100);
	sc_tick(s, 2000);
	join_with_retry(s, 10000, "cj", "consumer-d", C);
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "cj", "consumer-a", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "cj", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 10100, "cj", "consumer-c", C, "");
	sc_group_set(s, "cj", P, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5;consumer-d");
	sc_tick(s, 10200);
	/* generation 1: c gives 5 up, every member gets its (empty) assignment; c rejoins */
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "cj", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "cj", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "cj", "consumer-d", C, "");
	sc_obs(s, KG_OBS_REVOKED, 13001, "cj", "consumer-c", C, "5");
	sc_obs(s, KG_OBS_ASSIGNED, 13001, "cj", "consumer-c", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 13002, "cj", "consumer-c", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 13500, "cj", "consumer-a", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 13500, "cj", "consumer-b", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 13500, "cj", "consumer-d", C, "");
	sc_group_set(s, "cj", P, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d");
	sc_tick(s, 13600);
	/* generation 2: d gets 5 */
	sc_obs(s, KG_OBS_ASSIGNED, 16000, "cj", "consumer-a", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 16000, "cj", "consumer-b", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 16000, "cj", "consumer-c", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 16000, "cj", "consumer-d", C, "5");
	sc_group_set(s, "cj", S, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_tick(s, 16100);
	sc_tick(s, 18000);
	end = last_of(s, KG_EV_REBALANCE_END);
	as = sc_find(s, KG_EV_ASSIGNED, "consumer-d", 0);
	assert_non_null(end);
	assert_int_equal(end->round, 2);
	assert_non_null(as);
	assert_int_equal(as->round, 2);
	assert_says(end, "after 6.0s, 2 rounds;");
	sc_free(s);
}

/* Finding 2, a group forming: three new members, each retrying its first JoinGroup, one generation. */
static void
test_finding2_formation_one_round(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *end;
	(void)state;
	sc_group_set(s, "fm", P, "range", "");
	sc_group_exact(s, "fm", true);
	sc_tick(s, 0);
	join_with_retry(s, 1000, "fm", "consumer-a", E);
	join_with_retry(s, 1010, "fm", "consumer-b", E);
	join_with_retry(s, 1020, "fm", "consumer-c", E);
	sc_group_set(s, "fm", P, "range", "consumer-a;consumer-b;consumer-c");
	sc_tick(s, 1100);
	settle3(s, "fm", E, 4000);
	sc_group_set(s, "fm", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 4100);
	sc_tick(s, 6000);
	end = last_of(s, KG_EV_REBALANCE_END);
	assert_non_null(end);
	assert_int_equal(end->round, 1);
	sc_free(s);
}

/*
 * Finding 2, polling: a cooperative join seen rebalancing once, then
 * Stable with the partition moved (the round-one Stable fell between two
 * refreshes), took two generations at least (a member that stayed gave a
 * partition up, its new owner got it in a later one), and polling cannot
 * say it saw them all: "≥2 rounds".  (test_tracker's test_status has the
 * move seen as two Stable descriptions.)
 */
static void
test_finding2_polled_at_least(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *end;
	(void)state;
	sc_group_set(s, "pc", S, "cooperative-sticky", "consumer-a=0 4;consumer-b=1 2;consumer-c=3 5");
	sc_tick(s, 0);
	sc_group_set(s, "pc", P, "", "consumer-a;consumer-b;consumer-c;consumer-d");
	sc_tick(s, 1000);
	sc_group_set(s, "pc", S, "cooperative-sticky", "consumer-a=0;consumer-b=1 2;consumer-c=3 5;consumer-d=4");
	sc_tick(s, 2000);
	end = last_of(s, KG_EV_REBALANCE_END);
	assert_non_null(end);
	assert_int_equal(end->round, 2);
	assert_true(end->rounds_min);
	assert_says(end, "\u22652 rounds");
	sc_free(s);
}

/*
 * Finding 3: an eager rebalance polling saw in progress at one refresh and
 * over at the next took anything up to the two refresh intervals around it;
 * it is shown as a bound, never as the refresh interval measured.  One
 * seen only as its result (between two refreshes) took at most one.
 * Callbacks measure.
 */
static void
test_finding3_bounds(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "pe", S, "range", "consumer-a=0 1 2;consumer-b=3 4 5");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	sc_group_set(s, "pe", P, "", "consumer-a;consumer-b;consumer-c");
	sc_tick(s, 2000);
	sc_group_set(s, "pe", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_tick(s, 3000);
	/* --json: the bounds, and no duration_ms that would read as measured */
	assert_end(s, 0, 2000000, "rebalance ended after \u22642.0s", "\"duration_min_ms\":0.0,\"duration_max_ms\":2000.0,",
		   "\"duration_ms\"");
	/* a rebalance seen only as its result: at most the refresh interval */
	sc_group_set(s, "pe", S, "range", "consumer-a=0 1;consumer-b=2 3 4 5");
	sc_tick(s, 4000);
	sc_tick(s, 5000);
	assert_says(last_of(s, KG_EV_REBALANCE_END), "rebalance ended after \u22641.0s");
	sc_free(s);
}

/* Finding 3, measured: callbacks time the episode; --json says so with duration_ms and equal bounds. */
static void
test_finding3_measured(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "me", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_exact(s, "me", true);
	settle3(s, "me", E, 0);
	sc_tick(s, 100);
	sc_tick(s, 2000);
	sc_obs(s, KG_OBS_REVOKED, 5000, "me", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_REVOKED, 5000, "me", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_REVOKED, 5000, "me", "consumer-c", E, "4 5");
	sc_obs(s, KG_OBS_ASSIGNED, 5033, "me", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 5033, "me", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, 5033, "me", "consumer-c", E, "4 5");
	sc_tick(s, 5100);
	sc_tick(s, 8000);
	assert_end(s, 33000, 33000, "rebalance ended after 33ms, 1 round",
		   "\"duration_ms\":33.0,\"duration_min_ms\":33.0,\"duration_max_ms\":33.0,", NULL);
	sc_free(s);
}

/* --json (schema 6) writes an event's partitions as a set, recordings as the list they always wrote. */
static void
test_event_partitions_json(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *rev;
	sbuf j = { 0 };
	char want[256];
	const char *topic;
	(void)state;
	sc_group_set(s, "me", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_exact(s, "me", true);
	settle3(s, "me", E, 0);
	sc_tick(s, 100);
	sc_obs(s, KG_OBS_REVOKED, 5000, "me", "consumer-a", E, "0 1");
	sc_tick(s, 5100);
	rev = sc_find(s, KG_EV_REVOKED, "consumer-a", 0);
	assert_non_null(rev);
	assert_int_equal(rev->nparts, 2);
	topic = intern_topic_name(rev->parts[0].topic);
	json_put_event(&j, rev, s->t0_us, JSON_PARTS_SET);
	snprintf(want, sizeof want, "\"partitions\":{\"%s\":[0,1]},\"before\":{\"%s\":[0,1]},", topic, topic);
	assert_non_null(strstr(sbuf_str(&j), want));
	sbuf_free(&j);
	json_put_event(&j, rev, s->t0_us, JSON_PARTS_LIST);
	snprintf(want, sizeof want, "\"partitions\":[{\"topic\":\"%s\",\"partition\":0},{\"topic\":\"%s\",\"partition\":1}],",
		 topic, topic);
	assert_non_null(strstr(sbuf_str(&j), want));
	sbuf_free(&j);
	sc_free(s);
}

/*
 * A set names each topic once and writes topics in name order, whatever
 * the order of the array it is written from: set-z is interned first, so
 * an order by topic id (or as the array comes) would write it first.
 */
static void
test_parts_set_any_order(void **state)
{
	int32_t z = intern_topic("set-z"), y = intern_topic("set-y");
	kg_tp mixed[] = { { y, 0 }, { z, 1 }, { y, 2 } }, runs[] = { { z, 1 }, { y, 2 }, { y, 0 } };
	sbuf j = { 0 };
	(void)state;
	json_put_parts_set(&j, mixed, 3);
	assert_string_equal(sbuf_str(&j), "{\"set-y\":[0,2],\"set-z\":[1]}");
	sbuf_free(&j);
	json_put_parts_set(&j, runs, 3);
	assert_string_equal(sbuf_str(&j), "{\"set-y\":[0,2],\"set-z\":[1]}");
	sbuf_free(&j);
	json_put_parts_set(&j, runs, 0);
	assert_string_equal(sbuf_str(&j), "{}");
	sbuf_free(&j);
}

/*
 * Finding 4: a trace says consumer-b left; a refresh begun before that
 * (70-90 ms later in time, older in content) still lists it.  No
 * "joined [polled]", no second "left (unknown)".
 */
static void
test_finding4_no_phantom(void **state)
{
	sc *s = sc_new(4, NULL);
	(void)state;
	sc_group_set(s, "ph", S, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	left(s, 1500, "ph", "consumer-b", "consumer-b-m", NULL, KG_REASON_GRACEFUL);
	sc_tick(s, 1510);
	sc_tick(s, 1580); /* the stale description: b still there */
	sc_group_set(s, "ph", S, "cooperative-sticky", "consumer-a=0 1 2 3");
	sc_tick(s, 2500);
	sc_tick(s, 3500);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_JOINED, "consumer-b"), 0);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, "consumer-b"), 1);
	/* and it is no member of the stale snapshot either */
	sc_free(s);
}

/* Finding 4: a static restart is away and back, without a joined / left pair from an older description. */
static void
test_finding4_static_no_pair(void **state)
{
	sc *s = sc_new(4, NULL);
	(void)state;
	sc_group_set(s, "sp", S, "range", "static-a/sa-1/pod-a=0 1;consumer-b=2 3");
	sc_tick(s, 0);
	sc_tick(s, 1000);
	left(s, 3000, "sp", "static-a", "sa-1", "pod-a", KG_REASON_NONE);
	sc_tick(s, 3100);
	sc_obs_id(s, KG_OBS_JOINED, 3400, "sp", "static-a", "sa-2", "pod-a", E, "");
	sc_tick(s, 3450); /* the description still has the old id */
	sc_group_set(s, "sp", S, "range", "static-a/sa-2/pod-a=0 1;consumer-b=2 3");
	sc_tick(s, 4000);
	sc_tick(s, 5000);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_AWAY, "static-a"), 1);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_BACK, "static-a"), 1);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_JOINED, "static-a"), 0);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, "static-a"), 0);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 0);
	sc_free(s);
}

/*
 * Finding 5: a member a trace says crashed is "silent" from then, not
 * "consuming" until its session expires; its partitions are not consumed
 * (the timeline's sample says stopped).  One whose traced heartbeats stop
 * is silent from its last one.
 */
static void
test_finding5_silent(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_obs *o;
	const kg_sample *smp;
	kg_hview *v;
	int t;
	(void)state;
	sc_group_set(s, "sl", S, "range", "consumer-a=0 1;consumer-b=2 3");
	for (t = 0; t <= 5000; t += 1000) {
		sc_obs(s, KG_OBS_HEARTBEAT, t, "sl", "consumer-a", E, "");
		sc_obs(s, KG_OBS_HEARTBEAT, t, "sl", "consumer-b", E, "");
		sc_tick(s, t + 10);
	}
	assert_int_equal(status_of(s, "sl", "consumer-a-m"), KG_MEMBER_CONSUMING);
	/* a crashes at 5.2 s: the trace says so */
	o = sc_obs_id(s, KG_OBS_SILENT, 5200, "sl", "consumer-a", "consumer-a-m", NULL, E, "");
	obs_text(o, "crashed");
	sc_obs(s, KG_OBS_HEARTBEAT, 6000, "sl", "consumer-b", E, "");
	sc_tick(s, 6010);
	assert_int_equal(status_of(s, "sl", "consumer-a-m"), KG_MEMBER_SILENT);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_SILENT, "consumer-a"), 1);
	assert_int_equal(sc_find(s, KG_EV_MEMBER_SILENT, "consumer-a", 0)->time_us, sc_us(s, 5200));
	v = history_view(tracker_history(s->t), intern_group("sl"), sc_us(s, 6000), sc_us(s, 6010));
	smp = hview_sample_at(v, sc_us(s, 6010));
	assert_non_null(smp);
	assert_int_equal(smp->lane_status[0], KG_MEMBER_SILENT);
	assert_int_equal(smp->pstat[0], KG_PSTAT_STOPPED);
	assert_int_equal(smp->pstat[2], KG_PSTAT_CONSUMING);
	hview_free(v);
	/* b's heartbeats stop after 6 s (one a second before): silent from its last one at 8.6 s */
	sc_tick(s, 8000);
	assert_int_equal(status_of(s, "sl", "consumer-b-m"), KG_MEMBER_CONSUMING);
	sc_tick(s, 8600);
	assert_int_equal(status_of(s, "sl", "consumer-b-m"), KG_MEMBER_SILENT);
	assert_int_equal(sc_find(s, KG_EV_MEMBER_SILENT, "consumer-b", 0)->time_us, sc_us(s, 6000));
	/* b's heartbeat again: back to consuming; a stays silent until the coordinator decides */
	sc_obs(s, KG_OBS_HEARTBEAT, 8700, "sl", "consumer-b", E, "");
	sc_tick(s, 8800);
	assert_int_equal(status_of(s, "sl", "consumer-b-m"), KG_MEMBER_CONSUMING);
	assert_int_equal(status_of(s, "sl", "consumer-a-m"), KG_MEMBER_SILENT);
	sc_free(s);
}

/*
 * The cost: when a fourth member joins, the eager group stops its three
 * members for the whole rebalance (3 x 3.0 s = 9.0 member-s) and leaves
 * all six partitions unconsumed (18 partition-s); the cooperative group
 * stops nobody and leaves one partition unconsumed between its rounds.
 */
static void
test_cost_eager_against_cooperative(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *ep;
	int n;
	const kg_event *end;
	(void)state;
	/* eager */
	sc_group_set(s, "ce", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_exact(s, "ce", true);
	settle3(s, "ce", E, 0);
	sc_tick(s, 100);
	sc_tick(s, 2000);
	sc_obs(s, KG_OBS_REVOKED, 10000, "ce", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_REVOKED, 10000, "ce", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_REVOKED, 10000, "ce", "consumer-c", E, "4 5");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ce", "consumer-a", E, "0 1");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ce", "consumer-b", E, "2 3");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ce", "consumer-c", E, "4");
	sc_obs(s, KG_OBS_ASSIGNED, 13000, "ce", "consumer-d", E, "5");
	sc_group_set(s, "ce", S, "range", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_tick(s, 13100);
	sc_tick(s, 15000);
	end = last_of(s, KG_EV_REBALANCE_END);
	assert_int_equal(end->nstopped, 3);
	assert_int_equal(end->stopped_us.min, 9000000);
	assert_int_equal(end->stopped_us.max, 9000000);
	assert_int_equal(end->nunconsumed, 6);
	assert_int_equal(end->unconsumed_us.min, 18000000);
	assert_says(end, "3 of 3 members stopped 9.0 member-s, 6 partitions unconsumed 18.0 partition-s, 1 partition moved");
	n = episodes(s, "ce", &ep);
	assert_int_equal(ep[n - 1].nstopped, 3);
	assert_int_equal(ep[n - 1].unconsumed_us.max, 18000000);
	episodes_free(ep, n);
	/* cooperative: c gives 5 up at 13 s, d gets it at 16 s */
	sc_group_set(s, "cc", S, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4 5");
	sc_group_exact(s, "cc", true);
	settle3(s, "cc", C, 15000);
	sc_tick(s, 15100);
	sc_tick(s, 17000);
	sc_obs(s, KG_OBS_JOIN_SENT, 20000, "cc", "consumer-d", C, "");
	sc_obs(s, KG_OBS_REVOKED, 23000, "cc", "consumer-c", C, "5");
	sc_obs(s, KG_OBS_ASSIGNED, 23000, "cc", "consumer-c", C, "");
	sc_obs(s, KG_OBS_JOIN_SENT, 23001, "cc", "consumer-c", C, "");
	sc_obs(s, KG_OBS_ASSIGNED, 26000, "cc", "consumer-d", C, "5");
	sc_group_set(s, "cc", S, "cooperative-sticky", "consumer-a=0 1;consumer-b=2 3;consumer-c=4;consumer-d=5");
	sc_tick(s, 26100);
	sc_tick(s, 28000);
	end = last_of(s, KG_EV_REBALANCE_END);
	assert_int_equal(end->nstopped, 0);
	assert_int_equal(end->nunconsumed, 1);
	assert_int_equal(end->unconsumed_us.min, 3000000);
	assert_says(end, "0 of 3 members stopped, 1 partition unconsumed 3.0 partition-s, 1 partition moved");
	sc_free(s);
}

/*
 * Finding 8: a group known only from a coordinator's log line "Static
 * member with groupInstanceId=I ... joins group G in Stable state.
 * Replacing previously mapped member M" is listed (traced, Stable) and
 * gets its event: the instance back under a new member id, no rebalance.
 */
static void
test_finding8_static_line_only(void **state)
{
	static const char line[] = "[2026-11-29 13:45:01,123] INFO [GroupCoordinator 1]: Static member with "
				   "groupInstanceId=pod-7 and unknown member id joins group log-only-g in Stable state. "
				   "Replacing previously mapped member pod-7-11111111-2222-3333-4444-555555555555 with this "
				   "groupInstanceId. (kafka.coordinator.group.GroupCoordinator)";
	kg_log_parser p;
	kg_obsq q = { 0 };
	kg_tgview *v = tgview_new(0, true); /* no expiry; a coordinator log's */
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_evlist ev = { 0 };
	kg_builder *b;
	kg_snapshot *snap;
	const kg_group *G;
	size_t i;
	int back = 0;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	assert_int_equal(parse_log_line(&p, line, strlen(line), &q), KG_PARSE_OBS);
	for (i = 0; i < q.n; i++)
		tgview_update(v, q.v[i]);
	b = builder_new(q.v[0]->time_us + 1000000);
	tgview_contribute(v, b);
	snap = builder_finish(b);
	tracker_apply(t, &q, snap, &ev);
	G = snapshot_group_by_name(snap, "log-only-g");
	assert_non_null(G);
	assert_true(G->traced);
	assert_int_equal(G->state, KG_STATE_STABLE);
	for (i = 0; i < ev.n; i++) {
		if (ev.v[i]->kind == KG_EV_MEMBER_BACK) {
			char *txt = text(ev.v[i]);
			back++;
			assert_non_null(strstr(txt, "static member pod-7 back under a new member id"));
			free(txt);
		}
		assert_int_not_equal(ev.v[i]->kind, KG_EV_REBALANCE_START);
	}
	assert_int_equal(back, 1);
	snapshot_unref(snap);
	evlist_clear(&ev);
	free(ev.v);
	obsq_clear(&q);
	free(q.v);
	tracker_free(t);
	tgview_free(v);
	parse_log_free(&p);
}

/* Kafka's coordinator partition: abs(group.id.hashCode()) % partitions, Java's String.hashCode. */
static void
test_offsets_partition(void **state)
{
	(void)state;
	/* Java's values: "".hashCode() == 0, "kgtop-demo-eager".hashCode() == 627390626 */
	assert_int_equal(group_offsets_partition("", 50), 0);
	assert_int_equal(group_offsets_partition("kgtop-demo-eager", 50), 26);
	assert_int_equal(group_offsets_partition("kgtop-demo-coop", 50), 31);
	/* a negative hash: "payments-ledger".hashCode() == -2129785847 */
	assert_int_equal(group_offsets_partition("payments-ledger", 50), 47);
	/* "polygenelubricants".hashCode() == Integer.MIN_VALUE: Kafka's Utils.abs makes it 0 */
	assert_int_equal(group_offsets_partition("polygenelubricants", 50), 0);
	/* over UTF-16 code units: "\u00e9t\u00e9" == 227742, U+1F600 (a surrogate pair) == 1772899 */
	assert_int_equal(group_offsets_partition("\xc3\xa9t\xc3\xa9", 50), 42);
	assert_int_equal(group_offsets_partition("\xf0\x9f\x98\x80", 50), 49);
	assert_int_equal(group_offsets_partition("g", 0), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finding1_static_restart_then_leave),
		cmocka_unit_test(test_finding2_eager_join_one_round),
		cmocka_unit_test(test_finding2_coop_join_two_rounds),
		cmocka_unit_test(test_finding2_formation_one_round),
		cmocka_unit_test(test_finding2_polled_at_least),
		cmocka_unit_test(test_finding3_bounds),
		cmocka_unit_test(test_finding3_measured),
		cmocka_unit_test(test_event_partitions_json),
		cmocka_unit_test(test_parts_set_any_order),
		cmocka_unit_test(test_finding4_no_phantom),
		cmocka_unit_test(test_finding4_static_no_pair),
		cmocka_unit_test(test_finding5_silent),
		cmocka_unit_test(test_cost_eager_against_cooperative),
		cmocka_unit_test(test_finding8_static_line_only),
		cmocka_unit_test(test_offsets_partition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

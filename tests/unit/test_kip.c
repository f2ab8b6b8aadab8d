/*
 * test_kip.c: the consumer protocol's (KIP-848) episodes, rule by rule
 * (src/model/tracker_kip.c, issue 21).
 *
 * Each test feeds the tracker what a source would say of a consumer
 * group: a description with each member's current and target assignment
 * (ConsumerGroupDescribe through librdkafka >= 2.10), records of
 * __consumer_offsets (epochs, a member's assignment at its epoch), a
 * coordinator's log lines; and checks the episodes against the protocol:
 *  - a group epoch bump opens an episode, exactly; polling alone opens one
 *    on a target that changed;
 *  - each member's reconciliation is its steps: revoked at its epoch N,
 *    assigned at the target's epoch M;
 *  - it ends when every member reached the assignment epoch (records), or
 *    holds its target (polled), the end measured or bounded;
 *  - no member stops for a barrier: the cost is the moved partitions'
 *    time without a consuming owner;
 *  - from a coordinator's log alone the end is not seen: a lower bound;
 *  - a group an old librdkafka cannot describe loses no member to that.
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

#include "model/history.h"
#include "model/intern.h"
#include "scenario.h"
#include "sources/trace/parse_log.h"
#include "sources/trace/trace_groups.h"
#include "util/util.h"

/* Assert an event's text contains want (scenario.c prints both when not). */
#define assert_says(e, want) assert_true(sc_text_has((e), (want), true))

/* A record-like observation of g (source "offsets"), member id client-m. */
static kg_obs *
rec(sc *s, kg_obs_kind kind, int64_t ms, const char *client, int32_t epoch, const char *parts)
{
	kg_obs *o = obs_new(kind, sc_us(s, ms), intern_group("g"), "offsets");
	o->generation = epoch;
	if (client != NULL) {
		char mid[64];
		snprintf(mid, sizeof mid, "%s-m", client);
		obs_member(o, mid, client, NULL, "/127.0.0.1");
	}
	if (parts != NULL) {
		kg_tp v[64];
		obs_parts(o, v, sc_parts(parts, v, 64));
	}
	sc_obs_push(s, o);
	return o;
}

/* A member's record: its assignment at its epoch, the previous epoch, state, what it must still revoke. */
static void
member_rec(sc *s, int64_t ms, const char *client, int32_t epoch, int32_t prev, kg_mstate st, const char *parts,
	   const char *pending)
{
	kg_obs *o = rec(s, KG_OBS_MEMBER_EPOCH, ms, client, epoch, parts);
	kg_tp v[64];
	o->prev_epoch = prev;
	o->mstate = (uint8_t)st;
	obs_pending(o, v, sc_parts(pending, v, 64));
}

/* The group's episodes (caller frees). */
static int
episodes(sc *s, kg_episode **out)
{
	return history_episodes(tracker_history(s->t), intern_group("g"), out);
}

/* g, a KIP-848 group, with a alone holding (and targeted) all four partitions. */
static void
a_holds_all(sc *s)
{
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1 2 3>0 1 2 3");
	sc_group_kip(s, "g", true);
}

/*
 * g with member a holding all four partitions; b joins at 1 s: epoch 2, a
 * target that gives b [2 3]; a must revoke them before b gets them.  The
 * records and the description at 1.1 s; returns that snapshot.
 */
static kg_snapshot *
b_joins(sc *s)
{
	a_holds_all(s);
	sc_tick(s, 0);
	sc_obs_id(s, KG_OBS_JOINED, 1000, "g", "b", "b-m", NULL, KG_PROTO_UNKNOWN, "");
	rec(s, KG_OBS_EPOCH, 1000, NULL, 2, NULL);
	rec(s, KG_OBS_TARGET_EPOCH, 1001, NULL, 2, NULL);
	rec(s, KG_OBS_TARGET_MEMBER, 1001, "a", 2, "0 1");
	rec(s, KG_OBS_TARGET_MEMBER, 1001, "b", 2, "2 3");
	member_rec(s, 1002, "a", 1, 1, KG_MSTATE_UNREVOKED, "0 1", "2 3");
	member_rec(s, 1002, "b", 2, 0, KG_MSTATE_UNRELEASED, "", "");
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1 2 3>0 1;b=>2 3");
	return sc_tick(s, 1100);
}

/* Records alone time the whole reconciliation: the bump opens it, the last member at the epoch ends it. */
static void
test_records_exact(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL;
	const kg_event *e;
	kg_snapshot *snap;
	const kg_group *G;
	int n;
	(void)state;
	snap = b_joins(s);
	G = snapshot_group_by_name(snap, "g");
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_says(sc_find(s, KG_EV_REBALANCE_START, NULL, 0), "consumer protocol");
	/* a still holds [2 3] (pending revocation): nothing revoked yet */
	assert_int_equal(sc_count(s, KG_EV_REVOKED, "a"), 0);
	assert_int_equal(G->group_epoch.value, 2);
	assert_int_equal(G->assignment_epoch.value, 2);
	assert_int_equal(G->group_epoch.src, KG_FACT_OFFSETS);
	member_rec(s, 1500, "a", 2, 1, KG_MSTATE_STABLE, "0 1", "");
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1>0 1;b=>2 3");
	sc_tick(s, 1600);
	e = sc_find(s, KG_EV_REVOKED, "a", 0);
	assert_says(e, "a revoked [2 3] of [0 1 2 3] (incremental) at epoch 1");
	assert_int_equal(e->evidence, KG_EVID_EXACT);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 0); /* b is not at its target yet */
	member_rec(s, 1800, "b", 2, 0, KG_MSTATE_STABLE, "2 3", "");
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_tick(s, 1900);
	assert_says(sc_find(s, KG_EV_ASSIGNED, "b", 0), "b assigned [2 3] at epoch 2");
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_says(e, "rebalance ended after 800ms, no barrier");
	/*
	 * a kept [0 1] all along: nobody stopped; [2 3] waited at least 300 ms each for b (a's record of
	 * its revoke is when the coordinator heard of it: a stopped consuming them then or before, and
	 * no commit showed them consumed since the target, so no upper bound)
	 */
	assert_says(e, "0 of 1 member stopped, 2 partitions unconsumed \u22650.6 partition-s, 2 partitions moved");
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].start_us, sc_us(s, 1000));
	assert_int_equal(v[0].start_lo_us, v[0].start_us);
	assert_int_equal(v[0].end_us, sc_us(s, 1800));
	assert_int_equal(v[0].end_lo_us, v[0].end_us);
	assert_int_equal(v[0].proto, KG_PROTO_CONSUMER);
	assert_int_equal(v[0].gen_end, 2);
	assert_int_equal(v[0].nstopped, 0);
	episodes_free(v, n);
	/* the description that follows says the same: nothing new */
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_tick(s, 2000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REVOKED, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, NULL), 1);
	assert_null(sc_find(s, KG_EV_ROUND, NULL, 0)); /* KIP-848 has no JoinGroup rounds */
	sc_free(s);
}

/*
 * A description closes the reconciliation before the last member's record
 * is read (t_offsets.sh E under load: the end a refresh's bound, the
 * duration unmeasured): the record, read later, is its end, told retimed.
 */
static void
test_records_late_end(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL;
	const kg_event *e;
	int n;
	(void)state;
	b_joins(s);
	member_rec(s, 1500, "a", 2, 1, KG_MSTATE_STABLE, "0 1", "");
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1>0 1;b=>2 3");
	sc_tick(s, 1600);
	/* every member holds its target: the description ends it, b's record not read yet */
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_tick(s, 1900);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0);
	member_rec(s, 1800, "b", 2, 0, KG_MSTATE_STABLE, "2 3", "");
	sc_tick(s, 2000);
	e = sc_find(s, KG_EV_RETIMED, NULL, 0);
	assert_non_null(e);
	assert_int_equal(e->duration.min, e->duration.max);
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].end_us, sc_us(s, 1800));
	assert_int_equal(v[0].end_lo_us, v[0].end_us);
	assert_int_equal(v[0].evidence, KG_EVID_EXACT);
	episodes_free(v, n);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_null(sc_find(s, KG_EV_ROUND, NULL, 0)); /* KIP-848 has no JoinGroup rounds */
	sc_free(s);
}

/*
 * A reconciliation polling saw begin (targets apart from the assignments
 * at 2 s, all held at 1 s) whose first bump (epoch 2, at 1.5 s) was not
 * read: a later bump (epoch 3, at 2.5 s), read after polling closed it, is
 * no start of it.  The start stays between the two descriptions (the
 * truth inside), not taken as the bump's nor as polling's exact time.
 */
static void
test_late_bump_after_start(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL;
	int n;
	(void)state;
	a_holds_all(s);
	sc_tick(s, 0);
	sc_tick(s, 1000);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1 2 3>0 1;b=>2 3");
	sc_tick(s, 2000);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_tick(s, 3000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	rec(s, KG_OBS_EPOCH, 2500, NULL, 3, NULL);
	sc_tick(s, 4000);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0); /* nothing it says is the start's */
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1); /* nor a new reconciliation's */
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	assert_true(v[0].start_us >= sc_us(s, 1500));
	assert_true(v[0].start_lo_us > 0 && v[0].start_lo_us <= sc_us(s, 1500));
	assert_true(v[0].gen_start != 3);
	episodes_free(v, n);
	sc_free(s);
}

/*
 * The records as Kafka 4.3.1 writes them (GroupMetadataManager, one batch a
 * heartbeat, each record stamped with its batch's time) and as kgtop's
 * __consumer_offsets reader gives them: a member by its id alone (its
 * client id only in its metadata record), its state raw (0 stable, 1
 * unrevoked, 2 unreleased).  kind KG_OBS_GROUP_EPOCH, _TARGET_EPOCH,
 * _TARGET_MEMBER, _MEMBER_META or _MEMBER_EPOCH; member "a" is "a-m".
 */
static kg_obs *
krec(sc *s, kg_obs_kind kind, int64_t ms, const char *member, int32_t epoch, const char *parts, bool loaded)
{
	kg_obs *o = obs_new(kind, sc_us(s, ms), intern_group("g"), "offsets");
	o->generation = epoch;
	o->loaded = loaded;
	if (member != NULL) {
		char mid[64];
		snprintf(mid, sizeof mid, "%s-m", member);
		obs_member(o, mid, NULL, NULL, NULL);
		if (kind == KG_OBS_MEMBER_META)
			obs_member(o, NULL, member, NULL, "/127.0.0.1");
	}
	if (parts != NULL) {
		kg_tp v[64];
		obs_parts(o, v, sc_parts(parts, v, 64));
	}
	sc_obs_push(s, o);
	return o;
}

/* A ConsumerGroupCurrentMemberAssignment record: epoch, previous epoch, raw state, assigned, pending revocation. */
static void
kcur(sc *s, int64_t ms, const char *member, int32_t epoch, int32_t prev, int32_t state, const char *parts,
     const char *pending, bool loaded)
{
	kg_obs *o = krec(s, KG_OBS_MEMBER_EPOCH, ms, member, epoch, parts, loaded);
	kg_tp v[64];
	o->prev_epoch = prev;
	o->member_state = state;
	obs_pending(o, v, sc_parts(pending, v, 64));
}

/*
 * What the reader loads at kgtop's start, written 5 s before: g's epoch (1),
 * its target epoch, then a's metadata, target (all four partitions) and
 * current assignment (that one written at a_ms).
 */
static void
k_loaded(sc *s, int64_t a_ms)
{
	krec(s, KG_OBS_GROUP_EPOCH, -5000, NULL, 1, NULL, true);
	krec(s, KG_OBS_TARGET_EPOCH, -5000, NULL, 1, NULL, true);
	krec(s, KG_OBS_MEMBER_META, -5000, "a", -1, NULL, true);
	krec(s, KG_OBS_TARGET_MEMBER, -5000, "a", -1, "0 1 2 3", true);
	kcur(s, a_ms, "a", 1, 0, 0, "0 1 2 3", "", true);
}

/*
 * A member's first heartbeat at ms, one batch: its metadata, the group
 * epoch bumped to epoch, the new targets of m1 (p1) and m2 (p2) and their
 * epoch, the joiner at epoch awaiting its partitions.
 */
static void
k_bump(sc *s, int64_t ms, const char *joiner, int32_t epoch, const char *m1, const char *p1, const char *m2,
       const char *p2)
{
	krec(s, KG_OBS_MEMBER_META, ms, joiner, -1, NULL, false);
	krec(s, KG_OBS_GROUP_EPOCH, ms, NULL, epoch, NULL, false);
	krec(s, KG_OBS_TARGET_MEMBER, ms, m1, -1, p1, false);
	krec(s, KG_OBS_TARGET_MEMBER, ms, m2, -1, p2, false);
	krec(s, KG_OBS_TARGET_EPOCH, ms, NULL, epoch, NULL, false)->value = sc_us(s, ms - 1);
	kcur(s, ms, joiner, epoch, 0, 2, "", "", false);
}

/*
 * After b's join at 1 s (its batch: k_bump), the records in the order Kafka
 * 4.3.1 wrote them (t_offsets.sh E, 2026-12-02: b's second heartbeat 83 ms
 * later, a's revocation pending at 221 ms, a done at 402 ms, b's partitions
 * at 584 ms), up to until_ms.
 */
static void
k2_later(sc *s, int64_t until_ms)
{
	static const struct {
		int64_t ms;
		const char *member;
		int32_t epoch, prev, state;
		const char *parts, *pending;
	} later[] = {
		{ 1083, "b", 2, 2, 2, "", "" },         /* b awaits [2 3] */
		{ 1221, "a", 1, 1, 1, "0 1", "2 3" },   /* a must revoke [2 3] */
		{ 1402, "a", 2, 1, 0, "0 1", "" },      /* a revoked them */
		{ 1584, "b", 2, 2, 0, "2 3", "" },      /* b got them: the last member at epoch 2 */
	};
	size_t i;
	for (i = 0; i < sizeof later / sizeof later[0] && later[i].ms <= until_ms; i++)
		kcur(s, later[i].ms, later[i].member, later[i].epoch, later[i].prev, later[i].state, later[i].parts,
		     later[i].pending, false);
}

/*
 * g at epoch 1, a holding all four partitions: the first description, then
 * what the reader loads (k_loaded); then b joins at 1 s (k_bump): the
 * join's records are queued, the later ones (k2_later, from 1083 ms on)
 * only up to until_ms.
 */
static void
k2_joins(sc *s, int64_t until_ms)
{
	a_holds_all(s);
	sc_tick(s, 0);
	k_loaded(s, -5000);
	sc_tick(s, 500);
	k_bump(s, 1000, "b", 2, "a", "0 1", "b", "2 3");
	k2_later(s, until_ms);
}

/* The group's last episode (a copy), asserted to exist. */
static kg_episode
last_episode(sc *s)
{
	kg_episode *v = NULL, e;
	int n = episodes(s, &v);
	assert_true(n > 0);
	e = v[n - 1];
	e.trigger_text = NULL;
	episodes_free(v, n);
	return e;
}

/* Rebalance starts told at or after ms. */
static int
starts_since(sc *s, int64_t ms)
{
	size_t i;
	int n = 0;
	for (i = 0; i < s->ev.n; i++) {
		if (s->ev.v[i]->kind == KG_EV_REBALANCE_START && s->ev.v[i]->time_us >= sc_us(s, ms))
			n++;
	}
	return n;
}

/* g described as b's join left it (a [0 1], b [2 3], Stable, asked at the tick) at ms and a second later. */
static void
k2_settled(sc *s, int64_t ms)
{
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_group_data_time(s, "g", -1);
	sc_tick(s, ms);
	sc_tick(s, ms + 1000);
}

/*
 * b's join is one episode: begun at the bump (1 s), ended exactly by b's
 * last record (1584 ms), no JoinGroup round told (KIP-848 has none); it is
 * returned.
 */
static kg_episode
k2_one_exact(sc *s)
{
	kg_episode e;
	assert_int_equal(starts_since(s, 1000), 1);
	e = last_episode(s);
	assert_int_equal(e.start_us, sc_us(s, 1000));
	assert_int_equal(e.end_us, sc_us(s, 1584));
	assert_int_equal(e.end_lo_us, e.end_us);
	assert_null(sc_find(s, KG_EV_ROUND, NULL, 0));
	return e;
}

/*
 * Every record of the join read before any description lists b (t_offsets.sh
 * E, the CI runs): the records list b, polling does not know it yet; a at
 * epoch 2 is not the end, b at epoch 2 is, exactly.  The description that
 * then shows b in the group, holding its target, is that episode's outcome.
 */
static void
test_records_kafka_order(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode e;
	(void)state;
	k2_joins(s, 2000);
	sc_group_data_time(s, "g", 0); /* the tick reads the records; its description is the last one, asked at 0 */
	sc_tick(s, 1700);
	e = last_episode(s);
	assert_int_equal(e.start_us, sc_us(s, 1000));
	assert_int_equal(e.end_us, sc_us(s, 1584)); /* b's record, not a's (1402) */
	assert_int_equal(e.end_lo_us, e.end_us);
	assert_int_equal(e.gen_end, 2);
	assert_says(sc_find(s, KG_EV_REVOKED, "a", 0), "a revoked [2 3] of [0 1 2 3] (incremental) at epoch 1");
	k2_settled(s, 2000);
	k2_one_exact(s);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0);
	sc_free(s);
}

/*
 * A description between the records (the order of t_offsets.sh E on
 * 2026-12-02): the tick that reads the records up to a's revocation brings
 * a description asked at 1417 ms that lists b awaiting [2 3]; the next one
 * reads b's last record and has the same description (the source had no
 * newer one).  One episode, ended exactly by b's record; the stale
 * description opens none.
 */
static void
test_records_description_between(void **state)
{
	sc *s = sc_new(4, NULL);
	(void)state;
	k2_joins(s, 1402);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1>0 1;b=>2 3");
	sc_group_data_time(s, "g", 1417);
	sc_tick(s, 1511);
	kcur(s, 1584, "b", 2, 2, 0, "2 3", "", false);
	sc_tick(s, 1611);
	assert_says(sc_find(s, KG_EV_ASSIGNED, "b", 0), "b assigned [2 3] at epoch 2");
	assert_int_equal(sc_find(s, KG_EV_ASSIGNED, "b", 0)->evidence, KG_EVID_EXACT);
	k2_settled(s, 2500);
	assert_int_equal(k2_one_exact(s).evidence, KG_EVID_EXACT);
	sc_free(s);
}

/*
 * The records read after descriptions closed the reconciliation (the
 * reader behind polling): the bump retimes its start, b's last record its
 * end, exactly; no second episode.
 */
static void
test_records_after_description(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_obsq keep = { 0 };
	size_t i, n;
	(void)state;
	k2_joins(s, 2000);
	/* hold the join's records back, in their order: the descriptions come first */
	for (i = n = 0; i < s->q.n; i++) {
		if (s->q.v[i]->time_us >= sc_us(s, 1000))
			obsq_push(&keep, s->q.v[i]);
		else
			s->q.v[n++] = s->q.v[i];
	}
	s->q.n = n;
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1>0 1;b=>2 3");
	sc_tick(s, 1500);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_tick(s, 2500);
	assert_int_equal(sc_count(s, KG_EV_RETIMED, NULL), 0);
	for (i = 0; i < keep.n; i++)
		sc_obs_push(s, keep.v[i]);
	free(keep.v);
	sc_tick(s, 2600);
	sc_tick(s, 3500);
	k2_one_exact(s);
	assert_non_null(sc_find(s, KG_EV_RETIMED, NULL, 0));
	sc_free(s);
}

/*
 * Polling alone: the first description of the change already shows every
 * member at its new target (the reconciliation ended before it was asked)
 * but its target moved, so the close waits for the next one: the end's
 * lower bound must not pass that first description (t_kip848.sh 27: the
 * bounds 803.9-1816.3 ms against a true 651-682 ms).
 */
static void
test_polled_end_bound(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL;
	int n;
	(void)state;
	a_holds_all(s);
	sc_tick(s, 0);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_tick(s, 1000);
	sc_tick(s, 2000);
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	assert_true(v[0].end_us > 0);
	assert_true(v[0].end_lo_us < sc_us(s, 1000)); /* it was over when that description was asked */
	assert_true(v[0].end_us >= sc_us(s, 1000));
	episodes_free(v, n);
	sc_free(s);
}

/*
 * Polling alone, a whole reconciliation between two refreshes: the
 * description that shows b in and every member at its new target (the group
 * Stable) opens the episode at its refresh, after it was asked, and ends it
 * there.  It waited for the next refresh (t_kip848.sh's polling kgtop:
 * "<=2.0s" where one description had caught it whole, the group Stable).
 */
static void
test_polled_whole_in_one(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL;
	int n;
	(void)state;
	a_holds_all(s);
	sc_group_data_time(s, "g", 980);
	sc_tick(s, 1000);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_group_data_time(s, "g", 1985); /* asked 15 ms before its refresh */
	sc_tick(s, 2000);
	sc_group_data_time(s, "g", 2990);
	sc_tick(s, 3000);
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].start_lo_us, sc_us(s, 980));
	assert_int_equal(v[0].end_us, sc_us(s, 2000));
	assert_says(sc_find(s, KG_EV_REBALANCE_END, NULL, 0), "rebalance ended after ≤1.0s");
	assert_says(sc_find(s, KG_EV_REVOKED, "a", 0), "a revoked [2 3] of [0 1 2 3] (incremental)");
	assert_says(sc_find(s, KG_EV_ASSIGNED, "b", 0), "b assigned [2 3]");
	episodes_free(v, n);
	sc_free(s);
}

/* Polling alone: the target moved, the current followed, the bounds are the refreshes'. */
static void
test_polled_targets(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL;
	const kg_event *e;
	kg_snapshot *snap;
	const kg_group *G;
	const kg_member *a, *b;
	int n;
	(void)state;
	a_holds_all(s);
	sc_tick(s, 0);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 0);
	/* b is in: the targets moved, a has not revoked yet */
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1 2 3>0 1;b=>2 3");
	snap = sc_tick(s, 1000);
	G = snapshot_group_by_name(snap, "g");
	assert_int_equal(G->proto, KG_PROTO_CONSUMER);
	a = &G->members[group_member_index(G, "a-m")];
	b = &G->members[group_member_index(G, "b-m")];
	assert_int_equal(a->nrevoking, 2);
	assert_int_equal(b->nawaiting, 2);
	assert_int_equal(G->nrevoking, 2);
	assert_int_equal(G->nawaiting, 2);
	assert_int_equal(G->parts[2].owner, group_member_index(G, "a-m"));
	assert_int_equal(G->parts[2].target_owner, group_member_index(G, "b-m"));
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_says(sc_find(s, KG_EV_REBALANCE_START, NULL, 0), "joined: b");
	/* a revoked [2 3]; a member keeps consuming what it keeps: it is partial, not stopped */
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1>0 1;b=>2 3");
	snap = sc_tick(s, 2000);
	G = snapshot_group_by_name(snap, "g");
	e = sc_find(s, KG_EV_REVOKED, "a", 0);
	assert_says(e, "a revoked [2 3] of [0 1 2 3] (incremental)");
	assert_non_null(e);
	assert_false(sc_text_has(e, "epoch", false)); /* polling knows no member epoch */
	assert_int_equal(e->evidence, KG_EVID_POLLED);
	assert_int_equal(G->members[group_member_index(G, "a-m")].status, KG_MEMBER_PARTIAL);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 0);
	/* b got them: every member holds its target, the reconciliation is over */
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_tick(s, 3000);
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, "b"), 1);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	/* it began after the description at 0 and was seen at 1 s; it ended after 2 s and was seen at 3 s */
	assert_says(e, "rebalance ended after 1.0-3.0s, no barrier");
	assert_says(e, "0 of 1 member stopped");
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].start_lo_us, sc_us(s, 0));
	assert_int_equal(v[0].start_us, sc_us(s, 1000));
	assert_int_equal(v[0].end_lo_us, sc_us(s, 2000));
	assert_int_equal(v[0].end_us, sc_us(s, 3000));
	/* whatever the truth was within the refreshes, the bounds hold it: joined at 0.5 s, done at 2.5 s */
	assert_true(episode_duration(&v[0], 0).min <= 2000000 && episode_duration(&v[0], 0).max >= 2000000);
	episodes_free(v, n);
	sc_free(s);
}

/* A target that does not move opens nothing; an epoch read again (or older) opens nothing either. */
static void
test_no_phantoms(void **state)
{
	sc *s = sc_new(4, NULL);
	(void)state;
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_group_kip(s, "g", true);
	rec(s, KG_OBS_EPOCH, 0, NULL, 5, NULL);
	sc_tick(s, 100);
	member_rec(s, 150, "a", 5, 4, KG_MSTATE_STABLE, "0 1", "");
	member_rec(s, 150, "b", 5, 4, KG_MSTATE_STABLE, "2 3", "");
	rec(s, KG_OBS_TARGET_EPOCH, 150, NULL, 5, NULL);
	sc_tick(s, 200);
	if (sc_count(s, KG_EV_REBALANCE_END, NULL) != 1)
		sc_dump(s);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	sc_tick(s, 1000);
	sc_tick(s, 2000);
	rec(s, KG_OBS_EPOCH, 2100, NULL, 5, NULL); /* the same record, read again */
	rec(s, KG_OBS_EPOCH, 2100, NULL, 4, NULL); /* an older one */
	sc_tick(s, 3000);
	if (sc_count(s, KG_EV_REBALANCE_START, NULL) != 1)
		sc_dump(s);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REVOKED, NULL), 0);
	assert_int_equal(sc_count(s, KG_EV_ASSIGNED, NULL), 0);
	sc_free(s);
}

/* From a coordinator's log alone the bump is timed, the members' reconciliation is not: "at least". */
static void
test_log_only_lower_bound(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_obs *o;
	kg_episode *v = NULL;
	int n;
	(void)state;
	o = obs_new(KG_OBS_EPOCH, sc_us(s, 0), intern_group("g"), "log");
	o->generation = 3;
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_TARGET_EPOCH, sc_us(s, 40), intern_group("g"), "log");
	o->generation = 3;
	sc_obs_push(s, o);
	sc_tick(s, 100);
	sc_tick(s, 30000);
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	assert_true(v[0].end_us > 0);
	assert_true(v[0].end_unseen);
	assert_int_equal(episode_duration(&v[0], 0).max, -1);
	assert_says(sc_find(s, KG_EV_REBALANCE_END, NULL, 0), "rebalance ended after \u226540ms, no barrier, group epoch 3");
	episodes_free(v, n);
	sc_free(s);
}

/* A consumer group an old librdkafka cannot describe: members a trace knows are not lost to it. */
static void
test_members_unknown(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_builder *b;
	kg_snapshot *snap;
	kg_evlist ev = { 0 };
	kg_obsq q = { 0 };
	int i;
	kg_obs *o;
	(void)state;
	for (i = 0; i < 3; i++) {
		b = builder_new(sc_us(s, i * 1000));
		kg_bgroup *bg = builder_group(b, intern_group("g"));
		bgroup_state(bg, KG_STATE_STABLE);
		bgroup_type(bg, KG_GTYPE_CONSUMER, NULL);
		bgroup_note(bg, "members need librdkafka >= 2.10 (this build: 2.0.2)", true);
		if (i == 1) {
			o = obs_new(KG_OBS_JOINED, sc_us(s, 500), intern_group("g"), "log");
			obs_member(o, "k1-m", "k1", NULL, NULL);
			obsq_push(&q, o);
		}
		snap = builder_finish(b);
		tracker_apply(s->t, &q, snap, &ev);
		assert_int_equal(snap->groups[0].members_unknown, true);
		assert_string_equal(snap->groups[0].note, "members need librdkafka >= 2.10 (this build: 2.0.2)");
		snapshot_unref(snap);
	}
	for (i = 0; i < (int)ev.n; i++) {
		assert_int_not_equal(ev.v[i]->kind, KG_EV_MEMBER_LEFT);
		assert_int_not_equal(ev.v[i]->kind, KG_EV_GROUP_GONE);
	}
	evlist_clear(&ev);
	free(ev.v);
	free(q.v);
	sc_free(s);
}

/* A member that loses all it had in a consumer group: that member's stop, nobody else's. */
static void
test_whole_assignment_moves(void **state)
{
	sc *s = sc_new(4, NULL);
	const kg_event *e;
	(void)state;
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=2 3>2 3");
	sc_group_kip(s, "g", true);
	sc_tick(s, 0);
	/* c arrives, the assignor gives it all of b's (a range-like move) */
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1>0 1;b=2 3>;c=>2 3");
	sc_tick(s, 1000);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "a=0 1>0 1;b=>;c=>2 3");
	sc_tick(s, 2000);
	e = sc_find(s, KG_EV_REVOKED, "b", 0);
	assert_says(e, "b revoked [2 3] (all it had)");
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=>;c=2 3>2 3");
	sc_tick(s, 3000);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_says(e, "1 of 2 members stopped");
	sc_free(s);
}

/*
 * The demo's consumer-protocol group, told by its members' callbacks: c joins,
 * a revokes a partition, c gets it, then b revokes one more and c gets that
 * too. Reconciliation steps, never a JoinGroup round: no "rebalance round 2"
 * (a revoke after an assignment began the next round as for eager).
 */
static void
test_callbacks_no_rounds(void **state)
{
	sc *s = sc_new(6, NULL);
	(void)state;
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1 2>0 1 2;b=3 4 5>3 4 5");
	sc_group_kip(s, "g", true);
	sc_group_exact(s, "g", true);
	sc_obs(s, KG_OBS_ASSIGNED, 0, "g", "a", KG_PROTO_CONSUMER, "0 1 2");
	sc_obs(s, KG_OBS_ASSIGNED, 0, "g", "b", KG_PROTO_CONSUMER, "3 4 5");
	sc_tick(s, 100);
	sc_tick(s, 2000);
	sc_obs(s, KG_OBS_REVOKED, 5000, "g", "a", KG_PROTO_CONSUMER, "2");
	sc_obs(s, KG_OBS_ASSIGNED, 5200, "g", "c", KG_PROTO_CONSUMER, "2");
	sc_tick(s, 5300);
	sc_obs(s, KG_OBS_REVOKED, 5400, "g", "b", KG_PROTO_CONSUMER, "5");
	sc_obs(s, KG_OBS_ASSIGNED, 5600, "g", "c", KG_PROTO_CONSUMER, "2 5");
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "a=0 1>0 1;b=3 4>3 4;c=2 5>2 5");
	sc_tick(s, 5700);
	sc_tick(s, 8000);
	assert_int_equal(sc_count_revokes(s, "g", "a", KG_CLASS_INCREMENTAL), 1);
	assert_int_equal(sc_count_revokes(s, "g", "b", KG_CLASS_INCREMENTAL), 1);
	assert_null(sc_find(s, KG_EV_ROUND, NULL, 0));
	sc_free(s);
}


/* True when no event told of g names a round (KIP-848 has no JoinGroup rounds); prints the first that does. */
static bool
no_round_told(sc *s)
{
	size_t i;
	for (i = 0; i < s->ev.n; i++) {
		sbuf b = { 0 };
		bool round;
		event_format(s->ev.v[i], &b);
		round = s->ev.v[i]->kind == KG_EV_ROUND || strstr(sbuf_str(&b), "round") != NULL;
		if (round)
			fprintf(stderr, "# told: %s\n", sbuf_str(&b));
		sbuf_free(&b);
		if (round)
			return false;
	}
	return true;
}

/*
 * A second bump while the reconciliation is under way, after a member's
 * callback got its partitions (the episode's phase synced): c joins while
 * b's records are not at epoch 2 yet.  The group epoch's record moves the
 * target; it is the same reconciliation, never "rebalance round 2" (a
 * bump read after a sync began a JoinGroup round as for a classic group).
 * It ends when every member is at epoch 3, exactly.
 */
static void
test_records_bump_after_sync(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode e;
	(void)state;
	k2_joins(s, 1402);
	sc_group_data_time(s, "g", 0); /* the descriptions are the first one: the records judge */
	sc_tick(s, 1450);
	/* b's own callback: it got [2 3] (the round-like sync of a classic group) */
	sc_obs_id(s, KG_OBS_ASSIGNED, 1500, "g", "b", "b-m", NULL, KG_PROTO_CONSUMER, "2 3");
	sc_tick(s, 1520);
	/* c joins: epoch 3, a keeps [0 1], b must give up 3 */
	k_bump(s, 1550, "c", 3, "b", "2", "c", "3");
	kcur(s, 1584, "b", 2, 2, 0, "2 3", "", false);
	sc_tick(s, 1600);
	kcur(s, 1650, "a", 3, 2, 0, "0 1", "", false);
	kcur(s, 1700, "b", 2, 2, 1, "2", "3", false);
	kcur(s, 1800, "b", 3, 2, 0, "2", "", false);
	kcur(s, 1900, "c", 3, 3, 0, "3", "", false);
	sc_tick(s, 2000);
	sc_tick(s, 3000);
	assert_int_equal(starts_since(s, 1000), 1);
	e = last_episode(s);
	assert_int_equal(e.start_us, sc_us(s, 1000));
	assert_int_equal(e.end_us, sc_us(s, 1900)); /* c's record, the last member at epoch 3 */
	assert_int_equal(e.end_lo_us, e.end_us);
	assert_int_equal(e.gen_end, 3);
	assert_int_equal(e.rounds, 1);
	assert_false(e.rounds_min);
	assert_true(no_round_told(s));
	sc_free(s);
}

/*
 * A consumer group known from its records alone, never described (polling
 * cannot list its members: librdkafka 2.0.2, t_offsets.sh E in a
 * --with-librdkafka=system build, DISAGREEMENTS.md kip-old-start): b joins.
 * The bump's record opens the reconciliation and b's last record ends it,
 * both the coordinator's own times: measured, 584 ms, not a lower bound
 * (as if a coordinator's log alone had told it, its end unseen), and one
 * round (the bump read after the log-like sync began "rebalance round 2").
 * Before, the formation loaded at kgtop's start: one episode.
 */
static void
test_records_alone_measured(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL, e;
	const kg_event *end;
	int n, i;
	(void)state;
	sc_tick(s, 0);
	k_loaded(s, -5000);
	sc_tick(s, 500);
	k_bump(s, 1000, "b", 2, "a", "0 1", "b", "2 3");
	sc_tick(s, 1050);
	k2_later(s, 2000);
	sc_tick(s, 1700);
	sc_tick(s, 5000);
	assert_int_equal(starts_since(s, 1000), 1);
	/*
	 * the state loaded at kgtop's start (the group epoch's record comes
	 * before its members'): a's formation, one episode, judged with a listed
	 * (not "the group is empty" at the epoch's record, nor a second one at a's)
	 */
	n = episodes(s, &v);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++)
		assert_int_equal(v[i].rounds, 1);
	assert_int_equal(v[0].end_us, sc_us(s, -5000));
	episodes_free(v, n);
	for (i = 0; (end = sc_find(s, KG_EV_REBALANCE_END, NULL, i)) != NULL; i++)
		assert_false(sc_text_has(end, "the group is empty", false));
	/* the records told a's assignment: not "from the coordinator's log: members and partitions not seen" */
	assert_says(sc_find(s, KG_EV_REBALANCE_END, NULL, 0), "rebalance ended after 0ms, no barrier, group epoch 1; group formed with 1 member");
	e = last_episode(s);
	assert_int_equal(e.start_us, sc_us(s, 1000));
	assert_int_equal(e.start_lo_us, e.start_us);
	assert_int_equal(e.end_us, sc_us(s, 1584));
	assert_int_equal(e.end_lo_us, e.end_us);
	assert_false(e.end_unseen);
	for (i = 0; (end = sc_find(s, KG_EV_REBALANCE_END, NULL, i)) != NULL; i++)
		if (end->time_us == sc_us(s, 1584))
			break;
	assert_non_null(end);
	assert_int_equal(end->duration.min, 584000);
	assert_int_equal(end->duration.max, 584000);
	assert_says(end, "rebalance ended after 584ms, no barrier");
	assert_true(no_round_told(s));
	sc_free(s);
}

/*
 * The loaded state and the live join read in one tick (the load done as
 * the join's records arrive): the formation is judged before the bump, so
 * the join opens its own episode (not one run on from the formation's).
 */
static void
test_records_loaded_then_live(void **state)
{
	sc *s = sc_new(4, NULL);
	kg_episode *v = NULL;
	int n;
	(void)state;
	sc_tick(s, 0);
	k_loaded(s, -4900);
	krec(s, KG_OBS_MEMBER_META, 1000, "b", -1, NULL, false);
	krec(s, KG_OBS_GROUP_EPOCH, 1000, NULL, 2, NULL, false);
	kcur(s, 1000, "b", 2, 0, 2, "", "", false);
	sc_tick(s, 1050);
	n = episodes(s, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].start_us, sc_us(s, -5000));
	assert_int_equal(v[0].end_us, sc_us(s, -4900)); /* a's record: the formation settled */
	assert_int_equal(v[1].start_us, sc_us(s, 1000));
	assert_int_equal(v[1].end_us, 0); /* b reconciling */
	episodes_free(v, n);
	assert_true(no_round_told(s));
	sc_free(s);
}

/*
 * k1 [0 1 2] and k2 [3 4 5] of g (KIP-848), described at 0; Kafka 4.3.1's
 * log: k3 joins at 1.818 s, named by its member id alone, and the group
 * epoch is bumped to 4 at 1.822 s (the lines as the log trace gives them).
 */
static void
k3_joins_by_log(sc *s)
{
	kg_obs *o;
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1=0 1 2>0 1 2;k2=3 4 5>3 4 5");
	sc_group_kip(s, "g", true);
	sc_tick(s, 0);
	o = obs_new(KG_OBS_JOINED, sc_us(s, 1818), intern_group("g"), "log");
	obs_member(o, "FTkNlZXkReqZgUAffXrOQg", NULL, NULL, NULL);
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_EPOCH, sc_us(s, 1822), intern_group("g"), "log");
	o->generation = 4;
	sc_obs_push(s, o);
}

/*
 * Kafka 4.3.1's log names a KIP-848 member by its member id alone ("Member
 * FTkNlZXkReqZgUAffXrOQg joins the consumer group"), a random id; the
 * description that follows gives its client id: the episode's end names
 * the joiner by it, as polling alone does (t_kip848.sh printed "joined:
 * IQYWckeTS2ym61sRYVWDFA" for k3).
 */
static void
test_log_joiner_named_by_client(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	(void)state;
	k3_joins_by_log(s);
	sc_group_data_time(s, "g", 1810); /* asked before the join, read after its line */
	sc_tick(s, 1830);
	sc_group_data_time(s, "g", -1);
	assert_says(sc_find(s, KG_EV_REBALANCE_START, NULL, 0), "joined: FTkNlZXkReqZgUAffXrOQg");
	/* the next description, more than a second after the line (kgtop's STALE_DESCRIPTION) */
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "k1=0 1>0 1;k2=3 4 5>3 4;k3/FTkNlZXkReqZgUAffXrOQg=2>2 5");
	sc_tick(s, 2900);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1=0 1>0 1;k2=3 4>3 4;k3/FTkNlZXkReqZgUAffXrOQg=2 5>2 5");
	sc_tick(s, 3900);
	if (sc_count(s, KG_EV_REBALANCE_END, NULL) != 1 || sc_count(s, KG_EV_MEMBER_LEFT, NULL) != 0)
		sc_dump(s);
	/* one member, told twice: no leave, one episode */
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, NULL), 0);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_says(e, "joined: k3;");
	assert_false(sc_text_has(e, "FTkNlZXkReqZgUAffXrOQg", false));
	assert_says(e, "2 partitions moved");
	sc_free(s);
}

/*
 * Kafka 4.3 logs a join as it handles the member's heartbeat and serves a
 * description from what it has committed: a description begun 8 ms after
 * the log's "Bumped group epoch" can show the group before it (the joiner
 * absent, every member at its old target).  That picture is the one
 * before the reconciliation, not its end ("rebalance ended after <=8ms,
 * 0 partitions moved" before this rule).
 */
static void
test_log_description_before_commit(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *v = NULL;
	const kg_event *e;
	int n;
	(void)state;
	k3_joins_by_log(s);
	sc_tick(s, 1830); /* asked at 1830: the old picture still */
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 0);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "k1=0 1>0 1;k2=3 4 5>3 4;k3/FTkNlZXkReqZgUAffXrOQg=2>2 5");
	sc_tick(s, 2830);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1=0 1>0 1;k2=3 4>3 4;k3/FTkNlZXkReqZgUAffXrOQg=2 5>2 5");
	sc_tick(s, 3830);
	if (sc_count(s, KG_EV_REBALANCE_END, NULL) != 1)
		sc_dump(s);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_LEFT, NULL), 0);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_says(e, "2 partitions moved");
	n = episodes(s, &v);
	assert_int_equal(n, 1);
	/* it ended after the description that showed k2 still revoking, by the one that showed it over */
	assert_int_equal(v[0].start_us, sc_us(s, 1822));
	assert_true(v[0].end_lo_us >= sc_us(s, 2830));
	assert_int_equal(v[0].end_us, sc_us(s, 3830));
	episodes_free(v, n);
	sc_free(s);
}

/*
 * KIP-848 joins polled with the coordinator's log read at a random time:
 * k1 and k2 join (the log naming them by member id), then k3; k1 and k2
 * revoke in their own time once the target is computed (at once, or up
 * to 1.1 s after the bump: Kafka 4.3 batches them), k3 gets each
 * partition as it is released;
 * descriptions asked every second (jitter), served 2-22 ms later as the
 * coordinator had committed it (a third up to 15 ms behind: its append
 * linger), the log's lines read 0-2.5 s late.  Each schedule must give
 * one episode for k3's join with both revokes, two partitions moved, no
 * member leaving, and duration bounds that meet the coordinator's end
 * (k3's last partition, visible by 15 ms later).
 * Before the rules of test_log_joiner_named_by_client, 25 of 3,000
 * schedules had k3 (or k1, k2) leave and join again.
 */
static uint64_t prop_rs;
#define COMMIT_LAG 15 /* ms a description can lag what the coordinator did: the end is seen by then */

static int
prop_rnd(int n)
{
	prop_rs = prop_rs * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int)((prop_rs >> 33) % (uint64_t)n);
}

/* Push the log's lines of a join: member mid joins at ms, the group epoch bumped to epoch. */
static void
prop_log_join(sc *s, int64_t ms, const char *mid, int32_t epoch)
{
	kg_obs *o = obs_new(KG_OBS_JOINED, sc_us(s, ms), intern_group("g"), "log");
	obs_member(o, mid, NULL, NULL, NULL);
	sc_obs_push(s, o);
	o = obs_new(KG_OBS_EPOCH, sc_us(s, ms), intern_group("g"), "log");
	o->generation = epoch;
	sc_obs_push(s, o);
}

/*
 * Push the log's line of a target computed at ms for epoch (Kafka 4.3
 * computes them in batches: t_kip848.sh's log has one a second after its
 * bump).
 */
static void
prop_log_target(sc *s, int64_t ms, int32_t epoch)
{
	kg_obs *o = obs_new(KG_OBS_TARGET_EPOCH, sc_us(s, ms), intern_group("g"), "log");
	o->generation = epoch;
	sc_obs_push(s, o);
}

/* g formed by k1 (its log's join and target at epoch 2, at 100 ms), all six partitions its, seen at 1 s. */
static void
prop_k1_formed(sc *s)
{
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2 3 4 5>0 1 2 3 4 5");
	sc_group_kip(s, "g", true);
	prop_log_join(s, 100, "AAA", 2);
	prop_log_target(s, 101, 2);
	sc_tick(s, 1000);
}

/* Describe g as it was asked at asked, handed over to kgtop by tick. */
static void
prop_describe(sc *s, kg_group_state st, const char *members, int64_t asked, int64_t tick)
{
	sc_group_set(s, "g", st, "uniform", members);
	sc_group_data_time(s, "g", asked);
	sc_tick(s, tick);
}

/* One schedule; true when kgtop told it right. */
static bool
prop_schedule(uint64_t seed, bool show)
{
	sc *s = sc_new(6, NULL);
	int64_t j1, j2, join, r1, r2, a1, a2, lr, t, end, tt;
	int nrev0, nend0;
	bool ok, lp = false, tp = false;
	const kg_event *e;
	kg_episode *v = NULL;
	int n;
	kg_span d;
	char k3[16];
	prop_rs = seed;
	sc_group_set(s, "g", KG_STATE_EMPTY, "uniform", "");
	sc_group_kip(s, "g", true);
	sc_tick(s, 0);
	j1 = 100 + prop_rnd(300);
	j2 = j1 + 20 + prop_rnd(300);
	tt = j2 + 1 + (prop_rnd(2) == 0 ? prop_rnd(1100) : 0);
	lr = j1 + prop_rnd(2500);
	for (t = 1000; t <= 6000; t += 1000 + prop_rnd(60)) {
		int64_t st = t - prop_rnd(40);
		if (!lp && lr <= t) {
			prop_log_join(s, j1, "AAA", 2);
			prop_log_target(s, j1 + 1, 2);
			prop_log_join(s, j2, "BBB", 3);
			lp = true;
		}
		if (lp && !tp && tt <= t) {
			prop_log_target(s, tt, 3);
			tp = true;
		}
		if (st < j1)
			prop_describe(s, KG_STATE_EMPTY, "", st, t + 25);
		else if (st < j2)
			prop_describe(s, KG_STATE_STABLE, "k1/AAA=0 1 2 3 4 5>0 1 2 3 4 5", st, t + 25);
		else if (st < tt)
			prop_describe(s, KG_STATE_UNKNOWN, "k1/AAA=0 1 2 3 4 5>0 1 2 3 4 5;k2/BBB=>", st, t + 25);
		else if (st < tt + 400)
			prop_describe(s, KG_STATE_UNKNOWN, "k1/AAA=0 1 2 3 4 5>0 1 2;k2/BBB=>3 4 5", st, t + 25);
		else
			prop_describe(s, KG_STATE_STABLE, "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5", st, t + 25);
	}
	nrev0 = sc_count(s, KG_EV_REVOKED, NULL);
	nend0 = sc_count(s, KG_EV_REBALANCE_END, NULL);
	join = 7000 + prop_rnd(1000);
	tt = join + 1 + (prop_rnd(2) == 0 ? prop_rnd(1100) : 0);
	r1 = tt + 50 + prop_rnd(800);
	r2 = tt + 50 + prop_rnd(800);
	a1 = r1 + 10 + prop_rnd(500);
	a2 = r2 + 10 + prop_rnd(500);
	if (prop_rnd(2) == 0)
		a1 = a2 = KG_MAX(a1, a2); /* both at one heartbeat of k3's */
	end = KG_MAX(a1, a2);
	lr = join + prop_rnd(2500);
	lp = tp = false;
	for (t = 7000; t <= 14000; t += 1000 + prop_rnd(60)) {
		/* served after the listing, from what the coordinator had committed (its append linger, queued) */
		int64_t asked = t - prop_rnd(40), st = asked + 2 + prop_rnd(20) - (prop_rnd(3) == 0 ? prop_rnd(COMMIT_LAG) : 0);
		char members[128];
		if (!lp && lr <= t) {
			prop_log_join(s, join, "XYZ", 4);
			lp = true;
		}
		if (lp && !tp && lr <= t && tt <= t) {
			prop_log_target(s, tt, 4);
			tp = true;
		}
		if (st < join || st < tt) {
			prop_describe(s, st < join ? KG_STATE_STABLE : KG_STATE_UNKNOWN,
				      st < join ? "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5" : "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5;k3/XYZ=>",
				      asked, t + 25);
			continue;
		}
		snprintf(k3, sizeof k3, "%s%s%s", st >= a1 ? "2" : "", st >= a1 && st >= a2 ? " " : "", st >= a2 ? "5" : "");
		snprintf(members, sizeof members, "k1/AAA=%s>0 1;k2/BBB=%s>3 4;k3/XYZ=%s>2 5", st >= r1 ? "0 1" : "0 1 2",
			 st >= r2 ? "3 4" : "3 4 5", k3);
		prop_describe(s, st >= end ? KG_STATE_STABLE : KG_STATE_UNKNOWN, members, asked, t + 25);
	}
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, nend0);
	n = episodes(s, &v);
	d = n > 0 ? episode_duration(&v[n - 1], 0) : (kg_span){ -1, -1 };
	ok = sc_count(s, KG_EV_REVOKED, NULL) - nrev0 == 2 && sc_count(s, KG_EV_REBALANCE_END, NULL) - nend0 == 1 &&
	     e != NULL && sc_text_has(e, "2 partitions moved", false) && sc_count(s, KG_EV_MEMBER_LEFT, NULL) == 0 &&
	     d.min <= (end + COMMIT_LAG - join) * 1000 && (d.max < 0 || d.max >= (end - join) * 1000);
	if (show) {
		fprintf(stderr, "# seed %llu: k3 joins at %lld, k1 revokes at %lld, k2 at %lld, k3 gets 2 at %lld, 5 at %lld, "
				"the log read at %lld; duration %lld-%lld us\n",
			(unsigned long long)seed, (long long)join, (long long)r1, (long long)r2, (long long)a1, (long long)a2,
			(long long)lr, (long long)d.min, (long long)d.max);
		sc_dump(s);
	}
	episodes_free(v, n);
	sc_free(s);
	return ok;
}

static void
test_log_joins_random(void **state)
{
	int fails = 0;
	uint64_t seed;
	(void)state;
	for (seed = 1; seed <= 3000; seed++) {
		if (!prop_schedule(seed, false) && fails++ < 2)
			prop_schedule(seed, true);
	}
	fprintf(stderr, "# %d of 3000 schedules told wrong\n", fails);
	assert_int_equal(fails, 0);
}

/*
 * Kafka 4.3 computes a bump's target in a batch, up to a second or more
 * later (t_kip848.sh's log: "Bumped group epoch to 3" at 08.259,
 * "Computed a new target assignment for epoch 3" at 09.294).  Meanwhile
 * every member holds the old target (the joiner's is empty): that is not
 * the end.  kgtop with the log told k2's join as an episode "ended after
 * <=742ms, 0 partitions moved" and then another, "cause unknown".
 */
static void
test_log_target_computed_later(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *v = NULL;
	const kg_event *e;
	int n;
	(void)state;
	prop_k1_formed(s);
	prop_log_join(s, 1200, "BBB", 3);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2 3 4 5>0 1 2 3 4 5;k2/BBB=>");
	sc_tick(s, 2000); /* epoch 3's target is not computed yet */
	prop_log_target(s, 2300, 3);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "k1/AAA=0 1 2 3 4 5>0 1 2;k2/BBB=>3 4 5");
	sc_tick(s, 3000);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5");
	sc_tick(s, 4000);
	if (sc_count(s, KG_EV_REBALANCE_END, NULL) != 2)
		sc_dump(s);
	/* k1's join ended by the first description; k2's is one episode, to its end */
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 2);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 2);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 1);
	assert_says(e, "joined: k2");
	assert_says(e, "3 partitions moved");
	n = episodes(s, &v);
	assert_int_equal(v[n - 1].start_us, sc_us(s, 1200));
	assert_true(v[n - 1].end_lo_us >= sc_us(s, 3000));
	assert_int_equal(v[n - 1].end_us, sc_us(s, 4000));
	episodes_free(v, n);
	sc_free(s);
}

/*
 * The reconciliation cannot end before the target its members reached was
 * computed: the log's (or a record's) time of it bounds the end from below
 * when no description showed the group unfinished (t_kip848.sh, with the
 * log: the first description after k3's join showed it settled, and the
 * end was told "<=1.6s" from the bump while the target came 0.4 s after it).
 */
static void
test_log_target_bounds_end(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *v = NULL;
	int n;
	(void)state;
	prop_k1_formed(s);
	prop_log_join(s, 1200, "BBB", 3);
	prop_log_target(s, 1650, 3);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5");
	sc_tick(s, 2000); /* the first description after the join: settled, its targets new */
	sc_tick(s, 3000);
	n = episodes(s, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[1].start_us, sc_us(s, 1200));
	assert_int_equal(v[1].end_lo_us, sc_us(s, 1650));
	assert_int_equal(v[1].end_us, sc_us(s, 2000)); /* that description showed it over */
	assert_says(sc_find(s, KG_EV_REBALANCE_END, NULL, 1), "rebalance ended after 450-800ms");
	episodes_free(v, n);
	sc_free(s);
}

/*
 * The same bound when the log is read after polling ended the episode (the
 * trace reads its file on its own schedule: t_kip848.sh's log-reading
 * kgtop ended k3's join "<=1.0s", 0-1000 ms, at the description that showed
 * it whole, then read the bump and, 0.4 s after it, the target): the late
 * target raises the end's lower bound, as the late bump timed the start,
 * and a retimed event says so.
 */
static void
test_log_target_late_bounds_end(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_episode *v = NULL;
	const kg_event *e;
	int n;
	(void)state;
	prop_k1_formed(s);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5");
	sc_tick(s, 2000); /* the join whole in one description, its lines not read yet */
	n = episodes(s, &v);
	assert_int_equal(n, 2);
	assert_true(v[1].end_us == sc_us(s, 2000) && v[1].end_lo_us < sc_us(s, 1650));
	episodes_free(v, n);
	prop_log_join(s, 1200, "BBB", 3);
	prop_log_target(s, 1650, 3);
	sc_tick(s, 3000);
	n = episodes(s, &v);
	if (n != 2 || v[1].end_lo_us != sc_us(s, 1650))
		sc_dump(s);
	assert_int_equal(n, 2);
	assert_int_equal(v[1].start_us, sc_us(s, 1200));
	assert_int_equal(v[1].end_lo_us, sc_us(s, 1650));
	assert_int_equal(v[1].end_us, sc_us(s, 2000));
	episodes_free(v, n);
	e = sc_find(s, KG_EV_RETIMED, NULL, sc_count(s, KG_EV_RETIMED, NULL) - 1);
	if (e == NULL || e->duration.min != 450000 || e->duration.max != 800000)
		sc_dump(s);
	assert_non_null(e);
	assert_int_equal(e->duration.min, 450000);
	assert_int_equal(e->duration.max, 800000);
	sc_free(s);
}

/* The coordinator log trace's view of its groups, as kgtop's trace source adds it to a snapshot. */
static void
view_more(void *arg, kg_builder *b)
{
	tgview_contribute(arg, b);
}

/*
 * Kafka 4.3.1's log tells a KIP-848 group first by a member's "joins the
 * consumer group", before any bump.  The log trace's view took that
 * member for one that reports its own callbacks (as a JSON-lines trace's
 * members do): the snapshot flagged it so before polling described the
 * group, kgtop believed it for good and skipped its polled steps.  In
 * t_kip848.sh kgtop with the log said "0 of 1 member stopped, 1 partition
 * moved" where k1 and k2 each revoked one.
 */
static void
test_log_first_line_a_join(void **state)
{
	sc *s = sc_new(6, NULL);
	kg_log_parser p;
	kg_obsq q = { 0 };
	kg_tgview *v = tgview_new(0, true);
	char line[512], when[32];
	time_t sec = (time_t)(sc_us(s, 500) / 1000000);
	struct tm tm;
	const kg_group *G;
	kg_snapshot *snap;
	size_t i;
	(void)state;
	gmtime_r(&sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(line, sizeof line,
		 "[%s,%03d] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=2] [GroupId g] Member "
		 "2iXnHxswRhqM_ECrPbRM_g joins the consumer group using the consumer protocol. "
		 "(org.apache.kafka.coordinator.group.GroupMetadataManager)",
		 when, (int)(sc_us(s, 500) / 1000 % 1000));
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	assert_int_equal(parse_log_line(&p, line, strlen(line), &q), KG_PARSE_OBS);
	for (i = 0; i < q.n; i++) {
		tgview_update(v, q.v[i]);
		sc_obs_push(s, q.v[i]);
	}
	free(q.v);
	/* polling has not described g yet: the log's view has it, with no member */
	snap = sc_tick_with(s, 1000, view_more, v);
	G = snapshot_group_by_name(snap, "g");
	assert_non_null(G);
	assert_int_equal(G->nmembers, 0);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/2iXnHxswRhqM_ECrPbRM_g=0 1 2 3 4 5>0 1 2 3 4 5");
	sc_group_kip(s, "g", true);
	sc_tick_with(s, 2000, view_more, v);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "k1/2iXnHxswRhqM_ECrPbRM_g=0 1 2 3 4 5>0 1 2;k2/B=>3 4 5");
	sc_tick_with(s, 8000, view_more, v);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/2iXnHxswRhqM_ECrPbRM_g=0 1 2>0 1 2;k2/B=3 4 5>3 4 5");
	snap = sc_tick_with(s, 9000, view_more, v);
	if (sc_count(s, KG_EV_REVOKED, "k1") != 1)
		sc_dump(s);
	assert_int_equal(sc_count(s, KG_EV_REVOKED, "k1"), 1);
	assert_says(sc_find(s, KG_EV_REBALANCE_END, NULL, sc_count(s, KG_EV_REBALANCE_END, NULL) - 1), "3 partitions moved");
	G = snapshot_group_by_name(snap, "g");
	for (i = 0; i < (size_t)G->nmembers; i++)
		assert_false(G->members[i].flags & KG_MEMBER_EXACT); /* nobody reports its own callbacks */
	tgview_free(v);
	parse_log_free(&p);
	sc_free(s);
}

/*
 * Polling alone: k2 joined, the group epoch is bumped, its target not
 * computed yet (Kafka's Assigning, which librdkafka does not name: the
 * kafka source says "Assigning/Reconciling" with every member at its
 * target).  Every member holds the old target, k2 an empty one: not the
 * end (kgtop told the formation "ended after <=990ms" there).
 */
static void
test_polled_assigning_not_end(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	(void)state;
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1=0 1 2 3 4 5>0 1 2 3 4 5");
	sc_group_kip(s, "g", true);
	sc_tick(s, 0);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "k1=0 1 2 3 4 5>0 1 2 3 4 5;k2=>");
	sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 0);
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "k1=0 1 2 3 4 5>0 1 2;k2=>3 4 5");
	sc_tick(s, 2000);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1=0 1 2>0 1 2;k2=3 4 5>3 4 5");
	sc_tick(s, 3000);
	if (sc_count(s, KG_EV_REBALANCE_END, NULL) != 1)
		sc_dump(s);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_START, NULL), 1);
	assert_int_equal(sc_count(s, KG_EV_REBALANCE_END, NULL), 1);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, 0);
	assert_says(e, "joined: k2");
	assert_says(e, "3 partitions moved");
	sc_free(s);
}

/*
 * The other order: polling describes a group that is forming before the
 * log's lines of it are read (its first description: members there at
 * start, as far as polling knows).  The log's join, read after, is a join
 * all the same: announced, and the episode names its joiner (kgtop with
 * the log said "cause unknown: group epoch bumped" and no member joined).
 */
static void
test_log_join_after_first_description(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	(void)state;
	sc_group_set(s, "g", KG_STATE_UNKNOWN, "uniform", "k1/AAA=0 1 2 3 4 5>0 1 2;k2/BBB=>3 4 5");
	sc_group_kip(s, "g", true);
	sc_tick(s, 1000);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_JOINED, NULL), 0); /* there before kgtop, as far as it knows */
	prop_log_join(s, 700, "AAA", 2);
	prop_log_target(s, 701, 2);
	prop_log_join(s, 900, "BBB", 3);
	prop_log_target(s, 901, 3);
	sc_tick(s, 1500);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5");
	sc_tick(s, 2000);
	if (sc_count(s, KG_EV_MEMBER_JOINED, NULL) != 2)
		sc_dump(s);
	assert_int_equal(sc_count(s, KG_EV_MEMBER_JOINED, NULL), 2);
	e = sc_find(s, KG_EV_MEMBER_JOINED, "k1", 0);
	assert_non_null(e);
	assert_int_equal(e->evidence, KG_EVID_EXACT);
	e = sc_find(s, KG_EV_REBALANCE_END, NULL, sc_count(s, KG_EV_REBALANCE_END, NULL) - 1);
	assert_says(e, "joined: k");
	sc_free(s);
}

/*
 * Which states say the coordinator has not settled a KIP-848 group: its
 * own names, and the one name a source uses for "one of the two" (the
 * kafka source, as librdkafka names neither); a name that merely
 * resembles it is a state kgtop does not know, not that.
 */
static void
test_unsettled_named(void **state)
{
	static const struct {
		const char *group;
		kg_group_state st;
		const char *name; /* NULL: none; "": bgroup_unsettled */
		bool unsettled;
	} cases[] = {
		{ "u-assigning", KG_STATE_ASSIGNING, NULL, true },
		{ "u-reconciling", KG_STATE_RECONCILING, NULL, true },
		{ "u-either", KG_STATE_UNKNOWN, "", true },
		{ "u-lookalike", KG_STATE_UNKNOWN, "Assigning soon", false },
		{ "u-other", KG_STATE_UNKNOWN, "NotReady", false },
		{ "u-stable", KG_STATE_STABLE, NULL, false },
		{ "u-empty", KG_STATE_EMPTY, NULL, false },
	};
	kg_builder *b = builder_new(1700000000LL * 1000000);
	kg_snapshot *s;
	size_t i;
	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		kg_bgroup *bg = builder_group(b, intern_group(cases[i].group));
		bgroup_state(bg, cases[i].st);
		if (cases[i].name != NULL && *cases[i].name == '\0')
			bgroup_unsettled(bg);
		else if (cases[i].name != NULL)
			bgroup_state_name(bg, cases[i].name);
	}
	s = builder_finish(b);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const kg_group *G = snapshot_group_by_name(s, cases[i].group);
		assert_non_null(G);
		if (group_unsettled(G) != cases[i].unsettled)
			fail_msg("%s (%s): unsettled %d, expected %d", cases[i].group, group_state_text(G),
				 group_unsettled(G), cases[i].unsettled);
	}
	assert_string_equal(group_state_text(snapshot_group_by_name(s, "u-either")), "Assigning/Reconciling");
	snapshot_unref(s);
}

/*
 * Polling saw a reconciliation begin before the log's bump was read (the
 * trace reads its file on its own schedule): the group epoch kgtop knew
 * then is the one before the bump, and a KIP-848 start names the epoch
 * the bump made ("group epoch 5"), so this start names none (t_kip848.sh's
 * log: "group epoch 3" where the bump made 4).  The episode keeps 2 as its
 * first epoch and ends at the bump's; a bump read first opens the episode
 * itself and names its epoch.
 */
static void
test_polled_start_names_epoch_before(void **state)
{
	sc *s = sc_new(6, NULL);
	const kg_event *e;
	kg_episode *v = NULL;
	int n;
	(void)state;
	prop_k1_formed(s);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2 3 4 5>0 1 2;k2/BBB=>3 4 5");
	sc_tick(s, 2000); /* the join's lines not read yet */
	e = sc_find(s, KG_EV_REBALANCE_START, NULL, 1);
	assert_non_null(e);
	if (e->generation != -1)
		sc_dump(s);
	assert_int_equal(e->generation, -1);
	assert_false(sc_text_has(e, "group epoch", false));
	prop_log_join(s, 1200, "BBB", 3);
	prop_log_target(s, 1250, 3);
	sc_group_set(s, "g", KG_STATE_STABLE, "uniform", "k1/AAA=0 1 2>0 1 2;k2/BBB=3 4 5>3 4 5");
	sc_tick(s, 3000);
	n = episodes(s, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[1].start_us, sc_us(s, 1200)); /* the bump, once read, timed it */
	assert_int_equal(v[1].gen_start, 2);
	assert_int_equal(v[1].gen_end, 3);
	episodes_free(v, n);
	assert_says(sc_find(s, KG_EV_REBALANCE_END, NULL, 1), "group epoch 3");
	/* k1's start was opened by its bump: it names the bump's epoch */
	assert_says(sc_find(s, KG_EV_REBALANCE_START, NULL, 0), "group epoch 2)");
	sc_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_exact), cmocka_unit_test(test_records_late_end),
		cmocka_unit_test(test_late_bump_after_start),
		cmocka_unit_test(test_records_kafka_order), cmocka_unit_test(test_records_description_between),
		cmocka_unit_test(test_records_after_description),
		cmocka_unit_test(test_polled_targets), cmocka_unit_test(test_polled_end_bound),
		cmocka_unit_test(test_no_phantoms),        cmocka_unit_test(test_log_only_lower_bound),
		cmocka_unit_test(test_members_unknown),    cmocka_unit_test(test_whole_assignment_moves),
		cmocka_unit_test(test_callbacks_no_rounds), cmocka_unit_test(test_records_bump_after_sync),
		cmocka_unit_test(test_records_alone_measured), cmocka_unit_test(test_records_loaded_then_live),
		cmocka_unit_test(test_log_joiner_named_by_client),
		cmocka_unit_test(test_log_description_before_commit),
		cmocka_unit_test(test_log_joins_random),
		cmocka_unit_test(test_log_target_computed_later),
		cmocka_unit_test(test_log_first_line_a_join),
		cmocka_unit_test(test_polled_assigning_not_end),
		cmocka_unit_test(test_log_join_after_first_description),
		cmocka_unit_test(test_unsettled_named),
		cmocka_unit_test(test_log_target_bounds_end),
		cmocka_unit_test(test_polled_whole_in_one),
		cmocka_unit_test(test_polled_start_names_epoch_before),
		cmocka_unit_test(test_log_target_late_bounds_end),
	};
	return cmocka_run_group_tests_name("kip", tests, NULL, NULL);
}

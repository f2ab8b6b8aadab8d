/*
 * scenario.h: a tiny language for feeding the tracker in tests.
 *
 * A test declares the groups as a broker would describe them at some
 * moment ("consumer-a=0 4;consumer-b=1 2"), queues observations the way
 * a consumer would report them, and ticks: one snapshot and one tracker
 * apply.  Every derived event is kept for assertions.
 */
#ifndef KGTOP_TESTS_SCENARIO_H
#define KGTOP_TESTS_SCENARIO_H

#include "model/event.h"
#include "model/obs.h"
#include "model/snapshot.h"
#include "model/tracker.h"

#define SC_TOPIC "demo-groups"

typedef struct sc_group {
	char *id;
	kg_group_state state;
	char *assignor;
	char *members; /* "client=p p p;client=p" (member id = client + "-m"), or "client/member-id/instance-id=p" */
	bool exact;
	bool kip;          /* a KIP-848 consumer group: members "client=current>target" */
	int64_t committed; /* per partition, -1 none */
	int64_t log_end;
	int64_t data_ms;   /* when its description was asked, -1: at the tick (sc_group_data_time) */
} sc_group;

typedef struct sc {
	kg_tracker *t;
	kg_evlist ev;     /* every event derived so far */
	kg_obsq q;        /* observations for the next tick */
	sc_group g[16];
	int ng;
	int partitions;
	int64_t t0_us;
	kg_snapshot *last;
} sc;

/* A scenario with a topic of n partitions and a tracker with cfg (NULL: the options' defaults). */
sc *sc_new(int partitions, const kg_tracker_config *cfg);
/* Free it. */
void sc_free(sc *s);
/* Declare or update a group's description. */
void sc_group_set(sc *s, const char *id, kg_group_state st, const char *assignor, const char *members);
/* Mark a group a KIP-848 consumer group, described with its members' targets ("c=0 1>0 1 2"). */
void sc_group_kip(sc *s, const char *id, bool kip);
/* Mark a group as reported by callbacks (demo-like). */
void sc_group_exact(sc *s, const char *id, bool exact);
/* Set committed and log-end offsets of every partition of a group. */
void sc_group_offsets(sc *s, const char *id, int64_t committed, int64_t log_end);
/* Remove a group. */
void sc_group_drop(sc *s, const char *id);
/* The group's description in the next ticks was asked at ms (a group asked in turn); -1: at each tick. */
void sc_group_data_time(sc *s, const char *id, int64_t ms);
/* Queue a callback-like observation: kind revoked/assigned/lost/join_sent at ms. */
void sc_obs(sc *s, kg_obs_kind kind, int64_t ms, const char *group, const char *client, kg_proto proto,
	    const char *parts);
/* Queue an observation with its own member and instance ids (returned, to set more fields). */
kg_obs *sc_obs_id(sc *s, kg_obs_kind kind, int64_t ms, const char *group, const char *client, const char *member_id,
		  const char *instance_id, kg_proto proto, const char *parts);
/* Queue any observation (taken over). */
void sc_obs_push(sc *s, kg_obs *o);
/* Build the snapshot at ms, apply, keep events; returns the snapshot (owned by s). */
kg_snapshot *sc_tick(sc *s, int64_t ms);
/* The same, another source (a trace's view of its groups) adding to the snapshot after the scenario's groups. */
kg_snapshot *sc_tick_with(sc *s, int64_t ms, void (*more)(void *arg, kg_builder *b), void *arg);
/* Parse "0 4" into partitions of the test topic; returns the count. */
int sc_parts(const char *list, kg_tp *out, int max);
/* Events of a kind (and member client id, NULL any) derived so far. */
int sc_count(sc *s, kg_event_kind kind, const char *client);
/* The n-th (0-based) event of a kind and client, NULL when none. */
const kg_event *sc_find(sc *s, kg_event_kind kind, const char *client, int n);
/* Revokes of a class for a group (client NULL: any). */
int sc_count_revokes(sc *s, const char *group, const char *client, kg_revoke_class cls);
/* Print every event (for debugging a failing test). */
void sc_dump(sc *s);
/* True when event e (not NULL) says want in its text; loud: print both when it does not. */
bool sc_text_has(const kg_event *e, const char *want, bool loud);
/* Milliseconds to the scenario's microseconds. */
int64_t sc_us(sc *s, int64_t ms);

#endif

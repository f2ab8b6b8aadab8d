/*
 * event.h: what the tracker derives, in the seeds' words.
 *
 * Events are immutable once made and shared by reference count between
 * history, the published frame and the recorder.  event_format() renders
 * one the way the seeds' benches logged them:
 *   [12.121s] consumer-a revoked [4] of [0 4] (incremental)
 *   [3.213s] consumer-b revoked [2 3] (all: stop-the-world)
 */
#ifndef KGTOP_MODEL_EVENT_H
#define KGTOP_MODEL_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "model/tp.h"
#include "util/util.h"

/*
 * A time or an amount known within bounds: measured when min == max
 * (callbacks, a coordinator's log), bounded by two refreshes when polled.
 * max < 0: no upper bound known.
 */
typedef struct kg_span {
	int64_t min;
	int64_t max;
} kg_span;

typedef enum kg_event_kind {
	KG_EV_GROUP_APPEARED,
	KG_EV_GROUP_GONE,
	KG_EV_STATE,            /* state changed: from -> to */
	KG_EV_MEMBER_JOINED,
	KG_EV_MEMBER_LEFT,      /* reason says why */
	KG_EV_MEMBER_AWAY,      /* static member gone, within session.timeout.ms */
	KG_EV_MEMBER_BACK,      /* static member back without a rebalance */
	KG_EV_REBALANCE_START,  /* text: trigger */
	KG_EV_ROUND,            /* round N of the open rebalance began */
	KG_EV_REBALANCE_END,    /* duration, rounds, generation, lag cost */
	KG_EV_REVOKED,          /* parts of before; cls says full or incremental */
	KG_EV_ASSIGNED,
	KG_EV_LOST,             /* partitions taken without a revoke (kicked out; librdkafka's lost assignment): "taken" */
	KG_EV_ORPHANED,         /* parts have no owner in a stable group */
	KG_EV_STORM_BEGIN,
	KG_EV_STORM_END,
	KG_EV_SOURCE,           /* a source's health changed: text */
	KG_EV_RETIMED,          /* a coordinator log gave an episode already told its real timing */
	KG_EV_MEMBER_SILENT,    /* a member stopped consuming (crash, stall, no heartbeat) before the coordinator decided */
	KG_EV_REPROCESSED,      /* a member processed records twice: resumed from a committed offset behind them */
	KG_EV_VERDICT,          /* partitions' progress verdict changed: from -> verdict, text says what shows it */
	KG_EV_COUNT
} kg_event_kind;

/* How the tracker knows. */
typedef enum kg_evidence {
	KG_EVID_EXACT,    /* a callback or a coordinator log line said so */
	KG_EVID_POLLED,   /* seen by comparing two refreshes */
	KG_EVID_PROTOCOL, /* implied by the eager protocol (every member revokes all) */
	KG_EVID_COUNT
} kg_evidence;

typedef struct kg_event {
	_Atomic int refs;     /* event_ref / event_unref */
	uint64_t seq;         /* increasing per tracker */
	int64_t time_us;
	int64_t after_us;     /* polled after a gap in the group's data: it happened after this; 0 otherwise */
	kg_event_kind kind;
	int32_t group;        /* interned, -1 for cluster-wide (source) events */
	char *member_id;
	char *client_id;
	char *instance_id;
	int lane;             /* -1 when not about a member */
	kg_tp *parts;         /* revoked / assigned / orphaned */
	int nparts;
	kg_tp *before;        /* the assignment just before a revoke */
	int nbefore;
	kg_revoke_class cls;
	kg_evidence evidence;
	kg_proto proto;
	int64_t episode;      /* id of the episode it belongs to, 0 none */
	int round;            /* 0 none */
	int32_t generation;   /* -1 unknown */
	int64_t duration_us;  /* episodes: length (best estimate); -1 none */
	kg_span duration;     /* episodes: the length within bounds (min == max: measured) */
	bool rounds_min;      /* episodes: round is a lower bound (polling may have missed a generation) */
	int nstopped;         /* episode ends: members stopped, and their member-microseconds */
	kg_span stopped_us;
	int nunconsumed;      /* episode ends: partitions unconsumed, and their partition-microseconds */
	kg_span unconsumed_us;
	int64_t lag_cost;     /* episodes: lag at end minus lag at start; 0 none */
	kg_span backlog;      /* episode ends: records produced to partitions while they had no consuming owner (max -1: no upper bound) */
	int64_t records;      /* reprocessed: records processed twice; verdict: the lag of its partitions (LOST: records lost) */
	uint8_t verdict;      /* verdict: the new one (kg_verdict) */
	uint8_t verdict_from; /* and the one before */
	int64_t since_us;     /* verdict: since when it holds (frozen since, rewound at), at the latest, 0 none */
	int64_t since_lo_us;  /* verdict: and at the earliest, 0 not known */
	uint8_t since_kind;   /* verdict: what bounds it (kg_since_kind) */
	kg_reason reason;
	char *text;           /* trigger, reason text, source message */
	kg_group_state from;
	kg_group_state to;
	bool single_topic;    /* format partitions without topic names */
} kg_event;

/* Allocate an event with one reference. */
kg_event *event_new(kg_event_kind kind, int64_t time_us, int32_t group);
/* Take a reference. */
kg_event *event_ref(kg_event *e);
/* Drop a reference. */
void event_unref(kg_event *e);
/* Set member identity (copies). */
void event_member(kg_event *e, const char *member_id, const char *client_id, const char *instance_id, int lane);
/* Set the text (copies). */
void event_text(kg_event *e, const char *text);
/* Machine name: "revoked", "rebalance_start", ... */
const char *event_kind_key(kg_event_kind k);
/* Parse event_kind_key(); -1 when unknown. */
int event_kind_parse(const char *s);
/* "exact", "polled", "protocol" */
const char *evidence_name(kg_evidence ev);
/* The message without time, e.g. "consumer-a revoked [4] of [0 4] (incremental)". */
void event_format(const kg_event *e, sbuf *out);
/*
 * A span of time: "2.5s" when measured (min == max), "≤1.0s" from 0,
 * "0.4-1.2s" within bounds, "≥3.0s" with no upper bound ("<=", ">="
 * with ascii); "-" when not known (min < 0).
 */
void event_fmt_span(char *buf, size_t n, kg_span d, bool ascii);
/*
 * An amount of n units (members, partitions) times microseconds, in that
 * unit however many there are ("3.0 partition-s" for one too, so two
 * groups' figures read alike); within bounds ("<=2.0", "1.5-2.0", ">=1.0")
 * when not measured.
 */
void event_fmt_amount(sbuf *out, kg_span v, int n, const char *unit, bool ascii);
/*
 * What an episode cost, in words: "3 members stopped 7.8 member-s, 6
 * partitions unconsumed 15.6 partition-s"; "no member stopped" when none.
 */
void event_fmt_cost(sbuf *out, int nstopped, kg_span stopped_us, int nunconsumed, kg_span unconsumed_us, bool ascii);
/* Records within bounds: "120 records", "<=390 records", "120-390 records", ">=120 records" (max -1: no upper bound). */
void event_fmt_records(sbuf *out, kg_span v, bool ascii);
/* "[12.121s] " relative to t0_us, then event_format(). */
void event_format_line(const kg_event *e, int64_t t0_us, sbuf *out);

/* A growable list of event references. */
typedef struct kg_evlist {
	kg_event **v;
	size_t n;
	size_t cap;
} kg_evlist;

/* Append (takes the caller's reference). */
void evlist_push(kg_evlist *l, kg_event *e);
/* Drop every reference and empty the list. */
void evlist_clear(kg_evlist *l);
/* Move all of src to the end of dst. */
void evlist_move(kg_evlist *dst, kg_evlist *src);

#endif

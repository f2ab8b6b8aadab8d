/*
 * snapshot.h: the immutable picture of a cluster at one moment.
 *
 * A snapshot is built by one kg_builder to which every source contributes
 * (the kafka admin source, the demo, replay), finished (lag, owners,
 * orphans and idle members computed), annotated by the tracker (lanes,
 * member status and health, group summaries) and then published.  From
 * then on it is immutable and shared by reference count: the renderer and
 * reporters read it without locks.  All of its memory lives in one arena
 * freed with the last reference.
 */
#ifndef KGTOP_MODEL_SNAPSHOT_H
#define KGTOP_MODEL_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/tp.h"
#include "util/filter.h"

typedef enum kg_group_state {
	KG_STATE_UNKNOWN,
	KG_STATE_PREPARING_REBALANCE,
	KG_STATE_COMPLETING_REBALANCE,
	KG_STATE_STABLE,
	KG_STATE_DEAD,
	KG_STATE_EMPTY,
	KG_STATE_ASSIGNING,   /* KIP-848 */
	KG_STATE_RECONCILING, /* KIP-848 */
	KG_STATE_COUNT
} kg_group_state;

typedef enum kg_proto {
	KG_PROTO_UNKNOWN,
	KG_PROTO_EAGER,
	KG_PROTO_COOPERATIVE,
	KG_PROTO_CONSUMER,    /* KIP-848's consumer rebalance protocol: the coordinator assigns, members reconcile, no barrier */
	KG_PROTO_COUNT
} kg_proto;

/*
 * What kind of group the coordinator runs it as (ListGroups v5's
 * GroupType): classic (JoinGroup/SyncGroup), consumer (KIP-848), share
 * (KIP-932), streams (KIP-1071).  UNKNOWN: not said (a broker before
 * ListGroups v5, an old librdkafka), or a name kgtop does not know, which
 * kg_group.type_name then keeps as it was named.
 */
typedef enum kg_group_type {
	KG_GTYPE_UNKNOWN,
	KG_GTYPE_CLASSIC,
	KG_GTYPE_CONSUMER,
	KG_GTYPE_SHARE,
	KG_GTYPE_STREAMS,
	KG_GTYPE_COUNT
} kg_group_type;

/* Where a KIP-848 fact (an epoch, a member's state) came from. */
typedef enum kg_fact_src {
	KG_FACT_NONE,      /* not known */
	KG_FACT_DESCRIBED, /* the cluster's description of the group (ConsumerGroupDescribe) */
	KG_FACT_LOG,       /* a coordinator's log line */
	KG_FACT_OFFSETS,   /* a record of __consumer_offsets */
	KG_FACT_CLIENT,    /* the member itself (the demo's consumers, a client trace) */
	KG_FACT_COUNT
} kg_fact_src;

/* An epoch and how it is known. */
typedef struct kg_epoch {
	int32_t value;   /* -1 unknown */
	uint8_t src;     /* kg_fact_src; NONE with value -1 */
	int64_t time_us; /* when its source saw it (the log line's, the record's time), 0 unknown */
} kg_epoch;

/*
 * A KIP-848 member's reconciliation state, as the coordinator keeps it
 * (ConsumerGroupCurrentMemberAssignmentValue.State: 0, 1, 2; 127 and
 * anything else: UNKNOWN).
 */
typedef enum kg_mstate {
	KG_MSTATE_UNKNOWN,
	KG_MSTATE_STABLE,     /* at its target: holds what the target assignment epoch gives it */
	KG_MSTATE_UNREVOKED,  /* must revoke partitions (pending revocation) before it moves on */
	KG_MSTATE_UNRELEASED, /* waits for partitions other members have not released yet */
	KG_MSTATE_COUNT
} kg_mstate;

/* A member of a consumer group: which protocol it speaks (KIP-848 upgrades keep classic members in it). */
typedef enum kg_mtype {
	KG_MTYPE_UNKNOWN,
	KG_MTYPE_CONSUMER, /* ConsumerGroupHeartbeat */
	KG_MTYPE_CLASSIC,  /* JoinGroup/SyncGroup, inside a consumer group (an upgrade under way) */
	KG_MTYPE_COUNT
} kg_mtype;

typedef enum kg_src_status {
	KG_SRC_CONNECTING, /* no answer yet */
	KG_SRC_OK,
	KG_SRC_STALE,      /* data older than expected; message says why */
	KG_SRC_ERROR,      /* no data; message says why */
	KG_SRC_COUNT
} kg_src_status;

/*
 * What a source is to kgtop, whatever its name: the dashboard finds a
 * source and addresses its commands by role, never by name.
 */
typedef enum kg_src_role {
	KG_ROLE_NONE,     /* not said */
	KG_ROLE_CLUSTER,  /* the cluster's own answers (the admin API): groups, offsets, lag */
	KG_ROLE_DEMO,     /* the embedded demo: its script and consumers; takes demo commands */
	KG_ROLE_TRACE,    /* a trace stream: broker logs, JMX, client events */
	KG_ROLE_REPLAY,   /* a recording played back: the time master; takes replay commands */
	KG_ROLE_RECORDER, /* an output of kgtop: the recorder, the server (--serve); never recorded */
	KG_ROLE_ATTACH,   /* another kgtop's stream (--attach): the time master, like a replay */
	KG_ROLE_COUNT
} kg_src_role;

/* Where a health limit (session.timeout.ms, max.poll.interval.ms) came from. */
typedef enum kg_limit_src {
	KG_LIMIT_DEFAULT, /* Kafka's default */
	KG_LIMIT_CONFIG,  /* kgtop's config file or command line */
	KG_LIMIT_TRACE,   /* a trace stream or the demo's own consumers */
	KG_LIMIT_COUNT
} kg_limit_src;

/* What a member is doing at the snapshot's time (set by the tracker). */
typedef enum kg_member_status {
	KG_MEMBER_CONSUMING, /* owns partitions, nothing of it is moving */
	KG_MEMBER_PARTIAL,   /* gave up part of its assignment in an open rebalance */
	KG_MEMBER_STOPPED,   /* owns nothing during an open rebalance */
	KG_MEMBER_IDLE,      /* owns nothing while the group is stable */
	KG_MEMBER_AWAY,      /* static member gone, still within session.timeout.ms */
	KG_MEMBER_SILENT,    /* stopped consuming (crashed, stalled, no heartbeat): the coordinator has not decided yet */
	KG_MEMBER_STATUS_COUNT
} kg_member_status;

typedef enum kg_reason {
	KG_REASON_NONE,
	KG_REASON_JOINED,          /* a new member joined */
	KG_REASON_GRACEFUL,        /* LeaveGroup from the client */
	KG_REASON_SESSION_TIMEOUT, /* no heartbeat within session.timeout.ms */
	KG_REASON_MAX_POLL,        /* no poll within max.poll.interval.ms */
	KG_REASON_REPLACED,        /* static member replaced by a new instance */
	KG_REASON_FENCED,          /* KIP-848 member fenced */
	KG_REASON_LEADER_REJOIN,
	KG_REASON_METADATA,        /* partitions or subscription changed */
	KG_REASON_UNKNOWN,
	KG_REASON_LEFT,            /* gone from a description sooner after its last commit than any timeout fires: a leave (polled) */
	KG_REASON_TIMEOUT,         /* removed after a silence polling saw: session.timeout.ms or max.poll.interval.ms, not known which */
	KG_REASON_COUNT
} kg_reason;

/*
 * Is a partition making progress: a group's verdict on it over
 * --lag-window (progress.h states the rules).  In the order of severity:
 * worst-first sorting and roll-ups (a member's, a group's: the worst of
 * its partitions') follow it.
 */
typedef enum kg_verdict {
	KG_VERDICT_NONE,    /* nothing to judge: no committed offset or log-end */
	KG_VERDICT_OK,      /* caught up at some time, or commits keep up */
	KG_VERDICT_PENDING, /* not judged yet: lag, and no evidence yet whether commits move (never OK) */
	KG_VERDICT_SLOW,    /* commits move, but the lag grew at every commit seen over the window */
	KG_VERDICT_REWIND,  /* the committed offset went back within the window */
	KG_VERDICT_STALLED, /* committed offset frozen while lag > 0 */
	KG_VERDICT_STOPPED, /* no commit for longer than the window while lag > 0 */
	KG_VERDICT_LOST,    /* committed offset below the log start: records deleted before they were consumed */
	KG_VERDICT_COUNT
} kg_verdict;

/*
 * What bounds the time a verdict holds since (its "since", a time within
 * [lo, hi]: hi the latest it can have begun, lo the earliest, 0 unknown),
 * named by the evidence that gives the earliest.
 */
typedef enum kg_since_kind {
	KG_SINCE_NONE,    /* no since */
	KG_SINCE_COMMIT,  /* a source told the commit's time (__consumer_offsets) */
	KG_SINCE_RECORD,  /* the record waiting at the committed offset was written at lo (the exact time lag) */
	KG_SINCE_WATCHED, /* kgtop's own refreshes: between two of them */
	KG_SINCE_BEFORE,  /* before kgtop first saw it: at or before hi, how long before is not known */
	KG_SINCE_KIND_COUNT
} kg_since_kind;

/* How a partition's time lag (how old the next record to consume is) is known. */
typedef enum kg_tlag_kind {
	KG_TLAG_NONE,     /* not known: the reason says why */
	KG_TLAG_EXACT,    /* from the record's own timestamp */
	KG_TLAG_ESTIMATE, /* interpolated in kgtop's samples of the log-end ("~") */
	KG_TLAG_ATLEAST,  /* older than the oldest sample: at least this ("> AGE") */
	KG_TLAG_KIND_COUNT
} kg_tlag_kind;

/* Why a time lag is not known, or what qualifies one. */
typedef enum kg_tlag_why {
	KG_TLAG_WHY_NONE,
	KG_TLAG_NO_OFFSETS,   /* committed offset or log-end unknown */
	KG_TLAG_NO_SAMPLES,   /* not one earlier sample of the log-end yet */
	KG_TLAG_NO_RECORDS,   /* no record at or after the committed offset (an empty partition) */
	KG_TLAG_GAP,          /* compacted: the record at the committed offset is gone, the next is later */
	KG_TLAG_NO_TIMESTAMP, /* the record has no timestamp */
	KG_TLAG_NO_ANSWER,    /* the broker did not answer the read */
	KG_TLAG_SKEW,         /* the record's time is ahead of kgtop's clock: clamped at zero */
	KG_TLAG_DELETED,      /* below the log start: the record is gone */
	KG_TLAG_WHY_COUNT
} kg_tlag_why;

/*
 * The record at a committed offset, as the cluster source read it for the
 * exact time lag (offset -1: none read).
 */
typedef struct kg_stamp {
	int64_t offset;  /* the offset asked */
	int64_t record;  /* the offset of the record answered (more when compacted away), -1 none */
	int64_t ts_ms;   /* its timestamp (ms since the epoch), -1 none */
	uint8_t why;     /* kg_tlag_why: NONE read, NO_TIMESTAMP, NO_ANSWER, NO_RECORDS */
} kg_stamp;

#define KG_SPARK 16 /* a partition's lag over --lag-window, in this many steps */
#define KG_PART_STAMPS 4 /* records read kept per partition: one per committed offset groups are at */

/* The health of one source, as the header shows it. */
typedef struct kg_source_health {
	const char *name;    /* "kafka", "demo", "log:broker-1", ... */
	kg_src_status status;
	int64_t since_us;    /* stale/error since, or ok since */
	int64_t last_ok_us;  /* last good data, 0 when never */
	const char *message; /* why (stale/error), or a detail; NULL when none */
	int64_t cadence_us;  /* time between its last two refreshes, 0 unknown (the cluster's: what the header says) */
	int64_t refresh_us;  /* how long its last refresh took, 0 unknown (the cluster's; /metrics) */
	bool insecure;       /* TLS verification disabled for this source */
	kg_src_role role;    /* what it is (the collector fills in its source's when NONE) */
} kg_source_health;

/* Member liveness against its limits; -1 where unknown. */
typedef struct kg_member_health {
	int64_t hb_age_us;        /* time since the last heartbeat answer */
	int64_t session_timeout_us;
	kg_limit_src session_src;
	int64_t poll_gap_us;      /* time since the last poll (or the last gap) */
	int64_t poll_gap_max_us;  /* largest gap seen recently */
	int64_t max_poll_us;      /* max.poll.interval.ms */
	kg_limit_src max_poll_src;
	int64_t hb_interval_us;   /* heartbeat interval as observed (traced heartbeats, heartbeat-rate), -1 unknown */
	double hb_rate;           /* heartbeats per second, < 0 unknown */
	int64_t rebalance_latency_avg_us;
	int64_t rebalance_latency_max_us;
	int64_t failed_rebalances;
	const char *health_source; /* which source reported it; NULL: none */
} kg_member_health;

#define KG_MEMBER_EXACT 0x1u  /* a source reports this member's callbacks */
#define KG_MEMBER_STATIC 0x2u /* has a group.instance.id */

typedef struct kg_member {
	const char *member_id;
	const char *client_id;
	const char *host;
	const char *instance_id; /* NULL when dynamic */
	kg_tp *assignment;       /* sorted */
	int nassigned;
	uint32_t flags;
	/* set by the tracker */
	int lane;                /* stable row of this member in the group's history */
	kg_member_status status;
	int64_t first_seen_us;
	kg_member_health health;
	kg_reason last_leave;    /* why this lane's previous member left, if it did */
	int64_t silent_since_us; /* not consuming since (status SILENT), 0 when it is */
	const char *silent_why;  /* what said so: "crashed", "stopped polling", "no heartbeat for 3.1s" */
	uint8_t verdict;         /* kg_verdict: the worst of the partitions it consumes (the tracker) */
	/*
	 * KIP-848: a consumer group's member.  Its target assignment (the
	 * description's, or the newest record's), and what separates it from
	 * its assignment (builder_finish(); the tracker when an observation is
	 * newer): partitions it must still revoke, partitions it awaits.  Its
	 * epoch, state and type come from observations (the tracker): no
	 * librdkafka up to 2.14.2 says them.
	 */
	kg_tp *target;           /* sorted; NULL when ntarget <= 0 */
	int ntarget;             /* -1: not known */
	kg_tp *revoking;         /* held, not in the target (or the record's pending revocation) */
	int nrevoking;
	kg_tp *awaiting;         /* in the target, not held yet */
	int nawaiting;
	kg_epoch epoch;          /* member epoch */
	int32_t prev_epoch;      /* -1 unknown */
	uint8_t mstate;          /* kg_mstate */
	uint8_t mstate_src;      /* kg_fact_src */
	uint8_t mtype;           /* kg_mtype */
} kg_member;

/* One partition of a topic the group uses. */
typedef struct kg_gpart {
	/* (fields ordered by size, so no padding: 160 bytes, the largest of a snapshot's rows; a group partition) */
	kg_tp tp;
	int64_t committed; /* -1: no committed offset */
	int64_t log_end;   /* -1: unknown */
	int64_t lag;       /* -1: unknown */
	int64_t log_start; /* -1: unknown */
	/* progress (the tracker, progress.h) */
	int64_t time_lag_us;  /* how old the next record to consume is, -1 unknown */
	int64_t time_lag_from_us; /* the wall time it counts from (time_lag_us = the snapshot's time - this), 0: it does not grow with the clock */
	int64_t verdict_since_us; /* since when (frozen since, rewound at, slow since) at the latest, 0 unknown */
	int64_t verdict_since_lo_us; /* and at the earliest, 0 unknown (since_kind says what bounds it) */
	int64_t frozen_us;  /* its committed offset has not moved with lag since (at the latest), 0 it moves or has no lag */
	int64_t commit_gap_us; /* its usual time between commits that moved it, 0 unknown */
	int64_t moved_us;  /* when kgtop saw the committed offset move last, 0 never */
	int64_t moved_lo_us; /* at the earliest (the observation before), 0 unknown */
	int64_t lost;      /* records deleted before they were consumed (log start - committed), 0 none */
	int owner;         /* index into members, -1 none */
	int target_owner;  /* KIP-848: index into members of the one whose target has it, -1 none or unknown */
	int moved_from;    /* lane it was revoked from in that rebalance, -1 none (tracker) */
	float consume_rate; /* records per second over the window, < 0 unknown */
	float produce_rate;
	bool orphaned;     /* no owner while the group should consume it */
	bool in_flight;    /* no owner between the rounds of an open rebalance (tracker) */
	bool moved;        /* changed owner in the last rebalance (tracker) */
	uint8_t verdict;   /* kg_verdict */
	uint8_t tlag_kind; /* kg_tlag_kind */
	uint8_t tlag_why;  /* kg_tlag_why */
	uint8_t since_kind; /* kg_since_kind */
	uint8_t spark[KG_SPARK]; /* lag levels over the window, oldest first (0 no data, 1 no lag, 2.. log2 of the lag) */
} kg_gpart;

/* Per-group facts derived across snapshots (filled by the tracker). */
typedef struct kg_group_summary {
	int rebalances_1h;        /* episodes started within the last hour */
	bool storm;
	bool in_episode;          /* a rebalance is open */
	int64_t episode_start_us; /* of the open or the last episode, 0 none */
	int64_t last_episode_us;  /* duration of the last closed episode, -1 none */
	int64_t last_episode_min_us; /* and its bounds (== when measured; max -1: no upper bound) */
	int64_t last_episode_max_us;
	int rounds;               /* rounds of the open (or last) episode */
	bool rounds_min;          /* rounds is a lower bound (polled: a generation may have gone unseen) */
	int last_rounds;          /* of the last closed episode, and what it cost (bounds as its duration's) */
	bool last_rounds_min;
	int last_nstopped;
	int64_t last_stopped_min_us, last_stopped_max_us;
	int last_nunconsumed;
	int64_t last_unconsumed_min_us, last_unconsumed_max_us;
	int64_t last_lag_added;   /* lag at its end minus lag at its start, 0 none or unknown */
	int64_t last_backlog_min, last_backlog_max; /* records produced while its partitions had no consuming owner (max -1: no upper bound) */
	int64_t last_resumed_min_us, last_resumed_max_us; /* moved partitions: longest wait for a commit of their new owner, min -1 not yet */
	int32_t generation;       /* last known generation (a consumer group's: its group epoch), -1 unknown */
	int64_t lag_delta_1m;     /* lag now minus lag a minute ago (10 s in the first minute), 0 unknown */
	double rebalancing_ratio; /* share of the storm window spent rebalancing */
	int64_t session_timeout_us;
	kg_limit_src session_src;
	int64_t max_poll_us;
	kg_limit_src max_poll_src;
} kg_group_summary;

typedef struct kg_group {
	int32_t id;               /* interned group id */
	const char *name;
	kg_group_state state;
	const char *state_name;   /* the state as its source named it when kgtop has no name for it (state UNKNOWN), else NULL */
	uint8_t type;             /* kg_group_type */
	const char *type_name;    /* the type as its source named it when kgtop has no name for it, else NULL */
	const char *protocol_type; /* "consumer", "" for simple groups */
	const char *assignor;     /* "" when unknown (non-Stable groups) */
	kg_proto proto;
	int32_t coordinator;      /* broker id, -1 unknown */
	bool simple;              /* simple consumer group (no membership) */
	bool exact;               /* a source reports callbacks for every member */
	bool traced;              /* known only from a coordinator log: the state is inferred */
	const char *error;        /* describe error, NULL when none */
	const char *note;         /* what the source cannot tell and why ("members need librdkafka >= 2.10 ..."), NULL none */
	bool members_unknown;     /* the source cannot say who the members are (the note says why): no member is news */
	int32_t pace_ms;          /* how often its source means to ask it, 0 every refresh: its age is news only past that
				     (milliseconds: it fits the padding here) */
	/* KIP-848 (type CONSUMER): the group's epochs (the tracker, from observations), members' reconciliation */
	kg_epoch group_epoch;
	kg_epoch assignment_epoch; /* of the target assignment */
	int nrevoking;            /* members' partitions pending revocation, in all */
	int nawaiting;            /* members' partitions awaited, in all */
	int64_t data_time_us;     /* when its data was asked (the oldest part), 0: as of the snapshot's time */
	int64_t offs_time_us;     /* when its committed offsets were asked where that is not data_time_us (a source
				     asked them alone, after its description), 0: data_time_us (kg_group_offs_time) */
	kg_member *members;       /* sorted by member id */
	int nmembers;
	kg_gpart *parts;          /* sorted by topic, partition */
	int nparts;
	struct kg_rows *rows;     /* the block parts lives in when a later snapshot may keep it (rows.h), NULL: the arena */
	bool kept;                /* parts are the last snapshot's, unchanged (rows.h): a reader ages a row's time lag
				     (kg_gpart_time_lag), a writer owns them first (group_rows_own) */
	int64_t lag;              /* sum of known lags, -1 when none known */
	int norphaned;
	int nidle;
	/* commit semantics, where a source counts them (the demo): -1 unknown */
	int64_t reprocessed;      /* records processed twice: handed to a new owner from a committed offset behind them */
	const char *commit_policy; /* "auto-commit every 5s", "commit after processing"; NULL unknown */
	kg_group_summary sum;
	/* progress (the tracker): the worst partition's verdict, the oldest time lag, how many of each */
	uint8_t verdict;          /* kg_verdict */
	uint8_t tlag_kind;        /* of time_lag_us */
	int64_t time_lag_us;      /* the largest known, -1 none */
	int64_t time_lag_from_us; /* its partition's time_lag_from_us */
	int64_t verdict_since_us; /* of the worst partition (at the latest) */
	int64_t verdict_since_lo_us; /* and at the earliest, 0 unknown */
	uint8_t since_kind;       /* kg_since_kind of that since */
	int64_t lost;             /* records lost in all */
	int nverdict[KG_VERDICT_COUNT];
} kg_group;

typedef struct kg_partition {
	int32_t leader;    /* broker id, -1 unknown */
	int64_t log_end;   /* -1 unknown */
	int64_t log_start; /* -1 unknown */
	kg_stamp stamp;    /* the record read at a committed offset (offset -1: none) */
	kg_stamp *more;    /* the records read at other committed offsets (groups at other offsets), nmore of them */
	int nmore;
} kg_partition;

typedef struct kg_topic {
	int32_t id;      /* interned */
	const char *name;
	kg_partition *partitions;
	int npartitions;
} kg_topic;

typedef struct kg_broker {
	int32_t id;
	const char *host;
	int port;
} kg_broker;

typedef struct kg_snapshot {
	_Atomic int refs;        /* snapshot_ref / snapshot_unref */
	uint64_t seq;
	int64_t time_us;         /* wall clock of the observation */
	uint64_t refresh;        /* the cluster source's refreshes ended so far (failed ones too), 0 none counted */
	int64_t data_time_us;    /* when the cluster source's newest data was asked, 0 unknown */
	int64_t interval_us;     /* the cluster source's refresh interval, 0 unknown */
	const char *cluster;     /* bootstrap label shown in the header */
	kg_source_health *sources;
	int nsources;
	kg_broker *brokers;
	int nbrokers;
	kg_topic *topics;        /* sorted by name */
	int ntopics;
	kg_group *groups;        /* sorted by name */
	int ngroups;
	int32_t offsets_partitions; /* partitions of __consumer_offsets from metadata, -1 unknown */
	struct kg_arena *arena;
} kg_snapshot;

/* Take a reference. */
kg_snapshot *snapshot_ref(kg_snapshot *s);
/* Drop a reference; frees on the last one.  NULL is ignored. */
void snapshot_unref(kg_snapshot *s);
/* Find a group by interned id (binary search by name); NULL when absent. */
const kg_group *snapshot_group(const kg_snapshot *s, int32_t id);
/* Find a group by name. */
const kg_group *snapshot_group_by_name(const kg_snapshot *s, const char *name);
/* Find a member of g by member id; -1 when absent. */
int group_member_index(const kg_group *g, const char *member_id);
/* Find a partition of g; -1 when absent. */
int group_part_index(const kg_group *g, kg_tp tp);
/* True when every partition the group uses is of one topic. */
bool group_single_topic(const kg_group *g);
/*
 * True when a group is in trouble: a consumer's progress STALLED, STOPPED
 * or LOST (a group with members: an Empty group's offsets stand still by
 * nature), or a storm.
 */
bool group_in_trouble(const kg_group *g);
/*
 * The __consumer_offsets partition that holds a group and whose leader is
 * its coordinator: Kafka's abs(group.id.hashCode()) % partitions, with
 * Java's String.hashCode over UTF-16 and Kafka's Utils.abs (MIN_VALUE is
 * 0); -1 when partitions is not known (<= 0).
 */
int32_t group_offsets_partition(const char *group_id, int32_t partitions);
/*
 * "  coordinator 2, __consumer_offsets-17" (partitions: of
 * __consumer_offsets, -1 unknown: "partition unknown"); "" when neither
 * the coordinator nor the partition is known.
 */
void group_coordinator_text(char *buf, size_t n, const kg_group *g, int32_t partitions);

/* "Stable", "PreparingRebalance", ... */
const char *state_name(kg_group_state st);
/* Short form for narrow columns: "Stable", "Prep", "Compl", "Empty", "Dead", ... */
const char *state_short(kg_group_state st);
/* Parse a state name (case-insensitive, with or without spaces); UNKNOWN when not known. */
kg_group_state state_parse(const char *s);
/* True for the states in which a rebalance is in progress. */
bool state_rebalancing(kg_group_state st);
/* "eager", "cooperative", "consumer", "unknown" */
const char *proto_name(kg_proto p);
/* Machine names of group types: "unknown", "classic", "consumer", "share", "streams". */
const char *gtype_key(kg_group_type t);
/* Parse a type name (any case: ListGroups' "consumer", librdkafka's "Consumer"); UNKNOWN when not known. */
kg_group_type gtype_parse(const char *s);
/* The type's name for a group: its source's own name when kgtop has none, "" when not said at all. */
const char *group_type_text(const kg_group *g);
/* The state's name for a group: its source's own name when kgtop has none. */
const char *group_state_text(const kg_group *g);
/* A KIP-848 group the coordinator has not settled: Assigning, Reconciling, or one of the two (bgroup_unsettled). */
bool group_unsettled(const kg_group *g);
/* Machine names of fact sources: "none", "describe", "log", "offsets", "client". */
const char *fact_src_key(kg_fact_src s);
/* Parse fact_src_key() back; NONE when not known. */
kg_fact_src fact_src_parse(const char *s);
/* Machine names of member states: "unknown", "stable", "unrevoked_partitions", "unreleased_partitions". */
const char *mstate_key(kg_mstate s);
/* Parse mstate_key() back; UNKNOWN when not known. */
kg_mstate mstate_parse(const char *s);
/* Member states in words: "stable", "revoking", "awaiting partitions", "unknown". */
const char *mstate_text(kg_mstate s);
/* The coordinator's code of a member state (records, traces): 0 stable, 1 unrevoked, 2 unreleased; else UNKNOWN. */
kg_mstate mstate_from_code(int code);
/* Machine names of member types: "unknown", "consumer", "classic". */
const char *mtype_key(kg_mtype t);
/* Parse mtype_key() back; UNKNOWN when not known. */
kg_mtype mtype_parse(const char *s);
/* The protocol implied by an assignor name ("range" -> eager, "cooperative-sticky" -> cooperative). */
kg_proto proto_from_assignor(const char *assignor, const char *protocol_type);
/* "ok", "stale", "error", "connecting" */
const char *src_status_name(kg_src_status st);
/* "none", "cluster", "demo", "trace", "replay", "recorder", "attach": how commands address a role */
const char *src_role_name(kg_src_role r);
/* "default", "config", "trace" */
const char *limit_src_name(kg_limit_src s);
/* "consuming", "partial", "stopped", "idle", "away" */
const char *member_status_name(kg_member_status st);
/* "OK", "PENDING", "SLOW", "REWIND", "STALLED", "STOPPED", "LOST"; "-" for NONE */
const char *verdict_name(kg_verdict v);
/* Machine names (label values): "none", "ok", "pending", "slow", "rewind", "stalled", "stopped", "lost". */
const char *verdict_key(kg_verdict v);
/* Machine names of since kinds: "none", "commit", "record", "watched", "before_start". */
const char *since_kind_key(kg_since_kind k);
/*
 * A since in words.  Short (a cell): "12:03:04" exact, "12:03:03-04"
 * within bounds ("12:02:59-03:04", "11:58-12:04"), "<12:03:04" with no
 * earliest (before it).  Long (a sentence):
 * "12:03:04 (commit time)", "between 11:58:10 (the waiting record's time)
 * and 12:03:04", "between 12:03:03 and 12:03:04 (two refreshes)", "before
 * 12:03:04 (kgtop's first look)".  "" when kind is NONE.
 */
void since_fmt(char *buf, size_t n, kg_since_kind kind, int64_t lo, int64_t hi, bool long_form);
/* Machine names of time lag kinds: "none", "exact", "estimate", "at_least". */
const char *tlag_kind_key(kg_tlag_kind k);
/* Machine names of reasons: "", "no_offsets", "no_samples", "no_records", "gap", "no_timestamp", "no_answer", "clock_skew", "deleted". */
const char *tlag_why_key(kg_tlag_why w);
/* Parse tlag_why_key() back; NONE when not known. */
kg_tlag_why tlag_why_parse(const char *s);
/* The reason in words: "no records", "compacted gap", "no timestamp", "broker did not answer", "clock skew (clamped at 0)", ... */
const char *tlag_why_text(kg_tlag_why w);
/* Short words for reasons: "graceful", "session timeout", "max.poll.interval", ... */
const char *reason_name(kg_reason r);
/* Machine names for reasons: "graceful", "session_timeout", "max_poll", ... */
const char *reason_key(kg_reason r);
/* Parse reason_key() back; KG_REASON_UNKNOWN when not known. */
kg_reason reason_parse(const char *s);

/*
 * The builder.  Sources call these while the collector assembles a
 * snapshot; later calls for the same object refine earlier ones (a field
 * left unknown does not erase a known one).
 */
typedef struct kg_builder kg_builder;
typedef struct kg_bgroup kg_bgroup;
typedef struct kg_bmember kg_bmember;

/* Start a snapshot observed at wall time now_us. */
kg_builder *builder_new(int64_t now_us);
/* Keep only the groups whose names pass f (-g / -G); the others are taken and dropped. */
void builder_filter(kg_builder *b, const kg_filter *f);
/*
 * Keep only the groups with a partition of a topic that passes f (-t); an
 * empty or NULL filter keeps every group.
 */
void builder_topic_filter(kg_builder *b, const kg_filter *f);
/* The builder's time. */
int64_t builder_time(const kg_builder *b);
/* Set the cluster label (bootstrap servers). */
void builder_cluster(kg_builder *b, const char *label);
/* Say which of the cluster source's refreshes this is, when its newest data was asked and how often it refreshes. */
void builder_refresh(kg_builder *b, uint64_t refresh, int64_t data_time_us, int64_t interval_us);
/* Add or replace the health of a source (without a role: the one builder_source_role() set). */
void builder_source(kg_builder *b, const kg_source_health *h);
/* The role of health added next without one: the contributing source's (the collector sets it). */
void builder_source_role(kg_builder *b, kg_src_role role);
/* The number of partitions of __consumer_offsets, from metadata (the coordinator's partition of a group). */
void builder_offsets_partitions(kg_builder *b, int32_t n);
/* Add a broker. */
void builder_broker(kg_builder *b, int32_t id, const char *host, int port);
/* Declare a topic with npartitions partitions (growing it if needed). */
void builder_topic(kg_builder *b, int32_t topic, int npartitions);
/* Set a partition's leader and log-end offset (-1 leaves a value unchanged). */
void builder_partition(kg_builder *b, kg_tp tp, int32_t leader, int64_t log_end);
/* Set a partition's log-start offset (-1 leaves it unchanged). */
void builder_partition_start(kg_builder *b, kg_tp tp, int64_t log_start);
/* Add the record read at one of a partition's committed offsets (exact time lag; one per offset, the last wins). */
void builder_partition_stamp(kg_builder *b, kg_tp tp, const kg_stamp *st);
/* The record read at offset of a partition, NULL none. */
const kg_stamp *partition_stamp(const kg_partition *p, int64_t offset);
/* True when two partitions have the same records read, in the same order. */
bool partition_stamps_same(const kg_partition *a, const kg_partition *b);
/* Find or create a group. */
kg_bgroup *builder_group(kg_builder *b, int32_t group);
/* True when some source already added this group. */
bool builder_has_group(const kg_builder *b, int32_t group);
/* Set the group's state (UNKNOWN leaves it unchanged). */
void bgroup_state(kg_bgroup *g, kg_group_state st);
/* The state as the source named it, when kgtop has no name for it (NULL leaves it unchanged). */
void bgroup_state_name(kg_bgroup *g, const char *name);
/*
 * A KIP-848 group neither Stable nor Empty whose source cannot tell
 * Assigning from Reconciling (librdkafka names both Unknown): state
 * UNKNOWN named KG_STATE_NAME_UNSETTLED, the name recordings carry.
 */
#define KG_STATE_NAME_UNSETTLED "Assigning/Reconciling"
void bgroup_unsettled(kg_bgroup *g);
/* The group's type (UNKNOWN leaves it unchanged) and, for a type kgtop has no name for, the source's name. */
void bgroup_type(kg_bgroup *g, kg_group_type t, const char *name);
/* What the source cannot tell of the group and why (NULL leaves it unchanged); members_unknown: nor who is in it. */
void bgroup_note(kg_bgroup *g, const char *note, bool members_unknown);
/* Set protocol type and assignor (NULL leaves a value unchanged). */
void bgroup_protocol(kg_bgroup *g, const char *protocol_type, const char *assignor);
/* Set the rebalance protocol explicitly (a client that knows it). */
void bgroup_proto(kg_bgroup *g, kg_proto p);
/* Set the coordinator broker id. */
void bgroup_coordinator(kg_bgroup *g, int32_t broker);
/* Mark the group simple (no membership protocol). */
void bgroup_simple(kg_bgroup *g, bool simple);
/* Mark that a source reports every member's callbacks exactly. */
void bgroup_exact(kg_bgroup *g, bool exact);
/* Records processed twice in the group and the commit policy that allowed it (a source that counts them). */
void bgroup_reprocessed(kg_bgroup *g, int64_t records, const char *policy);
/* Mark a group known only from a coordinator log (its state inferred from the log's lines). */
void bgroup_traced(kg_bgroup *g, bool traced);
/* When a source asked the group's data (the oldest contribution wins). */
void bgroup_data_time(kg_bgroup *g, int64_t t_us);
/* How often its source means to ask it (a screen's quiet group: KSCHED_QUIET_US), 0 every refresh; the longest given. */
void bgroup_pace(kg_bgroup *g, int64_t pace_us);
/* When the group's committed offsets were asked, where a source asked them apart from the rest (the newest given). */
void bgroup_offs_time(kg_bgroup *g, int64_t t_us);
/* Record a describe error for the group (NULL clears). */
void bgroup_error(kg_bgroup *g, const char *msg);
/* Set a committed offset (-1: none). */
void bgroup_committed(kg_bgroup *g, kg_tp tp, int64_t offset);
/* Declare that the group consumes a topic even with no offsets or owners. */
void bgroup_topic(kg_bgroup *g, int32_t topic);
/* Find or create a member by member id. */
kg_bmember *bgroup_member(kg_bgroup *g, const char *member_id);
/* Set identity fields (NULL leaves a value unchanged). */
void bmember_ids(kg_bmember *m, const char *client_id, const char *host, const char *instance_id);
/* Replace the member's assignment. */
void bmember_assignment(kg_bmember *m, const kg_tp *v, int n);
/* Set the member's KIP-848 target assignment (a described consumer group's member). */
void bmember_target(kg_bmember *m, const kg_tp *v, int n);
/* Set member flags (KG_MEMBER_EXACT, ...). */
void bmember_flags(kg_bmember *m, uint32_t flags);
/*
 * Finish: sort, compute per-partition owners, lag, orphaned partitions
 * and idle members.  The builder is consumed.  The snapshot has one
 * reference and stays writable for the tracker until it is published.
 */
kg_snapshot *builder_finish(kg_builder *b);
/*
 * The snapshot just finished is the last one built (--once): the memory
 * kept for the next build (the spare chunks of freed snapshots and
 * builders, as large as the last: 10 MB at 10,000 groups) goes back to
 * malloc for the derivation and the report, and so does what is freed
 * after.
 */
void builder_last(void);

/*
 * The next snapshot may keep the rows of prev's groups whose input did not
 * change (rows.h): prev must be the snapshot the tracker applied last.
 */
void builder_keep(kg_builder *b, kg_snapshot *prev);
/* Make g's rows its own (a copy of the kept ones) before writing one; nothing when they are. */
void group_rows_own(kg_group *g);

/* Copy a string into the snapshot's arena. */
const char *snapshot_strdup(kg_snapshot *s, const char *str);
/* Copy a partition set into the snapshot's arena (NULL when empty). */
kg_tp *snapshot_tp_dup(kg_snapshot *s, const kg_tp *v, int n);
/*
 * A consumer group's reconciliation, from its members' assignments and
 * targets: each member's partitions to revoke and awaited, the group's
 * counts, and with rows each partition's target owner.  builder_finish()
 * calls group_reconciliation_of() (without rows for rows it kept: they
 * have them); the tracker group_reconciliation() when an observation gave
 * a member a newer target or assignment than the description (the rows
 * its own and touched: rows.h).
 */
void group_reconciliation_of(kg_snapshot *s, kg_group *g, bool rows);
void group_reconciliation(kg_snapshot *s, kg_group *g);

/*
 * A partition's time lag at the snapshot's time now_us: one that grows with
 * the clock is its origin's age (a kept row says it as of the snapshot that
 * judged it), -1 unknown.
 */
static inline int64_t
kg_gpart_time_lag(const kg_gpart *p, int64_t now_us)
{
	return p->time_lag_from_us > 0 && now_us > 0 ? now_us - p->time_lag_from_us : p->time_lag_us;
}

/* When a group's committed offsets were asked: offs_time_us, else its data's time (0: as of the snapshot's time). */
static inline int64_t
kg_group_offs_time(const kg_group *g)
{
	return g->offs_time_us > 0 ? g->offs_time_us : g->data_time_us;
}

/* kg_group_offs_time(), or now when the group's data is as of the snapshot's time. */
static inline int64_t
kg_group_offs_time_or(const kg_group *g, int64_t now_us)
{
	int64_t t = kg_group_offs_time(g);
	return t > 0 ? t : now_us;
}

#endif

/*
 * obs.h: observations, the exact facts sources report with their own time.
 *
 * Polling sees a group once per refresh; observations carry what happened
 * in between: a consumer's revoke and assign callbacks (the demo, jsonl
 * traces), a coordinator's log lines (rebalance prepared, stabilized,
 * member failed or left and why), heartbeats and polls, client metrics.
 * Sources create them on any thread, hand them to the collector, and the
 * tracker folds them into episodes and events in time order.
 *
 * KIP-848 consumer groups: what no describing librdkafka says (epochs, a
 * member's state and type) comes as observations, whichever source reads
 * it (a coordinator's log, a __consumer_offsets record, the members
 * themselves): doc/DESIGN.md, "KIP-848 groups", has the table of which
 * observation fills which field of the snapshot.
 */
#ifndef KGTOP_MODEL_OBS_H
#define KGTOP_MODEL_OBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "model/tp.h"

typedef enum kg_obs_kind {
	KG_OBS_REVOKED,       /* member revoked parts (callback; may be empty) */
	KG_OBS_ASSIGNED,      /* member was assigned parts (callback; may be empty) */
	KG_OBS_LOST,          /* member lost parts (assignment lost) */
	KG_OBS_JOIN_SENT,     /* member sent JoinGroup: a round starts */
	KG_OBS_JOINED,        /* member added to the group */
	KG_OBS_LEFT,          /* member left the group, reason says why */
	KG_OBS_HEARTBEAT,     /* a heartbeat answered at time (rtt in value) */
	KG_OBS_POLL,          /* the application polled at time */
	KG_OBS_PREPARING,     /* coordinator began a rebalance (generation = old one) */
	KG_OBS_STABILIZED,    /* coordinator: generation stabilized with nmembers */
	KG_OBS_SYNCED,        /* coordinator received the leader's assignment for generation */
	KG_OBS_STATIC_REPLACED, /* a static member's instance was replaced */
	KG_OBS_EPOCH,         /* KIP-848 group epoch bumped to generation */
	KG_OBS_METRICS,       /* a client metrics sample (heartbeat age, poll gap, ...) */
	KG_OBS_CLIENT_STATE,  /* a client's own group state (librdkafka statistics) */
	KG_OBS_SILENT,        /* a member stopped consuming at time (crashed, stopped polling); reason, text say how */
	KG_OBS_REPROCESSED,   /* a member processed value records of parts twice: it resumed from a committed offset behind them */
	KG_OBS_COMMIT,        /* the group committed offset value for parts (one partition, usually) at time, the broker's
	                         (a __consumer_offsets record: exact commit times; generation when it carries one) */
	/* the group coordinator's own records (__consumer_offsets, --trace offsets), each at the broker's time */
	KG_OBS_GENERATION,    /* classic: generation completed (synced) at time with mlist (nmembers of them; none: the
	                         group emptied); text the assignor, value when its join phase ended (us) */
	KG_OBS_GROUP_EPOCH,   /* KIP-848: the group epoch became generation (a rebalance begins); gone: group deleted */
	KG_OBS_TARGET_EPOCH,  /* KIP-848: the target assignment of epoch generation was computed (value: when, us; a
	                         coordinator's record or its log line) */
	KG_OBS_TARGET_MEMBER, /* KIP-848: member's target assignment is parts (generation: the target's epoch, -1
	                         unknown); gone: removed */
	KG_OBS_MEMBER_EPOCH,  /* KIP-848: member holds parts at epoch generation (prev_epoch before), member_state (or
	                         mstate), pending revocation; gone: removed */
	KG_OBS_MEMBER_META,   /* KIP-848: member's metadata (client, host, instance, max_poll_ms the rebalance timeout,
	                         text the subscribed topics); gone: the member left the group */
	KG_OBS_LOG_FROM,      /* a coordinator's log is read from time on, kgtop's clock (its stream started at its end,
	                         a live stream opened, a file rotated): what it said before was not all read; group -1 */
	KG_OBS_COUNT
} kg_obs_kind;

/* A member a generation record lists (KG_OBS_GENERATION). */
typedef struct kg_obs_member {
	char *member_id;
	char *client_id;
	char *instance_id;    /* NULL: dynamic */
	char *host;
	int64_t session_timeout_ms;   /* -1 unknown */
	int64_t rebalance_timeout_ms; /* max.poll.interval.ms of a Java consumer; -1 unknown */
	kg_tp *parts;         /* its assignment (owned, sorted) */
	int nparts;
} kg_obs_member;

typedef struct kg_obs {
	kg_obs_kind kind;
	int64_t time_us;
	int32_t group;        /* interned group id; -1 for client metrics keyed by client id */
	const char *source;   /* static source name: "demo", "log", "jolokia", ... */
	char *member_id;      /* owned strings, NULL when unknown */
	char *client_id;
	char *instance_id;
	char *host;
	char *text;           /* reason text, client state, ... */
	kg_reason reason;
	kg_proto proto;       /* the protocol the client reports, when it does */
	uint8_t gtype;        /* kg_group_type the source knows the group is (UNKNOWN: not said) */
	uint8_t mtype;        /* kg_mtype: the member's protocol in a consumer group (UNKNOWN: not said) */
	uint8_t mstate;       /* kg_mstate (MEMBER_EPOCH; UNKNOWN: not said) */
	int32_t generation;   /* -1 unknown (KIP-848 kinds: the epoch) */
	int32_t prev_epoch;   /* MEMBER_EPOCH: the member's previous epoch, -1 unknown */
	int32_t nmembers;     /* -1 unknown */
	kg_tp *parts;         /* owned, sorted */
	int nparts;
	kg_tp *pending;       /* MEMBER_EPOCH: partitions pending revocation (owned, sorted) */
	int npending;
	/* settings a trace carried (-1 unknown) */
	int64_t session_timeout_ms;
	int64_t max_poll_ms;
	/* metrics (-1 unknown) */
	int64_t hb_age_us;
	int64_t poll_gap_us;
	int64_t poll_gap_max_us;
	int64_t rebalance_latency_avg_us;
	int64_t rebalance_latency_max_us;
	int64_t rebalance_total;
	int64_t failed_rebalances;
	int64_t assigned_count;
	int64_t value;        /* kind-specific (heartbeat rtt in us) */
	double hb_rate;       /* < 0 unknown */
	/* the group coordinator's own records (KG_OBS_GENERATION .. KG_OBS_MEMBER_META) */
	kg_obs_member *mlist; /* a generation's members (owned) */
	int nmlist;
	int32_t member_state; /* a KIP-848 member's state: 0 stable, 1 unrevoked, 2 unreleased, 127 unknown; -1 */
	bool loaded;          /* read while loading the record's history: it happened before the source followed live */
	bool completing;      /* JOINED, PREPARING: while the group completed its last rebalance (its members awaiting
	                         the leader's assignment, which a log may have told received: it was never given) */
	bool gone;            /* a tombstone: the member (or group) was deleted */
} kg_obs;

/* Allocate an observation with every optional field unknown. */
kg_obs *obs_new(kg_obs_kind kind, int64_t time_us, int32_t group, const char *source);
/* Free an observation. */
void obs_free(kg_obs *o);
/* Deep copy. */
kg_obs *obs_dup(const kg_obs *o);
/* Set the member identity (copies; NULL leaves a field unchanged). */
void obs_member(kg_obs *o, const char *member_id, const char *client_id,
		const char *instance_id, const char *host);
/* Set the text (copies). */
void obs_text(kg_obs *o, const char *text);
/* Set the partitions (copies, sorts). */
void obs_parts(kg_obs *o, const kg_tp *v, int n);
/* Set the partitions pending revocation (copies, sorts). */
void obs_pending(kg_obs *o, const kg_tp *v, int n);
/* Append a member to a generation's list (strings and partitions copied); returns it. */
kg_obs_member *obs_add_member(kg_obs *o, const char *member_id, const char *client_id, const char *instance_id,
			      const char *host, const kg_tp *parts, int nparts);
/* Machine name of a kind: "revoked", "assigned", ... */
const char *obs_kind_name(kg_obs_kind k);
/* Parse obs_kind_name() back; -1 when unknown. */
int obs_kind_parse(const char *s);

/* A growable list of owned observations. */
typedef struct kg_obsq {
	kg_obs **v;
	size_t n;
	size_t cap;
} kg_obsq;

/* Append (takes ownership). */
void obsq_push(kg_obsq *q, kg_obs *o);
/* Sort by time, stable for equal times. */
void obsq_sort(kg_obsq *q);
/* Free every observation and empty the list. */
void obsq_clear(kg_obsq *q);
/* Move every observation of src to the end of dst. */
void obsq_move(kg_obsq *dst, kg_obsq *src);

#endif

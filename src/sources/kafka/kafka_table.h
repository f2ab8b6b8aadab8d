/*
 * kafka_table.h: what the kafka source's worker knows across refreshes,
 * and what it publishes.
 *
 * The table keeps, per group, its listed state, its last description and
 * committed offsets (with the time each was asked), and what the scheduler
 * needs (kafka_sched.h).  A result is one finished refresh: the cluster's
 * brokers and topics, and every group of the table, sharing its
 * descriptions and offsets.  Descriptions and offsets are counted by plain
 * references that the worker alone takes and drops: the worker is the only
 * thread that touches the table, and a result never changes once
 * published (the collector thread reads it under ksrc.lock, and the worker
 * frees it when it publishes the next, or at close after the worker
 * stopped).  The requests that fill the table are kafka_requests.c's; this
 * is pure data (kafka_table.c: no librdkafka, no lock).
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_TABLE_H
#define KGTOP_SOURCES_KAFKA_KAFKA_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "sources/kafka/kafka_sched.h"

/* A member as a description gave it. */
typedef struct kmember {
	char *member_id, *client_id, *host, *instance_id;
	kg_tp *asg;
	int nasg;
	kg_tp *target;   /* KIP-848 target assignment (librdkafka >= 2.10, a consumer group) */
	int ntarget;     /* -1: none given */
} kmember;

/* A committed offset as an offsets answer gave it. */
typedef struct kcommit {
	kg_tp tp;
	int64_t offset;
	int64_t seen_us; /* the first answer that gave this offset (of the answers in a row that did): kafka_table_offsets */
} kcommit;

/* A group's description as it was answered (shared, immutable). */
typedef struct kdesc {
	int refs;
	int64_t time_us; /* when it was asked */
	kg_group_state state;
	uint8_t type;    /* kg_group_type the description says (librdkafka >= 2.10), UNKNOWN */
	bool simple;
	char *assignor;
	int32_t coordinator;
	kmember *m;
	int nm;
} kdesc;

/* A group's committed offsets as they were answered (shared, immutable). */
typedef struct koffs {
	int refs;
	int64_t time_us; /* when they were asked */
	kcommit *c;
	int nc;
} koffs;

/* One group of a result. */
typedef struct kgroup {
	int32_t id;
	kg_group_state listed; /* from the listing, UNKNOWN when it says nothing */
	uint8_t type;          /* kg_group_type: the listing's (ListGroups v5), else the description's, else UNKNOWN */
	bool unseen;           /* a consumer group this librdkafka cannot describe (it says Dead, no member): its members unknown */
	bool simple;           /* the listing says: no membership protocol */
	kdesc *desc;           /* NULL: never described (an Empty group from the listing) */
	koffs *offs;           /* NULL: not asked yet */
	char *error;           /* why the last describe or offsets failed, NULL when they did not */
	int64_t data_time_us;  /* when its data was asked (the oldest part of it) */
	int64_t pace_us;       /* how often the scheduler means to ask it, 0 every refresh (kafka_sched_pace) */
	int32_t watch_topic;   /* -1 unless watched */
} kgroup;

/* A group the source knows across refreshes (the worker's table). */
typedef struct kentry {
	ksched_group s;        /* what the scheduler decides on; s.id is the interned id */
	uint8_t type;          /* kg_group_type from the listing (ListGroups v5), UNKNOWN when it says nothing */
	int64_t unseen_us;     /* when its description showed a consumer group this librdkafka cannot describe, 0 not */
	bool simple;
	bool listed_now;       /* in this refresh's listing */
	kdesc *desc;
	koffs *offs;
	koffs *prev_offs;      /* the answer before offs, kept while the group has members (KSCHED_STILL) */
	char *desc_err, *offs_err;
	bool asked_all;        /* its last offsets were asked for "all partitions" */
	int32_t watch_topic;
} kentry;

/* A topic of a result: its partitions' leaders, log-end and log-start offsets. */
typedef struct ktopic {
	int32_t id;
	int np;
	int32_t *leader;
	int64_t *log_end;
	int64_t *log_start;
	kg_stamp *stamp;   /* the records read at committed offsets (kafka_stamp.c), KG_PART_STAMPS a partition, NULL none */
} ktopic;

/* One finished refresh: immutable once published. */
typedef struct kresult {
	int64_t time_us;   /* when the refresh began (wall) */
	int64_t answer_us; /* its first answer */
	kg_broker *brokers;
	int nbrokers;
	ktopic *topics;
	int ntopics;
	int64_t *part_mem; /* the topics' leader, log_end and log_start arrays, one block (refresh_metadata) */
	kgroup *groups;
	int ngroups;
	bool no_group_apis;
	int32_t offsets_np;  /* partitions of __consumer_offsets (a group's coordinator partition), 0 unknown */
	ksched_plan plan;  /* what it asked */
	int requests;      /* requests it sent (about) */
	int log_start_calls; /* of them, the log-start query's (one per leader and chunk) */
	int log_end_kept;  /* topics in use whose log ends were not read but kept (quiet: kafka_logend.c) */
	int stamp_reads;   /* records it read at committed offsets (a partition once a pass) */
	char *log_end_note; /* leaders that did not answer the log-end query, NULL none */
} kresult;

/* The worker's groups across refreshes. */
typedef struct ktable {
	kentry *e;
	size_t n, cap;
	int *idx;         /* group id -> index in e, -1 none */
	size_t nidx;
} ktable;

/* The entry of a group id, NULL when the table has none. */
kentry *kafka_table_get(ktable *t, int32_t id);
/* The entry of a group id, made when new. */
kentry *kafka_table_add(ktable *t, int32_t id);
/* Drop the entries not listed now (and not watched). */
void kafka_table_prune(ktable *t);
/* Free the table. */
void kafka_table_free(ktable *t);
/*
 * The groups whose last description names a coordinator other than the
 * leader metadata gives their __consumer_offsets partition (leader[p] of
 * np partitions; a partition without a leader says nothing), and the first
 * of them in *first (-1 none): librdkafka's cached coordinator for them is
 * out of date.
 */
int kafka_table_coordinators_moved(const ktable *t, const int32_t *leader, int32_t np, int32_t *first);
/* Drop a reference to a description (NULL is fine). */
void kafka_desc_unref(kdesc *d);
/* Drop a reference to committed offsets (NULL is fine). */
void kafka_offs_unref(koffs *o);

/*
 * A group's new committed offsets (the reference is taken), the answer
 * before kept while it has members; each commit's seen_us carried over from
 * the answer before when its offset is the same, else the answer's time.
 */
void kafka_table_offsets(kentry *e, koffs *o);
/*
 * The result's groups: every entry of the table, sharing descriptions and
 * offsets; and each entry's own scheduler flags from its data against the
 * result's log-ends (KSCHED_MEMBERS, KSCHED_LAG, and KSCHED_STILL when its
 * offsets were answered at now_us), and s.still_us (kafka_sched.h).
 */
void kafka_table_publish(ktable *t, kresult *r, int64_t now_us);
/* The result's topic of an id, NULL when absent. */
ktopic *kafka_result_topic(kresult *r, int32_t id);
/* Free a result. */
void kafka_result_free(kresult *r);

#endif

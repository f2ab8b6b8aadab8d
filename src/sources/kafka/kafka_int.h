/*
 * kafka_int.h: what the kafka source's files share: kafka.c (the source:
 * its worker, health and life), kafka_refresh.c (one refresh: metadata,
 * listing, plan, log-end offsets, the result) and kafka_groups.c (the
 * groups it knows across refreshes and the windowed describe and offsets
 * requests).
 *
 * The worker thread is the only one that refreshes, the only one that
 * touches the group table and the only writer of ksrc.result; the
 * collector thread reads the newest result under ksrc.lock (contribute).
 * A result never changes once published.  Descriptions and offsets are
 * shared between the table and the results that carry them, counted by
 * plain references the worker alone takes and drops (a result is freed by
 * the worker when it publishes the next, or at close after the worker).
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_INT_H
#define KGTOP_SOURCES_KAFKA_KAFKA_INT_H

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "sources/kafka/kafka.h"
#include "sources/kafka/kafka_sched.h"
#include "util/filter.h"

typedef struct kmember {
	char *member_id, *client_id, *host, *instance_id;
	kg_tp *asg;
	int nasg;
} kmember;

typedef struct kcommit {
	kg_tp tp;
	int64_t offset;
} kcommit;

/* A group's description as it was answered (shared, immutable). */
typedef struct kdesc {
	int refs;
	int64_t time_us; /* when it was asked */
	kg_group_state state;
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
	bool simple;           /* the listing says: no membership protocol */
	kdesc *desc;           /* NULL: never described (an Empty group from the listing) */
	koffs *offs;           /* NULL: not asked yet */
	char *error;           /* why the last describe or offsets failed, NULL when they did not */
	int64_t data_time_us;  /* when its data was asked (the oldest part of it) */
	int32_t watch_topic;   /* -1 unless watched */
} kgroup;

/* A group the source knows across refreshes (the worker's table). */
typedef struct kentry {
	ksched_group s;        /* what the scheduler decides on; s.id is the interned id */
	bool simple;
	bool listed_now;       /* in this refresh's listing */
	kdesc *desc;
	koffs *offs;
	char *desc_err, *offs_err;
	bool asked_all;        /* its last offsets were asked for "all partitions" */
	int32_t watch_topic;
} kentry;

typedef struct ktopic {
	int32_t id;
	int np;
	int32_t *leader;
	int64_t *log_end;
	int64_t *log_start;
	kg_stamp *stamp;   /* the records read at committed offsets (kafka_stamp.c), NULL none */
} ktopic;

/* One finished refresh: immutable once published. */
typedef struct kresult {
	int64_t time_us;   /* when the refresh began (wall) */
	int64_t answer_us; /* its first answer */
	kg_broker *brokers;
	int nbrokers;
	ktopic *topics;
	int ntopics;
	kgroup *groups;
	int ngroups;
	bool no_group_apis;
	int32_t offsets_np;  /* partitions of __consumer_offsets (a group's coordinator partition), 0 unknown */
	ksched_plan plan;  /* what it asked */
	int requests;      /* requests it sent (about) */
	int log_start_calls; /* of them, the log-start query's (one per leader and chunk) */
	int stamp_reads;   /* partitions whose record at the committed offset it read */
	char *log_end_note; /* leaders that did not answer the log-end query, NULL none */
} kresult;

typedef struct watch {
	char *group;
	char *topic;
} watch;

/* What the collector said about the screen, for the worker's next plan. */
typedef struct kfocus {
	int32_t *shown;
	size_t nshown;
	int32_t selected;
	int32_t *hot;     /* groups observations spoke of, until the next refresh takes them */
	size_t nhot, chot;
	bool screen;      /* a screen tells what it shows: the rotation is paced */
} kfocus;

/* The worker's groups across refreshes. */
typedef struct ktable {
	kentry *e;
	size_t n, cap;
	int *idx;         /* group id -> index in e, -1 none */
	size_t nidx;
} ktable;

typedef struct ksrc {
	kg_kafka_config cfg;
	char *brokers;
	kg_kv *props;
	size_t nprops;
	kg_filter *groups;    /* -g / -G */
	kg_filter *topics;    /* -t */
	rd_kafka_t *rk;       /* swapped only by the worker (kafka_renew_handle), under rk_lock */
	rd_kafka_queue_t *q;
	rd_kafka_conf_t *conf; /* what rk was made from, to make another */
	pthread_mutex_t rk_lock; /* the collector thread's rd_kafka_poll() against the worker's swap */
	int coord_moved;      /* groups answered NOT_COORDINATOR in the refresh under way (worker) */
	int coord_streak;     /* refreshes in a row with such answers */
	int64_t renewed_us;   /* when the handle was last made anew (monotonic), 0 never */
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_bool stop;
	bool refresh_now;
	/* the worker's own */
	ktable tab;
	ksched sched;
	int log_end_calls;    /* of the last refresh (log-end and log-start) */
	struct kstamps *stamps; /* records read at committed offsets, cached per partition and offset (kafka_stamp.c) */
	/* shared with the collector thread, under lock */
	kresult *result;      /* newest */
	bool fresh;           /* not yet reported by poll() */
	int completes;        /* refreshes finished since the last poll() */
	uint64_t refreshes;   /* refreshes ended so far, failed ones too */
	int64_t cadence_us;   /* time between the last two refresh ends */
	int64_t refresh_us;   /* how long the last refresh took */
	int64_t last_end_us;  /* when the last refresh ended (monotonic) */
	watch *watches;
	size_t nwatches;
	kfocus focus;
	/* health */
	int64_t last_ok_us;
	int64_t ok_since_us;  /* the first answer after an error (or the first ever) */
	int64_t err_since_us;
	char *err_msg;        /* why the last refresh failed, NULL when it did not */
	char *note;           /* a detail shown while ok (e.g. no group APIs) */
	/* librdkafka's error callback (any thread) */
	pthread_mutex_t err_lock;
	atomic_int cluster_err;   /* last cluster-wide error code, 0 none since the last answer */
	atomic_uint err_gen;      /* counts error callbacks */
	int64_t cluster_err_us;   /* when it came (wall), under err_lock */
	char *cluster_reason;     /* its words (librdkafka's), under err_lock */
	bool told_cluster_err;    /* poll() reported it (collector thread) */
	kg_source *self;
} ksrc;

/* kafka.c */

/*
 * After a refresh: when groups kept answering NOT_COORDINATOR, make the
 * client handle anew (librdkafka 2.0.2's admin requests keep asking a
 * cached coordinator that moved).
 */
void kafka_coordinators_check(ksrc *k);

/* kafka_refresh.c */

/* One refresh (metadata, listing, the plan's groups, log-end offsets); NULL with *err (malloc'd). */
kresult *kafka_refresh(ksrc *k, char **err);
/* Free a result. */
void kafka_result_free(kresult *r);
/* Wait for one admin result of type want (0: any admin result) in slices that honour stop; NULL on timeout. */
rd_kafka_event_t *kafka_wait_event(ksrc *k, rd_kafka_event_type_t want, int64_t deadline_us);
/* Admin options with the request timeout. */
rd_kafka_AdminOptions_t *kafka_admin_opts(ksrc *k, rd_kafka_admin_op_t op);
/* True when the topic passes -t. */
bool kafka_topic_selected(ksrc *k, const char *name);
/* The result's topic of an id, NULL when absent. */
ktopic *kafka_result_topic(kresult *r, int32_t id);

/* kafka_groups.c */

/* The entry of a group id, NULL when the table has none. */
kentry *kafka_table_get(ktable *t, int32_t id);
/* The entry of a group id, made when new. */
kentry *kafka_table_add(ktable *t, int32_t id);
/* Drop the entries not listed now (and not watched). */
void kafka_table_prune(ktable *t);
/* Free the table. */
void kafka_table_free(ktable *t);
/* Describe and fetch the offsets of what the plan marked, at most KG_KAFKA_WINDOW requests in flight. */
int kafka_groups_ask(ksrc *k, kresult *r, char **err);
/* The result's groups: every entry, sharing descriptions and offsets. */
void kafka_groups_publish(ksrc *k, kresult *r, int64_t now_us);
/* Drop a result group's references. */
void kafka_group_clear(kgroup *g);
/* librdkafka's group state in the model's words. */
kg_group_state kafka_map_state(rd_kafka_consumer_group_state_t st);

/* kafka_stamp.c */

/*
 * Read the record at the committed offset of the partitions that need it
 * (the selected group's, every group's under --once, at most
 * KG_STAMP_READS): those with lag, not below the log start, whose offset
 * has no read yet; then give the result every read kept.
 */
void kafka_stamps_read(ksrc *k, kresult *r);
/* Free the cache. */
void kafka_stamps_free(ksrc *k);

/* kafka.c */

/* "reason (detail)" for an error code, in a new string. */
char *kafka_describe_error(rd_kafka_resp_err_t err, const char *detail);
/* True when librdkafka said, since err_gen was gen, that no broker can be reached. */
bool kafka_cluster_gone(ksrc *k, unsigned gen);
/* librdkafka's words for the last cluster-wide error (malloc'd), NULL when none. */
char *kafka_cluster_reason(ksrc *k);
/* Forget librdkafka's complaints: the cluster answered. */
void kafka_cluster_answered(ksrc *k);

#endif

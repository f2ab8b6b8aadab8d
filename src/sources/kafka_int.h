/*
 * kafka_int.h: what kafka.c (the source: its worker, health and life) and
 * kafka_refresh.c (one refresh into an immutable result) share.
 *
 * The worker thread is the only one that refreshes and the only writer of
 * ksrc.result; the collector thread reads the newest result under ksrc.lock
 * (contribute).  A result never changes once published.
 */
#ifndef KGTOP_SOURCES_KAFKA_INT_H
#define KGTOP_SOURCES_KAFKA_INT_H

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "sources/kafka.h"
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

typedef struct kgroup {
	int32_t id;
	kg_group_state state;
	bool described;
	bool simple;
	char *assignor;
	int32_t coordinator;
	char *error;
	kmember *m;
	int nm;
	kcommit *c;
	int nc;
	int32_t watch_topic; /* -1 unless watched */
} kgroup;

typedef struct ktopic {
	int32_t id;
	int np;
	int32_t *leader;
	int64_t *log_end;
} ktopic;

/* One finished refresh: immutable once published. */
typedef struct kresult {
	int64_t time_us;
	kg_broker *brokers;
	int nbrokers;
	ktopic *topics;
	int ntopics;
	kgroup *groups;
	int ngroups;
	bool no_group_apis;
} kresult;

typedef struct watch {
	char *group;
	char *topic;
} watch;

typedef struct ksrc {
	kg_kafka_config cfg;
	char *brokers;
	kg_kv *props;
	size_t nprops;
	kg_filter *groups;    /* -g / -G */
	kg_filter *topics;    /* -t */
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_bool stop;
	bool refresh_now;
	/* shared with the collector thread, under lock */
	kresult *result;      /* newest */
	bool fresh;           /* not yet reported by poll() */
	int completes;        /* refreshes finished since the last poll() */
	watch *watches;
	size_t nwatches;
	/* health */
	int64_t last_ok_us;
	int64_t ok_since_us;  /* the first answer after an error (or the first ever) */
	int64_t err_since_us;
	char *err_msg;        /* why the last refresh failed, NULL when it did not */
	char *note;           /* a detail shown while ok (e.g. no group APIs) */
	atomic_int cluster_err; /* last error code from error_cb */
	kg_source *self;
} ksrc;

/* kafka_refresh.c */

/* One full refresh (metadata, groups, descriptions, committed and log-end offsets); NULL with *err (malloc'd). */
kresult *kafka_refresh(ksrc *k, char **err);
/* Free a result. */
void kafka_result_free(kresult *r);

/* kafka.c */

/* "reason (detail)" for an error code, in a new string. */
char *kafka_describe_error(rd_kafka_resp_err_t err, const char *detail);

#endif

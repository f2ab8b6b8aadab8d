/*
 * kafka_errors.h: librdkafka's errors for the kafka source's rooms: error
 * codes in words (kafka_err_reason() and kafka_err_unreachable() are in
 * kafka.h, for the demo too), and the cluster-wide trouble librdkafka's
 * error callback reports (no broker reachable, cannot resolve, TLS, SASL),
 * kept until the cluster answers again.
 *
 * The callback runs on any of librdkafka's threads, and on ours when they
 * poll the handle (the collector thread's poll(), the worker's refresh),
 * so what it keeps is shared: the code and a count of callbacks are
 * atomics, read without a lock (the worker asks kafka_cluster_gone()
 * between answers; poll() and the health ask kafka_cluster_err()); the
 * words are under kerrs.lock, which is always the innermost lock: it is
 * taken while ksrc.lock or ksrc.rk_lock may be held (kafka_int.h), never
 * the other way round, and nothing else is locked or called back under it.
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_ERRORS_H
#define KGTOP_SOURCES_KAFKA_KAFKA_ERRORS_H

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* What librdkafka's error callback said about the whole cluster. */
typedef struct kerrs {
	pthread_mutex_t lock; /* guards reason; innermost of the source's locks */
	atomic_int code;      /* the last cluster-wide error code, 0 none since the last answer (set under lock) */
	atomic_uint gen;      /* counts error callbacks (bumped after the lock is let go) */
	char *reason;         /* its words (librdkafka's, without the broker prefix), NULL none */
} kerrs;

/* Ready to take librdkafka's complaints: none yet. */
void kafka_errors_init(kerrs *x);
/* Free what the complaints kept. */
void kafka_errors_destroy(kerrs *x);
/* What the error callback said: err with librdkafka's words (from any thread). */
void kafka_errors_take(kerrs *x, int err, const char *reason);
/* The last cluster-wide error code, 0 none since the last answer. */
int kafka_cluster_err(kerrs *x);
/* The count of error callbacks so far, to hand to kafka_cluster_gone() later. */
unsigned kafka_errors_gen(kerrs *x);
/* True when librdkafka said, since the count was gen, that no broker can be reached. */
bool kafka_cluster_gone(kerrs *x, unsigned gen);
/* librdkafka's words for the last cluster-wide error (malloc'd), NULL when none. */
char *kafka_cluster_reason(kerrs *x);
/* Forget librdkafka's complaints: the cluster answered. */
void kafka_cluster_answered(kerrs *x);

/* "reason (detail)" for an error code, in a new string. */
char *kafka_describe_error(rd_kafka_resp_err_t err, const char *detail);

#endif

/*
 * kafka_requests.h: what the kafka source asks the cluster about groups and
 * partitions, on its worker thread (kafka_requests.c): the listing, the
 * plan's descriptions and committed offsets in a window of requests (the
 * log-end and log-start offsets are kafka_logend.h's).  Answers go into
 * the group table and the refresh's result (kafka_table.h); a request the
 * cluster does not answer ends in librdkafka's words when it gave some
 * (kafka_errors.h).
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_REQUESTS_H
#define KGTOP_SOURCES_KAFKA_KAFKA_REQUESTS_H

#include <stdbool.h>

#include "sources/kafka/kafka_int.h"

/*
 * How long the listing waits for a broker still silent after another
 * answered (at least), and the most a log-end call to such a broker
 * waits (kafka_logend.c).
 */
#define KAFKA_LIST_GRACE_US 1000000

/* True when the topic passes -t (internal topics only when -t names them). */
bool kafka_topic_selected(ksrc *k, const char *name);
/*
 * ListConsumerGroups into the table (-g / -G apply), each broker of r's
 * metadata asked on its own (one silent is waited for only a grace after
 * the others answered), or *unsupported (the mock cluster); -1 with *err.
 */
int kafka_list_groups(ksrc *k, const kresult *r, bool *unsupported, char **err);
/* True when this refresh's listing heard nothing from the broker (its connection down, most likely). */
bool kafka_broker_silent(const ksrc *k, int32_t id);
/* Describe and fetch the offsets of what the plan marked, a window of requests in flight; -1 with *err. */
int kafka_groups_ask(ksrc *k, kresult *r, char **err);

#endif

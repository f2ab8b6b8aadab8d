/*
 * kafka.h: the Kafka admin source (librdkafka).
 *
 * Each refresh: ListConsumerGroups (filtered by the -g / -G regexes),
 * DescribeConsumerGroups for every selected group in one asynchronous
 * call, ListConsumerGroupOffsets for every group issued together (one
 * group per request: a librdkafka 2.0.2 limit), metadata for the topics in
 * use, and log-end offsets in one batched ListOffsets per leader
 * (rd_kafka_offsets_for_times with RD_KAFKA_OFFSET_END on a consumer
 * handle without group.id, isolation.level=read_uncommitted).  It never
 * joins a monitored group and never commits an offset.
 *
 * Where ListConsumerGroups says the broker does not support group APIs
 * (librdkafka's mock cluster), DescribeConsumerGroups is never called (in
 * 2.0.2 it would hang the admin handle for good) and only the groups
 * registered with kafka_source_watch() are followed, through committed
 * offsets with explicit partitions.
 */
#ifndef KGTOP_SOURCES_KAFKA_H
#define KGTOP_SOURCES_KAFKA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/kv.h"
#include "model/source.h"

typedef struct kg_kafka_config {
	const char *brokers;
	const kg_kv *props;          /* -X key=value / -F file, in order */
	size_t nprops;
	const kg_strlist *include;   /* group regexes (NULL: all) */
	const kg_strlist *exclude;
	const kg_strlist *topics;    /* topic regexes (NULL: all) */
	int64_t interval_us;         /* refresh interval (0: KG_DEFAULT_INTERVAL_US) */
	int64_t timeout_us;          /* per request round (0: KG_DEFAULT_TIMEOUT_US) */
} kg_kafka_config;

/* Create the source (connects lazily); -1 with err on bad configuration. */
int kafka_source_new(const kg_kafka_config *cfg, kg_source **out, char *err, size_t errsz);
/*
 * Follow a group even when ListConsumerGroups cannot list it: committed
 * offsets of every partition of topic are fetched each refresh.  Call it
 * on the collector thread (from a source's poll) or before the collector
 * starts.
 */
void kafka_source_watch(kg_source *s, const char *group, const char *topic);

/*
 * librdkafka's error codes in words, for every user of librdkafka (the demo
 * too): "all brokers down", "cannot resolve the bootstrap servers", "TLS
 * handshake failed", "authentication failed", ...; NULL for the others.
 */
const char *kafka_err_reason(int err);
/* True for a cluster-wide cause that waiting will not cure (no broker reachable, cannot resolve, TLS, SASL). */
bool kafka_err_unreachable(int err);

#endif

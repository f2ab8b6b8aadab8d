/*
 * kafka.h: the Kafka admin source (librdkafka).
 *
 * Each refresh: metadata (kept between refreshes: asked every 10 s at
 * rest, and at the next refresh once one sees it may be out of date;
 * kafka_refresh.c), ListConsumerGroups (filtered by the -g / -G
 * regexes; each group's state where the broker says it), then
 * DescribeConsumerGroups and ListConsumerGroupOffsets (one group per
 * request: a librdkafka 2.0.2 limit) for the groups the scheduler picks
 * (kafka_sched.h: the selected and shown ones, changed and rebalancing
 * ones, the rest on a rotation that asks each within --full-refresh, within
 * --max-requests per second; --once asks everything once), at most
 * KG_KAFKA_WINDOW requests in flight, and the log-end offsets of the
 * topics in use, per leader in bounded calls (rd_kafka_offsets_for_times
 * with RD_KAFKA_OFFSET_END on a consumer handle without group.id,
 * isolation.level=read_uncommitted).  Each group carries the time of its
 * data.  It never joins a monitored group and never commits an offset.
 *
 * Where ListConsumerGroups says the broker does not support group APIs
 * (librdkafka's mock cluster), DescribeConsumerGroups is never called (in
 * 2.0.2 it would hang the admin handle for good) and only the groups
 * registered with kafka_source_watch() are followed, through committed
 * offsets with explicit partitions.
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_H
#define KGTOP_SOURCES_KAFKA_KAFKA_H

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
	/* the options' values (-i, --timeout, --full-refresh, --max-requests), each required */
	int64_t interval_us;         /* refresh interval */
	int64_t timeout_us;          /* per request round */
	int64_t full_refresh_us;     /* every group asked at least this often */
	double max_requests;         /* requests per second at most */
	int64_t lag_window_us;       /* the progress verdicts' window (--lag-window): a freeze past its STALLED threshold
					is asked less often (kafka_sched.h); 0: every refresh */
	bool once;                   /* one refresh of everything, then none (--once) */
	bool stamps_all;             /* exact time lag for every group (--once, --check: no screen selects one) */
	int64_t stamps_rest_us;      /* the reads' own handle dropped after this long without a read (0: KG_KAFKA_STAMP_REST_US) */
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

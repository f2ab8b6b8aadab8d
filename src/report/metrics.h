/*
 * metrics.h: what kgtop sees, in the Prometheus text exposition format
 * (--serve's /metrics; the man page lists every family and its meaning).
 *
 * Two halves.  The counters (rebalances by protocol and trigger, their
 * durations as a histogram) are counted from the events the tracker
 * derives, on the collector thread, as episodes end: metrics_count().
 * Everything else is read from one snapshot when a scrape asks:
 * metrics_render() formats the snapshot and a frozen copy of the counters
 * (metrics_copy(), shared by reference count with the threads that
 * answer requests), so a scrape never waits for the collector and the
 * collector never waits for a scrape.  Nothing here knows HTTP.
 *
 * A family is a row of the table in metrics.c (name, type, help, and the
 * function that writes its samples from the snapshot): a fact the model
 * gains becomes a metric with one function and one row.  Names and units
 * follow Prometheus' conventions (kgtop_ prefix, seconds, _total
 * counters); the cluster's own samples carry the cluster label, a group's
 * the group label (the cluster is a target label where kgtop is scraped:
 * on every sample it was most of a scrape of 10,000 groups), only
 * --metrics-partitions adds topic and partition, and what a group at
 * rest would say with a 0 has no sample (absent means 0).
 */
#ifndef KGTOP_REPORT_METRICS_H
#define KGTOP_REPORT_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"
#include "model/snapshot.h"
#include "util/util.h"

/* The content type of the exposition format. */
#define KG_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

typedef struct kg_metrics kg_metrics;

/* What a render shows besides the snapshot and the counters. */
typedef struct kg_metrics_ctx {
	bool partitions;          /* --metrics-partitions: lag per partition (topic, partition labels) */
	bool serving;             /* the server's own families (viewers of /stream) */
	int viewers;              /* /stream clients attached now */
	uint64_t viewers_dropped; /* /stream clients cut off for falling behind, since start */
} kg_metrics_ctx;

/* Empty counters with one reference. */
kg_metrics *metrics_new(void);
/* Take a reference. */
kg_metrics *metrics_ref(kg_metrics *m);
/* Drop a reference (NULL ignored). */
void metrics_unref(kg_metrics *m);
/* Count the rebalances that ended among events; true when a counter changed. */
bool metrics_count(kg_metrics *m, const kg_evlist *events);
/* A copy of the counters with one reference (to share while m counts on). */
kg_metrics *metrics_copy(const kg_metrics *m);
/* Append the exposition of snap (may be NULL: no data yet) and the counters m (may be NULL) to out. */
void metrics_render(const kg_metrics *m, const kg_snapshot *snap, const kg_metrics_ctx *ctx, sbuf *out);

#endif

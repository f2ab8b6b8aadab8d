/*
 * offsets.h: --trace offsets, the group coordinator's own records read
 * from the internal topic __consumer_offsets (issue 23).
 *
 * Every completed generation of a classic group, every commit, and a
 * KIP-848 group's epochs, targets and member assignments are written
 * there by the coordinator, stamped with its time.  The source reads the
 * topic from its start with librdkafka's simple consumer on a handle of
 * its own (never subscribes, never joins a group, never commits), folds
 * what it loads (offsets_state.h) and tells it when each partition of the
 * topic reaches its end, then follows live: exact generations, exact
 * commit times, static restarts that ran no generation, and what happened
 * before kgtop started.  It uses the cluster's connection (-b, -X, -F, a
 * named cluster).
 *
 * A worker thread owns the handle: it reads, decodes and folds at its own
 * pace and queues observations, at most OFFSETS_QUEUE_MAX before it stops
 * reading (librdkafka then stops fetching: memory is bounded whatever the
 * topic holds); the collector's poll takes at most OFFSETS_DRAIN_MAX of
 * them a refresh.  It reports news when observations wait, and a complete
 * refresh once every partition is loaded and what loading told is taken,
 * so --once and --check report the loaded state.
 *
 * Limits said in its health: not authorised to read the topic (the ACL it
 * needs, tried again every OFFSETS_RETRY_US, the cluster polled as ever);
 * an offset out of range while reading (compaction or deletion moved the
 * log start under it: read again from the log start, the records already
 * folded skipped); records of unknown types or versions, and bytes that do
 * not parse (counted, skipped, the last one named).
 */
#ifndef KGTOP_SOURCES_OFFSETS_OFFSETS_H
#define KGTOP_SOURCES_OFFSETS_OFFSETS_H

#include <stddef.h>
#include <stdint.h>

#include "model/source.h"
#include "util/kv.h"

#define OFFSETS_TOPIC "__consumer_offsets"
#define OFFSETS_QUEUE_MAX 50000           /* observations queued before the worker stops reading */
#define OFFSETS_DRAIN_MAX 20000           /* observations one refresh takes */
#define OFFSETS_RETRY_US (30LL * 1000000) /* a refused or missing topic is tried again after this */
#define OFFSETS_HISTORY_US (3600LL * 1000000) /* the config's history_us when it gives none */
#define OFFSETS_TIMEOUT_US (10LL * 1000000)   /* the config's timeout_us when it gives none */

typedef struct kg_offsets_config {
	const char *brokers;
	const kg_kv *props;   /* -X key=value / -F file, in order (the cluster's connection) */
	size_t nprops;
	int64_t history_us;   /* generations older than this before the load's end are counted, not told (0: default) */
	int64_t timeout_us;   /* metadata and watermark requests (0: default) */
} kg_offsets_config;

/* Create the source (connects when the collector first polls it); -1 with err on bad configuration. */
int offsets_source_new(const kg_offsets_config *cfg, kg_source **out, char *err, size_t errsz);

#endif

/*
 * parse_rdstats.h: librdkafka statistics JSON into client group state.
 *
 * A consumer's statistics callback (statistics.interval.ms) hands out one
 * JSON object per interval; written one per line they form a trace.  Of
 * each object kgtop keeps the client id and the "cgrp" part: state and
 * join state, rebalance count, age and reason, assignment size, as one
 * KG_OBS_CLIENT_STATE with group -1 (the tracker joins it to the member by
 * client id).  The observation's time is the object's "time" (wall-clock
 * seconds) when present, else the time it was read; "ts" is librdkafka's
 * monotonic clock and is not used.  Its text reads
 * "STATE/JOIN_STATE" plus ", last rebalance: REASON" when there is one, its
 * value is the rebalance age in microseconds, and its reason is what the
 * rebalance reason implies.  Objects without "cgrp" (producers) are known
 * lines without observations.
 */
#ifndef KGTOP_SOURCES_TRACE_PARSE_RDSTATS_H
#define KGTOP_SOURCES_TRACE_PARSE_RDSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "sources/trace/parse_lines.h"

/* Parse one statistics line read at now_us. */
kg_parse_rc parse_rdstats_line(const char *line, size_t len, int64_t now_us, kg_obsq *out);
/* The kg_reason a librdkafka rebalance reason implies. */
kg_reason parse_rdstats_reason(const char *text);

#endif

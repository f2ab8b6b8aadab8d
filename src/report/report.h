/*
 * report.h: reporters that print the model without curses.
 *
 * report_text() is the --once report: per group its state, assignor and
 * protocol, coordinator, members, a text ownership grid and per partition
 * the columns of kafka-consumer-groups.sh (CURRENT-OFFSET, LOG-END-OFFSET,
 * LAG).  report_json() is one line of the versioned JSON schema (see
 * kgtop(1)): a snapshot with the events derived since the previous line.
 */
#ifndef KGTOP_REPORT_REPORT_H
#define KGTOP_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/event.h"
#include "model/snapshot.h"
#include "util/util.h"

#define KG_JSON_VERSION 10

/* Append the text report of snapshot s to out. */
void report_text(sbuf *out, const kg_snapshot *s);
/*
 * The same report in pieces (10,000 groups make 17 MB of text): whenever
 * out holds more than KG_REPORT_PIECE bytes after a group, flush(out, ctx)
 * writes and empties it; false from flush stops the report (returns
 * false).  What is left when it ends stays in out.
 */
#define KG_REPORT_PIECE (64 * 1024)
bool report_text_each(sbuf *out, const kg_snapshot *s, bool (*flush)(sbuf *out, void *ctx), void *ctx);
/* Append one JSON object (no newline) for s with every group (a keyframe) and the events since the last one. */
void report_json(sbuf *out, const kg_snapshot *s, kg_event *const *events, size_t nevents, int64_t t0_us);
/* The same in pieces handed to flush as they are written (report_text_each's); false when flush failed. */
bool report_json_each(sbuf *out, const kg_snapshot *s, kg_event *const *events, size_t nevents, int64_t t0_us,
		      bool (*flush)(sbuf *out, void *ctx), void *ctx);
/*
 * The pieces of a line (json_delta.c writes the groups between them):
 * the fields before the groups, the array opened; "stale":true when stale
 * (--json's line of an interval in which no refresh of the cluster came,
 * repeating the last one's data); "keyframe" says whether every group
 * follows.
 */
void report_json_head(sbuf *out, const kg_snapshot *s, bool stale, bool keyframe);
/*
 * The events after the groups (and a delta's "gone"), the object closed;
 * split: an event's "message" that holds its "text" as "message_head" and
 * "message_tail" around it (the lines of --json without --full, schema 8).
 */
void report_json_tail(sbuf *out, kg_event *const *events, size_t nevents, int64_t t0_us, bool split);
/* One group's object, an age that grows with the clock as of line_us (the line's time). */
void report_json_group(sbuf *out, const kg_group *g, const kg_snapshot *s, int64_t line_us);
/* The same object without its "partitions" (json_delta.c compares them one by one). */
void report_json_group_head(sbuf *out, const kg_group *g, const kg_snapshot *s, int64_t line_us);
/* One partition's object of group g, as "partitions" holds it. */
void report_json_part(sbuf *out, const kg_group *g, const kg_gpart *p, int64_t line_us);

#endif

/*
 * json_delta.h: the --json lines of a run, each carrying what changed.
 *
 * A line is a keyframe ("keyframe":true, every group in full, as each
 * line of --full) or a delta against the line before it: "groups" holds a
 * patch of each group whose printed object changed (a group new since
 * that line in full) and "gone" the ids of the groups no longer there.
 * A reader keeps the groups of the last keyframe by id and applies each
 * delta (kgtop(1) states the rules; tests/cli/json_delta.sh rebuilds
 * --full from them); an age that grows with the clock ("time_lag_ms" with
 * a "time_lag_from_us") is aged to each line's time by the reader, a lag
 * that follows from the offsets is derived by it, and a lag spark comes
 * as a step (schema 5), not sent again; nor (schema 8) a moved commit's
 * times that its group's reads say, nor an event's text in its message.
 */
#ifndef KGTOP_REPORT_JSON_DELTA_H
#define KGTOP_REPORT_JSON_DELTA_H

#include <stdbool.h>
#include <stddef.h>

#include "model/event.h"
#include "model/snapshot.h"
#include "util/util.h"

typedef struct kg_jdelta kg_jdelta;

/* What a line carried of the groups. */
typedef struct jdelta_counts {
	bool keyframe;
	int whole;   /* groups in full (all of a keyframe; new ones in a delta) */
	int written; /* groups whose fields but partitions changed: written twice and compared */
	int patched; /* of them, those whose printed object changed */
	int gone;    /* groups no longer there */
} jdelta_counts;

/* Start the lines of a run (the first is a keyframe); full: --full's (events whole, as report_json writes them). */
kg_jdelta *jdelta_new(bool full);
/* Free them. */
void jdelta_free(kg_jdelta *d);
/* Make the next line a keyframe (on request). */
void jdelta_reset(kg_jdelta *d);
/*
 * Append the line (no newline) for s and the events since the last line
 * (times from t0_us; stale: no refresh of the cluster came in time): a
 * keyframe when keyframe is true or this is the first line, else a delta
 * against the last line's snapshot, which d keeps a reference to.
 */
jdelta_counts jdelta_line(kg_jdelta *d, sbuf *out, kg_snapshot *s, kg_event *const *events, size_t nevents, int64_t t0_us,
			  bool stale, bool keyframe);

#endif

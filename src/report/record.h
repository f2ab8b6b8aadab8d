/*
 * record.h: --record FILE: what kgtop sees, as versioned JSON lines.
 *
 * The recorder hangs on the collector's tap: each tick it writes one line
 * with the observations the tracker was fed, the snapshot as a delta
 * against the previous one (a full keyframe now and then), the source
 * health, and the events derived.  It flushes every tick, so a crash loses
 * at most the tick in progress (about a second); with a size limit it
 * rotates into FILE.1 and starts the new file with a header and a
 * keyframe.  The format is documented in kgtop-record(5).
 */
#ifndef KGTOP_REPORT_RECORD_H
#define KGTOP_REPORT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "core/collector.h"

#define KG_RECORD_VERSION 1

typedef struct kg_recorder kg_recorder;

/* Open FILE for recording (max_bytes 0: no limit); 0 or -1 with err. */
int recorder_open(const char *path, int64_t max_bytes, kg_recorder **out, char *err, size_t errsz);
/* The tap to install on the collector. */
void recorder_tap(kg_recorder *r, kg_tap *tap);
/* The last write error, NULL when none (shown in the header). */
const char *recorder_error(kg_recorder *r);
/* Flush and close. */
void recorder_close(kg_recorder *r);

#endif

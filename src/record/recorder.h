/*
 * recorder.h: --record FILE: what kgtop sees, as versioned JSON lines.
 *
 * The recorder hangs on the collector's tap: each tick it writes one line
 * with the observations the tracker was fed, the snapshot as a delta
 * against the previous one (a full keyframe now and then), the source
 * health, and the events derived.  It flushes every tick, so a crash loses
 * at most the tick in progress (about a second); with a size limit it
 * rotates into FILE.1 and starts the new file with a header and a
 * keyframe.  The format is documented in kgtop-record(5); its observations
 * are the recording schema of obs_codec.h, its events --json's (json.h).
 */
#ifndef KGTOP_RECORD_RECORDER_H
#define KGTOP_RECORD_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "model/source.h"
#include "model/tap.h"
#include "model/tracker.h"

typedef struct kg_recorder kg_recorder;

/* Open FILE for recording (max_bytes 0: no limit); 0 or -1 with err. */
int recorder_open(const char *path, int64_t max_bytes, kg_recorder **out, char *err, size_t errsz);
/* Write the model's settings into the header, so a replay derives with them (before the first tick). */
void recorder_settings(kg_recorder *r, const kg_tracker_config *cfg);
/* The tap to install on the collector. */
void recorder_tap(kg_recorder *r, kg_tap *tap);
/* The last write error, NULL when none (shown in the header). */
const char *recorder_error(kg_recorder *r);
/*
 * A source that only reports the recorder's health ("record": ok with the
 * file, or the write error that stopped it) so the header shows it.  It
 * does not own the recorder: close the recorder after the collector.
 */
kg_source *recorder_source(kg_recorder *r);
/* Flush and close. */
void recorder_close(kg_recorder *r);

#endif

/*
 * recorder.h: --record FILE: what kgtop sees, as versioned JSON lines.
 *
 * The recorder hangs on the collector's tap: each tick it writes one line
 * with the observations the tracker was fed, the snapshot as a delta
 * against the previous one (a full keyframe now and then), the source
 * health, and the events derived.  It flushes every tick, so a crash loses
 * at most the tick in progress (about a second); with a size limit it
 * rotates into FILE.1 and starts the new file with a header and a
 * keyframe.  Without a file it hands each line to a sink (the server's
 * /stream), with a header and a keyframe for viewers joining.  The
 * format is documented in kgtop-record(5); its observations
 * are the recording schema of obs_codec.h, its events --json's (json.h).
 */
#ifndef KGTOP_RECORD_RECORDER_H
#define KGTOP_RECORD_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/source.h"
#include "model/tap.h"
#include "model/tracker.h"

typedef struct kg_recorder kg_recorder;

/*
 * Where a recorder without a file sends its lines (--serve's /stream).
 * Called on the collector thread, within the tick: they must not block.
 */
typedef struct kg_record_sink {
	void *arg;
	/* false while nobody reads the lines: the tick's line is not encoded (a keyframe still can be) */
	bool (*want_line)(void *arg);
	/* tick n's line, a delta against line n-1 (line 0 is a keyframe), with its newline */
	void (*line)(void *arg, int64_t n, const char *line, size_t len);
	/* true when viewers wait to join: key() follows with this tick */
	bool (*want_key)(void *arg);
	/* a header line and a keyframe of tick n, in one buffer (the header is its first hlen bytes) */
	void (*key)(void *arg, int64_t n, const char *buf, size_t hlen, size_t len);
} kg_record_sink;

/* Open FILE for recording (max_bytes 0: no limit); 0 or -1 with err. */
int recorder_open(const char *path, int64_t max_bytes, kg_recorder **out, char *err, size_t errsz);
/* A recorder that encodes each tick for a sink instead of a file (it cannot fail). */
void recorder_open_sink(const kg_record_sink *sink, kg_recorder **out);
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

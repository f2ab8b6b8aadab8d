/*
 * replay_feed.h: a recording fed line by line as a stream brings it
 * (--attach reads another kgtop's /stream).
 *
 * The same state, checks and staging as --replay (a damaged line is found
 * before anything of it is applied; the tick numbers must follow each
 * other; time never goes back), without a file and without a pace of its
 * own: each tick line fed is handed over at once, and its time is the
 * clock the caller gives the collector, so the tracker derives from the
 * stream exactly what the serving kgtop derived.  The first header gives
 * the cluster's label and the model's settings; a stream starts over
 * (replay_feed_restart()) with a header and a keyframe after every
 * reconnection.
 */
#ifndef KGTOP_RECORD_REPLAY_FEED_H
#define KGTOP_RECORD_REPLAY_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "model/snapshot.h"
#include "model/tracker.h"

typedef struct kg_replay kg_replay;

/* An empty feed, named for its messages (the URL it reads). */
kg_replay *replay_feed_new(const char *name);
/* Free it. */
void replay_feed_free(kg_replay *r);
/*
 * Feed one line (without its newline): 1 when it was a tick (now the
 * state), 0 for a header or an empty line, -1 with err (no JSON, a newer
 * format, a lost line, time going back): stop reading this stream.
 */
int replay_feed_line(kg_replay *r, const char *line, size_t len, char *err, size_t errsz);
/* A new connection: its header and keyframe start over (the state stays until the keyframe replaces it). */
void replay_feed_restart(kg_replay *r);
/* True once a header was fed. */
bool replay_feed_has_header(const kg_replay *r);
/* The cluster label of the first header ("" before). */
const char *replay_feed_cluster(const kg_replay *r);
/* The model's settings of the first header; false when it had none. */
bool replay_feed_model(const kg_replay *r, kg_tracker_config *cfg);
/* Time of the last tick fed (0: none yet). */
int64_t replay_feed_time(const kg_replay *r);
/* Move the observations of the ticks fed since the last drain into q. */
void replay_feed_drain(kg_replay *r, kg_obsq *q);
/* Add the state (recorded sources' health, brokers, topics, groups) to b. */
void replay_feed_contribute(kg_replay *r, kg_builder *b);

#endif

/*
 * replay.h: --replay FILE: a recording drives the model instead of a cluster.
 *
 * The replay source is the collector's clock (source op "clock"): it
 * hands over one recorded refresh per poll with its observations, at the
 * recorded times, so the tracker derives exactly what it derived live.
 * In real time (the dashboard) it plays at a speed from 0.25x to 32x and
 * takes the commands play, pause, toggle, speed X, faster, slower,
 * seek +S and next-rebalance (going back is the dashboard's history
 * scrubbing).  As fast as possible (--json, --once) it stops at --at.
 * A truncated or corrupted file replays up to the damage and says where
 * it stopped; a newer format version is refused.
 */
#ifndef KGTOP_RECORD_REPLAY_H
#define KGTOP_RECORD_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/tracker.h"
#include "model/source.h"

typedef struct kg_replay_config {
	const char *path;
	double speed;     /* real-time factor (1: as recorded) */
	bool as_fast;     /* no waiting: --json, --once */
	const char *at;   /* stop here (HH:MM:SS, ISO time, +SECONDS); NULL: the end */
} kg_replay_config;

/*
 * Open a recording; -1 with err (missing, not a recording, newer version,
 * nothing replayable), KG_ERR_USAGE with err when --at is malformed or before the
 * recording starts (a usage error).
 */
int replay_source_new(const kg_replay_config *cfg, kg_source **out, char *err, size_t errsz);
const char *replay_cluster(kg_source *s);
/*
 * Where a damaged recording stopped ("line N: why"), NULL when it did not
 * (or not yet).  Only while the collector thread is not running.
 */
const char *replay_damage(kg_source *s);
/* The model's settings the recording was made with (its header); false when it has none. */
bool replay_model(kg_source *s, kg_tracker_config *cfg);
/* Parse an --at time relative to a recording that starts at start_us; 0 or -1 with err. */
int replay_parse_at(const char *at, int64_t start_us, int64_t *out_us, char *err, size_t errsz);

#endif

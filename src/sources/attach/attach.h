/*
 * attach.h: --attach URL: watch what another kgtop serves (its /stream).
 *
 * The source reads the serving kgtop's live recording through the trace
 * streams' transport (libcurl, trace_transport.h: timeouts, backoff, TLS,
 * credentials scrubbed) and plays it through the replay machinery fed
 * line by line (record/replay_feed.h): one recorded tick per collector
 * tick, at the recorded time (the source is the collector's clock, as a
 * replay is), so the tracker derives the same events and every view works,
 * with history from the moment it attached (and the keyframe it starts
 * with).  The brokers see only the serving kgtop's requests.
 *
 * Its health says "attached to HOST, N s behind": how much later than
 * the serving kgtop this viewer shows a tick (the stream's delay, with
 * the two clocks' difference taken out by the fastest tick seen).  A
 * viewer the serving kgtop cut off for falling behind says so, and
 * reconnects by itself after a backoff (1 s, doubling to 30 s), starting
 * over with a new keyframe.
 */
#ifndef KGTOP_SOURCES_ATTACH_ATTACH_H
#define KGTOP_SOURCES_ATTACH_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include "model/source.h"
#include "model/tracker.h"

typedef struct kg_attach_config {
	const char *url;      /* http(s)://[user:password@]host:port[/stream] */
	bool insecure;        /* do not verify the TLS certificate (--trace-insecure) */
	int64_t timeout_us;   /* how long to wait for the stream's header at start (--timeout) */
	bool give_up;         /* a damaged stream ends the source (--json, --once) instead of a reconnection */
	/* while waiting for the header: */
	const volatile sig_atomic_t *stop; /* set by a stop signal: give up at once (NULL: none) */
	int wake_fd;          /* readable when a signal came (the signal pipe), -1 none */
	int key_fd;           /* a terminal in non-canonical mode: 'q' or Ctrl-C gives up, -1 none */
	/* called once when the wait lasts (a third of a second): what it waits for, for how long at most */
	void (*waiting)(void *arg, const char *url, int64_t left_us);
	void *waiting_arg;
} kg_attach_config;

/*
 * Connect and read the stream's header, within the timeout (call before
 * the collector starts); 0, or -1 with err (unreachable, refused, a
 * password wanted, not a kgtop stream), KG_ERR_USAGE for a malformed URL,
 * KG_ERR_STOPPED when a stop signal or a 'q' ended the wait.
 */
int attach_source_new(const kg_attach_config *cfg, kg_source **out, char *err, size_t errsz);
/*
 * True, with why naming the URL, once the source gave up on a damaged
 * stream (cfg->give_up); thread-safe (the collector's thread sets it).
 */
bool attach_gave_up(kg_source *s, char *why, size_t n);
/* The serving kgtop's cluster label (its header's). */
const char *attach_cluster(kg_source *s);
/* The model's settings the serving kgtop derives with; false when its header had none. */
bool attach_model(kg_source *s, kg_tracker_config *cfg);

#endif

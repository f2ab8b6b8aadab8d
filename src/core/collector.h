/*
 * collector.h: the thread that owns every source and publishes frames.
 *
 * The collector loops: wait (poll) on its wake pipe and the sources' file
 * descriptors until a source asks for attention or a deadline passes; let
 * every source make progress; when one has news, drain observations,
 * build one snapshot from every source's state, derive events with the
 * tracker, and publish: swap the pending frame under a mutex and write
 * one byte to a pipe the renderer (or a reporter) polls.  A frame holds
 * the newest snapshot and every event since the reader last took one, so
 * a slow reader skips snapshots but never loses events; a message
 * published after a snapshot keeps it (tests/unit/test_collector.c holds
 * the collector to each of these promises).  Ticks never
 * overlap and never wait for a slow cluster: sources do their network
 * work asynchronously and report the age of their data as health.
 */
#ifndef KGTOP_CORE_COLLECTOR_H
#define KGTOP_CORE_COLLECTOR_H

#include <signal.h>
#include <stdint.h>

#include "model/event.h"
#include "model/history.h"
#include "model/obs.h"
#include "model/snapshot.h"
#include "model/tracker.h"
#include "model/source.h"
#include "model/tap.h"
#include "util/filter.h"

typedef struct kg_frame {
	kg_snapshot *snap;  /* newest snapshot (one reference) */
	kg_evlist events;   /* every event since the previous take, in order */
	uint64_t seq;       /* number of snapshots published so far */
	char *message;      /* result of the last UI command, NULL when none */
	int complete;       /* sources that finished at least one full refresh */
} kg_frame;

typedef struct kg_collector_config {
	int64_t interval_us;    /* publish at least this often: the refresh interval (-i), required */
	int64_t min_publish_us; /* and at most this often (0: 100 ms) */
	const char *cluster;    /* label for the header */
} kg_collector_config;

typedef struct kg_collector kg_collector;

/* Create a collector around a tracker (the collector owns neither); 0, or -1 with err (no pipe to be had). */
int collector_new(const kg_collector_config *cfg, kg_tracker *tracker, kg_collector **out, char *err, size_t errsz);
/*
 * Add a source (before start); the collector closes it at stop.  -1 with
 * err when it holds all it can (64): the source stays the caller's.
 */
int collector_add_source(kg_collector *c, kg_source *s, char *err, size_t errsz);
/* Add a tap (before start): each tick calls every tap in the order added; -1 with err past 8. */
int collector_add_tap(kg_collector *c, const kg_tap *tap, char *err, size_t errsz);
/* Start the thread. */
int collector_start(kg_collector *c, char *err, size_t errsz);
/* A descriptor that becomes readable when a frame is ready. */
int collector_fd(const kg_collector *c);
/* Take the pending frame (NULL when none); drains the descriptor. */
kg_frame *collector_take(kg_collector *c);
/* Free a frame. */
void frame_free(kg_frame *f);
/* Queue a command for the sources of a role (src_role_name(): "demo", "replay"; "*" all); thread-safe. */
void collector_command(kg_collector *c, const char *role, const char *cmd);
/*
 * Say what the screen shows (thread-safe): the groups on it (interned ids)
 * and the selected one (-1 none).  The dashboard calls it when the list
 * scrolls, the filter or the selection changes; sources that cannot ask
 * about every group every time (the kafka source) ask about these first.
 * Until it is called, nobody watches a screen (--json, --once).
 */
void collector_set_focus(kg_collector *c, const int32_t *shown, size_t n, int32_t selected);
/* Ask every source to refresh now (thread-safe). */
void collector_refresh(kg_collector *c);
/*
 * Stop the thread and close every source.  It wakes the thread, which
 * sees the stop between any two sources' polls (each poll's work is
 * bounded), so it returns within one source's poll, never after the
 * interval; a signal's flag (collector_set_stop_flag()) is seen likewise.
 */
void collector_stop(kg_collector *c);
/* Free (after stop). */
void collector_free(kg_collector *c);
/* What collector_run_until_complete() found. */
enum {
	COLLECTOR_COMPLETE = 0,        /* every source completed a refresh */
	COLLECTOR_TIMEOUT = -1,        /* timeout_us passed first: err says which sources are missing */
	COLLECTOR_UNANSWERABLE = -2,   /* every missing source says it cannot answer (KG_SRC_FAILED): err names them */
};
/*
 * Without a thread: loop in the caller until every source reported a
 * complete refresh or timeout_us passed; publishes like the thread does.
 * Returns what it found (COLLECTOR_*).
 */
int collector_run_until_complete(kg_collector *c, int64_t timeout_us, char *err, size_t errsz);
/* Keep only the groups that pass f (-g / -G), for every source (before start). */
void collector_set_filter(kg_collector *c, const kg_filter *f);
/* Set the topic filter (-t, may be NULL): a group with no partition of a topic that passes is not listed. */
void collector_set_topic_filter(kg_collector *c, const kg_filter *f);
/*
 * --once: when every source completed a refresh, the sources whose ops
 * allow it (once_close) close right after the snapshot is built from them,
 * before the tracker derives it (their memory does not add to the
 * model's); nothing of them is called again.  That derivation is the
 * tracker's last (tracker_last_apply).
 */
void collector_set_once(kg_collector *c);
/* A flag a signal handler sets to make collector_run_until_complete() give up. */
void collector_set_stop_flag(kg_collector *c, volatile sig_atomic_t *flag);
/* One iteration in the caller's thread, waiting at most wait_us (tests). */
void collector_step(kg_collector *c, int64_t wait_us);
/* The tracker's history. */
kg_history *collector_history(kg_collector *c);

#endif

/*
 * test_ui_scene.h: scripted clusters fed through the real model
 * (builder_*, builder_finish, tracker_apply with observations), for the
 * golden screens, the UI benchmarks and the tmux test driver.
 *
 * The "seeds" scene replays seed 000's bench: demo-range (range, eager)
 * where consumer-a, b, c each revoke everything at 3.213 s when
 * consumer-d joins, and demo-coop (cooperative-sticky) where round one
 * revokes nothing, consumer-a revokes [4] of [0 4] at 12.121 s and
 * consumer-d is assigned [4] in round two at 12.626 s; plus a polled
 * two-topic group with a static member and a max.poll.interval departure,
 * an Empty group with lag, a group with an orphaned partition, a storm,
 * and a group whose names carry control characters and invalid UTF-8.
 */
#ifndef KGTOP_TEST_UI_SCENE_H
#define KGTOP_TEST_UI_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"
#include "model/obs.h"
#include "model/snapshot.h"
#include "model/tracker.h"

#define SCENE_T0 1700000000000000LL /* 2023-11-14 22:13:20 UTC */

typedef struct ui_scene {
	kg_tracker *tracker;
	kg_snapshot *snap;  /* the newest snapshot (one reference) */
	kg_evlist events;   /* every event derived */
	int64_t t;          /* time reached */
	int step;           /* next scripted step */
} ui_scene;

/* Start a scene (no snapshot yet). */
void scene_init(ui_scene *sc);
/* Apply every scripted step up to time t_us (absolute); returns the number of snapshots made. */
int scene_run_until(ui_scene *sc, int64_t t_us);
/*
 * For a source: with sc->tracker NULL, scene_run_until() only changes the
 * scripted cluster and queues observations; scene_contribute() adds the
 * cluster to a builder and scene_drain() hands the observations over.
 */
void scene_contribute(kg_builder *b);
/* Move the queued observations into q. */
void scene_drain(kg_obsq *q);
/*
 * From now on, scene_contribute() also reports a "kafka" source of status
 * st with message msg whose last good data is last_ok_ago_us old (a
 * stale or failing cluster); KG_SRC_COUNT removes it again.
 */
void scene_kafka(kg_src_status st, const char *msg, int64_t last_ok_ago_us);
/* An "attach" source (--attach: a viewer of another kgtop) saying msg from now on. */
void scene_attach(const char *msg);
/* An "attach" source whose stream broke ago_us ago (the serving kgtop went away), saying msg. */
void scene_attach_down(const char *msg, int64_t ago_us);
/*
 * From now on, scene_contribute() gives the demo source the message msg
 * (its script step, as the demo says it; NULL none), and reports the log
 * trace only when trace is set (the default).
 */
void scene_sources(const char *msg, bool trace);
/* Free the scene. */
void scene_free(ui_scene *sc);
/*
 * Keys to a screen's view v as the user types them while it is shown (a
 * view's own state is its pane's, set by its keys); the shown view stays.
 * A macro, so that this header needs no UI type.
 */
#define scene_view_keys(s, v, keys)                       \
	do {                                              \
		ui_action a_;                             \
		const char *k_ = (keys);                  \
		ui_view_id was_ = (s)->view;              \
		(s)->view = (v);                          \
		for (; *k_; k_++)                         \
			keys_handle((s), *k_, &a_);       \
		(s)->view = was_;                         \
	} while (0)
/* A single group of nmembers x nparts partitions, stable, with history (bench, large grids). */
kg_snapshot *scene_big_group(kg_tracker *tr, const char *name, int nmembers, int nparts, int ticks, int64_t t0);
/* A snapshot of ngroups groups, fed ticks times (RSS bench). */
kg_snapshot *scene_many_groups(kg_tracker *tr, int ngroups, int ticks, int64_t step_us);

#endif

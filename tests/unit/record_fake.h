/*
 * record_fake.h: helpers for the record/replay tests and bench.
 *
 * A scripted source that is the collector's clock (like replay) and hands
 * over one scripted step per poll, so a live run is deterministic; a tap
 * that keeps copies of what the tracker was fed and what it derived (and
 * forwards to an inner tap, the recorder's); and exact comparisons of
 * events, observations and snapshots (the builder's fields) that say what
 * differs.
 */
#ifndef KGTOP_TESTS_RECORD_FAKE_H
#define KGTOP_TESTS_RECORD_FAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/collector.h"
#include "model/event.h"
#include "model/obs.h"
#include "model/snapshot.h"
#include "model/source.h"

typedef struct rf_script {
	int nsteps;
	int64_t (*time)(void *arg, int step);                 /* recorded time of a step */
	void (*state)(void *arg, int step, kg_builder *b);    /* what the sources say at the step */
	void (*obs)(void *arg, int step, kg_obsq *q);         /* observations since the step before */
	void *arg;
} rf_script;

/* A time-master source playing a script, one step per poll, complete after the last. */
kg_source *rf_source_new(const rf_script *script);

/* What a run fed the tracker and what it derived, per tick. */
typedef struct rf_capture {
	kg_tap inner;
	bool has_inner;
	kg_evlist ev;         /* every event, in order */
	kg_snapshot **snaps;  /* every snapshot (one reference each) */
	size_t nsnaps, csnaps;
	kg_obs **obs;         /* copies of every observation, in feeding order */
	int *obs_tick;        /* the tick each was fed at */
	size_t nobs, cobs;
	bool keep_snaps;      /* false: count snapshots only (bench) */
} rf_capture;

/* A tap recording into cap and forwarding to inner (may be NULL). */
void rf_capture_tap(rf_capture *cap, const kg_tap *inner, kg_tap *out);
/* Free what cap holds. */
void rf_capture_free(rf_capture *cap);
/* Step the collector in this thread until a source completes; returns the frames taken, -1 after max steps. */
int rf_run(kg_collector *c, int max_steps);

/* Compare two event lists field by field; false with why. */
bool rf_events_equal(const kg_evlist *a, const kg_evlist *b, char *why, size_t n);
/* Compare two captured observation lists; false with why. */
bool rf_obs_equal(const rf_capture *a, const rf_capture *b, char *why, size_t n);
/* Compare the builder fields of two snapshots (sources named in skip are ignored); false with why. */
bool rf_snapshot_equal(const kg_snapshot *a, const kg_snapshot *b, const char *const *skip, char *why, size_t n);
/* Print an event list as the seeds' lines (debugging). */
void rf_dump(const kg_evlist *l, int64_t t0);

#endif

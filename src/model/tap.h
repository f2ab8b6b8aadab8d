/*
 * tap.h: hooks that see what the tracker is fed and what it derived.
 *
 * The collector calls before() with a tick's observations and the
 * snapshot they go with, just before the tracker consumes them, and
 * after() with the published snapshot and the events derived from it.
 * The collector keeps a list and calls every tap in the order added: the
 * recorder (--record) and the server (--serve: /stream and /metrics)
 * are the taps kgtop installs; tests install their own.  Taps run on the
 * collector thread within the tick: they must not block.  Kept in the
 * model, below the collector that calls it and the recorder and server
 * that implement it.
 */
#ifndef KGTOP_MODEL_TAP_H
#define KGTOP_MODEL_TAP_H

#include "model/event.h"
#include "model/obs.h"
#include "model/snapshot.h"

typedef struct kg_tap {
	void (*before)(void *arg, const kg_obsq *obs, const kg_snapshot *snap);
	void (*after)(void *arg, const kg_snapshot *snap, const kg_evlist *events);
	void *arg;
} kg_tap;

#endif

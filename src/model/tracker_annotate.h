/*
 * tracker_annotate.h: the tracker's annotations part
 * (tracker_annotate.c): each group of the snapshot learns, before it is
 * published, what the tracker knows beyond the broker's word (who consumes
 * what now, each member's lane, status, health and verdict, the group's
 * summary), the same picture goes to the history as a sample, and storms
 * are decided.  Its state is the group's storm flag (tgroup.storm) and
 * the one sample every group's is built in (kg_tracker.smp).  It asks the liveness and episodes parts.
 */
#ifndef KGTOP_MODEL_TRACKER_ANNOTATE_H
#define KGTOP_MODEL_TRACKER_ANNOTATE_H

#include <stdint.h>

#include "model/tracker_int.h"

/* Decide storms for a group (G, when given, learns the share of time rebalancing). */
void tk_eval_storm(kg_tracker *t, tgroup *g, int64_t T, kg_group *G);
/* Annotate group G (g its record) of the snapshot and store a history sample. */
void tk_annotate_group(kg_tracker *t, kg_snapshot *s, tgroup *g, kg_group *G, int64_t T);
/* Free the sample every group's is built in (tracker_free). */
void tk_sample_free(kg_tracker *t);

#endif

/*
 * tracker_fold.h: what the fold's files share (tracker.c's apply loop calls
 * the other two): one handler per observation kind (tracker_obs.c) and the
 * polled picture of a group against what was known (tracker_poll.c).  The
 * fold is where the parts meet: it decides what an input means and calls
 * the parts (tracker_int.h draws the map).
 */
#ifndef KGTOP_MODEL_TRACKER_FOLD_H
#define KGTOP_MODEL_TRACKER_FOLD_H

#include "model/tracker_int.h"

/* tracker_obs.c */
/* Give consumers first reported in one batch their lanes in client id order (their groups' records exist). */
void tk_obs_new_members(kg_tracker *t, const kg_obsq *obs);
/* Fold one observation (its group's record exists, or it is keyed by a client id). */
void tk_apply_obs(kg_tracker *t, kg_obs *o);

/* tracker_poll.c */
/* Fold the polled picture G of one group (g its record). */
void tk_apply_group(kg_tracker *t, tgroup *g, kg_group *G, int64_t T);
/* Free what the polled picture keeps of a group (NULL is fine). */
void tk_polled_free(tk_polled *p);

#endif

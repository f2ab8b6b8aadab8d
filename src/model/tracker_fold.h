/*
 * tracker_fold.h: what the fold's files share (tracker.c's apply loop calls
 * the others): one handler per observation kind (tracker_obs.c, and
 * tracker_records.c for the coordinator's own records) and the polled
 * picture of a group against what was known (tracker_poll.c).  The
 * fold is where the parts meet: it decides what an input means and calls
 * the parts (tracker_int.h draws the map).
 */
#ifndef KGTOP_MODEL_TRACKER_FOLD_H
#define KGTOP_MODEL_TRACKER_FOLD_H

#include "model/tracker_int.h"

/* tracker_obs.c */
/* A stored episode got its real timing from late exact evidence: its retimed event is told once that settles. */
void tk_emit_retimed(kg_tracker *t, tgroup *g, const kg_episode *e, int64_t time);
/* Tell the retimed events whose late evidence settled by tick T (each episode's late rounds read). */
void tk_flush_retimed(kg_tracker *t, int64_t T);
/* Give consumers first reported in one batch their lanes in client id order (their groups' records exist). */
void tk_obs_new_members(kg_tracker *t, const kg_obsq *obs);
/* Fold one observation (its group's record exists, or it is keyed by a client id). */
void tk_apply_obs(kg_tracker *t, kg_obs *o);

/* tracker_poll.c */
/* Fold the polled picture G of one group (g its record). */
void tk_apply_group(kg_tracker *t, tgroup *g, kg_group *G, int64_t T);
/* Free what the polled picture keeps of a group (NULL is fine). */
void tk_polled_free(tk_polled *p);
/* When the last description that showed the group Stable was taken, 0 none. */
int64_t tk_poll_stable_at(const tgroup *g);
/* When the last description that showed the group not rebalancing (Stable, or Empty) was taken, 0 none. */
int64_t tk_poll_calm_at(const tgroup *g);

/* tracker_records.c: the coordinator's own records, one handler per kind (rows of obs_rules[]) */
void tk_obs_generation(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);
void tk_obs_group_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);
void tk_obs_member_meta(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);
void tk_obs_member_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);
void tk_obs_target(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);
/* True when the group's generations are told by its coordinator's records (polling's round signals add none). */
bool tk_records_told(const tgroup *g);
/* When the coordinator's last record of the group's open episode was written, 0 none. */
int64_t tk_records_at(const tgroup *g);
/* True when a KIP-848 group's epoch record was read: its records judge when its reconciliation ends. */
bool tk_records_epoch_told(const tgroup *g);
/* Members the KIP-848 records list now, 0 none. */
int tk_records_members(const tgroup *g);
/* Judge a KIP-848 group's state loaded at kgtop's start, once its members' records are read too. */
void tk_records_loaded_end(kg_tracker *t, tgroup *g);
/* Free what the records told of a group (NULL is fine). */
void tk_records_free(tk_records *r);

#endif

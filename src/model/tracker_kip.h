/*
 * tracker_kip.h: the tracker's KIP-848 part (tracker_kip.c): a consumer
 * group's epochs, its members' epochs, states, types and targets, and the
 * consumer protocol's rules for episodes.
 *
 * The consumer protocol (KIP-848) has no group-wide barrier: the
 * coordinator bumps the group epoch when membership or subscriptions
 * change, computes a target assignment for that epoch, and each member
 * reconciles towards its own target with an epoch of its own: it revokes
 * what it must give up (its epoch stays), then gets what it awaits once
 * the previous owners released it (its epoch becomes the target's).  So
 * an episode opens on a group epoch bump (exact: a coordinator's log, a
 * record) or, polling alone, on a target that changed (or members not at
 * their targets); each member's steps are its revokes and assignments,
 * with the member epoch where a source gives it; it ends when every
 * member reached the assignment epoch, the group epoch's (exact: a record
 * or log line of every member; once a group's epoch record is read, its
 * records judge with the members they list, tracker_records.c) or holds
 * its target (polled: the description's current and target assignments).
 * Rounds do not apply.
 *
 * Its state: tk_kgroup per group (g->kg) and tk_kmember per member
 * (m->km), both private to tracker_kip.c.  The fold calls it for the
 * KIP-848 observations (obs.h) and a consumer group's description; it
 * stands on episodes (opening, steps, closing), liveness and the ground.
 */
#ifndef KGTOP_MODEL_TRACKER_KIP_H
#define KGTOP_MODEL_TRACKER_KIP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/obs.h"
#include "model/tracker_int.h"

/* The part's state of a group and of a member (NULL frees nothing). */
tk_kgroup *tk_kgroup_new(void);
void tk_kgroup_free(tk_kgroup *k);
tk_kmember *tk_kmember_new(void);
void tk_kmember_free(tk_kmember *k);

/* Observations (the fold's handlers call these) */
/* What any observation says of its group's type and its member's protocol (m may be NULL). */
void tk_kip_facts(tgroup *g, tmember *m, const kg_obs *o);
/* The group epoch was bumped (KG_OBS_EPOCH): an episode opens. */
void tk_kip_group_epoch(kg_tracker *t, tgroup *g, const kg_obs *o);
/* A target assignment was computed for an epoch (KG_OBS_TARGET_EPOCH). */
void tk_kip_target_epoch(kg_tracker *t, tgroup *g, const kg_obs *o);
/* A member's target assignment (KG_OBS_TARGET_MEMBER). */
void tk_kip_target(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);
/*
 * A member's current assignment at its epoch (KG_OBS_MEMBER_EPOCH): its
 * step (unless a description asked later told a newer holding), and the
 * episode's end when every member reached the assignment epoch, unless the
 * group's records tell its epochs: then they judge (tracker_records.c).
 */
void tk_kip_member_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);
/*
 * The evidence that the reconciliation ended at time (a record or log line
 * of the last member to reach epoch, -1 unknown), read after a description
 * closed its episode (every member held its target when it was asked):
 * within the bounds polling gave, it is the episode's end, exactly, told
 * as retimed (as a late generation record or log line is).
 */
void tk_kip_late_end(kg_tracker *t, tgroup *g, int64_t time, int32_t epoch);

/* Polling */
/* True when the group runs the consumer protocol as far as the tracker knows (type or protocol). */
bool tk_kip_is_consumer(const tgroup *g, const kg_group *G);
/* The group's last bump has its target computed, told by time (a source told both). */
bool tk_kip_target_told(const tgroup *g, int64_t time);
/*
 * A consumer group's description, after its membership was folded:
 * episodes open on a changed target or members away from theirs, members'
 * steps are what their current assignment lost and gained, and it closes
 * once every member holds its target.  first: the group's first
 * description; changed: members joined or left in it.
 */
void tk_kip_poll(kg_tracker *t, tgroup *g, const kg_group *G, int64_t T, bool first, bool changed);

/* The snapshot */
/* Write what the part knows into the snapshot's group: epochs, members' epochs, states, types, newer targets. */
void tk_kip_annotate(kg_tracker *t, kg_snapshot *s, tgroup *g, kg_group *G);

#endif

/*
 * tracker_lanes.h: the tracker's members-and-lanes part (tracker_lanes.c):
 * finding a member by id or client, adding one on its lane, its joins and
 * leaves (announced once each, a late reason amends the leave), gone and
 * back.  It keeps the group's member list and index (tgroup.m, by_id) and
 * makes each member's part state with it; a join or leave tells the
 * episodes part (trigger, cost) and the liveness part (a member back is no
 * longer silent).
 */
#ifndef KGTOP_MODEL_TRACKER_LANES_H
#define KGTOP_MODEL_TRACKER_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "model/tracker_int.h"

/* Find a member by member id (the newest), NULL when none. */
tmember *tk_find_member(tgroup *g, const char *member_id);
/* Find a member by member id for a client (member ids are reused across clients). */
tmember *tk_find_member_of(tgroup *g, const char *member_id, const char *client_id);
/* Find a member by client id, a present one first. */
tmember *tk_find_by_client(tgroup *g, const char *client_id);
/* Lane l is m's (again) from now. */
void tk_lane_claim(kg_lane *l, const tmember *m, int64_t now);
/* A member whose client id was guessed from its id (a log named it) learns the real one; its lane too. */
void tk_member_learn_client(kg_tracker *t, tgroup *g, tmember *m, const char *client_id, const char *host);
/* A lane's last leave and why. */
void tk_lane_set_leave(kg_lane *l, kg_reason reason, const char *text);
/* Create a member record on its lane, with its parts' state. */
tmember *tk_add_member(kg_tracker *t, tgroup *g, const char *member_id, const char *client_id, const char *host,
		       const char *instance_id, int64_t now);
/* Free a member record and its parts' state. */
void tk_member_free(tmember *m);
/* A member present again (it reports, or a description lists it after it left): its leave and silence are over. */
void tk_member_revive(tgroup *g, tmember *m);
/* Mark a member gone from its lane. */
void tk_member_gone(kg_tracker *t, tgroup *g, tmember *m, int64_t now);
/* Announce a member that joined (once). */
void tk_announce_join(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_evidence evid);
/* Announce a member that left (once), with its reason; a later reason amends it. */
void tk_announce_leave(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_reason reason, const char *text,
		       kg_evidence evid);

#endif

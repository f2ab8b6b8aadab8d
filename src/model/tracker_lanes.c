/*
 * tracker_lanes.c: member identity and lanes.
 *
 * A tmember is one member id as the tracker saw it; a lane (a row of the
 * timeline, kept in the history) is a consumer's identity: its instance id
 * when static, else its client id and host.  A member that comes back
 * under a new id takes its old lane again when that is free.  Member ids
 * are not identities: the mock cluster reuses them, so a lookup by id
 * also checks the client.  Lookups by id go through the group's index
 * (by_id: the newest member with each id); only an id reused by another
 * client falls back to a scan.  Joins and leaves are announced here once
 * each, and a leave's reason learnt late amends what was told.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker_episode.h"
#include "model/tracker_int.h"
#include "model/tracker_kip.h"
#include "model/tracker_lanes.h"
#include "model/tracker_live.h"

#define LANE_LETTERS 62 /* A-Z a-z 0-9: the timeline's rows */

/* Find a member by member id (the newest with it). */
tmember *
tk_find_member(tgroup *g, const char *member_id)
{
	if (member_id == NULL)
		return NULL;
	return hmap_get(&g->by_id, member_id);
}

/*
 * A member's client id is no client's: read from the member id a
 * coordinator's log named it by alone, in a KIP-848 group (its member ids
 * are random and hold none; a classic id does, "<client-id>-<uuid>").
 */
static bool
client_unknown(const tgroup *g, const kg_group *G, const tmember *m)
{
	return m->client_id == NULL || *m->client_id == '\0' || (m->client_guessed && tk_kip_is_consumer(g, G));
}

/*
 * The snapshot's entry of a member, NULL when absent.  A member id the
 * snapshot gives to another client (the mock cluster reuses ids) is not
 * this member's, unless its client id is no client's (client_unknown):
 * the description tells it.
 */
const kg_member *
tk_snap_member(const tgroup *g, const kg_group *G, const tmember *m)
{
	int i = group_member_index(G, m->member_id);
	const kg_member *mm = i >= 0 ? &G->members[i] : NULL;
	if (mm != NULL && *mm->client_id != '\0' && !client_unknown(g, G, m) && strcmp(m->client_id, mm->client_id) != 0)
		return NULL;
	return mm;
}

/*
 * Find a member by id for a client: the newest member with that id whose
 * client is that one (or unknown).  librdkafka's mock cluster makes member
 * ids from pointers and reuses them, so an id that now comes from another
 * client is a new member, not a departed one back.
 */
tmember *
tk_find_member_of(tgroup *g, const char *member_id, const char *client_id)
{
	size_t i;
	tmember *newest;
	if (member_id == NULL || client_id == NULL || *client_id == '\0')
		return tk_find_member(g, member_id);
	newest = tk_find_member(g, member_id);
	if (newest == NULL)
		return NULL;
	/* a static member's client must match */
	if (client_unknown(g, NULL, newest) || strcmp(newest->client_id, client_id) == 0)
		return newest;
	/* the id is another client's now: an older member of this client may still have it */
	for (i = g->nm; i > 0; i--) {
		tmember *m = g->m[i - 1];
		if (strcmp(m->member_id, member_id) == 0 &&
		    (m->client_id == NULL || *m->client_id == '\0' || strcmp(m->client_id, client_id) == 0))
			return m;
	}
	return NULL;
}

/* Find a present member by client id (metrics are keyed by it). */
tmember *
tk_find_by_client(tgroup *g, const char *client_id)
{
	size_t i;
	tmember *best;
	if (client_id == NULL)
		return NULL;
	best = hmap_get(&g->by_client, client_id);
	if (best == NULL || best->present)
		return best; /* no member has it; or the first in the list does, present */
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		if (m->client_id != NULL && strcmp(m->client_id, client_id) == 0) {
			if (m->present)
				return m;
			if (best == NULL || m->last_seen > best->last_seen)
				best = m;
		}
	}
	return best;
}

/* Count m in (d 1) or out of (d -1) its lane's present members. */
static void
lane_count(tgroup *g, const tmember *m, int d)
{
	if (m->lane < 0)
		return;
	if (m->lane >= g->nlane_here) {
		int n = KG_MAX(m->lane + 1, 2 * g->nlane_here);
		g->lane_here = xreallocarray(g->lane_here, (size_t)n, sizeof *g->lane_here);
		memset(g->lane_here + g->nlane_here, 0, (size_t)(n - g->nlane_here) * sizeof *g->lane_here);
		g->nlane_here = n;
	}
	g->lane_here[m->lane] += d;
}

/* True when a present member other than m is on lane (m counted when present: lane_count). */
static bool
lane_taken(const tgroup *g, int lane, const tmember *m)
{
	int here = lane >= 0 && lane < g->nlane_here ? g->lane_here[lane] : 0;
	return here - (m->present && m->counted && m->lane == lane ? 1 : 0) > 0;
}

/* Lane l is m's (again) from now. */
void
tk_lane_claim(kg_lane *l, const tmember *m, int64_t now)
{
	l->present = true;
	free(l->member_id);
	l->member_id = xstrdup(m->member_id);
	l->last_seen_us = now;
}

/* A member whose client id was guessed from its id learns the real one (and host): so does its lane. */
void
tk_member_learn_client(kg_tracker *t, tgroup *g, tmember *m, const char *client_id, const char *host)
{
	kg_lane *l;
	if (!m->client_guessed || client_id == NULL || *client_id == '\0')
		return;
	m->client_guessed = false;
	tk_trigger_rename(t, g, m->client_id, client_id);
	l = history_lane(t->h, g->id, m->lane);
	if (l != NULL && l->client_id != NULL && strcmp(l->client_id, m->client_id) == 0) {
		free(l->client_id);
		l->client_id = xstrdup(client_id);
		if (host != NULL && *host != '\0') {
			free(l->host);
			l->host = xstrdup(host);
		}
	}
	tk_set_str(&m->client_id, client_id);
}

/* A lane's last leave and why. */
void
tk_lane_set_leave(kg_lane *l, kg_reason reason, const char *text)
{
	l->last_leave = reason;
	free(l->leave_text);
	l->leave_text = text != NULL ? xstrdup(text) : NULL;
}

/* Pick the lane for a new member: a free lane of the same identity, else a new one. */
static int
assign_lane(kg_tracker *t, tgroup *g, tmember *m, int64_t now)
{
	int i, n = history_nlanes(t->h, g->id), oldest = -1;
	kg_lane *lanes = n > 0 ? history_lane(t->h, g->id, 0) : NULL; /* the group's lanes, one array */
	for (i = 0; i < n; i++) {
		kg_lane *l = &lanes[i];
		if (l->present)
			continue;
		if (oldest < 0 || l->last_seen_us < lanes[oldest].last_seen_us)
			oldest = i;
		if (!tk_lane_is(l, m) || lane_taken(g, i, m))
			continue;
		tk_lane_claim(l, m, now);
		return i;
	}
	/*
	 * Lanes are rows of the timeline: once the letters run out, a lane
	 * whose member left longer ago than the history keeps is free again
	 * (a pod that restarts with a new address every minute would grow
	 * rows for ever otherwise).
	 */
	if (n >= LANE_LETTERS && oldest >= 0 && lanes[oldest].last_seen_us < now - t->cfg.window_us) {
		history_lane_reuse(t->h, g->id, oldest, m->client_id, m->member_id, m->instance_id, m->host, now);
		return oldest;
	}
	return history_lane_add(t->h, g->id, m->client_id, m->member_id, m->instance_id, m->host, now);
}

/* Free a member record and its parts' state. */
void
tk_member_free(tmember *m)
{
	free(m->member_id);
	free(m->client_id);
	free(m->host);
	free(m->instance_id);
	free(m->asg);
	free(m->stable);
	free(m->leave_text);
	free(m->gone_asg);
	tk_live_free(m->live);
	tk_epmember_free(m->eps);
	tk_kmember_free(m->km);
	free(m);
}

/* Create a member record. */
tmember *
tk_add_member(kg_tracker *t, tgroup *g, const char *member_id, const char *client_id, const char *host,
	      const char *instance_id, int64_t now)
{
	tmember *m = xcalloc(1, sizeof *m);
	m->member_id = xstrdup(member_id ? member_id : "");
	m->client_id = xstrdup(client_id ? client_id : "");
	m->host = xstrdup(host ? host : "");
	m->instance_id = instance_id && *instance_id ? xstrdup(instance_id) : NULL;
	m->first_seen = m->last_seen = now;
	m->present = true;
	m->live = tk_live_new();
	m->eps = tk_epmember_new();
	m->km = tk_kmember_new();
	m->lane = assign_lane(t, g, m, now);
	lane_count(g, m, 1);
	m->counted = true;
	util_grow(&g->m, &g->cm, g->nm + 1, sizeof *g->m);
	g->m[g->nm++] = m;
	hmap_put(&g->by_id, m->member_id, m);
	if (hmap_get(&g->by_client, m->client_id) == NULL)
		hmap_put(&g->by_client, m->client_id, m);
	return m;
}

/* A member present again: its leave and silence are over. */
void
tk_member_revive(tgroup *g, tmember *m)
{
	if (!m->present)
		lane_count(g, m, 1);
	m->present = true;
	m->left_reported = false;
	m->left_exact = false;
	tk_live_revive(m);
}

/* Mark a member gone from its lane. */
void
tk_member_gone(kg_tracker *t, tgroup *g, tmember *m, int64_t now)
{
	/* a new incarnation on the lane (the mock reuses member ids) keeps it present */
	kg_lane *l = lane_taken(g, m->lane, m) ? NULL : history_lane(t->h, g->id, m->lane);
	const kg_tp *h;
	int nh;
	h = tk_held(m, &nh);
	tk_set_tp(&m->gone_asg, &m->ngone_asg, h, nh);
	m->gone_time = now;
	m->gone_lo = m->gone_hi = now;
	g->gone_latest = KG_MAX(g->gone_latest, now);
	if (m->present)
		lane_count(g, m, -1);
	m->present = false;
	m->away_since = 0;
	if (l != NULL && l->member_id != NULL && strcmp(l->member_id, m->member_id) == 0) {
		l->present = false;
		l->last_seen_us = now;
		tk_lane_set_leave(l, m->leave_reason != KG_REASON_NONE ? m->leave_reason : KG_REASON_UNKNOWN, m->leave_text);
	}
}

/* How events and triggers name a member: its client id, else its member id. */
static const char *
member_name(const tmember *m)
{
	return m->client_id && *m->client_id ? m->client_id : m->member_id;
}

/* Announce a member that joined (once). */
void
tk_announce_join(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_evidence evid)
{
	kg_event *ev;
	/*
	 * a member the group's first description showed was taken for one
	 * there before kgtop; a coordinator's log or record read after it
	 * says when it joined (a group that formed as kgtop watched)
	 */
	if (m->announced && !(m->assumed && evid == KG_EVID_EXACT))
		return;
	m->announced = true;
	m->assumed = false;
	m->join_time = time;
	ev = tk_member_event(KG_EV_MEMBER_JOINED, time, g, m);
	ev->evidence = evid;
	tk_emit(t, g, ev);
	tk_trigger_joined(g, time, member_name(m));
	if (g->ep != NULL)
		tk_ep_member(g, m)->joined = true;
}

/*
 * A reason for a leave already reported without one (polling saw the member
 * gone before the coordinator's log line said why): the lane, the episode
 * it triggered and the event list learn it.
 */
static void
amend_leave(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_reason reason, const char *text)
{
	kg_lane *l;
	kg_event *ev;
	kg_reason was = m->leave_reason;
	/* only a trace's reason amends one polling gave: none, LEFT, or one inferred from a silence */
	if (reason == KG_REASON_NONE || reason == KG_REASON_UNKNOWN || reason == KG_REASON_LEFT || reason == KG_REASON_TIMEOUT ||
	    (was != KG_REASON_NONE && was != KG_REASON_UNKNOWN && was != KG_REASON_LEFT && !m->leave_inferred))
		return;
	m->leave_reason = reason;
	m->leave_inferred = false;
	if (text != NULL)
		tk_set_str(&m->leave_text, text);
	l = history_lane(t->h, g->id, m->lane);
	if (l != NULL && !l->present)
		tk_lane_set_leave(l, reason, m->leave_text);
	tk_trigger_amend(t, g, member_name(m), was, reason);
	ev = tk_member_event(KG_EV_MEMBER_LEFT, time, g, m);
	ev->reason = reason;
	ev->evidence = KG_EVID_EXACT;
	event_text(ev, m->leave_text);
	tk_emit(t, g, ev);
}

/* Announce a member that left (once), with its reason. */
void
tk_announce_leave(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_reason reason, const char *text,
		  kg_evidence evid)
{
	kg_event *ev;
	sbuf s = { 0 };
	const kg_tp *h;
	int nh;
	int64_t hi, lo;
	if (m->left_reported) {
		amend_leave(t, g, m, time, reason, text);
		return;
	}
	m->left_reported = true;
	if (reason != KG_REASON_NONE)
		m->leave_reason = reason;
	m->leave_inferred = evid != KG_EVID_EXACT && reason != KG_REASON_LEFT && reason != KG_REASON_UNKNOWN;
	if (text != NULL)
		tk_set_str(&m->leave_text, text);
	ev = tk_member_event(KG_EV_MEMBER_LEFT, time, g, m);
	ev->reason = m->leave_reason != KG_REASON_NONE ? m->leave_reason : KG_REASON_UNKNOWN;
	ev->evidence = evid;
	event_text(ev, m->leave_text);
	h = tk_held(m, &nh);
	ev->parts = tp_dup(h, nh);
	ev->nparts = ev->parts ? nh : 0;
	tk_emit(t, g, ev);
	tk_leave_trigger(&s, member_name(m), ev->reason, evid);
	tk_set_trigger(g, time, ev->reason, sbuf_str(&s));
	sbuf_free(&s);
	/* its partitions had no consumer since it stopped: proven by its leave, not before its last sign of life */
	tk_live_stop_bounds(m, time, evid, ev->reason, &hi, &lo);
	if (g->ep != NULL) {
		tk_ep_member(g, m)->left = true;
		tk_parts_stop(g, h, nh, hi, lo);
	}
	tk_settle_member_time(g, m, time, tk_lo(g, time, evid));
	tk_member_gone(t, g, m, time);
	m->gone_hi = hi;
	m->gone_lo = lo;
	m->left_exact = evid == KG_EVID_EXACT;
}

/*
 * tracker.c: derive events, episodes, lanes, status, health and storms.
 *
 * Per group the tracker keeps a tgroup with one tmember per member id it
 * has seen.  Each apply folds the observations first (they are at or
 * before the snapshot's time: the collector drains them before it asks the
 * sources for their state), then the polled picture of every group.
 *
 * Two kinds of members:
 *  - exact members have revoke/assign callbacks reported (the demo, jsonl
 *    traces); their assignment, revokes and rounds come from those;
 *  - polled members are only described by the broker; their revokes are
 *    derived: eager members revoke everything they held at the start of
 *    every round (the protocol says so, evidence PROTOCOL); cooperative
 *    (and unknown) members revoke what they held at the last Stable
 *    description minus what they hold now (evidence POLLED).
 *
 * An episode opens at the first evidence and closes when the group is
 * Stable with every consumed partition owned and every exact member
 * synced; exact episodes also wait for a short quiet spell, because a
 * cooperative member revokes right after its round-one sync and rejoins.
 * Its end is the last sync's own time when known.  Rounds advance when a
 * join signal (a non-Stable state, a JoinGroup, a coordinator's
 * "preparing") follows a sync.
 *
 * This file is the fold: the public API, the configuration, the apply
 * loop, which calls the observation handlers (tracker_obs.c), the polled
 * diff (tracker_poll.c) and then each part in turn, the group records,
 * source health and pruning.  tracker_int.h draws the map of the parts and
 * the record they share.
 */
#include "config.h"

#include "model/tracker.h"

#include <stdlib.h>
#include <string.h>

#include "model/tracker_annotate.h"
#include "model/tracker_episode.h"
#include "model/tracker_fold.h"
#include "model/tracker_int.h"
#include "model/tracker_kip.h"
#include "model/tracker_lanes.h"
#include "model/tracker_live.h"
#include "model/tracker_progress.h"

/* The model's own constants, which no option sets (a recording may carry others) */
#define STORM_RATIO 0.5
#define ORPHAN_GRACE_US (30LL * 1000000)

/* Create a tracker with the settings it is handed. */
kg_tracker *
tracker_new(const kg_tracker_config *cfg)
{
	kg_tracker *t = xcalloc(1, sizeof *t);
	t->cfg = *cfg;
	if (t->cfg.storm_ratio <= 0)
		t->cfg.storm_ratio = STORM_RATIO;
	if (t->cfg.orphan_grace_us <= 0)
		t->cfg.orphan_grace_us = ORPHAN_GRACE_US;
	t->h = history_new(t->cfg.window_us);
	t->eb = tk_epbook_new();
	/* no progress state at all for a replay of a recording made before verdicts: it derives what its kgtop did */
	t->pg = tk_prog_new(&t->cfg);
	return t;
}

/* Free a group. */
static void
tgroup_free(tgroup *g)
{
	size_t i;
	for (i = 0; i < g->nm; i++)
		tk_member_free(g->m[i]);
	free(g->m);
	hmap_free(&g->by_id);
	hmap_free(&g->by_client);
	free(g->lane_here);
	tk_epgroup_free(g->eps);
	tk_polled_free(g->pl);
	tk_records_free(g->rec);
	tk_resume_free(g->res);
	tk_kgroup_free(g->kg);
	free(g->assignor);
	free(g);
}

/* The group record, created on demand with each part's state; NULL for a negative id. */
static tgroup *
group_get(kg_tracker *t, int32_t id)
{
	tgroup *g;
	if (id < 0)
		return NULL;
	if ((size_t)id >= t->cg) {
		size_t old = t->cg, n = old ? old : 64;
		while (n <= (size_t)id)
			n *= 2;
		t->g = xreallocarray(t->g, n, sizeof *t->g);
		memset(t->g + old, 0, (n - old) * sizeof *t->g);
		t->cg = n;
	}
	g = t->g[id];
	if (g == NULL) {
		g = xcalloc(1, sizeof *g);
		g->id = id;
		g->generation = -1;
		g->lag = -1;
		g->single_topic = true;
		g->eps = tk_epgroup_new();
		g->kg = tk_kgroup_new();
		g->step_epoch = -1;
		t->g[id] = g;
	}
	return g;
}

/* Free the tracker. */
void
tracker_free(kg_tracker *t)
{
	size_t i;
	if (t == NULL)
		return;
	for (i = 0; i < t->cg; i++) {
		if (t->g[i] != NULL)
			tgroup_free(t->g[i]);
	}
	free(t->g);
	free(t->retiming);
	for (i = 0; i < (size_t)t->nsrc; i++) {
		free((char *)t->src[i].name);
		free((char *)t->src[i].message);
	}
	free(t->src);
	tk_epbook_free(t->eb);
	tk_prog_free(t->pg);
	tk_sample_free(t);
	history_free(t->h);
	free(t);
}

/* The history. */
kg_history *
tracker_history(kg_tracker *t)
{
	return t->h;
}

/* Emit events for source health changes. */
static void
track_sources(kg_tracker *t, const kg_snapshot *s)
{
	int i, j;
	for (i = 0; i < s->nsources; i++) {
		const kg_source_health *h = &s->sources[i];
		const kg_source_health *p = NULL;
		for (j = 0; j < t->nsrc; j++) {
			if (strcmp(t->src[j].name, h->name) == 0)
				p = &t->src[j];
		}
		if (h->status == KG_SRC_CONNECTING)
			continue;
		if (p == NULL || p->status != h->status ||
		    (h->status == KG_SRC_ERROR && strcmp(p->message ? p->message : "", h->message ? h->message : "") != 0)) {
			kg_event *ev = event_new(KG_EV_SOURCE, s->time_us, -1);
			sbuf b = { 0 };
			if (p == NULL && h->status == KG_SRC_OK) {
				sbuf_free(&b);
				event_unref(ev);
				continue;
			}
			sbuf_addf(&b, "source %s: %s", h->name, src_status_name(h->status));
			if (h->message != NULL && *h->message)
				sbuf_addf(&b, ": %s", h->message);
			event_text(ev, sbuf_str(&b));
			sbuf_free(&b);
			tk_emit(t, NULL, ev);
		}
	}
	for (j = 0; j < t->nsrc; j++) {
		free((char *)t->src[j].name);
		free((char *)t->src[j].message);
	}
	free(t->src);
	t->nsrc = s->nsources;
	t->src = xcalloc((size_t)(s->nsources ? s->nsources : 1), sizeof *t->src);
	for (i = 0; i < s->nsources; i++) {
		t->src[i] = s->sources[i];
		t->src[i].name = xstrdup(s->sources[i].name);
		t->src[i].message = xstrdup(s->sources[i].message);
	}
}

/* Forget members gone longer ago than the history keeps (their lanes stay in the history). */
static void
prune_members(kg_tracker *t, int64_t T)
{
	size_t gi, i, w;
	for (gi = 0; gi < t->cg; gi++) {
		tgroup *g = t->g[gi];
		if (g == NULL)
			continue;
		for (i = 0, w = 0; i < g->nm; i++) {
			tmember *m = g->m[i];
			if (!m->present && m->last_seen < T - t->cfg.window_us && (m->gone_time == 0 || m->gone_time < T - t->cfg.window_us)) {
				if (hmap_get(&g->by_id, m->member_id) == m)
					hmap_del(&g->by_id, m->member_id);
				if (hmap_get(&g->by_client, m->client_id) == m)
					hmap_del(&g->by_client, m->client_id);
				tk_member_free(m);
			} else {
				g->m[w++] = m;
			}
		}
		g->nm = w;
		/* an id whose newest member went: the newest of the others with it takes the index */
		for (i = g->nm; i > 0; i--) {
			if (hmap_get(&g->by_id, g->m[i - 1]->member_id) == NULL)
				hmap_put(&g->by_id, g->m[i - 1]->member_id, g->m[i - 1]);
		}
		/* a client whose oldest member went: the oldest of the others with it */
		for (i = 0; i < g->nm; i++) {
			if (hmap_get(&g->by_client, g->m[i]->client_id) == NULL)
				hmap_put(&g->by_client, g->m[i]->client_id, g->m[i]);
		}
	}
}

/*
 * The end of a tick for every known group: gone when the snapshot no
 * longer has it (absent), a log-only episode settled, static members away
 * longer than their session.
 */
static void
group_tick_end(kg_tracker *t, tgroup *g, int64_t T, bool absent)
{
	size_t q;
	if (g->present && absent) {
		tk_emit(t, g, event_new(KG_EV_GROUP_GONE, T, g->id));
		if (g->ep != NULL)
			tk_close_episode(t, g, T, g->poll_lo, "group gone");
		for (q = 0; q < g->nm; q++) {
			if (g->m[q]->present)
				tk_member_gone(t, g, g->m[q], T);
		}
		g->present = false;
		g->calm = false;
		tk_progress_forget(t, g->id);
	}
	if (g->ep != NULL && !g->seen)
		tk_close_log_settled(t, g, T);
	if (g->present)
		tk_heartbeat_silence(t, g, T);
	for (q = 0; q < g->nm; q++) {
		tmember *m = g->m[q];
		if (m->present && m->away_since > 0 && T - m->away_since > tk_live_session_us(t, g, m))
			tk_announce_leave(t, g, m, T, KG_REASON_SESSION_TIMEOUT, "static member did not come back",
					  KG_EVID_EXACT);
	}
}

/*
 * When the cluster's data of this snapshot was taken: the refresh of the
 * source that describes groups (its last good answer), else the
 * snapshot's own time.  A change a description shows happened after the
 * description before it was taken.
 */
static int64_t
description_time(const kg_snapshot *s)
{
	int i;
	for (i = 0; i < s->nsources; i++) {
		const kg_source_health *h = &s->sources[i];
		if (h->role == KG_ROLE_CLUSTER && h->last_ok_us > 0 && h->last_ok_us <= s->time_us)
			return h->last_ok_us;
	}
	return s->time_us;
}

/* Fold observations and a snapshot. */
void
tracker_apply(kg_tracker *t, kg_obsq *obs, kg_snapshot *snap, kg_evlist *out)
{
	int64_t T = snap->time_us;
	size_t i;
	int k;
	bool *in_snap;

	history_lock(t->h);
	t->out = out;
	t->tick = T;
	t->desc_time = description_time(snap);
	t->interval_us = snap->interval_us;
	if (obs != NULL) {
		obsq_sort(obs);
		for (i = 0; i < obs->n; i++)
			group_get(t, obs->v[i]->group); /* the record of every group named (by client id: one known already) */
		tk_obs_new_members(t, obs);
		for (i = 0; i < obs->n; i++) {
			if (obs->v[i]->time_us > T)
				obs->v[i]->time_us = T; /* a clock ahead of ours: keep the order */
			tk_apply_obs(t, obs->v[i]);
		}
		for (i = 0; i < obs->n; i++) {
			tgroup *g = obs->v[i]->loaded ? tk_group_find(t, obs->v[i]->group) : NULL;
			if (g != NULL)
				tk_records_loaded_end(t, g); /* its members' records read too */
		}
		obsq_clear(obs);
	}
	tk_flush_retimed(t, T);
	track_sources(t, snap);

	for (k = 0; k < snap->ngroups; k++)
		tk_apply_group(t, group_get(t, snap->groups[k].id), &snap->groups[k], T);
	in_snap = xcalloc(t->cg ? t->cg : 1, sizeof *in_snap);
	for (k = 0; k < snap->ngroups; k++)
		in_snap[snap->groups[k].id] = true;

	for (i = 0; i < t->cg; i++) {
		if (t->g[i] != NULL)
			group_tick_end(t, t->g[i], T, !in_snap[i]);
	}
	free(in_snap);

	tk_progress(t, snap, T);
	for (k = 0; k < snap->ngroups; k++) {
		kg_group *G = &snap->groups[k];
		tgroup *g = group_get(t, G->id);
		tk_eval_storm(t, g, T, G);
		tk_annotate_group(t, snap, g, G, T);
		tk_kip_annotate(t, snap, g, G);
	}
	if (T - t->now >= 10LL * 1000000 || t->now == 0) {
		history_trim(t->h, T);
		prune_members(t, T);
		t->now = T;
	}
	t->applied++;
	if (t->seen_groups_now)
		t->seen_groups = true;
	t->out = NULL;
	history_unlock(t->h);
}

/*
 * tracker_annotate.c: annotate the snapshot before it is published.
 *
 * After the tick's observations and descriptions are folded, each group of
 * the snapshot learns what the tracker knows beyond the broker's word: who
 * consumes what now (a broker describes a rebalancing group without
 * assignments), each member's lane, status and health against its limits,
 * the in-flight and moved partitions, the group's summary (episodes,
 * storm, lag trend).  The same picture goes to the history as a sample.
 * Storms are decided here too, from the history's episodes in the window.
 * A member's silence and health are tracker_live.c's to tell.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rows.h"
#include "model/tracker_annotate.h"
#include "model/tracker_episode.h"
#include "model/tracker_int.h"
#include "model/tracker_live.h"

#define STORM_MIN_OBSERVED (60LL * 1000000) /* a share of time rebalancing is judged after this long watched */
#define STORM_EPISODES 256 /* the newest episodes of the window a storm looks at */
#define STORM_RESTART 2    /* a member may leave and come back once (a restart) before its rebalances are churn */

/* The assignment a member effectively consumes now. */
static const kg_tp *
effective(const tgroup *g, const tmember *m, const kg_group *G, int *n)
{
	const kg_member *mm;
	if (m->exact) {
		*n = m->nasg;
		return m->asg;
	}
	/* a consumer group's description always says what each member holds: no barrier hides it */
	if (state_rebalancing(G->state) && g->proto != KG_PROTO_CONSUMER) {
		if (g->proto == KG_PROTO_EAGER) {
			*n = 0;
			return NULL;
		}
		*n = m->nstable;
		return m->stable;
	}
	mm = tk_snap_member(g, G, m);
	if (mm == NULL) {
		*n = 0;
		return NULL;
	}
	*n = mm->nassigned;
	return mm->assignment;
}

/* What a member is doing now. */
static kg_member_status
member_status(const tgroup *g, const tmember *m, int neff)
{
	if (m->away_since > 0)
		return KG_MEMBER_AWAY;
	if (tk_live_silent_since(m) > 0)
		return KG_MEMBER_SILENT;
	if (g->ep != NULL) {
		if (neff == 0)
			return KG_MEMBER_STOPPED;
		if (tk_ep_partial(m))
			return KG_MEMBER_PARTIAL;
		return KG_MEMBER_CONSUMING;
	}
	return neff == 0 ? KG_MEMBER_IDLE : KG_MEMBER_CONSUMING;
}

/*
 * The history sample of the group at T, every lane absent and every
 * partition unowned until told: built in the tracker's one sample, whose
 * arrays grow to the largest group's and are reused (the history copies
 * a sample only when it differs from the group's last).
 */
static kg_sample *
sample_init(kg_tracker *t, const tgroup *g, const kg_group *G, int64_t T, int nl)
{
	kg_sample *smp = &t->smp;
	size_t np = (size_t)G->nparts;
	int k;
	if ((size_t)nl > t->smp_clanes) {
		t->smp_clanes = (size_t)nl;
		smp->lane_status = xrealloc(smp->lane_status, t->smp_clanes);
		smp->lane_nassigned = xreallocarray(smp->lane_nassigned, t->smp_clanes, sizeof *smp->lane_nassigned);
	}
	if (np > t->smp_cparts) {
		t->smp_cparts = np;
		smp->parts = xreallocarray(smp->parts, np, sizeof *smp->parts);
		smp->owner = xreallocarray(smp->owner, np, sizeof *smp->owner);
		smp->pstat = xrealloc(smp->pstat, np);
	}
	smp->time_us = T;
	smp->state = G->state;
	smp->in_episode = g->ep != NULL;
	smp->lag = G->lag;
	smp->nlanes = nl;
	if (nl > 0) {
		memset(smp->lane_status, KG_LANE_ABSENT, (size_t)nl);
		memset(smp->lane_nassigned, 0, (size_t)nl * sizeof *smp->lane_nassigned);
	}
	smp->nparts = G->nparts;
	for (k = 0; k < G->nparts; k++) {
		smp->parts[k] = G->parts[k].tp;
		smp->owner[k] = -1;
	}
	return smp;
}

/* Free the tracker's reused sample. */
void
tk_sample_free(kg_tracker *t)
{
	free(t->smp.lane_status);
	free(t->smp.lane_nassigned);
	free(t->smp.parts);
	free(t->smp.owner);
	free(t->smp.pstat);
	memset(&t->smp, 0, sizeof t->smp);
	t->smp_clanes = t->smp_cparts = 0;
}

/*
 * One present member: its lane's status and what it consumes in the
 * sample, the snapshot's owners of what it consumes, and the snapshot's
 * entry of it (lane, status, health, last leave).
 */
static void
annotate_member(kg_tracker *t, kg_snapshot *s, const tgroup *g, const tmember *m, kg_group *G, int64_t T,
		kg_sample *smp)
{
	int neff, j, mi = group_member_index(G, m->member_id);
	const kg_tp *eff = effective(g, m, G, &neff);
	kg_member_status st = member_status(g, m, neff);
	smp->lane_status[m->lane] = (uint8_t)st;
	smp->lane_nassigned[m->lane] = (uint16_t)(neff > 65535 ? 65535 : neff);
	for (j = 0; j < neff; j++) {
		int idx = group_part_index(G, eff[j]);
		if (idx >= 0 && smp->owner[idx] < 0)
			smp->owner[idx] = (int16_t)m->lane;
		/*
		 * A broker describes a rebalancing group without
		 * assignments; who consumes what meanwhile is what the
		 * tracker knows: a cooperative member keeps consuming
		 * what it held.  The snapshot's owners say that (the
		 * members' own assignments stay what the broker said).
		 */
		if (idx >= 0 && mi >= 0 && G->parts[idx].owner < 0) {
			group_rows_own(G);
			rows_touch(G->rows); /* an owner the builder did not derive: not to be kept */
			G->parts[idx].owner = mi;
			G->parts[idx].orphaned = false;
			G->parts[idx].in_flight = false;
		}
	}
	if (mi >= 0) {
		kg_member *sm = &G->members[mi];
		kg_lane *l = history_lane(t->h, g->id, m->lane);
		sm->lane = m->lane;
		sm->status = st;
		sm->first_seen_us = m->first_seen;
		tk_live_annotate(t, s, g, m, T, sm);
		sm->last_leave = l ? l->last_leave : KG_REASON_NONE;
		if (m->exact)
			sm->flags |= KG_MEMBER_EXACT;
	}
}

/*
 * Each partition's status in the sample: consuming, stopped (in a
 * rebalance), orphaned (its topic is consumed, it is not) or idle.  Parts
 * are sorted by topic: a topic is consumed when some partition of it is
 * owned.
 */
static void
sample_pstat(kg_sample *smp, const tgroup *g, const kg_group *G)
{
	int npresent = tk_present_count(g), start = 0, k;
	while (start < G->nparts) {
		int end = start;
		bool consumed = false;
		while (end < G->nparts && G->parts[end].tp.topic == G->parts[start].tp.topic) {
			consumed |= smp->owner[end] >= 0;
			end++;
		}
		for (k = start; k < end; k++) {
			int o = smp->owner[k];
			if (o >= 0 && o < smp->nlanes && smp->lane_status[o] == KG_MEMBER_SILENT)
				smp->pstat[k] = KG_PSTAT_STOPPED; /* owned by a member that does not consume */
			else if (o >= 0)
				smp->pstat[k] = KG_PSTAT_CONSUMING;
			else if (g->ep != NULL)
				smp->pstat[k] = KG_PSTAT_STOPPED;
			else if (G->parts[k].orphaned || (consumed && npresent > 0))
				smp->pstat[k] = KG_PSTAT_ORPHANED;
			else
				smp->pstat[k] = KG_PSTAT_IDLE;
		}
		start = end;
	}
}

/* Each member's verdict: the worst of the partitions it consumes now (after the owners are known). */
static void
member_verdicts(kg_group *G)
{
	int k;
	for (k = 0; k < G->nmembers; k++)
		G->members[k].verdict = KG_VERDICT_NONE;
	for (k = 0; k < G->nparts; k++) {
		const kg_gpart *gp = &G->parts[k];
		if (gp->owner >= 0 && gp->owner < G->nmembers && gp->verdict > G->members[gp->owner].verdict)
			G->members[gp->owner].verdict = gp->verdict;
	}
}

/* The group's summary: rebalances, storm, the open or last episode, generation, lag trend, limits. */
static void
annotate_summary(kg_tracker *t, const tgroup *g, kg_group *G, int64_t T)
{
	kg_episode *last = history_last_episode(t->h, g->id);
	kg_member_health gh;
	int64_t lag_then;

	G->sum.rebalances_1h = history_count_episodes(t->h, g->id, T - 3600LL * 1000000);
	G->sum.storm = g->storm;
	G->sum.in_episode = g->ep != NULL;
	if (g->ep != NULL) {
		G->sum.episode_start_us = g->ep->start_us;
		G->sum.rounds = g->ep->rounds;
		G->sum.rounds_min = tk_ep_rounds_min(g);
	} else if (last != NULL) {
		G->sum.episode_start_us = last->start_us;
		G->sum.rounds = last->rounds;
		G->sum.rounds_min = last->rounds_min;
	}
	if (last != NULL) {
		kg_episode *closed = last->end_us != 0 ? last : history_episode(t->h, g->id, tk_ep_last(g));
		if (closed != NULL && closed->end_us != 0) {
			kg_span d = episode_duration(closed, closed->end_us);
			G->sum.last_episode_us = closed->end_us - closed->start_us;
			G->sum.last_episode_min_us = d.min;
			G->sum.last_episode_max_us = d.max;
			G->sum.last_rounds = closed->rounds;
			G->sum.last_rounds_min = closed->rounds_min;
			G->sum.last_nstopped = closed->nstopped;
			G->sum.last_stopped_min_us = closed->stopped_us.min;
			G->sum.last_stopped_max_us = closed->stopped_us.max;
			G->sum.last_nunconsumed = closed->nunconsumed;
			G->sum.last_unconsumed_min_us = closed->unconsumed_us.min;
			G->sum.last_unconsumed_max_us = closed->unconsumed_us.max;
			G->sum.last_lag_added = closed->lag_start >= 0 && closed->lag_end >= 0 ? closed->lag_end - closed->lag_start : 0;
			G->sum.last_backlog_min = closed->backlog.min;
			G->sum.last_backlog_max = closed->backlog.max;
			G->sum.last_resumed_min_us = closed->nresumed > 0 ? closed->resumed_us.min : -1;
			G->sum.last_resumed_max_us = closed->nresumed > 0 ? closed->resumed_us.max : -1;
		}
	}
	G->sum.generation = g->generation;
	lag_then = history_lag_at(t->h, g->id, T - 60LL * 1000000);
	if (lag_then < 0) /* less than a minute known: the trend over the last 10 s */
		lag_then = history_lag_at(t->h, g->id, T - 10LL * 1000000);
	if (lag_then >= 0 && G->lag >= 0)
		G->sum.lag_delta_1m = G->lag - lag_then;
	/* the group's limits: what a member that says nothing of its own is judged by */
	tk_live_group_limits(t, g, T, &gh);
	G->sum.session_timeout_us = gh.session_timeout_us;
	G->sum.session_src = gh.session_src;
	G->sum.max_poll_us = gh.max_poll_us;
	G->sum.max_poll_src = gh.max_poll_src;
}

/*
 * A calm group: no member record (none present: every lane absent, no
 * member to annotate), no open episode, nothing owned or orphaned in its
 * description.  Its history sample is then its state, its lanes (all
 * absent), its lag and its partitions (every one idle), nothing else.
 */
static bool
group_calm(const tgroup *g, const kg_group *G)
{
	int k;
	if (g->nm != 0 || g->ep != NULL || G->nmembers != 0 || G->norphaned != 0)
		return false;
	if (G->kept)
		return true; /* kept rows of a group without members were built without one, untouched (rows.h) */
	for (k = 0; k < G->nparts; k++) {
		if (G->parts[k].owner >= 0 || G->parts[k].orphaned || G->parts[k].in_flight)
			return false;
	}
	return true;
}

/* Annotate group G (g its record) of the snapshot and store a history sample. */
void
tk_annotate_group(kg_tracker *t, kg_snapshot *s, tgroup *g, kg_group *G, int64_t T)
{
	kg_sample *smp;
	int nl = history_nlanes(t->h, g->id), k, nmoved;
	const kg_tp *moved;
	const int *moved_from;
	size_t i;
	bool calm;
	uint64_t key;

	if (g->no_news || G->traced || G->members_unknown) {
		/* a failed description, or a group known from a log: the timeline keeps what it had */
		if (G->kept && rows_marks(G->rows) != 0)
			group_rows_own(G); /* no marks, as built */
		g->calm = false;
		G->sum.storm = g->storm;
		G->sum.in_episode = g->ep != NULL;
		return;
	}
	/* the broker hides the assignor of a rebalancing group: say what it was */
	if (G->proto == KG_PROTO_UNKNOWN && g->proto != KG_PROTO_UNKNOWN)
		G->proto = g->proto;
	if ((G->assignor == NULL || *G->assignor == '\0') && g->assignor != NULL)
		G->assignor = snapshot_strdup(s, g->assignor);
	/* partitions between the rounds of an open rebalance are in flight, not orphaned */
	if (g->ep != NULL) {
		for (k = 0; k < G->nparts; k++) {
			if (G->parts[k].orphaned) {
				group_rows_own(G);
				rows_touch(G->rows);
				G->parts[k].orphaned = false;
				G->parts[k].in_flight = true;
			}
		}
		G->norphaned = 0;
	}
	calm = group_calm(g, G);
	if (!calm || !g->calm || !g->parts_same || t->cfg.derive_all || g->calm_state != G->state ||
	    g->calm_nlanes != nl || g->calm_lag != G->lag) {
		smp = sample_init(t, g, G, T, nl);
		for (i = 0; i < g->nm; i++) {
			const tmember *m = g->m[i];
			if (m->present && m->lane >= 0 && m->lane < nl)
				annotate_member(t, s, g, m, G, T, smp);
		}
		sample_pstat(smp, g, G);
		history_add_sample(t->h, g->id, smp);
		member_verdicts(G);
		g->calm = calm;
		g->calm_state = G->state;
		g->calm_nlanes = nl;
		g->calm_lag = G->lag;
	} else {
		/* calm, as the last sample says, with the same partitions, state, lanes and lag: that sample
		 * again (history_add_sample would find it the same), and no member to annotate */
		t->calm_skips++;
	}

	/* moved marks of the last rebalance (rows.h: a block says which moves it has marked; a copy none) */
	nmoved = tk_ep_moved(g, &moved, &moved_from);
	key = nmoved > 0 ? tk_ep_moved_key(g) : 0;
	if (G->rows == NULL || rows_marks(G->rows) != key) {
		group_rows_own(G);
		for (k = 0; k < nmoved; k++) {
			int idx = group_part_index(G, moved[k]);
			if (idx >= 0) {
				G->parts[idx].moved = true;
				G->parts[idx].moved_from = moved_from[k];
			}
		}
		rows_set_marks(G->rows, key);
	}
	g->rows_seen = rows_id(G->rows);
	annotate_summary(t, g, G, T);
}

/* What the rebalances of a storm window say (storm_facts). */
typedef struct storm_facts {
	int count;         /* episodes started in the window */
	int most;          /* the most any member (a lane) joined or left in them */
	const char *who;   /* that member's client id */
	int unexplained;   /* episodes no join or leave explains, and their rounds beyond two per member that did */
	int churning;      /* episodes of a member beyond its restart, or unexplained */
} storm_facts;

/*
 * The episodes started since `since`: how often each member (its lane:
 * one consumer across member ids) joined or left in them, counted once per
 * episode, and those no membership change explains, with the rounds an
 * episode ran beyond two for each member that joined or left in it (it
 * kept rebalancing without settling).  A member's first two (it left and
 * came back: a restart; it joined: the group formed) are no churn; beyond
 * them each is.
 */
static void
storm_facts_of(kg_tracker *t, const tgroup *g, int64_t since, storm_facts *f)
{
	const kg_episode *ev[STORM_EPISODES];
	int n = history_episodes_since(t->h, g->id, since, ev, STORM_EPISODES), nl = history_nlanes(t->h, g->id), i, k, j;
	int *seen = xcalloc((size_t)(nl ? nl : 1), sizeof *seen), *last = xcalloc((size_t)(nl ? nl : 1), sizeof *last);
	memset(f, 0, sizeof *f);
	f->count = n;
	for (i = 0; i < n; i++) {
		bool cause = false, churn = false;
		int ncause = 0, allowed;
		for (k = 0; k < ev[i]->nmembers; k++) {
			const kg_episode_member *em = &ev[i]->members[k];
			j = em->lane;
			if (!(em->joined || em->left) || j < 0 || j >= nl)
				continue;
			cause = true;
			if (last[j] == i + 1)
				continue; /* its other incarnation in this episode: once per episode */
			last[j] = i + 1;
			ncause++;
			seen[j]++;
			churn |= seen[j] > STORM_RESTART;
			if (seen[j] > f->most) {
				f->most = seen[j];
				f->who = em->client_id;
			}
		}
		/* rounds beyond two per member that came or went (a cooperative move takes two) did not settle */
		allowed = 2 * (ncause > 0 ? ncause : 1);
		f->unexplained += !cause + (ev[i]->rounds > allowed ? ev[i]->rounds - allowed : 0);
		f->churning += churn || !cause || ev[i]->rounds > allowed;
	}
	free(seen);
	free(last);
}

/*
 * Decide storms for a group (the rule, kgtop(1) and DESIGN): the same
 * member joining or leaving in storm_episodes (--storm-rebalances, 3)
 * rebalances of the window (--storm-window, 5 min), or that many
 * rebalances (or rounds of one) no membership change explains: faster
 * than the group settles, or more than storm_ratio of
 * the window spent rebalancing with two such rebalances in it.  A group
 * forming (each member joins once) or restarted member by member (each
 * leaves and comes back once) is no storm, however close its rebalances.
 */
void
tk_eval_storm(kg_tracker *t, tgroup *g, int64_t T, kg_group *G)
{
	int count = 0, rounds = 0;
	int64_t W = t->cfg.storm_window_us;
	int64_t reb = history_rebalancing_time(t->h, g->id, T - W, T, &count, &rounds);
	int64_t observed = T - g->first_seen;
	int64_t denom = observed < W ? observed : W;
	double ratio = denom > 0 ? (double)reb / (double)denom : 0;
	storm_facts f;
	bool storm;
	if (count == 0 && !g->storm && t->cfg.storm_episodes > 0 && !t->cfg.derive_all) {
		/*
		 * No episode started in the window (most groups, every refresh): the
		 * newest episode began before it, so none is in the facts either
		 * (history_episodes_since), and with no facts there is no storm
		 * to begin or end; the share of time stays as computed.
		 */
		if (G != NULL)
			G->sum.rebalancing_ratio = ratio;
		return;
	}
	storm_facts_of(t, g, T - W, &f);
	storm = f.most >= t->cfg.storm_episodes || f.unexplained >= t->cfg.storm_episodes ||
		(f.churning >= 2 && observed >= STORM_MIN_OBSERVED && ratio > t->cfg.storm_ratio);
	if (G != NULL)
		G->sum.rebalancing_ratio = ratio;
	if (storm != g->storm) {
		kg_event *ev = event_new(storm ? KG_EV_STORM_BEGIN : KG_EV_STORM_END, T, g->id);
		char w[32];
		sbuf s = { 0 };
		util_fmt_duration(w, sizeof w, W);
		if (f.most >= t->cfg.storm_episodes && f.who != NULL)
			sbuf_addf(&s, "%s joined or left in %d rebalances", f.who, f.most);
		else if (f.unexplained >= t->cfg.storm_episodes)
			sbuf_addf(&s, "%d rebalances no join or leave explains", f.unexplained);
		else
			sbuf_addf(&s, "%d rebalance%s, %d of members that keep coming and going", count, count == 1 ? "" : "s",
				  f.churning);
		sbuf_addf(&s, " in the last %s, %.0f%% of the time rebalancing", w, ratio * 100);
		event_text(ev, sbuf_str(&s));
		sbuf_free(&s);
		tk_emit(t, g, ev);
		g->storm = storm;
		if (G != NULL)
			G->sum.storm = storm;
	}
}

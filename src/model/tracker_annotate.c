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
 *
 * Liveness lives here as well: a member stops "consuming" at the first
 * evidence (tk_member_silent: a trace says it crashed or stopped polling,
 * its heartbeats stop coming) and is "silent since T" until the
 * coordinator decides (it leaves) or it shows life again.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker_int.h"

/* The assignment a member effectively consumes now. */
static const kg_tp *
effective(const tgroup *g, const tmember *m, const kg_group *G, int *n)
{
	const kg_member *mm;
	if (m->exact) {
		*n = m->nasg;
		return m->asg;
	}
	if (state_rebalancing(G->state)) {
		if (g->proto == KG_PROTO_EAGER) {
			*n = 0;
			return NULL;
		}
		*n = m->nstable;
		return m->stable;
	}
	mm = tk_snap_member(G, m);
	if (mm == NULL) {
		*n = 0;
		return NULL;
	}
	*n = mm->nassigned;
	return mm->assignment;
}

/* The member status input: m stopped consuming at since, for why. */
void
tk_member_silent(kg_tracker *t, tgroup *g, tmember *m, int64_t since, int kind, const char *why, kg_evidence evid)
{
	kg_event *ev;
	const kg_tp *h;
	int nh;
	if (!m->present || (m->silent_since > 0 && m->silent_since <= since))
		return;
	m->silent_since = since;
	m->silent_kind = kind;
	tk_set_str(&m->silent_why, why);
	h = tk_held(m, &nh);
	ev = tk_member_event(KG_EV_MEMBER_SILENT, since, g, m);
	ev->parts = tp_dup(h, nh);
	ev->nparts = ev->parts ? nh : 0;
	ev->evidence = evid;
	event_text(ev, why);
	tk_emit(t, g, ev);
	if (g->ep != NULL) {
		/* in an open rebalance: what it holds is not consumed from now */
		tk_parts_stop(g, h, nh, since, since);
		if (nh > 0)
			tk_member_stop(m, since, since);
	}
}

/* m showed life at time: a silence that kind of life ends is over. */
void
tk_member_alive(tmember *m, int64_t time, int life)
{
	bool ends;
	if (m->silent_since == 0 || time <= m->silent_since)
		return;
	switch (m->silent_kind) {
	case SILENT_CRASH: ends = life != LIFE_PROGRESS; break;
	case SILENT_STALL: ends = life != LIFE_HEARTBEAT && life != LIFE_PROGRESS; break; /* heartbeats go on in their own thread */
	case SILENT_HEARTBEAT: ends = life != LIFE_POLL && life != LIFE_PROGRESS; break; /* polls do not send heartbeats */
	case SILENT_EXTERNAL: ends = life == LIFE_PROGRESS; break;   /* frozen commits end when one moves */
	default: ends = false; break;
	}
	if (ends) {
		m->silent_since = 0;
		m->silent_kind = SILENT_NONE;
	}
}

/*
 * Members whose heartbeats stop coming: traced heartbeats (the interval
 * as observed between the last two), or a metrics sample's heartbeat age
 * and rate.  Silent from the last heartbeat once 2.5 intervals (and at
 * least HB_SILENT_MIN) passed without one.
 */
void
tk_heartbeat_silence(kg_tracker *t, tgroup *g, int64_t T)
{
	size_t i;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		int64_t last = 0, interval = 0;
		char why[96], d[32];
		/* in a rebalance members talk JoinGroup and SyncGroup, not heartbeats: no rule then */
		if (!m->present || m->silent_since > 0 || m->away_since > 0 || g->ep != NULL || m->join_sent_at > m->hb_last)
			continue;
		if (m->hb_last > 0 && m->hb_gap > 0) {
			last = m->hb_last;
			interval = m->hb_gap;
		} else if (m->m_time > 0 && m->m_hb_age >= 0 && m->m_hb_rate > 0) {
			last = m->m_time - m->m_hb_age;
			interval = (int64_t)(1e6 / m->m_hb_rate);
		}
		if (last <= 0 || last <= m->silent_hb || T - last <= KG_MAX(interval * 5 / 2, HB_SILENT_MIN))
			continue;
		m->silent_hb = last; /* said once for that heartbeat */
		util_fmt_duration(d, sizeof d, interval);
		snprintf(why, sizeof why, "no heartbeat since (one every %s before)", d);
		tk_member_silent(t, g, m, last, SILENT_HEARTBEAT, why, m->hb_last > 0 ? KG_EVID_EXACT : KG_EVID_POLLED);
	}
}

/* What a member is doing now. */
static kg_member_status
member_status(const tgroup *g, const tmember *m, int neff)
{
	if (m->away_since > 0)
		return KG_MEMBER_AWAY;
	if (m->silent_since > 0)
		return KG_MEMBER_SILENT;
	if (g->ep != NULL) {
		if (neff == 0)
			return KG_MEMBER_STOPPED;
		if (m->partial)
			return KG_MEMBER_PARTIAL;
		return KG_MEMBER_CONSUMING;
	}
	return neff == 0 ? KG_MEMBER_IDLE : KG_MEMBER_CONSUMING;
}

/* A limit: the member's from a trace, else its group's from a trace, else the configured one. */
static void
pick_limit(int64_t member_us, int64_t group_us, int64_t cfg_us, kg_limit_src cfg_src, int64_t *us, kg_limit_src *src)
{
	if (member_us > 0) {
		*us = member_us;
		*src = KG_LIMIT_TRACE;
	} else if (group_us > 0) {
		*us = group_us;
		*src = KG_LIMIT_TRACE;
	} else {
		*us = cfg_us;
		*src = cfg_src;
	}
}

/* Health of a member against its limits. */
static void
member_health(const kg_tracker *t, const tgroup *g, const tmember *m, int64_t T, kg_member_health *h)
{
	pick_limit(m->session_us, g->session_us, t->cfg.session_timeout_us, t->cfg.session_src, &h->session_timeout_us,
		   &h->session_src);
	pick_limit(m->max_poll_us, g->max_poll_us, t->cfg.max_poll_us, t->cfg.max_poll_src, &h->max_poll_us,
		   &h->max_poll_src);
	if (m->hb_last > 0)
		h->hb_age_us = T > m->hb_last ? T - m->hb_last : 0;
	else if (m->m_time > 0 && m->m_hb_age >= 0)
		h->hb_age_us = m->m_hb_age + (T > m->m_time ? T - m->m_time : 0);
	if (m->poll_last > 0)
		h->poll_gap_us = T > m->poll_last ? T - m->poll_last : 0;
	else if (m->m_time > 0 && m->m_poll_gap >= 0)
		h->poll_gap_us = m->m_poll_gap + (T > m->m_time ? T - m->m_time : 0);
	h->poll_gap_max_us = KG_MAX(m->poll_gap_max > 0 ? m->poll_gap_max : -1, m->m_poll_gap_max);
	h->hb_interval_us = m->hb_gap > 0 ? m->hb_gap : m->m_hb_rate > 0 ? (int64_t)(1e6 / m->m_hb_rate) : -1;
	if (h->poll_gap_us > h->poll_gap_max_us && m->poll_last > 0)
		h->poll_gap_max_us = h->poll_gap_us;
	h->hb_rate = m->m_hb_rate;
	h->rebalance_latency_avg_us = m->m_rb_avg;
	h->rebalance_latency_max_us = m->m_rb_max;
	h->failed_rebalances = m->m_failed;
	h->health_source = m->health_src;
}

/* A history sample of the group at T, every lane absent and every partition unowned until told. */
static void
sample_init(kg_sample *smp, const tgroup *g, const kg_group *G, int64_t T, int nl)
{
	int k;
	memset(smp, 0, sizeof *smp);
	smp->time_us = T;
	smp->state = G->state;
	smp->in_episode = g->ep != NULL;
	smp->lag = G->lag;
	smp->nlanes = nl;
	smp->lane_status = xmalloc((size_t)(nl ? nl : 1));
	smp->lane_nassigned = xcalloc((size_t)(nl ? nl : 1), sizeof *smp->lane_nassigned);
	memset(smp->lane_status, KG_LANE_ABSENT, (size_t)(nl ? nl : 1));
	smp->nparts = G->nparts;
	smp->parts = xmalloc((size_t)(G->nparts ? G->nparts : 1) * sizeof *smp->parts);
	smp->owner = xmalloc((size_t)(G->nparts ? G->nparts : 1) * sizeof *smp->owner);
	smp->pstat = xmalloc((size_t)(G->nparts ? G->nparts : 1));
	for (k = 0; k < G->nparts; k++) {
		smp->parts[k] = G->parts[k].tp;
		smp->owner[k] = -1;
	}
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
		member_health(t, g, m, T, &sm->health);
		sm->health.health_source = m->health_src;
		sm->silent_since_us = m->silent_since;
		sm->silent_why = m->silent_since > 0 && m->silent_why != NULL ? snapshot_strdup(s, m->silent_why) : NULL;
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

/* The group's summary: rebalances, storm, the open or last episode, generation, lag trend, limits. */
static void
annotate_summary(kg_tracker *t, const tgroup *g, kg_group *G, int64_t T)
{
	kg_episode *last = history_last_episode(t->h, g->id);
	kg_member_health gh;
	tmember dummy;
	int64_t lag_then;

	G->sum.rebalances_1h = history_count_episodes(t->h, g->id, T - 3600LL * 1000000);
	G->sum.storm = g->storm;
	G->sum.in_episode = g->ep != NULL;
	if (g->ep != NULL) {
		G->sum.episode_start_us = g->ep->start_us;
		G->sum.rounds = g->ep->rounds;
		G->sum.rounds_min = !g->exact_group && !g->ep_stabilized && !g->ep_logonly && !g->ep_callbacks;
	} else if (last != NULL) {
		G->sum.episode_start_us = last->start_us;
		G->sum.rounds = last->rounds;
		G->sum.rounds_min = last->rounds_min;
	}
	if (last != NULL) {
		kg_episode *closed = last->end_us != 0 ? last : history_episode(t->h, g->id, g->last_ep);
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
	memset(&dummy, 0, sizeof dummy);
	memset(&gh, 0, sizeof gh);
	member_health(t, g, &dummy, T, &gh);
	G->sum.session_timeout_us = gh.session_timeout_us;
	G->sum.session_src = gh.session_src;
	G->sum.max_poll_us = gh.max_poll_us;
	G->sum.max_poll_src = gh.max_poll_src;
}

/* Annotate one group of the snapshot and store a history sample. */
void
tk_annotate_group(kg_tracker *t, kg_snapshot *s, kg_group *G, int64_t T)
{
	tgroup *g = tk_group_get(t, G->id);
	kg_sample smp;
	int nl = history_nlanes(t->h, g->id), k;
	size_t i;

	if (g->no_news || G->traced) {
		/* a failed description, or a group known from a log: the timeline keeps what it had */
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
				G->parts[k].orphaned = false;
				G->parts[k].in_flight = true;
			}
		}
		G->norphaned = 0;
	}
	sample_init(&smp, g, G, T, nl);
	for (i = 0; i < g->nm; i++) {
		const tmember *m = g->m[i];
		if (m->present && m->lane >= 0 && m->lane < nl)
			annotate_member(t, s, g, m, G, T, &smp);
	}
	sample_pstat(&smp, g, G);
	history_add_sample(t->h, g->id, &smp);
	tk_member_verdicts(G);

	/* moved marks of the last rebalance */
	for (k = 0; k < g->nmoved; k++) {
		int idx = group_part_index(G, g->moved[k]);
		if (idx >= 0) {
			G->parts[idx].moved = true;
			G->parts[idx].moved_from = g->moved_from[k];
		}
	}
	annotate_summary(t, g, G, T);
}

/* Decide storms for a group. */
void
tk_eval_storm(kg_tracker *t, tgroup *g, int64_t T, kg_group *G)
{
	int count = 0, rounds = 0;
	int64_t W = t->cfg.storm_window_us;
	int64_t reb = history_rebalancing_time(t->h, g->id, T - W, T, &count, &rounds);
	int64_t observed = T - g->first_seen;
	int64_t denom = observed < W ? observed : W;
	double ratio = denom > 0 ? (double)reb / (double)denom : 0;
	/*
	 * Several rebalances in the window, or more time rebalancing than
	 * consuming while the group cannot settle: at least two rebalances, or
	 * one that keeps starting new rounds (members dropping out of it).
	 */
	bool storm = count >= t->cfg.storm_episodes ||
		     ((count >= 2 || rounds >= 3) && observed >= STORM_MIN_OBSERVED && ratio > t->cfg.storm_ratio);
	if (G != NULL)
		G->sum.rebalancing_ratio = ratio;
	if (storm != g->storm) {
		kg_event *ev = event_new(storm ? KG_EV_STORM_BEGIN : KG_EV_STORM_END, T, g->id);
		char w[32];
		sbuf s = { 0 };
		util_fmt_duration(w, sizeof w, W);
		sbuf_addf(&s, "%d rebalance%s", count, count == 1 ? "" : "s");
		if (rounds > count)
			sbuf_addf(&s, " of %d rounds", rounds);
		sbuf_addf(&s, " in the last %s, %.0f%% of the time rebalancing", w, ratio * 100);
		event_text(ev, sbuf_str(&s));
		sbuf_free(&s);
		tk_emit(t, g, ev);
		g->storm = storm;
		if (G != NULL)
			G->sum.storm = storm;
	}
}

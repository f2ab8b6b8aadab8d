/*
 * tracker_episode.c: rebalance episodes and their rounds.
 *
 * An episode opens at the first evidence of a rebalance
 * (tk_ensure_episode), names its trigger (a membership change just before,
 * else "cause unknown: <first sign>" until the cause is learnt: the causes
 * are tracker_episode_cause.c's), records
 * per member what was revoked and assigned in which round (tk_revoke,
 * tk_assign), and closes with the moves it made and what it cost
 * (tk_close_episode).  A round is a generation that completed: it ends
 * with a sync (tk_round_synced_at: a member's assignment, a coordinator's
 * "stabilized", a Stable description); the next begins with a join signal
 * after it (tk_next_round, tk_round_join_sent); a consumer-protocol
 * (KIP-848) episode is one round, whatever its signals.  A JoinGroup retried
 * before any answer (the first one of a new member is answered
 * MEMBER_ID_REQUIRED by current brokers) is the same round; a member's
 * second JoinGroup in a round that is no retry means a generation formed
 * whose sync has not been seen yet: it begins the next round as soon as
 * that sync is.  A late callback belongs to the round of the JoinGroup it
 * answers (tk_round_answered, tk_round_at).  The observation and polling
 * handlers decide what is a signal; what a round is lives here.
 *
 * Time is kept with its precision: a fact seen by polling happened
 * between the description that showed it and the one before (tk_lo), so
 * an episode keeps the earliest its start and end can have been, and what
 * it cost (members' stopped time, partitions without a consuming owner:
 * tk_member_stop, tk_parts_stop, tk_parts_resume) is summed within bounds.
 */
#include "config.h"

#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker_episode.h"
#include "model/tracker_fold.h"
#include "model/tracker_int.h"
#include "model/tracker_kip.h"
#include "model/tracker_live.h"

#define LOG_SETTLE (3000LL * 1000) /* quiet spell before a log-only episode closes */
#define JOIN_RETRY (1000LL * 1000) /* a member's JoinGroup this soon after its unanswered one is a retry (MEMBER_ID_REQUIRED) */
#define UNKNOWN_TRIGGER "cause unknown: " /* an episode's trigger text until the cause is learnt, + first sign */

/* The tracker's episode numbering and the groups whose open episode is known from logs only. */
struct tk_epbook {
	int64_t next_episode;
	int32_t *logonly;
	size_t nlogonly, clogonly;
};

/* The tracker's book of episodes, empty. */
tk_epbook *
tk_epbook_new(void)
{
	return xcalloc(1, sizeof(tk_epbook));
}

/* Free the tracker's book of episodes. */
void
tk_epbook_free(tk_epbook *b)
{
	if (b == NULL)
		return;
	free(b->logonly);
	free(b);
}

/* Round r's start (at r - 1 < MAX_ROUND_T) is time; the starts are made by the first. */
static void
round_set(tk_epgroup *e, int i, int64_t time)
{
	if (e->round_t == NULL)
		e->round_t = xcalloc(MAX_ROUND_T, sizeof *e->round_t);
	e->round_t[i] = time;
}

/* A group's episodes and rounds, none yet. */
tk_epgroup *
tk_epgroup_new(void)
{
	return xcalloc(1, sizeof(tk_epgroup));
}

/* Free a group's episodes and rounds (NULL is fine). */
void
tk_epgroup_free(tk_epgroup *e)
{
	if (e == NULL)
		return;
	free(e->round_t);
	free(e->unc);
	free(e->unc_since);
	free(e->unc_lo);
	free(e->done);
	free(e->gparts);
	free(e->cons);
	free(e->cons_lo);
	free(e->cons_hi);
	free(e->unc_seen);
	free(e->trig_text);
	free(e->moved);
	free(e->moved_from);
	free(e->ep_parts);
	free(e->ep_owner);
	hmap_free(&e->rec_index);
	free(e);
}

/* A member's part in episodes, none yet. */
tk_epmember *
tk_epmember_new(void)
{
	return xcalloc(1, sizeof(tk_epmember));
}

/* Free a member's part in episodes. */
void
tk_epmember_free(tk_epmember *e)
{
	free(e);
}

/* True while an episode's trigger text only says what was seen first (the cause is not known yet). */
bool
tk_cause_unknown(const char *trigger_text)
{
	return trigger_text != NULL && strncmp(trigger_text, UNKNOWN_TRIGGER, strlen(UNKNOWN_TRIGGER)) == 0;
}


/*
 * The episode record of a member incarnation (its member id on its lane),
 * created on demand: a static member back under a new id, or a member
 * that left and joined again, is two records on one lane.
 */
kg_episode_member *
tk_ep_member(tgroup *g, const tmember *m)
{
	kg_episode *e = g->ep;
	hmap *ix = &g->eps->rec_index;
	intptr_t at;
	int i;
	kg_episode_member *em;
	/*
	 * An index by member id (a scan per member made a 20,000-member
	 * episode quadratic: seconds for a flood of joins), rebuilt when
	 * another episode opens; an id on two lanes (reused by another
	 * client) is found by a scan.
	 */
	if (g->eps->rec_ep != e->id) {
		hmap_clear(ix);
		for (i = 0; i < e->nmembers; i++) {
			if (e->members[i].member_id != NULL && hmap_get(ix, e->members[i].member_id) == NULL)
				hmap_put(ix, e->members[i].member_id, (void *)(intptr_t)(i + 1));
		}
		g->eps->rec_ep = e->id;
	}
	at = (intptr_t)hmap_get(ix, m->member_id);
	if (at > 0 && e->members[at - 1].lane == m->lane)
		return &e->members[at - 1];
	for (i = 0; at > 0 && i < e->nmembers; i++) {
		if (e->members[i].lane == m->lane && e->members[i].member_id != NULL &&
		    strcmp(e->members[i].member_id, m->member_id) == 0)
			return &e->members[i];
	}
	e->members = xreallocarray(e->members, (size_t)e->nmembers + 1, sizeof *e->members);
	em = &e->members[e->nmembers++];
	memset(em, 0, sizeof *em);
	em->lane = m->lane;
	em->member_id = xstrdup(m->member_id);
	em->client_id = xstrdup(m->client_id);
	if (at == 0)
		hmap_put(ix, em->member_id, (void *)(intptr_t)e->nmembers);
	return em;
}

/* Remember who owned parts when the open episode began (to tell moves later). */
static void
ep_owned(tgroup *g, const kg_tp *parts, int n, int lane)
{
	int k;
	for (k = 0; k < n; k++) {
		g->eps->ep_parts = xreallocarray(g->eps->ep_parts, (size_t)g->eps->nep_parts + 1, sizeof *g->eps->ep_parts);
		g->eps->ep_owner = xreallocarray(g->eps->ep_owner, (size_t)g->eps->nep_parts + 1, sizeof *g->eps->ep_owner);
		g->eps->ep_parts[g->eps->nep_parts] = parts[k];
		g->eps->ep_owner[g->eps->nep_parts] = lane;
		g->eps->nep_parts++;
	}
}

/*
 * Does a present member hold a partition m held when it left?  Then a
 * rebalance gave its partitions out since: its leave was that one's, not
 * what the episode beginning now is about (a log read late opens it
 * before polling sees its consumer back).
 */
static bool
gone_reassigned(const tgroup *g, const tmember *m)
{
	size_t i;
	int k;
	for (i = 0; i < g->nm; i++) {
		const kg_tp *h;
		int nh;
		if (!g->m[i]->present || g->m[i] == m)
			continue;
		h = tk_held(g->m[i], &nh);
		for (k = 0; k < m->ngone_asg; k++) {
			if (tp_contains(h, nh, m->gone_asg[k]))
				return true;
		}
	}
	return false;
}

/*
 * What each member held when the open episode began (its start owners, to
 * count moves at the end), and each present member's round state afresh.
 * A member that left, or joined, just before is what the rebalance is about.
 */
static void
ep_start_members(kg_tracker *t, tgroup *g, int64_t time)
{
	size_t i;
	free(g->eps->ep_parts);
	free(g->eps->ep_owner);
	g->eps->ep_parts = NULL;
	g->eps->ep_owner = NULL;
	g->eps->nep_parts = 0;
	g->eps->nunc = 0;
	g->eps->ndone = 0;
	g->eps->nunc_seen = 0;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		kg_episode_member *em;
		const kg_tp *h;
		int nh;
		/*
		 * Round state counts from this episode, for a member that is gone
		 * too: one that comes back during it (its own "lost" callback can
		 * open the episode) must not bring the JoinGroup round of an
		 * earlier episode, which would make its next JoinGroup a round of
		 * its own.  Absent: join_round 0, its round set when it joins.
		 */
		m->eps->join_round = m->present ? 1 : 0;
		m->eps->join_seen = false;
		m->eps->join_answered = false;
		m->eps->sent_round = 0;
		if (!m->present) {
			/*
			 * A member that left just before is what this rebalance is
			 * about, unless its consumer is back already (a static
			 * member's restart is no leave): its partitions had no
			 * consumer from then, or from when it fell silent.
			 */
			if (m->gone_time > 0 && time >= m->gone_time && time - m->gone_time <= TRIGGER_WINDOW &&
			    m->gone_time > g->eps->last_ep_end && m->gone_time >= g->eps->emptied_at && !tk_identity_back(t, g, m) &&
			    !gone_reassigned(g, m)) {
				em = tk_ep_member(g, m);
				em->left = true;
				tk_set_tp(&em->before, &em->nbefore, m->gone_asg, m->ngone_asg);
				ep_owned(g, m->gone_asg, m->ngone_asg, m->lane);
				/* not consumed since it stopped: proven by its leave, not before its last sign of life */
				tk_parts_stop(g, m->gone_asg, m->ngone_asg, m->gone_hi, m->gone_lo);
			}
			continue;
		}
		h = tk_held(m, &nh);
		em = tk_ep_member(g, m);
		tk_set_tp(&em->before, &em->nbefore, h, nh);
		/* a member that joined just before (and after the last rebalance ended) is what this one is about */
		em->joined = m->join_time > 0 && time - m->join_time <= TRIGGER_WINDOW && time >= m->join_time &&
			     m->join_time > g->eps->last_ep_end;
		m->eps->revoked_round = 0;
		m->eps->synced_round = 0;
		m->eps->partial = false;
		m->eps->partial_since = 0;
		m->eps->stop_since = nh == 0 ? time : 0;
		m->eps->stop_hi = nh == 0 ? time : 0;
		m->eps->stop_since_lo = nh == 0 ? g->ep->start_lo_us : 0;
		if (tk_live_silent_since(m) > 0 && nh > 0) {
			/* held, not consumed: since a trace said it stopped, else (silence inferred) not proven */
			int64_t hi, lo;
			tk_live_stop_bounds(m, time, KG_EVID_POLLED, KG_REASON_NONE, &hi, &lo);
			tk_parts_stop(g, h, nh, hi == lo ? hi : 0, lo);
		}
		ep_owned(g, h, nh, m->lane);
	}
}

/* Open an episode at time if none is open; returns it. */
kg_episode *
tk_ensure_episode(kg_tracker *t, tgroup *g, int64_t time, const char *why, kg_evidence evid)
{
	kg_episode e;
	kg_event *ev;
	if (g->ep != NULL) {
		if (time < g->ep->start_us) {
			g->ep->start_us = time;
			round_set(g->eps, 0, time);
			/* its first round began then too: a sync a log or a client timed since is that round's */
			if (g->ep->rounds == 1)
				g->eps->round_start = time;
			g->ep->start_lo_us = evid == KG_EVID_EXACT ? time : tk_lo(g, time, evid);
		} else if (evid == KG_EVID_EXACT && time < g->ep->start_us + 1 && g->ep->start_lo_us < time) {
			g->ep->start_lo_us = time; /* a callback timed the start polling saw */
		}
		return g->ep;
	}
	memset(&e, 0, sizeof e);
	e.id = ++t->eb->next_episode;
	e.number = ++g->eps->episodes_seen;
	e.group = g->id;
	e.start_us = time;
	e.start_lo_us = evid == KG_EVID_EXACT ? time : (g->poll_lo > 0 && g->poll_lo <= time ? g->poll_lo : 0);
	e.rounds = 1;
	e.gen_start = g->generation;
	e.gen_end = -1;
	e.proto = g->proto;
	e.lag_start = e.lag_peak = g->lag;
	e.lag_end = -1;
	e.resumed_us.min = e.resumed_us.max = -1;
	e.backlog.min = 0;
	e.backlog.max = -1;
	e.evidence = evid;
	/* a membership change explains it if it is recent and not older than the last episode's end */
	if (g->eps->trig_text != NULL && time - g->eps->trig_time <= TRIGGER_WINDOW && time >= g->eps->trig_time - TRIGGER_WINDOW &&
	    g->eps->trig_time >= g->eps->last_ep_end) {
		e.trigger = g->eps->trig_reason;
		e.trigger_text = xstrdup(g->eps->trig_text);
	} else {
		/* what was seen first, until the cause is learnt (a join is known once it has its id) */
		e.trigger = KG_REASON_UNKNOWN;
		e.trigger_text = xasprintf("%s%s", UNKNOWN_TRIGGER, why);
	}
	e.members_before = tk_present_count(g);
	g->ep = history_add_episode(t->h, &e);
	round_set(g->eps, 0, time);
	episode_clear(&e);
	g->eps->phase = PHASE_JOINING;
	g->eps->last_sync = 0;
	g->eps->sync_polled = false;
	g->eps->log_members = -1;
	g->eps->round_start = time;
	g->eps->await_log_sync = false;
	g->eps->log_joined = false;
	g->eps->rounds_unsure = false;
	g->eps->ep_records = false;
	g->eps->round_gen = g->generation;
	g->eps->log_emptied_at = 0;
	g->eps->late_open = false; /* a late round of the last episode ends with it: its sync now is this one's round */
	g->eps->ep_changed = false;
	g->eps->ep_polled = false;
	g->eps->ep_logonly = !g->seen;
	g->eps->ep_callbacks = false;
	g->eps->ep_stabilized = false;
	g->eps->next_pending = false;
	g->eps->last_rebal_obs = time;
	g->eps->polled_open = evid == KG_EVID_EXACT ? 0 : time;
	if (g->eps->ep_logonly) {
		util_grow(&t->eb->logonly, &t->eb->clogonly, t->eb->nlogonly + 1, sizeof *t->eb->logonly);
		t->eb->logonly[t->eb->nlogonly++] = g->id;
	}

	ep_start_members(t, g, time);

	ev = event_new(KG_EV_REBALANCE_START, time, g->id);
	ev->episode = g->ep->id;
	ev->evidence = evid;
	ev->round = 1;
	ev->proto = g->proto;
	ev->generation = g->eps->gen_unsaid ? -1 : g->generation;
	ev->reason = g->ep->trigger;
	event_text(ev, g->ep->trigger_text);
	tk_emit(t, g, ev);
	return g->ep;
}

/*
 * Begin the next round of the open episode.  A consumer-protocol group's
 * (KIP-848) has none: its members reconcile each on its own, no JoinGroup
 * barrier; a group epoch bumped again in the episode, a member's revoke
 * after another's assignment, are steps of the same reconciliation.
 */
void
tk_next_round(kg_tracker *t, tgroup *g, int64_t time, kg_evidence evid)
{
	kg_event *ev;
	if (g->ep == NULL || g->eps->phase != PHASE_SYNCED)
		return;
	if (g->ep->proto == KG_PROTO_CONSUMER || tk_kip_is_consumer(g, NULL))
		return;
	g->eps->next_pending = false;
	g->ep->rounds++;
	g->eps->phase = PHASE_JOINING;
	g->eps->round_start = time;
	g->eps->round_gen = g->generation;
	if (g->ep->rounds <= MAX_ROUND_T)
		round_set(g->eps, g->ep->rounds - 1, time);
	ev = event_new(KG_EV_ROUND, time, g->id);
	ev->episode = g->ep->id;
	ev->evidence = evid;
	ev->round = g->ep->rounds;
	ev->generation = g->generation;
	ev->proto = g->proto;
	tk_emit(t, g, ev);
}

/* The round of the open episode that time falls in (1 when before them all). */
int
tk_round_at(const tgroup *g, int64_t time)
{
	int r = g->ep->rounds < MAX_ROUND_T ? g->ep->rounds : MAX_ROUND_T;
	while (r > 1 && g->eps->round_t != NULL && g->eps->round_t[r - 1] > time)
		r--;
	return r;
}

/* The round a member's callback answers: the round of its observed, still unanswered JoinGroup, else the current one. */
int
tk_round_answered(const tgroup *g, const tmember *m)
{
	int round = g->ep->rounds;
	if (m->eps->join_seen && !m->eps->join_answered && m->eps->join_round > 0 && m->eps->join_round < round)
		round = m->eps->join_round;
	return round;
}

/*
 * A member sent a JoinGroup at time.  After a sync it starts the next
 * round.  In a round not synced yet: the member's first JoinGroup of the
 * round joins it; a retry of its unanswered JoinGroup (soon after, no
 * sync between: MEMBER_ID_REQUIRED, a failed sync) is the same round; any
 * other second JoinGroup means a generation formed whose sync has not
 * been seen yet (the other members' callbacks run on other threads): it
 * is the next round's, begun when that sync is; and a JoinGroup after the
 * member's own of this episode is never of an earlier round than its
 * next.  Opens the episode if none is; returns the JoinGroup's round.
 */
int
tk_round_join_sent(kg_tracker *t, tgroup *g, const tmember *m, int64_t time)
{
	bool retry = m->eps->join_seen && !m->eps->join_answered && m->join_sent_at > 0 && time - m->join_sent_at <= JOIN_RETRY &&
		     g->eps->last_sync <= m->join_sent_at;
	int round;
	if (g->ep != NULL && g->eps->phase == PHASE_JOINING && m->eps->sent_round >= g->ep->rounds && !retry) {
		g->eps->next_pending = true;
		return g->ep->rounds + 1;
	}
	if (!retry && time >= g->eps->last_sync)
		tk_next_round(t, g, time, KG_EVID_EXACT);
	tk_ensure_episode(t, g, time, "member rejoined", KG_EVID_EXACT);
	round = tk_round_at(g, time);
	/*
	 * A JoinGroup that is no retry answers a later round than the
	 * member's previous one of this episode, even when another thread
	 * stamped that round's start a moment after it (a newcomer's round-two
	 * JoinGroup reported after the coordinator's "preparing").
	 */
	if (!retry && m->eps->sent_round > 0 && round <= m->eps->sent_round)
		round = KG_MIN(m->eps->sent_round + 1, g->ep->rounds);
	return round;
}

/* The current round synced at time (exact: a client or a coordinator log said when); a pending next round begins. */
void
tk_round_synced_at(kg_tracker *t, tgroup *g, int64_t time, bool exact)
{
	g->eps->phase = PHASE_SYNCED;
	g->eps->last_sync = time;
	g->eps->sync_polled = !exact && time != g->eps->exact_sync; /* a description's, not a time a line told */
	if (exact)
		g->eps->exact_sync = time;
	if (g->eps->next_pending)
		tk_next_round(t, g, time, KG_EVID_EXACT);
}

/* The round ended without a sync: rounds are the generations that completed. */
void
tk_round_unsynced(tgroup *g, int64_t time, bool joined)
{
	if (g->ep == NULL)
		return;
	if ((g->eps->phase == PHASE_JOINING || joined) && g->ep->rounds > 0)
		g->ep->rounds--;
	if (joined && g->eps->log_ep == g->ep->id && g->eps->log_syncs > 0)
		g->eps->log_syncs--; /* the log counted its "Stabilized" as a sync */
	g->eps->phase = PHASE_SYNCED; /* the next "preparing" begins a round */
	g->eps->last_sync = time;
	g->eps->sync_polled = false;
}

/* Record a revoke: event, episode, member state. */
void
tk_revoke(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	  const kg_tp *before, int nbefore, kg_evidence evid, kg_proto proto, kg_reason reason, int round)
{
	kg_event *ev = tk_member_event(KG_EV_REVOKED, time, g, m);
	kg_episode_member *em = tk_ep_member(g, m);
	kg_revoke_class cls = tp_classify_revoke(parts, nparts, before, nbefore);
	ev->parts = tp_dup(parts, nparts);
	ev->nparts = ev->parts ? nparts : 0;
	ev->before = tp_dup(before, nbefore);
	ev->nbefore = ev->before ? nbefore : 0;
	ev->cls = cls;
	ev->reason = reason; /* GRACEFUL: the member gives everything up because it is closing */
	ev->evidence = evid;
	ev->proto = proto != KG_PROTO_UNKNOWN ? proto : g->proto;
	ev->episode = g->ep->id;
	ev->round = round;
	ev->generation = g->step_epoch >= 0 ? g->step_epoch : g->step_epoch == KG_STEP_EPOCH_UNKNOWN ? -1 : g->generation;
	tk_emit(t, g, ev);

	tk_tp_union(&em->revoked, &em->nrevoked, parts, nparts);
	if (cls == KG_CLASS_FULL) {
		if (em->cls != KG_CLASS_FULL)
			g->ep->nfull++;
		if (em->cls == KG_CLASS_INCREMENTAL)
			g->ep->nincremental--;
		em->cls = KG_CLASS_FULL;
	} else if (cls == KG_CLASS_INCREMENTAL && em->cls == KG_CLASS_NONE) {
		em->cls = KG_CLASS_INCREMENTAL;
		g->ep->nincremental++;
	}
	if (cls != KG_CLASS_NONE && em->round_revoked == 0)
		em->round_revoked = round;
	if (evid == KG_EVID_EXACT)
		g->ep->evidence = KG_EVID_EXACT;
	m->eps->revoked_round = g->ep->rounds;
	tk_parts_stop(g, parts, nparts, tk_hi(time, evid), tk_lo(g, time, evid));
	if (cls == KG_CLASS_FULL) {
		tk_member_stop(m, time, tk_hi(time, evid), tk_lo(g, time, evid));
		if (m->eps->partial_since > 0) {
			em->partial_us += time - m->eps->partial_since;
			m->eps->partial_since = 0;
		}
	} else if (cls == KG_CLASS_INCREMENTAL) {
		m->eps->partial = true;
		if (m->eps->partial_since == 0)
			m->eps->partial_since = time;
	}
}

/* Record an assignment: event, episode, member state. */
void
tk_assign(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	  kg_evidence evid, int round)
{
	kg_episode_member *em = tk_ep_member(g, m);
	if (nparts > 0) {
		kg_event *ev = tk_member_event(KG_EV_ASSIGNED, time, g, m);
		ev->parts = tp_dup(parts, nparts);
		ev->nparts = nparts;
		ev->evidence = evid;
		ev->proto = g->proto;
		ev->episode = g->ep->id;
		ev->round = round;
		ev->generation = g->step_epoch >= 0 ? g->step_epoch : g->step_epoch == KG_STEP_EPOCH_UNKNOWN ? -1 : g->generation;
		tk_emit(t, g, ev);
		tk_tp_union(&em->assigned, &em->nassigned, parts, nparts);
		em->round_assigned = round;
		m->eps->held_since = time;
		tk_member_resume(m, em, time, tk_lo(g, time, evid));
		tk_parts_resume(g, parts, nparts, time, tk_lo(g, time, evid));
	}
	m->eps->synced = true;
}

static _Atomic uint32_t moved_keys = 1; /* tk_ep_moved_key()'s: one a set, across groups and trackers */

/* Count moves and set the moved marks from the episode's start owners. */
static void
compute_moves(kg_tracker *t, tgroup *g)
{
	size_t i;
	int k, nmoved = 0, nmarks = 0;
	free(g->eps->moved);
	free(g->eps->moved_from);
	g->eps->moved = NULL;
	g->eps->moved_from = NULL;
	g->eps->nmoved = 0;
	do
		g->eps->moved_key = atomic_fetch_add_explicit(&moved_keys, 1, memory_order_relaxed);
	while (g->eps->moved_key == 0); /* 0 names no marks */
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_tp *h;
		int nh;
		if (!m->present)
			continue;
		h = tk_held(m, &nh);
		for (k = 0; k < nh; k++) {
			int j, from = -1;
			for (j = 0; j < g->eps->nep_parts; j++) {
				if (g->eps->ep_parts[j].topic == h[k].topic && g->eps->ep_parts[j].partition == h[k].partition) {
					from = g->eps->ep_owner[j];
					break;
				}
			}
			if (from == m->lane || tk_same_identity(t, g, from, m))
				continue; /* back with the consumer that had it (a new incarnation of it) */
			g->eps->moved = xreallocarray(g->eps->moved, (size_t)nmarks + 1, sizeof *g->eps->moved);
			g->eps->moved_from = xreallocarray(g->eps->moved_from, (size_t)nmarks + 1, sizeof *g->eps->moved_from);
			g->eps->moved[nmarks] = h[k];
			g->eps->moved_from[nmarks] = from;
			nmarks++;
			/* a partition nobody had is newly assigned, not moved */
			if (from >= 0)
				nmoved++;
		}
	}
	g->eps->nmoved = nmarks;
	if (g->ep != NULL)
		g->ep->moved = nmoved;
}

/* True when every member of the open episode reported its callbacks (its rounds are the syncs they saw). */
static bool
all_reported(const tgroup *g)
{
	size_t i;
	if (!g->eps->ep_callbacks)
		return false;
	for (i = 0; i < g->nm; i++) {
		if (g->m[i]->present && !g->m[i]->exact)
			return false;
	}
	return true;
}

/*
 * Rounds a polled episode had at least: a cooperative member that stayed
 * and gave partitions up gave them in one generation and their new owner
 * got them in a later one.
 */
static int
rounds_at_least(const kg_episode *e)
{
	int k;
	if (e->proto != KG_PROTO_COOPERATIVE || e->moved == 0)
		return 1;
	for (k = 0; k < e->nmembers; k++) {
		if (!e->members[k].left && e->members[k].nrevoked > 0)
			return 2;
	}
	return 1;
}

/* A source told a member's revoke or assignment in the episode (records, callbacks, descriptions). */
static bool
told_moves(const kg_episode *e)
{
	int k;
	for (k = 0; k < e->nmembers; k++) {
		if (e->members[k].nassigned > 0 || e->members[k].nrevoked > 0)
			return true;
	}
	return false;
}

/* The words of an episode's end: its trigger, who stopped, what moved, what it cost. */
static void
close_text(const tgroup *g, const kg_episode *e, int members, const char *note, sbuf *txt)
{
	/* the trigger may have been learnt after the start event went out: say it again here */
	if (e->trigger_text != NULL && e->trigger_text[0] != '\0' && !tk_cause_unknown(e->trigger_text))
		sbuf_addf(txt, "%s; ", e->trigger_text);
	if (g->eps->ep_logonly && !g->eps->ep_callbacks && e->evidence == KG_EVID_EXACT && e->nfull + e->nincremental == 0 &&
	    e->moved == 0 && !told_moves(e)) {
		sbuf_adds(txt, "from the coordinator's log: members and partitions not seen");
	} else if (members == 0 && e->members_after > 0) {
		/* nobody was consuming before: the group formed (or formed again after it emptied) */
		sbuf_addf(txt, "group formed with %d member%s", e->members_after, e->members_after == 1 ? "" : "s");
	} else {
		sbuf_addf(txt, "%d of %d member%s stopped", e->nstopped, members, members == 1 ? "" : "s");
		if (e->nstopped > 0) {
			sbuf_addc(txt, ' ');
			event_fmt_amount(txt, e->stopped_us, e->nstopped, "member", false);
		}
		if (e->nunconsumed > 0) {
			sbuf_addf(txt, ", %d partition%s unconsumed ", e->nunconsumed, e->nunconsumed == 1 ? "" : "s");
			event_fmt_amount(txt, e->unconsumed_us, e->nunconsumed, "partition", false);
		}
		sbuf_addf(txt, ", %d partition%s moved", e->moved, e->moved == 1 ? "" : "s");
	}
	if (note != NULL)
		sbuf_addf(txt, "; %s", note);
}

/*
 * The generation an episode ended at, as far as known: the group's last,
 * unless it was told before the episode began (a line of an earlier
 * rebalance read late, after polling opened this one: this one moved the
 * group past it), -1 unknown.
 */
static int32_t
gen_at_end(const tgroup *g, const kg_episode *e)
{
	return e->start_lo_us > 0 && g->generation_at < e->start_lo_us ? -1 : g->generation;
}

/* Close the open episode at end (end_lo at the earliest). */
void
tk_close_episode(kg_tracker *t, tgroup *g, int64_t end, int64_t end_lo, const char *note)
{
	kg_episode *e = g->ep;
	kg_event *ev;
	size_t i;
	int members = 0;
	sbuf txt = { 0 };
	if (e == NULL)
		return;
	if (end < e->start_us)
		end = e->start_us;
	if (end_lo <= 0)
		end_lo = e->start_lo_us > 0 ? e->start_lo_us : e->start_us; /* not known (kgtop's first look): since it began */
	if (end_lo > end)
		end_lo = end;
	if (end_lo < e->start_lo_us)
		end_lo = e->start_lo_us;
	compute_moves(t, g);
	if (tk_poll_stable_at(g) > end && end_lo == end && g->eps->ep_stabilized && !g->eps->ep_records &&
	    !g->exact_group && !all_reported(g) && e->rounds - (g->eps->phase == PHASE_JOINING) < rounds_at_least(e)) {
		/*
		 * The log timed this end and counted its rounds, but a
		 * cooperative member that stayed gave partitions up, and their
		 * new owner got them in a later round the log, behind polling,
		 * has not told yet: the end is between the log's last sync and
		 * the Stable description that showed the outcome (its late
		 * lines retime it).
		 */
		end = tk_poll_stable_at(g);
	}
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		if (!m->present)
			continue;
		tk_settle_member_time(g, m, end, end_lo);
		m->eps->partial = false;
	}
	e->end_us = end;
	e->end_lo_us = end_lo;
	e->gen_end = gen_at_end(g, e);
	e->members_after = tk_present_count(g);
	e->lag_end = g->lag;
	e->proto = g->proto != KG_PROTO_UNKNOWN ? g->proto : e->proto;
	/* generations counted from every member's callbacks or a coordinator's own lines are exact; polling may miss one */
	/*
	 * The coordinator's records count them (numbered generations); its
	 * log when it saw the first round begin and the last end (a start
	 * polling bounds: its first lines were not read; an end polling
	 * bounds: the log, behind polling, may not have told the last rounds
	 * yet).
	 */
	e->rounds_min = !(g->exact_group ||
			  (g->eps->ep_stabilized &&
			   (g->eps->ep_records || (e->start_lo_us == e->start_us && e->end_lo_us == e->end_us))) ||
			  g->eps->ep_logonly || all_reported(g)) ||
			g->eps->rounds_unsure;
	/* rounds are the generations that completed: one begun and not synced (the group emptied, or went) is not */
	if (g->eps->phase == PHASE_JOINING && e->rounds > 0)
		e->rounds--;
	else if (e->rounds_min && e->rounds < rounds_at_least(e))
		e->rounds = rounds_at_least(e);
	/* the members' revokes and assignments as polling saw them (a coordinator's lines time the rounds, not these) */
	tk_close_costs(g, e, end, end_lo, !(g->exact_group || all_reported(g)), &members);
	close_text(g, e, members, note, &txt);
	ev = event_new(KG_EV_REBALANCE_END, end, g->id);
	ev->episode = e->id;
	ev->evidence = e->evidence;
	ev->round = e->rounds;
	ev->rounds_min = e->rounds_min;
	ev->generation = e->gen_end;
	ev->duration_us = end - e->start_us;
	ev->duration = episode_duration(e, end);
	ev->nstopped = e->nstopped;
	ev->stopped_us = e->stopped_us;
	ev->nunconsumed = e->nunconsumed;
	ev->unconsumed_us = e->unconsumed_us;
	ev->backlog = e->backlog;
	ev->proto = e->proto;
	ev->reason = e->trigger;
	if (e->lag_start >= 0 && e->lag_end >= 0)
		ev->lag_cost = e->lag_end - e->lag_start;
	event_text(ev, sbuf_str(&txt));
	sbuf_free(&txt);
	tk_emit(t, g, ev);
	g->eps->last_ep = e->id;
	g->eps->last_ep_end = end;
	g->eps->closed_at = end;
	g->eps->end_lo_by = 0;
	g->ep = NULL;
	g->eps->phase = PHASE_SYNCED;
	g->eps->next_pending = false;
	free(g->eps->trig_text);
	g->eps->trig_text = NULL;
}

/*
 * The open episode is a group's known from its coordinator's log alone,
 * and its last generation was synced before time (the log told the
 * leader's assignment, no join begun since), or, a KIP-848 group's, its
 * last bump's target was computed: what happens after is not this
 * rebalance's (its end awaits only a quiet spell, or a round more).
 */
bool
tk_log_synced_before(const tgroup *g, int64_t time)
{
	if (g->ep == NULL || g->seen || !g->eps->ep_logonly || g->eps->last_sync <= 0 || time <= g->eps->last_sync)
		return false;
	if (g->ep->proto == KG_PROTO_CONSUMER)
		return tk_kip_target_told(g, time);
	return g->eps->phase == PHASE_SYNCED && !g->eps->log_joined;
}

/*
 * Close a log-only episode at its last round's end (its sync, else its
 * last line); a membership change told after that end stays the next
 * rebalance's likely cause.
 */
void
tk_close_log_synced(kg_tracker *t, tgroup *g)
{
	int64_t end = g->eps->last_sync > 0 ? g->eps->last_sync : g->eps->last_rebal_obs;
	char *text = g->eps->trig_text;
	int64_t time = g->eps->trig_time;
	kg_reason reason = g->eps->trig_reason;
	int joiners = g->eps->trig_joiners, more = g->eps->trig_more;
	bool later = text != NULL && time > end;
	if (later)
		g->eps->trig_text = NULL; /* kept from the close, which frees the cause it took */
	tk_close_episode(t, g, end, end, NULL);
	if (later) {
		free(g->eps->trig_text);
		g->eps->trig_text = text;
		g->eps->trig_time = time;
		g->eps->trig_reason = reason;
		g->eps->trig_joiners = joiners;
		g->eps->trig_more = more;
	}
}

/* Close a log-only episode whose last round ended LOG_SETTLE before time; true when it closed. */
bool
tk_close_log_settled(kg_tracker *t, tgroup *g, int64_t time)
{
	if (g->eps->phase != PHASE_SYNCED || time - g->eps->last_rebal_obs < LOG_SETTLE)
		return false;
	tk_close_log_synced(t, g);
	return true;
}

/*
 * Close the log-only episodes (groups known from coordinator logs alone)
 * whose last round ended a while before time, so that a log read in one
 * batch gives its episodes in order.
 */
void
tk_close_logonly(kg_tracker *t, int64_t time)
{
	size_t i = 0;
	while (i < t->eb->nlogonly) {
		tgroup *g = tk_group_find(t, t->eb->logonly[i]);
		if (g == NULL || g->ep == NULL || g->seen || tk_close_log_settled(t, g, time))
			t->eb->logonly[i] = t->eb->logonly[--t->eb->nlogonly];
		else
			i++;
	}
}

/* A description said the group is empty: its open episode ends; the leaves that emptied it explain no later rebalance. */
void
tk_group_emptied(kg_tracker *t, tgroup *g, int64_t T, int64_t empty_before, int64_t asked_before)
{
	/* the next members start afresh */
	free(g->eps->trig_text);
	g->eps->trig_text = NULL;
	g->eps->emptied_at = T;
	if (g->ep == NULL)
		return;
	if (g->eps->log_emptied_at >= g->ep->start_us && g->eps->log_emptied_at <= T) {
		/* the coordinator's log said when */
		tk_close_episode(t, g, g->eps->log_emptied_at, g->eps->log_emptied_at, "the group is empty");
		return;
	}
	if (empty_before > 0 && empty_before < T && g->ep->start_us < asked_before) {
		/*
		 * The description before (empty_before: handed over then, asked
		 * at asked_before) said Empty already, asked after the episode
		 * began (the log, read late, opened it: polling never saw the
		 * group rebalancing): it was over when that one was handed over,
		 * after its last line.
		 */
		tk_close_episode(t, g, empty_before, KG_MAX(g->ep->start_us, g->eps->last_rebal_obs), "the group is empty");
		return;
	}
	tk_close_episode(t, g, T, g->poll_lo, "the group is empty"); /* since the description before */
}

/*
 * A rebalance that ended before kgtop watched the group, told by the
 * coordinator's records read from the topic's history: stored closed,
 * its start and end events at their own times (so counts and storms
 * include it).  Its start is only bounded: after start_lo (the generation
 * before's sync, 0 unknown), by start (its join phase's end).
 */
kg_episode *
tk_past_episode(kg_tracker *t, tgroup *g, const kg_past *p)
{
	kg_episode e, *stored;
	kg_event *ev;
	memset(&e, 0, sizeof e);
	e.id = ++t->eb->next_episode;
	e.number = ++g->eps->episodes_seen;
	e.group = g->id;
	e.start_us = p->start;
	e.start_lo_us = p->start_lo > 0 && p->start_lo <= p->start ? p->start_lo : 0;
	e.end_us = e.end_lo_us = p->end;
	e.rounds = 1;
	e.rounds_min = p->rounds_min;
	e.gen_start = p->gen_start;
	e.gen_end = p->gen_end;
	e.proto = p->proto;
	e.trigger = KG_REASON_UNKNOWN;
	e.trigger_text = xasprintf("before kgtop watched: the coordinator's record of generation %d", (int)p->gen_end);
	e.members_before = -1;
	e.members_after = p->members_after;
	e.lag_start = e.lag_end = e.lag_peak = -1;
	e.resumed_us.min = e.resumed_us.max = -1;
	e.evidence = KG_EVID_EXACT;
	stored = history_add_episode(t->h, &e);
	episode_clear(&e);
	ev = event_new(KG_EV_REBALANCE_START, stored->start_us, g->id);
	ev->episode = stored->id;
	ev->evidence = KG_EVID_POLLED; /* its start is a bound */
	ev->round = 1;
	ev->proto = stored->proto;
	ev->generation = p->gen_start;
	ev->reason = KG_REASON_UNKNOWN;
	event_text(ev, stored->trigger_text);
	tk_emit(t, g, ev);
	ev = event_new(KG_EV_REBALANCE_END, stored->end_us, g->id);
	ev->episode = stored->id;
	ev->evidence = KG_EVID_EXACT;
	ev->round = stored->rounds;
	ev->rounds_min = stored->rounds_min;
	ev->generation = p->gen_end;
	ev->duration_us = stored->end_us - stored->start_us;
	ev->duration = episode_duration(stored, stored->end_us);
	ev->proto = stored->proto;
	ev->reason = KG_REASON_UNKNOWN;
	event_text(ev, p->members_after == 0 ? "before kgtop watched; the group emptied" : "before kgtop watched");
	tk_emit(t, g, ev);
	if (stored->end_us >= g->eps->last_ep_end) {
		g->eps->last_ep = stored->id;
		g->eps->last_ep_end = stored->end_us;
	}
	return stored;
}

/* The id of the group's last closed episode, 0 none. */
int64_t
tk_ep_last(const tgroup *g)
{
	return g->eps->last_ep;
}

/* When the group's last closed episode ended, 0 none. */
int64_t
tk_ep_last_end(const tgroup *g)
{
	return g->eps->last_ep_end;
}

/* The partitions the last closed episode gave a new owner, and the lanes they came from (-1 none). */
int
tk_ep_moved(const tgroup *g, const kg_tp **moved, const int **from)
{
	*moved = g->eps->moved;
	*from = g->eps->moved_from;
	return g->eps->nmoved;
}

/* The number that names the moved marks now. */
uint64_t
tk_ep_moved_key(const tgroup *g)
{
	return g->eps->moved_key;
}

/* True when the open episode's rounds are a lower bound: no source counted its generations. */
bool
tk_ep_rounds_min(const tgroup *g)
{
	return !g->exact_group && !g->eps->ep_stabilized && !g->eps->ep_logonly && !g->eps->ep_callbacks;
}

/* True when m revoked part of its assignment in the open episode. */
bool
tk_ep_partial(const tmember *m)
{
	return m->eps->partial;
}

/* When m got what it holds (the last assignment it was given), 0 unknown. */
int64_t
tk_ep_held_since(const tmember *m)
{
	return m->eps->held_since;
}

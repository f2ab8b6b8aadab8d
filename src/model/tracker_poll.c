/*
 * tracker_poll.c: fold the polled picture of a group.
 *
 * A description says who is in the group, what each member holds and the
 * group's state; compared with what the tracker knew it gives joins and
 * leaves, state changes and the evidence of a rebalance.  Polled members'
 * revokes are derived: eager members revoke everything they held at the
 * start of each round (the protocol says so, evidence PROTOCOL);
 * cooperative and unknown ones revoke what they held at the last Stable
 * description minus what they hold now (evidence POLLED).  A group an exact
 * source describes (the demo) gets its rounds from its callbacks; its
 * description only says when everybody has its answer.
 *
 * A description is a picture taken at some moment: what it shows changed
 * after the one before was taken (poll_times: tgroup.poll_lo), so polled
 * facts carry that bound.  A member a trace said left is no member of a
 * description begun before the trace's news can have reached the broker
 * (drop_stale): an older refresh cannot bring it back.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "model/tracker_episode.h"
#include "model/tracker_fold.h"
#include "model/tracker_int.h"
#include "model/tracker_kip.h"
#include "model/tracker_lanes.h"
#include "model/tracker_live.h"

#define ORPHAN_REPORT_DELAY (5LL * 1000000) /* outside a rebalance, orphans this old are reported */
#define EXACT_SETTLE (1000LL * 1000)        /* quiet spell before an exact episode closes */
#define EXACT_QUIET (10LL * 1000000)        /* after this long without callbacks, unsynced members no longer count */
#define LOG_WAIT_US (30LL * 1000000)        /* into an episode, a log's lines not read yet hold a polled end this long */

/* What the polled picture keeps of a group between descriptions (g->pl). */
struct tk_polled {
	int64_t desc_at;        /* when the last description was taken, */
	int64_t desc_prev;      /* and the one before (a change polling sees happened between them) */
	int64_t stable_at;      /* when the last description that said Stable was taken, 0 none */
	int64_t empty_asked;    /* when the last description that said Empty with no member was taken (handed over at
				 * eps->emptied_at), 0 none */
	int64_t rebal_at;       /* when the last description that showed a rebalancing state was taken, 0 none */
	int64_t data_at;        /* when the group's last description was asked (its source says), 0 unknown */
	int64_t orphan_since;   /* a Stable group's partitions unowned since, 0 none */
	kg_tp *orphans_reported;
	int norphans_reported;
};

/* Free what the polled picture keeps of a group. */
void
tk_polled_free(tk_polled *p)
{
	if (p == NULL)
		return;
	free(p->orphans_reported);
	free(p);
}

/* One group's description being folded, and what it told so far. */
typedef struct poll_ctx {
	kg_tracker *t;
	tgroup *g;
	const kg_group *G;
	int64_t T;
	bool first;          /* the group's first description: its members were there before us, not joins */
	bool stable_now;     /* Stable (or an exact source's group without a state) */
	bool ev_state;       /* a rebalancing state */
	bool assign_changed; /* a polled member holds other than at the last Stable description */
	size_t nj;           /* members that joined */
	int nleft;           /* members that left */
	int64_t prev_lag;    /* the group's lag before this description */
} poll_ctx;

/* Pair a newly seen static member with one that vanished: a restart within session.timeout.ms. */
static tmember *
static_predecessor(const kg_member *mm, tmember **gone, size_t ngone)
{
	size_t i;
	if (mm->instance_id == NULL)
		return NULL;
	for (i = 0; i < ngone; i++) {
		if (gone[i] != NULL && gone[i]->instance_id != NULL && strcmp(gone[i]->instance_id, mm->instance_id) == 0)
			return gone[i];
	}
	return NULL;
}

/* When this description was taken, and the one before: polled facts happened in between. */
static void
poll_times(poll_ctx *c)
{
	tgroup *g = c->g;
	/* a source that reports every member's callbacks describes the group as of now; a group asked in
	 * turn (not every refresh) as of when it was asked */
	int64_t D = c->G->exact ? c->T : c->G->data_time_us > 0 ? c->G->data_time_us : c->t->desc_time;
	if (D > c->T || D <= 0)
		D = c->T;
	if (D != g->pl->desc_at) {
		g->pl->desc_prev = g->pl->desc_at;
		g->pl->desc_at = D;
	}
	/* a source that reports every member's callbacks says what it knows now: its changes are of now */
	g->poll_lo = c->G->exact ? c->T : g->pl->desc_prev;
	g->exact_group = c->G->exact;
}

/*
 * Members a trace said left, in a description begun before (or just
 * after) that leave: the broker's answer predates it.  They are taken
 * out of the snapshot, so that no older refresh brings a member back (a
 * "joined" then "left" that never happened); the partitions they held
 * have no owner in it.
 */
static void
drop_stale(poll_ctx *c, kg_group *G)
{
	int k, w = 0, small[64], *map = small; /* on the stack unless the group has more members */
	/* none of its members was marked gone within TK_STALE_DESCRIPTION of this description: no lookups */
	if (G->nmembers == 0 || c->g->pl->desc_at >= c->g->gone_latest + TK_STALE_DESCRIPTION)
		return;
	if (G->nmembers > (int)KG_ARRAY_LEN(small))
		map = xmalloc((size_t)G->nmembers * sizeof *map);
	for (k = 0; k < G->nmembers; k++) {
		const kg_member *mm = &G->members[k];
		tmember *m = tk_find_member_of(c->g, mm->member_id, mm->client_id);
		if (m != NULL && !m->present && m->left_exact && c->g->pl->desc_at < m->gone_time + TK_STALE_DESCRIPTION) {
			map[k] = -1;
			continue;
		}
		map[k] = w;
		if (w != k)
			G->members[w] = G->members[k];
		w++;
	}
	if (w < G->nmembers) {
		group_rows_own(G);
		rows_touch(G->rows);
		for (k = 0; k < G->nparts; k++) {
			if (G->parts[k].owner >= 0)
				G->parts[k].owner = map[G->parts[k].owner];
		}
		G->nmembers = w;
	}
	if (map != small)
		free(map);
}

/* Report orphans outside an episode when the orphaned set changes. */
static void
report_orphans(kg_tracker *t, tgroup *g, const kg_group *G, int64_t T, const char *note)
{
	kg_tp *v = NULL;
	int n = 0, i;
	kg_event *ev;
	for (i = 0; i < G->nparts; i++) {
		if (G->parts[i].orphaned) {
			v = xreallocarray(v, (size_t)n + 1, sizeof *v);
			v[n++] = G->parts[i].tp;
		}
	}
	if (tp_equal(v, n, g->pl->orphans_reported, g->pl->norphans_reported)) {
		free(v);
		return;
	}
	free(g->pl->orphans_reported);
	g->pl->orphans_reported = v;
	g->pl->norphans_reported = n;
	if (n == 0)
		return;
	ev = event_new(KG_EV_ORPHANED, T, g->id);
	ev->parts = tp_dup(v, n);
	ev->nparts = n;
	ev->evidence = KG_EVID_POLLED;
	event_text(ev, note);
	tk_emit(t, g, ev);
}

/*
 * A description that says nothing to derive: true for a group whose
 * description failed this time (not authorized, the coordinator loading or
 * moving: keep what we knew rather than see everybody leave), and for a
 * group known only from its coordinator's log (its episodes come from the
 * log's own lines; the snapshot lists it with the state the log implies).
 */
static bool
poll_no_news(tgroup *g, const kg_group *G, bool first)
{
	g->no_news = !first && G->error != NULL && G->nmembers == 0 && G->state == KG_STATE_UNKNOWN;
	if (g->no_news) {
		g->present = true;
		if (G->lag >= 0)
			g->lag = G->lag;
		return true;
	}
	if (G->traced || G->members_unknown) {
		/* a consumer group an old librdkafka cannot describe is known to exist, its members are not */
		g->present = true;
		if (G->proto != KG_PROTO_UNKNOWN)
			g->proto = G->proto;
		if (G->lag >= 0)
			g->lag = G->lag;
		return true;
	}
	return false;
}

/* The group itself: appeared, its protocol, assignor and lag, its state and a change of it. */
static void
poll_group_facts(poll_ctx *c)
{
	kg_tracker *t = c->t;
	tgroup *g = c->g;
	const kg_group *G = c->G;
	if (!g->present && (!c->first || t->seen_groups)) {
		kg_event *ev = event_new(KG_EV_GROUP_APPEARED, c->T, g->id);
		sbuf s = { 0 };
		sbuf_addf(&s, "%s, %d member%s", state_name(G->state), G->nmembers, G->nmembers == 1 ? "" : "s");
		event_text(ev, sbuf_str(&s));
		sbuf_free(&s);
		tk_emit(t, g, ev);
	}
	if (c->first)
		g->first_seen = c->T;
	g->seen = true;
	t->seen_groups_now = true;
	g->present = true;
	if (!tk_rows_known(g, G))
		g->single_topic = group_single_topic(G);
	if (G->proto != KG_PROTO_UNKNOWN)
		g->proto = G->proto;
	if (G->assignor != NULL && *G->assignor != '\0')
		tk_set_str(&g->assignor, G->assignor);
	c->prev_lag = g->lag;
	g->lag = G->lag;
	if (!c->first && g->state != G->state && G->state != KG_STATE_UNKNOWN) {
		kg_event *ev = event_new(KG_EV_STATE, c->T, g->id);
		ev->from = g->state;
		ev->to = G->state;
		ev->evidence = KG_EVID_POLLED;
		tk_emit(t, g, ev);
	}
	if (G->state != KG_STATE_UNKNOWN)
		g->state = G->state;
	if (G->state == KG_STATE_STABLE)
		g->pl->stable_at = g->pl->desc_at;
	c->stable_now = G->state == KG_STATE_STABLE || (G->exact && G->state == KG_STATE_UNKNOWN);
	c->ev_state = state_rebalancing(G->state);
}

/*
 * A member id the tracker does not know: a static member back within its
 * session (KIP-345: its predecessor goes, it has its partitions, no
 * rebalance), one that was there before us, or a join (*join).
 */
static tmember *
poll_new_member(poll_ctx *c, const kg_member *mm, tmember **gone, size_t ngone, bool *join)
{
	tgroup *g = c->g;
	tmember *pred = c->first ? NULL : static_predecessor(mm, gone, ngone), *m;
	if (pred != NULL && !(c->G->state == KG_STATE_STABLE && g->ep == NULL &&
			      tp_equal(mm->assignment, mm->nassigned, pred->stable, pred->nstable)))
		pred = NULL;
	if (pred != NULL) {
		/* KIP-345: the same instance is back with its partitions, no rebalance */
		size_t q;
		for (q = 0; q < ngone; q++) {
			if (gone[q] == pred)
				gone[q] = NULL;
		}
		pred->left_reported = true;
		tk_member_gone(c->t, g, pred, c->T);
	}
	m = tk_add_member(c->t, g, mm->member_id, mm->client_id, mm->host, mm->instance_id, c->T);
	*join = false;
	if (pred != NULL) {
		m->announced = true;
		tk_set_tp(&m->stable, &m->nstable, pred->stable, pred->nstable);
		tk_set_tp(&m->asg, &m->nasg, pred->stable, pred->nstable);
		{
			kg_event *ev = tk_member_event(KG_EV_MEMBER_BACK, c->T, g, m);
			ev->evidence = KG_EVID_POLLED; /* a description: no rebalance seen, not none */
			tk_emit(c->t, g, ev);
		}
	} else if (c->first) {
		m->announced = true;
		m->assumed = true;
	} else {
		*join = true;
	}
	return m;
}

/* A member back under the same id (the mock reuses ids): on its lane again, a join, holding nothing yet. */
static void
poll_revived(poll_ctx *c, tmember *m)
{
	kg_lane *l = history_lane(c->t->h, c->g->id, m->lane);
	tk_member_revive(c->g, m);
	m->announced = false;
	m->revived_at = c->T;
	m->leave_reason = KG_REASON_NONE;
	tk_set_tp(&m->stable, &m->nstable, NULL, 0);
	tk_set_tp(&m->asg, &m->nasg, NULL, 0);
	if (l != NULL)
		tk_lane_claim(l, m, c->T);
}

/* Membership: who vanished, who is new, who is back; leaves and joins announced. */
static void
poll_membership(poll_ctx *c)
{
	tgroup *g = c->g;
	const kg_group *G = c->G;
	tmember **joined = NULL, **gone = NULL;
	size_t nj = 0, ngone = 0, i;
	int k;

	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		/* a member a trace showed in the group after this description was begun is not gone from it */
		if (m->traced_at > 0 && g->pl->desc_at < m->traced_at + TK_STALE_DESCRIPTION)
			continue;
		if (m->present && tk_snap_member(g, G, m) == NULL) {
			gone = xreallocarray(gone, ngone + 1, sizeof *gone);
			gone[ngone++] = m;
		}
	}
	for (k = 0; k < G->nmembers; k++) {
		const kg_member *mm = &G->members[k];
		tmember *m = tk_find_member_of(g, mm->member_id, mm->client_id);
		bool join = false;
		if (m == NULL) {
			m = poll_new_member(c, mm, gone, ngone, &join);
		} else if (!m->present) {
			poll_revived(c, m);
			join = true;
		}
		if (join) {
			joined = xreallocarray(joined, nj + 1, sizeof *joined);
			joined[nj++] = m;
		}
		tk_member_learn_client(c->t, g, m, mm->client_id, mm->host);
		tk_set_str(&m->client_id, mm->client_id);
		tk_set_str(&m->host, mm->host);
		tk_set_str(&m->instance_id, mm->instance_id);
		m->last_seen = c->T;
		if (mm->flags & KG_MEMBER_EXACT)
			m->exact = true;
		if (!m->exact && c->stable_now && m->announced && !c->first &&
		    !tp_equal(mm->assignment, mm->nassigned, m->stable, m->nstable))
			c->assign_changed = true;
	}
	for (i = 0; i < ngone; i++) {
		tmember *m = gone[i];
		if (m == NULL)
			continue;
		c->nleft++;
		if (m->left_reported) {
			tk_member_gone(c->t, g, m, c->T);
		} else if (m->leave_reason != KG_REASON_NONE) {
			tk_announce_leave(c->t, g, m, c->T, m->leave_reason, NULL, KG_EVID_POLLED);
		} else {
			/* polling alone: a leave by its last commit's time, a timeout after a silence, inferred */
			char why[160];
			kg_reason r = tk_live_gone_reason(c->t, g, m, c->T, why, sizeof why);
			tk_announce_leave(c->t, g, m, c->T, r, why[0] ? why : NULL, KG_EVID_POLLED);
		}
	}
	for (i = 0; i < nj; i++)
		tk_announce_join(c->t, g, joined[i], c->T, KG_EVID_POLLED);
	c->nj = nj;
	free(joined);
	free(gone);
}

/*
 * What this description shows can be the outcome of the last episode, told
 * exactly and closed already (a coordinator's record or log line ended it
 * before the description was read): a rebalancing state in a description
 * taken before that end, or a change that can have happened before it.
 * It is that episode's, never a new one.
 */
static bool
poll_late_outcome(poll_ctx *c)
{
	tgroup *g = c->g;
	const kg_episode *e = history_episode(c->t->h, g->id, tk_ep_last(g));
	if (e == NULL || e->end_us == 0 || e->evidence != KG_EVID_EXACT || e->end_lo_us != e->end_us)
		return false;
	if (c->ev_state)
		return g->pl->desc_at <= e->end_us;
	return g->poll_lo > 0 && g->poll_lo <= e->end_us;
}

/* Is a rebalance going on?  Its first polled evidence opens the episode; an emptied group closes it. */
static void
poll_evidence(poll_ctx *c)
{
	tgroup *g = c->g;
	const kg_group *G = c->G;
	bool changed = c->nj > 0 || c->nleft > 0 || c->assign_changed, evidence;
	/* an exact source's callbacks tell its rounds: only a rebalancing state is evidence here */
	evidence = c->ev_state || (!G->exact && changed);
	if (c->first && !c->ev_state)
		evidence = false;
	if (g->ep == NULL && evidence && poll_late_outcome(c))
		evidence = false;
	/*
	 * everybody left: the group is empty, nothing more to rebalance.  Its
	 * members dropped between two refreshes (static members closing without
	 * LeaveGroup, removed on their session timeout) were a rebalance too,
	 * the coordinator's last generation: it opens and ends here, unless
	 * exact evidence told it already.  (A KIP-848 group whose records list
	 * members is not empty: librdkafka 2.0.2 describes such a group Dead
	 * with no member.)
	 */
	if ((G->state == KG_STATE_EMPTY || G->state == KG_STATE_DEAD) && G->nmembers == 0 && tk_records_members(g) == 0) {
		if (g->ep == NULL && c->nleft > 0 && !c->first && !G->exact && !poll_late_outcome(c))
			tk_ensure_episode(c->t, g, c->T, "member left", KG_EVID_POLLED);
		evidence = false;
		/* the description before said Empty too: the group was empty by the time it was handed over */
		tk_group_emptied(c->t, g, c->T, g->pl->empty_asked == g->pl->desc_prev ? g->eps->emptied_at : 0,
				 g->pl->empty_asked);
		g->pl->empty_asked = g->pl->desc_at;
	}
	if (g->ep == NULL && evidence) {
		const char *why = c->ev_state ? "in progress when polled"
				  : c->nj > 0 ? "member joined"
				  : c->nleft > 0 ? "member left" : "assignment changed";
		tk_ensure_episode(c->t, g, c->T, why, KG_EVID_POLLED);
		/* the description before left partitions without an owner: it may have been between two rounds already */
		if (g->pl->orphan_since > 0)
			g->ep->start_lo_us = 0;
		if (c->prev_lag >= 0)
			g->ep->lag_start = c->prev_lag; /* the lag just before it began */
	}
	if (g->ep != NULL && (c->ev_state || changed))
		g->eps->ep_changed = true;
}

/* Eager: every polled member revokes everything it held at the start of each round. */
static void
poll_eager_revokes(poll_ctx *c)
{
	tgroup *g = c->g;
	int64_t when = g->ep->rounds == 1 ? g->ep->start_us : c->T;
	size_t i;
	if (!c->ev_state && !c->stable_now)
		return;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		if (!m->present || m->exact || m->eps->revoked_round >= g->ep->rounds || m->nstable == 0 ||
		    m->eps->synced_round >= g->ep->rounds)
			continue;
		tk_revoke(c->t, g, m, when, m->stable, m->nstable, m->stable, m->nstable, KG_EVID_PROTOCOL,
			  KG_PROTO_EAGER, KG_REASON_NONE, g->ep->rounds);
	}
}

/*
 * A polled member's sync in a Stable description: an eager member gets
 * the round's new assignment (once); a cooperative (or unknown) one revokes
 * what it held at the last Stable description and holds no more, and gets
 * what it holds now and did not.
 */
static void
poll_sync_member(poll_ctx *c, tmember *m, const kg_member *mm, int64_t sync_time)
{
	tgroup *g = c->g;
	if (g->proto == KG_PROTO_EAGER) {
		if (m->eps->synced_round < g->ep->rounds)
			tk_assign(c->t, g, m, sync_time, mm->assignment, mm->nassigned, KG_EVID_POLLED, g->ep->rounds);
	} else {
		kg_tp *rv = xmalloc(((size_t)m->nstable + 1) * sizeof *rv);
		kg_tp *as = xmalloc(((size_t)mm->nassigned + 1) * sizeof *as);
		int nr = tp_diff(m->stable, m->nstable, mm->assignment, mm->nassigned, rv);
		int na = tp_diff(mm->assignment, mm->nassigned, m->stable, m->nstable, as);
		if (nr > 0) {
			tk_revoke(c->t, g, m, sync_time, rv, nr, m->stable, m->nstable, KG_EVID_POLLED, g->proto,
				  KG_REASON_NONE, g->ep->rounds);
			if (nr == m->nstable)
				tk_member_stop(m, sync_time, sync_time, tk_lo(g, sync_time, KG_EVID_POLLED));
		}
		tk_assign(c->t, g, m, sync_time, as, na, KG_EVID_POLLED, g->ep->rounds);
		free(rv);
		free(as);
	}
	tk_set_tp(&m->stable, &m->nstable, mm->assignment, mm->nassigned);
	tk_set_tp(&m->asg, &m->nasg, mm->assignment, mm->nassigned);
	m->eps->synced_round = g->ep->rounds;
}

/* A Stable description ends the round: at the exact sync time when one was reported in it, else now. */
static void
poll_sync(poll_ctx *c)
{
	tgroup *g = c->g;
	int64_t T = c->T;
	int64_t sync_time = g->eps->exact_sync >= g->eps->round_start && g->eps->exact_sync > 0 && g->eps->exact_sync <= T ? g->eps->exact_sync : T;
	size_t i;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_member *mm;
		if (!m->present || m->exact || (mm = tk_snap_member(c->g, c->G, m)) == NULL)
			continue;
		poll_sync_member(c, m, mm, sync_time);
	}
	/*
	 * A member reported by callbacks that holds what the broker says
	 * it holds has synced too (holding nothing proves nothing: that
	 * is also what a member waiting for its assignment holds).
	 */
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_member *mm;
		if (!m->present || !m->exact || (mm = tk_snap_member(c->g, c->G, m)) == NULL)
			continue;
		if (m->nasg > 0 && tp_equal(mm->assignment, mm->nassigned, m->asg, m->nasg))
			m->eps->synced = true;
	}
	tk_round_synced_at(c->t, g, sync_time, false);
}

/*
 * A Stable description after a Stable one in the same episode, with
 * assignments that changed: a generation completed between two refreshes
 * without a rebalancing state in either (polling saw its result only).
 */
static bool
poll_missed_generation(poll_ctx *c)
{
	tgroup *g = c->g;
	size_t i;
	if (c->ev_state || c->G->state != KG_STATE_STABLE || g->eps->phase != PHASE_SYNCED)
		return false;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_member *mm;
		if (!m->present || m->exact || m->eps->synced_round < g->ep->rounds || (mm = tk_snap_member(c->g, c->G, m)) == NULL)
			continue;
		if (!tp_equal(mm->assignment, mm->nassigned, m->stable, m->nstable))
			return true;
	}
	return false;
}

/*
 * The description was asked before the coordinator's latest record or
 * line of the open episode (a log's, a client's), and a newer one is due
 * within two refreshes (at most the log's 30 s into the episode): handed
 * over with a round's lines, it shows the picture before them.  It ends
 * no round and closes nothing (poll_rounds, poll_try_close); the next
 * description does.  The refresh that opened the episode on this very
 * description is no such line.
 */
static bool
poll_predates(const poll_ctx *c)
{
	const tgroup *g = c->g;
	int64_t T = c->T;
	return !c->G->exact && g->ep != NULL && g->pl->desc_at < g->eps->last_rebal_obs &&
	       g->eps->last_rebal_obs != g->eps->polled_open &&
	       T - g->pl->desc_at <= 2 * (c->t->interval_us > 0 ? c->t->interval_us : KG_SEC_US) &&
	       T - g->ep->start_us < LOG_WAIT_US;
}

/* The rounds of an open episode of a polled group: a rebalancing state is a join signal, Stable a sync. */
static void
poll_rounds(poll_ctx *c)
{
	tgroup *g = c->g;
	g->eps->ep_polled = true;
	g->eps->ep_logonly = false;
	/*
	 * The coordinator's records count this group's generations: polling's
	 * guesses add none.  A description taken before the last sync a
	 * client or a coordinator timed shows that round, not the next; nor
	 * does a CompletingRebalance after the coordinator's "Stabilized" of
	 * the round (its join completed, the leader's assignment not yet
	 * received): the round the line ended, awaiting its sync.
	 */
	if (!tk_records_told(g) && !(g->eps->exact_sync > 0 && g->pl->desc_at <= g->eps->exact_sync) &&
	    !(c->G->state == KG_STATE_COMPLETING_REBALANCE && g->eps->log_joined) &&
	    (c->ev_state || poll_missed_generation(c)))
		tk_next_round(c->t, g, c->T, KG_EVID_POLLED);
	if (g->proto == KG_PROTO_EAGER)
		poll_eager_revokes(c);
	if (c->G->state == KG_STATE_STABLE && !(g->eps->await_log_sync && !g->eps->ep_changed) && !poll_predates(c))
		poll_sync(c);
}

/* A member's revoke or assignment polling saw after an exact source closed its episode: that episode's. */
static void
late_event(poll_ctx *c, const kg_episode *e, tmember *m, kg_event_kind kind, int64_t time, const kg_tp *parts, int n)
{
	kg_event *ev = tk_member_event(kind, time, c->g, m);
	ev->parts = tp_dup(parts, n);
	ev->nparts = ev->parts ? n : 0;
	if (kind == KG_EV_REVOKED) {
		ev->before = tp_dup(m->stable, m->nstable);
		ev->nbefore = ev->before ? m->nstable : 0;
		ev->cls = tp_classify_revoke(parts, n, m->stable, m->nstable);
	}
	ev->evidence = KG_EVID_POLLED;
	ev->proto = e->proto != KG_PROTO_UNKNOWN ? e->proto : c->g->proto;
	ev->episode = e->id;
	ev->round = kind == KG_EV_REVOKED ? 1 : KG_MAX(e->rounds, 1);
	ev->generation = c->g->generation;
	tk_emit(c->t, c->g, ev);
}

/*
 * What members revoked and got in the last episode, which a coordinator's
 * log or record closed before a description showed its outcome: the log
 * names no partition, so polling tells them, as that episode's (an eager
 * member revoked all it held; a cooperative one what it no longer holds),
 * revokes at its start and assignments at its end.
 */
static void
poll_late_moves(poll_ctx *c, const kg_episode *e, tmember *m, const kg_member *mm)
{
	bool eager = (e->proto != KG_PROTO_UNKNOWN ? e->proto : c->g->proto) == KG_PROTO_EAGER;
	kg_tp *rv = xmalloc(((size_t)m->nstable + 1) * sizeof *rv);
	kg_tp *as = xmalloc(((size_t)mm->nassigned + 1) * sizeof *as);
	int nr = tp_diff(m->stable, m->nstable, mm->assignment, mm->nassigned, rv);
	int na = tp_diff(mm->assignment, mm->nassigned, m->stable, m->nstable, as);
	if (eager) { /* every member revokes all it held and gets its assignment anew */
		if (m->nstable > 0)
			late_event(c, e, m, KG_EV_REVOKED, e->start_us, m->stable, m->nstable);
		if (mm->nassigned > 0)
			late_event(c, e, m, KG_EV_ASSIGNED, e->end_us, mm->assignment, mm->nassigned);
	} else {
		if (nr > 0)
			late_event(c, e, m, KG_EV_REVOKED, e->start_us, rv, nr);
		if (na > 0)
			late_event(c, e, m, KG_EV_ASSIGNED, e->end_us, as, na);
	}
	free(rv);
	free(as);
}

/* Outside a rebalance the polled picture is the truth. */
static void
poll_truth(poll_ctx *c)
{
	tgroup *g = c->g;
	size_t i;
	const kg_episode *late;
	if (g->ep != NULL || !(c->stable_now || c->G->state == KG_STATE_EMPTY))
		return;
	late = c->assign_changed && !c->G->exact && poll_late_outcome(c) ? history_episode(c->t->h, g->id, tk_ep_last(g)) : NULL;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_member *mm;
		if (!m->present || (mm = tk_snap_member(c->g, c->G, m)) == NULL)
			continue;
		if (late != NULL)
			poll_late_moves(c, late, m, mm);
		/*
		 * Between rebalances the description is the truth: a broker's
		 * wins over callbacks that went quiet, and a callback source's
		 * own is built from the callbacks already handed over.
		 */
		tk_set_tp(&m->stable, &m->nstable, mm->assignment, mm->nassigned);
		tk_set_tp(&m->asg, &m->nasg, mm->assignment, mm->nassigned);
	}
}

/* Orphaned partitions of a Stable group: since when; the reported set is forgotten once none are left. */
static void
poll_orphans(poll_ctx *c)
{
	tgroup *g = c->g;
	if (c->stable_now && c->G->norphaned + tk_ep_unowned(c->g, c->G) > 0) {
		if (g->pl->orphan_since == 0)
			g->pl->orphan_since = c->T;
	} else {
		g->pl->orphan_since = 0;
		if (c->G->norphaned == 0 && g->pl->norphans_reported > 0) {
			free(g->pl->orphans_reported);
			g->pl->orphans_reported = NULL;
			g->pl->norphans_reported = 0;
		}
	}
}

/*
 * The open episode of a Stable group closes when no partition is orphaned
 * and every exact member synced (a quiet spell first for an exact group),
 * or with its orphans once they outlast the grace.
 */
static void
poll_try_close(poll_ctx *c)
{
	tgroup *g = c->g;
	const kg_group *G = c->G;
	int64_t T = c->T;
	bool synced = true, log_ok;
	size_t i;
	for (i = 0; i < g->nm; i++) {
		if (g->m[i]->present && g->m[i]->exact && !g->m[i]->eps->synced)
			synced = false;
	}
	/*
	 * A coordinator log said a round began: a Stable description
	 * proves nothing until the log's end of round, or polling saw the
	 * round itself (the description may predate the log line).
	 */
	log_ok = !g->eps->await_log_sync || g->eps->ep_changed || T - g->ep->start_us >= LOG_WAIT_US;
	/*
	 * A description taken before the coordinator's latest record or line
	 * of the episode cannot say it is over: one asked before the rebalance
	 * began and handed over with its first round's lines (the refresh and
	 * the log are read apart) shows the picture before it, Stable and all
	 * owned, and would close the episode between two rounds.  Only while
	 * a newer description is due (within two refreshes): an old picture
	 * (the cluster unreachable, a group asked in turn) stays as good as it
	 * was, the lines' sync closing the episode; a trace's clock far ahead
	 * of ours holds it no longer than the log's 30 s.
	 */
	if (!G->exact && g->pl->desc_at < tk_records_at(g))
		log_ok = false;
	if (poll_predates(c))
		log_ok = false;
	/* a member whose last sync no callback reported must not hold the episode open for ever */
	if (!synced && T - g->eps->last_rebal_obs >= EXACT_QUIET)
		synced = true;
	/* what its start owners had and nobody owns now is between the rounds of a cooperative rebalance */
	int unowned = G->norphaned + tk_ep_unowned(g, G);
	if (unowned == 0 && synced && log_ok && (!G->exact || T - g->eps->last_rebal_obs >= EXACT_SETTLE)) {
		int64_t end = g->eps->last_sync >= g->ep->start_us && g->eps->last_sync > 0 && g->eps->last_sync <= T ? g->eps->last_sync : T;
		/* a sync a client or a coordinator timed is measured; one a description showed happened since the one before */
		int64_t end_lo = end == g->eps->exact_sync ? end : g->poll_lo;
		if (g->eps->log_joined && c->t->log_tells_syncs && end == g->eps->last_sync && end == g->eps->exact_sync) {
			/* the log said the join completed, not yet the leader's assignment: that came between it and now */
			end_lo = end;
			end = T;
		} else if (g->eps->log_joined && c->t->log_tells_syncs && g->eps->exact_sync > end_lo && g->eps->exact_sync <= end) {
			/* polling saw the round synced after the log's "Stabilized" (the log behind it): the assignment came after that line */
			end_lo = g->eps->exact_sync;
		} else if (end == g->eps->exact_sync && g->eps->log_members >= 0 && G->nmembers != g->eps->log_members &&
			   g->pl->desc_at > end && !G->exact && !g->eps->ep_callbacks) {
			/*
			 * A Stable description taken after the log's last sync shows
			 * other members than that generation had: a generation the
			 * log, behind polling, has not told yet (a member that came
			 * or went between two refreshes).  The end is between that
			 * sync and this description, a round more at least; the
			 * late lines retime it.
			 */
			end_lo = end;
			end = T;
			g->ep->rounds++;
		}
		tk_close_episode(c->t, g, end, end_lo, g->ep->start_us == T ? "between two refreshes" : NULL);
		g->eps->closed_at = T; /* late evidence before this moment is of this episode */
		/* its earliest end is a description that showed the group still rebalancing: a later sync is no earlier round's */
		g->eps->end_lo_by = end_lo != end && end_lo == g->pl->rebal_at ? END_LO_DESC : 0;
	} else if (unowned > 0 && g->pl->orphan_since > 0 && T - g->pl->orphan_since >= c->t->cfg.orphan_grace_us) {
		char note[96];
		snprintf(note, sizeof note, "%d partition%s left orphaned", unowned, unowned == 1 ? "" : "s");
		tk_close_episode(c->t, g, T, T, note);
		report_orphans(c->t, g, G, T, "still unowned after the rebalance");
	}
}

/* Can the episode close?  Outside one, orphans are reported once they last (or at start). */
static void
poll_close(poll_ctx *c)
{
	tgroup *g = c->g;
	const kg_group *G = c->G;
	size_t i;
	if (g->ep != NULL && G->exact && G->state == KG_STATE_STABLE) {
		/* the source saw no JoinGroup or SyncGroup outstanding: everyone has its answer */
		for (i = 0; i < g->nm; i++)
			g->m[i]->eps->synced = true;
	}
	if (g->ep != NULL && c->stable_now) {
		poll_try_close(c);
	} else if (g->ep == NULL && c->stable_now && G->norphaned > 0 && !c->first &&
		   c->T - g->pl->orphan_since >= ORPHAN_REPORT_DELAY) {
		/* not the instant between a member leaving and the rebalance it causes */
		report_orphans(c->t, g, G, c->T, NULL);
	} else if (g->ep == NULL && c->first && G->norphaned > 0) {
		report_orphans(c->t, g, G, c->T, "at start");
	}
}

/*
 * A group's data asked after a gap (a source asks it in turn, not every
 * refresh): the polled changes it shows happened after its data before,
 * which the events say ("between 03:12:04 and 03:12:31").
 */
static void
poll_gap(kg_tracker *t, const kg_group *G, int64_t before, size_t first)
{
	size_t i;
	if (before <= 0 || t->out == NULL || t->interval_us <= 0 || G->data_time_us - before <= 2 * t->interval_us)
		return;
	for (i = first; i < t->out->n; i++) {
		kg_event *e = t->out->v[i];
		if (e->group == G->id && e->evidence != KG_EVID_EXACT && e->after_us == 0)
			e->after_us = before;
	}
}

/* When the last description that showed the group Stable was taken, 0 none. */
int64_t
tk_poll_stable_at(const tgroup *g)
{
	return g->pl != NULL ? g->pl->stable_at : 0;
}

/* When the last description that showed the group not rebalancing (Stable, or Empty) was taken, 0 none. */
int64_t
tk_poll_calm_at(const tgroup *g)
{
	return g->pl != NULL ? KG_MAX(g->pl->stable_at, g->pl->empty_asked) : 0;
}

/* Fold the polled picture of one group (g its record). */
void
tk_apply_group(kg_tracker *t, tgroup *g, kg_group *G, int64_t T)
{
	poll_ctx c;
	size_t first = t->out != NULL ? t->out->n : 0;
	int64_t before;
	memset(&c, 0, sizeof c);
	if (g->pl == NULL)
		g->pl = xcalloc(1, sizeof *g->pl);
	c.t = t;
	c.g = g;
	c.G = G;
	c.T = T;
	c.first = !c.g->seen;
	c.g->parts_same = false; /* until tk_ep_group_parts says */
	before = c.g->pl->data_at;
	if (G->data_time_us > 0)
		c.g->pl->data_at = G->data_time_us;
	if (poll_no_news(c.g, G, c.first))
		return;
	poll_times(&c);
	tk_ep_group_parts(c.g, G);
	drop_stale(&c, G);
	poll_group_facts(&c);
	poll_membership(&c);
	if (tk_kip_is_consumer(c.g, G) && !G->exact) {
		/* KIP-848: no rounds, members reconcile to their targets (tracker_kip.c) */
		tk_kip_poll(t, c.g, G, T, c.first, c.nj > 0 || c.nleft > 0);
	} else {
		poll_evidence(&c);
		if (c.g->ep != NULL && !G->exact)
			poll_rounds(&c);
		poll_truth(&c);
		poll_orphans(&c);
		poll_close(&c);
		if (c.ev_state)
			c.g->pl->rebal_at = c.g->pl->desc_at;
	}
	poll_gap(t, G, before, first);
	if (G->lag >= 0) {
		history_add_lag(t->h, c.g->id, T, G->lag);
		if (c.g->ep != NULL && G->lag > c.g->ep->lag_peak)
			c.g->ep->lag_peak = G->lag;
	}
}

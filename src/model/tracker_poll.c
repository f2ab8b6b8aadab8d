/*
 * tracker_poll.c: fold the polled picture of a group.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker_int.h"

/*
 * The snapshot's entry of a member, NULL when absent.  A member id the
 * snapshot gives to another client (the mock cluster reuses ids) is not
 * this member's.
 */
const kg_member *
tk_snap_member(const kg_group *G, const tmember *m)
{
	int i = group_member_index(G, m->member_id);
	const kg_member *mm = i >= 0 ? &G->members[i] : NULL;
	if (mm != NULL && m->client_id != NULL && *m->client_id != '\0' && *mm->client_id != '\0' &&
	    strcmp(m->client_id, mm->client_id) != 0)
		return NULL;
	return mm;
}

/* Pair a newly seen static member with one that vanished: a restart within session.timeout.ms. */
static tmember *
static_predecessor(tgroup *g, const kg_member *mm, tmember **gone, size_t ngone)
{
	size_t i;
	(void)g;
	if (mm->instance_id == NULL)
		return NULL;
	for (i = 0; i < ngone; i++) {
		if (gone[i] != NULL && gone[i]->instance_id != NULL && strcmp(gone[i]->instance_id, mm->instance_id) == 0)
			return gone[i];
	}
	return NULL;
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
	if (tp_equal(v, n, g->orphans_reported, g->norphans_reported)) {
		free(v);
		return;
	}
	free(g->orphans_reported);
	g->orphans_reported = v;
	g->norphans_reported = n;
	if (n == 0)
		return;
	ev = event_new(KG_EV_ORPHANED, T, g->id);
	ev->parts = tp_dup(v, n);
	ev->nparts = n;
	ev->evidence = KG_EVID_POLLED;
	event_text(ev, note);
	tk_emit(t, g, ev);
}

/* Fold the polled picture of one group. */
void
tk_apply_group(kg_tracker *t, kg_group *G, int64_t T)
{
	tgroup *g = tk_group_get(t, G->id);
	bool first = !g->seen;
	/* members of a group seen for the first time were there before us: not joins */
	bool baseline = first;
	bool exact_group = G->exact;
	bool assign_changed = false, ev_state, evidence, stable_now;
	tmember **joined = NULL, **gone = NULL;
	size_t nj = 0, ngone = 0, i;
	int k, nleft = 0;
	int64_t sync_time, prev_lag;

	/*
	 * A group whose description failed this time (not authorized, the
	 * coordinator loading or moving) says nothing new about its members:
	 * keep what we knew rather than see everybody leave.
	 */
	g->no_news = !first && G->error != NULL && G->nmembers == 0 && G->state == KG_STATE_UNKNOWN;
	if (g->no_news) {
		g->present = true;
		if (G->lag >= 0)
			g->lag = G->lag;
		return;
	}
	/*
	 * A group known only from its coordinator's log: its episodes come
	 * from the log's own lines (the log-only rules); the snapshot lists it
	 * with the state the log implies and nothing to derive.
	 */
	if (G->traced) {
		g->present = true;
		if (G->proto != KG_PROTO_UNKNOWN)
			g->proto = G->proto;
		return;
	}
	if (!g->present && (!first || t->seen_groups)) {
		kg_event *ev = event_new(KG_EV_GROUP_APPEARED, T, g->id);
		sbuf s = { 0 };
		sbuf_addf(&s, "%s, %d member%s", state_name(G->state), G->nmembers, G->nmembers == 1 ? "" : "s");
		event_text(ev, sbuf_str(&s));
		sbuf_free(&s);
		tk_emit(t, g, ev);
	}
	if (first)
		g->first_seen = T;
	g->seen = true;
	t->seen_groups_now = true;
	g->present = true;
	g->single_topic = group_single_topic(G);
	if (G->proto != KG_PROTO_UNKNOWN)
		g->proto = G->proto;
	if (G->assignor != NULL && *G->assignor != '\0')
		tk_set_str(&g->assignor, G->assignor);
	prev_lag = g->lag;
	g->lag = G->lag;
	if (!first && g->state != G->state && G->state != KG_STATE_UNKNOWN) {
		kg_event *ev = event_new(KG_EV_STATE, T, g->id);
		ev->from = g->state;
		ev->to = G->state;
		ev->evidence = KG_EVID_POLLED;
		tk_emit(t, g, ev);
	}
	if (G->state != KG_STATE_UNKNOWN)
		g->state = G->state;
	stable_now = G->state == KG_STATE_STABLE || (exact_group && G->state == KG_STATE_UNKNOWN);
	ev_state = state_rebalancing(G->state);

	/* membership: who vanished, who is new */
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		if (m->present && tk_snap_member(G, m) == NULL) {
			gone = xreallocarray(gone, ngone + 1, sizeof *gone);
			gone[ngone++] = m;
		}
	}
	for (k = 0; k < G->nmembers; k++) {
		const kg_member *mm = &G->members[k];
		tmember *m = tk_find_member_of(g, mm->member_id, mm->client_id);
		if (m == NULL) {
			tmember *pred = first ? NULL : static_predecessor(g, mm, gone, ngone);
			if (pred != NULL && !(G->state == KG_STATE_STABLE && g->ep == NULL &&
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
				tk_member_gone(t, g, pred, T);
			}
			m = tk_add_member(t, g, mm->member_id, mm->client_id, mm->host, mm->instance_id, T);
			if (pred != NULL) {
				m->announced = true;
				tk_set_tp(&m->stable, &m->nstable, pred->stable, pred->nstable);
				tk_set_tp(&m->asg, &m->nasg, pred->stable, pred->nstable);
				tk_emit(t, g, tk_member_event(KG_EV_MEMBER_BACK, T, g, m));
			} else if (baseline) {
				m->announced = true;
			} else {
				joined = xreallocarray(joined, nj + 1, sizeof *joined);
				joined[nj++] = m;
			}
		} else if (!m->present) {
			/* back under the same id (the mock reuses ids): on its lane again, a join, holding nothing yet */
			kg_lane *l = history_lane(t->h, g->id, m->lane);
			m->present = true;
			m->left_reported = false;
			m->announced = false;
			m->revived_at = T;
			m->leave_reason = KG_REASON_NONE;
			tk_set_tp(&m->stable, &m->nstable, NULL, 0);
			tk_set_tp(&m->asg, &m->nasg, NULL, 0);
			if (l != NULL)
				tk_lane_claim(l, m, T);
			joined = xreallocarray(joined, nj + 1, sizeof *joined);
			joined[nj++] = m;
		}
		tk_set_str(&m->client_id, mm->client_id);
		tk_set_str(&m->host, mm->host);
		tk_set_str(&m->instance_id, mm->instance_id);
		m->last_seen = T;
		if (mm->flags & KG_MEMBER_EXACT)
			m->exact = true;
		if (!m->exact && stable_now && m->announced && !baseline &&
		    !tp_equal(mm->assignment, mm->nassigned, m->stable, m->nstable))
			assign_changed = true;
	}
	for (i = 0; i < ngone; i++) {
		tmember *m = gone[i];
		if (m == NULL)
			continue;
		nleft++;
		if (!m->left_reported)
			tk_announce_leave(t, g, m, T, m->leave_reason != KG_REASON_NONE ? m->leave_reason : KG_REASON_UNKNOWN,
				       NULL, KG_EVID_POLLED);
		else
			tk_member_gone(t, g, m, T);
	}
	for (i = 0; i < nj; i++)
		tk_announce_join(t, g, joined[i], T, KG_EVID_POLLED);
	free(joined);
	free(gone);

	/* is a rebalance going on? */
	if (exact_group)
		evidence = ev_state;
	else
		evidence = ev_state || nj > 0 || nleft > 0 || assign_changed;
	if (baseline && !ev_state)
		evidence = false;
	/* everybody left: the group is empty, nothing to rebalance */
	if ((G->state == KG_STATE_EMPTY || G->state == KG_STATE_DEAD) && G->nmembers == 0) {
		evidence = false;
		/* the leaves that emptied it explain no later rebalance: the next members start afresh */
		free(g->trig_text);
		g->trig_text = NULL;
		g->emptied_at = T;
		if (g->ep != NULL)
			tk_close_episode(t, g, T, "the group is empty");
	}
	if (g->ep == NULL && evidence) {
		tk_ensure_episode(t, g, T,
			       ev_state ? "in progress when polled"
			       : nj	? "member joined"
			       : nleft	? "member left"
					: "assignment changed",
			       KG_EVID_POLLED);
		if (prev_lag >= 0)
			g->ep->lag_start = prev_lag; /* the lag just before it began */
	}
	if (g->ep != NULL && (ev_state || assign_changed || nj > 0 || nleft > 0))
		g->ep_changed = true;

	if (g->ep != NULL && !exact_group) {
		g->ep_polled = true;
		g->ep_logonly = false;
		if (ev_state && g->phase == PHASE_SYNCED)
			tk_next_round(t, g, T, KG_EVID_POLLED);
		/* eager: every member revokes everything it held at the start of each round */
		if (g->proto == KG_PROTO_EAGER) {
			int64_t when = g->ep->rounds == 1 ? g->ep->start_us : T;
			for (i = 0; i < g->nm; i++) {
				tmember *m = g->m[i];
				if (!m->present || m->exact || m->revoked_round >= g->ep->rounds || m->nstable == 0 ||
				    m->synced_round >= g->ep->rounds)
					continue;
				if (!ev_state && !stable_now)
					continue;
				tk_revoke(t, g, m, when, m->stable, m->nstable, m->stable, m->nstable, KG_EVID_PROTOCOL,
					  KG_PROTO_EAGER, KG_REASON_NONE, g->ep->rounds);
				if (m->stop_since == 0)
					m->stop_since = when;
			}
		}
		if (G->state == KG_STATE_STABLE && !(g->await_log_sync && !g->ep_changed)) {
			sync_time = g->exact_sync >= g->round_start && g->exact_sync > 0 && g->exact_sync <= T ? g->exact_sync : T;
			for (i = 0; i < g->nm; i++) {
				tmember *m = g->m[i];
				const kg_member *mm;
				if (!m->present || m->exact)
					continue;
				mm = tk_snap_member(G, m);
				if (mm == NULL)
					continue;
				if (g->proto == KG_PROTO_EAGER) {
					/* the round's new assignment, once */
					if (m->synced_round < g->ep->rounds)
						tk_assign(t, g, m, sync_time, mm->assignment, mm->nassigned, KG_EVID_POLLED, g->ep->rounds);
				} else {
					kg_tp *rv = xmalloc(((size_t)m->nstable + 1) * sizeof *rv);
					kg_tp *as = xmalloc(((size_t)mm->nassigned + 1) * sizeof *as);
					int nr = tp_diff(m->stable, m->nstable, mm->assignment, mm->nassigned, rv);
					int na = tp_diff(mm->assignment, mm->nassigned, m->stable, m->nstable, as);
					if (nr > 0) {
						tk_revoke(t, g, m, sync_time, rv, nr, m->stable, m->nstable, KG_EVID_POLLED,
							  g->proto, KG_REASON_NONE, g->ep->rounds);
						if (nr == m->nstable && m->stop_since == 0)
							m->stop_since = sync_time;
					}
					tk_assign(t, g, m, sync_time, as, na, KG_EVID_POLLED, g->ep->rounds);
					free(rv);
					free(as);
				}
				tk_set_tp(&m->stable, &m->nstable, mm->assignment, mm->nassigned);
				tk_set_tp(&m->asg, &m->nasg, mm->assignment, mm->nassigned);
				m->synced_round = g->ep->rounds;
			}
			/*
			 * A member reported by callbacks that holds what the broker says
			 * it holds has synced too (holding nothing proves nothing: that
			 * is also what a member waiting for its assignment holds).
			 */
			for (i = 0; i < g->nm; i++) {
				tmember *m = g->m[i];
				const kg_member *mm;
				if (!m->present || !m->exact || (mm = tk_snap_member(G, m)) == NULL)
					continue;
				if (m->nasg > 0 && tp_equal(mm->assignment, mm->nassigned, m->asg, m->nasg))
					m->synced = true;
			}
			g->phase = PHASE_SYNCED;
			g->last_sync = sync_time;
		}
	}

	/* outside a rebalance the polled picture is the truth */
	if (g->ep == NULL && (stable_now || G->state == KG_STATE_EMPTY)) {
		for (i = 0; i < g->nm; i++) {
			tmember *m = g->m[i];
			const kg_member *mm;
			if (!m->present)
				continue;
			mm = tk_snap_member(G, m);
			if (mm == NULL)
				continue;
			/*
			 * Between rebalances the description is the truth: a broker's
			 * wins over callbacks that went quiet, and a callback source's
			 * own is built from the callbacks already handed over.
			 */
			tk_set_tp(&m->stable, &m->nstable, mm->assignment, mm->nassigned);
			tk_set_tp(&m->asg, &m->nasg, mm->assignment, mm->nassigned);
		}
	}

	/* orphans */
	if (stable_now && G->norphaned > 0) {
		if (g->orphan_since == 0)
			g->orphan_since = T;
	} else {
		g->orphan_since = 0;
		if (G->norphaned == 0 && g->norphans_reported > 0) {
			free(g->orphans_reported);
			g->orphans_reported = NULL;
			g->norphans_reported = 0;
		}
	}

	/* can the episode close? */
	if (g->ep != NULL && exact_group && G->state == KG_STATE_STABLE) {
		/* the source saw no JoinGroup or SyncGroup outstanding: everyone has its answer */
		for (i = 0; i < g->nm; i++)
			g->m[i]->synced = true;
	}
	if (g->ep != NULL && stable_now) {
		bool synced = true;
		for (i = 0; i < g->nm; i++) {
			if (g->m[i]->present && g->m[i]->exact && !g->m[i]->synced)
				synced = false;
		}
		/*
		 * A coordinator log said a round began: a Stable description
		 * proves nothing until the log's end of round, or polling saw the
		 * round itself (the description may predate the log line).
		 */
		bool log_ok = !g->await_log_sync || g->ep_changed || T - g->ep->start_us >= 30LL * 1000000;
		/* a member whose last sync no callback reported must not hold the episode open for ever */
		if (!synced && T - g->last_rebal_obs >= EXACT_QUIET)
			synced = true;
		if (G->norphaned == 0 && synced && log_ok &&
		    (!exact_group || T - g->last_rebal_obs >= EXACT_SETTLE)) {
			int64_t end = g->last_sync >= g->ep->start_us && g->last_sync > 0 && g->last_sync <= T ? g->last_sync : T;
			tk_close_episode(t, g, end, g->ep->start_us == T ? "between two refreshes" : NULL);
		} else if (G->norphaned > 0 && g->orphan_since > 0 && T - g->orphan_since >= t->cfg.orphan_grace_us) {
			char note[96];
			snprintf(note, sizeof note, "%d partition%s left orphaned", G->norphaned,
				 G->norphaned == 1 ? "" : "s");
			tk_close_episode(t, g, T, note);
			report_orphans(t, g, G, T, "still unowned after the rebalance");
		}
	} else if (g->ep == NULL && stable_now && G->norphaned > 0 && !baseline &&
		   T - g->orphan_since >= ORPHAN_REPORT_DELAY) {
		/* not the instant between a member leaving and the rebalance it causes */
		report_orphans(t, g, G, T, NULL);
	} else if (g->ep == NULL && baseline && G->norphaned > 0) {
		report_orphans(t, g, G, T, "at start");
	}

	if (G->lag >= 0) {
		history_add_lag(t->h, g->id, T, G->lag);
		if (g->ep != NULL && G->lag > g->ep->lag_peak)
			g->ep->lag_peak = G->lag;
	}
}

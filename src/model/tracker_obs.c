/*
 * tracker_obs.c: fold observations (obs.h) into members and episodes.
 *
 * Each kind of observation has a row in obs_rules[]: its handler, how the
 * member it is about is found before the handler runs, and flags for what
 * every kind shares.  tk_apply_obs() does that shared part in one place:
 *   1. find the group (a client-keyed sample: the group of a present
 *      member with that client id) and close the log-only episodes that
 *      have settled by the observation's time;
 *   2. learn what the observation says of its group: the protocol the
 *      members run, the limits a trace carried, the generation;
 *   3. drop a member's own report that is older than the moment the
 *      member was seen gone (a slower stream: history already told);
 *   4. find, or create, the member the row says;
 *   5. run the handler;
 *   6. note an episode that consumers reported themselves.
 * Adding a kind: the enum and its name in obs.h / obs.c, a handler here
 * (obs_fn), and its row in obs_rules[].
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker_episode.h"
#include "model/tracker_fold.h"
#include "model/tracker_int.h"
#include "model/tracker_kip.h"
#include "model/tracker_lanes.h"
#include "model/tracker_live.h"
#include "model/tracker_progress.h"

/* How a handler's member is found before it runs. */
enum {
	MEMBER_NONE,  /* not at all: the handler needs none, or finds it itself */
	MEMBER_FIND,  /* a member already known, NULL when none */
	MEMBER_LOG,   /* also created in a group known only from its log (it learns members from their leaves) */
	MEMBER_EXACT, /* created when new, and marked exact: it reports its own callbacks */
};

#define RETIME_SETTLE (3000LL * 1000) /* a classic group's late evidence told once quiet this long after its time */
#define LATE_ROUND_WAIT (30000LL * 1000) /* a late round's retimed event waits this long at most for the round's sync */
#define LOG_SKEW_US (100LL * 1000) /* a broker's clock and kgtop's may differ this much: a line and a description compared */

/* What the shared part of tk_apply_obs() does for a kind. */
#define OBS_BY_CLIENT 0x01   /* keyed by client id alone: a group of -1 is the one of a present member with it */
#define OBS_OWN 0x02         /* the member's own doing (a callback, its JoinGroup): ignored when older than its leave */
#define OBS_CALLBACK 0x04    /* a consumer's own report: its episode is not known from a log alone */
#define OBS_SETS_PROTO 0x08  /* the member says which protocol the rebalance runs */
#define OBS_FIRST_PROTO 0x10 /* the member says what a group of unknown protocol will run */
#define OBS_GENERATION 0x20  /* the generation (or epoch) is the group's, when known */

/* A handler: m is the member the kind's row asked for (NULL for MEMBER_NONE, or none found). */
typedef void obs_fn(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o);

typedef struct obs_rule {
	obs_fn *fn;
	int member;     /* MEMBER_* */
	unsigned flags; /* OBS_* */
} obs_rule;

/* Remove v from an owned set. */
static void
tp_remove_from(kg_tp **set, int *n, const kg_tp *v, int nv)
{
	kg_tp *out;
	int k;
	if (*n == 0 || nv == 0)
		return;
	out = xmalloc((size_t)*n * sizeof *out);
	k = tp_diff(*set, *n, v, nv, out);
	free(*set);
	*set = out;
	*n = k;
	if (k == 0) {
		free(*set);
		*set = NULL;
	}
}

/* The member an observation is about, created for member-scoped kinds. */
static tmember *
obs_tmember(kg_tracker *t, tgroup *g, const kg_obs *o, bool create)
{
	tmember *m = tk_find_member_of(g, o->member_id, o->client_id);
	if (m == NULL && o->member_id == NULL)
		m = tk_find_by_client(g, o->client_id);
	if (m == NULL && o->member_id == NULL && o->instance_id != NULL) {
		size_t i;
		for (i = 0; i < g->nm && m == NULL; i++) {
			if (g->m[i]->instance_id && strcmp(g->m[i]->instance_id, o->instance_id) == 0)
				m = g->m[i];
		}
	}
	if (m == NULL && create && (o->member_id != NULL || o->client_id != NULL)) {
		char c[256];
		/* a coordinator log names members by id: "<client-id>-<uuid>" gives the client id */
		const char *client = o->client_id ? o->client_id : tk_client_of(o->member_id, c, sizeof c);
		m = tk_add_member(t, g, o->member_id ? o->member_id : o->client_id, client, o->host, o->instance_id,
				  o->time_us);
		m->announced = false;
		m->client_guessed = o->client_id == NULL;
	}
	if (m != NULL) {
		tk_member_learn_client(t, g, m, o->client_id, o->host);
		tk_set_str(&m->client_id, o->client_id);
		tk_set_str(&m->host, o->host);
		tk_set_str(&m->instance_id, o->instance_id);
		tk_live_limits(m, o);
	}
	return m;
}

/* The protocol of an observation's rebalance: the member's word, else the group's. */
static kg_proto
obs_proto(const tgroup *g, const kg_obs *o)
{
	return o->proto != KG_PROTO_UNKNOWN ? o->proto : g->proto;
}

/* A member that reports (again) is present (again), and alive. */
static void
obs_present(tgroup *g, tmember *m, int64_t time)
{
	if (!m->present)
		tk_member_revive(g, m);
	tk_member_alive(m, time, LIFE_CALLBACK);
	if (time > m->traced_at)
		m->traced_at = time;
}

/*
 * An episode told from polling got its real start or end from exact
 * evidence read later (a coordinator's log line, its record): the
 * timeline is right already (the episode is retimed in place); the event
 * list says so too, once the late evidence settled (tk_flush_retimed), so
 * a rebalance whose late lines come together or a round at a time is
 * told once, with its whole timing.
 */
void
tk_emit_retimed(kg_tracker *t, tgroup *g, const kg_episode *e, int64_t time)
{
	if (g->eps->retime_ep == 0) {
		util_grow(&t->retiming, &t->cretiming, t->nretiming + 1, sizeof *t->retiming);
		t->retiming[t->nretiming++] = g->id;
	}
	g->eps->retime_ep = e->id;
	if (time > g->eps->retime_at)
		g->eps->retime_at = time;
	g->eps->retime_tick = t->tick;
}

/*
 * Is a retimed episode's event still to wait at tick T?  While a late
 * round is open (its preparing read, its sync not yet), up to
 * LATE_ROUND_WAIT (a sync never read, or one a new rebalance takes, must
 * not keep it, nor the group's later ones, untold); and a classic
 * group's sync read late may be its first round's, the next one's lines
 * read by a later tick (a cooperative rebalance's second round begins as
 * its members revoke, milliseconds after: the CI run of 2026-12-04 read
 * them a tick apart and told 368 ms, then 871): its event waits for a
 * tick after the one that read it and RETIME_SETTLE after its time, the
 * spell within which a next generation is the same rebalance
 * (tracker_records.c's GEN_SETTLE, the log's LOG_SETTLE).  A KIP-848
 * episode is one round: told at once.
 */
static bool
retime_held(const tgroup *g, const kg_episode *e, int64_t T)
{
	if (g->eps->late_open && T - g->eps->retime_at < LATE_ROUND_WAIT)
		return true;
	if ((e->proto != KG_PROTO_UNKNOWN ? e->proto : g->proto) == KG_PROTO_CONSUMER)
		return false;
	return T <= g->eps->retime_tick || T - g->eps->retime_at < RETIME_SETTLE;
}

/* The retimed events whose late evidence settled by tick T: one per episode, in the order they were retimed. */
void
tk_flush_retimed(kg_tracker *t, int64_t T)
{
	size_t i, n = 0;
	for (i = 0; i < t->nretiming; i++) {
		tgroup *g = tk_group_find(t, t->retiming[i]);
		const kg_episode *e;
		kg_event *ev;
		char when[64];
		if (g == NULL || g->eps->retime_ep == 0)
			continue;
		e = history_episode(t->h, g->id, g->eps->retime_ep);
		if (e != NULL && retime_held(g, e, T)) {
			t->retiming[n++] = t->retiming[i];
			continue;
		}
		g->eps->retime_ep = 0;
		if (e == NULL)
			continue;
		ev = event_new(KG_EV_RETIMED, g->eps->retime_at, g->id);
		ev->episode = e->id;
		ev->evidence = KG_EVID_EXACT;
		ev->duration_us = e->end_us - e->start_us;
		ev->duration = episode_duration(e, e->end_us);
		ev->generation = e->gen_end >= 0 ? e->gen_end : e->gen_start;
		ev->round = e->rounds;
		ev->rounds_min = e->rounds_min;
		ev->proto = e->proto;
		snprintf(when, sizeof when, "from generation %d", (int)e->gen_start);
		event_text(ev, e->gen_start >= 0 ? when : NULL);
		tk_emit(t, g, ev);
		g->eps->retime_at = 0;
	}
	t->nretiming = n;
}

/* A revoke callback; an eager one after a sync begins the next round. */
static void
obs_revoked(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	kg_proto proto = obs_proto(g, o);
	kg_tp *before;
	int nbefore, round;
	obs_present(g, m, time);
	/* eager: a revoke after a completed round starts the next round (tk_next_round: KIP-848 has none) */
	if (proto != KG_PROTO_COOPERATIVE && o->nparts > 0)
		tk_next_round(t, g, time, KG_EVID_EXACT);
	tk_ensure_episode(t, g, time, "revoke callback", KG_EVID_EXACT);
	g->eps->last_rebal_obs = time;
	before = tp_dup(m->asg, m->nasg);
	nbefore = m->nasg;
	/*
	 * A cooperative revoke is part of the answer to the member's last
	 * JoinGroup: while that one, of an earlier round, is unanswered
	 * (another member already rejoined), the revoke is that round's.
	 */
	round = proto == KG_PROTO_COOPERATIVE ? tk_round_answered(g, m) : g->ep->rounds;
	tk_revoke(t, g, m, time, o->parts, o->nparts, before, nbefore, KG_EVID_EXACT, proto, o->reason, round);
	tp_remove_from(&m->asg, &m->nasg, o->parts, o->nparts);
	if (m->nasg == 0 && nbefore > 0)
		tk_member_stop(m, time, time, time);
	m->eps->synced = false;
	free(before);
}

/* An assign callback: the member's sync, of this round or (late) of the one its JoinGroup was in. */
static void
obs_assigned(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	int round;
	if (m->static_back) {
		/* the returning static instance's own sync: its partitions back, no rebalance */
		m->static_back = false;
		if (g->ep == NULL) {
			tk_set_tp(&m->asg, &m->nasg, o->parts, o->nparts);
			m->eps->synced = true;
			return;
		}
	}
	obs_present(g, m, time);
	if (m->away_since > 0) {
		tk_emit(t, g, tk_member_event(KG_EV_MEMBER_BACK, time, g, m));
		m->away_since = 0;
	}
	tk_ensure_episode(t, g, time, "assign callback", KG_EVID_EXACT);
	g->eps->last_rebal_obs = time;
	if (obs_proto(g, o) == KG_PROTO_EAGER) /* eager assign hands the whole new assignment */
		tk_set_tp(&m->asg, &m->nasg, NULL, 0);
	tk_tp_union(&m->asg, &m->nasg, o->parts, o->nparts);
	/*
	 * Each JoinGroup gets one assignment.  When another member has
	 * already begun the next round (a cooperative member rejoins the
	 * moment its round-one revoke is done, while its peers' callbacks
	 * for round one are still running), the assignment that answers a
	 * member's observed, still unanswered JoinGroup of an earlier round
	 * is a late sync of that round: it neither syncs nor ends the
	 * current one.
	 */
	round = tk_round_answered(g, m);
	m->eps->join_answered = true;
	tk_assign(t, g, m, time, o->parts, o->nparts, KG_EVID_EXACT, round);
	g->ep->evidence = KG_EVID_EXACT;
	if (round < g->ep->rounds) {
		m->eps->synced = false;
		return;
	}
	tk_round_synced_at(t, g, time, true);
}

/* A member lost its assignment without a revoke (it was kicked out). */
static void
obs_lost(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	kg_episode_member *em;
	kg_event *ev;
	tk_ensure_episode(t, g, time, "partitions taken", KG_EVID_EXACT);
	g->eps->last_rebal_obs = time;
	ev = tk_member_event(KG_EV_LOST, time, g, m);
	if (o->nparts > 0) {
		ev->parts = tp_dup(o->parts, o->nparts);
		ev->nparts = o->nparts;
	} else {
		ev->parts = tp_dup(m->asg, m->nasg);
		ev->nparts = ev->parts ? m->nasg : 0;
	}
	ev->reason = o->reason;
	ev->evidence = KG_EVID_EXACT;
	ev->episode = g->ep->id;
	ev->round = g->ep->rounds;
	event_text(ev, o->text);
	em = tk_ep_member(g, m);
	tk_tp_union(&em->revoked, &em->nrevoked, ev->parts, ev->nparts);
	if (m->present && m->nasg > 0) {
		/* what it still held stops being consumed; a departed incarnation's are others' by now */
		kg_tp *held = xmalloc((size_t)m->nasg * sizeof *held);
		int k = tp_intersect(m->asg, m->nasg, ev->parts, ev->nparts, held);
		tk_parts_stop(g, held, k, time, time);
		free(held);
	}
	tk_emit(t, g, ev);
	if (o->nparts > 0)
		tp_remove_from(&m->asg, &m->nasg, o->parts, o->nparts);
	else
		tk_set_tp(&m->asg, &m->nasg, NULL, 0);
	if (m->nasg == 0)
		tk_member_stop(m, time, time, time);
	m->eps->synced = false;
}

/* A member sent a JoinGroup: the join signal of a round. */
static void
obs_join_sent(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	int round;
	obs_present(g, m, time);
	round = tk_round_join_sent(t, g, m, time);
	g->eps->last_rebal_obs = time;
	m->eps->synced = false;
	m->eps->join_round = m->eps->sent_round = round;
	m->eps->join_seen = true;
	m->eps->join_answered = false;
	m->join_sent_at = time;
}

/*
 * KIP-345: a static instance that restarted within session.timeout.ms
 * comes back under a new member id and takes its predecessor's place and
 * partitions, no rebalance.  True when o says that.
 */
static bool
obs_static_return(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	int64_t time = o->time_us;
	tmember *pred = NULL, *m;
	size_t i;
	if (o->member_id == NULL || o->instance_id == NULL || tk_find_member_of(g, o->member_id, o->client_id) != NULL)
		return false;
	for (i = 0; i < g->nm && pred == NULL; i++) {
		tmember *x = g->m[i];
		if (x->present && x->away_since > 0 && x->instance_id != NULL && strcmp(x->instance_id, o->instance_id) == 0)
			pred = x;
	}
	if (pred == NULL)
		return false;
	pred->left_reported = true;
	tk_member_gone(t, g, pred, time);
	pred->left_exact = true; /* its old id in an older description is no member */
	m = tk_add_member(t, g, o->member_id, o->client_id, o->host, o->instance_id, time);
	m->announced = true;
	m->exact = true;
	m->static_back = true;
	m->traced_at = time;
	m->first_seen = pred->first_seen;
	tk_set_tp(&m->asg, &m->nasg, pred->asg, pred->nasg);
	tk_set_tp(&m->stable, &m->nstable, pred->stable, pred->nstable);
	tk_emit(t, g, tk_member_event(KG_EV_MEMBER_BACK, time, g, m));
	return true;
}

/*
 * A member joined, or the coordinator began this rebalance, while the
 * group was completing the open one (o->completing): the leader's
 * assignment its log told of the last generation was never given to the
 * members (Kafka gives it once it is written, and not at all when the
 * group changed meanwhile).  That generation only formed, as if no sync
 * had been told: the join begins again, in the same rebalance (the
 * joiner is its company, not the next one's cause), and that generation
 * is no round.
 */
static void
log_sync_not_given(tgroup *g, const kg_obs *o)
{
	if (o->completing && g->ep != NULL && g->eps->phase == PHASE_SYNCED && !g->eps->log_joined &&
	    g->eps->last_sync > 0 && g->eps->last_sync == g->eps->exact_sync && o->time_us >= g->eps->last_sync)
		g->eps->log_joined = true;
}

/* A member joined the group (the member itself, or a coordinator's log). */
static void
obs_joined(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	if (obs_static_return(t, g, o))
		return;
	log_sync_not_given(g, o);
	m = obs_tmember(t, g, o, true);
	if (m == NULL)
		return; /* neither a member id nor a client id: nobody to announce */
	if (!m->present) {
		tk_member_revive(g, m);
		m->announced = false;
	}
	if (time > m->traced_at)
		m->traced_at = time;
	if (m->away_since > 0) {
		tk_emit(t, g, tk_member_event(KG_EV_MEMBER_BACK, time, g, m));
		m->away_since = 0;
		m->announced = true;
	}
	if (g->ep != NULL && m->eps->join_round == 0) {
		m->eps->join_round = tk_round_at(g, time); /* joined during the episode: its JoinGroup's round */
		m->eps->join_seen = true;
		m->eps->join_answered = false;
	}
	tk_announce_join(t, g, m, time, KG_EVID_EXACT);
}

/* A member left the group, with the coordinator's reason when it gave one. */
static void
obs_left(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	if (m == NULL)
		return;
	if (m->present && m->revived_at > 0 && time < m->revived_at) {
		/*
		 * About an earlier incarnation under the same id (the mock reuses
		 * ids) that polling saw go: it is back now; only the reason is news.
		 */
		kg_lane *l = history_lane(t->h, g->id, m->lane);
		if (l != NULL && o->reason != KG_REASON_NONE &&
		    (l->last_leave == KG_REASON_UNKNOWN || l->last_leave == KG_REASON_NONE || l->last_leave == KG_REASON_LEFT ||
		     l->last_leave == KG_REASON_TIMEOUT))
			tk_lane_set_leave(l, o->reason, o->text);
		return;
	}
	if (m->instance_id != NULL && o->reason == KG_REASON_NONE) {
		/* a static member closed without LeaveGroup: away, not gone */
		if (m->away_since == 0) {
			m->away_since = time;
			tk_emit(t, g, tk_member_event(KG_EV_MEMBER_AWAY, time, g, m));
		}
		return;
	}
	tk_announce_leave(t, g, m, time, o->reason != KG_REASON_NONE ? o->reason : KG_REASON_UNKNOWN, o->text,
			  KG_EVID_EXACT);
}

/*
 * KIP-345: the instance restarted and rejoined under a new member id: the
 * old id is away, not gone; the new one (a joined line, or the next
 * description) takes its place without a rebalance.
 */
static void
obs_static_replaced(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	if (m == NULL) {
		/*
		 * A group known from its coordinator's log, which names no
		 * members before: the instance is back under a new member id
		 * (a rebalance follows only when its metadata changed, and the
		 * log says so then).
		 */
		kg_event *ev;
		if (o->instance_id == NULL)
			return;
		ev = event_new(KG_EV_MEMBER_BACK, o->time_us, g->id);
		event_member(ev, NULL, NULL, o->instance_id, -1);
		event_text(ev, o->member_id); /* the member id it replaces */
		ev->evidence = KG_EVID_EXACT;
		tk_emit(t, g, ev);
		return;
	}
	if (m->present && m->away_since == 0)
		m->away_since = o->time_us;
	/* why this member id went: its lane says "replaced" once the new id is seen */
	m->leave_reason = KG_REASON_REPLACED;
	tk_set_str(&m->leave_text, "static member replaced by a new instance");
}

/*
 * Was the coordinator's log read whole since lo (a description that showed
 * the group not rebalancing)?  Then its first "preparing" of a rebalance
 * begun after lo is that rebalance's start; else (kgtop began reading the
 * log after lo: a stream starts at its end) the rebalance may have begun
 * before the first line read, its start only bounded.
 */
static bool
log_whole_since(const kg_tracker *t, int64_t lo)
{
	return t->log_from <= 0 || (lo > 0 && lo >= t->log_from);
}

/*
 * Is time before the open episode could have begun (after the description
 * that said the group was not rebalancing yet)?  Then a coordinator's line
 * of then is an earlier rebalance's, read late: the log behind polling by
 * more than a rebalance (a storm).  An episode without such a bound (seen
 * rebalancing at kgtop's first look) may have begun at any time before.
 */
static bool
before_open(const tgroup *g, int64_t time)
{
	/* at that description's own time too: it showed what happened by then (a start a line timed is no such bound) */
	return g->ep != NULL && g->ep->start_lo_us > 0 &&
	       (time < g->ep->start_lo_us || (time == g->ep->start_lo_us && g->ep->start_lo_us != g->ep->start_us));
}

/*
 * The generation the log's last "Stabilized" of closed episode ep formed
 * never synced (a join begun again, the group emptied, no assignment
 * between): it was no round, as while open (obs_preparing,
 * obs_stabilized).  A log that tells no syncs (Kafka 4.0's) cannot tell
 * it from a synced one and leaves it counted.
 */
static void
log_unsynced(const kg_tracker *t, tgroup *g, int64_t ep)
{
	if (t->log_tells_syncs && g->eps->log_joined && g->eps->log_ep == ep && g->eps->log_syncs > 0) {
		g->eps->log_syncs--;
		g->eps->log_joined = false;
	}
}

/*
 * A "preparing to rebalance" line read after polling closed that
 * rebalance: the stored episode gets the line's start.  A line after the
 * episode's end as late evidence gave it, but before polling closed it,
 * is a later round of it (polling cannot see rounds between two
 * refreshes): the episode goes on until that round's sync.  True when o
 * was such a line.
 */
static bool
obs_retime_start(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	int64_t time = o->time_us;
	kg_episode *last;
	if (g->ep != NULL && !before_open(g, time))
		return false;
	last = history_episode(t->h, g->id, g->eps->last_ep);
	if (last == NULL || last->end_us == 0 || time > KG_MAX(last->end_us, g->eps->closed_at))
		return false;
	/*
	 * Before the description that showed the group not rebalancing yet:
	 * a line of an earlier rebalance, read after polling closed the next
	 * one too.  That one keeps the bounds polling gave it; this one is
	 * not moved back to it (nor is a rebalance opened at its time).
	 */
	if (last->start_lo_us > 0 && time < last->start_lo_us)
		return true;
	if (time < last->start_us - TRIGGER_WINDOW)
		return false;
	if (time > last->end_us) {
		g->eps->late_open = true; /* a later round: its sync ends the episode */
	} else if (time < last->start_us) {
		last->start_us = time; /* the coordinator's own time */
		if (log_whole_since(t, last->start_lo_us))
			last->start_lo_us = time; /* its first line: the start (else it may have begun before the log was read) */
		if (last->gen_start < 0)
			last->gen_start = o->generation;
	}
	/*
	 * else a later round's, after polling saw it begin: the first round's
	 * line was not read, and the start (and the generation it began from)
	 * stays polling's
	 */
	/* the join begun again after the "Stabilized" the log last told of it, no assignment between */
	if (time >= last->start_us && time >= g->eps->last_sync)
		log_unsynced(t, g, last->id);
	last->evidence = KG_EVID_EXACT;
	tk_emit_retimed(t, g, last, time);
	return true;
}

/*
 * A group known from its coordinator's log alone, whose open rebalance's
 * last generation was synced (the log told the leader's assignment): is
 * this "preparing" a new rebalance?  Yes when a member joined or left
 * (the coordinator begins a generation for the membership change, and
 * tells it as a rebalance of its own); a member's rejoin with new
 * metadata (a cooperative member that revoked: "Updating metadata for
 * member ... need to revoke partitions and re-join"), a leader's, or one
 * without a known cause is a round more of the open one, as the quiet
 * spell that ends a log-only episode assumes.  Kafka 4.0's log tells no
 * sync: there a "Stabilized" may be followed by a join into the same
 * generation (the leader's assignment not in yet), and nothing is split.
 */
static bool
log_new_rebalance(const tgroup *g, const kg_obs *o)
{
	if (!tk_log_synced_before(g, o->time_us))
		return false;
	return o->reason == KG_REASON_JOINED || o->reason == KG_REASON_GRACEFUL || o->reason == KG_REASON_SESSION_TIMEOUT ||
	       o->reason == KG_REASON_MAX_POLL;
}

/* A coordinator began a rebalance: a join signal, with the reason it logged as the trigger. */
static void
obs_preparing(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	bool rejoin, begins = false;
	(void)m;
	if (obs_retime_start(t, g, o) || before_open(g, time))
		return; /* an earlier rebalance's start, retimed; or one kgtop never saw, nothing of the open one */
	log_sync_not_given(g, o);
	if (log_new_rebalance(g, o))
		tk_close_log_synced(t, g); /* the one open ended at its last sync; this one begins below */
	if (g->ep != NULL && g->eps->log_emptied_at > 0 && time >= g->eps->log_emptied_at &&
	    g->ep->start_us <= g->eps->log_emptied_at) {
		/*
		 * The group emptied in the open episode and a join began after,
		 * both between two refreshes (polling never saw it Empty): the
		 * episode goes on through the emptying, which is not its end.
		 */
		g->eps->log_emptied_at = 0;
	}
	if (g->ep != NULL && g->eps->log_emptied_at > 0 && time >= g->eps->log_emptied_at &&
	    g->ep->start_us > g->eps->log_emptied_at) {
		/*
		 * The log, read late, says the group emptied before polling saw
		 * this episode begin (never seen Empty between two refreshes),
		 * and a join began after: the emptying was a rebalance of its
		 * own, this one begins here.  Its rounds count from this line.
		 */
		g->ep->rounds = 0;
		begins = true;
		if (g->eps->log_ep == g->ep->id)
			g->eps->log_syncs = 0;
		g->eps->log_emptied_at = 0;
		g->eps->log_joined = false;
		g->eps->phase = PHASE_SYNCED;
		g->ep->gen_start = o->generation;
	}
	/*
	 * The generation the last "Stabilized" formed was not synced: the
	 * join begins again (a member came or went before the leader's
	 * assignment), and that generation was no round.
	 */
	rejoin = false;
	if (g->ep != NULL && g->eps->log_joined && time >= g->eps->last_sync) {
		/* polling, read before this line, saw that join begin: it is the round begun (not a round more) */
		rejoin = g->eps->phase == PHASE_JOINING;
		/* a log that never told a sync (Kafka 4.0's) may have left this one's out: at least the rounds without it */
		tk_round_unsynced(g, time, true);
		if (!t->log_tells_syncs)
			g->eps->rounds_unsure = true;
		if (rejoin) {
			g->eps->phase = PHASE_JOINING;
			g->eps->round_start = KG_MIN(g->eps->round_start, time);
		}
	}
	/* a line read late, of a round whose sync is known already: the episode began by then, no round more */
	if (!rejoin && (g->ep == NULL || time >= g->eps->last_sync))
		tk_next_round(t, g, time, KG_EVID_EXACT);
	if (g->ep == NULL && o->text != NULL && (g->eps->trig_text == NULL || time - g->eps->trig_time > TRIGGER_WINDOW)) {
		char *st = tk_short_trigger(o->reason, o->text);
		tk_set_trigger(g, time, o->reason != KG_REASON_NONE ? o->reason : KG_REASON_UNKNOWN, st);
		free(st);
	}
	/*
	 * A line after a sync the log told of the open episode is a later
	 * round's (the log read from the middle of the rebalance: its first
	 * lines never read): the start stays where polling bounds it.  Not
	 * after an emptying (above): the episode begins here.
	 */
	if (g->ep == NULL || begins ||
	    !(time < g->ep->start_us && g->eps->last_sync > 0 && g->eps->last_sync == g->eps->exact_sync &&
	      g->eps->last_sync < time))
		tk_ensure_episode(t, g, time, "coordinator: preparing to rebalance",
				  log_whole_since(t, g->ep != NULL ? g->ep->start_lo_us : tk_poll_calm_at(g)) ? KG_EVID_EXACT
													   : KG_EVID_POLLED);
	if (g->ep->rounds < 1)
		g->ep->rounds = 1; /* begun again after the log's emptying (above), a sync later than this line read before it */
	if (g->ep->gen_start < 0)
		g->ep->gen_start = o->generation;
	g->ep->evidence = KG_EVID_EXACT;
	g->eps->last_rebal_obs = time;
	g->eps->await_log_sync = true;
	g->eps->log_joined = false;
}

/*
 * Count a sync the coordinator's log told of episode ep (open, or closed
 * and read late), one a generation: a late sync goes on from those read
 * while the episode was open.
 */
static void
log_sync_count(tgroup *g, int64_t ep, int32_t generation)
{
	if (g->eps->log_ep != ep) {
		g->eps->log_ep = ep;
		g->eps->log_syncs = 0;
		g->eps->log_gen = -1;
	}
	if (generation < 0 || generation != g->eps->log_gen) {
		g->eps->log_syncs++;
		g->eps->log_gen = generation;
	}
}

/* "Group G with generation N is now empty": the coordinator's line of a generation that emptied the group. */
static bool
obs_emptied(const kg_obs *o)
{
	return o->kind == KG_OBS_STABILIZED && o->nmembers == 0;
}

/*
 * The polled picture closed the episode before the coordinator's end
 * arrived: give it that end (each generation's sync counted once as a
 * round: the log's lines count them).
 */
static void
obs_retime_end(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	int64_t time = o->time_us;
	kg_episode *last = history_episode(t->h, g->id, g->eps->last_ep);
	/* a later round read late (late_open) began before polling closed the episode: its sync ends it, even after */
	if (last == NULL || last->end_us == 0 || time < last->start_us ||
	    (time > KG_MAX(last->end_us, g->eps->closed_at) && !g->eps->late_open))
		return;
	/* the group emptied after such a "Stabilized" (its member left before the assignment): the emptying is the round */
	if (obs_emptied(o))
		log_unsynced(t, g, last->id);
	/* on from the syncs read while it was open; where the log tells the assignment, a "Stabilized" may be of a join begun again */
	if (!(t->log_tells_syncs && o->kind == KG_OBS_STABILIZED && !obs_emptied(o)))
		log_sync_count(g, last->id, o->generation);
	/* rounds counted from the log's lines: exact once they reach what was claimed (a bound polling gave is never cut) */
	if (g->eps->log_ep == last->id && g->eps->log_syncs >= last->rounds) {
		last->rounds = g->eps->log_syncs;
		last->rounds_min = last->start_lo_us != last->start_us; /* exact when the log saw it begin */
	}
	if (t->log_tells_syncs && o->kind == KG_OBS_STABILIZED && !obs_emptied(o) && time < last->end_us) {
		/* the join completed: the leader's assignment, the end, is still to be told (by polling's end at the latest) */
		if (time > last->end_lo_us) {
			last->end_lo_us = time;
			g->eps->end_lo_by = END_LO_LINE;
		}
	} else if (last->end_lo_us != last->end_us &&
		   ((g->eps->end_lo_by == END_LO_LINE && time < last->end_lo_us) ||
		    (g->eps->end_lo_by == END_LO_DESC && time + LOG_SKEW_US < last->end_lo_us))) {
		/*
		 * A sync before a later "Stabilized", or before a description
		 * that showed the group still rebalancing (asked after the line
		 * by more than two clocks may differ): an earlier round's.  The end and a round more are
		 * still to be told; the end stays within polling's bounds.  (An
		 * end a record or a line timed is the last generation's: its
		 * sync, told apart, moves it to the log's clock, as before; an
		 * earliest end that no description showed rebalancing, e.g. a
		 * close after the log's wait, proves nothing.)
		 */
		if (g->eps->log_ep == last->id && last->rounds <= g->eps->log_syncs) {
			last->rounds = g->eps->log_syncs + 1;
			last->rounds_min = true;
		}
	} else {
		last->end_us = last->end_lo_us = time;
	}
	last->gen_end = g->generation;
	last->evidence = KG_EVID_EXACT;
	g->eps->late_open = false;
	/* the log's last word of it: joined, not synced, and counted (where the log tells syncs, such a line is not) */
	g->eps->log_joined = o->kind == KG_OBS_STABILIZED && !obs_emptied(o) && !t->log_tells_syncs;
	tk_emit_retimed(t, g, last, time);
}

/* A round ended: a coordinator's "stabilized" or "received the assignment", or a client's SyncGroup answer. */
static void
obs_stabilized(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t time = o->time_us;
	if (o->kind == KG_OBS_SYNCED)
		t->log_tells_syncs = true;
	if (o->member_id != NULL && (m = tk_find_member(g, o->member_id)) != NULL) {
		/* a client got its SyncGroup answer */
		m->eps->synced = true;
		if (g->ep != NULL) {
			tk_round_synced_at(t, g, time, true);
			g->eps->last_rebal_obs = time;
		}
		return;
	}
	if (g->ep == NULL || before_open(g, time)) {
		obs_retime_end(t, g, o); /* the last closed episode's, read late */
		return;
	}
	if (obs_emptied(o)) {
		/*
		 * The group emptied: the coordinator completes that generation (a
		 * round, as its records count it); one it stabilized before and
		 * never synced is none.
		 */
		if (g->eps->log_joined) {
			tk_round_unsynced(g, time, true);
			if (!t->log_tells_syncs)
				g->eps->rounds_unsure = true;
		}
		if (g->eps->phase == PHASE_SYNCED) {
			/* after a completed round, the emptying generation is one more (begun and ended at once) */
			tk_next_round(t, g, time, KG_EVID_EXACT);
			g->eps->round_gen = o->generation - 1;
		}
		g->eps->log_emptied_at = time;
	}
	log_sync_count(g, g->ep->id, o->generation);
	g->ep->gen_end = g->generation;
	g->eps->ep_stabilized = true; /* the coordinator counts the generations */
	/*
	 * A line read late, of a round whose later sync is known already:
	 * nothing to end.  A sync polling saw is no such: a Stable
	 * description says the round synced by then, and a line of the
	 * current round with no exact sync yet is when.
	 */
	if ((time >= g->eps->last_sync || (g->eps->exact_sync < g->eps->round_start && time >= g->eps->round_start)) &&
	    !(g->eps->phase == PHASE_JOINING && o->generation >= 0 && o->generation <= g->eps->round_gen) &&
	    !(g->eps->phase == PHASE_JOINING && time == g->eps->last_sync && g->eps->sync_polled))
		tk_round_synced_at(t, g, time, true); /* not a sync of a generation the round began after (an earlier round's, read late) */
	g->eps->last_rebal_obs = time;
	g->eps->await_log_sync = false;
	/* the join completed ("Stabilized"), the group awaits the leader's assignment: the same round */
	if (time >= g->eps->last_sync) {
		g->eps->log_joined = o->kind == KG_OBS_STABILIZED && o->nmembers != 0;
		g->eps->log_members = o->nmembers;
	}
}

/* KIP-848: the group epoch was bumped (tracker_kip.c). */
static void
obs_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	(void)m;
	tk_kip_group_epoch(t, g, o);
}

/*
 * KIP-848's epochs and targets come from two kinds of source: the
 * coordinator's records (--trace offsets, "offsets") and its log or a
 * recording.  tracker_kip.c keeps the facts and the members' steps for
 * both; a record also feeds tracker_records.c (the records' own picture:
 * which members exist, when the last one settled), after the step.
 */
static bool
obs_is_record(const kg_obs *o)
{
	return o->source != NULL && strcmp(o->source, "offsets") == 0;
}

/* KIP-848: the group epoch a record says (a log's line is KG_OBS_EPOCH). */
static void
obs_group_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	if (!o->gone)
		tk_kip_group_epoch(t, g, o);
	tk_obs_group_epoch(t, g, m, o);
}

/* KIP-848: a target assignment computed for an epoch. */
static void
obs_target_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	tk_kip_target_epoch(t, g, o);
	if (obs_is_record(o))
		tk_obs_target(t, g, m, o);
}

/* KIP-848: a member's target assignment. */
static void
obs_target(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	if (!o->gone)
		tk_kip_target(t, g, m, o);
	if (obs_is_record(o))
		tk_obs_target(t, g, m, o);
}

/* KIP-848: a member's current assignment at its epoch. */
static void
obs_member_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	if (!o->gone && !(m != NULL && !m->present && o->nparts > 0)) /* a record of a member that left: history */
		tk_kip_member_epoch(t, g, m, o);
	if (obs_is_record(o))
		tk_obs_member_epoch(t, g, m, o);
}

/* A heartbeat answered. */
static void
obs_heartbeat(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	(void)t;
	(void)g;
	if (m != NULL)
		tk_live_heartbeat(m, o);
}

/* The application polled. */
static void
obs_poll(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	(void)t;
	(void)g;
	if (m != NULL)
		tk_live_poll(m, o);
}

/* A client's metrics sample, or its own view of its group state. */
static void
obs_metrics(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	(void)t;
	(void)g;
	if (m != NULL)
		tk_live_metrics(m, o);
}

/* A member stopped consuming (a trace says it crashed or stopped polling): silent until the coordinator decides. */
static void
obs_silent(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	int64_t since = o->time_us;
	if (m == NULL || !m->present)
		return;
	if (tk_member_silent(t, g, m, since, o->reason == KG_REASON_MAX_POLL ? SILENT_STALL : SILENT_CRASH,
			     o->text != NULL ? o->text : o->reason == KG_REASON_MAX_POLL ? "stopped polling" : "crashed",
			     KG_EVID_EXACT) && g->ep != NULL) {
		/* in an open rebalance: what it holds is not consumed from now */
		int nh;
		const kg_tp *h = tk_held(m, &nh);
		tk_parts_stop(g, h, nh, since, since);
		if (nh > 0)
			tk_member_stop(m, since, since, since);
	}
}

/* A member processed records twice (the commit policy let a crash hand them over again): an event. */
static void
obs_reprocessed(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	kg_event *ev;
	if (m == NULL || o->value <= 0)
		return;
	ev = tk_member_event(KG_EV_REPROCESSED, o->time_us, g, m);
	ev->parts = tp_dup(o->parts, o->nparts);
	ev->nparts = ev->parts ? o->nparts : 0;
	ev->records = o->value;
	ev->evidence = KG_EVID_EXACT;
	event_text(ev, o->text);
	tk_emit(t, g, ev);
}

/* A commit a source told (a __consumer_offsets record): the progress part learns its exact time. */
static void
obs_commit(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	(void)m;
	tk_progress_commit(t, g, o);
}

#define OBS_REPORT (OBS_OWN | OBS_CALLBACK) /* a consumer's callback or JoinGroup */

static const obs_rule obs_rules[KG_OBS_COUNT] = {
	[KG_OBS_REVOKED] = { obs_revoked, MEMBER_EXACT, OBS_REPORT | OBS_SETS_PROTO },
	[KG_OBS_ASSIGNED] = { obs_assigned, MEMBER_EXACT, OBS_REPORT | OBS_SETS_PROTO },
	[KG_OBS_LOST] = { obs_lost, MEMBER_EXACT, OBS_REPORT },
	[KG_OBS_JOIN_SENT] = { obs_join_sent, MEMBER_EXACT, OBS_REPORT | OBS_FIRST_PROTO },
	/* its handler finds the member after KIP-345's check; a coordinator's log says "joined" too: not a callback */
	[KG_OBS_JOINED] = { obs_joined, MEMBER_NONE, OBS_OWN | OBS_FIRST_PROTO },
	[KG_OBS_LEFT] = { obs_left, MEMBER_LOG, 0 },
	[KG_OBS_HEARTBEAT] = { obs_heartbeat, MEMBER_FIND, OBS_BY_CLIENT },
	[KG_OBS_POLL] = { obs_poll, MEMBER_FIND, OBS_BY_CLIENT },
	[KG_OBS_PREPARING] = { obs_preparing, MEMBER_NONE, OBS_GENERATION },
	[KG_OBS_STABILIZED] = { obs_stabilized, MEMBER_NONE, OBS_GENERATION },
	[KG_OBS_SYNCED] = { obs_stabilized, MEMBER_NONE, OBS_GENERATION },
	[KG_OBS_STATIC_REPLACED] = { obs_static_replaced, MEMBER_FIND, 0 },
	[KG_OBS_EPOCH] = { obs_epoch, MEMBER_NONE, OBS_GENERATION },
	[KG_OBS_METRICS] = { obs_metrics, MEMBER_FIND, OBS_BY_CLIENT },
	[KG_OBS_CLIENT_STATE] = { obs_metrics, MEMBER_FIND, OBS_BY_CLIENT },
	[KG_OBS_SILENT] = { obs_silent, MEMBER_FIND, OBS_BY_CLIENT },
	[KG_OBS_REPROCESSED] = { obs_reprocessed, MEMBER_FIND, 0 },
	[KG_OBS_COMMIT] = { obs_commit, MEMBER_NONE, OBS_GENERATION },
	/* the coordinator's own records (tracker_records.c) */
	[KG_OBS_GENERATION] = { tk_obs_generation, MEMBER_NONE, OBS_GENERATION | OBS_SETS_PROTO },
	[KG_OBS_GROUP_EPOCH] = { obs_group_epoch, MEMBER_NONE, OBS_GENERATION },
	[KG_OBS_TARGET_EPOCH] = { obs_target_epoch, MEMBER_NONE, 0 },
	[KG_OBS_TARGET_MEMBER] = { obs_target, MEMBER_LOG, 0 },
	[KG_OBS_MEMBER_EPOCH] = { obs_member_epoch, MEMBER_LOG, 0 },
	[KG_OBS_MEMBER_META] = { tk_obs_member_meta, MEMBER_NONE, 0 },
};

/* The row of a kind (an unknown kind has none: only the shared part applies). */
static const obs_rule *
obs_rule_of(kg_obs_kind kind)
{
	static const obs_rule none = { NULL, MEMBER_NONE, 0 };
	return (unsigned)kind < KG_OBS_COUNT ? &obs_rules[kind] : &none;
}

/* For observations keyed by client id alone: the group of a present member with it. */
static int32_t
group_of_client(kg_tracker *t, const char *client_id)
{
	size_t i, k;
	if (client_id == NULL)
		return -1;
	for (i = 0; i < t->cg; i++) {
		tgroup *g = t->g[i];
		if (g == NULL)
			continue;
		for (k = 0; k < g->nm; k++) {
			if (g->m[k]->present && strcmp(g->m[k]->client_id, client_id) == 0)
				return g->id;
		}
	}
	return -1;
}

/* What an observation tells of its group: the protocol its members run, the limits, the generation. */
static void
obs_group_facts(tgroup *g, const kg_obs *o, unsigned flags)
{
	if (o->proto != KG_PROTO_UNKNOWN && (flags & OBS_SETS_PROTO)) {
		/* the members say which protocol this rebalance runs (an emptied group may change it) */
		g->proto = o->proto;
		if (g->ep != NULL)
			g->ep->proto = o->proto;
	} else if (o->proto != KG_PROTO_UNKNOWN && g->proto == KG_PROTO_UNKNOWN && (flags & OBS_FIRST_PROTO)) {
		g->proto = o->proto; /* a new group's first members say what they will run */
	}
	if (o->session_timeout_ms > 0)
		g->session_us = o->session_timeout_ms * 1000;
	if (o->max_poll_ms > 0)
		g->max_poll_us = o->max_poll_ms * 1000;
	if ((flags & OBS_GENERATION) && o->generation >= 0) {
		g->generation = o->generation;
		g->generation_at = o->time_us;
	}
}

/*
 * A member's own report older than the moment the member was seen gone (a
 * slower stream) does not bring it back: what it says is history already
 * told.
 */
static bool
obs_stale(tgroup *g, const kg_obs *o)
{
	tmember *x = o->member_id ? tk_find_member_of(g, o->member_id, o->client_id) : NULL;
	return x != NULL && !x->present && x->gone_time > 0 && o->time_us < x->gone_time;
}

/* Fold one observation: the shared part, then its kind's handler. */
void
tk_apply_obs(kg_tracker *t, kg_obs *o)
{
	const obs_rule *r = obs_rule_of(o->kind);
	tgroup *g;
	tmember *m = NULL;
	if (o->kind == KG_OBS_LOG_FROM) {
		/* no group's: the log's lines time rebalances only from then on (log_whole_since) */
		if (o->time_us > t->log_from)
			t->log_from = o->time_us;
		return;
	}
	if (o->group < 0 && (r->flags & OBS_BY_CLIENT))
		o->group = group_of_client(t, o->client_id);
	g = tk_group_find(t, o->group);
	if (g == NULL)
		return;
	if (!o->loaded)
		tk_records_loaded_end(t, g); /* the state loaded at kgtop's start is judged before what came after it */
	tk_close_logonly(t, o->time_us);
	obs_group_facts(g, o, r->flags);
	if ((r->flags & OBS_OWN) && obs_stale(g, o))
		return;
	if (r->member == MEMBER_EXACT) {
		m = obs_tmember(t, g, o, true);
		if (m == NULL)
			return; /* neither a member id nor a client id: nobody's callback */
		m->exact = true;
	} else if (r->member != MEMBER_NONE) {
		m = obs_tmember(t, g, o, r->member == MEMBER_LOG && !g->seen && o->member_id != NULL);
	}
	tk_kip_facts(g, m, o);
	if (r->fn != NULL)
		r->fn(t, g, m, o);
	if (g->ep != NULL && (r->flags & OBS_CALLBACK))
		g->eps->ep_callbacks = true;
}

/* qsort: observations by group, then client id. */
static int
obs_cmp_client(const void *a, const void *b)
{
	const kg_obs *x = *(kg_obs *const *)a, *y = *(kg_obs *const *)b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->client_id ? x->client_id : "", y->client_id ? y->client_id : "");
}

/*
 * Members that consumers report for the first time in one batch (a fleet
 * started together) get their lanes, so their letters, in client id order
 * rather than in the order their JoinGroups happened to be answered.
 */
void
tk_obs_new_members(kg_tracker *t, const kg_obsq *obs)
{
	kg_obs **fresh = NULL;
	size_t i, n = 0;
	for (i = 0; i < obs->n; i++) {
		kg_obs *o = obs->v[i];
		tgroup *g;
		if (o->group < 0 || o->client_id == NULL || !(obs_rule_of(o->kind)->flags & OBS_OWN))
			continue;
		g = tk_group_find(t, o->group);
		/* only consumers never seen in the group: static members and returning ones have their own rules */
		if (g == NULL || o->instance_id != NULL || tk_find_member_of(g, o->member_id, o->client_id) != NULL ||
		    tk_find_by_client(g, o->client_id) != NULL)
			continue;
		fresh = xreallocarray(fresh, n + 1, sizeof *fresh);
		fresh[n++] = o;
	}
	if (n > 1) {
		qsort(fresh, n, sizeof *fresh, obs_cmp_client);
		for (i = 0; i < n; i++)
			obs_tmember(t, tk_group_find(t, fresh[i]->group), fresh[i], true);
	}
	free(fresh);
}

/*
 * tracker_records.c: fold the group coordinator's own records (the
 * observations of --trace offsets: obs.h KG_OBS_GENERATION ..
 * KG_OBS_MEMBER_META), part of the fold with tracker_obs.c, whose
 * obs_rules[] lists these handlers.
 *
 * A classic group's record is written when a generation completes (the
 * leader's SyncGroup), stamped by the broker: each is a round, at its
 * exact end, with the time its join phase ended.  Where it goes:
 *   - the same generation again: the coordinator rewrote the group with
 *     no rebalance, a static member restarted (KIP-345): said exactly;
 *   - into the open episode (it began before the record): a round ends;
 *     the episode's rounds are the records' count, so they are exact;
 *   - into the last closed episode when it bounds the record (polling
 *     closed it before the record was read): late evidence amends it,
 *     its end exact, its rounds counted (with those read while it was
 *     open);
 *   - read from the topic's history and older than kgtop's first look at
 *     the group: a rebalance before kgtop watched (tk_past_episode), a
 *     second generation right after the first one's sync joining it;
 *   - else a rebalance polling has not seen: it opens, begun after the
 *     last description that showed the group Stable.
 * Once a group's generations are told, polling's round signals (a
 * rebalancing state, a generation it guesses it missed) add no rounds:
 * tk_records_told() says so to tracker_poll.c.
 *
 * A KIP-848 group's epoch record begins a rebalance at its time; it ends
 * when every member's current assignment record is at that epoch, stable,
 * with nothing pending revocation: two records bound it exactly.  Once the
 * group's epoch record is read the records are the judge of that end
 * (tracker_kip.c steps the members, it does not end the episode): they
 * list members polling does not know yet (a join's records come before
 * any description lists the new member), and the record that settles the
 * group ends its episode, or retimes it when a description closed it
 * before the record was read.  Its members as the records list them keep
 * an episode from being closed by a description of librdkafka 2.0.2 that
 * says such a group is Dead with no member.
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

#define GEN_SETTLE (3000LL * 1000) /* a generation whose join phase ends this soon after a sync is the same rebalance */

/* A classic member of the last generation record. */
typedef struct rmember {
	char *member_id;
	char *instance_id;
} rmember;

/* A KIP-848 member as its records say. */
typedef struct kmember {
	char *member_id;
	int32_t epoch;   /* -1 unknown */
	int32_t state;
	int npending;
} kmember;

/* What the coordinator's records told of a group (g->rec). */
struct tk_records {
	bool told;          /* a generation record was read: polling's round signals add none */
	int32_t gen;        /* the last generation told, -1 none */
	int64_t gen_at;     /* its sync */
	rmember *m;         /* its members */
	int nm;
	int64_t ep_id;      /* the episode the records count the rounds of (open, or closed and amended late), and how many */
	int ep_gens;
	int64_t at;         /* the last record told of the open episode (a description older says nothing of its end) */
	int64_t past_id;    /* the last rebalance before kgtop watched, and its end */
	int64_t past_end;
	/* KIP-848 */
	bool kip848;
	int32_t epoch;
	bool unsettled;     /* a record since the group was last settled showed it reconciling */
	bool loaded_judge;  /* the state loaded at kgtop's start is to be judged (tk_records_loaded_end), at */
	int64_t loaded_at;
	kmember *k;
	int nk;
};

/* Forget the last generation's members. */
static void
members_clear(tk_records *r)
{
	int i;
	for (i = 0; i < r->nm; i++) {
		free(r->m[i].member_id);
		free(r->m[i].instance_id);
	}
	free(r->m);
	r->m = NULL;
	r->nm = 0;
}

/* Forget the KIP-848 members. */
static void
kmembers_clear(tk_records *r)
{
	int i;
	for (i = 0; i < r->nk; i++)
		free(r->k[i].member_id);
	free(r->k);
	r->k = NULL;
	r->nk = 0;
}

/* Free what the records told of a group (NULL is fine). */
void
tk_records_free(tk_records *r)
{
	if (r == NULL)
		return;
	members_clear(r);
	kmembers_clear(r);
	free(r);
}

/* The group's record state, made on first use. */
static tk_records *
rec_of(tgroup *g)
{
	if (g->rec == NULL) {
		g->rec = xcalloc(1, sizeof *g->rec);
		g->rec->gen = -1;
		g->rec->epoch = -1;
	}
	return g->rec;
}

/* True when the group's generations are told by its coordinator's records. */
bool
tk_records_told(const tgroup *g)
{
	return g->rec != NULL && (g->rec->told || g->rec->kip848);
}

/* When the coordinator's last record of the group's open episode was written, 0 none. */
int64_t
tk_records_at(const tgroup *g)
{
	return g->rec != NULL && g->ep != NULL ? g->rec->at : 0;
}

/* True when a KIP-848 group's epoch record was read: its records judge when its reconciliation ends. */
bool
tk_records_epoch_told(const tgroup *g)
{
	return g->rec != NULL && g->rec->kip848 && g->rec->epoch >= 0;
}

/* Members the records list now (KIP-848: the member records), 0 none or not told. */
int
tk_records_members(const tgroup *g)
{
	return g->rec != NULL && g->rec->kip848 ? g->rec->nk : 0;
}

/* ---------------------------------------------------- classic groups */

/* Remember a generation's members (for the next record's static restarts). */
static void
members_keep(tk_records *r, const kg_obs *o)
{
	int i;
	if (o->nmlist == 0 && o->nmembers > 0)
		return; /* a bare record of the history: its members are not told */
	members_clear(r);
	r->m = xcalloc((size_t)(o->nmlist ? o->nmlist : 1), sizeof *r->m);
	for (i = 0; i < o->nmlist; i++) {
		r->m[i].member_id = xstrdup(o->mlist[i].member_id);
		r->m[i].instance_id = xstrdup(o->mlist[i].instance_id);
	}
	r->nm = o->nmlist;
}

/* The members' limits the record told: session.timeout.ms and max.poll.interval.ms (the rebalance timeout). */
static void
members_limits(tgroup *g, const kg_obs *o)
{
	int i;
	for (i = 0; i < o->nmlist; i++) {
		const kg_obs_member *x = &o->mlist[i];
		tmember *m = x->member_id ? tk_find_member(g, x->member_id) : NULL;
		kg_obs lim;
		if (m == NULL)
			continue;
		memset(&lim, 0, sizeof lim);
		lim.session_timeout_ms = x->session_timeout_ms;
		lim.max_poll_ms = x->rebalance_timeout_ms;
		tk_live_limits(m, &lim);
	}
}

/*
 * The same generation rewritten: a static member came back under a new
 * member id within its session (KIP-345), and no generation ran.  Its
 * predecessor goes, it takes its place and partitions: said exactly.
 */
static void
static_restarts(kg_tracker *t, tgroup *g, tk_records *r, const kg_obs *o)
{
	int i, k;
	for (i = 0; i < o->nmlist; i++) {
		const kg_obs_member *x = &o->mlist[i];
		tmember *pred = NULL, *m;
		kg_event *ev;
		char text[96];
		if (x->instance_id == NULL || x->member_id == NULL || tk_find_member(g, x->member_id) != NULL)
			continue;
		for (k = 0; k < r->nm && pred == NULL; k++) {
			if (r->m[k].instance_id != NULL && strcmp(r->m[k].instance_id, x->instance_id) == 0 &&
			    r->m[k].member_id != NULL && strcmp(r->m[k].member_id, x->member_id) != 0)
				pred = tk_find_member(g, r->m[k].member_id);
		}
		if (pred == NULL || !pred->present)
			continue;
		pred->left_reported = true;
		tk_member_gone(t, g, pred, o->time_us);
		pred->left_exact = true; /* its old id in an older description is no member */
		m = tk_add_member(t, g, x->member_id, x->client_id, x->host, x->instance_id, o->time_us);
		m->announced = true;
		m->traced_at = o->time_us;
		m->first_seen = pred->first_seen;
		tk_set_tp(&m->asg, &m->nasg, pred->asg, pred->nasg);
		tk_set_tp(&m->stable, &m->nstable, pred->stable, pred->nstable);
		ev = tk_member_event(KG_EV_MEMBER_BACK, o->time_us, g, m);
		ev->evidence = KG_EVID_EXACT;
		ev->generation = o->generation;
		snprintf(text, sizeof text, "restarted within its session: generation %d kept, no rebalance", (int)o->generation);
		event_text(ev, text);
		tk_emit(t, g, ev);
	}
}

/* Count a generation record of episode ep (open, or closed and amended late). */
static void
gen_count(tk_records *r, int64_t ep)
{
	if (r->ep_id != ep) {
		r->ep_id = ep;
		r->ep_gens = 0;
	}
	r->ep_gens++;
}

/*
 * The open episode's last round began by time (a record's join end),
 * before the start polling gave it: its start moves back, a bound (not
 * before the description that showed it not begun).
 */
static void
start_before(kg_tracker *t, tgroup *g, int64_t time)
{
	int64_t lo = g->ep->rounds == 1 ? g->ep->start_lo_us : g->eps->last_sync;
	if (time < lo)
		time = lo;
	if (g->ep->rounds == 1)
		tk_ensure_episode(t, g, time, NULL, KG_EVID_POLLED);
	g->eps->round_start = KG_MIN(g->eps->round_start, time);
}

/* A generation completed in the open episode: a round ends at the record's time. */
static void
gen_in_open(kg_tracker *t, tgroup *g, tk_records *r, const kg_obs *o, int64_t begun)
{
	gen_count(r, g->ep->id);
	r->at = KG_MAX(r->at, o->time_us);
	if (g->ep->gen_start < 0)
		g->ep->gen_start = r->gen;
	/* the records count the rounds: a generation more than the episode has begins one */
	while (g->ep->rounds < r->ep_gens) {
		int was = g->ep->rounds;
		g->eps->phase = PHASE_SYNCED;
		tk_next_round(t, g, begun, KG_EVID_EXACT);
		if (g->ep->rounds == was)
			break; /* a group now on the consumer protocol (KIP-848) reading its classic history: no rounds */
	}
	g->ep->gen_end = o->generation;
	g->ep->evidence = KG_EVID_EXACT;
	g->eps->ep_stabilized = true; /* the coordinator counted the generations */
	g->eps->ep_records = true;
	g->eps->await_log_sync = false;
	g->eps->last_rebal_obs = KG_MAX(g->eps->last_rebal_obs, o->time_us);
	/*
	 * The sync of the round under way (a late one of an earlier round is
	 * counted, nothing more).  A record older than the round's start
	 * polling gave is that round's when the records count every round
	 * polling saw: the description that began it was asked before the
	 * sync and handed over after (a short rebalance between two
	 * refreshes), and the round began by its join's end (begun).
	 */
	if (o->time_us < g->eps->round_start && r->ep_gens >= g->ep->rounds && o->time_us >= g->eps->last_sync)
		start_before(t, g, begun);
	if (o->time_us >= g->eps->round_start && o->time_us >= g->eps->last_sync)
		tk_round_synced_at(t, g, o->time_us, true);
	if (o->nmembers == 0)
		tk_close_episode(t, g, o->time_us, o->time_us, "the group is empty");
}

/* A generation that ended an episode polling closed already: it amends it (end, rounds), told as retimed. */
static void
gen_amend(kg_tracker *t, tgroup *g, tk_records *r, kg_episode *e, const kg_obs *o)
{
	gen_count(r, e->id); /* on from the generations read while it was open */
	e->end_us = e->end_lo_us = o->time_us;
	if (e->start_us > e->end_us)
		e->start_us = e->end_us;
	e->rounds = r->ep_gens;
	e->rounds_min = false;
	if (e->gen_start < 0)
		e->gen_start = r->gen;
	e->gen_end = o->generation;
	e->evidence = KG_EVID_EXACT;
	if (o->time_us >= g->eps->last_ep_end)
		g->eps->last_ep_end = o->time_us;
	tk_emit_retimed(t, g, e, o->time_us);
}

/* A generation read from the history, before kgtop watched: a rebalance of its own, or the next round of the last. */
static void
gen_past(kg_tracker *t, tgroup *g, tk_records *r, const kg_obs *o, int64_t begun)
{
	kg_episode *e = r->past_id > 0 ? history_episode(t->h, g->id, r->past_id) : NULL;
	if (e != NULL && o->generation > r->gen && begun - r->past_end <= GEN_SETTLE) {
		/* the next generation right after the last one's sync: the same rebalance, one round more */
		e->end_us = e->end_lo_us = o->time_us;
		e->rounds++;
		e->rounds_min |= o->generation > r->gen + 1;
		e->gen_end = o->generation;
		e->members_after = o->nmembers;
		r->past_end = o->time_us;
		tk_emit_retimed(t, g, e, o->time_us);
		return;
	}
	{
		kg_past p = {
			.start_lo = r->gen >= 0 ? r->gen_at : 0,
			.start = begun,
			.end = o->time_us,
			.gen_start = r->gen,
			.gen_end = o->generation,
			.proto = o->proto != KG_PROTO_UNKNOWN ? o->proto : g->proto,
			.members_after = o->nmembers,
			/* generations between the two records: compacted away, or never synced (not rounds): a bound */
			.rounds_min = r->gen >= 0 && o->generation > r->gen + 1,
		};
		e = tk_past_episode(t, g, &p);
		r->past_id = e->id;
		r->past_end = o->time_us;
	}
}

/* A generation polling has not seen begin: its episode opens, begun after the last Stable description. */
static void
gen_open(kg_tracker *t, tgroup *g, tk_records *r, const kg_obs *o, int64_t begun)
{
	char why[64];
	int64_t lo = tk_poll_stable_at(g);
	snprintf(why, sizeof why, "coordinator: generation %d", (int)o->generation);
	tk_ensure_episode(t, g, begun, why, KG_EVID_EXACT);
	if (r->gen >= 0 && r->gen_at > lo)
		lo = r->gen_at;
	g->ep->start_lo_us = lo > 0 && lo <= begun ? lo : 0; /* the start is a bound: only its end is a record */
	gen_in_open(t, g, r, o, begun);
}

/* True when the record at time T can belong to the open episode. */
static bool
in_open(const kg_tracker *t, const tgroup *g, int64_t T)
{
	int64_t from;
	if (g->ep == NULL)
		return false;
	from = g->ep->start_lo_us > 0 ? g->ep->start_lo_us : g->ep->start_us - 2 * (t->interval_us > 0 ? t->interval_us : KG_SEC_US);
	return T >= from;
}

/* The last closed episode when it bounds a record of time T begun at begun, NULL when none does. */
static kg_episode *
bounding_closed(kg_tracker *t, tgroup *g, int64_t T, int64_t begun)
{
	kg_episode *e = g->ep == NULL ? history_episode(t->h, g->id, g->eps->last_ep) : NULL;
	int64_t from;
	if (e == NULL || e->end_us == 0 || e->id == (g->rec ? g->rec->past_id : 0))
		return NULL;
	from = e->start_lo_us > 0 ? e->start_lo_us : e->start_us - 2 * (t->interval_us > 0 ? t->interval_us : KG_SEC_US);
	return T >= from && begun <= KG_MAX(e->end_us + GEN_SETTLE, g->eps->closed_at) ? e : NULL;
}

/* KG_OBS_GENERATION: a classic group's generation completed (or the group was deleted). */
void
tk_obs_generation(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	tk_records *r = rec_of(g);
	int64_t T = o->time_us, begun = o->value > 0 && o->value <= T ? o->value : T;
	kg_episode *e;
	(void)m;
	if (o->gone) {
		/* the group was deleted: what follows starts afresh */
		members_clear(r);
		r->gen = -1;
		r->gen_at = 0;
		return;
	}
	if (o->generation < 0)
		return;
	r->told = true;
	members_limits(g, o);
	if (r->gen >= 0 && o->generation == r->gen) {
		static_restarts(t, g, r, o);
		members_keep(r, o);
		return;
	}
	if (o->generation < r->gen)
		r->gen = -1; /* deleted and made again */
	if (in_open(t, g, T))
		gen_in_open(t, g, r, o, begun);
	else if ((e = bounding_closed(t, g, T, begun)) != NULL)
		gen_amend(t, g, r, e, o);
	else if (o->loaded && (!g->seen || T < g->first_seen))
		gen_past(t, g, r, o, begun);
	else
		gen_open(t, g, r, o, begun);
	r->gen = o->generation;
	r->gen_at = T;
	members_keep(r, o);
}

/* ---------------------------------------------------------- KIP-848 */

/* A KIP-848 member of the records, made on first use (NULL id: none). */
static kmember *
kmember_get(tk_records *r, const char *member_id)
{
	int i;
	if (member_id == NULL)
		return NULL;
	for (i = 0; i < r->nk; i++) {
		if (strcmp(r->k[i].member_id, member_id) == 0)
			return &r->k[i];
	}
	r->k = xreallocarray(r->k, (size_t)r->nk + 1, sizeof *r->k);
	r->k[r->nk] = (kmember){ xstrdup(member_id), -1, -1, 0 };
	return &r->k[r->nk++];
}

/* A KIP-848 member left: the records forget it. */
static void
kmember_drop(tk_records *r, const char *member_id)
{
	int i;
	for (i = 0; member_id != NULL && i < r->nk; i++) {
		if (strcmp(r->k[i].member_id, member_id) == 0) {
			free(r->k[i].member_id);
			r->k[i] = r->k[--r->nk];
			return;
		}
	}
}

/*
 * The coordinator's own rule (its ConsumerGroup state): the group is
 * settled when every member the records list is at the group epoch (a
 * target computed for it, the member at it), stable, nothing pending; a
 * group with none is empty.
 */
static bool
kip848_all_settled(const tk_records *r)
{
	int i;
	for (i = 0; i < r->nk; i++) {
		const kmember *k = &r->k[i];
		if (k->epoch != r->epoch || k->state != 0 || k->npending > 0)
			return false;
	}
	return true;
}

/*
 * Judge the records after one was folded (at time): the record that makes
 * the group settled ends its rebalance, exactly: the open episode closes;
 * or, when a description closed it before this record was read, the
 * closed episode gets this end (tracker_kip.c, retimed).  The records are
 * the judge whichever came first; the members they list are the group's,
 * known to polling or not yet.
 */
static void
kip848_settled(kg_tracker *t, tgroup *g, tk_records *r, int64_t time)
{
	bool was_unsettled = r->unsettled;
	if (r->epoch < 0)
		return;
	if (!kip848_all_settled(r)) {
		r->unsettled = true;
		return;
	}
	r->unsettled = false;
	if (g->ep == NULL) {
		if (was_unsettled)
			tk_kip_late_end(t, g, time, r->epoch);
		return;
	}
	g->ep->gen_end = r->epoch;
	g->ep->evidence = KG_EVID_EXACT;
	g->ep->end_unseen = false; /* a group known from its records alone: they saw the end */
	g->eps->ep_stabilized = true;
	tk_round_synced_at(t, g, time, true);
	tk_close_episode(t, g, time, time, r->nk == 0 ? "the group is empty" : NULL);
	g->eps->closed_at = time;
}

/*
 * The state loaded at kgtop's start comes as the group epoch's record,
 * then each member's (offsets_state.c): judged at the epoch's record the
 * group lists no member yet (it "is empty"), at its first member's the
 * others are not listed.  A loaded record's judgement waits for the end of
 * the batch (tk_records_loaded_end), at the latest of their times.
 */
static void
judge(kg_tracker *t, tgroup *g, tk_records *r, const kg_obs *o)
{
	if (o->loaded) {
		r->loaded_judge = true;
		r->loaded_at = KG_MAX(r->loaded_at, o->time_us);
		return;
	}
	tk_records_loaded_end(t, g);
	kip848_settled(t, g, r, o->time_us);
}

/* The loaded state's judgement (see judge()): after the batch, or before a live record of the group. */
void
tk_records_loaded_end(kg_tracker *t, tgroup *g)
{
	tk_records *r = g->rec;
	if (r == NULL || !r->loaded_judge)
		return;
	r->loaded_judge = false;
	kip848_settled(t, g, r, r->loaded_at);
}

/* KG_OBS_GROUP_EPOCH: the group epoch was bumped: a rebalance begins (in an open one, its target moves). */
void
tk_obs_group_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	tk_records *r = rec_of(g);
	char why[64];
	(void)m;
	if (o->gone) {
		kmembers_clear(r);
		r->kip848 = false;
		r->epoch = -1;
		return;
	}
	r->kip848 = true;
	if (o->generation <= r->epoch)
		return;
	r->epoch = o->generation;
	if (g->ep == NULL) {
		/*
		 * tracker_kip.c opened none: the bump of an episode a
		 * description closed already (its start retimed there), whose
		 * members' records will give its end
		 */
		judge(t, g, r, o);
		return;
	}
	/* a bump in the open episode moves its target: the same reconciliation, no round (KIP-848 has none) */
	snprintf(why, sizeof why, "coordinator: group epoch %d", (int)o->generation);
	tk_ensure_episode(t, g, o->time_us, why, KG_EVID_EXACT);
	g->ep->evidence = KG_EVID_EXACT;
	if (g->ep->gen_start < 0)
		g->ep->gen_start = o->generation - 1;
	g->eps->ep_stabilized = true;
	g->eps->last_rebal_obs = o->time_us;
	r->at = KG_MAX(r->at, o->time_us);
	judge(t, g, r, o);
}

/* KG_OBS_MEMBER_META: a KIP-848 member's metadata (it is in the group), or its removal (it left). */
void
tk_obs_member_meta(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	tk_records *r = rec_of(g);
	(void)m;
	r->kip848 = true;
	if (o->gone) {
		kmember_drop(r, o->member_id);
		judge(t, g, r, o);
		return;
	}
	(void)kmember_get(r, o->member_id);
}

/* KG_OBS_MEMBER_EPOCH: a KIP-848 member's current assignment and epoch; the rebalance may have ended. */
void
tk_obs_member_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	tk_records *r = rec_of(g);
	kmember *k;
	(void)m;
	r->kip848 = true;
	if (o->gone) {
		kmember_drop(r, o->member_id);
		judge(t, g, r, o);
		return;
	}
	if ((k = kmember_get(r, o->member_id)) == NULL)
		return;
	k->epoch = o->generation;
	k->state = o->member_state;
	k->npending = o->npending;
	if (g->ep != NULL) {
		g->eps->last_rebal_obs = o->time_us;
		r->at = KG_MAX(r->at, o->time_us);
	}
	judge(t, g, r, o);
}

/* KG_OBS_TARGET_EPOCH, KG_OBS_TARGET_MEMBER: the target the coordinator computed; kept by the records only. */
void
tk_obs_target(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	(void)t;
	(void)m;
	(void)o;
	rec_of(g)->kip848 = true;
}

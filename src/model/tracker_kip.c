/*
 * tracker_kip.c: the tracker's KIP-848 part (see tracker_kip.h for the
 * protocol's rules as the tracker applies them).
 *
 * What it keeps: per group, the group epoch and the target assignment
 * epoch with where each came from; per member, its epoch, previous epoch,
 * state and type, its target (from a record, or the last description) and
 * its current assignment as a record gave it.  Evidence ranks by time: a
 * record or a log line newer than the group's description wins over it
 * in the snapshot (tk_kip_annotate()), an older one does not.
 */
#include "config.h"

#include "model/tracker_kip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker_episode.h"
#include "model/tracker_fold.h"
#include "model/tracker_lanes.h"

struct tk_kgroup {
	kg_epoch group_epoch;
	kg_epoch assignment_epoch;
	uint8_t gtype;      /* kg_group_type observations said */
	int64_t step_time;  /* the last member step (exact) of the open episode, 0 none */
	int64_t unrec_at;   /* the last description of the open episode that showed it unfinished, 0 none */
};

struct tk_kmember {
	kg_epoch epoch;
	int32_t prev_epoch;
	uint8_t mstate, mstate_src, mtype;
	kg_tp *target;      /* from a record (KG_OBS_TARGET_MEMBER) */
	int ntarget;        /* -1 none */
	int64_t target_us;
	uint8_t target_src;
	kg_tp *cur;         /* its current assignment as a record gave it */
	int ncur;           /* -1 none */
	int64_t cur_us;
	kg_tp *pending;     /* the record's partitions pending revocation */
	int npending;
	kg_tp *ptarget;     /* the target its last description gave */
	int nptarget;       /* -1 none */
	int64_t desc_us;    /* when the description that last set its assignment was asked, 0 none */
};

/* A group's state. */
tk_kgroup *
tk_kgroup_new(void)
{
	tk_kgroup *k = xcalloc(1, sizeof *k);
	k->group_epoch.value = k->assignment_epoch.value = -1;
	return k;
}

/* Free a group's state. */
void
tk_kgroup_free(tk_kgroup *k)
{
	free(k);
}

/* A member's state. */
tk_kmember *
tk_kmember_new(void)
{
	tk_kmember *k = xcalloc(1, sizeof *k);
	k->epoch.value = k->prev_epoch = -1;
	k->ntarget = k->ncur = k->nptarget = -1;
	return k;
}

/* Free a member's state. */
void
tk_kmember_free(tk_kmember *k)
{
	if (k == NULL)
		return;
	free(k->target);
	free(k->cur);
	free(k->pending);
	free(k->ptarget);
	free(k);
}

/*
 * Where an observation's facts come from, by its source's name: a
 * coordinator's log ("log"; the demo hands the mock cluster's coordinator
 * lines over the same way), a record of __consumer_offsets ("offsets"),
 * else the members themselves.
 */
static kg_fact_src
fact_src_of(const kg_obs *o)
{
	if (o->source == NULL)
		return KG_FACT_CLIENT;
	if (strcmp(o->source, "offsets") == 0)
		return KG_FACT_OFFSETS;
	if (strncmp(o->source, "log", 3) == 0 || strcmp(o->source, "demo") == 0)
		return KG_FACT_LOG;
	return KG_FACT_CLIENT;
}

/* Set an epoch from an observation (an older one does not replace a newer). */
static void
epoch_set(kg_epoch *e, const kg_obs *o)
{
	if (o->generation < 0 || (e->time_us > o->time_us && e->value >= 0))
		return;
	e->value = o->generation;
	e->src = (uint8_t)fact_src_of(o);
	e->time_us = o->time_us;
}

/* Replace an owned set with a copy of v (n < 0: none). */
static void
set_tp(kg_tp **dst, int *dn, const kg_tp *v, int n)
{
	free(*dst);
	*dst = n > 0 ? tp_dup(v, n) : NULL;
	*dn = n;
}

/* What any observation says of its group's type and its member's protocol. */
void
tk_kip_facts(tgroup *g, tmember *m, const kg_obs *o)
{
	bool kip_kind = o->kind == KG_OBS_EPOCH || o->kind == KG_OBS_GROUP_EPOCH || o->kind == KG_OBS_TARGET_EPOCH ||
			o->kind == KG_OBS_TARGET_MEMBER || o->kind == KG_OBS_MEMBER_EPOCH;
	if (o->gtype != KG_GTYPE_UNKNOWN)
		g->kg->gtype = o->gtype;
	/* an epoch of a group not said otherwise is a consumer group's (share and streams groups have epochs too) */
	if (kip_kind && g->kg->gtype == KG_GTYPE_UNKNOWN)
		g->kg->gtype = KG_GTYPE_CONSUMER;
	if (g->kg->gtype == KG_GTYPE_CONSUMER && (o->gtype == KG_GTYPE_CONSUMER || kip_kind))
		g->proto = KG_PROTO_CONSUMER;
	if (m != NULL && o->mtype != KG_MTYPE_UNKNOWN)
		m->km->mtype = o->mtype;
}

/* True when the group runs the consumer protocol as far as the tracker knows. */
bool
tk_kip_is_consumer(const tgroup *g, const kg_group *G)
{
	if (G != NULL && G->type != KG_GTYPE_UNKNOWN)
		return G->type == KG_GTYPE_CONSUMER;
	if (G != NULL && (G->proto == KG_PROTO_EAGER || G->proto == KG_PROTO_COOPERATIVE))
		return false; /* its source says it runs a classic protocol */
	return g->kg->gtype == KG_GTYPE_CONSUMER || g->proto == KG_PROTO_CONSUMER;
}

/*
 * The episode of a consumer group: opened at time (if none is), its
 * protocol the consumer one.  Its start names the group epoch only when a
 * bump opens it (bump: the epoch known is the bump's); opened otherwise
 * (a description, a member's step, a target whose bump was not read) the
 * epoch known is the one before the bump, which the episode keeps as its
 * first (the timeline's "group epoch 3->4") but the start does not name
 * as the rebalance's.
 */
static void
kip_open(kg_tracker *t, tgroup *g, int64_t time, const char *why, kg_evidence evid, bool bump)
{
	g->proto = KG_PROTO_CONSUMER;
	if (g->ep == NULL)
		g->kg->step_time = g->kg->unrec_at = 0;
	g->eps->gen_unsaid = !bump;
	tk_ensure_episode(t, g, time, why, evid);
	g->eps->gen_unsaid = false;
	g->ep->proto = KG_PROTO_CONSUMER;
	if (evid == KG_EVID_EXACT)
		g->ep->evidence = KG_EVID_EXACT;
	g->eps->last_rebal_obs = time;
}

/* Tell the new bounds of a closed episode a line or record read late (o) gave it, and what they come from. */
static void
kip_retimed(kg_tracker *t, tgroup *g, const kg_episode *last, const kg_obs *o, const char *what)
{
	kg_event *ev = event_new(KG_EV_RETIMED, o->time_us, g->id);
	ev->episode = last->id;
	ev->evidence = last->evidence;
	ev->duration = episode_duration(last, last->end_us);
	ev->duration_us = last->end_us - last->start_us;
	ev->generation = o->generation;
	ev->proto = KG_PROTO_CONSUMER;
	event_text(ev, what);
	tk_emit(t, g, ev);
}

/*
 * A bump read after polling closed the episode it began (a log read
 * later than the cluster was polled): that episode gets its measured
 * start, and the events say so; true when o was such a line.
 */
static bool
kip_late_bump(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	kg_episode *last;
	if (g->ep != NULL || !g->seen)
		return false;
	last = history_episode(t->h, g->id, tk_ep_last(g));
	if (last == NULL || last->end_us == 0 || o->time_us > last->end_us ||
	    o->time_us < (last->start_lo_us > 0 ? last->start_lo_us : last->start_us) - TRIGGER_WINDOW)
		return false;
	if (o->time_us >= last->start_us)
		return true; /* a later bump, after polling saw it begin: the first was not read, the start keeps polling's bounds */
	last->start_us = last->start_lo_us = o->time_us;
	last->gen_start = o->generation;
	if (last->end_lo_us < last->start_us)
		last->end_lo_us = last->start_us; /* it did not end before it began */
	last->evidence = KG_EVID_EXACT;
	kip_retimed(t, g, last, o, "its start: the group epoch's bump");
	return true;
}

/* The group's last bump has its target computed, told by time (a source told both). */
bool
tk_kip_target_told(const tgroup *g, int64_t time)
{
	const kg_epoch *ge = &g->kg->group_epoch, *ae = &g->kg->assignment_epoch;
	return ge->value >= 0 && ae->value >= ge->value && ae->time_us <= time;
}

/* The group epoch was bumped: a new target is coming, an episode opens. */
void
tk_kip_group_epoch(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	char why[64];
	int32_t was = g->kg->group_epoch.value;
	/* known from the log alone, the last bump's target told: this bump is a reconciliation of its own */
	bool own = tk_log_synced_before(g, o->time_us);
	epoch_set(&g->kg->group_epoch, o);
	if (o->generation >= 0 && was >= 0 && o->generation <= was)
		return; /* a record read again, or a slower stream's older line */
	if (g->kg->gtype == KG_GTYPE_SHARE || g->kg->gtype == KG_GTYPE_STREAMS)
		return; /* their epochs are told; what a rebalance of theirs costs is not this protocol's */
	if (kip_late_bump(t, g, o))
		return;
	if (own) {
		/* the closed one ended at the last bump's epoch; this bump's (applied already) is the next one's */
		int32_t now_gen = g->generation;
		g->generation = was;
		tk_close_log_synced(t, g);
		g->generation = now_gen;
	}
	snprintf(why, sizeof why, "group epoch bumped");
	kip_open(t, g, o->time_us, why, KG_EVID_EXACT, true);
	if (!g->seen) {
		/*
		 * A group known from its coordinator's log alone: members'
		 * reconciliation is not seen, so the episode is the log's
		 * (its quiet spell closes it, as for classic groups), and
		 * its length a lower bound.
		 */
		g->ep->end_unseen = true;
		g->eps->ep_stabilized = true;
		tk_round_synced_at(t, g, o->time_us, true);
	}
}

/*
 * A target computed in the last episode, read after polling ended it (a
 * log read later than the cluster was polled): the reconciliation cannot
 * have ended before it (its members reached this target or a later one),
 * so the end's lower bound rises to it, and the events say so.
 */
static void
kip_late_target(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	kg_episode *last = history_episode(t->h, g->id, tk_ep_last(g));
	if (last == NULL || last->proto != KG_PROTO_CONSUMER || last->end_us == 0 || o->time_us <= last->end_lo_us ||
	    o->time_us > last->end_us || o->time_us < (last->start_lo_us > 0 ? last->start_lo_us : last->start_us))
		return;
	last->end_lo_us = o->time_us;
	kip_retimed(t, g, last, o, "its end: not before its target assignment was computed");
}

/* A target assignment was computed for an epoch. */
void
tk_kip_target_epoch(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	int32_t was = g->kg->assignment_epoch.value;
	epoch_set(&g->kg->assignment_epoch, o);
	if (g->ep == NULL || o->time_us < g->ep->start_us)
		kip_late_target(t, g, o);
	/* a target for an epoch whose bump was not seen: the bump's episode (a target of a seen bump is its episode's) */
	if (g->ep == NULL && o->generation >= 0 && (was < 0 || o->generation > was) &&
	    o->generation > g->kg->group_epoch.value && g->kg->gtype != KG_GTYPE_SHARE &&
	    g->kg->gtype != KG_GTYPE_STREAMS && o->time_us > g->eps->last_ep_end) {
		char why[64];
		snprintf(why, sizeof why, "target assignment epoch %d", (int)o->generation);
		kip_open(t, g, o->time_us, why, KG_EVID_EXACT, false);
	}
	if (g->ep != NULL) {
		g->eps->last_rebal_obs = o->time_us;
		if (!g->seen)
			tk_round_synced_at(t, g, o->time_us, true);
	}
}

/* A member's target assignment. */
void
tk_kip_target(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	(void)t;
	(void)g;
	if (m == NULL || m->km->target_us > o->time_us)
		return;
	set_tp(&m->km->target, &m->km->ntarget, o->parts, o->nparts);
	m->km->target_us = o->time_us;
	m->km->target_src = (uint8_t)fact_src_of(o);
}

/* True when a member's epoch, as a source gave it, is the assignment epoch's, with nothing pending. */
static bool
member_reconciled(const tgroup *g, const tmember *m)
{
	const tk_kmember *k = m->km;
	int32_t target = g->kg->assignment_epoch.value;
	return target >= 0 && k->epoch.value >= target && k->npending == 0 &&
	       (k->mstate == KG_MSTATE_UNKNOWN || k->mstate == KG_MSTATE_STABLE);
}

/*
 * True when every present member's epoch is known and at the assignment
 * epoch, nothing pending, and that target is the group epoch's (a group
 * whose epoch is ahead of its target is still assigning): the
 * coordinator's own rule, over the members the tracker knows.  The judge
 * of sources other than the records (a coordinator's log); a group's
 * records judge with the members they list (tracker_records.c).
 */
static bool
all_reconciled(const tgroup *g)
{
	size_t i;
	int known = 0;
	if (g->kg->group_epoch.value > g->kg->assignment_epoch.value)
		return false;
	for (i = 0; i < g->nm; i++) {
		const tmember *m = g->m[i];
		if (!m->present)
			continue;
		if (m->km->epoch.value < 0 || !member_reconciled(g, m))
			return false; /* a member whose epoch no source gave is not judged here */
		known++;
	}
	return known > 0;
}

/*
 * A member's step: what it lost since the assignment the tracker knew is
 * revoked (while at epoch rv_epoch: a member revokes before it moves on),
 * what it gained is assigned (at epoch: it gets partitions with the
 * target's epoch); the events carry the epochs (-1 unknown), evid says
 * how well the time is known.  Returns true when anything changed.
 */
static bool
kip_step(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *now, int nnow, int32_t rv_epoch,
	 int32_t epoch, kg_evidence evid, const char *why)
{
	kg_tp *rv = xmalloc(((size_t)m->nasg + 1) * sizeof *rv);
	kg_tp *as = xmalloc(((size_t)nnow + 1) * sizeof *as);
	int nr = tp_diff(m->asg, m->nasg, now, nnow, rv);
	int na = tp_diff(now, nnow, m->asg, m->nasg, as);
	if (nr > 0 || na > 0) {
		kip_open(t, g, time, why, evid, false);
		g->step_epoch = rv_epoch >= 0 ? rv_epoch : KG_STEP_EPOCH_UNKNOWN;
		if (nr > 0)
			tk_revoke(t, g, m, time, rv, nr, m->asg, m->nasg, evid, KG_PROTO_CONSUMER, KG_REASON_NONE, 1);
		g->step_epoch = epoch >= 0 ? epoch : KG_STEP_EPOCH_UNKNOWN;
		if (na > 0)
			tk_assign(t, g, m, time, as, na, evid, 1);
		g->step_epoch = -1;
		tk_set_tp(&m->asg, &m->nasg, now, nnow);
		tk_set_tp(&m->stable, &m->nstable, now, nnow);
		if (evid == KG_EVID_EXACT)
			g->kg->step_time = time;
	}
	free(rv);
	free(as);
	return nr > 0 || na > 0;
}

/* A member's state as an observation says it: mstate, else a record's raw member_state (0 stable, 1, 2). */
static kg_mstate
obs_mstate(const kg_obs *o)
{
	if (o->mstate != KG_MSTATE_UNKNOWN)
		return (kg_mstate)o->mstate;
	switch (o->member_state) {
	case 0:
		return KG_MSTATE_STABLE;
	case 1:
		return KG_MSTATE_UNREVOKED;
	case 2:
		return KG_MSTATE_UNRELEASED;
	default:
		return KG_MSTATE_UNKNOWN;
	}
}

/* The last member's evidence read after a description closed the episode (see tracker_kip.h). */
void
tk_kip_late_end(kg_tracker *t, tgroup *g, int64_t time, int32_t epoch)
{
	kg_episode *e = history_episode(t->h, g->id, tk_ep_last(g));
	if (e == NULL || e->end_us == 0 || e->proto != KG_PROTO_CONSUMER || e->end_lo_us == e->end_us ||
	    time < e->end_lo_us || time > e->end_us || time < e->start_us)
		return;
	e->end_us = e->end_lo_us = time;
	if (epoch >= 0)
		e->gen_end = epoch;
	e->evidence = KG_EVID_EXACT;
	if (time >= g->eps->last_ep_end)
		g->eps->last_ep_end = time;
	tk_emit_retimed(t, g, e, time);
}

/* A member's current assignment at its epoch: its step towards its target, maybe the episode's end. */
void
tk_kip_member_epoch(kg_tracker *t, tgroup *g, tmember *m, const kg_obs *o)
{
	tk_kmember *k;
	kg_mstate ms = obs_mstate(o);
	bool step;
	if (m == NULL)
		return;
	k = m->km;
	if (k->cur_us > o->time_us)
		return; /* older than what a record said already */
	step = m->present && o->time_us >= k->desc_us; /* a description asked later told a newer holding: history */
	epoch_set(&k->epoch, o);
	k->prev_epoch = o->prev_epoch;
	k->mstate = (uint8_t)ms;
	k->mstate_src = (uint8_t)(ms != KG_MSTATE_UNKNOWN ? fact_src_of(o) : KG_FACT_NONE);
	set_tp(&k->cur, &k->ncur, o->parts, o->nparts);
	set_tp(&k->pending, &k->npending, o->pending, o->npending);
	k->cur_us = o->time_us;
	if (step) {
		/* it still holds what is pending revocation: the record's assigned partitions exclude it */
		kg_tp *held = tp_dup(o->parts, o->nparts);
		int nheld = held != NULL ? o->nparts : 0;
		tk_tp_union(&held, &nheld, o->pending, o->npending);
		kip_step(t, g, m, o->time_us, held, nheld, o->prev_epoch >= 0 ? o->prev_epoch : o->generation,
			 o->generation, KG_EVID_EXACT, "member reconciling");
		free(held);
	}
	/* a group's records list its members, known to polling or not yet: they judge its end (tracker_records.c) */
	if (!m->present || tk_records_epoch_told(g) || !all_reconciled(g))
		return;
	if (g->ep != NULL) {
		/* every member reached the assignment epoch: the last one's step ended it */
		g->ep->end_unseen = false;
		tk_close_episode(t, g, o->time_us, o->time_us, NULL);
	} else {
		tk_kip_late_end(t, g, o->time_us, g->kg->assignment_epoch.value);
	}
}

/* The time of a description: when its data was asked. */
static int64_t
desc_time(const kg_tracker *t, const kg_group *G)
{
	return G->data_time_us > 0 ? G->data_time_us : t->desc_time;
}

/* True when the member's target in the description differs from the one before. */
static bool
target_moved(tmember *m, const kg_member *mm)
{
	tk_kmember *k = m->km;
	bool moved;
	if (mm->ntarget < 0)
		return false;
	moved = k->nptarget >= 0 && !tp_equal(mm->target, mm->ntarget, k->ptarget, k->nptarget);
	set_tp(&k->ptarget, &k->nptarget, mm->target, mm->ntarget);
	return moved;
}

/*
 * What a description shows can be the outcome of the last episode, ended
 * exactly (a record, a log line) before the description was read: all it
 * shows when it was asked before that end; a change (a join, a target
 * moved), no member away from its target, that can have happened before
 * it.  It is that episode's, never a new one.
 */
static bool
kip_late_outcome(kg_tracker *t, tgroup *g, int64_t D, bool pending)
{
	const kg_episode *e = history_episode(t->h, g->id, tk_ep_last(g));
	if (e == NULL || e->end_us == 0 || e->evidence != KG_EVID_EXACT || e->end_lo_us != e->end_us)
		return false;
	if (D <= e->end_us)
		return true;
	return !pending && g->poll_lo > 0 && g->poll_lo <= e->end_us;
}

#define KIP_TARGET_WAIT_US (30LL * 1000000) /* a bump's target not told this long after it: no longer awaited */

/*
 * A description without a member a trace said joined since just before it
 * was begun predates that join (Kafka 4.3 logs a join as it handles the
 * heartbeat and describes the group as last committed: a description begun
 * after the line can show the group before it): the picture it shows is
 * the one before the episode the join opened, never its end.
 */
static bool
kip_predates_join(const tgroup *g, const kg_group *G, int64_t D)
{
	size_t i;
	for (i = 0; i < g->nm; i++) {
		const tmember *m = g->m[i];
		if (m->present && m->traced_at > 0 && D < m->traced_at + TK_STALE_DESCRIPTION && tk_snap_member(g, G, m) == NULL)
			return true;
	}
	return false;
}

/*
 * The description says the group is Assigning or Reconciling, or a source
 * told a group epoch whose target assignment is not computed yet (Kafka
 * 4.3 computes targets in batches: t_kip848.sh's log has "Computed a new
 * target assignment for epoch 3" a second after "Bumped group epoch to
 * 3"): every member at the old target is not the end, the new one is
 * still to come.  For a while: a target line or record that is never read
 * does not hold the episode open for ever.  Nor is a description asked
 * before the target was computed (its line read with the description, or
 * after it).
 */
static bool
kip_assigning(const tgroup *g, const kg_group *G, int64_t T, int64_t D)
{
	const kg_epoch *ge = &g->kg->group_epoch, *ae = &g->kg->assignment_epoch;
	/*
	 * the description says so itself: Kafka's Assigning (the group epoch
	 * ahead of the target's), or Reconciling (a member not at the target's
	 * epoch yet), as committed; librdkafka names neither (the kafka source
	 * says one of the two when every member holds its target)
	 */
	if (group_unsettled(G))
		return true;
	if (ae->value >= 0 && ge->value > ae->value && ge->time_us > 0 && T - ge->time_us < KIP_TARGET_WAIT_US)
		return true;
	/* a description asked before this episode's target was computed shows the targets before it */
	return ae->value >= 0 && ae->time_us > D && ae->time_us >= g->ep->start_us;
}

/* A consumer group's description (see tracker_kip.h). */
void
tk_kip_poll(kg_tracker *t, tgroup *g, const kg_group *G, int64_t T, bool first, bool changed)
{
	int64_t D = desc_time(t, G);
	bool target_changed = false, pending = G->nrevoking > 0 || G->nawaiting > 0, late, opened;
	size_t i;
	g->proto = KG_PROTO_CONSUMER;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_member *mm = m->present ? tk_snap_member(g, G, m) : NULL;
		if (mm != NULL && target_moved(m, mm))
			target_changed = true;
		/* a record newer than the description says the member is still on its way */
		if (m->present && m->km->cur_us > D && !member_reconciled(g, m))
			pending = true;
	}
	if ((G->state == KG_STATE_EMPTY || G->state == KG_STATE_DEAD) && G->nmembers == 0) {
		tk_group_emptied(t, g, T, 0, 0);
		return;
	}
	late = g->ep == NULL && kip_late_outcome(t, g, D, pending);
	opened = g->ep == NULL && !first && !late && (target_changed || changed || pending);
	if (opened)
		kip_open(t, g, T,
			 target_changed ? "target assignment changed" : changed ? "membership changed" : "members reconciling",
			 KG_EVID_POLLED, false);
	else if (g->ep == NULL && first && !late && pending)
		kip_open(t, g, T, "in progress when polled", KG_EVID_POLLED, false);
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_member *mm = m->present ? tk_snap_member(g, G, m) : NULL;
		if (mm == NULL || m->exact)
			continue;
		if (m->km->cur_us > D)
			continue; /* a record told a newer step than this description */
		m->km->desc_us = D;
		if (g->ep == NULL || first) {
			tk_set_tp(&m->asg, &m->nasg, mm->assignment, mm->nassigned);
			tk_set_tp(&m->stable, &m->nstable, mm->assignment, mm->nassigned);
			continue;
		}
		kip_step(t, g, m, T, mm->assignment, mm->nassigned, -1, -1, KG_EVID_POLLED, "member reconciling");
	}
	if (g->ep != NULL) {
		g->eps->ep_polled = true;
		g->eps->ep_logonly = false;
		g->eps->ep_changed = true;
	}
	if (g->ep != NULL && (pending || G->norphaned > 0) && D > g->kg->unrec_at)
		g->kg->unrec_at = D;
	/*
	 * Every member holds its target, no partition is left unowned: the
	 * reconciliation is over; unless the description was taken before the
	 * episode began (a log's bump read before the refresh that predates it;
	 * not the description that opened it at this refresh, after it was
	 * asked: it may show it over too), or before the coordinator's last
	 * record of the episode (the records are newer: they judge).
	 */
	if (g->ep != NULL && !pending && G->norphaned == 0 && (D >= g->ep->start_us || opened) &&
	    D >= tk_records_at(g) && !kip_predates_join(g, G, D) && !kip_assigning(g, G, T, D)) {
		/*
		 * it ended after the last exact step, after the last description
		 * that showed it unfinished, and after the target it reached was
		 * computed in it (a log's line, a record: kip_assigning waited for
		 * it); not before it can have begun
		 */
		int64_t lo = KG_MAX(g->kg->step_time, g->kg->unrec_at);
		int64_t began = g->ep->start_lo_us > 0 ? g->ep->start_lo_us : g->ep->start_us;
		const kg_epoch *ae = &g->kg->assignment_epoch;
		if (lo < began)
			lo = began;
		if (ae->value >= 0 && ae->time_us >= g->ep->start_us && ae->time_us > lo && ae->time_us <= D)
			lo = ae->time_us;
		g->ep->end_unseen = false;
		tk_close_episode(t, g, T, lo, NULL);
	}
}

/* The snapshot's member: the part's facts, and a record's target or assignment newer than the description. */
static bool
annotate_member(tgroup *g, const tmember *m, kg_member *sm, int64_t D)
{
	const tk_kmember *k = m->km;
	bool redo = false;
	(void)g;
	sm->epoch = k->epoch;
	sm->prev_epoch = k->prev_epoch;
	sm->mstate = k->mstate;
	sm->mstate_src = k->mstate_src;
	if (k->mtype != KG_MTYPE_UNKNOWN)
		sm->mtype = k->mtype;
	if (k->ntarget >= 0 && (sm->ntarget < 0 || k->target_us > D)) {
		sm->target = (kg_tp *)k->target;
		sm->ntarget = k->ntarget;
		redo = true;
	}
	return redo;
}

/* Write what the part knows into the snapshot's group. */
void
tk_kip_annotate(kg_tracker *t, kg_snapshot *s, tgroup *g, kg_group *G)
{
	int64_t D = desc_time(t, G);
	bool redo = false;
	size_t i;
	/*
	 * The group's type and protocol stay what its sources said (a
	 * recording keeps the snapshot as its sources made it), except a
	 * protocol nobody said.
	 */
	if (!tk_kip_is_consumer(g, G))
		return;
	if (G->proto == KG_PROTO_UNKNOWN)
		G->proto = KG_PROTO_CONSUMER;
	G->group_epoch = g->kg->group_epoch;
	G->assignment_epoch = g->kg->assignment_epoch;
	if (g->kg->group_epoch.value >= 0)
		G->sum.generation = g->kg->group_epoch.value;
	for (i = 0; i < g->nm; i++) {
		const tmember *m = g->m[i];
		int mi;
		if (!m->present || (mi = group_member_index(G, m->member_id)) < 0)
			continue;
		redo |= annotate_member(g, m, &G->members[mi], D);
	}
	if (redo) {
		/* the targets must live in the snapshot's arena */
		for (i = 0; i < (size_t)G->nmembers; i++) {
			kg_member *sm = &G->members[i];
			if (sm->ntarget > 0)
				sm->target = snapshot_tp_dup(s, sm->target, sm->ntarget);
		}
		group_reconciliation(s, G);
	}
}

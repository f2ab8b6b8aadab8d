/*
 * tracker_episode_cost.c: what an episode costs, the episodes part's other
 * file (tracker_episode.h).
 *
 * A member's stopped time and each partition's stretch without a
 * consuming owner are kept within bounds: proven by (the latest it can
 * have begun: only a callback's or a coordinator log line's time proves a
 * stop), not before (the earliest: the last moment it was seen consumed),
 * to its end within the refreshes around it.  An episode polling alone saw
 * may have missed generations, so its most is every partition of the group
 * from the last moment it was seen consumed, every member that took part
 * from the episode's earliest start (polled_most).  test_bounds.c proves
 * the bounds contain the truth of a simulated group.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/rows.h"
#include "model/tracker_episode.h"
#include "model/tracker_int.h"
#include "model/tracker_live.h"

/* Add a span (an unknown upper bound stays unknown). */
static void
span_add(kg_span *sum, int64_t min, int64_t max)
{
	sum->min += min > 0 ? min : 0;
	sum->max = sum->max < 0 || max < 0 ? -1 : sum->max + max;
}

/*
 * The time from [lo, since] to [end_lo, end]: at least end_lo - since (0
 * when since is not proven: since 0), at most end - lo (unknown lo: no
 * upper bound).
 */
static void
span_between(kg_span *sum, int64_t since, int64_t since_lo, int64_t end, int64_t end_lo)
{
	int64_t min = since > 0 ? (end_lo > 0 ? end_lo : end) - since : 0;
	span_add(sum, min, since_lo > 0 ? end - since_lo : -1);
}

/* A member stops consuming at time (its best estimate), proven by hi (0 not proven), not before lo (0 not known). */
void
tk_member_stop(tmember *m, int64_t time, int64_t hi, int64_t lo)
{
	if (m->eps->stop_since != 0)
		return;
	m->eps->stop_since = time;
	m->eps->stop_hi = hi;
	m->eps->stop_since_lo = lo;
}

/* Index of a partition in a set of n, -1 when absent. */
static int
tp_index(const kg_tp *v, int n, kg_tp tp)
{
	int i;
	for (i = 0; i < n; i++) {
		if (v[i].topic == tp.topic && v[i].partition == tp.partition)
			return i;
	}
	return -1;
}

/* The latest a partition is known consumed at (a commit of it moved its offset after then), 0 never seen. */
static int64_t
consumed_lo(const tgroup *g, kg_tp tp)
{
	int i = tp_index(g->eps->cons, g->eps->ncons, tp);
	return i >= 0 ? g->eps->cons_lo[i] : 0;
}

/*
 * Partitions lose their consuming owner, proven by hi (0 not proven), not
 * before lo0 (0 not known) nor before each was last seen consumed, in the
 * open episode.
 */
void
tk_parts_stop(tgroup *g, const kg_tp *v, int n, int64_t hi, int64_t lo0)
{
	int k;
	if (g->ep == NULL)
		return;
	for (k = 0; k < n; k++) {
		int i = tp_index(g->eps->unc, g->eps->nunc, v[k]);
		int64_t lo = KG_MAX(lo0, consumed_lo(g, v[k])); /* not before it was last seen consumed */
		if (i >= 0) {
			/* already without one: proven since the earlier, not before the earliest either says (0: not known) */
			if (hi > 0 && (g->eps->unc_since[i] == 0 || hi < g->eps->unc_since[i]))
				g->eps->unc_since[i] = g->eps->unc_since[i] > 0 ? hi : g->eps->unc_since[i];
			g->eps->unc_lo[i] = lo > 0 && g->eps->unc_lo[i] > 0 ? KG_MIN(lo, g->eps->unc_lo[i]) : 0;
			continue;
		}
		g->eps->unc = xreallocarray(g->eps->unc, (size_t)g->eps->nunc + 1, sizeof *g->eps->unc);
		g->eps->unc_since = xreallocarray(g->eps->unc_since, (size_t)g->eps->nunc + 1, sizeof *g->eps->unc_since);
		g->eps->unc_lo = xreallocarray(g->eps->unc_lo, (size_t)g->eps->nunc + 1, sizeof *g->eps->unc_lo);
		g->eps->unc[g->eps->nunc] = v[k];
		g->eps->unc_since[g->eps->nunc] = hi;
		g->eps->unc_lo[g->eps->nunc] = lo;
		g->eps->nunc++;
		if (tp_index(g->eps->unc_seen, g->eps->nunc_seen, v[k]) < 0) {
			g->eps->unc_seen = xreallocarray(g->eps->unc_seen, (size_t)g->eps->nunc_seen + 1, sizeof *g->eps->unc_seen);
			g->eps->unc_seen[g->eps->nunc_seen++] = v[k];
		}
	}
}

/* Partition i of the unconsumed list is consumed again at time (lo at the earliest): its time goes to the episode's cost. */
static void
part_resume_at(tgroup *g, int i, int64_t time, int64_t lo)
{
	tk_uncdone *d;
	span_between(&g->ep->unconsumed_us, g->eps->unc_since[i], g->eps->unc_lo[i], time, lo);
	if (g->eps->ndone == g->eps->cdone) {
		g->eps->cdone = g->eps->cdone ? 2 * g->eps->cdone : 8;
		g->eps->done = xreallocarray(g->eps->done, (size_t)g->eps->cdone, sizeof *g->eps->done);
	}
	d = &g->eps->done[g->eps->ndone++];
	d->tp = g->eps->unc[i];
	d->hi = g->eps->unc_since[i];
	d->lo = g->eps->unc_lo[i];
	d->end = time;
	d->end_lo = lo > 0 && lo <= time ? lo : time;
	g->eps->nunc--;
	g->eps->unc[i] = g->eps->unc[g->eps->nunc];
	g->eps->unc_since[i] = g->eps->unc_since[g->eps->nunc];
	g->eps->unc_lo[i] = g->eps->unc_lo[g->eps->nunc];
}

/*
 * A partition's committed offset moved within (lo, hi]: someone consumed
 * it then.  A stretch without a consuming owner proven from before that
 * is not proven any more (its start cannot be trusted: it was consumed
 * after it), so it adds nothing to the episode's least cost.  Outside an
 * episode: the stretches of the next one began after lo (whoever consumed
 * it: a generation polling did not see may have handed it to another
 * member), the earliest a stretch polling saw can be said to begin.
 */
void
tk_ep_part_moved(tgroup *g, kg_tp tp, int64_t lo, int64_t hi)
{
	int i = g->ep != NULL ? tp_index(g->eps->unc, g->eps->nunc, tp) : -1;
	if (i >= 0 && g->eps->unc_since[i] > 0 && lo >= g->eps->unc_since[i])
		g->eps->unc_since[i] = 0;
	if (lo <= 0)
		return;
	i = tp_index(g->eps->cons, g->eps->ncons, tp);
	if (i < 0) {
		g->eps->cons = xreallocarray(g->eps->cons, (size_t)g->eps->ncons + 1, sizeof *g->eps->cons);
		g->eps->cons_lo = xreallocarray(g->eps->cons_lo, (size_t)g->eps->ncons + 1, sizeof *g->eps->cons_lo);
		g->eps->cons_hi = xreallocarray(g->eps->cons_hi, (size_t)g->eps->ncons + 1, sizeof *g->eps->cons_hi);
		i = g->eps->ncons++;
		g->eps->cons[i] = tp;
		g->eps->cons_lo[i] = 0;
	}
	g->eps->cons_hi[i] = hi;
	/* only a move before an episode bounds its stretches: one during it may be the new owner's, after a stretch */
	if (g->ep == NULL && lo > g->eps->cons_lo[i])
		g->eps->cons_lo[i] = lo;
}

/* The group's partitions, as a description names them (kept when they change). */
void
tk_ep_group_parts(tgroup *g, const kg_group *G)
{
	int k;
	bool same = g->eps->ngparts == G->nparts;
	if (tk_rows_known(g, G)) {
		g->parts_same = same; /* the very rows of the last apply (rows.h) */
		return;
	}
	for (k = 0; same && k < G->nparts; k++)
		same = tp_same(g->eps->gparts[k], G->parts[k].tp);
	g->parts_same = same;
	if (same)
		return;
	g->eps->gparts = xreallocarray(g->eps->gparts, (size_t)(G->nparts ? G->nparts : 1), sizeof *g->eps->gparts);
	for (k = 0; k < G->nparts; k++)
		g->eps->gparts[k] = G->parts[k].tp;
	g->eps->ngparts = G->nparts;
}

/* Partitions have a consuming owner again at time. */
void
tk_parts_resume(tgroup *g, const kg_tp *v, int n, int64_t time, int64_t lo)
{
	int k, i;
	if (g->ep == NULL)
		return;
	for (k = 0; k < n; k++) {
		if ((i = tp_index(g->eps->unc, g->eps->nunc, v[k])) >= 0)
			part_resume_at(g, i, time, lo);
	}
}

/* A member that owned nothing since stop_since consumes again at time (lo at the earliest). */
void
tk_member_resume(tmember *m, kg_episode_member *em, int64_t time, int64_t lo)
{
	if (m->eps->stop_since > 0 && time >= m->eps->stop_since) {
		/* polled, both ends may be one moment: its bounds still say how long it can have been */
		em->stopped_us += time - m->eps->stop_since;
		span_between(&em->stopped, m->eps->stop_hi, m->eps->stop_since_lo, time, lo);
	}
	m->eps->stop_since = 0;
	m->eps->stop_hi = 0;
	m->eps->stop_since_lo = 0;
}

/* Account stopped / partial time of a member up to time (lo at the earliest). */
void
tk_settle_member_time(tgroup *g, tmember *m, int64_t time, int64_t lo)
{
	kg_episode_member *em;
	if (g->ep == NULL)
		return;
	em = tk_ep_member(g, m);
	tk_member_resume(m, em, time, lo);
	if (m->eps->partial_since > 0 && time > m->eps->partial_since)
		em->partial_us += time - m->eps->partial_since;
	m->eps->partial_since = 0;
}

/* Index of tp among the first n stretches, -1 none. */
static int
done_index(const tk_uncdone *v, int n, kg_tp tp)
{
	int i;
	for (i = 0; i < n; i++) {
		if (v[i].tp.topic == tp.topic && v[i].tp.partition == tp.partition)
			return i;
	}
	return -1;
}

/*
 * The most an episode polling saw can have cost: it may have missed
 * generations (a member that joined and left between two refreshes, a
 * second round), in which any partition of the group may have been taken
 * from its consumer and any member that ends it may have owned nothing.
 * So the stretches become one per partition of the group: not proven (no
 * least), from the last moment it was seen consumed (or the earliest a
 * stretch of it began) to the episode's end; and each member that took
 * part may have stopped from its earliest start.  No upper bound when
 * either is not known (a partition never seen consumed: an idle one, or
 * one whose commits stopped before kgtop looked).
 */
static void
polled_most(tgroup *g, kg_episode *e, int64_t end)
{
	tk_uncdone *v = xmalloc((size_t)(g->eps->ngparts + g->eps->ndone + 1) * sizeof *v);
	int64_t from = e->start_lo_us;
	int n = 0, k;
	bool unknown = false;
	/* each member that took part (there at its start, joined or left in it) may have stopped all along */
	e->stopped_us.max = from > 0 ? (int64_t)e->nmembers * (end - from) : -1;
	for (k = 0; k < g->eps->ngparts + g->eps->ndone; k++) {
		kg_tp tp = k < g->eps->ngparts ? g->eps->gparts[k] : g->eps->done[k - g->eps->ngparts].tp;
		int i = done_index(v, n, tp);
		if (i < 0) {
			/* not before the partition was last seen consumed (a commit moved it), else not known */
			i = n++;
			v[i] = (tk_uncdone){ tp, 0, consumed_lo(g, tp), end, end };
		}
		if (k >= g->eps->ngparts) {
			int64_t lo = g->eps->done[k - g->eps->ngparts].lo;
			v[i].lo = lo > 0 && v[i].lo > 0 ? KG_MIN(v[i].lo, lo) : 0;
		}
	}
	e->unconsumed_us.max = 0;
	for (k = 0; k < n; k++) {
		unknown |= v[k].lo <= 0;
		e->unconsumed_us.max += end - v[k].lo;
	}
	if (unknown)
		e->unconsumed_us.max = -1;
	free(g->eps->done);
	g->eps->done = v;
	g->eps->ndone = g->eps->cdone = n;
}

/*
 * The cost of a closing episode: members that were consuming when it
 * began, stayed, and stopped (their stopped time), and partitions without
 * a consuming owner (those still without one at the end count to it).
 * What polling alone saw is at most what it may have missed (polled_most).
 */
void
tk_close_costs(tgroup *g, kg_episode *e, int64_t end, int64_t end_lo, bool polled, int *members)
{
	int k;
	*members = 0;
	e->nstopped = 0;
	e->stopped_us.min = e->stopped_us.max = 0;
	for (k = 0; k < e->nmembers; k++) {
		const kg_episode_member *em = &e->members[k];
		if (em->nbefore == 0 || em->left)
			continue;
		(*members)++;
		if (em->stopped_us > 0 || em->cls == KG_CLASS_FULL) {
			e->nstopped++;
			span_add(&e->stopped_us, em->stopped.min, em->stopped.max);
		}
	}
	while (g->eps->nunc > 0)
		part_resume_at(g, g->eps->nunc - 1, end, end_lo);
	e->nunconsumed = g->eps->nunc_seen;
	g->eps->nunc_seen = 0;
	if (polled)
		polled_most(g, e, end);
}

/*
 * Partitions the group consumes that nobody owns in G (it has members),
 * not counted orphaned there (no partition of their topic is owned):
 * between the rounds of a cooperative rebalance (the first withholds what
 * changes owner).  It consumes those its start owners had, those whose
 * commits moved since the open episode's earliest start, and every one of
 * them while its members own nothing at all.
 */
int
tk_ep_unowned(const tgroup *g, const kg_group *G)
{
	int k, n = 0, nowned = 0;
	if (g->ep == NULL || G->nmembers == 0)
		return 0;
	for (k = 0; k < G->nparts; k++)
		nowned += G->parts[k].owner >= 0;
	for (k = 0; k < G->nparts; k++) {
		const kg_gpart *gp = &G->parts[k];
		int c;
		if (gp->owner >= 0 || gp->orphaned)
			continue;
		c = tp_index(g->eps->cons, g->eps->ncons, gp->tp);
		/* members that own nothing at all while the group has partitions: a first round withheld them all */
		if (nowned == 0 || tp_index(g->eps->ep_parts, g->eps->nep_parts, gp->tp) >= 0 ||
		    (c >= 0 && g->eps->cons_hi[c] > g->ep->start_lo_us))
			n++;
	}
	return n;
}

/* The stretches without a consuming owner of the last closed episode (until the next opens). */
int
tk_ep_unconsumed(const tgroup *g, const tk_uncdone **v)
{
	*v = g->eps->done;
	return g->ep == NULL ? g->eps->ndone : 0;
}

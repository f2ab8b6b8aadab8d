/*
 * tracker_progress.c: what the tracker does with progress (progress.h).
 *
 * Each apply, after the groups' descriptions are folded: the snapshot's
 * log-end samples go to the progress state and every group is judged.
 * Verdict changes become events, one per group and new verdict, naming the
 * partitions and what shows it.  Frozen commits are the tracker's evidence
 * that a member stopped consuming: a member whose partitions with lag are
 * all STALLED or STOPPED is silent from the time they froze (outside a
 * rebalance), until one of them moves again.  After a rebalance, the
 * partitions that changed owner are watched until their new owner's
 * commits move: the longest wait is the episode's "resumed" measure,
 * within the bounds two observations give.  Last, each member's verdict is
 * the worst of the partitions it consumes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/progress.h"
#include "model/tracker_episode.h"
#include "model/tracker_int.h"
#include "model/tracker_live.h"
#include "model/tracker_progress.h"

/* The tracker's progress: the rules' state, and a group's verdict changes (reused). */
struct tk_prog {
	kg_progress *prog;
	kg_vchange *vch;
	size_t cvch;
};

/* A group's moved partitions of its last closed episode, watched until their new owner commits. */
struct tk_resume {
	int64_t ep;    /* that episode's id, 0 none */
	kg_tp *tp;
	bool *done;
	int n, left;
	kg_span span;  /* the longest wait so far, within bounds */
	bool open;     /* still watching */
};

/* The tracker's progress state; NULL when cfg asks for no verdicts (a replay of a recording older than them). */
tk_prog *
tk_prog_new(const kg_tracker_config *cfg)
{
	tk_prog *p;
	if (cfg->lag_window_us <= 0)
		return NULL;
	p = xcalloc(1, sizeof *p);
	p->prog = progress_new(cfg->lag_window_us, cfg->window_us);
	return p;
}

/* The next apply is the last: a group's partition states go once it is judged. */
void
tracker_last_apply(kg_tracker *t)
{
	if (t->pg != NULL)
		progress_set_last(t->pg->prog);
}

/* Free the tracker's progress state (NULL is fine). */
void
tk_prog_free(tk_prog *p)
{
	if (p == NULL)
		return;
	progress_free(p->prog);
	free(p->vch);
	free(p);
}

/* A group went away: its partitions' progress is forgotten. */
void
tk_progress_forget(kg_tracker *t, int32_t group)
{
	if (t->pg != NULL)
		progress_forget(t->pg->prog, group);
}

/* A commit a source told (KG_OBS_COMMIT): the progress rules learn its exact time (progress_commit). */
void
tk_progress_commit(kg_tracker *t, tgroup *g, const kg_obs *o)
{
	int i;
	if (t->pg == NULL || o->value < 0)
		return;
	for (i = 0; i < o->nparts; i++)
		progress_group_commit(t->pg->prog, g->id, o->parts[i], o->time_us, o->value);
}

/* Free a group's watch of its moved partitions (NULL is fine). */
void
tk_resume_free(tk_resume *r)
{
	if (r == NULL)
		return;
	free(r->tp);
	free(r->done);
	free(r);
}

/* The partitions of changes ch[0..n) whose new verdict is v, in parts; their lag, the earliest since (*first) and the worst verdict before. */
static int
changes_of(const kg_group *G, const kg_vchange *ch, int n, uint8_t v, kg_tp *parts, int64_t *lag, kg_vchange *first,
	   uint8_t *from)
{
	int i, np = 0;
	*lag = 0;
	memset(first, 0, sizeof *first);
	*from = KG_VERDICT_NONE;
	for (i = 0; i < n; i++) {
		const kg_gpart *gp = &G->parts[ch[i].part];
		if (ch[i].to != v)
			continue;
		parts[np++] = gp->tp;
		*lag += v == KG_VERDICT_LOST ? gp->lost : gp->lag > 0 ? gp->lag : 0;
		if (ch[i].since > 0 && (first->since == 0 || ch[i].since < first->since))
			*first = ch[i];
		if (ch[i].from > *from)
			*from = ch[i].from;
	}
	return np;
}

/* What shows a verdict, in words: how long it holds is a span (at least since its latest start, at most since its earliest). */
static void
verdict_text(sbuf *b, uint8_t v, uint8_t from, int64_t lag, const kg_vchange *c, int64_t at)
{
	char n[32], d[48], since[96];
	kg_span held = { c->since > 0 && at > c->since ? at - c->since : 0, -1 };
	if (c->since_lo > 0 && c->kind != KG_SINCE_BEFORE)
		held.max = at > c->since_lo ? at - c->since_lo : 0;
	util_fmt_count(n, sizeof n, lag);
	event_fmt_span(d, sizeof d, held, false);
	since_fmt(since, sizeof since, (kg_since_kind)c->kind, c->since_lo, c->since, true);
	switch (v) {
	case KG_VERDICT_STALLED:
		sbuf_addf(b, "committed offset frozen %s while the log grows (lag %s), since %s", d, n, since);
		break;
	case KG_VERDICT_STOPPED:
		sbuf_addf(b, "no commit for %s, longer than the lag window (lag %s), since %s", d, n, since);
		break;
	case KG_VERDICT_LOST:
		sbuf_addf(b, "%s records deleted by retention before they were consumed", n);
		break;
	case KG_VERDICT_REWIND:
		sbuf_adds(b, "committed offset went back: records will be processed again");
		break;
	case KG_VERDICT_SLOW:
		sbuf_addf(b, "commits move but the lag grew at every commit for %s (lag %s)", d, n);
		break;
	case KG_VERDICT_OK:
		sbuf_adds(b, from > KG_VERDICT_PENDING ? (lag == 0 ? "caught up" : "commits move") : "");
		break;
	default:
		break;
	}
}

/*
 * One event per new verdict among the changes: none for a first judgement
 * (OK after none or "not judged yet"), none for "not judged yet" itself.
 */
static void
verdict_events(kg_tracker *t, tgroup *g, const kg_group *G, const kg_vchange *ch, int n, int64_t T)
{
	kg_tp *parts;
	int v;
	if (n == 0)
		return;
	parts = xmalloc((size_t)n * sizeof *parts);
	for (v = KG_VERDICT_OK; v < KG_VERDICT_COUNT; v++) {
		int64_t lag;
		kg_vchange first;
		uint8_t from;
		int np = changes_of(G, ch, n, (uint8_t)v, parts, &lag, &first, &from);
		kg_event *ev;
		sbuf b = { 0 };
		if (np == 0 || v == KG_VERDICT_PENDING || (v == KG_VERDICT_OK && from <= KG_VERDICT_PENDING))
			continue;
		ev = event_new(KG_EV_VERDICT, T, g->id);
		ev->parts = tp_dup(parts, np);
		ev->nparts = np;
		ev->verdict = (uint8_t)v;
		ev->verdict_from = from;
		ev->since_us = first.since;
		ev->since_lo_us = first.since_lo;
		ev->since_kind = first.kind;
		ev->records = lag;
		ev->evidence = KG_EVID_POLLED;
		verdict_text(&b, (uint8_t)v, from, lag, &first, kg_group_offs_time_or(G, T));
		event_text(ev, sbuf_str(&b));
		sbuf_free(&b);
		tk_emit(t, g, ev);
	}
	free(parts);
}

/* True when partition gp's committed offset moved at this refresh of its group's committed offsets. */
static bool
moved_now(const kg_group *G, const kg_gpart *gp, int64_t T)
{
	return gp->moved_us > 0 && gp->moved_us == kg_group_offs_time_or(G, T);
}

/*
 * Commits as evidence: a partition whose committed offset moved was
 * consumed then, so a stretch without a consuming owner the open episode
 * had proven from before is not proven (tk_ep_part_moved), and its owner,
 * if it held it already, was consuming after the observation before.
 */
static void
commits_seen(tgroup *g, const kg_group *G, int64_t T)
{
	int k;
	for (k = 0; k < G->nparts; k++) {
		const kg_gpart *gp = &G->parts[k];
		if (moved_now(G, gp, T))
			tk_ep_part_moved(g, gp->tp, gp->moved_lo_us, gp->moved_us);
	}
}

/*
 * Crashes seen by progress: a present member whose partitions with lag
 * all went without a commit for longer than their own pace allows
 * (progress_overdue_us: a few of their usual gaps between commits, counted
 * from when it got them or the last rebalance ended, so the members that
 * take over a dead one's partitions are not called silent for its freeze,
 * nor anyone for the pause a rebalance makes) stopped consuming: it
 * is silent since the latest of those freezes, until one of them moves.
 * A commit that moved on a partition it held from before is its own: the
 * time its leave reason is judged by (tk_live_gone_reason).
 * Outside a rebalance only (commits pause in one).  (A move is no proof
 * of its own life, for the bounds: a generation polling did not see may
 * have handed the partition to a member that committed it meanwhile.)
 */
static void
members_frozen(kg_tracker *t, tgroup *g, const kg_group *G, int64_t T)
{
	int64_t stall = progress_stall_us(progress_window(t->pg->prog), t->interval_us);
	size_t i;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_tp *h;
		int nh, k, nlag = 0, nover = 0, nfz = 0;
		int64_t since = 0, held, owed;
		kg_tp small[32], *over = small; /* the partitions overdue: on the stack unless it holds more */
		if (!m->present)
			continue;
		held = tk_ep_held_since(m);
		owed = KG_MAX(held, tk_ep_last_end(g)); /* nor for a rebalance's pause */
		h = tk_held(m, &nh);
		if (nh > (int)KG_ARRAY_LEN(small))
			over = xmalloc((size_t)nh * sizeof *over);
		for (k = 0; k < nh; k++) {
			int idx = group_part_index(G, h[k]);
			const kg_gpart *gp = idx >= 0 ? &G->parts[idx] : NULL;
			int64_t quiet;
			if (gp == NULL)
				continue;
			if (moved_now(G, gp, T) && gp->moved_lo_us >= held)
				tk_live_committed(m, gp->moved_lo_us); /* its own commit: consuming after moved_lo (leave reasons) */
			if (gp->verdict == KG_VERDICT_NONE || gp->lag <= 0 || gp->frozen_us <= 0)
				continue;
			nlag++;
			quiet = KG_MAX(gp->frozen_us, owed); /* no commit owed before it had them */
			if (T - quiet >= progress_overdue_us(gp->commit_gap_us, stall, t->interval_us)) {
				nover++;
				over[nfz++] = h[k];
				since = KG_MAX(since, quiet);
			}
		}
		if (nlag > 0 && nover == nlag && g->ep == NULL && since > 0) {
			/* the words only for news: a member already silent from then is so every refresh at rest */
			if (!tk_member_silent_already(m, since)) {
				sbuf b = { 0 };
				sbuf_adds(&b, "commits overdue on ");
				tp_format(&b, over, nfz, g->single_topic);
				tk_member_silent(t, g, m, since, SILENT_EXTERNAL, sbuf_str(&b), KG_EVID_POLLED);
				sbuf_free(&b);
			}
		} else {
			tk_member_alive(m, T, LIFE_PROGRESS);
		}
		if (over != small)
			free(over);
	}
}

/*
 * The backlog an episode let pile up: the records produced to each
 * partition while it had no consuming owner, within the bounds kgtop's
 * log-end samples give (the log-end only grows): at least from the latest
 * the stretch is proven to have begun to the earliest it ended, at most
 * from the earliest it can have begun to the latest it ended (no upper
 * bound when that beginning is older than the samples, or not known).
 */
static kg_span
backlog_of(const kg_progress *p, const tk_uncdone *v, int n)
{
	kg_span b = { 0, 0 };
	int i;
	for (i = 0; i < n; i++) {
		int64_t a_lo, a_hi, e_lo, e_hi;
		if (v[i].hi > 0 && v[i].end_lo > v[i].hi && progress_le_bounds(p, v[i].tp, v[i].end_lo, &e_lo, &e_hi)) {
			progress_le_bounds(p, v[i].tp, v[i].hi, &a_lo, &a_hi);
			b.min += KG_MAX(0, e_lo - a_hi);
		}
		if (b.max >= 0 && v[i].lo > 0 && progress_le_bounds(p, v[i].tp, v[i].lo, &a_lo, &a_hi)) {
			progress_le_bounds(p, v[i].tp, v[i].end, &e_lo, &e_hi);
			b.max += KG_MAX(0, e_hi - a_lo);
		} else {
			b.max = -1;
		}
	}
	return b;
}

/* The episode that closed in this apply learns its backlog, and so does its end event (not published yet). */
static void
backlog_store(kg_tracker *t, tgroup *g)
{
	const tk_uncdone *v;
	int n = tk_ep_unconsumed(g, &v);
	kg_episode *e = history_episode(t->h, g->id, tk_ep_last(g));
	size_t i;
	if (e == NULL)
		return;
	e->backlog = backlog_of(t->pg->prog, v, n);
	for (i = 0; t->out != NULL && i < t->out->n; i++) {
		kg_event *ev = t->out->v[i];
		if (ev->kind == KG_EV_REBALANCE_END && ev->group == g->id && ev->episode == e->id)
			ev->backlog = e->backlog;
	}
}

/* Start watching the partitions the last closed episode moved (once per episode). */
static void
resume_start(tgroup *g)
{
	int k, n = 0;
	const kg_tp *moved;
	const int *from;
	int nmoved = tk_ep_moved(g, &moved, &from);
	free(g->res->tp);
	free(g->res->done);
	g->res->tp = xmalloc((size_t)(nmoved ? nmoved : 1) * sizeof *g->res->tp);
	g->res->done = xcalloc((size_t)(nmoved ? nmoved : 1), sizeof *g->res->done);
	for (k = 0; k < nmoved; k++) {
		if (from[k] >= 0)
			g->res->tp[n++] = moved[k];
	}
	g->res->n = n;
	g->res->ep = tk_ep_last(g);
	g->res->left = n;
	g->res->span.min = g->res->span.max = 0;
	g->res->open = n > 0;
}

/* Write what is known of the wait into the stored episode. */
static void
resume_store(kg_tracker *t, tgroup *g, bool final)
{
	kg_episode *e = history_episode(t->h, g->id, g->res->ep);
	if (e == NULL)
		return;
	e->nresumed = g->res->n - g->res->left;
	e->resumed_us = g->res->span;
	if (g->res->left > 0 && final)
		e->resumed_us.max = -1; /* some never resumed while watched: at least this long */
}

/*
 * After a rebalance, how long the moved partitions waited for their new
 * owner's commits: from the episode's start (its bounds) to the first move
 * seen after its end (the observation before, and that one); one with
 * nothing to consume counts at the end.
 */
static void
resume_watch(kg_tracker *t, tgroup *g, const kg_group *G, int64_t T)
{
	kg_episode *e;
	int k;
	if (g->res == NULL)
		g->res = xcalloc(1, sizeof *g->res);
	if (tk_ep_last(g) != 0 && tk_ep_last(g) != g->res->ep) {
		backlog_store(t, g);
		resume_start(g);
	}
	if (!g->res->open || (e = history_episode(t->h, g->id, g->res->ep)) == NULL) {
		g->res->open = false;
		return;
	}
	for (k = 0; k < g->res->n; k++) {
		int idx = g->res->done[k] ? -1 : group_part_index(G, g->res->tp[k]);
		const kg_gpart *gp = idx >= 0 ? &G->parts[idx] : NULL;
		int64_t lo, hi, lo_at, hi_at;
		if (gp == NULL)
			continue;
		if (gp->moved_us > 0 && gp->moved_lo_us >= e->end_lo_us) {
			lo_at = gp->moved_lo_us;
			hi_at = gp->moved_us;
		} else if (gp->lag == 0) {
			lo_at = hi_at = e->end_us;
		} else {
			continue;
		}
		lo = lo_at - e->start_us;
		hi = hi_at - (e->start_lo_us > 0 ? e->start_lo_us : e->start_us);
		g->res->span.min = KG_MAX(g->res->span.min, lo);
		g->res->span.max = KG_MAX(g->res->span.max, hi);
		g->res->done[k] = true;
		g->res->left--;
	}
	if (g->res->left == 0 || T - e->end_us > 2 * progress_window(t->pg->prog)) {
		resume_store(t, g, true);
		g->res->open = false;
	} else if (g->res->left < g->res->n) {
		resume_store(t, g, false);
	}
}

/* The group's open rebalance, or its last one, for the progress rules: *start at the earliest it can have begun (0 none). */
static void
reb_span(kg_tracker *t, const tgroup *g, const kg_group *G, int64_t *start, int64_t *end)
{
	const kg_episode *e = NULL;
	if (g != NULL)
		e = g->ep != NULL ? g->ep : tk_ep_last(g) != 0 ? history_episode(t->h, G->id, tk_ep_last(g)) : NULL;
	*start = e == NULL ? 0 : e->start_lo_us > 0 ? e->start_lo_us : e->start_us;
	*end = e == NULL ? 0 : e->end_us;
}

/* Judge every group of the snapshot: events, silent members, the episodes' resumed measure. */
void
tk_progress(kg_tracker *t, kg_snapshot *snap, int64_t T)
{
	int k;
	if (t->pg == NULL)
		return; /* no verdicts (a replay of a recording older than them) */
	progress_topics(t->pg->prog, snap);
	for (k = 0; k < snap->ngroups; k++) {
		kg_group *G = &snap->groups[k];
		tgroup *g = tk_group_find(t, G->id);
		int64_t reb_start, reb_end;
		int n;
		reb_span(t, g, G, &reb_start, &reb_end);
		/* kept rows at rest (rows.h): outside a rebalance, their commits were seen as they are */
		n = progress_group(t->pg->prog, G, T, snap->interval_us, reb_start, reb_end,
				   !t->cfg.derive_all && (g == NULL || g->ep == NULL), &t->pg->vch, &t->pg->cvch);
		if (g == NULL || G->traced)
			continue;
		if (n >= 0) {
			verdict_events(t, g, G, t->pg->vch, n, T);
			commits_seen(g, G, T);
		} else {
			t->rest_skips++;
		}
		members_frozen(t, g, G, T);
		resume_watch(t, g, G, T);
	}
}

/*
 * view_grid.c: who owns what.
 *
 * By member (the default): a matrix, one row per member (its lane letter
 * and colour from the history), one column per partition, partitions in
 * topic order and wrapped into bands as wide as the pane.  The owner's
 * cell holds its letter, the others a dot; a partition assigned in the
 * last rebalance is marked where it arrived (arrow) and where it was
 * revoked from (cross); unowned partitions go to a last row (orphaned
 * '!', being reassigned, unconsumed '-').  An idle or away member carries
 * the word beside its name, so that a row of dots never passes for a
 * member at work.  By partition (m): a compact map, one cell per partition
 * holding its owner's letter (underlined when new), ten to a group, for
 * topics of up to thousands of partitions.  Progress: beside an owner's
 * letter, "=" marks a partition whose commits froze (STALLED, STOPPED),
 * "*" one that LOST records, "?" one SLOW or REWIND (in the map, the
 * letter takes the verdict's colours); # shows each partition's lag in
 * its cell instead of the letter.  The key under the grid lists
 * only the marks drawn, in the words of the layout shown, and the member
 * list says in words what each member does.  Live, the grid is the
 * snapshot; while scrubbing, it is the history sample in effect at the
 * scrubbed time.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "util/util.h"

#define GRID_LAG_W 6 /* the columns of a cell that shows a lag: a blank, a mark, "1.2k" */

/* One partition as the grid draws it. */
typedef struct gcell {
	kg_tp tp;
	int owner;     /* lane, -1 none */
	kg_pstat st;
	bool moved;
	int from;      /* lane revoked from, -1 none */
	uint8_t verdict; /* kg_verdict (live only: the history keeps none) */
	int64_t lag;   /* -1 unknown */
	bool kip;      /* KIP-848: the group's targets are known (live only) */
	int target;    /* lane whose target has it, -1 none */
} gcell;

/* What the grid draws, for the key: only the marks present are explained. */
typedef struct gmarks {
	bool others;     /* a member row's dot: another member's partition */
	bool moved;      /* owned and new since the last rebalance */
	bool revoked;    /* a cross in the row of the member it was revoked from */
	bool orphan, inflight, unconsumed;
	bool statik;
	bool tags;       /* an idle or away member: its rows carry the word */
	bool frozen, lost, doubt; /* verdict marks: STALLED or STOPPED, LOST, SLOW or REWIND */
	bool revoking, awaiting;  /* KIP-848: held, its target is another's; in its target, not held yet */
	int nconsumed;   /* partitions of the topics some member owns a partition of */
	bool map;        /* the layout: the map (by partition), else the matrix */
	bool lag;        /* the matrix's cells show lag numbers */
} gmarks;

/* The grid's state (its pane's): the layout and what a cell shows. */
typedef struct ui_grid {
	bool by_partition; /* m: the map, one cell per partition */
	bool lag;          /* #: each partition's lag in its cell, not its owner's letter */
} ui_grid;

/* One member row. */
typedef struct grow {
	int lane;
	char letter;
	const char *client_id;
	const char *instance_id;
	const char *host;
	kg_member_status status;
	int nowned;
	int nin;       /* partitions that moved to it */
} grow;

/* Letter of a lane from a view (or '?'). */
static char
lane_letter(const kg_hview *v, int lane)
{
	const kg_lane *l = hview_lane(v, lane);
	return l != NULL ? l->letter : '?';
}

/* Fill cells and rows from the snapshot (live) or the history sample (scrubbing); returns the row count. */
static int
grid_collect(ui_screen *s, const kg_group *g, const kg_hview *v, gcell *c, grow *rows)
{
	int i, n = 0;
	const kg_sample *smp = s->offset_us > 0 ? hview_sample_at(v, screen_view_time(s)) : NULL;
	if (smp != NULL) {
		for (i = 0; i < smp->nparts; i++) {
			c[i].tp = smp->parts[i];
			c[i].owner = smp->owner[i];
			c[i].st = (kg_pstat)smp->pstat[i];
			c[i].moved = false;
			c[i].from = -1;
			c[i].lag = -1;
			c[i].kip = false;
			c[i].target = -1;
		}
		for (i = 0; i < smp->nlanes && i < v->nlanes; i++) {
			const kg_lane *l = &v->lanes[i];
			if (smp->lane_status[i] == KG_LANE_ABSENT)
				continue;
			rows[n] = (grow){ i, l->letter, l->client_id, l->instance_id, l->host,
					  (kg_member_status)smp->lane_status[i], 0, 0 };
			n++;
		}
	} else {
		for (i = 0; i < g->nparts; i++) {
			const kg_gpart *p = &g->parts[i];
			c[i].tp = p->tp;
			c[i].owner = p->owner >= 0 ? g->members[p->owner].lane : -1;
			c[i].st = p->owner >= 0 ? KG_PSTAT_CONSUMING
				: g->sum.in_episode ? KG_PSTAT_STOPPED
				: p->orphaned ? KG_PSTAT_ORPHANED : KG_PSTAT_IDLE;
			c[i].moved = p->moved;
			c[i].from = p->moved ? p->moved_from : -1;
			c[i].verdict = p->verdict;
			c[i].lag = p->lag;
			c[i].kip = g->type == KG_GTYPE_CONSUMER && g->nmembers > 0 && g->members[0].ntarget >= 0;
			c[i].target = p->target_owner >= 0 ? g->members[p->target_owner].lane : -1;
		}
		for (i = 0; i < g->nmembers; i++) {
			const kg_member *m = &g->members[i];
			rows[n] = (grow){ m->lane, lane_letter(v, m->lane), m->client_id, m->instance_id, m->host,
					  m->status, 0, 0 };
			n++;
		}
	}
	/* lane order, so letters read A, B, C */
	for (i = 1; i < n; i++) {
		grow t = rows[i];
		int k = i - 1;
		while (k >= 0 && rows[k].lane > t.lane) {
			rows[k + 1] = rows[k];
			k--;
		}
		rows[k + 1] = t;
	}
	return n;
}

/* Index of a lane's row, -1 when it has none. */
static int
row_of(const grow *rows, int n, int lane)
{
	int i;
	for (i = 0; i < n; i++) {
		if (rows[i].lane == lane)
			return i;
	}
	return -1;
}

/* Draw a member's label: letter in its colour, client id (dim when idle), 's' for a static member. */
static void
draw_label(ui_screen *s, int y, int x, int w, const grow *m)
{
	char letter[2] = { m->letter, 0 };
	bool idle = m->status == KG_MEMBER_IDLE || m->status == KG_MEMBER_AWAY;
	text_put(s, y, x, 1, s->attr[screen_owner_el(m->lane)], letter, 0);
	text_put(s, y, x + 2, w - 4, s->attr[idle ? UI_EL_IDLE : UI_EL_NORMAL], m->client_id ? m->client_id : "?",
		 TEXT_ELLIPSIS);
	if (m->instance_id != NULL)
		text_put(s, y, x + w - 1, 1, s->attr[UI_EL_STATIC], "s", 0);
}

#define TAG_W 5 /* "idle" or "away" and a blank, beside the label of a matrix row */

/* A label's width (letter, blank, client id, blank, static mark): the longest client id's, from min to a third of r. */
static int
label_w(const ui_screen *s, const grow *rows, int n, ui_rect r, int min)
{
	int i, w = 0;
	for (i = 0; i < n; i++)
		w = KG_MAX(w, text_width(s, rows[i].client_id ? rows[i].client_id : "?") + 4);
	return KG_MAX(min, KG_MIN(w, r.w / 3));
}

/* The word beside an idle or away member's matrix row (it owns nothing, or may return); NULL for others. */
static const char *
row_tag(const grow *m, ui_element *el)
{
	if (m->status == KG_MEMBER_IDLE) {
		*el = UI_EL_GAUGE_WARN;
		return "idle";
	}
	if (m->status == KG_MEMBER_AWAY) {
		*el = UI_EL_STATIC;
		return "away";
	}
	return NULL;
}

/* Find which marks the grid draws in the layout of gs (by_partition: the map, else the matrix). */
static void
grid_marks(const gcell *c, int nc, const grow *rows, int nr, const ui_grid *gs, gmarks *mk)
{
	int i, k;
	bool by_partition = gs->by_partition;
	memset(mk, 0, sizeof *mk);
	mk->map = gs->by_partition;
	mk->lag = gs->lag;
	for (i = 0; i < nc; i++) {
		int own = c[i].owner >= 0 ? row_of(rows, nr, c[i].owner) : -1;
		bool cross = !by_partition && c[i].from >= 0 && c[i].from != c[i].owner &&
			     row_of(rows, nr, c[i].from) >= 0;
		if (own >= 0 && c[i].moved)
			mk->moved = true;
		if (cross)
			mk->revoked = true;
		if (c[i].owner < 0) {
			if (c[i].st == KG_PSTAT_ORPHANED)
				mk->orphan = true;
			else if (c[i].st == KG_PSTAT_STOPPED)
				mk->inflight = true;
			else
				mk->unconsumed = true;
		}
		if (!by_partition && nr - (own >= 0) - cross > 0)
			mk->others = true;
		if (c[i].kip && c[i].target != c[i].owner) {
			mk->revoking |= own >= 0;
			mk->awaiting |= c[i].target >= 0 && row_of(rows, nr, c[i].target) >= 0;
		}
		if (own >= 0) {
			mk->frozen |= c[i].verdict == KG_VERDICT_STALLED || c[i].verdict == KG_VERDICT_STOPPED;
			mk->lost |= c[i].verdict == KG_VERDICT_LOST;
			mk->doubt |= c[i].verdict == KG_VERDICT_SLOW || c[i].verdict == KG_VERDICT_REWIND;
		}
	}
	/* the cells come in topic order: count the runs of topics with an owner somewhere */
	for (i = 0; i < nc; i = k) {
		bool owned = false;
		for (k = i; k < nc && c[k].tp.topic == c[i].tp.topic; k++)
			owned = owned || c[k].owner >= 0;
		if (owned)
			mk->nconsumed += k - i;
	}
	for (k = 0; k < nr; k++) {
		ui_element el;
		if (rows[k].instance_id != NULL)
			mk->statik = true;
		if (row_tag(&rows[k], &el) != NULL)
			mk->tags = true;
	}
}

/*
 * The mark of a partition's verdict beside its owner's letter ("="
 * frozen: STALLED or STOPPED; "*" LOST; "?" SLOW or REWIND), NULL none;
 * its element in *el.
 */
static const char *
verdict_mark(uint8_t v, ui_element *el)
{
	*el = v == KG_VERDICT_SLOW || v == KG_VERDICT_REWIND ? UI_EL_VERDICT_WARN : UI_EL_VERDICT_BAD;
	switch (v) {
	case KG_VERDICT_STALLED:
	case KG_VERDICT_STOPPED: return "=";
	case KG_VERDICT_LOST: return "*";
	case KG_VERDICT_SLOW:
	case KG_VERDICT_REWIND: return "?";
	default: return NULL;
	}
}

/* One item of the key: a mark drawn as the grid draws it, and what it means. */
typedef struct gkey {
	const char *mark;
	attr_t attr;
	const char *text;
} gkey;

/* The key: the marks the grid shows, in the words of the layout shown, wrapped to the pane's width. */
static void
draw_key(ui_screen *s, ui_lines *lc, const gmarks *mk)
{
	gkey k[14];
	int n = 0, i, x, y = -1;
	ui_rect r = lc->r;
	bool map = mk->map;
	if (!map && mk->others)
		k[n++] = (gkey){ s->ascii ? "(blank)" : glyph_get(G_EMPTY, false), s->attr[UI_EL_GAUGE_EMPTY],
				 "not this member's" };
	if (mk->moved && map)
		k[n++] = (gkey){ "underlined", s->attr[UI_EL_NORMAL] | A_UNDERLINE, "new: got it in the last rebalance" };
	else if (mk->moved)
		k[n++] = (gkey){ glyph_get(G_MOVED_IN, s->ascii), s->attr[UI_EL_MOVED], "new: got it in the last rebalance" };
	if (mk->revoked)
		k[n++] = (gkey){ glyph_get(G_REVOKED, s->ascii), s->attr[UI_EL_REVOKED], "revoked from it in the last rebalance" };
	if (mk->orphan)
		k[n++] = (gkey){ "!", s->attr[UI_EL_ORPHAN], "orphaned: nobody owns it" };
	if (mk->inflight)
		k[n++] = (gkey){ glyph_get(G_INFLIGHT, s->ascii), s->attr[UI_EL_STOPPED], "being reassigned" };
	if (mk->unconsumed)
		k[n++] = (gkey){ glyph_get(G_UNCONSUMED, s->ascii), s->attr[UI_EL_IDLE], "unconsumed" };
	if (mk->revoking)
		k[n++] = (gkey){ map ? "A" : "^", s->attr[UI_EL_REVOKED],
				 map ? "so: to revoke (in another member's target)" : "to revoke: in another member's target" };
	if (mk->awaiting && !map)
		k[n++] = (gkey){ "+", s->attr[UI_EL_MOVED], "awaited: in its target, not released yet" };
	if (mk->statik)
		k[n++] = (gkey){ "s", s->attr[UI_EL_STATIC], "static member" };
	/* verdicts: a mark beside the letter in the matrix, the letter in the verdict's colours in the map */
	if (mk->frozen)
		k[n++] = (gkey){ map ? "A" : "=", s->attr[UI_EL_VERDICT_BAD],
				 map ? "so: STALLED or STOPPED (commits frozen with lag)" : "STALLED or STOPPED: commits frozen with lag" };
	if (mk->lost)
		k[n++] = (gkey){ map ? "A" : "*", s->attr[UI_EL_VERDICT_BAD],
				 map ? "so: LOST (records deleted unconsumed)" : "LOST: records deleted before consumed" };
	if (mk->doubt)
		k[n++] = (gkey){ map ? "A" : "?", s->attr[UI_EL_VERDICT_WARN], map ? "so: SLOW or REWIND" : "SLOW or REWIND" };
	if (!map && mk->lag)
		k[n++] = (gkey){ "123", s->attr[UI_EL_NORMAL], "the partition's lag (# for letters)" };
	x = r.x + r.w; /* the first item starts a line */
	for (i = 0; i < n; i++) {
		int mw = text_width(s, k[i].mark), w = mw + 1 + text_width(s, k[i].text);
		if (x + w > r.x + r.w - 1 && (x > r.x + 1 || y < 0)) {
			y = screen_line(lc);
			x = r.x + 1;
		}
		if (y >= 0) {
			text_put(s, y, x, r.x + r.w - 1 - x, k[i].attr, k[i].mark, 0);
			text_put(s, y, x + mw + 1, r.x + r.w - 1 - (x + mw + 1), s->attr[UI_EL_DIM], k[i].text,
				 TEXT_ELLIPSIS);
		}
		x += w + 3;
	}
}

/* What a member does, in words, and its theme element; NULL while it consumes all it owns. */
static const char *
status_words(const grow *m, const gmarks *mk, int nr, ui_element *el)
{
	switch (m->status) {
	case KG_MEMBER_IDLE:
		*el = UI_EL_GAUGE_WARN;
		return nr > mk->nconsumed ? "idle: more members than partitions" : "idle: no partitions assigned";
	case KG_MEMBER_AWAY:
		*el = UI_EL_STATIC;
		return "away: static member, may come back";
	case KG_MEMBER_STOPPED:
		*el = UI_EL_STOPPED;
		return "stopped (rebalancing)";
	case KG_MEMBER_PARTIAL:
		*el = UI_EL_PARTIAL;
		return "partly stopped (rebalancing)";
	default:
		return NULL;
	}
}

/* Legend lines: the key, then per member letter, client id, partitions, new ones, status, instance id, host. */
static void
draw_legend(ui_screen *s, ui_lines *lc, const grow *rows, int n, const gmarks *mk)
{
	int i, y;
	ui_rect r = lc->r;
	int lw = label_w(s, rows, n, r, 24);
	draw_key(s, lc, mk);
	for (i = 0; i < n; i++) {
		const grow *m = &rows[i];
		const char *what;
		ui_element el = UI_EL_NORMAL;
		int x;
		if ((y = screen_line(lc)) < 0)
			continue;
		x = r.x + 1;
		draw_label(s, y, x, lw, m);
		x += lw + 2;
		x += text_putf(s, y, x, r.x + r.w - x, s->attr[m->nowned ? UI_EL_NORMAL : UI_EL_IDLE], "%3d part%s",
			       m->nowned, m->nowned == 1 ? " " : "s") + 2;
		if (m->nin > 0)
			x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_MOVED], "+%d new", m->nin) + 2;
		if ((what = status_words(m, mk, n, &el)) != NULL)
			x += text_put(s, y, x, r.x + r.w - x, s->attr[el], what, TEXT_ELLIPSIS) + 2;
		if (m->instance_id != NULL) {
			char inst[256];
			snprintf(inst, sizeof inst, "static:%s", m->instance_id);
			x += text_put(s, y, x, r.x + r.w - 1 - x, s->attr[UI_EL_STATIC], inst, TEXT_ELLIPSIS) + 2;
		}
		/* the host last, cut with an ellipsis; not at all where hardly a character of it would show */
		if (m->host != NULL && r.x + r.w - 1 - x >= KG_MIN(text_width(s, m->host), 6))
			text_put(s, y, x, r.x + r.w - 1 - x, s->attr[UI_EL_DIM], m->host, TEXT_ELLIPSIS);
	}
}

/* Decimal digits of a non-negative number. */
static int
digits(int v)
{
	int d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/*
 * A member's own cell, cw wide at x: its letter (underlined when new),
 * or its lag with #; before it the verdict's mark, else the arrow of a
 * partition that came in the last rebalance.
 */
static void
owned_cell(ui_screen *s, int y, int x, int cw, const gcell *p, const grow *m, bool lag)
{
	char l[32] = { m->letter, 0 };
	attr_t a = s->attr[screen_owner_el(m->lane)];
	ui_element vel;
	const char *vm = verdict_mark(p->verdict, &vel);
	int w = 1;
	if (p->moved)
		a |= A_UNDERLINE;
	if (lag) {
		util_fmt_count(l, sizeof l, p->lag);
		w = KG_MIN((int)strlen(l), cw - 2);
	}
	if (p->kip && p->target != p->owner) /* KIP-848: it must give this one up first */
		text_put(s, y, x + cw - 1 - w, 1, s->attr[UI_EL_REVOKED], "^", 0);
	else if (vm != NULL)
		text_put(s, y, x + cw - 1 - w, 1, s->attr[vel], vm, 0);
	else if (p->moved)
		text_put(s, y, x + cw - 1 - w, 1, s->attr[UI_EL_MOVED], glyph_get(G_MOVED_IN, s->ascii), 0);
	text_put(s, y, x + cw - w, w, a, l, 0);
}

/* The matrix: members x partitions, wrapped into bands; idle and away rows say so beside the name. */
static void
draw_matrix(ui_screen *s, ui_lines *lc, const gcell *c, int nc, const grow *rows, int nr, const gmarks *mk)
{
	ui_rect r = lc->r;
	int namew = label_w(s, rows, nr, r, 14), maxp = 0, i, cw, lw = namew + 2 + (mk->tags ? TAG_W : 0), per, band, y;
	bool orphans = false;
	for (i = 0; i < nc; i++) {
		if (c[i].tp.partition > maxp)
			maxp = c[i].tp.partition;
		if (c[i].owner < 0)
			orphans = true;
	}
	cw = digits(maxp) + 1;
	if (cw < 3)
		cw = 3;
	if (mk->lag && cw < GRID_LAG_W)
		cw = GRID_LAG_W; /* a mark and "1.2k" */
	per = (r.w - lw - 1) / cw;
	if (per < 1)
		per = 1;
	for (band = 0; band * per < nc; band++) {
		int from = band * per, to = KG_MIN(nc, from + per), k, x;
		/* topic names where each topic starts in this band */
		if ((y = screen_line(lc)) >= 0) {
			for (i = from; i < to; i++) {
				int k2 = i + 1, x0 = r.x + lw + (i - from) * cw, w;
				if (i != from && c[i].tp.topic == c[i - 1].tp.topic)
					continue;
				/* up to the next topic's name, a blank before it */
				while (k2 < to && c[k2].tp.topic == c[i].tp.topic)
					k2++;
				w = k2 < to ? (k2 - i) * cw - 1 : r.x + r.w - x0;
				text_put(s, y, x0, w, s->attr[UI_EL_TITLE], intern_topic_name(c[i].tp.topic), TEXT_ELLIPSIS);
			}
		}
		if ((y = screen_line(lc)) >= 0) {
			text_put(s, y, r.x + 1, lw - 1, s->attr[UI_EL_COLUMN], "member", 0);
			for (i = from; i < to; i++)
				text_putf(s, y, r.x + lw + (i - from) * cw, cw, s->attr[UI_EL_COLUMN], "%*d", cw,
					  (int)c[i].tp.partition);
		}
		for (k = 0; k < nr + (orphans ? 1 : 0); k++) {
			const grow *m = k < nr ? &rows[k] : NULL;
			if ((y = screen_line(lc)) < 0)
				continue;
			if (m != NULL) {
				ui_element el;
				const char *tag = row_tag(m, &el);
				draw_label(s, y, r.x + 1, namew, m);
				if (tag != NULL)
					text_put(s, y, r.x + namew + 2, TAG_W - 1, s->attr[el], tag, 0);
			} else
				text_put(s, y, r.x + 1, lw - 2, s->attr[UI_EL_DIM], "(no owner)", 0);
			for (i = from, x = r.x + lw; i < to; i++, x += cw) {
				const gcell *p = &c[i];
				if (m != NULL && p->owner == m->lane) {
					owned_cell(s, y, x, cw, p, m, mk->lag);
				} else if (m != NULL && p->kip && p->target == m->lane) {
					text_put(s, y, x + cw - 1, 1, s->attr[UI_EL_MOVED], "+", 0); /* awaited */
				} else if (m != NULL && p->from == m->lane && p->from != p->owner) {
					text_put(s, y, x + cw - 1, 1, s->attr[UI_EL_REVOKED], glyph_get(G_REVOKED, s->ascii), 0);
				} else if (m == NULL && p->owner < 0) {
					if (p->st == KG_PSTAT_ORPHANED)
						text_put(s, y, x + cw - 1, 1, s->attr[UI_EL_ORPHAN], "!", 0);
					else if (p->st == KG_PSTAT_STOPPED)
						text_fill(s, y, x + cw - 1, 1, s->attr[UI_EL_STOPPED], G_INFLIGHT);
					else
						text_fill(s, y, x + cw - 1, 1, s->attr[UI_EL_IDLE], G_UNCONSUMED);
				} else {
					text_fill(s, y, x + cw - 1, 1, s->attr[UI_EL_GAUGE_EMPTY], G_EMPTY);
				}
			}
		}
	}
}

/* The map: one cell per partition holding its owner's letter. */
static void
draw_map(ui_screen *s, ui_lines *lc, const gcell *c, int nc, const grow *rows, int nr)
{
	ui_rect r = lc->r;
	int i = 0, y, nw = digits(nc) + 1, per;
	per = ((r.w - nw - 2) / 11) * 10;
	if (per < 10)
		per = 10;
	while (i < nc) {
		int topic = c[i].tp.topic, start = i, n = 0, k;
		while (i < nc && c[i].tp.topic == topic) {
			i++;
			n++;
		}
		if ((y = screen_line(lc)) >= 0)
			text_putf(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_TITLE], "%s (%d partition%s)", intern_topic_name(topic), n,
				  n == 1 ? "" : "s");
		for (k = 0; k < n; k += per) {
			int j, x;
			if ((y = screen_line(lc)) < 0)
				continue;
			text_putf(s, y, r.x + 1, nw, s->attr[UI_EL_COLUMN], "%*d", nw - 1, (int)c[start + k].tp.partition);
			for (j = 0, x = r.x + 1 + nw; j < per && k + j < n; j++, x++) {
				const gcell *p = &c[start + k + j];
				int row = p->owner >= 0 ? row_of(rows, nr, p->owner) : -1;
				if (j > 0 && j % 10 == 0)
					x++;
				if (p->owner >= 0) {
					char l[2] = { row >= 0 ? rows[row].letter : '?', 0 };
					ui_element vel;
					attr_t a = s->attr[screen_owner_el(p->owner)];
					if (p->kip && p->target != p->owner)
						a = s->attr[UI_EL_REVOKED]; /* no room for a mark: to be revoked, in its colours */
					else if (verdict_mark(p->verdict, &vel) != NULL)
						a = s->attr[vel]; /* no room for a mark: the verdict's colours */
					if (p->moved)
						a |= A_UNDERLINE; /* no room for an arrow: underline it */
					text_put(s, y, x, 1, a, l, 0);
				} else if (p->st == KG_PSTAT_ORPHANED) {
					text_put(s, y, x, 1, s->attr[UI_EL_ORPHAN], "!", 0);
				} else if (p->st == KG_PSTAT_STOPPED) {
					text_fill(s, y, x, 1, s->attr[UI_EL_STOPPED], G_INFLIGHT);
				} else {
					text_fill(s, y, x, 1, s->attr[UI_EL_IDLE], G_UNCONSUMED);
				}
			}
		}
	}
}

/* Draw the ownership grid. */
static void
view_grid_draw(ui_screen *s, void *st, const kg_group *g, ui_rect r)
{
	const ui_grid *gs = st;
	int64_t t = screen_view_time(s);
	kg_hview *v = history_view(s->hist, g->id, t, t);
	int nc = g->nparts, nr, i, total;
	gcell *c;
	grow *rows;
	gmarks mk;
	ui_lines lc = { s, r, 0 };
	const kg_sample *smp = s->offset_us > 0 ? hview_sample_at(v, t) : NULL;
	if (smp != NULL && smp->nparts > nc)
		nc = smp->nparts;
	c = xcalloc((size_t)(nc ? nc : 1), sizeof *c);
	rows = xcalloc((size_t)(KG_MAX(g->nmembers, v->nlanes) + 1), sizeof *rows);
	nr = grid_collect(s, g, v, c, rows);
	if (smp != NULL)
		nc = smp->nparts;
	for (i = 0; i < nc; i++) {
		int k = c[i].owner >= 0 ? row_of(rows, nr, c[i].owner) : -1;
		if (k >= 0) {
			rows[k].nowned++;
			if (c[i].moved)
				rows[k].nin++;
		}
	}
	grid_marks(c, nc, rows, nr, gs, &mk);
	if (nc == 0) {
		int y = screen_line(&lc);
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM],
			 g->nmembers == 0 ? "no members and no committed offsets" : "no partitions assigned", 0);
	} else if (gs->by_partition) {
		draw_map(s, &lc, c, nc, rows, nr);
	} else {
		draw_matrix(s, &lc, c, nc, rows, nr, &mk);
	}
	screen_line(&lc);
	draw_legend(s, &lc, rows, nr, &mk);
	total = lc.line;
	s->view_rows = total;
	if (s->scroll > 0 && total <= r.h)
		s->scroll = 0;
	free(c);
	free(rows);
	hview_free(v);
}

/* The grid's state: by member, letters in the cells. */
static void *
view_grid_init(const ui_screen *s)
{
	(void)s;
	return xcalloc(1, sizeof(ui_grid));
}

/* #: lag numbers in the matrix's cells, or the owners' letters. */
static void
grid_lag_key(ui_screen *s, void *st, int key, ui_action *a)
{
	ui_grid *gs = st;
	(void)s;
	(void)key;
	(void)a;
	gs->lag = !gs->lag;
}

/* m: the map (by partition) or the matrix (by member). */
static void
grid_mode(ui_screen *s, void *st, int key, ui_action *a)
{
	ui_grid *gs = st;
	(void)key;
	(void)a;
	gs->by_partition = !gs->by_partition;
	s->scroll = 0;
}

/* The grid's footer hints. */
static int
view_grid_hints(const ui_screen *s, const void *st, ui_hint *h, int max)
{
	const ui_grid *gs = st;
	int n = screen_hint(h, 0, max, "m", gs->by_partition ? "by member" : "by partition", 1);
	(void)s;
	if (!gs->by_partition)
		n = screen_hint(h, n, max, "#", gs->lag ? "letters" : "lag", 3);
	return n;
}

static const ui_pane_key view_grid_keys[] = {
	{ { 'm' }, grid_mode, "m", "grid: by member / by partition" },
	{ { '#' }, grid_lag_key, "#", "grid by member: each partition's lag in its cell, or its owner's letter" },
	{ { 0 }, NULL, NULL, NULL },
};

const ui_pane view_grid_pane = {
	.name = "grid",
	.key = 'o', /* ownership (g is the top, as in less) */
	.init = view_grid_init,
	.free = free,
	.draw = view_grid_draw,
	.keys = view_grid_keys,
	.hints = view_grid_hints,
};

/*
 * view_grid.c: who owns what.
 *
 * By member (the default): a matrix, one row per member (its lane letter
 * and colour from the history), one column per partition, partitions in
 * topic order and wrapped into bands as wide as the pane.  The owner's
 * cell holds its letter; a partition assigned in the last rebalance is
 * marked where it arrived (arrow) and where it was revoked from (cross);
 * unowned partitions go to a last row (orphaned '!', in flight, unconsumed).
 * By partition (m): a compact map, one cell per partition holding its
 * owner's letter, ten to a group, for topics of up to thousands of
 * partitions.  Live, the grid is the snapshot; while scrubbing, it is the
 * history sample in effect at the scrubbed time.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "util/util.h"

/* One partition as the grid draws it. */
typedef struct gcell {
	kg_tp tp;
	int owner;     /* lane, -1 none */
	kg_pstat st;
	bool moved;
	int from;      /* lane revoked from, -1 none */
} gcell;

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

/* Legend lines: letter, client id, instance id, host, partitions, status. */
static void
draw_legend(ui_screen *s, ui_lines *lc, const grow *rows, int n)
{
	int i, y;
	ui_rect r = lc->r;
	{
		/* the key, wrapped onto a second line when the pane is narrow */
		char items[6][64];
		int k, x = r.x + 1;
		snprintf(items[0], sizeof items[0], "%s assigned in the last rebalance", glyph_get(G_MOVED_IN, s->ascii));
		snprintf(items[1], sizeof items[1], "%s revoked from", glyph_get(G_REVOKED, s->ascii));
		snprintf(items[2], sizeof items[2], "! orphaned");
		snprintf(items[3], sizeof items[3], "%s in flight", glyph_get(G_INFLIGHT, s->ascii));
		snprintf(items[4], sizeof items[4], "%s unconsumed", glyph_get(G_IDLE, s->ascii));
		snprintf(items[5], sizeof items[5], "s static");
		y = screen_line(lc);
		for (k = 0; k < 6; k++) {
			int w = text_width(s, items[k]);
			if (x > r.x + 1 && x + w > r.x + r.w - 1) {
				y = screen_line(lc);
				x = r.x + 1;
			}
			if (y >= 0)
				text_put(s, y, x, r.x + r.w - 1 - x, s->attr[UI_EL_DIM], items[k], TEXT_ELLIPSIS);
			x += w + 3;
		}
	}
	for (i = 0; i < n; i++) {
		const grow *m = &rows[i];
		char line[512], cnt[64];
		int x;
		if ((y = screen_line(lc)) < 0)
			continue;
		x = r.x + 1;
		draw_label(s, y, x, 24, m);
		x += 26;
		snprintf(cnt, sizeof cnt, "%3d part%s", m->nowned, m->nowned == 1 ? " " : "s");
		x += text_put(s, y, x, r.x + r.w - x, s->attr[m->nowned ? UI_EL_NORMAL : UI_EL_IDLE], cnt, 0) + 1;
		if (m->nin > 0)
			x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_MOVED], "+%d ", m->nin);
		if (m->status != KG_MEMBER_CONSUMING)
			x += text_putf(s, y, x, r.x + r.w - x,
				       s->attr[m->status == KG_MEMBER_STOPPED ? UI_EL_STOPPED : m->status == KG_MEMBER_PARTIAL
											? UI_EL_PARTIAL
											: UI_EL_IDLE],
				       "%s ", member_status_name(m->status));
		if (m->instance_id != NULL)
			x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_STATIC], "static:%s ", m->instance_id);
		snprintf(line, sizeof line, "%s", m->host ? m->host : "");
		text_put(s, y, x, r.x + r.w - x, s->attr[UI_EL_DIM], line, TEXT_ELLIPSIS);
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

/* The matrix: members x partitions, wrapped into bands. */
static void
draw_matrix(ui_screen *s, ui_lines *lc, const gcell *c, int nc, const grow *rows, int nr)
{
	ui_rect r = lc->r;
	int maxp = 0, i, cw, lw = 16, per, band, y;
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
			if (m != NULL)
				draw_label(s, y, r.x + 1, lw - 2, m);
			else
				text_put(s, y, r.x + 1, lw - 2, s->attr[UI_EL_DIM], "(no owner)", 0);
			for (i = from, x = r.x + lw; i < to; i++, x += cw) {
				const gcell *p = &c[i];
				if (m != NULL && p->owner == m->lane) {
					char l[2] = { m->letter, 0 };
					attr_t a = s->attr[screen_owner_el(m->lane)];
					if (p->moved) {
						text_put(s, y, x + cw - 2, 1, s->attr[UI_EL_MOVED], glyph_get(G_MOVED_IN, s->ascii), 0);
						a |= A_UNDERLINE;
					}
					text_put(s, y, x + cw - 1, 1, a, l, 0);
				} else if (m != NULL && p->from == m->lane && p->from != p->owner) {
					text_put(s, y, x + cw - 1, 1, s->attr[UI_EL_REVOKED], glyph_get(G_REVOKED, s->ascii), 0);
				} else if (m == NULL && p->owner < 0) {
					if (p->st == KG_PSTAT_ORPHANED)
						text_put(s, y, x + cw - 1, 1, s->attr[UI_EL_ORPHAN], "!", 0);
					else if (p->st == KG_PSTAT_STOPPED)
						text_fill(s, y, x + cw - 1, 1, s->attr[UI_EL_STOPPED], G_INFLIGHT);
					else
						text_fill(s, y, x + cw - 1, 1, s->attr[UI_EL_IDLE], G_IDLE);
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
					attr_t a = s->attr[screen_owner_el(p->owner)];
					if (p->moved)
						a |= A_UNDERLINE; /* no room for an arrow: underline it */
					text_put(s, y, x, 1, a, l, 0);
				} else if (p->st == KG_PSTAT_ORPHANED) {
					text_put(s, y, x, 1, s->attr[UI_EL_ORPHAN], "!", 0);
				} else if (p->st == KG_PSTAT_STOPPED) {
					text_fill(s, y, x, 1, s->attr[UI_EL_STOPPED], G_INFLIGHT);
				} else {
					text_fill(s, y, x, 1, s->attr[UI_EL_IDLE], G_IDLE);
				}
			}
		}
	}
}

/* Draw the ownership grid. */
static void
view_grid_draw(ui_screen *s, const kg_group *g, ui_rect r)
{
	int64_t t = screen_view_time(s);
	kg_hview *v = history_view(s->hist, g->id, t, t);
	int nc = g->nparts, nr, i, total;
	gcell *c;
	grow *rows;
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
	if (nc == 0) {
		int y = screen_line(&lc);
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM],
			 g->nmembers == 0 ? "no members and no committed offsets" : "no partitions assigned", 0);
	} else if (s->by_partition) {
		draw_map(s, &lc, c, nc, rows, nr);
	} else {
		draw_matrix(s, &lc, c, nc, rows, nr);
	}
	screen_line(&lc);
	draw_legend(s, &lc, rows, nr);
	total = lc.line;
	s->view_rows = total;
	if (s->scroll > 0 && total <= r.h)
		s->scroll = 0;
	free(c);
	free(rows);
	hview_free(v);
}

const ui_pane view_grid_pane = {
	.name = "grid",
	.keys = "m",
	.draw = view_grid_draw,
};

/*
 * list.c: the group list: a row per group, the columns of the group
 * table (report/groupcol.h) after the name.
 *
 * The columns are the table's rows that have a title, in its order, each
 * as wide as the table says and one blank apart; an optional column shows
 * only when the names keep the room they need and at least LIST_NAME_ROOM
 * columns (what an 80-column terminal gives them).  A list too narrow
 * for every column gives up columns, least telling first (each row's drop
 * rank: partitions, protocol, members (the view's title says them), time
 * lag, rebalances, flags, lag, verdict), until the names fit (from 80
 * columns, until they have LIST_NAME_ROOM): a name is cut only when even
 * the state alone leaves it too little room.  A search's
 * match is marked in the names.  Cells come from the
 * table's formatters as text and a style hint; the hints become theme
 * elements here, and the selected row draws them all in its own colours
 * but a storm's.  Scrubbed back, the row shows the group as the history
 * saw it then.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

#define LIST_NAME_ROOM 30 /* the names' columns before an optional column may take any */

/* Theme elements of the group table's style hints. */
static const ui_element style_el[GROUPCOL_STYLE_COUNT] = {
	[GROUPCOL_NORMAL] = UI_EL_NORMAL,          [GROUPCOL_DIM] = UI_EL_DIM,
	[GROUPCOL_STABLE] = UI_EL_STATE_STABLE,    [GROUPCOL_REBALANCING] = UI_EL_STATE_REBAL,
	[GROUPCOL_QUIET] = UI_EL_STATE_EMPTY,      [GROUPCOL_EAGER] = UI_EL_EAGER,
	[GROUPCOL_COOPERATIVE] = UI_EL_COOP,       [GROUPCOL_STORM] = UI_EL_STORM,
	[GROUPCOL_LAG_UP] = UI_EL_LAG_UP,          [GROUPCOL_LAG_DOWN] = UI_EL_LAG_DOWN,
	[GROUPCOL_VERDICT_OK] = UI_EL_VERDICT_OK,  [GROUPCOL_VERDICT_WARN] = UI_EL_VERDICT_WARN,
	[GROUPCOL_VERDICT_BAD] = UI_EL_VERDICT_BAD,
};

/* Glyphs of the group table's signs. */
static const ui_glyph sign_glyph[GROUPCOL_SIGN_COUNT] = {
	[GROUPCOL_SIGN_UP] = G_UP,
	[GROUPCOL_SIGN_DOWN] = G_DOWN,
	[GROUPCOL_SIGN_FLAT] = G_FLAT,
};

/* The attribute of a style hint. */
attr_t
list_style(const ui_screen *s, groupcol_style st)
{
	return s->attr[(unsigned)st < GROUPCOL_STYLE_COUNT ? style_el[st] : UI_EL_NORMAL];
}

/* The columns a row of a column takes: its text, its sign, the blank before the next. */
static int
col_span(const groupcol *c)
{
	return c->width + (c->sign ? 1 : 0) + 1;
}

/* The width the names need: the longest shown (at least minw; screen_order measured them). */
static int
list_name_need(const ui_screen *s, int minw)
{
	return KG_MAX(8, KG_MAX(minw, s->names_w + 3));
}

/* True when a narrow list that gave up dropped columns leaves column c out (the rows' drop ranks). */
static bool
list_dropped(const groupcol *c, int dropped)
{
	return c->drop > 0 && c->drop <= dropped;
}

/* The highest drop rank: how many columns a list can give up. */
static int
list_max_drop(void)
{
	int i, m = 0;
	for (i = 0; i < groupcol_count; i++)
		m = KG_MAX(m, groupcol_table[i].title != NULL ? groupcol_table[i].drop : 0);
	return m;
}

/*
 * Choose the columns (at most max) for a list w wide whose names need
 * need columns: their table indexes and offsets after the name.  Returns
 * how many, and the columns they take in *fixed.  Narrow, it gives
 * columns up (their drop ranks) until the names have what they need.
 */
static int
list_columns(int w, int need, int *idx, int *off, int max, int *fixed)
{
	int i, n = 0, total = 0, spare, dropped = 0, most = list_max_drop();
	for (;;) {
		total = 0;
		for (i = 0; i < groupcol_count; i++) {
			const groupcol *c = &groupcol_table[i];
			if (c->title != NULL && !c->optional && !list_dropped(c, dropped))
				total += col_span(c);
		}
		if (total + need <= w || dropped >= most)
			break;
		dropped++;
	}
	spare = w - total - KG_MAX(need, LIST_NAME_ROOM);
	for (i = 0; i < groupcol_count; i++) {
		const groupcol *c = &groupcol_table[i];
		if (c->title == NULL || n == max || list_dropped(c, dropped))
			continue;
		if (c->optional) {
			if (spare < col_span(c) || dropped > 0) /* none while a column is given up */
				continue;
			spare -= col_span(c);
			total += col_span(c);
		}
		idx[n] = i;
		off[n] = n > 0 ? off[n - 1] + col_span(&groupcol_table[idx[n - 1]]) : 0;
		n++;
	}
	*fixed = total;
	return n;
}

/*
 * The list's note on its data: how old it is while the cluster source is
 * stale or failing, or the time it shows while scrubbed back.  Empty when
 * live and fresh; *el is the element to draw it in.
 */
static void
list_note(ui_screen *s, char *buf, size_t n, ui_element *el)
{
	const kg_source_health *k = screen_source(s, KG_ROLE_CLUSTER);
	int64_t stream = screen_stream_age(s); /* a viewer whose stream broke: its data is that much older */
	char d[32];
	buf[0] = '\0';
	if (screen_scrubbed(s)) {
		util_fmt_duration(d, sizeof d, s->offset_us);
		snprintf(buf, n, "at -%s", d);
		*el = UI_EL_PAUSED;
	} else if ((k != NULL && (k->status == KG_SRC_STALE || k->status == KG_SRC_ERROR)) || stream > 0) {
		bool stale = k != NULL && k->status != KG_SRC_OK;
		if (stale && (k->last_ok_us <= 0 || s->snap->time_us < k->last_ok_us)) {
			snprintf(buf, n, "no data yet");
		} else {
			int64_t age = (stale ? s->snap->time_us - k->last_ok_us : 0) + stream;
			if (stream > 0 && age < 60000000) /* a viewer's: whole seconds, as the header says them */
				snprintf(d, sizeof d, "%llds", (long long)(age / 1000000));
			else
				util_fmt_duration(d, sizeof d, stream > 0 ? age / 1000000 * 1000000 : age);
			snprintf(buf, n, "as of %s ago", d);
		}
		*el = UI_EL_STALE;
	}
}

/*
 * The sort marker before a title at x: down, or up when S reversed it; in
 * ASCII a '*' either way ('^' and 'v' are the lag's trend there; the
 * status line says "reversed").
 */
static void
sort_mark(ui_screen *s, int y, int x)
{
	const char *m = s->ascii ? "*" : s->sort_reverse ? "\u25b4" : "\u25be";
	text_put(s, y, x, 1, s->attr[UI_EL_COLUMN] | A_BOLD, m, 0);
}

/* The titles: the group count and the note on the data, each column's title, the sort marker. */
static void
list_titles(ui_screen *s, int namew, const int *idx, const int *off, int n, const char *title, const char *note,
	    ui_element note_el)
{
	ui_rect r = s->lay.list;
	attr_t col = s->attr[UI_EL_COLUMN];
	int c, tx;
	text_blank(r.y, r.x, r.w, col);
	tx = r.x + 2 + text_put(s, r.y, r.x + 2, namew - 1, col, title, TEXT_ELLIPSIS);
	for (c = 0; c < n; c++) {
		const groupcol *gc = &groupcol_table[idx[c]];
		int x = r.x + 1 + namew + off[c];
		if (gc->align == GROUPCOL_RIGHT)
			x += gc->width - (int)strlen(gc->title);
		text_put(s, r.y, x, r.x + r.w - x, col, gc->title, 0);
		if (idx[c] == s->sort)
			sort_mark(s, r.y, x - 1);
	}
	if (s->sort >= 0 && s->sort < groupcol_count && groupcol_table[s->sort].title == NULL)
		sort_mark(s, r.y, r.x + 1); /* by name: the names have no row of their own */
	if (note[0] != '\0')
		text_putf(s, r.y, tx + 1, r.x + namew - tx - 1, s->attr[note_el], " %s ", note);
}

/* Why the list is empty: a filter, no answer yet, a failing cluster, or really none. */
static void
list_empty(ui_screen *s)
{
	ui_rect r = s->lay.list;
	const kg_source_health *k = screen_source(s, KG_ROLE_CLUSTER);
	const char *cl = s->info && s->info->cluster ? s->info->cluster : s->snap->cluster;
	if (s->re_ok)
		text_put(s, r.y + 1, r.x + 2, r.w - 2, s->attr[UI_EL_DIM], "no group matches the filter (Esc clears it)", 0);
	else if (k != NULL && k->status == KG_SRC_CONNECTING)
		text_putf(s, r.y + 1, r.x + 2, r.w - 2, s->attr[UI_EL_STATUS_INFO], "connecting to %s %s",
			  cl && *cl ? cl : "the cluster", glyph_get(G_ELLIPSIS, s->ascii));
	else if (k != NULL && k->status == KG_SRC_ERROR && k->last_ok_us == 0)
		text_putf(s, r.y + 1, r.x + 2, r.w - 2, s->attr[UI_EL_STALE], "no answer from %s: %s",
			  cl && *cl ? cl : "the cluster", k->message ? k->message : "error");
	else
		text_put(s, r.y + 1, r.x + 2, r.w - 2, s->attr[UI_EL_DIM], "no consumer groups yet", 0);
}

/*
 * Draw one cell of a column at x0: its spans one blank apart (padded to
 * the width in its style when filled or right-aligned), then its sign.
 */
static void
list_cell(ui_screen *s, int y, int x0, const groupcol *gc, const groupcol_cell *c, bool sel, attr_t base)
{
	int i, x = x0;
	for (i = 0; i < c->nspans && x < x0 + gc->width; i++) {
		attr_t a = sel && c->span[i].style != GROUPCOL_STORM ? base : list_style(s, c->span[i].style);
		int w = x0 + gc->width - x, pad = KG_MAX(0, w - text_width(s, c->span[i].text));
		char buf[GROUPCOL_TEXT + 64];
		if (gc->align == GROUPCOL_RIGHT)
			snprintf(buf, sizeof buf, "%*s%s", pad, "", c->span[i].text);
		else
			snprintf(buf, sizeof buf, "%s%*s", c->span[i].text, gc->align == GROUPCOL_FILL ? pad : 0, "");
		x += text_put(s, y, x, w, a, buf, 0) + 1;
	}
	if (gc->sign && c->sign != GROUPCOL_SIGN_NONE)
		text_put(s, y, x0 + gc->width, 1, sel ? base : list_style(s, c->sign_style),
			 glyph_get(sign_glyph[c->sign], s->ascii), 0);
}

/* Keep the selection in the rows shown. */
static void
list_scroll(ui_screen *s, int rows)
{
	if (s->sel >= 0) {
		if (s->sel < s->list_top)
			s->list_top = s->sel;
		if (s->sel >= s->list_top + rows)
			s->list_top = s->sel - rows + 1;
	}
	if (s->list_top > s->norder - rows)
		s->list_top = s->norder - rows;
	if (s->list_top < 0)
		s->list_top = 0;
}

/* The facts a row shows: now, or scrubbed back, as the history saw them then. */
static void
list_facts(ui_screen *s, const kg_group *g, groupcol_facts *f)
{
	ui_past p;
	groupcol_facts_now(f, s->snap, g);
	f->extra_age_us = screen_stream_age(s);
	f->past = screen_scrubbed(s);
	f->progress = !f->past;
	if (f->past && screen_past(s, g, &p)) {
		f->state = p.state;
		f->in_episode = p.in_episode;
		f->nmembers = p.nmembers;
		f->nparts = p.nparts;
		f->lag = p.lag;
		f->rebalances_1h = p.rebalances_1h;
		/* the verdict it had then, as the history kept it (no time lag: the history keeps none) */
		f->progress = p.progress;
		f->verdict = p.vp.verdict;
		f->tlag_kind = KG_TLAG_NONE;
	}
}

/* The group list. */
void
list_draw(ui_screen *s)
{
	ui_rect r = s->lay.list;
	int namew, i, y, c, n, fixed, idx[32], off[32];
	char title[64], note[64];
	ui_element note_el = UI_EL_STALE;
	if (r.h <= 0)
		return;
	if (s->snap == NULL) {
		const char *cl = s->info && s->info->cluster ? s->info->cluster : "";
		text_putf(s, r.y + 1, 1, r.w - 2, s->attr[UI_EL_STATUS_INFO], "connecting to %s %s", *cl ? cl : "the cluster",
			  glyph_get(G_ELLIPSIS, s->ascii));
		return;
	}
	snprintf(title, sizeof title, "GROUP (%d%s)", s->norder, s->re_ok ? " filtered" : "");
	list_note(s, note, sizeof note, &note_el);
	namew = list_name_need(s, text_width(s, title) + 3 + (note[0] ? text_width(s, note) + 3 : 0));
	/* from 80 columns the names give way past LIST_NAME_ROOM; under them, only to the state */
	n = list_columns(r.w, r.w < UI_FULL_COLS ? namew : KG_MIN(namew, LIST_NAME_ROOM), idx, off,
			 (int)KG_ARRAY_LEN(idx), &fixed);
	namew = KG_MAX(8, KG_MIN(namew, r.w - fixed));
	list_titles(s, namew, idx, off, n, title, note, note_el);
	list_scroll(s, r.h - 1);
	if (s->norder == 0)
		list_empty(s);
	for (i = s->list_top, y = r.y + 1; i < s->norder && y < r.y + r.h; i++, y++) {
		const kg_group *g = &s->snap->groups[s->order[i]];
		bool sel = i == s->sel;
		attr_t base = sel ? s->attr[UI_EL_SELECTED] : s->attr[UI_EL_NORMAL];
		groupcol_facts f;
		list_facts(s, g, &f);
		if (sel)
			text_blank(y, r.x, r.w, base);
		text_put(s, y, r.x, 1, base, sel ? glyph_get(G_SELECT, s->ascii) : " ", 0);
		text_put_match(s, y, r.x + 2, namew - 2, base, g->name, s->search_in_view ? NULL : s->search, TEXT_ELLIPSIS);
		for (c = 0; c < n; c++) {
			const groupcol *gc = &groupcol_table[idx[c]];
			groupcol_cell cell;
			memset(&cell, 0, sizeof cell);
			gc->cell(&f, gc->width, &cell);
			list_cell(s, y, r.x + 1 + namew + off[c], gc, &cell, sel, base);
		}
	}
}

/*
 * view_compare.c: the timeline's compare form (v, on in the demo): the
 * selected group's timeline above the next one's, each with its title,
 * and a last line saying what the last rebalance of each cost, so that
 * eager and cooperative are seen at once.
 */
#include "config.h"

#include "ui/view_timeline.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

#define COMPARE_MIN_ROWS 8 /* a timeline in half the view needs this many rows to say anything */

/* Draw the compare form, when it applies. */
bool
compare_draw(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r)
{
	ui_rect top, bottom;
	const kg_group *o;
	int scroll, rows;
	if (!tl->compare || tl->by_partition || (o = screen_next_group(s, g)) == NULL || r.h < 2 * COMPARE_MIN_ROWS + 2)
		return false;
	top = r;
	top.h = (r.h - 2) / 2;
	bottom = r;
	bottom.y = r.y + top.h + 1;
	bottom.h = r.h - top.h - 2;
	timeline_draw_group(s, tl, g, top);
	{
		/* the last row: what the last rebalance of each cost, side by side */
		sbuf cost = { 0 };
		timeline_compare_cost(s, g, o, r.w - 2, &cost);
		text_blank(r.y + r.h - 1, r.x, r.w, s->attr[UI_EL_NORMAL]);
		text_put(s, r.y + r.h - 1, r.x + 1, r.w - 2, s->attr[UI_EL_TITLE], sbuf_str(&cost), TEXT_ELLIPSIS);
		sbuf_free(&cost);
	}
	/* the selected group's pane scrolls; the other one always shows its first lanes */
	scroll = s->scroll;
	rows = s->view_rows;
	s->scroll = 0;
	/* the second group's title: its name, state, protocol and counts, as the tabs line has them */
	text_blank(bottom.y - 1, r.x, r.w, s->attr[UI_EL_NORMAL]);
	render_group_title(s, o, bottom.y - 1, r.x, r.w);
	timeline_draw_group(s, tl, o, bottom);
	s->scroll = scroll;
	s->view_rows = rows;
	return true;
}

/* One group's side of the compare line: its protocol (or name) and what its last rebalance cost. */
static void
compare_side(const ui_screen *s, const kg_group *g, bool by_name, bool shortly, sbuf *b)
{
	const kg_group_summary *m = &g->sum;
	kg_span st = { m->last_stopped_min_us, m->last_stopped_max_us }, un = { m->last_unconsumed_min_us,
										   m->last_unconsumed_max_us };
	sbuf_addf(b, "%s: ", by_name ? g->name : shortly && g->proto == KG_PROTO_COOPERATIVE ? "coop" : proto_name(g->proto));
	if (g->commit_policy != NULL) /* the commits scenario: what the commit policy cost */
		sbuf_addf(b, "%lld processed twice, ", (long long)g->reprocessed);
	if (m->last_episode_us < 0) {
		sbuf_adds(b, "no rebalance yet");
		return;
	}
	if (shortly) {
		/* "3 stopped 7.8 member-s, 6 parts 15.6 partition-s" */
		sbuf_addf(b, "%d stopped", m->last_nstopped);
		if (m->last_nstopped > 0) {
			sbuf_addc(b, ' ');
			event_fmt_amount(b, st, m->last_nstopped, "member", s->ascii);
		}
		if (m->last_nunconsumed > 0) {
			sbuf_addf(b, ", %d part%s ", m->last_nunconsumed, m->last_nunconsumed == 1 ? "" : "s");
			event_fmt_amount(b, un, m->last_nunconsumed, "partition", s->ascii);
		}
		return;
	}
	event_fmt_cost(b, m->last_nstopped, st, m->last_nunconsumed, un, s->ascii);
}

/* The compare view's cost line, as long as fits width. */
void
timeline_compare_cost(const ui_screen *s, const kg_group *a, const kg_group *b, int width, sbuf *out)
{
	bool by_name = a->proto == b->proto;
	int form;
	for (form = 0; form < 2; form++) {
		sbuf_reset(out);
		if (form == 0)
			sbuf_adds(out, "last rebalance cost ");
		compare_side(s, a, by_name, form > 0, out);
		sbuf_adds(out, " | ");
		compare_side(s, b, by_name, form > 0, out);
		if (width <= 0 || text_width(s, sbuf_str(out)) <= width)
			return;
	}
}


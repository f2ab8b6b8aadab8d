/*
 * view_health.c: is each member alive and polling?
 *
 * Two gauges per member: heartbeat age against session.timeout.ms and the
 * time since the last poll against max.poll.interval.ms, ok below half,
 * warn below 80%, critical above.  The limits say where they came from
 * (Kafka's default, kgtop's config, a trace).  Below the members present,
 * the lanes that left, with why.  Where no source reports heartbeats or
 * polls the pane says which source would, instead of showing blanks.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

/* Draw one gauge "[#####-----] 3.1s/45s" of value against limit; returns the width used. */
static int
gauge(ui_screen *s, int y, int x, int bar, int64_t value, int64_t limit)
{
	char v[32], l[32];
	int fill, used = 0;
	double ratio;
	ui_element el;
	if (value < 0 || limit <= 0) {
		used += text_put(s, y, x, bar + 2, s->attr[UI_EL_DIM], "[", 0);
		used += text_fill(s, y, x + used, bar, s->attr[UI_EL_GAUGE_EMPTY], G_GAUGE_EMPTY);
		used += text_put(s, y, x + used, 1, s->attr[UI_EL_DIM], "]", 0);
		used += text_put(s, y, x + used + 1, 12, s->attr[UI_EL_DIM], "n/a", 0) + 1;
		return used;
	}
	ratio = (double)value / (double)limit;
	fill = (int)(ratio * bar + 0.5);
	if (fill > bar)
		fill = bar;
	if (fill < 1 && value > 0)
		fill = 1;
	el = ratio < 0.5 ? UI_EL_GAUGE_OK : ratio < 0.8 ? UI_EL_GAUGE_WARN : UI_EL_GAUGE_CRIT;
	used += text_put(s, y, x, 1, s->attr[UI_EL_DIM], "[", 0);
	used += text_fill(s, y, x + used, fill, s->attr[el], G_GAUGE_FULL);
	used += text_fill(s, y, x + used, bar - fill, s->attr[UI_EL_GAUGE_EMPTY], G_GAUGE_EMPTY);
	used += text_put(s, y, x + used, 1, s->attr[UI_EL_DIM], "]", 0);
	util_fmt_duration(v, sizeof v, value);
	util_fmt_duration(l, sizeof l, limit);
	used += text_putf(s, y, x + used + 1, 12, s->attr[el], "%s/%s", v, l) + 1;
	return used;
}

/* True when any member has health data. */
static bool
any_health(const kg_group *g)
{
	int i;
	for (i = 0; i < g->nmembers; i++) {
		const kg_member_health *h = &g->members[i].health;
		if (h->health_source != NULL || h->hb_age_us >= 0 || h->poll_gap_us >= 0)
			return true;
	}
	return false;
}

/* Draw the health view. */
static void
view_health_draw(ui_screen *s, const kg_group *g, ui_rect r)
{
	ui_lines lc = { s, r, 0 };
	kg_hview *v = history_view(s->hist, g->id, screen_view_time(s), screen_view_time(s));
	char a[32], b[32];
	int y, i, bar = r.w >= 120 ? 20 : 8, gw = bar + 2 + 1 + 12;
	bool have = any_health(g);
	const char *src = NULL;

	for (i = 0; i < g->nmembers && src == NULL; i++)
		src = g->members[i].health.health_source;
	util_fmt_duration(a, sizeof a, g->sum.session_timeout_us);
	util_fmt_duration(b, sizeof b, g->sum.max_poll_us);
	if ((y = screen_line(&lc)) >= 0) {
		int x = r.x + 1;
		x += text_putf(s, y, x, r.w - 2, s->attr[UI_EL_NORMAL], "session.timeout.ms %s ", a);
		x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_DIM], "(%s)   ", limit_src_name(g->sum.session_src));
		x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_NORMAL], "max.poll.interval.ms %s ", b);
		x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_DIM], "(%s)   ", limit_src_name(g->sum.max_poll_src));
		if (src != NULL)
			text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_DIM], "from %s", src);
	}
	if (!have) {
		if ((y = screen_line(&lc)) >= 0)
			text_putf(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_STATUS_INFO],
				  "heartbeats: none yet %s run the demo, or add --trace jolokia:URL / --trace jsonl:URL",
				  glyph_get(G_DASH, s->ascii));
		if ((y = screen_line(&lc)) >= 0)
			text_putf(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM],
				  "polls: none yet %s the same traces (client metrics) report the time between polls",
				  glyph_get(G_DASH, s->ascii));
	}
	screen_line(&lc);
	if ((y = screen_line(&lc)) >= 0) {
		int x = r.x + 3 + 16;
		text_put(s, y, r.x + 1, 17, s->attr[UI_EL_COLUMN], "member", 0);
		text_put(s, y, x, gw, s->attr[UI_EL_COLUMN], "heartbeat age", 0);
		text_put(s, y, x + gw + 1, gw, s->attr[UI_EL_COLUMN], "since last poll", 0);
		text_put(s, y, x + 2 * gw + 2, r.x + r.w - (x + 2 * gw + 2), s->attr[UI_EL_COLUMN], "status, last left", 0);
	}
	for (i = 0; i < g->nmembers; i++) {
		const kg_member *m = &g->members[i];
		const kg_lane *l = hview_lane(v, m->lane);
		char letter[2] = { l ? l->letter : '?', 0 };
		int x = r.x + 1;
		if ((y = screen_line(&lc)) < 0)
			continue;
		text_put(s, y, x, 1, s->attr[screen_owner_el(m->lane)], letter, 0);
		text_put(s, y, x + 2, 15, s->attr[UI_EL_NORMAL], m->client_id, TEXT_ELLIPSIS);
		x += 18;
		gauge(s, y, x, bar, m->health.hb_age_us, m->health.session_timeout_us);
		x += gw + 1;
		gauge(s, y, x, bar, m->health.poll_gap_us, m->health.max_poll_us);
		x += gw + 1;
		x += text_put(s, y, x, r.x + r.w - x,
			      s->attr[m->status == KG_MEMBER_STOPPED ? UI_EL_STOPPED
				      : m->status == KG_MEMBER_PARTIAL ? UI_EL_PARTIAL
				      : m->status == KG_MEMBER_CONSUMING ? UI_EL_NORMAL : UI_EL_IDLE],
			      member_status_name(m->status), 0);
		if (m->instance_id != NULL)
			x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_STATIC], " static:%s", m->instance_id);
		if (m->last_leave != KG_REASON_NONE)
			x += text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_DIM], "  last left: %s", reason_name(m->last_leave));
		if (m->health.poll_gap_max_us > 0 && r.w >= 120) {
			char mx[32];
			util_fmt_duration(mx, sizeof mx, m->health.poll_gap_max_us);
			text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_DIM], "  max gap %s", mx);
		}
	}
	/* lanes that left */
	for (i = 0; i < v->nlanes; i++) {
		const kg_lane *l = &v->lanes[i];
		char letter[2] = { l->letter, 0 }, why[256];
		if (l->present || l->last_leave == KG_REASON_NONE)
			continue;
		if ((y = screen_line(&lc)) < 0)
			continue;
		text_put(s, y, r.x + 1, 1, s->attr[UI_EL_DIM], letter, 0);
		text_put(s, y, r.x + 3, 15, s->attr[UI_EL_DIM], l->client_id, TEXT_ELLIPSIS);
		snprintf(why, sizeof why, "gone: left (%s%s%s)", reason_name(l->last_leave), l->leave_text ? ": " : "",
			 l->leave_text ? l->leave_text : "");
		text_put(s, y, r.x + 19, r.w - 20, s->attr[l->last_leave == KG_REASON_MAX_POLL ||
								     l->last_leave == KG_REASON_SESSION_TIMEOUT
							     ? UI_EL_EV_ALERT
							     : UI_EL_DIM],
			 why, TEXT_ELLIPSIS);
	}
	if (g->nmembers == 0 && (y = screen_line(&lc)) >= 0)
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], "no members", 0);
	s->view_rows = lc.line;
	hview_free(v);
}

const ui_pane view_health_pane = {
	.name = "health",
	.keys = "",
	.draw = view_health_draw,
};

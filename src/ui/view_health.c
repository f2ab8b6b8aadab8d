/*
 * view_health.c: is each member alive and polling?
 *
 * Two gauges per member: heartbeat age against session.timeout.ms and the
 * time since the last poll against max.poll.interval.ms, ok below half,
 * warn below 80%, critical above.  The limits say where they came from
 * (Kafka's default, kgtop's config, a trace).  Below the members present,
 * the lanes that left, with why.  Where no source reports heartbeats or
 * polls the pane says which source would, instead of showing blanks.
 * Scrubbed back, the members and the departures are those of the view
 * time (the history's sample then, and the leave events before it); the
 * gauges, which the history does not keep, say so instead of showing the
 * live values as if they were then.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

/* Blocks of a gauge of bar cells for value against limit. */
int
health_gauge_fill(int64_t value, int64_t limit, int bar)
{
	double ratio;
	int fill;
	if (value <= 0 || limit <= 0)
		return 0;
	ratio = (double)value / (double)limit;
	fill = (int)(ratio * bar + 0.5);
	if (fill > bar)
		fill = bar;
	/* a sliver shows as one block, but a value that reads 0 (under a millisecond) as none */
	if (fill < 1 && ratio >= 0.02 && value >= 1000)
		fill = 1;
	return fill;
}

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
	fill = health_gauge_fill(value, limit, bar);
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

#define PAST_EVENTS 2000 /* events searched for the leaves before a scrubbed time */

/* Theme element of a member status. */
static ui_element
status_el(kg_member_status st)
{
	return st == KG_MEMBER_STOPPED ? UI_EL_STOPPED
	     : st == KG_MEMBER_PARTIAL ? UI_EL_PARTIAL
	     : st == KG_MEMBER_CONSUMING ? UI_EL_NORMAL : UI_EL_IDLE;
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

/* One member present now: letter, client id, the two gauges, status, static id, last leave. */
static void
member_row(ui_screen *s, const kg_hview *v, const kg_member *m, ui_lines *lc, int bar, int gw)
{
	ui_rect r = lc->r;
	const kg_lane *l = hview_lane(v, m->lane);
	char letter[2] = { l ? l->letter : '?', 0 };
	int x = r.x + 1, y;
	if ((y = screen_line(lc)) < 0)
		return;
	text_put(s, y, x, 1, s->attr[screen_owner_el(m->lane)], letter, 0);
	text_put(s, y, x + 2, 15, s->attr[UI_EL_NORMAL], m->client_id, TEXT_ELLIPSIS);
	x += 18;
	gauge(s, y, x, bar, m->health.hb_age_us, m->health.session_timeout_us);
	x += gw + 1;
	gauge(s, y, x, bar, m->health.poll_gap_us, m->health.max_poll_us);
	x += gw + 1;
	x += text_put(s, y, x, r.x + r.w - x, s->attr[status_el(m->status)], member_status_name(m->status), 0);
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

/* A lane that left: letter, client id, "gone: left (reason: text)". */
static void
gone_row(ui_screen *s, ui_lines *lc, const kg_lane *l, kg_reason why, const char *text)
{
	ui_rect r = lc->r;
	char letter[2] = { l->letter, 0 }, line[256];
	int y;
	if ((y = screen_line(lc)) < 0)
		return;
	text_put(s, y, r.x + 1, 1, s->attr[UI_EL_DIM], letter, 0);
	text_put(s, y, r.x + 3, 15, s->attr[UI_EL_DIM], l->client_id, TEXT_ELLIPSIS);
	snprintf(line, sizeof line, "gone: left (%s%s%s)", reason_name(why), text ? ": " : "", text ? text : "");
	text_put(s, y, r.x + 19, r.w - 20,
		 s->attr[why == KG_REASON_MAX_POLL || why == KG_REASON_SESSION_TIMEOUT ? UI_EL_EV_ALERT : UI_EL_DIM], line,
		 TEXT_ELLIPSIS);
}

/*
 * Scrubbed back: the lanes that were members at the view time (status
 * from the sample, gauges marked live only), then those that had left
 * by then, with the reason of their last leave before it.
 */
static void
past_rows(ui_screen *s, const kg_group *g, const kg_hview *v, const kg_sample *smp, ui_lines *lc, int gw)
{
	ui_rect r = lc->r;
	int64_t t = screen_view_time(s);
	kg_event *ev[PAST_EVENTS];
	int nev = 0, i, k, y;
	for (i = 0; i < v->nlanes && i < smp->nlanes; i++) {
		const kg_lane *l = &v->lanes[i];
		kg_member_status st = (kg_member_status)smp->lane_status[i];
		char letter[2] = { l->letter, 0 };
		int x = r.x + 1;
		if (smp->lane_status[i] == KG_LANE_ABSENT)
			continue;
		if ((y = screen_line(lc)) < 0)
			continue;
		text_put(s, y, x, 1, s->attr[screen_owner_el(i)], letter, 0);
		text_put(s, y, x + 2, 15, s->attr[UI_EL_NORMAL], l->client_id, TEXT_ELLIPSIS);
		x += 18;
		text_put(s, y, x, gw, s->attr[UI_EL_DIM], "(live only)", 0);
		x += gw + 1;
		text_put(s, y, x, gw, s->attr[UI_EL_DIM], "(live only)", 0);
		x += gw + 1;
		x += text_put(s, y, x, r.x + r.w - x, s->attr[status_el(st)], member_status_name(st), 0);
		if (l->instance_id != NULL)
			text_putf(s, y, x, r.x + r.w - x, s->attr[UI_EL_STATIC], " static:%s", l->instance_id);
	}
	/* the leave events before the view time, newest first, say why each lane had gone */
	nev = history_events(s->hist, g->id, 0, ev, PAST_EVENTS);
	for (i = 0; i < v->nlanes; i++) {
		const kg_lane *l = &v->lanes[i];
		const kg_event *why = NULL;
		if (l->first_seen_us > t || (i < smp->nlanes && smp->lane_status[i] != KG_LANE_ABSENT))
			continue; /* not there yet, or still a member then */
		for (k = 0; k < nev && why == NULL; k++) {
			if (ev[k]->kind == KG_EV_MEMBER_LEFT && ev[k]->lane == i && ev[k]->time_us <= t)
				why = ev[k];
		}
		gone_row(s, lc, l, why != NULL ? why->reason : KG_REASON_UNKNOWN, why != NULL ? why->text : NULL);
	}
	for (k = 0; k < nev; k++)
		event_unref(ev[k]);
}

/* Draw the health view. */
static void
view_health_draw(ui_screen *s, const kg_group *g, ui_rect r)
{
	ui_lines lc = { s, r, 0 };
	int64_t t = screen_view_time(s);
	kg_hview *v = history_view(s->hist, g->id, t, t);
	/* scrubbed back: the history's sample then (NULL live, or before the history) */
	const kg_sample *smp = screen_scrubbed(s) ? hview_sample_at(v, t) : NULL;
	char a[32], b[32];
	int y, i, bar = r.w >= 120 ? 20 : 8, gw = bar + 2 + 1 + 12, nthen = 0;
	bool have = any_health(g);
	const char *src = NULL;

	for (i = 0; smp != NULL && i < smp->nlanes; i++)
		nthen += smp->lane_status[i] != KG_LANE_ABSENT;

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
	if (screen_scrubbed(s) && (y = screen_line(&lc)) >= 0) {
		char d[32];
		util_fmt_duration(d, sizeof d, s->offset_us);
		if (smp != NULL)
			text_putf(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_PAUSED],
				  " at -%s: the members then, from the history; heartbeat and poll gauges exist live only ", d);
		else
			text_putf(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_PAUSED],
				  " the history does not reach -%s: live values ", d);
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
	if (smp != NULL) {
		past_rows(s, g, v, smp, &lc, gw);
	} else {
		for (i = 0; i < g->nmembers; i++)
			member_row(s, v, &g->members[i], &lc, bar, gw);
		/* lanes that left */
		for (i = 0; i < v->nlanes; i++) {
			const kg_lane *l = &v->lanes[i];
			if (l->present || l->last_leave == KG_REASON_NONE)
				continue;
			gone_row(s, &lc, l, l->last_leave, l->leave_text);
		}
	}
	if ((smp != NULL ? nthen : g->nmembers) == 0 && (y = screen_line(&lc)) >= 0)
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], "no members", 0);
	s->view_rows = lc.line;
	hview_free(v);
}

const ui_pane view_health_pane = {
	.name = "health",
	.keys = "",
	.draw = view_health_draw,
};

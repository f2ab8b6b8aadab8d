/*
 * view_events.c: the group's events, newest first by their own time, in the seeds' words
 * (event_format_line), coloured by kind.  Times are the clock's, as in
 * logs and alerts (the demo's count from kgtop's first snapshot); w turns
 * them the other way.  Paused or scrubbing, events after the shown time
 * are hidden: the history goes on filling under a paused screen, and its
 * events must not run ahead of the grid and timeline that stand still.  Durations and costs keep their precision as
 * the model wrote them ("≤1.0s", "≥2 rounds"; "<=", ">=" in ASCII).
 * Shown alone (Enter), it can be searched (/, n, N): the match is marked
 * in its line.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

#define MAX_EVENTS 2000

/* The events view's state (its pane's). */
typedef struct ui_events {
	bool wall_clock; /* w: clock times, not since kgtop's start */
} ui_events;
#define LATE_SLACK 64 /* events fetched beyond the screen, to place late ones by their time */

/* Theme element of an event. */
static ui_element
event_el(const kg_event *e)
{
	switch (e->kind) {
	case KG_EV_REVOKED:
		return e->cls == KG_CLASS_FULL ? UI_EL_EV_FULL : UI_EL_EV_INCR;
	case KG_EV_ASSIGNED:
		return UI_EL_EV_ASSIGN;
	case KG_EV_MEMBER_JOINED:
	case KG_EV_MEMBER_LEFT:
	case KG_EV_MEMBER_AWAY:
	case KG_EV_MEMBER_BACK:
		return UI_EL_EV_MEMBER;
	case KG_EV_REBALANCE_START:
	case KG_EV_ROUND:
	case KG_EV_REBALANCE_END:
		return UI_EL_EV_REBAL;
	case KG_EV_LOST:
	case KG_EV_MEMBER_SILENT:
	case KG_EV_ORPHANED:
	case KG_EV_STORM_BEGIN:
	case KG_EV_SOURCE:
		return UI_EL_EV_ALERT;
	case KG_EV_VERDICT:
		return e->verdict == KG_VERDICT_OK ? UI_EL_VERDICT_OK
		     : e->verdict == KG_VERDICT_SLOW || e->verdict == KG_VERDICT_REWIND ? UI_EL_VERDICT_WARN
		     : UI_EL_VERDICT_BAD;
	default:
		return UI_EL_NORMAL;
	}
}

/*
 * Newest first by the time each event happened, not the order kgtop learnt
 * them (stable: events of the same time keep their order).  Insertion sort:
 * the list is nearly sorted already.
 */
static void
sort_newest_first(kg_event **ev, int n)
{
	int i, j;
	for (i = 1; i < n; i++) {
		kg_event *e = ev[i];
		for (j = i; j > 0 && ev[j - 1]->time_us < e->time_us; j--)
			ev[j] = ev[j - 1];
		ev[j] = e;
	}
}

/* In ASCII, the model's bound signs as two characters ("≤" is "<=", "≥" is ">="). */
static void
ascii_bounds(sbuf *b)
{
	static const char *const from[2] = { "\u2264", "\u2265" }, *const to[2] = { "<=", ">=" };
	char *p;
	int k;
	for (k = 0; k < 2; k++) {
		/* both are three bytes in UTF-8 and two in ASCII: replace in place */
		while ((p = strstr(b->s, from[k])) != NULL) {
			memcpy(p, to[k], 2);
			memmove(p + 2, p + 3, strlen(p + 3) + 1);
			b->len--;
		}
	}
}

/*
 * The group's events as the view lists them, newest first, up to want
 * (references the caller drops), none after the shown time (paused or scrubbed); returns
 * how many, and in *fetched how many the history gave.
 */
static int
events_list(ui_screen *s, const kg_group *g, kg_event **ev, int want, int *fetched)
{
	int64_t limit = s->paused || s->offset_us > 0 ? screen_view_time(s) : INT64_MAX;
	int n = history_events(s->hist, g->id, 0, ev, want), i, k = 0;
	sort_newest_first(ev, n);
	*fetched = n;
	for (i = 0; i < n; i++) {
		if (ev[i]->time_us > limit)
			event_unref(ev[i]);
		else
			ev[k++] = ev[i];
	}
	return k;
}

/* The first line at or after from (dir > 0), at or before it (dir < 0), whose event holds needle. */
static int
view_events_search(ui_screen *s, void *st, const kg_group *g, const char *needle, int from, int dir)
{
	static kg_event *ev[MAX_EVENTS];
	int fetched, n = events_list(s, g, ev, MAX_EVENTS, &fetched), i, hit = -1;
	sbuf b = { 0 };
	(void)st;
	for (i = KG_MAX(0, KG_MIN(from, n - 1)); n > 0 && i >= 0 && i < n && hit < 0; i += dir > 0 ? 1 : -1) {
		sbuf_reset(&b);
		event_format(ev[i], &b);
		if (s->ascii && b.s != NULL)
			ascii_bounds(&b); /* the line as shown */
		if (screen_match(sbuf_str(&b), needle) != NULL)
			hit = i;
	}
	for (i = 0; i < n; i++)
		event_unref(ev[i]);
	sbuf_free(&b);
	return hit;
}

/* Draw the events view. */
static void
view_events_draw(ui_screen *s, void *st, const kg_group *g, ui_rect r)
{
	const ui_events *ev_st = st;
	kg_event *ev[MAX_EVENTS];
	int want = s->scroll + r.h + 1, n, i, shown = 0, y, fetched;
	ui_lines lc = { s, r, 0 };
	sbuf b = { 0 };
	const char *mark = s->search_in_view ? s->search : NULL;
	/* a few more than fit: an event learnt late (a join known once its member id is) sorts lower */
	want += LATE_SLACK;
	if (want > MAX_EVENTS)
		want = MAX_EVENTS;
	n = events_list(s, g, ev, want, &fetched);
	for (i = 0; i < n; i++) {
		const kg_event *e = ev[i];
		int x;
		shown++;
		if ((y = screen_line(&lc)) < 0)
			continue;
		sbuf_reset(&b);
		if (ev_st->wall_clock) {
			time_t t = (time_t)(e->time_us / 1000000);
			struct tm tm;
			char c[32];
			localtime_r(&t, &tm);
			strftime(c, sizeof c, "%H:%M:%S", &tm);
			sbuf_addf(&b, "[%s.%03d] ", c, (int)(e->time_us / 1000 % 1000));
		} else {
			event_format_line(e, s->t0_us, &b);
			b.len = (size_t)(strchr(b.s, ']') - b.s) + 2;
			b.s[b.len] = '\0';
		}
		x = r.x + 1;
		x += text_put(s, y, x, r.w - 2, s->attr[UI_EL_EV_TIME], sbuf_str(&b), 0);
		sbuf_reset(&b);
		event_format(e, &b);
		if (s->ascii && b.s != NULL)
			ascii_bounds(&b);
		text_put_match(s, y, x, r.x + r.w - x - 1, s->attr[event_el(e)], sbuf_str(&b), mark, TEXT_ELLIPSIS);
	}
	if (shown == 0 && (y = screen_line(&lc)) >= 0)
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], "no events for this group yet", 0);
	s->view_rows = lc.line + (fetched == want ? r.h : 0);
	for (i = 0; i < n; i++)
		event_unref(ev[i]);
	sbuf_free(&b);
}

/* The events' state: clock times, as logs and alerts have them; the demo's since kgtop's start. */
static void *
view_events_init(const ui_screen *s)
{
	ui_events *ev = xcalloc(1, sizeof *ev);
	ev->wall_clock = !(s->info != NULL && s->info->demo);
	return ev;
}

/* w: clock times, or since kgtop's start. */
static void
events_clock(ui_screen *s, void *st, int key, ui_action *a)
{
	ui_events *ev = st;
	(void)s;
	(void)key;
	(void)a;
	ev->wall_clock = !ev->wall_clock;
}

/* The events' footer hint. */
static int
view_events_hints(const ui_screen *s, const void *st, ui_hint *h, int max)
{
	const ui_events *ev = st;
	(void)s;
	return screen_hint(h, 0, max, "w", ev->wall_clock ? "relative" : "clock", 2);
}

static const ui_pane_key view_events_keys[] = {
	{ { 'w' }, events_clock, "w", "events: clock / relative times" },
	{ { 0 }, NULL, NULL, NULL },
};

const ui_pane view_events_pane = {
	.name = "events",
	.key = 'e',
	.init = view_events_init,
	.free = free,
	.draw = view_events_draw,
	.keys = view_events_keys,
	.hints = view_events_hints,
	.search = view_events_search,
};

/*
 * view_health.c: is each member alive and polling?
 *
 * Two gauges per member: heartbeat age against session.timeout.ms and the
 * time since the last poll against max.poll.interval.ms, ok below half,
 * warn below 80%, critical above; wide, the longest gap between polls.
 * Past a limit the status says it in words ("heartbeat late", "poll
 * late"), so that it shows without colour too.  Whatever does not fit on
 * a member's line (static id, why its lane last left) goes whole on a
 * line under it, cut with an ellipsis only when even that is too short.
 * The limits say where they came from (Kafka's default, kgtop's config, a
 * trace).  Below the members present, the lanes that left, with why, and
 * a key of the statuses shown that a word alone does not explain.  Where
 * no source reports heartbeats or polls the pane says what would, for the
 * case at hand: the demo's own consumers, the --trace streams given, a
 * recording.  Scrubbed back, the members and the departures are those of
 * the view time (the history's sample then, and the leave events before
 * it); the gauges, which the history does not keep, say so instead of
 * showing the live values as if they were then.
 *
 * A member that stopped consuming before the coordinator decided (a trace
 * said it crashed or stopped polling, its heartbeats stopped coming) is
 * "silent", and says since when and why.  Under the limits, where the
 * settings are known, the lints (model/lint.h): heartbeat interval against
 * session.timeout.ms, session.timeout.ms against the broker's bounds, poll
 * gaps approaching max.poll.interval.ms.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/lint.h"
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

/* Where the columns go in a pane of a given width. */
typedef struct hcols {
	int bar;         /* gauge cells */
	int gw;          /* a gauge with its value */
	int hb, poll;    /* gauge columns */
	int gap;         /* the longest poll gap, -1 when too narrow */
	int status;      /* the status column */
} hcols;

/* Column positions for the rect r. */
static void
health_cols(ui_rect r, hcols *c)
{
	c->bar = r.w >= 120 ? 16 : r.w >= 100 ? 10 : 6;
	c->gw = c->bar + 2 + 1 + 12;
	c->hb = r.x + 19;
	c->poll = c->hb + c->gw + 1;
	c->gap = r.w >= 120 ? c->poll + c->gw + 1 : -1;
	c->status = c->gap >= 0 ? c->gap + 18 : c->poll + c->gw + 1;
}

/* Liveness past a limit, in words: heartbeat first (the coordinator acts on it), NULL when none. */
static const char *
health_late(const kg_member_health *h)
{
	if (h->hb_age_us >= 0 && h->session_timeout_us > 0 && h->hb_age_us > h->session_timeout_us)
		return "heartbeat late";
	if (h->poll_gap_us >= 0 && h->max_poll_us > 0 && h->poll_gap_us > h->max_poll_us)
		return "poll late";
	return NULL;
}

/* A member status in words. */
static const char *
status_word(kg_member_status st)
{
	return st == KG_MEMBER_PARTIAL ? "partly stopped" : member_status_name(st);
}

/* Theme element of a member status. */
static ui_element
status_el(kg_member_status st)
{
	return st == KG_MEMBER_STOPPED || st == KG_MEMBER_SILENT ? UI_EL_STOPPED
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

/* The statuses the key explains (a bit each), and which the pane shows. */
enum {
	KEY_HB_LATE = 1 << 0,
	KEY_POLL_LATE = 1 << 1,
	KEY_STOPPED = 1 << 2,
	KEY_PARTIAL = 1 << 3,
	KEY_IDLE = 1 << 4,
	KEY_AWAY = 1 << 5,
	KEY_SILENT = 1 << 6,
	KEY_FROZEN = 1 << 7,
};

/*
 * A member said to consume (or silent only because its commits froze)
 * whose partitions do not progress: STALLED or STOPPED (the worst of its
 * partitions' verdicts), NULL when it is not.
 */
static const char *
frozen_word(const kg_member *m)
{
	/* the tracker's own silence from frozen commits: the verdict says it better */
	bool frozen_silent = m->status == KG_MEMBER_SILENT && m->silent_why != NULL &&
			     strncmp(m->silent_why, "commits overdue", 15) == 0;
	if (m->status != KG_MEMBER_CONSUMING && m->status != KG_MEMBER_PARTIAL && !frozen_silent)
		return NULL;
	return m->verdict == KG_VERDICT_STALLED || m->verdict == KG_VERDICT_STOPPED ? verdict_name((kg_verdict)m->verdict)
										      : NULL;
}

/*
 * The member's progress in words, when its partitions do not all keep
 * up: "STALLED since 22:13:26 on [0 3]" (the earliest since of its worst
 * partitions), "SLOW on [2]"; "" when they do.
 */
static void
progress_text(const kg_group *g, const kg_member *m, char *buf, size_t n)
{
	sbuf b = { 0 };
	const kg_gpart *first = NULL;
	int i, np = 0;
	buf[0] = '\0';
	if (m->verdict < KG_VERDICT_PENDING || m->verdict >= KG_VERDICT_COUNT)
		return;
	for (i = 0; i < g->nparts; i++) {
		const kg_gpart *p = &g->parts[i];
		if (p->owner < 0 || &g->members[p->owner] != m || p->verdict != m->verdict)
			continue;
		if (p->verdict_since_us > 0 && (first == NULL || p->verdict_since_us < first->verdict_since_us))
			first = p;
		sbuf_addf(&b, "%s%d", np++ ? " " : "", (int)p->tp.partition);
	}
	if (m->verdict == KG_VERDICT_PENDING) {
		snprintf(buf, n, "not judged yet on [%s]", sbuf_str(&b));
	} else if (first != NULL && (m->verdict == KG_VERDICT_STALLED || m->verdict == KG_VERDICT_STOPPED)) {
		char c[48];
		since_fmt(c, sizeof c, (kg_since_kind)first->since_kind, first->verdict_since_lo_us, first->verdict_since_us,
			  false);
		snprintf(buf, n, "%s since %s on [%s]", verdict_name((kg_verdict)m->verdict), c, sbuf_str(&b));
	} else {
		snprintf(buf, n, "%s on [%s]", verdict_name((kg_verdict)m->verdict), sbuf_str(&b));
	}
	sbuf_free(&b);
}

/* The key bit of a status word (0: "consuming" needs none). */
static unsigned
status_bit(kg_member_status st)
{
	switch (st) {
	case KG_MEMBER_STOPPED: return KEY_STOPPED;
	case KG_MEMBER_PARTIAL: return KEY_PARTIAL;
	case KG_MEMBER_IDLE: return KEY_IDLE;
	case KG_MEMBER_AWAY: return KEY_AWAY;
	case KG_MEMBER_SILENT: return KEY_SILENT;
	default: return 0;
	}
}

/* The key bit of a member's status shown: late, frozen, or its status word's. */
static unsigned
key_bit(const char *late, const kg_member *m)
{
	if (late != NULL)
		return strcmp(late, "poll late") == 0 ? KEY_POLL_LATE : KEY_HB_LATE;
	return frozen_word(m) != NULL ? KEY_FROZEN : status_bit(m->status);
}

/*
 * Shorten text to maxw columns at a word boundary, with an ellipsis
 * ("...(4000 ms): the consumer…" rather than "(4000 m…"); a text with no
 * blank early enough is left for text_put to cut.
 */
static void
fit_words(const ui_screen *s, char *text, size_t size, int maxw)
{
	size_t cut;
	const char *dots = glyph_get(G_ELLIPSIS, s->ascii);
	if (text_width(s, text) <= maxw)
		return;
	cut = text_cut_at(s, text, " ", maxw - text_width(s, dots));
	if (cut == 0)
		return;
	/* no dangling opener or separator before the ellipsis */
	while (cut > 0 && strchr(" (:,;", text[cut - 1]) != NULL)
		cut--;
	if (cut == 0 || cut + strlen(dots) + 1 > size)
		return;
	memcpy(text + cut, dots, strlen(dots) + 1);
}

/*
 * What follows the status: the static id and why the lane last left.
 * Drawn at x on the member's line y when it fits whole, else on a line of
 * its own at x2 (under the gauges), cut with an ellipsis only there.
 */
static void
member_extra(ui_screen *s, ui_lines *lc, int y, int x, int x2, const char *inst, kg_reason why, const char *text,
	     const char *silent)
{
	ui_rect r = lc->r;
	char st[256] = "", left[512] = "";
	int end = r.x + r.w - 1, w;
	if (silent != NULL)
		snprintf(st, sizeof st, "%s%s%s", silent, inst != NULL ? "  static:" : "", inst != NULL ? inst : "");
	else if (inst != NULL)
		snprintf(st, sizeof st, "static:%s", inst);
	if (why != KG_REASON_NONE)
		snprintf(left, sizeof left, "last left: %s%s%s%s", reason_name(why), text != NULL ? " (" : "",
			 text != NULL ? text : "", text != NULL ? ")" : "");
	if (st[0] == '\0' && left[0] == '\0')
		return;
	w = text_width(s, st) + (st[0] && left[0] ? 2 : 0) + text_width(s, left);
	if (w > end - x) {
		y = screen_line(lc);
		x = x2;
	}
	if (y < 0)
		return; /* scrolled out */
	if (st[0] != '\0')
		x += text_put(s, y, x, end - x, s->attr[UI_EL_STATIC], st, TEXT_ELLIPSIS) + 2;
	if (left[0] != '\0' && x < end) {
		fit_words(s, left, sizeof left, end - x);
		text_put(s, y, x, end - x, s->attr[UI_EL_DIM], left, TEXT_ELLIPSIS);
	}
}

/* One member present now: letter, client id, the two gauges, the longest poll gap, status, the rest. */
static unsigned
member_row(ui_screen *s, const kg_group *g, const kg_hview *v, const kg_member *m, ui_lines *lc, const hcols *c)
{
	ui_rect r = lc->r;
	const kg_lane *l = hview_lane(v, m->lane);
	const char *late = health_late(&m->health), *frozen = frozen_word(m);
	const char *word = late != NULL ? late : frozen != NULL ? frozen : status_word(m->status);
	ui_element wel = late != NULL ? UI_EL_GAUGE_CRIT : frozen != NULL ? UI_EL_VERDICT_BAD : status_el(m->status);
	char letter[2] = { l ? l->letter : '?', 0 }, prog[192];
	int y = screen_line(lc), sw = KG_MIN(text_width(s, word), r.x + r.w - 1 - c->status);
	if (y >= 0) {
		text_put(s, y, r.x + 1, 1, s->attr[screen_owner_el(m->lane)], letter, 0);
		text_put(s, y, r.x + 3, 15, s->attr[UI_EL_NORMAL], m->client_id, TEXT_ELLIPSIS);
		gauge(s, y, c->hb, c->bar, m->health.hb_age_us, m->health.session_timeout_us);
		gauge(s, y, c->poll, c->bar, m->health.poll_gap_us, m->health.max_poll_us);
		if (c->gap >= 0) {
			char mx[32];
			if (m->health.poll_gap_max_us > 0)
				util_fmt_duration(mx, sizeof mx, m->health.poll_gap_max_us);
			text_put(s, y, c->gap, 16, s->attr[m->health.poll_gap_max_us > 0 ? UI_EL_NORMAL : UI_EL_DIM],
				 m->health.poll_gap_max_us > 0 ? mx : "n/a", 0);
		}
		text_put(s, y, c->status, r.x + r.w - 1 - c->status, s->attr[wel], word, TEXT_ELLIPSIS);
	}
	/* its partitions' progress: "STALLED since 22:13:26 on [0 3]" */
	progress_text(g, m, prog, sizeof prog);
	if (frozen != NULL && strncmp(prog, frozen, strlen(frozen)) == 0)
		memmove(prog, prog + strlen(frozen) + 1, strlen(prog + strlen(frozen) + 1) + 1); /* the word says it */
	if (m->status == KG_MEMBER_SILENT && m->silent_since_us > 0 && frozen == NULL) {
		/* since when, and what said so: "since 3.2s ago (crashed)" */
		char d[32], sil[384];
		util_fmt_duration(d, sizeof d, s->snap != NULL && s->snap->time_us > m->silent_since_us
							? s->snap->time_us - m->silent_since_us : 0);
		snprintf(sil, sizeof sil, "since %s ago%s%s%s%s%s", d, m->silent_why ? " (" : "", m->silent_why ? m->silent_why : "",
			 m->silent_why ? ")" : "", prog[0] ? "; " : "", prog);
		member_extra(s, lc, y, c->status + sw + 2, c->hb, m->instance_id, m->last_leave,
			     l != NULL && m->last_leave != KG_REASON_NONE ? l->leave_text : NULL, sil);
	} else {
		member_extra(s, lc, y, c->status + sw + 2, c->hb, m->instance_id, m->last_leave,
			     l != NULL && m->last_leave != KG_REASON_NONE ? l->leave_text : NULL, prog[0] ? prog : NULL);
	}
	return key_bit(late, m);
}

/* A lane that left: letter, client id, "left: reason (text)". */
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
	snprintf(line, sizeof line, "left: %s%s%s%s", reason_name(why), text ? " (" : "", text ? text : "", text ? ")" : "");
	fit_words(s, line, sizeof line, r.w - 20);
	text_put(s, y, r.x + 19, r.w - 20,
		 s->attr[why == KG_REASON_MAX_POLL || why == KG_REASON_SESSION_TIMEOUT ? UI_EL_EV_ALERT : UI_EL_DIM], line,
		 TEXT_ELLIPSIS);
}

/*
 * Scrubbed back: the lanes that were members at the view time (status
 * from the sample, gauges marked live only), then those that had left
 * by then, with the reason of their last leave before it.
 */
static unsigned
past_rows(ui_screen *s, const kg_group *g, const kg_hview *v, const kg_sample *smp, ui_lines *lc, const hcols *c)
{
	ui_rect r = lc->r;
	int64_t t = screen_view_time(s);
	kg_event *ev[PAST_EVENTS];
	int nev = 0, i, k, y;
	unsigned keys = 0;
	for (i = 0; i < v->nlanes && i < smp->nlanes; i++) {
		const kg_lane *l = &v->lanes[i];
		kg_member_status st = (kg_member_status)smp->lane_status[i];
		char letter[2] = { l->letter, 0 };
		int x = c->status + KG_MIN(text_width(s, status_word(st)), r.x + r.w - 1 - c->status);
		if (smp->lane_status[i] == KG_LANE_ABSENT)
			continue;
		keys |= status_bit(st);
		if ((y = screen_line(lc)) >= 0) {
			text_put(s, y, r.x + 1, 1, s->attr[screen_owner_el(i)], letter, 0);
			text_put(s, y, r.x + 3, 15, s->attr[UI_EL_NORMAL], l->client_id, TEXT_ELLIPSIS);
			text_put(s, y, c->hb, c->gw, s->attr[UI_EL_DIM], "(live only)", 0);
			text_put(s, y, c->poll, c->gw, s->attr[UI_EL_DIM], "(live only)", 0);
			if (c->gap >= 0)
				text_put(s, y, c->gap, 16, s->attr[UI_EL_DIM], "(live only)", 0);
			text_put(s, y, c->status, r.x + r.w - 1 - c->status, s->attr[status_el(st)], status_word(st),
				 TEXT_ELLIPSIS);
		}
		member_extra(s, lc, y, x + 2, c->hb, l->instance_id, KG_REASON_NONE, NULL, NULL);
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
	return keys;
}

/* The key: one line for each status shown that its word alone does not explain. */
static void
draw_key(ui_screen *s, ui_lines *lc, unsigned keys)
{
	static const struct {
		unsigned bit;
		ui_element el;
		const char *word, *text;
	} k[] = {
		{ KEY_HB_LATE, UI_EL_GAUGE_CRIT, "heartbeat late",
		  "none within session.timeout.ms; it is evicted unless rejoining" },
		{ KEY_POLL_LATE, UI_EL_GAUGE_CRIT, "poll late", "no poll within max.poll.interval.ms; the client leaves the group" },
		{ KEY_STOPPED, UI_EL_STOPPED, "stopped", "owns nothing until the rebalance in progress ends" },
		{ KEY_PARTIAL, UI_EL_PARTIAL, "partly stopped", "gave up some partitions to the rebalance, consumes the rest" },
		{ KEY_IDLE, UI_EL_IDLE, "idle", "owns no partitions though the group is stable" },
		{ KEY_AWAY, UI_EL_IDLE, "away", "static member gone; keeps its partitions if back in session.timeout.ms" },
		{ KEY_SILENT, UI_EL_STOPPED, "silent",
		  "stopped consuming (crashed, stalled, no heartbeat); its partitions wait until the coordinator decides" },
		{ KEY_FROZEN, UI_EL_VERDICT_BAD, "STALLED, STOPPED",
		  "its partitions' committed offsets froze with lag (for a tenth of --lag-window; STOPPED: all of it)" },
	};
	ui_rect r = lc->r;
	size_t i;
	int y;
	if (keys == 0)
		return;
	screen_line(lc);
	for (i = 0; i < KG_ARRAY_LEN(k); i++) {
		int w;
		if (!(keys & k[i].bit) || (y = screen_line(lc)) < 0)
			continue;
		w = text_put(s, y, r.x + 1, r.w - 2, s->attr[k[i].el], k[i].word, 0);
		text_put(s, y, r.x + 1 + w, r.w - 2 - w, s->attr[UI_EL_DIM], ": ", 0);
		text_put(s, y, r.x + 3 + w, r.w - 4 - w, s->attr[UI_EL_DIM], k[i].text, TEXT_ELLIPSIS);
	}
}

/* Whether a --trace of this kind was given ("jolokia", "jsonl"). */
static bool
have_trace(const ui_screen *s, const char *kind)
{
	size_t i, n = strlen(kind);
	for (i = 0; s->opts != NULL && i < s->opts->traces.n; i++) {
		const char *t = s->opts->traces.v[i];
		if (strncasecmp(t, kind, n) == 0 && t[n] == ':')
			return true;
	}
	return false;
}

/* With no heartbeat or poll data: what would provide it, for the case at hand. */
static void
draw_hint(ui_screen *s, const kg_group *g, ui_lines *lc)
{
	ui_rect r = lc->r;
	const char *dash = glyph_get(G_DASH, s->ascii);
	bool jolokia = have_trace(s, "jolokia"), jsonl = have_trace(s, "jsonl"), own = false;
	char l1[256], l2[256] = "";
	int i, y;
	/* the demo's own consumers: every group of the embedded demo, the groups whose callbacks it reports on a cluster */
	if (s->info != NULL && s->info->demo) {
		own = s->opts == NULL || s->opts->brokers == NULL;
		for (i = 0; i < g->nmembers && !own; i++)
			own = (g->members[i].flags & KG_MEMBER_EXACT) != 0;
	}
	if (s->info != NULL && s->info->replay) {
		snprintf(l1, sizeof l1, "heartbeats and poll gaps: none in this recording for this group");
		snprintf(l2, sizeof l2, "recorded when kgtop ran the demo, or a --trace jolokia or jsonl stream");
	} else if (own) {
		snprintf(l1, sizeof l1, "heartbeats and poll gaps: none yet %s the demo's consumers report them", dash);
	} else if (jolokia || jsonl) {
		snprintf(l1, sizeof l1, "heartbeats and poll gaps: none yet for this group's members");
		snprintf(l2, sizeof l2, "the --trace %s stream%s match%s members by client id", jolokia && jsonl ? "jolokia and jsonl"
			 : jolokia ? "jolokia" : "jsonl", jolokia && jsonl ? "s" : "", jolokia && jsonl ? "" : "es");
	} else {
		snprintf(l1, sizeof l1, "heartbeats and poll gaps: none %s Kafka's admin API does not report them", dash);
		snprintf(l2, sizeof l2, "add --trace jolokia:URL (Java consumers, via Jolokia) or --trace jsonl:URL");
	}
	if ((y = screen_line(lc)) >= 0)
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_STATUS_INFO], l1, TEXT_ELLIPSIS);
	if (l2[0] != '\0' && (y = screen_line(lc)) >= 0)
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], l2, TEXT_ELLIPSIS);
}

/* Where a limit came from: a word for one, a phrase for both. */
static const char *
limit_word(kg_limit_src src, bool both)
{
	if (src == KG_LIMIT_TRACE)
		return both ? "both from a trace" : "trace";
	if (src == KG_LIMIT_CONFIG)
		return both ? "both kgtop's settings" : "config";
	return both ? "both Kafka's defaults" : "default";
}

/* The limits the gauges measure against, where they came from, and the source of the gauges when it fits. */
static void
draw_limits(ui_screen *s, const kg_group *g, ui_lines *lc)
{
	ui_rect r = lc->r;
	const char *src = NULL;
	char a[32], b[32], from[128];
	int i, x = r.x + 1, y, end = r.x + r.w - 1;
	for (i = 0; i < g->nmembers && src == NULL; i++)
		src = g->members[i].health.health_source;
	if ((y = screen_line(lc)) < 0)
		return;
	util_fmt_duration(a, sizeof a, g->sum.session_timeout_us);
	util_fmt_duration(b, sizeof b, g->sum.max_poll_us);
	if (g->proto == KG_PROTO_CONSUMER) {
		/* KIP-848: the broker sets the session and the heartbeat interval, the client only max.poll.interval.ms */
		x += text_putf(s, y, x, end - x, s->attr[UI_EL_NORMAL], "session %s ", a);
		x += text_putf(s, y, x, end - x, s->attr[UI_EL_DIM], "(%s) ",
			       g->sum.session_src == KG_LIMIT_DEFAULT ? "the broker's default: group.consumer.session.timeout.ms"
								      : limit_word(g->sum.session_src, false));
		x += text_putf(s, y, x, end - x, s->attr[UI_EL_NORMAL], " max.poll.interval.ms %s ", b);
		x += text_putf(s, y, x, end - x, s->attr[UI_EL_DIM], "(%s)", limit_word(g->sum.max_poll_src, false));
		if ((y = screen_line(lc)) >= 0)
			text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM],
				 "heartbeat interval set by the broker (group.consumer.heartbeat.interval.ms, 5s by default)",
				 TEXT_ELLIPSIS);
		return;
	}
	x += text_putf(s, y, x, end - x, s->attr[UI_EL_NORMAL], "session.timeout.ms %s ", a);
	if (g->sum.session_src != g->sum.max_poll_src)
		x += text_putf(s, y, x, end - x, s->attr[UI_EL_DIM], "(%s) ", limit_word(g->sum.session_src, false));
	x += text_putf(s, y, x, end - x, s->attr[UI_EL_NORMAL], " max.poll.interval.ms %s ", b);
	x += text_putf(s, y, x, end - x, s->attr[UI_EL_DIM], "(%s)",
		       limit_word(g->sum.max_poll_src, g->sum.session_src == g->sum.max_poll_src));
	if (src != NULL) {
		snprintf(from, sizeof from, "  via %s", src);
		if (text_width(s, from) <= end - x)
			text_put(s, y, x, end - x, s->attr[UI_EL_DIM], from, 0);
	}
}

/* The lints of the group's settings, one line each (none when nothing is known). */
static void
draw_lints(ui_screen *s, const kg_group *g, ui_lines *lc)
{
	static const ui_element el[KG_LINT_LEVEL_COUNT] = { UI_EL_DIM, UI_EL_GAUGE_WARN, UI_EL_GAUGE_CRIT };
	static const char *const word[KG_LINT_LEVEL_COUNT] = { "ok", "check", "bad" };
	kg_lint lint[8];
	ui_rect r = lc->r;
	int n = group_lints(g, lint, 8), i, y, w;
	for (i = 0; i < n; i++) {
		if ((y = screen_line(lc)) < 0)
			continue;
		w = text_putf(s, y, r.x + 1, r.w - 2, s->attr[el[lint[i].level]], "%s: ", word[lint[i].level]);
		text_put(s, y, r.x + 1 + w, r.w - 2 - w, s->attr[lint[i].level == KG_LINT_OK ? UI_EL_DIM : UI_EL_NORMAL],
			 lint[i].text, TEXT_ELLIPSIS);
	}
}

/* Commit semantics, where a source counts them (the demo's commits scenario): records processed twice. */
static void
draw_reprocessed(ui_screen *s, const kg_group *g, ui_lines *lc)
{
	ui_rect r = lc->r;
	int y;
	if (g->commit_policy == NULL || (y = screen_line(lc)) < 0)
		return;
	text_putf(s, y, r.x + 1, r.w - 2, s->attr[g->reprocessed > 0 ? UI_EL_GAUGE_WARN : UI_EL_DIM],
		  "processed twice: %lld record%s (%s): a new owner resumes from the last committed offset",
		  (long long)g->reprocessed, g->reprocessed == 1 ? "" : "s", g->commit_policy);
}

/* Draw the health view. */
static void
view_health_draw(ui_screen *s, void *st, const kg_group *g, ui_rect r)
{
	ui_lines lc = { s, r, 0 };
	int64_t t = screen_view_time(s);
	kg_hview *v = history_view(s->hist, g->id, t, t);
	/* scrubbed back: the history's sample then (NULL live, or before the history) */
	const kg_sample *smp = screen_scrubbed(s) ? hview_sample_at(v, t) : NULL;
	hcols c;
	int y, i, nthen = 0;
	unsigned keys = 0;

	(void)st;
	health_cols(r, &c);
	for (i = 0; smp != NULL && i < smp->nlanes; i++)
		nthen += smp->lane_status[i] != KG_LANE_ABSENT;

	draw_limits(s, g, &lc);
	if (!screen_scrubbed(s)) {
		draw_reprocessed(s, g, &lc);
		draw_lints(s, g, &lc);
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
	if (!any_health(g))
		draw_hint(s, g, &lc);
	screen_line(&lc);
	if ((y = screen_line(&lc)) >= 0) {
		text_put(s, y, r.x + 1, 17, s->attr[UI_EL_COLUMN], "member", 0);
		text_put(s, y, c.hb, c.gw, s->attr[UI_EL_COLUMN], "heartbeat age", 0);
		text_put(s, y, c.poll, c.gw, s->attr[UI_EL_COLUMN], "since last poll", 0);
		if (c.gap >= 0)
			text_put(s, y, c.gap, 16, s->attr[UI_EL_COLUMN], "longest poll gap", 0);
		text_put(s, y, c.status, r.x + r.w - 1 - c.status, s->attr[UI_EL_COLUMN], "status", 0);
	}
	if (smp != NULL) {
		keys |= past_rows(s, g, v, smp, &lc, &c);
	} else {
		/* in lane order, so that letters read A, B, C as in the grid and the timeline */
		int *order = xcalloc((size_t)g->nmembers + 1, sizeof *order), k;
		for (i = 0; i < g->nmembers; i++) {
			for (k = i; k > 0 && g->members[order[k - 1]].lane > g->members[i].lane; k--)
				order[k] = order[k - 1];
			order[k] = i;
		}
		for (i = 0; i < g->nmembers; i++)
			keys |= member_row(s, g, v, &g->members[order[i]], &lc, &c);
		free(order);
		/* lanes that left */
		for (i = 0; i < v->nlanes; i++) {
			const kg_lane *l = &v->lanes[i];
			bool used = false;
			for (k = 0; k < g->nmembers && !used; k++)
				used = g->members[k].lane == i; /* a member present on it now */
			if (l->present || used || l->last_leave == KG_REASON_NONE)
				continue;
			gone_row(s, &lc, l, l->last_leave, l->leave_text);
		}
	}
	if ((smp != NULL ? nthen : g->nmembers) == 0 && (y = screen_line(&lc)) >= 0)
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], "no members", 0);
	draw_key(s, &lc, keys);
	s->view_rows = lc.line;
	hview_free(v);
}

const ui_pane view_health_pane = {
	.name = "health",
	.key = 'h',
	.draw = view_health_draw,
};

/*
 * view_timeline.c: what each member (or partition) did over time.
 *
 * The window ends at the view time (now, or scrolled / scrubbed back) and
 * spans one column per scale step.  A column shows the strongest status
 * seen during its interval, so a rebalance shorter than a column still
 * shows: stopped beats partly stopped beats away beats consuming beats
 * idle; a lane absent for the whole interval is blank.  Glyphs: consuming
 * (solid, in the member's colour), partly stopped, stopped, absent blank;
 * per partition, the owner's colour, and the owner's letter where
 * ownership changes so the picture reads without colour.
 *
 * Layout, top to bottom: the time axis, one line per episode in the
 * window (start, protocol, rounds (exact, or "≥" when polling may have
 * missed a generation), duration (measured, or bounded by two refreshes),
 * generation, trigger, the model's "N of M stopped": members that were
 * consuming when it began, stayed and stopped, and what it cost: their
 * member-seconds, and the partition-seconds of partitions without a
 * consuming owner), a marker row (episodes, and the partitions' verdict
 * changes where they happened: "=" STALLED or STOPPED, "*" LOST, "?" SLOW
 * or REWIND, "+" progress again), the lanes, the legend.  A silent
 * member (crashed, stalled: the coordinator has not decided yet) is drawn
 * stopped.  The axis, the
 * episode lines, the marker row and the legend stay put; only the lanes
 * scroll (PgUp / PgDn), clipped to the rows between, and the legend says
 * which of them show.  Per partition, every partition of the group's
 * topics has a lane, under its topic's heading as in the grid; the heading
 * of the topic at the top stays while its partitions scroll.  Beside the
 * lanes (wide panes) a note on what the last episode did to each member
 * (it left and why, what it kept, gave and got), shortened to fit: ranges,
 * then compact words, then counts, then cut after a word with an ellipsis.
 *
 * Episodes carry the number the model gave them (1, 2, 3... per group
 * since kgtop started, in the order they began: one the coordinator's
 * records tell of late takes its place, history_add_episode()), so a
 * number stays with its episode as the window slides and as old ones are
 * trimmed; a marker's number is drawn only
 * where it fits before the next marker.  Start times are clock times (in
 * the demo they count from kgtop's start, "+2m57s"); w turns them.
 */
#include "config.h"

#include "ui/view_timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/intern.h"
#include "util/util.h"

/* the lanes' labels: as wide as the longest client id needs (this frame's, tl->label_w), from 14 to a third of the pane */
#define LABEL_MIN 14
#define LABEL_W (tl->label_w)
#define NOTE_NARROW 20 /* notes' width in a pane under 90 columns (80: a short note each) */
#define NOTE_W 32   /* under 100 columns */
#define NOTE_MAX 48 /* and at most, in wider ones (a third of the pane) */
#define MAX_EPLINES 3
#define TL_VERDICT_EVENTS 512 /* the newest events searched for verdict changes */

/* Timeline scales, microseconds per column. */
static const int64_t scales[] = {
	100000, 250000, 500000, 1000000, 2000000, 5000000, 10000000, 30000000, 60000000, 300000000,
};
#define DEFAULT_SCALE 2 /* the coarsest the history is fitted to: 500 ms a column */

/*
 * The scale of a strip ncols wide: the form's (zoom >= 0), the one the
 * keys chose, or, fitting the history to the width, the finest of up to
 * DEFAULT_SCALE whose window holds everything since the screen's first
 * snapshot (the last one used is kept, for the keys).
 */
int64_t
timeline_zoom_scale(const ui_screen *s, ui_timeline *tl, int zoom, int ncols)
{
	int64_t span = screen_view_time(s) - s->t0_us;
	int z;
	if (zoom >= 0)
		return scales[KG_MIN(zoom, (int)KG_ARRAY_LEN(scales) - 1)];
	if (tl->auto_zoom) {
		for (z = 0; z < DEFAULT_SCALE && scales[z] * ncols < span; z++)
			;
		tl->zoom = z;
	}
	return scales[KG_MAX(0, KG_MIN(tl->zoom, (int)KG_ARRAY_LEN(scales) - 1))];
}

/* One scrolling row: a member's lane, a partition, or a topic's heading (per partition). */
typedef struct tl_row {
	int lane;      /* per member: the lane; -1 per partition */
	kg_tp tp;      /* per partition: the partition, or the topic of a heading */
	int heading;   /* a heading: its topic's partition count; 0 for a lane */
	int topic_row; /* per partition: the row of its topic's heading */
	int ord;       /* 1-based place among the lanes (headings: 0) */
} tl_row;

/* Strength of a lane status within a column (higher wins). */
static int
lane_rank(int st)
{
	switch (st) {
	case KG_MEMBER_STOPPED: return 6;
	case KG_MEMBER_SILENT: return 6; /* not consuming: stopped, before the coordinator says so */
	case KG_MEMBER_PARTIAL: return 5;
	case KG_MEMBER_AWAY: return 4;
	case KG_MEMBER_CONSUMING: return 3;
	case KG_MEMBER_IDLE: return 2;
	default: return 0; /* absent */
	}
}

/* Strength of a partition status within a column. */
static int
part_rank(int st)
{
	switch (st) {
	case KG_PSTAT_STOPPED: return 4;
	case KG_PSTAT_ORPHANED: return 3;
	case KG_PSTAT_CONSUMING: return 2;
	default: return 1;
	}
}

/* Index of the last sample at or before t (-1 none); t grows between calls, from is the previous answer. */
static int
sample_at(const kg_hview *v, int from, int64_t t)
{
	int i = from < 0 ? 0 : from + 1, best = from;
	for (; i < v->nsamples && v->samples[i].time_us <= t; i++)
		best = i;
	return best;
}

/* Index of a partition in a sample, -1 when absent. */
static int
sample_part(const kg_sample *smp, kg_tp tp)
{
	return tp_find(smp->parts, smp->nparts, sizeof *smp->parts, tp);
}

/* True when lane k is a member in a sample. */
static bool
lane_in(const kg_sample *smp, int k)
{
	return k < smp->nlanes && smp->lane_status[k] != KG_LANE_ABSENT;
}

/* Glyph and attribute of a lane status. */
static void
lane_look(const ui_screen *s, int lane, int st, ui_glyph *g, attr_t *a)
{
	switch (st) {
	case KG_MEMBER_CONSUMING:
		*g = G_CONSUMING;
		*a = s->attr[screen_owner_el(lane)];
		break;
	case KG_MEMBER_PARTIAL:
		*g = G_PARTIAL;
		*a = s->attr[UI_EL_PARTIAL];
		break;
	case KG_MEMBER_STOPPED:
	case KG_MEMBER_SILENT:
		*g = G_STOPPED;
		*a = s->attr[UI_EL_STOPPED];
		break;
	case KG_MEMBER_AWAY:
		*g = G_AWAY;
		*a = s->attr[UI_EL_STATIC];
		break;
	case KG_MEMBER_IDLE:
		*g = G_IDLE;
		*a = s->attr[UI_EL_IDLE];
		break;
	default:
		*g = G_ABSENT;
		*a = s->attr[UI_EL_NORMAL];
		break;
	}
}

/* Start time of an episode: "+12.118s" since kgtop's first snapshot ("-1m05s" before it), or the clock with w. */
static void
fmt_start(const ui_screen *s, const ui_timeline *tl, char *buf, size_t n, int64_t t)
{
	int64_t d = t - s->t0_us;
	if (tl->wall_clock) {
		time_t tt = (time_t)(t / 1000000);
		struct tm tm;
		char c[16];
		localtime_r(&tt, &tm);
		strftime(c, sizeof c, "%H:%M:%S", &tm);
		snprintf(buf, n, "%s", c);
	} else if (d < 0) {
		char x[32];
		util_fmt_duration(x, sizeof x, -d);
		snprintf(buf, n, "-%s", x);
	} else if (d < 60000000) {
		snprintf(buf, n, "+%lld.%03llds", (long long)(d / 1000000), (long long)(d / 1000 % 1000));
	} else {
		char x[32];
		util_fmt_duration(x, sizeof x, d);
		snprintf(buf, n, "+%s", x);
	}
}

/*
 * The model's count for "N of M members stopped" (tracker.c, close_episode):
 * of the members that held partitions when e began and did not leave, those
 * that stopped (a full revoke, or time owning nothing).  A leaver is not
 * "stopped", nor is a joiner.  While e is open the model has not settled
 * the stopped time of a member that is still stopped: the view's samples
 * say it (up to now).
 */
static int
episode_stopped(const kg_hview *v, const kg_episode *e, int64_t now, int *members)
{
	int k, i, stopped = 0;
	*members = 0;
	for (k = 0; k < e->nmembers; k++) {
		const kg_episode_member *em = &e->members[k];
		bool st = em->stopped_us > 0 || em->cls == KG_CLASS_FULL;
		if (em->nbefore == 0 || em->left)
			continue;
		(*members)++;
		for (i = 0; !st && e->end_us == 0 && i < v->nsamples; i++) {
			const kg_sample *smp = &v->samples[i];
			int64_t until = i + 1 < v->nsamples ? v->samples[i + 1].time_us : INT64_MAX;
			if (until <= e->start_us || smp->time_us > now)
				continue;
			st = em->lane < smp->nlanes && smp->lane_status[em->lane] == KG_MEMBER_STOPPED;
		}
		stopped += st;
	}
	return stopped;
}

/*
 * The members that stopped and the partitions left without a consumer,
 * with what it cost once the episode closed: "  2 of 2 stopped 2.4
 * member-s  3 partitions unconsumed 3.9 partition-s"; without the partitions
 * (parts false), without the members' time (member_cost false).
 */
static void
episode_cost(const ui_screen *s, const kg_episode *e, int stopped, int members, bool member_cost, bool parts, sbuf *b)
{
	bool closed = e->end_us != 0;
	/* no member records: an episode told by a coordinator's log alone, which saw no members */
	if (members > 0) {
		sbuf_addf(b, "  %d of %d stopped", stopped, members);
		if (closed && e->nstopped > 0 && member_cost) {
			sbuf_addc(b, ' ');
			event_fmt_amount(b, e->stopped_us, e->nstopped, "member", s->ascii);
		}
	}
	if (closed && e->nunconsumed > 0 && parts) {
		sbuf_addf(b, "  %d partition%s unconsumed ", e->nunconsumed, e->nunconsumed == 1 ? "" : "s");
		event_fmt_amount(b, e->unconsumed_us, e->nunconsumed, "partition", s->ascii);
	}
}

/*
 * What a closed episode cost in progress, after its moved partitions' count:
 * how long they waited for their new owner's first commit, from its
 * start (" consumed again after 3.1s", bounded by two refreshes, "≥4.0s" when one
 * never resumed while watched), and the lag it added ("  lag +1.2k").
 */
static void
episode_progress(const ui_screen *s, const kg_episode *e, sbuf *b)
{
	char d[48];
	if (e->end_us == 0)
		return;
	if (e->moved > 0 && e->resumed_us.min >= 0) {
		event_fmt_span(d, sizeof d, e->resumed_us, s->ascii);
		sbuf_addf(b, " consumed again after %s", d);
	}
	if (e->lag_start >= 0 && e->lag_end > e->lag_start) {
		util_fmt_count(d, sizeof d, e->lag_end - e->lag_start);
		sbuf_addf(b, "  lag +%s", d);
	}
}

/*
 * One line describing an episode, in width columns if it can: in full;
 * else without the members that gave some; else without its start (the
 * marker row shows it) and with the generation last; else without the
 * partitions' cost; else without the members' cost; else without the
 * progress it cost; else its fields that fit and an ellipsis.  Its words are the same in every form
 * ("cooperative", "2 of 3 stopped").  Its duration is measured ("2.5s")
 * or bounded by refreshes ("≤1.0s"), its rounds exact or at least ("≥2
 * rounds"), and a closed one says what it cost: members' stopped time,
 * partitions' time without a consumer.
 */
static void
episode_line(const ui_screen *s, const ui_timeline *tl, const kg_hview *v, const kg_episode *e, int64_t now, int width, char *buf, size_t n)
{
	char st[48], dur[48], gen[64] = "", rounds[32];
	size_t cut;
	int members, stopped = episode_stopped(v, e, now, &members), form;
	/* KIP-848: members reconcile each on its own (no round stops them all), the generation is the group epoch */
	const char *gw = e->proto == KG_PROTO_CONSUMER ? "epoch" : "gen";
	fmt_start(s, tl, st, sizeof st, e->start_us);
	event_fmt_span(dur, sizeof dur, episode_duration(e, now), s->ascii);
	if (e->gen_start >= 0 && e->gen_end >= 0 && e->gen_end != e->gen_start)
		snprintf(gen, sizeof gen, "%s %d%s%d", gw, (int)e->gen_start, s->ascii ? "->" : "\u2192", (int)e->gen_end);
	else if (e->gen_end >= 0 || e->gen_start >= 0)
		snprintf(gen, sizeof gen, "%s %d", gw, (int)(e->gen_end >= 0 ? e->gen_end : e->gen_start));
	if (e->proto == KG_PROTO_CONSUMER)
		snprintf(rounds, sizeof rounds, "no barrier");
	else
		snprintf(rounds, sizeof rounds, "%s%d round%s", e->rounds_min ? (s->ascii ? ">=" : "\u2265") : "", e->rounds,
			 e->rounds == 1 ? "" : "s");
	for (form = 0; form < 6; form++) {
		sbuf b = { 0 };
		bool fits;
		sbuf_addf(&b, "%d%s%s  %s  %s  %s%s  ", e->number, form < 2 ? " " : "", form < 2 ? st : "", proto_name(e->proto),
			  rounds, e->end_us ? "" : "open ", dur);
		if (form < 2 && gen[0] != '\0')
			sbuf_addf(&b, "%s  ", gen);
		sbuf_adds(&b, e->trigger_text && *e->trigger_text ? e->trigger_text : reason_name(e->trigger));
		episode_cost(s, e, stopped, members, form < 4, form < 3, &b);
		if (form < 1 && e->nincremental > 0)
			sbuf_addf(&b, "  %d gave some", e->nincremental);
		if (e->moved > 0)
			sbuf_addf(&b, "  %d moved", e->moved);
		if (form < 5)
			episode_progress(s, e, &b);
		if (form >= 2 && gen[0] != '\0')
			sbuf_addf(&b, "  %s", gen);
		util_strlcpy(buf, sbuf_str(&b), n);
		fits = text_width(s, sbuf_str(&b)) <= width;
		sbuf_free(&b);
		if (fits)
			return;
	}
	/* still too long: the fields that fit (they are two blanks apart), and an ellipsis */
	if ((cut = text_cut_at(s, buf, "  ", width - 1)) > 0)
		snprintf(buf + cut, n - cut, "%s", glyph_get(G_ELLIPSIS, s->ascii));
}

/* The lanes per member: every lane that was a member at some time of the window. */
static tl_row *
member_rows(const kg_hview *v, int *nrows)
{
	tl_row *rows = xcalloc((size_t)v->nlanes + 1, sizeof *rows);
	int k, i, n = 0;
	for (k = 0; k < v->nlanes; k++) {
		bool any = false;
		for (i = 0; i < v->nsamples && !any; i++)
			any = lane_in(&v->samples[i], k);
		if (any) {
			rows[n] = (tl_row){ .lane = k, .ord = n + 1 };
			n++;
		}
	}
	*nrows = n;
	return rows;
}

/*
 * The lanes per partition: every partition of the group's topics (the
 * snapshot's) and any the window's samples had, in topic order, each
 * topic under a heading.  *nparts is the number of partitions.
 */
static tl_row *
partition_rows(const kg_group *g, const kg_hview *v, int *nrows, int *nparts)
{
	kg_tp *all;
	tl_row *rows;
	size_t cap = (size_t)g->nparts + 1;
	int i, k, n = 0, nr = 0, head = 0;
	const kg_sample *prev = NULL;
	for (i = 0; i < v->nsamples; i++)
		cap += (size_t)v->samples[i].nparts;
	all = xcalloc(cap, sizeof *all);
	for (i = 0; i < g->nparts; i++)
		all[n++] = g->parts[i].tp;
	for (i = 0; i < v->nsamples; i++) {
		const kg_sample *smp = &v->samples[i];
		/* most samples list the same partitions as the one before */
		if (prev != NULL && prev->nparts == smp->nparts &&
		    memcmp(prev->parts, smp->parts, (size_t)smp->nparts * sizeof *smp->parts) == 0)
			continue;
		memcpy(all + n, smp->parts, (size_t)smp->nparts * sizeof *smp->parts);
		n += smp->nparts;
		prev = smp;
	}
	n = n > 1 ? tp_sort_unique(all, n) : n;
	rows = xcalloc((size_t)(2 * n + 1), sizeof *rows);
	for (i = 0; i < n; i++) {
		if (i == 0 || all[i].topic != all[i - 1].topic) {
			for (k = i; k < n && all[k].topic == all[i].topic; k++)
				;
			head = nr;
			rows[nr++] = (tl_row){ .lane = -1, .tp = all[i], .heading = k - i, .topic_row = head };
		}
		rows[nr++] = (tl_row){ .lane = -1, .tp = all[i], .topic_row = head, .ord = i + 1 };
	}
	free(all);
	*nrows = nr;
	*nparts = n;
	return rows;
}

/* A member's strip: its strongest status in each column. */
static void
draw_member_strip(ui_screen *s, const kg_hview *v, int k, int y, int x0, int ncols, int64_t t0, int64_t scale)
{
	int si = -1, c, x;
	for (c = 0, x = x0; c < ncols; c++, x++) {
		int64_t ct = t0 + c * scale, ce = ct + scale;
		int best = KG_LANE_ABSENT, rank = -1, j;
		ui_glyph gl;
		attr_t a;
		si = sample_at(v, si, ct);
		for (j = si >= 0 ? si : 0; j < v->nsamples && (j == si || v->samples[j].time_us < ce); j++) {
			const kg_sample *smp = &v->samples[j];
			int st = k < smp->nlanes ? smp->lane_status[k] : KG_LANE_ABSENT;
			if (lane_rank(st) > rank) {
				rank = lane_rank(st);
				best = st;
			}
		}
		if (rank < 0)
			continue;
		lane_look(s, k, best, &gl, &a);
		if (gl != G_ABSENT)
			text_fill(s, y, x, 1, a, gl);
	}
}

/* A partition's strip: the owner's colour, its letter where the owner changes. */
static void
draw_partition_strip(ui_screen *s, const kg_hview *v, kg_tp tp, int y, int x0, int ncols, int64_t t0, int64_t scale)
{
	int si = -1, c, x, prev_owner = -2;
	for (c = 0, x = x0; c < ncols; c++, x++) {
		int64_t ct = t0 + c * scale, ce = ct + scale;
		int rank = -1, owner = -1, pst = -1, j;
		si = sample_at(v, si, ct);
		for (j = si >= 0 ? si : 0; j < v->nsamples && (j == si || v->samples[j].time_us < ce); j++) {
			const kg_sample *smp = &v->samples[j];
			int pi = sample_part(smp, tp);
			if (pi < 0)
				continue;
			if (part_rank(smp->pstat[pi]) > rank) {
				rank = part_rank(smp->pstat[pi]);
				pst = smp->pstat[pi];
			}
			owner = smp->owner[pi];
		}
		if (pst < 0)
			continue;
		if (pst == KG_PSTAT_STOPPED) {
			text_fill(s, y, x, 1, s->attr[UI_EL_STOPPED], G_STOPPED);
		} else if (pst == KG_PSTAT_ORPHANED) {
			text_put(s, y, x, 1, s->attr[UI_EL_ORPHAN], "!", 0);
		} else if (pst == KG_PSTAT_CONSUMING && owner >= 0) {
			const kg_lane *l = hview_lane(v, owner);
			if (owner != prev_owner && l != NULL) {
				char letter[2] = { l->letter, 0 };
				text_put(s, y, x, 1, s->attr[screen_owner_el(owner)] | A_REVERSE, letter, 0);
			} else {
				text_fill(s, y, x, 1, s->attr[screen_owner_el(owner)], G_CONSUMING);
			}
		} else {
			text_fill(s, y, x, 1, s->attr[UI_EL_IDLE], G_IDLE);
		}
		prev_owner = pst == KG_PSTAT_CONSUMING ? owner : -1;
	}
}

/* A topic's heading: its name and partition count, as in the grid. */
static void
draw_heading(ui_screen *s, const tl_row *row, int y, ui_rect r)
{
	text_putf(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_TITLE], "%s (%d partition%s)", intern_topic_name(row->tp.topic),
		  row->heading, row->heading == 1 ? "" : "s");
}

/* The axis: scale, the window's start, a rule, its end (now, or how far back). */
static void
draw_axis(ui_screen *s, const ui_timeline *tl, ui_rect r, int ncols, int64_t scale)
{
	char a0[48], a1[48], sc[32], right[64];
	int rw, y = r.y;
	util_fmt_duration(a0, sizeof a0, scale * ncols + s->offset_us);
	if (s->offset_us > 0)
		util_fmt_duration(a1, sizeof a1, s->offset_us);
	util_fmt_duration(sc, sizeof sc, scale);
	text_putf(s, y, r.x + 1, LABEL_W - 1, s->attr[UI_EL_DIM], "%s/column", sc);
	text_putf(s, y, r.x + LABEL_W, 12, s->attr[UI_EL_NOW], "-%s", a0);
	snprintf(right, sizeof right, "%s%s", s->offset_us > 0 ? "-" : "", s->offset_us > 0 ? a1 : "now");
	rw = text_width(s, right);
	text_fill(s, y, r.x + LABEL_W + 10, ncols - 10 - rw - 1, s->attr[UI_EL_BORDER], G_AXIS);
	text_put(s, y, r.x + LABEL_W + ncols - rw, rw, s->attr[UI_EL_NOW], right, 0);
}

/* The marker row: the span of each episode from its start's mark, its number where it fits before the next marker. */
static void
draw_markers(ui_screen *s, const ui_timeline *tl, const kg_hview *v, int y, ui_rect r, int ncols, int64_t t0, int64_t t1, int64_t scale)
{
	int *mc0 = xcalloc((size_t)v->nepisodes + 1, sizeof *mc0), i;
	for (i = 0; i < v->nepisodes; i++) {
		int64_t c = (v->episodes[i].start_us - t0) / scale;
		mc0[i] = c < 0 ? 0 : c > ncols ? ncols : (int)c;
	}
	text_put(s, y, r.x + 1, LABEL_W - 1, s->attr[UI_EL_DIM], "episodes", 0);
	for (i = 0; i < v->nepisodes; i++) {
		const kg_episode *e = &v->episodes[i];
		int64_t end = e->end_us ? e->end_us : t1;
		int c0 = mc0[i], c1 = (int)((end - t0) / scale), room;
		char label[16];
		if (end < t0 || c0 >= ncols)
			continue;
		c1 = KG_MIN(c1, ncols - 1);
		if (c1 < c0)
			c1 = c0;
		text_fill(s, y, r.x + LABEL_W + c0, c1 - c0 + 1, s->attr[UI_EL_EPISODE], G_HLINE);
		/* the start's mark only where it started: one begun before the window comes in as a line */
		if (e->start_us >= t0)
			text_put(s, y, r.x + LABEL_W + c0, 1, s->attr[UI_EL_EPISODE], glyph_get(G_EPISODE, s->ascii), 0);
		/* up to the next marker that shows, or the end of the strip */
		room = (i + 1 < v->nepisodes ? KG_MIN(mc0[i + 1], ncols) : ncols) - c0 - 1;
		snprintf(label, sizeof label, "%d", e->number);
		if ((int)strlen(label) <= room)
			text_put(s, y, r.x + LABEL_W + c0 + 1, room, s->attr[UI_EL_EPISODE], label, 0);
	}
	free(mc0);
}

/* The marks of verdict changes on the marker row, by severity (the worst of a column shows). */
static const struct {
	const char *mark, *words;
} vmarks[] = {
	{ "+", "progress again" }, { "?", "SLOW or REWIND" }, { "=", "STALLED or STOPPED" }, { "*", "LOST" },
};

/* The vmarks[] row of a verdict, -1 none. */
static int
vmark_of(uint8_t v)
{
	switch (v) {
	case KG_VERDICT_OK: return 0;
	case KG_VERDICT_SLOW:
	case KG_VERDICT_REWIND: return 1;
	case KG_VERDICT_STALLED:
	case KG_VERDICT_STOPPED: return 2;
	case KG_VERDICT_LOST: return 3;
	default: return -1;
	}
}

/*
 * Verdict changes on the marker row, at the columns they happened (the
 * episodes' marks drawn after them win): where progress went wrong before
 * a rebalance shows before it.  Returns the marks drawn, a bit each.
 */
static unsigned
draw_verdicts(ui_screen *s, const ui_timeline *tl, const kg_group *g, int y, ui_rect r, int ncols, int64_t t0, int64_t scale)
{
	kg_event *ev[TL_VERDICT_EVENTS];
	int n = history_events(s->hist, g->id, 0, ev, TL_VERDICT_EVENTS), i;
	signed char *best = xcalloc((size_t)ncols + 1, 1);
	unsigned drawn = 0;
	memset(best, -1, (size_t)ncols + 1);
	for (i = 0; i < n; i++) {
		int64_t c = (ev[i]->time_us - t0) / scale;
		int k = vmark_of(ev[i]->verdict);
		if (ev[i]->kind == KG_EV_VERDICT && ev[i]->time_us >= t0 && c < ncols && k > best[c])
			best[c] = (signed char)k;
		event_unref(ev[i]);
	}
	for (i = 0; i < ncols; i++) {
		if (best[i] < 0)
			continue;
		text_put(s, y, r.x + LABEL_W + i, 1,
			 s->attr[best[i] == 0 ? UI_EL_VERDICT_OK : best[i] == 1 ? UI_EL_VERDICT_WARN : UI_EL_VERDICT_BAD],
			 vmarks[(int)best[i]].mark, 0);
		drawn |= 1u << best[i];
	}
	free(best);
	return drawn;
}

/* The legend, and which lanes show when they scroll (first and last place of total); marks: verdict marks drawn. */
static void
draw_legend(ui_screen *s, const ui_timeline *tl, int y, ui_rect r, int first, int last, int total, unsigned marks)
{
	sbuf b = { 0 };
	char pos[96] = "";
	int pw = 0;
	size_t k;
	sbuf_addf(&b, "%s consuming  %s partly stopped  %s stopped  %s idle  (blank) absent",
		  glyph_get(G_CONSUMING, s->ascii), glyph_get(G_PARTIAL, s->ascii), glyph_get(G_STOPPED, s->ascii),
		  glyph_get(G_IDLE, s->ascii));
	if (tl->by_partition)
		sbuf_adds(&b, "  ! orphaned  letter: new owner");
	for (k = KG_ARRAY_LEN(vmarks); k-- > 0;) {
		if (marks & (1u << k))
			sbuf_addf(&b, "  %s %s", vmarks[k].mark, vmarks[k].words);
	}
	if (first > 0) {
		snprintf(pos, sizeof pos, "%s %d-%d of %d (PgUp PgDn)", tl->by_partition ? "partitions" : "members", first,
			 last, total);
		pw = text_width(s, pos);
		if (pw > r.w - 2)
			pw = 0; /* too narrow: the legend alone */
		else
			text_put(s, y, r.x + r.w - 1 - pw, pw, s->attr[UI_EL_NOW], pos, 0);
	}
	text_put(s, y, r.x + 1, r.w - 2 - (pw > 0 ? pw + 2 : 0), s->attr[UI_EL_DIM], sbuf_str(&b), TEXT_ELLIPSIS);
	sbuf_free(&b);
}

/* A member's lane: letter, client id, strip. */
static void
draw_member_row(ui_screen *s, const ui_timeline *tl, const kg_hview *v, const tl_row *row, int y, ui_rect r, int ncols, int64_t t0,
		int64_t scale)
{
	const kg_lane *l = &v->lanes[row->lane];
	char letter[2] = { l->letter, 0 };
	text_put(s, y, r.x + 1, 1, s->attr[screen_owner_el(row->lane)], letter, 0);
	text_put(s, y, r.x + 3, LABEL_W - 4, s->attr[l->present ? UI_EL_NORMAL : UI_EL_DIM], l->client_id, TEXT_ELLIPSIS);
	draw_member_strip(s, v, row->lane, y, r.x + LABEL_W, ncols, t0, scale);
}

/* The labels' width: a lane's letter, a blank, the longest client id and a blank, within LABEL_MIN and a third of r. */
static int
timeline_label_w(const ui_screen *s, const ui_timeline *tl, const kg_hview *v, ui_rect r)
{
	int k, w = 0;
	for (k = 0; !tl->by_partition && k < v->nlanes; k++)
		w = KG_MAX(w, text_width(s, v->lanes[k].client_id) + 4);
	return KG_MAX(LABEL_MIN, KG_MIN(w, r.w / 3));
}

/* A timeline's layout in a rect: its window, its rows, what fits. */
typedef struct tl_frame {
	kg_hview *v;
	tl_row *rows;
	int nrows, nparts;      /* rows (lanes and headings), partitions (per partition) */
	int ncols;              /* the strip's columns */
	int64_t scale, t0, t1;
	bool notes;             /* a note beside each member's lane */
	int note_w;
	int axis;               /* 1: the axis on the first row */
	int neplines, legend;   /* episode lines, the legend's row (0 or 1) */
	int y0, region;         /* the lanes' first row and how many rows they have */
	int top, maxtop;        /* the first lane shown, and the last first lane */
} tl_frame;

/*
 * The window the pane shows and its rows, with the labels as wide as the
 * names need (tl->label_w; f->label_w when the form says: two groups'
 * strips line up) and the strip's columns beside the labels and notes.
 */
static void
frame_open(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r, const tl_form *f, tl_frame *fr)
{
	memset(fr, 0, sizeof *fr);
	fr->t1 = screen_view_time(s);
	fr->notes = r.w >= 70 && !tl->by_partition;
	fr->note_w = !fr->notes ? 0 : r.w < 90 ? NOTE_NARROW : r.w < 100 ? NOTE_W : KG_MIN(NOTE_MAX, r.w / 3);
	tl->label_w = f->label_w > 0 ? f->label_w : LABEL_MIN;
	fr->ncols = KG_MAX(10, r.w - LABEL_W - 1 - (fr->notes ? fr->note_w + 1 : 0));
	fr->scale = timeline_zoom_scale(s, tl, f->zoom, fr->ncols);
	fr->v = history_view(s->hist, g->id, fr->t1 - fr->scale * fr->ncols, fr->t1);
	if (f->label_w <= 0)
		tl->label_w = timeline_label_w(s, tl, fr->v, r);
	fr->ncols = KG_MAX(10, r.w - LABEL_W - 1 - (fr->notes ? fr->note_w + 1 : 0));
	fr->scale = timeline_zoom_scale(s, tl, f->zoom, fr->ncols);
	fr->t0 = fr->t1 - fr->scale * fr->ncols;
	fr->rows = tl->by_partition ? partition_rows(g, fr->v, &fr->nrows, &fr->nparts) : member_rows(fr->v, &fr->nrows);
	fr->axis = f->axis ? 1 : 0;
}

/* Release a frame. */
static void
frame_close(tl_frame *fr)
{
	free(fr->rows);
	hview_free(fr->v);
}

/*
 * The fixed rows (axis, episode lines or the hint, markers above the
 * lanes, the legend below) and the lanes' region in r.h rows, and which
 * lanes show for the view's scroll.  Only the lanes scroll: PgDn moves
 * s->scroll by the view's height less 2 (keys.c); here a page is the
 * lanes' rows less one, so a page turns to the next with one row in
 * common and no lane is skipped.  A form without a legend gets one when
 * its lanes do not all fit (it says which show).
 */
static void
frame_fit(ui_screen *s, ui_rect r, const tl_form *f, tl_frame *fr)
{
	int page, step, npages, fixed = fr->axis + 1;
	fr->neplines = fr->v->nepisodes > 0 ? KG_MIN(fr->v->nepisodes, f->eplines) : 1;
	fr->neplines = KG_MAX(1, KG_MIN(fr->neplines, r.h - fixed - 1 - KG_MIN(fr->nrows, 4)));
	fr->legend = f->legend || (fr->nrows > r.h - fixed - fr->neplines && r.h - fixed - fr->neplines >= 3) ? 1 : 0;
	fr->region = r.h - fixed - fr->neplines - fr->legend;
	if (fr->region < 1) {
		fr->legend = 0;
		fr->region = KG_MAX(0, r.h - fixed - fr->neplines);
	}
	fr->y0 = r.y + fixed + fr->neplines;
	fr->maxtop = KG_MAX(0, fr->nrows - fr->region);
	page = KG_MAX(1, r.h - 2);
	step = KG_MAX(1, fr->region - 1);
	npages = fr->maxtop > 0 ? (fr->maxtop + step - 1) / step : 0;
	if (s->scroll > npages * page)
		s->scroll = npages * page;
	if (s->scroll < 0)
		s->scroll = 0;
	fr->top = KG_MIN(fr->maxtop, (int)((int64_t)s->scroll * step / page));
	s->view_rows = r.h + npages * page;
}

/* The rows a form needs to show every lane of g in a rect r wide (its label width in *label_w). */
int
timeline_rows(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r, const tl_form *f, int *label_w, int *zoom)
{
	tl_frame fr;
	int n;
	frame_open(s, tl, g, r, f, &fr);
	n = fr.axis + KG_MAX(1, KG_MIN(fr.v->nepisodes, f->eplines)) + 1 + KG_MAX(1, fr.nrows) + (f->legend ? 1 : 0);
	*label_w = tl->label_w;
	*zoom = tl->zoom;
	frame_close(&fr);
	return n;
}

/* Episode lines, newest first (or the hint that there is none), under the axis. */
static void
draw_episode_lines(ui_screen *s, const ui_timeline *tl, const tl_frame *fr, ui_rect r)
{
	const kg_hview *v = fr->v;
	char buf[512];
	int i, nep, y;
	for (i = v->nepisodes - 1, nep = 0; i >= 0 && nep < fr->neplines; i--, nep++) {
		if ((y = r.y + fr->axis + nep) >= r.y + r.h)
			break;
		episode_line(s, tl, v, &v->episodes[i], fr->t1, r.w - 4, buf, sizeof buf);
		text_put(s, y, r.x + 1, 1, s->attr[UI_EL_EPISODE], glyph_get(G_EPISODE, s->ascii), 0);
		text_put(s, y, r.x + 3, r.w - 4,
			 s->attr[v->episodes[i].proto == KG_PROTO_EAGER ? UI_EL_EAGER : UI_EL_COOP], buf, TEXT_ELLIPSIS);
	}
	if (v->nepisodes == 0 && r.y + fr->axis < r.y + r.h)
		text_put(s, r.y + fr->axis, r.x + 3, r.w - 4, s->attr[UI_EL_DIM],
			 "no rebalance seen in this window (- zooms out, left scrolls back)", TEXT_ELLIPSIS);
}

/* The lanes shown, each with its note (what the last episode did to it); returns how many rows they took. */
static int
draw_lanes(ui_screen *s, const ui_timeline *tl, const kg_group *g, const tl_frame *fr, ui_rect r, int *first,
	   int *last_ord)
{
	const kg_hview *v = fr->v;
	const kg_episode *last = v->nepisodes > 0 ? &v->episodes[v->nepisodes - 1] : NULL;
	bool sticky = tl->by_partition && fr->region >= 3, sf = group_single_topic(g);
	kg_reason *why = NULL;
	int64_t lend = 0;
	int i, y, shown;
	/* what the last episode did to each member, from its start to its end */
	if (fr->notes && last != NULL)
		why = timeline_note_reasons(s, v, fr->t1, &lend);
	for (i = 0, shown = 0; i < fr->region && fr->top + i < fr->nrows; i++, shown++) {
		const tl_row *row = &fr->rows[fr->top + i];
		y = fr->y0 + i;
		/* the heading of the topic at the top stays while its partitions scroll */
		if (i == 0 && sticky && fr->top > 0 && row->heading == 0)
			row = &fr->rows[row->topic_row];
		if (row->ord > 0) {
			if (*first == 0)
				*first = row->ord;
			*last_ord = row->ord;
		}
		if (row->heading > 0) {
			draw_heading(s, row, y, r);
		} else if (tl->by_partition) {
			text_putf(s, y, r.x + 1, LABEL_W - 2, s->attr[UI_EL_NORMAL], "p%d", (int)row->tp.partition);
			draw_partition_strip(s, v, row->tp, y, r.x + LABEL_W, fr->ncols, fr->t0, fr->scale);
		} else {
			draw_member_row(s, tl, v, row, y, r, fr->ncols, fr->t0, fr->scale);
			if (why != NULL) {
				ui_lane_facts lf;
				sbuf b = { 0 };
				timeline_lane_facts(v, row->lane, last->start_us, lend, &lf);
				lf.why = why[row->lane];
				timeline_member_note(s, last, episode_member(last, row->lane), &lf, sf, fr->note_w, &b);
				text_put(s, y, r.x + LABEL_W + fr->ncols + 2, fr->note_w, s->attr[UI_EL_DIM], sbuf_str(&b),
					 TEXT_ELLIPSIS);
				sbuf_free(&b);
			}
		}
	}
	free(why);
	if (fr->nrows == 0 && fr->region > 0) {
		/* an empty strip area would read as a drawing fault */
		text_put(s, fr->y0, r.x + 3, r.w - 4, s->attr[UI_EL_DIM],
			 tl->by_partition ? "no partitions known for this group" : "no members in this window", 0);
		shown = 1;
	}
	return shown;
}

/* Draw one group's timeline in a form (NULL: the whole one). */
void
timeline_draw_form(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r, const tl_form *form)
{
	static const tl_form whole = { .axis = true, .eplines = MAX_EPLINES, .legend = true, .zoom = -1 };
	const tl_form *f = form != NULL ? form : &whole;
	const kg_episode *last;
	tl_frame fr;
	unsigned marks = 0;
	int shown, first = 0, last_ord = 0;
	frame_open(s, tl, g, r, f, &fr);
	frame_fit(s, r, f, &fr);
	if (r.h < 1) {
		frame_close(&fr);
		return;
	}
	last = fr.v->nepisodes > 0 ? &fr.v->episodes[fr.v->nepisodes - 1] : NULL;
	if (fr.axis)
		draw_axis(s, tl, r, fr.ncols, fr.scale);
	draw_episode_lines(s, tl, &fr, r);
	if (fr.y0 - 1 < r.y + r.h) {
		marks = draw_verdicts(s, tl, g, fr.y0 - 1, r, fr.ncols, fr.t0, fr.scale);
		draw_markers(s, tl, fr.v, fr.y0 - 1, r, fr.ncols, fr.t0, fr.t1, fr.scale);
		if (fr.notes && last != NULL)
			text_putf(s, fr.y0 - 1, r.x + LABEL_W + fr.ncols + 2, fr.note_w, s->attr[UI_EL_DIM], "episode %d:",
				  last->number);
	}
	shown = draw_lanes(s, tl, g, &fr, r, &first, &last_ord);
	if (fr.legend && fr.y0 + shown < r.y + r.h)
		draw_legend(s, tl, fr.y0 + shown, r, fr.maxtop > 0 ? first : 0, last_ord,
			    tl->by_partition ? fr.nparts : fr.nrows, marks);
	frame_close(&fr);
}

/* Draw one group's timeline. */
void
timeline_draw_group(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r)
{
	timeline_draw_form(s, tl, g, r, NULL);
}


/*
 * The timeline's state: by member; episodes start at clock times as the
 * events do (the demo's since kgtop's start, and it compares its groups,
 * eager and cooperative).
 */
static void *
view_timeline_init(const ui_screen *s)
{
	ui_timeline *tl = xcalloc(1, sizeof *tl);
	bool demo = s->info != NULL && s->info->demo;
	tl->zoom = DEFAULT_SCALE;
	tl->auto_zoom = true;
	tl->label_w = LABEL_MIN;
	tl->compare = demo;
	tl->wall_clock = !demo;
	return tl;
}

/* Microseconds per timeline column. */
int64_t
timeline_scale_us(const ui_screen *s)
{
	const ui_timeline *tl = screen_pane_state(s, UI_VIEW_TIMELINE);
	int z = tl != NULL ? tl->zoom : DEFAULT_SCALE;
	return scales[KG_MAX(0, KG_MIN(z, (int)KG_ARRAY_LEN(scales) - 1))];
}

/* v: the timeline comparing the selected group with the next one, from any view; again: one group. */
void
timeline_compare_toggle(ui_screen *s)
{
	ui_timeline *tl = screen_pane_state(s, UI_VIEW_TIMELINE);
	tl->compare = s->view != UI_VIEW_TIMELINE || !tl->compare;
	s->view = UI_VIEW_TIMELINE;
	s->scroll = 0;
}

/* Draw the timeline: the compare form when it is on and applies, else the selected group's. */
static void
view_timeline_draw(ui_screen *s, void *st, const kg_group *g, ui_rect r)
{
	ui_timeline *tl = st;
	if (!compare_draw(s, tl, g, r))
		timeline_draw_group(s, tl, g, r);
}

/* + -: zoom in, out (from the scale shown; the scale no longer fits the history by itself). */
static void
timeline_zoom(ui_screen *s, void *st, int key, ui_action *a)
{
	ui_timeline *tl = st;
	(void)s;
	(void)a;
	tl->auto_zoom = false;
	if ((key == '+' || key == '=') && tl->zoom > 0)
		tl->zoom--;
	else if ((key == '-' || key == '_') && tl->zoom < (int)KG_ARRAY_LEN(scales) - 1)
		tl->zoom++;
}

/* m: a lane per member or per partition. */
static void
timeline_mode(ui_screen *s, void *st, int key, ui_action *a)
{
	ui_timeline *tl = st;
	(void)key;
	(void)a;
	tl->by_partition = !tl->by_partition;
	s->scroll = 0;
}

/* w: episodes' start as clock times, or since kgtop's start. */
static void
timeline_clock(ui_screen *s, void *st, int key, ui_action *a)
{
	ui_timeline *tl = st;
	(void)s;
	(void)key;
	(void)a;
	tl->wall_clock = !tl->wall_clock;
}

/* The timeline's footer hints. */
static int
view_timeline_hints(const ui_screen *s, const void *st, ui_hint *h, int max)
{
	const ui_timeline *tl = st;
	int n = screen_hint(h, 0, max, "m", tl->by_partition ? "per member" : "per partition", 1);
	n = screen_hint(h, n, max, "v", tl->compare ? "one group" : "compare", 4);
	n = screen_hint(h, n, max, "+-", "zoom", 1);
	if (!s->paused)
		n = screen_hint(h, n, max, s->ascii ? "<-->" : "\u2190\u2192", "scroll", 1);
	return screen_hint(h, n, max, "w", tl->wall_clock ? "relative" : "clock", 2);
}

/* Left/right scroll the timeline without pausing, eight columns a step. */
static int64_t
view_timeline_scroll_step(const ui_screen *s, const void *st)
{
	(void)st;
	return timeline_scale_us(s) * 8;
}

static const ui_pane_key view_timeline_keys[] = {
	{ { '+', '=', '-', '_' }, timeline_zoom, "+ -", "timeline: zoom in / out" },
	{ { 'm' }, timeline_mode, "m", "timeline: per member / per partition" },
	{ { 'w' }, timeline_clock, "w", "timeline: clock / relative times" },
	{ { 0 }, NULL, NULL, NULL },
};

const ui_pane view_timeline_pane = {
	.name = "timeline",
	.key = 't',
	.init = view_timeline_init,
	.free = free,
	.draw = view_timeline_draw,
	.keys = view_timeline_keys,
	.hints = view_timeline_hints,
	.scroll_step = view_timeline_scroll_step,
};

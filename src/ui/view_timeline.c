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
 * ownership changes so the picture reads without colour.  Above the
 * strips: the time axis, one line per episode in the window (start,
 * protocol, rounds, duration, generation, trigger), and a marker row;
 * beside them (wide panes) what the last episode did to each member.
 * Episodes carry the number the model gave them (1, 2, 3... per group
 * since kgtop started), so a number stays with its episode as the window
 * slides and as old ones are trimmed; a marker's number
 * is drawn only where it fits before the next marker.  Start times count
 * from kgtop's start ("+2m57s"), or are clock times with w.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/intern.h"
#include "util/util.h"

#define LABEL_W 14
#define NOTE_W 32

/* Strength of a lane status within a column (higher wins). */
static int
lane_rank(int st)
{
	switch (st) {
	case KG_MEMBER_STOPPED: return 6;
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
	int lo = 0, hi = smp->nparts - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = tp_cmp(&smp->parts[mid], &tp);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
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
fmt_start(const ui_screen *s, char *buf, size_t n, int64_t t)
{
	int64_t d = t - s->t0_us;
	if (s->wall_clock) {
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

/* Number each episode of a view: the model counts them per group since kgtop started. */
static void
episode_numbers(ui_screen *s, const kg_hview *v, int *num)
{
	int i;
	(void)s;
	for (i = 0; i < v->nepisodes; i++)
		num[i] = v->episodes[i].number;
}

/* One line describing an episode. */
static void
episode_line(const ui_screen *s, const kg_episode *e, int num, int64_t now, char *buf, size_t n)
{
	char st[48], dur[32], gen[64] = "";
	sbuf b = { 0 };
	fmt_start(s, st, sizeof st, e->start_us);
	util_fmt_duration(dur, sizeof dur, (e->end_us ? e->end_us : now) - e->start_us);
	if (e->gen_start >= 0 && e->gen_end >= 0 && e->gen_end != e->gen_start)
		snprintf(gen, sizeof gen, "gen %d%s%d  ", (int)e->gen_start, s->ascii ? "->" : "\u2192", (int)e->gen_end);
	else if (e->gen_end >= 0 || e->gen_start >= 0)
		snprintf(gen, sizeof gen, "gen %d  ", (int)(e->gen_end >= 0 ? e->gen_end : e->gen_start));
	sbuf_addf(&b, "%d %s  %s  %d round%s  %s%s  %s", num, st, proto_name(e->proto), e->rounds,
		  e->rounds == 1 ? "" : "s", e->end_us ? "" : "open ", dur, gen);
	sbuf_adds(&b, e->trigger_text && *e->trigger_text ? e->trigger_text : reason_name(e->trigger));
	if (e->nfull > 0)
		sbuf_addf(&b, "  %d stopped all", e->nfull);
	if (e->nincremental > 0)
		sbuf_addf(&b, "  %d gave some", e->nincremental);
	if (e->moved > 0)
		sbuf_addf(&b, "  %d moved", e->moved);
	util_strlcpy(buf, sbuf_str(&b), n);
	sbuf_free(&b);
}

/* True when lane k was a member at some time within [a, b], by the view's samples. */
static bool
lane_present(const kg_hview *v, int k, int64_t a, int64_t b)
{
	int i;
	for (i = 0; i < v->nsamples; i++) {
		const kg_sample *smp = &v->samples[i];
		int64_t until = i + 1 < v->nsamples ? v->samples[i + 1].time_us : INT64_MAX;
		if (smp->time_us > b || until <= a)
			continue;
		if (k < smp->nlanes && smp->lane_status[k] != KG_LANE_ABSENT)
			return true;
	}
	return false;
}

/* Append ", " unless the note is empty. */
static void
note_sep(sbuf *b)
{
	if (b->len > 0)
		sbuf_adds(b, ", ");
}

/*
 * What an episode did to a lane, in the seeds' words.  m is the lane's
 * record in the episode (NULL: none); during says whether the lane was a
 * member at some time of the episode, at_end whether it was one when the
 * episode ended (a member that left and came back during it).  A lane
 * with no record is "untouched" when it was there, and has no note when
 * it was not.
 */
void
timeline_member_note(const kg_episode *e, const kg_episode_member *m, bool sf, bool during, bool at_end, sbuf *b)
{
	bool rejoined;
	if (m == NULL) {
		if (during)
			sbuf_adds(b, "untouched");
		return;
	}
	/* joined and left: in this order when it is gone at the end, else it left and rejoined */
	rejoined = m->joined && m->left && at_end;
	if (m->joined && !rejoined)
		sbuf_adds(b, "joined");
	if (m->cls == KG_CLASS_FULL) {
		note_sep(b);
		sbuf_adds(b, "gave all ");
		tp_format(b, m->revoked, m->nrevoked, sf);
	} else if (m->cls == KG_CLASS_INCREMENTAL) {
		kg_tp *kept = xcalloc((size_t)m->nbefore + 1, sizeof *kept);
		int nk = tp_diff(m->before, m->nbefore, m->revoked, m->nrevoked, kept);
		note_sep(b);
		sbuf_adds(b, "kept ");
		tp_format(b, kept, nk, sf);
		sbuf_adds(b, ", gave ");
		tp_format(b, m->revoked, m->nrevoked, sf);
		if (m->round_revoked > 0)
			sbuf_addf(b, " in round %d", m->round_revoked);
		free(kept);
	}
	if (m->left) {
		note_sep(b);
		sbuf_adds(b, "left");
		if (m->cls == KG_CLASS_NONE && m->nbefore > 0) {
			/* it left (just before the episode, or without a revoke seen) holding these */
			sbuf_adds(b, " with ");
			tp_format(b, m->before, m->nbefore, sf);
		}
		if (rejoined)
			sbuf_adds(b, ", rejoined");
	}
	if (m->nassigned > 0 && (!m->left || rejoined)) {
		note_sep(b);
		sbuf_adds(b, "got ");
		tp_format(b, m->assigned, m->nassigned, sf);
		if (m->round_assigned > 0 && e->rounds > 1)
			sbuf_addf(b, " in round %d", m->round_assigned);
	} else if (b->len == 0) {
		sbuf_adds(b, "untouched");
	}
}

/* Draw the timeline. */
static void
view_timeline_draw(ui_screen *s, const kg_group *g, ui_rect r)
{
	int64_t scale = screen_scale_us(s), t1 = screen_view_time(s), t0;
	bool notes = r.w >= 90 && !s->by_partition;
	int sw = r.w - LABEL_W - 1 - (notes ? NOTE_W + 1 : 0), ncols, y, i, k, nep = 0, maxep;
	kg_hview *v;
	ui_lines lc = { s, r, 0 };
	char buf[512], a0[48], a1[48];
	bool sf = group_single_topic(g);
	const kg_episode *last = NULL;
	int *num, *mc0;
	if (sw < 10)
		sw = 10;
	ncols = sw;
	t0 = t1 - scale * ncols;
	v = history_view(s->hist, g->id, t0, t1);
	num = xcalloc((size_t)v->nepisodes + 1, sizeof *num);
	mc0 = xcalloc((size_t)v->nepisodes + 1, sizeof *mc0);
	episode_numbers(s, v, num);

	/* axis */
	y = r.y;
	util_fmt_duration(a0, sizeof a0, scale * ncols + s->offset_us);
	if (s->offset_us > 0)
		util_fmt_duration(a1, sizeof a1, s->offset_us);
	{
		char sc[32];
		util_fmt_duration(sc, sizeof sc, scale);
		text_putf(s, y, r.x + 1, LABEL_W - 1, s->attr[UI_EL_DIM], "%s/column", sc);
	}
	text_putf(s, y, r.x + LABEL_W, 12, s->attr[UI_EL_NOW], "-%s", a0);
	{
		char right[64];
		int rw;
		snprintf(right, sizeof right, "%s%s", s->offset_us > 0 ? "-" : "", s->offset_us > 0 ? a1 : "now");
		rw = text_width(s, right);
		text_fill(s, y, r.x + LABEL_W + 10, ncols - 10 - rw - 1, s->attr[UI_EL_BORDER], G_AXIS);
		text_put(s, y, r.x + LABEL_W + ncols - rw, rw, s->attr[UI_EL_NOW], right, 0);
	}
	lc.line = 1;

	/* episodes in the window, newest first, numbered by their place in the history */
	maxep = r.h - 3 - (s->by_partition ? KG_MIN(g->nparts, 4) : KG_MIN(v->nlanes, 4));
	if (maxep > 3)
		maxep = 3;
	if (maxep < 1)
		maxep = 1;
	for (i = v->nepisodes - 1; i >= 0 && nep < maxep; i--, nep++) {
		if ((y = screen_line(&lc)) < 0)
			continue;
		episode_line(s, &v->episodes[i], num[i], t1, buf, sizeof buf);
		text_put(s, y, r.x + 1, 1, s->attr[UI_EL_EPISODE], glyph_get(G_EPISODE, s->ascii), 0);
		text_put(s, y, r.x + 3, r.w - 4,
			 s->attr[v->episodes[i].proto == KG_PROTO_EAGER ? UI_EL_EAGER : UI_EL_COOP], buf, TEXT_ELLIPSIS);
	}
	if (v->nepisodes == 0 && (y = screen_line(&lc)) >= 0)
		text_put(s, y, r.x + 3, r.w - 4, s->attr[UI_EL_DIM], "no rebalance in this window (- zooms out, left scrolls back)",
			 TEXT_ELLIPSIS);
	if (v->nepisodes > 0)
		last = &v->episodes[v->nepisodes - 1];

	/* marker row: the span of each episode, its number where it fits before the next marker */
	for (i = 0; i < v->nepisodes; i++) {
		int64_t c = (v->episodes[i].start_us - t0) / scale;
		mc0[i] = c < 0 ? 0 : c > ncols ? ncols : (int)c;
	}
	if ((y = screen_line(&lc)) >= 0) {
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
			text_put(s, y, r.x + LABEL_W + c0, 1, s->attr[UI_EL_EPISODE], glyph_get(G_EPISODE, s->ascii), 0);
			/* up to the next marker that shows, or the end of the strip */
			room = (i + 1 < v->nepisodes ? KG_MIN(mc0[i + 1], ncols) : ncols) - c0 - 1;
			snprintf(label, sizeof label, "%d", num[i]);
			if ((int)strlen(label) <= room)
				text_put(s, y, r.x + LABEL_W + c0 + 1, room, s->attr[UI_EL_EPISODE], label, 0);
		}
	}

	if (!s->by_partition) {
		for (k = 0; k < v->nlanes; k++) {
			const kg_lane *l = &v->lanes[k];
			int si = -1, c, x;
			char letter[2] = { l->letter, 0 };
			bool any = false;
			for (i = 0; i < v->nsamples && !any; i++)
				any = k < v->samples[i].nlanes && v->samples[i].lane_status[k] != KG_LANE_ABSENT;
			if (!any)
				continue;
			if ((y = screen_line(&lc)) < 0)
				continue;
			text_put(s, y, r.x + 1, 1, s->attr[screen_owner_el(k)], letter, 0);
			text_put(s, y, r.x + 3, LABEL_W - 4, s->attr[l->present ? UI_EL_NORMAL : UI_EL_DIM], l->client_id,
				 TEXT_ELLIPSIS);
			for (c = 0, x = r.x + LABEL_W; c < ncols; c++, x++) {
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
			if (notes && last != NULL) {
				sbuf b = { 0 };
				int64_t lend = last->end_us ? last->end_us : t1;
				const kg_sample *at_end = hview_sample_at(v, lend);
				timeline_member_note(last, episode_member(last, k), sf, lane_present(v, k, last->start_us, lend),
					    at_end != NULL && k < at_end->nlanes && at_end->lane_status[k] != KG_LANE_ABSENT, &b);
				text_put(s, y, r.x + LABEL_W + ncols + 2, NOTE_W, s->attr[UI_EL_DIM], sbuf_str(&b), TEXT_ELLIPSIS);
				sbuf_free(&b);
			}
		}
	} else {
		const kg_sample *ref = v->nsamples > 0 ? &v->samples[v->nsamples - 1] : NULL;
		for (k = 0; ref != NULL && k < ref->nparts; k++) {
			kg_tp tp = ref->parts[k];
			int si = -1, c, x, prev_owner = -2;
			if ((y = screen_line(&lc)) < 0)
				continue;
			if (sf)
				text_putf(s, y, r.x + 1, LABEL_W - 2, s->attr[UI_EL_NORMAL], "p%d", (int)tp.partition);
			else
				text_putf(s, y, r.x + 1, LABEL_W - 2, s->attr[UI_EL_NORMAL], "%s:%d", intern_topic_name(tp.topic),
					  (int)tp.partition);
			for (c = 0, x = r.x + LABEL_W; c < ncols; c++, x++) {
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
	}
	if ((y = screen_line(&lc)) >= 0 && y < r.y + r.h) {
		sbuf b = { 0 };
		sbuf_addf(&b, "%s consuming  %s partly stopped  %s stopped  %s idle  (blank) absent",
			  glyph_get(G_CONSUMING, s->ascii), glyph_get(G_PARTIAL, s->ascii), glyph_get(G_STOPPED, s->ascii),
			  glyph_get(G_IDLE, s->ascii));
		if (s->by_partition)
			sbuf_adds(&b, "  ! orphaned  letter: new owner");
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], sbuf_str(&b), TEXT_ELLIPSIS);
		sbuf_free(&b);
	}
	s->view_rows = lc.line;
	free(num);
	free(mc0);
	hview_free(v);
}

const ui_pane view_timeline_pane = {
	.name = "timeline",
	.keys = "m + - w left right",
	.draw = view_timeline_draw,
};

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
 * since kgtop started), so a number stays with its episode as the window
 * slides and as old ones are trimmed; a marker's number is drawn only
 * where it fits before the next marker.  Start times count from kgtop's
 * start ("+2m57s"), or are clock times with w.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/intern.h"
#include "util/util.h"

/* the lanes' labels: as wide as the longest client id needs (this frame's, s->tl_label_w), from 14 to a third of the pane */
#define LABEL_MIN 14
#define LABEL_W (s->tl_label_w)
#define NOTE_NARROW 20 /* notes' width in a pane under 90 columns (80: a short note each) */
#define NOTE_W 32   /* under 100 columns */
#define NOTE_MAX 48 /* and at most, in wider ones (a third of the pane) */
#define MAX_EPLINES 3
#define TL_VERDICT_EVENTS 512 /* the newest events searched for verdict changes */
/* a leave this long before an episode began is what it is about (the tracker's TRIGGER_WINDOW) */
#define LEAVE_BEFORE_US (10LL * 1000000)

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
 * member-s  3 parts unconsumed 3.9 partition-s"; without the partitions
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
		sbuf_addf(b, "  %d part%s unconsumed ", e->nunconsumed, e->nunconsumed == 1 ? "" : "s");
		event_fmt_amount(b, e->unconsumed_us, e->nunconsumed, "partition", s->ascii);
	}
}

/*
 * What a closed episode cost in progress, after its moved partitions' count:
 * how long they waited for their new owner's first commit, from its
 * start (" unconsumed 3.1s", bounded by two refreshes, "≥4.0s" when one
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
		sbuf_addf(b, " unconsumed %s", d);
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
episode_line(const ui_screen *s, const kg_hview *v, const kg_episode *e, int64_t now, int width, char *buf, size_t n)
{
	char st[48], dur[48], gen[64] = "", rounds[32];
	size_t cut;
	int members, stopped = episode_stopped(v, e, now, &members), form;
	/* KIP-848: members reconcile each on its own (no round stops them all), the generation is the group epoch */
	const char *gw = e->proto == KG_PROTO_CONSUMER ? "epoch" : "gen";
	fmt_start(s, st, sizeof st, e->start_us);
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

/* What the view's samples say about lane k over [a, b] (see ui_lane_facts); why is left to the caller. */
static void
lane_facts(const kg_hview *v, int k, int64_t a, int64_t b, ui_lane_facts *f)
{
	int i;
	bool first = true;
	memset(f, 0, sizeof *f);
	for (i = 0; i < v->nsamples; i++) {
		const kg_sample *smp = &v->samples[i];
		int64_t until = i + 1 < v->nsamples ? v->samples[i + 1].time_us : INT64_MAX;
		bool in = lane_in(smp, k);
		if (smp->time_us > b) {
			f->later |= in;
			continue;
		}
		if (until <= a)
			continue;
		/* samples in effect during [a, b], in time order: the first at a, the last at b */
		if (first)
			f->at_start = in;
		first = false;
		f->at_end = in;
		if (in)
			f->during = true;
		else
			f->gap = true;
	}
}

/*
 * Why each lane last left within [a, b] (KG_REASON_NONE: not known), from
 * the group's events, newest first; a known reason beats "unknown" (a
 * coordinator's log line may name it after polling saw the member gone).
 * A lane with no such event that is still gone takes its last leave.
 */
static void
leave_reasons(ui_screen *s, const kg_hview *v, int64_t a, int64_t b, kg_reason *why)
{
	enum { BATCH = 64, MAX_SCAN = 4096 };
	kg_event *ev[BATCH];
	uint64_t before = 0;
	int n, i, k, scanned = 0;
	for (k = 0; k < v->nlanes; k++)
		why[k] = KG_REASON_NONE;
	while (s->hist != NULL && scanned < MAX_SCAN) {
		bool newer = false;
		n = history_events(s->hist, v->group, before, ev, BATCH);
		for (i = 0; i < n; i++) {
			const kg_event *e = ev[i];
			k = e->lane;
			/* event times are the sources' and not quite in order: look a little past a */
			newer |= e->time_us >= a - 2 * LEAVE_BEFORE_US;
			if (e->kind == KG_EV_MEMBER_LEFT && k >= 0 && k < v->nlanes && e->time_us >= a &&
			    e->time_us <= b && e->reason != KG_REASON_NONE &&
			    (why[k] == KG_REASON_NONE || why[k] == KG_REASON_UNKNOWN))
				why[k] = e->reason;
			before = e->seq;
			event_unref(ev[i]);
		}
		scanned += n;
		if (n < BATCH || !newer)
			break;
	}
	for (k = 0; k < v->nlanes; k++) {
		const kg_lane *l = &v->lanes[k];
		if ((why[k] == KG_REASON_NONE || why[k] == KG_REASON_UNKNOWN) && !l->present &&
		    l->last_leave != KG_REASON_NONE && l->last_seen_us >= a && l->last_seen_us <= b)
			why[k] = l->last_leave;
	}
}

/* A clause of a note: a word, a reason in parentheses, a partition set, a round. */
typedef struct nclause {
	const char *word;
	kg_reason why;   /* NONE: no parentheses (nor for "unknown") */
	const kg_tp *set;
	int nset;        /* -1: no set */
	int round;       /* 0: none */
} nclause;

/* How a note is written, from the longest form to the shortest. */
typedef enum nform {
	NOTE_LONG,      /* "kept [3 4 5], gave [0 1 2] in round 1" */
	NOTE_RANGES,    /* "kept [3-5], gave [0-2] in round 1" */
	NOTE_COMPACT,   /* "kept [3-5] gave [0-2] r1" */
	NOTE_SHORT_WHY, /* and "left (max.poll)" */
	NOTE_COUNTS,    /* and sets as counts where shorter: "had 333 parts" */
	NOTE_FORMS
} nform;

#define MAX_CLAUSES 8

/* A reason's shorter name, for the compact forms. */
static const char *
short_reason(kg_reason r)
{
	switch (r) {
	case KG_REASON_MAX_POLL: return "max.poll";
	case KG_REASON_SESSION_TIMEOUT: return "session";
	case KG_REASON_METADATA: return "metadata";
	default: return reason_name(r);
	}
}

/* A partition set with runs of three or more as ranges: "[0-2 5]", "[orders:0-2,5 payments:1]". */
static void
fmt_ranges(sbuf *b, const kg_tp *v, int n, bool sf)
{
	int i = 0;
	bool names = !(sf && tp_single_topic(v, n));
	sbuf_addc(b, '[');
	while (i < n) {
		int j = i;
		while (j + 1 < n && v[j + 1].topic == v[i].topic && v[j + 1].partition == v[j].partition + 1)
			j++;
		if (i > 0)
			sbuf_addc(b, names && v[i].topic == v[i - 1].topic ? ',' : ' ');
		if (names && (i == 0 || v[i].topic != v[i - 1].topic))
			sbuf_addf(b, "%s:", intern_topic_name(v[i].topic));
		if (j - i >= 2) {
			sbuf_addf(b, "%d-%d", (int)v[i].partition, (int)v[j].partition);
			i = j + 1;
		} else {
			sbuf_addf(b, "%d", (int)v[i].partition);
			i++;
		}
	}
	sbuf_addc(b, ']');
}

/* A partition set as a count ("333 parts"), or as ranges when they are no longer. */
static void
fmt_count(sbuf *b, const kg_tp *v, int n, bool sf)
{
	sbuf r = { 0 };
	char cnt[32];
	fmt_ranges(&r, v, n, sf);
	snprintf(cnt, sizeof cnt, "%d part%s", n, n == 1 ? "" : "s");
	sbuf_adds(b, strlen(sbuf_str(&r)) <= strlen(cnt) ? sbuf_str(&r) : cnt);
	sbuf_free(&r);
}

/* One clause in a form. */
static void
clause_fmt(const nclause *c, nform form, bool sf, sbuf *b)
{
	sbuf_adds(b, c->word);
	if (c->why != KG_REASON_NONE && c->why != KG_REASON_UNKNOWN)
		sbuf_addf(b, " (%s)", form >= NOTE_SHORT_WHY ? short_reason(c->why) : reason_name(c->why));
	if (c->nset >= 0) {
		sbuf_addc(b, ' ');
		if (form == NOTE_LONG)
			tp_format(b, c->set, c->nset, sf);
		else if (form < NOTE_COUNTS)
			fmt_ranges(b, c->set, c->nset, sf);
		else
			fmt_count(b, c->set, c->nset, sf);
	}
	if (c->round > 0)
		sbuf_addf(b, form >= NOTE_COMPACT ? " r%d" : " in round %d", c->round);
}

/* The clauses in a form, joined. */
static void
note_fmt(const nclause *c, int n, nform form, bool sf, sbuf *b)
{
	int i;
	for (i = 0; i < n; i++) {
		if (i > 0)
			sbuf_adds(b, form >= NOTE_COMPACT ? " " : ", ");
		clause_fmt(&c[i], form, sf, b);
	}
}

/*
 * The longest form that fits width columns; else the shortest cut after
 * the last clause (or word) that fits, with an ellipsis.
 */
static void
note_fit(const ui_screen *s, const nclause *c, int n, bool sf, int width, sbuf *out)
{
	sbuf t = { 0 };
	int f, i, w = 0;
	size_t cut;
	for (f = 0; f < NOTE_FORMS; f++) {
		sbuf_reset(&t);
		note_fmt(c, n, (nform)f, sf, &t);
		if (width <= 0 || text_width(s, sbuf_str(&t)) <= width) {
			sbuf_adds(out, sbuf_str(&t));
			sbuf_free(&t);
			return;
		}
	}
	/* whole clauses of the shortest form, then "..." */
	sbuf_reset(&t);
	for (i = 0; i < n; i++) {
		sbuf one = { 0 };
		clause_fmt(&c[i], NOTE_COUNTS, sf, &one);
		w = text_width(s, sbuf_str(&t)) + (i > 0) + text_width(s, sbuf_str(&one));
		if (w + 1 > width) {
			sbuf_free(&one);
			break;
		}
		if (i > 0)
			sbuf_addc(&t, ' ');
		sbuf_adds(&t, sbuf_str(&one));
		sbuf_free(&one);
	}
	if (i == 0) {
		/* not even the first clause: its words that fit */
		clause_fmt(&c[0], NOTE_COUNTS, sf, &t);
		if ((cut = text_cut_at(s, sbuf_str(&t), " ", width - 1)) == 0) {
			/* one long word: text_put cuts it with an ellipsis */
			sbuf_adds(out, sbuf_str(&t));
			sbuf_free(&t);
			return;
		}
		sbuf_addn(out, sbuf_str(&t), cut);
	} else {
		sbuf_adds(out, sbuf_str(&t));
	}
	sbuf_adds(out, glyph_get(G_ELLIPSIS, s->ascii));
	sbuf_free(&t);
}

/* Add a clause. */
static void
clause_add(nclause *c, int *n, const char *word, kg_reason why, const kg_tp *set, int nset, int round)
{
	if (*n >= MAX_CLAUSES)
		return;
	c[(*n)++] = (nclause){ word, why, set, nset, round };
}

/*
 * What an episode did to a lane (see screen.h).  Without a record: what
 * the samples saw.  With one: a lane gone at the end left (why), and had
 * what it held when the episode began (or what it got in it); one that
 * left and is back at the end rejoined; one that stayed gave all, or kept
 * some and gave the rest, and got what it got.
 */
void
timeline_member_note(const ui_screen *s, const kg_episode *e, const kg_episode_member *m, const ui_lane_facts *f,
		     bool sf, int width, sbuf *b)
{
	nclause c[MAX_CLAUSES];
	int n = 0, nk = 0;
	kg_tp *kept = NULL;
	if (m == NULL) {
		if (!f->during)
			clause_add(c, &n, f->later ? "joined after it" : "left before it", KG_REASON_NONE, NULL, -1, 0);
		else if (f->at_start && f->at_end && !f->gap)
			clause_add(c, &n, "untouched", KG_REASON_NONE, NULL, -1, 0);
		else if (f->at_start && f->at_end) {
			clause_add(c, &n, "left", f->why, NULL, -1, 0);
			clause_add(c, &n, "rejoined", KG_REASON_NONE, NULL, -1, 0);
		} else {
			if (!f->at_start)
				clause_add(c, &n, "joined", KG_REASON_NONE, NULL, -1, 0);
			if (!f->at_end)
				clause_add(c, &n, "left", f->why, NULL, -1, 0);
		}
	} else if (!f->at_end && !(f->later && f->why == KG_REASON_NONE && !m->left)) {
		/*
		 * gone when it ended: it left, holding what it had when it began (or got in it).
		 * Not when it is there after it with no leave known: samples are kept only when
		 * something changes, so a joiner may first show up in one after the episode's end.
		 */
		const kg_tp *had = m->nbefore > 0 ? m->before : m->nassigned > 0 ? m->assigned : m->revoked;
		int nhad = m->nbefore > 0 ? m->nbefore : m->nassigned > 0 ? m->nassigned : m->nrevoked;
		if (m->joined && !f->at_start)
			clause_add(c, &n, "joined", KG_REASON_NONE, NULL, -1, 0);
		clause_add(c, &n, "left", f->why, NULL, -1, 0);
		if (nhad > 0)
			clause_add(c, &n, "had", KG_REASON_NONE, had, nhad, 0);
	} else if (m->left) {
		/* left and came back */
		clause_add(c, &n, "left", f->why, NULL, -1, 0);
		clause_add(c, &n, "rejoined", KG_REASON_NONE, NULL, -1, 0);
		if (m->nassigned > 0)
			clause_add(c, &n, "got", KG_REASON_NONE, m->assigned, m->nassigned,
				   e->rounds > 1 ? m->round_assigned : 0);
	} else {
		if (m->joined)
			clause_add(c, &n, "joined", KG_REASON_NONE, NULL, -1, 0);
		if (m->cls == KG_CLASS_FULL) {
			clause_add(c, &n, "gave all", KG_REASON_NONE, m->revoked, m->nrevoked, 0);
		} else if (m->cls == KG_CLASS_INCREMENTAL) {
			kept = xcalloc((size_t)m->nbefore + 1, sizeof *kept);
			nk = tp_diff(m->before, m->nbefore, m->revoked, m->nrevoked, kept);
			clause_add(c, &n, "kept", KG_REASON_NONE, kept, nk, 0);
			clause_add(c, &n, "gave", KG_REASON_NONE, m->revoked, m->nrevoked, m->round_revoked);
		}
		if (m->nassigned > 0)
			clause_add(c, &n, "got", KG_REASON_NONE, m->assigned, m->nassigned,
				   e->rounds > 1 ? m->round_assigned : 0);
		if (n == 0)
			clause_add(c, &n, "untouched", KG_REASON_NONE, NULL, -1, 0);
	}
	note_fit(s, c, n, sf, width, b);
	free(kept);
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
draw_axis(ui_screen *s, ui_rect r, int ncols, int64_t scale)
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
draw_markers(ui_screen *s, const kg_hview *v, int y, ui_rect r, int ncols, int64_t t0, int64_t t1, int64_t scale)
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
draw_verdicts(ui_screen *s, const kg_group *g, int y, ui_rect r, int ncols, int64_t t0, int64_t scale)
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
draw_legend(ui_screen *s, int y, ui_rect r, int first, int last, int total, unsigned marks)
{
	sbuf b = { 0 };
	char pos[96] = "";
	int pw = 0;
	size_t k;
	sbuf_addf(&b, "%s consuming  %s partly stopped  %s stopped  %s idle  (blank) absent",
		  glyph_get(G_CONSUMING, s->ascii), glyph_get(G_PARTIAL, s->ascii), glyph_get(G_STOPPED, s->ascii),
		  glyph_get(G_IDLE, s->ascii));
	if (s->by_partition)
		sbuf_adds(&b, "  ! orphaned  letter: new owner");
	for (k = KG_ARRAY_LEN(vmarks); k-- > 0;) {
		if (marks & (1u << k))
			sbuf_addf(&b, "  %s %s", vmarks[k].mark, vmarks[k].words);
	}
	if (first > 0) {
		snprintf(pos, sizeof pos, "%s %d-%d of %d (PgUp PgDn)", s->by_partition ? "partitions" : "members", first,
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

/*
 * Why each lane left in the last episode of v: from its start (and a
 * leave just before, unless the episode before it covered that leave) to
 * its end (*lend; now, t1, while it is open).  The caller frees it.
 */
static kg_reason *
note_reasons(ui_screen *s, const kg_hview *v, int64_t t1, int64_t *lend)
{
	const kg_episode *last = &v->episodes[v->nepisodes - 1];
	const kg_episode *prev = v->nepisodes > 1 ? &v->episodes[v->nepisodes - 2] : NULL;
	int64_t from = last->start_us - LEAVE_BEFORE_US;
	kg_reason *why = xcalloc((size_t)v->nlanes + 1, sizeof *why);
	if (prev != NULL && prev->end_us != 0 && prev->end_us > from)
		from = prev->end_us;
	*lend = last->end_us ? last->end_us : t1;
	leave_reasons(s, v, from, *lend, why);
	return why;
}

/* A member's lane: letter, client id, strip. */
static void
draw_member_row(ui_screen *s, const kg_hview *v, const tl_row *row, int y, ui_rect r, int ncols, int64_t t0,
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
timeline_label_w(const ui_screen *s, const kg_hview *v, ui_rect r)
{
	int k, w = 0;
	for (k = 0; !s->by_partition && k < v->nlanes; k++)
		w = KG_MAX(w, text_width(s, v->lanes[k].client_id) + 4);
	return KG_MAX(LABEL_MIN, KG_MIN(w, r.w / 3));
}

/*
 * The lanes over the widest window the pane could show, with the labels
 * as wide as their names need (s->tl_label_w); *ncols: the strip's
 * columns beside the labels and the notes (notes_w, 0 none).
 */
static kg_hview *
timeline_window(ui_screen *s, const kg_group *g, ui_rect r, int notes_w, int64_t scale, int64_t t1, int *ncols)
{
	kg_hview *v;
	s->tl_label_w = LABEL_MIN;
	*ncols = KG_MAX(10, r.w - LABEL_W - 1 - notes_w);
	v = history_view(s->hist, g->id, t1 - scale * *ncols, t1);
	s->tl_label_w = timeline_label_w(s, v, r);
	*ncols = KG_MAX(10, r.w - LABEL_W - 1 - notes_w);
	return v;
}

/* Draw the timeline. */
static void
view_timeline_draw(ui_screen *s, const kg_group *g, ui_rect r)
{
	int64_t scale = screen_scale_us(s), t1 = screen_view_time(s), t0, lend = 0;
	bool notes = r.w >= 70 && !s->by_partition, sf = group_single_topic(g), sticky;
	int note_w = r.w < 90 ? NOTE_NARROW : r.w < 100 ? NOTE_W : KG_MIN(NOTE_MAX, r.w / 3);
	int ncols, y, i, nep, neplines, legend, region, nrows, nparts = 0;
	int maxtop, top, page, step, npages, bottom = r.y + r.h, y0, shown, first = 0, last_ord = 0;
	unsigned marks = 0;
	kg_hview *v;
	tl_row *rows;
	char buf[512];
	const kg_episode *last = NULL;
	kg_reason *why = NULL;
	v = timeline_window(s, g, r, notes ? note_w + 1 : 0, scale, t1, &ncols);
	t0 = t1 - scale * ncols;
	rows = s->by_partition ? partition_rows(g, v, &nrows, &nparts) : member_rows(v, &nrows);
	if (v->nepisodes > 0)
		last = &v->episodes[v->nepisodes - 1];

	/* fixed rows: axis, episode lines (or the hint) and markers above the lanes, the legend below */
	neplines = v->nepisodes > 0 ? KG_MIN(v->nepisodes, MAX_EPLINES) : 1;
	neplines = KG_MAX(1, KG_MIN(neplines, r.h - 3 - KG_MIN(nrows, 4)));
	legend = 1;
	region = r.h - 2 - neplines - legend;
	if (region < 1) {
		legend = 0;
		region = KG_MAX(0, r.h - 2 - neplines);
	}
	y0 = r.y + 2 + neplines;

	/*
	 * Only the lanes scroll.  PgDn moves s->scroll by the view's height
	 * less 2 (keys.c); here a page is the lanes' rows less one, so a page
	 * turns to the next with one row in common and no lane is skipped.
	 */
	sticky = s->by_partition && region >= 3;
	maxtop = KG_MAX(0, nrows - region);
	page = KG_MAX(1, r.h - 2);
	step = KG_MAX(1, region - 1);
	npages = maxtop > 0 ? (maxtop + step - 1) / step : 0;
	if (s->scroll > npages * page)
		s->scroll = npages * page;
	if (s->scroll < 0)
		s->scroll = 0;
	top = KG_MIN(maxtop, (int)((int64_t)s->scroll * step / page));
	s->view_rows = r.h + npages * page;

	if (r.h < 1) {
		free(rows);
		hview_free(v);
		return;
	}
	draw_axis(s, r, ncols, scale);

	/* episodes in the window, newest first */
	for (i = v->nepisodes - 1, nep = 0; i >= 0 && nep < neplines; i--, nep++) {
		if ((y = r.y + 1 + nep) >= bottom)
			break;
		episode_line(s, v, &v->episodes[i], t1, r.w - 4, buf, sizeof buf);
		text_put(s, y, r.x + 1, 1, s->attr[UI_EL_EPISODE], glyph_get(G_EPISODE, s->ascii), 0);
		text_put(s, y, r.x + 3, r.w - 4,
			 s->attr[v->episodes[i].proto == KG_PROTO_EAGER ? UI_EL_EAGER : UI_EL_COOP], buf, TEXT_ELLIPSIS);
	}
	if (v->nepisodes == 0 && r.y + 1 < bottom)
		text_put(s, r.y + 1, r.x + 3, r.w - 4, s->attr[UI_EL_DIM],
			 "no rebalance in this window (- zooms out, left scrolls back)", TEXT_ELLIPSIS);
	if (y0 - 1 < bottom) {
		marks = draw_verdicts(s, g, y0 - 1, r, ncols, t0, scale);
		draw_markers(s, v, y0 - 1, r, ncols, t0, t1, scale);
		if (notes && last != NULL)
			text_putf(s, y0 - 1, r.x + LABEL_W + ncols + 2, note_w, s->attr[UI_EL_DIM], "episode %d:", last->number);
	}

	/* what the last episode did to each member, from its start to its end */
	if (notes && last != NULL)
		why = note_reasons(s, v, t1, &lend);
	for (i = 0, shown = 0; i < region && top + i < nrows; i++, shown++) {
		const tl_row *row = &rows[top + i];
		y = y0 + i;
		/* the heading of the topic at the top stays while its partitions scroll */
		if (i == 0 && sticky && top > 0 && row->heading == 0)
			row = &rows[row->topic_row];
		if (row->ord > 0) {
			if (first == 0)
				first = row->ord;
			last_ord = row->ord;
		}
		if (row->heading > 0) {
			draw_heading(s, row, y, r);
		} else if (s->by_partition) {
			text_putf(s, y, r.x + 1, LABEL_W - 2, s->attr[UI_EL_NORMAL], "p%d", (int)row->tp.partition);
			draw_partition_strip(s, v, row->tp, y, r.x + LABEL_W, ncols, t0, scale);
		} else {
			draw_member_row(s, v, row, y, r, ncols, t0, scale);
			if (why != NULL) {
				ui_lane_facts f;
				sbuf b = { 0 };
				lane_facts(v, row->lane, last->start_us, lend, &f);
				f.why = why[row->lane];
				timeline_member_note(s, last, episode_member(last, row->lane), &f, sf, note_w, &b);
				text_put(s, y, r.x + LABEL_W + ncols + 2, note_w, s->attr[UI_EL_DIM], sbuf_str(&b), TEXT_ELLIPSIS);
				sbuf_free(&b);
			}
		}
	}
	if (nrows == 0 && region > 0) {
		/* an empty strip area would read as a drawing fault */
		text_put(s, y0, r.x + 3, r.w - 4, s->attr[UI_EL_DIM],
			 s->by_partition ? "no partitions known for this group" : "no members in this window", 0);
		shown = 1;
	}
	if (legend && y0 + shown < bottom)
		draw_legend(s, y0 + shown, r, maxtop > 0 ? first : 0, last_ord, s->by_partition ? nparts : nrows, marks);
	free(why);
	free(rows);
	hview_free(v);
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

/* Keys of the timeline: + - zoom, v compare, w clock or relative times (the events' too). */
static bool
view_timeline_key(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	switch (key) {
	case '+': case '=':
		if (s->zoom > 0)
			s->zoom--;
		return true;
	case '-': case '_':
		if (s->zoom < screen_nscales() - 1)
			s->zoom++;
		return true;
	case 'v':
		/* compare: the timeline of the selected group above the next one's */
		s->compare = s->view != UI_VIEW_TIMELINE || !s->compare;
		s->view = UI_VIEW_TIMELINE;
		s->scroll = 0;
		return true;
	case 'w':
		s->wall_clock = !s->wall_clock;
		return true;
	default:
		return false;
	}
}

/* The timeline's footer hints. */
static int
view_timeline_hints(const ui_screen *s, ui_hint *h, int max)
{
	int n = screen_hint(h, 0, max, "m", s->by_partition ? "per member" : "per partition", 1);
	n = screen_hint(h, n, max, "v", s->compare ? "one group" : "compare", 4);
	n = screen_hint(h, n, max, "+-", "zoom", 1);
	if (!s->paused)
		n = screen_hint(h, n, max, s->ascii ? "<-->" : "\u2190\u2192", "scroll", 1);
	return screen_hint(h, n, max, "w", s->wall_clock ? "relative" : "clock", 2);
}

/* Left/right scroll the timeline without pausing, eight columns a step. */
static int64_t
view_timeline_scroll_step(const ui_screen *s)
{
	return screen_scale_us(s) * 8;
}

static const ui_help view_timeline_help[] = {
	{ "+ -", "timeline: zoom in / out" },
	{ "v", "timeline: compare with the next group" },
	{ "w", "timeline and events: clock / relative times" },
	{ NULL, NULL },
};

const ui_pane view_timeline_pane = {
	.name = "timeline",
	.key = 't',
	.draw = view_timeline_draw,
	.key_fn = view_timeline_key,
	.hints = view_timeline_hints,
	.scroll_step = view_timeline_scroll_step,
	.help = view_timeline_help,
};

/*
 * view_timeline_note.c: beside each member's lane, in words, what the
 * last episode did to it: it left and why, what it kept, gave and got, in
 * which round; shortened to fit: ranges, then compact words, then counts,
 * then cut after a word with an ellipsis.  From the episode's member
 * records, the history's samples of the lane and the group's leave events.
 */
#include "config.h"

#include "ui/view_timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "util/util.h"

/* a leave this long before an episode began is what it is about (the tracker's TRIGGER_WINDOW) */
#define LEAVE_BEFORE_US (10LL * 1000000)

/* True when lane k is a member in a sample. */
static bool
lane_in(const kg_sample *smp, int k)
{
	return k < smp->nlanes && smp->lane_status[k] != KG_LANE_ABSENT;
}

/* What the view's samples say about lane k over [a, b] (see ui_lane_facts); why is left to the caller. */
void
timeline_lane_facts(const kg_hview *v, int k, int64_t a, int64_t b, ui_lane_facts *f)
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
			    (why[k] == KG_REASON_NONE || why[k] == KG_REASON_UNKNOWN || why[k] == KG_REASON_LEFT ||
			     why[k] == KG_REASON_TIMEOUT))
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
		if ((why[k] == KG_REASON_NONE || why[k] == KG_REASON_UNKNOWN || why[k] == KG_REASON_LEFT ||
		     why[k] == KG_REASON_TIMEOUT) && !l->present &&
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
	case KG_REASON_TIMEOUT: return "timeout";
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
	if (c->why != KG_REASON_NONE && c->why != KG_REASON_UNKNOWN && c->why != KG_REASON_LEFT)
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
	/* rounds are JoinGroup/SyncGroup generations: said when there were several; KIP-848 has none */
	bool rounds = e->rounds > 1 && e->proto != KG_PROTO_CONSUMER;
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
				   rounds ? m->round_assigned : 0);
	} else {
		if (m->joined)
			clause_add(c, &n, "joined", KG_REASON_NONE, NULL, -1, 0);
		if (m->cls == KG_CLASS_FULL) {
			clause_add(c, &n, "gave all", KG_REASON_NONE, m->revoked, m->nrevoked, 0);
		} else if (m->cls == KG_CLASS_INCREMENTAL) {
			kept = xcalloc((size_t)m->nbefore + 1, sizeof *kept);
			nk = tp_diff(m->before, m->nbefore, m->revoked, m->nrevoked, kept);
			clause_add(c, &n, "kept", KG_REASON_NONE, kept, nk, 0);
			clause_add(c, &n, "gave", KG_REASON_NONE, m->revoked, m->nrevoked, rounds ? m->round_revoked : 0);
		}
		if (m->nassigned > 0)
			clause_add(c, &n, "got", KG_REASON_NONE, m->assigned, m->nassigned,
				   rounds ? m->round_assigned : 0);
		if (n == 0)
			clause_add(c, &n, "untouched", KG_REASON_NONE, NULL, -1, 0);
	}
	note_fit(s, c, n, sf, width, b);
	free(kept);
}

/*
 * Why each lane left in the last episode of v: from its start (and a
 * leave just before, unless the episode before it covered that leave) to
 * its end (*lend; now, t1, while it is open).  The caller frees it.
 */
kg_reason *
timeline_note_reasons(ui_screen *s, const kg_hview *v, int64_t t1, int64_t *lend)
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


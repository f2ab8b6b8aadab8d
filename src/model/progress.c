/*
 * progress.c: verdicts, time lag and rates (see progress.h for the rules).
 *
 * The state: per topic id an array of log-end samples by partition; per
 * group id the partitions it had at its last judgement (sorted like a
 * snapshot's) with one kg_pstate each, walked in step with the snapshot's
 * partitions, so a judgement costs a few comparisons per partition.
 */
#include "config.h"

#include "model/progress.h"
#include "model/rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "util/util.h"

#define UNKNOWN_INTERVAL_US KG_SEC_US /* the refresh interval of a snapshot that does not say it */
#define FIRST_LOOK_US KG_SEC_US /* "older than kgtop's first look" says nothing while that look is younger */

/* ---------------------------------------------------------------- rules */

/* Reset a partition's state. */
void
progress_state_init(kg_pstate *st)
{
	memset(st, 0, sizeof *st);
	st->committed = -1;
}

/* Free what a partition's state holds. */
void
progress_state_free(kg_pstate *st)
{
	free(st->rare);
	free(st->move);
	progress_state_init(st);
}

/* Its moves, made at the first: the anchors' offsets were the committed offset until then. */
static kg_pmove *
move_get(kg_pstate *st)
{
	if (st->move == NULL) {
		st->move = xcalloc(1, sizeof *st->move);
		st->move->anchor_c = st->move->anchor2_c = st->committed;
	}
	return st->move;
}

/* An anchor's committed offset (the first: 0, the second: 1). */
static int64_t
anchor_c(const kg_pstate *st, int which)
{
	if (st->move == NULL)
		return st->committed;
	return which == 0 ? st->move->anchor_c : st->move->anchor2_c;
}

/* The partition's rare facts, made on first use. */
static kg_prare *
rare_get(kg_pstate *st)
{
	if (st->rare == NULL) {
		st->rare = xcalloc(1, sizeof *st->rare);
		st->rare->cmt_off = -1;
	}
	return st->rare;
}

/* The commit a source told that got the partition to committed (rare set, cmt_off == committed), NULL none. */
static const kg_prare *
told_commit(const kg_pstate *st, int64_t committed)
{
	const kg_prare *r = st->rare;
	return r != NULL && r->cmt_off >= 0 && r->cmt_off == committed && r->cmt_at > 0 ? r : NULL;
}

/* A commit a source told: the offset at broker time t (in the log's order; an older one is ignored). */
void
progress_commit(kg_pstate *st, int64_t t, int64_t offset)
{
	kg_prare *r;
	if (offset < 0 || t <= 0 || (st->rare != NULL && t < st->rare->cmt_last))
		return;
	r = rare_get(st);
	if (offset != r->cmt_off) {
		r->cmt_moved = r->cmt_off >= 0; /* the one before was of another offset: this one moved it, at t */
		r->cmt_off = offset;
		r->cmt_at = t;
	}
	r->cmt_last = t;
}

/* A commit sample at t with lag: a run of growing lag goes on or ends. */
static void
slow_sample(kg_pmove *m, int64_t t, int64_t lag, int64_t window_us)
{
	if (m->sample_us > 0 && t - m->sample_us < window_us / KG_SLOW_SAMPLES)
		return; /* one sample per step of the window */
	if (m->sample_us > 0 && lag > m->sample_lag) {
		if (m->slow_us == 0) {
			m->slow_us = m->sample_us;
			m->slow_n = 1;
		}
		m->slow_n++;
	} else {
		m->slow_us = 0;
		m->slow_n = 0;
	}
	m->sample_us = t;
	m->sample_lag = lag;
}

/* One observation at data time t. */
void
progress_observe(kg_pstate *st, int64_t t, int64_t committed, int64_t log_end, int64_t window_us)
{
	int64_t lag;
	if (committed < 0 || log_end < 0 || t <= st->seen_us)
		return;
	lag = log_end > committed ? log_end - committed : 0;
	if (st->seen_us == 0) {
		st->first_us = t;
		st->anchor_us = st->anchor2_us = t;
	} else if (committed != st->committed) {
		/* a move after a long stop says little of the usual pace: a gap counts up to a quarter window */
		bool first = st->move == NULL;
		kg_pmove *m = move_get(st);
		int64_t gap = KG_MIN(t - (!first ? m->move_us : st->first_us), window_us / 4);
		m->gap_us = m->gap_us == 0 ? gap : (3 * m->gap_us + gap) / 4;
		m->move_us = t;
		m->move_lo_us = st->seen_us;
		st->lag_from_us = 0;
		if (committed < st->committed) {
			/* back: the consumer reads again what it read; the rates and runs start over */
			kg_prare *r = rare_get(st);
			r->rewind_us = t;
			r->rewind_lo_us = st->seen_us;
			r->rewind_by = st->committed - committed;
			m->slow_us = m->sample_us = 0;
			m->slow_n = 0;
			st->anchor_us = st->anchor2_us = t;
			m->anchor_c = m->anchor2_c = committed;
		} else {
			slow_sample(m, t, lag, window_us);
		}
	}
	if (lag == 0) {
		st->zero_us = t;
		st->lag_from_us = 0;
		if (st->move != NULL) {
			st->move->slow_us = 0;
			st->move->slow_n = 0;
		}
	} else if (st->lag_from_us == 0) {
		st->lag_from_us = t;
	}
	if (t - st->anchor2_us >= window_us / 2 && committed >= anchor_c(st, 1)) {
		st->anchor_us = st->anchor2_us;
		st->anchor2_us = t;
		if (st->move != NULL) {
			st->move->anchor_c = st->move->anchor2_c;
			st->move->anchor2_c = committed;
		}
	}
	st->committed = committed;
	st->seen_us = t;
}

/*
 * The stall threshold: a tenth of the window, at least two refresh
 * intervals.  A snapshot that does not say its interval (no cluster
 * source refreshed it: tests, a recording older than refresh numbers) is
 * judged as if it were a second.
 */
int64_t
progress_stall_us(int64_t window_us, int64_t interval_us)
{
	int64_t floor_us = 2 * (interval_us > 0 ? interval_us : UNKNOWN_INTERVAL_US);
	return KG_MAX(window_us / 10, floor_us);
}

/* What S is known by: when the committed offset got where it is (F) and the log-end passed it (L), within bounds. */
typedef struct since_bounds {
	int64_t f_lo, f_hi, l_lo, l_hi;
	bool f_told, l_record;  /* F's earliest from a told commit, L's from the record */
	bool moved;             /* the offset was seen (or told) moving */
} since_bounds;

/* The bounds of F and L for a partition with lag at committed (progress.h: "S"). */
static void
since_of(const kg_pstate *st, const kg_judge_in *in, since_bounds *b)
{
	const kg_prare *told;
	memset(b, 0, sizeof *b);
	b->moved = st->move != NULL;
	/* F: kgtop's refreshes saw it move between two of them, or it was so from before the first */
	b->f_hi = st->move != NULL ? st->move->move_us : st->first_us;
	b->f_lo = st->move != NULL ? st->move->move_lo_us : 0;
	if ((told = told_commit(st, in->committed)) != NULL) {
		/* a source told the commit: it got there at cmt_at (exact when that commit moved it), or before */
		b->f_hi = KG_MIN(b->f_hi, told->cmt_at);
		if (told->cmt_moved) {
			b->f_lo = b->f_hi = told->cmt_at;
			b->f_told = true;
			b->moved = true;
		}
		if (b->f_lo > b->f_hi)
			b->f_lo = b->f_hi;
	}
	/* L: after the last observation without lag, at or before the first with it */
	b->l_hi = st->lag_from_us > 0 ? st->lag_from_us : in->t;
	b->l_lo = st->zero_us > 0 && st->zero_us < b->l_hi ? st->zero_us : 0;
	if (in->record_us > 0 && in->record_us <= b->l_hi) {
		/* the record waiting at the committed offset was written then: the log-end passed it then */
		b->l_lo = b->l_hi = in->record_us;
		b->l_record = true;
	}
}

/* S's bounds and what names them: the later of F and L, each at its earliest and at its latest. */
static void
since_join(const since_bounds *b, kg_judgement *out)
{
	out->since_hi = KG_MAX(b->f_hi, b->l_hi);
	out->since_lo = KG_MAX(b->f_lo, b->l_lo); /* S is past both earliest times (0: neither known) */
	if (out->since_lo <= 0)
		out->kind = KG_SINCE_BEFORE;
	else if (b->l_record && b->l_lo >= b->f_lo)
		out->kind = KG_SINCE_RECORD;
	else if (b->f_told && b->f_lo >= b->l_lo)
		out->kind = KG_SINCE_COMMIT;
	else
		out->kind = KG_SINCE_WATCHED;
}

/* Judge a partition: the rules of progress.h, first that holds. */
void
progress_judge(const kg_pstate *st, const kg_judge_in *in, kg_judgement *out)
{
	since_bounds b;
	int64_t from, thr;
	bool judge = true;
	memset(out, 0, sizeof *out);
	out->verdict = KG_VERDICT_NONE;
	if (in->committed < 0 || in->log_end < 0 || st->seen_us == 0)
		return;
	if (in->log_start >= 0 && in->committed < in->log_start) {
		out->verdict = KG_VERDICT_LOST;
		return;
	}
	out->verdict = KG_VERDICT_OK;
	if (in->log_end <= in->committed)
		return;
	since_of(st, in, &b);
	since_join(&b, out);
	out->frozen_hi = out->since_hi;
	thr = KG_MAX(in->stall_us, 2 * (st->move != NULL ? st->move->gap_us : 0));
	from = out->since_hi;
	/* a freeze not yet overdue when a rebalance began counts from the rebalance's end: commits
	 * pause while a group rebalances (refused, or held by the clients) whether or not it consumes */
	if (in->reb_start > 0 && in->reb_start - from < thr) {
		if (in->reb_end < in->reb_start)
			judge = false;
		else
			from = KG_MAX(from, in->reb_end);
	}
	if (judge && in->t - from >= in->window_us) {
		out->verdict = KG_VERDICT_STOPPED;
		return;
	}
	if (judge && in->t - from >= thr) {
		out->verdict = KG_VERDICT_STALLED;
		return;
	}
	out->since_lo = out->since_hi = 0;
	out->kind = KG_SINCE_NONE;
	if (!b.moved) {
		out->verdict = KG_VERDICT_PENDING; /* never seen moving, not frozen long enough: not judged yet */
		return;
	}
	if (st->rare != NULL && st->rare->rewind_us > 0 && in->t - st->rare->rewind_us < in->window_us) {
		out->verdict = KG_VERDICT_REWIND;
		out->since_lo = st->rare->rewind_lo_us;
		out->since_hi = st->rare->rewind_us;
		out->kind = KG_SINCE_WATCHED;
		return;
	}
	if (st->move != NULL && st->move->slow_us > 0 && st->move->slow_n >= 3 &&
	    in->t - st->move->slow_us >= in->window_us / 2 && (st->zero_us == 0 || st->zero_us < in->t - in->window_us)) {
		out->verdict = KG_VERDICT_SLOW;
		out->since_lo = out->since_hi = st->move->slow_us;
		out->kind = KG_SINCE_WATCHED;
		return;
	}
	out->verdict = KG_VERDICT_OK;
}

/* The verdict at data time t with its since at the latest: progress_judge() without a record read. */
kg_verdict
progress_verdict(const kg_pstate *st, int64_t t, int64_t committed, int64_t log_end, int64_t log_start,
		 int64_t window_us, int64_t stall_us, int64_t reb_start, int64_t reb_end, int64_t *since)
{
	kg_judge_in in = { t, committed, log_end, log_start, window_us, stall_us, reb_start, reb_end, 0 };
	kg_judgement j;
	progress_judge(st, &in, &j);
	*since = j.since_hi;
	return j.verdict;
}

/* Records per second the committed offset moved since the older anchor. */
double
progress_consume_rate(const kg_pstate *st)
{
	int64_t c0 = anchor_c(st, 0);
	if (st->seen_us <= st->anchor_us || st->committed < c0)
		return -1;
	return (double)(st->committed - c0) * 1e6 / (double)(st->seen_us - st->anchor_us);
}

/* A lag as a sparkline level. */
uint8_t
progress_spark_level(int64_t lag)
{
	double l;
	if (lag <= 0)
		return 1;
	l = 2.0 + 4.0 * log2((double)lag + 1.0);
	return (uint8_t)(l > 255 ? 255 : l);
}

/* Add the lag at t to the sparkline: a step per window / KG_SPARK, the largest lag of the step. */
void
progress_spark(kg_pstate *st, int64_t t, int64_t lag, int64_t window_us)
{
	int64_t step = KG_MAX(window_us / KG_SPARK, 1), at = t / step, d;
	uint8_t lv;
	if (lag < 0)
		return;
	if (at > st->spark_at) {
		d = at - st->spark_at;
		if (d >= KG_SPARK || st->spark_at == 0) {
			memset(st->spark, 0, sizeof st->spark);
		} else {
			memmove(st->spark, st->spark + d, (size_t)(KG_SPARK - d));
			memset(st->spark + KG_SPARK - d, 0, (size_t)d);
		}
		st->spark_at = at;
	} else if (at < st->spark_at) {
		return;
	}
	lv = progress_spark_level(lag);
	if (lv > st->spark[KG_SPARK - 1])
		st->spark[KG_SPARK - 1] = lv;
}

/* Remove sample i. */
static void
le_remove(kg_lesamples *s, int i)
{
	memmove(s->t + i, s->t + i + 1, (size_t)(s->n - i - 1) * sizeof *s->t);
	memmove(s->le + i, s->le + i + 1, (size_t)(s->n - i - 1) * sizeof *s->le);
	s->n--;
}

/* Room for more samples: 2, 4, 8, then KG_LE_SAMPLES. */
static void
le_grow(kg_lesamples *s)
{
	int cap = s->cap == 0 ? 2 : KG_MIN(2 * s->cap, KG_LE_SAMPLES);
	int64_t *v = xreallocarray(s->t, 2 * (size_t)cap, sizeof *v);
	/* the log-ends were at v + the old cap: up to v + cap (the areas may overlap: memmove) */
	memmove(v + cap, v + s->cap, (size_t)s->n * sizeof *v);
	s->t = v;
	s->le = v + cap;
	s->cap = cap;
}

/* Free a partition's samples. */
void
progress_le_free(kg_lesamples *s)
{
	free(s->t);
	memset(s, 0, sizeof *s);
}

/* A log-end sample at t; true when the samples changed. */
bool
progress_le_add(kg_lesamples *s, int64_t t, int64_t log_end, int64_t keep_us)
{
	int i, best = -1, n0 = s->n;
	double cost = 0;
	if (log_end < 0 || (s->n > 0 && t <= s->t[s->n - 1]))
		return false;
	if (s->n > 0 && log_end < s->le[s->n - 1])
		s->n = 0; /* the log went back (the topic made again): nothing before says anything now */
	/* samples past what is kept go, but one stays for "at least its age" */
	while (s->n > 1 && s->t[1] < t - keep_us)
		le_remove(s, 0);
	if (s->n > 0 && log_end == s->le[s->n - 1]) {
		/* the same log-end: its first sample already says when it got there */
		return s->n != n0;
	}
	if (s->n == s->cap && s->cap < KG_LE_SAMPLES)
		le_grow(s);
	if (s->n == KG_LE_SAMPLES) {
		/* drop the sample whose neighbours are closest for its age: recent ones stay dense */
		for (i = 1; i < s->n - 1; i++) {
			double c = (double)(s->t[i + 1] - s->t[i - 1]) / (double)KG_MAX(t - s->t[i], 1);
			if (best < 0 || c < cost) {
				best = i;
				cost = c;
			}
		}
		le_remove(s, best);
	}
	s->t[s->n] = t;
	s->le[s->n] = log_end;
	s->n++;
	return true;
}

/* Records per second the log-end grew over the window before now. */
double
progress_produce_rate(const kg_lesamples *s, int64_t now_us, int64_t window_us)
{
	int j;
	if (s == NULL || s->n < 2)
		return -1;
	for (j = 0; j < s->n - 2 && s->t[j] < now_us - window_us; j++)
		;
	if (s->t[s->n - 1] <= s->t[j])
		return -1;
	/* the last sample may be older than now: a log-end that has not moved since */
	return (double)(s->le[s->n - 1] - s->le[j]) * 1e6 / (double)(KG_MAX(now_us, s->t[s->n - 1]) - s->t[j]);
}

/* The estimate: when the log-end passed committed. */
kg_tlag_kind
progress_interpolate(const kg_lesamples *s, int64_t committed, int64_t now_us, int64_t *lag_us, kg_tlag_why *why)
{
	int i;
	double f, at;
	*lag_us = -1;
	*why = KG_TLAG_NO_SAMPLES;
	if (s == NULL || s->n == 0)
		return KG_TLAG_NONE;
	for (i = 0; i < s->n && s->le[i] <= committed; i++)
		;
	if (i == s->n)
		return KG_TLAG_NONE;
	if (i == 0) {
		/* past committed at the oldest sample (one stays while the log-end stands still): older than that */
		if (now_us - s->t[0] < FIRST_LOOK_US)
			return KG_TLAG_NONE; /* "older than kgtop's first look", under a second ago, says nothing yet */
		*why = KG_TLAG_WHY_NONE;
		*lag_us = now_us - s->t[0];
		return KG_TLAG_ATLEAST;
	}
	/* the record at committed was written when the log-end went past it */
	f = (double)(committed + 1 - s->le[i - 1]) / (double)(s->le[i] - s->le[i - 1]);
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	at = (double)s->t[i - 1] + f * (double)(s->t[i] - s->t[i - 1]);
	*lag_us = (double)now_us > at ? (int64_t)((double)now_us - at) : 0;
	*why = KG_TLAG_WHY_NONE;
	return KG_TLAG_ESTIMATE;
}

/* The time lag at now of a committed offset. */
kg_tlag_kind
progress_time_lag(const kg_lesamples *s, const kg_stamp *stamp, int64_t committed, int64_t log_end, int64_t log_start,
		  int64_t now_us, int64_t *lag_us, kg_tlag_why *why)
{
	kg_tlag_why read_why = KG_TLAG_WHY_NONE;
	kg_tlag_kind k;
	*lag_us = -1;
	*why = KG_TLAG_WHY_NONE;
	if (committed < 0 || log_end < 0) {
		*why = KG_TLAG_NO_OFFSETS;
		return KG_TLAG_NONE;
	}
	if (log_start >= 0 && committed < log_start) {
		*why = KG_TLAG_DELETED;
		return KG_TLAG_NONE;
	}
	if (committed >= log_end) {
		*lag_us = 0; /* nothing to consume: no record waits */
		return KG_TLAG_EXACT;
	}
	if (stamp != NULL && stamp->offset == committed) {
		if (stamp->why == KG_TLAG_WHY_NONE && stamp->record == committed && stamp->ts_ms >= 0) {
			*lag_us = now_us - stamp->ts_ms * 1000;
			if (*lag_us < 0) {
				*lag_us = 0;
				*why = KG_TLAG_SKEW;
			}
			return KG_TLAG_EXACT;
		}
		read_why = stamp->why != KG_TLAG_WHY_NONE ? (kg_tlag_why)stamp->why
			   : stamp->record != committed   ? KG_TLAG_GAP
							  : KG_TLAG_NO_TIMESTAMP;
	}
	k = progress_interpolate(s, committed, now_us, lag_us, why);
	if (read_why != KG_TLAG_WHY_NONE)
		*why = read_why;
	return k;
}

/* ---------------------------------------------------------- the state */

/* One topic's samples by partition. */
typedef struct ptopic {
	kg_lesamples *s;
	int n;
	uint64_t changed;         /* the apply (kg_progress.applied) its samples last changed in */
	bool flat;                /* no partition has two samples: no produce rate, none that moves with the clock */
	int64_t at;               /* the data time of the last samples taken */
	const kg_topic *cur;      /* the snapshot's topic in this apply, NULL when it has none */
} ptopic;

/* A group's roll-ups as its last judgement left them (group_rollup), for a judgement its kept rows make needless. */
typedef struct prollup {
	uint8_t verdict, tlag_kind, since_kind;
	int64_t time_lag_us, time_lag_from_us, since_us, since_lo_us, lost;
	int nverdict[KG_VERDICT_COUNT];
} prollup;

#define REST_TOPICS 4 /* a group judged at rest uses at most this many topics */

/* One group's partitions and their states, sorted like a snapshot's. */
typedef struct pgroup {
	kg_tp *tp;
	kg_pstate *st;
	int n;
	int64_t data_us;          /* the data time of its last observation */
	/* what a judgement of kept rows would find the same (group_at_rest) */
	uint64_t rows_id;         /* the kept rows its last judgement wrote (rows.h), 0 none or since changed */
	uint64_t judged_at;       /* the apply it was judged in */
	int64_t stall_us, reb_start, reb_end, spark_at;
	int64_t wake_us;          /* when a time lag or a record's time changes with the clock alone */
	int32_t topics[REST_TOPICS];
	int ntopics;              /* -1: more than REST_TOPICS */
	prollup roll;
} pgroup;

struct kg_progress {
	int64_t window_us;
	int64_t keep_us;
	ptopic *topics;           /* by topic id */
	size_t ntopics;
	pgroup **groups;          /* by group id */
	size_t ngroups;
	uint64_t applied;         /* progress_topics() calls: a topic whose cur is from another is not in this snapshot */
	bool last;                /* progress_set_last: no judgement after these */
	size_t nlesamples;        /* topic partitions held */
};

/* Create the state. */
kg_progress *
progress_new(int64_t window_us, int64_t keep_us)
{
	kg_progress *p = xcalloc(1, sizeof *p);
	p->window_us = window_us;
	p->keep_us = keep_us;
	return p;
}

/* Free a group's state. */
static void
pgroup_free(pgroup *g)
{
	int i;
	if (g == NULL)
		return;
	for (i = 0; i < g->n; i++)
		progress_state_free(&g->st[i]);
	free(g->tp);
	free(g->st);
	free(g);
}

/* Free the state. */
void
progress_free(kg_progress *p)
{
	size_t i;
	if (p == NULL)
		return;
	for (i = 0; i < p->ntopics; i++) {
		int k;
		for (k = 0; k < p->topics[i].n; k++)
			progress_le_free(&p->topics[i].s[k]);
		free(p->topics[i].s);
	}
	free(p->topics);
	for (i = 0; i < p->ngroups; i++)
		pgroup_free(p->groups[i]);
	free(p->groups);
	free(p);
}

/* The window. */
int64_t
progress_window(const kg_progress *p)
{
	return p->window_us;
}

/* The samples of a topic id, made on demand. */
static ptopic *
topic_get(kg_progress *p, int32_t id)
{
	if (id < 0)
		return NULL;
	if ((size_t)id >= p->ntopics) {
		size_t old = p->ntopics, n = old ? old : 64;
		while (n <= (size_t)id)
			n *= 2;
		p->topics = xreallocarray(p->topics, n, sizeof *p->topics);
		memset(p->topics + old, 0, (n - old) * sizeof *p->topics);
		p->ntopics = n;
	}
	return &p->topics[id];
}

/* Take the snapshot's log-end samples. */
void
progress_topics(kg_progress *p, const kg_snapshot *s)
{
	int64_t at = s->data_time_us > 0 ? s->data_time_us : s->time_us;
	uint64_t apply = p->applied + 1;
	size_t i;
	int j, k;
	for (i = 0; i < p->ntopics; i++)
		p->topics[i].cur = NULL;
	for (j = 0; j < s->ntopics; j++) {
		const kg_topic *t = &s->topics[j];
		ptopic *pt = topic_get(p, t->id);
		if (pt == NULL)
			continue;
		pt->cur = t;
		if (t->npartitions > pt->n) {
			pt->s = xreallocarray(pt->s, (size_t)t->npartitions, sizeof *pt->s);
			memset(pt->s + pt->n, 0, (size_t)(t->npartitions - pt->n) * sizeof *pt->s);
			p->nlesamples += (size_t)(t->npartitions - pt->n);
			pt->n = t->npartitions;
			pt->changed = apply;
		}
		if (at <= pt->at)
			continue;
		pt->at = at;
		for (k = 0; k < t->npartitions; k++) {
			if (progress_le_add(&pt->s[k], at, t->partitions[k].log_end, p->keep_us))
				pt->changed = apply;
		}
		if (pt->changed == apply) {
			pt->flat = true;
			for (k = 0; k < pt->n && pt->flat; k++)
				pt->flat = pt->s[k].n < 2;
		}
	}
	p->applied = apply;
}

/* The group's state, made on demand. */
static pgroup *
group_get(kg_progress *p, int32_t id)
{
	if ((size_t)id >= p->ngroups) {
		size_t old = p->ngroups, n = old ? old : 64;
		while (n <= (size_t)id)
			n *= 2;
		p->groups = xreallocarray(p->groups, n, sizeof *p->groups);
		memset(p->groups + old, 0, (n - old) * sizeof *p->groups);
		p->ngroups = n;
	}
	if (p->groups[id] == NULL)
		p->groups[id] = xcalloc(1, sizeof *p->groups[id]);
	return p->groups[id];
}

/* Make g's partitions those of G, keeping the states of the ones it had (both sorted). */
static void
group_align(pgroup *g, const kg_group *G)
{
	kg_tp *tp;
	kg_pstate *st;
	int i = 0, k;
	bool same = g->n == G->nparts;
	for (k = 0; same && k < G->nparts; k++)
		same = tp_same(g->tp[k], G->parts[k].tp);
	if (same)
		return;
	tp = xmalloc((size_t)(G->nparts ? G->nparts : 1) * sizeof *tp);
	st = xmalloc((size_t)(G->nparts ? G->nparts : 1) * sizeof *st);
	for (k = 0; k < G->nparts; k++) {
		while (i < g->n && tp_cmp(&g->tp[i], &G->parts[k].tp) < 0)
			i++;
		tp[k] = G->parts[k].tp;
		if (i < g->n && tp_cmp(&g->tp[i], &tp[k]) == 0) {
			st[k] = g->st[i];
			g->st[i].rare = NULL; /* moved to st[k] */
			g->st[i].move = NULL;
		} else {
			progress_state_init(&st[k]);
		}
	}
	for (i = 0; i < g->n; i++)
		progress_state_free(&g->st[i]); /* the partitions the group no longer has */
	free(g->tp);
	free(g->st);
	g->tp = tp;
	g->st = st;
	g->n = G->nparts;
}

/* Add a change of verdict. */
static void
change_add(kg_vchange **ch, size_t *cap, int *n, int part, uint8_t from, const kg_judgement *j)
{
	util_grow(ch, cap, (size_t)*n + 1, sizeof **ch);
	(*ch)[*n].part = part;
	(*ch)[*n].from = from;
	(*ch)[*n].to = (uint8_t)j->verdict;
	(*ch)[*n].since = j->since_hi;
	(*ch)[*n].since_lo = j->since_lo;
	(*ch)[*n].kind = (uint8_t)j->kind;
	(*n)++;
}

/* The record read at a partition's committed offset in this snapshot, NULL none. */
static const kg_stamp *
part_stamp(kg_progress *p, const kg_gpart *gp)
{
	ptopic *pt = (size_t)gp->tp.topic < p->ntopics ? &p->topics[gp->tp.topic] : NULL;
	if (pt != NULL && pt->cur != NULL && gp->tp.partition < pt->cur->npartitions) {
		const kg_partition *p0 = &pt->cur->partitions[gp->tp.partition];
		const kg_stamp *s = partition_stamp(p0, gp->committed);
		return s != NULL ? s : &p0->stamp; /* not at its offset: the read's failure still says why */
	}
	return NULL;
}

/* The time the record at committed was written, when the read says (0 not known, or ahead of now: skew). */
static int64_t
record_time(const kg_stamp *stamp, int64_t committed, int64_t now)
{
	if (stamp == NULL || stamp->offset != committed || stamp->why != KG_TLAG_WHY_NONE || stamp->record != committed ||
	    stamp->ts_ms < 0 || stamp->ts_ms * 1000 > now)
		return 0;
	return stamp->ts_ms * 1000;
}

/* A partition's time lag and produce rate from its topic's samples and the record read; *wake lowered to when
 * either changes with the clock alone but as the age of a fixed origin. */
static void
part_time_lag(kg_progress *p, kg_gpart *gp, const kg_stamp *stamp, int64_t now, int64_t *wake)
{
	ptopic *pt = (size_t)gp->tp.topic < p->ntopics ? &p->topics[gp->tp.topic] : NULL;
	const kg_lesamples *s = pt != NULL && gp->tp.partition < pt->n ? &pt->s[gp->tp.partition] : NULL;
	kg_tlag_why why;
	if (stamp != NULL && stamp->ts_ms >= 0 && stamp->ts_ms * 1000 > now)
		*wake = KG_MIN(*wake, stamp->ts_ms * 1000); /* a record ahead of the clock: skew until then */
	if (s != NULL && s->n > 0 && s->t[0] + FIRST_LOOK_US > now)
		*wake = KG_MIN(*wake, s->t[0] + FIRST_LOOK_US); /* "older than kgtop's first look" says something from then */
	gp->tlag_kind = (uint8_t)progress_time_lag(s, stamp, gp->committed, gp->log_end, gp->log_start, now,
						   &gp->time_lag_us, &why);
	gp->tlag_why = (uint8_t)why;
	/* an age that grows with the clock: its origin, so a reader of --json deltas can age it (and a clamped 0 does not grow) */
	gp->time_lag_from_us = gp->tlag_kind != KG_TLAG_NONE && gp->time_lag_us > 0 ? now - gp->time_lag_us : 0;
	gp->produce_rate = (float)progress_produce_rate(s, now, p->window_us);
}

/* Keep G's roll-ups for a judgement its kept rows make needless. */
static void
rollup_save(prollup *r, const kg_group *G)
{
	r->verdict = G->verdict;
	r->tlag_kind = G->tlag_kind;
	r->since_kind = G->since_kind;
	r->time_lag_us = G->time_lag_us;
	r->time_lag_from_us = G->time_lag_from_us;
	r->since_us = G->verdict_since_us;
	r->since_lo_us = G->verdict_since_lo_us;
	r->lost = G->lost;
	memcpy(r->nverdict, G->nverdict, sizeof r->nverdict);
}

/* G's roll-ups as they were, its time lag aged to now. */
static void
rollup_restore(const prollup *r, kg_group *G, int64_t now)
{
	G->verdict = r->verdict;
	G->tlag_kind = r->tlag_kind;
	G->since_kind = r->since_kind;
	G->time_lag_us = r->time_lag_from_us > 0 ? now - r->time_lag_from_us : r->time_lag_us;
	G->time_lag_from_us = r->time_lag_from_us;
	G->verdict_since_us = r->since_us;
	G->verdict_since_lo_us = r->since_lo_us;
	G->lost = r->lost;
	memcpy(G->nverdict, r->nverdict, sizeof G->nverdict);
}

/* The distinct topics of G's partitions (sorted by topic), -1 when more than REST_TOPICS. */
static int
group_topics_of(const kg_group *G, int32_t *v)
{
	int k, n = 0;
	for (k = 0; k < G->nparts; k++) {
		if (n > 0 && v[n - 1] == G->parts[k].tp.topic)
			continue;
		if (n == REST_TOPICS)
			return -1;
		v[n++] = G->parts[k].tp.topic;
	}
	return n;
}

/*
 * True when a judgement of G would write what its kept rows say (rows.h):
 * the rows its last judgement wrote, no observation since (not asked
 * again, no commit told), the rebalance and the stall threshold the same,
 * its topics' samples unchanged and without a rate that moves with the
 * clock, its sparklines in the same step and no time lag or record whose
 * reading changes with the clock alone (a verdict is judged at the data's
 * time, not the clock's: progress_judge).
 */
static bool
group_at_rest(const kg_progress *p, const pgroup *g, const kg_group *G, int64_t now, int64_t stall, int64_t reb_start,
	      int64_t reb_end, bool fresh)
{
	int i;
	if (!G->kept || g->rows_id != rows_id(G->rows) || fresh || p->last || g->ntopics < 0 ||
	    stall != g->stall_us || reb_start != g->reb_start || reb_end != g->reb_end || now >= g->wake_us ||
	    now / KG_MAX(p->window_us / KG_SPARK, 1) != g->spark_at)
		return false;
	for (i = 0; i < g->ntopics; i++) {
		const ptopic *pt = (size_t)g->topics[i] < p->ntopics ? &p->topics[g->topics[i]] : NULL;
		if (pt == NULL || pt->cur == NULL || pt->changed > g->judged_at || !pt->flat)
			return false;
	}
	return true;
}

/*
 * The group's roll-ups from its partitions: the worst verdict (a partition
 * not judged yet is worse than OK: the group is never OK while one is),
 * and since when; the oldest time lag, a lower bound (">") when a
 * partition with lag has none known; the counts.
 */
static void
group_rollup(kg_group *G)
{
	int k;
	bool unknown = false;
	G->verdict = KG_VERDICT_NONE;
	G->time_lag_us = -1;
	G->time_lag_from_us = 0;
	G->tlag_kind = KG_TLAG_NONE;
	G->verdict_since_us = G->verdict_since_lo_us = 0;
	G->since_kind = KG_SINCE_NONE;
	G->lost = 0;
	memset(G->nverdict, 0, sizeof G->nverdict);
	for (k = 0; k < G->nparts; k++) {
		const kg_gpart *gp = &G->parts[k];
		G->nverdict[gp->verdict]++;
		G->lost += gp->lost;
		if (gp->verdict > G->verdict ||
		    (gp->verdict == G->verdict && gp->verdict_since_us > 0 &&
		     (G->verdict_since_us == 0 || gp->verdict_since_us < G->verdict_since_us))) {
			G->verdict = gp->verdict;
			G->verdict_since_us = gp->verdict_since_us;
			G->verdict_since_lo_us = gp->verdict_since_lo_us;
			G->since_kind = gp->since_kind;
		}
		if (gp->tlag_kind == KG_TLAG_NONE && gp->committed >= 0 && gp->lag != 0)
			unknown = true;
		if (gp->tlag_kind != KG_TLAG_NONE && gp->time_lag_us > G->time_lag_us) {
			G->time_lag_us = gp->time_lag_us;
			G->time_lag_from_us = gp->time_lag_from_us;
			G->tlag_kind = gp->tlag_kind;
		}
	}
	/* the oldest of those known; one not known may be older: at least this */
	if (unknown && G->tlag_kind != KG_TLAG_NONE && G->time_lag_us > 0)
		G->tlag_kind = KG_TLAG_ATLEAST;
	else if (unknown) {
		G->tlag_kind = KG_TLAG_NONE;
		G->time_lag_us = -1;
	}
}

/* Judge one group. */
int
progress_group(kg_progress *p, kg_group *G, int64_t now_us, int64_t interval_us, int64_t reb_start, int64_t reb_end,
	       bool may_rest, kg_vchange **ch, size_t *cap)
{
	pgroup *g = group_get(p, G->id);
	/* the committed offsets are judged by their own time (a source may ask them apart from the description) */
	int64_t data_t = kg_group_offs_time_or(G, now_us);
	int64_t stall = progress_stall_us(p->window_us, interval_us), wake = INT64_MAX;
	bool fresh = data_t > g->data_us;
	int k, n = 0;
	if (may_rest && group_at_rest(p, g, G, now_us, stall, reb_start, reb_end, fresh)) {
		rollup_restore(&g->roll, G, now_us);
		return -1;
	}
	group_rows_own(G);
	group_align(g, G);
	for (k = 0; k < G->nparts; k++) {
		kg_gpart *gp = &G->parts[k];
		kg_pstate *st = &g->st[k];
		const kg_prare *told;
		const kg_stamp *stamp = part_stamp(p, gp);
		kg_judge_in in = { 0, gp->committed, gp->log_end, gp->log_start, p->window_us, stall, reb_start, reb_end,
				   record_time(stamp, gp->committed, now_us) };
		kg_judgement j;
		if (fresh)
			progress_observe(st, data_t, gp->committed, gp->log_end, p->window_us);
		progress_spark(st, now_us, gp->lag, p->window_us);
		in.t = KG_MAX(data_t, st->seen_us);
		progress_judge(st, &in, &j);
		gp->verdict = (uint8_t)j.verdict;
		gp->verdict_since_us = j.since_hi;
		gp->verdict_since_lo_us = j.since_lo;
		gp->since_kind = (uint8_t)j.kind;
		gp->frozen_us = j.frozen_hi;
		gp->commit_gap_us = st->move != NULL ? st->move->gap_us : 0;
		gp->moved_us = st->move != NULL ? st->move->move_us : 0;
		gp->moved_lo_us = st->move != NULL ? st->move->move_lo_us : 0;
		if ((told = told_commit(st, gp->committed)) != NULL) {
			/* a source told the commit: it got there then (exactly when that commit moved it) */
			gp->moved_us = gp->moved_us > 0 ? KG_MIN(gp->moved_us, told->cmt_at) : told->cmt_at;
			if (told->cmt_moved)
				gp->moved_lo_us = gp->moved_us = told->cmt_at;
			else if (gp->moved_lo_us > gp->moved_us)
				gp->moved_lo_us = 0;
		}
		gp->lost = j.verdict == KG_VERDICT_LOST ? gp->log_start - gp->committed : 0;
		gp->consume_rate = (float)progress_consume_rate(st);
		memcpy(gp->spark, st->spark, sizeof gp->spark);
		part_time_lag(p, gp, stamp, now_us, &wake);
		if (j.verdict != st->verdict)
			change_add(ch, cap, &n, k, st->verdict, &j);
		st->verdict = (uint8_t)j.verdict;
	}
	if (fresh)
		g->data_us = data_t;
	group_rollup(G);
	g->rows_id = rows_id(G->rows);
	g->judged_at = p->applied;
	g->stall_us = stall;
	g->reb_start = reb_start;
	g->reb_end = reb_end;
	g->spark_at = now_us / KG_MAX(p->window_us / KG_SPARK, 1);
	g->wake_us = wake;
	g->ntopics = group_topics_of(G, g->topics);
	rollup_save(&g->roll, G);
	if (p->last) {
		/* nothing reads them after the last judgement: one group's states at a time, not every group's */
		pgroup_free(g);
		p->groups[G->id] = NULL;
	}
	return n;
}

/* The judgements from now are the last. */
void
progress_set_last(kg_progress *p)
{
	p->last = true;
}

/* A commit a source told of a group's partition: its state learns it (made now if the group has none yet). */
void
progress_group_commit(kg_progress *p, int32_t group, kg_tp tp, int64_t t, int64_t offset)
{
	pgroup *g;
	int lo = 0, hi, mid;
	if (group < 0)
		return;
	g = group_get(p, group);
	hi = g->n;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (tp_cmp(&g->tp[mid], &tp) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == g->n || tp_cmp(&g->tp[lo], &tp) != 0) {
		/* not in a snapshot yet: kept in order, and judged with the group's next description */
		g->tp = xreallocarray(g->tp, (size_t)g->n + 1, sizeof *g->tp);
		g->st = xreallocarray(g->st, (size_t)g->n + 1, sizeof *g->st);
		memmove(g->tp + lo + 1, g->tp + lo, (size_t)(g->n - lo) * sizeof *g->tp);
		memmove(g->st + lo + 1, g->st + lo, (size_t)(g->n - lo) * sizeof *g->st);
		g->tp[lo] = tp;
		progress_state_init(&g->st[lo]);
		g->n++;
	}
	progress_commit(&g->st[lo], t, offset);
	g->rows_id = 0; /* judged again */
}

/*
 * A partition's log-end at t as kgtop's samples bound it (the log-end only
 * grows): at least the last sample at or before t, at most the first at
 * or after it (the newest when none is: it has not moved since).  False
 * when no sample is at or before t (*lo not known) or none at all.
 */
bool
progress_le_bounds(const kg_progress *p, kg_tp tp, int64_t t, int64_t *lo, int64_t *hi)
{
	const ptopic *pt = tp.topic >= 0 && (size_t)tp.topic < p->ntopics ? &p->topics[tp.topic] : NULL;
	const kg_lesamples *s = pt != NULL && tp.partition < pt->n ? &pt->s[tp.partition] : NULL;
	int i;
	*lo = *hi = -1;
	if (s == NULL || s->n == 0)
		return false;
	for (i = 0; i < s->n && s->t[i] <= t; i++)
		*lo = s->le[i];
	*hi = i < s->n ? s->le[i] : s->le[s->n - 1];
	return *lo >= 0;
}

/* How long a partition with lag may go without a commit before it is overdue (see progress.h). */
int64_t
progress_overdue_us(int64_t gap_us, int64_t stall_us, int64_t interval_us)
{
	int64_t floor_us = 2 * (interval_us > 0 ? interval_us : KG_SEC_US);
	return gap_us > 0 ? KG_MAX(KG_OVERDUE_GAPS * gap_us, floor_us) : stall_us;
}

/* Forget a group. */
void
progress_forget(kg_progress *p, int32_t group)
{
	if (group >= 0 && (size_t)group < p->ngroups) {
		pgroup_free(p->groups[group]);
		p->groups[group] = NULL;
	}
}

/* Group partitions and topic partitions held. */
void
progress_counts(const kg_progress *p, size_t *gparts, size_t *tparts)
{
	size_t i;
	*gparts = 0;
	for (i = 0; i < p->ngroups; i++)
		*gparts += p->groups[i] != NULL ? (size_t)p->groups[i]->n : 0;
	*tparts = p->nlesamples;
}

/* Bytes held. */
size_t
progress_bytes(const kg_progress *p)
{
	size_t gparts, tparts, i, b = sizeof *p + p->ntopics * sizeof *p->topics + p->ngroups * sizeof *p->groups;
	progress_counts(p, &gparts, &tparts);
	for (i = 0; i < p->ngroups; i++) {
		const pgroup *g = p->groups[i];
		int k;
		if (g == NULL)
			continue;
		b += sizeof *g;
		for (k = 0; k < g->n; k++)
			b += (g->st[k].rare != NULL ? sizeof *g->st[k].rare : 0) +
			     (g->st[k].move != NULL ? sizeof *g->st[k].move : 0);
	}
	return b + gparts * (sizeof(kg_tp) + sizeof(kg_pstate)) + tparts * sizeof(kg_lesamples);
}

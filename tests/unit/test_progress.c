/*
 * test_progress.c: the progress rules one by one (progress.h): each
 * verdict, its since, the stall threshold and the commit pace, time lag by
 * interpolation and from a record's timestamp with every reason it can be
 * unknown, the log-end samples' thinning, rates, the sparkline, and a
 * group judged through snapshots with its changes and roll-ups.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "model/defaults.h"
#include "model/intern.h"
#include "model/obs.h"
#include "model/progress.h"
#include "model/snapshot.h"
#include "model/tracker.h"
#include "util/util.h"

#define S(x) ((int64_t)((x) * 1e6)) /* seconds */
#define W S(300)                    /* the default window */
#define STALL S(30)                 /* its stall threshold at 1 s refreshes */

/* The verdict now, and its since. */
static kg_verdict
judge(const kg_pstate *st, int64_t t, int64_t c, int64_t le, int64_t ls, int64_t *since)
{
	return progress_verdict(st, t, c, le, ls, W, STALL, 0, 0, since);
}

/* Feed one observation a second from t0 for n seconds, committed c0 + rate * i, log-end le0 + prate * i. */
static void
feed(kg_pstate *st, int64_t t0, int n, int64_t c0, int64_t rate, int64_t le0, int64_t prate)
{
	int i;
	for (i = 0; i < n; i++)
		progress_observe(st, t0 + S(i), c0 + rate * i, le0 + prate * i, W);
}

/* Rule 1: nothing to judge without a committed offset, a log-end or an observation; rule 5: not judged yet. */
static void
test_none(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	assert_int_equal(judge(&st, S(1), 10, 20, -1, &since), KG_VERDICT_NONE); /* never observed */
	progress_observe(&st, S(1), 10, 20, W);
	assert_int_equal(judge(&st, S(1), -1, 20, -1, &since), KG_VERDICT_NONE);
	assert_int_equal(judge(&st, S(1), 10, -1, -1, &since), KG_VERDICT_NONE);
	/* one look at a partition with lag says nothing of progress: not judged yet (never OK); without lag it is OK */
	assert_int_equal(judge(&st, S(1), 10, 20, -1, &since), KG_VERDICT_PENDING);
	assert_int_equal(judge(&st, S(1), 20, 20, -1, &since), KG_VERDICT_OK);
	progress_observe(&st, S(2), 12, 22, W); /* it moved: judged */
	assert_int_equal(judge(&st, S(2), 12, 22, -1, &since), KG_VERDICT_OK);
	assert_true(since == 0);
	progress_state_free(&st);
}

/* Rule 2: below the log start is LOST, whatever else holds (even a frozen offset). */
static void
test_lost(void **state)
{
	kg_pstate st;
	int64_t since, lag;
	kg_tlag_why why;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 400, 1500, 0, 3000, 5); /* frozen for 400 s: STOPPED, but ... */
	assert_int_equal(judge(&st, S(400), 1500, 5000, 1000, &since), KG_VERDICT_STOPPED);
	assert_int_equal(judge(&st, S(400), 1500, 5000, 2800, &since), KG_VERDICT_LOST);
	assert_int_equal(judge(&st, S(400), 2800, 5000, 2800, &since), KG_VERDICT_STOPPED); /* at the start: not lost */
	assert_int_equal(progress_time_lag(NULL, NULL, 1500, 5000, 2800, S(400), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_DELETED);
	progress_state_free(&st);
}

/* Rule 3: no lag now is OK, even after a long stop. */
static void
test_ok_caught_up(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 400, 1000, 0, 1000, 0); /* idle topic, nothing to consume */
	assert_int_equal(judge(&st, S(400), 1000, 1000, 0, &since), KG_VERDICT_OK);
	progress_state_free(&st);
}

/* Rule 4: frozen while lag grows turns STALLED at the threshold, since the last move. */
static void
test_stalled(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 60, 1000, 10, 1005, 10); /* moving, a little lag */
	/* the last move seen at 60; frozen from then on while the log grows */
	feed(&st, S(61), 29, 1590, 0, 1605, 10);
	assert_int_equal(judge(&st, S(89), 1590, 1885, -1, &since), KG_VERDICT_OK); /* 29 s: not yet */
	progress_observe(&st, S(90), 1590, 1895, W);
	assert_int_equal(judge(&st, S(90), 1590, 1895, -1, &since), KG_VERDICT_STALLED);
	assert_true(since == S(60));
	/* moving again: OK at once */
	progress_observe(&st, S(91), 1700, 1905, W);
	assert_int_equal(judge(&st, S(91), 1700, 1905, -1, &since), KG_VERDICT_OK);
	progress_state_free(&st);
}

/* Rule 4 and rebalances: commits pause while a group rebalances, so a freeze that began in one is judged from its end. */
static void
test_stalled_rebalance(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 60, 1000, 10, 1005, 10); /* moving until 60 */
	feed(&st, S(61), 40, 1590, 0, 1605, 10); /* frozen from 60 while the log grows */
	/* without a rebalance: STALLED at 90; a rebalance open since 70 (the freeze not yet overdue): not judged */
	assert_int_equal(progress_verdict(&st, S(100), 1590, 1995, -1, W, STALL, 0, 0, &since), KG_VERDICT_STALLED);
	assert_int_equal(progress_verdict(&st, S(100), 1590, 1995, -1, W, STALL, S(70), 0, &since), KG_VERDICT_OK);
	assert_true(since == 0);
	/* closed at 80: counted from 80, STALLED at 110 (not 90), since the freeze itself (60) */
	assert_int_equal(progress_verdict(&st, S(100), 1590, 1995, -1, W, STALL, S(70), S(80), &since), KG_VERDICT_OK);
	feed(&st, S(101), 10, 1590, 0, 2005, 10);
	assert_int_equal(progress_verdict(&st, S(110), 1590, 2095, -1, W, STALL, S(70), S(80), &since),
			 KG_VERDICT_STALLED);
	assert_true(since == S(60));
	/* a freeze already overdue when the rebalance began (at 95) stays STALLED through it */
	assert_int_equal(progress_verdict(&st, S(110), 1590, 2095, -1, W, STALL, S(95), 0, &since),
			 KG_VERDICT_STALLED);
	assert_true(since == S(60));
	/* and STOPPED counts from the end too: frozen 300 s, but the rebalance ended 100 s ago */
	feed(&st, S(111), 300, 1590, 0, 2105, 10);
	assert_int_equal(progress_verdict(&st, S(400), 1590, 5000, -1, W, STALL, 0, 0, &since), KG_VERDICT_STOPPED);
	assert_int_equal(progress_verdict(&st, S(400), 1590, 5000, -1, W, STALL, S(70), S(300), &since),
			 KG_VERDICT_STALLED);
	progress_state_free(&st);
}

/* Rule 4: a consumer that had caught up and then stopped is frozen from its last time without lag. */
static void
test_stalled_after_catch_up(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	progress_observe(&st, S(1), 1000, 1000, W);
	progress_observe(&st, S(2), 1000, 1000, W); /* nothing produced: no lag, nothing to move */
	progress_observe(&st, S(100), 1000, 1000, W);
	feed(&st, S(101), 31, 1000, 0, 1010, 10); /* the producer starts, the consumer does not */
	/* the lag began after 100 (no lag then), at 101 at the latest: frozen with lag from then */
	assert_int_equal(judge(&st, S(130), 1000, 1300, -1, &since), KG_VERDICT_PENDING); /* 29 s: not yet, never moved */
	assert_int_equal(judge(&st, S(131), 1000, 1310, -1, &since), KG_VERDICT_STALLED);
	assert_true(since == S(101));
	progress_state_free(&st);
}

/* Rule 4: the threshold follows the partition's own pace: a commit every 20 s is no stall at 30 s. */
static void
test_stall_usual_pace(void **state)
{
	kg_pstate st;
	int64_t since, t;
	(void)state;
	progress_state_init(&st);
	for (t = 0; t <= 200; t++)
		progress_observe(&st, S(1 + t), 1000 + (t / 20) * 200, 1100 + t * 10, W);
	/* the last move at 201; at 231 it is 30 s frozen but its usual gap is 20 s: wait for twice that */
	for (t = 201; t <= 240; t++)
		progress_observe(&st, S(1 + t), 3000, 1100 + t * 10, W);
	assert_int_equal(judge(&st, S(231), 3000, 3400, -1, &since), KG_VERDICT_OK);
	assert_int_equal(judge(&st, S(241), 3000, 3500, -1, &since), KG_VERDICT_STALLED);
	assert_true(since == S(201));
	progress_state_free(&st);
}

/* Rule 4: frozen for the whole window with lag is STOPPED; first seen frozen counts from the first sight. */
static void
test_stopped(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 10, 1000, 10, 1050, 10);
	feed(&st, S(11), 300, 1090, 0, 1150, 10);
	assert_int_equal(judge(&st, S(309), 1090, 4130, -1, &since), KG_VERDICT_STALLED);
	assert_int_equal(judge(&st, S(310), 1090, 4140, -1, &since), KG_VERDICT_STOPPED);
	assert_true(since == S(10));
	progress_state_free(&st);
	feed(&st, S(1), 301, 500, 0, 600, 1); /* never moved since kgtop began */
	assert_int_equal(judge(&st, S(301), 500, 900, -1, &since), KG_VERDICT_STOPPED);
	assert_true(since == S(1));
	progress_state_free(&st);
}

/* A judgement with a record read at the committed offset, written at record (0: none). */
static void
judge_rec(const kg_pstate *st, int64_t t, int64_t c, int64_t le, int64_t record, kg_judgement *j)
{
	kg_judge_in in = { t, c, le, -1, W, STALL, 0, 0, record };
	progress_judge(st, &in, j);
}

/*
 * Since within bounds, named by its evidence: never seen moving is
 * "before kgtop's first look" (no earliest); the record waiting at the
 * committed offset bounds it from below (the stall cannot be older than
 * the record); a move kgtop saw puts it between two refreshes.
 */
static void
test_since_bounds(void **state)
{
	kg_pstate st;
	kg_judgement j;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(100), 31, 500, 0, 600, 1); /* frozen with lag from kgtop's first look */
	judge_rec(&st, S(130), 500, 630, 0, &j);
	assert_int_equal(j.verdict, KG_VERDICT_STALLED);
	assert_int_equal(j.kind, KG_SINCE_BEFORE);
	assert_true(j.since_hi == S(100) && j.since_lo == 0);
	/* the record at 500 was written at 40: the freeze began after it (the lag cannot be older) */
	judge_rec(&st, S(130), 500, 630, S(40), &j);
	assert_int_equal(j.verdict, KG_VERDICT_STALLED);
	assert_int_equal(j.kind, KG_SINCE_RECORD);
	assert_true(j.since_lo == S(40) && j.since_hi == S(100));
	/* but a record's age alone judges nothing: one look at an old record is not a stall */
	progress_state_free(&st);
	progress_observe(&st, S(100), 500, 600, W);
	judge_rec(&st, S(100), 500, 600, S(10), &j);
	assert_int_equal(j.verdict, KG_VERDICT_PENDING);
	assert_int_equal(j.kind, KG_SINCE_NONE);
	/* a move kgtop saw: between the observation before and that one */
	progress_state_free(&st);
	feed(&st, S(100), 5, 500, 10, 560, 10);
	feed(&st, S(105), 31, 550, 0, 610, 10);
	judge_rec(&st, S(135), 550, 910, 0, &j);
	assert_int_equal(j.verdict, KG_VERDICT_STALLED);
	assert_int_equal(j.kind, KG_SINCE_WATCHED);
	assert_true(j.since_lo == S(104) && j.since_hi == S(105));
	assert_true(j.frozen_hi == S(105));
	progress_state_free(&st);
}

/*
 * Commits a source told (issue 23's __consumer_offsets reader): a commit
 * that moved the offset gives its exact time; an old one with a record
 * waiting longer than the threshold judges at once (one refresh), exactly.
 */
static void
test_commit_told(void **state)
{
	kg_pstate st;
	kg_judgement j;
	(void)state;
	progress_state_init(&st);
	progress_commit(&st, S(10), 400);
	progress_commit(&st, S(20), 500); /* moved to 500 at 20 exactly */
	progress_commit(&st, S(25), 500); /* a commit of the same offset: still since 20 */
	progress_commit(&st, S(15), 450); /* out of the log's order: ignored */
	progress_observe(&st, S(100), 500, 600, W);
	/* commits told, and the record at 500 written at 15 (before the commit): frozen with lag since 20 */
	judge_rec(&st, S(100), 500, 600, S(15), &j);
	assert_int_equal(j.verdict, KG_VERDICT_STALLED);
	assert_int_equal(j.kind, KG_SINCE_COMMIT);
	assert_true(j.since_lo == S(20) && j.since_hi == S(20));
	/* the record written at 60 (after the commit): the lag, so the stall, began then */
	judge_rec(&st, S(100), 500, 600, S(60), &j);
	assert_int_equal(j.verdict, KG_VERDICT_STALLED);
	assert_int_equal(j.kind, KG_SINCE_RECORD);
	assert_true(j.since_lo == S(60) && j.since_hi == S(60));
	/* a record written 20 s ago: frozen with lag for less than the threshold, and the offset moved (told): OK */
	judge_rec(&st, S(100), 500, 600, S(80), &j);
	assert_int_equal(j.verdict, KG_VERDICT_OK);
	/* no record read: when the lag began is not known, so nothing is proven at once */
	judge_rec(&st, S(100), 500, 600, 0, &j);
	assert_int_equal(j.verdict, KG_VERDICT_OK);
	/* a first commit told without the one before: at or before its time, no earliest */
	progress_state_free(&st);
	progress_commit(&st, S(20), 500);
	progress_observe(&st, S(100), 500, 600, W);
	judge_rec(&st, S(100), 500, 600, 0, &j);
	assert_int_equal(j.verdict, KG_VERDICT_PENDING);
	judge_rec(&st, S(100), 500, 600, S(15), &j);
	assert_int_equal(j.verdict, KG_VERDICT_STALLED);
	assert_int_equal(j.kind, KG_SINCE_RECORD);
	assert_true(j.since_lo == S(15) && j.since_hi == S(20));
	/* a commit told at another offset than the one polled is not this freeze's */
	progress_state_free(&st);
	progress_commit(&st, S(10), 400);
	progress_commit(&st, S(20), 450);
	progress_observe(&st, S(100), 500, 600, W);
	judge_rec(&st, S(100), 500, 600, S(15), &j);
	assert_int_equal(j.verdict, KG_VERDICT_PENDING);
	progress_state_free(&st);
	assert_null(st.rare);
	progress_state_free(&st);
}

/* Rule 6: a committed offset that went back is REWIND for a window, then judged by the others. */
static void
test_rewind(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 10, 5000, 10, 5005, 10);
	progress_observe(&st, S(11), 3000, 5105, W); /* back 2,090 records */
	assert_int_equal(judge(&st, S(11), 3000, 5105, -1, &since), KG_VERDICT_REWIND);
	assert_true(since == S(11));
	assert_non_null(st.rare);
	assert_int_equal(st.rare->rewind_by, 5090 - 3000);
	feed(&st, S(12), 300, 3010, 11, 5115, 10); /* reads it all again, a little faster than it is written */
	assert_int_equal(judge(&st, S(310), 3010 + 298 * 11, 5115 + 2980, -1, &since), KG_VERDICT_REWIND);
	assert_int_equal(judge(&st, S(311), 3010 + 299 * 11, 5115 + 2990, -1, &since), KG_VERDICT_OK);
	progress_state_free(&st);
}

/* Rule 7: commits that move while the lag grows at every sample for half the window are SLOW. */
static void
test_slow(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 149, 1000, 4, 1100, 10); /* 4/s against 10/s: lag grows 6/s */
	assert_int_equal(judge(&st, S(149), 1000 + 148 * 4, 1100 + 1480, -1, &since), KG_VERDICT_OK); /* under half */
	feed(&st, S(150), 100, 1000 + 149 * 4, 4, 1100 + 1490, 10);
	assert_int_equal(judge(&st, S(249), 1000 + 248 * 4, 1100 + 2480, -1, &since), KG_VERDICT_SLOW);
	assert_true(since > 0 && since <= S(249) - W / 2);
	/* it catches up once: the run is over */
	progress_observe(&st, S(250), 1100 + 2490, 1100 + 2490, W);
	assert_int_equal(judge(&st, S(250), 3590, 3590, -1, &since), KG_VERDICT_OK);
	feed(&st, S(251), 200, 3590, 4, 3600, 10);
	/* lag grew at every sample for 200 s, but the window saw it without lag */
	assert_int_equal(judge(&st, S(450), 3590 + 199 * 4, 3600 + 1990, -1, &since), KG_VERDICT_OK);
	progress_state_free(&st);
}

/* Rule 8: commits that keep up with a steady lag are OK. */
static void
test_ok_steady(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	progress_state_init(&st);
	feed(&st, S(1), 600, 1000, 10, 1050, 10);
	assert_int_equal(judge(&st, S(600), 1000 + 599 * 10, 1050 + 5990, -1, &since), KG_VERDICT_OK);
	assert_true(progress_consume_rate(&st) > 9.9 && progress_consume_rate(&st) < 10.1);
	progress_state_free(&st);
}

/* The stall threshold: a tenth of the window, at least two refreshes. */
static void
test_stall_threshold(void **state)
{
	(void)state;
	assert_true(progress_stall_us(W, S(1)) == S(30));
	assert_true(progress_stall_us(S(20), S(1)) == S(2));
	assert_true(progress_stall_us(S(20), S(5)) == S(10));
	assert_true(progress_stall_us(S(20), 0) == S(2));
}

/* Interpolation: between the samples around the offset, at least the oldest's age before them, none at the first look. */
static void
test_interpolate(void **state)
{
	kg_lesamples s = { .n = 0 };
	int64_t lag;
	kg_tlag_why why;
	(void)state;
	progress_le_add(&s, S(100), 1000, S(3600));
	assert_int_equal(progress_interpolate(&s, 950, S(100), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_NO_SAMPLES);
	/* a bound under a second (one --once refresh: ">0.0s") says nothing: none */
	assert_int_equal(progress_interpolate(&s, 950, S(100.5), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_NO_SAMPLES);
	/* one sample (a log-end standing still keeps only its first): at least its age */
	assert_int_equal(progress_interpolate(&s, 950, S(105), &lag, &why), KG_TLAG_ATLEAST);
	assert_true(lag == S(5));
	assert_int_equal(why, KG_TLAG_WHY_NONE);
	progress_le_add(&s, S(108), 1000, S(3600)); /* the same log-end: no new sample, the bound grows */
	assert_int_equal(s.n, 1);
	assert_int_equal(progress_interpolate(&s, 950, S(108), &lag, &why), KG_TLAG_ATLEAST);
	assert_true(lag == S(8));
	progress_le_add(&s, S(110), 2000, S(3600));
	progress_le_add(&s, S(120), 3000, S(3600));
	/* the record at 1499 was written when the log-end passed it: 5 s after 100 */
	assert_int_equal(progress_interpolate(&s, 1499, S(130), &lag, &why), KG_TLAG_ESTIMATE);
	assert_true(lag == S(25));
	assert_int_equal(progress_interpolate(&s, 2999, S(120), &lag, &why), KG_TLAG_ESTIMATE);
	assert_true(lag == 0);
	/* older than the oldest sample: at least its age */
	assert_int_equal(progress_interpolate(&s, 500, S(130), &lag, &why), KG_TLAG_ATLEAST);
	assert_true(lag == S(30));
	/* caught up: exact zero, whatever the samples */
	assert_int_equal(progress_time_lag(&s, NULL, 3000, 3000, -1, S(130), &lag, &why), KG_TLAG_EXACT);
	assert_true(lag == 0);
	assert_int_equal(progress_time_lag(&s, NULL, -1, 3000, -1, S(130), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_NO_OFFSETS);
	progress_le_free(&s);
}

/* The record's timestamp: exact; ahead of the clock clamped and said; a failed read says why, or gives way to the estimate. */
static void
test_time_lag_exact(void **state)
{
	kg_lesamples s = { .n = 0 };
	kg_stamp st = { .offset = 1499, .record = 1499, .ts_ms = 95000, .why = KG_TLAG_WHY_NONE };
	int64_t lag;
	kg_tlag_why why;
	(void)state;
	assert_int_equal(progress_time_lag(NULL, &st, 1499, 3000, -1, S(130), &lag, &why), KG_TLAG_EXACT);
	assert_true(lag == S(35));
	assert_int_equal(why, KG_TLAG_WHY_NONE);
	st.ts_ms = 140000; /* ten seconds ahead of us */
	assert_int_equal(progress_time_lag(NULL, &st, 1499, 3000, -1, S(130), &lag, &why), KG_TLAG_EXACT);
	assert_true(lag == 0);
	assert_int_equal(why, KG_TLAG_SKEW);
	/* a stamp of another offset says nothing */
	assert_int_equal(progress_time_lag(NULL, &st, 1600, 3000, -1, S(130), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_NO_SAMPLES);
	st.ts_ms = -1;
	assert_int_equal(progress_time_lag(NULL, &st, 1499, 3000, -1, S(130), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_NO_TIMESTAMP);
	st.ts_ms = 95000;
	st.record = 1500; /* compacted away: the next record is later */
	assert_int_equal(progress_time_lag(NULL, &st, 1499, 3000, -1, S(130), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_GAP);
	st.record = -1;
	st.why = KG_TLAG_NO_ANSWER;
	assert_int_equal(progress_time_lag(NULL, &st, 1499, 3000, -1, S(130), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_NO_ANSWER);
	st.why = KG_TLAG_NO_RECORDS;
	assert_int_equal(progress_time_lag(NULL, &st, 1499, 3000, -1, S(130), &lag, &why), KG_TLAG_NONE);
	assert_int_equal(why, KG_TLAG_NO_RECORDS);
	/* with samples, the estimate stands in and the read's failure stays said */
	progress_le_add(&s, S(100), 1000, S(3600));
	progress_le_add(&s, S(110), 2000, S(3600));
	st.why = KG_TLAG_NO_ANSWER;
	assert_int_equal(progress_time_lag(&s, &st, 1499, 3000, -1, S(130), &lag, &why), KG_TLAG_ESTIMATE);
	assert_true(lag == S(25));
	assert_int_equal(why, KG_TLAG_NO_ANSWER);
	progress_le_free(&s);
}

/* The log-end samples: bounded, the oldest and newest kept, recent ones dense, equal ones once, a log that went back forgotten. */
static void
test_le_samples(void **state)
{
	kg_lesamples s = { .n = 0 };
	int64_t i;
	(void)state;
	for (i = 0; i < 600; i++)
		progress_le_add(&s, S(i), 1000 + i * 10, S(3600));
	assert_int_equal(s.n, KG_LE_SAMPLES);
	assert_true(s.t[0] == 0 && s.t[s.n - 1] == S(599));
	assert_true(s.t[s.n - 1] - s.t[s.n - 2] < s.t[1] - s.t[0]); /* denser near now */
	progress_le_add(&s, S(600), 1000 + 599 * 10, S(3600)); /* the same log-end: nothing new */
	assert_true(s.t[s.n - 1] == S(599));
	/* older than kept: goes, but one stays for "at least" */
	progress_le_add(&s, S(5000), 100000, S(3600));
	assert_true(s.n >= 2 && s.t[1] >= S(5000) - S(3600));
	progress_le_add(&s, S(5001), 10, S(3600)); /* made again: starts over */
	assert_int_equal(s.n, 1);
	assert_true(progress_produce_rate(&s, S(5001), W) < 0);
	progress_le_free(&s);
}

/* The samples' room grows with them, each kept through the growth; a log-end standing still keeps room for two. */
static void
test_le_samples_grow(void **state)
{
	kg_lesamples s = { .n = 0 }, still = { .n = 0 };
	int64_t i;
	(void)state;
	for (i = 0; i < KG_LE_SAMPLES; i++) {
		progress_le_add(&s, S(i), 1000 + i * 10, S(3600));
		progress_le_add(&still, S(i), 500, S(3600));
		assert_int_equal(s.n, i + 1);
		assert_true(s.cap >= s.n && s.cap <= KG_LE_SAMPLES);
	}
	for (i = 0; i < KG_LE_SAMPLES; i++)
		assert_true(s.t[i] == S(i) && s.le[i] == 1000 + i * 10);
	assert_int_equal(still.n, 1);
	assert_int_equal(still.cap, 2);
	progress_le_free(&s);
	progress_le_free(&still);
	assert_true(s.n == 0 && s.t == NULL);
}

/* Rates: produced over the window by the samples, consumed by the commits. */
static void
test_rates(void **state)
{
	kg_lesamples s = { .n = 0 };
	int64_t i;
	double r;
	(void)state;
	for (i = 0; i < 400; i++)
		progress_le_add(&s, S(i), 1000 + i * 20, S(3600));
	r = progress_produce_rate(&s, S(399), W);
	assert_true(r > 19.5 && r < 20.5);
	progress_le_free(&s);
}

/*
 * A partition never seen moving keeps no kg_pmove (most of a cluster's:
 * Empty groups, idle consumers), and its rate anchors' times still count
 * when it first moves: the rate then is over the older anchor.
 */
static void
test_idle_state(void **state)
{
	kg_pstate st;
	int64_t since;
	(void)state;
	assert_true(sizeof(kg_pstate) <= 104); /* DESIGN's bytes per group partition */
	progress_state_init(&st);
	progress_observe(&st, S(1), 500, 600, W);
	assert_true(progress_consume_rate(&st) < 0); /* one observation: no rate */
	feed(&st, S(2), 399, 500, 0, 601, 1);       /* seconds 2..400, frozen with lag */
	assert_null(st.move);
	assert_true(progress_consume_rate(&st) == 0);
	assert_int_equal(judge(&st, S(400), 500, 999, -1, &since), KG_VERDICT_STOPPED);
	assert_true(since == S(1));
	/* anchors at 151 (older) and 301 (newer, by half windows from the first): 100 records over 250 s */
	progress_observe(&st, S(401), 600, 1000, W);
	assert_non_null(st.move);
	assert_true(st.move->move_us == S(401) && st.move->move_lo_us == S(400));
	assert_true(progress_consume_rate(&st) == 100.0 / 250.0);
	assert_int_equal(judge(&st, S(401), 600, 1000, -1, &since), KG_VERDICT_OK);
	progress_state_free(&st);
	assert_null(st.move);
	progress_state_free(&st);
}

/* The sparkline: a cell per step of the window, the largest lag of the step, older cells shift out. */
static void
test_spark(void **state)
{
	kg_pstate st;
	(void)state;
	progress_state_init(&st);
	assert_int_equal(progress_spark_level(0), 1);
	assert_true(progress_spark_level(1000) > progress_spark_level(10));
	progress_spark(&st, S(1000), 0, S(160)); /* a step of 10 s */
	progress_spark(&st, S(1001), 100, S(160));
	progress_spark(&st, S(1002), 10, S(160));
	assert_int_equal(st.spark[KG_SPARK - 1], progress_spark_level(100));
	progress_spark(&st, S(1030), 5, S(160));
	assert_int_equal(st.spark[KG_SPARK - 4], progress_spark_level(100));
	assert_int_equal(st.spark[KG_SPARK - 2], 0); /* no data in that step */
	assert_int_equal(st.spark[KG_SPARK - 1], progress_spark_level(5));
	progress_state_free(&st);
}

/* One group through snapshots: verdicts, changes, roll-ups, stamps. */
static kg_snapshot *
snap(int64_t t, const int64_t *committed, const int64_t *log_end, int64_t log_start, const kg_stamp *stamp)
{
	kg_builder *b = builder_new(t);
	int32_t topic = intern_topic("prog-topic");
	kg_bgroup *g = builder_group(b, intern_group("prog-group"));
	int p;
	builder_topic(b, topic, 3);
	for (p = 0; p < 3; p++) {
		builder_partition(b, (kg_tp){ topic, p }, 1, log_end[p]);
		builder_partition_start(b, (kg_tp){ topic, p }, log_start);
		bgroup_committed(g, (kg_tp){ topic, p }, committed[p]);
	}
	if (stamp != NULL)
		builder_partition_stamp(b, (kg_tp){ topic, 0 }, stamp);
	bgroup_state(g, KG_STATE_EMPTY);
	return builder_finish(b);
}

/* A group judged refresh by refresh. */
static void
test_group(void **state)
{
	kg_progress *p = progress_new(S(20), S(3600));
	kg_vchange *ch = NULL;
	size_t cap = 0;
	int64_t c[3] = { 100, 100, 100 }, le[3] = { 100, 150, 200 };
	int i, n = 0;
	kg_snapshot *s = NULL;
	kg_stamp st = { .offset = 100, .record = 100, .ts_ms = 1000, .why = 0 };
	(void)state;
	for (i = 0; i < 5; i++) {
		snapshot_unref(s);
		c[0] = 100 + i * 10; /* 0 moves and keeps up; 1 and 2 frozen with lag */
		le[0] = c[0];
		le[1] = 150 + i * 10;
		le[2] = 200 + i * 10;
		s = snap(S(10 + i), c, le, 0, NULL);
		progress_topics(p, s);
		n = progress_group(p, &s->groups[0], s->time_us, S(1), 0, 0, false, &ch, &cap);
		if (i == 0) {
			/* none to OK (no lag); the others not judged yet, and so is the group: never OK before judged */
			assert_int_equal(n, 3);
			assert_int_equal(s->groups[0].parts[0].verdict, KG_VERDICT_OK);
			assert_int_equal(s->groups[0].parts[1].verdict, KG_VERDICT_PENDING);
			assert_int_equal(s->groups[0].verdict, KG_VERDICT_PENDING);
			assert_int_equal(s->groups[0].nverdict[KG_VERDICT_PENDING], 2);
			/* their time lags are not known yet: the group's is not either (not the 0 of partition 0) */
			assert_int_equal(s->groups[0].tlag_kind, KG_TLAG_NONE);
		}
	}
	/* 4 s frozen with a stall threshold of 2 s */
	assert_int_equal(s->groups[0].parts[0].verdict, KG_VERDICT_OK);
	assert_int_equal(s->groups[0].parts[1].verdict, KG_VERDICT_STALLED);
	assert_int_equal(s->groups[0].verdict, KG_VERDICT_STALLED);
	assert_int_equal(s->groups[0].nverdict[KG_VERDICT_STALLED], 2);
	assert_true(s->groups[0].verdict_since_us == S(10));
	assert_int_equal(s->groups[0].since_kind, KG_SINCE_BEFORE); /* frozen since before kgtop's first look */
	assert_int_equal(s->groups[0].parts[1].tlag_kind, KG_TLAG_ATLEAST);
	assert_true(s->groups[0].parts[1].time_lag_us == S(4));
	assert_true(s->groups[0].time_lag_us >= s->groups[0].parts[1].time_lag_us);
	snapshot_unref(s);
	/* retention passes partition 2; a record read at partition 0's offset */
	c[0] = 190;
	le[0] = 200;
	st.offset = 190;
	st.record = 190;
	st.ts_ms = 12000;
	s = snap(S(15), c, le, 180, &st);
	progress_topics(p, s);
	n = progress_group(p, &s->groups[0], s->time_us, S(1), 0, 0, false, &ch, &cap);
	assert_int_equal(n, 2); /* partitions 1 and 2 became LOST */
	assert_int_equal(s->groups[0].parts[2].verdict, KG_VERDICT_LOST);
	assert_true(s->groups[0].parts[2].lost == 180 - 100);
	assert_true(s->groups[0].lost == 160);
	assert_int_equal(s->groups[0].parts[0].tlag_kind, KG_TLAG_EXACT);
	assert_true(s->groups[0].parts[0].time_lag_us == S(3));
	assert_true(progress_bytes(p) > 0);
	snapshot_unref(s);
	free(ch);
	progress_free(p);
}

/*
 * Two groups on one partition at two committed offsets: each gets the
 * record read at its own offset (a partition keeps a read per offset), so
 * both time lags are exact (issue 22: the list's TIME-LAG for every row).
 */
static void
test_two_offsets_one_partition(void **state)
{
	kg_progress *p = progress_new(S(20), S(3600));
	kg_vchange *ch = NULL;
	size_t cap = 0;
	kg_builder *b = builder_new(S(50));
	int32_t topic = intern_topic("shared-topic");
	kg_bgroup *ga = builder_group(b, intern_group("shared-a")), *gb = builder_group(b, intern_group("shared-b"));
	kg_stamp sa = { .offset = 100, .record = 100, .ts_ms = 40000, .why = 0 };
	kg_stamp sb = { .offset = 120, .record = 120, .ts_ms = 45000, .why = 0 };
	kg_snapshot *s;
	const kg_group *a, *bb;
	(void)state;
	builder_topic(b, topic, 1);
	builder_partition(b, (kg_tp){ topic, 0 }, 1, 200);
	builder_partition_stamp(b, (kg_tp){ topic, 0 }, &sa);
	builder_partition_stamp(b, (kg_tp){ topic, 0 }, &sb);
	bgroup_committed(ga, (kg_tp){ topic, 0 }, 100);
	bgroup_committed(gb, (kg_tp){ topic, 0 }, 120);
	s = builder_finish(b);
	assert_non_null(partition_stamp(&s->topics[0].partitions[0], 100));
	assert_non_null(partition_stamp(&s->topics[0].partitions[0], 120));
	assert_null(partition_stamp(&s->topics[0].partitions[0], 110));
	progress_topics(p, s);
	a = snapshot_group_by_name(s, "shared-a");
	bb = snapshot_group_by_name(s, "shared-b");
	progress_group(p, (kg_group *)a, s->time_us, S(1), 0, 0, false, &ch, &cap);
	progress_group(p, (kg_group *)bb, s->time_us, S(1), 0, 0, false, &ch, &cap);
	assert_int_equal(a->parts[0].tlag_kind, KG_TLAG_EXACT);
	assert_true(a->parts[0].time_lag_us == S(10));
	assert_int_equal(bb->parts[0].tlag_kind, KG_TLAG_EXACT);
	assert_true(bb->parts[0].time_lag_us == S(5));
	snapshot_unref(s);
	free(ch);
	progress_free(p);
}

/*
 * A group of members (each with partitions [from, to) of the topic),
 * committed and log-end per partition, in state st: eager (range), whose
 * members hold nothing outside Stable, or cooperative (cooperative-sticky),
 * whose members keep what they hold through a rebalance.
 */
static int64_t snap_data_us, snap_offs_us; /* the times group_snap gives its data and its offsets, 0 none */

static kg_snapshot *
group_snap(int64_t t, kg_group_state st, bool coop, int nm, const int *from, const int *to, const int64_t *c,
	   const int64_t *le)
{
	kg_builder *b = builder_new(t);
	int32_t topic = intern_topic("prog-topic");
	kg_bgroup *g = builder_group(b, intern_group("prog-live"));
	int p, m;
	builder_topic(b, topic, 4);
	for (p = 0; p < 4; p++) {
		builder_partition(b, (kg_tp){ topic, p }, 1, le[p]);
		bgroup_committed(g, (kg_tp){ topic, p }, c[p]);
	}
	bgroup_state(g, st);
	bgroup_data_time(g, snap_data_us);
	bgroup_offs_time(g, snap_offs_us);
	bgroup_protocol(g, "consumer", coop ? "cooperative-sticky" : st == KG_STATE_STABLE ? "range" : "");
	for (m = 0; m < nm; m++) {
		char id[32], cid[32];
		kg_tp asg[4];
		int n = 0;
		kg_bmember *bm;
		snprintf(cid, sizeof cid, "worker-%d", m + 1);
		snprintf(id, sizeof id, "worker-%d-0000", m + 1);
		bm = bgroup_member(g, id);
		bmember_ids(bm, cid, "/10.0.0.1", NULL);
		for (p = from[m]; p < to[m] && (coop || st == KG_STATE_STABLE); p++)
			asg[n++] = (kg_tp){ topic, p };
		bmember_assignment(bm, asg, n);
	}
	return builder_finish(b);
}

/* An eager group (group_snap()). */
static kg_snapshot *
stable(int64_t t, kg_group_state st, int nm, const int *from, const int *to, const int64_t *c, const int64_t *le)
{
	return group_snap(t, st, false, nm, from, to, c, le);
}

/* The first event of a kind with a verdict in l (any verdict: 0), NULL none. */
static const kg_event *
find_verdict(const kg_evlist *l, kg_verdict v)
{
	size_t i;
	for (i = 0; i < l->n; i++) {
		if (l->v[i]->kind == KG_EV_VERDICT && (v == 0 || l->v[i]->verdict == v))
			return l->v[i];
	}
	return NULL;
}

/* Through the tracker: a member whose commits froze goes silent, the event says STALLED, and moving again ends both. */
static void
test_tracker_frozen(void **state)
{
	kg_tracker_config cfg;
	kg_tracker *t;
	kg_evlist ev = { 0 };
	int from[2] = { 0, 2 }, to[2] = { 2, 4 }, i;
	int64_t c[4] = { 1000, 1000, 1000, 1000 }, le[4] = { 1000, 1000, 1000, 1000 };
	const kg_event *e;
	kg_snapshot *s = NULL;
	char why[128] = "";
	bool stalled_seen = false;
	(void)state;
	cfg = options_model_defaults();
	cfg.lag_window_us = S(20); /* the stall threshold: 2 s */
	t = tracker_new(&cfg);
	for (i = 0; i < 8; i++) {
		int p;
		for (p = 0; p < 4; p++)
			le[p] = 1000 + i * 10;
		c[0] = c[1] = le[0] - 2; /* worker-1 keeps up; worker-2's commits froze at 1000 */
		s = stable(S(100 + i), KG_STATE_STABLE, 2, from, to, c, le);
		tracker_apply(t, NULL, s, &ev);
		if (s->groups[0].members[1].status == KG_MEMBER_SILENT && !stalled_seen) {
			stalled_seen = true;
			snprintf(why, sizeof why, "%s", s->groups[0].members[1].silent_why);
		}
		if (i < 7)
			snapshot_unref(s);
	}
	assert_true(stalled_seen);
	assert_non_null(strstr(why, "commits overdue on [2 3]"));
	assert_int_equal(s->groups[0].members[0].status, KG_MEMBER_CONSUMING);
	assert_int_equal(s->groups[0].members[0].verdict, KG_VERDICT_OK);
	assert_int_equal(s->groups[0].members[1].verdict, KG_VERDICT_STALLED);
	assert_int_equal(s->groups[0].verdict, KG_VERDICT_STALLED);
	e = find_verdict(&ev, KG_VERDICT_STALLED);
	assert_non_null(e);
	assert_int_equal(e->nparts, 2);
	assert_true(e->since_us == S(101));    /* the first observation with lag, at the latest */
	assert_true(e->since_lo_us == S(100)); /* after the last one without */
	assert_int_equal(e->since_kind, KG_SINCE_WATCHED);
	snapshot_unref(s);
	evlist_clear(&ev);
	/* worker-2 commits again: consuming, and the verdict is OK again */
	c[2] = c[3] = le[2];
	s = stable(S(108), KG_STATE_STABLE, 2, from, to, c, le);
	tracker_apply(t, NULL, s, &ev);
	assert_int_equal(s->groups[0].members[1].status, KG_MEMBER_CONSUMING);
	e = find_verdict(&ev, KG_VERDICT_OK);
	assert_non_null(e);
	assert_int_equal(e->verdict_from, KG_VERDICT_STALLED);
	snapshot_unref(s);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
}

/*
 * A group described once and asked its committed offsets every refresh
 * (the kafka source asks a group at risk its offsets alone while its
 * description is recent): its data's time stays the description's, its
 * offsets' time moves with each answer, and the rules judge the offsets
 * by their own time, so a freeze turns STALLED within the threshold and
 * the refreshes, since the first answer that gave the frozen offset (by
 * the data's time it would never be judged: no newer answer).
 */
static void
test_tracker_offsets_time(void **state)
{
	kg_tracker_config cfg;
	kg_tracker *t;
	kg_evlist ev = { 0 };
	int from[2] = { 0, 2 }, to[2] = { 2, 4 }, i, stalled_at = -1;
	int64_t c[4] = { 1000, 1000, 1000, 1000 }, le[4] = { 1000, 1000, 1000, 1000 };
	const kg_event *e;
	kg_snapshot *s = NULL;
	(void)state;
	cfg = options_model_defaults();
	cfg.lag_window_us = S(20); /* the stall threshold: 2 s */
	t = tracker_new(&cfg);
	snap_data_us = S(100); /* described once */
	for (i = 0; i < 8; i++) {
		int p;
		for (p = 0; p < 4; p++)
			le[p] = 1000 + i * 10;
		c[0] = c[1] = le[0] - 2; /* worker-1 keeps up; worker-2's commits froze at 1000 */
		snap_offs_us = S(100 + i);
		s = stable(S(100 + i), KG_STATE_STABLE, 2, from, to, c, le);
		assert_true(s->groups[0].data_time_us == S(100));
		assert_true(s->groups[0].offs_time_us == (i == 0 ? 0 : S(100 + i))); /* 0: the data's own */
		assert_true(kg_group_offs_time(&s->groups[0]) == S(100 + i));
		tracker_apply(t, NULL, s, &ev);
		if (stalled_at < 0 && s->groups[0].verdict == KG_VERDICT_STALLED)
			stalled_at = i;
		if (i < 7)
			snapshot_unref(s);
	}
	/* frozen since the answer at 101 s (after the one at 100 s): past 2 s at 103 s or the refresh after */
	assert_true(stalled_at >= 3 && stalled_at <= 4);
	assert_int_equal(s->groups[0].parts[2].verdict, KG_VERDICT_STALLED);
	assert_int_equal(s->groups[0].parts[0].verdict, KG_VERDICT_OK);
	assert_true(s->groups[0].parts[0].moved_us == S(107)); /* seen moving in the offsets' answer */
	e = find_verdict(&ev, KG_VERDICT_STALLED);
	assert_non_null(e);
	assert_true(e->since_us == S(101));
	assert_true(e->since_lo_us == S(100));
	snapshot_unref(s);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
}

/* group_snap() gives no times again (after test_tracker_offsets_time, even failed). */
static int
snap_times_reset(void **state)
{
	(void)state;
	snap_data_us = snap_offs_us = 0;
	return 0;
}

/*
 * Through the tracker, with commits a source tells (issue 23's
 * __consumer_offsets reader: KG_OBS_COMMIT, one partition, offset in
 * value, the broker's time): one refresh that reads the record waiting at
 * the committed offset judges a stall at once, since the commit's exact
 * time; without the source the same refresh is not judged yet.
 */
static void
test_tracker_commit_told(void **state)
{
	kg_tracker_config cfg;
	kg_tracker *t;
	kg_evlist ev = { 0 };
	kg_obsq q = { 0 };
	int64_t c[3] = { 500, 700, 700 }, le[3] = { 600, 700, 700 };
	int32_t topic = intern_topic("prog-topic"), group = intern_group("prog-group");
	kg_stamp st = { .offset = 500, .record = 500, .ts_ms = 940000, .why = 0 }; /* written at 940 s */
	kg_obs *o;
	kg_snapshot *s;
	int k;
	(void)state;
	cfg = options_model_defaults();
	t = tracker_new(&cfg);
	/* the source tells partition 0's commits: 400 at 900 s, 500 at 950 s (moved: exact), 500 again at 960 s */
	for (k = 0; k < 3; k++) {
		o = obs_new(KG_OBS_COMMIT, S(900 + (k > 0 ? 50 + (k - 1) * 10 : 0)), group, "offsets");
		obs_parts(o, &(kg_tp){ topic, 0 }, 1);
		o->value = k == 0 ? 400 : 500;
		obsq_push(&q, o);
	}
	s = snap(S(1000), c, le, 0, &st);
	tracker_apply(t, &q, s, &ev);
	/* frozen at 500 since the commit at 950; the lag since the record at 940 (before): 50 s, past the 30 s threshold */
	assert_int_equal(s->groups[0].parts[0].verdict, KG_VERDICT_STALLED);
	assert_int_equal(s->groups[0].parts[0].since_kind, KG_SINCE_COMMIT);
	assert_true(s->groups[0].parts[0].verdict_since_us == S(950) && s->groups[0].parts[0].verdict_since_lo_us == S(950));
	assert_int_equal(s->groups[0].verdict, KG_VERDICT_STALLED);
	snapshot_unref(s);
	evlist_clear(&ev);
	tracker_free(t);
	/* the same refresh without the commits told: not judged yet */
	t = tracker_new(&cfg);
	s = snap(S(1000), c, le, 0, &st);
	tracker_apply(t, NULL, s, &ev);
	assert_int_equal(s->groups[0].parts[0].verdict, KG_VERDICT_PENDING);
	assert_int_equal(s->groups[0].verdict, KG_VERDICT_PENDING);
	snapshot_unref(s);
	evlist_clear(&ev);
	free(ev.v);
	free(q.v);
	tracker_free(t);
}

/* The first event of kind about client (NULL any), NULL none. */
static const kg_event *
find_kind(const kg_evlist *l, kg_event_kind kind, const char *client)
{
	size_t i;
	for (i = 0; i < l->n; i++) {
		if (l->v[i]->kind == kind && (client == NULL || (l->v[i]->client_id != NULL && strcmp(l->v[i]->client_id, client) == 0)))
			return l->v[i];
	}
	return NULL;
}

/*
 * Three members commit every second (worker-3 two partitions, [2 3])
 * from 100 s; worker-3's commits stop after last (110: its crash) and the
 * coordinator removes it at 120 s; worker-1 and worker-2 take [2 3] over
 * and commit from 121 s.  The events of the run into all; the time
 * worker-3 was first shown silent.
 */
static int64_t
crash_run(const kg_tracker_config *cfg, int last, kg_evlist *all)
{
	kg_tracker *t = tracker_new(cfg);
	kg_evlist ev = { 0 };
	int from3[3] = { 0, 1, 2 }, to3[3] = { 1, 2, 4 }, i, p;
	int64_t c[4] = { 0 }, le[4], silent_at = 0;
	kg_snapshot *s = NULL;
	for (i = 0; i <= 30; i++) {
		bool before = i < 20; /* three members until the coordinator removes worker-3 */
		for (p = 0; p < 4; p++) {
			le[p] = 1000 + i * 10;
			if (p < 2 || i <= last || i >= 21)
				c[p] = le[p] - 5;
		}
		if (before) {
			s = stable(S(100 + i), KG_STATE_STABLE, 3, from3, to3, c, le);
		} else {
			/* w1 [0 2], w2 [1 3]: the stable() helper gives ranges, so build the taken-over assignment by hand */
			kg_builder *b = builder_new(S(100 + i));
			int32_t topic = intern_topic("prog-topic");
			kg_bgroup *g = builder_group(b, intern_group("prog-live"));
			kg_tp a1[2] = { { topic, 0 }, { topic, 2 } }, a2[2] = { { topic, 1 }, { topic, 3 } };
			kg_bmember *bm;
			builder_topic(b, topic, 4);
			for (p = 0; p < 4; p++) {
				builder_partition(b, (kg_tp){ topic, p }, 1, le[p]);
				bgroup_committed(g, (kg_tp){ topic, p }, c[p]);
			}
			bgroup_state(g, KG_STATE_STABLE);
			bgroup_protocol(g, "consumer", "range");
			bm = bgroup_member(g, "worker-1-0000");
			bmember_ids(bm, "worker-1", "/10.0.0.1", NULL);
			bmember_assignment(bm, a1, 2);
			bm = bgroup_member(g, "worker-2-0000");
			bmember_ids(bm, "worker-2", "/10.0.0.1", NULL);
			bmember_assignment(bm, a2, 2);
			s = builder_finish(b);
		}
		tracker_apply(t, NULL, s, &ev);
		if (before && silent_at == 0 && s->groups[0].members[2].status == KG_MEMBER_SILENT)
			silent_at = s->time_us;
		snapshot_unref(s);
		for (p = 0; p < (int)ev.n; p++)
			evlist_push(all, event_ref(ev.v[p]));
		evlist_clear(&ev);
	}
	free(ev.v);
	tracker_free(t);
	return silent_at;
}

/* True when event e's text has want. */
static bool
text_has(const kg_event *e, const char *want)
{
	sbuf b = { 0 };
	bool r;
	event_format(e, &b);
	r = strstr(sbuf_str(&b), want) != NULL;
	sbuf_free(&b);
	return r;
}

/*
 * Crashes seen by progress (issue 22): worker-3 crashes at 110 s
 * (crash_run).  Its commits are overdue after three of their own gaps
 * (not after the 30 s stall threshold of the default window): silent at
 * 113, since its last commit; with the limits not told, its removal is a
 * timeout, session or max.poll (frozen commits show a crash and a stuck
 * poll loop alike), inferred; the members that take its partitions over
 * are never called silent (no silence backdated to before they had
 * them); the episode's unconsumed time is within bounds that contain the
 * truth (partitions [2 3] not consumed from the crash to their new
 * owners: about 19 partition-s), from the last commit seen before it.
 */
static void
test_tracker_crash_cadence(void **state)
{
	kg_tracker_config cfg;
	kg_evlist all = { 0 };
	int64_t silent_at;
	const kg_event *e;
	(void)state;
	cfg = options_model_defaults();
	silent_at = crash_run(&cfg, 10, &all);
	/* overdue after three of its one-second gaps: silent by 113 s, since its last commit seen (110 s) */
	assert_true(silent_at > 0 && silent_at <= S(113));
	e = find_kind(&all, KG_EV_MEMBER_SILENT, "worker-3");
	assert_non_null(e);
	assert_true(e->time_us == S(110));
	assert_non_null(strstr(e->text, "commits overdue on [2 3]"));
	/* the removal after that silence: a timeout, inferred; the rebalance's trigger says so */
	e = find_kind(&all, KG_EV_MEMBER_LEFT, "worker-3");
	assert_non_null(e);
	assert_int_equal(e->reason, KG_REASON_TIMEOUT);
	assert_int_equal(e->evidence, KG_EVID_POLLED);
	assert_true(text_has(e, "worker-3 left (session or max.poll timeout, inferred: silent since "));
	e = find_kind(&all, KG_EV_REBALANCE_START, NULL);
	assert_non_null(e);
	assert_string_equal(e->text, "left: worker-3 (session or max.poll timeout, inferred)");
	/* the takers are never silent */
	assert_null(find_kind(&all, KG_EV_MEMBER_SILENT, "worker-1"));
	assert_null(find_kind(&all, KG_EV_MEMBER_SILENT, "worker-2"));
	/* unconsumed [2 3] from the crash (110.x) to the new owners (119.x): the bounds hold it */
	e = find_kind(&all, KG_EV_REBALANCE_END, NULL);
	assert_non_null(e);
	assert_int_equal(e->reason, KG_REASON_TIMEOUT); /* /metrics: trigger="timeout", not "unknown" */
	assert_true(e->unconsumed_us.min <= S(2 * 9) && (e->unconsumed_us.max < 0 || e->unconsumed_us.max >= S(2 * 10)));
	/* at most: [2 3] from the last commit seen before (after 109 s), [0 1] from theirs (118 s), to 120 s: a
	 * generation polling did not see may have taken any partition */
	assert_true(e->unconsumed_us.max == S(2 * 11 + 2 * 2));
	assert_true(e->unconsumed_us.min == 0); /* polling proves no stretch */
	evlist_clear(&all);
	free(all.v);
}

/*
 * Commits pause in a rebalance (issue 22: the demo's cooperative group had
 * all three members called silent as its rebalance ended).  Three members
 * of a cooperative group hold their partitions from 100 s and commit every
 * second; a rebalance from 110 s to 116 s (they keep what they hold, as
 * cooperative members do) freezes every commit from 109 s; they resume at
 * 118 s, two seconds after it ended, within three of their gaps counted
 * from its end, though seven past the last commit.  Nobody is silent:
 * counted from when they got their partitions (100 s), the freeze would be
 * overdue when the rebalance ends.  The same for an eager group, whose
 * members get their partitions again as it ends.
 */
static void
test_tracker_rebalance_pause(void **state)
{
	int from3[3] = { 0, 1, 2 }, to3[3] = { 1, 2, 4 }, i, p, proto;
	(void)state;
	for (proto = 0; proto < 2; proto++) {
		kg_tracker_config cfg = options_model_defaults();
		kg_tracker *t = tracker_new(&cfg);
		kg_evlist ev = { 0 }, all = { 0 };
		int64_t c[4] = { 0 }, le[4];
		for (i = 0; i <= 30; i++) {
			bool reb = i >= 10 && i < 16;
			kg_snapshot *s;
			for (p = 0; p < 4; p++) {
				le[p] = 1000 + i * 10;
				if (i < 9 || i >= 18)
					c[p] = le[p] - 5;
			}
			s = group_snap(S(100 + i), reb ? KG_STATE_PREPARING_REBALANCE : KG_STATE_STABLE, proto == 1, 3, from3,
				       to3, c, le);
			tracker_apply(t, NULL, s, &ev);
			snapshot_unref(s);
			for (p = 0; p < (int)ev.n; p++)
				evlist_push(&all, event_ref(ev.v[p]));
			evlist_clear(&ev);
		}
		assert_non_null(find_kind(&all, KG_EV_REBALANCE_END, NULL));
		for (i = 0; i < (int)all.n; i++) {
			if (all.v[i]->kind == KG_EV_MEMBER_SILENT)
				fail_msg("%s: %s called silent at %.1f s: %s", proto ? "cooperative" : "eager",
					 all.v[i]->client_id ? all.v[i]->client_id : "?", (double)all.v[i]->time_us / 1e6,
					 all.v[i]->text ? all.v[i]->text : "");
		}
		evlist_clear(&all);
		free(all.v);
		free(ev.v);
		tracker_free(t);
	}
}

/*
 * The same crash with max.poll.interval.ms told (--max-poll-interval 60s):
 * removed 10 s after its last commit, sooner than a stuck poll loop is
 * removed, so the session timeout (inferred).  And a member that commits
 * until a second before it is gone left: no timeout fires that soon after
 * its own commit (the brokers' shortest session is 6 s).
 */
static void
test_tracker_leave_reasons(void **state)
{
	kg_tracker_config cfg;
	kg_evlist all = { 0 };
	const kg_event *e;
	(void)state;
	cfg = options_model_defaults();
	cfg.max_poll_us = S(60);
	cfg.max_poll_src = KG_LIMIT_CONFIG;
	crash_run(&cfg, 10, &all);
	e = find_kind(&all, KG_EV_MEMBER_LEFT, "worker-3");
	assert_non_null(e);
	assert_int_equal(e->reason, KG_REASON_SESSION_TIMEOUT);
	assert_true(text_has(e, "worker-3 left (session timeout, inferred: silent since "));
	e = find_kind(&all, KG_EV_REBALANCE_START, NULL);
	assert_string_equal(e->text, "left: worker-3 (session timeout, inferred)");
	evlist_clear(&all);

	/* a stuck poll loop told removed after 10 s (max.poll.interval.ms 8 s, session 45 s told): max.poll */
	cfg.session_timeout_us = S(45);
	cfg.session_src = KG_LIMIT_CONFIG;
	cfg.max_poll_us = S(8);
	crash_run(&cfg, 10, &all);
	e = find_kind(&all, KG_EV_MEMBER_LEFT, "worker-3");
	assert_int_equal(e->reason, KG_REASON_MAX_POLL);
	evlist_clear(&all);

	cfg = options_model_defaults();
	crash_run(&cfg, 19, &all); /* commits until 119 s, gone at 120 s */
	assert_null(find_kind(&all, KG_EV_MEMBER_SILENT, "worker-3"));
	e = find_kind(&all, KG_EV_MEMBER_LEFT, "worker-3");
	assert_non_null(e);
	assert_int_equal(e->reason, KG_REASON_LEFT);
	assert_true(text_has(e, "worker-3 left holding"));
	e = find_kind(&all, KG_EV_REBALANCE_START, NULL);
	assert_string_equal(e->text, "left: worker-3");
	e = find_kind(&all, KG_EV_REBALANCE_END, NULL);
	assert_int_equal(e->reason, KG_REASON_LEFT); /* /metrics: trigger="leave" */
	evlist_clear(&all);
	free(all.v);
}

/* Through the tracker: a rebalance's lag added, and how long its moved partitions waited for their new owner. */
static void
test_tracker_resumed(void **state)
{
	kg_tracker_config cfg;
	kg_tracker *t;
	kg_evlist ev = { 0 };
	int from2[2] = { 0, 2 }, to2[2] = { 2, 4 }, from1[1] = { 0 }, to1[1] = { 4 }, i, p;
	int64_t c[4], le[4];
	kg_snapshot *s = NULL;
	(void)state;
	cfg = options_model_defaults();
	cfg.lag_window_us = S(20);
	t = tracker_new(&cfg);
	for (i = 0; i < 12; i++) {
		kg_group_state st = i >= 3 && i < 5 ? KG_STATE_PREPARING_REBALANCE : KG_STATE_STABLE;
		for (p = 0; p < 4; p++) {
			le[p] = 1000 + i * 10;
			/* commits stop in the rebalance; worker-2's partitions wait for worker-1 until 8 */
			c[p] = i < 3 ? le[p] : p < 2 ? (i < 5 ? 1020 : le[p]) : (i < 8 ? 1020 : le[p]);
		}
		s = stable(S(200 + i), st, i < 3 ? 2 : 1, i < 3 ? from2 : from1, i < 3 ? to2 : to1, c, le);
		tracker_apply(t, NULL, s, &ev);
		if (i < 11)
			snapshot_unref(s);
	}
	/* the episode began at 203 (seen; 202 at the earliest), ended at 205; [2 3] moved at 208 (207 at the earliest) */
	assert_true(s->groups[0].sum.last_episode_us > 0);
	assert_true(s->groups[0].sum.last_lag_added > 0);
	assert_true(s->groups[0].sum.last_resumed_min_us == S(4));
	assert_true(s->groups[0].sum.last_resumed_max_us == S(6));
	snapshot_unref(s);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
}

/* Run. */
/* Two judged partitions alike (what progress_group writes). */
static void
assert_same_judgement(const kg_gpart *a, const kg_gpart *b)
{
	assert_int_equal(a->verdict, b->verdict);
	assert_true(a->verdict_since_us == b->verdict_since_us && a->verdict_since_lo_us == b->verdict_since_lo_us);
	assert_int_equal(a->since_kind, b->since_kind);
	assert_true(a->frozen_us == b->frozen_us && a->commit_gap_us == b->commit_gap_us);
	assert_true(a->moved_us == b->moved_us && a->moved_lo_us == b->moved_lo_us);
	assert_true(a->time_lag_us == b->time_lag_us && a->time_lag_from_us == b->time_lag_from_us);
	assert_int_equal(a->tlag_kind, b->tlag_kind);
	assert_true(a->consume_rate == b->consume_rate && a->produce_rate == b->produce_rate);
	assert_memory_equal(a->spark, b->spark, sizeof a->spark);
}

/*
 * The last judgements (--once: progress_set_last) are the same as any,
 * and keep no partition state after them: one group's at a time, not
 * every group's; a judgement after them starts anew.
 */
static void
test_last_judgement(void **state)
{
	kg_progress *p = progress_new(S(20), S(3600)), *q = progress_new(S(20), S(3600));
	kg_vchange *ch = NULL;
	size_t cap = 0, gparts, tparts;
	int64_t c[3] = { 100, 100, 100 }, le[3] = { 100, 150, 200 };
	kg_snapshot *a = NULL, *b = NULL;
	int i, k, na = 0, nb = 0;
	(void)state;
	for (i = 0; i < 6; i++) {
		snapshot_unref(a);
		snapshot_unref(b);
		c[0] = 100 + i * 10; /* 0 moves and keeps up; 1 and 2 frozen with lag */
		le[0] = c[0] + (i == 5 ? 5 : 0);
		le[1] = 150 + i * 10;
		le[2] = 200 + i * 10;
		a = snap(S(10 + i), c, le, 0, NULL);
		b = snap(S(10 + i), c, le, 0, NULL);
		if (i == 5)
			progress_set_last(q);
		progress_topics(p, a);
		progress_topics(q, b);
		na = progress_group(p, &a->groups[0], a->time_us, S(1), 0, 0, false, &ch, &cap);
		nb = progress_group(q, &b->groups[0], b->time_us, S(1), 0, 0, false, &ch, &cap);
		assert_int_equal(na, nb);
	}
	assert_int_equal(b->groups[0].parts[1].verdict, KG_VERDICT_STALLED);
	for (k = 0; k < 3; k++)
		assert_same_judgement(&a->groups[0].parts[k], &b->groups[0].parts[k]);
	assert_int_equal(a->groups[0].verdict, b->groups[0].verdict);
	assert_true(a->groups[0].time_lag_us == b->groups[0].time_lag_us);
	progress_counts(p, &gparts, &tparts);
	assert_int_equal(gparts, 3);
	progress_counts(q, &gparts, &tparts);
	assert_int_equal(gparts, 0);
	assert_int_equal(tparts, 3); /* the log-end samples stay: every group's time lags read them */
	/* one more: as if new (not judged yet), nothing kept again */
	snapshot_unref(b);
	b = snap(S(16), c, le, 0, NULL);
	progress_topics(q, b);
	progress_group(q, &b->groups[0], b->time_us, S(1), 0, 0, false, &ch, &cap);
	assert_int_equal(b->groups[0].parts[1].verdict, KG_VERDICT_PENDING);
	progress_counts(q, &gparts, &tparts);
	assert_int_equal(gparts, 0);
	snapshot_unref(a);
	snapshot_unref(b);
	free(ch);
	progress_free(p);
	progress_free(q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),           cmocka_unit_test(test_lost),
		cmocka_unit_test(test_ok_caught_up),   cmocka_unit_test(test_stalled),
		cmocka_unit_test(test_stalled_after_catch_up), cmocka_unit_test(test_stalled_rebalance), cmocka_unit_test(test_stall_usual_pace),
		cmocka_unit_test(test_stopped),        cmocka_unit_test(test_rewind),
		cmocka_unit_test(test_since_bounds),   cmocka_unit_test(test_commit_told),
		cmocka_unit_test(test_slow),           cmocka_unit_test(test_ok_steady),
		cmocka_unit_test(test_stall_threshold), cmocka_unit_test(test_interpolate),
		cmocka_unit_test(test_time_lag_exact), cmocka_unit_test(test_le_samples),
		cmocka_unit_test(test_le_samples_grow),
		cmocka_unit_test(test_rates),          cmocka_unit_test(test_spark),
		cmocka_unit_test(test_idle_state),
		cmocka_unit_test(test_last_judgement),
		cmocka_unit_test_teardown(test_tracker_offsets_time, snap_times_reset),
		cmocka_unit_test(test_group),          cmocka_unit_test(test_tracker_frozen),
		cmocka_unit_test(test_tracker_resumed), cmocka_unit_test(test_tracker_commit_told),
		cmocka_unit_test(test_tracker_crash_cadence),
		cmocka_unit_test(test_tracker_leave_reasons),
		cmocka_unit_test(test_tracker_rebalance_pause), cmocka_unit_test(test_two_offsets_one_partition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

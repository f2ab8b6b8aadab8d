/*
 * test_quiet.c: the tracker's shortcuts for groups whose input did not
 * change derive what the full derivation derives.
 *
 * Two trackers are fed the same snapshots, refresh after refresh: one
 * with every shortcut (the default), one that derives every group fully
 * (kg_tracker_config.derive_all).  After each apply their snapshots are
 * compared as --json writes them (every group, every partition, the
 * events), and each group's history (samples, lag points, episodes) as
 * the timeline reads it.  The groups stand still for long stretches while
 * the clock moves (a standing lag crosses STALLED and then STOPPED, a
 * lag appears on an idle topic and ages), and change now and then (a
 * member joins and leaves, the state, the partitions, a failed
 * description, a group away for three refreshes, a group described every
 * third refresh, a record read stamped ahead of the clock).  The shortcut must also have been taken (a test of
 * two identical paths proves nothing).
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
#include "model/intern.h"
#include "model/tracker.h"
#include "model/tracker_int.h"
#include "report/json_delta.h"
#include "report/report.h"
#include "util/util.h"

#define T0 (1700000000LL * 1000000)
#define SEC 1000000LL
#define NPARTS 4
#define TICKS 150

/* The groups: name, topic, and what each does over the ticks (build()). */
static const char *const groups[] = { "q-zero", "q-stall", "q-late", "q-live",  "q-join",  "q-gone",
				      "q-parts", "q-state", "q-err", "q-turn", "q-still", "q-new", "q-left", "q-calm" };
#define NGROUPS ((int)KG_ARRAY_LEN(groups))

/* The log-end of a topic's partitions at tick k. */
static int64_t
log_end(const char *topic, int k)
{
	if (strcmp(topic, "quiet-grow") == 0)
		return 1000 + (int64_t)KG_MIN(k, 60) * 10; /* grows until tick 60, then stands */
	if (strcmp(topic, "quiet-late") == 0)
		return k < 25 ? 1000 : 1100; /* records arrive once, at tick 25 */
	if (strcmp(topic, "quiet-new") == 0)
		return 1100; /* a topic seen from tick 40 on */
	return 1000;
}

/* One group at tick k (b's builder); false when it is not in this snapshot. */
static void
group_at(kg_builder *b, int gi, int k)
{
	const char *name = groups[gi];
	const char *topic = "quiet-idle";
	int64_t committed[NPARTS + 1], data = T0 + (int64_t)k * SEC;
	int p, nparts = NPARTS;
	kg_group_state st = KG_STATE_EMPTY;
	int members = 0;
	kg_bgroup *bg;
	int32_t tid;
	for (p = 0; p <= NPARTS; p++)
		committed[p] = 1000;
	if (strcmp(name, "q-stall") == 0) {
		for (p = 0; p < NPARTS; p++)
			committed[p] = 950; /* a lag that stands: not judged, STALLED, then STOPPED */
	} else if (strcmp(name, "q-late") == 0) {
		topic = "quiet-late";
		for (p = 0; p < NPARTS; p++)
			committed[p] = k < 45 ? 1000 : 1100; /* behind from tick 25, caught up at 45 */
	} else if (strcmp(name, "q-live") == 0) {
		topic = "quiet-grow";
		st = KG_STATE_STABLE;
		members = 2;
		for (p = 0; p < NPARTS; p++)
			committed[p] = log_end(topic, KG_MIN(k, 45)) - 5; /* keeps up, then freezes at 45 while the log grows */
	} else if (strcmp(name, "q-join") == 0) {
		if (k >= 30 && k < 40) {
			st = KG_STATE_STABLE;
			members = 1;
		}
	} else if (strcmp(name, "q-gone") == 0) {
		if (k >= 20 && k < 23)
			return;
	} else if (strcmp(name, "q-parts") == 0) {
		nparts = k < 15 ? NPARTS - 1 : NPARTS + 1; /* a partition more, commits on one more */
		committed[NPARTS] = 990;
	} else if (strcmp(name, "q-state") == 0) {
		if (k >= 33 && k < 36)
			st = KG_STATE_DEAD;
	} else if (strcmp(name, "q-turn") == 0) {
		data = T0 + (int64_t)(k - k % 3) * SEC; /* described every third refresh (asked in turn) */
		for (p = 0; p < NPARTS; p++)
			committed[p] = 970;
	} else if (strcmp(name, "q-still") == 0) {
		topic = "quiet-late";
		data = T0 + (int64_t)(k - k % 10) * SEC; /* asked every tenth refresh: a lag that stands, and ages */
		for (p = 0; p < NPARTS; p++)
			committed[p] = k < 80 ? 1000 : 1050; /* behind from tick 25, then a commit the next ask sees */
	} else if (strcmp(name, "q-left") == 0) {
		/* asked every fourth refresh: two members, one from tick 30 (its partitions move), none from 50 */
		data = T0 + (int64_t)(k - k % 4) * SEC;
		members = k < 30 ? 2 : k < 50 ? 1 : 0;
		st = members > 0 ? KG_STATE_STABLE : KG_STATE_EMPTY;
		for (p = 0; p < NPARTS; p++)
			committed[p] = 990;
	} else if (strcmp(name, "q-calm") == 0) {
		/* Stable with two members on an idle topic, nothing behind, asked every fifth refresh: its rows kept */
		data = T0 + (int64_t)(k - k % 5) * SEC;
		st = KG_STATE_STABLE;
		members = 2;
	} else if (strcmp(name, "q-new") == 0) {
		topic = "quiet-new"; /* its log-end unknown until tick 40, then under a second old, then older */
		data = T0 + (int64_t)(k - k % 5) * SEC;
	}
	bg = builder_group(b, intern_group(name));
	tid = intern_topic(topic);
	bgroup_data_time(bg, data);
	bgroup_coordinator(bg, 1);
	if (strcmp(name, "q-err") == 0 && k == 50) {
		bgroup_error(bg, "the coordinator did not answer");
		return;
	}
	for (p = 0; p < nparts; p++)
		bgroup_committed(bg, (kg_tp){ tid, p }, committed[p]);
	bgroup_state(bg, st);
	bgroup_protocol(bg, "consumer", members > 0 ? "range" : "");
	for (p = 0; p < members; p++) {
		kg_tp asg[NPARTS];
		int n = 0, q;
		char mid[64], cid[32];
		kg_bmember *bm;
		snprintf(cid, sizeof cid, "%s-c%d", name, p);
		snprintf(mid, sizeof mid, "%s-c%d-0000", name, p);
		bm = bgroup_member(bg, mid);
		bmember_ids(bm, cid, "/10.0.0.1", NULL);
		for (q = p; q < NPARTS; q += members)
			asg[n++] = (kg_tp){ tid, q };
		bmember_assignment(bm, asg, n);
	}
}

/* The snapshot at tick k; keeping the unchanged rows of prev (rows.h) when it is not NULL. */
static kg_snapshot *
build(int k, kg_snapshot *prev)
{
	static const char *const topics[] = { "quiet-idle", "quiet-grow", "quiet-late", "quiet-new" };
	int64_t now = T0 + (int64_t)k * SEC;
	kg_builder *b = builder_new(now);
	size_t t;
	int p, gi;
	if (prev != NULL)
		builder_keep(b, prev);
	builder_cluster(b, "quiet");
	builder_refresh(b, (uint64_t)k + 1, now, SEC);
	for (t = 0; t < KG_ARRAY_LEN(topics); t++) {
		int32_t id = intern_topic(topics[t]);
		if (strcmp(topics[t], "quiet-new") == 0 && k < 40)
			continue;
		builder_topic(b, id, NPARTS + 1);
		for (p = 0; p <= NPARTS; p++)
			builder_partition(b, (kg_tp){ id, p }, 1, log_end(topics[t], k));
	}
	if (k >= 62 && k < 68) {
		/* the record at q-still's committed offset read (it is selected), then no more, between two asks */
		kg_stamp st = { 1000, 1000, T0 / 1000 + 25 * 1000 + 300, 0 };
		builder_partition_stamp(b, (kg_tp){ intern_topic("quiet-late"), 1 }, &st);
	}
	if (k >= 100 && k < 120) {
		/* the record at q-turn's committed offset, stamped ahead of the clock until tick 103.5 (skew), then not:
		 * its rows, judged at 103, kept at 104 */
		kg_stamp st = { 970, 970, T0 / 1000 + 103 * 1000 + 500, 0 };
		builder_partition_stamp(b, (kg_tp){ intern_topic("quiet-idle"), 2 }, &st);
	}
	for (gi = 0; gi < NGROUPS; gi++)
		group_at(b, gi, k);
	return builder_finish(b);
}

/* A snapshot and its events as --json writes them. */
static char *
json_of(const kg_snapshot *s, const kg_evlist *ev)
{
	sbuf o = { 0 };
	report_json(&o, s, ev->v, ev->n, T0);
	return o.s != NULL ? o.s : xstrdup("");
}

/* Assert two histories of a group alike: its samples, lag points and episodes as a view copies them. */
static void
assert_history_same(kg_tracker *a, kg_tracker *b, int32_t group, int64_t now)
{
	kg_hview *x = history_view(tracker_history(a), group, T0 - SEC, now);
	kg_hview *y = history_view(tracker_history(b), group, T0 - SEC, now);
	int i;
	assert_int_equal(x->nsamples, y->nsamples);
	for (i = 0; i < x->nsamples; i++) {
		const kg_sample *s = &x->samples[i], *u = &y->samples[i];
		assert_int_equal(s->time_us, u->time_us);
		assert_int_equal(s->state, u->state);
		assert_int_equal(s->in_episode, u->in_episode);
		assert_int_equal(s->lag, u->lag);
		assert_int_equal(s->nlanes, u->nlanes);
		assert_int_equal(s->nparts, u->nparts);
		if (s->nlanes > 0) {
			assert_memory_equal(s->lane_status, u->lane_status, (size_t)s->nlanes);
			assert_memory_equal(s->lane_nassigned, u->lane_nassigned, (size_t)s->nlanes * sizeof *s->lane_nassigned);
		}
		if (s->nparts > 0) {
			assert_memory_equal(s->parts, u->parts, (size_t)s->nparts * sizeof *s->parts);
			assert_memory_equal(s->owner, u->owner, (size_t)s->nparts * sizeof *s->owner);
			assert_memory_equal(s->pstat, u->pstat, (size_t)s->nparts);
		}
	}
	assert_int_equal(x->nlag, y->nlag);
	if (x->nlag > 0) {
		assert_memory_equal(x->lag_t, y->lag_t, (size_t)x->nlag * sizeof *x->lag_t);
		assert_memory_equal(x->lag_v, y->lag_v, (size_t)x->nlag * sizeof *x->lag_v);
	}
	assert_int_equal(x->nepisodes, y->nepisodes);
	assert_int_equal(x->nlanes, y->nlanes);
	hview_free(x);
	hview_free(y);
}

/* Assert two snapshots' progress alike field by field (what --json writes derived, e.g. a time lag from its origin). */
static void
assert_progress_same(const kg_snapshot *a, const kg_snapshot *b)
{
	int i, k;
	assert_int_equal(a->ngroups, b->ngroups);
	for (i = 0; i < a->ngroups; i++) {
		const kg_group *x = &a->groups[i], *y = &b->groups[i];
		assert_int_equal(x->nparts, y->nparts);
		assert_int_equal(x->time_lag_from_us, y->time_lag_from_us);
		assert_int_equal(x->time_lag_us, y->time_lag_us);
		assert_int_equal(x->verdict, y->verdict);
		for (k = 0; k < x->nparts; k++) {
			const kg_gpart *p = &x->parts[k], *q = &y->parts[k];
			assert_int_equal(kg_gpart_time_lag(p, a->time_us), kg_gpart_time_lag(q, b->time_us));
			assert_int_equal(p->time_lag_from_us, q->time_lag_from_us);
			assert_int_equal(p->tlag_kind, q->tlag_kind);
			assert_int_equal(p->tlag_why, q->tlag_why);
			assert_int_equal(p->verdict, q->verdict);
			assert_int_equal(p->verdict_since_us, q->verdict_since_us);
			assert_int_equal(p->verdict_since_lo_us, q->verdict_since_lo_us);
			assert_int_equal(p->since_kind, q->since_kind);
			assert_int_equal(p->frozen_us, q->frozen_us);
			assert_int_equal(p->commit_gap_us, q->commit_gap_us);
			assert_int_equal(p->moved_us, q->moved_us);
			assert_int_equal(p->moved_lo_us, q->moved_lo_us);
			assert_int_equal(p->lost, q->lost);
			assert_memory_equal(&p->consume_rate, &q->consume_rate, sizeof p->consume_rate);
			assert_memory_equal(&p->produce_rate, &q->produce_rate, sizeof p->produce_rate);
			assert_memory_equal(p->spark, q->spark, sizeof p->spark);
		}
	}
}

/*
 * Every refresh, the shortcut's snapshot, events and history are the full
 * derivation's, with a lag window of lag_window_us: short, a standing lag
 * crosses STALLED and STOPPED within the run (and the sparklines step
 * every 1.25 s: rows are kept but seldom at rest); long, they step every
 * 15 s, and kept rows stay unjudged between.
 */
static void
run_quiet(int64_t lag_window_us, bool short_window)
{
	kg_tracker_config cfg = options_model_defaults(), full;
	kg_tracker *quick, *slow;
	kg_evlist eq = { 0 }, es = { 0 }, none = { 0 };
	kg_snapshot *prev = NULL;
	kg_jdelta *dq = jdelta_new(false), *ds = jdelta_new(false);
	char *jprev = NULL;
	int k, gi, kept = 0;
	uint64_t skipped;
	bool stalled = false, stopped = false;
	cfg.lag_window_us = lag_window_us; /* 20 s: STALLED after 2 s of a standing lag, STOPPED after 20 */
	cfg.window_us = 60 * SEC;     /* the member that came and went is forgotten within the run */
	full = cfg;
	full.derive_all = true;
	quick = tracker_new(&cfg);
	slow = tracker_new(&full);
	for (k = 0; k < TICKS; k++) {
		kg_snapshot *a = build(k, prev), *b = build(k, NULL);
		char *ja, *jb;
		for (gi = 0; gi < a->ngroups; gi++)
			kept += a->groups[gi].kept; /* by the builder; the tracker may own a copy */
		tracker_apply(quick, NULL, a, &eq);
		tracker_apply(slow, NULL, b, &es);
		if (prev != NULL) {
			/* the rows a kept are prev's: deriving a wrote none of them (prev reads as it did) */
			char *again = json_of(prev, &none);
			assert_string_equal(jprev, again);
			free(again);
			snapshot_unref(prev);
			free(jprev);
		}
		ja = json_of(a, &eq);
		jb = json_of(b, &es);
		if (strcmp(ja, jb) != 0)
			fprintf(stderr, "# tick %d:\n# shortcut: %s\n# full:     %s\n", k, ja, jb);
		assert_string_equal(ja, jb);
		assert_progress_same(a, b);
		{
			/* and --json's lines of what changed: a group whose kept rows say what they said is not written */
			sbuf lq = { 0 }, ls = { 0 };
			jdelta_line(dq, &lq, a, eq.v, eq.n, T0, false, false);
			jdelta_line(ds, &ls, b, es.v, es.n, T0, false, false);
			assert_string_equal(sbuf_str(&lq), sbuf_str(&ls));
			sbuf_free(&lq);
			sbuf_free(&ls);
		}
		for (gi = 0; gi < NGROUPS; gi++)
			assert_history_same(quick, slow, intern_group(groups[gi]), T0 + (int64_t)k * SEC);
		for (gi = 0; gi < a->ngroups; gi++) {
			if (a->groups[gi].id == intern_group("q-stall")) {
				stalled |= a->groups[gi].verdict == KG_VERDICT_STALLED;
				stopped |= a->groups[gi].verdict == KG_VERDICT_STOPPED;
			}
		}
		free(ja);
		free(jb);
		prev = a; /* the next snapshot keeps its unchanged rows, as the collector's does */
		jprev = json_of(prev, &none);
		snapshot_unref(b);
		evlist_clear(&eq);
		evlist_clear(&es);
	}
	/* the standing lag crossed both thresholds while its input stood still */
	assert_true(stalled || !short_window);
	assert_true(stopped || !short_window);
	skipped = quick->calm_skips;
	fprintf(stderr, "# calm groups' samples not built again: %llu of %d\n", (unsigned long long)skipped, TICKS * NGROUPS);
	assert_true(skipped > (uint64_t)TICKS * 5); /* most of the groups, most of the time */
	assert_int_equal(slow->calm_skips, 0);
	/* and rows were kept, most of them not judged again (the groups asked in turn, the idle ones) */
	fprintf(stderr, "# rows kept: %d of %d; kept rows not judged again: %llu\n", kept, TICKS * NGROUPS,
		(unsigned long long)quick->rest_skips);
	assert_true(kept > TICKS);
	assert_true(quick->rest_skips > (uint64_t)(short_window ? 10 : TICKS));
	assert_int_equal(slow->rest_skips, 0);
	snapshot_unref(prev);
	free(jprev);
	jdelta_free(dq);
	jdelta_free(ds);

	free(eq.v);
	free(es.v);
	tracker_free(quick);
	tracker_free(slow);
}

/* A short lag window: the thresholds crossed while the input stands still. */
static void
test_quiet_same_as_full(void **state)
{
	(void)state;
	run_quiet(20 * SEC, true);
}

/* A long lag window: kept rows at rest are not judged again, and still read as the full derivation's. */
static void
test_kept_rows_same_as_full(void **state)
{
	(void)state;
	run_quiet(240 * SEC, false);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_same_as_full),
		cmocka_unit_test(test_kept_rows_same_as_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_model.c: partition sets, the revoke classification, the builder,
 * names, event text, and the small parsers of util.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "model/arena.h"
#include "model/event.h"
#include "model/history.h"
#include "model/intern.h"
#include "model/lint.h"
#include "model/rows.h"
#include "model/snapshot.h"
#include "model/tp.h"
#include "model/tracker.h"
#include "util/util.h"

/* Parse "0 4" into a set of topic t. */
static int
set(const char *topic, const char *list, kg_tp *out)
{
	int n = 0;
	const char *p = list;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		out[n].topic = intern_topic(topic);
		out[n].partition = (int32_t)v;
		n++;
		p = end;
	}
	return tp_sort_unique(out, n);
}

/* The seeds' rule: full means the whole non-empty assignment, incremental a proper subset. */
static void
test_classify(void **state)
{
	kg_tp r[8], b[8];
	int nr, nb;
	(void)state;
	/* seed 000, range: consumer-a revoked [0 1] holding [0 1]: stop-the-world */
	nr = set("t", "0 1", r);
	nb = set("t", "0 1", b);
	assert_int_equal(tp_classify_revoke(r, nr, b, nb), KG_CLASS_FULL);
	/* seed 000, cooperative: [4] of [0 4] is incremental although not empty */
	nr = set("t", "4", r);
	nb = set("t", "0 4", b);
	assert_int_equal(tp_classify_revoke(r, nr, b, nb), KG_CLASS_INCREMENTAL);
	/* an empty revoke is neither */
	nb = set("t", "0 4", b);
	assert_int_equal(tp_classify_revoke(r, 0, b, nb), KG_CLASS_NONE);
	/* order does not matter */
	nr = set("t", "5 3 1", r);
	nb = set("t", "1 3 5", b);
	assert_int_equal(tp_classify_revoke(r, nr, b, nb), KG_CLASS_FULL);
	/* partitions it never held do not make it full */
	nr = set("t", "9", r);
	nb = set("t", "1", b);
	assert_int_equal(tp_classify_revoke(r, nr, b, nb), KG_CLASS_NONE);
	assert_string_equal(tp_class_name(KG_CLASS_INCREMENTAL), "incremental");
}

/* Set operations on sorted sets. */
static void
test_sets(void **state)
{
	kg_tp a[8], b[8], out[8];
	int na, nb, n;
	(void)state;
	na = set("t", "0 1 2 4", a);
	nb = set("t", "1 4 5", b);
	n = tp_diff(a, na, b, nb, out);
	assert_int_equal(n, 2);
	assert_int_equal(out[0].partition, 0);
	assert_int_equal(out[1].partition, 2);
	n = tp_intersect(a, na, b, nb, out);
	assert_int_equal(n, 2);
	assert_int_equal(out[1].partition, 4);
	assert_true(tp_contains(a, na, b[0]));
	assert_false(tp_contains(a, na, b[2]));
	n = set("t", "3 3 1 1", out);
	assert_int_equal(n, 2);
}

/* The seeds' notation. */
static void
test_format(void **state)
{
	kg_tp a[8];
	int n;
	sbuf s = { 0 };
	(void)state;
	n = set("orders", "4 0", a);
	tp_format(&s, a, n, true);
	assert_string_equal(sbuf_str(&s), "[0 4]");
	sbuf_reset(&s);
	tp_format(&s, a, 0, true);
	assert_string_equal(sbuf_str(&s), "[]");
	sbuf_reset(&s);
	a[n].topic = intern_topic("payments");
	a[n].partition = 1;
	n = tp_sort_unique(a, n + 1);
	tp_format(&s, a, n, true);
	assert_string_equal(sbuf_str(&s), "[orders:0,4 payments:1]");
	sbuf_free(&s);
}

/* The builder derives owners, lag, orphans and idle members. */
static void
test_builder(void **state)
{
	kg_builder *b = builder_new(1000);
	int32_t t = intern_topic("orders"), gid = intern_group("g-builder");
	kg_bgroup *g;
	kg_bmember *m;
	kg_snapshot *s;
	const kg_group *G;
	kg_tp asg[2] = { { t, 0 }, { t, 1 } };
	int p;
	(void)state;
	builder_topic(b, t, 4);
	for (p = 0; p < 4; p++)
		builder_partition(b, (kg_tp){ t, p }, 1, 100);
	g = builder_group(b, gid);
	bgroup_state(g, KG_STATE_STABLE);
	bgroup_protocol(g, "consumer", "range");
	bgroup_committed(g, (kg_tp){ t, 0 }, 90);
	bgroup_committed(g, (kg_tp){ t, 1 }, 100);
	bgroup_committed(g, (kg_tp){ t, 2 }, 40);
	m = bgroup_member(g, "a-1");
	bmember_ids(m, "a", "/10.0.0.1", NULL);
	bmember_assignment(m, asg, 2);
	m = bgroup_member(g, "z-1");
	bmember_ids(m, "z", "/10.0.0.2", "static-z");
	s = builder_finish(b);
	G = snapshot_group(s, gid);
	assert_non_null(G);
	assert_int_equal(G->proto, KG_PROTO_EAGER);
	assert_int_equal(G->nparts, 4);
	assert_int_equal(G->parts[0].owner, group_member_index(G, "a-1"));
	assert_int_equal(G->parts[0].lag, 10);
	assert_int_equal(G->parts[2].lag, 60);
	assert_int_equal(G->parts[3].lag, -1); /* no committed offset */
	assert_int_equal(G->lag, 70);
	assert_int_equal(G->norphaned, 2); /* 2 and 3: orders is consumed, nobody owns them */
	assert_true(G->parts[2].orphaned);
	assert_int_equal(G->nidle, 1);
	assert_string_equal(G->members[group_member_index(G, "z-1")].instance_id, "static-z");
	assert_true(G->members[group_member_index(G, "z-1")].flags & KG_MEMBER_STATIC);
	snapshot_unref(s);
}

/* Non-Stable groups are described without assignments: nothing is orphaned then. */
/* The sign of c: -1, 0, 1. */
static int
sign(int c)
{
	return (c > 0) - (c < 0);
}

/*
 * Topic and group ids compare as their names, whatever order the names
 * were interned in: appended, prepended, and 200 names each between the
 * same two neighbours, which leaves no key between them and makes the
 * pool spread its keys out again (several times).
 */
static void
test_intern_order(void **state)
{
	enum { N = 260 };
	int32_t ids[N], gids[N];
	char name[64];
	uint64_t relabels0 = intern_topic_relabels();
	int i, j, n = 0;
	(void)state;
	ids[n++] = intern_topic("order-m");
	ids[n++] = intern_topic("order-n");
	for (i = 0; i < 200; i++) {
		/* "order-m" < "order-m~...~" < ... : each new name lands right after the last one, before "order-n" */
		memset(name, 0, sizeof name);
		snprintf(name, sizeof name, "order-m");
		memset(name + 7, '~', (size_t)(i / 8 + 1));
		name[7 + i / 8 + 1] = (char)('0' + i % 8);
		ids[n++] = intern_topic(name);
	}
	for (i = 0; i < 30; i++) {
		snprintf(name, sizeof name, "order-a%02d", 29 - i); /* each before all the others */
		ids[n++] = intern_topic(name);
	}
	for (i = 0; i < 28; i++) {
		snprintf(name, sizeof name, "order-z%02d", i); /* each after all the others */
		ids[n++] = intern_topic(name);
	}
	assert_int_equal(n, N);
	assert_true(intern_topic_relabels() > relabels0);
	for (i = 0; i < N; i++) {
		for (j = 0; j < N; j++) {
			int want = i == j ? 0 : sign(strcmp(intern_topic_name(ids[i]), intern_topic_name(ids[j])));
			assert_int_equal(sign(intern_topic_cmp(ids[i], ids[j])), want);
			assert_int_equal(sign(tp_cmp(&(kg_tp){ ids[i], 3 }, &(kg_tp){ ids[j], 1 })), i == j ? 1 : want);
		}
	}
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof name, "order-group-%03d", (i * 97) % N);
		gids[i] = intern_group(name);
	}
	for (i = 0; i < N; i++) {
		for (j = 0; j < N; j++)
			assert_int_equal(sign(intern_group_cmp(gids[i], gids[j])),
					 sign(strcmp(intern_group_name(gids[i]), intern_group_name(gids[j]))));
	}
	/* an id nobody was given compares by its name ("?") and id, as before */
	assert_true(intern_topic_cmp(ids[0], -1) != 0);
	assert_int_equal(sign(intern_topic_cmp(-1, ids[0])), sign(strcmp("?", intern_topic_name(ids[0]))));
}

typedef struct cmp_race {
	int32_t a, b; /* two topics whose order is known */
	_Atomic int stop;
	_Atomic long done;
	long wrong;
} cmp_race;

/* Compare two topics over and over while another thread interns names that force relabellings. */
static void *
cmp_race_reader(void *arg)
{
	cmp_race *r = arg;
	while (!atomic_load(&r->stop)) {
		if (intern_topic_cmp(r->a, r->b) >= 0 || intern_topic_cmp(r->b, r->a) <= 0)
			r->wrong++;
		atomic_fetch_add(&r->done, 1);
	}
	return NULL;
}

/* Comparisons that overlap a relabelling stay right (they compare the names). */
static void
test_intern_order_race(void **state)
{
	cmp_race r = { .a = intern_topic("race-b"), .b = intern_topic("race-c") };
	pthread_t th;
	uint64_t relabels0 = intern_topic_relabels();
	char name[300];
	int i;
	long seen;
	(void)state;
	assert_int_equal(pthread_create(&th, NULL, cmp_race_reader, &r), 0);
	while (atomic_load(&r.done) == 0)
		sched_yield(); /* the reader is comparing: it ends only when told */
	for (i = 0; i < 2000; i++) {
		/* "race-b~0" .. "race-b~8", "race-b~~0" ...: each after every name before, all before "race-c" */
		memcpy(name, "race-b", 6);
		memset(name + 6, '~', (size_t)(i / 9 + 1));
		name[6 + i / 9 + 1] = (char)('0' + i % 9);
		name[6 + i / 9 + 2] = '\0';
		intern_topic(name);
	}
	seen = atomic_load(&r.done);
	while (atomic_load(&r.done) == seen)
		sched_yield(); /* and still was after the last relabelling */
	atomic_store(&r.stop, 1);
	pthread_join(th, NULL);
	assert_true(intern_topic_relabels() > relabels0 + 10);
	assert_true(r.done > 0);
	assert_int_equal(r.wrong, 0);
}

/*
 * A group's partitions in name order whatever its contributions: every
 * partition of its topics (sorted by name, not by interned id), a commit
 * beyond the partitions metadata knows, a target's partition of a topic
 * the group has nothing else of; a later commit for a partition wins; the
 * snapshot's groups and topics in name order.
 */
static void
test_builder_order(void **state)
{
	int32_t tz = intern_topic("zz-builder-order"), ta = intern_topic("aa-builder-order");
	int32_t tm = intern_topic("mm-builder-order");
	int32_t g2 = intern_group("zz-group-order"), g1 = intern_group("aa-group-order");
	kg_builder *b = builder_new(1000);
	kg_bgroup *g;
	kg_bmember *m;
	kg_snapshot *s;
	const kg_group *G;
	kg_tp tgt[1] = { { tm, 1 } }, asg[1] = { { tz, 1 } };
	(void)state;
	builder_topic(b, tz, 2);
	builder_topic(b, ta, 2);
	builder_topic(b, tm, 3);
	g = builder_group(b, g2);
	bgroup_committed(g, (kg_tp){ tz, 0 }, 5);
	bgroup_committed(g, (kg_tp){ tz, 7 }, 9); /* beyond the 2 partitions metadata knows */
	bgroup_committed(g, (kg_tp){ ta, 1 }, 3);
	bgroup_committed(g, (kg_tp){ tz, 0 }, 6); /* later: wins */
	m = bgroup_member(g, "m-1");
	bmember_assignment(m, asg, 1);
	bmember_target(m, tgt, 1);
	g = builder_group(b, g1);
	bgroup_topic(g, tz);
	bgroup_topic(g, ta);
	s = builder_finish(b);
	assert_int_equal(s->ngroups, 2);
	assert_string_equal(s->groups[0].name, "aa-group-order");
	assert_string_equal(s->groups[1].name, "zz-group-order");
	assert_true(s->ntopics >= 3);
	for (int i = 1; i < s->ntopics; i++)
		assert_true(strcmp(s->topics[i - 1].name, s->topics[i].name) < 0);
	G = snapshot_group(s, g2);
	assert_non_null(G);
	/* aa:0 aa:1 mm:1 zz:0 zz:1 zz:7 */
	assert_int_equal(G->nparts, 6);
	assert_true(G->parts[0].tp.topic == ta && G->parts[0].tp.partition == 0);
	assert_true(G->parts[1].tp.topic == ta && G->parts[1].tp.partition == 1);
	assert_true(G->parts[2].tp.topic == tm && G->parts[2].tp.partition == 1);
	assert_true(G->parts[3].tp.topic == tz && G->parts[3].tp.partition == 0);
	assert_true(G->parts[5].tp.topic == tz && G->parts[5].tp.partition == 7);
	assert_int_equal(G->parts[3].committed, 6);
	assert_int_equal(G->parts[5].committed, 9);
	assert_int_equal(G->parts[1].committed, 3);
	assert_int_equal(G->parts[4].owner, 0);
	assert_int_equal(G->parts[2].target_owner, 0);
	G = snapshot_group(s, g1);
	assert_non_null(G);
	assert_int_equal(G->nparts, 4); /* aa:0 aa:1 zz:0 zz:1 */
	assert_true(G->parts[0].tp.topic == ta && G->parts[3].tp.topic == tz && G->parts[3].tp.partition == 1);
	snapshot_unref(s);
}

/* Snapshots one after another reuse their chunks and come out the same (zeroed where nothing was set). */
static void
test_builder_reuse(void **state)
{
	int32_t t = intern_topic("reuse-topic");
	int k, p;
	(void)state;
	for (k = 0; k < 3; k++) {
		kg_builder *b = builder_new(1000 + k);
		kg_snapshot *s;
		const kg_group *G;
		int gi;
		builder_topic(b, t, 40);
		for (gi = 0; gi < 600; gi++) {
			char name[32];
			kg_bgroup *g;
			snprintf(name, sizeof name, "reuse-%03d", gi);
			g = builder_group(b, intern_group(name));
			for (p = 0; p < 40; p += 2)
				bgroup_committed(g, (kg_tp){ t, p }, 10 + k);
		}
		s = builder_finish(b);
		assert_int_equal(s->ngroups, 600);
		G = &s->groups[599];
		assert_int_equal(G->nparts, 40);
		for (p = 0; p < 40; p++) {
			assert_int_equal(G->parts[p].committed, p % 2 ? -1 : 10 + k);
			assert_false(G->parts[p].orphaned);
			assert_int_equal(G->parts[p].verdict, 0);
			assert_int_equal(G->parts[p].spark[KG_SPARK - 1], 0);
		}
		snapshot_unref(s);
	}
}

/* What keep_build() changes from the first snapshot's input. */
enum keep_change {
	KEEP_SAME, KEEP_COMMIT, KEEP_LOG_END, KEEP_ASKED, KEEP_STAMP, KEEP_ERROR, KEEP_STATE, KEEP_ASSIGN, KEEP_TARGET,
	KEEP_NCHANGES
};

/* A snapshot of a group without members (keep-g) and one with (keep-m) on one topic, keeping prev's unchanged rows. */
static kg_snapshot *
keep_build(kg_snapshot *prev, enum keep_change c)
{
	int32_t t = intern_topic("keep-t");
	kg_builder *b = builder_new(1700000000LL * 1000000 + (prev != NULL ? 1000000 : 0));
	kg_bgroup *g, *m;
	kg_tp asg[3];
	kg_bmember *bm;
	int p;
	if (prev != NULL)
		builder_keep(b, prev);
	builder_topic(b, t, 3);
	for (p = 0; p < 3; p++)
		builder_partition(b, (kg_tp){ t, p }, 1, c == KEEP_LOG_END && p == 1 ? 120 : 100);
	if (c == KEEP_STAMP) {
		kg_stamp st = { 90, 90, 1700000000000LL - 5000, 0 };
		builder_partition_stamp(b, (kg_tp){ t, 0 }, &st);
	}
	g = builder_group(b, intern_group("keep-g"));
	bgroup_data_time(g, 1700000000LL * 1000000 - (c == KEEP_ASKED ? 0 : 500000));
	bgroup_state(g, c == KEEP_STATE ? KG_STATE_DEAD : KG_STATE_EMPTY);
	if (c == KEEP_ERROR)
		bgroup_error(g, "no answer");
	for (p = 0; p < 3; p++)
		bgroup_committed(g, (kg_tp){ t, p }, c == KEEP_COMMIT && p == 2 ? 99 : 90 + p * 5);
	m = builder_group(b, intern_group("keep-m"));
	bgroup_data_time(m, 1700000000LL * 1000000 - 500000);
	bgroup_state(m, KG_STATE_STABLE);
	for (p = 0; p < 3; p++) {
		bgroup_committed(m, (kg_tp){ t, p }, 100);
		asg[p] = (kg_tp){ t, p };
	}
	bm = bgroup_member(m, "m-1");
	bmember_assignment(bm, asg, c == KEEP_ASSIGN ? 2 : 3);
	bmember_target(bm, asg, c == KEEP_TARGET ? 2 : 3);
	return builder_finish(b);
}

/* A copy of a block is its copier's: a number of its own, its input, its rows but the moved marks (the tracker's anew). */
static void
test_rows_copy(void **state)
{
	kg_rows *r = rows_new(3, "in", 2), *c;
	kg_gpart *p = rows_parts(r);
	(void)state;
	p[1].committed = 42;
	p[1].moved = true;
	p[1].moved_from = 2;
	rows_set_marks(r, 7);
	c = rows_copy(r);
	assert_int_not_equal(rows_id(c), rows_id(r));
	assert_true(rows_same_input(c, "in", 2));
	assert_false(rows_same_input(c, "on", 2));
	assert_int_equal(rows_parts(c)[1].committed, 42);
	assert_false(rows_parts(c)[1].moved);
	assert_int_equal(rows_parts(c)[1].moved_from, -1);
	assert_int_equal(rows_marks(c), 0);
	assert_true(p[1].moved); /* the original as it was */
	assert_false(rows_touched(c));
	rows_touch(c);
	assert_true(rows_touched(c));
	rows_unref(c);
	rows_unref(r);
}

/*
 * The builder keeps the rows of a group whose input is the last snapshot's,
 * and only those: keep-g without members, keep-m with one (its owners and
 * target owners in the rows), both on keep-t.
 */
static void
test_builder_keep(void **state)
{
	kg_snapshot *zero = keep_build(NULL, KEEP_SAME), *first = keep_build(zero, KEEP_SAME), *next;
	const kg_group *g0 = snapshot_group_by_name(first, "keep-g");
	int c;
	(void)state;
	/* asked anew (no snapshot before): its rows in the arena; not asked again since: a block the next may keep */
	assert_null(snapshot_group_by_name(zero, "keep-g")->rows);
	assert_non_null(g0);
	assert_false(g0->kept);
	assert_non_null(g0->rows);
	assert_non_null(snapshot_group_by_name(first, "keep-m")->rows);
	for (c = KEEP_SAME; c < KEEP_NCHANGES; c++) {
		kg_group *g;
		next = keep_build(first, (enum keep_change)c);
		const kg_group *gm;
		g = (kg_group *)snapshot_group_by_name(next, "keep-g");
		gm = snapshot_group_by_name(next, "keep-m");
		assert_non_null(g);
		/* keep-m: kept but when its topic or its member's assignment or target changed */
		assert_int_equal(gm->kept, c != KEEP_LOG_END && c != KEEP_STAMP && c != KEEP_ASSIGN && c != KEEP_TARGET);
		assert_int_equal(gm->parts[2].owner, c == KEEP_ASSIGN ? -1 : 0);
		assert_int_equal(gm->parts[2].target_owner, c == KEEP_TARGET ? -1 : 0);
		assert_int_equal(gm->members[0].nrevoking, c == KEEP_TARGET ? 1 : 0);
		if (c == KEEP_SAME || c == KEEP_ASSIGN || c == KEEP_TARGET) {
			kg_gpart *was = g->parts;
			assert_true(g->kept);
			assert_ptr_equal(g->parts, g0->parts);
			assert_int_equal(g->lag, g0->lag);
			/* a writer owns a copy: the first snapshot's row stays as it was */
			group_rows_own(g);
			assert_false(g->kept);
			assert_ptr_not_equal(g->parts, was);
			g->parts[0].verdict = KG_VERDICT_STALLED;
			assert_int_equal(g0->parts[0].verdict, KG_VERDICT_NONE);
			assert_int_equal(g->parts[2].committed, 100);
		} else {
			assert_false(g->kept);
			assert_ptr_not_equal(g->parts, g0->parts);
		}
		if (c == KEEP_COMMIT)
			assert_int_equal(g->parts[2].committed, 99);
		if (c == KEEP_LOG_END)
			assert_int_equal(g->parts[1].lag, 25);
		snapshot_unref(next);
	}
	snapshot_unref(first);
	snapshot_unref(zero);
	/* rows the tracker wrote an owner into (as it does for a rebalancing group) are not kept: built again */
	zero = keep_build(NULL, KEEP_ASSIGN);
	first = keep_build(zero, KEEP_ASSIGN);
	{
		kg_group *m = (kg_group *)snapshot_group_by_name(first, "keep-m");
		assert_non_null(m->rows);
		assert_int_equal(m->parts[2].owner, -1);
		group_rows_own(m);
		rows_touch(m->rows);
		m->parts[2].owner = 0;
	}
	next = keep_build(first, KEEP_ASSIGN);
	assert_false(snapshot_group_by_name(next, "keep-m")->kept);
	assert_int_equal(snapshot_group_by_name(next, "keep-m")->parts[2].owner, -1);
	assert_true(snapshot_group_by_name(next, "keep-g")->kept);
	snapshot_unref(next);
	snapshot_unref(first);
	snapshot_unref(zero);
}

/*
 * --once's last snapshot (builder_last): the chunks kept for the next build
 * (a freed snapshot's, a freed builder's) go back to malloc for what is
 * derived and reported, and so do those of every arena freed after it.  It
 * runs last: the spare lists stay off for the rest of the process.
 */
static void
test_builder_last(void **state)
{
	kg_arena *a = arena_new_scratch(), *b = arena_new();
	int i;
	(void)state;
	for (i = 0; i < 100; i++) {
		(void)arena_alloc(a, 4000);
		(void)arena_alloc(b, 4000);
	}
	arena_free(a);
	assert_true(arena_spare_bytes() >= 6 * 65536); /* 400 KB in 64 KB chunks, kept for the next builder */
	builder_last();
	assert_int_equal(arena_spare_bytes(), 0);
	arena_free(b); /* the snapshot published before the last one, freed after */
	assert_int_equal(arena_spare_bytes(), 0);
	a = arena_new_scratch();
	for (i = 0; i < 100; i++)
		(void)arena_alloc(a, 4000);
	arena_free(a);
	assert_int_equal(arena_spare_bytes(), 0);
}

/*
 * The builder's scratch: an array grows in place while it is the arena's
 * last allocation, and is copied whole when something came after it; a
 * group's members are found by id before and after its index becomes a
 * hash map (BMEMBER_SCAN); commits of groups contributed in turns keep
 * their own offsets.
 */
static void
test_builder_scratch(void **state)
{
	kg_arena *a = arena_new_scratch();
	int *v = NULL, *first, *w = NULL, i;
	size_t cap = 0, wcap = 0;
	int32_t t = intern_topic("scratch-topic"), t2 = intern_topic("scratch-grown"), g1 = intern_group("scratch-1"),
		g2 = intern_group("scratch-2");
	const kg_topic *T;
	kg_builder *b;
	kg_bgroup *g, *h;
	kg_bmember *m[20];
	kg_snapshot *s;
	const kg_group *G;
	char id[32];
	(void)state;
	arena_grow(a, &v, &cap, 1, sizeof *v);
	first = v;
	for (i = 0; i < 1000; i++) {
		arena_grow(a, &v, &cap, (size_t)i + 1, sizeof *v);
		v[i] = i * 7;
	}
	assert_ptr_equal(v, first); /* 4 KB within one chunk, nothing after it: grown where it was */
	assert_true(cap >= 1000);
	for (i = 0; i < 3000; i++) {
		arena_grow(a, &w, &wcap, (size_t)i + 1, sizeof *w);
		w[i] = -i;
		(void)arena_alloc(a, 24); /* something after it each time: every growth a copy */
	}
	for (i = 0; i < 1000; i++)
		assert_int_equal(v[i], i * 7);
	for (i = 0; i < 3000; i++)
		assert_int_equal(w[i], -i);
	arena_free(a);

	b = builder_new(5000);
	builder_topic(b, t, 40);
	g = builder_group(b, g1);
	h = builder_group(b, g2);
	for (i = 0; i < 20; i++) {
		kg_tp tp = { t, i };
		snprintf(id, sizeof id, "member-%02d", 19 - i);
		m[i] = bgroup_member(g, id);
		bmember_ids(m[i], id, "/10.0.0.1", NULL);
		bmember_assignment(m[i], &tp, 1);
		bgroup_committed(g, tp, 100 + i);
		bgroup_committed(h, (kg_tp){ t, 39 - i }, 200 + i);
	}
	for (i = 0; i < 20; i++) {
		snprintf(id, sizeof id, "member-%02d", 19 - i);
		assert_ptr_equal(bgroup_member(g, id), m[i]); /* found again: by scan, then by the index */
		bmember_ids(m[i], id, "/10.0.0.2", NULL); /* a new host replaces the old */
	}
	bgroup_protocol(g, "consumer", "range");
	bgroup_protocol(g, "consumer", "range");
	builder_topic(b, t2, 6);
	for (i = 0; i < 6; i++)
		builder_partition(b, (kg_tp){ t2, i }, 1, 1000 + i);
	builder_partition(b, (kg_tp){ t2, 10 }, 2, 1010); /* beyond its 6: the topic's partitions grow */
	s = builder_finish(b);
	for (T = NULL, i = 0; i < s->ntopics; i++)
		T = s->topics[i].id == t2 ? &s->topics[i] : T;
	assert_non_null(T);
	assert_int_equal(T->npartitions, 11);
	for (i = 0; i < 11; i++)
		assert_int_equal(T->partitions[i].log_end, i < 6 || i == 10 ? 1000 + i : -1);
	G = snapshot_group(s, g1);
	assert_non_null(G);
	assert_int_equal(G->nmembers, 20);
	assert_string_equal(G->assignor, "range");
	for (i = 0; i < 20; i++) {
		snprintf(id, sizeof id, "member-%02d", i);
		assert_string_equal(G->members[i].member_id, id);
		assert_string_equal(G->members[i].client_id, id);
		assert_string_equal(G->members[i].host, "/10.0.0.2");
		assert_int_equal(G->members[i].nassigned, 1);
		assert_int_equal(G->members[i].assignment[0].partition, 19 - i);
		assert_int_equal(G->parts[i].committed, 100 + i);
		assert_int_equal(G->parts[i].owner, 19 - i);
	}
	G = snapshot_group(s, g2);
	assert_non_null(G);
	for (i = 0; i < 20; i++)
		assert_int_equal(G->parts[39 - i].committed, 200 + i);
	snapshot_unref(s);
}

static void
test_builder_rebalancing(void **state)
{
	kg_builder *b = builder_new(1000);
	int32_t t = intern_topic("orders"), gid = intern_group("g-prep");
	kg_bgroup *g;
	kg_snapshot *s;
	const kg_group *G;
	(void)state;
	builder_topic(b, t, 3);
	g = builder_group(b, gid);
	bgroup_state(g, KG_STATE_PREPARING_REBALANCE);
	bgroup_protocol(g, "consumer", "");
	bgroup_committed(g, (kg_tp){ t, 0 }, 1);
	bgroup_member(g, "a-1");
	s = builder_finish(b);
	G = snapshot_group(s, gid);
	assert_int_equal(G->norphaned, 0);
	assert_int_equal(G->nidle, 0);
	assert_int_equal(G->proto, KG_PROTO_UNKNOWN);
	snapshot_unref(s);
}

/* Assignor names imply the protocol. */
static void
test_proto(void **state)
{
	(void)state;
	assert_int_equal(proto_from_assignor("range", "consumer"), KG_PROTO_EAGER);
	assert_int_equal(proto_from_assignor("roundrobin", "consumer"), KG_PROTO_EAGER);
	assert_int_equal(proto_from_assignor("sticky", "consumer"), KG_PROTO_EAGER);
	assert_int_equal(proto_from_assignor("cooperative-sticky", "consumer"), KG_PROTO_COOPERATIVE);
	assert_int_equal(proto_from_assignor("org.apache.kafka.clients.consumer.CooperativeStickyAssignor", ""),
			 KG_PROTO_COOPERATIVE);
	assert_int_equal(proto_from_assignor("", "consumer"), KG_PROTO_UNKNOWN);
	assert_int_equal(proto_from_assignor("range", "connect"), KG_PROTO_UNKNOWN);
	assert_int_equal(state_parse("PreparingRebalance"), KG_STATE_PREPARING_REBALANCE);
	assert_int_equal(state_parse("completing_rebalance"), KG_STATE_COMPLETING_REBALANCE);
	assert_int_equal(state_parse("stable"), KG_STATE_STABLE);
	assert_int_equal(state_parse("nonsense"), KG_STATE_UNKNOWN);
	assert_true(state_rebalancing(KG_STATE_COMPLETING_REBALANCE));
	assert_false(state_rebalancing(KG_STATE_STABLE));
	assert_int_equal(reason_parse(reason_key(KG_REASON_MAX_POLL)), KG_REASON_MAX_POLL);
}

/* Events read like the seeds' logs. */
static void
test_event_text(void **state)
{
	kg_event *e = event_new(KG_EV_REVOKED, 1000000 + 12121000, intern_group("g"));
	kg_tp r[4], b[4];
	sbuf s = { 0 };
	(void)state;
	event_member(e, "consumer-a-1", "consumer-a", NULL, 0);
	e->nparts = set("t", "4", r);
	e->parts = tp_dup(r, e->nparts);
	e->nbefore = set("t", "0 4", b);
	e->before = tp_dup(b, e->nbefore);
	e->cls = KG_CLASS_INCREMENTAL;
	e->single_topic = true;
	event_format_line(e, 1000000, &s);
	assert_string_equal(sbuf_str(&s), "[12.121s] consumer-a revoked [4] of [0 4] (incremental)");
	e->cls = KG_CLASS_FULL;
	sbuf_reset(&s);
	event_format(e, &s);
	assert_string_equal(sbuf_str(&s), "consumer-a revoked [4] (all: stop-the-world)");
	e->evidence = KG_EVID_PROTOCOL;
	sbuf_reset(&s);
	event_format(e, &s);
	assert_string_equal(sbuf_str(&s), "consumer-a revoked [4] (all: stop-the-world) [eager protocol]");
	event_unref(e);
	e = event_new(KG_EV_MEMBER_LEFT, 0, intern_group("g"));
	event_member(e, "m", "worker-3", NULL, 2);
	e->reason = KG_REASON_MAX_POLL;
	sbuf_reset(&s);
	event_format(e, &s);
	assert_string_equal(sbuf_str(&s), "worker-3 left (max.poll.interval)");
	event_unref(e);
	sbuf_free(&s);
	assert_int_equal(event_kind_parse(event_kind_key(KG_EV_STORM_BEGIN)), KG_EV_STORM_BEGIN);
}

/* util: durations, sizes, counts, UTF-8. */
static void
test_util(void **state)
{
	char buf[32];
	char bad[] = "ok\x1b[31m\xff\xfe end";
	(void)state;
	assert_int_equal(util_parse_duration_us("500ms"), 500000);
	assert_int_equal(util_parse_duration_us("4s"), 4000000);
	assert_int_equal(util_parse_duration_us("2"), 2000000);
	assert_int_equal(util_parse_duration_us("1h"), 3600LL * 1000000);
	assert_int_equal(util_parse_duration_us("x"), -1);
	assert_int_equal(util_parse_duration_us("-3s"), -1);
	assert_int_equal(util_parse_size("10M"), 10 * 1024 * 1024);
	assert_int_equal(util_parse_size("4096"), 4096);
	assert_int_equal(util_parse_size("1GiB"), 1024LL * 1024 * 1024);
	assert_int_equal(util_parse_size("12Q"), -1);
	util_fmt_count(buf, sizeof buf, 1234);
	assert_string_equal(buf, "1.2k");
	util_fmt_count(buf, sizeof buf, 999);
	assert_string_equal(buf, "999");
	util_fmt_count(buf, sizeof buf, 34000000);
	assert_string_equal(buf, "34M");
	util_fmt_duration(buf, sizeof buf, 2500000);
	assert_string_equal(buf, "2.5s");
	util_fmt_duration(buf, sizeof buf, 65LL * 1000000);
	assert_string_equal(buf, "1m05s");
	util_sanitize_text(bad);
	assert_string_equal(bad, "ok?[31m?? end");
	{
		char c1[] = "a\xc2\x9b""31mb\xc3\xa9";
		util_sanitize_text(c1); /* U+009B is CSI: one '?'; U+00E9 stays */
		assert_string_equal(c1, "a?31mb\xc3\xa9");
	}
	assert_int_equal(util_utf8_valid_prefix("\xc3\xa9t\xc3", 4), 3);
	assert_int_equal(intern_topic("x-topic"), intern_topic("x-topic"));
	assert_string_equal(intern_topic_name(intern_topic("x-topic")), "x-topic");
	assert_int_equal(intern_group_find("never-interned-group"), -1);
}

/* JSON string escaping keeps output valid whatever the input. */
static void
test_json_str(void **state)
{
	sbuf s = { 0 };
	(void)state;
	sbuf_add_json_str(&s, "a\"b\\c\n\x01\xff");
	assert_string_equal(sbuf_str(&s), "\"a\\\"b\\\\c\\n\\u0001\\ufffd\"");
	sbuf_free(&s);
}

/* A snapshot at now of one group whose data was asked at data_time (a source that asks it in turn). */
static kg_snapshot *
gap_snap(int64_t now, int64_t data_time, kg_group_state st, const char *member)
{
	kg_builder *b = builder_new(now);
	kg_bgroup *g;
	builder_refresh(b, 1, now, 1000000);
	g = builder_group(b, intern_group("gap-group"));
	bgroup_state(g, st);
	bgroup_protocol(g, "consumer", st == KG_STATE_STABLE ? "range" : "");
	bgroup_data_time(g, data_time);
	if (member != NULL)
		bmember_ids(bgroup_member(g, member), member, "/10.0.0.1", NULL);
	return builder_finish(b);
}

/* The tracker's events of a change seen after a gap in the group's data say between when; without a gap, not. */
static void
test_gap_between(void **state)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_evlist ev = { 0 };
	kg_snapshot *s;
	const int64_t S = 1000000, t0 = 1700000000LL * S;
	size_t i, found = 0;
	(void)state;
	s = gap_snap(t0, t0, KG_STATE_STABLE, "a");
	tracker_apply(t, NULL, s, &ev);
	snapshot_unref(s);
	s = gap_snap(t0 + 1 * S, t0, KG_STATE_STABLE, "a"); /* the same data, a second older */
	tracker_apply(t, NULL, s, &ev);
	snapshot_unref(s);
	evlist_clear(&ev);
	/* asked again 30 s later: a member came and the group rebalances */
	s = gap_snap(t0 + 31 * S, t0 + 30 * S, KG_STATE_PREPARING_REBALANCE, "b");
	tracker_apply(t, NULL, s, &ev);
	snapshot_unref(s);
	for (i = 0; i < ev.n; i++) {
		sbuf txt = { 0 };
		if (ev.v[i]->group < 0)
			continue;
		assert_int_equal(ev.v[i]->after_us, t0);
		event_format(ev.v[i], &txt);
		assert_non_null(strstr(sbuf_str(&txt), " (between "));
		sbuf_free(&txt);
		found++;
	}
	assert_true(found > 0);
	evlist_clear(&ev);
	/* asked again a second later: no gap, no bound */
	s = gap_snap(t0 + 32 * S, t0 + 31 * S, KG_STATE_STABLE, "b");
	tracker_apply(t, NULL, s, &ev);
	snapshot_unref(s);
	assert_true(ev.n > 0);
	for (i = 0; i < ev.n; i++)
		assert_int_equal(ev.v[i]->after_us, 0);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
}

/* Run. */
/* A 4 s session timeout: the embedded demo's setting is said to be one (issue 26), anyone else's is a warning. */
static void
test_lint_demo_setting(void **state)
{
	static const char *const names[] = { "kgtop-demo-coop", "payments" };
	kg_lint lint[8];
	int k, i, n;
	(void)state;
	for (k = 0; k < 2; k++) {
		kg_group g;
		bool said = false;
		memset(&g, 0, sizeof g);
		g.name = names[k];
		g.sum.session_timeout_us = 4000000;
		g.sum.session_src = KG_LIMIT_TRACE;
		n = group_lints(&g, lint, 8);
		for (i = 0; i < n; i++) {
			if (strstr(lint[i].text, "session.timeout.ms 4") == NULL)
				continue;
			said = true;
			if (k == 0) {
				assert_int_equal(lint[i].level, KG_LINT_OK);
				assert_non_null(strstr(lint[i].text, "demo setting"));
			} else {
				assert_int_equal(lint[i].level, KG_LINT_WARN);
				assert_null(strstr(lint[i].text, "demo"));
			}
		}
		assert_true(said);
	}
}

/*
 * A group's lag points start at one, not util_grow's 8 (a group seen once,
 * as --once sees every group, keeps one: 1.1 MB at 10,000 groups), and
 * double from there; what they say does not change.
 */
static void
test_history_lag_points(void **state)
{
	kg_history *h = history_new(300 * 1000000LL);
	int32_t g = intern_group("hist-lag");
	size_t b0, b1, b2;
	(void)state;
	b0 = history_bytes(h);
	history_add_lag(h, g, 1000000, 5);
	b1 = history_bytes(h);
	history_add_lag(h, g, 200000000, 7);
	b2 = history_bytes(h);
	assert_true(b1 > b0);
	assert_int_equal(b2 - b1, 16); /* room for one more point (a time and a lag) */
	assert_int_equal(history_lag_at(h, g, 1000000), 5);
	assert_int_equal(history_lag_at(h, g, 250000000), 7);
	history_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_intern_order),
		cmocka_unit_test(test_intern_order_race),
		cmocka_unit_test(test_builder_order),
		cmocka_unit_test(test_builder_reuse),
		cmocka_unit_test(test_builder_keep),
		cmocka_unit_test(test_rows_copy),
		cmocka_unit_test(test_builder_scratch),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_builder),
		cmocka_unit_test(test_builder_rebalancing),
		cmocka_unit_test(test_lint_demo_setting),
		cmocka_unit_test(test_proto),
		cmocka_unit_test(test_event_text),
		cmocka_unit_test(test_util),
		cmocka_unit_test(test_json_str),
		cmocka_unit_test(test_gap_between),
		cmocka_unit_test(test_history_lag_points),
		cmocka_unit_test(test_builder_last), /* last: it turns the spare lists off */
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

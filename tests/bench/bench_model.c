/*
 * bench_model.c: the model's cost on a big cluster, without any network:
 * building a snapshot of 2,000 groups (20 live with 10 members) over 500
 * topics x 40 partitions, and deriving events between two such snapshots.
 * Prints figures and the ratio to the target (derivation <= 20 ms).
 *
 * Then the dashboard's model at 10,000 groups x 20 partitions, shaped as
 * make bench-cost's cluster (tests/fixture/scenarios/cost-10k.json): 1,000
 * Stable groups of 3 members on 100 topics that grow 10 records a tick,
 * their commits keeping up; 9,000 Empty groups on 1,000 idle topics, their
 * offsets frozen.  Every tick builds the whole snapshot (as the kafka
 * source contributes every group it knows) and the tracker derives it: the
 * milliseconds of each, median and best, and their share of a 1 s refresh.
 * The snapshot published last is held while the next is built and derived,
 * as the collector's pending frame or the viewer holds it.
 * Twice: every group's data new every tick (every group asked every
 * refresh), then the Empty groups' every tenth tick, in turn (a dashboard
 * asks a settled freeze every 10 s: doc/DESIGN.md): the model's cost of
 * groups whose input did not change, without and with their rows kept (rows.h);
 * last, an idle cluster (the Stable groups' topics and commits stand still
 * too, every group asked every tenth tick), without and with.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/options.h"
#include "model/intern.h"
#include "model/tracker.h"
#include "util/util.h"

#define NGROUPS 2000
#define NTOPICS 500
#define NPARTS 40
#define LIVE 20
#define MEMBERS 10

/* One snapshot of the synthetic cluster at tick k. */
static kg_snapshot *
build(int k)
{
	kg_builder *b = builder_new(1700000000LL * 1000000 + (int64_t)k * 1000000);
	int t, p, g, m;
	char name[64];
	builder_cluster(b, "bench");
	for (t = 0; t < NTOPICS; t++) {
		int32_t id;
		snprintf(name, sizeof name, "topic-%03d", t);
		id = intern_topic(name);
		builder_topic(b, id, NPARTS);
		for (p = 0; p < NPARTS; p++)
			builder_partition(b, (kg_tp){ id, p }, p % 3 + 1, 1000000 + (int64_t)k * 10);
	}
	for (g = 0; g < NGROUPS; g++) {
		kg_bgroup *bg;
		int32_t topic;
		snprintf(name, sizeof name, "group-%04d", g);
		bg = builder_group(b, intern_group(name));
		snprintf(name, sizeof name, "topic-%03d", g % NTOPICS);
		topic = intern_topic(name);
		bgroup_topic(bg, topic);
		for (p = 0; p < NPARTS; p++)
			bgroup_committed(bg, (kg_tp){ topic, p }, 1000000 - 250 + (int64_t)k * 9);
		if (g >= LIVE) {
			bgroup_state(bg, KG_STATE_EMPTY);
			bgroup_protocol(bg, "consumer", "");
			continue;
		}
		bgroup_state(bg, KG_STATE_STABLE);
		bgroup_protocol(bg, "consumer", "range");
		for (m = 0; m < MEMBERS; m++) {
			kg_tp asg[NPARTS];
			int n = 0;
			kg_bmember *bm;
			char mid[64], cid[32];
			snprintf(cid, sizeof cid, "consumer-%d", m);
			snprintf(mid, sizeof mid, "consumer-%d-0000-%04d", m, g);
			bm = bgroup_member(bg, mid);
			bmember_ids(bm, cid, "/10.0.0.1", NULL);
			for (p = m; p < NPARTS; p += MEMBERS)
				asg[n++] = (kg_tp){ topic, p };
			bmember_assignment(bm, asg, n);
		}
	}
	return builder_finish(b);
}

#define C_GROUPS 10000
#define C_LIVE 1000
#define C_TOPICS 1100
#define C_LIVE_TOPICS 100
#define C_PARTS 20
#define C_MEMBERS 3

/* This thread's CPU time in microseconds (the machine may be shared: wall time would count the others). */
static int64_t
cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t finish_cpu_us; /* builder_finish()'s share of the last build10k() */
static int empty_pace = 1;    /* the Empty groups' data is new every this many ticks */
static bool keep = true;
static bool idle;             /* the live groups' topics and commits stand still too, and they are asked in turn */
static int64_t last_cost_us;  /* bench10k()'s finish + derive, median */      /* the next snapshot keeps the unchanged rows of the last (rows.h), as the collector's */

/* One snapshot of the cost-10k cluster at tick k, keeping the unchanged rows of prev (the one applied last) when keep. */
static kg_snapshot *
build10k(int k, kg_snapshot *prev)
{
	kg_snapshot *s;
	kg_builder *b = builder_new(1700000000LL * 1000000 + (int64_t)k * 1000000);
	if (keep && prev != NULL)
		builder_keep(b, prev);
	int t, p, g, m;
	char name[64];
	builder_cluster(b, "bench");
	builder_refresh(b, (uint64_t)k + 1, 1700000000LL * 1000000 + (int64_t)k * 1000000, 1000000);
	for (t = 0; t < C_TOPICS; t++) {
		int32_t id;
		snprintf(name, sizeof name, "cost-topic-%04d", (t * 7919) % C_TOPICS); /* interned out of name order */
		id = intern_topic(name);
		builder_topic(b, id, C_PARTS);
		for (p = 0; p < C_PARTS; p++)
			builder_partition(b, (kg_tp){ id, p }, p % 3 + 1,
					  1000000 + ((t * 7919) % C_TOPICS < C_LIVE_TOPICS && !idle ? (int64_t)k * 10 : 0));
	}
	for (g = 0; g < C_GROUPS; g++) {
		kg_bgroup *bg;
		int32_t topic;
		bool live = g < C_LIVE;
		snprintf(name, sizeof name, "cost-group-%05d", (g * 7) % C_GROUPS);
		bg = builder_group(b, intern_group(name));
		snprintf(name, sizeof name, "cost-topic-%04d", live ? g % C_LIVE_TOPICS : C_LIVE_TOPICS + g % (C_TOPICS - C_LIVE_TOPICS));
		topic = intern_topic(name);
		bgroup_data_time(bg, 1700000000LL * 1000000 + (int64_t)(live && !idle ? k : k - (k + g) % empty_pace) * 1000000);
		bgroup_coordinator(bg, g % 3 + 1);
		for (p = 0; p < C_PARTS; p++)
			bgroup_committed(bg, (kg_tp){ topic, p }, 1000000 - (p % 5 ? 250 : 0) + (live && !idle ? (int64_t)k * 10 : 0));
		if (!live) {
			bgroup_state(bg, KG_STATE_EMPTY);
			bgroup_protocol(bg, "consumer", "");
			continue;
		}
		bgroup_state(bg, KG_STATE_STABLE);
		bgroup_protocol(bg, "consumer", "range");
		for (m = 0; m < C_MEMBERS; m++) {
			kg_tp asg[C_PARTS];
			int n = 0;
			kg_bmember *bm;
			char mid[64], cid[32];
			snprintf(cid, sizeof cid, "consumer-%d", m);
			snprintf(mid, sizeof mid, "consumer-%d-0000-%05d", m, g);
			bm = bgroup_member(bg, mid);
			bmember_ids(bm, cid, "/10.0.0.1", NULL);
			for (p = m; p < C_PARTS; p += C_MEMBERS)
				asg[n++] = (kg_tp){ topic, p };
			bmember_assignment(bm, asg, n);
		}
	}
	finish_cpu_us = cpu_us();
	s = builder_finish(b);
	finish_cpu_us = cpu_us() - finish_cpu_us;
	return s;
}

/* qsort: microseconds. */
static int
us_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : (x > y);
}

/* The dashboard's model at 10,000 groups: build and derive, ticks times after a warm-up of warm. */
static void
bench10k(int warm, int ticks)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_evlist ev = { 0 };
	int64_t *bt = xcalloc((size_t)ticks, sizeof *bt), *ft = xcalloc((size_t)ticks, sizeof *ft);
	int64_t *dt = xcalloc((size_t)ticks, sizeof *dt);
	kg_snapshot *shown = NULL;
	int i, k;
	int64_t kept = 0, rest = 0;
	for (i = 0; i < warm + ticks; i++) {
		int64_t t0 = cpu_us(), t1, t2;
		kg_snapshot *s = build10k(i, shown);
		t1 = cpu_us();
		for (k = 0; i >= warm && k < s->ngroups; k++)
			kept += s->groups[k].kept;
		tracker_apply(t, NULL, s, &ev);
		t2 = cpu_us();
		if (i >= warm) {
			bt[i - warm] = t1 - t0;
			ft[i - warm] = finish_cpu_us;
			dt[i - warm] = t2 - t1;
			for (k = 0; k < s->ngroups; k++)
				rest += s->groups[k].kept;
		}
		/* the published snapshot lives until the next is published, as a viewer holds it (collector.c) */
		if (shown != NULL)
			snapshot_unref(shown);
		shown = s;
		evlist_clear(&ev);
	}
	snapshot_unref(shown);
	qsort(bt, (size_t)ticks, sizeof *bt, us_cmp);
	qsort(ft, (size_t)ticks, sizeof *ft, us_cmp);
	qsort(dt, (size_t)ticks, sizeof *dt, us_cmp);
	printf("dashboard model at 10,000 groups x 20 partitions (1,000 live x 3 members; cost-10k's shape), %d ticks after %d,\n"
	       "the %s groups' data new every %d tick%s, %s; CPU time of this thread:\n", ticks, warm,
	       idle ? "Stable and Empty (nothing moves)" : "Empty", empty_pace, empty_pace == 1 ? "" : "s, in turn",
	       keep ? "unchanged rows kept (rows.h)" : "every row built and judged (no builder_keep)");
	printf("  groups whose rows were kept: %.0f a tick, of them left unjudged: %.0f\n", (double)kept / ticks,
	       (double)rest / ticks);
	printf("  building a snapshot: %.1f ms median, %.1f best; of it builder_finish: %.1f ms median, %.1f best\n",
	       (double)bt[ticks / 2] / 1000.0, (double)bt[0] / 1000.0, (double)ft[ticks / 2] / 1000.0, (double)ft[0] / 1000.0);
	printf("  deriving it (tracker_apply): %.1f ms median, %.1f best\n", (double)dt[ticks / 2] / 1000.0, (double)dt[0] / 1000.0);
	printf("  finish + derive: %.1f %% of a core at -i 1 (median)\n", (double)(ft[ticks / 2] + dt[ticks / 2]) / 10000.0);
	last_cost_us = ft[ticks / 2] + dt[ticks / 2];
	free(ft);
	free(bt);
	free(dt);
	free(ev.v);
	tracker_free(t);
}

/* bench10k() without keeping rows and with, and the ratio of their finish + derive. */
static void
kept_or_not(int warm, int ticks, const char *what)
{
	int64_t without;
	keep = false;
	bench10k(warm, ticks);
	without = last_cost_us;
	keep = true;
	bench10k(warm, ticks);
	printf("%s: finish + derive with their rows kept / without: %.2fx\n", what,
	       without > 0 ? (double)last_cost_us / (double)without : 0.0);
}

/* Entry point. */
int
main(int argc, char **argv)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_evlist ev = { 0 };
	int64_t t0, t1, best_build = -1, best_derive = -1;
	int i, rounds = argc > 1 ? atoi(argv[1]) : 10;
	int warm = argc > 2 ? atoi(argv[2]) : 35, ticks = rounds < 5 ? 5 : rounds * 2;
	kg_snapshot *s = build(0);
	tracker_apply(t, NULL, s, &ev);
	snapshot_unref(s);
	evlist_clear(&ev);
	for (i = 1; i <= rounds; i++) {
		t0 = util_mono_us();
		s = build(i);
		t1 = util_mono_us();
		if (best_build < 0 || t1 - t0 < best_build)
			best_build = t1 - t0;
		t0 = util_mono_us();
		tracker_apply(t, NULL, s, &ev);
		t1 = util_mono_us();
		if (best_derive < 0 || t1 - t0 < best_derive)
			best_derive = t1 - t0;
		snapshot_unref(s);
		evlist_clear(&ev);
	}
	printf("model on 2,000 groups (20 live x 10 members), 500 topics x 40 partitions, best of %d:\n", rounds);
	printf("  building a snapshot: %.2f ms\n", (double)best_build / 1000.0);
	printf("  deriving events between two snapshots: %.2f ms (target <= 20 ms: %.2fx)\n",
	       (double)best_derive / 1000.0, (double)best_derive / 20000.0);
	printf("  history held: %.1f MiB\n", (double)history_bytes(tracker_history(t)) / 1048576.0);
	free(ev.v);
	tracker_free(t);
	bench10k(warm, ticks);
	empty_pace = 10;
	kept_or_not(warm, ticks, "groups whose input did not change");
	/* an idle cluster: the Stable groups (members, owners in their rows) at rest too */
	idle = true;
	kept_or_not(warm, ticks, "an idle cluster, every group asked every tenth tick");
	return 0;
}

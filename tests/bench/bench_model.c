/*
 * bench_model.c: the model's cost on a big cluster, without any network:
 * building a snapshot of 2,000 groups (20 live with 10 members) over 500
 * topics x 40 partitions, and deriving events between two such snapshots.
 * Prints figures and the ratio to the target (derivation <= 20 ms).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

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

/* Entry point. */
int
main(int argc, char **argv)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_evlist ev = { 0 };
	int64_t t0, t1, best_build = -1, best_derive = -1;
	int i, rounds = argc > 1 ? atoi(argv[1]) : 10;
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
	return 0;
}

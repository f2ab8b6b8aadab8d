/*
 * bench_progress.c: what progress costs on a big cluster, without any
 * network: 2,000 groups (20 live with 10 members) each committing on its
 * own topic of 10 partitions (20,000 partitions), refreshed once a second with producers and consumers moving
 * (a tenth of the groups frozen, so verdicts and time lags have work).
 * Prints, per refresh: the verdict and time-lag derivation alone
 * (progress_topics() and progress_group() over every group: what issue 10
 * adds on top of the tracker), target <= 5 ms; the whole tracker's
 * derivation for reference; and the bytes of progress state per
 * partition.  Figures only, never a failure on timing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/options.h"
#include "model/intern.h"
#include "model/progress.h"
#include "model/tracker.h"
#include "util/util.h"

#define NGROUPS 2000
#define NTOPICS 2000
#define NPARTS 10 /* partitions per group, its own topic: 2,000 x 10 = 20,000 */
#define LIVE 20
#define MEMBERS 10
#define T0_US (1700000000LL * 1000000)

/* One snapshot of the synthetic cluster at refresh k (one a second). */
static kg_snapshot *
build(int k)
{
	kg_builder *b = builder_new(T0_US + (int64_t)k * 1000000);
	int t, p, g, m;
	char name[64];
	builder_cluster(b, "bench");
	for (t = 0; t < NTOPICS; t++) {
		int32_t id;
		snprintf(name, sizeof name, "topic-%04d", t);
		id = intern_topic(name);
		builder_topic(b, id, NPARTS);
		for (p = 0; p < NPARTS; p++) {
			builder_partition(b, (kg_tp){ id, p }, p % 3 + 1, 1000000 + (int64_t)k * 20);
			builder_partition_start(b, (kg_tp){ id, p }, 1000);
		}
	}
	for (g = 0; g < NGROUPS; g++) {
		kg_bgroup *bg;
		int32_t topic;
		/* a tenth frozen (STALLED, then STOPPED), the rest keep up but for 250 records */
		int64_t committed = g % 10 == 0 ? 1000000 - 250 : 1000000 - 250 + (int64_t)k * 20;
		snprintf(name, sizeof name, "group-%04d", g);
		bg = builder_group(b, intern_group(name));
		snprintf(name, sizeof name, "topic-%04d", g);
		topic = intern_topic(name);

		for (p = 0; p < NPARTS; p++)
			bgroup_committed(bg, (kg_tp){ topic, p }, committed);
		if (g >= LIVE) {
			bgroup_state(bg, KG_STATE_EMPTY);
			bgroup_protocol(bg, "consumer", "");
			continue;
		}
		bgroup_state(bg, KG_STATE_STABLE);
		bgroup_protocol(bg, "consumer", "range");
		for (m = 0; m < MEMBERS; m++) {
			char mid[64], cid[32];
			kg_bmember *bm;
			kg_tp asg[1] = { { topic, m } };
			snprintf(cid, sizeof cid, "consumer-%d", m);
			snprintf(mid, sizeof mid, "consumer-%d-0000-%04d", m, g);
			bm = bgroup_member(bg, mid);
			bmember_ids(bm, cid, "/10.0.0.1", NULL);
			bmember_assignment(bm, asg, 1);
		}
	}
	return builder_finish(b);
}

/* Entry point: [refreshes] (default 60). */
int
main(int argc, char **argv)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_progress *pg = progress_new(mc.lag_window_us, mc.window_us);
	kg_vchange *ch = NULL;
	size_t cap = 0, gparts = 0, tparts = 0;
	kg_evlist ev = { 0 };
	int64_t t0, best_prog = -1, sum_prog = 0, best_all = -1, sum_all = 0;
	int i, k, rounds = argc > 1 ? atoi(argv[1]) : 60, changes = 0, judged[KG_VERDICT_COUNT] = { 0 };
	if (rounds < 2)
		rounds = 2;
	for (i = 0; i < rounds; i++) {
		kg_snapshot *s = build(i), *s2 = build(i);
		int64_t d;
		/* verdicts and time lags alone, on a copy the tracker does not see */
		t0 = util_mono_us();
		progress_topics(pg, s2);
		for (k = 0; k < s2->ngroups; k++)
			changes += progress_group(pg, &s2->groups[k], s2->time_us, 1000000, 0, 0, &ch, &cap);
		d = util_mono_us() - t0;
		if (i > 0) {
			sum_prog += d;
			best_prog = best_prog < 0 || d < best_prog ? d : best_prog;
		}
		/* the whole derivation (progress included), for reference */
		t0 = util_mono_us();
		tracker_apply(t, NULL, s, &ev);
		d = util_mono_us() - t0;
		if (i > 0) {
			sum_all += d;
			best_all = best_all < 0 || d < best_all ? d : best_all;
		}
		if (i == rounds - 1) {
			for (k = 0; k < s2->ngroups; k++)
				judged[s2->groups[k].verdict]++;
		}
		snapshot_unref(s);
		snapshot_unref(s2);
		evlist_clear(&ev);
	}
	progress_counts(pg, &gparts, &tparts);
	printf("progress on 2,000 groups (20 live x 10 members), 20,000 partitions (2,000 topics x 10, one per group), "
	       "%d refreshes a second apart:\n", rounds);
	printf("  verdicts and time lags (progress alone): best %.2f ms, mean %.2f ms per refresh (target <= 5 ms: %.2fx)\n",
	       (double)best_prog / 1000.0, (double)sum_prog / (rounds - 1) / 1000.0,
	       (double)sum_prog / (rounds - 1) / 5000.0);
	printf("  the whole derivation with it (tracker_apply): best %.2f ms, mean %.2f ms\n", (double)best_all / 1000.0,
	       (double)sum_all / (rounds - 1) / 1000.0);
	printf("  groups by verdict at the end: OK %d, SLOW %d, REWIND %d, STALLED %d, STOPPED %d, LOST %d, not judged %d; "
	       "%d verdict changes\n",
	       judged[KG_VERDICT_OK], judged[KG_VERDICT_SLOW], judged[KG_VERDICT_REWIND], judged[KG_VERDICT_STALLED],
	       judged[KG_VERDICT_STOPPED], judged[KG_VERDICT_LOST], judged[KG_VERDICT_NONE], changes);
	printf("  progress state: %zu group partitions, %zu topic partitions, %.1f KiB: %.0f bytes per partition "
	       "(%zu of rules per group partition, %zu of log-end samples per topic partition; fixed, whatever the window)\n",
	       gparts, tparts, (double)progress_bytes(pg) / 1024.0, (double)progress_bytes(pg) / (double)(gparts ? gparts : 1),
	       sizeof(kg_pstate) + sizeof(kg_tp), sizeof(kg_lesamples));
	free(ch);
	free(ev.v);
	progress_free(pg);
	tracker_free(t);
	return 0;
}

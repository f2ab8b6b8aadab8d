/*
 * bench_refresh.c: one full refresh of a big cluster, the way kgtop does
 * it and the naive way, plus the cost of deriving events between two such
 * snapshots.  Prints figures and their ratio to the targets; asserts
 * nothing (benchmarks never fail on timing).
 *
 * The cluster is the fixture broker's big.json: 2,000 groups (20 live with
 * 10 members) over 500 topics x 40 partitions on 3 brokers.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/options.h"
#include "../integration/fixture_util.h"
#include "model/intern.h"
#include "util/util.h"

/* CPU time used so far (us). */
static int64_t
cpu_us(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec + (int64_t)ru.ru_stime.tv_sec * 1000000 +
	       ru.ru_stime.tv_usec;
}

/* Peak RSS (MiB). */
static double
rss_mb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

/* The fixture's request counters. */
static cJSON *
requests(fixture *f)
{
	FILE *fp = fopen(f->stats, "r");
	char *buf = xmalloc(1 << 20);
	size_t n;
	cJSON *j, *r;
	if (fp == NULL) {
		free(buf);
		return NULL;
	}
	n = fread(buf, 1, (1 << 20) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	j = cJSON_Parse(buf);
	free(buf);
	r = j ? cJSON_DetachItemFromObject(j, "requests") : NULL;
	cJSON_Delete(j);
	return r;
}

/* Print the difference of two counter sets. */
static void
print_requests(cJSON *before, cJSON *after)
{
	cJSON *it;
	cJSON_ArrayForEach(it, after) {
		cJSON *b = before ? cJSON_GetObjectItem(before, it->string) : NULL;
		int d = it->valueint - (b ? b->valueint : 0);
		if (d > 0)
			printf("    %-16s %6d\n", it->string, d);
	}
}

/* Predicate: the first full refresh is in. */
static bool
pred_groups(live *l, const void *arg)
{
	return l->snap->ngroups >= *(const int *)arg;
}

/* The naive refresh of a sample: blocking describe per group, offsets per group, watermark per partition. */
static void
naive(const char *bootstrap, int ngroups, int npartitions, double *per_group_ms, double *per_partition_ms)
{
	char e[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;
	int64_t t0;
	int i;
	rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, e, sizeof e);
	rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, e, sizeof e);
	q = rd_kafka_queue_new(rk);
	t0 = util_mono_us();
	for (i = 0; i < ngroups; i++) {
		char g[32];
		const char *gp = g;
		rd_kafka_event_t *ev;
		rd_kafka_ListConsumerGroupOffsets_t *req;
		snprintf(g, sizeof g, "group-%04d", i);
		rd_kafka_DescribeConsumerGroups(rk, &gp, 1, NULL, q);
		ev = rd_kafka_queue_poll(q, 10000);
		rd_kafka_event_destroy(ev);
		req = rd_kafka_ListConsumerGroupOffsets_new(g, NULL);
		rd_kafka_ListConsumerGroupOffsets(rk, &req, 1, NULL, q);
		rd_kafka_ListConsumerGroupOffsets_destroy(req);
		ev = rd_kafka_queue_poll(q, 10000);
		rd_kafka_event_destroy(ev);
	}
	*per_group_ms = (double)(util_mono_us() - t0) / 1000.0 / ngroups;
	t0 = util_mono_us();
	for (i = 0; i < npartitions; i++) {
		int64_t lo, hi;
		char t[32];
		snprintf(t, sizeof t, "topic-%03d", i / 40);
		rd_kafka_query_watermark_offsets(rk, t, i % 40, &lo, &hi, 10000);
	}
	*per_partition_ms = (double)(util_mono_us() - t0) / 1000.0 / npartitions;
	rd_kafka_queue_destroy(q);
	rd_kafka_destroy(rk);
}

/* One scenario: kgtop's refresh, derivation, and the naive way. */
static int
run(const char *scenario, const char *label)
{
	fixture f;
	live l;
	int want = 2000, i;
	int64_t t0, c0, wall, cpu;
	cJSON *before, *after;
	double rss, pg, pp, naive_s;
	kg_snapshot *s1, *s2;
	kg_tracker *tr;
	kg_evlist ev = { 0 };
	int64_t d0, d1;

	if (fixture_start(&f, scenario, false) < 0) {
		fprintf(stderr, "bench: cannot start the fixture broker\n");
		return 1;
	}
	printf("refresh of a big cluster%s: 2,000 groups (20 live x 10 members), 500 topics x 40 partitions, 3 brokers\n",
	       label);
	before = requests(&f);
	t0 = util_mono_us();
	c0 = cpu_us();
	if (live_open(&l, f.bootstrap, 60000) < 0 || !live_wait(&l, pred_groups, &want, 60000)) {
		fprintf(stderr, "bench: the refresh did not complete\n");
		fixture_stop(&f);
		return 1;
	}
	wall = util_mono_us() - t0;
	cpu = cpu_us() - c0;
	rss = rss_mb();
	poll(NULL, 0, 100); /* let the stats file catch up */
	after = requests(&f);
	printf("  kgtop's refresh: wall %.3f s (target <= 1.5 s: %.2fx of it), CPU %.3f s, peak RSS %.1f MiB (target <= 64: %.2fx)\n",
	       (double)wall / 1e6, (double)wall / 1.5e6, (double)cpu / 1e6, rss, rss / 64.0);
	printf("  groups %d, topics %d; requests sent by kind:\n", l.snap->ngroups, l.snap->ntopics);
	print_requests(before, after);
	{
		cJSON *lo = after ? cJSON_GetObjectItem(after, "ListOffsets") : NULL;
		cJSON *lb = before ? cJSON_GetObjectItem(before, "ListOffsets") : NULL;
		int n = (lo ? lo->valueint : 0) - (lb ? lb->valueint : 0);
		printf("  ListOffsets requests: %d for %d leader brokers (target: one per leader)\n", n, l.snap->nbrokers);
	}
	cJSON_Delete(before);
	cJSON_Delete(after);

	/* derivation between two such snapshots */
	s1 = snapshot_ref(l.snap);
	want = 2000;
	collector_refresh(l.c);
	{
		uint64_t seq = s1->seq;
		int64_t end = util_mono_us() + 30LL * 1000000;
		while (util_mono_us() < end && (l.snap == s1 || l.snap->seq == seq))
			live_wait(&l, pred_groups, &want, 500);
	}
	s2 = snapshot_ref(l.snap);
	kg_tracker_config mc = options_model_defaults();
	tr = tracker_new(&mc);
	tracker_apply(tr, NULL, s1, &ev);
	evlist_clear(&ev);
	d0 = util_mono_us();
	tracker_apply(tr, NULL, s2, &ev);
	d1 = util_mono_us();
	printf("  deriving events between two such snapshots: %.2f ms (target <= 20 ms: %.2fx), %zu events\n",
	       (double)(d1 - d0) / 1000.0, (double)(d1 - d0) / 20000.0, ev.n);
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(tr);
	snapshot_unref(s1);
	snapshot_unref(s2);
	live_close(&l);

	/* the naive way, on a sample, extrapolated */
	naive(f.bootstrap, 50, 200, &pg, &pp);
	naive_s = (pg * 2000 + pp * 20000) / 1000.0;
	printf("  the naive way (one blocking describe + offsets per group, one watermark query per partition):\n");
	printf("    %.2f ms per group, %.2f ms per partition (measured on 50 groups, 200 partitions)\n", pg, pp);
	printf("    extrapolated to the whole cluster: %.1f s, %.0fx kgtop's refresh\n", naive_s, naive_s * 1e6 / (double)wall);
	for (i = 0; i < 1; i++)
		fixture_stop(&f);
	return 0;
}

/* Entry point: loopback, then with a datacenter's round trip. */
int
main(void)
{
	if (run("big.json", "") != 0)
		return 1;
	printf("\n");
	return run("tests/bench/big-1ms.json", " with 1 ms per answer");
}

/*
 * test_metrics.c: the Prometheus exposition of fixed snapshots and events
 * (report/metrics.h): the whole text of one snapshot against a file, the
 * gauges' values, counters and the duration histogram from ended
 * rebalances, frozen copies, escaping, and the per-partition series only
 * when asked for.  (make check also lints kgtop's real /metrics with
 * promtool: tests/integration/test_serve.sh.)
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

#include "model/event.h"
#include "model/intern.h"
#include "model/snapshot.h"
#include "report/metrics.h"
#include "two_groups.h"
#include "util/util.h"

#define CL "cluster=\"b1:9092,\\\"b2\\\":9092\""

/*
 * The shared two groups (two_groups.h: g-busy Stable with lag on three of
 * four partitions, g-lost rebalancing cooperatively) with a cluster label
 * that needs escaping, sources kafka (ok), log:b1 (stale) and the
 * server's own health (an output: not a source of data), and what the
 * tracker would annotate: a rebalance open in g-lost, a last duration and
 * a heartbeat age in g-busy.
 */
static kg_snapshot *
two_groups(void)
{
	kg_builder *b = two_groups_builder(1700000000123456LL);
	kg_source_health h;
	kg_snapshot *s;
	builder_cluster(b, "b1:9092,\"b2\":9092");
	memset(&h, 0, sizeof h);
	h.name = "kafka";
	h.status = KG_SRC_OK;
	h.role = KG_ROLE_CLUSTER;
	h.last_ok_us = 1700000000100000LL;
	h.refresh_us = 42000;
	builder_source(b, &h);
	h.refresh_us = 0;
	h.name = "log:b1";
	h.status = KG_SRC_STALE;
	h.role = KG_ROLE_TRACE;
	h.last_ok_us = 0;
	builder_source(b, &h);
	h.name = "serve";
	h.status = KG_SRC_OK;
	h.role = KG_ROLE_RECORDER;
	builder_source(b, &h);
	s = builder_finish(b);
	s->groups[1].sum.in_episode = true;
	s->groups[0].sum.last_episode_us = 2500000;
	s->groups[0].members[0].health.hb_age_us = 1500000;
	s->groups[0].members[0].health.poll_gap_us = -1;
	s->groups[0].members[1].health.hb_age_us = -1;
	s->groups[0].members[1].health.poll_gap_us = -1;
	/* progress, as the tracker would judge it: g-busy's partition 2 STALLED, 0 OK, the others not judged */
	s->groups[0].verdict = KG_VERDICT_STALLED;
	s->groups[0].nverdict[KG_VERDICT_STALLED] = 1;
	s->groups[0].nverdict[KG_VERDICT_OK] = 1;
	s->groups[0].nverdict[KG_VERDICT_NONE] = 2;
	s->groups[0].tlag_kind = KG_TLAG_EXACT;
	s->groups[0].time_lag_us = 93500000;
	s->groups[0].parts[0].verdict = KG_VERDICT_OK;
	s->groups[0].parts[0].tlag_kind = KG_TLAG_ESTIMATE;
	s->groups[0].parts[0].time_lag_us = 1200000;
	s->groups[0].parts[2].verdict = KG_VERDICT_STALLED;
	s->groups[0].parts[2].tlag_kind = KG_TLAG_EXACT;
	s->groups[0].parts[2].time_lag_us = 93500000;
	s->groups[1].nverdict[KG_VERDICT_NONE] = s->groups[1].nparts;
	return s;
}

/* Render into a string the caller frees. */
static char *
render(const kg_metrics *m, const kg_snapshot *s, bool partitions)
{
	kg_metrics_ctx ctx;
	sbuf b = { 0 };
	char *r;
	memset(&ctx, 0, sizeof ctx);
	ctx.partitions = partitions;
	metrics_render(m, s, &ctx, &b);
	r = xstrdup(sbuf_str(&b));
	sbuf_free(&b);
	return r;
}

/* True when text holds line as a whole line. */
static bool
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;
	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/* Assert a whole line, printing the text when it is missing. */
#define LINE(text, line)                                                       \
	do {                                                                   \
		if (!has_line((text), (line)))                                 \
			print_error("missing line:\n%s\nin:\n%s\n", (line), (text)); \
		assert_true(has_line((text), (line)));                         \
	} while (0)

/* Count the occurrences of needle. */
static int
count(const char *text, const char *needle)
{
	int n = 0;
	const char *p = text;
	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* The whole exposition of the fixed snapshot, as tests/data/metrics/two-groups.prom has it (KGTOP_BLESS=1 rewrites it). */
static void
test_whole_text(void **state)
{
	kg_snapshot *s = two_groups();
	char *got = render(NULL, s, false), *v;
	char path[4096];
	FILE *f;
	sbuf want = { 0 };
	char buf[4096];
	size_t n;
	(void)state;
	/* the file says @VERSION@ where the version goes */
	v = strstr(got, "version=\"" PACKAGE_VERSION "\"");
	assert_non_null(v);
	{
		sbuf g = { 0 };
		sbuf_addn(&g, got, (size_t)(v - got));
		sbuf_adds(&g, "version=\"@VERSION@\"");
		sbuf_adds(&g, v + strlen("version=\"" PACKAGE_VERSION "\""));
		free(got);
		got = xstrdup(sbuf_str(&g));
		sbuf_free(&g);
	}
	snprintf(path, sizeof path, "%s/tests/data/metrics/two-groups.prom", getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	f = fopen(path, "r");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sbuf_addn(&want, buf, n);
	fclose(f);
	if (getenv("KGTOP_BLESS") != NULL && strcmp(sbuf_str(&want), got) != 0 && (f = fopen(path, "w")) != NULL) {
		fputs(got, f);
		fclose(f);
		sbuf_reset(&want);
		sbuf_adds(&want, got);
	}
	if (strcmp(sbuf_str(&want), got) != 0) {
		FILE *o = fopen("two-groups.prom.actual", "w");
		if (o != NULL) {
			fputs(got, o);
			fclose(o);
		}
		print_error("the exposition differs from %s (see two-groups.prom.actual)\n", path);
	}
	assert_string_equal(sbuf_str(&want), got);
	sbuf_free(&want);
	free(got);
	snapshot_unref(s);
}

/* The gauges: states, counts, lag where known, sources but kgtop's own outputs, health where known. */
static void
test_gauges(void **state)
{
	kg_snapshot *s = two_groups();
	char *t = render(NULL, s, false);
	(void)state;
	LINE(t, "kgtop_group_state{group=\"g-busy\",state=\"Stable\"} 1");
	LINE(t, "kgtop_group_state{group=\"g-lost\",state=\"PreparingRebalance\"} 1");
	/* one series per group, its own state (no zeros for the others: issue 24's cardinality) */
	assert_int_equal(count(t, "kgtop_group_state{"), s->ngroups);
	LINE(t, "kgtop_group_members{group=\"g-busy\"} 2");
	LINE(t, "kgtop_group_lag_messages{group=\"g-busy\"} 70");
	assert_int_equal(count(t, "kgtop_group_lag_messages{"), 1); /* g-lost: no offsets, no lag */
	LINE(t, "kgtop_group_rebalancing{group=\"g-lost\"} 1");
	LINE(t, "kgtop_group_rebalancing{group=\"g-busy\"} 0");
	LINE(t, "kgtop_group_last_rebalance_duration_seconds{group=\"g-busy\"} 2.500000");
	LINE(t, "kgtop_group_info{group=\"g-lost\",protocol=\"cooperative\",assignor=\"\",coordinator=\"-1\",type=\"\"} 1");
	LINE(t, "kgtop_source_up{" CL ",source=\"kafka\",role=\"cluster\"} 1");
	LINE(t, "kgtop_source_up{" CL ",source=\"log:b1\",role=\"trace\"} 0");
	assert_int_equal(count(t, "source=\"serve\""), 0);
	LINE(t, "kgtop_source_last_success_timestamp_seconds{" CL ",source=\"kafka\"} 1700000000.100000");
	LINE(t, "kgtop_snapshot_timestamp_seconds{" CL "} 1700000000.123456");
	LINE(t, "kgtop_member_heartbeat_age_seconds{group=\"g-busy\",client_id=\"a\",member_id=\"a-1\"} 1.500000");
	assert_int_equal(count(t, "kgtop_member_heartbeat_age_seconds{"), 1);
	assert_int_equal(count(t, "kgtop_member_poll_gap_seconds{"), 0);
	/* every family says what it is once, even without samples */
	assert_int_equal(count(t, "# TYPE kgtop_rebalances_total counter\n"), 1);
	assert_int_equal(count(t, "# TYPE kgtop_rebalance_duration_seconds histogram\n"), 1);
	assert_int_equal(count(t, "kgtop_rebalances_total{"), 0);
	/* the server's families only from the server */
	assert_int_equal(count(t, "kgtop_stream_viewers{"), 0);
	free(t);
	snapshot_unref(s);
}

/* --metrics-partitions: a lag series per partition with a known lag, never without it. */
static void
test_partitions(void **state)
{
	kg_snapshot *s = two_groups();
	char *off = render(NULL, s, false), *on = render(NULL, s, true);
	(void)state;
	assert_int_equal(count(off, "kgtop_partition_lag_messages{"), 0);
	LINE(on, "kgtop_partition_lag_messages{group=\"g-busy\",topic=\"orders\",partition=\"0\"} 10");
	LINE(on, "kgtop_partition_lag_messages{group=\"g-busy\",topic=\"orders\",partition=\"2\"} 60");
	assert_int_equal(count(on, "kgtop_partition_lag_messages{"), 3);
	free(off);
	free(on);
	snapshot_unref(s);
}

/*
 * Progress: the group's verdict as a state set, partitions per verdict,
 * the oldest time lag where known, records lost, the cluster source's
 * refresh duration; per partition (--metrics-partitions) the time lag
 * where known and the verdict where judged.
 */
static void
test_progress(void **state)
{
	kg_snapshot *s = two_groups();
	char *off = render(NULL, s, false), *on = render(NULL, s, true);
	(void)state;
	LINE(off, "kgtop_group_verdict{group=\"g-busy\",verdict=\"stalled\"} 1");
	LINE(off, "kgtop_group_verdict{group=\"g-lost\",verdict=\"none\"} 1");
	assert_int_equal(count(off, "kgtop_group_verdict{"), s->ngroups); /* one series per group */
	{
		/* a partition count per verdict but ok that has partitions, none for the others (issue 24: ok is the rest) */
		int g, v, want = 0;
		for (g = 0; g < s->ngroups; g++)
			for (v = 0; v < KG_VERDICT_COUNT; v++)
				want += s->groups[g].nverdict[v] != 0 && v != KG_VERDICT_OK;
		assert_int_equal(count(off, "kgtop_group_verdict_partitions{"), want);
		assert_int_not_equal(s->groups[0].nverdict[KG_VERDICT_OK], 0);
		assert_int_equal(count(off, "verdict=\"ok\"} "), 0);
	}
	LINE(off, "kgtop_group_verdict_partitions{group=\"g-busy\",verdict=\"stalled\"} 1");
	LINE(off, "kgtop_group_verdict_partitions{group=\"g-busy\",verdict=\"none\"} 2");
	LINE(off, "kgtop_group_time_lag_seconds{group=\"g-busy\"} 93.500000");
	assert_int_equal(count(off, "kgtop_group_time_lag_seconds{"), 1); /* g-lost: not known, no sample */
	/* a group at rest has no series of its zeros: records lost, storm, partitions nobody consumes (absent: 0) */
	assert_int_equal(count(off, "kgtop_group_lost_messages{"), 0);
	assert_int_equal(count(off, "kgtop_group_storm{"), 0);
	assert_int_equal(count(off, "kgtop_group_unconsumed_partitions{"), (s->groups[0].norphaned != 0) + (s->groups[1].norphaned != 0));
	LINE(off, "kgtop_source_refresh_duration_seconds{" CL ",source=\"kafka\"} 0.042000");
	assert_int_equal(count(off, "kgtop_source_refresh_duration_seconds{"), 1);
	assert_int_equal(count(off, "kgtop_partition_time_lag_seconds{"), 0);
	assert_int_equal(count(off, "kgtop_partition_verdict{"), 0);
	LINE(on, "kgtop_partition_time_lag_seconds{group=\"g-busy\",topic=\"orders\",partition=\"2\"} 93.500000");
	LINE(on, "kgtop_partition_time_lag_seconds{group=\"g-busy\",topic=\"orders\",partition=\"0\"} 1.200000");
	assert_int_equal(count(on, "kgtop_partition_time_lag_seconds{"), 2);
	LINE(on, "kgtop_partition_verdict{group=\"g-busy\",topic=\"orders\",partition=\"2\",verdict=\"stalled\"} 1");
	assert_int_equal(count(on, "kgtop_partition_verdict{"), 2);
	free(off);
	free(on);
	snapshot_unref(s);
}

/* An ended rebalance of a group. */
static kg_event *
ended(const char *group, kg_proto proto, kg_reason why, int64_t duration_us)
{
	kg_event *e = event_new(KG_EV_REBALANCE_END, 1000, intern_group(group));
	e->proto = proto;
	e->reason = why;
	e->duration_us = duration_us;
	return e;
}

/*
 * Counters: only ended rebalances count, by protocol and trigger (a cause
 * not known is "unknown"); the histogram's buckets are cumulative, with
 * the sum and count; a group gone from the snapshot keeps its series; a
 * frozen copy does not change as the original counts on.
 */
static void
test_counters(void **state)
{
	kg_metrics *m = metrics_new(), *frozen;
	kg_snapshot *s = two_groups();
	kg_evlist ev = { 0 };
	char *t, *t2;
	(void)state;
	evlist_push(&ev, event_new(KG_EV_REBALANCE_START, 900, intern_group("g-busy")));
	assert_false(metrics_count(m, &ev));
	evlist_push(&ev, ended("g-busy", KG_PROTO_EAGER, KG_REASON_JOINED, 1930226));
	evlist_push(&ev, ended("g-busy", KG_PROTO_EAGER, KG_REASON_JOINED, 700000));
	evlist_push(&ev, ended("g-busy", KG_PROTO_EAGER, KG_REASON_NONE, 45000000));
	evlist_push(&ev, ended("g-gone", KG_PROTO_COOPERATIVE, KG_REASON_MAX_POLL, 5000000));
	evlist_push(&ev, ended("g-busy", KG_PROTO_COOPERATIVE, KG_REASON_REPLACED, 100000));
	assert_true(metrics_count(m, &ev));
	frozen = metrics_copy(m);
	t = render(frozen, s, false);
	LINE(t, "kgtop_rebalances_total{group=\"g-busy\",protocol=\"eager\",trigger=\"join\"} 2");
	LINE(t, "kgtop_rebalances_total{group=\"g-busy\",protocol=\"eager\",trigger=\"unknown\"} 1");
	LINE(t, "kgtop_rebalances_total{group=\"g-busy\",protocol=\"cooperative\",trigger=\"static_replacement\"} 1");
	LINE(t, "kgtop_rebalances_total{group=\"g-gone\",protocol=\"cooperative\",trigger=\"poll_timeout\"} 1");
	assert_int_equal(count(t, "kgtop_rebalances_total{"), 4);
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"0.5\"} 0");
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"1\"} 1");
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"2.5\"} 2");
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"30\"} 2");
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"60\"} 3");
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"+Inf\"} 3");
	LINE(t, "kgtop_rebalance_duration_seconds_sum{" CL ",protocol=\"eager\"} 47.630226");
	LINE(t, "kgtop_rebalance_duration_seconds_count{" CL ",protocol=\"eager\"} 3");
	LINE(t, "kgtop_rebalance_duration_seconds_count{" CL ",protocol=\"cooperative\"} 2"); /* g-busy's and g-gone's */
	/* the histogram is the cluster's (issue 24: 14 series a group); a group keeps its sum and count */
	assert_int_equal(count(t, "kgtop_rebalance_duration_seconds_bucket{group="), 0);
	assert_int_equal(count(t, "# TYPE kgtop_group_rebalance_duration_seconds summary\n"), 1);
	LINE(t, "kgtop_group_rebalance_duration_seconds_sum{group=\"g-busy\",protocol=\"eager\"} 47.630226");
	LINE(t, "kgtop_group_rebalance_duration_seconds_count{group=\"g-busy\",protocol=\"eager\"} 3");
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"cooperative\",le=\"0.1\"} 1");
	LINE(t, "kgtop_group_rebalance_duration_seconds_count{group=\"g-gone\",protocol=\"cooperative\"} 1");
	/* groups in name order */
	assert_true(strstr(t, "group=\"g-busy\",protocol=\"eager\",trigger") < strstr(t, "group=\"g-gone\""));
	/* the original counts on; the copy stays */
	evlist_clear(&ev);
	evlist_push(&ev, ended("g-busy", KG_PROTO_EAGER, KG_REASON_JOINED, 1000000));
	assert_true(metrics_count(m, &ev));
	t2 = render(frozen, s, false);
	assert_string_equal(t, t2);
	free(t2);
	t2 = render(m, s, false);
	LINE(t2, "kgtop_rebalances_total{group=\"g-busy\",protocol=\"eager\",trigger=\"join\"} 3");
	free(t);
	free(t2);
	evlist_clear(&ev);
	free(ev.v);
	metrics_unref(frozen);
	metrics_unref(m);
	snapshot_unref(s);
}

/*
 * What a rebalance cost, and durations kgtop only bounds: a polled episode
 * (between two refreshes, 0 to 1 s) counts at its upper bound in the
 * histogram, a measured one as measured; the stopped member-seconds and
 * unconsumed partition-seconds add up per protocol within bounds, two
 * series: the lower bounds' sum and the upper bounds' (a rebalance with no
 * upper bound counted apart), and the families pass as counters.
 */
static void
test_costs_and_bounds(void **state)
{
	kg_metrics *m = metrics_new();
	kg_snapshot *s = two_groups();
	kg_evlist ev = { 0 };
	kg_event *e;
	char *t;
	(void)state;
	e = ended("g-busy", KG_PROTO_EAGER, KG_REASON_JOINED, 400000); /* best estimate 0.4 s ... */
	e->duration = (kg_span){ 0, 1000000 };                         /* ... only known to be at most 1 s */
	e->stopped_us = (kg_span){ 3000000, 9000000 };
	e->unconsumed_us = (kg_span){ 6000000, 18000000 };
	evlist_push(&ev, e);
	e = ended("g-busy", KG_PROTO_EAGER, KG_REASON_JOINED, 3000000);
	e->duration = (kg_span){ 3000000, 3000000 }; /* measured from callbacks */
	e->stopped_us = (kg_span){ 9000000, 9000000 };
	e->unconsumed_us = (kg_span){ 18000000, 18000000 };
	evlist_push(&ev, e);
	e = ended("g-busy", KG_PROTO_COOPERATIVE, KG_REASON_JOINED, 6000000);
	e->duration = (kg_span){ 6000000, 6000000 };
	e->unconsumed_us = (kg_span){ 3000000, 3000000 }; /* one partition idle 3 s, nobody stopped */
	evlist_push(&ev, e);
	e = ended("g-busy", KG_PROTO_COOPERATIVE, KG_REASON_LEFT, 2000000);
	e->duration = (kg_span){ 1000000, 2000000 };
	e->unconsumed_us = (kg_span){ 2000000, -1 }; /* a partition's consumer may have stopped long before: no most */
	evlist_push(&ev, e);
	assert_true(metrics_count(m, &ev));
	t = render(m, s, false);
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"0.5\"} 0");
	LINE(t, "kgtop_rebalance_duration_seconds_bucket{" CL ",protocol=\"eager\",le=\"1\"} 1");
	LINE(t, "kgtop_group_rebalance_duration_seconds_sum{group=\"g-busy\",protocol=\"eager\"} 4.000000");
	assert_int_equal(count(t, "# TYPE kgtop_rebalance_stopped_member_seconds_total counter\n"), 1);
	assert_int_equal(count(t, "# TYPE kgtop_rebalance_unconsumed_partition_seconds_total counter\n"), 1);
	LINE(t, "kgtop_rebalance_stopped_member_seconds_total{group=\"g-busy\",protocol=\"eager\",bound=\"min\"} 12.000000");
	LINE(t, "kgtop_rebalance_stopped_member_seconds_total{group=\"g-busy\",protocol=\"eager\",bound=\"max\"} 18.000000");
	LINE(t, "kgtop_rebalance_stopped_member_seconds_total{group=\"g-busy\",protocol=\"cooperative\",bound=\"min\"} 0.000000");
	LINE(t, "kgtop_rebalance_unconsumed_partition_seconds_total{group=\"g-busy\",protocol=\"eager\",bound=\"min\"} 24.000000");
	LINE(t, "kgtop_rebalance_unconsumed_partition_seconds_total{group=\"g-busy\",protocol=\"eager\",bound=\"max\"} 36.000000");
	LINE(t, "kgtop_rebalance_unconsumed_partition_seconds_total{group=\"g-busy\",protocol=\"cooperative\",bound=\"min\"} 5.000000");
	LINE(t, "kgtop_rebalance_unconsumed_partition_seconds_total{group=\"g-busy\",protocol=\"cooperative\",bound=\"max\"} 3.000000");
	LINE(t, "kgtop_rebalance_cost_unbounded_total{group=\"g-busy\",protocol=\"cooperative\"} 1");
	LINE(t, "kgtop_rebalance_cost_unbounded_total{group=\"g-busy\",protocol=\"eager\"} 0");
	LINE(t, "kgtop_rebalances_total{group=\"g-busy\",protocol=\"cooperative\",trigger=\"leave\"} 1");
	free(t);
	evlist_clear(&ev);
	free(ev.v);
	metrics_unref(m);
	snapshot_unref(s);
}

/* Label values are escaped (backslash, quote, newline) and valid UTF-8; no snapshot yet renders the families. */
static void
test_escaping(void **state)
{
	kg_builder *b = builder_new(1000000);
	kg_snapshot *s;
	char *t;
	(void)state;
	builder_cluster(b, "c");
	bgroup_state(builder_group(b, intern_group("we\"ird\\g\nx\xff")), KG_STATE_EMPTY);
	s = builder_finish(b);
	t = render(NULL, s, false);
	LINE(t, "kgtop_group_members{group=\"we\\\"ird\\\\g\\nx\xef\xbf\xbd\"} 0");
	free(t);
	snapshot_unref(s);
	t = render(NULL, NULL, false);
	LINE(t, "# TYPE kgtop_group_members gauge");
	assert_int_equal(count(t, "kgtop_group_members{"), 0);
	LINE(t, "kgtop_build_info{version=\"" PACKAGE_VERSION "\",record_format=\"5\"} 1");
	free(t);
}

/* The server's families: viewers now and cut off since start. */
static void
test_serving(void **state)
{
	kg_metrics_ctx ctx;
	sbuf b = { 0 };
	kg_snapshot *s = two_groups();
	(void)state;
	memset(&ctx, 0, sizeof ctx);
	ctx.serving = true;
	ctx.viewers = 3;
	ctx.viewers_dropped = 2;
	metrics_render(NULL, s, &ctx, &b);
	LINE(sbuf_str(&b), "kgtop_stream_viewers{" CL "} 3");
	LINE(sbuf_str(&b), "kgtop_stream_viewers_dropped_total{" CL "} 2");
	sbuf_free(&b);
	snapshot_unref(s);
}

/* Run. */
/* A consumer group (KIP-848): its type as a label, its epochs where known, what its members still must revoke and await. */
static void
test_kip848(void **state)
{
	kg_builder *b = builder_new(1700000000123456LL);
	int32_t t = intern_topic("orders");
	kg_tp cur[2] = { { t, 0 }, { t, 1 } }, tgt[1] = { { t, 0 } }, aw[1] = { { t, 1 } };
	kg_bgroup *g = builder_group(b, intern_group("g-kip"));
	kg_bmember *m;
	kg_snapshot *s;
	char *x;
	(void)state;
	builder_topic(b, t, 2);
	bgroup_state(g, KG_STATE_RECONCILING);
	bgroup_type(g, KG_GTYPE_CONSUMER, NULL);
	bgroup_protocol(g, "consumer", "uniform");
	m = bgroup_member(g, "k1-m");
	bmember_ids(m, "k1", "/h", NULL);
	bmember_assignment(m, cur, 2);
	bmember_target(m, tgt, 1);
	m = bgroup_member(g, "k2-m");
	bmember_ids(m, "k2", "/h", NULL);
	bmember_target(m, aw, 1);
	g = builder_group(b, intern_group("g-share"));
	bgroup_type(g, KG_GTYPE_SHARE, NULL);
	s = builder_finish(b);
	s->groups[0].group_epoch = (kg_epoch){ 7, KG_FACT_LOG, 1 };
	x = render(NULL, s, false);
	LINE(x, "kgtop_group_info{group=\"g-kip\",protocol=\"consumer\",assignor=\"uniform\",coordinator=\"-1\",type=\"consumer\"} 1");
	LINE(x, "kgtop_group_info{group=\"g-share\",protocol=\"unknown\",assignor=\"\",coordinator=\"-1\",type=\"share\"} 1");
	LINE(x, "kgtop_group_epoch{group=\"g-kip\"} 7");
	assert_int_equal(count(x, "kgtop_group_assignment_epoch{"), 0); /* not known: no sample */
	LINE(x, "kgtop_group_partitions_revoking{group=\"g-kip\"} 1");
	LINE(x, "kgtop_group_partitions_awaited{group=\"g-kip\"} 1");
	/* a share group has none of a consumer group's gauges */
	assert_int_equal(count(x, "kgtop_group_partitions_revoking{group=\"g-share\"}"), 0);
	assert_int_equal(count(x, "kgtop_group_epoch{group=\"g-share\"}"), 0);
	free(x);
	snapshot_unref(s);
}

/*
 * Issue 24's cardinality rule: a scrape of 10,000 groups within 5 MB.
 * 1,000 groups as the bench's idle ones (listed Empty, nothing known of
 * their protocol, 20 partitions with lag, STOPPED) behind a long cluster
 * label, and one in a storm that lost records: at most 500 bytes a group;
 * the cluster label only on the cluster's own series; no info series for
 * a group nothing is known of; the zeros of a group at rest (storm,
 * records lost, partitions nobody consumes) absent, a value not 0 there;
 * the durations' histogram the cluster's however many groups rebalanced.
 */
static void
test_cardinality(void **state)
{
	kg_builder *b = builder_new(1700000000000000LL);
	const char *cl = "kafka-broker-1.prod.example.com:9092,kafka-broker-2.prod.example.com:9092";
	int32_t t = intern_topic("card-topic");
	kg_snapshot *s;
	char *text, *line;
	int g, p, n_cluster = 0;
	(void)state;
	builder_cluster(b, cl);
	builder_broker(b, 1, "broker-1", 9092);
	builder_topic(b, t, 20);
	for (p = 0; p < 20; p++)
		builder_partition(b, (kg_tp){ t, p }, 1, 1000000);
	for (g = 0; g < 1000; g++) {
		char name[32];
		kg_bgroup *bg;
		snprintf(name, sizeof name, "group-%04d", g);
		bg = builder_group(b, intern_group(name));
		bgroup_state(bg, KG_STATE_EMPTY);
		for (p = 0; p < 20; p++)
			bgroup_committed(bg, (kg_tp){ t, p }, 1000000 - 250 * (p % 5));
	}
	s = builder_finish(b);
	for (g = 0; g < s->ngroups; g++) {
		kg_group *x = &s->groups[g];
		x->verdict = KG_VERDICT_STOPPED;
		x->nverdict[KG_VERDICT_STOPPED] = 16;
		x->nverdict[KG_VERDICT_OK] = 4;
		x->tlag_kind = KG_TLAG_EXACT;
		x->time_lag_us = 42000000;
	}
	s->groups[7].sum.storm = true;
	s->groups[7].lost = 5;
	text = render(NULL, s, false);
	print_message("# %d groups: %zu bytes, %zu a group\n", s->ngroups, strlen(text), strlen(text) / (size_t)s->ngroups);
	assert_true(strlen(text) <= 500 * (size_t)s->ngroups);
	for (line = text; *line; line = strchr(line, '\n') + 1) {
		if (line[0] != '#' && strstr(line, "cluster=\"") != NULL && strstr(line, "cluster=\"") < strchr(line, '\n')) {
			n_cluster++;
			assert_true(strncmp(line, "kgtop_snapshot_", 15) == 0 || strncmp(line, "kgtop_source_", 13) == 0);
		}
	}
	assert_int_equal(n_cluster, 1); /* the snapshot's time: no source in this snapshot */
	assert_int_equal(count(text, "kgtop_group_info{"), 0);
	assert_int_equal(count(text, "kgtop_group_state{"), s->ngroups);
	assert_int_equal(count(text, "kgtop_group_verdict_partitions{"), s->ngroups); /* stopped, not ok */
	assert_int_equal(count(text, "kgtop_group_storm{"), 1);
	LINE(text, "kgtop_group_storm{group=\"group-0007\"} 1");
	LINE(text, "kgtop_group_lost_messages{group=\"group-0007\"} 5");
	assert_int_equal(count(text, "kgtop_group_lost_messages{"), 1);
	assert_int_equal(count(text, "kgtop_group_unconsumed_partitions{"), 0);
	assert_int_equal(count(text, "kgtop_group_rebalancing{"), s->ngroups); /* 0 said: what polling exporters miss */
	free(text);
	{
		/* every group rebalanced once: the durations' histogram stays the cluster's 14 series */
		kg_metrics *m = metrics_new();
		kg_evlist ev = { 0 };
		for (g = 0; g < s->ngroups; g++)
			evlist_push(&ev, ended(s->groups[g].name, KG_PROTO_EAGER, KG_REASON_JOINED, 1000000 + g));
		metrics_count(m, &ev);
		text = render(m, s, false);
		assert_int_equal(count(text, "kgtop_rebalance_duration_seconds_bucket{"), 12);
		LINE(text, "kgtop_rebalance_duration_seconds_count{cluster=\"kafka-broker-1.prod.example.com:9092,kafka-broker-2.prod.example.com:9092\",protocol=\"eager\"} 1000");
		assert_int_equal(count(text, "kgtop_group_rebalance_duration_seconds_count{"), s->ngroups);
		free(text);
		evlist_clear(&ev);
		free(ev.v);
		metrics_unref(m);
	}
	snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_text), cmocka_unit_test(test_gauges),   cmocka_unit_test(test_partitions), cmocka_unit_test(test_progress),
		cmocka_unit_test(test_counters),   cmocka_unit_test(test_costs_and_bounds), cmocka_unit_test(test_escaping), cmocka_unit_test(test_serving),
		cmocka_unit_test(test_kip848),
		cmocka_unit_test(test_cardinality),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

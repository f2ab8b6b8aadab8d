/*
 * test_trace_tracker.c: what the tracker derives from coordinator logs.
 *
 * The sample logs of each Kafka generation are parsed and fed to the real
 * tracker with a snapshot every second (the group is never polled: the
 * log is the only witness); the events and episodes it derives are
 * compared with golden lists.  A second test polls a group before and
 * after a rebalance that happened between the two polls: the episode must
 * carry the log's start, end, duration and generations.  Then the groups a
 * jsonl trace describes (trace_groups.h): lines of every kind without a
 * member or client id are ignored (one used to crash the tracker), and
 * members silent past the history while their group goes on are forgotten.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/options.h"
#include "model/history.h"
#include "model/intern.h"
#include "model/tracker.h"
#include "record/jsonl.h"
#include "sources/trace/parse_log.h"
#include "sources/trace/trace_groups.h"
#include "trace_util.h"

/* Append every event of the list to out, relative to t0. */
static void
dump_events(sbuf *out, const kg_evlist *ev, int64_t t0)
{
	size_t i;
	for (i = 0; i < ev->n; i++) {
		const kg_event *e = ev->v[i];
		if (e->kind == KG_EV_SOURCE)
			continue;
		sbuf_addf(out, "%-16s ", e->group >= 0 ? intern_group_name(e->group) : "-");
		event_format_line(e, t0, out);
		sbuf_addc(out, '\n');
	}
}

/* Append the episodes of a group. */
static void
dump_episodes(sbuf *out, kg_history *h, int32_t group, int64_t t0)
{
	kg_episode *v = NULL;
	int n = history_episodes(h, group, &v), i;
	for (i = 0; i < n; i++) {
		char d[32], r[32];
		if (v[i].end_us)
			event_fmt_span(d, sizeof d, episode_duration(&v[i], v[i].end_us), false);
		else
			util_fmt_duration(d, sizeof d, -1);
		if (v[i].proto == KG_PROTO_CONSUMER) /* KIP-848: no rounds */
			snprintf(r, sizeof r, "no barrier");
		else
			snprintf(r, sizeof r, "%d round%s", v[i].rounds, v[i].rounds == 1 ? "" : "s");
		sbuf_addf(out, "episode %s: [%.3fs .. %.3fs] %s, generation %d -> %d, %s, %s, trigger %s (%s)\n",
			  intern_group_name(group), (double)(v[i].start_us - t0) / 1e6,
			  v[i].end_us ? (double)(v[i].end_us - t0) / 1e6 : -1.0, d, (int)v[i].gen_start, (int)v[i].gen_end,
			  r, evidence_name(v[i].evidence), reason_key(v[i].trigger),
			  v[i].trigger_text ? v[i].trigger_text : "");
	}
	episodes_free(v, n);
}

/* An empty snapshot at time t. */
static kg_snapshot *
empty_snapshot(int64_t t)
{
	return builder_finish(builder_new(t));
}

/* Parse a sample log, replay it through the tracker at one snapshot per second, compare with the golden. */
static void
golden_tracker(const char *name)
{
	char path[4096], rel[256];
	size_t len, i, next = 0;
	char *text, *line;
	kg_log_parser p;
	kg_obsq all = { 0 };
	kg_tracker *t;
	kg_evlist ev = { 0 };
	sbuf out = { 0 };
	int64_t t0, tend, now;
	int32_t groups[64];
	int ngroups = 0, g;

	setenv("TZ", "UTC", 1);
	tzset();
	snprintf(path, sizeof path, "%s/tests/data/logs/%s.log", tu_srcdir(), name);
	text = tu_read_file(path, &len);
	assert_non_null(text);
	parse_log_init(&p);
	for (line = text; *line != '\0';) {
		char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		parse_log_line(&p, line, n, &all);
		line += n + (nl != NULL);
	}
	assert_true(all.n > 0);
	obsq_sort(&all);
	for (i = 0; i < all.n; i++) {
		int k;
		for (k = 0; k < ngroups && groups[k] != all.v[i]->group; k++)
			;
		if (k == ngroups && ngroups < 64)
			groups[ngroups++] = all.v[i]->group;
	}
	t0 = all.v[0]->time_us / 1000000 * 1000000;
	tend = all.v[all.n - 1]->time_us + 10 * 1000000;
	kg_tracker_config mc = options_model_defaults();
	t = tracker_new(&mc);
	for (now = t0; now <= tend; now += 1000000) {
		kg_obsq q = { 0 };
		kg_snapshot *s = empty_snapshot(now);
		while (next < all.n && all.v[next]->time_us <= now)
			obsq_push(&q, all.v[next++]);
		tracker_apply(t, &q, s, &ev);
		obsq_clear(&q);
		free(q.v);
		snapshot_unref(s);
	}
	assert_int_equal(next, all.n);
	sbuf_addf(&out, "# %s: events relative to %.0f (UTC)\n", name, (double)t0 / 1e6);
	dump_events(&out, &ev, t0);
	for (g = 0; g < ngroups; g++)
		dump_episodes(&out, tracker_history(t), groups[g], t0);
	snprintf(rel, sizeof rel, "tests/data/trace/%s.events", name);
	assert_int_equal(tu_golden(rel, sbuf_str(&out)), 0);
	evlist_clear(&ev);
	free(ev.v);
	free(all.v);
	sbuf_free(&out);
	tracker_free(t);
	parse_log_free(&p);
	free(text);
}

/* Kafka 2.8. */
static void
test_tracker_kafka28(void **state)
{
	(void)state;
	golden_tracker("kafka-2.8-classic");
}

/* Kafka 3.7. */
static void
test_tracker_kafka37(void **state)
{
	(void)state;
	golden_tracker("kafka-3.7-classic");
}

/* Kafka 4.0 classic protocol. */
static void
test_tracker_kafka40_classic(void **state)
{
	(void)state;
	golden_tracker("kafka-4.0-classic");
}

/* Kafka 4.0 KIP-848. */
static void
test_tracker_kafka40_consumer(void **state)
{
	(void)state;
	golden_tracker("kafka-4.0-consumer");
}

/* Kafka 4.3.1, real lines (tests/kafka/capture-logs.sh): classic-protocol groups. */
static void
test_tracker_kafka43_classic(void **state)
{
	(void)state;
	golden_tracker("kafka-4.3-classic");
}

/* Kafka 4.3.1, real lines: KIP-848 consumer groups. */
static void
test_tracker_kafka43_consumer(void **state)
{
	(void)state;
	golden_tracker("kafka-4.3-consumer");
}

/* A polled snapshot at t: group g Stable with members of ids[i] owning orders partition i. */
static kg_snapshot *
polled(int64_t t, int32_t g, const char *const *ids, int n)
{
	kg_builder *b = builder_new(t);
	kg_bgroup *bg;
	int32_t topic = intern_topic("orders");
	int i;
	builder_topic(b, topic, 3);
	bg = builder_group(b, g);
	bgroup_state(bg, KG_STATE_STABLE);
	bgroup_protocol(bg, "consumer", "range");
	bgroup_topic(bg, topic);
	for (i = 0; i < n; i++) {
		kg_bmember *m = bgroup_member(bg, ids[i]);
		kg_tp tp;
		char client[32];
		snprintf(client, sizeof client, "worker-%d", i + 1);
		bmember_ids(m, client, "10.1.0.1", NULL);
		tp.topic = topic;
		tp.partition = i;
		bmember_assignment(m, &tp, 1);
	}
	return builder_finish(b);
}

/* Parse one log line into q. */
static void
feed(kg_log_parser *p, const char *line, kg_obsq *q)
{
	assert_int_equal(parse_log_line(p, line, strlen(line), q), KG_PARSE_OBS);
}

/* A rebalance that began and ended between two polls gets the log's timing and generations. */
static void
test_between_polls(void **state)
{
	static const char *const ids[] = { "worker-1-a", "worker-2-b", "worker-3-c" };
	kg_tracker_config mc2 = options_model_defaults();
	kg_tracker *t = tracker_new(&mc2);
	kg_log_parser p;
	kg_obsq q = { 0 };
	kg_evlist ev = { 0 };
	kg_snapshot *s;
	kg_episode *v = NULL;
	int32_t g = intern_group("between-polls");
	int64_t t0, prep, stab;
	int n;
	size_t i;
	bool ended = false;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	assert_int_equal(parse_log_time(&p, "2026-11-29 13:45:00,000", 23, &t0), 0);
	prep = t0 + 3200000;
	stab = t0 + 5700000;
	/* poll 1: Stable, three members */
	s = polled(t0, g, ids, 3);
	tracker_apply(t, &q, s, &ev);
	snapshot_unref(s);
	/* between the polls, the coordinator rebalanced: worker-2 left and came back */
	feed(&p, "[2026-11-29 13:45:03,200] INFO [GroupCoordinator 1]: Preparing to rebalance group between-polls in "
		 "state PreparingRebalance with old generation 12 (__consumer_offsets-3) (reason: Leader worker-1-a "
		 "re-joining group during Stable) (kafka.coordinator.group.GroupCoordinator)",
	     &q);
	feed(&p, "[2026-11-29 13:45:05,700] INFO [GroupCoordinator 1]: Stabilized group between-polls generation 13 "
		 "(__consumer_offsets-3) with 3 members (kafka.coordinator.group.GroupCoordinator)",
	     &q);
	/* poll 2, ten seconds later: Stable again, same picture */
	s = polled(t0 + 10000000, g, ids, 3);
	tracker_apply(t, &q, s, &ev);
	snapshot_unref(s);
	s = polled(t0 + 20000000, g, ids, 3);
	tracker_apply(t, &q, s, &ev);
	snapshot_unref(s);

	n = history_episodes(tracker_history(t), g, &v);
	assert_int_equal(n, 1);
	assert_true(v[0].start_us == prep);
	assert_true(v[0].end_us == stab);
	assert_int_equal(v[0].gen_start, 12);
	assert_int_equal(v[0].gen_end, 13);
	assert_int_equal(v[0].evidence, KG_EVID_EXACT);
	assert_int_equal(v[0].trigger, KG_REASON_LEADER_REJOIN);
	episodes_free(v, n);
	for (i = 0; i < ev.n; i++) {
		if (ev.v[i]->kind == KG_EV_REBALANCE_END && ev.v[i]->group == g) {
			ended = true;
			assert_true(ev.v[i]->duration_us == stab - prep);
			assert_int_equal(ev.v[i]->generation, 13);
		}
	}
	assert_true(ended);
	evlist_clear(&ev);
	free(ev.v);
	free(q.v);
	parse_log_free(&p);
	tracker_free(t);
}

/* Feed jsonl lines to a view and the tracker, one refresh at time t; the view's snapshot. */
static kg_snapshot *
view_refresh(kg_tgview *v, kg_tracker *t, const char *const *lines, size_t n, int64_t now, kg_evlist *ev)
{
	kg_obsq q = { 0 };
	kg_builder *b = builder_new(now);
	kg_snapshot *s;
	size_t i;
	for (i = 0; i < n; i++)
		jsonl_parse_line(lines[i], strlen(lines[i]), &q);
	for (i = 0; i < q.n; i++)
		tgview_update(v, q.v[i]);
	tgview_contribute(v, b);
	s = builder_finish(b);
	tracker_apply(t, &q, s, ev);
	obsq_clear(&q);
	free(q.v);
	return s;
}

/* A jsonl line of any kind naming a group but no member nor client is ignored, and crashes nothing. */
static void
test_jsonl_no_member(void **state)
{
	kg_tgview *v = tgview_new(0, false);
	kg_tracker_config mc3 = options_model_defaults();
	kg_tracker *t = tracker_new(&mc3);
	kg_evlist ev = { 0 };
	int k;
	(void)state;
	for (k = 0; k < KG_OBS_COUNT; k++) {
		char line[256], line2[256];
		const char *lines[2] = { line, line2 };
		const kg_group *g;
		kg_snapshot *s;
		snprintf(line, sizeof line, "{\"v\":1,\"ts\":%d,\"kind\":\"%s\",\"group\":\"g-nomember\"}", k + 1,
			 obs_kind_name((kg_obs_kind)k));
		snprintf(line2, sizeof line2,
			 "{\"v\":1,\"ts\":%d,\"kind\":\"%s\",\"group\":\"g-nomember\",\"partitions\":{\"t\":[0]}}",
			 k + 1, obs_kind_name((kg_obs_kind)k));
		s = view_refresh(v, t, lines, 2, (int64_t)(k + 1) * 1000000, &ev);
		g = snapshot_group_by_name(s, "g-nomember");
		if (g != NULL && g->nmembers != 0)
			fail_msg("kind %s without a member made %d members", obs_kind_name((kg_obs_kind)k), g->nmembers);
		snapshot_unref(s);
	}
	evlist_clear(&ev);
	free(ev.v);
	tracker_free(t);
	tgview_free(v);
}

/* Parse a member line of group g at time ts (seconds after 1000 s) into q. */
static void
member_line(kg_obsq *q, const char *g, const char *m, int ts)
{
	char buf[512];
	snprintf(buf, sizeof buf,
		 "{\"v\":1,\"ts\":%lld,\"kind\":\"assigned\",\"group\":\"%s\",\"member\":\"%s\","
		 "\"partitions\":{\"t\":[0]}}",
		 (long long)(1000 + ts) * 1000000, g, m);
	assert_int_equal(jsonl_parse_line(buf, strlen(buf), q), KG_PARSE_OBS);
}

/* The number of members the view describes in group g. */
static int
view_members(kg_tgview *v, const char *g)
{
	kg_builder *b = builder_new(0);
	kg_snapshot *s;
	const kg_group *gr;
	int n;
	tgview_contribute(v, b);
	s = builder_finish(b);
	gr = snapshot_group_by_name(s, g);
	n = gr ? gr->nmembers : 0;
	snapshot_unref(s);
	return n;
}

/* What a view keeps is bounded by the history and a cap, not by what a stream names. */
static void
test_view_bounded(void **state)
{
	kg_tgview *v = tgview_new(60LL * 1000000, false);
	kg_obsq q = { 0 };
	char id[64];
	int i;
	size_t k;
	(void)state;
	/* a busy group and a quiet one, both seen at t=0 */
	member_line(&q, "g-busy", "old-1", 0);
	member_line(&q, "g-busy", "old-2", 0);
	member_line(&q, "g-quiet", "stable-1", 0);
	/* the busy group goes on for two minutes with a new member every second */
	for (i = 1; i <= 120; i++) {
		snprintf(id, sizeof id, "new-%d", i);
		member_line(&q, "g-busy", id, i);
	}
	for (k = 0; k < q.n; k++)
		tgview_update(v, q.v[k]);
	obsq_clear(&q);
	/* old-1, old-2 and the first new ones are more than a minute behind their group: forgotten */
	assert_true(view_members(v, "g-busy") <= 66); /* the sweep runs every sixteenth of the window */
	assert_true(view_members(v, "g-busy") >= 60);
	assert_true(tgview_forgotten(v) >= 55);
	/* the quiet group's member is silent, but so is its group: still there */
	assert_int_equal(view_members(v, "g-quiet"), 1);
	/* a flood within the window: never more than the cap */
	for (i = 0; i < TGVIEW_MAX_MEMBERS + 5000; i++) {
		snprintf(id, sizeof id, "flood-%d", i);
		member_line(&q, "g-flood", id, 200);
		tgview_update(v, q.v[0]);
		obsq_clear(&q);
	}
	assert_true(view_members(v, "g-flood") <= TGVIEW_MAX_MEMBERS);
	assert_true(view_members(v, "g-flood") >= TGVIEW_MAX_MEMBERS * 8 / 10);
	free(q.v);
	tgview_free(v);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracker_kafka28),
		cmocka_unit_test(test_tracker_kafka37),
		cmocka_unit_test(test_tracker_kafka40_classic),
		cmocka_unit_test(test_tracker_kafka40_consumer),
		cmocka_unit_test(test_tracker_kafka43_classic),
		cmocka_unit_test(test_tracker_kafka43_consumer),
		cmocka_unit_test(test_between_polls),
		cmocka_unit_test(test_jsonl_no_member),
		cmocka_unit_test(test_view_bounded),
	};
	return cmocka_run_group_tests_name("trace_tracker", tests, NULL, NULL);
}

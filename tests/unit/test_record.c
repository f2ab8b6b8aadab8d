/*
 * test_record.c: record then replay derives the very same model.
 *
 * A scripted source (the collector's clock, one step per poll) feeds the
 * real collector and tracker with everything sources say: exact callback
 * groups and polled-only groups, a two-round cooperative rebalance,
 * leaves with reasons, a static member away and back, coordinator log
 * lines, client metrics with every field, source health going stale and
 * failing, brokers and topics changing, a group gone, a keyframe gap.
 * The recorder writes the run; the replay source then drives a fresh
 * collector and tracker from the file, and the test compares, exactly,
 * the events, the observations and every snapshot's builder fields.  The
 * same recording played in real time with pause, speed and seek commands
 * derives the same events again; a tampered recording does not (so the
 * comparison can fail).  Damaged files, a newer format version, --at
 * parsing and rotation are tested on their own.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/options.h"
#include "core/collector.h"
#include "model/intern.h"
#include "model/tracker.h"
#include "record_fake.h"
#include "record/format.h"
#include "record/recorder.h"
#include "record/replay.h"
#include "util/util.h"

#define T0 (1795900000LL * 1000000) /* 2026-11-28 */
#define NSTEPS 18

static const int64_t step_ms[NSTEPS] = { 0,    1000,  2000,  3000,  4000,  5000,  6000,   7000,   8000,
					 9000, 10000, 11000, 12000, 70000, 71000, 72000, 140000, 141000 };

static char tmpdir[64];

/* A path in the test's directory. */
static char *
tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

/* The script's time of a step. */
static int64_t
script_time(void *arg, int step)
{
	(void)arg;
	return T0 + step_ms[step] * 1000;
}

/* Parse "0 4" into partitions of topic. */
static int
parts_of(const char *topic, const char *list, kg_tp *out)
{
	int n = 0;
	char *end;
	const char *p = list;
	int32_t t = intern_topic(topic);
	while (*p) {
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		out[n].topic = t;
		out[n].partition = (int32_t)v;
		n++;
		p = end;
	}
	return n;
}

/*
 * A group as a broker describes it: members "client=0 3;client=1 4"
 * (member id client-1; "client!gen=..." gives member id client-gen),
 * assignments on topic.  flags go to every member.
 */
static kg_bgroup *
group(kg_builder *b, const char *name, kg_group_state st, const char *assignor, const char *topic,
      const char *members, uint32_t flags)
{
	kg_bgroup *g = builder_group(b, intern_group(name));
	char *spec = xstrdup(members), *save = NULL, *m;
	bgroup_state(g, st);
	bgroup_protocol(g, "consumer", assignor);
	bgroup_coordinator(g, 1 + (int32_t)(strlen(name) % 3));
	bgroup_topic(g, intern_topic(topic));
	for (m = strtok_r(spec, ";", &save); m != NULL; m = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(m, '='), *bang = strchr(m, '!'), mid[96];
		kg_tp a[16];
		int n = 0;
		kg_bmember *bm;
		if (eq != NULL) {
			*eq = '\0';
			n = parts_of(topic, eq + 1, a);
		}
		if (bang != NULL) {
			*bang = '\0';
			snprintf(mid, sizeof mid, "%s-%s", m, bang + 1);
		} else {
			snprintf(mid, sizeof mid, "%s-1", m);
		}
		bm = bgroup_member(g, mid);
		bmember_ids(bm, m, "/10.0.0.7", NULL);
		bmember_assignment(bm, a, n);
		if (flags)
			bmember_flags(bm, flags);
	}
	free(spec);
	return g;
}

/* Committed offsets for every partition [0, n) of topic. */
static void
commit_all(kg_bgroup *g, const char *topic, int n, int64_t base)
{
	int i;
	for (i = 0; i < n; i++) {
		kg_tp tp = { intern_topic(topic), i };
		bgroup_committed(g, tp, base + i * 7);
	}
}

/* What the sources say at a step. */
static void
script_state(void *arg, int step, kg_builder *b)
{
	int64_t t = script_time(arg, step), ts = step_ms[step] / 1000;
	kg_source_health h;
	int i;
	kg_bgroup *g;
	int32_t orders = intern_topic("orders"), payments = intern_topic("payments"), old = intern_topic("old-topic");
	(void)arg;

	memset(&h, 0, sizeof h);
	h.name = "kafka";
	h.role = KG_ROLE_CLUSTER; /* as the kafka source's health carries it (a replay gives it by name) */
	h.status = step == 4 || step == 5 ? KG_SRC_STALE : KG_SRC_OK;
	h.since_us = step == 4 || step == 5 ? script_time(arg, 4) : T0;
	h.last_ok_us = step == 4 || step == 5 ? script_time(arg, 3) : t;
	h.message = step == 4 || step == 5 ? "no answer for 2s" : NULL;
	builder_source(b, &h);
	h.name = "log:broker-1";
	h.role = KG_ROLE_TRACE;
	h.status = step == 7 ? KG_SRC_ERROR : KG_SRC_OK;
	h.since_us = T0;
	h.last_ok_us = t;
	h.message = step == 7 ? "connection refused \"quoted\"\n\tand escaped \xc3\xa9" : "tail";
	h.insecure = true;
	builder_source(b, &h);

	builder_broker(b, 1, "kafka-1.example", 9092);
	builder_broker(b, 2, "kafka-2.example", 9092);
	if (step < 8)
		builder_broker(b, 3, "kafka-3.example", 9093);

	builder_topic(b, orders, 6);
	for (i = 0; i < 6; i++) {
		kg_tp tp = { orders, i };
		builder_partition(b, tp, step >= 9 && i == 0 ? 2 : i % 3 + 1, 1000 + ts * 10 * (i + 1));
	}
	builder_topic(b, payments, 4);
	for (i = 0; i < 4; i++) {
		kg_tp tp = { payments, i };
		builder_partition(b, tp, i % 2 + 1, step >= 14 ? -1 : 5000 + ts * 3);
	}
	if (step < 10) {
		builder_topic(b, old, 2);
		for (i = 0; i < 2; i++) {
			kg_tp tp = { old, i };
			builder_partition(b, tp, 1, 42);
		}
	}

	/* g-exact: callbacks for every member (demo-like), cooperative-sticky */
	{
		const char *m = step <= 2   ? "a=0 3;b=1 4;c=2 5"
				: step == 3 ? "a=0 3;b=1 4;c=2 5;d"
				: step <= 5 ? "a=0;b=1 4;c=2 5;d"
				: step <= 10 ? "a=0;b=1 4;c=2 5;d=3"
				: step == 11 ? "a=0;b=1 4;d=3"
					     : "a=0 2;b=1 4;d=3 5";
		kg_group_state st = step == 3 || step == 11 ? KG_STATE_PREPARING_REBALANCE : KG_STATE_STABLE;
		g = group(b, "g-exact", st, "cooperative-sticky", "orders", m, KG_MEMBER_EXACT);
		bgroup_exact(g, true);
		bgroup_proto(g, KG_PROTO_COOPERATIVE);
		commit_all(g, "orders", 6, 900 + ts * 9);
	}
	/* g-polled: range, seen only by polling (and coordinator log lines) */
	{
		const char *m = step <= 2   ? "x=0 1 2;y=3 4 5"
				: step <= 4 ? "x;y;z"
				: step <= 6 ? "x=0 1;y=2 3;z=4 5"
				: step == 7 ? "x;z"
					    : "x=0 1 2;z=3 4 5";
		kg_group_state st = step == 3 || step == 7 ? KG_STATE_PREPARING_REBALANCE
				  : step == 4		     ? KG_STATE_COMPLETING_REBALANCE
							     : KG_STATE_STABLE;
		g = group(b, "g-polled", st, st == KG_STATE_STABLE ? "range" : "", "orders", m, 0);
		commit_all(g, "orders", 6, 500 + ts * 5);
	}
	/* g-static: static membership, s1 restarts within the session timeout (new member id) */
	{
		kg_bmember *bm;
		kg_tp a[2], c[2];
		parts_of("payments", "0 1", a);
		parts_of("payments", "2 3", c);
		g = builder_group(b, intern_group("g-static"));
		bgroup_state(g, KG_STATE_STABLE);
		bgroup_protocol(g, "consumer", "range");
		bgroup_coordinator(g, 2);
		bm = bgroup_member(g, step < 7 ? "s1-aaaa" : "s1-bbbb");
		bmember_ids(bm, "s1", "/10.0.0.8", "pod-1");
		bmember_assignment(bm, a, 2);
		bm = bgroup_member(g, "s2-cccc");
		bmember_ids(bm, "s2", "/10.0.0.9", "pod-2");
		bmember_assignment(bm, c, 2);
		commit_all(g, "payments", 4, 4000 + ts);
	}
	/* g-simple: a simple group, offsets only */
	g = builder_group(b, intern_group("g-simple"));
	bgroup_state(g, KG_STATE_EMPTY);
	bgroup_protocol(g, "", "");
	bgroup_simple(g, true);
	commit_all(g, "payments", 4, 4500 + ts * 2);
	/* g-gone: present until step 5 */
	if (step <= 5) {
		g = builder_group(b, intern_group("g-gone"));
		bgroup_state(g, KG_STATE_EMPTY);
		bgroup_protocol(g, "consumer", "");
		commit_all(g, "orders", 3, 10);
	}
	/*
	 * g-kip: a KIP-848 group described with targets: k3 joins at step 3
	 * (targets move), k1 revokes [2 3] at step 4, k3 gets them at step 5
	 */
	{
		static const char *const cur[] = { "k1=0 1 2 3;k2=4 5", "k1=0 1 2 3;k2=4 5;k3",
						   "k1=0 1;k2=4 5;k3", "k1=0 1;k2=4 5;k3=2 3" };
		static const char *const tgt[] = { "0 1 2 3", "4 5", "", "0 1", "4 5", "2 3" };
		int st = step < 3 ? 0 : step == 3 ? 1 : step == 4 ? 2 : 3, k;
		g = group(b, "g-kip", KG_STATE_STABLE, "uniform", "clicks", cur[st], 0);
		bgroup_type(g, KG_GTYPE_CONSUMER, NULL);
		bgroup_data_time(g, t - 500000); /* asked half a second before: a record of the last tick is newer */
		bgroup_pace(g, step >= 2 && step < 6 ? 10000000 : 0); /* quiet for a while: its source asks it every 10 s */
		if (step >= 3 && step < 7)
			bgroup_offs_time(g, t - 100000); /* its offsets asked alone, after its description */
		for (k = 0; k < (st == 0 ? 2 : 3); k++) {
			static const char *const ids[] = { "k1-1", "k2-1", "k3-1" };
			kg_tp v[8];
			const char *tl = st == 0 ? tgt[k] : tgt[3 + k];
			bmember_target(bgroup_member(g, ids[k]), v, parts_of("clicks", tl, v));
		}
		commit_all(g, "clicks", 6, 900 + ts);
	}
	/* g-share: a share group, as a source that lists it names it; what it cannot describe, said */
	g = builder_group(b, intern_group("g-share"));
	bgroup_type(g, KG_GTYPE_SHARE, NULL);
	bgroup_state_name(g, step < 8 ? "NotReady" : "Shiny");
	bgroup_note(g, "share groups: librdkafka cannot describe them", true);
	g = builder_group(b, intern_group("g-new-kind"));
	bgroup_type(g, KG_GTYPE_UNKNOWN, "quantum");
	/* g-err: a describe error for two refreshes; a partition of an unknown topic */
	g = builder_group(b, intern_group("g-err"));
	if (step == 9 || step == 10) {
		bgroup_error(g, "COORDINATOR_NOT_AVAILABLE");
	} else {
		kg_tp ghost = { intern_topic("ghost-topic"), 3 };
		bgroup_state(g, KG_STATE_STABLE);
		bgroup_protocol(g, "consumer", "roundrobin");
		bgroup_committed(g, ghost, step >= 12 ? -1 : 77);
		bgroup_member(g, "q-1");
	}
}

/* Push a callback observation. */
static void
cb(kg_obsq *q, kg_obs_kind k, int64_t ms, const char *group, const char *client, const char *parts)
{
	kg_obs *o = obs_new(k, T0 + ms * 1000, intern_group(group), "demo");
	kg_tp v[16];
	char mid[64];
	snprintf(mid, sizeof mid, "%s-1", client);
	obs_member(o, mid, client, NULL, "/10.0.0.7");
	o->proto = KG_PROTO_COOPERATIVE;
	if (parts != NULL)
		obs_parts(o, v, parts_of("orders", parts, v));
	obsq_push(q, o);
}

/* Observations since the step before. */
static void
script_obs(void *arg, int step, kg_obsq *q)
{
	kg_obs *o;
	(void)arg;
	switch (step) {
	case 0: /* the exact group settles */
		cb(q, KG_OBS_ASSIGNED, -500, "g-exact", "a", "0 3");
		cb(q, KG_OBS_ASSIGNED, -500, "g-exact", "b", "1 4");
		cb(q, KG_OBS_ASSIGNED, -500, "g-exact", "c", "2 5");
		break;
	case 3: /* round one: d joins; the coordinator of g-polled logs its rebalance */
		cb(q, KG_OBS_JOIN_SENT, 2500, "g-exact", "d", "");
		cb(q, KG_OBS_JOIN_SENT, 2600, "g-exact", "a", "");
		cb(q, KG_OBS_JOIN_SENT, 2600, "g-exact", "b", "");
		cb(q, KG_OBS_JOIN_SENT, 2600, "g-exact", "c", "");
		o = obs_new(KG_OBS_PREPARING, T0 + 2800000, intern_group("g-polled"), "log");
		o->generation = 7;
		o->reason = KG_REASON_JOINED;
		obs_text(o, "Preparing to rebalance group g-polled in state PreparingRebalance with old generation 7");
		obsq_push(q, o);
		break;
	case 4: /* round one ends: a gives up 3, nobody gets it yet */
		cb(q, KG_OBS_ASSIGNED, 3500, "g-exact", "d", "");
		cb(q, KG_OBS_ASSIGNED, 3500, "g-exact", "b", "");
		cb(q, KG_OBS_ASSIGNED, 3500, "g-exact", "c", "");
		cb(q, KG_OBS_REVOKED, 3510, "g-exact", "a", "3");
		break;
	case 5:
		o = obs_new(KG_OBS_STABILIZED, T0 + 4200000, intern_group("g-polled"), "log");
		o->generation = 8;
		o->nmembers = 3;
		obsq_push(q, o);
		o = obs_new(KG_OBS_SYNCED, T0 + 4300000, intern_group("g-polled"), "log");
		o->generation = 8;
		obsq_push(q, o);
		break;
	case 6: /* round two: d gets 3 */
		cb(q, KG_OBS_JOIN_SENT, 5600, "g-exact", "a", "");
		cb(q, KG_OBS_ASSIGNED, 5900, "g-exact", "d", "3");
		cb(q, KG_OBS_ASSIGNED, 5900, "g-exact", "a", "");
		break;
	case 7: /* y leaves g-polled gracefully; s1 restarted */
		o = obs_new(KG_OBS_LEFT, T0 + 6500000, intern_group("g-polled"), "log");
		obs_member(o, "y-1", "y", NULL, NULL);
		o->reason = KG_REASON_GRACEFUL;
		obs_text(o, "the consumer is being closed");
		obsq_push(q, o);
		o = obs_new(KG_OBS_STATIC_REPLACED, T0 + 6600000, intern_group("g-static"), "log");
		obs_member(o, "s1-bbbb", "s1", "pod-1", "/10.0.0.8");
		obsq_push(q, o);
		/* a commit a source told (format 2): the offset in value, the partition, the broker's time */
		o = obs_new(KG_OBS_COMMIT, T0 + 6700000, intern_group("g-polled"), "offsets");
		obs_parts(o, &(kg_tp){ intern_topic("orders"), 2 }, 1);
		o->value = 4242;
		o->generation = 7;
		obsq_push(q, o);
		/* the coordinator's own records (format 3): a generation with its members, a KIP-848 member's epoch */
		{
			kg_tp a[2] = { { intern_topic("orders"), 0 }, { intern_topic("orders"), 1 } };
			kg_obs_member *x;
			o = obs_new(KG_OBS_GENERATION, T0 + 6800000, intern_group("g-polled"), "offsets");
			o->generation = 9;
			o->nmembers = 2;
			o->value = T0 + 6750000;
			o->proto = KG_PROTO_EAGER;
			obs_text(o, "range");
			x = obs_add_member(o, "x-1", "x", NULL, "/10.0.0.1", a, 2);
			x->session_timeout_ms = 6000;
			x->rebalance_timeout_ms = 300000;
			obs_add_member(o, "z-1", "z", "pod-z", "/10.0.0.2", NULL, 0);
			o->loaded = true;
			obsq_push(q, o);
			o = obs_new(KG_OBS_MEMBER_EPOCH, T0 + 6900000, intern_group("g-848"), "offsets");
			obs_member(o, "k-1", NULL, NULL, NULL);
			o->generation = 5;
			o->prev_epoch = 4;
			o->member_state = 1;
			obs_parts(o, a, 1);
			obs_pending(o, a + 1, 1);
			obsq_push(q, o);
			o = obs_new(KG_OBS_MEMBER_META, T0 + 6950000, intern_group("g-848"), "offsets");
			obs_member(o, "k-2", NULL, NULL, NULL);
			o->gone = true;
			obsq_push(q, o);
		}
		break;
	case 9: /* client metrics keyed by client id, every field set */
		o = obs_new(KG_OBS_METRICS, T0 + 8700000, -1, "jolokia");
		obs_member(o, "b-1", "b", "inst-b", "/10.0.0.7");
		obs_text(o, "steady");
		o->reason = KG_REASON_METADATA;
		o->proto = KG_PROTO_COOPERATIVE;
		o->generation = 9;
		o->nmembers = 4;
		o->session_timeout_ms = 10000;
		o->max_poll_ms = 60000;
		o->hb_age_us = 1234567;
		o->poll_gap_us = 200000;
		o->poll_gap_max_us = 900001;
		o->rebalance_latency_avg_us = 3500000;
		o->rebalance_latency_max_us = 5100000;
		o->rebalance_total = 3;
		o->failed_rebalances = 1;
		o->assigned_count = 2;
		o->value = 17;
		o->hb_rate = 0.3333333333333333;
		{
			kg_tp v[2];
			obs_parts(o, v, parts_of("orders", "1 4", v));
		}
		obsq_push(q, o);
		o = obs_new(KG_OBS_HEARTBEAT, T0 + 8800000, intern_group("g-exact"), "demo");
		obs_member(o, "a-1", "a", NULL, NULL);
		o->value = 1500;
		obsq_push(q, o);
		o = obs_new(KG_OBS_POLL, T0 + 8900000, intern_group("g-exact"), "demo");
		obs_member(o, "a-1", "a", NULL, NULL);
		obsq_push(q, o);
		o = obs_new(KG_OBS_CLIENT_STATE, T0 + 8950000, intern_group("g-exact"), "stats");
		obs_member(o, NULL, "a", NULL, NULL);
		obs_text(o, "up");
		obsq_push(q, o);
		break;
	case 11: /* c dies: max.poll.interval */
		o = obs_new(KG_OBS_LEFT, T0 + 10500000, intern_group("g-exact"), "demo");
		obs_member(o, "c-1", "c", NULL, "/10.0.0.7");
		o->reason = KG_REASON_MAX_POLL;
		obs_text(o, "consumer poll timeout has expired");
		obsq_push(q, o);
		cb(q, KG_OBS_LOST, 10500, "g-exact", "c", "2 5");
		cb(q, KG_OBS_JOIN_SENT, 10600, "g-exact", "a", "");
		cb(q, KG_OBS_JOIN_SENT, 10600, "g-exact", "b", "");
		cb(q, KG_OBS_JOIN_SENT, 10600, "g-exact", "d", "");
		break;
	case 12:
		cb(q, KG_OBS_ASSIGNED, 11500, "g-exact", "a", "2");
		cb(q, KG_OBS_ASSIGNED, 11500, "g-exact", "b", "");
		cb(q, KG_OBS_ASSIGNED, 11500, "g-exact", "d", "5");
		o = obs_new(KG_OBS_EPOCH, T0 + 11600000, intern_group("g-exact"), "log");
		o->generation = 12;
		obsq_push(q, o);
		break;
	case 16: /* an observation from the future is clamped by the tracker, the same way twice */
		o = obs_new(KG_OBS_HEARTBEAT, T0 + 150000000LL, intern_group("g-exact"), "demo");
		obs_member(o, "b-1", "b", NULL, NULL);
		obsq_push(q, o);
		break;
	case 17: /* g-kip's records, newer than its last description: epochs, a member's state, its previous epoch, what it must revoke */
		o = obs_new(KG_OBS_EPOCH, T0 + 140800000, intern_group("g-kip"), "offsets");
		o->generation = 9;
		o->gtype = KG_GTYPE_CONSUMER;
		obsq_push(q, o);
		o = obs_new(KG_OBS_TARGET_EPOCH, T0 + 140810000, intern_group("g-kip"), "offsets");
		o->generation = 9;
		obsq_push(q, o);
		o = obs_new(KG_OBS_TARGET_MEMBER, T0 + 140820000, intern_group("g-kip"), "offsets");
		obs_member(o, "k2-1", NULL, NULL, NULL);
		{
			kg_tp v[4];
			obs_parts(o, v, parts_of("clicks", "4", v));
			obsq_push(q, o);
			o = obs_new(KG_OBS_MEMBER_EPOCH, T0 + 140830000, intern_group("g-kip"), "offsets");
			obs_member(o, "k2-1", NULL, NULL, NULL);
			o->generation = 8;
			o->prev_epoch = 7;
			o->mstate = KG_MSTATE_UNREVOKED;
			o->mtype = KG_MTYPE_CLASSIC;
			obs_parts(o, v, parts_of("clicks", "4 5", v));
			obs_pending(o, v, parts_of("clicks", "5", v));
			obsq_push(q, o);
		}
		break;
	default:
		break;
	}
}

/* One run of the script through a collector, recorded to path (NULL: not recorded). */
static void
run_live(const char *path, int64_t max_bytes, rf_capture *cap)
{
	rf_script sc = { NSTEPS, script_time, script_state, script_obs, NULL };
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_collector_config cc = { 1000000, 0, "kafka-1.example:9092" };
	kg_collector *c;
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	kg_recorder *r = NULL;
	kg_tap rt, tap;
	char err[256];
	cap->keep_snaps = true;
	if (path != NULL) {
		kg_tracker_config tc;
		assert_int_equal(recorder_open(path, max_bytes, &r, err, sizeof err), 0);
		tc = options_model_defaults();
		recorder_settings(r, &tc);
		recorder_tap(r, &rt);
	}
	rf_capture_tap(cap, path != NULL ? &rt : NULL, &tap);
	collector_add_tap(c, &tap, NULL, 0);
	collector_add_source(c, rf_source_new(&sc), NULL, 0);
	assert_int_equal(rf_run(c, 1000), NSTEPS);
	collector_free(c);
	tracker_free(t);
	if (r != NULL) {
		assert_null(recorder_error(r));
		recorder_close(r);
	}
}

/* Replay path through a fresh collector and tracker as fast as possible; returns the frames. */
static int
run_replay(const char *path, const char *at, rf_capture *cap, char *damage, size_t n)
{
	kg_replay_config rc = { path, 1.0, true, at };
	kg_source *src = NULL;
	kg_tracker_config tc;
	kg_tracker *t;
	kg_collector_config cc = { 1000000, 0, NULL };
	kg_collector *c;
	kg_tap tap;
	char err[512];
	int frames;
	const char *d;
	if (replay_source_new(&rc, &src, err, sizeof err) != 0) {
		snprintf(damage, n, "%s", err);
		return -1;
	}
	{
		/* as main does: the recording's settings where the options are at their defaults */
		kg_options o;
		kg_tracker_config rec;
		options_defaults(&o);
		options_model(&o, replay_model(src, &rec) ? &rec : NULL, &tc);
		options_free(&o);
	}
	t = tracker_new(&tc);
	cc.cluster = replay_cluster(src);
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	cap->keep_snaps = true;
	rf_capture_tap(cap, NULL, &tap);
	collector_add_tap(c, &tap, NULL, 0);
	collector_add_source(c, src, NULL, 0);
	frames = rf_run(c, 100000);
	d = replay_damage(src);
	snprintf(damage, n, "%s", d ? d : "");
	collector_free(c);
	tracker_free(t);
	return frames;
}

static const char *const skip_sources[] = { "replay", "record", NULL };

/* Count events of a kind (and group, NULL any) in a list. */
static int
count_kind(const kg_evlist *l, kg_event_kind k, const char *group)
{
	size_t i;
	int n = 0;
	for (i = 0; i < l->n; i++) {
		if (l->v[i]->kind == k && (group == NULL || l->v[i]->group == intern_group(group)))
			n++;
	}
	return n;
}

/* The first event of a kind with a client id, NULL when none. */
static const kg_event *
find_ev(const kg_evlist *l, kg_event_kind k, const char *client)
{
	size_t i;
	for (i = 0; i < l->n; i++) {
		if (l->v[i]->kind == k && (client == NULL || (l->v[i]->client_id && strcmp(l->v[i]->client_id, client) == 0)))
			return l->v[i];
	}
	return NULL;
}

/* Assert two captures derived the same, tick by tick. */
static void
assert_same_run(const rf_capture *live, const rf_capture *rep)
{
	char why[512] = "";
	size_t i;
	bool ok = rf_events_equal(&live->ev, &rep->ev, why, sizeof why);
	if (!ok) {
		fprintf(stderr, "# %s\n# live:\n", why);
		rf_dump(&live->ev, T0);
		fprintf(stderr, "# replay:\n");
		rf_dump(&rep->ev, T0);
	}
	assert_true(ok);
	ok = rf_obs_equal(live, rep, why, sizeof why);
	if (!ok)
		fprintf(stderr, "# %s\n", why);
	assert_true(ok);
	assert_int_equal(live->nsnaps, rep->nsnaps);
	for (i = 0; i < live->nsnaps; i++) {
		ok = rf_snapshot_equal(live->snaps[i], rep->snaps[i], skip_sources, why, sizeof why);
		if (!ok)
			fprintf(stderr, "# tick %zu: %s\n", i, why);
		assert_true(ok);
	}
}

/* The live run derived what the test is about (so the round trip compares something). */
static void
assert_rich(const rf_capture *live)
{
	const kg_event *e;
	size_t i;
	bool two_rounds = false;
	e = find_ev(&live->ev, KG_EV_REVOKED, "a");
	assert_non_null(e);
	assert_int_equal(e->cls, KG_CLASS_INCREMENTAL);
	assert_int_equal(e->evidence, KG_EVID_EXACT);
	for (i = 0; i < live->ev.n; i++) {
		const kg_event *x = live->ev.v[i];
		if (x->kind == KG_EV_ROUND && x->round == 2 && x->group == intern_group("g-exact"))
			two_rounds = true;
	}
	assert_true(two_rounds);
	e = find_ev(&live->ev, KG_EV_MEMBER_LEFT, "c");
	assert_non_null(e);
	assert_int_equal(e->reason, KG_REASON_MAX_POLL);
	e = find_ev(&live->ev, KG_EV_MEMBER_LEFT, "y");
	assert_non_null(e);
	assert_int_equal(e->reason, KG_REASON_GRACEFUL);
	assert_true(count_kind(&live->ev, KG_EV_REBALANCE_START, "g-polled") >= 2);
	assert_true(count_kind(&live->ev, KG_EV_REBALANCE_END, "g-exact") >= 2);
	assert_int_equal(count_kind(&live->ev, KG_EV_GROUP_GONE, "g-gone"), 1);
	assert_true(count_kind(&live->ev, KG_EV_SOURCE, NULL) >= 3);
	assert_true(count_kind(&live->ev, KG_EV_STATE, "g-polled") >= 4);
	/* g-kip, polled: k1 revoked [2 3] and k3 got them, one episode of the consumer protocol */
	e = find_ev(&live->ev, KG_EV_REVOKED, "k1");
	assert_non_null(e);
	assert_int_equal(e->proto, KG_PROTO_CONSUMER);
	assert_int_equal(e->nparts, 2);
	assert_non_null(find_ev(&live->ev, KG_EV_ASSIGNED, "k3"));
	if (getenv("KGTOP_TEST_VERBOSE"))
		rf_dump(&live->ev, T0);
	assert_int_equal(count_kind(&live->ev, KG_EV_REBALANCE_END, "g-kip"), 1);
}

/* The KIP-848 facts the tracker wrote into the last snapshot of g-kip: what its records said. */
static void
assert_kip_facts(const kg_snapshot *s)
{
	const kg_group *g = snapshot_group_by_name(s, "g-kip"), *sh = snapshot_group_by_name(s, "g-share");
	const kg_member *k2;
	assert_non_null(g);
	assert_int_equal(g->type, KG_GTYPE_CONSUMER);
	assert_int_equal(g->proto, KG_PROTO_CONSUMER);
	assert_int_equal(g->group_epoch.value, 9);
	assert_int_equal(g->group_epoch.src, KG_FACT_OFFSETS);
	assert_int_equal(g->assignment_epoch.value, 9);
	k2 = &g->members[group_member_index(g, "k2-1")];
	assert_int_equal(k2->epoch.value, 8);
	assert_int_equal(k2->prev_epoch, 7);
	assert_int_equal(k2->mstate, KG_MSTATE_UNREVOKED);
	assert_int_equal(k2->mtype, KG_MTYPE_CLASSIC);
	/* the record's target [4] is newer than the description's [4 5]: [5] is to be revoked */
	assert_int_equal(k2->nrevoking, 1);
	assert_int_equal(k2->revoking[0].partition, 5);
	assert_int_equal(g->nrevoking, 1);
	assert_non_null(sh);
	assert_int_equal(sh->type, KG_GTYPE_SHARE);
	assert_string_equal(group_state_text(sh), "Shiny");
	assert_true(sh->members_unknown);
	assert_string_equal(group_type_text(snapshot_group_by_name(s, "g-new-kind")), "quantum");
}

/* Record the script, replay the file: the same events, observations and snapshots. */
static void
test_round_trip(void **state)
{
	rf_capture live = { 0 }, rep = { 0 };
	char *path = tmp_path("rt.kgrec"), damage[600];
	(void)state;
	run_live(path, 0, &live);
	assert_rich(&live);
	assert_int_equal(run_replay(path, NULL, &rep, damage, sizeof damage), NSTEPS);
	assert_string_equal(damage, "");
	assert_same_run(&live, &rep);
	assert_kip_facts(live.snaps[live.nsnaps - 1]);
	assert_kip_facts(rep.snaps[rep.nsnaps - 1]);
	if (getenv("KGTOP_TEST_VERBOSE"))
		rf_dump(&live.ev, T0);
	rf_capture_free(&live);
	rf_capture_free(&rep);
	free(path);
}

/* Read a whole file. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

/* Write a whole file. */
static void
spit(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, n, f), n);
	fclose(f);
}

/* The byte offset where line no (1-based) starts. */
static size_t
line_start(const char *s, int no)
{
	size_t off = 0;
	while (--no > 0) {
		const char *nl = strchr(s + off, '\n');
		assert_non_null(nl);
		off = (size_t)(nl - s) + 1;
	}
	return off;
}

/* A tampered observation changes what is derived: the comparison can fail. */
static void
test_tampered_differs(void **state)
{
	rf_capture live = { 0 }, rep = { 0 };
	char *path = tmp_path("tamper.kgrec"), *buf, *p, damage[600], why[512];
	size_t len;
	(void)state;
	run_live(path, 0, &live);
	buf = slurp(path, &len);
	p = strstr(buf, "\"reason\":\"max_poll\"");
	assert_non_null(p);
	memcpy(p, "\"reason\":\"graceful\"", 19);
	spit(path, buf, len);
	assert_int_equal(run_replay(path, NULL, &rep, damage, sizeof damage), NSTEPS);
	assert_false(rf_events_equal(&live.ev, &rep.ev, why, sizeof why));
	rf_capture_free(&live);
	rf_capture_free(&rep);
	free(buf);
	free(path);
}

/* The file: a header with the format version, keyframes at the start and after ~60 s, deltas between. */
static void
test_format(void **state)
{
	rf_capture live = { 0 };
	char *path = tmp_path("fmt.kgrec"), *buf;
	size_t len;
	int lines = 0, keys = 0;
	const char *p;
	(void)state;
	run_live(path, 0, &live);
	buf = slurp(path, &len);
	assert_true(strncmp(buf, "{\"kgtop_record\":5,\"kgtop\":\"" PACKAGE_VERSION "\"", 27 + strlen(PACKAGE_VERSION)) == 0);
	assert_non_null(strstr(buf, "\"cluster\":\"kafka-1.example:9092\""));
	assert_non_null(strstr(buf, "\"model\":{\"session_timeout_us\":45000000,"));
	for (p = buf; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	for (p = buf; (p = strstr(p, "\"key\":true")) != NULL; p++)
		keys++;
	assert_int_equal(lines, NSTEPS + 1);
	assert_int_equal(keys, 3); /* 0 s, 70 s, 140 s */
	/* a delta carries differences only: the second tick does not repeat the brokers */
	p = buf + line_start(buf, 3);
	assert_true(strncmp(p, "{\"t\":", 5) == 0);
	assert_null(memmem(p, (size_t)(strchr(p, '\n') - p), "\"brokers\"", 9));
	assert_non_null(strstr(buf, "\"groups_gone\":[\"g-gone\"]"));
	assert_non_null(strstr(buf, "\"topics_gone\":[\"old-topic\"]"));
	assert_non_null(strstr(buf, "\"events\":[{\"seq\":"));
	rf_capture_free(&live);
	free(buf);
	free(path);
}

/* Replay a damaged copy; returns frames, fills damage. */
static int
replay_damaged(const char *name, const char *content, size_t n, rf_capture *cap, char *damage, size_t dn)
{
	char *path = tmp_path(name);
	int frames;
	spit(path, content, n);
	frames = run_replay(path, NULL, cap, damage, dn);
	free(path);
	return frames;
}

/* Garbage mid-file, a cut last line, a missing header, a newer version. */
static void
test_damage(void **state)
{
	rf_capture live = { 0 }, rep = { 0 };
	char *path = tmp_path("dmg.kgrec"), *buf, *copy, damage[600];
	size_t len, off;
	int frames;
	(void)state;
	run_live(path, 0, &live);
	buf = slurp(path, &len);
	copy = xmalloc(len + 64);

	/* garbage in line 8: ticks 1-6 replay, then it stops and says where */
	memcpy(copy, buf, len);
	off = line_start(buf, 8);
	memcpy(copy + off + 20, "@#!garbage", 10);
	frames = replay_damaged("garbage.kgrec", copy, len, &rep, damage, sizeof damage);
	assert_int_equal(frames, 6);
	assert_non_null(strstr(damage, "line 8: not JSON"));
	{
		/* the last tick says so in the replay's health, as an error */
		const kg_snapshot *s = rep.snaps[rep.nsnaps - 1];
		int i, found = 0;
		for (i = 0; i < s->nsources; i++) {
			if (strcmp(s->sources[i].name, "replay") == 0) {
				assert_int_equal(s->sources[i].status, KG_SRC_ERROR);
				assert_non_null(strstr(s->sources[i].message, "stopped at line 8"));
				found = 1;
			}
		}
		assert_true(found);
		assert_non_null(find_ev(&rep.ev, KG_EV_SOURCE, NULL));
	}
	/* up to the damage, the same as live */
	{
		char why[256];
		size_t i;
		for (i = 0; i < rep.nsnaps; i++)
			assert_true(rf_snapshot_equal(live.snaps[i], rep.snaps[i], skip_sources, why, sizeof why));
	}
	rf_capture_free(&rep);

	/* a cut last line (kgtop killed while writing) */
	off = line_start(buf, NSTEPS + 1);
	frames = replay_damaged("cut.kgrec", buf, off + 30, &rep, damage, sizeof damage);
	assert_int_equal(frames, NSTEPS - 1);
	assert_non_null(strstr(damage, "cut short"));
	assert_non_null(strstr(damage, "line 19"));
	rf_capture_free(&rep);

	/*
	 * A lost line (line 11, tick 9, cut out): ticks 0-8 replay, the deltas
	 * after the gap (ticks 10-12) cannot and are skipped, and the replay
	 * carries on from the next keyframe (tick 13, 70 s: a keyframe a
	 * minute) to the end, saying it crossed a gap of 4 ticks.
	 */
	{
		size_t a = line_start(buf, 11), b = line_start(buf, 12);
		const kg_snapshot *last;
		int i;
		memcpy(copy, buf, a);
		memcpy(copy + a, buf + b, len - b);
		frames = replay_damaged("gap.kgrec", copy, len - (b - a), &rep, damage, sizeof damage);
		assert_int_equal(frames, 9 + 5);
		assert_string_equal(damage, "");
		last = rep.snaps[rep.nsnaps - 1];
		assert_int_equal(last->time_us, T0 + step_ms[NSTEPS - 1] * 1000);
		for (i = 0; i < last->nsources && strcmp(last->sources[i].name, "replay") != 0; i++)
			;
		assert_true(i < last->nsources);
		assert_non_null(strstr(last->sources[i].message, "1 gap crossed (4 ticks missing)"));
		rf_capture_free(&rep);
	}
	/* the keyframe after the gap lost too (line 18, tick 16): ticks 0-15 replay, then it stops and says why */
	{
		size_t a = line_start(buf, 18), b = line_start(buf, 19);
		memcpy(copy, buf, a);
		memcpy(copy + a, buf + b, len - b);
		frames = replay_damaged("gap2.kgrec", copy, len - (b - a), &rep, damage, sizeof damage);
		assert_int_equal(frames, 16);
		if (strstr(damage, "line 18: tick 17 follows tick 15: 1 line is missing, and no keyframe after it") == NULL)
			print_error("damage: %s\n", damage);
		assert_non_null(strstr(damage, "line 18: tick 17 follows tick 15: 1 line is missing, and no keyframe after it"));
		rf_capture_free(&rep);
	}

	/* a semantic error: a committed difference list of the wrong length */
	{
		char *p, *q;
		memcpy(copy, buf, len);
		copy[len] = '\0';
		p = strstr(copy + line_start(copy, 4), "\"committed\":[");
		assert_non_null(p);
		q = strchr(p, ']');
		/* drop the last difference: "...,9]" -> "...]   " keeps the length */
		{
			char *comma = q;
			while (*comma != ',')
				comma--;
			memmove(comma, q, 1);
			memset(comma + 1, ' ', (size_t)(q - comma));
		}
		frames = replay_damaged("short.kgrec", copy, len, &rep, damage, sizeof damage);
		assert_true(frames >= 1 && frames < NSTEPS);
		assert_non_null(strstr(damage, "committed differences: 5 for 6 partitions"));
		rf_capture_free(&rep);
	}

	/* a missing header: the first tick is a keyframe, so it replays anyway */
	off = line_start(buf, 2);
	frames = replay_damaged("nohead.kgrec", buf + off, len - off, &rep, damage, sizeof damage);
	assert_int_equal(frames, NSTEPS);
	assert_string_equal(damage, "");
	rf_capture_free(&rep);
	/* ... not when the first line is a delta */
	memcpy(copy, buf + line_start(buf, 3), len - line_start(buf, 3));
	frames = replay_damaged("nohead2.kgrec", copy, len - line_start(buf, 3), &rep, damage, sizeof damage);
	assert_int_equal(frames, -1);
	assert_non_null(strstr(damage, "not a kgtop recording"));
	rf_capture_free(&rep);

	/* a newer format version is refused, with a clear message */
	{
		char *v2 = xasprintf("{\"kgtop_record\":%d,\"kgtop\":\"9.0\",\"start_us\":1}\n%s", KG_RECORD_VERSION + 1,
				     buf + line_start(buf, 2));
		char want[96];
		snprintf(want, sizeof want, "recording format %d (written by kgtop 9.0) is newer", KG_RECORD_VERSION + 1);
		frames = replay_damaged("v2.kgrec", v2, strlen(v2), &rep, damage, sizeof damage);
		assert_int_equal(frames, -1);
		assert_non_null(strstr(damage, want));
		rf_capture_free(&rep);
		free(v2);
	}
	/* time going back is damage too */
	{
		char *p;
		memcpy(copy, buf, len);
		copy[len] = '\0';
		p = copy + line_start(copy, 6);
		assert_true(strncmp(p, "{\"t\":1795900004", 15) == 0);
		p[14] = '0';
		frames = replay_damaged("back.kgrec", copy, len, &rep, damage, sizeof damage);
		assert_int_equal(frames, 4);
		assert_non_null(strstr(damage, "line 6: time goes back 3.0s"));
		rf_capture_free(&rep);
	}
	rf_capture_free(&live);
	free(copy);
	free(buf);
	free(path);
}

/* --at stops at the last tick not after it, and complete; every form parses. */
static void
test_at(void **state)
{
	rf_capture live = { 0 }, rep = { 0 };
	char *path = tmp_path("at.kgrec"), damage[600], err[256], hms[16];
	int64_t v;
	time_t tt = (time_t)(T0 / 1000000 + 5);
	struct tm tm;
	(void)state;
	run_live(path, 0, &live);
	assert_int_equal(run_replay(path, "+5.5", &rep, damage, sizeof damage), 6);
	assert_int_equal(rep.snaps[rep.nsnaps - 1]->time_us, T0 + 5000000);
	rf_capture_free(&rep);
	/* at exactly a tick, that tick is included */
	assert_int_equal(run_replay(path, "+70", &rep, damage, sizeof damage), 14);
	rf_capture_free(&rep);
	/* local HH:MM:SS on the first day */
	localtime_r(&tt, &tm);
	strftime(hms, sizeof hms, "%H:%M:%S", &tm);
	assert_int_equal(run_replay(path, hms, &rep, damage, sizeof damage), 6);
	rf_capture_free(&rep);
	/* before the start: a usage error */
	{
		kg_replay_config rc = { path, 1.0, true, "2020-01-01T00:00:00Z" };
		kg_source *src = NULL;
		assert_int_equal(replay_source_new(&rc, &src, err, sizeof err), -2);
		assert_non_null(strstr(err, "before the recording starts"));
		rc.at = "soon";
		assert_int_equal(replay_source_new(&rc, &src, err, sizeof err), -2);
	}
	assert_int_equal(replay_parse_at("2026-11-29T03:12:00Z", 0, &v, err, sizeof err), 0);
	assert_int_equal(v, 1795921920LL * 1000000);
	assert_int_equal(replay_parse_at("2026-11-29T03:12:00.250z", 0, &v, err, sizeof err), 0);
	assert_int_equal(v, 1795921920LL * 1000000 + 250000);
	assert_int_equal(replay_parse_at("2026-11-29T05:12:00+02:00", 0, &v, err, sizeof err), 0);
	assert_int_equal(v, 1795921920LL * 1000000);
	assert_int_equal(replay_parse_at("+90", 1000, &v, err, sizeof err), 0);
	assert_int_equal(v, 1000 + 90LL * 1000000);
	assert_int_equal(replay_parse_at("+2m", 0, &v, err, sizeof err), 0);
	assert_int_equal(v, 120LL * 1000000);
	assert_int_equal(replay_parse_at("2026-11-29 03:12", 0, &v, err, sizeof err), 0);
	assert_int_equal(replay_parse_at("25:00:00", 0, &v, err, sizeof err), -1);
	assert_int_equal(replay_parse_at("2026-13-01T00:00:00Z", 0, &v, err, sizeof err), -1);
	assert_int_equal(replay_parse_at("+x", 0, &v, err, sizeof err), -1);
	rf_capture_free(&live);
	free(path);
}

/* --record-max: rotation into FILE.1; the new file starts with a header and a keyframe and replays alone. */
static void
test_rotation(void **state)
{
	rf_capture live = { 0 }, rep = { 0 }, rep1 = { 0 };
	char *path = tmp_path("rot.kgrec"), *old = tmp_path("rot.kgrec.1"), *buf, damage[600];
	size_t len, len1;
	struct stat st;
	int frames, frames1;
	(void)state;
	run_live(path, 6000, &live);
	buf = slurp(path, &len);
	assert_true(strncmp(buf, "{\"kgtop_record\":5,", 18) == 0);
	assert_non_null(strstr(buf, "\"rotation\":"));
	assert_null(strstr(buf, "\"rotation\":0"));
	assert_true(strncmp(buf + line_start(buf, 2), "{\"t\":", 5) == 0);
	assert_non_null(strstr(buf + line_start(buf, 2), "\"key\":true"));
	assert_true(strstr(buf + line_start(buf, 2), "\"key\":true") < buf + line_start(buf, 3));
	assert_int_equal(stat(old, &st), 0);
	free(buf);
	buf = slurp(old, &len1);
	/* both files stay within the limit (no single line is larger than it here) */
	assert_true(len <= 6000);
	assert_true(len1 <= 6000);
	assert_true(strncmp(buf, "{\"kgtop_record\":5,", 18) == 0);
	frames = run_replay(path, NULL, &rep, damage, sizeof damage);
	assert_true(frames > 0);
	assert_string_equal(damage, "");
	frames1 = run_replay(old, NULL, &rep1, damage, sizeof damage);
	assert_true(frames1 > 0);
	assert_string_equal(damage, "");
	/* the newest file ends with the run's last tick */
	assert_int_equal(rep.snaps[rep.nsnaps - 1]->time_us, live.snaps[live.nsnaps - 1]->time_us);
	{
		/* state is complete after the keyframe: the last snapshot matches the live one */
		char why[256];
		assert_true(rf_snapshot_equal(live.snaps[live.nsnaps - 1], rep.snaps[rep.nsnaps - 1], skip_sources, why,
					      sizeof why));
	}
	rf_capture_free(&live);
	rf_capture_free(&rep);
	rf_capture_free(&rep1);
	free(buf);
	free(old);
	free(path);
}

/* The replay's health message, from the newest snapshot of a capture. */
static const char *
replay_health(const rf_capture *cap)
{
	const kg_snapshot *s = cap->snaps[cap->nsnaps - 1];
	int i;
	for (i = 0; i < s->nsources; i++) {
		if (strcmp(s->sources[i].name, "replay") == 0)
			return s->sources[i].message;
	}
	return "";
}

/* Step the collector until the capture has at least n snapshots or the deadline passes. */
static bool
step_until(kg_collector *c, rf_capture *cap, size_t n, int64_t deadline_us)
{
	while (cap->nsnaps < n) {
		if (util_mono_us() > deadline_us)
			return false;
		collector_step(c, 20000);
		frame_free(collector_take(c));
	}
	return true;
}

/* Send a command and run it (one step); returns the published message. */
static char *
command(kg_collector *c, const char *cmd)
{
	kg_frame *f;
	char *msg = NULL;
	collector_command(c, "replay", cmd);
	collector_step(c, 0);
	f = collector_take(c);
	if (f != NULL && f->message != NULL)
		msg = xstrdup(f->message);
	frame_free(f);
	return msg ? msg : xstrdup("");
}

/* Real time: pause, play, speed, seek and next-rebalance; the same events as live. */
static void
test_realtime(void **state)
{
	rf_capture live = { 0 }, rep = { 0 };
	char *path = tmp_path("rt2.kgrec"), err[256], *msg;
	kg_replay_config rc = { path, 32.0, false, NULL };
	kg_source *src = NULL;
	kg_tracker *t;
	kg_collector_config cc = { 1000000, 0, NULL };
	kg_collector *c;
	kg_tap tap;
	size_t n;
	int64_t deadline = util_mono_us() + 20LL * 1000000, t0;
	(void)state;
	run_live(path, 0, &live);
	assert_int_equal(replay_source_new(&rc, &src, err, sizeof err), 0);
	kg_tracker_config mc2 = options_model_defaults();
	t = tracker_new(&mc2);
	cc.cluster = replay_cluster(src);
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	rep.keep_snaps = true;
	rf_capture_tap(&rep, NULL, &tap);
	collector_add_tap(c, &tap, NULL, 0);
	collector_add_source(c, src, NULL, 0);

	/* 32x: the first three ticks (2 s recorded) arrive within a deadline */
	t0 = util_mono_us();
	assert_true(step_until(c, &rep, 3, deadline));
	assert_non_null(strstr(replay_health(&rep), "playing 32x at "));
	assert_non_null(strstr(replay_health(&rep), "(ends "));
	/* 2 s of recording at 32x take at least 62 ms */
	assert_true(util_mono_us() - t0 >= 2000000 / 32 - 5000);

	/* pause: a tick at the same time says so; no line is handed over while paused */
	msg = command(c, "pause");
	assert_non_null(strstr(msg, "replay: paused at "));
	free(msg);
	n = rep.nsnaps;
	assert_non_null(strstr(replay_health(&rep), "paused, 32x"));
	{
		int i;
		int64_t now = rep.snaps[n - 1]->time_us;
		for (i = 0; i < 5; i++)
			collector_step(c, 20000); /* bounded waits: nothing is due while paused */
		frame_free(collector_take(c));
		assert_int_equal(rep.nsnaps, n);
		assert_int_equal(rep.snaps[n - 1]->time_us, now);
	}
	/* speed: bounds, steps */
	msg = command(c, "speed 64");
	assert_non_null(strstr(msg, "expected 0.25 to 32"));
	free(msg);
	msg = command(c, "slower");
	assert_string_equal(msg, "replay: 16x");
	free(msg);
	msg = command(c, "speed 32x");
	assert_string_equal(msg, "replay: 32x");
	free(msg);
	msg = command(c, "seek -10");
	assert_non_null(strstr(msg, "scrub back with left/right"));
	free(msg);
	msg = command(c, "prev-rebalance");
	assert_non_null(strstr(msg, "began at"));
	free(msg);
	/* next-rebalance while paused jumps to the tick that started one, and stays paused */
	msg = command(c, "next-rebalance");
	assert_non_null(strstr(msg, "replay: rebalance of g-"));
	free(msg);
	assert_true(step_until(c, &rep, 5, deadline));
	{
		int i;
		for (i = 0; i < 3; i++)
			collector_step(c, 20000);
		frame_free(collector_take(c));
	}
	assert_int_equal(rep.snaps[rep.nsnaps - 1]->time_us, T0 + 3000000);
	/* seek forward past a keyframe gap, then play to the end */
	msg = command(c, "seek +60");
	assert_non_null(strstr(msg, "replay: to "));
	free(msg);
	msg = command(c, "toggle");
	assert_non_null(strstr(msg, "playing 32x"));
	free(msg);
	while (strstr(replay_health(&rep), "ended at ") == NULL) {
		size_t have = rep.nsnaps;
		assert_true(step_until(c, &rep, have + 1, deadline));
	}
	assert_true(rep.nsnaps >= NSTEPS);
	msg = command(c, "bogus");
	assert_non_null(strstr(msg, "unknown command"));
	free(msg);
	collector_free(c);
	tracker_free(t);

	/* commands added ticks at the same times; the tracker derived the very same events */
	{
		char why[512];
		bool ok = rf_events_equal(&live.ev, &rep.ev, why, sizeof why);
		if (!ok) {
			fprintf(stderr, "# %s\n", why);
			rf_dump(&rep.ev, T0);
		}
		assert_true(ok);
	}
	rf_capture_free(&live);
	rf_capture_free(&rep);
	free(path);
}

/* Recording errors stop the recording and show in the record source's health. */
static void
test_record_errors(void **state)
{
	kg_recorder *r = NULL;
	char err[256];
	kg_source *s;
	kg_builder *b;
	kg_snapshot *snap;
	(void)state;
	assert_int_equal(recorder_open("/nonexistent-dir/x.kgrec", 0, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent-dir/x.kgrec"));
	{
		/* a full disk, as a file size limit makes it (writes past it fail, SIGXFSZ ignored) */
		kg_tap tap;
		kg_evlist ev = { 0 };
		kg_obsq q = { 0 };
		struct rlimit old, small = { 64, 64 };
		char *path = tmp_path("full.kgrec");
		void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
		assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
		small.rlim_max = old.rlim_max;
		assert_int_equal(recorder_open(path, 0, &r, err, sizeof err), 0);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
		recorder_tap(r, &tap);
		b = builder_new(T0);
		snap = builder_finish(b);
		tap.before(tap.arg, &q, snap);
		tap.after(tap.arg, snap, &ev);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
		signal(SIGXFSZ, was);
		assert_non_null(recorder_error(r));
		assert_non_null(strstr(recorder_error(r), "write failed: File too large"));
		s = recorder_source(r);
		b = builder_new(T0 + 1);
		s->ops->contribute(s, b);
		snapshot_unref(snap);
		snap = builder_finish(b);
		assert_int_equal(snap->nsources, 1);
		assert_string_equal(snap->sources[0].name, "record");
		assert_int_equal(snap->sources[0].status, KG_SRC_ERROR);
		snapshot_unref(snap);
		source_free(s);
		recorder_close(r);
		free(path);
	}
	{
		/* a file that exists is not written over; nor is one through a link */
		char *path = tmp_path("exists.kgrec"), *link = tmp_path("link.kgrec");
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fclose(f);
		assert_int_equal(recorder_open(path, 0, &r, err, sizeof err), -1);
		assert_non_null(strstr(err, "the file exists"));
		assert_int_equal(symlink(path, link), 0);
		assert_int_equal(recorder_open(link, 0, &r, err, sizeof err), -1);
		assert_non_null(strstr(err, "a symbolic link"));
		free(path);
		free(link);
	}
}

/* Make the temporary directory. */
static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/kgtop-test-record-XXXXXX");
	return mkdtemp(tmpdir) != NULL ? 0 : -1;
}

/* Remove it. */
static int
teardown(void **state)
{
	char *cmd;
	(void)state;
	if (getenv("KGTOP_KEEP_TEST_FILES") != NULL)
		return 0;
	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0) {
		/* best effort */
	}
	free(cmd);
	return 0;
}

/* Run. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_tampered_differs),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_at),
		cmocka_unit_test(test_rotation),
		cmocka_unit_test(test_realtime),
		cmocka_unit_test(test_record_errors),
	};
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * test_ui_scene.c: scripted clusters through the real model (see
 * test_ui_scene.h).  The script is a list of timed steps: a step changes
 * the scripted cluster (a member joins, leaves, gets an assignment, the
 * group changes state) and/or queues observations the way the demo and
 * trace sources report callbacks; a "tick" step builds a snapshot from the
 * scripted cluster and folds it and the queued observations into the
 * tracker, as the collector does.
 */
#include "config.h"

#include "core/options.h"
#include "test_ui_scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "model/obs.h"
#include "util/util.h"

#define MS 1000LL
#define SEC 1000000LL
#define MAXM 8
#define MAXP 16

typedef struct smember {
	const char *mid, *cid, *host, *inst;
	int parts[MAXP]; /* partition numbers; topic index in tpc[] */
	int tpc[MAXP];
	int n;
	int present;
} smember;

typedef struct sgroup {
	const char *name;
	const char *assignor;
	kg_group_state st;
	const char *topic[2];
	int ntopic[2];
	int ntopics;
	smember m[MAXM];
	int nm;
	int exact;
	int64_t rate;  /* messages per second per partition */
	int64_t lagb;  /* base lag per partition */
} sgroup;

enum { G_RANGE, G_COOP, G_LEDGER, G_IDLE, G_ORPH, G_STORM, G_WEIRD, NG };

static sgroup cl[NG];
static kg_obsq pending;
static kg_src_status kafka_st = KG_SRC_COUNT; /* KG_SRC_COUNT: no kafka source */
static const char *kafka_msg;
static int64_t kafka_ago;
static const char *demo_msg;  /* the demo source's message (its script step), NULL none */
static bool no_trace;         /* no log trace source */

/* The demo's message and whether the log trace reports, from now on. */
void
scene_sources(const char *msg, bool trace)
{
	demo_msg = msg;
	no_trace = !trace;
}

/* A "kafka" source of this health from now on. */
void
scene_kafka(kg_src_status st, const char *msg, int64_t last_ok_ago_us)
{
	kafka_st = st;
	kafka_msg = msg;
	kafka_ago = last_ok_ago_us;
}

static const char *attach_msg; /* NULL: no attach source */
static int64_t attach_down;    /* > 0: its stream broke this long ago (an error since) */

/* An "attach" source (a viewer of another kgtop) saying msg from now on. */
void
scene_attach(const char *msg)
{
	attach_msg = msg;
	attach_down = 0;
}

/* An "attach" source whose stream broke ago_us ago (the serving kgtop went away), saying msg. */
void
scene_attach_down(const char *msg, int64_t ago_us)
{
	attach_msg = msg;
	attach_down = ago_us;
}

/* Set a member's assignment from a list of partitions of topic 0 (or topic index tp). */
static void
set_parts(smember *m, int tp, const int *v, int n)
{
	int i;
	m->n = n;
	for (i = 0; i < n; i++) {
		m->parts[i] = v[i];
		m->tpc[i] = tp;
	}
}

/* The scripted cluster at time zero. */
static void
script_reset(void)
{
	static const int r_a[] = { 0, 1 }, r_b[] = { 2, 3 }, r_c[] = { 4, 5 };
	static const int c_a[] = { 0, 4 }, c_b[] = { 1, 3 }, c_c[] = { 2, 5 };
	sgroup *g;
	memset(cl, 0, sizeof cl);

	g = &cl[G_RANGE];
	*g = (sgroup){ .name = "demo-range", .assignor = "range", .st = KG_STATE_STABLE, .topic = { "demo-groups" },
		       .ntopic = { 6 }, .ntopics = 1, .nm = 4, .exact = 1, .rate = 40, .lagb = 12 };
	g->m[0] = (smember){ .mid = "consumer-a-5f1e", .cid = "consumer-a", .host = "/10.0.0.11", .present = 1 };
	g->m[1] = (smember){ .mid = "consumer-b-77a0", .cid = "consumer-b", .host = "/10.0.0.12", .present = 1 };
	g->m[2] = (smember){ .mid = "consumer-c-9c31", .cid = "consumer-c", .host = "/10.0.0.13", .present = 1 };
	g->m[3] = (smember){ .mid = "consumer-d-d402", .cid = "consumer-d", .host = "/10.0.0.14", .present = 0 };
	set_parts(&g->m[0], 0, r_a, 2);
	set_parts(&g->m[1], 0, r_b, 2);
	set_parts(&g->m[2], 0, r_c, 2);

	g = &cl[G_COOP];
	*g = (sgroup){ .name = "demo-coop", .assignor = "cooperative-sticky", .st = KG_STATE_STABLE,
		       .topic = { "demo-groups" }, .ntopic = { 6 }, .ntopics = 1, .nm = 4, .exact = 1, .rate = 40,
		       .lagb = 9 };
	g->m[0] = (smember){ .mid = "consumer-a-0b12", .cid = "consumer-a", .host = "/10.0.0.21", .present = 1 };
	g->m[1] = (smember){ .mid = "consumer-b-1c23", .cid = "consumer-b", .host = "/10.0.0.22", .present = 1 };
	g->m[2] = (smember){ .mid = "consumer-c-2d34", .cid = "consumer-c", .host = "/10.0.0.23", .present = 1 };
	g->m[3] = (smember){ .mid = "consumer-d-3e45", .cid = "consumer-d", .host = "/10.0.0.24", .present = 0 };
	set_parts(&g->m[0], 0, c_a, 2);
	set_parts(&g->m[1], 0, c_b, 2);
	set_parts(&g->m[2], 0, c_c, 2);

	g = &cl[G_LEDGER];
	*g = (sgroup){ .name = "payments-ledger", .assignor = "roundrobin", .st = KG_STATE_STABLE,
		       .topic = { "payments", "ledger" }, .ntopic = { 4, 2 }, .ntopics = 2, .nm = 3, .rate = 300,
		       .lagb = 400 };
	g->m[0] = (smember){ .mid = "worker-1-aa", .cid = "worker-1", .host = "/10.1.0.1", .present = 1 };
	g->m[1] = (smember){ .mid = "worker-2-bb", .cid = "worker-2", .host = "/10.1.0.2", .inst = "ledger-2",
			     .present = 1 };
	g->m[2] = (smember){ .mid = "worker-3-cc", .cid = "worker-3", .host = "/10.1.0.3", .present = 1 };
	g->m[0].n = 2; g->m[0].parts[0] = 0; g->m[0].tpc[0] = 0; g->m[0].parts[1] = 3; g->m[0].tpc[1] = 0;
	g->m[1].n = 2; g->m[1].parts[0] = 1; g->m[1].tpc[0] = 0; g->m[1].parts[1] = 0; g->m[1].tpc[1] = 1;
	g->m[2].n = 2; g->m[2].parts[0] = 2; g->m[2].tpc[0] = 0; g->m[2].parts[1] = 1; g->m[2].tpc[1] = 1;

	g = &cl[G_IDLE];
	*g = (sgroup){ .name = "audit-archiver", .assignor = "", .st = KG_STATE_EMPTY, .topic = { "audit" },
		       .ntopic = { 3 }, .ntopics = 1, .nm = 0, .rate = 5, .lagb = 52000 };

	g = &cl[G_ORPH];
	*g = (sgroup){ .name = "search-indexer", .assignor = "range", .st = KG_STATE_STABLE, .topic = { "docs" },
		       .ntopic = { 3 }, .ntopics = 1, .nm = 1, .rate = 2, .lagb = 3 };
	g->m[0] = (smember){ .mid = "indexer-1-x", .cid = "indexer-1", .host = "/10.2.0.1", .present = 1 };
	{
		static const int o[] = { 0, 1 };
		set_parts(&g->m[0], 0, o, 2);
	}

	g = &cl[G_STORM];
	*g = (sgroup){ .name = "billing-events", .assignor = "range", .st = KG_STATE_STABLE, .topic = { "billing" },
		       .ntopic = { 2 }, .ntopics = 1, .nm = 2, .rate = 80, .lagb = 20 };
	g->m[0] = (smember){ .mid = "billing-1-x", .cid = "billing-1", .host = "/10.3.0.1", .present = 1 };
	g->m[1] = (smember){ .mid = "billing-2-y", .cid = "billing-2", .host = "/10.3.0.2", .present = 1 };
	{
		static const int b0[] = { 0 }, b1[] = { 1 };
		set_parts(&g->m[0], 0, b0, 1);
		set_parts(&g->m[1], 0, b1, 1);
	}

	g = &cl[G_WEIRD];
	*g = (sgroup){ .name = "weird\x1b[31m-\xff\xfe-gr\xc3\xbc\xc3\x9f-\xe6\x97\xa5\xe6\x9c\xac", .assignor = "range",
		       .st = KG_STATE_STABLE, .topic = { "t\x07opic" }, .ntopic = { 1 }, .ntopics = 1, .nm = 1, .rate = 1,
		       .lagb = 0 };
	g->m[0] = (smember){ .mid = "m\x1b]0;pwned\x07", .cid = "bad\x1b[2J\r\nclient\xc2\x9b", .host = "/\xe2\x80\xae" "1.1",
			     .present = 1 };
	{
		static const int w0[] = { 0 };
		set_parts(&g->m[0], 0, w0, 1);
	}
}

/* Queue an observation about member m of group g. */
static kg_obs *
obs(kg_obs_kind k, int64_t t, sgroup *g, smember *m, const int *parts, int n)
{
	kg_obs *o = obs_new(k, t, intern_group(g->name), "demo");
	kg_tp tp[MAXP];
	int i;
	if (m != NULL)
		obs_member(o, m->mid, m->cid, m->inst, m->host);
	for (i = 0; i < n; i++)
		tp[i] = (kg_tp){ intern_topic(g->topic[0]), parts[i] };
	if (parts != NULL)
		obs_parts(o, tp, n);
	o->proto = strcmp(g->assignor, "cooperative-sticky") == 0 ? KG_PROTO_COOPERATIVE : KG_PROTO_EAGER;
	obsq_push(&pending, o);
	return o;
}

/*
 * payments-ledger's progress (issue 10), over the scene's lag window of a
 * minute: payments-0's commits freeze at 5 s (STALLED since then, its lag
 * growing), retention moves ledger-1's log start 500 records past its
 * committed offset at 8 s (LOST), and payments-1's record at the committed
 * offset is read, written 2.5 s before (an exact time lag).
 */
static void
ledger_progress(kg_builder *b, kg_bgroup *bg, kg_tp tp, int topic, int64_t t, int64_t committed)
{
	sgroup *g = &cl[G_LEDGER];
	if (topic == 0 && tp.partition == 0 && t > SCENE_T0 + 5 * SEC) {
		/* the committed offset as it was at 5 s */
		int64_t end5 = 100000 + 5 * g->rate, lag5 = g->lagb + 5 * 9;
		bgroup_committed(bg, tp, end5 - lag5);
	} else if (topic == 1 && tp.partition == 1 && t >= SCENE_T0 + 8 * SEC) {
		builder_partition_start(b, tp, committed + 500);
	} else if (topic == 0 && tp.partition == 1) {
		kg_stamp st = { .offset = committed, .record = committed, .ts_ms = (t - 2500000) / 1000, .why = KG_TLAG_WHY_NONE };
		builder_partition_stamp(b, tp, &st);
	}
}

/* Add the scripted cluster to a builder (what a source contributes). */
void
scene_contribute(kg_builder *b)
{
	int64_t t = builder_time(b);
	kg_source_health h = { .name = "demo", .role = KG_ROLE_DEMO, .status = KG_SRC_OK, .since_us = SCENE_T0, .last_ok_us = t,
			       .message = demo_msg };
	kg_source_health h2 = { .name = "log:broker-1", .role = KG_ROLE_TRACE, .status = KG_SRC_STALE, .since_us = t - 12 * SEC,
				.last_ok_us = t - 12 * SEC, .message = "no line for 12s" };
	int gi, k, j, tp;
	double secs = (double)(t - SCENE_T0) / 1e6;
	builder_cluster(b, "localhost:9092");
	if (kafka_st != KG_SRC_COUNT) {
		kg_source_health hk = { .name = "kafka", .role = KG_ROLE_CLUSTER, .status = kafka_st, .since_us = t - kafka_ago,
					.last_ok_us = t - kafka_ago, .message = kafka_msg };
		builder_source(b, &hk);
	}
	if (attach_msg != NULL) {
		kg_source_health ha = { .name = "attach", .role = KG_ROLE_ATTACH, .status = attach_down > 0 ? KG_SRC_ERROR : KG_SRC_OK,
					.since_us = attach_down > 0 ? t - attach_down : SCENE_T0, .last_ok_us = t - attach_down,
					.message = attach_msg };
		builder_source(b, &ha);
	}
	builder_source(b, &h);
	if (!no_trace)
		builder_source(b, &h2);
	builder_broker(b, 1, "localhost", 9092);
	for (gi = 0; gi < NG; gi++) {
		sgroup *g = &cl[gi];
		kg_bgroup *bg = builder_group(b, intern_group(g->name));
		bgroup_state(bg, g->st);
		bgroup_protocol(bg, "consumer", g->st == KG_STATE_STABLE ? g->assignor : "");
		if (gi == G_COOP)
			bgroup_proto(bg, KG_PROTO_COOPERATIVE);
		bgroup_coordinator(bg, 1);
		/*
		 * Members become exact when their first callback arrives (the
		 * tracker takes polled assignments until then), like a demo that
		 * kgtop attaches to after the group formed.
		 */
		for (tp = 0; tp < g->ntopics; tp++) {
			int32_t tid = intern_topic(g->topic[tp]);
			builder_topic(b, tid, g->ntopic[tp]);
			bgroup_topic(bg, tid);
			for (j = 0; j < g->ntopic[tp]; j++) {
				int64_t end = 100000 + (int64_t)(secs * (double)g->rate) + j * 7;
				/* an Empty group commits nothing: its offsets stand while the log grows */
				int64_t lag = g->lagb + (gi == G_LEDGER ? (int64_t)(secs * 9) : 0) + j +
					      (gi == G_IDLE ? (int64_t)(secs * (double)g->rate) : 0);
				builder_partition(b, (kg_tp){ tid, j }, 1, end);
				bgroup_committed(bg, (kg_tp){ tid, j }, end - lag);
				if (gi == G_LEDGER)
					ledger_progress(b, bg, (kg_tp){ tid, j }, tp, t, end - lag);
			}
		}
		for (k = 0; k < g->nm; k++) {
			smember *m = &g->m[k];
			kg_bmember *bm;
			kg_tp v[MAXP];
			if (!m->present)
				continue;
			bm = bgroup_member(bg, m->mid);
			bmember_ids(bm, m->cid, m->host, m->inst);
			for (j = 0; j < m->n; j++)
				v[j] = (kg_tp){ intern_topic(g->topic[m->tpc[j]]), m->parts[j] };
			/* the broker describes a rebalancing classic group without assignments */
			bmember_assignment(bm, v, state_rebalancing(g->st) ? 0 : m->n);
			bmember_flags(bm, m->inst ? KG_MEMBER_STATIC : 0);
		}
	}
}

/* Move the queued observations into q. */
void
scene_drain(kg_obsq *q)
{
	obsq_move(q, &pending);
}

/* Build a snapshot of the scripted cluster at t and fold it into the tracker. */
static void
tick(ui_scene *sc, int64_t t)
{
	kg_builder *b = builder_new(t);
	kg_snapshot *snap;
	scene_contribute(b);
	snap = builder_finish(b);
	tracker_apply(sc->tracker, &pending, snap, &sc->events);
	history_add_verdicts(tracker_history(sc->tracker), snap); /* as the collector does */
	snapshot_unref(sc->snap);
	sc->snap = snap;
}

/* Health metrics for the ledger's members (a jolokia-like trace). */
static void
ledger_metrics(int64_t t)
{
	sgroup *g = &cl[G_LEDGER];
	int k;
	for (k = 0; k < 2; k++) {
		kg_obs *o = obs_new(KG_OBS_METRICS, t, intern_group(g->name), "jolokia");
		obs_member(o, g->m[k].mid, g->m[k].cid, g->m[k].inst, g->m[k].host);
		o->hb_age_us = k == 0 ? 1200 * MS : 31 * SEC;
		o->poll_gap_us = k == 0 ? 40 * SEC : 260 * SEC;
		o->poll_gap_max_us = k == 0 ? 90 * SEC : 280 * SEC;
		o->session_timeout_ms = 45000;
		o->max_poll_ms = 300000;
		obsq_push(&pending, o);
	}
}

/* One scripted step; returns its time, or 0 past the end.  Steps that tick set *ticked. */
static int64_t
script_step(ui_scene *sc, int i, bool run, bool *ticked)
{
	static const int none[1] = { 0 };
	static const int range_a[] = { 0, 1 }, range_b[] = { 2, 3 }, range_c[] = { 4 }, range_d[] = { 5 };
	static const int four[] = { 4 }, zero[] = { 0 };
	static const int64_t ticks[] = {
		0, 1000, 2000, 3000, 3300, 4000, 5000, 5800, 6000, 7000, 8000, 9000, 10000, 11000, 12000, 12200, 12700,
		13000, 14000, 15000, 16000, 17000, 18000, 19000, 20000,
	};
	/* non-tick steps, by time in ms */
	static const int64_t acts[] = { 2000, 2500, 3213, 5713, 6000, 6500, 10000, 10500, 12118, 12119, 12121, 12500,
					12626, 14500, 15000, 16000, 17500 };
	int nt = (int)KG_ARRAY_LEN(ticks), na = (int)KG_ARRAY_LEN(acts), ia = 0, it = 0, k;
	int64_t when;
	sgroup *r = &cl[G_RANGE], *c = &cl[G_COOP], *l = &cl[G_LEDGER], *s = &cl[G_STORM];
	/* merge the two lists: actions before ticks at equal times */
	for (k = 0; k <= i; k++) {
		bool act = ia < na && (it >= nt || acts[ia] <= ticks[it]);
		if (ia >= na && it >= nt)
			return 0;
		if (k < i) {
			if (act)
				ia++;
			else
				it++;
			continue;
		}
		when = SCENE_T0 + (act ? acts[ia] : ticks[it]) * MS;
		*ticked = !act;
		if (!run)
			return when;
		if (!act) {
			if (sc->tracker != NULL)
				tick(sc, when);
			return when;
		}
		switch (acts[ia]) {
		case 2000: /* the storm group rebalances three times */
		case 6000:
		case 10000:
			s->st = KG_STATE_PREPARING_REBALANCE;
			break;
		case 2500:
		case 6500:
		case 10500:
			s->st = KG_STATE_STABLE;
			break;
		case 3213: /* seed 000, range: d joins, a b c revoke everything */
			r->m[3].present = 1;
			obs(KG_OBS_JOINED, when - 13 * MS, r, &r->m[3], NULL, 0);
			for (k = 0; k < 3; k++) {
				obs(KG_OBS_REVOKED, when, r, &r->m[k], r->m[k].parts, r->m[k].n);
				r->m[k].n = 0;
			}
			break;
		case 5713: /* range: one round assigns everything */
			set_parts(&r->m[0], 0, range_a, 2);
			set_parts(&r->m[1], 0, range_b, 2);
			set_parts(&r->m[2], 0, range_c, 1);
			set_parts(&r->m[3], 0, range_d, 1);
			for (k = 0; k < 4; k++)
				obs(KG_OBS_ASSIGNED, when, r, &r->m[k], r->m[k].parts, r->m[k].n);
			break;
		case 12118: /* seed 000, cooperative-sticky: round one revokes nothing */
			c->m[3].present = 1;
			obs(KG_OBS_JOINED, when - 10 * MS, c, &c->m[3], NULL, 0);
			for (k = 0; k < 3; k++)
				obs(KG_OBS_REVOKED, when, c, &c->m[k], none, 0);
			break;
		case 12119:
			for (k = 0; k < 4; k++)
				obs(KG_OBS_ASSIGNED, when, c, &c->m[k], none, 0);
			break;
		case 12121: /* consumer-a revokes [4] of [0 4] */
			obs(KG_OBS_REVOKED, when, c, &c->m[0], four, 1);
			set_parts(&c->m[0], 0, zero, 1);
			break;
		case 12500: /* round two */
			obs(KG_OBS_JOIN_SENT, when, c, &c->m[0], NULL, 0);
			break;
		case 12626: /* consumer-d gets [4] */
			set_parts(&c->m[3], 0, four, 1);
			obs(KG_OBS_ASSIGNED, when, c, &c->m[3], four, 1);
			for (k = 0; k < 3; k++)
				obs(KG_OBS_ASSIGNED, when, c, &c->m[k], none, 0);
			break;
		case 14500: { /* worker-3 stuck in processing */
			kg_obs *o = obs_new(KG_OBS_LEFT, when, intern_group(l->name), "log");
			obs_member(o, l->m[2].mid, l->m[2].cid, NULL, l->m[2].host);
			o->reason = KG_REASON_MAX_POLL;
			obs_text(o, "consumer poll timeout has expired");
			obsq_push(&pending, o);
			ledger_metrics(when);
			l->st = KG_STATE_PREPARING_REBALANCE;
			l->m[2].present = 0;
			break;
		}
		case 15000:
			break;
		case 16000:
			l->st = KG_STATE_STABLE;
			l->m[0].n = 3;
			l->m[0].parts[2] = 2;
			l->m[0].tpc[2] = 0;
			l->m[1].n = 3;
			l->m[1].parts[2] = 1;
			l->m[1].tpc[2] = 1;
			break;
		case 17500:
			ledger_metrics(when);
			break;
		default:
			break;
		}
		return when;
	}
	return 0;
}

/* Start a scene. */
void
scene_init(ui_scene *sc)
{
	kg_tracker_config cfg;
	memset(sc, 0, sizeof *sc);
	cfg = options_model_defaults();
	cfg.storm_episodes = 3;
	cfg.lag_window_us = 60 * SEC; /* a stall shows within the scene's 20 s */
	sc->tracker = tracker_new(&cfg);
	script_reset();
	kafka_st = KG_SRC_COUNT;
	attach_msg = NULL;
	attach_down = 0;
	obsq_clear(&pending);
}

/* Run the script up to t. */
int
scene_run_until(ui_scene *sc, int64_t t_us)
{
	int n = 0;
	for (;;) {
		bool ticked = false;
		int64_t when = script_step(sc, sc->step, false, &ticked);
		if (when == 0 || when > t_us)
			break;
		script_step(sc, sc->step, true, &ticked);
		sc->step++;
		sc->t = when;
		n += ticked;
	}
	return n;
}

/* Free a scene. */
void
scene_free(ui_scene *sc)
{
	snapshot_unref(sc->snap);
	evlist_clear(&sc->events);
	free(sc->events.v);
	tracker_free(sc->tracker);
	obsq_clear(&pending);
	free(pending.v);
	pending.v = NULL;
	pending.cap = 0;
	memset(sc, 0, sizeof *sc);
}

/* One stable group of nmembers x nparts, fed ticks snapshots one second apart. */
kg_snapshot *
scene_big_group(kg_tracker *tr, const char *name, int nmembers, int nparts, int ticks, int64_t t0)
{
	kg_snapshot *snap = NULL;
	kg_evlist ev = { 0 };
	int32_t gid = intern_group(name), tid = intern_topic("big-topic");
	int t, k, p;
	kg_tp *v = xcalloc((size_t)nparts + 1, sizeof *v);
	for (t = 0; t < ticks; t++) {
		kg_builder *b = builder_new(t0 + t * SEC);
		kg_bgroup *bg = builder_group(b, gid);
		int shift = t >= ticks / 2 ? 1 : 0; /* one rebalance halfway: every partition moves on */
		builder_cluster(b, "bench:9092");
		builder_topic(b, tid, nparts);
		bgroup_state(bg, KG_STATE_STABLE);
		bgroup_protocol(bg, "consumer", "range");
		for (p = 0; p < nparts; p++) {
			builder_partition(b, (kg_tp){ tid, p }, 1, 1000 + t * 10);
			bgroup_committed(bg, (kg_tp){ tid, p }, 990 + t * 10 - p % 7);
		}
		for (k = 0; k < nmembers; k++) {
			char mid[32], cid[32];
			kg_bmember *bm;
			int n = 0;
			snprintf(mid, sizeof mid, "member-%03d", k);
			snprintf(cid, sizeof cid, "client-%03d", k);
			bm = bgroup_member(bg, mid);
			bmember_ids(bm, cid, "/10.9.0.1", NULL);
			for (p = 0; p < nparts; p++) {
				if ((p + shift) % nmembers == k)
					v[n++] = (kg_tp){ tid, p };
			}
			bmember_assignment(bm, v, n);
		}
		snapshot_unref(snap);
		snap = builder_finish(b);
		tracker_apply(tr, NULL, snap, &ev);
		history_add_verdicts(tracker_history(tr), snap); /* as the collector does */
		evlist_clear(&ev);
	}
	free(ev.v);
	free(v);
	return snap;
}

/* Many small groups. */
kg_snapshot *
scene_many_groups(kg_tracker *tr, int ngroups, int ticks, int64_t step_us)
{
	kg_snapshot *snap = NULL;
	kg_evlist ev = { 0 };
	int t, gi, p;
	int32_t *gid = xcalloc((size_t)ngroups, sizeof *gid), tid = intern_topic("many");
	for (gi = 0; gi < ngroups; gi++) {
		char name[32];
		snprintf(name, sizeof name, "group-%04d", gi);
		gid[gi] = intern_group(name);
	}
	for (t = 0; t < ticks; t++) {
		kg_builder *b = builder_new(SCENE_T0 + t * step_us);
		builder_topic(b, tid, 4);
		for (p = 0; p < 4; p++)
			builder_partition(b, (kg_tp){ tid, p }, 1, 5000 + t);
		for (gi = 0; gi < ngroups; gi++) {
			kg_bgroup *bg = builder_group(b, gid[gi]);
			kg_tp v[4];
			int k, n;
			/* every 50th group rebalances every 100 ticks */
			bool moved = gi % 50 == 0 && (t / 100) % 2 == 1;
			bgroup_state(bg, KG_STATE_STABLE);
			bgroup_protocol(bg, "consumer", "range");
			for (p = 0; p < 4; p++)
				bgroup_committed(bg, (kg_tp){ tid, p }, 4990 + t - gi % 10);
			for (k = 0; k < 2; k++) {
				char mid[32];
				kg_bmember *bm;
				snprintf(mid, sizeof mid, "m-%d-%d", gi, k);
				bm = bgroup_member(bg, mid);
				bmember_ids(bm, mid, "/10.0.0.1", NULL);
				for (n = 0, p = 0; p < 4; p++) {
					if ((p + (moved ? 1 : 0)) % 2 == k)
						v[n++] = (kg_tp){ tid, p };
				}
				bmember_assignment(bm, v, n);
			}
		}
		snapshot_unref(snap);
		snap = builder_finish(b);
		tracker_apply(tr, NULL, snap, &ev);
		history_add_verdicts(tracker_history(tr), snap); /* as the collector does */
		evlist_clear(&ev);
	}
	free(ev.v);
	free(gid);
	return snap;
}

/*
 * demo.c: the embedded demo as a source (see demo.h and demo_int.h).
 *
 * The mock cluster (three brokers) or a real cluster, a topic, a producer
 * thread at a steady rate so lag moves, and per group a fleet of real
 * consumers (demo_consumer.c).  The script (demo_script.c) and the UI's
 * commands run on the collector thread, in poll() and command(); they only
 * set requests that the consumers' own threads carry out, so the collector
 * never waits for a rebalance or a close.
 *
 * What the source publishes is folded from the observations it has handed
 * over, never from fresher state: drain() moves the observations (up to
 * the oldest one still held for a member id), folds them into a small
 * per-group view (who is a member, what it holds), and contribute() reports
 * that view.  So every snapshot agrees with the observations that came
 * with it.  The group state is synthesized from the requests in flight:
 * PreparingRebalance while a member waits for its JoinGroup answer,
 * CompletingRebalance while one waits for SyncGroup, Stable otherwise.
 * Committed and log-end offsets come from the kafka source, which follows
 * the demo groups through kafka_source_watch().
 *
 * Timings on the mock (librdkafka 2.0.2): session.timeout.ms 4000,
 * heartbeat.interval.ms 1000, max.poll.interval.ms 6000 (it must be at
 * least the session timeout; below about 3000 members expire during their
 * first join).  Rounds take about three seconds.  On a real cluster the
 * brokers' group.min.session.timeout.ms (6000 by default) rules those out:
 * 10000 / 3000 / 15000 there.
 */
#include "config.h"

#include "sources/demo.h"

#include <errno.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "model/intern.h"
#include "sources/demo_int.h"
#include "sources/jsonl_write.h"
#include "sources/kafka.h"
#include "util/util.h"

#define MOCK_BROKERS 3
#define MOCK_TOPIC "demo-groups"
#define REAL_TOPIC "kgtop-demo-groups"
#define RATE_PER_PARTITION 5
#define SETTLE_QUIET_US (1500LL * 1000)   /* no rebalance activity for this long: settled */
#define RESUME_AFTER_SETTLE_US (2LL * 1000000)
#define QUICK_RETURN_US (1LL * 1000000)
#define STALL_CAP_US (20LL * 1000000)     /* a stall ends at the latest this long past the limit */
#define HELD_STALE_US (2LL * 1000000)     /* held observations stop holding back the queue */
#define CLOSE_WAIT_MOCK_US (4LL * 1000000) /* close(): consumers get this long to leave (then they are left behind) */
#define CLOSE_WAIT_REAL_US (8LL * 1000000)
#define MAX_CONSUMERS 32
#define MAX_PER_GROUP 12

static void demo_close(kg_source *s);

/* ------------------------------------------------------------ utilities */

/* Queue an observation (locked). */
void
demo_push(demo *d, kg_obs *o)
{
	obsq_push(&d->q, o);
	d->news = true;
}

/* Ask the collector to poll soon. */
void
demo_wake(demo *d)
{
	if (!atomic_load(&d->quiet) && d->src != NULL && d->src->ctx.wake != NULL)
		d->src->ctx.wake(d->src->ctx.wake_arg);
}

/* Wait on the demo's condition variable for at most us (locked). */
void
demo_timed_wait(demo *d, int64_t us)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)(us / 1000000);
	ts.tv_nsec += (long)(us % 1000000) * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&d->cond, &d->lock, &ts);
}

/* Log callback of the producer and the mock's handle: to the debug log, never the terminal. */
static void
quiet_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
	log_msg(level <= 3 ? KG_LOG_INFO : KG_LOG_DEBUG, "demo: rdkafka %s %s: %s", rk ? rd_kafka_name(rk) : "?",
		fac ? fac : "", buf ? buf : "");
}

/* True for a cluster-wide cause that waiting will not cure (no broker reachable, bad credentials). */
static bool
cluster_unreachable(int err)
{
	return err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || err == RD_KAFKA_RESP_ERR__RESOLVE ||
	       err == RD_KAFKA_RESP_ERR__AUTHENTICATION || err == RD_KAFKA_RESP_ERR__SSL ||
	       err == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED;
}

/* Error callback of the producer: kept for the health line, and for the start on a real cluster. */
static void
producer_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	demo *d = opaque;
	(void)rk;
	log_msg(KG_LOG_INFO, "demo: producer: %s: %s", rd_kafka_err2name((rd_kafka_resp_err_t)err), reason);
	pthread_mutex_lock(&d->lock);
	snprintf(d->prod_error, sizeof d->prod_error, "producer: %s", reason);
	d->prod_error_at = util_now_us();
	/* keep the specific cause (cannot resolve, authentication, TLS) over "all brokers down" */
	if (!(err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && cluster_unreachable(d->prod_err_code))) {
		/* "all brokers down" after a failed connection: the connection's error says why */
		if (!(err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && d->prod_err_code == RD_KAFKA_RESP_ERR__TRANSPORT))
			snprintf(d->prod_err_reason, sizeof d->prod_err_reason, "%s", reason ? reason : "");
		d->prod_err_code = err;
	}
	pthread_mutex_unlock(&d->lock);
}

/* ------------------------------------------------------------ scenarios */

/* Print the scenarios. */
void
demo_list_scenarios(void)
{
	int i;
	for (i = 0; i < demo_scenario_count(); i++) {
		const demo_scenario *sc = demo_scenario_at(i);
		printf("%-11s %s%s\n", sc->name, sc->help, sc->real_only ? " (real cluster only: -b BROKERS)" : "");
	}
}

/* Known and runnable there. */
bool
demo_scenario_known(const char *name, bool real_cluster)
{
	return demo_scenario_why_not(name, real_cluster) == NULL;
}

/* Why not. */
const char *
demo_scenario_why_not(const char *name, bool real_cluster)
{
	return demo_scenario_unavailable(demo_scenario_find(name), real_cluster);
}

/* Has a script to pause. */
bool
demo_scenario_scripted(const char *name)
{
	const demo_scenario *sc = demo_scenario_find(name);
	return sc != NULL && sc->nsteps > 0;
}

/* --------------------------------------------------------------- groups */

/* True when c can be asked to act (leave, crash, stall) (locked). */
static bool
can_act(const dcons *c)
{
	/* ever_assigned: see sticky_safe() in demo_consumer.c */
	return !c->thread_done && c->phase == DC_RUNNING && c->listed && c->ever_assigned && !c->req_leave &&
	       !c->req_crash && !c->restart;
}

/* The member which (oldest first, or DEMO_NEWEST) among those that can act (locked). */
static dcons *
pick_member(dgroup *g, int which)
{
	dcons *v[MAX_CONSUMERS];
	size_t i;
	int n = 0;
	for (i = 0; i < g->nc && n < MAX_CONSUMERS; i++) {
		if (can_act(g->c[i]))
			v[n++] = g->c[i];
	}
	if (n == 0)
		return NULL;
	if (which < 0 || which >= n)
		return v[n - 1];
	return v[which];
}

/* Consumers that are, or will be, members (locked). */
static int
live_count(const dgroup *g)
{
	size_t i;
	int n = 0;
	for (i = 0; i < g->nc; i++) {
		const dcons *c = g->c[i];
		if (!c->thread_done && !c->req_leave && !c->req_crash && c->phase != DC_LEAVING)
			n++;
	}
	return n;
}

/* Consumers not yet freed, in every group (locked). */
static int
total_count(const demo *d)
{
	int i, n = 0;
	for (i = 0; i < d->ngroups; i++)
		n += (int)d->groups[i].nc;
	return n;
}

/*
 * Settled: nobody rejoining, syncing, leaving or awaiting eviction, every
 * running member listed and synced, every partition owned, and no
 * rebalance activity for a moment (locked).
 */
static bool
group_settled(const demo *d, const dgroup *g, int64_t now)
{
	kg_tp *cover = NULL;
	int ncover = 0, listed = 0;
	size_t i;
	bool ok = true;
	for (i = 0; i < g->nc && ok; i++) {
		const dcons *c = g->c[i];
		if (c->evict_pending)
			ok = false;
		else if (c->thread_done)
			continue;
		else if (c->join_out || c->sync_out || c->req_leave || c->req_crash || c->phase == DC_LEAVING)
			ok = false;
		else if (c->phase == DC_STALLED && c->kicked)
			continue;
		else if (!c->listed || !c->synced)
			ok = false;
		else {
			listed++;
			if (c->nasg > 0) {
				cover = xreallocarray(cover, (size_t)(ncover + c->nasg), sizeof *cover);
				memcpy(cover + ncover, c->asg, (size_t)c->nasg * sizeof *cover);
				ncover = tp_sort_unique(cover, ncover + c->nasg);
			}
		}
	}
	if (ok && listed > 0 && ncover < d->npart)
		ok = false;
	if (ok && now - g->last_activity < SETTLE_QUIET_US)
		ok = false;
	free(cover);
	return ok;
}

/* Find a group by the name typed ("" is the first). */
static dgroup *
find_group(demo *d, const char *typed)
{
	int i;
	if (typed == NULL || *typed == '\0')
		return d->ngroups > 0 ? &d->groups[0] : NULL;
	for (i = 0; i < d->ngroups; i++) {
		if (demo_group_matches(d->groups[i].name, typed))
			return &d->groups[i];
	}
	return NULL;
}

/* On the mock, a member whose assignor differs from those in the group aborts the process (locked). */
static bool
assignor_clash(const dgroup *g, const char *assignor)
{
	size_t i;
	for (i = 0; i < g->nc; i++) {
		const dcons *c = g->c[i];
		if ((!c->thread_done || c->evict_pending || c->listed) && strcmp(c->assignor, assignor) != 0)
			return true;
	}
	return false;
}

/* Start a member in g (collector thread); NULL with err. */
static dcons *
add_member(demo *d, dgroup *g, const char *assignor, char *err, size_t errsz)
{
	int idx, total, n;
	pthread_mutex_lock(&d->lock);
	idx = dgroup_free_idx(g);
	total = total_count(d);
	n = (int)g->nc;
	if (!d->real && assignor_clash(g, assignor)) {
		pthread_mutex_unlock(&d->lock);
		util_err(err, errsz,
			 "refused: %s uses another assignor, and the mock cluster aborts when a group mixes them "
			 "(empty the group first, or run the demo on a real cluster with -b)",
			 g->name);
		return NULL;
	}
	pthread_mutex_unlock(&d->lock);
	if (n >= MAX_PER_GROUP || total >= MAX_CONSUMERS) {
		util_err(err, errsz, "enough members (%d per group, %d in all)", MAX_PER_GROUP, MAX_CONSUMERS);
		return NULL;
	}
	return dcons_start(d, g, idx, assignor, err, errsz);
}

/* ------------------------------------------------------- script's world */

/* Start a script step on group gi. */
static int
world_act(void *arg, int gi, const demo_step *st, char *err, size_t errsz)
{
	demo *d = arg;
	dgroup *g = &d->groups[gi];
	dcons *t = NULL;
	g->target = NULL;
	g->target_failed = false;
	switch (st->action) {
	case DEMO_ACT_ADD:
		t = add_member(d, g, g->assignor, err, errsz);
		break;
	case DEMO_ACT_REFILL: {
		int missing;
		pthread_mutex_lock(&d->lock);
		missing = g->start_members - live_count(g);
		pthread_mutex_unlock(&d->lock);
		while (missing-- > 0) {
			t = add_member(d, g, g->assignor, err, errsz);
			if (t == NULL)
				break;
		}
		if (t == NULL && err[0] != '\0')
			break;
		g->target = NULL; /* the wait is on the whole group */
		return 0;
	}
	case DEMO_ACT_LEAVE:
	case DEMO_ACT_CRASH:
	case DEMO_ACT_STALL:
	case DEMO_ACT_RESTART:
		pthread_mutex_lock(&d->lock);
		t = pick_member(g, st->which);
		if (t != NULL) {
			if (st->action == DEMO_ACT_LEAVE) {
				t->req_leave = true;
			} else if (st->action == DEMO_ACT_CRASH) {
				t->req_crash = true;
			} else if (st->action == DEMO_ACT_RESTART) {
				t->restart = true;
				t->req_leave = true;
			} else {
				t->phase = DC_STALLED;
				t->stall_start = 0;
				t->kicked = false;
				t->settled_seen = 0;
				t->quick_return = st->quick_return;
			}
			pthread_cond_broadcast(&d->cond);
		}
		pthread_mutex_unlock(&d->lock);
		if (t == NULL)
			util_err(err, errsz, "no member can act");
		else
			log_msg(KG_LOG_INFO, "demo: %s/%s: the script asks it to %s", g->name, t->client_id,
				st->action == DEMO_ACT_LEAVE	? "leave"
				: st->action == DEMO_ACT_CRASH	? "crash"
				: st->action == DEMO_ACT_RESTART ? "restart"
								 : "stall");
		break;
	default:
		return 0;
	}
	g->target = t;
	g->target_failed = t == NULL;
	return t != NULL ? 0 : -1;
}

/* Has group gi settled after step st? */
static bool
world_settled(void *arg, int gi, const demo_step *st, int64_t now_unused)
{
	demo *d = arg;
	dgroup *g = &d->groups[gi];
	dcons *t = g->target;
	bool ok = true;
	int64_t now = util_now_us();
	(void)now_unused;
	pthread_mutex_lock(&d->lock);
	if (t != NULL) {
		switch (st->action) {
		case DEMO_ACT_ADD:
		case DEMO_ACT_RESTART:
			ok = t->listed || t->thread_done;
			break;
		case DEMO_ACT_LEAVE:
			ok = t->thread_done;
			break;
		case DEMO_ACT_CRASH:
			ok = t->thread_done && !t->evict_pending;
			break;
		case DEMO_ACT_STALL:
			ok = t->thread_done || (t->phase == DC_RUNNING && t->listed);
			break;
		default:
			break;
		}
	}
	if (ok)
		ok = group_settled(d, g, now);
	pthread_mutex_unlock(&d->lock);
	return ok;
}

/* ------------------------------------------------------------- producer */

/* The producer thread: a steady rate over every partition. */
static void *
producer_main(void *arg)
{
	demo *d = arg;
	double credit = 0;
	int64_t last = util_mono_us(), seq = 0;
	int part = 0;
	pthread_mutex_lock(&d->lock);
	while (!d->prod_stop) {
		int64_t now, sent = 0;
		pthread_mutex_unlock(&d->lock);
		now = util_mono_us();
		credit += (double)(now - last) * d->rate / 1e6;
		if (credit > d->rate)
			credit = d->rate;
		last = now;
		while (credit >= 1.0) {
			char buf[64];
			int len = snprintf(buf, sizeof buf, "kgtop demo message %lld", (long long)seq);
			rd_kafka_resp_err_t e = rd_kafka_producev(
				d->producer, RD_KAFKA_V_TOPIC(d->topic), RD_KAFKA_V_PARTITION(part),
				RD_KAFKA_V_VALUE(buf, (size_t)len), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
			if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
				pthread_mutex_lock(&d->lock);
				snprintf(d->prod_error, sizeof d->prod_error, "producer: %s", rd_kafka_err2str(e));
				d->prod_error_at = util_now_us();
				pthread_mutex_unlock(&d->lock);
				credit = 0;
				break;
			}
			seq++;
			sent++;
			part = (part + 1) % d->npart;
			credit -= 1.0;
		}
		rd_kafka_poll(d->producer, 0);
		pthread_mutex_lock(&d->lock);
		d->produced += sent;
		if (!d->prod_stop)
			demo_timed_wait(d, 100000);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/* Create the producer (it also serves metadata and admin requests on a real cluster). */
static int
producer_new(demo *d, char *err, size_t errsz)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char e[512];
	size_t i;
	for (i = 0; i < d->nprops; i++) {
		if (rd_kafka_conf_set(conf, d->props[i].key, d->props[i].value, e, sizeof e) != RD_KAFKA_CONF_OK) {
			rd_kafka_conf_destroy(conf);
			return util_err(err, errsz, "%s: %s", d->props[i].key, e);
		}
	}
	if (rd_kafka_conf_set(conf, "bootstrap.servers", d->bootstrap, e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "client.id", "kgtop-demo-producer", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "linger.ms", "5", e, sizeof e) != RD_KAFKA_CONF_OK) {
		rd_kafka_conf_destroy(conf);
		return util_err(err, errsz, "producer: %s", e);
	}
	rd_kafka_conf_set_log_cb(conf, quiet_log);
	rd_kafka_conf_set_error_cb(conf, producer_error);
	rd_kafka_conf_set_opaque(conf, d);
	d->producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, e, sizeof e);
	if (d->producer == NULL) {
		rd_kafka_conf_destroy(conf);
		return util_err(err, errsz, "producer: %s", e);
	}
	return 0;
}

/* ------------------------------------------------------------- clusters */

/* Start the mock cluster and create the topic. */
static int
mock_start(demo *d, char *err, size_t errsz)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_mock_cluster_t *mc;
	rd_kafka_resp_err_t e;
	char es[512];
	rd_kafka_conf_set_log_cb(conf, quiet_log);
	d->mock_owner = rd_kafka_new(RD_KAFKA_PRODUCER, conf, es, sizeof es);
	if (d->mock_owner == NULL) {
		rd_kafka_conf_destroy(conf);
		return util_err(err, errsz, "mock cluster: %s", es);
	}
	mc = rd_kafka_mock_cluster_new(d->mock_owner, MOCK_BROKERS);
	if (mc == NULL)
		return util_err(err, errsz, "cannot start librdkafka's mock cluster");
	d->mock = mc;
	e = rd_kafka_mock_topic_create(mc, d->topic, d->npart, MOCK_BROKERS);
	if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
		return util_err(err, errsz, "mock cluster: topic %s: %s", d->topic, rd_kafka_err2str(e));
	d->bootstrap = xstrdup(rd_kafka_mock_cluster_bootstraps(mc));
	return 0;
}

/* Wait for one admin result event of type want on q, at most ms. */
static rd_kafka_event_t *
admin_wait(rd_kafka_queue_t *q, rd_kafka_event_type_t want, int ms)
{
	int64_t end = util_mono_us() + (int64_t)ms * 1000;
	while (util_mono_us() < end) {
		rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 100);
		if (ev == NULL)
			continue;
		if (rd_kafka_event_type(ev) == want)
			return ev;
		rd_kafka_event_destroy(ev);
	}
	return NULL;
}

/* Milliseconds left before the setup deadline (at least 1, at most a day). */
static int
setup_left_ms(const demo *d)
{
	int64_t left = (d->setup_deadline - util_mono_us()) / 1000;
	return left < 1 ? 1 : left > 86400000 ? 86400000 : (int)left;
}

/* A readable word for what the error callback said, NULL for others. */
static const char *
cluster_reason(int err)
{
	switch (err) {
	case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
		return "all brokers down";
	case RD_KAFKA_RESP_ERR__RESOLVE:
		return "cannot resolve the bootstrap servers";
	case RD_KAFKA_RESP_ERR__SSL:
		return "TLS handshake failed";
	case RD_KAFKA_RESP_ERR__AUTHENTICATION:
	case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
		return "authentication failed";
	default:
		return NULL;
	}
}

/*
 * The cluster's metadata, asked in slices until the setup deadline: between
 * slices the producer's error callback runs, and a cause waiting will not
 * cure (no broker reachable, cannot resolve, TLS, authentication) fails at
 * once instead of after the whole timeout.  Slices double from 250 ms, so
 * that a slow link (a TLS handshake, a long round trip) still gets a whole
 * answer.
 */
static int
real_metadata(demo *d, const struct rd_kafka_metadata **md, char *err, size_t errsz)
{
	int slice = 250;
	for (;;) {
		int ms = setup_left_ms(d), code;
		char reason[200];
		rd_kafka_resp_err_t e = rd_kafka_metadata(d->producer, 1, NULL, md, ms < slice ? ms : slice);
		if (slice < 4000)
			slice *= 2;
		if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
			return 0;
		*md = NULL;
		rd_kafka_poll(d->producer, 0); /* serve the error callback */
		pthread_mutex_lock(&d->lock);
		code = d->prod_err_code;
		util_strlcpy(reason, d->prod_err_reason, sizeof reason);
		pthread_mutex_unlock(&d->lock);
		if (cluster_unreachable(code))
			return util_err(err, errsz, "%s: metadata: %s (%s)", d->bootstrap, cluster_reason(code), reason);
		if (util_mono_us() >= d->setup_deadline) {
			if (code != 0 && reason[0] != '\0')
				return util_err(err, errsz, "%s: metadata: %s (no answer within %.1fs; last error: %s)",
						d->bootstrap, rd_kafka_err2str(e), (double)d->setup_timeout_us / 1e6, reason);
			return util_err(err, errsz, "%s: metadata: %s (no answer within %.1fs)", d->bootstrap,
					rd_kafka_err2str(e), (double)d->setup_timeout_us / 1e6);
		}
	}
}

/* On a real cluster: find the topic (its partitions) or create it. */
static int
real_topic(demo *d, char *err, size_t errsz)
{
	const struct rd_kafka_metadata *md = NULL;
	int i, brokers, rf;
	bool found = false;
	rd_kafka_NewTopic_t *nt;
	rd_kafka_AdminOptions_t *opt;
	rd_kafka_queue_t *q;
	rd_kafka_event_t *ev;
	char es[512];

	if (real_metadata(d, &md, err, errsz) < 0)
		return -1;
	brokers = md->broker_cnt;
	for (i = 0; i < md->topic_cnt; i++) {
		if (strcmp(md->topics[i].topic, d->topic) == 0 && md->topics[i].partition_cnt > 0) {
			d->npart = md->topics[i].partition_cnt;
			found = true;
		}
	}
	rd_kafka_metadata_destroy(md);
	if (found)
		return 0;
	rf = brokers >= 3 ? 3 : brokers > 0 ? brokers : 1;
	nt = rd_kafka_NewTopic_new(d->topic, d->npart, rf, es, sizeof es);
	if (nt == NULL)
		return util_err(err, errsz, "topic %s: %s", d->topic, es);
	opt = rd_kafka_AdminOptions_new(d->producer, RD_KAFKA_ADMIN_OP_CREATETOPICS);
	rd_kafka_AdminOptions_set_request_timeout(opt, setup_left_ms(d), es, sizeof es);
	q = rd_kafka_queue_new(d->producer);
	rd_kafka_CreateTopics(d->producer, &nt, 1, opt, q);
	ev = admin_wait(q, RD_KAFKA_EVENT_CREATETOPICS_RESULT, setup_left_ms(d) + 1000);
	if (ev == NULL) {
		util_err(err, errsz, "topic %s: no answer to CreateTopics within %.1fs", d->topic,
			 (double)d->setup_timeout_us / 1e6);
	} else if (rd_kafka_event_error(ev) != RD_KAFKA_RESP_ERR_NO_ERROR) {
		util_err(err, errsz, "topic %s: %s", d->topic, rd_kafka_event_error_string(ev));
	} else {
		size_t n = 0;
		const rd_kafka_topic_result_t **tr =
			rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev), &n);
		if (n > 0 && rd_kafka_topic_result_error(tr[0]) != RD_KAFKA_RESP_ERR_NO_ERROR &&
		    rd_kafka_topic_result_error(tr[0]) != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
			util_err(err, errsz, "topic %s: %s", d->topic, rd_kafka_topic_result_error_string(tr[0]));
		else
			found = true;
	}
	if (ev != NULL)
		rd_kafka_event_destroy(ev);
	rd_kafka_queue_destroy(q);
	rd_kafka_AdminOptions_destroy(opt);
	rd_kafka_NewTopic_destroy(nt);
	return found ? 0 : -1;
}

/* On a real cluster, at exit: delete the demo's own groups (bounded). */
static void
real_delete_groups(demo *d)
{
	rd_kafka_DeleteGroup_t *dg[DEMO_MAX_GROUPS];
	rd_kafka_AdminOptions_t *opt;
	rd_kafka_queue_t *q;
	rd_kafka_event_t *ev;
	char es[256];
	int i;
	for (i = 0; i < d->ngroups; i++)
		dg[i] = rd_kafka_DeleteGroup_new(d->groups[i].name);
	opt = rd_kafka_AdminOptions_new(d->producer, RD_KAFKA_ADMIN_OP_DELETEGROUPS);
	rd_kafka_AdminOptions_set_request_timeout(opt, 4000, es, sizeof es);
	q = rd_kafka_queue_new(d->producer);
	rd_kafka_DeleteGroups(d->producer, dg, (size_t)d->ngroups, opt, q);
	ev = admin_wait(q, RD_KAFKA_EVENT_DELETEGROUPS_RESULT, 5000);
	if (ev != NULL)
		rd_kafka_event_destroy(ev);
	rd_kafka_queue_destroy(q);
	rd_kafka_AdminOptions_destroy(opt);
	rd_kafka_DeleteGroup_destroy_array(dg, (size_t)d->ngroups);
}

/* ----------------------------------------------------------------- view */

/* The view group of an interned group id, NULL when not ours. */
static vgroup *
view_of(demo *d, int32_t gid)
{
	int i;
	for (i = 0; i < d->ngroups; i++) {
		if (d->groups[i].gid == gid)
			return &d->view[i];
	}
	return NULL;
}

/* Index of a member in a view group, -1 when absent. */
static int
view_find(const vgroup *vg, const char *id)
{
	int i;
	for (i = 0; id != NULL && i < vg->nm; i++) {
		if (strcmp(vg->m[i].id, id) == 0)
			return i;
	}
	return -1;
}

/* Free a view member's memory. */
static void
vmember_clear(vmember *m)
{
	free(m->id);
	free(m->client_id);
	free(m->instance_id);
	free(m->asg);
}

/* Fold one observation into the published view. */
static void
view_apply(demo *d, const kg_obs *o)
{
	vgroup *vg = view_of(d, o->group);
	int i;
	vmember *m;
	if (vg == NULL || o->member_id == NULL)
		return;
	i = view_find(vg, o->member_id);
	switch (o->kind) {
	case KG_OBS_JOINED:
		if (i >= 0)
			break;
		if (o->instance_id != NULL) {
			/* a static instance back under a new member id replaces its predecessor */
			int k;
			for (k = 0; k < vg->nm; k++) {
				if (vg->m[k].instance_id != NULL && strcmp(vg->m[k].instance_id, o->instance_id) == 0) {
					vmember_clear(&vg->m[k]);
					memmove(&vg->m[k], &vg->m[k + 1], (size_t)(vg->nm - k - 1) * sizeof *vg->m);
					vg->nm--;
					break;
				}
			}
		}
		vg->m = xreallocarray(vg->m, (size_t)vg->nm + 1, sizeof *vg->m);
		m = &vg->m[vg->nm++];
		memset(m, 0, sizeof *m);
		m->id = xstrdup(o->member_id);
		m->client_id = xstrdup(o->client_id);
		m->instance_id = xstrdup(o->instance_id);
		break;
	case KG_OBS_LEFT:
		if (i < 0 || (o->reason == KG_REASON_NONE && o->instance_id != NULL))
			break; /* a static member that closed stays a member until its session ends */
		vmember_clear(&vg->m[i]);
		memmove(&vg->m[i], &vg->m[i + 1], (size_t)(vg->nm - i - 1) * sizeof *vg->m);
		vg->nm--;
		break;
	case KG_OBS_ASSIGNED:
		if (o->proto != KG_PROTO_UNKNOWN)
			vg->proto = o->proto;
		if (i < 0)
			break;
		m = &vg->m[i];
		if (o->proto == KG_PROTO_COOPERATIVE && m->nasg > 0) {
			kg_tp *v = xmalloc((size_t)(m->nasg + o->nparts) * sizeof *v);
			memcpy(v, m->asg, (size_t)m->nasg * sizeof *v);
			if (o->nparts > 0)
				memcpy(v + m->nasg, o->parts, (size_t)o->nparts * sizeof *v);
			free(m->asg);
			m->asg = v;
			m->nasg = tp_sort_unique(v, m->nasg + o->nparts);
		} else {
			free(m->asg);
			m->asg = tp_dup(o->parts, o->nparts);
			m->nasg = m->asg ? o->nparts : 0;
		}
		break;
	case KG_OBS_REVOKED:
	case KG_OBS_LOST:
		if (o->proto != KG_PROTO_UNKNOWN)
			vg->proto = o->proto;
		if (i < 0 || vg->m[i].nasg == 0)
			break;
		m = &vg->m[i];
		if (o->nparts > 0) {
			kg_tp *v = xmalloc((size_t)m->nasg * sizeof *v);
			int k = tp_diff(m->asg, m->nasg, o->parts, o->nparts, v);
			free(m->asg);
			m->asg = k > 0 ? v : NULL;
			m->nasg = k;
			if (k == 0)
				free(v);
		}
		break;
	default:
		break;
	}
}

/* The assignors of a group's members, "range" or "range/cooperative-sticky" (locked). */
static void
group_assignors(const dgroup *g, char *buf, size_t n)
{
	size_t i, k;
	util_strlcpy(buf, g->assignor, n);
	for (i = 0; i < g->nc; i++) {
		const dcons *c = g->c[i];
		bool seen = strcmp(c->assignor, g->assignor) == 0;
		for (k = 0; k < i && !seen; k++)
			seen = strcmp(g->c[k]->assignor, c->assignor) == 0;
		if (!seen && !c->thread_done && strlen(buf) + strlen(c->assignor) + 2 < n) {
			strcat(buf, "/");
			strcat(buf, c->assignor);
		}
	}
}

/* ------------------------------------------------------------ the source */

/* Resume stalled consumers whose story is told; free finished ones; evict the silent. */
static void
housekeeping(demo *d)
{
	dcons *done[MAX_CONSUMERS * 2];
	dcons *restart[MAX_CONSUMERS];
	int ndone = 0, nrestart = 0, gi, k;
	int64_t now;
	char err[200];

	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		size_t i = 0;
		dgroup_evict_check(g, NULL, now);
		while (i < g->nc) {
			dcons *c = g->c[i];
			if (c->phase == DC_STALLED && !c->req_resume) {
				int64_t limit = c->stall_start + (int64_t)d->max_poll_ms * 1000 + STALL_CAP_US;
				bool resume = c->stall_start > 0 && now >= limit;
				if (c->kicked && c->quick_return) {
					resume = resume || now >= c->kicked_at + QUICK_RETURN_US;
				} else if (c->kicked) {
					if (!group_settled(d, g, now))
						c->settled_seen = 0;
					else if (c->settled_seen == 0)
						c->settled_seen = now;
					resume = resume || (c->settled_seen > 0 && now >= c->settled_seen + RESUME_AFTER_SETTLE_US);
				}
				if (resume) {
					c->req_resume = true;
					pthread_cond_broadcast(&d->cond);
				}
			}
			if (c->thread_done && !c->evict_pending && !c->listed && !c->leaked &&
			    ndone < (int)KG_ARRAY_LEN(done)) {
				done[ndone++] = c;
				if (c->restart && !d->stopping && nrestart < MAX_CONSUMERS)
					restart[nrestart++] = c;
				memmove(&g->c[i], &g->c[i + 1], (g->nc - i - 1) * sizeof *g->c);
				g->nc--;
				continue;
			}
			i++;
		}
	}
	pthread_mutex_unlock(&d->lock);

	for (k = 0; k < nrestart; k++) {
		dcons *old = restart[k], *c;
		dgroup *g = old->g;
		err[0] = '\0';
		c = dcons_start(d, g, old->idx, old->assignor, err, sizeof err);
		if (c == NULL) {
			snprintf(d->error, sizeof d->error, "restart %s: %s", old->client_id, err);
			if (old->instance_id[0] && old->last_id != NULL) {
				/* the static instance will not come back: it goes when its session ends */
				kg_obs *o = obs_new(KG_OBS_LEFT, util_now_us(), g->gid, DEMO_SOURCE_NAME);
				obs_member(o, old->last_id, old->client_id, NULL, NULL);
				o->reason = KG_REASON_SESSION_TIMEOUT;
				obs_text(o, "static member could not restart");
				pthread_mutex_lock(&d->lock);
				demo_push(d, o);
				pthread_mutex_unlock(&d->lock);
			}
		} else if (g->static_members) {
			pthread_mutex_lock(&d->lock);
			c->static_return = true;
			pthread_mutex_unlock(&d->lock);
		}
		if (g->target == old)
			g->target = c;
	}
	for (k = 0; k < ndone; k++) {
		dcons *c = done[k];
		for (gi = 0; gi < d->ngroups; gi++) {
			if (d->groups[gi].target == c)
				d->groups[gi].target = NULL;
		}
		if (c->thread_started)
			pthread_join(c->thread, NULL);
		dcons_free(c);
	}
}

/* Log what the script did in one run: steps begun and settled, waits that gave up, errors. */
static void
script_log(demo *d, int step, demo_phase phase, int loops, int timeouts, int64_t now)
{
	const demo_script *s = &d->script;
	const demo_scenario *sc = s->sc;
	if (!demo_script_has_steps(s) || (s->step == step && s->phase == phase && s->loops == loops))
		return;
	if (s->timeouts > timeouts)
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d: the groups did not settle within %.0fs; going on", sc->name,
			step + 1, sc->nsteps, (double)s->wait_limit_us / 1e6);
	else if (phase == DEMO_PH_WAIT && s->phase != DEMO_PH_WAIT && d->step_began > 0)
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d settled after %.1fs", sc->name, step + 1, sc->nsteps,
			(double)(now - d->step_began) / 1e6);
	if (s->loops > loops)
		log_msg(KG_LOG_INFO, "demo: %s: the script starts again (loop %d)", sc->name, s->loops);
	if ((s->step != step || s->loops != loops || d->step_began == 0) && s->step < sc->nsteps) {
		d->step_began = now;
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d: %s", sc->name, s->step + 1, sc->nsteps,
			sc->steps[s->step].label);
	} else if (s->step >= sc->nsteps) {
		log_msg(KG_LOG_INFO, "demo: %s: the script is finished", sc->name);
	}
	if (s->error[0] != '\0')
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d: %s", sc->name, s->step + 1, sc->nsteps, s->error);
}

/* poll(): start the fleets, register groups, run the script, keep house. */
static int
demo_poll(kg_source *s, int64_t now_unused)
{
	demo *d = s->impl;
	int flags = 0, gi;
	int64_t now = util_now_us(), next;
	demo_world w = { world_act, world_settled, d };
	(void)now_unused;

	if (!d->members_started) {
		d->members_started = true;
		for (gi = 0; gi < d->ngroups; gi++) {
			dgroup *g = &d->groups[gi];
			int k;
			for (k = 0; k < g->start_members; k++) {
				char err[200] = "";
				if (add_member(d, g, g->assignor, err, sizeof err) == NULL) {
					snprintf(d->error, sizeof d->error, "%s: %s", g->name, err);
					break;
				}
			}
		}
	}
	for (gi = 0; gi < d->ngroups && d->kafka != NULL; gi++) {
		if (!d->groups[gi].watched) {
			kafka_source_watch(d->kafka, d->groups[gi].name, d->topic);
			d->groups[gi].watched = true;
		}
	}
	housekeeping(d);
	{
		int step = d->script.step, loops = d->script.loops, timeouts = d->script.timeouts;
		demo_phase phase = d->script.phase;
		next = demo_script_run(&d->script, &w, now);
		script_log(d, step, phase, loops, timeouts, now);
	}
	if (!d->complete) {
		bool all = true;
		pthread_mutex_lock(&d->lock);
		for (gi = 0; gi < d->ngroups; gi++)
			all = all && group_settled(d, &d->groups[gi], now);
		pthread_mutex_unlock(&d->lock);
		d->complete = all;
	}
	pthread_mutex_lock(&d->lock);
	if (d->news || d->q.n > 0)
		flags |= KG_SRC_NEWS;
	d->news = false;
	pthread_mutex_unlock(&d->lock);
	if (d->complete)
		flags |= KG_SRC_COMPLETE;
	d->next_poll_us = now + 500000;
	if (next > 0 && next < d->next_poll_us)
		d->next_poll_us = next;
	return flags;
}

/* next_poll(). */
static int64_t
demo_next_poll(kg_source *s)
{
	demo *d = s->impl;
	return d->next_poll_us;
}

/* Write one observation to --export-trace (kgtop-trace(5): a second kgtop can follow it). */
static void
demo_export(demo *d, const kg_obs *o)
{
	if (d->export_f == NULL || d->export_failed)
		return;
	if (jsonl_write_obs(d->export_f, o) < 0) {
		d->export_failed = true;
		snprintf(d->export_note, sizeof d->export_note, "--export-trace: %s", strerror(errno));
		log_msg(KG_LOG_WARN, "demo: %s; no more events are written", d->export_note);
	}
}

/* drain(): hand over observations in time order, fold them into the view. */
static void
demo_drain(kg_source *s, kg_obsq *out)
{
	demo *d = s->impl;
	kg_obsq moved = { 0 };
	bool join[DEMO_MAX_GROUPS] = { false }, sync[DEMO_MAX_GROUPS] = { false };
	int64_t now, wm = INT64_MAX;
	size_t i, k;
	int gi;

	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		for (i = 0; i < g->nc; i++) {
			dcons *c = g->c[i];
			if (c->held.n > 0 && now - c->held.v[0]->time_us < HELD_STALE_US && c->held.v[0]->time_us < wm)
				wm = c->held.v[0]->time_us;
			if (!c->thread_done && c->phase != DC_CRASHED && !c->static_return) {
				join[gi] = join[gi] || c->join_out;
				/*
				 * answered JoinGroup, no assignment yet, or assigned but not
				 * yet published (its member id is fetched after the poll):
				 * the group completes its rebalance
				 */
				sync[gi] = sync[gi] || c->sync_out || (c->join_response && (!c->synced || !c->listed));
			}
		}
	}
	obsq_sort(&d->q);
	for (k = 0; k < d->q.n && d->q.v[k]->time_us < wm; k++)
		obsq_push(&moved, d->q.v[k]);
	if (k > 0) {
		memmove(d->q.v, d->q.v + k, (d->q.n - k) * sizeof *d->q.v);
		d->q.n -= k;
	}
	for (gi = 0; gi < d->ngroups; gi++)
		group_assignors(&d->groups[gi], d->view[gi].assignor, sizeof d->view[gi].assignor);
	pthread_mutex_unlock(&d->lock);

	for (i = 0; i < moved.n; i++) {
		view_apply(d, moved.v[i]);
		demo_export(d, moved.v[i]);
		if (out != NULL)
			obsq_push(out, moved.v[i]);
		else
			obs_free(moved.v[i]);
	}
	free(moved.v);
	for (gi = 0; gi < d->ngroups; gi++) {
		vgroup *vg = &d->view[gi];
		vg->state = join[gi]   ? KG_STATE_PREPARING_REBALANCE
			    : sync[gi] ? KG_STATE_COMPLETING_REBALANCE
			    : vg->nm > 0 ? KG_STATE_STABLE
					 : KG_STATE_EMPTY;
	}
}

/* The health line (demo_health_format()). */
static void
health_message(demo *d, char *buf, size_t n)
{
	char script[200], error[200], prod[160], note[160];
	demo_health h;
	int gi;
	size_t i;
	int64_t now = util_now_us();
	memset(&h, 0, sizeof h);
	demo_script_status(&d->script, script, sizeof script);
	pthread_mutex_lock(&d->lock);
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++) {
			const dcons *c = d->groups[gi].c[i];
			h.consumers += !c->thread_done;
			h.mismatches += c->mismatches;
		}
	}
	util_strlcpy(error, d->error, sizeof error);
	util_strlcpy(prod, d->prod_error, sizeof prod);
	util_strlcpy(note, d->export_note, sizeof note);
	h.prod_error_age_us = d->prod_error_at > 0 ? now - d->prod_error_at : -1;
	pthread_mutex_unlock(&d->lock);
	h.scenario = d->sc->name;
	h.script = script;
	h.rate = d->rate;
	h.real = d->real;
	h.error = error;
	h.prod_error = prod;
	h.export_note = note;
	demo_health_format(buf, n, &h);
}

/* contribute(): the view, the topic and the demo's health. */
static void
demo_contribute(kg_source *s, kg_builder *b)
{
	demo *d = s->impl;
	kg_source_health h;
	char msg[512];
	int gi, k;
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		vgroup *vg = &d->view[gi];
		kg_bgroup *bg = builder_group(b, g->gid);
		kg_proto proto = vg->proto != KG_PROTO_UNKNOWN ? vg->proto : demo_assignor_proto(g->assignor);
		bgroup_exact(bg, true);
		bgroup_proto(bg, proto);
		bgroup_protocol(bg, "consumer", vg->assignor);
		bgroup_state(bg, vg->state);
		bgroup_topic(bg, d->topic_id);
		for (k = 0; k < vg->nm; k++) {
			const vmember *m = &vg->m[k];
			kg_bmember *bm = bgroup_member(bg, m->id);
			bmember_ids(bm, m->client_id, d->real ? NULL : "/127.0.0.1", m->instance_id);
			bmember_assignment(bm, m->asg, m->nasg);
			bmember_flags(bm, KG_MEMBER_EXACT | (m->instance_id != NULL ? KG_MEMBER_STATIC : 0));
		}
	}
	builder_topic(b, d->topic_id, d->npart);
	health_message(d, msg, sizeof msg);
	memset(&h, 0, sizeof h);
	h.name = DEMO_SOURCE_NAME;
	h.status = KG_SRC_OK;
	h.since_us = d->started_us;
	h.last_ok_us = builder_time(b);
	h.message = msg;
	builder_source(b, &h);
}

static int demo_command_run(kg_source *s, const char *line, char *err, size_t errsz);

/* command(): the UI's demo controls, logged with their reply. */
static int
demo_command(kg_source *s, const char *line, char *err, size_t errsz)
{
	int rc = demo_command_run(s, line, err, errsz);
	if (line == NULL || strcmp(line, "refresh") != 0)
		log_msg(KG_LOG_INFO, "demo: command \"%s\": %s%s", line ? line : "", rc < 0 ? "refused: " : "",
			err != NULL && errsz > 0 && err[0] ? err : "done");
	return rc;
}

/* Carry out one command. */
static int
demo_command_run(kg_source *s, const char *line, char *err, size_t errsz)
{
	demo *d = s->impl;
	demo_cmd cmd;
	dgroup *g;
	dcons *c;
	const char *assignor;
	int64_t now = util_now_us();
	if (err != NULL && errsz > 0)
		err[0] = '\0';
	if (demo_cmd_parse(line, &cmd, err, errsz) < 0)
		return -1;
	switch (cmd.kind) {
	case DEMO_CMD_REFRESH:
		return 0;
	case DEMO_CMD_PAUSE:
	case DEMO_CMD_RESUME:
		if (!demo_script_has_steps(&d->script))
			return util_err(err, errsz, "scenario %s has no script", d->sc->name);
		demo_script_pause(&d->script, cmd.kind == DEMO_CMD_PAUSE, now);
		snprintf(err, errsz, "script %s", cmd.kind == DEMO_CMD_PAUSE ? "paused" : "resumed");
		demo_wake(d);
		return 0;
	case DEMO_CMD_ASSIGNOR:
		util_strlcpy(d->next_assignor, cmd.arg, sizeof d->next_assignor);
		snprintf(err, errsz, "members added next use %s", cmd.arg[0] ? cmd.arg : "their group's assignor");
		return 0;
	default:
		break;
	}
	g = find_group(d, cmd.arg);
	if (g == NULL)
		return util_err(err, errsz, "no demo group \"%s\"", cmd.arg);
	if (cmd.kind == DEMO_CMD_ADD) {
		char e[240] = "";
		assignor = d->next_assignor[0] ? d->next_assignor : g->assignor;
		c = add_member(d, g, assignor, e, sizeof e);
		if (c == NULL)
			return util_err(err, errsz, "%s", e);
		snprintf(err, errsz, "added %s to %s%s%s", c->client_id, g->name,
			 strcmp(assignor, g->assignor) != 0 ? " with " : "",
			 strcmp(assignor, g->assignor) != 0 ? assignor : "");
		demo_wake(d);
		return 0;
	}
	pthread_mutex_lock(&d->lock);
	c = pick_member(g, DEMO_NEWEST);
	if (c != NULL) {
		if (cmd.kind == DEMO_CMD_LEAVE) {
			c->req_leave = true;
		} else if (cmd.kind == DEMO_CMD_CRASH) {
			c->req_crash = true;
		} else {
			c->phase = DC_STALLED;
			c->stall_start = 0;
			c->kicked = false;
			c->settled_seen = 0;
			c->quick_return = false;
		}
		pthread_cond_broadcast(&d->cond);
	}
	pthread_mutex_unlock(&d->lock);
	if (c == NULL)
		return util_err(err, errsz, "no member of %s can %s now", g->name,
				cmd.kind == DEMO_CMD_LEAVE ? "leave" : cmd.kind == DEMO_CMD_CRASH ? "crash" : "stall");
	if (cmd.kind == DEMO_CMD_LEAVE)
		snprintf(err, errsz, "%s leaves %s (LeaveGroup)", c->client_id, g->name);
	else if (cmd.kind == DEMO_CMD_CRASH)
		snprintf(err, errsz, "%s crashed in %s: no more heartbeats, dropped after session.timeout.ms (%d ms)",
			 c->client_id, g->name, d->session_ms);
	else
		snprintf(err, errsz, "%s stalls in %s: no poll for max.poll.interval.ms (%d ms), kicked out, then back",
			 c->client_id, g->name, d->max_poll_ms);
	demo_wake(d);
	return 0;
}

static const kg_source_ops demo_ops = {
	.kind = "demo",
	.role = KG_ROLE_DEMO,
	.poll = demo_poll,
	.drain = demo_drain,
	.contribute = demo_contribute,
	.next_poll = demo_next_poll,
	.fds = NULL,
	.command = demo_command,
	.clock = NULL,
	.close = demo_close,
};

/* Free what the demo owns (threads already stopped). */
static void
demo_free(demo *d)
{
	int gi, k;
	size_t i;
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++)
			dcons_free(d->groups[gi].c[i]);
		free(d->groups[gi].c);
		for (k = 0; k < d->view[gi].nm; k++)
			vmember_clear(&d->view[gi].m[k]);
		free(d->view[gi].m);
	}
	obsq_clear(&d->q);
	free(d->q.v);
	for (i = 0; i < d->nprops; i++) {
		free(d->props[i].key);
		free(d->props[i].value);
	}
	free(d->props);
	free(d->bootstrap);
	if (d->export_f != NULL)
		fclose(d->export_f);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free(d);
}

/*
 * Stop everything, bounded: consumers leave (in parallel, each close under a
 * deadline), the producer stops, the cluster goes.  Typically a few tens of
 * milliseconds; a consumer whose JoinGroup is in flight waits for its answer
 * (up to three seconds on the mock); a consumer stuck in librdkafka past the
 * overall bound is left behind and its memory goes with the process.
 */
static void
demo_close(kg_source *s)
{
	demo *d = s->impl;
	int64_t t0 = util_mono_us();
	int64_t deadline = t0 + (d->real ? CLOSE_WAIT_REAL_US : CLOSE_WAIT_MOCK_US);
	bool stuck = false;
	int gi;
	size_t i;

	atomic_store(&d->quiet, true);
	log_msg(KG_LOG_INFO, "demo: closing: every consumer leaves");
	pthread_mutex_lock(&d->lock);
	d->stopping = true;
	d->prod_stop = true;
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++) {
			dcons *c = d->groups[gi].c[i];
			if (!c->thread_done)
				c->req_leave = true;
		}
	}
	pthread_cond_broadcast(&d->cond);
	for (;;) {
		bool all = true;
		for (gi = 0; gi < d->ngroups; gi++) {
			for (i = 0; i < d->groups[gi].nc; i++)
				all = all && d->groups[gi].c[i]->thread_done;
		}
		if (all || util_mono_us() >= deadline) {
			stuck = !all;
			break;
		}
		demo_timed_wait(d, 50000);
	}
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++)
			stuck = stuck || d->groups[gi].c[i]->leaked; /* its handle lives on and uses the demo */
	}
	pthread_mutex_unlock(&d->lock);

	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++) {
			dcons *c = d->groups[gi].c[i];
			if (!c->thread_started)
				continue;
			if (c->thread_done)
				pthread_join(c->thread, NULL);
			else
				pthread_detach(c->thread); /* stuck in librdkafka: leave it to the process's end */
			c->thread_started = false;
		}
	}
	if (d->prod_started)
		pthread_join(d->prod_thread, NULL);
	if (d->real && d->producer != NULL && !stuck)
		real_delete_groups(d);
	if (d->producer != NULL) {
		rd_kafka_purge(d->producer, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
		rd_kafka_destroy(d->producer);
	}
	if (d->mock != NULL)
		rd_kafka_mock_cluster_destroy(d->mock);
	if (d->mock_owner != NULL)
		rd_kafka_destroy(d->mock_owner);
	if (stuck) {
		log_msg(KG_LOG_INFO, "demo: closed in %.2fs; a consumer stuck in librdkafka is left behind",
			(double)(util_mono_us() - t0) / 1e6);
		return; /* threads still use the demo's memory: it goes with the process */
	}
	log_msg(KG_LOG_INFO, "demo: closed in %.2fs", (double)(util_mono_us() - t0) / 1e6);
	demo_free(d);
}

/* Create the demo source. */
int
demo_source_new(const kg_demo_config *cfg, kg_source **out, const char **bootstrap, char *err, size_t errsz)
{
	const demo_scenario *sc = demo_scenario_find(cfg->scenario);
	const char *why;
	pthread_condattr_t ca;
	demo *d;
	size_t i;
	int gi;

	*out = NULL;
	if (sc == NULL)
		return util_err(err, errsz, "unknown scenario \"%s\" (--demo=list lists them)", cfg->scenario);
	why = demo_scenario_unavailable(sc, cfg->brokers != NULL && *cfg->brokers != '\0');
	if (why != NULL)
		return util_err(err, errsz, "scenario %s %s", sc->name, why); /* main says "demo: " */
	if (cfg->partitions < 0 || cfg->partitions > 256)
		return util_err(err, errsz, "--demo-partitions must be between 1 and 256");

	d = xcalloc(1, sizeof *d);
	pthread_mutex_init(&d->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&d->cond, &ca);
	pthread_condattr_destroy(&ca);
	d->sc = sc;
	d->real = cfg->brokers != NULL && *cfg->brokers != '\0';
	d->npart = cfg->partitions > 0 ? cfg->partitions : 6;
	d->started_us = util_now_us();
	d->setup_timeout_us = cfg->timeout_us > 0 ? cfg->timeout_us : 15LL * 1000000;
	d->setup_deadline = util_mono_us() + d->setup_timeout_us;
	if (d->real) {
		d->session_ms = 10000;
		d->heartbeat_ms = 3000;
		d->max_poll_ms = 15000;
		util_strlcpy(d->topic, REAL_TOPIC, sizeof d->topic);
		d->bootstrap = xstrdup(cfg->brokers);
		d->props = xcalloc(cfg->nprops ? cfg->nprops : 1, sizeof *d->props);
		for (i = 0; i < cfg->nprops; i++) {
			d->props[i].key = xstrdup(cfg->props[i].key);
			d->props[i].value = xstrdup(cfg->props[i].value);
		}
		d->nprops = cfg->nprops;
	} else {
		d->session_ms = 4000;
		d->heartbeat_ms = 1000;
		d->max_poll_ms = 6000;
		util_strlcpy(d->topic, MOCK_TOPIC, sizeof d->topic);
	}
	if (cfg->export_trace != NULL) {
		d->export_f = fopen(cfg->export_trace, "w");
		if (d->export_f == NULL) {
			util_err(err, errsz, "--export-trace %s: %s", cfg->export_trace, strerror(errno));
			demo_free(d);
			return -1;
		}
	}
	if ((!d->real && mock_start(d, err, errsz) < 0) || producer_new(d, err, errsz) < 0 ||
	    (d->real && real_topic(d, err, errsz) < 0)) {
		if (d->producer != NULL)
			rd_kafka_destroy(d->producer);
		if (d->mock != NULL)
			rd_kafka_mock_cluster_destroy(d->mock);
		if (d->mock_owner != NULL)
			rd_kafka_destroy(d->mock_owner);
		demo_free(d);
		return -1;
	}
	d->rate = RATE_PER_PARTITION * d->npart;
	d->topic_id = intern_topic(d->topic);
	d->ngroups = sc->ngroups;
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		g->idx = gi;
		util_strlcpy(g->name, sc->groups[gi].name, sizeof g->name);
		util_strlcpy(g->assignor, sc->groups[gi].assignor, sizeof g->assignor);
		g->gid = intern_group(g->name);
		g->start_members = sc->groups[gi].members;
		g->static_members = sc->groups[gi].static_members;
		d->view[gi].proto = KG_PROTO_UNKNOWN;
		d->view[gi].state = KG_STATE_EMPTY;
		util_strlcpy(d->view[gi].assignor, g->assignor, sizeof d->view[gi].assignor);
	}
	demo_script_init(&d->script, sc, d->real ? 90LL * 1000000 : 45LL * 1000000);
	d->kafka = cfg->kafka;
	if (pthread_create(&d->prod_thread, NULL, producer_main, d) == 0)
		d->prod_started = true;
	else
		util_strlcpy(d->prod_error, "producer: cannot start its thread", sizeof d->prod_error);
	d->src = source_new(&demo_ops, DEMO_SOURCE_NAME, d);
	*out = d->src;
	log_msg(KG_LOG_INFO,
		"demo: scenario %s on %s: topic %s, %d partitions, %d msg/s; session.timeout.ms %d, "
		"heartbeat.interval.ms %d, max.poll.interval.ms %d%s%s",
		sc->name, d->real ? d->bootstrap : "the mock cluster", d->topic, d->npart, d->rate, d->session_ms,
		d->heartbeat_ms, d->max_poll_ms, cfg->export_trace ? "; events to " : "",
		cfg->export_trace ? cfg->export_trace : "");
	for (gi = 0; gi < d->ngroups; gi++)
		log_msg(KG_LOG_INFO, "demo: group %s: %s, %d members%s", d->groups[gi].name, d->groups[gi].assignor,
			d->groups[gi].start_members, d->groups[gi].static_members ? " (static)" : "");
	if (bootstrap != NULL)
		*bootstrap = d->bootstrap;
	return 0;
}

/* Hand over the kafka source. */
void
demo_source_set_kafka(kg_source *s, kg_source *kafka)
{
	demo *d;
	if (s == NULL || s->ops != &demo_ops)
		return;
	d = s->impl;
	d->kafka = kafka;
}

/*
 * demo_cluster.c: the demo's cluster side, and the channel every demo
 * thread reports through.
 *
 * The cluster is librdkafka's mock cluster (three brokers, the topic
 * created with it) or a real one, where the topic kgtop-demo-groups is
 * found or created (its partitions win over --demo-partitions) and the
 * demo's groups are deleted at exit.  A producer keeps every partition
 * moving at a steady rate on a thread of its own, so lag moves.  On a real
 * cluster the setup runs under a deadline (--timeout, --duration), and a
 * cause that waiting will not cure (no broker reachable, cannot resolve,
 * TLS, authentication) fails at once.
 *
 * The channel: the observation queue (demo_push), the collector's wake-up
 * (demo_wake) and the condition variable the consumer, producer and close
 * wait on (demo_timed_wait), all under demo.lock (see demo_int.h).
 *
 * The mock cluster's coordinator says what it does (debug=mock on its
 * handle): a group going to Joining is a coordinator's "preparing to
 * rebalance", a leader elected gives the generation, all members synced
 * is "stabilized generation N".  The demo hands those over as a broker's
 * log would (mock_line), so its episodes count rounds as the coordinator
 * ran them: completed SyncGroup generations, never a retried JoinGroup.
 */
#include "config.h"

#include "sources/demo/demo_int.h"

#include <arpa/inet.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "util/log.h"
#include "sources/kafka/kafka.h"
#include "util/util.h"

#define SYNC_ORDER_WAIT_US (1500LL * 1000) /* the mock's leader waits at most this long for its followers' SyncGroups */
#define SYNC_ORDER_MARGIN_US (20LL * 1000) /* ... and this long after the last of them went out */
#define MOCK_NOTE_SHOWN_US (60LL * 1000000) /* a SyncGroup the mock refused stays in the health line this long */
#define MOCK_BROKERS 3
#define MOCK_TOPIC "demo-groups"
#define REAL_TOPIC "kgtop-demo-groups"
#define RATE_PER_PARTITION 5

/* ------------------------------------------------------------- channel */

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

/* ------------------------------------------------- the mock's sync order */

/* True when the mock elected this consumer leader of its group's newest generation (locked). */
static bool
mock_leader_is(const dcons *c)
{
	return c->id != NULL && c->g->mock_leader[0] != '\0' && strcmp(c->id, c->g->mock_leader) == 0;
}

/* Members of c's group answered at the last election whose SyncGroup has not gone out (locked). */
static int
followers_unsynced(const dcons *c, int64_t *last_sync)
{
	const dgroup *g = c->g;
	size_t i;
	int n = 0;
	for (i = 0; i < g->nc; i++) {
		const dcons *o = g->c[i];
		if (o == c || o->phase == DC_CRASHED || o->closing || o->thread_done)
			continue;
		if (o->join_out || (o->join_answered >= g->mock_elected && o->sync_sent < o->join_answered))
			n++;
		else if (o->sync_sent >= g->mock_elected && o->sync_sent > *last_sync)
			*last_sync = o->sync_sent;
	}
	return n;
}

/*
 * The mock cluster's coordinator (librdkafka 2.0.2 to 2.14.2) completes a
 * generation the moment the leader's SyncGroup arrives, and answers a
 * follower's SyncGroup that comes after it with REBALANCE_IN_PROGRESS: the
 * follower rejoins and the group runs one more generation the protocol
 * does not need (a real broker answers a late follower with its
 * assignment).  Which of the group's consumers is the leader is in the
 * mock's own log (mock_line), so the leader's JoinGroup answer is held
 * here, on its broker thread before librdkafka reads it, until every
 * follower answered in the same election has sent its SyncGroup (and a
 * little more, for the mock to read it first), at most
 * SYNC_ORDER_WAIT_US.  Only on the mock (locked).
 */
void
demo_sync_order_wait(dcons *c)
{
	demo *d = c->d;
	int64_t start = util_now_us(), until = start + SYNC_ORDER_WAIT_US, last = 0, now;
	int n0;
	if (!mock_leader_is(c)) {
		log_msg(KG_LOG_DEBUG, "demo: %s/%s: JoinGroup answered, not the leader (%s, id %s)", c->g->name, c->client_id,
			c->g->mock_leader, c->id ? c->id : "-");
		return;
	}
	n0 = followers_unsynced(c, &last);
	while (!d->stopping && followers_unsynced(c, &last) > 0 && util_now_us() < until)
		demo_timed_wait(d, 10000);
	now = util_now_us();
	if (last > 0 && now < last + SYNC_ORDER_MARGIN_US && now < until)
		demo_timed_wait(d, last + SYNC_ORDER_MARGIN_US - now);
	log_msg(KG_LOG_DEBUG, "demo: %s/%s: leader of generation %d waited %.1f ms for %d followers' SyncGroups", c->g->name,
		c->client_id, (int)c->g->mock_gen, (double)(util_now_us() - start) / 1e3, n0);
}

/*
 * An election line of the mock's coordinator: "Consumer group G with K
 * member(s) is rebalancing: elected leader is L, generation id N" (2.0.2)
 * or "... elected leader is L (group.instance.id = I), generation id N"
 * (2.14.2): the leader's member id ends at the comma or the space.
 */
int
demo_mock_election(const char *line, char *group, size_t gsz, int *gen, char *leader, size_t lsz)
{
	const char *p = strstr(line, "Consumer group "), *q;
	size_t n;
	if (p == NULL || gsz < 2 || lsz < 2 || strstr(p, " is rebalancing: ") == NULL)
		return -1;
	p += strlen("Consumer group ");
	n = strcspn(p, " ");
	if (n == 0 || n >= gsz || strncmp(p + n, " with ", 6) != 0)
		return -1;
	memcpy(group, p, n);
	group[n] = '\0';
	if ((q = strstr(p, ", generation id ")) == NULL || sscanf(q, ", generation id %d", gen) != 1)
		return -1;
	leader[0] = '\0';
	if ((q = strstr(p, "elected leader is ")) != NULL) {
		q += strlen("elected leader is ");
		n = strcspn(q, ", ");
		if (n < lsz) {
			memcpy(leader, q, n);
			leader[n] = '\0';
		}
	}
	return 0;
}

/*
 * The mock received a SyncGroup from addr ("127.0.0.1:PORT") (locked).  In
 * a group whose generation completed already (Up: the leader's came
 * first) it refuses it: say so, naming the member whose coordinator
 * connection that is (its JoinGroups went out on it).  The answer's error
 * is inside its body, which librdkafka's interceptors do not show, so the
 * mock's own account is the evidence.
 */
static void
mock_sync_received(demo *d, const char *addr, int64_t now)
{
	const char *colon = strrchr(addr, ':');
	int port = colon != NULL ? atoi(colon + 1) : 0, gi;
	size_t i;
	for (gi = 0; gi < d->ngroups && port > 0; gi++) {
		dgroup *g = &d->groups[gi];
		for (i = 0; i < g->nc; i++) {
			const dcons *c = g->c[i];
			if (c->coord_port != port || c->thread_done) /* a finished consumer's port may be reused */
				continue;
			if (!g->mock_up)
				return;
			snprintf(d->mock_note, sizeof d->mock_note,
				 "%s: the mock cluster refused %s's SyncGroup, sent after generation %d completed (a real "
				 "broker answers it): it rejoins, which can add a round",
				 g->name, c->client_id, (int)g->mock_gen);
			d->mock_note_at = now;
			log_msg(KG_LOG_INFO, "demo: %s", d->mock_note);
			return;
		}
	}
}

/* The mock's last refused SyncGroup, while recent: appended to buf (the health line's error part). */
void
demo_mock_note(demo *d, char *buf, size_t n, int64_t now)
{
	size_t l = strlen(buf);
	pthread_mutex_lock(&d->lock);
	if (d->mock_note[0] != '\0' && now - d->mock_note_at < MOCK_NOTE_SHOWN_US && l < n)
		snprintf(buf + l, n - l, "%s%s (%.0fs ago)", l > 0 ? "; " : "", d->mock_note,
			 (double)(now - d->mock_note_at) / 1e6);
	pthread_mutex_unlock(&d->lock);
}

/* The local port of a connection, 0 unknown (the mock's log names connections by it). */
int
demo_sock_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	if (fd < 0 || getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}

/* ------------------------------------------------------------- logging */

/* Log callback of the producer and the mock's handle: to the debug log, never the terminal. */
static void
quiet_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
	log_msg(level <= 3 ? KG_LOG_INFO : KG_LOG_DEBUG, "demo: rdkafka %s %s: %s", rk ? rd_kafka_name(rk) : "?",
		fac ? fac : "", buf ? buf : "");
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
	if (!(err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && kafka_err_unreachable(d->prod_err_code))) {
		/* "all brokers down" after a failed connection: the connection's error says why */
		if (!(err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && d->prod_err_code == RD_KAFKA_RESP_ERR__TRANSPORT))
			snprintf(d->prod_err_reason, sizeof d->prod_err_reason, "%s", reason ? reason : "");
		d->prod_err_code = err;
	}
	pthread_mutex_unlock(&d->lock);
}

/* The index of a demo group by name, -1 when none (locked). */
static int
group_index(const demo *d, const char *name)
{
	int i;
	for (i = 0; i < d->ngroups; i++) {
		if (strcmp(d->groups[i].name, name) == 0)
			return i;
	}
	return -1;
}

/* A coordinator observation about group gi at now (locked). */
static void
mock_obs(demo *d, int gi, kg_obs_kind kind, int32_t generation, int nmembers, int64_t now)
{
	kg_obs *o = obs_new(kind, now, d->groups[gi].gid, DEMO_SOURCE_NAME);
	o->generation = generation;
	o->nmembers = nmembers;
	demo_push(d, o);
}

/*
 * One line of the mock's coordinator (debug=mock): "... is rebalancing:
 * elected leader is L, generation id N", "Mock consumer group G with K
 * member(s) changing state A -> B: reason".  A group that goes to Joining
 * prepares a rebalance (from its last stable generation); Syncing -> Up
 * ("all members synced") completes the elected generation (as a
 * coordinator's "Assignment received"); a sync that times out is no
 * generation.
 */
static void
mock_line(demo *d, const char *line)
{
	char group[160], from[16], to[16], addr[64];
	int members = 0, gen = -1, gi;
	const char *p;
	int64_t now = util_now_us();
	pthread_mutex_lock(&d->lock);
	char leader[sizeof d->groups[0].mock_leader];
	if (demo_mock_election(line, group, sizeof group, &gen, leader, sizeof leader) == 0 &&
	    (gi = group_index(d, group)) >= 0) {
		d->groups[gi].mock_gen = gen;
		d->groups[gi].mock_elected = now;
		util_strlcpy(d->groups[gi].mock_leader, leader, sizeof d->groups[gi].mock_leader);
	} else if ((p = strstr(line, "Mock consumer group ")) != NULL &&
		   sscanf(p, "Mock consumer group %159s with %d member(s) changing state %15s -> %15s", group, &members,
			  from, to) == 4 &&
		   (gi = group_index(d, group)) >= 0) {
		char *colon = strchr(to, ':'); /* "Joining: member join" */
		if (colon != NULL)
			*colon = '\0';
		d->groups[gi].mock_up = strcmp(to, "Up") == 0;
		if (strcmp(to, "Joining") == 0 && strcmp(from, "Joining") != 0) {
			demo_mock_prepared(&d->groups[gi], now);
			mock_obs(d, gi, KG_OBS_PREPARING, d->groups[gi].mock_stable, members, now);
		}
		else if (strcmp(from, "Syncing") == 0 && strcmp(to, "Up") == 0) {
			d->groups[gi].mock_stable = d->groups[gi].mock_gen;
			mock_obs(d, gi, KG_OBS_SYNCED, d->groups[gi].mock_gen, members, now); /* every member got its assignment */
		}
	} else if ((p = strstr(line, ": Received SyncGroupRequestV")) != NULL && (p = strstr(p, " from ")) != NULL &&
		   sscanf(p, " from %63s", addr) == 1) {
		mock_sync_received(d, addr, now);
	}
	pthread_mutex_unlock(&d->lock);
}

/* The mock prepared a rebalance of g at `at` (locked); see demo_int.h. */
void
demo_mock_prepared(dgroup *g, int64_t at)
{
	g->mock_prep_at = at;
	g->mock_prep_known = g->sent_at > 0 && g->sent_at <= at && at - g->sent_at <= DEMO_CAUSE_US;
}

/* A member of g sent a JoinGroup or LeaveGroup at `sent` (locked): when to date it; see demo_int.h. */
int64_t
demo_member_sent(dgroup *g, int64_t sent, bool newcomer_join)
{
	if (newcomer_join && g->mock_prep_at > 0 && !g->mock_prep_known && sent >= g->mock_prep_at &&
	    sent - g->mock_prep_at <= DEMO_CAUSE_US) {
		sent = g->mock_prep_at - 1;
		g->mock_prep_known = true;
	}
	if (sent > g->sent_at)
		g->sent_at = sent;
	return sent;
}

/* The mock cluster's log: its coordinator's lines (MOCK) are a trace, all of it goes to the debug log. */
static void
mock_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
	demo *d = rk != NULL ? rd_kafka_opaque(rk) : NULL;
	if (fac != NULL && strcmp(fac, "MOCK") == 0) {
		if (d != NULL && buf != NULL)
			mock_line(d, buf);
		log_msg(KG_LOG_DEBUG, "demo: mock: %s", buf ? buf : "");
		return;
	}
	quiet_log(rk, level, fac, buf);
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
	    /* a batch a second per partition: librdkafka's mock cluster keeps every batch it is sent
	       and scans them for each fetch, so a demo that runs all day must not send hundreds a second */
	    rd_kafka_conf_set(conf, "linger.ms", "1000", e, sizeof e) != RD_KAFKA_CONF_OK) {
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

/* Set one consumer property; -1 with err. */
static int
conf_set(rd_kafka_conf_t *conf, const char *k, const char *v, char *err, size_t errsz)
{
	char e[256];
	if (rd_kafka_conf_set(conf, k, v, e, sizeof e) != RD_KAFKA_CONF_OK)
		return util_err(err, errsz, "%s: %s", k, e);
	return 0;
}

/*
 * The configuration of consumer c of group g.  A consumer-protocol member
 * (KIP-848) sets group.protocol=consumer and none of the classic settings:
 * librdkafka 2.14.2 refuses partition.assignment.strategy,
 * session.timeout.ms and heartbeat.interval.ms there (the coordinator
 * owns them; on the mock demo_cluster_start sets them).
 */
int
demo_consumer_conf(demo *d, const dgroup *g, const dcons *c, rd_kafka_conf_t *conf, char *err, size_t errsz)
{
	char num[32];
	size_t i;
	int rc = 0;
	bool classic = c->cfg_proto != KG_PROTO_CONSUMER;
	for (i = 0; i < d->nprops && rc == 0; i++)
		rc = conf_set(conf, d->props[i].key, d->props[i].value, err, errsz);
	if (rc == 0)
		rc = conf_set(conf, "bootstrap.servers", d->bootstrap, err, errsz);
	if (rc == 0)
		rc = conf_set(conf, "group.id", g->name, err, errsz);
	if (rc == 0)
		rc = conf_set(conf, "client.id", c->client_id, err, errsz);
	if (rc == 0 && !classic)
		rc = conf_set(conf, "group.protocol", "consumer", err, errsz);
	if (rc == 0 && classic)
		rc = conf_set(conf, "partition.assignment.strategy", c->assignor, err, errsz);
	snprintf(num, sizeof num, "%d", d->session_ms);
	if (rc == 0 && classic)
		rc = conf_set(conf, "session.timeout.ms", num, err, errsz);
	snprintf(num, sizeof num, "%d", d->heartbeat_ms);
	if (rc == 0 && classic)
		rc = conf_set(conf, "heartbeat.interval.ms", num, err, errsz);
	snprintf(num, sizeof num, "%d", d->max_poll_ms);
	if (rc == 0)
		rc = conf_set(conf, "max.poll.interval.ms", num, err, errsz);
	/* commit semantics: the demo's own every second, Kafka's default every 5 s, or after processing (no auto) */
	if (rc == 0)
		rc = conf_set(conf, "enable.auto.commit", g->commit == DEMO_COMMIT_AFTER ? "false" : "true", err, errsz);
	if (rc == 0)
		rc = conf_set(conf, "auto.commit.interval.ms", g->commit == DEMO_COMMIT_AUTO ? "5000" : "1000", err, errsz);
	if (rc == 0)
		rc = conf_set(conf, "auto.offset.reset", "latest", err, errsz);
	if (rc == 0)
		rc = conf_set(conf, "log_level", "5", err, errsz);
	if (rc == 0 && c->instance_id[0])
		rc = conf_set(conf, "group.instance.id", c->instance_id, err, errsz);
	return rc;
}

/* Start the mock cluster and create the topic. */
static int
mock_start(demo *d, char *err, size_t errsz)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_mock_cluster_t *mc;
	rd_kafka_resp_err_t e;
	char es[512];
	rd_kafka_conf_set_log_cb(conf, mock_log);
	rd_kafka_conf_set_opaque(conf, d);
	/* the coordinator's account of its groups (mock_line); nothing else is asked of the mock's handle */
	if (rd_kafka_conf_set(conf, "debug", "mock", es, sizeof es) != RD_KAFKA_CONF_OK)
		log_msg(KG_LOG_INFO, "demo: the mock's coordinator lines are not available: %s", es);
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
#if DEMO_KIP848
	/* the consumer protocol's session and heartbeat are the coordinator's: the demo's, as for classic groups */
	rd_kafka_mock_set_group_consumer_session_timeout_ms(mc, d->session_ms);
	rd_kafka_mock_set_group_consumer_heartbeat_interval_ms(mc, d->heartbeat_ms);
#endif
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
		if (kafka_err_unreachable(code))
			return util_err(err, errsz, "%s: metadata: %s (%s)", d->bootstrap, kafka_err_reason(code), reason);
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
		/* the coordinator of a group leads the partition of __consumer_offsets its id hashes to */
		if (strcmp(md->topics[i].topic, "__consumer_offsets") == 0)
			d->offsets_partitions = md->topics[i].partition_cnt;
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

/*
 * DeleteGroups for the groups not yet gone (gone[i] false); each one's
 * answer: deleted or not there is gone, NON_EMPTY_GROUP (members still
 * in their session) is asked again, anything else is final (why[i]).
 * Returns how many are still to ask again.
 */
static int
delete_groups_once(demo *d, bool *gone, char why[][96], int ms)
{
	rd_kafka_DeleteGroup_t *dg[DEMO_MAX_GROUPS];
	rd_kafka_AdminOptions_t *opt;
	rd_kafka_queue_t *q;
	rd_kafka_event_t *ev;
	char es[256];
	int i, n = 0, again = 0;
	for (i = 0; i < d->ngroups; i++) {
		if (!gone[i] && why[i][0] == '\0')
			dg[n++] = rd_kafka_DeleteGroup_new(d->groups[i].name);
	}
	if (n == 0)
		return 0;
	opt = rd_kafka_AdminOptions_new(d->producer, RD_KAFKA_ADMIN_OP_DELETEGROUPS);
	rd_kafka_AdminOptions_set_request_timeout(opt, ms, es, sizeof es);
	q = rd_kafka_queue_new(d->producer);
	rd_kafka_DeleteGroups(d->producer, dg, (size_t)n, opt, q);
	ev = admin_wait(q, RD_KAFKA_EVENT_DELETEGROUPS_RESULT, ms + 1000);
	for (i = 0; i < d->ngroups; i++) {
		const rd_kafka_group_result_t **gr;
		size_t k, ng = 0;
		const rd_kafka_error_t *e = NULL;
		bool found = false;
		if (gone[i] || why[i][0] != '\0')
			continue;
		if (ev == NULL || rd_kafka_event_error(ev) != RD_KAFKA_RESP_ERR_NO_ERROR) {
			snprintf(why[i], sizeof why[i], "%s", ev == NULL ? "no answer to DeleteGroups" : rd_kafka_event_error_string(ev));
			continue;
		}
		gr = rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev), &ng);
		for (k = 0; k < ng && !found; k++) {
			if (strcmp(rd_kafka_group_result_name(gr[k]), d->groups[i].name) == 0) {
				found = true;
				e = rd_kafka_group_result_error(gr[k]);
			}
		}
		if (!found)
			snprintf(why[i], sizeof why[i], "no answer for it");
		else if (e == NULL || rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
			gone[i] = true;
		else if (rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_NON_EMPTY_GROUP ||
			 rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS ||
			 rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE ||
			 rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_NOT_COORDINATOR)
			again++;
		else
			snprintf(why[i], sizeof why[i], "%s", rd_kafka_error_string(e));
	}
	if (ev != NULL)
		rd_kafka_event_destroy(ev);
	rd_kafka_queue_destroy(q);
	rd_kafka_AdminOptions_destroy(opt);
	rd_kafka_DeleteGroup_destroy_array(dg, (size_t)n);
	return again;
}

/* DeleteTopics for the demo's topic: NULL when it is gone (or was not there), else why not (into buf). */
static const char *
delete_topic(demo *d, char *buf, size_t n)
{
	rd_kafka_DeleteTopic_t *dt = rd_kafka_DeleteTopic_new(d->topic);
	rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new(d->producer, RD_KAFKA_ADMIN_OP_DELETETOPICS);
	rd_kafka_queue_t *q = rd_kafka_queue_new(d->producer);
	rd_kafka_event_t *ev;
	char es[256];
	const char *why = NULL;
	rd_kafka_AdminOptions_set_request_timeout(opt, 5000, es, sizeof es);
	rd_kafka_DeleteTopics(d->producer, &dt, 1, opt, q);
	ev = admin_wait(q, RD_KAFKA_EVENT_DELETETOPICS_RESULT, 6000);
	if (ev == NULL) {
		why = "no answer to DeleteTopics";
	} else if (rd_kafka_event_error(ev) != RD_KAFKA_RESP_ERR_NO_ERROR) {
		snprintf(buf, n, "%s", rd_kafka_event_error_string(ev));
		why = buf;
	} else {
		size_t k = 0;
		const rd_kafka_topic_result_t **tr =
			rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(ev), &k);
		rd_kafka_resp_err_t e = k > 0 ? rd_kafka_topic_result_error(tr[0]) : RD_KAFKA_RESP_ERR_NO_ERROR;
		if (e != RD_KAFKA_RESP_ERR_NO_ERROR && e != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
			snprintf(buf, n, "%s", rd_kafka_topic_result_error_string(tr[0]));
			why = buf;
		}
	}
	if (ev != NULL)
		rd_kafka_event_destroy(ev);
	rd_kafka_queue_destroy(q);
	rd_kafka_AdminOptions_destroy(opt);
	rd_kafka_DeleteTopic_destroy(dt);
	return why;
}

/* A member of the group may still be in it at exit: static members send no LeaveGroup, nor does one that crashed. */
static bool
group_lingers(const dgroup *g)
{
	size_t j;
	if (g->static_members)
		return true;
	for (j = 0; j < g->nc; j++) {
		if (g->c[j]->evict_pending)
			return true;
	}
	return false;
}

/*
 * On a real cluster, at exit: delete the demo's groups, then its topic,
 * and check each answer.  Static members send no LeaveGroup and
 * librdkafka 2.0.2 cannot remove them, nor a crashed member the
 * coordinator has not dropped yet: such a group is deleted once the
 * coordinator drops them, session.timeout.ms after they went (asked again
 * until then; Kafka 4.3 answered NON_EMPTY_GROUP to a demo stopped 5 s
 * after a crash); dynamic members left with LeaveGroup.  Whatever is
 * still there is named in d->leftovers with the command that removes it
 * (the caller prints it once the terminal is restored).
 */
static void
real_cleanup(demo *d, bool consumers_closed)
{
	bool gone[DEMO_MAX_GROUPS] = { false }, statics = false;
	char why[DEMO_MAX_GROUPS][96] = { { 0 } }, tw[200];
	const char *twhy;
	int64_t deadline;
	sbuf b = { 0 };
	int i;
	for (i = 0; i < d->ngroups; i++) {
		statics = statics || group_lingers(&d->groups[i]);
		if (!consumers_closed)
			snprintf(why[i], sizeof why[i], "its consumers did not close in time");
	}
	deadline = util_mono_us() + (statics ? (int64_t)d->session_ms * 1000 + 3000000 : 4000000);
	while (delete_groups_once(d, gone, why, 4000) > 0) {
		if (util_mono_us() >= deadline) {
			for (i = 0; i < d->ngroups; i++) {
				if (!gone[i] && why[i][0] == '\0')
					snprintf(why[i], sizeof why[i], "still not empty%s",
						 group_lingers(&d->groups[i]) ? " (static or crashed members stay until their session ends)" : "");
			}
			break;
		}
		pthread_mutex_lock(&d->lock);
		demo_timed_wait(d, 1000000); /* the coordinator drops static and crashed members session.timeout.ms after they went */
		pthread_mutex_unlock(&d->lock);
	}
	twhy = delete_topic(d, tw, sizeof tw);
	for (i = 0; i < d->ngroups; i++) {
		if (gone[i]) {
			log_msg(KG_LOG_INFO, "demo: deleted group %s", d->groups[i].name);
			continue;
		}
		sbuf_addf(&b, "demo: group %s was not deleted (%s); remove it with:\n  kafka-consumer-groups.sh "
			  "--bootstrap-server %s --delete --group %s\n", d->groups[i].name, why[i], d->bootstrap,
			  d->groups[i].name);
	}
	if (twhy != NULL)
		sbuf_addf(&b, "demo: topic %s was not deleted (%s); remove it with:\n  kafka-topics.sh --bootstrap-server %s "
			  "--delete --topic %s\n", d->topic, twhy, d->bootstrap, d->topic);
	else
		log_msg(KG_LOG_INFO, "demo: deleted topic %s", d->topic);
	if (b.len > 0) {
		log_msg(KG_LOG_INFO, "%s", sbuf_str(&b)); /* the caller prints it once the run is over */
		if (d->leftovers != NULL && d->leftovers_size > 0)
			util_strlcpy(d->leftovers, sbuf_str(&b), d->leftovers_size);
	}
	sbuf_free(&b);
}

/* ---------------------------------------------------------- start, stop */

/* Start the cluster side: the mock cluster and its topic, or a real cluster's topic; the producer handle. */
int
demo_cluster_start(demo *d, char *err, size_t errsz)
{
	util_strlcpy(d->topic, d->real ? REAL_TOPIC : MOCK_TOPIC, sizeof d->topic);
	if ((!d->real && mock_start(d, err, errsz) < 0) || producer_new(d, err, errsz) < 0 ||
	    (d->real && real_topic(d, err, errsz) < 0)) {
		demo_cluster_stop(d, false);
		return -1;
	}
	return 0;
}

/*
 * On the mock, pin each demo group's coordinator (one broker each, in
 * turn), so that the header names it; a real cluster's coordinators are
 * its own (the kafka source describes them).
 */
void
demo_cluster_coordinators(demo *d)
{
	int gi;
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		g->coordinator = -1;
		g->mock_gen = g->mock_stable = -1;
		if (d->mock == NULL)
			continue;
		g->coordinator = 1 + gi % MOCK_BROKERS;
		if (rd_kafka_mock_coordinator_set(d->mock, "group", g->name, g->coordinator) != RD_KAFKA_RESP_ERR_NO_ERROR)
			g->coordinator = -1;
	}
}

/* Start the producer thread at a steady rate over every partition. */
void
demo_producer_start(demo *d)
{
	d->rate = RATE_PER_PARTITION * d->npart;
	if (pthread_create(&d->prod_thread, NULL, producer_main, d) == 0)
		d->prod_started = true;
	else
		util_strlcpy(d->prod_error, "producer: cannot start its thread", sizeof d->prod_error);
}

/*
 * The mock cluster's end, bounded.  librdkafka 2.0.2 sometimes misses the
 * wakeup of the mock's thread once a client has been connected, and
 * rd_kafka_mock_cluster_destroy() then waits for its poll to time out (a
 * second, measured: 0 or 1 s at random).  A thread of its own destroys it
 * and is waited for MOCK_STOP_WAIT_US; past that it, the mock and its
 * owner handle are left to the process's end, which comes next (the demo
 * stops when kgtop does), so that --duration is kept within half a
 * second.
 */
#define MOCK_STOP_WAIT_US (150LL * 1000)

typedef struct mock_stop {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	void *mock;
	bool done;
} mock_stop;

/* The thread that destroys the mock cluster. */
static void *
mock_stop_main(void *arg)
{
	mock_stop *m = arg;
	rd_kafka_mock_cluster_destroy(m->mock);
	pthread_mutex_lock(&m->lock);
	m->done = true;
	pthread_cond_signal(&m->cond);
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

/* Destroy the mock cluster, waiting at most MOCK_STOP_WAIT_US; false when it is left to the process's end. */
static bool
mock_stop_bounded(void *mock)
{
	static mock_stop m = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, false };
	pthread_t th;
	struct timespec until;
	bool done;
	m.mock = mock;
	m.done = false;
	if (pthread_create(&th, NULL, mock_stop_main, &m) != 0) {
		rd_kafka_mock_cluster_destroy(mock);
		return true;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)(MOCK_STOP_WAIT_US * 1000);
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&m.lock);
	while (!m.done && pthread_cond_timedwait(&m.cond, &m.lock, &until) == 0)
		;
	done = m.done;
	pthread_mutex_unlock(&m.lock);
	if (done)
		pthread_join(th, NULL);
	else
		pthread_detach(th);
	return done;
}

/*
 * Join the producer thread (prod_stop set), clean up a real cluster (its
 * groups and topic deleted, what stays named: consumers_closed false says
 * the groups cannot go), destroy the cluster side.
 */
void
demo_cluster_stop(demo *d, bool consumers_closed)
{
	if (d->prod_started)
		pthread_join(d->prod_thread, NULL);
	d->prod_started = false;
	if (d->real && d->producer != NULL && d->cleanup)
		real_cleanup(d, consumers_closed);
	if (d->producer != NULL) {
		rd_kafka_purge(d->producer, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
		rd_kafka_destroy(d->producer);
		d->producer = NULL;
	}
	if (d->mock != NULL && !mock_stop_bounded(d->mock)) {
		log_msg(KG_LOG_INFO, "demo: the mock cluster takes its time to stop: left to the process's end");
		d->mock_owner = NULL; /* it still serves the mock being destroyed */
	}
	d->mock = NULL;
	if (d->mock_owner != NULL)
		rd_kafka_destroy(d->mock_owner);
	d->mock_owner = NULL;
}

/* Why the consumer protocol does not run here: the version test is librdkafka's, so it lives
 * with the code that talks to it (demo_script.c stays pure logic). */
const char *
demo_kip848_missing(void)
{
	static char why[120];
	if (RD_KAFKA_VERSION >= DEMO_KIP848_RDKAFKA)
		return NULL;
	snprintf(why, sizeof why, "group.protocol=consumer needs librdkafka >= %d.%d (this build: %d.%d.%d)",
		 DEMO_KIP848_RDKAFKA >> 24, (DEMO_KIP848_RDKAFKA >> 16) & 0xff, RD_KAFKA_VERSION >> 24,
		 (RD_KAFKA_VERSION >> 16) & 0xff, (RD_KAFKA_VERSION >> 8) & 0xff);
	return why;
}

/*
 * demo_consumer.c: one real librdkafka consumer per demo member.
 *
 * Each consumer runs on a thread of its own: poll, rebalance callbacks,
 * close.  What it knows about itself becomes observations: the exact
 * revoke / assign callbacks with the protocol librdkafka reports, lost
 * assignments, and from interceptors JoinGroup sent (a round boundary),
 * Heartbeat answers (with their round trip), SyncGroup and LeaveGroup.
 * JoinGroup / SyncGroup in flight also give the group's synthesized state.
 * librdkafka 2.0.2 calls on_response_received twice for every response and
 * always with CorrId 0, so an answer with the same broker, round trip (in
 * microseconds) and error as the previous one of its api is a duplicate.
 *
 * How a member goes (all verified on the mock cluster of librdkafka 2.0.2):
 *  - leave: rd_kafka_consumer_close_queue() served with the event API
 *    under a deadline (rebalance events go to the rebalance handler): the
 *    revoke runs, LeaveGroup goes out (LEFT graceful at that moment), and a
 *    close that cannot finish falls back to a destroy without close;
 *  - crash: rd_kafka_destroy_flags(RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE):
 *    no LeaveGroup, no more heartbeats; the coordinator drops the member
 *    after session.timeout.ms, which the other members see as their next
 *    rebalance: LEFT (session timeout) is timed by the first peer that
 *    rejoins or revokes once the session can have expired;
 *  - stall: the thread stops polling; past max.poll.interval.ms librdkafka
 *    logs MAXPOLL and sends LeaveGroup (LEFT max.poll at that moment); when
 *    it polls again it reports the lost assignment and rejoins with a new
 *    member id (a new incarnation: JOINED again).
 * A crash or a stall is reported at once (SILENT, at the last poll): the
 * member consumes nothing from then, long before the coordinator decides.
 * On the mock cluster the leader holds its JoinGroup answer until its
 * followers have sent their SyncGroups (demo_sync_order_wait): the mock refuses
 * a follower's SyncGroup that comes after the leader's, which costs a
 * generation the protocol does not need; when it refuses one anyway, the
 * health line says so (mock_sync_received in demo_cluster.c).
 * A consumer-protocol member (KIP-848, group.protocol=consumer; the mock
 * of librdkafka 2.14.2) talks ConsumerGroupHeartbeat only (cg_heartbeat_sent),
 * and its callbacks are incremental; a crashed one's eviction is seen when
 * a peer reconciles, since nobody rejoins.
 */
#include "config.h"

#include "sources/demo/demo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "model/intern.h"
#include "util/util.h"

#define POLL_MS 50                       /* consumer poll timeout */
#define POLL_PUB_US (250LL * 1000)       /* at most this often a POLL observation */
#define CHECK_US (2LL * 1000000)         /* rd_kafka_assignment() cross-check */
#define LEAVE_CLOSE_US (10LL * 1000000)  /* a graceful leave may take this long */
#define STOP_CLOSE_MOCK_US (250LL * 1000) /* at exit on the mock (which goes too): a JoinGroup in flight would wait 3 s */
#define STOP_CLOSE_REAL_US (5LL * 1000000)  /* at exit on a real cluster: the groups must be empty to go */
#define EVICT_SLACK_US (250LL * 1000)
#define EVICT_FALLBACK_US (6LL * 1000000)
#define DUP_WINDOW_US (500LL * 1000)     /* a duplicate answer follows its original at once */
#define STALL_CHECK_US (500LL * 1000)    /* member id checks while stalled */
#define STICKY_WAIT_US (10LL * 1000000)  /* a cooperative member may wait this long for its first assignment */
#define STICKY_WAIT_STOP_US (3500LL * 1000) /* ... at exit */

enum { API_KEY_JOIN = 11, API_KEY_HEARTBEAT = 12, API_KEY_LEAVE = 13, API_KEY_SYNC = 14, API_KEY_CG_HEARTBEAT = 68 };

/* Callbacks add and remove partitions: cooperative, and the consumer protocol (KIP-848) alike. */
static bool
incremental(kg_proto p)
{
	return p == KG_PROTO_COOPERATIVE || p == KG_PROTO_CONSUMER;
}

/* A new observation about consumer c. */
static kg_obs *
cobs(dcons *c, kg_obs_kind kind, int64_t t)
{
	kg_obs *o = obs_new(kind, t, c->g->gid, DEMO_SOURCE_NAME);
	o->session_timeout_ms = c->d->session_ms;
	o->max_poll_ms = c->d->max_poll_ms;
	return o;
}

/* The protocol the consumer uses: what librdkafka said last, else what its assignor implies. */
static kg_proto
cproto(const dcons *c)
{
	return c->proto != KG_PROTO_UNKNOWN ? c->proto : c->cfg_proto;
}

/* A JoinGroup went out (locked). */
static kg_obs *
join_obs(dcons *c, int64_t t)
{
	kg_obs *o = cobs(c, KG_OBS_JOIN_SENT, t);
	o->proto = cproto(c);
	return o;
}

/* Fill the member identity. */
static void
stamp(dcons *c, kg_obs *o, const char *id)
{
	obs_member(o, id, c->client_id, c->instance_id[0] ? c->instance_id : NULL, c->d->real ? NULL : "/127.0.0.1");
}

/* Queue an observation of this incarnation, or hold it until the id is known (locked). */
static void
emit_member(dcons *c, kg_obs *o)
{
	if (c->listed && c->id != NULL) {
		stamp(c, o, c->id);
		demo_push(c->d, o);
	} else if (c->join_start > 0 || c->join_response) {
		obsq_push(&c->held, o);
	} else {
		obs_free(o);
	}
}

/* Revokes after the member left (a lost assignment) belong to the previous incarnation (locked). */
static void
emit_departed(dcons *c, kg_obs *o)
{
	if (!c->listed && c->last_id != NULL && !c->join_response) {
		stamp(c, o, c->last_id);
		demo_push(c->d, o);
	} else {
		emit_member(c, o);
	}
}

/* Forget this incarnation (locked); what it held is others' now. */
static void
end_incarnation(dcons *c)
{
	if (c->listed && c->nasg > 0) {
		free(c->stale);
		c->stale = tp_dup(c->asg, c->nasg);
		c->nstale = c->nasg;
	}
	c->listed = false;
	if (c->id != NULL) {
		free(c->last_id);
		c->last_id = c->id;
		c->id = NULL;
	}
	c->join_response = false;
	c->need_fetch = false;
	c->join_start = 0;
	c->evict_pending = false;
	c->last_poll_pub = 0;
	obsq_clear(&c->held);
}

/* Queue a LEFT and end the incarnation (locked). */
static void
left(dcons *c, int64_t now, kg_reason reason, const char *text)
{
	if (c->listed && c->id != NULL) {
		kg_obs *o = cobs(c, KG_OBS_LEFT, now);
		log_msg(KG_LOG_INFO, "demo: %s/%s: left as member %s (%s: %s)", c->g->name, c->client_id, c->id,
			reason == KG_REASON_NONE ? "away" : reason_name(reason), text ? text : "");
		c->last_leave = reason;
		o->reason = reason;
		obs_text(o, text);
		stamp(c, o, c->id);
		demo_push(c->d, o);
	}
	end_incarnation(c);
	c->g->last_activity = now;
}

/* Evict crashed members the coordinator must have dropped by now (locked). */
void
dgroup_evict_check(dgroup *g, const dcons *peer, int64_t now)
{
	size_t i;
	for (i = 0; i < g->nc; i++) {
		dcons *c = g->c[i];
		demo *d = c->d;
		int64_t session = (int64_t)d->session_ms * 1000;
		char text[256];
		if (!c->evict_pending || c == peer)
			continue;
		if (peer != NULL && now >= c->crash_time + session - (int64_t)d->heartbeat_ms * 1000 - EVICT_SLACK_US) {
			snprintf(text, sizeof text, "%s; seen when %s %s", c->evict_text, peer->client_id,
				 peer->cfg_proto == KG_PROTO_CONSUMER ? "reconciled" : "rejoined");
			left(c, now, KG_REASON_SESSION_TIMEOUT, text);
		} else if (peer == NULL && now >= c->crash_time + session + EVICT_FALLBACK_US) {
			snprintf(text, sizeof text, "%s; no other member rejoined to confirm it", c->evict_text);
			left(c, now, KG_REASON_SESSION_TIMEOUT, text);
		}
	}
}

/* Partitions of a librdkafka list as a sorted set; returns the count. */
static int
tps_from_list(const rd_kafka_topic_partition_list_t *l, kg_tp **out)
{
	int i, n = 0;
	kg_tp *v;
	*out = NULL;
	if (l == NULL || l->cnt <= 0)
		return 0;
	v = xmalloc((size_t)l->cnt * sizeof *v);
	for (i = 0; i < l->cnt; i++) {
		v[n].topic = intern_topic(l->elems[i].topic);
		v[n].partition = l->elems[i].partition;
		n++;
	}
	n = tp_sort_unique(v, n);
	*out = v;
	return n;
}

/* Replace an owned set. */
static void
set_asg(dcons *c, const kg_tp *v, int n)
{
	free(c->asg);
	c->asg = tp_dup(v, n);
	c->nasg = c->asg ? n : 0;
}

/* Add or remove parts of the consumer's own assignment. */
static void
asg_change(dcons *c, const kg_tp *v, int n, bool add)
{
	kg_tp *out;
	int k;
	if (n == 0)
		return;
	if (add) {
		out = xmalloc((size_t)(c->nasg + n) * sizeof *out);
		if (c->nasg > 0)
			memcpy(out, c->asg, (size_t)c->nasg * sizeof *out);
		memcpy(out + c->nasg, v, (size_t)n * sizeof *out);
		k = tp_sort_unique(out, c->nasg + n);
	} else {
		out = xmalloc((size_t)(c->nasg + 1) * sizeof *out);
		k = tp_diff(c->asg, c->nasg, v, n, out);
	}
	free(c->asg);
	c->asg = k > 0 ? out : NULL;
	c->nasg = k;
	if (k == 0)
		free(out);
}

/* Record a librdkafka error for the health line (locked). */
static void
note_error(dcons *c, const char *what, const char *msg)
{
	snprintf(c->last_error, sizeof c->last_error, "%s %s: %s", c->client_id, what, msg);
	log_msg(KG_LOG_INFO, "demo: %s/%s: %s: %s", c->g->name, c->client_id, what, msg);
}

/* ---------------------------------------------------------- interceptors */

/*
 * A ConsumerGroupHeartbeat went out (the consumer protocol, KIP-848): it
 * is the join, every heartbeat and the leave at once.  The interceptor
 * does not see its member epoch, so which it is comes from the member's
 * state: the first of an incarnation joins (epoch 0), one sent while
 * closing or after MAXPOLL leaves (epoch -1), the rest are heartbeats.
 */
static rd_kafka_resp_err_t
cg_heartbeat_sent(dcons *c)
{
	demo *d = c->d;
	int64_t now;
	bool wake = false;
	now = util_now_us(); /* before the lock, as ic_sent: the request is out already */
	pthread_mutex_lock(&d->lock);
	if (c->listed && (c->closing || (c->maxpoll_at > 0 && now - c->maxpoll_at < 3000000))) {
		c->left_sent = true;
		if (c->phase == DC_STALLED) {
			c->kicked = true;
			c->kicked_at = now;
		}
		if (c->closing && c->phase != DC_STALLED)
			left(c, now, KG_REASON_GRACEFUL, "leave heartbeat (epoch -1): consumer closed");
		else
			left(c, now, KG_REASON_MAX_POLL,
			     c->maxpoll_text[0] ? c->maxpoll_text : "max.poll.interval.ms exceeded: leave heartbeat");
		c->maxpoll_at = 0;
		wake = true;
	} else if (!c->listed && !c->join_response && c->join_start == 0 && !c->closing && c->phase != DC_CRASHED) {
		c->join_out = true;
		c->synced = false;
		c->join_start = now;
		c->left_sent = false;
		c->g->last_activity = now;
		dgroup_evict_check(c->g, c, now);
		emit_member(c, join_obs(c, now));
		wake = true;
	}
	pthread_mutex_unlock(&d->lock);
	if (wake)
		demo_wake(d);
	return RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* on_request_sent: JoinGroup, SyncGroup, LeaveGroup or ConsumerGroupHeartbeat went out. */
static rd_kafka_resp_err_t
ic_sent(rd_kafka_t *rk, int sockfd, const char *brokername, int32_t brokerid, int16_t api, int16_t ver,
	int32_t corr, size_t size, void *opaque)
{
	dcons *c = opaque;
	demo *d = c->d;
	int64_t now;
	bool wake = false;
	(void)rk, (void)brokername, (void)brokerid, (void)ver, (void)corr, (void)size;
	if (api == API_KEY_CG_HEARTBEAT)
		return cg_heartbeat_sent(c);
	if (api != API_KEY_JOIN && api != API_KEY_SYNC && api != API_KEY_LEAVE)
		return RD_KAFKA_RESP_ERR_NO_ERROR;
	now = util_now_us(); /* before the lock: the request is out already, the mock's line may hold the lock */
	pthread_mutex_lock(&d->lock);
	if (api == API_KEY_JOIN || api == API_KEY_LEAVE) {
		bool newcomer = api == API_KEY_JOIN && !c->listed && !c->join_response && c->join_start == 0 &&
				!c->static_return;
		now = demo_member_sent(c->g, now, newcomer);
	}
	c->g->last_activity = now;
	if (api == API_KEY_JOIN) {
		c->join_out = true;
		c->coord_port = demo_sock_port(sockfd);
		c->synced = false;
		if (c->phase != DC_CRASHED && !c->closing)
			dgroup_evict_check(c->g, c, now);
		if (!c->listed && !c->join_response) {
			/* the first JoinGroup of an incarnation: no member id yet */
			if (c->join_start == 0) {
				c->join_start = now;
				c->left_sent = false;
				/*
				 * A newcomer's JoinGroup starts the rebalance: say so (held
				 * until the id is known, queued after JOINED), so that a
				 * reader of these observations alone (--export-trace read
				 * back) times the rebalance from here, not from the first
				 * assignment.  A static instance's return is no rebalance.
				 */
				if (!c->static_return)
					emit_member(c, join_obs(c, now));
			}
		} else {
			emit_member(c, join_obs(c, now));
		}
		wake = true;
	} else if (api == API_KEY_SYNC) {
		c->sync_out = true;
		c->sync_sent = now;
		pthread_cond_broadcast(&d->cond); /* a leader may be waiting for it (demo_sync_order_wait) */
	} else {
		c->left_sent = true;
		if (c->phase == DC_STALLED) {
			c->kicked = true;
			c->kicked_at = now;
		}
		if (c->listed) {
			if (c->phase == DC_STALLED || (c->maxpoll_at > 0 && now - c->maxpoll_at < 3000000))
				left(c, now, KG_REASON_MAX_POLL,
				     c->maxpoll_text[0] ? c->maxpoll_text : "max.poll.interval.ms exceeded: LeaveGroup");
			else if (c->closing && c->phase == DC_CRASHED)
				left(c, now, KG_REASON_GRACEFUL, "LeaveGroup sent while destroyed without close");
			else if (c->closing)
				left(c, now, KG_REASON_GRACEFUL, "LeaveGroup: consumer closed");
			else
				left(c, now, KG_REASON_UNKNOWN, "LeaveGroup");
		}
		wake = true;
	}
	pthread_mutex_unlock(&d->lock);
	if (wake)
		demo_wake(d);
	return RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* on_response_received: answers to JoinGroup, SyncGroup, Heartbeat. */
static rd_kafka_resp_err_t
ic_recv(rd_kafka_t *rk, int sockfd, const char *brokername, int32_t brokerid, int16_t api, int16_t ver,
	int32_t corr, size_t size, int64_t rtt, rd_kafka_resp_err_t err, void *opaque)
{
	dcons *c = opaque;
	demo *d = c->d;
	int slot;
	int64_t now;
	(void)rk, (void)sockfd, (void)brokername, (void)ver, (void)corr, (void)size;
	switch (api) {
	case API_KEY_JOIN: slot = API_JOIN; break;
	case API_KEY_SYNC: slot = API_SYNC; break;
	case API_KEY_HEARTBEAT:
	case API_KEY_CG_HEARTBEAT: slot = API_HB; break;
	default: return RD_KAFKA_RESP_ERR_NO_ERROR;
	}
	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	if (c->last_resp_rtt[slot] == rtt && c->last_resp_broker[slot] == brokerid && c->last_resp_err[slot] == (int)err &&
	    now - c->last_resp_at[slot] < DUP_WINDOW_US) {
		pthread_mutex_unlock(&d->lock); /* the same answer reported again */
		return RD_KAFKA_RESP_ERR_NO_ERROR;
	}
	c->last_resp_rtt[slot] = rtt;
	c->last_resp_broker[slot] = brokerid;
	c->last_resp_err[slot] = (int)err;
	c->last_resp_at[slot] = now;
	if (slot == API_JOIN || (api == API_KEY_CG_HEARTBEAT && c->join_out)) {
		/* a JoinGroup's answer, or a consumer-protocol join's: the member id is known (fetched after a poll) */
		c->join_out = false;
		c->join_answered = now;
		c->g->last_activity = now;
		if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
			c->join_response = true;
			c->need_fetch = true;
			c->ever_joined = true;
			if (!d->real && slot == API_JOIN)
				demo_sync_order_wait(c); /* classic groups only: the consumer protocol has no SyncGroup */
		}
	} else if (slot == API_SYNC) {
		c->sync_out = false;
		c->g->last_activity = now;
	} else if (err == RD_KAFKA_RESP_ERR_NO_ERROR && c->listed && c->phase != DC_CRASHED) {
		kg_obs *o = cobs(c, KG_OBS_HEARTBEAT, now);
		o->value = rtt;
		emit_member(c, o);
	}
	pthread_mutex_unlock(&d->lock);
	return RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* on_new: install the request interceptors. */
static rd_kafka_resp_err_t
ic_new(rd_kafka_t *rk, const rd_kafka_conf_t *conf, void *opaque, char *errstr, size_t errstr_size)
{
	(void)conf, (void)errstr, (void)errstr_size;
	rd_kafka_interceptor_add_on_request_sent(rk, "kgtop-demo", ic_sent, opaque);
	rd_kafka_interceptor_add_on_response_received(rk, "kgtop-demo", ic_recv, opaque);
	return RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* Log callback: everything is swallowed (the terminal belongs to curses) but MAXPOLL. */
static void
dcons_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
	dcons *c = rd_kafka_opaque(rk);
	char *cut;
	log_msg(level <= 3 ? KG_LOG_INFO : KG_LOG_DEBUG, "demo: rdkafka %s %s: %s", c ? c->client_id : "?",
		fac ? fac : "", buf ? buf : "");
	if (c == NULL || fac == NULL || strcmp(fac, "MAXPOLL") != 0)
		return;
	pthread_mutex_lock(&c->d->lock);
	if (strncmp(buf, "[thrd:", 6) == 0 && strstr(buf, "]: ") != NULL)
		buf = strstr(buf, "]: ") + 3;
	snprintf(c->maxpoll_text, sizeof c->maxpoll_text, "%s", buf);
	cut = strstr(c->maxpoll_text, " (adjust");
	if (cut != NULL)
		*cut = '\0';
	c->maxpoll_at = util_now_us();
	c->maxpoll_lost = true;
	if (c->instance_id[0] && c->listed) {
		/* a static member sends no LeaveGroup: the log line is the moment */
		if (c->phase == DC_STALLED) {
			c->kicked = true;
			c->kicked_at = c->maxpoll_at;
		}
		left(c, c->maxpoll_at, KG_REASON_MAX_POLL, c->maxpoll_text);
	}
	pthread_mutex_unlock(&c->d->lock);
	demo_wake(c->d);
}

/* Error callback: kept for the health line. */
static void
dcons_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	dcons *c = opaque;
	(void)rk, (void)err;
	pthread_mutex_lock(&c->d->lock);
	note_error(c, "error", reason);
	pthread_mutex_unlock(&c->d->lock);
}

/* -------------------------------------------------------------- rebalance */

/* An assignment callback (locked): observe it, and what the consumer holds now. */
static void
rebalance_assigned(dcons *c, const kg_tp *v, int n, kg_proto proto, int64_t now)
{
	bool coop = incremental(proto);
	/* after a kick, before the new incarnation's JoinGroup answer: the missed round's */
	bool old_round = !c->listed && !c->join_response && c->last_id != NULL;
	kg_obs *o = cobs(c, KG_OBS_ASSIGNED, now);
	o->proto = proto;
	if (coop && c->nstale > 0 && !old_round) {
		/*
		 * A cooperative rejoin reports what it still holds as owned;
		 * what the group lets it keep comes with no callback (what it
		 * must give up was revoked just before, as lost): the kept
		 * partitions are this incarnation's from its first assignment.
		 */
		kg_tp *all = xmalloc((size_t)(c->nstale + n + 1) * sizeof *all);
		int k = tp_intersect(c->stale, c->nstale, c->asg, c->nasg, all);
		if (n > 0)
			memcpy(all + k, v, (size_t)n * sizeof *all);
		obs_parts(o, all, k + n);
		free(all);
		free(c->stale);
		c->stale = NULL;
		c->nstale = 0;
	} else {
		obs_parts(o, v, n);
	}
	if (coop)
		asg_change(c, v, n, true);
	else
		set_asg(c, v, n);
	c->ever_assigned = true;
	if (old_round) {
		if (n > 0) { /* granted in a round it no longer belongs to: others' as well */
			kg_tp *st = xmalloc((size_t)(c->nstale + n) * sizeof *st);
			if (c->nstale > 0)
				memcpy(st, c->stale, (size_t)c->nstale * sizeof *st);
			memcpy(st + c->nstale, v, (size_t)n * sizeof *st);
			free(c->stale);
			c->stale = st;
			c->nstale = tp_sort_unique(st, c->nstale + n);
		}
		obs_free(o);
		return;
	}
	if (c->nstale > 0) {
		kg_tp *rest = xmalloc((size_t)c->nstale * sizeof *rest);
		c->nstale = tp_diff(c->stale, c->nstale, v, n, rest);
		free(c->stale);
		c->stale = rest;
	}
	c->synced = true;
	c->maxpoll_lost = false;
	c->static_return = false;
	emit_member(c, o);
}

/* A revoke (or lost) callback (locked): observe it, and what the consumer holds now. */
static void
rebalance_revoked(dcons *c, const kg_tp *v, int n, kg_proto proto, bool lost, bool closing, int64_t now)
{
	kg_obs *o = cobs(c, lost ? KG_OBS_LOST : KG_OBS_REVOKED, now);
	kg_tp *fresh = xmalloc(((size_t)n + 1) * sizeof *fresh);
	int nfresh = tp_diff(v, n, c->stale, c->nstale, fresh);
	if (!closing && c->phase != DC_CRASHED)
		dgroup_evict_check(c->g, c, now);
	if (nfresh < n && c->last_id != NULL) {
		/* partitions it held when it left the group: lost then, revoked only now */
		kg_tp *gone = xmalloc((size_t)n * sizeof *gone);
		int ngone = tp_diff(v, n, fresh, nfresh, gone);
		kg_obs *l = cobs(c, KG_OBS_LOST, now);
		kg_tp *rest = xmalloc(((size_t)c->nstale + 1) * sizeof *rest);
		l->proto = proto;
		l->reason = c->last_leave;
		obs_parts(l, gone, ngone);
		obs_text(l, "revoked after it had left the group");
		stamp(c, l, c->last_id);
		demo_push(c->d, l);
		c->nstale = tp_diff(c->stale, c->nstale, gone, ngone, rest);
		free(c->stale);
		c->stale = rest;
		free(gone);
	}
	o->proto = proto;
	obs_parts(o, fresh, nfresh);
	if (closing && !lost) {
		o->reason = KG_REASON_GRACEFUL; /* the member is leaving: it gives up everything */
		obs_text(o, "closing");
	}
	if (lost) {
		/* after a stall, poll first returns _MAX_POLL_EXCEEDED, then this callback */
		o->reason = c->maxpoll_lost ? KG_REASON_MAX_POLL : KG_REASON_UNKNOWN;
		obs_text(o, c->maxpoll_lost ? "partitions taken: kicked out for max.poll.interval.ms" : "partitions taken");
		c->maxpoll_lost = false;
	}
	if (incremental(proto))
		asg_change(c, v, n, false);
	else
		set_asg(c, NULL, 0);
	if (closing && !lost && c->instance_id[0])
		obs_free(o); /* a static member's partitions stay its instance's while it restarts */
	else if (nfresh == 0 && n > 0)
		obs_free(o); /* all of it was the previous incarnation's */
	else
		emit_departed(c, o);
	free(fresh);
}

/* Carry out the callback as librdkafka asks: eager (re)assigns all, cooperative adds or removes. */
static void
rebalance_apply(dcons *c, rd_kafka_t *rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts,
		bool coop)
{
	rd_kafka_error_t *e = NULL;
	rd_kafka_resp_err_t re = RD_KAFKA_RESP_ERR_NO_ERROR;
	if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
		if (coop)
			e = rd_kafka_incremental_assign(rk, parts);
		else
			re = rd_kafka_assign(rk, parts);
	} else if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS) {
		if (coop)
			e = rd_kafka_incremental_unassign(rk, parts);
		else
			re = rd_kafka_assign(rk, NULL);
	} else {
		re = rd_kafka_assign(rk, NULL);
	}
	if (e != NULL || re != RD_KAFKA_RESP_ERR_NO_ERROR) {
		pthread_mutex_lock(&c->d->lock);
		note_error(c, "assign", e ? rd_kafka_error_string(e) : rd_kafka_err2str(re));
		pthread_mutex_unlock(&c->d->lock);
		if (e != NULL)
			rd_kafka_error_destroy(e);
	}
}

/* The rebalance callback: observe exactly, then apply as librdkafka asks. */
static void
dcons_rebalance(rd_kafka_t *rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts, void *opaque)
{
	dcons *c = opaque;
	demo *d = c->d;
	kg_tp *v = NULL;
	int n = tps_from_list(parts, &v);
	bool closing, lost = false;
	kg_proto proto;
	int64_t now;

	pthread_mutex_lock(&d->lock);
	closing = c->closing;
	proto = c->proto != KG_PROTO_UNKNOWN ? c->proto : c->cfg_proto;
	pthread_mutex_unlock(&d->lock);
	if (!closing && c->cfg_proto != KG_PROTO_CONSUMER) {
		/* an op round trip to librdkafka's main thread: never during close (the consumer protocol's says COOPERATIVE) */
		const char *p = rd_kafka_rebalance_protocol(rk);
		if (p != NULL && strcmp(p, "COOPERATIVE") == 0)
			proto = KG_PROTO_COOPERATIVE;
		else if (p != NULL && strcmp(p, "EAGER") == 0)
			proto = KG_PROTO_EAGER;
	}
	if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS)
		lost = rd_kafka_assignment_lost(rk) != 0; /* a plain read, safe anywhere */

	if (log_enabled(KG_LOG_DEBUG)) {
		sbuf ps = { 0 };
		tp_format(&ps, v, n, false);
		log_msg(KG_LOG_DEBUG, "demo: %s/%s: rebalance callback: %s %s%s%s", c->g->name, c->client_id,
			err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS	? "assign"
			: err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS ? (lost ? "taken" : "revoke")
								     : rd_kafka_err2str(err),
			sbuf_str(&ps), proto == KG_PROTO_CONSUMER ? " (consumer protocol)"
					 : proto == KG_PROTO_COOPERATIVE ? " (cooperative)" : " (eager)",
			closing ? " while closing" : "");
		sbuf_free(&ps);
	}
	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	c->proto = proto;
	c->g->last_activity = now;
	if (proto == KG_PROTO_CONSUMER && !closing && c->phase != DC_CRASHED)
		dgroup_evict_check(c->g, c, now); /* no rejoin in this protocol: a peer's reconciliation is the sign */
	if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS)
		rebalance_assigned(c, v, n, proto, now);
	else if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS)
		rebalance_revoked(c, v, n, proto, lost, closing, now);
	else
		note_error(c, "rebalance", rd_kafka_err2str(err));
	pthread_mutex_unlock(&d->lock);
	demo_wake(d);
	/*
	 * Committing after processing: what was processed is committed before
	 * it is given up (seed 001: the revoke is the last chance).  A
	 * cooperative revoke comes after a completed round, when the
	 * coordinator takes commits.
	 */
	if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS && !lost && !closing && incremental(proto) &&
	    c->g->commit == DEMO_COMMIT_AFTER && n > 0) {
		rd_kafka_commit(rk, NULL, 0);
		pthread_mutex_lock(&d->lock);
		c->uncommitted = 0;
		pthread_mutex_unlock(&d->lock);
	}
	rebalance_apply(c, rk, err, parts, incremental(proto));
	free(v);
}

/* ------------------------------------------------------- commit semantics */

/*
 * Process one record (the demo's processing is counting it).  A record at
 * or below the highest offset any member of the group processed on its
 * partition is processed twice: the member resumed from a committed
 * offset behind what its predecessor had processed.  When the member
 * passes that point, the run is told (REPROCESSED).  With
 * DEMO_COMMIT_AFTER, a batch is committed once processed.
 */
static void
process_record(dcons *c, const rd_kafka_message_t *m)
{
	demo *d = c->d;
	dgroup *g = c->g;
	int p = m->partition;
	bool commit = false;
	if (g->commit == DEMO_COMMIT_DEMO || p < 0 || p >= d->npart || m->offset < 0)
		return;
	pthread_mutex_lock(&d->lock);
	if (g->hi[p] >= 0 && m->offset <= g->hi[p]) {
		if (g->dup_run[p] == 0)
			g->dup_from[p] = m->offset;
		g->dup_run[p]++;
		g->reprocessed++;
	} else {
		if (g->dup_run[p] > 0) {
			kg_obs *o = cobs(c, KG_OBS_REPROCESSED, util_now_us());
			kg_tp tp = { d->topic_id, p };
			char text[200];
			snprintf(text, sizeof text, "resumed from the committed offset %lld; %lld had been processed (%s)",
				 (long long)g->dup_from[p], (long long)g->hi[p], demo_commit_policy(g->commit));
			o->value = g->dup_run[p];
			obs_parts(o, &tp, 1);
			obs_text(o, text);
			emit_member(c, o);
			g->dup_run[p] = 0;
		}
		g->hi[p] = m->offset;
	}
	/*
	 * Not while this member rejoins or syncs: the coordinator refuses
	 * commits then (REBALANCE_IN_PROGRESS), and librdkafka answers a
	 * refused commit by rejoining, one more round (librdkafka's own
	 * auto-commit waits for the same): the batch is committed after.
	 */
	if (g->commit == DEMO_COMMIT_AFTER && ++c->uncommitted >= DEMO_COMMIT_BATCH && !c->join_out && !c->sync_out &&
	    c->synced) {
		c->uncommitted = 0;
		commit = true;
	}
	pthread_mutex_unlock(&d->lock);
	/*
	 * After processing: what was processed.  Asynchronous, so that a
	 * commit the coordinator refuses during a rebalance never holds the
	 * consumer's thread (the next batch's commit carries those offsets).
	 */
	if (commit)
		rd_kafka_commit(c->rk, NULL, 1);
}

/*
 * A crash is carried out now, or (committing after processing) once a
 * batch is under way: processed, not committed yet, the case the
 * scenario shows; bounded, in case no record comes (locked).
 */
static bool
crash_due(const dcons *c)
{
	return c->g->commit != DEMO_COMMIT_AFTER || c->uncommitted > 0 || util_mono_us() - c->crash_asked > 3000000;
}

/* ------------------------------------------------------------ the thread */

/* The consumer thread learned its member id (NULL or "" when it has none). */
static void
id_fetched(dcons *c, const char *id)
{
	demo *d = c->d;
	int64_t now;
	size_t i;
	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	if (id != NULL && *id != '\0') {
		if (c->listed && c->id != NULL && strcmp(c->id, id) != 0) {
			left(c, now, KG_REASON_UNKNOWN, "the coordinator gave this consumer a new member id");
			c->join_response = true;
		}
		if (!c->listed) {
			kg_obs *o = cobs(c, KG_OBS_JOINED, c->join_start > 0 ? c->join_start : now);
			free(c->id);
			c->id = xstrdup(id);
			c->listed = true;
			c->left_sent = false;
			o->reason = KG_REASON_JOINED;
			o->proto = cproto(c);
			stamp(c, o, c->id);
			demo_push(d, o);
			log_msg(KG_LOG_INFO, "demo: %s/%s: joined as member %s (first JoinGroup %.1fs ago)", c->g->name,
				c->client_id, c->id, c->join_start > 0 ? (double)(now - c->join_start) / 1e6 : 0.0);
			for (i = 0; i < c->held.n; i++) {
				stamp(c, c->held.v[i], c->id);
				demo_push(d, c->held.v[i]);
			}
			c->held.n = 0;
		}
	} else if (c->listed && !c->left_sent && c->phase == DC_STALLED) {
		/* dropped while not polling, without LeaveGroup: it missed a rebalance (no rejoin in time) */
		c->kicked = true;
		c->kicked_at = now;
		left(c, now, KG_REASON_MAX_POLL,
		     "removed by the coordinator: no rejoin within the rebalance timeout (max.poll.interval.ms)");
	} else if (c->listed && !c->left_sent) {
		left(c, now, KG_REASON_UNKNOWN, "member id reset: the coordinator no longer knows this member");
	}
	c->need_fetch = false;
	pthread_mutex_unlock(&d->lock);
	demo_wake(d);
}

/* Fetch the member id outside callbacks. */
static void
fetch_id(dcons *c)
{
	char *id = rd_kafka_memberid(c->rk);
	id_fetched(c, id);
	if (id != NULL)
		rd_kafka_mem_free(c->rk, id);
}

/* Cross-check the assignment the callbacks left with librdkafka's own. */
static void
check_assignment(dcons *c)
{
	rd_kafka_topic_partition_list_t *l = NULL;
	kg_tp *v = NULL;
	int n;
	if (rd_kafka_assignment(c->rk, &l) != RD_KAFKA_RESP_ERR_NO_ERROR || l == NULL)
		return;
	n = tps_from_list(l, &v);
	pthread_mutex_lock(&c->d->lock);
	c->last_check = util_now_us();
	if (!tp_equal(v, n, c->asg, c->nasg)) {
		c->mismatches++;
		snprintf(c->last_error, sizeof c->last_error,
			 "%s: librdkafka holds %d partitions, the callbacks said %d", c->client_id, n, c->nasg);
		set_asg(c, v, n);
	}
	pthread_mutex_unlock(&c->d->lock);
	free(v);
	rd_kafka_topic_partition_list_destroy(l);
}

/* After each poll: POLL observations, the member id, the assignment check. */
static void
after_poll(dcons *c)
{
	demo *d = c->d;
	int64_t now;
	bool fetch, check;
	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	c->prev_poll = c->last_poll;
	c->last_poll = now;
	fetch = c->need_fetch || c->held.n > 0;
	check = !fetch && c->listed && now - c->last_check >= CHECK_US;
	if (c->listed && now - c->last_poll_pub >= POLL_PUB_US) {
		if (c->prev_poll > c->last_poll_pub && now - c->prev_poll >= POLL_PUB_US)
			emit_member(c, cobs(c, KG_OBS_POLL, c->prev_poll)); /* the end of a gap */
		emit_member(c, cobs(c, KG_OBS_POLL, now));
		c->last_poll_pub = now;
	}
	pthread_mutex_unlock(&d->lock);
	if (fetch)
		fetch_id(c);
	if (check)
		check_assignment(c);
}

/*
 * librdkafka 2.0.2 (fixed in 2.3.0, issue #4312): a cooperative-sticky
 * consumer destroyed after a JoinGroup answer but before its first
 * assignment aborts the process (rd_kafka_sticky_assignor_state_destroy
 * asserts on a state that only the first assignment creates).  Keep polling
 * until it is safe, for at most us; false when it still is not (locked: no).
 */
static bool
sticky_safe(dcons *c, int64_t us)
{
	demo *d = c->d;
	int64_t end = util_mono_us() + us;
	bool unsafe;
	for (;;) {
		rd_kafka_message_t *m;
		pthread_mutex_lock(&d->lock);
		unsafe = c->cfg_proto == KG_PROTO_COOPERATIVE && !c->ever_assigned && (c->ever_joined || c->join_out);
		pthread_mutex_unlock(&d->lock);
		if (!unsafe || util_mono_us() >= end)
			return !unsafe;
		m = rd_kafka_consumer_poll(c->rk, POLL_MS);
		if (m != NULL)
			rd_kafka_message_destroy(m);
		after_poll(c);
	}
}

/* Leave the handle alive for good (see sticky_safe()). */
static void
leak(dcons *c)
{
	pthread_mutex_lock(&c->d->lock);
	c->leaked = true;
	snprintf(c->last_error, sizeof c->last_error,
		 "%s: never destroyed: it had no assignment yet (librdkafka 2.0.2 would abort)", c->client_id);
	log_msg(KG_LOG_INFO, "demo: %s/%s: left alive: it had no assignment yet (librdkafka 2.0.2 would abort)",
		c->g->name, c->client_id);
	if (c->listed)
		left(c, util_now_us(), KG_REASON_UNKNOWN, "closed before its first assignment");
	pthread_mutex_unlock(&c->d->lock);
}

/* The member stops consuming from its last poll: a crash or a stall, told at once (locked). */
static void
silent(dcons *c, kg_reason reason, const char *text)
{
	kg_obs *o;
	if (!c->listed)
		return;
	o = cobs(c, KG_OBS_SILENT, c->last_poll > 0 ? c->last_poll : util_now_us());
	o->reason = reason;
	obs_text(o, text);
	emit_member(c, o);
}

/* Crash: destroy without close, so no LeaveGroup and no more heartbeats. */
static void
crash_now(dcons *c)
{
	demo *d = c->d;
	pthread_mutex_lock(&d->lock);
	silent(c, KG_REASON_NONE, "crashed: no more polls, no more heartbeats");
	c->phase = DC_CRASHED;
	c->closing = true;
	c->crash_time = util_now_us();
	c->evict_pending = c->listed;
	snprintf(c->evict_text, sizeof c->evict_text,
		 "no heartbeat within session.timeout.ms (%d ms): the consumer crashed", d->session_ms);
	if (!c->listed)
		end_incarnation(c);
	pthread_mutex_unlock(&d->lock);
	if (!sticky_safe(c, STICKY_WAIT_US)) {
		leak(c);
		return;
	}
	rd_kafka_destroy_flags(c->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	c->rk = NULL;
	pthread_mutex_lock(&d->lock);
	c->join_out = c->sync_out = false;
	pthread_mutex_unlock(&d->lock);
	log_msg(KG_LOG_INFO, "demo: %s/%s: crashed (destroyed without close: no LeaveGroup, no more heartbeats)",
		c->g->name, c->client_id);
}

/* Leave: close (revoke callback, LeaveGroup) under a deadline, then destroy. */
static void
close_now(dcons *c)
{
	demo *d = c->d;
	rd_kafka_queue_t *q;
	rd_kafka_error_t *e;
	int64_t deadline;
	bool fetch, closed = false;

	if (!sticky_safe(c, d->stopping ? STICKY_WAIT_STOP_US : STICKY_WAIT_US)) {
		leak(c);
		return;
	}
	pthread_mutex_lock(&d->lock);
	fetch = c->need_fetch || c->held.n > 0;
	pthread_mutex_unlock(&d->lock);
	if (fetch)
		fetch_id(c); /* the last chance: callbacks during close must not ask */
	pthread_mutex_lock(&d->lock);
	c->phase = DC_LEAVING;
	c->closing = true;
	deadline = util_mono_us() + (!d->stopping ? LEAVE_CLOSE_US : d->real ? STOP_CLOSE_REAL_US : STOP_CLOSE_MOCK_US);
	pthread_mutex_unlock(&d->lock);

	q = rd_kafka_queue_new(c->rk);
	e = rd_kafka_consumer_close_queue(c->rk, q);
	if (e != NULL) {
		pthread_mutex_lock(&d->lock);
		note_error(c, "close", rd_kafka_error_string(e));
		pthread_mutex_unlock(&d->lock);
		rd_kafka_error_destroy(e);
	} else {
		/*
		 * The event API, not rd_kafka_queue_poll_callback(): the consumer
		 * queue is forwarded here, and a message fetched before the close
		 * would make the callback server abort (rdkafka_queue.c: res !=
		 * RD_KAFKA_OP_RES_PASS).  Rebalance events go to the same handler.
		 */
		while (!(closed = rd_kafka_consumer_closed(c->rk) != 0) && util_mono_us() < deadline) {
			rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 100);
			if (ev == NULL)
				continue;
			if (rd_kafka_event_type(ev) == RD_KAFKA_EVENT_REBALANCE)
				dcons_rebalance(c->rk, rd_kafka_event_error(ev), rd_kafka_event_topic_partition_list(ev), c);
			rd_kafka_event_destroy(ev);
		}
	}
	rd_kafka_queue_destroy(q);

	pthread_mutex_lock(&d->lock);
	if (c->listed) {
		int64_t now = util_now_us();
		if (c->instance_id[0]) {
			/* a static member sends no LeaveGroup: away until it returns or its session ends */
			left(c, now, KG_REASON_NONE, "closed (static member: no LeaveGroup)");
		} else {
			c->evict_pending = true;
			c->crash_time = now;
			snprintf(c->evict_text, sizeof c->evict_text, "%s without LeaveGroup: dropped after session.timeout.ms",
				 closed ? "closed" : "close timed out");
		}
	} else {
		end_incarnation(c);
	}
	pthread_mutex_unlock(&d->lock);
	/* said before the destroy, which librdkafka may hold past kgtop's end on the mock (then it is left behind) */
	log_msg(KG_LOG_INFO, "demo: %s/%s: %s", c->g->name, c->client_id,
		closed ? "closed" : "close timed out: destroyed without waiting for it");
	if (closed)
		rd_kafka_destroy(c->rk);
	else
		rd_kafka_destroy_flags(c->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	c->rk = NULL;
	pthread_mutex_lock(&d->lock);
	c->join_out = c->sync_out = false;
	pthread_mutex_unlock(&d->lock);
}

/* The consumer thread: poll until asked to stall, leave or crash. */
static void *
dcons_main(void *arg)
{
	dcons *c = arg;
	demo *d = c->d;
	bool crash = false;
	for (;;) {
		rd_kafka_message_t *m;
		pthread_mutex_lock(&d->lock);
		if (c->req_crash && crash_due(c)) {
			crash = true;
			pthread_mutex_unlock(&d->lock);
			break;
		}
		if (c->req_leave) {
			pthread_mutex_unlock(&d->lock);
			break;
		}
		if (c->phase == DC_STALLED) {
			if (c->req_resume) {
				log_msg(KG_LOG_INFO, "demo: %s/%s: polls again after %.1fs", c->g->name, c->client_id,
					c->stall_start > 0 ? (double)(util_now_us() - c->stall_start) / 1e6 : 0.0);
				c->req_resume = false;
				c->phase = DC_RUNNING;
				c->stall_start = 0;
				c->kicked = false;
				c->settled_seen = 0;
				pthread_mutex_unlock(&d->lock);
				demo_wake(d);
				continue;
			}
			if (c->stall_start == 0) {
				c->stall_start = c->last_poll > 0 ? c->last_poll : util_now_us();
				log_msg(KG_LOG_INFO, "demo: %s/%s: stops polling (max.poll.interval.ms %d)", c->g->name,
					c->client_id, d->max_poll_ms);
				if (c->listed && c->last_poll > c->last_poll_pub) {
					/* the exact last poll, so the gap is measured from it */
					emit_member(c, cobs(c, KG_OBS_POLL, c->last_poll));
					c->last_poll_pub = c->last_poll;
				}
				silent(c, KG_REASON_MAX_POLL, "stopped polling (heartbeats go on)");
			}
			if (c->listed && util_now_us() - c->stall_check >= STALL_CHECK_US) {
				/* not a poll: the group may drop us without a LeaveGroup (a missed rebalance) */
				c->stall_check = util_now_us();
				pthread_mutex_unlock(&d->lock);
				fetch_id(c);
				continue;
			}
			demo_timed_wait(d, 200000);
			pthread_mutex_unlock(&d->lock);
			continue;
		}
		pthread_mutex_unlock(&d->lock);
		m = rd_kafka_consumer_poll(c->rk, POLL_MS);
		if (m != NULL) {
			if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR && m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF &&
			    m->err != RD_KAFKA_RESP_ERR__MAX_POLL_EXCEEDED) {
				pthread_mutex_lock(&d->lock);
				note_error(c, "poll", rd_kafka_err2str(m->err));
				pthread_mutex_unlock(&d->lock);
			} else if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
				process_record(c, m);
			}
			rd_kafka_message_destroy(m);
		}
		after_poll(c);
	}
	if (crash)
		crash_now(c);
	else
		close_now(c);
	pthread_mutex_lock(&d->lock);
	c->thread_done = true;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
	demo_wake(d);
	return NULL;
}

/* ---------------------------------------------------------------- create */

/* Create and start a consumer. */
dcons *
dcons_start(demo *d, dgroup *g, int idx, const char *assignor, char *err, size_t errsz)
{
	dcons *c = xcalloc(1, sizeof *c);
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_topic_partition_list_t *sub;
	rd_kafka_resp_err_t se;
	char errstr[512];
	int k, rc;

	c->d = d;
	c->g = g;
	c->idx = idx;
	demo_client_id(idx, c->client_id, sizeof c->client_id);
	if (g->static_members)
		snprintf(c->instance_id, sizeof c->instance_id, "%s-%s", g->name, c->client_id + strlen("consumer-"));
	util_strlcpy(c->assignor, assignor, sizeof c->assignor);
	c->cfg_proto = demo_assignor_proto(assignor);
	c->proto = KG_PROTO_UNKNOWN;
	c->created_us = util_now_us();
	for (k = 0; k < API_N; k++) {
		c->last_resp_rtt[k] = -1;
		c->last_resp_broker[k] = -1;
	}
	rc = demo_consumer_conf(d, g, c, conf, err, errsz);
	if (rc == 0 && rd_kafka_conf_interceptor_add_on_new(conf, "kgtop-demo", ic_new, c) != RD_KAFKA_RESP_ERR_NO_ERROR)
		rc = util_err(err, errsz, "cannot add the demo's interceptors");
	if (rc < 0) {
		rd_kafka_conf_destroy(conf);
		free(c);
		return NULL;
	}
	rd_kafka_conf_set_log_cb(conf, dcons_log);
	rd_kafka_conf_set_error_cb(conf, dcons_error);
	rd_kafka_conf_set_rebalance_cb(conf, dcons_rebalance);
	rd_kafka_conf_set_opaque(conf, c);
	c->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
	if (c->rk == NULL) {
		rd_kafka_conf_destroy(conf);
		util_err(err, errsz, "%s: %s", c->client_id, errstr);
		free(c);
		return NULL;
	}
	rd_kafka_poll_set_consumer(c->rk);
	sub = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(sub, d->topic, RD_KAFKA_PARTITION_UA);
	se = rd_kafka_subscribe(c->rk, sub);
	rd_kafka_topic_partition_list_destroy(sub);
	if (se != RD_KAFKA_RESP_ERR_NO_ERROR) {
		util_err(err, errsz, "%s: subscribe: %s", c->client_id, rd_kafka_err2str(se));
		rd_kafka_destroy_flags(c->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
		free(c);
		return NULL;
	}
	pthread_mutex_lock(&d->lock);
	util_grow(&g->c, &g->cc, g->nc + 1, sizeof *g->c);
	g->c[g->nc++] = c;
	g->last_activity = util_now_us();
	pthread_mutex_unlock(&d->lock);
	if (pthread_create(&c->thread, NULL, dcons_main, c) != 0) {
		/* no thread: close it here and leave a finished record for the cleanup */
		rd_kafka_destroy_flags(c->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
		c->rk = NULL;
		pthread_mutex_lock(&d->lock);
		c->thread_done = true;
		pthread_mutex_unlock(&d->lock);
		util_err(err, errsz, "%s: cannot start its thread", c->client_id);
		return NULL;
	}
	c->thread_started = true;
	log_msg(KG_LOG_INFO, "demo: %s/%s: created (%s%s)", g->name, c->client_id, assignor,
		c->instance_id[0] ? ", static" : "");
	return c;
}

/*
 * kafka.c: the Kafka admin source (see kafka.h for what one refresh asks).
 *
 * One librdkafka consumer handle without group.id serves both the admin
 * API and the log-end query: it never subscribes, never joins a group and
 * never commits (enable.auto.commit=false as well).  Its refresh runs on a
 * worker thread of this source, because metadata and offsets_for_times
 * only exist as blocking calls in librdkafka 2.0.2: a slow cluster then
 * makes this source's data older without delaying the demo or the trace
 * streams that share the collector thread.  The worker publishes each
 * finished refresh as an immutable result under a mutex and wakes the
 * collector; contribute() adds the newest result to the snapshot together
 * with the source's health (ok, stale since T and why, or error).
 */
#include "config.h"

#include "sources/kafka.h"

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "model/intern.h"
#include "util/filter.h"
#include "util/util.h"

#define SLICE_MS 100

typedef struct kmember {
	char *member_id, *client_id, *host, *instance_id;
	kg_tp *asg;
	int nasg;
} kmember;

typedef struct kcommit {
	kg_tp tp;
	int64_t offset;
} kcommit;

typedef struct kgroup {
	int32_t id;
	kg_group_state state;
	bool described;
	bool simple;
	char *assignor;
	int32_t coordinator;
	char *error;
	kmember *m;
	int nm;
	kcommit *c;
	int nc;
	int32_t watch_topic; /* -1 unless watched */
} kgroup;

typedef struct ktopic {
	int32_t id;
	int np;
	int32_t *leader;
	int64_t *log_end;
} ktopic;

/* One finished refresh: immutable once published. */
typedef struct kresult {
	int64_t time_us;
	kg_broker *brokers;
	int nbrokers;
	ktopic *topics;
	int ntopics;
	kgroup *groups;
	int ngroups;
	bool no_group_apis;
} kresult;

typedef struct watch {
	char *group;
	char *topic;
} watch;

typedef struct ksrc {
	kg_kafka_config cfg;
	char *brokers;
	kg_kv *props;
	size_t nprops;
	kg_filter *groups;    /* -g / -G */
	kg_filter *topics;    /* -t */
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_bool stop;
	bool refresh_now;
	/* shared with the collector thread, under lock */
	kresult *result;      /* newest */
	bool fresh;           /* not yet reported by poll() */
	int completes;        /* refreshes finished since the last poll() */
	watch *watches;
	size_t nwatches;
	/* health */
	int64_t last_ok_us;
	int64_t ok_since_us;  /* the first answer after an error (or the first ever) */
	int64_t err_since_us;
	char *err_msg;        /* why the last refresh failed, NULL when it did not */
	char *note;           /* a detail shown while ok (e.g. no group APIs) */
	atomic_int cluster_err; /* last error code from error_cb */
	kg_source *self;
} ksrc;

/* ------------------------------------------------------------- results */

/* Free a group's contents. */
static void
kgroup_clear(kgroup *g)
{
	int i;
	for (i = 0; i < g->nm; i++) {
		free(g->m[i].member_id);
		free(g->m[i].client_id);
		free(g->m[i].host);
		free(g->m[i].instance_id);
		free(g->m[i].asg);
	}
	free(g->m);
	free(g->c);
	free(g->assignor);
	free(g->error);
}

/* Free a result. */
static void
kresult_free(kresult *r)
{
	int i;
	if (r == NULL)
		return;
	for (i = 0; i < r->nbrokers; i++)
		free((char *)r->brokers[i].host);
	free(r->brokers);
	for (i = 0; i < r->ntopics; i++) {
		free(r->topics[i].leader);
		free(r->topics[i].log_end);
	}
	free(r->topics);
	for (i = 0; i < r->ngroups; i++)
		kgroup_clear(&r->groups[i]);
	free(r->groups);
	free(r);
}

/* Find a topic of a result. */
static ktopic *
result_topic(kresult *r, int32_t id)
{
	int i;
	for (i = 0; i < r->ntopics; i++) {
		if (r->topics[i].id == id)
			return &r->topics[i];
	}
	return NULL;
}

/* ------------------------------------------------------------- helpers */

/* True when the topic passes -t. */
static bool
topic_selected(ksrc *k, const char *name)
{
	if (strncmp(name, "__", 2) == 0 && filter_empty(k->topics))
		return strcmp(name, "__consumer_offsets") != 0 && strcmp(name, "__transaction_state") != 0;
	return filter_match(k->topics, name);
}

/* A readable reason for an error code. */
static const char *
reason_of(rd_kafka_resp_err_t err)
{
	switch (err) {
	case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
		return "all brokers down";
	case RD_KAFKA_RESP_ERR__TRANSPORT:
		return "connection to a broker lost";
	case RD_KAFKA_RESP_ERR__SSL:
		return "TLS handshake failed";
	case RD_KAFKA_RESP_ERR__AUTHENTICATION:
	case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
		return "authentication failed";
	case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
	case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
	case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
		return "not authorized (kgtop needs Describe on the cluster, groups and topics)";
	case RD_KAFKA_RESP_ERR__TIMED_OUT:
	case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
		return "timeout";
	case RD_KAFKA_RESP_ERR__RESOLVE:
		return "cannot resolve the bootstrap servers";
	default:
		return NULL;
	}
}

/* True for a cluster-wide cause that waiting will not cure (no broker reachable, bad credentials). */
static bool
cluster_unreachable(rd_kafka_resp_err_t err)
{
	return err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || err == RD_KAFKA_RESP_ERR__RESOLVE ||
	       err == RD_KAFKA_RESP_ERR__AUTHENTICATION || err == RD_KAFKA_RESP_ERR__SSL ||
	       err == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED;
}

/* Compose "reason: detail" into a new string. */
static char *
describe_error(rd_kafka_resp_err_t err, const char *detail)
{
	const char *r = reason_of(err);
	if (r != NULL && detail != NULL && *detail)
		return xasprintf("%s (%s)", r, detail);
	if (r != NULL)
		return xstrdup(r);
	return xstrdup(detail && *detail ? detail : rd_kafka_err2str(err));
}

/* librdkafka's error callback: remember cluster-wide trouble. */
static void
on_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	ksrc *k = opaque;
	int prev = atomic_load(&k->cluster_err);
	(void)rk;
	/*
	 * Keep the specific cause (cannot resolve, authentication, TLS) over "all brokers down";
	 * both threads serve callbacks (the collector's poll, the worker's refresh): compare and swap.
	 */
	do {
		if (err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && prev != 0 && cluster_unreachable(prev))
			break;
	} while (!atomic_compare_exchange_weak(&k->cluster_err, &prev, err));
	log_msg(KG_LOG_INFO, "kafka: %s: %s", rd_kafka_err2name((rd_kafka_resp_err_t)err), reason);
}

/* librdkafka's log callback: into our log, never the terminal. */
static void
on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
	(void)rk;
	log_msg(level <= 6 ? KG_LOG_INFO : KG_LOG_DEBUG, "rdkafka %s: %s", fac, buf);
}

/* Wait for one admin result of type want, in slices that honour stop. */
static rd_kafka_event_t *
wait_event(ksrc *k, rd_kafka_event_type_t want, int64_t deadline_us)
{
	while (!atomic_load(&k->stop)) {
		int64_t left = (deadline_us - util_mono_us()) / 1000;
		rd_kafka_event_t *ev;
		if (left <= 0)
			return NULL;
		ev = rd_kafka_queue_poll(k->q, (int)(left < SLICE_MS ? left : SLICE_MS));
		if (ev == NULL)
			continue;
		if (rd_kafka_event_type(ev) == want)
			return ev;
		rd_kafka_event_destroy(ev); /* a late answer of an earlier refresh */
	}
	return NULL;
}

/* Admin options with the request timeout. */
static rd_kafka_AdminOptions_t *
admin_opts(ksrc *k, rd_kafka_admin_op_t op)
{
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(k->rk, op);
	char e[256];
	rd_kafka_AdminOptions_set_request_timeout(o, (int)(k->cfg.timeout_us / 1000), e, sizeof e);
	return o;
}

/* Find or add a group in a result. */
static kgroup *
result_group(kresult *r, int32_t id, size_t *cap)
{
	int i;
	kgroup *g;
	for (i = 0; i < r->ngroups; i++) {
		if (r->groups[i].id == id)
			return &r->groups[i];
	}
	util_grow(&r->groups, cap, (size_t)r->ngroups + 1, sizeof *r->groups);
	g = &r->groups[r->ngroups++];
	memset(g, 0, sizeof *g);
	g->id = id;
	g->coordinator = -1;
	g->watch_topic = -1;
	return g;
}

/* ------------------------------------------------------------ refresh */

/* Metadata: brokers and every topic's partitions and leaders. */
static int
refresh_metadata(ksrc *k, kresult *r, char **err)
{
	const struct rd_kafka_metadata *md = NULL;
	int timeout = (int)(k->cfg.timeout_us / 1000);
	rd_kafka_resp_err_t e;
	int i, j;
	if (timeout > 5000)
		timeout = 5000;
	e = rd_kafka_metadata(k->rk, 1, NULL, &md, timeout);
	if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
		rd_kafka_resp_err_t ce = (rd_kafka_resp_err_t)atomic_load(&k->cluster_err);
		*err = describe_error(reason_of(ce) ? ce : e, rd_kafka_err2str(e));
		return -1;
	}
	r->nbrokers = md->broker_cnt;
	r->brokers = xcalloc((size_t)(md->broker_cnt ? md->broker_cnt : 1), sizeof *r->brokers);
	for (i = 0; i < md->broker_cnt; i++) {
		r->brokers[i].id = md->brokers[i].id;
		r->brokers[i].host = xstrdup(md->brokers[i].host);
		r->brokers[i].port = md->brokers[i].port;
	}
	r->topics = xcalloc((size_t)(md->topic_cnt ? md->topic_cnt : 1), sizeof *r->topics);
	for (i = 0; i < md->topic_cnt; i++) {
		const struct rd_kafka_metadata_topic *t = &md->topics[i];
		ktopic *kt;
		if (t->err != RD_KAFKA_RESP_ERR_NO_ERROR || !topic_selected(k, t->topic))
			continue;
		kt = &r->topics[r->ntopics++];
		kt->id = intern_topic(t->topic);
		kt->np = t->partition_cnt;
		kt->leader = xcalloc((size_t)(t->partition_cnt ? t->partition_cnt : 1), sizeof *kt->leader);
		kt->log_end = xcalloc((size_t)(t->partition_cnt ? t->partition_cnt : 1), sizeof *kt->log_end);
		for (j = 0; j < t->partition_cnt; j++) {
			int p = t->partitions[j].id;
			if (p >= 0 && p < t->partition_cnt) {
				kt->leader[p] = t->partitions[j].leader;
				kt->log_end[p] = -1;
			}
		}
	}
	rd_kafka_metadata_destroy(md);
	return 0;
}

/* ListConsumerGroups; returns the selected group names, or sets *unsupported. */
static int
refresh_list(ksrc *k, char ***names, size_t *n, bool *unsupported, char **err)
{
	rd_kafka_AdminOptions_t *o = admin_opts(k, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS);
	rd_kafka_event_t *ev;
	const rd_kafka_ListConsumerGroups_result_t *res;
	const rd_kafka_ConsumerGroupListing_t **valid;
	const rd_kafka_error_t **errs;
	size_t nvalid = 0, nerrs = 0, i, cap = 0, unsup = 0;
	rd_kafka_ListConsumerGroups(k->rk, o, k->q);
	rd_kafka_AdminOptions_destroy(o);
	ev = wait_event(k, RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT, util_mono_us() + k->cfg.timeout_us + 1000000);
	if (ev == NULL) {
		*err = xstrdup("timeout listing groups");
		return -1;
	}
	if (rd_kafka_event_error(ev)) {
		*err = describe_error(rd_kafka_event_error(ev), rd_kafka_event_error_string(ev));
		rd_kafka_event_destroy(ev);
		return -1;
	}
	res = rd_kafka_event_ListConsumerGroups_result(ev);
	valid = rd_kafka_ListConsumerGroups_result_valid(res, &nvalid);
	errs = rd_kafka_ListConsumerGroups_result_errors(res, &nerrs);
	for (i = 0; i < nerrs; i++) {
		if (rd_kafka_error_code(errs[i]) == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE)
			unsup++;
	}
	if (nvalid == 0 && nerrs > 0 && unsup == nerrs) {
		*unsupported = true;
		rd_kafka_event_destroy(ev);
		return 0;
	}
	if (nvalid == 0 && nerrs > 0) {
		*err = describe_error(rd_kafka_error_code(errs[0]), rd_kafka_error_string(errs[0]));
		rd_kafka_event_destroy(ev);
		return -1;
	}
	for (i = 0; i < nvalid; i++) {
		const char *id = rd_kafka_ConsumerGroupListing_group_id(valid[i]);
		if (!filter_match(k->groups, id))
			continue;
		util_grow(names, &cap, *n + 1, sizeof **names);
		(*names)[(*n)++] = xstrdup(id);
	}
	if (nerrs > 0)
		log_msg(KG_LOG_INFO, "kafka: listing groups: %zu broker(s) answered with an error: %s", nerrs,
			rd_kafka_error_string(errs[0]));
	rd_kafka_event_destroy(ev);
	return 0;
}

/* Map librdkafka's group state. */
static kg_group_state
map_state(rd_kafka_consumer_group_state_t st)
{
	switch (st) {
	case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE: return KG_STATE_PREPARING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE: return KG_STATE_COMPLETING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE: return KG_STATE_STABLE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD: return KG_STATE_DEAD;
	case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY: return KG_STATE_EMPTY;
	default: return KG_STATE_UNKNOWN;
	}
}

/* Copy a partition list into a sorted set (filtered by -t). */
static kg_tp *
copy_parts(ksrc *k, const rd_kafka_topic_partition_list_t *l, int *n)
{
	kg_tp *v;
	int i;
	*n = 0;
	if (l == NULL || l->cnt == 0)
		return NULL;
	v = xmalloc((size_t)l->cnt * sizeof *v);
	for (i = 0; i < l->cnt; i++) {
		if (!topic_selected(k, l->elems[i].topic))
			continue;
		v[*n].topic = intern_topic(l->elems[i].topic);
		v[*n].partition = l->elems[i].partition;
		(*n)++;
	}
	*n = tp_sort_unique(v, *n);
	return v;
}

/*
 * A group whose describe failed this time (the coordinator loading or
 * moving, a transient authorization error) keeps its last good description,
 * marked with the error: its members did not leave.  The worker is the only
 * writer of k->result, so reading it here needs no lock.
 */
static void
keep_last_description(ksrc *k, kgroup *g)
{
	kresult *old = k->result;
	int i, j;
	for (i = 0; old != NULL && i < old->ngroups; i++) {
		const kgroup *o = &old->groups[i];
		if (o->id != g->id || !o->described || o->m == NULL)
			continue;
		g->state = o->state;
		g->simple = o->simple;
		g->assignor = xstrdup(o->assignor);
		g->coordinator = o->coordinator;
		g->m = xcalloc((size_t)(o->nm ? o->nm : 1), sizeof *g->m);
		for (j = 0; j < o->nm; j++) {
			kmember *d = &g->m[g->nm++];
			d->member_id = xstrdup(o->m[j].member_id);
			d->client_id = xstrdup(o->m[j].client_id);
			d->host = xstrdup(o->m[j].host);
			d->instance_id = xstrdup(o->m[j].instance_id);
			d->asg = tp_dup(o->m[j].asg, o->m[j].nasg);
			d->nasg = d->asg ? o->m[j].nasg : 0;
		}
		return;
	}
}

/* DescribeConsumerGroups for every selected group in one call. */
static int
refresh_describe(ksrc *k, kresult *r, char **names, size_t n, size_t *gcap, char **err)
{
	rd_kafka_AdminOptions_t *o;
	rd_kafka_event_t *ev;
	const rd_kafka_ConsumerGroupDescription_t **d;
	size_t nd = 0, i;
	if (n == 0)
		return 0;
	o = admin_opts(k, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
	rd_kafka_DescribeConsumerGroups(k->rk, (const char **)names, n, o, k->q);
	rd_kafka_AdminOptions_destroy(o);
	ev = wait_event(k, RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT, util_mono_us() + k->cfg.timeout_us + 2000000);
	if (ev == NULL) {
		*err = xstrdup("timeout describing groups");
		return -1;
	}
	if (rd_kafka_event_error(ev)) {
		*err = describe_error(rd_kafka_event_error(ev), rd_kafka_event_error_string(ev));
		rd_kafka_event_destroy(ev);
		return -1;
	}
	d = rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &nd);
	for (i = 0; i < nd; i++) {
		const rd_kafka_error_t *ge = rd_kafka_ConsumerGroupDescription_error(d[i]);
		kgroup *g = result_group(r, intern_group(rd_kafka_ConsumerGroupDescription_group_id(d[i])), gcap);
		const rd_kafka_Node_t *coord;
		int j, nm;
		g->described = true;
		if (ge != NULL) {
			g->error = describe_error(rd_kafka_error_code(ge), rd_kafka_error_string(ge));
			keep_last_description(k, g);
			continue;
		}
		g->state = map_state(rd_kafka_ConsumerGroupDescription_state(d[i]));
		g->simple = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d[i]);
		g->assignor = xstrdup(rd_kafka_ConsumerGroupDescription_partition_assignor(d[i]));
		coord = rd_kafka_ConsumerGroupDescription_coordinator(d[i]);
		g->coordinator = coord ? rd_kafka_Node_id(coord) : -1;
		nm = (int)rd_kafka_ConsumerGroupDescription_member_count(d[i]);
		g->m = xcalloc((size_t)(nm ? nm : 1), sizeof *g->m);
		for (j = 0; j < nm; j++) {
			const rd_kafka_MemberDescription_t *md = rd_kafka_ConsumerGroupDescription_member(d[i], (size_t)j);
			const rd_kafka_MemberAssignment_t *ma = rd_kafka_MemberDescription_assignment(md);
			kmember *m = &g->m[g->nm++];
			m->member_id = xstrdup(rd_kafka_MemberDescription_consumer_id(md));
			m->client_id = xstrdup(rd_kafka_MemberDescription_client_id(md));
			m->host = xstrdup(rd_kafka_MemberDescription_host(md));
			m->instance_id = xstrdup(rd_kafka_MemberDescription_group_instance_id(md));
			m->asg = copy_parts(k, ma ? rd_kafka_MemberAssignment_partitions(ma) : NULL, &m->nasg);
		}
	}
	rd_kafka_event_destroy(ev);
	return 0;
}

/* The explicit partitions to ask a group's offsets for, NULL for "all" (the usual form). */
static rd_kafka_topic_partition_list_t *
offsets_request(kresult *r, const kgroup *g, bool retry)
{
	rd_kafka_topic_partition_list_t *parts;
	int32_t *seen = NULL;
	size_t nseen = 0, cseen = 0, q;
	int i, a, p;
	if (g->watch_topic >= 0) {
		/* the mock answers nothing for "all partitions": ask for them explicitly */
		ktopic *t = result_topic(r, g->watch_topic);
		if (t == NULL)
			return NULL;
		parts = rd_kafka_topic_partition_list_new(t->np);
		for (p = 0; p < t->np; p++)
			rd_kafka_topic_partition_list_add(parts, intern_topic_name(t->id), p);
		return parts;
	}
	if (!retry)
		return NULL;
	/* every partition of every topic its members are assigned */
	parts = rd_kafka_topic_partition_list_new(16);
	for (i = 0; i < g->nm; i++) {
		for (a = 0; a < g->m[i].nasg; a++) {
			int32_t tid = g->m[i].asg[a].topic;
			ktopic *t;
			for (q = 0; q < nseen && seen[q] != tid; q++)
				;
			if (q < nseen || (t = result_topic(r, tid)) == NULL)
				continue;
			util_grow(&seen, &cseen, nseen + 1, sizeof *seen);
			seen[nseen++] = tid;
			for (p = 0; p < t->np; p++)
				rd_kafka_topic_partition_list_add(parts, intern_topic_name(tid), p);
		}
	}
	free(seen);
	return parts;
}

/* True when a group's "all partitions" answer came back empty although its members hold partitions. */
static bool
offsets_need_retry(const kgroup *g)
{
	int i;
	if (g->error != NULL || g->nc > 0 || g->watch_topic >= 0)
		return false;
	for (i = 0; i < g->nm; i++) {
		if (g->m[i].nasg > 0)
			return true;
	}
	return false;
}

/*
 * One pass of ListConsumerGroupOffsets, one request per group (2.0.2 takes
 * one group per request), all in flight together.  In the retry pass only
 * the groups whose "all partitions" answer was empty are asked again with
 * explicit partitions: against brokers older than 2.4, librdkafka 2.0.2
 * sends "all" as an empty list and gets nothing back.
 */
static int
offsets_pass(ksrc *k, kresult *r, const int *gidx, size_t ngidx, bool retry, char **err)
{
	size_t i, sent = 0, got = 0;
	int64_t deadline;
	for (i = 0; i < (size_t)r->ngroups; i++) {
		kgroup *g = &r->groups[i];
		rd_kafka_topic_partition_list_t *parts;
		rd_kafka_ListConsumerGroupOffsets_t *req;
		rd_kafka_AdminOptions_t *o;
		if (g->error != NULL || (retry && !offsets_need_retry(g)))
			continue;
		parts = offsets_request(r, g, retry);
		if ((g->watch_topic >= 0 || retry) && (parts == NULL || parts->cnt == 0)) {
			if (parts != NULL)
				rd_kafka_topic_partition_list_destroy(parts);
			continue;
		}
		req = rd_kafka_ListConsumerGroupOffsets_new(intern_group_name(g->id), parts);
		o = admin_opts(k, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
		rd_kafka_ListConsumerGroupOffsets(k->rk, &req, 1, o, k->q);
		rd_kafka_AdminOptions_destroy(o);
		rd_kafka_ListConsumerGroupOffsets_destroy(req);
		if (parts != NULL)
			rd_kafka_topic_partition_list_destroy(parts);
		sent++;
	}
	deadline = util_mono_us() + k->cfg.timeout_us + 2000000;
	while (got < sent) {
		rd_kafka_event_t *ev = wait_event(k, RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT, deadline);
		const rd_kafka_group_result_t **gr;
		size_t ngr = 0, j;
		if (ev == NULL) {
			*err = xasprintf("timeout fetching committed offsets (%zu of %zu groups answered)", got, sent);
			return -1;
		}
		got++;
		if (rd_kafka_event_error(ev)) {
			log_msg(KG_LOG_INFO, "kafka: offsets: %s", rd_kafka_event_error_string(ev));
			rd_kafka_event_destroy(ev);
			continue;
		}
		gr = rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &ngr);
		for (j = 0; j < ngr; j++) {
			const rd_kafka_error_t *ge = rd_kafka_group_result_error(gr[j]);
			const rd_kafka_topic_partition_list_t *l = rd_kafka_group_result_partitions(gr[j]);
			int32_t gid = intern_group_find(rd_kafka_group_result_name(gr[j]));
			kgroup *g = gid >= 0 && (size_t)gid < ngidx && gidx[gid] >= 0 ? &r->groups[gidx[gid]] : NULL;
			int q;
			if (g == NULL)
				continue;
			if (ge != NULL) {
				if (g->error == NULL)
					g->error = describe_error(rd_kafka_error_code(ge), rd_kafka_error_string(ge));
				continue;
			}
			if (l == NULL)
				continue;
			free(g->c);
			g->c = xcalloc((size_t)(l->cnt ? l->cnt : 1), sizeof *g->c);
			g->nc = 0;
			for (q = 0; q < l->cnt; q++) {
				if (l->elems[q].err != RD_KAFKA_RESP_ERR_NO_ERROR || !topic_selected(k, l->elems[q].topic) ||
				    l->elems[q].offset < 0)
					continue;
				g->c[g->nc].tp.topic = intern_topic(l->elems[q].topic);
				g->c[g->nc].tp.partition = l->elems[q].partition;
				g->c[g->nc].offset = l->elems[q].offset;
				g->nc++;
			}
		}
		rd_kafka_event_destroy(ev);
	}
	return 0;
}

/* Committed offsets of every group (then again, explicitly, for the answers that came back empty). */
static int
refresh_offsets(ksrc *k, kresult *r, char **err)
{
	size_t i, ngidx = 0;
	int *gidx = NULL; /* group id -> index in r->groups */
	int rc;
	for (i = 0; i < (size_t)r->ngroups; i++) {
		size_t id = (size_t)r->groups[i].id;
		if (id >= ngidx) {
			size_t n = ngidx ? ngidx : 64, old = ngidx;
			while (n <= id)
				n *= 2;
			gidx = xreallocarray(gidx, n, sizeof *gidx);
			for (; old < n; old++)
				gidx[old] = -1;
			ngidx = n;
		}
		gidx[id] = (int)i;
	}
	rc = offsets_pass(k, r, gidx, ngidx, false, err);
	if (rc == 0)
		rc = offsets_pass(k, r, gidx, ngidx, true, err);
	free(gidx);
	return rc;
}

/* One leader's share of the log-end query. */
typedef struct leader_job {
	ksrc *k;
	int32_t leader;
	rd_kafka_topic_partition_list_t *l;
	rd_kafka_resp_err_t err;
	int timeout_ms;
	pthread_t thread;
	bool started;
} leader_job;

/* Query one leader's partitions (runs on its own thread). */
static void *
leader_query(void *arg)
{
	leader_job *j = arg;
	j->err = rd_kafka_offsets_for_times(j->k->rk, j->l, j->timeout_ms);
	return NULL;
}

/*
 * Log-end offsets of every partition of the topics in use: one ListOffsets
 * per leader.  librdkafka 2.0.2 merges the answer of offsets_for_times()
 * with a linear search per partition (quadratic in the list's size), so
 * the query is split by leader, which it would be on the wire anyway, and
 * the leaders are asked concurrently: still one request per leader, and
 * 20,000 partitions cost a fraction of one big call.
 */
static int
refresh_log_end(ksrc *k, kresult *r, char **err)
{
	bool *used = xcalloc((size_t)(r->ntopics ? r->ntopics : 1), sizeof *used);
	leader_job *jobs = NULL;
	int njobs = 0, i, j, q, timeout = (int)(k->cfg.timeout_us / 1000), rc = 0;
	size_t cap = 0;
	int32_t *tid = NULL; /* topic id -> index in r->topics */
	size_t ntid = 0;
	if (timeout > 5000)
		timeout = 5000;
	for (j = 0; j < r->ntopics; j++) {
		if ((size_t)r->topics[j].id >= ntid) {
			size_t n = ntid ? ntid : 64, old = ntid;
			while (n <= (size_t)r->topics[j].id)
				n *= 2;
			tid = xreallocarray(tid, n, sizeof *tid);
			for (; old < n; old++)
				tid[old] = -1;
			ntid = n;
		}
		tid[r->topics[j].id] = j;
	}
#define TOPIC_INDEX(t) ((size_t)(t) < ntid ? tid[(t)] : -1)
	for (i = 0; i < r->ngroups; i++) {
		kgroup *g = &r->groups[i];
		int x = g->watch_topic >= 0 ? TOPIC_INDEX(g->watch_topic) : -1;
		if (x >= 0)
			used[x] = true;
		for (q = 0; q < g->nc; q++) {
			x = TOPIC_INDEX(g->c[q].tp.topic);
			if (x >= 0)
				used[x] = true;
		}
		for (q = 0; q < g->nm; q++) {
			int a;
			for (a = 0; a < g->m[q].nasg; a++) {
				x = TOPIC_INDEX(g->m[q].asg[a].topic);
				if (x >= 0)
					used[x] = true;
			}
		}
	}
	for (j = 0; j < r->ntopics; j++) {
		if (!used[j])
			continue;
		for (q = 0; q < r->topics[j].np; q++) {
			int32_t leader = r->topics[j].leader[q];
			leader_job *job = NULL;
			int b;
			for (b = 0; b < njobs; b++) {
				if (jobs[b].leader == leader)
					job = &jobs[b];
			}
			if (job == NULL) {
				util_grow(&jobs, &cap, (size_t)njobs + 1, sizeof *jobs);
				job = &jobs[njobs++];
				memset(job, 0, sizeof *job);
				job->k = k;
				job->leader = leader;
				job->timeout_ms = timeout;
				job->l = rd_kafka_topic_partition_list_new(256);
			}
			rd_kafka_topic_partition_list_add(job->l, intern_topic_name(r->topics[j].id), q)->offset =
				RD_KAFKA_OFFSET_END;
		}
	}
	free(used);
	for (i = 0; i < njobs; i++) {
		if (njobs > 1 && i < 16 && pthread_create(&jobs[i].thread, NULL, leader_query, &jobs[i]) == 0)
			jobs[i].started = true;
		else
			leader_query(&jobs[i]);
	}
	for (i = 0; i < njobs; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
	}
	for (i = 0; i < njobs; i++) {
		rd_kafka_topic_partition_list_t *l = jobs[i].l;
		if (jobs[i].err != RD_KAFKA_RESP_ERR_NO_ERROR && rc == 0) {
			*err = describe_error(jobs[i].err, "log-end offsets");
			rc = -1;
		}
		for (q = 0; q < l->cnt; q++) {
			int x = TOPIC_INDEX(intern_topic(l->elems[q].topic));
			int p = l->elems[q].partition;
			if (x >= 0 && p >= 0 && p < r->topics[x].np && l->elems[q].err == RD_KAFKA_RESP_ERR_NO_ERROR)
				r->topics[x].log_end[p] = l->elems[q].offset;
		}
		rd_kafka_topic_partition_list_destroy(l);
	}
#undef TOPIC_INDEX
	free(jobs);
	free(tid);
	return rc;
}

/* One full refresh. */
static kresult *
refresh(ksrc *k, char **err)
{
	kresult *r = xcalloc(1, sizeof *r);
	char **names = NULL;
	size_t nnames = 0, i, gcap = 0;
	bool unsupported = false;
	int64_t t0 = util_mono_us();

	int64_t t1, t2, t3, t4, t5;
	r->time_us = util_now_us();
	/* librdkafka says "all brokers down" once, when it happens: what it said since the last
	   answer stays (a success forgets it) */
	rd_kafka_poll(k->rk, 0);
	if (refresh_metadata(k, r, err) < 0)
		goto fail;
	t1 = util_mono_us();
	if (refresh_list(k, &names, &nnames, &unsupported, err) < 0)
		goto fail;
	t2 = util_mono_us();
	r->no_group_apis = unsupported;
	/* never DescribeConsumerGroups where listing is unsupported: it hangs 2.0.2's admin handle */
	if (!unsupported && refresh_describe(k, r, names, nnames, &gcap, err) < 0)
		goto fail;
	t3 = util_mono_us();
	pthread_mutex_lock(&k->lock);
	for (i = 0; i < k->nwatches; i++) {
		kgroup *g = result_group(r, intern_group(k->watches[i].group), &gcap);
		g->watch_topic = intern_topic(k->watches[i].topic);
	}
	pthread_mutex_unlock(&k->lock);
	if (refresh_offsets(k, r, err) < 0)
		goto fail;
	t4 = util_mono_us();
	if (refresh_log_end(k, r, err) < 0)
		goto fail;
	t5 = util_mono_us();
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	log_msg(KG_LOG_DEBUG,
		"kafka: refresh of %d groups, %d topics in %.1f ms (metadata %.1f, list %.1f, describe %.1f, "
		"offsets %.1f, log-end %.1f)",
		r->ngroups, r->ntopics, (double)(util_mono_us() - t0) / 1000.0, (double)(t1 - t0) / 1000.0,
		(double)(t2 - t1) / 1000.0, (double)(t3 - t2) / 1000.0, (double)(t4 - t3) / 1000.0,
		(double)(t5 - t4) / 1000.0);
	return r;
fail:
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	kresult_free(r);
	return NULL;
}

/* The worker: refresh every interval (or when asked), publish, wake the collector. */
static void *
worker(void *arg)
{
	ksrc *k = arg;
	while (!atomic_load(&k->stop)) {
		char *err = NULL;
		int64_t started = util_mono_us();
		kresult *r = refresh(k, &err);
		int64_t next;
		pthread_mutex_lock(&k->lock);
		if (r != NULL) {
			if (k->result == NULL || k->err_msg != NULL)
				k->ok_since_us = r->time_us;
			atomic_store(&k->cluster_err, 0);
			kresult_free(k->result);
			k->result = r;
			k->last_ok_us = r->time_us;
			free(k->err_msg);
			k->err_msg = NULL;
			k->err_since_us = 0;
			free(k->note);
			k->note = r->no_group_apis
					  ? xstrdup("the cluster cannot list or describe groups (a mock cluster?): "
						    "following watched groups by their offsets")
					  : NULL;
		} else if (!atomic_load(&k->stop)) {
			if (k->err_msg == NULL)
				k->err_since_us = util_now_us();
			free(k->err_msg);
			k->err_msg = err;
			err = NULL;
			log_msg(KG_LOG_INFO, "kafka: refresh failed: %s", k->err_msg);
		}
		k->fresh = true;
		k->completes += r != NULL;
		free(err);
		/* under the lock: a close that let this thread go has taken self away */
		if (k->self != NULL && k->self->ctx.wake != NULL)
			k->self->ctx.wake(k->self->ctx.wake_arg);
		pthread_mutex_unlock(&k->lock);
		/* wait for the next refresh (sooner after a failure, to recover quickly) */
		next = started + (r != NULL ? k->cfg.interval_us : KG_MIN(k->cfg.interval_us, 2000000));
		pthread_mutex_lock(&k->lock);
		while (!atomic_load(&k->stop) && !k->refresh_now && util_mono_us() < next) {
			struct timespec ts;
			int64_t left = next - util_mono_us();
			clock_gettime(CLOCK_REALTIME, &ts);
			if (left > 200000)
				left = 200000;
			ts.tv_nsec += (long)(left % 1000000) * 1000;
			ts.tv_sec += (time_t)(left / 1000000) + ts.tv_nsec / 1000000000;
			ts.tv_nsec %= 1000000000;
			pthread_cond_timedwait(&k->cond, &k->lock, &ts);
		}
		k->refresh_now = false;
		pthread_mutex_unlock(&k->lock);
	}
	return NULL;
}

/* ------------------------------------------------------------ source ops */

/* Start the worker (on the collector thread, once the collector wired our wake-up). */
static void
kafka_start(ksrc *k)
{
	if (!k->started && pthread_create(&k->thread, NULL, worker, k) == 0)
		k->started = true;
}

/* Report news when the worker published. */
static int
kafka_poll(kg_source *s, int64_t now_us)
{
	ksrc *k = s->impl;
	int flags = 0;
	rd_kafka_resp_err_t ce;
	(void)now_us;
	kafka_start(k);
	/* librdkafka's error callbacks (no broker reachable, TLS, SASL) are served here, while a
	   refresh may still be blocked waiting for an answer that cannot come */
	if (k->rk != NULL)
		rd_kafka_poll(k->rk, 0);
	ce = (rd_kafka_resp_err_t)atomic_load(&k->cluster_err);
	pthread_mutex_lock(&k->lock);
	if (k->fresh)
		flags |= KG_SRC_NEWS;
	if (k->completes > 0)
		flags |= KG_SRC_COMPLETE;
	if (k->result == NULL && ce != 0 && cluster_unreachable(ce))
		flags |= KG_SRC_FAILED;
	k->fresh = false;
	k->completes = 0;
	pthread_mutex_unlock(&k->lock);
	return flags;
}

/* Add the newest result and the health. */
static void
kafka_contribute(kg_source *s, kg_builder *b)
{
	ksrc *k = s->impl;
	kg_source_health h;
	kresult *r;
	int i, j, q;
	int64_t now = builder_time(b);
	char msg[512];

	pthread_mutex_lock(&k->lock);
	r = k->result;
	memset(&h, 0, sizeof h);
	h.name = s->name;
	h.last_ok_us = k->last_ok_us;
	if (k->err_msg != NULL && r == NULL) {
		h.status = KG_SRC_ERROR;
		h.since_us = k->err_since_us;
		h.message = k->err_msg;
	} else if (k->err_msg != NULL) {
		h.status = KG_SRC_STALE;
		h.since_us = k->last_ok_us;
		h.message = k->err_msg;
	} else if (r == NULL) {
		rd_kafka_resp_err_t ce = (rd_kafka_resp_err_t)atomic_load(&k->cluster_err);
		/* no answer yet: a cause librdkafka already reported, else still connecting */
		h.status = ce != 0 ? KG_SRC_ERROR : KG_SRC_CONNECTING;
		if (ce != 0) {
			snprintf(msg, sizeof msg, "%s: %s", k->brokers,
				 reason_of(ce) ? reason_of(ce) : rd_kafka_err2str(ce));
		} else {
			snprintf(msg, sizeof msg, "connecting to %s", k->brokers);
		}
		h.message = msg;
	} else if (now - k->last_ok_us > 3 * k->cfg.interval_us + k->cfg.timeout_us) {
		h.status = KG_SRC_STALE;
		h.since_us = k->last_ok_us;
		h.message = "no answer from the cluster";
	} else {
		h.status = KG_SRC_OK;
		h.since_us = k->ok_since_us;
		h.message = k->note;
	}
	builder_source(b, &h);
	if (r == NULL) {
		pthread_mutex_unlock(&k->lock);
		return;
	}
	for (i = 0; i < r->nbrokers; i++)
		builder_broker(b, r->brokers[i].id, r->brokers[i].host, r->brokers[i].port);
	for (i = 0; i < r->ntopics; i++) {
		ktopic *t = &r->topics[i];
		builder_topic(b, t->id, t->np);
		for (j = 0; j < t->np; j++)
			builder_partition(b, (kg_tp){ t->id, j }, t->leader[j], t->log_end[j]);
	}
	for (i = 0; i < r->ngroups; i++) {
		kgroup *g = &r->groups[i];
		kg_bgroup *bg = builder_group(b, g->id);
		if (g->watch_topic >= 0)
			bgroup_topic(bg, g->watch_topic);
		if (g->error != NULL)
			bgroup_error(bg, g->error);
		for (q = 0; q < g->nc; q++)
			bgroup_committed(bg, g->c[q].tp, g->c[q].offset);
		if (!g->described)
			continue;
		bgroup_state(bg, g->state);
		bgroup_protocol(bg, g->simple ? "" : "consumer", g->assignor ? g->assignor : "");
		bgroup_simple(bg, g->simple);
		bgroup_coordinator(bg, g->coordinator);
		for (j = 0; j < g->nm; j++) {
			kmember *m = &g->m[j];
			kg_bmember *bm = bgroup_member(bg, m->member_id);
			bmember_ids(bm, m->client_id, m->host, m->instance_id);
			bmember_assignment(bm, m->asg, m->nasg);
		}
	}
	pthread_mutex_unlock(&k->lock);
}

/* The next refresh is the worker's business: only wake-ups matter here. */
static int64_t
kafka_next_poll(kg_source *s)
{
	(void)s;
	return 0;
}

/* Commands: "refresh". */
static int
kafka_command(kg_source *s, const char *cmd, char *err, size_t errsz)
{
	ksrc *k = s->impl;
	(void)err;
	(void)errsz;
	if (strcmp(cmd, "refresh") == 0) {
		pthread_mutex_lock(&k->lock);
		k->refresh_now = true;
		pthread_cond_signal(&k->cond);
		pthread_mutex_unlock(&k->lock);
	}
	return 0;
}

/* Stop the worker and free everything. */
static void
kafka_close(kg_source *s)
{
	ksrc *k = s->impl;
	size_t i;
	if (k == NULL)
		return;
	atomic_store(&k->stop, true);
	pthread_mutex_lock(&k->lock);
	pthread_cond_signal(&k->cond);
	pthread_mutex_unlock(&k->lock);
	if (k->started) {
		/*
		 * The worker may sit in a blocking librdkafka call against a dead
		 * cluster (up to 5 s): give it a second, then let it go and leave
		 * its handle alone; the process is on its way out.
		 */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		if (pthread_timedjoin_np(k->thread, NULL, &ts) != 0) {
			pthread_mutex_lock(&k->lock);
			k->self = NULL; /* the worker must not wake a collector that is going away */
			pthread_mutex_unlock(&k->lock);
			pthread_detach(k->thread);
			log_msg(KG_LOG_INFO, "kafka: the refresh in progress is abandoned at exit");
			s->impl = NULL;
			return;
		}
	}
	if (k->q != NULL)
		rd_kafka_queue_destroy(k->q);
	if (k->rk != NULL)
		rd_kafka_destroy_flags(k->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	kresult_free(k->result);
	filter_free(k->groups);
	filter_free(k->topics);
	for (i = 0; i < k->nwatches; i++) {
		free(k->watches[i].group);
		free(k->watches[i].topic);
	}
	free(k->watches);
	for (i = 0; i < k->nprops; i++) {
		free(k->props[i].key);
		free(k->props[i].value);
	}
	free(k->props);
	free(k->brokers);
	free(k->err_msg);
	free(k->note);
	pthread_mutex_destroy(&k->lock);
	pthread_cond_destroy(&k->cond);
	free(k);
	s->impl = NULL;
}

static const kg_source_ops kafka_ops = {
	.kind = "kafka",
	.role = KG_ROLE_CLUSTER,
	.poll = kafka_poll,
	.drain = NULL,
	.contribute = kafka_contribute,
	.next_poll = kafka_next_poll,
	.command = kafka_command,
	.close = kafka_close,
};

/* Set one librdkafka property. */
static int
set_prop_at(rd_kafka_conf_t *conf, const char *key, const char *value, const char *origin, char *err, size_t errsz)
{
	char e[512];
	if (rd_kafka_conf_set(conf, key, value, e, sizeof e) != RD_KAFKA_CONF_OK) {
		if (origin != NULL)
			return util_err(err, errsz, "%s: %s: %s", origin, key, e);
		return util_err(err, errsz, "-X %s: %s", key, e);
	}
	return 0;
}

/* Set one property kgtop chooses. */
static int
set_prop(rd_kafka_conf_t *conf, const char *key, const char *value, char *err, size_t errsz)
{
	return set_prop_at(conf, key, value, NULL, err, errsz);
}

/* Create the source. */
int
kafka_source_new(const kg_kafka_config *cfg, kg_source **out, char *err, size_t errsz)
{
	ksrc *k = xcalloc(1, sizeof *k);
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char e[512];
	size_t i;
	kg_source *s;
	static const char *const forbidden[] = { "group.id", "group.instance.id", "enable.auto.commit",
						 "isolation.level" };

	*out = NULL;
	k->cfg = *cfg;
	if (k->cfg.interval_us <= 0)
		k->cfg.interval_us = 1000000;
	if (k->cfg.timeout_us <= 0)
		k->cfg.timeout_us = 10LL * 1000000;
	k->brokers = xstrdup(cfg->brokers ? cfg->brokers : "");
	pthread_mutex_init(&k->lock, NULL);
	pthread_cond_init(&k->cond, NULL);
#define LIST(l) (l) ? (const char *const *)(l)->v : NULL, (l) ? (l)->n : 0
	if (filter_new(LIST(cfg->include), LIST(cfg->exclude), &k->groups, err, errsz) < 0 ||
	    filter_new(LIST(cfg->topics), NULL, 0, &k->topics, err, errsz) < 0)
		goto fail;
#undef LIST
	k->props = xcalloc(cfg->nprops ? cfg->nprops : 1, sizeof *k->props);
	for (i = 0; i < cfg->nprops; i++) {
		size_t f;
		for (f = 0; f < KG_ARRAY_LEN(forbidden); f++) {
			if (strcmp(cfg->props[i].key, forbidden[f]) == 0) {
				util_err(err, errsz, "%s%s%s: kgtop is read-only and sets this itself",
					 cfg->props[i].origin ? cfg->props[i].origin : "-X", cfg->props[i].origin ? ": " : " ",
					 cfg->props[i].key);
				goto fail;
			}
		}
		k->props[i].key = xstrdup(cfg->props[i].key);
		k->props[i].value = xstrdup(cfg->props[i].value);
		k->nprops++;
		if (set_prop_at(conf, cfg->props[i].key, cfg->props[i].value, cfg->props[i].origin, err, errsz) < 0)
			goto fail;
	}
	k->cfg.props = NULL;
	k->cfg.include = k->cfg.exclude = k->cfg.topics = NULL;
	k->cfg.brokers = k->brokers;
	if (set_prop(conf, "bootstrap.servers", k->brokers, err, errsz) < 0 ||
	    set_prop(conf, "enable.auto.commit", "false", err, errsz) < 0 ||
	    set_prop(conf, "isolation.level", "read_uncommitted", err, errsz) < 0 ||
	    set_prop(conf, "client.id", "kgtop", err, errsz) < 0)
		goto fail;
	rd_kafka_conf_set_error_cb(conf, on_error);
	rd_kafka_conf_set_log_cb(conf, on_log);
	rd_kafka_conf_set_opaque(conf, k);
	k->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, e, sizeof e);
	if (k->rk == NULL) {
		util_err(err, errsz, "librdkafka: %s", e);
		goto fail_noconf;
	}
	conf = NULL;
	k->q = rd_kafka_queue_new(k->rk);
	s = source_new(&kafka_ops, "kafka", k);
	k->self = s;
	*out = s;
	return 0;
fail:
	rd_kafka_conf_destroy(conf);
fail_noconf:
	{
		kg_source tmp = { .impl = k };
		kafka_close(&tmp);
	}
	return -1;
}

/* Follow a group by its offsets. */
void
kafka_source_watch(kg_source *s, const char *group, const char *topic)
{
	ksrc *k = s->impl;
	size_t i;
	pthread_mutex_lock(&k->lock);
	for (i = 0; i < k->nwatches; i++) {
		if (strcmp(k->watches[i].group, group) == 0) {
			free(k->watches[i].topic);
			k->watches[i].topic = xstrdup(topic);
			pthread_mutex_unlock(&k->lock);
			return;
		}
	}
	k->watches = xreallocarray(k->watches, k->nwatches + 1, sizeof *k->watches);
	k->watches[k->nwatches].group = xstrdup(group);
	k->watches[k->nwatches].topic = xstrdup(topic);
	k->nwatches++;
	k->refresh_now = true;
	pthread_cond_signal(&k->cond);
	pthread_mutex_unlock(&k->lock);
}

/* Stop following a group. */
void
kafka_source_unwatch(kg_source *s, const char *group)
{
	ksrc *k = s->impl;
	size_t i;
	pthread_mutex_lock(&k->lock);
	for (i = 0; i < k->nwatches; i++) {
		if (strcmp(k->watches[i].group, group) == 0) {
			free(k->watches[i].group);
			free(k->watches[i].topic);
			k->watches[i] = k->watches[--k->nwatches];
			break;
		}
	}
	pthread_mutex_unlock(&k->lock);
}

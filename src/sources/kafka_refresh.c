/*
 * kafka_refresh.c: one refresh of the kafka source, on its worker thread
 * (see kafka.h for what it asks, kafka.c for the thread).
 *
 * Metadata first (brokers, topics, leaders; -t applies), then
 * ListConsumerGroups (-g / -G apply), DescribeConsumerGroups for every
 * selected group in one call (never where listing is unsupported: it hangs
 * 2.0.2's admin handle), committed offsets for every group (and the groups
 * registered with kafka_source_watch()), and the log-end offsets of every
 * partition of the topics in use, split per leader.  Every admin answer is
 * waited for in slices that honour the source's stop flag.  The result is
 * new and whole, or there is none and *err says why.
 */
#include "config.h"

#include "sources/kafka_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "model/intern.h"
#include "util/filter.h"
#include "util/util.h"

#define SLICE_MS 100

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
void
kafka_result_free(kresult *r)
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

/* True when the topic passes -t. */
static bool
topic_selected(ksrc *k, const char *name)
{
	if (strncmp(name, "__", 2) == 0 && filter_empty(k->topics))
		return strcmp(name, "__consumer_offsets") != 0 && strcmp(name, "__transaction_state") != 0;
	return filter_match(k->topics, name);
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
		*err = kafka_describe_error(kafka_err_reason(ce) ? ce : e, rd_kafka_err2str(e));
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
		*err = kafka_describe_error(rd_kafka_event_error(ev), rd_kafka_event_error_string(ev));
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
		*err = kafka_describe_error(rd_kafka_error_code(errs[0]), rd_kafka_error_string(errs[0]));
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
		*err = kafka_describe_error(rd_kafka_event_error(ev), rd_kafka_event_error_string(ev));
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
			g->error = kafka_describe_error(rd_kafka_error_code(ge), rd_kafka_error_string(ge));
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
					g->error = kafka_describe_error(rd_kafka_error_code(ge), rd_kafka_error_string(ge));
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
			*err = kafka_describe_error(jobs[i].err, "log-end offsets");
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
kresult *
kafka_refresh(ksrc *k, char **err)
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
	kafka_result_free(r);
	return NULL;
}

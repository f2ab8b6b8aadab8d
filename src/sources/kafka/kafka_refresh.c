/*
 * kafka_refresh.c: one refresh of the kafka source, on its worker thread
 * (see kafka.h for what it asks, kafka.c for the thread, kafka_groups.c
 * for the groups).
 *
 * Metadata first (brokers, topics, leaders; -t applies), then
 * ListConsumerGroups (-g / -G apply; each group's state where the broker
 * gives it), then the scheduler's plan (kafka_sched.h): which groups to
 * describe and whose committed offsets to ask this time, then the log-end
 * offsets of every partition of the topics the known groups use, per leader
 * in calls of at most KG_KAFKA_LOG_END_CHUNK partitions (librdkafka 2.0.2
 * looks every answer up in the whole request list, so one call costs the
 * square of its size), the leaders asked concurrently.  Every admin answer
 * is waited for in slices that honour the source's stop flag.  The result
 * is new and whole, or there is none and *err says why.
 */
#include "config.h"

#include "sources/kafka/kafka_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/defaults.h"
#include "model/intern.h"
#include "util/filter.h"
#include "util/log.h"
#include "util/util.h"

#define SLICE_MS 100

/* ------------------------------------------------------------- results */

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
		free(r->topics[i].log_start);
		free(r->topics[i].stamp);
	}
	free(r->topics);
	for (i = 0; i < r->ngroups; i++)
		kafka_group_clear(&r->groups[i]);
	free(r->groups);
	free(r->log_end_note);
	free(r);
}

/* Find a topic of a result. */
ktopic *
kafka_result_topic(kresult *r, int32_t id)
{
	int i;
	for (i = 0; i < r->ntopics; i++) {
		if (r->topics[i].id == id)
			return &r->topics[i];
	}
	return NULL;
}

/* True when the topic passes -t. */
bool
kafka_topic_selected(ksrc *k, const char *name)
{
	if (strncmp(name, "__", 2) == 0 && filter_empty(k->topics))
		return strcmp(name, "__consumer_offsets") != 0 && strcmp(name, "__transaction_state") != 0;
	return filter_match(k->topics, name);
}

/* Wait for one admin result of type want (0: any), in slices that honour stop. */
rd_kafka_event_t *
kafka_wait_event(ksrc *k, rd_kafka_event_type_t want, int64_t deadline_us)
{
	while (!atomic_load(&k->stop)) {
		int64_t left = (deadline_us - util_mono_us()) / 1000;
		rd_kafka_event_t *ev;
		if (left <= 0)
			return NULL;
		ev = rd_kafka_queue_poll(k->q, (int)(left < SLICE_MS ? left : SLICE_MS));
		if (ev == NULL)
			continue;
		if (want == 0 || rd_kafka_event_type(ev) == want)
			return ev;
		rd_kafka_event_destroy(ev); /* a late answer of an earlier refresh */
	}
	return NULL;
}

/* Admin options with the request timeout. */
rd_kafka_AdminOptions_t *
kafka_admin_opts(ksrc *k, rd_kafka_admin_op_t op)
{
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(k->rk, op);
	char e[256];
	rd_kafka_AdminOptions_set_request_timeout(o, (int)(k->cfg.timeout_us / 1000), e, sizeof e);
	return o;
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
		/* librdkafka's own words for why (refused, cannot resolve, TLS, SASL) say more than a timeout */
		*err = kafka_cluster_reason(k);
		if (*err == NULL)
			*err = kafka_describe_error(e, rd_kafka_err2str(e));
		return -1;
	}
	r->answer_us = util_now_us();
	kafka_cluster_answered(k);
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
		/* the count of __consumer_offsets names each group's coordinator partition, listed or not */
		if (t->err == RD_KAFKA_RESP_ERR_NO_ERROR && strcmp(t->topic, "__consumer_offsets") == 0)
			r->offsets_np = t->partition_cnt;
		if (t->err != RD_KAFKA_RESP_ERR_NO_ERROR || !kafka_topic_selected(k, t->topic))
			continue;
		kt = &r->topics[r->ntopics++];
		kt->id = intern_topic(t->topic);
		kt->np = t->partition_cnt;
		kt->leader = xcalloc((size_t)(t->partition_cnt ? t->partition_cnt : 1), sizeof *kt->leader);
		kt->log_end = xcalloc((size_t)(t->partition_cnt ? t->partition_cnt : 1), sizeof *kt->log_end);
		kt->log_start = xcalloc((size_t)(t->partition_cnt ? t->partition_cnt : 1), sizeof *kt->log_start);
		for (j = 0; j < t->partition_cnt; j++) {
			int p = t->partitions[j].id;
			if (p >= 0 && p < t->partition_cnt) {
				kt->leader[p] = t->partitions[j].leader;
				kt->log_end[p] = -1;
				kt->log_start[p] = -1;
			}
		}
	}
	rd_kafka_metadata_destroy(md);
	return 0;
}

/* Put what the listing says into the table: which groups exist, and their states where the broker says. */
static void
list_take(ksrc *k, const rd_kafka_ConsumerGroupListing_t **valid, size_t nvalid, bool partial)
{
	size_t i;
	for (i = 0; i < k->tab.n; i++)
		k->tab.e[i].listed_now = partial; /* a broker that did not answer: its groups stay */
	for (i = 0; i < nvalid; i++) {
		const char *id = rd_kafka_ConsumerGroupListing_group_id(valid[i]);
		kentry *e;
		if (!filter_match(k->groups, id))
			continue;
		e = kafka_table_add(&k->tab, intern_group(id));
		e->listed_now = true;
		e->s.listed = kafka_map_state(rd_kafka_ConsumerGroupListing_state(valid[i]));
		e->simple = rd_kafka_ConsumerGroupListing_is_simple_consumer_group(valid[i]);
	}
	kafka_table_prune(&k->tab);
}

/* ListConsumerGroups into the table, or sets *unsupported. */
static int
refresh_list(ksrc *k, bool *unsupported, char **err)
{
	rd_kafka_AdminOptions_t *o = kafka_admin_opts(k, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS);
	rd_kafka_event_t *ev;
	const rd_kafka_ListConsumerGroups_result_t *res;
	const rd_kafka_ConsumerGroupListing_t **valid;
	const rd_kafka_error_t **errs;
	size_t nvalid = 0, nerrs = 0, i, unsup = 0;
	rd_kafka_ListConsumerGroups(k->rk, o, k->q);
	rd_kafka_AdminOptions_destroy(o);
	ev = kafka_wait_event(k, RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT, util_mono_us() + k->cfg.timeout_us + 1000000);
	if (ev == NULL) {
		*err = kafka_cluster_reason(k);
		if (*err == NULL)
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
		list_take(k, NULL, 0, false);
		rd_kafka_event_destroy(ev);
		return 0;
	}
	if (nvalid == 0 && nerrs > 0) {
		*err = kafka_describe_error(rd_kafka_error_code(errs[0]), rd_kafka_error_string(errs[0]));
		rd_kafka_event_destroy(ev);
		return -1;
	}
	if (nerrs > 0)
		log_msg(KG_LOG_INFO, "kafka: listing groups: %zu broker(s) answered with an error: %s", nerrs,
			rd_kafka_error_string(errs[0]));
	list_take(k, valid, nvalid, nerrs > 0);
	rd_kafka_event_destroy(ev);
	return 0;
}

/* The watched groups and what the collector said about the screen, as the scheduler's flags. */
static void
refresh_flags(ksrc *k)
{
	size_t i;
	for (i = 0; i < k->tab.n; i++)
		k->tab.e[i].s.flags = 0;
	pthread_mutex_lock(&k->lock);
	for (i = 0; i < k->nwatches; i++) {
		kentry *e = kafka_table_add(&k->tab, intern_group(k->watches[i].group));
		e->watch_topic = intern_topic(k->watches[i].topic);
		e->s.flags |= KSCHED_WATCHED;
	}
	for (i = 0; i < k->focus.nshown; i++) {
		kentry *e = kafka_table_get(&k->tab, k->focus.shown[i]);
		if (e != NULL)
			e->s.flags |= KSCHED_FOCUS;
	}
	for (i = 0; i < k->focus.nhot; i++) {
		kentry *e = kafka_table_get(&k->tab, k->focus.hot[i]);
		if (e != NULL)
			e->s.flags |= KSCHED_HOT;
	}
	k->focus.nhot = 0;
	if (k->focus.selected >= 0) {
		kentry *e = kafka_table_get(&k->tab, k->focus.selected);
		if (e != NULL)
			e->s.flags |= KSCHED_SELECTED;
	}
	kafka_sched_paced(&k->sched, k->focus.screen);
	pthread_mutex_unlock(&k->lock);
}

/* The scheduler's plan for this refresh, marked on the table. */
static void
refresh_plan(ksrc *k, kresult *r, int fixed_cost)
{
	ksched_group *g = xmalloc((k->tab.n ? k->tab.n : 1) * sizeof *g);
	size_t i;
	for (i = 0; i < k->tab.n; i++)
		g[i] = k->tab.e[i].s;
	r->plan = kafka_sched_plan(&k->sched, g, k->tab.n, r->time_us, fixed_cost);
	for (i = 0; i < k->tab.n; i++) {
		k->tab.e[i].s.describe = g[i].describe;
		k->tab.e[i].s.offsets = g[i].offsets;
	}
	free(g);
}

/*
 * One leader's share of the log-end and log-start queries, in calls of at
 * most KG_KAFKA_LOG_END_CHUNK partitions, each call one of the two (a
 * ListOffsets request may not name a partition twice).
 */
typedef struct leader_job {
	ksrc *k;
	int32_t leader;
	rd_kafka_topic_partition_list_t **chunk;
	bool *start;     /* chunk i asks the log start (RD_KAFKA_OFFSET_BEGINNING), else the log end */
	int nchunk;
	size_t cchunk, cstart;
	int cur[2];      /* the chunk being filled of each kind (end, start), -1 none */
	rd_kafka_resp_err_t err;
	int failed;      /* calls that failed */
	int timeout_ms;
	pthread_t thread;
	bool started;
} leader_job;

/* Query one leader's partitions, a chunk per call (runs on its own thread). */
static void *
leader_query(void *arg)
{
	leader_job *j = arg;
	int i;
	for (i = 0; i < j->nchunk && !atomic_load(&j->k->stop); i++) {
		rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(j->k->rk, j->chunk[i], j->timeout_ms);
		if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
			j->err = e;
			j->failed++;
		}
	}
	return NULL;
}

/* Add a partition to its leader's job: its log end, or (start) its log start. */
static void
job_add(leader_job **jobs, int *njobs, size_t *cap, ksrc *k, int32_t leader, const char *topic, int p, int timeout,
	bool start)
{
	leader_job *job = NULL;
	int b, *cur;
	for (b = 0; b < *njobs && job == NULL; b++) {
		if ((*jobs)[b].leader == leader)
			job = &(*jobs)[b];
	}
	if (job == NULL) {
		util_grow(jobs, cap, (size_t)*njobs + 1, sizeof **jobs);
		job = &(*jobs)[(*njobs)++];
		memset(job, 0, sizeof *job);
		job->k = k;
		job->leader = leader;
		job->timeout_ms = timeout;
		job->cur[0] = job->cur[1] = -1;
	}
	cur = &job->cur[start ? 1 : 0];
	if (*cur < 0 || job->chunk[*cur]->cnt >= KG_KAFKA_LOG_END_CHUNK) {
		util_grow(&job->chunk, &job->cchunk, (size_t)job->nchunk + 1, sizeof *job->chunk);
		util_grow(&job->start, &job->cstart, (size_t)job->nchunk + 1, sizeof *job->start);
		job->start[job->nchunk] = start;
		job->chunk[job->nchunk] = rd_kafka_topic_partition_list_new(KG_KAFKA_LOG_END_CHUNK);
		*cur = job->nchunk++;
	}
	rd_kafka_topic_partition_list_add(job->chunk[*cur], topic, p)->offset =
		start ? RD_KAFKA_OFFSET_BEGINNING : RD_KAFKA_OFFSET_END;
}

/* Mark the topics the known groups use (their offsets, their members' assignments, watched topics). */
static bool *
used_topics(ksrc *k, kresult *r, const int32_t *tid, size_t ntid)
{
	bool *used = xcalloc((size_t)(r->ntopics ? r->ntopics : 1), sizeof *used);
	size_t i;
	int q, a;
#define MARK(t)                                                      \
	do {                                                         \
		if ((t) >= 0 && (size_t)(t) < ntid && tid[(t)] >= 0) \
			used[tid[(t)]] = true;                       \
	} while (0)
	for (i = 0; i < k->tab.n; i++) {
		const kentry *e = &k->tab.e[i];
		MARK(e->watch_topic);
		for (q = 0; e->offs != NULL && q < e->offs->nc; q++)
			MARK(e->offs->c[q].tp.topic);
		for (q = 0; e->desc != NULL && q < e->desc->nm; q++) {
			for (a = 0; a < e->desc->m[q].nasg; a++)
				MARK(e->desc->m[q].asg[a].topic);
		}
	}
#undef MARK
	return used;
}

/* Put each job's answers into the result's topics; the calls made. */
static int
log_end_take(kresult *r, leader_job *jobs, int njobs, const int32_t *tid, size_t ntid)
{
	int i, c, q, calls = 0;
	for (i = 0; i < njobs; i++) {
		for (c = 0; c < jobs[i].nchunk; c++) {
			rd_kafka_topic_partition_list_t *l = jobs[i].chunk[c];
			for (q = 0; q < l->cnt; q++) {
				int32_t t = intern_topic(l->elems[q].topic);
				int x = (size_t)t < ntid ? tid[t] : -1, p = l->elems[q].partition;
				if (x < 0 || p < 0 || p >= r->topics[x].np || l->elems[q].err != RD_KAFKA_RESP_ERR_NO_ERROR)
					continue;
				if (jobs[i].start[c])
					r->topics[x].log_start[p] = l->elems[q].offset;
				else
					r->topics[x].log_end[p] = l->elems[q].offset;
			}
			rd_kafka_topic_partition_list_destroy(l);
			calls++;
			r->log_start_calls += jobs[i].start[c];
		}
		free(jobs[i].chunk);
		free(jobs[i].start);
	}
	return calls;
}

/*
 * Log-end and log-start offsets of every partition of the topics in use:
 * per leader, in calls of at most KG_KAFKA_LOG_END_CHUNK partitions (one
 * ListOffsets each, LATEST or EARLIEST), the leaders asked concurrently,
 * each leader's calls one after the other.  A leader that does not answer
 * leaves its partitions' offsets unknown (said in *note); when none
 * answers the refresh fails.
 */
static int
refresh_log_end(ksrc *k, kresult *r, char **err, char **note)
{
	leader_job *jobs = NULL;
	int njobs = 0, i, j, q, timeout = (int)(k->cfg.timeout_us / 1000), nfailed = 0;
	size_t cap = 0, ntid = 0;
	int32_t *tid = NULL; /* topic id -> index in r->topics */
	bool *used;
	rd_kafka_resp_err_t e = RD_KAFKA_RESP_ERR_NO_ERROR;
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
	used = used_topics(k, r, tid, ntid);
	for (j = 0; j < r->ntopics; j++) {
		for (q = 0; used[j] && q < r->topics[j].np; q++) {
			if (r->topics[j].leader[q] < 0)
				continue;
			job_add(&jobs, &njobs, &cap, k, r->topics[j].leader[q], intern_topic_name(r->topics[j].id), q,
				timeout, false);
			job_add(&jobs, &njobs, &cap, k, r->topics[j].leader[q], intern_topic_name(r->topics[j].id), q,
				timeout, true);
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
		if (jobs[i].failed > 0) {
			nfailed++;
			e = jobs[i].err;
		}
	}
	k->log_end_calls = log_end_take(r, jobs, njobs, tid, ntid);
	r->requests += k->log_end_calls;
	free(jobs);
	free(tid);
	if (nfailed > 0 && nfailed == njobs) {
		*err = kafka_cluster_reason(k);
		if (*err == NULL)
			*err = kafka_describe_error(e, "log-end offsets");
		return -1;
	}
	if (nfailed > 0)
		*note = xasprintf("log-end offsets unknown on %d of %d leaders: %s", nfailed, njobs, rd_kafka_err2str(e));
	return 0;
}

/* CPU time of the whole process so far (every thread), for the debug log. */
static int64_t
process_cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One refresh: what the plan asks, and the log-end offsets of every topic in use. */
kresult *
kafka_refresh(ksrc *k, char **err)
{
	kresult *r = xcalloc(1, sizeof *r);
	bool unsupported = false;
	char *note = NULL;
	int64_t t0 = util_mono_us(), t1, t2, t3, c0 = process_cpu_us();

	r->time_us = util_now_us();
	/* librdkafka's error callbacks since the last answer (a success forgets them) */
	rd_kafka_poll(k->rk, 0);
	if (refresh_metadata(k, r, err) < 0)
		goto fail;
	r->requests = 1;
	t1 = util_mono_us();
	if (refresh_list(k, &unsupported, err) < 0)
		goto fail;
	r->requests += r->nbrokers;
	r->no_group_apis = unsupported;
	refresh_flags(k);
	refresh_plan(k, r, 1 + r->nbrokers + k->log_end_calls);
	t2 = util_mono_us();
	if (kafka_groups_ask(k, r, err) < 0)
		goto fail;
	t3 = util_mono_us();
	if (refresh_log_end(k, r, err, &note) < 0)
		goto fail;
	kafka_groups_publish(k, r, r->time_us);
	kafka_stamps_read(k, r);
	r->log_end_note = note;
	log_msg(KG_LOG_DEBUG,
		"kafka: refresh of %d groups (%d described, %d offsets), %d topics, about %d requests (%d log-start, "
		"%d records read) in %.1f ms (metadata %.1f, list %.1f, groups %.1f, log-end, log-start and reads %.1f), "
		"process CPU %.1f ms",
		r->ngroups, r->plan.describe, r->plan.offsets, r->ntopics, r->requests, r->log_start_calls, r->stamp_reads,
		(double)(util_mono_us() - t0) / 1000.0, (double)(t1 - t0) / 1000.0, (double)(t2 - t1) / 1000.0,
		(double)(t3 - t2) / 1000.0, (double)(util_mono_us() - t3) / 1000.0,
		(double)(process_cpu_us() - c0) / 1000.0);
	return r;
fail:
	free(note);
	kafka_result_free(r);
	return NULL;
}

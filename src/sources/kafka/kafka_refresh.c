/*
 * kafka_refresh.c: one refresh of the kafka source, on its worker thread
 * (see kafka.h for what it asks, kafka.c for the thread).
 *
 * The order of a refresh: metadata (brokers, topics, leaders; -t applies;
 * the kept one unless due, metadata_due()),
 * the listing into the group table (kafka_requests.c), the flags the
 * scheduler decides on (watched groups, and what the collector said the
 * screen shows), the scheduler's plan (kafka_sched.h: which groups to
 * describe and whose committed offsets to ask this time), the plan's
 * requests, the log-end and log-start offsets of the topics in use, the
 * table published into the result (kafka_table.h), and the records read
 * at committed offsets (kafka_stamp.c).  The result is new and whole, or
 * there is none and *err says why.
 */
#include "config.h"

#include "sources/kafka/kafka_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/defaults.h"
#include "model/intern.h"
#include "sources/kafka/kafka_errors.h"
#include "sources/kafka/kafka_logend.h"
#include "sources/kafka/kafka_requests.h"
#include "sources/kafka/kafka_stamp.h"
#include "sources/kafka/kafka_table.h"
#include "util/log.h"
#include "util/util.h"

/*
 * True when this refresh asks the metadata anew, rather than taking the
 * kept one: none kept, --once, KG_KAFKA_METADATA_US since it was asked, a
 * client handle made since, or the refresh before saw what it may not know
 * (k->md_due: a failed refresh, a group listed anew, gone or in another
 * state, a broker silent in the listing, a coordinator moved, offsets or
 * an assignment on a topic or partition it has not, a log end unread on a
 * partition with a leader or one without a leader).  At rest that is one
 * Metadata request every 10 s where it was one a refresh: brokers, topics,
 * partitions and leaders change by steps that the refresh after them sees
 * (a topic is consumed by a group that rebalances or commits to it, a
 * leader that moved answers no log end), or within 10 s.
 */
static bool
metadata_due(const ksrc *k, int64_t now)
{
	return k->md == NULL || k->cfg.once || k->md_due || now - k->md_us >= KG_KAFKA_METADATA_US ||
	       (k->renewed_us > 0 && k->renewed_us >= k->md_us);
}

/* Metadata: brokers and every topic's partitions and leaders; *coord the leaders of __consumer_offsets (malloc'd). */
static int
refresh_metadata(ksrc *k, kresult *r, int32_t **coord, char **err)
{
	const struct rd_kafka_metadata *md = NULL;
	int timeout = (int)(k->cfg.timeout_us / 1000);
	rd_kafka_resp_err_t e;
	int64_t now = util_mono_us(), *offs;
	int32_t *lead;
	size_t nparts = 0;
	int i, j;
	if (timeout > 5000)
		timeout = 5000;
	if (metadata_due(k, now)) {
		e = rd_kafka_metadata(k->rk, 1, NULL, &md, timeout);
		if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
			/* librdkafka's own words for why (refused, cannot resolve, TLS, SASL) say more than a timeout */
			*err = kafka_cluster_reason(&k->errs);
			if (*err == NULL)
				*err = kafka_describe_error(e, rd_kafka_err2str(e));
			return -1;
		}
		r->answer_us = util_now_us();
		kafka_cluster_answered(&k->errs);
		if (k->md != NULL)
			rd_kafka_metadata_destroy(k->md);
		k->md = md;
		k->md_us = now;
		k->md_due = false;
		k->nmd_lacks = 0; /* what this one lacks is found again (metadata_check()) */
		r->requests = 1;
	}
	md = k->md;
	r->nbrokers = md->broker_cnt;
	r->brokers = xcalloc((size_t)(md->broker_cnt ? md->broker_cnt : 1), sizeof *r->brokers);
	for (i = 0; i < md->broker_cnt; i++) {
		r->brokers[i].id = md->brokers[i].id;
		r->brokers[i].host = xstrdup(md->brokers[i].host);
		r->brokers[i].port = md->brokers[i].port;
	}
	r->topics = xcalloc((size_t)(md->topic_cnt ? md->topic_cnt : 1), sizeof *r->topics);
	/* the topics' partitions in one block, not three a topic: at rest on 100 topics their 300
	 * small allocations and frees a refresh were a seventh of the worker's CPU (malloc_consolidate) */
	for (i = 0; i < md->topic_cnt; i++)
		nparts += (size_t)md->topics[i].partition_cnt;
	offs = xmalloc((nparts ? nparts : 1) * (2 * sizeof *offs + sizeof *lead));
	lead = (int32_t *)(offs + 2 * nparts);
	r->part_mem = offs;
	for (i = 0; i < md->topic_cnt; i++) {
		const struct rd_kafka_metadata_topic *t = &md->topics[i];
		ktopic *kt;
		/* the count of __consumer_offsets names each group's coordinator partition, listed or not */
		if (t->err == RD_KAFKA_RESP_ERR_NO_ERROR && strcmp(t->topic, "__consumer_offsets") == 0 && *coord == NULL) {
			r->offsets_np = t->partition_cnt;
			*coord = xmalloc((size_t)(t->partition_cnt ? t->partition_cnt : 1) * sizeof **coord);
			for (j = 0; j < t->partition_cnt; j++)
				(*coord)[j] = -1;
			for (j = 0; j < t->partition_cnt; j++) {
				if (t->partitions[j].id >= 0 && t->partitions[j].id < t->partition_cnt)
					(*coord)[t->partitions[j].id] = t->partitions[j].leader;
			}
		}
		if (t->err != RD_KAFKA_RESP_ERR_NO_ERROR || !kafka_topic_selected(k, t->topic))
			continue;
		kt = &r->topics[r->ntopics++];
		kt->id = intern_topic(t->topic);
		kt->np = t->partition_cnt;
		kt->log_end = offs;
		kt->log_start = offs + t->partition_cnt;
		kt->leader = lead;
		offs += 2 * (size_t)t->partition_cnt;
		lead += t->partition_cnt;
		for (j = 0; j < t->partition_cnt; j++) {
			kt->leader[j] = 0;
			kt->log_end[j] = kt->log_start[j] = 0;
		}
		for (j = 0; j < t->partition_cnt; j++) {
			int p = t->partitions[j].id;
			if (p >= 0 && p < t->partition_cnt) {
				kt->leader[p] = t->partitions[j].leader;
				kt->log_end[p] = -1;
				kt->log_start[p] = -1;
			}
		}
	}
	return 0;
}

/* A new client handle in place of the old (kafka_int.h): swapped under rk_lock, the old one destroyed. */
int
kafka_handle_renew(ksrc *k, const char *why)
{
	rd_kafka_t *rk, *old;
	rd_kafka_queue_t *oldq;
	char e[512];
	int64_t now = util_mono_us();
	if (k->conf == NULL || (k->renewed_us > 0 && now - k->renewed_us < 10 * KG_SEC_US))
		return -1;
	rk = rd_kafka_new(RD_KAFKA_CONSUMER, rd_kafka_conf_dup(k->conf), e, sizeof e);
	if (rk == NULL) {
		log_msg(KG_LOG_INFO, "kafka: %s, and a new client handle failed: %s", why, e);
		return -1;
	}
	log_msg(KG_LOG_INFO, "kafka: %s: a new client handle asks for the coordinators again", why);
	pthread_mutex_lock(&k->rk_lock);
	old = k->rk;
	oldq = k->q;
	k->rk = rk;
	k->q = rd_kafka_queue_new(rk);
	pthread_mutex_unlock(&k->rk_lock);
	rd_kafka_queue_destroy(oldq);
	rd_kafka_destroy_flags(old, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	kafka_sched_coords_forgotten(&k->sched); /* the new handle looks every coordinator up again */
	log_msg(KG_LOG_DEBUG, "kafka: the old client handle destroyed in %.1f ms", (double)(util_mono_us() - now) / 1000.0);
	k->renewed_us = now;
	return 0;
}

/*
 * librdkafka 2.14's admin requests wait for a group's cached coordinator
 * to come up when its connection is down, and only look the coordinator
 * up again on a broker's change of state: a coordinator that died and
 * left the metadata (its controller fenced it) changes state no more, so
 * every describe and offsets request of its groups waited its whole
 * timeout (10 s) and never found the new coordinator (measured in
 * tests/kafka/t_coordinator.sh: 90 s and more).  The metadata says who
 * leads each group's __consumer_offsets partition: when a group's last
 * description names another coordinator, the handle is made anew before
 * the groups are asked, and its requests look the coordinators up.
 */
static void
refresh_coordinators(ksrc *k, const int32_t *coord, int32_t np)
{
	int32_t first;
	int n = kafka_table_coordinators_moved(&k->tab, coord, np, &first);
	kentry *e;
	char why[512];
	if (n == 0 || (e = kafka_table_get(&k->tab, first)) == NULL)
		return;
	snprintf(why, sizeof why, "%d group(s) moved: %s's coordinator was broker %d, the metadata says broker %d", n,
		 intern_group_name(first), (int)e->desc->coordinator,
		 (int)coord[group_offsets_partition(intern_group_name(first), np)]);
	kafka_handle_renew(k, why);
}

/* The watched groups and what the collector said about the screen, as the scheduler's flags. */
static void
refresh_flags(ksrc *k)
{
	size_t i;
	for (i = 0; i < k->tab.n; i++)
		k->tab.e[i].s.flags &= ~KSCHED_SCREEN_FLAGS; /* the group's own (members, lag) stay: kafka_table_publish's */
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
	for (i = 0; i < k->tab.n; i++) {
		kentry *e = &k->tab.e[i];
		/* a consumer group this librdkafka cannot describe: checked again after a while (a group may be converted) */
		e->s.undescribable = e->unseen_us > 0 && r->time_us - e->unseen_us < KG_KAFKA_UNSEEN_RECHECK_US;
		g[i] = e->s;
	}
	r->plan = kafka_sched_plan(&k->sched, g, k->tab.n, r->time_us, fixed_cost);
	for (i = 0; i < k->tab.n; i++) {
		k->tab.e[i].s.describe = g[i].describe;
		k->tab.e[i].s.offsets = g[i].offsets;
		k->tab.e[i].s.asked_seq = g[i].asked_seq;
	}
	free(g);
}

/* Each group's pace as its data now stands (after kafka_table_publish: its lag and freeze are this refresh's). */
static void
refresh_pace(ksrc *k, kresult *r)
{
	int i;
	for (i = 0; i < r->ngroups && (size_t)i < k->tab.n; i++)
		r->groups[i].pace_us = kafka_sched_pace(&k->sched, &k->tab.e[i].s, r->time_us);
}

/*
 * Groups whose coordinator (as last described, and still as the
 * metadata says) did not answer the listing are not asked this time:
 * librdkafka would hold each request for them its whole timeout, and the
 * refresh with it, until the broker's controller fenced it.  Their data
 * stays as old as it is (its time says so) and their error says why;
 * once the metadata names another coordinator, refresh_coordinators()
 * lets them be asked again.
 */
static void
refresh_skip_silent(ksrc *k, kresult *r, const int32_t *coord)
{
	size_t i;
	for (i = 0; i < k->tab.n && k->nsilent > 0; i++) {
		kentry *e = &k->tab.e[i];
		int32_t p;
		if ((!e->s.describe && !e->s.offsets) || e->desc == NULL || !kafka_broker_silent(k, e->desc->coordinator))
			continue;
		p = group_offsets_partition(intern_group_name(e->s.id), r->offsets_np);
		if (coord != NULL && p >= 0 && coord[p] >= 0 && coord[p] != e->desc->coordinator)
			continue; /* moved: asked on the new handle */
		r->plan.describe -= e->s.describe;
		r->plan.offsets -= e->s.offsets;
		e->s.describe = e->s.offsets = false;
		e->s.asked_seq = 0; /* not asked: librdkafka's cache is not counted as keeping it */
		free(e->desc_err);
		e->desc_err = xasprintf("its coordinator, broker %d, did not answer", (int)e->desc->coordinator);
	}
}

/* The source's note (malloc'd, NULL none): the brokers the listing did not hear from, then the log-end's (taken). */
static char *
refresh_note_silent(const ksrc *k, char *note)
{
	sbuf b = { 0 };
	size_t i;
	if (k->nsilent == 0)
		return note;
	sbuf_addf(&b, "no answer from broker%s", k->nsilent > 1 ? "s" : "");
	for (i = 0; i < k->nsilent; i++)
		sbuf_addf(&b, "%s %d", i > 0 ? "," : "", (int)k->silent[i]);
	sbuf_addf(&b, " (%s groups as last seen)%s%s", k->nsilent > 1 ? "their" : "its", note != NULL ? "; " : "", note != NULL ? note : "");
	free(note);
	return b.s;
}

/*
 * True when the result's metadata lacks the partition (its topic, or a
 * partition that many) and a new asking may have it: not when the
 * metadata was asked this refresh (asked, it is remembered as lacking
 * then: a deleted topic's offsets stay for days) or lacked it already.
 */
static bool
metadata_lacks(ksrc *k, kresult *r, kg_tp tp, bool asked)
{
	ktopic *t = kafka_result_topic(r, tp.topic);
	size_t i;
	if (t != NULL && tp.partition < t->np)
		return false;
	for (i = 0; i < k->nmd_lacks; i++) {
		if (tp_cmp(&k->md_lacks[i], &tp) == 0)
			return false;
	}
	if (!asked)
		return true;
	util_grow(&k->md_lacks, &k->cmd_lacks, k->nmd_lacks + 1, sizeof *k->md_lacks);
	k->md_lacks[k->nmd_lacks++] = tp;
	return false;
}

/*
 * After the groups and the log ends: whatever says the kept metadata may
 * be out of date (metadata_due()) has the next refresh ask it again, said
 * in the debug log (the log ends' own reason is set by kafka_log_end()).
 */
static void
metadata_check(ksrc *k, kresult *r, bool asked)
{
	size_t i;
	int q, m, a;
	char why[256] = "";
	if (k->md_due)
		util_strlcpy(why, "a log end unread, or a partition without a leader", sizeof why);
	else if (k->list_changes > 0)
		snprintf(why, sizeof why, "%d group(s) listed anew, gone or in another state", k->list_changes);
	else if (k->nsilent > 0)
		util_strlcpy(why, "a broker silent in the listing", sizeof why);
	else if (k->coord_moved > 0)
		util_strlcpy(why, "a group's coordinator moved", sizeof why);
	for (i = 0; i < k->tab.n && why[0] == '\0'; i++) {
		const kentry *e = &k->tab.e[i];
		const kg_tp *lack = NULL;
		for (q = 0; e->offs != NULL && e->offs->time_us == r->time_us && q < e->offs->nc && lack == NULL; q++)
			lack = metadata_lacks(k, r, e->offs->c[q].tp, asked) ? &e->offs->c[q].tp : NULL;
		for (m = 0; e->desc != NULL && e->desc->time_us == r->time_us && m < e->desc->nm && lack == NULL; m++) {
			for (a = 0; a < e->desc->m[m].nasg && lack == NULL; a++)
				lack = metadata_lacks(k, r, e->desc->m[m].asg[a], asked) ? &e->desc->m[m].asg[a] : NULL;
		}
		if (lack != NULL)
			snprintf(why, sizeof why, "%s has %s:%d, which the metadata has not", intern_group_name(e->s.id),
				 intern_topic_name(lack->topic), (int)lack->partition);
	}
	if (why[0] != '\0') {
		k->md_due = true;
		log_msg(KG_LOG_DEBUG, "kafka: metadata due at the next refresh: %s", why);
	}
}

/*
 * CPU time of the whole process so far (every thread), for the debug log;
 * 0 when that log is off: the kernel sums every thread's time for it, on
 * this project's machines a twentieth of the worker's CPU at rest.
 */
static int64_t
process_cpu_us(void)
{
	struct timespec ts;
	if (!log_enabled(KG_LOG_DEBUG))
		return 0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One refresh: what the plan asks, and the log-end offsets of every topic in use. */
kresult *
kafka_refresh(ksrc *k, char **err)
{
	kresult *r = xcalloc(1, sizeof *r);
	int32_t *coord = NULL;
	bool unsupported = false;
	char *note = NULL;
	int64_t t0 = util_mono_us(), t1, t2, t3, c0 = process_cpu_us();

	r->time_us = util_now_us();
	/* librdkafka's error callbacks since the last answer (a success forgets them) */
	rd_kafka_poll(k->rk, 0);
	if (refresh_metadata(k, r, &coord, err) < 0)
		goto fail;
	refresh_coordinators(k, coord, r->offsets_np);
	t1 = util_mono_us();
	if (kafka_list_groups(k, r, &unsupported, err) < 0)
		goto fail;
	if (r->answer_us == 0) {
		/* the metadata kept: the listing is the refresh's first answer */
		r->answer_us = util_now_us();
		kafka_cluster_answered(&k->errs);
	}
	r->requests += r->nbrokers;
	r->no_group_apis = unsupported;
	refresh_flags(k);
	refresh_plan(k, r, 1 + r->nbrokers + k->log_end_calls);
	refresh_skip_silent(k, r, coord);
	free(coord);
	coord = NULL;
	t2 = util_mono_us();
	if (kafka_groups_ask(k, r, err) < 0)
		goto fail;
	t3 = util_mono_us();
	if (kafka_log_end(k, r, err, &note) < 0)
		goto fail;
	metadata_check(k, r, k->md_us >= t0);
	kafka_table_publish(&k->tab, r, r->time_us);
	refresh_pace(k, r);
	kafka_stamps_read(k, r);
	r->log_end_note = refresh_note_silent(k, note);
	log_msg(KG_LOG_DEBUG,
		"kafka: refresh of %d groups (%d described, %d offsets, %d at risk asked, %d left; the plan counts %d requests), %d topics (metadata %s), about %d requests (%d log-start, "
		"%d records read) in %.1f ms (metadata %.1f, list %.1f, groups %.1f, log-end, log-start and reads %.1f), "
		"process CPU %.1f ms, %d quiet topics' log ends kept",
		r->ngroups, r->plan.describe, r->plan.offsets, r->plan.risk, r->plan.risk_left, r->plan.requests, r->ntopics,
		k->md_us >= t0 ? "asked" : "kept", r->requests, r->log_start_calls, r->stamp_reads,
		(double)(util_mono_us() - t0) / 1000.0, (double)(t1 - t0) / 1000.0, (double)(t2 - t1) / 1000.0,
		(double)(t3 - t2) / 1000.0, (double)(util_mono_us() - t3) / 1000.0,
		(double)(process_cpu_us() - c0) / 1000.0, r->log_end_kept);
	return r;
fail:
	k->md_due = true; /* the next refresh asks the metadata again */
	free(coord);
	free(note);
	kafka_result_free(r);
	return NULL;
}

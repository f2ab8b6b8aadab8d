/*
 * bare_refresh.c: the librdkafka floor of one full refresh, for make bench.
 *
 * A bare C program making the calls kgtop's kafka source makes for one full
 * refresh, with the same bounds and nothing else: metadata of every topic,
 * ListConsumerGroups, DescribeConsumerGroups in calls of -d groups (not of
 * the groups the listing says are Empty: the listing says it all),
 * ListConsumerGroupOffsets one group per call (librdkafka 2.0.2 takes one),
 * at most -w requests in flight, then the log-end offsets of the partitions
 * the groups use, per leader, in calls of at most -p partitions
 * (rd_kafka_offsets_for_times on a handle without group.id).  It keeps no
 * model, builds no snapshot and prints one line per refresh:
 *   refresh N: groups G members M committed C partitions P wall_ms W cpu_ms U
 * so bench_scale can set kgtop's CPU against it in the same run.
 *   bare_refresh BOOTSTRAP [-n REFRESHES] [-w WINDOW] [-d GROUPS] [-p PARTITIONS]
 */
#include "config.h"

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

typedef struct topic {
	char *name;
	int np;
	int32_t *leader;
	int used;
} topic;

typedef struct state {
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;
	int window, dchunk, pchunk;
	topic *t;
	int nt;
	char **groups;
	size_t ng;
	char **live;       /* the groups not listed Empty: the ones to describe */
	size_t nlive;
	long members, committed, partitions;
} state;

typedef struct leader_job {
	rd_kafka_t *rk;
	int32_t leader;
	rd_kafka_topic_partition_list_t *l;
	int pchunk;
	pthread_t th;
} leader_job;

/* Monotonic microseconds. */
static int64_t
mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* CPU of the process (every thread), microseconds. */
static int64_t
cpu_us(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

/* Die with a message. */
static void
die(const char *what)
{
	fprintf(stderr, "bare_refresh: %s\n", what);
	exit(1);
}

/* Compare topics by name. */
static int
topic_cmp(const void *a, const void *b)
{
	return strcmp(((const topic *)a)->name, ((const topic *)b)->name);
}

/* Mark a topic used. */
static void
use_topic(state *s, const char *name)
{
	topic key = { .name = (char *)name };
	topic *t = bsearch(&key, s->t, (size_t)s->nt, sizeof *s->t, topic_cmp);
	if (t != NULL)
		t->used = 1;
}

/* Metadata of every topic. */
static void
metadata(state *s)
{
	const struct rd_kafka_metadata *md;
	int i, j;
	if (rd_kafka_metadata(s->rk, 1, NULL, &md, 5000) != RD_KAFKA_RESP_ERR_NO_ERROR)
		die("metadata failed");
	for (i = 0; i < s->nt; i++) {
		free(s->t[i].name);
		free(s->t[i].leader);
	}
	free(s->t);
	s->t = calloc((size_t)md->topic_cnt + 1, sizeof *s->t);
	s->nt = md->topic_cnt;
	for (i = 0; i < md->topic_cnt; i++) {
		s->t[i].name = strdup(md->topics[i].topic);
		s->t[i].np = md->topics[i].partition_cnt;
		s->t[i].leader = calloc((size_t)s->t[i].np + 1, sizeof *s->t[i].leader);
		for (j = 0; j < md->topics[i].partition_cnt; j++) {
			if (md->topics[i].partitions[j].id < s->t[i].np)
				s->t[i].leader[md->topics[i].partitions[j].id] = md->topics[i].partitions[j].leader;
		}
	}
	qsort(s->t, (size_t)s->nt, sizeof *s->t, topic_cmp);
	rd_kafka_metadata_destroy(md);
}

/* The next admin result of a type. */
static rd_kafka_event_t *
next_event(state *s, rd_kafka_event_type_t type)
{
	for (;;) {
		rd_kafka_event_t *ev = rd_kafka_queue_poll(s->q, 30000);
		if (ev == NULL)
			die("no answer within 30 s");
		if (rd_kafka_event_type(ev) == type)
			return ev;
		rd_kafka_event_destroy(ev);
	}
}

/* ListConsumerGroups. */
static void
list(state *s)
{
	rd_kafka_event_t *ev;
	const rd_kafka_ConsumerGroupListing_t **v;
	size_t n, i;
	for (i = 0; i < s->ng; i++)
		free(s->groups[i]);
	free(s->groups);
	free(s->live);
	rd_kafka_ListConsumerGroups(s->rk, NULL, s->q);
	ev = next_event(s, RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT);
	v = rd_kafka_ListConsumerGroups_result_valid(rd_kafka_event_ListConsumerGroups_result(ev), &n);
	s->groups = calloc(n + 1, sizeof *s->groups);
	s->live = calloc(n + 1, sizeof *s->live);
	s->nlive = 0;
	for (i = 0; i < n; i++) {
		s->groups[i] = strdup(rd_kafka_ConsumerGroupListing_group_id(v[i]));
		if (rd_kafka_ConsumerGroupListing_state(v[i]) != RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY)
			s->live[s->nlive++] = s->groups[i];
	}
	s->ng = n;
	rd_kafka_event_destroy(ev);
}

/* DescribeConsumerGroups in calls of dchunk groups, at most window in flight. */
static void
describe(state *s)
{
	size_t next = 0, inflight = 0;
	while (next < s->nlive || inflight > 0) {
		rd_kafka_event_t *ev;
		const rd_kafka_ConsumerGroupDescription_t **d;
		size_t nd, i, j;
		while (next < s->nlive && inflight < (size_t)s->window) {
			size_t k = s->nlive - next < (size_t)s->dchunk ? s->nlive - next : (size_t)s->dchunk;
			rd_kafka_DescribeConsumerGroups(s->rk, (const char **)s->live + next, k, NULL, s->q);
			next += k;
			inflight += k;
		}
		ev = next_event(s, RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT);
		d = rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &nd);
		for (i = 0; i < nd; i++) {
			size_t nm = rd_kafka_ConsumerGroupDescription_member_count(d[i]);
			s->members += (long)nm;
			for (j = 0; j < nm; j++) {
				const rd_kafka_MemberAssignment_t *a =
					rd_kafka_MemberDescription_assignment(rd_kafka_ConsumerGroupDescription_member(d[i], j));
				const rd_kafka_topic_partition_list_t *l = a ? rd_kafka_MemberAssignment_partitions(a) : NULL;
				int p;
				for (p = 0; l != NULL && p < l->cnt; p++)
					use_topic(s, l->elems[p].topic);
			}
		}
		inflight -= nd < inflight ? nd : inflight;
		rd_kafka_event_destroy(ev);
	}
}

/* ListConsumerGroupOffsets one group per call, at most window in flight. */
static void
offsets(state *s)
{
	size_t next = 0, inflight = 0;
	while (next < s->ng || inflight > 0) {
		rd_kafka_event_t *ev;
		const rd_kafka_group_result_t **gr;
		size_t ngr, i;
		while (next < s->ng && inflight < (size_t)s->window) {
			rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(s->groups[next++], NULL);
			rd_kafka_ListConsumerGroupOffsets(s->rk, &req, 1, NULL, s->q);
			rd_kafka_ListConsumerGroupOffsets_destroy(req);
			inflight++;
		}
		ev = next_event(s, RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT);
		inflight--;
		gr = rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &ngr);
		for (i = 0; i < ngr; i++) {
			const rd_kafka_topic_partition_list_t *l = rd_kafka_group_result_partitions(gr[i]);
			int p;
			for (p = 0; l != NULL && p < l->cnt; p++) {
				if (l->elems[p].offset >= 0) {
					s->committed++;
					use_topic(s, l->elems[p].topic);
				}
			}
		}
		rd_kafka_event_destroy(ev);
	}
}

/* One leader's partitions, pchunk at a time (runs on its own thread). */
static void *
leader_run(void *arg)
{
	leader_job *j = arg;
	int at;
	for (at = 0; at < j->l->cnt; at += j->pchunk) {
		int n = j->l->cnt - at < j->pchunk ? j->l->cnt - at : j->pchunk, i;
		rd_kafka_topic_partition_list_t *c = rd_kafka_topic_partition_list_new(n);
		for (i = 0; i < n; i++)
			rd_kafka_topic_partition_list_add(c, j->l->elems[at + i].topic, j->l->elems[at + i].partition)->offset =
				RD_KAFKA_OFFSET_END;
		rd_kafka_offsets_for_times(j->rk, c, 5000);
		rd_kafka_topic_partition_list_destroy(c);
	}
	return NULL;
}

/* Log-end offsets of the partitions in use, per leader, pchunk partitions per call. */
static void
log_end(state *s)
{
	leader_job *jobs = NULL;
	int nj = 0, i, p, b;
	for (i = 0; i < s->nt; i++) {
		for (p = 0; s->t[i].used && p < s->t[i].np; p++) {
			for (b = 0; b < nj && jobs[b].leader != s->t[i].leader[p]; b++)
				;
			if (b == nj) {
				jobs = realloc(jobs, (size_t)(nj + 1) * sizeof *jobs);
				jobs[nj].rk = s->rk;
				jobs[nj].leader = s->t[i].leader[p];
				jobs[nj].pchunk = s->pchunk;
				jobs[nj].l = rd_kafka_topic_partition_list_new(1024);
				nj++;
			}
			rd_kafka_topic_partition_list_add(jobs[b].l, s->t[i].name, p);
			s->partitions++;
		}
	}
	for (b = 0; b < nj; b++)
		pthread_create(&jobs[b].th, NULL, leader_run, &jobs[b]);
	for (b = 0; b < nj; b++) {
		pthread_join(jobs[b].th, NULL);
		rd_kafka_topic_partition_list_destroy(jobs[b].l);
	}
	free(jobs);
}

/* Parse the command line, refresh n times, print a line per refresh. */
int
main(int argc, char **argv)
{
	state s;
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char e[512];
	int n = 1, i, opt;
	memset(&s, 0, sizeof s);
	s.window = 500;
	s.dchunk = 50;
	s.pchunk = 500;
	while ((opt = getopt(argc, argv, "n:w:d:p:")) != -1) {
		int v = atoi(optarg);
		if (v <= 0)
			die("options take a positive number");
		if (opt == 'n')
			n = v;
		else if (opt == 'w')
			s.window = v;
		else if (opt == 'd')
			s.dchunk = v;
		else if (opt == 'p')
			s.pchunk = v;
		else
			die("usage: bare_refresh BOOTSTRAP [-n REFRESHES] [-w WINDOW] [-d GROUPS] [-p PARTITIONS]");
	}
	if (optind >= argc)
		die("usage: bare_refresh BOOTSTRAP [-n REFRESHES] [-w WINDOW] [-d GROUPS] [-p PARTITIONS]");
	if (rd_kafka_conf_set(conf, "bootstrap.servers", argv[optind], e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "enable.auto.commit", "false", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "isolation.level", "read_uncommitted", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "client.id", "kgtop-bare", e, sizeof e) != RD_KAFKA_CONF_OK)
		die(e);
	s.rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, e, sizeof e);
	if (s.rk == NULL)
		die(e);
	s.q = rd_kafka_queue_new(s.rk);
	for (i = 1; i <= n; i++) {
		int64_t t0 = mono_us(), c0 = cpu_us();
		s.members = s.committed = s.partitions = 0;
		metadata(&s);
		list(&s);
		describe(&s);
		offsets(&s);
		log_end(&s);
		printf("refresh %d: groups %zu members %ld committed %ld partitions %ld wall_ms %.1f cpu_ms %.1f\n", i, s.ng,
		       s.members, s.committed, s.partitions, (double)(mono_us() - t0) / 1000.0,
		       (double)(cpu_us() - c0) / 1000.0);
		fflush(stdout);
	}
	rd_kafka_queue_destroy(s.q);
	rd_kafka_destroy_flags(s.rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	return 0;
}

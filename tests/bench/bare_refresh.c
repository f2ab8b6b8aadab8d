/*
 * bare_refresh.c: the librdkafka floor of one full refresh, for make bench.
 *
 * A bare C program making the calls kgtop's kafka source makes for one full
 * refresh, with the same bounds and nothing else: metadata of every topic,
 * ListConsumerGroups, DescribeConsumerGroups in calls of -d groups (not of
 * the groups the listing says are Empty: the listing says it all),
 * ListConsumerGroupOffsets one group per call (librdkafka 2.0.2 takes one),
 * at most -w requests in flight, then the log-end and log-start offsets of
 * the partitions the groups use, per leader, in calls of at most -p
 * partitions, a log-end call then a log-start call
 * (rd_kafka_offsets_for_times, LATEST then EARLIEST), then the record reads
 * of kgtop's --once (src/sources/kafka/kafka_stamp.c).
 *
 * The reads: the groups in the listing's order, each group's committed
 * partitions in the order its answer gave them; a partition is read when
 * its committed offset is behind its log end and not below its log start,
 * once (of two groups that want it at two offsets, the offset further
 * behind), at most KG_STAMP_READS of them.  Every refresh reads as kgtop's first refresh
 * does: kgtop keeps what it read and reads a partition again only when
 * its offset moved, this program keeps nothing.  Each read is the simple
 * consumer on the one handle: rd_kafka_consume_start_queue() at the
 * committed offset onto one queue shared by the reads, the first message
 * of the partition at or past that offset (or an error saying the log has
 * no record there) answers it, READ_WAIT_MS at most for all of them, then
 * rd_kafka_consume_stop() for each read started.  The topic handles say
 * auto.offset.reset=error and auto.commit.enable=false, and the handle
 * carries kgtop's settings for these reads (fetch.message.max.bytes 64 KiB,
 * queued.max.messages.kbytes 1024, a group.id it never joins,
 * enable.auto.commit and enable.auto.offset.store off).
 *
 * It keeps no model, builds no snapshot and prints one line per refresh:
 *   refresh N: groups G members M committed C partitions P wall_ms W cpu_ms U reads R answered A timestamps T
 *     describe_wall_ms DW describe_cpu_ms DU
 * (R reads started, A of them answered before the deadline, T of the
 * answers a record with a timestamp; DW and DU the describe phase alone),
 * so bench_scale can set kgtop's CPU against it in the same run.
 *   bare_refresh BOOTSTRAP [-n REFRESHES] [-w WINDOW] [-d GROUPS] [-p PARTITIONS] [-D]
 * -D: the describe path only (metadata, the listing, the descriptions), for
 * tests/bench/describe.sh.
 * -F SECONDS: the floor of a monitor at rest, for tests/bench/idle.sh: one
 * discovery (metadata, the listing, the descriptions: the topics the groups
 * with members are assigned), then every second for SECONDS the two reads
 * any monitor refreshing each second must make to see a change within it:
 * the listing (a rebalance, a group come or gone) and the log ends of those
 * topics (records produced: lag), per leader in calls of -p partitions, one
 * leader after the other.  No committed offsets, no log starts, no model,
 * nothing printed but a line at the start: whatever kgtop does at rest
 * beyond this is its own.
 * -O (with -F): kgtop's request plan at rest besides, as kgtop(1) states
 * its paces for a cluster whose groups with members are all settled
 * freezes (tests/fixture/scenarios/idle-100.json): each such group's
 * committed offsets every 10 s and its description every 60 s, each Empty
 * group's committed offsets every 30 s (--full-refresh), the turns spread
 * by a hash of the name, and one of them (the dashboard's selected group)
 * described and its offsets asked every second; the log ends each second
 * only of the selected group's topics, of the others every 10 s (a
 * settled freeze's topics are read at its pace, all in one refresh).  The
 * requests kgtop's plan makes, without kgtop: kgtop's cost beyond it is
 * its own processing.
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

#include "model/defaults.h" /* KG_STAMP_READS */

/* kgtop's deadline for the reads of a refresh: a third of --timeout, at most 3 s (bench_scale runs --timeout 120) */
#define READ_WAIT_MS 3000

#define USAGE "usage: bare_refresh BOOTSTRAP [-n REFRESHES] [-w WINDOW] [-d GROUPS] [-p PARTITIONS] [-D] [-F SECONDS [-O]]"

typedef struct topic {
	char *name;
	int np;
	int32_t *leader;
	int64_t *end, *start;  /* log end, log start by partition (-1 unknown) */
	int *read;             /* the read of each partition this refresh, -1 none */
	rd_kafka_topic_t *rkt; /* the simple consumer's topic handle, made by the first read */
	int used;
	int in_use;            /* -F: used by a group with members; used each second only by the selected's (-O) */
	int selected;          /* -O: the selected group is assigned it */
} topic;

/* A committed offset: topic (index in state.t), partition, offset. */
typedef struct commit {
	int topic;
	int32_t partition;
	int64_t offset;
} commit;

/* A record read at a committed offset. */
typedef struct rread {
	int topic;
	int32_t partition;
	int64_t offset;
	int started, done;
} rread;

typedef struct state {
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;
	int window, dchunk, pchunk;
	int ends_only; /* log ends alone, the leaders one after the other (-F) */
	int plan;      /* -O: kgtop's plan at rest besides */
	topic *t;
	int nt;
	char **groups;
	size_t ng;
	char **live;       /* the groups not listed Empty: the ones to describe */
	size_t nlive;
	commit **gc;       /* each listed group's committed offsets, in the listing's order */
	const char *selected; /* -O: the dashboard's selected group, the first by name of the groups with members */
	int *ngc;
	long members, committed, partitions, reads, answered, stamped;
} state;

typedef struct leader_job {
	state *s;
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

/* A topic by name, NULL when the metadata has none. */
static topic *
find_topic(state *s, const char *name)
{
	topic key = { .name = (char *)name };
	return bsearch(&key, s->t, (size_t)s->nt, sizeof *s->t, topic_cmp);
}

/* Mark a topic used; its index, -1 when unknown. */
static int
use_topic(state *s, const char *name)
{
	topic *t = find_topic(s, name);
	if (t == NULL)
		return -1;
	t->used = 1;
	return (int)(t - s->t);
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
		free(s->t[i].end);
		free(s->t[i].start);
		free(s->t[i].read);
	}
	free(s->t);
	s->t = calloc((size_t)md->topic_cnt + 1, sizeof *s->t);
	s->nt = md->topic_cnt;
	for (i = 0; i < md->topic_cnt; i++) {
		s->t[i].name = strdup(md->topics[i].topic);
		s->t[i].np = md->topics[i].partition_cnt;
		s->t[i].leader = calloc((size_t)s->t[i].np + 1, sizeof *s->t[i].leader);
		s->t[i].end = malloc(((size_t)s->t[i].np + 1) * sizeof *s->t[i].end);
		s->t[i].start = malloc(((size_t)s->t[i].np + 1) * sizeof *s->t[i].start);
		s->t[i].read = malloc(((size_t)s->t[i].np + 1) * sizeof *s->t[i].read);
		for (j = 0; j < s->t[i].np; j++) {
			s->t[i].end[j] = s->t[i].start[j] = -1;
			s->t[i].read[j] = -1;
		}
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
	for (i = 0; i < s->ng; i++) {
		free(s->groups[i]);
		free(s->gc[i]);
	}
	free(s->groups);
	free(s->live);
	free(s->gc);
	free(s->ngc);
	rd_kafka_ListConsumerGroups(s->rk, NULL, s->q);
	ev = next_event(s, RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT);
	v = rd_kafka_ListConsumerGroups_result_valid(rd_kafka_event_ListConsumerGroups_result(ev), &n);
	s->groups = calloc(n + 1, sizeof *s->groups);
	s->live = calloc(n + 1, sizeof *s->live);
	s->gc = calloc(n + 1, sizeof *s->gc);
	s->ngc = calloc(n + 1, sizeof *s->ngc);
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
			int sel = s->selected != NULL && strcmp(rd_kafka_ConsumerGroupDescription_group_id(d[i]), s->selected) == 0;
			s->members += (long)nm;
			for (j = 0; j < nm; j++) {
				const rd_kafka_MemberAssignment_t *a =
					rd_kafka_MemberDescription_assignment(rd_kafka_ConsumerGroupDescription_member(d[i], j));
				const rd_kafka_topic_partition_list_t *l = a ? rd_kafka_MemberAssignment_partitions(a) : NULL;
				int p, t;
				for (p = 0; l != NULL && p < l->cnt; p++) {
					t = use_topic(s, l->elems[p].topic);
					if (t >= 0 && sel)
						s->t[t].selected = 1;
				}
			}
		}
		inflight -= nd < inflight ? nd : inflight;
		rd_kafka_event_destroy(ev);
	}
}

/*
 * ListConsumerGroupOffsets one group per call, at most window in flight;
 * each group's committed offsets kept for the reads (the call's opaque
 * says which group it asked).
 */
static void
offsets(state *s)
{
	size_t next = 0, inflight = 0;
	while (next < s->ng || inflight > 0) {
		rd_kafka_event_t *ev;
		const rd_kafka_group_result_t **gr;
		size_t ngr, i, g;
		while (next < s->ng && inflight < (size_t)s->window) {
			rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(s->groups[next], NULL);
			rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(s->rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
			rd_kafka_AdminOptions_set_opaque(o, (void *)(uintptr_t)next);
			rd_kafka_ListConsumerGroupOffsets(s->rk, &req, 1, o, s->q);
			rd_kafka_AdminOptions_destroy(o);
			rd_kafka_ListConsumerGroupOffsets_destroy(req);
			next++;
			inflight++;
		}
		ev = next_event(s, RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT);
		inflight--;
		g = (size_t)(uintptr_t)rd_kafka_event_opaque(ev);
		gr = rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &ngr);
		for (i = 0; i < ngr && g < s->ng; i++) {
			const rd_kafka_topic_partition_list_t *l = rd_kafka_group_result_partitions(gr[i]);
			int p;
			if (l != NULL && l->cnt > 0 && s->gc[g] == NULL)
				s->gc[g] = malloc((size_t)l->cnt * sizeof *s->gc[g]);
			for (p = 0; l != NULL && p < l->cnt; p++) {
				if (l->elems[p].offset >= 0) {
					int t = use_topic(s, l->elems[p].topic);
					s->committed++;
					if (t >= 0 && l->elems[p].err == RD_KAFKA_RESP_ERR_NO_ERROR && s->gc[g] != NULL)
						s->gc[g][s->ngc[g]++] = (commit){ t, l->elems[p].partition, l->elems[p].offset };
				}
			}
		}
		rd_kafka_event_destroy(ev);
	}
}

/* One leader's partitions, pchunk at a time, log end then log start (runs on its own thread). */
static void *
leader_run(void *arg)
{
	leader_job *j = arg;
	int at, k;
	for (at = 0; at < j->l->cnt; at += j->pchunk) {
		int n = j->l->cnt - at < j->pchunk ? j->l->cnt - at : j->pchunk, i;
		for (k = 0; k < (j->s->ends_only ? 1 : 2); k++) {
			rd_kafka_topic_partition_list_t *c = rd_kafka_topic_partition_list_new(n);
			for (i = 0; i < n; i++)
				rd_kafka_topic_partition_list_add(c, j->l->elems[at + i].topic, j->l->elems[at + i].partition)
					->offset = k == 0 ? RD_KAFKA_OFFSET_END : RD_KAFKA_OFFSET_BEGINNING;
			rd_kafka_offsets_for_times(j->rk, c, 5000);
			for (i = 0; i < c->cnt; i++) {
				topic *t = find_topic(j->s, c->elems[i].topic);
				int p = c->elems[i].partition;
				if (t != NULL && p >= 0 && p < t->np && c->elems[i].err == RD_KAFKA_RESP_ERR_NO_ERROR)
					*(k == 0 ? &t->end[p] : &t->start[p]) = c->elems[i].offset;
			}
			rd_kafka_topic_partition_list_destroy(c);
		}
	}
	return NULL;
}

/* Log-end and log-start offsets of the partitions in use, per leader, pchunk partitions per call. */
static void
log_end(state *s)
{
	leader_job *jobs = NULL;
	int nj = 0, i, p, b;
	for (i = 0; i < s->nt; i++) {
		for (p = 0; s->t[i].used && p < s->t[i].np; p++) {
			if (s->t[i].leader[p] < 0)
				continue;
			for (b = 0; b < nj && jobs[b].leader != s->t[i].leader[p]; b++)
				;
			if (b == nj) {
				jobs = realloc(jobs, (size_t)(nj + 1) * sizeof *jobs);
				jobs[nj].s = s;
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
	for (b = 0; b < nj; b++) {
		if (s->ends_only)
			leader_run(&jobs[b]);
		else
			pthread_create(&jobs[b].th, NULL, leader_run, &jobs[b]);
	}
	for (b = 0; b < nj; b++) {
		if (!s->ends_only)
			pthread_join(jobs[b].th, NULL);
		rd_kafka_topic_partition_list_destroy(jobs[b].l);
	}
	free(jobs);
}

/* The simple consumer's handle of a topic, made on first use (auto.offset.reset=error, no auto commit). */
static rd_kafka_topic_t *
read_rkt(state *s, topic *t)
{
	if (t->rkt == NULL) {
		rd_kafka_topic_conf_t *tc = rd_kafka_topic_conf_new();
		char e[256];
		if (rd_kafka_topic_conf_set(tc, "auto.offset.reset", "error", e, sizeof e) != RD_KAFKA_CONF_OK ||
		    rd_kafka_topic_conf_set(tc, "auto.commit.enable", "false", e, sizeof e) != RD_KAFKA_CONF_OK)
			die(e);
		t->rkt = rd_kafka_topic_new(s->rk, t->name, tc);
	}
	return t->rkt;
}

/*
 * The record at each committed offset that kgtop's --once reads: choose
 * them, start them all on one queue, take a message for each until they
 * are answered or READ_WAIT_MS passed, stop them.
 */
static void
reads(state *s)
{
	rread *w = calloc(KG_STAMP_READS, sizeof *w);
	rd_kafka_queue_t *q;
	rd_kafka_message_t *m;
	int64_t deadline;
	size_t g;
	int n = 0, left = 0, c, j;
	for (g = 0; g < s->ng && n < KG_STAMP_READS; g++) {
		for (c = 0; c < s->ngc[g] && n < KG_STAMP_READS; c++) {
			const commit *x = &s->gc[g][c];
			topic *t = &s->t[x->topic];
			int p = x->partition;
			if (p < 0 || p >= t->np || t->end[p] <= x->offset || (t->start[p] >= 0 && x->offset < t->start[p]))
				continue; /* no lag, or below the log start */
			if (t->read[p] >= 0) { /* read already: the offset further behind */
				if (x->offset < w[t->read[p]].offset)
					w[t->read[p]].offset = x->offset;
				continue;
			}
			t->read[p] = n;
			w[n++] = (rread){ x->topic, p, x->offset, 0, 0 };
		}
	}
	if (n == 0) {
		free(w);
		return;
	}
	q = rd_kafka_queue_new(s->rk);
	deadline = mono_us() + READ_WAIT_MS * 1000LL;
	for (j = 0; j < n; j++) {
		rd_kafka_topic_t *rkt = read_rkt(s, &s->t[w[j].topic]);
		w[j].started = rkt != NULL && rd_kafka_consume_start_queue(rkt, w[j].partition, w[j].offset, q) == 0;
		left += w[j].started;
	}
	s->reads = left;
	while (left > 0 && mono_us() < deadline) {
		topic *t;
		rread *x = NULL;
		if ((m = rd_kafka_consume_queue(q, 100)) == NULL)
			continue;
		t = m->rkt != NULL ? find_topic(s, rd_kafka_topic_name(m->rkt)) : NULL;
		if (t != NULL && m->partition >= 0 && m->partition < t->np && t->read[m->partition] >= 0)
			x = &w[t->read[m->partition]];
		if (x != NULL && x->started && !x->done) {
			if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR && m->offset >= x->offset) {
				x->done = 1;
				s->stamped += rd_kafka_message_timestamp(m, NULL) >= 0;
			} else if (m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE ||
				   m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET || m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
				x->done = 1; /* the log has no record there */
			}
			/* another error: the fetcher tries again until the deadline */
			left -= x->done;
			s->answered += x->done;
		}
		rd_kafka_message_destroy(m);
	}
	for (j = 0; j < n; j++) {
		if (w[j].started)
			rd_kafka_consume_stop(s->t[w[j].topic].rkt, w[j].partition);
	}
	while ((m = rd_kafka_consume_queue(q, 0)) != NULL)
		rd_kafka_message_destroy(m);
	rd_kafka_queue_destroy(q);
	for (j = 0; j < s->nt; j++) {
		if (s->t[j].rkt != NULL)
			rd_kafka_topic_destroy(s->t[j].rkt);
		s->t[j].rkt = NULL;
	}
	free(w);
}

/* Parse the command line, refresh n times, print a line per refresh. */
/* A name's hash (FNV-1a): spreads the groups' turns over the seconds. */
static unsigned
name_hash(const char *n)
{
	unsigned h = 2166136261u;
	for (; *n != '\0'; n++)
		h = (h ^ (unsigned char)*n) * 16777619u;
	return h;
}

/* -O: second sec's share of kgtop's plan at rest (see the head comment); back once every answer came. */
static void
plan_second(state *s, int sec)
{
	size_t i, j, pending = 0;
	const char *selected = s->selected;
	for (i = 0; i < s->ng; i++) {
		int live = 0;
		unsigned h = name_hash(s->groups[i]);
		for (j = 0; j < s->nlive && !live; j++)
			live = strcmp(s->live[j], s->groups[i]) == 0;
		int sel = selected != NULL && strcmp(selected, s->groups[i]) == 0;
		int offs = sel || (live ? h % 10 == (unsigned)sec % 10 : h % 30 == (unsigned)sec % 30);
		int desc = sel || (live && h % 60 == (unsigned)sec % 60);
		if (offs) {
			rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(s->groups[i], NULL);
			rd_kafka_ListConsumerGroupOffsets(s->rk, &req, 1, NULL, s->q);
			rd_kafka_ListConsumerGroupOffsets_destroy(req);
			pending++;
		}
		if (desc) {
			rd_kafka_DescribeConsumerGroups(s->rk, (const char **)&s->groups[i], 1, NULL, s->q);
			pending++;
		}
	}
	for (; pending > 0; pending--) {
		rd_kafka_event_t *ev = rd_kafka_queue_poll(s->q, 30000);
		if (ev == NULL)
			die("no answer within 30 s");
		rd_kafka_event_destroy(ev);
	}
}

/* -F: one discovery, then the listing and the log ends each second for secs seconds (see the head comment). */
static void
floor_run(state *s, int secs)
{
	int64_t next;
	int i, p, t;
	size_t j;
	metadata(s);
	list(s);
	for (j = 0; s->plan && j < s->nlive; j++) {
		if (s->selected == NULL || strcmp(s->live[j], s->selected) < 0)
			s->selected = s->live[j];
	}
	describe(s);
	for (t = p = 0; t < s->nt; t++) {
		p += s->t[t].used ? s->t[t].np : 0;
		s->t[t].in_use = s->t[t].used;
	}
	s->ends_only = 1;
	printf("floor: %zu groups (%zu with members), the log ends of %d partitions, each second for %d s%s\n", s->ng,
	       s->nlive, p, secs,
	       s->plan ? ", kgtop's plan at rest besides (the log ends each second only of the selected group's topics)" : "");
	fflush(stdout);
	next = mono_us();
	for (i = 0; i < secs; i++) {
		int64_t now;
		list(s);
		/* -O: kgtop reads a settled freeze's topics every 10 s, all in one refresh, the selected group's each second */
		for (t = 0; s->plan && t < s->nt; t++)
			s->t[t].used = s->t[t].in_use && (s->t[t].selected || i % 10 == 0);
		log_end(s);
		if (s->plan)
			plan_second(s, i);
		next += 1000000;
		now = mono_us();
		if (next > now) {
			struct timespec ts = { (time_t)((next - now) / 1000000), (long)((next - now) % 1000000) * 1000 };
			nanosleep(&ts, NULL); /* the cadence: a refresh a second */
		}
	}
}

int
main(int argc, char **argv)
{
	state s;
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char e[512];
	int n = 1, i, opt, describe_only = 0, floor_s = 0;
	memset(&s, 0, sizeof s);
	s.window = 500;
	s.dchunk = 50;
	s.pchunk = 500;
	while ((opt = getopt(argc, argv, "n:w:d:p:DF:O")) != -1) {
		int v = opt == 'D' || opt == 'O' ? 1 : atoi(optarg);
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
		else if (opt == 'D')
			describe_only = 1;
		else if (opt == 'F')
			floor_s = v;
		else if (opt == 'O')
			s.plan = 1;
		else
			die(USAGE);
	}
	if (optind >= argc)
		die(USAGE);
	if (rd_kafka_conf_set(conf, "bootstrap.servers", argv[optind], e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "reconnect.backoff.max.ms", "1000", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "fetch.message.max.bytes", "65536", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "queued.max.messages.kbytes", "1024", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "enable.auto.commit", "false", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "enable.auto.offset.store", "false", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "isolation.level", "read_uncommitted", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "client.id", "kgtop-bare", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_conf_set(conf, "group.id", "kgtop-bare.never-joins", e, sizeof e) != RD_KAFKA_CONF_OK)
		die(e);
	s.rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, e, sizeof e);
	if (s.rk == NULL)
		die(e);
	s.q = rd_kafka_queue_new(s.rk);
	if (floor_s > 0) {
		floor_run(&s, floor_s);
		n = 0;
	}
	for (i = 1; i <= n; i++) {
		int64_t t0 = mono_us(), c0 = cpu_us(), dt0, dc0, dt, dc;
		s.members = s.committed = s.partitions = s.reads = s.answered = s.stamped = 0;
		metadata(&s);
		list(&s);
		dt0 = mono_us();
		dc0 = cpu_us();
		describe(&s);
		dt = mono_us() - dt0;
		dc = cpu_us() - dc0;
		if (!describe_only) {
			offsets(&s);
			log_end(&s);
			reads(&s);
		}
		printf("refresh %d: groups %zu members %ld committed %ld partitions %ld wall_ms %.1f cpu_ms %.1f reads %ld "
		       "answered %ld timestamps %ld describe_wall_ms %.1f describe_cpu_ms %.1f\n",
		       i, s.ng, s.members, s.committed, s.partitions, (double)(mono_us() - t0) / 1000.0,
		       (double)(cpu_us() - c0) / 1000.0, s.reads, s.answered, s.stamped, (double)dt / 1000.0,
		       (double)dc / 1000.0);
		fflush(stdout);
	}
	rd_kafka_queue_destroy(s.q);
	rd_kafka_destroy_flags(s.rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	return 0;
}

/*
 * kafka_logend.c: the log-end and log-start offsets of every partition of
 * the topics in use, the last step of a refresh (kafka_refresh.c), on the
 * kafka source's worker thread.
 *
 * The partitions are asked per leader, in calls of at most
 * KG_KAFKA_LOG_END_CHUNK partitions (rd_kafka_offsets_for_times, one
 * ListOffsets request each, LATEST or EARLIEST: a request may not name a
 * partition twice).  librdkafka, 2.0.2 to 2.14.2, looks each partition up
 * in its leader's list and each answer up in the whole request list, so
 * one call costs the square of its size: defaults.h says what the chunk's
 * size costs (the bundled build matches them through an index of its own,
 * deps/librdkafka-tp-index.patch; test_kafka's test_log_end_each checks
 * that each partition gets its answer).  The calls block, so the leaders are asked concurrently:
 * each leader's calls one after the other on one of up to LOGEND_THREADS
 * threads, the worker itself one of them.  The threads are started the
 * first time a refresh has more than LOGEND_ALONE_CALLS calls and kept,
 * waiting on a condition variable, until the source closes (before, a
 * refresh started and joined a thread per leader: at every refresh of an
 * idle dashboard).  A refresh of at most LOGEND_ALONE_CALLS calls (a
 * small cluster, a big one at rest) makes them on the worker, one after
 * the other: a few round trips more, against waking the threads and
 * their allocations contending at once (`make bench-idle` at rest on 100
 * groups, three leaders: about a tenth of kgtop's CPU and 9 of its 58
 * wakeups a second).  Not while the last refresh's calls took more than
 * LOGEND_ALONE_US in all: a slow or loaded cluster (one after the other
 * they take their sum, at once the slowest leader's), a silent leader
 * (the listing did not hear from it: its calls wait the listing's grace;
 * the one refresh that finds two such waits it twice).
 *
 * A log start moves only when records are deleted (retention, which
 * brokers check every few minutes, or DeleteRecords), and it only matters
 * to the LOST verdict: a topic's log starts are read again every
 * KG_KAFKA_LOG_START_US, not every refresh (their reads were half of the
 * calls, and of the CPU librdkafka spends on them), the topics' turns
 * spread over that period, or all at the first turn when they fit in one
 * call a leader (starts_due); between reads the last ones are published.
 * A partition whose log end is below its kept log start (the topic made
 * anew) has its log start unknown and read at the next refresh.
 *
 * Log ends likewise, of a quiet topic: one that only groups without
 * members use (Empty or Dead in the listing), or settled freezes a screen
 * asks at their pace (lag_quiet), and whose log ends did not move at its
 * last read.  Such a topic's lag changes only when something
 * is produced to it, and nothing consumes it (or its consumers' commits,
 * which their groups' pace reads, say they recovered): its log ends are
 * read every KG_KAFKA_LOG_QUIET_US (the turns spread as the log starts',
 * and taken together with them while they fit in a call a leader:
 * ends_due), the last ones published between (at 10,000 groups, 9,000 of
 * them Empty on idle topics, they were 20,000 of the 22,000 log ends read
 * a refresh, and librdkafka's cost is per partition asked).  A topic
 * another group with members uses (or might: not listed, not known), a
 * watched one, one whose log ends moved or were not all answered, and
 * --once are read every refresh.
 */
#include "config.h"

#include "sources/kafka/kafka_logend.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "model/intern.h"
#include "sources/kafka/kafka_errors.h"
#include "sources/kafka/kafka_requests.h"
#include "sources/kafka/kafka_table.h"
#include "util/util.h"

/* at most this many leaders asked at once (the worker and LOGEND_THREADS - 1 threads) */
#define LOGEND_THREADS 16
/* a refresh of at most this many calls makes them on the worker alone, one after the other */
#define LOGEND_ALONE_CALLS 8
/* ... while the last refresh's calls took at most this long in all */
#define LOGEND_ALONE_US (100 * 1000)

/* refreshes whose calls were made on the worker alone, and together (kafka_logend_counts) */
static _Atomic uint64_t runs_alone, runs_together;
/* a first read's log starts are read again after 1/LOGEND_SPREAD to all of KG_KAFKA_LOG_START_US, by topic */
#define LOGEND_SPREAD 8

/*
 * One leader's share of the log-end and log-start queries, in calls of at
 * most KG_KAFKA_LOG_END_CHUNK partitions, each call one of the two.
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
	int64_t took_us; /* how long its calls took */
} leader_job;

/* The log starts and log ends last read of one topic (by interned id). */
typedef struct kept_topic {
	int np;          /* 0: none kept */
	int64_t *start;  /* np of them, -1 unknown */
	int64_t due_us;  /* read again from then on (monotonic) */
	int nend;        /* 0: no log ends kept */
	int64_t *end;    /* nend of them, -1 unknown */
	int64_t end_due_us; /* a quiet topic's log ends read again from then on (monotonic) */
	bool moving;     /* its log ends moved at the last read (read again at once: no turn of its) */
} kept_topic;

/* How a topic is used (used_topics) */
enum { TOPIC_UNUSED, TOPIC_QUIET, TOPIC_LIVE };

/*
 * What the log-end query keeps between refreshes: its threads, and the
 * log starts.  lock guards the jobs of the query under way (jobs, njobs,
 * next, pending) and quit, shared by the worker and the threads; work
 * wakes the threads (jobs or quit), done wakes the worker (the last job
 * finished).  A job, once taken (next), is its taker's alone until it
 * counts it done (pending).  The rest is the worker's.
 */
struct klogend {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	leader_job *jobs;
	int njobs, next, pending;
	bool quit;
	pthread_t thread[LOGEND_THREADS - 1];
	int nthreads;
	kept_topic *kept; /* by topic id */
	size_t nkept;
	int64_t took_us;  /* how long the last refresh's calls took in all (each job's, summed) */
};

/* Mark a chunk's partitions unknown (err) where its call gave no answer of theirs. */
static void
chunk_unknown(rd_kafka_topic_partition_list_t *l, rd_kafka_resp_err_t err)
{
	int q;
	for (q = 0; q < l->cnt; q++) {
		if (l->elems[q].err == RD_KAFKA_RESP_ERR_NO_ERROR)
			l->elems[q].err = err;
	}
}

/*
 * Query one leader's partitions, a chunk per call.  A call that timed out
 * ends the leader's share: its other chunks are left unknown, not waited
 * for again.
 */
static void
leader_query(leader_job *j)
{
	rd_kafka_resp_err_t e = RD_KAFKA_RESP_ERR_NO_ERROR;
	int64_t t0 = util_mono_us();
	int i;
	for (i = 0; i < j->nchunk && !atomic_load(&j->k->stop) && e != RD_KAFKA_RESP_ERR__TIMED_OUT; i++) {
		e = rd_kafka_offsets_for_times(j->k->rk, j->chunk[i], j->timeout_ms);
		if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
			j->err = e;
			j->failed++;
			chunk_unknown(j->chunk[i], e);
		}
	}
	for (; i < j->nchunk; i++) {
		chunk_unknown(j->chunk[i], RD_KAFKA_RESP_ERR__TIMED_OUT);
		j->failed++;
	}
	j->took_us = util_mono_us() - t0;
}

/* Take jobs of the query under way until none is left (lock held on entry and on return). */
static void
take_jobs(struct klogend *le)
{
	while (le->next < le->njobs) {
		leader_job *j = &le->jobs[le->next++];
		pthread_mutex_unlock(&le->lock);
		leader_query(j);
		pthread_mutex_lock(&le->lock);
		if (--le->pending == 0)
			pthread_cond_signal(&le->done);
	}
}

/* A kept thread: the jobs of each query, until quit. */
static void *
logend_thread(void *arg)
{
	struct klogend *le = arg;
	pthread_setname_np(pthread_self(), "kg-logend");
	pthread_mutex_lock(&le->lock);
	while (!le->quit) {
		take_jobs(le);
		if (!le->quit)
			pthread_cond_wait(&le->work, &le->lock);
	}
	pthread_mutex_unlock(&le->lock);
	return NULL;
}

/* The source's log-end state, made at its first query. */
static struct klogend *
logend_get(ksrc *k)
{
	if (k->logend == NULL) {
		struct klogend *le = xcalloc(1, sizeof *le);
		pthread_mutex_init(&le->lock, NULL);
		pthread_cond_init(&le->work, NULL);
		pthread_cond_init(&le->done, NULL);
		k->logend = le;
	}
	return k->logend;
}

/*
 * Run the jobs together: the kept threads (as many more started as the
 * leaders need, up to LOGEND_THREADS - 1) and the worker itself take them
 * one at a time; back when every job is done.
 */
static void
run_together(struct klogend *le, leader_job *jobs, int njobs)
{
	int want = KG_MIN(njobs - 1, LOGEND_THREADS - 1);
	pthread_mutex_lock(&le->lock);
	le->jobs = jobs;
	le->njobs = le->pending = njobs;
	le->next = 0;
	while (le->nthreads < want && pthread_create(&le->thread[le->nthreads], NULL, logend_thread, le) == 0)
		le->nthreads++;
	if (njobs > 1)
		pthread_cond_broadcast(&le->work);
	take_jobs(le);
	while (le->pending > 0)
		pthread_cond_wait(&le->done, &le->lock);
	le->jobs = NULL;
	le->njobs = le->next = 0;
	pthread_mutex_unlock(&le->lock);
}

/*
 * Run the jobs: on the worker alone, one after the other, when they are at
 * most LOGEND_ALONE_CALLS calls and the last refresh's calls were quick
 * (LOGEND_ALONE_US in all); else together.
 */
static void
run_jobs(struct klogend *le, leader_job *jobs, int njobs)
{
	int calls = 0, i;
	for (i = 0; i < njobs; i++)
		calls += jobs[i].nchunk;
	if (le->took_us <= LOGEND_ALONE_US && calls <= LOGEND_ALONE_CALLS) {
		for (i = 0; i < njobs; i++)
			leader_query(&jobs[i]);
		atomic_fetch_add(&runs_alone, 1);
	} else {
		run_together(le, jobs, njobs);
		atomic_fetch_add(&runs_together, 1);
	}
	le->took_us = 0;
	for (i = 0; i < njobs; i++)
		le->took_us += jobs[i].took_us;
}

void
kafka_logend_counts(uint64_t *alone, uint64_t *together)
{
	*alone = atomic_load(&runs_alone);
	*together = atomic_load(&runs_together);
}

void
kafka_logend_free(struct klogend *le)
{
	int i;
	size_t t;
	if (le == NULL)
		return;
	pthread_mutex_lock(&le->lock);
	le->quit = true;
	pthread_cond_broadcast(&le->work);
	pthread_mutex_unlock(&le->lock);
	for (i = 0; i < le->nthreads; i++)
		pthread_join(le->thread[i], NULL);
	for (t = 0; t < le->nkept; t++) {
		free(le->kept[t].start);
		free(le->kept[t].end);
	}
	free(le->kept);
	pthread_cond_destroy(&le->work);
	pthread_cond_destroy(&le->done);
	pthread_mutex_destroy(&le->lock);
	free(le);
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
		/* a leader the listing did not hear from (its connection down, most likely) gets the listing's grace */
		job->timeout_ms = kafka_broker_silent(k, leader) ? KG_MIN(timeout, KAFKA_LIST_GRACE_US / 1000) : timeout;
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

/*
 * True for a group known to have no member: the listing says Empty or
 * Dead, or says nothing and its last description had none.  Not listed
 * (a watch), or nothing known: it may have members.
 */
static bool
memberless(const kentry *e)
{
	if (!e->listed_now)
		return false;
	if (e->s.listed == KG_STATE_EMPTY || e->s.listed == KG_STATE_DEAD)
		return true;
	return e->s.listed == KG_STATE_UNKNOWN && e->desc != NULL && e->desc->nm == 0;
}

/*
 * True for a group whose lag changes only when something is produced to
 * its topics, at a pace a screen asks it at anyway: one without members,
 * or a settled freeze (kafka_sched_settled: its commits stood still past
 * the STALLED rule's threshold, its verdict in) that the scheduler asks
 * only every KSCHED_QUIET_US (not selected, watched or spoken of: its
 * pace).  Its recovery shows in its committed offsets at that pace, and
 * then it is no settled freeze: its topics are read every refresh again.
 * A group at zero lag with members is not one: a stop would be seen only
 * once its log end moves, which is then read at once.
 */
static bool
lag_quiet(const ksrc *k, const kentry *e, int64_t now_us)
{
	return memberless(e) ||
	       (kafka_sched_settled(&k->sched, &e->s, now_us) && kafka_sched_pace(&k->sched, &e->s, now_us) > 0);
}

/*
 * How the known groups use each topic (TOPIC_*: their offsets, their
 * members' assignments, watched topics): TOPIC_LIVE when a group that may
 * have members uses it (lag_quiet: but a settled freeze at its pace) or
 * it is watched, TOPIC_QUIET when only groups without members or
 * settled freezes do.
 */
static uint8_t *
used_topics(ksrc *k, kresult *r, const int32_t *tid, size_t ntid)
{
	uint8_t *used = xcalloc((size_t)(r->ntopics ? r->ntopics : 1), sizeof *used);
	size_t i;
	int q, a;
	uint8_t how;
#define MARK(t, h)                                                   \
	do {                                                         \
		if ((t) >= 0 && (size_t)(t) < ntid && tid[(t)] >= 0) \
			used[tid[(t)]] = KG_MAX(used[tid[(t)]], (h)); \
	} while (0)
	for (i = 0; i < k->tab.n; i++) {
		const kentry *e = &k->tab.e[i];
		how = lag_quiet(k, e, r->time_us) ? TOPIC_QUIET : TOPIC_LIVE;
		MARK(e->watch_topic, TOPIC_LIVE);
		for (q = 0; e->offs != NULL && q < e->offs->nc; q++)
			MARK(e->offs->c[q].tp.topic, how);
		for (q = 0; e->desc != NULL && q < e->desc->nm; q++) {
			for (a = 0; a < e->desc->m[q].nasg; a++)
				MARK(e->desc->m[q].asg[a].topic, how);
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
			const char *last = NULL; /* a chunk holds its topics' partitions one topic after the other */
			int32_t t = -1;
			for (q = 0; q < l->cnt; q++) {
				int x, p = l->elems[q].partition;
				if (last == NULL || strcmp(last, l->elems[q].topic) != 0)
					t = intern_topic(last = l->elems[q].topic);
				x = (size_t)t < ntid ? tid[t] : -1;
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

/* The kept log starts of a topic (its slot made when new). */
static kept_topic *
kept_of(struct klogend *le, int32_t id)
{
	if ((size_t)id >= le->nkept) {
		size_t n = le->nkept ? le->nkept : 64;
		while (n <= (size_t)id)
			n *= 2;
		le->kept = xreallocarray(le->kept, n, sizeof *le->kept);
		memset(le->kept + le->nkept, 0, (n - le->nkept) * sizeof *le->kept);
		le->nkept = n;
	}
	return &le->kept[id];
}

/* True when topic t's log starts are to be read this refresh; else the kept ones are put in. */
static bool
start_due(ksrc *k, struct klogend *le, ktopic *t, int64_t now)
{
	kept_topic *ks = kept_of(le, t->id);
	if (k->cfg.once || ks->np != t->np || ks->due_us <= now)
		return true;
	memcpy(t->log_start, ks->start, (size_t)t->np * sizeof *t->log_start);
	return false;
}

/*
 * True when topic t's log ends are to be read this refresh: a live topic
 * (how), --once, a quiet one when its turn came or its partitions
 * changed; else the kept ones are put in (unknown where a partition has
 * no leader now, as a read would leave it).
 */
static bool
end_due(ksrc *k, struct klogend *le, ktopic *t, uint8_t how, int64_t now)
{
	kept_topic *ks = kept_of(le, t->id);
	int q;
	if (how == TOPIC_LIVE || k->cfg.once || ks->nend != t->np || ks->end_due_us <= now)
		return true;
	for (q = 0; q < t->np; q++)
		t->log_end[q] = t->leader[q] >= 0 ? ks->end[q] : -1;
	return false;
}

/*
 * After the answers: keep what a read topic's log ends are; a quiet read
 * again a period on (a first read's between 1/LOGEND_SPREAD and all of
 * it, by topic), or at the next refresh when they moved or a partition
 * with a leader got no answer.
 */
static void
end_keep(struct klogend *le, ktopic *t, int64_t now)
{
	kept_topic *ks = kept_of(le, t->id);
	bool first = ks->nend == 0, moved = ks->nend != t->np;
	int q;
	if (ks->nend != t->np) {
		ks->end = xreallocarray(ks->end, (size_t)(t->np ? t->np : 1), sizeof *ks->end);
		ks->nend = t->np;
	}
	for (q = 0; q < t->np; q++) {
		moved = moved || ks->end[q] != t->log_end[q] || (t->leader[q] >= 0 && t->log_end[q] < 0);
		ks->end[q] = t->log_end[q];
	}
	ks->moving = moved && !first;
	if (ks->moving)
		ks->end_due_us = now;
	else if (first)
		ks->end_due_us = now + KG_KAFKA_LOG_QUIET_US * (1 + t->id % LOGEND_SPREAD) / LOGEND_SPREAD;
	else
		ks->end_due_us = now + KG_KAFKA_LOG_QUIET_US;
}

/* True when the partitions of every used topic fit in one call a leader (KG_KAFKA_LOG_END_CHUNK each). */
static bool
one_call_a_leader(const kresult *r, const uint8_t *used)
{
	int32_t *leader = NULL; /* a leader's id, its partitions in use after it */
	int j, q, l, nl = 0;
	size_t cap = 0;
	bool fits = true;
	for (j = 0; j < r->ntopics && fits; j++) {
		if (used[j] == TOPIC_UNUSED)
			continue;
		for (q = 0; q < r->topics[j].np && fits; q++) {
			if (r->topics[j].leader[q] < 0)
				continue;
			for (l = 0; l < nl && leader[2 * l] != r->topics[j].leader[q]; l++)
				;
			if (l == nl) {
				util_grow(&leader, &cap, (size_t)(2 * nl + 2), sizeof *leader);
				leader[2 * nl] = r->topics[j].leader[q];
				leader[2 * nl + 1] = 0;
				nl++;
			}
			fits = ++leader[2 * l + 1] <= KG_KAFKA_LOG_END_CHUNK;
		}
	}
	free(leader);
	return fits;
}

/*
 * Which used topics' log starts this refresh reads (read[j]).  The
 * topics' turns are spread over KG_KAFKA_LOG_START_US so that a big
 * cluster's reads do not all fall on one refresh; when every log start in
 * use fits in one call a leader (at most KG_KAFKA_LOG_END_CHUNK
 * partitions each: fits), the topics due take the others with them: the same call reads
 * them all, where their spread turns cost a call a leader each (at rest
 * on 100 topics, 24 calls every 10 s for 3; none is read later than its turn).
 */
static void
starts_due(ksrc *k, struct klogend *le, kresult *r, const uint8_t *used, bool fits, bool *read, int64_t now)
{
	int j;
	bool any = false;
	for (j = 0; j < r->ntopics; j++) {
		if (used[j] != TOPIC_UNUSED) {
			read[j] = start_due(k, le, &r->topics[j], now);
			any = any || read[j];
		}
	}
	if (!any || !fits)
		return;
	for (j = 0; j < r->ntopics; j++)
		read[j] = used[j] != TOPIC_UNUSED;
}

/*
 * Which used topics' log ends this refresh reads (ends[j]): the live
 * ones, the quiet ones whose turn came or whose log ends moved at their
 * last read (end_due); and when the log starts are read, or a quiet
 * topic's turn came (not a moving one's re-read: an Empty group on a
 * busy topic would take every quiet topic with it every refresh), and
 * all fit in one call a leader, every quiet topic with them, as the log
 * starts: the calls are made anyway, and the quiet topics' turns fall on
 * the same refresh from then on (at rest on 100 settled or Empty groups,
 * one refresh in ten reads their log ends, where their spread turns made
 * calls in every refresh).
 */
static void
ends_due(ksrc *k, struct klogend *le, kresult *r, const uint8_t *used, bool fits, const bool *read, bool *ends,
	 int64_t now)
{
	int j;
	bool batch = false;
	for (j = 0; j < r->ntopics; j++) {
		if (used[j] == TOPIC_UNUSED)
			continue;
		ends[j] = end_due(k, le, &r->topics[j], used[j], now);
		batch = batch || read[j] ||
			(ends[j] && used[j] == TOPIC_QUIET && !kept_of(le, r->topics[j].id)->moving);
	}
	for (j = 0; j < r->ntopics; j++) {
		if (batch && fits && !ends[j] && used[j] == TOPIC_QUIET)
			ends[j] = true;
		r->log_end_kept += used[j] != TOPIC_UNUSED && !ends[j];
	}
}

/*
 * After the answers: keep what a read topic's log starts are, its next
 * read due a period on (a first read's between 1/LOGEND_SPREAD and all of
 * it, by topic, so the topics' reads spread over the period), or at the
 * next refresh where a partition with a leader got no answer.  A kept
 * log start above its partition's new log end is not believed.
 */
static void
start_keep(struct klogend *le, ktopic *t, bool read, int64_t now)
{
	kept_topic *ks = kept_of(le, t->id);
	int q;
	if (read) {
		bool first = ks->np == 0, missing = false;
		if (ks->np != t->np) {
			ks->start = xreallocarray(ks->start, (size_t)(t->np ? t->np : 1), sizeof *ks->start);
			ks->np = t->np;
		}
		memcpy(ks->start, t->log_start, (size_t)t->np * sizeof *t->log_start);
		for (q = 0; q < t->np; q++)
			missing = missing || (t->leader[q] >= 0 && t->log_start[q] < 0);
		if (missing)
			ks->due_us = now;
		else if (first)
			ks->due_us = now + KG_KAFKA_LOG_START_US * (1 + t->id % LOGEND_SPREAD) / LOGEND_SPREAD;
		else
			ks->due_us = now + KG_KAFKA_LOG_START_US;
		return;
	}
	for (q = 0; q < t->np; q++) {
		if (t->log_end[q] >= 0 && t->log_start[q] > t->log_end[q]) {
			t->log_start[q] = -1;
			ks->due_us = now;
		}
	}
}

/*
 * Log-end offsets of every partition of the topics in use, and the log
 * starts that are due: per leader, in calls of at most
 * KG_KAFKA_LOG_END_CHUNK partitions (one ListOffsets each, LATEST or
 * EARLIEST), the leaders asked concurrently, each leader's calls one after
 * the other.  A leader that does not answer leaves its partitions' offsets
 * unknown (said in *note); when none answers the refresh fails.
 */
int
kafka_log_end(ksrc *k, kresult *r, char **err, char **note)
{
	struct klogend *le = logend_get(k);
	leader_job *jobs = NULL;
	int njobs = 0, i, j, q, timeout = (int)(k->cfg.timeout_us / 1000), nfailed = 0;
	size_t cap = 0, ntid = 0;
	int32_t *tid = NULL; /* topic id -> index in r->topics */
	uint8_t *used;
	bool *read, *ends, fits;
	int64_t now = util_mono_us();
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
	read = xcalloc((size_t)(r->ntopics ? r->ntopics : 1), sizeof *read);
	ends = xcalloc((size_t)(r->ntopics ? r->ntopics : 1), sizeof *ends);
	fits = one_call_a_leader(r, used);
	starts_due(k, le, r, used, fits, read, now);
	ends_due(k, le, r, used, fits, read, ends, now);
	for (j = 0; j < r->ntopics; j++) {
		if (used[j] == TOPIC_UNUSED)
			continue;
		for (q = 0; q < r->topics[j].np; q++) {
			if (r->topics[j].leader[q] < 0)
				continue;
			if (ends[j])
				job_add(&jobs, &njobs, &cap, k, r->topics[j].leader[q], intern_topic_name(r->topics[j].id),
					q, timeout, false);
			if (read[j])
				job_add(&jobs, &njobs, &cap, k, r->topics[j].leader[q], intern_topic_name(r->topics[j].id),
					q, timeout, true);
		}
	}
	run_jobs(le, jobs, njobs);
	for (i = 0; i < njobs; i++) {
		if (jobs[i].failed > 0) {
			nfailed++;
			e = jobs[i].err;
		}
	}
	k->log_end_calls = log_end_take(r, jobs, njobs, tid, ntid);
	r->requests += k->log_end_calls;
	for (j = 0; j < r->ntopics; j++) {
		if (used[j] == TOPIC_UNUSED)
			continue;
		if (ends[j]) {
			end_keep(le, &r->topics[j], now);
			/* a partition without a leader, or whose leader gave no log end: the metadata again (kafka_refresh.c) */
			for (q = 0; q < r->topics[j].np; q++)
				k->md_due = k->md_due || r->topics[j].leader[q] < 0 || r->topics[j].log_end[q] < 0;
		}
		start_keep(le, &r->topics[j], read[j], now);
	}
	free(used);
	free(read);
	free(ends);
	free(jobs);
	free(tid);
	if (nfailed > 0 && nfailed == njobs) {
		*err = kafka_cluster_reason(&k->errs);
		if (*err == NULL)
			*err = kafka_describe_error(e, "log-end offsets");
		return -1;
	}
	if (nfailed > 0)
		*note = xasprintf("log-end offsets unknown on %d of %d leaders: %s", nfailed, njobs, rd_kafka_err2str(e));
	return 0;
}

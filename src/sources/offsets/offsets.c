/*
 * offsets.c: the reader of __consumer_offsets (see offsets.h).
 *
 * The worker thread owns the librdkafka handle and the folded state
 * (offsets_state.h); the source record's lock guards what the collector
 * thread reads: the queue of observations, the health and the counts.
 * The worker:
 *   1. asks the topic's metadata (a refusal: the ACL said in the health,
 *      asked again after OFFSETS_RETRY_US), and each partition's log start
 *      and end (the load's goal, for its progress);
 *   2. starts every partition at its log start on one queue (the simple
 *      consumer: rd_kafka_consume_start_queue, auto.offset.reset=error so
 *      an offset gone is said, never silently replaced);
 *   3. takes messages in batches: a record is folded (live once its
 *      partition reached its end); the end of a partition (librdkafka's
 *      PARTITION_EOF) makes the observations of its loaded state; an
 *      offset out of range restarts the partition at its log start, the
 *      offsets already folded skipped;
 *   4. hands its observations over under the lock, and stops taking
 *      messages while OFFSETS_QUEUE_MAX wait.
 * The collector thread's poll serves librdkafka's error callback (no
 * broker reachable, TLS, SASL: kafka_errors.h, as the kafka source does)
 * and says news when observations wait.
 */
#include "config.h"

#include "sources/offsets/offsets.h"

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/defaults.h"
#include "sources/kafka/kafka.h"
#include "sources/kafka/kafka_errors.h"
#include "sources/offsets/offsets_state.h"
#include "util/log.h"
#include "util/util.h"

#define BATCH 1000 /* messages taken at once */

/* A partition of the topic as the worker reads it. */
typedef struct opart {
	int64_t lo, hi;      /* its log start and end when the load began: the load's goal */
	int64_t next;        /* the next offset to fold (re-read offsets below it are skipped) */
	bool started;
	bool loaded;         /* reached its end once: its records are live */
} opart;

/* The source. */
typedef struct osrc {
	kg_offsets_config cfg;
	char *brokers;
	kg_kv *props;
	size_t nprops;
	kg_source *self;
	rd_kafka_t *rk;
	pthread_t thread;
	bool started;
	atomic_bool stop;
	kerrs errs;
	/* the worker's own */
	kg_costate *st;
	rd_kafka_topic_t *rkt;
	rd_kafka_queue_t *rq;
	opart *p;
	int np;
	/* under lock: what the collector thread reads */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	kg_obsq q;
	kg_costats stats;
	int nloaded;          /* partitions at their end */
	int64_t load_done;    /* records read of the load's goal */
	int64_t load_goal;
	bool loaded;          /* every partition at its end */
	bool complete_told;
	bool fresh;
	bool told_cluster_err;
	int64_t load_started_us, load_us; /* when the load began and how long it took (0 not over) */
	int64_t ok_since_us, last_ok_us;
	char *err_msg;        /* no reading at all (refused, no topic): why */
	int64_t err_since_us;
	char *note;           /* something said while reading (a restart at the log start) */
	size_t queue_backlog; /* observations waiting when the health was composed */
} osrc;

/* librdkafka's error callback: cluster-wide trouble, kept for the health (any thread). */
static void
on_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	osrc *o = opaque;
	(void)rk;
	kafka_errors_take(&o->errs, err, reason);
}

/* librdkafka's log callback: into our log, never the terminal. */
static void
on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
	(void)rk;
	log_msg(level <= 6 ? KG_LOG_INFO : KG_LOG_DEBUG, "rdkafka (offsets) %s: %s", fac, buf);
}

/* Wake the collector. */
static void
wake(osrc *o)
{
	if (o->self != NULL && o->self->ctx.wake != NULL)
		o->self->ctx.wake(o->self->ctx.wake_arg);
}

/* Sleep up to us, or until stop (the worker). */
static void
nap(osrc *o, int64_t us)
{
	int64_t end = util_mono_us() + us;
	pthread_mutex_lock(&o->lock);
	while (!atomic_load(&o->stop) && util_mono_us() < end) {
		struct timespec ts;
		int64_t left = KG_MIN(end - util_mono_us(), 200000);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)(left % 1000000) * 1000;
		ts.tv_sec += (time_t)(left / 1000000) + ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		pthread_cond_timedwait(&o->cond, &o->lock, &ts);
	}
	pthread_mutex_unlock(&o->lock);
}

/* Say why nothing can be read (NULL: it can again); under no lock. */
static void
set_error(osrc *o, const char *msg)
{
	pthread_mutex_lock(&o->lock);
	if (msg == NULL) {
		free(o->err_msg);
		o->err_msg = NULL;
		o->err_since_us = 0;
	} else if (o->err_msg == NULL || strcmp(o->err_msg, msg) != 0) {
		free(o->err_msg);
		o->err_msg = xstrdup(msg);
		o->err_since_us = util_now_us();
		log_msg(KG_LOG_INFO, "offsets: %s", msg);
	}
	o->fresh = true;
	pthread_mutex_unlock(&o->lock);
	wake(o);
}

/* The ACL the topic needs, in words, with the principal when the properties name one. */
static char *
denied_words(const osrc *o)
{
	const char *user = "NAME";
	size_t i;
	for (i = 0; i < o->nprops; i++) {
		if (strcmp(o->props[i].key, "sasl.username") == 0 && o->props[i].value[0] != '\0')
			user = o->props[i].value;
	}
	return xasprintf("not authorised to read " OFFSETS_TOPIC ": it needs Describe and Read on the topic "
			 "(kafka-acls.sh --bootstrap-server %s --add --allow-principal User:%s --operation Describe "
			 "--operation Read --topic " OFFSETS_TOPIC "); the cluster is polled as ever, tried again every %llds",
			 o->brokers, user, (long long)(OFFSETS_RETRY_US / KG_SEC_US));
}

/* ------------------------------------------------------------ the start */

/*
 * The topic's handle: an offset the log no longer has is said
 * (auto.offset.reset=error), never silently replaced by its end; the
 * simple consumer's own commit (a topic property, default true) is off:
 * kgtop never commits.
 */
static rd_kafka_topic_t *
topic_handle(osrc *o)
{
	rd_kafka_topic_conf_t *tc = rd_kafka_topic_conf_new();
	char e[256];
	if (rd_kafka_topic_conf_set(tc, "auto.offset.reset", "error", e, sizeof e) != RD_KAFKA_CONF_OK ||
	    rd_kafka_topic_conf_set(tc, "auto.commit.enable", "false", e, sizeof e) != RD_KAFKA_CONF_OK)
		log_msg(KG_LOG_WARN, "offsets: a topic property: %s", e);
	return rd_kafka_topic_new(o->rk, OFFSETS_TOPIC, tc);
}

/* The topic's partitions and their log start and end; 0, or -1 with the reason said (set_error). */
static int
open_topic(osrc *o)
{
	const struct rd_kafka_metadata *md = NULL;
	rd_kafka_resp_err_t err;
	int timeout_ms = (int)(o->cfg.timeout_us / 1000), i, np;
	char *why;
	/* the handle the reads use, made first: librdkafka keeps a topic's first configuration for good */
	if (o->rkt == NULL)
		o->rkt = topic_handle(o);
	err = rd_kafka_metadata(o->rk, 0, o->rkt, &md, timeout_ms);
	if (err == RD_KAFKA_RESP_ERR_NO_ERROR && md->topic_cnt == 1)
		err = md->topics[0].err;
	if (err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED) {
		why = denied_words(o);
	} else if (err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || (err == 0 && md->topics[0].partition_cnt == 0)) {
		why = xstrdup("the cluster has no " OFFSETS_TOPIC " yet (no group has committed or formed): tried again later");
	} else if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
		char *d = kafka_describe_error(err, NULL);
		why = xasprintf("metadata of " OFFSETS_TOPIC ": %s", d);
		free(d);
	} else {
		why = NULL;
	}
	if (why != NULL) {
		if (md != NULL)
			rd_kafka_metadata_destroy(md);
		set_error(o, why);
		free(why);
		return -1;
	}
	np = md->topics[0].partition_cnt;
	rd_kafka_metadata_destroy(md);
	o->p = xcalloc((size_t)np, sizeof *o->p);
	o->np = np;
	for (i = 0; i < np && !atomic_load(&o->stop); i++) {
		int64_t lo = 0, hi = 0;
		err = rd_kafka_query_watermark_offsets(o->rk, OFFSETS_TOPIC, i, &lo, &hi, timeout_ms);
		if (err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED) {
			why = denied_words(o);
			set_error(o, why);
			free(why);
			return -1;
		}
		/* no answer: the goal is learnt at the partition's end */
		o->p[i].lo = err == 0 ? lo : 0;
		o->p[i].hi = err == 0 ? hi : -1;
	}
	return 0;
}

/* Start reading every partition at its log start; the load's goal counted. */
static void
start_partitions(osrc *o)
{
	int64_t goal = 0;
	int i;
	o->rq = rd_kafka_queue_new(o->rk);
	for (i = 0; i < o->np; i++) {
		o->p[i].next = o->p[i].lo;
		o->p[i].started = rd_kafka_consume_start_queue(o->rkt, i, RD_KAFKA_OFFSET_BEGINNING, o->rq) == 0;
		if (o->p[i].hi > o->p[i].lo)
			goal += o->p[i].hi - o->p[i].lo;
		if (!o->p[i].started)
			log_msg(KG_LOG_WARN, "offsets: partition %d: %s", i, rd_kafka_err2str(rd_kafka_last_error()));
	}
	pthread_mutex_lock(&o->lock);
	o->load_goal = goal;
	o->load_started_us = util_mono_us();
	pthread_mutex_unlock(&o->lock);
}

/* ------------------------------------------------------------ reading */

/* Hand observations over (under the lock), with the counts; wake the collector. */
static void
hand_over(osrc *o, kg_obsq *q, int64_t read)
{
	pthread_mutex_lock(&o->lock);
	obsq_move(&o->q, q);
	o->stats = *offsets_state_stats(o->st);
	o->load_done += read;
	o->last_ok_us = util_now_us();
	if (o->ok_since_us == 0)
		o->ok_since_us = o->last_ok_us;
	o->fresh = true;
	pthread_mutex_unlock(&o->lock);
	wake(o);
}

/* Partition i reached its end: its loaded state told; the load is over when it was the last. */
static void
part_loaded(osrc *o, int i, kg_obsq *q)
{
	if (o->p[i].loaded)
		return;
	o->p[i].loaded = true;
	offsets_state_loaded(o->st, i, util_now_us(), o->cfg.history_us, q);
	pthread_mutex_lock(&o->lock);
	o->nloaded++;
	if (o->nloaded == o->np && !o->loaded) {
		o->loaded = true;
		o->load_us = util_mono_us() - o->load_started_us;
		log_msg(KG_LOG_INFO, "offsets: loaded in %.2f s", (double)o->load_us / 1e6);
	}
	pthread_mutex_unlock(&o->lock);
}

/* An offset out of range: compaction or deletion moved the log start under the reader; read again from it. */
static void
part_restart(osrc *o, int i, rd_kafka_resp_err_t err)
{
	char *why;
	rd_kafka_consume_stop(o->rkt, i);
	o->p[i].started = rd_kafka_consume_start_queue(o->rkt, i, RD_KAFKA_OFFSET_BEGINNING, o->rq) == 0;
	why = xasprintf("partition %d: %s at offset %lld (compacted or deleted while read): read again from its log "
			"start, the records already read skipped",
			i, rd_kafka_err2str(err), (long long)o->p[i].next);
	log_msg(KG_LOG_INFO, "offsets: %s", why);
	pthread_mutex_lock(&o->lock);
	free(o->note);
	o->note = why;
	o->fresh = true;
	pthread_mutex_unlock(&o->lock);
}

/* One message: a record folded, a partition's end, or an error; true when it was a record read. */
static bool
take(osrc *o, rd_kafka_message_t *m, kg_obsq *q)
{
	int i = m->partition;
	char err[256];
	if (i < 0 || i >= o->np)
		return false;
	if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
		part_loaded(o, i, q);
		return false;
	}
	if (m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE || m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET) {
		part_restart(o, i, m->err);
		return false;
	}
	if (m->err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED) {
		char *why = denied_words(o);
		set_error(o, why);
		free(why);
		return false;
	}
	if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
		log_msg(KG_LOG_DEBUG, "offsets: partition %d: %s", i, rd_kafka_message_errstr(m));
		return false;
	}
	if (m->offset < o->p[i].next)
		return false; /* read again after a restart: folded already */
	o->p[i].next = m->offset + 1;
	offsets_state_read(o->st, i, m->key, m->key_len, m->payload, m->payload ? m->len : 0,
			   rd_kafka_message_timestamp(m, NULL), o->p[i].loaded, q, err, sizeof err);
	/* at the goal: loaded, whether or not the end is reported next */
	if (!o->p[i].loaded && o->p[i].hi >= 0 && o->p[i].next >= o->p[i].hi)
		part_loaded(o, i, q);
	return true;
}

/* True while the collector has not taken enough of what waits to read more. */
static bool
queue_full(osrc *o)
{
	bool full;
	pthread_mutex_lock(&o->lock);
	full = o->q.n >= OFFSETS_QUEUE_MAX;
	pthread_mutex_unlock(&o->lock);
	return full;
}

/* Read until stopped or refused. */
static void
read_loop(osrc *o)
{
	rd_kafka_message_t *msgs[BATCH];
	kg_obsq q = { 0 };
	int i;
	/* a partition with nothing in it is at its end at once */
	for (i = 0; i < o->np; i++) {
		if (o->p[i].hi >= 0 && o->p[i].hi <= o->p[i].lo)
			part_loaded(o, i, &q);
	}
	hand_over(o, &q, 0);
	while (!atomic_load(&o->stop)) {
		ssize_t n, k;
		int64_t read = 0;
		bool refused;
		if (queue_full(o)) {
			nap(o, 50000);
			continue;
		}
		/* the first message as soon as it comes, then what else is there now (a batch call waits to fill) */
		msgs[0] = rd_kafka_consume_queue(o->rq, 200);
		n = msgs[0] != NULL ? 1 : 0;
		if (n == 1) {
			ssize_t more = rd_kafka_consume_batch_queue(o->rq, 0, msgs + 1, BATCH - 1);
			n += more > 0 ? more : 0;
		}
		for (k = 0; k < n; k++) {
			read += take(o, msgs[k], &q);
			rd_kafka_message_destroy(msgs[k]);
		}
		if (n > 0 || q.n > 0)
			hand_over(o, &q, read);
		pthread_mutex_lock(&o->lock);
		refused = o->err_msg != NULL;
		pthread_mutex_unlock(&o->lock);
		if (refused)
			break;
	}
	obsq_clear(&q);
	free(q.v);
}

/* Stop reading: the partitions, the queue, the topic handle. */
static void
close_topic(osrc *o)
{
	int i;
	for (i = 0; o->rkt != NULL && i < o->np; i++) {
		if (o->p[i].started)
			rd_kafka_consume_stop(o->rkt, i);
	}
	if (o->rq != NULL)
		rd_kafka_queue_destroy(o->rq);
	o->rq = NULL; /* the topic's handle stays: librdkafka would keep its first configuration anyway */
	free(o->p);
	o->p = NULL;
	o->np = 0;
}

/* The worker: open the topic (again after a refusal), read it. */
static void *
worker(void *arg)
{
	osrc *o = arg;
	while (!atomic_load(&o->stop)) {
		if (open_topic(o) < 0) {
			nap(o, OFFSETS_RETRY_US);
			continue;
		}
		set_error(o, NULL);
		start_partitions(o);
		read_loop(o);
		close_topic(o);
		/* refused while reading: the state is kept; the records before it are skipped when read again */
		if (!atomic_load(&o->stop))
			nap(o, OFFSETS_RETRY_US);
	}
	return NULL;
}

/* ------------------------------------------------------------ source ops */

/* Start the worker (on the collector thread, once the collector wired our wake-up). */
static void
offsets_start(osrc *o)
{
	if (!o->started && pthread_create(&o->thread, NULL, worker, o) == 0)
		o->started = true;
}

/* News when observations wait or the health changed; complete once loaded and all of it taken. */
static int
offsets_poll(kg_source *s, int64_t now_us)
{
	osrc *o = s->impl;
	int flags = 0, ce;
	(void)now_us;
	offsets_start(o);
	rd_kafka_poll(o->rk, 0); /* librdkafka's error callbacks */
	ce = kafka_cluster_err(&o->errs);
	pthread_mutex_lock(&o->lock);
	if (o->fresh || o->q.n > 0)
		flags |= KG_SRC_NEWS;
	if ((ce != 0) != o->told_cluster_err) {
		o->told_cluster_err = ce != 0;
		flags |= KG_SRC_NEWS;
	}
	if (o->loaded && o->q.n == 0 && !o->complete_told) {
		o->complete_told = true;
		flags |= KG_SRC_COMPLETE;
	}
	/* nothing can come: refused, or no broker answers before any record */
	if (!o->loaded && (o->err_msg != NULL || (ce != 0 && kafka_err_unreachable(ce) && o->last_ok_us == 0)))
		flags |= KG_SRC_FAILED;
	o->fresh = false;
	pthread_mutex_unlock(&o->lock);
	return flags;
}

/* Hand over at most OFFSETS_DRAIN_MAX observations, in the order they were made. */
static void
offsets_drain(kg_source *s, kg_obsq *q)
{
	osrc *o = s->impl;
	size_t n, i;
	pthread_mutex_lock(&o->lock);
	n = KG_MIN(o->q.n, (size_t)OFFSETS_DRAIN_MAX);
	for (i = 0; i < n; i++)
		obsq_push(q, o->q.v[i]);
	memmove(o->q.v, o->q.v + n, (o->q.n - n) * sizeof *o->q.v);
	o->q.n -= n;
	if (o->q.n > 0)
		o->fresh = true; /* the rest next refresh */
	pthread_mutex_unlock(&o->lock);
	if (n > 0)
		pthread_cond_signal(&o->cond);
}

/* What was read, in words: counts, and anything unknown or unreadable. */
static void
counts_words(const osrc *o, sbuf *b)
{
	const kg_costats *c = &o->stats;
	char r[32], g[32], p[32], n[32];
	util_fmt_count(r, sizeof r, c->records);
	util_fmt_count(g, sizeof g, c->groups);
	util_fmt_count(p, sizeof p, c->partitions);
	util_fmt_count(n, sizeof n, c->generations);
	sbuf_addf(b, "%s records: %s groups, %s committed partitions, %s generations", r, g, p, n);
	if (c->unknown > 0 || c->errors > 0)
		sbuf_addf(b, "; %lld unknown and %lld unreadable skipped (the last: %s)", (long long)c->unknown,
			  (long long)c->errors, c->last_error);
	if (c->unresolved > 0)
		sbuf_addf(b, "; %lld partitions of topic ids not yet named left out", (long long)c->unresolved);
	if (o->queue_backlog > 0)
		sbuf_addf(b, "; %zu waiting (at most %d a refresh)", o->queue_backlog, OFFSETS_DRAIN_MAX);
}

/* The health, under the lock; msg is what it says. */
static void
offsets_health(osrc *o, kg_source_health *h, sbuf *msg)
{
	int ce = kafka_cluster_err(&o->errs);
	h->last_ok_us = o->last_ok_us;
	if (o->err_msg != NULL) {
		h->status = KG_SRC_ERROR;
		h->since_us = o->err_since_us;
		sbuf_adds(msg, o->err_msg);
	} else if (ce != 0 && !o->loaded) {
		char *why = kafka_cluster_reason(&o->errs);
		h->status = KG_SRC_ERROR;
		sbuf_adds(msg, why != NULL ? why : kafka_err_reason(ce) ? kafka_err_reason(ce) : "no broker answers");
		free(why);
	} else if (!o->loaded) {
		int pct = o->load_goal > 0 ? (int)KG_MIN(99, o->load_done * 100 / o->load_goal) : 0;
		char d[32], g[32];
		h->status = KG_SRC_CONNECTING;
		if (o->p == NULL && o->load_started_us == 0) {
			sbuf_addf(msg, "connecting to %s", o->brokers);
		} else {
			util_fmt_count(d, sizeof d, o->load_done);
			util_fmt_count(g, sizeof g, o->load_goal);
			sbuf_addf(msg, "loading %d%% (%s of %s records, %d of %d partitions at their end): ", pct, d, g,
				  o->nloaded, o->np);
			counts_words(o, msg);
		}
	} else if (ce != 0) {
		char *why = kafka_cluster_reason(&o->errs);
		h->status = KG_SRC_STALE;
		h->since_us = o->last_ok_us;
		sbuf_adds(msg, why != NULL ? why : "no broker answers");
		free(why);
	} else {
		char d[32];
		h->status = KG_SRC_OK;
		h->since_us = o->ok_since_us;
		util_fmt_duration(d, sizeof d, o->load_us);
		sbuf_addf(msg, "live, loaded in %s: ", d);
		counts_words(o, msg);
	}
	if (o->note != NULL)
		sbuf_addf(msg, "; %s", o->note);
}

/* The health only: the records' news are observations. */
static void
offsets_contribute(kg_source *s, kg_builder *b)
{
	osrc *o = s->impl;
	kg_source_health h;
	sbuf msg = { 0 };
	memset(&h, 0, sizeof h);
	h.name = s->name;
	pthread_mutex_lock(&o->lock);
	o->queue_backlog = o->q.n;
	offsets_health(o, &h, &msg);
	pthread_mutex_unlock(&o->lock);
	h.message = sbuf_str(&msg);
	builder_source(b, &h);
	sbuf_free(&msg);
}

/* Only wake-ups matter: the worker wakes the collector. */
static int64_t
offsets_next_poll(kg_source *s)
{
	(void)s;
	return 0;
}

/* Stop the worker and free everything. */
static void
offsets_close(kg_source *s)
{
	osrc *o = s->impl;
	size_t i;
	if (o == NULL)
		return;
	atomic_store(&o->stop, true);
	pthread_mutex_lock(&o->lock);
	pthread_cond_broadcast(&o->cond);
	pthread_mutex_unlock(&o->lock);
	if (o->started)
		pthread_join(o->thread, NULL);
	close_topic(o);
	if (o->rkt != NULL)
		rd_kafka_topic_destroy(o->rkt);
	if (o->rk != NULL)
		rd_kafka_destroy_flags(o->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	offsets_state_free(o->st);
	obsq_clear(&o->q);
	free(o->q.v);
	for (i = 0; i < o->nprops; i++) {
		free(o->props[i].key);
		free(o->props[i].value);
	}
	free(o->props);
	free(o->brokers);
	free(o->err_msg);
	free(o->note);
	kafka_errors_destroy(&o->errs);
	pthread_mutex_destroy(&o->lock);
	pthread_cond_destroy(&o->cond);
	free(o);
	s->impl = NULL;
}

static const kg_source_ops offsets_ops = {
	.kind = "offsets",
	.role = KG_ROLE_TRACE,
	.poll = offsets_poll,
	.drain = offsets_drain,
	.contribute = offsets_contribute,
	.next_poll = offsets_next_poll,
	.close = offsets_close,
};

/* Set one librdkafka property; a file's value is never shown. */
static int
set_prop(rd_kafka_conf_t *conf, const char *key, const char *value, const char *origin, char *err, size_t errsz)
{
	char e[512];
	if (rd_kafka_conf_set(conf, key, value, e, sizeof e) != RD_KAFKA_CONF_OK)
		return util_err(err, errsz, "--trace offsets: %s%s%s: %s", origin ? origin : "-X ", origin ? ": " : "", key, e);
	return 0;
}

/* The handle's properties: the cluster's connection, then what a reader that never commits needs. */
static int
configure(osrc *o, const kg_offsets_config *cfg, rd_kafka_conf_t *conf, char *err, size_t errsz)
{
	static const char *const forbidden[] = { "group.id", "group.instance.id", "enable.auto.commit", "isolation.level" };
	size_t i, f;
	/*
	 * Fetches of at most 1 MiB a partition, no more once 2 MiB of one
	 * partition wait: the reader takes them as fast as it decodes, and
	 * the topic's 50 partitions may hold at most 100 MiB in librdkafka.
	 */
	if (set_prop(conf, "reconnect.backoff.max.ms", "1000", NULL, err, errsz) < 0 ||
	    set_prop(conf, "fetch.message.max.bytes", "1048576", NULL, err, errsz) < 0 ||
	    set_prop(conf, "queued.max.messages.kbytes", "2048", NULL, err, errsz) < 0)
		return -1;
	o->props = xcalloc(cfg->nprops ? cfg->nprops : 1, sizeof *o->props);
	for (i = 0; i < cfg->nprops; i++) {
		for (f = 0; f < KG_ARRAY_LEN(forbidden); f++) {
			if (strcmp(cfg->props[i].key, forbidden[f]) == 0)
				return util_err(err, errsz, "%s%s%s: kgtop is read-only and sets this itself",
						cfg->props[i].origin ? cfg->props[i].origin : "-X",
						cfg->props[i].origin ? ": " : " ", cfg->props[i].key);
		}
		o->props[i].key = xstrdup(cfg->props[i].key);
		o->props[i].value = xstrdup(cfg->props[i].value);
		o->nprops++;
		if (set_prop(conf, cfg->props[i].key, cfg->props[i].value, cfg->props[i].origin, err, errsz) < 0)
			return -1;
	}
	/* committed transactions' offsets only, as the coordinator itself reads them */
	if (set_prop(conf, "bootstrap.servers", o->brokers, NULL, err, errsz) < 0 ||
	    set_prop(conf, "enable.auto.commit", "false", NULL, err, errsz) < 0 ||
	    set_prop(conf, "enable.auto.offset.store", "false", NULL, err, errsz) < 0 ||
	    set_prop(conf, "enable.partition.eof", "true", NULL, err, errsz) < 0 ||
	    set_prop(conf, "isolation.level", "read_committed", NULL, err, errsz) < 0 ||
	    set_prop(conf, "client.id", "kgtop-offsets", NULL, err, errsz) < 0 ||
	    set_prop(conf, "group.id", "kgtop.never-joins", NULL, err, errsz) < 0)
		return -1;
	return 0;
}

/* Create the source. */
int
offsets_source_new(const kg_offsets_config *cfg, kg_source **out, char *err, size_t errsz)
{
	osrc *o = xcalloc(1, sizeof *o);
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char e[512];
	*out = NULL;
	o->cfg = *cfg;
	if (o->cfg.history_us <= 0)
		o->cfg.history_us = OFFSETS_HISTORY_US;
	if (o->cfg.timeout_us <= 0)
		o->cfg.timeout_us = OFFSETS_TIMEOUT_US;
	o->brokers = xstrdup(cfg->brokers ? cfg->brokers : "");
	o->cfg.brokers = o->brokers;
	o->cfg.props = NULL;
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->cond, NULL);
	kafka_errors_init(&o->errs);
	o->st = offsets_state_new();
	if (configure(o, cfg, conf, err, errsz) < 0) {
		rd_kafka_conf_destroy(conf);
		goto fail;
	}
	rd_kafka_conf_set_error_cb(conf, on_error);
	rd_kafka_conf_set_log_cb(conf, on_log);
	rd_kafka_conf_set_opaque(conf, o);
	o->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, e, sizeof e);
	if (o->rk == NULL) {
		util_err(err, errsz, "--trace offsets: librdkafka: %s", e);
		goto fail;
	}
	*out = o->self = source_new(&offsets_ops, "offsets", o);
	return 0;
fail:
	{
		kg_source tmp = { .impl = o };
		offsets_close(&tmp);
	}
	return -1;
}

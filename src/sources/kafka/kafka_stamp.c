/*
 * kafka_stamp.c: the record at a committed offset, for the exact time lag
 * (the model's progress.h takes now minus its timestamp).
 *
 * On the kafka source's worker, after the log-end and log-start query:
 * the partitions to read are the selected group's, then those of every
 * group on screen (every group's under --once, which makes one refresh,
 * and --check, which has no screen; in the report's order, so two runs
 * read the same ones), whose committed offset has lag, is not
 * below the log start, and has no read yet: a read is cached per
 * partition and offset (KG_PART_STAMPS offsets a partition), so a
 * partition is read again only when its committed offset moved, started
 * once a pass (one pass a refresh in the dashboard; without a screen, a
 * pass more for a partition wanted at another offset), at most
 * KG_STAMP_READS per refresh.  A read that got no answer is tried again
 * after STAMP_RETRY_US.
 *
 * The reads use librdkafka's simple consumer on a client handle of their
 * own, without a group.id: rd_kafka_consume_start_queue() at the offset,
 * one message, rd_kafka_consume_stop().  It never subscribes, never joins
 * a group and never commits (rd_kafka_assign() needs a group: librdkafka
 * 2.0.2 answers "Unknown group" on a handle without one).  The topic
 * handles say auto.offset.reset=error, so an offset the log no longer has
 * is said, not replaced by another.
 *
 * Their handle is made for a refresh's reads and dropped (with its topic
 * objects) once no read was made for stamps_rest_us (KG_KAFKA_STAMP_REST_US):
 * librdkafka keeps a topic a handle read from, and serves each of its
 * partitions at every wakeup of its leader's thread, until the handle ends
 * (at rest on 100 groups, 50 topics read at the start cost 0.03 % of a core
 * of 0.32 for good, a tenth of the process: the broker threads and
 * librdkafka's main thread; make bench-idle).  A new one costs a connection
 * and a metadata request for the next reads; the source's own handle
 * (the admin requests, its coordinators) is not touched.
 */
#include "config.h"

#include "sources/kafka/kafka_stamp.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "model/intern.h"
#include "sources/kafka/kafka_table.h"
#include "util/log.h"
#include "util/util.h"

#define STAMP_RETRY_US (30LL * 1000000) /* a read without an answer is tried again after this */
#define STAMP_WAIT_MAX_MS 3000          /* the reads of a refresh wait at most this long (and a third of --timeout) */

/* The reads kept of one topic, KG_PART_STAMPS by partition (one per offset groups are at, the latest). */
typedef struct kstamp_topic {
	int n;                 /* partitions */
	kg_stamp *s;           /* partition p's at [p * KG_PART_STAMPS ...], offset -1: none */
	int64_t *read_us;      /* when each was read */
	rd_kafka_topic_t *rkt; /* the simple consumer's handle, made on first use */
} kstamp_topic;

struct kstamps {
	kstamp_topic *t; /* by topic id */
	size_t n;
	rd_kafka_t *rk;  /* the reads' own client handle: made for reads, dropped at rest (stamps_rest) */
	int64_t read_us; /* when a refresh last read (monotonic) */
};

/* the reads' client handles made and dropped (kafka_stamps_counts) */
static _Atomic uint64_t handles_made, handles_dropped;

/* A partition to read this refresh. */
typedef struct kwant {
	int32_t topic;
	int32_t partition;
	int64_t offset;
	bool started, done;
	kg_stamp got;
} kwant;

/* The reads of a topic id, grown to hold partition p. */
static kstamp_topic *
stamp_topic(ksrc *k, int32_t id, int p)
{
	struct kstamps *c;
	kstamp_topic *t;
	int i;
	if (k->stamps == NULL)
		k->stamps = xcalloc(1, sizeof *k->stamps);
	c = k->stamps;
	if ((size_t)id >= c->n) {
		size_t old = c->n, n = old ? old : 64;
		while (n <= (size_t)id)
			n *= 2;
		c->t = xreallocarray(c->t, n, sizeof *c->t);
		memset(c->t + old, 0, (n - old) * sizeof *c->t);
		c->n = n;
	}
	t = &c->t[id];
	if (p >= t->n) {
		t->s = xreallocarray(t->s, (size_t)(p + 1) * KG_PART_STAMPS, sizeof *t->s);
		t->read_us = xreallocarray(t->read_us, (size_t)(p + 1) * KG_PART_STAMPS, sizeof *t->read_us);
		for (i = t->n * KG_PART_STAMPS; i < (p + 1) * KG_PART_STAMPS; i++) {
			t->s[i] = (kg_stamp){ .offset = -1, .record = -1, .ts_ms = -1 };
			t->read_us[i] = 0;
		}
		t->n = p + 1;
	}
	return t;
}

/* The slot of partition p's read at offset: its own, else a free one, else the one read longest ago. */
static int
stamp_slot(const kstamp_topic *t, int p, int64_t offset)
{
	int j, best = p * KG_PART_STAMPS;
	for (j = p * KG_PART_STAMPS; j < (p + 1) * KG_PART_STAMPS; j++) {
		if (t->s[j].offset == offset)
			return j;
	}
	for (j = p * KG_PART_STAMPS; j < (p + 1) * KG_PART_STAMPS; j++) {
		if (t->s[j].offset < 0)
			return j;
		if (t->read_us[j] < t->read_us[best])
			best = j;
	}
	return best;
}

/* True when partition p of topic t at offset has to be read now. */
static bool
stamp_wanted(ksrc *k, const ktopic *t, int p, int64_t offset, int64_t now)
{
	const kstamp_topic *c;
	int j;
	if (offset < 0 || p < 0 || p >= t->np || t->log_end[p] <= offset || (t->log_start[p] >= 0 && offset < t->log_start[p]))
		return false; /* no lag (nothing waits), or below the log start (LOST: nothing to read) */
	if (k->stamps == NULL || (size_t)t->id >= k->stamps->n || p >= k->stamps->t[t->id].n)
		return true;
	c = &k->stamps->t[t->id];
	j = stamp_slot(c, p, offset);
	if (c->s[j].offset != offset)
		return true;
	return c->s[j].why == KG_TLAG_NO_ANSWER && now - c->read_us[j] >= STAMP_RETRY_US;
}

/* A table entry to read for, and how soon: the selected group, then the ones on screen, then the rest. */
typedef struct kpick {
	const kentry *e;
	int rank;
} kpick;

/* Picks by rank, then as the report sorts groups (people's order of names): the same order every run. */
static int
pick_cmp(const void *a, const void *b)
{
	const kpick *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return util_natcmp(intern_group_name(x->e->s.id), intern_group_name(y->e->s.id));
}

/* A group's committed offsets by topic name and partition (interned ids differ between runs). */
static int
commit_cmp(const void *a, const void *b)
{
	const kcommit *x = *(const kcommit *const *)a, *y = *(const kcommit *const *)b;
	int c = x->tp.topic == y->tp.topic ? 0 : strcmp(intern_topic_name(x->tp.topic), intern_topic_name(y->tp.topic));
	return c != 0 ? c : x->tp.partition - y->tp.partition;
}

/*
 * Want partition c of a group read in this pass, within the budget; the
 * count.  A partition is started once a pass: wanted at two offsets, the
 * one further behind is read first (its time lag matters more), whatever
 * order the groups came in, and *later says the other waits.
 */
static int
want_add(ksrc *k, kresult *r, const kcommit *c, kwant **w, size_t *cap, int n, int64_t now, bool *later)
{
	const ktopic *t = kafka_result_topic(r, c->tp.topic);
	int j;
	if (t == NULL || !stamp_wanted(k, t, c->tp.partition, c->offset, now))
		return n;
	for (j = 0; j < n; j++) {
		if ((*w)[j].topic == c->tp.topic && (*w)[j].partition == c->tp.partition) {
			*later = *later || (*w)[j].offset != c->offset;
			if (c->offset < (*w)[j].offset)
				(*w)[j].offset = (*w)[j].got.offset = c->offset;
			return n;
		}
	}
	util_grow(w, cap, (size_t)n + 1, sizeof **w);
	memset(&(*w)[n], 0, sizeof **w);
	(*w)[n].topic = c->tp.topic;
	(*w)[n].partition = c->tp.partition;
	(*w)[n].offset = c->offset;
	(*w)[n].got = (kg_stamp){ .offset = c->offset, .record = -1, .ts_ms = -1, .why = KG_TLAG_NO_ANSWER };
	return n + 1;
}

/*
 * The partitions to read in one pass, at most budget: the selected
 * group's, then every group's on screen (so the list's TIME-LAG is exact
 * for every row shown, not only the selected one), then under --once and
 * --check every group's; each in the report's order of groups and
 * partitions, so two runs read the same partitions when the budget falls
 * short.  *later: a partition is wanted at a second offset too.
 */
static int
stamps_plan(ksrc *k, kresult *r, kwant **w, size_t *cap, int budget, int64_t now, bool *later)
{
	kpick *p = xmalloc((k->tab.n ? k->tab.n : 1) * sizeof *p);
	const kcommit **cs = NULL;
	size_t i, np = 0, ccap = 0;
	int n = 0, q;
	for (i = 0; i < k->tab.n; i++) {
		const kentry *e = &k->tab.e[i];
		int rank = (e->s.flags & KSCHED_SELECTED) ? 0 : (e->s.flags & KSCHED_FOCUS) ? 1 : 2;
		if (e->offs == NULL || (rank == 2 && !k->cfg.once && !k->cfg.stamps_all))
			continue;
		p[np].e = e;
		p[np++].rank = rank;
	}
	qsort(p, np, sizeof *p, pick_cmp);
	*later = false;
	for (i = 0; i < np && n < budget; i++) {
		const koffs *o = p[i].e->offs;
		util_grow(&cs, &ccap, (size_t)(o->nc ? o->nc : 1), sizeof *cs);
		for (q = 0; q < o->nc; q++)
			cs[q] = &o->c[q];
		qsort(cs, (size_t)o->nc, sizeof *cs, commit_cmp);
		for (q = 0; q < o->nc && n < budget; q++)
			n = want_add(k, r, cs[q], w, cap, n, now, later);
	}
	free(cs);
	free(p);
	return n;
}

/* The simple consumer's handle of a topic (auto.offset.reset=error). */
static rd_kafka_topic_t *
stamp_rkt(ksrc *k, int32_t topic)
{
	kstamp_topic *t = stamp_topic(k, topic, 0);
	if (t->rkt == NULL) {
		rd_kafka_topic_conf_t *tc = rd_kafka_topic_conf_new();
		char e[256];
		rd_kafka_topic_conf_set(tc, "auto.offset.reset", "error", e, sizeof e);
		/* the simple consumer's own commit (a topic property, default true: every 60 s to the
		 * handle's group, should the reads' handle keep the source's kgtop.never-joins,
		 * stamps_handle()) stays off: kgtop never commits an offset */
		if (rd_kafka_topic_conf_set(tc, "auto.commit.enable", "false", e, sizeof e) != RD_KAFKA_CONF_OK)
			log_msg(KG_LOG_WARN, "kafka: cannot turn the reads' auto.commit.enable off: %s", e);
		t->rkt = rd_kafka_topic_new(k->stamps->rk, intern_topic_name(topic), tc);
	}
	return t->rkt;
}

/* Take one message for the read it answers; the read it ended, -1 none. */
static int
stamp_take(kwant *w, int n, rd_kafka_message_t *m)
{
	int32_t topic;
	int j;
	if (m->rkt == NULL)
		return -1; /* an error of no partition (the handle's own): no read's answer */
	topic = intern_topic(rd_kafka_topic_name(m->rkt));
	for (j = 0; j < n; j++) {
		kwant *x = &w[j];
		if (x->done || !x->started || x->topic != topic || x->partition != m->partition)
			continue; /* a partition two groups want at two offsets is started once a refresh */
		if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR && m->offset < x->offset)
			return -1; /* fetched before an earlier read stopped: not the record asked */
		x->done = true;
		if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
			x->got.record = m->offset;
			x->got.ts_ms = rd_kafka_message_timestamp(m, NULL);
			x->got.why = x->got.ts_ms >= 0 ? KG_TLAG_WHY_NONE : KG_TLAG_NO_TIMESTAMP;
			log_msg(KG_LOG_DEBUG, "kafka: read %s [%d] at %lld: record %lld, timestamp %lld",
				intern_topic_name(topic), (int)m->partition, (long long)x->offset, (long long)m->offset,
				(long long)x->got.ts_ms);
		} else if (m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE || m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET ||
			   m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
			x->got.why = KG_TLAG_NO_RECORDS; /* the log has no record there (any more) */
		} else {
			log_msg(KG_LOG_DEBUG, "kafka: reading %s [%d] at %lld: %s", intern_topic_name(topic), (int)m->partition,
				(long long)x->offset, rd_kafka_err2str(m->err));
			x->done = false; /* a transient error: the fetcher tries again until the deadline */
		}
		return x->done ? j : -1;
	}
	return -1;
}

/*
 * The reads' client handle, made when there is none: the source's
 * settings (its connection, security, and the reads' fetch sizes and
 * wait), without its group.id (the reads need none) or error callback
 * (the source's own handle says how the cluster is).  NULL when librdkafka
 * cannot make one (said in the log; the reads wait for the next refresh).
 */
static rd_kafka_t *
stamps_handle(ksrc *k)
{
	rd_kafka_conf_t *conf;
	char e[512];
	if (k->stamps == NULL)
		k->stamps = xcalloc(1, sizeof *k->stamps);
	if (k->stamps->rk != NULL || k->conf == NULL)
		return k->stamps->rk;
	conf = rd_kafka_conf_dup(k->conf);
	if (rd_kafka_conf_set(conf, "group.id", NULL, e, sizeof e) != RD_KAFKA_CONF_OK)
		log_msg(KG_LOG_DEBUG, "kafka: the reads' handle keeps the source's group.id: %s", e);
	rd_kafka_conf_set_error_cb(conf, NULL);
	k->stamps->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, e, sizeof e);
	if (k->stamps->rk == NULL) {
		log_msg(KG_LOG_INFO, "kafka: no client handle for the record reads: %s", e);
		return NULL;
	}
	atomic_fetch_add(&handles_made, 1);
	return k->stamps->rk;
}

/*
 * Drop the reads' client handle, its topic objects first (the reads kept
 * stay): at rest (counted in kafka_stamps_counts, logged with how long no
 * read was made), or as the source closes.
 */
static void
stamps_rest(ksrc *k, bool closing)
{
	struct kstamps *c = k->stamps;
	int64_t t0 = util_mono_us();
	size_t i;
	if (c == NULL || c->rk == NULL)
		return;
	for (i = 0; i < c->n; i++) {
		if (c->t[i].rkt != NULL)
			rd_kafka_topic_destroy(c->t[i].rkt);
		c->t[i].rkt = NULL;
	}
	rd_kafka_destroy_flags(c->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	c->rk = NULL;
	if (closing) {
		log_msg(KG_LOG_DEBUG, "kafka: the record reads' client handle closed in %.1f ms",
			(double)(util_mono_us() - t0) / 1000.0);
		return;
	}
	atomic_fetch_add(&handles_dropped, 1);
	log_msg(KG_LOG_DEBUG, "kafka: the record reads' client handle dropped in %.1f ms (no read for %lld s)",
		(double)(util_mono_us() - t0) / 1000.0, (long long)((t0 - c->read_us) / 1000000));
}

void
kafka_stamps_counts(uint64_t *made, uint64_t *dropped)
{
	*made = atomic_load(&handles_made);
	*dropped = atomic_load(&handles_dropped);
}

/* Read every wanted record: start them all on one queue, take one message each until the deadline, stop them. */
static void
stamps_fetch(ksrc *k, kwant *w, int n)
{
	rd_kafka_t *rk = stamps_handle(k);
	rd_kafka_queue_t *q;
	/* a third of --timeout at most: --once waits --timeout for the whole refresh, reads included */
	int64_t wait_ms = KG_MIN(k->cfg.timeout_us / 3000, STAMP_WAIT_MAX_MS);
	int64_t deadline = util_mono_us() + wait_ms * 1000;
	int j, left = 0;
	rd_kafka_message_t *m;
	if (rk == NULL)
		return; /* none started: each is tried again (STAMP_RETRY_US) */
	q = rd_kafka_queue_new(rk);
	for (j = 0; j < n; j++) {
		rd_kafka_topic_t *rkt = stamp_rkt(k, w[j].topic);
		w[j].started = rkt != NULL && rd_kafka_consume_start_queue(rkt, w[j].partition, w[j].offset, q) == 0;
		left += w[j].started;
	}
	while (left > 0 && !atomic_load(&k->stop) && util_mono_us() < deadline) {
		int got;
		m = rd_kafka_consume_queue(q, 100);
		if (m == NULL)
			continue;
		got = stamp_take(w, n, m);
		rd_kafka_message_destroy(m);
		if (got < 0)
			continue;
		left--;
		/* answered: no more fetches of it (they would wait at its log end, and queue records nobody reads) */
		rd_kafka_consume_stop(stamp_rkt(k, w[got].topic), w[got].partition);
		w[got].started = false;
	}
	for (j = 0; j < n; j++) {
		if (w[j].started && !w[j].done)
			log_msg(KG_LOG_DEBUG, "kafka: read %s [%d] at %lld: no answer within %lld ms",
				intern_topic_name(w[j].topic), (int)w[j].partition, (long long)w[j].offset, (long long)wait_ms);
		if (w[j].started)
			rd_kafka_consume_stop(stamp_rkt(k, w[j].topic), w[j].partition);
	}
	while ((m = rd_kafka_consume_queue(q, 0)) != NULL)
		rd_kafka_message_destroy(m);
	rd_kafka_queue_destroy(q);
	rd_kafka_poll(rk, 0); /* anything its main queue holds (its logs are the source's) */
}

/* The result's topics get every read kept of them. */
static void
stamps_publish(ksrc *k, kresult *r)
{
	int i, p;
	for (i = 0; k->stamps != NULL && i < r->ntopics; i++) {
		ktopic *t = &r->topics[i];
		const kstamp_topic *c = (size_t)t->id < k->stamps->n ? &k->stamps->t[t->id] : NULL;
		if (c == NULL || c->n == 0)
			continue;
		t->stamp = xmalloc((size_t)(t->np ? t->np : 1) * KG_PART_STAMPS * sizeof *t->stamp);
		for (p = 0; p < t->np * KG_PART_STAMPS; p++)
			t->stamp[p] = p < c->n * KG_PART_STAMPS ? c->s[p] : (kg_stamp){ .offset = -1, .record = -1, .ts_ms = -1 };
	}
}

/*
 * Read what needs reading, keep it, give the result every read kept.  A
 * partition is started once a pass; without a screen (--once, --check:
 * what this refresh reads is all the report gets) a partition two groups
 * are at at two offsets gets a pass more, up to KG_PART_STAMPS, within
 * KG_STAMP_READS in all.
 */
void
kafka_stamps_read(ksrc *k, kresult *r)
{
	kwant *w = NULL;
	size_t cap = 0;
	int64_t now = util_now_us();
	int n, j, leaders = 0, pass = 0;
	bool later = true;
	for (; later && pass < KG_PART_STAMPS && r->stamp_reads < KG_STAMP_READS; pass++) {
		if (pass > 0 && !k->cfg.once && !k->cfg.stamps_all)
			break; /* the dashboard reads the other offset next refresh */
		n = stamps_plan(k, r, &w, &cap, KG_STAMP_READS - r->stamp_reads, now, &later);
		if (n == 0)
			break;
		stamps_fetch(k, w, n);
		for (j = 0; j < n; j++) {
			kstamp_topic *t = stamp_topic(k, w[j].topic, w[j].partition);
			const ktopic *rt = kafka_result_topic(r, w[j].topic);
			int i, slot = stamp_slot(t, w[j].partition, w[j].offset);
			bool seen = false;
			t->s[slot] = w[j].got;
			t->read_us[slot] = now;
			/* about one Fetch per leader the reads went to */
			for (i = 0; i < j && !seen && rt != NULL; i++) {
				const ktopic *ot = kafka_result_topic(r, w[i].topic);
				seen = ot != NULL && ot->leader[w[i].partition] == rt->leader[w[j].partition];
			}
			leaders += !seen;
		}
		r->stamp_reads += n;
	}
	r->requests += leaders;
	stamps_publish(k, r);
	free(w);
	/* the reads' handle at rest: dropped (not under --once, whose one refresh is all) */
	if (k->stamps != NULL && r->stamp_reads > 0)
		k->stamps->read_us = util_mono_us();
	else if (k->stamps != NULL && k->stamps->rk != NULL && !k->cfg.once &&
		 util_mono_us() - k->stamps->read_us >= (k->cfg.stamps_rest_us > 0 ? k->cfg.stamps_rest_us : KG_KAFKA_STAMP_REST_US))
		stamps_rest(k, false);
}

/* Free the cache. */
void
kafka_stamps_free(ksrc *k)
{
	size_t i;
	if (k->stamps == NULL)
		return;
	stamps_rest(k, true);
	for (i = 0; i < k->stamps->n; i++) {
		kstamp_topic *t = &k->stamps->t[i];
		free(t->s);
		free(t->read_us);
	}
	free(k->stamps->t);
	free(k->stamps);
	k->stamps = NULL;
}

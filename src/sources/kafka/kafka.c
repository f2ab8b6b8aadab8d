/*
 * kafka.c: the Kafka admin source (see kafka.h for what one refresh asks,
 * kafka_refresh.c for how, kafka_int.h for its rooms, threads and locks).
 *
 * One librdkafka consumer handle serves both the admin API and the
 * log-end query: it never subscribes, never joins a group and never
 * commits (enable.auto.commit=false as well).  It carries a group id of its
 * own, kgtop.never-joins, only so that librdkafka 2.0.2 has a group object
 * to tell when a broker answers an offset fetch with NOT_COORDINATOR: a
 * handle without one dereferences NULL there and the process dies, which
 * a coordinator moving (a broker restarted) would do to kgtop.  Without a
 * subscription that object only ever asks where its coordinator is.
 * Its refresh runs on a
 * worker thread of this source, because metadata and offsets_for_times
 * only exist as blocking calls in librdkafka 2.0.2: a slow cluster then
 * makes this source's data older without delaying the demo or the trace
 * streams that share the collector thread.  The worker publishes each
 * finished refresh as an immutable result under a mutex and wakes the
 * collector; contribute() adds the newest result to the snapshot together
 * with the source's health (ok, stale since T and why, or error).
 */
#include "config.h"

#include "sources/kafka/kafka.h"

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "model/progress.h"
#include "sources/kafka/kafka_errors.h"
#include "sources/kafka/kafka_int.h"
#include "sources/kafka/kafka_logend.h"
#include "sources/kafka/kafka_stamp.h"
#include "sources/kafka/kafka_table.h"
#include "util/filter.h"
#include "util/log.h"
#include "util/util.h"

/* ------------------------------------------------------------- callbacks */

/* librdkafka's error callback (any of its threads, and ours when they poll): kept by kafka_errors.c. */
static void
on_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	ksrc *k = opaque;
	(void)rk;
	kafka_errors_take(&k->errs, err, reason);
}

/* librdkafka's log callback: into our log, never the terminal. */
static void
on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
	(void)rk;
	log_msg(level <= 6 ? KG_LOG_INFO : KG_LOG_DEBUG, "rdkafka %s: %s", fac, buf);
}

/* -------------------------------------------------------------- worker */

/* Publish a refresh's outcome (under the lock): its result, or why there is none. */
static void
publish(ksrc *k, kresult *r, char *err)
{
	int64_t mono = util_mono_us();
	if (r != NULL) {
		/* ok since the first answer after trouble, not since the refresh began */
		if (k->result == NULL || k->err_msg != NULL)
			k->ok_since_us = r->answer_us;
		kafka_result_free(k->result);
		k->result = r;
		k->last_ok_us = r->answer_us;
		free(k->err_msg);
		k->err_msg = NULL;
		k->err_since_us = 0;
		free(k->note);
		k->note = r->no_group_apis ? xstrdup("the cluster answers no ListGroups or DescribeGroups "
						     "(librdkafka's mock cluster does not): groups followed by their offsets")
		                           : r->log_end_note ? xstrdup(r->log_end_note) : NULL;
		k->completes++;
	} else if (!atomic_load(&k->stop)) {
		if (k->err_msg == NULL)
			k->err_since_us = util_now_us();
		free(k->err_msg);
		k->err_msg = err;
		err = NULL;
		log_msg(KG_LOG_INFO, "kafka: refresh failed: %s", k->err_msg);
	}
	free(err);
	k->refreshes++;
	k->cadence_us = k->last_end_us > 0 ? mono - k->last_end_us : 0;
	k->last_end_us = mono;
	k->fresh = true;
	/* a close that let this thread go has taken self away */
	if (k->self != NULL && k->self->ctx.wake != NULL)
		k->self->ctx.wake(k->self->ctx.wake_arg);
}

/*
 * Wait until next (monotonic), a refresh asked for, or stop; under the lock.
 * cond runs on CLOCK_MONOTONIC (kafka_source_new()), so the wait is one, to
 * next: whatever ends it early (a command, a watch, close) signals cond.
 * (It was cut into slices of 200 ms: five wakeups a second of an idle
 * dashboard's worker for nothing.)
 */
static void
wait_until(ksrc *k, int64_t next)
{
	while (!atomic_load(&k->stop) && !k->refresh_now && util_mono_us() < next) {
		struct timespec ts = { .tv_sec = (time_t)(next / 1000000), .tv_nsec = (long)(next % 1000000) * 1000 };
		pthread_cond_timedwait(&k->cond, &k->lock, &ts);
	}
	k->refresh_now = false;
}

/*
 * librdkafka 2.0.2's admin requests take a group's coordinator from a
 * cache that only expires unused: when the coordinator moves (a broker
 * restarted, leadership of its __consumer_offsets partition moved), every
 * describe keeps going to the old broker and gets NOT_COORDINATOR, refresh
 * after refresh.  Nothing in its API drops that cache but a new handle: so
 * after two refreshes in a row with such answers, the worker makes one
 * (kafka_handle_renew(), at most every 10 s).  A coordinator that died is
 * caught sooner, by the metadata (kafka_refresh.c).
 */
static void
coordinators_check(ksrc *k)
{
	k->coord_streak = k->coord_moved > 0 ? k->coord_streak + 1 : 0;
	k->coord_moved = 0;
	if (k->coord_streak >= 2 && kafka_handle_renew(k, "groups answer NOT_COORDINATOR") == 0)
		k->coord_streak = 0;
}

/*
 * When the refresh after one that began at started (monotonic) begins: an
 * interval after it (sooner after a failure, to recover quickly), moved to
 * the nearest start of a wall-clock second when the interval is whole
 * seconds and that time is still to come: once (the first refresh, one
 * asked for with r) by at most half a second, then by the few ms a wakeup
 * takes.  The dashboard's frames draw its clock (ui.c, ui_wait_ms()), and
 * a refresh that begins as a second does publishes its frame early in
 * that second, well within the 990 ms the clock's next second waits for a
 * frame: at rest one draw a second, whatever the phase kgtop started at.
 * (The nearest start, not the one before: a refresh begun just before a
 * second would otherwise have the next begin at once.)
 */
static int64_t
next_refresh(const ksrc *k, int64_t started, bool ok)
{
	int64_t next = started + (ok ? k->cfg.interval_us : KG_MIN(k->cfg.interval_us, 1000000));
	int64_t now = util_mono_us(), past;
	if (!ok || k->cfg.interval_us <= 0 || k->cfg.interval_us % 1000000 != 0 || next <= now)
		return next;
	past = (util_now_us() + (next - now)) % 1000000; /* how far into its wall second it would begin (both positive) */
	next += past < 500000 ? -past : 1000000 - past;
	return next;
}

/*
 * The worker: refresh every interval (or when asked), publish, wake the
 * collector.  With cfg.once it refreshes once and waits to be closed:
 * --once makes exactly one refresh, however long it took.
 */
static void *
worker(void *arg)
{
	ksrc *k = arg;
	pthread_setname_np(pthread_self(), "kg-refresh"); /* by name in /proc and the benches (tests/bench/idle.sh) */
	while (!atomic_load(&k->stop)) {
		char *err = NULL;
		int64_t started = util_mono_us();
		kresult *r = kafka_refresh(k, &err);
		coordinators_check(k);
		pthread_mutex_lock(&k->lock);
		k->refresh_us = util_mono_us() - started;
		publish(k, r, err);
		if (k->cfg.once && r != NULL) {
			/* only a newly watched group (the demo's) asks again */
			while (!atomic_load(&k->stop) && !k->refresh_now)
				pthread_cond_wait(&k->cond, &k->lock);
			k->refresh_now = false;
			pthread_mutex_unlock(&k->lock);
			continue;
		}
		wait_until(k, next_refresh(k, started, r != NULL));
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

/* Report news when the worker published, or when librdkafka said the cluster is gone. */
static int
kafka_poll(kg_source *s, int64_t now_us)
{
	ksrc *k = s->impl;
	int flags = 0, ce;
	(void)now_us;
	kafka_start(k);
	/* librdkafka's error callbacks (no broker reachable, TLS, SASL) are served here, while a
	   refresh may still be blocked waiting for an answer that cannot come */
	pthread_mutex_lock(&k->rk_lock);
	if (k->rk != NULL)
		rd_kafka_poll(k->rk, 0);
	pthread_mutex_unlock(&k->rk_lock);
	ce = kafka_cluster_err(&k->errs);
	pthread_mutex_lock(&k->lock);
	if (k->fresh)
		flags |= KG_SRC_NEWS;
	/* the cluster gone (or back): the health changes now, not when the refresh gives up */
	if ((ce != 0) != k->told_cluster_err) {
		k->told_cluster_err = ce != 0;
		flags |= KG_SRC_NEWS;
	}
	if (k->completes > 0)
		flags |= KG_SRC_COMPLETE;
	if (k->result == NULL && ce != 0)
		flags |= KG_SRC_FAILED;
	k->fresh = false;
	k->completes = 0;
	pthread_mutex_unlock(&k->lock);
	return flags;
}

/* The health (under the lock); msg holds what it says when it is composed here. */
static void
kafka_health(ksrc *k, kg_source_health *h, int64_t now, char *msg, size_t msgsz)
{
	int ce = kafka_cluster_err(&k->errs);
	char *why = kafka_cluster_reason(&k->errs);
	bool said = why != NULL;
	h->last_ok_us = k->last_ok_us;
	h->cadence_us = k->cadence_us;
	h->refresh_us = k->refresh_us;
	if (said)
		util_strlcpy(msg, why, msgsz);
	free(why);
	if (k->err_msg != NULL && k->result == NULL) {
		h->status = KG_SRC_ERROR;
		h->since_us = k->err_since_us;
		h->message = k->err_msg;
	} else if (k->result == NULL) {
		/* no answer yet: a cause librdkafka already reported, else still connecting */
		h->status = ce != 0 ? KG_SRC_ERROR : KG_SRC_CONNECTING;
		if (ce == 0 && !said)
			snprintf(msg, msgsz, "connecting to %s", k->brokers);
		h->message = msg;
	} else if (ce != 0) {
		/* librdkafka says no broker answers: stale now, whatever the refresh under way still waits for */
		h->status = KG_SRC_STALE;
		h->since_us = k->last_ok_us;
		h->message = msg;
	} else if (k->err_msg != NULL) {
		h->status = KG_SRC_STALE;
		h->since_us = k->last_ok_us;
		h->message = k->err_msg;
	} else if (now - k->last_ok_us > 3 * k->cfg.interval_us + k->cfg.timeout_us) {
		h->status = KG_SRC_STALE;
		h->since_us = k->last_ok_us;
		h->message = "no answer from the cluster";
	} else {
		h->status = KG_SRC_OK;
		h->since_us = k->ok_since_us;
		h->message = k->note;
	}
}

/*
 * librdkafka names no KIP-848 state but Stable and Empty (its enum has no
 * Assigning or Reconciling; the name is lost): a member not holding its
 * target means Reconciling; otherwise it is one of the two.
 */
static void
contribute_kip_state(kg_bgroup *bg, const kdesc *d)
{
	int j;
	for (j = 0; j < d->nm; j++) {
		const kmember *m = &d->m[j];
		if (m->ntarget >= 0 && !tp_equal(m->asg, m->nasg, m->target, m->ntarget)) {
			bgroup_state(bg, KG_STATE_RECONCILING);
			return;
		}
	}
	bgroup_unsettled(bg);
}

/* A consumer group this librdkafka cannot describe: what the listing says, and why that is all. */
static void
contribute_unseen(kg_bgroup *bg, const kgroup *g)
{
	char note[128];
	snprintf(note, sizeof note, "members need librdkafka >= 2.10 (this build: %s)", rd_kafka_version_str());
	bgroup_note(bg, note, true);
	bgroup_protocol(bg, "consumer", NULL);
	bgroup_proto(bg, KG_PROTO_CONSUMER);
	if (g->listed != KG_STATE_UNKNOWN)
		bgroup_state(bg, g->listed);
	else
		bgroup_unsettled(bg); /* librdkafka 2.0.2 lists KIP-848's other states as Unknown */
	if (g->desc != NULL)
		bgroup_coordinator(bg, g->desc->coordinator);
}

/* Add one group of a result to the builder. */
static void
contribute_group(kg_builder *b, const kgroup *g)
{
	kg_bgroup *bg = builder_group(b, g->id);
	const kdesc *d = g->desc;
	int j, q;
	bgroup_data_time(bg, g->data_time_us);
	if (g->offs != NULL)
		bgroup_offs_time(bg, g->offs->time_us); /* asked alone, after the description: newer (kafka_sched.c) */
	bgroup_pace(bg, g->pace_us);
	if (g->watch_topic >= 0)
		bgroup_topic(bg, g->watch_topic);
	if (g->error != NULL)
		bgroup_error(bg, g->error);
	for (q = 0; g->offs != NULL && q < g->offs->nc; q++)
		bgroup_committed(bg, g->offs->c[q].tp, g->offs->c[q].offset);
	bgroup_type(bg, (kg_group_type)g->type, NULL);
	if (g->unseen) {
		contribute_unseen(bg, g);
		return;
	}
	if (d == NULL) {
		/* known from the listing alone: an Empty group has nothing more to say */
		if (g->listed == KG_STATE_EMPTY) {
			bgroup_state(bg, KG_STATE_EMPTY);
			bgroup_protocol(bg, g->simple ? "" : "consumer", "");
			bgroup_simple(bg, g->simple);
		}
		return;
	}
	bgroup_state(bg, d->state);
	bgroup_protocol(bg, d->simple ? "" : "consumer", d->assignor ? d->assignor : "");
	bgroup_simple(bg, d->simple);
	bgroup_coordinator(bg, d->coordinator);
	for (j = 0; j < d->nm; j++) {
		const kmember *m = &d->m[j];
		kg_bmember *bm = bgroup_member(bg, m->member_id);
		bmember_ids(bm, m->client_id, m->host, m->instance_id);
		bmember_assignment(bm, m->asg, m->nasg);
		if (m->ntarget >= 0)
			bmember_target(bm, m->target, m->ntarget);
	}
	if (g->type == KG_GTYPE_CONSUMER && d->state == KG_STATE_UNKNOWN)
		contribute_kip_state(bg, d);
}

/* Add the newest result and the health. */
static void
kafka_contribute(kg_source *s, kg_builder *b)
{
	ksrc *k = s->impl;
	kg_source_health h;
	kresult *r;
	int i, j, q;
	char msg[512];

	pthread_mutex_lock(&k->lock);
	r = k->result;
	memset(&h, 0, sizeof h);
	h.name = s->name;
	kafka_health(k, &h, builder_time(b), msg, sizeof msg);
	builder_source(b, &h);
	builder_refresh(b, k->refreshes, r != NULL ? r->time_us : 0, k->cfg.interval_us);
	if (r == NULL) {
		pthread_mutex_unlock(&k->lock);
		return;
	}
	for (i = 0; i < r->nbrokers; i++)
		builder_broker(b, r->brokers[i].id, r->brokers[i].host, r->brokers[i].port);
	if (r->offsets_np > 0)
		builder_offsets_partitions(b, r->offsets_np);
	for (i = 0; i < r->ntopics; i++) {
		ktopic *t = &r->topics[i];
		builder_topic(b, t->id, t->np);
		for (j = 0; j < t->np; j++) {
			builder_partition(b, (kg_tp){ t->id, j }, t->leader[j], t->log_end[j]);
			builder_partition_start(b, (kg_tp){ t->id, j }, t->log_start[j]);
			for (q = 0; t->stamp != NULL && q < KG_PART_STAMPS; q++) {
				if (t->stamp[j * KG_PART_STAMPS + q].offset >= 0)
					builder_partition_stamp(b, (kg_tp){ t->id, j }, &t->stamp[j * KG_PART_STAMPS + q]);
			}
		}
	}
	for (i = 0; i < r->ngroups; i++)
		contribute_group(b, &r->groups[i]);
	pthread_mutex_unlock(&k->lock);
}

/* What is looked at: kept for the worker's next plan (hot groups add up until it takes them). */
static void
kafka_focus(kg_source *s, const kg_focus *f)
{
	ksrc *k = s->impl;
	kfocus *x = &k->focus;
	size_t i;
	pthread_mutex_lock(&k->lock);
	x->shown = xreallocarray(x->shown, f->nshown ? f->nshown : 1, sizeof *x->shown);
	if (f->nshown > 0)
		memcpy(x->shown, f->shown, f->nshown * sizeof *x->shown);
	x->nshown = f->nshown;
	x->selected = f->selected;
	x->screen = f->screen;
	for (i = 0; i < f->nhot && x->nhot < 4096; i++) {
		util_grow(&x->hot, &x->chot, x->nhot + 1, sizeof *x->hot);
		x->hot[x->nhot++] = f->hot[i];
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
	kafka_logend_free(k->logend); /* its threads are idle: the worker has ended */
	kafka_stamps_free(k); /* the reads' own handle, its topic handles first */
	if (k->md != NULL)
		rd_kafka_metadata_destroy(k->md);
	if (k->q != NULL)
		rd_kafka_queue_destroy(k->q);
	if (k->rk != NULL)
		rd_kafka_destroy_flags(k->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	if (k->conf != NULL)
		rd_kafka_conf_destroy(k->conf);
	kafka_result_free(k->result);
	kafka_table_free(&k->tab);
	free(k->silent);
	free(k->md_lacks);
	free(k->focus.shown);
	free(k->focus.hot);
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
	kafka_errors_destroy(&k->errs);
	pthread_mutex_destroy(&k->rk_lock);
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
	.focus = kafka_focus,
	.close = kafka_close,
	.once_close = true, /* its table, librdkafka's caches and buffers: 13 MB at 10,000 groups */
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

/* The scheduler of a source with this configuration. */
static void
sched_start(ksched *s, const kg_kafka_config *cfg)
{
	ksched_config sc = { .full_refresh_us = cfg->full_refresh_us,
			     .max_requests = cfg->max_requests,
			     .everything = cfg->once,
#ifdef KG_RDKAFKA_BUNDLED
			     /* deps/librdkafka-coord-cache.patch: a group asked every few seconds costs no FindCoordinator */
			     .coord_cache = KSCHED_COORD_CACHE_BUNDLED,
#else
			     .coord_cache = KSCHED_COORD_CACHE_RDKAFKA,
#endif
			     /* the STALLED rule's threshold and two refreshes: the verdict is in by then */
			     .settle_us = cfg->lag_window_us > 0 ? progress_stall_us(cfg->lag_window_us, cfg->interval_us) +
									  2 * cfg->interval_us
								: 0 };
	kafka_sched_init(s, &sc);
}

/* Create the source. */
int
kafka_source_new(const kg_kafka_config *cfg, kg_source **out, char *err, size_t errsz)
{
	ksrc *k;
	rd_kafka_conf_t *conf;
	char e[512];
	size_t i;
	kg_source *s;
	static const char *const forbidden[] = { "group.id", "group.instance.id", "enable.auto.commit",
						 "isolation.level" };

	*out = NULL;
	if (cfg->interval_us <= 0 || cfg->timeout_us <= 0 || cfg->full_refresh_us <= 0 || cfg->max_requests <= 0)
		return util_err(err, errsz, "kafka source: no interval, timeout, full refresh or request budget given");
	k = xcalloc(1, sizeof *k);
	conf = rd_kafka_conf_new();
	k->cfg = *cfg;
	k->brokers = xstrdup(cfg->brokers ? cfg->brokers : "");
	k->focus.selected = -1;
	sched_start(&k->sched, cfg);
	pthread_mutex_init(&k->lock, NULL);
	kafka_errors_init(&k->errs);
	pthread_mutex_init(&k->rk_lock, NULL);
	{
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* wait_until() waits for a util_mono_us() time */
		pthread_cond_init(&k->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
#define LIST(l) (l) ? (const char *const *)(l)->v : NULL, (l) ? (l)->n : 0
	if (filter_new(LIST(cfg->include), LIST(cfg->exclude), &k->groups, err, errsz) < 0 ||
	    filter_new(LIST(cfg->topics), NULL, 0, &k->topics, err, errsz) < 0)
		goto fail;
#undef LIST
	k->props = xcalloc(cfg->nprops ? cfg->nprops : 1, sizeof *k->props);
	/* back within a second of a broker's return (librdkafka waits up to 10 s by default); -X may say otherwise */
	if (set_prop(conf, "reconnect.backoff.max.ms", "1000", err, errsz) < 0)
		goto fail;
	/*
	 * reading one record at a committed offset (kafka_stamp.c): fetches
	 * of at most 64 KiB a partition, no more once 1 MiB waits (the reads
	 * share one queue; with 1 KiB, 36 of the 1,000 reads of --once at
	 * 10,000 groups got no fetch before the deadline and held the refresh
	 * 3 s; with 64 KiB every read was answered, but in 5 of 6 runs 100 to
	 * 571 of them a second late, at the broker thread's next wakeup: the
	 * refresh took 1.5-1.9 s; with 1 MiB none was late in 12 runs, the
	 * refresh took 0.55-1.1 s, for about 16 MB more at the peak).  Not
	 * queued.min.messages=1: librdkafka 2.0.2 then takes a partition off
	 * its fetch list as soon as one message waits, and puts it back (a
	 * read restarted at the next refresh) only at its broker thread's
	 * next wakeup, a second later: every read cost a second.
	 * fetch.wait.max.ms 10, not librdkafka's 500: once a read's partition
	 * has reached its log end, the broker holds the next fetch to that
	 * leader (nothing to give) for fetch.wait.max.ms, and a read started
	 * meanwhile waits for it (issue 24: 0.5 s of a 0.7 s --once at 100
	 * groups; `make bench-once`).  fetch.max.bytes 1 MiB stated, not left to
	 * librdkafka's adjustment from queued.max.messages.kbytes: a fetch's
	 * answer, held until its records are taken or purged, is at most that.
	 */
	if (set_prop(conf, "fetch.message.max.bytes", "65536", err, errsz) < 0 ||
	    set_prop(conf, "queued.max.messages.kbytes", "1024", err, errsz) < 0 ||
	    set_prop(conf, "fetch.max.bytes", "1048576", err, errsz) < 0 ||
	    set_prop(conf, "fetch.wait.max.ms", "10", err, errsz) < 0)
		goto fail;
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
	    set_prop(conf, "enable.auto.offset.store", "false", err, errsz) < 0 ||
	    set_prop(conf, "isolation.level", "read_uncommitted", err, errsz) < 0 ||
	    set_prop(conf, "client.id", "kgtop", err, errsz) < 0 ||
	    set_prop(conf, "group.id", "kgtop.never-joins", err, errsz) < 0)
		goto fail;
	rd_kafka_conf_set_error_cb(conf, on_error);
	rd_kafka_conf_set_log_cb(conf, on_log);
	rd_kafka_conf_set_opaque(conf, k);
	k->conf = rd_kafka_conf_dup(conf);
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


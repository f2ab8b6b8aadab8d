/*
 * kafka_int.h: the kafka source's own record (ksrc), shared by its rooms:
 *
 *   kafka.c           the source: its ops, its worker thread, its health
 *   kafka_refresh.c   one refresh: the order of its steps, metadata, the
 *                     scheduler's flags and plan, a new client handle when
 *                     librdkafka's idea of coordinators is out of date
 *   kafka_requests.c  the listing, the windowed describe and offsets
 *                     requests
 *   kafka_logend.c    the log-end and log-start offsets, its threads
 *   kafka_stamp.c     the record at a committed offset (exact time lag), on a handle of its own
 *   kafka_table.c     the groups known across refreshes, the results
 *   kafka_sched.c     which groups a refresh asks about (pure)
 *   kafka_errors.c    librdkafka's errors in words, the cluster-wide one
 *
 * Calls go down only: kafka.c -> kafka_refresh.c -> kafka_requests.c,
 * kafka_logend.c, kafka_stamp.c -> kafka_table.c, kafka_sched.c, kafka_errors.c.  The last
 * three never see ksrc (they take their own types), so this header does
 * not tie them back to the rooms that use them.
 *
 * Threads.  The collector thread calls the source's ops (poll, contribute,
 * focus, command, close); the worker thread (kafka.c) runs every refresh,
 * and for the log-end query starts threads of its own the first time two
 * leaders are to be asked (kafka_logend.c), which take one leader's calls
 * each while a query is under way and wait, idle, between queries (their
 * own lock and conditions, kafka_logend.c) until close() frees them after
 * the worker ended; librdkafka's threads call the error and log callbacks.
 *
 * Locks, and what each guards (below, beside each declaration):
 *   rk_lock       rk and q, which the worker alone swaps (kafka_handle_renew());
 *   lock + cond   what the worker and the collector thread share;
 *   errs.lock     the words of librdkafka's cluster-wide error (kafka_errors.h).
 * Lock order: rk_lock, then errs.lock (the collector's rd_kafka_poll() runs
 * the error callback under rk_lock); lock, then errs.lock (the health reads
 * the error's words under lock).  rk_lock and lock are never held together;
 * errs.lock is innermost: nothing is locked or called back under it.  cond
 * goes with lock: the worker waits on it between refreshes, and
 * command("refresh"), kafka_source_watch() and close signal it.
 * Atomics, read without a lock: stop (set by close; the worker, its log-end
 * threads and every wait in a refresh test it), errs.code and errs.gen
 * (kafka_errors.h), and the token counter of kafka_groups_ask() (static:
 * several kafka sources may refresh at once).
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_INT_H
#define KGTOP_SOURCES_KAFKA_KAFKA_INT_H

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "sources/kafka/kafka.h"
#include "sources/kafka/kafka_errors.h"
#include "sources/kafka/kafka_sched.h"
#include "sources/kafka/kafka_table.h"
#include "util/filter.h"

/* A group followed by its offsets even when the listing cannot list it (kafka_source_watch()). */
typedef struct watch {
	char *group;
	char *topic;
} watch;

/* What the collector said about the screen, for the worker's next plan. */
typedef struct kfocus {
	int32_t *shown;
	size_t nshown;
	int32_t selected;
	int32_t *hot;     /* groups observations spoke of, until the next refresh takes them */
	size_t nhot, chot;
	bool screen;      /* a screen tells what it shows: the rotation is paced */
} kfocus;

typedef struct ksrc {
	/* set at creation, read-only after */
	kg_kafka_config cfg;
	char *brokers;
	kg_kv *props;
	size_t nprops;
	kg_filter *groups;    /* -g / -G */
	kg_filter *topics;    /* -t */
	rd_kafka_conf_t *conf; /* what rk was made from, to make another */

	/*
	 * rk_lock guards rk and q against the one writer, the worker's
	 * kafka_handle_renew() (kafka_refresh.c), which swaps in a new handle: the
	 * collector thread's rd_kafka_poll() in poll() holds it.  The worker
	 * reads them without it (it is that writer).
	 */
	pthread_mutex_t rk_lock;
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;

	/* the collector thread's: the worker, started by the first poll(), joined by close() */
	pthread_t thread;
	bool started;

	/* the worker's own: no lock */
	ktable tab;           /* the groups across refreshes (kafka_table.h) */
	ksched sched;
	int log_end_calls;    /* of the last refresh (log-end and log-start) */
	struct klogend *logend; /* the log-end query's threads and kept log starts (kafka_logend.c), made by its first query */
	struct kstamps *stamps; /* records read at committed offsets, cached per partition and offset (kafka_stamp.c) */
	int coord_moved;      /* groups answered NOT_COORDINATOR in the refresh under way */
	int coord_streak;     /* refreshes in a row with such answers */
	int64_t renewed_us;   /* when the handle was last made anew (monotonic), 0 never */
	int32_t *silent;      /* brokers the last listing heard nothing from (kafka_requests.c) */
	size_t nsilent, csilent;
	const struct rd_kafka_metadata *md; /* the last metadata answer, kept between refreshes (kafka_refresh.c) */
	int64_t md_us;        /* when it was asked (monotonic) */
	bool md_due;          /* a refresh saw what the kept metadata may not know: asked again at the next */
	kg_tp *md_lacks;      /* partitions groups have that the last asking did not have (a deleted topic's offsets) */
	size_t nmd_lacks, cmd_lacks;
	int list_changes;     /* groups the last listing added, dropped or saw in another state (kafka_requests.c) */

	/*
	 * lock guards everything from here to errs, shared by the worker and
	 * the collector thread; cond (with lock) wakes the worker.
	 */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	kg_source *self;      /* whose wake-up publish() calls; cleared by a close that lets the worker go */
	bool refresh_now;     /* refresh at once (command, a new watch), taken by the worker's wait */
	kresult *result;      /* newest: written by the worker, read by contribute(), immutable once here */
	bool fresh;           /* not yet reported by poll() */
	int completes;        /* refreshes finished since the last poll() */
	uint64_t refreshes;   /* refreshes ended so far, failed ones too */
	int64_t cadence_us;   /* time between the last two refresh ends */
	int64_t refresh_us;   /* how long the last refresh took */
	int64_t last_end_us;  /* when the last refresh ended (monotonic) */
	watch *watches;
	size_t nwatches;
	kfocus focus;
	/* health, as publish() leaves it */
	int64_t last_ok_us;
	int64_t ok_since_us;  /* the first answer after an error (or the first ever) */
	int64_t err_since_us;
	char *err_msg;        /* why the last refresh failed, NULL when it did not */
	char *note;           /* a detail shown while ok (e.g. no group APIs) */
	bool told_cluster_err; /* poll() reported librdkafka's cluster-wide error (collector thread) */

	/* librdkafka's cluster-wide complaints (any thread): its own lock and atomics (kafka_errors.h) */
	kerrs errs;
	atomic_bool stop;     /* close() asked everything to stop */
} ksrc;

/* kafka_refresh.c */
/* One refresh (metadata, listing, the plan's groups, log-end offsets); NULL with *err (malloc'd). */
kresult *kafka_refresh(ksrc *k, char **err);
/* A new client handle in place of the old (at most every 10 s), why logged; 0, or -1 when none was made. */
int kafka_handle_renew(ksrc *k, const char *why);

#endif

/*
 * defaults.h: kgtop's fixed bounds, each written once.
 *
 * A setting's default is not here: it is its row's in core/options.c (the
 * one place it is written), and whoever uses a setting reads the value it
 * is handed.  What stays here are the bounds of the work that no option
 * sets (the kafka source's windows and chunks, the records read per
 * refresh, the demo's wait under --once, the last write after a stop),
 * in the model, the lowest layer that needs one of them, so every layer
 * above can use them.
 *
 * Numbers that --help prints are bare numbers (KG_STR); the _US forms
 * derive from them.  doc/kgtop.1 says the same in words: change it with
 * them.
 */
#ifndef KGTOP_MODEL_DEFAULTS_H
#define KGTOP_MODEL_DEFAULTS_H

#define KG_STR_(x) #x
#define KG_STR(x) KG_STR_(x) /* a number as --help prints it: KG_STR(KG_DEMO_ONCE_TIMEOUT_S) is "60" */

#define KG_SEC_US 1000000LL

/*
 * The bounds of the kafka source's work, since librdkafka 2.0.2 costs the
 * square of each: admin requests in flight at once (for --once, which asks
 * everything at once; and live, where a refresh asks a few hundred),
 * groups per describe call, partitions per log-end call
 */
#define KG_KAFKA_WINDOW 500
#define KG_KAFKA_WINDOW_LIVE 100
#define KG_KAFKA_DESCRIBE_CHUNK 50
/*
 * A log-end call of n partitions costs librdkafka (2.0.2 to 2.14.2) n^2
 * lookups (each partition in its leader's list, each answer in the call's
 * list) and about 70 us a call besides: the leaders' threads took 146 ms a
 * refresh at 500 (86 calls), 100 at 250, 79 at 200 (211 calls), 73 at 150
 * and 68-77 at 100 (420 calls) for the 41,800 log ends and starts of
 * make bench-cost's 10,000 groups; 200 halves the CPU for 2.5x the calls.
 * The bundled librdkafka finds them through an index instead
 * (deps/librdkafka-tp-index.patch): linear, the calls' own cost remains
 */
#define KG_KAFKA_LOG_END_CHUNK 200
/*
 * A topic's log starts are read again this often (--once: at its one
 * refresh), not every refresh: they move only when records are deleted,
 * and matter only to the LOST verdict, seen at most this much later
 */
#define KG_KAFKA_LOG_START_US (10 * KG_SEC_US)
/*
 * A quiet topic's log ends (only groups without members use it, and they
 * did not move at its last read) are read again this often, not every
 * refresh: what is produced to it is seen at most this much later
 */
#define KG_KAFKA_LOG_QUIET_US (10 * KG_SEC_US)
/*
 * The cluster's metadata (brokers, topics, partitions, leaders) is asked
 * again this often at rest, and kept between: sooner, at the next refresh,
 * once a refresh saw what it may not know (kafka_refresh.c, metadata_due)
 */
#define KG_KAFKA_METADATA_US (10 * KG_SEC_US)
/* a consumer group librdkafka < 2.10 cannot describe (it says Dead) is described again this often, to see a conversion */
#define KG_KAFKA_UNSEEN_RECHECK_US (300 * KG_SEC_US)
/*
 * The record reads' own client handle (kafka_stamp.c) is dropped once no
 * read was made for this long, and made again for the next read:
 * librdkafka keeps each topic it read from, and serves its partitions at
 * every wakeup of their leaders' threads, until the handle ends
 */
#define KG_KAFKA_STAMP_REST_US (30 * KG_SEC_US)
/* records read at committed offsets per refresh, at most (the selected group's; every group's for --once) */
#define KG_STAMP_READS 1000

/* --demo-partitions: the most the demo topic may have */
#define KG_MAX_DEMO_PARTITIONS_N 256
/* --once on the embedded demo waits for the demo's own groups to form, not a cluster: at least this long */
#define KG_DEMO_ONCE_TIMEOUT_S 60
#define KG_DEMO_ONCE_TIMEOUT_US (KG_DEMO_ONCE_TIMEOUT_S * KG_SEC_US)
/* after a stop signal, what is left of a report line gets this long to be written, then kgtop exits */
#define KG_STOP_WRITE_US (2 * KG_SEC_US)

/*
 * The shortest timeout kgtop assumes when it was told no limit: the
 * brokers' group.min.session.timeout.ms default (a session cannot be
 * shorter), taken for max.poll.interval.ms too (a shorter one is to be
 * given: --max-poll-interval).  A member gone sooner than this after its
 * last commit left (polled leave reasons, tracker_live.c).
 */
#define KG_TIMEOUT_MIN_US (6000LL * 1000)
/*
 * The server's deadlines: a request answered within KG_SERVE_REQUEST_S of
 * its connection's start (or of the previous request's end), an answer
 * other than /stream sent within KG_SERVE_ANSWER_S; a /stream viewer that
 * accepts nothing for KG_SERVE_STALL_S while stream waits is cut off
 */
#define KG_SERVE_REQUEST_S 10
#define KG_SERVE_ANSWER_S 60
#define KG_SERVE_STALL_S 15

#endif

/*
 * defaults.h: kgtop's default settings, each written once.
 *
 * Options start from these (core/options.c), and whoever is handed a zero
 * falls back to them: the collector and the kafka and trace sources to the
 * interval and timeout, the tracker and the history to their windows and
 * Kafka's limits, the renderer to the interval it shows.  They live in the
 * model, the lowest layer that needs one of them, so every layer above can
 * use them.
 *
 * The numbers in the units --help states (..._S, _MS, _MIN, _H, _N) are
 * bare numbers because --help prints them (KG_STR); the _US forms derive
 * from them.  doc/kgtop.1 says the same in words: change it with them.
 */
#ifndef KGTOP_MODEL_DEFAULTS_H
#define KGTOP_MODEL_DEFAULTS_H

#define KG_STR_(x) #x
#define KG_STR(x) KG_STR_(x) /* a default as --help prints it: KG_STR(KG_DEFAULT_TIMEOUT_S) is "10" */

#define KG_SEC_US 1000000LL

/* -i: the refresh interval, and its floor (ten refreshes a second) */
#define KG_DEFAULT_INTERVAL_S 1
#define KG_DEFAULT_INTERVAL_US (KG_DEFAULT_INTERVAL_S * KG_SEC_US)
#define KG_MIN_INTERVAL_US (KG_SEC_US / 10)

/* --timeout: how long --once waits, and each request round of the kafka source */
#define KG_DEFAULT_TIMEOUT_S 10
#define KG_DEFAULT_TIMEOUT_US (KG_DEFAULT_TIMEOUT_S * KG_SEC_US)

/* --full-refresh: every group's description and offsets are asked at least this often */
#define KG_DEFAULT_FULL_REFRESH_S 30
#define KG_DEFAULT_FULL_REFRESH_US (KG_DEFAULT_FULL_REFRESH_S * KG_SEC_US)

/*
 * --max-requests: requests per second the kafka source may send (10,000
 * groups, half of them Empty, cost about 1,000 with the default
 * --full-refresh; 10,000 Stable ones about 1,340); and the bounds
 * of its work, since librdkafka 2.0.2 costs the square of each: admin
 * requests in flight at once (for --once, which asks everything at once;
 * and live, where a refresh asks a few hundred), groups per describe call,
 * partitions per log-end call
 */
#define KG_DEFAULT_MAX_REQUESTS 1500
#define KG_KAFKA_WINDOW 500
#define KG_KAFKA_WINDOW_LIVE 100
#define KG_KAFKA_DESCRIBE_CHUNK 50
#define KG_KAFKA_LOG_END_CHUNK 500
/* a consumer group librdkafka < 2.10 cannot describe (it says Dead) is described again this often, to see a conversion */
#define KG_KAFKA_UNSEEN_RECHECK_US (300 * KG_SEC_US)
/* records read at committed offsets per refresh, at most (the selected group's; every group's for --once) */
#define KG_STAMP_READS 1000

/* --history: what is kept per group, and its floor */
#define KG_DEFAULT_HISTORY_H 1
#define KG_DEFAULT_HISTORY_US (KG_DEFAULT_HISTORY_H * 3600 * KG_SEC_US)
#define KG_MIN_HISTORY_US (60 * KG_SEC_US)

/*
 * --lag-window: the window progress verdicts judge over (a stall shows
 * after a tenth of it); the demo's is shorter, so its stalled member's
 * partitions turn STALLED before max.poll.interval.ms takes it out
 */
#define KG_DEFAULT_LAG_WINDOW_MIN 5
#define KG_DEFAULT_LAG_WINDOW_US (KG_DEFAULT_LAG_WINDOW_MIN * 60 * KG_SEC_US)
#define KG_DEMO_LAG_WINDOW_S 20
#define KG_DEMO_LAG_WINDOW_US (KG_DEMO_LAG_WINDOW_S * KG_SEC_US)
/* --once on the embedded demo waits for the demo's own groups to form, not a cluster: at least this long */
#define KG_DEMO_ONCE_TIMEOUT_US (60LL * 1000000)
#define KG_MIN_LAG_WINDOW_US (10 * KG_SEC_US)
/* after a stop signal, what is left of a report line gets this long to be written, then kgtop exits */
#define KG_STOP_WRITE_US (2 * KG_SEC_US)

/* --session-timeout, --max-poll-interval: Kafka's client defaults (session.timeout.ms 45 s since Kafka 3.0) */
#define KG_DEFAULT_SESSION_TIMEOUT_MS 45000
#define KG_DEFAULT_SESSION_TIMEOUT_US (KG_DEFAULT_SESSION_TIMEOUT_MS * 1000LL)
#define KG_DEFAULT_MAX_POLL_MS 300000
#define KG_DEFAULT_MAX_POLL_US (KG_DEFAULT_MAX_POLL_MS * 1000LL)

/* --storm-window, --storm-rebalances: rebalances within the window that make a storm */
#define KG_DEFAULT_STORM_WINDOW_MIN 5
#define KG_DEFAULT_STORM_WINDOW_US (KG_DEFAULT_STORM_WINDOW_MIN * 60 * KG_SEC_US)
#define KG_DEFAULT_STORM_REBALANCES_N 3
/*
 * The demo rebalances every few seconds on purpose: it judges storms over a
 * minute and mostly by the time spent rebalancing, so STORM means there
 * what it means on a real cluster (the storm scenario).
 */
#define KG_DEMO_STORM_WINDOW_MIN 1
#define KG_DEMO_STORM_WINDOW_US (KG_DEMO_STORM_WINDOW_MIN * 60 * KG_SEC_US)
#define KG_DEMO_STORM_REBALANCES_N 8

/* --demo-partitions: the demo topic's partitions, and their bounds */
#define KG_DEFAULT_DEMO_PARTITIONS_N 6
#define KG_MAX_DEMO_PARTITIONS_N 256

/* --speed: replay speed */
#define KG_DEFAULT_SPEED 1
#define KG_MIN_SPEED 0.25
#define KG_MAX_SPEED 32

/* --serve-clients, --serve-buffer: connections the server answers at once; stream a viewer may fall behind */
#define KG_DEFAULT_SERVE_CLIENTS_N 64
#define KG_DEFAULT_SERVE_BUFFER_MIB 8
#define KG_DEFAULT_SERVE_BUFFER (KG_DEFAULT_SERVE_BUFFER_MIB * 1024LL * 1024)
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

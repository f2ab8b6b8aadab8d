/*
 * serve_int.h: the server's state, shared by its files.
 *
 *   serve.c         the daemon: address, limits, TLS, authentication,
 *                   routing, /metrics, /healthz, /ready, the tap and the
 *                   health source
 *   serve_stream.c  /stream: the ring of tick lines every viewer reads
 *                   from, keyframes for viewers joining, cutting off the
 *                   ones that fall behind or stop reading
 *   serve_conn.c    every connection's deadline (a watchdog thread) and
 *                   the limit per address
 *
 * One mutex (lock) guards everything the collector thread and the
 * connection threads share: the newest snapshot and counters, the ring,
 * the viewers.  The collector holds it for pointer copies and an append;
 * a connection thread for copying at most one block of stream.
 */
#ifndef KGTOP_SERVE_SERVE_INT_H
#define KGTOP_SERVE_SERVE_INT_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "record/recorder.h"
#include "report/metrics.h"
#include "serve/serve.h"

/* One tick's line in the ring. */
typedef struct sline {
	char *data;
	size_t len;
} sline;

/* A header and a keyframe for the viewers that joined at one tick (shared by them). */
typedef struct skey {
	int refs; /* under the lock */
	char *data;
	size_t len;
} skey;

/* One viewer of /stream. */
typedef struct sclient {
	struct sclient *next, **pprev;
	struct kg_server *srv;
	bool joined;       /* has its keyframe (else waits for the next tick) */
	skey *key;         /* still sending it; NULL when sent */
	size_t key_off;
	int64_t next_n;    /* the ring line it sends next */
	size_t line_off;   /* bytes of that line already sent */
	bool cut;          /* fell behind: the notice, then the end */
	size_t notice_off;
	int64_t last_send; /* monotonic: a keep-alive newline after a quiet spell */
	char notice[224];  /* the last line: {"kgtop_stream_end":"why"} */
	char peer[64];
} sclient;

/* The ring of tick lines: n = first_n .. first_n + count - 1. */
typedef struct sring {
	sline *v;
	size_t cap;        /* slots */
	size_t head;       /* slot of first_n */
	size_t count;
	int64_t first_n;
	size_t bytes;
	size_t max_bytes;  /* --serve-buffer */
} sring;

struct kg_server {
	kg_serve_config cfg;
	char *listen;
	char *url;
	bool loopback;
	bool tls;
	struct MHD_Daemon *d;
	char *cert_pem, *key_pem;
	char **users, **passwords; /* --serve-auth */
	int nusers;

	kg_recorder *enc;          /* the line encoder (a recorder with a sink) */
	kg_metrics *counts;        /* counted on the collector thread */

	pthread_mutex_t lock;
	pthread_cond_t more;       /* a tick appended, a viewer joined, or stopping */
	pthread_cond_t watch;      /* a connection began or answered, or stopping (the watchdog) */
	pthread_t watchdog;
	bool watch_started, watch_stop;
	struct sconn *conns;       /* every connection, with its address and deadline */
	uint64_t refused;          /* connections refused: their address held its share */
	uint64_t cut_slow;         /* connections closed at their deadline */
	kg_snapshot *snap;         /* newest, one reference */
	kg_metrics *frozen;        /* a copy of counts, one reference */
	sring ring;
	sclient *viewers;
	int nviewers;
	int joining;               /* viewers waiting for a keyframe */
	uint64_t dropped;          /* viewers cut off since start */
	uint64_t requests;
	bool stopping;
};

/* -------------------------------------------------------- serve_conn.c */

/* Connections one address may hold: an eighth of --serve-clients, at least two. */
int serve_per_address(int max_clients);
/* libmicrohttpd's accept policy: MHD_NO for an address that holds its share (cls the server). */
enum MHD_Result serve_conn_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen);
/* libmicrohttpd's connection notice (MHD_OPTION_NOTIFY_CONNECTION, cls the server). */
void serve_conn_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		       enum MHD_ConnectionNotificationCode toe);
/* libmicrohttpd's request notice (MHD_OPTION_NOTIFY_COMPLETED): the next request's deadline. */
void serve_conn_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe);
/* A request was answered (stream: a /stream viewer, no deadline from now on). */
void serve_conn_answered(struct kg_server *s, struct MHD_Connection *conn, bool stream);
/* Start and stop the watchdog; start: -1 with err. */
int serve_conn_start(struct kg_server *s, char *err, size_t errsz);
void serve_conn_stop(struct kg_server *s);

/* ------------------------------------------------------ serve_stream.c */

/* Sink: true while a viewer reads the lines. */
bool stream_want_line(void *arg);
/* Sink: tick n's line into the ring; cut off the viewers it leaves behind. */
void stream_line(void *arg, int64_t n, const char *line, size_t len);
/* Sink: true while viewers wait for a keyframe. */
bool stream_want_key(void *arg);
/* Sink: the header and keyframe of tick n for the viewers waiting. */
void stream_key(void *arg, int64_t n, const char *buf, size_t hlen, size_t len);
/* Answer GET /stream: a chunked response that follows the ticks; MHD_NO on failure. */
enum MHD_Result stream_answer(struct kg_server *s, struct MHD_Connection *conn);
/* Wake every viewer to end (before the daemon stops). */
void stream_stop(struct kg_server *s);
/* Free the ring (after the daemon stopped). */
void stream_free(struct kg_server *s);

#endif

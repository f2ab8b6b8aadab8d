/*
 * serve.h: --serve ADDR:PORT: what kgtop sees, over HTTP (libmicrohttpd).
 *
 *   /metrics  the Prometheus text exposition (report/metrics.h)
 *   /stream   the live recording (kgtop-record(5)): a header and a keyframe
 *             for each new viewer, then every tick's line; kgtop --attach
 *             reads it
 *   /healthz  200 while the process answers
 *   /ready    200 once every source answered, 503 with the reason before
 *
 * The server hangs on the collector as a tap: each tick it keeps a
 * reference to the published snapshot, counts the rebalances that ended
 * (report/metrics.h) and hands the tick's line to the viewers' stream.  A
 * request reads only what the last tick left, under a lock held for a
 * few pointer copies: it never waits for a source, and the collector
 * never waits for a client.  Requests are answered on libmicrohttpd's
 * threads (one per connection, at most --serve-clients of them, fewer per
 * client address), with a timeout on idle connections and a bound on
 * header size, so slow, huge or numerous requests cannot reach the
 * collector or the screen.  A viewer that falls further behind than
 * --serve-buffer bytes of stream is cut off with a line saying so.
 *
 * Endpoints are read-only (GET and HEAD).  With --serve-auth FILE every
 * endpoint but /healthz asks for HTTP basic authentication; with
 * --serve-cert and --serve-key it speaks HTTPS.  No response ever carries
 * a credential.  This folder is the only code that includes microhttpd.h.
 */
#ifndef KGTOP_SERVE_SERVE_H
#define KGTOP_SERVE_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/source.h"
#include "model/tap.h"
#include "model/tracker.h"

typedef struct kg_serve_config {
	const char *listen;        /* --serve [ADDR:]PORT (ADDR defaults to 127.0.0.1; [v6]:PORT) */
	const char *auth_file;     /* --serve-auth FILE: "user:password" lines; NULL: no authentication */
	const char *cert_file;     /* --serve-cert FILE (PEM); with key_file: HTTPS */
	const char *key_file;      /* --serve-key FILE (PEM) */
	int max_clients;           /* --serve-clients: connections at once, required */
	int64_t buffer_bytes;      /* --serve-buffer: stream a viewer may fall behind, required */
	bool partitions;           /* --metrics-partitions */
	const kg_tracker_config *model; /* the settings a viewer's tracker should derive with (the stream's header) */
} kg_serve_config;

typedef struct kg_server kg_server;

/*
 * Listen and start answering; 0, or -1 with err (a bad address, a port in
 * use, an unreadable file, TLS unavailable), or KG_ERR_USAGE for a usage error.
 */
int serve_open(const kg_serve_config *cfg, kg_server **out, char *err, size_t errsz);
/* The tap to add to the collector. */
void serve_tap(kg_server *s, kg_tap *tap);
/* A source that only reports the server's health ("serve": its URL, viewers); not owning the server. */
kg_source *serve_source(kg_server *s);
/* The URL it answers on, with the port it got ("http://127.0.0.1:9464"). */
const char *serve_url(const kg_server *s);
/* Stop answering and free (after the collector stopped: the tap must not run any more). */
void serve_close(kg_server *s);

#endif

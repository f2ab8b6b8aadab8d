/*
 * httpd.h: a small HTTP/1.1 server for the trace tests (never installed).
 *
 * It listens on 127.0.0.1 on an ephemeral port and serves files of one
 * directory with the behaviours trace streams must survive:
 *   /f/NAME         the file, with single Range requests (206, 416), HEAD
 *   /norange/NAME   the file whole (200 with a length), Range ignored
 *   /chunked/NAME   a live stream: chunked encoding, the file from its
 *                   start and then its growth, until stream_ms passed
 *   /drop/NAME      like /f, but while the "drops" knob is positive the
 *                   answer promises its whole length and the connection
 *                   closes after half of the body
 *   /slow/NAME      headers and a few bytes, then silence until the client
 *                   gives up (read timeouts)
 *   /auth/NAME      like /f when the request carries "X-Kgtop-Token: s3cret", else 401
 *   /status/CODE    that status with a short body (404, 500, ...)
 *   /redirect/NAME  302 to /f/NAME
 *   /junk           bytes that are not HTTP, then close
 *   /silent         the request read, then not a byte (no status line)
 *   /hostile/longline, /hostile/clen, /hostile/ticks   what a hostile
 *                   server sends a viewer (--attach), as fast as it reads:
 *                   a body without a newline, chunked or with a
 *                   Content-Length of 100 GB; the file stream-head.kgrec
 *                   then endless valid ticks
 *   /cut/NAME       the file in one chunk, then the connection closed
 *                   without the last chunk (a stream that breaks)
 *   /flood          a live stream of jsonl lines, each naming a new member
 *                   of g-flood, as fast as the client reads; with the
 *                   "flood_lines" knob, that many and then one line of
 *                   group g-flood-end, then silence
 * Knobs make faults: "fail500" answers 500 for /f/ and /chunked/, and
 * "trickle_ms" makes /chunked/ a stream of one byte (never a newline) per
 * that many milliseconds, and /f/ the file with its length, one byte per
 * that many milliseconds.
 *   POST /jolokia   answers with the file "jolokia.json" of the directory
 * A TLS handshake gets a plain "400 Bad Request" (so https:// clients fail fast).
 * Each connection has its own thread; requests are counted and the last
 * ones recorded so tests can assert what the client asked.
 */
#ifndef KGTOP_TEST_HTTPD_H
#define KGTOP_TEST_HTTPD_H

#include <stddef.h>
#include <stdint.h>

typedef struct kg_httpd kg_httpd;

typedef struct kg_httpd_stats {
	unsigned requests;          /* requests answered */
	unsigned connections;       /* connections accepted */
	uint64_t body_bytes;        /* body bytes sent */
	char last_method[8];
	char last_path[256];
	char last_range[128];       /* "" when none */
	char last_token[128];       /* the last X-Kgtop-Token a request carried, "" none yet */
	char last_body[8192];       /* a POST body */
} kg_httpd_stats;

/* Start serving root; NULL with err on failure. */
kg_httpd *httpd_start(const char *root, char *err, size_t errsz);
/* The port it listens on. */
int httpd_port(const kg_httpd *h);
/* A copy of the counters. */
void httpd_stats(kg_httpd *h, kg_httpd_stats *st);
/*
 * Set a knob: "drops" (answers to cut short), "stream_ms" (live stream
 * length, default 3000), "fail500", "trickle_ms", "flood_lines" (above).
 */
void httpd_set(kg_httpd *h, const char *knob, long value);
/* Stop: close the listener, end every connection, free. */
void httpd_stop(kg_httpd *h);

#endif

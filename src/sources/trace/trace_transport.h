/*
 * trace_transport.h: how a trace stream's bytes arrive (libcurl, file://).
 *
 * The transport of one --trace source: one curl multi handle with one easy
 * handle reused for every request, driven without blocking from the
 * collector thread (fds() and next_poll() let it sleep in one poll(2)).
 * It knows no kind of trace, only two ways of reading a URL:
 *  - KG_TRACE_STREAM: lines, tailed.  A file (file://, or HTTP with Range)
 *    is read by offsets from its end (or its start), with rotation and
 *    truncation found by comparing the bytes before the offset; an answer
 *    without a length is a live stream, reopened when it ends or stays
 *    quiet.  Complete lines go to the sink's line callback;
 *  - KG_TRACE_POLL: one whole document per interval (GET, or POST of a
 *    fixed body), handed to the sink's document callback, which may call
 *    the answer a failure.
 * It owns what every stream shares: the connect, read, idle and total
 * timeouts, the minimum rate of a live stream (a line within the read
 * timeout), the budget of parsing per refresh with its backlog
 * (trace_backlog.h),
 * retries with exponential backoff, TLS verification (--trace-insecure),
 * credentials (~/.netrc, URL userinfo, the --trace-headers lines, see
 * trace_url.h) scrubbed from every message and log line, and the health
 * it derives from its answers (connecting, ok, error with the retry due).
 */
#ifndef KGTOP_SOURCES_TRACE_TRACE_TRANSPORT_H
#define KGTOP_SOURCES_TRACE_TRACE_TRANSPORT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "sources/trace/trace.h"
#include "sources/trace/trace_url.h"

struct curl_slist;

/* How a URL is read. */
typedef enum kg_trace_mode {
	KG_TRACE_STREAM, /* lines, tailed from a file or read from a live answer */
	KG_TRACE_POLL,   /* one document per interval */
	KG_TRACE_MODE_COUNT
} kg_trace_mode;

/* What one request asks for, and how its answer is kept. */
typedef struct kg_trace_wire {
	kg_trace_mode mode;
	const char *post;          /* POLL: the body of a POST; NULL for GET */
	const char *content_type;  /* of that body */
	size_t max_document;       /* POLL: a larger answer is an error */
	const char *schedule_words; /* POLL: its schedule in the log ("one bulk read per interval") */
	const char *request_words; /* POLL: one request in the debug log ("bulk read") */
} kg_trace_wire;

/* Where the transport hands what it read. */
typedef struct kg_trace_sink {
	void *arg;
	/* STREAM: one complete line, without its newline */
	void (*line)(void *arg, const char *line, size_t len);
	/* POLL: one whole answer; 0, or -1 with err to count the answer as failed */
	int (*document)(void *arg, const char *body, size_t len, char *err, size_t errsz);
	/* whether the refresh's budget of observations has room for another line (NULL: always) */
	bool (*more)(void *arg);
	/* STREAM: the lines from now on follow a gap (the stream started at its end, a live stream opened): what
	 * was written before now was not all read (NULL: not told) */
	void (*gap)(void *arg);
	/* counters: the transport keeps requests, bytes, lines, rotations...; the sink its verdicts */
	kg_trace_stats *stats;
} kg_trace_sink;

/* What the source's health shows of its transport. */
typedef struct kg_trace_link {
	kg_src_status status;   /* connecting, ok or error */
	int64_t since;          /* wall time of the last status change */
	int64_t last_ok;        /* wall time of the last good answer (or of a live stream's last check) */
	int64_t last_ok_mono;   /* the same, monotonic */
	int64_t retry_at;       /* monotonic time of the next request while none runs; 0 while one runs */
	const char *err;        /* the last error, "" when none */
	const char *shown;      /* the URL without userinfo */
	bool streaming;         /* reading a live stream (an answer without length) */
	size_t backlog;         /* bytes received and not parsed yet (the budget ran out) */
	int64_t behind;         /* bytes of the file past what was asked for, as its last answer said */
	bool budget_hit;        /* the last parsing stopped at the budget */
	bool plain_creds;       /* credentials go over plain http:// */
	bool insecure;          /* https:// without certificate verification */
} kg_trace_link;

typedef struct kg_trace_transport kg_trace_transport;

/* Fill the defaults of the timeouts, backoff and chunk into c (max_line is the kind's). */
void trace_transport_defaults(kg_trace_config *c);
/*
 * A transport for the source called name, reading u (taken over; *u is
 * cleared) with cfg (defaults filled), sending the extra headers (copied).
 * The first request is due at once.
 */
kg_trace_transport *trace_transport_new(const char *name, kg_trace_url *u, const kg_trace_config *cfg,
					const kg_trace_wire *w, const struct curl_slist *extra, const kg_trace_sink *sink);
/* Abort what runs and free. */
void trace_transport_free(kg_trace_transport *tt);
/*
 * Make progress without blocking, parsing at most the refresh's budget:
 * cfg->time_budget_us of parsing, and lines while the sink's more() says
 * so; the rest waits in a backlog.  KG_SRC_NEWS when the health changed,
 * KG_SRC_COMPLETE once caught up (the backlog parsed too).
 */
int trace_transport_poll(kg_trace_transport *tt);
/* The source handed its observations over: the next refresh's budget starts. */
void trace_transport_budget_reset(kg_trace_transport *tt);
/* Wall time at which poll() should run next. */
int64_t trace_transport_next_poll(const kg_trace_transport *tt);
/* The sockets curl waits on; returns the count. */
int trace_transport_fds(const kg_trace_transport *tt, struct pollfd *pfd, int max);
/* Ask again now (unless a request runs). */
void trace_transport_refresh(kg_trace_transport *tt);
/* Abort the request in flight and count it failed with why (never from the sink's callbacks): retried after the backoff. */
void trace_transport_fail(kg_trace_transport *tt, const char *why);
/* Its health. */
void trace_transport_link(const kg_trace_transport *tt, kg_trace_link *out);
/* Complete a copy of the counters: lines dropped for length, the offset reached. */
void trace_transport_stats(const kg_trace_transport *tt, kg_trace_stats *st);

#endif

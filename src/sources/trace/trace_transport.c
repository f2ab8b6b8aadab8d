/*
 * trace_transport.c: a trace stream's bytes through libcurl's multi socket
 * interface (see trace_transport.h).
 *
 * Each transport owns one multi handle with one easy handle reused for
 * every request (curl keeps the connection alive between them).  Curl
 * tells us the sockets it waits on (socket callback) and when it wants to
 * be called (timer callback, re-read with curl_multi_timeout()); the
 * collector polls those sockets, then poll() asks poll(2) which of them
 * are ready (with a zero timeout) and hands each to
 * curl_multi_socket_action().  File URLs have no sockets: curl reads them
 * inside the first action, which is why ranged requests are bounded (1 MiB
 * by default).
 *
 * A line stream's state is the offset of the next byte to read and the
 * last TAIL bytes before it.  A request asks for [offset - tail, offset +
 * chunk); the answer's first bytes must equal the tail, else the file was
 * replaced.  The answer's position in the file comes from Content-Range
 * (206), is 0 for a whole-file 200, and for file:// is the position asked
 * (curl fakes a Content-Length header with the file's size).  Bytes before
 * the overlap (a server that ignored the range) are skipped.
 */
#include "config.h"

#include "sources/trace/trace_transport.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "util/util.h"
#include "sources/trace/parse_lines.h"
#include "sources/trace/trace_backlog.h"

#define TAIL 512 /* bytes compared before the offset */
#define MAX_SOCKS 8
#define DEF_CONNECT (10LL * 1000000)
#define DEF_READ (15LL * 1000000)
#define DEF_IDLE (300LL * 1000000)
#define DEF_BACKOFF_MIN (1000LL * 1000)
#define DEF_BACKOFF_MAX (60LL * 1000000)
#define DEF_CHUNK (1u << 20)
#define DEF_TOTAL (30LL * 1000000)
#define DEF_TIME_BUDGET (50LL * 1000)
#define DEF_OBS_BUDGET 5000

typedef struct tsock {
	curl_socket_t fd;
	int what; /* CURL_POLL_IN / OUT / INOUT */
} tsock;

struct kg_trace_transport {
	char *name;           /* the source's, for the log */
	kg_trace_url u;
	kg_trace_wire wire;
	kg_trace_sink sink;
	kg_trace_stats *st;   /* the sink's counters */
	bool plain_creds;     /* credentials (URL userinfo, headers file) sent over plain http:// */
	kg_trace_config cfg;  /* timeouts and sizes, defaults filled (specs not kept) */
	struct curl_slist *headers;
	CURLM *multi;
	CURL *easy;
	char errbuf[CURL_ERROR_SIZE];
	tsock sock[MAX_SOCKS];
	int nsock;
	int64_t timer_at;     /* monotonic; 0 none */

	/* the request in flight */
	bool active;
	bool prime;           /* asking for the last bytes, to start at the end */
	int64_t req_mono;     /* when it started */
	int64_t last_byte;    /* monotonic time of its last byte (or its start) */
	int64_t from;         /* first byte asked for; -1 no range */
	int64_t want_end;     /* last byte asked for; -1 open */
	int64_t overlap_need; /* tail bytes the answer must repeat */
	int64_t overlap_seen;
	int64_t new_bytes;    /* bytes past the offset in this answer */
	bool began;           /* the answer's status and headers were taken */
	long code;
	int64_t cr_start, cr_total; /* Content-Range, -1 unknown */
	int64_t clen;         /* Content-Length header, -1 unknown */
	int64_t base;         /* file position of the first body byte; -1 stream */
	int64_t got;          /* body bytes of this answer */
	bool replaced;        /* the overlap differed: the file was replaced */
	bool bad_answer;      /* an error status: the body is discarded */
	bool too_big;
	sbuf body;            /* a document */
	bool paused;          /* a live stream's transfer is paused: the backlog holds a chunk */
	int64_t paused_since; /* monotonic */
	int64_t paused_for;   /* time this request spent paused (not counted against its deadlines) */
	int64_t nl_mono;      /* a live stream: when its last newline (or its answer) arrived */

	/* a line stream */
	bool started;         /* offset known */
	kg_file_id fid;       /* file://: the identity of the file read so far */
	bool streaming;       /* the server sends a live stream without length */
	int64_t offset;
	unsigned char tail[TAIL];
	size_t ntail;
	kg_lines lines;
	kg_backlog backlog;   /* received, not yet parsed: the refresh's budget ran out */
	int64_t spent_us;     /* parsing time since the source last drained */
	int64_t feed_start;   /* monotonic start of the feeding in progress */
	bool budget_hit;      /* the budget ran out with bytes waiting */

	/* schedule and health */
	int64_t next_at;      /* monotonic time of the next request */
	int failures;         /* consecutive */
	bool completed;       /* caught up with the stream, or failed (for --once) */
	bool complete_told;
	bool news;
	kg_src_status status;
	int64_t since;        /* wall time of the last status change */
	int64_t last_ok;      /* wall time of the last good answer */
	int64_t last_ok_mono;
	char err[256];
};

/* The stream's lines from now on follow a gap: told to the sink. */
static void
told_gap(kg_trace_transport *t)
{
	if (t->sink.gap != NULL)
		t->sink.gap(t->sink.arg);
}

/* ------------------------------------------------------------ defaults */

/* Fill the transport's defaults into c (its tuning: the interval is the caller's). */
void
trace_transport_defaults(kg_trace_config *c)
{
	if (c->connect_timeout_us <= 0)
		c->connect_timeout_us = DEF_CONNECT;
	if (c->read_timeout_us <= 0)
		c->read_timeout_us = DEF_READ;
	if (c->idle_timeout_us <= 0)
		c->idle_timeout_us = DEF_IDLE;
	if (c->backoff_min_us <= 0)
		c->backoff_min_us = DEF_BACKOFF_MIN;
	if (c->backoff_max_us <= 0)
		c->backoff_max_us = DEF_BACKOFF_MAX;
	if (c->backoff_max_us < c->backoff_min_us)
		c->backoff_max_us = c->backoff_min_us;
	if (c->chunk == 0)
		c->chunk = DEF_CHUNK;
	if (c->total_timeout_us <= 0)
		c->total_timeout_us = DEF_TOTAL;
	if (c->time_budget_us <= 0)
		c->time_budget_us = DEF_TIME_BUDGET;
	if (c->obs_budget == 0)
		c->obs_budget = DEF_OBS_BUDGET;
}

/* ------------------------------------------------------------- messages */

/* Set the error message: formatted, credentials scrubbed, sanitized. */
static void
set_err(kg_trace_transport *t, const char *fmt, ...) KG_PRINTF(2, 3);
static void
set_err(kg_trace_transport *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof t->err, fmt, ap);
	va_end(ap);
	trace_url_scrub(&t->u, t->err, sizeof t->err);
	util_sanitize_text(t->err);
}

/* Log a line about this stream, "trace NAME: ...", with credentials scrubbed. */
static void
tlog(const kg_trace_transport *t, kg_log_level level, const char *fmt, ...) KG_PRINTF(3, 4);
static void
tlog(const kg_trace_transport *t, kg_log_level level, const char *fmt, ...)
{
	va_list ap;
	char m[768];
	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	trace_url_scrub(&t->u, m, sizeof m);
	log_msg(level, "trace %s: %s", t->name, m);
}

/* Change the status (news when it changed). */
static void
set_status(kg_trace_transport *t, kg_src_status st)
{
	if (t->status != st) {
		t->status = st;
		t->since = util_now_us();
		t->news = true;
	}
}

/* ---------------------------------------------------------- curl glue */

/* Socket callback: remember what curl waits for on each socket. */
static int
on_socket(CURL *e, curl_socket_t s, int what, void *userp, void *socketp)
{
	kg_trace_transport *t = userp;
	int i;
	(void)e;
	(void)socketp;
	for (i = 0; i < t->nsock; i++) {
		if (t->sock[i].fd == s)
			break;
	}
	if (what == CURL_POLL_REMOVE) {
		if (i < t->nsock)
			t->sock[i] = t->sock[--t->nsock];
		return 0;
	}
	if (i == t->nsock) {
		if (t->nsock >= MAX_SOCKS)
			return -1;
		t->nsock++;
	}
	t->sock[i].fd = s;
	t->sock[i].what = what;
	return 0;
}

/* Timer callback: when curl wants to be called. */
static int
on_timer(CURLM *m, long timeout_ms, void *userp)
{
	kg_trace_transport *t = userp;
	(void)m;
	t->timer_at = timeout_ms < 0 ? 0 : util_mono_us() + (int64_t)timeout_ms * 1000;
	return 0;
}

/* Parse a decimal at s; -1 when none. */
static int64_t
dec(const char *s, const char **end)
{
	int64_t v = 0;
	int n = 0;
	while (*s == ' ')
		s++;
	while (*s >= '0' && *s <= '9' && n < 18) {
		v = v * 10 + (*s++ - '0');
		n++;
	}
	if (end != NULL)
		*end = s;
	return n > 0 ? v : -1;
}

/* Header callback: status lines reset, Content-Range and Content-Length are kept. */
static size_t
on_header(char *p, size_t size, size_t nmemb, void *arg)
{
	kg_trace_transport *t = arg;
	size_t n = size * nmemb;
	char h[256];
	size_t k = KG_MIN(n, sizeof h - 1);
	memcpy(h, p, k);
	h[k] = '\0';
	if (strncmp(h, "HTTP/", 5) == 0) {
		t->cr_start = t->cr_total = t->clen = -1;
	} else if (strncasecmp(h, "Content-Range:", 14) == 0) {
		const char *s = h + 14, *e;
		while (*s == ' ')
			s++;
		if (strncasecmp(s, "bytes", 5) == 0)
			s += 5;
		while (*s == ' ')
			s++;
		if (*s == '*') {
			s++;
		} else {
			t->cr_start = dec(s, &e);
			s = e;
			if (*s == '-')
				dec(s + 1, &s);
		}
		if (*s == '/')
			t->cr_total = dec(s + 1, NULL);
	} else if (strncasecmp(h, "Content-Length:", 15) == 0) {
		t->clen = dec(h + 15, NULL);
	}
	return n;
}

/* ------------------------------------------------------------- bodies */

/* One complete line: counted, then to the sink. */
static void
on_line(void *arg, const char *line, size_t len)
{
	kg_trace_transport *t = arg;
	t->st->lines++;
	if (t->st->bytes_first_line < 0) {
		t->st->bytes_first_line = (int64_t)t->st->bytes;
		t->st->first_line_us = util_mono_us();
	}
	t->sink.line(t->sink.arg, line, len);
}

/* Remember the last bytes before the offset. */
static void
tail_push(kg_trace_transport *t, const char *p, size_t n)
{
	if (n >= TAIL) {
		memcpy(t->tail, p + n - TAIL, TAIL);
		t->ntail = TAIL;
	} else if (t->ntail + n <= TAIL) {
		memcpy(t->tail + t->ntail, p, n);
		t->ntail += n;
	} else {
		size_t keep = TAIL - n;
		memmove(t->tail, t->tail + t->ntail - keep, keep);
		memcpy(t->tail + keep, p, n);
		t->ntail = TAIL;
	}
}

/* Take the answer's status: where its body sits in the file, or that it is an error or a stream. */
static void
answer_begin(kg_trace_transport *t)
{
	if (t->began)
		return;
	t->began = true;
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->code);
	if (t->wire.mode == KG_TRACE_POLL) {
		t->bad_answer = !t->u.is_file && t->code != 200;
		return;
	}
	if (t->u.is_file) {
		/* curl's file:// headers give the file's size as Content-Length */
		t->cr_total = t->clen;
		if (t->prime)
			t->base = t->clen >= 0 ? KG_MAX(0, t->clen - TAIL) : 0;
		else
			t->base = t->from;
	} else if (t->code == 206 && t->cr_start >= 0) {
		t->base = t->cr_start;
	} else if (t->code == 200 && t->clen >= 0) {
		t->base = 0; /* the server ignored the range: the whole file */
		t->cr_total = t->clen;
	} else if (t->code == 200) {
		t->base = -1; /* no length: a live stream */
	} else {
		t->bad_answer = true;
		return;
	}
	if (t->base < 0) {
		t->nl_mono = util_mono_us();
		t->completed = true; /* a live stream never ends: being open is as complete as it gets */
		told_gap(t); /* it starts wherever the server starts it */
		if (!t->streaming) {
			t->streaming = true;
			t->st->streams++;
			tlog(t, KG_LOG_INFO, "the answer has no length: reading a live stream (%" PRIu64 " so far)",
			     t->st->streams);
			t->started = false;
			t->offset = -1;
			t->ntail = 0;
		}
		return;
	}
	t->streaming = false;
	if (t->prime) {
		/* the answer's bytes only prime the tail; the offset ends after them */
		t->offset = t->base;
		t->ntail = 0;
		t->from = t->base;
		t->overlap_need = 0;
	}
}

/* Body bytes of a ranged answer: skip what was not asked, check the overlap, parse what is new. */
static size_t
on_ranged(kg_trace_transport *t, const char *p, size_t n)
{
	size_t all = n;
	int64_t pos = t->base + t->got;
	t->got += (int64_t)n;
	/* before what we asked for (a server that ignored the range): skip */
	if (pos < t->from) {
		size_t k = (size_t)KG_MIN((int64_t)n, t->from - pos);
		p += k;
		n -= k;
		pos += (int64_t)k;
	}
	/* the overlap must repeat what we read before */
	if (n > 0 && pos < t->offset) {
		size_t k = (size_t)KG_MIN((int64_t)n, t->offset - pos);
		size_t at = (size_t)(pos - (t->offset - (int64_t)t->ntail));
		if (at + k > t->ntail || memcmp(p, t->tail + at, k) != 0) {
			t->replaced = true;
			return 0;
		}
		t->overlap_seen += (int64_t)k;
		p += k;
		n -= k;
	}
	if (n > 0) {
		if (!t->prime)
			trace_backlog_add(&t->backlog, p, n);
		tail_push(t, p, n);
		t->offset += (int64_t)n;
		t->new_bytes += (int64_t)n;
	}
	return all;
}

/* Body callback. */
static size_t
on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	kg_trace_transport *t = arg;
	size_t n = size * nmemb;
	int64_t mono = util_mono_us();
	answer_begin(t);
	if (t->bad_answer) {
		t->last_byte = mono;
		t->st->bytes += n;
		return n; /* an error page: drop it */
	}
	if (t->wire.mode == KG_TRACE_POLL) {
		t->last_byte = mono;
		t->st->bytes += n;
		if (t->body.len + n > t->wire.max_document) {
			t->too_big = true;
			return 0;
		}
		sbuf_addn(&t->body, p, n);
		return n;
	}
	if (!t->u.is_file && trace_backlog_size(&t->backlog) >= t->cfg.chunk) {
		/* a chunk waits unparsed: leave the rest in the socket (curl keeps this piece) */
		t->paused = true;
		t->paused_since = mono;
		return CURL_WRITEFUNC_PAUSE;
	}
	t->last_byte = mono;
	t->st->bytes += n;
	if (t->base < 0) {
		if (memchr(p, '\n', n) != NULL)
			t->nl_mono = mono;
		trace_backlog_add(&t->backlog, p, n);
		t->got += (int64_t)n;
		return n;
	}
	return on_ranged(t, p, n);
}

/* ----------------------------------------------------------- requests */

/* The delay before retry number n (1-based). */
static int64_t
backoff(const kg_trace_transport *t, int n)
{
	int64_t d = t->cfg.backoff_min_us;
	while (--n > 0 && d < t->cfg.backoff_max_us)
		d *= 2;
	return KG_MIN(d, t->cfg.backoff_max_us);
}

/* A good answer. */
static void
answer_ok(kg_trace_transport *t)
{
	if (t->status == KG_SRC_CONNECTING || (t->status == KG_SRC_ERROR && t->failures > 0)) {
		char how[64];
		if (t->u.is_file)
			snprintf(how, sizeof how, "file");
		else
			snprintf(how, sizeof how, "HTTP %ld", t->code);
		if (t->status == KG_SRC_CONNECTING)
			tlog(t, KG_LOG_INFO, "connected (%s)", how);
		else
			tlog(t, KG_LOG_INFO, "ok again (%s) after %d failed attempt%s", how, t->failures,
			     t->failures == 1 ? "" : "s");
	}
	t->failures = 0;
	t->err[0] = '\0';
	t->last_ok = util_now_us();
	t->last_ok_mono = util_mono_us();
	set_status(t, KG_SRC_OK);
}

/* A failed attempt: error status, retry after backoff. */
static void
answer_failed(kg_trace_transport *t)
{
	t->failures++;
	t->st->failures++;
	set_status(t, KG_SRC_ERROR);
	t->news = true;
	t->next_at = util_mono_us() + backoff(t, t->failures);
	tlog(t, KG_LOG_INFO, "%s; retry in %.1fs (failure %d)", t->err[0] ? t->err : "failed",
	     (double)backoff(t, t->failures) / 1e6, t->failures);
}

/* Set the range of the next request from the stream's state. */
static void
request_range(kg_trace_transport *t)
{
	char range[64];
	if (t->wire.mode == KG_TRACE_POLL) {
		curl_easy_setopt(t->easy, CURLOPT_RANGE, NULL);
	} else if (!t->started && !t->streaming) {
		/* start at the end: ask for the last bytes only */
		t->prime = true;
		snprintf(range, sizeof range, "-%d", TAIL);
		curl_easy_setopt(t->easy, CURLOPT_RANGE, range);
	} else if (t->streaming) {
		parse_lines_reset(&t->lines);
		curl_easy_setopt(t->easy, CURLOPT_RANGE, NULL);
	} else {
		t->from = t->offset - (int64_t)t->ntail;
		t->overlap_need = (int64_t)t->ntail;
		t->want_end = t->offset + (int64_t)t->cfg.chunk - 1;
		snprintf(range, sizeof range, "%" PRId64 "-%" PRId64, t->from, t->want_end);
		curl_easy_setopt(t->easy, CURLOPT_RANGE, range);
	}
}

/* Log the request just started (-vv). */
static void
request_log(const kg_trace_transport *t)
{
	if (!log_enabled(KG_LOG_DEBUG))
		return;
	if (t->wire.mode == KG_TRACE_POLL)
		tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": %s", t->st->requests, t->wire.request_words);
	else if (t->prime)
		tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": the last %d bytes (start at the end)", t->st->requests,
		     TAIL);
	else if (t->streaming)
		tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": the live stream again", t->st->requests);
	else
		tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": bytes %" PRId64 "-%" PRId64, t->st->requests, t->from,
		     t->want_end);
}

static void restart_from_zero(kg_trace_transport *t);

/* Start the next request. */
static void
request_start(kg_trace_transport *t)
{
	char why[160];
	if (trace_url_file_problem(&t->u, why, sizeof why)) {
		set_err(t, "%s: %s", t->u.shown, why);
		t->completed = true; /* failed: as complete as it gets (for --once) */
		answer_failed(t);
		return;
	}
	if (t->wire.mode == KG_TRACE_STREAM && trace_url_file_replaced(&t->u, &t->fid) && t->started &&
	    !t->streaming) {
		t->st->rotations++; /* a rotation, even when the new file is already longer than what was read */
		t->replaced = true;  /* for the log's words; reset below */
		restart_from_zero(t);
	}
	t->prime = false;
	t->from = t->want_end = -1;
	t->overlap_need = t->overlap_seen = t->new_bytes = 0;
	t->began = t->replaced = t->bad_answer = t->too_big = t->paused = false;
	t->paused_for = 0;
	t->code = 0;
	t->cr_start = t->cr_total = t->clen = -1;
	t->base = -1;
	t->got = 0;
	t->errbuf[0] = '\0';
	sbuf_reset(&t->body);
	request_range(t);
	t->active = true;
	t->req_mono = t->last_byte = util_mono_us();
	t->st->requests++;
	request_log(t);
	if (curl_multi_add_handle(t->multi, t->easy) != CURLM_OK) {
		t->active = false;
		t->failures++;
		t->st->failures++;
		set_err(t, "cannot start a request");
		set_status(t, KG_SRC_ERROR);
		t->next_at = util_mono_us() + backoff(t, t->failures);
		tlog(t, KG_LOG_INFO, "%s; retry in %.1fs (failure %d)", t->err, (double)backoff(t, t->failures) / 1e6,
		     t->failures);
	}
}

/* Read the file again from its first byte (it was replaced or truncated). */
static void
restart_from_zero(kg_trace_transport *t)
{
	if (t->st->rotations + t->st->truncations > 0)
		tlog(t, KG_LOG_INFO, "%s at byte %" PRId64 " (rotated %" PRIu64 "x, truncated %" PRIu64
				     "x so far): reading it again from its start",
		     t->replaced && !(t->cr_total >= 0 && t->cr_total < t->offset) ? "the file was replaced"
										: "the file is shorter than what was read",
		     t->offset, t->st->rotations, t->st->truncations);
	t->started = true;
	t->streaming = false;
	t->offset = 0;
	t->ntail = 0;
	parse_lines_reset(&t->lines);
	t->next_at = util_mono_us();
	told_gap(t); /* what the old file got after the last read was not seen */
}

/* The file is shorter than the offset: count it and read it again from its start. */
static void
truncated(kg_trace_transport *t)
{
	t->st->truncations++;
	restart_from_zero(t);
}

/* A document request ended with curl result rc: to the sink, or an error. */
static void
document_done(kg_trace_transport *t, CURLcode rc)
{
	char err[256];
	if (rc != CURLE_OK && !t->too_big) {
		set_err(t, "%s: %s", t->u.shown, t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
		answer_failed(t);
	} else if (t->too_big) {
		set_err(t, "%s: answer larger than %zu MiB", t->u.shown, t->wire.max_document >> 20);
		answer_failed(t);
	} else if (t->bad_answer) {
		set_err(t, "%s: HTTP %ld", t->u.shown, t->code);
		answer_failed(t);
	} else if (t->sink.document(t->sink.arg, t->body.s ? t->body.s : "", t->body.len, err, sizeof err) < 0) {
		set_err(t, "%s", err);
		answer_failed(t);
	} else {
		answer_ok(t);
	}
	/* fixed rate: one request per interval from its start */
	if (t->failures == 0)
		t->next_at = t->req_mono + t->cfg.interval_us;
}

/* A ranged answer said there is nothing at or after the first byte asked for (416, or file:// past the end). */
static void
stream_past_end(kg_trace_transport *t, int64_t size)
{
	if (t->prime) {
		told_gap(t);
		t->started = true;
		t->offset = KG_MAX(size, 0);
		t->ntail = 0;
	} else if (t->u.is_file || (t->cr_total >= 0 && t->cr_total < t->offset)) {
		truncated(t);
	}
	answer_ok(t);
}

/* An answer that failed: its status or curl's error. */
static void
stream_failed(kg_trace_transport *t, CURLcode rc)
{
	if (t->bad_answer) {
		if (t->code >= 300 && t->code < 400)
			set_err(t, "%s: HTTP %ld (redirects are not followed: give the final URL)", t->u.shown, t->code);
		else
			set_err(t, "%s: HTTP %ld", t->u.shown, t->code);
	} else {
		/* keep what arrived: the next request resumes after it */
		set_err(t, "%s: %s", t->u.shown, t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
		if (t->prime)
			t->ntail = 0; /* start at the end again */
	}
	answer_failed(t);
}

/* A line stream's request ended with curl result rc at monotonic time mono. */
static void
stream_done(kg_trace_transport *t, CURLcode rc, int64_t mono)
{
	if (t->replaced) {
		/* shorter than what we read: truncated in place; else a new file */
		if (t->cr_total >= 0 && t->cr_total < t->offset)
			t->st->truncations++;
		else
			t->st->rotations++;
		restart_from_zero(t);
		answer_ok(t);
	} else if (t->bad_answer && t->code == 416 && !t->streaming) {
		stream_past_end(t, t->cr_total);
	} else if (t->bad_answer) {
		stream_failed(t, rc);
	} else if (rc == CURLE_BAD_DOWNLOAD_RESUME && t->u.is_file) {
		stream_past_end(t, t->clen); /* file:// asked past the end of the file */
	} else if (rc != CURLE_OK) {
		stream_failed(t, rc);
	} else if (t->base < 0) {
		/* a live stream ended: reopen after the interval */
		tlog(t, KG_LOG_INFO, "the live stream ended after %" PRId64 " bytes: reopening in %.1fs", t->got,
		     (double)t->cfg.interval_us / 1e6);
		answer_ok(t);
	} else if (t->prime) {
		told_gap(t);
		t->started = true;
		/* joined mid-line: skip through the next newline */
		if (t->ntail > 0 && t->tail[t->ntail - 1] != '\n')
			parse_lines_resync(&t->lines);
		answer_ok(t);
	} else if (t->overlap_seen < t->overlap_need) {
		truncated(t); /* the file ends before the offset */
		answer_ok(t);
	} else {
		if (t->new_bytes >= (int64_t)t->cfg.chunk) {
			t->next_at = mono; /* more is waiting */
			if (!t->complete_told)
				t->completed = false;
		}
		answer_ok(t);
	}
}

/* The request ended with curl result rc. */
static void
request_done(kg_trace_transport *t, CURLcode rc)
{
	int64_t mono = util_mono_us();
	curl_multi_remove_handle(t->multi, t->easy);
	t->active = false;
	t->completed = true; /* caught up or failed; unset below while more is waiting */
	t->next_at = mono + t->cfg.interval_us;
	if (rc == CURLE_OK || rc == CURLE_WRITE_ERROR || rc == CURLE_BAD_DOWNLOAD_RESUME || rc == CURLE_PARTIAL_FILE ||
	    rc == CURLE_RANGE_ERROR)
		answer_begin(t);
	if (log_enabled(KG_LOG_DEBUG)) {
		const kg_parse_counts *c = &t->st->counts;
		tlog(t, KG_LOG_DEBUG,
		     "answer %" PRIu64 ": %s, code %ld, %" PRId64 " bytes in %.0f ms; %" PRIu64 " lines, %" PRIu64
		     " events, %" PRIu64 " unparsed, %" PRIu64 " malformed, %" PRIu64 " too long so far; offset %" PRId64,
		     t->st->requests, rc == CURLE_OK ? "done" : curl_easy_strerror(rc), t->code, t->got,
		     (double)(mono - t->req_mono) / 1e3, t->st->lines, t->st->obs, c->n[KG_PARSE_UNPARSED],
		     c->n[KG_PARSE_MALFORMED], (uint64_t)t->lines.oversize, t->streaming ? (int64_t)-1 : t->offset);
	}
	if (t->wire.mode == KG_TRACE_POLL)
		document_done(t, rc);
	else
		stream_done(t, rc, mono);
}

/* Abort the request in flight after a timeout. */
static void
request_abort(kg_trace_transport *t, bool quiet)
{
	curl_multi_remove_handle(t->multi, t->easy);
	t->active = false;
	t->completed = true;
	if (quiet) {
		/* a quiet live stream: reopen without calling it an error */
		tlog(t, KG_LOG_INFO, "the live stream was quiet for %.0fs: reopening it",
		     (double)(util_mono_us() - t->last_byte) / 1e6);
		t->last_ok = util_now_us();
		t->last_ok_mono = util_mono_us();
		t->next_at = util_mono_us();
		return;
	}
	answer_failed(t);
}

/* The sockets curl waits on, as pollfds. */
static int
socks_pollfds(const kg_trace_transport *t, struct pollfd *pfd, int max)
{
	int i, n = 0;
	for (i = 0; i < t->nsock && n < max; i++) {
		pfd[n].fd = t->sock[i].fd;
		pfd[n].events = (short)((t->sock[i].what & CURL_POLL_IN ? POLLIN : 0) |
					(t->sock[i].what & CURL_POLL_OUT ? POLLOUT : 0));
		pfd[n].revents = 0;
		n++;
	}
	return n;
}

/* Let curl work on ready sockets and due timers; finish completed transfers. */
static void
drive(kg_trace_transport *t)
{
	struct pollfd pfd[MAX_SOCKS];
	int n = socks_pollfds(t, pfd, MAX_SOCKS), i, running, loops;
	CURLMsg *msg;
	int left;
	long ms = -1;
	if (n > 0 && poll(pfd, (nfds_t)n, 0) > 0) {
		for (i = 0; i < n; i++) {
			int ev = 0;
			if (pfd[i].revents & (POLLIN | POLLHUP))
				ev |= CURL_CSELECT_IN;
			if (pfd[i].revents & POLLOUT)
				ev |= CURL_CSELECT_OUT;
			if (pfd[i].revents & (POLLERR | POLLNVAL))
				ev |= CURL_CSELECT_ERR;
			if (ev != 0)
				curl_multi_socket_action(t->multi, pfd[i].fd, ev, &running);
		}
	}
	for (loops = 0; loops < 8 && t->timer_at != 0 && util_mono_us() >= t->timer_at; loops++) {
		t->timer_at = 0;
		curl_multi_socket_action(t->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	while ((msg = curl_multi_info_read(t->multi, &left)) != NULL) {
		if (msg->msg == CURLMSG_DONE && msg->easy_handle == t->easy && t->active)
			request_done(t, msg->data.result);
	}
	if (t->active && curl_multi_timeout(t->multi, &ms) == CURLM_OK)
		t->timer_at = ms < 0 ? 0 : util_mono_us() + (int64_t)ms * 1000;
}

/* Whether the request in flight reads a live stream (no length: idle, not read, timeout applies). */
static bool
live_stream(const kg_trace_transport *t)
{
	return t->began && t->base < 0 && !t->bad_answer && t->wire.mode != KG_TRACE_POLL;
}

/* -------------------------------------------------------------- driving */

/* Whether the refresh's budget has room for another line: its time here, its observations in the sink. */
static bool
feed_more(void *arg)
{
	kg_trace_transport *t = arg;
	if (t->spent_us + util_mono_us() - t->feed_start >= t->cfg.time_budget_us)
		return false;
	return t->sink.more == NULL || t->sink.more(t->sink.arg);
}

/* Parse the waiting lines while the refresh's budget lasts. */
static void
feed(kg_trace_transport *t)
{
	if (trace_backlog_size(&t->backlog) == 0)
		return;
	t->feed_start = util_mono_us();
	trace_backlog_feed(&t->backlog, &t->lines, on_line, t, feed_more, t);
	t->spent_us += util_mono_us() - t->feed_start;
	t->budget_hit = trace_backlog_size(&t->backlog) > 0;
}

/* A paused live stream goes on once half of its chunk was parsed (curl may hand over its piece at once). */
static void
resume(kg_trace_transport *t)
{
	int64_t mono;
	if (!t->paused || !t->active || trace_backlog_size(&t->backlog) > t->cfg.chunk / 2)
		return;
	mono = util_mono_us();
	t->paused = false;
	t->paused_for += mono - t->paused_since;
	t->last_byte = t->nl_mono = mono; /* the wait was ours, not the server's */
	curl_easy_pause(t->easy, CURLPAUSE_CONT);
	drive(t);
}

/* An open live stream is a healthy source, quiet, or paused because we are behind. */
static void
stream_alive(kg_trace_transport *t, int64_t mono)
{
	t->last_ok = util_now_us();
	t->last_ok_mono = mono;
	set_status(t, KG_SRC_OK);
}

/*
 * The deadlines of the request in flight.  A live stream is reopened
 * after idle_timeout of silence, and fails when it trickles (bytes arrive
 * but no line completes within read_timeout: the minimum rate).  Any
 * other answer fails after read_timeout without a byte, or when it is not
 * complete within total_timeout (an answer sent a byte at a time).
 */
static void
check_deadlines(kg_trace_transport *t, int64_t mono)
{
	int64_t idle = mono - t->last_byte;
	int64_t age = mono - t->req_mono - t->paused_for;
	bool stream = live_stream(t);
	if (stream && idle >= t->cfg.idle_timeout_us) {
		request_abort(t, true);
	} else if (stream && t->last_byte > t->nl_mono && mono - t->nl_mono >= t->cfg.read_timeout_us) {
		set_err(t, "%s: the live stream trickles (no complete line in %.1fs)", t->u.shown,
			(double)(mono - t->nl_mono) / 1e6);
		request_abort(t, false);
	} else if (!stream && idle >= t->cfg.read_timeout_us) {
		set_err(t, "%s: %s (%.1fs without data)", t->u.shown, t->began ? "read timeout" : "no answer",
			(double)idle / 1e6);
		request_abort(t, false);
	} else if (!stream && age >= t->cfg.total_timeout_us) {
		set_err(t, "%s: no complete answer within %.1fs", t->u.shown, (double)age / 1e6);
		request_abort(t, false);
	} else if (stream) {
		stream_alive(t, mono);
	}
}

/* Make progress without blocking. */
int
trace_transport_poll(kg_trace_transport *t)
{
	int64_t mono;
	int flags = 0;
	if (t->active)
		drive(t);
	feed(t);
	resume(t);
	mono = util_mono_us();
	if (t->active && !t->paused)
		check_deadlines(t, mono);
	else if (t->active && live_stream(t))
		stream_alive(t, mono); /* paused: the wait is ours */
	/* the next request waits until what the last one brought was parsed */
	if (!t->active && mono >= t->next_at && trace_backlog_size(&t->backlog) == 0) {
		request_start(t);
		if (t->active)
			drive(t);
		feed(t);
	}
	if (t->news)
		flags |= KG_SRC_NEWS;
	t->news = false;
	if (t->completed && !t->complete_told && trace_backlog_size(&t->backlog) == 0) {
		t->complete_told = true;
		flags |= KG_SRC_COMPLETE;
	}
	return flags;
}

/* The refresh took what was parsed: a new budget. */
void
trace_transport_budget_reset(kg_trace_transport *t)
{
	t->spent_us = 0;
}

/* Whether the budget has room now (between polls). */
static bool
feed_more_now(const kg_trace_transport *t)
{
	return t->spent_us < t->cfg.time_budget_us && (t->sink.more == NULL || t->sink.more(t->sink.arg));
}

/* When poll() should run next (wall clock). */
int64_t
trace_transport_next_poll(const kg_trace_transport *t)
{
	int64_t mono = util_mono_us(), at;
	bool stream = live_stream(t);
	if (trace_backlog_size(&t->backlog) > 0 && feed_more_now(t))
		return util_now_us(); /* lines wait and the budget has room */
	if (t->active && t->paused) {
		at = mono + t->cfg.interval_us; /* goes on when the backlog shrinks */
	} else if (t->active) {
		at = t->last_byte + (stream ? t->cfg.idle_timeout_us : t->cfg.read_timeout_us);
		if (stream && t->last_byte > t->nl_mono)
			at = KG_MIN(at, t->nl_mono + t->cfg.read_timeout_us);
		if (!stream)
			at = KG_MIN(at, t->req_mono + t->paused_for + t->cfg.total_timeout_us);
		/* live streams refresh their health each interval */
		if (t->began && t->base < 0)
			at = KG_MIN(at, mono + t->cfg.interval_us);
		if (t->timer_at != 0)
			at = KG_MIN(at, t->timer_at);
	} else {
		at = t->next_at;
	}
	return util_now_us() + KG_MAX(at - mono, 0);
}

/* The sockets curl waits on. */
int
trace_transport_fds(const kg_trace_transport *t, struct pollfd *pfd, int max)
{
	return socks_pollfds(t, pfd, max);
}

/* Ask again now. */
void
trace_transport_refresh(kg_trace_transport *t)
{
	if (!t->active)
		t->next_at = util_mono_us();
}

/* Abort the request in flight (outside curl's callbacks) and count it failed: the next waits for the backoff. */
void
trace_transport_fail(kg_trace_transport *t, const char *why)
{
	if (t->active) {
		curl_multi_remove_handle(t->multi, t->easy);
		t->active = false;
	}
	/* a stream that ran longer than the longest backoff starts the count over */
	if (util_mono_us() - t->req_mono > t->cfg.backoff_max_us)
		t->failures = 0;
	set_err(t, "%s", why);
	answer_failed(t);
}

/* Its health. */
void
trace_transport_link(const kg_trace_transport *t, kg_trace_link *out)
{
	memset(out, 0, sizeof *out);
	out->status = t->status;
	out->since = t->since;
	out->last_ok = t->last_ok;
	out->last_ok_mono = t->last_ok_mono;
	out->retry_at = t->active ? 0 : t->next_at;
	out->err = t->err;
	out->shown = t->u.shown;
	out->streaming = t->streaming;
	out->backlog = trace_backlog_size(&t->backlog);
	out->behind = !t->streaming && t->started && t->cr_total >= 0 ? KG_MAX(t->cr_total - t->offset, 0) : 0;
	out->budget_hit = t->budget_hit;
	out->plain_creds = t->plain_creds;
	out->insecure = t->cfg.insecure && t->u.is_https;
}

/* Complete a copy of the counters. */
void
trace_transport_stats(const kg_trace_transport *t, kg_trace_stats *st)
{
	st->counts.oversize = t->lines.oversize;
	st->offset = t->started && !t->streaming ? t->offset : -1;
	st->backlog = trace_backlog_size(&t->backlog);
}

/* ------------------------------------------------------------- creation */

/* Socket option callback: a bounded receive buffer, when the config asks for one. */
static int
on_sockopt(void *arg, curl_socket_t fd, curlsocktype purpose)
{
	const kg_trace_transport *t = arg;
	if (purpose == CURLSOCKTYPE_IPCXN && t->cfg.rcvbuf > 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &t->cfg.rcvbuf, sizeof t->cfg.rcvbuf);
	return CURL_SOCKOPT_OK;
}

/* Build the curl handles. */
static void
setup_curl(kg_trace_transport *t, const struct curl_slist *extra)
{
	const struct curl_slist *h;
	t->multi = curl_multi_init();
	t->easy = curl_easy_init();
	if (t->multi == NULL || t->easy == NULL)
		util_oom();
	curl_multi_setopt(t->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
	curl_multi_setopt(t->multi, CURLMOPT_SOCKETDATA, t);
	curl_multi_setopt(t->multi, CURLMOPT_TIMERFUNCTION, on_timer);
	curl_multi_setopt(t->multi, CURLMOPT_TIMERDATA, t);
	for (h = extra; h != NULL; h = h->next) {
		t->headers = curl_slist_append(t->headers, h->data);
		if (t->headers == NULL)
			util_oom();
	}
	if (t->wire.post != NULL) {
		char *ct = xasprintf("Content-Type: %s", t->wire.content_type);
		t->headers = curl_slist_append(t->headers, ct);
		free(ct);
		if (t->headers == NULL)
			util_oom();
		curl_easy_setopt(t->easy, CURLOPT_POSTFIELDS, t->wire.post);
		curl_easy_setopt(t->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(t->wire.post));
		curl_easy_setopt(t->easy, CURLOPT_ACCEPT_ENCODING, "");
	}
	curl_easy_setopt(t->easy, CURLOPT_URL, t->u.url);
	curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
	curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(t->easy, CURLOPT_ERRORBUFFER, t->errbuf);
	curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(t->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(t->easy, CURLOPT_HEADERDATA, t);
	curl_easy_setopt(t->easy, CURLOPT_CONNECTTIMEOUT_MS, (long)(t->cfg.connect_timeout_us / 1000));
	curl_easy_setopt(t->easy, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(t->easy, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(t->easy, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	curl_easy_setopt(t->easy, CURLOPT_USERAGENT, PACKAGE_NAME "/" PACKAGE_VERSION);
	if (t->cfg.rcvbuf > 0) {
		curl_easy_setopt(t->easy, CURLOPT_SOCKOPTFUNCTION, on_sockopt);
		curl_easy_setopt(t->easy, CURLOPT_SOCKOPTDATA, t);
	}
	if (t->headers != NULL)
		curl_easy_setopt(t->easy, CURLOPT_HTTPHEADER, t->headers);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(t->easy, CURLOPT_PROTOCOLS_STR, "http,https,file");
#else
	curl_easy_setopt(t->easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS | CURLPROTO_FILE));
#endif
	if (t->cfg.insecure) {
		curl_easy_setopt(t->easy, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(t->easy, CURLOPT_SSL_VERIFYHOST, 0L);
	}
}

/* A transport for one source. */
kg_trace_transport *
trace_transport_new(const char *name, kg_trace_url *u, const kg_trace_config *cfg, const kg_trace_wire *w,
		    const struct curl_slist *extra, const kg_trace_sink *sink)
{
	kg_trace_transport *t = xcalloc(1, sizeof *t);
	t->name = xstrdup(name);
	t->u = *u;
	memset(u, 0, sizeof *u);
	t->wire = *w;
	t->sink = *sink;
	t->st = sink->stats;
	t->cfg = *cfg;
	t->plain_creds = !t->u.is_file && !t->u.is_https && (t->u.user != NULL || t->u.pass != NULL || extra != NULL);
	t->started = cfg->from_start && w->mode == KG_TRACE_STREAM;
	t->offset = t->started ? 0 : -1;
	t->status = KG_SRC_CONNECTING;
	t->since = util_now_us();
	t->next_at = util_mono_us();
	parse_lines_init(&t->lines, t->cfg.max_line);
	setup_curl(t, extra);
	tlog(t, KG_LOG_INFO, "%s, %s; every %.1fs%s%s%s", t->u.shown,
	     w->mode == KG_TRACE_POLL ? w->schedule_words
	     : t->started	      ? "from its start"
				      : "from its end",
	     (double)t->cfg.interval_us / 1e6, t->cfg.insecure && t->u.is_https ? "; TLS not verified" : "",
	     extra != NULL ? "; with the --trace-headers lines (not logged)" : "",
	     t->plain_creds ? "; credentials sent unencrypted (http://)" : "");
	return t;
}

/* Abort what runs and free. */
void
trace_transport_free(kg_trace_transport *t)
{
	if (t == NULL)
		return;
	if (t->active)
		curl_multi_remove_handle(t->multi, t->easy);
	curl_easy_cleanup(t->easy);
	curl_multi_cleanup(t->multi);
	curl_slist_free_all(t->headers);
	sbuf_free(&t->body);
	parse_lines_free(&t->lines);
	trace_backlog_free(&t->backlog);
	trace_url_free(&t->u);
	free(t->name);
	free(t);
}

/*
 * attach.c: --attach URL, a viewer of another kgtop's /stream (see attach.h).
 *
 * The transport's line callback runs inside curl's callbacks: it only
 * queues the lines (a restart mark first when they come from a new
 * connection).  poll() drives the transport, then feeds queued lines to the
 * replay feed until one is a tick, which it hands over (KG_SRC_NEWS): one
 * recorded tick per collector tick, and more waiting makes next_poll()
 * due at once.  What must stop a connection (the serving kgtop's last
 * line saying it cut this viewer off, a damaged line, a queue the
 * collector cannot drain) is done there too, outside curl's callbacks,
 * with trace_transport_fail(), so the next attempt waits for the backoff.
 *
 * "N s behind": each tick's delay is the viewer's wall time when it is
 * handed over minus the tick's recorded time; the smallest delay of the
 * connection is taken as the two clocks' difference (plus the network's
 * least), so what is left is how far this viewer trails.
 */
#include "config.h"

#include "sources/attach/attach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/replay_feed.h"
#include "sources/trace/trace.h"
#include "sources/trace/trace_transport.h"
#include "sources/trace/trace_url.h"
#include "util/log.h"
#include "util/util.h"

#define MAX_LINE (256u << 20)       /* a keyframe of a large cluster is one line */
#define MAX_QUEUED (256LL << 20)    /* lines received but not yet handed over */
#define IDLE_US (20LL * 1000000)    /* the serving kgtop sends an empty line every 5 s at least */
#define REOPEN_US (1000000LL)       /* after a stream ended normally */
#define BACKOFF_MAX_US (30LL * 1000000)
#define RCVBUF (128 * 1024)         /* a viewer that stops reading shows at the serving kgtop, not in this kernel */
#define END_KEY "{\"kgtop_stream_end\":"

/* A line received, or (len == RESTART) the mark of a new connection. */
typedef struct aline {
	struct aline *next;
	size_t len;
	char s[];
} aline;
#define RESTART ((size_t)-1)

typedef struct attach {
	kg_trace_transport *tt;
	kg_trace_stats st;
	kg_replay *feed;
	char host[128];       /* host:port, for the health */
	aline *head, **tail;
	int64_t queued;       /* bytes */
	uint64_t conn;        /* the transport's request the queued lines came from */
	char fail[320];       /* stop this connection with this, at the next poll */
	bool ticked;          /* a tick was handed over (the clock is the stream's) */
	bool complete_told;
	int64_t conn_ticks;   /* ticks of this connection */
	int64_t min_delay;    /* the connection's smallest delay (clocks' difference) */
	int64_t behind_us;
	char ended[256];      /* why the serving kgtop ended the last stream, "" none */
} attach;

/* ------------------------------------------------------------ the queue */

/* Append a line (or a restart mark). */
static void
queue_push(attach *a, const char *s, size_t len)
{
	size_t n = len == RESTART ? 0 : len;
	aline *l = xmalloc(sizeof *l + n + 1);
	l->next = NULL;
	l->len = len;
	memcpy(l->s, s, n);
	l->s[n] = '\0';
	*a->tail = l;
	a->tail = &l->next;
	a->queued += (int64_t)n;
}

/* Take the first line (NULL when none); the caller frees it. */
static aline *
queue_pop(attach *a)
{
	aline *l = a->head;
	if (l == NULL)
		return NULL;
	a->head = l->next;
	if (a->head == NULL)
		a->tail = &a->head;
	if (l->len != RESTART)
		a->queued -= (int64_t)l->len;
	return l;
}

/* Drop every queued line. */
static void
queue_clear(attach *a)
{
	aline *l;
	while ((l = queue_pop(a)) != NULL)
		free(l);
}

/* Transport sink: a complete line (inside curl's callbacks: only queue it). */
static void
on_line(void *arg, const char *line, size_t len)
{
	attach *a = arg;
	if (a->st.requests != a->conn) {
		a->conn = a->st.requests;
		queue_push(a, "", RESTART);
	}
	if (a->fail[0] != '\0')
		return; /* this connection is being stopped */
	if (len >= sizeof END_KEY - 1 && memcmp(line, END_KEY, sizeof END_KEY - 1) == 0) {
		/* the serving kgtop's last line: {"kgtop_stream_end":"why"} */
		const char *p = line + sizeof END_KEY - 1, *q;
		while (*p == ' ' || *p == '"')
			p++;
		q = memchr(p, '"', len - (size_t)(p - line));
		snprintf(a->ended, sizeof a->ended, "%.*s", q != NULL ? (int)(q - p) : 0, p);
		util_sanitize_text(a->ended);
		snprintf(a->fail, sizeof a->fail, "%.120s ended the stream: %.170s", a->host, a->ended);
		return;
	}
	if (a->queued + (int64_t)len > MAX_QUEUED) {
		snprintf(a->fail, sizeof a->fail, "more than 256 MiB of stream waiting: this viewer cannot keep up");
		return;
	}
	queue_push(a, line, len);
}

/* ------------------------------------------------------------ the source */

/* Hand over the next queued tick; true when one was. */
static bool
feed_one(attach *a)
{
	aline *l;
	char err[320];
	while ((l = queue_pop(a)) != NULL) {
		int rc;
		if (l->len == RESTART) {
			free(l);
			replay_feed_restart(a->feed);
			a->conn_ticks = 0;
			a->min_delay = INT64_MAX;
			continue;
		}
		rc = replay_feed_line(a->feed, l->s, l->len, err, sizeof err);
		free(l);
		if (rc < 0) {
			queue_clear(a);
			snprintf(a->fail, sizeof a->fail, "the stream from %.100s is damaged (%.180s)", a->host, err);
			return false;
		}
		if (rc == 1) {
			int64_t delay = util_now_us() - replay_feed_time(a->feed);
			if (delay < a->min_delay)
				a->min_delay = delay;
			a->behind_us = delay - a->min_delay;
			a->conn_ticks++;
			a->ticked = true;
			a->ended[0] = '\0';
			return true;
		}
	}
	return false;
}

/* Source op: drive the transport, stop a connection that must stop, hand over one tick. */
static int
attach_poll(kg_source *s, int64_t now_us)
{
	attach *a = s->impl;
	int flags = trace_transport_poll(a->tt) & KG_SRC_NEWS;
	(void)now_us;
	if (a->fail[0] != '\0') {
		log_msg(KG_LOG_INFO, "attach: %s", a->fail);
		trace_transport_fail(a->tt, a->fail);
		a->fail[0] = '\0';
		/* what came before the end is good: it is still handed over */
		flags |= KG_SRC_NEWS;
	}
	if (feed_one(a))
		flags |= KG_SRC_NEWS;
	if (a->fail[0] != '\0')
		flags |= KG_SRC_NEWS; /* said at the next poll */
	if (a->ticked && !a->complete_told) {
		a->complete_told = true;
		flags |= KG_SRC_COMPLETE;
	}
	/* before the first tick there is no clock to tick at */
	return a->ticked ? flags : 0;
}

/* Source op: the observations of the tick handed over. */
static void
attach_drain(kg_source *s, kg_obsq *q)
{
	attach *a = s->impl;
	replay_feed_drain(a->feed, q);
	trace_transport_budget_reset(a->tt); /* the next refresh's parsing budget */
}

/* Source op: the serving kgtop's state and sources, and this viewer's health. */
static void
attach_contribute(kg_source *s, kg_builder *b)
{
	attach *a = s->impl;
	kg_trace_link link;
	kg_source_health h;
	char msg[512], d[32];
	replay_feed_contribute(a->feed, b);
	trace_transport_link(a->tt, &link);
	memset(&h, 0, sizeof h);
	h.name = "attach";
	h.since_us = link.since;
	h.last_ok_us = link.last_ok;
	h.insecure = link.insecure;
	if (link.status == KG_SRC_ERROR) {
		int64_t in = link.retry_at > 0 ? link.retry_at - util_mono_us() : 0;
		util_fmt_duration(d, sizeof d, in > 0 ? in : 0);
		h.status = KG_SRC_ERROR;
		snprintf(msg, sizeof msg, "%s; reconnecting in %s", link.err, d);
	} else if (a->conn_ticks == 0) {
		h.status = KG_SRC_CONNECTING;
		snprintf(msg, sizeof msg, "attaching to %s", a->host);
	} else {
		double sec = (double)a->behind_us / 1e6;
		h.status = KG_SRC_OK;
		snprintf(msg, sizeof msg, sec < 9.95 ? "attached to %s, %.1f s behind" : "attached to %s, %.0f s behind",
			 a->host, sec);
	}
	h.message = msg;
	builder_source(b, &h);
}

/* Source op: due at once while lines wait, else when the transport wants. */
static int64_t
attach_next_poll(kg_source *s)
{
	attach *a = s->impl;
	if (a->head != NULL || a->fail[0] != '\0')
		return util_now_us();
	return trace_transport_next_poll(a->tt);
}

/* Source op: curl's sockets. */
static int
attach_fds(kg_source *s, struct pollfd *pfd, int max)
{
	attach *a = s->impl;
	return trace_transport_fds(a->tt, pfd, max);
}

/* Source op: the collector's clock is the time of the tick handed over. */
static int64_t
attach_clock(kg_source *s)
{
	attach *a = s->impl;
	int64_t t = replay_feed_time(a->feed);
	return t > 0 ? t : util_now_us();
}

/* Free everything. */
static void
attach_free(attach *a)
{
	if (a == NULL)
		return;
	trace_transport_free(a->tt);
	queue_clear(a);
	replay_feed_free(a->feed);
	free(a);
}

/* Source op: close. */
static void
attach_close(kg_source *s)
{
	attach_free(s->impl);
	s->impl = NULL;
}

static const kg_source_ops attach_ops = {
	.kind = "attach",
	.role = KG_ROLE_ATTACH,
	.poll = attach_poll,
	.drain = attach_drain,
	.contribute = attach_contribute,
	.next_poll = attach_next_poll,
	.fds = attach_fds,
	.clock = attach_clock,
	.close = attach_close,
};

/* ------------------------------------------------------------ opening */

/* The URL of the stream: a kgtop's address alone means its /stream. */
static char *
stream_url(const char *url)
{
	const char *p = strstr(url, "://");
	const char *slash = p != NULL ? strchr(p + 3, '/') : NULL;
	if (p == NULL)
		return xstrdup(url);
	if (slash == NULL)
		return xasprintf("%s/stream", url);
	if (slash[1] == '\0')
		return xasprintf("%sstream", url);
	return xstrdup(url);
}

/* Feed the header lines queued so far; true once the header was read. */
static bool
take_header(attach *a, char *err, size_t errsz)
{
	while (!replay_feed_has_header(a->feed) && a->head != NULL && a->fail[0] == '\0') {
		aline *l = a->head;
		if (l->len == RESTART) {
			free(queue_pop(a));
			continue;
		}
		if (strncmp(l->s, "{\"kgtop_record\":", 16) != 0 && l->len > 0) {
			snprintf(a->fail, sizeof a->fail, "not a kgtop stream (its first line is no recording header)");
			break;
		}
		l = queue_pop(a);
		if (replay_feed_line(a->feed, l->s, l->len, err, errsz) < 0)
			snprintf(a->fail, sizeof a->fail, "%s", err);
		free(l);
	}
	return replay_feed_has_header(a->feed);
}

/* Drive the transport until the header is read, an error says no, or the timeout. */
static int
wait_header(attach *a, const char *shown, int64_t timeout_us, char *err, size_t errsz)
{
	int64_t end = util_mono_us() + timeout_us;
	kg_trace_link link;
	for (;;) {
		struct pollfd pfd[8];
		int n, ms;
		trace_transport_poll(a->tt);
		trace_transport_budget_reset(a->tt); /* no refreshes yet: each try has its budget */
		if (take_header(a, err, errsz))
			return 0;
		trace_transport_link(a->tt, &link);
		if (a->fail[0] != '\0')
			return util_err(err, errsz, "--attach %s: %s", shown, a->fail);
		if (link.status == KG_SRC_ERROR) {
			bool auth = strstr(link.err, "HTTP 401") != NULL;
			return util_err(err, errsz, "--attach: %s%s", link.err,
					auth ? " (it asks for a password: http://user:password@host:port)" : "");
		}
		if (util_mono_us() >= end)
			return util_err(err, errsz, "--attach %s: no stream within %.1fs", shown, (double)timeout_us / 1e6);
		n = trace_transport_fds(a->tt, pfd, 8);
		ms = (int)KG_MIN((trace_transport_next_poll(a->tt) - util_now_us()) / 1000 + 1, 100);
		poll(pfd, (nfds_t)n, ms < 1 ? 1 : ms);
	}
}

/* Connect and read the header. */
int
attach_source_new(const kg_attach_config *cfg, kg_source **out, char *err, size_t errsz)
{
	attach *a;
	kg_trace_url u;
	kg_trace_config c;
	kg_trace_wire w;
	kg_trace_sink sink;
	char *url = stream_url(cfg->url), shown[512];
	trace_url_init();
	if (trace_url_parse("attach", url, false, &u, err, errsz) < 0) {
		/* "--trace attach: why" said as "--attach URL: why" */
		const char *why = strchr(err, ':');
		char msg[512];
		snprintf(msg, sizeof msg, "--attach: %s", why != NULL ? why + 2 : err);
		util_strlcpy(err, msg, errsz);
		free(url);
		return KG_ERR_USAGE;
	}
	free(url);
	a = xcalloc(1, sizeof *a);
	a->tail = &a->head;
	a->min_delay = INT64_MAX;
	a->st.offset = -1;
	a->st.bytes_first_line = -1;
	a->feed = replay_feed_new();
	snprintf(a->host, sizeof a->host, "%s%s%s", u.host != NULL ? u.host : "?", u.port != NULL ? ":" : "",
		 u.port != NULL ? u.port : "");
	util_strlcpy(shown, u.shown, sizeof shown);
	memset(&c, 0, sizeof c);
	c.from_start = true;
	c.insecure = cfg->insecure;
	c.interval_us = REOPEN_US;
	c.idle_timeout_us = IDLE_US;
	c.backoff_max_us = BACKOFF_MAX_US;
	c.max_line = MAX_LINE;
	c.rcvbuf = RCVBUF;
	trace_transport_defaults(&c);
	memset(&w, 0, sizeof w);
	w.mode = KG_TRACE_STREAM;
	memset(&sink, 0, sizeof sink);
	sink.arg = a;
	sink.line = on_line;
	sink.stats = &a->st;
	a->tt = trace_transport_new("attach", &u, &c, &w, NULL, &sink);
	if (wait_header(a, shown, cfg->timeout_us > 0 ? cfg->timeout_us : 10000000, err, errsz) < 0) {
		attach_free(a);
		return -1;
	}
	log_msg(KG_LOG_INFO, "attach: reading %s (cluster %s)", shown, replay_feed_cluster(a->feed));
	*out = source_new(&attach_ops, "attach", a);
	return 0;
}

/* The cluster label. */
const char *
attach_cluster(kg_source *s)
{
	attach *a = s->impl;
	return replay_feed_cluster(a->feed);
}

/* The model's settings. */
bool
attach_model(kg_source *s, kg_tracker_config *cfg)
{
	attach *a = s->impl;
	return replay_feed_model(a->feed, cfg);
}

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
 *
 * What a stream can make a viewer hold is bounded, whatever the server
 * sends: a line longer than MAX_LINE ends the connection (the longest a
 * kgtop stream has is a keyframe: 5.6 MB at 10,000 groups, 2.9 MB at
 * 100,000 partitions), and once MAX_QUEUED bytes of lines wait (what
 * they hold counted with their bookkeeping) the transport takes no more
 * (its sink's more() says no: its backlog fills, then curl pauses and
 * the server's sends wait in the socket), however fast lines come.  The
 * serving kgtop's last line, {"kgtop_stream_end":...}, goes through the
 * queue like the lines before it (an END mark), so they are all handed
 * over first, and a line it cut short (a viewer cut off mid-line) is no
 * damage.
 *
 * Before the collector starts, attach_source_new() waits for the header
 * (the tracker needs the serving kgtop's settings) for --timeout at most,
 * and gives up at once on a stop signal or a 'q' (or Ctrl-C) typed on the
 * terminal it is given, after saying, if the wait lasts, what it waits for.
 */
#include "config.h"

#include "sources/attach/attach.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/replay_feed.h"
#include "sources/trace/trace.h"
#include "sources/trace/trace_transport.h"
#include "sources/trace/trace_url.h"
#include "util/log.h"
#include "util/util.h"

#define MAX_LINE (32u << 20)        /* a keyframe of a large cluster is one line (5.6 MB at 10,000 groups) */
#define MAX_QUEUED (8LL << 20)      /* lines received but not yet handed over (the server's --serve-buffer) */
#define LINE_COST (sizeof(aline) + 16) /* what a queued line holds besides its bytes (malloc's own included) */
#define SAY_AFTER_US (300LL * 1000) /* a wait for the header this long is said */
#define IDLE_US (20LL * 1000000)    /* the serving kgtop sends an empty line every 5 s at least */
#define REOPEN_US (1000000LL)       /* after a stream ended normally */
#define BACKOFF_MAX_US (30LL * 1000000)
#define RCVBUF (128 * 1024)         /* a viewer that stops reading shows at the serving kgtop, not in this kernel */
#define END_KEY "{\"kgtop_stream_end\":"

/* A line received, or (len == RESTART) the mark of a new connection, or (len == END) the stream's end line. */
typedef struct aline {
	struct aline *next;
	size_t len;
	char s[];
} aline;
#define RESTART ((size_t)-1)
#define END ((size_t)-2)

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
	uint64_t oversize;    /* lines the transport found too long so far */
	bool give_up;         /* damage ends the source (cfg->give_up) */
	char shown[512];      /* the URL without userinfo */
	char broken_why[512]; /* why it gave up, written before broken is set */
	atomic_bool broken;
} attach;

/* ------------------------------------------------------------ the queue */

/* The bytes a line is counted for (a mark: its text). */
static size_t
line_bytes(const aline *l, size_t len)
{
	return (len == RESTART ? 0 : len == END ? strlen(l->s) : len) + LINE_COST;
}

/* Append a line, a restart mark, or an end mark (s: why). */
static void
queue_push(attach *a, const char *s, size_t len)
{
	size_t n = len == RESTART ? 0 : len == END ? strlen(s) : len;
	aline *l = xmalloc(sizeof *l + n + 1);
	l->next = NULL;
	l->len = len;
	memcpy(l->s, s, n);
	l->s[n] = '\0';
	*a->tail = l;
	a->tail = &l->next;
	a->queued += (int64_t)line_bytes(l, len);
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
	a->queued -= (int64_t)line_bytes(l, l->len);
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
		char why[256];
		q = memchr(p, '"', len - (size_t)(p - line));
		snprintf(why, sizeof why, "%.*s", q != NULL ? (int)(q - p) : 0, p);
		util_sanitize_text(why);
		queue_push(a, why, END); /* said once the lines before it are handed over */
		return;
	}
	queue_push(a, line, len);
}

/* Transport sink: room for another line (else the transport holds it back, and then pauses). */
static bool
room(void *arg)
{
	attach *a = arg;
	return a->queued < MAX_QUEUED || a->head == NULL;
}

/* ------------------------------------------------------------ the source */

/* With cfg->give_up, damage ends the source: say why (naming the URL), then set broken. */
static void
give_up(attach *a, const char *why)
{
	if (!a->give_up || atomic_load(&a->broken))
		return;
	snprintf(a->broken_why, sizeof a->broken_why, "--attach %.200s: %.280s", a->shown, why);
	atomic_store(&a->broken, true);
}

/* A line too long for a kgtop stream (the transport dropped it) stops the connection. */
static void
check_oversize(attach *a)
{
	kg_trace_stats st;
	trace_transport_stats(a->tt, &st);
	if (st.counts.oversize > a->oversize && a->fail[0] == '\0') {
		snprintf(a->fail, sizeof a->fail, "a line longer than %u MiB from %.100s: not a kgtop stream", MAX_LINE >> 20,
			 a->host);
		give_up(a, a->fail);
	}
	a->oversize = st.counts.oversize;
}

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
		if (l->len == END) {
			util_strlcpy(a->ended, l->s, sizeof a->ended);
			snprintf(a->fail, sizeof a->fail, "%.120s ended the stream: %.170s", a->host, a->ended);
			free(l);
			queue_clear(a);
			return false;
		}
		rc = replay_feed_line(a->feed, l->s, l->len, err, sizeof err);
		if (rc < 0 && a->head != NULL && a->head->len == END) {
			free(l); /* a line the serving kgtop cut short to say why it ended the stream: no damage */
			continue;
		}
		free(l);
		if (rc < 0) {
			queue_clear(a);
			snprintf(a->fail, sizeof a->fail, "the stream from %.100s is damaged (%.180s)", a->host, err);
			give_up(a, a->fail);
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
	int flags;
	(void)now_us;
	if (atomic_load(&a->broken))
		return KG_SRC_FAILED; /* gave up: nothing more can come */
	flags = trace_transport_poll(a->tt) & KG_SRC_NEWS;
	check_oversize(a);
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
		if (a->queued >= MAX_QUEUED)
			snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
				 "; %lld MiB of stream waiting: reading held back until this viewer catches up",
				 (long long)(MAX_QUEUED >> 20));
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
		if (l->len == END) {
			snprintf(a->fail, sizeof a->fail, "%.120s ended the stream: %.170s", a->host, l->s);
			break;
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

/* True when the terminal's bytes say quit: 'q' or Ctrl-C (the terminal is in non-canonical mode). */
static bool
typed_quit(int fd)
{
	char b[32];
	ssize_t k = read(fd, b, sizeof b), i;
	for (i = 0; i < k; i++) {
		if (b[i] == 'q' || b[i] == 'Q' || b[i] == 3)
			return true;
	}
	return false;
}

/*
 * Drive the transport until the header is read, an error says no, the
 * timeout, a stop signal or a 'q' (KG_ERR_STOPPED, with err saying which); a wait
 * longer than SAY_AFTER_US is said through cfg->waiting.
 */
static int
wait_header(attach *a, const kg_attach_config *cfg, const char *shown, char *err, size_t errsz)
{
	int64_t timeout_us = cfg->timeout_us > 0 ? cfg->timeout_us : 10000000;
	int64_t start = util_mono_us(), end = start + timeout_us;
	kg_trace_link link;
	bool said = false;
	for (;;) {
		struct pollfd pfd[10];
		int n, ms, extra = 0;
		trace_transport_poll(a->tt);
		trace_transport_budget_reset(a->tt); /* no refreshes yet: each try has its budget */
		check_oversize(a);
		if (take_header(a, err, errsz))
			return 0;
		trace_transport_link(a->tt, &link);
		if (a->fail[0] != '\0')
			return util_err(err, errsz, "--attach %s: %s", shown, a->fail);
		if (link.status == KG_SRC_ERROR) {
			bool auth = strstr(link.err, "HTTP 401") != NULL;
			return util_err(err, errsz, "--attach: %s%s", link.err,
					auth ? " (it asks for a password: a line \"machine HOST login USER password PASSWORD\" in "
					       "~/.netrc, or http://user:password@host:port)"
					     : "");
		}
		if (util_mono_us() >= end)
			return util_err(err, errsz, "--attach %s: no stream within %.1fs", shown, (double)timeout_us / 1e6);
		if (cfg->stop != NULL && *cfg->stop) {
			util_err(err, errsz, "--attach %s: interrupted while waiting for the stream", shown);
			return KG_ERR_STOPPED;
		}
		if (!said && cfg->waiting != NULL && util_mono_us() - start >= SAY_AFTER_US) {
			cfg->waiting(cfg->waiting_arg, shown, end - util_mono_us());
			said = true;
		}
		n = trace_transport_fds(a->tt, pfd, 8);
		if (cfg->wake_fd >= 0)
			pfd[n + extra++] = (struct pollfd){ cfg->wake_fd, POLLIN, 0 };
		if (cfg->key_fd >= 0)
			pfd[n + extra++] = (struct pollfd){ cfg->key_fd, POLLIN, 0 };
		ms = (int)KG_MIN((trace_transport_next_poll(a->tt) - util_now_us()) / 1000 + 1, 100);
		poll(pfd, (nfds_t)(n + extra), ms < 1 ? 1 : ms);
		if (cfg->key_fd >= 0 && (pfd[n + extra - 1].revents & POLLIN) && typed_quit(cfg->key_fd)) {
			util_err(err, errsz, "--attach %s: quit while waiting for the stream", shown);
			return KG_ERR_STOPPED;
		}
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
	int rc;
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
	a->feed = replay_feed_new(u.shown); /* its messages name the URL */
	snprintf(a->host, sizeof a->host, "%s%s%s", u.host != NULL ? u.host : "?", u.port != NULL ? ":" : "",
		 u.port != NULL ? u.port : "");
	util_strlcpy(shown, u.shown, sizeof shown);
	util_strlcpy(a->shown, u.shown, sizeof a->shown);
	a->give_up = cfg->give_up;
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
	sink.more = room;
	sink.stats = &a->st;
	a->tt = trace_transport_new("attach", &u, &c, &w, NULL, &sink);
	if ((rc = wait_header(a, cfg, shown, err, errsz)) < 0) {
		attach_free(a);
		return rc == KG_ERR_STOPPED ? KG_ERR_STOPPED : KG_ERR;
	}
	log_msg(KG_LOG_INFO, "attach: reading %s (cluster %s)", shown, replay_feed_cluster(a->feed));
	*out = source_new(&attach_ops, "attach", a);
	return 0;
}

/* Whether the source gave up on a damaged stream, and why. */
bool
attach_gave_up(kg_source *s, char *why, size_t n)
{
	attach *a = s->impl;
	if (!atomic_load(&a->broken))
		return false;
	util_strlcpy(why, a->broken_why, n);
	return true;
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

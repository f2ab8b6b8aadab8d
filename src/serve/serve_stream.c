/*
 * serve_stream.c: /stream, the live recording for viewers (see serve_int.h).
 *
 * The collector hands every tick's line to one ring (the recorder's line
 * encoder with a sink, record/recorder.h), once, whatever the number of
 * viewers.  A viewer is a position in the ring (the tick it sends next
 * and how much of that line went out), so it costs no memory of its own:
 * the ring keeps the newest lines up to --serve-buffer bytes, and a viewer
 * whose next line was dropped from the ring has fallen that far behind.
 * The collector then marks it cut off; its connection sends a last line,
 * {"kgtop_stream_end":"why"} (on a line of its own: after a newline when
 * it was in the middle of one), and ends.  So does a viewer that accepts
 * nothing for KG_SERVE_STALL_S while stream waits for it (a reader that
 * stopped reading, before the ring leaves it behind): both are counted
 * (kgtop_stream_viewers_dropped_total), and libmicrohttpd's idle timeout
 * of a viewer's connection is twice that, so the notice is there for it
 * to read when it reads again.  A viewer joining waits for the
 * next tick, which brings a header and a keyframe of that tick for every
 * viewer joining at it (one buffer, shared); it goes on with the ring
 * from the tick after.
 *
 * Each viewer's connection has its own thread (libmicrohttpd's thread per
 * connection), which sleeps on a condition variable until the collector
 * appends and copies what it may send under the lock.  After a quiet
 * spell it sends an empty line, which readers skip, so neither end takes
 * the other for gone while the collector has nothing to say.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "model/defaults.h"
#include "serve/serve_int.h"
#include "util/log.h"
#include "util/util.h"

#define KEEPALIVE_US (5LL * 1000000) /* an empty line after this long without data */
#define BLOCK 65536                   /* bytes MHD asks for at once */
#define SNDBUF 131072                 /* the kernel's share of a viewer's backlog; the ring holds the rest */

/* ------------------------------------------------------------ the ring */

/* The ring line of tick n (first_n <= n < first_n + count). */
static sline *
ring_at(sring *r, int64_t n)
{
	return &r->v[(r->head + (size_t)(n - r->first_n)) % r->cap];
}

/* Drop the oldest line. */
static void
ring_drop(sring *r)
{
	sline *old = ring_at(r, r->first_n);
	r->bytes -= old->len;
	free(old->data);
	old->data = NULL;
	r->head = (r->head + 1) % r->cap;
	r->first_n++;
	r->count--;
}

/* Append tick n's line (taken over), dropping the oldest lines beyond the byte bound. */
static void
ring_push(sring *r, int64_t n, char *data, size_t len)
{
	/* not the next tick (cannot happen with one encoder): start over */
	while (r->count > 0 && n != r->first_n + (int64_t)r->count)
		ring_drop(r);
	if (r->count == 0)
		r->first_n = n;
	if (r->count == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64, i;
		sline *v = xcalloc(cap, sizeof *v);
		for (i = 0; i < r->count; i++)
			v[i] = *ring_at(r, r->first_n + (int64_t)i);
		free(r->v);
		r->v = v;
		r->cap = cap;
		r->head = 0;
	}
	r->count++;
	ring_at(r, n)->data = data;
	ring_at(r, n)->len = len;
	r->bytes += len;
	/* the newest line stays, however long */
	while (r->count > 1 && r->bytes > r->max_bytes)
		ring_drop(r);
}

/* A size for messages: "8 MiB", "64 KiB", "1000 bytes". */
static void
fmt_size(char *buf, size_t n, size_t bytes)
{
	if (bytes >= 1048576 && bytes % 1048576 == 0)
		snprintf(buf, n, "%zu MiB", bytes / 1048576);
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, n, "%zu KiB", bytes / 1024);
	else
		snprintf(buf, n, "%zu bytes", bytes);
}

/* Drop a reference to a keyframe (lock held). */
static void
key_unref(skey *k)
{
	if (k != NULL && --k->refs == 0) {
		free(k->data);
		free(k);
	}
}

/* Why a viewer's stream ends. */
typedef enum cut_why {
	CUT_BEHIND,  /* fell further behind than the ring holds (counted) */
	CUT_STALLED, /* accepted nothing for KG_SERVE_STALL_S while stream waited (counted) */
	CUT_STOP,    /* the collector stops */
} cut_why;

/* End a viewer's stream with a last line saying why, on a line of its own (lock held). */
static void
viewer_cut(kg_server *s, sclient *c, cut_why w)
{
	char why[160], size[32];
	bool midline = c->line_off > 0 || (c->key != NULL && c->key_off > 0);
	if (c->cut)
		return;
	c->cut = true;
	c->notice_off = 0;
	key_unref(c->key);
	c->key = NULL;
	if (w == CUT_BEHIND) {
		fmt_size(size, sizeof size, s->ring.max_bytes);
		snprintf(why, sizeof why,
			 "cut off: this viewer fell more than %s of stream behind the collector (its --serve-buffer)",
			 size);
	} else if (w == CUT_STALLED) {
		snprintf(why, sizeof why, "cut off: this viewer read nothing for %d s while stream waited for it",
			 KG_SERVE_STALL_S);
	} else {
		snprintf(why, sizeof why, "the collector stopped");
	}
	if (w != CUT_STOP) {
		s->dropped++;
		log_msg(KG_LOG_INFO, "serve: /stream viewer %s %s", c->peer, why);
	}
	snprintf(c->notice, sizeof c->notice, "%s{\"kgtop_stream_end\":\"%s\"}\n", midline ? "\n" : "", why);
}

/* True when stream waits for the viewer (lock held): its keyframe, or ring lines it has not sent. */
static bool
viewer_pending(const kg_server *s, const sclient *c)
{
	return c->key != NULL || (c->joined && c->next_n < s->ring.first_n + (int64_t)s->ring.count);
}

/* ------------------------------------------------- the collector's side */

/* Sink: tick n's line into the ring; cut off the viewers it leaves behind. */
void
stream_line(void *arg, int64_t n, const char *line, size_t len)
{
	kg_server *s = arg;
	char *copy = xmalloc(len ? len : 1);
	sclient *c;
	int64_t now = util_mono_us();
	memcpy(copy, line, len);
	pthread_mutex_lock(&s->lock);
	ring_push(&s->ring, n, copy, len);
	for (c = s->viewers; c != NULL; c = c->next) {
		if (!c->joined || c->cut)
			continue;
		if (c->next_n < s->ring.first_n)
			viewer_cut(s, c, CUT_BEHIND);
		else if (viewer_pending(s, c) && now - c->last_send > KG_SERVE_STALL_S * KG_SEC_US)
			viewer_cut(s, c, CUT_STALLED);
	}
	pthread_mutex_unlock(&s->lock);
	pthread_cond_broadcast(&s->more);
}

/* Sink: true while a viewer reads the lines (one still waiting for its keyframe starts after this tick). */
bool
stream_want_line(void *arg)
{
	kg_server *s = arg;
	sclient *c;
	bool want = false;
	pthread_mutex_lock(&s->lock);
	for (c = s->viewers; c != NULL && !want; c = c->next)
		want = c->joined && !c->cut;
	pthread_mutex_unlock(&s->lock);
	return want;
}

/* Sink: true while viewers wait for a keyframe. */
bool
stream_want_key(void *arg)
{
	kg_server *s = arg;
	bool want;
	pthread_mutex_lock(&s->lock);
	want = s->joining > 0;
	pthread_mutex_unlock(&s->lock);
	return want;
}

/* Sink: the header and keyframe of tick n for the viewers waiting. */
void
stream_key(void *arg, int64_t n, const char *buf, size_t hlen, size_t len)
{
	kg_server *s = arg;
	skey *k = xcalloc(1, sizeof *k);
	sclient *c;
	(void)hlen;
	k->data = xmalloc(len ? len : 1);
	memcpy(k->data, buf, len);
	k->len = len;
	k->refs = 1; /* ours, dropped below */
	pthread_mutex_lock(&s->lock);
	for (c = s->viewers; c != NULL; c = c->next) {
		if (c->joined)
			continue;
		c->joined = true;
		c->key = k;
		k->refs++;
		c->key_off = 0;
		c->next_n = n + 1;
		c->line_off = 0;
	}
	s->joining = 0;
	key_unref(k);
	pthread_mutex_unlock(&s->lock);
	pthread_cond_broadcast(&s->more);
}

/* ---------------------------------------------------- a viewer's side */

/* Copy what the viewer may send now into buf (lock held); returns the bytes. */
static size_t
viewer_fill(kg_server *s, sclient *c, char *buf, size_t max)
{
	size_t n = 0, k;
	if (c->key != NULL) {
		k = KG_MIN(max, c->key->len - c->key_off);
		memcpy(buf, c->key->data + c->key_off, k);
		n += k;
		c->key_off += k;
		if (c->key_off == c->key->len) {
			key_unref(c->key);
			c->key = NULL;
		}
	}
	while (n < max && c->joined && c->key == NULL && !c->cut) {
		sline *l;
		if (c->next_n < s->ring.first_n) {
			viewer_cut(s, c, CUT_BEHIND);
			break;
		}
		if (c->next_n >= s->ring.first_n + (int64_t)s->ring.count)
			break; /* sent everything */
		l = ring_at(&s->ring, c->next_n);
		k = KG_MIN(max - n, l->len - c->line_off);
		memcpy(buf + n, l->data + c->line_off, k);
		n += k;
		c->line_off += k;
		if (c->line_off == l->len) {
			c->next_n++;
			c->line_off = 0;
		}
	}
	if (c->cut && n < max) {
		size_t len = strlen(c->notice);
		k = KG_MIN(max - n, len - c->notice_off);
		memcpy(buf + n, c->notice + c->notice_off, k);
		n += k;
		c->notice_off += k;
	}
	return n;
}

/* Content reader: the next bytes of the viewer's stream, waiting for the collector when there are none. */
static ssize_t
viewer_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	sclient *c = cls;
	kg_server *s = c->srv;
	ssize_t rc;
	(void)pos;
	pthread_mutex_lock(&s->lock);
	for (;;) {
		size_t n;
		int64_t now, until;
		struct timespec ts;
		if (s->stopping)
			viewer_cut(s, c, CUT_STOP);
		n = viewer_fill(s, c, buf, max);
		now = util_mono_us();
		if (n > 0) {
			c->last_send = now;
			rc = (ssize_t)n;
			break;
		}
		if (c->cut) {
			rc = MHD_CONTENT_READER_END_OF_STREAM; /* the notice went out */
			break;
		}
		until = c->last_send + KEEPALIVE_US;
		if (now >= until) {
			buf[0] = '\n'; /* readers skip empty lines */
			c->last_send = now;
			rc = 1;
			break;
		}
		ts.tv_sec = (time_t)(until / 1000000);
		ts.tv_nsec = (long)(until % 1000000) * 1000;
		pthread_cond_timedwait(&s->more, &s->lock, &ts);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* The response is done with: forget the viewer. */
static void
viewer_free(void *cls)
{
	sclient *c = cls;
	kg_server *s = c->srv;
	pthread_mutex_lock(&s->lock);
	*c->pprev = c->next;
	if (c->next != NULL)
		c->next->pprev = c->pprev;
	s->nviewers--;
	if (!c->joined)
		s->joining--;
	key_unref(c->key);
	pthread_mutex_unlock(&s->lock);
	log_msg(KG_LOG_INFO, "serve: /stream viewer %s left", c->peer);
	free(c);
}

/* The peer's address, for the log. */
static void
peer_name(struct MHD_Connection *conn, char *buf, size_t n)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	char host[INET6_ADDRSTRLEN];
	snprintf(buf, n, "?");
	if (ci == NULL || ci->client_addr == NULL)
		return;
	if (ci->client_addr->sa_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)ci->client_addr;
		if (inet_ntop(AF_INET, &a->sin_addr, host, sizeof host) != NULL)
			snprintf(buf, n, "%s:%u", host, (unsigned)ntohs(a->sin_port));
	} else if (ci->client_addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)ci->client_addr;
		if (inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host) != NULL)
			snprintf(buf, n, "[%s]:%u", host, (unsigned)ntohs(a->sin6_port));
	}
}

/* Answer GET /stream. */
enum MHD_Result
stream_answer(kg_server *s, struct MHD_Connection *conn)
{
	sclient *c = xcalloc(1, sizeof *c);
	struct MHD_Response *r;
	const union MHD_ConnectionInfo *ci;
	enum MHD_Result rc;
	c->srv = s;
	c->last_send = util_mono_us();
	peer_name(conn, c->peer, sizeof c->peer);
	/* what the kernel holds for a viewer stays small: falling behind shows in the ring */
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (ci != NULL) {
		int sz = SNDBUF;
		setsockopt(ci->connect_fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
	}
	/* a viewer that stops reading is cut off by the collector first, and has as long again to read why */
	MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned)(2 * KG_SERVE_STALL_S));
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, BLOCK, viewer_read, c, viewer_free);
	if (r == NULL) {
		free(c);
		return MHD_NO;
	}
	pthread_mutex_lock(&s->lock);
	c->next = s->viewers;
	if (c->next != NULL)
		c->next->pprev = &c->next;
	c->pprev = &s->viewers;
	s->viewers = c;
	s->nviewers++;
	s->joining++;
	pthread_mutex_unlock(&s->lock);
	log_msg(KG_LOG_INFO, "serve: /stream viewer %s joined", c->peer);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/x-ndjson");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	rc = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r); /* viewer_free runs when the connection is done with it */
	return rc;
}

/* Wake every viewer to end. */
void
stream_stop(kg_server *s)
{
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_mutex_unlock(&s->lock);
	pthread_cond_broadcast(&s->more);
}

/* Free the ring. */
void
stream_free(kg_server *s)
{
	while (s->ring.count > 0)
		ring_drop(&s->ring);
	free(s->ring.v);
	memset(&s->ring, 0, sizeof s->ring);
}

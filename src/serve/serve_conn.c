/*
 * serve_conn.c: every connection's deadline and the limit per address
 * (see serve_int.h).
 *
 * libmicrohttpd's timeout counts idle time only: a client that sends one
 * byte of its headers every few seconds (slowloris) would hold its
 * connection for ever, and enough of them hold every slot.  So each
 * connection has a deadline of its own, kept here: its request must be
 * answered within KG_SERVE_REQUEST_S of the connection's start (or of the
 * end of its previous request, for a connection kept alive), and an
 * answer other than /stream must be sent within KG_SERVE_ANSWER_S; a
 * /stream viewer has none (falling behind the ring cuts it off, and not
 * reading for KG_SERVE_STALL_S while stream waits cuts it off too, see
 * serve_stream.c).  One watchdog thread sleeps until the nearest deadline
 * and shuts down the socket of a connection past it (shutdown(2), not
 * close: libmicrohttpd's thread for the connection sees the end, closes
 * and tells us; it tells us before it closes the descriptor, so the
 * descriptor shut down is always the connection's own).
 *
 * The address a connection counts against is the one its packets come
 * from, the socket's peer: nothing the client says (no Forwarded or
 * X-Forwarded-For header) is believed.  An IPv4 address counts alone, an
 * IPv6 one with its /64 (one host holds a whole /64), an IPv4-mapped IPv6
 * one as its IPv4 address.  One address holds at most
 * serve_per_address(--serve-clients) connections (an eighth, at least
 * two): the others are refused by the accept policy, before libmicrohttpd
 * makes a thread for them, so a few
 * addresses can never take every slot, and what one address holds it
 * holds for the deadline at most.
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

/* One connection. */
typedef struct sconn {
	struct sconn *next, **pprev;
	int fd;
	char key[48];     /* the address it counts against */
	char peer[64];    /* the address, for the log */
	int64_t deadline; /* monotonic; 0: none */
	const char *stage; /* what it had not done by the deadline, for the log */
	bool shut;        /* shut down (refused, or past its deadline) */
} sconn;

/* At most this many connections from one address: an eighth of them, at least two. */
int
serve_per_address(int max_clients)
{
	return KG_MAX(2, max_clients / 8);
}

/* The address a peer counts against, and its name for the log. */
static void
peer_key(const struct sockaddr *sa, char *key, size_t keyn, char *peer, size_t peern)
{
	char host[INET6_ADDRSTRLEN] = "?";
	snprintf(key, keyn, "?");
	snprintf(peer, peern, "?");
	if (sa == NULL)
		return;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)sa;
		inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
		snprintf(key, keyn, "%s", host);
		snprintf(peer, peern, "%s", host);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)sa;
		struct in6_addr net = a->sin6_addr;
		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
		snprintf(peer, peern, "%s", host);
		if (IN6_IS_ADDR_V4MAPPED(&net)) {
			inet_ntop(AF_INET, &net.s6_addr[12], host, sizeof host);
			snprintf(key, keyn, "%s", host);
			return;
		}
		memset(net.s6_addr + 8, 0, 8);
		inet_ntop(AF_INET6, &net, host, sizeof host);
		snprintf(key, keyn, "%s/64", host);
	}
}

/* Connections from key now (lock held). */
static int
count_from(const kg_server *s, const char *key)
{
	const sconn *c;
	int n = 0;
	for (c = s->conns; c != NULL; c = c->next)
		n += !c->shut && strcmp(c->key, key) == 0;
	return n;
}

/* Shut a connection down (lock held): its thread sees the end and closes it. */
static void
conn_shut(sconn *c)
{
	if (!c->shut && c->fd >= 0)
		shutdown(c->fd, SHUT_RDWR);
	c->shut = true;
}

/* The deadline of a request from now. */
static int64_t
request_deadline(void)
{
	return util_mono_us() + KG_SERVE_REQUEST_S * KG_SEC_US;
}

/* libmicrohttpd's accept policy: refuse an address that holds its share already, before a thread is made for it. */
enum MHD_Result
serve_conn_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	kg_server *s = cls;
	char key[48], peer[64];
	bool ok;
	(void)addrlen;
	peer_key(addr, key, sizeof key, peer, sizeof peer);
	pthread_mutex_lock(&s->lock);
	ok = count_from(s, key) < serve_per_address(s->cfg.max_clients);
	if (!ok)
		s->refused++;
	pthread_mutex_unlock(&s->lock);
	if (!ok && log_enabled(KG_LOG_DEBUG))
		log_msg(KG_LOG_DEBUG, "serve: %s holds %d connections already: refused", peer,
			serve_per_address(s->cfg.max_clients));
	return ok ? MHD_YES : MHD_NO;
}

/* libmicrohttpd's connection notice: a connection begins (counted, with its deadline) or ends (forgotten). */
void
serve_conn_notify(void *cls, struct MHD_Connection *conn, void **socket_context, enum MHD_ConnectionNotificationCode toe)
{
	kg_server *s = cls;
	sconn *c;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fd = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *ad = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		c = xcalloc(1, sizeof *c);
		c->fd = fd != NULL ? fd->connect_fd : -1;
		peer_key(ad != NULL ? ad->client_addr : NULL, c->key, sizeof c->key, c->peer, sizeof c->peer);
		c->deadline = request_deadline();
		c->stage = "sent no whole request";
		pthread_mutex_lock(&s->lock);
		c->next = s->conns;
		if (c->next != NULL)
			c->next->pprev = &c->next;
		c->pprev = &s->conns;
		s->conns = c;
		pthread_mutex_unlock(&s->lock);
		pthread_cond_broadcast(&s->watch);
		*socket_context = c;
		return;
	}
	c = *socket_context;
	if (toe != MHD_CONNECTION_NOTIFY_CLOSED || c == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	*c->pprev = c->next;
	if (c->next != NULL)
		c->next->pprev = c->pprev;
	c->fd = -1;
	pthread_mutex_unlock(&s->lock);
	*socket_context = NULL;
	free(c);
}

/* The connection of a request (NULL when libmicrohttpd does not say). */
static sconn *
conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci != NULL ? ci->socket_context : NULL;
}

/* A request was answered: /stream has no deadline from here, another answer KG_SERVE_ANSWER_S. */
void
serve_conn_answered(kg_server *s, struct MHD_Connection *conn, bool stream)
{
	sconn *c = conn_of(conn);
	if (c == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	c->deadline = stream ? 0 : util_mono_us() + KG_SERVE_ANSWER_S * KG_SEC_US;
	c->stage = "did not read its answer";
	pthread_mutex_unlock(&s->lock);
	pthread_cond_broadcast(&s->watch);
}

/* libmicrohttpd's request notice: a request ended; a connection kept alive has a new deadline for the next. */
void
serve_conn_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	kg_server *s = cls;
	sconn *c = conn_of(conn);
	(void)con_cls;
	(void)toe;
	if (c == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	c->deadline = request_deadline();
	c->stage = "sent no whole request";
	pthread_mutex_unlock(&s->lock);
}

/* The watchdog: shut down the connections past their deadline, sleep until the next one. */
static void *
watchdog(void *arg)
{
	kg_server *s = arg;
	pthread_mutex_lock(&s->lock);
	while (!s->watch_stop) {
		int64_t now = util_mono_us(), next = now + KG_SEC_US;
		struct timespec ts;
		sconn *c;
		for (c = s->conns; c != NULL; c = c->next) {
			if (c->shut || c->deadline == 0)
				continue;
			if (c->deadline <= now) {
				conn_shut(c);
				s->cut_slow++;
				log_msg(KG_LOG_INFO, "serve: %s %s within its deadline: closed", c->peer, c->stage);
			} else if (c->deadline < next) {
				next = c->deadline;
			}
		}
		ts.tv_sec = (time_t)(next / KG_SEC_US);
		ts.tv_nsec = (long)(next % KG_SEC_US) * 1000;
		pthread_cond_timedwait(&s->watch, &s->lock, &ts);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Start the watchdog; -1 with err. */
int
serve_conn_start(kg_server *s, char *err, size_t errsz)
{
	int rc = pthread_create(&s->watchdog, NULL, watchdog, s);
	if (rc != 0)
		return util_err(err, errsz, "--serve: cannot start a thread (%s)", strerror(rc));
	s->watch_started = true;
	return 0;
}

/* Stop the watchdog (after the daemon stopped: no connection is left). */
void
serve_conn_stop(kg_server *s)
{
	if (!s->watch_started)
		return;
	pthread_mutex_lock(&s->lock);
	s->watch_stop = true;
	pthread_mutex_unlock(&s->lock);
	pthread_cond_broadcast(&s->watch);
	pthread_join(s->watchdog, NULL);
	s->watch_started = false;
}

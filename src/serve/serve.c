/*
 * serve.c: the HTTP server of --serve (see serve.h; /stream is
 * serve_stream.c's).
 *
 * libmicrohttpd runs one listening thread and a thread per connection
 * (at most --serve-clients, of which one address holds an eighth at most),
 * with a ten second timeout on connections that neither send nor read,
 * deadlines for a whole request and its answer (serve_conn.c: a client
 * that trickles its headers is closed at its deadline, not kept by each
 * byte) and 32 KiB of memory each, which bounds a request's headers (a
 * larger one is refused by the library).  Conflicting Content-Length
 * headers are refused (400).  HTTPS offers TLS 1.2 and 1.3 with forward
 * secrecy and AEAD ciphers only (TLS_PRIORITIES).  Requests
 * are answered from what the last tick left: the newest snapshot and a
 * frozen copy of the counters, taken by reference under the lock; the
 * exposition is formatted outside it, on the connection's thread.
 *
 * The address: "PORT" or ":PORT" binds the loopback address; any other
 * must be written out ("0.0.0.0:9464", "[::]:9464").  Credentials from
 * --serve-auth are compared in constant time, never logged and never
 * echoed; a failed attempt is logged with the client's address only.
 */
#include "config.h"

#include "serve/serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "model/defaults.h"
#include "serve/serve_int.h"
#include "util/log.h"
#include "util/secfile.h"
#include "util/util.h"

#define CONN_TIMEOUT_S 10
#define CONN_MEMORY 32768
#define THREAD_STACK (512 * 1024)
#define MAX_PEM (1024 * 1024)
#define REALM "kgtop"
/*
 * GnuTLS priorities: TLS 1.3 and 1.2 only; no key exchange without
 * forward secrecy (static RSA), nor finite-field DHE (groups a client
 * cannot judge): ECDHE; AEAD ciphers only (no CBC, no SHA-1 MAC)
 */
#define TLS_PRIORITIES                                                                                       \
	"NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-RSA:-DHE-RSA:-DHE-DSS:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:" \
	"+CHACHA20-POLY1305:-MAC-ALL:+AEAD:%SERVER_PRECEDENCE"

/* ------------------------------------------------------------ the address */

/*
 * Parse --serve [ADDR:]PORT into a socket address: no ADDR is the
 * loopback; "[v6]:PORT" for IPv6.  Sets *loopback; -1 with err.
 */
static int
parse_listen(const char *spec, struct sockaddr_storage *ss, bool *loopback, char *err, size_t errsz)
{
	char host[256] = "127.0.0.1", port[16];
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints, *res = NULL;
	int rc;
	if (colon == NULL) {
		snprintf(port, sizeof port, "%s", spec);
	} else {
		size_t hl = (size_t)(colon - spec);
		const char *h = spec;
		if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
			h++;
			hl -= 2;
		}
		if (hl >= sizeof host)
			return util_err(err, errsz, "--serve '%s': the address is too long", spec);
		if (hl > 0) {
			memcpy(host, h, hl);
			host[hl] = '\0';
		}
		snprintf(port, sizeof port, "%s", colon + 1);
	}
	if (port[0] == '\0' || strspn(port, "0123456789") != strlen(port) || atoi(port) > 65535)
		return util_err(err, errsz, "--serve '%s': expected [ADDRESS:]PORT (e.g. 9464, 0.0.0.0:9464, [::1]:9464)",
				spec);
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0 || res == NULL)
		return util_err(err, errsz, "--serve '%s': %s", spec, rc != 0 ? gai_strerror(rc) : "no address");
	memcpy(ss, res->ai_addr, KG_MIN(sizeof *ss, (size_t)res->ai_addrlen));
	freeaddrinfo(res);
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)ss;
		*loopback = (ntohl(a->sin_addr.s_addr) >> 24) == 127;
	} else {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)ss;
		*loopback = IN6_IS_ADDR_LOOPBACK(&a->sin6_addr);
	}
	return 0;
}

/* The URL of the bound address and port. */
static char *
make_url(const struct sockaddr_storage *ss, int port, bool tls)
{
	char host[INET6_ADDRSTRLEN] = "?";
	if (ss->ss_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)ss)->sin_addr, host, sizeof host);
		return xasprintf("%s://%s:%d", tls ? "https" : "http", host, port);
	}
	inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr, host, sizeof host);
	return xasprintf("%s://[%s]:%d", tls ? "https" : "http", host, port);
}

/* ------------------------------------------------------------ files */

/*
 * Read a whole small file (a PEM, the password file) into a string; -1
 * with err naming what.  A secret (the passwords, the key) must be
 * readable by its owner only, any of them writable by nobody else, in
 * directories nobody else may change (util/secfile.h).
 */
static int
read_small(const char *what, const char *path, bool secret, char **out, char *err, size_t errsz)
{
	FILE *f = secret ? secfile_open_secret(path, what, err, errsz) : secfile_open(path, what, err, errsz);
	sbuf b = { 0 };
	char chunk[4096];
	size_t n;
	if (f == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (b.len + n > MAX_PEM) {
			fclose(f);
			sbuf_free(&b);
			return util_err(err, errsz, "%s %s: larger than 1 MiB", what, path);
		}
		sbuf_addn(&b, chunk, n);
	}
	fclose(f);
	*out = xstrdup(sbuf_str(&b));
	/* wipe the copy that may hold a secret */
	if (b.s != NULL)
		memset(b.s, 0, b.cap);
	sbuf_free(&b);
	return 0;
}

/* Read --serve-auth: "user:password" lines ('#' comments); KG_ERR_USAGE with err (nothing of a line is repeated). */
static int
load_auth(kg_server *s, const char *path, char *err, size_t errsz)
{
	char *text = NULL, *line, *save = NULL;
	int lineno = 0;
	if (read_small("--serve-auth", path, true, &text, err, errsz) < 0)
		return KG_ERR_USAGE;
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *colon;
		size_t len = strlen(line);
		lineno++;
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		colon = strchr(line, ':');
		if (colon == NULL || colon == line || colon[1] == '\0') {
			memset(text, 0, strlen(text));
			free(text);
			return util_usage_err(err, errsz, "--serve-auth %s: line %d: expected user:password", path, lineno);
		}
		*colon = '\0';
		s->users = xreallocarray(s->users, (size_t)s->nusers + 1, sizeof *s->users);
		s->passwords = xreallocarray(s->passwords, (size_t)s->nusers + 1, sizeof *s->passwords);
		s->users[s->nusers] = xstrdup(line);
		s->passwords[s->nusers] = xstrdup(colon + 1);
		s->nusers++;
		memset(line, 0, len);
	}
	free(text);
	if (s->nusers == 0)
		return util_usage_err(err, errsz, "--serve-auth %s: no user:password line", path);
	return 0;
}

/* The la bytes at a equal the string b, in a time that does not depend on where they differ. */
static bool
secret_equal_n(const unsigned char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), i, n = KG_MAX(la, lb);
	unsigned char d = la != lb;
	for (i = 0; i < n; i++)
		d |= (unsigned char)((i < la ? a[i] : 0) ^ (i < lb ? (unsigned char)b[i] : 0));
	return d == 0;
}

/* The value of a base64 character, -1 for none. */
static int
b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Decode base64 (padding optional) into out (n bytes at most); its length, -1 when it is not base64. */
static ssize_t
b64_decode(const char *in, unsigned char *out, size_t n)
{
	size_t len = 0;
	unsigned acc = 0;
	int bits = 0;
	for (; *in != '\0' && *in != '='; in++) {
		int v = b64_value(*in);
		if (v < 0)
			return -1;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (len >= n)
				return -1;
			out[len++] = (unsigned char)(acc >> bits);
		}
	}
	while (*in == '=')
		in++;
	return *in == '\0' ? (ssize_t)len : -1;
}

/*
 * True when the request may go on: no --serve-auth, or a user and password
 * of the file.  The Authorization header is decoded here, with its length:
 * "user:password" is all of it, so a password followed by a NUL and more
 * is another password (libmicrohttpd 0.9.75 hands it over cut at the NUL).
 */
static bool
authorized(kg_server *s, struct MHD_Connection *conn)
{
	const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	unsigned char raw[1024];
	ssize_t n;
	const unsigned char *colon;
	bool ok = false;
	int i;
	if (s->nusers == 0)
		return true;
	if (h == NULL || strncasecmp(h, "Basic ", 6) != 0)
		return false;
	for (h += 6; *h == ' '; h++)
		;
	n = b64_decode(h, raw, sizeof raw);
	colon = n > 0 ? memchr(raw, ':', (size_t)n) : NULL;
	for (i = 0; colon != NULL && i < s->nusers; i++)
		ok |= secret_equal_n(raw, (size_t)(colon - raw), s->users[i]) &
		      secret_equal_n(colon + 1, (size_t)(raw + n - colon - 1), s->passwords[i]);
	memset(raw, 0, sizeof raw);
	return ok;
}

/* ------------------------------------------------------------ answers */

/* Queue a short text answer. */
static enum MHD_Result
answer_text(struct MHD_Connection *conn, unsigned status, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result rc;
	if (r == NULL)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return rc;
}

/* GET /metrics: the exposition of the newest snapshot and counters. */
static enum MHD_Result
answer_metrics(kg_server *s, struct MHD_Connection *conn)
{
	kg_snapshot *snap;
	kg_metrics *m;
	kg_metrics_ctx ctx;
	sbuf b = { 0 };
	struct MHD_Response *r;
	enum MHD_Result rc;
	memset(&ctx, 0, sizeof ctx);
	ctx.partitions = s->cfg.partitions;
	ctx.serving = true;
	pthread_mutex_lock(&s->lock);
	snap = s->snap != NULL ? snapshot_ref(s->snap) : NULL;
	m = metrics_ref(s->frozen);
	ctx.viewers = s->nviewers;
	ctx.viewers_dropped = s->dropped;
	pthread_mutex_unlock(&s->lock);
	metrics_render(m, snap, &ctx, &b);
	snapshot_unref(snap);
	metrics_unref(m);
	sbuf_addc(&b, '\0'); /* a buffer even when empty; the NUL is not sent */
	r = MHD_create_response_from_buffer(b.len - 1, b.s, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		sbuf_free(&b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, KG_METRICS_CONTENT_TYPE);
	rc = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return rc;
}

/* GET /ready: 200 once every source answered, else 503 naming the first that did not. */
static enum MHD_Result
answer_ready(kg_server *s, struct MHD_Connection *conn)
{
	char why[512];
	int i;
	bool ready = false;
	pthread_mutex_lock(&s->lock);
	if (s->snap == NULL) {
		snprintf(why, sizeof why, "not ready: no refresh yet");
	} else {
		ready = true;
		for (i = 0; ready && i < s->snap->nsources; i++) {
			const kg_source_health *h = &s->snap->sources[i];
			if (h->role == KG_ROLE_RECORDER || h->status == KG_SRC_OK)
				continue;
			ready = false;
			snprintf(why, sizeof why, "not ready: %s %s%s%s", h->name, src_status_name(h->status),
				 h->message != NULL ? ": " : "", h->message != NULL ? h->message : "");
		}
	}
	pthread_mutex_unlock(&s->lock);
	/* the one guard of this text answer: a source's message may quote the cluster */
	why[util_sanitize_span(why, strnlen(why, sizeof why - 2), false)] = '\0';
	strcat(why, "\n");
	return ready ? answer_text(conn, MHD_HTTP_OK, "ready\n") : answer_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE, why);
}

/* The endpoints. */
typedef enum route {
	ROUTE_INDEX,
	ROUTE_METRICS,
	ROUTE_STREAM,
	ROUTE_HEALTHZ,
	ROUTE_READY,
	ROUTE_COUNT
} route;

static const char *const route_paths[ROUTE_COUNT] = {
	[ROUTE_INDEX] = "/",
	[ROUTE_METRICS] = "/metrics",
	[ROUTE_STREAM] = "/stream",
	[ROUTE_HEALTHZ] = "/healthz",
	[ROUTE_READY] = "/ready",
};

static const char index_text[] = "kgtop: top for Kafka consumer groups\n"
				 "  /metrics  Prometheus metrics\n"
				 "  /stream   the live recording (kgtop --attach URL)\n"
				 "  /healthz  the process answers\n"
				 "  /ready    every source answered\n";

/* Content-Length values of a request: the first, and whether another differs. */
typedef struct clen {
	const char *first;
	bool conflict;
} clen;

/* Header iterator: collect the Content-Length values. */
static enum MHD_Result
on_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	clen *c = cls;
	(void)kind;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) != 0 || value == NULL)
		return MHD_YES;
	if (c->first == NULL)
		c->first = value;
	else if (strcmp(c->first, value) != 0)
		c->conflict = true;
	if (strchr(value, ',') != NULL)
		c->conflict = true; /* "5, 6": two lengths in one header */
	return MHD_YES;
}

/* The answer to a request whose headers (and body) came: route r (-1 none). */
static enum MHD_Result
answer_route(kg_server *s, struct MHD_Connection *conn, const char *url, int r)
{
	if (r < 0)
		return answer_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics, /stream, /healthz or /ready\n");
	if (r != ROUTE_HEALTHZ && !authorized(s, conn)) {
		struct MHD_Response *resp;
		enum MHD_Result rc;
		char peer[64];
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		snprintf(peer, sizeof peer, "?");
		if (ci != NULL && ci->client_addr != NULL && ci->client_addr->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)ci->client_addr)->sin_addr, peer,
				  sizeof peer);
		log_msg(KG_LOG_INFO, "serve: %s from %s: no or wrong credentials", url, peer);
		resp = MHD_create_response_from_buffer(strlen("authentication required\n"), (void *)"authentication required\n",
						       MHD_RESPMEM_PERSISTENT);
		if (resp == NULL)
			return MHD_NO;
		rc = MHD_queue_basic_auth_fail_response(conn, REALM, resp);
		MHD_destroy_response(resp);
		return rc;
	}
	switch ((route)r) {
	case ROUTE_METRICS:
		return answer_metrics(s, conn);
	case ROUTE_STREAM:
		return stream_answer(s, conn);
	case ROUTE_HEALTHZ:
		return answer_text(conn, MHD_HTTP_OK, "ok\n");
	case ROUTE_READY:
		return answer_ready(s, conn);
	default:
		return answer_text(conn, MHD_HTTP_OK, index_text);
	}
}

/*
 * The access handler: read-only routes, framing, authentication, answers.
 * Every answer marks its connection answered (serve_conn.c: its deadline
 * moves from the request to the answer; none for a /stream viewer).
 */
static enum MHD_Result
on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method, const char *version,
	   const char *upload, size_t *upload_size, void **con_cls)
{
	static int seen; /* *con_cls of a request whose headers were taken */
	kg_server *s = cls;
	enum MHD_Result rc;
	clen cl = { NULL, false };
	int r;
	(void)version;
	(void)upload;
	if (*con_cls == NULL) {
		/* the headers: refuse other methods and bad framing at once (the body is not read); the rest when complete */
		pthread_mutex_lock(&s->lock);
		s->requests++;
		pthread_mutex_unlock(&s->lock);
		MHD_get_connection_values(conn, MHD_HEADER_KIND, on_header, &cl);
		if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
			rc = answer_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "kgtop serves read-only: GET or HEAD\n");
		} else if (cl.conflict) {
			rc = answer_text(conn, MHD_HTTP_BAD_REQUEST, "conflicting Content-Length headers\n");
		} else {
			*con_cls = &seen;
			return MHD_YES;
		}
		serve_conn_answered(s, conn, false);
		return rc;
	}
	if (*upload_size != 0) {
		*upload_size = 0; /* a body sent with GET: ignored */
		return MHD_YES;
	}
	r = util_name_index(route_paths, ROUTE_COUNT, url);
	rc = answer_route(s, conn, url, r);
	serve_conn_answered(s, conn, r == ROUTE_STREAM && rc == MHD_YES);
	return rc;
}

/* libmicrohttpd's messages go to the debug log. */
static void
on_mhd_log(void *cls, const char *fmt, va_list ap)
{
	char m[512];
	size_t n;
	(void)cls;
	vsnprintf(m, sizeof m, fmt, ap);
	n = strlen(m);
	while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == '\r'))
		m[--n] = '\0';
	util_sanitize_text(m);
	log_msg(KG_LOG_INFO, "serve: libmicrohttpd: %s", m);
}

/* ------------------------------------------------------------ the tap */

/* Tap: the observations, for the stream's line. */
static void
tap_before(void *arg, const kg_obsq *obs, const kg_snapshot *snap)
{
	kg_server *s = arg;
	kg_tap t;
	recorder_tap(s->enc, &t);
	t.before(t.arg, obs, snap);
}

/* Tap: the stream's line, the counters, and the newest snapshot for the requests. */
static void
tap_after(void *arg, const kg_snapshot *snap, const kg_evlist *events)
{
	kg_server *s = arg;
	kg_metrics *frozen = NULL, *old_m = NULL;
	kg_snapshot *old;
	kg_tap t;
	recorder_tap(s->enc, &t);
	t.after(t.arg, snap, events);
	if (metrics_count(s->counts, events))
		frozen = metrics_copy(s->counts);
	pthread_mutex_lock(&s->lock);
	old = s->snap;
	/* the snapshot is published and immutable from here on */
	s->snap = snapshot_ref((kg_snapshot *)snap);
	if (frozen != NULL) {
		old_m = s->frozen;
		s->frozen = frozen;
	}
	pthread_mutex_unlock(&s->lock);
	snapshot_unref(old);
	metrics_unref(old_m);
}

/* The tap. */
void
serve_tap(kg_server *s, kg_tap *tap)
{
	tap->before = tap_before;
	tap->after = tap_after;
	tap->arg = s;
}

/* ------------------------------------------------------- the health source */

/* Health source: where it answers, viewers, and what it is exposed to. */
static void
srvsrc_contribute(kg_source *src, kg_builder *b)
{
	kg_server *s = src->impl;
	kg_source_health h;
	char msg[512];
	int viewers;
	uint64_t dropped, requests, refused, cut;
	char limits[160] = "";
	pthread_mutex_lock(&s->lock);
	viewers = s->nviewers;
	dropped = s->dropped;
	requests = s->requests;
	refused = s->refused;
	cut = s->cut_slow;
	pthread_mutex_unlock(&s->lock);
	if (refused > 0 || cut > 0)
		snprintf(limits, sizeof limits, ", %llu connections refused (%d per address at most), %llu closed at their deadline",
			 (unsigned long long)refused, serve_per_address(s->cfg.max_clients), (unsigned long long)cut);
	snprintf(msg, sizeof msg, "%s: %d viewer%s attached, %llu cut off for falling behind or not reading, %llu requests%s%s%s",
		 s->url, viewers, viewers == 1 ? "" : "s", (unsigned long long)dropped, (unsigned long long)requests, limits,
		 s->nusers > 0 ? "; password required" : "", s->loopback || s->tls ? "" : "; not loopback and without TLS");
	memset(&h, 0, sizeof h);
	h.name = "serve";
	h.status = KG_SRC_OK;
	h.message = msg;
	h.insecure = !s->loopback && !s->tls;
	builder_source(b, &h);
}

static const kg_source_ops srvsrc_ops = {
	.kind = "serve",
	.role = KG_ROLE_RECORDER, /* an output of kgtop, like the recorder: not recorded, not streamed */
	.contribute = srvsrc_contribute,
};

/* A source that shows the server's health. */
kg_source *
serve_source(kg_server *s)
{
	return source_new(&srvsrc_ops, "serve", s);
}

/* ------------------------------------------------------------ opening */

/* Free everything but the daemon. */
static void
server_free(kg_server *s)
{
	int i;
	for (i = 0; i < s->nusers; i++) {
		memset(s->passwords[i], 0, strlen(s->passwords[i]));
		free(s->passwords[i]);
		free(s->users[i]);
	}
	free(s->users);
	free(s->passwords);
	if (s->key_pem != NULL)
		memset(s->key_pem, 0, strlen(s->key_pem));
	free(s->key_pem);
	free(s->cert_pem);
	recorder_close(s->enc);
	metrics_unref(s->counts);
	metrics_unref(s->frozen);
	snapshot_unref(s->snap);
	stream_free(s);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->more);
	pthread_cond_destroy(&s->watch);
	free(s->listen);
	free(s->url);
	free(s);
}

/* Read the certificate and key (both or neither); KG_ERR_USAGE for a usage error (a file missing or refused). */
static int
load_tls(kg_server *s, char *err, size_t errsz)
{
	const kg_serve_config *c = &s->cfg;
	if ((c->cert_file == NULL) != (c->key_file == NULL))
		return util_usage_err(err, errsz, "--serve-cert and --serve-key go together (HTTPS needs both)");
	if (c->cert_file == NULL)
		return 0;
	if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
		return util_err(err, errsz, "--serve-cert: this libmicrohttpd was built without TLS");
	if (read_small("--serve-cert", c->cert_file, false, &s->cert_pem, err, errsz) < 0 ||
	    read_small("--serve-key", c->key_file, true, &s->key_pem, err, errsz) < 0)
		return KG_ERR_USAGE; /* a usage error: the file is refused or missing */
	s->tls = true;
	return 0;
}

/* Start the daemon on the address; -1 with err. */
static int
start_daemon(kg_server *s, const struct sockaddr_storage *ss, char *err, size_t errsz)
{
	struct MHD_OptionItem opt[16];
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
			 MHD_USE_ERROR_LOG;
	unsigned clients = (unsigned)s->cfg.max_clients;
	int n = 0;
	const union MHD_DaemonInfo *di;
#define OPT(o, v, p) opt[n++] = (struct MHD_OptionItem){ (o), (intptr_t)(v), (void *)(p) }
	OPT(MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, s); /* first: the options after it log there */
	OPT(MHD_OPTION_SOCK_ADDR, 0, ss);
	OPT(MHD_OPTION_CONNECTION_LIMIT, clients, NULL);
	/* the limit per address (by prefix) and the deadlines are serve_conn.c's */
	OPT(MHD_OPTION_NOTIFY_CONNECTION, serve_conn_notify, s);
	OPT(MHD_OPTION_NOTIFY_COMPLETED, serve_conn_completed, s);
	OPT(MHD_OPTION_CONNECTION_TIMEOUT, CONN_TIMEOUT_S, NULL);
	OPT(MHD_OPTION_CONNECTION_MEMORY_LIMIT, CONN_MEMORY, NULL);
	OPT(MHD_OPTION_THREAD_STACK_SIZE, THREAD_STACK, NULL);
	if (s->tls) {
		OPT(MHD_OPTION_HTTPS_MEM_CERT, 0, s->cert_pem);
		OPT(MHD_OPTION_HTTPS_MEM_KEY, 0, s->key_pem);
		OPT(MHD_OPTION_HTTPS_PRIORITIES, 0, TLS_PRIORITIES);
		flags |= MHD_USE_TLS;
	}
	OPT(MHD_OPTION_END, 0, NULL);
#undef OPT
	if (ss->ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (serve_conn_start(s, err, errsz) < 0)
		return -1;
	errno = 0;
	s->d = MHD_start_daemon(flags, 0, serve_conn_accept, s, on_request, s, MHD_OPTION_ARRAY, opt, MHD_OPTION_END);
	if (s->d == NULL)
		return util_err(err, errsz, "--serve %s: cannot listen%s%s%s", s->listen, errno ? " (" : "",
				errno ? strerror(errno) : "", errno ? ")" : "");
	di = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->url = make_url(ss, di != NULL ? di->port : 0, s->tls);
	return 0;
}

/* Listen and start answering. */
int
serve_open(const kg_serve_config *cfg, kg_server **out, char *err, size_t errsz)
{
	kg_server *s;
	struct sockaddr_storage ss;
	pthread_condattr_t ca;
	kg_record_sink sink;
	int rc;
	if (cfg->max_clients <= 0 || cfg->buffer_bytes <= 0)
		return util_err(err, errsz, "--serve: no --serve-clients or --serve-buffer given");
	s = xcalloc(1, sizeof *s);
	s->cfg = *cfg;
	s->listen = xstrdup(cfg->listen);
	s->cfg.listen = s->listen;
	s->ring.max_bytes = (size_t)cfg->buffer_bytes;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->more, &ca);
	pthread_cond_init(&s->watch, &ca);
	pthread_condattr_destroy(&ca);
	s->counts = metrics_new();
	memset(&sink, 0, sizeof sink);
	sink.arg = s;
	sink.want_line = stream_want_line;
	sink.line = stream_line;
	sink.want_key = stream_want_key;
	sink.key = stream_key;
	recorder_open_sink(&sink, &s->enc);
	if (cfg->model != NULL)
		recorder_settings(s->enc, cfg->model);
	memset(&ss, 0, sizeof ss);
	if ((rc = parse_listen(cfg->listen, &ss, &s->loopback, err, errsz)) < 0)
		rc = KG_ERR_USAGE;
	else if (cfg->auth_file != NULL)
		rc = load_auth(s, cfg->auth_file, err, errsz);
	if (rc == 0)
		rc = load_tls(s, err, errsz);
	if (rc == 0)
		rc = start_daemon(s, &ss, err, errsz);
	if (rc < 0) {
		serve_conn_stop(s);
		server_free(s);
		return rc;
	}
	if (!s->loopback && !s->tls)
		log_msg(KG_LOG_WARN, "--serve %s: not a loopback address and no TLS: anyone on the way reads what kgtop "
				     "sees%s (--serve-cert, --serve-key)",
			s->listen, s->nusers > 0 ? ", and the passwords" : "");
	log_msg(KG_LOG_INFO, "serve: answering on %s (/metrics, /stream, /healthz, /ready)", s->url);
	*out = s;
	return 0;
}

/* The URL. */
const char *
serve_url(const kg_server *s)
{
	return s->url;
}

/* Stop and free. */
void
serve_close(kg_server *s)
{
	if (s == NULL)
		return;
	stream_stop(s);
	if (s->d != NULL)
		MHD_stop_daemon(s->d);
	serve_conn_stop(s);
	server_free(s);
}

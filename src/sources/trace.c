/*
 * trace.c: trace streams read with libcurl's multi socket interface (see trace.h).
 *
 * Each source owns one multi handle with one easy handle reused for every
 * request (curl keeps the connection alive between them).  Curl tells us
 * the sockets it waits on (socket callback) and when it wants to be called
 * (timer callback, re-read with curl_multi_timeout()); the collector polls
 * those sockets, then poll() asks poll(2) which of them are ready (with a
 * zero timeout) and hands each to curl_multi_socket_action().  File URLs
 * have no sockets: curl reads them inside the first action, which is why
 * ranged requests are bounded (1 MiB by default).
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

#include "sources/trace.h"
#include "sources/trace_groups.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "model/obs.h"
#include "sources/parse_jolokia.h"
#include "sources/parse_jsonl.h"
#include "sources/parse_log.h"
#include "sources/parse_rdstats.h"
#include "util/util.h"

#define TAIL 512                       /* bytes compared before the offset */
#define MAX_SOCKS 8
#define MAX_BODY (16u << 20)          /* largest Jolokia answer kept */
#define DEF_INTERVAL (1000LL * 1000)
#define DEF_CONNECT (10LL * 1000000)
#define DEF_READ (15LL * 1000000)
#define DEF_IDLE (300LL * 1000000)
#define DEF_BACKOFF_MIN (1000LL * 1000)
#define DEF_BACKOFF_MAX (60LL * 1000000)
#define DEF_MAX_LINE (64u << 10)
#define DEF_MAX_LINE_RDSTATS (16u << 20)
#define DEF_CHUNK (1u << 20)

static const char *const kind_names[KG_TRACE_KIND_COUNT] = {
	[KG_TRACE_LOG] = "log",
	[KG_TRACE_JSONL] = "jsonl",
	[KG_TRACE_RDSTATS] = "rdstats",
	[KG_TRACE_JOLOKIA] = "jolokia",
};

typedef struct tsock {
	curl_socket_t fd;
	int what; /* CURL_POLL_IN / OUT / INOUT */
} tsock;

typedef struct trace {
	kg_source *src;
	kg_trace_kind kind;
	char *url;            /* with credentials: for curl only */
	char *shown;          /* without userinfo */
	char *user, *pass;    /* to scrub messages */
	bool is_file;
	char *path;           /* file://: the decoded path, checked before each request */
	bool is_https;        /* TLS: what --trace-insecure turns verification off for */
	bool plain_creds;     /* credentials (URL userinfo, headers file) sent over plain http:// */
	kg_trace_config cfg;  /* timeouts and sizes, defaults filled (specs not kept) */
	struct curl_slist *headers;
	CURLM *multi;
	CURL *easy;
	char errbuf[CURL_ERROR_SIZE];
	tsock sock[MAX_SOCKS];
	int nsock;
	int64_t timer_at;     /* monotonic; 0 none */
	int64_t now;          /* wall time of the current poll() */

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
	sbuf body;            /* Jolokia answer */

	/* a line stream */
	bool started;         /* offset known */
	bool streaming;       /* the server sends a live stream without length */
	int64_t offset;
	unsigned char tail[TAIL];
	size_t ntail;
	kg_lines lines;
	kg_log_parser plog;

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
	char detail[256];     /* Jolokia: clients and failed reads */
	kg_obsq q;
	kg_tgview *groups;    /* jsonl: the groups the callbacks describe */
	kg_trace_stats st;
} trace;

/* "log", "jsonl", ... */
const char *
trace_kind_name(kg_trace_kind k)
{
	return (unsigned)k < KG_TRACE_KIND_COUNT ? kind_names[k] : "?";
}

/* ---------------------------------------------------------------- specs */

/* Initialize libcurl once per process. */
static void
global_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* The kind named by a spec's prefix; -1 when unknown. */
static int
kind_parse(const char *s, size_t n)
{
	int i;
	for (i = 0; i < KG_TRACE_KIND_COUNT; i++) {
		if (strlen(kind_names[i]) == n && strncmp(s, kind_names[i], n) == 0)
			return i;
	}
	return -1;
}

typedef struct spec {
	kg_trace_kind kind;
	char *url;
	char *shown;
	char *name;
	char *user, *pass;
	char *path;
	bool is_file;
	bool is_https;
} spec;

/* Free a parsed spec. */
static void
spec_free(spec *s)
{
	free(s->url);
	free(s->shown);
	free(s->name);
	free(s->user);
	free(s->pass);
	free(s->path);
	memset(s, 0, sizeof *s);
}

/* Parse and check a spec: kind, scheme, a URL curl accepts; fills the shown URL and the name. */
static int
spec_parse(const char *in, spec *out, char *err, size_t errsz)
{
	const char *colon = in ? strchr(in, ':') : NULL;
	CURLU *u;
	char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL, *shown = NULL;
	int k, rc = -1;
	memset(out, 0, sizeof *out);
	if (colon == NULL)
		return util_err(err, errsz, "--trace %s: expected KIND:URL (kinds: log, jsonl, rdstats, jolokia)",
				in ? in : "");
	k = kind_parse(in, (size_t)(colon - in));
	if (k < 0)
		return util_err(err, errsz, "--trace: unknown kind \"%.*s\" (kinds: log, jsonl, rdstats, jolokia)",
				(int)KG_MIN(colon - in, 32), in);
	u = curl_url();
	if (u == NULL)
		util_oom();
	if (curl_url_set(u, CURLUPART_URL, colon + 1, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK) {
		util_err(err, errsz, "--trace %s: not a valid URL", kind_names[k]);
		goto done;
	}
	if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0 && strcasecmp(scheme, "file") != 0) {
		util_err(err, errsz, "--trace %s: unsupported URL scheme \"%s\" (http, https or file)", kind_names[k],
			 scheme);
		goto done;
	}
	out->is_file = strcasecmp(scheme, "file") == 0;
	out->is_https = strcasecmp(scheme, "https") == 0;
	if (out->is_file && k == KG_TRACE_JOLOKIA) {
		util_err(err, errsz, "--trace jolokia: needs an http:// or https:// URL");
		goto done;
	}
	if (curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK || path == NULL ||
	    (out->is_file && (path[0] == '\0' || strcmp(path, "/") == 0))) {
		util_err(err, errsz, "--trace %s: the URL has no path", kind_names[k]);
		goto done;
	}
	if (!out->is_file && (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || host == NULL || *host == '\0')) {
		util_err(err, errsz, "--trace %s: the URL has no host", kind_names[k]);
		goto done;
	}
	{
		char *user = NULL, *pass = NULL;
		if (curl_url_get(u, CURLUPART_USER, &user, CURLU_URLDECODE) == CURLUE_OK && user != NULL) {
			out->user = xstrdup(user);
			curl_free(user);
		}
		if (curl_url_get(u, CURLUPART_PASSWORD, &pass, CURLU_URLDECODE) == CURLUE_OK && pass != NULL) {
			out->pass = xstrdup(pass);
			curl_free(pass);
		}
	}
	curl_url_get(u, CURLUPART_PORT, &port, 0);
	curl_url_set(u, CURLUPART_USER, NULL, 0);
	curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
	if (curl_url_get(u, CURLUPART_URL, &shown, 0) != CURLUE_OK || shown == NULL) {
		util_err(err, errsz, "--trace %s: not a valid URL", kind_names[k]);
		goto done;
	}
	out->kind = (kg_trace_kind)k;
	out->url = xstrdup(colon + 1);
	out->shown = xstrdup(shown);
	util_sanitize_text(out->shown);
	if (out->is_file) {
		const char *base = strrchr(path, '/');
		char *dpath = NULL;
		if (curl_url_get(u, CURLUPART_PATH, &dpath, CURLU_URLDECODE) == CURLUE_OK && dpath != NULL)
			out->path = xstrdup(dpath);
		curl_free(dpath);
		out->name = xasprintf("%s:%s", kind_names[k], base && base[1] ? base + 1 : path);
	} else if (k == KG_TRACE_JOLOKIA && port != NULL) {
		out->name = xasprintf("%s:%s:%s", kind_names[k], host, port);
	} else {
		out->name = xasprintf("%s:%s", kind_names[k], host);
	}
	util_sanitize_text(out->name);
	rc = 0;
done:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(path);
	curl_free(shown);
	curl_url_cleanup(u);
	if (rc < 0)
		spec_free(out);
	return rc;
}

/* Check one spec. */
int
trace_spec_check(const char *in, char *err, size_t errsz)
{
	spec s;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, global_init);
	if (spec_parse(in, &s, err, errsz) < 0)
		return -1;
	spec_free(&s);
	return 0;
}

/* Read a headers file into a list ("Header: value" lines; '#' comments). Values never reach err. */
static int
headers_read(const char *path, struct curl_slist **out, char *err, size_t errsz)
{
	FILE *f = util_fopen_regular(path);
	char line[8192];
	int n = 0;
	*out = NULL;
	if (f == NULL)
		return util_err(err, errsz, "--trace-headers %s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f) != NULL) {
		size_t len = strlen(line);
		char *p = line, *c;
		n++;
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			fclose(f);
			curl_slist_free_all(*out);
			*out = NULL;
			return util_err(err, errsz, "--trace-headers %s:%d: line too long", path, n);
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		c = strchr(p, ':');
		if (c == NULL || c == p || strpbrk(p, "\r\n") != NULL || strcspn(p, " \t") < (size_t)(c - p)) {
			fclose(f);
			curl_slist_free_all(*out);
			*out = NULL;
			return util_err(err, errsz, "--trace-headers %s:%d: expected \"Header: value\"", path, n);
		}
		*out = curl_slist_append(*out, p);
		if (*out == NULL)
			util_oom();
	}
	fclose(f);
	return 0;
}

/* ------------------------------------------------------------- messages */

/* Replace every occurrence of secret in s (in place) by "***" (when it fits). */
static void
scrub_one(char *s, size_t cap, const char *secret)
{
	size_t sl;
	char *p;
	if (secret == NULL || (sl = strlen(secret)) < 3)
		return;
	p = s;
	while ((p = strstr(p, secret)) != NULL) {
		size_t rest = strlen(p + sl);
		if ((size_t)(p - s) + 3 + rest + 1 > cap)
			break;
		memmove(p + 3, p + sl, rest + 1);
		memcpy(p, "***", 3);
		p += 3; /* past the mask: a secret that is "***" itself must not loop */
	}
}

/* Set the error message: formatted, credentials scrubbed, sanitized. */
static void
set_err(trace *t, const char *fmt, ...) KG_PRINTF(2, 3);
static void
set_err(trace *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof t->err, fmt, ap);
	va_end(ap);
	scrub_one(t->err, sizeof t->err, t->user);
	scrub_one(t->err, sizeof t->err, t->pass);
	util_sanitize_text(t->err);
}

/* Log a line about this stream, "trace NAME: ...", with credentials scrubbed. */
static void
tlog(const trace *t, kg_log_level level, const char *fmt, ...) KG_PRINTF(3, 4);
static void
tlog(const trace *t, kg_log_level level, const char *fmt, ...)
{
	va_list ap;
	char m[768];
	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	scrub_one(m, sizeof m, t->user);
	scrub_one(m, sizeof m, t->pass);
	log_msg(level, "trace %s: %s", t->src != NULL ? t->src->name : "?", m);
}

/* Change the status (news when it changed). */
static void
set_status(trace *t, kg_src_status st)
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
	trace *t = userp;
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
	trace *t = userp;
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
	trace *t = arg;
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

/* ------------------------------------------------------------ parsing */

/* One complete line to this kind's parser. */
static void
on_line(void *arg, const char *line, size_t len)
{
	trace *t = arg;
	size_t before = t->q.n;
	kg_parse_rc rc;
	t->st.lines++;
	if (t->st.bytes_first_line < 0) {
		t->st.bytes_first_line = (int64_t)t->st.bytes;
		t->st.first_line_us = util_mono_us();
	}
	switch (t->kind) {
	case KG_TRACE_LOG:
		rc = parse_log_line(&t->plog, line, len, &t->q);
		break;
	case KG_TRACE_JSONL:
		rc = parse_jsonl_line(line, len, &t->q);
		break;
	case KG_TRACE_RDSTATS:
		rc = parse_rdstats_line(line, len, t->now, &t->q);
		break;
	default:
		rc = KG_PARSE_SKIPPED;
		break;
	}
	t->st.counts.n[rc]++;
	t->st.obs += t->q.n - before;
	if (t->q.n > before)
		t->news = true;
}

/* Remember the last bytes before the offset. */
static void
tail_push(trace *t, const char *p, size_t n)
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
answer_begin(trace *t)
{
	if (t->began)
		return;
	t->began = true;
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->code);
	if (t->kind == KG_TRACE_JOLOKIA) {
		t->bad_answer = !t->is_file && t->code != 200;
		return;
	}
	if (t->is_file) {
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
		t->completed = true; /* a live stream never ends: being open is as complete as it gets */
		if (!t->streaming) {
			t->streaming = true;
			t->st.streams++;
			tlog(t, KG_LOG_INFO, "the answer has no length: reading a live stream (%" PRIu64 " so far)",
			     t->st.streams);
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

/* Body callback. */
static size_t
on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	trace *t = arg;
	size_t n = size * nmemb, all = n;
	int64_t pos;
	t->last_byte = util_mono_us();
	answer_begin(t);
	t->st.bytes += n;
	if (t->bad_answer)
		return n; /* an error page: drop it */
	if (t->kind == KG_TRACE_JOLOKIA) {
		if (t->body.len + n > MAX_BODY) {
			t->too_big = true;
			return 0;
		}
		sbuf_addn(&t->body, p, n);
		return n;
	}
	if (t->base < 0) {
		parse_lines_feed(&t->lines, p, n, on_line, t);
		t->got += (int64_t)n;
		return n;
	}
	pos = t->base + t->got;
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
			parse_lines_feed(&t->lines, p, n, on_line, t);
		tail_push(t, p, n);
		t->offset += (int64_t)n;
		t->new_bytes += (int64_t)n;
	}
	return all;
}

/* ----------------------------------------------------------- requests */

/* The delay before retry number n (1-based). */
static int64_t
backoff(const trace *t, int n)
{
	int64_t d = t->cfg.backoff_min_us;
	while (--n > 0 && d < t->cfg.backoff_max_us)
		d *= 2;
	return KG_MIN(d, t->cfg.backoff_max_us);
}

static void answer_failed(trace *t);

/*
 * What stops a file:// path from being read, with the OS's words (curl
 * only says "Couldn't open file"): missing, unreadable, or no regular file
 * (a directory reads as empty, and a pipe or a terminal would block the
 * collector inside curl: file:// is read synchronously).  Fills why; false
 * when the file can be read.
 */
static bool
file_problem(const trace *t, char *why, size_t n)
{
	struct stat sb;
	int fd;
	if (!t->is_file || t->path == NULL)
		return false;
	if (stat(t->path, &sb) < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return true;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(why, n, "a directory, not a file");
		return true;
	}
	if (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)) {
		snprintf(why, n, "a pipe, not a file: kgtop reads files by their offsets (give the file itself, or "
				 "serve it over http://)");
		return true;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(why, n, "not a regular file: kgtop reads files by their offsets");
		return true;
	}
	fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return true;
	}
	close(fd);
	return false;
}

/* Start the next request. */
static void
request_start(trace *t)
{
	char range[64], why[160];
	if (file_problem(t, why, sizeof why)) {
		set_err(t, "%s: %s", t->shown, why);
		t->completed = true; /* failed: as complete as it gets (for --once) */
		answer_failed(t);
		return;
	}
	t->prime = false;
	t->from = t->want_end = -1;
	t->overlap_need = t->overlap_seen = t->new_bytes = 0;
	t->began = t->replaced = t->bad_answer = t->too_big = false;
	t->code = 0;
	t->cr_start = t->cr_total = t->clen = -1;
	t->base = -1;
	t->got = 0;
	t->errbuf[0] = '\0';
	sbuf_reset(&t->body);
	if (t->kind == KG_TRACE_JOLOKIA) {
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
	t->active = true;
	t->req_mono = t->last_byte = util_mono_us();
	t->st.requests++;
	if (log_enabled(KG_LOG_DEBUG)) {
		if (t->kind == KG_TRACE_JOLOKIA)
			tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": bulk read", t->st.requests);
		else if (t->prime)
			tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": the last %d bytes (start at the end)", t->st.requests,
			     TAIL);
		else if (t->streaming)
			tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": the live stream again", t->st.requests);
		else
			tlog(t, KG_LOG_DEBUG, "request %" PRIu64 ": bytes %" PRId64 "-%" PRId64, t->st.requests, t->from,
			     t->want_end);
	}
	if (curl_multi_add_handle(t->multi, t->easy) != CURLM_OK) {
		t->active = false;
		t->failures++;
		t->st.failures++;
		set_err(t, "cannot start a request");
		set_status(t, KG_SRC_ERROR);
		t->next_at = util_mono_us() + backoff(t, t->failures);
		tlog(t, KG_LOG_INFO, "%s; retry in %.1fs (failure %d)", t->err, (double)backoff(t, t->failures) / 1e6,
		     t->failures);
	}
}

/* Read the file again from its first byte (it was replaced or truncated). */
static void
restart_from_zero(trace *t)
{
	if (t->st.rotations + t->st.truncations > 0)
		tlog(t, KG_LOG_INFO, "%s at byte %" PRId64 " (rotated %" PRIu64 "x, truncated %" PRIu64
				     "x so far): reading it again from its start",
		     t->replaced && !(t->cr_total >= 0 && t->cr_total < t->offset) ? "the file was replaced"
										: "the file is shorter than what was read",
		     t->offset, t->st.rotations, t->st.truncations);
	t->started = true;
	t->streaming = false;
	t->offset = 0;
	t->ntail = 0;
	parse_lines_reset(&t->lines);
	t->next_at = util_mono_us();
}

/* A good answer. */
static void
answer_ok(trace *t)
{
	if (t->status == KG_SRC_CONNECTING || (t->status == KG_SRC_ERROR && t->failures > 0)) {
		char how[64];
		if (t->is_file)
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
answer_failed(trace *t)
{
	t->failures++;
	t->st.failures++;
	set_status(t, KG_SRC_ERROR);
	t->news = true;
	t->next_at = util_mono_us() + backoff(t, t->failures);
	tlog(t, KG_LOG_INFO, "%s; retry in %.1fs (failure %d)", t->err[0] ? t->err : "failed",
	     (double)backoff(t, t->failures) / 1e6, t->failures);
}

/* The Jolokia answer is complete. */
static void
jolokia_done(trace *t)
{
	kg_jolokia_result res;
	char err[200];
	size_t before = t->q.n;
	if (parse_jolokia_response(t->body.s ? t->body.s : "", t->body.len, t->now, &t->q, &res, err, sizeof err) < 0) {
		set_err(t, "not a Jolokia answer: %s", err);
		answer_failed(t);
		return;
	}
	t->st.obs += t->q.n - before;
	if (res.reads > 0 && res.failed == res.reads) {
		set_err(t, "every read failed: %s", res.error);
		answer_failed(t);
		return;
	}
	if (res.failed > 0)
		snprintf(t->detail, sizeof t->detail, "%d client%s; %d of %d reads failed: %s", res.clients,
			 res.clients == 1 ? "" : "s", res.failed, res.reads, res.error);
	else
		snprintf(t->detail, sizeof t->detail, "%d client%s", res.clients, res.clients == 1 ? "" : "s");
	util_sanitize_text(t->detail);
	answer_ok(t);
}

/* The request ended with curl result rc. */
static void
request_done(trace *t, CURLcode rc)
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
		const kg_parse_counts *c = &t->st.counts;
		tlog(t, KG_LOG_DEBUG,
		     "answer %" PRIu64 ": %s, code %ld, %" PRId64 " bytes in %.0f ms; %" PRIu64 " lines, %" PRIu64
		     " events, %" PRIu64 " unparsed, %" PRIu64 " malformed, %" PRIu64 " too long so far; offset %" PRId64,
		     t->st.requests, rc == CURLE_OK ? "done" : curl_easy_strerror(rc), t->code, t->got,
		     (double)(mono - t->req_mono) / 1e3, t->st.lines, t->st.obs, c->n[KG_PARSE_UNPARSED],
		     c->n[KG_PARSE_MALFORMED], (uint64_t)t->lines.oversize, t->streaming ? (int64_t)-1 : t->offset);
	}

	if (t->kind == KG_TRACE_JOLOKIA) {
		if (rc != CURLE_OK && !t->too_big) {
			set_err(t, "%s: %s", t->shown, t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
			answer_failed(t);
		} else if (t->too_big) {
			set_err(t, "%s: answer larger than %u MiB", t->shown, MAX_BODY >> 20);
			answer_failed(t);
		} else if (t->bad_answer) {
			set_err(t, "%s: HTTP %ld", t->shown, t->code);
			answer_failed(t);
		} else {
			jolokia_done(t);
		}
		/* fixed rate: one request per interval from its start */
		if (t->failures == 0)
			t->next_at = t->req_mono + t->cfg.interval_us;
		return;
	}

	if (t->replaced) {
		/* shorter than what we read: truncated in place; else a new file */
		if (t->cr_total >= 0 && t->cr_total < t->offset)
			t->st.truncations++;
		else
			t->st.rotations++;
		restart_from_zero(t);
		answer_ok(t);
		return;
	}
	if (t->bad_answer && t->code == 416 && !t->streaming) {
		/* nothing at or after the first byte asked for */
		if (t->prime) {
			t->started = true;
			t->offset = KG_MAX(t->cr_total, 0);
			t->ntail = 0;
			answer_ok(t);
		} else if (t->cr_total >= 0 && t->cr_total < t->offset) {
			t->st.truncations++;
			restart_from_zero(t);
			answer_ok(t);
		} else {
			answer_ok(t);
		}
		return;
	}
	if (t->bad_answer) {
		if (t->code >= 300 && t->code < 400)
			set_err(t, "%s: HTTP %ld (redirects are not followed: give the final URL)", t->shown, t->code);
		else
			set_err(t, "%s: HTTP %ld", t->shown, t->code);
		answer_failed(t);
		return;
	}
	if (rc == CURLE_BAD_DOWNLOAD_RESUME && t->is_file) {
		/* file:// asked past the end of the file */
		if (t->prime) {
			t->started = true;
			t->offset = KG_MAX(t->clen, 0);
			t->ntail = 0;
		} else {
			t->st.truncations++;
			restart_from_zero(t);
		}
		answer_ok(t);
		return;
	}
	if (rc != CURLE_OK) {
		/* keep what arrived: the next request resumes after it */
		set_err(t, "%s: %s", t->shown, t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
		if (t->prime)
			t->ntail = 0; /* start at the end again */
		answer_failed(t);
		return;
	}
	if (t->base < 0) {
		/* a live stream ended: reopen after the interval */
		tlog(t, KG_LOG_INFO, "the live stream ended after %" PRId64 " bytes: reopening in %.1fs", t->got,
		     (double)t->cfg.interval_us / 1e6);
		answer_ok(t);
		return;
	}
	if (t->prime) {
		t->started = true;
		/* joined mid-line: skip through the next newline */
		if (t->ntail > 0 && t->tail[t->ntail - 1] != '\n')
			parse_lines_resync(&t->lines);
		answer_ok(t);
		return;
	}
	if (t->overlap_seen < t->overlap_need) {
		/* the file ends before the offset */
		t->st.truncations++;
		restart_from_zero(t);
		answer_ok(t);
		return;
	}
	if (t->new_bytes >= (int64_t)t->cfg.chunk) {
		t->next_at = mono; /* more is waiting */
		if (!t->complete_told)
			t->completed = false;
	}
	answer_ok(t);
}

/* Abort the request in flight after a timeout. */
static void
request_abort(trace *t, bool quiet)
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

/* Let curl work on ready sockets and due timers; finish completed transfers. */
static void
drive(trace *t)
{
	struct pollfd pfd[MAX_SOCKS];
	int n = t->nsock, i, running, loops;
	CURLMsg *msg;
	int left;
	long ms = -1;
	for (i = 0; i < n; i++) {
		pfd[i].fd = t->sock[i].fd;
		pfd[i].events = (short)((t->sock[i].what & CURL_POLL_IN ? POLLIN : 0) |
					(t->sock[i].what & CURL_POLL_OUT ? POLLOUT : 0));
		pfd[i].revents = 0;
	}
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

/* -------------------------------------------------------- source ops */

/* Make progress without blocking. */
static int
trace_poll(kg_source *s, int64_t now_us)
{
	trace *t = s->impl;
	int64_t mono;
	int flags = 0;
	t->now = now_us;
	if (t->active)
		drive(t);
	mono = util_mono_us();
	if (t->active) {
		int64_t idle = mono - t->last_byte;
		bool stream = t->began && t->base < 0 && !t->bad_answer && t->kind != KG_TRACE_JOLOKIA;
		if (stream && idle >= t->cfg.idle_timeout_us) {
			request_abort(t, true);
		} else if (!stream && idle >= t->cfg.read_timeout_us) {
			set_err(t, "%s: %s (%.1fs without data)", t->shown,
				t->began ? "read timeout" : "no answer", (double)idle / 1e6);
			request_abort(t, false);
		} else if (stream) {
			/* an open live stream is a healthy source, quiet or not */
			t->last_ok = util_now_us();
			t->last_ok_mono = mono;
			set_status(t, KG_SRC_OK);
		}
	}
	if (!t->active && mono >= t->next_at) {
		request_start(t);
		if (t->active)
			drive(t);
	}
	if (t->q.n > 0 || t->news)
		flags |= KG_SRC_NEWS;
	t->news = false;
	if (t->completed && !t->complete_told) {
		t->complete_told = true;
		flags |= KG_SRC_COMPLETE;
	}
	return flags;
}

/* Hand over the observations. */
static void
trace_drain(kg_source *s, kg_obsq *q)
{
	trace *t = s->impl;
	size_t i;
	if (t->kind == KG_TRACE_JSONL || t->kind == KG_TRACE_LOG) {
		for (i = 0; i < t->q.n; i++)
			tgview_update(t->groups, t->q.v[i]);
	}
	if (q != NULL)
		obsq_move(q, &t->q);
	else
		obsq_clear(&t->q);
}

/* The health message of a working source: what it read and skipped. */
static void
health_detail(const trace *t, sbuf *b)
{
	const kg_parse_counts *c = &t->st.counts;
	if (t->kind == KG_TRACE_JOLOKIA) {
		sbuf_adds(b, t->detail[0] ? t->detail : "no answer yet");
		if (t->plain_creds)
			sbuf_adds(b, "; credentials sent unencrypted (http://)");
		return;
	}
	sbuf_addf(b, "%" PRIu64 " event%s from %" PRIu64 " line%s", t->st.obs, t->st.obs == 1 ? "" : "s", t->st.lines,
		  t->st.lines == 1 ? "" : "s");
	if (c->n[KG_PARSE_UNPARSED] > 0)
		sbuf_addf(b, "; %" PRIu64 " unparsed", c->n[KG_PARSE_UNPARSED]);
	if (c->n[KG_PARSE_MALFORMED] > 0)
		sbuf_addf(b, "; %" PRIu64 " malformed", c->n[KG_PARSE_MALFORMED]);
	if (t->lines.oversize > 0)
		sbuf_addf(b, "; %" PRIu64 " too long", t->lines.oversize);
	if (t->st.rotations > 0)
		sbuf_addf(b, "; rotated %" PRIu64 "x", t->st.rotations);
	if (t->st.truncations > 0)
		sbuf_addf(b, "; truncated %" PRIu64 "x", t->st.truncations);
	if (t->streaming)
		sbuf_adds(b, "; live stream");
	if (t->plain_creds)
		sbuf_adds(b, "; credentials sent unencrypted (http://)");
}

/* Add this source's health. */
static void
trace_contribute(kg_source *s, kg_builder *b)
{
	trace *t = s->impl;
	kg_source_health h;
	sbuf m = { 0 };
	int64_t mono = util_mono_us();
	int64_t stale_after = KG_MAX(3 * t->cfg.interval_us, 5 * 1000000);
	memset(&h, 0, sizeof h);
	h.name = s->name;
	h.status = t->status;
	h.since_us = t->since;
	h.last_ok_us = t->last_ok;
	/* insecure: TLS without verification; plain http has no TLS to verify (see health_detail) */
	h.insecure = t->cfg.insecure && t->is_https;
	switch (t->status) {
	case KG_SRC_ERROR:
		sbuf_adds(&m, t->err[0] ? t->err : "failed");
		if (!t->active && t->next_at > mono)
			sbuf_addf(&m, "; retry in %.0fs", (double)(t->next_at - mono) / 1e6 + 0.49);
		break;
	case KG_SRC_OK:
		if (mono - t->last_ok_mono > stale_after) {
			h.status = KG_SRC_STALE;
			h.since_us = t->last_ok + stale_after;
			sbuf_addf(&m, "no answer for %.0fs; ", (double)(mono - t->last_ok_mono) / 1e6);
		}
		health_detail(t, &m);
		break;
	default:
		sbuf_addf(&m, "connecting to %s", t->shown);
		break;
	}
	h.message = sbuf_str(&m);
	builder_source(b, &h);
	sbuf_free(&m);
	if (t->kind == KG_TRACE_JSONL || t->kind == KG_TRACE_LOG)
		tgview_contribute(t->groups, b);
}

/* When poll() should run next (wall clock). */
static int64_t
trace_next_poll(kg_source *s)
{
	trace *t = s->impl;
	int64_t mono = util_mono_us(), at;
	if (t->active) {
		int64_t limit = t->began && t->base < 0 && t->kind != KG_TRACE_JOLOKIA ? t->cfg.idle_timeout_us
										  : t->cfg.read_timeout_us;
		at = t->last_byte + limit;
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
static int
trace_fds(kg_source *s, struct pollfd *pfd, int max)
{
	trace *t = s->impl;
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

/* "refresh": ask again now. */
static int
trace_command(kg_source *s, const char *cmd, char *err, size_t errsz)
{
	trace *t = s->impl;
	if (strcmp(cmd, "refresh") == 0) {
		if (!t->active)
			t->next_at = util_mono_us();
		return 0;
	}
	return util_err(err, errsz, "%s: unknown command \"%s\"", s->name, cmd);
}

/* Close handles and free. */
static void
trace_close(kg_source *s)
{
	trace *t = s->impl;
	if (t == NULL)
		return;
	if (t->active)
		curl_multi_remove_handle(t->multi, t->easy);
	curl_easy_cleanup(t->easy);
	curl_multi_cleanup(t->multi);
	curl_slist_free_all(t->headers);
	obsq_clear(&t->q);
	tgview_free(t->groups);
	free(t->q.v);
	sbuf_free(&t->body);
	parse_lines_free(&t->lines);
	parse_log_free(&t->plog);
	free(t->url);
	free(t->shown);
	free(t->path);
	free(t->user);
	free(t->pass);
	free(t);
	s->impl = NULL;
}

static const kg_source_ops trace_ops = {
	.kind = "trace",
	.role = KG_ROLE_TRACE,
	.poll = trace_poll,
	.drain = trace_drain,
	.contribute = trace_contribute,
	.next_poll = trace_next_poll,
	.fds = trace_fds,
	.command = trace_command,
	.close = trace_close,
};

/* Counters of a trace source. */
int
trace_source_stats(kg_source *s, kg_trace_stats *st)
{
	trace *t;
	if (s == NULL || s->ops != &trace_ops || s->impl == NULL)
		return -1;
	t = s->impl;
	*st = t->st;
	st->counts.oversize = t->lines.oversize;
	st->offset = t->started && !t->streaming ? t->offset : -1;
	return 0;
}

/* Fill defaults into a copy of the config. */
static void
config_defaults(kg_trace_config *c, kg_trace_kind kind)
{
	if (c->interval_us <= 0)
		c->interval_us = DEF_INTERVAL;
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
	if (c->max_line == 0)
		c->max_line = kind == KG_TRACE_RDSTATS ? DEF_MAX_LINE_RDSTATS : DEF_MAX_LINE;
	if (c->chunk == 0)
		c->chunk = DEF_CHUNK;
	c->specs = NULL;
	c->nspecs = 0;
	c->headers_file = NULL;
}

/* Build the curl handles of one source. */
static void
trace_setup_curl(trace *t, const struct curl_slist *extra)
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
	if (t->kind == KG_TRACE_JOLOKIA) {
		t->headers = curl_slist_append(t->headers, "Content-Type: application/json");
		if (t->headers == NULL)
			util_oom();
		curl_easy_setopt(t->easy, CURLOPT_POSTFIELDS, parse_jolokia_request());
		curl_easy_setopt(t->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(parse_jolokia_request()));
		curl_easy_setopt(t->easy, CURLOPT_ACCEPT_ENCODING, "");
	}
	curl_easy_setopt(t->easy, CURLOPT_URL, t->url);
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

/* Create every source. */
int
trace_sources_new(const kg_trace_config *cfg, kg_source **out, size_t *nout, char *err, size_t errsz)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct curl_slist *extra = NULL;
	spec *specs;
	size_t i, j;
	*nout = 0;
	pthread_once(&once, global_init);
	if (cfg->nspecs == 0)
		return 0;
	specs = xcalloc(cfg->nspecs, sizeof *specs);
	for (i = 0; i < cfg->nspecs; i++) {
		if (spec_parse(cfg->specs[i], &specs[i], err, errsz) < 0)
			goto fail;
	}
	if (cfg->headers_file != NULL && headers_read(cfg->headers_file, &extra, err, errsz) < 0)
		goto fail;
	for (i = 0; i < cfg->nspecs; i++) {
		trace *t = xcalloc(1, sizeof *t);
		char name[64];
		int dup = 1;
		t->kind = specs[i].kind;
		t->groups = tgview_new();
		t->url = specs[i].url;
		t->shown = specs[i].shown;
		t->user = specs[i].user;
		t->pass = specs[i].pass;
		t->is_file = specs[i].is_file;
		t->path = specs[i].path;
		specs[i].path = NULL;
		t->is_https = specs[i].is_https;
		t->plain_creds = !t->is_file && !t->is_https && (t->user != NULL || t->pass != NULL || extra != NULL);
		specs[i].url = specs[i].shown = specs[i].user = specs[i].pass = NULL;
		t->cfg = *cfg;
		config_defaults(&t->cfg, t->kind);
		t->started = cfg->from_start && t->kind != KG_TRACE_JOLOKIA;
		t->offset = t->started ? 0 : -1;
		t->status = KG_SRC_CONNECTING;
		t->since = util_now_us();
		t->next_at = util_mono_us();
		t->st.offset = -1;
		t->st.bytes_first_line = -1;
		parse_lines_init(&t->lines, t->cfg.max_line);
		parse_log_init(&t->plog);
		trace_setup_curl(t, extra);
		/* names are unique: log:broker-1, log:broker-1#2 */
		util_strlcpy(name, specs[i].name, sizeof name);
		for (j = 0; j < *nout; j++) {
			if (strcmp(out[j]->name, name) == 0) {
				char *nm = xasprintf("%.52s#%d", specs[i].name, ++dup);
				util_strlcpy(name, nm, sizeof name);
				free(nm);
				j = (size_t)-1;
			}
		}
		out[*nout] = source_new(&trace_ops, name, t);
		t->src = out[*nout];
		(*nout)++;
		tlog(t, KG_LOG_INFO, "%s, %s; every %.1fs%s%s%s", t->shown,
		     t->kind == KG_TRACE_JOLOKIA ? "one bulk read per interval"
		     : t->started		 ? "from its start"
						 : "from its end",
		     (double)t->cfg.interval_us / 1e6, t->cfg.insecure && t->is_https ? "; TLS not verified" : "",
		     extra != NULL ? "; with the --trace-headers lines (not logged)" : "",
		     t->plain_creds ? "; credentials sent unencrypted (http://)" : "");
	}
	curl_slist_free_all(extra);
	for (i = 0; i < cfg->nspecs; i++)
		spec_free(&specs[i]);
	free(specs);
	return 0;
fail:
	curl_slist_free_all(extra);
	for (i = 0; i < cfg->nspecs; i++)
		spec_free(&specs[i]);
	free(specs);
	return -1;
}

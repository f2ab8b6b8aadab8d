/*
 * httpd.c: the trace tests' HTTP server (see httpd.h).
 *
 * One accept thread, one detached thread per connection; every blocking
 * wait is a poll() of at most 50 ms that also checks the stop flag, so
 * httpd_stop() returns promptly with clients still connected.  The server
 * is deliberately small: one request line, a few headers, single ranges.
 */
#include "config.h"

#include "httpd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REQ_MAX 16384
#define KG_MIN_I(a, b) ((a) < (b) ? (a) : (b))

struct kg_httpd {
	char *root;
	int lfd;
	int port;
	pthread_t accept_thread;
	atomic_bool stop;
	atomic_int active; /* connection threads running */
	pthread_mutex_t lock;
	kg_httpd_stats st;
	long drops;
	long stream_ms;
	long fail500;     /* > 0: files and streams answer 500 */
	long trickle_ms;  /* > 0: live streams send one byte (never a newline) per trickle_ms */
	long flood_lines; /* /flood: lines before the marker line (0: endless) */
	uint64_t flood_n; /* /flood: members named so far, across connections */
};

typedef struct conn {
	kg_httpd *h;
	int fd;
} conn;

typedef struct req {
	char method[8];
	char path[1024];
	char range[128];
	char token[128];
	long clen;
	bool close;
	char *body;
} req;

/* Monotonic milliseconds. */
static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wall-clock milliseconds since the epoch. */
static int64_t
now_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until fd is ready for events or the server stops; 1 ready, 0 timeout, -1 stop/error. */
static int
wait_fd(kg_httpd *h, int fd, short events, int timeout_ms)
{
	int64_t end = now_ms() + timeout_ms;
	for (;;) {
		struct pollfd p = { fd, events, 0 };
		int64_t left = end - now_ms();
		int rc;
		if (atomic_load(&h->stop))
			return -1;
		if (left <= 0)
			return 0;
		rc = poll(&p, 1, (int)KG_MIN_I(left, 50));
		if (rc > 0)
			return (p.revents & (POLLERR | POLLNVAL)) && !(p.revents & events) ? -1 : 1;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/* Send all bytes; 0 or -1. */
static int
send_all(kg_httpd *h, int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t k;
		if (wait_fd(h, fd, POLLOUT, 5000) <= 0)
			return -1;
		k = send(fd, c, n, MSG_NOSIGNAL);
		if (k < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Send formatted text. */
static int
sendf(kg_httpd *h, int fd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int
sendf(kg_httpd *h, int fd, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof buf)
		return -1;
	return send_all(h, fd, buf, (size_t)n);
}

/* Count body bytes sent. */
static void
count_body(kg_httpd *h, uint64_t n)
{
	pthread_mutex_lock(&h->lock);
	h->st.body_bytes += n;
	pthread_mutex_unlock(&h->lock);
}

/* Read one request (head and body) into r; buf keeps bytes read past it. 0, -1 when the client is gone, -2 for TLS. */
static int
read_request(kg_httpd *h, int fd, char *buf, size_t *have, req *r)
{
	char *end, *line, *next;
	size_t head;
	memset(r, 0, sizeof *r);
	r->clen = -1;
	while ((end = memmem(buf, *have, "\r\n\r\n", 4)) == NULL) {
		ssize_t k;
		if (*have >= REQ_MAX - 1)
			return -1;
		if (wait_fd(h, fd, POLLIN, 30000) <= 0)
			return -1;
		k = recv(fd, buf + *have, REQ_MAX - 1 - *have, 0);
		if (k <= 0)
			return -1;
		*have += (size_t)k;
		if ((unsigned char)buf[0] == 0x16)
			return -2; /* a TLS handshake: this server speaks plain HTTP */
	}
	head = (size_t)(end - buf) + 4;
	*end = '\0';
	line = buf;
	next = strstr(line, "\r\n");
	if (next != NULL)
		*next = '\0';
	if (sscanf(line, "%7s %1023s", r->method, r->path) != 2)
		return -1;
	while (next != NULL) {
		line = next + 2;
		next = strstr(line, "\r\n");
		if (next != NULL)
			*next = '\0';
		if (strncasecmp(line, "Range:", 6) == 0)
			snprintf(r->range, sizeof r->range, "%s", line + 6 + strspn(line + 6, " "));
		else if (strncasecmp(line, "X-Kgtop-Token:", 14) == 0)
			snprintf(r->token, sizeof r->token, "%s", line + 14 + strspn(line + 14, " "));
		else if (strncasecmp(line, "Content-Length:", 15) == 0)
			r->clen = atol(line + 15);
		else if (strncasecmp(line, "Connection:", 11) == 0 && strcasestr(line, "close") != NULL)
			r->close = true;
	}
	memmove(buf, buf + head, *have - head);
	*have -= head;
	if (r->clen > 0) {
		size_t take;
		if (r->clen > 1 << 20)
			return -1;
		r->body = malloc((size_t)r->clen + 1);
		if (r->body == NULL)
			return -1;
		take = KG_MIN_I(*have, (size_t)r->clen);
		memcpy(r->body, buf, take);
		memmove(buf, buf + take, *have - take);
		*have -= take;
		while (take < (size_t)r->clen) {
			ssize_t k;
			if (wait_fd(h, fd, POLLIN, 30000) <= 0)
				return -1;
			k = recv(fd, r->body + take, (size_t)r->clen - take, 0);
			if (k <= 0)
				return -1;
			take += (size_t)k;
		}
		r->body[r->clen] = '\0';
	}
	return 0;
}

/* Record a request. */
static void
record(kg_httpd *h, const req *r)
{
	pthread_mutex_lock(&h->lock);
	h->st.requests++;
	snprintf(h->st.last_method, sizeof h->st.last_method, "%s", r->method);
	snprintf(h->st.last_path, sizeof h->st.last_path, "%.255s", r->path);
	snprintf(h->st.last_range, sizeof h->st.last_range, "%s", r->range);
	/*
	 * the last token a request carried: connections are served a thread
	 * each, so a closed client's last tokenless request can be recorded
	 * after a later client's (test_http_credentials failed so in CI)
	 */
	if (r->token[0] != '\0')
		snprintf(h->st.last_token, sizeof h->st.last_token, "%s", r->token);
	if (r->body != NULL)
		snprintf(h->st.last_body, sizeof h->st.last_body, "%.8191s", r->body);
	pthread_mutex_unlock(&h->lock);
}

/* Send a short status answer. */
static int
status(kg_httpd *h, int fd, int code, const char *reason, bool head)
{
	char body[128];
	int n = snprintf(body, sizeof body, "%d %s\n", code, reason);
	if (sendf(h, fd, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", code, reason, n) <
	    0)
		return -1;
	return head ? 0 : send_all(h, fd, body, (size_t)n);
}

/* Open root/name for reading (no path tricks); -1 when absent. */
static int
open_file(kg_httpd *h, const char *name, off_t *size)
{
	char path[2048];
	struct stat sb;
	int fd;
	if (*name == '\0' || strstr(name, "..") != NULL || strchr(name, '/') != NULL)
		return -1;
	snprintf(path, sizeof path, "%s/%s", h->root, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0) {
		close(fd);
		return -1;
	}
	*size = sb.st_size;
	return fd;
}

/* Send len bytes of file fd from off. */
static int
send_file(kg_httpd *h, int sock, int fd, off_t off, off_t len)
{
	char buf[65536];
	while (len > 0) {
		ssize_t k = pread(fd, buf, (size_t)KG_MIN_I(len, (off_t)sizeof buf), off);
		if (k <= 0)
			return -1;
		if (send_all(h, sock, buf, (size_t)k) < 0)
			return -1;
		count_body(h, (uint64_t)k);
		off += k;
		len -= k;
	}
	return 0;
}

/* Parse "bytes=a-b", "bytes=a-", "bytes=-n" against size; 0 ok, 1 unsatisfiable, -1 unparsable. */
static int
parse_range(const char *r, off_t size, off_t *start, off_t *end)
{
	const char *p;
	char *e;
	long long a, b;
	if (strncmp(r, "bytes=", 6) != 0)
		return -1;
	p = r + 6;
	if (*p == '-') {
		b = strtoll(p + 1, &e, 10);
		if (e == p + 1 || b <= 0)
			return -1;
		if (size == 0)
			return 1;
		*start = size > b ? size - b : 0;
		*end = size - 1;
		return 0;
	}
	a = strtoll(p, &e, 10);
	if (e == p || *e != '-' || a < 0)
		return -1;
	p = e + 1;
	if (*p == '\0') {
		b = (long long)size - 1;
	} else {
		b = strtoll(p, &e, 10);
		if (e == p || b < a)
			return -1;
	}
	if (a >= size)
		return 1;
	*start = a;
	*end = b < size ? b : size - 1;
	return 0;
}

/* A static file, with ranges unless norange; cut the body in half while drops last. */
static int
serve_file(kg_httpd *h, int sock, const req *r, const char *name, bool ranges, bool may_drop)
{
	off_t size, start = 0, end, len;
	int fd = open_file(h, name, &size), rc;
	bool head = strcmp(r->method, "HEAD") == 0, drop = false;
	if (fd < 0)
		return status(h, sock, 404, "Not Found", head);
	end = size - 1;
	if (ranges && r->range[0] != '\0') {
		rc = parse_range(r->range, size, &start, &end);
		if (rc == 1) {
			close(fd);
			return sendf(h, sock, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */%lld\r\n"
					      "Content-Length: 0\r\n\r\n",
				     (long long)size);
		}
		if (rc < 0) {
			start = 0;
			end = size - 1;
		}
	}
	len = end - start + 1;
	if (size == 0)
		len = 0;
	if (may_drop && len >= 2) {
		pthread_mutex_lock(&h->lock);
		if (h->drops > 0) {
			h->drops--;
			drop = true;
		}
		pthread_mutex_unlock(&h->lock);
	}
	if (ranges && r->range[0] != '\0' && size > 0)
		rc = sendf(h, sock, "HTTP/1.1 206 Partial Content\r\nAccept-Ranges: bytes\r\nContent-Range: bytes %lld-%lld/%lld\r\n"
				    "Content-Length: %lld\r\n\r\n",
			   (long long)start, (long long)end, (long long)size, (long long)len);
	else
		rc = sendf(h, sock, "HTTP/1.1 200 OK\r\n%sContent-Length: %lld\r\n\r\n",
			   ranges ? "Accept-Ranges: bytes\r\n" : "", (long long)len);
	if (rc == 0 && !head)
		rc = send_file(h, sock, fd, start, drop ? len / 2 : len);
	close(fd);
	return drop ? -1 : rc;
}

/* A live stream: the file from its start, then its growth, chunked, for stream_ms. */
static int
serve_chunked(kg_httpd *h, int sock, const req *r, const char *name)
{
	off_t size, sent = 0;
	int fd = open_file(h, name, &size);
	int64_t end;
	char buf[65536];
	if (fd < 0)
		return status(h, sock, 404, "Not Found", false);
	if (sendf(h, sock, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n") < 0 ||
	    strcmp(r->method, "HEAD") == 0) {
		close(fd);
		return -1;
	}
	pthread_mutex_lock(&h->lock);
	end = now_ms() + h->stream_ms;
	pthread_mutex_unlock(&h->lock);
	while (now_ms() < end && !atomic_load(&h->stop)) {
		ssize_t k = pread(fd, buf, sizeof buf, sent);
		if (k > 0) {
			if (sendf(h, sock, "%zx\r\n", (size_t)k) < 0 || send_all(h, sock, buf, (size_t)k) < 0 ||
			    send_all(h, sock, "\r\n", 2) < 0) {
				close(fd);
				return -1;
			}
			count_body(h, (uint64_t)k);
			sent += k;
			continue;
		}
		/* nothing new: wait a little, or notice the client leaving */
		if (wait_fd(h, sock, POLLIN, 10) != 0) {
			close(fd);
			return -1;
		}
	}
	close(fd);
	if (atomic_load(&h->stop))
		return -1;
	return send_all(h, sock, "0\r\n\r\n", 5);
}

/*
 * A trickle, one byte every every_ms until the client leaves: a live
 * stream of bytes that are no newline (name NULL), or the file name with
 * its length, one byte of it at a time.
 */
static int
serve_trickle(kg_httpd *h, int sock, const char *name, long every_ms)
{
	off_t size = 0, at = 0;
	int fd = -1, rc = -1;
	if (name != NULL && (fd = open_file(h, name, &size)) < 0)
		return status(h, sock, 404, "Not Found", false);
	if (fd >= 0)
		rc = sendf(h, sock, "HTTP/1.1 200 OK\r\nContent-Length: %lld\r\n\r\n", (long long)size);
	else
		rc = sendf(h, sock, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
	while (rc == 0 && !atomic_load(&h->stop) && (fd < 0 || at < size)) {
		char b = 'x';
		if (fd >= 0 && pread(fd, &b, 1, at++) != 1)
			break;
		rc = fd >= 0 ? send_all(h, sock, &b, 1) : send_all(h, sock, "1\r\nx\r\n", 6);
		count_body(h, 1);
		if (rc == 0 && wait_fd(h, sock, POLLIN, (int)every_ms) != 0)
			rc = -1; /* the client left */
	}
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * A flood of jsonl lines, each naming a new member of g-flood, as fast as
 * the client reads; after flood_lines of them (0: never) one line of the
 * group g-flood-end, then silence until the client leaves.
 */
static int
serve_flood(kg_httpd *h, int sock)
{
	char buf[65536];
	long limit, sent = 0;
	pthread_mutex_lock(&h->lock);
	limit = h->flood_lines;
	pthread_mutex_unlock(&h->lock);
	if (sendf(h, sock, "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n") < 0)
		return -1;
	while (!atomic_load(&h->stop) && (limit == 0 || sent < limit)) {
		size_t n = 0;
		while (n < sizeof buf - 512 && (limit == 0 || sent < limit)) {
			uint64_t id;
			pthread_mutex_lock(&h->lock);
			id = ++h->flood_n;
			pthread_mutex_unlock(&h->lock);
			n += (size_t)snprintf(buf + n, sizeof buf - n,
					      "{\"v\":1,\"ts\":%lld,\"kind\":\"assigned\",\"group\":\"g-flood\",\"member\":"
					      "\"consumer-%llu-5f1c2a9e-7d3b-4c61-9a0e-%012llu\",\"partitions\":{\"orders\":[0]}}\n",
					      (long long)now_wall_ms(), (unsigned long long)id, (unsigned long long)id);
			sent++;
		}
		if (sendf(h, sock, "%zx\r\n", n) < 0 || send_all(h, sock, buf, n) < 0 || send_all(h, sock, "\r\n", 2) < 0)
			return -1;
		count_body(h, n);
	}
	if (limit > 0) {
		int n = snprintf(buf, sizeof buf, "{\"v\":1,\"ts\":%lld,\"kind\":\"assigned\",\"group\":\"g-flood-end\","
						  "\"member\":\"marker\",\"partitions\":{\"orders\":[1]}}\n",
				 (long long)now_wall_ms());
		if (sendf(h, sock, "%x\r\n", n) < 0 || send_all(h, sock, buf, (size_t)n) < 0 || send_all(h, sock, "\r\n", 2) < 0)
			return -1;
	}
	while (!atomic_load(&h->stop) && wait_fd(h, sock, POLLIN, 50) == 0)
		;
	return -1;
}

/*
 * Hostile answers to a viewer (issue 25), as fast as the client reads:
 * "longline" a 200 without length whose body never has a newline;
 * "clen" a Content-Length of 100 GB and such a body; "ticks" the file
 * stream-head.kgrec (a recording header and its first tick, n 0), then
 * an endless run of valid empty ticks, numbered on.  "silent": the
 * request read, then nothing at all (no status line) until the client
 * leaves.
 */
static int
serve_hostile(kg_httpd *h, int sock, const char *what)
{
	char buf[65536];
	long long n = 1;
	int64_t t0 = now_wall_ms() * 1000;
	if (strcmp(what, "silent") == 0) {
		while (!atomic_load(&h->stop) && wait_fd(h, sock, POLLIN, 50) == 0)
			;
		return -1;
	}
	if (strcmp(what, "longline") == 0 || strcmp(what, "clen") == 0) {
		bool chunked = strcmp(what, "longline") == 0;
		memset(buf, 'A', sizeof buf);
		if (sendf(h, sock, chunked ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
					   : "HTTP/1.1 200 OK\r\nContent-Length: 100000000000\r\n\r\n") < 0)
			return -1;
		while (!atomic_load(&h->stop)) {
			if ((chunked && sendf(h, sock, "%zx\r\n", sizeof buf) < 0) || send_all(h, sock, buf, sizeof buf) < 0 ||
			    (chunked && send_all(h, sock, "\r\n", 2) < 0))
				return -1;
			count_body(h, sizeof buf);
		}
		return -1;
	}
	if (strcmp(what, "ticks") == 0) {
		off_t size;
		int fd = open_file(h, "stream-head.kgrec", &size);
		if (fd < 0)
			return status(h, sock, 404, "Not Found", false);
		if (sendf(h, sock, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") < 0 ||
		    sendf(h, sock, "%llx\r\n", (long long)size) < 0 || send_file(h, sock, fd, 0, size) < 0 ||
		    send_all(h, sock, "\r\n", 2) < 0) {
			close(fd);
			return -1;
		}
		close(fd);
		while (!atomic_load(&h->stop)) {
			size_t k = 0;
			while (k < sizeof buf - 128) {
				k += (size_t)snprintf(buf + k, sizeof buf - k, "{\"t\":%lld,\"n\":%lld,\"refresh\":{\"n\":%lld,\"data_time\":%lld,\"interval\":1000000}}\n",
						      (long long)(t0 + n * 1000), n, n + 1000, (long long)(t0 + n * 1000));
				n++;
			}
			if (sendf(h, sock, "%zx\r\n", k) < 0 || send_all(h, sock, buf, k) < 0 || send_all(h, sock, "\r\n", 2) < 0)
				return -1;
			count_body(h, k);
		}
		return -1;
	}
	return status(h, sock, 404, "Not Found", false);
}

/* The file in one chunk, then the connection closed without the last chunk: a stream that breaks. */
static int
serve_cut(kg_httpd *h, int sock, const char *name)
{
	off_t size;
	int fd = open_file(h, name, &size);
	if (fd < 0)
		return status(h, sock, 404, "Not Found", false);
	if (sendf(h, sock, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%llx\r\n", (long long)size) == 0 &&
	    send_file(h, sock, fd, 0, size) == 0)
		send_all(h, sock, "\r\n", 2);
	close(fd);
	return -1;
}

/* Headers and a few bytes, then nothing until the client gives up. */
static int
serve_slow(kg_httpd *h, int sock)
{
	char b;
	if (sendf(h, sock, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n[2026-11-") < 0)
		return -1;
	while (!atomic_load(&h->stop)) {
		int rc = wait_fd(h, sock, POLLIN, 50);
		if (rc < 0 || (rc > 0 && recv(sock, &b, 1, MSG_PEEK) <= 0))
			break;
	}
	return -1;
}

/* The Jolokia endpoint: answer with root/jolokia.json. */
static int
serve_jolokia(kg_httpd *h, int sock, const req *r)
{
	off_t size;
	int fd = open_file(h, "jolokia.json", &size), rc;
	if (strcmp(r->method, "POST") != 0) {
		if (fd >= 0)
			close(fd);
		return status(h, sock, 405, "Method Not Allowed", false);
	}
	if (fd < 0)
		return status(h, sock, 404, "Not Found", false);
	rc = sendf(h, sock, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %lld\r\n\r\n",
		   (long long)size);
	if (rc == 0)
		rc = send_file(h, sock, fd, 0, size);
	close(fd);
	return rc;
}

/* Answer one request; -1 closes the connection. */
static int
dispatch(kg_httpd *h, int sock, const req *r)
{
	const char *p = r->path;
	bool head = strcmp(r->method, "HEAD") == 0;
	long fail500, trickle_ms;
	record(h, r);
	pthread_mutex_lock(&h->lock);
	fail500 = h->fail500;
	trickle_ms = h->trickle_ms;
	pthread_mutex_unlock(&h->lock);
	if (fail500 > 0 && (strncmp(p, "/f/", 3) == 0 || strncmp(p, "/chunked/", 9) == 0))
		return status(h, sock, 500, "Internal Server Error", head);
	if (trickle_ms > 0 && strncmp(p, "/chunked/", 9) == 0)
		return serve_trickle(h, sock, NULL, trickle_ms);
	if (trickle_ms > 0 && strncmp(p, "/f/", 3) == 0)
		return serve_trickle(h, sock, p + 3, trickle_ms);
	if (strcmp(p, "/flood") == 0)
		return serve_flood(h, sock);
	if (strncmp(p, "/hostile/", 9) == 0)
		return serve_hostile(h, sock, p + 9);
	if (strcmp(p, "/silent") == 0)
		return serve_hostile(h, sock, "silent");
	if (strncmp(p, "/cut/", 5) == 0)
		return serve_cut(h, sock, p + 5);
	if (strncmp(p, "/f/", 3) == 0)
		return serve_file(h, sock, r, p + 3, true, false);
	if (strncmp(p, "/norange/", 9) == 0)
		return serve_file(h, sock, r, p + 9, false, false);
	if (strncmp(p, "/drop/", 6) == 0)
		return serve_file(h, sock, r, p + 6, true, true);
	if (strncmp(p, "/chunked/", 9) == 0)
		return serve_chunked(h, sock, r, p + 9);
	if (strncmp(p, "/slow/", 6) == 0)
		return serve_slow(h, sock);
	if (strncmp(p, "/auth/", 6) == 0) {
		if (strcmp(r->token, "s3cret") != 0)
			return status(h, sock, 401, "Unauthorized", head);
		return serve_file(h, sock, r, p + 6, true, false);
	}
	if (strncmp(p, "/status/", 8) == 0) {
		int code = atoi(p + 8);
		return status(h, sock, code >= 200 && code <= 599 ? code : 500, "Test Status", head);
	}
	if (strncmp(p, "/redirect/", 10) == 0) {
		return sendf(h, sock, "HTTP/1.1 302 Found\r\nLocation: /f/%s\r\nContent-Length: 0\r\n\r\n", p + 10);
	}
	if (strcmp(p, "/junk") == 0) {
		static const char junk[] = "\x00\xff\xfeSSH-2.0-not-http\r\n\x1b[2J\r\n\r\n";
		send_all(h, sock, junk, sizeof junk - 1);
		return -1;
	}
	if (strcmp(p, "/jolokia") == 0 || strcmp(p, "/jolokia/") == 0)
		return serve_jolokia(h, sock, r);
	return status(h, sock, 404, "Not Found", head);
}

/* A connection's thread. */
static void *
conn_main(void *arg)
{
	conn *c = arg;
	kg_httpd *h = c->h;
	char *buf = malloc(REQ_MAX);
	size_t have = 0;
	if (buf != NULL) {
		for (;;) {
			req r;
			int rc;
			rc = read_request(h, c->fd, buf, &have, &r);
			if (rc == -2) {
				static const char bad[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
				send_all(h, c->fd, bad, sizeof bad - 1);
			}
			if (rc < 0) {
				free(r.body);
				break;
			}
			rc = dispatch(h, c->fd, &r);
			free(r.body);
			if (rc < 0 || r.close)
				break;
		}
	}
	free(buf);
	close(c->fd);
	free(c);
	atomic_fetch_sub(&h->active, 1);
	return NULL;
}

/* The accept thread. */
static void *
accept_main(void *arg)
{
	kg_httpd *h = arg;
	while (!atomic_load(&h->stop)) {
		struct pollfd p = { h->lfd, POLLIN, 0 };
		pthread_t th;
		pthread_attr_t at;
		conn *c;
		int fd;
		if (poll(&p, 1, 50) <= 0)
			continue;
		fd = accept(h->lfd, NULL, NULL);
		if (fd < 0)
			continue;
		c = malloc(sizeof *c);
		if (c == NULL) {
			close(fd);
			continue;
		}
		c->h = h;
		c->fd = fd;
		pthread_mutex_lock(&h->lock);
		h->st.connections++;
		pthread_mutex_unlock(&h->lock);
		atomic_fetch_add(&h->active, 1);
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&th, &at, conn_main, c) != 0) {
			atomic_fetch_sub(&h->active, 1);
			close(fd);
			free(c);
		}
		pthread_attr_destroy(&at);
	}
	return NULL;
}

/* Start a server. */
kg_httpd *
httpd_start(const char *root, char *err, size_t errsz)
{
	kg_httpd *h = calloc(1, sizeof *h);
	struct sockaddr_in sa;
	socklen_t sl = sizeof sa;
	int one = 1;
	if (h == NULL)
		return NULL;
	signal(SIGPIPE, SIG_IGN);
	h->root = strdup(root);
	h->stream_ms = 3000;
	pthread_mutex_init(&h->lock, NULL);
	h->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (h->lfd < 0 || setsockopt(h->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(h->lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(h->lfd, 64) < 0 ||
	    getsockname(h->lfd, (struct sockaddr *)&sa, &sl) < 0) {
		snprintf(err, errsz, "httpd: %s", strerror(errno));
		if (h->lfd >= 0)
			close(h->lfd);
		free(h->root);
		free(h);
		return NULL;
	}
	h->port = ntohs(sa.sin_port);
	if (pthread_create(&h->accept_thread, NULL, accept_main, h) != 0) {
		snprintf(err, errsz, "httpd: cannot start a thread");
		close(h->lfd);
		free(h->root);
		free(h);
		return NULL;
	}
	return h;
}

/* The port. */
int
httpd_port(const kg_httpd *h)
{
	return h->port;
}

/* A copy of the counters. */
void
httpd_stats(kg_httpd *h, kg_httpd_stats *st)
{
	pthread_mutex_lock(&h->lock);
	*st = h->st;
	pthread_mutex_unlock(&h->lock);
}

/* Set a knob. */
void
httpd_set(kg_httpd *h, const char *knob, long value)
{
	pthread_mutex_lock(&h->lock);
	if (strcmp(knob, "drops") == 0)
		h->drops = value;
	else if (strcmp(knob, "stream_ms") == 0)
		h->stream_ms = value;
	else if (strcmp(knob, "fail500") == 0)
		h->fail500 = value;
	else if (strcmp(knob, "trickle_ms") == 0)
		h->trickle_ms = value;
	else if (strcmp(knob, "flood_lines") == 0)
		h->flood_lines = value;
	pthread_mutex_unlock(&h->lock);
}

/* Stop and free. */
void
httpd_stop(kg_httpd *h)
{
	int64_t end;
	if (h == NULL)
		return;
	atomic_store(&h->stop, true);
	pthread_join(h->accept_thread, NULL);
	close(h->lfd);
	/* connection threads notice the flag within 50 ms */
	end = now_ms() + 5000;
	while (atomic_load(&h->active) > 0 && now_ms() < end) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (atomic_load(&h->active) > 0)
		return; /* leak rather than free under a running thread */
	pthread_mutex_destroy(&h->lock);
	free(h->root);
	free(h);
}

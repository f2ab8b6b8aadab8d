/*
 * httpload.c: raw HTTP clients for --serve's tests and benchmarks: the
 * misbehaving ones curl cannot be (slow, huge, numerous, not reading) and
 * many well-behaved readers at once.
 *
 *   httpload port                          a free TCP port on 127.0.0.1
 *   httpload get HOST:PORT PATH            one GET: "STATUS MILLISECONDS BYTES"
 *   httpload slowloris HOST:PORT N SECS    N requests whose headers trickle in, a line every 2 s:
 *                                          "held H refused R" (H still open at the end)
 *   httpload flood HOST:PORT N SECS        N idle connections at once: "connected C closed S"
 *   httpload bigheader HOST:PORT BYTES     a request with one header of BYTES: its status, or "closed"
 *   httpload stall HOST:PORT PATH SECS     GET and never read (a 4 KiB receive buffer)
 *   httpload readers HOST:PORT PATH N SECS N clients reading PATH: "bytes B open O"
 *   httpload trickle HOST:PORT N SECS MS   N requests sending their headers a byte every MS ms, each
 *                                          reopened as soon as the server closes it (slowloris as it
 *                                          is played: "held H closed C opened O longest L" with L the
 *                                          longest any connection lived, in ms)
 *   httpload probe HOST:PORT PATH SECS MS  GET PATH every MS ms for SECS (each given 2 s): "answered A
 *                                          of T longest_wait W" with W the longest time in ms from a
 *                                          try that got no 200 to the next that got one
 *   httpload scrapes HOST:PORT PATH N      N GETs at once, each read to its end: "ok K of N" (K answered 200)
 *   httpload pause HOST:PORT PATH S R FILE GET PATH (HTTP/1.0: no chunks) with a 4 KiB receive buffer,
 *                                          read nothing for S s, then read for R s at most: the body
 *                                          into FILE
 *   httpload raw HOST:PORT FILE            send FILE's bytes as a request: the status line's code
 *
 * Connections come from $HTTPLOAD_FROM when it is set (bind(2) before
 * connect: 127.0.0.2, 127.0.0.3... are other addresses of the loopback).
 * Exit status 0, or 1 with a message (bad arguments, cannot connect for get).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define KG_MIN_SZ(a, b) ((a) < (b) ? (a) : (b))

/* Monotonic milliseconds. */
static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Parse HOST:PORT (IPv4). */
static int
parse_addr(const char *s, struct sockaddr_in *a)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	if (colon == NULL || (size_t)(colon - s) >= sizeof host)
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)atoi(colon + 1));
	return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

/* A socket connecting to a (non-blocking unless blocking); rcvbuf > 0 sets SO_RCVBUF first. */
static int
dial(const struct sockaddr_in *a, bool blocking, int rcvbuf)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	const char *from = getenv("HTTPLOAD_FROM");
	if (fd < 0)
		return -1;
	if (from != NULL && *from != '\0') {
		struct sockaddr_in b;
		memset(&b, 0, sizeof b);
		b.sin_family = AF_INET;
		if (inet_pton(AF_INET, from, &b.sin_addr) != 1 || bind(fd, (struct sockaddr *)&b, sizeof b) < 0) {
			close(fd);
			return -1;
		}
	}
	if (rcvbuf > 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	if (!blocking)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (connect(fd, (const struct sockaddr *)a, sizeof *a) < 0 && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Write all of s (blocking socket). */
static int
send_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
		if (k <= 0)
			return -1;
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

/* True when the server closed fd (EOF or error); reads and drops what it sent. */
static bool
closed_by_server(int fd)
{
	char buf[4096];
	for (;;) {
		ssize_t k = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		if (k == 0)
			return true;
		if (k < 0)
			return errno != EAGAIN && errno != EWOULDBLOCK;
	}
}

/* port: a free port. */
static int
cmd_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || getsockname(fd, (struct sockaddr *)&a, &len) < 0)
		return 1;
	printf("%d\n", ntohs(a.sin_port));
	close(fd);
	return 0;
}

/* get: one request, its status, time and size. */
static int
cmd_get(const struct sockaddr_in *a, const char *path)
{
	int64_t t0 = now_ms();
	int fd = dial(a, true, 0), status = 0;
	char req[512], buf[65536];
	size_t total = 0;
	ssize_t k;
	struct timeval tv = { 10, 0 };
	if (fd < 0) {
		fprintf(stderr, "httpload: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: kgtop\r\nConnection: close\r\n\r\n", path);
	if (send_all(fd, req, strlen(req)) < 0) {
		close(fd);
		printf("closed %lld 0\n", (long long)(now_ms() - t0));
		return 0;
	}
	while ((k = recv(fd, buf, sizeof buf, 0)) > 0) {
		if (total == 0 && k > 12)
			status = atoi(buf + 9);
		total += (size_t)k;
	}
	close(fd);
	if (status > 0)
		printf("%d %lld %zu\n", status, (long long)(now_ms() - t0), total);
	else
		printf("closed %lld %zu\n", (long long)(now_ms() - t0), total);
	return 0;
}

/* slowloris: requests whose headers never end. */
static int
cmd_slowloris(const struct sockaddr_in *a, int n, int secs)
{
	int *fd = calloc((size_t)n, sizeof *fd), i, held = 0, refused = 0;
	int64_t end = now_ms() + secs * 1000LL, next = 0;
	for (i = 0; i < n; i++) {
		fd[i] = dial(a, true, 0);
		static const char head[] = "GET /metrics HTTP/1.1\r\nHost: kgtop\r\n";
		if (fd[i] >= 0 && send_all(fd[i], head, sizeof head - 1) < 0) {
			close(fd[i]);
			fd[i] = -1;
		}
	}
	while (now_ms() < end) {
		if (now_ms() >= next) {
			for (i = 0; i < n; i++) {
				if (fd[i] >= 0 && send_all(fd[i], "X-a: b\r\n", 8) < 0) {
					close(fd[i]);
					fd[i] = -1;
				}
			}
			next = now_ms() + 2000;
		}
		poll(NULL, 0, 100); /* the attack's pace, not a synchronisation */
	}
	for (i = 0; i < n; i++) {
		if (fd[i] >= 0 && !closed_by_server(fd[i]))
			held++;
		else
			refused++;
		if (fd[i] >= 0)
			close(fd[i]);
	}
	printf("held %d refused %d\n", held, refused);
	free(fd);
	return 0;
}

/* flood: many idle connections at once. */
static int
cmd_flood(const struct sockaddr_in *a, int n, int secs)
{
	int *fd = calloc((size_t)n, sizeof *fd), i, connected = 0, closed = 0;
	int64_t end = now_ms() + secs * 1000LL;
	for (i = 0; i < n; i++)
		fd[i] = dial(a, false, 0);
	while (now_ms() < end)
		poll(NULL, 0, 100); /* the attack's length, not a synchronisation */
	for (i = 0; i < n; i++) {
		struct sockaddr_in peer;
		socklen_t len = sizeof peer;
		if (fd[i] < 0)
			continue;
		if (getpeername(fd[i], (struct sockaddr *)&peer, &len) == 0)
			connected++;
		if (closed_by_server(fd[i]))
			closed++;
		close(fd[i]);
	}
	printf("connected %d closed %d\n", connected, closed);
	free(fd);
	return 0;
}

/* bigheader: one header of the given size. */
static int
cmd_bigheader(const struct sockaddr_in *a, size_t bytes)
{
	int fd = dial(a, true, 0), status = 0;
	char *req = malloc(bytes + 128), buf[512];
	struct timeval tv = { 10, 0 };
	size_t n;
	ssize_t k;
	if (fd < 0 || req == NULL) {
		fprintf(stderr, "httpload: cannot connect\n");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	n = (size_t)sprintf(req, "GET /metrics HTTP/1.1\r\nHost: kgtop\r\nX-Big: ");
	memset(req + n, 'a', bytes);
	n += bytes;
	n += (size_t)sprintf(req + n, "\r\n\r\n");
	send_all(fd, req, n); /* the server may stop reading halfway */
	k = recv(fd, buf, sizeof buf - 1, 0);
	if (k > 12) {
		buf[k] = '\0';
		status = atoi(buf + 9);
	}
	if (status > 0)
		printf("%d\n", status);
	else
		printf("closed\n");
	close(fd);
	free(req);
	return 0;
}

/* stall: GET and never read. */
static int
cmd_stall(const struct sockaddr_in *a, const char *path, int secs)
{
	int fd = dial(a, true, 4096);
	char req[512];
	int64_t end = now_ms() + secs * 1000LL;
	if (fd < 0) {
		fprintf(stderr, "httpload: cannot connect\n");
		return 1;
	}
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: kgtop\r\n\r\n", path);
	send_all(fd, req, strlen(req));
	while (now_ms() < end)
		poll(NULL, 0, 100); /* holding still is the point */
	close(fd);
	return 0;
}

/* readers: n clients reading path as fast as it comes. */
static int
cmd_readers(const struct sockaddr_in *a, const char *path, int n, int secs)
{
	struct pollfd *p = calloc((size_t)n, sizeof *p);
	char req[512], buf[65536];
	long long bytes = 0;
	int i, open = 0;
	int64_t end = now_ms() + secs * 1000LL;
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: kgtop\r\n\r\n", path);
	for (i = 0; i < n; i++) {
		p[i].fd = dial(a, true, 0);
		p[i].events = POLLIN;
		if (p[i].fd >= 0 && send_all(p[i].fd, req, strlen(req)) < 0) {
			close(p[i].fd);
			p[i].fd = -1;
		}
	}
	while (now_ms() < end) {
		int64_t left = end - now_ms();
		if (poll(p, (nfds_t)n, (int)(left > 200 ? 200 : left)) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			ssize_t k;
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			k = recv(p[i].fd, buf, sizeof buf, 0);
			if (k <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				continue;
			}
			bytes += k;
		}
	}
	for (i = 0; i < n; i++) {
		if (p[i].fd >= 0) {
			open++;
			close(p[i].fd);
		}
	}
	printf("bytes %lld open %d\n", bytes, open);
	free(p);
	return 0;
}

/* One trickling connection. */
typedef struct trickler {
	int fd;
	size_t sent;     /* bytes of the request sent */
	int64_t opened;  /* ms */
} trickler;

/* trickle: slowloris as attackers play it, a byte every ms, a connection reopened when closed. */
static int
cmd_trickle(const struct sockaddr_in *a, int n, int secs, int ms)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: kgtop\r\nX-a: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
				  "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	trickler *t = calloc((size_t)n, sizeof *t);
	int i, held = 0;
	long closed = 0, opened = 0;
	int64_t end = now_ms() + secs * 1000LL, next = 0, longest = 0;
	for (i = 0; i < n; i++)
		t[i].fd = -1;
	while (now_ms() < end) {
		int64_t now = now_ms();
		for (i = 0; i < n; i++) {
			if (t[i].fd >= 0 && closed_by_server(t[i].fd)) {
				if (now - t[i].opened > longest)
					longest = now - t[i].opened;
				close(t[i].fd);
				t[i].fd = -1;
				closed++;
			}
			if (t[i].fd < 0) {
				t[i].fd = dial(a, true, 0);
				t[i].sent = 0;
				t[i].opened = now;
				if (t[i].fd >= 0)
					opened++;
			}
		}
		if (now >= next) {
			for (i = 0; i < n; i++) {
				if (t[i].fd < 0 || t[i].sent >= sizeof req - 1)
					continue;
				if (send(t[i].fd, req + t[i].sent, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
					t[i].sent++;
			}
			next = now + ms;
		}
		poll(NULL, 0, 20); /* the attack's pace, not a synchronisation */
	}
	for (i = 0; i < n; i++) {
		if (t[i].fd < 0)
			continue;
		if (!closed_by_server(t[i].fd))
			held++;
		if (now_ms() - t[i].opened > longest)
			longest = now_ms() - t[i].opened;
		close(t[i].fd);
	}
	printf("held %d closed %ld opened %ld longest %lld\n", held, closed, opened, (long long)longest);
	free(t);
	return 0;
}

/* One GET within 2 s: its status, 0 when none came. */
static int
get_status(const struct sockaddr_in *a, const char *path)
{
	int fd = dial(a, true, 0), status = 0;
	char req[512], buf[256];
	struct timeval tv = { 2, 0 };
	ssize_t k;
	if (fd < 0)
		return 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: kgtop\r\nConnection: close\r\n\r\n", path);
	if (send_all(fd, req, strlen(req)) == 0 && (k = recv(fd, buf, sizeof buf - 1, 0)) > 12) {
		buf[k] = '\0';
		status = atoi(buf + 9);
	}
	close(fd);
	return status;
}

/* probe: how long a client waits for an answer while something else goes on. */
static int
cmd_probe(const struct sockaddr_in *a, const char *path, int secs, int ms)
{
	int64_t end = now_ms() + secs * 1000LL, failing_since = -1, longest = 0;
	int tries = 0, answered = 0;
	while (now_ms() < end) {
		int64_t t0 = now_ms();
		tries++;
		if (get_status(a, path) == 200) {
			answered++;
			if (failing_since >= 0 && now_ms() - failing_since > longest)
				longest = now_ms() - failing_since;
			failing_since = -1;
		} else if (failing_since < 0) {
			failing_since = t0;
		}
		if (now_ms() - t0 < ms)
			poll(NULL, 0, (int)(ms - (now_ms() - t0))); /* the probe's pace */
	}
	if (failing_since >= 0 && now_ms() - failing_since > longest)
		longest = now_ms() - failing_since;
	printf("answered %d of %d longest_wait %lld\n", answered, tries, (long long)longest);
	return 0;
}

/* scrapes: n GETs at once (connections opened first, then every request sent), each read to its end. */
static int
cmd_scrapes(const struct sockaddr_in *a, const char *path, int n)
{
	struct pollfd *p = calloc((size_t)n, sizeof *p);
	int *status = calloc((size_t)n, sizeof *status), i, ok = 0, open = 0;
	char req[512], buf[65536];
	int64_t end = now_ms() + 20000;
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: kgtop\r\nConnection: close\r\n\r\n", path);
	for (i = 0; i < n; i++)
		p[i].fd = dial(a, true, 0);
	for (i = 0; i < n; i++) {
		p[i].events = POLLIN;
		if (p[i].fd >= 0 && send_all(p[i].fd, req, strlen(req)) < 0) {
			close(p[i].fd);
			p[i].fd = -1;
		}
		open += p[i].fd >= 0;
	}
	while (open > 0 && now_ms() < end) {
		if (poll(p, (nfds_t)n, 200) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			ssize_t k;
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			k = recv(p[i].fd, buf, sizeof buf - 1, 0);
			if (k > 12 && status[i] == 0) {
				buf[k] = '\0';
				status[i] = atoi(buf + 9);
			}
			if (k <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				open--;
				ok += status[i] == 200;
			}
		}
	}
	for (i = 0; i < n; i++) {
		if (p[i].fd >= 0)
			close(p[i].fd);
	}
	printf("ok %d of %d\n", ok, n);
	free(p);
	free(status);
	return 0;
}

/* pause: a reader that stops reading for a while, then reads what is left (the body into a file). */
static int
cmd_pause(const struct sockaddr_in *a, const char *path, int stall_s, int read_s, const char *file)
{
	int fd = dial(a, true, 4096);
	FILE *out = fopen(file, "wb");
	char req[512], buf[65536];
	struct timeval tv = { 1, 0 };
	int64_t end;
	bool head = true;
	size_t hl = 0;
	char hbuf[4096];
	if (fd < 0 || out == NULL) {
		fprintf(stderr, "httpload: cannot connect or write %s\n", file);
		return 1;
	}
	snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: kgtop\r\n\r\n", path);
	send_all(fd, req, strlen(req));
	poll(NULL, 0, stall_s * 1000); /* not reading is the point */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	end = now_ms() + read_s * 1000LL;
	while (now_ms() < end) {
		ssize_t k = recv(fd, buf, sizeof buf, 0);
		char *p = buf;
		if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
			break;
		if (k < 0)
			continue;
		if (head) {
			/* the status line and headers end at the first empty line */
			size_t take = KG_MIN_SZ((size_t)k, sizeof hbuf - 1 - hl);
			char *e;
			memcpy(hbuf + hl, buf, take);
			hl += take;
			hbuf[hl] = '\0';
			if ((e = strstr(hbuf, "\r\n\r\n")) == NULL)
				continue;
			head = false;
			p = buf + (size_t)(e + 4 - hbuf) - (hl - take);
			k -= p - buf;
		}
		fwrite(p, 1, (size_t)k, out);
	}
	fclose(out);
	close(fd);
	return 0;
}

/* raw: a request as written in a file (bad framing, odd headers); the status answered, or "closed". */
static int
cmd_raw(const struct sockaddr_in *a, const char *file)
{
	FILE *f = fopen(file, "rb");
	char req[16384], buf[512];
	size_t n;
	int fd, status = 0;
	ssize_t k;
	struct timeval tv = { 5, 0 };
	if (f == NULL) {
		fprintf(stderr, "httpload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	n = fread(req, 1, sizeof req, f);
	fclose(f);
	if ((fd = dial(a, true, 0)) < 0) {
		fprintf(stderr, "httpload: cannot connect\n");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	send_all(fd, req, n);
	k = recv(fd, buf, sizeof buf - 1, 0);
	if (k > 12) {
		buf[k] = '\0';
		status = atoi(buf + 9);
	}
	if (status > 0)
		printf("%d\n", status);
	else
		printf("closed\n");
	close(fd);
	return 0;
}

/* Entry point. */
int
main(int argc, char **argv)
{
	struct sockaddr_in a;
	if (argc >= 2 && strcmp(argv[1], "port") == 0)
		return cmd_port();
	if (argc < 3 || parse_addr(argv[2], &a) < 0) {
		fprintf(stderr, "usage: httpload port | get|slowloris|flood|bigheader|stall|readers|trickle|probe|scrapes|pause|raw HOST:PORT ...\n");
		return 1;
	}
	if (strcmp(argv[1], "get") == 0 && argc == 4)
		return cmd_get(&a, argv[3]);
	if (strcmp(argv[1], "slowloris") == 0 && argc == 5)
		return cmd_slowloris(&a, atoi(argv[3]), atoi(argv[4]));
	if (strcmp(argv[1], "flood") == 0 && argc == 5)
		return cmd_flood(&a, atoi(argv[3]), atoi(argv[4]));
	if (strcmp(argv[1], "bigheader") == 0 && argc == 4)
		return cmd_bigheader(&a, (size_t)atol(argv[3]));
	if (strcmp(argv[1], "stall") == 0 && argc == 5)
		return cmd_stall(&a, argv[3], atoi(argv[4]));
	if (strcmp(argv[1], "trickle") == 0 && argc == 6)
		return cmd_trickle(&a, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
	if (strcmp(argv[1], "probe") == 0 && argc == 6)
		return cmd_probe(&a, argv[3], atoi(argv[4]), atoi(argv[5]));
	if (strcmp(argv[1], "scrapes") == 0 && argc == 5)
		return cmd_scrapes(&a, argv[3], atoi(argv[4]));
	if (strcmp(argv[1], "pause") == 0 && argc == 7)
		return cmd_pause(&a, argv[3], atoi(argv[4]), atoi(argv[5]), argv[6]);
	if (strcmp(argv[1], "raw") == 0 && argc == 4)
		return cmd_raw(&a, argv[3]);
	if (strcmp(argv[1], "readers") == 0 && argc == 6)
		return cmd_readers(&a, argv[3], atoi(argv[4]), atoi(argv[5]));
	fprintf(stderr, "httpload: bad arguments\n");
	return 1;
}

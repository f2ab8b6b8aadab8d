/*
 * bench_serve.c: what --serve costs, measured on the real binary against
 * the fixture broker's big.json (2,000 groups over 20,000 partitions on 3
 * brokers).  Prints figures and their ratio to the targets; asserts
 * nothing (benchmarks never fail on timing).
 *
 *  1. A scrape at 2,000 groups: kgtop -i 60 --serve (one refresh, then a
 *     quiet minute); 100 scrapes of /metrics one after the other, each
 *     timed from connect to its last byte; the broker's request counters
 *     before and after (target: at most 20 ms, no request added).
 *  2. 50 viewers: kgtop -i 1 --serve; its CPU time (from /proc) in windows
 *     of 10 s, alternating no viewer and 50 clients reading /stream as fast
 *     as it comes (each joining with its keyframe), three times (target:
 *     the viewers cost at most 5 % more CPU than none).
 */
#include "config.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../integration/fixture_util.h"
#include "util/util.h"

#define GROUPS 2000
#define SCRAPES 100
#define VIEWERS 50
#define WINDOW_S 10
#define ROUNDS 3

/* Start the real kgtop serving on port with interval seconds; its pid, -1 on failure. */
static pid_t
kgtop_start(const char *bootstrap, int port, const char *interval)
{
	char bin[512], listen[64];
	const char *b = getenv("top_builddir");
	pid_t pid;
	snprintf(bin, sizeof bin, "%s/kgtop", b && *b ? b : ".");
	snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(null, 0);
		dup2(null, 1); /* not a terminal: headless */
		setenv("KGTOP_CONFIG", "none", 1);
		/* 50 viewers from one address: room for them (one address holds an eighth of --serve-clients) */
		execl(bin, bin, "-b", bootstrap, "-i", interval, "--serve", listen, "--serve-clients", "512", (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Stop it. */
static void
kgtop_stop(pid_t pid)
{
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

/* A connected socket to 127.0.0.1:port, -1 on failure. */
static int
dial(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* GET path: the body (with headers) into out; the time from connect to the last byte (us), -1 on failure. */
static int64_t
get(int port, const char *path, sbuf *out)
{
	int64_t t0 = util_mono_us();
	int fd = dial(port);
	char req[256], buf[65536];
	ssize_t k;
	if (fd < 0)
		return -1;
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: kgtop\r\nConnection: close\r\n\r\n", path);
	if (write(fd, req, strlen(req)) < 0) {
		close(fd);
		return -1;
	}
	sbuf_reset(out);
	while ((k = read(fd, buf, sizeof buf)) > 0)
		sbuf_addn(out, buf, (size_t)k);
	close(fd);
	return util_mono_us() - t0;
}

/* Count occurrences of needle. */
static int
count(const char *s, const char *needle)
{
	int n = 0;
	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* Wait until /metrics lists every group (a complete refresh served); false after timeout_s. */
static bool
wait_groups(int port, int timeout_s)
{
	int64_t end = util_mono_us() + (int64_t)timeout_s * 1000000;
	sbuf b = { 0 };
	bool ok = false;
	while (!ok && util_mono_us() < end) {
		if (get(port, "/metrics", &b) > 0)
			ok = count(sbuf_str(&b), "\nkgtop_group_members{") >= GROUPS;
		if (!ok)
			poll(NULL, 0, 200); /* poll interval, bounded by the deadline */
	}
	sbuf_free(&b);
	return ok;
}

/* Total requests the fixture broker counted. */
static long
broker_requests(fixture *f)
{
	FILE *fp = fopen(f->stats, "r");
	char *buf = xmalloc(1 << 20);
	size_t n;
	long total = 0;
	cJSON *j, *r, *e;
	if (fp == NULL) {
		free(buf);
		return -1;
	}
	n = fread(buf, 1, (1 << 20) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	j = cJSON_Parse(buf);
	free(buf);
	r = cJSON_GetObjectItemCaseSensitive(j, "requests");
	cJSON_ArrayForEach(e, r)
	{
		if (cJSON_IsNumber(e))
			total += (long)e->valuedouble;
	}
	cJSON_Delete(j);
	return total;
}

/* Order microseconds. */
static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Part 1: scrapes at 2,000 groups. */
static void
bench_scrape(fixture *f)
{
	int port = fixture_free_port();
	pid_t pid = kgtop_start(f->bootstrap, port, "60");
	int64_t t[SCRAPES];
	long r0, r1;
	sbuf b = { 0 };
	int i, ok = 0;
	size_t bytes = 0;
	if (!wait_groups(port, 120)) {
		printf("scrape: kgtop did not serve %d groups within 120 s\n", GROUPS);
		kgtop_stop(pid);
		return;
	}
	r0 = broker_requests(f);
	for (i = 0; i < SCRAPES; i++) {
		t[i] = get(port, "/metrics", &b);
		if (t[i] > 0) {
			ok++;
			bytes = b.len;
		}
	}
	r1 = broker_requests(f);
	qsort(t, SCRAPES, sizeof *t, cmp_i64);
	printf("scrape of /metrics at %d groups (%zu bytes, %d of %d answered):\n", GROUPS, bytes, ok, SCRAPES);
	printf("  median %.2f ms, p95 %.2f ms, max %.2f ms (target <= 20 ms: median %.0f%% of it)\n", t[SCRAPES / 2] / 1e3,
	       t[SCRAPES * 95 / 100] / 1e3, t[SCRAPES - 1] / 1e3, 100.0 * (double)t[SCRAPES / 2] / 20000.0);
	printf("  broker requests during the %d scrapes: %ld (target 0)\n", SCRAPES, r1 - r0);
	sbuf_free(&b);
	kgtop_stop(pid);
}

/* CPU time of a process so far (clock ticks, user + system). */
static long
proc_cpu(pid_t pid)
{
	char path[64], buf[2048], *p;
	FILE *fp;
	long ut = 0, st = 0;
	int i;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	fp = fopen(path, "r");
	if (fp == NULL)
		return -1;
	if (fgets(buf, sizeof buf, fp) == NULL) {
		fclose(fp);
		return -1;
	}
	fclose(fp);
	p = strrchr(buf, ')');
	/* after ") ": state is field 3; utime is 14, stime 15 */
	for (i = 3; p != NULL && i < 14; i++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p + 1, "%ld %ld", &ut, &st) != 2)
		return -1;
	return ut + st;
}

/* Keep n viewers (fds, -1: none) reading for secs; returns kgtop's CPU share of one core (%) and the bytes read. */
static double
window(pid_t pid, int *fds, int n, int secs, long long *bytes)
{
	struct pollfd p[VIEWERS];
	char buf[65536];
	long c0 = proc_cpu(pid), c1, hz = sysconf(_SC_CLK_TCK);
	int64_t t0 = util_mono_us(), end = t0 + (int64_t)secs * 1000000;
	int i;
	*bytes = 0;
	for (i = 0; i < n; i++) {
		p[i].fd = fds[i];
		p[i].events = POLLIN;
	}
	while (util_mono_us() < end) {
		int64_t left = (end - util_mono_us()) / 1000;
		if (n == 0) {
			poll(NULL, 0, (int)(left > 200 ? 200 : left + 1));
			continue;
		}
		if (poll(p, (nfds_t)n, (int)(left > 200 ? 200 : left + 1)) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			ssize_t k;
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			k = read(p[i].fd, buf, sizeof buf);
			if (k <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				fds[i] = -1;
				continue;
			}
			*bytes += k;
		}
	}
	c1 = proc_cpu(pid);
	return 100.0 * (double)(c1 - c0) / (double)hz / ((double)(util_mono_us() - t0) / 1e6);
}

/* Part 2: 50 viewers against none, in alternating windows (the machine's other load shows as their spread). */
static void
bench_viewers(fixture *f)
{
	int port = fixture_free_port(), fds[VIEWERS], i, r, open_ = 0;
	pid_t pid = kgtop_start(f->bootstrap, port, "1");
	long long bytes, total = 0;
	double none[ROUNDS + 1], with[ROUNDS], sn = 0, sw = 0;
	char req[] = "GET /stream HTTP/1.1\r\nHost: kgtop\r\n\r\n";
	if (!wait_groups(port, 120)) {
		printf("viewers: kgtop did not serve %d groups within 120 s\n", GROUPS);
		kgtop_stop(pid);
		return;
	}
	none[0] = window(pid, fds, 0, WINDOW_S, &bytes);
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < VIEWERS; i++) {
			fds[i] = dial(port);
			if (fds[i] >= 0 && write(fds[i], req, sizeof req - 1) < 0) {
				close(fds[i]);
				fds[i] = -1;
			}
		}
		with[r] = window(pid, fds, VIEWERS, WINDOW_S, &bytes);
		total += bytes;
		for (i = 0; i < VIEWERS; i++) {
			if (fds[i] >= 0) {
				open_ += r == ROUNDS - 1;
				close(fds[i]);
			}
		}
		none[r + 1] = window(pid, fds, 0, WINDOW_S, &bytes);
	}
	printf("%d viewers of /stream at %d groups (kgtop -i 1; CPU of kgtop's process, %% of one core, windows of %d s):\n",
	       VIEWERS, GROUPS, WINDOW_S);
	printf("  none %.1f%%", none[0]);
	sn = none[0];
	for (r = 0; r < ROUNDS; r++) {
		printf(", %d viewers %.1f%%, none %.1f%%", VIEWERS, with[r], none[r + 1]);
		sw += with[r];
		sn += none[r + 1];
	}
	sn /= ROUNDS + 1;
	sw /= ROUNDS;
	printf("\n  means: none %.1f%%, %d viewers %.1f%% (%.1f MB of stream read, %d of %d attached to the end)\n", sn,
	       VIEWERS, sw, (double)total / 1e6, open_, VIEWERS);
	printf("  the viewers cost %+.1f%% CPU relative to none (target <= 5%%), %+.2f points of a core\n",
	       sn > 0 ? 100.0 * (sw - sn) / sn : 0.0, sw - sn);
	kgtop_stop(pid);
}

/* Run both parts on big.json. */
int
main(void)
{
	fixture f;
	signal(SIGPIPE, SIG_IGN);
	if (fixture_start(&f, "big.json", false) < 0) {
		printf("bench_serve: the fixture broker did not start\n");
		return 1;
	}
	bench_scrape(&f);
	bench_viewers(&f);
	fixture_stop(&f);
	return 0;
}

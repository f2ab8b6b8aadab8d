/*
 * bench_trace.c: trace stream figures for "make bench".
 *
 *  1. Broker log lines parsed per second on one core, through the line
 *     assembler, for coordinator lines only (the worst case: every line is
 *     matched and becomes observations) and for a realistic server.log
 *     where one line in ten is the coordinator's.  Target: 200,000 lines/s.
 *  2. A 1 GiB log (a sparse file in $TMPDIR, deleted afterwards) followed
 *     with the real source, over file:// and over HTTP with ranges: bytes
 *     read and time until the first line written after the start is
 *     parsed.  The whole file must not be read.
 * Prints one line per figure; exits non-zero when a figure misses its target.
 */
#include "config.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../http/httpd.h"
#include "model/obs.h"
#include "sources/trace/parse_lines.h"
#include "sources/trace/parse_log.h"
#include "sources/trace/trace.h"
#include "util/util.h"

#define TARGET_LINES_PER_S 200000.0
#define BIG ((int64_t)1 << 30)

static const char *const coordinator_lines[] = {
	"[2026-11-29 13:45:01,125] INFO [GroupCoordinator 1]: Preparing to rebalance group payments-ledger in state "
	"PreparingRebalance with old generation 11 (__consumer_offsets-7) (reason: Adding new member "
	"worker-4-5b0f6a3e-91c2-4d8e-a7f1-2c4b8d9e0f11 with group instance id None; client reason: need to re-join "
	"with the given member-id) (kafka.coordinator.group.GroupCoordinator)",
	"[2026-11-29 13:45:03,611] INFO [GroupCoordinator 1]: Stabilized group payments-ledger generation 12 "
	"(__consumer_offsets-7) with 4 members (kafka.coordinator.group.GroupCoordinator)",
	"[2026-11-29 13:45:03,640] INFO [GroupCoordinator 1]: Assignment received from leader "
	"worker-1-6c7d8e9f-0a1b-4c2d-9e3f-4a5b6c7d8e9f for group payments-ledger for generation 12. The group has 4 "
	"members, 0 of which are static. (kafka.coordinator.group.GroupCoordinator)",
	"[2026-11-29 13:46:12,730] INFO [GroupCoordinator 1]: Member worker-2-9c1d7e55-3a04-4b61-8f0e-7d2a6c5b4e3a in "
	"group payments-ledger has failed, removing it from the group (kafka.coordinator.group.GroupCoordinator)",
	"[2026-11-29 14:12:41,250] INFO [GroupCoordinator 2]: Member MemberMetadata(memberId=worker-3-0e8d4c2b-6f71-"
	"4a9e-b3d5-1c0f9e8a7b6d, groupInstanceId=None, clientId=worker-3, clientHost=/10.1.0.13, sessionTimeoutMs=45000, "
	"rebalanceTimeoutMs=300000, supportedProtocols=List(range)) has left group payments-ledger through explicit "
	"`LeaveGroup`; client reason: consumer poll timeout has expired. (kafka.coordinator.group.GroupCoordinator)",
	"[2026-11-29 16:00:05,012] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=12] [GroupId "
	"orders-v3] Bumped group epoch to 6. (org.apache.kafka.coordinator.group.GroupMetadataManager)",
	"[2026-11-29 16:00:05,010] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=12] [GroupId "
	"orders-v3] Member q8mKp1sWR0uX4a7LzZcT9A fenced from the group because the member session expired. "
	"(org.apache.kafka.coordinator.group.GroupMetadataManager)",
	"[2026-11-29 15:21:30,410] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=7] [Group "
	"payments-ledger] Member worker-3-0e8d4c2b-6f71-4a9e-b3d5-1c0f9e8a7b6d has left group through explicit "
	"`LeaveGroup` request; client reason: the consumer is being closed "
	"(org.apache.kafka.coordinator.group.GroupMetadataManager)",
};

static const char *const other_lines[] = {
	"[2026-11-29 13:44:59,410] INFO [Log partition=payments-3, dir=/var/lib/kafka/data] Rolled new log segment at "
	"offset 1822041 in 3 ms. (kafka.log.Log)",
	"[2026-11-29 13:45:10,001] INFO [ReplicaFetcherManager on broker 1] Removed fetcher for partitions Set(orders-2) "
	"(kafka.server.ReplicaFetcherManager)",
	"[2026-11-29 14:11:20,330] INFO [Controller id=2] Processing automatic preferred replica leader election "
	"(kafka.controller.KafkaController)",
};

typedef struct pctx {
	kg_log_parser p;
	kg_obsq q;
	uint64_t obs;
} pctx;

/* Parse a line; drop observations in batches. */
static void
on_line(void *arg, const char *line, size_t len)
{
	pctx *c = arg;
	parse_log_line(&c->p, line, len, &c->q);
	if (c->q.n >= 4096) {
		c->obs += c->q.n;
		obsq_clear(&c->q);
	}
}

/* Build a log of n lines, one coordinator line per every lines. */
static void
make_log(sbuf *b, int n, int every)
{
	int i;
	for (i = 0; i < n; i++) {
		if (i % every == 0)
			sbuf_adds(b, coordinator_lines[(i / every) % KG_ARRAY_LEN(coordinator_lines)]);
		else
			sbuf_adds(b, other_lines[i % KG_ARRAY_LEN(other_lines)]);
		sbuf_addc(b, '\n');
	}
}

/* Parse buf in 64 KiB pieces; lines per second of CPU time. */
static double
parse_rate(const sbuf *b, int nlines, uint64_t *obs)
{
	pctx c;
	kg_lines l;
	struct timespec t0, t1;
	size_t off;
	double s;
	memset(&c, 0, sizeof c);
	parse_log_init(&c.p);
	parse_lines_init(&l, 65536);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (off = 0; off < b->len; off += 65536)
		parse_lines_feed(&l, b->s + off, KG_MIN((size_t)65536, b->len - off), on_line, &c);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	c.obs += c.q.n;
	*obs = c.obs;
	obsq_clear(&c.q);
	free(c.q.v);
	parse_lines_free(&l);
	parse_log_free(&c.p);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return (double)nlines / s;
}

/* Figure 1: lines per second. */
static int
bench_parse(void)
{
	const int n = 1000000;
	sbuf a = { 0 }, b = { 0 };
	uint64_t obs;
	double r1, r2;
	make_log(&a, n, 1);
	make_log(&b, n, 10);
	r1 = parse_rate(&a, n, &obs);
	printf("bench-trace: log parse, coordinator lines only: %.0f lines/s on one core (%.1fx the target of %.0f; "
	       "%llu observations from %d lines, %.0f MB)\n",
	       r1, r1 / TARGET_LINES_PER_S, TARGET_LINES_PER_S, (unsigned long long)obs, n, (double)a.len / 1e6);
	r2 = parse_rate(&b, n, &obs);
	printf("bench-trace: log parse, server.log with 1 line in 10 from the coordinator: %.0f lines/s (%.1fx the "
	       "target)\n",
	       r2, r2 / TARGET_LINES_PER_S);
	sbuf_free(&a);
	sbuf_free(&b);
	return r1 >= TARGET_LINES_PER_S && r2 >= TARGET_LINES_PER_S ? 0 : 1;
}

/* Drive a source until cond holds or 20 s pass. */
static bool
drive_until(kg_source *s, bool (*cond)(kg_source *, kg_obsq *), kg_obsq *q)
{
	int64_t end = util_mono_us() + 20 * 1000000;
	while (util_mono_us() < end) {
		struct pollfd pfd[16];
		int n = s->ops->fds(s, pfd, 16);
		int64_t wait = KG_MAX(0, KG_MIN(s->ops->next_poll(s) - util_now_us(), 20000));
		poll(pfd, (nfds_t)n, (int)(wait / 1000));
		s->ops->poll(s, util_now_us());
		s->ops->drain(s, q);
		if (cond(s, q))
			return true;
	}
	return false;
}

/* The start-at-end request is done. */
static bool
offset_known(kg_source *s, kg_obsq *q)
{
	kg_trace_stats st;
	(void)q;
	trace_source_stats(s, &st);
	return st.offset >= 0;
}

/* An observation arrived. */
static bool
got_obs(kg_source *s, kg_obsq *q)
{
	(void)s;
	return q->n > 0;
}

/* Follow the big file through one URL; 0 when it started at the end without reading it whole. */
static int
bench_big_one(const char *label, const char *spec, const char *path)
{
	kg_trace_config c;
	kg_source *s;
	kg_trace_stats st;
	kg_obsq q = { 0 };
	size_t n;
	char err[256];
	const char *specs[1] = { spec };
	int64_t t0, t_ready, t_line;
	int rc = 0;
	memset(&c, 0, sizeof c);
	c.specs = specs;
	c.nspecs = 1;
	c.interval_us = 20000;
	t0 = util_mono_us();
	if (trace_sources_new(&c, &s, &n, err, sizeof err) < 0) {
		fprintf(stderr, "bench-trace: %s\n", err);
		return 1;
	}
	if (!drive_until(s, offset_known, &q)) {
		fprintf(stderr, "bench-trace: %s: the source never found the end\n", label);
		source_free(s);
		return 1;
	}
	t_ready = util_mono_us();
	{
		const char *line = "[2026-11-29 13:45:03,611] INFO [GroupCoordinator 1]: Stabilized group big generation 2 "
				   "(__consumer_offsets-1) with 1 members (kafka.coordinator.group.GroupCoordinator)\n";
		int fd = open(path, O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
			perror(path);
			rc = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	if (rc == 0 && !drive_until(s, got_obs, &q)) {
		fprintf(stderr, "bench-trace: %s: the new line was never parsed\n", label);
		rc = 1;
	}
	t_line = util_mono_us();
	trace_source_stats(s, &st);
	if (rc == 0) {
		printf("bench-trace: 1 GiB log over %s: at the end after %.1f ms; first new line parsed after %lld bytes "
		       "read, %.1f ms from the start (%llu requests)\n",
		       label, (double)(t_ready - t0) / 1e3, (long long)st.bytes_first_line, (double)(t_line - t0) / 1e3,
		       (unsigned long long)st.requests);
		if (st.bytes_first_line < 0 || st.bytes_first_line > 1 << 20)
			rc = 1;
	}
	obsq_clear(&q);
	free(q.v);
	source_free(s);
	return rc;
}

/* Figure 2: a 1 GiB log is followed from its end. */
static int
bench_big(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[1024], path[1100], spec[1200], err[256];
	kg_httpd *h;
	int fd, rc = 0;
	static const char last[] = "\n[2026-11-29 13:45:01,000] INFO the last line before kgtop started (x.Y)\n";
	snprintf(dir, sizeof dir, "%s/kgtop-bench-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof path, "%s/server.log", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, BIG - (off_t)(sizeof last - 1)) < 0 ||
	    pwrite(fd, last, sizeof last - 1, BIG - (off_t)(sizeof last - 1)) != (ssize_t)(sizeof last - 1)) {
		perror(path);
		rc = 1;
	}
	if (fd >= 0)
		close(fd);
	if (rc == 0) {
		snprintf(spec, sizeof spec, "log:file://%s", path);
		rc |= bench_big_one("file://", spec, path);
		h = httpd_start(dir, err, sizeof err);
		if (h == NULL) {
			fprintf(stderr, "bench-trace: %s\n", err);
			rc = 1;
		} else {
			snprintf(spec, sizeof spec, "log:http://127.0.0.1:%d/f/server.log", httpd_port(h));
			rc |= bench_big_one("HTTP (Range)", spec, path);
			httpd_stop(h);
		}
	}
	unlink(path);
	rmdir(dir);
	return rc;
}

/* Run both figures. */
int
main(void)
{
	int rc = 0;
	setenv("TZ", "UTC", 1);
	rc |= bench_parse();
	rc |= bench_big();
	return rc;
}

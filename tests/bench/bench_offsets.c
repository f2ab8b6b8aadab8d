/*
 * bench_offsets.c: --trace offsets loading a big __consumer_offsets
 * (issue 23): 10,000 classic groups, 1,000,000 records (per group 4
 * generations of 3 to 8 members with their subscriptions and assignments,
 * and 96 commits over 12 partitions), served byte for byte by the fixture
 * broker (librdkafka's mock cluster will not take records for
 * __consumer_offsets), read by the real binary.  It prints figures and
 * never fails on one:
 *
 *   load      kgtop --once --trace offsets: the load's time as kgtop says
 *             it (its log), records per second, the whole run's wall and CPU
 *             time, and its peak memory (the kernel's: wait4's ru_maxrss),
 *             against the same run without --trace offsets
 *   fold      the decoder and the folded state alone, in this process, over
 *             the same records: records per second and the memory they keep
 *
 * The records live in the fixture broker, a process of its own, so
 * kgtop's peak memory, which the kernel counts from its fork, starts from
 * this small one.
 *
 *   bench_offsets [GROUPS [RECORDS_PER_GROUP]]   (default 10000 100)
 * Environment: top_builddir (the binary: $top_builddir/kgtop), KGTOP (another).
 */
#include "config.h"

#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sources/offsets/offsets_state.h"
#include "util/util.h"

#define PARTS 50          /* __consumer_offsets' partitions, as Kafka makes it */
#define COMMIT_PARTS 12   /* partitions a group commits */

/* A growing byte buffer. */
typedef struct buf {
	unsigned char *p;
	size_t n, cap;
} buf;

/* Append n bytes. */
static void
put(buf *b, const void *v, size_t n)
{
	util_grow(&b->p, &b->cap, b->n + n, 1);
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

/* Big-endian integers, int16-length strings, int32-length bytes (the non-flexible formats). */
static void
put_be(buf *b, uint64_t v, int n)
{
	unsigned char x[8];
	int i;
	for (i = 0; i < n; i++)
		x[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
	put(b, x, (size_t)n);
}

static void
put_str(buf *b, const char *s)
{
	put_be(b, strlen(s), 2);
	put(b, s, strlen(s));
}

static void
put_bytes(buf *b, const buf *x)
{
	put_be(b, x->n, 4);
	put(b, x->p, x->n);
}

/* The coordinator's partition of a group (Java's hash of the id, as Kafka computes it). */
static int
group_part(const char *g)
{
	int32_t h = 0;
	for (; *g; g++)
		h = 31 * h + (unsigned char)*g;
	return (int)((h == INT32_MIN ? 0 : (h < 0 ? -h : h)) % PARTS);
}

/* Record k of group g (one of per): a generation every 25 (4 of 100), commits between; key and value into kb, vb. */
static void
make_record(int g, int k, int per, int64_t t0_ms, buf *kb, buf *vb, int64_t *ts_ms)
{
	char group[64], id[128], client[64], host[32], topic[32];
	kb->n = vb->n = 0;
	snprintf(group, sizeof group, "bench-group-%05d", g);
	snprintf(topic, sizeof topic, "bench-topic-%03d", g % 100);
	*ts_ms = t0_ms + (int64_t)k * 1000;
	if (k % (per / 4 > 0 ? per / 4 : 1) == 0) {
		int gen = k / (per / 4 > 0 ? per / 4 : 1) + 1, nm = 3 + (g + gen) % 6, m, p;
		put_be(kb, 2, 2);
		put_str(kb, group);
		put_be(vb, 3, 2);              /* GroupMetadataValue v3 */
		put_str(vb, "consumer");
		put_be(vb, (uint64_t)gen, 4);
		put_str(vb, "range");
		snprintf(id, sizeof id, "consumer-0-%08d-0000-4000-8000-%012d", g, gen);
		put_str(vb, id);               /* leader */
		put_be(vb, (uint64_t)*ts_ms - 40, 8);
		put_be(vb, (uint64_t)nm, 4);
		for (m = 0; m < nm; m++) {
			buf sub = { 0 }, asg = { 0 };
			snprintf(id, sizeof id, "consumer-%d-%08d-0000-4000-8000-%012d", m, g, gen);
			snprintf(client, sizeof client, "consumer-%d", m);
			snprintf(host, sizeof host, "/10.0.%d.%d", g % 250, m);
			put_str(vb, id);
			put_be(vb, 0xffff, 2);         /* no instance id */
			put_str(vb, client);
			put_str(vb, host);
			put_be(vb, 300000, 4);
			put_be(vb, 45000, 4);
			put_be(&sub, 1, 2);            /* subscription v1: one topic, no user data, owned partitions */
			put_be(&sub, 1, 4);
			put_str(&sub, topic);
			put_be(&sub, 0xffffffff, 4);
			put_be(&sub, 0, 4);
			put_be(&asg, 1, 2);            /* assignment: the topic and this member's partitions */
			put_be(&asg, 1, 4);
			put_str(&asg, topic);
			put_be(&asg, (uint64_t)((COMMIT_PARTS - m + nm - 1) / nm), 4);
			for (p = m; p < COMMIT_PARTS; p += nm)
				put_be(&asg, (uint64_t)p, 4);
			put_be(&asg, 0xffffffff, 4);
			put_bytes(vb, &sub);
			put_bytes(vb, &asg);
			free(sub.p);
			free(asg.p);
		}
		return;
	}
	put_be(kb, 1, 2);
	put_str(kb, group);
	put_str(kb, topic);
	put_be(kb, (uint64_t)(k % COMMIT_PARTS), 4);
	put_be(vb, 3, 2);                      /* OffsetCommitValue v3 */
	put_be(vb, (uint64_t)(k * 10), 8);
	put_be(vb, 0xffffffff, 4);
	put_str(vb, "");
	put_be(vb, (uint64_t)*ts_ms, 8);
}

/* Write the records as a capture file (tests/data/offsets/'s lines) and a fixture scenario serving them, in dir. */
static int
write_capture(const char *dir, int groups, int per)
{
	char path[512];
	FILE *f;
	buf kb = { 0 }, vb = { 0 };
	int64_t t0 = util_now_us() / 1000 - (int64_t)per * 1000 - 60000, ts;
	long *next = xcalloc(PARTS, sizeof *next);
	int g, k;
	size_t i;
	snprintf(path, sizeof path, "%s/records.jsonl", dir);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	for (g = 0; g < groups; g++) {
		char name[64];
		int p;
		snprintf(name, sizeof name, "bench-group-%05d", g);
		p = group_part(name);
		for (k = 0; k < per; k++) {
			make_record(g, k, per, t0, &kb, &vb, &ts);
			fprintf(f, "{\"p\":%d,\"o\":%ld,\"t\":%lld,\"k\":\"", p, next[p]++, (long long)ts);
			for (i = 0; i < kb.n; i++)
				fprintf(f, "%02x", kb.p[i]);
			fputs("\",\"v\":\"", f);
			for (i = 0; i < vb.n; i++)
				fprintf(f, "%02x", vb.p[i]);
			fputs("\"}\n", f);
		}
	}
	free(next);
	free(kb.p);
	free(vb.p);
	if (fclose(f) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/scenario.json", dir);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fprintf(f, "{\"brokers\": 1, \"topics\": [{\"name\": \"__consumer_offsets\", \"partitions\": %d, "
		   "\"internal\": true, \"records\": \"records.jsonl\"}]}\n", PARTS);
	return fclose(f);
}

/* The fixture broker serving dir/scenario.json; its pid, its bootstrap into boot. */
static pid_t
start_fixture(const char *dir, char *boot, size_t n)
{
	const char *b = getenv("top_builddir");
	char bin[512], scen[512], line[256];
	int fds[2];
	pid_t pid;
	FILE *f;
	snprintf(bin, sizeof bin, "%s/tests/fixture-broker", b != NULL && *b ? b : ".");
	snprintf(scen, sizeof scen, "%s/scenario.json", dir);
	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(bin, bin, "--port", "0", "--scenario", scen, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	boot[0] = '\0';
	if (f != NULL && fgets(line, sizeof line, f) != NULL && strncmp(line, "ready ", 6) == 0) {
		line[strcspn(line, "\n")] = '\0';
		util_strlcpy(boot, line + 6, n);
	}
	if (f != NULL)
		fclose(f);
	return pid;
}

/* The binary under test. */
static const char *
kgtop_bin(void)
{
	static char path[512];
	const char *k = getenv("KGTOP"), *b = getenv("top_builddir");
	if (k != NULL && *k)
		return k;
	snprintf(path, sizeof path, "%s/kgtop", b != NULL && *b ? b : ".");
	return path;
}

/* Run kgtop --once on bootstrap (with --trace offsets or not); its wall, CPU, peak memory; *load_s from its log. */
static void
run_kgtop(const char *bootstrap, bool offsets, double *wall, double *cpu, double *rss, double *load_s)
{
	char logp[] = "/tmp/kgtop-bench-offsets-XXXXXX";
	int lfd = mkstemp(logp);
	int64_t t0 = util_mono_us();
	struct rusage ru;
	int status;
	pid_t pid;
	char line[512];
	FILE *f;
	malloc_trim(0);
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);
		char *argv[16];
		int n = 0;
		if (getenv("KG_BENCH_SHOW") == NULL) {
			dup2(nul, 1);
			dup2(nul, 2);
		}
		argv[n++] = (char *)kgtop_bin();
		argv[n++] = "-c";
		argv[n++] = "none";
		argv[n++] = "-b";
		argv[n++] = (char *)bootstrap;
		argv[n++] = "--once";
		argv[n++] = "--timeout";
		argv[n++] = "600";
		argv[n++] = "-v";
		argv[n++] = "--log";
		argv[n++] = logp;
		if (offsets) {
			argv[n++] = "--trace";
			argv[n++] = "offsets";
		}
		argv[n] = NULL;
		execv(argv[0], argv);
		_exit(127);
	}
	wait4(pid, &status, 0, &ru);
	*wall = (double)(util_mono_us() - t0) / 1e6;
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	*rss = (double)ru.ru_maxrss / 1024.0;
	*load_s = -1;
	if ((f = fdopen(lfd, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			const char *p = strstr(line, "offsets: loaded in ");
			if (p != NULL)
				*load_s = atof(p + strlen("offsets: loaded in "));
		}
		fclose(f);
	}
	unlink(logp);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		printf("  (kgtop exited %d)\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* This process's peak memory so far (MB). */
static double
self_peak_mb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

/* The decoder and the folded state alone over the same records. */
static void
fold_alone(int groups, int per)
{
	kg_costate *st = offsets_state_new();
	buf kb = { 0 }, vb = { 0 };
	int64_t t0 = 1700000000000LL, ts, started;
	double before = self_peak_mb(), secs;
	char err[256];
	kg_obsq q = { 0 };
	long n = 0;
	int g, k, p;
	size_t told = 0;
	started = util_mono_us();
	for (g = 0; g < groups; g++) {
		char name[64];
		snprintf(name, sizeof name, "bench-group-%05d", g);
		for (k = 0; k < per; k++, n++) {
			make_record(g, k, per, t0, &kb, &vb, &ts);
			offsets_state_read(st, group_part(name), kb.p, kb.n, vb.p, vb.n, ts, false, NULL, err, sizeof err);
		}
	}
	secs = (double)(util_mono_us() - started) / 1e6;
	for (p = 0; p < PARTS; p++) {
		told += offsets_state_loaded(st, p, util_now_us(), 3600LL * 1000000, &q);
		obsq_clear(&q);
	}
	printf("fold      %ld records (made and decoded and folded) in %.2f s: %.0f records/s; kept state %.0f MB "
	       "(peak of this process %.0f -> %.0f MB); %zu observations at the load's end; %lld errors, %lld unknown\n",
	       n, secs, (double)n / secs, self_peak_mb() - before, before, self_peak_mb(), told,
	       (long long)offsets_state_stats(st)->errors, (long long)offsets_state_stats(st)->unknown);
	free(q.v);
	free(kb.p);
	free(vb.p);
	offsets_state_free(st);
}

int
main(int argc, char **argv)
{
	int groups = argc > 1 ? atoi(argv[1]) : 10000, per = argc > 2 ? atoi(argv[2]) : 100;
	char dir[] = "/tmp/kgtop-bench-offsets-XXXXXX", boot[256], path[600];
	pid_t fixture;
	double w0, c0, r0, l0, w1, c1, r1, l1;
	int64_t started = util_mono_us();
	if (groups <= 0 || per < 4 || mkdtemp(dir) == NULL)
		return 2;
	if (write_capture(dir, groups, per) < 0) {
		fprintf(stderr, "bench_offsets: cannot write the records into %s\n", dir);
		return 1;
	}
	printf("records   %d groups x %d = %ld records, written in %.1f s\n", groups, per, (long)groups * per,
	       (double)(util_mono_us() - started) / 1e6);
	started = util_mono_us();
	fixture = start_fixture(dir, boot, sizeof boot);
	if (fixture < 0 || boot[0] == '\0') {
		fprintf(stderr, "bench_offsets: the fixture broker did not start\n");
		return 1;
	}
	printf("          the fixture broker serves them as __consumer_offsets (%d partitions, byte for byte), ready in %.1f s\n",
	       PARTS, (double)(util_mono_us() - started) / 1e6);
	run_kgtop(boot, false, &w0, &c0, &r0, &l0);
	run_kgtop(boot, true, &w1, &c1, &r1, &l1);
	printf("load      kgtop --once --trace offsets: loaded in %.2f s (its log), %.0f records/s; run %.2f s wall, %.2f s CPU, "
	       "peak %.0f MB\n",
	       l1, l1 > 0 ? (double)groups * per / l1 : 0, w1, c1, r1);
	printf("          the same without --trace offsets: %.2f s wall, %.2f s CPU, peak %.0f MB: the reader adds %.0f MB, "
	       "%.0f bytes a record\n",
	       w0, c0, r0, r1 - r0, (r1 - r0) * 1048576.0 / ((double)groups * per));
	kill(fixture, SIGTERM);
	waitpid(fixture, NULL, 0);
	snprintf(path, sizeof path, "%s/records.jsonl", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/scenario.json", dir);
	unlink(path);
	rmdir(dir);
	fold_alone(groups, per);
	return 0;
}

/*
 * bench_scale.c: kgtop at scale against the fixture broker, as whole
 * processes (the real binary), with figures and their ratios to the targets
 * of issues 15 and 13; it never fails on a figure.
 *
 *   once10k   one full refresh (--once) of 10,000 groups: kgtop's CPU against
 *             the bare librdkafka program making the same calls
 *             (tests/bench/bare_refresh), run in turn, medians (target 1.2x)
 *   mem10k    --once's peak memory at 10,000 groups x 20 partitions
 *             (cost-10k.json) against the bare program's, in turn, and what
 *             kgtop holds beyond it per group and per group partition
 *             (target <= 2x); KGTOP_BEFORE: another kgtop binary beside them
 *   live10k   10,000 groups at -i 1 with --json: cadence of the lines, CPU
 *             (target < 25 % of a core), requests per second (target <= 1,500),
 *             the oldest group data in a line (target <= --full-refresh)
 *   part100k  --once over 100,000 partitions (target <= 10 s, <= 400 MB) and
 *             20,000; the CPU of one refresh at -i 1 for both
 * The dashboard idle against htop is make bench-idle (tests/bench/idle.sh).
 *
 *   bench_scale [CASE ...]        (default: all of them; one alone, e.g.
 *     make tests/bench/bench_scale tests/bench/bare_refresh tests/fixture-broker kgtop &&
 *     top_builddir=. top_srcdir=. tests/bench/bench_scale mem10k)
 * Environment: top_builddir, top_srcdir; KGTOP (the binary to measure,
 * default $top_builddir/kgtop, so a "before" binary can be measured with the
 * same program); KG_BENCH_RUNS (once10k pairs, default 5); KG_BENCH_SECONDS
 * (live10k length, default 45).
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../integration/fixture_util.h"
#include "util/util.h"

#define SEC 1000000LL

/* What a finished child cost. */
typedef struct cost {
	double wall_s, cpu_s, rss_mb; /* rss_mb: the kernel's peak (ru_maxrss) */
	double fork_mb;               /* what this process held when it forked the child (a floor of rss_mb) */
	int status;
} cost;

/* The binary under test. */
static const char *
kgtop_bin(void)
{
	static char path[512];
	const char *k = getenv("KGTOP"), *b = getenv("top_builddir");
	if (k != NULL && *k)
		return k;
	snprintf(path, sizeof path, "%s/kgtop", b && *b ? b : ".");
	return path;
}

/* An integer from the environment. */
static int
env_int(const char *name, int dflt)
{
	const char *v = getenv(name);
	return v != NULL && atoi(v) > 0 ? atoi(v) : dflt;
}

/* Compare doubles (qsort). */
static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of n values (sorts them). */
static double
median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof *v, dcmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Start argv with stdout to out_path (NULL: /dev/null); the pid. */
static pid_t
spawn(char *const argv[], const char *out_path)
{
	pid_t pid;
	/* the child's ru_maxrss counts from the fork: give back what the last runs' parsing left first */
	malloc_trim(0);
	pid = fork();
	if (pid == 0) {
		int fd = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int nul = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		if (nul >= 0)
			dup2(nul, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* This process's resident memory now (MB), from /proc/self/status. */
static double
self_rss_mb(void)
{
	char line[256];
	double v = 0;
	FILE *f = fopen("/proc/self/status", "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			v = atof(line + 6) / 1024.0;
	}
	fclose(f);
	return v;
}

/*
 * Wait for a child and say what it cost.  Its peak memory is the kernel's
 * (wait4's ru_maxrss, the high-water mark of its whole life, the last
 * moment before exit included: sampling /proc every 10 ms missed the peak
 * at exit and said half of it).  It counts from the fork, so it is at
 * least what this process held then (said as fork_mb: a few MB here, far
 * below kgtop's figures).
 */
static cost
reap(pid_t pid, int64_t started)
{
	struct rusage ru;
	cost c;
	memset(&c, 0, sizeof c);
	c.fork_mb = self_rss_mb();
	if (wait4(pid, &c.status, 0, &ru) != pid)
		return c;
	c.wall_s = (double)(util_mono_us() - started) / 1e6;
	c.cpu_s = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	c.rss_mb = (double)ru.ru_maxrss / 1024.0;
	return c;
}

/* Run argv to the end. */
static cost
run(char *const argv[], const char *out_path)
{
	int64_t t0 = util_mono_us();
	return reap(spawn(argv, out_path), t0);
}

/* CPU seconds a live process used so far (/proc, every thread, dead ones too). */
static double
proc_cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	FILE *f;
	size_t n;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return 0;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Every request the broker counted so far. */
static long
requests_total(fixture *f)
{
	static const char *const apis[] = { "ApiVersions", "Metadata", "ListGroups", "FindCoordinator",
					    "DescribeGroups", "OffsetFetch", "ListOffsets" };
	long n = 0;
	size_t i;
	poll(NULL, 0, 120); /* the stats file is rewritten at most every 50 ms */
	for (i = 0; i < KG_ARRAY_LEN(apis); i++) {
		int v = fixture_requests(f, apis[i]);
		n += v > 0 ? v : 0;
	}
	return n;
}

/* The Fetch requests the broker counted so far (the record reads), after requests_total's wait. */
static long
fetches_total(fixture *f)
{
	int v = fixture_requests(f, "Fetch");
	return v > 0 ? v : 0;
}

/* The 1-minute load average, to say how busy the machine was. */
static double
loadavg(void)
{
	double l = 0;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f != NULL) {
		if (fscanf(f, "%lf", &l) != 1)
			l = 0;
		fclose(f);
	}
	return l;
}

/* ---------------------------------------------------------------- once10k */

/* A number after key in a file (the last such line), -1 when none. */
static double
file_number(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	double v = -1;
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		const char *p = strstr(line, key);
		if (p != NULL)
			v = atof(p + strlen(key));
	}
	if (f != NULL)
		fclose(f);
	return v;
}

/* The lines of a file that hold key, -1 without the file. */
static int
file_count(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int n = 0;
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		n += strstr(line, key) != NULL;
	fclose(f);
	return n;
}

/* --once at 10,000 groups against the bare program, in turn. */
static void
bench_once10k(void)
{
	fixture f;
	int runs = env_int("KG_BENCH_RUNS", 5), i, nk = 0, nr = 0;
	double kc[32], bc[32], kw[32], bw[32], ratio[32], rss = 0, brss = 0, kr[32], br[32], rratio[32];
	const char *klog = "/tmp/kgtop-bench-once10k.log", *bout = "/tmp/kgtop-bench-once10k.bare";
	char bare[512];
	long req_before, req_kgtop = 0, req_bare = 0, fetch_before, fetch_kgtop = 0, fetch_bare = 0;
	double kreads = -1, breads = -1, banswered = -1;
	int kanswered = -1;
	const char *b = getenv("top_builddir");
	if (runs > 32)
		runs = 32;
	snprintf(bare, sizeof bare, "%s/tests/bench/bare_refresh", b && *b ? b : ".");
	printf("once10k: one full refresh (--once) of 10,000 groups (5,000 Stable x 3 members, 5,000 Empty), 10,000 partitions, 3 brokers\n");
	if (fixture_start_quiet(&f, "groups-10k.json") < 0) {
		printf("  skipped: the fixture broker did not start\n");
		return;
	}
	printf("  load average before: %.2f\n", loadavg());
	for (i = -1; i < runs; i++) {
		char *ka[] = { (char *)kgtop_bin(), "-c", "none", "-b", f.bootstrap, "--once", "--timeout", "120",
			       "-vv", "--log", (char *)klog, NULL };
		char *ba[] = { bare, f.bootstrap, NULL };
		cost k, c;
		double kref, bref;
		unlink(klog);
		req_before = requests_total(&f);
		fetch_before = fetches_total(&f);
		k = run(ka, NULL);
		if (i == 0) {
			req_kgtop = requests_total(&f) - req_before;
			fetch_kgtop = fetches_total(&f) - fetch_before;
		}
		req_before = requests_total(&f);
		fetch_before = fetches_total(&f);
		c = run(ba, bout);
		/* the refresh alone: kgtop's debug log and the bare program's line say its CPU */
		kref = file_number(klog, "process CPU ");
		bref = file_number(bout, "cpu_ms ");
		if (i >= 0 && kref > 0 && bref > 0) {
			kr[nr] = kref;
			br[nr] = bref;
			rratio[nr++] = kref / bref;
		}
		if (i == 0) {
			req_bare = requests_total(&f) - req_before;
			fetch_bare = fetches_total(&f) - fetch_before;
			/* the record reads: kgtop's debug log ("N records read", a line per record), the bare program's line */
			kreads = file_number(klog, "log-start, ");
			kanswered = file_count(klog, ": record ");
			breads = file_number(bout, " reads ");
			banswered = file_number(bout, " answered ");
		}
		if (i < 0)
			continue; /* warm-up */
		if (k.status != 0 || c.status != 0)
			printf("  run %d: kgtop exit %d, bare exit %d\n", i, WEXITSTATUS(k.status), WEXITSTATUS(c.status));
		kc[nk] = k.cpu_s;
		bc[nk] = c.cpu_s;
		kw[nk] = k.wall_s;
		bw[nk] = c.wall_s;
		ratio[nk] = c.cpu_s > 0 ? k.cpu_s / c.cpu_s : 0;
		if (k.rss_mb > rss)
			rss = k.rss_mb;
		if (c.rss_mb > brss)
			brss = c.rss_mb;
		nk++;
	}
	printf("  kgtop --once: CPU %.2f s, wall %.2f s (medians of %d), peak RSS %.0f MB (the kernel's, the largest of the runs), %ld requests and %ld Fetch\n",
	       median(kc, nk), median(kw, nk), nk, rss, req_kgtop, fetch_kgtop);
	printf("  bare librdkafka program, same calls: CPU %.2f s, wall %.2f s, peak RSS %.0f MB, %ld requests and %ld Fetch\n",
	       median(bc, nk), median(bw, nk), brss, req_bare, fetch_bare);
	printf("  records read at committed offsets (first run): kgtop %.0f, %d answered with a record; bare %.0f, %.0f answered\n",
	       kreads, kanswered, breads, banswered);
	printf("  kgtop / bare CPU: %.2fx (median of pairs; target <= 1.2x: %.2f of it)\n", median(ratio, nk),
	       median(ratio, nk) / 1.2);
	if (nr > 0)
		printf("  the refresh alone (kgtop's debug log, the bare program's line): %.0f ms against %.0f ms, %.2fx\n",
		       median(kr, nr), median(br, nr), median(rratio, nr));
	unlink(klog);
	unlink(bout);
	printf("  load average after: %.2f\n", loadavg());
	fixture_stop(&f);
}

/* ---------------------------------------------------------------- mem10k */

/*
 * --once's peak memory at 10,000 groups x 20 partitions (cost-10k.json)
 * against the bare program's, in turn (and KGTOP_BEFORE's, another kgtop
 * binary, beside them in the same run): the kernel's ru_maxrss, medians of
 * KG_BENCH_RUNS, and what kgtop holds beyond the bare program per group
 * and per group partition (a committed offset of a group: what the model
 * keeps a row of).
 */
static void
bench_mem10k(void)
{
	fixture f;
	int runs = env_int("KG_BENCH_RUNS", 5), i, n = 0;
	double km[32], bm[32], pm[32], groups = -1, parts = -1;
	const char *bout = "/tmp/kgtop-bench-mem10k.bare", *before = getenv("KGTOP_BEFORE");
	char bare[512];
	const char *b = getenv("top_builddir");
	if (before != NULL && *before == '\0')
		before = NULL;
	if (runs > 32)
		runs = 32;
	snprintf(bare, sizeof bare, "%s/tests/bench/bare_refresh", b && *b ? b : ".");
	printf("mem10k: --once peak memory at 10,000 groups x 20 partitions (cost-10k.json: 1,000 Stable, 9,000 Empty), "
	       "against the bare program, in turn\n");
	if (fixture_start_quiet(&f, "cost-10k.json") < 0) {
		printf("  skipped: the fixture broker did not start\n");
		return;
	}
	printf("  load average before: %.2f\n", loadavg());
	for (i = -1; i < runs; i++) {
		char *ka[] = { (char *)kgtop_bin(), "-c", "none", "-b", f.bootstrap, "--once", "--timeout", "120", NULL };
		char *pa[] = { (char *)before, "-c", "none", "-b", f.bootstrap, "--once", "--timeout", "120", NULL };
		char *ba[] = { bare, f.bootstrap, NULL };
		cost k = run(ka, NULL), c = run(ba, bout), p = { 0 };
		if (before != NULL)
			p = run(pa, NULL);
		if (groups < 0) {
			groups = file_number(bout, "groups ");
			parts = file_number(bout, " committed ");
		}
		if (i < 0)
			continue; /* warm-up */
		if (k.status != 0 || c.status != 0 || p.status != 0)
			printf("  run %d: kgtop exit %d, bare exit %d, before exit %d\n", i, WEXITSTATUS(k.status),
			       WEXITSTATUS(c.status), WEXITSTATUS(p.status));
		km[n] = k.rss_mb;
		bm[n] = c.rss_mb;
		pm[n++] = p.rss_mb;
	}
	{
		double K = median(km, n), B = median(bm, n), P = median(pm, n);
		printf("  peak RSS (the kernel's ru_maxrss, medians of %d): kgtop %.1f MB, bare %.1f MB: %.2fx (target <= 2x: %.2f of it)\n",
		       n, K, B, B > 0 ? K / B : 0, B > 0 ? K / B / 2 : 0);
		if (groups > 0 && parts > 0)
			printf("  kgtop beyond the bare program: %.1f MB, %.0f bytes per group (%.0f groups) or %.0f per group partition (%.0f)\n",
			       K - B, (K - B) * 1048576 / groups, groups, (K - B) * 1048576 / parts, parts);
		if (before != NULL)
			printf("  KGTOP_BEFORE (%s): %.1f MB, %.2fx the bare program; this build / before: %.2f\n", before, P,
			       B > 0 ? P / B : 0, P > 0 ? K / P : 0);
	}
	unlink(bout);
	printf("  load average after: %.2f\n", loadavg());
	fixture_stop(&f);
}

/* ---------------------------------------------------------------- live10k */

/* Figures from the --json lines of a run. */
typedef struct lines {
	int n;
	double gap_med, gap_max;
	double oldest_s;     /* the oldest group data in any line after the first --full-refresh, -1 unknown */
	int refresh_first, refresh_last;
} lines;

/* Parse an ISO time string into seconds (UTC). */
static double
iso_s(const char *s)
{
	struct tm tm;
	double frac = 0;
	const char *dot;
	memset(&tm, 0, sizeof tm);
	if (s == NULL || strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) == NULL)
		return 0;
	dot = strchr(s, '.');
	if (dot != NULL)
		frac = atof(dot);
	return (double)timegm(&tm) + frac;
}

/* Read a --json output file. */
static lines
read_lines(const char *path, double skip_s)
{
	lines L;
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	double gaps[4096], first = 0, prev = 0;
	int ng = 0;
	memset(&L, 0, sizeof L);
	L.oldest_s = -1;
	L.refresh_first = L.refresh_last = -1;
	while (f != NULL && getline(&buf, &cap, f) > 0) {
		cJSON *j = cJSON_Parse(buf), *gs, *g, *r;
		double t;
		if (j == NULL)
			continue;
		t = (double)cJSON_GetNumberValue(cJSON_GetObjectItem(j, "time_us")) / 1e6;
		if (L.n == 0)
			first = t;
		else if (ng < 4096)
			gaps[ng++] = t - prev;
		prev = t;
		L.n++;
		r = cJSON_GetObjectItem(j, "refresh");
		if (cJSON_IsNumber(r)) {
			if (L.refresh_first < 0)
				L.refresh_first = r->valueint;
			L.refresh_last = r->valueint;
		}
		gs = cJSON_GetObjectItem(j, "groups");
		if (t - first >= skip_s) {
			cJSON_ArrayForEach(g, gs) {
				const char *dt = cJSON_GetStringValue(cJSON_GetObjectItem(g, "data_time"));
				double age;
				if (dt == NULL)
					continue;
				age = t - iso_s(dt);
				if (age > L.oldest_s)
					L.oldest_s = age;
			}
		}
		cJSON_Delete(j);
	}
	free(buf);
	if (f != NULL)
		fclose(f);
	L.gap_max = 0;
	for (int i = 0; i < ng; i++)
		L.gap_max = gaps[i] > L.gap_max ? gaps[i] : L.gap_max;
	L.gap_med = median(gaps, ng);
	return L;
}

/*
 * A --json run of secs seconds at -i 1: its CPU share, requests and
 * refreshes per second after warm_s (a refresh lists the groups once: one
 * ListGroups per broker, 3 here).
 */
static void
json_run(fixture *f, int secs, int warm_s, const char *out, double *cpu_share, double *req_s, double *refresh_s)
{
	char dur[16];
	char *ka[] = { (char *)kgtop_bin(), "-c", "none", "-b", f->bootstrap, "--json", "--full", "-i", "1", "--duration", dur, NULL };
	int64_t t0 = util_mono_us(), t1;
	pid_t pid;
	double c1, secs_m;
	long r1;
	int l1;
	cost c;
	snprintf(dur, sizeof dur, "%d", secs);
	pid = spawn(ka, out);
	poll(NULL, 0, warm_s * 1000);
	c1 = proc_cpu_s(pid);
	r1 = requests_total(f);
	l1 = fixture_requests(f, "ListGroups");
	t1 = util_mono_us();
	c = reap(pid, t0);
	secs_m = (double)(util_mono_us() - t1) / 1e6;
	*cpu_share = (c.cpu_s - c1) / secs_m;
	*req_s = (double)(requests_total(f) - r1) / secs_m;
	*refresh_s = (double)(fixture_requests(f, "ListGroups") - l1) / 3.0 / secs_m;
}

/* 10,000 groups at -i 1. */
static void
bench_live10k(void)
{
	fixture f;
	int secs = env_int("KG_BENCH_SECONDS", 45);
	double share, reqs, rfs;
	lines L;
	const char *out = "/tmp/kgtop-bench-live10k.jsonl";
	printf("live10k: 10,000 groups at -i 1 with --json for %d s (steady figures after 15 s)\n", secs);
	if (fixture_start_quiet(&f, "groups-10k.json") < 0) {
		printf("  skipped: the fixture broker did not start\n");
		return;
	}
	printf("  load average before: %.2f\n", loadavg());
	json_run(&f, secs, 15, out, &share, &reqs, &rfs);
	L = read_lines(out, 35);
	printf("  lines %d, one every %.2f s (median; longest gap %.2f s; target 1.0 s); %.2f refreshes per second\n", L.n,
	       L.gap_med, L.gap_max, rfs);
	if (L.refresh_first >= 0)
		printf("  refresh numbers %d..%d in %d lines\n", L.refresh_first, L.refresh_last, L.n);
	printf("  kgtop CPU %.1f %% of a core (target < 25 %%: %.2f of it)\n", share * 100, share / 0.25);
	printf("  requests %.0f per second (target <= 1,500: %.2f of it)\n", reqs, reqs / 1500);
	if (L.oldest_s >= 0)
		printf("  oldest group data in a line after 35 s: %.1f s (target <= --full-refresh, 30 s: %.2f of it)\n",
		       L.oldest_s, L.oldest_s / 30);
	else
		printf("  oldest group data: not said by this binary (no data_time)\n");
	printf("  load average after: %.2f\n", loadavg());
	unlink(out);
	fixture_stop(&f);
}

/* --------------------------------------------------------------- part100k */

/* --once and the CPU of one refresh over a cluster of many partitions. */
static void
partitions(const char *scenario, const char *label)
{
	fixture f;
	char *ka[] = { (char *)kgtop_bin(), "-c", "none", "-b", NULL, "--once", "--timeout", "120", NULL };
	const char *out = "/tmp/kgtop-bench-parts.jsonl";
	double share, reqs, rfs;
	cost c;
	lines L;
	if (fixture_start_quiet(&f, scenario) < 0) {
		printf("  %s: skipped, the fixture broker did not start\n", label);
		return;
	}
	ka[4] = f.bootstrap;
	c = run(ka, NULL);
	printf("  %s: --once %s in %.1f s (target <= 10 s: %.2f of it), CPU %.1f s, peak RSS %.0f MB (the kernel's ru_maxrss; "
	       "the bench held %.0f MB at the fork; target <= 400: %.2f of it)\n",
	       label, c.status == 0 ? "answered" : "FAILED", c.wall_s, c.wall_s / 10, c.cpu_s, c.rss_mb, c.fork_mb, c.rss_mb / 400);
	json_run(&f, 30, 10, out, &share, &reqs, &rfs);
	L = read_lines(out, 0);
	printf("  %s: at -i 1, %d lines in 30 s; after 10 s %.2f refreshes per second at %.1f %% of a core: %.0f ms of CPU per refresh\n",
	       label, L.n, rfs, share * 100, rfs > 0 ? share / rfs * 1000 : 0);
	unlink(out);
	fixture_stop(&f);
}

/* 20,000 and 100,000 partitions. */
static void
bench_part100k(void)
{
	printf("part100k: many partitions (issue 13): --once time and memory, CPU per refresh\n");
	printf("  load average before: %.2f\n", loadavg());
	partitions("big.json", "20,000 partitions (500 topics x 40, 2,000 groups)");
	partitions("partitions-100k.json", "100,000 partitions (1,000 topics x 100, 1,000 groups)");
	printf("  load average after: %.2f\n", loadavg());
}

/* Run the cases named on the command line, or all. */
int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} cases[] = { { "once10k", bench_once10k }, { "mem10k", bench_mem10k }, { "live10k", bench_live10k },
		      { "part100k", bench_part100k } };
	size_t i;
	int a;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("bench_scale: %s\n", kgtop_bin());
	for (i = 0; i < KG_ARRAY_LEN(cases); i++) {
		bool want = argc < 2;
		for (a = 1; a < argc; a++)
			want |= strcmp(argv[a], cases[i].name) == 0;
		if (want) {
			cases[i].fn();
			printf("\n");
		}
	}
	return 0;
}

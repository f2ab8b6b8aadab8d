/*
 * bench_attention.c (issue 24, item 2): make bench-attention.  How long a
 * stall takes to be judged STALLED in the selected group and in a group
 * neither selected nor shown, at 10,000 groups, and the requests a second
 * the kafka source sends meanwhile.  Figures and ratios, never a verdict.
 *
 * The cluster is the fixture broker's stall-10k.json (cost-10k.json's
 * 10,000 groups x 20 partitions, 1,000 live on topics growing 10 records/s,
 * their commits keeping up; 9,000 Empty), the real collector, kafka source
 * and tracker as the dashboard runs them (-i 1, --full-refresh 30,
 * --max-requests 1500, --lag-window 5m): 24 groups on screen (group-0000
 * to group-0023) with group-0007 selected.  After a warm-up (both groups
 * judged moving), one step freezes group-0007's and group-0500's commits;
 * the bench polls each one's verdict and prints the seconds from the
 * freeze to STALLED beside the rule's own (and, before, how often each
 * group's committed offsets were asked, by their time: the rule counts a freeze from the first answer after
 * it, so a group is judged late by up to the time between two): its threshold (a tenth of
 * --lag-window, at least two refreshes and twice the usual gap between
 * the group's commits, as the tracker measured it) plus two refreshes.
 * Environment: BENCH_ATTENTION_WINDOW (a --lag-window in seconds, default
 * 300), BENCH_ATTENTION_MAX_REQUESTS (default the option's),
 * BENCH_ATTENTION_SETTLE (seconds run after the warm-up before the freeze,
 * default 60: the gap between commits is an average the first turns made
 * long), BENCH_ATTENTION_LOG (a file for kgtop's debug log, as -vv --log
 * writes it), BENCH_ATTENTION_TRACE (set: each group's answers after the
 * freeze, one line each: the time of its data, where its freeze is put,
 * its verdict).
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../integration/fixture_util.h"
#include "model/intern.h"
#include "model/progress.h"
#include "util/log.h"
#include "util/util.h"

#define SEC 1000000LL

static const char *const apis[] = { "ApiVersions", "Metadata", "ListGroups", "FindCoordinator", "DescribeGroups",
				    "ConsumerGroupDescribe", "OffsetFetch", "ListOffsets", "Fetch" };

#define NAPIS (sizeof apis / sizeof *apis)

/* Every request the broker counted so far, and by API into by[] (NAPIS). */
static long
requests(fixture *f, long *by)
{
	long n = 0;
	size_t i;
	for (i = 0; i < NAPIS; i++) {
		int v = fixture_requests(f, apis[i]);
		by[i] = v > 0 ? v : 0;
		n += by[i];
	}
	return n;
}

/* Predicate: both groups (a NULL-ended list) seen moving on every partition, the gaps between commits known, OK. */
static bool
pred_moving(live *l, const void *arg)
{
	const char *const *names = arg;
	int i;
	for (i = 0; names[i] != NULL; i++) {
		if (!live_group_moving(l, names[i]))
			return false;
	}
	return true;
}

/* Predicate: the newest snapshot has 10,000 groups. */
static bool
pred_all(live *l, const void *arg)
{
	(void)arg;
	return l->snap->ngroups >= 10000;
}

/* The group's usual gap between commits: the largest of its partitions'. */
static int64_t
gap_of(live *l, const char *name)
{
	const kg_group *g = live_group(l, name);
	int64_t gap = 0;
	int k;
	for (k = 0; g != NULL && k < g->nparts; k++)
		gap = g->parts[k].commit_gap_us > gap ? g->parts[k].commit_gap_us : gap;
	return gap;
}

/* The times a group's committed offsets were asked (their time changing: what the STALLED rule judges), as the settle saw them. */
typedef struct kturns {
	int64_t first, last, most;
	int n;
} kturns;

/* Count a new offsets' time of g (its data's time where it has none apart). */
static void
turns_see(kturns *t, const kg_group *g)
{
	int64_t at = g != NULL ? kg_group_offs_time(g) : 0;
	if (g == NULL || at <= t->last)
		return;
	if (t->n > 0 && at - t->last > t->most)
		t->most = at - t->last;
	if (t->n++ == 0)
		t->first = at;
	t->last = at;
}

/* Predicate: nothing (live_wait steps the collector until its timeout). */
static bool
pred_never(live *l, const void *arg)
{
	(void)l;
	(void)arg;
	return false;
}

/* BENCH_ATTENTION_TRACE: a line when the group's offsets are newer than *last (seconds from the freeze at t0_wall). */
static void
trace(live *l, const char *name, int64_t t0_wall, int64_t *last)
{
	const kg_group *g = live_group(l, name);
	int64_t frozen = 0;
	int k;
	if (g == NULL || kg_group_offs_time(g) <= *last)
		return;
	*last = kg_group_offs_time(g);
	for (k = 0; k < g->nparts; k++)
		frozen = g->parts[k].frozen_us > frozen ? g->parts[k].frozen_us : frozen;
	printf("    %s: offsets %+6.1f s (data %+6.1f s), frozen since %+6.1f s, %s (published %+6.1f s)\n", name,
	       (double)(kg_group_offs_time(g) - t0_wall) / SEC, (double)(g->data_time_us - t0_wall) / SEC, frozen > 0 ? (double)(frozen - t0_wall) / SEC : 0.0,
	       verdict_name((kg_verdict)g->verdict), (double)(util_now_us() - t0_wall) / SEC);
}

int
main(void)
{
	const char *names[] = { "group-0007", "group-0500", NULL };
	const char *env_w = getenv("BENCH_ATTENTION_WINDOW"), *env_r = getenv("BENCH_ATTENTION_MAX_REQUESTS");
	int64_t window = (env_w != NULL ? atoll(env_w) : 300) * SEC, iv = SEC;
	double max_req = env_r != NULL ? atof(env_r) : 0;
	int64_t t0, t_end, stalled[2] = { -1, -1 }, gap[2], thr[2], warm;
	uint64_t r0;
	long q0, q1, by0[NAPIS], by1[NAPIS];
	int64_t settle = (getenv("BENCH_ATTENTION_SETTLE") != NULL ? atoll(getenv("BENCH_ATTENTION_SETTLE")) : 60) * SEC;
	size_t a;
	int32_t shown[24];
	int64_t t0_wall, traced[2] = { 0, 0 };
	kturns turns[2] = { { 0 }, { 0 } };
	bool tracing = getenv("BENCH_ATTENTION_TRACE") != NULL;
	fixture f;
	live l;
	int i;
	if (getenv("BENCH_ATTENTION_LOG") != NULL) {
		char e[256];
		if (log_open(getenv("BENCH_ATTENTION_LOG"), 2, e, sizeof e) < 0)
			printf("bench-attention: BENCH_ATTENTION_LOG: %s\n", e);
	}
	if (fixture_start_quiet(&f, "stall-10k.json") < 0) {
		printf("bench-attention: the fixture broker did not start\n");
		return 1;
	}
	if (live_open_window(&l, f.bootstrap, (int)(iv / 1000), 0, max_req, window) < 0) {
		fixture_stop(&f);
		return 1;
	}
	for (i = 0; i < 24; i++) {
		char n[32];
		snprintf(n, sizeof n, "group-%04d", i);
		shown[i] = intern_group(n);
	}
	collector_set_focus(l.c, shown, 24, intern_group("group-0007"));
	printf("bench-attention: 10,000 groups x 20 partitions (1,000 live) on the fixture broker, -i 1, --lag-window %llds, "
	       "24 groups on screen, group-0007 selected, group-0500 off screen\n", (long long)(window / SEC));
	warm = util_mono_us();
	if (!live_wait(&l, pred_all, NULL, 120000) || !live_wait(&l, pred_moving, names, 240000)) {
		printf("  the warm-up did not end: both groups judged moving within 6 min\n");
		live_close(&l);
		fixture_stop(&f);
		return 1;
	}
	/* the gap between commits the rule doubles is an average the first turns made long: let it settle */
	t0 = util_mono_us();
	while (util_mono_us() - t0 < settle) {
		live_wait(&l, pred_never, NULL, 100);
		for (i = 0; i < 2; i++)
			turns_see(&turns[i], live_group(&l, names[i]));
	}
	printf("  warm-up: %.0f s (every group asked once, both judged moving, then %.0f s more: BENCH_ATTENTION_SETTLE)\n",
	       (double)(util_mono_us() - warm) / SEC, (double)settle / SEC);
	/* a freeze is counted from the first answer after it: it is judged late by up to the time between two */
	for (i = 0; i < 2; i++)
		printf("  %-10s asked every %.1f s on average over the last %.0f s (at most %.1f s between two)\n", names[i],
		       turns[i].n > 1 ? (double)(turns[i].last - turns[i].first) / SEC / (turns[i].n - 1) : 0.0,
		       (double)settle / SEC, (double)turns[i].most / SEC);
	for (i = 0; i < 2; i++) {
		gap[i] = gap_of(&l, names[i]);
		thr[i] = progress_stall_us(window, iv);
		thr[i] = 2 * gap[i] > thr[i] ? 2 * gap[i] : thr[i];
	}
	q0 = requests(&f, by0);
	r0 = l.snap->refresh;
	t0 = util_mono_us();
	t0_wall = util_now_us();
	if (fixture_step(&f) < 0) {
		printf("  the step did not apply\n");
		live_close(&l);
		fixture_stop(&f);
		return 1;
	}
	while ((stalled[0] < 0 || stalled[1] < 0) && util_mono_us() - t0 < window) {
		live_wait(&l, pred_never, NULL, 100);
		for (i = 0; i < 2; i++) {
			const kg_group *g = live_group(&l, names[i]);
			if (tracing)
				trace(&l, names[i], t0_wall, &traced[i]);
			if (stalled[i] < 0 && g != NULL && g->verdict >= KG_VERDICT_STALLED && g->verdict != KG_VERDICT_LOST)
				stalled[i] = util_mono_us() - t0;
		}
	}
	t_end = util_mono_us();
	q1 = requests(&f, by1);
	for (i = 0; i < 2; i++) {
		double rule = (double)(thr[i] + 2 * iv) / SEC;
		if (stalled[i] >= 0)
			printf("  %-10s (%s)  STALLED %5.1f s after the freeze; the rule's threshold %4.1f s (gap between commits "
			       "%.1f s) + two refreshes = %4.1f s: ratio %.2f\n",
			       names[i], i == 0 ? "selected    " : "not selected", (double)stalled[i] / SEC, (double)thr[i] / SEC,
			       (double)gap[i] / SEC, rule, (double)stalled[i] / SEC / rule);
		else
			printf("  %-10s (%s)  not STALLED within %.0f s of the freeze (rule: %.1f s)\n", names[i],
			       i == 0 ? "selected    " : "not selected", (double)window / SEC, rule);
	}
	printf("  requests: %.0f a second over the %.0f s after the freeze (budget %.0f), %llu refreshes (%.2f s each)\n",
	       (double)(q1 - q0) / ((double)(t_end - t0) / SEC), (double)(t_end - t0) / SEC, max_req > 0 ? max_req : 1500.0,
	       (unsigned long long)(l.snap->refresh - r0),
	       l.snap->refresh > r0 ? (double)(t_end - t0) / SEC / (double)(l.snap->refresh - r0) : 0.0);
	printf("   by API a second:");
	for (a = 0; a < NAPIS; a++) {
		if (by1[a] > by0[a])
			printf(" %s %.0f", apis[a], (double)(by1[a] - by0[a]) / ((double)(t_end - t0) / SEC));
	}
	printf("\n");
	printf("  (issue 24 measured before: selected 31.2 s, not selected 80.5 and 83.4 s, 718 of 1,500 requests a second)\n");
	live_close(&l);
	fixture_stop(&f);
	return 0;
}

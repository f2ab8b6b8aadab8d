/*
 * bench_replay.c: make bench-replay: record one hour of a 200-group
 * cluster, then replay it as fast as possible and at 32x in real time.
 *
 * The recording is synthetic but churns like a busy cluster: 200 groups
 * (3 to 6 members) over 50 topics of 12 partitions, polled once a second
 * for an hour; every partition's log-end offset and every group's
 * committed offsets (so every lag) change every tick; twelve rebalances
 * (a member joins: PreparingRebalance, CompletingRebalance, Stable), some
 * eager and some cooperative.  It is written by the real recorder through
 * the real collector and tracker.  Prints the recording's size per hour,
 * the cost of recording a tick, the as-fast replay speed (which is also
 * what a rewind by re-feeding from the start would cost), and the speed a
 * 32x real-time replay reached in the collector thread against its target.
 * Never fails on timing.  KGTOP_BENCH_REPLAY_SECONDS shortens the hour.
 */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/options.h"
#include "core/collector.h"
#include "model/intern.h"
#include "model/tracker.h"
#include "record/recorder.h"
#include "record/replay.h"
#include "util/util.h"
#include "../unit/record_fake.h"

#define NGROUPS 200
#define NTOPICS 50
#define NPARTS 12
#define T0 (1795900000LL * 1000000)
#define NREBALANCES 12

static int nticks = 3600;
static int32_t topic_id[NTOPICS];
static int32_t group_id[NGROUPS];
static int rebalance_at[NGROUPS]; /* tick of the group's rebalance, -1 none */

/* Recorded time of tick k. */
static int64_t
bench_time(void *arg, int k)
{
	(void)arg;
	return T0 + (int64_t)k * 1000000;
}

/* Log-end offset of a partition at tick k. */
static int64_t
log_end(int t, int p, int k)
{
	return 1000000 + (int64_t)k * (5 + (7 * t + 13 * p) % 20);
}

/* The cluster as the kafka source would describe it at tick k. */
static void
bench_state(void *arg, int k, kg_builder *b)
{
	kg_source_health h;
	int t, p, g;
	(void)arg;
	memset(&h, 0, sizeof h);
	h.name = "kafka";
	h.status = KG_SRC_OK;
	h.since_us = T0;
	h.last_ok_us = bench_time(NULL, k);
	builder_source(b, &h);
	builder_broker(b, 1, "kafka-1.prod.example.com", 9092);
	builder_broker(b, 2, "kafka-2.prod.example.com", 9092);
	builder_broker(b, 3, "kafka-3.prod.example.com", 9092);
	for (t = 0; t < NTOPICS; t++) {
		builder_topic(b, topic_id[t], NPARTS);
		for (p = 0; p < NPARTS; p++)
			builder_partition(b, (kg_tp){ topic_id[t], p }, (t + p) % 3 + 1, log_end(t, p, k));
	}
	for (g = 0; g < NGROUPS; g++) {
		kg_bgroup *bg = builder_group(b, group_id[g]);
		int t0 = g % NTOPICS, m, nm = 3 + g % 4, r = rebalance_at[g];
		kg_group_state st = KG_STATE_STABLE;
		bool coop = g % 3 == 0;
		if (r >= 0 && k >= r)
			nm++; /* a member joined */
		if (r >= 0 && k == r)
			st = KG_STATE_PREPARING_REBALANCE;
		else if (r >= 0 && k == r + 1)
			st = KG_STATE_COMPLETING_REBALANCE;
		bgroup_state(bg, st);
		bgroup_protocol(bg, "consumer", st == KG_STATE_STABLE ? (coop ? "cooperative-sticky" : "range") : "");
		bgroup_coordinator(bg, g % 3 + 1);
		for (m = 0; m < nm; m++) {
			char id[96], client[48];
			kg_bmember *bm;
			kg_tp a[NPARTS];
			int n = 0;
			snprintf(client, sizeof client, "svc-%03d-consumer-%d", g, m);
			snprintf(id, sizeof id, "%s-%08x-%04x-4%03x-a%03x-%012x", client, (unsigned)(g * 7919 + m),
				 (unsigned)m, (unsigned)g, (unsigned)(m * 3), (unsigned)(g * 104729 + m));
			bm = bgroup_member(bg, id);
			bmember_ids(bm, client, "/10.20.30.40", NULL);
			if (st == KG_STATE_STABLE) {
				for (p = m; p < NPARTS; p += nm)
					a[n++] = (kg_tp){ topic_id[t0], p };
			}
			bmember_assignment(bm, a, n);
		}
		for (p = 0; p < NPARTS; p++) {
			int64_t lag = 100 + (g * 31 + p * 17 + k * 7) % 500;
			bgroup_committed(bg, (kg_tp){ topic_id[t0], p }, log_end(t0, p, k) - lag);
		}
	}
}

/* Size of a file, 0 when missing. */
static int64_t
file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (int64_t)st.st_size : 0;
}

/* Replay path: as fast as possible, or in real time at speed in the collector thread; returns wall seconds. */
static double
replay(const char *path, bool as_fast, double speed, int *ticks, size_t *events)
{
	kg_replay_config rc = { path, speed, as_fast, NULL };
	kg_source *src = NULL;
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *t = tracker_new(&mc);
	kg_collector_config cc = { 1000000, 0, "bench" };
	kg_collector *c;
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	char err[512];
	int64_t start;
	bool done = false;
	*ticks = 0;
	*events = 0;
	if (replay_source_new(&rc, &src, err, sizeof err) < 0) {
		fprintf(stderr, "bench-replay: %s\n", err);
		exit(1);
	}
	collector_add_source(c, src, NULL, 0);
	start = util_mono_us();
	if (as_fast) {
		while (!done) {
			kg_frame *f;
			collector_step(c, 0);
			f = collector_take(c);
			if (f == NULL)
				continue;
			(*ticks)++;
			*events += f->events.n;
			done = f->complete > 0;
			frame_free(f);
		}
	} else {
		if (collector_start(c, err, sizeof err) < 0) {
			fprintf(stderr, "bench-replay: %s\n", err);
			exit(1);
		}
		/* the reader takes frames like the dashboard does; a slow reader skips snapshots */
		while (!done) {
			struct pollfd pfd = { collector_fd(c), POLLIN, 0 };
			kg_frame *f;
			if (poll(&pfd, 1, 1000) <= 0)
				continue;
			f = collector_take(c);
			if (f == NULL)
				continue;
			(*ticks)++;
			*events += f->events.n;
			done = f->complete > 0;
			frame_free(f);
		}
	}
	{
		double secs = (double)(util_mono_us() - start) / 1e6;
		collector_free(c);
		tracker_free(t);
		return secs;
	}
}

/* Run. */
int
main(void)
{
	char dir[] = "/tmp/kgtop-bench-replay-XXXXXX", path[128];
	rf_script sc = { 0, bench_time, bench_state, NULL, NULL };
	kg_tracker *t;
	kg_collector_config cc = { 1000000, 0, "bench" };
	kg_collector *c;
	kg_recorder *r;
	kg_tap tap;
	char err[256];
	int g, j, ticks, nmembers = NREBALANCES;
	size_t events;
	int64_t start, size;
	double rec_s, fast_s, rt_s, hours;
	const char *env = getenv("KGTOP_BENCH_REPLAY_SECONDS");

	if (env != NULL && atoi(env) >= 10)
		nticks = atoi(env);
	hours = nticks / 3600.0;
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof path, "%s/hour.kgrec", dir);
	for (j = 0; j < NTOPICS; j++) {
		char name[64];
		snprintf(name, sizeof name, "prod.events.topic-%02d", j);
		topic_id[j] = intern_topic(name);
	}
	for (g = 0; g < NGROUPS; g++) {
		char name[64];
		snprintf(name, sizeof name, "svc-%03d-consumers", g);
		group_id[g] = intern_group(name);
		rebalance_at[g] = -1;
		nmembers += 3 + g % 4;
	}
	for (j = 0; j < NREBALANCES; j++)
		rebalance_at[(j * 37 + 11) % NGROUPS] = (int)((int64_t)nticks * j / NREBALANCES) + 5;
	sc.nsteps = nticks;

	/* record */
	kg_tracker_config mc2 = options_model_defaults();
	t = tracker_new(&mc2);
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	if (recorder_open(path, 0, &r, err, sizeof err) < 0) {
		fprintf(stderr, "bench-replay: %s\n", err);
		return 1;
	}
	recorder_tap(r, &tap);
	collector_add_tap(c, &tap, NULL, 0);
	collector_add_source(c, rf_source_new(&sc), NULL, 0);
	start = util_mono_us();
	ticks = rf_run(c, nticks * 2);
	rec_s = (double)(util_mono_us() - start) / 1e6;
	collector_free(c);
	tracker_free(t);
	if (recorder_error(r) != NULL) {
		fprintf(stderr, "bench-replay: %s\n", recorder_error(r));
		return 1;
	}
	recorder_close(r);
	size = file_size(path);
	printf("bench-replay: recorded %d ticks of %d groups x %d partitions (%d members in all, %d rebalances), "
	       "%d s of cluster time\n",
	       ticks, NGROUPS, NPARTS, nmembers, NREBALANCES, nticks);
	printf("bench-replay: recording size %.1f MB per hour (%.1f kB per tick, keyframe every 60 s)\n",
	       (double)size / 1e6 / hours, (double)size / 1e3 / nticks);
	printf("bench-replay: recording costs %.2f ms per tick in the collector (model included)\n",
	       rec_s * 1e3 / nticks);

	/* as fast as possible */
	fast_s = replay(path, true, 1.0, &ticks, &events);
	printf("bench-replay: as fast as possible: %d s of recording in %.2f s of wall time = %.0fx "
	       "(%d ticks, %zu events; a rewind by re-feeding from the start would take this long)\n",
	       nticks, fast_s, nticks / fast_s, ticks, events);

	/* 32x in real time, in the collector thread */
	rt_s = replay(path, false, 32.0, &ticks, &events);
	printf("bench-replay: real time at 32x: replayed %d s of recording in %.2f s of wall time = %.1fx, target 32x "
	       "(ideal %.2f s; %s; %d frames taken, %zu events)\n",
	       nticks, rt_s, nticks / rt_s, nticks / 32.0,
	       nticks / rt_s >= 31.0 ? "keeps up" : "FALLS BEHIND", ticks, events);
	if (getenv("KGTOP_BENCH_KEEP") != NULL) {
		printf("bench-replay: kept %s\n", path);
	} else {
		unlink(path);
		rmdir(dir);
	}
	return 0;
}

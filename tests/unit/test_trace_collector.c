/*
 * test_trace_collector.c: a trace source driven by the real collector and
 * tracker through collector_step().
 *
 * A broker log (file://) gains two coordinator lines written after the
 * source started, stamped 3 s and 0.5 s in the past: the collector must
 * publish an episode with the log's start, end and generations, and the
 * source's health in the snapshot.  A second source points at nothing and
 * must show an error without slowing the loop down.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/options.h"
#include "core/collector.h"
#include "model/history.h"
#include "model/intern.h"
#include "model/tracker.h"
#include "sources/trace/trace.h"
#include "trace_util.h"

typedef struct ctx {
	kg_collector *c;
	kg_evlist ev;
	kg_snapshot *last;
	int64_t step_max_us;
} ctx;

/* One collector iteration; keep what it published. */
static void
step(void *arg)
{
	ctx *x = arg;
	kg_frame *f;
	int64_t t0 = util_mono_us(), dt;
	collector_step(x->c, 20000);
	dt = util_mono_us() - t0;
	if (dt > x->step_max_us)
		x->step_max_us = dt;
	while ((f = collector_take(x->c)) != NULL) {
		evlist_move(&x->ev, &f->events);
		if (f->snap != NULL) {
			snapshot_unref(x->last);
			x->last = snapshot_ref(f->snap);
		}
		frame_free(f);
	}
}

/* A REBALANCE_END event was published. */
static bool
ended(void *arg)
{
	ctx *x = arg;
	size_t i;
	for (i = 0; i < x->ev.n; i++) {
		if (x->ev.v[i]->kind == KG_EV_REBALANCE_END)
			return true;
	}
	return false;
}

/* The health of a source in the last snapshot. */
static const kg_source_health *
health(const ctx *x, const char *name)
{
	int i;
	for (i = 0; x->last != NULL && i < x->last->nsources; i++) {
		if (strcmp(x->last->sources[i].name, name) == 0)
			return &x->last->sources[i];
	}
	return NULL;
}

/* The log source is ok and the dead one in error. */
static bool
healths_known(void *arg)
{
	ctx *x = arg;
	const kg_source_health *a = health(x, "log:server.log"), *b = health(x, "log:127.0.0.1");
	return a != NULL && b != NULL && a->status == KG_SRC_OK && b->status == KG_SRC_ERROR;
}

/* The dead source's health says when it tries again (between its retries; a retry under way says none). */
static bool
dead_retrying(void *arg)
{
	ctx *x = arg;
	const kg_source_health *b = health(x, "log:127.0.0.1");
	return b != NULL && b->message != NULL && strstr(b->message, "retry in") != NULL;
}

/* A log line at time t. */
static void
line_at(char *buf, size_t n, int64_t t, const char *msg)
{
	char ts[40];
	tu_log_time(ts, sizeof ts, t);
	snprintf(buf, n, "[%s] INFO [GroupCoordinator 1]: %s (kafka.coordinator.group.GroupCoordinator)\n", ts, msg);
}

/* An episode between polls reaches the published events with the log's timing. */
static void
test_collector_episode(void **state)
{
	char *dir = tu_tmpdir("coll"), path[1024], spec[1200], err[256], l1[512], l2[512];
	const char *specs[2];
	kg_trace_config tc;
	kg_collector_config cc;
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *tr = tracker_new(&mc);
	kg_source *src[2];
	size_t n, i;
	ctx x;
	int64_t now, prep, stab;
	kg_episode *v = NULL;
	int ne;
	int32_t g;
	const kg_event *end = NULL;
	(void)state;
	assert_non_null(dir);
	snprintf(path, sizeof path, "%s/server.log", dir);
	assert_int_equal(tu_write_file(path, "[2026-11-29 13:00:00,000] INFO old line (x.Y)\n", 47), 0);
	snprintf(spec, sizeof spec, "log:file://%s", path);
	specs[0] = spec;
	specs[1] = "log:http://127.0.0.1:1/server.log";
	memset(&tc, 0, sizeof tc);
	tc.specs = specs;
	tc.nspecs = 2;
	tc.interval_us = 100000;
	tc.backoff_min_us = 100000;
	tc.backoff_max_us = 500000;
	assert_int_equal(trace_sources_new(&tc, src, &n, err, sizeof err), 0);
	memset(&cc, 0, sizeof cc);
	cc.interval_us = 200000;
	cc.min_publish_us = 50000;
	cc.cluster = "test";
	memset(&x, 0, sizeof x);
	if (collector_new(&cc, tr, &x.c, NULL, 0) < 0)
		abort(); /* no pipe */
	for (i = 0; i < n; i++)
		collector_add_source(x.c, src[i], NULL, 0);
	assert_true(tu_wait(healths_known, step, &x, 8000000));

	/* the coordinator's lines of a rebalance, written in one go */
	now = util_now_us() / 1000 * 1000;
	prep = now - 3000000;
	stab = now - 500000;
	line_at(l1, sizeof l1, prep,
		"Preparing to rebalance group coll-group in state PreparingRebalance with old generation 12 "
		"(__consumer_offsets-3) (reason: removing member w-2 on heartbeat expiration)");
	line_at(l2, sizeof l2, stab, "Stabilized group coll-group generation 13 (__consumer_offsets-3) with 2 members");
	assert_int_equal(tu_append_file(path, l1, strlen(l1)), 0);
	assert_int_equal(tu_append_file(path, l2, strlen(l2)), 0);
	assert_true(tu_wait(ended, step, &x, 8000000));

	g = intern_group_find("coll-group");
	assert_true(g >= 0);
	for (i = 0; i < x.ev.n; i++) {
		if (x.ev.v[i]->kind == KG_EV_REBALANCE_END)
			end = x.ev.v[i];
	}
	assert_non_null(end);
	assert_int_equal(end->group, g);
	assert_true(end->duration_us == stab - prep);
	assert_int_equal(end->generation, 13);
	ne = history_episodes(collector_history(x.c), g, &v);
	assert_int_equal(ne, 1);
	assert_true(v[0].start_us == prep);
	assert_true(v[0].end_us == stab);
	assert_int_equal(v[0].gen_start, 12);
	assert_int_equal(v[0].gen_end, 13);
	assert_int_equal(v[0].trigger, KG_REASON_SESSION_TIMEOUT);
	episodes_free(v, ne);
	/* health: the log is fine and says what it read; the dead source never slowed a step */
	assert_non_null(strstr(health(&x, "log:server.log")->message, "2 events from 2 lines"));
	assert_true(tu_wait(dead_retrying, step, &x, 8000000));
	assert_true(x.step_max_us < 500000);

	collector_free(x.c);
	tracker_free(tr);
	snapshot_unref(x.last);
	evlist_clear(&x.ev);
	free(x.ev.v);
	tu_rmdir(dir);
	free(dir);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collector_episode),
	};
	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests_name("trace_collector", tests, NULL, NULL);
}

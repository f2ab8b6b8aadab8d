/*
 * test_collector.c: the collector's promises (core/collector.h), one test
 * each, against what a tap saw the collector build.
 *
 *  - No event is lost to a slow reader: a frame holds every event since
 *    the reader last took one, in order.
 *  - The newest snapshot always wins: a frame taken late holds the last
 *    snapshot built, and a message published after it keeps it.
 *  - A stop is seen between any two sources' polls, and collector_stop()
 *    returns without waiting for the interval.
 *  - A source or a tap it has no room for is refused with words, never
 *    dropped in silence.
 *  - Live (no time master), a snapshot is dated no earlier than its
 *    sources' drains: what a source read while another was polled is not
 *    put before its cause.
 *
 * A source here is a time master (its clock is the collector's, one tick
 * per poll, as a replay is), so every step builds exactly one snapshot.
 * Its health's message changes at every tick, so the tracker derives one
 * KG_EV_SOURCE event a tick; the tap keeps each event and snapshot the
 * collector handed to its taps, the ground truth the reader's frames are
 * held against.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/collector.h"
#include "core/options.h"
#include "util/util.h"

#define SEC 1000000LL
#define T0 (1700000000LL * SEC)

/* A source: one tick per poll while steps remain; optionally sets a stop flag at a step. */
typedef struct fake {
	int step, nsteps;
	int polls;                      /* poll() calls */
	bool master;                    /* the collector's clock: polled at once while steps remain */
	volatile sig_atomic_t *stop_at; /* set at step stop_step (NULL: never) */
	int stop_step;
	int closed;                     /* close() calls */
	int complete_step;              /* a complete refresh at this step (0: never) */
} fake;

/* Poll: the next step. */
static int
fake_poll(kg_source *s, int64_t now)
{
	fake *f = s->impl;
	(void)now;
	f->polls++;
	if (f->step >= f->nsteps)
		return 0;
	f->step++;
	if (f->stop_at != NULL && f->step == f->stop_step)
		*f->stop_at = 1;
	if (f->complete_step > 0 && f->step == f->complete_step)
		return KG_SRC_NEWS | KG_SRC_COMPLETE;
	return KG_SRC_NEWS;
}

/* Contribute: its health, whose message says the step (a new one each tick: an event each tick). */
static void
fake_contribute(kg_source *s, kg_builder *b)
{
	fake *f = s->impl;
	kg_source_health h;
	char msg[32];
	snprintf(msg, sizeof msg, "step %d", f->step);
	memset(&h, 0, sizeof h);
	h.name = s->name;
	h.status = KG_SRC_ERROR;
	h.since_us = T0;
	h.message = msg;
	builder_source(b, &h);
}

/* Next poll: at once for the first step, and for every step of a master; else when the interval is due. */
static int64_t
fake_next_poll(kg_source *s)
{
	fake *f = s->impl;
	return f->step == 0 || (f->master && f->step < f->nsteps) ? 1 : 0;
}

/* Clock: the step's time, a second a step. */
static int64_t
fake_clock(kg_source *s)
{
	fake *f = s->impl;
	return T0 + f->step * SEC;
}

/* Close: the fake belongs to the test, which counts the calls. */
static void
fake_close(kg_source *s)
{
	fake *f = s->impl;
	f->closed++;
}

static const kg_source_ops master_ops = {
	.kind = "fake", .poll = fake_poll, .contribute = fake_contribute, .next_poll = fake_next_poll,
	.clock = fake_clock, .close = fake_close,
};
static const kg_source_ops plain_ops = {
	.kind = "fake", .poll = fake_poll, .contribute = fake_contribute, .next_poll = fake_next_poll, .close = fake_close,
};

static const kg_source_ops once_ops = {
	.kind = "fake", .poll = fake_poll, .contribute = fake_contribute, .next_poll = fake_next_poll,
	.close = fake_close, .once_close = true,
};

/* What the taps were handed: every event in order, and the snapshots. */
typedef struct seen {
	kg_evlist ev;
	kg_snapshot *last; /* the last snapshot built (one reference) */
	int ticks;
} seen;

/* Tap: keep the tick's events and snapshot. */
static void
seen_after(void *arg, const kg_snapshot *snap, const kg_evlist *events)
{
	seen *w = arg;
	size_t i;
	for (i = 0; i < events->n; i++)
		evlist_push(&w->ev, event_ref(events->v[i]));
	snapshot_unref(w->last);
	w->last = snapshot_ref((kg_snapshot *)snap);
	w->ticks++;
}

/* A collector around a fresh tracker with an interval, a tap into w, and a source of f. */
static kg_collector *
rig(int64_t interval_us, seen *w, fake *f, const kg_source_ops *ops, kg_tracker **t)
{
	kg_tracker_config mc = options_model_defaults();
	kg_collector_config cc = { interval_us, 0, "test" };
	kg_tap tap = { NULL, seen_after, w };
	kg_collector *c;
	char err[256];
	*t = tracker_new(&mc);
	assert_int_equal(collector_new(&cc, *t, &c, err, sizeof err), 0);
	assert_int_equal(collector_add_tap(c, &tap, err, sizeof err), 0);
	assert_int_equal(collector_add_source(c, source_new(ops, "fake", f), err, sizeof err), 0);
	return c;
}

/* Free what a rig and its tap hold. */
static void
unrig(kg_collector *c, kg_tracker *t, seen *w)
{
	collector_free(c);
	tracker_free(t);
	evlist_clear(&w->ev);
	free(w->ev.v);
	snapshot_unref(w->last);
}

/* Events a and b are the same, in the same order (the same events: the collector moves references). */
static void
assert_same_events(const kg_evlist *a, const kg_evlist *b)
{
	size_t i;
	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		if (a->v[i] != b->v[i])
			fail_msg("event %zu: seq %llu read, seq %llu derived", i, (unsigned long long)a->v[i]->seq,
				 (unsigned long long)b->v[i]->seq);
	}
}

/* A reader that takes a frame now and then gets every event derived, in order, none twice. */
static void
test_no_event_lost(void **state)
{
	fake f = { .nsteps = 30, .master = true };
	seen w = { 0 };
	kg_evlist got = { 0 };
	kg_tracker *t;
	kg_collector *c = rig(SEC, &w, &f, &master_ops, &t);
	int i;
	(void)state;
	for (i = 0; i < 30; i++) {
		collector_step(c, 0);
		/* a slow reader: it takes a frame at steps 5, 6 and 20 only, then at the end */
		if (i == 5 || i == 6 || i == 20) {
			kg_frame *fr = collector_take(c);
			assert_non_null(fr);
			evlist_move(&got, &fr->events);
			frame_free(fr);
		}
	}
	{
		kg_frame *fr = collector_take(c);
		assert_non_null(fr);
		evlist_move(&got, &fr->events);
		frame_free(fr);
	}
	assert_int_equal(w.ticks, 30);
	assert_true(w.ev.n >= 30); /* a new message each tick: an event each tick */
	assert_same_events(&got, &w.ev);
	assert_null(collector_take(c)); /* nothing twice */
	evlist_clear(&got);
	free(got.v);
	unrig(c, t, &w);
}

/* A frame taken late holds the last snapshot built and its number; a message after it keeps it. */
static void
test_newest_snapshot_wins(void **state)
{
	fake f = { .nsteps = 12, .master = true };
	seen w = { 0 };
	kg_tracker *t;
	kg_collector *c = rig(SEC, &w, &f, &master_ops, &t);
	kg_frame *fr;
	int i;
	(void)state;
	for (i = 0; i < 8; i++)
		collector_step(c, 0);
	fr = collector_take(c);
	assert_non_null(fr);
	assert_ptr_equal(fr->snap, w.last);
	assert_int_equal(fr->seq, 8);
	assert_true(fr->snap->time_us == T0 + 8 * SEC);
	frame_free(fr);
	/* four more ticks, then a command nobody takes: its message is published after the last snapshot */
	for (i = 0; i < 4; i++)
		collector_step(c, 0);
	collector_command(c, "demo", "pause-script");
	collector_step(c, 0);
	fr = collector_take(c);
	assert_non_null(fr);
	assert_non_null(fr->message);
	assert_ptr_equal(fr->snap, w.last);
	assert_int_equal(fr->seq, 12);
	assert_true(fr->snap->time_us == T0 + 12 * SEC);
	frame_free(fr);
	unrig(c, t, &w);
}

/* What test_once_close's tap saw before each derivation: the once_close source's close() calls by then. */
typedef struct closes {
	const fake *f;
	int at[8];
	int n;
} closes;

/* Tap before the tracker: count the source's closes so far. */
static void
closes_before(void *arg, const kg_obsq *q, const kg_snapshot *snap)
{
	closes *c = arg;
	(void)q;
	(void)snap;
	if (c->n < 8)
		c->at[c->n++] = c->f->closed;
}

/*
 * --once (collector_set_once): when every source completed a refresh, a
 * once_close source is closed once it contributed to the last snapshot (its
 * health, given from its stack, is in it: the builder keeps copies) and
 * before the tracker derives it; nothing of it is called again, nor closed
 * again; a source without once_close stays.
 */
static void
test_once_close(void **state)
{
	fake a = { .nsteps = 10, .complete_step = 2 }, b = { .nsteps = 10, .complete_step = 1 };
	seen w = { 0 };
	kg_tracker *t;
	kg_collector *c = rig(SEC, &w, &a, &once_ops, &t);
	closes cl = { .f = &a };
	kg_tap tap = { closes_before, NULL, &cl };
	char err[256];
	int polls, i;
	(void)state;
	assert_int_equal(collector_add_source(c, source_new(&plain_ops, "fake-b", &b), NULL, 0), 0);
	assert_int_equal(collector_add_tap(c, &tap, err, sizeof err), 0);
	collector_set_once(c);
	assert_int_equal(collector_run_until_complete(c, 10 * SEC, err, sizeof err), COLLECTOR_COMPLETE);
	assert_true(cl.n >= 2);
	for (i = 0; i < cl.n - 1; i++)
		assert_int_equal(cl.at[i], 0); /* not before every source completed */
	assert_int_equal(cl.at[cl.n - 1], 1); /* closed before the last derivation */
	assert_int_equal(a.closed, 1);
	assert_int_equal(b.closed, 0);
	assert_non_null(w.last);
	assert_int_equal(w.last->nsources, 2);
	assert_string_equal(w.last->sources[0].message, "step 2"); /* built from it before it closed */
	polls = a.polls;
	for (i = 0; i < 3; i++)
		collector_step(c, 0);
	assert_int_equal(a.polls, polls);
	assert_int_equal(collector_run_until_complete(c, SEC, err, sizeof err), COLLECTOR_COMPLETE);
	unrig(c, t, &w);
	assert_int_equal(a.closed, 1);
	assert_int_equal(b.closed, 1);
}

/* A stop asked during one source's poll is seen before the next source's. */
static void
test_stop_between_polls(void **state)
{
	static volatile sig_atomic_t stop;
	fake a = { .nsteps = 10, .stop_at = &stop, .stop_step = 3 }, b = { .nsteps = 10 }, d = { .nsteps = 10 };
	seen w = { 0 };
	kg_tracker *t;
	kg_collector *c = rig(SEC, &w, &a, &plain_ops, &t);
	int i;
	(void)state;
	stop = 0;
	assert_int_equal(collector_add_source(c, source_new(&plain_ops, "fake-b", &b), NULL, 0), 0);
	assert_int_equal(collector_add_source(c, source_new(&plain_ops, "fake-d", &d), NULL, 0), 0);
	collector_set_stop_flag(c, &stop);
	for (i = 0; i < 6; i++)
		collector_step(c, 0);
	assert_int_equal(a.polls, 3); /* the stop came during its third poll; no step polls after it */
	assert_int_equal(b.polls, 2);
	assert_int_equal(d.polls, 2);
	unrig(c, t, &w);
}

/* What a thread calling collector_stop() tells the test. */
typedef struct stopper {
	kg_collector *c;
	atomic_bool done;
} stopper;

/* Stop the collector (it joins the collector's thread). */
static void *
stop_thread(void *arg)
{
	stopper *s = arg;
	collector_stop(s->c);
	atomic_store(&s->done, true);
	return NULL;
}

/*
 * collector_stop() returns while the thread waits for a tick an hour
 * away: it wakes it.  Were it to wait for the interval, the deadline
 * (a minute, far below it) ends the test failed.
 */
static void
test_stop_does_not_wait_for_the_interval(void **state)
{
	fake f = { .nsteps = 1000000 };
	seen w = { 0 };
	kg_tracker *t;
	kg_collector *c = rig(3600 * SEC, &w, &f, &plain_ops, &t);
	stopper s = { c, false };
	pthread_t th;
	struct pollfd pfd = { collector_fd(c), POLLIN, 0 };
	char err[256];
	int64_t deadline;
	(void)state;
	assert_int_equal(collector_start(c, err, sizeof err), 0);
	/* the first snapshot comes at once; the next is an hour away */
	assert_true(poll(&pfd, 1, 60000) == 1);
	frame_free(collector_take(c));
	assert_int_equal(pthread_create(&th, NULL, stop_thread, &s), 0);
	deadline = util_mono_us() + 60 * SEC;
	while (!atomic_load(&s.done) && util_mono_us() < deadline)
		poll(NULL, 0, 10);
	if (!atomic_load(&s.done))
		fail_msg("collector_stop() still waits after a minute (the interval is an hour)");
	pthread_join(th, NULL);
	assert_int_equal(w.ticks, 1);
	unrig(c, t, &w);
}

/* The source after the last the collector holds is refused, and stays the caller's; so is a tap. */
static void
test_full_says_so(void **state)
{
	fake f = { .nsteps = 1 }, extra = { .nsteps = 1 };
	seen w = { 0 };
	kg_tracker *t;
	kg_collector *c = rig(SEC, &w, &f, &plain_ops, &t);
	kg_source *s;
	kg_tap tap = { NULL, seen_after, &w };
	char err[256];
	int n = 1, taps = 1;
	(void)state;
	for (;;) {
		s = source_new(&plain_ops, "fake", &f);
		if (collector_add_source(c, s, err, sizeof err) < 0)
			break;
		if (++n > 1000)
			fail_msg("1,000 sources taken, none refused");
	}
	source_free(s); /* refused: still the caller's */
	s = source_new(&plain_ops, "extra", &extra);
	err[0] = '\0';
	assert_int_equal(collector_add_source(c, s, err, sizeof err), -1);
	assert_non_null(strstr(err, "extra: too many sources"));
	assert_int_equal(extra.closed, 0); /* not dropped: the caller frees it */
	source_free(s);
	assert_int_equal(extra.closed, 1);
	while (collector_add_tap(c, &tap, err, sizeof err) == 0) {
		if (++taps > 1000)
			fail_msg("1,000 taps taken, none refused");
	}
	assert_non_null(strstr(err, "too many taps"));
	unrig(c, t, &w);
	assert_int_equal(f.closed, n + 1); /* every source it took, closed by the collector, and the one refused */
	print_message("# %d sources, %d taps at most\n", n, taps);
}

/*
 * Two live sources: the first's poll is slow (20 ms of a broker's answer),
 * the second reads its state at drain (as the demo reads its members'
 * requests).  Each snapshot is dated at or after that read.
 */
typedef struct drained {
	int64_t at;      /* when the source last drained (wall clock) */
	int64_t snap_at; /* the time of the snapshot built from it */
	int late;        /* snapshots dated before their drain */
	int ticks;
} drained;

static int
slow_poll(kg_source *s, int64_t now)
{
	int64_t until = util_now_us() + 20000;
	(void)s, (void)now;
	while (util_now_us() < until)
		; /* the answer takes its time: the clock moves on */
	return KG_SRC_NEWS;
}

static void
reading_drain(kg_source *s, kg_obsq *out)
{
	drained *d = s->impl;
	(void)out;
	d->at = util_now_us();
}

static int64_t
at_once(kg_source *s)
{
	(void)s;
	return 1;
}

static void
drained_before(void *arg, const kg_obsq *q, const kg_snapshot *snap)
{
	drained *d = arg;
	(void)q;
	d->snap_at = snap->time_us;
	d->late += snap->time_us < d->at;
	d->ticks++;
}

static const kg_source_ops slow_ops = { .kind = "slow", .poll = slow_poll, .next_poll = at_once };
static const kg_source_ops reading_ops = { .kind = "reading", .drain = reading_drain, .next_poll = at_once };

static void
test_dated_after_drain(void **state)
{
	kg_tracker_config mc = options_model_defaults();
	kg_collector_config cc = { 10000, 0, "test" };
	drained d = { 0 };
	kg_tap tap = { drained_before, NULL, &d };
	kg_collector *c;
	kg_tracker *t = tracker_new(&mc);
	char err[256];
	int i;
	(void)state;
	assert_int_equal(collector_new(&cc, t, &c, err, sizeof err), 0);
	assert_int_equal(collector_add_tap(c, &tap, err, sizeof err), 0);
	assert_int_equal(collector_add_source(c, source_new(&slow_ops, "slow", NULL), err, sizeof err), 0);
	assert_int_equal(collector_add_source(c, source_new(&reading_ops, "reading", &d), err, sizeof err), 0);
	for (i = 0; i < 5; i++)
		collector_step(c, 0);
	assert_true(d.ticks >= 1);
	if (d.late > 0)
		fail_msg("%d of %d snapshots dated before their sources drained (the last %.1f ms before)", d.late,
			 d.ticks, (double)(d.at - d.snap_at) / 1000.0);
	collector_free(c);
	tracker_free(t);
}

/* Entry point. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_event_lost),
		cmocka_unit_test(test_newest_snapshot_wins),
		cmocka_unit_test(test_stop_between_polls),
		cmocka_unit_test(test_stop_does_not_wait_for_the_interval),
		cmocka_unit_test(test_full_says_so),
		cmocka_unit_test(test_once_close),
		cmocka_unit_test(test_dated_after_drain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * run.c: the --once, --json and --replay --json runners (see run.h).
 *
 * --once drives the collector in this thread until every source has
 * answered once (a replay always completes: it has no timeout), then
 * prints the text report or one JSON object.  --json starts the collector
 * thread and prints a line per frame it publishes; a replay's lines come
 * from stepping the collector here, one recorded tick at a time, so none is
 * skipped.  Times in JSON lines count from the first line's snapshot.
 * Headless (--serve without a terminal) is --json without the lines: the
 * collector runs and the server answers until a signal or --duration.
 */
#include "config.h"

#include "report/run.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "util/util.h"

/* Write a buffer and a newline to stdout; false when stdout is gone. */
static bool
emit_line(sbuf *b)
{
	sbuf_addc(b, '\n');
	if (fwrite(b->s, 1, b->len, stdout) != b->len || fflush(stdout) != 0)
		return false;
	return true;
}

/* Print a frame as one JSON line (times from t0); false when stdout is gone. */
static bool
emit_json(const kg_frame *f, int64_t t0)
{
	sbuf b = { 0 };
	bool ok;
	report_json(&b, f->snap, f->events.v, f->events.n, t0);
	ok = emit_line(&b);
	sbuf_free(&b);
	return ok;
}

/* The first source in error or still connecting in this snapshot, NULL when none. */
static const kg_source_health *
source_problem(const kg_snapshot *s)
{
	int i;
	for (i = 0; s != NULL && i < s->nsources; i++) {
		if (s->sources[i].status == KG_SRC_ERROR || s->sources[i].status == KG_SRC_CONNECTING)
			return &s->sources[i];
	}
	return NULL;
}

/* --once without a complete answer: say why (a source's own words first); the exit status. */
static int
once_failed(kg_collector *c, const kg_options *o, int rc, const char *err, const kg_run_stop *stop)
{
	kg_frame *f;
	const kg_source_health *bad;
	if (*stop->flag) {
		fprintf(stderr, "kgtop: interrupted\n");
		return 1;
	}
	f = collector_take(c);
	bad = f ? source_problem(f->snap) : NULL;
	if (bad != NULL && bad->message != NULL && rc == -2)
		fprintf(stderr, "kgtop: %s: %s\n", bad->name, bad->message);
	else if (bad != NULL && bad->message != NULL)
		fprintf(stderr, "kgtop: %s: %s (no answer within %.1fs)\n", bad->name, bad->message,
			(double)o->timeout_us / 1e6);
	else
		fprintf(stderr, "kgtop: %s\n", err);
	frame_free(f);
	return 1;
}

/* True when every source of the snapshot failed (trace streams that cannot be read), said on stderr. */
static bool
all_sources_failed(const kg_snapshot *s)
{
	int i, failed = 0;
	for (i = 0; i < s->nsources; i++)
		failed += s->sources[i].status == KG_SRC_ERROR;
	if (s->nsources == 0 || failed < s->nsources)
		return false;
	fprintf(stderr, "kgtop: no source could be read (%s: %s)\n", s->sources[0].name,
		s->sources[0].message ? s->sources[0].message : "error");
	return true;
}

/* --once: wait for a complete refresh, print one report (text, or one JSON object). */
static int
run_once(kg_collector *c, const kg_options *o, const kg_run_stop *stop)
{
	char err[512];
	kg_frame *f;
	sbuf b = { 0 };
	int rc;
	/* a replay as fast as possible always completes: no timeout */
	int64_t timeout = o->replay != NULL ? INT64_MAX / 4 : o->timeout_us;
	if ((rc = collector_run_until_complete(c, timeout, err, sizeof err)) < 0)
		return once_failed(c, o, rc, err, stop);
	f = collector_take(c);
	if (f == NULL || f->snap == NULL) {
		fprintf(stderr, "kgtop: no data\n");
		frame_free(f);
		return 1;
	}
	if (o->mode == KG_MODE_JSON)
		report_json(&b, f->snap, f->events.v, f->events.n, f->snap->time_us);
	else
		report_text(&b, f->snap);
	if (!emit_line(&b))
		rc = 1;
	/* every source failed: the report says why, the status too */
	if (all_sources_failed(f->snap))
		rc = 1;
	sbuf_free(&b);
	frame_free(f);
	return rc;
}

/* --json: a line per published snapshot until a signal or --duration; headless (print false): no line. */
static int
run_json(kg_collector *c, const kg_options *o, const kg_run_stop *stop, bool print)
{
	int64_t end = o->duration_us > 0 ? (o->start_mono_us > 0 ? o->start_mono_us : util_mono_us()) + o->duration_us : 0;
	int64_t t0 = 0;
	char err[256];
	if (collector_start(c, err, sizeof err) < 0) {
		fprintf(stderr, "kgtop: %s\n", err);
		return 1;
	}
	while (!*stop->flag) {
		struct pollfd pfd[2] = { { collector_fd(c), POLLIN, 0 }, { stop->fd, POLLIN, 0 } };
		int timeout = -1;
		kg_frame *f;
		bool ok = true;
		if (end) {
			int64_t left = end - util_mono_us();
			if (left <= 0)
				break;
			timeout = (int)(left / 1000) + 1;
		}
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
			break;
		f = collector_take(c);
		if (print && f != NULL && f->snap != NULL) {
			if (t0 == 0)
				t0 = f->snap->time_us;
			ok = emit_json(f, t0);
		}
		frame_free(f);
		if (!ok)
			break;
	}
	return 0;
}

/* --replay with --json: a line per recorded tick, in this thread, until the recording ends. */
static int
run_replay_json(kg_collector *c, const kg_run_stop *stop)
{
	int64_t t0 = 0;
	bool done = false;
	while (!done && !*stop->flag) {
		kg_frame *f;
		collector_step(c, 0);
		f = collector_take(c);
		if (f == NULL)
			continue;
		done = f->complete > 0;
		if (f->snap != NULL) {
			if (t0 == 0)
				t0 = f->snap->time_us;
			if (!emit_json(f, t0))
				done = true;
		}
		frame_free(f);
	}
	return 0;
}

/* Run --once or --json. */
int
run_report(kg_collector *c, const kg_options *o, bool replay, const kg_run_stop *stop)
{
	if (o->mode == KG_MODE_ONCE || o->once)
		return run_once(c, o, stop);
	if (o->mode == KG_MODE_SERVE)
		return run_json(c, o, stop, false);
	return replay ? run_replay_json(c, stop) : run_json(c, o, stop, true);
}

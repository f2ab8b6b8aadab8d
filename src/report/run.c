/*
 * run.c: the --once, --json and --replay --json runners (see run.h).
 *
 * --once drives the collector in this thread until every source has
 * answered once (a replay always completes: it has no timeout), then
 * prints the text report or one JSON object; the kafka source makes
 * exactly one refresh for it.  --json starts the collector thread and
 * prints a line per refresh of the cluster (failed ones too: the line says
 * the source is stale and carries the data's own time) and when a source's
 * health changes, with the events of the frames in between; without a
 * cluster source (trace streams alone) a line per frame.  A replay's lines come from stepping the collector here,
 * one recorded tick at a time, so none is skipped.  Times in JSON lines
 * count from the first line's snapshot.  Headless (--serve without a
 * terminal) is --json without the lines: the collector runs and the server
 * answers until a signal or --duration.
 */
#include "config.h"

#include "report/run.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/defaults.h"
#include "report/check.h"
#include "report/json_delta.h"
#include "report/report.h"
#include "util/log.h"
#include "util/util.h"

/*
 * Write len bytes to stdout; false when stdout is gone.  A signal must get
 * through a write to a reader that stopped reading (a long --json line
 * into a full pipe): the write is our own loop, which a signal interrupts
 * (no SA_RESTART), not stdio's, which would go on writing the rest.  Once
 * stop is set, what is left gets at most KG_STOP_WRITE_US, in pieces a
 * pipe with room takes without blocking.
 */
static bool
write_out(const char *p, size_t left, const volatile sig_atomic_t *stop)
{
	int fd = fileno(stdout);
	int64_t deadline = 0;
	if (fflush(stdout) != 0)
		return false;
	while (left > 0) {
		size_t piece = left;
		ssize_t n;
		if (stop != NULL && *stop) {
			struct pollfd pfd = { fd, POLLOUT, 0 };
			int64_t now = util_mono_us();
			if (deadline == 0)
				deadline = now + KG_STOP_WRITE_US;
			if (now >= deadline || poll(&pfd, 1, (int)((deadline - now) / 1000) + 1) <= 0 ||
			    (pfd.revents & POLLOUT) == 0)
				return false;
			piece = KG_MIN(left, (size_t)PIPE_BUF);
		}
		n = write(fd, p, piece);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		p += n;
		left -= (size_t)n;
	}
	return true;
}

/* Write a buffer and a newline to stdout; false when stdout is gone. */
static bool
emit_line(sbuf *b, const volatile sig_atomic_t *stop)
{
	sbuf_addc(b, '\n');
	return write_out(b->s, b->len, stop);
}

/* report_text_each's flush: write a piece of the --once report and empty the buffer. */
static bool
emit_piece(sbuf *b, void *stop)
{
	bool ok = write_out(b->s, b->len, stop);
	b->len = 0;
	return ok;
}

/* What --json lines carry from one to the next. */
typedef struct json_lines {
	kg_jdelta *jd;        /* the last line's groups, for the next delta */
	sbuf buf;             /* the line, its memory reused */
	bool full;            /* --full: every line a keyframe */
	int64_t keyframe_us;  /* a keyframe at least this often (--keyframe) */
	int64_t key_mono;     /* when the last keyframe was written (monotonic), 0 none */
	const volatile sig_atomic_t *want_key; /* set by SIGUSR1: the next line is a keyframe */
} json_lines;

/* Start the lines of a run. */
static void
json_lines_init(json_lines *L, const kg_options *o, const kg_run_stop *stop)
{
	memset(L, 0, sizeof *L);
	L->jd = jdelta_new(o->json_full);
	L->full = o->json_full;
	L->keyframe_us = o->keyframe_us;
	L->want_key = stop->keyframe;
}

/* Free them. */
static void
json_lines_free(json_lines *L)
{
	jdelta_free(L->jd);
	sbuf_free(&L->buf);
}

/*
 * Print a snapshot and events as one JSON line (times from t0; stale: no
 * refresh came in time): a keyframe with --full, as the first line, each
 * --keyframe and when asked (SIGUSR1), else what changed since the last
 * line; false when stdout is gone.
 */
static bool
emit_json(json_lines *L, kg_snapshot *snap, const kg_evlist *ev, int64_t t0, bool stale, const volatile sig_atomic_t *stop)
{
	int64_t now = util_mono_us();
	bool key = L->full || L->key_mono == 0 || (L->keyframe_us > 0 && now - L->key_mono >= L->keyframe_us);
	jdelta_counts n;
	if (L->want_key != NULL && *L->want_key) {
		*(volatile sig_atomic_t *)L->want_key = 0;
		key = true;
	}
	sbuf_reset(&L->buf);
	n = jdelta_line(L->jd, &L->buf, snap, ev->v, ev->n, t0, stale, key);
	if (n.keyframe)
		L->key_mono = now;
	log_msg(KG_LOG_DEBUG, "json: %s line, %d groups whole, %d compared, %d patched, %d gone, %zu bytes", n.keyframe ? "keyframe" : "delta",
		  n.whole, n.written, n.patched, n.gone, L->buf.len);
	return emit_line(&L->buf, stop);
}

/* True when a cluster source numbers its refreshes in this snapshot: a line per refresh. */
static bool
has_cluster(const kg_snapshot *s)
{
	int i;
	for (i = 0; i < s->nsources; i++) {
		if (s->sources[i].role == KG_ROLE_CLUSTER)
			return true;
	}
	return false;
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
once_failed(kg_collector *c, int rc, const char *err, int64_t timeout_us, const kg_run_stop *stop)
{
	kg_frame *f;
	const kg_source_health *bad;
	if (*stop->flag) {
		log_say("interrupted");
		return 1;
	}
	f = collector_take(c);
	bad = f ? source_problem(f->snap) : NULL;
	if (bad != NULL && bad->message != NULL && rc == COLLECTOR_UNANSWERABLE)
		log_say("%s: %s", bad->name, bad->message);
	else if (bad != NULL && bad->message != NULL)
		log_say("%s: %s (no answer within %.1fs)", bad->name, bad->message,
			(double)timeout_us / 1e6);
	else
		log_say("%s", err);
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
	log_say("no source could be read (%s: %s)", s->sources[0].name,
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
	/* a replay as fast as possible always completes: no timeout; the embedded demo (librdkafka's
	 * mock cluster in this process) waits for its own consumers, slower on a loaded machine */
	int64_t timeout = o->replay != NULL ? INT64_MAX / 4 : o->timeout_us;
	if (o->demo && o->brokers == NULL)
		timeout = KG_MAX(timeout, KG_DEMO_ONCE_TIMEOUT_US);
	collector_set_once(c);
	if ((rc = collector_run_until_complete(c, timeout, err, sizeof err)) < 0)
		return once_failed(c, rc, err, timeout, stop);
	f = collector_take(c);
	if (f == NULL || f->snap == NULL) {
		log_say("no data");
		frame_free(f);
		return 1;
	}
	/* the report goes out in pieces as it is written (text 26 MB, JSON 115 MB at 10,000 groups) */
	if (o->mode == KG_MODE_JSON) {
		if (!report_json_each(&b, f->snap, f->events.v, f->events.n, f->snap->time_us, emit_piece,
				      (void *)stop->flag))
			rc = 1;
	} else if (!report_text_each(&b, f->snap, emit_piece, (void *)stop->flag)) {
		rc = 1;
	}
	if (rc == 0 && !emit_line(&b, stop->flag))
		rc = 1;
	/* every source failed: the report says why, the status too */
	if (all_sources_failed(f->snap))
		rc = 1;
	sbuf_free(&b);
	frame_free(f);
	return rc;
}

/* What --json carries between frames. */
typedef struct json_run_state {
	uint64_t last;        /* the refresh of the last line */
	kg_evlist pend;       /* events of frames no line carried yet */
	kg_snapshot *snap;    /* the newest snapshot (one reference) */
	kg_snapshot *printed; /* the last line's (one reference) */
	int64_t t0;           /* the first line's time */
	int64_t interval;     /* the refresh interval: a line at least this often */
	int64_t line_mono;    /* when the last line was written (monotonic) */
	bool stale_run;       /* the last line was a stale one: the next is due an interval after it */
	const volatile sig_atomic_t *stop; /* set by a stop signal */
	json_lines lines;     /* what the lines carry */
} json_run_state;

/*
 * True when a source's status differs between the last line's snapshot a
 * and b (one came, went, or changed); before the first line, when a source
 * is in trouble already (no broker reachable): that is news, "connecting"
 * is not.
 */
static bool
health_changed(const kg_snapshot *a, const kg_snapshot *b)
{
	int i;
	for (i = 0; a == NULL && i < b->nsources; i++) {
		if (b->sources[i].status == KG_SRC_ERROR || b->sources[i].status == KG_SRC_STALE)
			return true;
	}
	if (a == NULL)
		return false;
	if (a->nsources != b->nsources)
		return true;
	for (i = 0; i < a->nsources; i++) {
		if (a->sources[i].status != b->sources[i].status || strcmp(a->sources[i].name, b->sources[i].name) != 0)
			return true;
	}
	return false;
}

/*
 * The line a frame makes, if any: one per refresh of the cluster, and one
 * when a source's health changes (the cluster gone says so at once, not at
 * its next refresh); the events of the frames in between wait and go with
 * the next line.  Without a cluster source, one per frame.  The cadence
 * holds when the cluster is slow (a refresh waiting on a broker for
 * seconds): once an interval and a half passed without a line, a frame
 * without a new refresh makes one, marked stale, and so on each interval.
 */
static bool
json_frame(kg_frame *f, json_run_state *st)
{
	bool ok, stale = false;
	int64_t now = util_mono_us();
	evlist_move(&st->pend, &f->events);
	if (f->snap == NULL)
		return true;
	snapshot_unref(st->snap);
	st->snap = snapshot_ref(f->snap);
	if (has_cluster(f->snap) && f->snap->refresh == st->last && !health_changed(st->printed, f->snap)) {
		if (st->line_mono == 0 || now - st->line_mono < st->interval + (st->stale_run ? 0 : st->interval / 2))
			return true;
		stale = true;
	}
	st->stale_run = stale;
	st->line_mono = now;
	st->last = f->snap->refresh;
	snapshot_unref(st->printed);
	st->printed = snapshot_ref(f->snap);
	if (st->t0 == 0)
		st->t0 = f->snap->time_us;
	ok = emit_json(&st->lines, f->snap, &st->pend, st->t0, stale, st->stop);
	evlist_clear(&st->pend);
	return ok;
}

/*
 * At the end: events no line carried yet go out with the newest snapshot,
 * on a line of their own.  The exit status: 1 (said on stderr) when the
 * cluster never answered in the whole run, or ends in error (a script must
 * not take the lines of an unreachable cluster for a quiet one), else 0.
 */
static int
json_end(json_run_state *st)
{
	int rc = 0, i;
	if (st->pend.n > 0 && st->snap != NULL)
		emit_json(&st->lines, st->snap, &st->pend, st->t0 ? st->t0 : st->snap->time_us, false, st->stop);
	for (i = 0; st->snap != NULL && i < st->snap->nsources; i++) {
		const kg_source_health *h = &st->snap->sources[i];
		if (h->role == KG_ROLE_CLUSTER && (h->last_ok_us <= 0 || h->status == KG_SRC_ERROR)) {
			log_say("%s: %s%s", h->name, h->last_ok_us <= 0 ? "never answered: " : "",
				h->message != NULL ? h->message : src_status_name(h->status));
			rc = 1;
		}
	}
	evlist_clear(&st->pend);
	json_lines_free(&st->lines);
	free(st->pend.v);
	snapshot_unref(st->snap);
	snapshot_unref(st->printed);
	return rc;
}

/* True (said on stderr) when the source gave up: the stream it reads is damaged. */
static bool
gave_up(const kg_run_stop *stop)
{
	char why[512];
	if (stop->gave_up == NULL || !stop->gave_up(stop->gave_up_arg, why, sizeof why))
		return false;
	log_say("%s", why);
	return true;
}

/* --json: a line per refresh until a signal or --duration (or the source gave up: 1); headless (print false): no line. */
static int
run_json(kg_collector *c, const kg_options *o, const kg_run_stop *stop, bool print)
{
	int rc = 0;
	int64_t end = o->duration_us > 0 ? (o->start_mono_us > 0 ? o->start_mono_us : util_mono_us()) + o->duration_us : 0;
	json_run_state st;
	char err[256];
	memset(&st, 0, sizeof st);
	st.stop = stop->flag;
	st.interval = o->interval_us;
	json_lines_init(&st.lines, o, stop);
	if (collector_start(c, err, sizeof err) < 0) {
		log_say("%s", err);
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
		if (print && f != NULL)
			ok = json_frame(f, &st);
		frame_free(f);
		if (!ok)
			break;
		if (gave_up(stop)) {
			/* what came before the damage is printed: its last frame was published before the source gave up */
			f = collector_take(c);
			if (print && f != NULL)
				json_frame(f, &st);
			frame_free(f);
			rc = 1;
			break;
		}
	}
	if (json_end(&st) != 0 && print)
		rc = 1;
	return rc;
}

/* --replay with --json: a line per recorded tick, in this thread, until the recording ends. */
static int
run_replay_json(kg_collector *c, const kg_options *o, const kg_run_stop *stop)
{
	int64_t t0 = 0;
	bool done = false;
	json_lines L;
	json_lines_init(&L, o, stop);
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
			if (!emit_json(&L, f->snap, &f->events, t0, false, stop->flag))
				done = true;
		}
		frame_free(f);
	}
	json_lines_free(&L);
	return 0;
}

/* Run --once, --json or --check. */
int
run_report(kg_collector *c, const kg_options *o, bool replay, const kg_run_stop *stop)
{
	if (o->mode == KG_MODE_CHECK)
		return check_run(c, o, stop);
	if (o->mode == KG_MODE_ONCE || o->once)
		return run_once(c, o, stop);
	if (o->mode == KG_MODE_SERVE)
		return run_json(c, o, stop, false);
	return replay ? run_replay_json(c, o, stop) : run_json(c, o, stop, true);
}

/*
 * test_trace_http.c: the real trace sources against the local test HTTP
 * server (tests/http) and against file:// URLs.
 *
 * Each test drives one source through its ops the way the collector does
 * (fds, poll(2) until next_poll, poll, drain, contribute) and waits with a
 * deadline for observations, counters or health.  Log lines carry current
 * timestamps in UTC (TZ is set to UTC).  Timeouts and backoffs are
 * shortened through kg_trace_config.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../http/httpd.h"
#include "util/log.h"
#include "model/intern.h"
#include "model/snapshot.h"
#include "sources/trace/trace.h"
#include "trace_util.h"

#define DEADLINE (8LL * 1000000)

typedef struct rig {
	kg_source *s;
	kg_obsq q;
	kg_src_status status;
	char msg[512];
	bool insecure;
	int64_t poll_max_us; /* longest single poll() */
	long complete_obs;   /* observations drained when KG_SRC_COMPLETE came, -1 not yet */
	int gaps;            /* KG_OBS_LOG_FROM told (kept apart from q: the lines' observations) */
	int64_t gap_at;      /* the last one's time */
	/* what a condition waits for */
	size_t want_obs;
	kg_src_status want_status;
	const char *want_text;
	uint64_t want_requests;
} rig;

static kg_httpd *srv;
static char *root;
static char url[512];

/* A trace config with short timeouts for tests. */
static kg_trace_config
test_cfg(const char *const *specs, size_t n)
{
	kg_trace_config c;
	memset(&c, 0, sizeof c);
	c.specs = specs;
	c.nspecs = n;
	c.interval_us = 50 * 1000;
	c.connect_timeout_us = 2 * 1000000;
	c.read_timeout_us = 2 * 1000000;
	c.backoff_min_us = 50 * 1000;
	c.backoff_max_us = 200 * 1000;
	return c;
}

/* Create one source from a spec with cfg. */
static void
rig_open(rig *r, kg_trace_config *c, const char *spec)
{
	char err[256];
	size_t n = 0;
	const char *specs[1];
	memset(r, 0, sizeof *r);
	specs[0] = spec;
	c->specs = specs;
	c->nspecs = 1;
	if (trace_sources_new(c, &r->s, &n, err, sizeof err) < 0)
		fail_msg("trace_sources_new(%s): %s", spec, err);
	assert_int_equal(n, 1);
	r->status = KG_SRC_CONNECTING;
	r->complete_obs = -1;
}

/* Move the gaps the source told (KG_OBS_LOG_FROM) out of the queue into the rig's count. */
static void
gaps_apart(rig *r)
{
	size_t i, k = 0;
	for (i = 0; i < r->q.n; i++) {
		kg_obs *o = r->q.v[i];
		if (o->kind == KG_OBS_LOG_FROM) {
			assert_int_equal(o->group, -1);
			assert_string_equal(o->source, "log");
			r->gaps++;
			r->gap_at = o->time_us;
			obs_free(o);
		} else {
			r->q.v[k++] = o;
		}
	}
	r->q.n = k;
}

/* Close a rig. */
static void
rig_close(rig *r)
{
	source_free(r->s);
	obsq_clear(&r->q);
	free(r->q.v);
}

/* One collector-like iteration. */
static void
rig_step(void *arg)
{
	rig *r = arg;
	struct pollfd pfd[16];
	int n = r->s->ops->fds(r->s, pfd, 16);
	int64_t wait = r->s->ops->next_poll(r->s) - util_now_us(), t0, dt;
	int flags;
	kg_builder *b;
	kg_snapshot *snap;
	wait = KG_MAX(0, KG_MIN(wait, 20000));
	poll(pfd, (nfds_t)n, (int)(wait / 1000));
	t0 = util_mono_us();
	flags = r->s->ops->poll(r->s, util_now_us());
	dt = util_mono_us() - t0;
	if (dt > r->poll_max_us)
		r->poll_max_us = dt;
	r->s->ops->drain(r->s, &r->q);
	gaps_apart(r);
	if (flags & KG_SRC_COMPLETE) {
		if (r->complete_obs >= 0)
			fail_msg("%s: KG_SRC_COMPLETE twice", r->s->name);
		r->complete_obs = (long)r->q.n;
	}
	b = builder_new(util_now_us());
	r->s->ops->contribute(r->s, b);
	snap = builder_finish(b);
	assert_int_equal(snap->nsources, 1);
	r->status = snap->sources[0].status;
	r->insecure = snap->sources[0].insecure;
	util_strlcpy(r->msg, snap->sources[0].message ? snap->sources[0].message : "", sizeof r->msg);
	snapshot_unref(snap);
}

/* Enough observations. */
static bool
has_obs(void *arg)
{
	rig *r = arg;
	return r->q.n >= r->want_obs;
}

/* The wanted status (and text in the message, when set). */
static bool
has_status(void *arg)
{
	rig *r = arg;
	return r->status == r->want_status && (r->want_text == NULL || strstr(r->msg, r->want_text) != NULL);
}

/* Enough requests made. */
static bool
has_requests(void *arg)
{
	rig *r = arg;
	kg_trace_stats st;
	trace_source_stats(r->s, &st);
	return st.requests >= r->want_requests;
}

/* The offset is known (the start-at-end request is done). */
static bool
has_offset(void *arg)
{
	rig *r = arg;
	kg_trace_stats st;
	trace_source_stats(r->s, &st);
	return st.offset >= 0 && st.requests >= 2;
}

/* Wait for n observations in total. */
static void
wait_obs(rig *r, size_t n)
{
	r->want_obs = n;
	if (!tu_wait(has_obs, rig_step, r, DEADLINE))
		fail_msg("%s: %zu observations after the deadline, want %zu (status %s: %s)", r->s->name, r->q.n, n,
			 src_status_name(r->status), r->msg);
}

/* Wait for a status whose message contains text. */
static void
wait_status(rig *r, kg_src_status st, const char *text)
{
	r->want_status = st;
	r->want_text = text;
	if (!tu_wait(has_status, rig_step, r, DEADLINE))
		fail_msg("%s: status %s \"%s\", want %s with \"%s\"", r->s->name, src_status_name(r->status), r->msg,
			 src_status_name(st), text ? text : "");
}

/* Keep stepping a little longer, so that late extra observations would show. */
static void
settle(rig *r)
{
	r->want_requests = 0;
	{
		kg_trace_stats st;
		trace_source_stats(r->s, &st);
		r->want_requests = st.requests + 3;
	}
	if (!tu_wait(has_requests, rig_step, r, DEADLINE))
		fail_msg("%s: no further requests", r->s->name);
}

/* A coordinator line with the current time: "Stabilized group G generation N with 1 members". */
static void
stab_line(char *buf, size_t n, const char *group, int gen)
{
	char ts[40];
	tu_log_time(ts, sizeof ts, util_now_us());
	snprintf(buf, n,
		 "[%s] INFO [GroupCoordinator 1]: Stabilized group %s generation %d (__consumer_offsets-1) with 1 "
		 "members (kafka.coordinator.group.GroupCoordinator)\n",
		 ts, group, gen);
}

/* Append a stabilized line to root/name. */
static void
append_stab(const char *name, const char *group, int gen)
{
	char line[512], path[1024];
	stab_line(line, sizeof line, group, gen);
	snprintf(path, sizeof path, "%s/%s", root, name);
	assert_int_equal(tu_append_file(path, line, strlen(line)), 0);
}

/* Write a fresh file of n stabilized lines of group g, generations 1..n. */
static void
write_log(const char *name, const char *group, int n)
{
	char path[1024];
	int i;
	snprintf(path, sizeof path, "%s/%s", root, name);
	assert_int_equal(tu_write_file(path, "", 0), 0);
	for (i = 1; i <= n; i++)
		append_stab(name, group, i);
}

/* The generation of observation i. */
static int
gen_of(const rig *r, size_t i)
{
	assert_true(i < r->q.n);
	return r->q.v[i]->generation;
}

/* The URL of a served file. */
static const char *
http_url(const char *kind, const char *route, const char *name)
{
	snprintf(url, sizeof url, "%s:http://127.0.0.1:%d/%s/%s", kind, httpd_port(srv), route, name);
	return url;
}

/* The file:// URL of a file. */
static const char *
file_url(const char *kind, const char *name)
{
	snprintf(url, sizeof url, "%s:file://%s/%s", kind, root, name);
	return url;
}

/* ------------------------------------------------------------ tests */

/* A growing log over HTTP: starts at the end, follows growth with Range requests, joins split lines. */
static void
test_http_grow(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_httpd_stats hs;
	char line[512], path[1024];
	size_t half;
	kg_trace_stats st;
	(void)state;
	/* the file ends inside a line that is still being written */
	write_log("grow.log", "g-grow", 3);
	stab_line(line, sizeof line, "g-grow", 99);
	half = strlen(line) / 2;
	snprintf(path, sizeof path, "%s/grow.log", root);
	assert_int_equal(tu_append_file(path, line, half), 0);
	rig_open(&r, &c, http_url("log", "f", "grow.log"));
	assert_string_equal(r.s->name, "log:127.0.0.1");
	assert_true(tu_wait(has_offset, rig_step, &r, DEADLINE));
	wait_status(&r, KG_SRC_OK, NULL);
	assert_int_equal(r.q.n, 0); /* the old lines are not read */
	assert_int_equal(r.gaps, 1); /* and the tracker is told so: what the log said before now was not read */
	assert_true(r.gap_at > 0 && r.gap_at <= util_now_us());
	/* the rest of that line is skipped: reading starts at the next line */
	assert_int_equal(tu_append_file(path, line + half, strlen(line) - half), 0);
	append_stab("grow.log", "g-grow", 4);
	wait_obs(&r, 1);
	assert_int_equal(gen_of(&r, 0), 4);
	trace_source_stats(r.s, &st);
	assert_true(st.lines == 1);
	assert_string_equal(intern_group_name(r.q.v[0]->group), "g-grow");
	httpd_stats(srv, &hs);
	assert_non_null(strstr(hs.last_range, "bytes="));
	/* a line written in two pieces is parsed once, whole */
	stab_line(line, sizeof line, "g-grow", 5);
	half = strlen(line) / 2;
	assert_int_equal(tu_append_file(path, line, half), 0);
	settle(&r);
	assert_int_equal(r.q.n, 1);
	assert_int_equal(tu_append_file(path, line + half, strlen(line) - half), 0);
	wait_obs(&r, 2);
	assert_int_equal(gen_of(&r, 1), 5);
	settle(&r);
	assert_int_equal(r.q.n, 2);
	assert_true(strstr(r.msg, "2 events") != NULL);
	rig_close(&r);
}

/* --trace-from-start reads the whole file. */
static void
test_http_from_start(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	(void)state;
	write_log("start.log", "g-start", 3);
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "f", "start.log"));
	wait_obs(&r, 3);
	assert_int_equal(gen_of(&r, 0), 1);
	assert_int_equal(gen_of(&r, 2), 3);
	settle(&r);
	assert_int_equal(r.q.n, 3);
	assert_int_equal(r.gaps, 0); /* read whole: no gap */
	rig_close(&r);
}

/* A log larger than one request is read in bounded ranges; complete only once caught up. */
static void
test_http_chunks(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_trace_stats st;
	int i;
	(void)state;
	write_log("chunks.log", "g-chunks", 20);
	c.from_start = true;
	c.chunk = 300;
	rig_open(&r, &c, http_url("log", "f", "chunks.log"));
	wait_obs(&r, 20);
	for (i = 0; i < 20; i++)
		assert_int_equal(gen_of(&r, (size_t)i), i + 1);
	trace_source_stats(r.s, &st);
	assert_true(st.requests >= 10);
	assert_int_equal(r.complete_obs, 20);
	rig_close(&r);
}

/* A truncated log (copytruncate) is read again from its start. */
static void
test_http_truncate(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_trace_stats st;
	(void)state;
	write_log("trunc.log", "g-trunc", 4);
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "f", "trunc.log"));
	wait_obs(&r, 4);
	write_log("trunc.log", "g-trunc2", 1);
	wait_obs(&r, 5);
	assert_string_equal(intern_group_name(r.q.v[4]->group), "g-trunc2");
	trace_source_stats(r.s, &st);
	assert_true(st.truncations == 1);
	wait_status(&r, KG_SRC_OK, "truncated 1x");
	settle(&r);
	assert_int_equal(r.q.n, 5);
	rig_close(&r);
}

/* A rotated log (renamed, a new file created, already longer than the offset) is read from its start. */
static void
test_http_rotate(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_trace_stats st;
	char a[1024], b[1024];
	(void)state;
	write_log("rot.log", "g-rot", 2);
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "f", "rot.log"));
	wait_obs(&r, 2);
	snprintf(a, sizeof a, "%s/rot.log", root);
	snprintf(b, sizeof b, "%s/rot.log.1", root);
	assert_int_equal(rename(a, b), 0);
	write_log("rot.log", "g-rot-new", 4);
	wait_obs(&r, 6);
	assert_string_equal(intern_group_name(r.q.v[2]->group), "g-rot-new");
	assert_int_equal(gen_of(&r, 2), 1);
	assert_int_equal(gen_of(&r, 5), 4);
	trace_source_stats(r.s, &st);
	assert_true(st.rotations == 1);
	settle(&r);
	assert_int_equal(r.q.n, 6);
	unlink(b);
	rig_close(&r);
}

/* A live chunked stream is parsed as it arrives, on one connection. */
static void
test_http_chunked(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_httpd_stats h0, h1;
	kg_trace_stats st;
	(void)state;
	httpd_set(srv, "stream_ms", 20000);
	write_log("live.log", "g-live", 2);
	httpd_stats(srv, &h0);
	rig_open(&r, &c, http_url("log", "chunked", "live.log"));
	wait_obs(&r, 2);
	assert_true(r.gaps >= 1); /* a live stream starts wherever the server starts it */
	append_stab("live.log", "g-live", 3);
	wait_obs(&r, 3);
	assert_int_equal(gen_of(&r, 2), 3);
	httpd_stats(srv, &h1);
	assert_true(h1.requests > h0.requests);
	trace_source_stats(r.s, &st);
	assert_true(st.requests == 1); /* still the first answer */
	assert_true(st.streams == 1);
	wait_status(&r, KG_SRC_OK, "live stream");
	rig_close(&r);
	httpd_set(srv, "stream_ms", 3000);
}

/* 404 and 500 are errors with the status in the message, retried with backoff. */
static void
test_http_errors(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	(void)state;
	rig_open(&r, &c, http_url("log", "f", "missing.log"));
	wait_status(&r, KG_SRC_ERROR, "HTTP 404");
	r.want_requests = 3;
	assert_true(tu_wait(has_requests, rig_step, &r, DEADLINE));
	rig_close(&r);
	rig_open(&r, &c, http_url("jsonl", "status", "500"));
	wait_status(&r, KG_SRC_ERROR, "HTTP 500");
	rig_close(&r);
	rig_open(&r, &c, http_url("log", "redirect", "x.log"));
	wait_status(&r, KG_SRC_ERROR, "redirects are not followed");
	rig_close(&r);
	snprintf(url, sizeof url, "log:http://127.0.0.1:%d/junk", httpd_port(srv));
	rig_open(&r, &c, url);
	wait_status(&r, KG_SRC_ERROR, NULL);
	rig_close(&r);
	/* https to a plain HTTP server: TLS is really attempted, and fails */
	snprintf(url, sizeof url, "log:https://127.0.0.1:%d/f/x.log", httpd_port(srv));
	rig_open(&r, &c, url);
	wait_status(&r, KG_SRC_ERROR, "SSL");
	assert_false(r.insecure);
	rig_close(&r);
	/* --trace-insecure marks TLS streams, whose verification it turns off */
	c.insecure = true;
	rig_open(&r, &c, url);
	wait_status(&r, KG_SRC_ERROR, "SSL");
	assert_true(r.insecure);
	rig_close(&r);
}

/* A server that stops sending hits the read timeout; poll() never blocks meanwhile. */
static void
test_http_slow(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	(void)state;
	c.read_timeout_us = 300 * 1000;
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "slow", "x.log"));
	wait_status(&r, KG_SRC_ERROR, "read timeout");
	assert_true(r.poll_max_us < 100 * 1000);
	rig_close(&r);
}

/* A connection dropped mid-line: the next request resumes after what arrived; each line once. */
static void
test_http_drop(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_trace_stats st;
	size_t i;
	(void)state;
	write_log("drop.log", "g-drop", 5);
	httpd_set(srv, "drops", 1);
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "drop", "drop.log"));
	wait_obs(&r, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(gen_of(&r, i), (int)i + 1);
	trace_source_stats(r.s, &st);
	assert_true(st.failures >= 1);
	wait_status(&r, KG_SRC_OK, NULL);
	settle(&r);
	assert_int_equal(r.q.n, 5);
	httpd_set(srv, "drops", 0);
	rig_close(&r);
}

/* Garbage: NULs, invalid UTF-8, escape sequences, an over-long line; good lines still count. */
static void
test_http_garbage(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_trace_stats st;
	char path[1024], *big;
	static const char junk[] = "\x00\x01\xff\xfe garbage \x1b[31m\n[2026-11-29 13:45:01,123] INFO [GroupCoordinator "
				   "1]: Member \xc3\x28x\x1b[2J in group g-junk has failed, removing it\n";
	size_t i;
	(void)state;
	snprintf(path, sizeof path, "%s/junk.log", root);
	assert_int_equal(tu_write_file(path, junk, sizeof junk - 1), 0);
	big = xmalloc(100000);
	memset(big, 'A', 100000);
	assert_int_equal(tu_append_file(path, big, 100000), 0);
	free(big);
	assert_int_equal(tu_append_file(path, "\n", 1), 0);
	append_stab("junk.log", "g-junk", 9);
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "f", "junk.log"));
	wait_obs(&r, 2);
	assert_int_equal(r.q.v[0]->kind, KG_OBS_LEFT);
	for (i = 0; r.q.v[0]->member_id[i] != '\0'; i++)
		assert_true((unsigned char)r.q.v[0]->member_id[i] >= 0x20);
	assert_string_equal(r.q.v[0]->member_id, "?(x?[2J");
	assert_int_equal(gen_of(&r, 1), 9);
	trace_source_stats(r.s, &st);
	assert_true(st.counts.oversize == 1);
	wait_status(&r, KG_SRC_OK, "1 too long");
	rig_close(&r);
}

/* A server without ranges: the known part is skipped, growth still followed. */
static void
test_http_norange(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	(void)state;
	write_log("nr.log", "g-nr", 3);
	rig_open(&r, &c, http_url("log", "norange", "nr.log"));
	assert_true(tu_wait(has_offset, rig_step, &r, DEADLINE));
	append_stab("nr.log", "g-nr", 4);
	wait_obs(&r, 1);
	assert_int_equal(gen_of(&r, 0), 4);
	settle(&r);
	assert_int_equal(r.q.n, 1);
	rig_close(&r);
}

/* Headers come from the headers file; secrets never show, neither from it nor from the URL. */
static void
test_http_credentials(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_httpd_stats hs;
	char hpath[1024], err[256];
	kg_source *srcs[1];
	size_t n;
	const char *bad[1];
	(void)state;
	write_log("auth.log", "g-auth", 1);
	rig_open(&r, &c, http_url("log", "auth", "auth.log"));
	wait_status(&r, KG_SRC_ERROR, "HTTP 401");
	rig_close(&r);
	snprintf(hpath, sizeof hpath, "%s/headers", root);
	assert_int_equal(tu_write_file(hpath, "# kgtop test\nX-Kgtop-Token: s3cret\n", 35), 0);
	assert_int_equal(chmod(hpath, 0600), 0); /* a secret: its owner's alone */
	c.headers_file = hpath;
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "auth", "auth.log"));
	wait_obs(&r, 1);
	httpd_stats(srv, &hs);
	assert_string_equal(hs.last_token, "s3cret");
	assert_null(strstr(r.msg, "s3cret"));
	/* sent over plain http: said so, and not called "insecure" (that is TLS without verification) */
	wait_status(&r, KG_SRC_OK, "credentials sent unencrypted (http://)");
	assert_false(r.insecure);
	rig_close(&r);
	/* a password in the URL is neither in the name nor in messages */
	c.headers_file = NULL;
	snprintf(url, sizeof url, "log:http://alice:pa55word@127.0.0.1:%d/status/500", httpd_port(srv));
	rig_open(&r, &c, url);
	wait_status(&r, KG_SRC_ERROR, "HTTP 500");
	assert_null(strstr(r.msg, "pa55word"));
	assert_null(strstr(r.msg, "alice"));
	assert_null(strstr(r.s->name, "pa55word"));
	rig_close(&r);
	/* a malformed headers file is refused without echoing its content */
	assert_int_equal(tu_write_file(hpath, "X-Secret-Thing s3cret\n", 22), 0);
	assert_int_equal(chmod(hpath, 0600), 0);
	c.headers_file = hpath;
	bad[0] = "log:http://127.0.0.1:1/x";
	c.specs = bad;
	c.nspecs = 1;
	assert_int_equal(trace_sources_new(&c, srcs, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "expected \"Header: value\""));
	assert_null(strstr(err, "s3cret"));
	unlink(hpath);
}

/* Nothing listens: an error with backoff; plain http is not "insecure" even with --trace-insecure. */
static void
test_http_refused(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_trace_stats st;
	int64_t t0;
	(void)state;
	c.insecure = true;
	c.backoff_min_us = 100 * 1000;
	c.backoff_max_us = 400 * 1000;
	rig_open(&r, &c, "log:http://127.0.0.1:1/server.log");
	t0 = util_mono_us();
	wait_status(&r, KG_SRC_ERROR, "retry in");
	assert_false(r.insecure);
	r.want_requests = 4;
	assert_true(tu_wait(has_requests, rig_step, &r, DEADLINE));
	/* 100 + 200 + 400 ms of backoff at least */
	assert_true(util_mono_us() - t0 >= 700 * 1000);
	trace_source_stats(r.s, &st);
	assert_true(st.failures >= 3);
	rig_close(&r);
}

/* Jolokia: one bulk POST, metrics per client id; NaN, -1 and errors are unknowns. */
static void
test_http_jolokia(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_httpd_stats hs;
	char path[1024], *json;
	const kg_obs *a = NULL, *b = NULL;
	size_t i;
	(void)state;
	snprintf(path, sizeof path, "%s/tests/data/trace/jolokia-bulk.json", tu_srcdir());
	json = tu_read_file(path, NULL);
	assert_non_null(json);
	snprintf(path, sizeof path, "%s/jolokia.json", root);
	assert_int_equal(tu_write_file(path, json, strlen(json)), 0);
	free(json);
	snprintf(url, sizeof url, "jolokia:http://127.0.0.1:%d/jolokia", httpd_port(srv));
	rig_open(&r, &c, url);
	assert_int_equal(strncmp(r.s->name, "jolokia:127.0.0.1:", 18), 0);
	wait_obs(&r, 2);
	for (i = 0; i < r.q.n; i++) {
		assert_int_equal(r.q.v[i]->kind, KG_OBS_METRICS);
		assert_int_equal(r.q.v[i]->group, -1);
		if (strcmp(r.q.v[i]->client_id, "worker-1") == 0)
			a = r.q.v[i];
		if (strcmp(r.q.v[i]->client_id, "odd,client=id") == 0)
			b = r.q.v[i];
	}
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a->hb_age_us == 2000000);
	assert_true(a->poll_gap_us == 41000000);
	assert_true(a->poll_gap_max_us == 290500000);
	assert_true(a->rebalance_latency_avg_us == 312000);
	assert_true(a->failed_rebalances == 1);
	assert_true(a->hb_rate > 0.32 && a->hb_rate < 0.34);
	assert_true(b->hb_age_us == -1);        /* -1: never */
	assert_true(b->rebalance_latency_avg_us == -1); /* NaN */
	assert_true(b->poll_gap_us == 1500000);  /* last-poll missing: the average gap */
	httpd_stats(srv, &hs);
	assert_string_equal(hs.last_method, "POST");
	assert_string_equal(hs.last_path, "/jolokia/"); /* Jolokia 2's agent: 404 for /jolokia (tests/kafka/t_jolokia.sh) */
	assert_non_null(strstr(hs.last_body, "consumer-coordinator-metrics,client-id=*"));
	assert_non_null(strstr(hs.last_body, "type=consumer-metrics,client-id=*"));
	wait_status(&r, KG_SRC_OK, "2 clients");
	rig_close(&r);
}

/* jsonl over HTTP and rdstats over file://. */
static void
test_http_jsonl_rdstats(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	char path[1024];
	static const char jl[] = "{\"v\":1,\"ts\":1795959901123456,\"kind\":\"revoked\",\"group\":\"g-j\",\"member\":\"m-1\","
				 "\"client\":\"c-1\",\"protocol\":\"cooperative\",\"partitions\":{\"orders\":[4]}}\n"
				 "not json\n"
				 "{\"v\":2,\"ts\":1,\"kind\":\"revoked\",\"group\":\"g\"}\n";
	static const char rs[] = "{\"name\":\"c-2#consumer-1\",\"client_id\":\"c-2\",\"type\":\"consumer\",\"ts\":1,"
				 "\"time\":1795959901,\"cgrp\":{\"state\":\"up\",\"stateage\":1000,\"join_state\":"
				 "\"steady\",\"rebalance_age\":2500,\"rebalance_cnt\":3,\"rebalance_reason\":\"group is "
				 "rebalancing\",\"assignment_size\":6}}\n";
	(void)state;
	snprintf(path, sizeof path, "%s/t.jsonl", root);
	assert_int_equal(tu_write_file(path, jl, sizeof jl - 1), 0);
	c.from_start = true;
	rig_open(&r, &c, http_url("jsonl", "f", "t.jsonl"));
	wait_obs(&r, 1);
	assert_int_equal(r.q.v[0]->kind, KG_OBS_REVOKED);
	assert_int_equal(r.q.v[0]->proto, KG_PROTO_COOPERATIVE);
	assert_int_equal(r.q.v[0]->nparts, 1);
	wait_status(&r, KG_SRC_OK, "1 malformed");
	assert_non_null(strstr(r.msg, "1 unparsed"));
	rig_close(&r);
	snprintf(path, sizeof path, "%s/stats.json", root);
	assert_int_equal(tu_write_file(path, rs, sizeof rs - 1), 0);
	rig_open(&r, &c, file_url("rdstats", "stats.json"));
	wait_obs(&r, 1);
	assert_int_equal(r.q.v[0]->kind, KG_OBS_CLIENT_STATE);
	assert_string_equal(r.q.v[0]->client_id, "c-2");
	assert_true(r.q.v[0]->time_us == INT64_C(1795959901000000));
	assert_true(r.q.v[0]->rebalance_total == 3);
	assert_true(r.q.v[0]->assigned_count == 6);
	assert_true(r.q.v[0]->value == 2500000);
	assert_string_equal(r.q.v[0]->text, "up/steady, last rebalance: group is rebalancing");
	rig_close(&r);
}

/* A live stream that trickles (bytes, never a line) fails by the minimum rate; read again once it streams. */
static void
test_http_trickle(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	(void)state;
	c.read_timeout_us = 1000 * 1000;
	write_log("tr.log", "g-tr", 2);
	httpd_set(srv, "trickle_ms", 100);
	rig_open(&r, &c, http_url("log", "chunked", "tr.log"));
	wait_status(&r, KG_SRC_ERROR, "the live stream trickles (no complete line in");
	httpd_set(srv, "trickle_ms", 0);
	c.from_start = true;
	wait_status(&r, KG_SRC_OK, "live stream");
	rig_close(&r);
	/* an answer with a length that comes a byte at a time fails by the total deadline */
	c.total_timeout_us = 1500 * 1000;
	httpd_set(srv, "trickle_ms", 50);
	rig_open(&r, &c, http_url("log", "f", "tr.log"));
	wait_status(&r, KG_SRC_ERROR, "no complete answer within");
	httpd_set(srv, "trickle_ms", 0);
	rig_close(&r);
}

/* Append n jsonl lines, each naming a new member of group g, to root/name. */
static void
write_members(const char *name, const char *g, int from, int n)
{
	char path[1024];
	sbuf b = { 0 };
	int i;
	snprintf(path, sizeof path, "%s/%s", root, name);
	for (i = from; i < from + n; i++)
		sbuf_addf(&b, "{\"v\":1,\"ts\":%d,\"kind\":\"assigned\",\"group\":\"%s\",\"member\":\"m-%d\","
			  "\"partitions\":{\"t\":[0]}}\n",
			  1000 + i, g, i);
	assert_int_equal(tu_append_file(path, b.s, b.len), 0);
	sbuf_free(&b);
}

/* Step until n observations were drained, none of the drains above the budget; the most in one. */
static size_t
drain_budgeted(rig *r, size_t n, size_t budget, uint64_t max_backlog)
{
	size_t most = 0;
	int64_t end = util_mono_us() + 4 * DEADLINE;
	while (r->q.n < n && util_mono_us() < end) {
		size_t before = r->q.n;
		kg_trace_stats st;
		rig_step(r);
		trace_source_stats(r->s, &st);
		if (r->q.n - before > budget)
			fail_msg("%zu observations in one refresh, budget %zu", r->q.n - before, budget);
		if (st.backlog > max_backlog)
			fail_msg("a backlog of %llu bytes, bound %llu", (unsigned long long)st.backlog,
				 (unsigned long long)max_backlog);
		most = KG_MAX(most, r->q.n - before);
	}
	if (r->q.n < n)
		fail_msg("%zu observations after the deadline, want %zu (%s)", r->q.n, n, r->msg);
	return most;
}

/* A refresh takes at most the budget; the rest waits, shown as a backlog, and --once completes after it. */
static void
test_budget(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	char path[1024];
	bool behind = false;
	(void)state;
	snprintf(path, sizeof path, "%s/flood.jsonl", root);
	assert_int_equal(tu_write_file(path, "", 0), 0);
	write_members("flood.jsonl", "g-budget", 0, 20000);
	c.from_start = true;
	c.obs_budget = 700;
	rig_open(&r, &c, file_url("jsonl", "flood.jsonl"));
	while (r.q.n < 20000) {
		drain_budgeted(&r, r.q.n + 1, 700, 2u << 20);
		behind |= strstr(r.msg, "B behind (at most 700 events") != NULL;
		assert_true(r.complete_obs < 0 || r.q.n == 20000);
	}
	assert_true(behind);
	wait_status(&r, KG_SRC_OK, "20000 events from 20000 lines");
	assert_null(strstr(r.msg, "behind"));
	assert_int_equal(r.complete_obs, 20000);
	rig_close(&r);
	/* an endless HTTP stream: the budget holds, and the backlog stays within two chunks */
	c.from_start = false;
	c.obs_budget = 2000;
	c.chunk = 256 * 1024;
	httpd_set(srv, "flood_lines", 60000);
	snprintf(url, sizeof url, "jsonl:http://127.0.0.1:%d/flood", httpd_port(srv));
	rig_open(&r, &c, url);
	assert_true(drain_budgeted(&r, 60001, 2000, 2 * c.chunk) > 0);
	assert_int_equal(r.q.v[60000]->group, intern_group("g-flood-end"));
	httpd_set(srv, "flood_lines", 0);
	rig_close(&r);
}

/*
 * Lines out of time order across a refresh's budget: a line written after
 * a newer one but dated before it (a cause logged after its effect) reaches
 * the tracker in the same refresh as that newer one, never a refresh after.
 */
static void
test_budget_time_order(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	char path[1024];
	static const char lines[] =
		"{\"v\":1,\"ts\":1000000,\"kind\":\"joined\",\"group\":\"g-order\",\"member\":\"m-a\"}\n"
		"{\"v\":1,\"ts\":6000000,\"kind\":\"joined\",\"group\":\"g-order\",\"member\":\"m-b\"}\n"
		"{\"v\":1,\"ts\":5999900,\"kind\":\"joined\",\"group\":\"g-order\",\"member\":\"m-c\"}\n";
	int64_t end = util_mono_us() + 4 * DEADLINE;
	size_t i, steps_a_alone = 0;
	(void)state;
	snprintf(path, sizeof path, "%s/order.jsonl", root);
	assert_int_equal(tu_write_file(path, lines, sizeof lines - 1), 0);
	c.from_start = true;
	c.obs_budget = 2;
	rig_open(&r, &c, file_url("jsonl", "order.jsonl"));
	while (r.q.n < 3 && util_mono_us() < end) {
		bool b = false, cc = false;
		rig_step(&r);
		for (i = 0; i < r.q.n; i++) {
			b |= strcmp(r.q.v[i]->member_id, "m-b") == 0;
			cc |= strcmp(r.q.v[i]->member_id, "m-c") == 0;
		}
		if (b && !cc)
			fail_msg("m-b (dated 6.0 s) handed over a refresh before m-c (dated 5.9999 s, written after it)");
		steps_a_alone += r.q.n == 1;
	}
	assert_int_equal(r.q.n, 3);
	assert_true(steps_a_alone > 0); /* the budget did cut the file */
	/* file order kept */
	assert_string_equal(r.q.v[0]->member_id, "m-a");
	assert_string_equal(r.q.v[1]->member_id, "m-b");
	assert_string_equal(r.q.v[2]->member_id, "m-c");
	rig_close(&r);
}

/* file://: start at the end, growth, truncation, rotation by rename and create. */
static void
test_file_tail(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	kg_trace_stats st;
	char a[1024], b[1024];
	(void)state;
	write_log("f.log", "g-file", 3);
	c.insecure = true; /* no TLS on file:// either: never marked */
	rig_open(&r, &c, file_url("log", "f.log"));
	assert_string_equal(r.s->name, "log:f.log");
	assert_true(tu_wait(has_offset, rig_step, &r, DEADLINE));
	wait_status(&r, KG_SRC_OK, NULL);
	assert_false(r.insecure);
	append_stab("f.log", "g-file", 4);
	wait_obs(&r, 1);
	assert_int_equal(gen_of(&r, 0), 4);
	/* truncated */
	write_log("f.log", "g-file-t", 1);
	wait_obs(&r, 2);
	assert_string_equal(intern_group_name(r.q.v[1]->group), "g-file-t");
	/* rotated: the new file is longer than the offset */
	snprintf(a, sizeof a, "%s/f.log", root);
	snprintf(b, sizeof b, "%s/f.log.1", root);
	assert_int_equal(rename(a, b), 0);
	write_log("f.log", "g-file-r", 3);
	wait_obs(&r, 5);
	assert_string_equal(intern_group_name(r.q.v[2]->group), "g-file-r");
	trace_source_stats(r.s, &st);
	assert_true(st.truncations == 1);
	assert_true(st.rotations == 1);
	/* started at its end; truncated, rotated: what the old file got after the last read was not seen */
	assert_int_equal(r.gaps, 3);
	settle(&r);
	assert_int_equal(r.q.n, 5);
	unlink(b);
	/* the file disappears: an error, then it comes back */
	unlink(a);
	wait_status(&r, KG_SRC_ERROR, NULL);
	write_log("f.log", "g-file-back", 1);
	wait_obs(&r, 6);
	rig_close(&r);
}

/*
 * A missing file, a directory or a pipe behind file:// is an error in the
 * OS's words; a pipe never blocks poll().
 */
static void
test_file_not_regular(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	char fifo[1024];
	int fd;
	(void)state;
	c.from_start = true;
	rig_open(&r, &c, file_url("log", "no-such.log"));
	wait_status(&r, KG_SRC_ERROR, "/no-such.log: No such file or directory; retry in");
	rig_close(&r);
	snprintf(url, sizeof url, "log:file://%s", root);
	rig_open(&r, &c, url);
	wait_status(&r, KG_SRC_ERROR, "a directory, not a file");
	rig_close(&r);
	snprintf(fifo, sizeof fifo, "%s/pipe.log", root);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	fd = open(fifo, O_RDWR | O_NONBLOCK); /* a writer that never writes: a reader would wait for ever */
	assert_true(fd >= 0);
	rig_open(&r, &c, file_url("log", "pipe.log"));
	wait_status(&r, KG_SRC_ERROR, "a pipe, not a file");
	assert_true(r.poll_max_us < 100 * 1000);
	rig_close(&r);
	close(fd);
	unlink(fifo);
}

/* Bad specs are refused with a message. */
static void
test_specs(void **state)
{
	static const struct {
		const char *spec;
		const char *msg;
	} bad[] = {
		{ "server.log", "expected KIND:URL" },
		{ "logs:file:///x", "unknown kind" },
		{ "log:ftp://host/x", "unsupported URL scheme" },
		{ "log:http://", "not a valid URL" },
		{ "jolokia:file:///x", "needs an http" },
		{ "log:file:///", "no path" },
		{ "log:file://", "not a valid URL" },
	};
	char err[256];
	size_t i;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(bad); i++) {
		err[0] = '\0';
		if (trace_spec_check(bad[i].spec, err, sizeof err) != -1 || strstr(err, bad[i].msg) == NULL)
			fail_msg("spec %s: \"%s\", want \"%s\"", bad[i].spec, err, bad[i].msg);
	}
	assert_int_equal(trace_spec_check("log:https://broker-1:8443/logs/server.log", err, sizeof err), 0);
	assert_int_equal(trace_spec_check("rdstats:file:///var/log/app/stats.jsonl", err, sizeof err), 0);
	assert_int_equal(trace_spec_check("jsonl:http://[::1]:8080/trace", err, sizeof err), 0);
}

/* Names: host, host:port for Jolokia, file name; duplicates numbered. */
static void
test_names(void **state)
{
	const char *specs[] = { "log:http://broker-1:8080/server.log", "log:http://broker-1/other.log",
				"jolokia:http://app-3:8778/jolokia", "log:file:///var/log/kafka/server.log" };
	kg_trace_config c = test_cfg(specs, 4);
	kg_source *s[4];
	char err[256];
	size_t n, i;
	(void)state;
	assert_int_equal(trace_sources_new(&c, s, &n, err, sizeof err), 0);
	assert_int_equal(n, 4);
	assert_string_equal(s[0]->name, "log:broker-1");
	assert_string_equal(s[1]->name, "log:broker-1#2");
	assert_string_equal(s[2]->name, "jolokia:app-3:8778");
	assert_string_equal(s[3]->name, "log:server.log");
	for (i = 0; i < n; i++)
		source_free(s[i]);
}

/*
 * -v/--log: connections, failures with their retry, rotations and
 * truncations with counts reach the log; credentials never do (URL
 * userinfo, --trace-headers values).
 */
static void
test_log(void **state)
{
	rig r;
	kg_trace_config c = test_cfg(NULL, 0);
	static const char *const want[] = {
		"trace log:127.0.0.1: http://127.0.0.1:", /* where it reads, without the userinfo */
		"/status/500: HTTP 500; retry in ",
		"s (failure 1)",
		"s (failure 2)",
		"with the --trace-headers lines (not logged)",
		"trace log:127.0.0.1: connected (HTTP 206)",
		"trace log:l.log: connected (file)",
		"the file is shorter than what was read at byte",
		"the file was replaced at byte",
		"(rotated 1x, truncated 1x so far)",
		"debug trace log:l.log: request 2: bytes ",
	};
	char lpath[1024], hpath[1024], a[1024], b[1024], err[256], *text;
	size_t len, i;
	(void)state;
	snprintf(lpath, sizeof lpath, "%s/kgtop.log", root);
	unlink(lpath);
	assert_int_equal(log_open(lpath, 2, err, sizeof err), 0);
	/* a failing stream with a password in its URL */
	snprintf(url, sizeof url, "log:http://alice:pa55word@127.0.0.1:%d/status/500", httpd_port(srv));
	rig_open(&r, &c, url);
	r.want_requests = 3; /* two failures answered */
	assert_true(tu_wait(has_requests, rig_step, &r, DEADLINE));
	wait_status(&r, KG_SRC_ERROR, "HTTP 500");
	rig_close(&r);
	/* a stream with a token from the headers file */
	write_log("auth.log", "g-auth", 1);
	snprintf(hpath, sizeof hpath, "%s/headers", root);
	assert_int_equal(tu_write_file(hpath, "X-Kgtop-Token: s3cret\n", 22), 0);
	assert_int_equal(chmod(hpath, 0600), 0);
	c.headers_file = hpath;
	c.from_start = true;
	rig_open(&r, &c, http_url("log", "auth", "auth.log"));
	wait_obs(&r, 1);
	rig_close(&r);
	c.headers_file = NULL;
	unlink(hpath);
	/* a file truncated, then rotated */
	c.from_start = false;
	write_log("l.log", "g-l", 3);
	rig_open(&r, &c, file_url("log", "l.log"));
	assert_true(tu_wait(has_offset, rig_step, &r, DEADLINE));
	write_log("l.log", "g-l-t", 1);
	wait_obs(&r, 1);
	snprintf(a, sizeof a, "%s/l.log", root);
	snprintf(b, sizeof b, "%s/l.log.1", root);
	assert_int_equal(rename(a, b), 0);
	write_log("l.log", "g-l-r", 3);
	wait_obs(&r, 4);
	rig_close(&r);
	unlink(b);
	log_close();

	text = tu_read_file(lpath, &len);
	assert_non_null(text);
	for (i = 0; i < KG_ARRAY_LEN(want); i++) {
		if (strstr(text, want[i]) == NULL) {
			fprintf(stderr, "# %s", text);
			fail_msg("the log lacks \"%s\"", want[i]);
		}
	}
	assert_null(strstr(text, "pa55word"));
	assert_null(strstr(text, "alice"));
	assert_null(strstr(text, "s3cret"));
	free(text);
	unlink(lpath);
}

/* Start the server. */
static int
setup(void **state)
{
	char err[256];
	(void)state;
	root = tu_tmpdir("http");
	if (root == NULL)
		return -1;
	srv = httpd_start(root, err, sizeof err);
	if (srv == NULL) {
		fprintf(stderr, "# %s\n", err);
		return -1;
	}
	return 0;
}

/* Stop the server. */
static int
teardown(void **state)
{
	(void)state;
	httpd_stop(srv);
	tu_rmdir(root);
	free(root);
	return 0;
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_http_grow),
		cmocka_unit_test(test_http_from_start),
		cmocka_unit_test(test_http_chunks),
		cmocka_unit_test(test_http_truncate),
		cmocka_unit_test(test_http_rotate),
		cmocka_unit_test(test_http_chunked),
		cmocka_unit_test(test_http_errors),
		cmocka_unit_test(test_http_slow),
		cmocka_unit_test(test_http_drop),
		cmocka_unit_test(test_http_garbage),
		cmocka_unit_test(test_http_norange),
		cmocka_unit_test(test_http_credentials),
		cmocka_unit_test(test_http_refused),
		cmocka_unit_test(test_http_jolokia),
		cmocka_unit_test(test_http_jsonl_rdstats),
		cmocka_unit_test(test_http_trickle),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_budget_time_order),
		cmocka_unit_test(test_file_tail),
		cmocka_unit_test(test_file_not_regular),
		cmocka_unit_test(test_log),
	};
	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests_name("trace_http", tests, setup, teardown);
}

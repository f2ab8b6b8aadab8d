/*
 * trace.c: the trace sources (see trace.h): a kind's parser fed by a transport.
 *
 * A source is one --trace KIND:URL.  Its kind (trace_kinds.h) says how the
 * URL is read and parses what arrives; its transport (trace_transport.h)
 * does the reading, the retries and the health of the connection.  This
 * file joins them: it checks specs and names sources, hands each line or
 * document to the kind's parser, counts the verdicts, keeps the
 * observations for the collector, and writes the health message.
 */
#include "config.h"

#include "sources/trace/trace.h"
#include "sources/trace/trace_groups.h"
#include "sources/trace/trace_kinds.h"
#include "sources/trace/trace_transport.h"
#include "sources/trace/trace_url.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "model/obs.h"
#include "util/util.h"

/*
 * A refresh that stops parsing with lines still waiting (the budget of
 * observations or of parsing time ran out) holds back the observations
 * within this much of the newest it parsed: a writer's lines need not be
 * in time order (the demo writes a member's JoinGroup once its member id
 * is known, after the coordinator's "preparing to rebalance" it caused),
 * and the tracker orders each refresh's observations by time, so a cause
 * must not reach it a refresh after its effect.
 */
#define TRACE_REORDER_US (1000LL * 1000)

typedef struct trace {
	kg_source *src;
	const kg_trace_kind *kind;
	void *state;          /* the kind's parser state, NULL when it has none */
	kg_trace_transport *tt;
	int64_t interval_us;  /* request interval: stale after three */
	size_t obs_budget;    /* observations one refresh takes */
	int64_t time_budget_us; /* and its time of parsing */
	int64_t now;          /* wall time of the current poll() */
	char detail[256];     /* POLL: what the last good document said */
	kg_obsq q;
	kg_tgview *groups;    /* kinds that describe groups: the groups seen */
	kg_trace_stats st;
} trace;

/* ---------------------------------------------------------------- specs */

typedef struct spec {
	const kg_trace_kind *kind;
	kg_trace_url u;
	char *name;
} spec;

/* Free a parsed spec. */
static void
spec_free(spec *s)
{
	trace_url_free(&s->u);
	free(s->name);
	memset(s, 0, sizeof *s);
}

/* The name a source of kind k reading u gets: "log:broker-1", "jolokia:app-1:8778", "log:server.log". */
static char *
spec_name(const kg_trace_kind *k, const kg_trace_url *u)
{
	char *name;
	if (u->is_file)
		name = xasprintf("%s:%s", k->name, u->file);
	else if (k->name_port && u->port != NULL)
		name = xasprintf("%s:%s:%s", k->name, u->host, u->port);
	else
		name = xasprintf("%s:%s", k->name, u->host);
	util_sanitize_text(name);
	return name;
}

/* A URL that names a directory ends in '/': one is added to a path without it (no query, no fragment). */
static void
dir_slash(kg_trace_url *u)
{
	size_t n = strlen(u->url);
	char *url, *shown;
	if (u->is_file || n == 0 || u->url[n - 1] == '/' || strpbrk(u->url, "?#") != NULL)
		return;
	url = xasprintf("%s/", u->url);
	shown = xasprintf("%s/", u->shown);
	free(u->url);
	free(u->shown);
	u->url = url;
	u->shown = shown;
}

/* Parse and check a spec: a known kind, a URL it accepts; fills the name. */
static int
spec_parse(const char *in, spec *out, char *err, size_t errsz)
{
	const char *colon = in ? strchr(in, ':') : NULL;
	char kinds[128];
	memset(out, 0, sizeof *out);
	trace_kinds_list(kinds, sizeof kinds);
	if (colon == NULL)
		return util_err(err, errsz, "--trace %s: expected KIND:URL (kinds: %s)", in ? in : "", kinds);
	out->kind = trace_kinds_find(in, (size_t)(colon - in));
	if (out->kind == NULL)
		return util_err(err, errsz, "--trace: unknown kind \"%.*s\" (kinds: %s)", (int)KG_MIN(colon - in, 32),
				in, kinds);
	if (trace_url_parse(out->kind->name, colon + 1, out->kind->file_ok, &out->u, err, errsz) < 0)
		return -1;
	if (out->kind->dir_url)
		dir_slash(&out->u);
	out->name = spec_name(out->kind, &out->u);
	return 0;
}

/* Check one spec. */
int
trace_spec_check(const char *in, char *err, size_t errsz)
{
	spec s;
	trace_url_init();
	if (spec_parse(in, &s, err, errsz) < 0)
		return -1;
	spec_free(&s);
	return 0;
}

/* ------------------------------------------------------------ parsing */

/* One complete line to the kind's parser. */
static void
on_line(void *arg, const char *line, size_t len)
{
	trace *t = arg;
	size_t before = t->q.n;
	kg_parse_rc rc = t->kind->line(t->state, line, len, t->now, &t->q);
	t->st.counts.n[rc]++;
	t->st.obs += t->q.n - before;
}

/* The stream's lines from now on follow a gap: a coordinator's log says from when it is read whole. */
static void
on_gap(void *arg)
{
	trace *t = arg;
	if (t->kind->tells_gaps)
		obsq_push(&t->q, obs_new(KG_OBS_LOG_FROM, util_now_us(), -1, t->kind->name));
}

/* Whether this refresh's budget of observations has room for another line. */
static bool
budget_more(void *arg)
{
	const trace *t = arg;
	return t->q.n < t->obs_budget;
}

/* One whole document to the kind's parser; -1 with err when the answer is a failure. */
static int
on_document(void *arg, const char *body, size_t len, char *err, size_t errsz)
{
	trace *t = arg;
	size_t before = t->q.n;
	char detail[sizeof t->detail];
	int rc = t->kind->document(body, len, t->now, &t->q, detail, sizeof detail, err, errsz);
	t->st.obs += t->q.n - before;
	if (rc == 0)
		util_strlcpy(t->detail, detail, sizeof t->detail);
	return rc;
}

/* -------------------------------------------------------- source ops */

/* Make progress without blocking. */
static int
trace_poll(kg_source *s, int64_t now_us)
{
	trace *t = s->impl;
	kg_trace_link l;
	int flags;
	t->now = now_us;
	flags = trace_transport_poll(t->tt);
	trace_transport_link(t->tt, &l);
	/* observations to hand over, or lines waiting for the next refresh's budget */
	if (t->q.n > 0 || l.budget_hit)
		flags |= KG_SRC_NEWS;
	return flags;
}

/*
 * Move the observations to q; with lines still waiting, those within
 * TRACE_REORDER_US of the newest stay for the next refresh (file order kept),
 * unless they would take more than half the budget or all of them.
 */
static void
hand_over(trace *t, kg_obsq *q)
{
	kg_trace_link l;
	int64_t newest = INT64_MIN;
	size_t i, keep = 0, n = t->q.n;
	trace_transport_link(t->tt, &l);
	if (l.budget_hit) {
		for (i = 0; i < n; i++)
			newest = KG_MAX(newest, t->q.v[i]->time_us);
		for (i = 0; i < n; i++)
			keep += t->q.v[i]->time_us > newest - TRACE_REORDER_US;
	}
	if (keep == 0 || keep == n || keep > t->obs_budget / 2) {
		obsq_move(q, &t->q);
		return;
	}
	t->q.n = 0;
	for (i = 0; i < n; i++) {
		kg_obs *o = t->q.v[i];
		if (o->time_us > newest - TRACE_REORDER_US)
			t->q.v[t->q.n++] = o; /* in place: the kept ones stay in their order */
		else
			obsq_push(q, o);
	}
}

/* Hand over the observations. */
static void
trace_drain(kg_source *s, kg_obsq *q)
{
	trace *t = s->impl;
	size_t i;
	if (q != NULL) {
		size_t from = q->n;
		hand_over(t, q);
		for (i = from; t->groups != NULL && i < q->n; i++)
			tgview_update(t->groups, q->v[i]);
	} else {
		for (i = 0; t->groups != NULL && i < t->q.n; i++)
			tgview_update(t->groups, t->q.v[i]);
		obsq_clear(&t->q);
	}
	trace_transport_budget_reset(t->tt);
}

/* Counters of a trace source, complete. */
static void
stats_of(const trace *t, kg_trace_stats *st)
{
	*st = t->st;
	trace_transport_stats(t->tt, st);
}

/* The backlog: bytes waiting for a refresh's budget, and the budget. */
static void
backlog_detail(const trace *t, const kg_trace_link *l, sbuf *b)
{
	char size[32];
	util_fmt_count(size, sizeof size, (int64_t)l->backlog + l->behind);
	sbuf_addf(b, "; %sB behind (at most %zu events and %.0f ms of parsing a refresh)", size, t->obs_budget,
		  (double)t->time_budget_us / 1e3);
}

/* The health message of a working source: what it read and skipped. */
static void
health_detail(const trace *t, const kg_trace_link *l, sbuf *b)
{
	kg_trace_stats st;
	const kg_parse_counts *c = &st.counts;
	if (t->kind->mode == KG_TRACE_POLL) {
		sbuf_adds(b, t->detail[0] ? t->detail : "no answer yet");
		if (l->plain_creds)
			sbuf_adds(b, "; credentials sent unencrypted (http://)");
		return;
	}
	stats_of(t, &st);
	sbuf_addf(b, "%" PRIu64 " event%s from %" PRIu64 " line%s", st.obs, st.obs == 1 ? "" : "s", st.lines,
		  st.lines == 1 ? "" : "s");
	if (c->n[KG_PARSE_UNPARSED] > 0)
		sbuf_addf(b, "; %" PRIu64 " unparsed", c->n[KG_PARSE_UNPARSED]);
	if (c->n[KG_PARSE_MALFORMED] > 0)
		sbuf_addf(b, "; %" PRIu64 " malformed", c->n[KG_PARSE_MALFORMED]);
	if (c->oversize > 0)
		sbuf_addf(b, "; %" PRIu64 " too long", c->oversize);
	if (st.rotations > 0)
		sbuf_addf(b, "; rotated %" PRIu64 "x", st.rotations);
	if (st.truncations > 0)
		sbuf_addf(b, "; truncated %" PRIu64 "x", st.truncations);
	if (l->budget_hit || l->backlog > 0)
		backlog_detail(t, l, b);
	if (t->groups != NULL && tgview_forgotten(t->groups) > 0)
		sbuf_addf(b, "; %" PRIu64 " silent members forgotten", tgview_forgotten(t->groups));
	if (l->streaming)
		sbuf_adds(b, "; live stream");
	if (l->plain_creds)
		sbuf_adds(b, "; credentials sent unencrypted (http://)");
}

/* Add this source's health. */
static void
trace_contribute(kg_source *s, kg_builder *b)
{
	trace *t = s->impl;
	kg_source_health h;
	kg_trace_link l;
	sbuf m = { 0 };
	int64_t mono = util_mono_us();
	int64_t stale_after = KG_MAX(3 * t->interval_us, 5 * 1000000);
	trace_transport_link(t->tt, &l);
	memset(&h, 0, sizeof h);
	h.name = s->name;
	h.status = l.status;
	h.since_us = l.since;
	h.last_ok_us = l.last_ok;
	/* insecure: TLS without verification; plain http has no TLS to verify (see health_detail) */
	h.insecure = l.insecure;
	switch (l.status) {
	case KG_SRC_ERROR:
		sbuf_adds(&m, l.err[0] ? l.err : "failed");
		if (l.retry_at > mono)
			sbuf_addf(&m, "; retry in %.0fs", (double)(l.retry_at - mono) / 1e6 + 0.49);
		break;
	case KG_SRC_OK:
		if (mono - l.last_ok_mono > stale_after) {
			h.status = KG_SRC_STALE;
			h.since_us = l.last_ok + stale_after;
			sbuf_addf(&m, "no answer for %.0fs; ", (double)(mono - l.last_ok_mono) / 1e6);
		}
		health_detail(t, &l, &m);
		break;
	default:
		sbuf_addf(&m, "connecting to %s", l.shown);
		break;
	}
	h.message = sbuf_str(&m);
	builder_source(b, &h);
	sbuf_free(&m);
	if (t->groups != NULL)
		tgview_contribute(t->groups, b);
}

/* When poll() should run next (wall clock). */
static int64_t
trace_next_poll(kg_source *s)
{
	trace *t = s->impl;
	return trace_transport_next_poll(t->tt);
}

/* The sockets curl waits on. */
static int
trace_fds(kg_source *s, struct pollfd *pfd, int max)
{
	trace *t = s->impl;
	return trace_transport_fds(t->tt, pfd, max);
}

/* "refresh": ask again now. */
static int
trace_command(kg_source *s, const char *cmd, char *err, size_t errsz)
{
	trace *t = s->impl;
	if (strcmp(cmd, "refresh") == 0) {
		trace_transport_refresh(t->tt);
		return 0;
	}
	return util_err(err, errsz, "%s: unknown command \"%s\"", s->name, cmd);
}

/* Close handles and free. */
static void
trace_close(kg_source *s)
{
	trace *t = s->impl;
	if (t == NULL)
		return;
	trace_transport_free(t->tt);
	obsq_clear(&t->q);
	tgview_free(t->groups);
	free(t->q.v);
	if (t->state != NULL)
		t->kind->state_free(t->state);
	free(t);
	s->impl = NULL;
}

static const kg_source_ops trace_ops = {
	.kind = "trace",
	.role = KG_ROLE_TRACE,
	.poll = trace_poll,
	.drain = trace_drain,
	.contribute = trace_contribute,
	.next_poll = trace_next_poll,
	.fds = trace_fds,
	.command = trace_command,
	.close = trace_close,
};

/* Counters of a trace source. */
int
trace_source_stats(kg_source *s, kg_trace_stats *st)
{
	if (s == NULL || s->ops != &trace_ops || s->impl == NULL)
		return -1;
	stats_of(s->impl, st);
	return 0;
}

/* ------------------------------------------------------------ creation */

/* A name no earlier source has: "log:broker-1", then "log:broker-1#2", ... */
static void
unique_name(const char *want, kg_source *const *made, size_t nmade, char *name, size_t namesz)
{
	size_t j;
	int dup = 1;
	util_strlcpy(name, want, namesz);
	for (j = 0; j < nmade; j++) {
		if (strcmp(made[j]->name, name) == 0) {
			char *nm = xasprintf("%.52s#%d", want, ++dup);
			util_strlcpy(name, nm, namesz);
			free(nm);
			j = (size_t)-1;
		}
	}
}

/* One source of a parsed spec (its URL taken over) named name. */
static kg_source *
trace_new(spec *sp, const char *name, const kg_trace_config *cfg, const struct curl_slist *extra)
{
	trace *t = xcalloc(1, sizeof *t);
	const kg_trace_kind *k = sp->kind;
	kg_trace_config c = *cfg;
	kg_trace_wire w = { 0 };
	kg_trace_sink sink = { 0 };
	t->kind = k;
	t->groups = k->describes_groups ? tgview_new(cfg->history_us, k->names_members) : NULL;
	t->state = k->state_new != NULL ? k->state_new() : NULL;
	t->st.offset = -1;
	t->st.bytes_first_line = -1;
	trace_transport_defaults(&c);
	if (c.max_line == 0)
		c.max_line = k->max_line;
	c.specs = NULL;
	c.nspecs = 0;
	c.headers_file = NULL;
	t->interval_us = c.interval_us;
	t->obs_budget = c.obs_budget;
	t->time_budget_us = c.time_budget_us;
	w.mode = k->mode;
	w.post = k->post != NULL ? k->post() : NULL;
	w.content_type = k->content_type;
	w.max_document = k->max_document;
	w.schedule_words = k->schedule_words;
	w.request_words = k->request_words;
	sink.arg = t;
	sink.line = on_line;
	sink.document = on_document;
	sink.more = budget_more;
	sink.gap = on_gap;
	sink.stats = &t->st;
	t->src = source_new(&trace_ops, name, t);
	t->tt = trace_transport_new(t->src->name, &sp->u, &c, &w, extra, &sink);
	return t->src;
}

/* Create every source. */
int
trace_sources_new(const kg_trace_config *cfg, kg_source **out, size_t *nout, char *err, size_t errsz)
{
	struct curl_slist *extra = NULL;
	spec *specs;
	size_t i;
	int rc = -1;
	*nout = 0;
	trace_url_init();
	if (cfg->nspecs == 0)
		return 0;
	if (cfg->interval_us <= 0)
		return util_err(err, errsz, "--trace: no refresh interval given (-i)");
	specs = xcalloc(cfg->nspecs, sizeof *specs);
	for (i = 0; i < cfg->nspecs; i++) {
		if (spec_parse(cfg->specs[i], &specs[i], err, errsz) < 0)
			goto done;
	}
	if (cfg->headers_file != NULL && trace_url_headers(cfg->headers_file, &extra, err, errsz) < 0)
		goto done;
	for (i = 0; i < cfg->nspecs; i++) {
		char name[64];
		unique_name(specs[i].name, out, *nout, name, sizeof name);
		out[*nout] = trace_new(&specs[i], name, cfg, extra);
		(*nout)++;
	}
	rc = 0;
done:
	trace_url_headers_free(extra);
	for (i = 0; i < cfg->nspecs; i++)
		spec_free(&specs[i]);
	free(specs);
	return rc;
}

/*
 * check.c: --check (see check.h): the status of each group, the line, and
 * the runner.
 */
#include "config.h"

#include "report/check.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/defaults.h"
#include "model/progress.h"
#include "report/groupcol.h"

#define CHECK_GROUPS_SAID 4   /* the first line names this many groups, then "and N more" */
#define CHECK_PARTS_SAID 8    /* a verdict names this many partitions, then "+N" */
#define CHECK_OUTPUT_MAX 8000 /* Nagios keeps 8 KB of a plugin's output (MAX_PLUGIN_OUTPUT_LENGTH) */
#define CHECK_PERF_MAX 3000   /* of which the performance data take at most this */

static const char *const status_names[KG_CHECK_STATUS_COUNT] = { "OK", "WARNING", "CRITICAL", "UNKNOWN" };

/* A status's name. */
const char *
check_status_name(kg_check_status st)
{
	return (unsigned)st < KG_CHECK_STATUS_COUNT ? status_names[st] : "UNKNOWN";
}

/* How bad a status is: CRITICAL, then WARNING, then UNKNOWN, then OK. */
static int
severity(kg_check_status st)
{
	static const int rank[KG_CHECK_STATUS_COUNT] = { 0, 2, 3, 1 };
	return rank[st];
}

/* The worse of two statuses. */
static kg_check_status
worse(kg_check_status a, kg_check_status b)
{
	return severity(b) > severity(a) ? b : a;
}

/* A value against its thresholds (0: not given). */
static kg_check_status
against(int64_t v, int64_t warn, int64_t crit)
{
	if (crit > 0 && v >= crit)
		return KG_CHECK_CRITICAL;
	if (warn > 0 && v >= warn)
		return KG_CHECK_WARNING;
	return KG_CHECK_OK;
}

/* The time lag against its thresholds: an estimate counts; a lower bound only when it passes one. */
static kg_check_status
tlag_status(const kg_group *g, const kg_check_limits *l)
{
	kg_check_status st;
	if (l->warn_tlag_us <= 0 && l->crit_tlag_us <= 0)
		return KG_CHECK_OK;
	if (g->tlag_kind == KG_TLAG_NONE)
		return g->lag == 0 ? KG_CHECK_OK : KG_CHECK_UNKNOWN;
	st = against(g->time_lag_us, l->warn_tlag_us, l->crit_tlag_us);
	/* "older than kgtop's oldest sample": a threshold it passes is passed; below them, who knows */
	if (g->tlag_kind == KG_TLAG_ATLEAST && st == KG_CHECK_OK)
		return KG_CHECK_UNKNOWN;
	return st;
}

/* Up to CHECK_PARTS_SAID partitions of g with verdict v, "[2 3]" ("[2 3 +4]" for more). */
static void
verdict_parts(sbuf *why, const kg_group *g, int v)
{
	kg_tp tp[CHECK_PARTS_SAID];
	int k, n = 0, more = 0;
	for (k = 0; k < g->nparts; k++) {
		if (g->parts[k].verdict != v)
			continue;
		if (n < CHECK_PARTS_SAID)
			tp[n++] = g->parts[k].tp;
		else
			more++;
	}
	sbuf_addc(why, ' ');
	tp_format(why, tp, n, group_single_topic(g));
	if (more > 0) {
		why->len--; /* before the ']' */
		sbuf_addf(why, " +%d]", more);
	}
}

/* The latest commit that moved a partition of verdict v, when every such partition's is known exactly; 0 else. */
static int64_t
last_commit(const kg_group *g, int v)
{
	int64_t lc = 0;
	int k;
	for (k = 0; k < g->nparts; k++) {
		const kg_gpart *p = &g->parts[k];
		if (p->verdict != v)
			continue;
		if (p->moved_us <= 0 || p->moved_lo_us != p->moved_us)
			return 0;
		lc = KG_MAX(lc, p->moved_us);
	}
	return lc;
}

/* One group's status, and what makes it so in words (appended to why). */
static kg_check_status
group_status(const kg_group *g, const kg_check_limits *l, sbuf *why)
{
	kg_check_status st = KG_CHECK_OK, t;
	char n[32], d[32], since[96];
	int v, bad = 0;
	for (v = KG_VERDICT_COUNT - 1; v > KG_VERDICT_PENDING; v--) {
		if (g->nverdict[v] == 0)
			continue;
		st = worse(st, v >= KG_VERDICT_STALLED ? KG_CHECK_CRITICAL : KG_CHECK_WARNING);
		sbuf_addf(why, "%s%d partition%s %s", bad++ ? ", " : "", g->nverdict[v], g->nverdict[v] == 1 ? "" : "s",
			  verdict_name((kg_verdict)v));
		verdict_parts(why, g, v);
		if (v == g->verdict && g->verdict_since_us > 0) {
			int64_t lc = last_commit(g, v);
			since_fmt(since, sizeof since, (kg_since_kind)g->since_kind, g->verdict_since_lo_us,
				  g->verdict_since_us, true);
			sbuf_addf(why, " since %s", since);
			if (lc > 0) {
				/* when commits stopped, as the coordinator's own record of them says (--trace offsets) */
				since_fmt(since, sizeof since, KG_SINCE_COMMIT, lc, lc, false);
				sbuf_addf(why, ", last commit %s", since);
			}
		}
	}
	if (g->nverdict[KG_VERDICT_PENDING] > 0) {
		/* what cannot be determined yet is UNKNOWN, never OK */
		st = worse(st, KG_CHECK_UNKNOWN);
		sbuf_addf(why, "%s%d partition%s not judged yet", bad++ ? ", " : "", g->nverdict[KG_VERDICT_PENDING],
			  g->nverdict[KG_VERDICT_PENDING] == 1 ? "" : "s");
		verdict_parts(why, g, KG_VERDICT_PENDING);
		if (l->judge_s > 0)
			sbuf_addf(why, " (--duration %d judges commits)", l->judge_s);
	}
	if (g->lost > 0)
		sbuf_addf(why, "%s%lld records lost", bad++ ? ", " : "", (long long)g->lost);
	if (g->lag < 0) {
		t = l->warn_lag > 0 || l->crit_lag > 0 ? KG_CHECK_UNKNOWN : KG_CHECK_OK;
		sbuf_addf(why, "%slag not known", bad++ ? ", " : "");
	} else {
		t = against(g->lag, l->warn_lag, l->crit_lag);
		util_fmt_count(n, sizeof n, g->lag);
		sbuf_addf(why, "%slag %s", bad++ ? ", " : "", n);
	}
	st = worse(st, t);
	t = tlag_status(g, l);
	st = worse(st, t);
	if (g->tlag_kind != KG_TLAG_NONE) {
		groupcol_fmt_tlag(d, sizeof d, g->time_lag_us, (kg_tlag_kind)g->tlag_kind);
		sbuf_addf(why, ", time lag %s", d);
	} else if (t == KG_CHECK_UNKNOWN) {
		sbuf_adds(why, ", time lag not known");
	}
	return st;
}

/*
 * A performance data label: quoted, unique for every name: a quote is
 * doubled (the plugin guidelines' escape), '=', '|' and '%' are written
 * %3D, %7C and %25 (so "a=b" and "a_b" stay two labels).
 */
static void
perf_label(sbuf *o, const char *group, const char *what)
{
	char *c = xstrdup(group), *p;
	util_sanitize_text(c);
	sbuf_addc(o, '\'');
	for (p = c; *p; p++) {
		if (*p == '\'')
			sbuf_adds(o, "''");
		else if (*p == '=' || *p == '|' || *p == '%')
			sbuf_addf(o, "%%%02X", (unsigned char)*p);
		else
			sbuf_addc(o, *p);
	}
	free(c);
	sbuf_addf(o, " %s'=", what);
}

/* A threshold in performance data ("" when not given). */
static void
perf_limit(sbuf *o, int64_t v, double scale)
{
	if (v > 0) {
		if (scale == 1)
			sbuf_addf(o, "%lld", (long long)v);
		else
			sbuf_addf(o, "%.3f", (double)v / scale);
	}
}

/* One group's performance data. */
static void
perf_group(sbuf *o, const kg_group *g, const kg_check_limits *l)
{
	static const kg_verdict counted[] = { KG_VERDICT_STALLED, KG_VERDICT_STOPPED, KG_VERDICT_LOST, KG_VERDICT_SLOW,
					      KG_VERDICT_REWIND, KG_VERDICT_PENDING };
	size_t i;
	sbuf_addc(o, ' ');
	perf_label(o, g->name, "lag");
	if (g->lag >= 0)
		sbuf_addf(o, "%lld", (long long)g->lag);
	else
		sbuf_addc(o, 'U');
	sbuf_addc(o, ';');
	perf_limit(o, l->warn_lag, 1);
	sbuf_addc(o, ';');
	perf_limit(o, l->crit_lag, 1);
	sbuf_adds(o, ";0; ");
	perf_label(o, g->name, "time_lag");
	if (g->tlag_kind != KG_TLAG_NONE)
		sbuf_addf(o, "%.3fs;", (double)g->time_lag_us / 1e6);
	else
		sbuf_adds(o, "U;");
	perf_limit(o, l->warn_tlag_us, 1e6);
	sbuf_addc(o, ';');
	perf_limit(o, l->crit_tlag_us, 1e6);
	sbuf_adds(o, ";0;");
	for (i = 0; i < KG_ARRAY_LEN(counted); i++) {
		sbuf_addc(o, ' ');
		perf_label(o, g->name, verdict_key(counted[i]));
		sbuf_addf(o, "%d;;;0;", g->nverdict[counted[i]]);
	}
}

/* A name or a text for the output: the one output rule (names come from the cluster), no '|' (it starts the performance data). */
static void
text_add(sbuf *o, const char *s)
{
	char *c = xstrdup(s), *p;
	util_sanitize_text(c);
	for (p = c; *p; p++)
		sbuf_addc(o, *p == '|' ? '_' : *p);
	free(c);
}

/* Append "KGTOP UNKNOWN - why" (without newline; why one line). */
static void
check_unknown(sbuf *out, const char *why)
{
	sbuf_adds(out, "KGTOP UNKNOWN - ");
	text_add(out, why);
}

/* The cluster source's trouble, NULL when it answered. */
static const kg_source_health *
cluster_trouble(const kg_snapshot *s)
{
	int i;
	for (i = 0; i < s->nsources; i++) {
		const kg_source_health *h = &s->sources[i];
		if ((h->role == KG_ROLE_CLUSTER || h->role == KG_ROLE_REPLAY) &&
		    (h->status == KG_SRC_ERROR || h->status == KG_SRC_CONNECTING))
			return h;
	}
	return NULL;
}

/* One group judged: its status and words, for the order of the output. */
typedef struct judged {
	const kg_group *g;
	kg_check_status st;
	char *why;
} judged;

/* The worst first (CRITICAL, WARNING, UNKNOWN, OK), then by name. */
static int
judged_cmp(const void *a, const void *b)
{
	const judged *x = a, *y = b;
	int d = severity(y->st) - severity(x->st);
	return d != 0 ? d : strcmp(x->g->name, y->g->name);
}


/*
 * The performance data within CHECK_PERF_MAX bytes: the groups' counts by
 * status, then each group's values, the worst first, as long as they fit;
 * the number of groups given.
 */
static int
perf_all(sbuf *perf, const judged *j, int n, const int *nst, const kg_check_limits *l)
{
	int i, said = 0;
	if (n > 1) {
		for (i = 0; i < KG_CHECK_STATUS_COUNT; i++) {
			char what[64];
			size_t k;
			snprintf(what, sizeof what, " 'groups %s'=%d;;;0;", check_status_name((kg_check_status)i), nst[i]);
			for (k = 0; what[k]; k++)
				what[k] = (char)(what[k] >= 'A' && what[k] <= 'Z' ? what[k] - 'A' + 'a' : what[k]);
			sbuf_adds(perf, what);
		}
	}
	for (i = 0; i < n; i++) {
		size_t before = perf->len;
		perf_group(perf, j[i].g, l);
		if (perf->len > CHECK_PERF_MAX && said > 0) {
			perf->len = before;
			perf->s[before] = '\0';
			break;
		}
		said++;
	}
	return said;
}

/*
 * The plugin's output: one group, or one group not OK among several, on
 * the first line with its details; several not OK: a short first line
 * (how many of each, the worst named) and each one's details on the lines
 * after it (the plugins' long output), within CHECK_OUTPUT_MAX bytes.
 */
static void
check_output(sbuf *out, const judged *j, int n, const int *nst, kg_check_status st, const kg_check_limits *l)
{
	sbuf text = { 0 }, perf = { 0 }, lng = { 0 };
	int i, nbad = n - nst[KG_CHECK_OK], inperf = perf_all(&perf, j, n, nst, l), said = 0;
	if (nbad <= 1 || n == 1) {
		if (nbad == 1 || n == 1) {
			text_add(&text, j[0].g->name);
			sbuf_addf(&text, " %s: ", check_status_name(j[0].st));
			text_add(&text, j[0].why);
		}
		if (nst[KG_CHECK_OK] > 0 && n > 1)
			sbuf_addf(&text, "%s%d group%s OK", nbad ? "; " : "", nst[KG_CHECK_OK], nst[KG_CHECK_OK] == 1 ? "" : "s");
	} else {
		sbuf_addf(&text, "%d of %d groups not OK:", nbad, n);
		for (i = 0; i < nbad && i < CHECK_GROUPS_SAID; i++) {
			sbuf_addf(&text, "%s ", i ? "," : "");
			text_add(&text, j[i].g->name);
			sbuf_addf(&text, " %s", check_status_name(j[i].st));
		}
		if (nbad > CHECK_GROUPS_SAID)
			sbuf_addf(&text, " and %d more", nbad - CHECK_GROUPS_SAID);
		if (nst[KG_CHECK_OK] > 0)
			sbuf_addf(&text, "; %d OK", nst[KG_CHECK_OK]);
		for (i = 0; i < nbad; i++) {
			size_t before = lng.len;
			sbuf_addc(&lng, '\n');
			text_add(&lng, j[i].g->name);
			sbuf_addf(&lng, " %s: ", check_status_name(j[i].st));
			text_add(&lng, j[i].why);
			/* room kept for the status, the last lines ("and N more", "performance data for") and the newline */
			if (text.len + perf.len + lng.len + 200 > CHECK_OUTPUT_MAX) {
				lng.len = before;
				lng.s[before] = '\0';
				break;
			}
			said++;
		}
		if (said < nbad)
			sbuf_addf(&lng, "\nand %d more group%s not OK", nbad - said, nbad - said == 1 ? "" : "s");
	}
	if (inperf < n)
		sbuf_addf(&lng, "\nperformance data for %d of %d groups (the worst first)", inperf, n);
	sbuf_addf(out, "KGTOP %s - %s |%s%s", check_status_name(st), sbuf_str(&text), sbuf_str(&perf), sbuf_str(&lng));
	sbuf_free(&text);
	sbuf_free(&perf);
	sbuf_free(&lng);
}

/* Judge a snapshot. */
kg_check_status
check_snapshot(const kg_snapshot *s, const kg_check_limits *l, const char *filter, sbuf *out)
{
	const kg_source_health *bad = cluster_trouble(s);
	kg_check_status st = KG_CHECK_OK;
	judged *j;
	int i, nst[KG_CHECK_STATUS_COUNT] = { 0 };
	if (bad != NULL) {
		char why[600];
		snprintf(why, sizeof why, "%s: %s", bad->name, bad->message ? bad->message : src_status_name(bad->status));
		check_unknown(out, why);
		return KG_CHECK_UNKNOWN;
	}
	if (s->ngroups == 0) {
		char why[300];
		snprintf(why, sizeof why, filter != NULL ? "no consumer group matches %s" : "no consumer group%s",
			 filter != NULL ? filter : "");
		check_unknown(out, why);
		return KG_CHECK_UNKNOWN;
	}
	j = xcalloc((size_t)s->ngroups, sizeof *j);
	for (i = 0; i < s->ngroups; i++) {
		sbuf why = { 0 };
		j[i].g = &s->groups[i];
		j[i].st = group_status(j[i].g, l, &why);
		j[i].why = xstrdup(sbuf_str(&why));
		sbuf_free(&why);
		nst[j[i].st]++;
		st = worse(st, j[i].st);
	}
	qsort(j, (size_t)s->ngroups, sizeof *j, judged_cmp);
	check_output(out, j, s->ngroups, nst, st, l);
	for (i = 0; i < s->ngroups; i++)
		free(j[i].why);
	free(j);
	return st;
}

/* A line's one guard: names and messages come from the cluster (or were typed); one line, no controls. */
void
check_guard(sbuf *line)
{
	sbuf_sanitize(line, 0, false);
}

/*
 * The output's guard: no controls; its line breaks stay, the long
 * output's, which only kgtop writes (every name, message and text went in
 * one line each through text_add()).
 */
void
check_guard_lines(sbuf *out)
{
	sbuf_sanitize(out, 0, true);
}

/* Print a line on stdout; the status. */
static int
check_print(sbuf *b, int status)
{
	check_guard_lines(b);
	sbuf_addc(b, '\n');
	if (fwrite(b->s, 1, b->len, stdout) != b->len || fflush(stdout) != 0)
		status = KG_CHECK_UNKNOWN;
	sbuf_free(b);
	return status;
}

/* --duration: refreshes for that long (commits judged over them); the last frame, NULL when none came. */
static kg_frame *
check_watch(kg_collector *c, const kg_options *o, const kg_run_stop *stop, char *err, size_t errsz)
{
	int64_t end = util_mono_us() + o->duration_us;
	kg_frame *last = NULL;
	if (collector_start(c, err, errsz) < 0)
		return NULL;
	while (!*stop->flag) {
		struct pollfd pfd[2] = { { collector_fd(c), POLLIN, 0 }, { stop->fd, POLLIN, 0 } };
		int64_t left = end - util_mono_us();
		kg_frame *f;
		if (left <= 0)
			break;
		if (poll(pfd, 2, (int)(left / 1000) + 1) < 0 && errno != EINTR)
			break;
		f = collector_take(c);
		if (f != NULL && f->snap != NULL) {
			frame_free(last);
			last = f;
		} else {
			frame_free(f);
		}
	}
	if (last == NULL)
		snprintf(err, errsz, "no answer within --duration");
	return last;
}

/* --check: judge, print the line, return the exit status. */
int
check_run(kg_collector *c, const kg_options *o, const kg_run_stop *stop)
{
	kg_check_limits l = { o->warn_lag, o->crit_lag, o->warn_time_lag_us, o->crit_time_lag_us, 0 };
	char err[512], filter[300] = "";
	kg_frame *f = NULL;
	sbuf b = { 0 };
	int status;
	size_t i;
	if (o->replay == NULL) {
		/* long enough to see a commit frozen for the stall threshold, and two refreshes more */
		int64_t iv = o->interval_us;
		l.judge_s = (int)((progress_stall_us(o->lag_window_us, iv) + 2 * iv + KG_SEC_US - 1) / KG_SEC_US);
	}
	for (i = 0; i < o->include.n; i++)
		snprintf(filter + strlen(filter), sizeof filter - strlen(filter), "%s-g %s", i ? " or " : "", o->include.v[i]);
	if (o->duration_us > 0 && o->replay == NULL) {
		f = check_watch(c, o, stop, err, sizeof err);
	} else if (collector_run_until_complete(c, o->replay != NULL ? INT64_MAX / 4 : o->timeout_us, err, sizeof err) >= 0) {
		f = collector_take(c);
	} else {
		/* no complete answer: the cluster's own words when it gave some */
		f = collector_take(c);
		if (f != NULL && f->snap != NULL && cluster_trouble(f->snap) != NULL) {
			status = (int)check_snapshot(f->snap, &l, NULL, &b);
			frame_free(f);
			return check_print(&b, status);
		}
		frame_free(f);
		f = NULL;
	}
	if (*stop->flag) {
		frame_free(f);
		check_unknown(&b, "interrupted");
		return check_print(&b, KG_CHECK_UNKNOWN);
	}
	if (f == NULL || f->snap == NULL) {
		frame_free(f);
		check_unknown(&b, err[0] ? err : "no data");
		return check_print(&b, KG_CHECK_UNKNOWN);
	}
	status = (int)check_snapshot(f->snap, &l, filter[0] ? filter : NULL, &b);
	frame_free(f);
	return check_print(&b, status);
}

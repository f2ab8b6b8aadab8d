/*
 * replay_file.c: reading a recording line by line (see replay_int.h).
 *
 * Lines are read with getline() and parsed one at a time; a header line
 * (the first, or one in the middle where recordings were concatenated)
 * gives the format version, the start, the cluster and the model's
 * settings; every other line is a tick, staged as the next one to hand
 * over.  Where a line cannot be used the replay stops and keeps "line N:
 * why".  In real time an index of the recorded rebalance starts, found
 * by a quick text scan, answers next-rebalance.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/format.h"
#include "record/json.h"
#include "record/replay_int.h"
#include "util/log.h"
#include "util/util.h"

/* Read the next line into r->buf; returns its length, -1 at end of file. */
ssize_t
replay_file_read_line(kg_replay *r, bool *has_newline)
{
	ssize_t n = getline(&r->buf, &r->bufcap, r->f);
	if (n < 0)
		return -1;
	r->lineno++;
	*has_newline = n > 0 && r->buf[n - 1] == '\n';
	return n;
}

/* Parse r->buf as one JSON object; NULL with err (and the column) when it is not one. */
cJSON *
replay_file_parse_line(kg_replay *r, size_t n, bool has_newline, char *err, size_t errsz)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(r->buf, n, &end, 0);
	if (root != NULL) {
		while (end < r->buf + n && isspace((unsigned char)*end))
			end++;
		if (end == r->buf + n && cJSON_IsObject(root))
			return root;
		cJSON_Delete(root);
		if (end != r->buf + n) {
			util_err(err, errsz, "garbage after the JSON object at column %d", (int)(end - r->buf) + 1);
			return NULL;
		}
		util_err(err, errsz, "not a JSON object");
		return NULL;
	}
	if (!has_newline)
		util_err(err, errsz, "cut short (the recording ends in the middle of this line)");
	else
		util_err(err, errsz, "not JSON (at column %d)", end != NULL ? (int)(end - r->buf) + 1 : 1);
	return NULL;
}

/* Read a header's fields (version, start, cluster, model); -1 with err for a newer version. */
int
replay_file_header(kg_replay *r, const cJSON *root, bool first, char *err, size_t errsz)
{
	int64_t v, start;
	const cJSON *f;
	if (!json_get_i64(cJSON_GetObjectItemCaseSensitive(root, "kgtop_record"), &v) || v < 1)
		return util_err(err, errsz, "a header without a format version");
	if (v > KG_RECORD_VERSION) {
		const cJSON *who = cJSON_GetObjectItemCaseSensitive(root, "kgtop");
		return util_err(err, errsz,
				"recording format %lld (written by kgtop %s) is newer than this kgtop %s reads (format %d): "
				"replay it with a newer kgtop",
				(long long)v, cJSON_IsString(who) ? who->valuestring : "?", PACKAGE_VERSION, KG_RECORD_VERSION);
	}
	if (!first)
		return 0;
	r->version = (int)v;
	if (json_get_i64(cJSON_GetObjectItemCaseSensitive(root, "start_us"), &start))
		r->start_us = start;
	f = cJSON_GetObjectItemCaseSensitive(root, "cluster");
	free(r->cluster);
	r->cluster = xstrdup(cJSON_IsString(f) ? f->valuestring : "");
	f = cJSON_GetObjectItemCaseSensitive(root, "model");
	if (cJSON_IsObject(f)) {
		kg_tracker_config *c = &r->model;
		const cJSON *x;
		int64_t n;
		int k;
		memset(c, 0, sizeof *c); /* what it does not say stays 0: the options' (options_model()) */
		/* a recording older than verdicts: replayed without them (its kgtop derived none); --lag-window asks */
		c->lag_window_us = -1;
		r->has_model = true;
#define I64(key, field)                                                         \
	if (json_get_i64(cJSON_GetObjectItemCaseSensitive(f, key), &n) && n > 0) \
		c->field = n;
		I64("session_timeout_us", session_timeout_us)
		I64("max_poll_us", max_poll_us)
		I64("storm_window_us", storm_window_us)
		I64("orphan_grace_us", orphan_grace_us)
		I64("window_us", window_us)
		I64("lag_window_us", lag_window_us)
#undef I64
		if (json_get_i64(cJSON_GetObjectItemCaseSensitive(f, "storm_episodes"), &n) && n > 0 && n < INT32_MAX)
			c->storm_episodes = (int)n;
		x = cJSON_GetObjectItemCaseSensitive(f, "storm_ratio");
		if (cJSON_IsNumber(x) && x->valuedouble > 0)
			c->storm_ratio = x->valuedouble;
		if ((k = json_get_enum(cJSON_GetObjectItemCaseSensitive(f, "session_from"), KG_LIMIT_COUNT,
				       json_limit_name)) >= 0)
			c->session_src = (kg_limit_src)k;
		if ((k = json_get_enum(cJSON_GetObjectItemCaseSensitive(f, "max_poll_from"), KG_LIMIT_COUNT,
				       json_limit_name)) >= 0)
			c->max_poll_src = (kg_limit_src)k;
	}
	return 0;
}

/* Record where the replay stops and why (once), and log it for --once / --json. */
static void
set_damage(kg_replay *r, int64_t line, const char *why)
{
	r->end = END_DAMAGE;
	snprintf(r->damage, sizeof r->damage, "line %lld: %s", (long long)line, why);
	log_msg(KG_LOG_WARN, "replay: %s: stopped at %s", r->path, r->damage);
}

/*
 * Take the line in r->buf (n bytes; has_newline: it ended with one): a
 * header (the first gives the version, start, cluster and model; later
 * ones, where recordings were concatenated, are checked and skipped) or
 * an empty line (or the end line of a saved /stream) is LINE_SKIP; a tick is staged into r->next (LINE_STAGED);
 * a tick past --at or a damaged line sets r->end (LINE_END).
 */
int
replay_file_take(kg_replay *r, size_t n, bool has_newline)
{
	char err[256];
	cJSON *root;
	const cJSON *t;
	int64_t tv, nv, gap;
	if (n == 0 || (n == 1 && has_newline))
		return LINE_SKIP; /* an empty line */
	root = replay_file_parse_line(r, n, has_newline, err, sizeof err);
	if (root == NULL) {
		set_damage(r, r->lineno, err);
		return LINE_END;
	}
	if (cJSON_GetObjectItemCaseSensitive(root, "kgtop_record") != NULL) {
		/* a header: recordings concatenated (cat FILE.1 FILE); a rotation continues "n" */
		int rc = replay_file_header(r, root, r->version == 0, err, sizeof err);
		cJSON_Delete(root);
		if (rc < 0) {
			set_damage(r, r->lineno, err);
			return LINE_END;
		}
		return LINE_SKIP;
	}
	if (cJSON_GetObjectItemCaseSensitive(root, "kgtop_stream_end") != NULL) {
		/* the last line of a saved /stream: why the server ended it, not a tick */
		cJSON_Delete(root);
		return LINE_SKIP;
	}
	t = cJSON_GetObjectItemCaseSensitive(root, "t");
	if (!json_get_i64(t, &tv)) {
		cJSON_Delete(root);
		set_damage(r, r->lineno, "no tick time (\"t\")");
		return LINE_END;
	}
	if (r->handed > 0 && tv < r->cur_t) {
		char d[32];
		cJSON_Delete(root);
		util_fmt_duration(d, sizeof d, r->cur_t - tv);
		snprintf(err, sizeof err, "time goes back %s", d);
		set_damage(r, r->lineno, err);
		return LINE_END;
	}
	gap = 0;
	if (json_get_i64(cJSON_GetObjectItemCaseSensitive(root, "n"), &nv)) {
		/*
		 * Ticks are numbered from the first of the recording: a tick
		 * missing is a gap (the recorder could not write: a full disk,
		 * then it goes on with a keyframe).  A keyframe after a gap
		 * carries on; a delta cannot (it changes a state that is not
		 * there), so deltas are skipped until a keyframe; a number that
		 * goes back is damage.
		 */
		if (r->last_n >= 0 && nv > 0 && nv <= r->last_n) {
			cJSON_Delete(root);
			snprintf(err, sizeof err, "tick %lld follows tick %lld: out of order", (long long)nv, (long long)r->last_n);
			set_damage(r, r->lineno, err);
			return LINE_END;
		}
		if (r->last_n >= 0 && nv > r->last_n + 1) {
			if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "key"))) {
				cJSON_Delete(root);
				if (r->skipped++ == 0) {
					r->skip_line = r->lineno;
					snprintf(r->skip_why, sizeof r->skip_why, "tick %lld follows tick %lld: %lld line%s missing",
						 (long long)nv, (long long)r->last_n, (long long)(nv - r->last_n - 1),
						 nv - r->last_n - 1 == 1 ? " is" : "s are");
				}
				return LINE_SKIP;
			}
			gap = nv - r->last_n - 1; /* the ticks skipped waiting for this keyframe among them */
			log_msg(KG_LOG_INFO, "replay: %s: line %lld: a gap of %lld ticks before it; carrying on from its keyframe",
				r->path, (long long)r->lineno, (long long)gap);
		}
		r->last_n = nv;
		r->skipped = 0;
	}
	if (r->has_at && tv > r->at_us && r->handed > 0) {
		cJSON_Delete(root);
		r->end = END_AT;
		return LINE_END;
	}
	memset(&r->next, 0, sizeof r->next);
	r->next.t = tv;
	r->next.lineno = r->lineno;
	r->next.gap_missing = gap;
	r->next.gap_from = r->last_t;
	r->last_t = tv;
	if (replay_stage_line(r, &r->next, root, err, sizeof err) < 0) {
		cJSON_Delete(root);
		replay_stage_clear(&r->next);
		set_damage(r, r->lineno, err);
		return LINE_END;
	}
	cJSON_Delete(root);
	r->has_next = true;
	return LINE_STAGED;
}

/*
 * Stage the next tick line into r->next (has_next), or set r->end: end of
 * file, a line after --at, or damage.  Headers of concatenated files are
 * read and skipped.
 */
void
replay_file_next(kg_replay *r)
{
	for (;;) {
		bool nl;
		ssize_t n = replay_file_read_line(r, &nl);
		if (n < 0 && r->skipped > 0) {
			/* a gap, and no keyframe after it to carry on from: where the replay stopped, and why */
			char why[300];
			snprintf(why, sizeof why, "%s, and no keyframe after it to carry on from (%lld tick%s skipped)",
				 r->skip_why, (long long)r->skipped, r->skipped == 1 ? "" : "s");
			set_damage(r, r->skip_line, why);
			return;
		}
		if (n < 0) {
			r->end = END_EOF;
			return;
		}
		if (replay_file_take(r, (size_t)n, nl) != LINE_SKIP)
			return;
	}
}

/* Index the recorded rebalance starts and the end time (real time only): a quick text scan. */
void
replay_file_index(kg_replay *r)
{
	static const char needle[] = "\"kind\":\"rebalance_start\",\"group\":\"";
	FILE *f = fopen(r->path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	if (f == NULL)
		return;
	while ((n = getline(&buf, &cap, f)) > 0) {
		char *end;
		long long t;
		const char *p, *q;
		if (buf[n - 1] != '\n')
			break;
		if (strncmp(buf, "{\"t\":", 5) != 0) {
			if (strncmp(buf, "{\"kgtop_record\":", 16) == 0)
				continue;
			break;
		}
		t = strtoll(buf + 5, &end, 10);
		if (end == buf + 5)
			break;
		r->end_us = t;
		for (p = buf; (p = strstr(p, needle)) != NULL; p = q) {
			p += sizeof needle - 1;
			for (q = p; *q && *q != '"'; q++) {
				if (*q == '\\' && q[1])
					q++;
			}
			util_grow(&r->marks, &r->cmarks, r->nmarks + 1, sizeof *r->marks);
			r->marks[r->nmarks].t = t;
			r->marks[r->nmarks].group = xstrndup(p, (size_t)(q - p));
			r->nmarks++;
		}
	}
	free(buf);
	fclose(f);
}

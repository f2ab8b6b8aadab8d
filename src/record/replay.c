/*
 * replay.c: the replay source (see replay.h; the format is kgtop-record(5)).
 *
 * The source keeps the state the recording describes and one line ahead,
 * parsed and checked ("staged", replay_stage.c), so a damaged line is
 * found before anything of it is applied, and handing it over (commit)
 * cannot fail.  Each poll that is due hands over one staged line: its
 * objects replace the current ones, its observations wait for drain(),
 * its time becomes the collector's clock, and the next line is staged at
 * once, so the tick that shows the last good line already says why the
 * replay stops there (end of file, --at reached, damage at line N).
 *
 * Timing: as fast as possible (--once, --json) every poll is due; in real
 * time a line is due when the play position, anchored at a wall time and
 * a recorded time and advancing at the speed, reaches it.  Pausing, speed
 * changes and seeking forward re-anchor; a command that changes what the
 * header should say asks for a tick at the same recorded time (with no
 * new observations and the same state, the tracker derives nothing from
 * it).  Going back is the dashboard's history scrubbing: the tracker
 * cannot be fed the past again.  In real time an index made at open (the
 * recorded rebalance starts and the end time) answers next-rebalance and
 * prev-rebalance (replay_file.c reads the file).
 */
#include "config.h"

#include "record/replay.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/format.h"
#include "record/replay_int.h"
#include "util/log.h"
#include "util/util.h"


/* Local time of a time in a strftime format. */
static void
fmt_local(char *buf, size_t n, int64_t us, const char *fmt)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, n, fmt, &tm);
}

/* Local HH:MM:SS of a time. */
static void
fmt_hms(char *buf, size_t n, int64_t us)
{
	fmt_local(buf, n, us, "%H:%M:%S");
}

/* Local date and time of a time (--at messages: "17:47" may mean the next day). */
static void
fmt_when(char *buf, size_t n, int64_t us)
{
	fmt_local(buf, n, us, "%Y-%m-%d %H:%M:%S");
}

/* ------------------------------------------------------------ playing */

/* The play position (recorded time) at wall time now. */
static int64_t
position(const kg_replay *r, int64_t now)
{
	if (r->paused || !r->started)
		return r->anchor_rec;
	return r->anchor_rec + (int64_t)((double)(now - r->anchor_wall) * r->speed);
}

/* Re-anchor the position at now (before a speed change or a pause). */
static void
reanchor(kg_replay *r, int64_t now)
{
	r->anchor_rec = position(r, now);
	r->anchor_wall = now;
}

/* Hand the staged line over and stage the one after it. */
static void
hand_over(kg_replay *r)
{
	replay_stage_commit(r, &r->next);
	r->has_next = false;
	replay_file_next(r);
}

/* Source op: hand over the next line when it is due. */
static int
replay_poll(kg_source *s, int64_t now_us)
{
	kg_replay *r = s->impl;
	int64_t wall = util_now_us();
	int flags = 0;
	(void)now_us; /* the collector's clock is ours: wall time decides what is due */
	if (!r->started) {
		r->started = true;
		r->anchor_wall = wall;
		if (r->has_next && r->anchor_rec < r->next.t)
			r->anchor_rec = r->next.t;
	}
	if (r->has_next && (r->cfg.as_fast || r->next.t <= position(r, wall))) {
		hand_over(r);
		flags |= KG_SRC_NEWS;
		r->retick = false;
	} else if (r->retick) {
		flags |= KG_SRC_NEWS;
		r->retick = false;
	}
	if (!r->has_next && !r->complete_sent) {
		flags |= KG_SRC_COMPLETE;
		r->complete_sent = true;
		if (r->end == END_EOF && r->has_at && r->at_us > r->cur_t + 1000000) {
			char a[32], e[32];
			fmt_when(a, sizeof a, r->at_us);
			fmt_when(e, sizeof e, r->cur_t);
			log_msg(KG_LOG_WARN, "replay: --at %s is after the recording ends (%s): this is the end", a, e);
		}
	}
	return flags;
}

/* Source op: the observations of the line handed over. */
static void
replay_drain(kg_source *s, kg_obsq *q)
{
	kg_replay *r = s->impl;
	obsq_move(q, &r->pending);
}

/*
 * The gaps crossed, after the message: on the keyframe after a gap, the
 * gap (its ticks and times); later, how many there were.
 */
static void
gap_message(const kg_replay *r, char *buf, size_t n)
{
	char from[16], to[16], d[32];
	size_t l = strlen(buf);
	if (r->gaps == 0 || l >= n)
		return;
	fmt_hms(from, sizeof from, r->gap_from);
	fmt_hms(to, sizeof to, r->gap_to);
	util_fmt_duration(d, sizeof d, r->gap_to - r->gap_from);
	if (r->gap_now)
		snprintf(buf + l, n - l,
			 "; a gap in the recording: %lld tick%s missing from %s to %s (%s: the recorder could not write), "
			 "carried on from the keyframe after it",
			 (long long)r->gap_missing, r->gap_missing == 1 ? "" : "s", from, to, d);
	else
		snprintf(buf + l, n - l, "; %lld gap%s crossed (%lld ticks missing), the last from %s to %s", (long long)r->gaps,
			 r->gaps == 1 ? "" : "s", (long long)r->gap_ticks, from, to);
}

/* The replay's own health message. */
static void
health_message(kg_replay *r, char *buf, size_t n)
{
	char now[16], end[16], sp[16];
	fmt_hms(now, sizeof now, r->cur_t);
	snprintf(sp, sizeof sp, "%gx", r->speed);
	if (r->end == END_DAMAGE)
		snprintf(buf, n, "stopped at %s (the last good tick is %s)", r->damage, now);
	else if (!r->has_next && r->end == END_AT)
		snprintf(buf, n, "at %s (--at), line %lld", now, (long long)r->cur_line);
	else if (!r->has_next)
		snprintf(buf, n, "ended at %s, line %lld", now, (long long)r->cur_line);
	else if (r->cfg.as_fast)
		snprintf(buf, n, "as fast as possible, at %s", now);
	else {
		int64_t pos = position(r, util_now_us());
		int len;
		if (r->end_us > 0)
			fmt_hms(end, sizeof end, r->end_us);
		if (r->has_next && pos - r->next.t > (int64_t)(r->speed * 1e6) + 1000000) {
			char to[16];
			fmt_hms(to, sizeof to, pos);
			len = snprintf(buf, n, "seeking to %s", to);
		} else {
			len = snprintf(buf, n, "%s %s at %s", r->paused ? "paused," : "playing", sp, now);
		}
		if (r->end_us > 0 && len > 0 && (size_t)len < n)
			snprintf(buf + len, n - (size_t)len, " (ends %s)", end);
	}
	if (r->no_header) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, "; the file has no header line");
	}
	gap_message(r, buf, n);
}

/* Source op: the state of the line handed over, and the replay's health. */
static void
replay_contribute(kg_source *s, kg_builder *b)
{
	kg_replay *r = s->impl;
	kg_source_health h;
	char msg[512];
	replay_stage_contribute(r, b);
	memset(&h, 0, sizeof h);
	h.name = "replay";
	/* the keyframe after a gap is stale news for a tick: an event says so, the next tick is ok again */
	h.status = r->end == END_DAMAGE && !r->has_next ? KG_SRC_ERROR : r->gap_now ? KG_SRC_STALE : KG_SRC_OK;
	h.since_us = r->start_us;
	h.last_ok_us = r->cur_t;
	health_message(r, msg, sizeof msg);
	h.message = msg;
	builder_source(b, &h);
}

/* Source op: when the next line is due (wall time), 0 when nothing is. */
static int64_t
replay_next_poll(kg_source *s)
{
	kg_replay *r = s->impl;
	if (r->retick || !r->started)
		return 1;
	if (!r->has_next)
		return 0;
	if (r->cfg.as_fast || r->next.t <= r->anchor_rec)
		return 1;
	if (r->paused)
		return 0;
	return r->anchor_wall + (int64_t)ceil((double)(r->next.t - r->anchor_rec) / r->speed);
}

/* Source op: the collector's clock is the recorded time of the line handed over. */
static int64_t
replay_clock(kg_source *s)
{
	kg_replay *r = s->impl;
	return r->handed > 0 ? r->cur_t : r->has_next ? r->next.t : r->start_us;
}

/* Set the speed (re-anchoring first); a message in err. */
static int
set_speed(kg_replay *r, double v, char *err, size_t errsz)
{
	if (!(v >= SPEED_MIN && v <= SPEED_MAX))
		return util_err(err, errsz, "replay: speed %g: expected %g to %g", v, SPEED_MIN, SPEED_MAX);
	reanchor(r, util_now_us());
	r->speed = v;
	r->retick = true;
	snprintf(err, errsz, "replay: %gx", v);
	return 0;
}

/* Jump the play position forward to the recorded time to. */
static void
seek_to(kg_replay *r, int64_t to)
{
	int64_t now = util_now_us();
	reanchor(r, now);
	if (to > r->anchor_rec)
		r->anchor_rec = to;
	r->retick = true;
}

/* Source op: play, pause, toggle, speed X, faster, slower, seek +/-S, next/prev-rebalance. */
static int
replay_command(kg_source *s, const char *cmd, char *err, size_t errsz)
{
	kg_replay *r = s->impl;
	int64_t now = util_now_us(), pos = position(r, now);
	char t[16], when[16];
	size_t i;
	if (strcmp(cmd, "refresh") == 0)
		return 0;
	if (r->cfg.as_fast)
		return util_err(err, errsz, "replay: %s: not while replaying as fast as possible", cmd);
	fmt_hms(t, sizeof t, r->cur_t);
	if (strcmp(cmd, "toggle") == 0)
		cmd = r->paused ? "play" : "pause";
	if (strcmp(cmd, "pause") == 0) {
		if (!r->paused) {
			reanchor(r, now);
			/* stay on the tick shown: resuming continues from it */
			if (r->anchor_rec > r->cur_t && r->handed > 0)
				r->anchor_rec = r->cur_t;
			r->paused = true;
			r->retick = true;
		}
		snprintf(err, errsz, "replay: paused at %s", t);
		return 0;
	}
	if (strcmp(cmd, "play") == 0) {
		if (r->paused) {
			r->anchor_wall = now;
			r->paused = false;
			r->retick = true;
		}
		if (!r->has_next)
			snprintf(err, errsz, "replay: the recording ended at %s", t);
		else
			snprintf(err, errsz, "replay: playing %gx from %s", r->speed, t);
		return 0;
	}
	if (strncmp(cmd, "speed ", 6) == 0) {
		char *end;
		double v = strtod(cmd + 6, &end);
		if (end == cmd + 6 || (*end != '\0' && strcmp(end, "x") != 0))
			return util_err(err, errsz, "replay: '%s': expected speed X with X from %g to %g", cmd, SPEED_MIN,
					SPEED_MAX);
		return set_speed(r, v, err, errsz);
	}
	if (strcmp(cmd, "faster") == 0 || strcmp(cmd, "slower") == 0) {
		double v = cmd[0] == 'f' ? r->speed * 2 : r->speed / 2;
		v = v < SPEED_MIN ? SPEED_MIN : v > SPEED_MAX ? SPEED_MAX : v;
		return set_speed(r, v, err, errsz);
	}
	if (strncmp(cmd, "seek ", 5) == 0) {
		const char *a = cmd + 5;
		int sign = 1;
		int64_t d;
		if (*a == '+' || *a == '-')
			sign = *a++ == '-' ? -1 : 1;
		d = util_parse_duration_us(a);
		if (d < 0)
			return util_err(err, errsz, "replay: '%s': expected seek +S or seek -S (seconds)", cmd);
		if (sign < 0)
			return util_err(err, errsz,
					"replay plays forward only: pause (p) and scrub back with left/right "
					"through the history the dashboard keeps");
		seek_to(r, (pos > r->cur_t ? pos : r->cur_t) + d);
		fmt_hms(when, sizeof when, r->anchor_rec);
		snprintf(err, errsz, "replay: to %s", when);
		return 0;
	}
	if (strcmp(cmd, "next-rebalance") == 0) {
		for (i = 0; i < r->nmarks; i++) {
			if (r->marks[i].t > r->cur_t)
				break;
		}
		if (i == r->nmarks)
			return util_err(err, errsz, "replay: no rebalance starts after %s in this recording", t);
		seek_to(r, r->marks[i].t);
		fmt_hms(when, sizeof when, r->marks[i].t);
		snprintf(err, errsz, "replay: rebalance of %s at %s", r->marks[i].group, when);
		return 0;
	}
	if (strcmp(cmd, "prev-rebalance") == 0) {
		char ago[32];
		for (i = r->nmarks; i > 0; i--) {
			if (r->marks[i - 1].t <= r->cur_t)
				break;
		}
		if (i == 0)
			return util_err(err, errsz, "replay: no rebalance started before %s", t);
		fmt_hms(when, sizeof when, r->marks[i - 1].t);
		util_fmt_duration(ago, sizeof ago, r->cur_t - r->marks[i - 1].t);
		return util_err(err, errsz,
				"replay: the previous rebalance (%s) began at %s, %s ago: pause (p) and scrub back "
				"with left/right",
				r->marks[i - 1].group, when, ago);
	}
	return util_err(err, errsz, "replay: unknown command '%s'", cmd);
}

/* Free everything. */
static void
replay_free(kg_replay *r)
{
	size_t i;
	if (r == NULL)
		return;
	if (r->f != NULL)
		fclose(r->f);
	replay_stage_free(r);
	obsq_clear(&r->pending);
	free(r->pending.v);
	for (i = 0; i < r->nmarks; i++)
		free(r->marks[i].group);
	free(r->marks);
	free(r->buf);
	free(r->cluster);
	free(r->path);
	free((char *)r->cfg.at);
	free(r);
}

/* Source op: close. */
static void
replay_close(kg_source *s)
{
	replay_free(s->impl);
}

static const kg_source_ops replay_ops = {
	.kind = "replay",
	.role = KG_ROLE_REPLAY,
	.poll = replay_poll,
	.drain = replay_drain,
	.contribute = replay_contribute,
	.next_poll = replay_next_poll,
	.command = replay_command,
	.clock = replay_clock,
	.close = replay_close,
};

/* ------------------------------------------------------------ --at */

/* Parse fractional seconds ".123" at *p into microseconds, advancing *p. */
static int64_t
parse_frac(const char **p)
{
	int64_t us = 0, scale = 100000;
	if (**p != '.' && **p != ',')
		return 0;
	(*p)++;
	while (isdigit((unsigned char)**p)) {
		us += (**p - '0') * scale;
		scale /= 10;
		(*p)++;
	}
	return us;
}

/* Parse --at: HH:MM[:SS], an ISO time (Z, +HH:MM or local), or +SECONDS. */
int
replay_parse_at(const char *at, int64_t start_us, int64_t *out_us, char *err, size_t errsz)
{
	int y, mo, d, h, mi, s = 0, n = 0;
	const char *p;
	if (at == NULL || *at == '\0')
		return util_err(err, errsz, "--at: empty time");
	if (at[0] == '+') {
		int64_t us = util_parse_duration_us(at + 1);
		if (us < 0)
			return util_err(err, errsz, "--at '%s': expected +SECONDS (or +5m, +1h) from the recording's start",
					at);
		*out_us = start_us + us;
		return 0;
	}
	if (sscanf(at, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 && (at[n] == 'T' || at[n] == ' ')) {
		int64_t secs, frac;
		int m2 = 0;
		p = at + n + 1;
		if (sscanf(p, "%2d:%2d%n", &h, &mi, &m2) != 2)
			goto bad;
		p += m2;
		if (*p == ':') {
			if (sscanf(p + 1, "%2d%n", &s, &m2) != 1)
				goto bad;
			p += 1 + m2;
		}
		frac = parse_frac(&p);
		if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
			goto bad;
		if (*p == 'Z' || *p == 'z' || *p == '+' || *p == '-') {
			int oh = 0, om = 0, sign = 1;
			secs = util_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
			if (*p == '+' || *p == '-') {
				sign = *p == '-' ? -1 : 1;
				if (sscanf(p + 1, "%2d:%2d", &oh, &om) != 2 && sscanf(p + 1, "%2d%2d", &oh, &om) != 2)
					goto bad;
				secs -= sign * (oh * 3600 + om * 60);
			} else if (p[1] != '\0') {
				goto bad;
			}
		} else if (*p == '\0') {
			secs = util_local_time(y, mo, d, h, mi, s);
			if (secs < 0)
				goto bad;
		} else {
			goto bad;
		}
		*out_us = secs * 1000000 + frac;
		return 0;
	}
	n = 0;
	if (sscanf(at, "%2d:%2d%n", &h, &mi, &n) == 2) {
		time_t st = (time_t)(start_us / 1000000);
		struct tm tm;
		int64_t secs, frac;
		p = at + n;
		if (*p == ':') {
			int m2 = 0;
			if (sscanf(p + 1, "%2d%n", &s, &m2) != 1)
				goto bad;
			p += 1 + m2;
		}
		frac = parse_frac(&p);
		if (*p != '\0' || h > 23 || mi > 59 || s > 60)
			goto bad;
		localtime_r(&st, &tm);
		secs = util_local_time(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, h, mi, s);
		if (secs < 0)
			goto bad;
		if (secs * 1000000 + frac < start_us - 1000000) /* past midnight: the next day */
			secs = util_local_time(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday + 1, h, mi, s);
		*out_us = secs * 1000000 + frac;
		return 0;
	}
bad:
	return util_err(err, errsz,
			"--at '%s': expected HH:MM:SS (local time, the recording's first day), "
			"an ISO time like 2026-11-29T03:12:00[Z], or +SECONDS",
			at);
}

/* ------------------------------------------------------------ opening */

/* Open a recording. */
int
replay_source_new(const kg_replay_config *cfg, kg_source **out, char *err, size_t errsz)
{
	kg_replay *r = xcalloc(1, sizeof *r);
	char why[320];
	bool nl;
	ssize_t n;
	cJSON *root;
	r->cfg = *cfg;
	r->last_n = -1;
	r->cfg.at = xstrdup(cfg->at);
	r->path = xstrdup(cfg->path);
	r->speed = cfg->speed >= SPEED_MIN && cfg->speed <= SPEED_MAX ? cfg->speed : 1.0;
	r->f = util_fopen_regular(cfg->path);
	if (r->f == NULL) {
		util_err(err, errsz, "--replay %s: %s", cfg->path, strerror(errno));
		replay_free(r);
		return -1;
	}
	n = replay_file_read_line(r, &nl);
	if (n <= 0) {
		util_err(err, errsz, "--replay %s: the file is empty", cfg->path);
		replay_free(r);
		return -1;
	}
	root = replay_file_parse_line(r, (size_t)n, nl, why, sizeof why);
	if (root == NULL) {
		util_err(err, errsz, "--replay %s: not a kgtop recording (line 1: %s)", cfg->path, why);
		replay_free(r);
		return -1;
	}
	if (cJSON_GetObjectItemCaseSensitive(root, "kgtop_record") != NULL) {
		int rc = replay_file_header(r, root, true, why, sizeof why);
		cJSON_Delete(root);
		if (rc < 0) {
			util_err(err, errsz, "--replay %s: %s", cfg->path, why);
			replay_free(r);
			return -1;
		}
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "key")) &&
		   cJSON_GetObjectItemCaseSensitive(root, "t") != NULL) {
		/* the header is lost but the file starts with a keyframe: replay it */
		cJSON_Delete(root);
		r->no_header = true;
		r->version = KG_RECORD_VERSION;
		r->cluster = xasprintf("recording %s", cfg->path);
		log_msg(KG_LOG_WARN, "replay: %s: line 1 is not a header; replaying from its keyframe", cfg->path);
		rewind(r->f);
		r->lineno = 0;
	} else {
		bool json_output = cJSON_GetObjectItemCaseSensitive(root, "version") != NULL &&
				   cJSON_GetObjectItemCaseSensitive(root, "groups") != NULL;
		cJSON_Delete(root);
		util_err(err, errsz, "--replay %s: not a kgtop recording (line 1 has no header)%s", cfg->path,
			 json_output ? ": this looks like kgtop --json output; record with --record FILE" : "");
		replay_free(r);
		return -1;
	}
	replay_file_next(r);
	if (!r->has_next) {
		if (r->end == END_DAMAGE)
			util_err(err, errsz, "--replay %s: nothing to replay: %s", cfg->path, r->damage);
		else
			util_err(err, errsz, "--replay %s: the recording holds no tick", cfg->path);
		replay_free(r);
		return -1;
	}
	if (r->start_us == 0)
		r->start_us = r->next.t;
	r->anchor_rec = r->next.t;
	if (cfg->at != NULL) {
		char a[64];
		if (replay_parse_at(cfg->at, r->start_us, &r->at_us, err, errsz) < 0) {
			replay_free(r);
			return KG_ERR_USAGE;
		}
		if (r->at_us < r->next.t) {
			char w[32];
			fmt_when(a, sizeof a, r->next.t);
			fmt_when(w, sizeof w, r->at_us);
			replay_free(r);
			return util_usage_err(err, errsz, "--at %s (%s) is before the recording starts (%s)", cfg->at, w, a);
		}
		r->has_at = true;
	}
	if (!cfg->as_fast)
		replay_file_index(r);
	*out = source_new(&replay_ops, "replay", r);
	return 0;
}

/* The recording's cluster label. */
const char *
replay_cluster(kg_source *s)
{
	kg_replay *r = s->impl;
	return r->cluster;
}

/* Where a damaged recording stopped, NULL when it did not. */
const char *
replay_damage(kg_source *s)
{
	kg_replay *r = s->impl;
	return r->end == END_DAMAGE && !r->has_next ? r->damage : NULL;
}

/* The model's settings recorded in the header. */
bool
replay_model(kg_source *s, kg_tracker_config *cfg)
{
	kg_replay *r = s->impl;
	if (!r->has_model)
		return false;
	*cfg = r->model;
	return true;
}

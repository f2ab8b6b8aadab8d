/*
 * replay_feed.c: a recording fed line by line (see replay_feed.h).
 *
 * A fed line is copied into the replay's line buffer and taken as a file's
 * line would be (replay_file_take()): a tick is staged, then committed at
 * once.  Committing replaces the observations waiting for drain(), so the
 * caller feeds one tick per collector tick, as the serving kgtop made them;
 * should two arrive before a drain, the first's observations are kept
 * too.
 */
#include "config.h"

#include "record/replay_feed.h"

#include <stdlib.h>
#include <string.h>

#include "record/replay_int.h"
#include "util/util.h"

/* An empty feed, named for its messages (the URL it comes from). */
kg_replay *
replay_feed_new(const char *name)
{
	kg_replay *r = xcalloc(1, sizeof *r);
	r->path = xstrdup(name != NULL ? name : "(a stream)");
	r->last_n = -1;
	r->speed = 1.0;
	r->cluster = xstrdup("");
	return r;
}

/* Free it. */
void
replay_feed_free(kg_replay *r)
{
	if (r == NULL)
		return;
	replay_stage_free(r);
	obsq_clear(&r->pending);
	free(r->pending.v);
	free(r->buf);
	free(r->cluster);
	free(r->path);
	free(r);
}

/* Feed one line. */
int
replay_feed_line(kg_replay *r, const char *line, size_t len, char *err, size_t errsz)
{
	kg_obsq keep = { 0 };
	int v;
	if (r->bufcap < len + 2) {
		r->bufcap = len + 2;
		r->buf = xrealloc(r->buf, r->bufcap);
	}
	memcpy(r->buf, line, len);
	r->buf[len] = '\n';
	r->buf[len + 1] = '\0';
	r->lineno++;
	r->end = END_NONE;
	v = replay_file_take(r, len + 1, true);
	if (v == LINE_SKIP)
		return 0;
	if (v != LINE_STAGED || r->end == END_DAMAGE)
		return util_err(err, errsz, "%s", r->end == END_DAMAGE ? r->damage : "unexpected line");
	/* observations not drained yet stay ahead of this tick's */
	obsq_move(&keep, &r->pending);
	replay_stage_commit(r, &r->next);
	r->has_next = false;
	obsq_move(&keep, &r->pending);
	obsq_move(&r->pending, &keep);
	free(keep.v);
	return 1;
}

/* A new connection. */
void
replay_feed_restart(kg_replay *r)
{
	r->last_n = -1;
	r->end = END_NONE;
	r->damage[0] = '\0';
}

/* True once a header was fed. */
bool
replay_feed_has_header(const kg_replay *r)
{
	return r->version > 0;
}

/* The cluster label. */
const char *
replay_feed_cluster(const kg_replay *r)
{
	return r->cluster;
}

/* The model's settings. */
bool
replay_feed_model(const kg_replay *r, kg_tracker_config *cfg)
{
	if (!r->has_model)
		return false;
	*cfg = r->model;
	return true;
}

/* Time of the last tick fed. */
int64_t
replay_feed_time(const kg_replay *r)
{
	return r->handed > 0 ? r->cur_t : 0;
}

/* The observations fed since the last drain. */
void
replay_feed_drain(kg_replay *r, kg_obsq *q)
{
	obsq_move(q, &r->pending);
}

/* The state. */
void
replay_feed_contribute(kg_replay *r, kg_builder *b)
{
	replay_stage_contribute(r, b);
}

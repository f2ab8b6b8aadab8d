/*
 * tracker_live.h: the tracker's liveness part (tracker_live.c): a member's
 * own signs of life (heartbeats, polls, client metrics), its silence, and
 * its health against the limits a trace told.  Its state (struct tk_live,
 * one per member, made with the member) is private to tracker_live.c.
 * It stands on tracker_base.c alone.
 */
#ifndef KGTOP_MODEL_TRACKER_LIVE_H
#define KGTOP_MODEL_TRACKER_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/tracker_int.h"

/* What made a member silent (not consuming) before the coordinator decided; what brings it back. */
enum {
	SILENT_NONE,
	SILENT_CRASH,     /* no heartbeats, no polls (a trace said it crashed): any sign of life clears it */
	SILENT_STALL,     /* stopped polling (heartbeats go on in their thread): a poll clears it */
	SILENT_HEARTBEAT, /* heartbeats stopped coming: a heartbeat clears it */
	SILENT_EXTERNAL,  /* its partitions' commits froze (tracker_progress.c): cleared when one moves */
};

/* What shows a member alive, for tk_member_alive(); LIFE_PROGRESS (its commits move) ends only frozen commits' silence. */
enum { LIFE_HEARTBEAT, LIFE_POLL, LIFE_CALLBACK, LIFE_PROGRESS };

/* A member's liveness before any sign: consuming, no heartbeat, no metrics. */
tk_live *tk_live_new(void);
/* Free a member's liveness (NULL is fine). */
void tk_live_free(tk_live *v);
/* A member present again: its silence is over. */
void tk_live_revive(tmember *m);
/* Since when m has not been consuming (SILENT), 0 when it is. */
int64_t tk_live_silent_since(const tmember *m);
/* Evidence that m was consuming at t (a commit of what it held, a generation it joined, its own sign): stops are not before. */
void tk_live_life(tmember *m, int64_t t);
/*
 * When m's partitions stopped being consumed, m gone at time (evid, why):
 * within [*lo, *hi] (*lo 0 not known how early): a trace's word says
 * when; polling knows only that it was gone by time and alive at its last
 * sign of life (tk_live_life).
 */
void tk_live_stop_bounds(const tmember *m, int64_t time, kg_evidence evid, kg_reason why, int64_t *hi, int64_t *lo);

/*
 * The member status input: m stopped consuming at since (SILENT_* kind,
 * why in words); shown "silent" until the coordinator decides (it leaves)
 * or it shows the life that kind needs (tk_member_alive).  True when that
 * is news; what it means for an open rebalance is the caller's to tell
 * (the traces' KG_OBS_SILENT in tracker_obs.c; missing heartbeats and
 * frozen commits are judged outside rebalances only).
 */
bool tk_member_silent(kg_tracker *t, tgroup *g, tmember *m, int64_t since, int kind, const char *why,
		      kg_evidence evid);
/* True when tk_member_silent(..., since, ...) would be no news: m is gone or already silent from since or before. */
bool tk_member_silent_already(const tmember *m, int64_t since);
/* m showed life (LIFE_*) at time: a silence that kind of life ends is over. */
void tk_member_alive(tmember *m, int64_t time, int life);
/* Members whose traced heartbeats (or heartbeat metrics) stopped coming are silent from their last one. */
void tk_heartbeat_silence(kg_tracker *t, tgroup *g, int64_t T);

/* A commit moved on a partition m held since before lo: m was consuming after lo. */
void tk_live_committed(tmember *m, int64_t lo);
/*
 * Why a member a description no longer has left, as polling can tell:
 * gone sooner after its last own commit than any timeout can fire, LEFT;
 * after a silence, the timeout its kind and the limits allow (a trace's
 * stall max.poll.interval.ms, its crash the session timeout, frozen
 * commits either: TIMEOUT), inferred; else UNKNOWN.  text says what shows it.
 */
kg_reason tk_live_gone_reason(const kg_tracker *t, const tgroup *g, const tmember *m, int64_t time, char *text, size_t n);
/* The limits a trace told of the member (session.timeout.ms, max.poll.interval.ms). */
void tk_live_limits(tmember *m, const kg_obs *o);
/* The session timeout m is judged by: its own from a trace, else its group's, else the configured one. */
int64_t tk_live_session_us(const kg_tracker *t, const tgroup *g, const tmember *m);
/* A heartbeat answered (KG_OBS_HEARTBEAT). */
void tk_live_heartbeat(tmember *m, const kg_obs *o);
/* The application polled (KG_OBS_POLL). */
void tk_live_poll(tmember *m, const kg_obs *o);
/* A client's metrics sample, or its own view of its group state (KG_OBS_METRICS, KG_OBS_CLIENT_STATE). */
void tk_live_metrics(tmember *m, const kg_obs *o);

/* The snapshot's entry of m learns its health against its limits and its silence. */
void tk_live_annotate(const kg_tracker *t, kg_snapshot *s, const tgroup *g, const tmember *m, int64_t T,
		      kg_member *sm);
/* The group's limits: what a member that says nothing of its own is judged by (only h's limits are meant). */
void tk_live_group_limits(const kg_tracker *t, const tgroup *g, int64_t T, kg_member_health *h);

#endif

/*
 * tracker_live.c: liveness, a member's own signs of life (tracker_live.h).
 *
 * A member stops consuming at the first evidence (tk_member_silent: a
 * trace says it crashed or stopped polling, its heartbeats stop coming,
 * its commits froze) and is "silent since T" until the coordinator decides
 * (it leaves) or it shows the kind of life that ends that silence
 * (tk_member_alive).  Heartbeats, polls and client metrics are kept here
 * with the limits a trace told (session.timeout.ms, max.poll.interval.ms),
 * and the member's health is judged against them.  The state is this
 * file's alone: others ask through tracker_live.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/defaults.h"
#include "model/tracker_int.h"
#include "model/tracker_live.h"

#define HB_SILENT_MIN (1500LL * 1000) /* no heartbeat for 2.5 intervals, and at least this long: silent */

/* A member's liveness. */
struct tk_live {
	int64_t silent_since; /* not consuming since (SILENT status), 0 when it is */
	int64_t life_lo;      /* the latest moment it is known to have been consuming (a stop is not before), 0 unknown */
	int64_t committed_lo; /* the latest moment a commit of its own shows it consuming (leave reasons), 0 unknown */
	bool silent_exact;    /* a trace said when it stopped (silent_since is the time), not an inference */
	int silent_kind;      /* SILENT_* */
	char *silent_why;
	int64_t silent_hb;    /* the last heartbeat after which it was said silent (once each) */
	int64_t hb_gap;       /* the last gap between two heartbeats (the interval as observed), 0 unknown */
	int64_t hb_last;
	int64_t poll_last;
	int64_t poll_gap_max;
	int64_t m_time;       /* time of the last metrics sample */
	int64_t m_hb_age, m_poll_gap, m_poll_gap_max; /* from the metrics: -1 unknown */
	int64_t m_rb_avg, m_rb_max, m_failed;
	double m_hb_rate;
	const char *health_src;
	int64_t session_us;   /* from traces, 0 unknown */
	int64_t max_poll_us;
};

/* A member's liveness before any sign: consuming, no heartbeat, no metrics (unknown, not 0). */
tk_live *
tk_live_new(void)
{
	tk_live *v = xcalloc(1, sizeof *v);
	v->m_hb_age = v->m_poll_gap = v->m_poll_gap_max = -1;
	v->m_rb_avg = v->m_rb_max = v->m_failed = -1;
	v->m_hb_rate = -1;
	return v;
}

/* Free a member's liveness. */
void
tk_live_free(tk_live *v)
{
	if (v == NULL)
		return;
	free(v->silent_why);
	free(v);
}

/* A member present again: its silence is over. */
void
tk_live_revive(tmember *m)
{
	m->live->silent_since = 0;
	m->live->silent_kind = SILENT_NONE;
}

/* Since when m has not been consuming (SILENT), 0 when it is. */
int64_t
tk_live_silent_since(const tmember *m)
{
	return m->live->silent_since;
}

/* Evidence that m was consuming (alive, in a generation, committing) at t: its stops are not before. */
void
tk_live_life(tmember *m, int64_t t)
{
	if (t > m->live->life_lo)
		m->live->life_lo = t;
}

/*
 * When m's partitions stopped being consumed, m gone at time (evid, why):
 * within [*lo, *hi] (*hi 0: not proven by any moment before time, *lo 0:
 * not known how early).  A trace's word of a crash or stall, or of a
 * LeaveGroup, says when; polling only knows it was gone by time and alive
 * at its last sign of life: a member that crashed with nothing to commit
 * gives none, however long before its removal it died.
 */
void
tk_live_stop_bounds(const tmember *m, int64_t time, kg_evidence evid, kg_reason why, int64_t *hi, int64_t *lo)
{
	const tk_live *v = m->live;
	if (v->silent_since > 0 && v->silent_since <= time && v->silent_exact) {
		*hi = *lo = v->silent_since;
	} else if (evid == KG_EVID_EXACT && why == KG_REASON_GRACEFUL) {
		*hi = *lo = time; /* its revoke, then LeaveGroup */
	} else {
		*hi = evid == KG_EVID_EXACT ? time : 0; /* polled: a generation not seen may have handed them on */
		*lo = KG_MIN(v->life_lo, time);
	}
}

/* The limits a trace told of the member (KG_OBS_* with session.timeout.ms, max.poll.interval.ms). */
void
tk_live_limits(tmember *m, const kg_obs *o)
{
	if (o->session_timeout_ms > 0)
		m->live->session_us = o->session_timeout_ms * 1000;
	if (o->max_poll_ms > 0)
		m->live->max_poll_us = o->max_poll_ms * 1000;
}

/* The session timeout m is judged by: its own from a trace, else its group's, else the configured one. */
int64_t
tk_live_session_us(const kg_tracker *t, const tgroup *g, const tmember *m)
{
	return m->live->session_us > 0 ? m->live->session_us
	       : g->session_us > 0 ? g->session_us : t->cfg.session_timeout_us;
}

/* A commit moved on a partition m held since before lo: m was consuming after lo (its leave reason's evidence). */
void
tk_live_committed(tmember *m, int64_t lo)
{
	if (lo > m->live->committed_lo)
		m->live->committed_lo = lo;
}

/* The shortest a limit can be: told (a trace, the config) as it is, else KG_TIMEOUT_MIN_US. */
static int64_t
limit_lo(int64_t member_us, int64_t group_us, int64_t cfg_us, kg_limit_src cfg_src)
{
	if (member_us > 0)
		return member_us;
	if (group_us > 0)
		return group_us;
	return cfg_src != KG_LIMIT_DEFAULT && cfg_us > 0 ? cfg_us : KG_TIMEOUT_MIN_US;
}

/*
 * Why a member a description no longer has left, as polling can tell.  A
 * timeout needs that long without the member: gone sooner after its last
 * own commit (tk_live_committed) than the shortest either timeout can be
 * (limit_lo), it left (LEFT).  After a silence: a trace's stall is
 * max.poll.interval.ms, its crash or missing heartbeats the session
 * timeout; frozen commits tell neither (a crash and a stuck poll loop look
 * alike), so the timeout the limits allow, both: TIMEOUT; all inferred.
 * No silence, a timeout possible: UNKNOWN.  text says what shows it.
 */
kg_reason
tk_live_gone_reason(const kg_tracker *t, const tgroup *g, const tmember *m, int64_t time, char *text, size_t n)
{
	const tk_live *v = m->live;
	int64_t quiet = v->committed_lo > 0 && v->committed_lo <= time ? time - v->committed_lo : -1;
	bool session = quiet < 0 || quiet >= limit_lo(v->session_us, g->session_us, t->cfg.session_timeout_us, t->cfg.session_src);
	bool poll = quiet < 0 || quiet >= limit_lo(v->max_poll_us, g->max_poll_us, t->cfg.max_poll_us, t->cfg.max_poll_src);
	char when[16];
	time_t tt;
	struct tm tm;
	text[0] = '\0';
	if (!session && !poll)
		return KG_REASON_LEFT;
	if (v->silent_since <= 0 || v->silent_since > time)
		return KG_REASON_UNKNOWN;
	tt = (time_t)(v->silent_since / 1000000);
	localtime_r(&tt, &tm);
	strftime(when, sizeof when, "%H:%M:%S", &tm);
	snprintf(text, n, "silent since %s%s%s, then removed", when, v->silent_why != NULL ? ": " : "",
		 v->silent_why != NULL ? v->silent_why : "");
	if (v->silent_kind == SILENT_STALL)
		return KG_REASON_MAX_POLL;
	if (v->silent_kind == SILENT_CRASH || v->silent_kind == SILENT_HEARTBEAT)
		return KG_REASON_SESSION_TIMEOUT;
	return session && poll ? KG_REASON_TIMEOUT : session ? KG_REASON_SESSION_TIMEOUT : KG_REASON_MAX_POLL;
}

/* A heartbeat answered (KG_OBS_HEARTBEAT): the interval as it runs. */
void
tk_live_heartbeat(tmember *m, const kg_obs *o)
{
	tk_live *v = m->live;
	if (o->time_us > v->hb_last) {
		if (v->hb_last > 0)
			v->hb_gap = o->time_us - v->hb_last; /* the interval as it runs */
		v->hb_last = o->time_us;
		v->health_src = o->source;
		tk_member_alive(m, o->time_us, LIFE_HEARTBEAT);
	}
}

/* The application polled (KG_OBS_POLL): the longest gap between polls so far. */
void
tk_live_poll(tmember *m, const kg_obs *o)
{
	tk_live *v = m->live;
	int64_t time = o->time_us;
	if (time > v->poll_last) {
		if (v->poll_last > 0 && time - v->poll_last > v->poll_gap_max)
			v->poll_gap_max = time - v->poll_last;
		v->poll_last = time;
		v->health_src = o->source;
		tk_member_alive(m, time, LIFE_POLL);
	}
}

/* A client's metrics sample, or its own view of its group state: what it knows (-1: not this time). */
void
tk_live_metrics(tmember *m, const kg_obs *o)
{
	tk_live *v = m->live;
	v->m_time = o->time_us;
	v->health_src = o->source;
	if (o->hb_age_us >= 0) {
		v->m_hb_age = o->hb_age_us;
		tk_member_alive(m, o->time_us - o->hb_age_us, LIFE_HEARTBEAT);
	}
	if (o->poll_gap_us >= 0)
		v->m_poll_gap = o->poll_gap_us;
	if (o->poll_gap_max_us >= 0)
		v->m_poll_gap_max = o->poll_gap_max_us;
	if (o->rebalance_latency_avg_us >= 0)
		v->m_rb_avg = o->rebalance_latency_avg_us;
	if (o->rebalance_latency_max_us >= 0)
		v->m_rb_max = o->rebalance_latency_max_us;
	if (o->failed_rebalances >= 0)
		v->m_failed = o->failed_rebalances;
	if (o->hb_rate >= 0)
		v->m_hb_rate = o->hb_rate;
}

/*
 * The member status input: m stopped consuming at since, for why (SILENT_*);
 * true when that is news (it was consuming, or silent only from later).
 * What it means for an open rebalance is the caller's: only a trace's word
 * (KG_OBS_SILENT) can come during one; heartbeats and frozen commits are
 * judged outside rebalances.
 */
bool
tk_member_silent(kg_tracker *t, tgroup *g, tmember *m, int64_t since, int kind, const char *why, kg_evidence evid)
{
	tk_live *v = m->live;
	kg_event *ev;
	const kg_tp *h;
	int nh;
	if (tk_member_silent_already(m, since))
		return false;
	v->silent_since = since;
	v->silent_exact = evid == KG_EVID_EXACT;
	v->silent_kind = kind;
	tk_set_str(&v->silent_why, why);
	h = tk_held(m, &nh);
	ev = tk_member_event(KG_EV_MEMBER_SILENT, since, g, m);
	ev->parts = tp_dup(h, nh);
	ev->nparts = ev->parts ? nh : 0;
	ev->evidence = evid;
	event_text(ev, why);
	tk_emit(t, g, ev);
	return true;
}

/* tk_member_silent() would say nothing new: m is gone, or silent from since or before. */
bool
tk_member_silent_already(const tmember *m, int64_t since)
{
	const tk_live *v = m->live;
	return !m->present || (v->silent_since > 0 && v->silent_since <= since);
}

/* m showed life at time: a silence that kind of life ends is over. */
void
tk_member_alive(tmember *m, int64_t time, int life)
{
	tk_live *v = m->live;
	bool ends;
	if (life == LIFE_POLL || life == LIFE_CALLBACK)
		tk_live_life(m, time); /* it polled: it consumed then (heartbeats go on in a stalled member's own thread) */
	if (v->silent_since == 0 || time <= v->silent_since)
		return;
	switch (v->silent_kind) {
	case SILENT_CRASH: ends = life != LIFE_PROGRESS; break;
	case SILENT_STALL: ends = life != LIFE_HEARTBEAT && life != LIFE_PROGRESS; break; /* heartbeats go on in their own thread */
	case SILENT_HEARTBEAT: ends = life != LIFE_POLL && life != LIFE_PROGRESS; break; /* polls do not send heartbeats */
	case SILENT_EXTERNAL: ends = life == LIFE_PROGRESS; break;   /* frozen commits end when one moves */
	default: ends = false; break;
	}
	if (ends) {
		v->silent_since = 0;
		v->silent_kind = SILENT_NONE;
	}
}

/*
 * Members whose heartbeats stop coming: traced heartbeats (the interval
 * as observed between the last two), or a metrics sample's heartbeat age
 * and rate.  Silent from the last heartbeat once 2.5 intervals (and at
 * least HB_SILENT_MIN) passed without one.
 */
void
tk_heartbeat_silence(kg_tracker *t, tgroup *g, int64_t T)
{
	size_t i;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		tk_live *v = m->live;
		int64_t last = 0, interval = 0;
		char why[96], d[32];
		/* in a rebalance members talk JoinGroup and SyncGroup, not heartbeats: no rule then */
		if (!m->present || v->silent_since > 0 || m->away_since > 0 || g->ep != NULL || m->join_sent_at > v->hb_last)
			continue;
		if (v->hb_last > 0 && v->hb_gap > 0) {
			last = v->hb_last;
			interval = v->hb_gap;
		} else if (v->m_time > 0 && v->m_hb_age >= 0 && v->m_hb_rate > 0) {
			last = v->m_time - v->m_hb_age;
			interval = (int64_t)(1e6 / v->m_hb_rate);
		}
		if (last <= 0 || last <= v->silent_hb || T - last <= KG_MAX(interval * 5 / 2, HB_SILENT_MIN))
			continue;
		v->silent_hb = last; /* said once for that heartbeat */
		util_fmt_duration(d, sizeof d, interval);
		snprintf(why, sizeof why, "no heartbeat since (one every %s before)", d);
		tk_member_silent(t, g, m, last, SILENT_HEARTBEAT, why, v->hb_last > 0 ? KG_EVID_EXACT : KG_EVID_POLLED);
	}
}

/* A limit: the member's from a trace, else its group's from a trace, else the configured one. */
static void
pick_limit(int64_t member_us, int64_t group_us, int64_t cfg_us, kg_limit_src cfg_src, int64_t *us, kg_limit_src *src)
{
	if (member_us > 0) {
		*us = member_us;
		*src = KG_LIMIT_TRACE;
	} else if (group_us > 0) {
		*us = group_us;
		*src = KG_LIMIT_TRACE;
	} else {
		*us = cfg_us;
		*src = cfg_src;
	}
}

/* Health of a member against its limits. */
static void
member_health(const kg_tracker *t, const tgroup *g, const tk_live *v, int64_t T, kg_member_health *h)
{
	pick_limit(v->session_us, g->session_us, t->cfg.session_timeout_us, t->cfg.session_src, &h->session_timeout_us,
		   &h->session_src);
	pick_limit(v->max_poll_us, g->max_poll_us, t->cfg.max_poll_us, t->cfg.max_poll_src, &h->max_poll_us,
		   &h->max_poll_src);
	if (v->hb_last > 0)
		h->hb_age_us = T > v->hb_last ? T - v->hb_last : 0;
	else if (v->m_time > 0 && v->m_hb_age >= 0)
		h->hb_age_us = v->m_hb_age + (T > v->m_time ? T - v->m_time : 0);
	if (v->poll_last > 0)
		h->poll_gap_us = T > v->poll_last ? T - v->poll_last : 0;
	else if (v->m_time > 0 && v->m_poll_gap >= 0)
		h->poll_gap_us = v->m_poll_gap + (T > v->m_time ? T - v->m_time : 0);
	h->poll_gap_max_us = KG_MAX(v->poll_gap_max > 0 ? v->poll_gap_max : -1, v->m_poll_gap_max);
	h->hb_interval_us = v->hb_gap > 0 ? v->hb_gap : v->m_hb_rate > 0 ? (int64_t)(1e6 / v->m_hb_rate) : -1;
	if (h->poll_gap_us > h->poll_gap_max_us && v->poll_last > 0)
		h->poll_gap_max_us = h->poll_gap_us;
	h->hb_rate = v->m_hb_rate;
	h->rebalance_latency_avg_us = v->m_rb_avg;
	h->rebalance_latency_max_us = v->m_rb_max;
	h->failed_rebalances = v->m_failed;
	h->health_source = v->health_src;
}

/* The snapshot's entry of m learns its health against its limits and its silence. */
void
tk_live_annotate(const kg_tracker *t, kg_snapshot *s, const tgroup *g, const tmember *m, int64_t T, kg_member *sm)
{
	const tk_live *v = m->live;
	member_health(t, g, v, T, &sm->health);
	sm->health.health_source = v->health_src;
	sm->silent_since_us = v->silent_since;
	sm->silent_why = v->silent_since > 0 && v->silent_why != NULL ? snapshot_strdup(s, v->silent_why) : NULL;
}

/* The group's limits: what a member that says nothing of its own is judged by (h's limits only). */
void
tk_live_group_limits(const kg_tracker *t, const tgroup *g, int64_t T, kg_member_health *h)
{
	tk_live none;
	memset(&none, 0, sizeof none);
	memset(h, 0, sizeof *h);
	member_health(t, g, &none, T, h);
}

/*
 * tracker.c: derive events, episodes, lanes, status, health and storms.
 *
 * Per group the tracker keeps a tgroup with one tmember per member id it
 * has seen.  Each apply folds the observations first (they are at or
 * before the snapshot's time: the collector drains them before it asks the
 * sources for their state), then the polled picture of every group.
 *
 * Two kinds of members:
 *  - exact members have revoke/assign callbacks reported (the demo, jsonl
 *    traces); their assignment, revokes and rounds come from those;
 *  - polled members are only described by the broker; their revokes are
 *    derived: eager members revoke everything they held at the start of
 *    every round (the protocol says so, evidence PROTOCOL); cooperative
 *    (and unknown) members revoke what they held at the last Stable
 *    description minus what they hold now (evidence POLLED).
 *
 * An episode opens at the first evidence and closes when the group is
 * Stable with every consumed partition owned and every exact member
 * synced; exact episodes also wait for a short quiet spell, because a
 * cooperative member revokes right after its round-one sync and rejoins.
 * Its end is the last sync's own time when known.  Rounds advance when a
 * join signal (a non-Stable state, a JoinGroup, a coordinator's
 * "preparing") follows a sync.
 */
#include "config.h"

#include "model/tracker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "model/intern.h"

#define DEFAULT_ORPHAN_GRACE (30LL * 1000000)
#define ORPHAN_REPORT_DELAY (5LL * 1000000) /* outside a rebalance, orphans this old are reported */
#define EXACT_SETTLE (1000LL * 1000)   /* quiet spell before an exact episode closes */
#define LOG_SETTLE (3000LL * 1000)     /* quiet spell before a log-only episode closes */
#define EXACT_QUIET (10LL * 1000000)   /* after this long without callbacks, unsynced members no longer count */
#define TRIGGER_WINDOW (10LL * 1000000) /* a membership change this recent explains a rebalance */
#define JOINERS_NAMED 3 /* a trigger names this many joiners, then "and N more" */
#define UNKNOWN_TRIGGER "cause unknown: " /* an episode's trigger text until the cause is learnt, + first sign */
#define STORM_MIN_OBSERVED (60LL * 1000000)
#define LANE_LETTERS 62 /* A-Z a-z 0-9 */
#define MAX_ROUND_T 32

enum { PHASE_JOINING, PHASE_SYNCED };

typedef struct tmember {
	char *member_id;
	char *client_id;
	char *host;
	char *instance_id;
	int lane;
	bool present;
	bool exact;          /* callbacks reported for it */
	bool announced;      /* a joined event was emitted (or it was there at start) */
	bool left_reported;  /* a left event was emitted */
	int64_t join_time;   /* when its joined event was emitted, 0 never */
	int64_t revived_at;  /* seen back under its old id (the mock reuses ids), 0 never */
	int sent_round;      /* the episode's round of its last JoinGroup sent (JOIN_SENT), 0 none */
	int synced_round;    /* polled: the round whose assignment it got */
	int64_t gone_time;   /* when it left, 0 never */
	kg_tp *gone_asg;     /* what it held when it left */
	int ngone_asg;
	kg_tp *asg;          /* current assignment as best known */
	int nasg;
	kg_tp *stable;       /* assignment at the last Stable description (polled) */
	int nstable;
	int64_t first_seen;
	int64_t last_seen;
	/* the open episode */
	bool synced;         /* got its assignment in the current round */
	int revoked_round;   /* last round it revoked in (protocol revokes) */
	int join_round;      /* exact: round of its last JoinGroup in the open episode, 0 unknown */
	bool join_seen;      /* that JoinGroup was observed (not assumed at the episode's start) */
	bool join_answered;  /* and its assignment came */
	bool static_back;    /* a static instance back under a new member id: its next assignment is its old one */
	bool partial;        /* revoked part of its assignment in this episode */
	int64_t stop_since;  /* owns nothing since, 0 when it owns something */
	int64_t partial_since;
	/* leaving */
	kg_reason leave_reason;
	char *leave_text;
	int64_t away_since;  /* static member closed without LeaveGroup */
	/* liveness */
	int64_t hb_last;
	int64_t poll_last;
	int64_t poll_gap_max;
	int64_t m_time;      /* time of the last metrics sample */
	int64_t m_hb_age, m_poll_gap, m_poll_gap_max;
	int64_t m_rb_avg, m_rb_max, m_failed;
	double m_hb_rate;
	const char *health_src;
	int64_t session_us;  /* from traces, 0 unknown */
	int64_t max_poll_us;
} tmember;

typedef struct tgroup {
	int32_t id;
	bool seen;           /* in some snapshot */
	bool present;        /* in the last snapshot */
	bool single_topic;
	kg_group_state state;
	kg_proto proto;
	tmember **m;
	size_t nm, cm;
	/* the open episode (stored in history), NULL when none */
	kg_episode *ep;
	int phase;
	int64_t last_sync;      /* last sync evidence time in the open episode */
	int64_t round_t[MAX_ROUND_T]; /* start of each round of the open episode (round r at [r - 1]) */
	int64_t exact_sync;     /* last sync time reported by a log or a client */
	int64_t round_start;    /* when the current round began */
	bool await_log_sync;    /* a coordinator log said a round began; its end not seen yet */
	bool ep_changed;        /* polling saw a round happen in this episode */
	int64_t last_rebal_obs; /* last rebalance observation time */
	bool ep_polled;         /* the episode saw polled evidence */
	bool ep_logonly;        /* opened by a coordinator log, group never polled */
	bool ep_callbacks;      /* consumers' callbacks reported on the open episode */
	int64_t emptied_at;     /* when a description last said Empty with no member */
	int64_t orphan_since;
	kg_tp *orphans_reported;
	int norphans_reported;
	int32_t generation;
	int64_t last_ep;        /* id of the last closed episode */
	int64_t last_ep_end;    /* and its end */
	/* the last membership change, to explain the next rebalance */
	int64_t trig_time;
	kg_reason trig_reason;
	char *trig_text;
	int trig_joiners;       /* members named in a "joined: ..." trigger, to add the next ones */
	int trig_more;          /* and those beyond JOINERS_NAMED, counted */
	/* storms */
	bool storm;
	char *assignor;         /* the last assignor a description named */
	int episodes_seen;      /* episodes opened since kgtop started (their numbers) */
	bool no_news;           /* this snapshot's description failed: nothing to derive */
	/* lag */
	int64_t lag;
	/* moved marks of the last closed episode */
	kg_tp *moved;
	int *moved_from;
	int nmoved;
	/* owners at the start of the open episode, to count moves */
	kg_tp *ep_parts;
	int *ep_owner;
	int nep_parts;
	/* limits from traces */
	int64_t session_us;
	int64_t max_poll_us;
	int64_t first_seen;
} tgroup;

struct kg_tracker {
	kg_tracker_config cfg;
	kg_history *h;
	tgroup **g; /* indexed by group id */
	size_t cg;
	uint64_t seq;
	int64_t next_episode;
	uint64_t applied;
	bool seen_groups;      /* an earlier snapshot had groups: new ones appear */
	bool seen_groups_now;
	int64_t now;
	kg_source_health *src; /* sources of the previous snapshot */
	int nsrc;
	kg_evlist *out;        /* where emit() appends during an apply */
	int32_t *logonly;      /* groups with an open episode known from logs only */
	size_t nlogonly, clogonly;
};

/* ------------------------------------------------------------- helpers */

/* Fill defaults. */
void
tracker_config_defaults(kg_tracker_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->window_us = KG_DEFAULT_HISTORY_US;
	cfg->storm_window_us = KG_DEFAULT_STORM_WINDOW_US;
	cfg->storm_episodes = KG_DEFAULT_STORM_REBALANCES_N;
	cfg->storm_ratio = 0.5;
	cfg->session_timeout_us = KG_DEFAULT_SESSION_TIMEOUT_US;
	cfg->max_poll_us = KG_DEFAULT_MAX_POLL_US;
	cfg->orphan_grace_us = DEFAULT_ORPHAN_GRACE;
}

/* Create a tracker. */
kg_tracker *
tracker_new(const kg_tracker_config *cfg)
{
	kg_tracker *t = xcalloc(1, sizeof *t);
	tracker_config_defaults(&t->cfg);
	if (cfg != NULL) {
		if (cfg->window_us > 0)
			t->cfg.window_us = cfg->window_us;
		if (cfg->storm_window_us > 0)
			t->cfg.storm_window_us = cfg->storm_window_us;
		if (cfg->storm_episodes > 0)
			t->cfg.storm_episodes = cfg->storm_episodes;
		if (cfg->storm_ratio > 0)
			t->cfg.storm_ratio = cfg->storm_ratio;
		if (cfg->session_timeout_us > 0) {
			t->cfg.session_timeout_us = cfg->session_timeout_us;
			t->cfg.session_src = cfg->session_src;
		}
		if (cfg->max_poll_us > 0) {
			t->cfg.max_poll_us = cfg->max_poll_us;
			t->cfg.max_poll_src = cfg->max_poll_src;
		}
		if (cfg->orphan_grace_us > 0)
			t->cfg.orphan_grace_us = cfg->orphan_grace_us;
	}
	t->h = history_new(t->cfg.window_us);
	return t;
}

/* Free a member. */
static void
tmember_free(tmember *m)
{
	free(m->member_id);
	free(m->client_id);
	free(m->host);
	free(m->instance_id);
	free(m->asg);
	free(m->stable);
	free(m->leave_text);
	free(m->gone_asg);
	free(m);
}

/* Free a group. */
static void
tgroup_free(tgroup *g)
{
	size_t i;
	for (i = 0; i < g->nm; i++)
		tmember_free(g->m[i]);
	free(g->m);
	free(g->orphans_reported);
	free(g->assignor);
	free(g->trig_text);
	free(g->moved);
	free(g->moved_from);
	free(g->ep_parts);
	free(g->ep_owner);
	free(g);
}

/* Free the tracker. */
void
tracker_free(kg_tracker *t)
{
	size_t i;
	if (t == NULL)
		return;
	for (i = 0; i < t->cg; i++) {
		if (t->g[i] != NULL)
			tgroup_free(t->g[i]);
	}
	free(t->g);
	for (i = 0; i < (size_t)t->nsrc; i++) {
		free((char *)t->src[i].name);
		free((char *)t->src[i].message);
	}
	free(t->src);
	free(t->logonly);
	history_free(t->h);
	free(t);
}

/* The history. */
kg_history *
tracker_history(kg_tracker *t)
{
	return t->h;
}

/* The group record, created on demand. */
static tgroup *
tgroup_get(kg_tracker *t, int32_t id)
{
	tgroup *g;
	if (id < 0)
		return NULL;
	if ((size_t)id >= t->cg) {
		size_t old = t->cg, n = old ? old : 64;
		while (n <= (size_t)id)
			n *= 2;
		t->g = xreallocarray(t->g, n, sizeof *t->g);
		memset(t->g + old, 0, (n - old) * sizeof *t->g);
		t->cg = n;
	}
	g = t->g[id];
	if (g == NULL) {
		g = xcalloc(1, sizeof *g);
		g->id = id;
		g->generation = -1;
		g->lag = -1;
		g->single_topic = true;
		t->g[id] = g;
	}
	return g;
}

/* Replace an owned set. */
static void
set_tp(kg_tp **dst, int *n, const kg_tp *v, int nv)
{
	free(*dst);
	*dst = tp_dup(v, nv);
	*n = *dst ? nv : 0;
}

/* Replace an owned string unless s is NULL or empty. */
static void
set_str(char **dst, const char *s)
{
	if (s == NULL || *s == '\0')
		return;
	if (*dst != NULL && strcmp(*dst, s) == 0)
		return;
	free(*dst);
	*dst = xstrdup(s);
}

/* The client id inside a Java-style member id "<client-id>-<uuid>" (copied into buf). */
static const char *
client_of(const char *member_id, char *buf, size_t n)
{
	size_t len = strlen(member_id), i;
	util_strlcpy(buf, member_id, n);
	if (len > 37 && len - 37 < n && member_id[len - 37] == '-') {
		const char *u = member_id + len - 36;
		bool uuid = true;
		for (i = 0; i < 36 && uuid; i++) {
			bool dash = i == 8 || i == 13 || i == 18 || i == 23;
			uuid = dash ? u[i] == '-' : ((u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f'));
		}
		if (uuid)
			buf[len - 37] = '\0';
	}
	return buf;
}

/* The word after "member " (or "Leader ") in a coordinator's reason, into buf; NULL when none. */
static const char *
reason_member(const char *text, char *buf, size_t n)
{
	const char *p = strstr(text, "member ");
	size_t k = 0;
	if (p != NULL)
		p += strlen("member ");
	else if ((p = strstr(text, "request for (")) != NULL) /* 4.x: "explicit `LeaveGroup` request for (M) members." */
		p += strlen("request for (");
	else if (strncmp(text, "Leader ", 7) == 0)
		p = text + 7;
	if (p == NULL)
		return NULL;
	while (p[k] != '\0' && p[k] != ' ' && p[k] != ';' && p[k] != ',' && p[k] != ')' && k + 1 < n) {
		buf[k] = p[k];
		k++;
	}
	buf[k] = '\0';
	return k > 0 ? buf : NULL;
}

/* A short trigger for a coordinator's "preparing to rebalance" reason. */
static char *
short_trigger(kg_reason r, const char *text)
{
	char m[256], c[256];
	const char *who = text ? reason_member(text, m, sizeof m) : NULL;
	if (who != NULL)
		who = client_of(who, c, sizeof c);
	switch (r) {
	case KG_REASON_JOINED:
		if (who != NULL)
			return xasprintf("joined: %s", who);
		break;
	case KG_REASON_SESSION_TIMEOUT:
	case KG_REASON_MAX_POLL:
	case KG_REASON_GRACEFUL:
	case KG_REASON_FENCED:
		if (who != NULL)
			return xasprintf("left: %s (%s)", who, reason_name(r));
		break;
	case KG_REASON_LEADER_REJOIN:
		if (who != NULL)
			return xasprintf("leader %s rejoined", who);
		break;
	case KG_REASON_REPLACED: {
		const char *inst = text ? strstr(text, "instance id ") : NULL;
		if (inst != NULL) {
			size_t k = 0;
			inst += strlen("instance id ");
			while (inst[k] && inst[k] != ' ' && inst[k] != ';' && inst[k] != ')' && k + 1 < sizeof m) {
				m[k] = inst[k];
				k++;
			}
			m[k] = '\0';
			return xasprintf("static member %s updated", m);
		}
		break;
	}
	default:
		break;
	}
	if (text == NULL)
		return xstrdup(reason_name(r));
	return strlen(text) > 72 ? xasprintf("%.69s...", text) : xstrdup(text);
}

/* Record and publish an event: sequence, history, the caller's list. */
static void
emit(kg_tracker *t, tgroup *g, kg_event *e)
{
	e->seq = ++t->seq;
	if (g != NULL)
		e->single_topic = g->single_topic;
	history_add_event(t->h, e);
	if (t->out != NULL)
		evlist_push(t->out, e);
	else
		event_unref(e);
}

/* A member event with identity filled. */
static kg_event *
member_event(kg_event_kind kind, int64_t time, tgroup *g, const tmember *m)
{
	kg_event *e = event_new(kind, time, g->id);
	event_member(e, m->member_id, m->client_id, m->instance_id, m->lane);
	return e;
}

/* Find a member by member id. */
static tmember *
find_member(tgroup *g, const char *member_id)
{
	size_t i;
	if (member_id == NULL)
		return NULL;
	for (i = g->nm; i > 0; i--) {
		if (strcmp(g->m[i - 1]->member_id, member_id) == 0)
			return g->m[i - 1];
	}
	return NULL;
}

/*
 * Find a member by id for a client: the newest member with that id whose
 * client is that one (or unknown).  librdkafka's mock cluster makes member
 * ids from pointers and reuses them, so an id that now comes from another
 * client is a new member, not a departed one back.
 */
static tmember *
find_member_of(tgroup *g, const char *member_id, const char *client_id)
{
	size_t i;
	if (member_id == NULL || client_id == NULL || *client_id == '\0')
		return find_member(g, member_id);
	for (i = g->nm; i > 0; i--) {
		tmember *m = g->m[i - 1];
		if (strcmp(m->member_id, member_id) == 0 &&
		    (m->client_id == NULL || *m->client_id == '\0' || strcmp(m->client_id, client_id) == 0))
			return m;
	}
	return NULL;
}

/* Find a present member by client id (metrics are keyed by it). */
static tmember *
find_by_client(tgroup *g, const char *client_id)
{
	size_t i;
	tmember *best = NULL;
	if (client_id == NULL)
		return NULL;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		if (m->client_id != NULL && strcmp(m->client_id, client_id) == 0) {
			if (m->present)
				return m;
			if (best == NULL || m->last_seen > best->last_seen)
				best = m;
		}
	}
	return best;
}

/* Number of present members. */
static int
present_count(const tgroup *g)
{
	size_t i;
	int n = 0;
	for (i = 0; i < g->nm; i++)
		n += g->m[i]->present;
	return n;
}

/* The assignment a member is known to hold for episode bookkeeping. */
static const kg_tp *
held(const tmember *m, int *n)
{
	if (m->exact) {
		*n = m->nasg;
		return m->asg;
	}
	*n = m->nstable;
	return m->stable;
}

/* True when lane l is the same consumer as m: its instance id, else its client id and host. */
static bool
lane_is(const kg_lane *l, const tmember *m)
{
	if (m->instance_id != NULL || l->instance_id != NULL)
		return m->instance_id != NULL && l->instance_id != NULL && strcmp(m->instance_id, l->instance_id) == 0;
	return strcmp(l->client_id, m->client_id ? m->client_id : "") == 0 && strcmp(l->host, m->host ? m->host : "") == 0;
}

/* True when a present member other than m is on lane. */
static bool
lane_taken(const tgroup *g, int lane, const tmember *m)
{
	size_t k;
	for (k = 0; k < g->nm; k++) {
		if (g->m[k] != m && g->m[k]->present && g->m[k]->lane == lane)
			return true;
	}
	return false;
}

/* Lane l is m's (again) from now. */
static void
lane_claim(kg_lane *l, const tmember *m, int64_t now)
{
	l->present = true;
	free(l->member_id);
	l->member_id = xstrdup(m->member_id);
	l->last_seen_us = now;
}

/* A lane's last leave and why. */
static void
lane_set_leave(kg_lane *l, kg_reason reason, const char *text)
{
	l->last_leave = reason;
	free(l->leave_text);
	l->leave_text = text != NULL ? xstrdup(text) : NULL;
}

/* Pick the lane for a new member: a free lane of the same identity, else a new one. */
static int
assign_lane(kg_tracker *t, tgroup *g, tmember *m, int64_t now)
{
	int i, n = history_nlanes(t->h, g->id), oldest = -1;
	for (i = 0; i < n; i++) {
		kg_lane *l = history_lane(t->h, g->id, i);
		if (l->present)
			continue;
		if (oldest < 0 || l->last_seen_us < history_lane(t->h, g->id, oldest)->last_seen_us)
			oldest = i;
		if (!lane_is(l, m) || lane_taken(g, i, m))
			continue;
		lane_claim(l, m, now);
		return i;
	}
	/*
	 * Lanes are rows of the timeline: once the letters run out, a lane
	 * whose member left longer ago than the history keeps is free again
	 * (a pod that restarts with a new address every minute would grow
	 * rows for ever otherwise).
	 */
	if (n >= LANE_LETTERS && oldest >= 0 &&
	    history_lane(t->h, g->id, oldest)->last_seen_us < now - t->cfg.window_us) {
		history_lane_reuse(t->h, g->id, oldest, m->client_id, m->member_id, m->instance_id, m->host, now);
		return oldest;
	}
	return history_lane_add(t->h, g->id, m->client_id, m->member_id, m->instance_id, m->host, now);
}

/* Create a member record. */
static tmember *
add_member(kg_tracker *t, tgroup *g, const char *member_id, const char *client_id, const char *host,
	   const char *instance_id, int64_t now)
{
	tmember *m = xcalloc(1, sizeof *m);
	m->member_id = xstrdup(member_id ? member_id : "");
	m->client_id = xstrdup(client_id ? client_id : "");
	m->host = xstrdup(host ? host : "");
	m->instance_id = instance_id && *instance_id ? xstrdup(instance_id) : NULL;
	m->first_seen = m->last_seen = now;
	m->present = true;
	m->m_hb_age = m->m_poll_gap = m->m_poll_gap_max = -1; /* no metrics yet: unknown, not 0 */
	m->m_rb_avg = m->m_rb_max = m->m_failed = -1;
	m->m_hb_rate = -1;
	m->lane = assign_lane(t, g, m, now);
	util_grow(&g->m, &g->cm, g->nm + 1, sizeof *g->m);
	g->m[g->nm++] = m;
	return m;
}

/* Mark a member gone from its lane. */
static void
member_gone(kg_tracker *t, tgroup *g, tmember *m, int64_t now)
{
	/* a new incarnation on the lane (the mock reuses member ids) keeps it present */
	kg_lane *l = lane_taken(g, m->lane, m) ? NULL : history_lane(t->h, g->id, m->lane);
	const kg_tp *h;
	int nh;
	h = held(m, &nh);
	set_tp(&m->gone_asg, &m->ngone_asg, h, nh);
	m->gone_time = now;
	m->present = false;
	m->away_since = 0;
	if (l != NULL && l->member_id != NULL && strcmp(l->member_id, m->member_id) == 0) {
		l->present = false;
		l->last_seen_us = now;
		lane_set_leave(l, m->leave_reason != KG_REASON_NONE ? m->leave_reason : KG_REASON_UNKNOWN, m->leave_text);
	}
}

/* True while an episode's trigger text only says what was seen first (the cause is not known yet). */
static bool
cause_unknown(const char *trigger_text)
{
	return trigger_text != NULL && strncmp(trigger_text, UNKNOWN_TRIGGER, strlen(UNKNOWN_TRIGGER)) == 0;
}

/*
 * Remember a membership change as the likely trigger of the next rebalance;
 * an open episode that began without a known trigger close to it adopts it
 * (an exact member's JOINED is known only once it has its member id, and a
 * leaver's LeaveGroup follows its revoke).
 */
static void
set_trigger_ext(tgroup *g, int64_t time, kg_reason reason, const char *text, const char *extends)
{
	bool adopt;
	g->trig_time = time;
	g->trig_reason = reason;
	free(g->trig_text);
	g->trig_text = xstrdup(text);
	g->trig_joiners = 0;
	g->trig_more = 0;
	if (g->ep == NULL || time < g->ep->start_us - TRIGGER_WINDOW || time > g->ep->start_us + TRIGGER_WINDOW)
		return;
	/* a cause not yet known is replaced; a list of joiners the episode took grows */
	adopt = cause_unknown(g->ep->trigger_text) ||
		(extends != NULL && g->ep->trigger_text != NULL && strcmp(g->ep->trigger_text, extends) == 0);
	if (adopt) {
		g->ep->trigger = reason;
		free(g->ep->trigger_text);
		g->ep->trigger_text = xstrdup(text);
	}
}

static void
set_trigger(tgroup *g, int64_t time, kg_reason reason, const char *text)
{
	set_trigger_ext(g, time, reason, text, NULL);
}

/*
 * A member joined: the trigger names it, or, when other members joined
 * moments before (a group's first members, a fleet scaled up), adds it to
 * their list: "joined: a, b, c and 2 more".
 */
static void
trigger_joined(tgroup *g, int64_t time, const char *who)
{
	sbuf s = { 0 };
	int joiners = 1, more = 0;
	char *prev = NULL;
	if (g->trig_text != NULL && g->trig_reason == KG_REASON_JOINED && g->trig_joiners > 0 &&
	    time >= g->trig_time - TRIGGER_WINDOW && time - g->trig_time <= TRIGGER_WINDOW) {
		prev = xstrdup(g->trig_text);
		joiners = g->trig_joiners;
		more = g->trig_more;
		if (joiners < JOINERS_NAMED) {
			sbuf_addf(&s, "%s, %s", g->trig_text, who);
			joiners++;
		} else {
			char *tail = strstr(g->trig_text, " and ");
			more++;
			sbuf_addf(&s, "%.*s and %d more", tail != NULL ? (int)(tail - g->trig_text) : (int)strlen(g->trig_text),
				  g->trig_text, more);
		}
	} else {
		sbuf_addf(&s, "joined: %s", who);
	}
	set_trigger_ext(g, time, KG_REASON_JOINED, sbuf_str(&s), prev);
	g->trig_joiners = joiners;
	g->trig_more = more;
	free(prev);
	sbuf_free(&s);
}

/* The episode record of a member, created on demand. */
static kg_episode_member *
ep_member(kg_episode *e, const tmember *m)
{
	int i;
	kg_episode_member *em;
	for (i = 0; i < e->nmembers; i++) {
		if (e->members[i].lane == m->lane)
			return &e->members[i];
	}
	e->members = xreallocarray(e->members, (size_t)e->nmembers + 1, sizeof *e->members);
	em = &e->members[e->nmembers++];
	memset(em, 0, sizeof *em);
	em->lane = m->lane;
	em->client_id = xstrdup(m->client_id);
	return em;
}

/* Add v to an owned set. */
static void
tp_union_into(kg_tp **set, int *n, const kg_tp *v, int nv)
{
	if (nv <= 0)
		return;
	*set = xreallocarray(*set, (size_t)(*n + nv), sizeof **set);
	memcpy(*set + *n, v, (size_t)nv * sizeof *v);
	*n = tp_sort_unique(*set, *n + nv);
}

/* Remove v from an owned set. */
static void
tp_remove_from(kg_tp **set, int *n, const kg_tp *v, int nv)
{
	kg_tp *out;
	int k;
	if (*n == 0 || nv == 0)
		return;
	out = xmalloc((size_t)*n * sizeof *out);
	k = tp_diff(*set, *n, v, nv, out);
	free(*set);
	*set = out;
	*n = k;
	if (k == 0) {
		free(*set);
		*set = NULL;
	}
}

/* ------------------------------------------------------------ episodes */

/* Remember who owned parts when the open episode began (to tell moves later). */
static void
ep_owned(tgroup *g, const kg_tp *parts, int n, int lane)
{
	int k;
	for (k = 0; k < n; k++) {
		g->ep_parts = xreallocarray(g->ep_parts, (size_t)g->nep_parts + 1, sizeof *g->ep_parts);
		g->ep_owner = xreallocarray(g->ep_owner, (size_t)g->nep_parts + 1, sizeof *g->ep_owner);
		g->ep_parts[g->nep_parts] = parts[k];
		g->ep_owner[g->nep_parts] = lane;
		g->nep_parts++;
	}
}

/* Open an episode at time if none is open; returns it. */
static kg_episode *
ensure_episode(kg_tracker *t, tgroup *g, int64_t time, const char *why, kg_evidence evid)
{
	kg_episode e;
	size_t i;
	kg_event *ev;
	if (g->ep != NULL) {
		if (time < g->ep->start_us)
			g->ep->start_us = g->round_t[0] = time;
		return g->ep;
	}
	memset(&e, 0, sizeof e);
	e.id = ++t->next_episode;
	e.number = ++g->episodes_seen;
	e.group = g->id;
	e.start_us = time;
	e.rounds = 1;
	e.gen_start = g->generation;
	e.gen_end = -1;
	e.proto = g->proto;
	e.lag_start = e.lag_peak = g->lag;
	e.lag_end = -1;
	e.evidence = evid;
	/* a membership change explains it if it is recent and not older than the last episode's end */
	if (g->trig_text != NULL && time - g->trig_time <= TRIGGER_WINDOW && time >= g->trig_time - TRIGGER_WINDOW &&
	    g->trig_time >= g->last_ep_end) {
		e.trigger = g->trig_reason;
		e.trigger_text = xstrdup(g->trig_text);
	} else {
		/* what was seen first, until the cause is learnt (a join is known once it has its id) */
		e.trigger = KG_REASON_UNKNOWN;
		e.trigger_text = xasprintf("%s%s", UNKNOWN_TRIGGER, why);
	}
	e.members_before = present_count(g);
	g->ep = history_add_episode(t->h, &e);
	g->round_t[0] = time;
	episode_clear(&e);
	g->phase = PHASE_JOINING;
	g->last_sync = 0;
	g->round_start = time;
	g->await_log_sync = false;
	g->ep_changed = false;
	g->ep_polled = false;
	g->ep_logonly = !g->seen;
	g->ep_callbacks = false;
	g->last_rebal_obs = time;
	if (g->ep_logonly) {
		util_grow(&t->logonly, &t->clogonly, t->nlogonly + 1, sizeof *t->logonly);
		t->logonly[t->nlogonly++] = g->id;
	}

	free(g->ep_parts);
	free(g->ep_owner);
	g->ep_parts = NULL;
	g->ep_owner = NULL;
	g->nep_parts = 0;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		kg_episode_member *em;
		const kg_tp *h;
		int nh;
		if (!m->present) {
			/* a member that left just before is what this rebalance is about */
			if (m->gone_time > 0 && time >= m->gone_time && time - m->gone_time <= TRIGGER_WINDOW &&
			    m->gone_time >= g->last_ep_end && m->gone_time >= g->emptied_at) {
				em = ep_member(g->ep, m);
				em->left = true;
				set_tp(&em->before, &em->nbefore, m->gone_asg, m->ngone_asg);
				ep_owned(g, m->gone_asg, m->ngone_asg, m->lane);
			}
			continue;
		}
		h = held(m, &nh);
		em = ep_member(g->ep, m);
		set_tp(&em->before, &em->nbefore, h, nh);
		/* a member that joined just before (and after the last rebalance ended) is what this one is about */
		em->joined = m->join_time > 0 && time - m->join_time <= TRIGGER_WINDOW && time >= m->join_time &&
			     m->join_time >= g->last_ep_end;
		m->revoked_round = 0;
		m->synced_round = 0;
		m->partial = false;
		m->partial_since = 0;
		m->stop_since = nh == 0 ? time : 0;
		m->join_round = 1;
		m->join_seen = false;
		m->join_answered = false;
		m->sent_round = 0;
		ep_owned(g, h, nh, m->lane);
	}

	ev = event_new(KG_EV_REBALANCE_START, time, g->id);
	ev->episode = g->ep->id;
	ev->evidence = evid;
	ev->round = 1;
	ev->proto = g->proto;
	ev->generation = g->generation;
	ev->reason = g->ep->trigger;
	event_text(ev, g->ep->trigger_text);
	emit(t, g, ev);
	return g->ep;
}

/* Begin the next round of the open episode. */
static void
next_round(kg_tracker *t, tgroup *g, int64_t time, kg_evidence evid)
{
	kg_event *ev;
	size_t i;
	if (g->ep == NULL || g->phase != PHASE_SYNCED)
		return;
	g->ep->rounds++;
	g->phase = PHASE_JOINING;
	g->round_start = time;
	if (g->ep->rounds <= MAX_ROUND_T)
		g->round_t[g->ep->rounds - 1] = time;
	(void)i;
	ev = event_new(KG_EV_ROUND, time, g->id);
	ev->episode = g->ep->id;
	ev->evidence = evid;
	ev->round = g->ep->rounds;
	ev->generation = g->generation;
	ev->proto = g->proto;
	emit(t, g, ev);
}

/* The round of the open episode that time falls in (1 when before them all). */
static int
round_at(const tgroup *g, int64_t time)
{
	int r = g->ep->rounds < MAX_ROUND_T ? g->ep->rounds : MAX_ROUND_T;
	while (r > 1 && g->round_t[r - 1] > time)
		r--;
	return r;
}

/* Account stopped / partial time of a member up to time. */
static void
settle_member_time(tgroup *g, tmember *m, int64_t time)
{
	kg_episode_member *em;
	if (g->ep == NULL)
		return;
	em = ep_member(g->ep, m);
	if (m->stop_since > 0 && time > m->stop_since)
		em->stopped_us += time - m->stop_since;
	if (m->partial_since > 0 && time > m->partial_since)
		em->partial_us += time - m->partial_since;
	m->stop_since = 0;
	m->partial_since = 0;
}

/* Record a revoke: event, episode, member state. */
static void
do_revoke(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	  const kg_tp *before, int nbefore, kg_evidence evid, kg_proto proto, kg_reason reason, int round)
{
	kg_event *ev = member_event(KG_EV_REVOKED, time, g, m);
	kg_episode_member *em = ep_member(g->ep, m);
	kg_revoke_class cls = tp_classify_revoke(parts, nparts, before, nbefore);
	ev->parts = tp_dup(parts, nparts);
	ev->nparts = ev->parts ? nparts : 0;
	ev->before = tp_dup(before, nbefore);
	ev->nbefore = ev->before ? nbefore : 0;
	ev->cls = cls;
	ev->reason = reason; /* GRACEFUL: the member gives everything up because it is closing */
	ev->evidence = evid;
	ev->proto = proto != KG_PROTO_UNKNOWN ? proto : g->proto;
	ev->episode = g->ep->id;
	ev->round = round;
	ev->generation = g->generation;
	emit(t, g, ev);

	tp_union_into(&em->revoked, &em->nrevoked, parts, nparts);
	if (cls == KG_CLASS_FULL) {
		if (em->cls != KG_CLASS_FULL)
			g->ep->nfull++;
		if (em->cls == KG_CLASS_INCREMENTAL)
			g->ep->nincremental--;
		em->cls = KG_CLASS_FULL;
	} else if (cls == KG_CLASS_INCREMENTAL && em->cls == KG_CLASS_NONE) {
		em->cls = KG_CLASS_INCREMENTAL;
		g->ep->nincremental++;
	}
	if (cls != KG_CLASS_NONE && em->round_revoked == 0)
		em->round_revoked = round;
	if (evid == KG_EVID_EXACT)
		g->ep->evidence = KG_EVID_EXACT;
	m->revoked_round = g->ep->rounds;
	if (cls == KG_CLASS_FULL) {
		if (m->stop_since == 0)
			m->stop_since = time;
		if (m->partial_since > 0) {
			em->partial_us += time - m->partial_since;
			m->partial_since = 0;
		}
	} else if (cls == KG_CLASS_INCREMENTAL) {
		m->partial = true;
		if (m->partial_since == 0)
			m->partial_since = time;
	}
}

/* Record an assignment: event, episode, member state. */
static void
do_assign(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	  kg_evidence evid, int round)
{
	kg_episode_member *em = ep_member(g->ep, m);
	if (nparts > 0) {
		kg_event *ev = member_event(KG_EV_ASSIGNED, time, g, m);
		ev->parts = tp_dup(parts, nparts);
		ev->nparts = nparts;
		ev->evidence = evid;
		ev->proto = g->proto;
		ev->episode = g->ep->id;
		ev->round = round;
		ev->generation = g->generation;
		emit(t, g, ev);
		tp_union_into(&em->assigned, &em->nassigned, parts, nparts);
		em->round_assigned = round;
		if (m->stop_since > 0) {
			em->stopped_us += time - m->stop_since;
			m->stop_since = 0;
		}
	}
	m->synced = true;
}

/* True when lane belongs to the same consumer as m (instance id, or client id and host). */
static bool
same_identity(kg_tracker *t, tgroup *g, int lane, const tmember *m)
{
	const kg_lane *l = lane >= 0 ? history_lane(t->h, g->id, lane) : NULL;
	return l != NULL && lane_is(l, m);
}

/* Count moves and set the moved marks from the episode's start owners. */
static void
compute_moves(kg_tracker *t, tgroup *g)
{
	size_t i;
	int k, nmoved = 0, nmarks = 0;
	free(g->moved);
	free(g->moved_from);
	g->moved = NULL;
	g->moved_from = NULL;
	g->nmoved = 0;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_tp *h;
		int nh;
		if (!m->present)
			continue;
		h = held(m, &nh);
		for (k = 0; k < nh; k++) {
			int j, from = -1;
			for (j = 0; j < g->nep_parts; j++) {
				if (g->ep_parts[j].topic == h[k].topic && g->ep_parts[j].partition == h[k].partition) {
					from = g->ep_owner[j];
					break;
				}
			}
			if (from == m->lane || same_identity(t, g, from, m))
				continue; /* back with the consumer that had it (a new incarnation of it) */
			g->moved = xreallocarray(g->moved, (size_t)nmarks + 1, sizeof *g->moved);
			g->moved_from = xreallocarray(g->moved_from, (size_t)nmarks + 1, sizeof *g->moved_from);
			g->moved[nmarks] = h[k];
			g->moved_from[nmarks] = from;
			nmarks++;
			/* a partition nobody had is newly assigned, not moved */
			if (from >= 0)
				nmoved++;
		}
	}
	g->nmoved = nmarks;
	if (g->ep != NULL)
		g->ep->moved = nmoved;
	(void)t;
}

/* Close the open episode at end. */
static void
close_episode(kg_tracker *t, tgroup *g, int64_t end, const char *note)
{
	kg_episode *e = g->ep;
	kg_event *ev;
	size_t i;
	int stopped = 0, members = 0, k;
	sbuf txt = { 0 };
	if (e == NULL)
		return;
	if (end < e->start_us)
		end = e->start_us;
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		if (!m->present)
			continue;
		settle_member_time(g, m, end);
		m->partial = false;
	}
	compute_moves(t, g);
	e->end_us = end;
	e->gen_end = g->generation;
	e->members_after = present_count(g);
	e->lag_end = g->lag;
	e->proto = g->proto != KG_PROTO_UNKNOWN ? g->proto : e->proto;
	/* of the members that were consuming when it began and stayed, how many stopped */
	for (k = 0; k < e->nmembers; k++) {
		const kg_episode_member *em = &e->members[k];
		if (em->nbefore == 0 || em->left)
			continue;
		members++;
		if (em->stopped_us > 0 || em->cls == KG_CLASS_FULL)
			stopped++;
	}
	/* the trigger may have been learnt after the start event went out: say it again here */
	if (e->trigger_text != NULL && e->trigger_text[0] != '\0' && !cause_unknown(e->trigger_text))
		sbuf_addf(&txt, "%s; ", e->trigger_text);
	if (g->ep_logonly && !g->ep_callbacks && e->evidence == KG_EVID_EXACT && e->nfull + e->nincremental == 0 &&
	    e->moved == 0)
		sbuf_adds(&txt, "from the coordinator's log: members and partitions not seen");
	else if (members == 0 && e->members_after > 0)
		/* nobody was consuming before: the group formed (or formed again after it emptied) */
		sbuf_addf(&txt, "group formed with %d member%s", e->members_after, e->members_after == 1 ? "" : "s");
	else
		sbuf_addf(&txt, "%d of %d member%s stopped, %d partition%s moved", stopped, members,
			  members == 1 ? "" : "s", e->moved, e->moved == 1 ? "" : "s");
	if (note != NULL)
		sbuf_addf(&txt, "; %s", note);
	ev = event_new(KG_EV_REBALANCE_END, end, g->id);
	ev->episode = e->id;
	ev->evidence = e->evidence;
	ev->round = e->rounds;
	ev->generation = g->generation;
	ev->duration_us = end - e->start_us;
	ev->proto = e->proto;
	ev->reason = e->trigger;
	if (e->lag_start >= 0 && e->lag_end >= 0)
		ev->lag_cost = e->lag_end - e->lag_start;
	event_text(ev, sbuf_str(&txt));
	sbuf_free(&txt);
	emit(t, g, ev);
	g->last_ep = e->id;
	g->last_ep_end = end;
	g->ep = NULL;
	g->phase = PHASE_SYNCED;
	free(g->trig_text);
	g->trig_text = NULL;
}

/* --------------------------------------------------------- observations */

/* The member an observation is about, created for member-scoped kinds. */
static tmember *
obs_tmember(kg_tracker *t, tgroup *g, const kg_obs *o, bool create)
{
	tmember *m = find_member_of(g, o->member_id, o->client_id);
	if (m == NULL && o->member_id == NULL)
		m = find_by_client(g, o->client_id);
	if (m == NULL && o->member_id == NULL && o->instance_id != NULL) {
		size_t i;
		for (i = 0; i < g->nm && m == NULL; i++) {
			if (g->m[i]->instance_id && strcmp(g->m[i]->instance_id, o->instance_id) == 0)
				m = g->m[i];
		}
	}
	if (m == NULL && create && (o->member_id != NULL || o->client_id != NULL)) {
		char c[256];
		/* a coordinator log names members by id: "<client-id>-<uuid>" gives the client id */
		const char *client = o->client_id ? o->client_id : client_of(o->member_id, c, sizeof c);
		m = add_member(t, g, o->member_id ? o->member_id : o->client_id, client, o->host, o->instance_id,
			       o->time_us);
		m->announced = false;
	}
	if (m != NULL) {
		set_str(&m->client_id, o->client_id);
		set_str(&m->host, o->host);
		set_str(&m->instance_id, o->instance_id);
		if (o->session_timeout_ms > 0)
			m->session_us = o->session_timeout_ms * 1000;
		if (o->max_poll_ms > 0)
			m->max_poll_us = o->max_poll_ms * 1000;
	}
	return m;
}

/* Observations of a member's own doings (callbacks, its JoinGroup): they can bring a member in. */
static bool
member_reported(kg_obs_kind k)
{
	return k == KG_OBS_REVOKED || k == KG_OBS_ASSIGNED || k == KG_OBS_LOST || k == KG_OBS_JOIN_SENT ||
	       k == KG_OBS_JOINED;
}

/* qsort: observations by group, then client id. */
static int
obs_cmp_client(const void *a, const void *b)
{
	const kg_obs *x = *(kg_obs *const *)a, *y = *(kg_obs *const *)b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->client_id ? x->client_id : "", y->client_id ? y->client_id : "");
}

/*
 * Members that consumers report for the first time in one batch (a fleet
 * started together) get their lanes, so their letters, in client id order
 * rather than in the order their JoinGroups happened to be answered.
 */
static void
create_in_client_order(kg_tracker *t, const kg_obsq *obs)
{
	kg_obs **fresh = NULL;
	size_t i, n = 0;
	for (i = 0; i < obs->n; i++) {
		kg_obs *o = obs->v[i];
		tgroup *g;
		if (o->group < 0 || o->client_id == NULL || !member_reported(o->kind))
			continue;
		g = tgroup_get(t, o->group);
		/* only consumers never seen in the group: static members and returning ones have their own rules */
		if (g == NULL || o->instance_id != NULL || find_member_of(g, o->member_id, o->client_id) != NULL ||
		    find_by_client(g, o->client_id) != NULL)
			continue;
		fresh = xreallocarray(fresh, n + 1, sizeof *fresh);
		fresh[n++] = o;
	}
	if (n > 1) {
		qsort(fresh, n, sizeof *fresh, obs_cmp_client);
		for (i = 0; i < n; i++)
			obs_tmember(t, tgroup_get(t, fresh[i]->group), fresh[i], true);
	}
	free(fresh);
}

/* Announce a member that joined (once). */
static void
announce_join(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_evidence evid)
{
	kg_event *ev;
	if (m->announced)
		return;
	m->announced = true;
	m->join_time = time;
	ev = member_event(KG_EV_MEMBER_JOINED, time, g, m);
	ev->evidence = evid;
	emit(t, g, ev);
	trigger_joined(g, time, m->client_id && *m->client_id ? m->client_id : m->member_id);
	if (g->ep != NULL)
		ep_member(g->ep, m)->joined = true;
}

/*
 * A reason for a leave already reported without one (polling saw the member
 * gone before the coordinator's log line said why): the lane, the episode
 * it triggered and the event list learn it.
 */
static void
amend_leave(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_reason reason, const char *text)
{
	kg_lane *l;
	kg_episode *e;
	kg_event *ev;
	char *old_trigger, *new_trigger;
	const char *who = m->client_id && *m->client_id ? m->client_id : m->member_id;
	if (reason == KG_REASON_NONE || reason == KG_REASON_UNKNOWN ||
	    (m->leave_reason != KG_REASON_NONE && m->leave_reason != KG_REASON_UNKNOWN))
		return;
	m->leave_reason = reason;
	if (text != NULL)
		set_str(&m->leave_text, text);
	l = history_lane(t->h, g->id, m->lane);
	if (l != NULL && !l->present)
		lane_set_leave(l, reason, m->leave_text);
	old_trigger = xasprintf("left: %s (%s)", who, reason_name(KG_REASON_UNKNOWN));
	new_trigger = xasprintf("left: %s (%s)", who, reason_name(reason));
	e = g->ep != NULL ? g->ep : history_episode(t->h, g->id, g->last_ep);
	if (e != NULL && e->trigger_text != NULL && strcmp(e->trigger_text, old_trigger) == 0) {
		free(e->trigger_text);
		e->trigger_text = xstrdup(new_trigger);
		e->trigger = reason;
	}
	if (g->trig_text != NULL && strcmp(g->trig_text, old_trigger) == 0)
		set_trigger(g, g->trig_time, reason, new_trigger);
	free(old_trigger);
	free(new_trigger);
	ev = member_event(KG_EV_MEMBER_LEFT, time, g, m);
	ev->reason = reason;
	ev->evidence = KG_EVID_EXACT;
	event_text(ev, m->leave_text);
	emit(t, g, ev);
}

/* Announce a member that left (once), with its reason. */
static void
announce_leave(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_reason reason, const char *text,
	       kg_evidence evid)
{
	kg_event *ev;
	sbuf s = { 0 };
	const kg_tp *h;
	int nh;
	if (m->left_reported) {
		amend_leave(t, g, m, time, reason, text);
		return;
	}
	m->left_reported = true;
	if (reason != KG_REASON_NONE)
		m->leave_reason = reason;
	if (text != NULL)
		set_str(&m->leave_text, text);
	ev = member_event(KG_EV_MEMBER_LEFT, time, g, m);
	ev->reason = m->leave_reason != KG_REASON_NONE ? m->leave_reason : KG_REASON_UNKNOWN;
	ev->evidence = evid;
	event_text(ev, m->leave_text);
	h = held(m, &nh);
	ev->parts = tp_dup(h, nh);
	ev->nparts = ev->parts ? nh : 0;
	emit(t, g, ev);
	sbuf_addf(&s, "left: %s (%s)", m->client_id && *m->client_id ? m->client_id : m->member_id,
		  reason_name(ev->reason));
	set_trigger(g, time, ev->reason, sbuf_str(&s));
	sbuf_free(&s);
	if (g->ep != NULL)
		ep_member(g->ep, m)->left = true;
	settle_member_time(g, m, time);
	member_gone(t, g, m, time);
}

/*
 * Close the log-only episodes (groups known from coordinator logs alone)
 * whose last round ended a while before time, so that a log read in one
 * batch gives its episodes in order.
 */
static void
close_logonly(kg_tracker *t, int64_t time)
{
	size_t i = 0;
	while (i < t->nlogonly) {
		tgroup *g = tgroup_get(t, t->logonly[i]);
		if (g->ep == NULL || g->seen) {
			t->logonly[i] = t->logonly[--t->nlogonly];
			continue;
		}
		if (g->phase == PHASE_SYNCED && time - g->last_rebal_obs >= LOG_SETTLE) {
			close_episode(t, g, g->last_sync > 0 ? g->last_sync : g->last_rebal_obs, NULL);
			t->logonly[i] = t->logonly[--t->nlogonly];
			continue;
		}
		i++;
	}
}

/*
 * An episode told from polling got its real start or end from a
 * coordinator log line read later: the timeline is right already (the
 * episode is retimed in place); the event list says so too.
 */
static void
emit_retimed(kg_tracker *t, tgroup *g, const kg_episode *e, int64_t time)
{
	kg_event *ev = event_new(KG_EV_RETIMED, time, g->id);
	char when[64];
	ev->episode = e->id;
	ev->evidence = KG_EVID_EXACT;
	ev->duration_us = e->end_us - e->start_us;
	ev->generation = e->gen_end >= 0 ? e->gen_end : e->gen_start;
	ev->proto = e->proto;
	snprintf(when, sizeof when, "from generation %d", (int)e->gen_start);
	event_text(ev, e->gen_start >= 0 ? when : NULL);
	emit(t, g, ev);
}

/* For observations keyed by client id alone: the group of a present member with it. */
static int32_t
group_of_client(kg_tracker *t, const char *client_id)
{
	size_t i, k;
	if (client_id == NULL)
		return -1;
	for (i = 0; i < t->cg; i++) {
		tgroup *g = t->g[i];
		if (g == NULL)
			continue;
		for (k = 0; k < g->nm; k++) {
			if (g->m[k]->present && strcmp(g->m[k]->client_id, client_id) == 0)
				return g->id;
		}
	}
	return -1;
}

/* Fold one observation. */
static void
apply_obs(kg_tracker *t, kg_obs *o)
{
	tgroup *g;
	tmember *m;
	int64_t time = o->time_us;
	kg_proto proto;
	int round;
	if (o->group < 0 && (o->kind == KG_OBS_METRICS || o->kind == KG_OBS_CLIENT_STATE ||
			     o->kind == KG_OBS_HEARTBEAT || o->kind == KG_OBS_POLL))
		o->group = group_of_client(t, o->client_id);
	g = tgroup_get(t, o->group);
	if (g == NULL)
		return;
	close_logonly(t, time);
	if (o->proto != KG_PROTO_UNKNOWN && (o->kind == KG_OBS_REVOKED || o->kind == KG_OBS_ASSIGNED)) {
		/* the members say which protocol this rebalance runs (an emptied group may change it) */
		g->proto = o->proto;
		if (g->ep != NULL)
			g->ep->proto = o->proto;
	} else if (o->proto != KG_PROTO_UNKNOWN && g->proto == KG_PROTO_UNKNOWN &&
		   (o->kind == KG_OBS_JOIN_SENT || o->kind == KG_OBS_JOINED)) {
		g->proto = o->proto; /* a new group's first members say what they will run */
	}
	if (o->session_timeout_ms > 0) {
		g->session_us = o->session_timeout_ms * 1000;
	}
	if (o->max_poll_ms > 0)
		g->max_poll_us = o->max_poll_ms * 1000;
	proto = o->proto != KG_PROTO_UNKNOWN ? o->proto : g->proto;

	/*
	 * A callback older than the moment its member was seen gone (a slower
	 * stream) does not bring it back: what it says is history already told.
	 */
	if (member_reported(o->kind)) {
		tmember *x = o->member_id ? find_member_of(g, o->member_id, o->client_id) : NULL;
		if (x != NULL && !x->present && x->gone_time > 0 && time < x->gone_time)
			return;
	}

	switch (o->kind) {
	case KG_OBS_REVOKED: {
		kg_tp *before;
		int nbefore;
		m = obs_tmember(t, g, o, true);
		m->exact = true;
		if (!m->present) {
			m->present = true;
			m->left_reported = false;
		}
		/* eager: a revoke after a completed round starts the next round */
		if (g->ep != NULL && g->phase == PHASE_SYNCED && proto != KG_PROTO_COOPERATIVE && o->nparts > 0)
			next_round(t, g, time, KG_EVID_EXACT);
		ensure_episode(t, g, time, "revoke callback", KG_EVID_EXACT);
		g->last_rebal_obs = time;
		before = tp_dup(m->asg, m->nasg);
		nbefore = m->nasg;
		/*
		 * A cooperative revoke is part of the answer to the member's last
		 * JoinGroup: while that one, of an earlier round, is unanswered
		 * (another member already rejoined), the revoke is that round's.
		 */
		round = g->ep->rounds;
		if (proto == KG_PROTO_COOPERATIVE && m->join_seen && !m->join_answered && m->join_round > 0 &&
		    m->join_round < round)
			round = m->join_round;
		do_revoke(t, g, m, time, o->parts, o->nparts, before, nbefore, KG_EVID_EXACT, proto, o->reason, round);
		tp_remove_from(&m->asg, &m->nasg, o->parts, o->nparts);
		if (m->nasg == 0 && nbefore > 0 && m->stop_since == 0)
			m->stop_since = time;
		m->synced = false;
		free(before);
		break;
	}
	case KG_OBS_ASSIGNED:
		m = obs_tmember(t, g, o, true);
		m->exact = true;
		if (m->static_back) {
			/* the returning static instance's own sync: its partitions back, no rebalance */
			m->static_back = false;
			if (g->ep == NULL) {
				set_tp(&m->asg, &m->nasg, o->parts, o->nparts);
				m->synced = true;
				break;
			}
		}
		if (!m->present) {
			m->present = true;
			m->left_reported = false;
		}
		if (m->away_since > 0) {
			kg_event *ev = member_event(KG_EV_MEMBER_BACK, time, g, m);
			emit(t, g, ev);
			m->away_since = 0;
		}
		ensure_episode(t, g, time, "assign callback", KG_EVID_EXACT);
		g->last_rebal_obs = time;
		if (proto == KG_PROTO_EAGER) {
			/* eager assign hands the whole new assignment */
			free(m->asg);
			m->asg = NULL;
			m->nasg = 0;
		}
		tp_union_into(&m->asg, &m->nasg, o->parts, o->nparts);
		/*
		 * Each JoinGroup gets one assignment.  When another member has
		 * already begun the next round (a cooperative member rejoins the
		 * moment its round-one revoke is done, while its peers' callbacks
		 * for round one are still running), the assignment that answers a
		 * member's observed, still unanswered JoinGroup of an earlier round
		 * is a late sync of that round: it neither syncs nor ends the
		 * current one.
		 */
		round = g->ep->rounds;
		if (m->join_seen && !m->join_answered && m->join_round > 0 && m->join_round < round)
			round = m->join_round;
		m->join_answered = true;
		do_assign(t, g, m, time, o->parts, o->nparts, KG_EVID_EXACT, round);
		g->ep->evidence = KG_EVID_EXACT;
		if (round < g->ep->rounds) {
			m->synced = false;
			break;
		}
		g->phase = PHASE_SYNCED;
		g->last_sync = time;
		g->exact_sync = time;
		break;
	case KG_OBS_LOST: {
		kg_event *ev;
		m = obs_tmember(t, g, o, true);
		m->exact = true;
		ensure_episode(t, g, time, "assignment lost", KG_EVID_EXACT);
		g->last_rebal_obs = time;
		ev = member_event(KG_EV_LOST, time, g, m);
		if (o->nparts > 0) {
			ev->parts = tp_dup(o->parts, o->nparts);
			ev->nparts = o->nparts;
		} else {
			ev->parts = tp_dup(m->asg, m->nasg);
			ev->nparts = ev->parts ? m->nasg : 0;
		}
		ev->reason = o->reason;
		ev->evidence = KG_EVID_EXACT;
		ev->episode = g->ep->id;
		ev->round = g->ep->rounds;
		event_text(ev, o->text);
		tp_union_into(&ep_member(g->ep, m)->revoked, &ep_member(g->ep, m)->nrevoked, ev->parts, ev->nparts);
		emit(t, g, ev);
		if (o->nparts > 0)
			tp_remove_from(&m->asg, &m->nasg, o->parts, o->nparts);
		else {
			free(m->asg);
			m->asg = NULL;
			m->nasg = 0;
		}
		if (m->nasg == 0 && m->stop_since == 0)
			m->stop_since = time;
		m->synced = false;
		break;
	}
	case KG_OBS_JOIN_SENT:
		m = obs_tmember(t, g, o, true);
		m->exact = true;
		if (!m->present) {
			m->present = true;
			m->left_reported = false;
		}
		/*
		 * A join after a sync starts the next round; so does a member's
		 * second JoinGroup sent in a round: its first was answered, whatever
		 * order the other members' callbacks of that round come in.
		 */
		if (g->ep != NULL && m->sent_round >= g->ep->rounds)
			g->phase = PHASE_SYNCED;
		if (g->ep != NULL && g->phase == PHASE_SYNCED && time >= g->last_sync)
			next_round(t, g, time, KG_EVID_EXACT);
		ensure_episode(t, g, time, "member rejoined", KG_EVID_EXACT);
		g->last_rebal_obs = time;
		m->synced = false;
		m->join_round = m->sent_round = round_at(g, time);
		m->join_seen = true;
		m->join_answered = false;
		break;
	case KG_OBS_JOINED:
		if (o->member_id != NULL && o->instance_id != NULL && find_member_of(g, o->member_id, o->client_id) == NULL) {
			/*
			 * KIP-345: a static instance that restarted within
			 * session.timeout.ms comes back under a new member id and
			 * takes its predecessor's place and partitions, no rebalance.
			 */
			tmember *pred = NULL;
			size_t i;
			for (i = 0; i < g->nm && pred == NULL; i++) {
				tmember *x = g->m[i];
				if (x->present && x->away_since > 0 && x->instance_id != NULL &&
				    strcmp(x->instance_id, o->instance_id) == 0)
					pred = x;
			}
			if (pred != NULL) {
				pred->left_reported = true;
				member_gone(t, g, pred, time);
				m = add_member(t, g, o->member_id, o->client_id, o->host, o->instance_id, time);
				m->announced = true;
				m->exact = true;
				m->static_back = true;
				m->first_seen = pred->first_seen;
				set_tp(&m->asg, &m->nasg, pred->asg, pred->nasg);
				set_tp(&m->stable, &m->nstable, pred->stable, pred->nstable);
				emit(t, g, member_event(KG_EV_MEMBER_BACK, time, g, m));
				break;
			}
		}
		m = obs_tmember(t, g, o, true);
		if (!m->present) {
			m->present = true;
			m->left_reported = false;
			m->announced = false;
		}
		if (m->away_since > 0) {
			emit(t, g, member_event(KG_EV_MEMBER_BACK, time, g, m));
			m->away_since = 0;
			m->announced = true;
		}
		if (g->ep != NULL && m->join_round == 0) {
			m->join_round = round_at(g, time); /* joined during the episode: its JoinGroup's round */
			m->join_seen = true;
			m->join_answered = false;
		}
		announce_join(t, g, m, time, KG_EVID_EXACT);
		break;
	case KG_OBS_LEFT:
		/* a group known only from its log learns its members from their leaves */
		m = obs_tmember(t, g, o, !g->seen && o->member_id != NULL);
		if (m == NULL)
			break;
		if (m->present && m->revived_at > 0 && time < m->revived_at) {
			/*
			 * About an earlier incarnation under the same id (the mock reuses
			 * ids) that polling saw go: it is back now; only the reason is news.
			 */
			kg_lane *l = history_lane(t->h, g->id, m->lane);
			if (l != NULL && o->reason != KG_REASON_NONE &&
			    (l->last_leave == KG_REASON_UNKNOWN || l->last_leave == KG_REASON_NONE))
				lane_set_leave(l, o->reason, o->text);
			break;
		}
		if (m->instance_id != NULL && o->reason == KG_REASON_NONE) {
			/* a static member closed without LeaveGroup: away, not gone */
			if (m->away_since == 0) {
				m->away_since = time;
				emit(t, g, member_event(KG_EV_MEMBER_AWAY, time, g, m));
			}
			break;
		}
		announce_leave(t, g, m, time, o->reason != KG_REASON_NONE ? o->reason : KG_REASON_UNKNOWN, o->text,
			       KG_EVID_EXACT);
		break;
	case KG_OBS_STATIC_REPLACED:
		/*
		 * KIP-345: the instance restarted and rejoined under a new member
		 * id: the old id is away, not gone; the new one (a joined line, or
		 * the next description) takes its place without a rebalance.
		 */
		m = obs_tmember(t, g, o, false);
		if (m != NULL && m->present && m->away_since == 0)
			m->away_since = time;
		if (m != NULL) {
			/* why this member id went: its lane says "replaced" once the new id is seen */
			m->leave_reason = KG_REASON_REPLACED;
			set_str(&m->leave_text, "static member replaced by a new instance");
		}
		break;
	case KG_OBS_PREPARING:
		if (o->generation >= 0)
			g->generation = o->generation;
		if (g->ep == NULL) {
			/* the line arrived after polling saw the whole rebalance: retime it */
			kg_episode *last = history_episode(t->h, g->id, g->last_ep);
			if (last != NULL && last->end_us != 0 && time <= last->end_us &&
			    time >= last->start_us - TRIGGER_WINDOW) {
				if (time < last->start_us)
					last->start_us = time;
				if (last->gen_start < 0)
					last->gen_start = o->generation;
				last->evidence = KG_EVID_EXACT;
				emit_retimed(t, g, last, time);
				break;
			}
		}
		if (g->ep != NULL && g->phase == PHASE_SYNCED)
			next_round(t, g, time, KG_EVID_EXACT);
		if (g->ep == NULL && o->text != NULL && (g->trig_text == NULL || time - g->trig_time > TRIGGER_WINDOW)) {
			char *st = short_trigger(o->reason, o->text);
			set_trigger(g, time, o->reason != KG_REASON_NONE ? o->reason : KG_REASON_UNKNOWN, st);
			free(st);
		}
		ensure_episode(t, g, time, "coordinator: preparing to rebalance", KG_EVID_EXACT);
		if (g->ep->gen_start < 0)
			g->ep->gen_start = o->generation;
		g->ep->evidence = KG_EVID_EXACT;
		g->last_rebal_obs = time;
		g->await_log_sync = true;
		break;
	case KG_OBS_STABILIZED:
	case KG_OBS_SYNCED:
		if (o->generation >= 0)
			g->generation = o->generation;
		if (o->member_id != NULL && (m = find_member(g, o->member_id)) != NULL) {
			/* a client got its SyncGroup answer */
			m->synced = true;
			if (g->ep != NULL) {
				g->phase = PHASE_SYNCED;
				g->last_sync = g->exact_sync = time;
				g->last_rebal_obs = time;
			}
			break;
		}
		if (g->ep == NULL) {
			/*
			 * The polled picture closed the episode before this line
			 * arrived: give the episode the coordinator's own end.
			 */
			kg_episode *last = history_episode(t->h, g->id, g->last_ep);
			if (last != NULL && last->end_us != 0 && time >= last->start_us && time <= last->end_us) {
				last->end_us = time;
				last->gen_end = g->generation;
				last->evidence = KG_EVID_EXACT;
				emit_retimed(t, g, last, time);
			}
			break;
		}
		g->ep->gen_end = g->generation;
		g->phase = PHASE_SYNCED;
		g->last_sync = g->exact_sync = time;
		g->last_rebal_obs = time;
		g->await_log_sync = false;
		break;
	case KG_OBS_EPOCH:
		if (o->generation >= 0)
			g->generation = o->generation;
		if (g->ep != NULL && g->phase == PHASE_SYNCED)
			next_round(t, g, time, KG_EVID_EXACT);
		ensure_episode(t, g, time, o->text ? o->text : "group epoch bumped", KG_EVID_EXACT);
		g->ep->evidence = KG_EVID_EXACT;
		g->last_rebal_obs = time;
		g->phase = PHASE_SYNCED;
		g->last_sync = g->exact_sync = time;
		break;
	case KG_OBS_HEARTBEAT:
		m = obs_tmember(t, g, o, false);
		if (m != NULL && time > m->hb_last) {
			m->hb_last = time;
			m->health_src = o->source;
		}
		break;
	case KG_OBS_POLL:
		m = obs_tmember(t, g, o, false);
		if (m != NULL && time > m->poll_last) {
			if (m->poll_last > 0 && time - m->poll_last > m->poll_gap_max)
				m->poll_gap_max = time - m->poll_last;
			m->poll_last = time;
			m->health_src = o->source;
		}
		break;
	case KG_OBS_METRICS:
	case KG_OBS_CLIENT_STATE:
		m = obs_tmember(t, g, o, false);
		if (m == NULL)
			break;
		m->m_time = time;
		m->health_src = o->source;
		if (o->hb_age_us >= 0)
			m->m_hb_age = o->hb_age_us;
		if (o->poll_gap_us >= 0)
			m->m_poll_gap = o->poll_gap_us;
		if (o->poll_gap_max_us >= 0)
			m->m_poll_gap_max = o->poll_gap_max_us;
		if (o->rebalance_latency_avg_us >= 0)
			m->m_rb_avg = o->rebalance_latency_avg_us;
		if (o->rebalance_latency_max_us >= 0)
			m->m_rb_max = o->rebalance_latency_max_us;
		if (o->failed_rebalances >= 0)
			m->m_failed = o->failed_rebalances;
		if (o->hb_rate >= 0)
			m->m_hb_rate = o->hb_rate;
		break;
	default:
		break;
	}
	/* consumers reported this episode themselves: it is not known from a coordinator's log alone
	   (which says "joined" too) */
	if (g->ep != NULL && member_reported(o->kind) && o->kind != KG_OBS_JOINED)
		g->ep_callbacks = true;
}

/* -------------------------------------------------------------- polling */

/*
 * The snapshot's entry of a member, NULL when absent.  A member id the
 * snapshot gives to another client (the mock cluster reuses ids) is not
 * this member's.
 */
static const kg_member *
snap_member(const kg_group *G, const tmember *m)
{
	int i = group_member_index(G, m->member_id);
	const kg_member *mm = i >= 0 ? &G->members[i] : NULL;
	if (mm != NULL && m->client_id != NULL && *m->client_id != '\0' && *mm->client_id != '\0' &&
	    strcmp(m->client_id, mm->client_id) != 0)
		return NULL;
	return mm;
}

/* Pair a newly seen static member with one that vanished: a restart within session.timeout.ms. */
static tmember *
static_predecessor(tgroup *g, const kg_member *mm, tmember **gone, size_t ngone)
{
	size_t i;
	(void)g;
	if (mm->instance_id == NULL)
		return NULL;
	for (i = 0; i < ngone; i++) {
		if (gone[i] != NULL && gone[i]->instance_id != NULL && strcmp(gone[i]->instance_id, mm->instance_id) == 0)
			return gone[i];
	}
	return NULL;
}

/* Report orphans outside an episode when the orphaned set changes. */
static void
report_orphans(kg_tracker *t, tgroup *g, const kg_group *G, int64_t T, const char *note)
{
	kg_tp *v = NULL;
	int n = 0, i;
	kg_event *ev;
	for (i = 0; i < G->nparts; i++) {
		if (G->parts[i].orphaned) {
			v = xreallocarray(v, (size_t)n + 1, sizeof *v);
			v[n++] = G->parts[i].tp;
		}
	}
	if (tp_equal(v, n, g->orphans_reported, g->norphans_reported)) {
		free(v);
		return;
	}
	free(g->orphans_reported);
	g->orphans_reported = v;
	g->norphans_reported = n;
	if (n == 0)
		return;
	ev = event_new(KG_EV_ORPHANED, T, g->id);
	ev->parts = tp_dup(v, n);
	ev->nparts = n;
	ev->evidence = KG_EVID_POLLED;
	event_text(ev, note);
	emit(t, g, ev);
}

/* Fold the polled picture of one group. */
static void
apply_group(kg_tracker *t, kg_group *G, int64_t T)
{
	tgroup *g = tgroup_get(t, G->id);
	bool first = !g->seen;
	/* members of a group seen for the first time were there before us: not joins */
	bool baseline = first;
	bool exact_group = G->exact;
	bool assign_changed = false, ev_state, evidence, stable_now;
	tmember **joined = NULL, **gone = NULL;
	size_t nj = 0, ngone = 0, i;
	int k, nleft = 0;
	int64_t sync_time, prev_lag;

	/*
	 * A group whose description failed this time (not authorized, the
	 * coordinator loading or moving) says nothing new about its members:
	 * keep what we knew rather than see everybody leave.
	 */
	g->no_news = !first && G->error != NULL && G->nmembers == 0 && G->state == KG_STATE_UNKNOWN;
	if (g->no_news) {
		g->present = true;
		if (G->lag >= 0)
			g->lag = G->lag;
		return;
	}
	/*
	 * A group known only from its coordinator's log: its episodes come
	 * from the log's own lines (the log-only rules); the snapshot lists it
	 * with the state the log implies and nothing to derive.
	 */
	if (G->traced) {
		g->present = true;
		if (G->proto != KG_PROTO_UNKNOWN)
			g->proto = G->proto;
		return;
	}
	if (!g->present && (!first || t->seen_groups)) {
		kg_event *ev = event_new(KG_EV_GROUP_APPEARED, T, g->id);
		sbuf s = { 0 };
		sbuf_addf(&s, "%s, %d member%s", state_name(G->state), G->nmembers, G->nmembers == 1 ? "" : "s");
		event_text(ev, sbuf_str(&s));
		sbuf_free(&s);
		emit(t, g, ev);
	}
	if (first)
		g->first_seen = T;
	g->seen = true;
	t->seen_groups_now = true;
	g->present = true;
	g->single_topic = group_single_topic(G);
	if (G->proto != KG_PROTO_UNKNOWN)
		g->proto = G->proto;
	if (G->assignor != NULL && *G->assignor != '\0')
		set_str(&g->assignor, G->assignor);
	prev_lag = g->lag;
	g->lag = G->lag;
	if (!first && g->state != G->state && G->state != KG_STATE_UNKNOWN) {
		kg_event *ev = event_new(KG_EV_STATE, T, g->id);
		ev->from = g->state;
		ev->to = G->state;
		ev->evidence = KG_EVID_POLLED;
		emit(t, g, ev);
	}
	if (G->state != KG_STATE_UNKNOWN)
		g->state = G->state;
	stable_now = G->state == KG_STATE_STABLE || (exact_group && G->state == KG_STATE_UNKNOWN);
	ev_state = state_rebalancing(G->state);

	/* membership: who vanished, who is new */
	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		if (m->present && snap_member(G, m) == NULL) {
			gone = xreallocarray(gone, ngone + 1, sizeof *gone);
			gone[ngone++] = m;
		}
	}
	for (k = 0; k < G->nmembers; k++) {
		const kg_member *mm = &G->members[k];
		tmember *m = find_member_of(g, mm->member_id, mm->client_id);
		if (m == NULL) {
			tmember *pred = first ? NULL : static_predecessor(g, mm, gone, ngone);
			if (pred != NULL && !(G->state == KG_STATE_STABLE && g->ep == NULL &&
					      tp_equal(mm->assignment, mm->nassigned, pred->stable, pred->nstable)))
				pred = NULL;
			if (pred != NULL) {
				/* KIP-345: the same instance is back with its partitions, no rebalance */
				size_t q;
				for (q = 0; q < ngone; q++) {
					if (gone[q] == pred)
						gone[q] = NULL;
				}
				pred->left_reported = true;
				member_gone(t, g, pred, T);
			}
			m = add_member(t, g, mm->member_id, mm->client_id, mm->host, mm->instance_id, T);
			if (pred != NULL) {
				m->announced = true;
				set_tp(&m->stable, &m->nstable, pred->stable, pred->nstable);
				set_tp(&m->asg, &m->nasg, pred->stable, pred->nstable);
				emit(t, g, member_event(KG_EV_MEMBER_BACK, T, g, m));
			} else if (baseline) {
				m->announced = true;
			} else {
				joined = xreallocarray(joined, nj + 1, sizeof *joined);
				joined[nj++] = m;
			}
		} else if (!m->present) {
			/* back under the same id (the mock reuses ids): on its lane again, a join, holding nothing yet */
			kg_lane *l = history_lane(t->h, g->id, m->lane);
			m->present = true;
			m->left_reported = false;
			m->announced = false;
			m->revived_at = T;
			m->leave_reason = KG_REASON_NONE;
			set_tp(&m->stable, &m->nstable, NULL, 0);
			set_tp(&m->asg, &m->nasg, NULL, 0);
			if (l != NULL)
				lane_claim(l, m, T);
			joined = xreallocarray(joined, nj + 1, sizeof *joined);
			joined[nj++] = m;
		}
		set_str(&m->client_id, mm->client_id);
		set_str(&m->host, mm->host);
		set_str(&m->instance_id, mm->instance_id);
		m->last_seen = T;
		if (mm->flags & KG_MEMBER_EXACT)
			m->exact = true;
		if (!m->exact && stable_now && m->announced && !baseline &&
		    !tp_equal(mm->assignment, mm->nassigned, m->stable, m->nstable))
			assign_changed = true;
	}
	for (i = 0; i < ngone; i++) {
		tmember *m = gone[i];
		if (m == NULL)
			continue;
		nleft++;
		if (!m->left_reported)
			announce_leave(t, g, m, T, m->leave_reason != KG_REASON_NONE ? m->leave_reason : KG_REASON_UNKNOWN,
				       NULL, KG_EVID_POLLED);
		else
			member_gone(t, g, m, T);
	}
	for (i = 0; i < nj; i++)
		announce_join(t, g, joined[i], T, KG_EVID_POLLED);
	free(joined);
	free(gone);

	/* is a rebalance going on? */
	if (exact_group)
		evidence = ev_state;
	else
		evidence = ev_state || nj > 0 || nleft > 0 || assign_changed;
	if (baseline && !ev_state)
		evidence = false;
	/* everybody left: the group is empty, nothing to rebalance */
	if ((G->state == KG_STATE_EMPTY || G->state == KG_STATE_DEAD) && G->nmembers == 0) {
		evidence = false;
		/* the leaves that emptied it explain no later rebalance: the next members start afresh */
		free(g->trig_text);
		g->trig_text = NULL;
		g->emptied_at = T;
		if (g->ep != NULL)
			close_episode(t, g, T, "the group is empty");
	}
	if (g->ep == NULL && evidence) {
		ensure_episode(t, g, T,
			       ev_state ? "in progress when polled"
			       : nj	? "member joined"
			       : nleft	? "member left"
					: "assignment changed",
			       KG_EVID_POLLED);
		if (prev_lag >= 0)
			g->ep->lag_start = prev_lag; /* the lag just before it began */
	}
	if (g->ep != NULL && (ev_state || assign_changed || nj > 0 || nleft > 0))
		g->ep_changed = true;

	if (g->ep != NULL && !exact_group) {
		g->ep_polled = true;
		g->ep_logonly = false;
		if (ev_state && g->phase == PHASE_SYNCED)
			next_round(t, g, T, KG_EVID_POLLED);
		/* eager: every member revokes everything it held at the start of each round */
		if (g->proto == KG_PROTO_EAGER) {
			int64_t when = g->ep->rounds == 1 ? g->ep->start_us : T;
			for (i = 0; i < g->nm; i++) {
				tmember *m = g->m[i];
				if (!m->present || m->exact || m->revoked_round >= g->ep->rounds || m->nstable == 0 ||
				    m->synced_round >= g->ep->rounds)
					continue;
				if (!ev_state && !stable_now)
					continue;
				do_revoke(t, g, m, when, m->stable, m->nstable, m->stable, m->nstable, KG_EVID_PROTOCOL,
					  KG_PROTO_EAGER, KG_REASON_NONE, g->ep->rounds);
				if (m->stop_since == 0)
					m->stop_since = when;
			}
		}
		if (G->state == KG_STATE_STABLE && !(g->await_log_sync && !g->ep_changed)) {
			sync_time = g->exact_sync >= g->round_start && g->exact_sync > 0 && g->exact_sync <= T ? g->exact_sync : T;
			for (i = 0; i < g->nm; i++) {
				tmember *m = g->m[i];
				const kg_member *mm;
				if (!m->present || m->exact)
					continue;
				mm = snap_member(G, m);
				if (mm == NULL)
					continue;
				if (g->proto == KG_PROTO_EAGER) {
					/* the round's new assignment, once */
					if (m->synced_round < g->ep->rounds)
						do_assign(t, g, m, sync_time, mm->assignment, mm->nassigned, KG_EVID_POLLED, g->ep->rounds);
				} else {
					kg_tp *rv = xmalloc(((size_t)m->nstable + 1) * sizeof *rv);
					kg_tp *as = xmalloc(((size_t)mm->nassigned + 1) * sizeof *as);
					int nr = tp_diff(m->stable, m->nstable, mm->assignment, mm->nassigned, rv);
					int na = tp_diff(mm->assignment, mm->nassigned, m->stable, m->nstable, as);
					if (nr > 0) {
						do_revoke(t, g, m, sync_time, rv, nr, m->stable, m->nstable, KG_EVID_POLLED,
							  g->proto, KG_REASON_NONE, g->ep->rounds);
						if (nr == m->nstable && m->stop_since == 0)
							m->stop_since = sync_time;
					}
					do_assign(t, g, m, sync_time, as, na, KG_EVID_POLLED, g->ep->rounds);
					free(rv);
					free(as);
				}
				set_tp(&m->stable, &m->nstable, mm->assignment, mm->nassigned);
				set_tp(&m->asg, &m->nasg, mm->assignment, mm->nassigned);
				m->synced_round = g->ep->rounds;
			}
			/*
			 * A member reported by callbacks that holds what the broker says
			 * it holds has synced too (holding nothing proves nothing: that
			 * is also what a member waiting for its assignment holds).
			 */
			for (i = 0; i < g->nm; i++) {
				tmember *m = g->m[i];
				const kg_member *mm;
				if (!m->present || !m->exact || (mm = snap_member(G, m)) == NULL)
					continue;
				if (m->nasg > 0 && tp_equal(mm->assignment, mm->nassigned, m->asg, m->nasg))
					m->synced = true;
			}
			g->phase = PHASE_SYNCED;
			g->last_sync = sync_time;
		}
	}

	/* outside a rebalance the polled picture is the truth */
	if (g->ep == NULL && (stable_now || G->state == KG_STATE_EMPTY)) {
		for (i = 0; i < g->nm; i++) {
			tmember *m = g->m[i];
			const kg_member *mm;
			if (!m->present)
				continue;
			mm = snap_member(G, m);
			if (mm == NULL)
				continue;
			/*
			 * Between rebalances the description is the truth: a broker's
			 * wins over callbacks that went quiet, and a callback source's
			 * own is built from the callbacks already handed over.
			 */
			set_tp(&m->stable, &m->nstable, mm->assignment, mm->nassigned);
			set_tp(&m->asg, &m->nasg, mm->assignment, mm->nassigned);
		}
	}

	/* orphans */
	if (stable_now && G->norphaned > 0) {
		if (g->orphan_since == 0)
			g->orphan_since = T;
	} else {
		g->orphan_since = 0;
		if (G->norphaned == 0 && g->norphans_reported > 0) {
			free(g->orphans_reported);
			g->orphans_reported = NULL;
			g->norphans_reported = 0;
		}
	}

	/* can the episode close? */
	if (g->ep != NULL && exact_group && G->state == KG_STATE_STABLE) {
		/* the source saw no JoinGroup or SyncGroup outstanding: everyone has its answer */
		for (i = 0; i < g->nm; i++)
			g->m[i]->synced = true;
	}
	if (g->ep != NULL && stable_now) {
		bool synced = true;
		for (i = 0; i < g->nm; i++) {
			if (g->m[i]->present && g->m[i]->exact && !g->m[i]->synced)
				synced = false;
		}
		/*
		 * A coordinator log said a round began: a Stable description
		 * proves nothing until the log's end of round, or polling saw the
		 * round itself (the description may predate the log line).
		 */
		bool log_ok = !g->await_log_sync || g->ep_changed || T - g->ep->start_us >= 30LL * 1000000;
		/* a member whose last sync no callback reported must not hold the episode open for ever */
		if (!synced && T - g->last_rebal_obs >= EXACT_QUIET)
			synced = true;
		if (G->norphaned == 0 && synced && log_ok &&
		    (!exact_group || T - g->last_rebal_obs >= EXACT_SETTLE)) {
			int64_t end = g->last_sync >= g->ep->start_us && g->last_sync > 0 && g->last_sync <= T ? g->last_sync : T;
			close_episode(t, g, end, g->ep->start_us == T ? "between two refreshes" : NULL);
		} else if (G->norphaned > 0 && g->orphan_since > 0 && T - g->orphan_since >= t->cfg.orphan_grace_us) {
			char note[96];
			snprintf(note, sizeof note, "%d partition%s left orphaned", G->norphaned,
				 G->norphaned == 1 ? "" : "s");
			close_episode(t, g, T, note);
			report_orphans(t, g, G, T, "still unowned after the rebalance");
		}
	} else if (g->ep == NULL && stable_now && G->norphaned > 0 && !baseline &&
		   T - g->orphan_since >= ORPHAN_REPORT_DELAY) {
		/* not the instant between a member leaving and the rebalance it causes */
		report_orphans(t, g, G, T, NULL);
	} else if (g->ep == NULL && baseline && G->norphaned > 0) {
		report_orphans(t, g, G, T, "at start");
	}

	if (G->lag >= 0) {
		history_add_lag(t->h, g->id, T, G->lag);
		if (g->ep != NULL && G->lag > g->ep->lag_peak)
			g->ep->lag_peak = G->lag;
	}
}

/* ------------------------------------------------------------- annotate */

/* The assignment a member effectively consumes now. */
static const kg_tp *
effective(const tgroup *g, const tmember *m, const kg_group *G, int *n)
{
	const kg_member *mm;
	if (m->exact) {
		*n = m->nasg;
		return m->asg;
	}
	if (state_rebalancing(G->state)) {
		if (g->proto == KG_PROTO_EAGER) {
			*n = 0;
			return NULL;
		}
		*n = m->nstable;
		return m->stable;
	}
	mm = snap_member(G, m);
	if (mm == NULL) {
		*n = 0;
		return NULL;
	}
	*n = mm->nassigned;
	return mm->assignment;
}

/* What a member is doing now. */
static kg_member_status
member_status(const tgroup *g, const tmember *m, int neff)
{
	if (m->away_since > 0)
		return KG_MEMBER_AWAY;
	if (g->ep != NULL) {
		if (neff == 0)
			return KG_MEMBER_STOPPED;
		if (m->partial)
			return KG_MEMBER_PARTIAL;
		return KG_MEMBER_CONSUMING;
	}
	return neff == 0 ? KG_MEMBER_IDLE : KG_MEMBER_CONSUMING;
}

/* Health of a member against its limits. */
static void
member_health(const kg_tracker *t, const tgroup *g, const tmember *m, int64_t T, kg_member_health *h)
{
	if (m->session_us > 0) {
		h->session_timeout_us = m->session_us;
		h->session_src = KG_LIMIT_TRACE;
	} else if (g->session_us > 0) {
		h->session_timeout_us = g->session_us;
		h->session_src = KG_LIMIT_TRACE;
	} else {
		h->session_timeout_us = t->cfg.session_timeout_us;
		h->session_src = t->cfg.session_src;
	}
	if (m->max_poll_us > 0) {
		h->max_poll_us = m->max_poll_us;
		h->max_poll_src = KG_LIMIT_TRACE;
	} else if (g->max_poll_us > 0) {
		h->max_poll_us = g->max_poll_us;
		h->max_poll_src = KG_LIMIT_TRACE;
	} else {
		h->max_poll_us = t->cfg.max_poll_us;
		h->max_poll_src = t->cfg.max_poll_src;
	}
	if (m->hb_last > 0)
		h->hb_age_us = T > m->hb_last ? T - m->hb_last : 0;
	else if (m->m_time > 0 && m->m_hb_age >= 0)
		h->hb_age_us = m->m_hb_age + (T > m->m_time ? T - m->m_time : 0);
	if (m->poll_last > 0)
		h->poll_gap_us = T > m->poll_last ? T - m->poll_last : 0;
	else if (m->m_time > 0 && m->m_poll_gap >= 0)
		h->poll_gap_us = m->m_poll_gap + (T > m->m_time ? T - m->m_time : 0);
	h->poll_gap_max_us = KG_MAX(m->poll_gap_max > 0 ? m->poll_gap_max : -1, m->m_poll_gap_max);
	if (h->poll_gap_us > h->poll_gap_max_us && m->poll_last > 0)
		h->poll_gap_max_us = h->poll_gap_us;
	h->hb_rate = m->m_hb_rate;
	h->rebalance_latency_avg_us = m->m_rb_avg;
	h->rebalance_latency_max_us = m->m_rb_max;
	h->failed_rebalances = m->m_failed;
	h->health_source = m->health_src;
}

/* Annotate one group of the snapshot and store a history sample. */
static void
annotate_group(kg_tracker *t, kg_snapshot *s, kg_group *G, int64_t T)
{
	tgroup *g = tgroup_get(t, G->id);
	kg_sample smp;
	kg_episode *last;
	int nl = history_nlanes(t->h, g->id), k, j;
	size_t i;
	int64_t lag_then;

	if (g->no_news || G->traced) {
		/* a failed description, or a group known from a log: the timeline keeps what it had */
		G->sum.storm = g->storm;
		G->sum.in_episode = g->ep != NULL;
		return;
	}
	/* the broker hides the assignor of a rebalancing group: say what it was */
	if (G->proto == KG_PROTO_UNKNOWN && g->proto != KG_PROTO_UNKNOWN)
		G->proto = g->proto;
	if ((G->assignor == NULL || *G->assignor == '\0') && g->assignor != NULL)
		G->assignor = snapshot_strdup(s, g->assignor);
	/* partitions between the rounds of an open rebalance are in flight, not orphaned */
	if (g->ep != NULL) {
		for (k = 0; k < G->nparts; k++) {
			if (G->parts[k].orphaned) {
				G->parts[k].orphaned = false;
				G->parts[k].in_flight = true;
			}
		}
		G->norphaned = 0;
	}
	memset(&smp, 0, sizeof smp);
	smp.time_us = T;
	smp.state = G->state;
	smp.in_episode = g->ep != NULL;
	smp.lag = G->lag;
	smp.nlanes = nl;
	smp.lane_status = xmalloc((size_t)(nl ? nl : 1));
	smp.lane_nassigned = xcalloc((size_t)(nl ? nl : 1), sizeof *smp.lane_nassigned);
	memset(smp.lane_status, KG_LANE_ABSENT, (size_t)(nl ? nl : 1));
	smp.nparts = G->nparts;
	smp.parts = xmalloc((size_t)(G->nparts ? G->nparts : 1) * sizeof *smp.parts);
	smp.owner = xmalloc((size_t)(G->nparts ? G->nparts : 1) * sizeof *smp.owner);
	smp.pstat = xmalloc((size_t)(G->nparts ? G->nparts : 1));
	for (k = 0; k < G->nparts; k++) {
		smp.parts[k] = G->parts[k].tp;
		smp.owner[k] = -1;
	}

	for (i = 0; i < g->nm; i++) {
		tmember *m = g->m[i];
		const kg_tp *eff;
		int neff;
		kg_member_status st;
		if (!m->present || m->lane < 0 || m->lane >= nl)
			continue;
		eff = effective(g, m, G, &neff);
		st = member_status(g, m, neff);
		smp.lane_status[m->lane] = (uint8_t)st;
		smp.lane_nassigned[m->lane] = (uint16_t)(neff > 65535 ? 65535 : neff);
		{
			int mi = group_member_index(G, m->member_id);
			for (j = 0; j < neff; j++) {
				int idx = group_part_index(G, eff[j]);
				if (idx >= 0 && smp.owner[idx] < 0)
					smp.owner[idx] = (int16_t)m->lane;
				/*
				 * A broker describes a rebalancing group without
				 * assignments; who consumes what meanwhile is what the
				 * tracker knows: a cooperative member keeps consuming
				 * what it held.  The snapshot's owners say that (the
				 * members' own assignments stay what the broker said).
				 */
				if (idx >= 0 && mi >= 0 && G->parts[idx].owner < 0) {
					G->parts[idx].owner = mi;
					G->parts[idx].orphaned = false;
					G->parts[idx].in_flight = false;
				}
			}
			/* annotate the snapshot's member */
			if (mi >= 0) {
				kg_member *sm = &G->members[mi];
				kg_lane *l = history_lane(t->h, g->id, m->lane);
				sm->lane = m->lane;
				sm->status = st;
				sm->first_seen_us = m->first_seen;
				member_health(t, g, m, T, &sm->health);
				sm->health.health_source = m->health_src;
				sm->last_leave = l ? l->last_leave : KG_REASON_NONE;
				if (m->exact)
					sm->flags |= KG_MEMBER_EXACT;
			}
		}
	}
	{
		/* parts are sorted by topic: a topic is consumed when some partition of it is owned */
		int npresent = present_count(g), start = 0;
		while (start < G->nparts) {
			int end = start;
			bool consumed = false;
			while (end < G->nparts && G->parts[end].tp.topic == G->parts[start].tp.topic) {
				consumed |= smp.owner[end] >= 0;
				end++;
			}
			for (k = start; k < end; k++) {
				if (smp.owner[k] >= 0)
					smp.pstat[k] = KG_PSTAT_CONSUMING;
				else if (g->ep != NULL)
					smp.pstat[k] = KG_PSTAT_STOPPED;
				else if (G->parts[k].orphaned || (consumed && npresent > 0))
					smp.pstat[k] = KG_PSTAT_ORPHANED;
				else
					smp.pstat[k] = KG_PSTAT_IDLE;
			}
			start = end;
		}
	}
	history_add_sample(t->h, g->id, &smp);

	/* moved marks of the last rebalance */
	for (k = 0; k < g->nmoved; k++) {
		int idx = group_part_index(G, g->moved[k]);
		if (idx >= 0) {
			G->parts[idx].moved = true;
			G->parts[idx].moved_from = g->moved_from[k];
		}
	}

	/* summary */
	G->sum.rebalances_1h = history_count_episodes(t->h, g->id, T - 3600LL * 1000000);
	G->sum.storm = g->storm;
	G->sum.in_episode = g->ep != NULL;
	last = history_last_episode(t->h, g->id);
	if (g->ep != NULL) {
		G->sum.episode_start_us = g->ep->start_us;
		G->sum.rounds = g->ep->rounds;
	} else if (last != NULL) {
		G->sum.episode_start_us = last->start_us;
		G->sum.rounds = last->rounds;
	}
	for (i = 0; last != NULL && i < 1; i++) {
		kg_episode *closed = last->end_us != 0 ? last : history_episode(t->h, g->id, g->last_ep);
		if (closed != NULL && closed->end_us != 0)
			G->sum.last_episode_us = closed->end_us - closed->start_us;
	}
	G->sum.generation = g->generation;
	lag_then = history_lag_at(t->h, g->id, T - 60LL * 1000000);
	if (lag_then < 0) /* less than a minute known: the trend over the last 10 s */
		lag_then = history_lag_at(t->h, g->id, T - 10LL * 1000000);
	if (lag_then >= 0 && G->lag >= 0)
		G->sum.lag_delta_1m = G->lag - lag_then;
	{
		kg_member_health gh;
		tmember dummy;
		memset(&dummy, 0, sizeof dummy);
		memset(&gh, 0, sizeof gh);
		member_health(t, g, &dummy, T, &gh);
		G->sum.session_timeout_us = gh.session_timeout_us;
		G->sum.session_src = gh.session_src;
		G->sum.max_poll_us = gh.max_poll_us;
		G->sum.max_poll_src = gh.max_poll_src;
	}
	(void)s;
}

/* Decide storms for a group. */
static void
eval_storm(kg_tracker *t, tgroup *g, int64_t T, kg_group *G)
{
	int count = 0, rounds = 0;
	int64_t W = t->cfg.storm_window_us;
	int64_t reb = history_rebalancing_time(t->h, g->id, T - W, T, &count, &rounds);
	int64_t observed = T - g->first_seen;
	int64_t denom = observed < W ? observed : W;
	double ratio = denom > 0 ? (double)reb / (double)denom : 0;
	/*
	 * Several rebalances in the window, or more time rebalancing than
	 * consuming while the group cannot settle: at least two rebalances, or
	 * one that keeps starting new rounds (members dropping out of it).
	 */
	bool storm = count >= t->cfg.storm_episodes ||
		     ((count >= 2 || rounds >= 3) && observed >= STORM_MIN_OBSERVED && ratio > t->cfg.storm_ratio);
	if (G != NULL)
		G->sum.rebalancing_ratio = ratio;
	if (storm != g->storm) {
		kg_event *ev = event_new(storm ? KG_EV_STORM_BEGIN : KG_EV_STORM_END, T, g->id);
		char w[32];
		sbuf s = { 0 };
		util_fmt_duration(w, sizeof w, W);
		sbuf_addf(&s, "%d rebalance%s", count, count == 1 ? "" : "s");
		if (rounds > count)
			sbuf_addf(&s, " of %d rounds", rounds);
		sbuf_addf(&s, " in the last %s, %.0f%% of the time rebalancing", w, ratio * 100);
		event_text(ev, sbuf_str(&s));
		sbuf_free(&s);
		emit(t, g, ev);
		g->storm = storm;
		if (G != NULL)
			G->sum.storm = storm;
	}
}

/* Emit events for source health changes. */
static void
track_sources(kg_tracker *t, const kg_snapshot *s)
{
	int i, j;
	for (i = 0; i < s->nsources; i++) {
		const kg_source_health *h = &s->sources[i];
		const kg_source_health *p = NULL;
		for (j = 0; j < t->nsrc; j++) {
			if (strcmp(t->src[j].name, h->name) == 0)
				p = &t->src[j];
		}
		if (h->status == KG_SRC_CONNECTING)
			continue;
		if (p == NULL || p->status != h->status ||
		    (h->status == KG_SRC_ERROR && strcmp(p->message ? p->message : "", h->message ? h->message : "") != 0)) {
			kg_event *ev = event_new(KG_EV_SOURCE, s->time_us, -1);
			sbuf b = { 0 };
			if (p == NULL && h->status == KG_SRC_OK) {
				sbuf_free(&b);
				event_unref(ev);
				continue;
			}
			sbuf_addf(&b, "source %s: %s", h->name, src_status_name(h->status));
			if (h->message != NULL && *h->message)
				sbuf_addf(&b, ": %s", h->message);
			event_text(ev, sbuf_str(&b));
			sbuf_free(&b);
			emit(t, NULL, ev);
		}
	}
	for (j = 0; j < t->nsrc; j++) {
		free((char *)t->src[j].name);
		free((char *)t->src[j].message);
	}
	free(t->src);
	t->nsrc = s->nsources;
	t->src = xcalloc((size_t)(s->nsources ? s->nsources : 1), sizeof *t->src);
	for (i = 0; i < s->nsources; i++) {
		t->src[i] = s->sources[i];
		t->src[i].name = xstrdup(s->sources[i].name);
		t->src[i].message = xstrdup(s->sources[i].message);
	}
}

/* Forget members gone longer ago than the history keeps (their lanes stay in the history). */
static void
prune_members(kg_tracker *t, int64_t T)
{
	size_t gi, i, w;
	for (gi = 0; gi < t->cg; gi++) {
		tgroup *g = t->g[gi];
		if (g == NULL)
			continue;
		for (i = 0, w = 0; i < g->nm; i++) {
			tmember *m = g->m[i];
			if (!m->present && m->last_seen < T - t->cfg.window_us && (m->gone_time == 0 || m->gone_time < T - t->cfg.window_us))
				tmember_free(m);
			else
				g->m[w++] = m;
		}
		g->nm = w;
	}
}

/* Fold observations and a snapshot. */
void
tracker_apply(kg_tracker *t, kg_obsq *obs, kg_snapshot *snap, kg_evlist *out)
{
	int64_t T = snap->time_us;
	size_t i;
	int k;
	bool *in_snap;

	history_lock(t->h);
	t->out = out;
	if (obs != NULL) {
		obsq_sort(obs);
		create_in_client_order(t, obs);
		for (i = 0; i < obs->n; i++) {
			if (obs->v[i]->time_us > T)
				obs->v[i]->time_us = T; /* a clock ahead of ours: keep the order */
			apply_obs(t, obs->v[i]);
		}
		obsq_clear(obs);
	}
	track_sources(t, snap);

	for (k = 0; k < snap->ngroups; k++)
		apply_group(t, &snap->groups[k], T);
	in_snap = xcalloc(t->cg ? t->cg : 1, sizeof *in_snap);
	for (k = 0; k < snap->ngroups; k++)
		in_snap[snap->groups[k].id] = true;

	/* groups that went away, log-only episodes, static members away too long, storms */
	for (i = 0; i < t->cg; i++) {
		tgroup *g = t->g[i];
		size_t q;
		if (g == NULL)
			continue;
		if (g->present && (i >= t->cg || !in_snap[i])) {
			emit(t, g, event_new(KG_EV_GROUP_GONE, T, g->id));
			if (g->ep != NULL)
				close_episode(t, g, T, "group gone");
			for (q = 0; q < g->nm; q++) {
				if (g->m[q]->present)
					member_gone(t, g, g->m[q], T);
			}
			g->present = false;
		}
		if (g->ep != NULL && !g->seen && g->phase == PHASE_SYNCED && T - g->last_rebal_obs >= LOG_SETTLE)
			close_episode(t, g, g->last_sync > 0 ? g->last_sync : g->last_rebal_obs, NULL);
		for (q = 0; q < g->nm; q++) {
			tmember *m = g->m[q];
			int64_t limit = m->session_us > 0 ? m->session_us
				      : g->session_us > 0 ? g->session_us : t->cfg.session_timeout_us;
			if (m->present && m->away_since > 0 && T - m->away_since > limit)
				announce_leave(t, g, m, T, KG_REASON_SESSION_TIMEOUT, "static member did not come back",
					       KG_EVID_EXACT);
		}
	}
	free(in_snap);

	for (k = 0; k < snap->ngroups; k++) {
		kg_group *G = &snap->groups[k];
		eval_storm(t, tgroup_get(t, G->id), T, G);
		annotate_group(t, snap, G, T);
	}
	if (T - t->now >= 10LL * 1000000 || t->now == 0) {
		history_trim(t->h, T);
		prune_members(t, T);
		t->now = T;
	}
	t->applied++;
	if (t->seen_groups_now)
		t->seen_groups = true;
	t->out = NULL;
	history_unlock(t->h);
}

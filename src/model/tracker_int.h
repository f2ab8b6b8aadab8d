/*
 * tracker_int.h: what the tracker's files share, private to src/model.
 *
 * The tracker (tracker.h) is one module in seven files:
 *   tracker.c           the public API, configuration, lifecycle, the apply
 *                       loop, source health, pruning, and the small helpers
 *                       every part uses (emit, owned sets and strings);
 *   tracker_lanes.c     member identity and lanes: finding members, adding
 *                       them, their joins and leaves;
 *   tracker_episode.c   episodes and rounds: triggers, opening, rounds,
 *                       revokes and assignments, moves, closing;
 *   tracker_obs.c       observations, one handler per kind;
 *   tracker_poll.c      the polled picture of a group against what was known;
 *   tracker_annotate.c  the snapshot's annotations (status, health,
 *                       summaries), history samples and storms;
 *   tracker_progress.c  progress (progress.h): verdict events, frozen
 *                       commits as silence, how long moved partitions
 *                       waited for their new owner.
 * Functions shared between the files are prefixed tk_; the rest are static.
 */
#ifndef KGTOP_MODEL_TRACKER_INT_H
#define KGTOP_MODEL_TRACKER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/progress.h"
#include "model/tracker.h"
#include "util/hmap.h"

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
#define JOIN_RETRY (1000LL * 1000) /* a member's JoinGroup this soon after its unanswered one is a retry (MEMBER_ID_REQUIRED) */
#define STALE_DESCRIPTION (1000LL * 1000) /* a description begun this soon after a traced leave may predate it */

/* A member's liveness, private to tracker_live.c (tracker_live.h). */
typedef struct tk_live tk_live;

enum { PHASE_JOINING, PHASE_SYNCED };

typedef struct tmember {
	char *member_id;     /* immutable: the key of its group's by_id index */
	char *client_id;
	char *host;
	char *instance_id;
	int lane;
	bool present;
	bool exact;          /* callbacks reported for it */
	bool announced;      /* a joined event was emitted (or it was there at start) */
	bool left_reported;  /* a left event was emitted */
	bool left_exact;     /* a trace said it left: an older description cannot bring it back */
	int64_t join_time;   /* when its joined event was emitted, 0 never */
	int64_t revived_at;  /* seen back under its old id (the mock reuses ids), 0 never */
	int sent_round;      /* the episode's round of its last JoinGroup sent (JOIN_SENT), 0 none */
	int64_t join_sent_at; /* when it sent its last JoinGroup, 0 never */
	int synced_round;    /* polled: the round whose assignment it got */
	int64_t gone_time;   /* when it left, 0 never */
	int64_t gone_lo;     /* at the earliest (polled: the description before), 0 unknown */
	kg_tp *gone_asg;     /* what it held when it left */
	int ngone_asg;
	kg_tp *asg;          /* current assignment as best known */
	int nasg;
	kg_tp *stable;       /* assignment at the last Stable description (polled) */
	int nstable;
	int64_t first_seen;
	int64_t last_seen;
	int64_t traced_at;   /* the last time a trace showed it in the group (its callback, its join), 0 never */
	/* the open episode */
	bool synced;         /* got its assignment in the current round */
	int revoked_round;   /* last round it revoked in (protocol revokes) */
	int join_round;      /* exact: round of its last JoinGroup in the open episode, 0 unknown */
	bool join_seen;      /* that JoinGroup was observed (not assumed at the episode's start) */
	bool join_answered;  /* and its assignment came */
	bool static_back;    /* a static instance back under a new member id: its next assignment is its old one */
	bool partial;        /* revoked part of its assignment in this episode */
	int64_t stop_since;  /* owns nothing since, 0 when it owns something */
	int64_t stop_since_lo; /* at the earliest (polled: the refresh before), 0 unknown */
	int64_t partial_since;
	/* leaving */
	kg_reason leave_reason;
	char *leave_text;
	int64_t away_since;  /* static member closed without LeaveGroup */
	tk_live *live;       /* its signs of life (tracker_live.c) */
} tmember;

typedef struct tgroup {
	int32_t id;
	hmap by_id;          /* member id -> the newest member with it (ids are reused by the mock: see tk_find_member_of) */
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
	bool next_pending;      /* a JoinGroup of the next generation came before the current round's sync was seen */
	bool ep_stabilized;     /* a coordinator said when the open episode's generations stabilized */
	bool exact_group;       /* a source reports every member's callbacks (the snapshot said so) */
	/* descriptions: when the last two were taken (a change polling sees happened between them) */
	int64_t desc_at;
	int64_t desc_prev;
	int64_t poll_lo;        /* the earliest a change seen in this description can have happened, 0 unknown */
	/* partitions without a consuming owner in the open episode, since when (and at the earliest) */
	kg_tp *unc;
	int64_t *unc_since;
	int64_t *unc_lo;
	int nunc;
	kg_tp *unc_seen;        /* every partition that went unconsumed in the open episode */
	int nunc_seen;
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
	int64_t data_at;        /* when the group's last description was asked (its source says), 0 unknown */
	/* the moved partitions of the last closed episode, until their new owner commits (tracker_progress.c) */
	int64_t res_ep;         /* that episode's id, 0 none */
	kg_tp *res_tp;
	bool *res_done;
	int nres, res_left;
	kg_span res_span;       /* the longest wait so far, within bounds */
	bool res_open;          /* still watching */
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
	int64_t desc_time;     /* when the cluster's data in this snapshot was taken (its refresh), else its time */
	kg_source_health *src; /* sources of the previous snapshot */
	int nsrc;
	kg_evlist *out;        /* where tk_emit() appends during an apply */
	int64_t interval_us;   /* the cluster's refresh interval (the snapshot's), 0 unknown */
	int32_t *logonly;      /* groups with an open episode known from logs only */
	size_t nlogonly, clogonly;
	kg_progress *prog;     /* progress: verdicts, time lag (tracker_progress.c) */
	kg_vchange *vch;       /* a group's verdict changes, reused */
	size_t cvch;
};

/* tracker_base.c: the record's helpers and the questions every part asks of it */
/* The group record, created on demand; NULL for a negative id. */
tgroup *tk_group_get(kg_tracker *t, int32_t id);
/* Record and publish an event: sequence, history, the apply's list. */
void tk_emit(kg_tracker *t, tgroup *g, kg_event *e);
/* A member event with identity filled. */
kg_event *tk_member_event(kg_event_kind kind, int64_t time, tgroup *g, const tmember *m);
/* Replace an owned set. */
void tk_set_tp(kg_tp **dst, int *n, const kg_tp *v, int nv);
/* Replace an owned string unless s is NULL or empty. */
void tk_set_str(char **dst, const char *s);
/* Add v to an owned set. */
void tk_tp_union(kg_tp **set, int *n, const kg_tp *v, int nv);
/* The client id inside a Java-style member id "<client-id>-<uuid>" (copied into buf). */
const char *tk_client_of(const char *member_id, char *buf, size_t n);
/* Number of present members. */
int tk_present_count(const tgroup *g);
/* The assignment a member is known to hold for episode bookkeeping. */
const kg_tp *tk_held(const tmember *m, int *n);
/* True when lane l is the same consumer as m: its instance id, else its client id and host. */
bool tk_lane_is(const kg_lane *l, const tmember *m);
/* True when lane belongs to the same consumer as m. */
bool tk_same_identity(kg_tracker *t, tgroup *g, int lane, const tmember *m);
/* True when a present member other than m holds m's lane and identity (a static member back, a revived id). */
bool tk_identity_back(kg_tracker *t, tgroup *g, const tmember *m);
/* The snapshot's entry of a member, NULL when absent (or its id is another client's now). */
const kg_member *tk_snap_member(const kg_group *G, const tmember *m);
/* The earliest a fact of this evidence at time can have happened (exact: time; polled: the refresh before). */
int64_t tk_lo(const tgroup *g, int64_t time, kg_evidence evid);

/* tracker_lanes.c: members and lanes */
/* Find a member by member id (the newest), NULL when none. */
tmember *tk_find_member(tgroup *g, const char *member_id);
/* Find a member by member id for a client (member ids are reused across clients). */
tmember *tk_find_member_of(tgroup *g, const char *member_id, const char *client_id);
/* Find a member by client id, a present one first. */
tmember *tk_find_by_client(tgroup *g, const char *client_id);
/* Lane l is m's (again) from now. */
void tk_lane_claim(kg_lane *l, const tmember *m, int64_t now);
/* A lane's last leave and why. */
void tk_lane_set_leave(kg_lane *l, kg_reason reason, const char *text);
/* Create a member record on its lane. */
tmember *tk_add_member(kg_tracker *t, tgroup *g, const char *member_id, const char *client_id, const char *host,
		       const char *instance_id, int64_t now);
/* A member present again (it reports, or a description lists it after it left): its leave and silence are over. */
void tk_member_revive(tmember *m);
/* Mark a member gone from its lane. */
void tk_member_gone(kg_tracker *t, tgroup *g, tmember *m, int64_t now);
/* Announce a member that joined (once). */
void tk_announce_join(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_evidence evid);
/* Announce a member that left (once), with its reason; a later reason amends it. */
void tk_announce_leave(kg_tracker *t, tgroup *g, tmember *m, int64_t time, kg_reason reason, const char *text,
		       kg_evidence evid);

/* tracker_episode.c: episodes and rounds */
/* A short trigger for a coordinator's "preparing to rebalance" reason. */
char *tk_short_trigger(kg_reason r, const char *text);
/* Remember a membership change as the likely trigger of the next rebalance. */
void tk_set_trigger(tgroup *g, int64_t time, kg_reason reason, const char *text);
/* A member joined: name it in the trigger, or add it to the joiners just named. */
void tk_trigger_joined(tgroup *g, int64_t time, const char *who);
/* The episode record of a member, created on demand. */
kg_episode_member *tk_ep_member(kg_episode *e, const tmember *m);
/* Open an episode at time if none is open; returns it. */
kg_episode *tk_ensure_episode(kg_tracker *t, tgroup *g, int64_t time, const char *why, kg_evidence evid);
/* A join signal: the next round of the open episode begins if the current one synced. */
void tk_next_round(kg_tracker *t, tgroup *g, int64_t time, kg_evidence evid);
/* The round of the open episode that time falls in (1 when before them all). */
int tk_round_at(const tgroup *g, int64_t time);
/* The round a member's callback answers: its unanswered JoinGroup's, else the current one. */
int tk_round_answered(const tgroup *g, const tmember *m);
/* A member's JoinGroup sent at time: the join signal of its round (opens the episode); returns that round. */
int tk_round_join_sent(kg_tracker *t, tgroup *g, const tmember *m, int64_t time);
/* Account stopped / partial time of a member up to time (lo at the earliest). */
void tk_settle_member_time(tgroup *g, tmember *m, int64_t time, int64_t lo);
/* Record a revoke: event, episode, member state. */
void tk_revoke(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	       const kg_tp *before, int nbefore, kg_evidence evid, kg_proto proto, kg_reason reason, int round);
/* The current round synced at time; a JoinGroup of the next generation seen before begins it. */
void tk_round_synced_at(kg_tracker *t, tgroup *g, int64_t time, bool exact);
/* Record an assignment: event, episode, member state. */
void tk_assign(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	       kg_evidence evid, int round);
/* A member stops consuming at time (at the earliest lo): its stopped time starts. */
void tk_member_stop(tmember *m, int64_t time, int64_t lo);
/* Partitions lose their consuming owner at time (lo at the earliest), in the open episode. */
void tk_parts_stop(tgroup *g, const kg_tp *v, int n, int64_t time, int64_t lo);
/* Partitions have a consuming owner again at time. */
void tk_parts_resume(tgroup *g, const kg_tp *v, int n, int64_t time, int64_t lo);
/* Close the open episode at end (end_lo at the earliest: the refresh before when polling saw it end). */
void tk_close_episode(kg_tracker *t, tgroup *g, int64_t end, int64_t end_lo, const char *note);
/* Close a log-only episode whose last round ended LOG_SETTLE before time; true when closed. */
bool tk_close_log_settled(kg_tracker *t, tgroup *g, int64_t time);

/* tracker_obs.c: observations */
/* Give consumers first reported in one batch their lanes in client id order. */
void tk_obs_new_members(kg_tracker *t, const kg_obsq *obs);
/* Fold one observation. */
void tk_apply_obs(kg_tracker *t, kg_obs *o);

/* tracker_poll.c: polled groups */
/* Fold the polled picture of one group. */
void tk_apply_group(kg_tracker *t, kg_group *G, int64_t T);

/* tracker_annotate.c: the snapshot's annotations */
/* Decide storms for a group. */
void tk_eval_storm(kg_tracker *t, tgroup *g, int64_t T, kg_group *G);
/* Annotate one group of the snapshot and store a history sample. */
void tk_annotate_group(kg_tracker *t, kg_snapshot *s, kg_group *G, int64_t T);

/* tracker_progress.c: progress */
/* Judge every group of the snapshot: verdict events, members silent by frozen commits, moved partitions' wait. */
void tk_progress(kg_tracker *t, kg_snapshot *snap, int64_t T);
/* Each member's verdict: the worst of the partitions it consumes (owners known). */
void tk_member_verdicts(kg_group *G);

#endif

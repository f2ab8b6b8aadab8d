/*
 * tracker_episode.h: the tracker's episodes-and-rounds part
 * (tracker_episode.c): a rebalance from its first evidence to its close,
 * its rounds, its trigger, what each member revoked and was assigned, what
 * it cost (stopped members, partitions without a consuming owner) and what
 * moved.
 *
 * Its state: tk_epgroup per group (g->eps), tk_epmember per member
 * (m->eps), and the tracker's episode numbering and log-only groups
 * (private to tracker_episode.c).  The fold (tracker.c, tracker_obs.c,
 * tracker_poll.c) reads and sets the round signals below (a sync seen, a
 * coordinator's word awaited); other parts ask through the functions at the
 * end.  It stands on tracker_base.c and asks tracker_live.c whether a
 * member was silent.
 */
#ifndef KGTOP_MODEL_TRACKER_EPISODE_H
#define KGTOP_MODEL_TRACKER_EPISODE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/tracker_int.h"
#include "util/hmap.h"

#define END_LO_DESC 1 /* tk_epgroup.end_lo_by: a description polling took (its clock, kgtop's) */
#define END_LO_LINE 2 /* a coordinator's line (the broker's clock, as its other lines) */
#define TRIGGER_WINDOW (10LL * 1000000) /* a membership change this recent explains a rebalance */
#define MAX_ROUND_T 32                  /* rounds whose start is kept */

/* Where the open episode's current round is. */
enum { PHASE_JOINING, PHASE_SYNCED };

/* A member's part in the open episode (m->eps). */
struct tk_epmember {
	int sent_round;        /* the episode's round of its last JoinGroup sent (JOIN_SENT), 0 none */
	int synced_round;      /* polled: the round whose assignment it got */
	bool synced;           /* got its assignment in the current round */
	int revoked_round;     /* last round it revoked in (protocol revokes) */
	int join_round;        /* exact: round of its last JoinGroup in the open episode, 0 unknown */
	bool join_seen;        /* that JoinGroup was observed (not assumed at the episode's start) */
	bool join_answered;    /* and its assignment came */
	bool partial;          /* revoked part of its assignment in this episode */
	int64_t stop_since;    /* owns nothing since, 0 when it owns something */
	int64_t stop_hi;       /* proven to own nothing by then (its stop is not later), 0 not proven */
	int64_t stop_since_lo; /* at the earliest (polled: the refresh before), 0 unknown */
	int64_t held_since;    /* when it got what it holds (the last assignment it was given), 0 unknown */
	int64_t partial_since;
};

/* A partition's stretch without a consuming owner: began within [lo, hi] (hi 0 not proven, lo 0 not known), ended within [end_lo, end]. */
typedef struct tk_uncdone {
	kg_tp tp;
	int64_t hi, lo, end, end_lo;
} tk_uncdone;

/* A group's episodes and rounds (g->eps); the open episode itself is g->ep. */
struct tk_epgroup {
	int phase;                    /* PHASE_* */
	int32_t round_gen;            /* the group's generation when the current round began: a sync of it or older is an earlier round's */
	bool gen_unsaid;              /* the next start names no generation: the one known is not the episode's
				       * (KIP-848 opened before its bump was read: tracker_kip.c) */
	int64_t last_sync;            /* last sync evidence time in the open episode */
	int64_t *round_t;             /* start of each round of the open episode (round r at [r - 1]), MAX_ROUND_T of them
				       * made by the first episode (NULL: all 0; most groups of a cluster never rebalance) */
	int64_t exact_sync;           /* last sync time reported by a log or a client */
	int64_t round_start;          /* when the current round began */
	bool next_pending;            /* a JoinGroup of the next generation came before the current round's sync was seen */
	bool ep_stabilized;           /* a coordinator said when the open episode's generations stabilized */
	bool await_log_sync;          /* a coordinator log said a round began; its end not seen yet */
	bool ep_changed;              /* polling saw a round happen in this episode */
	int64_t last_rebal_obs;       /* last rebalance observation time */
	int64_t polled_open;          /* the refresh that opened the open episode (polling saw it first), 0 none */
	bool ep_polled;               /* the episode saw polled evidence */
	bool ep_logonly;              /* opened by a coordinator log, group never polled */
	bool ep_callbacks;            /* consumers' callbacks reported on the open episode */
	bool log_joined;              /* its last line said the round's join completed ("Stabilized"), not its sync yet */
	bool rounds_unsure;           /* a join began again after a "Stabilized" from a log that tells no syncs: maybe no round */
	bool ep_records;              /* the coordinator's records counted the open episode's generations */
	bool sync_polled;             /* last_sync is a description's (polling saw the round synced by then), not a line's */
	uint8_t end_lo_by;            /* what showed the last closed episode still rebalancing at its earliest end (END_LO_*) */
	int64_t log_emptied_at;       /* a coordinator's "is now empty" in the open episode, 0 none */
	int64_t emptied_at;           /* when a description last said Empty with no member */
	int episodes_seen;            /* episodes opened since kgtop started (their numbers) */
	int log_members;              /* the members of the generation the log's last line of the open episode formed or synced, -1 unknown */
	int64_t last_ep;              /* id of the last closed episode */
	int64_t last_ep_end;          /* and its end */
	int64_t closed_at;            /* when it was closed (polling: the refresh that saw it over), 0 unknown */
	/* late exact evidence of the last closed episode (the fold's: tracker_obs.c, tracker_records.c) */
	int64_t log_ep;               /* the episode the log's syncs counted rounds of, open or closed, */
	int log_syncs;                /* how many, */
	int32_t log_gen;              /* and the last generation counted */
	bool late_open;               /* a late round began and its sync is not read yet */
	int64_t retime_ep;            /* an episode retimed, its event not told yet (0 none) */
	int64_t retime_at;            /* the latest evidence time that retimed it */
	int64_t retime_tick;          /* and the tick that read it */
	/* partitions without a consuming owner in the open episode, since when: proven by unc_since (0 not
	 * proven), not before unc_lo (0 not known) */
	kg_tp *unc;
	int64_t *unc_since;
	int64_t *unc_lo;
	int nunc;
	tk_uncdone *done;             /* each such stretch once it ended, of the open (or last closed) episode */
	int ndone, cdone;
	kg_tp *gparts;                /* the group's partitions, as its last description named them */
	int ngparts;
	kg_tp *cons;                  /* partitions seen consumed (a commit moved them), */
	int64_t *cons_lo;             /* after when at the latest before the open episode (the observation before the move) */
	int64_t *cons_hi;             /* and the last time a move was seen (the observation of it) */
	int ncons;
	kg_tp *unc_seen;              /* every partition that went unconsumed in the open episode */
	int nunc_seen;
	hmap rec_index;               /* the open episode's member records: member id -> index + 1 (tk_ep_member) */
	int64_t rec_ep;               /* the episode it indexes (its id), 0 none */
	/* the last membership change, to explain the next rebalance */
	int64_t trig_time;
	kg_reason trig_reason;
	char *trig_text;
	int trig_joiners;             /* members named in a "joined: ..." trigger, to add the next ones */
	int trig_more;                /* and those beyond the ones named, counted */
	/* owners at the start of the open episode, to count moves */
	kg_tp *ep_parts;
	int *ep_owner;
	int nep_parts;
	/* moved marks of the last closed episode */
	kg_tp *moved;
	int *moved_from;
	int nmoved;
	uint32_t moved_key; /* names this set of marks (rows.h): a new one each time they are set (fits beside nmoved) */
};

/* The part's state: the tracker's (episode numbers, log-only groups), a group's, a member's. */
tk_epbook *tk_epbook_new(void);
void tk_epbook_free(tk_epbook *b);
tk_epgroup *tk_epgroup_new(void);
void tk_epgroup_free(tk_epgroup *e);
tk_epmember *tk_epmember_new(void);
void tk_epmember_free(tk_epmember *e);

/* Triggers */
/* A short trigger for a coordinator's "preparing to rebalance" reason. */
char *tk_short_trigger(kg_reason r, const char *text);
/* Remember a membership change as the likely trigger of the next rebalance. */
void tk_set_trigger(tgroup *g, int64_t time, kg_reason reason, const char *text);
/* A member joined: name it in the trigger, or add it to the joiners just named. */
void tk_trigger_joined(tgroup *g, int64_t time, const char *who);
/* A leave as a trigger's words: "left: WHO", "left: WHO (session timeout, inferred)" (polled), "left: WHO (graceful)". */
void tk_leave_trigger(sbuf *s, const char *who, kg_reason reason, kg_evidence evid);
/* A leave told without a reason, or an inferred one (was), learnt it: the trigger that names it says it. */
void tk_trigger_amend(kg_tracker *t, tgroup *g, const char *who, kg_reason was, kg_reason reason);
/* A joiner a trigger named by a guessed client id (its member id) is named by its client id now. */
void tk_trigger_rename(kg_tracker *t, tgroup *g, const char *was, const char *now);

/* Opening, rounds */
/* The open episode's record of a member, created on demand. */
kg_episode_member *tk_ep_member(tgroup *g, const tmember *m);
/* Open an episode at time if none is open; returns it. */
kg_episode *tk_ensure_episode(kg_tracker *t, tgroup *g, int64_t time, const char *why, kg_evidence evid);
/* A join signal: the next round of the open episode begins if the current one synced (never in a KIP-848 group's). */
void tk_next_round(kg_tracker *t, tgroup *g, int64_t time, kg_evidence evid);
/* The round of the open episode that time falls in (1 when before them all). */
int tk_round_at(const tgroup *g, int64_t time);
/* The round a member's callback answers: its unanswered JoinGroup's, else the current one. */
int tk_round_answered(const tgroup *g, const tmember *m);
/* A member's JoinGroup sent at time: the join signal of its round (opens the episode); returns that round. */
int tk_round_join_sent(kg_tracker *t, tgroup *g, const tmember *m, int64_t time);
/* The current round synced at time; a JoinGroup of the next generation seen before begins it. */
void tk_round_synced_at(kg_tracker *t, tgroup *g, int64_t time, bool exact);
/*
 * The open episode's current round ended at time without a sync (the
 * coordinator emptied the group, or began the join again): it is no round;
 * joined: a coordinator's "Stabilized" took it for synced.
 */
void tk_round_unsynced(tgroup *g, int64_t time, bool joined);

/* What the rebalance does to members and partitions, and what it costs */
/* Record a revoke: event, episode, member state. */
void tk_revoke(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	       const kg_tp *before, int nbefore, kg_evidence evid, kg_proto proto, kg_reason reason, int round);
/* Record an assignment: event, episode, member state. */
void tk_assign(kg_tracker *t, tgroup *g, tmember *m, int64_t time, const kg_tp *parts, int nparts,
	       kg_evidence evid, int round);
/* Account stopped / partial time of a member up to time (lo at the earliest). */
void tk_settle_member_time(tgroup *g, tmember *m, int64_t time, int64_t lo);
/* A member stops consuming at time (its best estimate), proven by hi (0 not proven), not before lo (0 not known). */
void tk_member_stop(tmember *m, int64_t time, int64_t hi, int64_t lo);
/* Partitions lose their consuming owner, proven by hi (0 not proven), not before lo (0 not known), in the open episode. */
void tk_parts_stop(tgroup *g, const kg_tp *v, int n, int64_t hi, int64_t lo);
/* A partition's committed offset moved within (lo, hi]: a stretch without a consuming owner proven from before is not (it was consumed then). */
void tk_ep_part_moved(tgroup *g, kg_tp tp, int64_t lo, int64_t hi);
/* The group's partitions, as a description names them (for what an episode polling saw may have cost). */
void tk_ep_group_parts(tgroup *g, const kg_group *G);

/* Within the part (tracker_episode_cost.c for tracker_episode.c) */
/* Partitions have a consuming owner again at time. */
void tk_parts_resume(tgroup *g, const kg_tp *v, int n, int64_t time, int64_t lo);
/* A member that owned nothing consumes again at time (lo at the earliest): its stopped time goes to its record. */
void tk_member_resume(tmember *m, kg_episode_member *em, int64_t time, int64_t lo);
/* A closing episode's cost: its members' stopped time, its partitions' stretches (those open end now); polled: their revokes as polling saw them, and polling's most */
void tk_close_costs(tgroup *g, kg_episode *e, int64_t end, int64_t end_lo, bool polled, int *members);

/* Closing */
/* Close the open episode at end (end_lo at the earliest: the refresh before when polling saw it end). */
void tk_close_episode(kg_tracker *t, tgroup *g, int64_t end, int64_t end_lo, const char *note);
/* Close a log-only episode whose last round ended a quiet spell before time; true when closed. */
bool tk_close_log_settled(kg_tracker *t, tgroup *g, int64_t time);
/* True while an episode's trigger text only says what was seen first (the cause is not known yet). */
bool tk_cause_unknown(const char *trigger_text);
/* Close a log-only episode at its last round's end: a rebalance of its own begins (tracker_obs.c). */
void tk_close_log_synced(kg_tracker *t, tgroup *g);
/* The open episode is log-only and its last generation was synced before time: what follows is not its own. */
bool tk_log_synced_before(const tgroup *g, int64_t time);
/* Close the log-only episodes (groups known from coordinator logs alone) settled by time. */
void tk_close_logonly(kg_tracker *t, int64_t time);
/* A description said the group is empty: its open episode ends, the leaves that emptied it explain nothing later. */
void tk_group_emptied(kg_tracker *t, tgroup *g, int64_t T, int64_t empty_before, int64_t asked_before);

/* A rebalance that ended before kgtop watched (the coordinator's records of its history). */
typedef struct kg_past {
	int64_t start_lo;   /* it began after this (the generation before's sync), 0 unknown */
	int64_t start;      /* and by this (its join phase's end) */
	int64_t end;        /* its generation's sync */
	int32_t gen_start, gen_end;
	kg_proto proto;
	int members_after;
	bool rounds_min;    /* a generation between may be missing (compacted) */
} kg_past;
/* Store a rebalance that ended before kgtop watched the group, closed, with its start and end events; returns it. */
kg_episode *tk_past_episode(kg_tracker *t, tgroup *g, const kg_past *p);

/* What others may ask */
/* Partitions owned when the open episode began that nobody owns in G (not counted as orphaned there): between rounds. */
int tk_ep_unowned(const tgroup *g, const kg_group *G);
/* The id of the group's last closed episode, 0 none. */
int64_t tk_ep_last(const tgroup *g);
/* When the group's last closed episode ended, 0 none. */
int64_t tk_ep_last_end(const tgroup *g);
/* The partitions the last closed episode gave a new owner (*from: the lane they came from, -1 none); their number. */
int tk_ep_moved(const tgroup *g, const kg_tp **moved, const int **from);
/* A number that names the moved marks tk_ep_moved() gives now (no other set had it). */
uint64_t tk_ep_moved_key(const tgroup *g);
/* True when the open episode's rounds are a lower bound (nobody counted its generations). */
bool tk_ep_rounds_min(const tgroup *g);
/* True when m revoked part of its assignment in the open episode. */
bool tk_ep_partial(const tmember *m);
/* When m got what it holds (the last assignment it was given), 0 unknown. */
int64_t tk_ep_held_since(const tmember *m);
/* The stretches without a consuming owner of the last closed episode (until the next opens); their number. */
int tk_ep_unconsumed(const tgroup *g, const tk_uncdone **v);

#endif

/*
 * tracker_int.h: the record every part of the tracker shares, private to
 * src/model.
 *
 * The tracker (tracker.h) is one fold over parts that each own their state:
 *
 *   the fold      tracker.c        the public API, lifecycle, the apply loop
 *                                  (the one place that makes a group's
 *                                  record), source health, pruning
 *                 tracker_obs.c    one handler per observation kind
 *                 tracker_poll.c   the polled picture of a group against
 *                                  what was known
 *                 tracker_records.c the coordinator's own records
 *                                  (__consumer_offsets): generations,
 *                                  static restarts, KIP-848 epochs
 *   the parts     tracker_lanes.c  members and lanes: lookups, joins,
 *                                  leaves, a lane per consumer
 *                 tracker_kip.c    KIP-848 consumer groups: epochs,
 *                                  members' epochs and targets, the
 *                                  consumer protocol's episodes
 *                 tracker_episode.c  episodes and rounds: triggers, rounds,
 *                                  revokes and assignments, moves (what
 *                                  they cost: tracker_episode_cost.c)
 *                 tracker_progress.c progress: verdict events, frozen
 *                                  commits, how long moved partitions waited
 *                 tracker_annotate.c the snapshot's annotations, history
 *                                  samples, storms
 *                 tracker_live.c   liveness: silence, heartbeats, polls,
 *                                  client metrics, health
 *   the ground    tracker_base.c   this record's helpers and queries
 *
 * Calls go down only: the fold calls any part; lanes tells episodes and
 * liveness of joins and leaves; lanes, progress and annotate ask episodes;
 * all of them ask liveness; everything stands on tracker_base.c, which
 * calls none.  No part calls the fold, and parts on one floor (lanes, kip,
 * progress, annotate) do not call each other:
 *
 *      fold:  tracker.c -> tracker_obs.c, tracker_poll.c, tracker_records.c
 *      lanes   kip   progress   annotate
 *          episodes
 *          liveness
 *      base
 *
 * What is here is what more than one part reads: who the members are and
 * what they hold, the group's facts from its descriptions, the open
 * episode.  Each part's own state hangs off the record by a pointer to a
 * type its header (or its .c alone) defines.  Functions shared between
 * files are prefixed tk_; each part declares its own in its header.
 */
#ifndef KGTOP_MODEL_TRACKER_INT_H
#define KGTOP_MODEL_TRACKER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/rows.h"
#include "model/tracker.h"
#include "util/hmap.h"

/* Each part's state (the part's header, or its .c alone, says what is in it). */
typedef struct tk_live tk_live;           /* a member's liveness (tracker_live.c) */
typedef struct tk_epmember tk_epmember;   /* a member's part in the open episode (tracker_episode.h) */
typedef struct tk_epgroup tk_epgroup;     /* a group's episodes and rounds (tracker_episode.h) */
typedef struct tk_epbook tk_epbook;       /* episode numbers, log-only groups (tracker_episode.c) */
typedef struct tk_prog tk_prog;           /* the progress rules' state (tracker_progress.c) */
typedef struct tk_resume tk_resume;       /* a group's moved partitions, watched (tracker_progress.c) */
typedef struct tk_polled tk_polled;       /* what the polled picture keeps of a group (tracker_poll.c) */
typedef struct tk_kgroup tk_kgroup;       /* a consumer group's epochs (tracker_kip.c) */
typedef struct tk_kmember tk_kmember;     /* a KIP-848 member's epoch, state, type, target (tracker_kip.c) */

typedef struct tk_records tk_records;     /* what the coordinator's records told of a group (tracker_records.c) */

/*
 * A description begun this soon after a traced join or leave may predate
 * it: the coordinator logs a change as it makes it and serves a description
 * from what it has committed since, and the broker's clock may be ahead.
 */
#define TK_STALE_DESCRIPTION (1000LL * 1000)
#define KG_STEP_EPOCH_UNKNOWN (-2) /* tgroup.step_epoch of a polled KIP-848 step: no epoch, not the group's either */

/* One member id as the tracker saw it. */
typedef struct tmember {
	char *member_id;     /* immutable: the key of its group's by_id index */
	char *client_id;
	char *host;
	char *instance_id;
	int lane;
	bool present;
	bool counted;        /* in its lane's count of present members (tracker_lanes.c) */
	bool exact;          /* callbacks reported for it */
	bool announced;      /* a joined event was emitted (or it was there at start) */
	bool assumed;        /* ... there at start: in the group's first description, no join told (a trace's, later, is) */
	bool left_reported;  /* a left event was emitted */
	bool left_exact;     /* a trace said it left: an older description cannot bring it back */
	bool leave_inferred; /* its leave_reason polling inferred (a removal after a silence): a trace's amends it */
	bool static_back;    /* a static instance back under a new member id: its next assignment is its old one */
	bool client_guessed; /* client_id read from its member id (a coordinator's log names members by id alone) */
	int64_t join_time;   /* when its joined event was emitted, 0 never */
	int64_t join_sent_at; /* when it sent its last JoinGroup (a trace said), 0 never */
	int64_t revived_at;  /* seen back under its old id (the mock reuses ids), 0 never */
	int64_t gone_time;   /* when it left, 0 never */
	int64_t gone_lo;     /* its partitions not consumed since, at the earliest (its last sign of life), 0 unknown */
	int64_t gone_hi;     /* and proven not consumed by then (its leave, or a trace's crash), 0 not proven */
	kg_tp *gone_asg;     /* what it held when it left */
	int ngone_asg;
	kg_tp *asg;          /* current assignment as best known */
	int nasg;
	kg_tp *stable;       /* assignment at the last Stable description (polled) */
	int nstable;
	int64_t first_seen;
	int64_t last_seen;
	int64_t traced_at;   /* the last time a trace showed it in the group (its callback, its join), 0 never */
	kg_reason leave_reason;
	char *leave_text;
	int64_t away_since;  /* static member closed without LeaveGroup */
	tk_epmember *eps;    /* its part in the open episode (tracker_episode.c) */
	tk_live *live;       /* its signs of life (tracker_live.c) */
	tk_kmember *km;      /* KIP-848: its epoch, state, type, target (tracker_kip.c) */
} tmember;

/* One group as the tracker knows it. */
typedef struct tgroup {
	int32_t id;
	tmember **m;         /* every member id seen, kept by tracker_lanes.c */
	size_t nm, cm;
	hmap by_id;          /* member id -> the newest member with it (ids are reused by the mock: see tk_find_member_of) */
	int *lane_here;      /* present members per lane (tracker_lanes.c: a lane is taken without a scan) */
	int nlane_here;
	hmap by_client;      /* client id -> the oldest member with it (tk_find_by_client: a miss costs no scan) */
	bool seen;           /* in some snapshot */
	bool present;        /* in the last snapshot */
	bool single_topic;
	bool exact_group;    /* a source reports every member's callbacks (the snapshot said so) */
	bool no_news;        /* this snapshot's description failed: nothing to derive */
	bool storm;          /* decided by tracker_annotate.c */
	kg_group_state state;
	kg_proto proto;
	int32_t generation;
	int64_t generation_at; /* the time of the observation that told it */
	char *assignor;      /* the last assignor a description named */
	int64_t lag;
	int64_t first_seen;
	int64_t poll_lo;     /* the earliest a change seen in this description can have happened, 0 unknown */
	int64_t session_us;  /* limits a trace told for the group, 0 unknown */
	int64_t max_poll_us;
	int64_t gone_latest; /* the latest time a member of it was marked gone (tk_member_gone), 0 never */
	kg_episode *ep;      /* the open episode (stored in history, opened and closed by tracker_episode.c), NULL when none */
	tk_epgroup *eps;     /* its episodes and rounds (tracker_episode.c) */
	tk_resume *res;      /* its moved partitions watched until their new owner commits (tracker_progress.c), NULL before */
	tk_polled *pl;       /* what its descriptions left (tracker_poll.c), NULL before the first */
	tk_kgroup *kg;       /* KIP-848: its epochs (tracker_kip.c) */
	int32_t step_epoch;  /* KIP-848: the member epoch of the step being recorded (its events carry it), -1 none
	                        (the group's generation), KG_STEP_EPOCH_UNKNOWN: a step whose epoch no source gave */
	tk_records *rec;     /* what its coordinator's records told (tracker_records.c), NULL before the first */
	bool parts_same;     /* this apply's description has the partitions of the one before (tk_ep_group_parts) */
	uint64_t rows_seen;  /* the kept rows (rows.h) its last apply left, 0 none */
	/*
	 * The group's last history sample is a calm one (no member record, no
	 * episode, nothing owned or orphaned: every lane absent, every
	 * partition idle) of this state, lanes and lag: while a description
	 * says the same, the sample it makes is that one and is not built
	 * again (tracker_annotate.c).
	 */
	bool calm;
	kg_group_state calm_state;
	int calm_nlanes;
	int64_t calm_lag;
} tgroup;

struct kg_tracker {
	kg_tracker_config cfg;
	kg_history *h;
	tgroup **g;            /* indexed by group id */
	size_t cg;
	uint64_t seq;
	uint64_t applied;
	bool seen_groups;      /* an earlier snapshot had groups: new ones appear */
	bool seen_groups_now;
	bool log_tells_syncs;  /* a coordinator log said "Assignment received" (Kafka 4.0's does not): a "Stabilized" is no sync */
	int64_t log_from;      /* a coordinator log is read whole from then on (KG_OBS_LOG_FROM, the latest), 0 from its start */
	int64_t now;
	int64_t tick;          /* the time of the snapshot being applied */
	int32_t *retiming;     /* groups whose retimed event waits for their late lines to settle (tracker_obs.c) */
	size_t nretiming, cretiming;
	int64_t desc_time;     /* when the cluster's data in this snapshot was taken (its refresh), else its time */
	kg_source_health *src; /* sources of the previous snapshot */
	int nsrc;
	kg_evlist *out;        /* where tk_emit() appends during an apply */
	int64_t interval_us;   /* the cluster's refresh interval (the snapshot's), 0 unknown */
	tk_epbook *eb;         /* episode numbers, log-only groups (tracker_episode.c) */
	tk_prog *pg;           /* progress: verdicts, time lag (tracker_progress.c); NULL: no verdicts */
	kg_sample smp;         /* every group's history sample is built here (tracker_annotate.c) */
	size_t smp_clanes, smp_cparts; /* its arrays' room */
	uint64_t calm_skips;   /* calm groups whose sample was not built again (tests, benches) */
	uint64_t rest_skips;   /* groups whose kept rows were not judged again (rows.h; tests, benches) */
};

/* tracker_base.c: the record's helpers and the questions every part asks of it */
/* The group record of id, NULL when none (the fold makes them). */
tgroup *tk_group_find(kg_tracker *t, int32_t id);
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
const kg_member *tk_snap_member(const tgroup *g, const kg_group *G, const tmember *m);
/* The latest a stop of this evidence at time is proven by: an exact fact's time; 0 for a polled one (not proven). */
int64_t tk_hi(int64_t time, kg_evidence evid);
/* The earliest a fact of this evidence at time can have happened (exact: time; polled: the refresh before). */
int64_t tk_lo(const tgroup *g, int64_t time, kg_evidence evid);

/* True when G's rows are the very rows the group's last apply left (kept by the builder: rows.h), so what they say is known. */
static inline bool
tk_rows_known(const tgroup *g, const kg_group *G)
{
	return G->kept && g->rows_seen != 0 && g->rows_seen == rows_id(G->rows);
}

#endif

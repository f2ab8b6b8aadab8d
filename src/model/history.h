/*
 * history.h: what each group did over time, bounded, for the timeline and
 * for scrubbing back.
 *
 * The tracker (collector thread) writes; the renderer reads through
 * history_view(), which copies the window it asks for under the history's
 * lock, so drawing never races with the collector and never holds the
 * lock while it draws.  Per group the history keeps:
 *  - lanes: one row per member identity (a member that leaves and comes
 *    back with the same client id and host keeps its row and letter);
 *  - ownership samples, stored only when something changed: each lane's
 *    status and each partition's owner;
 *  - rebalance episodes, with per-member revoked / assigned sets;
 *  - lag points, thinned to at most ~600 per window;
 *  - verdict points: the group's progress verdict, at each change, so
 *    scrubbing back shows the verdict the group had then;
 *  - events.
 * Everything older than the window (default one hour) is dropped.
 */
#ifndef KGTOP_MODEL_HISTORY_H
#define KGTOP_MODEL_HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"
#include "model/snapshot.h"

#define KG_LANE_ABSENT 255 /* lane status: not a member at that time */

/* Partition status in a sample. */
typedef enum kg_pstat {
	KG_PSTAT_CONSUMING, /* owned and consumed */
	KG_PSTAT_STOPPED,   /* in flight during a rebalance: nobody consumes it */
	KG_PSTAT_ORPHANED,  /* nobody owns it while the group is stable */
	KG_PSTAT_IDLE,      /* nobody owns it because nobody consumes (Empty group) */
	KG_PSTAT_COUNT
} kg_pstat;

typedef struct kg_lane {
	int lane;
	char letter;            /* A-Z a-z 0-9, then '*' */
	char *client_id;
	char *member_id;        /* latest member id on this lane */
	char *instance_id;
	char *host;
	int64_t first_seen_us;
	int64_t last_seen_us;
	bool present;
	kg_reason last_leave;   /* why it last left, NONE if never */
	char *leave_text;
} kg_lane;

typedef struct kg_sample {
	int64_t time_us;
	kg_group_state state;
	bool in_episode;
	int64_t lag;            /* -1 unknown */
	int nlanes;
	uint8_t *lane_status;   /* kg_member_status, or KG_LANE_ABSENT */
	uint16_t *lane_nassigned;
	int nparts;
	kg_tp *parts;           /* sorted */
	int16_t *owner;         /* lane, -1 none */
	uint8_t *pstat;         /* kg_pstat */
} kg_sample;

typedef struct kg_episode_member {
	int lane;
	char *member_id;        /* the incarnation this record is about (a lane may have several) */
	char *client_id;
	kg_tp *before;          /* assignment when the episode began */
	int nbefore;
	kg_tp *revoked;         /* everything revoked during the episode */
	int nrevoked;
	kg_tp *assigned;        /* everything newly assigned */
	int nassigned;
	kg_revoke_class cls;    /* strongest revoke: FULL beats INCREMENTAL beats NONE */
	int round_revoked;      /* round of its first non-empty revoke, 0 none */
	int round_assigned;     /* round of its last non-empty assignment, 0 none */
	int64_t stopped_us;     /* time it owned nothing (best estimate) */
	kg_span stopped;        /* and within what bounds */
	int64_t partial_us;     /* time it owned part of what it had */
	bool joined;            /* joined during the episode */
	bool left;              /* left during the episode */
} kg_episode_member;

typedef struct kg_episode {
	int64_t id;             /* unique per tracker, increasing */
	int number;             /* 1, 2, 3... per group since kgtop started, in the order they began (stable as the window slides) */
	int32_t group;
	int64_t start_us;       /* when it began (polled: when a refresh first saw it) */
	int64_t start_lo_us;    /* the earliest it can have begun (== start_us when measured; 0 unknown) */
	int64_t end_us;         /* 0 while open */
	int64_t end_lo_us;      /* the earliest it can have ended (== end_us when measured) */
	int rounds;             /* completed generations (SyncGroup rounds) */
	bool rounds_min;        /* rounds is a lower bound: polling alone may have missed a generation */
	int32_t gen_start;      /* -1 unknown */
	int32_t gen_end;
	kg_proto proto;
	kg_reason trigger;
	char *trigger_text;     /* "joined: consumer-d", "left: worker-3 (max.poll.interval)" */
	int members_before;
	int members_after;
	int nfull;              /* members with a full revoke */
	int nincremental;
	int moved;              /* partitions whose owner changed */
	int64_t lag_start;      /* -1 unknown */
	int64_t lag_end;
	int64_t lag_peak;
	kg_evidence evidence;   /* EXACT when callbacks or logs timed it */
	bool end_unseen;        /* KIP-848 from a coordinator's log alone: members' reconciliation after its last line is not seen, the duration is a lower bound */
	/* what it cost (episode_cost_text() says it in words) */
	int nstopped;           /* members that were consuming, stayed, and stopped */
	kg_span stopped_us;     /* their member-microseconds owning nothing */
	int nunconsumed;        /* partitions that had no consuming owner at some time */
	kg_span unconsumed_us;  /* partition-microseconds without a consuming owner */
	kg_span backlog;        /* records produced to those partitions meanwhile (tracker_progress.c; max -1: no upper bound) */
	int nresumed;           /* moved partitions whose new owner's commits moved since (tracker_progress.c) */
	kg_span resumed_us;     /* the longest of their waits from the start, within bounds (max -1: one never resumed) */
	kg_episode_member *members;
	int nmembers;
} kg_episode;

/* A group's progress verdict from a time on. */
typedef struct kg_verdict_point {
	int64_t time_us;
	uint8_t verdict;        /* kg_verdict */
} kg_verdict_point;

/* A copy of one group's history over a window, owned by the caller. */
typedef struct kg_hview {
	int32_t group;
	int64_t t0_us;
	int64_t t1_us;
	int64_t oldest_us;      /* earliest time the history still covers */
	kg_lane *lanes;
	int nlanes;
	kg_sample *samples;     /* time order; samples[0] is the one in effect at t0 */
	int nsamples;
	kg_episode *episodes;   /* overlapping the window, time order */
	int nepisodes;
	int64_t *lag_t;         /* lag points in the window */
	int64_t *lag_v;
	int nlag;
} kg_hview;

typedef struct kg_history kg_history;

/* Create a history keeping window_us of the past (--history). */
kg_history *history_new(int64_t window_us);
/* Free it (only when no one else uses it). */
void history_free(kg_history *h);
/* The configured window. */
int64_t history_window(const kg_history *h);
/* Copy one group's lanes, samples, episodes and lag over [t0, t1]. */
kg_hview *history_view(kg_history *h, int32_t group, int64_t t0_us, int64_t t1_us);
/* Free a view. */
void hview_free(kg_hview *v);
/* The sample in effect at time t in a view, NULL when none. */
const kg_sample *hview_sample_at(const kg_hview *v, int64_t t_us);
/* The lane of a view by index, NULL when out of range. */
const kg_lane *hview_lane(const kg_hview *v, int lane);
/*
 * Copy up to max events, newest first, of one group (or every group with
 * group -1) that are older than before_seq (0: from the newest).  Each
 * returned event carries a reference; returns the count.
 */
int history_events(kg_history *h, int32_t group, uint64_t before_seq, kg_event **out, int max);
/* Copy the episodes of a group (time order) into a view-like list; returns count. */
int history_episodes(kg_history *h, int32_t group, kg_episode **out);
/* Free a list from history_episodes(). */
void episodes_free(kg_episode *v, int n);
/* Time of the start of the next / previous episode of any group after / before t; 0 when none. */
int64_t history_next_episode(kg_history *h, int32_t group, int64_t t_us, int dir);
/* Number of episodes of a group that started in [from_us, to_us). */
int history_episodes_started(kg_history *h, int32_t group, int64_t from_us, int64_t to_us);
/* The verdict a group had at t (the point in effect then); false when the history has none. */
bool history_verdict_at(kg_history *h, int32_t group, int64_t t_us, kg_verdict_point *out);
/* Bytes held, for benchmarks and the debug view. */
size_t history_bytes(kg_history *h);

/* Free what an episode owns (not the struct itself). */
void episode_clear(kg_episode *e);
/* The member record of lane in e (its incarnation that stayed, else the last), NULL when none. */
const kg_episode_member *episode_member(const kg_episode *e, int lane);
/* An episode's duration within bounds (max -1: no upper bound; an open one counts up to now_us). */
kg_span episode_duration(const kg_episode *e, int64_t now_us);

/*
 * Writer side, for the tracker (and tests).  Callers hold the lock
 * (history_lock) around a batch of writes; the reader side locks itself.
 */
/* Take the history's lock. */
void history_lock(kg_history *h);
/* Release it. */
void history_unlock(kg_history *h);
/* Add a lane for a member identity; returns its index. */
int history_lane_add(kg_history *h, int32_t group, const char *client_id, const char *member_id,
		     const char *instance_id, const char *host, int64_t t_us);
/* Give lane (its row and letter) to another member identity, present from t_us. */
void history_lane_reuse(kg_history *h, int32_t group, int lane, const char *client_id, const char *member_id,
			const char *instance_id, const char *host, int64_t t_us);
/* The stored lane (mutable by the writer), NULL when out of range; a group's lanes are one array (lane 0 + i is lane i) until one is added. */
kg_lane *history_lane(kg_history *h, int32_t group, int lane);
/* Number of lanes of a group. */
int history_nlanes(kg_history *h, int32_t group);
/*
 * Store a copy of a sample unless it equals the last one (then only its
 * lag is noted); true when stored.  The caller keeps its arrays: the
 * tracker builds every group's sample in one reused sample, so a group
 * whose picture did not change allocates nothing.
 */
bool history_add_sample(kg_history *h, int32_t group, const kg_sample *s);
/* Store a new episode (copied); returns the stored one, which the writer may update. */
kg_episode *history_add_episode(kg_history *h, const kg_episode *e);
/* Find a stored episode by id, NULL when gone. */
kg_episode *history_episode(kg_history *h, int32_t group, int64_t id);
/*
 * Note each group's verdict as a snapshot has it (the collector, after the
 * tracker made it; takes the lock itself).
 */
void history_add_verdicts(kg_history *h, const kg_snapshot *snap);
/* Add a lag point (thinned to the window / 600). */
void history_add_lag(kg_history *h, int32_t group, int64_t t_us, int64_t lag);
/* Append an event (takes a reference of its own). */
void history_add_event(kg_history *h, kg_event *e);
/* Drop what is older than the window before now_us. */
void history_trim(kg_history *h, int64_t now_us);
/* Count the episodes of a group that started at or after since_us. */
int history_count_episodes(kg_history *h, int32_t group, int64_t since_us);
/* Lag of a group at the point nearest before t (lock held); -1 when none. */
int64_t history_lag_at(kg_history *h, int32_t group, int64_t t_us);
/*
 * Time spent rebalancing by a group within [since, now] (open episodes
 * count up to now), the number of episodes started in it and the rounds of
 * every episode overlapping it (lock held).
 */
int64_t history_rebalancing_time(kg_history *h, int32_t group, int64_t since_us, int64_t now_us, int *count,
				 int *rounds);
/* The episodes of a group that started at or after since_us, oldest first, the newest max of them (lock held); their number. */
int history_episodes_since(kg_history *h, int32_t group, int64_t since_us, const kg_episode **out, int max);
/* The last episode of a group (lock held), NULL when none. */
kg_episode *history_last_episode(kg_history *h, int32_t group);

#endif

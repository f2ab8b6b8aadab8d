/*
 * progress.h: is each partition making progress?  Verdicts, time lag and
 * rates, from what polling sees: committed offsets, log-end and log-start
 * offsets, and (for the selected group) the timestamp of the record at a
 * committed offset.
 *
 * The verdict of a group on a partition over the window W (--lag-window),
 * judged at the time of the group's data, first rule that holds:
 *   1. no committed offset or no log-end, or no observation: none ("-",
 *      nothing to judge);
 *   2. LOST: the committed offset is below the log start (retention deleted
 *      log-start - committed records before the group consumed them);
 *   3. OK: no lag now;
 *   4. frozen with lag since S (below): STOPPED when S is W or more ago
 *      (no commit for longer than the window), STALLED when it is the stall
 *      threshold or more ago (W / 10, at least two refresh intervals and
 *      twice the partition's usual time between commits, so a consumer
 *      that commits every 5 s is not stalled at 4 s); both "since S".
 *      A freeze not yet past that threshold when the group's last
 *      rebalance began is not judged while the rebalance is open, and
 *      counts from its end once it closed: commits pause in a rebalance
 *      (the coordinator refuses them, clients hold them) whether or not
 *      the members consume, and the episode already shows the stop;
 *   5. PENDING, not judged yet: lag, and the committed offset was never
 *      seen moving (neither by kgtop's refreshes nor by a commit a source
 *      told): one look says nothing of progress, so this is never OK.
 *      It is judged once S is past the threshold (STALLED), or at its
 *      first move (then by the rules below);
 *   6. REWIND: the committed offset went back within the window;
 *   7. SLOW: commits move, but the lag grew at every commit sample (one
 *      per W / 8 at most) for half the window or more (three samples at
 *      least), with no observation without lag in the window;
 *   8. OK.
 *
 * S, when the partition began to be frozen with lag, is the later of F,
 * when its committed offset got to where it is, and L, when the log-end
 * passed it (the first record to consume was written).  Each is known
 * within bounds, from the best evidence there is:
 *   F: a commit a source told with its time (progress_commit(): exact when
 *      it moved the offset, else at or before it); kgtop's refreshes that
 *      saw it move (between the observation before and that one); never
 *      seen moving: at or before kgtop's first look, how long before is
 *      not known;
 *   L: the timestamp of the record at the committed offset (the exact time
 *      lag: the record was written then); kgtop's refreshes (after the
 *      last one without lag, at or before the first one with).
 * So S is judged by its latest possible time (a verdict never claims a
 * stall longer than proven), and said with its earliest: the record's
 * time bounds how long a stall can be, and without a lower bound the
 * since is "before kgtop's first look".  One refresh therefore judges a
 * stall only when a source told an old commit and the record waiting is
 * older than the threshold; a record's age alone does not (a consumer
 * working through a backlog commits, yet its next record is old).
 * kgtop sees commits only at its refreshes: a move's time is known to
 * the precision of two observations (moved_lo_us .. moved_us).
 *
 * Time lag (how long ago the next record to consume was written):
 *  - exact: now minus the timestamp of the record at the committed offset
 *    (the cluster source reads it for the selected group); a timestamp
 *    ahead of kgtop's clock gives 0, said as clock skew;
 *  - estimate ("~"): when the log-end passed the committed offset, by
 *    interpolation between kgtop's own samples of the log-end around it;
 *    older than the oldest sample: "at least" its age (also with one
 *    sample: a log-end standing still keeps only its first);
 *  - none, with the reason: offsets unknown, nothing sampled before now, the record
 *    deleted (LOST), no records, a compacted gap, no timestamp, or no
 *    answer (the last four from the read, when no estimate stands in).
 *
 * Memory is bounded per partition: a group's partition keeps a fixed
 * kg_pstate (no list of samples: the rules need only the last
 * observation without lag, two rate anchors, a 16-step sparkline; the last
 * move, the usual time between commits, one commit sample and the run of
 * growing lag in a kg_pmove made at its first move; the last rewind and
 * the commits a source told, which few partitions have, in a kg_prare
 * made for those), a topic partition
 * KG_LE_SAMPLES log-end samples, thinned as they age.
 *
 * The rules (progress_observe, progress_verdict, progress_le_add,
 * progress_time_lag) are pure functions, unit-tested one by one; the
 * kg_progress keeps their state for the tracker, which turns verdict
 * changes into events and frozen commits into silent members.
 */
#ifndef KGTOP_MODEL_PROGRESS_H
#define KGTOP_MODEL_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

#define KG_LE_SAMPLES 12 /* log-end samples kept per topic partition */
#define KG_SLOW_SAMPLES 8 /* commit samples per window, for SLOW */
#define KG_OVERDUE_GAPS 3 /* commits overdue after this many of a partition's usual gaps between them */

/*
 * What few partitions have: the commits a source told (__consumer_offsets'
 * records) and the last rewind.  A kg_pstate holds it behind a pointer,
 * made by the first such fact (40 of a kg_pstate's 200 bytes were these,
 * unused by most partitions: 8 MB at 200,000 group partitions).
 */
typedef struct kg_prare {
	int64_t cmt_off;    /* the offset of the last commit a source told, -1 none */
	int64_t cmt_at;     /* when the offset became cmt_off (that commit's time) */
	int64_t cmt_last;   /* the last commit told (a commit of the same offset too) */
	int64_t rewind_us;  /* the last observation at which it had gone back, 0 never */
	int64_t rewind_lo_us; /* the observation before that one */
	int64_t rewind_by;  /* by how many records */
	bool cmt_moved;     /* cmt_at is the commit that moved it (one of another offset was told before) */
} kg_prare;

/*
 * What a partition keeps once kgtop saw its committed offset move: the
 * last move, the usual time between moves, the commit samples of SLOW and
 * the committed offsets of the rate's anchors (until the first move both
 * are the committed offset).  Most group partitions of a cluster (those of
 * Empty groups, of idle consumers) never move: a kg_pstate holds this
 * behind a pointer, made by the first move (56 of its 160 bytes were
 * these: 11 MB at 200,000 group partitions).
 */
typedef struct kg_pmove {
	int64_t move_us;    /* the last observation at which the committed offset had moved */
	int64_t move_lo_us; /* the observation before that one */
	int64_t gap_us;     /* its usual time between moves (a moving average), 0 unknown */
	int64_t sample_us;  /* the last commit sample, 0 none */
	int64_t sample_lag; /* and its lag */
	int64_t slow_us;    /* the first sample of a run whose lag grew at every sample, 0 none */
	int64_t anchor_c, anchor2_c; /* the committed offsets at the rate's anchors (kg_pstate) */
	int32_t slow_n;     /* samples in that run */
} kg_pmove;

/* What the rules remember of one group's partition between observations (104 bytes; progress_state_free). */
typedef struct kg_pstate {
	int64_t committed;  /* at the last observation, -1 none */
	int64_t seen_us;    /* the last observation's data time, 0 never */
	int64_t first_us;   /* the first's */
	int64_t lag_from_us; /* the first observation with lag at this committed offset since it moved or had none, 0 none */
	int64_t zero_us;    /* the last observation without lag, 0 never */
	int64_t anchor_us, anchor2_us; /* the consume rate counts from here, and the next anchor (their offsets: kg_pmove) */
	int64_t spark_at;   /* the window step of the newest sparkline cell */
	kg_pmove *move;     /* its moves, NULL never seen moving */
	kg_prare *rare;     /* told commits and the last rewind, NULL none of either yet */
	uint8_t verdict;    /* the last verdict given (kg_verdict) */
	uint8_t spark[KG_SPARK];
} kg_pstate;

/*
 * kgtop's samples of one partition's log-end, oldest first: t and le in one
 * allocation of cap pairs, grown up to KG_LE_SAMPLES (a partition whose
 * log-end stands still keeps one: at 10,000 groups --once held 200 bytes of
 * fixed arrays per topic partition, 4.4 MB of its heap, for one sample).
 * All zero is empty; progress_le_free frees it.
 */
typedef struct kg_lesamples {
	int64_t *t;
	int64_t *le; /* t + cap */
	int n, cap;
} kg_lesamples;

/* ---------------------------------------------------------------- rules */

/* Reset a partition's state (no observation yet; what it held is not freed: progress_state_free). */
void progress_state_init(kg_pstate *st);
/* Free what a partition's state holds (its kg_prare); it is then as progress_state_init leaves it. */
void progress_state_free(kg_pstate *st);
/* One observation at data time t: the committed offset and the log-end then. */
void progress_observe(kg_pstate *st, int64_t t, int64_t committed, int64_t log_end, int64_t window_us);
/* A commit a source told (issue 23: __consumer_offsets): offset at broker time t, in the log's order. */
void progress_commit(kg_pstate *st, int64_t t, int64_t offset);
/* The stall threshold for a window and a refresh interval (0: one second). */
int64_t progress_stall_us(int64_t window_us, int64_t interval_us);
/* What a judgement looks at besides the partition's state. */
typedef struct kg_judge_in {
	int64_t t;                  /* the data's time */
	int64_t committed, log_end, log_start; /* -1 unknown */
	int64_t window_us, stall_us;
	int64_t reb_start, reb_end; /* the group's last rebalance (reb_end 0 while open, reb_start 0 none) */
	int64_t record_us;          /* the timestamp of the record at committed (the exact time lag's), 0 unknown */
} kg_judge_in;

/* A verdict and since when it holds: [since_lo, since_hi] (0 unknown), named by what bounds it. */
typedef struct kg_judgement {
	kg_verdict verdict;
	int64_t since_lo, since_hi;
	kg_since_kind kind;
	int64_t frozen_hi;          /* frozen with lag since (S), at the latest; 0 moving or without lag */
} kg_judgement;

/* Judge a partition (the rules above). */
void progress_judge(const kg_pstate *st, const kg_judge_in *in, kg_judgement *out);
/*
 * The verdict at data time t with its since (at the latest) in *since (0
 * none): progress_judge() without a record read.
 */
kg_verdict progress_verdict(const kg_pstate *st, int64_t t, int64_t committed, int64_t log_end, int64_t log_start,
			    int64_t window_us, int64_t stall_us, int64_t reb_start, int64_t reb_end, int64_t *since);
/* Records per second the committed offset moved over the window, < 0 unknown. */
double progress_consume_rate(const kg_pstate *st);
/* Add the lag at time t to the sparkline (its step is window / KG_SPARK). */
void progress_spark(kg_pstate *st, int64_t t, int64_t lag, int64_t window_us);
/* A lag as a sparkline level: 1 none, 2.. four steps per doubling. */
uint8_t progress_spark_level(int64_t lag);

/* A log-end sample at t; samples older than keep_us before t go, the rest are thinned (recent ones kept dense);
 * true when the samples changed. */
bool progress_le_add(kg_lesamples *s, int64_t t, int64_t log_end, int64_t keep_us);
/* Free a partition's samples (then empty). */
void progress_le_free(kg_lesamples *s);
/* Records per second the log-end grew over the window before now, < 0 unknown. */
double progress_produce_rate(const kg_lesamples *s, int64_t now_us, int64_t window_us);
/* The estimate alone: when the log-end passed committed, by the samples (kind, lag, reason). */
kg_tlag_kind progress_interpolate(const kg_lesamples *s, int64_t committed, int64_t now_us, int64_t *lag_us,
				  kg_tlag_why *why);
/*
 * The time lag at now of a committed offset: exact from the stamp when it
 * is the record at committed, else the estimate (the read's failure kept
 * as the reason), else none with the reason.  stamp and s may be NULL.
 */
kg_tlag_kind progress_time_lag(const kg_lesamples *s, const kg_stamp *stamp, int64_t committed, int64_t log_end,
			       int64_t log_start, int64_t now_us, int64_t *lag_us, kg_tlag_why *why);

/* ---------------------------------------------------------- the state */

typedef struct kg_progress kg_progress;

/* A partition's verdict changed (the index of the group's partition). */
typedef struct kg_vchange {
	int part;
	uint8_t from, to;
	uint8_t kind;          /* of since (kg_since_kind) */
	int64_t since, since_lo;
} kg_vchange;

/* Keep state for a window (--lag-window) and log-end samples for keep_us (--history). */
kg_progress *progress_new(int64_t window_us, int64_t keep_us);
/* Free it. */
void progress_free(kg_progress *p);
/* The window. */
int64_t progress_window(const kg_progress *p);
/* Take the snapshot's log-end samples (once per refresh of the cluster's data); s stays read for this apply. */
void progress_topics(kg_progress *p, const kg_snapshot *s);
/*
 * Judge one group of the snapshot given to progress_topics(), whose last
 * rebalance is [reb_start, reb_end] (as progress_verdict): fill its
 * partitions' verdicts, time lags, rates and sparklines and its roll-ups
 * (not the members': they need owners); the verdict changes go to *ch
 * (grown as needed), their count returned.  With may_rest, a group whose
 * kept rows (rows.h) a judgement would write the same is left as it is:
 * its roll-ups as they were, -1 returned.
 */
int progress_group(kg_progress *p, kg_group *G, int64_t now_us, int64_t interval_us, int64_t reb_start, int64_t reb_end,
		   bool may_rest, kg_vchange **ch, size_t *cap);
/* A commit a source told (progress_commit) of a group's partition. */
void progress_group_commit(kg_progress *p, int32_t group, kg_tp tp, int64_t t, int64_t offset);
/*
 * A partition's log-end at t as kgtop's samples bound it (it only grows):
 * within [*lo, *hi]; false when *lo is not known (no sample that early).
 */
bool progress_le_bounds(const kg_progress *p, kg_tp tp, int64_t t, int64_t *lo, int64_t *hi);
/*
 * Commits overdue: how long a partition with lag may go without its
 * committed offset moving before its consumer is taken to have stopped:
 * KG_OVERDUE_GAPS of its own usual time between commits (auto-commit every
 * 5 s: 15 s; a commit per batch polled every second: 3 s), at least two
 * refresh intervals; the stall threshold while its pace is not known.
 */
int64_t progress_overdue_us(int64_t gap_us, int64_t stall_us, int64_t interval_us);
/*
 * The progress_group() calls from now are the last (--once): each group's
 * partition states are freed once it is judged (20 MB at 200,000 group
 * partitions that nothing reads after); a later call starts them anew.
 */
void progress_set_last(kg_progress *p);
/* Forget a group that went away. */
void progress_forget(kg_progress *p, int32_t group);
/* Bytes held (the note's bytes per partition). */
size_t progress_bytes(const kg_progress *p);
/* Group partitions and topic partitions held. */
void progress_counts(const kg_progress *p, size_t *gparts, size_t *tparts);

#endif

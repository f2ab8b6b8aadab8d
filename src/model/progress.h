/*
 * progress.h: is each partition making progress?  Verdicts, time lag and
 * rates, from what polling sees: committed offsets, log-end and log-start
 * offsets, and (for the selected group) the timestamp of the record at a
 * committed offset.
 *
 * The verdict of a group on a partition over the window W (--lag-window),
 * judged at the time of the group's data, first rule that holds:
 *   1. no committed offset or no log-end, or lag while the committed
 *      offset was never seen moving and kgtop has not watched it for the
 *      stall threshold yet (one refresh tells nothing of progress): none
 *      ("-", not judged);
 *   2. LOST: the committed offset is below the log start (retention deleted
 *      log-start - committed records before the group consumed them);
 *   3. OK: no lag now;
 *   4. the committed offset has not moved since F (its last move, or the
 *      first observation, or the last observation with no lag if that is
 *      later) while there is lag: STOPPED when F is W or more ago (no
 *      commit for longer than the window), STALLED when it is the stall
 *      threshold or more ago (W / 10, at least two refresh intervals and
 *      twice the partition's usual time between commits, so a consumer
 *      that commits every 5 s is not stalled at 4 s); both "since F".
 *      A freeze not yet past that threshold when the group's last
 *      rebalance began is not judged while the rebalance is open, and
 *      counts from its end once it closed: commits pause in a rebalance
 *      (the coordinator refuses them, clients hold them) whether or not
 *      the members consume, and the episode already shows the stop;
 *   5. REWIND: the committed offset went back within the window;
 *   6. SLOW: commits move, but the lag grew at every commit sample (one
 *      per W / 8 at most) for half the window or more (three samples at
 *      least), with no observation without lag in the window;
 *   7. OK.
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
 * kg_pstate (no list of samples: the rules need only the last move, the
 * last observation without lag, the last rewind, the usual time between
 * commits, one commit sample and
 * the run of growing lag, two rate anchors, a 16-step sparkline), a topic
 * partition KG_LE_SAMPLES log-end samples, thinned as they age.
 *
 * The rules (progress_observe, progress_verdict, progress_le_add,
 * progress_time_lag) are pure functions, unit-tested one by one; the
 * kg_progress keeps their state for the tracker, which turns verdict
 * changes into events and frozen commits into silent members.
 */
#ifndef KGTOP_MODEL_PROGRESS_H
#define KGTOP_MODEL_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

#define KG_LE_SAMPLES 12 /* log-end samples kept per topic partition */
#define KG_SLOW_SAMPLES 8 /* commit samples per window, for SLOW */

/* What the rules remember of one group's partition between observations. */
typedef struct kg_pstate {
	int64_t committed;  /* at the last observation, -1 none */
	int64_t seen_us;    /* the last observation's data time, 0 never */
	int64_t first_us;   /* the first's */
	int64_t move_us;    /* the last observation at which the committed offset had moved, 0 never */
	int64_t move_lo_us; /* the observation before that one */
	int64_t gap_us;     /* its usual time between moves (a moving average), 0 unknown */
	int64_t zero_us;    /* the last observation without lag, 0 never */
	int64_t rewind_us;  /* the last observation at which it had gone back, 0 never */
	int64_t rewind_by;  /* by how many records */
	int64_t sample_us;  /* the last commit sample, 0 none */
	int64_t sample_lag; /* and its lag */
	int64_t slow_us;    /* the first sample of a run whose lag grew at every sample, 0 none */
	int64_t anchor_us, anchor_c;   /* the consume rate counts from here */
	int64_t anchor2_us, anchor2_c; /* the next anchor */
	int64_t spark_at;   /* the window step of the newest sparkline cell */
	int32_t slow_n;     /* samples in that run */
	uint8_t verdict;    /* the last verdict given (kg_verdict) */
	uint8_t spark[KG_SPARK];
} kg_pstate;

/* kgtop's samples of one partition's log-end, oldest first. */
typedef struct kg_lesamples {
	int64_t t[KG_LE_SAMPLES];
	int64_t le[KG_LE_SAMPLES];
	int n;
} kg_lesamples;

/* ---------------------------------------------------------------- rules */

/* Reset a partition's state (no observation yet). */
void progress_state_init(kg_pstate *st);
/* One observation at data time t: the committed offset and the log-end then. */
void progress_observe(kg_pstate *st, int64_t t, int64_t committed, int64_t log_end, int64_t window_us);
/* The stall threshold for a window and a refresh interval (0: one second). */
int64_t progress_stall_us(int64_t window_us, int64_t interval_us);
/*
 * The verdict at data time t (the rules above), with its since in *since
 * (0 none); log_start -1 when unknown; the group's last rebalance
 * [reb_start, reb_end] (reb_end 0 while open, reb_start 0 none): a freeze
 * not yet overdue when it began is not judged while it is open, and counts
 * from its end after.
 */
kg_verdict progress_verdict(const kg_pstate *st, int64_t t, int64_t committed, int64_t log_end, int64_t log_start,
			    int64_t window_us, int64_t stall_us, int64_t reb_start, int64_t reb_end, int64_t *since);
/* Records per second the committed offset moved over the window, < 0 unknown. */
double progress_consume_rate(const kg_pstate *st);
/* Add the lag at time t to the sparkline (its step is window / KG_SPARK). */
void progress_spark(kg_pstate *st, int64_t t, int64_t lag, int64_t window_us);
/* A lag as a sparkline level: 1 none, 2.. four steps per doubling. */
uint8_t progress_spark_level(int64_t lag);

/* A log-end sample at t; samples older than keep_us before t go, the rest are thinned (recent ones kept dense). */
void progress_le_add(kg_lesamples *s, int64_t t, int64_t log_end, int64_t keep_us);
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
	int64_t since;
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
 * (grown as needed), their count returned.
 */
int progress_group(kg_progress *p, kg_group *G, int64_t now_us, int64_t interval_us, int64_t reb_start, int64_t reb_end,
		   kg_vchange **ch, size_t *cap);
/* Forget a group that went away. */
void progress_forget(kg_progress *p, int32_t group);
/* Bytes held (the note's bytes per partition). */
size_t progress_bytes(const kg_progress *p);
/* Group partitions and topic partitions held. */
void progress_counts(const kg_progress *p, size_t *gparts, size_t *tparts);

#endif

/*
 * tracker.h: derivation between consecutive snapshots, plus observations.
 *
 * The tracker is the model's memory.  Fed each new snapshot together with
 * the observations gathered since the previous one, it:
 *  - finds members that joined and left, state changes, groups that
 *    appeared or went away;
 *  - opens a rebalance episode at the first evidence (a non-Stable state,
 *    a membership change, an assignment change, a revoke callback, a
 *    coordinator log line) and closes it when the group is Stable again
 *    with every partition owned; a cooperative rebalance whose first round
 *    ends Stable with the moving partitions owned by nobody stays ONE
 *    episode of two rounds;
 *  - records per member what was revoked and assigned and classifies each
 *    revoke as full (the whole non-empty assignment held just before) or
 *    incremental (a non-empty proper subset).  Broker-side a non-Stable
 *    classic group is described without assignments: that is not read as
 *    a revoke.  Eager members revoke everything by protocol; cooperative
 *    members revoke what they had minus what they have; callbacks, when a
 *    source reports them, are taken as they are;
 *  - tracks orphaned partitions, idle members, stopped time per member,
 *    storms, lag and what each rebalance cost in lag, and member health
 *    against session.timeout.ms and max.poll.interval.ms;
 *  - annotates the snapshot (lanes, member status and health, group
 *    summaries) before it is published, and appends to the history.
 * It is a pure function of its inputs and their timestamps: it never
 * reads a clock, so a replay derives exactly what the live run did.
 */
#ifndef KGTOP_MODEL_TRACKER_H
#define KGTOP_MODEL_TRACKER_H

#include <stdint.h>

#include "model/event.h"
#include "model/history.h"
#include "model/obs.h"
#include "model/snapshot.h"

/*
 * The tracker's settings, as the options (core/options.h: options_model())
 * or a recording give them: the tracker reads what it is handed and has
 * no defaults of its own but for the two constants no option sets.
 */
typedef struct kg_tracker_config {
	int64_t window_us;           /* history kept (--history) */
	int64_t storm_window_us;     /* --storm-window */
	int storm_episodes;          /* episodes within the storm window that make a storm (--storm-rebalances) */
	double storm_ratio;          /* share of the window spent rebalancing that makes a storm; 0: 0.5 */
	int64_t session_timeout_us;  /* --session-timeout: Kafka's default unless the user set it */
	kg_limit_src session_src;    /* CONFIG when the user set it */
	int64_t max_poll_us;         /* --max-poll-interval, likewise */
	kg_limit_src max_poll_src;
	int64_t orphan_grace_us;     /* how long a Stable group may leave partitions unowned
	                                before the episode closes with them orphaned; 0: 30 s */
	int64_t lag_window_us;       /* progress verdicts' window (--lag-window); < 0: no verdicts (a recording older than them) */
	bool derive_all;             /* no shortcut for groups whose input did not change (tests compare the two) */
} kg_tracker_config;

typedef struct kg_tracker kg_tracker;

/* Create a tracker with the settings cfg gives. */
kg_tracker *tracker_new(const kg_tracker_config *cfg);
/* Free the tracker and its history. */
void tracker_free(kg_tracker *t);
/* The history the tracker writes. */
kg_history *tracker_history(kg_tracker *t);
/*
 * Fold obs (consumed and emptied) and the new snapshot snap (annotated in
 * place; it must not be published yet) into the model; new events are
 * appended to out with one reference each, in time order.
 */
void tracker_apply(kg_tracker *t, kg_obsq *obs, kg_snapshot *snap, kg_evlist *out);
/*
 * The next tracker_apply() is the last (--once, collector_set_once): what
 * it keeps only for the snapshots after it goes as soon as it is used (a
 * group's partition states, once the group is judged); a later apply
 * still works, as if those were new.
 */
void tracker_last_apply(kg_tracker *t);

#endif

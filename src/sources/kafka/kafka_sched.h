/*
 * kafka_sched.h: which groups the kafka source asks about in a refresh
 * (pure code: no librdkafka, no clock of its own; tested alone).
 *
 * librdkafka 2.0.2 sends one DescribeGroups and one OffsetFetch per group,
 * each after its own FindCoordinator: about 4 requests per group.  A
 * refresh therefore asks only what can have changed or what somebody looks
 * at, in this order, while a request budget (--max-requests per second,
 * saved up for at most two seconds) lasts:
 *   1. the selected group and the watched ones (always, even in debt);
 *   2. groups whose listed state changed since their last description, or
 *      that are rebalancing (listed, or last described, so);
 *   3. groups a trace stream just spoke of;
 *   4. groups at risk (members, and lag) whose last answer left a
 *      partition with lag where the answer before it had it: a freeze may
 *      be under way, and the STALLED rule fires a refresh after its
 *      threshold only if the group is asked every refresh;
 *   5. the groups on screen that can change between two refreshes (at
 *      risk, not settled); the other groups on screen when their data is
 *      KSCHED_QUIET_US old;
 *   6. groups never asked, then the rotation: the oldest data first, just
 *      fast enough to ask every group again within --full-refresh, faster
 *      only for groups already that old; without a screen (--json), when
 *      the budget covers every group, all of them every refresh;
 *   7. with the budget that is left, the other groups at risk, the oldest
 *      offsets first: each every refresh when the budget covers them (a
 *      freeze is then seen within the STALLED rule's threshold and two
 *      refreshes, on screen or not), else as often as it does.  The rule
 *      counts a freeze from the first answer that gave its offset, so a
 *      group asked every k refreshes is judged up to k refreshes late.
 *      Empty groups and groups at zero lag off screen only ever get the
 *      rotation.
 * While the budget is short of the groups at risk (a plan left some of them
 * unasked, until one leaves room for the descriptions it left out), a
 * group at risk off screen (none of KSCHED_SCREEN_FLAGS) is asked its
 * committed offsets alone (an OffsetFetch, no description) while its
 * description is younger than KSCHED_QUIET_US and the listing shows it in
 * the state it was described in (known, not rebalancing): a freeze shows
 * in its offsets, which the progress rules judge by their own time
 * (kg_group.offs_time_us); a change of its members shows in the listing
 * (2.: described at once), and it is described again once its
 * description is KSCHED_QUIET_US old.  So it costs one request an asking,
 * not two: at 10,000 groups, 1,000 at risk and 1,500 requests a second,
 * each is asked about every 2.4 s, at most 3 (every 4 before), not yet every refresh
 * (that needs about 1,000 + 100 descriptions + the rotation's 620 a
 * second, more than the 85 % of the budget the plan counts on).
 * What a group costs counts the FindCoordinator librdkafka sends before
 * each request for a group whose coordinator it does not keep: it keeps
 * cfg.coord_cache groups, the least recently asked going first (11 in
 * librdkafka, 4,096 in the bundled build: deps/librdkafka.sh), so a group
 * asked again before that many others were is charged its requests alone.
 * On a screen, a group at risk is settled when a lagging partition's committed offset
 * has stood still in every answer for cfg.settle_us (the STALLED rule's
 * threshold and two refreshes) and twice the group's gap between commits
 * as the answers saw it (the rule waits that long too): its verdict is
 * STALLED by then, and asking it every refresh would only tell it again.
 * It is asked (in 4., 5. and 7.) once its data is KSCHED_QUIET_US old: its committed offsets alone
 * while its description is younger than KSCHED_SETTLED_DESC_US and the listing shows it in the
 * state it was described in (not selected, watched or spoken of by a trace), its description once
 * that old (it tells the members, which a rebalance changes, shown by the listing, or a static
 * member's restart, seen within KSCHED_SETTLED_DESC_US).  Its recovery (commits moving again) is
 * then seen within KSCHED_QUIET_US and a refresh; a change of its members
 * at once (the listing's state, 2.); selected, every refresh.  A group
 * on screen without members or without lag cannot change between two
 * refreshes but by an offset reset or a commit outside a membership (a
 * lag appears when its log end moves: then it is at risk), so it too is
 * asked once its data is KSCHED_QUIET_US old.
 * A group listed Empty is never described (the listing says all a
 * description would: no members) unless it is selected or its last
 * description said otherwise; its committed offsets are still asked on the
 * rotation (an offset reset needs an Empty group).  With `everything`
 * (--once, --check) every group is asked and the budget is ignored.
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_SCHED_H
#define KGTOP_SOURCES_KAFKA_KAFKA_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

#define KSCHED_SELECTED 0x1u /* the dashboard's selected group */
#define KSCHED_FOCUS 0x2u    /* on screen */
#define KSCHED_HOT 0x4u      /* a trace stream spoke of it since the last refresh */
#define KSCHED_WATCHED 0x8u  /* followed by its offsets only (kafka_source_watch) */
#define KSCHED_MEMBERS 0x10u /* has members (listed or described so): a consumer that can stall */
#define KSCHED_LAG 0x20u     /* its last committed offsets have lag against the newest log-ends */
#define KSCHED_STILL 0x40u   /* its last answer left a partition with lag where the one before had it */
#define KSCHED_SCREEN_FLAGS (KSCHED_SELECTED | KSCHED_FOCUS | KSCHED_HOT | KSCHED_WATCHED)

#define KSCHED_COST_DESCRIBE 2 /* FindCoordinator + DescribeGroups */
#define KSCHED_COST_DESCRIBE_TWICE 4 /* librdkafka >= 2.10, a classic group on a broker with ConsumerGroupDescribe:
                                       FindCoordinator + ConsumerGroupDescribe, then FindCoordinator + DescribeGroups */
#define KSCHED_COST_OFFSETS 2  /* FindCoordinator + OffsetFetch */

#define KSCHED_QUIET_US (10 * 1000000LL) /* how old a settled group's or a quiet shown group's data gets */
#define KSCHED_SETTLED_DESC_US (60 * 1000000LL) /* how old a settled freeze's description gets (its offsets: QUIET) */

#define KSCHED_COORD_CACHE_RDKAFKA 11   /* groups whose coordinator librdkafka keeps (rdkafka_coord.c) */
#define KSCHED_COORD_CACHE_BUNDLED 4096 /* in the bundled build (deps/librdkafka-coord-cache.patch) */

/* One group as the scheduler sees it; describe and offsets are its answer. */
typedef struct ksched_group {
	int32_t id;                   /* interned group id (breaks ties) */
	kg_group_state listed;        /* in this refresh's listing; UNKNOWN when the broker does not say */
	kg_group_state described;     /* in its last description; UNKNOWN when never described */
	int64_t desc_us;              /* when it was last described, 0 never */
	int64_t offs_us;              /* when its committed offsets were last asked, 0 never */
	int64_t still_us;             /* of its lagging partitions whose offset earlier answers gave too, the first such
					 answer (the oldest freeze), 0 none (kafka_table_publish) */
	int64_t gap_us;               /* about the longest time between its commits the answers saw, kept through a freeze
					 (kafka_table_offsets) */
	unsigned flags;               /* KSCHED_*: the first four from the screen and the watches each refresh,
					 the others from the group's own data (kafka_table_publish) */
	bool undescribable;           /* a description tells nothing (a consumer group through librdkafka < 2.10) */
	uint8_t describe_cost;        /* requests a description costs, 0: KSCHED_COST_DESCRIBE */
	uint64_t asked_seq;           /* ksched.asked when a plan last took it, 0 never: is its coordinator still kept */
	bool describe;                /* out: describe it now */
	bool offsets;                 /* out: ask its committed offsets now */
} ksched_group;

typedef struct ksched_config {
	int64_t full_refresh_us; /* every group asked at least this often (--full-refresh) */
	double max_requests;     /* per second (--max-requests) */
	bool everything;         /* --once / --check: every group, no budget */
	int64_t settle_us;       /* a freeze this old is settled (the STALLED rule's threshold + two refreshes), 0 never */
	int coord_cache;         /* groups whose coordinator librdkafka keeps (KSCHED_COORD_CACHE_*), 0: none kept */
} ksched_config;

typedef struct ksched {
	ksched_config cfg;
	bool paced;      /* a screen said what it shows: never more than the --full-refresh pace */
	double tokens;   /* requests the budget still allows */
	double carry;    /* the paced rotation's share not yet spent (requests) */
	int64_t last_us; /* the previous plan, 0 none */
	uint64_t asked;  /* groups the plans took so far (each group once a plan) */
	int plan_asked;  /* of them, in this plan */
	int last_asked;  /* in the plan before, -1 none */
	int ngroups;     /* the groups this plan was handed */
	unsigned plans;  /* plans made */
	bool lean;       /* the budget is short of the groups at risk: off screen, their offsets alone (see above) */
	double spared;   /* in this plan, the requests descriptions left out that way would have cost */
} ksched;

/* What a plan asks. */
typedef struct ksched_plan {
	int describe;      /* groups to describe */
	int offsets;       /* groups whose offsets to ask */
	int requests;      /* the requests that makes (KSCHED_COST_*) */
	int risk;          /* of the groups asked, at risk (members and lag) */
	int risk_left;     /* groups at risk left unasked */
	int64_t oldest_us; /* the oldest data left unasked (min of its times), 0 none */
} ksched_plan;

/* Start a scheduler. */
void kafka_sched_init(ksched *s, const ksched_config *cfg);
/* Say whether a screen tells what it shows (the rotation at its pace) or not (all groups when the budget covers them). */
void kafka_sched_paced(ksched *s, bool paced);
/* Say that librdkafka keeps no coordinator now (a new client handle): every group's next request looks its coordinator up. */
void kafka_sched_coords_forgotten(ksched *s);
/* True when a group is at risk: members, lag (a consumer that can stall). */
bool kafka_sched_at_risk(const ksched_group *g);
/* True when, paced, a group at risk has had a lagging partition stand still for cfg.settle_us and twice its gap_us at now_us. */
bool kafka_sched_settled(const ksched *s, const ksched_group *g, int64_t now_us);
/*
 * How often a plan at now_us means to ask a group, the budget allowing:
 * KSCHED_QUIET_US for one a screen needs only at that pace (a settled
 * freeze, or neither members nor lag: on screen it is asked once its data
 * is that old, off screen it is, once shown), 0 for every refresh (the
 * selected and watched groups, a group at risk that is not settled, and
 * every group without a screen).  The list shows a row's age only past it.
 */
int64_t kafka_sched_pace(const ksched *s, const ksched_group *g, int64_t now_us);
/* True when a group needs describing at all (not when listed Empty and last described Empty, or never). */
bool kafka_sched_needs_describe(const ksched_group *g);
/*
 * Plan the refresh at now_us over n groups (fills each describe and
 * offsets); fixed_cost is what the refresh asks anyway (metadata, listing,
 * log-end offsets), taken from the budget first.
 */
ksched_plan kafka_sched_plan(ksched *s, ksched_group *g, size_t n, int64_t now_us, int fixed_cost);

#endif

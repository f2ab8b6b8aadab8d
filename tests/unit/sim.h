/*
 * sim.h: a simulated consumer group for the property test of kgtop's
 * bounds (test_bounds.c): members and partitions run a random schedule of
 * joins, leaves, crashes, stalls and commits under the classic group
 * protocol (eager or cooperative), on a grid of SIM_STEP; the simulator
 * keeps the truth (each rebalance episode's start, end, generations, the
 * member- and partition-time without consuming, the records produced
 * meanwhile) and answers what a DescribeGroups, an OffsetFetch and a
 * ListOffsets would say at any step: the only things a polling kgtop sees.
 */
#ifndef KGTOP_TESTS_SIM_H
#define KGTOP_TESTS_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"

#define SIM_STEP 10000LL   /* the grid: 10 ms */
#define SIM_MAXP 6         /* partitions at most */
#define SIM_MAXPODS 5      /* consumers (identities) at most */
#define SIM_MAXM 64        /* member incarnations at most */
#define SIM_MAXEP 64       /* true episodes at most */
#define SIM_MAXEV 12       /* scheduled events at most */

/* What happens to a consumer at a time. */
typedef enum sim_what { SIM_JOIN, SIM_LEAVE, SIM_CRASH, SIM_STALL } sim_what;

/* A scheduled event. */
typedef struct sim_event {
	int64_t at;
	int pod;
	sim_what what;
} sim_event;

/* One member id (a consumer's incarnation). */
typedef struct sim_member {
	int pod;
	char id[40];
	bool alive;          /* heartbeats (a crash stops them) */
	bool stalled;        /* polls no more (heartbeats go on) */
	bool in_group;       /* the coordinator has it */
	bool joined;         /* sent its JoinGroup for the generation being formed */
	bool rejoin;         /* revoked partitions in the last generation: rejoins at once */
	int64_t learn_at;    /* learns of the rebalance then (its next heartbeat), 0 none */
	int64_t remove_at;   /* the coordinator removes it then (session or poll timeout), 0 none */
	unsigned owned;      /* partitions it consumes (bits) */
	unsigned assigned;   /* the coordinator's assignment of the last generation */
	int64_t commit_every, next_commit;
	bool at_start;       /* consuming when the open episode began */
	int64_t stop_from;   /* owns nothing since (in an episode), -1 not */
	int64_t stopped;     /* time owning nothing in the open episode */
} sim_member;

#define SIM_MAXLINES 256   /* coordinator log lines kept */

/* A line the coordinator logs (as kgtop's log parser gives it: KG_OBS_PREPARING, _STABILIZED, _SYNCED). */
typedef struct sim_line {
	int64_t at;
	int kind;            /* a kg_obs_kind */
	int32_t generation;  /* preparing: the old one; stabilized, synced: the new one */
	bool empty;          /* "is now empty" (a stabilized line without members) */
	int nmembers;        /* stabilized, synced: the generation's members ("with K members", "The group has K members"), -1 none */
	bool completing;     /* preparing: a member joined while the group completed the last rebalance (its join line
	                        said "in CompletingRebalance state") */
} sim_line;

/* A true rebalance episode. */
typedef struct sim_episode {
	int64_t start, end;  /* end 0 while open */
	int rounds;          /* generations completed in it */
	int64_t stopped;     /* member-microseconds owning nothing, of members consuming at its start that stayed */
	int64_t unconsumed;  /* partition-microseconds without a consuming owner (intervals ending in it) */
	int64_t backlog;     /* records produced to partitions while they had no consuming owner (the same intervals) */
} sim_episode;

/* The whole simulation. */
typedef struct sim {
	uint64_t rng;
	int64_t now;
	int64_t horizon;
	int nparts;
	double rate[SIM_MAXP];      /* records per second produced to each partition */
	int64_t le0[SIM_MAXP];
	int64_t committed[SIM_MAXP];
	int64_t unc_from[SIM_MAXP]; /* no consuming owner since, -1 consumed, -2 nobody's (never had one, or the group emptied) */
	bool cooperative;
	int64_t session, max_poll, heartbeat, sync_delay;
	int64_t write_window;       /* a consumer starting this soon after the leader's assignment was received joins before
	                               it is written: the assignment is never given (0: none does) */
	int npods;
	int64_t pod_commit[SIM_MAXPODS];
	int pod_member[SIM_MAXPODS]; /* its running incarnation, -1 none */
	int pod_seq[SIM_MAXPODS];
	sim_member m[SIM_MAXM];
	int nm;
	sim_event ev[SIM_MAXEV];
	int nev, next_ev;
	/* the group */
	kg_group_state state;
	int64_t prep_start;         /* PreparingRebalance since */
	int64_t sync_at;            /* the leader's SyncGroup lands then (CompletingRebalance), 0 none */
	int64_t rejoin_at;          /* a cooperative second round starts then, 0 none */
	bool trace;                 /* say what happens on stderr */
	sim_episode ep[SIM_MAXEP];
	int nep;
	bool ep_open;
	/* the coordinator's log, for a kgtop that also reads it (test_bounds' late log) */
	int32_t gen;                /* the group's generation */
	sim_line line[SIM_MAXLINES];
	int nline;
} sim;

/* A random schedule from seed (the same seed, the same schedule). */
void sim_init(sim *s, uint64_t seed);
/* Advance one step (SIM_STEP). */
void sim_step(sim *s);
/* The log-end of partition p at time t. */
int64_t sim_log_end(const sim *s, int p, int64_t t);
/* What a poll at the current step sees, as a snapshot (data asked now, refresh number n, interval iv). */
kg_snapshot *sim_snapshot(const sim *s, uint64_t n, int64_t iv);
/* A uniform random number in [0, n). */
uint64_t sim_rand(sim *s, uint64_t n);
/* The schedule in words (for a failure's message). */
void sim_describe(const sim *s, char *buf, size_t n);

#endif

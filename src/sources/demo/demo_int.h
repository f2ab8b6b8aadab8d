/*
 * demo_int.h: what the demo's files share: demo.c (the source: groups,
 * script, commands, life), demo_view.c (what it publishes), demo_cluster.c
 * (the cluster, the producer, and the channel every thread reports through)
 * and demo_consumer.c (one real librdkafka consumer per member).  Calls go
 * one way: demo.c uses the three others, and demo_consumer.c uses
 * demo_cluster.c's channel; nothing calls back into demo.c.
 *
 * Threads and locking.  The collector thread runs the source's functions,
 * the script and the commands; every consumer has a thread of its own that
 * polls and runs its rebalance callbacks and its close; librdkafka's broker
 * threads run the interceptors and its main thread the log callback; one
 * producer thread keeps the topic moving.  One mutex (demo.lock) guards the
 * observation queue and every field marked "locked"; nobody calls into
 * librdkafka while holding it.  Only the consumer's own thread uses its
 * rd_kafka_t.  A consumer record is freed by the collector thread once its
 * thread has finished and the group no longer lists it.
 *
 * Member ids.  A member has no id until the coordinator answers its first
 * JoinGroup (three seconds on the mock), and rd_kafka_memberid() must not
 * be called inside rebalance callbacks (it can hang during close).  So an
 * incarnation's observations are held until the consumer thread has
 * fetched the id after a poll; then JOINED (timed at the first JoinGroup)
 * and the held ones are queued.  drain() hands over only a group's
 * observations older than its oldest held one, so the tracker sees every
 * group's observations in time order.  A consumer-protocol member (KIP-848)
 * has one request for all of it, ConsumerGroupHeartbeat: its first is the
 * join, its answer gives the id, one sent while closing or after MAXPOLL
 * is the leave.
 */
#ifndef KGTOP_SOURCES_DEMO_DEMO_INT_H
#define KGTOP_SOURCES_DEMO_DEMO_INT_H

#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/obs.h"
#include "sources/demo/demo.h"
#include "sources/demo/demo_script.h"

#define DEMO_SOURCE_NAME "demo"
#define DEMO_MAX_MEMBERS 16 /* per group */
/* The consumer protocol (KIP-848): librdkafka runs it, and its mock serves it, from 2.12 (demo_group_runs). */
#define DEMO_KIP848 (RD_KAFKA_VERSION >= DEMO_KIP848_RDKAFKA)

typedef struct demo demo;
typedef struct dgroup dgroup;
typedef struct dcons dcons;

typedef enum dcons_phase {
	DC_RUNNING,
	DC_STALLED,  /* not polling (the collector resumes it) */
	DC_LEAVING,  /* closing: LeaveGroup */
	DC_CRASHED,  /* destroyed without close */
	DC_PHASE_COUNT
} dcons_phase;

/* Apis the interceptors follow. */
enum { API_JOIN, API_SYNC, API_HB, API_LEAVE, API_N };

struct dcons {
	demo *d;
	dgroup *g;
	int idx;                 /* letter number: consumer-a is 0 */
	char client_id[32];
	char instance_id[192];   /* static members; "" when dynamic */
	char assignor[32];
	kg_proto cfg_proto;      /* implied by the assignor */
	rd_kafka_t *rk;          /* used by the consumer thread only */
	pthread_t thread;
	bool thread_started;
	int64_t created_us;
	/* locked */
	dcons_phase phase;
	bool req_leave, req_crash, req_resume;
	bool restart;            /* start a new consumer with the same letter when this one is done */
	bool quick_return;       /* a stall that ends one second after the kick */
	bool static_return;      /* a static instance restarting: its rejoin is no rebalance (until assigned) */
	bool thread_done;
	bool closing;            /* in close: no calls into librdkafka from callbacks */
	char *id;                /* member id of this incarnation, NULL unknown */
	char *last_id;           /* of the previous incarnation */
	bool listed;             /* JOINED queued, LEFT not yet */
	bool need_fetch;         /* a JoinGroup answer came since the last id fetch */
	bool join_response;      /* this incarnation had a JoinGroup answer */
	int64_t join_start;      /* first JoinGroup of this incarnation */
	kg_obsq held;            /* waiting for the id */
	kg_tp *asg;              /* as the callbacks left it */
	int nasg;
	kg_tp *stale;            /* held when its membership ended: others' now, revoked later as lost */
	int nstale;
	kg_reason last_leave;    /* why the previous incarnation ended */
	bool synced;             /* assigned since its last JoinGroup */
	bool ever_joined;        /* some JoinGroup of this handle was answered */
	bool ever_assigned;      /* some assignment reached this handle */
	bool leaked;             /* never destroyed (librdkafka 2.0.2 would abort, see dcons_sticky_safe) */
	bool join_out, sync_out;
	int64_t join_answered;   /* the last JoinGroup answer (wall clock, us) */
	int64_t sync_sent;       /* the last SyncGroup sent (wall clock, us) */
	int coord_port;          /* local port of its coordinator connection (its last JoinGroup's), 0 unknown */
	int64_t last_resp_rtt[API_N];    /* the last answer per api, to drop its duplicate */
	int64_t last_resp_at[API_N];
	int32_t last_resp_broker[API_N];
	int last_resp_err[API_N];
	kg_proto proto;          /* last rd_kafka_rebalance_protocol() */
	int64_t last_poll, last_poll_pub, prev_poll;
	int uncommitted;         /* records processed since its last commit (DEMO_COMMIT_AFTER) */
	int64_t crash_asked;     /* monotonic: when a crash was asked (it waits for a batch in progress) */
	int64_t stall_start;
	int64_t stall_check;     /* last member id check during the stall */
	bool kicked;             /* left by max.poll.interval.ms during this stall */
	int64_t kicked_at;
	int64_t settled_seen;    /* while kicked: the rest of the group settled since */
	char maxpoll_text[200];
	int64_t maxpoll_at;
	bool maxpoll_lost;       /* MAXPOLL logged: the next lost assignment is its consequence */
	bool left_sent;          /* LeaveGroup sent in this incarnation */
	bool evict_pending;      /* crashed (or closed without LeaveGroup) and still in the group */
	int64_t crash_time;
	char evict_text[160];
	int64_t last_check;      /* last rd_kafka_assignment() check */
	unsigned mismatches;
	char last_error[200];
};

struct dgroup {
	int idx;
	char name[128];
	int32_t gid;
	char assignor[32];
	int start_members;
	bool static_members;
	dcons **c;               /* oldest first (locked) */
	size_t nc, cc;
	int64_t last_activity;   /* locked */
	dcons *target;           /* the member the current script step acts on (collector thread) */
	bool target_failed;
	bool watched;
	int32_t coordinator;     /* the broker the mock coordinates it on, -1 unknown (a real cluster: the kafka source knows) */
	/* commit semantics (demo_commit): records processed twice, counted exactly (locked) */
	demo_commit commit;
	int64_t *hi;             /* per partition: the highest offset any member processed, -1 none */
	int64_t *dup_run;        /* per partition: records processed twice since the owner resumed behind hi */
	int64_t *dup_from;       /* per partition: the offset that run began at (the committed offset) */
	int64_t reprocessed;     /* records processed twice since the demo began */
	int32_t mock_gen;        /* locked: the generation the mock's coordinator last elected a leader for, -1 none */
	int32_t mock_stable;     /* locked: the last generation it said all members synced, -1 none */
	char mock_leader[64];    /* locked: the member id the mock elected leader of mock_gen, "" none */
	int64_t mock_elected;    /* locked: when (wall clock, us) */
	bool mock_up;            /* locked: the mock says its generation completed (Up) */
	int64_t mock_prep_at;    /* locked: when the mock last said it prepares a rebalance, 0 never */
	bool mock_prep_known;    /* locked: a JoinGroup or LeaveGroup sent just before explains it */
	int64_t sent_at;         /* locked: the last JoinGroup or LeaveGroup a member sent */
};

/* The published picture of one member (collector thread, folded from drained observations). */
typedef struct vmember {
	char *id;
	char *client_id;
	char *instance_id;
	kg_tp *asg;
	int nasg;
} vmember;

typedef struct vgroup {
	kg_group_state state;
	kg_proto proto;
	char assignor[96];
	vmember *m;
	int nm;
} vgroup;

struct demo {
	kg_source *src;
	pthread_mutex_t lock;
	pthread_cond_t cond;     /* stalls, producer, close (CLOCK_MONOTONIC) */
	kg_obsq q;               /* locked */
	bool news;               /* locked: something changed since the last poll */
	bool stopping;           /* locked: close() has begun */
	atomic_bool quiet;       /* close() has begun: no more wakes for the collector */
	/* settings */
	const demo_scenario *sc; /* sc_run */
	demo_scenario sc_run;    /* the scenario as it runs: without consumer-protocol groups where librdkafka lacks it */
	bool real;
	char *bootstrap;
	kg_kv *props;
	size_t nprops;
	char topic[128];
	int32_t topic_id;
	int npart;
	int32_t offsets_partitions; /* of __consumer_offsets from the real cluster's metadata, 0 unknown (the mock has none) */
	int session_ms, heartbeat_ms, max_poll_ms;
	int rate;                /* messages per second */
	/* cluster */
	rd_kafka_t *mock_owner;
	void *mock;              /* rd_kafka_mock_cluster_t */
	rd_kafka_t *producer;
	pthread_t prod_thread;
	bool prod_started;
	bool prod_stop;          /* locked */
	int64_t produced;        /* locked */
	char prod_error[160];    /* locked */
	int64_t prod_error_at;   /* locked: when (0: for good, e.g. no producer thread) */
	int prod_err_code;       /* locked: the last error callback's code */
	char prod_err_reason[200]; /* locked: and its reason */
	int64_t setup_timeout_us; /* a real cluster must answer within this (--timeout, --duration) */
	bool cleanup;            /* the demo ran on a real cluster: delete its groups and topic at exit */
	char *leftovers;         /* what the cleanup left, with the commands that remove it (the caller's buffer) */
	size_t leftovers_size;
	int64_t setup_deadline;  /* monotonic: the end of it */
	/* groups */
	dgroup groups[DEMO_MAX_GROUPS];
	int ngroups;
	char next_assignor[32];  /* for members added by commands next; "" the group's own */
	demo_script script;
	bool members_started;
	bool complete;
	kg_source *kafka;
	FILE *export_f;
	bool export_failed;
	char export_note[160];
	char mock_note[320];     /* locked: the last SyncGroup the mock refused after its generation completed, "" none */
	int64_t mock_note_at;    /* locked: when */
	/* collector thread */
	vgroup view[DEMO_MAX_GROUPS];
	int64_t started_us;
	int64_t step_began;      /* when the script's current step began (for the log) */
	int64_t next_poll_us;
	char error[200];
};

/* demo_consumer.c */

/* Create a consumer in group g (collector thread) and start its thread; NULL with err. */
dcons *dcons_start(demo *d, dgroup *g, int idx, const char *assignor, char *err, size_t errsz);
/* Evict crashed members of g that the coordinator must have dropped by now (locked). */
void dgroup_evict_check(dgroup *g, const dcons *peer, int64_t now);

/* demo_cluster.c: the channel */

/* Queue an observation for the collector (locked). */
void demo_push(demo *d, kg_obs *o);
/* Ask the collector to poll soon (any thread, lock not needed). */
void demo_wake(demo *d);
/* Wait on demo.cond for at most us (locked). */
void demo_timed_wait(demo *d, int64_t us);

/* demo_cluster.c: the cluster side */

/*
 * Parse the mock coordinator's election line (its group, generation and
 * leader's member id, in librdkafka 2.0.2's words and 2.14.2's); -1 when
 * line is not one.
 */
int demo_mock_election(const char *line, char *group, size_t gsz, int *gen, char *leader, size_t lsz);

/*
 * The order of cause and effect between a member's thread and the mock's
 * (locked): the mock prepared a rebalance of g at `at` (demo_mock_prepared);
 * a member sent a JoinGroup or LeaveGroup at `sent` (demo_member_sent), which
 * returns the time to date it.  A newcomer's JoinGroup that reaches its
 * interceptor after a prepare no request explains, and within
 * DEMO_CAUSE_US of it, is what the coordinator prepared for: it went out
 * first, so it is dated just before the prepare (the interceptor runs after
 * the send and may wait for the lock the mock's line holds).
 */
#define DEMO_CAUSE_US (100LL * 1000)
void demo_mock_prepared(dgroup *g, int64_t at);
int64_t demo_member_sent(dgroup *g, int64_t sent, bool newcomer_join);

/* The configuration of consumer c of group g (the consumer protocol sets none of the classic settings); -1 with err. */
int demo_consumer_conf(demo *d, const dgroup *g, const dcons *c, rd_kafka_conf_t *conf, char *err, size_t errsz);

/*
 * Start it: the mock cluster and its topic, or a real cluster's topic
 * (found or created, within the setup deadline), and the producer handle;
 * -1 with err, nothing left started.
 */
int demo_cluster_start(demo *d, char *err, size_t errsz);
/* Start the producer thread (a failure is said in the health line). */
void demo_producer_start(demo *d);
/*
 * Join the producer thread (prod_stop set); on a real cluster the demo
 * was running on (cleanup), delete its groups and topic and name what
 * stays with the command that removes it (d->leftovers); destroy the rest.
 */
void demo_cluster_stop(demo *d, bool consumers_closed);
/* Pin each group's coordinator on the mock (so the header can name it); nothing on a real cluster. */
void demo_cluster_coordinators(demo *d);
/* On the mock, a leader's JoinGroup answer waits for its followers' SyncGroups to go out first (locked). */
void demo_sync_order_wait(dcons *c);
/* The local port of a connection, 0 unknown (the mock's log names connections by it). */
int demo_sock_port(int fd);
/* The mock's last refused SyncGroup, while recent, appended to buf (the health line). */
void demo_mock_note(demo *d, char *buf, size_t n, int64_t now);

/* demo_view.c */

/* drain(): hand over observations in time order, fold them into the view, export them. */
void demo_view_drain(kg_source *s, kg_obsq *out);
/* contribute(): the view, the topic and the demo's health. */
void demo_view_contribute(kg_source *s, kg_builder *b);
/* Free the view's members. */
void demo_view_free(demo *d);

#endif

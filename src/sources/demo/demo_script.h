/*
 * demo_script.h: the embedded demo's scenarios, script engine and commands.
 *
 * Pure logic, no librdkafka, so the unit tests drive it with a fake world.
 * A scenario names its groups (assignor, starting members) and a script of
 * steps.  The engine runs one step at a time against a world (the demo
 * source): act on every group, wait until every group has settled again
 * (or a deadline passes), hold so the audience can look, go on; LOOP jumps
 * back to the scenario's loop mark.  It never sleeps: demo_script_run()
 * returns the time it wants to run again.  The UI's demo commands
 * ("add-member GROUP", ...) are parsed here too.
 */
#ifndef KGTOP_SOURCES_DEMO_DEMO_SCRIPT_H
#define KGTOP_SOURCES_DEMO_DEMO_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* librdkafka 2.12: its consumers run group.protocol=consumer and its mock serves ConsumerGroupHeartbeat (as RD_KAFKA_VERSION). */
#define DEMO_KIP848_RDKAFKA 0x020c0000

typedef enum demo_action {
	DEMO_ACT_NONE,    /* nothing: wait for the groups to settle, then hold */
	DEMO_ACT_ADD,     /* a member joins */
	DEMO_ACT_LEAVE,   /* a member leaves gracefully (close: LeaveGroup) */
	DEMO_ACT_CRASH,   /* a member stops heartbeating (destroyed without close) */
	DEMO_ACT_STALL,   /* a member stops polling past max.poll.interval.ms, is kicked out, comes back */
	DEMO_ACT_RESTART, /* a member closes and starts again at once (static membership) */
	DEMO_ACT_REFILL,  /* members join until the group has its starting count */
	DEMO_ACT_LOOP,    /* go back to the scenario's loop mark */
	DEMO_ACT_COUNT
} demo_action;

#define DEMO_NEWEST (-1) /* which: the newest member that can act */

typedef struct demo_step {
	demo_action action;
	int which;         /* member among those that can act, oldest first; DEMO_NEWEST */
	bool nowait;       /* go on without waiting for the groups to settle */
	bool quick_return; /* stall: come back one second after being kicked out (storms) */
	int hold_ms;       /* pause after the wait */
	const char *label; /* shown in the demo's health line */
} demo_step;

/* How a group's members commit what they processed (seeds 000 and 001). */
typedef enum demo_commit {
	DEMO_COMMIT_DEMO,  /* the demo's usual: auto-commit every second, nothing counted */
	DEMO_COMMIT_AUTO,  /* enable.auto.commit every 5 s (Kafka's default auto.commit.interval.ms) */
	DEMO_COMMIT_AFTER, /* commit (synchronously) after processing each batch of records */
	DEMO_COMMIT_COUNT
} demo_commit;

#define DEMO_COMMIT_BATCH 10 /* records per batch when committing after processing */

typedef struct demo_group_def {
	const char *name;      /* always starts with "kgtop-demo-" */
	const char *assignor;  /* partition.assignment.strategy */
	int members;           /* members at the start (and after REFILL) */
	bool static_members;   /* group.instance.id per member (real clusters only) */
	demo_commit commit;    /* how members commit; other than DEMO_COMMIT_DEMO: records processed twice are counted */
} demo_group_def;

#define DEMO_MAX_GROUPS 4
/* A group's "assignor" when its members use group.protocol=consumer (KIP-848: the coordinator assigns). */
#define DEMO_CONSUMER_PROTOCOL "consumer"
#define DEMO_GROUP_PREFIX "kgtop-demo-"

typedef struct demo_scenario {
	const char *name;
	const char *help;      /* one line for --demo=list */
	bool real_only;        /* needs a real cluster (static membership) */
	int ngroups;
	demo_group_def groups[DEMO_MAX_GROUPS];
	const demo_step *steps;
	int nsteps;
	int loop_from;         /* index LOOP jumps back to */
} demo_scenario;

/* Number of scenarios in the table. */
int demo_scenario_count(void);
/*
 * True when this build's demo runs group g: a consumer-protocol group
 * (KIP-848) needs a librdkafka that runs it and whose mock cluster serves
 * ConsumerGroupHeartbeat, 2.12 or later (the bundled one is 2.14.2).
 */
bool demo_group_runs(const demo_group_def *g);
/* Scenario i of the table (0 is the default). */
const demo_scenario *demo_scenario_at(int i);
/* Find a scenario by name (NULL or "default": the default); NULL when unknown. */
const demo_scenario *demo_scenario_find(const char *name);
/* Why a scenario cannot run where asked, NULL when it can (static membership needs a real cluster). */
const char *demo_scenario_unavailable(const demo_scenario *sc, bool real_cluster);

/* The world a script acts on. */
typedef struct demo_world {
	/* Start step st on group gi; 0, or -1 with err (the group skips the step). */
	int (*act)(void *arg, int gi, const demo_step *st, char *err, size_t errsz);
	/* True when group gi has settled after step st. */
	bool (*settled)(void *arg, int gi, const demo_step *st, int64_t now_us);
	void *arg;
} demo_world;

typedef enum demo_phase {
	DEMO_PH_ACT,
	DEMO_PH_WAIT,
	DEMO_PH_HOLD,
	DEMO_PH_COUNT
} demo_phase;

typedef struct demo_script {
	const demo_scenario *sc;
	int step;             /* index of the current step */
	demo_phase phase;
	int64_t deadline_us;  /* the wait gives up at this time */
	int64_t hold_until_us;
	int64_t wait_limit_us;
	int64_t hold_scale_pct; /* holds in percent of the table's (100: as written) */
	bool paused;
	int64_t paused_at_us;
	int loops;            /* completed loops */
	int timeouts;         /* waits that hit their deadline */
	char error[160];      /* the last act error, "" when none */
} demo_script;

/* Set up a script at its first step (sc may have no steps: a manual scenario). */
void demo_script_init(demo_script *s, const demo_scenario *sc, int64_t wait_limit_us);
/* Run what is due at now_us; returns when to run again (0: nothing to do until a command). */
int64_t demo_script_run(demo_script *s, const demo_world *w, int64_t now_us);
/* Pause or resume; holds and waits are extended by the paused time. */
void demo_script_pause(demo_script *s, bool paused, int64_t now_us);
/* True when the scenario has a script at all. */
bool demo_script_has_steps(const demo_script *s);
/* One line: "3/11 one member leaves (settling)". */
void demo_script_status(const demo_script *s, char *buf, size_t n);

/* What the demo's health line says (demo_health_format()). */
typedef struct demo_health {
	const char *scenario;     /* "default" */
	const char *script;       /* demo_script_status(): "4/7 a member crashes (settling)" */
	int consumers;
	int rate;                 /* messages per second */
	bool real;                /* a real cluster, else the mock */
	const char *error;        /* the demo's own (a restart that failed), "" or NULL none */
	const char *prod_error;   /* the producer's last error, "" or NULL none */
	int64_t prod_error_age_us; /* how long ago; -1: for good (no producer thread) */
	unsigned mismatches;      /* assignments librdkafka disagreed with */
	const char *export_note;  /* --export-trace stopped: why */
} demo_health;

#define DEMO_PROD_ERROR_SHOWN_US (60LL * 1000000) /* a producer error stays in the health line this long */

/*
 * "default: 4/7 a member crashes (settling); 6 consumers, 30 msg/s, mock
 * cluster (3 brokers)", then every problem that holds ("; producer: ...
 * (12s ago)"): the script's step comes first, so that the header can show
 * it alone, up to the first "; ".
 */
void demo_health_format(char *buf, size_t n, const demo_health *h);

/* UI commands. */
typedef enum demo_cmd_kind {
	DEMO_CMD_ADD,
	DEMO_CMD_LEAVE,
	DEMO_CMD_CRASH,
	DEMO_CMD_STALL,
	DEMO_CMD_ASSIGNOR,
	DEMO_CMD_PAUSE,
	DEMO_CMD_RESUME,
	DEMO_CMD_REFRESH,     /* the collector's refresh: nothing to do */
	DEMO_CMD_COUNT
} demo_cmd_kind;

typedef struct demo_cmd {
	demo_cmd_kind kind;
	char arg[192];        /* group name ("" for the first group) or assignor name */
} demo_cmd;

/* Parse "add-member GROUP", "assignor NAME", "pause-script", ...; 0 or -1 with err. */
int demo_cmd_parse(const char *line, demo_cmd *out, char *err, size_t errsz);
/* True for the assignors the demo offers: range, roundrobin, cooperative-sticky. */
bool demo_assignor_valid(const char *name);
/* The rebalance protocol an assignor implies. */
kg_proto demo_assignor_proto(const char *name);
/* How a commit policy reads: "auto-commit every 5s", "commit after processing (batches of 10)"; NULL for the demo's own. */
const char *demo_commit_policy(demo_commit c);
/* Client id of member number idx: consumer-a ... consumer-z, consumer-aa, ... */
void demo_client_id(int idx, char *buf, size_t n);
/* Match a group name as typed (full name, or without the kgtop-demo- prefix). */
bool demo_group_matches(const char *full, const char *typed);

#endif

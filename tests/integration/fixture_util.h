/*
 * fixture_util.h: start, step and stop the fixture broker from tests, and
 * drive the real collector (kafka source + tracker) against it.
 */
#ifndef KGTOP_TESTS_FIXTURE_UTIL_H
#define KGTOP_TESTS_FIXTURE_UTIL_H

#include <stdbool.h>
#include <sys/types.h>

#include "core/collector.h"
#include "model/tracker.h"

typedef struct fixture {
	pid_t pid;
	char bootstrap[512];
	char stats[256];
	char dir[128];
} fixture;

/* Start tests/fixture-broker with a scenario (manual steps); 0 or -1. */
int fixture_start(fixture *f, const char *scenario, bool manual);
/* Start it without a request log, its steps on their own time (benchmarks); 0 or -1. */
int fixture_start_quiet(fixture *f, const char *scenario);
/* Lines of the broker's request log holding both strings (NULL: any), e.g. "DescribeGroups", "first=g-a "; -1 without a log. */
int fixture_log_count(fixture *f, const char *a, const char *b);
/* The sum of the numbers after key on those lines (key NULL: how many lines); -1 without a log. */
int fixture_log_sum(fixture *f, const char *a, const char *b, const char *key);
/* Requests of one API the broker counted so far ("DescribeGroups", ...); -1 unknown. */
int fixture_requests(fixture *f, const char *api);
/* The same with the first broker on port (0: any); an absolute scenario path is taken as it is. */
int fixture_start_at(fixture *f, const char *scenario, bool manual, int port);
/* Apply the next scenario step (SIGUSR1) and wait until the broker counted it. */
int fixture_step(fixture *f);
/* A free TCP port on 127.0.0.1; -1 when none. */
int fixture_free_port(void);
/* Stop the broker (SIGTERM, wait). */
void fixture_stop(fixture *f);
/* Writes (JoinGroup, SyncGroup, Heartbeat, OffsetCommit, LeaveGroup) the broker rejected; -1 unknown. */
int fixture_rejected_writes(fixture *f);

/* A live collector with a kafka source against a fixture. */
typedef struct live {
	kg_tracker *tracker;
	kg_collector *c;
	kg_snapshot *snap; /* newest */
	kg_evlist ev;      /* every event so far */
} live;

/* Build it (interval in ms). */
int live_open(live *l, const char *bootstrap, int interval_ms);
/* The kafka source's stamps_rest_us for the collectors built after it is set (0: the default). */
extern int64_t live_stamps_rest_us;
/* Build it with the kafka source's --full-refresh and --max-requests (0: defaults). */
int live_open_tiers(live *l, const char *bootstrap, int interval_ms, int64_t full_refresh_us, double max_requests);
/* The same with the tracker's --lag-window (0: the default). */
int live_open_window(live *l, const char *bootstrap, int interval_ms, int64_t full_refresh_us, double max_requests,
		     int64_t lag_window_us);
/* Step the collector until pred(l, arg) or timeout_ms; true when it held. */
bool live_wait(live *l, bool (*pred)(live *, const void *), const void *arg, int timeout_ms);
/* Free it. */
void live_close(live *l);
/* The newest snapshot's group by name, NULL when absent. */
const kg_group *live_group(live *l, const char *name);
/* The group is judged moving: OK, every partition seen moving with the gap between its commits
 * known (what the STALLED rule needs before a freeze can be judged). */
bool live_group_moving(live *l, const char *name);
/* Count events of a kind for a group (and client, NULL any). */
int live_count(live *l, const char *group, kg_event_kind kind, const char *client);
/* Revokes of a class. */
int live_revokes(live *l, const char *group, kg_revoke_class cls);
/* Print the events (on failure). */
void live_dump(live *l);
/* Predicate: the group is in the state given as arg (a kg_group_state *). */
bool live_pred_state(live *l, const void *arg);

#endif

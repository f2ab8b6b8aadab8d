/*
 * lint.h: a group's liveness settings checked against the seeds' rules
 * (heartbeat interval, session timeout, max.poll.interval.ms, poll gaps),
 * only where the settings are known.
 */
#ifndef KGTOP_MODEL_LINT_H
#define KGTOP_MODEL_LINT_H

#include "model/snapshot.h"

typedef enum kg_lint_level {
	KG_LINT_OK,   /* the rule holds (said, so that a reader knows it was checked) */
	KG_LINT_WARN, /* the rule is broken, or nearly */
	KG_LINT_BAD,  /* it already bit: a member was kicked out for it */
	KG_LINT_LEVEL_COUNT
} kg_lint_level;

typedef struct kg_lint {
	kg_lint_level level;
	char text[200];
} kg_lint;

/* The lints of a group (at most max) from its snapshot (limits, observed heartbeats, poll gaps); returns the count. */
int group_lints(const kg_group *g, kg_lint *out, int max);

#endif

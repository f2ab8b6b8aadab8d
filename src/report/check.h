/*
 * check.h: --check, for cron and monitoring agents (the monitoring-plugin
 * convention of Nagios, Icinga and Sensu): one line
 *   KGTOP CRITICAL - g-stall: 2 partitions STALLED since 12:03:04, ... | 'g-stall lag'=1200;;;0; ...
 * and the exit status 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
 *
 * Per group: STALLED, STOPPED and LOST partitions are CRITICAL, SLOW and
 * REWIND ones WARNING; the group's lag (its sum) against --warn-lag and
 * --crit-lag, its oldest time lag against --warn-time-lag and
 * --crit-time-lag (an estimate counts, a lower bound counts when it passes
 * the threshold; a time lag not known with a threshold given is UNKNOWN).
 * The line's status is the worst of the groups' (CRITICAL, then WARNING,
 * then UNKNOWN, then OK); no group at all (none matches -g, or the cluster
 * has none) and a cluster that cannot be read are UNKNOWN.  Performance
 * data per group: lag, time lag in seconds (U when not known), and the
 * partitions STALLED, STOPPED, LOST, SLOW and REWIND.
 */
#ifndef KGTOP_REPORT_CHECK_H
#define KGTOP_REPORT_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/collector.h"
#include "core/options.h"
#include "model/snapshot.h"
#include "report/run.h"
#include "util/util.h"

/* The plugin's exit statuses. */
typedef enum kg_check_status {
	KG_CHECK_OK,
	KG_CHECK_WARNING,
	KG_CHECK_CRITICAL,
	KG_CHECK_UNKNOWN,
	KG_CHECK_STATUS_COUNT
} kg_check_status;

/* Thresholds (0: not given). */
typedef struct kg_check_limits {
	int64_t warn_lag, crit_lag;         /* records */
	int64_t warn_tlag_us, crit_tlag_us; /* time lag */
	int judge_s;                        /* partitions not judged: "--duration N judges commits" (0: not said) */
} kg_check_limits;

/* "OK", "WARNING", "CRITICAL", "UNKNOWN". */
const char *check_status_name(kg_check_status st);
/*
 * Judge snapshot s: append the status line, and the long output's lines
 * after it, to out (without the last newline; each name and text one line,
 * check_guard_lines() makes the rest safe) and return the status.  filter
 * names what -g asked for (NULL: every group), for "no group matches".
 */
kg_check_status check_snapshot(const kg_snapshot *s, const kg_check_limits *l, const char *filter, sbuf *out);
/* Make a line safe to write (util_char_unsafe and invalid UTF-8 as '?', no line break): main's usage line. */
void check_guard(sbuf *line);
/*
 * Make check_snapshot's output safe to write (util_char_unsafe and invalid
 * UTF-8 as '?'; the long output's line breaks kept, names never add one):
 * what check_run prints goes through it, just before.
 */
void check_guard_lines(sbuf *out);
/*
 * --check: one refresh (or, with --duration, refreshes for that long so
 * commits can be judged; a replay up to --at), then the line on stdout;
 * returns the exit status (3 with the cause when no answer came).
 */
int check_run(kg_collector *c, const kg_options *o, const kg_run_stop *stop);

#endif

/*
 * run.h: the runners without a terminal, on a wired collector: --once (one
 * report when every source has answered), --json (a line per published
 * snapshot until a signal or --duration), --replay with --json (a line
 * per recorded tick, in the caller's thread, as fast as the file reads),
 * and headless serving (KG_MODE_SERVE: the collector runs until a signal).
 *
 * main.c wires options, sources and the collector, then hands them to
 * run_report() or to the dashboard (ui_run()).
 */
#ifndef KGTOP_REPORT_RUN_H
#define KGTOP_REPORT_RUN_H

#include <signal.h>
#include <stdbool.h>

#include "core/collector.h"
#include "core/options.h"

/* How a signal reaches a runner: main's handler sets the flag and makes fd readable. */
typedef struct kg_run_stop {
	volatile sig_atomic_t *flag; /* non-zero: stop (the signal's number) */
	int fd;                      /* readable once a signal came; -1 when none */
	volatile sig_atomic_t *keyframe; /* set (SIGUSR1): --json's next line is a keyframe; NULL none */
	/*
	 * --json's source gave up (an --attach stream that is damaged): true
	 * with why; the run prints what came, says why and ends with status 1
	 * (NULL: never)
	 */
	bool (*gave_up)(void *arg, char *why, size_t n);
	void *gave_up_arg;
} kg_run_stop;

/*
 * Run o->mode (KG_MODE_ONCE, KG_MODE_JSON or KG_MODE_SERVE) on c; replay says whether the
 * collector's source is a recording.  Returns the exit status: 0, or 1
 * with the cause on stderr (no answer in time, no source readable, stdout
 * gone).
 */
int run_report(kg_collector *c, const kg_options *o, bool replay, const kg_run_stop *stop);

#endif

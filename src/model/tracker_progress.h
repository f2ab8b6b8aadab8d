/*
 * tracker_progress.h: the tracker's progress part (tracker_progress.c):
 * after the descriptions are folded, every group's partitions are judged
 * (progress.h's rules); verdict changes become events, frozen commits make
 * a member silent (tracker_live.c), and the partitions the last rebalance
 * moved are watched until their new owner commits (the episode's "resumed"
 * measure).  Its state (the rules' kg_progress, each group's watch) is
 * private to tracker_progress.c.  It asks the episodes part what moved.
 */
#ifndef KGTOP_MODEL_TRACKER_PROGRESS_H
#define KGTOP_MODEL_TRACKER_PROGRESS_H

#include <stdint.h>

#include "model/tracker_int.h"

/* The tracker's progress state; NULL when cfg asks for no verdicts (a replay of a recording older than them). */
tk_prog *tk_prog_new(const kg_tracker_config *cfg);
/* Free the tracker's progress state (NULL is fine). */
void tk_prog_free(tk_prog *p);
/* Free a group's watch of its moved partitions (NULL is fine). */
void tk_resume_free(tk_resume *r);
/* A group went away: its partitions' progress is forgotten. */
void tk_progress_forget(kg_tracker *t, int32_t group);
/* A commit a source told (KG_OBS_COMMIT: offset value of parts at time): its partitions' exact commit time. */
void tk_progress_commit(kg_tracker *t, tgroup *g, const kg_obs *o);
/* Judge every group of the snapshot: verdict events, members silent by frozen commits, moved partitions' wait. */
void tk_progress(kg_tracker *t, kg_snapshot *snap, int64_t T);

#endif

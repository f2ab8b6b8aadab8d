/*
 * trace_groups.h: the groups a callback trace (jsonl) has seen.
 *
 * A jsonl stream carries consumers' own revoke and assign callbacks (the
 * demo writes one with --export-trace).  Read by a second kgtop with no
 * cluster to poll, those groups would exist only as events; this keeps
 * their members and current assignments so the source can describe them
 * like the demo does (exact groups), unless another source already does.
 * A coordinator log names groups and their rebalances but no members or
 * assignments: those groups are described by their state alone (traced).
 *
 * Lookups are hashed (util/hmap.h), so a stream naming a new member on
 * every line costs the same per line at any size.  What is kept is bounded
 * by the history, not by what a stream sends: a member not heard from for
 * longer than the history window while its group went on is forgotten
 * (a quiet group forgets nobody: its members are simply stable), and a
 * group never keeps more than TGVIEW_MAX_MEMBERS members (the longest
 * silent ones go first, counted in tgview_forgotten()).
 */
#ifndef KGTOP_SOURCES_TRACE_TRACE_GROUPS_H
#define KGTOP_SOURCES_TRACE_TRACE_GROUPS_H

#include "model/obs.h"
#include "model/snapshot.h"

#define TGVIEW_MAX_MEMBERS 20000 /* members kept per group */

typedef struct kg_tgview kg_tgview;

/*
 * An empty view; members silent for window_us while their group goes on
 * are forgotten (0: never).  from_log: its observations are a coordinator
 * log's, which names members and never what they own: every group it
 * describes is a state, with no member.
 */
kg_tgview *tgview_new(int64_t window_us, bool from_log);
/* Free it. */
void tgview_free(kg_tgview *v);
/* Fold one observation (callbacks, joins and leaves; a log's rebalance lines). */
void tgview_update(kg_tgview *v, const kg_obs *o);
/* Describe the groups no earlier source described. */
void tgview_contribute(const kg_tgview *v, kg_builder *b);
/* Members forgotten so far (silent past the window, or over the cap). */
uint64_t tgview_forgotten(const kg_tgview *v);

#endif

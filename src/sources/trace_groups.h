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
 */
#ifndef KGTOP_SOURCES_TRACE_GROUPS_H
#define KGTOP_SOURCES_TRACE_GROUPS_H

#include "model/obs.h"
#include "model/snapshot.h"

typedef struct kg_tgview kg_tgview;

/* An empty view. */
kg_tgview *tgview_new(void);
/* Free it. */
void tgview_free(kg_tgview *v);
/* Fold one observation (callbacks, joins and leaves; a log's rebalance lines). */
void tgview_update(kg_tgview *v, const kg_obs *o);
/* Describe the groups no earlier source described. */
void tgview_contribute(const kg_tgview *v, kg_builder *b);

#endif

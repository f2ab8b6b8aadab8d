/*
 * intern.h: process-wide string interning for topic and group names.
 *
 * Topic and group names become small stable integers so that snapshots,
 * observations and history compare them cheaply and across refreshes.
 * Interning is thread-safe; names are never freed (a cluster has a bounded
 * number of them) and reading a name back takes no lock.
 */
#ifndef KGTOP_MODEL_INTERN_H
#define KGTOP_MODEL_INTERN_H

#include <stdint.h>

/* Return the id of topic name, creating it on first use. */
int32_t intern_topic(const char *name);
/* Return the name of a topic id ("?" for an unknown id). */
const char *intern_topic_name(int32_t id);
/*
 * Compare two topic ids as their names compare (strcmp), ids breaking a
 * tie: <0, 0, >0.  Costs two integer loads, no lock (see intern.c).
 */
int intern_topic_cmp(int32_t a, int32_t b);
/* How many times the topics' order keys were spread out again (for tests). */
uint64_t intern_topic_relabels(void);
/* Return the id of group name, creating it on first use. */
int32_t intern_group(const char *name);
/* Return the id of group name, or -1 when it was never interned. */
int32_t intern_group_find(const char *name);
/* Return the name of a group id ("?" for an unknown id). */
const char *intern_group_name(int32_t id);
/* Compare two group ids as their names compare, ids breaking a tie (as intern_topic_cmp()). */
int intern_group_cmp(int32_t a, int32_t b);

#endif

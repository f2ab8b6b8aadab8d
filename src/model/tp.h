/*
 * tp.h: topic-partitions and sorted partition sets.
 *
 * A partition set is a sorted array of kg_tp without duplicates.  The set
 * operations take and produce such arrays; the revoke classification of
 * the seeds (full versus incremental) is defined on them here.
 */
#ifndef KGTOP_MODEL_TP_H
#define KGTOP_MODEL_TP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

typedef struct kg_tp {
	int32_t topic;     /* interned topic id */
	int32_t partition;
} kg_tp;

/* How a revoke relates to the assignment held just before it. */
typedef enum kg_revoke_class {
	KG_CLASS_NONE,        /* nothing revoked (an empty callback) */
	KG_CLASS_FULL,        /* the whole non-empty assignment: stop-the-world */
	KG_CLASS_INCREMENTAL, /* a non-empty proper subset */
	KG_CLASS_COUNT
} kg_revoke_class;

/* Compare two partitions (topic name order, then partition). */
int tp_cmp(const kg_tp *a, const kg_tp *b);
/*
 * The same partition: the same ids (tp_cmp() is 0 exactly then, ties of
 * names being broken by id), without a call: a group's partitions are
 * compared with the last refresh's every refresh.
 */
static inline bool
tp_same(kg_tp a, kg_tp b)
{
	return a.topic == b.topic && a.partition == b.partition;
}
/* Sort v and drop duplicates; returns the new length. */
int tp_sort_unique(kg_tp *v, int n);
/*
 * Index of x in base, a sorted array of n elements of size bytes that
 * each begin with a kg_tp (a set, a group's partitions), -1 when absent:
 * the one search by partition.
 */
int tp_find(const void *base, int n, size_t size, kg_tp x);
/* True when sorted set v holds x. */
bool tp_contains(const kg_tp *v, int n, kg_tp x);
/* True when the sorted sets are equal. */
bool tp_equal(const kg_tp *a, int na, const kg_tp *b, int nb);
/* out = a - b for sorted sets; out has room for na; returns its length. */
int tp_diff(const kg_tp *a, int na, const kg_tp *b, int nb, kg_tp *out);
/* out = a & b for sorted sets; out has room for min(na, nb); returns its length. */
int tp_intersect(const kg_tp *a, int na, const kg_tp *b, int nb, kg_tp *out);
/* Return a malloc'd copy of v (NULL when n == 0). */
kg_tp *tp_dup(const kg_tp *v, int n);
/* Classify revoking r (nr) from the assignment b (nb) held just before. */
kg_revoke_class tp_classify_revoke(const kg_tp *r, int nr, const kg_tp *b, int nb);
/* Name of a classification: "none", "full", "incremental". */
const char *tp_class_name(kg_revoke_class c);
/*
 * Append a set in the seeds' notation: "[0 4]" when every partition is of
 * one topic and short is true, else "[orders:0,4 payments:1]".
 */
void tp_format(sbuf *out, const kg_tp *v, int n, bool short_form);
/* True when every partition of v is of the same topic (or v is empty). */
bool tp_single_topic(const kg_tp *v, int n);

#endif

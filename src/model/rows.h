/*
 * rows.h: a group's partition rows that the next snapshot may keep.
 *
 * A snapshot's rows are written by the builder and then by the tracker,
 * and never again once it is published.  A group whose input did not
 * change (the same commits, the same topics with the same log ends and
 * records read, asked at the same time, no member) has the same rows in
 * the next snapshot: the builder keeps the last snapshot's block (a
 * reference) instead of writing them again, and the tracker leaves them
 * alone when nothing of them changes with the clock (progress.c); a
 * writer that would change one owns a copy first (group_rows_own()).
 * A kept row's time lag is its origin's age (kg_gpart_time_lag()).
 */
#ifndef KG_MODEL_ROWS_H
#define KG_MODEL_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* One group's rows and the input they were built from (what the builder compares). */
typedef struct kg_rows kg_rows;

/* A block for n rows, its input: the commits (ncommits of sizeof_commit bytes each) and the declared topics. */
kg_rows *rows_new(int n, const void *commits, size_t ncommits, size_t sizeof_commit, const int32_t *topics,
		  size_t ntopics);
/* A copy of r (rows and input) that is the copier's alone, with a number of its own; what the tracker marks
 * anew every apply (moved, in flight) unmarked, as the builder leaves it. */
kg_rows *rows_copy(const kg_rows *r);
/* Take a reference. */
kg_rows *rows_ref(kg_rows *r);
/* Drop a reference (NULL is fine). */
void rows_unref(kg_rows *r);
/* The rows. */
kg_gpart *rows_parts(kg_rows *r);
/* True when the block was built from this input. */
bool rows_same_input(const kg_rows *r, const void *commits, size_t ncommits, size_t sizeof_commit,
		     const int32_t *topics, size_t ntopics);
/* True when the tracker marked moved partitions in them; the tracker did (a block of its own). */
bool rows_marked(const kg_rows *r);
void rows_set_marked(kg_rows *r);
/* A number no other block had or will have (the tracker's "these exact rows"), 0 for none. */
uint64_t rows_id(const kg_rows *r);
/* True when two topics' partitions say the same to a group's rows and its progress (log ends, starts, records read). */
bool rows_topic_same(const kg_topic *a, const kg_topic *b);

#endif

/*
 * rows.h: a group's partition rows that the next snapshot may keep.
 *
 * A snapshot's rows are written by the builder and then by the tracker,
 * and never again once it is published.  A group whose input did not
 * change (the same commits, members' assignments and targets, topics with
 * the same log ends and records read, asked at the same time) has the same
 * rows in the next snapshot: the builder keeps the last snapshot's block
 * (a reference) instead of writing them again, and the tracker leaves them
 * alone when nothing of them changes with the clock (progress.c).  A
 * writer that would change one owns a copy first (group_rows_own()); a
 * block the tracker wrote an owner, an orphan or a target into is not kept
 * (rows_touch()); the moved marks of the last rebalance are kept with the
 * key of the moves they mark.  A kept row's time lag is its origin's age
 * (kg_gpart_time_lag()).
 */
#ifndef KG_MODEL_ROWS_H
#define KG_MODEL_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* One group's rows and the input they were built from (what the builder compares). */
typedef struct kg_rows kg_rows;

/* A block for n rows (zeroed) built from input (len bytes, the builder's account of it). */
kg_rows *rows_new(int n, const void *input, size_t len);
/* A copy of r (rows and input) that is the copier's alone, with a number of its own; its moved marks
 * cleared (key 0), as the builder leaves rows. */
kg_rows *rows_copy(const kg_rows *r);
/* Take a reference. */
kg_rows *rows_ref(kg_rows *r);
/* Drop a reference (NULL is fine). */
void rows_unref(kg_rows *r);
/* The rows. */
kg_gpart *rows_parts(kg_rows *r);
/* True when the block was built from this input. */
bool rows_same_input(const kg_rows *r, const void *input, size_t len);
/* The tracker wrote what the builder derives (an owner, an orphan, a target) into them: not to be kept (NULL fine). */
void rows_touch(kg_rows *r);
bool rows_touched(const kg_rows *r);
/* The key of the moves the tracker marked in them, 0 none (NULL: 0); set on a block of its own. */
uint64_t rows_marks(const kg_rows *r);
void rows_set_marks(kg_rows *r, uint64_t key);
/* A number no other block had or will have (the tracker's "these exact rows"), 0 for none. */
uint64_t rows_id(const kg_rows *r);
/* True when two topics' partitions say the same to a group's rows and its progress (log ends, starts, records read). */
bool rows_topic_same(const kg_topic *a, const kg_topic *b);

#endif

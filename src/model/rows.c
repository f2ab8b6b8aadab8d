/*
 * rows.c: a group's partition rows in a block of their own, shared by
 * reference between snapshots while nothing of them changes (rows.h).
 */
#include "config.h"

#include "model/rows.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct kg_rows {
	_Atomic int refs;
	uint64_t id;
	int n;
	bool touched;            /* the tracker wrote what the builder derives */
	uint64_t marks;          /* the key of the moves marked in them, 0 none */
	size_t len;              /* the input, after the rows */
	unsigned char *input;
	kg_gpart v[];
};

static _Atomic uint64_t rows_next_id = 1;

/* A block for n rows (not zeroed) and its input. */
static kg_rows *
rows_alloc(int n, const void *input, size_t len)
{
	size_t rows = (size_t)n * sizeof(kg_gpart);
	kg_rows *r = xmalloc(sizeof *r + rows + len);
	atomic_init(&r->refs, 1);
	r->id = atomic_fetch_add_explicit(&rows_next_id, 1, memory_order_relaxed);
	r->n = n;
	r->touched = false;
	r->marks = 0;
	r->len = len;
	r->input = (unsigned char *)r->v + rows;
	if (len > 0)
		memcpy(r->input, input, len);
	return r;
}

/* A block for n rows (zeroed) and its input. */
kg_rows *
rows_new(int n, const void *input, size_t len)
{
	kg_rows *r = rows_alloc(n, input, len);
	if (n > 0)
		memset(r->v, 0, (size_t)n * sizeof *r->v);
	return r;
}

/* A copy of r that is the copier's alone, its moved marks cleared. */
kg_rows *
rows_copy(const kg_rows *r)
{
	kg_rows *c = rows_alloc(r->n, r->input, r->len);
	int k;
	if (r->n > 0)
		memcpy(c->v, r->v, (size_t)r->n * sizeof *c->v);
	for (k = 0; r->marks != 0 && k < c->n; k++) {
		c->v[k].moved = false;
		c->v[k].moved_from = -1;
	}
	c->touched = r->touched;
	return c;
}

/* Take a reference. */
kg_rows *
rows_ref(kg_rows *r)
{
	if (r != NULL)
		atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
	return r;
}

/* Drop a reference. */
void
rows_unref(kg_rows *r)
{
	if (r != NULL && atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) == 1)
		free(r);
}

/* The rows. */
kg_gpart *
rows_parts(kg_rows *r)
{
	return r->v;
}

/* True when the block was built from this input. */
bool
rows_same_input(const kg_rows *r, const void *input, size_t len)
{
	return r->len == len && (len == 0 || memcmp(r->input, input, len) == 0);
}

/* The tracker wrote what the builder derives into them. */
void
rows_touch(kg_rows *r)
{
	if (r != NULL)
		r->touched = true;
}

/* True when it did. */
bool
rows_touched(const kg_rows *r)
{
	return r != NULL && r->touched;
}

/* The key of the moves marked in them. */
uint64_t
rows_marks(const kg_rows *r)
{
	return r != NULL ? r->marks : 0;
}

/* Say which moves are marked in them. */
void
rows_set_marks(kg_rows *r, uint64_t key)
{
	if (r != NULL)
		r->marks = key;
}

/* The block's number. */
uint64_t
rows_id(const kg_rows *r)
{
	return r != NULL ? r->id : 0;
}

/* True when two topics' partitions say the same to a group's rows and its progress. */
bool
rows_topic_same(const kg_topic *a, const kg_topic *b)
{
	int k;
	if (a->id != b->id || a->npartitions != b->npartitions)
		return false;
	for (k = 0; k < a->npartitions; k++) {
		const kg_partition *p = &a->partitions[k], *q = &b->partitions[k];
		if (p->log_end != q->log_end || p->log_start != q->log_start || !partition_stamps_same(p, q))
			return false;
	}
	return true;
}

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
	bool marked;             /* the tracker marked moved partitions in them */
	size_t ncommits, sizeof_commit, ntopics;
	unsigned char *commits;  /* the input, after the rows */
	int32_t *topics;
	kg_gpart v[];
};

static _Atomic uint64_t rows_next_id = 1;

/* A block for n rows and its input. */
kg_rows *
rows_new(int n, const void *commits, size_t ncommits, size_t sizeof_commit, const int32_t *topics, size_t ntopics)
{
	size_t rows = (size_t)n * sizeof(kg_gpart), cb = ncommits * sizeof_commit;
	kg_rows *r = xmalloc(sizeof *r + rows + cb + ntopics * sizeof *topics);
	atomic_init(&r->refs, 1);
	r->id = atomic_fetch_add_explicit(&rows_next_id, 1, memory_order_relaxed);
	r->n = n;
	r->marked = false;
	r->ncommits = ncommits;
	r->sizeof_commit = sizeof_commit;
	r->ntopics = ntopics;
	r->commits = (unsigned char *)r->v + rows;
	r->topics = (int32_t *)(void *)(r->commits + cb);
	if (cb > 0)
		memcpy(r->commits, commits, cb);
	if (ntopics > 0)
		memcpy(r->topics, topics, ntopics * sizeof *topics);
	if (rows > 0)
		memset(r->v, 0, rows);
	return r;
}

/* A copy of r (rows and input) that is the copier's alone, with a number of its own. */
kg_rows *
rows_copy(const kg_rows *r)
{
	kg_rows *c = rows_new(r->n, r->commits, r->ncommits, r->sizeof_commit, r->topics, r->ntopics);
	int k;
	if (r->n > 0)
		memcpy(c->v, r->v, (size_t)r->n * sizeof *c->v);
	for (k = 0; k < c->n; k++) {
		/* what the tracker marks anew every apply (tracker_annotate.c) starts unmarked, as built */
		c->v[k].moved = false;
		c->v[k].moved_from = -1;
		c->v[k].in_flight = false;
	}
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
rows_same_input(const kg_rows *r, const void *commits, size_t ncommits, size_t sizeof_commit, const int32_t *topics,
		size_t ntopics)
{
	return r->ncommits == ncommits && r->sizeof_commit == sizeof_commit && r->ntopics == ntopics &&
	       (ncommits == 0 || memcmp(r->commits, commits, ncommits * sizeof_commit) == 0) &&
	       (ntopics == 0 || memcmp(r->topics, topics, ntopics * sizeof *topics) == 0);
}

/* True when the tracker marked moved partitions in them. */
bool
rows_marked(const kg_rows *r)
{
	return r != NULL && r->marked;
}

/* The tracker marked moved partitions in them (its own). */
void
rows_set_marked(kg_rows *r)
{
	if (r != NULL)
		r->marked = true;
}

/* The block's number. */
uint64_t
rows_id(const kg_rows *r)
{
	return r != NULL ? r->id : 0;
}

/* Two records read alike. */
static bool
stamp_same(const kg_stamp *a, const kg_stamp *b)
{
	return a->offset == b->offset && a->record == b->record && a->ts_ms == b->ts_ms && a->why == b->why;
}

/* True when two topics' partitions say the same to a group's rows and its progress. */
bool
rows_topic_same(const kg_topic *a, const kg_topic *b)
{
	int k, j;
	if (a->id != b->id || a->npartitions != b->npartitions)
		return false;
	for (k = 0; k < a->npartitions; k++) {
		const kg_partition *p = &a->partitions[k], *q = &b->partitions[k];
		if (p->log_end != q->log_end || p->log_start != q->log_start || !stamp_same(&p->stamp, &q->stamp) ||
		    p->nmore != q->nmore)
			return false;
		for (j = 0; j < p->nmore; j++) {
			if (!stamp_same(&p->more[j], &q->more[j]))
				return false;
		}
	}
	return true;
}

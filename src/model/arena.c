/*
 * arena.c: a snapshot's memory, freed all at once with its last reference.
 *
 * A snapshot's memory comes in chunks of ARENA_CHUNK bytes (a larger
 * allocation gets a chunk of its own).  A freed snapshot's chunks wait in
 * a spare list for the next builder_finish(), up to the size of the
 * snapshot freed last: at 10,000 groups a snapshot is 40 MB, and taking
 * it fresh from malloc each refresh cost the pages' faults and zeroing
 * (a quarter of the model's CPU).  arena_alloc() zeroes what it hands out.
 *
 * A builder's scratch (arena_new_scratch) is the same kind of arena with a
 * spare list of its own: a refresh's staging of every group, member,
 * string and commit list (snapshot.c's builder) was some 100,000 mallocs
 * and frees at 10,000 groups, a fifth of the model's CPU, and the two
 * lists keep each other's sizes apart.
 */
#include "config.h"

#include "model/arena.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define ARENA_CHUNK 65536

typedef struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	size_t size;
	max_align_t data[];
} arena_chunk;

/* The chunks freed arenas left for the next ones of their kind. */
typedef struct arena_spare {
	pthread_mutex_t lock;
	arena_chunk *head;
	size_t bytes; /* held in the list */
	size_t cap;   /* the size of the arena freed last */
} arena_spare;

struct kg_arena {
	arena_chunk *head;
	size_t bytes;
	arena_spare *spare;
};

static arena_spare snapshot_spare = { .lock = PTHREAD_MUTEX_INITIALIZER };
static arena_spare scratch_spare = { .lock = PTHREAD_MUTEX_INITIALIZER };
static atomic_bool spare_off; /* arena_spare_off() was called */

/* A chunk of ARENA_CHUNK bytes: a spare one, else a new one. */
static arena_chunk *
chunk_take(arena_spare *spare)
{
	arena_chunk *c;
	pthread_mutex_lock(&spare->lock);
	c = spare->head;
	if (c != NULL) {
		spare->head = c->next;
		spare->bytes -= c->size;
	}
	pthread_mutex_unlock(&spare->lock);
	if (c == NULL) {
		c = xmalloc(sizeof *c + ARENA_CHUNK);
		c->size = ARENA_CHUNK;
	}
	c->used = 0;
	return c;
}

/* A new, empty arena. */
kg_arena *
arena_new(void)
{
	kg_arena *a = xcalloc(1, sizeof(kg_arena));
	a->spare = &snapshot_spare;
	return a;
}

/* A new, empty scratch arena. */
kg_arena *
arena_new_scratch(void)
{
	kg_arena *a = xcalloc(1, sizeof(kg_arena));
	a->spare = &scratch_spare;
	return a;
}

/* Allocate n bytes from the arena, not zeroed. */
void *
arena_alloc_raw(kg_arena *a, size_t n)
{
	arena_chunk *c = a->head;
	size_t align = sizeof(max_align_t);
	n = (n + align - 1) & ~(align - 1);
	if (n == 0)
		n = align;
	if (c == NULL || c->used + n > c->size) {
		if (n > ARENA_CHUNK) {
			/* a chunk of its own, behind the current one (which keeps its room) */
			arena_chunk *big = xmalloc(sizeof *big + n);
			big->size = n;
			big->used = n;
			a->bytes += n;
			if (c == NULL) {
				big->next = NULL;
				a->head = big;
			} else {
				big->next = c->next;
				c->next = big;
			}
			return big->data;
		}
		c = chunk_take(a->spare);
		c->next = a->head;
		a->head = c;
		a->bytes += c->size;
	}
	{
		void *p = (char *)c->data + c->used;
		c->used += n;
		return p;
	}
}

/* Allocate n zeroed bytes from the arena. */
void *
arena_alloc(kg_arena *a, size_t n)
{
	void *p = arena_alloc_raw(a, n);
	memset(p, 0, n);
	return p;
}

/* Copy a string into the arena (NULL stays NULL). */
const char *
arena_strdup(kg_arena *a, const char *s)
{
	size_t n;
	char *p;
	if (s == NULL)
		return NULL;
	n = strlen(s) + 1;
	p = arena_alloc_raw(a, n);
	memcpy(p, s, n);
	return p;
}

/* A copy of n bytes at p in the arena. */
void *
arena_memdup(kg_arena *a, const void *p, size_t n)
{
	void *d = arena_alloc_raw(a, n);
	if (n > 0)
		memcpy(d, p, n);
	return d;
}

/* Make room for need elements of size bytes in *v (capacity *cap), in the arena (see arena.h). */
void
arena_grow(kg_arena *a, void *v, size_t *cap, size_t need, size_t size)
{
	void **pv = v;
	arena_chunk *c = a->head;
	size_t n, align = sizeof(max_align_t), old, want;
	char *d;
	if (need <= *cap)
		return;
	n = *cap ? *cap * 2 : 4;
	if (n < need)
		n = need;
	if (n > (SIZE_MAX - align) / size)
		util_oom();
	old = (*cap * size + align - 1) & ~(align - 1);
	want = (n * size + align - 1) & ~(align - 1);
	if (*cap > 0 && c != NULL && (char *)*pv + old == (char *)c->data + c->used && c->used - old + want <= c->size) {
		/* the array is the arena's last allocation and its chunk has room: it grows where it is */
		c->used = c->used - old + want;
		*cap = n;
		return;
	}
	d = arena_alloc_raw(a, n * size);
	if (*cap > 0)
		memcpy(d, *pv, *cap * size);
	*pv = d;
	*cap = n;
}

/* Free the arena: its chunks go to its kind's spare list, up to the size of this arena, or back to malloc. */
void
arena_free(kg_arena *a)
{
	arena_spare *spare = a->spare;
	arena_chunk *c = a->head, *next, *drop = NULL;
	pthread_mutex_lock(&spare->lock);
	spare->cap = atomic_load(&spare_off) ? 0 : a->bytes;
	while (c != NULL) {
		next = c->next;
		if (c->size == ARENA_CHUNK && spare->bytes + c->size <= spare->cap) {
			c->next = spare->head;
			spare->head = c;
			spare->bytes += c->size;
		} else {
			c->next = drop;
			drop = c;
		}
		c = next;
	}
	/* a smaller snapshot than those before: the list keeps no more than it */
	while (spare->bytes > spare->cap && spare->head != NULL) {
		c = spare->head;
		spare->head = c->next;
		spare->bytes -= c->size;
		c->next = drop;
		drop = c;
	}
	pthread_mutex_unlock(&spare->lock);
	while (drop != NULL) {
		next = drop->next;
		free(drop);
		drop = next;
	}
	free(a);
}

/* Empty one spare list for good. */
static void
spare_drop(arena_spare *spare)
{
	arena_chunk *c, *drop;
	pthread_mutex_lock(&spare->lock);
	drop = spare->head;
	spare->head = NULL;
	spare->bytes = 0;
	spare->cap = 0;
	pthread_mutex_unlock(&spare->lock);
	while ((c = drop) != NULL) {
		drop = c->next;
		free(c);
	}
}

/* No arena is followed by another from now: the spare lists go, and freed chunks with them. */
void
arena_spare_off(void)
{
	atomic_store(&spare_off, true);
	spare_drop(&scratch_spare);
	spare_drop(&snapshot_spare);
}

/* Bytes held in the spare lists. */
size_t
arena_spare_bytes(void)
{
	arena_spare *kinds[] = { &snapshot_spare, &scratch_spare };
	size_t n = 0, i;
	for (i = 0; i < 2; i++) {
		pthread_mutex_lock(&kinds[i]->lock);
		n += kinds[i]->bytes;
		pthread_mutex_unlock(&kinds[i]->lock);
	}
	return n;
}

/*
 * arena.c: a snapshot's memory, freed all at once with its last reference.
 *
 * A snapshot's memory comes in chunks of ARENA_CHUNK bytes (a larger
 * allocation gets a chunk of its own).  A freed snapshot's chunks wait in
 * a spare list for the next builder_finish(), up to the size of the
 * snapshot freed last: at 10,000 groups a snapshot is 40 MB, and taking
 * it fresh from malloc each refresh cost the pages' faults and zeroing
 * (a quarter of the model's CPU).  Each allocation zeroes what it hands out.
 */
#include "config.h"

#include "model/arena.h"

#include <pthread.h>
#include <stddef.h>
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

struct kg_arena {
	arena_chunk *head;
	size_t bytes;
};

static struct {
	pthread_mutex_t lock;
	arena_chunk *head;
	size_t bytes; /* held in the list */
	size_t cap;   /* the size of the arena freed last */
} spare = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* A chunk of ARENA_CHUNK bytes: a spare one, else a new one. */
static arena_chunk *
chunk_take(void)
{
	arena_chunk *c;
	pthread_mutex_lock(&spare.lock);
	c = spare.head;
	if (c != NULL) {
		spare.head = c->next;
		spare.bytes -= c->size;
	}
	pthread_mutex_unlock(&spare.lock);
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
	return xcalloc(1, sizeof(kg_arena));
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
		c = chunk_take();
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

/* Free the arena: its chunks go to the spare list, up to the size of this arena, or back to malloc. */
void
arena_free(kg_arena *a)
{
	arena_chunk *c = a->head, *next, *drop = NULL;
	pthread_mutex_lock(&spare.lock);
	spare.cap = a->bytes;
	while (c != NULL) {
		next = c->next;
		if (c->size == ARENA_CHUNK && spare.bytes + c->size <= spare.cap) {
			c->next = spare.head;
			spare.head = c;
			spare.bytes += c->size;
		} else {
			c->next = drop;
			drop = c;
		}
		c = next;
	}
	/* a smaller snapshot than those before: the list keeps no more than it */
	while (spare.bytes > spare.cap && spare.head != NULL) {
		c = spare.head;
		spare.head = c->next;
		spare.bytes -= c->size;
		c->next = drop;
		drop = c;
	}
	pthread_mutex_unlock(&spare.lock);
	while (drop != NULL) {
		next = drop->next;
		free(drop);
		drop = next;
	}
	free(a);
}


/*
 * arena.h: a snapshot's memory (one arena per snapshot, freed at once).
 *
 * Only the snapshot's code allocates from it (snapshot.c: the snapshot, and
 * its builder's scratch); a freed arena's chunks serve the next one of its
 * kind (arena.c says how many).  An arena is used by
 * one thread at a time; freeing may happen on any thread.
 */
#ifndef KGTOP_MODEL_ARENA_H
#define KGTOP_MODEL_ARENA_H

#include <stddef.h>

typedef struct kg_arena kg_arena;

/* A new, empty arena. */
kg_arena *arena_new(void);
/* A new, empty scratch arena: a builder's staging, its spare chunks kept apart from the snapshots'. */
kg_arena *arena_new_scratch(void);
/* n bytes, not zeroed, aligned for any type. */
void *arena_alloc_raw(kg_arena *a, size_t n);
/* n zeroed bytes, aligned for any type. */
void *arena_alloc(kg_arena *a, size_t n);
/* A copy of s in the arena (NULL stays NULL). */
const char *arena_strdup(kg_arena *a, const char *s);
/* A copy of n bytes at p. */
void *arena_memdup(kg_arena *a, const void *p, size_t n);
/*
 * Make room for need elements of size bytes in the array *v of *cap (v: the
 * address of the array's pointer), twice as large (or need): in place when
 * it is the arena's last allocation and its chunk has room (an array filled
 * before anything else is allocated), else a new block with the old
 * elements copied into it, the old one left in the arena until it is freed
 * (an array grown from 4 to n leaves at most n elements behind).
 */
void arena_grow(kg_arena *a, void *v, size_t *cap, size_t need, size_t size);
/* Free the arena and everything allocated from it. */
void arena_free(kg_arena *a);
/*
 * No arena made from now is followed by another (--once's last snapshot is
 * built): the spare lists go back to malloc, and so do the chunks of the
 * arenas freed after, so that what is derived and reported reuses them.
 */
void arena_spare_off(void);
/* Bytes held in the spare lists (both kinds). */
size_t arena_spare_bytes(void);

#endif

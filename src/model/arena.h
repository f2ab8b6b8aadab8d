/*
 * arena.h: a snapshot's memory (one arena per snapshot, freed at once).
 *
 * Only the snapshot's code allocates from it (snapshot.c); a freed arena's
 * chunks serve the next one (arena.c says how many).  An arena is used by
 * one thread at a time; freeing may happen on any thread.
 */
#ifndef KGTOP_MODEL_ARENA_H
#define KGTOP_MODEL_ARENA_H

#include <stddef.h>

typedef struct kg_arena kg_arena;

/* A new, empty arena. */
kg_arena *arena_new(void);
/* n bytes, not zeroed, aligned for any type. */
void *arena_alloc_raw(kg_arena *a, size_t n);
/* n zeroed bytes, aligned for any type. */
void *arena_alloc(kg_arena *a, size_t n);
/* A copy of s in the arena (NULL stays NULL). */
const char *arena_strdup(kg_arena *a, const char *s);
/* Free the arena and everything allocated from it. */
void arena_free(kg_arena *a);

#endif

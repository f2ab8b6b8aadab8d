/*
 * intern.c: string pools for topic and group names.
 *
 * Each pool is an open-addressing hash (guarded by a mutex) from name to
 * id, and a two-level table from id to name whose chunks never move, so
 * intern_*_name() reads without taking the lock: an id is only handed out
 * after its name is stored, and a thread can only know an id that some
 * thread got back from interning.
 */
#include "config.h"

#include "model/intern.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define CHUNK_BITS 10
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define MAX_CHUNKS 4096 /* 4M names per pool */

typedef struct pool {
	pthread_mutex_t lock;
	char **_Atomic chunks[MAX_CHUNKS];
	int32_t count;
	int32_t *slots; /* hash slots: id + 1, 0 empty */
	size_t nslots;
} pool;

static pool topics = { .lock = PTHREAD_MUTEX_INITIALIZER };
static pool groups = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* FNV-1a hash of a string. */
static uint32_t
hash_str(const char *s)
{
	uint32_t h = 2166136261u;
	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

/* The name stored for id (caller checks range). */
static const char *
pool_name_unlocked(pool *p, int32_t id)
{
	char **chunk = atomic_load_explicit(&p->chunks[id >> CHUNK_BITS], memory_order_acquire);
	return chunk ? chunk[id & (CHUNK_SIZE - 1)] : NULL;
}

/* Rebuild the hash slots at a larger size (lock held). */
static void
pool_rehash(pool *p)
{
	size_t n = p->nslots ? p->nslots * 2 : 1024;
	int32_t *slots = xcalloc(n, sizeof *slots);
	int32_t i;
	for (i = 0; i < p->count; i++) {
		size_t k = hash_str(pool_name_unlocked(p, i)) & (n - 1);
		while (slots[k] != 0)
			k = (k + 1) & (n - 1);
		slots[k] = i + 1;
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = n;
}

/* Find (and with create, add) a name; -1 when absent or full. */
static int32_t
pool_intern(pool *p, const char *name, int create)
{
	size_t k;
	int32_t id = -1;
	if (name == NULL)
		name = "";
	pthread_mutex_lock(&p->lock);
	if (p->nslots == 0)
		pool_rehash(p);
	k = hash_str(name) & (p->nslots - 1);
	while (p->slots[k] != 0) {
		int32_t cand = p->slots[k] - 1;
		if (strcmp(pool_name_unlocked(p, cand), name) == 0) {
			id = cand;
			goto out;
		}
		k = (k + 1) & (p->nslots - 1);
	}
	if (!create || p->count >= MAX_CHUNKS * CHUNK_SIZE)
		goto out;
	id = p->count;
	{
		char **chunk = atomic_load_explicit(&p->chunks[id >> CHUNK_BITS], memory_order_relaxed);
		if (chunk == NULL) {
			chunk = xcalloc(CHUNK_SIZE, sizeof *chunk);
			atomic_store_explicit(&p->chunks[id >> CHUNK_BITS], chunk, memory_order_release);
		}
		chunk[id & (CHUNK_SIZE - 1)] = xstrdup(name);
	}
	p->count++;
	p->slots[k] = id + 1;
	if ((size_t)p->count * 2 > p->nslots)
		pool_rehash(p);
out:
	pthread_mutex_unlock(&p->lock);
	return id;
}

/* Name of id or "?". */
static const char *
pool_name(pool *p, int32_t id)
{
	const char *s;
	if (id < 0 || id >= MAX_CHUNKS * CHUNK_SIZE)
		return "?";
	s = pool_name_unlocked(p, id);
	return s ? s : "?";
}

/* Intern a topic name. */
int32_t
intern_topic(const char *name)
{
	return pool_intern(&topics, name, 1);
}

/* Topic name of an id. */
const char *
intern_topic_name(int32_t id)
{
	return pool_name(&topics, id);
}

/* Intern a group name. */
int32_t
intern_group(const char *name)
{
	return pool_intern(&groups, name, 1);
}

/* Look up a group name. */
int32_t
intern_group_find(const char *name)
{
	return pool_intern(&groups, name, 0);
}

/* Group name of an id. */
const char *
intern_group_name(int32_t id)
{
	return pool_name(&groups, id);
}

/*
 * intern.c: string pools for topic and group names.
 *
 * Each pool is an open-addressing hash (guarded by a mutex) from name to
 * id, and a two-level table from id to name whose chunks never move, so
 * intern_*_name() reads without taking the lock: an id is only handed out
 * after its name is stored, and a thread can only know an id that some
 * thread got back from interning.
 *
 * Names also carry a key in name order (intern_topic_cmp(),
 * intern_group_cmp()), so sorting partitions or groups compares two
 * integers, not two names: the pool keeps its ids
 * sorted by name (then id), and a new topic takes a key between its
 * neighbours'.  When no key is left between them, every key is spread out
 * again.  Readers take no lock: keys change only inside a relabelling, which
 * a sequence count brackets, and a comparison that overlaps one compares the
 * names instead.  Keys of existing topics keep their order in a
 * relabelling, so no mix of comparisons disagrees with the names'.
 */
#include "config.h"

#include "model/intern.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define CHUNK_BITS 10
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define MAX_CHUNKS 4096 /* 4M names per pool */
#define KEY_GAP ((int64_t)1 << 32) /* between neighbours' keys after a relabelling, and past either end */
#define KEY_BASE ((int64_t)1 << 61) /* the first key: room for new first topics below, new last ones above */

typedef struct pool {
	pthread_mutex_t lock;
	char **_Atomic chunks[MAX_CHUNKS];
	int32_t count;
	int32_t *slots; /* hash slots: id + 1, 0 empty */
	size_t nslots;
	/* name order: keys by id, ids sorted by name, a relabelling's sequence count */
	bool ordered;
	_Atomic int64_t *_Atomic keys[MAX_CHUNKS];
	int32_t *sorted;
	size_t csorted;
	_Atomic uint32_t seq; /* odd while keys are rewritten */
	uint64_t relabels;
} pool;

static pool topics = { .lock = PTHREAD_MUTEX_INITIALIZER, .ordered = true };
static pool groups = { .lock = PTHREAD_MUTEX_INITIALIZER, .ordered = true };

/* A name's hash. */
static uint32_t
hash_str(const char *s)
{
	return util_hash(s, strlen(s));
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

/* The key cell of id (its chunk exists once the id was handed out). */
static _Atomic int64_t *
pool_key_cell(pool *p, int32_t id)
{
	_Atomic int64_t *chunk = atomic_load_explicit(&p->keys[id >> CHUNK_BITS], memory_order_acquire);
	return chunk ? &chunk[id & (CHUNK_SIZE - 1)] : NULL;
}

/* Spread every key out again, in name order (lock held): readers that overlap compare names. */
static void
pool_relabel(pool *p)
{
	int32_t i;
	atomic_fetch_add_explicit(&p->seq, 1, memory_order_relaxed); /* odd: keys are changing */
	atomic_thread_fence(memory_order_release);
	for (i = 0; i < p->count; i++)
		atomic_store_explicit(pool_key_cell(p, p->sorted[i]), KEY_BASE + (int64_t)i * KEY_GAP, memory_order_relaxed);
	atomic_fetch_add_explicit(&p->seq, 1, memory_order_release); /* even: done */
	p->relabels++;
}

/* Order of two ids by name, then id. */
static int
name_id_cmp(pool *p, int32_t a, int32_t b)
{
	int c = strcmp(pool_name_unlocked(p, a), pool_name_unlocked(p, b));
	if (c != 0)
		return c;
	return a < b ? -1 : (a > b);
}

/* Give the new id (the pool's last) its place in name order and a key (lock held). */
static void
pool_order_add(pool *p, int32_t id)
{
	size_t lo = 0, hi = (size_t)id; /* the sorted ids before this one */
	_Atomic int64_t *chunk = atomic_load_explicit(&p->keys[id >> CHUNK_BITS], memory_order_relaxed);
	int64_t before, after;
	if (chunk == NULL) {
		chunk = xcalloc(CHUNK_SIZE, sizeof *chunk);
		atomic_store_explicit(&p->keys[id >> CHUNK_BITS], chunk, memory_order_release);
	}
	util_grow(&p->sorted, &p->csorted, (size_t)id + 1, sizeof *p->sorted);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (name_id_cmp(p, p->sorted[mid], id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&p->sorted[lo + 1], &p->sorted[lo], ((size_t)id - lo) * sizeof *p->sorted);
	p->sorted[lo] = id;
	/* the neighbours' keys; past an end, a gap beyond the last (or first) key */
	if (id == 0) {
		before = KEY_BASE - KEY_GAP;
		after = KEY_BASE + KEY_GAP;
	} else if (lo == 0) {
		after = atomic_load_explicit(pool_key_cell(p, p->sorted[1]), memory_order_relaxed);
		before = after > 4 * KEY_GAP ? after - 2 * KEY_GAP : 0;
	} else {
		before = atomic_load_explicit(pool_key_cell(p, p->sorted[lo - 1]), memory_order_relaxed);
		after = lo < (size_t)id ? atomic_load_explicit(pool_key_cell(p, p->sorted[lo + 1]), memory_order_relaxed)
					: before < INT64_MAX - 4 * KEY_GAP ? before + 2 * KEY_GAP : before;
	}
	if (after - before >= 2) {
		/* the id is not known to any reader yet: its key needs no sequence count */
		atomic_store_explicit(&chunk[id & (CHUNK_SIZE - 1)], before + (after - before) / 2, memory_order_relaxed);
	} else {
		pool_relabel(p);
	}
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
	if (p->ordered)
		pool_order_add(p, id);
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

/* Compare two ids of a pool by name, then id: their keys, or their names while keys are being spread out. */
static int
pool_cmp(pool *p, int32_t a, int32_t b)
{
	_Atomic int64_t *ka, *kb;
	uint32_t s0;
	if (a == b)
		return 0;
	if (a >= 0 && b >= 0 && a < MAX_CHUNKS * CHUNK_SIZE && b < MAX_CHUNKS * CHUNK_SIZE &&
	    (ka = pool_key_cell(p, a)) != NULL && (kb = pool_key_cell(p, b)) != NULL) {
		s0 = atomic_load_explicit(&p->seq, memory_order_acquire);
		if ((s0 & 1) == 0) {
			int64_t x = atomic_load_explicit(ka, memory_order_relaxed);
			int64_t y = atomic_load_explicit(kb, memory_order_relaxed);
			atomic_thread_fence(memory_order_acquire);
			if (atomic_load_explicit(&p->seq, memory_order_relaxed) == s0 && x != 0 && y != 0)
				return x < y ? -1 : 1;
		}
	}
	{
		int c = strcmp(pool_name(p, a), pool_name(p, b));
		if (c != 0)
			return c;
		return a < b ? -1 : 1;
	}
}

/* Compare two topics by name, then id. */
int
intern_topic_cmp(int32_t a, int32_t b)
{
	return pool_cmp(&topics, a, b);
}

/* Compare two groups by name, then id. */
int
intern_group_cmp(int32_t a, int32_t b)
{
	return pool_cmp(&groups, a, b);
}

/* How many times the topics' keys were spread out again (tests). */
uint64_t
intern_topic_relabels(void)
{
	uint64_t n;
	pthread_mutex_lock(&topics.lock);
	n = topics.relabels;
	pthread_mutex_unlock(&topics.lock);
	return n;
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

/*
 * hmap.c: the hash index (see hmap.h).
 */
#include "config.h"

#include "util/hmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The key's hash. */
static uint32_t
hash_of(const char *key)
{
	return util_hash(key, strlen(key));
}

/* The slot that holds key, or the empty slot where it would go. */
static size_t
find_slot(const hmap *m, const char *key, uint32_t h)
{
	size_t mask = m->cap - 1, i = h & mask;
	while (m->slot[i].key != NULL && (m->slot[i].hash != h || strcmp(m->slot[i].key, key) != 0))
		i = (i + 1) & mask;
	return i;
}

/* Double the table (or make the first one) and place every entry again. */
static void
grow(hmap *m)
{
	hmap_slot *old = m->slot;
	size_t i, oldcap = m->cap;
	m->cap = oldcap ? oldcap * 2 : 16;
	m->slot = xcalloc(m->cap, sizeof *m->slot);
	for (i = 0; i < oldcap; i++)
		if (old[i].key != NULL)
			m->slot[find_slot(m, old[i].key, old[i].hash)] = old[i];
	free(old);
}

/* The value under key, NULL when none. */
void *
hmap_get(const hmap *m, const char *key)
{
	if (m->n == 0)
		return NULL;
	return m->slot[find_slot(m, key, hash_of(key))].value;
}

/* Store value under key (the key is borrowed). */
void
hmap_put(hmap *m, const char *key, void *value)
{
	uint32_t h = hash_of(key);
	size_t i;
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	i = find_slot(m, key, h);
	if (m->slot[i].key == NULL)
		m->n++;
	m->slot[i].key = key;
	m->slot[i].hash = h;
	m->slot[i].value = value;
}

/* Remove key and return its value. */
void *
hmap_del(hmap *m, const char *key)
{
	size_t mask, i, j;
	void *value;
	if (m->n == 0)
		return NULL;
	mask = m->cap - 1;
	i = find_slot(m, key, hash_of(key));
	if (m->slot[i].key == NULL)
		return NULL;
	value = m->slot[i].value;
	/* backward shift: pull later entries of the same run into the hole when their home allows */
	for (j = (i + 1) & mask; m->slot[j].key != NULL; j = (j + 1) & mask) {
		size_t home = m->slot[j].hash & mask;
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	}
	memset(&m->slot[i], 0, sizeof m->slot[i]);
	m->n--;
	return value;
}

/* Forget every entry. */
void
hmap_clear(hmap *m)
{
	if (m->cap > 0)
		memset(m->slot, 0, m->cap * sizeof *m->slot);
	m->n = 0;
}

/* Free the index. */
void
hmap_free(hmap *m)
{
	free(m->slot);
	memset(m, 0, sizeof *m);
}

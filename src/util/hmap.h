/*
 * hmap.h: a hash index from strings to pointers.
 *
 * Open addressing with linear probing, FNV-1a hashes, at most half full;
 * deletion by backward shift, so no tombstones pile up under churn.  The
 * map does not own its keys: a key must stay valid (and unchanged) while
 * it is in the map; usually it points into the value it indexes (a
 * member's id inside the member).  Lookups, inserts and removals cost O(1)
 * on average whatever the number of entries: use it wherever the
 * collector thread would otherwise scan a list by name.
 */
#ifndef KGTOP_UTIL_HMAP_H
#define KGTOP_UTIL_HMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct hmap_slot {
	const char *key;
	void *value;
	uint32_t hash;
} hmap_slot;

typedef struct hmap {
	hmap_slot *slot;
	size_t cap; /* a power of two, 0 before the first insert */
	size_t n;
} hmap;

/* The value stored under key, NULL when none. */
void *hmap_get(const hmap *m, const char *key);
/* Store value under key (replacing what was there); key is borrowed, not copied. */
void hmap_put(hmap *m, const char *key, void *value);
/* Remove key; returns its value, NULL when it was not there. */
void *hmap_del(hmap *m, const char *key);
/* Forget every entry (values are not freed). */
void hmap_clear(hmap *m);
/* Free the index (values are not freed). */
void hmap_free(hmap *m);

#endif

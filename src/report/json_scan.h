/*
 * json_scan.h: reading the JSON kgtop's own writers printed, well formed,
 * without building a tree: a value's end, an object's fields as spans of
 * its text (json_delta.c compares two versions of a group or a partition
 * field by field).
 */
#ifndef KGTOP_REPORT_JSON_SCAN_H
#define KGTOP_REPORT_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* One field of an object printed by kgtop's writers: its key (unquoted) and its value's text. */
typedef struct jfield {
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
} jfield;

/* A list of fields, its memory kept from line to line. */
typedef struct jfields {
	jfield *v;
	size_t n, cap;
} jfields;

/* The end of the JSON string at p (its opening quote). */
const char *jstr_end(const char *p);
/* The end of the JSON value at p (well formed: kgtop wrote it). */
const char *jskip(const char *p);
/* The fields of the object at obj appended to f. */
void jfields_add(const char *obj, jfields *f);
/* The fields of the object at obj into f. */
void jfields_of(const char *obj, jfields *f);
/*
 * The fields of the object at obj (len bytes to the end of its buffer,
 * NUL-terminated) into f, as jfields_of, where like holds those of an
 * object the same writer printed: a field alike at its place is compared,
 * not scanned.
 */
void jfields_like(const char *obj, size_t len, const jfields *like, jfields *f);
/* The field of f named like k, NULL when none; hint: where to look first (fields keep their order). */
const jfield *jfield_find(const jfields *f, const jfield *k, size_t hint);
/* True when two values print the same. */
bool jsame(const jfield *a, const jfield *b);

#endif

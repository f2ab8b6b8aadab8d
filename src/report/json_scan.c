/*
 * json_scan.c: reading the JSON kgtop's own writers printed (see
 * json_scan.h): a table of the bytes a scan stops at, no tree, no copy.
 */
#include "config.h"

#include <string.h>

#include "report/json_scan.h"
#include "util/util.h"

/* Bytes the scanner stops at: 1 in a string ('"', '\\', NUL), 2 in a container (also braces and brackets), 4 after a scalar. */
static const unsigned char stops[256] = {
	[0] = 7, ['"'] = 3, ['\\'] = 1, ['{'] = 2, ['}'] = 6, ['['] = 2, [']'] = 6, [','] = 4,
};

/* The end of the JSON string at p (its opening quote). */
const char *
jstr_end(const char *p)
{
	for (p++;;) {
		while (!(stops[(unsigned char)*p] & 1))
			p++;
		if (*p == '\\') {
			p += 2;
			continue;
		}
		return p + 1;
	}
}

/* The end of the JSON value at p (well formed: kgtop wrote it). */
const char *
jskip(const char *p)
{
	int depth = 0;
	if (*p == '"')
		return jstr_end(p);
	if (*p != '{' && *p != '[') {
		while (!(stops[(unsigned char)*p] & 4))
			p++;
		return p;
	}
	for (;;) {
		switch (*p) {
		case '"':
			p = jstr_end(p);
			break;
		case '{':
		case '[':
			depth++;
			p++;
			break;
		case '}':
		case ']':
			if (--depth == 0)
				return p + 1;
			p++;
			break;
		case '\0':
			return p;
		default:
			p++;
			break;
		}
		while (!(stops[(unsigned char)*p] & 2))
			p++;
	}
}

/* The fields of the object at obj appended to f. */
void
jfields_add(const char *obj, jfields *f)
{
	const char *p = obj + 1;
	while (*p == '"') {
		jfield x;
		const char *e = jskip(p);
		x.key = p + 1;
		x.klen = (size_t)(e - p - 2);
		x.val = e + 1; /* past the colon */
		e = jskip(x.val);
		x.vlen = (size_t)(e - x.val);
		util_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
		f->v[f->n++] = x;
		p = *e == ',' ? e + 1 : e;
	}
}

/* The fields of the object at obj into f. */
void
jfields_of(const char *obj, jfields *f)
{
	f->n = 0;
	jfields_add(obj, f);
}

/* True when s (which has end - s bytes) starts with t's n bytes. */
static bool
starts(const char *s, const char *end, const char *t, size_t n)
{
	return (size_t)(end - s) >= n && memcmp(s, t, n) == 0;
}

/*
 * The fields of the object at obj (len bytes to the end of its buffer,
 * NUL-terminated) into f, as jfields_of, where like holds
 * those of an object the same writer printed (a record's other version):
 * a field whose key and value are like's at its place is not scanned but
 * compared (a JSON value is a prefix of no other that ends where it
 * does), as most are.  Half the delta's CPU at 10,000 groups was parsing
 * both versions of a partition or group.
 */
void
jfields_like(const char *obj, size_t len, const jfields *like, jfields *f)
{
	const char *p = obj + 1, *end = obj + len;
	f->n = 0;
	while (*p == '"') {
		const jfield *l = f->n < like->n ? &like->v[f->n] : NULL;
		jfield x;
		const char *e;
		if (l != NULL && starts(p + 1, end, l->key, l->klen) && p[1 + l->klen] == '"' && p[2 + l->klen] == ':') {
			x.key = p + 1;
			x.klen = l->klen;
			x.val = p + l->klen + 3;
			e = starts(x.val, end, l->val, l->vlen) && (x.val[l->vlen] == ',' || x.val[l->vlen] == '}')
				    ? x.val + l->vlen
				    : jskip(x.val);
		} else {
			e = jskip(p);
			x.key = p + 1;
			x.klen = (size_t)(e - p - 2);
			x.val = e + 1;
			e = jskip(x.val);
		}
		x.vlen = (size_t)(e - x.val);
		util_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
		f->v[f->n++] = x;
		p = *e == ',' ? e + 1 : e;
	}
}

/* The field of f named like k, NULL when none; hint: where to look first (fields keep their order). */
const jfield *
jfield_find(const jfields *f, const jfield *k, size_t hint)
{
	size_t i;
	if (hint < f->n && f->v[hint].klen == k->klen && memcmp(f->v[hint].key, k->key, k->klen) == 0)
		return &f->v[hint];
	for (i = 0; i < f->n; i++) {
		if (f->v[i].klen == k->klen && memcmp(f->v[i].key, k->key, k->klen) == 0)
			return &f->v[i];
	}
	return NULL;
}

/* True when two values print the same. */
bool
jsame(const jfield *a, const jfield *b)
{
	return a->vlen == b->vlen && memcmp(a->val, b->val, a->vlen) == 0;
}


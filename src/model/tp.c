/*
 * tp.c: sorted partition sets and the revoke classification.
 */
#include "config.h"

#include "model/tp.h"

#include <stdlib.h>
#include <string.h>

#include "model/intern.h"

/* Compare by topic name (the interned topics' order keys), then partition. */
int
tp_cmp(const kg_tp *a, const kg_tp *b)
{
	if (a->topic != b->topic)
		return intern_topic_cmp(a->topic, b->topic);
	if (a->partition != b->partition)
		return a->partition < b->partition ? -1 : 1;
	return 0;
}

/* qsort adapter. */
static int
tp_qcmp(const void *a, const void *b)
{
	return tp_cmp(a, b);
}

/* Sort and deduplicate. */
int
tp_sort_unique(kg_tp *v, int n)
{
	int i, j = 0;
	if (n <= 1)
		return n < 0 ? 0 : n;
	qsort(v, (size_t)n, sizeof *v, tp_qcmp);
	for (i = 1; i < n; i++) {
		if (tp_cmp(&v[i], &v[j]) != 0)
			v[++j] = v[i];
	}
	return j + 1;
}

/* Index of x in a sorted array of elements that each begin with a kg_tp (bsearch), -1 when absent. */
int
tp_find(const void *base, int n, size_t size, kg_tp x)
{
	const char *hit = n > 0 ? bsearch(&x, base, (size_t)n, size, tp_qcmp) : NULL;
	return hit != NULL ? (int)((size_t)(hit - (const char *)base) / size) : -1;
}

/* Membership. */
bool
tp_contains(const kg_tp *v, int n, kg_tp x)
{
	return tp_find(v, n, sizeof *v, x) >= 0;
}

/* Equality of sorted sets. */
bool
tp_equal(const kg_tp *a, int na, const kg_tp *b, int nb)
{
	int i;
	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		if (a[i].topic != b[i].topic || a[i].partition != b[i].partition)
			return false;
	}
	return true;
}

/* a - b. */
int
tp_diff(const kg_tp *a, int na, const kg_tp *b, int nb, kg_tp *out)
{
	int i = 0, j = 0, n = 0;
	while (i < na) {
		int c = j < nb ? tp_cmp(&a[i], &b[j]) : -1;
		if (c < 0)
			out[n++] = a[i++];
		else if (c == 0) {
			i++;
			j++;
		} else
			j++;
	}
	return n;
}

/* a & b. */
int
tp_intersect(const kg_tp *a, int na, const kg_tp *b, int nb, kg_tp *out)
{
	int i = 0, j = 0, n = 0;
	while (i < na && j < nb) {
		int c = tp_cmp(&a[i], &b[j]);
		if (c == 0) {
			out[n++] = a[i];
			i++;
			j++;
		} else if (c < 0)
			i++;
		else
			j++;
	}
	return n;
}

/* Copy a set. */
kg_tp *
tp_dup(const kg_tp *v, int n)
{
	kg_tp *c;
	if (n <= 0)
		return NULL;
	c = xmalloc((size_t)n * sizeof *c);
	memcpy(c, v, (size_t)n * sizeof *c);
	return c;
}

/*
 * Full when the revoked set is the whole non-empty assignment held just
 * before (compared as sets, which for subsets is comparing sizes);
 * incremental when it is a non-empty proper subset.  Revoked partitions the
 * member did not hold are ignored: they say nothing about its own stop.
 */
kg_revoke_class
tp_classify_revoke(const kg_tp *r, int nr, const kg_tp *b, int nb)
{
	int i, held = 0;
	if (nr <= 0)
		return KG_CLASS_NONE;
	for (i = 0; i < nr; i++) {
		if (tp_contains(b, nb, r[i]))
			held++;
	}
	if (held == 0)
		return KG_CLASS_NONE;
	return held == nb ? KG_CLASS_FULL : KG_CLASS_INCREMENTAL;
}

/* Name of a classification. */
const char *
tp_class_name(kg_revoke_class c)
{
	switch (c) {
	case KG_CLASS_FULL: return "full";
	case KG_CLASS_INCREMENTAL: return "incremental";
	default: return "none";
	}
}

/* True when v spans at most one topic. */
bool
tp_single_topic(const kg_tp *v, int n)
{
	int i;
	for (i = 1; i < n; i++) {
		if (v[i].topic != v[0].topic)
			return false;
	}
	return true;
}

/* Append the set in the seeds' notation. */
void
tp_format(sbuf *out, const kg_tp *v, int n, bool short_form)
{
	int i;
	sbuf_addc(out, '[');
	if (short_form && tp_single_topic(v, n)) {
		for (i = 0; i < n; i++)
			sbuf_addf(out, "%s%d", i ? " " : "", v[i].partition);
	} else {
		for (i = 0; i < n; i++) {
			if (i == 0 || v[i].topic != v[i - 1].topic)
				sbuf_addf(out, "%s%s:%d", i ? " " : "", intern_topic_name(v[i].topic), v[i].partition);
			else
				sbuf_addf(out, ",%d", v[i].partition);
		}
	}
	sbuf_addc(out, ']');
}

/*
 * json_delta.c: --json lines that carry what changed (see json_delta.h).
 *
 * A line is a keyframe (every group, as --full prints every line) or a
 * delta against the line before it: the groups whose printed object
 * differs, each as a patch, and the ids of the groups gone.  What changed
 * is decided on what is printed, never on a list of fields: a group's
 * fields but its partitions are written by the one group writer
 * (report_json_group_head, the older with this line's time so an age that
 * only grew with the clock prints the same) and compared field by field;
 * a new field of the writer is carried by the same rule.  A group whose
 * record is the same in both snapshots (every byte but its pointers,
 * whose strings and arrays are compared by content; an age that grows
 * with the clock compared by its origin) is not written at all: the same
 * record prints the same object; nor are the fields of one whose record
 * differs only in its partitions and lag.
 *
 * Partitions (20 of them in each of 1,000 live groups, every line) are
 * compared record by record: one alike is skipped; what a reader derives
 * or gets elsewhere is left out of its patch: its lag (log_end -
 * committed), the topic partition's facts (once per line in
 * "topic_partitions", only those that changed, an entry per topic and
 * facts: tps_put), the times a moved commit's group reads say
 * (moved_default) and its lag_spark (a step,
 * in the group's "lag_spark_steps": the cells the window moved by and the
 * new ones, not 16 numbers); anything else that differs is found by
 * writing both (report_json_part) and comparing fields.  The group's lag
 * is left out when it is its partitions' sum.
 *
 * A patch: {"id":G, "KEY":value for each field whose value changed or is
 * new, "KEY@":[{"i":N, ...the same for element N...}] for an array of
 * objects of the same length whose elements changed (when that is
 * shorter; partitions whose patches are alike share one, "i" a list of
 * them; those that give the same keys share the keys, {"is":[N,...],
 * "KEY":[a value each],...}, put_columns; and a partition's time that is its group's offsets' read is "=", its
 * group's offsets' read of the last line "<": "offsets_time", else
 * "data_time"), "lag_spark_steps":[null|[shift,cells...] per partition],
 * "unset":["KEY",...] for fields no longer printed}; kgtop(1) gives the
 * reader's rules.
 */
#include "config.h"

#include "report/json_delta.h"

#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "record/json.h"
#include "report/json_scan.h"
#include "report/report.h"
#include "util/util.h"

/*
 * sbuf_adds with the length counted where it is known: most calls here
 * append a key, a literal whose length the compiler knows (a --json line
 * at 10,000 groups is a million of them; strlen was 4 % of the process).
 */
static inline void
sbuf_adds_here(sbuf *b, const char *s)
{
	sbuf_addn(b, s, strlen(s));
}
#define sbuf_adds sbuf_adds_here

/* A topic partition's facts that every group partition of it prints alike (see tp_note). */
enum { TP_LOG_END = 1, TP_LOG_START = 2, TP_PRODUCE_RATE = 4 };

/* A topic partition of the line's table (tp_seen). */
typedef struct tpslot {
	int32_t topic, partition; /* interned topic id; -1 topic: empty */
} tpslot;

/* A topic partition whose facts changed this line: written with the others of its topic and facts (tps_put). */
typedef struct tpfact {
	int32_t topic, partition;
	unsigned mask; /* TP_* that changed */
	int64_t log_end, log_start;
	double produce_rate;
} tpfact;

/* A patch's link to the others of its kind (link_kinds): the first member of alike and colel. */
typedef struct plink {
	uint32_t hash; /* of what makes its kind */
	int next;      /* the next patch of its kind, -1: none */
	int last;      /* on the first of a kind: the last patch of it */
	bool first;    /* the first of its kind, or alone, or of none */
	bool none;     /* of no kind: linked to none */
} plink;

/* A partition patch {"i":N,BODY} of a group's (merge_alike: its kind, its body). */
typedef struct alike {
	plink l;
	const char *at, *body; /* its opening brace, its body (after N) */
	size_t blen;
} alike;

/* A partition patch {"i":N,...} of a group's with its fields (put_columns: its kind, its keys but "i"). */
typedef struct colel {
	plink l;
	const char *at, *end; /* its braces */
	size_t f0, nf;        /* its fields in cf ("i" the first) */
} colel;

struct kg_jdelta {
	bool full;          /* --full: events whole (a delta stream splits their messages, report_json_tail) */
	kg_snapshot *prev;  /* the last line's snapshot (one reference), NULL: the next line is a keyframe */
	tpfact *tf;         /* this line's topic partitions whose facts changed, for "topic_partitions" */
	size_t ntf, tfcap;
	tpslot *seen;       /* the topic partitions in it (open addressing) */
	size_t nseen, cap;
	sbuf cur, old, el;  /* a group (without its partitions) as it is now and as the last line printed it; element patches */
	sbuf pc, po;        /* a partition (or all of them) now and before */
	sbuf pe, sp;        /* a group's partition patches, its "lag_spark_steps" */
	sbuf fa, fb;        /* a number printed now and before */
	sbuf dt, pdt;       /* the group's offsets' read ("offsets_time", else "data_time") as printed now and by the last line
			       (empty: none) */
	sbuf pm;            /* a group's partition patches, alike ones merged */
	alike *al;          /* those patches (merge_alike) */
	size_t alcap;
	int *ab;            /* the first patch of each body (open addressing, -1: empty) */
	size_t abcap;
	colel *ce;          /* those patches again, for columns (put_columns) */
	size_t cecap;
	jfields cf;         /* their fields, one after another */
	sbuf gone;          /* the ids gone */
	jfields fc, fo;     /* the group's fields */
	jfields ec, eo;     /* an element's fields, now and before */
};

/* ,"key":value */
static void
put_field(sbuf *o, const jfield *f, const char *suffix)
{
	sbuf_addn(o, ",\"", 2);
	sbuf_addn(o, f->key, f->klen);
	sbuf_adds(o, suffix);
	sbuf_addn(o, "\":", 2);
}

/* ,"unset":[keys of old that cur has not]; nothing when none. */
static void
put_unset(sbuf *o, const jfields *cur, const jfields *old)
{
	size_t i;
	bool any = false;
	for (i = 0; i < old->n; i++) {
		if (jfield_find(cur, &old->v[i], i) != NULL)
			continue;
		sbuf_adds(o, any ? ",\"" : ",\"unset\":[\"");
		sbuf_addn(o, old->v[i].key, old->v[i].klen);
		sbuf_addc(o, '"');
		any = true;
	}
	if (any)
		sbuf_addc(o, ']');
}

/* True (and noted) when the line's table holds the topic partition already. */
static bool
tp_seen(kg_jdelta *d, kg_tp tp)
{
	size_t i, h;
	if (d->nseen * 2 >= d->cap) {
		tpslot *old = d->seen;
		size_t oc = d->cap;
		d->cap = d->cap ? d->cap * 2 : 1024;
		d->seen = xmalloc(d->cap * sizeof *d->seen);
		for (i = 0; i < d->cap; i++)
			d->seen[i].topic = -1;
		d->nseen = 0;
		for (i = 0; i < oc; i++) {
			if (old[i].topic >= 0)
				tp_seen(d, (kg_tp){ old[i].topic, old[i].partition });
		}
		free(old);
	}
	h = ((size_t)(uint32_t)tp.topic * 2654435761u ^ (size_t)(uint32_t)tp.partition * 40503u) & (d->cap - 1);
	for (i = h; d->seen[i].topic >= 0; i = (i + 1) & (d->cap - 1)) {
		if (d->seen[i].topic == tp.topic && d->seen[i].partition == tp.partition)
			return true;
	}
	d->seen[i].topic = tp.topic;
	d->seen[i].partition = tp.partition;
	d->nseen++;
	return false;
}

/* An int64 or null when negative (as report.c prints numbers). */
static void
jnum(sbuf *o, int64_t v)
{
	if (v < 0)
		sbuf_adds(o, "null");
	else
		sbuf_addi(o, v);
}

/* A number as jnum prints it: negative ones alike (null). */
static bool
num_same(int64_t a, int64_t b)
{
	return a == b || (a < 0 && b < 0);
}

/* The lag a reader derives for a partition: log_end - committed, 0 when negative, -1 (null) when either is not known. */
static int64_t
lag_derived(const kg_gpart *p)
{
	if (p->committed < 0 || p->log_end < 0)
		return -1;
	return p->log_end > p->committed ? p->log_end - p->committed : 0;
}

/* The lag a reader derives for a group: its partitions' lags summed, -1 (null) when none is known. */
static int64_t
group_lag_derived(const kg_group *g)
{
	int64_t sum = 0;
	bool known = false;
	int i;
	for (i = 0; i < g->nparts; i++) {
		if (g->parts[i].lag >= 0) {
			sum += g->parts[i].lag;
			known = true;
		}
	}
	return known ? sum : -1;
}

/* The facts (TP_*) of the topic partition that print differently for a (now) and b (before). */
static unsigned
tp_changed(kg_jdelta *d, const kg_gpart *a, const kg_gpart *b)
{
	unsigned m = 0;
	if (!num_same(a->log_end, b->log_end))
		m |= TP_LOG_END;
	if (!num_same(a->log_start, b->log_start))
		m |= TP_LOG_START;
	if (a->produce_rate != b->produce_rate) {
		sbuf_reset(&d->fa);
		sbuf_reset(&d->fb);
		json_put_2f(&d->fa, a->produce_rate);
		json_put_2f(&d->fb, b->produce_rate);
		if (d->fa.len != d->fb.len || memcmp(d->fa.s, d->fb.s, d->fa.len) != 0)
			m |= TP_PRODUCE_RATE;
	}
	return m;
}

/* Note the facts that changed (m) of a group's partition p for the line's table, once per topic partition. */
static void
tp_note(kg_jdelta *d, const kg_gpart *p, unsigned m)
{
	tpfact *f;
	if (m == 0 || tp_seen(d, p->tp))
		return;
	util_grow(&d->tf, &d->tfcap, d->ntf + 1, sizeof *d->tf);
	f = &d->tf[d->ntf++];
	f->topic = p->tp.topic;
	f->partition = p->tp.partition;
	f->mask = m;
	f->log_end = p->log_end;
	f->log_start = p->log_start;
	f->produce_rate = p->produce_rate;
}

/* Topic partitions by topic, then the facts that changed, then partition: one entry of the table each run. */
static int
tpfact_cmp(const void *a, const void *b)
{
	const tpfact *x = a, *y = b;
	if (x->topic != y->topic)
		return x->topic < y->topic ? -1 : 1;
	if (x->mask != y->mask)
		return x->mask < y->mask ? -1 : 1;
	return (x->partition > y->partition) - (x->partition < y->partition);
}

/* One fact (TP_*) of f as a number. */
static void
tp_fact(sbuf *o, const tpfact *f, unsigned fact)
{
	if (fact == TP_LOG_END)
		jnum(o, f->log_end);
	else if (fact == TP_LOG_START)
		jnum(o, f->log_start);
	else
		json_put_2f(o, f->produce_rate);
}

/*
 * The line's "topic_partitions" entries into o (schema 8): one per
 * topic and set of facts that changed, {"topic":T,"partitions":[N,...],
 * FACT:[value per partition, ...]...}: 2,000 moving log ends at 10,000
 * groups were 75 bytes each as an object per topic partition, mostly its
 * topic and its keys again, and are 16 here.
 */
static void
tps_put(kg_jdelta *d, sbuf *o)
{
	static const struct {
		unsigned fact;
		const char *key;
	} facts[] = { { TP_LOG_END, ",\"log_end\":[" }, { TP_LOG_START, ",\"log_start\":[" },
		      { TP_PRODUCE_RATE, ",\"produce_rate\":[" } };
	size_t i, j, end, k;
	qsort(d->tf, d->ntf, sizeof *d->tf, tpfact_cmp);
	for (i = 0; i < d->ntf; i = end) {
		for (end = i + 1; end < d->ntf && d->tf[end].topic == d->tf[i].topic && d->tf[end].mask == d->tf[i].mask; end++)
			;
		sbuf_adds(o, i ? ",{\"topic\":" : "{\"topic\":");
		json_put_str(o, intern_topic_name(d->tf[i].topic));
		sbuf_adds(o, ",\"partitions\":[");
		for (j = i; j < end; j++) {
			if (j > i)
				sbuf_addc(o, ',');
			sbuf_addi(o, d->tf[j].partition);
		}
		sbuf_addc(o, ']');
		for (k = 0; k < KG_ARRAY_LEN(facts); k++) {
			if (!(d->tf[i].mask & facts[k].fact))
				continue;
			sbuf_adds(o, facts[k].key);
			for (j = i; j < end; j++) {
				if (j > i)
					sbuf_addc(o, ',');
				tp_fact(o, &d->tf[j], facts[k].fact);
			}
			sbuf_addc(o, ']');
		}
		sbuf_addc(o, '}');
	}
}

/* True for the keys a partition's patch leaves to other rules: its lag, its spark, the topic partition's facts. */
static bool
part_key_apart(const jfield *f)
{
	static const char *const keys[] = { "lag", "lag_spark", "log_end", "log_start", "produce_rate" };
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(keys); i++) {
		if (f->klen == strlen(keys[i]) && memcmp(f->key, keys[i], f->klen) == 0)
			return true;
	}
	return false;
}

/*
 * True for a "time_lag_ms" (at i of f) that the reader ages from a
 * "time_lag_from_us" not null: a patch leaves it out (kgtop(1)).
 */
static bool
aged(const jfields *f, size_t i)
{
	static const jfield from = { "time_lag_from_us", 16, NULL, 0 };
	const jfield *x = &f->v[i], *o;
	if (x->klen != 11 || memcmp(x->key, "time_lag_ms", 11) != 0)
		return false;
	o = jfield_find(f, &from, i + 1);
	return o != NULL && !(o->vlen == 4 && memcmp(o->val, "null", 4) == 0);
}

/* True when field f's value prints as t (not empty). */
static bool
val_is(const jfield *f, const sbuf *t)
{
	return t->len > 0 && f->vlen == t->len && memcmp(f->val, t->s, t->len) == 0;
}

/* A key named k (length n). */
static bool
key_is(const jfield *f, const char *k, size_t n)
{
	return f->klen == n && memcmp(f->key, k, n) == 0;
}

/*
 * In a partition patch that gives "committed" (schema 8, kgtop(1)): the
 * value a reader puts in a field the patch leaves out, NULL for a field
 * without such a rule.  A commit seen moving was seen by the group's read
 * (dt: "committed_moved", "frozen_since_max" where it had one) and after
 * the read before (pdt: "committed_moved_after"): 70 of a moved
 * partition's 150 bytes were those three saying so.
 */
static const sbuf *
moved_default(const jfield *f, const jfield *was, const sbuf *dt, const sbuf *pdt)
{
	if (key_is(f, "committed_moved", 15) || (key_is(f, "frozen_since_max", 16) && was != NULL))
		return dt;
	if (key_is(f, "committed_moved_after", 21))
		return pdt;
	return NULL;
}

/*
 * The changed fields of cur against old (but those part_key_apart when
 * apart); true when any.  dt, pdt: the group's offsets' read as printed now
 * and by the last line (NULL: none), a value printed alike written "=" or
 * "<" (a partition's patch, kgtop(1)): a commit seen moving between the
 * group's last two reads says so in 3 bytes, not 26; and in a partition's
 * patch that gives "committed" not at all (moved_default), but a field
 * that differs from what the reader would put is given even when it did
 * not change.
 */
static bool
put_changes(sbuf *o, const jfields *cur, const jfields *old, bool apart, const sbuf *dt, const sbuf *pdt)
{
	static const jfield committed = { "committed", 9, NULL, 0 };
	size_t i, start = o->len;
	bool moved = false;
	if (apart && dt != NULL) {
		const jfield *c = jfield_find(cur, &committed, 2), *w = jfield_find(old, &committed, 2);
		moved = c != NULL && (w == NULL || !jsame(c, w));
	}
	for (i = 0; i < cur->n; i++) {
		const jfield *was = jfield_find(old, &cur->v[i], i), *f = &cur->v[i];
		const sbuf *def = moved ? moved_default(f, was, dt, pdt) : NULL;
		if (def != NULL ? val_is(f, def) : was != NULL && jsame(f, was))
			continue;
		if ((apart && part_key_apart(f)) || (was != NULL && aged(cur, i)))
			continue;
		put_field(o, f, "");
		if (dt != NULL && val_is(f, dt))
			sbuf_addn(o, "\"=\"", 3);
		else if (pdt != NULL && val_is(f, pdt))
			sbuf_addn(o, "\"<\"", 3);
		else
			sbuf_addn(o, f->val, f->vlen);
	}
	put_unset(o, cur, old);
	return o->len > start;
}

/*
 * The element patches of two arrays of objects into d->el:
 * {"i":N,changes} for each element that differs; false when they are not
 * two arrays of as many objects.
 */
static bool
element_patches(kg_jdelta *d, const jfield *cur, const jfield *old)
{
	const char *c = cur->val + 1, *o = old->val + 1;
	int i = 0;
	bool first = true;
	sbuf_reset(&d->el);
	if (cur->val[0] != '[' || old->val[0] != '[')
		return false;
	while (*c == '{' && *o == '{') {
		const char *ce = jskip(c), *oe = jskip(o);
		if (ce - c != oe - o || memcmp(c, o, (size_t)(ce - c)) != 0) {
			size_t at = d->el.len;
			jfields_of(c, &d->ec);
			jfields_like(o, old->vlen - (size_t)(o - old->val), &d->ec, &d->eo);
			sbuf_adds(&d->el, first ? "{\"i\":" : ",{\"i\":");
			sbuf_addi(&d->el, i);
			if (put_changes(&d->el, &d->ec, &d->eo, false, NULL, NULL)) {
				sbuf_addc(&d->el, '}');
				first = false;
			} else {
				d->el.len = at;
			}
		}
		c = *ce == ',' ? ce + 1 : ce;
		o = *oe == ',' ? oe + 1 : oe;
		i++;
	}
	return *c == ']' && *o == ']' && i > 0;
}

/*
 * A partition's lag_spark step (kgtop(1)): [shift, cells...]: drop the
 * shift oldest cells of the old spark, 0 for as many new ones, then the
 * cells replace the newest ones; the shift that needs the fewest cells.
 */
static void
spark_step(sbuf *o, const uint8_t *was, const uint8_t *now)
{
	int shift, best = 0, bestn = KG_SPARK + 1, k;
	for (shift = 0; shift <= KG_SPARK; shift++) {
		for (k = 0; k < KG_SPARK; k++) {
			uint8_t v = k + shift < KG_SPARK ? was[k + shift] : 0;
			if (v != now[k])
				break;
		}
		if (KG_SPARK - k < bestn) {
			bestn = KG_SPARK - k;
			best = shift;
		}
	}
	sbuf_addc(o, '[');
	sbuf_addi(o, best);
	for (k = KG_SPARK - bestn; k < KG_SPARK; k++) {
		sbuf_addc(o, ',');
		sbuf_addi(o, now[k]);
	}
	sbuf_addc(o, ']');
}

/* The member id a partition's owner index prints (NULL: none). */
static const char *
owner_id(const kg_group *g, int owner)
{
	return owner >= 0 && owner < g->nmembers ? g->members[owner].member_id : NULL;
}

static bool str_same(const char *a, const char *b);
static bool part_same(const kg_gpart *a, const kg_gpart *b);

/* Append patch a's N (as printed). */
static void
put_alike_i(sbuf *o, const alike *a)
{
	sbuf_addn(o, a->at + 5, (size_t)(a->body - a->at - 5));
}

/* A patch's link, alone so far: the i-th, its kind's hash h. */
static void
plink_init(plink *l, size_t i, uint32_t h)
{
	l->hash = h;
	l->next = -1;
	l->last = (int)i;
	l->first = true;
	l->none = false;
}

/*
 * Link the n patches at base (each size bytes, a plink first) to the
 * others of their kind, from the first of each (same: are patches i and
 * j of one kind?); each is looked up once in a table of the firsts
 * (hashed, d->ab): linear in the patches.  True when any patch has
 * another of its kind.
 */
static bool
link_kinds(kg_jdelta *d, char *base, size_t size, size_t n, bool (*same)(const kg_jdelta *, size_t, size_t))
{
	size_t i, mask;
	bool any = false;
	for (mask = 16; mask < 2 * n; mask *= 2)
		;
	util_grow(&d->ab, &d->abcap, mask, sizeof *d->ab);
	memset(d->ab, 0xff, mask * sizeof *d->ab); /* -1 each */
	mask--;
	for (i = 0; i < n; i++) {
		plink *a = (plink *)(void *)(base + i * size), *f;
		size_t s = a->hash & mask;
		if (a->none)
			continue;
		for (; d->ab[s] >= 0; s = (s + 1) & mask) {
			f = (plink *)(void *)(base + (size_t)d->ab[s] * size);
			if (f->hash == a->hash && same(d, (size_t)d->ab[s], i))
				break;
		}
		if (d->ab[s] < 0) {
			d->ab[s] = (int)i;
			continue;
		}
		f = (plink *)(void *)(base + (size_t)d->ab[s] * size);
		((plink *)(void *)(base + (size_t)f->last * size))->next = (int)i;
		f->last = (int)i;
		a->first = false;
		any = true;
	}
	return any;
}

/* Do patches i and j (d->al) say the same? */
static bool
alike_same(const kg_jdelta *d, size_t i, size_t j)
{
	const alike *a = &d->al[i], *b = &d->al[j];
	return a->blen == b->blen && memcmp(a->body, b->body, a->blen) == 0;
}

/*
 * Merge the element patches in d->pe that say the same ({"i":N,BODY}):
 * one {"i":[N,M,...],BODY} for each BODY said more than once, where it
 * was first (kgtop(1)): 9,000 Empty groups' partitions turning STOPPED a
 * refresh are a verdict each, not a patch each.  Each patch is looked up
 * once in a table of the bodies seen (hashed): linear in the patches.
 */
static void
merge_alike(kg_jdelta *d)
{
	const char *q = d->pe.s;
	size_t n = 0, i;
	if (d->pe.len == 0)
		return;
	while (*q == '{') {
		const char *e = jskip(q), *b = q + 5; /* past {"i": */
		alike *a;
		while (*b >= '0' && *b <= '9')
			b++;
		util_grow(&d->al, &d->alcap, n + 1, sizeof *d->al);
		a = &d->al[n];
		a->at = q;
		a->body = b;
		a->blen = (size_t)(e - b);
		plink_init(&a->l, n, util_hash(b, a->blen));
		n++;
		q = *e == ',' ? e + 1 : e;
	}
	if (*q != '\0' || n < 2 || !link_kinds(d, (char *)d->al, sizeof *d->al, n, alike_same))
		return;
	sbuf_reset(&d->pm);
	for (i = 0; i < n; i++) {
		const alike *a = &d->al[i];
		int j;
		if (!a->l.first)
			continue;
		sbuf_adds(&d->pm, d->pm.len ? ",{\"i\":" : "{\"i\":");
		if (a->l.next < 0) {
			put_alike_i(&d->pm, a);
		} else {
			sbuf_addc(&d->pm, '[');
			put_alike_i(&d->pm, a);
			for (j = a->l.next; j >= 0; j = d->al[j].l.next) {
				sbuf_addc(&d->pm, ',');
				put_alike_i(&d->pm, &d->al[j]);
			}
			sbuf_addc(&d->pm, ']');
		}
		sbuf_addn(&d->pm, a->body, a->blen);
	}
	sbuf_reset(&d->pe);
	sbuf_addn(&d->pe, d->pm.s, d->pm.len);
}

/* Do patches i and j (of d->ce) give the same keys in the same order? */
static bool
same_keys(const kg_jdelta *d, size_t i, size_t j)
{
	const colel *a = &d->ce[i], *b = &d->ce[j];
	size_t k;
	if (a->nf != b->nf)
		return false;
	for (k = 1; k < a->nf; k++) {
		const jfield *x = &d->cf.v[a->f0 + k], *y = &d->cf.v[b->f0 + k];
		if (x->klen != y->klen || memcmp(x->key, y->key, x->klen) != 0)
			return false;
	}
	return true;
}

/*
 * Write the element patches in d->pe that give the same keys as columns
 * (schema 10, kgtop(1)): {"is":[N,M,...],"KEY":[its value for N, for
 * M, ...],...} where they were first, for {"i":N,"KEY":...},{"i":M,...}.
 * At 10,000 groups a line patches some 10,000 partitions, each giving
 * its new "committed" and the like: their keys were two thirds of the
 * line.  A patch whose "i" is a list (merge_alike) stays as it is; so
 * does one whose keys no other gives.  Each patch is looked up once in
 * a table of the key lists seen (hashed): linear in the patches.
 */
static void
put_columns(kg_jdelta *d)
{
	const char *q = d->pe.s;
	size_t n = 0, i, k;
	if (d->pe.len == 0)
		return;
	d->cf.n = 0;
	while (*q == '{') {
		const char *e = jskip(q);
		colel *c;
		uint32_t h = 2166136261u;
		util_grow(&d->ce, &d->cecap, n + 1, sizeof *d->ce);
		c = &d->ce[n];
		c->at = q;
		c->end = e;
		c->f0 = d->cf.n;
		jfields_add(q, &d->cf);
		c->nf = d->cf.n - c->f0;
		for (k = 1; k < c->nf; k++)
			h = (h ^ util_hash(d->cf.v[c->f0 + k].key, d->cf.v[c->f0 + k].klen)) * 16777619u;
		plink_init(&c->l, n, h);
		/* a number's "i" and something more: a column's row */
		c->l.none = c->nf < 2 || d->cf.v[c->f0].klen != 1 || d->cf.v[c->f0].key[0] != 'i' || d->cf.v[c->f0].val[0] == '[';
		n++;
		q = *e == ',' ? e + 1 : e;
	}
	if (*q != '\0' || n < 2 || !link_kinds(d, (char *)d->ce, sizeof *d->ce, n, same_keys))
		return;
	sbuf_reset(&d->pm);
	for (i = 0; i < n; i++) {
		const colel *c = &d->ce[i];
		int j;
		if (!c->l.first)
			continue;
		if (d->pm.len)
			sbuf_addc(&d->pm, ',');
		if (c->l.next < 0) {
			sbuf_addn(&d->pm, c->at, (size_t)(c->end - c->at));
			continue;
		}
		for (k = 0; k < c->nf; k++) {
			const jfield *f = &d->cf.v[c->f0 + k];
			sbuf_adds(&d->pm, k == 0 ? "{\"is\":[" : ",\"");
			if (k > 0) {
				sbuf_addn(&d->pm, f->key, f->klen);
				sbuf_adds(&d->pm, "\":[");
			}
			sbuf_addn(&d->pm, f->val, f->vlen);
			for (j = c->l.next; j >= 0; j = d->ce[j].l.next) {
				const jfield *g = &d->cf.v[d->ce[j].f0 + k];
				sbuf_addc(&d->pm, ',');
				sbuf_addn(&d->pm, g->val, g->vlen);
			}
			sbuf_addc(&d->pm, ']');
		}
		sbuf_addc(&d->pm, '}');
	}
	sbuf_reset(&d->pe);
	sbuf_addn(&d->pe, d->pm.s, d->pm.len);
}

/*
 * The partitions of g (now) against p's (the last line's): element
 * patches into d->pe and lag_spark steps into d->sp when both have the
 * same topic partitions, else *whole when they print differently (the
 * array is in d->pc).  *lags: a partition's lag prints differently (the
 * reader derives the group's lag again).
 */
static void
parts_changes(kg_jdelta *d, const kg_group *g, const kg_group *p, int64_t line_us, bool *whole, bool *lags)
{
	int i;
	bool same = g->nparts == p->nparts && g->type == p->type, steps = false;
	sbuf_reset(&d->pe);
	sbuf_reset(&d->sp);
	sbuf_reset(&d->dt);
	sbuf_reset(&d->pdt);
	/* the partitions' times are of the committed offsets' reads (schema 9) */
	if (kg_group_offs_time(g) > 0)
		json_put_time(&d->dt, kg_group_offs_time(g));
	if (kg_group_offs_time(p) > 0)
		json_put_time(&d->pdt, kg_group_offs_time(p));
	*whole = *lags = false;
	for (i = 0; same && i < g->nparts; i++)
		same = g->parts[i].tp.topic == p->parts[i].tp.topic && g->parts[i].tp.partition == p->parts[i].tp.partition;
	if (!same) {
		sbuf_reset(&d->pc);
		sbuf_reset(&d->po);
		for (i = 0; i < g->nparts; i++) {
			sbuf_adds(&d->pc, i ? "," : "");
			report_json_part(&d->pc, g, &g->parts[i], line_us);
		}
		for (i = 0; i < p->nparts; i++) {
			sbuf_adds(&d->po, i ? "," : "");
			report_json_part(&d->po, p, &p->parts[i], line_us);
		}
		*whole = *lags = d->pc.len != d->po.len || memcmp(d->pc.s, d->po.s, d->pc.len) != 0;
		return;
	}
	for (i = 0; i < g->nparts; i++) {
		const kg_gpart *a = &g->parts[i], *b = &p->parts[i];
		kg_gpart x = *a;
		bool owners = str_same(owner_id(g, a->owner), owner_id(p, b->owner)) &&
			      str_same(owner_id(g, a->target_owner), owner_id(p, b->target_owner));
		bool facts = !num_same(a->committed, b->committed) || !num_same(a->log_end, b->log_end);
		bool lag = facts ? !num_same(a->lag, lag_derived(a)) : !num_same(a->lag, b->lag);
		size_t at = d->pe.len, body;
		sbuf_adds(&d->sp, i ? "," : "");
		if (memcmp(a->spark, b->spark, sizeof a->spark) != 0) {
			spark_step(&d->sp, b->spark, a->spark);
			steps = true;
		} else {
			sbuf_adds(&d->sp, "null");
		}
		if (owners && part_same(a, b))
			continue;
		*lags = *lags || !num_same(a->lag, b->lag);
		tp_note(d, a, tp_changed(d, a, b));
		/* the rest of the record alike: what the rules above carry is all that changed */
		x.log_end = b->log_end;
		x.log_start = b->log_start;
		x.produce_rate = b->produce_rate;
		x.lag = b->lag;
		x.owner = b->owner;
		x.target_owner = b->target_owner;
		memcpy(x.spark, b->spark, sizeof x.spark);
		sbuf_adds(&d->pe, d->pe.len ? ",{\"i\":" : "{\"i\":");
		sbuf_addi(&d->pe, i);
		body = d->pe.len;
		if (!owners || !part_same(&x, b)) {
			sbuf_reset(&d->pc);
			sbuf_reset(&d->po);
			report_json_part(&d->pc, g, a, line_us);
			report_json_part(&d->po, p, b, line_us);
			jfields_of(d->pc.s, &d->ec);
			jfields_like(d->po.s, d->po.len, &d->ec, &d->eo);
			put_changes(&d->pe, &d->ec, &d->eo, true, &d->dt, &d->pdt);
		}
		if (lag) {
			sbuf_adds(&d->pe, ",\"lag\":");
			jnum(&d->pe, a->lag);
		}
		if (d->pe.len == body) {
			d->pe.len = at; /* {"i":N and nothing more */
			d->pe.s[at] = '\0';
		} else {
			sbuf_addc(&d->pe, '}');
		}
	}
	if (!steps)
		sbuf_reset(&d->sp);
	merge_alike(d);
	put_columns(d);
}

/*
 * A group's patch into o (head: its fields but partitions differ, written
 * in d->cur: now, d->old: the last line's); false when nothing changed.
 */
static bool
put_patch(kg_jdelta *d, sbuf *o, const kg_group *g, const kg_group *p, int64_t line_us, bool head)
{
	size_t i, start = o->len, idlen;
	bool whole, lags, lag;
	parts_changes(d, g, p, line_us, &whole, &lags);
	sbuf_adds(o, "{\"id\":");
	json_put_str(o, g->name);
	idlen = o->len - start;
	if (head) {
		jfields_of(d->cur.s, &d->fc);
		jfields_like(d->old.s, d->old.len, &d->fc, &d->fo);
	} else {
		d->fc.n = d->fo.n = 0;
	}
	for (i = 1; i < d->fc.n; i++) {
		const jfield *f = &d->fc.v[i], *was = jfield_find(&d->fo, f, i);
		if (was != NULL && jsame(f, was))
			continue;
		if ((f->klen == 3 && memcmp(f->key, "lag", 3) == 0 && was != NULL) || (was != NULL && aged(&d->fc, i)))
			continue; /* below; aged by the reader */
		if (was != NULL && element_patches(d, f, was)) {
			if (d->el.len + 4 < f->vlen) {
				put_field(o, f, "@");
				sbuf_addc(o, '[');
				sbuf_addn(o, d->el.s, d->el.len);
				sbuf_addc(o, ']');
				continue;
			}
		}
		put_field(o, f, "");
		sbuf_addn(o, f->val, f->vlen);
	}
	put_unset(o, &d->fc, &d->fo);
	if (whole) {
		sbuf_adds(o, ",\"partitions\":[");
		sbuf_addn(o, d->pc.s, d->pc.len);
		sbuf_addc(o, ']');
	} else {
		if (d->pe.len > 0) {
			sbuf_adds(o, ",\"partitions@\":[");
			sbuf_addn(o, d->pe.s, d->pe.len);
			sbuf_addc(o, ']');
		}
		if (d->sp.len > 0) {
			sbuf_adds(o, ",\"lag_spark_steps\":[");
			sbuf_addn(o, d->sp.s, d->sp.len);
			sbuf_addc(o, ']');
		}
	}
	/* the group's lag: derived by the reader when a partition's lag changed, unless given */
	lag = lags ? !num_same(g->lag, group_lag_derived(g)) : !num_same(g->lag, p->lag);
	if (lag) {
		sbuf_adds(o, ",\"lag\":");
		jnum(o, g->lag);
	}
	if (o->len == start + idlen) {
		o->len = start;
		o->s[o->len] = '\0';
		return false;
	}
	sbuf_addc(o, '}');
	return true;
}

/* ---------------------------------------------------------------- the same record */

/* Two strings alike (NULL only like NULL). */
static bool
str_same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Two members alike, every byte but their pointers, whose strings and assignments are compared. */
static bool
member_same(const kg_member *a, const kg_member *b)
{
	kg_member x, y;
	if (a->nassigned != b->nassigned || !str_same(a->member_id, b->member_id) || !str_same(a->client_id, b->client_id) ||
	    !str_same(a->host, b->host) || !str_same(a->instance_id, b->instance_id) ||
	    !str_same(a->silent_why, b->silent_why) || !str_same(a->health.health_source, b->health.health_source) ||
	    (a->nassigned > 0 && memcmp(a->assignment, b->assignment, (size_t)a->nassigned * sizeof *a->assignment) != 0))
		return false;
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	x.member_id = x.client_id = x.host = x.instance_id = x.silent_why = x.health.health_source = NULL;
	y.member_id = y.client_id = y.host = y.instance_id = y.silent_why = y.health.health_source = NULL;
	x.assignment = y.assignment = NULL;
	return memcmp(&x, &y, sizeof x) == 0;
}

/* Two partitions alike; an age that grows with the clock by its origin. */
static bool
part_same(const kg_gpart *a, const kg_gpart *b)
{
	kg_gpart x, y;
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	if (x.time_lag_from_us > 0)
		x.time_lag_us = 0;
	if (y.time_lag_from_us > 0)
		y.time_lag_us = 0;
	return memcmp(&x, &y, sizeof x) == 0;
}

/* Two records of a group alike: then they print alike (the snapshots' shared facts compared by the caller). */
static bool
group_same(const kg_group *a, const kg_group *b)
{
	kg_group x, y;
	int i;
	if (a->nmembers != b->nmembers || a->nparts != b->nparts || !str_same(a->name, b->name) ||
	    !str_same(a->protocol_type, b->protocol_type) || !str_same(a->assignor, b->assignor) ||
	    !str_same(a->error, b->error) || !str_same(a->commit_policy, b->commit_policy))
		return false;
	for (i = 0; a->parts != b->parts && i < a->nparts; i++) {
		/* (the very rows a kept: the same, rows.h) */
		if (!part_same(&a->parts[i], &b->parts[i]))
			return false;
	}
	for (i = 0; i < a->nmembers; i++) {
		if (!member_same(&a->members[i], &b->members[i]))
			return false;
	}
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	x.name = x.protocol_type = x.assignor = x.error = x.commit_policy = NULL;
	y.name = y.protocol_type = y.assignor = y.error = y.commit_policy = NULL;
	x.members = y.members = NULL;
	x.parts = y.parts = NULL;
	x.rows = y.rows = NULL; /* where the rows live, not what they say */
	x.kept = y.kept = false;
	if (x.time_lag_from_us > 0)
		x.time_lag_us = 0;
	if (y.time_lag_from_us > 0)
		y.time_lag_us = 0;
	return memcmp(&x, &y, sizeof x) == 0;
}

/* Two records of a group alike but for their partitions and lag (what prints of the group beside its partitions). */
static bool
group_head_same(const kg_group *a, const kg_group *b)
{
	kg_group x, y;
	int i, fa = 0, fb = 0;
	if (a->nmembers != b->nmembers || !str_same(a->name, b->name) || !str_same(a->protocol_type, b->protocol_type) ||
	    !str_same(a->assignor, b->assignor) || !str_same(a->error, b->error) || !str_same(a->commit_policy, b->commit_policy))
		return false;
	for (i = 0; i < a->nmembers; i++) {
		if (!member_same(&a->members[i], &b->members[i]))
			return false;
	}
	for (i = 0; i < a->nparts; i++)
		fa += a->parts[i].in_flight;
	for (i = 0; i < b->nparts; i++)
		fb += b->parts[i].in_flight;
	if (fa != fb)
		return false; /* the group's "in_flight" counts them */
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	x.name = x.protocol_type = x.assignor = x.error = x.commit_policy = NULL;
	y.name = y.protocol_type = y.assignor = y.error = y.commit_policy = NULL;
	x.members = y.members = NULL;
	x.parts = y.parts = NULL;
	x.rows = y.rows = NULL;
	x.kept = y.kept = false;
	x.nparts = y.nparts = 0;
	x.lag = y.lag = 0;
	if (x.time_lag_from_us > 0)
		x.time_lag_us = 0;
	if (y.time_lag_from_us > 0)
		y.time_lag_us = 0;
	return memcmp(&x, &y, sizeof x) == 0;
}

/* ---------------------------------------------------------------- lines */

/* Start the deltas of a run. */
kg_jdelta *
jdelta_new(bool full)
{
	kg_jdelta *d = xcalloc(1, sizeof(kg_jdelta));
	d->full = full;
	return d;
}

/* Free them. */
void
jdelta_free(kg_jdelta *d)
{
	if (d == NULL)
		return;
	snapshot_unref(d->prev);
	sbuf_free(&d->cur);
	sbuf_free(&d->old);
	sbuf_free(&d->el);
	sbuf_free(&d->pc);
	sbuf_free(&d->po);
	sbuf_free(&d->pe);
	sbuf_free(&d->sp);
	sbuf_free(&d->fa);
	sbuf_free(&d->fb);
	sbuf_free(&d->dt);
	sbuf_free(&d->pdt);
	sbuf_free(&d->pm);
	free(d->al);
	free(d->ab);
	free(d->ce);
	free(d->cf.v);
	sbuf_free(&d->gone);
	free(d->tf);
	free(d->seen);
	free(d->fc.v);
	free(d->fo.v);
	free(d->ec.v);
	free(d->eo.v);
	free(d);
}

/* Make the next line a keyframe. */
void
jdelta_reset(kg_jdelta *d)
{
	snapshot_unref(d->prev);
	d->prev = NULL;
}

/* The groups of s changed since prev, as patches; the ids gone after ",\"gone\":[". */
static void
put_delta(kg_jdelta *d, sbuf *o, const kg_snapshot *s, const kg_snapshot *prev, jdelta_counts *n)
{
	int i = 0, j = 0;
	bool first = true, head, shared = s->offsets_partitions == prev->offsets_partitions;
	sbuf_reset(&d->gone);
	/* both are sorted by name: a merge */
	while (i < s->ngroups || j < prev->ngroups) {
		const kg_group *g = i < s->ngroups ? &s->groups[i] : NULL, *p = j < prev->ngroups ? &prev->groups[j] : NULL;
		int c = g == NULL ? 1 : p == NULL ? -1 : g->id == p->id ? 0 : strcmp(g->name, p->name);
		size_t at = o->len;
		if (c > 0) {
			sbuf_adds(&d->gone, d->gone.len ? "," : "");
			json_put_str(&d->gone, p->name);
			n->gone++;
			j++;
			continue;
		}
		if (!first)
			sbuf_addc(o, ',');
		if (c < 0) {
			report_json_group(o, g, s, s->time_us);
			n->whole++;
			first = false;
			i++;
			continue;
		}
		i++;
		j++;
		if (shared && group_same(g, p)) {
			o->len = at;
			continue;
		}
		head = !shared || !group_head_same(g, p);
		if (head) {
			sbuf_reset(&d->cur);
			sbuf_reset(&d->old);
			report_json_group_head(&d->cur, g, s, s->time_us);
			report_json_group_head(&d->old, p, prev, s->time_us);
			n->written++;
		}
		if (put_patch(d, o, g, p, s->time_us, head)) {
			n->patched++;
			first = false;
		} else {
			o->len = at;
		}
	}
	o->s[o->len] = '\0';
	sbuf_adds(o, "],\"gone\":[");
	sbuf_addn(o, d->gone.s ? d->gone.s : "", d->gone.len);
	sbuf_adds(o, "],\"topic_partitions\":[");
	tps_put(d, o);
}

/* One line (see json_delta.h). */
jdelta_counts
jdelta_line(kg_jdelta *d, sbuf *o, kg_snapshot *s, kg_event *const *events, size_t nevents, int64_t t0_us, bool stale,
	    bool keyframe)
{
	jdelta_counts n;
	int i;
	memset(&n, 0, sizeof n);
	keyframe = keyframe || d->prev == NULL;
	n.keyframe = keyframe;
	report_json_head(o, s, stale, keyframe);
	if (keyframe) {
		for (i = 0; i < s->ngroups; i++) {
			if (i)
				sbuf_addc(o, ',');
			report_json_group(o, &s->groups[i], s, s->time_us);
		}
		n.whole = s->ngroups;
	} else {
		d->ntf = 0;
		d->nseen = 0;
		for (i = 0; (size_t)i < d->cap; i++)
			d->seen[i].topic = -1;
		put_delta(d, o, s, d->prev, &n);
	}
	report_json_tail(o, events, nevents, t0_us, !d->full);
	if (d->prev != s) {
		snapshot_unref(d->prev);
		d->prev = snapshot_ref(s);
	}
	return n;
}

/*
 * kafka_table.c: what the kafka source's worker knows across refreshes
 * (the group table) and what it publishes (results); see kafka_table.h.
 * Pure data: no librdkafka, no lock (the worker alone touches the table;
 * a published result is never changed).
 */
#include "config.h"

#include "sources/kafka/kafka_table.h"

#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "util/util.h"

/* ---------------------------------------------------------------- table */

/* Drop a reference to a description. */
void
kafka_desc_unref(kdesc *d)
{
	int i;
	if (d == NULL || --d->refs > 0)
		return;
	for (i = 0; i < d->nm; i++) {
		free(d->m[i].member_id);
		free(d->m[i].client_id);
		free(d->m[i].host);
		free(d->m[i].instance_id);
		free(d->m[i].asg);
		free(d->m[i].target);
	}
	free(d->m);
	free(d->assignor);
	free(d);
}

/* Drop a reference to committed offsets. */
void
kafka_offs_unref(koffs *o)
{
	if (o == NULL || --o->refs > 0)
		return;
	free(o->c);
	free(o);
}

/* The entry of a group id. */
kentry *
kafka_table_get(ktable *t, int32_t id)
{
	if (id < 0 || (size_t)id >= t->nidx || t->idx[id] < 0)
		return NULL;
	return &t->e[t->idx[id]];
}

/* The entry of a group id, made when new. */
kentry *
kafka_table_add(ktable *t, int32_t id)
{
	kentry *e = kafka_table_get(t, id);
	if (e != NULL)
		return e;
	if ((size_t)id >= t->nidx) {
		size_t n = t->nidx ? t->nidx : 64, old = t->nidx;
		while (n <= (size_t)id)
			n *= 2;
		t->idx = xreallocarray(t->idx, n, sizeof *t->idx);
		for (; old < n; old++)
			t->idx[old] = -1;
		t->nidx = n;
	}
	util_grow(&t->e, &t->cap, t->n + 1, sizeof *t->e);
	e = &t->e[t->n];
	memset(e, 0, sizeof *e);
	e->s.id = id;
	e->s.listed = e->s.described = KG_STATE_UNKNOWN;
	e->watch_topic = -1;
	t->idx[id] = (int)t->n++;
	return e;
}

/* Free an entry's contents. */
static void
entry_clear(kentry *e)
{
	kafka_desc_unref(e->desc);
	kafka_offs_unref(e->offs);
	kafka_offs_unref(e->prev_offs);
	free(e->desc_err);
	free(e->offs_err);
}

/* Drop the entries not listed now and not watched. */
void
kafka_table_prune(ktable *t)
{
	size_t i = 0;
	while (i < t->n) {
		kentry *e = &t->e[i];
		if (e->listed_now || e->watch_topic >= 0) {
			i++;
			continue;
		}
		t->idx[e->s.id] = -1;
		entry_clear(e);
		if (i != t->n - 1) {
			*e = t->e[t->n - 1];
			t->idx[e->s.id] = (int)i;
		}
		t->n--;
	}
}

/* The groups whose description's coordinator is not their partition's leader now (kafka_table.h). */
int
kafka_table_coordinators_moved(const ktable *t, const int32_t *leader, int32_t np, int32_t *first)
{
	size_t i;
	int n = 0;
	*first = -1;
	for (i = 0; leader != NULL && i < t->n; i++) {
		const kentry *e = &t->e[i];
		int32_t p;
		if (e->desc == NULL || e->desc->coordinator < 0)
			continue;
		p = group_offsets_partition(intern_group_name(e->s.id), np);
		if (p < 0 || leader[p] < 0 || leader[p] == e->desc->coordinator)
			continue;
		if (n++ == 0)
			*first = e->s.id;
	}
	return n;
}

/* Free the table. */
void
kafka_table_free(ktable *t)
{
	size_t i;
	for (i = 0; i < t->n; i++)
		entry_clear(&t->e[i]);
	free(t->e);
	free(t->idx);
	memset(t, 0, sizeof *t);
}

/* --------------------------------------------------------------- results */

/* Drop a result group's references. */
static void
group_clear(kgroup *g)
{
	kafka_desc_unref(g->desc);
	kafka_offs_unref(g->offs);
	free(g->error);
}

/* tp's commit in o, NULL none (o's i-th first: answers come in the same order). */
static const kcommit *
commit_of(const koffs *o, int i, kg_tp tp)
{
	int j;
	if (i < o->nc && o->c[i].tp.topic == tp.topic && o->c[i].tp.partition == tp.partition)
		return &o->c[i];
	for (j = 0; j < o->nc; j++) {
		if (o->c[j].tp.topic == tp.topic && o->c[j].tp.partition == tp.partition)
			return &o->c[j];
	}
	return NULL;
}

/* The committed offset of tp in o, -1 none. */
static int64_t
offs_at(const koffs *o, int i, kg_tp tp)
{
	const kcommit *c = commit_of(o, i, tp);
	return c != NULL ? c->offset : -1;
}

/* A group's new committed offsets; the answer before kept while the group may have members. */
void
kafka_table_offsets(kentry *e, koffs *o)
{
	/* an answer that came back empty (the retry of an "all partitions" one) says nothing of the one before */
	const koffs *before = e->offs != NULL && e->offs->nc > 0 ? e->offs : e->prev_offs;
	int64_t gap = 0;
	int q;
	for (q = 0; q < o->nc; q++) {
		const kcommit *was = before != NULL ? commit_of(before, q, o->c[q].tp) : NULL;
		if (was != NULL && was->offset >= 0 && was->offset == o->c[q].offset) {
			o->c[q].seen_us = was->seen_us;
			continue;
		}
		o->c[q].seen_us = o->time_us;
		/* moved: the time since the answers first gave its previous offset, about its gap between commits */
		if (was != NULL && was->offset >= 0)
			gap = KG_MAX(gap, o->time_us - was->seen_us);
	}
	/*
	 * the longest of this answer's moves, or the older estimate fading by a
	 * quarter an answer that moved: an answer in a freeze keeps it (the
	 * STALLED rule keeps its usual gap through a freeze, so must the
	 * settling, kafka_sched.h)
	 */
	if (gap > 0)
		e->s.gap_us = KG_MAX(gap, e->s.gap_us - e->s.gap_us / 4);
	kafka_offs_unref(e->prev_offs);
	e->prev_offs = NULL;
	if (e->s.listed != KG_STATE_EMPTY && e->s.listed != KG_STATE_DEAD)
		e->prev_offs = e->offs;
	else
		kafka_offs_unref(e->offs);
	e->offs = o;
}

/* Members: listed so, else (no state in the listing) described so. */
static bool
entry_members(const kentry *e)
{
	if (e->s.listed != KG_STATE_UNKNOWN)
		return e->s.listed != KG_STATE_EMPTY && e->s.listed != KG_STATE_DEAD;
	return e->desc != NULL && e->desc->nm > 0;
}

/* The log-end of tp in the result, -1 unknown (by topic id through by_id, nid long). */
static int64_t
log_end_of(ktopic *const *by_id, size_t nid, kg_tp tp)
{
	const ktopic *k = tp.topic >= 0 && (size_t)tp.topic < nid ? by_id[tp.topic] : NULL;
	return k != NULL && tp.partition >= 0 && tp.partition < k->np ? k->log_end[tp.partition] : -1;
}

/* An entry's own scheduler flags: members, lag, and (answered now) a partition with lag left where it was. */
static void
entry_flags(kentry *e, ktopic *const *by_id, size_t nid, int64_t now_us)
{
	unsigned f = e->s.flags & ~(unsigned)(KSCHED_MEMBERS | KSCHED_LAG);
	bool fresh = e->offs != NULL && e->offs->time_us == now_us, still = false;
	int64_t since = 0;
	int q;
	if (entry_members(e))
		f |= KSCHED_MEMBERS;
	for (q = 0; e->offs != NULL && q < e->offs->nc; q++) {
		const kcommit *c = &e->offs->c[q];
		if (log_end_of(by_id, nid, c->tp) <= c->offset)
			continue;
		f |= KSCHED_LAG;
		if (fresh && e->prev_offs != NULL && offs_at(e->prev_offs, q, c->tp) == c->offset)
			still = true;
		/* a lagging partition whose offset earlier answers gave too: the oldest such freeze */
		if (c->seen_us < e->offs->time_us && (since == 0 || c->seen_us < since))
			since = c->seen_us;
	}
	if (fresh)
		f = still ? f | KSCHED_STILL : f & ~(unsigned)KSCHED_STILL;
	e->s.flags = f;
	e->s.still_us = since;
}

/* The result's groups: every entry, sharing descriptions and offsets; each entry's own flags. */
void
kafka_table_publish(ktable *t, kresult *r, int64_t now_us)
{
	size_t i, nid = 0;
	ktopic **by_id;
	int j;
	for (j = 0; j < r->ntopics; j++)
		nid = r->topics[j].id >= 0 && (size_t)r->topics[j].id + 1 > nid ? (size_t)r->topics[j].id + 1 : nid;
	by_id = xcalloc(nid ? nid : 1, sizeof *by_id);
	for (j = 0; j < r->ntopics; j++) {
		if (r->topics[j].id >= 0)
			by_id[r->topics[j].id] = &r->topics[j];
	}
	r->groups = xcalloc(t->n ? t->n : 1, sizeof *r->groups);
	for (i = 0; i < t->n; i++) {
		kentry *e = &t->e[i];
		entry_flags(e, by_id, nid, now_us);
		kgroup *g = &r->groups[r->ngroups++];
		int64_t when = now_us;
		g->id = e->s.id;
		g->listed = e->s.listed;
		g->type = e->type != KG_GTYPE_UNKNOWN ? e->type : e->desc != NULL ? e->desc->type : KG_GTYPE_UNKNOWN;
		g->unseen = e->unseen_us > 0;
		if (g->unseen)
			g->type = KG_GTYPE_CONSUMER;
		g->simple = e->simple;
		g->watch_topic = e->watch_topic;
		if ((g->desc = e->desc) != NULL) {
			g->desc->refs++;
			/* an Empty group listed Empty again: the listing is as good as a description */
			if (!(e->s.listed == KG_STATE_EMPTY && e->desc->state == KG_STATE_EMPTY))
				when = e->desc->time_us;
		}
		if ((g->offs = e->offs) != NULL) {
			g->offs->refs++;
			if (g->offs->time_us < when)
				when = g->offs->time_us;
		}
		g->data_time_us = when;
		if (e->desc_err != NULL || e->offs_err != NULL)
			g->error = xstrdup(e->desc_err != NULL ? e->desc_err : e->offs_err);
	}
	free(by_id);
}

/* Free a result. */
void
kafka_result_free(kresult *r)
{
	int i;
	if (r == NULL)
		return;
	for (i = 0; i < r->nbrokers; i++)
		free((char *)r->brokers[i].host);
	free(r->brokers);
	for (i = 0; i < r->ntopics; i++) {
		free(r->topics[i].stamp);
	}
	free(r->topics);
	free(r->part_mem);
	for (i = 0; i < r->ngroups; i++)
		group_clear(&r->groups[i]);
	free(r->groups);
	free(r->log_end_note);
	free(r);
}

/* Find a topic of a result. */
ktopic *
kafka_result_topic(kresult *r, int32_t id)
{
	int i;
	for (i = 0; i < r->ntopics; i++) {
		if (r->topics[i].id == id)
			return &r->topics[i];
	}
	return NULL;
}

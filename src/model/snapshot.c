/*
 * snapshot.c: the builder and the finished snapshot (the names of the
 * model's enums are in names.c).
 *
 * The builder indexes topics and groups by their interned ids (dense small
 * integers), so contributions are O(1) lookups; members are found by a
 * linear scan of their group (groups have tens, rarely thousands, of
 * members).  builder_finish() copies everything into one arena (arena.c), sorted,
 * and derives what one snapshot alone can tell: owners, lag, orphaned
 * partitions, idle members.
 *
 * The builder's own records of topics, groups and members (a topic's
 * partitions, a group's strings, commit and topic lists, its members'
 * assignments) come from a scratch arena freed with the builder, its
 * chunks kept for the next one: nothing of them is freed one by one.  A
 * group's member index is a hash map only beyond BMEMBER_SCAN members.
 */
#include "config.h"

#include "model/snapshot.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/arena.h"
#include "model/builder_int.h"
#include "model/intern.h"
#include "model/rows.h"
#include "util/filter.h"
#include "util/hmap.h"

/* --------------------------------------------------------------- builder */


/* Start a builder. */
kg_builder *
builder_new(int64_t now_us)
{
	kg_builder *b = xcalloc(1, sizeof *b);
	b->time_us = now_us;
	b->scratch = arena_new_scratch();
	return b;
}

/* Free what a group holds outside the scratch arena. */
static void
bgroup_free(kg_bgroup *g)
{
	hmap_free(&g->member_index);
}

/* Filter the groups. */
void
builder_filter(kg_builder *b, const kg_filter *f)
{
	b->filter = f;
}

/* Keep only the groups that use a topic passing f (-t). */
void
builder_topic_filter(kg_builder *b, const kg_filter *f)
{
	b->topic_filter = f;
}

/* Discard a builder. */
void
builder_free(kg_builder *b)
{
	size_t i;
	if (b == NULL)
		return;
	if (b->discard != NULL)
		bgroup_free(b->discard);
	for (i = 0; i < b->ngroups; i++)
		bgroup_free(b->groups[b->group_order[i]]);
	for (i = 0; i < b->ctopics; i++) {
		int k;
		for (k = 0; k < b->topics[i].npartitions; k++)
			free(b->topics[i].partitions[k].more);
	}
	for (i = 0; i < b->nsources; i++) {
		free((char *)b->sources[i].name);
		free((char *)b->sources[i].message);
	}
	free(b->sources);
	for (i = 0; i < b->nbrokers; i++)
		free((char *)b->brokers[i].host);
	free(b->brokers);
	free(b->topics);
	free(b->groups);
	free(b->group_order);
	free(b->extra);
	free(b->gtopics);
	free(b->prev_group);
	free(b->topic_same);
	free(b->input);
	snapshot_unref(b->prev);
	free(b->cluster);
	arena_free(b->scratch);
	free(b);
}

/* Builder time. */
int64_t
builder_time(const kg_builder *b)
{
	return b->time_us;
}

/* Cluster label. */
void
builder_cluster(kg_builder *b, const char *label)
{
	free(b->cluster);
	b->cluster = xstrdup(label);
}

/* The cluster source's refresh. */
void
builder_refresh(kg_builder *b, uint64_t refresh, int64_t data_time_us, int64_t interval_us)
{
	b->refresh = refresh;
	b->data_time_us = data_time_us;
	b->interval_us = interval_us;
}

/* Add or replace a source's health. */
void
builder_source(kg_builder *b, const kg_source_health *h)
{
	size_t i;
	kg_source_health *d = NULL;
	for (i = 0; i < b->nsources; i++) {
		if (strcmp(b->sources[i].name, h->name) == 0) {
			d = &b->sources[i];
			free((char *)d->name);
			free((char *)d->message);
			break;
		}
	}
	if (d == NULL) {
		util_grow(&b->sources, &b->csources, b->nsources + 1, sizeof *b->sources);
		d = &b->sources[b->nsources++];
	}
	*d = *h;
	d->name = xstrdup(h->name);
	d->message = xstrdup(h->message);
	if (d->role == KG_ROLE_NONE)
		d->role = b->role;
}

/* The role of health added next without one. */
void
builder_source_role(kg_builder *b, kg_src_role role)
{
	b->role = role;
}

/* The partition count of __consumer_offsets (the largest contribution wins). */
void
builder_offsets_partitions(kg_builder *b, int32_t n)
{
	if (n > b->offsets_partitions)
		b->offsets_partitions = n;
}

/* Add a broker (replacing one with the same id). */
void
builder_broker(kg_builder *b, int32_t id, const char *host, int port)
{
	size_t i;
	for (i = 0; i < b->nbrokers; i++) {
		if (b->brokers[i].id == id) {
			free((char *)b->brokers[i].host);
			b->brokers[i].host = xstrdup(host);
			b->brokers[i].port = port;
			return;
		}
	}
	util_grow(&b->brokers, &b->cbrokers, b->nbrokers + 1, sizeof *b->brokers);
	b->brokers[b->nbrokers].id = id;
	b->brokers[b->nbrokers].host = xstrdup(host);
	b->brokers[b->nbrokers].port = port;
	b->nbrokers++;
}

/* The builder's record of a topic, created on demand. */
static btopic *
builder_btopic(kg_builder *b, int32_t topic)
{
	if (topic < 0)
		return NULL;
	if ((size_t)topic >= b->ctopics) {
		size_t old = b->ctopics, n = old ? old : 64;
		while (n <= (size_t)topic)
			n *= 2;
		b->topics = xreallocarray(b->topics, n, sizeof *b->topics);
		memset(b->topics + old, 0, (n - old) * sizeof *b->topics);
		b->ctopics = n;
	}
	return &b->topics[topic];
}

/* Grow a topic to n partitions. */
static void
btopic_grow(kg_builder *b, btopic *t, int n)
{
	int i;
	if (n <= t->npartitions)
		return;
	arena_grow(b->scratch, &t->partitions, &t->cap, (size_t)n, sizeof *t->partitions);
	for (i = t->npartitions; i < n; i++) {
		memset(&t->partitions[i], 0, sizeof t->partitions[i]);
		t->partitions[i].leader = -1;
		t->partitions[i].log_end = -1;
		t->partitions[i].log_start = -1;
		t->partitions[i].stamp.offset = t->partitions[i].stamp.record = t->partitions[i].stamp.ts_ms = -1;
	}
	t->npartitions = n;
}

/* Declare a topic. */
void
builder_topic(kg_builder *b, int32_t topic, int npartitions)
{
	btopic *t = builder_btopic(b, topic);
	if (t == NULL)
		return;
	t->declared = true;
	btopic_grow(b, t, npartitions);
}

/* Set a partition's leader and log-end offset. */
void
builder_partition(kg_builder *b, kg_tp tp, int32_t leader, int64_t log_end)
{
	btopic *t = builder_btopic(b, tp.topic);
	if (t == NULL || tp.partition < 0)
		return;
	t->declared = true;
	btopic_grow(b, t, tp.partition + 1);
	if (leader >= 0)
		t->partitions[tp.partition].leader = leader;
	if (log_end >= 0)
		t->partitions[tp.partition].log_end = log_end;
}

/* The partition of a topic, grown to hold it; NULL for a bad one. */
static kg_partition *
builder_bpart(kg_builder *b, kg_tp tp)
{
	btopic *t = builder_btopic(b, tp.topic);
	if (t == NULL || tp.partition < 0)
		return NULL;
	t->declared = true;
	btopic_grow(b, t, tp.partition + 1);
	return &t->partitions[tp.partition];
}

/* Set a partition's log-start offset. */
void
builder_partition_start(kg_builder *b, kg_tp tp, int64_t log_start)
{
	kg_partition *p = builder_bpart(b, tp);
	if (p != NULL && log_start >= 0)
		p->log_start = log_start;
}

/* Add the record read at one of a partition's committed offsets (one per offset: groups at other offsets have theirs). */
void
builder_partition_stamp(kg_builder *b, kg_tp tp, const kg_stamp *st)
{
	kg_partition *p = builder_bpart(b, tp);
	int i;
	if (p == NULL || st->offset < 0)
		return;
	if (p->stamp.offset < 0 || p->stamp.offset == st->offset) {
		p->stamp = *st;
		return;
	}
	for (i = 0; i < p->nmore; i++) {
		if (p->more[i].offset == st->offset) {
			p->more[i] = *st;
			return;
		}
	}
	p->more = xreallocarray(p->more, (size_t)p->nmore + 1, sizeof *p->more);
	p->more[p->nmore++] = *st;
}

/* The record read at offset of a partition, NULL none. */
const kg_stamp *
partition_stamp(const kg_partition *p, int64_t offset)
{
	int i;
	if (offset < 0)
		return NULL;
	if (p->stamp.offset == offset)
		return &p->stamp;
	for (i = 0; i < p->nmore; i++) {
		if (p->more[i].offset == offset)
			return &p->more[i];
	}
	return NULL;
}

/* Two records read alike. */
static bool
stamp_same(const kg_stamp *a, const kg_stamp *b)
{
	return a->offset == b->offset && a->record == b->record && a->ts_ms == b->ts_ms && a->why == b->why;
}

/* True when two partitions have the same records read, in the same order. */
bool
partition_stamps_same(const kg_partition *a, const kg_partition *b)
{
	int i;
	if (!stamp_same(&a->stamp, &b->stamp) || a->nmore != b->nmore)
		return false;
	for (i = 0; i < a->nmore; i++) {
		if (!stamp_same(&a->more[i], &b->more[i]))
			return false;
	}
	return true;
}

/* Find or create a group. */
kg_bgroup *
builder_group(kg_builder *b, int32_t group)
{
	kg_bgroup *g;
	if (group < 0)
		return NULL;
	if (b->filter != NULL && !filter_match(b->filter, intern_group_name(group))) {
		/* filtered out (-g / -G): a sink that never reaches the snapshot */
		if (b->discard == NULL) {
			b->discard = arena_alloc(b->scratch, sizeof *b->discard);
			b->discard->a = b->scratch;
			b->discard->id = group;
			b->discard->coordinator = -1;
		}
		return b->discard;
	}
	if ((size_t)group >= b->cgroups) {
		size_t old = b->cgroups, n = old ? old : 64;
		while (n <= (size_t)group)
			n *= 2;
		b->groups = xreallocarray(b->groups, n, sizeof *b->groups);
		memset(b->groups + old, 0, (n - old) * sizeof *b->groups);
		b->cgroups = n;
	}
	g = b->groups[group];
	if (g == NULL) {
		g = arena_alloc(b->scratch, sizeof *g);
		g->a = b->scratch;
		g->id = group;
		g->coordinator = -1;
		b->groups[group] = g;
		util_grow(&b->group_order, &b->cgorder, b->ngroups + 1, sizeof *b->group_order);
		b->group_order[b->ngroups++] = group;
	}
	return g;
}

/* True when the group exists. */
bool
builder_has_group(const kg_builder *b, int32_t group)
{
	if (group >= 0 && b->filter != NULL && !filter_match(b->filter, intern_group_name(group)))
		return true; /* filtered out: nobody should add it */
	return group >= 0 && (size_t)group < b->cgroups && b->groups[group] != NULL;
}

/* Set the state. */
void
bgroup_state(kg_bgroup *g, kg_group_state st)
{
	if (st != KG_STATE_UNKNOWN)
		g->state = st;
}

/* Replace a string field unless s is NULL (the old one stays in the scratch arena; the same one is kept). */
static void
set_str(kg_arena *a, char **dst, const char *s)
{
	if (s == NULL || (*dst != NULL && strcmp(*dst, s) == 0))
		return;
	*dst = (char *)arena_strdup(a, s);
}

/* The state as the source named it (kept only while the state has no name of kgtop's). */
void
bgroup_state_name(kg_bgroup *g, const char *name)
{
	if (name != NULL && *name != '\0')
		set_str(g->a, &g->state_name, name);
}

/* Assigning or Reconciling, not said which (snapshot.h). */
void
bgroup_unsettled(kg_bgroup *g)
{
	g->state = KG_STATE_UNKNOWN;
	bgroup_state_name(g, KG_STATE_NAME_UNSETTLED);
}

/* The group's type, and the source's name for one kgtop has none for. */
void
bgroup_type(kg_bgroup *g, kg_group_type t, const char *name)
{
	if (t != KG_GTYPE_UNKNOWN)
		g->type = t;
	if (name != NULL && *name != '\0')
		set_str(g->a, &g->type_name, name);
}

/* What the source cannot tell, and whether it cannot tell the members either. */
void
bgroup_note(kg_bgroup *g, const char *note, bool members_unknown)
{
	set_str(g->a, &g->note, note);
	if (note != NULL)
		g->members_unknown = members_unknown;
}

/* Set protocol type and assignor. */
void
bgroup_protocol(kg_bgroup *g, const char *protocol_type, const char *assignor)
{
	set_str(g->a, &g->protocol_type, protocol_type);
	if (assignor != NULL && (*assignor != '\0' || g->assignor == NULL))
		set_str(g->a, &g->assignor, assignor);
}

/* Set the rebalance protocol. */
void
bgroup_proto(kg_bgroup *g, kg_proto p)
{
	if (p != KG_PROTO_UNKNOWN)
		g->proto = p;
}

/* Set the coordinator. */
void
bgroup_coordinator(kg_bgroup *g, int32_t broker)
{
	if (broker >= 0)
		g->coordinator = broker;
}

/* Mark simple. */
void
bgroup_simple(kg_bgroup *g, bool simple)
{
	g->simple = simple;
}

/* Mark exact. */
void
bgroup_exact(kg_bgroup *g, bool exact)
{
	g->exact = exact;
}

/* Records processed twice and the commit policy (-1 leaves the count unchanged). */
void
bgroup_reprocessed(kg_bgroup *g, int64_t records, const char *policy)
{
	if (records >= 0)
		g->reprocessed = records;
	set_str(g->a, &g->commit_policy, policy);
}

/* Mark a group known from a log only. */
void
bgroup_traced(kg_bgroup *g, bool traced)
{
	g->traced = traced;
}

/* Set or clear the describe error. */
void
bgroup_error(kg_bgroup *g, const char *msg)
{
	g->error = (char *)arena_strdup(g->a, msg);
}

/* When the group's data was asked: the oldest contribution. */
void
bgroup_data_time(kg_bgroup *g, int64_t t_us)
{
	if (t_us > 0 && (g->data_time_us == 0 || t_us < g->data_time_us))
		g->data_time_us = t_us;
}

/* When its committed offsets were asked apart from its data's time: the newest given. */
void
bgroup_offs_time(kg_bgroup *g, int64_t t_us)
{
	if (t_us > g->offs_time_us)
		g->offs_time_us = t_us;
}

/* How often its source means to ask it: the longest pace given. */
void
bgroup_pace(kg_bgroup *g, int64_t pace_us)
{
	if (pace_us > g->pace_us)
		g->pace_us = pace_us;
}

/* Set a committed offset. */
void
bgroup_committed(kg_bgroup *g, kg_tp tp, int64_t offset)
{
	if (g->ncommits == g->ccommits)
		arena_grow(g->a, &g->commits, &g->ccommits, g->ncommits + 1, sizeof *g->commits);
	g->commits[g->ncommits].tp = tp;
	g->commits[g->ncommits].offset = offset;
	g->ncommits++;
}

/* Declare a consumed topic. */
void
bgroup_topic(kg_bgroup *g, int32_t topic)
{
	size_t i;
	for (i = 0; i < g->ntopics; i++) {
		if (g->topics[i] == topic)
			return;
	}
	arena_grow(g->a, &g->topics, &g->ctopics, g->ntopics + 1, sizeof *g->topics);
	g->topics[g->ntopics++] = topic;
}

/* Find or create a member. */
kg_bmember *
bgroup_member(kg_bgroup *g, const char *member_id)
{
	kg_bmember *m;
	size_t i;
	if (member_id == NULL)
		member_id = "";
	if (g->nmembers <= BMEMBER_SCAN) {
		for (i = 0; i < g->nmembers; i++) {
			if (strcmp(g->members[i]->member_id, member_id) == 0)
				return g->members[i];
		}
	} else if ((m = hmap_get(&g->member_index, member_id)) != NULL) {
		return m;
	}
	m = arena_alloc(g->a, sizeof *m);
	m->a = g->a;
	m->member_id = (char *)arena_strdup(g->a, member_id);
	m->ntarget = -1;
	arena_grow(g->a, &g->members, &g->cmembers, g->nmembers + 1, sizeof *g->members);
	g->members[g->nmembers++] = m;
	if (g->nmembers == BMEMBER_SCAN + 1) {
		for (i = 0; i < g->nmembers; i++)
			hmap_put(&g->member_index, g->members[i]->member_id, g->members[i]);
	} else if (g->nmembers > BMEMBER_SCAN + 1) {
		hmap_put(&g->member_index, m->member_id, m);
	}
	return m;
}

/* Set member identity. */
void
bmember_ids(kg_bmember *m, const char *client_id, const char *host, const char *instance_id)
{
	set_str(m->a, &m->client_id, client_id);
	set_str(m->a, &m->host, host);
	if (instance_id != NULL && *instance_id != '\0')
		set_str(m->a, &m->instance_id, instance_id);
}

/* Replace the assignment. */
void
bmember_assignment(kg_bmember *m, const kg_tp *v, int n)
{
	m->assignment = NULL;
	m->nassigned = 0;
	if (n > 0) {
		m->assignment = arena_memdup(m->a, v, (size_t)n * sizeof *v);
		m->nassigned = tp_sort_unique(m->assignment, n);
	}
}

/* Replace the KIP-848 target assignment. */
void
bmember_target(kg_bmember *m, const kg_tp *v, int n)
{
	m->target = NULL;
	m->ntarget = 0;
	if (n > 0) {
		m->target = arena_memdup(m->a, v, (size_t)n * sizeof *v);
		m->ntarget = tp_sort_unique(m->target, n);
	}
}

/* Set member flags. */
void
bmember_flags(kg_bmember *m, uint32_t flags)
{
	m->flags |= flags;
}

/* ------------------------------------------------------------- snapshot */

/* Take a reference. */
kg_snapshot *
snapshot_ref(kg_snapshot *s)
{
	if (s != NULL)
		atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
	return s;
}

/* Drop a reference. */
void
snapshot_unref(kg_snapshot *s)
{
	if (s == NULL)
		return;
	if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1) {
		int k;
		for (k = 0; k < s->ngroups; k++)
			rows_unref(s->groups[k].rows);
		arena_free(s->arena);
		free(s);
	}
}

/* Make g's rows its own before writing one. */
void
group_rows_own(kg_group *g)
{
	kg_rows *r;
	if (!g->kept)
		return;
	r = rows_copy(g->rows);
	rows_unref(g->rows);
	g->rows = r;
	g->parts = rows_parts(r);
	g->kept = false;
}

/* Copy a string into the arena. */
const char *
snapshot_strdup(kg_snapshot *s, const char *str)
{
	return arena_strdup(s->arena, str);
}

/* Copy a partition set into the arena (NULL when empty). */
kg_tp *
snapshot_tp_dup(kg_snapshot *s, const kg_tp *v, int n)
{
	if (v == NULL || n <= 0)
		return NULL;
	return arena_memdup(s->arena, v, (size_t)n * sizeof *v);
}

/* bsearch: a name against a group. */
static int
name_group_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const kg_group *)elem)->name);
}

/* Find a group by name (groups are sorted by it). */
const kg_group *
snapshot_group_by_name(const kg_snapshot *s, const char *name)
{
	if (s == NULL || s->ngroups <= 0)
		return NULL;
	return bsearch(name, s->groups, (size_t)s->ngroups, sizeof *s->groups, name_group_cmp);
}

/* Find a group by id. */
const kg_group *
snapshot_group(const kg_snapshot *s, int32_t id)
{
	if (s == NULL || id < 0)
		return NULL;
	return snapshot_group_by_name(s, intern_group_name(id));
}

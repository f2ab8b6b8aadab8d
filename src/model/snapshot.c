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
#include "model/intern.h"
#include "util/filter.h"
#include "util/hmap.h"

/* --------------------------------------------------------------- builder */

/* a group's members are found by a scan of at most this many, by its hash map beyond */
#define BMEMBER_SCAN 8

struct kg_bmember {
	kg_arena *a; /* the builder's scratch */
	char *member_id;
	char *client_id;
	char *host;
	char *instance_id;
	kg_tp *assignment;
	int nassigned;
	uint32_t flags;
	kg_tp *target;      /* KIP-848 target assignment */
	int ntarget;        /* -1: not said */
};

typedef struct bcommit {
	kg_tp tp;
	int64_t offset;
} bcommit;

struct kg_bgroup {
	kg_arena *a; /* the builder's scratch */
	int32_t id;
	kg_group_state state;
	char *state_name;
	kg_group_type type;
	char *type_name;
	char *note;
	bool members_unknown;
	char *protocol_type;
	char *assignor;
	kg_proto proto;
	int32_t coordinator;
	bool simple;
	bool exact;
	bool traced;
	char *error;
	int64_t reprocessed;
	char *commit_policy;
	int64_t data_time_us;
	int64_t offs_time_us;
	int64_t pace_us;
	kg_bmember **members;
	size_t nmembers, cmembers;
	hmap member_index; /* member id -> member, once there are more than BMEMBER_SCAN */
	bcommit *commits;
	size_t ncommits, ccommits;
	int32_t *topics;
	size_t ntopics, ctopics;
};

typedef struct btopic {
	bool declared;
	int npartitions;
	kg_partition *partitions; /* in the scratch arena, room for cap */
	size_t cap;
} btopic;

struct kg_builder {
	int64_t time_us;
	uint64_t refresh;
	int64_t data_time_us, interval_us;
	char *cluster;
	kg_source_health *sources;
	size_t nsources, csources;
	kg_src_role role; /* of health added without one */
	kg_broker *brokers;
	size_t nbrokers, cbrokers;
	btopic *topics; /* indexed by topic id */
	size_t ctopics;
	kg_bgroup **groups; /* indexed by group id */
	size_t cgroups;
	int32_t *group_order; /* ids in creation order */
	size_t ngroups, cgorder;
	const kg_filter *filter; /* -g / -G: groups that do not pass go to discard */
	const kg_filter *topic_filter; /* -t: groups with no partition of a topic that passes are left out */
	kg_bgroup *discard;
	int32_t offsets_partitions; /* of __consumer_offsets, 0 unknown */
	kg_tp *extra; /* finish_parts()' list of a group's partitions, reused group to group */
	size_t nextra, cextra;
	int32_t *gtopics; /* group_topics()' list of a group's topics, reused group to group */
	size_t cgtopics;
	kg_arena *scratch; /* the groups' and members' records */
};

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
static void
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

/* ---------------------------------------------------------------- finish */

/* Order group ids by name (their interned keys: integers, not names). */
static int
group_id_cmp(const void *a, const void *b)
{
	return intern_group_cmp(*(const int32_t *)a, *(const int32_t *)b);
}

/* Order topics by name (their interned keys). */
static int
topic_name_cmp(const void *a, const void *b)
{
	const kg_topic *x = a, *y = b;
	return intern_topic_cmp(x->id, y->id);
}

/* Order topic ids by name (their interned keys). */
static int
topic_id_cmp(const void *a, const void *b)
{
	return intern_topic_cmp(*(const int32_t *)a, *(const int32_t *)b);
}

/* Order members by member id. */
static int
member_cmp(const void *a, const void *b)
{
	const kg_member *x = a, *y = b;
	return strcmp(x->member_id, y->member_id);
}

/* Copy the builder's members into the group, sorted by member id. */
static void
finish_members(kg_arena *a, const kg_bgroup *bg, kg_group *g)
{
	size_t i;
	g->nmembers = (int)bg->nmembers;
	g->members = arena_alloc(a, bg->nmembers * sizeof *g->members);
	for (i = 0; i < bg->nmembers; i++) {
		const kg_bmember *bm = bg->members[i];
		kg_member *m = &g->members[i];
		m->member_id = arena_strdup(a, bm->member_id);
		m->client_id = arena_strdup(a, bm->client_id ? bm->client_id : "");
		m->host = arena_strdup(a, bm->host ? bm->host : "");
		m->instance_id = arena_strdup(a, bm->instance_id);
		m->nassigned = bm->nassigned;
		m->assignment = arena_memdup(a, bm->assignment, (size_t)bm->nassigned * sizeof *m->assignment);
		m->flags = bm->flags | (bm->instance_id ? KG_MEMBER_STATIC : 0);
		m->ntarget = bm->ntarget;
		if (bm->ntarget > 0)
			m->target = arena_memdup(a, bm->target, (size_t)bm->ntarget * sizeof *m->target);
		m->epoch.value = m->prev_epoch = -1;
		m->lane = -1;
		m->health.hb_age_us = m->health.poll_gap_us = m->health.poll_gap_max_us = -1;
		m->health.session_timeout_us = m->health.max_poll_us = -1;
		m->health.rebalance_latency_avg_us = m->health.rebalance_latency_max_us = -1;
		m->health.failed_rebalances = -1;
		m->health.hb_rate = -1;
	}
	qsort(g->members, bg->nmembers, sizeof *g->members, member_cmp);
}

/* Add topic to a list of topics unless it is there. */
static void
topic_add(int32_t **topics, size_t *n, size_t *cap, int32_t topic)
{
	size_t q;
	for (q = 0; q < *n && (*topics)[q] != topic; q++)
		;
	if (q == *n) {
		util_grow(topics, cap, *n + 1, sizeof **topics);
		(*topics)[(*n)++] = topic;
	}
}

/* The topics a group uses (declared, committed, assigned), in that order; *n of them, in the builder's list. */
static int32_t *
group_topics(kg_builder *b, const kg_bgroup *bg, const kg_group *g, size_t *n)
{
	size_t i;
	int j, k;
	*n = 0;
	for (i = 0; i < bg->ntopics; i++)
		topic_add(&b->gtopics, n, &b->cgtopics, bg->topics[i]);
	for (i = 0; i < bg->ncommits; i++)
		topic_add(&b->gtopics, n, &b->cgtopics, bg->commits[i].tp.topic);
	for (j = 0; j < g->nmembers; j++)
		for (k = 0; k < g->members[j].nassigned; k++)
			topic_add(&b->gtopics, n, &b->cgtopics, g->members[j].assignment[k].topic);
	return b->gtopics;
}

/* How many partitions the builder's metadata gives a topic id (0 unknown). */
static int
topic_nparts(const kg_builder *b, int32_t topic)
{
	return topic >= 0 && (size_t)topic < b->ctopics ? b->topics[topic].npartitions : 0;
}

/* True when tp is already listed: a partition the builder knows of a topic among the group's. */
static bool
part_listed(const kg_builder *b, const int32_t *topics, size_t ntopics, kg_tp tp)
{
	size_t i;
	if (tp.partition < 0 || tp.partition >= topic_nparts(b, tp.topic))
		return false;
	for (i = 0; i < ntopics && topics[i] != tp.topic; i++)
		;
	return i < ntopics;
}

/* Add tp to the builder's list of a group's partitions beyond its topics' own. */
static void
extra_add(kg_builder *b, const int32_t *topics, size_t ntopics, kg_tp tp)
{
	if (part_listed(b, topics, ntopics, tp))
		return;
	util_grow(&b->extra, &b->cextra, b->nextra + 1, sizeof *b->extra);
	b->extra[b->nextra++] = tp;
}

/*
 * The group's partitions: every partition of every topic in use, plus any
 * committed or assigned, sorted, each once, with its log-end offset.  The
 * topics' partitions come in order (topics sorted by name, partitions
 * counted up); only a commit or an assignment beyond its topic's
 * partitions (metadata behind, or none) makes a sort of the whole list.
 */
static void
finish_parts(kg_builder *b, kg_arena *a, const kg_bgroup *bg, kg_group *g)
{
	size_t i, ntopics;
	int32_t *topics = group_topics(b, bg, g, &ntopics);
	int j, k, np = 0;

	if (ntopics > 1)
		qsort(topics, ntopics, sizeof *topics, topic_id_cmp);
	b->nextra = 0;
	for (i = 0; i < bg->ncommits; i++)
		extra_add(b, topics, ntopics, bg->commits[i].tp);
	for (j = 0; j < g->nmembers; j++) {
		for (k = 0; k < g->members[j].nassigned; k++)
			extra_add(b, topics, ntopics, g->members[j].assignment[k]);
		for (k = 0; k < g->members[j].ntarget; k++)
			extra_add(b, topics, ntopics, g->members[j].target[k]);
	}
	if (b->nextra > 0) {
		/* partitions beyond the topics' known ones: the whole list, sorted and each once */
		for (i = 0; i < ntopics; i++) {
			int n = topic_nparts(b, topics[i]);
			for (j = 0; j < n; j++) {
				util_grow(&b->extra, &b->cextra, b->nextra + 1, sizeof *b->extra);
				b->extra[b->nextra++] = (kg_tp){ .topic = topics[i], .partition = j };
			}
		}
		np = tp_sort_unique(b->extra, (int)b->nextra);
		g->parts = arena_alloc(a, (size_t)np * sizeof *g->parts);
		for (j = 0; j < np; j++)
			g->parts[j].tp = b->extra[j];
	} else {
		for (i = 0; i < ntopics; i++)
			np += topic_nparts(b, topics[i]);
		g->parts = arena_alloc(a, (size_t)np * sizeof *g->parts);
		np = 0;
		for (i = 0; i < ntopics; i++) {
			int n = topic_nparts(b, topics[i]);
			for (j = 0; j < n; j++)
				g->parts[np++].tp = (kg_tp){ .topic = topics[i], .partition = j };
		}
	}
	g->nparts = np;
	for (j = 0; j < np; j++) {
		kg_gpart *p = &g->parts[j];
		btopic *t = (size_t)p->tp.topic < b->ctopics ? &b->topics[p->tp.topic] : NULL;
		p->committed = -1;
		p->log_end = (t && p->tp.partition < t->npartitions) ? t->partitions[p->tp.partition].log_end : -1;
		p->log_start = (t && p->tp.partition < t->npartitions) ? t->partitions[p->tp.partition].log_start : -1;
		p->lag = -1;
		p->owner = -1;
		p->target_owner = -1;
		p->moved_from = -1;
		p->time_lag_us = -1;
		p->consume_rate = p->produce_rate = -1;
	}
}

/* Committed offsets (the last contribution for a partition wins), owners and lag of the partitions. */
static void
finish_offsets(kg_bgroup *bg, kg_group *g)
{
	size_t i;
	int j, k;
	int64_t lagsum = 0;
	bool lagknown = false;

	/* in the order they came: a later contribution for a partition wins */
	for (i = 0; i < bg->ncommits; i++) {
		int idx = group_part_index(g, bg->commits[i].tp);
		if (idx >= 0)
			g->parts[idx].committed = bg->commits[i].offset;
	}
	for (j = 0; j < g->nmembers; j++) {
		for (k = 0; k < g->members[j].nassigned; k++) {
			int idx = group_part_index(g, g->members[j].assignment[k]);
			if (idx >= 0 && g->parts[idx].owner < 0)
				g->parts[idx].owner = j;
		}
	}
	for (j = 0; j < g->nparts; j++) {
		kg_gpart *p = &g->parts[j];
		if (p->committed >= 0 && p->log_end >= 0) {
			p->lag = p->log_end > p->committed ? p->log_end - p->committed : 0;
			lagsum += p->lag;
			lagknown = true;
		}
	}
	g->lag = lagknown ? lagsum : -1;
	g->time_lag_us = -1;
}

/* True when some member of g is assigned a partition of topic. */
static bool
topic_consumed(const kg_group *g, int32_t topic)
{
	int k, q;
	for (k = 0; k < g->nmembers; k++) {
		for (q = 0; q < g->members[k].nassigned; q++) {
			if (g->members[k].assignment[q].topic == topic)
				return true;
		}
	}
	return false;
}

/*
 * Orphans and idle members only mean something in a stable group with
 * members: a partition of a topic some member consumes that nobody
 * owns, a member that owns nothing.
 */
static void
finish_orphans(kg_group *g)
{
	int j, k;
	if (g->state != KG_STATE_STABLE || g->nmembers == 0 || g->simple)
		return;
	for (j = 0; j < g->nparts; j++) {
		kg_gpart *p = &g->parts[j];
		if (p->owner < 0 && topic_consumed(g, p->tp.topic)) {
			p->orphaned = true;
			g->norphaned++;
		}
	}
	for (k = 0; k < g->nmembers; k++) {
		if (g->members[k].nassigned == 0)
			g->nidle++;
	}
}

/* Build one finished group. */
static void
finish_group(kg_builder *b, kg_snapshot *s, kg_bgroup *bg, kg_group *g)
{
	kg_arena *a = s->arena;

	g->id = bg->id;
	g->name = intern_group_name(bg->id);
	g->state = bg->state;
	g->state_name = bg->state == KG_STATE_UNKNOWN ? arena_strdup(a, bg->state_name) : NULL;
	g->type = (uint8_t)bg->type;
	g->type_name = bg->type == KG_GTYPE_UNKNOWN ? arena_strdup(a, bg->type_name) : NULL;
	g->note = arena_strdup(a, bg->note);
	g->members_unknown = bg->members_unknown;
	g->group_epoch.value = g->assignment_epoch.value = -1;
	g->protocol_type = arena_strdup(a, bg->protocol_type ? bg->protocol_type : "");
	g->assignor = arena_strdup(a, bg->assignor ? bg->assignor : "");
	g->proto = bg->proto != KG_PROTO_UNKNOWN ? bg->proto
		   : bg->type == KG_GTYPE_CONSUMER ? KG_PROTO_CONSUMER /* its assignor may be "range" too */
		   : proto_from_assignor(g->assignor, g->protocol_type);
	g->coordinator = bg->coordinator;
	g->simple = bg->simple;
	g->exact = bg->exact;
	g->traced = bg->traced;
	g->error = arena_strdup(a, bg->error);
	g->reprocessed = bg->commit_policy != NULL ? bg->reprocessed : -1;
	g->commit_policy = arena_strdup(a, bg->commit_policy);
	g->data_time_us = bg->data_time_us;
	g->offs_time_us = bg->offs_time_us != bg->data_time_us ? bg->offs_time_us : 0;
	g->pace_ms = (int32_t)KG_MIN(bg->pace_us / 1000, INT32_MAX);
	g->sum.generation = -1;
	g->sum.last_episode_us = -1;
	g->sum.last_episode_min_us = g->sum.last_episode_max_us = -1;

	finish_members(a, bg, g);
	finish_parts(b, a, bg, g);
	finish_offsets(bg, g);
	finish_orphans(g);
	group_reconciliation(s, g);
}

/* No snapshot is built after the last one: no memory is kept for the next. */
void
builder_last(void)
{
	arena_spare_off();
}

/* Finish the snapshot. */
kg_snapshot *
builder_finish(kg_builder *b)
{
	kg_snapshot *s = xcalloc(1, sizeof *s);
	kg_arena *a = arena_new();
	size_t i, nt = 0;

	s->arena = a;
	atomic_init(&s->refs, 1);
	s->time_us = b->time_us;
	s->refresh = b->refresh;
	s->data_time_us = b->data_time_us;
	s->interval_us = b->interval_us;
	s->cluster = arena_strdup(a, b->cluster ? b->cluster : "");
	s->offsets_partitions = b->offsets_partitions > 0 ? b->offsets_partitions : -1;

	s->nsources = (int)b->nsources;
	s->sources = arena_alloc(a, b->nsources * sizeof *s->sources);
	for (i = 0; i < b->nsources; i++) {
		s->sources[i] = b->sources[i];
		s->sources[i].name = arena_strdup(a, b->sources[i].name);
		s->sources[i].message = arena_strdup(a, b->sources[i].message);
	}

	s->nbrokers = (int)b->nbrokers;
	s->brokers = arena_alloc(a, b->nbrokers * sizeof *s->brokers);
	for (i = 0; i < b->nbrokers; i++) {
		s->brokers[i] = b->brokers[i];
		s->brokers[i].host = arena_strdup(a, b->brokers[i].host);
		free((char *)b->brokers[i].host);
		b->brokers[i].host = NULL;
	}

	for (i = 0; i < b->ctopics; i++)
		nt += b->topics[i].declared;
	s->topics = arena_alloc(a, nt * sizeof *s->topics);
	for (i = 0; i < b->ctopics; i++) {
		btopic *t = &b->topics[i];
		kg_topic *d;
		int k;
		if (!t->declared)
			continue;
		d = &s->topics[s->ntopics++];
		d->id = (int32_t)i;
		d->name = intern_topic_name((int32_t)i);
		d->npartitions = t->npartitions;
		d->partitions = arena_alloc(a, (size_t)t->npartitions * sizeof *d->partitions);
		if (t->npartitions > 0)
			memcpy(d->partitions, t->partitions, (size_t)t->npartitions * sizeof *d->partitions);
		for (k = 0; k < t->npartitions; k++) {
			/* reads at other offsets move into the arena; the builder's go with it */
			kg_partition *dp = &d->partitions[k];
			if (dp->nmore > 0) {
				dp->more = arena_alloc(a, (size_t)dp->nmore * sizeof *dp->more);
				memcpy(dp->more, t->partitions[k].more, (size_t)dp->nmore * sizeof *dp->more);
			} else {
				dp->more = NULL;
			}
		}
	}
	qsort(s->topics, (size_t)s->ntopics, sizeof *s->topics, topic_name_cmp);

	/* the groups are built in name order: their ids sorted, not the 500-byte rows */
	if (b->ngroups > 1)
		qsort(b->group_order, b->ngroups, sizeof *b->group_order, group_id_cmp);
	s->groups = arena_alloc(a, b->ngroups * sizeof *s->groups);
	for (i = 0; i < b->ngroups; i++) {
		kg_group *g = &s->groups[s->ngroups];
		finish_group(b, s, b->groups[b->group_order[i]], g);
		/* -t: a group with no partition of a matching topic (its others are filtered out) is not listed */
		if (!filter_empty(b->topic_filter) && g->nparts == 0)
			continue;
		s->ngroups++;
	}

	builder_free(b);
	return s;
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
		arena_free(s->arena);
		free(s);
	}
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

/*
 * snapshot_finish.c: a snapshot finished from the builder's records
 * (builder_int.h): everything copied into one arena, sorted, and what one
 * snapshot alone can tell derived (owners, lag, orphaned partitions, idle
 * members); the rows of a group whose input did not change kept from the
 * snapshot before (rows.h).
 */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "model/arena.h"
#include "model/builder_int.h"
#include "model/intern.h"
#include "model/rows.h"
#include "model/snapshot.h"
#include "util/filter.h"
#include "util/util.h"

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

/* Room for np rows: a block the next snapshot may keep (rows.h) when the group may have its rows kept, else the arena. */
static void
parts_alloc(kg_builder *b, kg_arena *a, kg_group *g, int np)
{
	if (b->keepable) {
		g->rows = rows_new(np, b->input, b->ninput);
		g->parts = rows_parts(g->rows);
	} else {
		g->parts = arena_alloc(a, (size_t)np * sizeof *g->parts);
	}
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
		parts_alloc(b, a, g, np);
		for (j = 0; j < np; j++)
			g->parts[j].tp = b->extra[j];
	} else {
		for (i = 0; i < ntopics; i++)
			np += topic_nparts(b, topics[i]);
		parts_alloc(b, a, g, np);
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

/* The next snapshot may keep prev's unchanged rows. */
void
builder_keep(kg_builder *b, kg_snapshot *prev)
{
	snapshot_unref(b->prev);
	b->prev = snapshot_ref(prev);
}

/* Index prev's groups by id and say which topics are as prev had them (s's topics are finished). */
static void
keep_index(kg_builder *b, const kg_snapshot *s)
{
	const kg_topic **pt;
	int k;
	if (b->prev == NULL)
		return;
	b->prev_group = xcalloc(b->cgroups ? b->cgroups : 1, sizeof *b->prev_group);
	for (k = 0; k < b->prev->ngroups; k++) {
		const kg_group *g = &b->prev->groups[k];
		if (g->id >= 0 && (size_t)g->id < b->cgroups)
			b->prev_group[g->id] = g;
	}
	pt = xcalloc(b->ctopics ? b->ctopics : 1, sizeof *pt);
	b->topic_same = xcalloc(b->ctopics ? b->ctopics : 1, sizeof *b->topic_same);
	for (k = 0; k < b->prev->ntopics; k++) {
		const kg_topic *t = &b->prev->topics[k];
		if (t->id >= 0 && (size_t)t->id < b->ctopics)
			pt[t->id] = t;
	}
	for (k = 0; k < s->ntopics; k++) {
		const kg_topic *t = &s->topics[k];
		b->topic_same[t->id] = pt[t->id] != NULL && rows_topic_same(t, pt[t->id]);
	}
	free(pt);
}

/* prev's group of bg's id, NULL none. */
static const kg_group *
prev_group(const kg_builder *b, const kg_bgroup *bg)
{
	return b->prev_group != NULL && bg->id >= 0 && (size_t)bg->id < b->cgroups ? b->prev_group[bg->id] : NULL;
}

/*
 * A group whose rows the next snapshot may keep: known by a description
 * that was not asked again since prev, its topics' partitions saying what
 * they said (a group asked every refresh, or on a topic whose log ends
 * move, has new rows every refresh: a block of its own would only cost a
 * malloc).
 */
static bool
rows_keepable(kg_builder *b, const kg_bgroup *bg, const kg_group *g)
{
	const kg_group *p = prev_group(b, bg);
	size_t i, ntopics;
	int32_t *topics;
	if (bg->traced || bg->members_unknown || bg->error != NULL || bg->data_time_us <= 0 || p == NULL ||
	    p->data_time_us != bg->data_time_us)
		return false;
	topics = group_topics(b, bg, g, &ntopics);
	for (i = 0; i < ntopics; i++) {
		if (topics[i] < 0 || (size_t)topics[i] >= b->ctopics || !b->topic_same[topics[i]])
			return false;
	}
	return true;
}

/* Add n bytes to the builder's account of a group's input. */
static void
input_add(kg_builder *b, const void *v, size_t n)
{
	util_grow(&b->input, &b->cinput, b->ninput + n, 1);
	if (n > 0)
		memcpy(b->input + b->ninput, v, n);
	b->ninput += n;
}

/*
 * The input a group's rows are built from, as the builder's account
 * (b->input): its commits in the order they came, its declared topics,
 * each member's assignment and target in member order (owners and target
 * owners are indexes into it).  Its topics' partitions are compared apart.
 */
static void
group_input(kg_builder *b, const kg_bgroup *bg, const kg_group *g)
{
	int j;
	b->ninput = 0;
	input_add(b, &bg->ncommits, sizeof bg->ncommits);
	input_add(b, bg->commits, bg->ncommits * sizeof *bg->commits);
	input_add(b, &bg->ntopics, sizeof bg->ntopics);
	input_add(b, bg->topics, bg->ntopics * sizeof *bg->topics);
	input_add(b, &g->nmembers, sizeof g->nmembers);
	for (j = 0; j < g->nmembers; j++) {
		const kg_member *m = &g->members[j];
		input_add(b, &m->nassigned, sizeof m->nassigned);
		input_add(b, m->assignment, (size_t)m->nassigned * sizeof *m->assignment);
		input_add(b, &m->ntarget, sizeof m->ntarget);
		if (m->ntarget > 0)
			input_add(b, m->target, (size_t)m->ntarget * sizeof *m->target);
	}
}

/*
 * Keep prev's rows of g when its input is prev's: asked at the same time,
 * the same commits, members' assignments and targets, topics and state,
 * and the tracker wrote nothing the builder derives into them.
 */
static bool
keep_rows(kg_builder *b, const kg_bgroup *bg, kg_group *g)
{
	const kg_group *p = prev_group(b, bg);
	b->keepable = rows_keepable(b, bg, g);
	if (!b->keepable)
		return false;
	group_input(b, bg, g); /* (parts_alloc's too, when not kept) */
	if (p->rows == NULL || rows_touched(p->rows) || p->offs_time_us != g->offs_time_us || p->state != g->state ||
	    p->simple != g->simple || !rows_same_input(p->rows, b->input, b->ninput))
		return false;
	g->rows = rows_ref(p->rows);
	g->parts = p->parts;
	g->nparts = p->nparts;
	g->kept = true;
	g->lag = p->lag;
	g->time_lag_us = -1;
	g->norphaned = p->norphaned; /* the same members, assignments and state */
	g->nidle = p->nidle;
	return true;
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
	if (keep_rows(b, bg, g)) {
		group_reconciliation_of(s, g, false); /* the members' own: the rows have their target owners */
		return;
	}
	finish_parts(b, a, bg, g);
	finish_offsets(bg, g);
	finish_orphans(g);
	group_reconciliation_of(s, g, true);
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
	keep_index(b, s);

	/* the groups are built in name order: their ids sorted, not the 500-byte rows */
	if (b->ngroups > 1)
		qsort(b->group_order, b->ngroups, sizeof *b->group_order, group_id_cmp);
	s->groups = arena_alloc(a, b->ngroups * sizeof *s->groups);
	for (i = 0; i < b->ngroups; i++) {
		kg_group *g = &s->groups[s->ngroups];
		finish_group(b, s, b->groups[b->group_order[i]], g);
		/* -t: a group with no partition of a matching topic (its others are filtered out) is not listed */
		if (!filter_empty(b->topic_filter) && g->nparts == 0) {
			rows_unref(g->rows);
			memset(g, 0, sizeof *g);
			continue;
		}
		s->ngroups++;
	}

	builder_free(b);
	return s;
}


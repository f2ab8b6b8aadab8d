/*
 * offsets_state.c: the coordinator's records folded, and their
 * observations (see offsets_state.h).
 *
 * Groups are found by name (a hash index) and listed per partition of the
 * topic, so a partition's load can be told group by group.  A group keeps
 * its committed partitions in an array sorted by partition (found by
 * binary search), its generation records in a ring of the newest, and its
 * last generation and KIP-848 records as the observations they make (so
 * what is told at the load's end is exactly what would have been told
 * live).  Strings that reach an observation are sanitized like any
 * trace's; group and topic names are interned as the cluster spells them,
 * so they meet the polled ones.
 */
#include "config.h"

#include "sources/offsets/offsets_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "model/snapshot.h"
#include "util/hmap.h"
#include "util/util.h"

/* A generation record read while loading. */
typedef struct cgen {
	int32_t generation;
	int32_t nmembers;
	int64_t t_us;     /* the record's time: the generation's sync */
	int64_t begun_us; /* when its join phase ended, -1 unknown */
	char *assignor;
} cgen;

/* A committed partition: its offset, when it got there, and the offset before. */
typedef struct ccommit {
	kg_tp tp;
	int64_t offset, at_us;
	int64_t prev_offset, prev_at_us; /* -1: none seen */
	int64_t last_us;                 /* the last commit of it (a repeat too) */
} ccommit;

/* A KIP-848 member's last records, as their observations. */
typedef struct cmember {
	char *member_id; /* the key of its group's index */
	kg_obs *meta, *target, *epoch;
} cmember;

/* A group. */
typedef struct cgroup {
	char *name;
	int32_t id;
	int32_t part;             /* its partition of the topic */
	cgen gens[OFFSETS_GEN_KEEP];
	int ngens, head;          /* the ring: ngens newest, the oldest at head */
	int64_t gens_total;
	kg_obs *last_gen;         /* the last generation record's observation */
	ccommit *c;
	int nc, cc;
	kg_obs *epoch, *target_epoch; /* KIP-848 group records */
	hmap members;             /* member id -> cmember */
	cmember **m;
	int nm, cm;
	struct cgroup *next;      /* in its partition's list */
} cgroup;

struct kg_costate {
	hmap groups;      /* name -> cgroup */
	cgroup **g;
	size_t ng, cg;
	cgroup **part;    /* per partition of the topic: its groups */
	size_t npart;
	hmap topic_ids;   /* a topic id in Kafka's form -> its interned topic id + 1 */
	char **id_keys;   /* the keys of topic_ids */
	size_t nid, cid;
	int32_t *ph;      /* by interned topic id: 1 + the index in ph_keys of a placeholder, 0 a real topic */
	size_t nph;
	char **ph_keys;   /* the topic id each placeholder stands for */
	size_t nphk, cphk;
	kg_co_record rec;
	kg_costats st;
};

/* An empty state. */
kg_costate *
offsets_state_new(void)
{
	return xcalloc(1, sizeof(kg_costate));
}

/* Free a member's records. */
static void
member_free(cmember *m)
{
	free(m->member_id);
	obs_free(m->meta);
	obs_free(m->target);
	obs_free(m->epoch);
	free(m);
}

/* Forget a group's generations. */
static void
gens_clear(cgroup *g)
{
	int i;
	for (i = 0; i < g->ngens; i++)
		free(g->gens[(g->head + i) % OFFSETS_GEN_KEEP].assignor);
	g->ngens = g->head = 0;
	obs_free(g->last_gen);
	g->last_gen = NULL;
}

/* Forget a group's KIP-848 records. */
static void
kip848_clear(cgroup *g)
{
	int i;
	for (i = 0; i < g->nm; i++)
		member_free(g->m[i]);
	free(g->m);
	g->m = NULL;
	g->nm = g->cm = 0;
	hmap_free(&g->members);
	memset(&g->members, 0, sizeof g->members);
	obs_free(g->epoch);
	obs_free(g->target_epoch);
	g->epoch = g->target_epoch = NULL;
}

/* Free the state. */
void
offsets_state_free(kg_costate *s)
{
	size_t i;
	if (s == NULL)
		return;
	for (i = 0; i < s->ng; i++) {
		cgroup *g = s->g[i];
		gens_clear(g);
		kip848_clear(g);
		free(g->c);
		free(g->name);
		free(g);
	}
	free(s->g);
	free(s->part);
	hmap_free(&s->groups);
	hmap_free(&s->topic_ids);
	for (i = 0; i < s->nid; i++)
		free(s->id_keys[i]);
	free(s->id_keys);
	for (i = 0; i < s->nphk; i++)
		free(s->ph_keys[i]);
	free(s->ph_keys);
	free(s->ph);
	offsets_record_free(&s->rec);
	free(s);
}

/* The group called name (of partition part), created on first use. */
static cgroup *
group_get(kg_costate *s, const char *name, int32_t part)
{
	cgroup *g = hmap_get(&s->groups, name);
	if (g != NULL)
		return g;
	g = xcalloc(1, sizeof *g);
	g->name = xstrdup(name);
	g->id = intern_group(name);
	g->part = part;
	hmap_put(&s->groups, g->name, g);
	util_grow(&s->g, &s->cg, s->ng + 1, sizeof *s->g);
	s->g[s->ng++] = g;
	if (part >= 0) {
		if ((size_t)part >= s->npart) {
			size_t n = (size_t)part + 1;
			s->part = xreallocarray(s->part, n, sizeof *s->part);
			memset(s->part + s->npart, 0, (n - s->npart) * sizeof *s->part);
			s->npart = n;
		}
		g->next = s->part[part];
		s->part[part] = g;
	}
	s->st.groups = (int64_t)s->ng;
	return g;
}

/* A time in milliseconds as microseconds; -1 for one no clock gives (before 1970, after 2286). */
static int64_t
ms_us(int64_t ms)
{
	return ms > 0 && ms < 10000000000000LL ? ms * 1000 : -1;
}

/* ------------------------------------------------------------- topics */

/* Remember that a topic id names topic. */
static void
topic_id_learn(kg_costate *s, const uint8_t id[16], const char *topic)
{
	char key[32];
	if (topic == NULL || !offsets_record_has_uuid(id))
		return;
	offsets_record_uuid(id, key, sizeof key);
	if (hmap_get(&s->topic_ids, key) != NULL)
		return;
	util_grow(&s->id_keys, &s->cid, s->nid + 1, sizeof *s->id_keys);
	s->id_keys[s->nid] = xstrdup(key);
	hmap_put(&s->topic_ids, s->id_keys[s->nid], (void *)(intptr_t)(intern_topic(topic) + 1));
	s->nid++;
}

/*
 * The interned topic of an id.  An id whose name is not known yet (its
 * group's commits, which name it, may come later in the log) gets a
 * placeholder topic, resolved when the observation is told
 * (resolve_parts).
 */
static int32_t
topic_of_id(kg_costate *s, const uint8_t id[16])
{
	char key[32], name[48];
	int32_t t;
	offsets_record_uuid(id, key, sizeof key);
	t = (int32_t)(intptr_t)hmap_get(&s->topic_ids, key) - 1;
	if (t >= 0)
		return t;
	snprintf(name, sizeof name, "<topic id %s>", key);
	t = intern_topic(name);
	if ((size_t)t >= s->nph) {
		size_t n = (size_t)t + 64;
		s->ph = xreallocarray(s->ph, n, sizeof *s->ph);
		memset(s->ph + s->nph, 0, (n - s->nph) * sizeof *s->ph);
		s->nph = n;
	}
	if (s->ph[t] == 0) {
		util_grow(&s->ph_keys, &s->cphk, s->nphk + 1, sizeof *s->ph_keys);
		s->ph_keys[s->nphk++] = xstrdup(key);
		s->ph[t] = (int32_t)s->nphk;
	}
	return t;
}

/* Placeholders replaced by the topics their ids name now; those still unnamed left out (counted). */
static void
resolve_parts(kg_costate *s, kg_tp *v, int *n)
{
	int i, w = 0;
	for (i = 0; i < *n; i++) {
		kg_tp x = v[i];
		if (x.topic >= 0 && (size_t)x.topic < s->nph && s->ph[x.topic] > 0) {
			x.topic = (int32_t)(intptr_t)hmap_get(&s->topic_ids, s->ph_keys[s->ph[x.topic] - 1]) - 1;
			if (x.topic < 0) {
				s->st.unresolved++;
				continue;
			}
		}
		v[w++] = x;
	}
	if (w < *n)
		*n = tp_sort_unique(v, w);
	else
		*n = w;
}

/* An observation's partitions (and those pending) with their placeholders resolved. */
static void
resolve_obs(kg_costate *s, kg_obs *o)
{
	if (o->parts != NULL) {
		resolve_parts(s, o->parts, &o->nparts);
		o->nparts = tp_sort_unique(o->parts, o->nparts);
	}
	if (o->pending != NULL) {
		resolve_parts(s, o->pending, &o->npending);
		o->npending = tp_sort_unique(o->pending, o->npending);
	}
}

/* Decoded partitions as a partition set (malloc'd, unsorted); a topic by id not named yet as its placeholder. */
static kg_tp *
parts_of(kg_costate *s, const kg_co_parts *p, int *n)
{
	kg_tp *v = NULL;
	int i, k, total = 0;
	*n = 0;
	for (i = 0; i < p->n; i++)
		total += p->t[i].nparts;
	if (total == 0)
		return NULL;
	v = xmalloc((size_t)total * sizeof *v);
	for (i = 0; i < p->n; i++) {
		const kg_co_topic *t = &p->t[i];
		int32_t topic = t->name != NULL ? intern_topic(t->name) : topic_of_id(s, t->id);
		for (k = 0; k < t->nparts; k++) {
			if (t->parts[k] < 0)
				continue;
			v[*n].topic = topic;
			v[(*n)++].partition = t->parts[k];
		}
	}
	return v;
}

/* Set an observation's partitions (or pending ones) from decoded ones. */
static void
obs_set_parts(kg_costate *s, kg_obs *o, const kg_co_parts *p, bool pending)
{
	int n;
	kg_tp *v = parts_of(s, p, &n);
	if (pending)
		obs_pending(o, v, n);
	else
		obs_parts(o, v, n);
	free(v);
}

/* A sanitized copy of a record's string into an observation's member field (NULL stays NULL). */
static char *
clean(const char *s)
{
	char *c = xstrdup(s);
	if (c != NULL)
		util_sanitize_text(c);
	return c;
}

/* ------------------------------------------------------------ commits */

/* Index of tp in the group's sorted commits, or where it goes (*found false). */
static int
commit_find(const cgroup *g, kg_tp tp, bool *found)
{
	int lo = 0, hi = g->nc;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		int c = g->c[mid].tp.topic != tp.topic ? (g->c[mid].tp.topic < tp.topic ? -1 : 1)
			: g->c[mid].tp.partition != tp.partition ? (g->c[mid].tp.partition < tp.partition ? -1 : 1) : 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < g->nc && g->c[lo].tp.topic == tp.topic && g->c[lo].tp.partition == tp.partition;
	return lo;
}

/* A commit observation of one partition. */
static kg_obs *
commit_obs(const cgroup *g, kg_tp tp, int64_t offset, int64_t at_us, bool loaded)
{
	kg_obs *o = obs_new(KG_OBS_COMMIT, at_us, g->id, OFFSETS_SOURCE);
	obs_parts(o, &tp, 1);
	o->value = offset;
	o->loaded = loaded;
	return o;
}

/* A commit record: the partition's offset moves (an observation while live), or is deleted. */
static void
fold_commit(kg_costate *s, const kg_co_record *r, int32_t part, int64_t ts_ms, bool live, kg_obsq *q)
{
	cgroup *g = group_get(s, r->group, part);
	kg_tp tp = { intern_topic(r->topic), r->partition };
	int64_t at = ms_us(r->commit_ms) > 0 ? ms_us(r->commit_ms) : ms_us(ts_ms);
	bool found;
	int i = commit_find(g, tp, &found);
	ccommit *c;
	topic_id_learn(s, r->topic_id, r->topic);
	if (r->tombstone) {
		if (found) {
			memmove(g->c + i, g->c + i + 1, (size_t)(g->nc - i - 1) * sizeof *g->c);
			g->nc--;
			s->st.partitions--;
		}
		return;
	}
	if (!found) {
		if (g->nc == g->cc) {
			g->cc = g->cc ? 2 * g->cc : 4;
			g->c = xreallocarray(g->c, (size_t)g->cc, sizeof *g->c);
		}
		memmove(g->c + i + 1, g->c + i, (size_t)(g->nc - i) * sizeof *g->c);
		g->nc++;
		s->st.partitions++;
		g->c[i] = (ccommit){ tp, -1, 0, -1, -1, 0 };
	}
	c = &g->c[i];
	if (at < c->last_us)
		return; /* an older one: the log's order is the coordinator's */
	c->last_us = at;
	if (c->offset == r->offset)
		return; /* a repeat does not move it */
	c->prev_offset = c->offset;
	c->prev_at_us = c->at_us;
	c->offset = r->offset;
	c->at_us = at;
	if (live)
		obsq_push(q, commit_obs(g, tp, r->offset, at, false));
}

/* --------------------------------------------------------- generations */

/* The observation of a classic group's generation record. */
static kg_obs *
generation_obs(kg_costate *s, const cgroup *g, const kg_co_record *r, int64_t ts_ms)
{
	kg_obs *o = obs_new(KG_OBS_GENERATION, ms_us(ts_ms), g->id, OFFSETS_SOURCE);
	int i;
	o->generation = r->generation;
	o->nmembers = r->nmembers;
	o->value = ms_us(r->state_ms);
	if (r->protocol != NULL && r->protocol[0] != '\0') {
		obs_text(o, r->protocol);
		util_sanitize_text(o->text);
		o->proto = proto_from_assignor(r->protocol, r->protocol_type);
	}
	for (i = 0; i < r->nmembers; i++) {
		const kg_co_member *m = &r->members[i];
		char *id = clean(m->member_id), *client = clean(m->client_id), *inst = clean(m->instance_id),
		     *host = clean(m->host);
		int n;
		kg_tp *v = parts_of(s, &m->assignment, &n);
		kg_obs_member *x = obs_add_member(o, id, client, inst, host, v, n);
		x->session_timeout_ms = m->session_timeout_ms;
		x->rebalance_timeout_ms = m->rebalance_timeout_ms;
		free(v);
		free(id);
		free(client);
		free(inst);
		free(host);
	}
	return o;
}

/* Keep a generation read while loading in the group's ring of the newest. */
static void
gens_keep(cgroup *g, const kg_co_record *r, int64_t ts_ms)
{
	cgen *x;
	if (g->ngens == OFFSETS_GEN_KEEP) {
		x = &g->gens[g->head];
		free(x->assignor);
		g->head = (g->head + 1) % OFFSETS_GEN_KEEP;
		g->ngens--;
	}
	x = &g->gens[(g->head + g->ngens) % OFFSETS_GEN_KEEP];
	x->generation = r->generation;
	x->nmembers = r->nmembers;
	x->t_us = ms_us(ts_ms);
	x->begun_us = ms_us(r->state_ms);
	x->assignor = r->protocol != NULL && r->protocol[0] != '\0' ? xstrdup(r->protocol) : NULL;
	g->ngens++;
}

/* A classic group's record: a generation (the group's creation record, generation 0, is none), or its deletion. */
static void
fold_group(kg_costate *s, const kg_co_record *r, int32_t part, int64_t ts_ms, bool live, kg_obsq *q)
{
	cgroup *g = group_get(s, r->group, part);
	kg_obs *o;
	if (r->tombstone) {
		gens_clear(g);
		if (live) {
			o = obs_new(KG_OBS_GENERATION, ms_us(ts_ms), g->id, OFFSETS_SOURCE);
			o->gone = true;
			obsq_push(q, o);
		}
		return;
	}
	if (r->generation == 0 && r->nmembers == 0)
		return;
	s->st.generations++;
	g->gens_total++;
	o = generation_obs(s, g, r, ts_ms);
	if (!live)
		gens_keep(g, r, ts_ms);
	obs_free(g->last_gen);
	g->last_gen = o;
	if (live)
		obsq_push(q, obs_dup(o));
}

/* -------------------------------------------------------------- KIP-848 */

/* A KIP-848 member of a group, created on first use. */
static cmember *
member_get(cgroup *g, const char *member_id)
{
	cmember *m = hmap_get(&g->members, member_id);
	if (m != NULL)
		return m;
	m = xcalloc(1, sizeof *m);
	m->member_id = xstrdup(member_id);
	hmap_put(&g->members, m->member_id, m);
	if (g->nm == g->cm) {
		g->cm = g->cm ? 2 * g->cm : 4;
		g->m = xreallocarray(g->m, (size_t)g->cm, sizeof *g->m);
	}
	g->m[g->nm++] = m;
	return m;
}

/* A KIP-848 member is gone: its records too. */
static void
member_drop(cgroup *g, const char *member_id)
{
	cmember *m = hmap_del(&g->members, member_id);
	int i;
	if (m == NULL)
		return;
	for (i = 0; i < g->nm; i++) {
		if (g->m[i] == m) {
			g->m[i] = g->m[--g->nm];
			break;
		}
	}
	member_free(m);
}

/* The observation of a KIP-848 record (kind from its type), member fields filled. */
static kg_obs *
kip848_obs(kg_costate *s, const cgroup *g, const kg_co_record *r, int64_t ts_ms)
{
	static const kg_obs_kind kinds[KG_CO_TYPE_COUNT] = {
		[KG_CO_EPOCH] = KG_OBS_GROUP_EPOCH,         [KG_CO_MEMBER] = KG_OBS_MEMBER_META,
		[KG_CO_TARGET_EPOCH] = KG_OBS_TARGET_EPOCH, [KG_CO_TARGET] = KG_OBS_TARGET_MEMBER,
		[KG_CO_ASSIGNMENT] = KG_OBS_MEMBER_EPOCH,
	};
	kg_obs *o = obs_new(kinds[r->type], ms_us(ts_ms), g->id, OFFSETS_SOURCE);
	char *id = clean(r->member_id);
	o->gone = r->tombstone;
	obs_member(o, id, NULL, NULL, NULL);
	free(id);
	if (r->tombstone)
		return o;
	switch (r->type) {
	case KG_CO_EPOCH:
		o->generation = r->epoch;
		break;
	case KG_CO_TARGET_EPOCH:
		o->generation = r->epoch;
		o->value = ms_us(r->assignment_ms);
		break;
	case KG_CO_TARGET:
		obs_set_parts(s, o, &r->assigned, false);
		break;
	case KG_CO_ASSIGNMENT:
		o->generation = r->epoch;
		o->prev_epoch = r->prev_epoch;
		o->member_state = r->state;
		obs_set_parts(s, o, &r->assigned, false);
		obs_set_parts(s, o, &r->pending, true);
		break;
	case KG_CO_MEMBER: {
		sbuf t = { 0 };
		char *client = clean(r->client_id), *inst = clean(r->instance_id), *host = clean(r->host);
		int i;
		obs_member(o, NULL, client, inst, host);
		o->max_poll_ms = r->rebalance_timeout_ms >= 0 ? r->rebalance_timeout_ms : -1;
		for (i = 0; i < r->nsubscribed; i++)
			sbuf_addf(&t, "%s%s", i > 0 ? "," : "", r->subscribed[i] ? r->subscribed[i] : "");
		if (r->regex != NULL && r->regex[0] != '\0')
			sbuf_addf(&t, "%sregex %s", t.len > 0 ? " " : "", r->regex);
		if (t.len > 0) {
			obs_text(o, sbuf_str(&t));
			util_sanitize_text(o->text);
		}
		sbuf_free(&t);
		free(client);
		free(inst);
		free(host);
		break;
	}
	default:
		break;
	}
	return o;
}

/* Replace a kept record's observation (NULL: forget it). */
static void
keep(kg_obs **slot, kg_obs *o)
{
	obs_free(*slot);
	*slot = o;
}

/* A KIP-848 record: kept (a tombstone forgets), and an observation while live. */
static void
fold_kip848(kg_costate *s, const kg_co_record *r, int32_t part, int64_t ts_ms, bool live, kg_obsq *q)
{
	cgroup *g = group_get(s, r->group, part);
	kg_obs *o;
	if (r->type == KG_CO_TOPICS) {
		int i;
		for (i = 0; i < r->topics.n; i++)
			topic_id_learn(s, r->topics.t[i].id, r->topics.t[i].name);
		return;
	}
	o = kip848_obs(s, g, r, ts_ms);
	if (live) {
		kg_obs *c = obs_dup(o);
		resolve_obs(s, c);
		obsq_push(q, c);
	}
	if (r->type == KG_CO_EPOCH) {
		if (r->tombstone) {
			obs_free(o);
			kip848_clear(g); /* the group was deleted */
		} else {
			keep(&g->epoch, o);
		}
	} else if (r->type == KG_CO_TARGET_EPOCH) {
		keep(&g->target_epoch, r->tombstone ? (obs_free(o), NULL) : o);
	} else if (r->type == KG_CO_MEMBER && r->tombstone) {
		obs_free(o);
		member_drop(g, r->member_id); /* the member left: its target and assignment go with it */
	} else {
		cmember *m = member_get(g, r->member_id);
		kg_obs **slot = r->type == KG_CO_MEMBER ? &m->meta : r->type == KG_CO_TARGET ? &m->target : &m->epoch;
		keep(slot, r->tombstone ? (obs_free(o), NULL) : o);
	}
}

/* ------------------------------------------------------------------ API */

/* Decode and fold one record. */
kg_co_rc
offsets_state_read(kg_costate *s, int32_t part, const void *key, size_t klen, const void *value, size_t vlen,
		   int64_t ts_ms, bool live, kg_obsq *q, char *err, size_t errsz)
{
	kg_co_record *r = &s->rec;
	size_t before = q != NULL ? q->n : 0;
	kg_co_rc rc;
	s->st.records++;
	if (ms_us(ts_ms) < 0)
		ts_ms = util_now_us() / 1000; /* a record without a time: when it was read */
	rc = offsets_record_decode(r, key, klen, value, vlen, err, errsz);
	if (rc != KG_CO_OK) {
		if (rc == KG_CO_UNKNOWN)
			s->st.unknown++;
		else
			s->st.errors++;
		snprintf(s->st.last_error, sizeof s->st.last_error, "partition %d: %s", (int)part, err);
		util_sanitize_text(s->st.last_error);
		return rc;
	}
	s->st.by_type[r->type]++;
	s->st.tombstones += r->tombstone;
	s->st.embedded_errors += r->embedded_errors;
	if (q == NULL)
		live = false;
	switch (r->type) {
	case KG_CO_COMMIT:
		fold_commit(s, r, part, ts_ms, live, q);
		break;
	case KG_CO_GROUP:
		fold_group(s, r, part, ts_ms, live, q);
		break;
	case KG_CO_OTHER:
		break;
	default:
		fold_kip848(s, r, part, ts_ms, live, q);
		break;
	}
	if (q != NULL)
		s->st.observations += (int64_t)(q->n - before);
	return KG_CO_OK;
}

/* A loaded copy of a kept observation, its topic ids named as they are known now. */
static void
push_loaded(kg_costate *s, kg_obsq *q, const kg_obs *o)
{
	kg_obs *c;
	if (o == NULL)
		return;
	c = obs_dup(o);
	c->loaded = true;
	resolve_obs(s, c);
	obsq_push(q, c);
}

/* A group's loaded state as observations. */
static void
group_loaded(kg_costate *s, const cgroup *g, int64_t now_us, int64_t window_us, kg_obsq *q)
{
	int i;
	/* the generations of the window, each bare but the last (whole: its members and their assignments) */
	for (i = 0; i < g->ngens; i++) {
		const cgen *x = &g->gens[(g->head + i) % OFFSETS_GEN_KEEP];
		kg_obs *o;
		if (x->t_us < now_us - window_us || i == g->ngens - 1)
			continue;
		o = obs_new(KG_OBS_GENERATION, x->t_us, g->id, OFFSETS_SOURCE);
		o->generation = x->generation;
		o->nmembers = x->nmembers;
		o->value = x->begun_us;
		o->loaded = true;
		if (x->assignor != NULL) {
			obs_text(o, x->assignor);
			util_sanitize_text(o->text);
			o->proto = proto_from_assignor(x->assignor, "consumer");
		}
		obsq_push(q, o);
	}
	push_loaded(s, q, g->last_gen);
	/* each partition's offset before the last (so the last is known to have moved it) and the last */
	for (i = 0; i < g->nc; i++) {
		const ccommit *c = &g->c[i];
		if (c->prev_offset >= 0)
			obsq_push(q, commit_obs(g, c->tp, c->prev_offset, c->prev_at_us, true));
		obsq_push(q, commit_obs(g, c->tp, c->offset, c->at_us, true));
	}
	push_loaded(s, q, g->epoch);
	push_loaded(s, q, g->target_epoch);
	for (i = 0; i < g->nm; i++) {
		push_loaded(s, q, g->m[i]->meta);
		push_loaded(s, q, g->m[i]->target);
		push_loaded(s, q, g->m[i]->epoch);
	}
}

/* Partition part is loaded: its groups' state as observations. */
size_t
offsets_state_loaded(kg_costate *s, int32_t part, int64_t now_us, int64_t window_us, kg_obsq *q)
{
	size_t before = q->n;
	const cgroup *g;
	if (part < 0 || (size_t)part >= s->npart)
		return 0;
	for (g = s->part[part]; g != NULL; g = g->next)
		group_loaded(s, g, now_us, window_us, q);
	s->st.observations += (int64_t)(q->n - before);
	return q->n - before;
}

/* The counts. */
const kg_costats *
offsets_state_stats(const kg_costate *s)
{
	return &s->st;
}

/* Generation records read of a group. */
int64_t
offsets_state_generations(const kg_costate *s, const char *group)
{
	const cgroup *g = hmap_get(&s->groups, group);
	return g != NULL ? g->gens_total : -1;
}

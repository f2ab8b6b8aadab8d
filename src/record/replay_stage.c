/*
 * replay_stage.c: a recording's tick line checked against the replay's
 * state ("staged"), then made the state (see replay_int.h).
 *
 * Staging computes every value the line changes into new objects: a
 * group in a delta starts as a shallow copy of the current one and owns
 * (OWN_*) only what the line replaced; log-end and committed differences
 * are applied to copies.  So a damaged line is found before anything of
 * it is applied, and committing it cannot fail.  Observations are read
 * by the observation table (obs_codec.h, the recording schema).
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "record/json.h"
#include "record/obs_codec.h"
#include "record/replay_int.h"
#include "util/util.h"

/* ------------------------------------------------------------- state */

/* Free a member's strings and assignment. */
static void
rmember_clear(rmember *m)
{
	free(m->id);
	free(m->client_id);
	free(m->host);
	free(m->instance_id);
	free(m->a);
	free(m->t);
}

/* Free a member array. */
static void
rmembers_free(rmember *m, int n)
{
	int i;
	for (i = 0; i < n; i++)
		rmember_clear(&m[i]);
	free(m);
}

/* Free what a group owns, and the group. */
static void
rgroup_free(rgroup *g)
{
	if (g == NULL)
		return;
	if (g->own & OWN_PTYPE)
		free(g->protocol_type);
	if (g->own & OWN_ASSIGNOR)
		free(g->assignor);
	if (g->own & OWN_ERROR)
		free(g->error);
	if (g->own & OWN_MEMBERS)
		rmembers_free(g->m, g->nm);
	if (g->own & OWN_PARTS)
		free(g->p);
	if (g->own & OWN_KIP) {
		free(g->type_name);
		free(g->state_name);
		free(g->note);
	}
	free(g);
}

/* Free a topic. */
static void
rtopic_free(rtopic *t)
{
	if (t == NULL)
		return;
	free(t->leader);
	free(t->log_end);
	free(t->log_start);
	free(t->stamp);
	free(t);
}

/* A topic of n partitions, log starts unknown and nothing read. */
static rtopic *
rtopic_new(int n)
{
	rtopic *t = xcalloc(1, sizeof *t);
	int i;
	t->n = n;
	t->leader = xcalloc((size_t)(n ? n : 1), sizeof *t->leader);
	t->log_end = xcalloc((size_t)(n ? n : 1), sizeof *t->log_end);
	t->log_start = xmalloc((size_t)(n ? n : 1) * sizeof *t->log_start);
	t->stamp = xmalloc((size_t)(n ? n : 1) * KG_PART_STAMPS * sizeof *t->stamp);
	for (i = 0; i < n; i++)
		t->log_start[i] = -1;
	for (i = 0; i < n * KG_PART_STAMPS; i++)
		t->stamp[i] = (kg_stamp){ .offset = -1, .record = -1, .ts_ms = -1 };
	return t;
}

/* A copy of a topic, to change in a line. */
static rtopic *
rtopic_dup(const rtopic *old)
{
	rtopic *t = rtopic_new(old->n);
	if (t->n > 0) {
		memcpy(t->leader, old->leader, (size_t)t->n * sizeof *t->leader);
		memcpy(t->log_end, old->log_end, (size_t)t->n * sizeof *t->log_end);
		memcpy(t->log_start, old->log_start, (size_t)t->n * sizeof *t->log_start);
		memcpy(t->stamp, old->stamp, (size_t)t->n * KG_PART_STAMPS * sizeof *t->stamp);
	}
	return t;
}

/* Free an array of source health records. */
static void
health_free(kg_source_health *v, int n)
{
	int i;
	for (i = 0; i < n; i++) {
		free((char *)v[i].name);
		free((char *)v[i].message);
	}
	free(v);
}

/* Free an array of brokers. */
static void
brokers_free(kg_broker *v, int n)
{
	int i;
	for (i = 0; i < n; i++)
		free((char *)v[i].host);
	free(v);
}

/* Discard a staged line. */
void
replay_stage_clear(rline *L)
{
	int i;
	health_free(L->src, L->nsrc);
	brokers_free(L->brk, L->nbrk);
	for (i = 0; i < L->ntopics; i++)
		rtopic_free(L->topics[i].t);
	free(L->topics);
	for (i = 0; i < L->ngroups; i++)
		rgroup_free(L->groups[i].g);
	free(L->groups);
	obsq_clear(&L->obs);
	free(L->obs.v);
	memset(L, 0, sizeof *L);
}

/* The current state of a group, NULL when absent. */
static rgroup *
state_group(kg_replay *r, int32_t id)
{
	return id >= 0 && (size_t)id < r->cgroups ? r->groups[id] : NULL;
}

/* The current state of a topic, NULL when absent. */
static rtopic *
state_topic(kg_replay *r, int32_t id)
{
	return id >= 0 && (size_t)id < r->ctopics ? r->topics[id] : NULL;
}

/* Grow an id-indexed pointer array to hold id. */
static void
grow_index(void *arrp, size_t *cap, int32_t id)
{
	void ***arr = arrp;
	size_t old = *cap, n = old ? old : 64;
	if ((size_t)id < old)
		return;
	while (n <= (size_t)id)
		n *= 2;
	*arr = xreallocarray(*arr, n, sizeof **arr);
	memset(*arr + old, 0, (n - old) * sizeof **arr);
	*cap = n;
}

/* ------------------------------------------------------------ staging */

/* Order parts by partition. */
static int
rpart_cmp(const void *a, const void *b)
{
	const rpart *x = a, *y = b;
	return tp_cmp(&x->tp, &y->tp);
}

/* Parse "parts":{"topic":[[p,committed],...]} into a sorted array. */
static int
parse_parts(const cJSON *o, rpart **out, int *n, const char *group, char *err, size_t errsz)
{
	const cJSON *t, *e;
	rpart *v = NULL;
	size_t cap = 0;
	int k = 0;
	if (!cJSON_IsObject(o))
		return util_err(err, errsz, "group \"%s\": parts: not an object", group);
	cJSON_ArrayForEach(t, o)
	{
		int32_t topic = intern_topic(t->string);
		if (!cJSON_IsArray(t))
			goto bad;
		cJSON_ArrayForEach(e, t)
		{
			int32_t part;
			int64_t c;
			if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !json_get_i32(cJSON_GetArrayItem(e, 0), &part) ||
			    part < 0 || !json_get_i64(cJSON_GetArrayItem(e, 1), &c))
				goto bad;
			util_grow(&v, &cap, (size_t)k + 1, sizeof *v);
			v[k].tp.topic = topic;
			v[k].tp.partition = part;
			v[k].committed = c;
			k++;
		}
	}
	if (k > 1)
		qsort(v, (size_t)k, sizeof *v, rpart_cmp);
	*out = v;
	*n = k;
	return 0;
bad:
	free(v);
	return util_err(err, errsz, "group \"%s\": parts of topic \"%s\": expected [[partition,committed],...]", group,
			t->string);
}

/* Parse "members":[...]. */
static int
parse_members(const cJSON *a, rmember **out, int *n, const char *group, char *err, size_t errsz)
{
	const cJSON *e;
	rmember *v;
	int k = 0, cnt;
	if (!cJSON_IsArray(a))
		return util_err(err, errsz, "group \"%s\": members: not an array", group);
	cnt = cJSON_GetArraySize(a);
	v = xcalloc((size_t)(cnt > 0 ? cnt : 1), sizeof *v);
	cJSON_ArrayForEach(e, a)
	{
		rmember *m = &v[k++];
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");
		const cJSON *x;
		char what[160];
		if (!cJSON_IsString(id)) {
			rmembers_free(v, k);
			return util_err(err, errsz, "group \"%s\": member %d has no id", group, k);
		}
		m->id = xstrdup(id->valuestring);
		if (!json_get_str(cJSON_GetObjectItemCaseSensitive(e, "client_id"), &m->client_id) ||
		    !json_get_str(cJSON_GetObjectItemCaseSensitive(e, "host"), &m->host)) {
			rmembers_free(v, k);
			return util_err(err, errsz, "group \"%s\": member %d: bad client_id or host", group, k);
		}
		x = cJSON_GetObjectItemCaseSensitive(e, "instance_id");
		if (x != NULL && !json_get_str(x, &m->instance_id)) {
			rmembers_free(v, k);
			return util_err(err, errsz, "group \"%s\": member %d: bad instance_id", group, k);
		}
		x = cJSON_GetObjectItemCaseSensitive(e, "flags");
		if (x != NULL) {
			int64_t fl;
			if (!json_get_i64(x, &fl) || fl < 0 || fl > UINT32_MAX) {
				rmembers_free(v, k);
				return util_err(err, errsz, "group \"%s\": member %d: bad flags", group, k);
			}
			m->flags = (uint32_t)fl;
		}
		snprintf(what, sizeof what, "group \"%s\": member %d: assignment", group, k);
		x = cJSON_GetObjectItemCaseSensitive(e, "assignment");
		if (x != NULL && json_get_set(x, false, &m->a, &m->na, what, err, errsz) < 0) {
			rmembers_free(v, k);
			return -1;
		}
		m->nt = -1;
		snprintf(what, sizeof what, "group \"%s\": member %d: target", group, k);
		x = cJSON_GetObjectItemCaseSensitive(e, "target");
		if (x != NULL && (m->nt = 0, json_get_set(x, false, &m->t, &m->nt, what, err, errsz)) < 0) {
			rmembers_free(v, k);
			return -1;
		}
	}
	*out = v;
	*n = k;
	return 0;
}

/* Apply "committed":[differences over the group's partitions] (the parts copied first when shared). */
static int
apply_committed(rgroup *g, const cJSON *a, const char *group, char *err, size_t errsz)
{
	const cJSON *d;
	int k = 0, cnt = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : -1;
	if (cnt != g->np)
		return util_err(err, errsz, "group \"%s\": committed differences: %d for %d partitions", group, cnt, g->np);
	if (!(g->own & OWN_PARTS)) {
		rpart *c = xmalloc((size_t)(g->np > 0 ? g->np : 1) * sizeof *c);
		if (g->np > 0)
			memcpy(c, g->p, (size_t)g->np * sizeof *c);
		g->p = c;
		g->own |= OWN_PARTS;
	}
	cJSON_ArrayForEach(d, a)
	{
		int64_t diff;
		if (!json_get_i64(d, &diff))
			return util_err(err, errsz, "group \"%s\": committed differences: not integers", group);
		g->p[k++].committed += diff;
	}
	return 0;
}

/*
 * A KIP-848-era key of a group object (format 2): its type, the names its
 * source gave a type or state kgtop has none for, its note; 0 when f is
 * none of them (an unknown key: later additions stay readable).
 */
static int
stage_group_kip(rgroup *g, const cJSON *f, const char *name, char *err, size_t errsz)
{
	const char *k = f->string;
	char **dst;
	char *s;
	if (strcmp(k, "type") == 0) {
		if (!cJSON_IsString(f))
			return util_err(err, errsz, "group \"%s\": bad type", name);
		g->type = gtype_parse(f->valuestring);
		return 0;
	}
	if (strcmp(k, "members_unknown") == 0) {
		if (!cJSON_IsBool(f))
			return util_err(err, errsz, "group \"%s\": bad members_unknown", name);
		g->members_unknown = cJSON_IsTrue(f);
		return 0;
	}
	if (strcmp(k, "type_name") == 0)
		dst = &g->type_name;
	else if (strcmp(k, "state_name") == 0)
		dst = &g->state_name;
	else if (strcmp(k, "note") == 0)
		dst = &g->note;
	else
		return 0;
	if (!json_get_str(f, &s))
		return util_err(err, errsz, "group \"%s\": bad %s", name, k);
	if (!(g->own & OWN_KIP)) {
		/* the three strings are owned together: copy the others the old group shares */
		g->type_name = xstrdup(g->type_name);
		g->state_name = xstrdup(g->state_name);
		g->note = xstrdup(g->note);
		g->own |= OWN_KIP;
	}
	free(*dst);
	*dst = s;
	return 0;
}

/* Stage one group object (a delta against the current group unless key). */
static int
stage_group(kg_replay *r, rline *L, const cJSON *o, bool key, char *err, size_t errsz)
{
	const char *name = o->string;
	int32_t id = intern_group(name);
	const rgroup *old = key ? NULL : state_group(r, id);
	rgroup *g = xcalloc(1, sizeof *g);
	const cJSON *f, *committed = NULL;
	if ((size_t)id >= r->cgstamp) {
		size_t oldcap = r->cgstamp, ncap = oldcap ? oldcap : 64;
		while (ncap <= (size_t)id)
			ncap *= 2;
		r->gstamp = xreallocarray(r->gstamp, ncap, sizeof *r->gstamp);
		memset(r->gstamp + oldcap, 0, (ncap - oldcap) * sizeof *r->gstamp);
		r->cgstamp = ncap;
	}
	if (r->gstamp[id] == L->lineno) {
		free(g);
		return util_err(err, errsz, "group \"%s\" appears twice", name);
	}
	r->gstamp[id] = L->lineno;
	if (old != NULL) {
		*g = *old;
		g->own = 0;
	} else {
		g->coordinator = -1;
		g->own = OWN_ALL;
	}
	util_grow(&L->groups, &L->cgroups, (size_t)L->ngroups + 1, sizeof *L->groups);
	L->groups[L->ngroups].id = id;
	L->groups[L->ngroups].g = g;
	L->ngroups++;
	if (!cJSON_IsObject(o))
		return util_err(err, errsz, "group \"%s\": not an object", name);
	cJSON_ArrayForEach(f, o)
	{
		const char *k = f->string;
		char *s;
		if (strcmp(k, "state") == 0) {
			if (!cJSON_IsString(f))
				return util_err(err, errsz, "group \"%s\": bad state", name);
			g->state = state_parse(f->valuestring);
		} else if (strcmp(k, "protocol_type") == 0 || strcmp(k, "assignor") == 0 || strcmp(k, "error") == 0) {
			unsigned bit = k[0] == 'p' ? OWN_PTYPE : k[0] == 'a' ? OWN_ASSIGNOR : OWN_ERROR;
			char **dst = k[0] == 'p' ? &g->protocol_type : k[0] == 'a' ? &g->assignor : &g->error;
			if (!json_get_str(f, &s))
				return util_err(err, errsz, "group \"%s\": bad %s", name, k);
			if (g->own & bit)
				free(*dst);
			*dst = s;
			g->own |= bit;
		} else if (strcmp(k, "protocol") == 0) {
			int p = json_get_enum(f, KG_PROTO_COUNT, json_proto_name);
			if (p < 0)
				return util_err(err, errsz, "group \"%s\": bad protocol", name);
			g->proto = (kg_proto)p;
		} else if (strcmp(k, "coordinator") == 0) {
			if (!json_get_i32(f, &g->coordinator))
				return util_err(err, errsz, "group \"%s\": bad coordinator", name);
		} else if (strcmp(k, "data_time") == 0) {
			if (!json_get_i64(f, &g->data_time))
				return util_err(err, errsz, "group \"%s\": bad data_time", name);
		} else if (strcmp(k, "offsets_time") == 0) {
			if (!json_get_i64(f, &g->offs_time) || g->offs_time < 0)
				return util_err(err, errsz, "group \"%s\": bad offsets_time", name);
		} else if (strcmp(k, "pace") == 0) {
			if (!json_get_i32(f, &g->pace_ms) || g->pace_ms < 0)
				return util_err(err, errsz, "group \"%s\": bad pace", name);
		} else if (strcmp(k, "simple") == 0 || strcmp(k, "exact") == 0) {
			if (!cJSON_IsBool(f))
				return util_err(err, errsz, "group \"%s\": bad %s", name, k);
			*(k[0] == 's' ? &g->simple : &g->exact) = cJSON_IsTrue(f);
		} else if (strcmp(k, "members") == 0) {
			rmember *m = NULL;
			int n = 0;
			if (parse_members(f, &m, &n, name, err, errsz) < 0)
				return -1;
			if (g->own & OWN_MEMBERS)
				rmembers_free(g->m, g->nm);
			g->m = m;
			g->nm = n;
			g->own |= OWN_MEMBERS;
		} else if (strcmp(k, "parts") == 0) {
			rpart *p = NULL;
			int n = 0;
			if (parse_parts(f, &p, &n, name, err, errsz) < 0)
				return -1;
			if (g->own & OWN_PARTS)
				free(g->p);
			g->p = p;
			g->np = n;
			g->own |= OWN_PARTS;
		} else if (strcmp(k, "committed") == 0) {
			committed = f;
		} else if (stage_group_kip(g, f, name, err, errsz) < 0) {
			return -1;
		}
		/* unknown keys are ignored: later minor additions stay readable */
	}
	if (committed != NULL && apply_committed(g, committed, name, err, errsz) < 0)
		return -1;
	return 0;
}

/* Stage one full topic {"leaders":[...],"log_end":[...],"log_start":[...]} (log_start since verdicts: optional). */
static int
stage_topic_full(rline *L, const cJSON *o, char *err, size_t errsz)
{
	const cJSON *ld = cJSON_GetObjectItemCaseSensitive(o, "leaders");
	const cJSON *le = cJSON_GetObjectItemCaseSensitive(o, "log_end");
	const cJSON *ls = cJSON_GetObjectItemCaseSensitive(o, "log_start");
	int n = cJSON_IsArray(ld) ? cJSON_GetArraySize(ld) : -1, i;
	rtopic *t = rtopic_new(n > 0 ? n : 0);
	util_grow(&L->topics, &L->ctopics, (size_t)L->ntopics + 1, sizeof *L->topics);
	L->topics[L->ntopics].id = intern_topic(o->string);
	L->topics[L->ntopics].t = t;
	L->ntopics++;
	if (n < 0 || !cJSON_IsArray(le) || cJSON_GetArraySize(le) != n)
		return util_err(err, errsz, "topic \"%s\": leaders and log_end must be arrays of one length", o->string);
	if (ls != NULL && (!cJSON_IsArray(ls) || cJSON_GetArraySize(ls) != n))
		return util_err(err, errsz, "topic \"%s\": log_start must be an array as long as leaders", o->string);
	for (i = 0; i < n; i++) {
		if (!json_get_i32(cJSON_GetArrayItem(ld, i), &t->leader[i]) || !json_get_i64(cJSON_GetArrayItem(le, i), &t->log_end[i]) ||
		    (ls != NULL && !json_get_i64(cJSON_GetArrayItem(ls, i), &t->log_start[i])))
			return util_err(err, errsz, "topic \"%s\": partition %d: not integers", o->string, i);
	}
	return 0;
}

/* The topic as this line leaves it so far: staged earlier in the line, else the state. */
static const rtopic *
line_topic(kg_replay *r, rline *L, int32_t id, bool key)
{
	int i;
	for (i = L->ntopics - 1; i >= 0; i--) {
		if (L->topics[i].id == id)
			return L->topics[i].t;
	}
	return key ? NULL : state_topic(r, id);
}

/* A copy of the topic as this line leaves it so far, staged to be changed; NULL when it has none. */
static rtopic *
stage_topic_copy(kg_replay *r, rline *L, int32_t id, bool key)
{
	const rtopic *old = line_topic(r, L, id, key);
	rtopic *t;
	if (old == NULL)
		return NULL;
	t = rtopic_dup(old);
	util_grow(&L->topics, &L->ctopics, (size_t)L->ntopics + 1, sizeof *L->topics);
	L->topics[L->ntopics].id = id;
	L->topics[L->ntopics].t = t;
	L->ntopics++;
	return t;
}

/* Stage log-end (what "log_end") or log-start differences for one topic. */
static int
stage_topic_diff(kg_replay *r, rline *L, const cJSON *o, bool key, const char *what, char *err, size_t errsz)
{
	int32_t id = intern_topic(o->string);
	const rtopic *old = line_topic(r, L, id, key);
	rtopic *t;
	int i;
	if (old == NULL || !cJSON_IsArray(o) || cJSON_GetArraySize(o) != old->n)
		return util_err(err, errsz, "%s differences for topic \"%s\": %d for %d partitions", what, o->string,
				cJSON_IsArray(o) ? cJSON_GetArraySize(o) : -1, old ? old->n : 0);
	t = stage_topic_copy(r, L, id, key);
	for (i = 0; i < t->n; i++) {
		int64_t d;
		if (!json_get_i64(cJSON_GetArrayItem(o, i), &d))
			return util_err(err, errsz, "%s differences for topic \"%s\": not integers", what, o->string);
		if (strcmp(what, "log_end") == 0)
			t->log_end[i] += d;
		else
			t->log_start[i] += d;
	}
	return 0;
}

/* Stage the records read of one topic: [[partition,offset,record,timestamp_ms,"why"],...], all of them (a partition once per offset read). */
static int
stage_stamps(kg_replay *r, rline *L, const cJSON *o, bool key, char *err, size_t errsz)
{
	rtopic *t = stage_topic_copy(r, L, intern_topic(o->string), key);
	const cJSON *e;
	int i;
	if (t == NULL || !cJSON_IsArray(o))
		return util_err(err, errsz, "stamps of topic \"%s\": no such topic, or not an array", o->string);
	for (i = 0; i < t->n * KG_PART_STAMPS; i++)
		t->stamp[i] = (kg_stamp){ .offset = -1, .record = -1, .ts_ms = -1 };
	cJSON_ArrayForEach(e, o)
	{
		int32_t p;
		kg_stamp s = { 0 };
		kg_stamp *slot;
		const cJSON *why = cJSON_GetArrayItem(e, 4);
		if (!cJSON_IsArray(e) || !json_get_i32(cJSON_GetArrayItem(e, 0), &p) || p < 0 || p >= t->n ||
		    !json_get_i64(cJSON_GetArrayItem(e, 1), &s.offset) || !json_get_i64(cJSON_GetArrayItem(e, 2), &s.record) ||
		    !json_get_i64(cJSON_GetArrayItem(e, 3), &s.ts_ms) || !cJSON_IsString(why))
			return util_err(err, errsz, "stamps of topic \"%s\": [partition, offset, record, timestamp, why] expected",
					o->string);
		s.why = (uint8_t)tlag_why_parse(why->valuestring);
		slot = &t->stamp[p * KG_PART_STAMPS];
		for (i = 0; i < KG_PART_STAMPS - 1 && slot[i].offset >= 0 && slot[i].offset != s.offset; i++)
			;
		slot[i] = s; /* its offset's slot, the first free one, or the last */
	}
	return 0;
}

/* Stage "sources":[...]. */
static int
stage_sources(rline *L, const cJSON *a, char *err, size_t errsz)
{
	const cJSON *e;
	int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : -1;
	if (n < 0)
		return util_err(err, errsz, "sources: not an array");
	L->has_sources = true;
	L->src = xcalloc((size_t)(n ? n : 1), sizeof *L->src);
	cJSON_ArrayForEach(e, a)
	{
		kg_source_health *h = &L->src[L->nsrc];
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "status");
		char *msg = NULL;
		int status;
		if (!cJSON_IsString(name) || !cJSON_IsString(st))
			return util_err(err, errsz, "sources: an entry without name or status");
		h->name = xstrdup(name->valuestring);
		h->role = source_recorded_role(h->name);
		L->nsrc++;
		status = json_get_enum(st, KG_SRC_COUNT, json_status_name);
		if (status < 0 ||
		    !json_get_i64(cJSON_GetObjectItemCaseSensitive(e, "since"), &h->since_us) ||
		    !json_get_i64(cJSON_GetObjectItemCaseSensitive(e, "last_ok"), &h->last_ok_us) ||
		    !json_get_str(cJSON_GetObjectItemCaseSensitive(e, "message"), &msg))
			return util_err(err, errsz, "sources: \"%s\": bad status, since, last_ok or message", h->name);
		h->status = (kg_src_status)status;
		h->message = msg;
		h->insecure = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "insecure"));
		if (cJSON_GetObjectItemCaseSensitive(e, "cadence") != NULL &&
		    !json_get_i64(cJSON_GetObjectItemCaseSensitive(e, "cadence"), &h->cadence_us))
			return util_err(err, errsz, "sources: \"%s\": bad cadence", h->name);
	}
	return 0;
}

/* Stage "refresh":{"n":N,"data_time":T,"interval":I}. */
static int
stage_refresh(rline *L, const cJSON *o, char *err, size_t errsz)
{
	int64_t n;
	if (!json_get_i64(cJSON_GetObjectItemCaseSensitive(o, "n"), &n) || n < 0 ||
	    !json_get_i64(cJSON_GetObjectItemCaseSensitive(o, "data_time"), &L->data_time) ||
	    !json_get_i64(cJSON_GetObjectItemCaseSensitive(o, "interval"), &L->interval))
		return util_err(err, errsz, "refresh: bad n, data_time or interval");
	L->refresh = (uint64_t)n;
	L->has_refresh = true;
	return 0;
}

/* Stage "brokers":[[id,"host",port],...]. */
static int
stage_brokers(rline *L, const cJSON *a, char *err, size_t errsz)
{
	const cJSON *e;
	int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : -1;
	if (n < 0)
		return util_err(err, errsz, "brokers: not an array");
	L->has_brokers = true;
	L->brk = xcalloc((size_t)(n ? n : 1), sizeof *L->brk);
	cJSON_ArrayForEach(e, a)
	{
		kg_broker *b = &L->brk[L->nbrk];
		int32_t port;
		const cJSON *host = cJSON_GetArrayItem(e, 1);
		if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3 || !json_get_i32(cJSON_GetArrayItem(e, 0), &b->id) ||
		    !cJSON_IsString(host) || !json_get_i32(cJSON_GetArrayItem(e, 2), &port))
			return util_err(err, errsz, "brokers: expected [id,\"host\",port]");
		b->host = xstrdup(host->valuestring);
		b->port = port;
		L->nbrk++;
	}
	return 0;
}

/* Stage a parsed tick line against the current state. */
int
replay_stage_line(kg_replay *r, rline *L, const cJSON *root, char *err, size_t errsz)
{
	const cJSON *f, *e;
	L->key = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "key"));
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "refresh")) != NULL && stage_refresh(L, f, err, errsz) < 0)
		return -1;
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "sources")) != NULL && stage_sources(L, f, err, errsz) < 0)
		return -1;
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "brokers")) != NULL && stage_brokers(L, f, err, errsz) < 0)
		return -1;
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "topics")) != NULL) {
		if (!cJSON_IsObject(f))
			return util_err(err, errsz, "topics: not an object");
		cJSON_ArrayForEach(e, f)
		{
			if (stage_topic_full(L, e, err, errsz) < 0)
				return -1;
		}
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "log_end")) != NULL) {
		if (!cJSON_IsObject(f))
			return util_err(err, errsz, "log_end: not an object");
		cJSON_ArrayForEach(e, f)
		{
			if (stage_topic_diff(r, L, e, L->key, "log_end", err, errsz) < 0)
				return -1;
		}
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "log_start")) != NULL) {
		if (!cJSON_IsObject(f))
			return util_err(err, errsz, "log_start: not an object");
		cJSON_ArrayForEach(e, f)
		{
			if (stage_topic_diff(r, L, e, L->key, "log_start", err, errsz) < 0)
				return -1;
		}
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "stamps")) != NULL) {
		if (!cJSON_IsObject(f))
			return util_err(err, errsz, "stamps: not an object");
		cJSON_ArrayForEach(e, f)
		{
			if (stage_stamps(r, L, e, L->key, err, errsz) < 0)
				return -1;
		}
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "topics_gone")) != NULL) {
		if (!cJSON_IsArray(f))
			return util_err(err, errsz, "topics_gone: not an array");
		cJSON_ArrayForEach(e, f)
		{
			if (!cJSON_IsString(e))
				return util_err(err, errsz, "topics_gone: not names");
			util_grow(&L->topics, &L->ctopics, (size_t)L->ntopics + 1, sizeof *L->topics);
			L->topics[L->ntopics].id = intern_topic(e->valuestring);
			L->topics[L->ntopics].t = NULL;
			L->ntopics++;
		}
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "groups")) != NULL) {
		if (!cJSON_IsObject(f))
			return util_err(err, errsz, "groups: not an object");
		cJSON_ArrayForEach(e, f)
		{
			if (stage_group(r, L, e, L->key, err, errsz) < 0)
				return -1;
		}
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "groups_gone")) != NULL) {
		if (!cJSON_IsArray(f))
			return util_err(err, errsz, "groups_gone: not an array");
		cJSON_ArrayForEach(e, f)
		{
			if (!cJSON_IsString(e))
				return util_err(err, errsz, "groups_gone: not names");
			util_grow(&L->groups, &L->cgroups, (size_t)L->ngroups + 1, sizeof *L->groups);
			L->groups[L->ngroups].id = intern_group(e->valuestring);
			L->groups[L->ngroups].g = NULL;
			L->ngroups++;
		}
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(root, "obs")) != NULL) {
		if (!cJSON_IsArray(f))
			return util_err(err, errsz, "obs: not an array");
		cJSON_ArrayForEach(e, f)
		{
			kg_obs *ob = NULL;
			if (obs_codec_read(e, OBS_RECORDING, "", &ob, err, errsz) < 0)
				return -1;
			obsq_push(&L->obs, ob);
		}
	}
	return 0;
}

/* Make the staged line the current state. */
void
replay_stage_commit(kg_replay *r, rline *L)
{
	int i;
	size_t k;
	if (L->key) {
		for (k = 0; k < r->cgroups; k++) {
			rgroup_free(r->groups[k]);
			r->groups[k] = NULL;
		}
		for (k = 0; k < r->ctopics; k++) {
			rtopic_free(r->topics[k]);
			r->topics[k] = NULL;
		}
	}
	if (L->has_refresh) {
		r->refresh = L->refresh;
		r->data_time = L->data_time;
		r->interval = L->interval;
	}
	if (L->has_sources) {
		health_free(r->src, r->nsrc);
		r->src = L->src;
		r->nsrc = L->nsrc;
		L->src = NULL;
		L->nsrc = 0;
	}
	if (L->has_brokers) {
		brokers_free(r->brk, r->nbrk);
		r->brk = L->brk;
		r->nbrk = L->nbrk;
		L->brk = NULL;
		L->nbrk = 0;
	}
	for (i = 0; i < L->ntopics; i++) {
		int32_t id = L->topics[i].id;
		grow_index(&r->topics, &r->ctopics, id);
		rtopic_free(r->topics[id]);
		r->topics[id] = L->topics[i].t;
		L->topics[i].t = NULL;
	}
	for (i = 0; i < L->ngroups; i++) {
		int32_t id = L->groups[i].id;
		rgroup *g = L->groups[i].g, *old;
		grow_index(&r->groups, &r->cgroups, id);
		old = r->groups[id];
		if (old != NULL && g != NULL) {
			/* what the new group shares with the old one moves over */
			old->own &= g->own;
		}
		rgroup_free(old);
		if (g != NULL)
			g->own = OWN_ALL;
		r->groups[id] = g;
		L->groups[i].g = NULL;
	}
	obsq_clear(&r->pending);
	obsq_move(&r->pending, &L->obs);
	r->gap_now = L->gap_missing > 0;
	if (r->gap_now) {
		r->gaps++;
		r->gap_ticks += L->gap_missing;
		r->gap_missing = L->gap_missing;
		r->gap_from = L->gap_from;
		r->gap_to = L->t;
	}
	r->cur_t = L->t;
	r->cur_line = L->lineno;
	r->handed++;
	replay_stage_clear(L);
}

/* Free the state and the staged line. */
void
replay_stage_free(kg_replay *r)
{
	size_t i;
	if (r->has_next)
		replay_stage_clear(&r->next);
	for (i = 0; i < r->cgroups; i++)
		rgroup_free(r->groups[i]);
	free(r->groups);
	for (i = 0; i < r->ctopics; i++)
		rtopic_free(r->topics[i]);
	free(r->topics);
	health_free(r->src, r->nsrc);
	brokers_free(r->brk, r->nbrk);
	free(r->gstamp);
}

/* Add the state of the line handed over to b. */
void
replay_stage_contribute(kg_replay *r, kg_builder *b)
{
	size_t i;
	int k, j;
	for (k = 0; k < r->nsrc; k++)
		builder_source(b, &r->src[k]);
	if (r->refresh > 0)
		builder_refresh(b, r->refresh, r->data_time, r->interval);
	for (k = 0; k < r->nbrk; k++)
		builder_broker(b, r->brk[k].id, r->brk[k].host, r->brk[k].port);
	for (i = 0; i < r->ctopics; i++) {
		const rtopic *t = r->topics[i];
		if (t == NULL)
			continue;
		builder_topic(b, (int32_t)i, t->n);
		for (k = 0; k < t->n; k++) {
			kg_tp tp = { (int32_t)i, k };
			if (t->leader[k] >= 0 || t->log_end[k] >= 0)
				builder_partition(b, tp, t->leader[k], t->log_end[k]);
			if (t->log_start[k] >= 0)
				builder_partition_start(b, tp, t->log_start[k]);
			for (j = 0; j < KG_PART_STAMPS; j++) {
				if (t->stamp[k * KG_PART_STAMPS + j].offset >= 0)
					builder_partition_stamp(b, tp, &t->stamp[k * KG_PART_STAMPS + j]);
			}
		}
	}
	for (i = 0; i < r->cgroups; i++) {
		const rgroup *g = r->groups[i];
		kg_bgroup *bg;
		if (g == NULL)
			continue;
		bg = builder_group(b, (int32_t)i);
		bgroup_state(bg, g->state);
		bgroup_protocol(bg, g->protocol_type ? g->protocol_type : "", g->assignor ? g->assignor : "");
		bgroup_proto(bg, g->proto);
		bgroup_coordinator(bg, g->coordinator);
		bgroup_simple(bg, g->simple);
		bgroup_exact(bg, g->exact);
		if (g->error != NULL)
			bgroup_error(bg, g->error);
		bgroup_type(bg, g->type, g->type_name);
		bgroup_state_name(bg, g->state_name);
		if (g->note != NULL)
			bgroup_note(bg, g->note, g->members_unknown);
		bgroup_data_time(bg, g->data_time);
		bgroup_offs_time(bg, g->offs_time);
		bgroup_pace(bg, (int64_t)g->pace_ms * 1000);
		for (k = 0; k < g->nm; k++) {
			const rmember *m = &g->m[k];
			kg_bmember *bm = bgroup_member(bg, m->id);
			bmember_ids(bm, m->client_id, m->host, m->instance_id);
			bmember_assignment(bm, m->a, m->na);
			if (m->nt >= 0)
				bmember_target(bm, m->t, m->nt);
			if (m->flags != 0)
				bmember_flags(bm, m->flags);
		}
		for (j = 0; j < g->np; j++)
			bgroup_committed(bg, g->p[j].tp, g->p[j].committed);
	}
}

/*
 * replay.c: the replay source (see replay.h; the format is kgtop-record(5)).
 *
 * The source keeps the state the recording describes (sources' health,
 * brokers, topics, groups: exactly the builder's inputs) and one line
 * ahead, parsed and checked ("staged"): every value the line changes is
 * computed against the current state into new objects, so a damaged line
 * is found before anything of it is applied, and handing it over (commit)
 * cannot fail.  Each poll that is due hands over one staged line: its
 * objects replace the current ones, its observations wait for drain(),
 * its time becomes the collector's clock, and the next line is staged at
 * once, so the tick that shows the last good line already says why the
 * replay stops there (end of file, --at reached, damage at line N).
 *
 * Timing: as fast as possible (--once, --json) every poll is due; in real
 * time a line is due when the play position, anchored at a wall time and
 * a recorded time and advancing at the speed, reaches it.  Pausing, speed
 * changes and seeking forward re-anchor; a command that changes what the
 * header should say asks for a tick at the same recorded time (with no
 * new observations and the same state, the tracker derives nothing from
 * it).  Going back is the dashboard's history scrubbing: the tracker
 * cannot be fed the past again.  In real time an index made at open (the
 * recorded rebalance starts and the end time) answers next-rebalance and
 * prev-rebalance.  Groups and topics are held by interned id.
 */
#include "config.h"

#include "sources/replay.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "model/intern.h"
#include "report/record.h"
#include "util/util.h"

#define SPEED_MIN 0.25
#define SPEED_MAX 32.0

/* ------------------------------------------------------------- state */

typedef struct rmember {
	char *id;
	char *client_id;
	char *host;
	char *instance_id;
	uint32_t flags;
	kg_tp *a;
	int na;
} rmember;

typedef struct rpart {
	kg_tp tp;
	int64_t committed;
} rpart;

/* Fields a staged group owns (the others it shares with the group it replaces). */
#define OWN_PTYPE 0x1u
#define OWN_ASSIGNOR 0x2u
#define OWN_ERROR 0x4u
#define OWN_MEMBERS 0x8u
#define OWN_PARTS 0x10u
#define OWN_ALL 0x1fu

typedef struct rgroup {
	kg_group_state state;
	char *protocol_type;
	char *assignor;
	kg_proto proto;
	int32_t coordinator;
	bool simple;
	bool exact;
	char *error;
	rmember *m;
	int nm;
	rpart *p; /* sorted by tp_cmp */
	int np;
	unsigned own;
} rgroup;

typedef struct rtopic {
	int n;
	int32_t *leader;
	int64_t *log_end;
} rtopic;

typedef struct staged_group {
	int32_t id;
	rgroup *g; /* NULL: gone */
} staged_group;

typedef struct staged_topic {
	int32_t id;
	rtopic *t; /* NULL: gone */
} staged_topic;

/* One line, parsed and checked against the state before it. */
typedef struct rline {
	int64_t t;
	int64_t lineno;
	bool key;
	bool has_sources;
	kg_source_health *src;
	int nsrc;
	bool has_brokers;
	kg_broker *brk;
	int nbrk;
	staged_topic *topics;
	int ntopics;
	size_t ctopics;
	staged_group *groups;
	int ngroups;
	size_t cgroups;
	kg_obsq obs;
} rline;

typedef enum end_reason {
	END_NONE,
	END_EOF,
	END_AT,     /* the next line is after --at */
	END_DAMAGE,
} end_reason;

typedef struct rebalance_mark {
	int64_t t;
	char *group;
} rebalance_mark;

typedef struct kg_replay {
	kg_replay_config cfg;
	char *path;
	FILE *f;
	char *buf;
	size_t bufcap;
	int64_t lineno;      /* lines read so far */
	int version;
	int64_t start_us;    /* the recording's start (header, else first tick) */
	char *cluster;
	bool no_header;
	bool has_model;
	kg_tracker_config model;
	bool has_at;
	int64_t at_us;
	/* the state through the last line handed over */
	rgroup **groups;     /* by interned group id */
	size_t cgroups;
	rtopic **topics;     /* by interned topic id */
	size_t ctopics;
	kg_source_health *src;
	int nsrc;
	kg_broker *brk;
	int nbrk;
	kg_obsq pending;     /* observations of the last line, for drain() */
	int64_t cur_t;       /* the clock: time of the last line handed over */
	int64_t handed;      /* lines handed over */
	int64_t cur_line;
	int64_t last_n;      /* "n" of the last tick staged, -1 none (older recordings have none) */
	/* the next line */
	bool has_next;
	rline next;
	end_reason end;
	char damage[320];    /* "line N: why" */
	bool complete_sent;
	/* playing (real time) */
	bool started;
	bool paused;
	double speed;
	int64_t anchor_wall;
	int64_t anchor_rec;
	bool retick;
	int64_t *gstamp;     /* by group id: the line that last staged it (duplicates are damage) */
	size_t cgstamp;
	/* index (real time only) */
	rebalance_mark *marks;
	size_t nmarks, cmarks;
	int64_t end_us;      /* last tick time found by the index, 0 unknown */
} kg_replay;

/* ------------------------------------------------------------ helpers */

/* A static copy of an observation's source name (observations keep the pointer forever). */
static const char *
source_name_intern(const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char **names;
	static size_t n, cap;
	const char *res = NULL;
	size_t i;
	pthread_mutex_lock(&lock);
	for (i = 0; i < n && res == NULL; i++) {
		if (strcmp(names[i], name) == 0)
			res = names[i];
	}
	if (res == NULL) {
		util_grow(&names, &cap, n + 1, sizeof *names);
		names[n] = xstrdup(name);
		res = names[n++];
	}
	pthread_mutex_unlock(&lock);
	return res;
}

/* An integral JSON number as int64; false when v is not one. */
static bool
num_i64(const cJSON *v, int64_t *out)
{
	double d;
	if (!cJSON_IsNumber(v))
		return false;
	d = v->valuedouble;
	if (!(d >= -9.2e18 && d <= 9.2e18) || d != floor(d))
		return false;
	*out = (int64_t)d;
	return true;
}

/* An integral JSON number that fits an int32. */
static bool
num_i32(const cJSON *v, int32_t *out)
{
	int64_t x;
	if (!num_i64(v, &x) || x < INT32_MIN || x > INT32_MAX)
		return false;
	*out = (int32_t)x;
	return true;
}

/* A JSON string or null into *out (a new copy, NULL for null); false otherwise. */
static bool
str_or_null(const cJSON *v, char **out)
{
	if (cJSON_IsNull(v)) {
		*out = NULL;
		return true;
	}
	if (!cJSON_IsString(v))
		return false;
	*out = xstrdup(v->valuestring);
	return true;
}

/* Parse "eager" / "cooperative" / "unknown". */
static bool
proto_parse(const char *s, kg_proto *out)
{
	int i;
	for (i = 0; i < KG_PROTO_COUNT; i++) {
		if (strcmp(s, proto_name((kg_proto)i)) == 0) {
			*out = (kg_proto)i;
			return true;
		}
	}
	return false;
}

/* Parse a source status name. */
static bool
status_parse(const char *s, kg_src_status *out)
{
	int i;
	for (i = 0; i < KG_SRC_COUNT; i++) {
		if (strcmp(s, src_status_name((kg_src_status)i)) == 0) {
			*out = (kg_src_status)i;
			return true;
		}
	}
	return false;
}

/* Parse a limit source name. */
static bool
limit_parse(const char *s, kg_limit_src *out)
{
	int i;
	for (i = 0; i < KG_LIMIT_COUNT; i++) {
		if (strcmp(s, limit_src_name((kg_limit_src)i)) == 0) {
			*out = (kg_limit_src)i;
			return true;
		}
	}
	return false;
}

/* Local time of a time in a strftime format. */
static void
fmt_local(char *buf, size_t n, int64_t us, const char *fmt)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, n, fmt, &tm);
}

/* Local HH:MM:SS of a time. */
static void
fmt_hms(char *buf, size_t n, int64_t us)
{
	fmt_local(buf, n, us, "%H:%M:%S");
}

/* Local date and time of a time (--at messages: "17:47" may mean the next day). */
static void
fmt_when(char *buf, size_t n, int64_t us)
{
	fmt_local(buf, n, us, "%Y-%m-%d %H:%M:%S");
}

/* Free a member's strings and assignment. */
static void
rmember_clear(rmember *m)
{
	free(m->id);
	free(m->client_id);
	free(m->host);
	free(m->instance_id);
	free(m->a);
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
	free(t);
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
static void
rline_clear(rline *L)
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

/* Parse a partition set {"topic":[p,...]} into a sorted malloc'd array. */
static int
parse_set(const cJSON *o, kg_tp **out, int *n, const char *what, char *err, size_t errsz)
{
	const cJSON *t, *p;
	kg_tp *v = NULL;
	size_t cap = 0;
	int k = 0;
	*out = NULL;
	*n = 0;
	if (!cJSON_IsObject(o))
		return util_err(err, errsz, "%s: not an object of partitions", what);
	cJSON_ArrayForEach(t, o)
	{
		int32_t topic = intern_topic(t->string);
		if (!cJSON_IsArray(t)) {
			free(v);
			return util_err(err, errsz, "%s: topic \"%s\": not an array", what, t->string);
		}
		cJSON_ArrayForEach(p, t)
		{
			int32_t part;
			if (!num_i32(p, &part) || part < 0) {
				free(v);
				return util_err(err, errsz, "%s: topic \"%s\": bad partition", what, t->string);
			}
			util_grow(&v, &cap, (size_t)k + 1, sizeof *v);
			v[k].topic = topic;
			v[k].partition = part;
			k++;
		}
	}
	if (k > 0)
		k = tp_sort_unique(v, k);
	*out = v;
	*n = k;
	return 0;
}

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
			if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !num_i32(cJSON_GetArrayItem(e, 0), &part) ||
			    part < 0 || !num_i64(cJSON_GetArrayItem(e, 1), &c))
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
		if (!str_or_null(cJSON_GetObjectItemCaseSensitive(e, "client_id"), &m->client_id) ||
		    !str_or_null(cJSON_GetObjectItemCaseSensitive(e, "host"), &m->host)) {
			rmembers_free(v, k);
			return util_err(err, errsz, "group \"%s\": member %d: bad client_id or host", group, k);
		}
		x = cJSON_GetObjectItemCaseSensitive(e, "instance_id");
		if (x != NULL && !str_or_null(x, &m->instance_id)) {
			rmembers_free(v, k);
			return util_err(err, errsz, "group \"%s\": member %d: bad instance_id", group, k);
		}
		x = cJSON_GetObjectItemCaseSensitive(e, "flags");
		if (x != NULL) {
			int64_t fl;
			if (!num_i64(x, &fl) || fl < 0 || fl > UINT32_MAX) {
				rmembers_free(v, k);
				return util_err(err, errsz, "group \"%s\": member %d: bad flags", group, k);
			}
			m->flags = (uint32_t)fl;
		}
		snprintf(what, sizeof what, "group \"%s\": member %d: assignment", group, k);
		x = cJSON_GetObjectItemCaseSensitive(e, "assignment");
		if (x != NULL && parse_set(x, &m->a, &m->na, what, err, errsz) < 0) {
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
		if (!num_i64(d, &diff))
			return util_err(err, errsz, "group \"%s\": committed differences: not integers", group);
		g->p[k++].committed += diff;
	}
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
			if (!str_or_null(f, &s))
				return util_err(err, errsz, "group \"%s\": bad %s", name, k);
			if (g->own & bit)
				free(*dst);
			*dst = s;
			g->own |= bit;
		} else if (strcmp(k, "protocol") == 0) {
			if (!cJSON_IsString(f) || !proto_parse(f->valuestring, &g->proto))
				return util_err(err, errsz, "group \"%s\": bad protocol", name);
		} else if (strcmp(k, "coordinator") == 0) {
			if (!num_i32(f, &g->coordinator))
				return util_err(err, errsz, "group \"%s\": bad coordinator", name);
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
		}
		/* unknown keys are ignored: later minor additions stay readable */
	}
	if (committed != NULL && apply_committed(g, committed, name, err, errsz) < 0)
		return -1;
	return 0;
}

/* Stage one full topic {"leaders":[...],"log_end":[...]}. */
static int
stage_topic_full(rline *L, const cJSON *o, char *err, size_t errsz)
{
	const cJSON *ld = cJSON_GetObjectItemCaseSensitive(o, "leaders");
	const cJSON *le = cJSON_GetObjectItemCaseSensitive(o, "log_end");
	rtopic *t = xcalloc(1, sizeof *t);
	int n = cJSON_IsArray(ld) ? cJSON_GetArraySize(ld) : -1, i;
	util_grow(&L->topics, &L->ctopics, (size_t)L->ntopics + 1, sizeof *L->topics);
	L->topics[L->ntopics].id = intern_topic(o->string);
	L->topics[L->ntopics].t = t;
	L->ntopics++;
	if (n < 0 || !cJSON_IsArray(le) || cJSON_GetArraySize(le) != n)
		return util_err(err, errsz, "topic \"%s\": leaders and log_end must be arrays of one length", o->string);
	t->n = n;
	t->leader = xcalloc((size_t)(n ? n : 1), sizeof *t->leader);
	t->log_end = xcalloc((size_t)(n ? n : 1), sizeof *t->log_end);
	for (i = 0; i < n; i++) {
		if (!num_i32(cJSON_GetArrayItem(ld, i), &t->leader[i]) || !num_i64(cJSON_GetArrayItem(le, i), &t->log_end[i]))
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

/* Stage log-end differences for one topic. */
static int
stage_topic_diff(kg_replay *r, rline *L, const cJSON *o, bool key, char *err, size_t errsz)
{
	int32_t id = intern_topic(o->string);
	const rtopic *old = line_topic(r, L, id, key);
	rtopic *t;
	int i;
	if (old == NULL || !cJSON_IsArray(o) || cJSON_GetArraySize(o) != old->n)
		return util_err(err, errsz, "log_end differences for topic \"%s\": %d for %d partitions", o->string,
				cJSON_IsArray(o) ? cJSON_GetArraySize(o) : -1, old ? old->n : 0);
	t = xcalloc(1, sizeof *t);
	t->n = old->n;
	t->leader = xmalloc((size_t)(t->n ? t->n : 1) * sizeof *t->leader);
	t->log_end = xmalloc((size_t)(t->n ? t->n : 1) * sizeof *t->log_end);
	if (t->n > 0) {
		memcpy(t->leader, old->leader, (size_t)t->n * sizeof *t->leader);
		memcpy(t->log_end, old->log_end, (size_t)t->n * sizeof *t->log_end);
	}
	util_grow(&L->topics, &L->ctopics, (size_t)L->ntopics + 1, sizeof *L->topics);
	L->topics[L->ntopics].id = id;
	L->topics[L->ntopics].t = t;
	L->ntopics++;
	for (i = 0; i < t->n; i++) {
		int64_t d;
		if (!num_i64(cJSON_GetArrayItem(o, i), &d))
			return util_err(err, errsz, "log_end differences for topic \"%s\": not integers", o->string);
		t->log_end[i] += d;
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
		if (!cJSON_IsString(name) || !cJSON_IsString(st))
			return util_err(err, errsz, "sources: an entry without name or status");
		h->name = xstrdup(name->valuestring);
		h->role = source_recorded_role(h->name);
		L->nsrc++;
		if (!status_parse(st->valuestring, &h->status) ||
		    !num_i64(cJSON_GetObjectItemCaseSensitive(e, "since"), &h->since_us) ||
		    !num_i64(cJSON_GetObjectItemCaseSensitive(e, "last_ok"), &h->last_ok_us) ||
		    !str_or_null(cJSON_GetObjectItemCaseSensitive(e, "message"), &msg))
			return util_err(err, errsz, "sources: \"%s\": bad status, since, last_ok or message", h->name);
		h->message = msg;
		h->insecure = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "insecure"));
	}
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
		if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3 || !num_i32(cJSON_GetArrayItem(e, 0), &b->id) ||
		    !cJSON_IsString(host) || !num_i32(cJSON_GetArrayItem(e, 2), &port))
			return util_err(err, errsz, "brokers: expected [id,\"host\",port]");
		b->host = xstrdup(host->valuestring);
		b->port = port;
		L->nbrk++;
	}
	return 0;
}

/* Parse one observation. */
static int
parse_obs(const cJSON *o, kg_obs **out, char *err, size_t errsz)
{
	const cJSON *f;
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind");
	const cJSON *group = cJSON_GetObjectItemCaseSensitive(o, "group");
	const cJSON *source = cJSON_GetObjectItemCaseSensitive(o, "source");
	int64_t time;
	int k = cJSON_IsString(kind) ? obs_kind_parse(kind->valuestring) : -1;
	kg_obs *ob;
	if (k < 0)
		return util_err(err, errsz, "obs: unknown kind");
	if (!num_i64(cJSON_GetObjectItemCaseSensitive(o, "time"), &time))
		return util_err(err, errsz, "obs %s: no time", kind->valuestring);
	if (group != NULL && !cJSON_IsNull(group) && !cJSON_IsString(group))
		return util_err(err, errsz, "obs %s: bad group", kind->valuestring);
	ob = obs_new((kg_obs_kind)k, time, cJSON_IsString(group) ? intern_group(group->valuestring) : -1,
		     source_name_intern(cJSON_IsString(source) ? source->valuestring : ""));
	cJSON_ArrayForEach(f, o)
	{
		const char *key = f->string;
		char **sp = NULL;
		int64_t *ip = NULL;
		int32_t *i32 = NULL;
		if (strcmp(key, "member_id") == 0)
			sp = &ob->member_id;
		else if (strcmp(key, "client_id") == 0)
			sp = &ob->client_id;
		else if (strcmp(key, "instance_id") == 0)
			sp = &ob->instance_id;
		else if (strcmp(key, "host") == 0)
			sp = &ob->host;
		else if (strcmp(key, "text") == 0)
			sp = &ob->text;
		else if (strcmp(key, "generation") == 0)
			i32 = &ob->generation;
		else if (strcmp(key, "nmembers") == 0)
			i32 = &ob->nmembers;
		else if (strcmp(key, "session_timeout_ms") == 0)
			ip = &ob->session_timeout_ms;
		else if (strcmp(key, "max_poll_ms") == 0)
			ip = &ob->max_poll_ms;
		else if (strcmp(key, "hb_age_us") == 0)
			ip = &ob->hb_age_us;
		else if (strcmp(key, "poll_gap_us") == 0)
			ip = &ob->poll_gap_us;
		else if (strcmp(key, "poll_gap_max_us") == 0)
			ip = &ob->poll_gap_max_us;
		else if (strcmp(key, "rebalance_latency_avg_us") == 0)
			ip = &ob->rebalance_latency_avg_us;
		else if (strcmp(key, "rebalance_latency_max_us") == 0)
			ip = &ob->rebalance_latency_max_us;
		else if (strcmp(key, "rebalance_total") == 0)
			ip = &ob->rebalance_total;
		else if (strcmp(key, "failed_rebalances") == 0)
			ip = &ob->failed_rebalances;
		else if (strcmp(key, "assigned_count") == 0)
			ip = &ob->assigned_count;
		else if (strcmp(key, "value") == 0)
			ip = &ob->value;
		if (sp != NULL) {
			if (!cJSON_IsString(f))
				goto bad;
			free(*sp);
			*sp = xstrdup(f->valuestring);
		} else if (ip != NULL) {
			if (!num_i64(f, ip))
				goto bad;
		} else if (i32 != NULL) {
			if (!num_i32(f, i32))
				goto bad;
		} else if (strcmp(key, "reason") == 0) {
			if (!cJSON_IsString(f))
				goto bad;
			ob->reason = reason_parse(f->valuestring);
		} else if (strcmp(key, "protocol") == 0) {
			if (!cJSON_IsString(f) || !proto_parse(f->valuestring, &ob->proto))
				goto bad;
		} else if (strcmp(key, "hb_rate") == 0) {
			if (!cJSON_IsNumber(f))
				goto bad;
			ob->hb_rate = f->valuedouble;
		} else if (strcmp(key, "partitions") == 0) {
			char what[64];
			snprintf(what, sizeof what, "obs %s: partitions", kind->valuestring);
			if (parse_set(f, &ob->parts, &ob->nparts, what, err, errsz) < 0) {
				obs_free(ob);
				return -1;
			}
		}
		continue;
	bad:
		obs_free(ob);
		return util_err(err, errsz, "obs %s: bad %s", kind->valuestring, key);
	}
	*out = ob;
	return 0;
}

/* Stage a parsed tick line against the current state. */
static int
stage_line(kg_replay *r, rline *L, const cJSON *root, char *err, size_t errsz)
{
	const cJSON *f, *e;
	L->key = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "key"));
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
			if (stage_topic_diff(r, L, e, L->key, err, errsz) < 0)
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
			if (parse_obs(e, &ob, err, errsz) < 0)
				return -1;
			obsq_push(&L->obs, ob);
		}
	}
	return 0;
}

/* Make the staged line the current state. */
static void
commit_line(kg_replay *r, rline *L)
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
	r->cur_t = L->t;
	r->cur_line = L->lineno;
	r->handed++;
	rline_clear(L);
}

/* ------------------------------------------------------------ reading */

/* Read the next line into r->buf; returns its length, -1 at end of file. */
static ssize_t
read_line(kg_replay *r, bool *has_newline)
{
	ssize_t n = getline(&r->buf, &r->bufcap, r->f);
	if (n < 0)
		return -1;
	r->lineno++;
	*has_newline = n > 0 && r->buf[n - 1] == '\n';
	return n;
}

/* Parse r->buf as one JSON object; NULL with err (and the column) when it is not one. */
static cJSON *
parse_json_line(kg_replay *r, size_t n, bool has_newline, char *err, size_t errsz)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(r->buf, n, &end, 0);
	if (root != NULL) {
		while (end < r->buf + n && isspace((unsigned char)*end))
			end++;
		if (end == r->buf + n && cJSON_IsObject(root))
			return root;
		cJSON_Delete(root);
		if (end != r->buf + n) {
			util_err(err, errsz, "garbage after the JSON object at column %d", (int)(end - r->buf) + 1);
			return NULL;
		}
		util_err(err, errsz, "not a JSON object");
		return NULL;
	}
	if (!has_newline)
		util_err(err, errsz, "cut short (the recording ends in the middle of this line)");
	else
		util_err(err, errsz, "not JSON (at column %d)", end != NULL ? (int)(end - r->buf) + 1 : 1);
	return NULL;
}

/* Read a header's fields (version, start, cluster, model); -1 with err for a newer version. */
static int
read_header(kg_replay *r, const cJSON *root, bool first, char *err, size_t errsz)
{
	int64_t v, start;
	const cJSON *f;
	if (!num_i64(cJSON_GetObjectItemCaseSensitive(root, "kgtop_record"), &v) || v < 1)
		return util_err(err, errsz, "a header without a format version");
	if (v > KG_RECORD_VERSION) {
		const cJSON *who = cJSON_GetObjectItemCaseSensitive(root, "kgtop");
		return util_err(err, errsz,
				"recording format %lld (written by kgtop %s) is newer than this kgtop %s reads (format %d): "
				"replay it with a newer kgtop",
				(long long)v, cJSON_IsString(who) ? who->valuestring : "?", PACKAGE_VERSION, KG_RECORD_VERSION);
	}
	if (!first)
		return 0;
	r->version = (int)v;
	if (num_i64(cJSON_GetObjectItemCaseSensitive(root, "start_us"), &start))
		r->start_us = start;
	f = cJSON_GetObjectItemCaseSensitive(root, "cluster");
	free(r->cluster);
	r->cluster = xstrdup(cJSON_IsString(f) ? f->valuestring : "");
	f = cJSON_GetObjectItemCaseSensitive(root, "model");
	if (cJSON_IsObject(f)) {
		kg_tracker_config *c = &r->model;
		const cJSON *x;
		int64_t n;
		tracker_config_defaults(c);
		r->has_model = true;
#define I64(key, field)                                                         \
	if (num_i64(cJSON_GetObjectItemCaseSensitive(f, key), &n) && n > 0) \
		c->field = n;
		I64("session_timeout_us", session_timeout_us)
		I64("max_poll_us", max_poll_us)
		I64("storm_window_us", storm_window_us)
		I64("orphan_grace_us", orphan_grace_us)
		I64("window_us", window_us)
#undef I64
		if (num_i64(cJSON_GetObjectItemCaseSensitive(f, "storm_episodes"), &n) && n > 0 && n < INT32_MAX)
			c->storm_episodes = (int)n;
		x = cJSON_GetObjectItemCaseSensitive(f, "storm_ratio");
		if (cJSON_IsNumber(x) && x->valuedouble > 0)
			c->storm_ratio = x->valuedouble;
		x = cJSON_GetObjectItemCaseSensitive(f, "session_from");
		if (cJSON_IsString(x))
			limit_parse(x->valuestring, &c->session_src);
		x = cJSON_GetObjectItemCaseSensitive(f, "max_poll_from");
		if (cJSON_IsString(x))
			limit_parse(x->valuestring, &c->max_poll_src);
	}
	return 0;
}

/* Record where the replay stops and why (once), and log it for --once / --json. */
static void
set_damage(kg_replay *r, int64_t line, const char *why)
{
	r->end = END_DAMAGE;
	snprintf(r->damage, sizeof r->damage, "line %lld: %s", (long long)line, why);
	log_msg(KG_LOG_WARN, "replay: %s: stopped at %s", r->path, r->damage);
}

/*
 * Stage the next tick line into r->next (has_next), or set r->end: end of
 * file, a line after --at, or damage.  Headers of concatenated files are
 * read and skipped.
 */
static void
stage_next(kg_replay *r)
{
	char err[256];
	for (;;) {
		bool nl;
		ssize_t n = read_line(r, &nl);
		cJSON *root;
		const cJSON *t;
		int64_t tv, nv;
		if (n < 0) {
			r->end = END_EOF;
			return;
		}
		if (n == 0 || (n == 1 && nl))
			continue; /* an empty line */
		root = parse_json_line(r, (size_t)n, nl, err, sizeof err);
		if (root == NULL) {
			set_damage(r, r->lineno, err);
			return;
		}
		if (cJSON_GetObjectItemCaseSensitive(root, "kgtop_record") != NULL) {
			/* a header: recordings concatenated (cat FILE.1 FILE); a rotation continues "n" */
			int rc = read_header(r, root, false, err, sizeof err);
			cJSON_Delete(root);
			if (rc < 0) {
				set_damage(r, r->lineno, err);
				return;
			}
			continue;
		}
		t = cJSON_GetObjectItemCaseSensitive(root, "t");
		if (!num_i64(t, &tv)) {
			cJSON_Delete(root);
			set_damage(r, r->lineno, "no tick time (\"t\")");
			return;
		}
		if (r->handed > 0 && tv < r->cur_t) {
			char d[32];
			cJSON_Delete(root);
			util_fmt_duration(d, sizeof d, r->cur_t - tv);
			snprintf(err, sizeof err, "time goes back %s", d);
			set_damage(r, r->lineno, err);
			return;
		}
		if (num_i64(cJSON_GetObjectItemCaseSensitive(root, "n"), &nv)) {
			/* ticks are numbered from the first of the recording: a gap is a lost line */
			if (r->last_n >= 0 && nv > 0 && nv - 1 != r->last_n) {
				cJSON_Delete(root);
				if (nv > r->last_n + 1)
					snprintf(err, sizeof err, "tick %lld follows tick %lld: %lld line%s missing",
						 (long long)nv, (long long)r->last_n, (long long)(nv - r->last_n - 1),
						 nv - r->last_n - 1 == 1 ? " is" : "s are");
				else
					snprintf(err, sizeof err, "tick %lld follows tick %lld: out of order",
						 (long long)nv, (long long)r->last_n);
				set_damage(r, r->lineno, err);
				return;
			}
			r->last_n = nv;
		}
		if (r->has_at && tv > r->at_us && r->handed > 0) {
			cJSON_Delete(root);
			r->end = END_AT;
			return;
		}
		memset(&r->next, 0, sizeof r->next);
		r->next.t = tv;
		r->next.lineno = r->lineno;
		if (stage_line(r, &r->next, root, err, sizeof err) < 0) {
			cJSON_Delete(root);
			rline_clear(&r->next);
			set_damage(r, r->lineno, err);
			return;
		}
		cJSON_Delete(root);
		r->has_next = true;
		return;
	}
}

/* Index the recorded rebalance starts and the end time (real time only): a quick text scan. */
static void
index_file(kg_replay *r)
{
	static const char needle[] = "\"kind\":\"rebalance_start\",\"group\":\"";
	FILE *f = fopen(r->path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	if (f == NULL)
		return;
	while ((n = getline(&buf, &cap, f)) > 0) {
		char *end;
		long long t;
		const char *p, *q;
		if (buf[n - 1] != '\n')
			break;
		if (strncmp(buf, "{\"t\":", 5) != 0) {
			if (strncmp(buf, "{\"kgtop_record\":", 16) == 0)
				continue;
			break;
		}
		t = strtoll(buf + 5, &end, 10);
		if (end == buf + 5)
			break;
		r->end_us = t;
		for (p = buf; (p = strstr(p, needle)) != NULL; p = q) {
			p += sizeof needle - 1;
			for (q = p; *q && *q != '"'; q++) {
				if (*q == '\\' && q[1])
					q++;
			}
			util_grow(&r->marks, &r->cmarks, r->nmarks + 1, sizeof *r->marks);
			r->marks[r->nmarks].t = t;
			r->marks[r->nmarks].group = xstrndup(p, (size_t)(q - p));
			r->nmarks++;
		}
	}
	free(buf);
	fclose(f);
}

/* ------------------------------------------------------------ playing */

/* The play position (recorded time) at wall time now. */
static int64_t
position(const kg_replay *r, int64_t now)
{
	if (r->paused || !r->started)
		return r->anchor_rec;
	return r->anchor_rec + (int64_t)((double)(now - r->anchor_wall) * r->speed);
}

/* Re-anchor the position at now (before a speed change or a pause). */
static void
reanchor(kg_replay *r, int64_t now)
{
	r->anchor_rec = position(r, now);
	r->anchor_wall = now;
}

/* Hand the staged line over and stage the one after it. */
static void
hand_over(kg_replay *r)
{
	commit_line(r, &r->next);
	r->has_next = false;
	stage_next(r);
}

/* Source op: hand over the next line when it is due. */
static int
replay_poll(kg_source *s, int64_t now_us)
{
	kg_replay *r = s->impl;
	int64_t wall = util_now_us();
	int flags = 0;
	(void)now_us; /* the collector's clock is ours: wall time decides what is due */
	if (!r->started) {
		r->started = true;
		r->anchor_wall = wall;
		if (r->has_next && r->anchor_rec < r->next.t)
			r->anchor_rec = r->next.t;
	}
	if (r->has_next && (r->cfg.as_fast || r->next.t <= position(r, wall))) {
		hand_over(r);
		flags |= KG_SRC_NEWS;
		r->retick = false;
	} else if (r->retick) {
		flags |= KG_SRC_NEWS;
		r->retick = false;
	}
	if (!r->has_next && !r->complete_sent) {
		flags |= KG_SRC_COMPLETE;
		r->complete_sent = true;
		if (r->end == END_EOF && r->has_at && r->at_us > r->cur_t + 1000000) {
			char a[32], e[32];
			fmt_when(a, sizeof a, r->at_us);
			fmt_when(e, sizeof e, r->cur_t);
			log_msg(KG_LOG_WARN, "replay: --at %s is after the recording ends (%s): this is the end", a, e);
		}
	}
	return flags;
}

/* Source op: the observations of the line handed over. */
static void
replay_drain(kg_source *s, kg_obsq *q)
{
	kg_replay *r = s->impl;
	obsq_move(q, &r->pending);
}

/* The replay's own health message. */
static void
health_message(kg_replay *r, char *buf, size_t n)
{
	char now[16], end[16], sp[16];
	fmt_hms(now, sizeof now, r->cur_t);
	snprintf(sp, sizeof sp, "%gx", r->speed);
	if (r->end == END_DAMAGE)
		snprintf(buf, n, "stopped at %s (the last good tick is %s)", r->damage, now);
	else if (!r->has_next && r->end == END_AT)
		snprintf(buf, n, "at %s (--at), line %lld", now, (long long)r->cur_line);
	else if (!r->has_next)
		snprintf(buf, n, "ended at %s, line %lld", now, (long long)r->cur_line);
	else if (r->cfg.as_fast)
		snprintf(buf, n, "as fast as possible, at %s", now);
	else {
		int64_t pos = position(r, util_now_us());
		int len;
		if (r->end_us > 0)
			fmt_hms(end, sizeof end, r->end_us);
		if (r->has_next && pos - r->next.t > (int64_t)(r->speed * 1e6) + 1000000) {
			char to[16];
			fmt_hms(to, sizeof to, pos);
			len = snprintf(buf, n, "seeking to %s", to);
		} else {
			len = snprintf(buf, n, "%s %s at %s", r->paused ? "paused," : "playing", sp, now);
		}
		if (r->end_us > 0 && len > 0 && (size_t)len < n)
			snprintf(buf + len, n - (size_t)len, " (ends %s)", end);
	}
	if (r->no_header) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, "; the file has no header line");
	}
}

/* Source op: the state of the line handed over, and the replay's health. */
static void
replay_contribute(kg_source *s, kg_builder *b)
{
	kg_replay *r = s->impl;
	kg_source_health h;
	char msg[512];
	size_t i;
	int k, j;
	for (k = 0; k < r->nsrc; k++)
		builder_source(b, &r->src[k]);
	memset(&h, 0, sizeof h);
	h.name = "replay";
	h.status = r->end == END_DAMAGE && !r->has_next ? KG_SRC_ERROR : KG_SRC_OK;
	h.since_us = r->start_us;
	h.last_ok_us = r->cur_t;
	health_message(r, msg, sizeof msg);
	h.message = msg;
	builder_source(b, &h);
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
		for (k = 0; k < g->nm; k++) {
			const rmember *m = &g->m[k];
			kg_bmember *bm = bgroup_member(bg, m->id);
			bmember_ids(bm, m->client_id, m->host, m->instance_id);
			bmember_assignment(bm, m->a, m->na);
			if (m->flags != 0)
				bmember_flags(bm, m->flags);
		}
		for (j = 0; j < g->np; j++)
			bgroup_committed(bg, g->p[j].tp, g->p[j].committed);
	}
}

/* Source op: when the next line is due (wall time), 0 when nothing is. */
static int64_t
replay_next_poll(kg_source *s)
{
	kg_replay *r = s->impl;
	if (r->retick || !r->started)
		return 1;
	if (!r->has_next)
		return 0;
	if (r->cfg.as_fast || r->next.t <= r->anchor_rec)
		return 1;
	if (r->paused)
		return 0;
	return r->anchor_wall + (int64_t)ceil((double)(r->next.t - r->anchor_rec) / r->speed);
}

/* Source op: the collector's clock is the recorded time of the line handed over. */
static int64_t
replay_clock(kg_source *s)
{
	kg_replay *r = s->impl;
	return r->handed > 0 ? r->cur_t : r->has_next ? r->next.t : r->start_us;
}

/* Set the speed (re-anchoring first); a message in err. */
static int
set_speed(kg_replay *r, double v, char *err, size_t errsz)
{
	if (!(v >= SPEED_MIN && v <= SPEED_MAX))
		return util_err(err, errsz, "replay: speed %g: expected %g to %g", v, SPEED_MIN, SPEED_MAX);
	reanchor(r, util_now_us());
	r->speed = v;
	r->retick = true;
	snprintf(err, errsz, "replay: %gx", v);
	return 0;
}

/* Jump the play position forward to the recorded time to. */
static void
seek_to(kg_replay *r, int64_t to)
{
	int64_t now = util_now_us();
	reanchor(r, now);
	if (to > r->anchor_rec)
		r->anchor_rec = to;
	r->retick = true;
}

/* Source op: play, pause, toggle, speed X, faster, slower, seek +/-S, next/prev-rebalance. */
static int
replay_command(kg_source *s, const char *cmd, char *err, size_t errsz)
{
	kg_replay *r = s->impl;
	int64_t now = util_now_us(), pos = position(r, now);
	char t[16], when[16];
	size_t i;
	if (strcmp(cmd, "refresh") == 0)
		return 0;
	if (r->cfg.as_fast)
		return util_err(err, errsz, "replay: %s: not while replaying as fast as possible", cmd);
	fmt_hms(t, sizeof t, r->cur_t);
	if (strcmp(cmd, "toggle") == 0)
		cmd = r->paused ? "play" : "pause";
	if (strcmp(cmd, "pause") == 0) {
		if (!r->paused) {
			reanchor(r, now);
			/* stay on the tick shown: resuming continues from it */
			if (r->anchor_rec > r->cur_t && r->handed > 0)
				r->anchor_rec = r->cur_t;
			r->paused = true;
			r->retick = true;
		}
		snprintf(err, errsz, "replay: paused at %s", t);
		return 0;
	}
	if (strcmp(cmd, "play") == 0) {
		if (r->paused) {
			r->anchor_wall = now;
			r->paused = false;
			r->retick = true;
		}
		if (!r->has_next)
			snprintf(err, errsz, "replay: the recording ended at %s", t);
		else
			snprintf(err, errsz, "replay: playing %gx from %s", r->speed, t);
		return 0;
	}
	if (strncmp(cmd, "speed ", 6) == 0) {
		char *end;
		double v = strtod(cmd + 6, &end);
		if (end == cmd + 6 || (*end != '\0' && strcmp(end, "x") != 0))
			return util_err(err, errsz, "replay: '%s': expected speed X with X from %g to %g", cmd, SPEED_MIN,
					SPEED_MAX);
		return set_speed(r, v, err, errsz);
	}
	if (strcmp(cmd, "faster") == 0 || strcmp(cmd, "slower") == 0) {
		double v = cmd[0] == 'f' ? r->speed * 2 : r->speed / 2;
		v = v < SPEED_MIN ? SPEED_MIN : v > SPEED_MAX ? SPEED_MAX : v;
		return set_speed(r, v, err, errsz);
	}
	if (strncmp(cmd, "seek ", 5) == 0) {
		const char *a = cmd + 5;
		int sign = 1;
		int64_t d;
		if (*a == '+' || *a == '-')
			sign = *a++ == '-' ? -1 : 1;
		d = util_parse_duration_us(a);
		if (d < 0)
			return util_err(err, errsz, "replay: '%s': expected seek +S or seek -S (seconds)", cmd);
		if (sign < 0)
			return util_err(err, errsz,
					"replay plays forward only: pause (p) and scrub back with left/right "
					"through the history the dashboard keeps");
		seek_to(r, (pos > r->cur_t ? pos : r->cur_t) + d);
		fmt_hms(when, sizeof when, r->anchor_rec);
		snprintf(err, errsz, "replay: to %s", when);
		return 0;
	}
	if (strcmp(cmd, "next-rebalance") == 0) {
		for (i = 0; i < r->nmarks; i++) {
			if (r->marks[i].t > r->cur_t)
				break;
		}
		if (i == r->nmarks)
			return util_err(err, errsz, "replay: no rebalance starts after %s in this recording", t);
		seek_to(r, r->marks[i].t);
		fmt_hms(when, sizeof when, r->marks[i].t);
		snprintf(err, errsz, "replay: rebalance of %s at %s", r->marks[i].group, when);
		return 0;
	}
	if (strcmp(cmd, "prev-rebalance") == 0) {
		char ago[32];
		for (i = r->nmarks; i > 0; i--) {
			if (r->marks[i - 1].t <= r->cur_t)
				break;
		}
		if (i == 0)
			return util_err(err, errsz, "replay: no rebalance started before %s", t);
		fmt_hms(when, sizeof when, r->marks[i - 1].t);
		util_fmt_duration(ago, sizeof ago, r->cur_t - r->marks[i - 1].t);
		return util_err(err, errsz,
				"replay: the previous rebalance (%s) began at %s, %s ago: pause (p) and scrub back "
				"with left/right",
				r->marks[i - 1].group, when, ago);
	}
	return util_err(err, errsz, "replay: unknown command '%s'", cmd);
}

/* Free everything. */
static void
replay_free(kg_replay *r)
{
	size_t i;
	if (r == NULL)
		return;
	if (r->f != NULL)
		fclose(r->f);
	if (r->has_next)
		rline_clear(&r->next);
	for (i = 0; i < r->cgroups; i++)
		rgroup_free(r->groups[i]);
	free(r->groups);
	for (i = 0; i < r->ctopics; i++)
		rtopic_free(r->topics[i]);
	free(r->topics);
	health_free(r->src, r->nsrc);
	brokers_free(r->brk, r->nbrk);
	obsq_clear(&r->pending);
	free(r->pending.v);
	for (i = 0; i < r->nmarks; i++)
		free(r->marks[i].group);
	free(r->marks);
	free(r->gstamp);
	free(r->buf);
	free(r->cluster);
	free(r->path);
	free((char *)r->cfg.at);
	free(r);
}

/* Source op: close. */
static void
replay_close(kg_source *s)
{
	replay_free(s->impl);
}

static const kg_source_ops replay_ops = {
	.kind = "replay",
	.role = KG_ROLE_REPLAY,
	.poll = replay_poll,
	.drain = replay_drain,
	.contribute = replay_contribute,
	.next_poll = replay_next_poll,
	.command = replay_command,
	.clock = replay_clock,
	.close = replay_close,
};

/* ------------------------------------------------------------ --at */

/* Parse fractional seconds ".123" at *p into microseconds, advancing *p. */
static int64_t
parse_frac(const char **p)
{
	int64_t us = 0, scale = 100000;
	if (**p != '.' && **p != ',')
		return 0;
	(*p)++;
	while (isdigit((unsigned char)**p)) {
		us += (**p - '0') * scale;
		scale /= 10;
		(*p)++;
	}
	return us;
}

/* Parse --at: HH:MM[:SS], an ISO time (Z, +HH:MM or local), or +SECONDS. */
int
replay_parse_at(const char *at, int64_t start_us, int64_t *out_us, char *err, size_t errsz)
{
	int y, mo, d, h, mi, s = 0, n = 0;
	const char *p;
	if (at == NULL || *at == '\0')
		return util_err(err, errsz, "--at: empty time");
	if (at[0] == '+') {
		int64_t us = util_parse_duration_us(at + 1);
		if (us < 0)
			return util_err(err, errsz, "--at '%s': expected +SECONDS (or +5m, +1h) from the recording's start",
					at);
		*out_us = start_us + us;
		return 0;
	}
	if (sscanf(at, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 && (at[n] == 'T' || at[n] == ' ')) {
		int64_t secs, frac;
		int m2 = 0;
		p = at + n + 1;
		if (sscanf(p, "%2d:%2d%n", &h, &mi, &m2) != 2)
			goto bad;
		p += m2;
		if (*p == ':') {
			if (sscanf(p + 1, "%2d%n", &s, &m2) != 1)
				goto bad;
			p += 1 + m2;
		}
		frac = parse_frac(&p);
		if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
			goto bad;
		if (*p == 'Z' || *p == 'z' || *p == '+' || *p == '-') {
			int oh = 0, om = 0, sign = 1;
			secs = util_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
			if (*p == '+' || *p == '-') {
				sign = *p == '-' ? -1 : 1;
				if (sscanf(p + 1, "%2d:%2d", &oh, &om) != 2 && sscanf(p + 1, "%2d%2d", &oh, &om) != 2)
					goto bad;
				secs -= sign * (oh * 3600 + om * 60);
			} else if (p[1] != '\0') {
				goto bad;
			}
		} else if (*p == '\0') {
			secs = util_local_time(y, mo, d, h, mi, s);
			if (secs < 0)
				goto bad;
		} else {
			goto bad;
		}
		*out_us = secs * 1000000 + frac;
		return 0;
	}
	n = 0;
	if (sscanf(at, "%2d:%2d%n", &h, &mi, &n) == 2) {
		time_t st = (time_t)(start_us / 1000000);
		struct tm tm;
		int64_t secs, frac;
		p = at + n;
		if (*p == ':') {
			int m2 = 0;
			if (sscanf(p + 1, "%2d%n", &s, &m2) != 1)
				goto bad;
			p += 1 + m2;
		}
		frac = parse_frac(&p);
		if (*p != '\0' || h > 23 || mi > 59 || s > 60)
			goto bad;
		localtime_r(&st, &tm);
		secs = util_local_time(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, h, mi, s);
		if (secs < 0)
			goto bad;
		if (secs * 1000000 + frac < start_us - 1000000) /* past midnight: the next day */
			secs = util_local_time(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday + 1, h, mi, s);
		*out_us = secs * 1000000 + frac;
		return 0;
	}
bad:
	return util_err(err, errsz,
			"--at '%s': expected HH:MM:SS (local time, the recording's first day), "
			"an ISO time like 2026-11-29T03:12:00[Z], or +SECONDS",
			at);
}

/* ------------------------------------------------------------ opening */

/* Open a recording. */
int
replay_source_new(const kg_replay_config *cfg, kg_source **out, char *err, size_t errsz)
{
	kg_replay *r = xcalloc(1, sizeof *r);
	char why[320];
	bool nl;
	ssize_t n;
	cJSON *root;
	r->cfg = *cfg;
	r->last_n = -1;
	r->cfg.at = xstrdup(cfg->at);
	r->path = xstrdup(cfg->path);
	r->speed = cfg->speed >= SPEED_MIN && cfg->speed <= SPEED_MAX ? cfg->speed : 1.0;
	r->f = util_fopen_regular(cfg->path);
	if (r->f == NULL) {
		util_err(err, errsz, "--replay %s: %s", cfg->path, strerror(errno));
		replay_free(r);
		return -1;
	}
	n = read_line(r, &nl);
	if (n <= 0) {
		util_err(err, errsz, "--replay %s: the file is empty", cfg->path);
		replay_free(r);
		return -1;
	}
	root = parse_json_line(r, (size_t)n, nl, why, sizeof why);
	if (root == NULL) {
		util_err(err, errsz, "--replay %s: not a kgtop recording (line 1: %s)", cfg->path, why);
		replay_free(r);
		return -1;
	}
	if (cJSON_GetObjectItemCaseSensitive(root, "kgtop_record") != NULL) {
		int rc = read_header(r, root, true, why, sizeof why);
		cJSON_Delete(root);
		if (rc < 0) {
			util_err(err, errsz, "--replay %s: %s", cfg->path, why);
			replay_free(r);
			return -1;
		}
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "key")) &&
		   cJSON_GetObjectItemCaseSensitive(root, "t") != NULL) {
		/* the header is lost but the file starts with a keyframe: replay it */
		cJSON_Delete(root);
		r->no_header = true;
		r->version = KG_RECORD_VERSION;
		r->cluster = xasprintf("recording %s", cfg->path);
		log_msg(KG_LOG_WARN, "replay: %s: line 1 is not a header; replaying from its keyframe", cfg->path);
		rewind(r->f);
		r->lineno = 0;
	} else {
		bool json_output = cJSON_GetObjectItemCaseSensitive(root, "version") != NULL &&
				   cJSON_GetObjectItemCaseSensitive(root, "groups") != NULL;
		cJSON_Delete(root);
		util_err(err, errsz, "--replay %s: not a kgtop recording (line 1 has no header)%s", cfg->path,
			 json_output ? ": this looks like kgtop --json output; record with --record FILE" : "");
		replay_free(r);
		return -1;
	}
	stage_next(r);
	if (!r->has_next) {
		if (r->end == END_DAMAGE)
			util_err(err, errsz, "--replay %s: nothing to replay: %s", cfg->path, r->damage);
		else
			util_err(err, errsz, "--replay %s: the recording holds no tick", cfg->path);
		replay_free(r);
		return -1;
	}
	if (r->start_us == 0)
		r->start_us = r->next.t;
	r->anchor_rec = r->next.t;
	if (cfg->at != NULL) {
		char a[64];
		if (replay_parse_at(cfg->at, r->start_us, &r->at_us, err, errsz) < 0) {
			replay_free(r);
			return -2;
		}
		if (r->at_us < r->next.t) {
			char w[32];
			fmt_when(a, sizeof a, r->next.t);
			fmt_when(w, sizeof w, r->at_us);
			util_err(err, errsz, "--at %s (%s) is before the recording starts (%s)", cfg->at, w, a);
			replay_free(r);
			return -2;
		}
		r->has_at = true;
	}
	if (!cfg->as_fast)
		index_file(r);
	*out = source_new(&replay_ops, "replay", r);
	return 0;
}

/* The recording's start. */
int64_t
replay_start_us(kg_source *s)
{
	kg_replay *r = s->impl;
	return r->start_us;
}

/* The recording's cluster label. */
const char *
replay_cluster(kg_source *s)
{
	kg_replay *r = s->impl;
	return r->cluster;
}

/* Where a damaged recording stopped, NULL when it did not. */
const char *
replay_damage(kg_source *s)
{
	kg_replay *r = s->impl;
	return r->end == END_DAMAGE && !r->has_next ? r->damage : NULL;
}

/* The model's settings recorded in the header. */
bool
replay_model(kg_source *s, kg_tracker_config *cfg)
{
	kg_replay *r = s->impl;
	if (!r->has_model)
		return false;
	*cfg = r->model;
	return true;
}

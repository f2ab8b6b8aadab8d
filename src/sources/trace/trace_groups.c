/*
 * trace_groups.c: the groups a callback trace has seen (see trace_groups.h).
 *
 * Groups and members live in arrays of pointers indexed by hash maps (a
 * group by its interned name, a member by its member id), so removal is a
 * swap with the last entry.  Each member keeps the time of its last
 * observation and each group the latest time of any of its observations;
 * the sweep that forgets silent members runs when trace time has moved on
 * by a sixteenth of the window, so its cost is spread over the lines.
 */
#include "config.h"

#include "sources/trace/trace_groups.h"

#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "util/hmap.h"
#include "util/util.h"

typedef struct tv_member {
	char *member_id, *client_id, *instance_id, *host;
	kg_tp *asg;
	int nasg;
	bool present;
	int64_t seen_us; /* its latest observation */
	size_t at;       /* its index in the group's array */
} tv_member;

typedef struct tv_group {
	int32_t id;
	kg_proto proto;
	kg_group_state state; /* from a coordinator log's lines */
	uint8_t gtype;        /* kg_group_type a line said (a share or streams group's lines are the coordinator's) */
	bool from_log;
	tv_member **m;
	size_t nm, cm;
	hmap by_id;      /* member id -> member */
	int64_t seen_us; /* the latest observation of any member */
	size_t at;       /* its index in the view's array */
} tv_group;

struct kg_tgview {
	tv_group **g;
	size_t ng, cg;
	hmap by_name;      /* interned group name -> group */
	int64_t window_us; /* 0: never forget */
	int64_t swept_us;  /* trace time of the last sweep */
	int64_t latest_us; /* the latest observation of any group */
	uint64_t forgotten;
	bool from_log; /* a coordinator log's: every group is from_log */
};

/* An empty view. */
kg_tgview *
tgview_new(int64_t window_us, bool from_log)
{
	kg_tgview *v = xcalloc(1, sizeof(kg_tgview));
	v->window_us = window_us > 0 ? window_us : 0;
	v->from_log = from_log;
	return v;
}

/* Free a member. */
static void
tv_member_free(tv_member *m)
{
	free(m->member_id);
	free(m->client_id);
	free(m->instance_id);
	free(m->host);
	free(m->asg);
	free(m);
}

/* Free a group and its members. */
static void
tv_group_free(tv_group *g)
{
	size_t k;
	for (k = 0; k < g->nm; k++)
		tv_member_free(g->m[k]);
	free(g->m);
	hmap_free(&g->by_id);
	free(g);
}

/* Free it. */
void
tgview_free(kg_tgview *v)
{
	size_t i;
	if (v == NULL)
		return;
	for (i = 0; i < v->ng; i++)
		tv_group_free(v->g[i]);
	free(v->g);
	hmap_free(&v->by_name);
	free(v);
}

/* The group, created on demand. */
static tv_group *
tv_group_get(kg_tgview *v, int32_t id)
{
	const char *name = intern_group_name(id); /* interned names live as long as the process */
	tv_group *g = hmap_get(&v->by_name, name);
	if (g != NULL)
		return g;
	g = xcalloc(1, sizeof *g);
	g->id = id;
	/*
	 * a log's first line of a KIP-848 group is a member's "joins the
	 * consumer group", before any bump: that member is no callback's
	 * (taken for one, kgtop skipped its steps for ever)
	 */
	g->from_log = v->from_log;
	g->at = v->ng;
	util_grow(&v->g, &v->cg, v->ng + 1, sizeof *v->g);
	v->g[v->ng++] = g;
	hmap_put(&v->by_name, name, g);
	return g;
}

/* The member, created on demand. */
static tv_member *
tv_member_get(tv_group *g, const kg_obs *o)
{
	tv_member *m;
	const char *id = o->member_id ? o->member_id : o->client_id;
	m = hmap_get(&g->by_id, id);
	if (m != NULL)
		return m;
	m = xcalloc(1, sizeof *m);
	m->member_id = xstrdup(id);
	m->at = g->nm;
	util_grow(&g->m, &g->cm, g->nm + 1, sizeof *g->m);
	g->m[g->nm++] = m;
	hmap_put(&g->by_id, m->member_id, m);
	return m;
}

/* Forget member k of g (the last one takes its place). */
static void
tv_member_drop(kg_tgview *v, tv_group *g, size_t k)
{
	tv_member *m = g->m[k];
	hmap_del(&g->by_id, m->member_id);
	g->m[k] = g->m[--g->nm];
	g->m[k]->at = k;
	tv_member_free(m);
	v->forgotten++;
}

/* Order of members by the time they were last seen, oldest first. */
static int
seen_cmp(const void *a, const void *b)
{
	const tv_member *x = *(tv_member *const *)a, *y = *(tv_member *const *)b;
	return x->seen_us < y->seen_us ? -1 : x->seen_us > y->seen_us;
}

/* Over the cap: forget the tenth of the members heard from longest ago. */
static void
tv_group_shrink(kg_tgview *v, tv_group *g)
{
	tv_member **by_age = xmalloc(g->nm * sizeof *by_age);
	size_t n = g->nm, k, drop = g->nm / 10 + 1;
	memcpy(by_age, g->m, n * sizeof *by_age);
	qsort(by_age, n, sizeof *by_age, seen_cmp);
	for (k = 0; k < drop && k < n; k++)
		tv_member_drop(v, g, by_age[k]->at);
	free(by_age);
}

/* Forget members silent for the window while their group went on; drop groups left empty. */
static void
tv_sweep(kg_tgview *v)
{
	size_t i = 0, k;
	v->swept_us = v->latest_us;
	while (i < v->ng) {
		tv_group *g = v->g[i];
		k = 0;
		while (k < g->nm) {
			if (g->m[k]->seen_us < g->seen_us - v->window_us)
				tv_member_drop(v, g, k);
			else
				k++;
		}
		if (g->nm == 0 && !g->from_log) {
			hmap_del(&v->by_name, intern_group_name(g->id));
			v->g[i] = v->g[--v->ng];
			v->g[i]->at = i;
			tv_group_free(g);
			continue;
		}
		i++;
	}
}

/* Replace a string unless s is NULL. */
static void
keep(char **dst, const char *s)
{
	if (s == NULL)
		return;
	free(*dst);
	*dst = xstrdup(s);
}

/* A coordinator log's line: the state of its group; true when o was one. */
static bool
tv_log_state(kg_tgview *v, const kg_obs *o)
{
	tv_group *g;
	bool known;
	if (o->kind != KG_OBS_PREPARING && o->kind != KG_OBS_STABILIZED && o->kind != KG_OBS_SYNCED &&
	    o->kind != KG_OBS_EPOCH && o->kind != KG_OBS_STATIC_REPLACED)
		return false;
	known = hmap_get(&v->by_name, intern_group_name(o->group)) != NULL;
	g = tv_group_get(v, o->group);
	/* a static member replaced in a group seen first so: the group runs, a member came back (Stable) */
	if (o->kind == KG_OBS_STATIC_REPLACED) {
		if (!known) {
			g->from_log = true;
			g->state = KG_STATE_STABLE;
		}
		return true;
	}
	g->from_log = true;
	g->state = o->kind == KG_OBS_PREPARING ? KG_STATE_PREPARING_REBALANCE : KG_STATE_STABLE;
	if (o->kind == KG_OBS_EPOCH && g->gtype != KG_GTYPE_SHARE && g->gtype != KG_GTYPE_STREAMS && o->gtype != KG_GTYPE_SHARE &&
	    o->gtype != KG_GTYPE_STREAMS)
		g->proto = KG_PROTO_CONSUMER; /* KIP-848's consumer protocol */
	return true;
}

/* Apply a callback, a join or a leave to the member's assignment and presence. */
static void
tv_member_apply(tv_group *g, tv_member *m, const kg_obs *o)
{
	kg_tp *rest;
	switch (o->kind) {
	case KG_OBS_ASSIGNED:
		m->present = true;
		if (o->proto == KG_PROTO_EAGER || g->proto == KG_PROTO_EAGER) {
			free(m->asg);
			m->asg = tp_dup(o->parts, o->nparts);
			m->nasg = m->asg ? o->nparts : 0;
		} else if (o->nparts > 0) {
			m->asg = xreallocarray(m->asg, (size_t)(m->nasg + o->nparts), sizeof *m->asg);
			memcpy(m->asg + m->nasg, o->parts, (size_t)o->nparts * sizeof *o->parts);
			m->nasg = tp_sort_unique(m->asg, m->nasg + o->nparts);
		}
		break;
	case KG_OBS_REVOKED:
	case KG_OBS_LOST:
		m->present = true;
		if (o->nparts == 0 && o->kind == KG_OBS_LOST) {
			m->nasg = 0;
			break;
		}
		rest = xmalloc(((size_t)m->nasg + 1) * sizeof *rest);
		m->nasg = tp_diff(m->asg, m->nasg, o->parts, o->nparts, rest);
		free(m->asg);
		m->asg = rest;
		break;
	case KG_OBS_JOINED:
		m->present = true;
		break;
	case KG_OBS_LEFT:
		/* a static member that closed is away, still in the group */
		if (!(o->instance_id != NULL && o->reason == KG_REASON_NONE)) {
			m->present = false;
			m->nasg = 0;
		}
		break;
	default:
		break;
	}
}

/* Fold one observation. */
void
tgview_update(kg_tgview *v, const kg_obs *o)
{
	tv_group *g;
	tv_member *m;
	/* trace time, never ahead of the clock: a line dated in the future must not age everyone */
	int64_t t = KG_MIN(o->time_us, util_now_us());
	if (o->group >= 0 && o->gtype != KG_GTYPE_UNKNOWN) {
		g = tv_group_get(v, o->group);
		g->gtype = o->gtype;
		/* a share or streams group is known from its coordinator's lines alone (librdkafka lists none) */
		if (o->gtype == KG_GTYPE_SHARE || o->gtype == KG_GTYPE_STREAMS) {
			if (!g->from_log)
				g->state = KG_STATE_STABLE;
			g->from_log = true;
		}
	}
	if (o->group < 0 || tv_log_state(v, o))
		return;
	if (o->member_id == NULL && o->client_id == NULL)
		return;
	if (o->kind != KG_OBS_REVOKED && o->kind != KG_OBS_ASSIGNED && o->kind != KG_OBS_LOST &&
	    o->kind != KG_OBS_JOINED && o->kind != KG_OBS_LEFT)
		return;
	g = tv_group_get(v, o->group);
	if (g->from_log)
		return; /* members named by a log carry no assignments */
	m = tv_member_get(g, o);
	keep(&m->client_id, o->client_id);
	keep(&m->instance_id, o->instance_id);
	keep(&m->host, o->host);
	if (o->proto != KG_PROTO_UNKNOWN)
		g->proto = o->proto;
	tv_member_apply(g, m, o);
	m->seen_us = KG_MAX(m->seen_us, t);
	g->seen_us = KG_MAX(g->seen_us, t);
	v->latest_us = KG_MAX(v->latest_us, t);
	if (g->nm > TGVIEW_MAX_MEMBERS)
		tv_group_shrink(v, g);
	if (v->window_us > 0 && v->latest_us - v->swept_us >= v->window_us / 16)
		tv_sweep(v);
}

/* Describe one group of the view. */
static void
tv_group_contribute(const tv_group *g, kg_builder *b)
{
	kg_bgroup *bg = builder_group(b, g->id);
	size_t k;
	int q;
	bgroup_type(bg, (kg_group_type)g->gtype, NULL);
	if (g->gtype == KG_GTYPE_SHARE || g->gtype == KG_GTYPE_STREAMS) {
		bgroup_protocol(bg, gtype_key((kg_group_type)g->gtype), NULL);
		bgroup_note(bg, "librdkafka lists and describes no share or streams group (KIP-932, KIP-1071): known from the "
				"coordinator's log",
			    true);
	} else {
		bgroup_proto(bg, g->proto);
		bgroup_protocol(bg, "consumer", NULL);
	}
	if (g->from_log) {
		/* known from its coordinator's log only: a state, no members */
		bgroup_traced(bg, true);
		bgroup_state(bg, g->state);
		return;
	}
	bgroup_exact(bg, true);
	for (k = 0; k < g->nm; k++) {
		const tv_member *m = g->m[k];
		kg_bmember *bm;
		if (!m->present)
			continue;
		bm = bgroup_member(bg, m->member_id);
		bmember_ids(bm, m->client_id, m->host, m->instance_id);
		bmember_assignment(bm, m->asg, m->nasg);
		bmember_flags(bm, KG_MEMBER_EXACT);
		for (q = 0; q < m->nasg; q++) {
			bgroup_topic(bg, m->asg[q].topic);
			builder_topic(b, m->asg[q].topic, m->asg[q].partition + 1);
		}
	}
}

/* Describe the groups no earlier source described. */
void
tgview_contribute(const kg_tgview *v, kg_builder *b)
{
	size_t i;
	for (i = 0; i < v->ng; i++) {
		if (!builder_has_group(b, v->g[i]->id))
			tv_group_contribute(v->g[i], b);
	}
}

/* Members forgotten so far. */
uint64_t
tgview_forgotten(const kg_tgview *v)
{
	return v->forgotten;
}

/*
 * trace_groups.c: the groups a callback trace has seen (see trace_groups.h).
 */
#include "config.h"

#include "sources/trace_groups.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

typedef struct tv_member {
	char *member_id, *client_id, *instance_id, *host;
	kg_tp *asg;
	int nasg;
	bool present;
} tv_member;

typedef struct tv_group {
	int32_t id;
	kg_proto proto;
	kg_group_state state; /* from a coordinator log's lines */
	bool from_log;
	tv_member *m;
	size_t nm, cm;
} tv_group;

struct kg_tgview {
	tv_group *g;
	size_t ng, cg;
};

/* An empty view. */
kg_tgview *
tgview_new(void)
{
	return xcalloc(1, sizeof(kg_tgview));
}

/* Free it. */
void
tgview_free(kg_tgview *v)
{
	size_t i, k;
	if (v == NULL)
		return;
	for (i = 0; i < v->ng; i++) {
		for (k = 0; k < v->g[i].nm; k++) {
			tv_member *m = &v->g[i].m[k];
			free(m->member_id);
			free(m->client_id);
			free(m->instance_id);
			free(m->host);
			free(m->asg);
		}
		free(v->g[i].m);
	}
	free(v->g);
	free(v);
}

/* The group, created on demand. */
static tv_group *
tv_group_get(kg_tgview *v, int32_t id)
{
	size_t i;
	for (i = 0; i < v->ng; i++) {
		if (v->g[i].id == id)
			return &v->g[i];
	}
	util_grow(&v->g, &v->cg, v->ng + 1, sizeof *v->g);
	memset(&v->g[v->ng], 0, sizeof v->g[v->ng]);
	v->g[v->ng].id = id;
	return &v->g[v->ng++];
}

/* The member, created on demand. */
static tv_member *
tv_member_get(tv_group *g, const kg_obs *o)
{
	size_t i;
	tv_member *m;
	const char *id = o->member_id ? o->member_id : o->client_id;
	for (i = 0; i < g->nm; i++) {
		if (strcmp(g->m[i].member_id, id) == 0)
			return &g->m[i];
	}
	util_grow(&g->m, &g->cm, g->nm + 1, sizeof *g->m);
	m = &g->m[g->nm++];
	memset(m, 0, sizeof *m);
	m->member_id = xstrdup(id);
	return m;
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

/* Fold one observation. */
void
tgview_update(kg_tgview *v, const kg_obs *o)
{
	tv_group *g;
	tv_member *m;
	kg_tp *rest;
	int n;
	if (o->group < 0)
		return;
	/* a coordinator log says what state a group is in */
	if (o->kind == KG_OBS_PREPARING || o->kind == KG_OBS_STABILIZED || o->kind == KG_OBS_SYNCED ||
	    o->kind == KG_OBS_EPOCH || o->kind == KG_OBS_STATIC_REPLACED) {
		bool known = false;
		size_t i;
		for (i = 0; i < v->ng && !known; i++)
			known = v->g[i].id == o->group;
		g = tv_group_get(v, o->group);
		/* a static member replaced in a group seen first so: the group runs, a member came back (Stable) */
		if (o->kind == KG_OBS_STATIC_REPLACED) {
			if (!known) {
				g->from_log = true;
				g->state = KG_STATE_STABLE;
			}
			return;
		}
		g->from_log = true;
		g->state = o->kind == KG_OBS_PREPARING ? KG_STATE_PREPARING_REBALANCE : KG_STATE_STABLE;
		if (o->kind == KG_OBS_EPOCH)
			g->proto = KG_PROTO_COOPERATIVE; /* KIP-848 groups are incremental */
		return;
	}
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
		n = tp_diff(m->asg, m->nasg, o->parts, o->nparts, rest);
		free(m->asg);
		m->asg = rest;
		m->nasg = n;
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

/* Describe the groups no earlier source described. */
void
tgview_contribute(const kg_tgview *v, kg_builder *b)
{
	size_t i, k;
	int q;
	for (i = 0; i < v->ng; i++) {
		const tv_group *g = &v->g[i];
		kg_bgroup *bg;
		if (builder_has_group(b, g->id))
			continue;
		bg = builder_group(b, g->id);
		bgroup_proto(bg, g->proto);
		bgroup_protocol(bg, "consumer", NULL);
		if (g->from_log) {
			/* known from its coordinator's log only: a state, no members */
			bgroup_traced(bg, true);
			bgroup_state(bg, g->state);
			continue;
		}
		bgroup_exact(bg, true);
		for (k = 0; k < g->nm; k++) {
			const tv_member *m = &g->m[k];
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
}

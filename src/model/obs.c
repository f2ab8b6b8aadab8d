/*
 * obs.c: allocation, copying and ordering of observations.
 */
#include "config.h"

#include "model/obs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A new observation with unknowns. */
kg_obs *
obs_new(kg_obs_kind kind, int64_t time_us, int32_t group, const char *source)
{
	kg_obs *o = xcalloc(1, sizeof *o);
	o->kind = kind;
	o->time_us = time_us;
	o->group = group;
	o->source = source ? source : "";
	o->generation = -1;
	o->prev_epoch = -1;
	o->nmembers = -1;
	o->session_timeout_ms = o->max_poll_ms = -1;
	o->hb_age_us = o->poll_gap_us = o->poll_gap_max_us = -1;
	o->rebalance_latency_avg_us = o->rebalance_latency_max_us = -1;
	o->rebalance_total = o->failed_rebalances = o->assigned_count = -1;
	o->value = -1;
	o->hb_rate = -1;
	o->member_state = -1;
	return o;
}

/* Free an observation. */
void
obs_free(kg_obs *o)
{
	if (o == NULL)
		return;
	free(o->member_id);
	free(o->client_id);
	free(o->instance_id);
	free(o->host);
	free(o->text);
	free(o->parts);
	free(o->pending);
	for (int i = 0; i < o->nmlist; i++) {
		kg_obs_member *m = &o->mlist[i];
		free(m->member_id);
		free(m->client_id);
		free(m->instance_id);
		free(m->host);
		free(m->parts);
	}
	free(o->mlist);
	free(o);
}

/* Deep copy. */
kg_obs *
obs_dup(const kg_obs *o)
{
	kg_obs *c = xmalloc(sizeof *c);
	*c = *o;
	c->member_id = xstrdup(o->member_id);
	c->client_id = xstrdup(o->client_id);
	c->instance_id = xstrdup(o->instance_id);
	c->host = xstrdup(o->host);
	c->text = xstrdup(o->text);
	c->parts = tp_dup(o->parts, o->nparts);
	c->pending = tp_dup(o->pending, o->npending);
	c->mlist = NULL;
	c->nmlist = 0;
	for (int i = 0; i < o->nmlist; i++) {
		const kg_obs_member *m = &o->mlist[i];
		kg_obs_member *x = obs_add_member(c, m->member_id, m->client_id, m->instance_id, m->host, m->parts, m->nparts);
		x->session_timeout_ms = m->session_timeout_ms;
		x->rebalance_timeout_ms = m->rebalance_timeout_ms;
	}
	return c;
}

/* Replace *dst with a copy of s unless s is NULL. */
static void
set_str(char **dst, const char *s)
{
	if (s == NULL)
		return;
	free(*dst);
	*dst = xstrdup(s);
}

/* Set member identity. */
void
obs_member(kg_obs *o, const char *member_id, const char *client_id, const char *instance_id,
	   const char *host)
{
	set_str(&o->member_id, member_id);
	set_str(&o->client_id, client_id);
	set_str(&o->instance_id, instance_id);
	set_str(&o->host, host);
}

/* Set the text. */
void
obs_text(kg_obs *o, const char *text)
{
	set_str(&o->text, text);
}

/* Set the partitions. */
void
obs_parts(kg_obs *o, const kg_tp *v, int n)
{
	free(o->parts);
	o->parts = tp_dup(v, n);
	o->nparts = o->parts ? tp_sort_unique(o->parts, n) : 0;
}

/* Set the partitions pending revocation. */
void
obs_pending(kg_obs *o, const kg_tp *v, int n)
{
	free(o->pending);
	o->pending = tp_dup(v, n);
	o->npending = o->pending ? tp_sort_unique(o->pending, n) : 0;
}

/* Append a member to a generation's list. */
kg_obs_member *
obs_add_member(kg_obs *o, const char *member_id, const char *client_id, const char *instance_id, const char *host,
	       const kg_tp *parts, int nparts)
{
	kg_obs_member *m;
	o->mlist = xreallocarray(o->mlist, (size_t)o->nmlist + 1, sizeof *o->mlist);
	m = &o->mlist[o->nmlist++];
	memset(m, 0, sizeof *m);
	m->member_id = xstrdup(member_id);
	m->client_id = xstrdup(client_id);
	m->instance_id = xstrdup(instance_id);
	m->host = xstrdup(host);
	m->session_timeout_ms = m->rebalance_timeout_ms = -1;
	m->parts = tp_dup(parts, nparts);
	m->nparts = m->parts ? tp_sort_unique(m->parts, nparts) : 0;
	return m;
}

static const char *const kind_names[KG_OBS_COUNT] = {
	[KG_OBS_REVOKED] = "revoked",
	[KG_OBS_ASSIGNED] = "assigned",
	[KG_OBS_LOST] = "lost",
	[KG_OBS_JOIN_SENT] = "join_sent",
	[KG_OBS_JOINED] = "joined",
	[KG_OBS_LEFT] = "left",
	[KG_OBS_HEARTBEAT] = "heartbeat",
	[KG_OBS_POLL] = "poll",
	[KG_OBS_PREPARING] = "preparing",
	[KG_OBS_STABILIZED] = "stabilized",
	[KG_OBS_SYNCED] = "synced",
	[KG_OBS_STATIC_REPLACED] = "static_replaced",
	[KG_OBS_EPOCH] = "epoch",
	[KG_OBS_METRICS] = "metrics",
	[KG_OBS_CLIENT_STATE] = "client_state",
	[KG_OBS_SILENT] = "silent",
	[KG_OBS_REPROCESSED] = "reprocessed",
	[KG_OBS_COMMIT] = "commit",
	[KG_OBS_GENERATION] = "generation",
	[KG_OBS_GROUP_EPOCH] = "group_epoch",
	[KG_OBS_TARGET_EPOCH] = "target_epoch",
	[KG_OBS_TARGET_MEMBER] = "target_member",
	[KG_OBS_MEMBER_EPOCH] = "member_epoch",
	[KG_OBS_MEMBER_META] = "member_meta",
	[KG_OBS_LOG_FROM] = "log_from",
};

/* Name of a kind. */
const char *
obs_kind_name(kg_obs_kind k)
{
	return (unsigned)k < KG_OBS_COUNT ? kind_names[k] : "?";
}

/* Parse a kind name. */
int
obs_kind_parse(const char *s)
{
	return util_name_index(kind_names, KG_OBS_COUNT, s);
}

/* Append. */
void
obsq_push(kg_obsq *q, kg_obs *o)
{
	util_grow(&q->v, &q->cap, q->n + 1, sizeof *q->v);
	q->v[q->n++] = o;
}

typedef struct obs_key {
	kg_obs *o;
	size_t idx;
} obs_key;

/* Order by time, then by arrival. */
static int
obs_key_cmp(const void *a, const void *b)
{
	const obs_key *x = a, *y = b;
	if (x->o->time_us != y->o->time_us)
		return x->o->time_us < y->o->time_us ? -1 : 1;
	return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

/* Sort by time, keeping arrival order for equal times. */
void
obsq_sort(kg_obsq *q)
{
	size_t i;
	obs_key *k;
	bool sorted = true;
	for (i = 1; i < q->n && sorted; i++)
		sorted = q->v[i - 1]->time_us <= q->v[i]->time_us;
	if (sorted)
		return;
	k = xmalloc(q->n * sizeof *k);
	for (i = 0; i < q->n; i++) {
		k[i].o = q->v[i];
		k[i].idx = i;
	}
	qsort(k, q->n, sizeof *k, obs_key_cmp);
	for (i = 0; i < q->n; i++)
		q->v[i] = k[i].o;
	free(k);
}

/* Free all and empty. */
void
obsq_clear(kg_obsq *q)
{
	size_t i;
	for (i = 0; i < q->n; i++)
		obs_free(q->v[i]);
	q->n = 0;
}

/* Move src into dst. */
void
obsq_move(kg_obsq *dst, kg_obsq *src)
{
	size_t i;
	for (i = 0; i < src->n; i++)
		obsq_push(dst, src->v[i]);
	src->n = 0;
}

/*
 * tracker_base.c: what every part of the tracker stands on (tracker_int.h):
 * the group record, emitting events, owned sets and strings, and the
 * questions every part asks of the record: what a member holds, whether a
 * lane is its consumer's, when a polled fact can have happened at the
 * earliest.  It calls no part.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/tracker_int.h"

/* The group record of id, NULL when none (the fold makes them). */
tgroup *
tk_group_find(kg_tracker *t, int32_t id)
{
	return id >= 0 && (size_t)id < t->cg ? t->g[id] : NULL;
}

/* Replace an owned set. */
void
tk_set_tp(kg_tp **dst, int *n, const kg_tp *v, int nv)
{
	if (nv > 0 && *dst != NULL && tp_equal(*dst, *n, v, nv))
		return; /* the same set: at rest every member's, every refresh */
	free(*dst);
	*dst = tp_dup(v, nv);
	*n = *dst ? nv : 0;
}

/* Replace an owned string unless s is NULL or empty. */
void
tk_set_str(char **dst, const char *s)
{
	if (s == NULL || *s == '\0')
		return;
	if (*dst != NULL && strcmp(*dst, s) == 0)
		return;
	free(*dst);
	*dst = xstrdup(s);
}

/* Add v to an owned set. */
void
tk_tp_union(kg_tp **set, int *n, const kg_tp *v, int nv)
{
	if (nv <= 0)
		return;
	*set = xreallocarray(*set, (size_t)(*n + nv), sizeof **set);
	memcpy(*set + *n, v, (size_t)nv * sizeof *v);
	*n = tp_sort_unique(*set, *n + nv);
}

/* Record and publish an event: sequence, history, the caller's list. */
void
tk_emit(kg_tracker *t, tgroup *g, kg_event *e)
{
	e->seq = ++t->seq;
	if (g != NULL)
		e->single_topic = g->single_topic;
	history_add_event(t->h, e);
	if (t->out != NULL)
		evlist_push(t->out, e);
	else
		event_unref(e);
}

/* A member event with identity filled. */
kg_event *
tk_member_event(kg_event_kind kind, int64_t time, tgroup *g, const tmember *m)
{
	kg_event *e = event_new(kind, time, g->id);
	event_member(e, m->member_id, m->client_id, m->instance_id, m->lane);
	return e;
}


/* The client id inside a Java-style member id "<client-id>-<uuid>" (copied into buf). */
const char *
tk_client_of(const char *member_id, char *buf, size_t n)
{
	size_t len = strlen(member_id), i;
	util_strlcpy(buf, member_id, n);
	if (len > 37 && len - 37 < n && member_id[len - 37] == '-') {
		const char *u = member_id + len - 36;
		bool uuid = true;
		for (i = 0; i < 36 && uuid; i++) {
			bool dash = i == 8 || i == 13 || i == 18 || i == 23;
			uuid = dash ? u[i] == '-' : ((u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f'));
		}
		if (uuid)
			buf[len - 37] = '\0';
	}
	return buf;
}

/* Number of present members. */
int
tk_present_count(const tgroup *g)
{
	size_t i;
	int n = 0;
	for (i = 0; i < g->nm; i++)
		n += g->m[i]->present;
	return n;
}

/* The assignment a member is known to hold for episode bookkeeping. */
const kg_tp *
tk_held(const tmember *m, int *n)
{
	if (m->exact) {
		*n = m->nasg;
		return m->asg;
	}
	*n = m->nstable;
	return m->stable;
}

/* True when lane l is the same consumer as m: its instance id, else its client id and host. */
bool
tk_lane_is(const kg_lane *l, const tmember *m)
{
	if (m->instance_id != NULL || l->instance_id != NULL)
		return m->instance_id != NULL && l->instance_id != NULL && strcmp(m->instance_id, l->instance_id) == 0;
	return strcmp(l->client_id, m->client_id ? m->client_id : "") == 0 && strcmp(l->host, m->host ? m->host : "") == 0;
}

/* True when lane belongs to the same consumer as m (instance id, or client id and host). */
bool
tk_same_identity(kg_tracker *t, tgroup *g, int lane, const tmember *m)
{
	const kg_lane *l = lane >= 0 ? history_lane(t->h, g->id, lane) : NULL;
	return l != NULL && tk_lane_is(l, m);
}

/* True when a present member other than m holds m's lane and identity (a static member back, a revived id). */
bool
tk_identity_back(kg_tracker *t, tgroup *g, const tmember *m)
{
	size_t k;
	for (k = 0; k < g->nm; k++) {
		const tmember *x = g->m[k];
		if (x != m && x->present && x->lane == m->lane && tk_same_identity(t, g, x->lane, m))
			return true;
	}
	return false;
}

/*
 * The latest a stop of this evidence at time is proven by: a callback's or
 * a log line's time; nothing for what polling shows (0): a generation it
 * did not see may have given the partitions to a member that consumed
 * them in between, so a stretch without a consumer is never proven from a
 * description.
 */
int64_t
tk_hi(int64_t time, kg_evidence evid)
{
	return evid == KG_EVID_EXACT ? time : 0;
}

/* The earliest a fact of this evidence at time can have happened: polled, the description before. */
int64_t
tk_lo(const tgroup *g, int64_t time, kg_evidence evid)
{
	if (evid == KG_EVID_EXACT)
		return time;
	if (g->ep != NULL && time == g->ep->start_us)
		return g->ep->start_lo_us;
	return g->poll_lo > 0 && g->poll_lo <= time ? g->poll_lo : 0;
}


/*
 * scenario.c: helpers to drive the tracker in unit tests.
 */
#include "config.h"

#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "model/intern.h"
#include "util/util.h"

/* A scenario (cfg NULL: the tracker at the options' defaults). */
sc *
sc_new(int partitions, const kg_tracker_config *cfg)
{
	sc *s = xcalloc(1, sizeof *s);
	kg_tracker_config def = options_model_defaults();
	s->t = tracker_new(cfg != NULL ? cfg : &def);
	s->partitions = partitions;
	s->t0_us = 1700000000LL * 1000000;
	return s;
}

/* Free. */
void
sc_free(sc *s)
{
	int i;
	evlist_clear(&s->ev);
	free(s->ev.v);
	obsq_clear(&s->q);
	free(s->q.v);
	snapshot_unref(s->last);
	for (i = 0; i < s->ng; i++) {
		free(s->g[i].id);
		free(s->g[i].assignor);
		free(s->g[i].members);
	}
	tracker_free(s->t);
	free(s);
}

/* ms to us. */
int64_t
sc_us(sc *s, int64_t ms)
{
	return s->t0_us + ms * 1000;
}

/* Find a declared group. */
static sc_group *
find(sc *s, const char *id)
{
	int i;
	for (i = 0; i < s->ng; i++) {
		if (strcmp(s->g[i].id, id) == 0)
			return &s->g[i];
	}
	return NULL;
}

/* Declare or update a group. */
void
sc_group_set(sc *s, const char *id, kg_group_state st, const char *assignor, const char *members)
{
	sc_group *g = find(s, id);
	if (g == NULL) {
		g = &s->g[s->ng++];
		memset(g, 0, sizeof *g);
		g->id = xstrdup(id);
		g->committed = g->log_end = -1;
		g->data_ms = -1;
	}
	free(g->assignor);
	free(g->members);
	g->state = st;
	g->assignor = xstrdup(assignor ? assignor : "");
	g->members = xstrdup(members ? members : "");
}

/* The group's description in the next ticks was asked at ms; -1: at each tick. */
void
sc_group_data_time(sc *s, const char *id, int64_t ms)
{
	sc_group *g = find(s, id);
	if (g != NULL)
		g->data_ms = ms;
}

/* Mark exact. */
void
sc_group_exact(sc *s, const char *id, bool exact)
{
	sc_group *g = find(s, id);
	if (g != NULL)
		g->exact = exact;
}

/* Mark a KIP-848 consumer group. */
void
sc_group_kip(sc *s, const char *id, bool kip)
{
	sc_group *g = find(s, id);
	if (g != NULL)
		g->kip = kip;
}

/* Offsets. */
void
sc_group_offsets(sc *s, const char *id, int64_t committed, int64_t log_end)
{
	sc_group *g = find(s, id);
	if (g != NULL) {
		g->committed = committed;
		g->log_end = log_end;
	}
}

/* Remove a group. */
void
sc_group_drop(sc *s, const char *id)
{
	sc_group *g = find(s, id);
	if (g == NULL)
		return;
	free(g->id);
	free(g->assignor);
	free(g->members);
	*g = s->g[--s->ng];
}

/* Parse a partition list. */
int
sc_parts(const char *list, kg_tp *out, int max)
{
	int n = 0;
	const char *p = list;
	int32_t topic = intern_topic(SC_TOPIC);
	while (p && *p && n < max) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		out[n].topic = topic;
		out[n].partition = (int32_t)v;
		n++;
		p = end;
		while (*p == ' ' || *p == ',')
			p++;
	}
	return n;
}

/* Queue a callback-like observation. */
void
sc_obs(sc *s, kg_obs_kind kind, int64_t ms, const char *group, const char *client, kg_proto proto,
       const char *parts)
{
	kg_obs *o = obs_new(kind, sc_us(s, ms), intern_group(group), "test");
	char mid[128];
	kg_tp tp[256];
	int n = sc_parts(parts, tp, 256);
	snprintf(mid, sizeof mid, "%s-m", client);
	obs_member(o, mid, client, NULL, "/127.0.0.1");
	o->proto = proto;
	obs_parts(o, tp, n);
	obsq_push(&s->q, o);
}

/* Queue an observation about a member with its own member id and instance id. */
kg_obs *
sc_obs_id(sc *s, kg_obs_kind kind, int64_t ms, const char *group, const char *client, const char *member_id,
	  const char *instance_id, kg_proto proto, const char *parts)
{
	kg_obs *o = obs_new(kind, sc_us(s, ms), intern_group(group), "test");
	kg_tp tp[256];
	int n = sc_parts(parts, tp, 256);
	obs_member(o, member_id, client, instance_id, "/127.0.0.1");
	o->proto = proto;
	obs_parts(o, tp, n);
	obsq_push(&s->q, o);
	return o;
}

/* Queue an observation. */
void
sc_obs_push(sc *s, kg_obs *o)
{
	obsq_push(&s->q, o);
}

/* Build and apply. */
kg_snapshot *
sc_tick(sc *s, int64_t ms)
{
	return sc_tick_with(s, ms, NULL, NULL);
}

/* Build and apply, another source adding its groups. */
kg_snapshot *
sc_tick_with(sc *s, int64_t ms, void (*more)(void *arg, kg_builder *b), void *arg)
{
	kg_builder *b = builder_new(sc_us(s, ms));
	int32_t topic = intern_topic(SC_TOPIC);
	if (s->last != NULL)
		builder_keep(b, s->last); /* as the collector: rows whose input stood still are kept (rows.h) */
	kg_snapshot *snap;
	int i, p;
	builder_topic(b, topic, s->partitions);
	for (i = 0; i < s->ng; i++) {
		sc_group *g = &s->g[i];
		kg_bgroup *bg = builder_group(b, intern_group(g->id));
		char *spec = xstrdup(g->members), *save = NULL, *tok;
		bgroup_state(bg, g->state);
		if (g->kip)
			bgroup_type(bg, KG_GTYPE_CONSUMER, NULL);
		bgroup_protocol(bg, "consumer", g->state == KG_STATE_STABLE || g->exact || g->kip ? g->assignor : "");
		bgroup_exact(bg, g->exact);
		if (g->data_ms >= 0)
			bgroup_data_time(bg, sc_us(s, g->data_ms));
		if (g->exact)
			bgroup_proto(bg, proto_from_assignor(g->assignor, "consumer"));
		bgroup_topic(bg, topic);
		for (p = 0; p < s->partitions; p++) {
			kg_tp tp = { topic, p };
			if (g->log_end >= 0)
				builder_partition(b, tp, 1, g->log_end);
			if (g->committed >= 0)
				bgroup_committed(bg, tp, g->committed);
		}
		for (tok = strtok_r(spec, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
			char *eq = strchr(tok, '='), *id, *inst = NULL, *gt = NULL;
			char mid[128];
			kg_bmember *m;
			kg_tp tp[256], tg[256];
			int n = 0, nt = -1;
			if (eq) {
				*eq = '\0';
				if (g->kip && (gt = strchr(eq + 1, '>')) != NULL) {
					*gt = '\0';
					nt = sc_parts(gt + 1, tg, 256);
				}
				n = sc_parts(eq + 1, tp, 256);
			}
			/* "client/member-id/instance-id": the member id defaults to client-m */
			if ((id = strchr(tok, '/')) != NULL) {
				*id++ = '\0';
				if ((inst = strchr(id, '/')) != NULL)
					*inst++ = '\0';
			}
			snprintf(mid, sizeof mid, "%s", id != NULL && *id ? id : tok);
			if (id == NULL || *id == '\0')
				snprintf(mid, sizeof mid, "%s-m", tok);
			m = bgroup_member(bg, mid);
			bmember_ids(m, tok, "/127.0.0.1", inst);
			/* a non-Stable classic group is described without assignments (a consumer group's always has them) */
			if (g->state == KG_STATE_STABLE || g->exact || g->kip)
				bmember_assignment(m, tp, n);
			if (nt >= 0)
				bmember_target(m, tg, nt);
			if (g->exact)
				bmember_flags(m, KG_MEMBER_EXACT);
		}
		free(spec);
		/* what the kafka source says of a consumer group librdkafka gives no state name (Assigning, Reconciling) */
		if (g->kip && g->state == KG_STATE_UNKNOWN)
			bgroup_unsettled(bg);
	}
	if (more != NULL)
		more(arg, b);
	snap = builder_finish(b);
	tracker_apply(s->t, &s->q, snap, &s->ev);
	snapshot_unref(s->last);
	s->last = snap;
	return snap;
}

/* Count events. */
int
sc_count(sc *s, kg_event_kind kind, const char *client)
{
	size_t i;
	int n = 0;
	for (i = 0; i < s->ev.n; i++) {
		const kg_event *e = s->ev.v[i];
		if (e->kind == kind && (client == NULL || (e->client_id && strcmp(e->client_id, client) == 0)))
			n++;
	}
	return n;
}

/* Find the n-th event. */
const kg_event *
sc_find(sc *s, kg_event_kind kind, const char *client, int n)
{
	size_t i;
	for (i = 0; i < s->ev.n; i++) {
		const kg_event *e = s->ev.v[i];
		if (e->kind == kind && (client == NULL || (e->client_id && strcmp(e->client_id, client) == 0))) {
			if (n-- == 0)
				return e;
		}
	}
	return NULL;
}

/* Count revokes of a class. */
int
sc_count_revokes(sc *s, const char *group, const char *client, kg_revoke_class cls)
{
	size_t i;
	int n = 0;
	int32_t gid = intern_group(group);
	for (i = 0; i < s->ev.n; i++) {
		const kg_event *e = s->ev.v[i];
		if (e->kind == KG_EV_REVOKED && e->group == gid && e->cls == cls &&
		    (client == NULL || (e->client_id && strcmp(e->client_id, client) == 0)))
			n++;
	}
	return n;
}

/* Print events. */
void
sc_dump(sc *s)
{
	size_t i;
	for (i = 0; i < s->ev.n; i++) {
		sbuf b = { 0 };
		event_format_line(s->ev.v[i], s->t0_us, &b);
		fprintf(stderr, "# %-10s %s\n", intern_group_name(s->ev.v[i]->group), sbuf_str(&b));
		sbuf_free(&b);
	}
}

/* True when event e (not NULL) says want in its text; loud: print both when it does not. */
bool
sc_text_has(const kg_event *e, const char *want, bool loud)
{
	sbuf b = { 0 };
	bool has;
	if (e == NULL)
		return false;
	event_format(e, &b);
	has = strstr(sbuf_str(&b), want) != NULL;
	if (!has && loud)
		fprintf(stderr, "# got:  %s\n# want: ...%s...\n", sbuf_str(&b), want);
	sbuf_free(&b);
	return has;
}

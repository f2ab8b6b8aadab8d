/*
 * kafka_groups.c: the groups the kafka source knows across refreshes, and
 * the requests that ask about them (see kafka_int.h for who owns what).
 *
 * The table keeps, per group, its listed state, its last description and
 * committed offsets (with the time each was asked), and what the scheduler
 * needs.  A refresh asks only what the plan marked: DescribeConsumerGroups
 * in calls of KG_KAFKA_DESCRIBE_CHUNK groups and ListConsumerGroupOffsets
 * one group per call (librdkafka 2.0.2 takes one), with never more than
 * KG_KAFKA_WINDOW requests in flight for --once, KG_KAFKA_WINDOW_LIVE else:
 * librdkafka inserts each request's timeout timer by walking the pending
 * ones, so thousands at once cost the square of their number.  A describe that fails keeps the last good
 * description (its members did not leave), marked with the error.
 */
#include "config.h"

#include "sources/kafka/kafka_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "model/intern.h"
#include "util/log.h"
#include "util/util.h"

/* ---------------------------------------------------------------- table */

/* Drop a reference to a description. */
static void
kdesc_unref(kdesc *d)
{
	int i;
	if (d == NULL || --d->refs > 0)
		return;
	for (i = 0; i < d->nm; i++) {
		free(d->m[i].member_id);
		free(d->m[i].client_id);
		free(d->m[i].host);
		free(d->m[i].instance_id);
		free(d->m[i].asg);
	}
	free(d->m);
	free(d->assignor);
	free(d);
}

/* Drop a reference to committed offsets. */
static void
koffs_unref(koffs *o)
{
	if (o == NULL || --o->refs > 0)
		return;
	free(o->c);
	free(o);
}

/* The entry of a group id. */
kentry *
kafka_table_get(ktable *t, int32_t id)
{
	if (id < 0 || (size_t)id >= t->nidx || t->idx[id] < 0)
		return NULL;
	return &t->e[t->idx[id]];
}

/* The entry of a group id, made when new. */
kentry *
kafka_table_add(ktable *t, int32_t id)
{
	kentry *e = kafka_table_get(t, id);
	if (e != NULL)
		return e;
	if ((size_t)id >= t->nidx) {
		size_t n = t->nidx ? t->nidx : 64, old = t->nidx;
		while (n <= (size_t)id)
			n *= 2;
		t->idx = xreallocarray(t->idx, n, sizeof *t->idx);
		for (; old < n; old++)
			t->idx[old] = -1;
		t->nidx = n;
	}
	util_grow(&t->e, &t->cap, t->n + 1, sizeof *t->e);
	e = &t->e[t->n];
	memset(e, 0, sizeof *e);
	e->s.id = id;
	e->s.listed = e->s.described = KG_STATE_UNKNOWN;
	e->watch_topic = -1;
	t->idx[id] = (int)t->n++;
	return e;
}

/* Free an entry's contents. */
static void
entry_clear(kentry *e)
{
	kdesc_unref(e->desc);
	koffs_unref(e->offs);
	free(e->desc_err);
	free(e->offs_err);
}

/* Drop the entries not listed now and not watched. */
void
kafka_table_prune(ktable *t)
{
	size_t i = 0;
	while (i < t->n) {
		kentry *e = &t->e[i];
		if (e->listed_now || e->watch_topic >= 0) {
			i++;
			continue;
		}
		t->idx[e->s.id] = -1;
		entry_clear(e);
		if (i != t->n - 1) {
			*e = t->e[t->n - 1];
			t->idx[e->s.id] = (int)i;
		}
		t->n--;
	}
}

/* Free the table. */
void
kafka_table_free(ktable *t)
{
	size_t i;
	for (i = 0; i < t->n; i++)
		entry_clear(&t->e[i]);
	free(t->e);
	free(t->idx);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------- answers */

/* Map librdkafka's group state. */
kg_group_state
kafka_map_state(rd_kafka_consumer_group_state_t st)
{
	switch (st) {
	case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE: return KG_STATE_PREPARING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE: return KG_STATE_COMPLETING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE: return KG_STATE_STABLE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD: return KG_STATE_DEAD;
	case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY: return KG_STATE_EMPTY;
	default: return KG_STATE_UNKNOWN;
	}
}

/* The last topic looked up: a list names the same topic partition after partition. */
typedef struct tcache {
	char name[256];
	int32_t id;
	bool selected;
} tcache;

/* A topic's interned id, -1 when -t leaves it out. */
static int32_t
topic_id(ksrc *k, tcache *c, const char *name)
{
	if (strcmp(c->name, name) != 0) {
		util_strlcpy(c->name, name, sizeof c->name);
		c->selected = kafka_topic_selected(k, name);
		c->id = c->selected ? intern_topic(name) : -1;
		if (strlen(name) >= sizeof c->name)
			c->name[0] = '\0'; /* too long to remember: looked up each time */
	}
	return c->id;
}

/* Copy a partition list into a sorted set (filtered by -t). */
static kg_tp *
copy_parts(ksrc *k, tcache *tc, const rd_kafka_topic_partition_list_t *l, int *n)
{
	kg_tp *v;
	int i;
	*n = 0;
	if (l == NULL || l->cnt == 0)
		return NULL;
	v = xmalloc((size_t)l->cnt * sizeof *v);
	for (i = 0; i < l->cnt; i++) {
		int32_t t = topic_id(k, tc, l->elems[i].topic);
		if (t < 0)
			continue;
		v[*n].topic = t;
		v[*n].partition = l->elems[i].partition;
		(*n)++;
	}
	*n = tp_sort_unique(v, *n);
	return v;
}

/* A description from librdkafka's answer. */
static kdesc *
desc_new(ksrc *k, const rd_kafka_ConsumerGroupDescription_t *d, int64_t now)
{
	kdesc *x = xcalloc(1, sizeof *x);
	const rd_kafka_Node_t *coord = rd_kafka_ConsumerGroupDescription_coordinator(d);
	int j, nm = (int)rd_kafka_ConsumerGroupDescription_member_count(d);
	tcache tc = { .id = -1 };
	x->refs = 1;
	x->time_us = now;
	x->state = kafka_map_state(rd_kafka_ConsumerGroupDescription_state(d));
	x->simple = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d);
	x->assignor = xstrdup(rd_kafka_ConsumerGroupDescription_partition_assignor(d));
	x->coordinator = coord ? rd_kafka_Node_id(coord) : -1;
	x->m = xcalloc((size_t)(nm ? nm : 1), sizeof *x->m);
	for (j = 0; j < nm; j++) {
		const rd_kafka_MemberDescription_t *md = rd_kafka_ConsumerGroupDescription_member(d, (size_t)j);
		const rd_kafka_MemberAssignment_t *ma = rd_kafka_MemberDescription_assignment(md);
		kmember *m = &x->m[x->nm++];
		m->member_id = xstrdup(rd_kafka_MemberDescription_consumer_id(md));
		m->client_id = xstrdup(rd_kafka_MemberDescription_client_id(md));
		m->host = xstrdup(rd_kafka_MemberDescription_host(md));
		m->instance_id = xstrdup(rd_kafka_MemberDescription_group_instance_id(md));
		m->asg = copy_parts(k, &tc, ma ? rd_kafka_MemberAssignment_partitions(ma) : NULL, &m->nasg);
	}
	return x;
}

/* Count an answer that says the group's coordinator is elsewhere now (kafka_coordinators_check). */
static void
coordinator_moved(ksrc *k, rd_kafka_resp_err_t code)
{
	if (code == RD_KAFKA_RESP_ERR_NOT_COORDINATOR || code == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE)
		k->coord_moved++;
}

/* Take one DescribeConsumerGroups answer. */
static void
take_descriptions(ksrc *k, rd_kafka_event_t *ev, int64_t now)
{
	const rd_kafka_ConsumerGroupDescription_t **d;
	size_t nd = 0, i;
	if (rd_kafka_event_error(ev)) {
		log_msg(KG_LOG_INFO, "kafka: describing groups: %s", rd_kafka_event_error_string(ev));
		return;
	}
	d = rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &nd);
	for (i = 0; i < nd; i++) {
		const rd_kafka_error_t *ge = rd_kafka_ConsumerGroupDescription_error(d[i]);
		kentry *e = kafka_table_get(&k->tab, intern_group_find(rd_kafka_ConsumerGroupDescription_group_id(d[i])));
		if (e == NULL)
			continue;
		free(e->desc_err);
		e->desc_err = NULL;
		if (ge != NULL) {
			e->desc_err = kafka_describe_error(rd_kafka_error_code(ge), rd_kafka_error_string(ge));
			coordinator_moved(k, rd_kafka_error_code(ge));
			continue;
		}
		kdesc_unref(e->desc);
		e->desc = desc_new(k, d[i], now);
		e->s.described = e->desc->state;
	}
}

/* Take one ListConsumerGroupOffsets answer. */
static void
take_offsets(ksrc *k, rd_kafka_event_t *ev, int64_t now)
{
	const rd_kafka_group_result_t **gr;
	size_t ngr = 0, j;
	tcache tc = { .id = -1 };
	if (rd_kafka_event_error(ev)) {
		log_msg(KG_LOG_INFO, "kafka: offsets: %s", rd_kafka_event_error_string(ev));
		return;
	}
	gr = rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &ngr);
	for (j = 0; j < ngr; j++) {
		const rd_kafka_error_t *ge = rd_kafka_group_result_error(gr[j]);
		const rd_kafka_topic_partition_list_t *l = rd_kafka_group_result_partitions(gr[j]);
		kentry *e = kafka_table_get(&k->tab, intern_group_find(rd_kafka_group_result_name(gr[j])));
		koffs *o;
		int q;
		if (e == NULL)
			continue;
		free(e->offs_err);
		e->offs_err = NULL;
		if (ge != NULL) {
			e->offs_err = kafka_describe_error(rd_kafka_error_code(ge), rd_kafka_error_string(ge));
			coordinator_moved(k, rd_kafka_error_code(ge));
			continue;
		}
		o = xcalloc(1, sizeof *o);
		o->refs = 1;
		o->time_us = now;
		o->c = xcalloc((size_t)(l && l->cnt ? l->cnt : 1), sizeof *o->c);
		for (q = 0; l != NULL && q < l->cnt; q++) {
			int32_t t;
			if (l->elems[q].err != RD_KAFKA_RESP_ERR_NO_ERROR || l->elems[q].offset < 0 ||
			    (t = topic_id(k, &tc, l->elems[q].topic)) < 0)
				continue;
			o->c[o->nc].tp.topic = t;
			o->c[o->nc].tp.partition = l->elems[q].partition;
			o->c[o->nc].offset = l->elems[q].offset;
			o->nc++;
		}
		koffs_unref(e->offs);
		e->offs = o;
	}
}

/* ------------------------------------------------------------ requests */

/* The explicit partitions to ask a group's offsets for, NULL for "all" (the usual form). */
static rd_kafka_topic_partition_list_t *
offsets_request(kresult *r, const kentry *e, bool retry)
{
	rd_kafka_topic_partition_list_t *parts;
	int32_t *seen = NULL;
	size_t nseen = 0, cseen = 0, q;
	int i, a, p;
	if (e->watch_topic >= 0) {
		/* the mock answers nothing for "all partitions": ask for them explicitly */
		ktopic *t = kafka_result_topic(r, e->watch_topic);
		if (t == NULL)
			return NULL;
		parts = rd_kafka_topic_partition_list_new(t->np);
		for (p = 0; p < t->np; p++)
			rd_kafka_topic_partition_list_add(parts, intern_topic_name(t->id), p);
		return parts;
	}
	if (!retry || e->desc == NULL)
		return NULL;
	/* every partition of every topic its members are assigned */
	parts = rd_kafka_topic_partition_list_new(16);
	for (i = 0; i < e->desc->nm; i++) {
		for (a = 0; a < e->desc->m[i].nasg; a++) {
			int32_t tid = e->desc->m[i].asg[a].topic;
			ktopic *t;
			for (q = 0; q < nseen && seen[q] != tid; q++)
				;
			if (q < nseen || (t = kafka_result_topic(r, tid)) == NULL)
				continue;
			util_grow(&seen, &cseen, nseen + 1, sizeof *seen);
			seen[nseen++] = tid;
			for (p = 0; p < t->np; p++)
				rd_kafka_topic_partition_list_add(parts, intern_topic_name(tid), p);
		}
	}
	free(seen);
	return parts;
}

/*
 * True when a group's "all partitions" answer came back empty although its
 * members hold partitions: against brokers older than 2.4, librdkafka 2.0.2
 * sends "all" as an empty list and gets nothing back.
 */
static bool
offsets_need_retry(const kentry *e, int64_t now)
{
	int i;
	if (!e->asked_all || e->offs == NULL || e->offs->time_us != now || e->offs->nc > 0 || e->desc == NULL)
		return false;
	for (i = 0; i < e->desc->nm; i++) {
		if (e->desc->m[i].nasg > 0)
			return true;
	}
	return false;
}

/* One window of work: what to ask, what is in flight. */
typedef struct askq {
	ksrc *k;
	kresult *r;
	int64_t now;
	uintptr_t token;  /* this refresh's requests carry it (with their group count): a late answer of an earlier one is told apart */
	const char **dnames;
	size_t nd, di;    /* groups to describe, issued so far */
	kentry **offs;
	size_t no, oi;    /* groups to ask offsets of, issued so far */
	bool retry;       /* explicit partitions (the retry pass) */
	size_t inflight;  /* requests out (a describe call counts its groups) */
	int sent;
} askq;

/* Issue what the window allows. */
static void
ask_issue(askq *a)
{
	ksrc *k = a->k;
	size_t window = k->cfg.once ? KG_KAFKA_WINDOW : KG_KAFKA_WINDOW_LIVE;
	while (a->inflight < window && a->di < a->nd) {
		size_t n = a->nd - a->di;
		rd_kafka_AdminOptions_t *o = kafka_admin_opts(k, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
		if (n > KG_KAFKA_DESCRIBE_CHUNK)
			n = KG_KAFKA_DESCRIBE_CHUNK;
		rd_kafka_AdminOptions_set_opaque(o, (void *)(a->token << 16 | n));
		rd_kafka_DescribeConsumerGroups(k->rk, a->dnames + a->di, n, o, k->q);
		rd_kafka_AdminOptions_destroy(o);
		a->di += n;
		a->inflight += n;
		a->sent += (int)n * KSCHED_COST_DESCRIBE;
	}
	while (a->inflight < window && a->oi < a->no) {
		kentry *e = a->offs[a->oi++];
		rd_kafka_topic_partition_list_t *parts = offsets_request(a->r, e, a->retry);
		rd_kafka_ListConsumerGroupOffsets_t *req;
		rd_kafka_AdminOptions_t *o;
		if ((e->watch_topic >= 0 || a->retry) && (parts == NULL || parts->cnt == 0)) {
			if (parts != NULL)
				rd_kafka_topic_partition_list_destroy(parts);
			continue;
		}
		e->asked_all = parts == NULL;
		req = rd_kafka_ListConsumerGroupOffsets_new(intern_group_name(e->s.id), parts);
		o = kafka_admin_opts(k, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
		rd_kafka_AdminOptions_set_opaque(o, (void *)(a->token << 16 | 1));
		rd_kafka_ListConsumerGroupOffsets(k->rk, &req, 1, o, k->q);
		rd_kafka_AdminOptions_destroy(o);
		rd_kafka_ListConsumerGroupOffsets_destroy(req);
		if (parts != NULL)
			rd_kafka_topic_partition_list_destroy(parts);
		a->inflight++;
		a->sent += KSCHED_COST_OFFSETS;
	}
}

/* Run a window of work to its end; -1 with *err when the cluster stops answering. */
static int
ask_run(askq *a, unsigned gen, char **err)
{
	ksrc *k = a->k;
	ask_issue(a);
	while (a->inflight > 0) {
		/* no answer for a request's timeout (and some): the cluster is not answering */
		rd_kafka_event_t *ev = kafka_wait_event(k, 0, util_mono_us() + k->cfg.timeout_us + 2000000);
		rd_kafka_event_type_t type;
		uintptr_t tag;
		size_t n;
		if (ev == NULL || kafka_cluster_gone(k, gen)) {
			char *why = kafka_cluster_reason(k);
			*err = why != NULL ? why
					   : xasprintf("timeout asking about groups (%zu of %zu answers missing)", a->inflight,
						       a->nd + a->no);
			if (ev != NULL)
				rd_kafka_event_destroy(ev);
			return -1;
		}
		type = rd_kafka_event_type(ev);
		tag = (uintptr_t)rd_kafka_event_opaque(ev);
		if (tag >> 16 != a->token) {
			rd_kafka_event_destroy(ev); /* a late answer of an earlier refresh */
			continue;
		}
		n = tag & 0xffff; /* the groups of the call: its answer (or its error) is theirs */
		if (type == RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT)
			take_descriptions(k, ev, a->now);
		else if (type == RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT)
			take_offsets(k, ev, a->now);
		a->inflight -= n < a->inflight ? n : a->inflight;
		rd_kafka_event_destroy(ev);
		ask_issue(a);
	}
	return 0;
}

/* Describe and fetch the offsets of what the plan marked, within the window. */
int
kafka_groups_ask(ksrc *k, kresult *r, char **err)
{
	static atomic_uint tokens; /* several sources may refresh at once */
	askq a;
	size_t i, cap;
	unsigned gen = atomic_load(&k->err_gen);
	int rc;
	memset(&a, 0, sizeof a);
	a.k = k;
	a.r = r;
	a.now = r->time_us;
	a.token = (uintptr_t)(atomic_fetch_add(&tokens, 1) % 0xffff + 1);
	cap = k->tab.n ? k->tab.n : 1;
	a.dnames = xmalloc(cap * sizeof *a.dnames);
	a.offs = xmalloc(cap * sizeof *a.offs);
	for (i = 0; i < k->tab.n; i++) {
		kentry *e = &k->tab.e[i];
		/* never DescribeConsumerGroups where listing is unsupported: it hangs 2.0.2's admin handle */
		if (e->s.describe && !r->no_group_apis) {
			a.dnames[a.nd++] = intern_group_name(e->s.id);
			e->s.desc_us = a.now;
		}
		if (e->s.offsets) {
			a.offs[a.no++] = e;
			e->s.offs_us = a.now;
		}
	}
	rc = ask_run(&a, gen, err);
	if (rc == 0) {
		/* again, explicitly, for the "all partitions" answers that came back empty */
		a.nd = a.di = a.no = a.oi = 0;
		a.retry = true;
		for (i = 0; i < k->tab.n; i++) {
			if (offsets_need_retry(&k->tab.e[i], a.now))
				a.offs[a.no++] = &k->tab.e[i];
		}
		rc = ask_run(&a, gen, err);
	}
	r->requests += a.sent;
	free(a.dnames);
	free(a.offs);
	return rc;
}

/* ------------------------------------------------------------- publish */

/* Drop a result group's references. */
void
kafka_group_clear(kgroup *g)
{
	kdesc_unref(g->desc);
	koffs_unref(g->offs);
	free(g->error);
}

/* The result's groups: every entry, sharing descriptions and offsets. */
void
kafka_groups_publish(ksrc *k, kresult *r, int64_t now_us)
{
	size_t i;
	r->groups = xcalloc(k->tab.n ? k->tab.n : 1, sizeof *r->groups);
	for (i = 0; i < k->tab.n; i++) {
		kentry *e = &k->tab.e[i];
		kgroup *g = &r->groups[r->ngroups++];
		int64_t t = now_us;
		g->id = e->s.id;
		g->listed = e->s.listed;
		g->simple = e->simple;
		g->watch_topic = e->watch_topic;
		if ((g->desc = e->desc) != NULL) {
			g->desc->refs++;
			/* an Empty group listed Empty again: the listing is as good as a description */
			if (!(e->s.listed == KG_STATE_EMPTY && e->desc->state == KG_STATE_EMPTY))
				t = e->desc->time_us;
		}
		if ((g->offs = e->offs) != NULL) {
			g->offs->refs++;
			if (g->offs->time_us < t)
				t = g->offs->time_us;
		}
		g->data_time_us = t;
		if (e->desc_err != NULL || e->offs_err != NULL)
			g->error = xstrdup(e->desc_err != NULL ? e->desc_err : e->offs_err);
	}
}

/*
 * kafka_requests.c: what the kafka source asks the cluster about groups,
 * on its worker thread (see kafka_requests.h, and kafka_refresh.c for the
 * order of a refresh).
 *
 * ListConsumerGroups fills the table with the groups that exist (-g / -G
 * apply) and their states.  The plan's groups are then described and
 * their committed offsets asked: DescribeConsumerGroups in calls of
 * KG_KAFKA_DESCRIBE_CHUNK groups and ListConsumerGroupOffsets one group per
 * call (librdkafka 2.0.2 takes one), with never more than KG_KAFKA_WINDOW
 * requests in flight for --once, KG_KAFKA_WINDOW_LIVE else: librdkafka
 * inserts each request's timeout timer by walking the pending ones, so
 * thousands at once cost the square of their number.  A describe that
 * fails keeps the last good description (its members did not leave),
 * marked with the error.  (The log-end and log-start offsets that come
 * last are kafka_logend.c's.)  Every admin answer is waited for in slices
 * that honour the source's stop flag.
 */
#include "config.h"

#include "sources/kafka/kafka_requests.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/defaults.h"
#include "model/intern.h"
#include "sources/kafka/kafka_errors.h"
#include "sources/kafka/kafka_table.h"
#include "util/filter.h"
#include "util/log.h"
#include "util/util.h"

#define SLICE_MS 100

/* -------------------------------------------------------------- common */

/* True when the topic passes -t. */
bool
kafka_topic_selected(ksrc *k, const char *name)
{
	if (strncmp(name, "__", 2) == 0 && filter_empty(k->topics))
		return strcmp(name, "__consumer_offsets") != 0 && strcmp(name, "__transaction_state") != 0;
	return filter_match(k->topics, name);
}

/* Wait for one admin result of type want (0: any), in slices that honour stop. */
static rd_kafka_event_t *
wait_event(ksrc *k, rd_kafka_event_type_t want, int64_t deadline_us)
{
	while (!atomic_load(&k->stop)) {
		int64_t left = (deadline_us - util_mono_us()) / 1000;
		rd_kafka_event_t *ev;
		if (left <= 0)
			return NULL;
		ev = rd_kafka_queue_poll(k->q, (int)(left < SLICE_MS ? left : SLICE_MS));
		if (ev == NULL)
			continue;
		if (want == 0 || rd_kafka_event_type(ev) == want)
			return ev;
		rd_kafka_event_destroy(ev); /* a late answer of an earlier refresh */
	}
	return NULL;
}

/* Admin options with the request timeout. */
static rd_kafka_AdminOptions_t *
admin_opts(ksrc *k, rd_kafka_admin_op_t op)
{
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(k->rk, op);
	char e[256];
	rd_kafka_AdminOptions_set_request_timeout(o, (int)(k->cfg.timeout_us / 1000), e, sizeof e);
	return o;
}

/* Map librdkafka's group state. */
static kg_group_state
map_state(rd_kafka_consumer_group_state_t st)
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

#if defined(HAVE_RD_KAFKA_CONSUMERGROUPLISTING_TYPE) || defined(HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE)
/* Map librdkafka's group type (it names classic and consumer only: it lists no share or streams group). */
static kg_group_type
map_type(rd_kafka_consumer_group_type_t t)
{
	switch (t) {
	case RD_KAFKA_CONSUMER_GROUP_TYPE_CLASSIC: return KG_GTYPE_CLASSIC;
	case RD_KAFKA_CONSUMER_GROUP_TYPE_CONSUMER: return KG_GTYPE_CONSUMER;
	default: return KG_GTYPE_UNKNOWN;
	}
}
#endif

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

/* Count an answer that says the group's coordinator is elsewhere now (kafka.c makes a new handle after a streak). */
static void
coordinator_moved(ksrc *k, rd_kafka_resp_err_t code)
{
	if (code == RD_KAFKA_RESP_ERR_NOT_COORDINATOR || code == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE)
		k->coord_moved++;
}

/* --------------------------------------------------------- the listing */

/* Put what the listing says into the table: which groups exist, and their states where the broker says. */
static void
list_take(ksrc *k, const rd_kafka_ConsumerGroupListing_t **valid, size_t nvalid, bool partial)
{
	size_t i;
	for (i = 0; i < k->tab.n; i++)
		k->tab.e[i].listed_now = partial; /* a broker that did not answer: its groups stay */
	k->list_changes = 0;
	for (i = 0; i < nvalid; i++) {
		const char *id = rd_kafka_ConsumerGroupListing_group_id(valid[i]);
		kentry *e;
		kg_group_state st;
		if (!filter_match(k->groups, id))
			continue;
		e = kafka_table_get(&k->tab, intern_group(id));
		st = map_state(rd_kafka_ConsumerGroupListing_state(valid[i]));
		if (e == NULL || st != e->s.listed)
			k->list_changes++; /* new, or in another state */
		if (e == NULL)
			e = kafka_table_add(&k->tab, intern_group(id));
		e->listed_now = true;
		e->s.listed = st;
		e->simple = rd_kafka_ConsumerGroupListing_is_simple_consumer_group(valid[i]);
#ifdef HAVE_RD_KAFKA_CONSUMERGROUPLISTING_TYPE
		/* ListGroups v5 (Kafka >= 3.8): classic or consumer (librdkafka lists no other type) */
		e->type = (uint8_t)map_type(rd_kafka_ConsumerGroupListing_type(valid[i]));
		/* such a broker answers ConsumerGroupDescribe: librdkafka asks it first, then DescribeGroups for a classic group */
		e->s.describe_cost = e->type == KG_GTYPE_CLASSIC ? KSCHED_COST_DESCRIBE_TWICE : 0;
#endif
	}
	for (i = 0; i < k->tab.n; i++)
		k->list_changes += !k->tab.e[i].listed_now && k->tab.e[i].watch_topic < 0; /* gone */
	kafka_table_prune(&k->tab);
}

/* A token for this refresh's requests (their opaque): a late answer of an earlier request is told apart. */
static uintptr_t
next_token(void)
{
	static atomic_uint tokens; /* several sources may refresh at once */
	return (uintptr_t)(atomic_fetch_add(&tokens, 1) % 0xffff + 1);
}

/*
 * How long the listing waits for a broker still silent after another
 * answered: LIST_GRACE_US, or LIST_GRACE_TIMES the time that answer took
 * when longer.  librdkafka holds a request for a broker whose connection
 * is down until the request times out: one such broker made every refresh
 * 10 s long (--timeout) until its controller fenced it.
 */
#define LIST_GRACE_US KAFKA_LIST_GRACE_US
#define LIST_GRACE_TIMES 3

/* The brokers' listings, one event each (NULL: none yet), and what is waited for. */
typedef struct klisting {
	rd_kafka_event_t **ev;
	int asked, answered;
	uintptr_t token;
} klisting;

/* Send one ListConsumerGroups per broker (broker -1: one for all, librdkafka's own fan-out). */
static void
list_send(ksrc *k, klisting *l, int32_t broker)
{
	rd_kafka_AdminOptions_t *o = admin_opts(k, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS);
	char e[256];
	if (broker >= 0 && rd_kafka_AdminOptions_set_broker(o, broker, e, sizeof e) != RD_KAFKA_RESP_ERR_NO_ERROR)
		log_msg(KG_LOG_DEBUG, "kafka: listing groups: broker %d: %s", (int)broker, e);
	rd_kafka_AdminOptions_set_opaque(o, (void *)(l->token << 16 | (uintptr_t)l->asked));
	rd_kafka_ListConsumerGroups(k->rk, o, k->q);
	rd_kafka_AdminOptions_destroy(o);
	l->asked++;
}

/* Wait for the brokers' listings: every one, the deadline, or the grace after the last answer. */
static void
list_wait(ksrc *k, klisting *l, int64_t t0, int64_t deadline)
{
	int64_t limit = deadline, now;
	while (l->answered < l->asked && !atomic_load(&k->stop)) {
		int64_t left = (limit - util_mono_us()) / 1000;
		rd_kafka_event_t *ev;
		uintptr_t tag;
		if (left <= 0)
			return;
		ev = rd_kafka_queue_poll(k->q, (int)(left < SLICE_MS ? left : SLICE_MS));
		if (ev == NULL)
			continue;
		tag = (uintptr_t)rd_kafka_event_opaque(ev);
		if (rd_kafka_event_type(ev) != RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT || tag >> 16 != l->token ||
		    (int)(tag & 0xffff) >= l->asked || l->ev[tag & 0xffff] != NULL) {
			rd_kafka_event_destroy(ev); /* a late answer of an earlier refresh */
			continue;
		}
		l->ev[tag & 0xffff] = ev;
		l->answered++;
		now = util_mono_us();
		limit = KG_MIN(deadline, now + KG_MAX(LIST_GRACE_US, LIST_GRACE_TIMES * (now - t0)));
	}
}

/* ListConsumerGroups into the table, or sets *unsupported: each broker of the metadata asked on its own. */
int
kafka_list_groups(ksrc *k, const kresult *r, bool *unsupported, char **err)
{
	klisting l = { .token = next_token() };
	const rd_kafka_ConsumerGroupListing_t **valid = NULL;
	const rd_kafka_error_t *first = NULL; /* the first broker's error in a result */
	char *failed = NULL;                  /* the first request's own failure */
	size_t nvalid = 0, cvalid = 0, nerrs = 0, unsup = 0, n, i;
	int64_t t0 = util_mono_us();
	int b, rc = 0;
	l.ev = xcalloc((size_t)(r->nbrokers > 0 ? r->nbrokers : 1), sizeof *l.ev);
	for (b = 0; b < r->nbrokers; b++)
		list_send(k, &l, r->brokers[b].id);
	if (r->nbrokers == 0)
		list_send(k, &l, -1);
	list_wait(k, &l, t0, t0 + k->cfg.timeout_us + 1000000);
	for (b = 0; b < l.asked; b++) {
		const rd_kafka_ListConsumerGroups_result_t *res;
		const rd_kafka_ConsumerGroupListing_t **v;
		const rd_kafka_error_t **errs;
		if (l.ev[b] == NULL)
			continue;
		if (rd_kafka_event_error(l.ev[b])) {
			nerrs++;
			if (failed == NULL)
				failed = kafka_describe_error(rd_kafka_event_error(l.ev[b]), rd_kafka_event_error_string(l.ev[b]));
			continue;
		}
		res = rd_kafka_event_ListConsumerGroups_result(l.ev[b]);
		v = rd_kafka_ListConsumerGroups_result_valid(res, &n);
		util_grow(&valid, &cvalid, nvalid + n + 1, sizeof *valid);
		for (i = 0; i < n; i++)
			valid[nvalid++] = v[i];
		errs = rd_kafka_ListConsumerGroups_result_errors(res, &n);
		for (i = 0; i < n; i++) {
			if (rd_kafka_error_code(errs[i]) == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE)
				unsup++;
			if (first == NULL)
				first = errs[i];
		}
		nerrs += n;
	}
	if (l.answered == 0) {
		*err = kafka_cluster_reason(&k->errs);
		if (*err == NULL)
			*err = xstrdup("timeout listing groups");
		rc = -1;
	} else if (nvalid == 0 && nerrs > 0 && unsup == nerrs && l.answered == l.asked) {
		*unsupported = true;
		list_take(k, NULL, 0, false);
	} else if (nvalid == 0 && nerrs > 0) {
		*err = first != NULL ? kafka_describe_error(rd_kafka_error_code(first), rd_kafka_error_string(first))
				     : xstrdup(failed);
		rc = -1;
	} else {
		if (nerrs > 0)
			log_msg(KG_LOG_INFO, "kafka: listing groups: %zu broker(s) answered with an error: %s", nerrs,
				first != NULL ? rd_kafka_error_string(first) : failed);
		if (l.answered < l.asked)
			log_msg(KG_LOG_INFO, "kafka: listing groups: %d of %d broker(s) silent %.1f ms after the first asking "
				"(their groups stay as last listed)", l.asked - l.answered, l.asked,
				(double)(util_mono_us() - t0) / 1000.0);
		list_take(k, valid, nvalid, nerrs > 0 || l.answered < l.asked);
	}
	k->nsilent = 0;
	for (b = 0; b < r->nbrokers && l.answered > 0; b++) {
		if (l.ev[b] == NULL) {
			util_grow(&k->silent, &k->csilent, k->nsilent + 1, sizeof *k->silent);
			k->silent[k->nsilent++] = r->brokers[b].id;
		}
	}
	free(failed);
	free(valid);
	for (b = 0; b < l.asked; b++) {
		if (l.ev[b] != NULL)
			rd_kafka_event_destroy(l.ev[b]);
	}
	free(l.ev);
	return rc;
}

/* ---------------------------------------- descriptions and offsets, windowed */

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
	x->state = map_state(rd_kafka_ConsumerGroupDescription_state(d));
	x->simple = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d);
	x->assignor = xstrdup(rd_kafka_ConsumerGroupDescription_partition_assignor(d));
	x->coordinator = coord ? rd_kafka_Node_id(coord) : -1;
#ifdef HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE
	x->type = (uint8_t)map_type(rd_kafka_ConsumerGroupDescription_type(d));
#endif
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
		m->ntarget = -1;
#ifdef HAVE_RD_KAFKA_MEMBERDESCRIPTION_TARGET_ASSIGNMENT
		{
			/* a consumer group's member (ConsumerGroupDescribe); NULL for a classic group's */
			const rd_kafka_MemberAssignment_t *ta = rd_kafka_MemberDescription_target_assignment(md);
			if (ta != NULL)
				m->target = copy_parts(k, &tc, rd_kafka_MemberAssignment_partitions(ta), &m->ntarget);
		}
#endif
	}
	return x;
}

/*
 * librdkafka < 2.10 describes a KIP-848 consumer group with DescribeGroups,
 * which Kafka answers as for a group that does not exist: Dead, no member,
 * no error.  A group the listing of this refresh has, not Dead, described
 * so is such a group: its type is known, its members are not (kafka.c
 * says why), and describing it again tells nothing (kafka_sched.h) until
 * the mark is old enough to check again (a group may be converted back).
 */
static void
desc_unseen(kentry *e, const kdesc *d, int64_t now)
{
#ifndef HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE
	if (d->state == KG_STATE_DEAD && d->nm == 0 && e->listed_now && e->s.listed != KG_STATE_DEAD && !e->simple) {
		if (e->unseen_us == 0)
			e->unseen_us = now;
		return;
	}
#else
	(void)d;
	(void)now;
#endif
	e->unseen_us = 0;
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
		kafka_desc_unref(e->desc);
		e->desc = desc_new(k, d[i], now);
		e->s.described = e->desc->state;
		desc_unseen(e, e->desc, now);
	}
}

/*
 * The ways of describing groups, a row each: the admin call that sends a
 * chunk of group names, the event its answer comes as, and what reads the
 * answer into the table.  path_of() picks a group's row.
 *
 * librdkafka 2.0.2 has one way, DescribeConsumerGroups, which sends the
 * classic DescribeGroups request; a KIP-848 "consumer" group answers that
 * with GROUP_ID_NOT_FOUND, state Dead, no members (desc_unseen()).  From
 * 2.10 on the same call asks ConsumerGroupDescribe first and falls back to
 * DescribeGroups for a classic group, inside librdkafka: one call, one
 * answer, read by take_descriptions() with the group's type and each
 * member's target assignment; so it stays one row, and the listing's type
 * (ListGroups v5, list_take()) decides what a description costs
 * (kafka_sched.h) and whether describing is of any use.  A way of
 * describing that librdkafka does not fold into that call would be a row
 * of its own; the window, the tokens and the retries below serve every row
 * alike.
 */
typedef struct describe_path {
	rd_kafka_admin_op_t op;                 /* its admin options' kind */
	rd_kafka_event_type_t answer;           /* the event its answers come as */
	void (*send)(ksrc *k, const char **names, size_t n, rd_kafka_AdminOptions_t *o);
	void (*take)(ksrc *k, rd_kafka_event_t *ev, int64_t now);
} describe_path;

/* Send DescribeConsumerGroups for n groups. */
static void
send_describe(ksrc *k, const char **names, size_t n, rd_kafka_AdminOptions_t *o)
{
	rd_kafka_DescribeConsumerGroups(k->rk, names, n, o, k->q);
}

enum { DESCRIBE_CLASSIC, DESCRIBE_PATHS };

static const describe_path describe_paths[DESCRIBE_PATHS] = {
	[DESCRIBE_CLASSIC] = { RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT,
			       send_describe, take_descriptions },
};

/* The row of describe_paths[] that describes e: librdkafka's one call for every type it can describe. */
static int
path_of(const kentry *e)
{
	(void)e;
	return DESCRIBE_CLASSIC;
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
		kafka_table_offsets(e, o);
	}
}

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
	struct {
		const char **names;
		size_t n, i;  /* groups to describe this way, issued so far */
	} dq[DESCRIBE_PATHS];
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
	int p;
	for (p = 0; p < DESCRIBE_PATHS; p++) {
		const describe_path *dp = &describe_paths[p];
		while (a->inflight < window && a->dq[p].i < a->dq[p].n) {
			size_t n = a->dq[p].n - a->dq[p].i;
			rd_kafka_AdminOptions_t *o = admin_opts(k, dp->op);
			if (n > KG_KAFKA_DESCRIBE_CHUNK)
				n = KG_KAFKA_DESCRIBE_CHUNK;
			rd_kafka_AdminOptions_set_opaque(o, (void *)(a->token << 16 | n));
			dp->send(k, a->dq[p].names + a->dq[p].i, n, o);
			rd_kafka_AdminOptions_destroy(o);
			a->dq[p].i += n;
			a->inflight += n;
			a->sent += (int)n * KSCHED_COST_DESCRIBE;
		}
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
		o = admin_opts(k, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
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
		rd_kafka_event_t *ev = wait_event(k, 0, util_mono_us() + k->cfg.timeout_us + 2000000);
		rd_kafka_event_type_t type;
		uintptr_t tag;
		size_t n;
		int p;
		if (ev == NULL || kafka_cluster_gone(&k->errs, gen)) {
			char *why = kafka_cluster_reason(&k->errs);
			size_t asked = a->no;
			for (p = 0; p < DESCRIBE_PATHS; p++)
				asked += a->dq[p].n;
			*err = why != NULL ? why
					   : xasprintf("timeout asking about groups (%zu of %zu answers missing)", a->inflight,
						       asked);
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
		for (p = 0; p < DESCRIBE_PATHS && describe_paths[p].answer != type; p++)
			;
		if (p < DESCRIBE_PATHS)
			describe_paths[p].take(k, ev, a->now);
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
	askq a;
	size_t i, cap;
	unsigned gen = kafka_errors_gen(&k->errs);
	int rc, p;
	memset(&a, 0, sizeof a);
	a.k = k;
	a.r = r;
	a.now = r->time_us;
	a.token = next_token();
	cap = k->tab.n ? k->tab.n : 1;
	for (p = 0; p < DESCRIBE_PATHS; p++)
		a.dq[p].names = xmalloc(cap * sizeof *a.dq[p].names);
	a.offs = xmalloc(cap * sizeof *a.offs);
	for (i = 0; i < k->tab.n; i++) {
		kentry *e = &k->tab.e[i];
		/* never DescribeConsumerGroups where listing is unsupported: it hangs 2.0.2's admin handle */
		if (e->s.describe && !r->no_group_apis) {
			p = path_of(e);
			a.dq[p].names[a.dq[p].n++] = intern_group_name(e->s.id);
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
		for (p = 0; p < DESCRIBE_PATHS; p++)
			a.dq[p].n = a.dq[p].i = 0;
		a.no = a.oi = 0;
		a.retry = true;
		for (i = 0; i < k->tab.n; i++) {
			if (offsets_need_retry(&k->tab.e[i], a.now))
				a.offs[a.no++] = &k->tab.e[i];
		}
		rc = ask_run(&a, gen, err);
	}
	r->requests += a.sent;
	for (p = 0; p < DESCRIBE_PATHS; p++)
		free(a.dq[p].names);
	free(a.offs);
	return rc;
}

/* True when the refresh's listing heard nothing from the broker. */
bool
kafka_broker_silent(const ksrc *k, int32_t id)
{
	size_t i;
	for (i = 0; i < k->nsilent; i++) {
		if (k->silent[i] == id)
			return true;
	}
	return false;
}

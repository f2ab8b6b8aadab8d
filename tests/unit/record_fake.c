/*
 * record_fake.c: a scripted clock source, a capturing tap and exact
 * comparisons for the record/replay tests (see record_fake.h).
 */
#include "config.h"

#include "record_fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "util/util.h"

typedef struct rf_src {
	rf_script sc;
	int step; /* the step handed over, -1 before the first */
	bool done;
} rf_src;

/* Poll: hand over the next step. */
static int
rf_poll(kg_source *s, int64_t now)
{
	rf_src *f = s->impl;
	(void)now;
	if (f->step + 1 >= f->sc.nsteps)
		return 0;
	f->step++;
	if (f->step + 1 == f->sc.nsteps) {
		f->done = true;
		return KG_SRC_NEWS | KG_SRC_COMPLETE;
	}
	return KG_SRC_NEWS;
}

/* Drain: the step's observations. */
static void
rf_drain(kg_source *s, kg_obsq *q)
{
	rf_src *f = s->impl;
	if (f->step >= 0 && f->sc.obs != NULL)
		f->sc.obs(f->sc.arg, f->step, q);
}

/* Contribute: the step's state. */
static void
rf_contribute(kg_source *s, kg_builder *b)
{
	rf_src *f = s->impl;
	if (f->step >= 0)
		f->sc.state(f->sc.arg, f->step, b);
}

/* Next poll: now while steps remain. */
static int64_t
rf_next_poll(kg_source *s)
{
	rf_src *f = s->impl;
	return f->done ? 0 : 1;
}

/* Clock: the step's time. */
static int64_t
rf_clock(kg_source *s)
{
	rf_src *f = s->impl;
	return f->sc.time(f->sc.arg, f->step >= 0 ? f->step : 0);
}

/* Close. */
static void
rf_close(kg_source *s)
{
	free(s->impl);
}

static const kg_source_ops rf_ops = {
	.kind = "script",
	.poll = rf_poll,
	.drain = rf_drain,
	.contribute = rf_contribute,
	.next_poll = rf_next_poll,
	.clock = rf_clock,
	.close = rf_close,
};

/* A scripted source. */
kg_source *
rf_source_new(const rf_script *script)
{
	rf_src *f = xcalloc(1, sizeof *f);
	f->sc = *script;
	f->step = -1;
	return source_new(&rf_ops, "script", f);
}

/* Tap: copy the observations, forward. */
static void
cap_before(void *arg, const kg_obsq *obs, const kg_snapshot *snap)
{
	rf_capture *c = arg;
	size_t i;
	for (i = 0; obs != NULL && i < obs->n; i++) {
		util_grow(&c->obs, &c->cobs, c->nobs + 1, sizeof *c->obs);
		c->obs_tick = xreallocarray(c->obs_tick, c->cobs, sizeof *c->obs_tick);
		c->obs[c->nobs] = obs_dup(obs->v[i]);
		c->obs_tick[c->nobs] = (int)c->nsnaps;
		c->nobs++;
	}
	if (c->has_inner && c->inner.before != NULL)
		c->inner.before(c->inner.arg, obs, snap);
}

/* Tap: keep the snapshot and events, forward. */
static void
cap_after(void *arg, const kg_snapshot *snap, const kg_evlist *events)
{
	rf_capture *c = arg;
	size_t i;
	if (c->has_inner && c->inner.after != NULL)
		c->inner.after(c->inner.arg, snap, events);
	for (i = 0; i < events->n; i++)
		evlist_push(&c->ev, event_ref(events->v[i]));
	if (c->keep_snaps) {
		util_grow(&c->snaps, &c->csnaps, c->nsnaps + 1, sizeof *c->snaps);
		c->snaps[c->nsnaps] = snapshot_ref((kg_snapshot *)snap);
	}
	c->nsnaps++;
}

/* The capturing tap. */
void
rf_capture_tap(rf_capture *cap, const kg_tap *inner, kg_tap *out)
{
	if (inner != NULL) {
		cap->inner = *inner;
		cap->has_inner = true;
	}
	out->before = cap_before;
	out->after = cap_after;
	out->arg = cap;
}

/* Free a capture. */
void
rf_capture_free(rf_capture *c)
{
	size_t i;
	evlist_clear(&c->ev);
	free(c->ev.v);
	for (i = 0; c->snaps != NULL && i < c->nsnaps; i++)
		snapshot_unref(c->snaps[i]);
	free(c->snaps);
	for (i = 0; i < c->nobs; i++)
		obs_free(c->obs[i]);
	free(c->obs);
	free(c->obs_tick);
	memset(c, 0, sizeof *c);
}

/* Step until complete. */
int
rf_run(kg_collector *c, int max_steps)
{
	int frames = 0, i;
	for (i = 0; i < max_steps; i++) {
		kg_frame *f;
		int done;
		collector_step(c, 1000);
		f = collector_take(c);
		if (f == NULL)
			continue;
		frames++;
		done = f->complete > 0;
		frame_free(f);
		if (done)
			return frames;
	}
	return -1;
}

/* Possibly-NULL strings equal. */
static bool
seq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Partition sets equal by name (interned ids are shared in one process, names are what counts). */
static bool
tpeq(const kg_tp *a, int na, const kg_tp *b, int nb)
{
	int i;
	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		if (strcmp(intern_topic_name(a[i].topic), intern_topic_name(b[i].topic)) != 0 ||
		    a[i].partition != b[i].partition)
			return false;
	}
	return true;
}

/* Compare event lists. */
bool
rf_events_equal(const kg_evlist *a, const kg_evlist *b, char *why, size_t n)
{
	size_t i;
	for (i = 0; i < a->n && i < b->n; i++) {
		const kg_event *x = a->v[i], *y = b->v[i];
		const char *f = NULL;
		if (x->seq != y->seq)
			f = "seq";
		else if (x->time_us != y->time_us)
			f = "time";
		else if (x->kind != y->kind)
			f = "kind";
		else if (x->group != y->group)
			f = "group";
		else if (!seq(x->member_id, y->member_id))
			f = "member_id";
		else if (!seq(x->client_id, y->client_id))
			f = "client_id";
		else if (!seq(x->instance_id, y->instance_id))
			f = "instance_id";
		else if (x->lane != y->lane)
			f = "lane";
		else if (!tpeq(x->parts, x->nparts, y->parts, y->nparts))
			f = "partitions";
		else if (!tpeq(x->before, x->nbefore, y->before, y->nbefore))
			f = "before";
		else if (x->cls != y->cls)
			f = "class";
		else if (x->evidence != y->evidence)
			f = "evidence";
		else if (x->proto != y->proto)
			f = "protocol";
		else if (x->episode != y->episode)
			f = "episode";
		else if (x->round != y->round)
			f = "round";
		else if (x->generation != y->generation)
			f = "generation";
		else if (x->duration_us != y->duration_us)
			f = "duration";
		else if (x->lag_cost != y->lag_cost)
			f = "lag_cost";
		else if (x->reason != y->reason)
			f = "reason";
		else if (!seq(x->text, y->text))
			f = "text";
		else if (x->from != y->from || x->to != y->to)
			f = "from/to";
		else if (x->single_topic != y->single_topic)
			f = "single_topic";
		if (f != NULL) {
			sbuf s1 = { 0 }, s2 = { 0 };
			event_format(x, &s1);
			event_format(y, &s2);
			snprintf(why, n, "event %zu differs in %s: '%s' vs '%s'", i, f, sbuf_str(&s1), sbuf_str(&s2));
			sbuf_free(&s1);
			sbuf_free(&s2);
			return false;
		}
	}
	if (a->n != b->n) {
		snprintf(why, n, "%zu events vs %zu", a->n, b->n);
		return false;
	}
	return true;
}

/* Compare observation lists. */
bool
rf_obs_equal(const rf_capture *a, const rf_capture *b, char *why, size_t n)
{
	size_t i;
	if (a->nobs != b->nobs) {
		snprintf(why, n, "%zu observations vs %zu", a->nobs, b->nobs);
		return false;
	}
	for (i = 0; i < a->nobs; i++) {
		const kg_obs *x = a->obs[i], *y = b->obs[i];
		if (a->obs_tick[i] != b->obs_tick[i] || x->kind != y->kind || x->time_us != y->time_us ||
		    x->group != y->group || !seq(x->source, y->source) || !seq(x->member_id, y->member_id) ||
		    !seq(x->client_id, y->client_id) || !seq(x->instance_id, y->instance_id) || !seq(x->host, y->host) ||
		    !seq(x->text, y->text) || x->reason != y->reason || x->proto != y->proto ||
		    x->generation != y->generation || x->nmembers != y->nmembers ||
		    !tpeq(x->parts, x->nparts, y->parts, y->nparts) || x->session_timeout_ms != y->session_timeout_ms ||
		    x->max_poll_ms != y->max_poll_ms || x->hb_age_us != y->hb_age_us || x->poll_gap_us != y->poll_gap_us ||
		    x->poll_gap_max_us != y->poll_gap_max_us ||
		    x->rebalance_latency_avg_us != y->rebalance_latency_avg_us ||
		    x->rebalance_latency_max_us != y->rebalance_latency_max_us ||
		    x->rebalance_total != y->rebalance_total || x->failed_rebalances != y->failed_rebalances ||
		    x->assigned_count != y->assigned_count || x->value != y->value || x->hb_rate != y->hb_rate) {
			snprintf(why, n, "observation %zu (%s at tick %d) differs", i, obs_kind_name(x->kind), a->obs_tick[i]);
			return false;
		}
	}
	return true;
}

/* True when name is in the NULL-terminated list. */
static bool
skipped(const char *const *skip, const char *name)
{
	for (; skip != NULL && *skip != NULL; skip++) {
		if (strcmp(*skip, name) == 0)
			return true;
	}
	return false;
}

/* Compare the builder's fields of two snapshots. */
bool
rf_snapshot_equal(const kg_snapshot *a, const kg_snapshot *b, const char *const *skip, char *why, size_t n)
{
	int i = 0, j = 0, k, q;
	if (a->time_us != b->time_us)
		return snprintf(why, n, "time %lld vs %lld", (long long)a->time_us, (long long)b->time_us), false;
	if (!seq(a->cluster, b->cluster))
		return snprintf(why, n, "cluster '%s' vs '%s'", a->cluster, b->cluster), false;
	for (;;) {
		while (i < a->nsources && skipped(skip, a->sources[i].name))
			i++;
		while (j < b->nsources && skipped(skip, b->sources[j].name))
			j++;
		if (i >= a->nsources || j >= b->nsources) {
			if (i < a->nsources || j < b->nsources)
				return snprintf(why, n, "sources differ in number"), false;
			break;
		}
		{
			const kg_source_health *x = &a->sources[i++], *y = &b->sources[j++];
			if (strcmp(x->name, y->name) != 0 || x->status != y->status || x->since_us != y->since_us ||
			    x->last_ok_us != y->last_ok_us || !seq(x->message, y->message) || x->insecure != y->insecure)
				return snprintf(why, n, "source %s differs", x->name), false;
		}
	}
	if (a->nbrokers != b->nbrokers)
		return snprintf(why, n, "%d brokers vs %d", a->nbrokers, b->nbrokers), false;
	for (i = 0; i < a->nbrokers; i++) {
		if (a->brokers[i].id != b->brokers[i].id || a->brokers[i].port != b->brokers[i].port ||
		    !seq(a->brokers[i].host, b->brokers[i].host))
			return snprintf(why, n, "broker %d differs", i), false;
	}
	if (a->ntopics != b->ntopics)
		return snprintf(why, n, "%d topics vs %d", a->ntopics, b->ntopics), false;
	for (i = 0; i < a->ntopics; i++) {
		const kg_topic *x = &a->topics[i], *y = &b->topics[i];
		if (strcmp(x->name, y->name) != 0 || x->npartitions != y->npartitions)
			return snprintf(why, n, "topic %s differs", x->name), false;
		for (k = 0; k < x->npartitions; k++) {
			if (x->partitions[k].leader != y->partitions[k].leader || x->partitions[k].log_end != y->partitions[k].log_end)
				return snprintf(why, n, "topic %s partition %d differs", x->name, k), false;
		}
	}
	if (a->ngroups != b->ngroups)
		return snprintf(why, n, "%d groups vs %d", a->ngroups, b->ngroups), false;
	for (i = 0; i < a->ngroups; i++) {
		const kg_group *x = &a->groups[i], *y = &b->groups[i];
		if (strcmp(x->name, y->name) != 0 || x->state != y->state || !seq(x->protocol_type, y->protocol_type) ||
		    !seq(x->assignor, y->assignor) || x->proto != y->proto || x->coordinator != y->coordinator ||
		    x->simple != y->simple || x->exact != y->exact || !seq(x->error, y->error) || x->lag != y->lag ||
		    x->norphaned != y->norphaned || x->nidle != y->nidle || x->nmembers != y->nmembers ||
		    x->nparts != y->nparts || x->type != y->type || !seq(x->type_name, y->type_name) ||
		    !seq(x->state_name, y->state_name) || !seq(x->note, y->note) || x->members_unknown != y->members_unknown ||
		    x->data_time_us != y->data_time_us || x->offs_time_us != y->offs_time_us || x->pace_ms != y->pace_ms)
			return snprintf(why, n, "group %s differs", x->name), false;
		for (k = 0; k < x->nmembers; k++) {
			const kg_member *m = &x->members[k], *o = &y->members[k];
			if (!seq(m->member_id, o->member_id) || !seq(m->client_id, o->client_id) || !seq(m->host, o->host) ||
			    !seq(m->instance_id, o->instance_id) || m->flags != o->flags ||
			    !tpeq(m->assignment, m->nassigned, o->assignment, o->nassigned) || m->ntarget != o->ntarget ||
			    !tpeq(m->target, m->ntarget, o->target, o->ntarget))
				return snprintf(why, n, "group %s member %s differs", x->name, m->member_id), false;
		}
		for (q = 0; q < x->nparts; q++) {
			const kg_gpart *p = &x->parts[q], *o = &y->parts[q];
			if (!tpeq(&p->tp, 1, &o->tp, 1) || p->committed != o->committed || p->log_end != o->log_end ||
			    p->lag != o->lag || p->owner != o->owner || p->orphaned != o->orphaned)
				return snprintf(why, n, "group %s partition %d differs", x->name, q), false;
		}
	}
	return true;
}

/* Print events. */
void
rf_dump(const kg_evlist *l, int64_t t0)
{
	size_t i;
	for (i = 0; i < l->n; i++) {
		sbuf s = { 0 };
		event_format_line(l->v[i], t0, &s);
		fprintf(stderr, "# %s %s\n", intern_group_name(l->v[i]->group), sbuf_str(&s));
		sbuf_free(&s);
	}
}

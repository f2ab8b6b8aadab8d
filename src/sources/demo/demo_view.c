/*
 * demo_view.c: what the demo source publishes (drain and contribute).
 *
 * It is folded from the observations the source has handed over, never
 * from fresher state: drain() moves the observations (of each group, up
 * to its oldest one still held for a member id, see demo_int.h), folds them into a small
 * per-group view (who is a member, what it holds), writes them to
 * --export-trace, and contribute() reports that view.  So every snapshot
 * agrees with the observations that came with it.  The group state is
 * synthesized from the requests in flight: PreparingRebalance while a
 * member waits for its JoinGroup answer, CompletingRebalance while one
 * waits for SyncGroup, Stable otherwise; for the consumer protocol
 * (KIP-848) Assigning while a member's first heartbeat is unanswered and
 * Reconciling until it holds its assignment.  Committed and log-end offsets
 * come from the kafka source, which follows the demo groups through
 * kafka_source_watch().
 */
#include "config.h"

#include "sources/demo/demo_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/jsonl.h"
#include "util/log.h"
#include "util/util.h"

#define HELD_STALE_US (2LL * 1000000)     /* held observations stop holding back the queue */

/* The view group of an interned group id, NULL when not ours. */
static vgroup *
view_of(demo *d, int32_t gid)
{
	int i;
	for (i = 0; i < d->ngroups; i++) {
		if (d->groups[i].gid == gid)
			return &d->view[i];
	}
	return NULL;
}

/* Index of a member in a view group, -1 when absent. */
static int
view_find(const vgroup *vg, const char *id)
{
	int i;
	for (i = 0; id != NULL && i < vg->nm; i++) {
		if (strcmp(vg->m[i].id, id) == 0)
			return i;
	}
	return -1;
}

/* Free a view member's memory. */
static void
vmember_clear(vmember *m)
{
	free(m->id);
	free(m->client_id);
	free(m->instance_id);
	free(m->asg);
}

/* Fold one observation into the published view. */
static void
view_apply(demo *d, const kg_obs *o)
{
	vgroup *vg = view_of(d, o->group);
	int i;
	vmember *m;
	if (vg == NULL || o->member_id == NULL)
		return;
	i = view_find(vg, o->member_id);
	switch (o->kind) {
	case KG_OBS_JOINED:
		if (i >= 0)
			break;
		if (o->instance_id != NULL) {
			/* a static instance back under a new member id replaces its predecessor */
			int k;
			for (k = 0; k < vg->nm; k++) {
				if (vg->m[k].instance_id != NULL && strcmp(vg->m[k].instance_id, o->instance_id) == 0) {
					vmember_clear(&vg->m[k]);
					memmove(&vg->m[k], &vg->m[k + 1], (size_t)(vg->nm - k - 1) * sizeof *vg->m);
					vg->nm--;
					break;
				}
			}
		}
		vg->m = xreallocarray(vg->m, (size_t)vg->nm + 1, sizeof *vg->m);
		m = &vg->m[vg->nm++];
		memset(m, 0, sizeof *m);
		m->id = xstrdup(o->member_id);
		m->client_id = xstrdup(o->client_id);
		m->instance_id = xstrdup(o->instance_id);
		break;
	case KG_OBS_LEFT:
		if (i < 0 || (o->reason == KG_REASON_NONE && o->instance_id != NULL))
			break; /* a static member that closed stays a member until its session ends */
		vmember_clear(&vg->m[i]);
		memmove(&vg->m[i], &vg->m[i + 1], (size_t)(vg->nm - i - 1) * sizeof *vg->m);
		vg->nm--;
		break;
	case KG_OBS_ASSIGNED:
		if (o->proto != KG_PROTO_UNKNOWN)
			vg->proto = o->proto;
		if (i < 0)
			break;
		m = &vg->m[i];
		if ((o->proto == KG_PROTO_COOPERATIVE || o->proto == KG_PROTO_CONSUMER) && m->nasg > 0) {
			kg_tp *v = xmalloc((size_t)(m->nasg + o->nparts) * sizeof *v);
			memcpy(v, m->asg, (size_t)m->nasg * sizeof *v);
			if (o->nparts > 0)
				memcpy(v + m->nasg, o->parts, (size_t)o->nparts * sizeof *v);
			free(m->asg);
			m->asg = v;
			m->nasg = tp_sort_unique(v, m->nasg + o->nparts);
		} else {
			free(m->asg);
			m->asg = tp_dup(o->parts, o->nparts);
			m->nasg = m->asg ? o->nparts : 0;
		}
		break;
	case KG_OBS_REVOKED:
	case KG_OBS_LOST:
		if (o->proto != KG_PROTO_UNKNOWN)
			vg->proto = o->proto;
		if (i < 0 || vg->m[i].nasg == 0)
			break;
		m = &vg->m[i];
		if (o->nparts > 0) {
			kg_tp *v = xmalloc((size_t)m->nasg * sizeof *v);
			int k = tp_diff(m->asg, m->nasg, o->parts, o->nparts, v);
			free(m->asg);
			m->asg = k > 0 ? v : NULL;
			m->nasg = k;
			if (k == 0)
				free(v);
		}
		break;
	default:
		break;
	}
}

/* The assignors of a group's members, "range" or "range/cooperative-sticky" (locked). */
static void
group_assignors(const dgroup *g, char *buf, size_t n)
{
	size_t i, k;
	util_strlcpy(buf, g->assignor, n);
	for (i = 0; i < g->nc; i++) {
		const dcons *c = g->c[i];
		bool seen = strcmp(c->assignor, g->assignor) == 0;
		for (k = 0; k < i && !seen; k++)
			seen = strcmp(g->c[k]->assignor, c->assignor) == 0;
		if (!seen && !c->thread_done && strlen(buf) + strlen(c->assignor) + 2 < n) {
			strcat(buf, "/");
			strcat(buf, c->assignor);
		}
	}
}

/* Write one observation to --export-trace (kgtop-trace(5): a second kgtop can follow it). */
static void
demo_export(demo *d, const kg_obs *o)
{
	if (d->export_f == NULL || d->export_failed)
		return;
	if (jsonl_write_obs(d->export_f, o) < 0) {
		d->export_failed = true;
		snprintf(d->export_note, sizeof d->export_note, "--export-trace: %s", strerror(errno));
		log_msg(KG_LOG_WARN, "demo: %s; no more events are written", d->export_note);
	}
}

/* The watermark of the group an observation is about (the lowest of all for one of none). */
static int64_t
group_watermark(const demo *d, const int64_t *wm, int32_t gid)
{
	int64_t low = INT64_MAX;
	int gi;
	for (gi = 0; gi < d->ngroups; gi++) {
		if (d->groups[gi].gid == gid)
			return wm[gi];
		low = wm[gi] < low ? wm[gi] : low;
	}
	return low;
}

/* drain(): hand over observations in time order, fold them into the view. */
void
demo_view_drain(kg_source *s, kg_obsq *out)
{
	demo *d = s->impl;
	kg_obsq moved = { 0 };
	bool join[DEMO_MAX_GROUPS] = { false }, sync[DEMO_MAX_GROUPS] = { false };
	int64_t now, wm[DEMO_MAX_GROUPS];
	size_t i, k;
	int gi;

	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		wm[gi] = INT64_MAX;
		for (i = 0; i < g->nc; i++) {
			dcons *c = g->c[i];
			if (c->held.n > 0 && now - c->held.v[0]->time_us < HELD_STALE_US && c->held.v[0]->time_us < wm[gi])
				wm[gi] = c->held.v[0]->time_us;
			if (!c->thread_done && c->phase != DC_CRASHED && !c->static_return) {
				join[gi] = join[gi] || c->join_out;
				/*
				 * answered JoinGroup, no assignment yet, or assigned but not
				 * yet published (its member id is fetched after the poll):
				 * the group completes its rebalance
				 */
				sync[gi] = sync[gi] || c->sync_out || (c->join_response && (!c->synced || !c->listed));
			}
		}
	}
	/*
	 * Each group's observations in time order, up to its oldest held one:
	 * a member of one group waiting for its id (three seconds on the mock)
	 * must not hold back another group's heartbeats (they would look late).
	 */
	obsq_sort(&d->q);
	for (i = 0, k = 0; i < d->q.n; i++) {
		kg_obs *o = d->q.v[i];
		if (o->time_us < group_watermark(d, wm, o->group))
			obsq_push(&moved, o);
		else
			d->q.v[k++] = o;
	}
	d->q.n = k;
	for (gi = 0; gi < d->ngroups; gi++)
		group_assignors(&d->groups[gi], d->view[gi].assignor, sizeof d->view[gi].assignor);
	pthread_mutex_unlock(&d->lock);

	for (i = 0; i < moved.n; i++) {
		view_apply(d, moved.v[i]);
		demo_export(d, moved.v[i]);
		if (out != NULL)
			obsq_push(out, moved.v[i]);
		else
			obs_free(moved.v[i]);
	}
	free(moved.v);
	for (gi = 0; gi < d->ngroups; gi++) {
		vgroup *vg = &d->view[gi];
		bool kip = demo_assignor_proto(d->groups[gi].assignor) == KG_PROTO_CONSUMER;
		vg->state = join[gi]   ? (kip ? KG_STATE_ASSIGNING : KG_STATE_PREPARING_REBALANCE)
			    : sync[gi] ? (kip ? KG_STATE_RECONCILING : KG_STATE_COMPLETING_REBALANCE)
			    : vg->nm > 0 ? KG_STATE_STABLE
					 : KG_STATE_EMPTY;
	}
}

/* The health line (demo_health_format()). */
static void
health_message(demo *d, char *buf, size_t n)
{
	char script[200], error[560], prod[160], note[160];
	demo_health h;
	int gi;
	size_t i;
	int64_t now = util_now_us();
	memset(&h, 0, sizeof h);
	demo_script_status(&d->script, script, sizeof script);
	pthread_mutex_lock(&d->lock);
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++) {
			const dcons *c = d->groups[gi].c[i];
			h.consumers += !c->thread_done;
			h.mismatches += c->mismatches;
		}
	}
	util_strlcpy(error, d->error, sizeof error);
	util_strlcpy(prod, d->prod_error, sizeof prod);
	util_strlcpy(note, d->export_note, sizeof note);
	h.prod_error_age_us = d->prod_error_at > 0 ? now - d->prod_error_at : -1;
	pthread_mutex_unlock(&d->lock);
	demo_mock_note(d, error, sizeof error, now);
	h.scenario = d->sc->name;
	h.script = script;
	h.rate = d->rate;
	h.real = d->real;
	h.error = error;
	h.prod_error = prod;
	h.export_note = note;
	demo_health_format(buf, n, &h);
}

/* contribute(): the view, the topic and the demo's health. */
void
demo_view_contribute(kg_source *s, kg_builder *b)
{
	demo *d = s->impl;
	kg_source_health h;
	char msg[512];
	int gi, k;
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		vgroup *vg = &d->view[gi];
		kg_bgroup *bg = builder_group(b, g->gid);
		kg_proto proto = vg->proto != KG_PROTO_UNKNOWN ? vg->proto : demo_assignor_proto(g->assignor);
		bgroup_exact(bg, true);
		bgroup_proto(bg, proto);
		if (proto == KG_PROTO_CONSUMER) {
			/* KIP-848: the coordinator's assignor (the kafka source's description names it) */
			bgroup_type(bg, KG_GTYPE_CONSUMER, "consumer");
			bgroup_protocol(bg, "consumer", NULL);
		} else {
			bgroup_protocol(bg, "consumer", vg->assignor);
		}
		bgroup_state(bg, vg->state);
		bgroup_topic(bg, d->topic_id);
		if (g->coordinator >= 0)
			bgroup_coordinator(bg, g->coordinator);
		if (g->commit != DEMO_COMMIT_DEMO) {
			int64_t twice;
			pthread_mutex_lock(&d->lock);
			twice = g->reprocessed;
			pthread_mutex_unlock(&d->lock);
			bgroup_reprocessed(bg, twice, demo_commit_policy(g->commit));
		}
		for (k = 0; k < vg->nm; k++) {
			const vmember *m = &vg->m[k];
			kg_bmember *bm = bgroup_member(bg, m->id);
			bmember_ids(bm, m->client_id, d->real ? NULL : "/127.0.0.1", m->instance_id);
			bmember_assignment(bm, m->asg, m->nasg);
			bmember_flags(bm, KG_MEMBER_EXACT | (m->instance_id != NULL ? KG_MEMBER_STATIC : 0));
		}
	}
	builder_topic(b, d->topic_id, d->npart);
	if (d->offsets_partitions > 0)
		builder_offsets_partitions(b, d->offsets_partitions);
	health_message(d, msg, sizeof msg);
	memset(&h, 0, sizeof h);
	h.name = DEMO_SOURCE_NAME;
	h.status = KG_SRC_OK;
	h.since_us = d->started_us;
	h.last_ok_us = builder_time(b);
	h.message = msg;
	builder_source(b, &h);
}

/* Free the view's members. */
void
demo_view_free(demo *d)
{
	int gi, k;
	for (gi = 0; gi < d->ngroups; gi++) {
		for (k = 0; k < d->view[gi].nm; k++)
			vmember_clear(&d->view[gi].m[k]);
		free(d->view[gi].m);
		d->view[gi].m = NULL;
		d->view[gi].nm = 0;
	}
}

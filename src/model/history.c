/*
 * history.c: per-group rings of lanes, samples, episodes, lag and events.
 *
 * Every group has one hgroup, indexed by its interned id.  Samples,
 * episodes, lag points and verdict changes are vectors ordered by time; trimming drops the
 * front (compacted with memmove, amortised over many appends).  Events are
 * a bounded ring per group plus one cluster-wide ring.  The lock is held
 * by the tracker for a whole apply and by readers only while they copy.
 */
#include "config.h"

#include "model/history.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"

#define GROUP_EVENTS 4096
#define ALL_EVENTS 16384
#define LAG_POINTS 600

static void sample_clear(kg_sample *s);

typedef struct evring {
	kg_event **v;
	size_t cap;
	size_t head; /* index of the oldest */
	size_t n;
} evring;

typedef struct hgroup {
	kg_lane *lanes;
	size_t nlanes, clanes;
	kg_sample *samples;
	size_t nsamples, csamples;
	kg_episode **episodes;
	size_t nepisodes, cepisodes;
	int64_t *lag_t, *lag_v;
	size_t nlag, clag;
	kg_verdict_point *vp;   /* the group's verdict, a point where it changed */
	size_t nvp, cvp;
	evring events;
} hgroup;

struct kg_history {
	pthread_mutex_t lock;
	int64_t window;
	hgroup **groups;
	size_t cgroups;
	evring all;
};

static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* Create a history. */
kg_history *
history_new(int64_t window_us)
{
	kg_history *h = xcalloc(1, sizeof *h);
	pthread_mutex_init(&h->lock, NULL);
	h->window = window_us;
	return h;
}

/* Free a lane's strings. */
static void
lane_clear(kg_lane *l)
{
	free(l->client_id);
	free(l->member_id);
	free(l->instance_id);
	free(l->host);
	free(l->leave_text);
}

/* Set up a lane for a member identity (its strings copied), present from t_us. */
static void
lane_fill(kg_lane *l, int lane, const char *client_id, const char *member_id, const char *instance_id,
	  const char *host, int64_t t_us)
{
	l->lane = lane;
	l->letter = (size_t)lane < sizeof letters - 1 ? letters[lane] : '*';
	l->client_id = xstrdup(client_id ? client_id : "");
	l->member_id = xstrdup(member_id ? member_id : "");
	l->instance_id = xstrdup(instance_id);
	l->host = xstrdup(host ? host : "");
	l->first_seen_us = l->last_seen_us = t_us;
	l->present = true;
}

/* Drop every event of a ring. */
static void
evring_free(evring *r)
{
	size_t i;
	for (i = 0; i < r->n; i++)
		event_unref(r->v[(r->head + i) % r->cap]);
	free(r->v);
}

/* Free a history. */
void
history_free(kg_history *h)
{
	size_t i, j;
	if (h == NULL)
		return;
	for (i = 0; i < h->cgroups; i++) {
		hgroup *g = h->groups[i];
		if (g == NULL)
			continue;
		for (j = 0; j < g->nlanes; j++)
			lane_clear(&g->lanes[j]);
		free(g->lanes);
		for (j = 0; j < g->nsamples; j++)
			sample_clear(&g->samples[j]);
		free(g->samples);
		for (j = 0; j < g->nepisodes; j++) {
			episode_clear(g->episodes[j]);
			free(g->episodes[j]);
		}
		free(g->episodes);
		free(g->lag_t);
		free(g->lag_v);
		free(g->vp);
		evring_free(&g->events);
		free(g);
	}
	free(h->groups);
	evring_free(&h->all);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

/* The window. */
int64_t
history_window(const kg_history *h)
{
	return h->window;
}

/* Lock. */
void
history_lock(kg_history *h)
{
	pthread_mutex_lock(&h->lock);
}

/* Unlock. */
void
history_unlock(kg_history *h)
{
	pthread_mutex_unlock(&h->lock);
}

/* The group's record, created with create. */
static hgroup *
hgroup_get(kg_history *h, int32_t group, bool create)
{
	if (group < 0)
		return NULL;
	if ((size_t)group >= h->cgroups) {
		size_t old = h->cgroups, n = old ? old : 64;
		if (!create)
			return NULL;
		while (n <= (size_t)group)
			n *= 2;
		h->groups = xreallocarray(h->groups, n, sizeof *h->groups);
		memset(h->groups + old, 0, (n - old) * sizeof *h->groups);
		h->cgroups = n;
	}
	if (h->groups[group] == NULL && create) {
		hgroup *g = xcalloc(1, sizeof *g);
		h->groups[group] = g;
	}
	return h->groups[group];
}

/* ------------------------------------------------------------ samples */

/* Free a sample's arrays. */
static void
sample_clear(kg_sample *s)
{
	free(s->lane_status);
	free(s->lane_nassigned);
	free(s->parts);
	free(s->owner);
	free(s->pstat);
	memset(s, 0, sizeof *s);
}

/* Copy n elements of size sz (NULL for none). */
static void *
dup_array(const void *src, size_t n, size_t sz)
{
	void *d;
	if (src == NULL || n == 0)
		return NULL;
	d = xmalloc(n * sz);
	memcpy(d, src, n * sz);
	return d;
}

/* Deep-copy a sample. */
static void
sample_copy(kg_sample *dst, const kg_sample *src)
{
	*dst = *src;
	dst->lane_status = dup_array(src->lane_status, (size_t)src->nlanes, sizeof *src->lane_status);
	dst->lane_nassigned = dup_array(src->lane_nassigned, (size_t)src->nlanes, sizeof *src->lane_nassigned);
	dst->parts = dup_array(src->parts, (size_t)src->nparts, sizeof *src->parts);
	dst->owner = dup_array(src->owner, (size_t)src->nparts, sizeof *src->owner);
	dst->pstat = dup_array(src->pstat, (size_t)src->nparts, sizeof *src->pstat);
}

/* True when two samples show the same ownership. */
static bool
sample_same(const kg_sample *a, const kg_sample *b)
{
	if (a->state != b->state || a->in_episode != b->in_episode || a->nlanes != b->nlanes ||
	    a->nparts != b->nparts)
		return false;
	if (a->nlanes > 0 &&
	    (memcmp(a->lane_status, b->lane_status, (size_t)a->nlanes * sizeof *a->lane_status) != 0 ||
	     memcmp(a->lane_nassigned, b->lane_nassigned, (size_t)a->nlanes * sizeof *a->lane_nassigned) != 0))
		return false;
	if (a->nparts > 0 &&
	    (memcmp(a->parts, b->parts, (size_t)a->nparts * sizeof *a->parts) != 0 ||
	     memcmp(a->owner, b->owner, (size_t)a->nparts * sizeof *a->owner) != 0 ||
	     memcmp(a->pstat, b->pstat, (size_t)a->nparts * sizeof *a->pstat) != 0))
		return false;
	return true;
}

/* Store a copy of a sample unless unchanged (the caller's arrays stay the caller's). */
bool
history_add_sample(kg_history *h, int32_t group, const kg_sample *s)
{
	hgroup *g = hgroup_get(h, group, true);
	if (g->nsamples > 0) {
		kg_sample *last = &g->samples[g->nsamples - 1];
		if (sample_same(last, s)) {
			last->lag = s->lag;
			return false;
		}
		if (s->time_us <= last->time_us) {
			/* same instant (or earlier): the newer picture replaces the older */
			int64_t at = last->time_us;
			sample_clear(last);
			sample_copy(last, s);
			last->time_us = at;
			return true;
		}
	}
	/* one to begin with, not util_grow's 8: a group described once (--once, a quiet group) keeps one (at
	 * 10,000 groups 0.8 MB, not 6.4); doubling from there */
	util_grow_from(&g->samples, &g->csamples, g->nsamples + 1, sizeof *g->samples, 1);
	sample_copy(&g->samples[g->nsamples++], s);
	return true;
}

/* -------------------------------------------------------------- lanes */

/* Add a lane. */
int
history_lane_add(kg_history *h, int32_t group, const char *client_id, const char *member_id,
		 const char *instance_id, const char *host, int64_t t_us)
{
	hgroup *g = hgroup_get(h, group, true);
	util_grow(&g->lanes, &g->clanes, g->nlanes + 1, sizeof *g->lanes);
	memset(&g->lanes[g->nlanes], 0, sizeof *g->lanes);
	lane_fill(&g->lanes[g->nlanes], (int)g->nlanes, client_id, member_id, instance_id, host, t_us);
	return (int)g->nlanes++;
}

/* Give a lane (its row and letter) to another member identity. */
void
history_lane_reuse(kg_history *h, int32_t group, int lane, const char *client_id, const char *member_id,
		   const char *instance_id, const char *host, int64_t t_us)
{
	kg_lane *l = history_lane(h, group, lane);
	if (l == NULL)
		return;
	lane_clear(l);
	memset(l, 0, sizeof *l);
	lane_fill(l, lane, client_id, member_id, instance_id, host, t_us);
}

/* A stored lane. */
kg_lane *
history_lane(kg_history *h, int32_t group, int lane)
{
	hgroup *g = hgroup_get(h, group, false);
	if (g == NULL || lane < 0 || (size_t)lane >= g->nlanes)
		return NULL;
	return &g->lanes[lane];
}

/* Number of lanes. */
int
history_nlanes(kg_history *h, int32_t group)
{
	hgroup *g = hgroup_get(h, group, false);
	return g ? (int)g->nlanes : 0;
}

/* ------------------------------------------------------------ episodes */

/* Free an episode's contents. */
void
episode_clear(kg_episode *e)
{
	int i;
	for (i = 0; i < e->nmembers; i++) {
		kg_episode_member *m = &e->members[i];
		free(m->member_id);
		free(m->client_id);
		free(m->before);
		free(m->revoked);
		free(m->assigned);
	}
	free(e->members);
	free(e->trigger_text);
	memset(e, 0, sizeof *e);
}

/* Deep-copy an episode. */
static void
episode_copy(kg_episode *dst, const kg_episode *src)
{
	int i;
	*dst = *src;
	dst->trigger_text = xstrdup(src->trigger_text);
	dst->members = NULL;
	if (src->nmembers > 0) {
		dst->members = xcalloc((size_t)src->nmembers, sizeof *dst->members);
		for (i = 0; i < src->nmembers; i++) {
			const kg_episode_member *s = &src->members[i];
			kg_episode_member *d = &dst->members[i];
			*d = *s;
			d->member_id = xstrdup(s->member_id);
			d->client_id = xstrdup(s->client_id);
			d->before = tp_dup(s->before, s->nbefore);
			d->revoked = tp_dup(s->revoked, s->nrevoked);
			d->assigned = tp_dup(s->assigned, s->nassigned);
		}
	}
}

/*
 * The record of a lane in an episode: a lane is a consumer, and a
 * consumer may have had two incarnations in one episode (a static member
 * back under a new member id, a member that left and joined again): the
 * one that stayed tells what the episode did to the lane, else the last.
 */
const kg_episode_member *
episode_member(const kg_episode *e, int lane)
{
	const kg_episode_member *last = NULL, *stayed = NULL;
	int i;
	for (i = 0; i < e->nmembers; i++) {
		if (e->members[i].lane != lane)
			continue;
		last = &e->members[i];
		if (!last->left)
			stayed = last;
	}
	return stayed != NULL ? stayed : last;
}

/*
 * An episode's duration within bounds: at least from the latest it can
 * have begun to the earliest it can have ended, at most from the earliest
 * to the latest; max -1 when its start is not known (in progress when
 * kgtop first saw the group).
 */
kg_span
episode_duration(const kg_episode *e, int64_t now_us)
{
	kg_span d;
	int64_t end = e->end_us ? e->end_us : now_us, end_lo = e->end_us ? e->end_lo_us : now_us;
	if (end_lo <= 0 || end_lo > end)
		end_lo = end;
	d.min = end_lo - e->start_us;
	if (d.min < 0)
		d.min = 0;
	d.max = e->start_lo_us > 0 && e->start_lo_us <= e->start_us ? end - e->start_lo_us : -1;
	if (e->start_lo_us == e->start_us)
		d.max = end - e->start_us;
	if (d.max >= 0 && d.max < d.min)
		d.max = d.min;
	if (e->end_unseen)
		d.max = -1;
	return d;
}

/*
 * Store a new episode, in the order of the starts: the last is the latest
 * begun.  An episode is mostly new, but one the coordinator's records tell
 * of late (a rebalance before kgtop watched, read after polling saw a
 * later one) goes before those that began after it: the group's last
 * rebalance, the counts since a time and the timeline read them in order.
 */
kg_episode *
history_add_episode(kg_history *h, const kg_episode *e)
{
	hgroup *g = hgroup_get(h, e->group, true);
	kg_episode *c = xmalloc(sizeof *c);
	size_t at = g->nepisodes;
	episode_copy(c, e);
	util_grow(&g->episodes, &g->cepisodes, g->nepisodes + 1, sizeof *g->episodes);
	while (at > 0 && g->episodes[at - 1]->start_us > c->start_us)
		at--;
	memmove(g->episodes + at + 1, g->episodes + at, (g->nepisodes - at) * sizeof *g->episodes);
	g->episodes[at] = c;
	g->nepisodes++;
	/*
	 * Numbers follow the order the episodes began: one told late (the
	 * coordinator's records of a rebalance before kgtop watched, read after
	 * polling numbered a later one) takes the number of the one after it,
	 * and each later one is one more.
	 */
	if (at + 1 < g->nepisodes && c->number > g->episodes[at + 1]->number) {
		size_t i;
		c->number = g->episodes[at + 1]->number;
		for (i = at + 1; i < g->nepisodes; i++)
			g->episodes[i]->number++;
	}
	return c;
}

/* Find an episode by id. */
kg_episode *
history_episode(kg_history *h, int32_t group, int64_t id)
{
	hgroup *g = hgroup_get(h, group, false);
	size_t i;
	if (g == NULL)
		return NULL;
	for (i = g->nepisodes; i > 0; i--) {
		if (g->episodes[i - 1]->id == id)
			return g->episodes[i - 1];
	}
	return NULL;
}

/* Count episodes started since a time. */
int
history_count_episodes(kg_history *h, int32_t group, int64_t since_us)
{
	hgroup *g = hgroup_get(h, group, false);
	size_t i;
	int n = 0;
	if (g == NULL)
		return 0;
	for (i = g->nepisodes; i > 0 && g->episodes[i - 1]->start_us >= since_us; i--)
		n++;
	return n;
}

/* ----------------------------------------------------------------- lag */

/* Add a lag point, thinned. */
void
history_add_lag(kg_history *h, int32_t group, int64_t t_us, int64_t lag)
{
	hgroup *g = hgroup_get(h, group, true);
	int64_t spacing = h->window / LAG_POINTS;
	if (g->nlag > 0 && t_us - g->lag_t[g->nlag - 1] < spacing && g->nlag > 1 &&
	    g->lag_t[g->nlag - 1] - g->lag_t[g->nlag - 2] < spacing) {
		g->lag_t[g->nlag - 1] = t_us;
		g->lag_v[g->nlag - 1] = lag;
		return;
	}
	if (g->nlag >= g->clag) {
		/* one to begin with, not util_grow's 8: a group described once (--once) keeps one point (at 10,000
		 * groups 0.16 MB, not 1.3) */
		size_t c = g->clag;
		util_grow_from(&g->lag_t, &c, g->nlag + 1, sizeof *g->lag_t, 1);
		util_grow_from(&g->lag_v, &g->clag, g->nlag + 1, sizeof *g->lag_v, 1);
	}
	g->lag_t[g->nlag] = t_us;
	g->lag_v[g->nlag] = lag;
	g->nlag++;
}

/* A group's verdict at t: a new point where it changed (every change is kept, so the past is exact). */
static void
verdict_add(hgroup *g, int64_t t_us, uint8_t verdict)
{
	if (g->nvp > 0 && g->vp[g->nvp - 1].verdict == verdict)
		return;
	if (g->nvp >= g->cvp)
		util_grow_from(&g->vp, &g->cvp, g->nvp + 1, sizeof *g->vp, 1); /* most groups' verdict seldom changes */
	g->vp[g->nvp++] = (kg_verdict_point){ t_us, verdict };
}

/* Note every group's verdict of a snapshot. */
void
history_add_verdicts(kg_history *h, const kg_snapshot *snap)
{
	int i;
	history_lock(h);
	for (i = 0; snap != NULL && i < snap->ngroups; i++) {
		const kg_group *G = &snap->groups[i];
		hgroup *g = hgroup_get(h, G->id, G->verdict != KG_VERDICT_NONE);
		if (g != NULL)
			verdict_add(g, snap->time_us, G->verdict);
	}
	history_unlock(h);
}

/* The verdict point in effect at t. */
bool
history_verdict_at(kg_history *h, int32_t group, int64_t t_us, kg_verdict_point *out)
{
	hgroup *g;
	size_t lo = 0, hi;
	bool found = false;
	history_lock(h);
	g = hgroup_get(h, group, false);
	hi = g != NULL ? g->nvp : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->vp[mid].time_us <= t_us) {
			*out = g->vp[mid];
			found = true;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	history_unlock(h);
	return found;
}

/* -------------------------------------------------------------- events */

/* Push onto a ring that grows up to max, then drops the oldest. */
static void
evring_push(evring *r, kg_event *e, size_t max)
{
	if (r->n == r->cap && r->cap < max) {
		size_t ncap = r->cap ? r->cap * 2 : 16, i;
		kg_event **v;
		if (ncap > max)
			ncap = max;
		v = xcalloc(ncap, sizeof *v);
		for (i = 0; i < r->n; i++)
			v[i] = r->v[(r->head + i) % r->cap];
		free(r->v);
		r->v = v;
		r->cap = ncap;
		r->head = 0;
	}
	if (r->n == r->cap) {
		event_unref(r->v[r->head]);
		r->v[r->head] = e;
		r->head = (r->head + 1) % r->cap;
	} else {
		r->v[(r->head + r->n) % r->cap] = e;
		r->n++;
	}
}

/* Append an event. */
void
history_add_event(kg_history *h, kg_event *e)
{
	hgroup *g = hgroup_get(h, e->group, e->group >= 0);
	if (g != NULL)
		evring_push(&g->events, event_ref(e), GROUP_EVENTS);
	evring_push(&h->all, event_ref(e), ALL_EVENTS);
}

/* Copy events newest first. */
int
history_events(kg_history *h, int32_t group, uint64_t before_seq, kg_event **out, int max)
{
	evring *r;
	int n = 0;
	size_t i;
	history_lock(h);
	if (group >= 0) {
		hgroup *g = hgroup_get(h, group, false);
		r = g ? &g->events : NULL;
	} else {
		r = &h->all;
	}
	for (i = r ? r->n : 0; i > 0 && n < max; i--) {
		kg_event *e = r->v[(r->head + i - 1) % r->cap];
		if (before_seq != 0 && e->seq >= before_seq)
			continue;
		out[n++] = event_ref(e);
	}
	history_unlock(h);
	return n;
}

/* ---------------------------------------------------------------- trim */

/* Drop events older than cutoff from a ring. */
static void
evring_trim(evring *r, int64_t cutoff)
{
	while (r->n > 0 && r->v[r->head]->time_us < cutoff) {
		event_unref(r->v[r->head]);
		r->head = (r->head + 1) % r->cap;
		r->n--;
	}
}

/* Drop what is older than the window. */
void
history_trim(kg_history *h, int64_t now_us)
{
	int64_t cutoff = now_us - h->window;
	size_t i, k;
	for (i = 0; i < h->cgroups; i++) {
		hgroup *g = h->groups[i];
		if (g == NULL)
			continue;
		/* keep the last sample that starts before the cutoff: it is in effect there */
		for (k = 0; k + 1 < g->nsamples && g->samples[k + 1].time_us <= cutoff; k++)
			sample_clear(&g->samples[k]);
		if (k > 0) {
			memmove(g->samples, g->samples + k, (g->nsamples - k) * sizeof *g->samples);
			g->nsamples -= k;
		}
		for (k = 0; k < g->nepisodes && g->episodes[k]->end_us != 0 && g->episodes[k]->end_us < cutoff; k++) {
			episode_clear(g->episodes[k]);
			free(g->episodes[k]);
		}
		if (k > 0) {
			memmove(g->episodes, g->episodes + k, (g->nepisodes - k) * sizeof *g->episodes);
			g->nepisodes -= k;
		}
		for (k = 0; k < g->nlag && g->lag_t[k] < cutoff; k++)
			;
		if (k > 0) {
			memmove(g->lag_t, g->lag_t + k, (g->nlag - k) * sizeof *g->lag_t);
			memmove(g->lag_v, g->lag_v + k, (g->nlag - k) * sizeof *g->lag_v);
			g->nlag -= k;
		}
		/* keep the last verdict point before the cutoff: it is in effect there */
		for (k = 0; k + 1 < g->nvp && g->vp[k + 1].time_us <= cutoff; k++)
			;
		if (k > 0) {
			memmove(g->vp, g->vp + k, (g->nvp - k) * sizeof *g->vp);
			g->nvp -= k;
		}
		evring_trim(&g->events, cutoff);
	}
	evring_trim(&h->all, cutoff);
}

/* ---------------------------------------------------------------- views */

/* Copy a window of one group. */
kg_hview *
history_view(kg_history *h, int32_t group, int64_t t0_us, int64_t t1_us)
{
	kg_hview *v = xcalloc(1, sizeof *v);
	hgroup *g;
	size_t i, first;
	v->group = group;
	v->t0_us = t0_us;
	v->t1_us = t1_us;
	history_lock(h);
	g = hgroup_get(h, group, false);
	if (g == NULL)
		goto out;
	v->nlanes = (int)g->nlanes;
	v->lanes = xcalloc(g->nlanes ? g->nlanes : 1, sizeof *v->lanes);
	for (i = 0; i < g->nlanes; i++) {
		kg_lane *d = &v->lanes[i], *s = &g->lanes[i];
		*d = *s;
		d->client_id = xstrdup(s->client_id);
		d->member_id = xstrdup(s->member_id);
		d->instance_id = xstrdup(s->instance_id);
		d->host = xstrdup(s->host);
		d->leave_text = xstrdup(s->leave_text);
	}
	if (g->nsamples > 0)
		v->oldest_us = g->samples[0].time_us;
	/* the sample in effect at t0, then every sample up to t1 */
	first = 0;
	for (i = 0; i < g->nsamples; i++) {
		if (g->samples[i].time_us <= t0_us)
			first = i;
		else
			break;
	}
	for (i = first; i < g->nsamples && g->samples[i].time_us <= t1_us; i++)
		;
	v->nsamples = (int)(i - first);
	v->samples = xcalloc(v->nsamples ? (size_t)v->nsamples : 1, sizeof *v->samples);
	for (i = 0; i < (size_t)v->nsamples; i++)
		sample_copy(&v->samples[i], &g->samples[first + i]);
	/* episodes overlapping the window */
	v->episodes = xcalloc(g->nepisodes ? g->nepisodes : 1, sizeof *v->episodes);
	for (i = 0; i < g->nepisodes; i++) {
		const kg_episode *e = g->episodes[i];
		if (e->start_us > t1_us || (e->end_us != 0 && e->end_us < t0_us))
			continue;
		episode_copy(&v->episodes[v->nepisodes++], e);
	}
	v->lag_t = xcalloc(g->nlag ? g->nlag : 1, sizeof *v->lag_t);
	v->lag_v = xcalloc(g->nlag ? g->nlag : 1, sizeof *v->lag_v);
	for (i = 0; i < g->nlag; i++) {
		if (g->lag_t[i] < t0_us || g->lag_t[i] > t1_us)
			continue;
		v->lag_t[v->nlag] = g->lag_t[i];
		v->lag_v[v->nlag] = g->lag_v[i];
		v->nlag++;
	}
out:
	history_unlock(h);
	return v;
}

/* Free a view. */
void
hview_free(kg_hview *v)
{
	int i;
	if (v == NULL)
		return;
	for (i = 0; i < v->nlanes; i++)
		lane_clear(&v->lanes[i]);
	free(v->lanes);
	for (i = 0; i < v->nsamples; i++)
		sample_clear(&v->samples[i]);
	free(v->samples);
	for (i = 0; i < v->nepisodes; i++)
		episode_clear(&v->episodes[i]);
	free(v->episodes);
	free(v->lag_t);
	free(v->lag_v);
	free(v);
}

/* The sample in effect at t. */
const kg_sample *
hview_sample_at(const kg_hview *v, int64_t t_us)
{
	int lo = 0, hi = v->nsamples - 1, best = -1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (v->samples[mid].time_us <= t_us) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best >= 0 ? &v->samples[best] : NULL;
}

/* A lane of a view. */
const kg_lane *
hview_lane(const kg_hview *v, int lane)
{
	if (lane < 0 || lane >= v->nlanes)
		return NULL;
	return &v->lanes[lane];
}

/* Copy a group's episodes. */
int
history_episodes(kg_history *h, int32_t group, kg_episode **out)
{
	hgroup *g;
	size_t i;
	int n = 0;
	*out = NULL;
	history_lock(h);
	g = hgroup_get(h, group, false);
	if (g != NULL && g->nepisodes > 0) {
		*out = xcalloc(g->nepisodes, sizeof **out);
		for (i = 0; i < g->nepisodes; i++)
			episode_copy(&(*out)[n++], g->episodes[i]);
	}
	history_unlock(h);
	return n;
}

/* Free a list of episodes. */
void
episodes_free(kg_episode *v, int n)
{
	int i;
	for (i = 0; i < n; i++)
		episode_clear(&v[i]);
	free(v);
}

/* Start of the next (dir > 0) or previous (dir < 0) episode relative to t. */
int64_t
history_next_episode(kg_history *h, int32_t group, int64_t t_us, int dir)
{
	int64_t best = 0;
	size_t gi, i;
	history_lock(h);
	for (gi = 0; gi < h->cgroups; gi++) {
		hgroup *g = h->groups[gi];
		if (g == NULL || (group >= 0 && (int32_t)gi != group))
			continue;
		for (i = 0; i < g->nepisodes; i++) {
			int64_t s = g->episodes[i]->start_us;
			if (dir > 0 && s > t_us && (best == 0 || s < best))
				best = s;
			if (dir < 0 && s < t_us && (best == 0 || s > best))
				best = s;
		}
	}
	history_unlock(h);
	return best;
}

/* Episodes of a group started in [from, to), for a reader: under the lock. */
int
history_episodes_started(kg_history *h, int32_t group, int64_t from_us, int64_t to_us)
{
	int n;
	history_lock(h);
	n = history_count_episodes(h, group, from_us) - history_count_episodes(h, group, to_us);
	history_unlock(h);
	return n;
}

/* Approximate bytes held. */
size_t
history_bytes(kg_history *h)
{
	size_t total = sizeof *h, i, k;
	history_lock(h);
	total += h->cgroups * sizeof *h->groups + h->all.cap * sizeof *h->all.v;
	for (i = 0; i < h->cgroups; i++) {
		hgroup *g = h->groups[i];
		if (g == NULL)
			continue;
		total += sizeof *g + g->clanes * sizeof *g->lanes + g->csamples * sizeof *g->samples +
			 g->cepisodes * sizeof *g->episodes + g->clag * 16 + g->cvp * sizeof *g->vp +
			 g->events.cap * sizeof *g->events.v;
		for (k = 0; k < g->nsamples; k++) {
			const kg_sample *s = &g->samples[k];
			total += (size_t)s->nlanes * 3 + (size_t)s->nparts * (sizeof(kg_tp) + 3);
		}
		for (k = 0; k < g->nepisodes; k++)
			total += sizeof(kg_episode) + (size_t)g->episodes[k]->nmembers * sizeof(kg_episode_member);
	}
	history_unlock(h);
	return total;
}

/* Lag at or before t. */
int64_t
history_lag_at(kg_history *h, int32_t group, int64_t t_us)
{
	hgroup *g = hgroup_get(h, group, false);
	size_t lo = 0, hi, best = SIZE_MAX;
	if (g == NULL || g->nlag == 0)
		return -1;
	hi = g->nlag;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->lag_t[mid] <= t_us) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return best == SIZE_MAX ? -1 : g->lag_v[best];
}

/* Time rebalancing in a window, and episodes started in it. */
int64_t
history_rebalancing_time(kg_history *h, int32_t group, int64_t since_us, int64_t now_us, int *count,
			 int *rounds)
{
	hgroup *g = hgroup_get(h, group, false);
	int64_t total = 0;
	size_t i;
	*count = 0;
	*rounds = 0;
	if (g == NULL)
		return 0;
	for (i = g->nepisodes; i > 0; i--) {
		const kg_episode *e = g->episodes[i - 1];
		int64_t s = e->start_us, end = e->end_us ? e->end_us : now_us;
		if (end < since_us)
			break;
		if (s >= since_us)
			(*count)++;
		*rounds += e->rounds;
		if (s < since_us)
			s = since_us;
		if (end > s)
			total += end - s;
	}
	return total;
}

/* The episodes of a group that started at or after since_us, oldest first, up to max (lock held); their number. */
int
history_episodes_since(kg_history *h, int32_t group, int64_t since_us, const kg_episode **out, int max)
{
	hgroup *g = hgroup_get(h, group, false);
	size_t i, first;
	int n = 0;
	if (g == NULL)
		return 0;
	for (first = g->nepisodes; first > 0 && g->episodes[first - 1]->start_us >= since_us; first--)
		;
	if (g->nepisodes - first > (size_t)max)
		first = g->nepisodes - (size_t)max; /* the newest max of them */
	for (i = first; i < g->nepisodes; i++)
		out[n++] = g->episodes[i];
	return n;
}

/* The last episode. */
kg_episode *
history_last_episode(kg_history *h, int32_t group)
{
	hgroup *g = hgroup_get(h, group, false);
	if (g == NULL || g->nepisodes == 0)
		return NULL;
	return g->episodes[g->nepisodes - 1];
}

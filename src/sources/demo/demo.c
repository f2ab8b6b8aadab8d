/*
 * demo.c: the embedded demo as a source (see demo.h and demo_int.h): its
 * groups, the script's world, the UI's commands, and its life.
 *
 * The mock cluster (three brokers) or a real cluster, a topic and a
 * producer thread at a steady rate so lag moves (demo_cluster.c), and per
 * group a fleet of real consumers (demo_consumer.c).  The script
 * (demo_script.c) and the UI's commands run on the collector thread, in
 * poll() and command(); they only set requests that the consumers' own
 * threads carry out, so the collector never waits for a rebalance or a
 * close.  What the source publishes (drain, contribute) is demo_view.c's.
 *
 * Timings on the mock (librdkafka 2.0.2): session.timeout.ms 4000,
 * heartbeat.interval.ms 1000, max.poll.interval.ms 6000 (it must be at
 * least the session timeout; below about 3000 members expire during their
 * first join).  Rounds take about three seconds.  On a real cluster the
 * brokers' group.min.session.timeout.ms (6000 by default) rules those out:
 * 10000 / 3000 / 15000 there.
 */
#include "config.h"

#include "sources/demo/demo.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "model/defaults.h"
#include "model/intern.h"
#include "sources/demo/demo_int.h"
#include "sources/kafka/kafka.h"
#include "util/secfile.h"
#include "util/util.h"

#define SETTLE_QUIET_US (1500LL * 1000)   /* no rebalance activity for this long: settled */
#define RESUME_AFTER_SETTLE_US (2LL * 1000000)
#define QUICK_RETURN_US (1LL * 1000000)
#define STALL_CAP_US (20LL * 1000000)     /* a stall ends at the latest this long past the limit */
/*
 * close(): consumers get this long to leave, then they are left behind.  On
 * the mock cluster, which goes with kgtop, a short while: kgtop ends within
 * half a second of --duration (a consumer in the middle of a JoinGroup
 * would hold librdkafka's destroy for seconds).
 */
#define CLOSE_WAIT_MOCK_US (300LL * 1000)
#define CLOSE_WAIT_REAL_US (8LL * 1000000)
#define MAX_CONSUMERS 32
#define MAX_PER_GROUP 12

static void demo_close(kg_source *s);

/* --------------------------------------------------------------- groups */

/* Lowest free letter. */
static int
dgroup_free_idx(const dgroup *g)
{
	int idx;
	for (idx = 0;; idx++) {
		size_t i;
		bool used = false;
		for (i = 0; i < g->nc && !used; i++)
			used = g->c[i]->idx == idx;
		if (!used)
			return idx;
	}
}

/* Free a finished consumer. */
static void
dcons_free(dcons *c)
{
	if (c == NULL)
		return;
	obsq_clear(&c->held);
	free(c->held.v);
	free(c->id);
	free(c->last_id);
	free(c->asg);
	free(c->stale);
	free(c);
}

/* True when c can be asked to act (leave, crash, stall) (locked). */
static bool
can_act(const dcons *c)
{
	/* ever_assigned: see sticky_safe() in demo_consumer.c */
	return !c->thread_done && c->phase == DC_RUNNING && c->listed && c->ever_assigned && !c->req_leave &&
	       !c->req_crash && !c->restart;
}

/* The member which (oldest first, or DEMO_NEWEST) among those that can act (locked). */
static dcons *
pick_member(dgroup *g, int which)
{
	dcons *v[MAX_CONSUMERS];
	size_t i;
	int n = 0;
	for (i = 0; i < g->nc && n < MAX_CONSUMERS; i++) {
		if (can_act(g->c[i]))
			v[n++] = g->c[i];
	}
	if (n == 0)
		return NULL;
	if (which < 0 || which >= n)
		return v[n - 1];
	return v[which];
}

/* Consumers that are, or will be, members (locked). */
static int
live_count(const dgroup *g)
{
	size_t i;
	int n = 0;
	for (i = 0; i < g->nc; i++) {
		const dcons *c = g->c[i];
		if (!c->thread_done && !c->req_leave && !c->req_crash && c->phase != DC_LEAVING)
			n++;
	}
	return n;
}

/* Consumers not yet freed, in every group (locked). */
static int
total_count(const demo *d)
{
	int i, n = 0;
	for (i = 0; i < d->ngroups; i++)
		n += (int)d->groups[i].nc;
	return n;
}

/*
 * Settled: nobody rejoining, syncing, leaving or awaiting eviction, every
 * running member listed and synced, every partition owned, and no
 * rebalance activity for a moment (locked).
 */
static bool
group_settled(const demo *d, const dgroup *g, int64_t now)
{
	kg_tp *cover = NULL;
	int ncover = 0, listed = 0;
	size_t i;
	bool ok = true;
	for (i = 0; i < g->nc && ok; i++) {
		const dcons *c = g->c[i];
		if (c->evict_pending)
			ok = false;
		else if (c->thread_done)
			continue;
		else if (c->join_out || c->sync_out || c->req_leave || c->req_crash || c->phase == DC_LEAVING)
			ok = false;
		else if (c->phase == DC_STALLED && c->kicked)
			continue;
		else if (!c->listed || !c->synced)
			ok = false;
		else {
			listed++;
			if (c->nasg > 0) {
				cover = xreallocarray(cover, (size_t)(ncover + c->nasg), sizeof *cover);
				memcpy(cover + ncover, c->asg, (size_t)c->nasg * sizeof *cover);
				ncover = tp_sort_unique(cover, ncover + c->nasg);
			}
		}
	}
	if (ok && listed > 0 && ncover < d->npart)
		ok = false;
	if (ok && now - g->last_activity < SETTLE_QUIET_US)
		ok = false;
	free(cover);
	return ok;
}

/* Find a group by the name typed ("" is the first). */
static dgroup *
find_group(demo *d, const char *typed)
{
	int i;
	if (typed == NULL || *typed == '\0')
		return d->ngroups > 0 ? &d->groups[0] : NULL;
	for (i = 0; i < d->ngroups; i++) {
		if (demo_group_matches(d->groups[i].name, typed))
			return &d->groups[i];
	}
	return NULL;
}

/* On the mock, a member whose assignor differs from those in the group aborts the process (locked). */
static bool
assignor_clash(const dgroup *g, const char *assignor)
{
	size_t i;
	for (i = 0; i < g->nc; i++) {
		const dcons *c = g->c[i];
		if ((!c->thread_done || c->evict_pending || c->listed) && strcmp(c->assignor, assignor) != 0)
			return true;
	}
	return false;
}

/* Start a member in g (collector thread); NULL with err. */
static dcons *
add_member(demo *d, dgroup *g, const char *assignor, char *err, size_t errsz)
{
	int idx, total, n;
	pthread_mutex_lock(&d->lock);
	idx = dgroup_free_idx(g);
	total = total_count(d);
	n = (int)g->nc;
	if (!d->real && assignor_clash(g, assignor)) {
		pthread_mutex_unlock(&d->lock);
		util_err(err, errsz,
			 "refused: %s uses another assignor, and the mock cluster aborts when a group mixes them "
			 "(empty the group first, or run the demo on a real cluster with -b)",
			 g->name);
		return NULL;
	}
	pthread_mutex_unlock(&d->lock);
	if (n >= MAX_PER_GROUP || total >= MAX_CONSUMERS) {
		util_err(err, errsz, "enough members (%d per group, %d in all)", MAX_PER_GROUP, MAX_CONSUMERS);
		return NULL;
	}
	return dcons_start(d, g, idx, assignor, err, errsz);
}

/* What a member is asked to do, in a word. */
static const char *
action_verb(demo_action act)
{
	switch (act) {
	case DEMO_ACT_LEAVE:
		return "leave";
	case DEMO_ACT_CRASH:
		return "crash";
	case DEMO_ACT_RESTART:
		return "restart";
	default:
		return "stall";
	}
}

/*
 * Ask member which of g (see pick_member) to leave, crash, stall or
 * restart; its own thread carries it out.  The member, NULL when none can
 * act.
 */
static dcons *
request(demo *d, dgroup *g, int which, demo_action act, bool quick_return)
{
	dcons *c;
	pthread_mutex_lock(&d->lock);
	c = pick_member(g, which);
	if (c != NULL) {
		if (act == DEMO_ACT_LEAVE) {
			c->req_leave = true;
		} else if (act == DEMO_ACT_CRASH) {
			c->req_crash = true;
			c->crash_asked = util_mono_us();
		} else if (act == DEMO_ACT_RESTART) {
			c->restart = true;
			c->req_leave = true;
		} else {
			c->phase = DC_STALLED;
			c->stall_start = 0;
			c->kicked = false;
			c->settled_seen = 0;
			c->quick_return = quick_return;
		}
		pthread_cond_broadcast(&d->cond);
	}
	pthread_mutex_unlock(&d->lock);
	return c;
}

/* ------------------------------------------------------- script's world */

/* Start a script step on group gi. */
static int
world_act(void *arg, int gi, const demo_step *st, char *err, size_t errsz)
{
	demo *d = arg;
	dgroup *g = &d->groups[gi];
	dcons *t = NULL;
	g->target = NULL;
	g->target_failed = false;
	switch (st->action) {
	case DEMO_ACT_ADD:
		t = add_member(d, g, g->assignor, err, errsz);
		break;
	case DEMO_ACT_REFILL: {
		int missing;
		pthread_mutex_lock(&d->lock);
		missing = g->start_members - live_count(g);
		pthread_mutex_unlock(&d->lock);
		while (missing-- > 0) {
			t = add_member(d, g, g->assignor, err, errsz);
			if (t == NULL)
				break;
		}
		if (t == NULL && err[0] != '\0')
			break;
		g->target = NULL; /* the wait is on the whole group */
		return 0;
	}
	case DEMO_ACT_LEAVE:
	case DEMO_ACT_CRASH:
	case DEMO_ACT_STALL:
	case DEMO_ACT_RESTART:
		t = request(d, g, st->which, st->action, st->quick_return);
		if (t == NULL)
			util_err(err, errsz, "no member can act");
		else
			log_msg(KG_LOG_INFO, "demo: %s/%s: the script asks it to %s", g->name, t->client_id,
				action_verb(st->action));
		break;
	default:
		return 0;
	}
	g->target = t;
	g->target_failed = t == NULL;
	return t != NULL ? 0 : -1;
}

/* Has group gi settled after step st? */
static bool
world_settled(void *arg, int gi, const demo_step *st, int64_t now_unused)
{
	demo *d = arg;
	dgroup *g = &d->groups[gi];
	dcons *t = g->target;
	bool ok = true;
	int64_t now = util_now_us();
	(void)now_unused;
	pthread_mutex_lock(&d->lock);
	if (t != NULL) {
		switch (st->action) {
		case DEMO_ACT_ADD:
		case DEMO_ACT_RESTART:
			ok = t->listed || t->thread_done;
			break;
		case DEMO_ACT_LEAVE:
			ok = t->thread_done;
			break;
		case DEMO_ACT_CRASH:
			ok = t->thread_done && !t->evict_pending;
			break;
		case DEMO_ACT_STALL:
			ok = t->thread_done || (t->phase == DC_RUNNING && t->listed);
			break;
		default:
			break;
		}
	}
	if (ok)
		ok = group_settled(d, g, now);
	pthread_mutex_unlock(&d->lock);
	return ok;
}

/* ------------------------------------------------------------ the source */

/* Resume stalled consumers whose story is told; free finished ones; evict the silent. */
static void
housekeeping(demo *d)
{
	dcons *done[MAX_CONSUMERS * 2];
	dcons *restart[MAX_CONSUMERS];
	int ndone = 0, nrestart = 0, gi, k;
	int64_t now;
	char err[200];

	pthread_mutex_lock(&d->lock);
	now = util_now_us();
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		size_t i = 0;
		dgroup_evict_check(g, NULL, now);
		while (i < g->nc) {
			dcons *c = g->c[i];
			if (c->phase == DC_STALLED && !c->req_resume) {
				int64_t limit = c->stall_start + (int64_t)d->max_poll_ms * 1000 + STALL_CAP_US;
				bool resume = c->stall_start > 0 && now >= limit;
				if (c->kicked && c->quick_return) {
					resume = resume || now >= c->kicked_at + QUICK_RETURN_US;
				} else if (c->kicked) {
					if (!group_settled(d, g, now))
						c->settled_seen = 0;
					else if (c->settled_seen == 0)
						c->settled_seen = now;
					resume = resume || (c->settled_seen > 0 && now >= c->settled_seen + RESUME_AFTER_SETTLE_US);
				}
				if (resume) {
					c->req_resume = true;
					pthread_cond_broadcast(&d->cond);
				}
			}
			if (c->thread_done && !c->evict_pending && !c->listed && !c->leaked &&
			    ndone < (int)KG_ARRAY_LEN(done)) {
				done[ndone++] = c;
				if (c->restart && !d->stopping && nrestart < MAX_CONSUMERS)
					restart[nrestart++] = c;
				memmove(&g->c[i], &g->c[i + 1], (g->nc - i - 1) * sizeof *g->c);
				g->nc--;
				continue;
			}
			i++;
		}
	}
	pthread_mutex_unlock(&d->lock);

	for (k = 0; k < nrestart; k++) {
		dcons *old = restart[k], *c;
		dgroup *g = old->g;
		err[0] = '\0';
		c = dcons_start(d, g, old->idx, old->assignor, err, sizeof err);
		if (c == NULL) {
			snprintf(d->error, sizeof d->error, "restart %s: %s", old->client_id, err);
			if (old->instance_id[0] && old->last_id != NULL) {
				/* the static instance will not come back: it goes when its session ends */
				kg_obs *o = obs_new(KG_OBS_LEFT, util_now_us(), g->gid, DEMO_SOURCE_NAME);
				obs_member(o, old->last_id, old->client_id, NULL, NULL);
				o->reason = KG_REASON_SESSION_TIMEOUT;
				obs_text(o, "static member could not restart");
				pthread_mutex_lock(&d->lock);
				demo_push(d, o);
				pthread_mutex_unlock(&d->lock);
			}
		} else if (g->static_members) {
			pthread_mutex_lock(&d->lock);
			c->static_return = true;
			pthread_mutex_unlock(&d->lock);
		}
		if (g->target == old)
			g->target = c;
	}
	for (k = 0; k < ndone; k++) {
		dcons *c = done[k];
		for (gi = 0; gi < d->ngroups; gi++) {
			if (d->groups[gi].target == c)
				d->groups[gi].target = NULL;
		}
		if (c->thread_started)
			pthread_join(c->thread, NULL);
		dcons_free(c);
	}
}

/* Log what the script did in one run: steps begun and settled, waits that gave up, errors. */
static void
script_log(demo *d, int step, demo_phase phase, int loops, int timeouts, int64_t now)
{
	const demo_script *s = &d->script;
	const demo_scenario *sc = s->sc;
	if (!demo_script_has_steps(s) || (s->step == step && s->phase == phase && s->loops == loops))
		return;
	if (s->timeouts > timeouts)
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d: the groups did not settle within %.0fs; going on", sc->name,
			step + 1, sc->nsteps, (double)s->wait_limit_us / 1e6);
	else if (phase == DEMO_PH_WAIT && s->phase != DEMO_PH_WAIT && d->step_began > 0)
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d settled after %.1fs", sc->name, step + 1, sc->nsteps,
			(double)(now - d->step_began) / 1e6);
	if (s->loops > loops)
		log_msg(KG_LOG_INFO, "demo: %s: the script starts again (loop %d)", sc->name, s->loops);
	if ((s->step != step || s->loops != loops || d->step_began == 0) && s->step < sc->nsteps) {
		d->step_began = now;
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d: %s", sc->name, s->step + 1, sc->nsteps,
			sc->steps[s->step].label);
	} else if (s->step >= sc->nsteps) {
		log_msg(KG_LOG_INFO, "demo: %s: the script is finished", sc->name);
	}
	if (s->error[0] != '\0')
		log_msg(KG_LOG_INFO, "demo: %s: step %d/%d: %s", sc->name, s->step + 1, sc->nsteps, s->error);
}

/* poll(): start the fleets, register groups, run the script, keep house. */
static int
demo_poll(kg_source *s, int64_t now_unused)
{
	demo *d = s->impl;
	int flags = 0, gi;
	int64_t now = util_now_us(), next;
	demo_world w = { world_act, world_settled, d };
	(void)now_unused;

	if (!d->members_started) {
		d->members_started = true;
		for (gi = 0; gi < d->ngroups; gi++) {
			dgroup *g = &d->groups[gi];
			int k;
			for (k = 0; k < g->start_members; k++) {
				char err[200] = "";
				if (add_member(d, g, g->assignor, err, sizeof err) == NULL) {
					snprintf(d->error, sizeof d->error, "%s: %s", g->name, err);
					break;
				}
			}
		}
	}
	for (gi = 0; gi < d->ngroups && d->kafka != NULL; gi++) {
		if (!d->groups[gi].watched) {
			kafka_source_watch(d->kafka, d->groups[gi].name, d->topic);
			d->groups[gi].watched = true;
		}
	}
	housekeeping(d);
	{
		int step = d->script.step, loops = d->script.loops, timeouts = d->script.timeouts;
		demo_phase phase = d->script.phase;
		next = demo_script_run(&d->script, &w, now);
		script_log(d, step, phase, loops, timeouts, now);
	}
	if (!d->complete) {
		bool all = true;
		pthread_mutex_lock(&d->lock);
		for (gi = 0; gi < d->ngroups; gi++)
			all = all && group_settled(d, &d->groups[gi], now);
		pthread_mutex_unlock(&d->lock);
		d->complete = all;
	}
	pthread_mutex_lock(&d->lock);
	if (d->news || d->q.n > 0)
		flags |= KG_SRC_NEWS;
	d->news = false;
	pthread_mutex_unlock(&d->lock);
	if (d->complete)
		flags |= KG_SRC_COMPLETE;
	d->next_poll_us = now + 500000;
	if (next > 0 && next < d->next_poll_us)
		d->next_poll_us = next;
	return flags;
}

/* next_poll(). */
static int64_t
demo_next_poll(kg_source *s)
{
	demo *d = s->impl;
	return d->next_poll_us;
}


static int demo_command_run(kg_source *s, const char *line, char *err, size_t errsz);

/* command(): the UI's demo controls, logged with their reply. */
static int
demo_command(kg_source *s, const char *line, char *err, size_t errsz)
{
	int rc = demo_command_run(s, line, err, errsz);
	if (line == NULL || strcmp(line, "refresh") != 0)
		log_msg(KG_LOG_INFO, "demo: command \"%s\": %s%s", line ? line : "", rc < 0 ? "refused: " : "",
			err != NULL && errsz > 0 && err[0] ? err : "done");
	return rc;
}

/* Carry out one command. */
static int
demo_command_run(kg_source *s, const char *line, char *err, size_t errsz)
{
	demo *d = s->impl;
	demo_cmd cmd;
	dgroup *g;
	dcons *c;
	const char *assignor;
	demo_action act;
	int64_t now = util_now_us();
	if (err != NULL && errsz > 0)
		err[0] = '\0';
	if (demo_cmd_parse(line, &cmd, err, errsz) < 0)
		return -1;
	switch (cmd.kind) {
	case DEMO_CMD_REFRESH:
		return 0;
	case DEMO_CMD_PAUSE:
	case DEMO_CMD_RESUME:
		if (!demo_script_has_steps(&d->script))
			return util_err(err, errsz, "scenario %s has no script", d->sc->name);
		demo_script_pause(&d->script, cmd.kind == DEMO_CMD_PAUSE, now);
		snprintf(err, errsz, "script %s", cmd.kind == DEMO_CMD_PAUSE ? "paused" : "resumed");
		demo_wake(d);
		return 0;
	case DEMO_CMD_ASSIGNOR:
		util_strlcpy(d->next_assignor, cmd.arg, sizeof d->next_assignor);
		snprintf(err, errsz, "members added next use %s", cmd.arg[0] ? cmd.arg : "their group's assignor");
		return 0;
	default:
		break;
	}
	g = find_group(d, cmd.arg);
	if (g == NULL)
		return util_err(err, errsz, "no demo group \"%s\"", cmd.arg);
	if (cmd.kind == DEMO_CMD_ADD) {
		char e[240] = "";
		/* the consumer protocol is the group's: a classic assignor cannot join it here */
		assignor = d->next_assignor[0] && demo_assignor_proto(g->assignor) != KG_PROTO_CONSUMER ? d->next_assignor
											     : g->assignor;
		c = add_member(d, g, assignor, e, sizeof e);
		if (c == NULL)
			return util_err(err, errsz, "%s", e);
		snprintf(err, errsz, "added %s to %s%s%s", c->client_id, g->name,
			 strcmp(assignor, g->assignor) != 0 ? " with " : "",
			 strcmp(assignor, g->assignor) != 0 ? assignor : "");
		demo_wake(d);
		return 0;
	}
	act = cmd.kind == DEMO_CMD_LEAVE ? DEMO_ACT_LEAVE : cmd.kind == DEMO_CMD_CRASH ? DEMO_ACT_CRASH : DEMO_ACT_STALL;
	c = request(d, g, DEMO_NEWEST, act, false);
	if (c == NULL)
		return util_err(err, errsz, "no member of %s can %s now", g->name, action_verb(act));
	if (cmd.kind == DEMO_CMD_LEAVE)
		snprintf(err, errsz, "%s leaves %s (LeaveGroup)", c->client_id, g->name);
	else if (cmd.kind == DEMO_CMD_CRASH)
		snprintf(err, errsz, "%s crashed in %s: no more heartbeats, dropped after session.timeout.ms (%d ms)",
			 c->client_id, g->name, d->session_ms);
	else
		snprintf(err, errsz, "%s stalls in %s: no poll for max.poll.interval.ms (%d ms), kicked out, then back",
			 c->client_id, g->name, d->max_poll_ms);
	demo_wake(d);
	return 0;
}

static const kg_source_ops demo_ops = {
	.kind = "demo",
	.role = KG_ROLE_DEMO,
	.poll = demo_poll,
	.drain = demo_view_drain,
	.contribute = demo_view_contribute,
	.next_poll = demo_next_poll,
	.fds = NULL,
	.command = demo_command,
	.clock = NULL,
	.close = demo_close,
};

/* Free what the demo owns (threads already stopped). */
static void
demo_free(demo *d)
{
	int gi;
	size_t i;
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++)
			dcons_free(d->groups[gi].c[i]);
		free(d->groups[gi].c);
		free(d->groups[gi].hi);
		free(d->groups[gi].dup_run);
		free(d->groups[gi].dup_from);
	}
	demo_view_free(d);
	obsq_clear(&d->q);
	free(d->q.v);
	for (i = 0; i < d->nprops; i++) {
		free(d->props[i].key);
		free(d->props[i].value);
	}
	free(d->props);
	free(d->bootstrap);
	if (d->export_f != NULL)
		fclose(d->export_f);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free(d);
}

/*
 * Stop everything, bounded: consumers leave (in parallel, each close under a
 * deadline), the producer stops, the cluster goes.  Typically a few tens of
 * milliseconds; a consumer whose JoinGroup is in flight waits for its answer
 * (up to three seconds on the mock); a consumer stuck in librdkafka past the
 * overall bound is left behind and its memory goes with the process.
 */
static void
demo_close(kg_source *s)
{
	demo *d = s->impl;
	int64_t t0 = util_mono_us();
	int64_t deadline = t0 + (d->real ? CLOSE_WAIT_REAL_US : CLOSE_WAIT_MOCK_US);
	bool stuck = false;
	int gi;
	size_t i;

	atomic_store(&d->quiet, true);
	log_msg(KG_LOG_INFO, "demo: closing: every consumer leaves");
	pthread_mutex_lock(&d->lock);
	d->stopping = true;
	d->prod_stop = true;
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++) {
			dcons *c = d->groups[gi].c[i];
			if (!c->thread_done)
				c->req_leave = true;
		}
	}
	pthread_cond_broadcast(&d->cond);
	for (;;) {
		bool all = true;
		for (gi = 0; gi < d->ngroups; gi++) {
			for (i = 0; i < d->groups[gi].nc; i++)
				all = all && d->groups[gi].c[i]->thread_done;
		}
		if (all || util_mono_us() >= deadline) {
			stuck = !all;
			break;
		}
		demo_timed_wait(d, 50000);
	}
	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++)
			stuck = stuck || d->groups[gi].c[i]->leaked; /* its handle lives on and uses the demo */
	}
	pthread_mutex_unlock(&d->lock);

	for (gi = 0; gi < d->ngroups; gi++) {
		for (i = 0; i < d->groups[gi].nc; i++) {
			dcons *c = d->groups[gi].c[i];
			if (!c->thread_started)
				continue;
			if (c->thread_done)
				pthread_join(c->thread, NULL);
			else
				pthread_detach(c->thread); /* stuck in librdkafka: leave it to the process's end */
			c->thread_started = false;
		}
	}
	demo_cluster_stop(d, !stuck);
	if (stuck) {
		log_msg(KG_LOG_INFO, "demo: closed in %.2fs; a consumer stuck in librdkafka is left behind",
			(double)(util_mono_us() - t0) / 1e6);
		return; /* threads still use the demo's memory: it goes with the process */
	}
	log_msg(KG_LOG_INFO, "demo: closed in %.2fs", (double)(util_mono_us() - t0) / 1e6);
	demo_free(d);
}

/* Create the demo source. */
int
demo_source_new(const kg_demo_config *cfg, kg_source **out, const char **bootstrap, char *err, size_t errsz)
{
	const demo_scenario *sc = demo_scenario_find(cfg->scenario);
	const char *why;
	pthread_condattr_t ca;
	demo *d;
	size_t i;
	int gi;

	*out = NULL;
	if (sc == NULL)
		return util_err(err, errsz, "unknown scenario \"%s\" (--demo=list lists them)", cfg->scenario);
	why = demo_scenario_unavailable(sc, cfg->brokers != NULL && *cfg->brokers != '\0');
	if (why != NULL)
		return util_err(err, errsz, "scenario %s %s", sc->name, why); /* main says "demo: " */
	if (cfg->partitions < 1 || cfg->partitions > KG_MAX_DEMO_PARTITIONS_N)
		return util_err(err, errsz, "--demo-partitions must be between 1 and %d", KG_MAX_DEMO_PARTITIONS_N);

	d = xcalloc(1, sizeof *d);
	pthread_mutex_init(&d->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&d->cond, &ca);
	pthread_condattr_destroy(&ca);
	d->sc_run = *sc;
	/* a librdkafka that cannot run the consumer protocol leaves its groups out (--demo=list says so) */
	d->sc_run.ngroups = 0;
	for (gi = 0; gi < sc->ngroups; gi++)
		if (demo_group_runs(&sc->groups[gi]))
			d->sc_run.groups[d->sc_run.ngroups++] = sc->groups[gi];
	sc = d->sc = &d->sc_run;
	d->real = cfg->brokers != NULL && *cfg->brokers != '\0';
	d->npart = cfg->partitions;
	d->started_us = util_now_us();
	d->setup_timeout_us = cfg->timeout_us > 0 ? cfg->timeout_us : 15LL * 1000000;
	d->setup_deadline = util_mono_us() + d->setup_timeout_us;
	if (d->real) {
		d->session_ms = 10000;
		d->heartbeat_ms = 3000;
		d->max_poll_ms = 15000;
		d->bootstrap = xstrdup(cfg->brokers);
		d->props = xcalloc(cfg->nprops ? cfg->nprops : 1, sizeof *d->props);
		for (i = 0; i < cfg->nprops; i++) {
			d->props[i].key = xstrdup(cfg->props[i].key);
			d->props[i].value = xstrdup(cfg->props[i].value);
		}
		d->nprops = cfg->nprops;
	} else {
		d->session_ms = 4000;
		d->heartbeat_ms = 1000;
		d->max_poll_ms = 6000;
	}
	if (cfg->export_trace != NULL) {
		d->export_f = secfile_create(cfg->export_trace, "w", "--export-trace", err, errsz); /* a new file, 0600 */
		if (d->export_f == NULL) {
			demo_free(d);
			return -1;
		}
	}
	if (demo_cluster_start(d, err, errsz) < 0) {
		demo_free(d);
		return -1;
	}
	d->topic_id = intern_topic(d->topic);
	d->ngroups = sc->ngroups;
	for (gi = 0; gi < d->ngroups; gi++) {
		dgroup *g = &d->groups[gi];
		g->idx = gi;
		util_strlcpy(g->name, sc->groups[gi].name, sizeof g->name);
		util_strlcpy(g->assignor, sc->groups[gi].assignor, sizeof g->assignor);
		g->gid = intern_group(g->name);
		g->start_members = sc->groups[gi].members;
		g->static_members = sc->groups[gi].static_members;
		g->commit = sc->groups[gi].commit;
		if (g->commit != DEMO_COMMIT_DEMO) {
			int p;
			g->hi = xcalloc((size_t)d->npart, sizeof *g->hi);
			g->dup_run = xcalloc((size_t)d->npart, sizeof *g->dup_run);
			g->dup_from = xcalloc((size_t)d->npart, sizeof *g->dup_from);
			for (p = 0; p < d->npart; p++)
				g->hi[p] = -1;
		}
		d->view[gi].proto = KG_PROTO_UNKNOWN;
		d->view[gi].state = KG_STATE_EMPTY;
		util_strlcpy(d->view[gi].assignor, g->assignor, sizeof d->view[gi].assignor);
	}
	demo_cluster_coordinators(d);
	demo_script_init(&d->script, sc, d->real ? 90LL * 1000000 : 45LL * 1000000);
	d->kafka = cfg->kafka;
	d->cleanup = d->real;
	d->leftovers = cfg->leftovers;
	d->leftovers_size = cfg->leftovers_size;
	if (d->leftovers != NULL && d->leftovers_size > 0)
		d->leftovers[0] = '\0';
	demo_producer_start(d);
	d->src = source_new(&demo_ops, DEMO_SOURCE_NAME, d);
	*out = d->src;
	log_msg(KG_LOG_INFO,
		"demo: scenario %s on %s: topic %s, %d partitions, %d msg/s; session.timeout.ms %d, "
		"heartbeat.interval.ms %d, max.poll.interval.ms %d%s%s",
		sc->name, d->real ? d->bootstrap : "the mock cluster", d->topic, d->npart, d->rate, d->session_ms,
		d->heartbeat_ms, d->max_poll_ms, cfg->export_trace ? "; events to " : "",
		cfg->export_trace ? cfg->export_trace : "");
	for (gi = 0; gi < d->ngroups; gi++)
		log_msg(KG_LOG_INFO, "demo: group %s: %s, %d members%s", d->groups[gi].name, d->groups[gi].assignor,
			d->groups[gi].start_members, d->groups[gi].static_members ? " (static)" : "");
	if (bootstrap != NULL)
		*bootstrap = d->bootstrap;
	return 0;
}

/* Hand over the kafka source. */
void
demo_source_set_kafka(kg_source *s, kg_source *kafka)
{
	demo *d;
	if (s == NULL || s->ops != &demo_ops)
		return;
	d = s->impl;
	d->kafka = kafka;
}


/*
 * sim.c: the simulated group of the bounds' property test (see sim.h).
 *
 * The classic protocol as the coordinator runs it, simplified where kgtop
 * cannot tell the difference: a join, a LeaveGroup or the removal of a
 * member (its session timed out after a crash, its poll interval after a
 * stall) begins a rebalance (PreparingRebalance); each live member learns
 * of it at its next heartbeat and rejoins (an eager one revokes everything
 * first, a cooperative one keeps consuming); once every member rejoined
 * (or was removed on the rebalance timeout) the group completes
 * (CompletingRebalance) and the leader's SyncGroup makes it Stable with a
 * new assignment once written (a consumer that starts within
 * write_window of the assignment's receipt joins before the write, at
 * once: Kafka then begins the rebalance again and never gives that
 * assignment, the log having told it received): range for eager, a
 * sticky one for cooperative, which
 * withholds a partition that changes owner until its old owner revoked it
 * (a second generation, at once).  The last member out empties the group:
 * a generation too, begun and ended at once (Kafka's "now empty").  Consumers keep up: a commit writes the
 * log-end of the moment, every commit interval, and at each revoke.  The
 * truth kept per episode is what kgtop's bounds are about.
 */
#include "config.h"

#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "model/obs.h"
#include "util/util.h"

#define SIM_HORIZON (40LL * 1000000)

/* splitmix64. */
static uint64_t
next_u64(sim *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform random number in [0, n). */
uint64_t
sim_rand(sim *s, uint64_t n)
{
	return n > 0 ? next_u64(s) % n : 0;
}

/* One of the values given, at random. */
static int64_t
pick(sim *s, const int64_t *v, int n)
{
	return v[sim_rand(s, (uint64_t)n)];
}

/* The log-end of partition p at time t. */
int64_t
sim_log_end(const sim *s, int p, int64_t t)
{
	return s->le0[p] + (int64_t)(s->rate[p] * (double)t / 1e6);
}

/* True when member i consumes: the coordinator has it, it is alive and polls. */
static bool
consuming(const sim *s, int i)
{
	const sim_member *m = &s->m[i];
	return m->in_group && m->alive && !m->stalled;
}

/* Member i commits what it consumes (the log-end of now: it keeps up). */
static void
commit(sim *s, int i)
{
	int p;
	for (p = 0; p < s->nparts; p++) {
		if (s->m[i].owned & (1u << p))
			s->committed[p] = sim_log_end(s, p, s->now);
	}
}

/* The open episode, NULL none. */
static sim_episode *
open_ep(sim *s)
{
	return s->ep_open ? &s->ep[s->nep - 1] : NULL;
}

/* A member's time owning nothing in the open episode, up to now. */
static void
stop_settle(sim *s, int i)
{
	sim_member *m = &s->m[i];
	if (m->stop_from >= 0) {
		m->stopped += s->now - m->stop_from;
		m->stop_from = -1;
	}
}

/* The coordinator logs a line now. */
static void
log_line(sim *s, int kind, bool empty, int nmembers)
{
	if (s->nline == SIM_MAXLINES)
		return;
	s->line[s->nline++] = (sim_line){ s->now, kind, s->gen, empty, empty ? 0 : nmembers, false };
}

/* Close the open episode now. */
static void
ep_close(sim *s)
{
	sim_episode *e = open_ep(s);
	int i;
	if (e == NULL)
		return;
	e->end = s->now;
	for (i = 0; i < s->nm; i++) {
		sim_member *m = &s->m[i];
		stop_settle(s, i);
		/* members that were consuming when it began and stayed */
		if (m->at_start && m->in_group)
			e->stopped += m->stopped;
		m->at_start = false;
		m->stopped = 0;
	}
	s->ep_open = false;
}

/* Every member still in the group learns of the rebalance at its next heartbeat (the ones that rejoined already: not again). */
static void
learn_all(sim *s)
{
	int i;
	for (i = 0; i < s->nm; i++) {
		sim_member *m = &s->m[i];
		if (!m->in_group || m->joined || m->learn_at > 0 || !m->alive || m->stalled)
			continue;
		m->learn_at = s->now + SIM_STEP * (1 + (int64_t)sim_rand(s, (uint64_t)(s->heartbeat / SIM_STEP)));
	}
}

/* A rebalance begins now (or starts over: a join or a leave before the sync); except (-1 none) has rejoined already. */
static void
rebalance(sim *s, int except)
{
	int i;
	if (!s->ep_open) {
		sim_episode *e;
		if (s->nep == SIM_MAXEP)
			return;
		e = &s->ep[s->nep++];
		memset(e, 0, sizeof *e);
		e->start = s->now;
		s->ep_open = true;
		for (i = 0; i < s->nm; i++) {
			sim_member *m = &s->m[i];
			m->at_start = consuming(s, i) && m->owned != 0;
			m->stop_from = -1;
			m->stopped = 0;
		}
	}
	if (s->state != KG_STATE_PREPARING_REBALANCE) {
		bool completing = s->state == KG_STATE_COMPLETING_REBALANCE && except >= 0 && s->m[except].joined;
		s->state = KG_STATE_PREPARING_REBALANCE;
		log_line(s, KG_OBS_PREPARING, false, -1); /* "Preparing to rebalance group ... with old generation N" */
		if (completing && s->nline > 0)
			s->line[s->nline - 1].completing = true; /* a new member added "in CompletingRebalance state" */
		s->prep_start = s->now;
		s->sync_at = 0;
		for (i = 0; i < s->nm; i++) {
			if (s->m[i].in_group && i != except) {
				s->m[i].joined = false;
				s->m[i].learn_at = 0;
			}
		}
	}
	s->rejoin_at = 0;
	learn_all(s);
}

/* Member i leaves the coordinator's group now (LeaveGroup, or removed); the others rebalance. */
static void
member_out(sim *s, int i)
{
	sim_member *m = &s->m[i];
	int k, left = 0;
	if (s->trace)
		fprintf(stderr, "   sim %6.2f %.6s out of the group\n", s->now / 1e6, m->id);
	m->in_group = false;
	m->owned = 0;
	m->assigned = 0;
	m->remove_at = 0;
	m->learn_at = 0;
	for (k = 0; k < s->nm; k++)
		left += s->m[k].in_group;
	if (left == 0) {
		/* the coordinator's last generation: begun and ended at once, the group Empty (a rebalance) */
		if (!s->ep_open && s->nep < SIM_MAXEP) {
			sim_episode *e = &s->ep[s->nep++];
			memset(e, 0, sizeof *e);
			e->start = s->now;
			s->ep_open = true;
		}
		s->state = KG_STATE_EMPTY;
		s->gen++;
		if (open_ep(s) != NULL)
			open_ep(s)->rounds++; /* a generation the coordinator completed (its records count it), none synced */
		log_line(s, KG_OBS_STABILIZED, true, 0); /* "Group ... with generation N is now empty" */
		s->sync_at = s->rejoin_at = 0;
		ep_close(s);
		return;
	}
	rebalance(s, -1);
}

/* A consumer starts: a new member id joins. */
static void
pod_join(sim *s, int pod)
{
	sim_member *m;
	if (s->nm == SIM_MAXM)
		return;
	m = &s->m[s->nm];
	memset(m, 0, sizeof *m);
	m->pod = pod;
	snprintf(m->id, sizeof m->id, "c%d-%04d-%08llx", pod, s->pod_seq[pod]++, (unsigned long long)(next_u64(s) & 0xffffffffu));
	m->alive = true;
	m->in_group = true;
	m->joined = true; /* its JoinGroup is what begins the rebalance */
	m->commit_every = s->pod_commit[pod];
	m->next_commit = s->now + m->commit_every;
	m->stop_from = -1;
	s->pod_member[pod] = s->nm;
	rebalance(s, s->nm++);
}

/* True when pod's consumer runs (a scheduled event of a pod not running starts one). */
static bool
pod_running(const sim *s, int pod)
{
	int i = s->pod_member[pod];
	return i >= 0 && s->m[i].alive && !s->m[i].stalled && s->m[i].in_group;
}

/* A scheduled event happens. */
static void
event(sim *s, const sim_event *e)
{
	static const char *const what[] = { "join", "leave", "crash", "stall" };
	int i = s->pod_member[e->pod];
	bool running = pod_running(s, e->pod);
	if (s->trace)
		fprintf(stderr, "   sim %6.2f c%d %s%s\n", s->now / 1e6, e->pod, running ? what[e->what] : "join",
			running || e->what == SIM_JOIN ? "" : " (not running)");
	if (!running) {
		pod_join(s, e->pod); /* whatever was scheduled: a consumer not running starts */
		return;
	}
	switch (e->what) {
	case SIM_LEAVE:
		commit(s, i); /* its revoke commits what it consumed, then LeaveGroup */
		s->pod_member[e->pod] = -1;
		member_out(s, i);
		break;
	case SIM_CRASH:
		s->m[i].alive = false;
		s->m[i].remove_at = s->now + s->session;
		break;
	case SIM_STALL:
		s->m[i].stalled = true;
		s->m[i].remove_at = s->now + s->max_poll;
		break;
	default:
		break;
	}
}

/* The members of the generation, sorted by member id (the order assignors use). */
static int
generation(const sim *s, int *g)
{
	int n = 0, i, k;
	for (i = 0; i < s->nm; i++) {
		if (!s->m[i].in_group)
			continue;
		for (k = n; k > 0 && strcmp(s->m[g[k - 1]].id, s->m[i].id) > 0; k--)
			g[k] = g[k - 1];
		g[k] = i;
		n++;
	}
	return n;
}

/* The target of a sticky assignment: each keeps its own up to its quota, the rest to those under it. */
static void
sticky_target(const sim *s, const int *g, int n, int *target)
{
	int quota[SIM_MAXM], have[SIM_MAXM] = { 0 }, p, k;
	for (k = 0; k < n; k++)
		quota[k] = s->nparts / n + (k < s->nparts % n);
	for (p = 0; p < s->nparts; p++) {
		target[p] = -1;
		for (k = 0; k < n; k++) {
			if ((s->m[g[k]].assigned & (1u << p)) && have[k] < quota[k]) {
				target[p] = k;
				have[k]++;
				break;
			}
		}
	}
	for (p = 0; p < s->nparts; p++) {
		for (k = 0; target[p] < 0 && k < n; k++) {
			if (have[k] < quota[k]) {
				target[p] = k;
				have[k]++;
			}
		}
	}
}

/* The leader's SyncGroup: the generation's assignment; a cooperative one that withholds partitions rejoins at once. */
static void
sync(sim *s)
{
	int g[SIM_MAXM], n = generation(s, g), target[SIM_MAXP], p, k;
	unsigned asg[SIM_MAXM] = { 0 };
	bool withheld = false;
	sim_episode *e;
	const sim_event *next = s->next_ev < s->nev ? &s->ev[s->next_ev] : NULL;
	log_line(s, KG_OBS_SYNCED, false, n); /* "Assignment received from leader ... for generation N" */
	if (next != NULL && next->at <= s->now + s->write_window && !pod_running(s, next->pod)) {
		/* a consumer starts before the assignment is written: it joins now, the assignment never given */
		if (s->trace)
			fprintf(stderr, "   sim %6.2f assignment received, a join before it was written\n", s->now / 1e6);
		event(s, &s->ev[s->next_ev++]);
		return;
	}
	e = open_ep(s);
	if (e != NULL)
		e->rounds++;
	if (!s->cooperative) {
		for (p = 0; p < s->nparts; p++) {
			/* range: contiguous, the first ones one more */
			int base = s->nparts / n, extra = s->nparts % n, q = 0, from = 0;
			for (k = 0; k < n; k++) {
				q = base + (k < extra);
				if (p < from + q)
					break;
				from += q;
			}
			asg[k] |= 1u << p;
		}
	} else {
		sticky_target(s, g, n, target);
		for (p = 0; p < s->nparts; p++) {
			int cur = -1;
			for (k = 0; k < n; k++) {
				if (s->m[g[k]].assigned & (1u << p))
					cur = k;
			}
			if (cur < 0 || cur == target[p])
				asg[target[p]] |= 1u << p;
			else
				withheld = true; /* its owner revokes it first: the next generation gives it */
		}
	}
	for (k = 0; k < n; k++) {
		sim_member *m = &s->m[g[k]];
		unsigned revoked = m->owned & ~asg[k];
		if (revoked) {
			unsigned keep = m->owned;
			m->owned = revoked;
			commit(s, g[k]); /* the revoke commits */
			m->owned = keep;
		}
		m->rejoin = revoked != 0; /* cooperative: what it revoked goes to another in the next generation: it rejoins at once */
		m->assigned = asg[k];
		m->owned = asg[k];
		m->joined = false;
		m->learn_at = 0;
	}
	s->state = KG_STATE_STABLE;
	s->sync_at = 0;
	if (s->trace) {
		fprintf(stderr, "   sim %6.2f sync:", s->now / 1e6);
		for (k = 0; k < n; k++)
			fprintf(stderr, " %.6s=%x", s->m[g[k]].id, asg[k]);
		fprintf(stderr, "%s\n", withheld ? " (withheld: round 2)" : "");
	}
	if (withheld)
		s->rejoin_at = s->now + SIM_STEP;
	else
		ep_close(s);
}

/* The coordinator's side of the step: removals, the rebalance's progress. */
static void
coordinator(sim *s)
{
	int i, all = 1, n = 0;
	for (i = 0; i < s->nm; i++) {
		sim_member *m = &s->m[i];
		if (m->in_group && m->remove_at > 0 && s->now >= m->remove_at)
			member_out(s, i);
	}
	if (s->state == KG_STATE_STABLE && s->rejoin_at > 0 && s->now >= s->rejoin_at) {
		rebalance(s, -1);
		for (i = 0; i < s->nm; i++) { /* those that revoked rejoin at once; the others at their heartbeat */
			if (s->m[i].in_group && s->m[i].rejoin && s->m[i].learn_at > 0)
				s->m[i].learn_at = s->now + SIM_STEP;
		}
	}
	if (s->state == KG_STATE_PREPARING_REBALANCE) {
		for (i = 0; i < s->nm; i++) {
			sim_member *m = &s->m[i];
			if (!m->in_group)
				continue;
			if (!m->joined && s->now - s->prep_start >= s->max_poll) {
				member_out(s, i); /* not rejoined within the rebalance timeout */
				if (s->state != KG_STATE_PREPARING_REBALANCE)
					return;
				continue;
			}
			n++;
			all &= m->joined;
		}
		if (n > 0 && all) {
			s->state = KG_STATE_COMPLETING_REBALANCE;
			s->gen++;
			log_line(s, KG_OBS_STABILIZED, false, n); /* "Stabilized group ... generation N" */
			s->sync_at = s->now + s->sync_delay;
		}
	}
	if (s->state == KG_STATE_COMPLETING_REBALANCE && s->now >= s->sync_at)
		sync(s);
}

/* What each member does this step: learn of a rebalance and rejoin, commit. */
static void
members(sim *s)
{
	int i;
	for (i = 0; i < s->nm; i++) {
		sim_member *m = &s->m[i];
		if (!consuming(s, i))
			continue;
		if (m->learn_at > 0 && s->now >= m->learn_at && !m->joined) {
			if (!s->cooperative) {
				commit(s, i); /* eager: revoke everything (committing it), then JoinGroup */
				m->owned = 0;
			}
			m->joined = true;
			m->learn_at = 0;
		}
		if (s->now >= m->next_commit) {
			commit(s, i);
			m->next_commit = s->now + m->commit_every;
		}
	}
}

/* The truth of the step: which partitions have a consuming owner, who owns nothing. */
static void
truth(sim *s)
{
	sim_episode *e = open_ep(s), *last = s->nep > 0 ? &s->ep[s->nep - 1] : NULL;
	unsigned consumed = 0;
	int i, p;
	for (i = 0; i < s->nm; i++) {
		sim_member *m = &s->m[i];
		if (consuming(s, i))
			consumed |= m->owned;
		if (e != NULL && m->at_start) {
			if (m->owned == 0 && m->stop_from < 0)
				m->stop_from = s->now;
			else if (m->owned != 0)
				stop_settle(s, i);
		}
	}
	for (p = 0; p < s->nparts; p++) {
		bool c = (consumed >> p) & 1u;
		if (s->state == KG_STATE_EMPTY && !c) {
			/* the group emptied: what was not consumed counts up to now, in the episode that ended now;
			 * from now on the partitions are nobody's (a group that forms again costs nothing) */
			if (s->unc_from[p] >= 0 && last != NULL && last->end == s->now) {
				last->unconsumed += s->now - s->unc_from[p];
				last->backlog += sim_log_end(s, p, s->now) - sim_log_end(s, p, s->unc_from[p]);
			}
			s->unc_from[p] = -2;
		} else if (!c && s->unc_from[p] == -1) {
			s->unc_from[p] = s->now;
		} else if (c && s->unc_from[p] == -2) {
			s->unc_from[p] = -1; /* consumed for the first time since nobody had it */
		} else if (c && s->unc_from[p] >= 0) {
			/* an interval without a consuming owner ends: the episode it ends in (open, or just closed) counts it */
			sim_episode *to = e != NULL ? e : last != NULL && last->end == s->now ? last : NULL;
			if (s->trace)
				fprintf(stderr, "   sim %6.2f p%d consumed again after %.2f s (episode %ld)\n", s->now / 1e6, p,
					(s->now - s->unc_from[p]) / 1e6, to != NULL ? (long)(to - s->ep) : -1L);
			if (to != NULL) {
				to->unconsumed += s->now - s->unc_from[p];
				to->backlog += sim_log_end(s, p, s->now) - sim_log_end(s, p, s->unc_from[p]);
			}
			s->unc_from[p] = -1;
		}
	}
}

/* Advance one step. */
void
sim_step(sim *s)
{
	s->now += SIM_STEP;
	while (s->next_ev < s->nev && s->ev[s->next_ev].at <= s->now)
		event(s, &s->ev[s->next_ev++]);
	coordinator(s);
	members(s);
	coordinator(s); /* a rejoin that completes the generation */
	truth(s);
}

/* Sort the events by time. */
static void
events_sort(sim *s)
{
	int i, k;
	for (i = 1; i < s->nev; i++) {
		sim_event x = s->ev[i];
		for (k = i; k > 0 && s->ev[k - 1].at > x.at; k--)
			s->ev[k] = s->ev[k - 1];
		s->ev[k] = x;
	}
}

/* A random schedule from seed. */
void
sim_init(sim *s, uint64_t seed)
{
	static const int64_t rates[] = { 0, 0, 1, 2, 10, 40, 200 };
	static const int64_t sessions[] = { 3000000, 6000000, 10000000 };
	static const int64_t polls[] = { 4000000, 8000000, 15000000 };
	static const int64_t syncs[] = { 0, 20000, 100000, 300000 };
	static const int64_t writes[] = { 0, 0, 50000, 300000 };
	static const int64_t commits[] = { 100000, 500000, 1000000, 2000000, 5000000 };
	int p, k, i, pre;
	memset(s, 0, sizeof *s);
	s->rng = seed * 0x2545f4914f6cdd1dULL + 1;
	s->horizon = SIM_HORIZON;
	s->nparts = 1 + (int)sim_rand(s, SIM_MAXP);
	for (p = 0; p < s->nparts; p++) {
		s->rate[p] = (double)pick(s, rates, (int)KG_ARRAY_LEN(rates)) / (sim_rand(s, 2) ? 1.0 : 4.0);
		s->le0[p] = 1000 + (int64_t)sim_rand(s, 1000);
		s->committed[p] = s->le0[p];
		s->unc_from[p] = -2; /* nobody's before the first member: forming costs nothing */
	}
	s->cooperative = sim_rand(s, 2) == 1;
	s->session = pick(s, sessions, (int)KG_ARRAY_LEN(sessions));
	s->heartbeat = s->session / 3;
	s->max_poll = pick(s, polls, (int)KG_ARRAY_LEN(polls));
	s->sync_delay = pick(s, syncs, (int)KG_ARRAY_LEN(syncs));
	s->npods = 2 + (int)sim_rand(s, SIM_MAXPODS - 1);
	for (k = 0; k < s->npods; k++) {
		s->pod_commit[k] = pick(s, commits, (int)KG_ARRAY_LEN(commits));
		s->pod_member[k] = -1;
	}
	s->state = KG_STATE_EMPTY;
	/* a formed group before kgtop looks, or one that forms while it does */
	pre = (int)sim_rand(s, 2) ? 1 + (int)sim_rand(s, (uint64_t)s->npods) : 0;
	for (k = 0; k < pre; k++)
		pod_join(s, k);
	if (pre > 0) {
		for (i = 0; i < s->nm; i++)
			s->m[i].joined = true;
		sync(s);
		s->nep = 0; /* before kgtop: no episode of its */
		s->ep_open = false;
		s->nline = 0; /* nor a line of its log */
		for (p = 0; p < s->nparts; p++)
			s->unc_from[p] = -1;
	}
	s->nev = 2 + (int)sim_rand(s, SIM_MAXEV - 1);
	for (i = 0; i < s->nev; i++) {
		s->ev[i].at = (500000 + (int64_t)sim_rand(s, (uint64_t)(s->horizon - 8000000) / SIM_STEP) * SIM_STEP);
		s->ev[i].pod = (int)sim_rand(s, (uint64_t)s->npods);
		s->ev[i].what = (sim_what)sim_rand(s, 4);
	}
	if (sim_rand(s, 4) == 0) {
		/* a fleet scaled up: joins 1.5 s apart */
		int64_t at = 500000 + (int64_t)sim_rand(s, 10) * 100000;
		for (i = 0; i < s->npods && s->nev < SIM_MAXEV; i++, at += 1500000)
			s->ev[s->nev++] = (sim_event){ at, i, SIM_JOIN };
	}
	events_sort(s);
	/* drawn last: the schedules above stay those of the seeds before the write was modelled */
	s->write_window = pick(s, writes, (int)KG_ARRAY_LEN(writes));
}

/* What a poll at this step sees. */
kg_snapshot *
sim_snapshot(const sim *s, uint64_t n, int64_t iv)
{
	kg_builder *b = builder_new(s->now);
	int32_t topic = intern_topic("sim-topic");
	kg_bgroup *g = builder_group(b, intern_group("sim-group"));
	kg_source_health h;
	bool stable = s->state == KG_STATE_STABLE;
	int p, i;
	memset(&h, 0, sizeof h);
	h.name = "kafka";
	h.status = KG_SRC_OK;
	h.role = KG_ROLE_CLUSTER;
	h.last_ok_us = s->now;
	builder_cluster(b, "sim");
	builder_source(b, &h);
	builder_refresh(b, n, s->now, iv);
	builder_topic(b, topic, s->nparts);
	for (p = 0; p < s->nparts; p++) {
		builder_partition(b, (kg_tp){ topic, p }, 1, sim_log_end(s, p, s->now));
		builder_partition_start(b, (kg_tp){ topic, p }, 0);
		bgroup_committed(g, (kg_tp){ topic, p }, s->committed[p]);
	}
	bgroup_state(g, s->state);
	bgroup_protocol(g, "consumer", stable ? (s->cooperative ? "cooperative-sticky" : "range") : "");
	bgroup_data_time(g, s->now);
	bgroup_topic(g, topic);
	for (i = 0; i < s->nm; i++) {
		const sim_member *m = &s->m[i];
		kg_bmember *bm;
		kg_tp asg[SIM_MAXP];
		int na = 0;
		char client[16];
		if (!m->in_group)
			continue;
		snprintf(client, sizeof client, "c%d", m->pod);
		bm = bgroup_member(g, m->id);
		bmember_ids(bm, client, "/10.0.0.1", NULL);
		for (p = 0; stable && p < s->nparts; p++) {
			if (m->assigned & (1u << p))
				asg[na++] = (kg_tp){ topic, p };
		}
		bmember_assignment(bm, asg, na);
	}
	return builder_finish(b);
}

/* The schedule in words. */
void
sim_describe(const sim *s, char *buf, size_t n)
{
	static const char *const what[] = { "join", "leave", "crash", "stall" };
	size_t len;
	int i;
	snprintf(buf, n, "%d partitions, %s, session %.0fs, max.poll %.0fs, sync %.2fs, joins within %.2fs beat its write, %d pods;",
		 s->nparts, s->cooperative ? "cooperative" : "eager", (double)s->session / 1e6, (double)s->max_poll / 1e6,
		 (double)s->sync_delay / 1e6, (double)s->write_window / 1e6, s->npods);
	for (i = 0; i < s->nev; i++) {
		len = strlen(buf);
		if (len + 32 >= n)
			break;
		snprintf(buf + len, n - len, " %.2fs c%d %s", (double)s->ev[i].at / 1e6, s->ev[i].pod, what[s->ev[i].what]);
	}
}

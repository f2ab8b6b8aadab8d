/*
 * test_demo.c: the default demo scenario, headless, through the real code.
 *
 * The embedded demo (mock cluster, producer, real librdkafka consumers:
 * eager, cooperative and consumer-protocol groups),
 * the kafka source following its groups, the collector and the tracker
 * run as kgtop runs them; this program reads the frames and asserts from
 * the derived events (never from the demo's internals) that:
 *  - every episode has as many rounds as the coordinator (the mock's own
 *    "all members synced" lines, which the demo hands over as a
 *    coordinator's log) completed generations in it: rounds are
 *    generations, never a retried JoinGroup;
 *  - when the fourth member joins and the coordinator ran the protocol's
 *    minimum (the mock sometimes adds a generation when SyncGroups race),
 *    the eager group takes 1 round and the cooperative group 2; the eager
 *    group stops its three members for the whole round and leaves all six
 *    partitions unconsumed, the cooperative group stops nobody and leaves
 *    one partition unconsumed between its rounds (member- and
 *    partition-seconds, measured);
 *  - when the fourth member joins, every old member of the eager group
 *    revokes its whole assignment, while the cooperative group has no full
 *    revoke: the moving partition is revoked (incremental) in one round
 *    and assigned to the new member in the next;
 *  - the consumer-protocol group (KIP-848, group.protocol=consumer) runs
 *    the same script: the fourth member's join is one episode, with no
 *    barrier and no whole revoke, ended once consumer-d holds partitions;
 *    it has no JoinGroup/SyncGroup generations, so the rounds check skips it.
 *    Built against a librdkafka before 2.12 (Debian's 2.0.2) the demo runs
 *    without it (demo_scenario_groups says which groups run): then no frame
 *    shows it and demo_kip848_missing() says why;
 *  - a graceful leave stops every other eager member but no other
 *    cooperative or consumer-protocol one;
 *  - the crashed member is silent (not consuming) from its last poll, and
 *    leaves for session timeout, no sooner than session.timeout.ms after
 *    its last heartbeat answer;
 *  - the stalled member leaves for max.poll.interval.ms, no sooner than
 *    that after its last poll, and comes back;
 *  - the kafka source sees committed offsets (lag is real), and the demo
 *    closes within a few seconds.
 * The mock sometimes adds an eager round under load and a cooperative
 * rebalance may take a third round: the checks allow what the protocol
 * allows (more full revokes in eager rounds, more rounds) and still fail
 * on a wrong classification.  Everything polls with deadlines.  The raw
 * observations and the events are printed as TAP comments for diagnosis.
 */
#include "config.h"

#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <librdkafka/rdkafka.h>

#include "core/options.h"
#include "core/collector.h"
#include "model/intern.h"
#include "model/tracker.h"
#include "sources/demo/demo.h"
#include "sources/kafka/kafka.h"
#include "util/util.h"

#define EAGER "kgtop-demo-eager"
#define COOP "kgtop-demo-coop"
#define KIP "kgtop-demo-consumer" /* group.protocol=consumer (KIP-848) */
#define MAX_GROUPS 4
#define RUN_LIMIT_US (260LL * 1000000) /* a clean join in both groups: the mock may take an extra generation under load */
#define CLOSE_LIMIT_US (5LL * 1000000)

typedef struct mhealth {
	char *member_id;
	char *client_id;
	int32_t group;
	int64_t last_hb;      /* last heartbeat answer, from the health the tracker derived */
	int64_t last_poll;
	int64_t session_us;
	int64_t max_poll_us;
	bool left;            /* frozen at its first leave: a rejoin under the same id must not move it */
} mhealth;

/* A generation the coordinator said all members synced (the truth rounds are checked against). */
typedef struct stable {
	int32_t group;
	int64_t time;
} stable;

typedef struct run {
	kg_event **ev;
	size_t nev, cev;
	stable *st;
	size_t nst, cst;
	mhealth *mh;
	size_t nmh, cmh;
	int64_t t0;
	int64_t max_lag;      /* largest group lag seen, -1 none */
	const char *groups[MAX_GROUPS]; /* the groups this build's demo runs (demo_scenario_groups) */
	int ngroups;
	bool kip;             /* ... the consumer-protocol one among them (librdkafka >= 2.12) */
	int kip_seen;         /* snapshots that showed the consumer-protocol group */
	int tests, failed;
} run;

/* ------------------------------------------------------------------ TAP */

/* One TAP line. */
static void
check(run *r, bool ok, const char *fmt, ...)
{
	va_list ap;
	r->tests++;
	if (!ok)
		r->failed++;
	printf("%sok %d - ", ok ? "" : "not ", r->tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ------------------------------------------------------------ recording */

/* The tap: print the observations the tracker is fed (all but heartbeats and polls). */
static void
tap_before(void *arg, const kg_obsq *q, const kg_snapshot *snap)
{
	run *r = arg;
	size_t i;
	(void)snap;
	for (i = 0; i < q->n; i++) {
		const kg_obs *o = q->v[i];
		sbuf s = { 0 };
		if (o->kind == KG_OBS_HEARTBEAT || o->kind == KG_OBS_POLL)
			continue;
		if (o->kind == KG_OBS_SYNCED) {
			util_grow(&r->st, &r->cst, r->nst + 1, sizeof *r->st);
			r->st[r->nst].group = o->group;
			r->st[r->nst++].time = o->time_us;
		}
		tp_format(&s, o->parts, o->nparts, true);
		printf("# obs %8.3f %-18s %-10s %-9s %-14s %s proto=%s reason=%s %s\n", (double)(o->time_us - r->t0) / 1e6,
		       intern_group_name(o->group), o->client_id ? o->client_id : "-", obs_kind_name(o->kind),
		       o->member_id ? o->member_id : "-", sbuf_str(&s), proto_name(o->proto), reason_key(o->reason),
		       o->text ? o->text : "");
		sbuf_free(&s);
	}
}

/* The health record of a member, created on demand. */
static mhealth *
health_of(run *r, int32_t group, const char *member_id, const char *client_id)
{
	size_t i;
	mhealth *m;
	for (i = 0; i < r->nmh; i++) {
		/* the mock reuses member ids (they are pointers): the client id tells incarnations apart */
		if (r->mh[i].group == group && strcmp(r->mh[i].member_id, member_id) == 0 &&
		    strcmp(r->mh[i].client_id, client_id ? client_id : "") == 0)
			return &r->mh[i];
	}
	util_grow(&r->mh, &r->cmh, r->nmh + 1, sizeof *r->mh);
	m = &r->mh[r->nmh++];
	memset(m, 0, sizeof *m);
	m->member_id = xstrdup(member_id);
	m->client_id = xstrdup(client_id ? client_id : "");
	m->group = group;
	return m;
}

/* Keep a frame's events and what its snapshot says about member health and lag. */
static void
take(run *r, kg_frame *f)
{
	size_t i;
	int g, k;
	for (i = 0; i < f->events.n; i++) {
		kg_event *e = f->events.v[i];
		sbuf s = { 0 };
		event_format_line(e, r->t0, &s);
		printf("# ev  %s%s%s [%s round %d episode %lld]\n", e->group >= 0 ? intern_group_name(e->group) : "",
		       e->group >= 0 ? " " : "", sbuf_str(&s), event_kind_key(e->kind), e->round, (long long)e->episode);
		sbuf_free(&s);
		util_grow(&r->ev, &r->cev, r->nev + 1, sizeof *r->ev);
		r->ev[r->nev++] = event_ref(e);
		if (e->kind == KG_EV_MEMBER_LEFT && e->member_id != NULL)
			health_of(r, e->group, e->member_id, e->client_id)->left = true;
	}
	if (f->snap == NULL)
		return;
	for (g = 0; g < f->snap->ngroups; g++) {
		const kg_group *G = &f->snap->groups[g];
		if (G->id == intern_group(KIP))
			r->kip_seen++;
		if (G->lag > r->max_lag)
			r->max_lag = G->lag;
		for (k = 0; k < G->nmembers; k++) {
			const kg_member *m = &G->members[k];
			mhealth *h = health_of(r, G->id, m->member_id, m->client_id);
			if (h->left)
				continue;
			if (m->health.hb_age_us >= 0)
				h->last_hb = f->snap->time_us - m->health.hb_age_us;
			if (m->health.poll_gap_us >= 0)
				h->last_poll = f->snap->time_us - m->health.poll_gap_us;
			h->session_us = m->health.session_timeout_us;
			h->max_poll_us = m->health.max_poll_us;
		}
	}
}

/* -------------------------------------------------------------- queries */

/* True when e is of group and kind (and client, when given). */
static bool
is(const kg_event *e, const char *group, kg_event_kind kind, const char *client)
{
	return e->kind == kind && e->group == intern_group(group) &&
	       (client == NULL || (e->client_id != NULL && strcmp(e->client_id, client) == 0));
}

/* Index of the first event after index from matching, -1 when none. */
static long
find(const run *r, size_t from, const char *group, kg_event_kind kind, const char *client)
{
	size_t i;
	for (i = from; i < r->nev; i++) {
		if (is(r->ev[i], group, kind, client))
			return (long)i;
	}
	return -1;
}

/* Index of the first member_left of group for reason, -1 when none. */
static long
find_left(const run *r, const char *group, kg_reason reason)
{
	size_t i;
	for (i = 0; i < r->nev; i++) {
		if (is(r->ev[i], group, KG_EV_MEMBER_LEFT, NULL) && r->ev[i]->reason == reason)
			return (long)i;
	}
	return -1;
}

/* The join episode of a group: that of the first partitions assigned to consumer-d; 0 none. */
static int64_t
join_episode(const run *r, const char *group)
{
	size_t i;
	for (i = 0; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (is(e, group, KG_EV_ASSIGNED, "consumer-d") && e->nparts > 0)
			return e->episode;
	}
	return 0;
}

/* True when the episode has ended. */
static bool
episode_ended(const run *r, const char *group, int64_t ep)
{
	size_t i;
	for (i = 0; ep > 0 && i < r->nev; i++) {
		if (is(r->ev[i], group, KG_EV_REBALANCE_END, NULL) && r->ev[i]->episode == ep)
			return true;
	}
	return false;
}

/* The stalled member of a group is back: a join after its max.poll leave and an ended episode after that. */
static bool
stall_done(const run *r, const char *group)
{
	long l = find_left(r, group, KG_REASON_MAX_POLL), j, e;
	if (l < 0)
		return false;
	j = find(r, (size_t)l + 1, group, KG_EV_MEMBER_JOINED, r->ev[l]->client_id);
	if (j < 0)
		return false;
	e = find(r, (size_t)j + 1, group, KG_EV_REBALANCE_END, NULL);
	return e >= 0;
}

/* The generations the coordinator completed in group within [t0, t1]. */
static int
generations(const run *r, const char *group, int64_t t0, int64_t t1)
{
	size_t i;
	int n = 0;
	for (i = 0; i < r->nst; i++)
		n += r->st[i].group == intern_group(group) && r->st[i].time >= t0 && r->st[i].time <= t1;
	return n;
}

/* True when an episode's end says a member joined a group of three that were consuming. */
static bool
join_of_three(const kg_event *e)
{
	return e->kind == KG_EV_REBALANCE_END && e->text != NULL && strncmp(e->text, "joined: ", 8) == 0 &&
	       strstr(e->text, " of 3 members stopped") != NULL;
}

/*
 * The end of the first join into three members for which the coordinator
 * ran the protocol's minimum (want generations), NULL when none yet.
 */
static const kg_event *
clean_join(const run *r, const char *group, int want)
{
	size_t i;
	for (i = 0; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (is(e, group, KG_EV_REBALANCE_END, NULL) && join_of_three(e) &&
		    generations(r, group, e->time_us - e->duration_us, e->time_us) == want)
			return e;
	}
	return NULL;
}

/* Everything the checks need has happened in every group. */
static bool
complete(const run *r)
{
	int g;
	for (g = 0; g < r->ngroups; g++) {
		const char *gr = r->groups[g];
		if (strcmp(gr, KIP) != 0 && clean_join(r, gr, strcmp(gr, EAGER) == 0 ? 1 : 2) == NULL)
			return false; /* the consumer protocol has no generations to count */
		if (!episode_ended(r, gr, join_episode(r, gr)) || find_left(r, gr, KG_REASON_GRACEFUL) < 0 ||
		    find_left(r, gr, KG_REASON_SESSION_TIMEOUT) < 0 || !stall_done(r, gr))
			return false;
	}
	return r->ngroups > 0;
}

/* ---------------------------------------------------------------- checks */

/* The fourth member joins: eager stops everyone, cooperative moves only what moves. */
static void
check_join(run *r)
{
	int64_t ep = join_episode(r, EAGER);
	const char *old[3] = { "consumer-a", "consumer-b", "consumer-c" };
	int k, nincr = 0, nfull = 0, rounds = 0;
	size_t i;
	kg_tp moving[16];
	int nmoving = 0, rrev = 0, rassign = 0;
	bool assigned_later = true, any_assigned = false;

	check(r, ep > 0 && episode_ended(r, EAGER, ep), "eager: the fourth member joins in an episode that ends");
	for (k = 0; k < 3; k++) {
		bool full = false;
		for (i = 0; i < r->nev; i++) {
			const kg_event *e = r->ev[i];
			if (is(e, EAGER, KG_EV_REVOKED, old[k]) && e->episode == ep && e->cls == KG_CLASS_FULL)
				full = true;
		}
		check(r, full, "eager: %s revokes its whole assignment when consumer-d joins", old[k]);
	}
	for (i = 0; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (is(e, EAGER, KG_EV_REVOKED, NULL) && e->episode == ep && e->cls == KG_CLASS_INCREMENTAL)
			nincr++;
	}
	check(r, nincr == 0, "eager: no incremental revoke in the join episode (%d)", nincr);

	ep = join_episode(r, COOP);
	check(r, ep > 0 && episode_ended(r, COOP, ep), "cooperative: the fourth member joins in an episode that ends");
	for (i = 0; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (!is(e, COOP, KG_EV_REVOKED, NULL) || e->episode != ep)
			continue;
		if (e->cls == KG_CLASS_FULL)
			nfull++;
		if (e->cls == KG_CLASS_INCREMENTAL) {
			nincr++;
			for (k = 0; k < e->nparts && nmoving < 16; k++)
				moving[nmoving++] = e->parts[k];
			rrev = rrev == 0 || e->round < rrev ? e->round : rrev;
		}
	}
	check(r, nfull == 0, "cooperative: no full revoke when consumer-d joins (%d)", nfull);
	check(r, nincr >= 1 && nmoving == 1, "cooperative: exactly one partition moves, revoked incrementally (%d revokes, %d partitions)",
	      nincr, nmoving);
	for (k = 0; k < nmoving; k++) {
		bool got = false;
		for (i = 0; i < r->nev; i++) {
			const kg_event *e = r->ev[i];
			if (is(e, COOP, KG_EV_ASSIGNED, "consumer-d") && e->episode == ep && tp_contains(e->parts, e->nparts, moving[k])) {
				got = true;
				any_assigned = true;
				rassign = e->round;
				if (e->round <= rrev)
					assigned_later = false;
			}
		}
		if (!got)
			assigned_later = false;
	}
	check(r, any_assigned && assigned_later && rrev >= 1,
	      "cooperative: the moving partition is revoked in round %d and assigned to consumer-d in round %d", rrev,
	      rassign);
	for (i = 0; i < r->nev; i++) {
		if (is(r->ev[i], COOP, KG_EV_REBALANCE_END, NULL) && r->ev[i]->episode == ep)
			rounds = r->ev[i]->round;
	}
	check(r, rounds >= 2, "cooperative: the join is one episode of %d rounds (at least two)", rounds);
}

/*
 * Rounds are generations: every episode has as many rounds as the
 * coordinator completed in it.  A join the coordinator ran in the
 * protocol's minimum takes 1 round eager and 2 cooperative, and costs what
 * the seeds say: all three eager members stopped for the round and all six
 * partitions unconsumed; no cooperative member stopped, one partition
 * unconsumed between the rounds.
 */
static void
check_rounds(run *r)
{
	const char *groups[2] = { EAGER, COOP };
	size_t i;
	int g, bad = 0, n = 0;
	for (i = 0; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		int want;
		if (e->kind != KG_EV_REBALANCE_END || e->duration_us < 0 || e->group == intern_group(KIP))
			continue; /* KIP-848: no JoinGroup/SyncGroup generations (check_kip) */
		want = generations(r, intern_group_name(e->group), e->time_us - e->duration_us, e->time_us);
		n++;
		if (want != e->round || e->rounds_min) {
			bad++;
			printf("# episode %lld of %s: %d round%s, the coordinator completed %d generation%s\n",
			       (long long)e->episode, intern_group_name(e->group), e->round, e->round == 1 ? "" : "s", want,
			       want == 1 ? "" : "s");
		}
	}
	check(r, n > 0 && bad == 0, "every episode's rounds are the coordinator's generations (%d episodes, %d off)", n,
	      bad);
	for (g = 0; g < 2; g++) {
		const kg_event *e = clean_join(r, groups[g], g == 0 ? 1 : 2);
		double d = e != NULL ? (double)e->duration_us / 1e6 : 0;
		check(r, e != NULL && e->round == (g == 0 ? 1 : 2) && !e->rounds_min && e->duration.min == e->duration.max,
		      "%s: a fourth member joins in %d round%s, measured (%.1fs)", groups[g], e ? e->round : 0,
		      e && e->round == 1 ? "" : "s", d);
		if (e == NULL)
			continue;
		printf("# %s join: %s\n", groups[g], e->text);
		if (g == 0)
			check(r, e->nstopped == 3 && e->stopped_us.min == e->stopped_us.max &&
				 e->stopped_us.min >= 3 * 1500000 && e->stopped_us.min <= 3 * 4000000 && e->nunconsumed == 6 &&
				 e->unconsumed_us.min >= 6 * 1500000 && e->unconsumed_us.min <= 6 * 4000000,
			      "eager: the join stops 3 members (%.1f member-s) and leaves 6 partitions unconsumed (%.1f "
			      "partition-s)",
			      (double)e->stopped_us.min / 1e6, (double)e->unconsumed_us.min / 1e6);
		else
			check(r, e->nstopped == 0 && e->nunconsumed == 1 && e->unconsumed_us.min == e->unconsumed_us.max &&
				 e->unconsumed_us.min >= 1500000 && e->unconsumed_us.min <= 4000000,
			      "cooperative: the join stops no member and leaves 1 partition unconsumed (%.1fs)",
			      (double)e->unconsumed_us.min / 1e6);
	}
}

/*
 * The consumer protocol (KIP-848): the fourth member's join is one
 * episode, opened by its join and ended when it holds its partitions, in
 * which no member stops for a barrier and no partition is revoked whole.
 */
static void
check_kip(run *r)
{
	const char *why = demo_kip848_missing();
	if (!r->kip) {
		/* this build's demo runs without it: absent from every frame, and --demo=list says why */
		check(r, why != NULL && r->kip_seen == 0 && find(r, 0, KIP, KG_EV_MEMBER_JOINED, NULL) < 0,
		      "%s is not in this build's demo (%s), and no frame shows it (%d)", KIP, why ? why : "-", r->kip_seen);
		return;
	}
	check(r, why == NULL && r->kip_seen > 0, "%s runs in this build's demo (librdkafka %s)", KIP, rd_kafka_version_str());
	int64_t ep = join_episode(r, KIP);
	long j = find(r, 0, KIP, KG_EV_MEMBER_JOINED, "consumer-d"), a = -1;
	const kg_event *end = NULL;
	size_t i;
	int starts = 0, full = 0, got = 0;
	for (i = 0; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (is(e, KIP, KG_EV_ASSIGNED, "consumer-d") && e->nparts > 0 && a < 0)
			a = (long)i;
		if (is(e, KIP, KG_EV_REBALANCE_END, NULL) && e->episode == ep)
			end = e;
	}
	for (i = 0; j >= 0 && a >= 0 && i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (!is(e, KIP, KG_EV_REBALANCE_START, NULL) || e->time_us < r->ev[j]->time_us || e->time_us > r->ev[a]->time_us)
			continue;
		starts++;
	}
	for (i = 0; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (is(e, KIP, KG_EV_REVOKED, NULL) && e->episode == ep && e->nbefore > 0)
			full += e->cls == KG_CLASS_FULL;
		if (is(e, KIP, KG_EV_ASSIGNED, "consumer-d") && e->episode == ep)
			got += e->nparts;
	}
	check(r, j >= 0 && a >= 0 && starts == 1 && end != NULL,
	      "consumer protocol: the fourth member's join is one episode that ends (%d begun between its join and its "
	      "assignment)", starts);
	if (end == NULL)
		return;
	printf("# %s join: %s\n", KIP, end->text);
	check(r, end->nstopped == 0 && full == 0 && got > 0,
	      "consumer protocol: the join stops no member, revokes nothing whole, and consumer-d reaches its assignment "
	      "(%d partitions)", got);
}

/* A crashed member is silent from its last poll, seconds before the coordinator drops it. */
static void
check_silent(run *r)
{
	const char *const *groups = r->groups;
	int g;
	for (g = 0; g < r->ngroups; g++) {
		long l = find_left(r, groups[g], KG_REASON_SESSION_TIMEOUT);
		long s = l >= 0 ? find(r, 0, groups[g], KG_EV_MEMBER_SILENT, r->ev[l]->client_id) : -1;
		double ahead = s >= 0 ? (double)(r->ev[l]->time_us - r->ev[s]->time_us) / 1e6 : 0;
		check(r, s >= 0 && ahead >= 3.0 && ahead <= 10.0 && r->ev[s]->text != NULL && strstr(r->ev[s]->text, "crashed"),
		      "%s: the crashed member is silent %.1fs before the coordinator drops it", groups[g], ahead);
	}
}

/*
 * The consumer protocol's leave: every partition the leaver gave up is
 * assigned to another member in the episode the leave opened (the mock's
 * assignor is not sticky, so a survivor may trade all it had: no count
 * of whole revokes is asserted).
 */
static void
check_kip_leave(run *r, long l, int64_t ep)
{
	const char *leaver = r->ev[l]->client_id;
	const kg_event *gave = NULL;
	size_t i;
	int k, moved = 0;
	for (i = 0; i <= (size_t)l; i++) {
		if (is(r->ev[i], KIP, KG_EV_REVOKED, leaver) && r->ev[i]->nparts > 0)
			gave = r->ev[i];
	}
	for (k = 0; gave != NULL && k < gave->nparts; k++) {
		bool found = false;
		for (i = (size_t)l; i < r->nev && !found; i++) {
			const kg_event *e = r->ev[i];
			found = is(e, KIP, KG_EV_ASSIGNED, NULL) && e->episode == ep && strcmp(e->client_id, leaver) != 0 &&
				tp_contains(e->parts, e->nparts, gave->parts[k]);
		}
		moved += found;
	}
	check(r, ep > 0 && gave != NULL && moved == gave->nparts,
	      "consumer protocol: when %s leaves, the others are assigned its %d partitions in one episode (%d)", leaver,
	      gave ? gave->nparts : 0, moved);
}

/* A graceful leave: the others stop in the eager group, not in the cooperative or the consumer-protocol one. */
static void
check_leave(run *r)
{
	const char *const *groups = r->groups;
	int g;
	for (g = 0; g < r->ngroups; g++) {
		long l = find_left(r, groups[g], KG_REASON_GRACEFUL);
		int64_t ep = 0;
		size_t i;
		int full = 0, others = 0;
		const char *leaver = l >= 0 ? r->ev[l]->client_id : "";
		check(r, l >= 0, "%s: a member leaves gracefully (LeaveGroup)", groups[g]);
		if (l < 0)
			continue;
		for (i = (size_t)l; i < r->nev && ep == 0; i++) {
			if (is(r->ev[i], groups[g], KG_EV_REBALANCE_END, NULL))
				ep = r->ev[i]->episode;
		}
		for (i = 0; i < r->nev; i++) {
			const kg_event *e = r->ev[i];
			if (!is(e, groups[g], KG_EV_REVOKED, NULL) || e->episode != ep || strcmp(e->client_id, leaver) == 0 ||
			    e->nbefore == 0)
				continue;
			others++;
			full += e->cls == KG_CLASS_FULL;
		}
		if (strcmp(groups[g], EAGER) == 0)
			check(r, others > 0 && full == others, "eager: when %s leaves, the other members revoke everything (%d of %d)",
			      leaver, full, others);
		else if (strcmp(groups[g], COOP) == 0)
			check(r, ep > 0 && full == 0, "cooperative: when %s leaves, no other member stops (%d full revokes)",
			      leaver, full);
		else
			check_kip_leave(r, l, ep);
	}
}

/* The health last seen of the member an event is about. */
static const mhealth *
member_health(const run *r, const char *group, const kg_event *e)
{
	size_t i;
	for (i = 0; i < r->nmh; i++) {
		const mhealth *h = &r->mh[i];
		if (h->group == intern_group(group) && strcmp(h->member_id, e->member_id) == 0 &&
		    strcmp(h->client_id, e->client_id ? e->client_id : "") == 0)
			return h;
	}
	return NULL;
}

/* The crashed member goes after session.timeout.ms; the stalled one after max.poll.interval.ms, then returns. */
static void
check_liveness(run *r)
{
	const char *const *groups = r->groups;
	int g;
	for (g = 0; g < r->ngroups; g++) {
		long l = find_left(r, groups[g], KG_REASON_SESSION_TIMEOUT);
		const mhealth *h = NULL;
		int64_t gap;
		h = l >= 0 ? member_health(r, groups[g], r->ev[l]) : NULL;
		check(r, l >= 0 && h != NULL && h->last_hb > 0, "%s: a crashed member leaves for session timeout", groups[g]);
		if (l >= 0 && h != NULL && h->last_hb > 0) {
			gap = r->ev[l]->time_us - h->last_hb;
			check(r, h->session_us == 4000000 && gap >= h->session_us - 100000 && gap <= h->session_us + 4000000,
			      "%s: %s dropped %.2fs after its last heartbeat (session.timeout.ms %.1fs)", groups[g], h->client_id,
			      (double)gap / 1e6, (double)h->session_us / 1e6);
		}

		l = find_left(r, groups[g], KG_REASON_MAX_POLL);
		h = l >= 0 ? member_health(r, groups[g], r->ev[l]) : NULL;
		check(r, l >= 0 && h != NULL && h->last_poll > 0, "%s: a stalled member leaves for max.poll.interval.ms",
		      groups[g]);
		if (l >= 0 && h != NULL && h->last_poll > 0) {
			gap = r->ev[l]->time_us - h->last_poll;
			check(r, h->max_poll_us == 6000000 && gap >= h->max_poll_us && gap <= h->max_poll_us + 2500000,
			      "%s: %s kicked out %.2fs after its last poll (max.poll.interval.ms %.1fs)", groups[g], h->client_id,
			      (double)gap / 1e6, (double)h->max_poll_us / 1e6);
		}
		check(r, stall_done(r, groups[g]), "%s: the stalled member comes back and the group settles", groups[g]);
	}
}

/* --------------------------------------------------------------- driver */

/* Run the default scenario until every check has what it needs. */
int
main(void)
{
	run r;
	kg_options o;
	kg_demo_config dc;
	kg_kafka_config kc;
	kg_collector_config cc;
	kg_tracker *t;
	kg_collector *c;
	kg_source *demo = NULL, *kafka = NULL;
	kg_tap tap;
	const char *bootstrap = NULL;
	char err[512];
	int64_t end, t_stop;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&r, 0, sizeof r);
	r.max_lag = -1;
	/* the groups this build's demo has: eager and cooperative, and the consumer protocol's with librdkafka >= 2.12 */
	r.ngroups = demo_scenario_groups("default", r.groups, MAX_GROUPS);
	for (i = 0; i < (size_t)r.ngroups; i++)
		r.kip = r.kip || strcmp(r.groups[i], KIP) == 0;
	printf("# librdkafka %s: the demo runs %d groups%s\n", rd_kafka_version_str(), r.ngroups,
	       r.kip ? "" : " (no consumer-protocol group)");
	options_defaults(&o); /* the demo and the kafka source at the options' defaults */
	memset(&dc, 0, sizeof dc);
	dc.scenario = "default";
	dc.partitions = o.demo_partitions;
	if (demo_source_new(&dc, &demo, &bootstrap, err, sizeof err) < 0) {
		printf("not ok 1 - demo_source_new: %s\n1..1\n", err);
		return 1;
	}
	memset(&kc, 0, sizeof kc);
	kc.brokers = bootstrap;
	kc.interval_us = 1000000;
	kc.timeout_us = 5000000;
	kc.full_refresh_us = o.full_refresh_us;
	kc.max_requests = o.max_requests;
	options_free(&o);
	if (kafka_source_new(&kc, &kafka, err, sizeof err) < 0) {
		printf("not ok 1 - kafka_source_new: %s\n1..1\n", err);
		source_free(demo);
		return 1;
	}
	demo_source_set_kafka(demo, kafka);
	kg_tracker_config mc = options_model_defaults();
	t = tracker_new(&mc);
	memset(&cc, 0, sizeof cc);
	cc.interval_us = 1000000;
	cc.cluster = "demo (mock cluster)";
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	collector_add_source(c, kafka, NULL, 0);
	collector_add_source(c, demo, NULL, 0);
	r.t0 = util_now_us();
	tap.before = tap_before;
	tap.after = NULL;
	tap.arg = &r;
	collector_add_tap(c, &tap, NULL, 0);
	if (collector_start(c, err, sizeof err) < 0) {
		printf("not ok 1 - collector_start: %s\n1..1\n", err);
		return 1;
	}
	check(&r, bootstrap != NULL && strchr(bootstrap, ':') != NULL, "the demo's mock cluster is up (%s)",
	      bootstrap ? bootstrap : "-");

	end = util_mono_us() + RUN_LIMIT_US;
	while (util_mono_us() < end && !complete(&r)) {
		struct pollfd p = { collector_fd(c), POLLIN, 0 };
		kg_frame *f;
		poll(&p, 1, 500);
		f = collector_take(c);
		if (f != NULL) {
			take(&r, f);
			frame_free(f);
		}
	}
	printf("# the scenario ran %.1fs\n", (double)(util_now_us() - r.t0) / 1e6);
	check(&r, complete(&r), "join, leave, crash and stall all happened in the %d groups within %llds", r.ngroups,
	      (long long)(RUN_LIMIT_US / 1000000));
	check_rounds(&r);
	check_join(&r);
	check_kip(&r);
	check_leave(&r);
	check_liveness(&r);
	check_silent(&r);
	check(&r, r.max_lag >= 0, "the kafka source reports lag for the demo groups (largest %lld)", (long long)r.max_lag);

	t_stop = util_mono_us();
	collector_stop(c);
	t_stop = util_mono_us() - t_stop;
	check(&r, t_stop < CLOSE_LIMIT_US, "the demo closes in %.2fs", (double)t_stop / 1e6);
	collector_free(c);
	tracker_free(t);
	for (i = 0; i < r.nev; i++)
		event_unref(r.ev[i]);
	free(r.ev);
	free(r.st);
	for (i = 0; i < r.nmh; i++) {
		free(r.mh[i].member_id);
		free(r.mh[i].client_id);
	}
	free(r.mh);
	printf("1..%d\n", r.tests);
	return r.failed > 0 ? 1 : 0;
}

/*
 * test_demo_commands.c: the demo's controls, as the UI sends them.
 *
 * The manual scenario (three members per group, no script) runs on the
 * mock cluster behind a collector thread; commands go through
 * collector_command(c, "demo", ...) and their replies come back in the
 * frames' message, their effects as derived events:
 *  - replies for assignor, pause-script (no script here), unknown groups;
 *  - on the mock, a member with another assignor is refused (the mock
 *    aborts when one group mixes assignors);
 *  - add-member joins consumer-d; a member stalled while that rebalance is
 *    under way is kicked out for max.poll.interval.ms and comes back as a
 *    new member, leaving once and revoking nothing it did not hold; crash
 *    makes a member leave for session timeout; leave is graceful;
 *  - stopping during a cooperative member's first join neither aborts
 *    (librdkafka 2.0.2's sticky assignor) nor takes more than a few seconds.
 * Everything polls with deadlines.
 */
#include "config.h"

#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/collector.h"
#include "model/intern.h"
#include "model/tracker.h"
#include "sources/demo/demo.h"
#include "util/util.h"

#define EAGER "kgtop-demo-eager"
#define COOP "kgtop-demo-coop"

typedef struct run {
	kg_collector *c;
	kg_event **ev;
	size_t nev, cev;
	char *message;   /* the last command reply */
	int64_t t0;
	int tests, failed;
} run;

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
		tp_format(&s, o->parts, o->nparts, true);
		printf("# obs %8.3f %-16s %-10s %-9s %-14s %s %s %s\n", (double)(o->time_us - r->t0) / 1e6,
		       intern_group_name(o->group), o->client_id ? o->client_id : "-", obs_kind_name(o->kind),
		       o->member_id ? o->member_id : "-", sbuf_str(&s), reason_key(o->reason), o->text ? o->text : "");
		sbuf_free(&s);
	}
}

/* Take frames for at most wait_us, keeping events and the last reply. */
static void
pump(run *r, int64_t wait_us)
{
	int64_t end = util_mono_us() + wait_us;
	do {
		struct pollfd p = { collector_fd(r->c), POLLIN, 0 };
		kg_frame *f;
		size_t i;
		poll(&p, 1, 100);
		f = collector_take(r->c);
		if (f == NULL)
			continue;
		for (i = 0; i < f->events.n; i++) {
			sbuf s = { 0 };
			event_format_line(f->events.v[i], r->t0, &s);
			printf("# ev  %s %s\n", f->events.v[i]->group >= 0 ? intern_group_name(f->events.v[i]->group) : "",
			       sbuf_str(&s));
			sbuf_free(&s);
			util_grow(&r->ev, &r->cev, r->nev + 1, sizeof *r->ev);
			r->ev[r->nev++] = event_ref(f->events.v[i]);
		}
		if (f->message != NULL) {
			printf("# reply: %s\n", f->message);
			free(r->message);
			r->message = xstrdup(f->message);
		}
		frame_free(f);
	} while (util_mono_us() < end);
}

/* Send a command and wait (bounded) for its reply; returns it ("" when none). */
static const char *
command(run *r, const char *cmd)
{
	int64_t end = util_mono_us() + 5000000;
	free(r->message);
	r->message = NULL;
	printf("# command: %s\n", cmd);
	collector_command(r->c, "demo", cmd);
	while (r->message == NULL && util_mono_us() < end)
		pump(r, 100000);
	return r->message ? r->message : "";
}

/* Index of the first event of group, kind (client, reason when given) from index from; -1 none. */
static long
find(const run *r, size_t from, const char *group, kg_event_kind kind, const char *client, kg_reason reason)
{
	size_t i;
	for (i = from; i < r->nev; i++) {
		const kg_event *e = r->ev[i];
		if (e->kind == kind && e->group == intern_group(group) &&
		    (client == NULL || (e->client_id != NULL && strcmp(e->client_id, client) == 0)) &&
		    (reason == KG_REASON_NONE || e->reason == reason))
			return (long)i;
	}
	return -1;
}

/* Wait (bounded) until find() succeeds; returns its index or -1. */
static long
await(run *r, int64_t limit_us, size_t from, const char *group, kg_event_kind kind, const char *client, kg_reason reason)
{
	int64_t end = util_mono_us() + limit_us;
	long i;
	while ((i = find(r, from, group, kind, client, reason)) < 0 && util_mono_us() < end)
		pump(r, 200000);
	return i;
}

/* Drive the controls. */
int
main(void)
{
	run r;
	kg_options o;
	kg_demo_config dc;
	kg_collector_config cc;
	kg_tracker *t;
	kg_source *demo = NULL;
	const char *bootstrap = NULL, *reply;
	char err[512];
	long i, j, k;
	size_t mark;
	int64_t t_stop;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&r, 0, sizeof r);
	options_defaults(&o); /* the demo's topic at the options' default */
	memset(&dc, 0, sizeof dc);
	dc.scenario = "manual";
	dc.partitions = o.demo_partitions;
	options_free(&o);
	if (demo_source_new(&dc, &demo, &bootstrap, err, sizeof err) < 0) {
		printf("not ok 1 - demo_source_new: %s\n1..1\n", err);
		return 1;
	}
	kg_tracker_config mc = options_model_defaults();
	t = tracker_new(&mc);
	memset(&cc, 0, sizeof cc);
	cc.interval_us = 500000;
	if (collector_new(&cc, t, &r.c, NULL, 0) < 0)
		abort(); /* no pipe */
	collector_add_source(r.c, demo, NULL, 0);
	r.t0 = util_now_us();
	{
		kg_tap tap = { tap_before, NULL, &r };
		collector_add_tap(r.c, &tap, NULL, 0);
	}
	if (collector_start(r.c, err, sizeof err) < 0) {
		printf("not ok 1 - collector_start: %s\n1..1\n", err);
		return 1;
	}

	/* both groups settle with three members */
	i = await(&r, 30000000, 0, EAGER, KG_EV_REBALANCE_END, NULL, KG_REASON_NONE);
	j = await(&r, 30000000, 0, COOP, KG_EV_REBALANCE_END, NULL, KG_REASON_NONE);
	check(&r, i >= 0 && j >= 0, "both groups settle");

	reply = command(&r, "pause-script");
	check(&r, strstr(reply, "has no script") != NULL, "pause-script without a script says so: %s", reply);
	reply = command(&r, "leave nosuchgroup");
	check(&r, strstr(reply, "no demo group") != NULL, "an unknown group is refused: %s", reply);
	reply = command(&r, "assignor roundrobin");
	check(&r, strcmp(reply, "members added next use roundrobin") == 0, "assignor: %s", reply);
	reply = command(&r, "add-member eager");
	check(&r, strstr(reply, "mixes them") != NULL, "the mock refuses a second assignor in a group: %s", reply);
	reply = command(&r, "assignor default");
	check(&r, strstr(reply, "their group's assignor") != NULL, "assignor default: %s", reply);

	/*
	 * consumer-d joins the cooperative group and, while that rebalance is
	 * under way, the newest member that can act stalls: it misses the
	 * rebalance, is kicked out, and when it polls again it revokes what it
	 * held then (lost, under its old member id) and rejoins as a new member.
	 * Meanwhile a member crashes in the eager group.
	 */
	mark = r.nev;
	reply = command(&r, "add-member coop");
	check(&r, strcmp(reply, "added consumer-d to kgtop-demo-coop") == 0, "add-member: %s", reply);
	reply = command(&r, "stall coop");
	check(&r, strstr(reply, "stalls in kgtop-demo-coop") != NULL, "stall during the join: %s", reply);
	reply = command(&r, "crash");
	check(&r, strstr(reply, "crashed in kgtop-demo-eager") != NULL, "crash (first group): %s", reply);
	i = await(&r, 20000000, mark, COOP, KG_EV_MEMBER_JOINED, "consumer-d", KG_REASON_NONE);
	check(&r, i >= 0, "consumer-d joins kgtop-demo-coop");
	i = await(&r, 20000000, mark, EAGER, KG_EV_MEMBER_LEFT, NULL, KG_REASON_SESSION_TIMEOUT);
	check(&r, i >= 0, "the crashed member leaves kgtop-demo-eager for session timeout");
	j = await(&r, 25000000, mark, COOP, KG_EV_MEMBER_LEFT, NULL, KG_REASON_MAX_POLL);
	check(&r, j >= 0, "the stalled member is kicked out for max.poll.interval.ms");
	k = j >= 0 ? await(&r, 35000000, (size_t)j + 1, COOP, KG_EV_MEMBER_JOINED, r.ev[j]->client_id, KG_REASON_NONE) : -1;
	check(&r, k >= 0, "and joins again once the group has settled without it");
	i = k >= 0 ? await(&r, 30000000, (size_t)k + 1, COOP, KG_EV_REBALANCE_END, NULL, KG_REASON_NONE) : -1;
	check(&r, i >= 0, "the cooperative group settles with it back");
	if (j >= 0 && i >= 0) {
		size_t q;
		int lefts = 0, nothing = 0;
		for (q = (size_t)j; q <= (size_t)i; q++) {
			const kg_event *e = r.ev[q];
			if (e->group != intern_group(COOP) || e->client_id == NULL || strcmp(e->client_id, r.ev[j]->client_id) != 0)
				continue;
			lefts += e->kind == KG_EV_MEMBER_LEFT;
			nothing += e->kind == KG_EV_REVOKED && e->nparts > 0 && e->cls == KG_CLASS_NONE;
		}
		check(&r, lefts == 1 && nothing == 0,
		      "the stalled member left once and revoked nothing it did not hold (%d left, %d odd revokes)", lefts,
		      nothing);
	}

	mark = r.nev;
	reply = command(&r, "leave eager");
	check(&r, strstr(reply, "leaves kgtop-demo-eager") != NULL, "leave: %s", reply);
	i = await(&r, 15000000, mark, EAGER, KG_EV_MEMBER_LEFT, NULL, KG_REASON_GRACEFUL);
	check(&r, i >= 0, "the eager member leaves gracefully");

	/*
	 * Stop while a new cooperative member waits for its first assignment:
	 * librdkafka 2.0.2 aborts the process if such a consumer is destroyed
	 * (issue #4312); the demo waits for the assignment, bounded.
	 */
	reply = command(&r, "add-member coop");
	check(&r, strstr(reply, "added consumer-") != NULL, "add-member right before exit: %s", reply);
	t_stop = util_mono_us();
	collector_stop(r.c);
	t_stop = util_mono_us() - t_stop;
	check(&r, t_stop < 5000000, "the demo closes in %.2fs, during a cooperative join", (double)t_stop / 1e6);
	collector_free(r.c);
	tracker_free(t);
	for (mark = 0; mark < r.nev; mark++)
		event_unref(r.ev[mark]);
	free(r.ev);
	free(r.message);
	printf("1..%d\n", r.tests);
	return r.failed > 0 ? 1 : 0;
}

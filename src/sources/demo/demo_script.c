/*
 * demo_script.c: the scenario table, the script engine and command parsing
 * (and demo.h's questions about scenarios, answered from the table).
 *
 * The default scenario is the seeds' bench, live: an eager (range), a
 * cooperative (cooperative-sticky) and a consumer-protocol (KIP-848) group
 * on the same topic run the same script side by side.  Steps act on every group at once and the next step
 * waits until every group has settled, so the two stay in lockstep and the
 * audience compares like with like.  The stall step's own wait covers the
 * whole story: kicked out, the group rebalances without it, it comes back
 * and the group rebalances again.
 */
#include "config.h"

#include "sources/demo/demo_script.h"

#include "sources/demo/demo.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

/*
 * A scenario is one row: its name and line for --demo=list, whether it
 * needs a real cluster, its groups (names start with kgtop-demo-: on a
 * real cluster they are deleted at exit), its script written in place
 * with STEPS(...) (none: the demo keys drive it), and the step LOOP goes
 * back to.  Steps act on every group at once: { action, which member
 * (oldest first, or DEMO_NEWEST), go on without waiting to settle, a
 * stall's quick return, hold in ms, label }.
 */
#define STEPS(...) .steps = (const demo_step[]){ __VA_ARGS__ }, \
		   .nsteps = (int)(sizeof((const demo_step[]){ __VA_ARGS__ }) / sizeof(demo_step))
/*
 * The three protocols side by side: eager, cooperative, and the consumer
 * protocol (KIP-848: group.protocol=consumer, the coordinator assigns;
 * DEMO_CONSUMER_PROTOCOL stands where the assignor would).  A librdkafka
 * without it (before 2.12) runs the first two.
 */
#define THREE_PROTOCOLS .ngroups = 3, \
			.groups = { { "kgtop-demo-eager", "range", 3, false }, \
				    { "kgtop-demo-coop", "cooperative-sticky", 3, false }, \
				    { "kgtop-demo-consumer", DEMO_CONSUMER_PROTOCOL, 3, false } }

/* The seeds' bench: default runs it on range, roundrobin on roundrobin, both next to cooperative-sticky. */
#define BENCH_STEPS                                                                                   \
	STEPS({ DEMO_ACT_NONE, 0, false, false, 4000, "three members settle" },                       \
	      { DEMO_ACT_ADD, 0, false, false, 5000, "a fourth member joins" },                       \
	      { DEMO_ACT_LEAVE, 1, false, false, 4000, "a member leaves (LeaveGroup)" },              \
	      { DEMO_ACT_CRASH, 1, false, false, 4000, "a member crashes (no more heartbeats)" },     \
	      { DEMO_ACT_STALL, 0, false, false, 4000, "a member stalls past max.poll.interval.ms" }, \
	      { DEMO_ACT_REFILL, 0, false, false, 4000, "back to three members" },                    \
	      { DEMO_ACT_LOOP, 0, false, false, 0, "again" })

static const demo_scenario scenarios[] = {
	{ .name = "default",
	  .help = "kgtop-demo-eager (range), -coop (cooperative-sticky) and -consumer (group.protocol=consumer, "
		  "KIP-848): join, leave, crash, stall, repeat",
	  THREE_PROTOCOLS,
	  BENCH_STEPS,
	  .loop_from = 1 },
	{ .name = "roundrobin",
	  .help = "the default script with roundrobin (eager) next to cooperative-sticky",
	  .ngroups = 2,
	  .groups = { { "kgtop-demo-roundrobin", "roundrobin", 3, false },
		      { "kgtop-demo-coop", "cooperative-sticky", 3, false } },
	  BENCH_STEPS,
	  .loop_from = 1 },
	{ .name = "join",
	  .help = "the join alone: a fourth member joins and leaves, eager, cooperative and the consumer protocol",
	  THREE_PROTOCOLS,
	  STEPS({ DEMO_ACT_NONE, 0, false, false, 4000, "three members settle" },
		{ DEMO_ACT_ADD, 0, false, false, 6000, "a fourth member joins" },
		{ DEMO_ACT_LEAVE, DEMO_NEWEST, false, false, 5000, "the fourth member leaves" },
		{ DEMO_ACT_LOOP, 0, false, false, 0, "again" }),
	  .loop_from = 1 },
	{ .name = "storm",
	  .help = "members keep stalling past max.poll.interval.ms: a rebalance storm, eager and cooperative",
	  .ngroups = 2,
	  .groups = { { "kgtop-demo-storm-eager", "range", 4, false },
		      { "kgtop-demo-storm-coop", "cooperative-sticky", 4, false } },
	  STEPS({ DEMO_ACT_NONE, 0, false, false, 3000, "four members settle" },
		{ DEMO_ACT_STALL, 0, true, true, 4000, "a member stalls" },
		{ DEMO_ACT_STALL, 0, true, true, 4000, "another member stalls" },
		{ DEMO_ACT_LOOP, 0, false, false, 0, "and again" }),
	  .loop_from = 1 },
	{ .name = "commits",
	  .help = "a member crashes with records processed but not committed: auto-commit every 5s against commit after "
		  "processing (records processed twice, counted)",
	  .ngroups = 2,
	  .groups = { { "kgtop-demo-autocommit", "cooperative-sticky", 3, false, DEMO_COMMIT_AUTO },
		      { "kgtop-demo-aftercommit", "cooperative-sticky", 3, false, DEMO_COMMIT_AFTER } },
	  STEPS({ DEMO_ACT_NONE, 0, false, false, 7000, "three members consume and commit" },
		{ DEMO_ACT_CRASH, 0, false, false, 6000, "a member crashes: records processed, not committed" },
		{ DEMO_ACT_REFILL, 0, false, false, 6000, "back to three members" },
		{ DEMO_ACT_LOOP, 0, false, false, 0, "again" }),
	  .loop_from = 1 },
	{ .name = "manual",
	  .help = "three members per group and no script: drive it with the demo keys",
	  THREE_PROTOCOLS },
	{ .name = "static",
	  .help = "static membership (KIP-345): a restart within session.timeout.ms, static next to dynamic",
	  .real_only = true,
	  .ngroups = 2,
	  .groups = { { "kgtop-demo-static", "range", 3, true }, { "kgtop-demo-dynamic", "range", 3, false } },
	  STEPS({ DEMO_ACT_NONE, 0, false, false, 5000, "three members settle" },
		{ DEMO_ACT_RESTART, 0, false, false, 8000, "a member restarts within session.timeout.ms" },
		{ DEMO_ACT_LOOP, 0, false, false, 0, "again" }),
	  .loop_from = 1 },
};

/* How a commit policy reads. */
const char *
demo_commit_policy(demo_commit c)
{
	switch (c) {
	case DEMO_COMMIT_AUTO: return "auto-commit every 5s";
	case DEMO_COMMIT_AFTER: return "commit after processing, batches of 10";
	default: return NULL;
	}
}

/* Number of scenarios. */
int
demo_scenario_count(void)
{
	return (int)KG_ARRAY_LEN(scenarios);
}

/* Scenario i. */
const demo_scenario *
demo_scenario_at(int i)
{
	if (i < 0 || i >= demo_scenario_count())
		return NULL;
	return &scenarios[i];
}

/* Find by name. */
const demo_scenario *
demo_scenario_find(const char *name)
{
	int i;
	if (name == NULL || *name == '\0')
		return &scenarios[0];
	for (i = 0; i < demo_scenario_count(); i++) {
		if (strcmp(scenarios[i].name, name) == 0)
			return &scenarios[i];
	}
	return NULL;
}

/* Why a scenario cannot run here. */
const char *
demo_scenario_unavailable(const demo_scenario *sc, bool real_cluster)
{
	if (sc == NULL)
		return "unknown scenario (--demo=list lists them)";
	if (sc->real_only && !real_cluster)
		return "needs a real cluster (--demo=static -b BROKERS): librdkafka's mock cluster ignores "
		       "group.instance.id, so a restart there is a new member and a full rebalance, not KIP-345";
	return NULL;
}

/* Runs here. */
bool
demo_group_runs(const demo_group_def *g)
{
	return demo_assignor_proto(g->assignor) != KG_PROTO_CONSUMER || demo_kip848_missing() == NULL;
}

/* The groups run here. */
int
demo_scenario_groups(const char *name, const char **names, int max)
{
	const demo_scenario *sc = demo_scenario_find(name);
	int g, n = 0;
	if (sc == NULL)
		return -1;
	for (g = 0; g < sc->ngroups; g++) {
		if (!demo_group_runs(&sc->groups[g]))
			continue;
		if (n < max)
			names[n] = sc->groups[g].name;
		n++;
	}
	return n;
}

/* Print the scenarios (and what this build leaves out of them). */
void
demo_list_scenarios(void)
{
	int i, g;
	for (i = 0; i < demo_scenario_count(); i++) {
		const demo_scenario *sc = demo_scenario_at(i);
		printf("%-11s %s%s\n", sc->name, sc->help, sc->real_only ? " (real cluster only: -b BROKERS)" : "");
		for (g = 0; g < sc->ngroups; g++) {
			if (!demo_group_runs(&sc->groups[g]))
				printf("%-11s here without %s: %s\n", "", sc->groups[g].name, demo_kip848_missing());
		}
	}
}

/* Known and runnable there. */
bool
demo_scenario_known(const char *name, bool real_cluster)
{
	return demo_scenario_why_not(name, real_cluster) == NULL;
}

/* Why not. */
const char *
demo_scenario_why_not(const char *name, bool real_cluster)
{
	return demo_scenario_unavailable(demo_scenario_find(name), real_cluster);
}

/* Has a script to pause. */
bool
demo_scenario_scripted(const char *name)
{
	const demo_scenario *sc = demo_scenario_find(name);
	return sc != NULL && sc->nsteps > 0;
}


/* ---------------------------------------------------------------- engine */

/* Set up a script. */
void
demo_script_init(demo_script *s, const demo_scenario *sc, int64_t wait_limit_us)
{
	memset(s, 0, sizeof *s);
	s->sc = sc;
	s->phase = DEMO_PH_ACT;
	s->wait_limit_us = wait_limit_us > 0 ? wait_limit_us : 45LL * 1000000;
	s->hold_scale_pct = 100;
}

/* True when there are steps. */
bool
demo_script_has_steps(const demo_script *s)
{
	return s->sc != NULL && s->sc->nsteps > 0;
}

/* Run what is due. */
int64_t
demo_script_run(demo_script *s, const demo_world *w, int64_t now)
{
	int guard = 0, gi;
	if (!demo_script_has_steps(s) || s->paused || s->step >= s->sc->nsteps)
		return 0;
	for (;;) {
		const demo_step *st = &s->sc->steps[s->step];
		if (++guard > 4 * s->sc->nsteps + 4)
			return now + 100000; /* a table of nothing but loops: come back later */
		switch (s->phase) {
		case DEMO_PH_ACT:
			if (st->action == DEMO_ACT_LOOP) {
				s->loops++;
				s->step = s->sc->loop_from;
				continue;
			}
			s->error[0] = '\0';
			if (st->action != DEMO_ACT_NONE) {
				for (gi = 0; gi < s->sc->ngroups; gi++) {
					char err[128] = "";
					if (w->act(w->arg, gi, st, err, sizeof err) < 0 && s->error[0] == '\0')
						snprintf(s->error, sizeof s->error, "%s: %s", s->sc->groups[gi].name, err);
				}
			}
			s->phase = DEMO_PH_WAIT;
			s->deadline_us = now + s->wait_limit_us;
			continue;
		case DEMO_PH_WAIT: {
			bool all = true;
			if (!st->nowait) {
				for (gi = 0; gi < s->sc->ngroups; gi++) {
					if (!w->settled(w->arg, gi, st, now))
						all = false;
				}
			}
			if (!all && now < s->deadline_us)
				return now + 200000;
			if (!all)
				s->timeouts++;
			s->phase = DEMO_PH_HOLD;
			s->hold_until_us = now + (int64_t)st->hold_ms * 1000 * s->hold_scale_pct / 100;
			continue;
		}
		case DEMO_PH_HOLD:
			if (now < s->hold_until_us)
				return s->hold_until_us;
			s->step++;
			s->phase = DEMO_PH_ACT;
			if (s->step >= s->sc->nsteps)
				return 0; /* a script without LOOP ends here */
			continue;
		default:
			return 0;
		}
	}
}

/* Pause or resume. */
void
demo_script_pause(demo_script *s, bool paused, int64_t now)
{
	if (paused == s->paused)
		return;
	if (paused) {
		s->paused_at_us = now;
	} else if (now > s->paused_at_us) {
		s->deadline_us += now - s->paused_at_us;
		s->hold_until_us += now - s->paused_at_us;
	}
	s->paused = paused;
}

/* One status line. */
void
demo_script_status(const demo_script *s, char *buf, size_t n)
{
	static const char *const phase[DEMO_PH_COUNT] = { "starting", "settling", "holding" };
	const demo_step *st;
	if (!demo_script_has_steps(s)) {
		snprintf(buf, n, "no script (the demo keys drive it)");
		return;
	}
	if (s->step >= s->sc->nsteps) {
		snprintf(buf, n, "script finished");
		return;
	}
	st = &s->sc->steps[s->step];
	snprintf(buf, n, "%d/%d %s (%s)%s", s->step + 1, s->sc->nsteps, st->label,
		 s->paused ? "paused" : phase[s->phase], s->error[0] ? "; " : "");
	if (s->error[0] != '\0') {
		size_t l = strlen(buf);
		if (l < n)
			snprintf(buf + l, n - l, "%s", s->error);
	}
}

/* The health line. */
void
demo_health_format(char *buf, size_t n, const demo_health *h)
{
	size_t l;
	snprintf(buf, n, "%s: %s; %d consumers, %d msg/s, %s", h->scenario, h->script, h->consumers, h->rate,
		 h->real ? "real cluster" : "mock cluster (3 brokers)");
	l = strlen(buf);
	if (h->error != NULL && h->error[0] != '\0' && l < n)
		snprintf(buf + l, n - l, "; %s", h->error);
	l = strlen(buf);
	/* a producer error only while recent: it may have been a blip */
	if (h->prod_error != NULL && h->prod_error[0] != '\0' && h->prod_error_age_us < 0 && l < n)
		snprintf(buf + l, n - l, "; %s", h->prod_error);
	else if (h->prod_error != NULL && h->prod_error[0] != '\0' && h->prod_error_age_us < DEMO_PROD_ERROR_SHOWN_US &&
		 l < n)
		snprintf(buf + l, n - l, "; %s (%.0fs ago)", h->prod_error, (double)h->prod_error_age_us / 1e6);
	l = strlen(buf);
	if (h->mismatches > 0 && l < n)
		snprintf(buf + l, n - l, "; %u assignment mismatch%s", h->mismatches, h->mismatches == 1 ? "" : "es");
	l = strlen(buf);
	if (h->export_note != NULL && h->export_note[0] != '\0' && l < n)
		snprintf(buf + l, n - l, "; %s", h->export_note);
}

/* -------------------------------------------------------------- commands */

/* Parse a command line. */
int
demo_cmd_parse(const char *line, demo_cmd *out, char *err, size_t errsz)
{
	static const struct {
		const char *verb;
		demo_cmd_kind kind;
		int args; /* 0 none, 1 optional group, 2 required name */
	} verbs[] = {
		{ "add-member", DEMO_CMD_ADD, 1 },  { "leave", DEMO_CMD_LEAVE, 1 },
		{ "crash", DEMO_CMD_CRASH, 1 },     { "stall", DEMO_CMD_STALL, 1 },
		{ "assignor", DEMO_CMD_ASSIGNOR, 2 }, { "pause-script", DEMO_CMD_PAUSE, 0 },
		{ "resume-script", DEMO_CMD_RESUME, 0 }, { "refresh", DEMO_CMD_REFRESH, 0 },
	};
	const char *p = line ? line : "", *v, *a;
	size_t vl, al, i;
	memset(out, 0, sizeof *out);
	while (isspace((unsigned char)*p))
		p++;
	v = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	vl = (size_t)(p - v);
	while (isspace((unsigned char)*p))
		p++;
	a = p;
	al = strlen(a);
	while (al > 0 && isspace((unsigned char)a[al - 1]))
		al--;
	for (i = 0; i < KG_ARRAY_LEN(verbs); i++) {
		if (strlen(verbs[i].verb) == vl && strncmp(verbs[i].verb, v, vl) == 0)
			break;
	}
	if (i == KG_ARRAY_LEN(verbs))
		return util_err(err, errsz, "unknown demo command \"%.*s\"", (int)(vl > 40 ? 40 : vl), v);
	out->kind = verbs[i].kind;
	if (verbs[i].args == 0 && al > 0)
		return util_err(err, errsz, "%s takes no argument", verbs[i].verb);
	if (al >= sizeof out->arg)
		return util_err(err, errsz, "%s: argument too long", verbs[i].verb);
	memcpy(out->arg, a, al);
	out->arg[al] = '\0';
	if (verbs[i].args == 2) {
		if (al == 0)
			return util_err(err, errsz, "assignor needs a name: range, roundrobin, cooperative-sticky");
		if (strcmp(out->arg, "default") == 0)
			out->arg[0] = '\0';
		else if (!demo_assignor_valid(out->arg))
			return util_err(err, errsz, "unknown assignor \"%s\": range, roundrobin, cooperative-sticky",
					out->arg);
	}
	return 0;
}

/* The assignors offered. */
bool
demo_assignor_valid(const char *name)
{
	return name != NULL && (strcmp(name, "range") == 0 || strcmp(name, "roundrobin") == 0 ||
				strcmp(name, "cooperative-sticky") == 0);
}

/* The protocol of an assignor. */
kg_proto
demo_assignor_proto(const char *name)
{
	if (name == NULL)
		return KG_PROTO_UNKNOWN;
	if (strcmp(name, "cooperative-sticky") == 0)
		return KG_PROTO_COOPERATIVE;
	if (strcmp(name, DEMO_CONSUMER_PROTOCOL) == 0)
		return KG_PROTO_CONSUMER;
	if (strcmp(name, "range") == 0 || strcmp(name, "roundrobin") == 0)
		return KG_PROTO_EAGER;
	return KG_PROTO_UNKNOWN;
}

/* consumer-a, ..., consumer-z, consumer-aa, ... */
void
demo_client_id(int idx, char *buf, size_t n)
{
	char letters[16];
	int k = (int)sizeof letters - 1, v = idx < 0 ? 0 : idx;
	letters[k] = '\0';
	do {
		letters[--k] = (char)('a' + v % 26);
		v = v / 26 - 1;
	} while (v >= 0 && k > 0);
	snprintf(buf, n, "consumer-%s", letters + k);
}

/* Match a typed group name. */
bool
demo_group_matches(const char *full, const char *typed)
{
	size_t pl = strlen(DEMO_GROUP_PREFIX);
	if (full == NULL || typed == NULL || *typed == '\0')
		return false;
	if (strcmp(full, typed) == 0)
		return true;
	return strncmp(full, DEMO_GROUP_PREFIX, pl) == 0 && strcmp(full + pl, typed) == 0;
}

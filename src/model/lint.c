/*
 * lint.c: a group's liveness settings against the seeds' rules.
 *
 * Where the settings are known (the demo's consumers, a trace that
 * carries them, --session-timeout / --max-poll-interval), they are checked
 * the way the seeds teach: heartbeat.interval.ms at most a third of
 * session.timeout.ms; session.timeout.ms within the broker's
 * group.min.session.timeout.ms and group.max.session.timeout.ms (the
 * broker's own values are not visible to clients: Kafka's defaults, 6 s
 * and 30 min, said as such); max.poll.interval.ms not below
 * session.timeout.ms; and poll gaps approaching max.poll.interval.ms
 * (most "ghost" rebalances are poll-interval expiries).  Kafka's own
 * defaults pass these rules, so a group about which nothing is known
 * gets no lint at all: a lint is never a guess.  The demo's deliberately
 * short session timeout is said to be a demo setting (demo_setting()).
 */
#include "config.h"

#include "model/lint.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

#define BROKER_MIN_SESSION_US (6LL * 1000000)    /* group.min.session.timeout.ms default */
#define BROKER_MAX_SESSION_US (1800LL * 1000000) /* group.max.session.timeout.ms default */
#define POLL_GAP_WARN 0.8                        /* of max.poll.interval.ms */

/* Add one lint. */
static int
add(kg_lint *out, int n, int max, kg_lint_level level, const char *fmt, ...) KG_PRINTF(5, 6);

/* Add one lint. */
static int
add(kg_lint *out, int n, int max, kg_lint_level level, const char *fmt, ...)
{
	va_list ap;
	if (n >= max)
		return n;
	out[n].level = level;
	va_start(ap, fmt);
	vsnprintf(out[n].text, sizeof out[n].text, fmt, ap);
	va_end(ap);
	return n + 1;
}

/* The heartbeat interval the members show (the largest), -1 when none does. */
static int64_t
group_hb_interval(const kg_group *g)
{
	int64_t hb = -1;
	int i;
	for (i = 0; i < g->nmembers; i++) {
		if (g->members[i].health.hb_interval_us > hb)
			hb = g->members[i].health.hb_interval_us;
	}
	return hb;
}

/* The member whose longest poll gap comes closest to its max.poll.interval.ms, NULL when none is known. */
static const kg_member *
closest_poll_gap(const kg_group *g, double *ratio)
{
	const kg_member *best = NULL;
	int i;
	*ratio = 0;
	for (i = 0; i < g->nmembers; i++) {
		const kg_member_health *h = &g->members[i].health;
		double r;
		if (h->poll_gap_max_us <= 0 || h->max_poll_us <= 0)
			continue;
		r = (double)h->poll_gap_max_us / (double)h->max_poll_us;
		if (r > *ratio) {
			*ratio = r;
			best = &g->members[i];
		}
	}
	return best;
}

/*
 * The embedded demo's own groups (their names start with kgtop-demo-; the
 * model knows no sources) with settings its consumers reported: a short
 * session.timeout.ms there is the demo's choice, said as such, not a
 * warning about the reader's cluster.
 */
static bool
demo_setting(const kg_group *g)
{
	static const char prefix[] = "kgtop-demo-";
	return g->sum.session_src == KG_LIMIT_TRACE && g->name != NULL && strncmp(g->name, prefix, sizeof prefix - 1) == 0;
}

/* The lints of a group (at most max); returns the count. */
int
group_lints(const kg_group *g, kg_lint *out, int max)
{
	int n = 0;
	int64_t session = g->sum.session_timeout_us, maxpoll = g->sum.max_poll_us, hb = group_hb_interval(g);
	bool session_known = g->sum.session_src != KG_LIMIT_DEFAULT && session > 0;
	char a[32], b[32];
	const kg_member *m;
	double ratio;
	util_fmt_duration(a, sizeof a, session);
	if (g->proto == KG_PROTO_CONSUMER) {
		/*
		 * KIP-848: the broker sets the heartbeat interval and the session
		 * (group.consumer.heartbeat.interval.ms, group.consumer.session.timeout.ms):
		 * a member's own session.timeout.ms and heartbeat.interval.ms are not used,
		 * so there is nothing of the client's to lint but its poll gaps.
		 */
		hb = 0;
		session_known = false;
	}
	if (hb > 0 && session > 0) {
		util_fmt_duration(b, sizeof b, hb);
		if (hb * 3 > session + session / 20)
			n = add(out, n, max, KG_LINT_WARN,
				"heartbeats every %s: more than a third of session.timeout.ms %s (one late heartbeat and the "
				"member is gone)",
				b, a);
		else
			n = add(out, n, max, KG_LINT_OK, "heartbeats every %s: at most a third of session.timeout.ms %s", b,
				a);
	}
	if (session_known && session < BROKER_MIN_SESSION_US && demo_setting(g))
		n = add(out, n, max, KG_LINT_OK,
			"session.timeout.ms %s: a demo setting (librdkafka's mock cluster takes it, so that a crash is "
			"seen in seconds; a broker with group.min.session.timeout.ms 6s, the default, refuses it)",
			a);
	else if (session_known && session < BROKER_MIN_SESSION_US)
		n = add(out, n, max, KG_LINT_WARN,
			"session.timeout.ms %s is below group.min.session.timeout.ms (6s, the broker's default): such a "
			"broker refuses the JoinGroup",
			a);
	else if (session_known && session > BROKER_MAX_SESSION_US)
		n = add(out, n, max, KG_LINT_WARN,
			"session.timeout.ms %s is above group.max.session.timeout.ms (30m, the broker's default): such a "
			"broker refuses the JoinGroup",
			a);
	if (session_known && g->sum.max_poll_src != KG_LIMIT_DEFAULT && maxpoll > 0 && maxpoll < session) {
		util_fmt_duration(b, sizeof b, maxpoll);
		n = add(out, n, max, KG_LINT_WARN, "max.poll.interval.ms %s is below session.timeout.ms %s", b, a);
	}
	if ((m = closest_poll_gap(g, &ratio)) != NULL && ratio >= POLL_GAP_WARN) {
		util_fmt_duration(a, sizeof a, m->health.poll_gap_max_us);
		util_fmt_duration(b, sizeof b, m->health.max_poll_us);
		n = add(out, n, max, ratio > 1.0 ? KG_LINT_BAD : KG_LINT_WARN,
			"%s's longest poll gap %s is %.0f%% of max.poll.interval.ms %s%s", m->client_id, a, ratio * 100, b,
			ratio > 1.0 ? ": it was kicked out" : ": close to being kicked out");
	}
	return n;
}

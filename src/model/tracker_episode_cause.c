/*
 * tracker_episode_cause.c: what a rebalance was caused by.
 *
 * A membership change (a join, a leave and its reason, a coordinator's
 * "preparing to rebalance" reason) is remembered as the likely trigger of
 * the next rebalance, for TRIGGER_WINDOW; an episode opened within it
 * takes it, one that opened first with "cause unknown: <first sign>"
 * adopts it when it comes, members that join together are one list
 * ("joined: a, b, c and 2 more"), and a leave's reason learnt later, or a
 * joiner's name learnt later (a member id, then its client id), amends
 * the text already given.  tracker_episode.c opens and closes episodes;
 * this file keeps their causes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker_episode.h"
#include "model/tracker_int.h"

#define JOINERS_NAMED 3 /* a trigger names this many joiners, then "and N more" */

/* The word after "member " (or "Leader ") in a coordinator's reason, into buf; NULL when none. */
static const char *
reason_member(const char *text, char *buf, size_t n)
{
	const char *p = strstr(text, "member ");
	size_t k = 0;
	if (p != NULL)
		p += strlen("member ");
	else if ((p = strstr(text, "request for (")) != NULL) /* 4.x: "explicit `LeaveGroup` request for (M) members." */
		p += strlen("request for (");
	else if (strncmp(text, "Leader ", 7) == 0)
		p = text + 7;
	if (p == NULL)
		return NULL;
	while (p[k] != '\0' && p[k] != ' ' && p[k] != ';' && p[k] != ',' && p[k] != ')' && k + 1 < n) {
		buf[k] = p[k];
		k++;
	}
	buf[k] = '\0';
	return k > 0 ? buf : NULL;
}

/* A short trigger for a coordinator's "preparing to rebalance" reason. */
char *
tk_short_trigger(kg_reason r, const char *text)
{
	char m[256], c[256];
	const char *who = text ? reason_member(text, m, sizeof m) : NULL;
	if (who != NULL)
		who = tk_client_of(who, c, sizeof c);
	switch (r) {
	case KG_REASON_JOINED:
		if (who != NULL)
			return xasprintf("joined: %s", who);
		break;
	case KG_REASON_SESSION_TIMEOUT:
	case KG_REASON_MAX_POLL:
	case KG_REASON_GRACEFUL:
	case KG_REASON_FENCED:
		if (who != NULL)
			return xasprintf("left: %s (%s)", who, reason_name(r));
		break;
	case KG_REASON_LEADER_REJOIN:
		if (who != NULL)
			return xasprintf("leader %s rejoined", who);
		break;
	case KG_REASON_REPLACED: {
		const char *inst = text ? strstr(text, "instance id ") : NULL;
		if (inst != NULL) {
			size_t k = 0;
			inst += strlen("instance id ");
			while (inst[k] && inst[k] != ' ' && inst[k] != ';' && inst[k] != ')' && k + 1 < sizeof m) {
				m[k] = inst[k];
				k++;
			}
			m[k] = '\0';
			return xasprintf("static member %s updated", m);
		}
		break;
	}
	default:
		break;
	}
	if (text == NULL)
		return xstrdup(reason_name(r));
	return strlen(text) > 72 ? xasprintf("%.69s...", text) : xstrdup(text);
}

/*
 * Remember a membership change as the likely trigger of the next rebalance;
 * an open episode that began without a known trigger close to it adopts it
 * (an exact member's JOINED is known only once it has its member id, and a
 * leaver's LeaveGroup follows its revoke).
 */
static void
set_trigger_ext(tgroup *g, int64_t time, kg_reason reason, const char *text, const char *extends)
{
	bool adopt;
	g->eps->trig_time = time;
	g->eps->trig_reason = reason;
	free(g->eps->trig_text);
	g->eps->trig_text = xstrdup(text);
	g->eps->trig_joiners = 0;
	g->eps->trig_more = 0;
	if (g->ep == NULL || time < g->ep->start_us - TRIGGER_WINDOW || time > g->ep->start_us + TRIGGER_WINDOW ||
	    tk_log_synced_before(g, time))
		return;
	/* a cause not yet known is replaced; a list of joiners the episode took grows */
	adopt = tk_cause_unknown(g->ep->trigger_text) ||
		(extends != NULL && g->ep->trigger_text != NULL && strcmp(g->ep->trigger_text, extends) == 0);
	if (adopt) {
		g->ep->trigger = reason;
		free(g->ep->trigger_text);
		g->ep->trigger_text = xstrdup(text);
	}
}

/* Remember a membership change as the likely trigger of the next rebalance. */
void
tk_set_trigger(tgroup *g, int64_t time, kg_reason reason, const char *text)
{
	set_trigger_ext(g, time, reason, text, NULL);
}

/*
 * A member joined: the trigger names it, or, when other members joined
 * moments before (a group's first members, a fleet scaled up), adds it to
 * their list: "joined: a, b, c and 2 more".
 */
void
tk_trigger_joined(tgroup *g, int64_t time, const char *who)
{
	sbuf s = { 0 };
	int joiners = 1, more = 0;
	char *prev = NULL;
	/* joiners of the last rebalance, synced since (a log-only episode's), are not this join's company */
	if (g->eps->trig_text != NULL && g->eps->trig_reason == KG_REASON_JOINED && g->eps->trig_joiners > 0 &&
	    time >= g->eps->trig_time - TRIGGER_WINDOW && time - g->eps->trig_time <= TRIGGER_WINDOW &&
	    !(tk_log_synced_before(g, time) && g->eps->trig_time <= g->eps->last_sync)) {
		prev = xstrdup(g->eps->trig_text);
		joiners = g->eps->trig_joiners;
		more = g->eps->trig_more;
		if (joiners < JOINERS_NAMED) {
			sbuf_addf(&s, "%s, %s", g->eps->trig_text, who);
			joiners++;
		} else {
			char *tail = strstr(g->eps->trig_text, " and ");
			more++;
			sbuf_addf(&s, "%.*s and %d more", tail != NULL ? (int)(tail - g->eps->trig_text) : (int)strlen(g->eps->trig_text),
				  g->eps->trig_text, more);
		}
	} else {
		sbuf_addf(&s, "joined: %s", who);
	}
	set_trigger_ext(g, time, KG_REASON_JOINED, sbuf_str(&s), prev);
	g->eps->trig_joiners = joiners;
	g->eps->trig_more = more;
	free(prev);
	sbuf_free(&s);
}

/* A leave as a trigger: "left: WHO", "left: WHO (session timeout, inferred)" (polled), "left: WHO (graceful)". */
void
tk_leave_trigger(sbuf *s, const char *who, kg_reason reason, kg_evidence evid)
{
	if (reason == KG_REASON_LEFT || reason == KG_REASON_NONE)
		sbuf_addf(s, "left: %s", who);
	else if (evid != KG_EVID_EXACT && reason != KG_REASON_UNKNOWN)
		sbuf_addf(s, "left: %s (%s, inferred)", who, reason_name(reason));
	else
		sbuf_addf(s, "left: %s (%s)", who, reason_name(reason));
}

/*
 * A reason for a leave already reported without one, or with one polling
 * inferred (polling saw the member gone before the coordinator's log line
 * said why): the episode it triggered (open, or the last) and the trigger
 * kept for the next one learn it.
 */
void
tk_trigger_amend(kg_tracker *t, tgroup *g, const char *who, kg_reason was, kg_reason reason)
{
	sbuf o = { 0 }, nw = { 0 };
	char *old_trigger, *new_trigger;
	kg_episode *e = g->ep != NULL ? g->ep : history_episode(t->h, g->id, g->eps->last_ep);
	tk_leave_trigger(&o, who, was != KG_REASON_NONE ? was : KG_REASON_UNKNOWN, KG_EVID_POLLED);
	tk_leave_trigger(&nw, who, reason, KG_EVID_EXACT);
	old_trigger = xstrdup(sbuf_str(&o));
	new_trigger = xstrdup(sbuf_str(&nw));
	sbuf_free(&o);
	sbuf_free(&nw);
	if (e != NULL && e->trigger_text != NULL && strcmp(e->trigger_text, old_trigger) == 0) {
		free(e->trigger_text);
		e->trigger_text = xstrdup(new_trigger);
		e->trigger = reason;
	}
	if (g->eps->trig_text != NULL && strcmp(g->eps->trig_text, old_trigger) == 0)
		tk_set_trigger(g, g->eps->trig_time, reason, new_trigger);
	free(old_trigger);
	free(new_trigger);
}

/*
 * A trigger text naming `was` among the joiners of "joined: a, b and 2
 * more" names `now` instead (NULL when it does not name it): a name is
 * whole, after ": " or ", " and before ",", " " or the end.
 */
static char *
joiner_renamed(const char *text, const char *was, const char *now)
{
	size_t n = strlen(was);
	const char *p;
	if (text == NULL || strncmp(text, "joined: ", 8) != 0)
		return NULL;
	for (p = text + 8; (p = strstr(p, was)) != NULL; p += n) {
		/* p is past "joined: ": a name starts after ": " or ", " */
		if (p[-1] == ' ' && (p[-2] == ':' || p[-2] == ',') && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return xasprintf("%.*s%s%s", (int)(p - text), text, now, p + n);
	}
	return NULL;
}

/*
 * A member a coordinator's log named by its member id alone (a KIP-848
 * member's id is a random one) told its client id later (a description):
 * the trigger of the episode it joined (open, or the last) and the one kept
 * for the next say the client id, as polling alone would.
 */
void
tk_trigger_rename(kg_tracker *t, tgroup *g, const char *was, const char *now)
{
	kg_episode *e = g->ep != NULL ? g->ep : history_episode(t->h, g->id, g->eps->last_ep);
	char *r;
	if (was == NULL || now == NULL || *was == '\0' || strcmp(was, now) == 0)
		return;
	if (e != NULL && (r = joiner_renamed(e->trigger_text, was, now)) != NULL) {
		free(e->trigger_text);
		e->trigger_text = r;
	}
	if ((r = joiner_renamed(g->eps->trig_text, was, now)) != NULL) {
		free(g->eps->trig_text);
		g->eps->trig_text = r;
	}
}

/*
 * parse_log.c: coordinator lines of a broker's server.log (see parse_log.h).
 *
 * A line is "[time] LEVEL [GroupCoordinator ...] message (logger)".  The
 * cheap checks (a '[' first, a timestamp, "[GroupCoordinator" after the
 * level) reject the many lines of other loggers before anything is copied;
 * a coordinator message is copied once into a scratch buffer, sanitized,
 * stripped of its logger and trailing dots, and then cut in place with
 * NULs between the fixed words of each known message.  Local time is
 * converted with mktime() once per minute of log and cached.
 */
#include "config.h"

#include "sources/trace/parse_log.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/intern.h"
#include "util/util.h"

#define SRC "log"
#define LEFT_MEMORY_US (10LL * 1000000) /* how long a leave explains a "LeaveGroup request for" */

/* Prepare a parser. */
void
parse_log_init(kg_log_parser *p)
{
	memset(p, 0, sizeof *p);
	p->left_group = -1;
	p->completing_group = -1;
}

/* Release a parser's memory. */
void
parse_log_free(kg_log_parser *p)
{
	free(p->scratch);
	p->scratch = NULL;
	p->scap = 0;
}

/* Parse a log4j local time. */
int
parse_log_time(kg_log_parser *p, const char *s, size_t n, int64_t *us)
{
	int Y, M, D, h, mi, sec, i;
	int64_t frac = 0, scale = 1000000;
	int key[5];
	if (n < 19 || !util_digits(s, 4, &Y) || s[4] != '-' || !util_digits(s + 5, 2, &M) || s[7] != '-' ||
	    !util_digits(s + 8, 2, &D) || (s[10] != ' ' && s[10] != 'T') || !util_digits(s + 11, 2, &h) ||
	    s[13] != ':' || !util_digits(s + 14, 2, &mi) || s[16] != ':' || !util_digits(s + 17, 2, &sec))
		return -1;
	if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || mi > 59 || sec > 60 || Y < 1970)
		return -1;
	if (n > 19) {
		if (s[19] != ',' && s[19] != '.')
			return -1;
		for (i = 20; i < (int)n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (scale > 1) {
				scale /= 10;
				frac += (s[i] - '0') * scale;
			}
		}
		if (i == 20 || i != (int)n)
			return -1;
	}
	key[0] = Y;
	key[1] = M;
	key[2] = D;
	key[3] = h;
	key[4] = mi;
	if (!p->c_valid || memcmp(key, p->c_key, sizeof key) != 0) {
		int64_t t = util_local_time(Y, M, D, h, mi, 0);
		if (t < 0)
			return -1;
		memcpy(p->c_key, key, sizeof key);
		p->c_epoch = t;
		p->c_valid = true;
	}
	*us = (p->c_epoch + sec) * 1000000 + frac;
	return 0;
}

/* True when s contains needle, ignoring ASCII case. */
static bool
has(const char *s, const char *needle)
{
	return strcasestr(s, needle) != NULL;
}

/* The reason a coordinator's or client's text implies: the coordinator's lead words first. */
kg_reason
parse_log_reason(const char *text)
{
	if (text == NULL || *text == '\0')
		return KG_REASON_NONE;
	if (strncasecmp(text, "Adding new member", 17) == 0 || strncasecmp(text, "Adding new static member", 24) == 0)
		return KG_REASON_JOINED;
	if (has(text, "heartbeat expiration") || has(text, "session expired") || has(text, "session timeout") ||
	    has(text, "session timed out"))
		return KG_REASON_SESSION_TIMEOUT;
	if (has(text, "poll timeout") || has(text, "max.poll.interval") || has(text, "poll interval"))
		return KG_REASON_MAX_POLL;
	if (has(text, "leavegroup"))
		return KG_REASON_GRACEFUL;
	if (has(text, "leader") && has(text, "re-joining"))
		return KG_REASON_LEADER_REJOIN;
	if (has(text, "static member") && (has(text, "updating metadata") || has(text, "replac")))
		return KG_REASON_REPLACED;
	if (has(text, "metadata") || has(text, "subscription"))
		return KG_REASON_METADATA;
	if (has(text, "expiration"))
		return KG_REASON_SESSION_TIMEOUT;
	if (has(text, "fenced"))
		return KG_REASON_FENCED;
	return KG_REASON_UNKNOWN;
}

/* s begins with prefix. */
static bool
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Cut s at the first needle (writing a NUL); returns what follows it, NULL when absent. */
static char *
cut(char *s, const char *needle)
{
	char *q = s != NULL ? strstr(s, needle) : NULL;
	if (q == NULL)
		return NULL;
	*q = '\0';
	return q + strlen(needle);
}

/* Parse a leading decimal (skipping spaces); -1 when there is none. */
static int64_t
num(const char *s)
{
	int64_t v = 0;
	int n = 0;
	if (s == NULL)
		return -1;
	while (*s == ' ')
		s++;
	while (*s >= '0' && *s <= '9' && n < 18) {
		v = v * 10 + (*s++ - '0');
		n++;
	}
	return n > 0 ? v : -1;
}

/* Trim spaces at both ends in place; returns the start. */
static char *
trim(char *s)
{
	size_t n;
	if (s == NULL)
		return NULL;
	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* A group instance id as logged: Some(x) is x, None / null / empty are none. */
static const char *
instance_of(char *s)
{
	size_t n;
	s = trim(s);
	if (s == NULL || *s == '\0' || strcmp(s, "None") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Optional.empty") == 0)
		return NULL;
	n = strlen(s);
	if (starts(s, "Some(") && s[n - 1] == ')') {
		s[n - 1] = '\0';
		return s + 5;
	}
	if (starts(s, "Optional[") && s[n - 1] == ']') {
		s[n - 1] = '\0';
		return s + 9;
	}
	return s;
}

/* A new observation of this line; group name interned. */
static kg_obs *
mk(kg_obs_kind kind, int64_t t, const char *group)
{
	return obs_new(kind, t, intern_group(group), SRC);
}

/* Remember a leave so that the coordinator's following "LeaveGroup request for (M)" gets its reason. */
static void
remember_left(kg_log_parser *p, const kg_obs *o)
{
	if (o->member_id == NULL)
		return;
	p->left_group = o->group;
	util_strlcpy(p->left_member, o->member_id, sizeof p->left_member);
	p->left_reason = o->reason;
	p->left_time = o->time_us;
}

/* A member-left observation with a client reason. */
static kg_obs *
left_obs(kg_log_parser *p, int64_t t, const char *group, const char *member, const char *instance,
	 const char *client_reason)
{
	kg_obs *o = mk(KG_OBS_LEFT, t, group);
	kg_reason r = parse_log_reason(client_reason);
	o->reason = r == KG_REASON_MAX_POLL ? KG_REASON_MAX_POLL : KG_REASON_GRACEFUL;
	obs_member(o, member, NULL, instance, NULL);
	obs_text(o, client_reason != NULL && *client_reason ? client_reason : "LeaveGroup");
	remember_left(p, o);
	return o;
}

/* The value of key in "k1=v1, k2=v2(...), ..." (a MemberMetadata dump), copied into out. */
static bool
md_get(const char *md, const char *key, char *out, size_t outsz)
{
	size_t kl = strlen(key);
	const char *s = md, *v, *e;
	for (;;) {
		s = strstr(s, key);
		if (s == NULL)
			return false;
		if ((s == md || s[-1] == ' ' || s[-1] == '(') && s[kl] == '=')
			break;
		s += kl;
	}
	v = s + kl + 1;
	/* the value ends at ", name=" or at the end */
	for (e = v; *e != '\0'; e++) {
		if (e[0] == ',' && e[1] == ' ') {
			const char *k = e + 2;
			while (isalnum((unsigned char)*k) || *k == '.' || *k == '_')
				k++;
			if (*k == '=' && k > e + 2)
				break;
		}
	}
	if ((size_t)(e - v) >= outsz)
		return false;
	memcpy(out, v, (size_t)(e - v));
	out[e - v] = '\0';
	return true;
}

/* "Member MemberMetadata(...) has left group G through explicit `LeaveGroup`; client reason: R". */
static kg_parse_rc
member_metadata_left(kg_log_parser *p, int64_t t, char *body, kg_obsq *out)
{
	char *md = body + strlen("Member MemberMetadata("), *g, *r;
	char member[512], client[512], host[512], inst[512], v[64];
	kg_obs *o;
	g = cut(md, ") has left group ");
	if (g == NULL)
		return KG_PARSE_UNPARSED;
	r = cut(g, "; client reason: ");
	cut(g, " through explicit");
	g = trim(g);
	if (*g == '\0' || !md_get(md, "memberId", member, sizeof member))
		return KG_PARSE_UNPARSED;
	o = left_obs(p, t, g, member, NULL, r);
	if (md_get(md, "groupInstanceId", inst, sizeof inst)) {
		const char *i = instance_of(inst);
		if (i != NULL)
			obs_member(o, NULL, NULL, i, NULL);
	}
	if (md_get(md, "clientId", client, sizeof client))
		obs_member(o, NULL, client, NULL, NULL);
	if (md_get(md, "clientHost", host, sizeof host))
		obs_member(o, NULL, NULL, NULL, host[0] == '/' ? host + 1 : host);
	if (md_get(md, "sessionTimeoutMs", v, sizeof v))
		o->session_timeout_ms = num(v);
	if (md_get(md, "rebalanceTimeoutMs", v, sizeof v))
		o->max_poll_ms = num(v);
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/*
 * Was a rebalance of group o->group with reason R begun while the group
 * was completing the one before (CompletingRebalance: its generation
 * formed, its members awaiting the leader's assignment)?  A member
 * rejoining with new metadata says so ("... during CompletingRebalance"),
 * a static member's rejoin there is the only "Updating metadata for
 * static member", and a new member's join line before said it ("Pending
 * dynamic member with id M joins group G in CompletingRebalance state").
 * Kafka gives the members the leader's assignment only once it is
 * written, and not at all when the group changed meanwhile: an
 * "Assignment received" of that generation told before such a line was
 * no sync.  A leave or a session's expiry there is told without the
 * state: not known.
 */
static bool
began_completing(const kg_log_parser *p, const kg_obs *o, const char *reason)
{
	const char *m;
	size_t n;
	if (reason == NULL)
		return false;
	if (strstr(reason, " during CompletingRebalance") != NULL || starts(reason, "Updating metadata for static member "))
		return true;
	if (!starts(reason, "Adding new member ") || p->completing_group != o->group || p->completing_member[0] == '\0' ||
	    o->time_us < p->completing_time || o->time_us - p->completing_time > LEFT_MEMORY_US)
		return false;
	m = reason + strlen("Adding new member ");
	n = strlen(p->completing_member);
	return strncmp(m, p->completing_member, n) == 0 && (m[n] == ' ' || m[n] == ';' || m[n] == '\0');
}

/* "Preparing to rebalance group G in state S with old generation N (...) (reason: R)". */
static kg_parse_rc
preparing(kg_log_parser *p, int64_t t, char *body, kg_obsq *out)
{
	char *g = body + strlen("Preparing to rebalance group "), *rest, *reason = NULL, *e;
	int64_t gen = -1;
	kg_obs *o;
	kg_reason r;
	rest = strstr(g, " with old generation ");
	if (rest == NULL)
		return KG_PARSE_UNPARSED;
	gen = num(rest + strlen(" with old generation "));
	e = strstr(rest, "(reason: ");
	if (e != NULL) {
		reason = e + strlen("(reason: ");
		e = strrchr(reason, ')');
		if (e != NULL)
			*e = '\0';
		reason = trim(reason);
	}
	*rest = '\0';
	cut(g, " in state ");
	g = trim(g);
	if (*g == '\0')
		return KG_PARSE_UNPARSED;
	o = mk(KG_OBS_PREPARING, t, g);
	o->generation = gen >= 0 && gen <= INT32_MAX ? (int32_t)gen : -1;
	r = parse_log_reason(reason);
	/* 4.x names the members but not their client reason: the leave line just before has it */
	if (r == KG_REASON_GRACEFUL && reason != NULL && p->left_group == o->group && p->left_member[0] != '\0' &&
	    strstr(reason, p->left_member) != NULL && t - p->left_time <= LEFT_MEMORY_US && t >= p->left_time)
		r = p->left_reason;
	o->reason = r;
	o->completing = began_completing(p, o, reason);
	obs_text(o, reason);
	obsq_push(out, o);
	if (reason != NULL && starts(reason, "Adding new member ")) {
		/* the reason names the member that joined */
		char *m = reason + strlen("Adding new member "), *inst = cut(m, " with group instance id ");
		kg_obs *j;
		if (inst != NULL)
			cut(inst, ";");
		m = trim(m);
		if (*m != '\0') {
			j = mk(KG_OBS_JOINED, t, g);
			obs_member(j, m, NULL, inst != NULL ? instance_of(inst) : NULL, NULL);
			obsq_push(out, j);
		}
	}
	return KG_PARSE_OBS;
}

/* "Stabilized group G generation N (...) with K members". */
static kg_parse_rc
stabilized(int64_t t, char *body, kg_obsq *out)
{
	char *g = body + strlen("Stabilized group "), *rest = cut(g, " generation "), *w;
	kg_obs *o;
	int64_t gen, k = -1;
	if (rest == NULL)
		return KG_PARSE_UNPARSED;
	gen = num(rest);
	w = strstr(rest, " with ");
	if (w != NULL)
		k = num(w + strlen(" with "));
	g = trim(g);
	if (*g == '\0' || gen < 0)
		return KG_PARSE_UNPARSED;
	o = mk(KG_OBS_STABILIZED, t, g);
	o->generation = gen <= INT32_MAX ? (int32_t)gen : -1;
	o->nmembers = k >= 0 && k <= INT32_MAX ? (int32_t)k : -1;
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/* "Assignment received from leader [M] for group G for generation N. The group has K members, ...". */
static kg_parse_rc
synced(int64_t t, char *body, kg_obsq *out)
{
	char *g = strstr(body, " for group "), *rest, *w;
	int64_t gen, k = -1;
	kg_obs *o;
	if (g == NULL)
		return KG_PARSE_UNPARSED;
	g += strlen(" for group ");
	rest = cut(g, " for generation ");
	if (rest == NULL)
		return KG_PARSE_UNPARSED;
	gen = num(rest);
	w = strstr(rest, "The group has ");
	if (w != NULL)
		k = num(w + strlen("The group has "));
	g = trim(g);
	if (*g == '\0' || gen < 0)
		return KG_PARSE_UNPARSED;
	o = mk(KG_OBS_SYNCED, t, g);
	o->generation = gen <= INT32_MAX ? (int32_t)gen : -1;
	o->nmembers = k >= 0 && k <= INT32_MAX ? (int32_t)k : -1;
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/* The reason a KIP-848 fencing states. */
static kg_reason
fence_reason(const char *why)
{
	return has(why, "session expired") ? KG_REASON_SESSION_TIMEOUT : KG_REASON_FENCED;
}

/* KIP-848: member M (instance I, or NULL) "joins the consumer group" ("using the P protocol" in rest). */
static kg_parse_rc
consumer_join(int64_t t, const char *gx, char *m, const char *inst, char *rest, kg_obsq *out)
{
	kg_obs *o = mk(KG_OBS_JOINED, t, gx);
	obs_member(o, trim(m), NULL, inst, NULL);
	o->gtype = KG_GTYPE_CONSUMER;
	rest = strstr(rest, "using the ");
	if (rest != NULL) {
		sbuf s = { 0 };
		cut(rest, " protocol");
		/* a classic member in a consumer group (an upgrade under way) joins "using the classic protocol" */
		o->mtype = strcmp(trim(rest + strlen("using the ")), "classic") == 0 ? KG_MTYPE_CLASSIC : KG_MTYPE_CONSUMER;
		sbuf_addf(&s, "joined using the %s protocol", trim(rest + strlen("using the ")));
		obs_text(o, sbuf_str(&s));
		sbuf_free(&s);
	}
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/* KIP-932: "Member M joins the share group using the share protocol", "Member M left the share group". */
static kg_parse_rc
share_member(kg_log_parser *p, int64_t t, const char *gx, char *m, kg_obsq *out)
{
	bool join = cut(m, " joins the share group") != NULL;
	kg_obs *o;
	if (!join && cut(m, " left the share group") == NULL)
		return KG_PARSE_UNPARSED;
	o = mk(join ? KG_OBS_JOINED : KG_OBS_LEFT, t, gx);
	obs_member(o, trim(m), NULL, NULL, NULL);
	o->gtype = KG_GTYPE_SHARE;
	if (!join) {
		o->reason = KG_REASON_UNKNOWN;
		obs_text(o, "left the share group");
		remember_left(p, o);
	}
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/*
 * KIP-1071, with "[GroupId G][MemberId M] " before: "Member joins the
 * streams group", "Member M left the streams group", "Bumped streams group
 * epoch to N ..."; and "Streams member M fenced from the group because R".
 */
static kg_parse_rc
streams_line(kg_log_parser *p, int64_t t, const char *gx, const char *mx, char *body, kg_obsq *out)
{
	kg_obs *o = NULL;
	char *rest;
	if (starts(body, "Member joins the streams group") && mx != NULL) {
		o = mk(KG_OBS_JOINED, t, gx);
		obs_member(o, mx, NULL, NULL, NULL);
	} else if (starts(body, "Member ") && (rest = cut(body + strlen("Member "), " left the streams group")) != NULL) {
		o = mk(KG_OBS_LEFT, t, gx);
		obs_member(o, trim(body + strlen("Member ")), NULL, NULL, NULL);
		o->reason = KG_REASON_UNKNOWN;
		obs_text(o, "left the streams group");
		remember_left(p, o);
	} else if (starts(body, "Streams member ") &&
		   (rest = cut(body + strlen("Streams member "), " fenced from the group because ")) != NULL) {
		o = mk(KG_OBS_LEFT, t, gx);
		obs_member(o, trim(body + strlen("Streams member ")), NULL, NULL, NULL);
		o->reason = fence_reason(rest);
		obs_text(o, trim(rest));
		remember_left(p, o);
	} else if (starts(body, "Bumped streams group epoch to ")) {
		int64_t ep = num(body + strlen("Bumped streams group epoch to "));
		if (ep < 0)
			return KG_PARSE_UNPARSED;
		o = mk(KG_OBS_EPOCH, t, gx);
		o->generation = ep <= INT32_MAX ? (int32_t)ep : -1;
	} else {
		return KG_PARSE_KNOWN; /* the topology, its configuration, members' metadata: nothing kgtop shows */
	}
	o->gtype = KG_GTYPE_STREAMS;
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/* Messages of a member, with the group from a "[Group G]" / "[GroupId G]" prefix or inline. */
static kg_parse_rc
member_line(kg_log_parser *p, int64_t t, const char *gx, char *body, kg_obsq *out)
{
	char *m = body + strlen("Member "), *rest;
	kg_obs *o;
	if (gx != NULL) {
		if ((rest = cut(m, " has left group through explicit")) != NULL) {
			char *r = strstr(rest, "client reason: ");
			o = left_obs(p, t, gx, trim(m), NULL, r ? r + strlen("client reason: ") : NULL);
			obsq_push(out, o);
			return KG_PARSE_OBS;
		}
		if ((rest = cut(m, " fenced from the group because ")) != NULL) {
			sbuf s = { 0 };
			o = mk(KG_OBS_LEFT, t, gx);
			obs_member(o, trim(m), NULL, NULL, NULL);
			o->reason = fence_reason(rest);
			/*
			 * The reason word says "fenced" already ("left (fenced: it failed
			 * to transition ...)"); a session expiry keeps that it was fenced.
			 */
			if (o->reason == KG_REASON_FENCED)
				sbuf_adds(&s, trim(rest));
			else
				sbuf_addf(&s, "fenced because %s", trim(rest));
			obs_text(o, sbuf_str(&s));
			sbuf_free(&s);
			remember_left(p, o);
			obsq_push(out, o);
			return KG_PARSE_OBS;
		}
		if ((rest = cut(m, " joins the consumer group")) != NULL)
			return consumer_join(t, gx, m, NULL, rest, out);
		if (has(m, " the share group"))
			return share_member(p, t, gx, m, out);
		if (cut(m, " left the consumer group") != NULL) {
			/*
			 * A leaving heartbeat: Kafka 4.3 logs a consumer's close and its
			 * max.poll.interval.ms expiry with these same words, so no reason.
			 */
			o = mk(KG_OBS_LEFT, t, gx);
			obs_member(o, trim(m), NULL, NULL, NULL);
			o->reason = KG_REASON_UNKNOWN;
			obs_text(o, "left the consumer group (closed, or past max.poll.interval.ms)");
			remember_left(p, o);
			obsq_push(out, o);
			return KG_PARSE_OBS;
		}
		if (strstr(m, " new assignment state:") != NULL)
			return KG_PARSE_KNOWN;
	}
	/* classic inline forms: "Member M in group G has failed / has left, ..." */
	rest = cut(m, " in group ");
	if (rest == NULL)
		return KG_PARSE_UNPARSED;
	m = trim(m);
	if (cut(rest, " has failed") != NULL) {
		o = mk(KG_OBS_LEFT, t, trim(rest));
		obs_member(o, m, NULL, NULL, NULL);
		o->reason = KG_REASON_SESSION_TIMEOUT;
		obs_text(o, "failed: no heartbeat within the session timeout");
		remember_left(p, o);
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	if (cut(rest, " has left") != NULL) {
		o = left_obs(p, t, trim(rest), m, NULL, NULL);
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	return KG_PARSE_UNPARSED;
}

/* 2.x: "Member[group.instance.id I, member.id M] in group G has left, removing it from the group". */
static kg_parse_rc
member_bracket_left(kg_log_parser *p, int64_t t, char *body, kg_obsq *out)
{
	char *inst = strstr(body, "group.instance.id "), *m, *g;
	kg_obs *o;
	if (inst == NULL)
		return KG_PARSE_UNPARSED;
	inst += strlen("group.instance.id ");
	m = cut(inst, ", member.id ");
	g = cut(m, "] in group ");
	if (g == NULL || cut(g, " has left") == NULL)
		return KG_PARSE_UNPARSED;
	o = left_obs(p, t, trim(g), trim(m), instance_of(inst), NULL);
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/*
 * "Static Member M with instance id I has left group ... / temporarily left the consumer group",
 * and KIP-848's "Static member M with instance id I joins the consumer group using the P protocol"
 * (Kafka 4.3 writes "member" there and in "temporarily left").
 */
static kg_parse_rc
static_member_line(kg_log_parser *p, int64_t t, const char *gx, char *body, kg_obsq *out)
{
	char *m = body + strlen("Static Member "), *inst = cut(m, " with instance id "), *rest;
	kg_obs *o;
	if (inst == NULL || gx == NULL)
		return KG_PARSE_UNPARSED;
	if ((rest = cut(inst, " joins the consumer group")) != NULL)
		return consumer_join(t, gx, m, instance_of(inst), rest, out);
	if ((rest = cut(inst, " has left group through explicit")) != NULL) {
		char *r = strstr(rest, "client reason: ");
		o = left_obs(p, t, gx, trim(m), instance_of(inst), r ? r + strlen("client reason: ") : NULL);
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	if (cut(inst, " temporarily left") != NULL) {
		/* no reason: the tracker shows a static member away, not gone */
		o = mk(KG_OBS_LEFT, t, gx);
		obs_member(o, trim(m), NULL, instance_of(inst), NULL);
		o->reason = KG_REASON_NONE;
		obs_text(o, "temporarily left");
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	return KG_PARSE_UNPARSED;
}

/* Classic: "Static member with groupInstanceId=I and unknown member id joins group G in S state.
 * Replacing previously mapped member M with this groupInstanceId". */
static kg_parse_rc
static_replaced_classic(int64_t t, char *body, kg_obsq *out)
{
	char *inst = body + strlen("Static member with groupInstanceId="), *g, *m;
	kg_obs *o;
	g = cut(inst, " and unknown member id joins group ");
	if (g != NULL && (m = strstr(g, "Created a new member id ")) != NULL) {
		/* Kafka 4.3, a first join: "... in S state. Created a new member id M for this member and added to the group" */
		m += strlen("Created a new member id ");
		cut(m, " for this member");
		cut(g, " in ");
		g = trim(g);
		if (*g == '\0' || *trim(m) == '\0')
			return KG_PARSE_UNPARSED;
		o = mk(KG_OBS_JOINED, t, g);
		obs_member(o, trim(m), NULL, instance_of(inst), NULL);
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	m = cut(g, "Replacing previously mapped member ");
	if (m == NULL)
		return KG_PARSE_UNPARSED;
	cut(g, " in ");
	cut(m, " with this groupInstanceId");
	g = trim(g);
	if (*g == '\0')
		return KG_PARSE_UNPARSED;
	o = mk(KG_OBS_STATIC_REPLACED, t, g);
	obs_member(o, trim(m), NULL, instance_of(inst), NULL);
	obs_text(o, "static member replaced by a new instance");
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/* KIP-848: "Static member with instance id I re-joins the consumer group using the P protocol.
 * Created a new member M2 to replace the existing member M1". */
static kg_parse_rc
static_rejoin(int64_t t, const char *gx, char *body, kg_obsq *out)
{
	char *inst = body + strlen("Static member with instance id "), *rest, *m2, *m1;
	const char *i;
	kg_obs *o;
	rest = cut(inst, " re-joins the consumer group");
	m2 = rest ? strstr(rest, "Created a new member ") : NULL;
	if (m2 == NULL || gx == NULL)
		return KG_PARSE_UNPARSED;
	m2 += strlen("Created a new member ");
	m1 = cut(m2, " to replace the existing member ");
	if (m1 == NULL)
		return KG_PARSE_UNPARSED;
	i = instance_of(inst);
	o = mk(KG_OBS_STATIC_REPLACED, t, gx);
	obs_member(o, trim(m1), NULL, i, NULL);
	obs_text(o, "static member re-joined as a new member");
	obsq_push(out, o);
	o = mk(KG_OBS_JOINED, t, gx);
	obs_member(o, trim(m2), NULL, i, NULL);
	obsq_push(out, o);
	return KG_PARSE_OBS;
}

/* "Group G removed dynamic members who haven't joined: Set(a, b)" and "Group G with generation N is now empty". */
static kg_parse_rc
group_line(int64_t t, char *body, kg_obsq *out)
{
	char *g = body + strlen("Group "), *rest;
	if ((rest = cut(g, " removed dynamic members who haven't joined:")) != NULL) {
		char *l = strpbrk(rest, "([");
		char *e, *tok;
		int n = 0;
		g = trim(g);
		if (l == NULL || *g == '\0')
			return KG_PARSE_UNPARSED;
		l++;
		e = strpbrk(l, ")]");
		if (e != NULL)
			*e = '\0';
		for (tok = l; tok != NULL && *tok != '\0';) {
			char *next = cut(tok, ",");
			char *m = trim(tok);
			if (*m != '\0') {
				kg_obs *o = mk(KG_OBS_LEFT, t, g);
				obs_member(o, m, NULL, NULL, NULL);
				o->reason = KG_REASON_MAX_POLL;
				obs_text(o, "did not rejoin within the rebalance timeout");
				obsq_push(out, o);
				n++;
			}
			tok = next;
		}
		return n > 0 ? KG_PARSE_OBS : KG_PARSE_KNOWN;
	}
	if ((rest = cut(g, " with generation ")) != NULL && strstr(rest, "is now empty") != NULL) {
		int64_t gen = num(rest);
		kg_obs *o;
		g = trim(g);
		if (*g == '\0' || gen < 0)
			return KG_PARSE_UNPARSED;
		o = mk(KG_OBS_STABILIZED, t, g);
		o->generation = gen <= INT32_MAX ? (int32_t)gen : -1;
		o->nmembers = 0;
		obs_text(o, "group is now empty");
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	return KG_PARSE_UNPARSED;
}

/* Coordinator messages that carry nothing kgtop shows. */
static bool
known_noise(const char *body)
{
	static const char *const prefixes[] = {
		"Removed ", "Loading group metadata", "Finished loading", "Unloading group metadata",
		"Finished unloading", "Scheduling loading", "Scheduling unloading", "Elected as", "Resigned as",
		"Starting up", "Startup complete", "Shutting down", "Shutdown complete", "Generated ",
		"Computed new metadata hash", "Dynamic Member with unknown member id",
		"Dynamic member with unknown member id", "Loaded member", "Group coordinator",
	};
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(prefixes); i++) {
		if (starts(body, prefixes[i]))
			return true;
	}
	return false;
}

/* The message of one coordinator line (already copied and sanitized). */
static kg_parse_rc
message(kg_log_parser *p, int64_t t, char *msg, kg_obsq *out)
{
	char *body = msg, *gx = NULL, *mx = NULL, *e;
	size_t n;
	/* "[GroupCoordinator 1]: " or "[GroupCoordinator id=1 topic=__consumer_offsets partition=3] " */
	e = strchr(body, ']');
	if (e == NULL)
		return KG_PARSE_UNPARSED;
	body = e + 1;
	if (*body == ':')
		body++;
	while (*body == ' ')
		body++;
	/* "[Group G] " (4.x classic) or "[GroupId G] " (KIP-848) */
	if (starts(body, "[Group ") || starts(body, "[GroupId ")) {
		gx = body + (starts(body, "[GroupId ") ? strlen("[GroupId ") : strlen("[Group "));
		body = cut(gx, "] ");
		if (body == NULL)
			return KG_PARSE_UNPARSED;
		/* a streams group's lines: "[GroupId G][MemberId M] " */
		if ((mx = cut(gx, "][MemberId ")) != NULL)
			mx = trim(mx);
		gx = trim(gx);
		while (*body == ' ')
			body++;
	}
	/* trailing dots and spaces */
	n = strlen(body);
	while (n > 0 && (body[n - 1] == '.' || body[n - 1] == ' '))
		body[--n] = '\0';

	if (gx != NULL && (mx != NULL || starts(body, "Streams member ") || has(body, "the streams group") ||
			   starts(body, "Bumped streams group epoch")))
		return *gx != '\0' ? streams_line(p, t, gx, mx, body, out) : KG_PARSE_UNPARSED;
	if (starts(body, "Computed a new target assignment for epoch ") && gx != NULL && *gx != '\0') {
		/* KIP-848 (and share groups, the same words): the target of an epoch */
		int64_t ep = num(body + strlen("Computed a new target assignment for epoch "));
		kg_obs *o;
		if (ep < 0)
			return KG_PARSE_UNPARSED;
		o = mk(KG_OBS_TARGET_EPOCH, t, gx);
		o->generation = ep <= INT32_MAX ? (int32_t)ep : -1;
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	if (starts(body, "Preparing to rebalance group "))
		return preparing(p, t, body, out);
	if (starts(body, "Stabilized group "))
		return stabilized(t, body, out);
	if (starts(body, "Assignment received from leader"))
		return synced(t, body, out);
	if (starts(body, "Member MemberMetadata("))
		return member_metadata_left(p, t, body, out);
	if (starts(body, "Member["))
		return member_bracket_left(p, t, body, out);
	if (starts(body, "Member "))
		return member_line(p, t, gx, body, out);
	if (starts(body, "Static Member "))
		return static_member_line(p, t, gx, body, out);
	if (starts(body, "Static member with groupInstanceId="))
		return static_replaced_classic(t, body, out);
	if (starts(body, "Static member with instance id "))
		return static_rejoin(t, gx, body, out);
	if (starts(body, "Static member "))
		return static_member_line(p, t, gx, body, out); /* Kafka 4.3's KIP-848 wording; same length as "Static Member " */
	if (starts(body, "Bumped group epoch to ") && gx != NULL) {
		int64_t ep = num(body + strlen("Bumped group epoch to "));
		kg_obs *o;
		if (ep < 0 || *gx == '\0')
			return KG_PARSE_UNPARSED;
		o = mk(KG_OBS_EPOCH, t, gx);
		o->generation = ep <= INT32_MAX ? (int32_t)ep : -1;
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	if (starts(body, "Pending dynamic member with id ")) {
		char *m = body + strlen("Pending dynamic member with id "), *g = cut(m, " joins group "), *st;
		kg_obs *o;
		if (g == NULL)
			return KG_PARSE_UNPARSED;
		st = cut(g, " in ");
		g = trim(g);
		if (*g == '\0')
			return KG_PARSE_UNPARSED;
		o = mk(KG_OBS_JOINED, t, g);
		obs_member(o, trim(m), NULL, NULL, NULL);
		/* added while the group completed a rebalance: so is the "preparing" this join causes (began_completing) */
		p->completing_group = -1;
		if (st != NULL && starts(st, "CompletingRebalance state") && o->member_id != NULL) {
			o->completing = true;
			p->completing_group = o->group;
			util_strlcpy(p->completing_member, o->member_id, sizeof p->completing_member);
			p->completing_time = t;
		}
		obsq_push(out, o);
		return KG_PARSE_OBS;
	}
	if (starts(body, "Group "))
		return group_line(t, body, out);
	if (known_noise(body))
		return KG_PARSE_KNOWN;
	return KG_PARSE_UNPARSED;
}

/* Copy the message into the scratch buffer: NULs replaced, sanitized, logger and spaces stripped. */
static char *
scratch_copy(kg_log_parser *p, const char *s, size_t n)
{
	char *m;
	size_t i;
	if (n + 1 > p->scap) {
		p->scap = n + 1 < 1024 ? 1024 : n + 1;
		p->scratch = xrealloc(p->scratch, p->scap);
	}
	m = p->scratch;
	memcpy(m, s, n);
	m[n] = '\0';
	for (i = 0; i < n; i++) {
		if (m[i] == '\0')
			m[i] = '?';
	}
	util_sanitize_text(m);
	while (n > 0 && (m[n - 1] == ' ' || m[n - 1] == '\t'))
		m[--n] = '\0';
	/* " (kafka.coordinator.group.GroupCoordinator)" */
	if (n > 0 && m[n - 1] == ')') {
		char *open = NULL, *q;
		for (q = m + n - 1; q > m; q--) {
			if (*q == '(') {
				open = q;
				break;
			}
			if (*q == ' ')
				break;
		}
		if (open != NULL && open > m && open[-1] == ' ' && memchr(open, '.', (size_t)(m + n - open)) != NULL) {
			open[-1] = '\0';
			n = (size_t)(open - 1 - m);
		}
	}
	return m;
}

/* One line, uncounted. */
static kg_parse_rc
line_rc(kg_log_parser *p, const char *line, size_t len, kg_obsq *out)
{
	const char *rb, *q, *end = line + len;
	int64_t t;
	size_t i;
	if (len < 22 || line[0] != '[')
		return KG_PARSE_SKIPPED;
	rb = memchr(line, ']', len < 48 ? len : 48);
	if (rb == NULL)
		return KG_PARSE_SKIPPED;
	/* the level, then the message; the level may be missing */
	q = rb + 1;
	while (q < end && *q == ' ')
		q++;
	if (q < end && *q != '[') {
		for (i = 0; q < end && *q != ' ' && i < 8; i++)
			q++;
		while (q < end && *q == ' ')
			q++;
	}
	if ((size_t)(end - q) < 18 || memcmp(q, "[GroupCoordinator", 17) != 0)
		return KG_PARSE_SKIPPED;
	if (parse_log_time(p, line + 1, (size_t)(rb - line - 1), &t) < 0)
		return KG_PARSE_UNPARSED;
	return message(p, t, scratch_copy(p, q, (size_t)(end - q)), out);
}

/* Parse one line and count the verdict. */
kg_parse_rc
parse_log_line(kg_log_parser *p, const char *line, size_t len, kg_obsq *out)
{
	kg_parse_rc rc = line_rc(p, line, len, out);
	p->counts.n[rc]++;
	return rc;
}

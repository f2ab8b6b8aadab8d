/*
 * names.c: the model's enums in words: group states, protocols, source
 * statuses and roles, limits' origins, member statuses, leave reasons,
 * verdicts and time lags (machine names for --json and recordings, words
 * for the screen and the report).
 */
#include "config.h"

#include "model/snapshot.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *const state_names[KG_STATE_COUNT] = {
	[KG_STATE_UNKNOWN] = "Unknown",
	[KG_STATE_PREPARING_REBALANCE] = "PreparingRebalance",
	[KG_STATE_COMPLETING_REBALANCE] = "CompletingRebalance",
	[KG_STATE_STABLE] = "Stable",
	[KG_STATE_DEAD] = "Dead",
	[KG_STATE_EMPTY] = "Empty",
	[KG_STATE_ASSIGNING] = "Assigning",
	[KG_STATE_RECONCILING] = "Reconciling",
};

static const char *const state_shorts[KG_STATE_COUNT] = {
	[KG_STATE_UNKNOWN] = "?",
	[KG_STATE_PREPARING_REBALANCE] = "Prep",
	[KG_STATE_COMPLETING_REBALANCE] = "Compl",
	[KG_STATE_STABLE] = "Stable",
	[KG_STATE_DEAD] = "Dead",
	[KG_STATE_EMPTY] = "Empty",
	[KG_STATE_ASSIGNING] = "Assign",
	[KG_STATE_RECONCILING] = "Recon",
};

/* Long state name. */
const char *
state_name(kg_group_state st)
{
	return (unsigned)st < KG_STATE_COUNT ? state_names[st] : "Unknown";
}

/* Short state name. */
const char *
state_short(kg_group_state st)
{
	return (unsigned)st < KG_STATE_COUNT ? state_shorts[st] : "?";
}

/* Parse a state name, ignoring case, spaces and underscores. */
kg_group_state
state_parse(const char *s)
{
	char buf[64];
	size_t n = 0;
	int i;
	if (s == NULL)
		return KG_STATE_UNKNOWN;
	for (; *s && n < sizeof buf - 1; s++) {
		if (*s != ' ' && *s != '_' && *s != '-')
			buf[n++] = (char)tolower((unsigned char)*s);
	}
	buf[n] = '\0';
	for (i = 0; i < KG_STATE_COUNT; i++) {
		char want[64];
		size_t m = 0;
		const char *p;
		for (p = state_names[i]; *p; p++)
			want[m++] = (char)tolower((unsigned char)*p);
		want[m] = '\0';
		if (strcmp(buf, want) == 0)
			return (kg_group_state)i;
	}
	return KG_STATE_UNKNOWN;
}

/* True while a rebalance is in progress. */
bool
state_rebalancing(kg_group_state st)
{
	return st == KG_STATE_PREPARING_REBALANCE || st == KG_STATE_COMPLETING_REBALANCE ||
	       st == KG_STATE_ASSIGNING || st == KG_STATE_RECONCILING;
}

/* Protocol name. */
const char *
proto_name(kg_proto p)
{
	switch (p) {
	case KG_PROTO_EAGER: return "eager";
	case KG_PROTO_COOPERATIVE: return "cooperative";
	case KG_PROTO_CONSUMER: return "consumer";
	default: return "unknown";
	}
}

static const char *const gtype_keys[KG_GTYPE_COUNT] = {
	[KG_GTYPE_UNKNOWN] = "unknown", [KG_GTYPE_CLASSIC] = "classic", [KG_GTYPE_CONSUMER] = "consumer",
	[KG_GTYPE_SHARE] = "share",     [KG_GTYPE_STREAMS] = "streams",
};

/* Machine name of a group type. */
const char *
gtype_key(kg_group_type t)
{
	return (unsigned)t < KG_GTYPE_COUNT ? gtype_keys[t] : "unknown";
}

/* Find s (any case) in a table of names; def when absent. */
static int
name_find(const char *const *names, int n, const char *s, int def)
{
	int i;
	for (i = 0; s != NULL && i < n; i++) {
		if (names[i] != NULL && strcasecmp(names[i], s) == 0)
			return i;
	}
	return def;
}

/* Parse a group type name. */
kg_group_type
gtype_parse(const char *s)
{
	return (kg_group_type)name_find(gtype_keys, KG_GTYPE_COUNT, s, KG_GTYPE_UNKNOWN);
}

/* A group's type in words: its own name, the source's when kgtop has none, "" when not said. */
const char *
group_type_text(const kg_group *g)
{
	if (g->type != KG_GTYPE_UNKNOWN)
		return gtype_key((kg_group_type)g->type);
	return g->type_name != NULL ? g->type_name : "";
}

/* A group's state in words: the source's own name when kgtop has none. */
const char *
group_state_text(const kg_group *g)
{
	if (g->state == KG_STATE_UNKNOWN && g->state_name != NULL && *g->state_name != '\0')
		return g->state_name;
	return state_name(g->state);
}

/* Assigning or Reconciling, named or not said which (snapshot.h). */
bool
group_unsettled(const kg_group *g)
{
	return g->state == KG_STATE_ASSIGNING || g->state == KG_STATE_RECONCILING ||
	       (g->state == KG_STATE_UNKNOWN && g->state_name != NULL && strcmp(g->state_name, KG_STATE_NAME_UNSETTLED) == 0);
}

static const char *const fact_keys[KG_FACT_COUNT] = {
	[KG_FACT_NONE] = "none", [KG_FACT_DESCRIBED] = "describe", [KG_FACT_LOG] = "log",
	[KG_FACT_OFFSETS] = "offsets", [KG_FACT_CLIENT] = "client",
};

/* Machine name of a fact's source. */
const char *
fact_src_key(kg_fact_src s)
{
	return (unsigned)s < KG_FACT_COUNT ? fact_keys[s] : "none";
}

/* Parse fact_src_key() back. */
kg_fact_src
fact_src_parse(const char *s)
{
	return (kg_fact_src)name_find(fact_keys, KG_FACT_COUNT, s, KG_FACT_NONE);
}

static const char *const mstate_keys[KG_MSTATE_COUNT] = {
	[KG_MSTATE_UNKNOWN] = "unknown", [KG_MSTATE_STABLE] = "stable",
	[KG_MSTATE_UNREVOKED] = "unrevoked_partitions", [KG_MSTATE_UNRELEASED] = "unreleased_partitions",
};

/* Machine name of a member state. */
const char *
mstate_key(kg_mstate s)
{
	return (unsigned)s < KG_MSTATE_COUNT ? mstate_keys[s] : "unknown";
}

/* Parse mstate_key() back. */
kg_mstate
mstate_parse(const char *s)
{
	return (kg_mstate)name_find(mstate_keys, KG_MSTATE_COUNT, s, KG_MSTATE_UNKNOWN);
}

/* A member state in words. */
const char *
mstate_text(kg_mstate s)
{
	switch (s) {
	case KG_MSTATE_STABLE: return "stable";
	case KG_MSTATE_UNREVOKED: return "revoking";
	case KG_MSTATE_UNRELEASED: return "awaiting partitions";
	default: return "unknown";
	}
}

/* The coordinator's code of a member state. */
kg_mstate
mstate_from_code(int code)
{
	switch (code) {
	case 0: return KG_MSTATE_STABLE;
	case 1: return KG_MSTATE_UNREVOKED;
	case 2: return KG_MSTATE_UNRELEASED;
	default: return KG_MSTATE_UNKNOWN;
	}
}

static const char *const mtype_keys[KG_MTYPE_COUNT] = {
	[KG_MTYPE_UNKNOWN] = "unknown", [KG_MTYPE_CONSUMER] = "consumer", [KG_MTYPE_CLASSIC] = "classic",
};

/* Machine name of a member type. */
const char *
mtype_key(kg_mtype t)
{
	return (unsigned)t < KG_MTYPE_COUNT ? mtype_keys[t] : "unknown";
}

/* Parse mtype_key() back. */
kg_mtype
mtype_parse(const char *s)
{
	return (kg_mtype)name_find(mtype_keys, KG_MTYPE_COUNT, s, KG_MTYPE_UNKNOWN);
}

/*
 * The protocol implied by an assignor.  Classic assignors are eager unless
 * they say cooperative (cooperative-sticky, or a Java class name such as
 * CooperativeStickyAssignor); the KIP-848 server-side "uniform" assignor
 * runs the consumer protocol (sources that see KIP-848 groups set the
 * protocol explicitly, since "range" exists there too).
 */
kg_proto
proto_from_assignor(const char *assignor, const char *protocol_type)
{
	const char *p;
	if (protocol_type != NULL && *protocol_type != '\0' && strcmp(protocol_type, "consumer") != 0)
		return KG_PROTO_UNKNOWN; /* connect, or another embedded protocol */
	if (assignor == NULL || *assignor == '\0')
		return KG_PROTO_UNKNOWN;
	if (strcasecmp(assignor, "uniform") == 0)
		return KG_PROTO_CONSUMER;
	for (p = assignor; *p; p++) {
		if (strncasecmp(p, "cooperative", 11) == 0)
			return KG_PROTO_COOPERATIVE;
	}
	return KG_PROTO_EAGER;
}

/* Source status name. */
const char *
src_status_name(kg_src_status st)
{
	switch (st) {
	case KG_SRC_OK: return "ok";
	case KG_SRC_STALE: return "stale";
	case KG_SRC_ERROR: return "error";
	default: return "connecting";
	}
}

/* Source role name. */
const char *
src_role_name(kg_src_role r)
{
	static const char *const names[KG_ROLE_COUNT] = {
		[KG_ROLE_NONE] = "none",     [KG_ROLE_CLUSTER] = "cluster", [KG_ROLE_DEMO] = "demo",
		[KG_ROLE_TRACE] = "trace",   [KG_ROLE_REPLAY] = "replay",   [KG_ROLE_RECORDER] = "recorder",
		[KG_ROLE_ATTACH] = "attach",
	};
	return (unsigned)r < KG_ROLE_COUNT ? names[r] : "none";
}

/* Limit source name. */
const char *
limit_src_name(kg_limit_src s)
{
	switch (s) {
	case KG_LIMIT_CONFIG: return "config";
	case KG_LIMIT_TRACE: return "trace";
	default: return "default";
	}
}

/* Member status name. */
const char *
member_status_name(kg_member_status st)
{
	switch (st) {
	case KG_MEMBER_CONSUMING: return "consuming";
	case KG_MEMBER_PARTIAL: return "partial";
	case KG_MEMBER_STOPPED: return "stopped";
	case KG_MEMBER_IDLE: return "idle";
	case KG_MEMBER_AWAY: return "away";
	case KG_MEMBER_SILENT: return "silent";
	default: return "?";
	}
}

static const char *const reason_names[KG_REASON_COUNT] = {
	[KG_REASON_NONE] = "",
	[KG_REASON_JOINED] = "joined",
	[KG_REASON_GRACEFUL] = "graceful",
	[KG_REASON_SESSION_TIMEOUT] = "session timeout",
	[KG_REASON_MAX_POLL] = "max.poll.interval",
	[KG_REASON_REPLACED] = "replaced",
	[KG_REASON_FENCED] = "fenced",
	[KG_REASON_LEADER_REJOIN] = "leader rejoin",
	[KG_REASON_METADATA] = "metadata change",
	[KG_REASON_UNKNOWN] = "unknown",
	[KG_REASON_LEFT] = "a leave",
	[KG_REASON_TIMEOUT] = "session or max.poll timeout",
};

static const char *const reason_keys[KG_REASON_COUNT] = {
	[KG_REASON_NONE] = "none",
	[KG_REASON_JOINED] = "joined",
	[KG_REASON_GRACEFUL] = "graceful",
	[KG_REASON_SESSION_TIMEOUT] = "session_timeout",
	[KG_REASON_MAX_POLL] = "max_poll",
	[KG_REASON_REPLACED] = "replaced",
	[KG_REASON_FENCED] = "fenced",
	[KG_REASON_LEADER_REJOIN] = "leader_rejoin",
	[KG_REASON_METADATA] = "metadata",
	[KG_REASON_UNKNOWN] = "unknown",
	[KG_REASON_LEFT] = "left",
	[KG_REASON_TIMEOUT] = "timeout",
};

/* Human reason. */
const char *
reason_name(kg_reason r)
{
	return (unsigned)r < KG_REASON_COUNT ? reason_names[r] : "unknown";
}

/* Machine reason. */
const char *
reason_key(kg_reason r)
{
	return (unsigned)r < KG_REASON_COUNT ? reason_keys[r] : "unknown";
}

/* Parse a machine reason. */
kg_reason
reason_parse(const char *s)
{
	int i;
	if (s == NULL)
		return KG_REASON_NONE;
	i = util_name_index(reason_keys, KG_REASON_COUNT, s);
	return i < 0 ? KG_REASON_UNKNOWN : (kg_reason)i;
}

static const char *const verdict_names[KG_VERDICT_COUNT] = {
	[KG_VERDICT_NONE] = "-",          [KG_VERDICT_OK] = "OK",           [KG_VERDICT_PENDING] = "PENDING",
	[KG_VERDICT_SLOW] = "SLOW",
	[KG_VERDICT_REWIND] = "REWIND",   [KG_VERDICT_STALLED] = "STALLED", [KG_VERDICT_STOPPED] = "STOPPED",
	[KG_VERDICT_LOST] = "LOST",
};

/* A verdict's name. */
const char *
verdict_name(kg_verdict v)
{
	return (unsigned)v < KG_VERDICT_COUNT ? verdict_names[v] : "-";
}

static const char *const verdict_keys[KG_VERDICT_COUNT] = {
	[KG_VERDICT_NONE] = "none",       [KG_VERDICT_OK] = "ok",           [KG_VERDICT_PENDING] = "pending",
	[KG_VERDICT_SLOW] = "slow",
	[KG_VERDICT_REWIND] = "rewind",   [KG_VERDICT_STALLED] = "stalled", [KG_VERDICT_STOPPED] = "stopped",
	[KG_VERDICT_LOST] = "lost",
};

/* A verdict's machine name. */
const char *
verdict_key(kg_verdict v)
{
	return (unsigned)v < KG_VERDICT_COUNT ? verdict_keys[v] : "none";
}

/* Machine name of a since's kind. */
const char *
since_kind_key(kg_since_kind k)
{
	static const char *const keys[KG_SINCE_KIND_COUNT] = { "none", "commit", "record", "watched", "before_start" };
	return (unsigned)k < KG_SINCE_KIND_COUNT ? keys[k] : "none";
}

/* A time of day, local. */
static void
clock_of(char *buf, size_t n, int64_t us)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, n, "%H:%M:%S", &tm);
}

/* Two clock times as a short range: "22:13:24-25", "22:12:59-13:05", else whole minutes "21:58-22:14". */
static void
clock_range(char *buf, size_t n, int64_t lo, int64_t hi)
{
	char a[16], b[16];
	clock_of(a, sizeof a, lo);
	clock_of(b, sizeof b, hi);
	if (strncmp(a, b, 6) == 0) {
		snprintf(buf, n, "%s-%s", a, b + 6);
	} else if (strncmp(a, b, 3) == 0) {
		snprintf(buf, n, "%s-%s", a, b + 3);
	} else {
		/* the earliest's minute and the latest's next one: a range that still holds both */
		clock_of(b, sizeof b, hi + 59 * 1000000);
		snprintf(buf, n, "%.5s-%.5s", a, b);
	}
}

/* A since in words, short or long (see snapshot.h). */
void
since_fmt(char *buf, size_t n, kg_since_kind kind, int64_t lo, int64_t hi, bool long_form)
{
	static const char *const lo_said[KG_SINCE_KIND_COUNT] = {
		[KG_SINCE_COMMIT] = " (commit time)", [KG_SINCE_RECORD] = " (the waiting record's time)",
	};
	char a[16], b[16];
	if (n == 0)
		return;
	buf[0] = '\0';
	if (kind == KG_SINCE_NONE || (unsigned)kind >= KG_SINCE_KIND_COUNT || hi <= 0)
		return;
	clock_of(b, sizeof b, hi);
	if (kind == KG_SINCE_BEFORE || lo <= 0) {
		snprintf(buf, n, long_form ? "before %s (kgtop's first look)" : "<%s", b);
		return;
	}
	clock_of(a, sizeof a, lo);
	if (hi / 1000000 == lo / 1000000)
		snprintf(buf, n, "%s%s", b, long_form && lo_said[kind] ? lo_said[kind] : "");
	else if (!long_form)
		clock_range(buf, n, lo, hi);
	else if (kind == KG_SINCE_WATCHED)
		snprintf(buf, n, "between %s and %s (two refreshes)", a, b);
	else
		snprintf(buf, n, "between %s%s and %s", a, lo_said[kind] ? lo_said[kind] : "", b);
}

/* Machine name of a time lag's kind. */
const char *
tlag_kind_key(kg_tlag_kind k)
{
	static const char *const keys[KG_TLAG_KIND_COUNT] = { "none", "exact", "estimate", "at_least" };
	return (unsigned)k < KG_TLAG_KIND_COUNT ? keys[k] : "none";
}

static const char *const tlag_why_keys[KG_TLAG_WHY_COUNT] = {
	[KG_TLAG_WHY_NONE] = "",           [KG_TLAG_NO_OFFSETS] = "no_offsets", [KG_TLAG_NO_SAMPLES] = "no_samples",
	[KG_TLAG_NO_RECORDS] = "no_records", [KG_TLAG_GAP] = "gap",            [KG_TLAG_NO_TIMESTAMP] = "no_timestamp",
	[KG_TLAG_NO_ANSWER] = "no_answer", [KG_TLAG_SKEW] = "clock_skew",      [KG_TLAG_DELETED] = "deleted",
};

/* Machine name of a time lag's reason. */
const char *
tlag_why_key(kg_tlag_why w)
{
	return (unsigned)w < KG_TLAG_WHY_COUNT ? tlag_why_keys[w] : "";
}

/* Parse tlag_why_key() back. */
kg_tlag_why
tlag_why_parse(const char *s)
{
	int i;
	for (i = 1; s != NULL && i < KG_TLAG_WHY_COUNT; i++) {
		if (strcmp(s, tlag_why_keys[i]) == 0)
			return (kg_tlag_why)i;
	}
	return KG_TLAG_WHY_NONE;
}

/* A time lag's reason in words. */
const char *
tlag_why_text(kg_tlag_why w)
{
	static const char *const text[KG_TLAG_WHY_COUNT] = {
		[KG_TLAG_WHY_NONE] = "",
		[KG_TLAG_NO_OFFSETS] = "offsets unknown",
		[KG_TLAG_NO_SAMPLES] = "one sample of the log-end so far",
		[KG_TLAG_NO_RECORDS] = "no records",
		[KG_TLAG_GAP] = "compacted gap",
		[KG_TLAG_NO_TIMESTAMP] = "no timestamp",
		[KG_TLAG_NO_ANSWER] = "broker did not answer",
		[KG_TLAG_SKEW] = "clock skew (clamped at 0)",
		[KG_TLAG_DELETED] = "record deleted",
	};
	return (unsigned)w < KG_TLAG_WHY_COUNT ? text[w] : "";
}

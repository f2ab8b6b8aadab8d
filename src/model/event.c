/*
 * event.c: events, their names and their text in the seeds' words.
 */
#include "config.h"

#include "model/event.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A new event with one reference. */
kg_event *
event_new(kg_event_kind kind, int64_t time_us, int32_t group)
{
	kg_event *e = xcalloc(1, sizeof *e);
	atomic_init(&e->refs, 1);
	e->kind = kind;
	e->time_us = time_us;
	e->group = group;
	e->lane = -1;
	e->generation = -1;
	e->duration_us = -1;
	e->duration.min = e->duration.max = -1;
	return e;
}

/* Take a reference. */
kg_event *
event_ref(kg_event *e)
{
	if (e != NULL)
		atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
	return e;
}

/* Drop a reference. */
void
event_unref(kg_event *e)
{
	if (e == NULL)
		return;
	if (atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) != 1)
		return;
	free(e->member_id);
	free(e->client_id);
	free(e->instance_id);
	free(e->parts);
	free(e->before);
	free(e->text);
	free(e);
}

/* Set member identity. */
void
event_member(kg_event *e, const char *member_id, const char *client_id, const char *instance_id, int lane)
{
	free(e->member_id);
	free(e->client_id);
	free(e->instance_id);
	e->member_id = xstrdup(member_id);
	e->client_id = xstrdup(client_id);
	e->instance_id = xstrdup(instance_id);
	e->lane = lane;
}

/* Set the text. */
void
event_text(kg_event *e, const char *text)
{
	free(e->text);
	e->text = xstrdup(text);
}

static const char *const kind_keys[KG_EV_COUNT] = {
	[KG_EV_GROUP_APPEARED] = "group_appeared",
	[KG_EV_GROUP_GONE] = "group_gone",
	[KG_EV_STATE] = "state",
	[KG_EV_MEMBER_JOINED] = "member_joined",
	[KG_EV_MEMBER_LEFT] = "member_left",
	[KG_EV_MEMBER_AWAY] = "member_away",
	[KG_EV_MEMBER_BACK] = "member_back",
	[KG_EV_REBALANCE_START] = "rebalance_start",
	[KG_EV_ROUND] = "round",
	[KG_EV_REBALANCE_END] = "rebalance_end",
	[KG_EV_REVOKED] = "revoked",
	[KG_EV_ASSIGNED] = "assigned",
	[KG_EV_LOST] = "taken",
	[KG_EV_ORPHANED] = "orphaned",
	[KG_EV_STORM_BEGIN] = "storm_begin",
	[KG_EV_STORM_END] = "storm_end",
	[KG_EV_SOURCE] = "source",
	[KG_EV_RETIMED] = "retimed",
	[KG_EV_MEMBER_SILENT] = "member_silent",
	[KG_EV_REPROCESSED] = "reprocessed",
	[KG_EV_VERDICT] = "verdict",
};

/* Machine name of a kind. */
const char *
event_kind_key(kg_event_kind k)
{
	return (unsigned)k < KG_EV_COUNT ? kind_keys[k] : "?";
}

/* Parse a kind name. */
int
event_kind_parse(const char *s)
{
	return util_name_index(kind_keys, KG_EV_COUNT, s);
}

static const char *const evidence_names[KG_EVID_COUNT] = {
	[KG_EVID_EXACT] = "exact",
	[KG_EVID_POLLED] = "polled",
	[KG_EVID_PROTOCOL] = "protocol",
};

/* Evidence name. */
const char *
evidence_name(kg_evidence ev)
{
	return (unsigned)ev < KG_EVID_COUNT ? evidence_names[ev] : "?";
}

/* Who the event is about. */
static const char *
event_who(const kg_event *e)
{
	if (e->client_id != NULL && *e->client_id != '\0')
		return e->client_id;
	if (e->member_id != NULL)
		return e->member_id;
	return "";
}

/* Append " [polled]" or " [eager protocol]" for inferred facts. */
static void
add_evidence(const kg_event *e, sbuf *out)
{
	if (e->evidence == KG_EVID_POLLED)
		sbuf_adds(out, " [polled]");
	else if (e->evidence == KG_EVID_PROTOCOL)
		sbuf_adds(out, " [eager protocol]");
}

/* Append the reason in parentheses, with its text when it says more. */
static void
add_reason(const kg_event *e, sbuf *out)
{
	if (e->reason == KG_REASON_NONE && (e->text == NULL || *e->text == '\0'))
		return;
	sbuf_adds(out, " (");
	if (e->reason != KG_REASON_NONE)
		sbuf_adds(out, reason_name(e->reason));
	if (e->text != NULL && *e->text != '\0') {
		if (e->reason != KG_REASON_NONE)
			sbuf_adds(out, ": ");
		sbuf_adds(out, e->text);
	}
	sbuf_addc(out, ')');
}

/*
 * The message of each kind, in the seeds' words: one small function per
 * kind, found through fmt_kind[] (a kind without one reads "?").
 */
typedef void fmt_fn(const kg_event *e, sbuf *out);

/* "group appeared (Stable, 3 members)". */
static void
fmt_group_appeared(const kg_event *e, sbuf *out)
{
	sbuf_adds(out, "group appeared");
	if (e->text)
		sbuf_addf(out, " (%s)", e->text);
}

/* "group gone". */
static void
fmt_group_gone(const kg_event *e, sbuf *out)
{
	(void)e;
	sbuf_adds(out, "group gone");
}

/* "state Stable -> PreparingRebalance". */
static void
fmt_state(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "state %s -> %s", state_name(e->from), state_name(e->to));
}

/* "consumer-d joined (static: i-4) [polled]". */
static void
fmt_member_joined(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "%s joined", event_who(e));
	if (e->instance_id)
		sbuf_addf(out, " (static: %s)", e->instance_id);
	add_evidence(e, out);
}

/* Append " holding [4 5]" when the event names partitions. */
static void
add_holding(const kg_event *e, sbuf *out)
{
	if (e->nparts > 0) {
		sbuf_adds(out, " holding ");
		tp_format(out, e->parts, e->nparts, e->single_topic);
	}
}

/* "worker-3 left (max.poll.interval) holding [4 5]". */
static void
fmt_member_left(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "%s left", event_who(e));
	if (e->reason == KG_REASON_LEFT && (e->text == NULL || *e->text == '\0')) {
		/* gone from a description without a silence before: a leave, how not known */
	} else if (e->evidence == KG_EVID_POLLED && e->reason != KG_REASON_LEFT && e->reason != KG_REASON_UNKNOWN &&
		   e->reason != KG_REASON_NONE) {
		/* removed after a silence polling saw: the reason is inferred */
		sbuf_addf(out, " (%s, inferred", reason_name(e->reason));
		if (e->text != NULL && *e->text != '\0')
			sbuf_addf(out, ": %s", e->text);
		sbuf_addc(out, ')');
	} else {
		add_reason(e, out);
	}
	add_holding(e, out);
}

/* A static member closed without leaving. */
static void
fmt_member_away(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "%s away (static member %s: no rebalance unless it stays away past session.timeout.ms)",
		  event_who(e), e->instance_id ? e->instance_id : "");
}

/* A static member back in time (from a coordinator's log: the instance, and the member id it replaces). */
static void
fmt_member_back(const kg_event *e, sbuf *out)
{
	if (e->member_id == NULL && e->instance_id != NULL) {
		/* a coordinator's log: the instance back under a member id it does not give, replacing text */
		sbuf_addf(out, "static member %s back under a new member id", e->instance_id);
		if (e->text != NULL)
			sbuf_addf(out, " (replacing %s)", e->text);
		return; /* a rebalance follows only when its metadata changed: the log says so if it does */
	}
	/* polling sees descriptions, not generations: a generation may have completed without a move */
	sbuf_addf(out, "%s back (static member %s) with its partitions: no rebalance%s", event_who(e),
		  e->instance_id ? e->instance_id : "", e->evidence == KG_EVID_EXACT ? "" : " seen");
}

/* The word of a group's generation: a consumer group's is its group epoch (KIP-848). */
static const char *
gen_word(const kg_event *e)
{
	return e->proto == KG_PROTO_CONSUMER ? "group epoch" : "generation";
}

/* "rebalance started (eager, joined: worker-4, from generation 12)"; KIP-848 "(consumer protocol, ..., group epoch 5)". */
static void
fmt_rebalance_start(const kg_event *e, sbuf *out)
{
	bool kip = e->proto == KG_PROTO_CONSUMER;
	sbuf_addf(out, "rebalance started (%s%s", proto_name(e->proto), kip ? " protocol" : "");
	if (e->text && *e->text)
		sbuf_addf(out, ", %s", e->text);
	if (e->generation >= 0)
		sbuf_addf(out, kip ? ", group epoch %d" : ", from generation %d", (int)e->generation);
	sbuf_addc(out, ')');
}

/* "rebalance round 2 (generation 13)". */
static void
fmt_round(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "rebalance round %d", e->round);
	if (e->generation >= 0)
		sbuf_addf(out, " (generation %d)", (int)e->generation);
}

/* A duration in one unit: "19ms", "2.6s" (a number only with bare: the unit follows once). */
static void
span_part(char *buf, size_t n, int64_t us, bool ms, bool bare)
{
	if (ms)
		snprintf(buf, n, "%lld%s", (long long)(us / 1000), bare ? "" : "ms");
	else
		snprintf(buf, n, "%.1f%s", (double)us / 1e6, bare ? "" : "s");
}

/* A span of time: measured, "≤1.0s", "0.4-1.2s", "≥3.0s". */
void
event_fmt_span(char *buf, size_t n, kg_span d, bool ascii)
{
	char a[32], b[32];
	bool ms;
	if (d.min < 0) {
		snprintf(buf, n, "-");
		return;
	}
	if (d.max == d.min) {
		util_fmt_duration(buf, n, d.min);
		return;
	}
	if (d.max < 0) {
		util_fmt_duration(a, sizeof a, d.min);
		snprintf(buf, n, "%s%s", ascii ? ">=" : "\u2265", a);
		return;
	}
	ms = d.max < 1000000;
	span_part(b, sizeof b, d.max, ms, false);
	/* from nothing (a rebalance between two refreshes) is "at most"; within 50 ms of it too */
	if (d.min < 50000) {
		snprintf(buf, n, "%s%s", ascii ? "<=" : "\u2264", b);
		return;
	}
	span_part(a, sizeof a, d.min, ms, true);
	snprintf(buf, n, "%s-%s", a, b);
}

/*
 * An amount of n units times microseconds, within bounds, in its unit
 * however many: "3.0 partition-s", "7.8 member-s"; "for an unknown time"
 * when there is neither a bound above nor one above nothing.
 */
void
event_fmt_amount(sbuf *out, kg_span v, int n, const char *unit, bool ascii)
{
	if (v.max < 0 && v.min < 50000) {
		sbuf_adds(out, "for an unknown time");
		return;
	}
	if (v.max == v.min)
		sbuf_addf(out, "%.1f", (double)v.min / 1e6);
	else if (v.max < 0)
		sbuf_addf(out, "%s%.1f", ascii ? ">=" : "\u2265", (double)v.min / 1e6);
	else if (v.min < 50000)
		sbuf_addf(out, "%s%.1f", ascii ? "<=" : "\u2264", (double)v.max / 1e6);
	else
		sbuf_addf(out, "%.1f-%.1f", (double)v.min / 1e6, (double)v.max / 1e6);
	(void)n; /* one unit for one idea: a partition's 3.0 s are 3.0 partition-s beside another group's */
	sbuf_addf(out, " %s-s", unit);
}

/* What an episode cost, in words. */
void
event_fmt_cost(sbuf *out, int nstopped, kg_span stopped_us, int nunconsumed, kg_span unconsumed_us, bool ascii)
{
	if (nstopped > 0) {
		sbuf_addf(out, "%d member%s stopped ", nstopped, nstopped == 1 ? "" : "s");
		event_fmt_amount(out, stopped_us, nstopped, "member", ascii);
	} else {
		sbuf_adds(out, "no member stopped");
	}
	if (nunconsumed > 0) {
		sbuf_addf(out, ", %d partition%s unconsumed ", nunconsumed, nunconsumed == 1 ? "" : "s");
		event_fmt_amount(out, unconsumed_us, nunconsumed, "partition", ascii);
	}
}

/* An episode's length: measured, or within the bounds polling allows. */
static void
episode_span(const kg_event *e, char *buf, size_t n)
{
	kg_span d = e->duration;
	if (d.min < 0) /* an event from before bounds were kept: its one figure */
		d.min = d.max = e->duration_us;
	event_fmt_span(buf, n, d, false);
}

/* Records within bounds: "120 records", "<=390", "120-390", ">=120" (n: records, or the unit after). */
void
event_fmt_records(sbuf *out, kg_span v, bool ascii)
{
	char a[32], b[32];
	util_fmt_count(a, sizeof a, v.min);
	util_fmt_count(b, sizeof b, v.max);
	if (v.max == v.min)
		sbuf_addf(out, "%s", a);
	else if (v.max < 0)
		sbuf_addf(out, "%s%s", ascii ? ">=" : "\u2265", a);
	else if (v.min <= 0)
		sbuf_addf(out, "%s%s", ascii ? "<=" : "\u2264", b);
	else
		sbuf_addf(out, "%s-%s", a, b);
	sbuf_addf(out, " record%s", v.min == 1 && v.max == 1 ? "" : "s");
}

/* "rebalance ended after 2.5s, 1 round, generation 13; ...; backlog <=75 records". */
static void
fmt_rebalance_end(const kg_event *e, sbuf *out)
{
	char d[48];
	episode_span(e, d, sizeof d);
	sbuf_addf(out, "rebalance ended after %s", d);
	if (e->proto == KG_PROTO_CONSUMER) /* KIP-848: members reconcile each on its own, no round stops them all */
		sbuf_adds(out, ", no barrier");
	else if (e->round > 0 || !e->rounds_min) /* "at least 0 rounds" says nothing */
		sbuf_addf(out, ", %s%d round%s", e->rounds_min ? "\u2265" : "", e->round, e->round == 1 ? "" : "s");
	if (e->generation >= 0)
		sbuf_addf(out, ", %s %d", gen_word(e), (int)e->generation);
	if (e->text && *e->text)
		sbuf_addf(out, "; %s", e->text);
	if (e->backlog.max > 0 || e->backlog.min > 0) { /* nothing produced meanwhile, or nothing known: not said */
		/* what the rebalance cost in records: those produced while partitions had no consuming owner */
		sbuf_adds(out, "; backlog ");
		event_fmt_records(out, e->backlog, false);
	}
}

/* "consumer-a revoked [4] of [0 4] (incremental)". */
static void
fmt_revoked(const kg_event *e, sbuf *out)
{
	bool sf = e->single_topic;
	sbuf_addf(out, "%s revoked ", event_who(e));
	tp_format(out, e->parts, e->nparts, sf);
	if (e->cls == KG_CLASS_FULL) {
		/*
		 * A member that closes gives up everything without stopping
		 * the others; in a cooperative group losing all one had is
		 * that member's stop, not the world's.
		 */
		if (e->reason == KG_REASON_GRACEFUL)
			sbuf_adds(out, " (all: leaving)");
		else if (e->proto == KG_PROTO_COOPERATIVE || e->proto == KG_PROTO_CONSUMER)
			sbuf_adds(out, " (all it had)");
		else
			sbuf_adds(out, " (all: stop-the-world)");
	} else if (e->cls == KG_CLASS_INCREMENTAL) {
		sbuf_adds(out, " of ");
		tp_format(out, e->before, e->nbefore, sf);
		sbuf_adds(out, " (incremental)");
	} else if (e->nparts > 0) {
		sbuf_adds(out, " (what it held before is not known)");
	} else {
		sbuf_adds(out, " (nothing)");
	}
	if (e->proto == KG_PROTO_CONSUMER && e->generation >= 0)
		sbuf_addf(out, " at epoch %d", (int)e->generation);
	add_evidence(e, out);
}

/* "consumer-d assigned [4]". */
static void
fmt_assigned(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "%s assigned ", event_who(e));
	tp_format(out, e->parts, e->nparts, e->single_topic);
	if (e->proto == KG_PROTO_CONSUMER && e->generation >= 0)
		sbuf_addf(out, " at epoch %d", (int)e->generation);
	add_evidence(e, out);
}

/* "consumer-b had [2 3] taken (...)": taken in a rebalance without its revoke ("lost" is only the verdict's). */
static void
fmt_lost(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "%s had ", event_who(e));
	tp_format(out, e->parts, e->nparts, e->single_topic);
	sbuf_adds(out, " taken");
	add_reason(e, out);
}

/* "[5] orphaned: no member owns it". */
static void
fmt_orphaned(const kg_event *e, sbuf *out)
{
	tp_format(out, e->parts, e->nparts, e->single_topic);
	sbuf_adds(out, " orphaned: no member owns ");
	sbuf_adds(out, e->nparts == 1 ? "it" : "them");
	if (e->text)
		sbuf_addf(out, " (%s)", e->text);
}

/* "rebalance storm: 3 rebalances in the last 5m, ...", and "rebalance storm over: ..." at its end. */
static void
fmt_storm(const kg_event *e, sbuf *out)
{
	sbuf_adds(out, e->kind == KG_EV_STORM_BEGIN ? "rebalance storm" : "rebalance storm over");
	if (e->text)
		sbuf_addf(out, ": %s", e->text);
}

/* A source's health changed: its own text. */
static void
fmt_source(const kg_event *e, sbuf *out)
{
	sbuf_adds(out, e->text ? e->text : "source changed");
}

/*
 * "the coordinator times that rebalance: 2.4 s, 2 rounds, generation 13 (from generation 12)": its log or its
 * records (--trace offsets), whichever told it.
 */
static void
fmt_retimed(const kg_event *e, sbuf *out)
{
	char d[48];
	episode_span(e, d, sizeof d);
	sbuf_addf(out, "the coordinator times that rebalance: %s", d);
	if (e->round > 1)
		sbuf_addf(out, ", %s%d rounds", e->rounds_min ? "at least " : "", e->round);
	if (e->generation >= 0)
		sbuf_addf(out, ", %s %d", gen_word(e), (int)e->generation);
	if (e->text && *e->text)
		sbuf_addf(out, " (%s)", e->text);
}

/* "consumer-c silent: not consuming until the coordinator decides (crashed) holding [4 5]" (its time is since). */
static void
fmt_member_silent(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "%s silent: not consuming until the coordinator decides", event_who(e));
	add_reason(e, out);
	add_holding(e, out);
	add_evidence(e, out);
}

/* "consumer-d processed 47 records of [2] twice (resumed from the committed offset 1203; 1249 had been processed)". */
static void
fmt_reprocessed(const kg_event *e, sbuf *out)
{
	sbuf_addf(out, "%s processed %lld record%s ", event_who(e), (long long)e->records, e->records == 1 ? "" : "s");
	if (e->nparts > 0) {
		sbuf_adds(out, "of ");
		tp_format(out, e->parts, e->nparts, e->single_topic);
		sbuf_addc(out, ' ');
	}
	sbuf_adds(out, "twice");
	if (e->text != NULL && *e->text)
		sbuf_addf(out, " (%s)", e->text);
}

/*
 * "[2 3] STALLED: committed offset frozen 3.0s while the log grows (lag
 * 60)", "[0] OK again (was STALLED)": the partitions, the verdict and what
 * shows it (the tracker's text).
 */
static void
fmt_verdict(const kg_event *e, sbuf *out)
{
	tp_format(out, e->parts, e->nparts, e->single_topic);
	if (e->verdict == KG_VERDICT_OK && e->verdict_from > KG_VERDICT_PENDING)
		sbuf_addf(out, " OK again (was %s)", verdict_name((kg_verdict)e->verdict_from));
	else
		sbuf_addf(out, " %s", verdict_name((kg_verdict)e->verdict));
	if (e->text != NULL && *e->text)
		sbuf_addf(out, ": %s", e->text);
}

static fmt_fn *const fmt_kind[KG_EV_COUNT] = {
	[KG_EV_GROUP_APPEARED] = fmt_group_appeared,
	[KG_EV_GROUP_GONE] = fmt_group_gone,
	[KG_EV_STATE] = fmt_state,
	[KG_EV_MEMBER_JOINED] = fmt_member_joined,
	[KG_EV_MEMBER_LEFT] = fmt_member_left,
	[KG_EV_MEMBER_AWAY] = fmt_member_away,
	[KG_EV_MEMBER_BACK] = fmt_member_back,
	[KG_EV_REBALANCE_START] = fmt_rebalance_start,
	[KG_EV_ROUND] = fmt_round,
	[KG_EV_REBALANCE_END] = fmt_rebalance_end,
	[KG_EV_REVOKED] = fmt_revoked,
	[KG_EV_ASSIGNED] = fmt_assigned,
	[KG_EV_LOST] = fmt_lost,
	[KG_EV_ORPHANED] = fmt_orphaned,
	[KG_EV_STORM_BEGIN] = fmt_storm,
	[KG_EV_STORM_END] = fmt_storm,
	[KG_EV_SOURCE] = fmt_source,
	[KG_EV_RETIMED] = fmt_retimed,
	[KG_EV_MEMBER_SILENT] = fmt_member_silent,
	[KG_EV_REPROCESSED] = fmt_reprocessed,
	[KG_EV_VERDICT] = fmt_verdict,
};

/* " (between 03:12:04 and 03:12:31)": a change seen after a gap in the group's data. */
static void
fmt_between(const kg_event *e, sbuf *out)
{
	char a[16], b[16];
	time_t ta = (time_t)(e->after_us / 1000000), tb = (time_t)(e->time_us / 1000000);
	struct tm tm;
	localtime_r(&ta, &tm);
	strftime(a, sizeof a, "%H:%M:%S", &tm);
	localtime_r(&tb, &tm);
	strftime(b, sizeof b, "%H:%M:%S", &tm);
	sbuf_addf(out, " (between %s and %s)", a, b);
}

/* The message of an event. */
void
event_format(const kg_event *e, sbuf *out)
{
	fmt_fn *fn = (unsigned)e->kind < KG_EV_COUNT ? fmt_kind[e->kind] : NULL;
	if (fn != NULL)
		fn(e, out);
	else
		sbuf_adds(out, "?");
	if (e->after_us > 0)
		fmt_between(e, out);
}

/* "[12.121s] message". */
void
event_format_line(const kg_event *e, int64_t t0_us, sbuf *out)
{
	int64_t rel = e->time_us - t0_us;
	if (rel < 0)
		sbuf_addf(out, "[-%lld.%03llds] ", (long long)(-rel / 1000000), (long long)((-rel / 1000) % 1000));
	else
		sbuf_addf(out, "[%lld.%03llds] ", (long long)(rel / 1000000), (long long)((rel / 1000) % 1000));
	event_format(e, out);
}

/* Append. */
void
evlist_push(kg_evlist *l, kg_event *e)
{
	util_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = e;
}

/* Drop all. */
void
evlist_clear(kg_evlist *l)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		event_unref(l->v[i]);
	l->n = 0;
}

/* Move src into dst. */
void
evlist_move(kg_evlist *dst, kg_evlist *src)
{
	size_t i;
	for (i = 0; i < src->n; i++)
		evlist_push(dst, src->v[i]);
	src->n = 0;
}

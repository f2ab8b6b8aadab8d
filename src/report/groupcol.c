/*
 * groupcol.c: the table of a group's facts (see groupcol.h): one row per
 * fact, in the order of the list's columns and of the report's lines.
 */
#include "config.h"

#include "report/groupcol.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/event.h"
#include "model/defaults.h"
#include "util/util.h"

/* True when text fits width columns (width <= 0: any). */
static bool
fits(const char *text, int width)
{
	return width <= 0 || (int)strlen(text) <= width;
}

/* One span of text in a style. */
static void
cell_text(groupcol_cell *c, groupcol_style st, const char *fmt, ...) KG_PRINTF(3, 4);

/* One span of text in a style. */
static void
cell_text(groupcol_cell *c, groupcol_style st, const char *fmt, ...)
{
	va_list ap;
	if (c->nspans >= GROUPCOL_SPANS)
		return;
	va_start(ap, fmt);
	vsnprintf(c->span[c->nspans].text, sizeof c->span[c->nspans].text, fmt, ap);
	va_end(ap);
	c->span[c->nspans++].style = st;
}

/* The style of a group state. */
groupcol_style
groupcol_state_style(kg_group_state st)
{
	if (state_rebalancing(st))
		return GROUPCOL_REBALANCING;
	return st == KG_STATE_STABLE ? GROUPCOL_STABLE : GROUPCOL_QUIET;
}

/* The style of a protocol. */
groupcol_style
groupcol_proto_style(kg_proto p)
{
	/* the consumer protocol is incremental: drawn as cooperative is */
	return p == KG_PROTO_EAGER		? GROUPCOL_EAGER
	       : p == KG_PROTO_COOPERATIVE || p == KG_PROTO_CONSUMER ? GROUPCOL_COOPERATIVE
								   : GROUPCOL_DIM;
}

/* The style of a verdict. */
groupcol_style
groupcol_verdict_style(kg_verdict v)
{
	switch (v) {
	case KG_VERDICT_OK: return GROUPCOL_VERDICT_OK;
	case KG_VERDICT_SLOW:
	case KG_VERDICT_REWIND: return GROUPCOL_VERDICT_WARN;
	case KG_VERDICT_NONE:
	case KG_VERDICT_PENDING:
	case KG_VERDICT_COUNT: return GROUPCOL_DIM;
	default: return GROUPCOL_VERDICT_BAD;
	}
}

/* A time lag, short, with its kind's sign. */
void
groupcol_fmt_tlag(char *buf, size_t n, int64_t us, kg_tlag_kind kind)
{
	const char *sign = kind == KG_TLAG_ESTIMATE ? "~" : kind == KG_TLAG_ATLEAST ? ">" : "";
	long long s = us / KG_SEC_US;
	if (kind == KG_TLAG_NONE || us < 0)
		snprintf(buf, n, "-");
	else if (us < 10 * KG_SEC_US)
		snprintf(buf, n, "%s%.1fs", sign, (double)us / 1e6);
	else if (s < 60)
		snprintf(buf, n, "%s%llds", sign, s);
	else if (s < 3600)
		snprintf(buf, n, "%s%lldm%02llds", sign, s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, n, "%s%lldh%02lldm", sign, s / 3600, s / 60 % 60);
	else
		snprintf(buf, n, "%s%lldd%02lldh", sign, s / 86400, s / 3600 % 24);
}

/* STATE: "PreparingRebalance", or "Prep" where that does not fit; a state kgtop has no name for, as its source named it. */
static void
state_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	const char *name = f->past || f->state != f->g->state ? state_name(f->state) : group_state_text(f->g);
	if (f->state == KG_STATE_UNKNOWN && name != state_name(f->state)) {
		cell_text(c, GROUPCOL_QUIET, "%s", name);
		return;
	}
	cell_text(c, groupcol_state_style(f->state), "%s", fits(name, width) ? name : state_short(f->state));
}

/* Rank of a state for sorting: rebalancing first, then stable, then the rest. */
static int
state_rank(kg_group_state st)
{
	if (state_rebalancing(st))
		return 0;
	if (st == KG_STATE_STABLE)
		return 1;
	if (st == KG_STATE_EMPTY)
		return 2;
	return 3;
}

/* By state, storms first among equals. */
static int
state_cmp(const kg_group *a, const kg_group *b)
{
	int d = state_rank(a->state) - state_rank(b->state);
	return d != 0 ? d : (int)b->sum.storm - (int)a->sum.storm;
}

/*
 * PROTOCOL: "cooperative-sticky (cooperative)", "uniform (consumer)", or
 * the protocol's one word where that does not fit; a group of another type
 * (share, streams, or one kgtop has no name for) its type: so the list
 * tells every type apart (eager and cooperative are classic groups').
 */
static void
proto_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	const kg_group *g = f->g;
	char full[GROUPCOL_TEXT];
	const char *name = proto_name(g->proto);
	if (g->proto == KG_PROTO_UNKNOWN && g->type != KG_GTYPE_CLASSIC && *group_type_text(g) != '\0') {
		cell_text(c, GROUPCOL_DIM, "%s", group_type_text(g));
		return;
	}
	snprintf(full, sizeof full, "%s (%s)", *g->assignor ? g->assignor : "-", name);
	if (!fits(full, width) || (width > 0 && !*g->assignor))
		snprintf(full, sizeof full, "%s", name);
	cell_text(c, groupcol_proto_style(g->proto), "%s", full);
}

/*
 * COORD: the coordinator, "2 (broker-2:9092)", or its id where that does
 * not fit; "-" when unknown.  The report (no width) adds the
 * __consumer_offsets partition that holds the group, or that it is not
 * known (no partition count from metadata).
 */
static void
coord_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	const kg_group *g = f->g;
	const char *host = "?";
	char full[GROUPCOL_TEXT];
	int i, port = 0;
	if (g->coordinator < 0) {
		cell_text(c, GROUPCOL_DIM, "-");
		return;
	}
	for (i = 0; f->snap != NULL && i < f->snap->nbrokers; i++) {
		if (f->snap->brokers[i].id == g->coordinator) {
			host = f->snap->brokers[i].host;
			port = f->snap->brokers[i].port;
		}
	}
	snprintf(full, sizeof full, "%d (%s:%d)", (int)g->coordinator, host, port);
	if (width <= 0 && f->snap != NULL) {
		int32_t p = group_offsets_partition(g->name, f->snap->offsets_partitions);
		size_t k = strlen(full);
		if (p >= 0)
			snprintf(full + k, sizeof full - k, ", __consumer_offsets-%d", (int)p);
		else
			snprintf(full + k, sizeof full - k, ", __consumer_offsets partition unknown");
	}
	if (fits(full, width))
		cell_text(c, GROUPCOL_NORMAL, "%s", full);
	else
		cell_text(c, GROUPCOL_NORMAL, "%d", (int)g->coordinator);
}

/*
 * A count in a column of width: all its digits when they fit (always in
 * the report), else the most precise compact form that fits ("19.5k",
 * then "20k"): never digits cut off ("1954" for 19,541).
 */
static void
count_cell(groupcol_cell *c, int64_t v, int width)
{
	char digits[32], compact[32];
	snprintf(digits, sizeof digits, "%lld", (long long)v);
	if (fits(digits, width)) {
		cell_text(c, GROUPCOL_NORMAL, "%s", digits);
		return;
	}
	util_fmt_count_fit(compact, sizeof compact, v, width);
	cell_text(c, GROUPCOL_NORMAL, "%s", compact);
}

/* MEMB: members; not known when the source cannot say (its note says why). */
static void
members_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	if (f->g->members_unknown && !f->past && f->nmembers == 0) {
		cell_text(c, GROUPCOL_DIM, "%s", width > 0 ? "?" : "not known");
		return;
	}
	count_cell(c, f->nmembers, width);
}

/* PARTS: partitions. */
static void
parts_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	count_cell(c, f->nparts, width);
}

/* LAG: "1.2k", and its trend over a minute (now only). */
static void
lag_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	char lag[32];
	int64_t d = f->g->sum.lag_delta_1m;
	(void)width;
	util_fmt_count(lag, sizeof lag, f->lag);
	cell_text(c, GROUPCOL_NORMAL, "%s", lag);
	if (f->g->lag >= 0 && !f->past) {
		c->sign = d > 0 ? GROUPCOL_SIGN_UP : d < 0 ? GROUPCOL_SIGN_DOWN : GROUPCOL_SIGN_FLAT;
		c->sign_style = d > 0 ? GROUPCOL_LAG_UP : d < 0 ? GROUPCOL_LAG_DOWN : GROUPCOL_DIM;
	}
}

/* By lag, the largest first. */
static int
lag_cmp(const kg_group *a, const kg_group *b)
{
	return a->lag < b->lag ? 1 : a->lag > b->lag ? -1 : 0;
}

/* TIME-LAG: the oldest next record any partition waits with ("~" estimated, ">" at least); "-" then (not kept). */
static void
tlag_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	char t[32];
	(void)width;
	if (width <= 0 && f->tlag_kind == KG_TLAG_NONE)
		return; /* the report leaves out what is not known */
	groupcol_fmt_tlag(t, sizeof t, f->time_lag_us, (kg_tlag_kind)f->tlag_kind);
	cell_text(c, f->tlag_kind == KG_TLAG_NONE ? GROUPCOL_DIM : GROUPCOL_NORMAL, "%s", t);
}

/* By time lag, the oldest first (not known last). */
static int
tlag_cmp(const kg_group *a, const kg_group *b)
{
	int64_t x = a->tlag_kind != KG_TLAG_NONE ? a->time_lag_us : -1, y = b->tlag_kind != KG_TLAG_NONE ? b->time_lag_us : -1;
	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * VERDICT: the worst of the partitions' ("STALLED"), now or then (the
 * history's); the report says since when, how many partitions of each
 * verdict, and the records lost.
 */
static void
verdict_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	const kg_group *g = f->g;
	char since[96] = "";
	sbuf b = { 0 };
	int v, n = 0;
	if (!f->progress)
		return; /* scrubbed back before the history had it: nothing to say */
	if (width <= 0 && f->verdict == KG_VERDICT_NONE)
		return; /* nothing judged: the report leaves it out */
	if (width > 0 || f->verdict == KG_VERDICT_NONE) {
		cell_text(c, groupcol_verdict_style((kg_verdict)f->verdict), "%s", verdict_name((kg_verdict)f->verdict));
		return;
	}
	sbuf_adds(&b, g->verdict == KG_VERDICT_PENDING ? "not judged yet" : verdict_name((kg_verdict)g->verdict));
	if (g->verdict_since_us > 0) {
		since_fmt(since, sizeof since, (kg_since_kind)g->since_kind, g->verdict_since_lo_us, g->verdict_since_us, true);
		sbuf_addf(&b, " since %s", since);
	}
	sbuf_adds(&b, " (");
	for (v = KG_VERDICT_COUNT - 1; v >= KG_VERDICT_NONE; v--) {
		if (g->nverdict[v] > 0)
			sbuf_addf(&b, "%s%d %s", n++ ? ", " : "", g->nverdict[v],
				  v == KG_VERDICT_NONE ? "without offsets" : v == KG_VERDICT_PENDING ? "not judged yet" : verdict_name((kg_verdict)v));
	}
	sbuf_adds(&b, ")");
	if (g->lost > 0)
		sbuf_addf(&b, "; %lld records lost", (long long)g->lost);
	cell_text(c, groupcol_verdict_style((kg_verdict)g->verdict), "%s", sbuf_str(&b));
	sbuf_free(&b);
}

/* By verdict, the worst first; then by time lag. */
static int
verdict_cmp(const kg_group *a, const kg_group *b)
{
	int d = (int)b->verdict - (int)a->verdict;
	return d != 0 ? d : tlag_cmp(a, b);
}

/* Orphaned partitions, when there are. */
static void
orphaned_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	(void)width;
	if (f->g->norphaned > 0)
		cell_text(c, GROUPCOL_NORMAL, "%d", f->g->norphaned);
}

/* Idle members, when there are. */
static void
idle_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	(void)width;
	if (f->g->nidle > 0)
		cell_text(c, GROUPCOL_NORMAL, "%d", f->g->nidle);
}

/* REB: rebalances in the hour before. */
static void
reb_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	(void)width;
	cell_text(c, GROUPCOL_NORMAL, "%d", f->rebalances_1h);
}

/* By rebalances, the most first. */
static int
reb_cmp(const kg_group *a, const kg_group *b)
{
	return b->sum.rebalances_1h - a->sum.rebalances_1h;
}

/*
 * The age of a row's data when it is older than its source's pace for it
 * (pace_ms: a quiet group on a screen is asked every 10 s) and two refresh
 * intervals ("25s old"), now only: a row asked as often as it is meant to
 * be says nothing, so a quiet screen stays still; data later than that is
 * news.
 */
static void
age_flag(const groupcol_facts *f, groupcol_cell *c)
{
	int64_t age = 0;
	if (f->snap != NULL && f->g->data_time_us > 0)
		age = f->snap->time_us - f->g->data_time_us + f->extra_age_us;
	char d[32];
	if (f->past || f->snap->interval_us <= 0 || age <= (int64_t)f->g->pace_ms * 1000 + 2 * f->snap->interval_us)
		return;
	if (age < 60 * KG_SEC_US)
		snprintf(d, sizeof d, "%llds", (long long)(age / KG_SEC_US));
	else
		util_fmt_duration(d, sizeof d, age - age % KG_SEC_US);
	cell_text(c, GROUPCOL_DIM, "%s old", d);
}

/* FLAGS: STORM (now only: the history does not keep it), rebal while a rebalance is open, the data's age when old. */
static void
flags_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	(void)width;
	if (f->g->sum.storm && !f->past)
		cell_text(c, GROUPCOL_STORM, "STORM");
	if (f->in_episode)
		cell_text(c, GROUPCOL_REBALANCING, "rebal");
	if (c->nspans < GROUPCOL_SPANS)
		age_flag(f, c);
}

/*
 * The last rebalance (report only): its duration as measured or within
 * the bounds two refreshes allow, its rounds (at least, when polled), and
 * what it cost.
 */
static void
last_rebalance_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	const kg_group_summary *m = &f->g->sum;
	kg_span d = { m->last_episode_min_us, m->last_episode_max_us }, st, un;
	char dur[48];
	sbuf b = { 0 };
	(void)width;
	if (m->last_episode_us < 0 || f->past)
		return;
	if (d.min < 0)
		d.min = d.max = m->last_episode_us;
	event_fmt_span(dur, sizeof dur, d, false);
	st.min = m->last_stopped_min_us;
	st.max = m->last_stopped_max_us;
	un.min = m->last_unconsumed_min_us;
	un.max = m->last_unconsumed_max_us;
	if (f->g->proto == KG_PROTO_CONSUMER)
		sbuf_addf(&b, "%s, no barrier; ", dur); /* KIP-848: members reconcile each on its own */
	else
		sbuf_addf(&b, "%s, %s%d round%s; ", dur, m->last_rounds_min ? "\u2265" : "", m->last_rounds,
			  m->last_rounds == 1 ? "" : "s");
	event_fmt_cost(&b, m->last_nstopped, st, m->last_nunconsumed, un, false);
	if (m->last_backlog_max > 0 || m->last_backlog_min > 0) {
		kg_span bl = { m->last_backlog_min, m->last_backlog_max };
		sbuf_adds(&b, "; backlog ");
		event_fmt_records(&b, bl, false);
	}
	if (m->last_resumed_min_us >= 0) {
		/* how long the moved partitions waited for their new owner's first commit */
		kg_span r = { m->last_resumed_min_us, m->last_resumed_max_us };
		char w[48];
		event_fmt_span(w, sizeof w, r, false);
		sbuf_addf(&b, "; moved partitions consumed again after %s", w);
	}
	cell_text(c, GROUPCOL_NORMAL, "%s", sbuf_str(&b));
	sbuf_free(&b);
}

/* Records processed twice, where a source counts them (the demo's commit scenario). */
static void
reprocessed_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	(void)width;
	if (f->g->commit_policy != NULL && !f->past)
		cell_text(c, GROUPCOL_NORMAL, "%lld record%s (%s)", (long long)f->g->reprocessed,
			  f->g->reprocessed == 1 ? "" : "s", f->g->commit_policy);
}

/* TYPE (report only): what the group is, and which protocol that means. */
static void
type_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	static const char *const what[KG_GTYPE_COUNT] = {
		[KG_GTYPE_CLASSIC] = "classic (JoinGroup/SyncGroup)", [KG_GTYPE_CONSUMER] = "consumer (KIP-848)",
		[KG_GTYPE_SHARE] = "share (KIP-932)",                 [KG_GTYPE_STREAMS] = "streams (KIP-1071)",
	};
	const kg_group *g = f->g;
	(void)width;
	if (g->type != KG_GTYPE_UNKNOWN && g->type < KG_GTYPE_COUNT)
		cell_text(c, GROUPCOL_NORMAL, "%s", what[g->type]);
	else if (g->type_name != NULL)
		cell_text(c, GROUPCOL_NORMAL, "%s (a type kgtop does not know)", g->type_name);
}

/* An epoch and its source in words: "7 (log)", "not known". */
static void
epoch_words(sbuf *b, const kg_epoch *e)
{
	if (e->value < 0)
		sbuf_adds(b, "not known");
	else
		sbuf_addf(b, "%d (%s)", (int)e->value, fact_src_key((kg_fact_src)e->src));
}

/* EPOCHS (report only, a consumer group's): its group and target assignment epochs, each with where it came from. */
static void
epochs_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	const kg_group *g = f->g;
	sbuf b = { 0 };
	(void)width;
	if (g->type != KG_GTYPE_CONSUMER || f->past)
		return;
	sbuf_adds(&b, "group ");
	epoch_words(&b, &g->group_epoch);
	sbuf_adds(&b, ", assignment ");
	epoch_words(&b, &g->assignment_epoch);
	if (g->group_epoch.value < 0 && g->assignment_epoch.value < 0)
		sbuf_adds(&b, " (librdkafka gives none: a coordinator's log or __consumer_offsets does)");
	cell_text(c, GROUPCOL_NORMAL, "%s", sbuf_str(&b));
	sbuf_free(&b);
}

/* RECONCILING (report only): partitions members still must revoke, and await, to reach their targets. */
static void
reconciling_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	const kg_group *g = f->g;
	(void)width;
	if (f->past || (g->nrevoking == 0 && g->nawaiting == 0))
		return;
	cell_text(c, GROUPCOL_REBALANCING, "%d partition%s to revoke, %d awaited", g->nrevoking, g->nrevoking == 1 ? "" : "s",
		  g->nawaiting);
}

/* The note of what a source cannot tell, when there is one. */
static void
note_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	(void)width;
	if (f->g->note != NULL)
		cell_text(c, GROUPCOL_DIM, "%s", f->g->note);
}

/* The describe error, when there is one. */
static void
error_cell(const groupcol_facts *f, int width, groupcol_cell *c)
{
	(void)width;
	if (f->g->error != NULL)
		cell_text(c, GROUPCOL_NORMAL, "%s", f->g->error);
}

/* By name, as people sort them (consumer-2 before consumer-10). */
static int
name_cmp(const kg_group *a, const kg_group *b)
{
	return util_natcmp(a->name, b->name);
}

/*
 * The facts, in the order of the list's columns and of the report's lines
 * (the sort orders in this order too; the first row is no column: the
 * list's names, drawn by the list itself).  The list starts worst first:
 * by verdict, then time lag.  drop: under 80 columns the
 * list gives columns up in this order, 1 first, until the names fit.
 */
const groupcol groupcol_table[] = {
	{ .sort_name = "name", .cmp = name_cmp,
	  .help = "the group's name (as people sort: consumer-2 before consumer-10)" },
	{ .title = "STATE", .width = 6, .align = GROUPCOL_FILL, .label = "state", .sort_name = "state",
	  .cmp = state_cmp, .cell = state_cell,
	  .help = "the group's state (sorts rebalancing first, storms first)" },
	{ .label = "type", .cell = type_cell },
	{ .title = "PROTOCOL", .width = 11, .align = GROUPCOL_LEFT, .drop = 2, .label = "assignor", .cell = proto_cell,
	  .help = "assignor and protocol (eager, cooperative, consumer) or type" },
	{ .title = "COORD", .width = 5, .align = GROUPCOL_RIGHT, .optional = true, .label = "coordinator",
	  .cell = coord_cell, .help = "the broker that coordinates the group (where there is room)" },
	{ .title = "MEMB", .width = 4, .align = GROUPCOL_RIGHT, .drop = 3, .label = "members", .cell = members_cell,
	  .help = "members of the group" },
	{ .title = "PARTS", .width = 5, .align = GROUPCOL_RIGHT, .drop = 1, .label = "partitions", .joins = true,
	  .cell = parts_cell, .help = "partitions the group consumes or has committed offsets for" },
	{ .title = "LAG", .width = 7, .align = GROUPCOL_RIGHT, .sign = true, .drop = 7, .label = "lag", .joins = true,
	  .sort_name = "lag", .cmp = lag_cmp, .cell = lag_cell,
	  .help = "records not yet consumed (log end minus committed offset)" },
	{ .title = "TIME-LAG", .width = 8, .align = GROUPCOL_RIGHT, .drop = 4, .label = "time lag", .joins = true,
	  .sort_name = "time lag", .cmp = tlag_cmp, .cell = tlag_cell,
	  .help = "how old the oldest record waiting is (~ estimated, > at least)" },
	{ .label = "orphaned", .joins = true, .cell = orphaned_cell },
	{ .label = "idle members", .joins = true, .cell = idle_cell },
	{ .title = "VERDICT", .width = 7, .align = GROUPCOL_LEFT, .drop = 8, .label = "progress",
	  .sort_name = "verdict", .cmp = verdict_cmp, .sort_default = true, .cell = verdict_cell,
	  .help = "the worst partition's progress (worst first, then time lag)" },
	{ .title = "REB", .width = 4, .align = GROUPCOL_RIGHT, .drop = 5, .sort_name = "rebalances", .cmp = reb_cmp,
	  .cell = reb_cell, .help = "rebalances in the last hour" },
	{ .title = "FLAGS", .width = 11, .align = GROUPCOL_LEFT, .drop = 6, .cell = flags_cell,
	  .help = "STORM; rebal while a rebalance is open; the data's age when old" },
	{ .label = "epochs", .cell = epochs_cell },
	{ .label = "reconciling", .cell = reconciling_cell },
	{ .label = "last episode", .cell = last_rebalance_cell },
	{ .label = "reprocessed", .cell = reprocessed_cell },
	{ .label = "error", .cell = error_cell },
	{ .label = "note", .cell = note_cell },
};
const int groupcol_count = (int)KG_ARRAY_LEN(groupcol_table);

/* The facts of g now. */
void
groupcol_facts_now(groupcol_facts *f, const kg_snapshot *s, const kg_group *g)
{
	memset(f, 0, sizeof *f);
	f->snap = s;
	f->g = g;
	f->state = g->state;
	f->in_episode = g->sum.in_episode;
	f->nmembers = g->nmembers;
	f->nparts = g->nparts;
	f->lag = g->lag;
	f->rebalances_1h = g->sum.rebalances_1h;
	f->progress = true;
	f->verdict = g->verdict;
	f->tlag_kind = g->tlag_kind;
	f->time_lag_us = g->time_lag_us;
}

/* True when row i is a sort order. */
static bool
is_sort(int i)
{
	return i >= 0 && i < groupcol_count && groupcol_table[i].cmp != NULL;
}

/* The sort order the list starts with. */
int
groupcol_sort_default(void)
{
	int i;
	for (i = 0; i < groupcol_count; i++) {
		if (is_sort(i) && groupcol_table[i].sort_default)
			return i;
	}
	return groupcol_sort_next(-1);
}

/* The sort order after row (wrapping), in the table's order; -1: the first. */
int
groupcol_sort_next(int row)
{
	int k, i;
	for (k = 1; k <= groupcol_count; k++) {
		i = ((row < 0 ? -1 : row) + k) % groupcol_count;
		if (is_sort(i))
			return i;
	}
	return -1;
}

/* The sort order named name ("lag"), -1 when none is. */
int
groupcol_sort_find(const char *name)
{
	int i;
	for (i = 0; name != NULL && i < groupcol_count; i++) {
		if (is_sort(i) && strcmp(groupcol_table[i].sort_name, name) == 0)
			return i;
	}
	return -1;
}

/* A sort order's name. */
const char *
groupcol_sort_name(int row)
{
	return is_sort(row) ? groupcol_table[row].sort_name : "name";
}

/* Compare for a sort order. */
int
groupcol_compare(int row, const kg_group *a, const kg_group *b)
{
	int d = is_sort(row) ? groupcol_table[row].cmp(a, b) : 0;
	return d != 0 ? d : util_natcmp(a->name, b->name);
}

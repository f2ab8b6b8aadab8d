/*
 * report.c: the --once text report and the --json lines.
 */
#include "config.h"

#include "report/report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/intern.h"
#include "record/json.h"
#include "report/groupcol.h"

/*
 * sbuf_adds with the length counted where it is known: most calls here
 * append a key, a literal whose length the compiler knows (a --json line
 * at 10,000 groups is a million of them; strlen was 4 % of the process).
 */
static inline void
sbuf_adds_here(sbuf *b, const char *s)
{
	sbuf_addn(b, s, strlen(s));
}
#define sbuf_adds sbuf_adds_here

/* Letter of member index i in the text grid. */
static char
member_letter(int i)
{
	static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	return i < (int)sizeof letters - 1 ? letters[i] : '*';
}

/*
 * Append text that came from outside (a name, a message): a line break or
 * any other unsafe character in it becomes '?' here, so it cannot start a
 * line of its own; the report's writer (sanitize_lines) keeps everything
 * else of the rule.  Returns the bytes appended.
 */
static size_t
put_text(sbuf *o, const char *s)
{
	size_t from = o->len;
	sbuf_adds(o, s != NULL ? s : "");
	sbuf_sanitize(o, from, false);
	return o->len - from;
}

/*
 * A group's facts, the rows of the group table that have a label, each
 * in its longest form: "  state        Stable", and on one line
 * "  members      4   partitions 6   lag 300".  A fact with nothing to say
 * (no coordinator known, no orphaned partition) is left out.
 */
static void
text_facts(sbuf *o, const kg_group *g, const kg_snapshot *s)
{
	groupcol_facts f;
	groupcol_cell c;
	bool open = false;
	int i;
	groupcol_facts_now(&f, s, g);
	for (i = 0; i < groupcol_count; i++) {
		const groupcol *col = &groupcol_table[i];
		if (col->label == NULL)
			continue;
		memset(&c, 0, sizeof c);
		col->cell(&f, 0, &c);
		if (c.nspans == 0)
			continue;
		if (col->joins && open) {
			sbuf_addf(o, "   %s ", col->label);
			put_text(o, c.span[0].text);
			continue;
		}
		if (open)
			sbuf_addc(o, '\n');
		sbuf_addf(o, "  %-12s ", col->label);
		put_text(o, c.span[0].text);
		open = true;
	}
	if (open)
		sbuf_addc(o, '\n');
}

/* Append s (put_text), then blanks to width columns (a longer s as it is). */
static void
put_left(sbuf *o, const char *s, int width)
{
	size_t n = put_text(o, s);
	if ((int)n < width)
		sbuf_pad(o, ' ', (size_t)width - n);
}

/* The widths of the partition table's columns (at least their titles'). */
typedef struct part_widths {
	int group, topic, part, cur, end, lag, consumer, host, client, tlag;
} part_widths;

/* A member's field of a partition's owner, "-" when it has none. */
static const char *
owner_field(const kg_group *g, const kg_gpart *p, int which)
{
	const kg_member *m;
	if (p->owner < 0 || p->owner >= g->nmembers)
		return "-";
	m = &g->members[p->owner];
	return which == 0 ? m->member_id : which == 1 ? (m->host ? m->host : "-") : (m->client_id ? m->client_id : "-");
}

/* Digits of v, 1 for "-". */
static int
digits(int64_t v)
{
	int n = 1;
	for (; v >= 10; v /= 10)
		n++;
	return n;
}

/* The columns' widths for g's rows. */
static void
part_widths_of(const kg_group *g, int64_t now, part_widths *w, char (*tl)[24])
{
	int i;
	*w = (part_widths){ 5, 5, 9, 14, 14, 3, 11, 4, 9, 8 };
	w->group = KG_MAX(w->group, (int)strlen(g->name));
	for (i = 0; i < g->nparts; i++) {
		const kg_gpart *p = &g->parts[i];
		w->topic = KG_MAX(w->topic, (int)strlen(intern_topic_name(p->tp.topic)));
		w->cur = KG_MAX(w->cur, digits(p->committed));
		w->end = KG_MAX(w->end, digits(p->log_end));
		w->lag = KG_MAX(w->lag, digits(p->lag));
		w->consumer = KG_MAX(w->consumer, (int)strlen(owner_field(g, p, 0)));
		w->host = KG_MAX(w->host, (int)strlen(owner_field(g, p, 1)));
		w->client = KG_MAX(w->client, (int)strlen(owner_field(g, p, 2)));
		groupcol_fmt_tlag(tl[i], sizeof tl[i], kg_gpart_time_lag(p, now), (kg_tlag_kind)p->tlag_kind);
		w->tlag = KG_MAX(w->tlag, (int)strlen(tl[i]));
	}
}

/* Append v left-aligned to width columns ("-" when negative), then a blank. */
static void
put_num(sbuf *o, int64_t v, int width)
{
	char d[24];
	int n = sizeof d;
	if (v < 0) {
		d[--n] = '-';
	} else {
		do {
			d[--n] = (char)('0' + v % 10);
			v /= 10;
		} while (v > 0);
	}
	sbuf_addn(o, d + n, sizeof d - (size_t)n);
	width -= (int)sizeof d - n;
	sbuf_pad(o, ' ', width >= 0 ? (size_t)width + 1 : 0);
}

/*
 * The partition table: kafka-consumer-groups.sh --describe's columns, in
 * its order, "-" where unknown, then TIME-LAG and STATUS (the verdict);
 * written without printf (100,000 rows at 10,000 groups).
 */
static void
text_parts(sbuf *o, const kg_group *g, int64_t now)
{
	part_widths w;
	char (*tl)[24] = xcalloc((size_t)g->nparts + 1, sizeof *tl);
	int i;
	part_widths_of(g, now, &w, tl);
	put_left(o, "GROUP", w.group + 1);
	put_left(o, "TOPIC", w.topic + 1);
	put_left(o, "PARTITION", w.part + 1);
	put_left(o, "CURRENT-OFFSET", w.cur + 1);
	put_left(o, "LOG-END-OFFSET", w.end + 1);
	put_left(o, "LAG", w.lag + 1);
	put_left(o, "CONSUMER-ID", w.consumer + 1);
	put_left(o, "HOST", w.host + 1);
	put_left(o, "CLIENT-ID", w.client + 1);
	put_left(o, "TIME-LAG", w.tlag + 1);
	sbuf_adds(o, "STATUS\n");
	for (i = 0; i < g->nparts; i++) {
		const kg_gpart *p = &g->parts[i];
		put_left(o, g->name, w.group + 1);
		put_left(o, intern_topic_name(p->tp.topic), w.topic + 1);
		put_num(o, p->tp.partition, w.part);
		put_num(o, p->committed, w.cur);
		put_num(o, p->log_end, w.end);
		put_num(o, p->lag, w.lag);
		put_left(o, owner_field(g, p, 0), w.consumer + 1);
		put_left(o, owner_field(g, p, 1), w.host + 1);
		put_left(o, owner_field(g, p, 2), w.client + 1);
		put_left(o, tl[i], w.tlag + 1);
		sbuf_adds(o, verdict_name((kg_verdict)p->verdict));
		sbuf_addc(o, '\n');
	}
	free(tl);
}

/*
 * Why time lags are not known or qualified, one line per reason above the
 * partition table (the table's TIME-LAG says "-"; scripts parse the table,
 * so the words go here): "  time lag     no timestamp: legacy 0, legacy 1".
 */
static void
text_tlag_notes(sbuf *o, const kg_group *g)
{
	int w, i, n, said;
	for (w = KG_TLAG_NO_SAMPLES; w < KG_TLAG_WHY_COUNT; w++) {
		for (n = 0, i = 0; i < g->nparts; i++)
			n += g->parts[i].tlag_why == w;
		if (n == 0)
			continue;
		sbuf_addf(o, "  %-12s %s:", "time lag", tlag_why_text((kg_tlag_why)w));
		for (said = 0, i = 0; i < g->nparts && said < 8; i++) {
			if (g->parts[i].tlag_why != w)
				continue;
			sbuf_adds(o, said++ ? ", " : " ");
			put_text(o, intern_topic_name(g->parts[i].tp.topic));
			sbuf_addf(o, " %d", (int)g->parts[i].tp.partition);
		}
		if (n > said)
			sbuf_addf(o, " and %d more", n - said);
		sbuf_addc(o, '\n');
	}
}

/* The members of the group being sorted (qsort has no context: the report runs on one thread at a time). */
static const kg_group *sort_group;

/* Members as people sort them: by client id (consumer-2 before consumer-10), then member id. */
static int
member_natcmp(const void *a, const void *b)
{
	const kg_member *x = &sort_group->members[*(const int *)a], *y = &sort_group->members[*(const int *)b];
	int c = util_natcmp(x->client_id, y->client_id);
	return c != 0 ? c : util_natcmp(x->member_id, y->member_id);
}

/* Groups as people sort names. */
static int
group_natcmp(const void *a, const void *b)
{
	return util_natcmp((*(const kg_group *const *)a)->name, (*(const kg_group *const *)b)->name);
}

/*
 * A consumer group's member's columns after #PARTITIONS: its epoch and
 * state where a source gave them, its target, what it still must revoke
 * or awaits ("-" where not known).
 */
static void
text_member_kip(sbuf *o, const kg_group *g, const kg_member *m)
{
	bool sf = group_single_topic(g);
	if (m->epoch.value >= 0)
		sbuf_addf(o, "  %-6d", (int)m->epoch.value);
	else
		sbuf_addf(o, "  %-6s", "-");
	sbuf_addf(o, "%-20s", m->mstate != KG_MSTATE_UNKNOWN ? mstate_text((kg_mstate)m->mstate)
			  : m->mtype == KG_MTYPE_CLASSIC			 ? "classic member"
										 : "-");
	if (m->ntarget < 0) {
		sbuf_adds(o, "-");
		return;
	}
	tp_format(o, m->target, m->ntarget, sf);
	if (m->nrevoking > 0) {
		sbuf_adds(o, " revoking ");
		tp_format(o, m->revoking, m->nrevoking, sf);
	}
	if (m->nawaiting > 0) {
		sbuf_adds(o, " awaiting ");
		tp_format(o, m->awaiting, m->nawaiting, sf);
	}
}

/* One group in the text report: members in natural order, lettered in that order. */
static void
text_group(sbuf *o, const kg_group *g, const kg_snapshot *s)
{
	int i, *order = xcalloc((size_t)g->nmembers + 1, sizeof *order), *rank = xcalloc((size_t)g->nmembers + 1, sizeof *rank);
	for (i = 0; i < g->nmembers; i++)
		order[i] = i;
	sort_group = g;
	qsort(order, (size_t)g->nmembers, sizeof *order, member_natcmp);
	for (i = 0; i < g->nmembers; i++)
		rank[order[i]] = i;
	sbuf_adds(o, "GROUP ");
	put_text(o, g->name);
	sbuf_addc(o, '\n');
	text_facts(o, g, s);
	text_tlag_notes(o, g);
	if (g->nmembers > 0) {
		int wid = 9, wc = 9, wh = 4, wi = 11;
		for (i = 0; i < g->nmembers; i++) {
			const kg_member *m = &g->members[i];
			wid = KG_MAX(wid, (int)strlen(m->member_id));
			wc = KG_MAX(wc, (int)strlen(m->client_id));
			wh = KG_MAX(wh, (int)strlen(m->host));
			wi = KG_MAX(wi, m->instance_id ? (int)strlen(m->instance_id) : 1);
		}
		bool kip = g->type == KG_GTYPE_CONSUMER;
		sbuf_addf(o, "\n  %-3s %-*s  %-*s  %-*s  %-*s  %s%s\n", "", wid, "MEMBER-ID", wc, "CLIENT-ID", wh, "HOST", wi,
			  "INSTANCE-ID", kip ? "#PARTITIONS  EPOCH STATE               TARGET" : "#PARTITIONS", "");
		for (i = 0; i < g->nmembers; i++) {
			const kg_member *m = &g->members[order[i]];
			sbuf_addf(o, "  %c   ", member_letter(i));
			put_left(o, m->member_id, wid + 2);
			put_left(o, m->client_id, wc + 2);
			put_left(o, m->host, wh + 2);
			put_left(o, m->instance_id ? m->instance_id : "-", wi + 2);
			if (kip) {
				sbuf_addf(o, "%-11d", m->nassigned);
				text_member_kip(o, g, m);
				sbuf_addc(o, '\n');
			} else {
				sbuf_addf(o, "%d\n", m->nassigned);
			}
		}
	}
	if (g->nparts > 0) {
		sbuf_addc(o, '\n');
		text_parts(o, g, s != NULL ? s->time_us : 0);
	}
	sbuf_addc(o, '\n');
	free(order);
	free(rank);
}

/*
 * Make a report safe for a terminal: names come from the cluster, so
 * control characters (escape sequences) and invalid UTF-8 in them become
 * '?' (the report's own line breaks stay).  The one guard of the text
 * report: every piece goes through it just before it is written.
 */
static void
sanitize_lines(sbuf *o, size_t from)
{
	sbuf_sanitize(o, from, true);
}

/* The --once report, in pieces of about KG_REPORT_PIECE bytes when flush is given. */
bool
report_text_each(sbuf *o, const kg_snapshot *s, bool (*flush)(sbuf *out, void *ctx), void *ctx)
{
	int i;
	size_t from = o->len;
	char when[64];
	time_t t = (time_t)(s->time_us / 1000000);
	struct tm tm;
	const kg_group **gs;
	bool ok = true;
	localtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %Z", &tm);
	sbuf_addf(o, "kgtop %s: ", PACKAGE_VERSION);
	put_text(o, s->cluster);
	sbuf_addf(o, " at %s, %d group%s\n", when, s->ngroups, s->ngroups == 1 ? "" : "s");
	for (i = 0; i < s->nsources; i++) {
		const kg_source_health *h = &s->sources[i];
		sbuf_adds(o, "source ");
		put_text(o, h->name);
		sbuf_addf(o, ": %s%s", src_status_name(h->status), h->message ? ": " : "");
		put_text(o, h->message);
		sbuf_addc(o, '\n');
	}
	sbuf_addc(o, '\n');
	/* groups as people sort names (the snapshot's order is strcmp's, for its lookups) */
	gs = xcalloc((size_t)s->ngroups + 1, sizeof *gs);
	for (i = 0; i < s->ngroups; i++)
		gs[i] = &s->groups[i];
	qsort(gs, (size_t)s->ngroups, sizeof *gs, group_natcmp);
	for (i = 0; i < s->ngroups && ok; i++) {
		text_group(o, gs[i], s);
		if (flush != NULL && o->len - from > KG_REPORT_PIECE) {
			sanitize_lines(o, from);
			ok = flush(o, ctx);
			from = o->len;
		}
	}
	free(gs);
	sanitize_lines(o, from);
	return ok;
}

/* The --once report. */
void
report_text(sbuf *o, const kg_snapshot *s)
{
	report_text_each(o, s, NULL, NULL);
}

/* An int64 or null when negative. */
static void
jnum(sbuf *o, int64_t v)
{
	if (v < 0)
		sbuf_adds(o, "null");
	else
		sbuf_addi(o, v);
}

/* true or false. */
static void
jbool(sbuf *o, bool v)
{
	sbuf_adds(o, v ? "true" : "false");
}

/* ,"key":"name" for a name that needs no escaping (enum names). */
static void
jname(sbuf *o, const char *key_colon, const char *name)
{
	sbuf_adds(o, key_colon);
	sbuf_addc(o, '"');
	sbuf_adds(o, name);
	sbuf_addc(o, '"');
}

/* "key":{"value":N,"source":"log"} or null: an epoch and where it came from. */
static void
json_epoch(sbuf *o, const char *key, const kg_epoch *e)
{
	sbuf_adds(o, ",\"");
	sbuf_adds(o, key);
	sbuf_adds(o, "\":");
	if (e->value < 0) {
		sbuf_adds(o, "null");
		return;
	}
	sbuf_adds(o, "{\"value\":");
	sbuf_addi(o, e->value);
	jname(o, ",\"source\":", fact_src_key((kg_fact_src)e->src));
	sbuf_addc(o, '}');
}

/* A KIP-848 member (version 3): its target and what separates it from it, its epoch, state, type; unknowns null. */
static void
json_member_kip(sbuf *o, const kg_member *m)
{
	if (m->ntarget < 0 && m->epoch.value < 0 && m->mstate == KG_MSTATE_UNKNOWN && m->mtype == KG_MTYPE_UNKNOWN)
		return; /* a classic group's member: nothing of this */
	sbuf_adds(o, ",\"target\":");
	if (m->ntarget >= 0)
		json_put_list(o, m->target, m->ntarget);
	else
		sbuf_adds(o, "null");
	sbuf_adds(o, ",\"revoking\":");
	json_put_list(o, m->revoking, m->nrevoking);
	sbuf_adds(o, ",\"awaiting\":");
	json_put_list(o, m->awaiting, m->nawaiting);
	json_epoch(o, "epoch", &m->epoch);
	sbuf_adds(o, ",\"previous_epoch\":");
	jnum(o, m->prev_epoch);
	sbuf_adds(o, ",\"member_state\":");
	if (m->mstate != KG_MSTATE_UNKNOWN)
		jname(o, "", mstate_key((kg_mstate)m->mstate));
	else
		sbuf_adds(o, "null");
	sbuf_adds(o, ",\"member_type\":");
	if (m->mtype != KG_MTYPE_UNKNOWN)
		jname(o, "", mtype_key((kg_mtype)m->mtype));
	else
		sbuf_adds(o, "null");
}

/* One member. */
static void
json_member(sbuf *o, const kg_member *m)
{
	const kg_member_health *h = &m->health;
	sbuf_adds(o, "{\"member_id\":");
	json_put_str(o, m->member_id);
	sbuf_adds(o, ",\"client_id\":");
	json_put_str(o, m->client_id);
	sbuf_adds(o, ",\"host\":");
	json_put_str(o, m->host);
	sbuf_adds(o, ",\"instance_id\":");
	json_put_str(o, m->instance_id);
	sbuf_adds(o, ",\"assignment\":");
	json_put_list(o, m->assignment, m->nassigned);
	json_member_kip(o, m);
	jname(o, ",\"status\":", member_status_name(m->status));
	sbuf_adds(o, ",\"lane\":");
	sbuf_addi(o, m->lane);
	sbuf_adds(o, ",\"exact\":");
	jbool(o, (m->flags & KG_MEMBER_EXACT) != 0);
	sbuf_adds(o, ",\"health\":{\"heartbeat_age_ms\":");
	jnum(o, h->hb_age_us >= 0 ? h->hb_age_us / 1000 : -1);
	sbuf_adds(o, ",\"session_timeout_ms\":");
	sbuf_addi(o, h->session_timeout_us / 1000);
	jname(o, ",\"session_timeout_from\":", limit_src_name(h->session_src));
	sbuf_adds(o, ",\"poll_gap_ms\":");
	jnum(o, h->poll_gap_us >= 0 ? h->poll_gap_us / 1000 : -1);
	sbuf_adds(o, ",\"poll_gap_max_ms\":");
	jnum(o, h->poll_gap_max_us >= 0 ? h->poll_gap_max_us / 1000 : -1);
	sbuf_adds(o, ",\"max_poll_interval_ms\":");
	sbuf_addi(o, h->max_poll_us / 1000);
	jname(o, ",\"max_poll_interval_from\":", limit_src_name(h->max_poll_src));
	sbuf_addc(o, '}');
	if (m->last_leave != KG_REASON_NONE)
		jname(o, ",\"last_leave\":", reason_key(m->last_leave));
	if (m->verdict != KG_VERDICT_NONE)
		jname(o, ",\"verdict\":", verdict_name((kg_verdict)m->verdict));
	if (m->status == KG_MEMBER_SILENT && m->silent_since_us > 0) {
		sbuf_adds(o, ",\"silent_since\":");
		json_put_time(o, m->silent_since_us);
		sbuf_adds(o, ",\"silent_why\":");
		json_put_str(o, m->silent_why);
	}
	sbuf_addc(o, '}');
}

/* The last closed rebalance of a group: duration within bounds (duration_ms only when measured), rounds, cost. */
static void
json_last_rebalance(sbuf *o, const kg_group_summary *m)
{
	int64_t lo = m->last_episode_min_us, hi = m->last_episode_max_us;
	if (m->last_episode_us < 0)
		return;
	if (lo < 0)
		lo = hi = m->last_episode_us;
	sbuf_adds(o, ",\"last_rebalance\":{");
	if (lo == hi) {
		sbuf_adds(o, "\"duration_ms\":");
		json_put_ms(o, lo);
		sbuf_addc(o, ',');
	}
	sbuf_adds(o, "\"duration_min_ms\":");
	json_put_ms(o, lo);
	sbuf_adds(o, ",\"duration_max_ms\":");
	json_put_ms(o, hi);
	sbuf_adds(o, ",\"rounds\":");
	sbuf_addi(o, m->last_rounds);
	sbuf_adds(o, ",\"rounds_at_least\":");
	jbool(o, m->last_rounds_min);
	sbuf_adds(o, ",\"members_stopped\":");
	sbuf_addi(o, m->last_nstopped);
	sbuf_adds(o, ",\"stopped_member_ms_min\":");
	json_put_ms(o, m->last_stopped_min_us);
	sbuf_adds(o, ",\"stopped_member_ms_max\":");
	json_put_ms(o, m->last_stopped_max_us);
	sbuf_adds(o, ",\"partitions_unconsumed\":");
	sbuf_addi(o, m->last_nunconsumed);
	sbuf_adds(o, ",\"unconsumed_partition_ms_min\":");
	json_put_ms(o, m->last_unconsumed_min_us);
	sbuf_adds(o, ",\"unconsumed_partition_ms_max\":");
	json_put_ms(o, m->last_unconsumed_max_us);
	sbuf_adds(o, ",\"lag_added\":");
	sbuf_addi(o, m->last_lag_added);
	sbuf_adds(o, ",\"backlog_min\":");
	sbuf_addi(o, m->last_backlog_min);
	sbuf_adds(o, ",\"backlog_max\":");
	jnum(o, m->last_backlog_max);
	if (m->last_resumed_min_us >= 0) {
		sbuf_adds(o, ",\"moved_resumed_ms_min\":");
		json_put_ms(o, m->last_resumed_min_us);
		sbuf_adds(o, ",\"moved_resumed_ms_max\":");
		json_put_ms(o, m->last_resumed_max_us);
	}
	sbuf_addc(o, '}');
}

/* A time or null when not known (0). */
static void
jtime(sbuf *o, int64_t us)
{
	if (us > 0)
		json_put_time(o, us);
	else
		sbuf_adds(o, "null");
}

/* A verdict's name ("PENDING": not judged yet), or null when there is nothing to judge. */
static void
jverdict(sbuf *o, uint8_t v)
{
	if (v == KG_VERDICT_NONE)
		sbuf_adds(o, "null");
	else
		jname(o, "", verdict_name((kg_verdict)v));
}

/*
 * ,"verdict_since":T|null,"verdict_since_min":T|null,"verdict_since_max":T|null,"verdict_since_kind":"...":
 * since when the verdict holds, within bounds (min null: not known how long before max; verdict_since is max).
 */
static void
jsince(sbuf *o, int64_t lo, int64_t hi, uint8_t kind)
{
	sbuf_adds(o, ",\"verdict_since\":");
	jtime(o, hi);
	sbuf_adds(o, ",\"verdict_since_min\":");
	jtime(o, kind != KG_SINCE_BEFORE ? lo : 0);
	sbuf_adds(o, ",\"verdict_since_max\":");
	jtime(o, hi);
	jname(o, ",\"verdict_since_kind\":", since_kind_key((kg_since_kind)kind));
}

/*
 * ,"time_lag_ms":N|null,"time_lag_from_us":T|null,"time_lag_kind":"..."
 * An age that grows with the clock is written as of line_us (the line's
 * time) from its origin, so a group printed for another line's time
 * prints that line's age; a reader of deltas ages it the same way.
 */
static void
jtlag(sbuf *o, uint8_t kind, int64_t us, int64_t from_us, int64_t line_us)
{
	sbuf_adds(o, ",\"time_lag_ms\":");
	if (kind == KG_TLAG_NONE)
		sbuf_adds(o, "null");
	else
		json_put_ms(o, from_us > 0 && line_us > 0 ? KG_MAX(line_us - from_us, 0) : us);
	sbuf_adds(o, ",\"time_lag_from_us\":");
	if (kind != KG_TLAG_NONE && from_us > 0)
		sbuf_addi(o, from_us);
	else
		sbuf_adds(o, "null");
	jname(o, ",\"time_lag_kind\":", tlag_kind_key((kg_tlag_kind)kind));
}

/* A partition's progress: log start, time lag (how known, or why not), verdict, its last move, rates, records lost. */
static void
json_part_progress(sbuf *o, const kg_gpart *p, int64_t line_us)
{
	int k;
	sbuf_adds(o, ",\"log_start\":");
	jnum(o, p->log_start);
	jtlag(o, p->tlag_kind, p->time_lag_us, p->time_lag_from_us, line_us);
	if (p->tlag_why != KG_TLAG_WHY_NONE)
		jname(o, ",\"time_lag_reason\":", tlag_why_key((kg_tlag_why)p->tlag_why));
	sbuf_adds(o, ",\"verdict\":");
	jverdict(o, p->verdict);
	jsince(o, p->verdict_since_lo_us, p->verdict_since_us, p->since_kind);
	if (p->frozen_us > 0) {
		sbuf_adds(o, ",\"frozen_since_max\":");
		json_put_time(o, p->frozen_us);
	}
	if (p->commit_gap_us > 0) {
		sbuf_adds(o, ",\"commit_gap_ms\":");
		json_put_ms(o, p->commit_gap_us);
	}
	sbuf_adds(o, ",\"committed_moved\":");
	jtime(o, p->moved_us);
	sbuf_adds(o, ",\"committed_moved_after\":");
	jtime(o, p->moved_lo_us);
	sbuf_adds(o, ",\"consume_rate\":");
	json_put_2f(o, p->consume_rate);
	sbuf_adds(o, ",\"produce_rate\":");
	json_put_2f(o, p->produce_rate);
	sbuf_adds(o, ",\"lost\":");
	sbuf_addi(o, p->lost);
	sbuf_adds(o, ",\"lag_spark\":[");
	for (k = 0; k < KG_SPARK; k++) {
		if (k)
			sbuf_addc(o, ',');
		sbuf_addi(o, p->spark[k]);
	}
	sbuf_addc(o, ']');
}

/* A group's progress: the worst verdict and since when, the oldest time lag, records lost, partitions per verdict. */
static void
json_group_progress(sbuf *o, const kg_group *g, int64_t line_us)
{
	int v;
	sbuf_adds(o, ",\"verdict\":");
	jverdict(o, g->verdict);
	jsince(o, g->verdict_since_lo_us, g->verdict_since_us, g->since_kind);
	jtlag(o, g->tlag_kind, g->time_lag_us, g->time_lag_from_us, line_us);
	sbuf_adds(o, ",\"lost\":");
	sbuf_addi(o, g->lost);
	sbuf_adds(o, ",\"verdicts\":{");
	for (v = KG_VERDICT_OK; v < KG_VERDICT_COUNT; v++) {
		if (v > KG_VERDICT_OK)
			sbuf_addc(o, ',');
		jname(o, "", verdict_name((kg_verdict)v));
		sbuf_addc(o, ':');
		sbuf_addi(o, g->nverdict[v]);
	}
	sbuf_adds(o, ",\"none\":");
	sbuf_addi(o, g->nverdict[KG_VERDICT_NONE]);
	sbuf_addc(o, '}');
}

/*
 * What version 3 added to a group: its type (as its source named one kgtop
 * does not know), the state as named when "state" says Unknown, what its
 * source cannot tell, a consumer group's epochs and reconciliation.
 */
static void
json_group_kip(sbuf *o, const kg_group *g)
{
	sbuf_adds(o, ",\"type\":");
	json_put_str(o, *group_type_text(g) ? group_type_text(g) : NULL);
	if (g->state == KG_STATE_UNKNOWN && g->state_name != NULL) {
		sbuf_adds(o, ",\"state_name\":");
		json_put_str(o, g->state_name);
	}
	if (g->note != NULL) {
		sbuf_adds(o, ",\"note\":");
		json_put_str(o, g->note);
		sbuf_adds(o, ",\"members_unknown\":");
		jbool(o, g->members_unknown);
	}
	if (g->type != KG_GTYPE_CONSUMER)
		return;
	json_epoch(o, "group_epoch", &g->group_epoch);
	json_epoch(o, "assignment_epoch", &g->assignment_epoch);
	sbuf_adds(o, ",\"partitions_revoking\":");
	sbuf_addi(o, g->nrevoking);
	sbuf_adds(o, ",\"partitions_awaited\":");
	sbuf_addi(o, g->nawaiting);
}

/* One partition of a group. */
static void
json_part(sbuf *o, const kg_group *g, const kg_gpart *p, int64_t line_us)
{
	sbuf_adds(o, "{\"topic\":");
	json_put_str(o, intern_topic_name(p->tp.topic));
	sbuf_adds(o, ",\"partition\":");
	sbuf_addi(o, p->tp.partition);
	sbuf_adds(o, ",\"committed\":");
	jnum(o, p->committed);
	sbuf_adds(o, ",\"log_end\":");
	jnum(o, p->log_end);
	sbuf_adds(o, ",\"lag\":");
	jnum(o, p->lag);
	sbuf_adds(o, ",\"owner\":");
	json_put_str(o, p->owner >= 0 ? g->members[p->owner].member_id : NULL);
	if (g->type == KG_GTYPE_CONSUMER) {
		sbuf_adds(o, ",\"target_owner\":");
		json_put_str(o, p->target_owner >= 0 ? g->members[p->target_owner].member_id : NULL);
	}
	sbuf_adds(o, ",\"orphaned\":");
	jbool(o, p->orphaned);
	sbuf_adds(o, ",\"in_flight\":");
	jbool(o, p->in_flight);
	json_part_progress(o, p, line_us);
	sbuf_addc(o, '}');
}

/* One partition of a group (json_delta.c). */
void
report_json_part(sbuf *o, const kg_group *g, const kg_gpart *p, int64_t line_us)
{
	json_part(o, g, p, line_us);
}

/* One group, its ages as of line_us (the line's time); its "partitions" when parts. */
static void
json_group(sbuf *o, const kg_group *g, const kg_snapshot *s, int64_t line_us, bool parts)
{
	int i, nflight;
	sbuf_adds(o, "{\"id\":");
	json_put_str(o, g->name);
	if (g->data_time_us > 0) {
		sbuf_adds(o, ",\"data_time\":");
		json_put_time(o, g->data_time_us);
	}
	if (g->offs_time_us > 0 && g->offs_time_us != g->data_time_us) {
		sbuf_adds(o, ",\"offsets_time\":");
		json_put_time(o, g->offs_time_us);
	}
	jname(o, ",\"state\":", state_name(g->state));
	sbuf_adds(o, ",\"protocol_type\":");
	json_put_str(o, g->protocol_type);
	json_group_kip(o, g);
	sbuf_adds(o, ",\"assignor\":");
	json_put_str(o, g->assignor);
	jname(o, ",\"protocol\":", proto_name(g->proto));
	sbuf_adds(o, ",\"coordinator\":");
	jnum(o, g->coordinator);
	sbuf_adds(o, ",\"offsets_partition\":");
	jnum(o, group_offsets_partition(g->name, s->offsets_partitions));
	if (g->error) {
		sbuf_adds(o, ",\"error\":");
		json_put_str(o, g->error);
	}
	sbuf_adds(o, ",\"members\":[");
	for (i = 0; i < g->nmembers; i++) {
		if (i)
			sbuf_addc(o, ',');
		json_member(o, &g->members[i]);
	}
	sbuf_addc(o, ']');
	if (parts) {
		sbuf_adds(o, ",\"partitions\":[");
		for (i = 0; i < g->nparts; i++) {
			if (i)
				sbuf_addc(o, ',');
			json_part(o, g, &g->parts[i], line_us);
		}
		sbuf_addc(o, ']');
	}
	sbuf_adds(o, ",\"lag\":");
	jnum(o, g->lag);
	for (i = 0, nflight = 0; i < g->nparts; i++)
		nflight += g->parts[i].in_flight;
	sbuf_adds(o, ",\"orphaned\":");
	sbuf_addi(o, g->norphaned);
	sbuf_adds(o, ",\"in_flight\":");
	sbuf_addi(o, nflight);
	sbuf_adds(o, ",\"idle_members\":");
	sbuf_addi(o, g->nidle);
	sbuf_adds(o, ",\"rebalances_1h\":");
	sbuf_addi(o, g->sum.rebalances_1h);
	sbuf_adds(o, ",\"storm\":");
	jbool(o, g->sum.storm);
	sbuf_adds(o, ",\"in_rebalance\":");
	jbool(o, g->sum.in_episode);
	if (g->sum.generation >= 0) {
		sbuf_adds(o, ",\"generation\":");
		sbuf_addi(o, g->sum.generation);
	}
	json_group_progress(o, g, line_us);
	json_last_rebalance(o, &g->sum);
	if (g->commit_policy != NULL) {
		sbuf_adds(o, ",\"reprocessed\":");
		sbuf_addi(o, g->reprocessed);
		sbuf_adds(o, ",\"commit_policy\":");
		json_put_str(o, g->commit_policy);
	}
	sbuf_addc(o, '}');
}

/* One group, its ages as of line_us (the line's time). */
void
report_json_group(sbuf *o, const kg_group *g, const kg_snapshot *s, int64_t line_us)
{
	json_group(o, g, s, line_us, true);
}

/* One group without its partitions. */
void
report_json_group_head(sbuf *o, const kg_group *g, const kg_snapshot *s, int64_t line_us)
{
	json_group(o, g, s, line_us, false);
}

/* A JSON line's fields up to the groups' array, opened ("groups":[). */
void
report_json_head(sbuf *o, const kg_snapshot *s, bool stale, bool keyframe)
{
	int i;
	sbuf_adds(o, "{\"version\":");
	sbuf_addi(o, KG_JSON_VERSION);
	sbuf_adds(o, ",\"keyframe\":");
	jbool(o, keyframe);
	sbuf_adds(o, ",\"time\":");
	json_put_time(o, s->time_us);
	sbuf_adds(o, ",\"time_us\":");
	sbuf_addi(o, s->time_us);
	if (s->refresh > 0) {
		/* which of the cluster's refreshes this line carries, and when its newest data was asked */
		sbuf_adds(o, ",\"refresh\":");
		sbuf_addi(o, (long long)s->refresh);
		sbuf_adds(o, ",\"data_time\":");
		jtime(o, s->data_time_us);
	}
	if (stale)
		sbuf_adds(o, ",\"stale\":true");
	sbuf_adds(o, ",\"cluster\":");
	json_put_str(o, s->cluster);
	sbuf_adds(o, ",\"source\":{");
	for (i = 0; i < s->nsources; i++) {
		const kg_source_health *h = &s->sources[i];
		if (i)
			sbuf_addc(o, ',');
		json_put_str(o, h->name);
		jname(o, ":{\"status\":", src_status_name(h->status));
		sbuf_adds(o, ",\"since\":");
		jtime(o, h->since_us);
		sbuf_adds(o, ",\"message\":");
		json_put_str(o, h->message);
		if (h->insecure)
			sbuf_adds(o, ",\"insecure\":true");
		sbuf_addc(o, '}');
	}
	sbuf_adds(o, "},\"groups\":[");
}

/* The content of the JSON string s writes (its quotes left out) into o. */
static void
put_str_inner(sbuf *o, const char *s)
{
	size_t at = o->len;
	json_put_str(o, s);
	memmove(o->s + at, o->s + at + 1, o->len - at - 2);
	o->len -= 2;
	o->s[o->len] = '\0';
}

/*
 * Event e as json_put_event writes it, its "message" split around its
 * "text" (schema 8): "message_head", the text's place, "message_tail"
 * (left out when empty), the message being head + text + tail.  At
 * 10,000 groups a line's 310 verdict events were a fifth of it, their
 * messages their partitions and verdict again and then the text again.
 * Split only where the three pieces escape as the whole message did (a
 * name's invalid UTF-8 across a piece's end would not); m, t: buffers.
 */
static void
put_event_split(sbuf *o, const kg_event *e, int64_t t0_us, sbuf *m, sbuf *t)
{
	static const char key[] = ",\"message\":\"";
	size_t at = o->len, k, head, tlen;
	const char *in;
	char c;
	json_put_event(o, e, t0_us, JSON_PARTS_SET);
	if (e->text == NULL || *e->text == '\0')
		return;
	sbuf_reset(m);
	event_format(e, m);
	in = strstr(sbuf_str(m), e->text);
	if (in == NULL)
		return;
	/* the message is the event's last field; no string's content holds an unescaped quote */
	for (k = o->len - 1; k > at && memcmp(o->s + k, key, sizeof key - 1) != 0; k--)
		;
	if (k == at)
		return;
	head = (size_t)(in - m->s);
	tlen = strlen(e->text);
	c = *in;
	sbuf_reset(t);
	m->s[head] = '\0';
	put_str_inner(t, m->s);
	m->s[head] = c;
	put_str_inner(t, e->text);
	put_str_inner(t, in + tlen);
	/* the whole message: from past its opening quote to before the closing quote and brace */
	if (t->len != o->len - k - (sizeof key - 1) - 2 || memcmp(t->s, o->s + k + sizeof key - 1, t->len) != 0)
		return;
	o->len = k;
	sbuf_adds(o, ",\"message_head\":");
	m->s[head] = '\0';
	json_put_str(o, m->s);
	m->s[head] = c;
	if (in[tlen] != '\0') {
		sbuf_adds(o, ",\"message_tail\":");
		json_put_str(o, in + tlen);
	}
	sbuf_addc(o, '}');
}

/* The rest of a JSON line after the groups (a delta's "gone" included): the events, closed. */
void
report_json_tail(sbuf *o, kg_event *const *events, size_t nevents, int64_t t0_us, bool split)
{
	sbuf m = { 0 }, t = { 0 };
	size_t k;
	sbuf_adds(o, "],\"events\":[");
	for (k = 0; k < nevents; k++) {
		if (k)
			sbuf_addc(o, ',');
		if (split)
			put_event_split(o, events[k], t0_us, &m, &t);
		else
			json_put_event(o, events[k], t0_us, JSON_PARTS_SET);
	}
	sbuf_adds(o, "]}");
	sbuf_free(&m);
	sbuf_free(&t);
}

/*
 * One JSON object with every group (--once --json), handed to flush in
 * pieces of about KG_REPORT_PIECE as it is written (NULL: all in o), so
 * that it need not be held whole (115 MB at 10,000 groups x 20
 * partitions, and twice that while the buffer grew); false when flush
 * failed (it stops there).
 */
bool
report_json_each(sbuf *o, const kg_snapshot *s, kg_event *const *events, size_t nevents, int64_t t0_us,
		 bool (*flush)(sbuf *out, void *ctx), void *ctx)
{
	int i;
	size_t from = o->len;
	report_json_head(o, s, false, true);
	for (i = 0; i < s->ngroups; i++) {
		if (i)
			sbuf_addc(o, ',');
		report_json_group(o, &s->groups[i], s, s->time_us);
		if (flush != NULL && o->len - from > KG_REPORT_PIECE) {
			if (!flush(o, ctx))
				return false;
			from = o->len;
		}
	}
	report_json_tail(o, events, nevents, t0_us, false);
	return true;
}

/* One JSON object with every group (--once --json). */
void
report_json(sbuf *o, const kg_snapshot *s, kg_event *const *events, size_t nevents, int64_t t0_us)
{
	report_json_each(o, s, events, nevents, t0_us, NULL, NULL);
}

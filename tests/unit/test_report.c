/*
 * test_report.c: the group table (report/groupcol.h) and the --once text
 * report's facts, which come from it.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "model/snapshot.h"
#include "model/defaults.h"
#include "report/groupcol.h"
#include "report/report.h"
#include "two_groups.h"
#include "util/util.h"

/* The shared two groups (two_groups.h), finished. */
static kg_snapshot *
two_groups(void)
{
	return builder_finish(two_groups_builder(1000));
}

/* The text of one group's block in the report, up to the blank line after its facts. */
static char *
group_block(const char *report, const char *name)
{
	char head[128];
	const char *p, *end;
	snprintf(head, sizeof head, "GROUP %s\n", name);
	p = strstr(report, head);
	if (p == NULL)
		return xstrdup("");
	end = strstr(p, "\n\n");
	return xstrndup(p, end != NULL ? (size_t)(end - p) + 1 : strlen(p));
}

/*
 * The report's facts are the table's labelled rows, in their longest
 * forms, left out when they say nothing; the coordinator (COORD) always
 * says something: "-" when it is not known.
 */
static void
test_text_facts(void **state)
{
	kg_snapshot *s = two_groups();
	sbuf o = { 0 };
	char *busy, *lost;
	(void)state;
	report_text(&o, s);
	busy = group_block(sbuf_str(&o), "g-busy");
	lost = group_block(sbuf_str(&o), "g-lost");
	assert_string_equal(busy, "GROUP g-busy\n"
				  "  state        Stable\n"
				  "  assignor     range (eager)\n"
				  "  coordinator  2 (broker-2:9092), __consumer_offsets partition unknown\n"
				  "  members      2   partitions 4   lag 70   orphaned 2   idle members 1\n");
	assert_string_equal(lost, "GROUP g-lost\n"
				  "  state        PreparingRebalance\n"
				  "  assignor     - (cooperative)\n"
				  "  coordinator  -\n"
				  "  members      0   partitions 0   lag -\n"
				  "  error        coordinator load in progress\n");
	/* kafka-consumer-groups.sh's columns in its order, "-" where unknown, then TIME-LAG and STATUS */
	assert_non_null(strstr(sbuf_str(&o), "\nGROUP  TOPIC  PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST      "
					     "CLIENT-ID TIME-LAG STATUS\n"));
	assert_non_null(strstr(sbuf_str(&o), "\ng-busy orders 0         90             100            10  a-1         /10.0.0.1 a         -        -\n"));
	assert_non_null(strstr(sbuf_str(&o), "\ng-busy orders 3         -              100            -   -           -         -         -        -\n"));
	free(busy);
	free(lost);
	sbuf_free(&o);
	snapshot_unref(s);
}

/*
 * Progress in the --once table: TIME-LAG exact, "~" estimated, ">" a lower
 * bound, "-" not known (the reason above the table, one line per reason),
 * STATUS the verdict.
 */
static void
test_text_progress(void **state)
{
	kg_snapshot *s = two_groups();
	kg_group *g = &s->groups[0];
	sbuf o = { 0 };
	char *busy;
	(void)state;
	g->parts[0].verdict = KG_VERDICT_OK;
	g->parts[0].tlag_kind = KG_TLAG_ESTIMATE;
	g->parts[0].time_lag_us = 1500000;
	g->parts[1].verdict = KG_VERDICT_STALLED;
	g->parts[1].tlag_kind = KG_TLAG_EXACT;
	g->parts[1].time_lag_us = 95000000;
	g->parts[2].verdict = KG_VERDICT_LOST;
	g->parts[2].tlag_why = KG_TLAG_DELETED;
	g->parts[3].tlag_kind = KG_TLAG_ATLEAST;
	g->parts[3].time_lag_us = 300000000;
	report_text(&o, s);
	busy = group_block(sbuf_str(&o), "g-busy");
	assert_non_null(strstr(busy, "\n  time lag     record deleted: orders 2\n"));
	assert_null(strstr(busy, "no timestamp"));
	assert_non_null(strstr(sbuf_str(&o), "\ng-busy orders 0         90             100            10  a-1         /10.0.0.1 a         ~1.5s    OK\n"));
	assert_non_null(strstr(sbuf_str(&o), " 1m35s    STALLED\n"));
	assert_non_null(strstr(sbuf_str(&o), "\ng-busy orders 2 "));
	assert_non_null(strstr(sbuf_str(&o), " -        LOST\n"));
	assert_non_null(strstr(sbuf_str(&o), " >5m00s   -\n"));
	free(busy);
	sbuf_free(&o);
	snapshot_unref(s);
}

/* The row of the table titled title, NULL when none. */
static const groupcol *
column(const char *title)
{
	int i;
	for (i = 0; i < groupcol_count; i++) {
		if (groupcol_table[i].title != NULL && strcmp(groupcol_table[i].title, title) == 0)
			return &groupcol_table[i];
	}
	return NULL;
}

/* The text of a cell of g's row for a width. */
static const char *
cell_of(const char *title, const kg_snapshot *s, const char *group, int width, groupcol_cell *c)
{
	groupcol_facts f;
	const groupcol *col = column(title);
	assert_non_null(col);
	groupcol_facts_now(&f, s, snapshot_group_by_name(s, group));
	memset(c, 0, sizeof *c);
	col->cell(&f, width, c);
	return c->nspans > 0 ? c->span[0].text : "";
}

/* A cell writes the longest form that fits: the list's narrow column, the report's whole line. */
static void
test_cell_forms(void **state)
{
	kg_snapshot *s = two_groups();
	groupcol_cell c;
	(void)state;
	assert_string_equal(cell_of("STATE", s, "g-lost", 6, &c), "Prep");
	assert_int_equal(c.span[0].style, GROUPCOL_REBALANCING);
	assert_string_equal(cell_of("STATE", s, "g-lost", 0, &c), "PreparingRebalance");
	assert_string_equal(cell_of("STATE", s, "g-busy", 6, &c), "Stable");
	/* one word for cooperative, never "coop": where it does not fit, the list cuts it */
	assert_string_equal(cell_of("PROTOCOL", s, "g-lost", 5, &c), "cooperative");
	assert_int_equal(c.span[0].style, GROUPCOL_COOPERATIVE);
	assert_string_equal(cell_of("PROTOCOL", s, "g-lost", 11, &c), "cooperative");
	assert_string_equal(cell_of("PROTOCOL", s, "g-busy", 11, &c), "eager");
	assert_string_equal(cell_of("PROTOCOL", s, "g-busy", 0, &c), "range (eager)");
	assert_string_equal(cell_of("LAG", s, "g-busy", 7, &c), "70");
	assert_int_equal(c.sign, GROUPCOL_SIGN_FLAT);
	assert_string_equal(cell_of("LAG", s, "g-lost", 7, &c), "-");
	assert_int_equal(c.sign, GROUPCOL_SIGN_NONE); /* no lag known: no trend */
	assert_string_equal(cell_of("FLAGS", s, "g-busy", 11, &c), "");
	/* COORD: the id in the list's five columns, with its broker in the report, "-" when unknown */
	assert_string_equal(cell_of("COORD", s, "g-busy", 5, &c), "2");
	assert_string_equal(cell_of("COORD", s, "g-busy", 0, &c), "2 (broker-2:9092), __consumer_offsets partition unknown");
	assert_string_equal(cell_of("COORD", s, "g-lost", 5, &c), "-");
	/* with the partition count of __consumer_offsets from metadata: the partition that holds the group */
	s->offsets_partitions = 50;
	assert_string_equal(cell_of("COORD", s, "g-busy", 0, &c), "2 (broker-2:9092), __consumer_offsets-7");
	assert_string_equal(cell_of("COORD", s, "g-busy", 5, &c), "2");
	snapshot_unref(s);
}

/*
 * FLAGS says a row's age only when its data is later than its source
 * means it to be: past two refreshes for a group asked every refresh,
 * past its pace and two refreshes for one asked at a pace (a quiet group
 * on a screen, every 10 s: issue 24, a quiet screen stays still), and
 * then, however it is paced, the data is stale and says so.
 */
static void
test_age_flag(void **state)
{
	kg_snapshot *s = two_groups();
	kg_group *g = (kg_group *)snapshot_group_by_name(s, "g-busy");
	groupcol_cell c;
	(void)state;
	s->time_us = 1700000000 * KG_SEC_US;
	s->interval_us = KG_SEC_US;
	g->data_time_us = s->time_us - 2 * KG_SEC_US;
	assert_string_equal(cell_of("FLAGS", s, "g-busy", 11, &c), "");
	g->data_time_us = s->time_us - 7 * KG_SEC_US;
	assert_string_equal(cell_of("FLAGS", s, "g-busy", 11, &c), "7s old"); /* asked every refresh: late */
	g->pace_ms = 10000;
	assert_string_equal(cell_of("FLAGS", s, "g-busy", 11, &c), ""); /* asked every 10 s: as meant */
	g->data_time_us = s->time_us - 12 * KG_SEC_US;
	assert_string_equal(cell_of("FLAGS", s, "g-busy", 11, &c), "");
	g->data_time_us = s->time_us - 12 * KG_SEC_US - 1;
	assert_string_equal(cell_of("FLAGS", s, "g-busy", 11, &c), "12s old"); /* past its pace and two refreshes */
	g->data_time_us = s->time_us - 95 * KG_SEC_US;
	assert_string_equal(cell_of("FLAGS", s, "g-busy", 11, &c), "1m35s old");
	snapshot_unref(s);
}

/*
 * Counts in a narrow column (issue 25: MEMB showed 19,541 as "1954"):
 * their digits when they fit, else the most precise compact form that
 * fits, never digits cut off; the report, without width, all of them.
 */
static void
test_count_cells(void **state)
{
	static const struct {
		int nmembers, nparts, width;
		const char *memb, *parts;
	} cases[] = {
		{ 19541, 100000, 4, "20k", "100k" }, { 19541, 100000, 5, "19541", "100k" }, { 195410, 1954100, 5, "195k", "1.95M" }, { 19541, 100000, 0, "19541", "100000" },
		{ 9999, 99999, 4, "9999", "100k" }, { 10000, 100600, 5, "10000", "101k" }, { 999999, 1234567, 4, "1.0M", "1.2M" },
		{ 3, 12, 4, "3", "12" },
	};
	kg_snapshot *s = two_groups();
	kg_group *g = (kg_group *)snapshot_group_by_name(s, "g-busy");
	groupcol_cell c;
	size_t i;
	int nm = g->nmembers, np = g->nparts;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(cases); i++) {
		g->nmembers = cases[i].nmembers;
		g->nparts = cases[i].nparts;
		assert_string_equal(cell_of("MEMB", s, "g-busy", cases[i].width, &c), cases[i].memb);
		assert_string_equal(cell_of("PARTS", s, "g-busy", cases[i].width, &c), cases[i].parts);
		assert_true(cases[i].width == 0 || (int)strlen(c.span[0].text) <= cases[i].width);
	}
	g->nmembers = nm;
	g->nparts = np;
	snapshot_unref(s);
}

/*
 * Sorting: the rows with a comparator, in the table's order (the names,
 * then the columns from left to right), the verdict's the default;
 * ties by name.  Every column with a title has a help text, and the
 * narrow list gives columns up by distinct drop ranks.
 */
static void
test_sorts(void **state)
{
	kg_snapshot *s = two_groups();
	const kg_group *busy = snapshot_group_by_name(s, "g-busy"), *lost = snapshot_group_by_name(s, "g-lost");
	static const char *const want[] = { "name", "state", "lag", "time lag", "verdict", "rebalances" };
	int i, n = 0, seen[32] = { 0 };
	(void)state;
	for (i = groupcol_sort_next(-1); n < (int)KG_ARRAY_LEN(want); i = groupcol_sort_next(i), n++)
		assert_string_equal(groupcol_sort_name(i), want[n]);
	assert_int_equal(i, groupcol_sort_next(-1)); /* and round */
	assert_true(groupcol_compare(groupcol_sort_find("name"), busy, lost) < 0);
	assert_true(groupcol_compare(groupcol_sort_find("lag"), busy, lost) < 0); /* lag 70 before none */
	assert_true(groupcol_compare(groupcol_sort_find("state"), lost, busy) < 0); /* rebalancing before stable */
	assert_true(groupcol_compare(groupcol_sort_find("rebalances"), busy, lost) < 0); /* none in either: by name */
	assert_true(groupcol_compare(groupcol_sort_find("time lag"), busy, lost) < 0); /* none in either: by name */
	assert_int_equal(groupcol_sort_find("nothing"), -1);
	for (i = 0; i < groupcol_count; i++) {
		const groupcol *c = &groupcol_table[i];
		if (c->cmp != NULL)
			assert_int_equal(groupcol_compare(i, busy, busy), 0);
		if (c->title != NULL || c->cmp != NULL)
			assert_true(c->help != NULL && *c->help);
		if (c->drop > 0) {
			assert_non_null(c->title);
			assert_false(seen[c->drop]);
			seen[c->drop] = 1;
		}
	}
	snapshot_unref(s);
}
/* The text report sorts names as people do: groups g-2 before g-10, members consumer-2 before consumer-10, lettered so. */
static void
test_natural_order(void **state)
{
	kg_builder *b = builder_new(1000);
	int32_t t = intern_topic("nat");
	kg_tp p0 = { t, 0 }, p1 = { t, 1 };
	kg_bgroup *g;
	kg_bmember *m;
	kg_snapshot *s;
	sbuf o = { 0 };
	const char *txt, *g2, *g10, *c2, *c10;
	(void)state;
	builder_topic(b, t, 2);
	bgroup_state(builder_group(b, intern_group("g-10")), KG_STATE_EMPTY);
	g = builder_group(b, intern_group("g-2"));
	bgroup_state(g, KG_STATE_STABLE);
	m = bgroup_member(g, "m-10");
	bmember_ids(m, "consumer-10", "/h", NULL);
	bmember_assignment(m, &p1, 1);
	m = bgroup_member(g, "m-2");
	bmember_ids(m, "consumer-2", "/h", NULL);
	bmember_assignment(m, &p0, 1);
	s = builder_finish(b);
	report_text(&o, s);
	txt = sbuf_str(&o);
	g2 = strstr(txt, "GROUP g-2\n");
	g10 = strstr(txt, "GROUP g-10\n");
	assert_non_null(g2);
	assert_non_null(g10);
	assert_true(g2 < g10);
	c2 = strstr(txt, "consumer-2 ");
	c10 = strstr(txt, "consumer-10 ");
	assert_non_null(c2);
	assert_non_null(c10);
	assert_true(c2 < c10);
	/* consumer-2 is A and owns partition 0, consumer-10 B and partition 1 */
	assert_non_null(strstr(txt, "  A   m-2 "));
	assert_non_null(strstr(txt, "  B   m-10"));
	assert_non_null(strstr(txt, "\ng-2   nat   0         -              -              -   m-2         /h   consumer-2  -        -\n"));
	assert_non_null(strstr(txt, "\ng-2   nat   1         -              -              -   m-10        /h   consumer-10 -        -\n"));
	sbuf_free(&o);
	snapshot_unref(s);
}


/* report_text_each's flush: keep what it is given, empty the buffer. */
static bool
keep_piece(sbuf *out, void *ctx)
{
	sbuf *all = ctx;
	assert_true(out->len > KG_REPORT_PIECE);
	assert_int_equal(out->s[out->len - 1], '\n'); /* whole lines: a piece ends with a group */
	sbuf_addn(all, out->s, out->len);
	out->len = 0;
	return true;
}

/* report_json_each's flush: keep what it is given (a piece ends after a group), empty the buffer. */
static bool
keep_json_piece(sbuf *out, void *ctx)
{
	sbuf *all = ctx;
	assert_true(out->len > KG_REPORT_PIECE && out->len < 2 * KG_REPORT_PIECE);
	assert_int_equal(out->s[out->len - 1], '}');
	sbuf_addn(all, out->s, out->len);
	out->len = 0;
	return true;
}

/* A flush that fails (stdout gone). */
static bool
fail_piece(sbuf *out, void *ctx)
{
	int *calls = ctx;
	(*calls)++;
	out->len = 0;
	return false;
}

/*
 * The report written in pieces (run_once writes them as they come) is the
 * report, byte for byte, with a control character in a name made safe in
 * every piece; a flush that fails stops it.  So is --once --json's.
 */
static void
test_text_pieces(void **state)
{
	kg_builder *b = builder_new(1000);
	int32_t t = intern_topic("pieces");
	kg_snapshot *s;
	sbuf whole = { 0 }, all = { 0 }, rest = { 0 };
	int i, p, calls = 0;
	(void)state;
	builder_topic(b, t, 8);
	for (i = 0; i < 400; i++) {
		char name[32], mid[32];
		kg_bgroup *g;
		kg_bmember *m;
		snprintf(name, sizeof name, i == 399 ? "grp-%d\x1b[2J" : "grp-%d", i);
		g = builder_group(b, intern_group(name));
		bgroup_state(g, KG_STATE_STABLE);
		snprintf(mid, sizeof mid, "member-%d", i);
		m = bgroup_member(g, mid);
		bmember_ids(m, "consumer-1", "/10.0.0.1", NULL);
		for (p = 0; p < 8; p++) {
			kg_tp tp = { t, p };
			bmember_assignment(m, &tp, 1);
			bgroup_committed(g, tp, 1000 + p);
		}
	}
	s = builder_finish(b);
	report_text(&whole, s);
	assert_true(whole.len > 3 * KG_REPORT_PIECE);
	assert_null(strchr(sbuf_str(&whole), '\x1b'));
	assert_true(report_text_each(&rest, s, keep_piece, &all));
	sbuf_addn(&all, rest.s, rest.len);
	assert_int_equal(all.len, whole.len);
	assert_memory_equal(all.s, whole.s, whole.len);
	rest.len = 0;
	assert_false(report_text_each(&rest, s, fail_piece, &calls));
	assert_int_equal(calls, 1);
	/* --once --json the same way: never held whole (run_once), the same bytes */
	whole.len = all.len = rest.len = 0;
	calls = 0;
	report_json(&whole, s, NULL, 0, s->time_us);
	assert_true(whole.len > 3 * KG_REPORT_PIECE);
	assert_true(report_json_each(&rest, s, NULL, 0, s->time_us, keep_json_piece, &all));
	assert_true(all.len > 2 * KG_REPORT_PIECE && rest.len < KG_REPORT_PIECE);
	sbuf_addn(&all, rest.s, rest.len);
	assert_int_equal(all.len, whole.len);
	assert_memory_equal(all.s, whole.s, whole.len);
	rest.len = 0;
	assert_false(report_json_each(&rest, s, NULL, 0, s->time_us, fail_piece, &calls));
	assert_int_equal(calls, 1);
	sbuf_free(&whole);
	sbuf_free(&all);
	sbuf_free(&rest);
	snapshot_unref(s);
}

/*
 * --json: a group's "offsets_time" only where its committed offsets were
 * asked apart from its description (newer than its "data_time"); a group
 * whose offsets are its data's time prints as before.
 */
static void
test_json_offsets_time(void **state)
{
	kg_builder *b = builder_new(1700000010LL * 1000000);
	kg_bgroup *g;
	kg_snapshot *s;
	sbuf o = { 0 };
	const char *a, *z;
	(void)state;
	g = builder_group(b, intern_group("offs-apart"));
	bgroup_state(g, KG_STATE_STABLE);
	bgroup_data_time(g, 1700000001LL * 1000000);
	bgroup_offs_time(g, 1700000009LL * 1000000);
	g = builder_group(b, intern_group("offs-same"));
	bgroup_state(g, KG_STATE_STABLE);
	bgroup_data_time(g, 1700000009LL * 1000000);
	bgroup_offs_time(g, 1700000009LL * 1000000);
	s = builder_finish(b);
	report_json(&o, s, NULL, 0, s->time_us);
	a = strstr(sbuf_str(&o), "\"id\":\"offs-apart\"");
	z = strstr(sbuf_str(&o), "\"id\":\"offs-same\"");
	assert_non_null(a);
	assert_non_null(z);
	assert_non_null(strstr(a, "\"data_time\":\"2023-11-14T22:13:21.000Z\",\"offsets_time\":\"2023-11-14T22:13:29.000Z\""));
	a = strstr(sbuf_str(&o), "offsets_time");
	assert_null(strstr(a + 1, "offsets_time")); /* once: offs-same has none */
	sbuf_free(&o);
	snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_facts),
		cmocka_unit_test(test_text_progress),
		cmocka_unit_test(test_cell_forms),
		cmocka_unit_test(test_age_flag),
		cmocka_unit_test(test_count_cells),
		cmocka_unit_test(test_sorts),
		cmocka_unit_test(test_natural_order),
		cmocka_unit_test(test_text_pieces),
		cmocka_unit_test(test_json_offsets_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_check.c: --check's judgement of a snapshot (report/check.h): the
 * status per verdict and threshold, the worst group wins, UNKNOWN for a
 * cluster that cannot be read and for no group, the line's form and its
 * performance data.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "model/snapshot.h"
#include "report/check.h"
#include "two_groups.h"
#include "util/util.h"

/* The shared two groups (g-busy: lag 70 on orders; g-lost: no offsets), the cluster source ok. */
static kg_snapshot *
two_groups(kg_src_status cluster)
{
	kg_builder *b = two_groups_builder(1700000000000000LL);
	kg_source_health h;
	kg_snapshot *s;
	memset(&h, 0, sizeof h);
	h.name = "kafka";
	h.status = cluster;
	h.role = KG_ROLE_CLUSTER;
	h.message = cluster == KG_SRC_ERROR ? "all brokers down" : NULL;
	builder_source(b, &h);
	s = builder_finish(b);
	s->groups[0].tlag_kind = KG_TLAG_EXACT;
	s->groups[0].time_lag_us = 90000000;
	s->groups[0].nverdict[KG_VERDICT_OK] = 4;
	s->groups[1].lag = 0;
	return s;
}

/* Judge s with limits l into a line the caller frees. */
static char *
judge(const kg_snapshot *s, const kg_check_limits *l, kg_check_status *st)
{
	sbuf o = { 0 };
	char *r;
	*st = check_snapshot(s, l, NULL, &o);
	check_guard_lines(&o); /* as check_run prints it */
	r = xstrdup(sbuf_str(&o));
	sbuf_free(&o);
	return r;
}

/* OK; a SLOW or REWIND partition WARNING; STALLED, STOPPED, LOST CRITICAL; the worst group wins. */
static void
test_verdicts(void **state)
{
	static const struct {
		kg_verdict v;
		kg_check_status want;
	} cases[] = {
		{ KG_VERDICT_OK, KG_CHECK_OK },	      { KG_VERDICT_SLOW, KG_CHECK_WARNING },
		{ KG_VERDICT_REWIND, KG_CHECK_WARNING }, { KG_VERDICT_STALLED, KG_CHECK_CRITICAL },
		{ KG_VERDICT_STOPPED, KG_CHECK_CRITICAL }, { KG_VERDICT_LOST, KG_CHECK_CRITICAL },
	};
	kg_check_limits none = { 0 };
	size_t i;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(cases); i++) {
		kg_snapshot *s = two_groups(KG_SRC_OK);
		kg_check_status st;
		char *line;
		s->groups[0].nverdict[KG_VERDICT_OK] = 3;
		s->groups[0].nverdict[cases[i].v]++;
		s->groups[0].verdict = (uint8_t)cases[i].v;
		line = judge(s, &none, &st);
		assert_int_equal(st, cases[i].want);
		assert_true(strncmp(line, "KGTOP ", 6) == 0);
		assert_non_null(strstr(line, check_status_name(cases[i].want)));
		assert_non_null(strstr(line, " 'g-busy lag'=70;;;0; 'g-busy time_lag'=90.000s;;;0; "));
		if (cases[i].v >= KG_VERDICT_SLOW)
			assert_non_null(strstr(line, verdict_name(cases[i].v)));
		free(line);
		snapshot_unref(s);
	}
}

/* Thresholds: lag and time lag, warning below critical; given in the performance data. */
static void
test_thresholds(void **state)
{
	kg_snapshot *s = two_groups(KG_SRC_OK);
	kg_check_limits l = { 50, 100, 0, 0, 0 };
	kg_check_status st;
	char *line;
	(void)state;
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_WARNING);
	assert_non_null(strstr(line, "KGTOP WARNING - g-busy WARNING: "));
	assert_non_null(strstr(line, "'g-busy lag'=70;50;100;0;"));
	free(line);
	l.crit_lag = 60;
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_CRITICAL);
	free(line);
	l = (kg_check_limits){ 0, 0, 60000000, 120000000, 0 };
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_WARNING);
	assert_non_null(strstr(line, "'g-busy time_lag'=90.000s;60.000;120.000;0;"));
	free(line);
	/* a lower bound below the thresholds says nothing for sure: UNKNOWN; above one, it passed it */
	s->groups[0].tlag_kind = KG_TLAG_ATLEAST;
	s->groups[0].time_lag_us = 30000000;
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_UNKNOWN);
	free(line);
	s->groups[0].time_lag_us = 130000000;
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_CRITICAL);
	free(line);
	/* a time lag not known with a threshold given: UNKNOWN */
	s->groups[0].tlag_kind = KG_TLAG_NONE;
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_UNKNOWN);
	assert_non_null(strstr(line, "'g-busy time_lag'=U;"));
	free(line);
	/* a partition not judged yet: the line names it and says how long a check would have to watch */
	s->groups[0].tlag_kind = KG_TLAG_EXACT;
	s->groups[0].nverdict[KG_VERDICT_PENDING] = 1;
	s->groups[0].parts[2].verdict = KG_VERDICT_PENDING;
	l = (kg_check_limits){ 50, 0, 0, 0, 32 };
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_WARNING); /* WARNING outranks UNKNOWN */
	assert_non_null(strstr(line, "1 partition not judged yet [2] (--duration 32 judges commits), "));
	free(line);
	snapshot_unref(s);
}

/* UNKNOWN: the cluster cannot be read (in its words), no group at all. */
static void
test_unknown(void **state)
{
	kg_snapshot *s = two_groups(KG_SRC_ERROR);
	kg_check_limits none = { 0 };
	kg_check_status st;
	char *line;
	sbuf o = { 0 };
	kg_builder *b;
	(void)state;
	line = judge(s, &none, &st);
	assert_int_equal(st, KG_CHECK_UNKNOWN);
	assert_string_equal(line, "KGTOP UNKNOWN - kafka: all brokers down");
	free(line);
	snapshot_unref(s);
	b = builder_new(1000);
	s = builder_finish(b);
	st = check_snapshot(s, &none, "-g ^orders$", &o);
	assert_int_equal(st, KG_CHECK_UNKNOWN);
	assert_string_equal(sbuf_str(&o), "KGTOP UNKNOWN - no consumer group matches -g ^orders$");
	sbuf_free(&o);
	snapshot_unref(s);
}

/* A hostile group name cannot break the line: no newline, one '|', no quote or '=' in a label. */
static void
test_names(void **state)
{
	kg_snapshot *s = two_groups(KG_SRC_OK);
	kg_check_limits none = { 0 };
	kg_check_status st;
	char *line;
	(void)state;
	s->groups[0].name = "it's=\nbad|x";
	s->groups[0].verdict = KG_VERDICT_SLOW;
	s->groups[0].nverdict[KG_VERDICT_SLOW] = 1;
	line = judge(s, &none, &st);
	assert_null(strchr(line, '\n'));
	assert_non_null(strstr(line, "'it''s%3D?bad%7Cx lag'=70;"));
	assert_int_equal(strchr(line, '|') - line, strstr(line, " | '") + 1 - line); /* one '|': the perfdata's */
	free(line);
	snapshot_unref(s);
}

/* The shared two groups with every partition of g-busy judged OK but one not judged yet. */
static kg_snapshot *
one_pending(void)
{
	kg_snapshot *s = two_groups(KG_SRC_OK);
	int k;
	for (k = 0; k < s->groups[0].nparts; k++)
		s->groups[0].parts[k].verdict = KG_VERDICT_OK;
	s->groups[0].parts[2].verdict = KG_VERDICT_PENDING;
	s->groups[0].nverdict[KG_VERDICT_OK] = s->groups[0].nparts - 1;
	s->groups[0].nverdict[KG_VERDICT_PENDING] = 1;
	s->groups[0].verdict = KG_VERDICT_PENDING;
	return s;
}

/*
 * Not judged yet is UNKNOWN, never OK (issue 22: "KGTOP OK - 6 groups OK"
 * while one was frozen): the partitions are named with the --duration that
 * would judge them; a stall is CRITICAL with its since in words.
 */
static void
test_pending(void **state)
{
	kg_snapshot *s = one_pending();
	kg_check_limits l = { 0, 0, 0, 0, 32 };
	kg_check_status st;
	char *line;
	(void)state;
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_UNKNOWN);
	assert_non_null(strstr(line, "KGTOP UNKNOWN - g-busy UNKNOWN: 1 partition not judged yet [2] (--duration 32 judges commits)"));
	assert_non_null(strstr(line, "'g-busy pending'=1;;;0;"));
	free(line);
	/* STALLED partitions named, since between the waiting record's time and kgtop's first sight */
	s->groups[0].parts[2].verdict = KG_VERDICT_STALLED;
	s->groups[0].nverdict[KG_VERDICT_PENDING] = 0;
	s->groups[0].nverdict[KG_VERDICT_STALLED] = 1;
	s->groups[0].verdict = KG_VERDICT_STALLED;
	s->groups[0].verdict_since_lo_us = 1700000000000000LL - 600000000LL;
	s->groups[0].verdict_since_us = 1700000000000000LL - 60000000LL;
	s->groups[0].since_kind = KG_SINCE_RECORD;
	line = judge(s, &l, &st);
	assert_int_equal(st, KG_CHECK_CRITICAL);
	assert_non_null(strstr(line, "1 partition STALLED [2] since between "));
	assert_non_null(strstr(line, " (the waiting record's time) and "));
	free(line);
	snapshot_unref(s);
}

/* Labels stay apart: "a=b" and "a_b" are two groups, two labels. */
static void
test_labels_unique(void **state)
{
	kg_snapshot *s = two_groups(KG_SRC_OK);
	kg_check_limits none = { 0 };
	kg_check_status st;
	char *line;
	(void)state;
	s->groups[0].name = "a=b";
	s->groups[1].name = "a_b";
	line = judge(s, &none, &st);
	assert_non_null(strstr(line, "'a%3Db lag'="));
	assert_non_null(strstr(line, "'a_b lag'="));
	free(line);
	snapshot_unref(s);
}

/*
 * Many groups: a short first line (how many are not OK, the worst named),
 * each one's details on a line of its own (the plugins' long output), the
 * whole within the 8 KB Nagios keeps, performance data within its share.
 */
static void
test_many_groups(void **state)
{
	kg_builder *b = builder_new(1700000000000000LL);
	int32_t t = intern_topic("orders");
	kg_check_limits l = { 0, 0, 0, 0, 32 };
	kg_check_status st;
	kg_snapshot *s;
	sbuf o = { 0 };
	const char *nl;
	int i, k, lines = 0;
	(void)state;
	builder_topic(b, t, 7);
	for (k = 0; k < 7; k++)
		builder_partition(b, (kg_tp){ t, k }, 1, 1000);
	for (i = 0; i < 100; i++) {
		char name[64];
		kg_bgroup *g;
		snprintf(name, sizeof name, "group-with-a-long-name-for-its-team-%03d", i);
		g = builder_group(b, intern_group(name));
		bgroup_state(g, KG_STATE_STABLE);
		for (k = 0; k < 7; k++)
			bgroup_committed(g, (kg_tp){ t, k }, 990);
	}
	s = builder_finish(b);
	for (i = 0; i < 100; i++) {
		kg_group *g = &s->groups[i];
		kg_verdict v = i < 30 ? KG_VERDICT_PENDING : i == 50 ? KG_VERDICT_STALLED : KG_VERDICT_OK;
		for (k = 0; k < g->nparts; k++)
			g->parts[k].verdict = (uint8_t)v;
		g->nverdict[v] = g->nparts;
		g->verdict = (uint8_t)v;
		g->tlag_kind = KG_TLAG_EXACT;
		g->time_lag_us = 1000000;
	}
	st = check_snapshot(s, &l, NULL, &o);
	if (getenv("CHECK_DUMP"))
		fprintf(stderr, "%s\n", sbuf_str(&o));
	assert_int_equal(st, KG_CHECK_CRITICAL);
	assert_true(o.len <= 8000);
	nl = strchr(sbuf_str(&o), '\n');
	assert_non_null(nl);
	assert_true(nl - sbuf_str(&o) < 3100); /* the first line: the summary and the performance data's share */
	assert_non_null(strstr(sbuf_str(&o), "KGTOP CRITICAL - 31 of 100 groups not OK: group-with-a-long-name-for-its-team-050 CRITICAL, "));
	assert_non_null(strstr(sbuf_str(&o), "; 69 OK |"));
	assert_non_null(strstr(sbuf_str(&o), " 'groups critical'=1;;;0; 'groups unknown'=30;;;0;"));
	assert_non_null(strstr(sbuf_str(&o), "\ngroup-with-a-long-name-for-its-team-050 CRITICAL: 7 partitions STALLED [0 1 2 3 4 5 6]"));
	assert_non_null(strstr(sbuf_str(&o), "\ngroup-with-a-long-name-for-its-team-000 UNKNOWN: 7 partitions not judged yet"));
	assert_non_null(strstr(sbuf_str(&o), "\nperformance data for "));
	for (nl = sbuf_str(&o); (nl = strchr(nl, '\n')) != NULL; nl++)
		lines++;
	assert_true(lines >= 20);
	assert_int_equal((int)(strchr(sbuf_str(&o), '|') - sbuf_str(&o)), (int)(strstr(sbuf_str(&o), " | '") + 1 - sbuf_str(&o)));
	sbuf_free(&o);
	snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_labels_unique),
		cmocka_unit_test(test_many_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

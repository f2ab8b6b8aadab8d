/*
 * test_parse_log.c: the broker log parser against sample logs of each
 * Kafka generation (golden observation lists), local time, reasons, and
 * lenient or hostile input.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "model/intern.h"
#include "record/jsonl.h"
#include "sources/trace/parse_lines.h"
#include "sources/trace/parse_log.h"
#include "trace_util.h"

typedef struct feed_ctx {
	kg_log_parser *p;
	kg_obsq *q;
} feed_ctx;

/* Line callback: parse into the queue. */
static void
feed_line(void *arg, const char *line, size_t len)
{
	feed_ctx *c = arg;
	parse_log_line(c->p, line, len, c->q);
}

/* Parse a whole text through the line assembler. */
static void
parse_text(kg_log_parser *p, const char *text, size_t len, kg_obsq *q)
{
	kg_lines l;
	feed_ctx c = { p, q };
	parse_lines_init(&l, 65536);
	parse_lines_feed(&l, text, len, feed_line, &c);
	parse_lines_free(&l);
}

/* Parse one sample log, compare with its golden, and check the jsonl round trip. */
static void
golden_log(const char *name)
{
	char path[4096], rel[256];
	size_t len, i;
	char *text;
	kg_log_parser p;
	kg_obsq q = { 0 }, back = { 0 };
	sbuf out = { 0 }, again = { 0 };
	const char *line;

	setenv("TZ", "UTC", 1);
	tzset();
	snprintf(path, sizeof path, "%s/tests/data/logs/%s.log", tu_srcdir(), name);
	text = tu_read_file(path, &len);
	assert_non_null(text);
	parse_log_init(&p);
	parse_text(&p, text, len, &q);
	tu_format_obs(&out, &q);
	sbuf_addf(&out, "# lines: obs %llu, known %llu, skipped %llu, unparsed %llu, malformed %llu\n",
		  (unsigned long long)p.counts.n[KG_PARSE_OBS], (unsigned long long)p.counts.n[KG_PARSE_KNOWN],
		  (unsigned long long)p.counts.n[KG_PARSE_SKIPPED], (unsigned long long)p.counts.n[KG_PARSE_UNPARSED],
		  (unsigned long long)p.counts.n[KG_PARSE_MALFORMED]);
	snprintf(rel, sizeof rel, "tests/data/trace/%s.obs", name);
	assert_int_equal(tu_golden(rel, sbuf_str(&out)), 0);

	/* the writer's lines read back into the same observations */
	line = sbuf_str(&out);
	while (*line != '\0') {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		if (line[0] != '#')
			assert_int_equal(jsonl_parse_line(line, n, &back), KG_PARSE_OBS);
		line += n + (nl != NULL);
	}
	assert_int_equal(back.n, q.n);
	for (i = 0; i < back.n; i++)
		back.v[i]->source = q.v[i]->source;
	tu_format_obs(&again, &back);
	sbuf_addf(&again, "%s", strstr(sbuf_str(&out), "# lines"));
	assert_string_equal(sbuf_str(&again), sbuf_str(&out));

	obsq_clear(&q);
	obsq_clear(&back);
	free(q.v);
	free(back.v);
	sbuf_free(&out);
	sbuf_free(&again);
	parse_log_free(&p);
	free(text);
}

/* Kafka 2.8, classic GroupCoordinator. */
static void
test_golden_kafka28(void **state)
{
	(void)state;
	golden_log("kafka-2.8-classic");
}

/* Kafka 3.7, classic GroupCoordinator with KIP-800 client reasons. */
static void
test_golden_kafka37(void **state)
{
	(void)state;
	golden_log("kafka-3.7-classic");
}

/* Kafka 4.0, new coordinator, classic-protocol groups. */
static void
test_golden_kafka40_classic(void **state)
{
	(void)state;
	golden_log("kafka-4.0-classic");
}

/* Kafka 4.0, new coordinator, KIP-848 consumer groups. */
static void
test_golden_kafka40_consumer(void **state)
{
	(void)state;
	golden_log("kafka-4.0-consumer");
}

/* Kafka 4.3.1, real lines captured by tests/kafka/capture-logs.sh: classic-protocol groups. */
static void
test_golden_kafka43_classic(void **state)
{
	(void)state;
	golden_log("kafka-4.3-classic");
}

/* Kafka 4.3.1, real lines: KIP-848 consumer groups (a crash, a stall, static members). */
static void
test_golden_kafka43_consumer(void **state)
{
	(void)state;
	golden_log("kafka-4.3-consumer");
}

/* Parse exactly one line and return its single observation (or NULL). */
static kg_obs *
one(kg_log_parser *p, const char *line, kg_parse_rc want, kg_obsq *q)
{
	obsq_clear(q);
	assert_int_equal(parse_log_line(p, line, strlen(line), q), want);
	return q->n > 0 ? q->v[0] : NULL;
}

/* The timestamp is local time, also across a DST change; fractions and separators vary. */
static void
test_local_time(void **state)
{
	kg_log_parser p;
	int64_t a, b;
	(void)state;
	parse_log_init(&p);
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(parse_log_time(&p, "2026-11-29 13:45:01,123", 23, &a), 0);
	assert_true(a == INT64_C(1795959901123000));
	assert_int_equal(parse_log_time(&p, "2026-11-29T13:45:01.5", 21, &b), 0);
	assert_true(b - a == 377000);
	assert_int_equal(parse_log_time(&p, "2026-11-29 13:45:01", 19, &b), 0);
	assert_true(a - b == 123000);
	assert_int_equal(parse_log_time(&p, "2026-13-29 13:45:01,123", 23, &b), -1);
	assert_int_equal(parse_log_time(&p, "2026-11-29 13:45:01;123", 23, &b), -1);
	assert_int_equal(parse_log_time(&p, "2026-11-29 13:4", 15, &b), -1);
	/* Central European time: UTC+1 in winter, the clock jumps 02:00 -> 03:00 on 2026-03-29 */
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	parse_log_free(&p);
	parse_log_init(&p);
	assert_int_equal(parse_log_time(&p, "2026-11-29 14:45:01,123", 23, &b), 0);
	assert_true(b == a);
	assert_int_equal(parse_log_time(&p, "2026-03-29 01:59:59,999", 23, &a), 0);
	assert_int_equal(parse_log_time(&p, "2026-03-29 03:00:00,000", 23, &b), 0);
	assert_true(b - a == 1000);
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_free(&p);
}

/* Reasons implied by coordinator and client texts. */
static void
test_reasons(void **state)
{
	static const struct {
		const char *text;
		kg_reason want;
	} cases[] = {
		{ "Adding new member c-1 with group instance id None", KG_REASON_JOINED },
		{ "Adding new member c-1 with group instance id null; client reason: rebalance failed due to "
		  "UnknownMemberIdException", KG_REASON_JOINED },
		{ "removing member c-1 on heartbeat expiration", KG_REASON_SESSION_TIMEOUT },
		{ "Removing member c-1 on LeaveGroup; client reason: consumer poll timeout has expired.", KG_REASON_MAX_POLL },
		{ "Removing member c-1 on LeaveGroup; client reason: the consumer is being closed", KG_REASON_GRACEFUL },
		{ "removing member c-1 on LeaveGroup", KG_REASON_GRACEFUL },
		{ "explicit `LeaveGroup` request for (c-1) members.", KG_REASON_GRACEFUL },
		{ "Leader c-1 re-joining group during Stable", KG_REASON_LEADER_REJOIN },
		{ "Updating metadata for static member c-1 with instance id i-1", KG_REASON_REPLACED },
		{ "Updating metadata for member c-1 during Stable; client reason: cached metadata has changed",
		  KG_REASON_METADATA },
		{ "removing member c-1 on pending join expiration", KG_REASON_SESSION_TIMEOUT },
		{ "something else", KG_REASON_UNKNOWN },
		{ "", KG_REASON_NONE },
	};
	size_t i;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(cases); i++) {
		if (parse_log_reason(cases[i].text) != cases[i].want)
			fail_msg("reason of \"%s\": got %s, want %s", cases[i].text,
				 reason_key(parse_log_reason(cases[i].text)), reason_key(cases[i].want));
	}
	assert_int_equal(parse_log_reason(NULL), KG_REASON_NONE);
}

/* Spacing, missing level, missing logger, trailing punctuation. */
static void
test_lenient(void **state)
{
	kg_log_parser p;
	kg_obsq q = { 0 };
	kg_obs *o;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	o = one(&p, "[2026-11-29 13:45:03,611]   INFO   [GroupCoordinator 1]:   Stabilized group  g1  generation 12 "
		    "with 4 members.  ",
		KG_PARSE_OBS, &q);
	assert_int_equal(o->kind, KG_OBS_STABILIZED);
	assert_string_equal(intern_group_name(o->group), "g1");
	assert_int_equal(o->generation, 12);
	assert_int_equal(o->nmembers, 4);
	o = one(&p, "[2026-11-29 13:45:03,611] [GroupCoordinator 1]: Stabilized group g2 generation 3", KG_PARSE_OBS, &q);
	assert_string_equal(intern_group_name(o->group), "g2");
	assert_int_equal(o->nmembers, -1);
	/* a group id with spaces and parentheses */
	o = one(&p, "[2026-11-29 13:45:03,611] INFO [GroupCoordinator 1]: Preparing to rebalance group my group (x) in "
		    "state PreparingRebalance with old generation 7 (__consumer_offsets-1) (reason: Leader c-1 re-joining "
		    "group during Stable; client reason: cached metadata has changed from (v5: {a=1}) to (v6: {a=2})) "
		    "(kafka.coordinator.group.GroupCoordinator)",
		KG_PARSE_OBS, &q);
	assert_int_equal(o->kind, KG_OBS_PREPARING);
	assert_string_equal(intern_group_name(o->group), "my group (x)");
	assert_int_equal(o->generation, 7);
	assert_int_equal(o->reason, KG_REASON_LEADER_REJOIN);
	assert_string_equal(o->text, "Leader c-1 re-joining group during Stable; client reason: cached metadata has "
				     "changed from (v5: {a=1}) to (v6: {a=2})");
	/* other loggers, stack traces, blanks */
	one(&p, "[2026-11-29 13:45:03,611] INFO [Log partition=x-0] Rolled new segment (kafka.log.Log)", KG_PARSE_SKIPPED, &q);
	one(&p, "\tat kafka.coordinator.group.GroupCoordinator.handle(GroupCoordinator.scala:1)", KG_PARSE_SKIPPED, &q);
	one(&p, "", KG_PARSE_SKIPPED, &q);
	/* a coordinator line with a broken time, or a message nobody knows */
	one(&p, "[2026-11-29 25:45:03,611] INFO [GroupCoordinator 1]: Stabilized group g generation 1", KG_PARSE_UNPARSED,
	    &q);
	one(&p, "[2026-11-29 13:45:03,611] INFO [GroupCoordinator 1]: Stabilized group g generation x", KG_PARSE_UNPARSED,
	    &q);
	one(&p, "[2026-11-29 13:45:03,611] INFO [GroupCoordinator 1]: Frobnicated group g", KG_PARSE_UNPARSED, &q);
	one(&p, "[2026-11-29 13:45:03,611] INFO [GroupCoordinator 1]: Removed 0 expired offsets in 0 milliseconds.",
	    KG_PARSE_KNOWN, &q);
	assert_true(p.counts.n[KG_PARSE_UNPARSED] == 3);
	obsq_clear(&q);
	free(q.v);
	parse_log_free(&p);
}

/* Invalid UTF-8 and control characters never reach an observation; NULs do not cut a line short. */
static void
test_hostile(void **state)
{
	kg_log_parser p;
	kg_obsq q = { 0 };
	kg_obs *o;
	static const char line[] = "[2026-11-29 13:46:12,730] INFO [GroupCoordinator 1]: Member bad\xff\xfe\x1b[2Jid in "
				   "group g\x01x has failed, removing it from the group";
	char withnul[] = "[2026-11-29 13:46:12,730] INFO [GroupCoordinator 1]: Stabilized group gN generation 5 with 2 "
			 "members";
	char *big;
	size_t n;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	o = one(&p, line, KG_PARSE_OBS, &q);
	assert_int_equal(o->kind, KG_OBS_LEFT);
	assert_string_equal(o->member_id, "bad???[2Jid");
	assert_string_equal(intern_group_name(o->group), "g?x");
	withnul[strlen(withnul) - 12] = '\0'; /* "with 2 members" -> "with\0 2 members" */
	obsq_clear(&q);
	assert_int_equal(parse_log_line(&p, withnul, sizeof withnul - 1, &q), KG_PARSE_OBS);
	assert_int_equal(q.v[0]->generation, 5);
	/* a megabyte-long coordinator line is parsed without trouble */
	n = 1 << 20;
	big = xmalloc(n + 200);
	snprintf(big, 200, "[2026-11-29 13:46:12,730] INFO [GroupCoordinator 1]: Member ");
	memset(big + strlen(big), 'm', n);
	strcpy(big + 60 + n - 10, " in group g has failed");
	obsq_clear(&q);
	assert_int_equal(parse_log_line(&p, big, strlen(big), &q), KG_PARSE_OBS);
	free(big);
	obsq_clear(&q);
	free(q.v);
	parse_log_free(&p);
}

/* The 4.x "LeaveGroup request for (M)" takes the reason of M's leave just before; not of another member. */
static void
test_leave_memory(void **state)
{
	kg_log_parser p;
	kg_obsq q = { 0 };
	kg_obs *o;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	one(&p, "[2026-11-29 15:21:30,410] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=7] [Group g] "
		"Member m-1 has left group through explicit `LeaveGroup` request; client reason: consumer poll timeout "
		"has expired.",
	    KG_PARSE_OBS, &q);
	o = one(&p, "[2026-11-29 15:21:30,411] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=7] "
		    "Preparing to rebalance group g in state PreparingRebalance with old generation 12 (reason: explicit "
		    "`LeaveGroup` request for (m-1) members.).",
		KG_PARSE_OBS, &q);
	assert_int_equal(o->reason, KG_REASON_MAX_POLL);
	o = one(&p, "[2026-11-29 15:21:30,411] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=7] "
		    "Preparing to rebalance group g in state PreparingRebalance with old generation 13 (reason: explicit "
		    "`LeaveGroup` request for (m-2) members.).",
		KG_PARSE_OBS, &q);
	assert_int_equal(o->reason, KG_REASON_GRACEFUL);
	/* too late to be the same leave */
	o = one(&p, "[2026-11-29 15:22:30,411] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=7] "
		    "Preparing to rebalance group g in state PreparingRebalance with old generation 14 (reason: explicit "
		    "`LeaveGroup` request for (m-1) members.).",
		KG_PARSE_OBS, &q);
	assert_int_equal(o->reason, KG_REASON_GRACEFUL);
	obsq_clear(&q);
	free(q.v);
	parse_log_free(&p);
}

/*
 * A rebalance begun while the group completed the one before: a member
 * added "in CompletingRebalance state" (Kafka 4.3.1's words, as the
 * broker in t_rebalance.sh wrote them), the "preparing" that join
 * caused, a member's or a static member's rejoin with new metadata
 * there; not a join in Stable state, nor a "preparing" of another member.
 */
static void
test_completing(void **state)
{
	static const char pre[] = "[2026-12-05 21:45:03,912] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=49] ";
	static const char *const lines[] = {
		"Pending dynamic member with id r2-eec8 joins group g-range in CompletingRebalance state. Adding to the group now.",
		"Preparing to rebalance group g-range in state PreparingRebalance with old generation 1 (reason: Adding new "
		"member r2-eec8 with group instance id null; client reason: need to re-join with the given member-id: r2-eec8)",
		"Preparing to rebalance group g-range in state PreparingRebalance with old generation 1 (reason: Adding new "
		"member r2-eec89 with group instance id null; client reason: need to re-join with the given member-id: r2-eec89)",
		"Preparing to rebalance group g-range in state PreparingRebalance with old generation 2 (reason: Updating "
		"metadata for member c1-77 during CompletingRebalance; client reason: need to revoke partitions and re-join)",
		"Preparing to rebalance group g-static in state PreparingRebalance with old generation 3 (reason: Updating "
		"metadata for static member s-2 with instance id pod-1; client reason: rebalance failed due to ...)",
		"Pending dynamic member with id r4-3348 joins group g-range in Stable state. Adding to the group now.",
		"Preparing to rebalance group g-range in state PreparingRebalance with old generation 2 (reason: Adding new "
		"member r4-3348 with group instance id null; client reason: need to re-join with the given member-id: r4-3348)",
		"Preparing to rebalance group g-range in state PreparingRebalance with old generation 2 (reason: Updating "
		"metadata for member c1-77 during Stable; client reason: need to revoke partitions and re-join)",
	};
	/* the third: a member whose id begins with the one that joined is another member */
	static const bool want[] = { true, true, false, true, true, false, false, false };
	kg_log_parser p;
	kg_obsq q = { 0 };
	char line[1024];
	size_t i;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	for (i = 0; i < KG_ARRAY_LEN(lines); i++) {
		kg_obs *o;
		snprintf(line, sizeof line, "%s%s (org.apache.kafka.coordinator.group.GroupMetadataManager)", pre, lines[i]);
		o = one(&p, line, KG_PARSE_OBS, &q);
		assert_non_null(o);
		if (o->completing != want[i])
			fprintf(stderr, "# line %zu: completing %d, want %d\n", i, o->completing, want[i]);
		assert_int_equal(o->completing, want[i]);
	}
	obsq_clear(&q);
	free(q.v);
	parse_log_free(&p);
}

/* A KIP-848 fencing: the reason word is not repeated in its text ("fenced: fenced: ..."). */
static void
test_fence_text(void **state)
{
	kg_log_parser p;
	kg_obsq q = { 0 };
	kg_obs *o;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	parse_log_init(&p);
	o = one(&p, "[2026-11-29 16:03:30,000] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=12] "
		    "[GroupId g] Member m-1 fenced from the group because it failed to transition from epoch 7 within "
		    "300000ms. (org.apache.kafka.coordinator.group.GroupMetadataManager)",
		KG_PARSE_OBS, &q);
	assert_int_equal(o->kind, KG_OBS_LEFT);
	assert_int_equal(o->reason, KG_REASON_FENCED);
	assert_string_equal(o->text, "it failed to transition from epoch 7 within 300000ms");
	o = one(&p, "[2026-11-29 16:00:05,010] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=12] "
		    "[GroupId g] Member m-2 fenced from the group because the member session expired. "
		    "(org.apache.kafka.coordinator.group.GroupMetadataManager)",
		KG_PARSE_OBS, &q);
	assert_int_equal(o->reason, KG_REASON_SESSION_TIMEOUT);
	assert_string_equal(o->text, "fenced because the member session expired");
	obsq_clear(&q);
	free(q.v);
	parse_log_free(&p);
}

/* Lines split anywhere, CRLF endings and an over-long line. */
static void
test_lines(void **state)
{
	static const char text[] = "[2026-11-29 13:45:03,611] INFO [GroupCoordinator 1]: Stabilized group a generation 1\r\n"
				   "[2026-11-29 13:45:03,612] INFO [GroupCoordinator 1]: Stabilized group b generation 2\n"
				   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
				   "[2026-11-29 13:45:03,613] INFO [GroupCoordinator 1]: Stabilized group c generation 3\n";
	size_t split;
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	for (split = 1; split < sizeof text - 1; split += 7) {
		kg_log_parser p;
		kg_obsq q = { 0 };
		kg_lines l;
		feed_ctx c;
		size_t i;
		parse_log_init(&p);
		c.p = &p;
		c.q = &q;
		parse_lines_init(&l, 120);
		for (i = 0; i < sizeof text - 1; i += split)
			parse_lines_feed(&l, text + i, KG_MIN(split, sizeof text - 1 - i), feed_line, &c);
		assert_int_equal(q.n, 3);
		assert_int_equal(q.v[0]->generation, 1);
		assert_int_equal(q.v[1]->generation, 2);
		assert_int_equal(q.v[2]->generation, 3);
		assert_true(l.oversize == 1);
		assert_int_equal(parse_lines_reset(&l), 0);
		parse_lines_free(&l);
		obsq_clear(&q);
		free(q.v);
		parse_log_free(&p);
	}
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_kafka28),
		cmocka_unit_test(test_golden_kafka37),
		cmocka_unit_test(test_golden_kafka40_classic),
		cmocka_unit_test(test_golden_kafka40_consumer),
		cmocka_unit_test(test_golden_kafka43_classic),
		cmocka_unit_test(test_golden_kafka43_consumer),
		cmocka_unit_test(test_local_time),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_lenient),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_leave_memory),
		cmocka_unit_test(test_completing),
		cmocka_unit_test(test_fence_text),
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests_name("parse_log", tests, NULL, NULL);
}

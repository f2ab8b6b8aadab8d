/*
 * test_parse_json.c: the JSON parsers: kgtop's jsonl schema (reader and
 * writer), the observation table both it and recordings use, Jolokia
 * bulk answers and MBean names, librdkafka statistics.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/intern.h"
#include "model/snapshot.h"
#include "sources/trace/parse_jolokia.h"
#include "record/json.h"
#include "record/jsonl.h"
#include "record/obs_codec.h"
#include "sources/trace/parse_rdstats.h"
#include "trace_util.h"

/* Parse one jsonl line expecting rc; returns the observation or NULL. */
static kg_obs *
jl(kg_obsq *q, const char *line, kg_parse_rc want)
{
	kg_parse_rc rc;
	obsq_clear(q);
	rc = jsonl_parse_line(line, strlen(line), q);
	if (rc != want)
		fail_msg("jsonl %s: %s, want %s", line, parse_rc_name(rc), parse_rc_name(want));
	return q->n > 0 ? q->v[0] : NULL;
}

/* Every field survives writer -> reader, also under a locale with a decimal comma. */
static void
test_jsonl_roundtrip(void **state)
{
	kg_obs *o = obs_new(KG_OBS_METRICS, INT64_C(1795959901123456), intern_group("rt-group"), "demo"), *b;
	kg_tp tp[3];
	kg_obsq q = { 0 };
	sbuf s1 = { 0 }, s2 = { 0 };
	(void)state;
	setlocale(LC_NUMERIC, "de_DE.UTF-8"); /* may not exist; harmless then */
	obs_member(o, "m-1", "c-1", "i-1", "10.0.0.1");
	obs_text(o, "quote \" backslash \\ slash / é");
	o->reason = KG_REASON_MAX_POLL;
	o->proto = KG_PROTO_EAGER;
	o->generation = 12;
	o->nmembers = 4;
	tp[0].topic = intern_topic("t-b");
	tp[0].partition = 2;
	tp[1].topic = intern_topic("t-a");
	tp[1].partition = 7;
	tp[2].topic = intern_topic("t-a");
	tp[2].partition = 0;
	obs_parts(o, tp, 3);
	o->session_timeout_ms = 45000;
	o->max_poll_ms = 300000;
	o->hb_age_us = 2000000;
	o->poll_gap_us = 3;
	o->poll_gap_max_us = 4;
	o->rebalance_latency_avg_us = 5;
	o->rebalance_latency_max_us = 6;
	o->rebalance_total = 7;
	o->failed_rebalances = 8;
	o->assigned_count = 9;
	o->value = 10;
	o->hb_rate = 0.333333;
	jsonl_write_format(&s1, o);
	assert_non_null(strstr(s1.s, "\"heartbeat_rate\":0.333333"));
	assert_non_null(strstr(s1.s, "\"partitions\":{\"t-a\":[0,7],\"t-b\":[2]}"));
	b = jl(&q, s1.s, KG_PARSE_OBS);
	b->source = o->source;
	jsonl_write_format(&s2, b);
	assert_string_equal(s1.s, s2.s);
	/* control characters are escaped by the writer and never reach the screen through the reader */
	obs_text(o, "newline \n tab \t");
	sbuf_reset(&s1);
	jsonl_write_format(&s1, o);
	assert_non_null(strstr(s1.s, "\"newline \\n tab \\t\""));
	b = jl(&q, s1.s, KG_PARSE_OBS);
	assert_string_equal(b->text, "newline ? tab ?");
	setlocale(LC_NUMERIC, "C");
	obsq_clear(&q);
	free(q.v);
	obs_free(o);
	sbuf_free(&s1);
	sbuf_free(&s2);
}

/* Times, versions, kinds and types. */
static void
test_jsonl_schema(void **state)
{
	kg_obsq q = { 0 };
	kg_obs *o;
	(void)state;
	o = jl(&q, "{\"v\":1,\"time\":\"2026-11-29T14:45:01.5+01:00\",\"kind\":\"assigned\",\"group\":\"g\",\"member\":\"m\","
		   "\"partitions\":{\"o\":[1,0,1]},\"extra\":{\"ignored\":true}}",
	       KG_PARSE_OBS);
	assert_true(o->time_us == INT64_C(1795959901500000));
	assert_int_equal(o->nparts, 2);
	o = jl(&q, "{\"v\":1,\"time\":\"2026-11-29T13:45:01Z\",\"kind\":\"heartbeat\",\"client\":\"c\",\"value\":1200}",
	       KG_PARSE_OBS);
	assert_int_equal(o->group, -1);
	assert_true(o->value == 1200);
	/* versions and kinds from the future are not understood, but not malformed either */
	jl(&q, "{\"v\":2,\"ts\":1,\"kind\":\"revoked\",\"group\":\"g\"}", KG_PARSE_UNPARSED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"teleported\",\"group\":\"g\"}", KG_PARSE_UNPARSED);
	/* broken */
	jl(&q, "{\"ts\":1,\"kind\":\"revoked\",\"group\":\"g\"}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"kind\":\"revoked\",\"group\":\"g\"}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"revoked\"}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"revoked\",\"group\":\"\"}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"revoked\",\"group\":7}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"revoked\",\"group\":\"g\",\"partitions\":{\"o\":[-1]}}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"revoked\",\"group\":\"g\",\"partitions\":[1]}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"revoked\",\"group\":\"g\",\"generation\":1.5}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"revoked\",\"group\":\"g\",\"member\":3}", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,\"time\":\"yesterday\",\"kind\":\"revoked\",\"group\":\"g\"}", KG_PARSE_MALFORMED);
	jl(&q, "[1,2]", KG_PARSE_MALFORMED);
	jl(&q, "{\"v\":1,", KG_PARSE_MALFORMED);
	jl(&q, "   ", KG_PARSE_SKIPPED);
	/* strings are sanitized */
	o = jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"left\",\"group\":\"g\",\"member\":\"a\\u001b[2Jb\",\"reason\":\"max_poll\"}",
	       KG_PARSE_OBS);
	assert_string_equal(o->member_id, "a?[2Jb");
	assert_int_equal(o->reason, KG_REASON_MAX_POLL);
	obsq_clear(&q);
	free(q.v);
}

/* RFC 3339 times. */
static void
test_jsonl_time(void **state)
{
	int64_t t;
	(void)state;
	assert_int_equal(json_parse_time("1970-01-01T00:00:00Z", &t), 0);
	assert_true(t == 0);
	assert_int_equal(json_parse_time("2000-03-01T00:00:00.000001Z", &t), 0);
	assert_true(t == INT64_C(951868800000001));
	assert_int_equal(json_parse_time("2026-11-29T13:45:01-02:30", &t), 0);
	assert_true(t == INT64_C(1795968901000000));
	assert_int_equal(json_parse_time("2026-11-29T13:45:01", &t), -1);
	assert_int_equal(json_parse_time("2026-11-29T13:45:01Zjunk", &t), -1);
	assert_int_equal(json_parse_time("2026-11-29T13:45:01.Z", &t), -1);
}

/* One table, two spellings: each reader takes the other's keys too, its own first; a bad value under the other's is ignored. */
static void
test_obs_spellings(void **state)
{
	kg_obsq q = { 0 };
	kg_obs *o;
	cJSON *j;
	sbuf b = { 0 };
	char err[256];
	(void)state;
	o = jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"left\",\"group\":\"g\",\"member_id\":\"m\",\"max_poll_ms\":5,\"hb_rate\":0.5}",
	       KG_PARSE_OBS);
	assert_string_equal(o->member_id, "m");
	assert_true(o->max_poll_ms == 5);
	assert_true(o->hb_rate == 0.5);
	o = jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"left\",\"group\":\"g\",\"member_id\":\"b\",\"member\":\"a\"}", KG_PARSE_OBS);
	assert_string_equal(o->member_id, "a");
	o = jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"left\",\"group\":\"g\",\"member_id\":5,\"nmembers\":-7}", KG_PARSE_OBS);
	assert_null(o->member_id);
	assert_int_equal(o->nmembers, -1);
	/* the trace has no source: it is the reader's */
	o = jl(&q, "{\"v\":1,\"ts\":1,\"kind\":\"left\",\"group\":\"g\",\"source\":\"demo\"}", KG_PARSE_OBS);
	assert_string_equal(o->source, "jsonl");
	/* a recording's reader takes trace spellings; its writer writes its own, exactly */
	j = cJSON_Parse("{\"kind\":\"left\",\"ts\":7,\"group\":\"g\",\"source\":\"demo\",\"member\":\"x\",\"reason\":\"max_poll\","
			"\"generation\":3,\"heartbeat_rate\":0.5,\"partitions\":{\"t\":[1,0,1]},\"client_id\":null}");
	assert_int_equal(obs_codec_read(j, OBS_RECORDING, "", &o, err, sizeof err), 0);
	obs_codec_write(&b, o, OBS_RECORDING);
	assert_string_equal(sbuf_str(&b), "{\"kind\":\"left\",\"time\":7,\"group\":\"g\",\"source\":\"demo\",\"member_id\":\"x\","
					  "\"reason\":\"max_poll\",\"generation\":3,\"hb_rate\":0.5,\"partitions\":{\"t\":[0,1]}}");
	obs_free(o);
	cJSON_Delete(j);
	/* a recording says what is wrong, under its own key */
	j = cJSON_Parse("{\"kind\":\"left\",\"time\":7,\"generation\":\"x\"}");
	assert_int_equal(obs_codec_read(j, OBS_RECORDING, "", &o, err, sizeof err), OBS_MALFORMED);
	assert_string_equal(err, "obs left: bad generation");
	cJSON_Delete(j);
	j = cJSON_Parse("{\"kind\":\"left\"}");
	assert_int_equal(obs_codec_read(j, OBS_RECORDING, "", &o, err, sizeof err), OBS_MALFORMED);
	assert_string_equal(err, "obs left: no time");
	cJSON_Delete(j);
	sbuf_free(&b);
	obsq_clear(&q);
	free(q.v);
}

/* kgtop-trace(5) lists every field of the table with both its keys and its type. */
static void
test_obs_table_documented(void **state)
{
	const char *src = getenv("top_srcdir");
	char path[1024], line[512];
	FILE *f;
	int i, nrows = 0;
	char rows[64][3][64];
	bool in = false;
	(void)state;
	snprintf(path, sizeof path, "%s/doc/kgtop-trace.5", src ? src : ".");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL && nrows < 64) {
		char *c[4] = { line, NULL, NULL, NULL };
		int k;
		if (strncmp(line, ".TS", 3) == 0 || strncmp(line, ".TE", 3) == 0) {
			in = line[2] == 'S';
			continue;
		}
		if (!in || strchr(line, '\t') == NULL)
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (k = 1; k < 4 && c[k - 1] != NULL; k++) {
			c[k] = strchr(c[k - 1], '\t');
			if (c[k] != NULL)
				*c[k]++ = '\0';
		}
		for (k = 0; k < 3; k++)
			snprintf(rows[nrows][k], sizeof rows[nrows][k], "%s", c[k] ? c[k] : "");
		nrows++;
	}
	fclose(f);
	for (i = 0; i < obs_codec_nfields(); i++) {
		obs_codec_field fl = obs_codec_field_at(i);
		const char *tk = fl.key[OBS_TRACE] ? fl.key[OBS_TRACE] : "\\-";
		const char *rk = fl.key[OBS_TRACE] && strcmp(fl.key[OBS_RECORDING], fl.key[OBS_TRACE]) == 0 ? "" : fl.key[OBS_RECORDING];
		int r;
		/* recording-only fields share the trace column's "\\-": their recording key tells them apart */
		for (r = 0; r < nrows; r++) {
			if (strcmp(rows[r][0], tk) == 0 && (fl.key[OBS_TRACE] != NULL || strcmp(rows[r][1], rk) == 0))
				break;
		}
		if (r == nrows)
			fail_msg("kgtop-trace(5): no row for %s / %s", tk, fl.key[OBS_RECORDING]);
		if (strcmp(rows[r][1], rk) != 0 || strcmp(rows[r][2], fl.type) != 0)
			fail_msg("kgtop-trace(5): %s: \"%s\" %s, the table says \"%s\" %s", tk, rows[r][1], rows[r][2], rk, fl.type);
	}
}

/* MBean names are parsed by properties: order, quoting and escapes. */
static void
test_mbean_names(void **state)
{
	char v[128];
	(void)state;
	assert_int_equal(parse_jolokia_mbean_prop("kafka.consumer:client-id=c-1,type=consumer-metrics", "client-id", v,
						  sizeof v),
			 0);
	assert_string_equal(v, "c-1");
	assert_int_equal(parse_jolokia_mbean_prop("kafka.consumer:type=consumer-metrics,client-id=c-1", "type", v, sizeof v),
			 0);
	assert_string_equal(v, "consumer-metrics");
	assert_int_equal(parse_jolokia_mbean_prop("kafka.consumer:client-id=\"a,b=\\\"c\\\"\\\\d\\*\",type=x",
						  "client-id", v, sizeof v),
			 0);
	assert_string_equal(v, "a,b=\"c\"\\d*");
	assert_int_equal(parse_jolokia_mbean_prop("kafka.consumer:client-id=\"a,b\",type=x", "type", v, sizeof v), 0);
	assert_string_equal(v, "x");
	/* a key that is a suffix of another is not it */
	assert_int_equal(parse_jolokia_mbean_prop("kafka.consumer:xclient-id=c,type=x", "client-id", v, sizeof v), -1);
	assert_int_equal(parse_jolokia_mbean_prop("no-colon", "type", v, sizeof v), -1);
	assert_int_equal(parse_jolokia_mbean_prop("d:client-id=\"unterminated", "client-id", v, sizeof v), -1);
	assert_int_equal(parse_jolokia_mbean_prop("d:novalue", "client-id", v, sizeof v), -1);
}

/* Bulk answers: errors, missing MBeans, a single MBean, bare NaN. */
static void
test_jolokia_answers(void **state)
{
	kg_obsq q = { 0 };
	kg_jolokia_result res;
	char err[200];
	static const char single[] =
		"[{\"request\":{\"mbean\":\"kafka.consumer:type=consumer-metrics,client-id=solo\",\"type\":\"read\"},"
		"\"value\":{\"last-poll-seconds-ago\":7,\"time-between-poll-max\":NaN},\"status\":200},"
		"{\"request\":{\"mbean\":\"kafka.consumer:type=consumer-coordinator-metrics,client-id=*\"},"
		"\"status\":404,\"error_type\":\"javax.management.InstanceNotFoundException\"},"
		"{\"status\":400,\"error\":\"java.lang.NumberFormatException: Character N is neither a decimal digit\"}]";
	(void)state;
	assert_int_equal(parse_jolokia_response(single, sizeof single - 1, 42, &q, &res, err, sizeof err), 0);
	assert_int_equal(res.reads, 3);
	assert_int_equal(res.failed, 1);
	assert_int_equal(res.clients, 1);
	assert_non_null(strstr(res.error, "NumberFormatException"));
	assert_string_equal(q.v[0]->client_id, "solo");
	assert_true(q.v[0]->poll_gap_us == 7000000);
	assert_true(q.v[0]->poll_gap_max_us == -1);
	assert_true(q.v[0]->time_us == 42);
	obsq_clear(&q);
	assert_int_equal(parse_jolokia_response("{\"status\":403,\"error\":\"forbidden\"}", 35, 0, &q, &res, err, sizeof err),
			 -1);
	assert_string_equal(err, "forbidden");
	assert_int_equal(parse_jolokia_response("<html>", 6, 0, &q, &res, err, sizeof err), -1);
	assert_int_equal(parse_jolokia_response("[]", 2, 0, &q, &res, err, sizeof err), 0);
	assert_int_equal(res.clients, 0);
	/* NaN inside strings is left alone */
	assert_int_equal(parse_jolokia_response("[{\"status\":500,\"error\":\"NaN Infinity\"}]", 39, 0, &q, &res, err,
						sizeof err),
			 0);
	assert_string_equal(res.error, "NaN Infinity");
	assert_int_equal(q.n, 0);
	free(q.v);
	assert_non_null(strstr(parse_jolokia_request(), "\"type\":\"read\""));
}

/* librdkafka statistics. */
static void
test_rdstats(void **state)
{
	kg_obsq q = { 0 };
	static const char c[] = "{\"client_id\":\"rk-1\",\"type\":\"consumer\",\"ts\":99,\"cgrp\":{\"state\":\"up\","
				"\"join_state\":\"wait-revoke-rebalance_cb\",\"rebalance_age\":10,\"rebalance_cnt\":2,"
				"\"rebalance_reason\":\"Application maximum poll interval (300000ms) exceeded by 12ms\","
				"\"assignment_size\":0}}";
	static const char p[] = "{\"client_id\":\"rk-p\",\"type\":\"producer\",\"ts\":1}";
	(void)state;
	assert_int_equal(parse_rdstats_line(c, sizeof c - 1, 77, &q), KG_PARSE_OBS);
	assert_true(q.v[0]->time_us == 77); /* no "time": the time it was read */
	assert_int_equal(q.v[0]->reason, KG_REASON_MAX_POLL);
	assert_true(q.v[0]->value == 10000);
	assert_true(q.v[0]->assigned_count == 0);
	assert_string_equal(q.v[0]->text,
			    "up/wait-revoke-rebalance_cb, last rebalance: Application maximum poll interval (300000ms) "
			    "exceeded by 12ms");
	assert_int_equal(parse_rdstats_line(p, sizeof p - 1, 0, &q), KG_PARSE_KNOWN);
	assert_int_equal(parse_rdstats_line("{}", 2, 0, &q), KG_PARSE_MALFORMED);
	assert_int_equal(parse_rdstats_line("{\"client_id\":\"x\",\"cgrp\":[]}", 27, 0, &q), KG_PARSE_MALFORMED);
	assert_int_equal(parse_rdstats_line("", 0, 0, &q), KG_PARSE_SKIPPED);
	assert_int_equal(q.n, 1);
	assert_int_equal(parse_rdstats_reason("group session timed out"), KG_REASON_SESSION_TIMEOUT);
	assert_int_equal(parse_rdstats_reason("Metadata for subscribed topic(s) has changed"), KG_REASON_METADATA);
	assert_int_equal(parse_rdstats_reason("group is rebalancing"), KG_REASON_UNKNOWN);
	assert_int_equal(parse_rdstats_reason(""), KG_REASON_NONE);
	obsq_clear(&q);
	free(q.v);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonl_roundtrip), cmocka_unit_test(test_jsonl_schema),
		cmocka_unit_test(test_jsonl_time),      cmocka_unit_test(test_obs_spellings),
		cmocka_unit_test(test_obs_table_documented), cmocka_unit_test(test_mbean_names),
		cmocka_unit_test(test_jolokia_answers), cmocka_unit_test(test_rdstats),
	};
	return cmocka_run_group_tests_name("parse_json", tests, NULL, NULL);
}

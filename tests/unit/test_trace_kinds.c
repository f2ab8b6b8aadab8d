/*
 * test_trace_kinds.c: the table of trace kinds holds together.
 *
 * Every row has what its way of reading needs (a line parser for a
 * stream, a document parser and its words for a poll), names are unique
 * and found whole, the "kinds:" list is the table's, and a spec of each
 * kind is accepted or refused by what its row says of file:// URLs.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/obs.h"
#include "sources/trace/trace.h"
#include "sources/trace/trace_kinds.h"
#include "util/util.h"

/* Each row is complete for its mode. */
static void
test_rows(void **state)
{
	const kg_trace_kind *k;
	size_t i, j;
	(void)state;
	assert_non_null(trace_kinds_at(0));
	for (i = 0; (k = trace_kinds_at(i)) != NULL; i++) {
		assert_non_null(k->name);
		assert_true(k->name[0] != '\0' && strchr(k->name, ':') == NULL);
		assert_true((k->state_new == NULL) == (k->state_free == NULL));
		if (k->mode == KG_TRACE_STREAM) {
			assert_non_null(k->line);
			assert_null(k->document);
		} else {
			assert_int_equal(k->mode, KG_TRACE_POLL);
			assert_non_null(k->document);
			assert_null(k->line);
			assert_true(k->max_document > 0);
			assert_non_null(k->schedule_words);
			assert_non_null(k->request_words);
			assert_true(k->post == NULL || k->content_type != NULL);
		}
		for (j = 0; j < i; j++)
			assert_string_not_equal(trace_kinds_at(j)->name, k->name);
		assert_ptr_equal(trace_kinds_find(k->name, strlen(k->name)), k);
		/* a prefix is not a kind */
		assert_null(trace_kinds_find(k->name, strlen(k->name) - 1));
	}
	assert_null(trace_kinds_find("logs", 4));
}

/* The list in messages is the table's, in its order. */
static void
test_list(void **state)
{
	char list[256], want[256] = "";
	const kg_trace_kind *k;
	size_t i;
	(void)state;
	trace_kinds_list(list, sizeof list);
	for (i = 0; (k = trace_kinds_at(i)) != NULL; i++) {
		if (i > 0)
			strcat(want, ", ");
		strcat(want, k->name);
	}
	assert_string_equal(list, want);
	assert_string_equal(list, "log, jsonl, rdstats, jolokia");
	trace_kinds_list(list, 5);
	assert_string_equal(list, "log,");
	/* the line streams: the rows read as lines, in table order (--trace-from-start's help names them) */
	want[0] = '\0';
	for (i = 0; (k = trace_kinds_at(i)) != NULL; i++) {
		if (k->mode != KG_TRACE_STREAM)
			continue;
		if (want[0] != '\0')
			strcat(want, ", ");
		strcat(want, k->name);
	}
	trace_kinds_list_streams(list, sizeof list);
	assert_string_equal(list, want);
	assert_string_equal(list, "log, jsonl, rdstats");
}

/* A spec of each kind: http:// always, file:// as the row says; an unknown kind lists the table. */
static void
test_specs(void **state)
{
	const kg_trace_kind *k;
	char spec[128], err[256];
	size_t i;
	(void)state;
	for (i = 0; (k = trace_kinds_at(i)) != NULL; i++) {
		snprintf(spec, sizeof spec, "%s:http://host-1:8080/x", k->name);
		assert_int_equal(trace_spec_check(spec, err, sizeof err), 0);
		snprintf(spec, sizeof spec, "%s:file:///var/log/x", k->name);
		err[0] = '\0';
		assert_int_equal(trace_spec_check(spec, err, sizeof err), k->file_ok ? 0 : -1);
		if (!k->file_ok)
			assert_non_null(strstr(err, "needs an http:// or https:// URL"));
	}
	assert_int_equal(trace_spec_check("nope:http://h/x", err, sizeof err), -1);
	assert_non_null(strstr(err, "(kinds: log, jsonl, rdstats, jolokia)"));
}

/* A poll kind's document parser: a failure is the whole message and leaves the detail alone. */
static void
test_documents(void **state)
{
	const kg_trace_kind *k;
	kg_obsq q = { 0 };
	char detail[64], err[256];
	size_t i;
	(void)state;
	for (i = 0; (k = trace_kinds_at(i)) != NULL; i++) {
		if (k->mode != KG_TRACE_POLL)
			continue;
		util_strlcpy(detail, "before", sizeof detail);
		err[0] = '\0';
		assert_int_equal(k->document("{{", 2, 1, &q, detail, sizeof detail, err, sizeof err), -1);
		assert_string_equal(detail, "before");
		assert_true(err[0] != '\0');
		assert_int_equal(q.n, 0);
	}
	free(q.v);
}

/* Run. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_documents),
	};
	return cmocka_run_group_tests_name("trace_kinds", tests, NULL, NULL);
}

/*
 * trace_kinds.c: the table of trace kinds (see trace_kinds.h).
 *
 * Each row names its parser through the table's signatures; a parser
 * whose own API differs gets a few lines of glue here, next to its row.
 */
#include "config.h"

#include "sources/trace/trace_kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/jsonl.h"
#include "sources/trace/parse_jolokia.h"
#include "sources/trace/parse_log.h"
#include "sources/trace/parse_rdstats.h"
#include "util/util.h"

#define MAX_LINE (64u << 10)
#define MAX_LINE_RDSTATS (16u << 20)
#define MAX_JOLOKIA (16u << 20)

/* log: a parser per source (local-time cache, the last member that left). */
static void *
log_new(void)
{
	kg_log_parser *p = xcalloc(1, sizeof *p);
	parse_log_init(p);
	return p;
}

/* log: free a parser. */
static void
log_free(void *state)
{
	parse_log_free(state);
	free(state);
}

/* log: one server.log line. */
static kg_parse_rc
log_line(void *state, const char *line, size_t len, int64_t now_us, kg_obsq *out)
{
	(void)now_us;
	return parse_log_line(state, line, len, out);
}

/* jsonl: one line of kgtop's schema. */
static kg_parse_rc
jsonl_line(void *state, const char *line, size_t len, int64_t now_us, kg_obsq *out)
{
	(void)state;
	(void)now_us;
	return jsonl_parse_line(line, len, out);
}

/* rdstats: one statistics object, timed by its "time" or by when it was read. */
static kg_parse_rc
rdstats_line(void *state, const char *line, size_t len, int64_t now_us, kg_obsq *out)
{
	(void)state;
	return parse_rdstats_line(line, len, now_us, out);
}

/* jolokia: one bulk answer; a failure when it is none or every read failed. */
static int
jolokia_document(const char *body, size_t len, int64_t now_us, kg_obsq *out, char *detail, size_t detailsz,
		 char *err, size_t errsz)
{
	kg_jolokia_result res;
	char why[200];
	if (parse_jolokia_response(body, len, now_us, out, &res, why, sizeof why) < 0)
		return util_err(err, errsz, "not a Jolokia answer: %s", why);
	if (res.reads > 0 && res.failed == res.reads)
		return util_err(err, errsz, "every read failed: %s", res.error);
	if (res.failed > 0)
		snprintf(detail, detailsz, "%d client%s; %d of %d reads failed: %s", res.clients,
			 res.clients == 1 ? "" : "s", res.failed, res.reads, res.error);
	else
		snprintf(detail, detailsz, "%d client%s", res.clients, res.clients == 1 ? "" : "s");
	util_sanitize_text(detail);
	return 0;
}

/* The kinds, in the order messages list them. */
static const kg_trace_kind kinds[] = {
	{
		.name = "log",
		.mode = KG_TRACE_STREAM,
		.file_ok = true,
		.describes_groups = true,
		.names_members = true,
		.tells_gaps = true,
		.max_line = MAX_LINE,
		.state_new = log_new,
		.state_free = log_free,
		.line = log_line,
	},
	{
		.name = "jsonl",
		.mode = KG_TRACE_STREAM,
		.file_ok = true,
		.describes_groups = true,
		.max_line = MAX_LINE,
		.line = jsonl_line,
	},
	{
		.name = "rdstats",
		.mode = KG_TRACE_STREAM,
		.file_ok = true,
		.max_line = MAX_LINE_RDSTATS,
		.line = rdstats_line,
	},
	{
		.name = "jolokia",
		.mode = KG_TRACE_POLL,
		.name_port = true,
		.dir_url = true, /* Jolokia 2's JVM agent answers /jolokia/ and 404 to /jolokia */
		.max_document = MAX_JOLOKIA,
		.post = parse_jolokia_request,
		.content_type = "application/json",
		.schedule_words = "one bulk read per interval",
		.request_words = "bulk read",
		.document = jolokia_document,
	},
};

/* Row i. */
const kg_trace_kind *
trace_kinds_at(size_t i)
{
	return i < KG_ARRAY_LEN(kinds) ? &kinds[i] : NULL;
}

/* The kind called name. */
const kg_trace_kind *
trace_kinds_find(const char *name, size_t n)
{
	const kg_trace_kind *k;
	size_t i;
	for (i = 0; (k = trace_kinds_at(i)) != NULL; i++) {
		if (strlen(k->name) == n && strncmp(name, k->name, n) == 0)
			return k;
	}
	return NULL;
}

/* The names of the kinds whose mode is mode (-1: all), ", "-separated, into buf. */
static void
list_names(char *buf, size_t n, int mode)
{
	const kg_trace_kind *k;
	size_t i, at = 0;
	if (n == 0)
		return;
	buf[0] = '\0';
	for (i = 0; (k = trace_kinds_at(i)) != NULL && at < n; i++) {
		if (mode < 0 || (int)k->mode == mode)
			at += (size_t)snprintf(buf + at, n - at, "%s%s", at > 0 ? ", " : "", k->name);
	}
}

/* The kinds' names, ", "-separated, into buf. */
void
trace_kinds_list(char *buf, size_t n)
{
	list_names(buf, n, -1);
}

/* The line streams' names (the kinds read as lines, tailed), likewise. */
void
trace_kinds_list_streams(char *buf, size_t n)
{
	list_names(buf, n, KG_TRACE_STREAM);
}

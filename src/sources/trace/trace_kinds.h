/*
 * trace_kinds.h: the kinds of trace stream, one row each.
 *
 * A kind is what the KIND in --trace KIND:URL names: how its URL is read
 * (KG_TRACE_STREAM: lines, tailed; KG_TRACE_POLL: one document per
 * interval), its parser, its limits, what it sends, and the words its
 * messages use.  The trace source (trace.c) and the transport
 * (trace_transport.c) read only these fields; neither tests a kind by
 * name.  To add a kind: write its parser (parse_NAME.[ch], observations
 * into a kg_obsq), add one row to the table in trace_kinds.c, its tests,
 * and its section in kgtop-trace(5).
 */
#ifndef KGTOP_SOURCES_TRACE_TRACE_KINDS_H
#define KGTOP_SOURCES_TRACE_TRACE_KINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "sources/trace/parse_lines.h"
#include "sources/trace/trace_transport.h"

/* One kind of trace stream. */
typedef struct kg_trace_kind {
	const char *name;           /* as written in --trace NAME:URL; the first word of a source's name */
	kg_trace_mode mode;         /* STREAM (lines, tailed) or POLL (a document per interval) */
	bool file_ok;               /* file:// URLs are accepted (else only http:// and https://) */
	bool name_port;             /* a source's name keeps the URL's port: "jolokia:app-1:8778" */
	bool dir_url;               /* its URL names a directory: a path without a final '/' gets one */
	bool describes_groups;      /* its observations describe groups (trace_groups.h) */
	bool names_members;         /* ... by their state alone: it names members, never what they own (a coordinator's log) */
	bool tells_gaps;            /* STREAM: a gap before what it reads is told (KG_OBS_LOG_FROM): a coordinator's log,
				     * whose lines time rebalances from their first */
	size_t max_line;            /* STREAM: longest line kept, unless the config sets one (0: 64 KiB) */
	size_t max_document;        /* POLL: largest answer kept */
	/* POLL: what one request sends; NULL post: GET */
	const char *(*post)(void);
	const char *content_type;
	/* POLL: words for the log: its schedule ("one bulk read per interval"), one request ("bulk read") */
	const char *schedule_words;
	const char *request_words;
	/* STREAM: a parser's state per source (NULL: none), and the line parser */
	void *(*state_new)(void);
	void (*state_free)(void *state);
	kg_parse_rc (*line)(void *state, const char *line, size_t len, int64_t now_us, kg_obsq *out);
	/*
	 * POLL: the document parser.  Fills detail (what the health message
	 * says of a good answer: "2 clients") and returns 0, or fills err
	 * (the whole message) and returns -1 when the answer is a failure.
	 */
	int (*document)(const char *body, size_t len, int64_t now_us, kg_obsq *out, char *detail, size_t detailsz,
			char *err, size_t errsz);
} kg_trace_kind;

/* Row i of the table; NULL past its end. */
const kg_trace_kind *trace_kinds_at(size_t i);
/* The kind called name (n bytes, not NUL-terminated); NULL when none is. */
const kg_trace_kind *trace_kinds_find(const char *name, size_t n);
/* The kinds' names, ", "-separated in table order ("log, jsonl, rdstats, jolokia"), into buf. */
void trace_kinds_list(char *buf, size_t n);
/* The names of the line streams (KG_TRACE_STREAM) alone, likewise ("log, jsonl, rdstats"). */
void trace_kinds_list_streams(char *buf, size_t n);

#endif

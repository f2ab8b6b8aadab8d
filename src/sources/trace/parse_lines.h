/*
 * parse_lines.h: splitting a byte stream into bounded lines, and the
 * verdicts the trace parsers give a line.
 *
 * Trace streams (broker logs, jsonl, librdkafka statistics) arrive in
 * arbitrary pieces.  A kg_lines assembler keeps at most one partial line
 * and hands every complete line (without its "\n" or "\r\n") to a
 * callback; a line longer than the cap is dropped whole and counted, so a
 * stream of garbage without newlines never grows memory.  When a line is
 * already complete inside the piece it is passed without copying.  The
 * verdicts are declared in model/parse_rc.h (the jsonl reader in
 * src/record gives them too).
 */
#ifndef KGTOP_SOURCES_TRACE_PARSE_LINES_H
#define KGTOP_SOURCES_TRACE_PARSE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/parse_rc.h"

/* Per-verdict line counters. */
typedef struct kg_parse_counts {
	uint64_t n[KG_PARSE_COUNT];
	uint64_t oversize; /* lines dropped for exceeding the cap */
} kg_parse_counts;

/* Called for each complete line; line is not NUL-terminated. */
typedef void (*kg_line_fn)(void *arg, const char *line, size_t len);

typedef struct kg_lines {
	char *buf;        /* the partial line */
	size_t len;
	size_t cap;
	size_t max;       /* longest line kept, in bytes */
	bool skipping;    /* inside an over-long line: drop through the next newline */
	uint64_t oversize; /* lines dropped for length */
} kg_lines;

/* Prepare an assembler for lines of at most max bytes. */
void parse_lines_init(kg_lines *l, size_t max);
/* Feed n bytes; fn is called for every line completed by them. */
void parse_lines_feed(kg_lines *l, const char *p, size_t n, kg_line_fn fn, void *arg);
/* Drop a partial line (reconnection, rotation); returns how many bytes it had. */
size_t parse_lines_reset(kg_lines *l);
/* Skip input through the next newline (after joining a stream mid-line). */
void parse_lines_resync(kg_lines *l);
/* Release memory. */
void parse_lines_free(kg_lines *l);
/* Name of a verdict: "obs", "known", "skipped", "unparsed", "malformed". */
const char *parse_rc_name(kg_parse_rc rc);

#endif

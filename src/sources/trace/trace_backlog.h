/*
 * trace_backlog.h: bytes of a line stream received but not yet parsed.
 *
 * A trace source parses at most a budget of observations and of time per
 * refresh (trace.h); what arrives beyond it waits here, in arrival order,
 * and is fed to the line assembler a whole line at a time when the next
 * refresh has room.  The transport bounds it: it asks for no more of a
 * file while bytes wait, and pauses a live stream (TCP pushes back on the
 * sender) while it holds a chunk's worth, so memory never follows what a
 * stream sends.
 */
#ifndef KGTOP_SOURCES_TRACE_TRACE_BACKLOG_H
#define KGTOP_SOURCES_TRACE_TRACE_BACKLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "sources/trace/parse_lines.h"

typedef struct kg_backlog {
	char *buf;
	size_t off; /* first byte not fed yet */
	size_t len; /* bytes in buf, fed or not */
	size_t cap;
} kg_backlog;

/* Append n bytes. */
void trace_backlog_add(kg_backlog *b, const char *p, size_t n);
/* Bytes waiting. */
size_t trace_backlog_size(const kg_backlog *b);
/*
 * Feed the waiting bytes to l, one line at a time, while more(arg) says
 * there is room (asked before each line); a trailing partial line is fed
 * too (the assembler keeps it).  Returns the lines completed.
 */
size_t trace_backlog_feed(kg_backlog *b, kg_lines *l, kg_line_fn fn, void *fn_arg, bool (*more)(void *arg),
			  void *more_arg);
/* Release the memory. */
void trace_backlog_free(kg_backlog *b);

#endif

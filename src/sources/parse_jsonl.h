/*
 * parse_jsonl.h: kgtop's JSON-lines trace schema (version 1) into observations.
 *
 * The reader of what jsonl_write.h writes, also meant for hand-written or
 * foreign producers (a consumer's rebalance listener can log these lines).
 * Each line is one object with "v":1, a time ("ts": microseconds since the
 * epoch, or "time": an RFC 3339 string) and a "kind"; every other field is
 * optional and unknown fields are ignored, so later minor additions do not
 * break older readers.  A line with another "v" is counted as unparsed; a
 * line that is not an object of the right types is malformed.  Strings are
 * sanitized.  See kgtop-trace(5) for the fields.
 */
#ifndef KGTOP_SOURCES_PARSE_JSONL_H
#define KGTOP_SOURCES_PARSE_JSONL_H

#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "sources/parse_lines.h"

/* Parse one line; an observation is appended to out on KG_PARSE_OBS. */
kg_parse_rc parse_jsonl_line(const char *line, size_t len, kg_obsq *out);
/* Parse an RFC 3339 time ("2026-11-29T13:45:01.123Z", "...+01:00") into microseconds; 0 or -1. */
int parse_jsonl_time(const char *s, int64_t *us);

#endif

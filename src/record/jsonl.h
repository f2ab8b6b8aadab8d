/*
 * jsonl.h: kgtop's JSON-lines trace (version 1): observations, one per line.
 *
 * The writer is what --export-trace writes, so that a second kgtop can
 * follow the file with "--trace jsonl:file:///path"; the reader is that
 * trace kind, also meant for hand-written or foreign producers (a
 * consumer's rebalance listener can log these lines):
 *   {"v":1,"ts":1764423901123456,"kind":"revoked","group":"orders",
 *    "member":"consumer-a-6f1c","client":"consumer-a","protocol":"cooperative",
 *    "partitions":{"orders":[4]}}
 * Both are the trace schema of the observation table (obs_codec.h): keys
 * in a fixed order, unknown values left out, numbers without the locale.
 * Each line is one object with "v":1, a time ("ts": microseconds since
 * the epoch, or "time": an RFC 3339 string) and a "kind"; every other
 * field is optional and unknown fields are ignored, so later minor
 * additions do not break older readers.  A line with another "v" or an
 * unknown kind is counted as unparsed; a line that is not an object of
 * the right types is malformed.  Strings are sanitized.  See
 * kgtop-trace(5) for the fields.
 */
#ifndef KGTOP_RECORD_JSONL_H
#define KGTOP_RECORD_JSONL_H

#include <stddef.h>
#include <stdio.h>

#include "model/obs.h"
#include "model/parse_rc.h"
#include "util/util.h"

/* Parse one line; an observation is appended to out on KG_PARSE_OBS. */
kg_parse_rc jsonl_parse_line(const char *line, size_t len, kg_obsq *out);
/* Append one observation as a JSON object (no newline) to out. */
void jsonl_write_format(sbuf *out, const kg_obs *o);
/* Write one observation as a line to f and flush it; 0, or -1 on a write error (errno set). */
int jsonl_write_obs(FILE *f, const kg_obs *o);

#endif

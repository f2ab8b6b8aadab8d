/*
 * obs_codec.h: observations (kg_obs) as JSON objects, driven by one table.
 *
 * Two formats carry observations: a recording's "obs" (kgtop-record(5),
 * the recorder writes and replay reads it) and a JSON-lines trace
 * (kgtop-trace(5), --export-trace writes and --trace jsonl: reads it).
 * Both are the same table of fields: each has a key in each schema (the
 * recording says "member_id", the trace "member"), a type, and where it
 * lives in a kg_obs.  A writer writes the fields it knows in its schema's
 * order and key spelling, leaving out unknown values; a reader accepts
 * either schema's spelling of a field (its own first), ignores keys it
 * does not know, and treats null as absent.
 *
 * What differs besides the spellings is said once per schema:
 *  - the recording is kgtop's own output, read back exactly: strings
 *    verbatim, every integer its type holds, rates with 17 digits, and
 *    every line names its kind, time, group (null when none) and source;
 *  - a trace may come from other producers: it opens with "v":1, strings
 *    are sanitized, names must not be empty, integers keep within their
 *    field's bounds, an unknown protocol name is ignored, a negative rate
 *    is unknown, rates have six decimals, and its source is the reader's.
 */
#ifndef KGTOP_RECORD_OBS_CODEC_H
#define KGTOP_RECORD_OBS_CODEC_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "model/obs.h"
#include "util/util.h"

typedef enum obs_schema {
	OBS_RECORDING, /* a recording's "obs" entries (kgtop-record(5)) */
	OBS_TRACE,     /* a JSON-lines trace, version 1 (kgtop-trace(5)) */
	OBS_SCHEMA_COUNT
} obs_schema;

/* The trace schema's version: every trace object has "v":KG_JSONL_VERSION. */
#define KG_JSONL_VERSION 1

/* Read results besides 0. */
#define OBS_MALFORMED -1     /* a field missing or of the wrong type */
#define OBS_UNKNOWN_KIND -2  /* a "kind" string this kgtop does not know */
#define OBS_OTHER_VERSION -3 /* a trace object of another version */

/* Append o as one JSON object (no newline) in schema s. */
void obs_codec_write(sbuf *out, const kg_obs *o, obs_schema s);
/*
 * Read the object j in schema s into a new observation; source names the
 * reporting source when the schema has none (a static string).  0, or
 * OBS_MALFORMED, OBS_UNKNOWN_KIND or OBS_OTHER_VERSION with err
 * ("obs KIND: bad KEY").
 */
int obs_codec_read(const cJSON *j, obs_schema s, const char *source, kg_obs **out, char *err, size_t errsz);

/* One row of the table, for documentation and tests. */
typedef struct obs_codec_field {
	const char *key[OBS_SCHEMA_COUNT]; /* NULL: not in that schema */
	const char *type;                  /* "string", "integer", ... */
} obs_codec_field;

/* The number of fields, and field i. */
int obs_codec_nfields(void);
obs_codec_field obs_codec_field_at(int i);

#endif

/*
 * json.h: the JSON pieces of the formats kgtop writes and reads.
 *
 * Writing goes into an sbuf, numbers without the locale (a decimal point
 * is always '.'); reading takes cJSON values and never trusts their type.
 * The recording (recorder.h, replay.h), the JSON-lines trace (jsonl.h)
 * and the --json report share these, so a partition set, a time or an
 * event is spelled the same way everywhere:
 *   partition set   {"orders":[0,4],"payments":[1]}  (topics and partitions in order)
 *   partition list  [{"topic":"orders","partition":0},...]  (--json's members; recordings' events)
 *   time            "2026-11-29T13:45:01.123Z"  (UTC, milliseconds)
 *   event           the --json event object (kgtop(1))
 */
#ifndef KGTOP_RECORD_JSON_H
#define KGTOP_RECORD_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/event.h"
#include "model/snapshot.h"
#include "model/tp.h"
#include "util/util.h"

/* The integers a JSON number (a double) carries exactly enough for kgtop, either sign. */
#define JSON_I64_LIMIT INT64_C(9200000000000000000)

/* ------------------------------------------------------------ writing */

/* A JSON string, or null for NULL. */
void json_put_str(sbuf *o, const char *s);
/* A double with up to 17 significant digits ('.' whatever the locale). */
void json_put_double(sbuf *o, double x);
/* A partition set of a sorted array as {"topic":[p,...],...} ({} when empty). */
void json_put_set(sbuf *o, const kg_tp *v, int n);
/* A partition set of an array in any order, written in set order (each topic named once, topics by name). */
void json_put_parts_set(sbuf *o, const kg_tp *v, int n);
/* A partition list as [{"topic":...,"partition":...},...] (--json). */
void json_put_list(sbuf *o, const kg_tp *v, int n);
/* An ISO 8601 UTC time with milliseconds, quoted. */
void json_put_time(sbuf *o, int64_t us);
/* Milliseconds of a time in microseconds (one decimal), or null when negative (not known). */
void json_put_ms(sbuf *o, int64_t us);
/* A number with two decimals (%.2f without printf), or null when negative (not known). */
void json_put_2f(sbuf *o, double x);
/* How an event writes its partitions: lists (recordings; --json up to schema 5) or sets (--json since schema 6). */
typedef enum { JSON_PARTS_LIST, JSON_PARTS_SET } json_parts;
/* One event as --json (JSON_PARTS_SET) and recordings (JSON_PARTS_LIST) write it (t: seconds since t0_us). */
void json_put_event(sbuf *o, const kg_event *e, int64_t t0_us, json_parts form);

/* ------------------------------------------------------------ reading */

/* An integral number within [lo, hi]; false when v is not one. */
bool json_get_int(const cJSON *v, int64_t lo, int64_t hi, int64_t *out);
/* An integral number within +-JSON_I64_LIMIT. */
bool json_get_i64(const cJSON *v, int64_t *out);
/* An integral number that fits an int32. */
bool json_get_i32(const cJSON *v, int32_t *out);
/* A string naming one of n values (value i is named name(i)); the value, or -1 when v is not one. */
int json_get_enum(const cJSON *v, int n, const char *(*name)(int));
/* The names of the enums recordings and traces carry, for json_get_enum(). */
const char *json_proto_name(int i);
const char *json_status_name(int i);
const char *json_limit_name(int i);
/* A string (a new copy) or null (NULL); false for anything else, absence included. */
bool json_get_str(const cJSON *v, char **out);
/*
 * A partition set {"topic":[p,...],...} into a sorted array without
 * duplicates (malloc'd, NULL when empty); 0, or -1 with err prefixed by
 * what.  foreign: from other producers, so topic names must not be empty
 * and are sanitized, and a set holds at most a million partitions.
 */
int json_get_set(const cJSON *o, bool foreign, kg_tp **out, int *n, const char *what, char *err, size_t errsz);
/* An RFC 3339 time ("2026-11-29T13:45:01.123Z", "...+01:00") into microseconds, 1970 to 2200; 0 or -1. */
int json_parse_time(const char *s, int64_t *us);

#endif

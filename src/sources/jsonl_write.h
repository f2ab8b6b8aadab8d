/*
 * jsonl_write.h: observations as kgtop's JSON-lines trace schema, version 1.
 *
 * One JSON object per line, keys in a fixed order, unknown fields left
 * out, so that a second kgtop can follow the file with
 * "--trace jsonl:file:///path" (parse_jsonl.h reads it back exactly).  The
 * schema is documented in kgtop-trace(5):
 *   {"v":1,"ts":1764423901123456,"kind":"revoked","group":"orders",
 *    "member":"consumer-a-6f1c","client":"consumer-a","protocol":"cooperative",
 *    "partitions":{"orders":[4]}}
 * Numbers are written without the locale (a decimal point is always '.').
 */
#ifndef KGTOP_SOURCES_JSONL_WRITE_H
#define KGTOP_SOURCES_JSONL_WRITE_H

#include <stdio.h>

#include "model/obs.h"
#include "util/util.h"

#define KG_JSONL_VERSION 1

/* Append one observation as a JSON object (no newline) to out. */
void jsonl_write_format(sbuf *out, const kg_obs *o);
/* Write one observation as a line to f and flush it; 0, or -1 on a write error (errno set). */
int jsonl_write_obs(FILE *f, const kg_obs *o);

#endif

/*
 * kv.h: key/value pairs and string lists, as options hand them to the
 * sources (librdkafka properties, group and topic regexes).
 */
#ifndef KGTOP_UTIL_KV_H
#define KGTOP_UTIL_KV_H

#include <stddef.h>

typedef struct kg_kv {
	char *key;
	char *value;
	char *origin; /* where it was set, for messages: NULL for -X, else "FILE:LINE" */
} kg_kv;

typedef struct kg_strlist {
	char **v;
	size_t n;
} kg_strlist;

#endif

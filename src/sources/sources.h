/*
 * sources.h: process-wide setup of the libraries sources use, and their
 * versions.
 */
#ifndef KGTOP_SOURCES_SOURCES_H
#define KGTOP_SOURCES_SOURCES_H

#include <stddef.h>

/* Initialise libcurl (before any thread starts); 0 or -1 with err. */
int sources_global_init(char *err, size_t errsz);
/* Release what sources_global_init() set up. */
void sources_global_cleanup(void);
/* librdkafka's version string. */
const char *sources_rdkafka_version(void);
/* libcurl's version, with its TLS library. */
const char *sources_curl_version(void);
/* cJSON's version. */
const char *sources_cjson_version(void);

#endif

/*
 * sources.c: library setup for the sources (libcurl's global state).
 */
#include "config.h"

#include "sources/sources.h"

#include <curl/curl.h>
#include <librdkafka/rdkafka.h>

#include "util/util.h"

/* Initialise libcurl. */
int
sources_global_init(char *err, size_t errsz)
{
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return util_err(err, errsz, "cannot initialise libcurl");
	return 0;
}

/* Clean up libcurl. */
void
sources_global_cleanup(void)
{
	curl_global_cleanup();
}

/* librdkafka's version. */
const char *
sources_rdkafka_version(void)
{
	return rd_kafka_version_str();
}

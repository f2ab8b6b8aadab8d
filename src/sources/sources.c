/*
 * sources.c: library setup for the sources (libcurl's global state), and
 * the versions of the libraries linked in, for --version.
 */
#include "config.h"

#include "sources/sources.h"

#include <stdio.h>

#include <cjson/cJSON.h>
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

/* libcurl's version, with its TLS library: "7.88.1 (OpenSSL/3.0.15)". */
const char *
sources_curl_version(void)
{
	static char v[128];
	const curl_version_info_data *d = curl_version_info(CURLVERSION_NOW);
	if (d == NULL)
		return "?";
	snprintf(v, sizeof v, "%s%s%s%s", d->version, d->ssl_version ? " (" : "", d->ssl_version ? d->ssl_version : "",
		 d->ssl_version ? ")" : "");
	return v;
}

/* cJSON's version. */
const char *
sources_cjson_version(void)
{
	return cJSON_Version();
}

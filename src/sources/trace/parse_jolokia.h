/*
 * parse_jolokia.h: Java consumer metrics read through a Jolokia agent.
 *
 * One bulk POST per interval reads two MBean patterns of every consumer in
 * the JVM: kafka.consumer:type=consumer-coordinator-metrics,client-id=*
 * (heartbeats, rebalances, assigned partitions) and
 * kafka.consumer:type=consumer-metrics,client-id=* (poll gaps).  The
 * answer is an array of per-read results whose values are keyed by MBean
 * names; a name is parsed by its properties (quoted values unquoted), never
 * matched as a raw string, so property order and quoting do not matter.
 * Every client id becomes one KG_OBS_METRICS observation with group -1:
 * the tracker joins it to the member with that client id.  A value of -1
 * (an event that never happened), NaN, Infinity, null or a missing
 * attribute means unknown; Jolokia versions that print NaN bare (not valid
 * JSON) are accepted.
 */
#ifndef KGTOP_SOURCES_TRACE_PARSE_JOLOKIA_H
#define KGTOP_SOURCES_TRACE_PARSE_JOLOKIA_H

#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"

/* What one response held. */
typedef struct kg_jolokia_result {
	int reads;        /* per-read results in the answer */
	int failed;       /* reads with an error status (404 for "no such MBean" is not one) */
	int clients;      /* observations produced */
	char error[160];  /* the first read error, sanitized; "" when none */
} kg_jolokia_result;

/* The bulk read request (a JSON array), a static string. */
const char *parse_jolokia_request(void);
/*
 * Parse a bulk response into one KG_OBS_METRICS per client id at now_us.
 * Returns 0, or -1 with err when the body is not a Jolokia answer at all.
 */
int parse_jolokia_response(const char *body, size_t len, int64_t now_us, kg_obsq *out, kg_jolokia_result *res,
			   char *err, size_t errsz);
/* The value of property key in an MBean name "domain:k=v,k2=\"q\"" (unquoted) into out; 0 or -1. */
int parse_jolokia_mbean_prop(const char *name, const char *key, char *out, size_t outsz);

#endif

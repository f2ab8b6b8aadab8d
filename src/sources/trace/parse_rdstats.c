/*
 * parse_rdstats.c: librdkafka statistics lines (see parse_rdstats.h).
 */
#include "config.h"

#include "sources/trace/parse_rdstats.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define SRC "rdstats"

/* The kg_reason a librdkafka rebalance reason implies. */
kg_reason
parse_rdstats_reason(const char *text)
{
	if (text == NULL || *text == '\0')
		return KG_REASON_NONE;
	if (strcasestr(text, "maximum poll interval") != NULL || strcasestr(text, "max.poll") != NULL)
		return KG_REASON_MAX_POLL;
	if (strcasestr(text, "session") != NULL && strcasestr(text, "time") != NULL)
		return KG_REASON_SESSION_TIMEOUT;
	if (strcasestr(text, "fenced") != NULL)
		return KG_REASON_FENCED;
	if (strcasestr(text, "metadata") != NULL || strcasestr(text, "subscri") != NULL ||
	    strcasestr(text, "assignor") != NULL)
		return KG_REASON_METADATA;
	if (strcasestr(text, "leave") != NULL || strcasestr(text, "unsubscribe") != NULL)
		return KG_REASON_GRACEFUL;
	return KG_REASON_UNKNOWN;
}

/* A non-negative number field scaled to an integer; -1 when absent or invalid. */
static int64_t
field(const cJSON *o, const char *key, double scale)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 || v->valuedouble * scale > 9e15)
		return -1;
	return (int64_t)llround(v->valuedouble * scale);
}

/* A string field or NULL. */
static const char *
str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Parse one statistics line. */
kg_parse_rc
parse_rdstats_line(const char *line, size_t len, int64_t now_us, kg_obsq *out)
{
	cJSON *j;
	const cJSON *cg;
	const char *client, *state, *join, *why;
	kg_parse_rc rc = KG_PARSE_MALFORMED;
	int64_t t;
	size_t i = 0;
	kg_obs *o;
	sbuf s = { 0 };
	char *c;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i == len)
		return KG_PARSE_SKIPPED;
	j = cJSON_ParseWithLength(line, len);
	if (j == NULL || !cJSON_IsObject(j))
		goto done;
	client = str(j, "client_id");
	if (client == NULL || *client == '\0')
		goto done;
	cg = cJSON_GetObjectItemCaseSensitive(j, "cgrp");
	if (cg == NULL) {
		rc = KG_PARSE_KNOWN; /* a producer, or a consumer without a group */
		goto done;
	}
	if (!cJSON_IsObject(cg))
		goto done;
	t = field(j, "time", 1e6);
	o = obs_new(KG_OBS_CLIENT_STATE, t > 0 ? t : now_us, -1, SRC);
	c = xstrdup(client);
	util_sanitize_text(c);
	obs_member(o, NULL, c, NULL, NULL);
	free(c);
	state = str(cg, "state");
	join = str(cg, "join_state");
	why = str(cg, "rebalance_reason");
	sbuf_addf(&s, "%s/%s", state ? state : "?", join ? join : "?");
	if (why != NULL && *why != '\0')
		sbuf_addf(&s, ", last rebalance: %s", why);
	c = xstrdup(sbuf_str(&s));
	util_sanitize_text(c);
	obs_text(o, c);
	free(c);
	sbuf_free(&s);
	o->reason = parse_rdstats_reason(why);
	o->value = field(cg, "rebalance_age", 1e3);
	o->rebalance_total = field(cg, "rebalance_cnt", 1);
	o->assigned_count = field(cg, "assignment_size", 1);
	obsq_push(out, o);
	rc = KG_PARSE_OBS;
done:
	cJSON_Delete(j);
	return rc;
}

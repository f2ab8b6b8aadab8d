/*
 * parse_jsonl.c: the jsonl trace reader (see parse_jsonl.h and kgtop-trace(5)).
 */
#include "config.h"

#include "sources/parse_jsonl.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/intern.h"
#include "model/snapshot.h"
#include "util/util.h"

#define SRC "jsonl"

/* n digits at s. */
static bool
ndig(const char *s, int n, int *v)
{
	int i, x = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + s[i] - '0';
	}
	*v = x;
	return true;
}

/* Parse an RFC 3339 time. */
int
parse_jsonl_time(const char *s, int64_t *us)
{
	int Y, M, D, h, mi, sec, oh = 0, om = 0, sign = 0;
	int64_t frac = 0, scale = 1000000;
	const char *p;
	if (strlen(s) < 20 || !ndig(s, 4, &Y) || s[4] != '-' || !ndig(s + 5, 2, &M) || s[7] != '-' ||
	    !ndig(s + 8, 2, &D) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !ndig(s + 11, 2, &h) ||
	    s[13] != ':' || !ndig(s + 14, 2, &mi) || s[16] != ':' || !ndig(s + 17, 2, &sec))
		return -1;
	if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	p = s + 19;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (*p - '0') * scale;
			}
		}
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p == '+' ? 1 : -1;
		if (!ndig(p + 1, 2, &oh) || p[3] != ':' || !ndig(p + 4, 2, &om) || oh > 23 || om > 59)
			return -1;
		p += 6;
	} else {
		return -1;
	}
	if (*p != '\0' || Y < 1970 || Y > 2200)
		return -1;
	*us = ((util_days_from_civil(Y, M, D) * 86400 + h * 3600 + mi * 60 + sec) - sign * (oh * 3600 + om * 60)) * 1000000 +
	      frac;
	/* the same range "ts" accepts */
	return *us >= 0 && *us <= INT64_C(9000000000000000) ? 0 : -1;
}

/* A string field (sanitized copy into *out, which the caller frees); false on a wrong type. */
static bool
get_str(const cJSON *obj, const char *key, char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	*out = NULL;
	if (v == NULL || cJSON_IsNull(v))
		return true;
	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return false;
	*out = xstrdup(v->valuestring);
	util_sanitize_text(*out);
	return true;
}

/* An integer field within [lo, hi]; absent or null leaves *out; false on a wrong type or range. */
static bool
get_int(const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	double d;
	if (v == NULL || cJSON_IsNull(v))
		return true;
	if (!cJSON_IsNumber(v))
		return false;
	d = v->valuedouble;
	if (!isfinite(d) || d != floor(d) || d < (double)lo || d > (double)hi)
		return false;
	*out = (int64_t)d;
	return true;
}

/* The "partitions" object: {"topic":[0,4],...}. */
static bool
get_parts(const cJSON *obj, kg_obs *o)
{
	const cJSON *ps = cJSON_GetObjectItemCaseSensitive(obj, "partitions"), *t, *p;
	kg_tp *v = NULL;
	int n = 0;
	size_t cap = 0;
	if (ps == NULL || cJSON_IsNull(ps))
		return true;
	if (!cJSON_IsObject(ps))
		return false;
	cJSON_ArrayForEach(t, ps)
	{
		int32_t topic;
		char *name;
		if (!cJSON_IsArray(t) || t->string == NULL || t->string[0] == '\0') {
			free(v);
			return false;
		}
		name = xstrdup(t->string);
		util_sanitize_text(name);
		topic = intern_topic(name);
		free(name);
		cJSON_ArrayForEach(p, t)
		{
			double d = cJSON_IsNumber(p) ? p->valuedouble : -1;
			if (!(d >= 0 && d <= INT32_MAX && d == floor(d)) || n >= 1000000) {
				free(v);
				return false;
			}
			util_grow(&v, &cap, (size_t)n + 1, sizeof *v);
			v[n].topic = topic;
			v[n].partition = (int32_t)d;
			n++;
		}
	}
	obs_parts(o, v, n);
	free(v);
	return true;
}

/* Fill o's fields from the object; false on a wrong type. */
static bool
fill(const cJSON *j, kg_obs *o)
{
	char *member, *client, *instance, *host, *text, *proto, *reason;
	int64_t gen = -1, nm = -1;
	const cJSON *rate;
	bool ok = get_str(j, "member", &member) & get_str(j, "client", &client) & get_str(j, "instance", &instance) &
		  get_str(j, "host", &host) & get_str(j, "text", &text) & get_str(j, "protocol", &proto) &
		  get_str(j, "reason", &reason);
	if (ok) {
		obs_member(o, member, client, instance, host);
		obs_text(o, text);
		if (proto != NULL) {
			if (strcmp(proto, "eager") == 0)
				o->proto = KG_PROTO_EAGER;
			else if (strcmp(proto, "cooperative") == 0)
				o->proto = KG_PROTO_COOPERATIVE;
		}
		if (reason != NULL)
			o->reason = reason_parse(reason);
	}
	free(member);
	free(client);
	free(instance);
	free(host);
	free(text);
	free(proto);
	free(reason);
	if (!ok)
		return false;
	ok = get_int(j, "generation", -1, INT32_MAX, &gen) && get_int(j, "members", -1, INT32_MAX, &nm) &&
	     get_int(j, "session_timeout_ms", -1, INT64_C(1) << 40, &o->session_timeout_ms) &&
	     get_int(j, "max_poll_interval_ms", -1, INT64_C(1) << 40, &o->max_poll_ms) &&
	     get_int(j, "heartbeat_age_us", -1, INT64_C(1) << 52, &o->hb_age_us) &&
	     get_int(j, "poll_gap_us", -1, INT64_C(1) << 52, &o->poll_gap_us) &&
	     get_int(j, "poll_gap_max_us", -1, INT64_C(1) << 52, &o->poll_gap_max_us) &&
	     get_int(j, "rebalance_latency_avg_us", -1, INT64_C(1) << 52, &o->rebalance_latency_avg_us) &&
	     get_int(j, "rebalance_latency_max_us", -1, INT64_C(1) << 52, &o->rebalance_latency_max_us) &&
	     get_int(j, "rebalance_total", -1, INT64_C(1) << 52, &o->rebalance_total) &&
	     get_int(j, "failed_rebalances", -1, INT64_C(1) << 52, &o->failed_rebalances) &&
	     get_int(j, "assigned_count", -1, INT64_C(1) << 52, &o->assigned_count) &&
	     get_int(j, "value", -(INT64_C(1) << 52), INT64_C(1) << 52, &o->value) && get_parts(j, o);
	if (!ok)
		return false;
	o->generation = (int32_t)gen;
	o->nmembers = (int32_t)nm;
	rate = cJSON_GetObjectItemCaseSensitive(j, "heartbeat_rate");
	if (rate != NULL && !cJSON_IsNull(rate)) {
		if (!cJSON_IsNumber(rate) || !isfinite(rate->valuedouble))
			return false;
		o->hb_rate = rate->valuedouble >= 0 ? rate->valuedouble : -1;
	}
	return true;
}

/* Parse one line. */
kg_parse_rc
parse_jsonl_line(const char *line, size_t len, kg_obsq *out)
{
	cJSON *j;
	const cJSON *v, *kind, *ts, *time, *group;
	kg_parse_rc rc = KG_PARSE_MALFORMED;
	int64_t t = 0;
	int k;
	kg_obs *o = NULL;
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i == len)
		return KG_PARSE_SKIPPED;
	j = cJSON_ParseWithLength(line, len);
	if (j == NULL || !cJSON_IsObject(j))
		goto done;
	v = cJSON_GetObjectItemCaseSensitive(j, "v");
	if (!cJSON_IsNumber(v))
		goto done;
	if (v->valuedouble != 1) {
		rc = KG_PARSE_UNPARSED;
		goto done;
	}
	kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
	if (!cJSON_IsString(kind) || (k = obs_kind_parse(kind->valuestring)) < 0) {
		rc = cJSON_IsString(kind) ? KG_PARSE_UNPARSED : KG_PARSE_MALFORMED;
		goto done;
	}
	ts = cJSON_GetObjectItemCaseSensitive(j, "ts");
	time = cJSON_GetObjectItemCaseSensitive(j, "time");
	if (cJSON_IsNumber(ts)) {
		if (!isfinite(ts->valuedouble) || ts->valuedouble < 0 || ts->valuedouble > 9e15)
			goto done;
		t = (int64_t)ts->valuedouble;
	} else if (cJSON_IsString(time)) {
		if (parse_jsonl_time(time->valuestring, &t) < 0)
			goto done;
	} else {
		goto done;
	}
	group = cJSON_GetObjectItemCaseSensitive(j, "group");
	if (group != NULL && !cJSON_IsNull(group) && (!cJSON_IsString(group) || group->valuestring[0] == '\0'))
		goto done;
	if (group != NULL && cJSON_IsString(group)) {
		char *g = xstrdup(group->valuestring);
		util_sanitize_text(g);
		o = obs_new((kg_obs_kind)k, t, intern_group(g), SRC);
		free(g);
	} else if (k == KG_OBS_METRICS || k == KG_OBS_CLIENT_STATE || k == KG_OBS_HEARTBEAT || k == KG_OBS_POLL) {
		/* client-keyed: the tracker finds the group by client id */
		o = obs_new((kg_obs_kind)k, t, -1, SRC);
	} else {
		goto done;
	}
	if (!fill(j, o)) {
		obs_free(o);
		goto done;
	}
	obsq_push(out, o);
	rc = KG_PARSE_OBS;
done:
	cJSON_Delete(j);
	return rc;
}

/*
 * parse_jolokia.c: Jolokia bulk read answers into client metrics (see parse_jolokia.h).
 */
#include "config.h"

#include "sources/trace/parse_jolokia.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define SRC "jolokia"
#define MAX_CLIENTS 4096

/* The bulk request. */
const char *
parse_jolokia_request(void)
{
	return "[{\"type\":\"read\",\"mbean\":\"kafka.consumer:type=consumer-coordinator-metrics,client-id=*\","
	       "\"config\":{\"ignoreErrors\":true}},"
	       "{\"type\":\"read\",\"mbean\":\"kafka.consumer:type=consumer-metrics,client-id=*\","
	       "\"config\":{\"ignoreErrors\":true}}]";
}

/* Property value of an MBean name. */
int
parse_jolokia_mbean_prop(const char *name, const char *key, char *out, size_t outsz)
{
	const char *p = strchr(name, ':');
	size_t kl = strlen(key);
	if (p == NULL || outsz == 0)
		return -1;
	p++;
	while (*p != '\0') {
		const char *k = p, *eq = strchr(p, '=');
		size_t n = 0;
		bool match;
		if (eq == NULL)
			return -1;
		match = (size_t)(eq - k) == kl && memcmp(k, key, kl) == 0;
		p = eq + 1;
		if (*p == '"') {
			/* quoted: \" \\ \* \? \n escapes, ends at an unescaped quote */
			for (p++; *p != '\0' && *p != '"'; p++) {
				char c = *p;
				if (c == '\\') {
					p++;
					if (*p == '\0')
						return -1;
					c = *p == 'n' ? '\n' : *p;
				}
				if (match && n + 1 < outsz)
					out[n++] = c;
			}
			if (*p != '"')
				return -1;
			p++;
		} else {
			for (; *p != '\0' && *p != ','; p++) {
				if (match && n + 1 < outsz)
					out[n++] = *p;
			}
		}
		if (match) {
			out[n] = '\0';
			return 0;
		}
		if (*p == ',')
			p++;
		else if (*p != '\0')
			return -1;
	}
	return -1;
}

/* Copy body replacing the bare tokens NaN, Infinity, -Infinity outside strings by null. */
static char *
denan(const char *s, size_t n)
{
	sbuf b = { 0 };
	size_t i = 0;
	bool in_str = false;
	while (i < n) {
		char c = s[i];
		if (in_str) {
			sbuf_addc(&b, c);
			if (c == '\\' && i + 1 < n) {
				sbuf_addc(&b, s[i + 1]);
				i += 2;
				continue;
			}
			if (c == '"')
				in_str = false;
			i++;
			continue;
		}
		if (c == '"') {
			in_str = true;
		} else if (c == 'N' && n - i >= 3 && memcmp(s + i, "NaN", 3) == 0) {
			sbuf_adds(&b, "null");
			i += 3;
			continue;
		} else if (c == 'I' && n - i >= 8 && memcmp(s + i, "Infinity", 8) == 0) {
			sbuf_adds(&b, "null");
			i += 8;
			continue;
		} else if (c == '-' && n - i >= 9 && memcmp(s + i, "-Infinity", 9) == 0) {
			sbuf_adds(&b, "null");
			i += 9;
			continue;
		}
		sbuf_addc(&b, c);
		i++;
	}
	sbuf_addc(&b, '\0');
	return b.s;
}

/* A numeric attribute; NAN when missing, null, not a number, or not finite. */
static double
attr(const cJSON *attrs, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(attrs, key);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return NAN;
	return v->valuedouble;
}

/* us from a value in unit_us, -1 when unknown or negative. */
static int64_t
to_us(double x, double unit_us)
{
	if (!(x >= 0) || x * unit_us > 9e15)
		return -1;
	return (int64_t)llround(x * unit_us);
}

/* A non-negative count, -1 when unknown. */
static int64_t
to_count(double x)
{
	if (!(x >= 0) || x > 9e15)
		return -1;
	return (int64_t)llround(x);
}

/* The observation for a client id, created on first use. */
static kg_obs *
client_obs(kg_obs ***v, int *n, const char *client, int64_t now_us)
{
	int i;
	kg_obs *o;
	for (i = 0; i < *n; i++) {
		if (strcmp((*v)[i]->client_id, client) == 0)
			return (*v)[i];
	}
	if (*n >= MAX_CLIENTS)
		return NULL;
	o = obs_new(KG_OBS_METRICS, now_us, -1, SRC);
	obs_member(o, NULL, client, NULL, NULL);
	*v = xreallocarray(*v, (size_t)*n + 1, sizeof **v);
	(*v)[(*n)++] = o;
	return o;
}

/* Fold one MBean's attributes into its client's observation. */
static void
fold(kg_obs *o, const char *type, const cJSON *attrs)
{
	if (strcmp(type, "consumer-coordinator-metrics") == 0) {
		double r = attr(attrs, "heartbeat-rate");
		if (r >= 0)
			o->hb_rate = r;
		o->hb_age_us = to_us(attr(attrs, "last-heartbeat-seconds-ago"), 1e6);
		o->rebalance_latency_avg_us = to_us(attr(attrs, "rebalance-latency-avg"), 1e3);
		o->rebalance_latency_max_us = to_us(attr(attrs, "rebalance-latency-max"), 1e3);
		o->rebalance_total = to_count(attr(attrs, "rebalance-total"));
		o->failed_rebalances = to_count(attr(attrs, "failed-rebalance-total"));
		o->assigned_count = to_count(attr(attrs, "assigned-partitions"));
	} else if (strcmp(type, "consumer-metrics") == 0) {
		int64_t since = to_us(attr(attrs, "last-poll-seconds-ago"), 1e6);
		o->poll_gap_us = since >= 0 ? since : to_us(attr(attrs, "time-between-poll-avg"), 1e3);
		o->poll_gap_max_us = to_us(attr(attrs, "time-between-poll-max"), 1e3);
	}
}

/* An HTTP-like status field; 0 when absent or out of range. */
static int
status_of(const cJSON *st)
{
	if (!cJSON_IsNumber(st) || !(st->valuedouble >= 0 && st->valuedouble < 1000))
		return 0;
	return (int)st->valuedouble;
}

/* Record a read's error once. */
static void
read_error(kg_jolokia_result *res, const cJSON *item)
{
	const cJSON *et = cJSON_GetObjectItemCaseSensitive(item, "error_type");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(item, "error");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(item, "status");
	res->failed++;
	if (res->error[0] != '\0')
		return;
	if (cJSON_IsString(e))
		util_strlcpy(res->error, e->valuestring, sizeof res->error);
	else if (cJSON_IsString(et))
		util_strlcpy(res->error, et->valuestring, sizeof res->error);
	else
		snprintf(res->error, sizeof res->error, "read failed with status %d", status_of(st));
	util_sanitize_text(res->error);
}

/* One per-read result. */
static void
one_read(const cJSON *item, int64_t now_us, kg_obs ***v, int *n, kg_jolokia_result *res)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(item, "status");
	const cJSON *val = cJSON_GetObjectItemCaseSensitive(item, "value");
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(item, "request");
	const cJSON *mb, *m;
	kg_obs *o;
	int status = status_of(st);
	res->reads++;
	if (status == 404)
		return; /* no MBean matched: no such consumers */
	if (status != 200 || !cJSON_IsObject(val)) {
		read_error(res, item);
		return;
	}
	mb = req != NULL ? cJSON_GetObjectItemCaseSensitive(req, "mbean") : NULL;
	/* a pattern read: {"name": {attrs}, ...}; a read of one name: {attrs} */
	cJSON_ArrayForEach(m, val)
	{
		if (!cJSON_IsObject(m))
			break;
	}
	if (m != NULL || cJSON_GetArraySize(val) == 0) {
		char client[512], type[128];
		if (cJSON_GetArraySize(val) == 0 || !cJSON_IsString(mb) ||
		    parse_jolokia_mbean_prop(mb->valuestring, "client-id", client, sizeof client) < 0 ||
		    strchr(client, '*') != NULL ||
		    parse_jolokia_mbean_prop(mb->valuestring, "type", type, sizeof type) < 0)
			return;
		util_sanitize_text(client);
		o = client_obs(v, n, client, now_us);
		if (o != NULL)
			fold(o, type, val);
		return;
	}
	cJSON_ArrayForEach(m, val)
	{
		char client[512], type[128];
		if (m->string == NULL || parse_jolokia_mbean_prop(m->string, "client-id", client, sizeof client) < 0 ||
		    parse_jolokia_mbean_prop(m->string, "type", type, sizeof type) < 0 || client[0] == '\0')
			continue;
		util_sanitize_text(client);
		o = client_obs(v, n, client, now_us);
		if (o != NULL)
			fold(o, type, m);
	}
}

/* Parse a bulk response. */
int
parse_jolokia_response(const char *body, size_t len, int64_t now_us, kg_obsq *out, kg_jolokia_result *res,
		       char *err, size_t errsz)
{
	char *clean = denan(body, len);
	cJSON *j = cJSON_Parse(clean);
	const cJSON *item;
	kg_obs **v = NULL;
	int n = 0, i;
	memset(res, 0, sizeof *res);
	free(clean);
	if (j == NULL) {
		return util_err(err, errsz, "not JSON");
	}
	if (cJSON_IsObject(j)) {
		/* the whole request was refused */
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
		char msg[160];
		util_strlcpy(msg, cJSON_IsString(e) ? e->valuestring : "not a bulk answer", sizeof msg);
		util_sanitize_text(msg);
		cJSON_Delete(j);
		return util_err(err, errsz, "%s", msg);
	}
	if (!cJSON_IsArray(j)) {
		cJSON_Delete(j);
		return util_err(err, errsz, "not a Jolokia answer");
	}
	cJSON_ArrayForEach(item, j)
	{
		if (cJSON_IsObject(item))
			one_read(item, now_us, &v, &n, res);
		else
			res->failed++;
	}
	cJSON_Delete(j);
	for (i = 0; i < n; i++)
		obsq_push(out, v[i]);
	free(v);
	res->clients = n;
	return 0;
}

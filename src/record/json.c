/*
 * json.c: the JSON pieces of kgtop's formats (see json.h).
 */
#include "config.h"

#include "record/json.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/intern.h"
#include "model/snapshot.h"

/* ------------------------------------------------------------ writing */

/* A JSON string or null. */
void
json_put_str(sbuf *o, const char *s)
{
	if (s == NULL)
		sbuf_adds(o, "null");
	else
		sbuf_add_json_str(o, s);
}

/* A double, %.17g with the locale's decimal point made '.'. */
void
json_put_double(sbuf *o, double x)
{
	char buf[64], *p;
	const char *dp = localeconv()->decimal_point;
	size_t dl = dp != NULL ? strlen(dp) : 0;
	snprintf(buf, sizeof buf, "%.17g", x);
	if (dl > 0 && strcmp(dp, ".") != 0 && (p = strstr(buf, dp)) != NULL) {
		*p = '.';
		memmove(p + 1, p + dl, strlen(p + dl) + 1);
	}
	sbuf_adds(o, buf);
}

/* A partition set as {"topic":[p,...],...}. */
void
json_put_set(sbuf *o, const kg_tp *v, int n)
{
	int i;
	sbuf_addc(o, '{');
	for (i = 0; i < n; i++) {
		if (i == 0 || v[i].topic != v[i - 1].topic) {
			if (i > 0)
				sbuf_adds(o, "],");
			sbuf_add_json_str(o, intern_topic_name(v[i].topic));
			sbuf_adds(o, ":[");
		} else {
			sbuf_addc(o, ',');
		}
		sbuf_addi(o, v[i].partition);
	}
	sbuf_adds(o, n > 0 ? "]}" : "}");
}

/*
 * A partition set of an array in any order, written in set order (topics
 * by name, partitions by number, as tp_cmp): as it comes when it is a set
 * already, else from a sorted copy.
 */
void
json_put_parts_set(sbuf *o, const kg_tp *v, int n)
{
	kg_tp *c;
	int i = 1;
	while (i < n && tp_cmp(&v[i - 1], &v[i]) < 0)
		i++;
	if (i >= n) {
		json_put_set(o, v, n);
		return;
	}
	c = tp_dup(v, n);
	json_put_set(o, c, tp_sort_unique(c, n));
	free(c);
}

/* A partition list. */
void
json_put_list(sbuf *o, const kg_tp *v, int n)
{
	int i;
	sbuf_addc(o, '[');
	for (i = 0; i < n; i++) {
		sbuf_adds(o, i ? ",{\"topic\":" : "{\"topic\":");
		sbuf_add_json_str(o, intern_topic_name(v[i].topic));
		sbuf_adds(o, ",\"partition\":");
		sbuf_addi(o, v[i].partition);
		sbuf_addc(o, '}');
	}
	sbuf_addc(o, ']');
}

/* A JSON time; the date and time of the last second written are kept (a line has many times of a few seconds). */
void
json_put_time(sbuf *o, int64_t us)
{
	static _Thread_local int64_t last_s = INT64_MIN;
	static _Thread_local char last[40];
	int64_t sec = us / 1000000;
	int ms = (int)((us / 1000) % 1000);
	char frac[5];
	if (sec != last_s) {
		time_t t = (time_t)sec;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(last, sizeof last, "\"%Y-%m-%dT%H:%M:%S.", &tm);
		last_s = sec;
	}
	sbuf_adds(o, last);
	if (ms < 0) {
		/* before 1970: as the old writer's %03d of a negative remainder said it */
		sbuf_addf(o, "%03dZ\"", ms);
		return;
	}
	frac[0] = (char)('0' + ms / 100);
	frac[1] = (char)('0' + ms / 10 % 10);
	frac[2] = (char)('0' + ms % 10);
	frac[3] = 'Z';
	frac[4] = '"';
	sbuf_addn(o, frac, 5);
}

/* Milliseconds of a time in microseconds (one decimal), or null when negative (not known). */
void
json_put_ms(sbuf *o, int64_t us)
{
	int64_t tenths, rem;
	if (us < 0) {
		sbuf_adds(o, "null");
		return;
	}
	/*
	 * %.1f of us / 1000 without printf: rounding to the nearest tenth is
	 * exact in integers but at a remainder of 50 (the double's binary
	 * value decides there: printf's answer)
	 */
	tenths = us / 100;
	rem = us % 100;
	if (rem == 50) {
		sbuf_addf(o, "%.1f", (double)us / 1000.0);
		return;
	}
	tenths += rem > 50;
	sbuf_addi(o, (long long)(tenths / 10));
	sbuf_addc(o, '.');
	sbuf_addc(o, (char)('0' + tenths % 10));
}

/* A number with two decimals, as %.2f; null when negative (not known). */
void
json_put_2f(sbuf *o, double x)
{
	double h;
	long long n;
	if (x < 0 || x != x) {
		sbuf_adds(o, "null");
		return;
	}
	h = x * 100.0;
	n = (long long)(h + 0.5);
	/* near a half (or too large for the integers) printf decides, as before */
	if (h > 9e15 || fabs(h - (double)(long long)h - 0.5) < 1e-6) {
		sbuf_addf(o, "%.2f", x);
		return;
	}
	sbuf_addi(o, n / 100);
	sbuf_addc(o, '.');
	sbuf_addc(o, (char)('0' + n / 10 % 10));
	sbuf_addc(o, (char)('0' + n % 10));
}

/*
 * An episode's duration: duration_min_ms and duration_max_ms always (max
 * null when the start is not known), duration_ms only when they are equal
 * (measured by callbacks or a coordinator's log), as version 1 readers
 * took it; an event from before bounds were kept has its one figure.
 */
static void
json_put_duration(sbuf *o, const kg_event *e)
{
	if (e->duration.min < 0) {
		if (e->duration_us >= 0)
			sbuf_addf(o, ",\"duration_ms\":%.1f", (double)e->duration_us / 1000.0);
		return;
	}
	if (e->duration.max == e->duration.min)
		sbuf_addf(o, ",\"duration_ms\":%.1f", (double)e->duration.min / 1000.0);
	sbuf_adds(o, ",\"duration_min_ms\":");
	json_put_ms(o, e->duration.min);
	sbuf_adds(o, ",\"duration_max_ms\":");
	json_put_ms(o, e->duration.max);
}

/* An episode's end: whether its rounds are a lower bound, its lag and what it cost (bounds as durations). */
static void
json_put_cost(sbuf *o, const kg_event *e)
{
	sbuf_addf(o, ",\"rounds_at_least\":%s,\"lag_cost\":%lld", e->rounds_min ? "true" : "false", (long long)e->lag_cost);
	sbuf_addf(o, ",\"cost\":{\"members_stopped\":%d,\"stopped_member_ms_min\":", e->nstopped);
	json_put_ms(o, e->stopped_us.min);
	sbuf_adds(o, ",\"stopped_member_ms_max\":");
	json_put_ms(o, e->stopped_us.max);
	sbuf_addf(o, ",\"partitions_unconsumed\":%d,\"unconsumed_partition_ms_min\":", e->nunconsumed);
	json_put_ms(o, e->unconsumed_us.min);
	sbuf_adds(o, ",\"unconsumed_partition_ms_max\":");
	json_put_ms(o, e->unconsumed_us.max);
	sbuf_addf(o, ",\"backlog_min\":%lld,\"backlog_max\":", (long long)e->backlog.min);
	if (e->backlog.max >= 0)
		sbuf_addf(o, "%lld", (long long)e->backlog.max);
	else
		sbuf_adds(o, "null");
	sbuf_addc(o, '}');
}

/* An event's partitions (and a revoke's "before"): a list, or a set (--json since schema 6). */
static void
put_parts(sbuf *o, const kg_tp *v, int n, json_parts form)
{
	if (form == JSON_PARTS_SET)
		json_put_parts_set(o, v, n);
	else
		json_put_list(o, v, n);
}

/* One event. */
void
json_put_event(sbuf *o, const kg_event *e, int64_t t0_us, json_parts form)
{
	sbuf msg = { 0 };
	sbuf_addf(o, "{\"seq\":%llu,\"time\":", (unsigned long long)e->seq);
	json_put_time(o, e->time_us);
	if (e->after_us > 0) {
		/* seen after a gap in the group's data: it happened between after and time */
		sbuf_adds(o, ",\"after\":");
		json_put_time(o, e->after_us);
	}
	sbuf_addf(o, ",\"t\":%.3f,\"kind\":\"%s\",\"group\":", (double)(e->time_us - t0_us) / 1e6, event_kind_key(e->kind));
	json_put_str(o, e->group >= 0 ? intern_group_name(e->group) : NULL);
	sbuf_adds(o, ",\"member_id\":");
	json_put_str(o, e->member_id);
	sbuf_adds(o, ",\"client_id\":");
	json_put_str(o, e->client_id);
	if (e->instance_id) {
		sbuf_adds(o, ",\"instance_id\":");
		json_put_str(o, e->instance_id);
	}
	if (e->kind == KG_EV_REVOKED || e->kind == KG_EV_ASSIGNED || e->kind == KG_EV_LOST ||
	    e->kind == KG_EV_ORPHANED || e->kind == KG_EV_MEMBER_LEFT || e->kind == KG_EV_MEMBER_SILENT ||
	    e->kind == KG_EV_REPROCESSED || e->kind == KG_EV_VERDICT) {
		sbuf_adds(o, ",\"partitions\":");
		put_parts(o, e->parts, e->nparts, form);
	}
	if (e->kind == KG_EV_REVOKED) {
		sbuf_adds(o, ",\"before\":");
		put_parts(o, e->before, e->nbefore, form);
		sbuf_addf(o, ",\"class\":\"%s\"", tp_class_name(e->cls));
	}
	sbuf_addf(o, ",\"evidence\":\"%s\",\"protocol\":\"%s\"", evidence_name(e->evidence), proto_name(e->proto));
	if (e->episode)
		sbuf_addf(o, ",\"episode\":%lld,\"round\":%d", (long long)e->episode, e->round);
	if (e->generation >= 0)
		sbuf_addf(o, ",\"generation\":%d", (int)e->generation);
	json_put_duration(o, e);
	if (e->kind == KG_EV_REBALANCE_END)
		json_put_cost(o, e);
	if (e->kind == KG_EV_REPROCESSED)
		sbuf_addf(o, ",\"records\":%lld", (long long)e->records);
	if (e->kind == KG_EV_VERDICT) {
		sbuf_addf(o, ",\"verdict\":\"%s\",\"verdict_from\":\"%s\",\"since\":", verdict_name((kg_verdict)e->verdict),
			  verdict_name((kg_verdict)e->verdict_from));
		if (e->since_us > 0)
			json_put_time(o, e->since_us);
		else
			sbuf_adds(o, "null");
		/* since within bounds: since is its latest; since_min null when how long before is not known */
		sbuf_adds(o, ",\"since_min\":");
		if (e->since_lo_us > 0 && e->since_kind != KG_SINCE_BEFORE)
			json_put_time(o, e->since_lo_us);
		else
			sbuf_adds(o, "null");
		sbuf_addf(o, ",\"since_kind\":\"%s\"", since_kind_key((kg_since_kind)e->since_kind));
	}
	if (e->kind == KG_EV_STATE)
		sbuf_addf(o, ",\"from\":\"%s\",\"to\":\"%s\"", state_name(e->from), state_name(e->to));
	if (e->reason != KG_REASON_NONE)
		sbuf_addf(o, ",\"reason\":\"%s\"", reason_key(e->reason));
	if (e->text) {
		sbuf_adds(o, ",\"text\":");
		json_put_str(o, e->text);
	}
	event_format(e, &msg);
	sbuf_adds(o, ",\"message\":");
	json_put_str(o, sbuf_str(&msg));
	sbuf_free(&msg);
	sbuf_addc(o, '}');
}

/* ------------------------------------------------------------ reading */

/* An integral number within [lo, hi]. */
bool
json_get_int(const cJSON *v, int64_t lo, int64_t hi, int64_t *out)
{
	double d;
	if (!cJSON_IsNumber(v))
		return false;
	d = v->valuedouble;
	if (!(d >= (double)lo && d <= (double)hi) || d != floor(d))
		return false;
	*out = (int64_t)d;
	return true;
}

/* An integral number within +-JSON_I64_LIMIT. */
bool
json_get_i64(const cJSON *v, int64_t *out)
{
	return json_get_int(v, -JSON_I64_LIMIT, JSON_I64_LIMIT, out);
}

/* An integral number that fits an int32. */
bool
json_get_i32(const cJSON *v, int32_t *out)
{
	int64_t x;
	if (!json_get_int(v, INT32_MIN, INT32_MAX, &x))
		return false;
	*out = (int32_t)x;
	return true;
}

/* A name among n. */
int
json_get_enum(const cJSON *v, int n, const char *(*name)(int))
{
	int i;
	if (!cJSON_IsString(v))
		return -1;
	for (i = 0; i < n; i++) {
		if (strcmp(v->valuestring, name(i)) == 0)
			return i;
	}
	return -1;
}

/* proto_name() by index. */
const char *
json_proto_name(int i)
{
	return proto_name((kg_proto)i);
}

/* src_status_name() by index. */
const char *
json_status_name(int i)
{
	return src_status_name((kg_src_status)i);
}

/* limit_src_name() by index. */
const char *
json_limit_name(int i)
{
	return limit_src_name((kg_limit_src)i);
}

/* A string or null. */
bool
json_get_str(const cJSON *v, char **out)
{
	if (cJSON_IsNull(v)) {
		*out = NULL;
		return true;
	}
	if (!cJSON_IsString(v))
		return false;
	*out = xstrdup(v->valuestring);
	return true;
}

/* The interned id of a topic name (a foreign one sanitized); -1 when a foreign name is empty. */
static int32_t
set_topic(const char *name, bool foreign)
{
	char *s;
	int32_t id;
	if (!foreign)
		return intern_topic(name);
	if (name == NULL || name[0] == '\0')
		return -1;
	s = xstrdup(name);
	util_sanitize_text(s);
	id = intern_topic(s);
	free(s);
	return id;
}

/* A partition set. */
int
json_get_set(const cJSON *o, bool foreign, kg_tp **out, int *n, const char *what, char *err, size_t errsz)
{
	const cJSON *t, *p;
	kg_tp *v = NULL;
	size_t cap = 0;
	int k = 0;
	*out = NULL;
	*n = 0;
	if (!cJSON_IsObject(o))
		return util_err(err, errsz, "%s: not an object of partitions", what);
	cJSON_ArrayForEach(t, o)
	{
		int32_t topic = set_topic(t->string, foreign);
		if (topic < 0 || !cJSON_IsArray(t)) {
			free(v);
			return util_err(err, errsz, "%s: topic \"%s\": not an array", what, t->string ? t->string : "");
		}
		cJSON_ArrayForEach(p, t)
		{
			int32_t part;
			if (!json_get_i32(p, &part) || part < 0 || (foreign && k >= 1000000)) {
				free(v);
				return util_err(err, errsz, "%s: topic \"%s\": bad partition", what, t->string);
			}
			util_grow(&v, &cap, (size_t)k + 1, sizeof *v);
			v[k].topic = topic;
			v[k].partition = part;
			k++;
		}
	}
	if (k > 0)
		k = tp_sort_unique(v, k);
	*out = v;
	*n = k;
	return 0;
}

/* Parse an RFC 3339 time. */
int
json_parse_time(const char *s, int64_t *us)
{
	int Y, M, D, h, mi, sec, oh = 0, om = 0, sign = 0;
	int64_t frac = 0, scale = 1000000;
	const char *p;
	if (strlen(s) < 20 || !util_digits(s, 4, &Y) || s[4] != '-' || !util_digits(s + 5, 2, &M) || s[7] != '-' ||
	    !util_digits(s + 8, 2, &D) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
	    !util_digits(s + 11, 2, &h) || s[13] != ':' || !util_digits(s + 14, 2, &mi) || s[16] != ':' ||
	    !util_digits(s + 17, 2, &sec))
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
		if (!util_digits(p + 1, 2, &oh) || p[3] != ':' || !util_digits(p + 4, 2, &om) || oh > 23 || om > 59)
			return -1;
		p += 6;
	} else {
		return -1;
	}
	if (*p != '\0' || Y < 1970 || Y > 2200)
		return -1;
	*us = ((util_days_from_civil(Y, M, D) * 86400 + h * 3600 + mi * 60 + sec) - sign * (oh * 3600 + om * 60)) * 1000000 +
	      frac;
	/* the same range a trace's "ts" accepts */
	return *us >= 0 && *us <= INT64_C(9000000000000000) ? 0 : -1;
}

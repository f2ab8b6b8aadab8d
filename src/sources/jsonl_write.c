/*
 * jsonl_write.c: the jsonl trace writer (see jsonl_write.h and kgtop-trace(5)).
 */
#include "config.h"

#include "sources/jsonl_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "model/intern.h"
#include "model/snapshot.h"

/* ,"key":"value" when s is set. */
static void
put_str(sbuf *b, const char *key, const char *s)
{
	if (s == NULL)
		return;
	sbuf_addf(b, ",\"%s\":", key);
	sbuf_add_json_str(b, s);
}

/* ,"key":v when v is not the unknown value. */
static void
put_int(sbuf *b, const char *key, int64_t v, int64_t unknown)
{
	if (v == unknown)
		return;
	sbuf_addf(b, ",\"%s\":%" PRId64, key, v);
}

/* ,"key":x for x >= 0, six decimals at most, '.' whatever the locale. */
static void
put_rate(sbuf *b, const char *key, double x)
{
	int64_t micro, ip, fp;
	char frac[8];
	int n;
	if (!(x >= 0) || x > 9e12)
		return;
	micro = (int64_t)llround(x * 1e6);
	ip = micro / 1000000;
	fp = micro % 1000000;
	sbuf_addf(b, ",\"%s\":%" PRId64, key, ip);
	if (fp == 0)
		return;
	snprintf(frac, sizeof frac, "%06" PRId64, fp);
	for (n = 6; n > 0 && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	sbuf_addf(b, ".%s", frac);
}

/* ,"partitions":{"topic":[0,4],...} for a sorted set. */
static void
put_parts(sbuf *b, const kg_obs *o)
{
	int i;
	if (o->nparts <= 0 || o->parts == NULL)
		return;
	sbuf_adds(b, ",\"partitions\":{");
	for (i = 0; i < o->nparts; i++) {
		bool first_of_topic = i == 0 || o->parts[i].topic != o->parts[i - 1].topic;
		if (first_of_topic) {
			if (i > 0)
				sbuf_adds(b, "],");
			sbuf_add_json_str(b, intern_topic_name(o->parts[i].topic));
			sbuf_adds(b, ":[");
		} else {
			sbuf_addc(b, ',');
		}
		sbuf_addf(b, "%" PRId32, o->parts[i].partition);
	}
	sbuf_adds(b, "]}");
}

/* Append one observation as JSON. */
void
jsonl_write_format(sbuf *b, const kg_obs *o)
{
	sbuf_addf(b, "{\"v\":%d,\"ts\":%" PRId64 ",\"kind\":", KG_JSONL_VERSION, o->time_us);
	sbuf_add_json_str(b, obs_kind_name(o->kind));
	if (o->group >= 0)
		put_str(b, "group", intern_group_name(o->group));
	put_str(b, "member", o->member_id);
	put_str(b, "client", o->client_id);
	put_str(b, "instance", o->instance_id);
	put_str(b, "host", o->host);
	if (o->proto != KG_PROTO_UNKNOWN)
		put_str(b, "protocol", proto_name(o->proto));
	if (o->reason != KG_REASON_NONE)
		put_str(b, "reason", reason_key(o->reason));
	put_str(b, "text", o->text);
	put_int(b, "generation", o->generation, -1);
	put_int(b, "members", o->nmembers, -1);
	put_parts(b, o);
	put_int(b, "session_timeout_ms", o->session_timeout_ms, -1);
	put_int(b, "max_poll_interval_ms", o->max_poll_ms, -1);
	put_int(b, "heartbeat_age_us", o->hb_age_us, -1);
	put_rate(b, "heartbeat_rate", o->hb_rate);
	put_int(b, "poll_gap_us", o->poll_gap_us, -1);
	put_int(b, "poll_gap_max_us", o->poll_gap_max_us, -1);
	put_int(b, "rebalance_latency_avg_us", o->rebalance_latency_avg_us, -1);
	put_int(b, "rebalance_latency_max_us", o->rebalance_latency_max_us, -1);
	put_int(b, "rebalance_total", o->rebalance_total, -1);
	put_int(b, "failed_rebalances", o->failed_rebalances, -1);
	put_int(b, "assigned_count", o->assigned_count, -1);
	put_int(b, "value", o->value, -1);
	sbuf_addc(b, '}');
}

/* Write one line and flush. */
int
jsonl_write_obs(FILE *f, const kg_obs *o)
{
	sbuf b = { 0 };
	int rc = 0;
	jsonl_write_format(&b, o);
	sbuf_addc(&b, '\n');
	if (fwrite(b.s, 1, b.len, f) != b.len || fflush(f) != 0)
		rc = -1;
	sbuf_free(&b);
	return rc;
}

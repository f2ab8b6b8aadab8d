/*
 * obs_codec.c: the one table of observation fields and the codec it drives
 * (see obs_codec.h; the fields are listed in kgtop-trace(5)).
 *
 * A row of fields[] is one member of kg_obs: its key in each schema, its
 * type, and its offset; integers also carry the bounds a trace must keep
 * to.  A schema (schemas[]) adds the order its writer follows (the order
 * the files and tests pin) and what it expects of its input.  The type
 * alone decides how a value is written, what "unknown" is (left out),
 * and how a JSON value is read back.
 */
#include "config.h"

#include "record/obs_codec.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "model/snapshot.h"
#include "record/json.h"

typedef enum obs_type {
	T_KIND,   /* kg_obs_kind, by obs_kind_name() */
	T_TIME,   /* int64 microseconds; a trace may give an RFC 3339 string */
	T_GROUP,  /* interned group id, by name; -1 none */
	T_SOURCE, /* a static source name */
	T_STR,    /* an owned string, NULL unknown */
	T_REASON, /* kg_reason, by reason_key(); none unknown */
	T_PROTO,  /* kg_proto, by proto_name(); unknown unknown */
	T_I32,    /* int32, -1 unknown */
	T_I64,    /* int64, -1 unknown */
	T_RATE,   /* double per second, -1 unknown */
	T_PARTS,  /* a partition set (its array at off, its count at off2) */
	T_ENUM,   /* a uint8_t enum by its machine name (the field's name()); 0 unknown */
	T_BOOL,   /* a flag, false unknown (left out) */
	T_MEMBERS, /* a generation's members (mlist, nmlist): objects of strings, timeouts and partitions */
	T_COUNT
} obs_type;

static const char *const type_names[T_COUNT] = {
	[T_KIND] = "kind",       [T_TIME] = "time",       [T_GROUP] = "group",   [T_SOURCE] = "string",
	[T_STR] = "string",      [T_REASON] = "reason",   [T_PROTO] = "protocol", [T_I32] = "integer",
	[T_I64] = "integer",     [T_RATE] = "number",     [T_PARTS] = "partitions", [T_ENUM] = "name",
	[T_BOOL] = "boolean",    [T_MEMBERS] = "members",
};

typedef enum obs_fid {
	F_KIND, F_TIME, F_GROUP, F_SOURCE, F_MEMBER, F_CLIENT, F_INSTANCE, F_HOST, F_TEXT, F_REASON, F_PROTO,
	F_GENERATION, F_NMEMBERS, F_SESSION, F_MAX_POLL, F_HB_AGE, F_POLL_GAP, F_POLL_GAP_MAX, F_LAT_AVG,
	F_LAT_MAX, F_REB_TOTAL, F_FAILED, F_ASSIGNED, F_VALUE, F_HB_RATE, F_PARTS,
	/* format 4: KIP-848's types, states, epochs (recordings and traces) */
	F_GTYPE, F_MTYPE, F_MSTATE, F_PREV_EPOCH, F_PENDING,
	/* format 3: the group coordinator's own records (recordings only) */
	F_MEMBER_STATE, F_MLIST, F_LOADED, F_GONE, F_COMPLETING, F_COUNT
} obs_fid;

typedef struct field {
	const char *key[OBS_SCHEMA_COUNT]; /* recording, trace (NULL: not in it) */
	obs_type type;
	size_t off;                        /* where it lives in a kg_obs */
	int64_t lo, hi;                    /* integers: the bounds of a trace's value; T_ENUM: hi its count */
	size_t off2;                       /* T_PARTS, T_MEMBERS: where the count lives */
	const char *(*name)(int);          /* T_ENUM: its machine names */
} field;

/* The machine names of the enums observations carry, by index. */
static const char *
gtype_name_at(int i)
{
	return gtype_key((kg_group_type)i);
}

/* Member types by index. */
static const char *
mtype_name_at(int i)
{
	return mtype_key((kg_mtype)i);
}

/* Member states by index. */
static const char *
mstate_name_at(int i)
{
	return mstate_key((kg_mstate)i);
}

#define AT(m) offsetof(kg_obs, m)
#define SETTING (INT64_C(1) << 40) /* milliseconds of a setting */
#define METRIC (INT64_C(1) << 52)  /* a metric (microseconds, counts) */

/* The table: every field of kg_obs, in the recording's order. */
static const field fields[F_COUNT] = {
	[F_KIND] = { { "kind", "kind" }, T_KIND, AT(kind), 0, 0 },
	[F_TIME] = { { "time", "ts" }, T_TIME, AT(time_us), 0, 0 },
	[F_GROUP] = { { "group", "group" }, T_GROUP, AT(group), 0, 0 },
	[F_SOURCE] = { { "source", NULL }, T_SOURCE, AT(source), 0, 0 },
	[F_MEMBER] = { { "member_id", "member" }, T_STR, AT(member_id), 0, 0 },
	[F_CLIENT] = { { "client_id", "client" }, T_STR, AT(client_id), 0, 0 },
	[F_INSTANCE] = { { "instance_id", "instance" }, T_STR, AT(instance_id), 0, 0 },
	[F_HOST] = { { "host", "host" }, T_STR, AT(host), 0, 0 },
	[F_TEXT] = { { "text", "text" }, T_STR, AT(text), 0, 0 },
	[F_REASON] = { { "reason", "reason" }, T_REASON, AT(reason), 0, 0 },
	[F_PROTO] = { { "protocol", "protocol" }, T_PROTO, AT(proto), 0, 0 },
	[F_GENERATION] = { { "generation", "generation" }, T_I32, AT(generation), -1, INT32_MAX },
	[F_NMEMBERS] = { { "nmembers", "members" }, T_I32, AT(nmembers), -1, INT32_MAX },
	[F_SESSION] = { { "session_timeout_ms", "session_timeout_ms" }, T_I64, AT(session_timeout_ms), -1, SETTING },
	[F_MAX_POLL] = { { "max_poll_ms", "max_poll_interval_ms" }, T_I64, AT(max_poll_ms), -1, SETTING },
	[F_HB_AGE] = { { "hb_age_us", "heartbeat_age_us" }, T_I64, AT(hb_age_us), -1, METRIC },
	[F_POLL_GAP] = { { "poll_gap_us", "poll_gap_us" }, T_I64, AT(poll_gap_us), -1, METRIC },
	[F_POLL_GAP_MAX] = { { "poll_gap_max_us", "poll_gap_max_us" }, T_I64, AT(poll_gap_max_us), -1, METRIC },
	[F_LAT_AVG] = { { "rebalance_latency_avg_us", "rebalance_latency_avg_us" }, T_I64, AT(rebalance_latency_avg_us),
			-1, METRIC },
	[F_LAT_MAX] = { { "rebalance_latency_max_us", "rebalance_latency_max_us" }, T_I64, AT(rebalance_latency_max_us),
			-1, METRIC },
	[F_REB_TOTAL] = { { "rebalance_total", "rebalance_total" }, T_I64, AT(rebalance_total), -1, METRIC },
	[F_FAILED] = { { "failed_rebalances", "failed_rebalances" }, T_I64, AT(failed_rebalances), -1, METRIC },
	[F_ASSIGNED] = { { "assigned_count", "assigned_count" }, T_I64, AT(assigned_count), -1, METRIC },
	[F_VALUE] = { { "value", "value" }, T_I64, AT(value), -METRIC, METRIC },
	[F_HB_RATE] = { { "hb_rate", "heartbeat_rate" }, T_RATE, AT(hb_rate), 0, 0 },
	[F_PARTS] = { { "partitions", "partitions" }, T_PARTS, AT(parts), 0, 0, AT(nparts), NULL },
	[F_GTYPE] = { { "group_type", "group_type" }, T_ENUM, AT(gtype), 0, KG_GTYPE_COUNT, 0, gtype_name_at },
	[F_MTYPE] = { { "member_type", "member_type" }, T_ENUM, AT(mtype), 0, KG_MTYPE_COUNT, 0, mtype_name_at },
	/* a recording's "member_state" is the coordinator's number (format 3); the state's name is "mstate" */
	[F_MSTATE] = { { "mstate", "member_state" }, T_ENUM, AT(mstate), 0, KG_MSTATE_COUNT, 0, mstate_name_at },
	[F_PREV_EPOCH] = { { "prev_epoch", "previous_epoch" }, T_I32, AT(prev_epoch), -1, INT32_MAX, 0, NULL },
	[F_PENDING] = { { "pending", "pending_revocation" }, T_PARTS, AT(pending), 0, 0, AT(npending), NULL },
	[F_MEMBER_STATE] = { { "member_state", NULL }, T_I32, AT(member_state), 0, 0, 0, NULL },
	[F_MLIST] = { { "member_list", NULL }, T_MEMBERS, AT(mlist), 0, 0, AT(nmlist), NULL },
	[F_LOADED] = { { "loaded", NULL }, T_BOOL, AT(loaded), 0, 0, 0, NULL },
	[F_GONE] = { { "gone", NULL }, T_BOOL, AT(gone), 0, 0, 0, NULL },
	[F_COMPLETING] = { { "completing", NULL }, T_BOOL, AT(completing), 0, 0, 0, NULL },
};

typedef struct schema {
	const char *version_key; /* a key every object carries with version (NULL: none) */
	int version;
	bool complete;           /* write kind, time, group (null when none) and source always */
	bool foreign;            /* input from other producers (see obs_codec.h) */
	int n;
	obs_fid order[F_COUNT];  /* the fields written, in order */
} schema;

static const schema schemas[OBS_SCHEMA_COUNT] = {
	[OBS_RECORDING] = { NULL, 0, true, false, F_COUNT,
			    { F_KIND, F_TIME, F_GROUP, F_SOURCE, F_MEMBER, F_CLIENT, F_INSTANCE, F_HOST, F_TEXT,
			      F_REASON, F_PROTO, F_GENERATION, F_NMEMBERS, F_SESSION, F_MAX_POLL, F_HB_AGE, F_POLL_GAP,
			      F_POLL_GAP_MAX, F_LAT_AVG, F_LAT_MAX, F_REB_TOTAL, F_FAILED, F_ASSIGNED, F_VALUE, F_HB_RATE,
			      F_PARTS, F_GTYPE, F_MTYPE, F_MSTATE, F_PREV_EPOCH, F_PENDING, F_MEMBER_STATE, F_MLIST,
			      F_LOADED, F_GONE, F_COMPLETING } },
	[OBS_TRACE] = { "v", KG_JSONL_VERSION, false, true, F_PENDING,
			{ F_TIME, F_KIND, F_GROUP, F_MEMBER, F_CLIENT, F_INSTANCE, F_HOST, F_PROTO, F_REASON, F_TEXT,
			  F_GENERATION, F_NMEMBERS, F_PARTS, F_SESSION, F_MAX_POLL, F_HB_AGE, F_HB_RATE, F_POLL_GAP,
			  F_POLL_GAP_MAX, F_LAT_AVG, F_LAT_MAX, F_REB_TOTAL, F_FAILED, F_ASSIGNED, F_VALUE, F_GTYPE,
			  F_MTYPE, F_MSTATE, F_PREV_EPOCH, F_PENDING } },
};

/* The member of o a field lives in. */
#define FIELD(o, f, type) ((type *)(void *)((char *)(o) + (f)->off))
#define CFIELD(o, f, type) ((const type *)(const void *)((const char *)(o) + (f)->off))
#define FIELD2(o, f, type) ((type *)(void *)((char *)(o) + (f)->off2))
#define CFIELD2(o, f, type) ((const type *)(const void *)((const char *)(o) + (f)->off2))

/* ------------------------------------------------------------ writing */

/* A rate: 17 digits in a recording; six decimals at most in a trace (a person may read it). */
static void
put_rate(sbuf *b, double x, bool exact)
{
	int64_t micro, fp;
	char frac[8];
	int n;
	if (exact) {
		json_put_double(b, x);
		return;
	}
	micro = (int64_t)llround(x * 1e6);
	fp = micro % 1000000;
	sbuf_addf(b, "%" PRId64, micro / 1000000);
	if (fp == 0)
		return;
	snprintf(frac, sizeof frac, "%06" PRId64, fp);
	for (n = 6; n > 0 && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	sbuf_addf(b, ".%s", frac);
}

/* True when the field has a value to write in schema s. */
static bool
known(const kg_obs *o, const field *f, const schema *s)
{
	double x;
	switch (f->type) {
	case T_GROUP:
		return s->complete || o->group >= 0;
	case T_STR:
		return *CFIELD(o, f, char *) != NULL;
	case T_REASON:
		return o->reason != KG_REASON_NONE;
	case T_PROTO:
		return o->proto != KG_PROTO_UNKNOWN;
	case T_I32:
		return *CFIELD(o, f, int32_t) != -1;
	case T_I64:
		return *CFIELD(o, f, int64_t) != -1;
	case T_RATE:
		x = *CFIELD(o, f, double);
		return s->foreign ? x >= 0 && x <= 9e12 : x != -1.0;
	case T_PARTS:
		return *CFIELD2(o, f, int) > 0 && *CFIELD(o, f, kg_tp *) != NULL;
	case T_ENUM:
		return *CFIELD(o, f, uint8_t) != 0;
	case T_MEMBERS:
		return o->nmlist > 0;
	case T_BOOL:
		return *CFIELD(o, f, bool);
	default:
		return true;
	}
}

/* A generation's members: each an object of its strings, timeouts and partitions. */
static void
put_members(sbuf *b, const kg_obs *o)
{
	int i;
	sbuf_addc(b, '[');
	for (i = 0; i < o->nmlist; i++) {
		const kg_obs_member *m = &o->mlist[i];
		sbuf_addf(b, "%s{\"member_id\":", i > 0 ? "," : "");
		json_put_str(b, m->member_id);
		sbuf_adds(b, ",\"client_id\":");
		json_put_str(b, m->client_id);
		sbuf_adds(b, ",\"instance_id\":");
		json_put_str(b, m->instance_id);
		sbuf_adds(b, ",\"host\":");
		json_put_str(b, m->host);
		sbuf_addf(b, ",\"session_timeout_ms\":%lld,\"rebalance_timeout_ms\":%lld,\"partitions\":",
			  (long long)m->session_timeout_ms, (long long)m->rebalance_timeout_ms);
		json_put_set(b, m->parts, m->nparts);
		sbuf_addc(b, '}');
	}
	sbuf_addc(b, ']');
}

/* The value of a known field. */
static void
put_value(sbuf *b, const kg_obs *o, const field *f, const schema *s)
{
	switch (f->type) {
	case T_KIND:
		sbuf_add_json_str(b, obs_kind_name(o->kind));
		break;
	case T_TIME:
		sbuf_addf(b, "%lld", (long long)o->time_us);
		break;
	case T_GROUP:
		json_put_str(b, o->group >= 0 ? intern_group_name(o->group) : NULL);
		break;
	case T_SOURCE:
		sbuf_add_json_str(b, o->source != NULL ? o->source : "");
		break;
	case T_STR:
		sbuf_add_json_str(b, *CFIELD(o, f, char *));
		break;
	case T_REASON:
		sbuf_add_json_str(b, reason_key(o->reason));
		break;
	case T_PROTO:
		sbuf_add_json_str(b, proto_name(o->proto));
		break;
	case T_I32:
		sbuf_addf(b, "%lld", (long long)*CFIELD(o, f, int32_t));
		break;
	case T_I64:
		sbuf_addf(b, "%lld", (long long)*CFIELD(o, f, int64_t));
		break;
	case T_RATE:
		put_rate(b, *CFIELD(o, f, double), !s->foreign);
		break;
	case T_PARTS:
		json_put_set(b, *CFIELD(o, f, kg_tp *), *CFIELD2(o, f, int));
		break;
	case T_ENUM:
		sbuf_add_json_str(b, f->name(*CFIELD(o, f, uint8_t)));
		break;
	case T_BOOL:
		sbuf_adds(b, "true");
		break;
	case T_MEMBERS:
		put_members(b, o);
		break;
	default:
		break;
	}
}

/* Append o as one JSON object in schema sid. */
void
obs_codec_write(sbuf *b, const kg_obs *o, obs_schema sid)
{
	const schema *s = &schemas[sid];
	bool first = true;
	int i;
	sbuf_addc(b, '{');
	if (s->version_key != NULL) {
		sbuf_addf(b, "\"%s\":%d", s->version_key, s->version);
		first = false;
	}
	for (i = 0; i < s->n; i++) {
		const field *f = &fields[s->order[i]];
		if (!known(o, f, s))
			continue;
		sbuf_addf(b, "%s\"%s\":", first ? "" : ",", f->key[sid]);
		first = false;
		put_value(b, o, f, s);
	}
	sbuf_addc(b, '}');
}

/* ------------------------------------------------------------ reading */

/* A static copy of an observation's source name (observations keep the pointer forever). */
static const char *
source_intern(const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char **names;
	static size_t n, cap;
	const char *res = NULL;
	size_t i;
	pthread_mutex_lock(&lock);
	for (i = 0; i < n && res == NULL; i++) {
		if (strcmp(names[i], name) == 0)
			res = names[i];
	}
	if (res == NULL) {
		util_grow(&names, &cap, n + 1, sizeof *names);
		names[n] = xstrdup(name);
		res = names[n++];
	}
	pthread_mutex_unlock(&lock);
	return res;
}

/* A copy of a JSON string, sanitized when foreign; NULL when v is not a string. */
static char *
get_text(const cJSON *v, bool foreign)
{
	char *s;
	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return NULL;
	s = xstrdup(v->valuestring);
	if (foreign)
		util_sanitize_text(s);
	return s;
}

/* A time: microseconds (a foreign one may have a fraction), or an RFC 3339 string. */
static bool
get_time(const cJSON *v, bool foreign, int64_t *out)
{
	if (cJSON_IsString(v))
		return json_parse_time(v->valuestring, out) == 0;
	if (!foreign)
		return json_get_i64(v, out);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 || v->valuedouble > 9e15)
		return false;
	*out = (int64_t)v->valuedouble;
	return true;
}

/* A group name into its interned id (a foreign one sanitized and not empty). */
static bool
get_group(const cJSON *v, bool foreign, int32_t *out)
{
	char *g = get_text(v, foreign);
	if (g == NULL || (foreign && g[0] == '\0')) {
		free(g);
		return false;
	}
	*out = intern_group(g);
	free(g);
	return true;
}

/* A protocol name; an unknown one is an error, or ignored when foreign. */
static bool
get_proto(const cJSON *v, bool foreign, kg_proto *out)
{
	int p = json_get_enum(v, KG_PROTO_COUNT, json_proto_name);
	if (p >= 0)
		*out = (kg_proto)p;
	return cJSON_IsString(v) && (p >= 0 || foreign);
}

/* An integer within its type, or within the field's bounds when foreign. */
static bool
get_integer(const cJSON *v, const field *f, bool foreign, int64_t *out)
{
	if (foreign)
		return json_get_int(v, f->lo, f->hi, out);
	if (f->type == T_I32)
		return json_get_int(v, INT32_MIN, INT32_MAX, out);
	return json_get_i64(v, out);
}

/* A rate: any number, or a finite one (negative: unknown) when foreign. */
static bool
get_rate(const cJSON *v, bool foreign, double *out)
{
	if (!cJSON_IsNumber(v) || (foreign && !isfinite(v->valuedouble)))
		return false;
	*out = foreign && v->valuedouble < 0 ? -1 : v->valuedouble;
	return true;
}

/* A member's string field (absent or null: NULL). */
static char *
member_str(const cJSON *m, const char *key, bool foreign)
{
	return get_text(cJSON_GetObjectItemCaseSensitive(m, key), foreign);
}

/* A member's integer field (absent: -1). */
static int64_t
member_int(const cJSON *m, const char *key)
{
	int64_t x;
	return json_get_int(cJSON_GetObjectItemCaseSensitive(m, key), -1, SETTING, &x) ? x : -1;
}

/* A generation's members; 0, or -1 with err. */
static int
get_members(kg_obs *o, const cJSON *v, bool foreign, const char *what, char *err, size_t errsz)
{
	const cJSON *m;
	if (!cJSON_IsArray(v))
		return util_err(err, errsz, "%s: not an array", what);
	cJSON_ArrayForEach(m, v)
	{
		kg_obs_member *x;
		kg_tp *parts = NULL;
		int nparts = 0;
		char *id, *client, *inst, *host;
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(m, "partitions");
		if (!cJSON_IsObject(m))
			return util_err(err, errsz, "%s: a member is not an object", what);
		if (p != NULL && !cJSON_IsNull(p) && json_get_set(p, foreign, &parts, &nparts, what, err, errsz) < 0)
			return -1;
		id = member_str(m, "member_id", foreign);
		client = member_str(m, "client_id", foreign);
		inst = member_str(m, "instance_id", foreign);
		host = member_str(m, "host", foreign);
		x = obs_add_member(o, id, client, inst, host, parts, nparts);
		x->session_timeout_ms = member_int(m, "session_timeout_ms");
		x->rebalance_timeout_ms = member_int(m, "rebalance_timeout_ms");
		free(id);
		free(client);
		free(inst);
		free(host);
		free(parts);
	}
	return 0;
}

/* Decode the non-null value v into the field of o; 0, or -1 (err filled for partitions). */
static int
decode(kg_obs *o, const field *f, const cJSON *v, bool foreign, const char *what, char *err, size_t errsz)
{
	int64_t x;
	char *s;
	switch (f->type) {
	case T_TIME:
		return get_time(v, foreign, &o->time_us) ? 0 : -1;
	case T_GROUP:
		return get_group(v, foreign, &o->group) ? 0 : -1;
	case T_SOURCE:
		o->source = source_intern(cJSON_IsString(v) ? v->valuestring : "");
		return 0;
	case T_STR:
		if ((s = get_text(v, foreign)) == NULL)
			return -1;
		free(*FIELD(o, f, char *));
		*FIELD(o, f, char *) = s;
		return 0;
	case T_REASON:
		if (!cJSON_IsString(v))
			return -1;
		o->reason = reason_parse(v->valuestring);
		return 0;
	case T_PROTO:
		return get_proto(v, foreign, &o->proto) ? 0 : -1;
	case T_I32:
	case T_I64:
		if (!get_integer(v, f, foreign, &x))
			return -1;
		if (f->type == T_I32)
			*FIELD(o, f, int32_t) = (int32_t)x;
		else
			*FIELD(o, f, int64_t) = x;
		return 0;
	case T_RATE:
		return get_rate(v, foreign, FIELD(o, f, double)) ? 0 : -1;
	case T_PARTS:
		free(*FIELD(o, f, kg_tp *));
		*FIELD(o, f, kg_tp *) = NULL;
		*FIELD2(o, f, int) = 0;
		return json_get_set(v, foreign, FIELD(o, f, kg_tp *), FIELD2(o, f, int), what, err, errsz);
	case T_ENUM:
		/* a name this kgtop does not know is unknown, not an error: newer writers may add names */
		x = json_get_enum(v, (int)f->hi, f->name);
		if (!cJSON_IsString(v))
			return -1;
		*FIELD(o, f, uint8_t) = (uint8_t)(x > 0 ? x : 0);
		return 0;
	case T_BOOL:
		if (!cJSON_IsBool(v))
			return -1;
		*FIELD(o, f, bool) = cJSON_IsTrue(v);
		return 0;
	case T_MEMBERS:
		return get_members(o, v, foreign, what, err, errsz);
	default:
		return -1;
	}
}

/*
 * Read one field of j: its key in schema sid, else its spelling in the
 * other schema; the first that decodes wins.  A bad value under the
 * schema's own key is an error; under the other spelling it is ignored,
 * as a key the schema does not know.  Absent (or null) is unknown, except
 * for the time, which every observation has.
 */
static int
read_field(const cJSON *j, kg_obs *o, const field *f, obs_schema sid, const char *kind, char *err, size_t errsz)
{
	bool bad = false;
	char what[64];
	int k;
	snprintf(what, sizeof what, "obs %s: %s", kind, f->key[OBS_RECORDING]);
	for (k = 0; k < OBS_SCHEMA_COUNT; k++) {
		const char *key = f->key[(sid + k) % OBS_SCHEMA_COUNT];
		const cJSON *v;
		if (key == NULL || (k > 0 && strcmp(key, f->key[sid]) == 0))
			continue;
		v = cJSON_GetObjectItemCaseSensitive(j, key);
		if (v == NULL || cJSON_IsNull(v))
			continue;
		if (decode(o, f, v, schemas[sid].foreign, what, err, errsz) == 0)
			return 0;
		if (k == 0) {
			bad = true;
			if (f->type != T_PARTS && f->type != T_MEMBERS) /* these say what is wrong themselves */
				util_err(err, errsz, "obs %s: bad %s", kind, key);
		}
	}
	if (bad)
		return -1;
	if (f->type == T_TIME)
		return util_err(err, errsz, "obs %s: no time", kind);
	return 0;
}

/* Fill err; returns rc. */
static int
fail(int rc, char *err, size_t errsz, const char *what)
{
	snprintf(err, errsz, "obs: %s", what);
	return rc;
}

/* Read one observation. */
int
obs_codec_read(const cJSON *j, obs_schema sid, const char *source, kg_obs **out, char *err, size_t errsz)
{
	const schema *s = &schemas[sid];
	const cJSON *kind;
	kg_obs *o;
	int k, i;
	*out = NULL;
	if (!cJSON_IsObject(j))
		return fail(OBS_MALFORMED, err, errsz, "not an object");
	if (s->version_key != NULL) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, s->version_key);
		if (!cJSON_IsNumber(v))
			return fail(OBS_MALFORMED, err, errsz, "no version");
		if (v->valuedouble != s->version)
			return fail(OBS_OTHER_VERSION, err, errsz, "another version");
	}
	kind = cJSON_GetObjectItemCaseSensitive(j, fields[F_KIND].key[sid]);
	k = cJSON_IsString(kind) ? obs_kind_parse(kind->valuestring) : -1;
	if (k < 0)
		return fail(cJSON_IsString(kind) ? OBS_UNKNOWN_KIND : OBS_MALFORMED, err, errsz, "unknown kind");
	o = obs_new((kg_obs_kind)k, 0, -1, source);
	for (i = F_KIND + 1; i < F_COUNT; i++) {
		if (fields[i].key[sid] != NULL && read_field(j, o, &fields[i], sid, kind->valuestring, err, errsz) < 0) {
			obs_free(o);
			return OBS_MALFORMED;
		}
	}
	*out = o;
	return 0;
}

/* ------------------------------------------------------------ the table */

/* The number of fields. */
int
obs_codec_nfields(void)
{
	return F_COUNT;
}

/* Field i. */
obs_codec_field
obs_codec_field_at(int i)
{
	obs_codec_field r = { { NULL, NULL }, NULL };
	int k;
	if (i < 0 || i >= F_COUNT)
		return r;
	for (k = 0; k < OBS_SCHEMA_COUNT; k++)
		r.key[k] = fields[i].key[k];
	r.type = type_names[fields[i].type];
	return r;
}

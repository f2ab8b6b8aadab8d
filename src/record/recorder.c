/*
 * recorder.c: --record FILE (see recorder.h; the format is kgtop-record(5)).
 *
 * The recorder hangs on the collector's tap.  before() encodes the
 * observations the tracker is about to consume (they are gone after it);
 * after() encodes the snapshot as a delta against the previous one, which
 * it keeps by reference, appends the derived events, and writes the whole
 * tick as one line with one fwrite and one fflush.  Only the builder's
 * inputs are written (what sources contributed), never what the tracker
 * or builder_finish() derive, so a replay rebuilds the same snapshots and
 * derives the same events.  Offsets that change every tick (log-end and
 * committed) are written as differences from the previous line, per topic
 * in partition order, which keeps an hour of a busy cluster small.  A
 * keyframe (every object in full) starts each file and comes every
 * KEYFRAME_US; with a size limit the file rotates into FILE.1 before a
 * line that would cross it, and the new file starts with a header and a
 * keyframe.  A write error (a full disk) pauses the recording: the file
 * is cut back to its last whole line, the ticks meanwhile are counted as
 * lost (their numbers "n" are skipped, so a replay sees the gap), and each
 * later tick tries again, from a keyframe; the health source ("record"),
 * which the header shows, says so.  An error rotating stops it.
 * Observations are written by the observation table (obs_codec.h, the
 * recording schema), events as --json writes them (json.h).
 */
#include "config.h"

#include "record/recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/intern.h"
#include "record/format.h"
#include "record/json.h"
#include "record/obs_codec.h"
#include "util/secfile.h"
#include "util/util.h"

#define KEYFRAME_US (60LL * 1000000)
#define RECORD_SOURCE "record"

struct kg_recorder {
	char *path;
	int64_t max_bytes;
	FILE *f;
	int64_t size;          /* bytes in the current file */
	int64_t ticks;         /* tick lines in the current file */
	int64_t seq;           /* tick lines of the whole recording: "n", so a lost line shows */
	int rotations;
	kg_snapshot *prev;     /* what the previous line described; NULL: next is a keyframe */
	int64_t last_key_us;
	int64_t start_us;      /* time of the first tick of the current file */
	kg_tracker_config tcfg;
	bool has_tcfg;
	sbuf obs;              /* this tick's observations, encoded by before() */
	sbuf line;
	char *error;
	bool paused;           /* a write failed: each tick tries again */
	int64_t good;          /* bytes of the current file up to its last whole line */
	int64_t lost;          /* ticks not recorded while paused, in all */
	int64_t resumed;       /* times the recording went on after a write error */
	int errnum;            /* the last write error */
	kg_record_sink sink;   /* a stream instead of a file: every line goes there */
	sbuf key;              /* the sink's header and keyframe for viewers joining */
};

/* ------------------------------------------------------------ encoding */

/* ,"key": */
static void
put_key(sbuf *o, const char *key)
{
	sbuf_addf(o, ",\"%s\":", key);
}

/* ,"key":N */
static void
put_int(sbuf *o, const char *key, int64_t v)
{
	sbuf_addf(o, ",\"%s\":%lld", key, (long long)v);
}

/* True when two possibly-NULL strings are equal. */
static bool
str_eq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* True when the source is recorded (kgtop's outputs, the recorder and the server, are not). */
static bool
source_recorded(const kg_source_health *h)
{
	return h->role != KG_ROLE_RECORDER && strcmp(h->name, RECORD_SOURCE) != 0;
}

/* True when the recorded sources' health is the same in both snapshots. */
static bool
sources_equal(const kg_snapshot *a, const kg_snapshot *b)
{
	int i = 0, j = 0;
	for (;;) {
		while (i < a->nsources && !source_recorded(&a->sources[i]))
			i++;
		while (j < b->nsources && !source_recorded(&b->sources[j]))
			j++;
		if (i >= a->nsources || j >= b->nsources)
			return i >= a->nsources && j >= b->nsources;
		{
			const kg_source_health *x = &a->sources[i++], *y = &b->sources[j++];
			if (strcmp(x->name, y->name) != 0 || x->status != y->status || x->since_us != y->since_us ||
			    x->last_ok_us != y->last_ok_us || !str_eq(x->message, y->message) || x->insecure != y->insecure ||
			    x->cadence_us != y->cadence_us)
				return false;
		}
	}
}

/* ,"sources":[...] */
static void
put_sources(sbuf *o, const kg_snapshot *s)
{
	int i, n = 0;
	sbuf_adds(o, ",\"sources\":[");
	for (i = 0; i < s->nsources; i++) {
		const kg_source_health *h = &s->sources[i];
		if (!source_recorded(h))
			continue;
		sbuf_adds(o, n++ ? ",{\"name\":" : "{\"name\":");
		sbuf_add_json_str(o, h->name);
		sbuf_addf(o, ",\"status\":\"%s\"", src_status_name(h->status));
		put_int(o, "since", h->since_us);
		put_int(o, "last_ok", h->last_ok_us);
		put_key(o, "message");
		json_put_str(o, h->message);
		if (h->insecure)
			sbuf_adds(o, ",\"insecure\":true");
		if (h->cadence_us > 0)
			put_int(o, "cadence", h->cadence_us);
		sbuf_addc(o, '}');
	}
	sbuf_addc(o, ']');
}

/* True when both snapshots list the same brokers. */
static bool
brokers_equal(const kg_snapshot *a, const kg_snapshot *b)
{
	int i;
	if (a->nbrokers != b->nbrokers)
		return false;
	for (i = 0; i < a->nbrokers; i++) {
		if (a->brokers[i].id != b->brokers[i].id || a->brokers[i].port != b->brokers[i].port ||
		    !str_eq(a->brokers[i].host, b->brokers[i].host))
			return false;
	}
	return true;
}

/* ,"brokers":[[id,"host",port],...] */
static void
put_brokers(sbuf *o, const kg_snapshot *s)
{
	int i;
	sbuf_adds(o, ",\"brokers\":[");
	for (i = 0; i < s->nbrokers; i++) {
		sbuf_addf(o, "%s[%d,", i ? "," : "", (int)s->brokers[i].id);
		json_put_str(o, s->brokers[i].host);
		sbuf_addf(o, ",%d]", s->brokers[i].port);
	}
	sbuf_addc(o, ']');
}

/* "name":{"leaders":[...],"log_end":[...],"log_start":[...]} */
static void
put_topic_full(sbuf *o, const kg_topic *t)
{
	int i;
	sbuf_add_json_str(o, t->name);
	sbuf_adds(o, ":{\"leaders\":[");
	for (i = 0; i < t->npartitions; i++)
		sbuf_addf(o, "%s%d", i ? "," : "", (int)t->partitions[i].leader);
	sbuf_adds(o, "],\"log_end\":[");
	for (i = 0; i < t->npartitions; i++)
		sbuf_addf(o, "%s%lld", i ? "," : "", (long long)t->partitions[i].log_end);
	sbuf_adds(o, "],\"log_start\":[");
	for (i = 0; i < t->npartitions; i++)
		sbuf_addf(o, "%s%lld", i ? "," : "", (long long)t->partitions[i].log_start);
	sbuf_adds(o, "]}");
}

/* Open a keyed section ,"key":{ on first use; *n counts its entries. */
static void
section_item(sbuf *o, const char *key, int *n)
{
	if ((*n)++ == 0)
		sbuf_addf(o, ",\"%s\":{", key);
	else
		sbuf_addc(o, ',');
}

/* Close a section opened by section_item(). */
static void
section_end(sbuf *o, int n, char close)
{
	if (n > 0)
		sbuf_addc(o, close);
}

/* Log-start differences of the topics written as differences (same shape as before), in a section of their own. */
static void
put_log_start(sbuf *o, const kg_snapshot *prev, const kg_snapshot *s)
{
	int i = 0, j, k, n = 0;
	for (j = 0; prev != NULL && j < s->ntopics; j++) {
		const kg_topic *t = &s->topics[j], *p;
		bool changed = false, same_shape;
		while (i < prev->ntopics && strcmp(prev->topics[i].name, t->name) < 0)
			i++;
		if (i >= prev->ntopics || strcmp(prev->topics[i].name, t->name) != 0)
			continue;
		p = &prev->topics[i];
		same_shape = p->npartitions == t->npartitions;
		for (k = 0; same_shape && k < t->npartitions; k++)
			same_shape = p->partitions[k].leader == t->partitions[k].leader;
		for (k = 0; same_shape && k < t->npartitions && !changed; k++)
			changed = p->partitions[k].log_start != t->partitions[k].log_start;
		if (!changed)
			continue; /* unchanged, or written in full */
		section_item(o, "log_start", &n);
		sbuf_add_json_str(o, t->name);
		sbuf_addc(o, ':');
		for (k = 0; k < t->npartitions; k++)
			sbuf_addf(o, "%c%lld", k ? ',' : '[',
				  (long long)(t->partitions[k].log_start - p->partitions[k].log_start));
		sbuf_addc(o, ']');
	}
	section_end(o, n, '}');
}

/* One read: [partition,offset,record,timestamp_ms,"why"]. */
static void
put_stamp(sbuf *o, int k, const kg_stamp *a, int *m)
{
	sbuf_addf(o, "%s[%d,%lld,%lld,%lld,\"%s\"]", (*m)++ ? "," : "", k, (long long)a->offset, (long long)a->record,
		  (long long)a->ts_ms, tlag_why_key((kg_tlag_why)a->why));
}

/*
 * The records read at committed offsets (exact time lag), per topic whose
 * reads changed since prev (NULL: every topic that has any):
 * "stamps":{"name":[[partition,offset,record,timestamp_ms,"why"],...]}
 * (a partition once per offset read: groups at other offsets), an empty
 * list when a topic's are gone.
 */
static void
put_stamps(sbuf *o, const kg_snapshot *prev, const kg_snapshot *s)
{
	int i = 0, j, k, n = 0;
	for (j = 0; j < s->ntopics; j++) {
		const kg_topic *t = &s->topics[j], *p;
		bool changed = false, any = false;
		int m = 0;
		while (prev != NULL && i < prev->ntopics && strcmp(prev->topics[i].name, t->name) < 0)
			i++;
		p = prev != NULL && i < prev->ntopics && strcmp(prev->topics[i].name, t->name) == 0 ? &prev->topics[i] : NULL;
		for (k = 0; k < t->npartitions; k++) {
			const kg_stamp *a = &t->partitions[k].stamp;
			any |= a->offset >= 0;
			if (p == NULL ? a->offset >= 0 : k >= p->npartitions ? a->offset >= 0 : !partition_stamps_same(&t->partitions[k], &p->partitions[k]))
				changed = true;
		}
		for (k = t->npartitions; p != NULL && k < p->npartitions; k++)
			changed |= p->partitions[k].stamp.offset >= 0;
		if (!changed || (p == NULL && !any))
			continue;
		section_item(o, "stamps", &n);
		sbuf_add_json_str(o, t->name);
		sbuf_adds(o, ":[");
		for (k = 0; k < t->npartitions; k++) {
			const kg_partition *pp = &t->partitions[k];
			int x;
			if (pp->stamp.offset >= 0)
				put_stamp(o, k, &pp->stamp, &m);
			for (x = 0; x < pp->nmore; x++)
				put_stamp(o, k, &pp->more[x], &m);
		}
		sbuf_addc(o, ']');
	}
	section_end(o, n, '}');
}

/* The topics of s against prev (NULL: all in full). */
static void
put_topics(sbuf *o, const kg_snapshot *prev, const kg_snapshot *s)
{
	int i = 0, j = 0, k, nfull = 0, ndiff = 0, ngone = 0;
	/* full entries and differences are two sections: write them in two passes */
	for (j = 0; j < s->ntopics; j++) {
		const kg_topic *t = &s->topics[j], *p;
		bool same_shape;
		while (prev != NULL && i < prev->ntopics && strcmp(prev->topics[i].name, t->name) < 0)
			i++;
		p = prev != NULL && i < prev->ntopics && strcmp(prev->topics[i].name, t->name) == 0 ? &prev->topics[i] : NULL;
		same_shape = p != NULL && p->npartitions == t->npartitions;
		for (k = 0; same_shape && k < t->npartitions; k++)
			same_shape = p->partitions[k].leader == t->partitions[k].leader;
		if (!same_shape) {
			section_item(o, "topics", &nfull);
			put_topic_full(o, t);
		}
	}
	section_end(o, nfull, '}');
	for (i = 0, j = 0; prev != NULL && j < s->ntopics; j++) {
		const kg_topic *t = &s->topics[j], *p;
		bool changed = false;
		while (i < prev->ntopics && strcmp(prev->topics[i].name, t->name) < 0)
			i++;
		if (i >= prev->ntopics || strcmp(prev->topics[i].name, t->name) != 0)
			continue;
		p = &prev->topics[i];
		if (p->npartitions != t->npartitions)
			continue;
		for (k = 0; k < t->npartitions && !changed; k++)
			changed = p->partitions[k].leader != t->partitions[k].leader;
		if (changed)
			continue; /* written in full */
		for (k = 0; k < t->npartitions && !changed; k++)
			changed = p->partitions[k].log_end != t->partitions[k].log_end;
		if (!changed)
			continue;
		section_item(o, "log_end", &ndiff);
		sbuf_add_json_str(o, t->name);
		sbuf_addc(o, ':');
		for (k = 0; k < t->npartitions; k++)
			sbuf_addf(o, "%c%lld", k ? ',' : '[', (long long)(t->partitions[k].log_end - p->partitions[k].log_end));
		sbuf_addc(o, ']');
	}
	section_end(o, ndiff, '}');
	put_log_start(o, prev, s);
	for (i = 0, j = 0; prev != NULL && i < prev->ntopics; i++) {
		while (j < s->ntopics && strcmp(s->topics[j].name, prev->topics[i].name) < 0)
			j++;
		if (j < s->ntopics && strcmp(s->topics[j].name, prev->topics[i].name) == 0)
			continue;
		if (ngone++ == 0)
			sbuf_adds(o, ",\"topics_gone\":[");
		else
			sbuf_addc(o, ',');
		sbuf_add_json_str(o, prev->topics[i].name);
	}
	section_end(o, ngone, ']');
}

/* True when two members are the same builder input. */
static bool
member_equal(const kg_member *a, const kg_member *b)
{
	return strcmp(a->member_id, b->member_id) == 0 && str_eq(a->client_id, b->client_id) &&
	       str_eq(a->host, b->host) && str_eq(a->instance_id, b->instance_id) && a->flags == b->flags &&
	       tp_equal(a->assignment, a->nassigned, b->assignment, b->nassigned) && a->ntarget == b->ntarget &&
	       tp_equal(a->target, a->ntarget, b->target, b->ntarget);
}

/* "members":[...] (after a comma or brace written by the caller) */
static void
put_members(sbuf *o, const kg_group *g)
{
	int i;
	sbuf_adds(o, "\"members\":[");
	for (i = 0; i < g->nmembers; i++) {
		const kg_member *m = &g->members[i];
		sbuf_adds(o, i ? ",{\"id\":" : "{\"id\":");
		sbuf_add_json_str(o, m->member_id);
		put_key(o, "client_id");
		json_put_str(o, m->client_id);
		put_key(o, "host");
		json_put_str(o, m->host);
		if (m->instance_id != NULL) {
			put_key(o, "instance_id");
			sbuf_add_json_str(o, m->instance_id);
		}
		if (m->flags != 0)
			sbuf_addf(o, ",\"flags\":%u", (unsigned)m->flags);
		put_key(o, "assignment");
		json_put_set(o, m->assignment, m->nassigned);
		if (m->ntarget >= 0) {
			put_key(o, "target");
			json_put_set(o, m->target, m->ntarget);
		}
		sbuf_addc(o, '}');
	}
	sbuf_addc(o, ']');
}

/* "parts":{"topic":[[p,committed],...],...} */
static void
put_group_parts(sbuf *o, const kg_group *g)
{
	int i;
	sbuf_adds(o, "\"parts\":{");
	for (i = 0; i < g->nparts; i++) {
		const kg_gpart *p = &g->parts[i];
		if (i == 0 || p->tp.topic != g->parts[i - 1].tp.topic) {
			if (i > 0)
				sbuf_adds(o, "],");
			sbuf_add_json_str(o, intern_topic_name(p->tp.topic));
			sbuf_adds(o, ":[");
		} else {
			sbuf_addc(o, ',');
		}
		sbuf_addf(o, "[%d,%lld]", p->tp.partition, (long long)p->committed);
	}
	sbuf_adds(o, g->nparts > 0 ? "]}" : "}");
}

/* True when both groups use the same partitions in the same order. */
static bool
parts_same_set(const kg_group *a, const kg_group *b)
{
	int i;
	if (a->nparts != b->nparts)
		return false;
	for (i = 0; i < a->nparts; i++) {
		if (a->parts[i].tp.topic != b->parts[i].tp.topic || a->parts[i].tp.partition != b->parts[i].tp.partition)
			return false;
	}
	return true;
}

/* Separator inside a group object: '{' first, then ','. */
static void
group_field(sbuf *o, int *n)
{
	sbuf_addc(o, (*n)++ ? ',' : '{');
}

/* A string field of a group when it changed ("key":null once it is gone); in full only when set. */
static void
put_group_str(sbuf *body, int *n, const char *key, const char *old, const char *s, bool full)
{
	if (full ? s == NULL : str_eq(old, s))
		return;
	group_field(body, n);
	sbuf_addf(body, "\"%s\":", key);
	json_put_str(body, s);
}

/* What format 2 added to a group: its type, the names its source gave, its note (only when changed or set). */
static void
put_group_kip(sbuf *body, int *n, const kg_group *p, const kg_group *g)
{
	bool full = p == NULL;
	if (full ? g->type != KG_GTYPE_UNKNOWN : p->type != g->type) {
		group_field(body, n);
		sbuf_addf(body, "\"type\":\"%s\"", gtype_key((kg_group_type)g->type));
	}
	put_group_str(body, n, "type_name", full ? NULL : p->type_name, g->type_name, full);
	put_group_str(body, n, "state_name", full ? NULL : p->state_name, g->state_name, full);
	put_group_str(body, n, "note", full ? NULL : p->note, g->note, full);
	if (full ? g->members_unknown : p->members_unknown != g->members_unknown) {
		group_field(body, n);
		sbuf_addf(body, "\"members_unknown\":%s", g->members_unknown ? "true" : "false");
	}
}

/* One group against its previous self (p NULL: in full); writes nothing when unchanged. */
static void
put_group(sbuf *o, const kg_group *p, const kg_group *g, int *ngroups)
{
	sbuf body = { 0 };
	int n = 0, i;
	bool full = p == NULL;
	if (full || p->state != g->state) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"state\":\"%s\"", state_name(g->state));
	}
	if (full || !str_eq(p->protocol_type, g->protocol_type)) {
		group_field(&body, &n);
		sbuf_adds(&body, "\"protocol_type\":");
		json_put_str(&body, g->protocol_type);
	}
	if (full || !str_eq(p->assignor, g->assignor)) {
		group_field(&body, &n);
		sbuf_adds(&body, "\"assignor\":");
		json_put_str(&body, g->assignor);
	}
	if (full || p->proto != g->proto) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"protocol\":\"%s\"", proto_name(g->proto));
	}
	if (full || p->coordinator != g->coordinator) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"coordinator\":%d", (int)g->coordinator);
	}
	if (full || p->simple != g->simple) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"simple\":%s", g->simple ? "true" : "false");
	}
	if (full || p->exact != g->exact) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"exact\":%s", g->exact ? "true" : "false");
	}
	if (full || !str_eq(p->error, g->error)) {
		group_field(&body, &n);
		sbuf_adds(&body, "\"error\":");
		json_put_str(&body, g->error);
	}
	put_group_kip(&body, &n, p, g);
	if ((full && g->data_time_us > 0) || (!full && p->data_time_us != g->data_time_us)) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"data_time\":%lld", (long long)g->data_time_us);
	}
	if ((full && g->offs_time_us > 0) || (!full && p->offs_time_us != g->offs_time_us)) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"offsets_time\":%lld", (long long)g->offs_time_us);
	}
	if ((full && g->pace_ms > 0) || (!full && p->pace_ms != g->pace_ms)) {
		group_field(&body, &n);
		sbuf_addf(&body, "\"pace\":%d", (int)g->pace_ms);
	}
	{
		bool same = !full && p->nmembers == g->nmembers;
		for (i = 0; same && i < g->nmembers; i++)
			same = member_equal(&p->members[i], &g->members[i]);
		if (!same) {
			group_field(&body, &n);
			put_members(&body, g);
		}
	}
	if (full || !parts_same_set(p, g)) {
		group_field(&body, &n);
		put_group_parts(&body, g);
	} else {
		/* committed offsets as differences, over the group's partitions in order */
		bool changed = false;
		for (i = 0; i < g->nparts && !changed; i++)
			changed = g->parts[i].committed != p->parts[i].committed;
		if (changed) {
			group_field(&body, &n);
			sbuf_adds(&body, "\"committed\":");
			for (i = 0; i < g->nparts; i++)
				sbuf_addf(&body, "%c%lld", i ? ',' : '[', (long long)(g->parts[i].committed - p->parts[i].committed));
			sbuf_addc(&body, ']');
		}
	}
	if (n > 0) {
		section_item(o, "groups", ngroups);
		sbuf_add_json_str(o, g->name);
		sbuf_addc(o, ':');
		sbuf_addn(o, body.s, body.len);
		sbuf_addc(o, '}');
	}
	sbuf_free(&body);
}

/* The groups of s against prev (NULL: all in full), and the groups gone. */
static void
put_groups(sbuf *o, const kg_snapshot *prev, const kg_snapshot *s)
{
	int i = 0, j, ngroups = 0, ngone = 0;
	for (j = 0; j < s->ngroups; j++) {
		const kg_group *g = &s->groups[j], *p = NULL;
		while (prev != NULL && i < prev->ngroups && strcmp(prev->groups[i].name, g->name) < 0)
			i++;
		if (prev != NULL && i < prev->ngroups && strcmp(prev->groups[i].name, g->name) == 0)
			p = &prev->groups[i];
		put_group(o, p, g, &ngroups);
	}
	section_end(o, ngroups, '}');
	for (i = 0, j = 0; prev != NULL && i < prev->ngroups; i++) {
		while (j < s->ngroups && strcmp(s->groups[j].name, prev->groups[i].name) < 0)
			j++;
		if (j < s->ngroups && strcmp(s->groups[j].name, prev->groups[i].name) == 0)
			continue;
		if (ngone++ == 0)
			sbuf_adds(o, ",\"groups_gone\":[");
		else
			sbuf_addc(o, ',');
		sbuf_add_json_str(o, prev->groups[i].name);
	}
	section_end(o, ngone, ']');
}

/* Append the tick line to o: the snapshot (a delta unless key), observations, events. */
static void
encode_tick(kg_recorder *r, sbuf *o, const kg_snapshot *s, const kg_evlist *ev, bool key)
{
	const kg_snapshot *prev = key ? NULL : r->prev;
	size_t k;
	sbuf_addf(o, "{\"t\":%lld,\"n\":%lld", (long long)s->time_us, (long long)r->seq);
	if (key)
		sbuf_adds(o, ",\"key\":true");
	sbuf_adds(o, ",\"time\":");
	json_put_time(o, s->time_us);
	if (s->refresh > 0 && (prev == NULL || prev->refresh != s->refresh || prev->interval_us != s->interval_us))
		sbuf_addf(o, ",\"refresh\":{\"n\":%llu,\"data_time\":%lld,\"interval\":%lld}",
			  (unsigned long long)s->refresh, (long long)s->data_time_us, (long long)s->interval_us);
	if (prev == NULL || !sources_equal(prev, s))
		put_sources(o, s);
	if (prev == NULL || !brokers_equal(prev, s))
		put_brokers(o, s);
	put_topics(o, prev, s);
	put_stamps(o, prev, s);
	put_groups(o, prev, s);
	if (r->obs.len > 0) {
		sbuf_adds(o, ",\"obs\":[");
		sbuf_addn(o, r->obs.s, r->obs.len);
		sbuf_addc(o, ']');
	}
	if (ev != NULL && ev->n > 0) {
		sbuf_adds(o, ",\"events\":[");
		for (k = 0; k < ev->n; k++) {
			if (k)
				sbuf_addc(o, ',');
			json_put_event(o, ev->v[k], r->start_us, JSON_PARTS_LIST);
		}
		sbuf_addc(o, ']');
	}
	sbuf_adds(o, "}\n");
}

/* The header line of a file (or a stream) that starts with the tick at start_us. */
static void
encode_header(kg_recorder *r, sbuf *o, int64_t start_us, const char *cluster)
{
	sbuf_addf(o, "{\"kgtop_record\":%d,\"kgtop\":\"%s\",\"start\":", KG_RECORD_VERSION, PACKAGE_VERSION);
	json_put_time(o, start_us);
	put_int(o, "start_us", start_us);
	put_key(o, "cluster");
	json_put_str(o, cluster);
	sbuf_addf(o, ",\"rotation\":%d", r->rotations);
	if (r->has_tcfg) {
		const kg_tracker_config *c = &r->tcfg;
		sbuf_adds(o, ",\"model\":{");
		sbuf_addf(o, "\"session_timeout_us\":%lld,\"session_from\":\"%s\"", (long long)c->session_timeout_us,
			  limit_src_name(c->session_src));
		sbuf_addf(o, ",\"max_poll_us\":%lld,\"max_poll_from\":\"%s\"", (long long)c->max_poll_us,
			  limit_src_name(c->max_poll_src));
		sbuf_addf(o, ",\"storm_window_us\":%lld,\"storm_episodes\":%d,\"storm_ratio\":",
			  (long long)c->storm_window_us, c->storm_episodes);
		json_put_double(o, c->storm_ratio);
		sbuf_addf(o, ",\"orphan_grace_us\":%lld,\"window_us\":%lld,\"lag_window_us\":%lld}",
			  (long long)c->orphan_grace_us, (long long)c->window_us, (long long)c->lag_window_us);
	}
	sbuf_adds(o, "}\n");
}

/* Stop recording with an error message. */
static void
recorder_fail(kg_recorder *r, const char *what, int errnum)
{
	if (r->error == NULL)
		r->error = xasprintf("%s: %s: %s (recording stopped)", r->path, what, strerror(errnum));
	if (r->f != NULL)
		fclose(r->f);
	r->f = NULL;
	r->paused = false;
}

/* A write failed (a full disk): pause; the next ticks try again. */
static void
recorder_pause(kg_recorder *r, int errnum)
{
	free(r->error);
	r->error = xasprintf("%s: write failed: %s (recording paused, trying again each refresh)", r->path,
			     strerror(errnum));
	r->errnum = errnum;
	if (r->f != NULL)
		fclose(r->f); /* what is still buffered fails too: the file is cut back when it goes on */
	r->f = NULL;
	r->paused = true;
}

/* Try to go on after a write error: the file cut back to its last whole line, a keyframe next. */
static bool
recorder_resume(kg_recorder *r)
{
	int fd = open(r->path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW); /* its own file: no link put there meanwhile */
	if (fd < 0 || ftruncate(fd, r->good) != 0 || lseek(fd, 0, SEEK_END) < 0 || (r->f = fdopen(fd, "a")) == NULL) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	r->size = r->good;
	snapshot_unref(r->prev);
	r->prev = NULL; /* the line before the gap is not the one before the next */
	r->paused = false;
	return true;
}

/* Write bytes to the current file; false (and the recording pauses) on error. */
static bool
recorder_write(kg_recorder *r, const char *s, size_t n)
{
	if (r->f == NULL)
		return false;
	if (fwrite(s, 1, n, r->f) != n) {
		recorder_pause(r, errno ? errno : EIO);
		return false;
	}
	r->size += (int64_t)n;
	return true;
}

/* Move FILE to FILE.1 and open a new FILE. */
static bool
recorder_rotate(kg_recorder *r)
{
	char *old = xasprintf("%s.1", r->path);
	int e = 0;
	if (fclose(r->f) != 0)
		e = errno;
	r->f = NULL;
	if (e == 0 && rename(r->path, old) != 0)
		e = errno;
	free(old);
	if (e != 0) {
		recorder_fail(r, "cannot rotate", e);
		return false;
	}
	r->f = secfile_create(r->path, "w", "--record", NULL, 0); /* a new file: one put there meanwhile is refused */
	if (r->f == NULL) {
		recorder_fail(r, "cannot open after rotating", errno);
		return false;
	}
	r->rotations++;
	r->size = r->good = 0;
	r->ticks = 0;
	return true;
}

/* Tap: encode the observations before the tracker consumes them. */
static void
tap_before(void *arg, const kg_obsq *obs, const kg_snapshot *snap)
{
	kg_recorder *r = arg;
	size_t i;
	(void)snap;
	sbuf_reset(&r->obs);
	if ((r->f == NULL && r->sink.line == NULL) || obs == NULL)
		return;
	for (i = 0; i < obs->n; i++) {
		if (i)
			sbuf_addc(&r->obs, ',');
		obs_codec_write(&r->obs, obs->v[i], OBS_RECORDING);
	}
}

/* Keep snap (published and immutable from here on) as what the next line is a delta against. */
static void
keep_prev(kg_recorder *r, const kg_snapshot *snap)
{
	snapshot_unref(r->prev);
	r->prev = snapshot_ref((kg_snapshot *)snap);
}

/*
 * A stream's tick: the line against the previous one to the sink, and
 * when viewers join, the header and a keyframe of the same tick for them
 * (they go on with the lines after it).  Only the first line is a
 * keyframe: a stream has no rotation, and each viewer starts with one.
 * While nobody reads the lines they are not encoded (the snapshot a
 * line would be a delta against is kept all the same).
 */
static void
sink_tick(kg_recorder *r, const kg_snapshot *snap, const kg_evlist *events)
{
	bool key = r->prev == NULL, lines = r->sink.want_line(r->sink.arg);
	if (r->ticks == 0)
		r->start_us = snap->time_us;
	sbuf_reset(&r->line);
	if (lines || key)
		encode_tick(r, &r->line, snap, events, key);
	if (lines)
		r->sink.line(r->sink.arg, r->seq, r->line.s, r->line.len);
	if (r->sink.want_key(r->sink.arg)) {
		size_t hlen;
		sbuf_reset(&r->key);
		encode_header(r, &r->key, r->start_us, snap->cluster);
		hlen = r->key.len;
		if (key)
			sbuf_addn(&r->key, r->line.s, r->line.len);
		else
			encode_tick(r, &r->key, snap, events, true);
		r->sink.key(r->sink.arg, r->seq, r->key.s, hlen, r->key.len);
	}
	r->ticks++;
	r->seq++;
	keep_prev(r, snap);
}

/* Tap: write the tick (header first in a new file), rotating when the line would cross the limit. */
static void
tap_after(void *arg, const kg_snapshot *snap, const kg_evlist *events)
{
	kg_recorder *r = arg;
	bool key;
	if (r->sink.line != NULL) {
		sink_tick(r, snap, events);
		return;
	}
	if (r->paused && !recorder_resume(r)) {
		r->seq++; /* this tick is lost: its number is skipped */
		r->lost++;
		return;
	}
	if (r->f == NULL)
		return;
	key = r->prev == NULL || r->ticks == 0 || snap->time_us - r->last_key_us >= KEYFRAME_US ||
	      snap->time_us < r->last_key_us;
	if (r->ticks == 0)
		r->start_us = snap->time_us;
	sbuf_reset(&r->line);
	encode_tick(r, &r->line, snap, events, key);
	if (r->max_bytes > 0 && r->ticks > 0 && r->size + (int64_t)r->line.len > r->max_bytes) {
		if (!recorder_rotate(r))
			return;
		r->start_us = snap->time_us;
		key = true;
		sbuf_reset(&r->line);
		encode_tick(r, &r->line, snap, events, key);
	}
	if (r->ticks == 0) {
		sbuf h = { 0 };
		bool ok;
		encode_header(r, &h, snap->time_us, snap->cluster);
		ok = recorder_write(r, h.s, h.len);
		sbuf_free(&h);
		if (!ok)
			return;
	}
	if (!recorder_write(r, r->line.s, r->line.len) || fflush(r->f) != 0) {
		if (r->f != NULL)
			recorder_pause(r, errno ? errno : EIO);
		r->seq++;
		r->lost++;
		return;
	}
	if (r->error != NULL) {
		/* going on after a write error */
		free(r->error);
		r->error = NULL;
		r->resumed++;
	}
	r->good = r->size;
	r->ticks++;
	r->seq++;
	if (key)
		r->last_key_us = snap->time_us;
	keep_prev(r, snap);
}

/* ------------------------------------------------------------- public */

/* Open FILE for recording. */
int
recorder_open(const char *path, int64_t max_bytes, kg_recorder **out, char *err, size_t errsz)
{
	kg_recorder *r;
	FILE *f = secfile_create(path, "w", "--record", err, errsz); /* a new file, 0600, like every file kgtop writes */
	if (f == NULL)
		return -1;
	r = xcalloc(1, sizeof *r);
	r->path = xstrdup(path);
	r->max_bytes = max_bytes > 0 ? max_bytes : 0;
	r->f = f;
	*out = r;
	return 0;
}

/* A recorder writing to a sink instead of a file. */
void
recorder_open_sink(const kg_record_sink *sink, kg_recorder **out)
{
	kg_recorder *r = xcalloc(1, sizeof *r);
	r->path = xstrdup("(stream)");
	r->sink = *sink;
	*out = r;
}

/* Remember the model's settings for the header. */
void
recorder_settings(kg_recorder *r, const kg_tracker_config *cfg)
{
	r->tcfg = *cfg;
	r->has_tcfg = true;
}

/* The tap. */
void
recorder_tap(kg_recorder *r, kg_tap *tap)
{
	tap->before = tap_before;
	tap->after = tap_after;
	tap->arg = r;
}

/* The last error. */
const char *
recorder_error(kg_recorder *r)
{
	return r->error;
}

/* Flush and close. */
void
recorder_close(kg_recorder *r)
{
	if (r == NULL)
		return;
	if (r->f != NULL && fclose(r->f) != 0 && r->error == NULL)
		r->error = xasprintf("%s: close failed: %s", r->path, strerror(errno));
	snapshot_unref(r->prev);
	sbuf_free(&r->obs);
	sbuf_free(&r->line);
	sbuf_free(&r->key);
	free(r->error);
	free(r->path);
	free(r);
}

/* ------------------------------------------------- the health source */

/* Health source: report the recording's state. */
static void
recsrc_contribute(kg_source *s, kg_builder *b)
{
	kg_recorder *r = s->impl;
	kg_source_health h;
	char *msg;
	memset(&h, 0, sizeof h);
	h.name = RECORD_SOURCE;
	h.status = r->error != NULL ? KG_SRC_ERROR : KG_SRC_OK;
	h.since_us = r->start_us;
	h.last_ok_us = r->prev != NULL ? r->prev->time_us : 0;
	if (r->error != NULL)
		msg = xasprintf("%s; %lld tick%s not recorded", r->error, (long long)r->lost, r->lost == 1 ? "" : "s");
	else if (r->resumed > 0)
		msg = xasprintf("to %s, going on after a write error (%s); %lld tick%s not recorded", r->path,
				strerror(r->errnum), (long long)r->lost, r->lost == 1 ? "" : "s");
	else if (r->rotations > 0)
		msg = xasprintf("to %s (rotated %d time%s)", r->path, r->rotations, r->rotations == 1 ? "" : "s");
	else
		msg = xasprintf("to %s", r->path);
	h.message = msg;
	builder_source(b, &h);
	free(msg);
}

static const kg_source_ops recsrc_ops = {
	.kind = RECORD_SOURCE,
	.role = KG_ROLE_RECORDER,
	.contribute = recsrc_contribute,
};

/* A source that shows the recorder's health. */
kg_source *
recorder_source(kg_recorder *r)
{
	return source_new(&recsrc_ops, RECORD_SOURCE, r);
}

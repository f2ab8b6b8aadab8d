/*
 * offsets_record.c: __consumer_offsets records decoded (offsets_record.h
 * has the layouts).
 *
 * A cursor reads Kafka's primitive types from a byte range and goes bad,
 * never past the end, on the first read the bytes cannot hold: each
 * decoder reads its fields in order and checks the cursor once at the end.
 * Array counts are checked against the bytes left (each element takes at
 * least one byte, or four for int32 elements) before anything is
 * allocated, so a hostile count costs nothing.  Strings and arrays are
 * copied into the record's arena: chunks that never move, all but the
 * first freed by the next decode.
 */
#include "config.h"

#include "sources/offsets/offsets_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define CHUNK (16u << 10)

/* A chunk of the arena. */
struct co_chunk {
	struct co_chunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

/* A byte range being read. */
typedef struct cur {
	const uint8_t *p;
	size_t n, at;
	bool bad;
	const char *why; /* what went bad first */
} cur;

/* ---------------------------------------------------------------- arena */

/* n bytes of the record's arena, aligned for any field: from its first chunk, else its newest (right after it). */
static void *
arena_get(kg_co_record *r, size_t n)
{
	struct co_chunk *c = r->arena;
	n = (n + 15) & ~(size_t)15;
	if (c != NULL && c->cap - c->used < n)
		c = c->next;
	if (c == NULL || c->cap - c->used < n) {
		size_t cap = n > CHUNK ? n : CHUNK;
		c = xmalloc(sizeof *c + cap);
		c->used = 0;
		c->cap = cap;
		if (r->arena == NULL) {
			c->next = NULL;
			r->arena = c; /* the first chunk, kept across decodes */
		} else {
			c->next = r->arena->next;
			r->arena->next = c;
		}
	}
	c->used += n;
	return c->data + c->used - n;
}

/* Forget everything in the arena but keep its first chunk. */
static void
arena_reset(kg_co_record *r)
{
	struct co_chunk *c = r->arena, *x;
	if (c == NULL)
		return;
	x = c->next;
	while (x != NULL) {
		struct co_chunk *nx = x->next;
		free(x);
		x = nx;
	}
	c->next = NULL;
	c->used = 0;
}

/* ---------------------------------------------------------------- cursor */

/* Mark the cursor bad (the first reason stays). */
static void
cur_fail(cur *c, const char *why)
{
	if (!c->bad)
		c->why = why;
	c->bad = true;
}

/* True when n more bytes are there. */
static bool
cur_has(cur *c, size_t n)
{
	if (c->bad || c->n - c->at < n) {
		cur_fail(c, "truncated");
		return false;
	}
	return true;
}

/* A big-endian unsigned integer of n bytes (0 when bad). */
static uint64_t
cur_be(cur *c, size_t n)
{
	uint64_t v = 0;
	size_t i;
	if (!cur_has(c, n))
		return 0;
	for (i = 0; i < n; i++)
		v = (v << 8) | c->p[c->at + i];
	c->at += n;
	return v;
}

/* int8, int16, int32, int64. */
static int8_t
rd_i8(cur *c)
{
	return (int8_t)(uint8_t)cur_be(c, 1);
}

static int16_t
rd_i16(cur *c)
{
	return (int16_t)(uint16_t)cur_be(c, 2);
}

static int32_t
rd_i32(cur *c)
{
	return (int32_t)(uint32_t)cur_be(c, 4);
}

static int64_t
rd_i64(cur *c)
{
	return (int64_t)cur_be(c, 8);
}

/* An unsigned varint of at most 32 bits (Kafka's: 7 bits a byte, low first). */
static uint32_t
rd_uvarint(cur *c)
{
	uint32_t v = 0;
	int shift;
	for (shift = 0; shift <= 28; shift += 7) {
		uint8_t b;
		if (!cur_has(c, 1))
			return 0;
		b = c->p[c->at++];
		if (shift == 28 && (b & 0xf0) != 0) {
			cur_fail(c, "varint overflows 32 bits");
			return 0;
		}
		v |= (uint32_t)(b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return v;
	}
	cur_fail(c, "varint too long");
	return 0;
}

/* A string of len bytes copied into the arena, NUL-terminated; NULL when len < 0 (null). */
static const char *
rd_bytes_str(kg_co_record *r, cur *c, int64_t len)
{
	char *s;
	if (len < 0)
		return NULL;
	if (!cur_has(c, (size_t)len))
		return NULL;
	s = arena_get(r, (size_t)len + 1);
	memcpy(s, c->p + c->at, (size_t)len);
	s[len] = '\0';
	c->at += (size_t)len;
	return s;
}

/* A string: compact (varint length + 1, 0 null) in flexible versions, else int16 length (-1 null). */
static const char *
rd_str(kg_co_record *r, cur *c, bool flexible, bool nullable)
{
	int64_t len;
	const char *s;
	if (flexible)
		len = (int64_t)rd_uvarint(c) - 1;
	else
		len = rd_i16(c);
	if (c->bad)
		return NULL;
	if (len < -1 || (len == -1 && !nullable)) {
		cur_fail(c, "bad string length");
		return NULL;
	}
	s = rd_bytes_str(r, c, len);
	return s;
}

/* A byte string's range (not copied): compact or int32 length; *len -1 for null. */
static const uint8_t *
rd_blob(cur *c, bool flexible, int64_t *len)
{
	const uint8_t *p;
	*len = flexible ? (int64_t)rd_uvarint(c) - 1 : rd_i32(c);
	if (c->bad)
		return NULL;
	if (*len < -1) {
		cur_fail(c, "bad bytes length");
		return NULL;
	}
	if (*len < 0)
		return NULL;
	if (!cur_has(c, (size_t)*len))
		return NULL;
	p = c->p + c->at;
	c->at += (size_t)*len;
	return p;
}

/* An array's count (compact: varint count + 1, 0 null; else int32, -1 null), each element at least min bytes. */
static int
rd_count(cur *c, bool flexible, size_t min)
{
	int64_t n = flexible ? (int64_t)rd_uvarint(c) - 1 : rd_i32(c);
	if (c->bad)
		return 0;
	if (n < 0)
		return 0; /* null: no elements */
	if ((uint64_t)n * min > c->n - c->at || n > 0x7fffffff / 64) {
		cur_fail(c, "array longer than the bytes left");
		return 0;
	}
	return (int)n;
}

/* 16 bytes of a uuid. */
static void
rd_uuid(cur *c, uint8_t id[16])
{
	if (!cur_has(c, 16)) {
		memset(id, 0, 16);
		return;
	}
	memcpy(id, c->p + c->at, 16);
	c->at += 16;
}

/* An array of int32 into the arena. */
static int32_t *
rd_i32_array(kg_co_record *r, cur *c, bool flexible, int *n)
{
	int32_t *v;
	int i;
	*n = rd_count(c, flexible, 4);
	if (c->bad || *n == 0)
		return NULL;
	v = arena_get(r, (size_t)*n * sizeof *v);
	for (i = 0; i < *n; i++)
		v[i] = rd_i32(c);
	return v;
}

/* A tagged field being read: its tag and its bytes. */
typedef struct tagged {
	uint32_t tag;
	cur in; /* its bytes alone */
} tagged;

/*
 * The tagged fields of a flexible struct: each given to fn (which reads
 * the ones it knows from t->in), the others skipped.
 */
static void
rd_tags(cur *c, void (*fn)(kg_co_record *r, tagged *t, void *arg), kg_co_record *r, void *arg)
{
	uint32_t n = rd_uvarint(c), i;
	for (i = 0; i < n && !c->bad; i++) {
		tagged t;
		uint32_t size;
		t.tag = rd_uvarint(c);
		size = rd_uvarint(c);
		if (!cur_has(c, size))
			return;
		t.in = (cur){ .p = c->p + c->at, .n = size };
		if (fn != NULL)
			fn(r, &t, arg);
		if (t.in.bad)
			cur_fail(c, t.in.why);
		c->at += size;
	}
}

/* ---------------------------------------------------- partitions by topic */

/* Tags of a KIP-848 topic-partitions entry: tag 0 (epochs per partition) is read to check it, not kept. */
static void
topic_tags(kg_co_record *r, tagged *t, void *arg)
{
	int n;
	(void)arg;
	if (t->tag == 0)
		(void)rd_i32_array(r, &t->in, true, &n);
}

/* A KIP-848 array of {uuid topic id, int32 partitions, tags}. */
static void
rd_id_parts(kg_co_record *r, cur *c, kg_co_parts *out)
{
	int i;
	out->n = rd_count(c, true, 16 + 2);
	if (c->bad || out->n == 0)
		return;
	out->t = arena_get(r, (size_t)out->n * sizeof *out->t);
	memset(out->t, 0, (size_t)out->n * sizeof *out->t);
	for (i = 0; i < out->n && !c->bad; i++) {
		out->t[i].npartitions = -1;
		rd_uuid(c, out->t[i].id);
		out->t[i].parts = rd_i32_array(r, c, true, &out->t[i].nparts);
		rd_tags(c, topic_tags, r, NULL);
	}
}

/* The consumer protocol's {string topic, int32 partitions} array (non-flexible). */
static void
rd_named_parts(kg_co_record *r, cur *c, kg_co_parts *out, bool with_parts)
{
	int i;
	out->n = rd_count(c, false, 2);
	if (c->bad || out->n == 0)
		return;
	out->t = arena_get(r, (size_t)out->n * sizeof *out->t);
	memset(out->t, 0, (size_t)out->n * sizeof *out->t);
	for (i = 0; i < out->n && !c->bad; i++) {
		out->t[i].npartitions = -1;
		out->t[i].name = rd_str(r, c, false, false);
		if (with_parts)
			out->t[i].parts = rd_i32_array(r, c, false, &out->t[i].nparts);
	}
}

/* ------------------------------------------------ the consumer protocol */

/* A ConsumerProtocolSubscription: true when it parsed. */
static bool
rd_subscription(kg_co_record *r, kg_co_member *m, const uint8_t *p, int64_t len)
{
	cur c = { .p = p, .n = (size_t)len };
	int16_t v = rd_i16(&c);
	int64_t ud;
	int i;
	if (c.bad || v < 0)
		return false;
	m->subscription_version = v;
	m->subscribed.n = rd_count(&c, false, 2);
	if (m->subscribed.n > 0) {
		m->subscribed.t = arena_get(r, (size_t)m->subscribed.n * sizeof *m->subscribed.t);
		memset(m->subscribed.t, 0, (size_t)m->subscribed.n * sizeof *m->subscribed.t);
		for (i = 0; i < m->subscribed.n && !c.bad; i++) {
			m->subscribed.t[i].npartitions = -1;
			m->subscribed.t[i].name = rd_str(r, &c, false, false);
		}
	}
	(void)rd_blob(&c, false, &ud); /* user data */
	if (v >= 1)
		rd_named_parts(r, &c, &m->owned, true);
	if (v >= 2)
		m->sub_generation = rd_i32(&c);
	if (v >= 3)
		(void)rd_str(r, &c, false, true); /* rack */
	return !c.bad;
}

/* A ConsumerProtocolAssignment: true when it parsed. */
static bool
rd_assignment(kg_co_record *r, kg_co_member *m, const uint8_t *p, int64_t len)
{
	cur c = { .p = p, .n = (size_t)len };
	int16_t v = rd_i16(&c);
	int64_t ud;
	if (c.bad || v < 0)
		return false;
	rd_named_parts(r, &c, &m->assignment, true);
	(void)rd_blob(&c, false, &ud);
	return !c.bad;
}

/* A classic member's subscription and assignment bytes, when the group speaks the consumer protocol. */
static void
member_embedded(kg_co_record *r, kg_co_member *m, const uint8_t *sub, int64_t nsub, const uint8_t *asg, int64_t nasg)
{
	bool ok = true;
	if (r->protocol_type == NULL || strcmp(r->protocol_type, "consumer") != 0)
		return;
	if (nsub > 0)
		ok = rd_subscription(r, m, sub, nsub);
	if (ok && nasg > 0)
		ok = rd_assignment(r, m, asg, nasg);
	if (!ok) {
		/* the record stands; this member's embedded bytes say nothing */
		memset(&m->subscribed, 0, sizeof m->subscribed);
		memset(&m->owned, 0, sizeof m->owned);
		memset(&m->assignment, 0, sizeof m->assignment);
		m->subscription_version = -1;
		r->embedded_errors++;
		return;
	}
	m->embedded = true;
}

/* ------------------------------------------------------------- values */

/* Tags of an offset commit value (v4): tag 0 is the topic's id. */
static void
commit_tags(kg_co_record *r, tagged *t, void *arg)
{
	(void)arg;
	if (t->tag == 0)
		rd_uuid(&t->in, r->topic_id);
}

/* An offset commit value, versions 0-4. */
static void
value_commit(kg_co_record *r, cur *c, int16_t v)
{
	bool flex = v >= 4;
	r->offset = rd_i64(c);
	if (r->offset < 0)
		cur_fail(c, "negative offset"); /* no commit says one; a recording could not carry it */
	if (v >= 3)
		r->leader_epoch = rd_i32(c);
	r->metadata = rd_str(r, c, flex, false);
	r->commit_ms = rd_i64(c);
	if (v == 1)
		r->expire_ms = rd_i64(c);
	if (flex)
		rd_tags(c, commit_tags, r, NULL);
}

/* A classic group's value, versions 0-4. */
static void
value_group(kg_co_record *r, cur *c, int16_t v)
{
	bool flex = v >= 4;
	int i;
	r->protocol_type = rd_str(r, c, flex, false);
	r->generation = rd_i32(c);
	r->protocol = rd_str(r, c, flex, true);
	r->leader = rd_str(r, c, flex, true);
	if (v >= 2)
		r->state_ms = rd_i64(c);
	/* a member takes at least 4 strings, 2 byte strings and a timeout */
	r->nmembers = rd_count(c, flex, flex ? 10 : 24);
	if (c->bad || r->nmembers == 0)
		goto tags;
	r->members = arena_get(r, (size_t)r->nmembers * sizeof *r->members);
	memset(r->members, 0, (size_t)r->nmembers * sizeof *r->members);
	for (i = 0; i < r->nmembers && !c->bad; i++) {
		kg_co_member *m = &r->members[i];
		const uint8_t *sub, *asg;
		int64_t nsub, nasg;
		m->rebalance_timeout_ms = -1;
		m->subscription_version = -1;
		m->sub_generation = -1;
		m->member_id = rd_str(r, c, flex, false);
		if (v >= 3)
			m->instance_id = rd_str(r, c, flex, true);
		m->client_id = rd_str(r, c, flex, false);
		m->host = rd_str(r, c, flex, false);
		if (v >= 1)
			m->rebalance_timeout_ms = rd_i32(c);
		m->session_timeout_ms = rd_i32(c);
		sub = rd_blob(c, flex, &nsub);
		asg = rd_blob(c, flex, &nasg);
		if (flex)
			rd_tags(c, NULL, r, NULL);
		if (!c->bad)
			member_embedded(r, m, sub, nsub, asg, nasg);
	}
tags:
	if (flex)
		rd_tags(c, NULL, r, NULL);
}

/* Tags of a KIP-848 group epoch: tag 0 the metadata hash. */
static void
epoch_tags(kg_co_record *r, tagged *t, void *arg)
{
	(void)arg;
	if (t->tag == 0)
		r->metadata_hash = rd_i64(&t->in);
}

/* Tags of a KIP-848 target assignment epoch: tag 0 when it was computed. */
static void
target_epoch_tags(kg_co_record *r, tagged *t, void *arg)
{
	(void)arg;
	if (t->tag == 0)
		r->assignment_ms = rd_i64(&t->in);
}

/*
 * Tags of a KIP-848 member: tag 0 its classic protocols, a nullable
 * struct whose first byte says null (0) or there (1): it speaks the
 * classic protocol (Kafka 4.3.1 writes the tag with 0 for a member of the
 * consumer protocol).
 */
static void
member_tags(kg_co_record *r, tagged *t, void *arg)
{
	(void)arg;
	if (t->tag == 0)
		r->classic_member = rd_i8(&t->in) == 1;
}

/* A KIP-848 group's subscribed topics. */
static void
value_topics(kg_co_record *r, cur *c)
{
	int i, k, nracks;
	r->topics.n = rd_count(c, true, 16 + 1 + 4 + 1 + 1);
	if (c->bad || r->topics.n == 0)
		goto tags;
	r->topics.t = arena_get(r, (size_t)r->topics.n * sizeof *r->topics.t);
	memset(r->topics.t, 0, (size_t)r->topics.n * sizeof *r->topics.t);
	for (i = 0; i < r->topics.n && !c->bad; i++) {
		kg_co_topic *t = &r->topics.t[i];
		int np;
		rd_uuid(c, t->id);
		t->name = rd_str(r, c, true, false);
		t->npartitions = rd_i32(c);
		np = rd_count(c, true, 4 + 1 + 1);
		for (k = 0; k < np && !c->bad; k++) {
			int j;
			(void)rd_i32(c);
			nracks = rd_count(c, true, 1);
			for (j = 0; j < nracks && !c->bad; j++)
				(void)rd_str(r, c, true, false);
			rd_tags(c, NULL, r, NULL);
		}
		rd_tags(c, NULL, r, NULL);
	}
tags:
	rd_tags(c, NULL, r, NULL);
}

/* A KIP-848 member's metadata. */
static void
value_member(kg_co_record *r, cur *c)
{
	int i;
	r->instance_id = rd_str(r, c, true, true);
	r->rack = rd_str(r, c, true, true);
	r->client_id = rd_str(r, c, true, false);
	r->host = rd_str(r, c, true, false);
	r->nsubscribed = rd_count(c, true, 1);
	if (!c->bad && r->nsubscribed > 0) {
		r->subscribed = arena_get(r, (size_t)r->nsubscribed * sizeof *r->subscribed);
		for (i = 0; i < r->nsubscribed; i++)
			r->subscribed[i] = rd_str(r, c, true, false);
	}
	r->regex = rd_str(r, c, true, true);
	r->rebalance_timeout_ms = rd_i32(c);
	r->server_assignor = rd_str(r, c, true, true);
	rd_tags(c, member_tags, r, NULL);
}

/* A KIP-848 value (types 3 to 8, version 0). */
static void
value_kip848(kg_co_record *r, cur *c)
{
	switch (r->type) {
	case KG_CO_EPOCH:
		r->epoch = rd_i32(c);
		rd_tags(c, epoch_tags, r, NULL);
		break;
	case KG_CO_TOPICS:
		value_topics(r, c);
		break;
	case KG_CO_MEMBER:
		value_member(r, c);
		break;
	case KG_CO_TARGET_EPOCH:
		r->epoch = rd_i32(c);
		rd_tags(c, target_epoch_tags, r, NULL);
		break;
	case KG_CO_TARGET:
		rd_id_parts(r, c, &r->assigned);
		rd_tags(c, NULL, r, NULL);
		break;
	case KG_CO_ASSIGNMENT:
		r->epoch = rd_i32(c);
		r->prev_epoch = rd_i32(c);
		r->state = rd_i8(c);
		rd_id_parts(r, c, &r->assigned);
		rd_id_parts(r, c, &r->pending);
		rd_tags(c, NULL, r, NULL);
		break;
	default:
		break;
	}
}

/* --------------------------------------------------------------- keys */

/* The type a key's first int16 names. */
static int
type_of(int16_t k)
{
	static const int8_t types[] = { KG_CO_COMMIT, KG_CO_COMMIT, KG_CO_GROUP, KG_CO_EPOCH, KG_CO_TOPICS,
					KG_CO_MEMBER, KG_CO_TARGET_EPOCH, KG_CO_TARGET, KG_CO_ASSIGNMENT };
	if (k >= 0 && k < (int16_t)KG_ARRAY_LEN(types))
		return types[k];
	if ((k >= 10 && k <= 17) || (k >= 19 && k <= 23))
		return KG_CO_OTHER; /* 9 and 18 were retired before 4.x wrote them */
	return -1;
}

/* The key's fields after its type. */
static void
key_fields(kg_co_record *r, cur *c)
{
	r->group = rd_str(r, c, false, false);
	switch (r->type) {
	case KG_CO_COMMIT:
		r->topic = rd_str(r, c, false, false);
		r->partition = rd_i32(c);
		if (r->partition < 0)
			cur_fail(c, "negative partition");
		break;
	case KG_CO_MEMBER:
	case KG_CO_TARGET:
	case KG_CO_ASSIGNMENT:
		r->member_id = rd_str(r, c, false, false);
		break;
	default:
		break;
	}
}

/* The highest value version of a type this decoder reads. */
static int16_t
max_version(const kg_co_record *r)
{
	if (r->type == KG_CO_COMMIT)
		return r->key_type == 0 ? 1 : 4; /* the first key version came with values 0 and 1 */
	if (r->type == KG_CO_GROUP)
		return 4;
	return 0;
}

/* Start a record afresh (its arena kept). */
static void
record_reset(kg_co_record *r)
{
	struct co_chunk *a = r->arena;
	memset(r, 0, sizeof *r);
	r->arena = a;
	arena_reset(r);
	r->value_version = -1;
	r->partition = -1;
	r->offset = -1;
	r->leader_epoch = -1;
	r->commit_ms = -1;
	r->expire_ms = -1;
	r->generation = -1;
	r->state_ms = -1;
	r->epoch = -1;
	r->prev_epoch = -1;
	r->state = -1;
	r->rebalance_timeout_ms = -1;
}

/* Decode one record. */
kg_co_rc
offsets_record_decode(kg_co_record *r, const void *key, size_t klen, const void *value, size_t vlen, char *err,
		      size_t errsz)
{
	cur k = { .p = key, .n = key ? klen : 0 }, v = { .p = value, .n = value ? vlen : 0 };
	int type;
	record_reset(r);
	r->key_type = rd_i16(&k);
	if (k.bad) {
		util_err(err, errsz, "key of %zu bytes: no record type", klen);
		return KG_CO_ERROR;
	}
	if ((type = type_of(r->key_type)) < 0) {
		util_err(err, errsz, "record type %d", (int)r->key_type);
		return KG_CO_UNKNOWN;
	}
	r->type = (kg_co_type)type;
	if (r->type == KG_CO_OTHER) {
		r->tombstone = value == NULL;
		return KG_CO_OK;
	}
	key_fields(r, &k);
	if (k.bad || k.at != k.n) {
		util_err(err, errsz, "%s key: %s", offsets_record_type_name(r->type), k.bad ? k.why : "bytes after its fields");
		return KG_CO_ERROR;
	}
	if (value == NULL) {
		r->tombstone = true;
		return KG_CO_OK;
	}
	r->value_version = rd_i16(&v);
	if (v.bad) {
		util_err(err, errsz, "%s value of %zu bytes: no version", offsets_record_type_name(r->type), vlen);
		return KG_CO_ERROR;
	}
	if (r->value_version < 0 || r->value_version > max_version(r)) {
		util_err(err, errsz, "%s value version %d", offsets_record_type_name(r->type), (int)r->value_version);
		return KG_CO_UNKNOWN;
	}
	if (r->type == KG_CO_COMMIT)
		value_commit(r, &v, r->value_version);
	else if (r->type == KG_CO_GROUP)
		value_group(r, &v, r->value_version);
	else
		value_kip848(r, &v);
	/* bytes after the fields: a newer minor layout that kept its version would land here; not trusted */
	if (v.bad || v.at != v.n) {
		util_err(err, errsz, "%s value version %d: %s", offsets_record_type_name(r->type), (int)r->value_version,
			 v.bad ? v.why : "bytes after its fields");
		return KG_CO_ERROR;
	}
	return KG_CO_OK;
}

/* Free the record's arena. */
void
offsets_record_free(kg_co_record *r)
{
	if (r == NULL)
		return;
	arena_reset(r);
	free(r->arena);
	r->arena = NULL;
}

/* A record type's name. */
const char *
offsets_record_type_name(kg_co_type t)
{
	static const char *const names[KG_CO_TYPE_COUNT] = {
		[KG_CO_COMMIT] = "commit",
		[KG_CO_GROUP] = "group",
		[KG_CO_EPOCH] = "epoch",
		[KG_CO_TOPICS] = "topics",
		[KG_CO_MEMBER] = "member",
		[KG_CO_TARGET_EPOCH] = "target_epoch",
		[KG_CO_TARGET] = "target",
		[KG_CO_ASSIGNMENT] = "assignment",
		[KG_CO_OTHER] = "other",
	};
	return (unsigned)t < KG_CO_TYPE_COUNT ? names[t] : "?";
}

/* A KIP-848 member state's name. */
const char *
offsets_record_state_name(int state)
{
	switch (state) {
	case 0:
		return "stable";
	case 1:
		return "unrevoked_partitions";
	case 2:
		return "unreleased_partitions";
	default:
		return "unknown";
	}
}

/* A topic id in Kafka's own form: URL-safe base64 without padding. */
void
offsets_record_uuid(const uint8_t id[16], char *buf, size_t n)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	char out[23];
	int i, o = 0;
	for (i = 0; i < 15; i += 3) {
		uint32_t x = (uint32_t)id[i] << 16 | (uint32_t)id[i + 1] << 8 | id[i + 2];
		out[o++] = b64[(x >> 18) & 63];
		out[o++] = b64[(x >> 12) & 63];
		out[o++] = b64[(x >> 6) & 63];
		out[o++] = b64[x & 63];
	}
	out[o++] = b64[id[15] >> 2];
	out[o++] = b64[(id[15] & 3) << 4];
	out[o] = '\0';
	util_strlcpy(buf, out, n);
}

/* True when the id is not all zero. */
bool
offsets_record_has_uuid(const uint8_t id[16])
{
	int i;
	for (i = 0; i < 16; i++) {
		if (id[i] != 0)
			return true;
	}
	return false;
}

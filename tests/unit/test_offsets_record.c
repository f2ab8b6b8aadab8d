/*
 * test_offsets_record.c: the __consumer_offsets decoder against Kafka's
 * own decoding of the records a real broker wrote (tests/data/offsets/,
 * made by tests/kafka/capture-offsets.sh: each line has a record's bytes
 * and what the group coordinator's serde and JSON converters made of
 * them), and against damage: every truncation is an error, unknown types
 * and versions are unknown, a hostile count allocates nothing.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "sources/offsets/offsets_record.h"
#include "trace_util.h"

#define DATA "tests/data/offsets/kafka-4.3.jsonl"

/* Hex to bytes (malloc'd); NULL for a JSON null. */
static uint8_t *
unhex(const cJSON *h, size_t *n)
{
	const char *s;
	uint8_t *b;
	size_t i;
	if (!cJSON_IsString(h)) {
		*n = 0;
		return NULL;
	}
	s = h->valuestring;
	*n = strlen(s) / 2;
	b = malloc(*n ? *n : 1);
	for (i = 0; i < *n; i++) {
		unsigned x;
		assert_int_equal(sscanf(s + 2 * i, "%2x", &x), 1);
		b[i] = (uint8_t)x;
	}
	return b;
}

/* A string field of Kafka's JSON equals ours (JSON null: NULL). */
static void
same_str(const cJSON *o, const char *key, const char *ours)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (v == NULL || cJSON_IsNull(v)) {
		assert_null(ours);
		return;
	}
	assert_true(cJSON_IsString(v));
	assert_non_null(ours);
	assert_string_equal(ours, v->valuestring);
}

/* A number field of Kafka's JSON equals ours. */
static void
same_num(const cJSON *o, const char *key, int64_t ours)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	assert_non_null(v);
	assert_true(cJSON_IsNumber(v));
	assert_true(v->valuedouble == (double)ours); /* 64-bit hashes: equal as doubles, as cJSON reads them */
}

/* Kafka's topic-partitions array ({"topicId", "partitions"}) equals ours. */
static void
same_id_parts(const cJSON *arr, const kg_co_parts *p)
{
	int i, k;
	assert_int_equal(cJSON_GetArraySize(arr), p->n);
	for (i = 0; i < p->n; i++) {
		const cJSON *t = cJSON_GetArrayItem(arr, i), *parts = cJSON_GetObjectItemCaseSensitive(t, "partitions");
		char id[32];
		offsets_record_uuid(p->t[i].id, id, sizeof id);
		same_str(t, "topicId", id);
		assert_int_equal(cJSON_GetArraySize(parts), p->t[i].nparts);
		for (k = 0; k < p->t[i].nparts; k++)
			assert_int_equal(cJSON_GetArrayItem(parts, k)->valueint, p->t[i].parts[k]);
	}
}

/* A classic group's members equal Kafka's; their consumer-protocol bytes decoded. */
static void
same_members(const cJSON *v, const kg_co_record *r)
{
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(v, "members");
	int i;
	assert_int_equal(cJSON_GetArraySize(ms), r->nmembers);
	assert_int_equal(r->embedded_errors, 0);
	for (i = 0; i < r->nmembers; i++) {
		const cJSON *m = cJSON_GetArrayItem(ms, i);
		const kg_co_member *x = &r->members[i];
		same_str(m, "memberId", x->member_id);
		same_str(m, "groupInstanceId", x->instance_id);
		same_str(m, "clientId", x->client_id);
		same_str(m, "clientHost", x->host);
		same_num(m, "rebalanceTimeout", x->rebalance_timeout_ms);
		same_num(m, "sessionTimeout", x->session_timeout_ms);
		/* every member of these consumer groups subscribed to the one topic, and the leader assigned it */
		assert_true(x->embedded);
		assert_int_equal(x->subscribed.n, 1);
		assert_string_equal(x->subscribed.t[0].name, "cap");
		assert_true(x->assignment.n <= 1);
		if (x->assignment.n == 1)
			assert_string_equal(x->assignment.t[0].name, "cap");
	}
}

/* The value fields of one decoded record equal Kafka's. */
static void
same_value(const cJSON *v, const kg_co_record *r)
{
	switch (r->type) {
	case KG_CO_COMMIT: {
		char id[32];
		same_num(v, "offset", r->offset);
		same_num(v, "leaderEpoch", r->leader_epoch);
		same_str(v, "metadata", r->metadata);
		same_num(v, "commitTimestamp", r->commit_ms);
		offsets_record_uuid(r->topic_id, id, sizeof id);
		same_str(v, "topicId", id);
		break;
	}
	case KG_CO_GROUP:
		same_str(v, "protocolType", r->protocol_type);
		same_num(v, "generation", r->generation);
		same_str(v, "protocol", r->protocol);
		same_str(v, "leader", r->leader);
		same_num(v, "currentStateTimestamp", r->state_ms);
		same_members(v, r);
		break;
	case KG_CO_EPOCH:
		same_num(v, "epoch", r->epoch);
		same_num(v, "metadataHash", r->metadata_hash);
		break;
	case KG_CO_MEMBER: {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(v, "subscribedTopicNames");
		int i;
		same_str(v, "instanceId", r->instance_id);
		same_str(v, "rackId", r->rack);
		same_str(v, "clientId", r->client_id);
		same_str(v, "clientHost", r->host);
		same_str(v, "subscribedTopicRegex", r->regex);
		same_num(v, "rebalanceTimeoutMs", r->rebalance_timeout_ms);
		same_str(v, "serverAssignor", r->server_assignor);
		assert_int_equal(cJSON_GetArraySize(st), r->nsubscribed);
		for (i = 0; i < r->nsubscribed; i++)
			assert_string_equal(cJSON_GetArrayItem(st, i)->valuestring, r->subscribed[i]);
		assert_int_equal(r->classic_member, !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(v, "classicMemberMetadata")));
		break;
	}
	case KG_CO_TARGET_EPOCH:
		same_num(v, "assignmentEpoch", r->epoch);
		same_num(v, "assignmentTimestamp", r->assignment_ms);
		break;
	case KG_CO_TARGET:
		same_id_parts(cJSON_GetObjectItemCaseSensitive(v, "topicPartitions"), &r->assigned);
		break;
	case KG_CO_ASSIGNMENT:
		same_num(v, "memberEpoch", r->epoch);
		same_num(v, "previousMemberEpoch", r->prev_epoch);
		same_num(v, "state", r->state);
		same_id_parts(cJSON_GetObjectItemCaseSensitive(v, "assignedPartitions"), &r->assigned);
		same_id_parts(cJSON_GetObjectItemCaseSensitive(v, "partitionsPendingRevocation"), &r->pending);
		break;
	default:
		fail_msg("no value expected of type %d", (int)r->type);
	}
}

/* The key fields equal Kafka's. */
static void
same_key(const cJSON *k, const kg_co_record *r)
{
	if (r->type == KG_CO_COMMIT) {
		same_str(k, "group", r->group);
		same_str(k, "topic", r->topic);
		same_num(k, "partition", r->partition);
	} else if (r->type == KG_CO_GROUP) {
		same_str(k, "group", r->group);
	} else {
		same_str(k, "groupId", r->group);
		if (r->type == KG_CO_MEMBER || r->type == KG_CO_TARGET || r->type == KG_CO_ASSIGNMENT)
			same_str(k, "memberId", r->member_id);
	}
}

/* Every strict prefix of a value (and of a key) is an error, never a record, never a crash. */
static void
truncations(kg_co_record *r, const uint8_t *k, size_t nk, const uint8_t *v, size_t nv)
{
	char err[256];
	size_t n;
	for (n = 0; n < nk; n++)
		assert_int_equal(offsets_record_decode(r, k, n, v, nv, err, sizeof err), KG_CO_ERROR);
	for (n = 0; v != NULL && n < nv; n++)
		assert_int_equal(offsets_record_decode(r, k, nk, v, n, err, sizeof err), KG_CO_ERROR);
}

/*
 * Every record a Kafka 4.3 broker wrote in the capture: decoded, no
 * unknown, no error, and every field equal to Kafka's own decoding.
 */
static void
test_real_records(void **state)
{
	char path[4096], err[256], *text, *line, *save = NULL;
	size_t len;
	int seen[KG_CO_TYPE_COUNT] = { 0 }, tombstones = 0, lines = 0;
	kg_co_record r = { 0 };
	(void)state;
	snprintf(path, sizeof path, "%s/%s", tu_srcdir(), DATA);
	text = tu_read_file(path, &len);
	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		cJSON *o = cJSON_Parse(line);
		size_t nk, nv;
		uint8_t *k, *v;
		kg_co_rc rc;
		assert_non_null(o);
		assert_null(cJSON_GetObjectItemCaseSensitive(o, "error")); /* Kafka itself decoded it */
		k = unhex(cJSON_GetObjectItemCaseSensitive(o, "k"), &nk);
		v = unhex(cJSON_GetObjectItemCaseSensitive(o, "v"), &nv);
		rc = offsets_record_decode(&r, k, nk, v, nv, err, sizeof err);
		if (rc != KG_CO_OK)
			fail_msg("line %d: %s", lines + 1, err);
		same_num(o, "type", r.key_type);
		same_key(cJSON_GetObjectItemCaseSensitive(o, "key"), &r);
		if (v == NULL) {
			assert_true(r.tombstone);
			tombstones++;
		} else {
			assert_false(r.tombstone);
			same_num(o, "vv", r.value_version);
			same_value(cJSON_GetObjectItemCaseSensitive(o, "value"), &r);
		}
		seen[r.type]++;
		truncations(&r, k, nk, v, nv);
		free(k);
		free(v);
		cJSON_Delete(o);
		lines++;
	}
	/* the capture has every kind a 4.3 broker writes for classic and KIP-848 groups (4: none since 4.1) */
	assert_true(lines >= 50);
	assert_true(seen[KG_CO_COMMIT] > 0 && seen[KG_CO_GROUP] > 0 && seen[KG_CO_EPOCH] > 0 && seen[KG_CO_MEMBER] > 0);
	assert_true(seen[KG_CO_TARGET_EPOCH] > 0 && seen[KG_CO_TARGET] > 0 && seen[KG_CO_ASSIGNMENT] > 0);
	assert_true(tombstones > 0);
	offsets_record_free(&r);
	free(text);
}

/* Types and versions this decoder does not know are unknown, and said. */
static void
test_unknown(void **state)
{
	static const uint8_t key9[] = { 0, 9, 0, 1, 'g' }, keyneg[] = { 0xff, 0xfe, 0, 1, 'g' };
	static const uint8_t key2[] = { 0, 2, 0, 1, 'g' }, v5[] = { 0, 5, 0, 0 }, share[] = { 0, 11, 0, 1, 'g' };
	static const uint8_t key3[] = { 0, 3, 0, 1, 'g' }, v3_1[] = { 0, 1, 0, 0, 0, 7, 0 };
	kg_co_record r = { 0 };
	char err[256];
	(void)state;
	assert_int_equal(offsets_record_decode(&r, key9, sizeof key9, v5, sizeof v5, err, sizeof err), KG_CO_UNKNOWN);
	assert_string_equal(err, "record type 9");
	assert_int_equal(offsets_record_decode(&r, keyneg, sizeof keyneg, v5, sizeof v5, err, sizeof err), KG_CO_UNKNOWN);
	assert_int_equal(offsets_record_decode(&r, key2, sizeof key2, v5, sizeof v5, err, sizeof err), KG_CO_UNKNOWN);
	assert_string_equal(err, "group value version 5");
	assert_int_equal(offsets_record_decode(&r, key3, sizeof key3, v3_1, sizeof v3_1, err, sizeof err), KG_CO_UNKNOWN);
	/* a share group's record is known and not read */
	assert_int_equal(offsets_record_decode(&r, share, sizeof share, v5, sizeof v5, err, sizeof err), KG_CO_OK);
	assert_int_equal(r.type, KG_CO_OTHER);
	offsets_record_free(&r);
}

/* Hand-made records: an old commit (key 0, value 1 with its expire time), hostile counts, bytes left over. */
static void
test_hand_made(void **state)
{
	/* key 0: group "g", topic "t", partition 3 */
	static const uint8_t key0[] = { 0, 0, 0, 1, 'g', 0, 1, 't', 0, 0, 0, 3 };
	/* value 1: offset 42, metadata "m", commit 1000, expire 2000 */
	static const uint8_t val1[] = { 0, 1, 0, 0, 0, 0, 0, 0, 0, 42, 0, 1, 'm', 0, 0, 0, 0, 0, 0, 3, 0xe8,
					0, 0, 0, 0, 0, 0, 7, 0xd0 };
	/* group value 0 whose member array says 2^31-1 members in 4 bytes */
	static const uint8_t key2[] = { 0, 2, 0, 1, 'g' };
	static const uint8_t huge[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff };
	/* KIP-848 group epoch with a varint of six bytes in its tags */
	static const uint8_t key3[] = { 0, 3, 0, 1, 'g' };
	static const uint8_t longvar[] = { 0, 0, 0, 0, 0, 7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
	static const uint8_t epoch7[] = { 0, 0, 0, 0, 0, 7, 0 };
	uint8_t extra[sizeof val1 + 1];
	kg_co_record r = { 0 };
	char err[256];
	(void)state;
	assert_int_equal(offsets_record_decode(&r, key0, sizeof key0, val1, sizeof val1, err, sizeof err), KG_CO_OK);
	assert_int_equal(r.type, KG_CO_COMMIT);
	assert_string_equal(r.group, "g");
	assert_string_equal(r.topic, "t");
	assert_int_equal(r.partition, 3);
	assert_int_equal(r.offset, 42);
	assert_string_equal(r.metadata, "m");
	assert_int_equal(r.commit_ms, 1000);
	assert_int_equal(r.expire_ms, 2000);
	assert_int_equal(r.leader_epoch, -1);
	assert_false(offsets_record_has_uuid(r.topic_id));
	memcpy(extra, val1, sizeof val1);
	extra[sizeof val1] = 0;
	assert_int_equal(offsets_record_decode(&r, key0, sizeof key0, extra, sizeof extra, err, sizeof err), KG_CO_ERROR);
	assert_non_null(strstr(err, "bytes after its fields"));
	assert_int_equal(offsets_record_decode(&r, key2, sizeof key2, huge, sizeof huge, err, sizeof err), KG_CO_ERROR);
	assert_non_null(strstr(err, "array longer than the bytes left"));
	assert_int_equal(offsets_record_decode(&r, key3, sizeof key3, longvar, sizeof longvar, err, sizeof err), KG_CO_ERROR);
	assert_int_equal(offsets_record_decode(&r, key3, sizeof key3, epoch7, sizeof epoch7, err, sizeof err), KG_CO_OK);
	assert_int_equal(r.epoch, 7);
	assert_int_equal(offsets_record_decode(&r, key3, sizeof key3, NULL, 0, err, sizeof err), KG_CO_OK);
	assert_true(r.tombstone);
	assert_int_equal(r.value_version, -1);
	offsets_record_free(&r);
}

/* Kafka's own form of a topic id. */
static void
test_uuid(void **state)
{
	uint8_t id[16];
	char s[32];
	int i;
	(void)state;
	for (i = 0; i < 16; i++)
		id[i] = (uint8_t)(i * 17);
	offsets_record_uuid(id, s, sizeof s);
	assert_int_equal(strlen(s), 22);
	memset(id, 0xff, sizeof id);
	offsets_record_uuid(id, s, sizeof s);
	assert_string_equal(s, "_____________________w");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_records),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_hand_made),
		cmocka_unit_test(test_uuid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * offsets_record.h: the records Kafka's group coordinator writes to its
 * internal topic __consumer_offsets, decoded (pure C: no librdkafka type,
 * no I/O; the reader in offsets.c and the fuzz target call it).
 *
 * A record's key starts with an int16, the record type (Kafka's schemas
 * call it the key's version, or its apiKey); the value starts with an
 * int16, the value's version; a null value is a tombstone (the key's
 * group, member or offset was deleted).  Facts from Kafka's own schemas
 * (group-coordinator/src/main/resources/common/message/ *Key.json and
 * *Value.json, checked against the classes of Kafka 4.3.1 and the bytes a
 * 4.3.1 broker wrote in the harness: tests/data/offsets/), in kgtop's
 * words:
 *
 *   type  key (non-flexible: int16-length strings)   value
 *   0, 1  group, topic, int32 partition             an offset commit, versions 0-4:
 *           int64 offset; v3+ int32 leader epoch; string metadata; int64 commit time (ms);
 *           v1 only int64 expire time; v4 is flexible (compact strings, tagged fields;
 *           tag 0: the topic's id, 16 bytes)
 *   2     group                                   a classic group, versions 0-4:
 *           string protocol type; int32 generation; nullable protocol (the assignor);
 *           nullable leader; v2+ int64 current state time (ms: when the group entered
 *           the state it was written in); array of members: member id, v3+ nullable
 *           instance id, client id, client host, v1+ int32 rebalance timeout, int32
 *           session timeout, bytes subscription, bytes assignment; v4 flexible
 *   3     group                                   KIP-848 group epoch (flexible v0): int32 epoch;
 *                                                 tag 0 int64 metadata hash
 *   4     group                                   KIP-848 subscribed topics (flexible v0): array of
 *           {uuid id, name, int32 partitions, array of {int32 partition, array of racks}}
 *   5     group, member                           KIP-848 member (flexible v0): nullable instance id,
 *           nullable rack, client id, host, array of subscribed topic names, nullable regex,
 *           int32 rebalance timeout, nullable server assignor; tag 0: the member speaks the
 *           classic protocol
 *   6     group                                   KIP-848 target assignment epoch (flexible v0):
 *                                                 int32 epoch; tag 0 int64 time the assignment was computed
 *   7     group, member                           KIP-848 target of a member (flexible v0): array of
 *                                                 {uuid topic id, array of int32 partitions}
 *   8     group, member                           KIP-848 member's current assignment (flexible v0):
 *           int32 member epoch, int32 previous member epoch, int8 state (0 stable,
 *           1 unrevoked partitions, 2 unreleased partitions, 127 unknown), assigned and
 *           pending revocation, each an array of {uuid topic id, array of int32
 *           partitions; tag 0: the epoch each was assigned at}
 *   10-23 share groups (10-15), regular expressions (16), streams groups (17, 19-23):
 *           known, not read further (KG_CO_OTHER)
 *
 * A classic member's subscription and assignment are the consumer
 * protocol's own bytes (when the protocol type is "consumer"; non-flexible,
 * int16 version first): a subscription is topics, user data, v1+ owned
 * partitions, v2+ generation, v3+ rack; an assignment is topics with their
 * partitions and user data (the same at every version).  A newer version
 * of them is read as the newest known, as Kafka's own reader does.
 *
 * Every length and count is checked against the bytes left: a record that
 * does not parse is an error (its bytes are not trusted in part), a type or
 * version this decoder does not know is unknown; callers skip and count
 * both.  Decoded strings and arrays live in the record's arena, valid until
 * the next decode or offsets_record_free().
 */
#ifndef KGTOP_SOURCES_OFFSETS_OFFSETS_RECORD_H
#define KGTOP_SOURCES_OFFSETS_OFFSETS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a record is about (its key's type, grouped). */
typedef enum kg_co_type {
	KG_CO_COMMIT,        /* types 0 and 1: an offset commit */
	KG_CO_GROUP,         /* 2: a classic group's generation */
	KG_CO_EPOCH,         /* 3: a KIP-848 group epoch */
	KG_CO_TOPICS,        /* 4: a KIP-848 group's subscribed topics (ids and names) */
	KG_CO_MEMBER,        /* 5: a KIP-848 member */
	KG_CO_TARGET_EPOCH,  /* 6: a KIP-848 target assignment epoch */
	KG_CO_TARGET,        /* 7: a KIP-848 member's target assignment */
	KG_CO_ASSIGNMENT,    /* 8: a KIP-848 member's current assignment */
	KG_CO_OTHER,         /* 10-23: share, regular expression, streams records: counted, not read */
	KG_CO_TYPE_COUNT
} kg_co_type;

/* What offsets_record_decode() made of a record. */
typedef enum kg_co_rc {
	KG_CO_OK,       /* decoded */
	KG_CO_UNKNOWN,  /* a record type or value version this decoder does not know: skip it */
	KG_CO_ERROR,    /* bytes that do not parse as their type and version say */
} kg_co_rc;

/* Partitions of one topic: by name (classic, commits) or by id (KIP-848). */
typedef struct kg_co_topic {
	const char *name;     /* NULL: only its id is known */
	uint8_t id[16];       /* all zero: no id */
	int32_t *parts;
	int nparts;
	int32_t npartitions;  /* type 4: the topic's partition count; -1 otherwise */
} kg_co_topic;

/* A set of partitions, topic by topic. */
typedef struct kg_co_parts {
	kg_co_topic *t;
	int n;
} kg_co_parts;

/* A member of a classic group (type 2). */
typedef struct kg_co_member {
	const char *member_id;
	const char *instance_id;    /* NULL: none (a dynamic member) */
	const char *client_id;
	const char *host;
	int32_t rebalance_timeout_ms; /* -1: not in this version */
	int32_t session_timeout_ms;
	bool embedded;              /* its subscription and assignment are the consumer protocol's and decoded */
	int16_t subscription_version; /* -1: not decoded */
	kg_co_parts subscribed;     /* subscribed topics (no partitions) */
	kg_co_parts owned;          /* v1+: what it said it owns */
	int32_t sub_generation;     /* v2+: the generation it last had; -1 */
	kg_co_parts assignment;     /* the leader's assignment of it */
} kg_co_member;

/* One decoded record; the fields of its type are set, the others zero. */
typedef struct kg_co_record {
	kg_co_type type;
	int16_t key_type;          /* the key's first int16 */
	int16_t value_version;     /* -1: a tombstone */
	bool tombstone;            /* the value is null: the key's group, member or offset is gone */
	/* key */
	const char *group;
	const char *topic;         /* commits */
	int32_t partition;
	const char *member_id;     /* types 5, 7, 8 */
	/* KG_CO_COMMIT */
	int64_t offset;
	int32_t leader_epoch;      /* -1 */
	const char *metadata;
	int64_t commit_ms;
	int64_t expire_ms;         /* -1 */
	uint8_t topic_id[16];      /* v4 tag 0; all zero: none */
	/* KG_CO_GROUP */
	const char *protocol_type;
	int32_t generation;
	const char *protocol;      /* the assignor chosen (NULL: none yet) */
	const char *leader;
	int64_t state_ms;          /* -1: not in this version */
	kg_co_member *members;
	int nmembers;
	int embedded_errors;       /* members whose consumer-protocol bytes did not parse */
	/* KG_CO_EPOCH, KG_CO_TARGET_EPOCH, KG_CO_ASSIGNMENT: the group's, the target's, the member's epoch */
	int32_t epoch;
	int32_t prev_epoch;        /* KG_CO_ASSIGNMENT */
	int8_t state;              /* KG_CO_ASSIGNMENT: 0 stable, 1 unrevoked, 2 unreleased, 127 unknown */
	int64_t metadata_hash;     /* KG_CO_EPOCH tag 0 */
	int64_t assignment_ms;     /* KG_CO_TARGET_EPOCH tag 0; 0 none */
	kg_co_parts assigned;      /* KG_CO_TARGET: the target; KG_CO_ASSIGNMENT: assigned */
	kg_co_parts pending;       /* KG_CO_ASSIGNMENT: pending revocation */
	kg_co_parts topics;        /* KG_CO_TOPICS: id, name, partition count */
	/* KG_CO_MEMBER */
	const char *instance_id;
	const char *rack;
	const char *client_id;
	const char *host;
	const char **subscribed;   /* subscribed topic names */
	int nsubscribed;
	const char *regex;
	int32_t rebalance_timeout_ms;
	const char *server_assignor;
	bool classic_member;       /* tag 0 present: it speaks the classic protocol inside a KIP-848 group */
	/* the arena the strings and arrays above live in (private) */
	struct co_chunk *arena;
} kg_co_record;

/*
 * Decode one record: key (klen bytes) and value (NULL: a tombstone).  The
 * record is reset first.  Returns KG_CO_OK, KG_CO_UNKNOWN or KG_CO_ERROR;
 * err says why for the last two.
 */
kg_co_rc offsets_record_decode(kg_co_record *r, const void *key, size_t klen, const void *value, size_t vlen,
			       char *err, size_t errsz);
/* Free the record's arena (the record itself is the caller's). */
void offsets_record_free(kg_co_record *r);
/* A record type's name ("commit", "group", "epoch", ...). */
const char *offsets_record_type_name(kg_co_type t);
/* A KIP-848 member state's name ("stable", "unrevoked_partitions", ...; "unknown"). */
const char *offsets_record_state_name(int state);
/* Format a topic id as Kafka prints it (22 characters of URL-safe base64, no padding) into buf (23 bytes). */
void offsets_record_uuid(const uint8_t id[16], char *buf, size_t n);
/* True when the id is not all zero. */
bool offsets_record_has_uuid(const uint8_t id[16]);

#endif

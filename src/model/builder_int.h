/*
 * builder_int.h: the builder's records, shared by the files that fill them
 * (snapshot.c) and finish a snapshot from them (snapshot_finish.c).  Not
 * for use outside those two.
 */
#ifndef KG_MODEL_BUILDER_INT_H
#define KG_MODEL_BUILDER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/arena.h"
#include "model/snapshot.h"
#include "util/filter.h"
#include "util/hmap.h"

/* a group's members are found by a scan of at most this many, by its hash map beyond */
#define BMEMBER_SCAN 8

struct kg_bmember {
	kg_arena *a; /* the builder's scratch */
	char *member_id;
	char *client_id;
	char *host;
	char *instance_id;
	kg_tp *assignment;
	int nassigned;
	uint32_t flags;
	kg_tp *target;      /* KIP-848 target assignment */
	int ntarget;        /* -1: not said */
};

typedef struct bcommit {
	kg_tp tp;
	int64_t offset;
} bcommit;

struct kg_bgroup {
	kg_arena *a; /* the builder's scratch */
	int32_t id;
	kg_group_state state;
	char *state_name;
	kg_group_type type;
	char *type_name;
	char *note;
	bool members_unknown;
	char *protocol_type;
	char *assignor;
	kg_proto proto;
	int32_t coordinator;
	bool simple;
	bool exact;
	bool traced;
	char *error;
	int64_t reprocessed;
	char *commit_policy;
	int64_t data_time_us;
	int64_t offs_time_us;
	int64_t pace_us;
	kg_bmember **members;
	size_t nmembers, cmembers;
	hmap member_index; /* member id -> member, once there are more than BMEMBER_SCAN */
	bcommit *commits;
	size_t ncommits, ccommits;
	int32_t *topics;
	size_t ntopics, ctopics;
};

typedef struct btopic {
	bool declared;
	int npartitions;
	kg_partition *partitions; /* in the scratch arena, room for cap */
	size_t cap;
} btopic;

struct kg_builder {
	int64_t time_us;
	uint64_t refresh;
	int64_t data_time_us, interval_us;
	char *cluster;
	kg_source_health *sources;
	size_t nsources, csources;
	kg_src_role role; /* of health added without one */
	kg_broker *brokers;
	size_t nbrokers, cbrokers;
	btopic *topics; /* indexed by topic id */
	size_t ctopics;
	kg_bgroup **groups; /* indexed by group id */
	size_t cgroups;
	int32_t *group_order; /* ids in creation order */
	size_t ngroups, cgorder;
	const kg_filter *filter; /* -g / -G: groups that do not pass go to discard */
	const kg_filter *topic_filter; /* -t: groups with no partition of a topic that passes are left out */
	kg_bgroup *discard;
	int32_t offsets_partitions; /* of __consumer_offsets, 0 unknown */
	kg_tp *extra; /* finish_parts()' list of a group's partitions, reused group to group */
	size_t nextra, cextra;
	int32_t *gtopics; /* group_topics()' list of a group's topics, reused group to group */
	size_t cgtopics;
	kg_arena *scratch; /* the groups' and members' records */
	kg_snapshot *prev;  /* builder_keep(): the snapshot whose unchanged rows this one keeps */
	const kg_group **prev_group; /* its groups by id (cgroups of them) */
	bool *topic_same;   /* by topic id (ctopics): its partitions say what prev's said */
	bool keepable;      /* the group being finished may have its rows kept by the next snapshot (b->input its input) */
	unsigned char *input; /* group_input(): the input a group's rows are built from, reused group to group */
	size_t ninput, cinput;
};

/* Discard a builder (builder_finish() consumes it). */
void builder_free(kg_builder *b);

#endif

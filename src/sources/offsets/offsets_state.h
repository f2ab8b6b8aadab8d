/*
 * offsets_state.h: what the reader of __consumer_offsets keeps of the
 * coordinator's records, and the observations it makes of them (pure C:
 * no librdkafka; the reader's worker, the fuzz target and the bench call
 * it).
 *
 * The topic is compacted: read from its start it holds, per key, the last
 * record and whatever compaction has not reached yet.  While a partition
 * of the topic loads, its records are folded here and make no
 * observation: per group the generation records read (the newest
 * OFFSETS_GEN_KEEP kept, all counted), the last one whole, per partition
 * the last committed offset with the time it moved there and the one
 * before, and the KIP-848 records of the group and of each member (the
 * last of each key).  When the partition's load is over,
 * offsets_state_loaded() makes the observations of that state, marked
 * loaded (they happened before kgtop followed live); from then on each
 * record is an observation as it is read.  A commit that does not move
 * its partition's offset makes none: the progress rules need when the
 * offset got where it is (its first commit), not its repeats.
 *
 * Tombstones are applied: a deleted group's records and a deleted
 * member's go, a deleted offset goes.  KIP-848 records name topics by id;
 * the ids are learnt from commits (which carry both since Kafka 4.0's
 * value version 4) and from type 4 records.  A record read before its
 * topic's name keeps the id until its observation is told (the loaded
 * ones at the partition's end, when every commit of the load is read); a
 * partition whose topic is still not named then is left out and counted.
 */
#ifndef KGTOP_SOURCES_OFFSETS_OFFSETS_STATE_H
#define KGTOP_SOURCES_OFFSETS_OFFSETS_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "sources/offsets/offsets_record.h"

#define OFFSETS_GEN_KEEP 64 /* generation records kept per group while loading (the newest; all are counted) */
#define OFFSETS_SOURCE "offsets" /* the observations' source name */

/* Counts of what was read. */
typedef struct kg_costats {
	int64_t records;                    /* every record read */
	int64_t by_type[KG_CO_TYPE_COUNT];  /* decoded, by type */
	int64_t tombstones;
	int64_t unknown;                    /* types or versions this kgtop does not know: skipped */
	int64_t errors;                     /* bytes that do not parse: skipped */
	int64_t embedded_errors;            /* classic members whose consumer-protocol bytes did not parse */
	int64_t unresolved;                 /* KIP-848 partitions told while their topic id had no name yet: left out */
	int64_t generations;                /* classic generation records (not the group's creation) */
	int64_t observations;               /* observations made */
	int64_t groups;                     /* groups known now */
	int64_t partitions;                 /* committed partitions known now */
	char last_error[160];               /* the last unknown or error, in words */
} kg_costats;

typedef struct kg_costate kg_costate;

/* An empty state. */
kg_costate *offsets_state_new(void);
/* Free it. */
void offsets_state_free(kg_costate *s);
/*
 * Decode and fold one record of the topic's partition part, written at
 * ts_ms (the broker's time); while live, its observations are appended to
 * q.  Returns what the decoder made of it (unknown and errors are counted
 * and skipped); err says why.
 */
kg_co_rc offsets_state_read(kg_costate *s, int32_t part, const void *key, size_t klen, const void *value, size_t vlen,
			    int64_t ts_ms, bool live, kg_obsq *q, char *err, size_t errsz);
/*
 * Partition part is loaded: the observations of what it holds, marked
 * loaded, to q; generation records older than now_us - window_us are only
 * counted.  Returns how many were made.
 */
size_t offsets_state_loaded(kg_costate *s, int32_t part, int64_t now_us, int64_t window_us, kg_obsq *q);
/* The counts. */
const kg_costats *offsets_state_stats(const kg_costate *s);
/* Generation records read of a group (all of them, loaded or live), -1 when the group is unknown. */
int64_t offsets_state_generations(const kg_costate *s, const char *group);

#endif

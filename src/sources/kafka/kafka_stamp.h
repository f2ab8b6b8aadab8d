/*
 * kafka_stamp.h: the record at a committed offset, read for the exact time
 * lag (kafka_stamp.c), on the kafka source's worker after the log-end and
 * log-start query.  Its cache (struct kstamps, hung off ksrc.stamps) is
 * the worker's alone.
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_STAMP_H
#define KGTOP_SOURCES_KAFKA_KAFKA_STAMP_H

#include "sources/kafka/kafka_int.h"

/*
 * Read the record at the committed offset of the partitions that need it
 * (the selected group's, then those on screen, every group's under --once
 * and --check, in the report's order, at most KG_STAMP_READS): those with
 * lag, not below the log start, whose offset has no read yet; then give
 * the result every read kept.
 */
void kafka_stamps_read(ksrc *k, kresult *r);
/* Free the cache and the reads' client handle (its topic handles go before it). */
void kafka_stamps_free(ksrc *k);
/* The reads' client handles made, and dropped at rest (not closed with their source), so far, by every source (the tests). */
void kafka_stamps_counts(uint64_t *made, uint64_t *dropped);

#endif

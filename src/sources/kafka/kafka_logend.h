/*
 * kafka_logend.h: the log-end and log-start offsets of the partitions of
 * the topics in use, the last step of the kafka source's refresh
 * (kafka_logend.c), asked per leader on worker threads the source keeps
 * from one refresh to the next; log starts are kept between reads.
 */
#ifndef KGTOP_SOURCES_KAFKA_KAFKA_LOGEND_H
#define KGTOP_SOURCES_KAFKA_KAFKA_LOGEND_H

#include <stdint.h>

#include "sources/kafka/kafka_int.h"

/*
 * The log-end offsets of every partition of the topics in use into r, and
 * their log-start offsets, read again for a topic every
 * KG_KAFKA_LOG_START_US (every refresh for --once, which makes one) and
 * taken from the last read in between; -1 with *err when no leader
 * answered, *note (malloc'd) when some did not.
 */
int kafka_log_end(ksrc *k, kresult *r, char **err, char **note);
/* Its threads stopped and joined (k->stop set first), what it keeps freed; NULL is fine. */
void kafka_logend_free(struct klogend *le);
/* Process-wide, for tests and benches: the refreshes whose calls were made on the worker alone, and together. */
void kafka_logend_counts(uint64_t *alone, uint64_t *together);

#endif

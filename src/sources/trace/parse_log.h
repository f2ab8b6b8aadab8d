/*
 * parse_log.h: Kafka broker server.log lines into observations.
 *
 * The group coordinator is the only place a broker records per-group
 * rebalance history: when a rebalance was prepared (old generation and
 * why), when it stabilized (new generation and size), which member failed
 * or left and why, static members replaced, KIP-848 epochs and fencing.
 * This parser reads the classic GroupCoordinator's lines (Kafka 2.x and
 * 3.x) and the new coordinator's (Kafka 4.x GroupMetadataManager, classic
 * and consumer-protocol groups), each at the line's own log4j timestamp.
 *
 * The timestamp is the broker's local time without a zone; it is read as
 * this process's local time (set TZ to the broker's zone when they
 * differ).  Matching is by the messages' fixed words, lenient about
 * spacing and trailing punctuation; group and member ids are taken
 * between those words.  Lines of other loggers are "skipped", coordinator
 * lines nobody needs are "known", and coordinator lines that were not
 * understood are "unparsed": none of them is an error.  Text is sanitized
 * (invalid UTF-8 and control characters become '?') before it is kept.
 */
#ifndef KGTOP_SOURCES_TRACE_PARSE_LOG_H
#define KGTOP_SOURCES_TRACE_PARSE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "sources/trace/parse_lines.h"

typedef struct kg_log_parser {
	/* the minute last converted from local time */
	int c_key[5];
	int64_t c_epoch;
	bool c_valid;
	/* the last member that left, to give a 4.x "explicit LeaveGroup request for (M)" its reason */
	int32_t left_group;
	char left_member[256];
	kg_reason left_reason;
	int64_t left_time;
	/* the last member added while its group was completing a rebalance, to mark the "preparing" it causes */
	int32_t completing_group;
	char completing_member[256];
	int64_t completing_time;
	char *scratch;
	size_t scap;
	kg_parse_counts counts;
} kg_log_parser;

/* Prepare a parser. */
void parse_log_init(kg_log_parser *p);
/* Release a parser's memory. */
void parse_log_free(kg_log_parser *p);
/* Parse one line (no newline needed); observations are appended to out. */
kg_parse_rc parse_log_line(kg_log_parser *p, const char *line, size_t len, kg_obsq *out);
/*
 * Parse a log4j time "YYYY-MM-DD HH:MM:SS,mmm" (',' or '.', ' ' or 'T',
 * fraction optional) as local time into microseconds since the epoch.
 */
int parse_log_time(kg_log_parser *p, const char *s, size_t n, int64_t *us);
/* The reason a coordinator's "(reason: ...)" or a client reason implies. */
kg_reason parse_log_reason(const char *text);

#endif

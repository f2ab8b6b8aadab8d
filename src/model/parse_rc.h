/*
 * parse_rc.h: the verdicts a trace parser gives one line.
 *
 * Shared by every line parser (broker logs and librdkafka statistics in
 * src/sources, the JSON-lines trace reader in src/record) and counted per
 * stream; parse_rc_name() (sources/trace/parse_lines.h) names them.
 */
#ifndef KGTOP_MODEL_PARSE_RC_H
#define KGTOP_MODEL_PARSE_RC_H

/* What a parser made of one line. */
typedef enum kg_parse_rc {
	KG_PARSE_OBS,      /* one or more observations were produced */
	KG_PARSE_KNOWN,    /* understood, nothing to report */
	KG_PARSE_SKIPPED,  /* not for this parser (another logger, a stack trace, a blank) */
	KG_PARSE_UNPARSED, /* looked relevant but was not understood */
	KG_PARSE_MALFORMED, /* broken input (bad JSON, wrong types) */
	KG_PARSE_COUNT
} kg_parse_rc;

#endif

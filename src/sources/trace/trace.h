/*
 * trace.h: trace streams, the sources behind --trace KIND:URL.
 *
 * Polling sees a group once per interval; coordinators and clients know
 * more.  Each --trace spec becomes one source (so each has its own health
 * line in the header: "log:broker-1", "jolokia:host:8778"), read with
 * libcurl's multi interface from the collector thread: poll() makes
 * non-blocking progress, fds() hands the collector the sockets curl waits
 * on and next_poll() its next deadline, so a slow or dead server never
 * blocks the UI or the Kafka source.
 *
 * Kinds (see kgtop-trace(5)), one row each in trace_kinds.c:
 *  - log:     a broker's server.log, tailed; coordinator lines become
 *             rebalance and membership observations (parse_log.h);
 *  - jsonl:   kgtop's own JSON-lines events (record/jsonl.h), e.g. written
 *             by another kgtop's --export-trace;
 *  - rdstats: librdkafka statistics, one JSON object per line (parse_rdstats.h);
 *  - jolokia: a Jolokia agent in front of Java consumers, one bulk POST
 *             per interval (parse_jolokia.h).
 * URLs are http://, https:// or file://.  A source (trace.c) hands what
 * its transport reads (trace_transport.h, trace_url.h) to its kind's parser.
 *
 * Line streams are tailed: without --trace-from-start the first request
 * asks for the last bytes only (a suffix range) and reading starts at the
 * end, at the next line boundary; later requests ask for a bounded range
 * from the offset reached, starting a few hundred bytes early: when those
 * bytes differ from what was read before, the file was replaced (rotated)
 * and is read again from its start; when the file is now shorter than the
 * offset it was truncated, likewise.  A server that ignores ranges (200
 * with a length) is read whole and the known part skipped; an answer with
 * no length (chunked, or closed at its end) is a live stream, parsed as it
 * arrives and reopened when it ends.
 *
 * Every stream has a connect timeout, a read timeout (no byte while an
 * answer is due) and an idle timeout for live streams, and reconnects with
 * exponential backoff.  TLS certificates are verified unless
 * --trace-insecure (then the health of each https:// source says insecure;
 * plain http:// has no TLS to turn off, and its health message notes
 * credentials it sends unencrypted instead).  Credentials
 * come from ~/.netrc (optional) or from a headers file of "Header: value"
 * lines; they are never shown: URLs in names and messages have their
 * userinfo removed, and messages are scrubbed of it.  Lines longer than
 * the cap are skipped and counted; so are lines the parser calls malformed
 * or unparsed, and the counts show in the health message.
 */
#ifndef KGTOP_SOURCES_TRACE_TRACE_H
#define KGTOP_SOURCES_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sources/trace/parse_lines.h"
#include "model/source.h"

typedef struct kg_trace_config {
	const char *const *specs;   /* "KIND:URL" */
	size_t nspecs;
	bool from_start;            /* --trace-from-start: read line streams from their first byte */
	bool insecure;              /* --trace-insecure: do not verify TLS certificates */
	const char *headers_file;   /* --trace-headers FILE: "Header: value" lines, NULL for none */
	int64_t interval_us;        /* request interval: the refresh interval (-i), required */
	/* tuning; 0 takes the default (tests shorten them) */
	int64_t connect_timeout_us; /* 10 s */
	int64_t read_timeout_us;    /* 15 s without a byte while an answer is due */
	int64_t idle_timeout_us;    /* 300 s: a quiet live stream is reopened after this */
	int64_t backoff_min_us;     /* 1 s: first retry delay, doubled per failure */
	int64_t backoff_max_us;     /* 60 s */
	size_t max_line;            /* 64 KiB (rdstats: 16 MiB) */
	size_t chunk;               /* bytes asked per ranged request: 1 MiB */
	int64_t total_timeout_us;   /* 30 s: an answer that is not a live stream must be complete within it */
	/* the budget of one refresh, per source: the rest waits for the next one (shown in the health) */
	size_t obs_budget;          /* 5000 observations */
	int64_t time_budget_us;     /* 50 ms of parsing */
	int64_t history_us;         /* --history: members silent this long while their group goes on are forgotten */
	int rcvbuf;                 /* the socket's receive buffer (0: the system's, which grows to many MiB) */
} kg_trace_config;

/* Counters of one trace source (tests, benchmarks, the health message). */
typedef struct kg_trace_stats {
	uint64_t requests;     /* requests started */
	uint64_t failures;     /* requests that failed (then backoff) */
	uint64_t bytes;        /* body bytes received */
	uint64_t lines;        /* complete lines handed to the parser */
	kg_parse_counts counts; /* verdicts per line, and over-long lines */
	uint64_t obs;          /* observations produced */
	uint64_t rotations;    /* file replaced: read again from its start */
	uint64_t truncations;  /* file shorter than the offset: read again from its start */
	uint64_t streams;      /* answers read as live streams */
	int64_t offset;        /* next byte of the file to read; -1 when unknown or streaming */
	uint64_t backlog;      /* bytes received and not parsed yet (the refresh's budget ran out) */
	int64_t bytes_first_line; /* bytes received before the first line was parsed; -1 none yet */
	int64_t first_line_us; /* monotonic time of that first line; 0 none yet */
} kg_trace_stats;

/* Check one "KIND:URL" spec; 0, or -1 with a message naming the problem. */
int trace_spec_check(const char *spec, char *err, size_t errsz);
/*
 * One source per spec, in order; out must have room for cfg->nspecs
 * sources.  Returns 0 with *nout set, or -1 with err (bad spec, unreadable
 * headers file) and nothing created.  Call from the main thread before the
 * collector starts (it initializes libcurl once).
 */
int trace_sources_new(const kg_trace_config *cfg, kg_source **out, size_t *nout, char *err, size_t errsz);
/* Counters of a trace source; -1 when s is not one. */
int trace_source_stats(kg_source *s, kg_trace_stats *st);

#endif

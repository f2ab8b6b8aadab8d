/*
 * replay_int.h: the replay source's state, shared by its files.
 *
 *   replay.c        the source: opening, playing in real time or as fast
 *                   as possible, commands, --at, handing lines over
 *   replay_file.c   reading the file: lines, headers, damage, the index
 *   replay_stage.c  a tick line checked against the state, then applied,
 *                   and the state handed to the builder
 *   replay_feed.c   the same state fed line by line as a stream brings
 *                   them (--attach), instead of read from a file
 *
 * The source keeps the state the recording describes (sources' health,
 * brokers, topics, groups: exactly the builder's inputs) and one line
 * ahead, parsed and checked ("staged").  Groups and topics are held by
 * interned id.
 */
#ifndef KGTOP_RECORD_REPLAY_INT_H
#define KGTOP_RECORD_REPLAY_INT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "model/obs.h"
#include "model/snapshot.h"
#include "model/tracker.h"
#include "record/replay.h"

#define SPEED_MIN 0.25
#define SPEED_MAX 32.0

/* ------------------------------------------------------------- state */

typedef struct rmember {
	char *id;
	char *client_id;
	char *host;
	char *instance_id;
	uint32_t flags;
	kg_tp *a;
	int na;
	kg_tp *t;  /* KIP-848 target assignment */
	int nt;    /* -1: none said */
} rmember;

typedef struct rpart {
	kg_tp tp;
	int64_t committed;
} rpart;

/* Fields a staged group owns (the others it shares with the group it replaces). */
#define OWN_PTYPE 0x1u
#define OWN_ASSIGNOR 0x2u
#define OWN_ERROR 0x4u
#define OWN_MEMBERS 0x8u
#define OWN_PARTS 0x10u
#define OWN_KIP 0x20u /* state_name, type_name, note */
#define OWN_ALL 0x3fu

typedef struct rgroup {
	kg_group_state state;
	char *protocol_type;
	char *assignor;
	kg_proto proto;
	int32_t coordinator;
	bool simple;
	bool exact;
	char *error;
	kg_group_type type;
	char *type_name, *state_name, *note; /* (OWN_KIP: the three together) */
	bool members_unknown;
	int64_t data_time; /* when the cluster asked its data, 0 unknown */
	int64_t offs_time; /* when it asked its committed offsets where that is not data_time, 0 data_time */
	int32_t pace_ms;   /* how often its source meant to ask it (ms), 0 every refresh */
	rmember *m;
	int nm;
	rpart *p; /* sorted by tp_cmp */
	int np;
	unsigned own;
} rgroup;

typedef struct rtopic {
	int n;
	int32_t *leader;
	int64_t *log_end;
	int64_t *log_start; /* -1 each in a recording older than them */
	kg_stamp *stamp;    /* the records read at committed offsets, KG_PART_STAMPS a partition (offset -1: none) */
} rtopic;

typedef struct staged_group {
	int32_t id;
	rgroup *g; /* NULL: gone */
} staged_group;

typedef struct staged_topic {
	int32_t id;
	rtopic *t; /* NULL: gone */
} staged_topic;

/* One line, parsed and checked against the state before it. */
typedef struct rline {
	int64_t t;
	int64_t lineno;
	bool key;
	bool has_sources;
	kg_source_health *src;
	int nsrc;
	bool has_brokers;
	kg_broker *brk;
	int nbrk;
	staged_topic *topics;
	int ntopics;
	size_t ctopics;
	staged_group *groups;
	int ngroups;
	size_t cgroups;
	kg_obsq obs;
	bool has_refresh;    /* "refresh": the cluster's refresh number, data time and interval */
	uint64_t refresh;
	int64_t data_time, interval;
	int64_t gap_missing; /* a keyframe after a gap: the ticks missing before it (0: none) */
	int64_t gap_from;    /* and the time of the tick before the gap */
} rline;

typedef enum end_reason {
	END_NONE,
	END_EOF,
	END_AT,     /* the next line is after --at */
	END_DAMAGE,
} end_reason;

typedef struct rebalance_mark {
	int64_t t;
	char *group;
} rebalance_mark;

typedef struct kg_replay {
	kg_replay_config cfg;
	char *path;
	FILE *f;
	char *buf;
	size_t bufcap;
	int64_t lineno;      /* lines read so far */
	int version;
	int64_t start_us;    /* the recording's start (header, else first tick) */
	char *cluster;
	bool no_header;
	bool has_model;
	kg_tracker_config model;
	bool has_at;
	int64_t at_us;
	/* the state through the last line handed over */
	rgroup **groups;     /* by interned group id */
	size_t cgroups;
	rtopic **topics;     /* by interned topic id */
	size_t ctopics;
	kg_source_health *src;
	int nsrc;
	kg_broker *brk;
	int nbrk;
	kg_obsq pending;     /* observations of the last line, for drain() */
	int64_t cur_t;       /* the clock: time of the last line handed over */
	int64_t handed;      /* lines handed over */
	int64_t cur_line;
	int64_t last_n;      /* "n" of the last tick staged, -1 none (older recordings have none) */
	int64_t last_t;      /* "t" of the last tick staged */
	int64_t skipped;     /* ticks after a gap not staged, waiting for a keyframe to carry on from */
	int64_t skip_line;   /* the line of the first of them */
	char skip_why[160];  /* "tick A follows tick B: K lines are missing" */
	/* gaps crossed: ticks the recorder could not write (a full disk), the replay carried on from the keyframe after */
	int64_t gaps, gap_ticks; /* crossed so far, and the ticks they missed */
	int64_t gap_missing, gap_from, gap_to; /* the last one (0 missing: none yet) */
	bool gap_now;        /* the line handed over is the keyframe after one */
	uint64_t refresh;    /* the cluster's refresh as recorded, 0 none */
	int64_t data_time, interval;
	/* the next line */
	bool has_next;
	rline next;
	end_reason end;
	char damage[320];    /* "line N: why" */
	bool complete_sent;
	/* playing (real time) */
	bool started;
	bool paused;
	double speed;
	int64_t anchor_wall;
	int64_t anchor_rec;
	bool retick;
	int64_t *gstamp;     /* by group id: the line that last staged it (duplicates are damage) */
	size_t cgstamp;
	/* index (real time only) */
	rebalance_mark *marks;
	size_t nmarks, cmarks;
	int64_t end_us;      /* last tick time found by the index, 0 unknown */
} kg_replay;

/* ------------------------------------------------------ replay_stage.c */

/* Stage a parsed tick line against the current state; 0, or -1 with err (L then holds a partial line to clear). */
int replay_stage_line(kg_replay *r, rline *L, const cJSON *root, char *err, size_t errsz);
/* Make the staged line the current state (cannot fail); L is cleared. */
void replay_stage_commit(kg_replay *r, rline *L);
/* Discard a staged line. */
void replay_stage_clear(rline *L);
/* Free the state: groups, topics, sources' health, brokers, the next line. */
void replay_stage_free(kg_replay *r);
/* Add the state of the line handed over to b: the recorded sources' health, brokers, topics, groups. */
void replay_stage_contribute(kg_replay *r, kg_builder *b);

/* ------------------------------------------------------- replay_file.c */

/* Read the next line into r->buf; returns its length, -1 at end of file. */
ssize_t replay_file_read_line(kg_replay *r, bool *has_newline);
/* Parse r->buf as one JSON object; NULL with err (and the column) when it is not one. */
cJSON *replay_file_parse_line(kg_replay *r, size_t n, bool has_newline, char *err, size_t errsz);
/* Read a header's fields (the version; with first, also start, cluster, model); -1 with err for a newer version. */
int replay_file_header(kg_replay *r, const cJSON *root, bool first, char *err, size_t errsz);
/* What a line was (replay_file_take()). */
enum { LINE_SKIP, LINE_STAGED, LINE_END };
/* Take the line in r->buf: a header or an empty line (SKIP), a tick staged into r->next (STAGED), or r->end set (END). */
int replay_file_take(kg_replay *r, size_t n, bool has_newline);
/* Stage the next tick line into r->next (has_next), or set r->end: end of file, past --at, or damage. */
void replay_file_next(kg_replay *r);
/* Index the recorded rebalance starts and the end time (real time only). */
void replay_file_index(kg_replay *r);

#endif

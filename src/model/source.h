/*
 * source.h: the one interface every data source implements (kept in the
 * model, below the sources and the recorder that implement it).
 *
 * A source translates the outside world (librdkafka's admin API, the
 * embedded demo's consumers, trace streams read with libcurl, a recording)
 * into model types.  The collector thread owns every source and calls its
 * functions only from that thread; a source that runs threads of its own
 * (the demo's consumers) hands observations over under its own lock and
 * calls ctx->wake() so the collector looks soon.
 *
 * Each loop the collector calls poll() on every source (non-blocking
 * progress), and when any reports news, drain() (observations since the
 * last drain) and then contribute() (the latest known state) into one
 * builder, so a snapshot is never older than the observations that went
 * with it.
 */
#ifndef KGTOP_MODEL_SOURCE_H
#define KGTOP_MODEL_SOURCE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "model/snapshot.h"

#define KG_SRC_NEWS 0x1     /* poll(): new state or observations to take */
#define KG_SRC_COMPLETE 0x2 /* poll(): a full refresh finished (for --once) */
#define KG_SRC_FAILED 0x4   /* poll(): no data and none to expect (e.g. no broker reachable): --once gives up */

typedef struct kg_source kg_source;

/*
 * What is looked at, for a source that cannot afford to ask about
 * everything every time (the kafka source at thousands of groups): the
 * groups on screen and the selected one, from the dashboard, and the groups
 * observations spoke of since the last call, from the collector.  Without a
 * screen (--json, --once) shown is empty and screen false.
 */
typedef struct kg_focus {
	const int32_t *shown; /* interned group ids on screen */
	size_t nshown;
	int32_t selected;     /* the selected group, -1 none */
	const int32_t *hot;   /* groups observations spoke of since the last call */
	size_t nhot;
	bool screen;          /* a screen tells what it shows */
} kg_focus;

/* What the collector gives a source. */
typedef struct kg_source_ctx {
	void (*wake)(void *arg); /* thread-safe: ask the collector to poll soon */
	void *wake_arg;
} kg_source_ctx;

typedef struct kg_source_ops {
	const char *kind;  /* its default name: "kafka", "demo", "trace", "replay" */
	kg_src_role role;  /* what it is: its health's role, and how commands address it */
	/* Make progress without blocking (bounded work); returns KG_SRC_* flags. */
	int (*poll)(kg_source *s, int64_t now_us);
	/* Move queued observations into q (may be NULL: nothing to drain). */
	void (*drain)(kg_source *s, kg_obsq *q);
	/* Add the latest known state and this source's health to b. */
	void (*contribute)(kg_source *s, kg_builder *b);
	/* Wall time (us) at which poll() should run again; 0 when only on wake. */
	int64_t (*next_poll)(kg_source *s);
	/* Optional: file descriptors to watch (events filled in); returns the count. */
	int (*fds)(kg_source *s, struct pollfd *pfd, int max);
	/* Optional: a command from the UI ("add-member", "refresh", ...); 0 or -1 with err. */
	int (*command)(kg_source *s, const char *cmd, char *err, size_t errsz);
	/* Optional: what is looked at (see kg_focus); called on the collector thread when it changes. */
	void (*focus)(kg_source *s, const kg_focus *f);
	/* Optional: a time master (replay) gives the clock; others leave it NULL. */
	int64_t (*clock)(kg_source *s);
	/* Stop threads, close handles, free. */
	void (*close)(kg_source *s);
	/* --once may close it as soon as the last snapshot is built from it (collector_set_once): it holds
	 * nothing the tracker or the report needs then, and what it holds would add to their peak */
	bool once_close;
} kg_source_ops;

struct kg_source {
	const kg_source_ops *ops;
	void *impl;
	char name[64]; /* shown in the header: "kafka", "log:broker-1", ... */
	kg_source_ctx ctx;
};

/* Allocate a source record (the implementation fills impl). */
kg_source *source_new(const kg_source_ops *ops, const char *name, void *impl);
/* Call close() and free the record. */
void source_free(kg_source *s);
/*
 * The role of a source named in a recording, which keeps names, not roles:
 * "kafka" the cluster, "demo" the demo, any other a trace stream.
 */
kg_src_role source_recorded_role(const char *name);

#endif

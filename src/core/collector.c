/*
 * collector.c: the collector thread (see collector.h for the design).
 */
#include "config.h"

#include "core/collector.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/intern.h"
#include "util/filter.h"
#include "util/log.h"
#include "util/util.h"

#define MAX_SOURCES 64
#define MAX_FDS 256
#define MAX_TAPS 8
#define MIN_PUBLISH_US 100000 /* snapshots at most ten times a second, unless the config says otherwise */

typedef struct command {
	char *role; /* src_role_name() of the sources it is for, or "*" */
	char *cmd;
	struct command *next;
} command;

struct kg_collector {
	kg_collector_config cfg;
	kg_tracker *tracker;
	kg_source *src[MAX_SOURCES];
	int nsrc;
	int complete[MAX_SOURCES];
	bool failed[MAX_SOURCES]; /* the source's last poll said it cannot answer */
	bool ticked;              /* a snapshot was built since a source last completed a refresh */
	bool once;                /* collector_set_once: close the once_close sources when every source completed */
	kg_source_ops *closed[MAX_SOURCES]; /* the ops of a source closed so (its kind and role alone) */
	kg_tap taps[MAX_TAPS]; /* the recorder, the server, tests: called in order */
	int ntaps;
	pthread_t thread;
	bool started;
	atomic_bool stop;
	atomic_bool refresh;
	int wake[2];  /* sources -> collector */
	int ready[2]; /* collector -> reader */
	pthread_mutex_t lock;
	kg_frame *pending;
	kg_snapshot *applied;     /* the snapshot the tracker applied last: the next keeps its unchanged rows (rows.h) */
	command *cmds, **cmds_tail;
	uint64_t seq;
	int64_t last_publish;   /* monotonic */
	int64_t last_news;      /* monotonic */
	volatile sig_atomic_t *stop_flag; /* set by a signal: give up waiting */
	const kg_filter *filter;          /* -g / -G, NULL: every group */
	const kg_filter *topics;          /* -t: a group none of whose topics passes is not listed */
	/* what the screen shows (under lock, set by collector_set_focus) */
	int32_t *shown;
	size_t nshown;
	int32_t selected;
	bool screen, focus_dirty;
	/* groups observations spoke of since the sources were last told (collector thread) */
	int32_t *hot;
	size_t nhot, chot;
};

/* Make a descriptor non-blocking and close-on-exec. */
static void
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Wake the collector (any thread). */
static void
collector_wake(void *arg)
{
	kg_collector *c = arg;
	char b = 1;
	if (write(c->wake[1], &b, 1) < 0) {
		/* full pipe: a wake-up is already pending */
	}
}

/* Create a collector. */
int
collector_new(const kg_collector_config *cfg, kg_tracker *tracker, kg_collector **out, char *err, size_t errsz)
{
	kg_collector *c;
	int wake[2], ready[2];
	*out = NULL;
	if (pipe(wake) < 0)
		return util_err(err, errsz, "collector: cannot make its wake-up pipe: %s", strerror(errno));
	if (pipe(ready) < 0) {
		int e = errno;
		close(wake[0]);
		close(wake[1]);
		return util_err(err, errsz, "collector: cannot make its frames' pipe: %s", strerror(e));
	}
	c = xcalloc(1, sizeof *c);
	memcpy(c->wake, wake, sizeof wake);
	memcpy(c->ready, ready, sizeof ready);
	c->cfg = *cfg;
	if (c->cfg.min_publish_us <= 0)
		c->cfg.min_publish_us = MIN_PUBLISH_US;
	c->cfg.cluster = xstrdup(c->cfg.cluster ? c->cfg.cluster : "");
	c->tracker = tracker;
	set_nonblock(c->wake[0]);
	set_nonblock(c->wake[1]);
	set_nonblock(c->ready[0]);
	set_nonblock(c->ready[1]);
	pthread_mutex_init(&c->lock, NULL);
	c->cmds_tail = &c->cmds;
	c->selected = -1;
	*out = c;
	return 0;
}

/* Add a source, or say that there is no room for it. */
int
collector_add_source(kg_collector *c, kg_source *s, char *err, size_t errsz)
{
	if (c->nsrc >= MAX_SOURCES)
		return util_err(err, errsz, "%s: too many sources (at most %d)", s->name, MAX_SOURCES);
	s->ctx.wake = collector_wake;
	s->ctx.wake_arg = c;
	c->src[c->nsrc++] = s;
	return 0;
}

/* Add a tap (before start), or say that there is no room for it. */
int
collector_add_tap(kg_collector *c, const kg_tap *tap, char *err, size_t errsz)
{
	if (c->ntaps >= MAX_TAPS)
		return util_err(err, errsz, "too many taps (at most %d)", MAX_TAPS);
	c->taps[c->ntaps++] = *tap;
	return 0;
}

/* The source whose clock is the collector's (a time master: replay), NULL for the wall clock. */
static kg_source *
collector_master(const kg_collector *c)
{
	int i;
	for (i = 0; i < c->nsrc; i++) {
		if (c->src[i]->ops->clock != NULL)
			return c->src[i];
	}
	return NULL;
}

/* The clock: a time master's, else the wall clock. */
static int64_t
collector_now(kg_collector *c)
{
	kg_source *m = collector_master(c);
	return m != NULL ? m->ops->clock(m) : util_now_us();
}

/* Publish a snapshot and its events. */
static void
publish(kg_collector *c, kg_snapshot *snap, kg_evlist *ev, char *message)
{
	kg_frame *f;
	char b = 1;
	int i, complete = 0;
	for (i = 0; i < c->nsrc; i++)
		complete += c->complete[i] > 0;
	pthread_mutex_lock(&c->lock);
	f = c->pending;
	if (f == NULL) {
		f = xcalloc(1, sizeof *f);
		c->pending = f;
	}
	if (snap != NULL) {
		snapshot_unref(f->snap);
		f->snap = snap;
		f->seq = ++c->seq;
	}
	if (ev != NULL)
		evlist_move(&f->events, ev);
	if (message != NULL) {
		free(f->message);
		f->message = message;
	}
	f->complete = complete;
	pthread_mutex_unlock(&c->lock);
	if (write(c->ready[1], &b, 1) < 0) {
		/* a notification is already pending */
	}
}

/* Remember the groups observations spoke of, for the sources that pick what to ask (focus). */
static void
note_hot(kg_collector *c, const kg_obsq *q)
{
	size_t k, j;
	for (k = 0; k < q->n; k++) {
		int32_t g = q->v[k]->group;
		if (g < 0)
			continue;
		for (j = 0; j < c->nhot && c->hot[j] != g; j++)
			;
		if (j == c->nhot && c->nhot < 4096) {
			util_grow(&c->hot, &c->chot, c->nhot + 1, sizeof *c->hot);
			c->hot[c->nhot++] = g;
		}
	}
}

/* Tell the sources that want it what is looked at, when it changed or observations spoke of groups. */
static void
tell_focus(kg_collector *c)
{
	kg_focus f;
	int32_t *shown = NULL;
	int i;
	bool dirty;
	pthread_mutex_lock(&c->lock);
	dirty = c->focus_dirty;
	c->focus_dirty = false;
	memset(&f, 0, sizeof f);
	if (dirty || c->nhot > 0) {
		shown = xmalloc((c->nshown ? c->nshown : 1) * sizeof *shown);
		if (c->nshown > 0)
			memcpy(shown, c->shown, c->nshown * sizeof *shown);
		f.shown = shown;
		f.nshown = c->nshown;
		f.selected = c->selected;
		f.screen = c->screen;
	}
	pthread_mutex_unlock(&c->lock);
	if (!dirty && c->nhot == 0)
		return;
	f.hot = c->hot;
	f.nhot = c->nhot;
	for (i = 0; i < c->nsrc; i++) {
		if (c->src[i]->ops->focus != NULL)
			c->src[i]->ops->focus(c->src[i], &f);
	}
	c->nhot = 0;
	free(shown);
}


/* Every source completed a refresh (or has none to complete): collector_run_until_complete's end. */
static bool
all_complete(const kg_collector *c)
{
	int i;
	for (i = 0; i < c->nsrc; i++) {
		if (c->complete[i] == 0 && c->src[i]->ops->poll != NULL)
			return false;
	}
	return true;
}

/*
 * --once's last snapshot is to be built, its sources' contributions in the
 * builder: the sources that allow it close now, before the snapshot is
 * finished, the tracker derives it and the report is written (the kafka
 * source's memory would add to theirs); each keeps ops that do nothing
 * but say its kind and role, so the collector calls nothing of it again.
 */
static void
close_for_once(kg_collector *c)
{
	int i;
	for (i = 0; i < c->nsrc; i++) {
		kg_source *s = c->src[i];
		if (!s->ops->once_close || c->closed[i] != NULL)
			continue;
		c->closed[i] = xcalloc(1, sizeof *c->closed[i]);
		c->closed[i]->kind = s->ops->kind;
		c->closed[i]->role = s->ops->role;
		s->ops->close(s);
		s->ops = c->closed[i];
	}
}

/* Build, derive and publish one snapshot. */
static void
tick(kg_collector *c, int64_t now)
{
	kg_obsq q = { 0 };
	kg_evlist ev = { 0 };
	kg_builder *b;
	kg_snapshot *snap;
	int i;
	int64_t t0 = util_mono_us(), t1, t2;
	for (i = 0; i < c->nsrc; i++) {
		if (c->src[i]->ops->drain != NULL)
			c->src[i]->ops->drain(c->src[i], &q);
	}
	/*
	 * Live, the snapshot is dated after its sources handed over what it
	 * holds: a source's state read while the others were polled (the demo
	 * reads its members' requests at drain) is news of then, and a
	 * picture dated earlier would put a change before its cause.
	 */
	if (collector_master(c) == NULL) {
		int64_t later = util_now_us();
		if (later > now)
			now = later;
	}
	if (!filter_empty(c->filter)) {
		/* -g / -G hold for every source: observations of other groups are dropped here */
		size_t k, w = 0;
		for (k = 0; k < q.n; k++) {
			if (q.v[k]->group >= 0 && !filter_match(c->filter, intern_group_name(q.v[k]->group)))
				obs_free(q.v[k]);
			else
				q.v[w++] = q.v[k];
		}
		q.n = w;
	}
	note_hot(c, &q);
	b = builder_new(now);
	if (c->applied != NULL)
		builder_keep(b, c->applied);
	builder_filter(b, c->filter);
	builder_topic_filter(b, c->topics);
	builder_cluster(b, c->cfg.cluster);
	for (i = 0; i < c->nsrc; i++) {
		builder_source_role(b, c->src[i]->ops->role); /* its health carries its role */
		if (c->src[i]->ops->contribute != NULL)
			c->src[i]->ops->contribute(c->src[i], b);
	}
	if (c->once && all_complete(c)) {
		/*
		 * --once's last snapshot: what only later ones would need goes as
		 * soon as it can, the sources once they contributed (the builder
		 * holds copies of what they gave): the snapshot is then built in
		 * the memory they held
		 */
		close_for_once(c);
		builder_last();
		tracker_last_apply(c->tracker);
	}
	snap = builder_finish(b);
	t1 = util_mono_us();
	for (i = 0; i < c->ntaps; i++) {
		if (c->taps[i].before != NULL)
			c->taps[i].before(c->taps[i].arg, &q, snap);
	}
	tracker_apply(c->tracker, &q, snap, &ev);
	snapshot_unref(c->applied);
	c->applied = c->once ? NULL : snapshot_ref(snap);
	history_add_verdicts(tracker_history(c->tracker), snap); /* so that scrubbing back shows them */
	t2 = util_mono_us();
	log_msg(KG_LOG_DEBUG, "collector: snapshot %llu of %d groups built in %.1f ms, derived in %.1f ms (%zu events)",
		(unsigned long long)c->seq + 1, snap->ngroups, (double)(t1 - t0) / 1000.0, (double)(t2 - t1) / 1000.0,
		ev.n);
	for (i = 0; i < c->ntaps; i++) {
		if (c->taps[i].after != NULL)
			c->taps[i].after(c->taps[i].arg, snap, &ev);
	}
	free(q.v);
	publish(c, snap, &ev, NULL);
	free(ev.v);
	c->ticked = true;
}

/* Run queued commands. */
static void
run_commands(kg_collector *c)
{
	command *list, *cm;
	pthread_mutex_lock(&c->lock);
	list = c->cmds;
	c->cmds = NULL;
	c->cmds_tail = &c->cmds;
	pthread_mutex_unlock(&c->lock);
	while ((cm = list) != NULL) {
		char err[256] = "";
		int i, handled = 0, rc = 0;
		list = cm->next;
		for (i = 0; i < c->nsrc; i++) {
			kg_source *s = c->src[i];
			if (s->ops->command == NULL)
				continue;
			if (strcmp(cm->role, "*") != 0 && strcmp(cm->role, src_role_name(s->ops->role)) != 0)
				continue;
			handled++;
			if (s->ops->command(s, cm->cmd, err, sizeof err) < 0)
				rc = -1;
		}
		if (handled == 0)
			snprintf(err, sizeof err, "%s: no %s source takes commands", cm->cmd, cm->role);
		if (err[0] != '\0' || rc < 0)
			publish(c, NULL, NULL, xstrdup(err[0] ? err : "command failed"));
		free(cm->role);
		free(cm->cmd);
		free(cm);
	}
}

/*
 * How long after the last snapshot the next is due: the interval, with a
 * moment's grace when a source brings news every interval (the cluster's
 * refresh), so its news and the interval make one snapshot, not two: at
 * 10,000 groups each costs tens of milliseconds.
 */
static int64_t
interval_due(const kg_collector *c, int64_t mono)
{
	int64_t iv = c->cfg.interval_us;
	return iv + (mono - c->last_news < 2 * iv ? c->cfg.min_publish_us : 0);
}

/* A stop was asked (collector_stop(), or the signal flag): a step ends at the next source. */
static bool
collector_stopping(const kg_collector *c)
{
	return atomic_load(&c->stop) || (c->stop_flag != NULL && *c->stop_flag);
}

/*
 * Poll the trace sources (traces) or the others: their flags into *flags,
 * a time master's news into *master_news.  False when a stop was asked.
 * The traces go first: a stream begins at its end when first polled, and a
 * coordinator's log is read whole only from then (KG_OBS_LOG_FROM), while
 * the cluster source asks its first description when first polled.  A log
 * that found its end before that description was asked times a rebalance
 * begun after it exactly (t_rebalance.sh: a join a moment after kgtop
 * started was bounded, not measured, when the cluster was asked first).
 */
static bool
poll_sources(kg_collector *c, int64_t now, bool traces, int *flags, bool *master_news)
{
	int i, f;
	for (i = 0; i < c->nsrc; i++) {
		if ((c->src[i]->ops->role == KG_ROLE_TRACE) != traces)
			continue;
		if (collector_stopping(c))
			return false; /* each source's poll is bounded (its budget): the stop is seen within one */
		f = c->src[i]->ops->poll ? c->src[i]->ops->poll(c->src[i], now) : 0;
		if (f & KG_SRC_COMPLETE) {
			c->complete[i]++;
			c->ticked = false;
		}
		c->failed[i] = (f & KG_SRC_FAILED) != 0;
		if ((f & KG_SRC_NEWS) && c->src[i]->ops->clock != NULL)
			*master_news = true;
		*flags |= f;
	}
	return true;
}

/* One loop iteration: wait, poll sources, maybe tick. */
void
collector_step(kg_collector *c, int64_t wait_us)
{
	struct pollfd pfd[MAX_FDS];
	int npfd = 0, i, flags = 0, timeout_ms;
	bool master_news = false;
	/* scheduling runs on the monotonic clock: a wall-clock step (NTP) must not stop the ticks */
	int64_t now = util_mono_us(), wall_now = util_now_us(), deadline = c->last_publish + interval_due(c, now);
	char buf[256];

	/* a time master (replay) decides when to tick: only its own wishes set the deadline */
	for (i = 0; i < c->nsrc; i++) {
		if (c->src[i]->ops->clock != NULL)
			deadline = now + 1000000;
	}
	for (i = 0; i < c->nsrc; i++) {
		int64_t np = c->src[i]->ops->next_poll ? c->src[i]->ops->next_poll(c->src[i]) : 0;
		if (np > 0 && now + (np - wall_now) < deadline)
			deadline = now + (np - wall_now); /* sources speak wall time */
	}
	if (c->last_news > c->last_publish) {
		int64_t d = c->last_publish + c->cfg.min_publish_us;
		if (d < deadline)
			deadline = d;
	}
	timeout_ms = (int)((deadline - now + 999) / 1000);
	if (timeout_ms < 0)
		timeout_ms = 0;
	if (wait_us >= 0 && timeout_ms > wait_us / 1000)
		timeout_ms = (int)(wait_us / 1000);
	pfd[npfd].fd = c->wake[0];
	pfd[npfd].events = POLLIN;
	npfd++;
	for (i = 0; i < c->nsrc && npfd < MAX_FDS; i++) {
		if (c->src[i]->ops->fds != NULL)
			npfd += c->src[i]->ops->fds(c->src[i], pfd + npfd, MAX_FDS - npfd);
	}
	if (poll(pfd, (nfds_t)npfd, timeout_ms) < 0 && errno != EINTR)
		timeout_ms = 0;
	while (read(c->wake[0], buf, sizeof buf) > 0)
		;
	if (collector_stopping(c))
		return;
	run_commands(c);
	tell_focus(c);
	if (atomic_exchange(&c->refresh, false)) {
		for (i = 0; i < c->nsrc; i++) {
			if (c->src[i]->ops->command != NULL)
				c->src[i]->ops->command(c->src[i], "refresh", buf, sizeof buf);
		}
	}
	now = collector_now(c);
	/* the traces first (poll_sources) */
	if (!poll_sources(c, now, true, &flags, &master_news) || !poll_sources(c, now, false, &flags, &master_news))
		return;
	if (flags & KG_SRC_NEWS)
		c->last_news = util_mono_us();
	{
		int64_t mono = util_mono_us();
		bool due = mono - c->last_publish >= interval_due(c, mono);
		bool news = c->last_news > c->last_publish && mono - c->last_publish >= c->cfg.min_publish_us;
		/*
		 * A time master (replay) hands over one recorded refresh per poll:
		 * tick on each so the tracker sees exactly what it saw live.
		 */
		bool has_master = collector_master(c) != NULL;
		if (master_news)
			now = collector_now(c);
		if (has_master ? master_news : (due || news || c->seq == 0)) {
			tick(c, now);
			c->last_publish = mono;
		}
	}
}

/* The thread body. */
static void *
collector_main(void *arg)
{
	kg_collector *c = arg;
	pthread_setname_np(pthread_self(), "kg-collector"); /* by name in /proc and the benches */
	while (!atomic_load(&c->stop))
		collector_step(c, -1);
	return NULL;
}

/* Start the thread with the terminal signals blocked in it. */
int
collector_start(kg_collector *c, char *err, size_t errsz)
{
	sigset_t all, old;
	int rc;
	sigemptyset(&all);
	sigaddset(&all, SIGINT);
	sigaddset(&all, SIGTERM);
	sigaddset(&all, SIGHUP);
	sigaddset(&all, SIGWINCH);
	sigaddset(&all, SIGQUIT);
	sigaddset(&all, SIGTSTP);
	sigaddset(&all, SIGCONT);
	sigaddset(&all, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&c->thread, NULL, collector_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
		return util_err(err, errsz, "cannot start the collector thread: %s", strerror(rc));
	c->started = true;
	return 0;
}

/* The readiness descriptor. */
int
collector_fd(const kg_collector *c)
{
	return c->ready[0];
}

/* Take the pending frame. */
kg_frame *
collector_take(kg_collector *c)
{
	kg_frame *f;
	char buf[64];
	while (read(c->ready[0], buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&c->lock);
	f = c->pending;
	c->pending = NULL;
	pthread_mutex_unlock(&c->lock);
	return f;
}

/* Free a frame. */
void
frame_free(kg_frame *f)
{
	if (f == NULL)
		return;
	snapshot_unref(f->snap);
	evlist_clear(&f->events);
	free(f->events.v);
	free(f->message);
	free(f);
}

/* Queue a command. */
void
collector_command(kg_collector *c, const char *role, const char *cmd)
{
	command *cm = xcalloc(1, sizeof *cm);
	cm->role = xstrdup(role);
	cm->cmd = xstrdup(cmd);
	pthread_mutex_lock(&c->lock);
	*c->cmds_tail = cm;
	c->cmds_tail = &cm->next;
	pthread_mutex_unlock(&c->lock);
	collector_wake(c);
}

/* What the screen shows. */
void
collector_set_focus(kg_collector *c, const int32_t *shown, size_t n, int32_t selected)
{
	pthread_mutex_lock(&c->lock);
	c->shown = xreallocarray(c->shown, n ? n : 1, sizeof *c->shown);
	if (n > 0)
		memcpy(c->shown, shown, n * sizeof *shown);
	c->nshown = n;
	c->selected = selected;
	c->screen = true;
	c->focus_dirty = true;
	pthread_mutex_unlock(&c->lock);
	collector_wake(c);
}

/* Refresh now. */
void
collector_refresh(kg_collector *c)
{
	atomic_store(&c->refresh, true);
	collector_wake(c);
}

/* Stop the thread and close sources. */
void
collector_stop(kg_collector *c)
{
	int i;
	if (c->started) {
		atomic_store(&c->stop, true);
		collector_wake(c);
		pthread_join(c->thread, NULL);
		c->started = false;
	}
	for (i = 0; i < c->nsrc; i++) {
		source_free(c->src[i]);
		c->src[i] = NULL;
	}
	c->nsrc = 0;
}

/* Free. */
void
collector_free(kg_collector *c)
{
	command *cm;
	int i;
	if (c == NULL)
		return;
	collector_stop(c);
	for (i = 0; i < MAX_SOURCES; i++)
		free(c->closed[i]);
	frame_free(c->pending);
	snapshot_unref(c->applied);
	while ((cm = c->cmds) != NULL) {
		c->cmds = cm->next;
		free(cm->role);
		free(cm->cmd);
		free(cm);
	}
	close(c->wake[0]);
	close(c->wake[1]);
	close(c->ready[0]);
	close(c->ready[1]);
	pthread_mutex_destroy(&c->lock);
	free((char *)c->cfg.cluster);
	free(c->shown);
	free(c->hot);
	free(c);
}

/* Loop in the caller until every source completed a refresh. */
int
collector_run_until_complete(kg_collector *c, int64_t timeout_us, char *err, size_t errsz)
{
	int64_t end = util_mono_us() + timeout_us;
	for (;;) {
		int i, missing = 0, failed = 0;
		/* a source without a poll (the recorder's health) has nothing to answer */
		for (i = 0; i < c->nsrc; i++) {
			if (c->complete[i] == 0 && c->src[i]->ops->poll != NULL) {
				missing++;
				failed += c->failed[i];
			}
		}
		if (missing == 0) {
			/* the snapshot of the last completion is published already: building it again costs at 10,000 groups */
			if (!c->ticked)
				tick(c, collector_now(c));
			return COLLECTOR_COMPLETE;
		}
		if (failed == missing) {
			/* every missing source says no answer can come (no broker reachable): no use waiting */
			sbuf s = { 0 };
			for (i = 0; i < c->nsrc; i++) {
				if (c->failed[i])
					sbuf_addf(&s, "%s%s", s.len ? ", " : "", c->src[i]->name);
			}
			util_err(err, errsz, "no answer can come from: %s", sbuf_str(&s));
			sbuf_free(&s);
			tick(c, collector_now(c));
			return COLLECTOR_UNANSWERABLE;
		}
		if (util_mono_us() >= end || (c->stop_flag != NULL && *c->stop_flag)) {
			sbuf s = { 0 };
			for (i = 0; i < c->nsrc; i++) {
				if (c->complete[i] == 0 && c->src[i]->ops->poll != NULL)
					sbuf_addf(&s, "%s%s", s.len ? ", " : "", c->src[i]->name);
			}
			util_err(err, errsz, "no complete answer within %.1fs from: %s", (double)timeout_us / 1e6,
				 sbuf_str(&s));
			sbuf_free(&s);
			tick(c, collector_now(c));
			return COLLECTOR_TIMEOUT;
		}
		collector_step(c, 50000);
	}
}

/* Keep only the groups that pass f (for every source). */
void
collector_set_filter(kg_collector *c, const kg_filter *f)
{
	c->filter = f;
}

/* Set the topic filter (-t): groups that consume none of its topics are left out. */
void
collector_set_topic_filter(kg_collector *c, const kg_filter *f)
{
	c->topics = f;
}

/* --once: close the sources that allow it once every source completed a refresh (before the last derivation). */
void
collector_set_once(kg_collector *c)
{
	c->once = true;
}

/* A flag a signal handler sets to stop collector_run_until_complete(). */
void
collector_set_stop_flag(kg_collector *c, volatile sig_atomic_t *flag)
{
	c->stop_flag = flag;
}

/* The history. */
kg_history *
collector_history(kg_collector *c)
{
	return tracker_history(c->tracker);
}

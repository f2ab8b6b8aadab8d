/*
 * fixture_util.c: the fixture broker from tests (see fixture_util.h).
 */
#include "config.h"

#include "core/options.h"
#include "fixture_util.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/intern.h"
#include "sources/kafka/kafka.h"
#include "util/util.h"

/* The build tree (set by the test harness) or ".". */
static const char *
builddir(void)
{
	const char *b = getenv("top_builddir");
	return b && *b ? b : ".";
}

/* The source tree. */
static const char *
srcdir(void)
{
	const char *s = getenv("top_srcdir");
	return s && *s ? s : ".";
}

/* Start the broker with its first broker on port (0: any free ports), with a request log unless quiet. */
static int
start(fixture *f, const char *scenario, bool manual, bool quiet, int port)
{
	int out[2];
	char bin[512], scen[512], line[1024], ports[16];
	size_t n = 0;
	int64_t deadline = util_mono_us() + 10LL * 1000000;
	memset(f, 0, sizeof *f);
	snprintf(f->dir, sizeof f->dir, "/tmp/kgtop-it-XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		return -1;
	snprintf(f->stats, sizeof f->stats, "%s/stats.json", f->dir);
	snprintf(bin, sizeof bin, "%s/tests/fixture-broker", builddir());
	snprintf(ports, sizeof ports, "%d", port);
	if (scenario[0] == '/')
		util_strlcpy(scen, scenario, sizeof scen);
	else if (strchr(scenario, '/') != NULL)
		snprintf(scen, sizeof scen, "%s/%s", srcdir(), scenario);
	else
		snprintf(scen, sizeof scen, "%s/tests/fixture/scenarios/%s", srcdir(), scenario);
	if (pipe(out) < 0)
		return -1;
	f->pid = fork();
	if (f->pid == 0) {
		char logp[256];
		prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlive a failed test */
		snprintf(logp, sizeof logp, "%s/broker.log", f->dir);
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
		if (quiet)
			execl(bin, bin, "--port", ports, "--scenario", scen, "--stats", f->stats, (char *)NULL);
		else if (manual)
			execl(bin, bin, "--port", ports, "--scenario", scen, "--stats", f->stats, "--manual", "--log", logp,
			      (char *)NULL);
		else
			execl(bin, bin, "--port", ports, "--scenario", scen, "--stats", f->stats, "--log", logp, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	while (util_mono_us() < deadline && n < sizeof line - 1) {
		struct pollfd p = { out[0], POLLIN, 0 };
		ssize_t r;
		if (poll(&p, 1, 100) <= 0)
			continue;
		r = read(out[0], line + n, sizeof line - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		line[n] = '\0';
		if (strchr(line, '\n') != NULL)
			break;
	}
	close(out[0]);
	if (strncmp(line, "ready ", 6) != 0) {
		fixture_stop(f);
		return -1;
	}
	line[strcspn(line, "\r\n")] = '\0';
	util_strlcpy(f->bootstrap, line + 6, sizeof f->bootstrap);
	return 0;
}

/* Start the broker with a scenario (manual steps), logging every request. */
int
fixture_start(fixture *f, const char *scenario, bool manual)
{
	return start(f, scenario, manual, false, 0);
}

/* The same with the first broker on port (0: any); an absolute scenario path is taken as it is. */
int
fixture_start_at(fixture *f, const char *scenario, bool manual, int port)
{
	return start(f, scenario, manual, false, port);
}

/* Start the broker without a request log, steps on their own time (benchmarks). */
int
fixture_start_quiet(fixture *f, const char *scenario)
{
	return start(f, scenario, false, true, 0);
}

/* Read the stats file. */
static cJSON *
read_stats(fixture *f)
{
	FILE *fp = fopen(f->stats, "r");
	char buf[16384];
	size_t n;
	if (fp == NULL)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return cJSON_Parse(buf);
}

/* The broker's step counter; -1 unknown. */
static int
current_step(fixture *f)
{
	cJSON *j = read_stats(f);
	int step = -1;
	if (j != NULL) {
		cJSON *s = cJSON_GetObjectItem(j, "step");
		if (cJSON_IsNumber(s))
			step = s->valueint;
		cJSON_Delete(j);
	}
	return step;
}

/* Next step. */
int
fixture_step(fixture *f)
{
	int before = current_step(f);
	int64_t deadline = util_mono_us() + 5LL * 1000000;
	kill(f->pid, SIGUSR1);
	while (util_mono_us() < deadline) {
		int now = current_step(f);
		if (now > before)
			return 0;
		poll(NULL, 0, 20);
	}
	return -1;
}

/* Stop. */
void
fixture_stop(fixture *f)
{
	char cmd[256];
	if (f->pid > 0) {
		int st;
		kill(f->pid, SIGTERM);
		waitpid(f->pid, &st, 0);
		f->pid = 0;
	}
	if (f->dir[0] && getenv("KGTOP_KEEP_TEST_FILES") == NULL) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
		if (system(cmd) != 0) {
			/* leave it */
		}
	}
}

/* Requests of one API the broker counted so far ("DescribeGroups", ...); -1 unknown. */
int
fixture_requests(fixture *f, const char *api)
{
	cJSON *j = read_stats(f), *r, *n;
	int v = -1;
	if (j == NULL)
		return -1;
	r = cJSON_GetObjectItem(j, "requests");
	n = r ? cJSON_GetObjectItem(r, api) : NULL;
	if (cJSON_IsNumber(n))
		v = n->valueint;
	cJSON_Delete(j);
	return v;
}

/*
 * Over the lines of the broker's request log that hold both strings (NULL:
 * any): with key, the sum of the numbers after it (lines without it add
 * nothing), else how many lines; -1 without a log.
 */
int
fixture_log_sum(fixture *f, const char *a, const char *b, const char *key)
{
	char path[256], line[1024];
	const char *at;
	FILE *fp;
	int n = 0;
	snprintf(path, sizeof path, "%s/broker.log", f->dir);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, fp) != NULL) {
		if ((a != NULL && strstr(line, a) == NULL) || (b != NULL && strstr(line, b) == NULL))
			continue;
		if (key == NULL)
			n++;
		else if ((at = strstr(line, key)) != NULL)
			n += atoi(at + strlen(key));
	}
	fclose(fp);
	return n;
}

/* Lines of the broker's request log that hold both strings (NULL: any); -1 without a log. */
int
fixture_log_count(fixture *f, const char *a, const char *b)
{
	return fixture_log_sum(f, a, b, NULL);
}

/* Rejected writes. */
int
fixture_rejected_writes(fixture *f)
{
	cJSON *j = read_stats(f), *w, *it;
	int total = 0;
	if (j == NULL)
		return -1;
	w = cJSON_GetObjectItem(j, "rejected_writes");
	if (!cJSON_IsObject(w)) {
		cJSON_Delete(j);
		return -1;
	}
	cJSON_ArrayForEach(it, w) {
		if (cJSON_IsNumber(it))
			total += it->valueint;
	}
	cJSON_Delete(j);
	return total;
}

int64_t live_stamps_rest_us;

/* Build a live collector. */
int
live_open(live *l, const char *bootstrap, int interval_ms)
{
	return live_open_tiers(l, bootstrap, interval_ms, 0, 0);
}

/* Build a live collector whose kafka source has its own --full-refresh and --max-requests (0: the options' defaults). */
int
live_open_tiers(live *l, const char *bootstrap, int interval_ms, int64_t full_refresh_us, double max_requests)
{
	return live_open_window(l, bootstrap, interval_ms, full_refresh_us, max_requests, 0);
}

/* The same with the tracker's --lag-window (0: the default). */
int
live_open_window(live *l, const char *bootstrap, int interval_ms, int64_t full_refresh_us, double max_requests,
		 int64_t lag_window_us)
{
	kg_kafka_config kc;
	kg_collector_config cc;
	kg_tracker_config mc = options_model_defaults();
	kg_options o;
	kg_source *k;
	char err[256];
	memset(l, 0, sizeof *l);
	if (lag_window_us > 0)
		mc.lag_window_us = lag_window_us;
	options_defaults(&o);
	l->tracker = tracker_new(&mc);
	memset(&cc, 0, sizeof cc);
	cc.interval_us = (int64_t)interval_ms * 1000;
	cc.cluster = bootstrap;
	if (collector_new(&cc, l->tracker, &l->c, NULL, 0) < 0)
		abort(); /* no pipe */
	memset(&kc, 0, sizeof kc);
	kc.brokers = bootstrap;
	kc.interval_us = (int64_t)interval_ms * 1000;
	kc.timeout_us = 5LL * 1000000;
	kc.full_refresh_us = full_refresh_us > 0 ? full_refresh_us : o.full_refresh_us;
	kc.max_requests = max_requests > 0 ? max_requests : o.max_requests;
	kc.lag_window_us = mc.lag_window_us;
	kc.stamps_rest_us = live_stamps_rest_us;
	options_free(&o);
	if (kafka_source_new(&kc, &k, err, sizeof err) < 0) {
		fprintf(stderr, "# kafka_source_new: %s\n", err);
		return -1;
	}
	collector_add_source(l->c, k, NULL, 0);
	return 0;
}

/* Step until a predicate holds. */
bool
live_wait(live *l, bool (*pred)(live *, const void *), const void *arg, int timeout_ms)
{
	int64_t deadline = util_mono_us() + (int64_t)timeout_ms * 1000;
	while (util_mono_us() < deadline) {
		kg_frame *f;
		collector_step(l->c, 50000);
		f = collector_take(l->c);
		if (f != NULL) {
			if (f->snap != NULL) {
				snapshot_unref(l->snap);
				l->snap = snapshot_ref(f->snap);
			}
			evlist_move(&l->ev, &f->events);
			frame_free(f);
		}
		if (l->snap != NULL && pred(l, arg))
			return true;
	}
	return false;
}

/* Free. */
void
live_close(live *l)
{
	collector_free(l->c);
	tracker_free(l->tracker);
	snapshot_unref(l->snap);
	evlist_clear(&l->ev);
	free(l->ev.v);
}

/* A group of the newest snapshot. */
const kg_group *
live_group(live *l, const char *name)
{
	return snapshot_group_by_name(l->snap, name);
}

/* Judged moving. */
bool
live_group_moving(live *l, const char *name)
{
	const kg_group *g = live_group(l, name);
	int k;
	if (g == NULL || g->nparts == 0 || g->verdict != KG_VERDICT_OK)
		return false;
	for (k = 0; k < g->nparts; k++) {
		if (g->parts[k].commit_gap_us <= 0 || g->parts[k].moved_us <= 0)
			return false;
	}
	return true;
}

/* Count events. */
int
live_count(live *l, const char *group, kg_event_kind kind, const char *client)
{
	size_t i;
	int n = 0;
	int32_t gid = group ? intern_group(group) : -2;
	for (i = 0; i < l->ev.n; i++) {
		const kg_event *e = l->ev.v[i];
		if ((gid == -2 || e->group == gid) && e->kind == kind && (client == NULL || (e->client_id && strcmp(e->client_id, client) == 0)))
			n++;
	}
	return n;
}

/* Count revokes of a class. */
int
live_revokes(live *l, const char *group, kg_revoke_class cls)
{
	size_t i;
	int n = 0;
	int32_t gid = intern_group(group);
	for (i = 0; i < l->ev.n; i++) {
		const kg_event *e = l->ev.v[i];
		if (e->group == gid && e->kind == KG_EV_REVOKED && e->cls == cls)
			n++;
	}
	return n;
}

/* Print events. */
void
live_dump(live *l)
{
	size_t i;
	int64_t t0 = l->ev.n ? l->ev.v[0]->time_us : 0;
	for (i = 0; i < l->ev.n; i++) {
		sbuf b = { 0 };
		event_format_line(l->ev.v[i], t0, &b);
		fprintf(stderr, "#   %s %s\n", intern_group_name(l->ev.v[i]->group), sbuf_str(&b));
		sbuf_free(&b);
	}
}

/* Predicate: a group's state. */
bool
live_pred_state(live *l, const void *arg)
{
	const struct {
		const char *group;
		kg_group_state state;
	} *want = arg;
	const kg_group *g = live_group(l, want->group);
	return g != NULL && g->state == want->state;
}

/* A free TCP port on 127.0.0.1 (bound, read, closed); -1 when none. */
int
fixture_free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

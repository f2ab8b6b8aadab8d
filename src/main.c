/*
 * main.c: wires options, sources, the collector, and the renderer or a
 * runner (report/run.h).  Nothing else calls exit(); every other layer
 * returns errors.
 *
 * The steps, each a function returning GO_ON (which is no exit status)
 * or the exit status: set up (options, log, global state, signals), the
 * replay or the attached stream if any (their settings feed the tracker),
 * the tracker, the demo if any (the cluster it starts is the kafka
 * source's), the collector, then its sources in the order the header
 * lists them (replay or attach,
 * recorder, server, kafka, demo, traces), then run, then finish
 * (everything freed, the server after the collector, the recorder's last
 * error said).  --serve without a terminal runs headless.
 *
 * Exit status: 0 ok, 1 cluster or runtime error (with a message), 2 usage.
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "core/collector.h"
#include "util/log.h"
#include "core/options.h"
#include "model/defaults.h"
#include "model/tracker.h"
#include "record/recorder.h"
#include "report/check.h"
#include "report/report.h"
#include "report/run.h"
#include "sources/demo/demo.h"
#include "sources/demo/demo_script.h"
#include "sources/kafka/kafka.h"
#include "record/replay.h"
#include "serve/serve.h"
#include "sources/attach/attach.h"
#include "sources/offsets/offsets.h"
#include "sources/sources.h"
#include "sources/trace/trace.h"
#include "ui/ui.h"
#include "util/filter.h"
#include "util/util.h"

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t keyframe_signal; /* SIGUSR1: --json's next line is a keyframe */
static int signal_pipe[2] = { -1, -1 };

enum { GO_ON = 256 }; /* a step went well: go on to the next (an exit status is 0 to 255) */

/* What main wires together, and what it frees at the end. */
typedef struct app {
	kg_options o;
	kg_tracker_config tc;
	kg_tracker *tracker;
	kg_collector *c;
	kg_source *kafka, *demo, *replay, *attach;
	bool demo_added, replay_added, attach_added; /* handed to the collector, which closes them */
	const char *bootstrap;         /* the cluster the kafka source polls (the demo's own, or -b) */
	kg_filter *groups;
	kg_filter *topics;             /* -t: the groups listed are those using one of these topics */
	kg_recorder *recorder;
	kg_server *server;
	kg_ui_info info;
	char cluster_label[512];       /* "prod (kafka1:9092,...)" for a named cluster */
	bool log_opened, global_init;
	char err[1024];
	char leftovers[2048];          /* what the demo could not remove from a real cluster, said at the end */
} app;

/* Record the signal and wake the main loop (async-signal-safe). */
static void
on_signal(int sig)
{
	char b = 1;
	int saved = errno;
	stop_signal = sig;
	if (signal_pipe[1] >= 0 && write(signal_pipe[1], &b, 1) < 0) {
		/* nothing to do */
	}
	errno = saved;
}

/* SIGUSR1: ask --json for a keyframe (async-signal-safe: a flag the next line reads). */
static void
on_keyframe(int sig)
{
	(void)sig;
	keyframe_signal = 1;
}

/* Install the stop signals for the reporters (the dashboard installs its own); -1 with err without a pipe. */
static int
install_signals(char *err, size_t errsz)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (pipe(signal_pipe) < 0)
		return util_err(err, errsz, "cannot make the signals' pipe: %s", strerror(errno));
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_keyframe;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL); /* past a file size limit (ulimit -f) a write fails (EFBIG), like a full disk */
	return 0;
}

/* The exit status of a failure: 2 for a usage error (KG_ERR_USAGE), else 1. */
static int
exit_status(int rc)
{
	return rc == KG_ERR_USAGE ? 2 : 1;
}

/* Say an error and give the exit status. */
static int
fail(int status, const char *what, const char *err)
{
	log_say("%s%s%s", what ? what : "", what ? ": " : "", err);
	return status;
}

/*
 * Hide the passwords of URLs on the command line from ps: the options
 * hold copies, so the password of "http://user:password@host" in argv is
 * overwritten with '*' once read (/proc/PID/cmdline shows argv's memory).
 * ~/.netrc keeps it out of the command line altogether (kgtop(1)).
 */
static void
hide_url_passwords(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		char *p = strstr(argv[i], "://"), *at, *colon, *end;
		if (p == NULL)
			continue;
		p += 3;
		end = p + strcspn(p, "/?#");
		at = memchr(p, '@', (size_t)(end - p));
		colon = at != NULL ? memchr(p, ':', (size_t)(at - p)) : NULL;
		if (colon != NULL)
			memset(colon + 1, '*', (size_t)(at - colon - 1));
	}
}

/* -V: kgtop's version and the libraries', as kcat -V says them (librdkafka: bundled or the system's). */
static void
print_versions(void)
{
	printf("kgtop %s\n", PACKAGE_VERSION);
	printf("librdkafka %s (%s)\n", sources_rdkafka_version(), KG_RDKAFKA_LINKAGE);
	printf("libcurl %s\n", sources_curl_version());
	printf("%s\n", ui_curses_version());
	printf("cJSON %s\n", sources_cjson_version());
}

/* Options (--demo=list, the scenario, the theme), the log, the libraries' global state, signals. */
static int
app_setup(app *a, int argc, char **argv)
{
	kg_options *o = &a->o;
	int rc;
	options_defaults(o);
	rc = options_parse(o, argc, argv, a->err, sizeof a->err);
	hide_url_passwords(argc, argv);
	if (rc != 0) {
		if (rc < 0) {
			log_say("%s", a->err);
			log_say_lines("Try 'kgtop --help'.\n");
		} else if (o->show_version) {
			print_versions();
		}
		if (rc < 0 && o->mode == KG_MODE_CHECK) {
			/* the monitoring-plugin convention: a usage error is UNKNOWN, said on the one line */
			sbuf line = { 0 };
			sbuf_addf(&line, "KGTOP UNKNOWN - usage: %s", a->err);
			check_guard(&line); /* the line's one guard: it may quote what was typed */
			printf("%s\n", sbuf_str(&line));
			sbuf_free(&line);
			return 3;
		}
		return rc < 0 ? 2 : 0;
	}
	/* a theme that is not there is a mistake whatever the mode (--once included) */
	if (o->theme != NULL && ui_theme_check(o->theme, a->err, sizeof a->err) < 0)
		return fail(2, NULL, a->err);
	if (o->demo && o->demo_scenario != NULL && strcmp(o->demo_scenario, "list") == 0) {
		demo_list_scenarios();
		return 0;
	}
	if (o->demo && !demo_scenario_known(o->demo_scenario, o->brokers != NULL)) {
		log_say("demo scenario '%s': %s", o->demo_scenario,
			demo_scenario_why_not(o->demo_scenario, o->brokers != NULL));
		return 2;
	}
	/* --serve without a terminal (a service): serve until a signal */
	if (o->serve != NULL && o->mode == KG_MODE_UI && !isatty(STDOUT_FILENO))
		o->mode = KG_MODE_SERVE;
	if (log_open(o->log_file, o->verbose, a->err, sizeof a->err) < 0)
		return fail(2, NULL, a->err);
	a->log_opened = true;
	log_set_stderr(o->mode != KG_MODE_UI);
	if (sources_global_init(a->err, sizeof a->err) < 0)
		return fail(1, NULL, a->err);
	a->global_init = true;
	if (install_signals(a->err, sizeof a->err) < 0)
		return fail(1, NULL, a->err);
	return GO_ON;
}

/* --replay: the recording as the only source. */
static int
open_replay(app *a)
{
	kg_replay_config rpc;
	int rc;
	if (a->o.replay == NULL)
		return GO_ON;
	memset(&rpc, 0, sizeof rpc);
	rpc.path = a->o.replay;
	rpc.speed = a->o.speed;
	rpc.as_fast = a->o.mode != KG_MODE_UI;
	rpc.at = a->o.at;
	if (a->o.traces.n > 0)
		rc = util_usage_err(a->err, sizeof a->err,
				    "--replay cannot be combined with --trace (the recording has what traces said)");
	else
		rc = replay_source_new(&rpc, &a->replay, a->err, sizeof a->err);
	if (rc < 0)
		return fail(exit_status(rc), NULL, a->err); /* a bad --at or combination is a usage error */
	return GO_ON;
}

/* run_report's question: did the --attach source give up on a damaged stream? */
static bool
attach_gave_up_run(void *arg, char *why, size_t n)
{
	return attach_gave_up(arg, why, n);
}

/* attach_source_new's word while it waits: what for, and how to stop waiting. */
static void
say_waiting(void *arg, const char *url, int64_t left_us)
{
	const bool *keys = arg;
	log_say("waiting for the stream of %s (%.1f s more at most; %s)", url, (double)left_us / 1e6,
		*keys ? "q or Ctrl-C quits" : "Ctrl-C quits");
}

/*
 * --attach: another kgtop's stream as the only source (its header read
 * now: the tracker needs its settings).  The wait says so when it lasts,
 * and a stop signal or, on the dashboard's terminal, 'q' or Ctrl-C ends it
 * at once: the terminal is in non-canonical mode without echo meanwhile
 * (Ctrl-C still signals), and back as it was after.
 */
static int
open_attach(app *a)
{
	kg_attach_config ac;
	struct termios saved, raw;
	bool keys;
	int rc;
	if (a->o.attach == NULL)
		return GO_ON;
	keys = a->o.mode == KG_MODE_UI && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
	memset(&ac, 0, sizeof ac);
	ac.url = a->o.attach;
	ac.insecure = a->o.trace_insecure;
	ac.timeout_us = a->o.timeout_us;
	ac.give_up = a->o.mode != KG_MODE_UI && a->o.mode != KG_MODE_SERVE; /* a script learns of a damaged stream */
	ac.stop = &stop_signal;
	ac.wake_fd = signal_pipe[0];
	ac.key_fd = -1;
	ac.waiting = say_waiting;
	ac.waiting_arg = &keys;
	if (keys) {
		raw = saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0)
			ac.key_fd = STDIN_FILENO;
	}
	rc = attach_source_new(&ac, &a->attach, a->err, sizeof a->err);
	if (ac.key_fd >= 0)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	if (rc == KG_ERR_STOPPED && stop_signal != 0 && a->o.mode == KG_MODE_UI)
		return 128 + stop_signal; /* as the dashboard ends on a signal */
	if (rc == KG_ERR_STOPPED && stop_signal == 0)
		return 0; /* q: what quitting the dashboard is */
	if (rc < 0)
		return fail(exit_status(rc), NULL, a->err);
	return GO_ON;
}

/* The tracker: the options' settings, a recording's (or the serving kgtop's) where the user gave none. */
static void
open_tracker(app *a)
{
	kg_tracker_config rec;
	bool recorded = (a->replay != NULL && replay_model(a->replay, &rec)) ||
			(a->attach != NULL && attach_model(a->attach, &rec));
	options_model(&a->o, recorded ? &rec : NULL, &a->tc);
	a->info.lag_window_us = a->tc.lag_window_us;
	a->tracker = tracker_new(&a->tc);
}

/* The demo (its mock cluster, or its consumers on -b); else the cluster is -b's. */
static int
open_demo(app *a)
{
	const kg_options *o = &a->o;
	kg_demo_config dc;
	const demo_scenario *ds;
	if (!o->demo) {
		a->bootstrap = o->brokers;
		return GO_ON;
	}
	memset(&dc, 0, sizeof dc);
	dc.scenario = o->demo_scenario;
	dc.brokers = o->brokers;
	dc.props = o->rdkafka;
	dc.nprops = o->nrdkafka;
	dc.partitions = o->demo_partitions;
	dc.export_trace = o->export_trace;
	dc.leftovers = a->leftovers;
	dc.leftovers_size = sizeof a->leftovers;
	/* a real cluster answers within --timeout, and always before --duration ends */
	dc.timeout_us = o->duration_us > 0 && o->duration_us < o->timeout_us ? o->duration_us : o->timeout_us;
	if (o->brokers == NULL && o->duration_us <= 0) /* the mock in this process: no network, only a loaded machine */
		dc.timeout_us = KG_MAX(dc.timeout_us, KG_DEMO_ONCE_TIMEOUT_US);
	if (demo_source_new(&dc, &a->demo, &a->bootstrap, a->err, sizeof a->err) < 0)
		return fail(1, "demo", a->err);
	a->info.demo = true;
	a->info.demo_static = o->brokers != NULL;
	ds = demo_scenario_find(o->demo_scenario ? o->demo_scenario : "default");
	a->info.demo_no_script = ds != NULL && ds->nsteps == 0;
	return GO_ON;
}

/*
 * Hand s to the collector, which closes it at stop (*added says so; NULL:
 * s is freed here if the collector has no room for it); GO_ON, or the
 * exit status with the collector's words said.
 */
static int
add_source(app *a, kg_source *s, bool *added)
{
	if (collector_add_source(a->c, s, a->err, sizeof a->err) < 0) {
		if (added == NULL)
			source_free(s);
		return fail(1, NULL, a->err);
	}
	if (added != NULL)
		*added = true;
	return GO_ON;
}

/* Hang a tap on the collector; GO_ON, or the exit status with the collector's words said. */
static int
add_tap(app *a, const kg_tap *tap)
{
	if (collector_add_tap(a->c, tap, a->err, sizeof a->err) < 0)
		return fail(1, NULL, a->err);
	return GO_ON;
}

/* The collector, named after the cluster, with the group filter and the replay. */
static int
open_collector(app *a)
{
	const kg_options *o = &a->o;
	kg_collector_config cc;
	int rc;
	memset(&cc, 0, sizeof cc);
	cc.interval_us = o->interval_us;
	cc.cluster = o->demo && o->brokers == NULL ? "demo (mock cluster)"
		     : a->bootstrap != NULL	   ? a->bootstrap
		     : o->replay != NULL	   ? NULL
						   : "trace streams only";
	if (o->cluster != NULL && a->bootstrap != NULL) {
		/* a named cluster: its name first, so a narrow header keeps it ("prod") */
		snprintf(a->cluster_label, sizeof a->cluster_label, "%s (%s)", o->cluster, a->bootstrap);
		cc.cluster = a->cluster_label;
	}
	if (a->replay != NULL) {
		cc.cluster = replay_cluster(a->replay);
		a->info.replay = true;
	}
	if (a->attach != NULL)
		cc.cluster = attach_cluster(a->attach);
	a->info.cluster = cc.cluster;
	if (collector_new(&cc, a->tracker, &a->c, a->err, sizeof a->err) < 0)
		return fail(1, NULL, a->err);
	collector_set_stop_flag(a->c, &stop_signal);
	if (filter_new((const char *const *)o->include.v, o->include.n, (const char *const *)o->exclude.v,
		       o->exclude.n, &a->groups, a->err, sizeof a->err) < 0)
		return fail(2, NULL, a->err);
	collector_set_filter(a->c, a->groups);
	if (filter_new((const char *const *)o->topics.v, o->topics.n, NULL, 0, &a->topics, a->err, sizeof a->err) < 0)
		return fail(2, NULL, a->err);
	collector_set_topic_filter(a->c, a->topics); /* a group with none of -t's topics is not listed */
	rc = a->replay != NULL ? add_source(a, a->replay, &a->replay_added) : GO_ON;
	if (rc == GO_ON && a->attach != NULL)
		rc = add_source(a, a->attach, &a->attach_added);
	return rc;
}

/* --record: the recorder taps the collector and reports as a source. */
static int
add_recorder(app *a)
{
	kg_tap tap;
	int rc;
	if (a->o.record == NULL)
		return GO_ON;
	if (recorder_open(a->o.record, a->o.record_max, &a->recorder, a->err, sizeof a->err) < 0)
		return fail(1, NULL, a->err);
	recorder_settings(a->recorder, &a->tc);
	recorder_tap(a->recorder, &tap);
	rc = add_tap(a, &tap);
	return rc != GO_ON ? rc : add_source(a, recorder_source(a->recorder), NULL);
}

/* --serve: the server taps the collector (and reports as a source); listening now, so a busy port fails at once. */
static int
add_server(app *a)
{
	const kg_options *o = &a->o;
	kg_serve_config sc;
	kg_tap tap;
	int rc;
	if (o->serve == NULL)
		return GO_ON;
	memset(&sc, 0, sizeof sc);
	sc.listen = o->serve;
	sc.auth_file = o->serve_auth;
	sc.cert_file = o->serve_cert;
	sc.key_file = o->serve_key;
	sc.max_clients = o->serve_clients;
	sc.buffer_bytes = o->serve_buffer;
	sc.partitions = o->metrics_partitions;
	sc.model = &a->tc;
	rc = serve_open(&sc, &a->server, a->err, sizeof a->err);
	if (rc < 0)
		return fail(exit_status(rc), NULL, a->err);
	serve_tap(a->server, &tap);
	rc = add_tap(a, &tap);
	if (rc != GO_ON || (rc = add_source(a, serve_source(a->server), NULL)) != GO_ON)
		return rc;
	if (o->mode != KG_MODE_UI)
		log_say("serving %s (/metrics, /stream, /healthz, /ready)", serve_url(a->server));
	return GO_ON;
}

/* The kafka source on the cluster (-X properties are for -b, not for the demo's mock), then the demo. */
static int
add_kafka_and_demo(app *a)
{
	const kg_options *o = &a->o;
	if (a->bootstrap != NULL) {
		kg_kafka_config kc;
		bool mock = o->demo && o->brokers == NULL;
		memset(&kc, 0, sizeof kc);
		kc.brokers = a->bootstrap;
		kc.props = mock ? NULL : o->rdkafka;
		kc.nprops = mock ? 0 : o->nrdkafka;
		kc.include = &o->include;
		kc.exclude = &o->exclude;
		kc.topics = &o->topics;
		kc.interval_us = o->interval_us;
		kc.timeout_us = o->timeout_us;
		kc.full_refresh_us = o->full_refresh_us;
		kc.max_requests = o->max_requests;
		kc.lag_window_us = a->tc.lag_window_us;
		/* --once refreshes everything once; --json and the dashboard keep to the budget */
		kc.once = o->mode == KG_MODE_ONCE || o->once || (o->mode == KG_MODE_CHECK && o->duration_us == 0);
		kc.stamps_all = o->mode == KG_MODE_CHECK; /* no screen selects a group: --check judges them all */
		if (kafka_source_new(&kc, &a->kafka, a->err, sizeof a->err) < 0)
			return fail(2, NULL, a->err);
		int rc = add_source(a, a->kafka, NULL);
		if (rc != GO_ON)
			return rc;
	}
	if (a->demo != NULL) {
		demo_source_set_kafka(a->demo, a->kafka);
		return add_source(a, a->demo, &a->demo_added);
	}
	return GO_ON;
}

/* --trace offsets: the cluster's own __consumer_offsets, on the cluster's connection. */
static int
add_offsets(app *a)
{
	const kg_options *o = &a->o;
	kg_offsets_config oc;
	kg_source *s;
	if (!options_offsets(o) || a->bootstrap == NULL)
		return GO_ON;
	if (o->demo && o->brokers == NULL)
		return fail(2, NULL, "--trace offsets reads a cluster's __consumer_offsets: the demo's mock cluster has none "
				     "(give --demo -b BROKERS)");
	memset(&oc, 0, sizeof oc);
	oc.brokers = a->bootstrap;
	oc.props = o->rdkafka;
	oc.nprops = o->nrdkafka;
	oc.history_us = o->history_us;
	oc.timeout_us = o->timeout_us;
	if (offsets_source_new(&oc, &s, a->err, sizeof a->err) < 0)
		return fail(2, NULL, a->err);
	return add_source(a, s, NULL);
}

/* --trace: one source per stream (offsets is the cluster's own: add_offsets()). */
static int
add_traces(app *a)
{
	const kg_options *o = &a->o;
	kg_trace_config trc;
	kg_source **ts;
	const char **specs;
	size_t nts = 0, i, n = 0;
	int rc = GO_ON;
	specs = xcalloc(o->traces.n + 1, sizeof *specs);
	for (i = 0; i < o->traces.n; i++) {
		if (strcmp(o->traces.v[i], "offsets") != 0)
			specs[n++] = o->traces.v[i];
	}
	if (n == 0) {
		free(specs);
		return add_offsets(a);
	}
	ts = xcalloc(n, sizeof *ts);
	memset(&trc, 0, sizeof trc);
	trc.specs = specs;
	trc.nspecs = n;
	trc.from_start = o->trace_from_start;
	trc.insecure = o->trace_insecure;
	trc.headers_file = o->trace_headers;
	trc.interval_us = o->interval_us;
	trc.history_us = o->history_us;
	if (trace_sources_new(&trc, ts, &nts, a->err, sizeof a->err) < 0) {
		free(ts);
		free(specs);
		/* the message names the option itself: "--trace log: ...", "--trace-headers FILE: ..." */
		return fail(2, NULL, a->err);
	}
	for (i = 0; i < nts && rc == GO_ON; i++)
		rc = add_source(a, ts[i], NULL);
	while (i < nts)
		source_free(ts[i++]); /* after the one the collector had no room for */
	free(ts);
	free(specs);
	return rc == GO_ON ? add_offsets(a) : rc;
}

/* The dashboard until q or a signal; a replay's damage is said again once the screen is gone. */
static int
run_dashboard(app *a)
{
	int rc = 0;
	if (collector_start(a->c, a->err, sizeof a->err) < 0 ||
	    (rc = ui_run(a->c, &a->o, &a->info, a->err, sizeof a->err)) < 0) {
		collector_stop(a->c);
		return fail(1, NULL, a->err);
	}
	if (rc > 0)
		return 128 + rc; /* stopped by SIGTERM or SIGHUP, the terminal restored */
	if (a->replay != NULL && replay_damage(a->replay) != NULL) {
		/* the screen said it; after the screen is gone, say it again and fail */
		log_say("replay: %s: stopped at %s", a->o.replay, replay_damage(a->replay));
		return 1;
	}
	return 0;
}

/* Free everything (sources not handed to the collector too); the exit status. */
static int
app_finish(app *a, int rc)
{
	if (!a->demo_added)
		source_free(a->demo);
	if (!a->replay_added)
		source_free(a->replay);
	if (!a->attach_added)
		source_free(a->attach);
	collector_free(a->c);
	serve_close(a->server); /* after the collector: its tap runs no more */
	if (a->leftovers[0] != '\0')
		log_say_lines("%s", a->leftovers); /* the demo's cleanup of a real cluster, once the terminal is back */
	if (a->recorder != NULL && recorder_error(a->recorder) != NULL) {
		log_say("record: %s", recorder_error(a->recorder));
		rc = rc ? rc : 1;
	}
	recorder_close(a->recorder);
	filter_free(a->groups);
	filter_free(a->topics);
	tracker_free(a->tracker);
	if (a->global_init)
		sources_global_cleanup();
	if (a->log_opened)
		log_close();
	options_free(&a->o);
	return rc;
}

/* Entry point: set up, wire the sources to the collector, run the dashboard or a runner. */
int
main(int argc, char **argv)
{
	static app a;
	kg_run_stop stop = { &stop_signal, -1, &keyframe_signal, NULL, NULL };
	int rc;

#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	/*
	 * One malloc arena for the process, before any thread starts: glibc
	 * gives each thread that allocates its own arena (up to 8 a core), and
	 * what librdkafka's broker threads or the kafka source's worker freed
	 * after parsing a refresh's answers stayed resident there, unusable by
	 * the collector building the snapshot.  --once at 10,000 groups x 20
	 * partitions peaked at 162-176 MB with them, 149-150 MB with one, at
	 * the same CPU (issue 24; bench_scale mem10k).  The threads allocate
	 * little between their waits: no contention seen.
	 */
	mallopt(M_ARENA_MAX, 1);
#endif
	setlocale(LC_ALL, "");
	/* the terminal's character set, but numbers in JSON, recordings and options always with a '.' */
	setlocale(LC_NUMERIC, "C");
	rc = app_setup(&a, argc, argv);
	if (rc == GO_ON)
		rc = open_replay(&a);
	if (rc == GO_ON)
		rc = open_attach(&a);
	if (rc == GO_ON) {
		open_tracker(&a);
		rc = open_demo(&a);
	}
	if (rc == GO_ON)
		rc = open_collector(&a);
	if (rc == GO_ON)
		rc = add_recorder(&a);
	if (rc == GO_ON)
		rc = add_server(&a);
	if (rc == GO_ON)
		rc = add_kafka_and_demo(&a);
	if (rc == GO_ON)
		rc = add_traces(&a);
	if (rc == GO_ON && a.o.mode == KG_MODE_UI) {
		rc = run_dashboard(&a);
	} else if (rc == GO_ON) {
		stop.fd = signal_pipe[0];
		if (a.attach != NULL) {
			stop.gave_up = attach_gave_up_run;
			stop.gave_up_arg = a.attach;
		}
		rc = run_report(a.c, &a.o, a.replay != NULL, &stop);
		if (a.replay != NULL && replay_damage(a.replay) != NULL)
			rc = 1; /* the output covers the recording up to the damage, stderr said where */
	}
	return app_finish(&a, rc);
}

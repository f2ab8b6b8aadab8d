/*
 * main.c: wires options, sources, the collector, and the renderer or a
 * reporter.  Nothing else calls exit(); every other layer returns errors.
 *
 * Exit status: 0 ok, 1 cluster or runtime error (with a message), 2 usage.
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/collector.h"
#include "util/log.h"
#include "core/options.h"
#include "model/tracker.h"
#include "report/record.h"
#include "report/report.h"
#include "sources/demo.h"
#include "sources/demo_script.h"
#include "sources/kafka.h"
#include "sources/replay.h"
#include "sources/sources.h"
#include "sources/trace.h"
#include "ui/ui.h"
#include "util/filter.h"
#include "util/util.h"

static volatile sig_atomic_t stop_signal;
static int signal_pipe[2] = { -1, -1 };

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

/* Install the stop signals for the reporters (the dashboard installs its own). */
static void
install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (pipe(signal_pipe) < 0)
		return;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* Write a buffer to stdout; false when stdout is gone. */
static bool
emit_line(sbuf *b)
{
	sbuf_addc(b, '\n');
	if (fwrite(b->s, 1, b->len, stdout) != b->len || fflush(stdout) != 0)
		return false;
	return true;
}

/* Whether the kafka source (if any) is in error in this snapshot. */
static const kg_source_health *
source_problem(const kg_snapshot *s)
{
	int i;
	for (i = 0; s != NULL && i < s->nsources; i++) {
		if (s->sources[i].status == KG_SRC_ERROR || s->sources[i].status == KG_SRC_CONNECTING)
			return &s->sources[i];
	}
	return NULL;
}

/* --once: wait for a complete refresh, print one report. */
static int
run_once(kg_collector *c, const kg_options *o)
{
	char err[512];
	kg_frame *f;
	sbuf b = { 0 };
	int rc = 0;
	const kg_source_health *bad;
	/* a replay as fast as possible always completes: no timeout */
	int64_t timeout = o->replay != NULL ? INT64_MAX / 4 : o->timeout_us;
	if ((rc = collector_run_until_complete(c, timeout, err, sizeof err)) < 0) {
		if (stop_signal) {
			fprintf(stderr, "kgtop: interrupted\n");
			return 1;
		}
		f = collector_take(c);
		bad = f ? source_problem(f->snap) : NULL;
		if (bad != NULL && bad->message != NULL && rc == -2)
			fprintf(stderr, "kgtop: %s: %s\n", bad->name, bad->message);
		else if (bad != NULL && bad->message != NULL)
			fprintf(stderr, "kgtop: %s: %s (no answer within %.1fs)\n", bad->name, bad->message,
				(double)o->timeout_us / 1e6);
		else
			fprintf(stderr, "kgtop: %s\n", err);
		frame_free(f);
		return 1;
	}
	f = collector_take(c);
	if (f == NULL || f->snap == NULL) {
		fprintf(stderr, "kgtop: no data\n");
		frame_free(f);
		return 1;
	}
	if (o->mode == KG_MODE_JSON)
		report_json(&b, f->snap, f->events.v, f->events.n, f->snap->time_us);
	else
		report_text(&b, f->snap);
	if (!emit_line(&b))
		rc = 1;
	{
		/* every source failed (trace streams that cannot be read): the report says why, the status too */
		int i, failed = 0;
		for (i = 0; i < f->snap->nsources; i++)
			failed += f->snap->sources[i].status == KG_SRC_ERROR;
		if (f->snap->nsources > 0 && failed == f->snap->nsources) {
			fprintf(stderr, "kgtop: no source could be read (%s: %s)\n", f->snap->sources[0].name,
				f->snap->sources[0].message ? f->snap->sources[0].message : "error");
			rc = 1;
		}
	}
	sbuf_free(&b);
	frame_free(f);
	return rc;
}

/* --json: a line per published snapshot until a signal or --duration. */
static int
run_json(kg_collector *c, const kg_options *o)
{
	int64_t end = o->duration_us > 0 ? util_mono_us() + o->duration_us : 0;
	int64_t t0 = 0;
	char err[256];
	if (collector_start(c, err, sizeof err) < 0) {
		fprintf(stderr, "kgtop: %s\n", err);
		return 1;
	}
	while (!stop_signal) {
		struct pollfd pfd[2] = { { collector_fd(c), POLLIN, 0 }, { signal_pipe[0], POLLIN, 0 } };
		int timeout = -1;
		kg_frame *f;
		if (end) {
			int64_t left = end - util_mono_us();
			if (left <= 0)
				break;
			timeout = (int)(left / 1000) + 1;
		}
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
			break;
		f = collector_take(c);
		if (f != NULL && f->snap != NULL) {
			sbuf b = { 0 };
			if (t0 == 0)
				t0 = f->snap->time_us;
			report_json(&b, f->snap, f->events.v, f->events.n, t0);
			if (!emit_line(&b)) {
				sbuf_free(&b);
				frame_free(f);
				break;
			}
			sbuf_free(&b);
		}
		frame_free(f);
	}
	return 0;
}

/* --replay with --json: a line per recorded tick, in this thread, until the recording ends. */
static int
run_replay_json(kg_collector *c)
{
	int64_t t0 = 0;
	bool done = false;
	while (!done && !stop_signal) {
		kg_frame *f;
		collector_step(c, 0);
		f = collector_take(c);
		if (f == NULL)
			continue;
		done = f->complete > 0;
		if (f->snap != NULL) {
			sbuf b = { 0 };
			bool ok;
			if (t0 == 0)
				t0 = f->snap->time_us;
			report_json(&b, f->snap, f->events.v, f->events.n, t0);
			ok = emit_line(&b);
			sbuf_free(&b);
			if (!ok)
				done = true;
		}
		frame_free(f);
	}
	return 0;
}

/* Entry point. */
int
main(int argc, char **argv)
{
	kg_options o;
	kg_tracker_config tc;
	kg_tracker *tracker = NULL;
	kg_collector *c = NULL;
	kg_collector_config cc;
	kg_source *kafka = NULL, *demo = NULL, *replay = NULL;
	kg_filter *groups = NULL;
	kg_recorder *recorder = NULL;
	kg_ui_info info;
	char err[1024];
	const char *bootstrap = NULL;
	int rc;

	setlocale(LC_ALL, "");
	options_defaults(&o);
	rc = options_parse(&o, argc, argv, err, sizeof err);
	if (rc != 0) {
		if (rc < 0)
			fprintf(stderr, "kgtop: %s\nTry 'kgtop --help'.\n", err);
		options_free(&o);
		return rc < 0 ? 2 : 0;
	}
	if (o.demo && o.demo_scenario != NULL && strcmp(o.demo_scenario, "list") == 0) {
		demo_list_scenarios();
		options_free(&o);
		return 0;
	}
	if (o.demo && !demo_scenario_known(o.demo_scenario, o.brokers != NULL)) {
		fprintf(stderr, "kgtop: demo scenario '%s': %s\n", o.demo_scenario,
			demo_scenario_why_not(o.demo_scenario, o.brokers != NULL));
		options_free(&o);
		return 2;
	}
	if (log_open(o.log_file, o.verbose, err, sizeof err) < 0) {
		fprintf(stderr, "kgtop: %s\n", err);
		options_free(&o);
		return 2;
	}
	log_set_stderr(o.mode != KG_MODE_UI);
	if (sources_global_init(err, sizeof err) < 0) {
		fprintf(stderr, "kgtop: %s\n", err);
		options_free(&o);
		return 1;
	}
	install_signals();

	if (o.replay != NULL) {
		kg_replay_config rpc;
		memset(&rpc, 0, sizeof rpc);
		rpc.path = o.replay;
		rpc.speed = o.speed;
		rpc.as_fast = o.mode != KG_MODE_UI;
		rpc.at = o.at;
		if (o.traces.n > 0)
			rc = util_err(err, sizeof err, "--replay cannot be combined with --trace (the recording has what "
						       "traces said)") * 2;
		else
			rc = replay_source_new(&rpc, &replay, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "kgtop: %s\n", err);
			sources_global_cleanup();
			log_close();
			options_free(&o);
			return rc == -2 ? 2 : 1; /* a bad --at or combination is a usage error */
		}
	}

	tracker_config_defaults(&tc);
	if (replay != NULL)
		replay_model(replay, &tc); /* the recording's model settings, unless given below */
	tc.window_us = o.history_us;
	if (o.demo && o.storm_window_us == 0 && o.storm_rebalances == 0) {
		/*
		 * The demo rebalances every few seconds on purpose: judge storms
		 * over a minute and mostly by the time spent rebalancing, so STORM
		 * means what it means on a real cluster (the storm scenario).
		 */
		tc.storm_window_us = 60LL * 1000000;
		tc.storm_episodes = 8;
	}
	if (o.storm_window_us > 0)
		tc.storm_window_us = o.storm_window_us;
	if (o.storm_rebalances > 0)
		tc.storm_episodes = o.storm_rebalances;
	if (o.session_timeout_us > 0) {
		tc.session_timeout_us = o.session_timeout_us;
		tc.session_src = KG_LIMIT_CONFIG;
	}
	if (o.max_poll_us > 0) {
		tc.max_poll_us = o.max_poll_us;
		tc.max_poll_src = KG_LIMIT_CONFIG;
	}
	tracker = tracker_new(&tc);

	memset(&info, 0, sizeof info);
	rc = 0;
	if (o.demo) {
		kg_demo_config dc;
		memset(&dc, 0, sizeof dc);
		dc.scenario = o.demo_scenario;
		dc.brokers = o.brokers;
		dc.props = o.rdkafka;
		dc.nprops = o.nrdkafka;
		dc.partitions = o.demo_partitions;
		dc.export_trace = o.export_trace;
		/* a real cluster answers within --timeout, and always before --duration ends */
		dc.timeout_us = o.duration_us > 0 && o.duration_us < o.timeout_us ? o.duration_us : o.timeout_us;
		if (demo_source_new(&dc, &demo, &bootstrap, err, sizeof err) < 0) {
			fprintf(stderr, "kgtop: demo: %s\n", err);
			rc = 1;
			goto out;
		}
		info.demo = true;
		info.demo_static = o.brokers != NULL;
		{
			const demo_scenario *ds = demo_scenario_find(o.demo_scenario ? o.demo_scenario : "default");
			info.demo_no_script = ds != NULL && ds->nsteps == 0;
		}
	} else {
		bootstrap = o.brokers;
	}

	memset(&cc, 0, sizeof cc);
	cc.interval_us = o.interval_us;
	cc.cluster = o.demo && o.brokers == NULL ? "demo (mock cluster)"
		     : bootstrap != NULL	  ? bootstrap
		     : o.replay != NULL		  ? NULL
						  : "trace streams only";
	if (replay != NULL) {
		cc.cluster = replay_cluster(replay);
		info.replay = true;
	}
	info.cluster = cc.cluster;
	c = collector_new(&cc, tracker);
	collector_set_stop_flag(c, &stop_signal);
	if (filter_new((const char *const *)o.include.v, o.include.n, (const char *const *)o.exclude.v, o.exclude.n,
		       &groups, err, sizeof err) < 0) {
		fprintf(stderr, "kgtop: %s\n", err);
		rc = 2;
		goto out;
	}
	collector_set_filter(c, groups);
	if (replay != NULL)
		collector_add_source(c, replay);
	if (o.record != NULL) {
		kg_tap tap;
		if (recorder_open(o.record, o.record_max, &recorder, err, sizeof err) < 0) {
			fprintf(stderr, "kgtop: %s\n", err);
			source_free(demo);
			rc = 1;
			goto out;
		}
		recorder_settings(recorder, &tc);
		recorder_tap(recorder, &tap);
		collector_set_tap(c, &tap);
		collector_add_source(c, recorder_source(recorder));
	}

	if (bootstrap != NULL) {
		kg_kafka_config kc;
		memset(&kc, 0, sizeof kc);
		kc.brokers = bootstrap;
		kc.props = o.demo && o.brokers == NULL ? NULL : o.rdkafka;
		kc.nprops = o.demo && o.brokers == NULL ? 0 : o.nrdkafka;
		kc.include = &o.include;
		kc.exclude = &o.exclude;
		kc.topics = &o.topics;
		kc.interval_us = o.interval_us;
		kc.timeout_us = o.timeout_us;
		if (kafka_source_new(&kc, &kafka, err, sizeof err) < 0) {
			fprintf(stderr, "kgtop: %s\n", err);
			source_free(demo);
			rc = 2;
			goto out;
		}
		collector_add_source(c, kafka);
	}
	if (demo != NULL) {
		demo_source_set_kafka(demo, kafka);
		collector_add_source(c, demo);
	}
	if (o.traces.n > 0) {
		kg_trace_config trc;
		kg_source **ts = xcalloc(o.traces.n, sizeof *ts);
		size_t nts = 0, i;
		memset(&trc, 0, sizeof trc);
		trc.specs = (const char *const *)o.traces.v;
		trc.nspecs = o.traces.n;
		trc.from_start = o.trace_from_start;
		trc.insecure = o.trace_insecure;
		trc.headers_file = o.trace_headers;
		trc.interval_us = o.interval_us;
		if (trace_sources_new(&trc, ts, &nts, err, sizeof err) < 0) {
			/* the message names the option itself: "--trace log: ...", "--trace-headers FILE: ..." */
			fprintf(stderr, "kgtop: %s\n", err);
			free(ts);
			rc = 2;
			goto out;
		}
		for (i = 0; i < nts; i++)
			collector_add_source(c, ts[i]);
		free(ts);
	}

	switch (o.mode) {
	case KG_MODE_ONCE:
		rc = run_once(c, &o);
		break;
	case KG_MODE_JSON:
		rc = o.once ? run_once(c, &o) : replay != NULL ? run_replay_json(c) : run_json(c, &o);
		break;
	default:
		if (collector_start(c, err, sizeof err) < 0 || (rc = ui_run(c, &o, &info, err, sizeof err)) < 0) {
			collector_stop(c);
			fprintf(stderr, "kgtop: %s\n", err);
			rc = 1;
		} else if (rc > 0) {
			rc = 128 + rc; /* stopped by SIGTERM or SIGHUP, the terminal restored */
		} else if (replay != NULL && replay_damage(replay) != NULL) {
			/* the screen said it; after the screen is gone, say it again and fail */
			fprintf(stderr, "kgtop: replay: %s: stopped at %s\n", o.replay, replay_damage(replay));
			rc = 1;
		}
		break;
	}
	if (replay != NULL && o.mode != KG_MODE_UI && replay_damage(replay) != NULL)
		rc = 1; /* the output covers the recording up to the damage, stderr said where */
out:
	collector_free(c);
	if (recorder != NULL && recorder_error(recorder) != NULL) {
		fprintf(stderr, "kgtop: record: %s\n", recorder_error(recorder));
		rc = rc ? rc : 1;
	}
	recorder_close(recorder);
	filter_free(groups);
	tracker_free(tracker);
	sources_global_cleanup();
	log_close();
	options_free(&o);
	return rc;
}

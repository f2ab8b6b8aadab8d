/*
 * ui_driver.c: the real dashboard (ui_run) over the real collector and
 * tracker, fed by a fake source that plays the seeds' scene
 * (tests/unit/test_ui_scene.c) in real time, for the tmux tests, the
 * idle-CPU benchmark and screenshots, without a broker.
 *
 * The source is the time master (its clock op): scripted time runs from
 * SCENE_T0 at --speed times real time, so the tracker sees the scene's
 * times and the events read as in the seeds.  Demo commands are answered
 * with a message ("driver: add-member demo-coop") the status line shows;
 * the script and assignor commands as the demo answers them ("script
 * paused", or "scenario manual has no script" with --no-script; after
 * "assignor X", adding a member is refused with the demo's long reason).
 *
 *   ui_driver [--speed X] [--interval S] [--ascii] [--no-color]
 *             [--theme NAME] [--start S] [--replay] [--duration S]
 *             [--no-script] [--no-mouse]
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/collector.h"
#include "core/options.h"
#include "model/tracker.h"
#include "model/source.h"
#include "test_ui_scene.h"
#include "ui/ui.h"
#include "util/util.h"

typedef struct driver {
	ui_scene sc;
	bool no_script;      /* answer the script commands as --demo=manual does */
	bool assignor_set;   /* an "assignor" command came: refuse to mix assignors */
	int64_t wall0;
	int64_t start_us;
	double speed;
	int64_t last_t;
} driver;

/* Scripted time now. */
static int64_t
driver_clock(kg_source *s)
{
	driver *d = s->impl;
	return SCENE_T0 + d->start_us + (int64_t)((double)(util_now_us() - d->wall0) * d->speed);
}

/* Advance the script; news when a scripted refresh passed. */
static int
driver_poll(kg_source *s, int64_t now)
{
	driver *d = s->impl;
	int ticks = scene_run_until(&d->sc, now);
	(void)ticks;
	if (now != d->last_t && ticks > 0) {
		d->last_t = now;
		return KG_SRC_NEWS | KG_SRC_COMPLETE;
	}
	return KG_SRC_COMPLETE;
}

/* Hand over observations. */
static void
driver_drain(kg_source *s, kg_obsq *q)
{
	(void)s;
	scene_drain(q);
}

/* Add the scripted cluster. */
static void
driver_contribute(kg_source *s, kg_builder *b)
{
	(void)s;
	scene_contribute(b);
}

/* Poll again soon. */
static int64_t
driver_next_poll(kg_source *s)
{
	(void)s;
	return util_now_us() + 50000;
}

/* Answer a command. */
static int
driver_command(kg_source *s, const char *cmd, char *err, size_t errsz)
{
	driver *d = s->impl;
	if (strcmp(cmd, "refresh") == 0)
		return 0;
	if (strcmp(cmd, "pause-script") == 0 || strcmp(cmd, "resume-script") == 0) {
		if (d->no_script)
			return util_err(err, errsz, "scenario manual has no script");
		snprintf(err, errsz, "script %s", cmd[0] == 'p' ? "paused" : "resumed");
		return 0;
	}
	if (strncmp(cmd, "assignor ", 9) == 0) {
		d->assignor_set = true;
		snprintf(err, errsz, "members added next use %s", cmd + 9);
		return 0;
	}
	if (strncmp(cmd, "add-member ", 11) == 0 && d->assignor_set)
		return util_err(err, errsz,
				"%s uses another assignor: librdkafka 2.0.2's mock cluster aborts when one group mixes "
				"assignors (empty the group first, or use a real cluster)",
				cmd + 11);
	snprintf(err, errsz, "driver: %s", cmd);
	return 0;
}

/* Close. */
static void
driver_close(kg_source *s)
{
	driver *d = s->impl;
	scene_free(&d->sc);
	free(d);
}

static const kg_source_ops driver_ops = {
	.kind = "demo",
	.role = KG_ROLE_DEMO,
	.poll = driver_poll,
	.drain = driver_drain,
	.contribute = driver_contribute,
	.next_poll = driver_next_poll,
	.command = driver_command,
	.clock = driver_clock,
	.close = driver_close,
};

/* Entry point. */
int
main(int argc, char **argv)
{
	kg_options o;
	kg_ui_info info = { .demo = true, .cluster = "scene:seed000" };
	kg_tracker_config tc;
	kg_collector_config cc;
	kg_tracker *tr;
	kg_collector *c;
	driver *d = xcalloc(1, sizeof *d);
	char err[512];
	int i, rc;

	setlocale(LC_ALL, "");
	memset(&o, 0, sizeof o);
	o.interval_us = 1000000;
	o.no_color = getenv("NO_COLOR") != NULL && *getenv("NO_COLOR");
	d->speed = 1.0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--speed") == 0 && i + 1 < argc)
			d->speed = atof(argv[++i]);
		else if (strcmp(argv[i], "--interval") == 0 && i + 1 < argc)
			o.interval_us = (int64_t)(atof(argv[++i]) * 1e6);
		else if (strcmp(argv[i], "--start") == 0 && i + 1 < argc)
			d->start_us = (int64_t)(atof(argv[++i]) * 1e6);
		else if (strcmp(argv[i], "--ascii") == 0)
			o.ascii = true;
		else if (strcmp(argv[i], "--no-color") == 0)
			o.no_color = true;
		else if (strcmp(argv[i], "--replay") == 0)
			info.replay = true;
		else if (strcmp(argv[i], "--theme") == 0 && i + 1 < argc)
			o.theme = argv[++i];
		else if (strcmp(argv[i], "--duration") == 0 && i + 1 < argc)
			o.duration_us = (int64_t)(atof(argv[++i]) * 1e6);
		else if (strcmp(argv[i], "--no-script") == 0)
			d->no_script = info.demo_no_script = true;
		else if (strcmp(argv[i], "--no-mouse") == 0)
			o.no_mouse = true;
		else {
			fprintf(stderr, "usage: %s [--speed X] [--interval S] [--start S] [--ascii] [--no-color] [--theme NAME] "
					"[--replay] [--duration S] [--no-script] [--no-mouse]\n",
				argv[0]);
			free(d);
			return 2;
		}
	}
	tc = options_model_defaults();
	tc.storm_episodes = 3;
	tr = tracker_new(&tc);
	memset(&cc, 0, sizeof cc);
	cc.interval_us = o.interval_us;
	cc.cluster = info.cluster;
	if (collector_new(&cc, tr, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	/* the scene without a tracker of its own: the collector's tracker derives */
	scene_init(&d->sc);
	tracker_free(d->sc.tracker);
	d->sc.tracker = NULL;
	d->wall0 = util_now_us();
	collector_add_source(c, source_new(&driver_ops, "demo", d), NULL, 0);
	if (collector_start(c, err, sizeof err) < 0) {
		fprintf(stderr, "ui_driver: %s\n", err);
		return 1;
	}
	rc = ui_run(c, &o, &info, err, sizeof err);
	collector_stop(c);
	collector_free(c);
	tracker_free(tr);
	if (rc < 0) {
		fprintf(stderr, "ui_driver: %s\n", err);
		return 1;
	}
	return rc > 0 ? 128 + rc : 0; /* as kgtop: 143 after SIGTERM, 129 after SIGHUP */
}

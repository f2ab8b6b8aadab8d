/*
 * fuzz_replay.c: libFuzzer target for the recording reader.
 *
 * The input is a recording: it is opened with replay_source_new() as
 * --replay FILE --json would open it, and replayed as fast as possible
 * through the real collector and tracker, each frame written as --json
 * writes it, for at most 500 steps.  A damaged recording must replay up to
 * its damage and say where; a crash, a hang or a sanitizer report is a
 * finding.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/collector.h"
#include "model/tracker.h"
#include "record/replay.h"
#include "report/report.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[128];

/* Where the recording is written. */
static void
init(void)
{
	static char dir[64];
	snprintf(dir, sizeof dir, "/tmp/kgtop-fuzz-rec-XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof path, "%s/input.kgrec", dir);
}

/* Replay it through the collector and the tracker, each frame as JSON. */
static void
replay(kg_source *src)
{
	kg_tracker_config tc;
	kg_tracker *t;
	kg_collector *c;
	kg_collector_config cc;
	int step;
	bool done = false;
	{
		/* as main does: the recording's settings where the options are at their defaults */
		kg_options o;
		kg_tracker_config rec;
		options_defaults(&o);
		options_model(&o, replay_model(src, &rec) ? &rec : NULL, &tc);
		options_free(&o);
	}
	t = tracker_new(&tc);
	memset(&cc, 0, sizeof cc);
	cc.interval_us = 1000000;
	cc.cluster = replay_cluster(src);
	if (collector_new(&cc, t, &c, NULL, 0) < 0)
		abort(); /* no pipe */
	collector_add_source(c, src, NULL, 0);
	for (step = 0; step < 500 && !done; step++) {
		kg_frame *f;
		collector_step(c, 0);
		f = collector_take(c);
		if (f == NULL)
			continue;
		done = f->complete > 0;
		if (f->snap != NULL) {
			sbuf b = { 0 };
			report_json(&b, f->snap, f->events.v, f->events.n, f->snap->time_us);
			sbuf_free(&b);
		}
		frame_free(f);
	}
	collector_free(c);
	tracker_free(t);
}

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kg_replay_config rc;
	kg_source *src = NULL;
	char err[512];
	FILE *f;
	if (path[0] == '\0')
		init();
	f = fopen(path, "w");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	memset(&rc, 0, sizeof rc);
	rc.path = path;
	rc.speed = 1;
	rc.as_fast = true;
	if (replay_source_new(&rc, &src, err, sizeof err) == 0)
		replay(src);
	return 0;
}

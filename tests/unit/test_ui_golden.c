/*
 * test_ui_golden.c: golden screens.
 *
 * Each case renders the seeds' scene (test_ui_scene.c, the real model)
 * through the real drawing code into a curses screen made with newterm()
 * on /dev/null at a fixed size (TERM=xterm-256color, TZ=UTC, C.UTF-8, a
 * fixed clock), dumps it as text plus an attribute map (dump_screen) and
 * compares it with tests/golden/NAME.golden.  On a mismatch the test
 * writes NAME.actual beside the golden (or in the build tree when the
 * source tree is read-only) and fails; a missing golden fails the same
 * way.  To bless after an intended change: review the .actual files
 * (diff them against the goldens), then run
 *     KGTOP_BLESS=1 make check TESTS=tests/unit/test_ui_golden
 * which rewrites every golden from the current rendering.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <locale.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/options.h"
#include "model/defaults.h"
#include "model/intern.h"
#include "test_ui_scene.h"
#include "ui/screen.h"
#include "util/util.h"

#define SEC 1000000LL

typedef struct gcase {
	const char *name;
	int rows, cols;
	const char *group;     /* selected group */
	ui_view_id view;
	bool ascii;
	bool mono;             /* no colour (NO_COLOR / --no-color) */
	bool by_partition;
	bool help;
	bool paused;
	int64_t offset_us;
	bool no_snapshot;      /* before the first frame: "connecting to" */
	bool big;              /* a 1,000-partition group instead of the seeds */
	int64_t until_ms;      /* run the scene up to this time (default 20 s) */
	const char *sort;       /* a sort order by name (default: the list's first) */
	const char *filter;
	bool maximized;
	bool replay;            /* a recording drives the model */
	bool empty;             /* a cluster with no consumer group */
	bool kafka_stale;       /* the kafka source stale for 71 s, with its reason */
	int zoom;               /* timeline scale index + 1 (0: the default) */
	const char *status;     /* a message in the status line */
	bool wall_clock;        /* w: clock times */
	bool compare;           /* v: the selected group's timeline above the next one's */
	bool attached;          /* a viewer of another kgtop (--attach) */
	const char *term;       /* the terminal type (default xterm-256color): its colours pick the palette */
	const char *demo_msg;   /* the demo's message (its script step), as the real demo says it */
	bool no_trace;          /* no log trace source: the sources of a plain demo */
	const char *cluster;    /* the header's cluster label (default localhost:9092) */
	const char *search;     /* a search typed (/) and kept */
	bool grid_lag;          /* #: lag numbers in the grid's cells */
	bool sort_menu;         /* F6: the sort menu open, its cursor one down */
	bool kafka_ok;          /* a kafka source (the cluster's) that is well */
	bool attach_down;       /* a viewer whose stream broke 17 s ago (its collector died) */
} gcase;

#define LONG_CLUSTER "broker-1.payments.prod.example.com:9092,broker-2.payments.prod.example.com:9092"

#define DEMO_MSG "default: 2/7 a fourth member joins (holding); 6 consumers, 30 msg/s, mock cluster (3 brokers)"

static const gcase cases[] = {
	{ .name = "grid-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_GRID },
	{ .name = "timeline-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_TIMELINE },
	{ .name = "timeline-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE },
	{ .name = "health-ledger-80x24", .rows = 24, .cols = 80, .group = "payments-ledger", .view = UI_VIEW_HEALTH },
	{ .name = "health-none-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_HEALTH },
	{ .name = "events-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_EVENTS },
	{ .name = "events-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_EVENTS },
	{ .name = "grid-coop-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_GRID },
	{ .name = "grid-ledger-160x48", .rows = 48, .cols = 160, .group = "payments-ledger", .view = UI_VIEW_GRID },
	{ .name = "timeline-range-160x48", .rows = 48, .cols = 160, .group = "demo-range", .view = UI_VIEW_TIMELINE },
	{ .name = "timeline-coop-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_TIMELINE },
	{ .name = "compare-coop-range-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true, .sort = "name" },
	{ .name = "compare-coop-range-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true, .sort = "name" },
	{ .name = "timeline-coop-partitions-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .by_partition = true },
	{ .name = "health-ledger-160x48", .rows = 48, .cols = 160, .group = "payments-ledger", .view = UI_VIEW_HEALTH },
	{ .name = "events-coop-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_EVENTS },
	{ .name = "ascii-timeline-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_TIMELINE, .ascii = true },
	{ .name = "ascii-grid-coop-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_GRID, .ascii = true },
	{ .name = "mono-grid-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_GRID, .mono = true },
	{ .name = "mono-timeline-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .mono = true },
	{ .name = "mono-ascii-events-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_EVENTS, .mono = true, .ascii = true },
	{ .name = "paused-scrub-grid-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_GRID, .paused = true, .offset_us = 16 * SEC },
	{ .name = "help-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_GRID, .help = true },
	{ .name = "connecting-80x24", .rows = 24, .cols = 80, .group = NULL, .view = UI_VIEW_GRID, .no_snapshot = true },
	{ .name = "narrow-list-60x20", .rows = 20, .cols = 60, .group = "demo-range", .view = UI_VIEW_GRID },
	{ .name = "too-small-39x12", .rows = 12, .cols = 39, .group = "demo-range", .view = UI_VIEW_GRID },
	{ .name = "sort-lag-filter-80x24", .rows = 24, .cols = 80, .group = NULL, .view = UI_VIEW_GRID, .sort = "lag", .filter = "demo|ledger|audit" },
	{ .name = "sanitize-weird-80x24", .rows = 24, .cols = 80, .group = "weird", .view = UI_VIEW_EVENTS },
	{ .name = "big-1000-map-160x48", .rows = 48, .cols = 160, .group = "big", .view = UI_VIEW_GRID, .big = true, .by_partition = true },
	{ .name = "big-1000-matrix-80x24", .rows = 24, .cols = 80, .group = "big", .view = UI_VIEW_GRID, .big = true },
	{ .name = "maximized-timeline-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_TIMELINE, .maximized = true },
	{ .name = "mid-rebalance-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_GRID, .until_ms = 4000 },
	{ .name = "replay-paused-events-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_EVENTS, .replay = true, .paused = true, .offset_us = 7500000 },
	{ .name = "empty-cluster-80x24", .rows = 24, .cols = 80, .view = UI_VIEW_GRID, .empty = true },
	{ .name = "mid-round2-coop-grid-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_GRID, .until_ms = 12200 },
	/* 120x40, narrow layout: the list as tall as its groups, its name column as wide as the names; a stale cluster */
	{ .name = "stale-kafka-grid-coop-120x40", .rows = 40, .cols = 120, .group = "demo-coop", .view = UI_VIEW_GRID, .kafka_stale = true },
	/* scrubbed back to before worker-3 left: it is a member then, not gone */
	{ .name = "health-scrubbed-ledger-120x40", .rows = 40, .cols = 120, .group = "payments-ledger", .view = UI_VIEW_HEALTH, .paused = true, .offset_us = 10 * SEC },
	{ .name = "timeline-ledger-160x48", .rows = 48, .cols = 160, .group = "payments-ledger", .view = UI_VIEW_TIMELINE },
	/* zoomed out: the storm's episodes share columns, only the labels that fit are drawn */
	{ .name = "timeline-storm-zoomed-80x24", .rows = 24, .cols = 80, .group = "billing-events", .view = UI_VIEW_TIMELINE, .zoom = 6 },
	{ .name = "timeline-clock-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .wall_clock = true },
	/* PreparingRebalance at 80 columns: the protocol and the counts stay */
	{ .name = "prep-ledger-grid-80x24", .rows = 24, .cols = 80, .group = "payments-ledger", .view = UI_VIEW_GRID, .until_ms = 15000 },
	{ .name = "ascii-mid-rebalance-range-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_GRID, .ascii = true, .until_ms = 4000 },
	/* --attach: the header says whose stream this is and how far behind */
	{ .name = "attached-events-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_EVENTS, .attached = true },
	/* issue 12: every size from 40x12; one pane at a time below 80x24 (Enter: the view) */
	{ .name = "narrow-list-40x12", .rows = 12, .cols = 40, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)" },
	{ .name = "narrow-timeline-40x12", .rows = 12, .cols = 40, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .maximized = true, .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)" },
	{ .name = "narrow-events-60x20", .rows = 20, .cols = 60, .group = "demo-range", .view = UI_VIEW_EVENTS, .maximized = true },
	{ .name = "narrow-grid-60x20", .rows = 20, .cols = 60, .group = "demo-coop", .view = UI_VIEW_GRID, .maximized = true },
	/* 80x24, the demo: the header keeps the script step, the timeline a note per member, the footer the demo keys */
	{ .name = "demo-step-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)" },
	{ .name = "demo-step-120x40", .rows = 40, .cols = 120, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)" },
	{ .name = "demo-step-200x60", .rows = 60, .cols = 200, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)" },
	{ .name = "grid-ledger-200x60", .rows = 60, .cols = 200, .group = "payments-ledger", .view = UI_VIEW_GRID },
	/* the palettes of 8 and 16 colours: grey is no warning yellow, the axis is no black on black */
	{ .name = "xterm-8-timeline-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE,
	  .term = "xterm" },
	{ .name = "xterm-16-timeline-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE,
	  .term = "xterm-16color" },
	/* search in the events shown alone: the match marked */
	{ .name = "search-events-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_EVENTS,
	  .maximized = true, .search = "incremental" },
	/* issue 10: the lag view, worst first (STALLED since, LOST, an exact time lag, estimates), at 120x40 and 80x24,
	 * in ASCII without colour, on 8 colours, and alone at 60x20 */
	{ .name = "lag-ledger-120x40", .rows = 40, .cols = 120, .group = "payments-ledger", .view = UI_VIEW_LAG },
	{ .name = "lag-ledger-80x24", .rows = 24, .cols = 80, .group = "payments-ledger", .view = UI_VIEW_LAG },
	{ .name = "mono-ascii-lag-ledger-80x24", .rows = 24, .cols = 80, .group = "payments-ledger", .view = UI_VIEW_LAG,
	  .mono = true, .ascii = true },
	{ .name = "xterm-8-lag-ledger-80x24", .rows = 24, .cols = 80, .group = "payments-ledger", .view = UI_VIEW_LAG,
	  .term = "xterm" },
	{ .name = "xterm-16-lag-ledger-80x24", .rows = 24, .cols = 80, .group = "payments-ledger", .view = UI_VIEW_LAG,
	  .term = "xterm-16color" },
	{ .name = "narrow-lag-ledger-60x20", .rows = 20, .cols = 60, .group = "payments-ledger", .view = UI_VIEW_LAG,
	  .maximized = true },
	{ .name = "lag-big-160x48", .rows = 48, .cols = 160, .group = "big", .view = UI_VIEW_LAG, .big = true },
	/* the grid's verdict marks and lag numbers (#), the health's STALLED member, the timeline's verdict marks */
	{ .name = "grid-lag-ledger-120x40", .rows = 40, .cols = 120, .group = "payments-ledger", .view = UI_VIEW_GRID,
	  .grid_lag = true },
	{ .name = "health-stalled-ledger-120x40", .rows = 40, .cols = 120, .group = "payments-ledger", .view = UI_VIEW_HEALTH },
	{ .name = "status-wrap-120x40", .rows = 40, .cols = 120, .group = "demo-range", .view = UI_VIEW_TIMELINE,
	  .status = "refused: demo-range uses another assignor, and the mock cluster aborts when a group mixes them (empty the group first, or run the demo on a real cluster with -b)" },
	/* issue 26: worst first by default; F6 opens the sort menu, as htop's */
	{ .name = "sort-menu-80x24", .rows = 24, .cols = 80, .group = "demo-range", .view = UI_VIEW_GRID, .sort_menu = true },
	{ .name = "sort-menu-40x12", .rows = 12, .cols = 40, .group = "demo-range", .view = UI_VIEW_GRID, .sort_menu = true },
	/* issue 26: the cluster's name or address and its health first in the header, at every width */
	{ .name = "header-demo-40x12", .rows = 12, .cols = 40, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)", .kafka_ok = true },
	{ .name = "header-address-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_GRID,
	  .cluster = LONG_CLUSTER, .kafka_ok = true },
	{ .name = "header-address-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_GRID,
	  .cluster = LONG_CLUSTER, .kafka_ok = true },
	/* issue 26: a viewer whose collector died says how old its data is, as a stale cluster does */
	{ .name = "attached-down-grid-coop-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_GRID,
	  .attached = true, .attach_down = true, .kafka_ok = true, .no_trace = true },
	/* issue 26: at 80x24 the demo's two groups (the filter leaves the scene's two) compare in the short form */
	{ .name = "compare-demo-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)", .kafka_ok = true, .filter = "^demo-" },
	/*
	 * issue 21: three groups compared (the demo's eager, cooperative and
	 * consumer-protocol ones; here the scene's two and billing-events): at
	 * 80x24 the two that fit with every lane, the cost line naming all
	 * three; at 40x12 (narrow-timeline-40x12) one group's timeline
	 */
	{ .name = "compare-three-80x24", .rows = 24, .cols = 80, .group = "demo-coop", .view = UI_VIEW_TIMELINE, .compare = true,
	  .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)", .kafka_ok = true,
	  .filter = "^(demo-|billing-)" },
	{ .name = "compare-three-160x48", .rows = 48, .cols = 160, .group = "demo-coop", .view = UI_VIEW_TIMELINE,
	  .compare = true, .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)", .kafka_ok = true,
	  .filter = "^(demo-|billing-)" },
	/* and wide, the width for the lanes (the list above them) */
	{ .name = "compare-demo-200x60", .rows = 60, .cols = 200, .group = "demo-coop", .view = UI_VIEW_TIMELINE,
	  .compare = true, .demo_msg = DEMO_MSG, .no_trace = true, .cluster = "demo (mock cluster)", .kafka_ok = true,
	  .filter = "^demo-" },
	/* issue 26: the help, no line cut, at 80x24 (help-80x24) and 40x12 */
	{ .name = "help-40x12", .rows = 12, .cols = 40, .group = "demo-range", .view = UI_VIEW_GRID, .help = true },
	{ .name = "header-replay-40x12", .rows = 12, .cols = 40, .group = "demo-coop", .view = UI_VIEW_GRID,
	  .replay = true, .paused = true, .offset_us = 7500000, .kafka_ok = true, .no_trace = true },
};

static kg_ui_info info_demo = { .demo = true, .cluster = "localhost:9092" };
static kg_ui_info info_replay = { .replay = true, .cluster = "recording.jsonl" };
static kg_ui_info info_attach = { .cluster = "localhost:9092" };

/* Read a file; NULL when missing. */
static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	sbuf b = { 0 };
	char buf[8192];
	size_t n;
	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sbuf_addn(&b, buf, n);
	fclose(f);
	sbuf_addc(&b, '\0');
	return b.s;
}

/* Write a file; 0 or -1. */
static int
spew(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -1;
}

/* Select a group whose name starts with prefix. */
static void
select_prefix(ui_screen *s, const char *prefix)
{
	int i;
	for (i = 0; s->snap != NULL && i < s->snap->ngroups; i++) {
		if (strncmp(s->snap->groups[i].name, prefix, strlen(prefix)) == 0) {
			util_strlcpy(s->selected, s->snap->groups[i].name, sizeof s->selected);
			break;
		}
	}
	screen_order(s);
}

#define view_keys(s, v, keys) scene_view_keys((s), (v), (keys))

/* Render one case into text. */
static char *
render_case(const gcase *c)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;
	ui_screen s;
	kg_options o;
	ui_scene sc;
	kg_tracker *big = NULL;
	kg_ui_info info;
	char *text, *attrs, *all;
	sbuf b = { 0 };

	assert_non_null(out);
	assert_non_null(in);
	scr = newterm(c->term ? c->term : "xterm-256color", out, in);
	assert_non_null(scr);
	set_term(scr);
	resize_term(c->rows, c->cols);
	if (!c->mono) {
		start_color();
		use_default_colors();
	}
	memset(&o, 0, sizeof o);
	o.interval_us = 1 * SEC;
	o.ascii = c->ascii;
	o.no_color = c->mono;
	scene_init(&sc);
	scene_sources(c->demo_msg, !c->no_trace);
	info = c->replay ? info_replay : c->attached ? info_attach : info_demo;
	if (c->cluster != NULL)
		info.cluster = c->cluster;
	/* the tracker's window, as main() tells the dashboard: the scene's minute, the big group's default */
	info.lag_window_us = c->big ? options_model_defaults().lag_window_us : 60 * SEC;
	screen_init(&s, &o, &info, tracker_history(sc.tracker));
	if (c->big) {
		kg_snapshot *snap;
		kg_tracker_config mc = options_model_defaults();
		big = tracker_new(&mc);
		snap = scene_big_group(big, "big-topic-consumers", 7, 1000, 20, SCENE_T0);
		s.hist = tracker_history(big);
		screen_set_snapshot(&s, snap);
		snapshot_unref(snap);
	} else if (c->empty) {
		kg_builder *eb = builder_new(SCENE_T0);
		kg_source_health h = { .name = "kafka", .role = KG_ROLE_CLUSTER, .status = KG_SRC_ERROR, .since_us = SCENE_T0,
				       .message = "Connection refused (localhost:9092)" };
		kg_snapshot *snap;
		builder_cluster(eb, "localhost:9092");
		builder_source(eb, &h);
		snap = builder_finish(eb);
		screen_set_snapshot(&s, snap);
		snapshot_unref(snap);
	} else if (!c->no_snapshot) {
		if (c->kafka_stale)
			scene_kafka(KG_SRC_STALE, "all brokers down", 71 * SEC);
		if (c->kafka_ok)
			scene_kafka(KG_SRC_OK, NULL, 0);
		if (c->attached && c->attach_down)
			scene_attach_down("http://10.1.2.3:9464/stream: Connection refused; reconnecting in 12.0s", 17 * SEC);
		else if (c->attached)
			scene_attach("attached to 10.1.2.3:9464, 0.4 s behind");
		scene_run_until(&sc, SCENE_T0 + (c->until_ms ? c->until_ms : 20000) * 1000);
		screen_set_snapshot(&s, sc.snap);
	}
	s.t0_us = SCENE_T0;
	s.now_us = (s.snap ? s.snap->time_us : SCENE_T0) + 400000;
	s.view = c->view;
	/* the scene is a demo, where the timeline starts comparing: each golden says (v toggles it there) */
	if (c->view == UI_VIEW_TIMELINE && c->compare != info.demo)
		view_keys(&s, UI_VIEW_TIMELINE, "v");
	if (c->by_partition)
		view_keys(&s, c->view, "m");
	for (int z = 2; c->zoom > 0 && z < c->zoom - 1; z++) /* from the default scale (2) */
		view_keys(&s, UI_VIEW_TIMELINE, "-");
	if (c->wall_clock)
		view_keys(&s, c->view, "w");
	if (c->grid_lag)
		view_keys(&s, UI_VIEW_GRID, "#");
	s.help = c->help;
	s.paused = c->paused;
	s.offset_us = c->offset_us;
	s.maximized = c->maximized;
	if (c->sort != NULL)
		s.sort = groupcol_sort_find(c->sort);
	if (c->status != NULL)
		screen_reply(&s, c->status);
	if (c->filter)
		screen_set_filter(&s, c->filter);
	if (c->group)
		select_prefix(&s, c->group);
	else
		screen_order(&s);
	render_theme_apply(&s);
	render_frame(&s);
	if (c->sort_menu) {
		ui_action a;
		keys_handle(&s, KEY_F(6), &a);
		keys_handle(&s, 'j', &a);
		render_frame(&s);
	}
	if (c->search != NULL) {
		/* as typed: / opens the search of the view shown alone, each key finds, Enter keeps it */
		ui_action a;
		const char *p;
		keys_handle(&s, '/', &a);
		for (p = c->search; *p; p++)
			keys_handle(&s, *p, &a);
		keys_handle(&s, '\n', &a);
		s.status[0] = '\0';
		render_frame(&s);
	}
	dump_screen(stdscr, &text, &attrs);
	sbuf_addf(&b, "# kgtop golden %s: %dx%d %s %s\n--- text\n", c->name, c->cols, c->rows, c->ascii ? "ascii" : "utf-8",
		  c->mono ? "mono" : c->term ? c->term : "256 colours");
	sbuf_adds(&b, text);
	sbuf_adds(&b, "--- attributes\n");
	sbuf_adds(&b, attrs);
	free(text);
	free(attrs);
	screen_free(&s);
	scene_free(&sc);
	scene_sources(NULL, true);
	tracker_free(big);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	all = xstrdup(sbuf_str(&b));
	sbuf_free(&b);
	return all;
}

/* Compare one case with its golden. */
static void
test_golden(void **state)
{
	const gcase *c = *state;
	const char *src = getenv("top_srcdir"), *bld = getenv("top_builddir");
	char golden[1024], actual[1024];
	char *got = render_case(c), *want;
	snprintf(golden, sizeof golden, "%s/tests/golden/%s.golden", src ? src : ".", c->name);
	snprintf(actual, sizeof actual, "%s/tests/golden/%s.actual", src ? src : ".", c->name);
	if (getenv("KGTOP_BLESS") != NULL && *getenv("KGTOP_BLESS")) {
		assert_int_equal(spew(golden, got), 0);
		remove(actual);
		free(got);
		return;
	}
	want = slurp(golden);
	if (want == NULL || strcmp(want, got) != 0) {
		if (spew(actual, got) < 0) {
			snprintf(actual, sizeof actual, "%s/tests/golden", bld ? bld : ".");
			mkdir(actual, 0777);
			snprintf(actual, sizeof actual, "%s/tests/golden/%s.actual", bld ? bld : ".", c->name);
			spew(actual, got);
		}
		print_message("# %s: %s; wrote %s (diff it, then KGTOP_BLESS=1 to accept)\n", c->name,
			      want ? "differs from the golden" : "no golden yet", actual);
		free(want);
		free(got);
		fail();
	}
	remove(actual);
	free(want);
	free(got);
}

/*
 * One word per idea (issue 26): never "coop" (a group named demo-coop is
 * a name), "lost" only for the LOST verdict ("records lost"; the upper
 * case is the verdict's), and in ASCII '^' only for a lag on the rise
 * (right after its figure).  Returns the first offence in text, NULL.
 */
static const char *
retired_word(const char *text, bool ascii)
{
	const char *p;
	for (p = text; *p; p++) {
		bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '-' || p[-1] == '_');
		if (start && strncasecmp(p, "coop", 4) == 0 && !isalnum((unsigned char)p[4]) && p[4] != '-')
			return p;
		if (start && strncmp(p, "lost", 4) == 0 && !isalnum((unsigned char)p[4]) &&
		    !(p - text >= 8 && strncmp(p - 8, "records ", 8) == 0))
			return p;
		if (ascii && *p == '^' && !(p > text && strchr("0123456789kMG", p[-1]) != NULL && p[-1] != '\0'))
			return p;
	}
	return NULL;
}

/* Fail on a retired word in text, saying where (what: the golden or the help's part). */
static void
check_words(const char *what, const char *text, bool ascii)
{
	const char *bad = retired_word(text, ascii);
	if (bad != NULL)
		fail_msg("%s: a retired word at \"%.30s\" (in \"%.60s\")", what, bad,
			 bad - text > 30 ? bad - 30 : text);
}

/* The goldens' screens and every help text: no retired word (see retired_word). */
static void
test_words(void **state)
{
	const char *src = getenv("top_srcdir");
	const char *lines[128][2];
	char path[1024];
	size_t i;
	int n, k, v;
	ui_screen s;
	kg_options o;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(cases); i++) {
		char *g, *end;
		snprintf(path, sizeof path, "%s/tests/golden/%s.golden", src ? src : ".", cases[i].name);
		g = slurp(path);
		assert_non_null(g);
		if ((end = strstr(g, "--- attributes")) != NULL)
			*end = '\0'; /* the screen's text, not its attribute map */
		check_words(cases[i].name, strchr(g, '\n') + 1, cases[i].ascii);
		free(g);
	}
	memset(&o, 0, sizeof o);
	screen_init(&s, &o, &info_demo, NULL);
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		s.view = (ui_view_id)v;
		n = keys_help(&s, lines, 128);
		for (k = 0; k < n; k++)
			check_words("the help", lines[k][1], false);
	}
	screen_free(&s);
	for (k = 0; k < groupcol_count; k++) {
		if (groupcol_table[k].help != NULL)
			check_words("a column's help", groupcol_table[k].help, false);
		if (groupcol_table[k].label != NULL)
			check_words("a report label", groupcol_table[k].label, false);
	}
	/* and the test can fail */
	assert_non_null(retired_word("coop: 0 stopped", false));
	assert_non_null(retired_word("gave [4], lost it in the last rebalance", false));
	assert_non_null(retired_word("@1--- ^2--", true));
	assert_null(retired_word("demo-coop  7.9k^  LOST  500 records lost  cooperative", true));
}

/* Run every case. */
int
main(void)
{
	struct CMUnitTest t[KG_ARRAY_LEN(cases) + 1];
	size_t i;
	setenv("TZ", "UTC", 1);
	tzset();
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "C.utf8");
	unsetenv("KGTOP_THEMES");
	for (i = 0; i < KG_ARRAY_LEN(cases); i++) {
		memset(&t[i], 0, sizeof t[i]);
		t[i].name = cases[i].name;
		t[i].test_func = test_golden;
		t[i].initial_state = (void *)&cases[i];
	}
	/* after the cases (a golden blessed in this run is read as written) */
	memset(&t[i], 0, sizeof t[i]);
	t[i].name = "test_words";
	t[i].test_func = test_words;
	return _cmocka_run_group_tests("ui_golden", t, KG_ARRAY_LEN(cases) + 1, NULL, NULL);
}

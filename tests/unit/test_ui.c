/*
 * test_ui.c: layout, keys, sanitizing, glyphs, without a terminal.
 *
 * Drawing tests use a curses screen on /dev/null (newterm) of a fixed
 * size, as the goldens do; keys are fed to keys_handle() directly.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "model/intern.h"
#include "test_ui_scene.h"
#include "ui/screen.h"
#include "ui/view_timeline.h"
#include "util/util.h"

#define SEC 1000000LL

static FILE *devout, *devin;
static SCREEN *scr;
static ui_scene sc;
static ui_screen s;
static kg_options opts;
static kg_ui_info info = { .demo = true, .cluster = "localhost:9092" };

/* A 80x24 screen on /dev/null with the seeds' scene. */
static int
setup(void **state)
{
	(void)state;
	devout = fopen("/dev/null", "w");
	devin = fopen("/dev/null", "r");
	scr = newterm("xterm-256color", devout, devin);
	if (scr == NULL)
		return -1;
	set_term(scr);
	resize_term(24, 80);
	memset(&opts, 0, sizeof opts);
	opts.interval_us = SEC;
	scene_init(&sc);
	scene_run_until(&sc, SCENE_T0 + 20 * SEC);
	screen_init(&s, &opts, &info, tracker_history(sc.tracker));
	s.sort = groupcol_sort_find("name"); /* the tests below were written for the names' order */
	/* and for one group's timeline (the demo compares from the start) */
	((ui_timeline *)screen_pane_state(&s, UI_VIEW_TIMELINE))->compare = false;
	screen_set_snapshot(&s, sc.snap);
	s.t0_us = SCENE_T0; /* kgtop watched the scene from its start */
	s.now_us = sc.snap->time_us;
	render_theme_apply(&s);
	return 0;
}

/* Tear down. */
static int
teardown(void **state)
{
	(void)state;
	screen_free(&s);
	scene_free(&sc);
	endwin();
	delscreen(scr);
	fclose(devout);
	fclose(devin);
	return 0;
}

/* The timeline's own state (its pane's), for the tests that set it as its keys would. */
static ui_timeline *
timeline_of(ui_screen *t)
{
	return screen_pane_state(t, UI_VIEW_TIMELINE);
}

#define view_keys(t, v, keys) scene_view_keys((t), (v), (keys))

/* The text of row y of stdscr (trailing blanks kept). */
static void
row_text(int y, char *buf, size_t n)
{
	char *text, *attrs, *p;
	int i;
	dump_screen(stdscr, &text, &attrs);
	p = text;
	for (i = 0; i < y && p != NULL; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	util_strlcpy(buf, p ? p : "", n);
	if ((p = strchr(buf, '\n')) != NULL)
		*p = '\0';
	free(text);
	free(attrs);
}

/* True when the screen shows needle somewhere. */
static bool
screen_has(const char *needle)
{
	char *text, *attrs;
	bool found;
	dump_screen(stdscr, &text, &attrs);
	found = strstr(text, needle) != NULL;
	free(text);
	free(attrs);
	return found;
}

/* Events: newest first by when they happened, even when kgtop learnt one late. */
static void
test_events_time_order(void **state)
{
	ui_action a;
	kg_event *e;
	char text[4096], *attrs;
	const char *older, *newer;
	int32_t gid;
	(void)state;
	keys_handle(&s, 'e', &a);
	gid = screen_group(&s)->id;
	/* learnt first, happened last */
	e = event_new(KG_EV_SOURCE, sc.snap->time_us - 1 * SEC, gid);
	event_text(e, "zz-happened-last");
	history_add_event(s.hist, e);
	event_unref(e); /* the history holds its own references */
	/* learnt last, happened first */
	e = event_new(KG_EV_SOURCE, sc.snap->time_us - 2 * SEC, gid);
	event_text(e, "zz-happened-first");
	history_add_event(s.hist, e);
	event_unref(e);
	render_frame(&s);
	{
		char *t;
		dump_screen(stdscr, &t, &attrs);
		util_strlcpy(text, t, sizeof text);
		free(t);
		free(attrs);
	}
	newer = strstr(text, "zz-happened-last");
	older = strstr(text, "zz-happened-first");
	assert_non_null(newer);
	assert_non_null(older);
	assert_true(newer < older);
}

/* i: every source with its whole message; the header puts the troubled ones first. */
static void
test_sources_overlay(void **state)
{
	ui_action a;
	char row[512];
	(void)state;
	/* the stale log stream comes before the healthy demo in the header; at 80 columns only it fits */
	resize_term(24, 160);
	render_frame(&s);
	row_text(0, row, sizeof row);
	assert_non_null(strstr(row, "log:broker-1"));
	assert_non_null(strstr(row, "demo ok"));
	assert_true(strstr(row, "log:broker-1") < strstr(row, "demo ok"));
	resize_term(24, 80);
	render_frame(&s);
	row_text(0, row, sizeof row);
	assert_non_null(strstr(row, "log:broker-1 stale"));
	keys_handle(&s, 'i', &a);
	render_frame(&s);
	assert_true(screen_has("i or Esc closes"));
	assert_true(screen_has("log:broker-1"));
	assert_true(screen_has("stale"));
	keys_handle(&s, 'i', &a);
	assert_false(s.help);
	render_frame(&s);
	assert_false(screen_has("i or Esc closes"));
}

/* Sources by role, whatever their names: the cluster's age, the replay's marker, the demo's step. */
static void
test_source_roles(void **state)
{
	const kg_ui_info *was = s.info;
	kg_ui_info rec = { .replay = true, .cluster = "rec.jsonl" };
	kg_snapshot *keep = snapshot_ref(s.snap), *snap;
	kg_builder *b = builder_new(keep->time_us);
	kg_source_health cl = { .name = "brokers-east", .role = KG_ROLE_CLUSTER, .status = KG_SRC_STALE,
				.since_us = keep->time_us - 70 * SEC, .last_ok_us = keep->time_us - 70 * SEC };
	kg_source_health fake = { .name = "kafka", .role = KG_ROLE_TRACE, .status = KG_SRC_OK,
				  .since_us = keep->time_us, .last_ok_us = keep->time_us, .message = "12 lines" };
	kg_source_health rp = { .name = "tape", .role = KG_ROLE_REPLAY, .status = KG_SRC_OK, .since_us = keep->time_us,
				.last_ok_us = keep->time_us, .message = "playing 4x at 12:00:00" };
	kg_source_health dm = { .name = "show", .status = KG_SRC_OK, .since_us = keep->time_us,
				.last_ok_us = keep->time_us, .message = "step 2: a member joins; more" };
	kg_source_health ld = { .name = "offsets", .role = KG_ROLE_TRACE, .status = KG_SRC_CONNECTING,
				.message = "loading 45% (450 of 1,000 records, 12 of 50 partitions at their end): ..." };
	char row[512];
	(void)state;
	builder_source(b, &cl);
	builder_source(b, &fake);
	builder_source(b, &rp);
	builder_source(b, &ld);
	builder_source_role(b, KG_ROLE_DEMO); /* as the collector does for the demo's contribution */
	builder_source(b, &dm);
	snap = builder_finish(b);
	assert_int_equal(snap->sources[4].role, KG_ROLE_DEMO);
	s.info = &rec;
	screen_set_snapshot(&s, snap);
	resize_term(24, 160);
	render_frame(&s);
	row_text(0, row, sizeof row);
	/* the replay's marker from its message: one clock, the recorded time, and its speed; no interval */
	assert_non_null(strstr(row, "REPLAY 2023-11-14 22:13:"));
	assert_non_null(strstr(row, " x4"));
	assert_null(strstr(row, "every"));
	assert_null(strstr(row, "tape"));
	assert_non_null(strstr(row, "show ok: step 2: a member joins"));
	/* a source loading what came before it says how far it is (--trace offsets) */
	assert_non_null(strstr(row, "offsets loading 45%"));
	/* the list's age comes from the cluster's source, not from one named kafka */
	assert_true(screen_has("as of 1m10s ago"));
	resize_term(24, 80);
	s.info = was;
	screen_set_snapshot(&s, keep);
	snapshot_unref(keep);
	snapshot_unref(snap);
}

/* Each view is its pane: its digit and letter show it, its name is its tab and in the help, its hints in the footer. */
static void
test_view_table(void **state)
{
	ui_action a;
	const char *lines[96][2];
	int v, n, i;
	bool named;
	(void)state;
	n = keys_help(&s, lines, 96);
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		const ui_pane *p = render_pane((ui_view_id)v);
		ui_hint h[8];
		int k, nh = p->hints != NULL ? p->hints(&s, s.pane_state[v], h, 8) : 0;
		char tab[64], hint[64];
		keys_handle(&s, p->key, &a);
		assert_int_equal(s.view, v);
		keys_handle(&s, '1' + (v + 1) % UI_VIEW_COUNT, &a);
		assert_int_equal(s.view, (v + 1) % UI_VIEW_COUNT);
		keys_handle(&s, '1' + v, &a);
		assert_int_equal(s.view, v);
		resize_term(24, 160);
		render_frame(&s);
		snprintf(tab, sizeof tab, " %d %s ", v + 1, p->name);
		assert_true(screen_has(tab));
		for (k = 0; k < nh; k++) {
			snprintf(hint, sizeof hint, "%s %s", h[k].key, h[k].label);
			assert_true(screen_has(hint));
		}
		resize_term(24, 80);
		for (i = 0, named = false; i < n; i++)
			named = named || (strncmp(lines[i][1], "views:", 6) == 0 && strstr(lines[i][1], p->name) != NULL);
		assert_true(named);
	}
	s.view = UI_VIEW_GRID;
	render_frame(&s);
}

/*
 * --select for a group that appears after start (issue 22: it was ignored):
 * the first group is selected meanwhile, and the named one as soon as a
 * snapshot has it; a key that moves the selection before then ends the
 * wait.
 */
static void
test_select_later(void **state)
{
	ui_screen t;
	kg_options o = opts;
	kg_builder *b;
	kg_snapshot *before, *after;
	(void)state;
	o.select_group = (char *)"g-later";
	b = builder_new(sc.snap->time_us);
	bgroup_state(builder_group(b, intern_group("g-first")), KG_STATE_EMPTY);
	before = builder_finish(b);
	b = builder_new(sc.snap->time_us + SEC);
	bgroup_state(builder_group(b, intern_group("g-first")), KG_STATE_EMPTY);
	bgroup_state(builder_group(b, intern_group("g-later")), KG_STATE_EMPTY);
	after = builder_finish(b);
	screen_init(&t, &o, &info, s.hist);
	screen_set_snapshot(&t, before);
	assert_string_equal(screen_group(&t)->name, "g-first");
	screen_set_snapshot(&t, after);
	assert_string_equal(screen_group(&t)->name, "g-later");
	screen_free(&t);
	/* moved by a key before it came: the user's choice stays */
	screen_init(&t, &o, &info, s.hist);
	screen_set_snapshot(&t, before);
	screen_select(&t, 0);
	screen_set_snapshot(&t, after);
	assert_string_equal(screen_group(&t)->name, "g-first");
	screen_free(&t);
	snapshot_unref(before);
	snapshot_unref(after);
}

/* A snapshot of two groups with a member each, g-calm's verdict calm, g-frozen's frozen, g-storm's storm flag. */
static kg_snapshot *
trouble_snap(int64_t t, kg_verdict calm, kg_verdict frozen, bool storm)
{
	static const char *const names[] = { "g-calm", "g-frozen", "g-storm" };
	kg_builder *b = builder_new(t);
	kg_snapshot *snap;
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(names); i++) {
		kg_bgroup *g = builder_group(b, intern_group(names[i]));
		bgroup_state(g, KG_STATE_STABLE);
		bmember_ids(bgroup_member(g, "m-1"), "c-1", "/10.0.0.1", NULL);
	}
	snap = builder_finish(b);
	/* the tracker's verdicts, as it leaves them before the snapshot is published */
	snap->groups[0].verdict = (uint8_t)calm;
	snap->groups[1].verdict = (uint8_t)frozen;
	snap->groups[2].verdict = KG_VERDICT_OK;
	snap->groups[2].sum.storm = storm;
	return snap;
}

/*
 * Issue 24: the header's trouble count is counted once a snapshot, not each
 * frame: it follows every snapshot shown (a group turning STALLED, then
 * back; a storm; LOST and STOPPED), never the one before; frames between
 * snapshots keep it; a paused screen shows none.
 */
static void
test_trouble_count_per_snapshot(void **state)
{
	ui_screen u;
	kg_snapshot *keep = snapshot_ref(s.snap);
	int64_t t = keep->time_us;
	kg_snapshot *v[5];
	static const struct {
		int n;
		const char *text;
	} want[] = { { 0, NULL }, { 1, " 1 in trouble " }, { 2, " 2 in trouble " }, { 0, NULL }, { 2, " 2 in trouble " } };
	char row[512];
	size_t i;
	(void)state;
	v[0] = trouble_snap(t, KG_VERDICT_OK, KG_VERDICT_OK, false);
	v[1] = trouble_snap(t + SEC, KG_VERDICT_OK, KG_VERDICT_STALLED, false);
	v[2] = trouble_snap(t + 2 * SEC, KG_VERDICT_LOST, KG_VERDICT_STALLED, false);
	v[3] = trouble_snap(t + 3 * SEC, KG_VERDICT_SLOW, KG_VERDICT_OK, false);
	v[4] = trouble_snap(t + 4 * SEC, KG_VERDICT_OK, KG_VERDICT_STOPPED, true);
	resize_term(24, 160);
	for (i = 0; i < KG_ARRAY_LEN(v); i++) {
		int frame;
		screen_set_snapshot(&s, v[i]);
		assert_int_equal(screen_trouble(&s), want[i].n);
		for (frame = 0; frame < 2; frame++) { /* a second frame of the same snapshot (the clock's) counts the same */
			s.now_us = v[i]->time_us + frame * SEC / 2;
			render_frame(&s);
			row_text(0, row, sizeof row);
			if (want[i].text != NULL)
				assert_non_null(strstr(row, want[i].text));
			else
				assert_null(strstr(row, "in trouble"));
		}
	}
	/* an Empty group's offsets stand still by nature: no trouble without members */
	v[0]->groups[1].nmembers = 0;
	v[0]->groups[1].verdict = KG_VERDICT_STALLED;
	assert_false(group_in_trouble(&v[0]->groups[1]));
	/* paused: the snapshot kept, its count hidden */
	s.paused = true;
	render_frame(&s);
	row_text(0, row, sizeof row);
	assert_null(strstr(row, "in trouble"));
	s.paused = false;
	resize_term(24, 80);
	/* the first snapshot a screen takes is counted too, nothing said off screen; the walk that counts a
	 * later one also names what turned so off screen (g-frozen, worst first, selected; no rows laid out) */
	screen_init(&u, &opts, &info, s.hist);
	screen_set_snapshot(&u, v[4]);
	assert_int_equal(screen_trouble(&u), 2);
	assert_string_equal(u.status, "");
	screen_set_snapshot(&u, v[0]);
	assert_int_equal(screen_trouble(&u), 0);
	screen_set_snapshot(&u, v[2]);
	assert_int_equal(screen_trouble(&u), 2);
	assert_string_equal(screen_group(&u)->name, "g-frozen");
	assert_string_equal(u.status, "off screen: g-calm LOST (2 groups in trouble)");
	screen_free(&u);
	screen_set_snapshot(&s, keep);
	snapshot_unref(keep);
	for (i = 0; i < KG_ARRAY_LEN(v); i++)
		snapshot_unref(v[i]);
}

/*
 * Keys are unique: no key is claimed twice by the key table and the
 * views' digits and letters, and no view's own key is one of those (it
 * would never reach the view); two views may share an own key (m, w),
 * since only the view shown takes its own.  And the own keys reach only
 * the view shown: w in the events view leaves the timeline's clock.
 */
static void
test_keys_unique(void **state)
{
	ui_key_claim c[256];
	int n = keys_claims(c, 256), i, j;
	ui_action a;
	(void)state;
	assert_true(n > 40 && n <= 256);
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (c[i].key != c[j].key || (c[i].view >= 0 && c[j].view >= 0 && c[i].view != c[j].view))
				continue;
			fail_msg("key %d (%c) claimed by \"%s\" (view %d) and \"%s\" (view %d)", c[i].key,
				 c[i].key > 32 && c[i].key < 127 ? c[i].key : '?', c[i].what, c[i].view, c[j].what, c[j].view);
		}
	}
	/* w in the events view: the events' clock (its footer hint turns), not the timeline's */
	s.view = UI_VIEW_EVENTS;
	render_frame(&s);
	assert_true(screen_has("w clock"));
	keys_handle(&s, 'w', &a);
	assert_false(timeline_of(&s)->wall_clock);
	render_frame(&s);
	assert_true(screen_has("w relative"));
	keys_handle(&s, 'w', &a);
	/* and a view not on the screen (the list alone, under 80x24) takes none */
	resize_term(20, 60);
	render_frame(&s);
	s.view = UI_VIEW_TIMELINE;
	keys_handle(&s, 'm', &a);
	assert_false(timeline_of(&s)->by_partition);
	resize_term(24, 80);
	s.view = UI_VIEW_GRID;
	render_frame(&s);
}

/*
 * The help fits (issue 26): at 80x24 and at 40x12 no line of it is cut
 * (its words wrap under the line's), the page counter shows whole, and
 * paging reaches its last line (the columns' help, the group table's).
 */
static void
test_help_fits(void **state)
{
	static const int sizes[][2] = { { 24, 80 }, { 12, 40 } };
	const char *lines[128][2];
	size_t k;
	int n, page, y;
	ui_action a;
	char row[1024], last[64];
	(void)state;
	for (k = 0; k < KG_ARRAY_LEN(sizes); k++) {
		bool seen_last = false;
		resize_term(sizes[k][0], sizes[k][1]);
		s.view = UI_VIEW_GRID;
		render_frame(&s);
		n = keys_help(&s, lines, 128);
		/* the last word of the last line */
		util_strlcpy(last, strrchr(lines[n - 1][1], ' ') != NULL ? strrchr(lines[n - 1][1], ' ') : lines[n - 1][1],
			     sizeof last);
		keys_handle(&s, KEY_F(1), &a);
		for (page = 0; page < 40 && !seen_last; page++) {
			render_frame(&s);
			for (y = 1; y < LINES - 1; y++) {
				row_text(y, row, sizeof row);
				if (strstr(row, "\u2026") != NULL)
					fail_msg("%dx%d, page %d: a cut line: \"%s\"", COLS, LINES, page + 1, row);
				seen_last |= strstr(row, last) != NULL;
			}
			assert_true(screen_has("PgDn PgUp"));
			assert_true(screen_has(" of "));
			keys_handle(&s, KEY_NPAGE, &a);
		}
		assert_true(seen_last);
		keys_handle(&s, 27, &a);
	}
	resize_term(24, 80);
	render_frame(&s);
}

/*
 * --help names the views as the dashboard has them: "1-N" for the number
 * of views and each view's letter and name (it said 1-4 where there were
 * five).
 */
static void
test_usage_views(void **state)
{
	kg_options o;
	char err[256], *argv[] = { "kgtop", "--help", NULL }, path[] = "/tmp/kgtop-usage-XXXXXX", want[64], *text;
	int fd = mkstemp(path), saved, v;
	FILE *f;
	sbuf b = { 0 };
	char buf[4096];
	size_t n;
	(void)state;
	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	memset(&o, 0, sizeof o);
	assert_int_equal(options_parse(&o, 2, argv, err, sizeof err), 1);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	options_free(&o);
	f = fopen(path, "r");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sbuf_addn(&b, buf, n);
	fclose(f);
	unlink(path);
	text = xstrdup(sbuf_str(&b));
	sbuf_free(&b);
	/* the lines are wrapped: compare with blanks for newlines */
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	snprintf(want, sizeof want, "1-%d the views", UI_VIEW_COUNT);
	assert_non_null(strstr(text, want));
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		const ui_pane *p = render_pane((ui_view_id)v);
		snprintf(want, sizeof want, "%c %s", p->key, p->name);
		if (strstr(text, want) == NULL)
			fail_msg("--help does not say \"%s\"", want);
	}
	free(text);
}

/* v: compare timelines; from another view it opens the timeline comparing, again shows one group. */
static void
test_compare_key(void **state)
{
	ui_action a;
	ui_screen t;
	(void)state;
	/* the demo starts comparing; a cluster does not */
	screen_init(&t, &opts, &info, s.hist);
	assert_true(timeline_of(&t)->compare);
	screen_free(&t);
	s.view = UI_VIEW_GRID;
	timeline_of(&s)->compare = false;
	keys_handle(&s, 'v', &a);
	assert_int_equal(s.view, UI_VIEW_TIMELINE);
	assert_true(timeline_of(&s)->compare);
	keys_handle(&s, 'v', &a);
	assert_false(timeline_of(&s)->compare);
	keys_handle(&s, 'v', &a);
	assert_true(timeline_of(&s)->compare);
	timeline_of(&s)->compare = false;
	s.view = UI_VIEW_GRID;
}

/* A joiner first seen in a sample after its episode ended did not leave: it got what it got. */
static void
test_timeline_note_late_sample(void **state)
{
	int32_t t = intern_topic("notes");
	kg_tp p5[] = { { t, 5 } };
	kg_episode e;
	kg_episode_member m;
	ui_lane_facts f = { .later = true, .why = KG_REASON_NONE };
	sbuf b = { 0 };
	(void)state;
	memset(&e, 0, sizeof e);
	memset(&m, 0, sizeof m);
	e.rounds = 1;
	m.joined = true;
	m.assigned = p5;
	m.nassigned = 1;
	timeline_member_note(&s, &e, &m, &f, true, 0, &b);
	assert_string_equal(sbuf_str(&b), "joined, got [5]");
	sbuf_free(&b);
	/* gone after it too, with a reason: it left */
	f.later = false;
	f.why = KG_REASON_MAX_POLL;
	memset(&b, 0, sizeof b);
	timeline_member_note(&s, &e, &m, &f, true, 0, &b);
	assert_non_null(strstr(sbuf_str(&b), "left"));
	sbuf_free(&b);
}

/* Layout: narrow, wide, too small, maximized; the list as tall as its groups; a two-line status. */
static void
test_layout(void **state)
{
	ui_layout l;
	(void)state;
	render_layout(&l, 24, 80, false, false, 7, 1);
	assert_false(l.too_small);
	assert_false(l.wide);
	assert_int_equal(l.header.y, 0);
	assert_int_equal(l.footer.y, 23);
	assert_int_equal(l.status.y, 22);
	assert_true(l.list.h >= 5);
	assert_int_equal(l.tabs.y, l.list.y + l.list.h);
	assert_int_equal(l.view.y + l.view.h, 22);
	render_layout(&l, 48, 160, false, false, 7, 1);
	assert_true(l.wide);
	assert_int_equal(l.view.x, l.list.w + 1);
	assert_int_equal(l.view.x + l.view.w, 160);
	assert_false(l.narrow);
	/* under 80x24: one pane at a time, the list or (maximized) the view */
	render_layout(&l, 23, 80, false, false, 7, 1);
	assert_false(l.too_small);
	assert_true(l.narrow);
	assert_int_equal(l.list.h, 23 - 3);
	assert_int_equal(l.view.h, 0);
	assert_int_equal(l.tabs.h, 0);
	render_layout(&l, 24, 79, true, false, 7, 1);
	assert_true(l.narrow);
	assert_int_equal(l.list.h, 0);
	assert_int_equal(l.tabs.y, 1);
	assert_int_equal(l.view.h, 24 - 4);
	render_layout(&l, 12, 40, false, false, 7, 1);
	assert_false(l.too_small);
	assert_int_equal(l.list.h, 9);
	render_layout(&l, 11, 40, false, false, 7, 1);
	assert_true(l.too_small);
	render_layout(&l, 12, 39, false, false, 7, 1);
	assert_true(l.too_small);
	render_layout(&l, 24, 80, true, false, 7, 1);
	assert_int_equal(l.list.h, 0);
	assert_int_equal(l.tabs.y, 1);
	/* 120x40 with two groups: title and two rows, the rest is the group's */
	render_layout(&l, 40, 120, false, false, 2, 1);
	assert_false(l.wide);
	assert_int_equal(l.list.h, 3);
	assert_int_equal(l.view.h, 40 - 3 - 3 - 1);
	/* many groups: at most 30% of the body */
	render_layout(&l, 40, 120, false, false, 500, 1);
	assert_int_equal(l.list.h, (40 - 3) * 3 / 10);
	/* a long message takes two status lines, from the view */
	render_layout(&l, 24, 80, false, false, 7, 2);
	assert_int_equal(l.status.y, 21);
	assert_int_equal(l.status.h, 2);
	assert_int_equal(l.view.y + l.view.h, 21);
}

/* Views switch by number, initial and Tab; q quits; sort cycles. */
static void
test_keys_views(void **state)
{
	ui_action a;
	(void)state;
	keys_handle(&s, '2', &a);
	assert_int_equal(s.view, UI_VIEW_TIMELINE);
	keys_handle(&s, 'e', &a);
	assert_int_equal(s.view, UI_VIEW_EVENTS);
	keys_handle(&s, '\t', &a);
	assert_int_equal(s.view, UI_VIEW_LAG);
	keys_handle(&s, '\t', &a);
	assert_int_equal(s.view, UI_VIEW_GRID);
	keys_handle(&s, KEY_BTAB, &a);
	assert_int_equal(s.view, UI_VIEW_LAG);
	keys_handle(&s, 'L', &a);
	assert_int_equal(s.view, UI_VIEW_LAG);
	keys_handle(&s, '5', &a);
	assert_int_equal(s.view, UI_VIEW_LAG);
	keys_handle(&s, 'e', &a);
	assert_int_equal(s.view, UI_VIEW_EVENTS);
	keys_handle(&s, 'h', &a);
	assert_int_equal(s.view, UI_VIEW_HEALTH);
	keys_handle(&s, 'o', &a);
	assert_int_equal(s.view, UI_VIEW_GRID);
	/* s: the sort orders in the group table's order, the columns' from left to right, then round */
	s.sort = groupcol_sort_find("name");
	keys_handle(&s, 's', &a);
	assert_int_equal(s.sort, groupcol_sort_find("state"));
	/* the sort mark stands right before the sorted column's title */
	render_frame(&s);
	assert_true(screen_has("\u25beSTATE"));
	keys_handle(&s, 's', &a);
	assert_int_equal(s.sort, groupcol_sort_find("lag"));
	/* by lag: the Empty group with the most lag comes first */
	assert_string_equal(s.snap->groups[s.order[0]].name, "audit-archiver");
	render_frame(&s);
	assert_true(screen_has("\u25beLAG"));
	/* by time lag, then by verdict, the worst first (issue 10) */
	keys_handle(&s, 's', &a);
	assert_int_equal(s.sort, groupcol_sort_find("time lag"));
	render_frame(&s);
	assert_true(screen_has("\u25beTIME-LAG"));
	keys_handle(&s, 's', &a);
	assert_int_equal(s.sort, groupcol_sort_find("verdict"));
	render_frame(&s);
	assert_true(screen_has("\u25beVERDICT"));
	keys_handle(&s, 's', &a);
	render_frame(&s);
	assert_true(screen_has("\u25beREB"));
	assert_true(screen_has("REB FLAGS"));
	keys_handle(&s, 's', &a);
	assert_int_equal(s.sort, groupcol_sort_find("name"));
	render_frame(&s);
	assert_true(screen_has("\u25beGROUP"));
	s.sort = groupcol_sort_find("name");
	keys_handle(&s, 'q', &a);
	assert_true(a.quit);
}

/* Selection moves and sticks to the group's name across snapshots. */
static void
test_keys_select(void **state)
{
	ui_action a;
	const kg_group *g;
	char name[256];
	int i;
	(void)state;
	keys_handle(&s, KEY_HOME, &a);
	assert_int_equal(s.sel, 0);
	keys_handle(&s, 'j', &a);
	keys_handle(&s, KEY_DOWN, &a);
	assert_int_equal(s.sel, 2);
	g = screen_group(&s);
	util_strlcpy(name, g->name, sizeof name);
	keys_handle(&s, 's', &a); /* resort: the same group stays selected */
	assert_string_equal(screen_group(&s)->name, name);
	for (i = 0; i < groupcol_count && s.sort != groupcol_sort_find("name"); i++) /* round the cycle, back */
		keys_handle(&s, 's', &a);
	assert_int_equal(s.sort, groupcol_sort_find("name"));
	keys_handle(&s, KEY_END, &a);
	assert_int_equal(s.sel, s.norder - 1);
	keys_handle(&s, 'j', &a);
	assert_int_equal(s.sel, s.norder - 1);
	keys_handle(&s, KEY_HOME, &a);
	keys_handle(&s, 'k', &a);
	assert_int_equal(s.sel, 0);
}

/* Type a string into keys_handle. */
static void
type(const char *p)
{
	ui_action a;
	for (; *p; p++)
		keys_handle(&s, *p, &a);
}

/*
 * Filter (\ or F4), as htop's: it applies as it is typed, a pattern that
 * is no regex yet shows every group until it is one, Enter keeps it, Esc
 * puts back the one before; it starts from the one in force; an empty
 * Enter clears it, Esc outside the prompt clears it.
 */
static void
test_keys_filter(void **state)
{
	ui_action a;
	(void)state;
	keys_handle(&s, '\\', &a);
	assert_true(s.filter_edit);
	type("demo-");
	/* applied already, before Enter */
	assert_int_equal(s.norder, 2);
	keys_handle(&s, 'x', &a);
	assert_int_equal(s.norder, 0);
	keys_handle(&s, KEY_BACKSPACE, &a);
	assert_int_equal(s.norder, 2);
	render_frame(&s);
	assert_true(screen_has("filter (regex; Enter keeps, Esc cancels): demo-"));
	keys_handle(&s, '\n', &a);
	assert_false(s.filter_edit);
	assert_string_equal(s.filter, "demo-");
	render_frame(&s);
	assert_true(screen_has("GROUP (2 filtered)"));
	/* not a regex yet: every group, and the prompt says so */
	keys_handle(&s, KEY_F(4), &a);
	assert_string_equal(s.filter_buf, "demo-");
	keys_handle(&s, '(', &a);
	assert_int_equal(s.norder, s.snap->ngroups);
	render_frame(&s);
	assert_true(screen_has("(not a regex yet)"));
	/* Esc puts back the filter of before */
	keys_handle(&s, 27, &a);
	assert_false(s.filter_edit);
	assert_string_equal(s.filter, "demo-");
	assert_int_equal(s.norder, 2);
	/* a pattern of its own */
	keys_handle(&s, '\\', &a);
	type("\b\b\b\b\bledger\n");
	assert_string_equal(s.filter, "ledger");
	assert_int_equal(s.norder, 1);
	/* an empty Enter clears it */
	keys_handle(&s, '\\', &a);
	type("\b\b\b\b\b\b\n");
	assert_false(s.re_ok);
	assert_int_equal(s.norder, s.snap->ngroups);
	/* Esc outside the prompt clears it too */
	keys_handle(&s, '\\', &a);
	type("demo\n");
	assert_int_equal(s.norder, 2);
	keys_handle(&s, 27, &a);
	assert_false(s.re_ok);
	assert_int_equal(s.norder, s.snap->ngroups);
}

/*
 * Search (/ or F3) as you type: the group list moves to the first name
 * that holds it, n and N go on (wrapping), Esc goes back to where it
 * began; in the events view shown alone it finds the event's line, marks
 * it, and n finds the next.
 */
static void
test_keys_search(void **state)
{
	ui_action a;
	int first, hit;
	(void)state;
	s.view = UI_VIEW_GRID;
	keys_handle(&s, KEY_HOME, &a);
	assert_string_equal(screen_group(&s)->name, "audit-archiver");
	keys_handle(&s, '/', &a);
	assert_true(s.search_edit);
	assert_false(s.search_in_view);
	type("dem");
	assert_string_equal(screen_group(&s)->name, "demo-coop");
	type("o-r");
	assert_string_equal(screen_group(&s)->name, "demo-range");
	keys_handle(&s, KEY_BACKSPACE, &a);
	keys_handle(&s, KEY_BACKSPACE, &a);
	assert_string_equal(screen_group(&s)->name, "demo-coop");
	render_frame(&s);
	assert_true(screen_has("search groups (Enter keeps, Esc cancels): /demo "));
	assert_true(screen_has("2 groups"));
	keys_handle(&s, '\n', &a);
	assert_false(s.search_edit);
	keys_handle(&s, 'n', &a);
	assert_string_equal(screen_group(&s)->name, "demo-range");
	keys_handle(&s, 'n', &a);
	assert_string_equal(screen_group(&s)->name, "demo-coop"); /* wraps */
	keys_handle(&s, 'N', &a);
	assert_string_equal(screen_group(&s)->name, "demo-range");
	/* the match is marked in the list */
	render_frame(&s);
	{
		char *text, *attrs;
		dump_screen(stdscr, &text, &attrs);
		assert_non_null(strstr(attrs, "underline reverse"));
		free(text);
		free(attrs);
	}
	/* Esc while typing goes back to where the search began */
	keys_handle(&s, KEY_F(3), &a);
	type("ledger");
	assert_string_equal(screen_group(&s)->name, "payments-ledger");
	keys_handle(&s, 27, &a);
	assert_string_equal(screen_group(&s)->name, "demo-range");
	assert_string_equal(s.search, "");
	keys_handle(&s, 'n', &a);
	assert_non_null(strstr(s.status, "/ searches first"));
	/* the events of demo-coop, shown alone: the search is the view's */
	keys_handle(&s, 'k', &a);
	assert_string_equal(screen_group(&s)->name, "demo-coop");
	keys_handle(&s, '4', &a);
	keys_handle(&s, '\n', &a);
	assert_true(s.maximized);
	render_frame(&s);
	keys_handle(&s, '/', &a);
	assert_true(s.search_in_view);
	type("revoked");
	keys_handle(&s, '\n', &a);
	first = s.search_hit;
	assert_true(first >= 0);
	keys_handle(&s, 'n', &a);
	hit = s.search_hit;
	assert_true(hit > first);
	render_frame(&s);
	assert_true(screen_has("revoked"));
	keys_handle(&s, 'N', &a);
	assert_int_equal(s.search_hit, first);
	keys_handle(&s, '/', &a);
	type("no such event text");
	assert_int_equal(s.search_hit, -1);
	render_frame(&s);
	assert_true(screen_has("not found"));
	keys_handle(&s, 27, &a);
	keys_handle(&s, 27, &a); /* back to the groups */
	assert_false(s.maximized);
	s.view = UI_VIEW_TIMELINE;
	s.status[0] = '\0';
}

/* Pause, scrub back and forth within the history, resume. */
static void
test_keys_pause(void **state)
{
	ui_action a;
	(void)state;
	s.view = UI_VIEW_GRID;
	/* left pauses and scrubs, as less stops following: one clock, PAUSED and how far back */
	keys_handle(&s, KEY_LEFT, &a);
	assert_true(s.paused);
	assert_int_equal(s.offset_us, 5 * SEC);
	keys_handle(&s, KEY_LEFT, &a);
	assert_int_equal(s.offset_us, 10 * SEC);
	assert_int_equal(screen_view_time(&s), s.snap->time_us - 10 * SEC);
	render_frame(&s);
	assert_true(screen_has(" PAUSED -10s"));
	assert_false(screen_has("every 1s"));
	assert_false(screen_has("HISTORY"));
	assert_true(screen_has("p resumes live"));
	keys_handle(&s, KEY_RIGHT, &a);
	keys_handle(&s, KEY_RIGHT, &a);
	keys_handle(&s, KEY_RIGHT, &a);
	assert_int_equal(s.offset_us, 0);
	keys_handle(&s, KEY_LEFT, &a);
	keys_handle(&s, 'p', &a);
	assert_false(s.paused);
	assert_int_equal(s.offset_us, 0);
	resize_term(24, 200);
	render_frame(&s);
	assert_true(screen_has("every 1s"));
	resize_term(24, 80);
	/* the timeline's step: eight columns */
	s.view = UI_VIEW_TIMELINE;
	keys_handle(&s, KEY_LEFT, &a);
	assert_true(s.paused);
	assert_int_equal(s.offset_us, timeline_scale_us(&s) * 8);
	keys_handle(&s, '0', &a);
	assert_int_equal(s.offset_us, 0);
	keys_handle(&s, 'p', &a);
	assert_false(s.paused);
	/* [ jumps to the previous rebalance of the selected group */
	util_strlcpy(s.selected, "demo-coop", sizeof s.selected);
	screen_order(&s);
	keys_handle(&s, '[', &a);
	assert_true(s.offset_us > 0);
	assert_true(s.paused);
	assert_true(screen_view_time(&s) > SCENE_T0 + 12 * SEC);
	keys_handle(&s, '0', &a);
	keys_handle(&s, 'p', &a);
}

/*
 * Issue 11, finding 8: paused just after an episode began, [ (the
 * previous rebalance) never moves the view forward; the status line's
 * times are the header's (from the same snapshot time, "-12s").
 */
static void
test_keys_back_never_forward(void **state)
{
	kg_episode *ep;
	int nep;
	int64_t before;
	ui_action a;
	(void)state;
	util_strlcpy(s.selected, "billing-events", sizeof s.selected);
	screen_order(&s);
	nep = history_episodes(s.hist, screen_group(&s)->id, &ep);
	assert_true(nep >= 1);
	s.info = &info;
	s.paused = true;
	s.jump_start_us = 0;
	/* the view half a second after the last episode began: less than the jump's lead */
	s.offset_us = s.snap->time_us - (ep[nep - 1].start_us + 500000);
	before = screen_view_time(&s);
	keys_handle(&s, '[', &a);
	assert_int_equal(s.jump_start_us, ep[nep - 1].start_us);
	assert_true(screen_view_time(&s) <= before);
	assert_non_null(strstr(s.status, "began -"));
	assert_non_null(strstr(s.status, "shown at -"));
	episodes_free(ep, nep);
	s.offset_us = 0;
	s.paused = false;
	s.jump_start_us = 0;
}

/* Repeated [ walks back episode by episode, ] forward again, paused and in a replay. */
static void
test_keys_walk(void **state)
{
	kg_ui_info replay = { .replay = true };
	kg_episode *ep;
	int nep, k, pass;
	ui_action a;
	(void)state;
	/* billing-events rebalances repeatedly (the storm) */
	util_strlcpy(s.selected, "billing-events", sizeof s.selected);
	screen_order(&s);
	nep = history_episodes(s.hist, screen_group(&s)->id, &ep);
	assert_true(nep >= 3);
	for (pass = 0; pass < 2; pass++) {
		s.info = pass == 0 ? &info : &replay;
		s.offset_us = 0;
		s.paused = false;
		s.jump_start_us = 0;
		/* back: each press shows the episode before the last one shown */
		for (k = nep - 1; k >= 0; k--) {
			keys_handle(&s, '[', &a);
			assert_string_equal(a.kind, "");
			assert_true(s.paused);
			assert_int_equal(s.jump_start_us, ep[k].start_us);
			assert_true(screen_view_time(&s) >= ep[k].start_us);
		}
		keys_handle(&s, '[', &a);
		assert_int_equal(s.jump_start_us, ep[0].start_us);
		if (pass == 0) {
			assert_non_null(strstr(s.status, "no earlier rebalance"));
		} else {
			/* in a replay, the recording says where the previous one it holds is */
			assert_string_equal(a.kind, "replay");
			assert_string_equal(a.cmd, "prev-rebalance");
		}
		/* forward again */
		for (k = 1; k < nep; k++) {
			keys_handle(&s, ']', &a);
			assert_int_equal(s.jump_start_us, ep[k].start_us);
		}
		keys_handle(&s, ']', &a);
		if (pass == 0) {
			assert_non_null(strstr(s.status, "no later rebalance"));
		} else {
			/* in a replay, past the history the replay plays on to the next recorded one */
			assert_string_equal(a.kind, "replay");
			assert_string_equal(a.cmd, "next-rebalance");
			assert_false(s.paused);
			assert_int_equal(s.offset_us, 0);
		}
	}
	episodes_free(ep, nep);
	s.info = &info;
	s.paused = false;
	s.offset_us = 0;
}

/* Demo and replay keys become collector commands for the selected group. */
static void
test_keys_commands(void **state)
{
	ui_action a;
	kg_ui_info replay = { .replay = true };
	(void)state;
	util_strlcpy(s.selected, "demo-coop", sizeof s.selected);
	screen_order(&s);
	keys_handle(&s, 'a', &a);
	assert_string_equal(a.kind, "demo");
	assert_string_equal(a.cmd, "add-member demo-coop");
	keys_handle(&s, 'c', &a);
	assert_string_equal(a.cmd, "crash demo-coop");
	keys_handle(&s, 'x', &a);
	assert_string_equal(a.cmd, "stall demo-coop");
	keys_handle(&s, 'l', &a);
	assert_string_equal(a.cmd, "leave demo-coop");
	keys_handle(&s, 'A', &a);
	assert_string_equal(a.cmd, "assignor roundrobin");
	/* P asks; the footer follows the demo's answer, not the key (wide: every key fits) */
	resize_term(24, 200);
	keys_handle(&s, 'P', &a);
	assert_string_equal(a.cmd, "pause-script");
	assert_false(s.demo_paused);
	screen_reply(&s, "scenario manual has no script");
	assert_false(s.demo_paused);
	render_frame(&s);
	assert_true(screen_has("P pause script"));
	assert_true(screen_has("scenario manual has no script"));
	screen_reply(&s, "script paused");
	assert_true(s.demo_paused);
	render_frame(&s);
	assert_true(screen_has("P resume"));
	keys_handle(&s, 'P', &a);
	assert_string_equal(a.cmd, "resume-script");
	screen_reply(&s, "script resumed");
	assert_false(s.demo_paused);
	resize_term(24, 80);
	keys_handle(&s, 'r', &a);
	assert_true(a.refresh);
	s.info = &replay;
	keys_handle(&s, ' ', &a);
	assert_string_equal(a.kind, "replay");
	assert_string_equal(a.cmd, "toggle");
	keys_handle(&s, '>', &a);
	assert_string_equal(a.cmd, "faster");
	keys_handle(&s, 'a', &a); /* no demo: nothing */
	assert_string_equal(a.kind, "");
	/* a replay has nothing to refresh: neither the key nor the footer offer it */
	keys_handle(&s, 'r', &a);
	assert_false(a.refresh);
	resize_term(24, 200); /* room for every footer key */
	render_frame(&s);
	assert_true(screen_has("T theme"));
	assert_false(screen_has("r refresh"));
	s.info = &info;
	render_frame(&s);
	assert_true(screen_has("r refresh"));
	resize_term(24, 80);
}

/* A message too long for the status line wraps onto a second line, the start first. */
static void
test_status_wrap(void **state)
{
	char row[1024];
	(void)state;
	s.view = UI_VIEW_GRID;
	screen_reply(&s, "demo-range uses another assignor: librdkafka 2.0.2's mock cluster aborts when one group "
			 "mixes assignors (empty the group first, or use a real cluster)");
	render_frame(&s);
	assert_int_equal(s.lay.status.h, 2);
	row_text(21, row, sizeof row);
	assert_non_null(strstr(row, " demo-range uses another assignor:"));
	row_text(22, row, sizeof row);
	assert_non_null(strstr(row, "use a real cluster)"));
	s.status[0] = '\0';
	render_frame(&s);
	assert_int_equal(s.lay.status.h, 1);
}

/* The demo opens on the timeline, which tells its story; elsewhere the grid. */
static void
test_demo_view(void **state)
{
	ui_screen t;
	kg_ui_info live = { .cluster = "x" };
	(void)state;
	screen_init(&t, &opts, &info, s.hist);
	assert_int_equal(t.view, UI_VIEW_TIMELINE);
	screen_free(&t);
	screen_init(&t, &opts, &live, s.hist);
	assert_int_equal(t.view, UI_VIEW_GRID);
	screen_free(&t);
}

/* Health gauges: an empty bar at zero, one block for a sliver, full at the limit. */
static void
test_gauge(void **state)
{
	(void)state;
	assert_int_equal(health_gauge_fill(0, 4 * SEC, 8), 0);
	assert_int_equal(health_gauge_fill(400, 4 * SEC, 8), 0); /* reads 0ms */
	assert_int_equal(health_gauge_fill(100000, 4 * SEC, 8), 1);
	assert_int_equal(health_gauge_fill(2 * SEC, 4 * SEC, 8), 4);
	assert_int_equal(health_gauge_fill(9 * SEC, 4 * SEC, 8), 8);
}

/* The footer shows the demo controls; help lists every key; zoom is bounded. */
static void
test_footer_help(void **state)
{
	ui_action a;
	const char *lines[96][2];
	char row[256];
	int n, i;
	(void)state;
	s.view = UI_VIEW_GRID;
	render_frame(&s);
	assert_true(screen_has("a add"));
	assert_true(screen_has("? help"));
	/* at 80 columns the demo's member keys and the view's main keys stay; p and P never side by side */
	s.view = UI_VIEW_TIMELINE;
	render_frame(&s);
	row_text(23, row, sizeof row);
	assert_non_null(strstr(row, "+- zoom"));
	assert_non_null(strstr(row, "m per partition"));
	assert_non_null(strstr(row, "a add"));
	assert_non_null(strstr(row, "l leave"));
	assert_non_null(strstr(row, "c crash"));
	assert_non_null(strstr(row, "x stall"));
	/* wide: every key, and twins apart */
	resize_term(24, 200);
	render_frame(&s);
	row_text(23, row, sizeof row);
	assert_non_null(strstr(row, "P pause script"));
	assert_non_null(strstr(row, "p pause"));
	assert_non_null(strstr(row, "A assignor"));
	assert_null(strstr(row, "P pause script p pause"));
	assert_null(strstr(row, "p pause P pause script"));
	assert_null(strstr(row, "a add A assignor"));
	assert_null(strstr(row, "A assignor a add"));
	resize_term(24, 80);
	s.view = UI_VIEW_GRID;
	n = keys_help(&s, lines, 96);
	assert_true(n > 20);
	for (i = 0; i < n; i++)
		assert_true(strlen(lines[i][1]) > 0);
	/* help: F1 opens it, PgDn pages it, other keys do not close it, Esc, q and ? do (q does not quit) */
	keys_handle(&s, KEY_F(1), &a);
	render_frame(&s);
	assert_true(screen_has("kgtop keys"));
	assert_true(screen_has("PgDn PgUp space: page (1-"));
	keys_handle(&s, KEY_NPAGE, &a);
	assert_true(s.help);
	assert_true(s.help_top > 0);
	render_frame(&s);
	assert_false(screen_has("page (1-"));
	keys_handle(&s, ' ', &a);
	keys_handle(&s, KEY_PPAGE, &a);
	keys_handle(&s, 'z', &a);
	assert_true(s.help);
	keys_handle(&s, 'q', &a);
	assert_false(s.help);
	assert_false(a.quit);
	keys_handle(&s, '?', &a);
	keys_handle(&s, '?', &a);
	assert_false(s.help);
	keys_handle(&s, '?', &a);
	keys_handle(&s, 27, &a);
	assert_false(s.help);
	/* F10 quits from anywhere */
	keys_handle(&s, '?', &a);
	keys_handle(&s, KEY_F(10), &a);
	assert_true(a.quit);
	s.help = false;
	keys_handle(&s, KEY_F(10), &a);
	assert_true(a.quit);
	/* the timeline's zoom, from 100 ms to 5 min a column; in another view + and - are not its */
	s.view = UI_VIEW_TIMELINE;
	for (i = 0; i < 20; i++)
		keys_handle(&s, '+', &a);
	assert_int_equal(timeline_scale_us(&s), SEC / 10);
	for (i = 0; i < 20; i++)
		keys_handle(&s, '-', &a);
	assert_int_equal(timeline_scale_us(&s), 300 * SEC);
	s.view = UI_VIEW_GRID;
	keys_handle(&s, '+', &a);
	assert_int_equal(timeline_scale_us(&s), 300 * SEC);
	timeline_of(&s)->zoom = 2;
	timeline_of(&s)->auto_zoom = true; /* as it starts: the scale fits the history */
}

/* Cluster strings never reach the terminal raw. */
static void
test_sanitize(void **state)
{
	char row[1024];
	int w;
	(void)state;
	text_frame_begin();
	w = text_put(&s, 0, 0, 80, 0, "a\x1b[31mb\x07\xff\xc2\x9b\xe2\x80\xaez\xe6\x97\xa5", 0);
	text_frame_end();
	row_text(0, row, sizeof row);
	assert_string_equal(row, "a?[31mb????z\xe6\x97\xa5"); /* U+202E (right-to-left override) too */
	assert_int_equal(w, 14);
	s.ascii = true;
	text_frame_begin();
	text_put(&s, 0, 0, 80, 0, "gr\xc3\xbc\xc3\x9f \xe2\x96\x88", 0);
	text_frame_end();
	row_text(0, row, sizeof row);
	assert_string_equal(row, "gr?? ?");
	s.ascii = false;
	/* cut at the width, with an ellipsis when asked */
	text_frame_begin();
	w = text_put(&s, 0, 0, 5, 0, "abcdefgh", TEXT_ELLIPSIS);
	assert_int_equal(w, 5);
	text_frame_end();
	row_text(0, row, sizeof row);
	assert_string_equal(row, "abcd\xe2\x80\xa6");
	/* a double-width character never straddles the edge */
	text_frame_begin();
	w = text_put(&s, 0, 0, 3, 0, "a\xe6\x97\xa5\xe6\x9c\xac", 0);
	assert_int_equal(w, 3);
	text_frame_end();
	row_text(0, row, sizeof row);
	assert_string_equal(row, "a\xe6\x97\xa5");
}

/* One frame of text drawn over itself, the same for the same seed: narrow and double-width, cut, blanked. */
static void
random_frame(unsigned seed)
{
	static const char *const words[] = { "a", "abc", "\xe6\x97\xa5\xe6\x9c\xac", "x\xe6\x97\xa5y", "\xe2\x9a\xa1",
					      "  ", "group-0001", "\xe2\x96\x88\xe2\x96\x88", "7m25s", "\xe6\x97\xa5" };
	int i;
	for (i = 0; i < 14; i++) {
		int y, x, kind;
		attr_t a;
		seed = seed * 1103515245u + 12345u;
		y = (int)((seed >> 16) % 5);
		x = (int)((seed >> 8) % 24);
		kind = (int)(seed % 5);
		a = (seed >> 4) & 1 ? A_BOLD : A_NORMAL;
		if (kind == 0)
			text_blank(y, x, 1 + (int)((seed >> 12) % 5), a);
		else if (kind == 1)
			text_fill(&s, y, x, 1 + (int)((seed >> 12) % 4), a, (seed >> 13) & 1 ? G_STORM : G_HLINE);
		else
			text_put(&s, y, x, 1 + (int)((seed >> 10) % 12), a, words[(seed >> 20) % KG_ARRAY_LEN(words)],
				 (seed >> 3) & 1 ? TEXT_ELLIPSIS : 0);
	}
}

/*
 * A frame hands curses only the cells that changed, and the screen then
 * shows what a frame drawn on a blank screen shows: 400 frames of text
 * over text (double-width characters cut in half by what is drawn over
 * them, frames drawn again unchanged), each compared, text and
 * attributes, with the same frame drawn from scratch; an unchanged frame
 * hands none, the dashboard's frame a second later only its clock's line.
 */
static void
test_frame_changed_cells(void **state)
{
	unsigned seed = 7, last = 0;
	char *t1, *a1, *t2, *a2;
	long full, pushed;
	int f, same = 0, fewer = 0;
	(void)state;
	for (f = 0; f < 400; f++) {
		if (f % 5 != 4)
			seed = seed * 2654435761u + (unsigned)f; /* every fifth frame: the last one again */
		text_frame_begin();
		random_frame(seed);
		text_frame_end();
		pushed = text_frame_pushed();
		dump_screen(stdscr, &t1, &a1);
		text_frame_forget();
		werase(stdscr);
		text_frame_begin();
		random_frame(seed);
		text_frame_end();
		full = text_frame_pushed();
		dump_screen(stdscr, &t2, &a2);
		assert_string_equal(t1, t2);
		assert_string_equal(a1, a2);
		assert_int_equal(full, (long)LINES * COLS);
		if (seed == last) {
			assert_int_equal(pushed, 0);
			same++;
		} else {
			assert_true(pushed <= 5 * COLS); /* random_frame() draws on the first 5 lines */
			fewer += pushed < 5 * COLS;
		}
		last = seed;
		free(t1);
		free(a1);
		free(t2);
		free(a2);
	}
	assert_int_equal(same, 80);
	assert_true(fewer > 300);

	/* the dashboard: drawn again unchanged, nothing; a second later, the clock's line */
	render_frame(&s);
	render_frame(&s);
	assert_int_equal(text_frame_pushed(), 0);
	s.now_us += SEC;
	render_frame(&s);
	pushed = text_frame_pushed();
	assert_true(pushed > 0);
	assert_true(pushed <= COLS);
	dump_screen(stdscr, &t1, &a1);
	text_frame_forget();
	werase(stdscr);
	render_frame(&s);
	dump_screen(stdscr, &t2, &a2);
	assert_string_equal(t1, t2);
	assert_string_equal(a1, a2);
	free(t1);
	free(a1);
	free(t2);
	free(a2);
	s.now_us -= SEC;
}

/* ASCII mode draws nothing outside ASCII, in every view. */
static void
test_ascii_everywhere(void **state)
{
	const char *groups[] = { "demo-range", "demo-coop", "payments-ledger", "weird" };
	size_t gi;
	int v, m;
	ui_action a;
	(void)state;
	s.ascii = true;
	for (gi = 0; gi < KG_ARRAY_LEN(groups); gi++) {
		int i;
		for (i = 0; i < s.norder; i++) {
			if (strncmp(s.snap->groups[s.order[i]].name, groups[gi], strlen(groups[gi])) == 0)
				util_strlcpy(s.selected, s.snap->groups[s.order[i]].name, sizeof s.selected);
		}
		screen_order(&s);
		for (v = 0; v < UI_VIEW_COUNT; v++) {
			for (m = 0; m < 2; m++) {
				char *text, *attrs, *p;
				s.view = (ui_view_id)v;
				if (m)
					view_keys(&s, s.view, "m"); /* by partition, where the view has it */
				s.help = m && v == 0;
				render_frame(&s);
				dump_screen(stdscr, &text, &attrs);
				for (p = text; *p; p++) {
					if ((unsigned char)*p >= 0x80)
						fail_msg("non-ASCII byte in view %d of %s", v, groups[gi]);
				}
				free(text);
				free(attrs);
				if (m)
					view_keys(&s, s.view, "m"); /* and back */
			}
		}
	}
	keys_handle(&s, 'z', &a);
	s.help = false;
	s.ascii = false;
}

/* Any size from 1x1 up draws without crashing; small ones say so. */
static void
test_resize(void **state)
{
	static const int sizes[][2] = { { 1, 1 },   { 5, 20 },  { 11, 40 }, { 12, 39 }, { 12, 40 }, { 20, 60 },
					{ 23, 80 }, { 24, 79 }, { 24, 80 }, { 30, 100 }, { 48, 160 }, { 60, 250 },
					{ 24, 80 } };
	size_t i;
	int v, m;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(sizes); i++) {
		resize_term(sizes[i][0], sizes[i][1]);
		for (m = 0; m < 2; m++) {
			s.maximized = m == 1;
			for (v = 0; v < UI_VIEW_COUNT; v++) {
				s.view = (ui_view_id)v;
				render_frame(&s);
				/* from 40x12 up a screen, never the refusal; under it the refusal (where it fits) */
				if (sizes[i][0] < 12 || sizes[i][1] < 40)
					assert_true(sizes[i][1] < 25 || screen_has("terminal too small"));
				else
					assert_false(screen_has("terminal too small"));
				/* one pane at a time under 80x24: the list, or the view and its tabs */
				if (sizes[i][0] >= 12 && sizes[i][1] >= 40 && (sizes[i][0] < 24 || sizes[i][1] < 80)) {
					assert_true(m == 0 ? screen_has("GROUP (") : !screen_has("GROUP ("));
					assert_true(m == 0 ? screen_has("Enter view") : screen_has("Esc groups"));
				}
			}
		}
	}
	s.maximized = false;
	s.view = UI_VIEW_GRID;
}

/* The note of one lane, as a string, without a width limit (during and at_end; at_start when both). */
static const char *
note(const kg_episode *e, const kg_episode_member *m, bool during, bool at_end)
{
	static char buf[256];
	sbuf b = { 0 };
	ui_lane_facts f = { .during = during, .at_start = during && at_end, .at_end = at_end };
	timeline_member_note(&s, e, m, &f, true, 0, &b);
	util_strlcpy(buf, sbuf_str(&b), sizeof buf);
	sbuf_free(&b);
	return buf;
}

/* Timeline notes follow the episode's member records. */
static void
test_timeline_notes(void **state)
{
	int32_t t = intern_topic("notes");
	kg_tp p0[] = { { t, 0 }, { t, 1 } }, p1[] = { { t, 1 } };
	kg_episode e;
	kg_episode_member m;
	(void)state;
	memset(&e, 0, sizeof e);
	e.rounds = 2;
	/* no record: untouched when it was there, and a note when it was not */
	assert_string_equal(note(&e, NULL, true, true), "untouched");
	assert_string_equal(note(&e, NULL, false, false), "left before it");
	/* left just before the episode, holding [0 1] */
	memset(&m, 0, sizeof m);
	m.left = true;
	m.before = p0;
	m.nbefore = 2;
	assert_string_equal(note(&e, &m, false, false), "left, had [0 1]");
	/* joined, then left again before the end */
	memset(&m, 0, sizeof m);
	m.joined = m.left = true;
	assert_string_equal(note(&e, &m, true, false), "joined, left");
	/* left and came back: rejoined, with what it got */
	m.assigned = p1;
	m.nassigned = 1;
	m.round_assigned = 2;
	assert_string_equal(note(&e, &m, true, true), "left, rejoined, got [1] in round 2");
	/* a full revoke, then gone: it left, and had what it gave */
	memset(&m, 0, sizeof m);
	m.cls = KG_CLASS_FULL;
	m.before = m.revoked = p0;
	m.nbefore = m.nrevoked = 2;
	m.left = true;
	assert_string_equal(note(&e, &m, true, false), "left, had [0 1]");
	/* incremental: kept, gave, got */
	memset(&m, 0, sizeof m);
	m.cls = KG_CLASS_INCREMENTAL;
	m.before = p0;
	m.nbefore = 2;
	m.revoked = p1;
	m.nrevoked = 1;
	m.round_revoked = 1;
	assert_string_equal(note(&e, &m, true, true), "kept [0], gave [1] in round 1");
	/* a record with nothing in it */
	memset(&m, 0, sizeof m);
	assert_string_equal(note(&e, &m, true, true), "untouched");
}

/* --- grid and health views: what each mark and status means, in words --- */

/* Select the group whose name starts with prefix; returns it (mutable: tests change and restore fields). */
static kg_group *
pick_group(const char *prefix)
{
	int i;
	for (i = 0; i < s.snap->ngroups; i++) {
		if (strncmp(s.snap->groups[i].name, prefix, strlen(prefix)) == 0) {
			util_strlcpy(s.selected, s.snap->groups[i].name, sizeof s.selected);
			screen_order(&s);
			return &s.snap->groups[i];
		}
	}
	fail_msg("no group %s", prefix);
	return NULL;
}

/* Index of the member with this client id. */
static int
member_index(const kg_group *g, const char *client_id)
{
	int i;
	for (i = 0; i < g->nmembers; i++) {
		if (strcmp(g->members[i].client_id, client_id) == 0)
			return i;
	}
	fail_msg("no member %s", client_id);
	return -1;
}

/* First screen row holding all of the needles (the second may be NULL), -1 when none. */
static int
find_row(const char *a, const char *b)
{
	char row[1024];
	int y;
	for (y = 0; y < LINES; y++) {
		row_text(y, row, sizeof row);
		if (strstr(row, a) != NULL && (b == NULL || strstr(row, b) != NULL))
			return y;
	}
	return -1;
}

/* Column of needle in row y (in characters of the row's text, which is its screen column for ASCII). */
static int
find_col(int y, const char *needle)
{
	char row[1024], *p;
	row_text(y, row, sizeof row);
	p = strstr(row, needle);
	return p != NULL ? (int)(p - row) : -1;
}

/* The attributes (colour pair included) of the cell at y, x. */
static attr_t
cell_attr(int y, int x)
{
	return (attr_t)(mvwinch(stdscr, y, x) & (A_ATTRIBUTES | A_COLOR));
}

/* An idle member (nothing owned while the group is stable) stands out in its row, and the legend says why. */
static void
test_grid_idle_member(void **state)
{
	kg_group *g;
	int d, c, k, y, x, p5 = -1;
	kg_member_status was;
	(void)state;
	s.view = UI_VIEW_GRID;
	g = pick_group("demo-range");
	d = member_index(g, "consumer-d");
	c = member_index(g, "consumer-c");
	/* consumer-d gives its partition to consumer-c and owns nothing */
	for (k = 0; k < g->nparts; k++) {
		if (g->parts[k].owner == d)
			p5 = k;
	}
	assert_true(p5 >= 0);
	g->parts[p5].owner = c;
	was = g->members[d].status;
	g->members[d].status = KG_MEMBER_IDLE;
	render_frame(&s);
	/* its matrix row (the one with cells) carries the word, in the warning attribute */
	y = find_row("D consumer-d", "idle");
	assert_true(y >= 0);
	assert_true(find_row("D consumer-d", "\xc2\xb7") == y); /* the matrix row, not the member list */
	x = find_col(y, "idle");
	assert_int_equal(cell_attr(y, x), s.attr[UI_EL_GAUGE_WARN] & (A_ATTRIBUTES | A_COLOR));
	/* the member list explains it: 4 members, 6 partitions */
	assert_true(find_row("D consumer-d", "idle: no partitions assigned") >= 0);
	/* the other rows carry no tag */
	assert_int_equal(find_row("A consumer-a", "idle"), -1);
	/* with no colour the word is still there */
	s.colour = false;
	render_theme_apply(&s);
	render_frame(&s);
	assert_true(find_row("D consumer-d", "idle") >= 0);
	s.colour = true;
	render_theme_apply(&s);
	g->members[d].status = was;
	g->parts[p5].owner = d;
	/* more members than partitions: the member list says so */
	g = pick_group("search-indexer");
	was = g->members[0].status;
	g->members[0].status = KG_MEMBER_IDLE;
	render_frame(&s);
	assert_true(find_row("A indexer-1", "idle") >= 0);
	g->members[0].status = was;
}

/* The key explains the marks drawn, in the words of the layout shown; glyphs mean one thing. */
static void
test_grid_key(void **state)
{
	(void)state;
	s.view = UI_VIEW_GRID;
	pick_group("demo-range");
	render_frame(&s);
	/* in the matrix a dot is another member's partition, not an unconsumed one */
	assert_true(screen_has("\xc2\xb7 not this member's"));
	assert_false(screen_has("unconsumed"));
	assert_true(screen_has("\xe2\x86\x90 new: got it in the last rebalance"));
	assert_true(screen_has("\xc3\x97 revoked from it in the last rebalance"));
	/* no orphan, nothing in flight, no static member here: not explained */
	assert_false(screen_has("orphaned"));
	assert_false(screen_has("static"));
	/* +N says what it counts */
	assert_true(find_row("D consumer-d", "+1 new") >= 0);
	/* an Empty group's partitions are unconsumed, with a glyph of their own */
	pick_group("audit-archiver");
	render_frame(&s);
	assert_true(screen_has("- unconsumed"));
	assert_true(find_row("(no owner)", "-  -  -") >= 0);
	assert_false(screen_has("(no owner)       \xc2\xb7"));
	/* the map: no arrows or crosses there, new partitions are underlined */
	view_keys(&s, UI_VIEW_GRID, "m");
	pick_group("demo-range");
	render_frame(&s);
	assert_true(screen_has("underlined new: got it in the last rebalance"));
	assert_false(screen_has("\xc3\x97 revoked"));
	assert_false(screen_has("not this member's"));
	view_keys(&s, UI_VIEW_GRID, "m");
	/* in ASCII the blank cell says so */
	s.ascii = true;
	render_frame(&s);
	assert_true(screen_has("(blank) not this member's"));
	s.ascii = false;
}

/* Statuses in the member list say what they are. */
static void
test_grid_status_words(void **state)
{
	kg_group *g;
	int a;
	kg_member_status was;
	(void)state;
	s.view = UI_VIEW_GRID;
	g = pick_group("demo-coop");
	a = member_index(g, "consumer-a");
	was = g->members[a].status;
	g->members[a].status = KG_MEMBER_PARTIAL;
	render_frame(&s);
	assert_true(find_row("A consumer-a", "partly stopped (rebalancing)") >= 0);
	g->members[a].status = KG_MEMBER_STOPPED;
	render_frame(&s);
	assert_true(find_row("A consumer-a", "stopped (rebalancing)") >= 0);
	g->members[a].status = was;
}

/*
 * The lag view (issue 10): payments-ledger's partitions worst first (LOST,
 * then STALLED with since, then by time lag), the time lag's kinds and
 * the reason of an unknown one in the key; shown alone it is searched
 * row by row (n goes on, wrapping), and a list longer than the screen
 * scrolls to its last row.
 */
static void
test_lag_view(void **state)
{
	ui_action a;
	int y1, y2, i;
	kg_group *g;
	(void)state;
	pick_group("payments-ledger");
	keys_handle(&s, 'L', &a);
	assert_int_equal(s.view, UI_VIEW_LAG);
	render_frame(&s);
	assert_true(screen_has("6 partitions  1 LOST  1 STALLED  4 OK"));
	y1 = find_row(" ledger ", "LOST 500");
	y2 = find_row(" payments ", "STALLED 22:13:24-25"); /* between two refreshes */
	assert_true(y1 >= 0 && y2 == y1 + 1); /* the worst first */
	assert_true(find_row(" payments ", " 2.5s ") == y2 + 1); /* the exact time lag, then the estimates */
	assert_true(find_row(" payments ", "~1.9s") > y2);
	assert_true(screen_has("- no time lag: 1 record deleted"));
	/* alone, searched: the STALLED row, then n wraps round to it again */
	keys_handle(&s, '\n', &a);
	assert_true(s.maximized);
	keys_handle(&s, '/', &a);
	assert_true(s.search_in_view);
	type("STALLED");
	keys_handle(&s, '\n', &a);
	assert_int_equal(s.search_hit, 1);
	keys_handle(&s, 'n', &a);
	assert_int_equal(s.search_hit, 1);
	type("N");
	assert_int_equal(s.search_hit, 1);
	keys_handle(&s, 27, &a); /* Esc: the search, then the view alone */
	keys_handle(&s, 27, &a);
	/* more partitions than rows: End shows the last one */
	g = pick_group("payments-ledger");
	resize_term(12, 60);
	keys_handle(&s, '\n', &a);
	render_frame(&s);
	keys_handle(&s, KEY_END, &a);
	render_frame(&s);
	assert_true(s.scroll > 0);
	assert_true(find_row(" ledger ", "~1.9s") >= 0); /* the last row: ledger-0, the least lag */
	for (i = 0; i < g->nparts; i++)
		assert_true(g->parts[i].verdict < KG_VERDICT_COUNT);
	keys_handle(&s, 27, &a);
	resize_term(24, 80);
	s.view = UI_VIEW_GRID;
	s.scroll = 0;
	s.maximized = false;
}

/*
 * Progress on the other views (issue 10): the timeline's marker row has
 * payments-ledger's verdict changes (LOST, STALLED) where they happened
 * and the legend explains them; the grid marks the frozen and the lost
 * partitions beside their owners' letters, and # shows their lag.
 */
static void
test_verdict_marks(void **state)
{
	ui_action a;
	char row[1024];
	int y;
	(void)state;
	pick_group("payments-ledger");
	keys_handle(&s, 't', &a);
	resize_term(40, 120);
	render_frame(&s);
	y = find_row(" episodes ", "=");
	assert_true(y >= 0);
	row_text(y, row, sizeof row);
	assert_non_null(strchr(row, '*'));
	assert_true(screen_has("* LOST  = STALLED or STOPPED"));
	keys_handle(&s, 'o', &a);
	render_frame(&s);
	assert_true(find_row("A worker-1", "=A") >= 0);
	assert_true(find_row("B worker-2", "*B") >= 0);
	assert_true(screen_has("= STALLED or STOPPED: commits frozen with lag"));
	keys_handle(&s, '#', &a);
	render_frame(&s);
	assert_true(find_row("A worker-1", "=4.9k") >= 0);
	assert_true(screen_has("the partition's lag (# for letters)"));
	keys_handle(&s, '#', &a);
	render_frame(&s);
	assert_false(screen_has("the partition's lag (# for letters)"));
	resize_term(24, 80);
}

/*
 * Worst first, also in the past (issue 26): scrubbed back to a moment,
 * every row of the list shows the verdict its group had then, as the same
 * scene run only up to that moment says it (ground truth: its snapshot),
 * and the rows are in that moment's worst-first order; a moment before
 * the history knew a verdict shows none (not "-", which means "not
 * judged").
 */
static void
test_scrub_verdicts(void **state)
{
	ui_scene then;
	int64_t t1 = SCENE_T0 + 7 * SEC; /* payments-ledger OK then, LOST from 8 s */
	int i, differ = 0, y;
	char want[64], row[1024];
	(void)state;
	scene_init(&then);
	scene_run_until(&then, t1);
	resize_term(40, 120); /* every group's row */
	s.view = UI_VIEW_GRID;
	s.sort = groupcol_sort_default();
	s.paused = true;
	s.offset_us = s.snap->time_us - then.snap->time_us;
	screen_order(&s);
	render_frame(&s);
	assert_true(screen_has("at -"));
	for (i = 0; i < then.snap->ngroups; i++) {
		const kg_group *g = &then.snap->groups[i], *now = snapshot_group_by_name(s.snap, g->name);
		if (strncmp(g->name, "weird", 5) == 0)
			continue; /* its name is sanitized on screen */
		differ += now != NULL && now->verdict != g->verdict;
		snprintf(want, sizeof want, " - %-7s ", verdict_name((kg_verdict)g->verdict)); /* no time lag kept */
		y = find_row(g->name, NULL);
		assert_true(y > 0);
		row_text(y, row, sizeof row);
		if (strstr(row, want) == NULL)
			fail_msg("%s at -%llds: want \"%s\", the row reads \"%s\"", g->name,
				 (long long)(s.offset_us / SEC), want, row);
	}
	assert_true(differ > 0); /* the moment chosen says something else than now */
	/* worst first then: each row's verdict no better than the next one's */
	for (i = 0; i + 1 < s.norder; i++) {
		const kg_group *a = snapshot_group_by_name(then.snap, s.snap->groups[s.order[i]].name);
		const kg_group *b = snapshot_group_by_name(then.snap, s.snap->groups[s.order[i + 1]].name);
		if (a != NULL && b != NULL)
			assert_true(a->verdict >= b->verdict);
	}
	/* before the scene began: the history had no verdict; the cells say nothing */
	s.offset_us = s.snap->time_us - SCENE_T0 + SEC;
	screen_order(&s);
	render_frame(&s);
	y = find_row("payments-ledger", NULL);
	row_text(y, row, sizeof row);
	assert_null(strstr(row, " LOST"));
	assert_null(strstr(row, " - "));
	s.offset_us = 0;
	s.paused = false;
	s.sort = groupcol_sort_find("name");
	screen_order(&s);
	scene_free(&then);
	resize_term(24, 80);
}

/* A heartbeat past session.timeout.ms or a poll gap past max.poll.interval.ms shows in words, with a key. */
static void
test_health_late(void **state)
{
	kg_group *g;
	int w;
	kg_member_health was;
	(void)state;
	s.view = UI_VIEW_HEALTH;
	g = pick_group("payments-ledger");
	w = member_index(g, "worker-1");
	was = g->members[w].health;
	render_frame(&s);
	/* its payments-0 froze at 5 s in the scene: not "consuming", but STALLED since then (issue 10) */
	assert_true(find_row("A worker-1", "STALLED") >= 0);
	assert_int_equal(find_row("A worker-1", "consuming"), -1);
	assert_true(screen_has("since 22:13:24-25 on [0]"));
	assert_true(screen_has("STALLED, STOPPED: its partitions' committed offsets froze"));
	assert_false(screen_has("late"));
	g->members[w].health.hb_age_us = g->members[w].health.session_timeout_us + SEC;
	render_frame(&s);
	assert_true(find_row("A worker-1", "heartbeat late") >= 0);
	assert_int_equal(find_row("A worker-1", "STALLED"), -1);
	assert_true(screen_has("heartbeat late: none within session.timeout.ms"));
	g->members[w].health = was;
	g->members[w].health.poll_gap_us = g->members[w].health.max_poll_us + SEC;
	render_frame(&s);
	assert_true(find_row("A worker-1", "poll late") >= 0);
	assert_true(screen_has("poll late: no poll within max.poll.interval.ms"));
	assert_false(screen_has("heartbeat late"));
	/* without colour (the mono attributes) the words carry it alone */
	s.colour = false;
	render_theme_apply(&s);
	render_frame(&s);
	assert_true(find_row("A worker-1", "poll late") >= 0);
	s.colour = true;
	render_theme_apply(&s);
	g->members[w].health = was;
}

/* COORD: the coordinator's id under its title where the list has room (120 columns), not at 80 nor beside a view. */
static void
test_list_coord(void **state)
{
	int y, x;
	(void)state;
	s.view = UI_VIEW_GRID;
	s.sort = groupcol_sort_find("lag"); /* the sort marker (not ASCII) after COORD, so that bytes are columns before it */
	screen_order(&s);
	resize_term(40, 120);
	render_frame(&s);
	y = find_row("GROUP (", "COORD");
	assert_true(y >= 0);
	x = find_col(y, "COORD") + 4;
	assert_true(find_col(y, "PROTO") < x && x < find_col(y, "MEMB"));
	/* every scene group's coordinator is broker 1, right-aligned under the title */
	y = find_row("demo-range", "Stable");
	assert_true(y >= 0);
	assert_int_equal(find_col(y, " 1 ") + 1, x);
	s.sort = groupcol_sort_find("name");
	screen_order(&s);
	resize_term(24, 80);
	render_frame(&s);
	/* at 80 the protocol (in the view's title) gives way to the progress columns (issue 10) */
	assert_true(find_row("GROUP (", "TIME-LAG") >= 0);
	assert_true(find_row("GROUP (", "VERDICT") >= 0);
	assert_int_equal(find_row("GROUP (", "PROTO"), -1);
	assert_int_equal(find_row("GROUP (", "COORD"), -1);
	resize_term(48, 160); /* the list beside the view, under 80 columns: it gives up columns, not names */
	render_frame(&s);
	assert_int_equal(find_row("GROUP (", "PROTO"), -1);
	assert_int_equal(find_row("GROUP (", "COORD"), -1);
	assert_true(find_row("GROUP (", "STATE") >= 0);
	assert_true(find_row("GROUP (", "LAG") >= 0);
	assert_true(screen_has("gr\xc3\xbc\xc3\x9f-\xe6\x97\xa5\xe6\x9c\xac  Stable"));
	resize_term(24, 80);
}

/* Why a member's lane last left gets room of its own, at 80 and 160 columns; so does a departure. */
static void
test_health_last_left(void **state)
{
	kg_group *g;
	int w, y;
	kg_reason was;
	(void)state;
	s.view = UI_VIEW_HEALTH;
	g = pick_group("payments-ledger");
	w = member_index(g, "worker-2");
	was = g->members[w].last_leave;
	g->members[w].last_leave = KG_REASON_MAX_POLL;
	render_frame(&s);
	y = find_row("B worker-2", NULL);
	assert_true(y >= 0);
	assert_true(screen_has("static:ledger-2"));
	assert_true(screen_has("last left: max.poll.interval"));
	assert_true(find_row("C worker-3", "left: max.poll.interval (consumer poll timeout has expired)") >= 0);
	resize_term(48, 160);
	render_frame(&s);
	assert_true(screen_has("static:ledger-2"));
	assert_true(screen_has("last left: max.poll.interval"));
	resize_term(24, 80);
	g->members[w].last_leave = was;
	render_frame(&s);
	assert_false(screen_has("last left"));
}

/* Without heartbeats the hint says what applies: the demo's consumers, --trace kinds, a recording. */
static void
test_health_hint(void **state)
{
	const kg_ui_info *was = s.info;
	kg_ui_info live = { .cluster = "kafka-1:9092" }, rec = { .replay = true, .cluster = "rec.jsonl" };
	char brokers[] = "kafka-1:9092", trace[] = "jolokia:http://app-1:8778/jolokia";
	char *traces[] = { trace };
	(void)state;
	s.view = UI_VIEW_HEALTH;
	pick_group("demo-range");
	render_frame(&s);
	assert_true(screen_has("the demo's consumers report them"));
	assert_false(screen_has("--trace"));
	/* a real cluster: which traces report heartbeats and poll gaps, no demo */
	s.info = &live;
	opts.brokers = brokers;
	render_frame(&s);
	assert_false(screen_has("the demo"));
	assert_true(screen_has("Kafka's admin API does not report them"));
	assert_true(screen_has("--trace jolokia:URL"));
	assert_true(screen_has("--trace jsonl:URL"));
	/* a jolokia trace given: it has not matched this group's members */
	opts.traces.v = traces;
	opts.traces.n = 1;
	render_frame(&s);
	assert_true(screen_has("none yet for this group's members"));
	assert_true(screen_has("the --trace jolokia stream matches members by client id"));
	opts.traces.v = NULL;
	opts.traces.n = 0;
	/* a recording */
	s.info = &rec;
	render_frame(&s);
	assert_true(screen_has("none in this recording"));
	assert_true(screen_has("recorded when kgtop ran the demo, or a --trace jolokia or jsonl stream"));
	assert_false(screen_has("the demo's consumers report them"));
	opts.brokers = NULL;
	s.info = was;
	pick_group("demo-range");
}

/* ------------------------------------------------------------ timeline: scrolling, notes, counts */

/* Row y of stdscr holds needle. */
static bool
row_has(int y, const char *needle)
{
	char row[1024];
	row_text(y, row, sizeof row);
	return strstr(row, needle) != NULL;
}

/* The first screen row at or after y0 whose text starts with prefix, -1 none. */
static int
row_starting(int y0, const char *prefix)
{
	char row[1024];
	int y;
	for (y = y0; y < LINES; y++) {
		row_text(y, row, sizeof row);
		if (strncmp(row, prefix, strlen(prefix)) == 0)
			return y;
	}
	return -1;
}

/*
 * Page down through the timeline of t's selected group, nlanes lanes
 * whose labels scan with fmt (one %d): on every page the axis, the marker
 * row and the legend (saying which of noun show) keep their rows, and each
 * lane shows on some page; PgUp goes back to the top.  The view is shown
 * alone (Enter), so that the paging keys are its own.
 */
static void
page_through(ui_screen *t, const char *fmt, int nlanes, const char *noun)
{
	ui_action a;
	bool *seen = xcalloc((size_t)nlanes, sizeof *seen);
	int page, y, markers, legend, n = 0, k, last = -1;
	char want[64];
	t->scroll = 0;
	t->maximized = true; /* the view alone has the keys: PgDn pages it */
	render_frame(t);
	markers = row_starting(t->lay.view.y, " episodes");
	legend = t->lay.view.y + t->lay.view.h - 1;
	assert_true(markers > t->lay.view.y);
	snprintf(want, sizeof want, "%s 1-", noun);
	assert_true(row_has(legend, want));
	for (page = 0; page < 500 && t->scroll != last; page++) {
		last = t->scroll;
		render_frame(t);
		assert_true(row_has(t->lay.view.y, "/column"));
		assert_true(row_has(t->lay.view.y, " now"));
		assert_int_equal(row_starting(t->lay.view.y, " episodes"), markers);
		assert_true(row_has(legend, "consuming"));
		snprintf(want, sizeof want, " of %d (PgUp PgDn)", nlanes);
		assert_true(row_has(legend, want));
		for (y = markers + 1; y < legend; y++) {
			char row[1024];
			row_text(y, row, sizeof row);
			if (sscanf(row, fmt, &k) == 1 && k >= 0 && k < nlanes && !seen[k]) {
				seen[k] = true;
				n++;
			}
		}
		keys_handle(t, KEY_NPAGE, &a);
	}
	/* no lane skipped from one page to the next */
	assert_int_equal(n, nlanes);
	for (page = 0; page < 500 && t->scroll > 0; page++)
		keys_handle(t, KEY_PPAGE, &a);
	assert_int_equal(t->scroll, 0);
	render_frame(t);
	snprintf(want, sizeof want, "%s 1-", noun);
	assert_true(row_has(legend, want));
	free(seen);
}

/* A screen on a tracker's history, on one group's timeline. */
static void
timeline_screen(ui_screen *t, kg_tracker *tr, kg_snapshot *snap, const char *group, bool by_partition)
{
	screen_init(t, &opts, &info, tracker_history(tr));
	screen_set_snapshot(t, snap);
	t->now_us = snap->time_us;
	render_theme_apply(t);
	t->view = UI_VIEW_TIMELINE;
	timeline_of(t)->by_partition = by_partition;
	util_strlcpy(t->selected, group, sizeof t->selected);
	screen_order(t);
}

/*
 * Scrolling the timeline of a group of 1,000 partitions (and one of 40
 * members) moves only the lanes: the axis, the episode lines, the marker
 * row and the legend keep their rows (no lane label drawn over the axis),
 * and paging skips no lane.  Per partition, the topic's heading stays at
 * the top of the lanes.
 */
static void
test_timeline_scroll_fixed(void **state)
{
	kg_tracker_config cfg;
	kg_tracker *tr;
	kg_snapshot *snap;
	ui_screen t;
	ui_action a;
	(void)state;
	cfg = options_model_defaults();
	tr = tracker_new(&cfg);
	snap = scene_big_group(tr, "big", 3, 1000, 10, SCENE_T0);
	resize_term(40, 120);
	timeline_screen(&t, tr, snap, "big", true);
	render_frame(&t);
	assert_true(screen_has("\n big-topic (1000 partitions)"));
	page_through(&t, " p%d", 1000, "partitions");
	keys_handle(&t, KEY_NPAGE, &a);
	keys_handle(&t, KEY_NPAGE, &a);
	render_frame(&t);
	assert_int_equal(row_starting(t.lay.view.y, " big-topic (1000 partitions)"),
			 row_starting(t.lay.view.y, " episodes") + 1);
	assert_int_equal(row_starting(t.lay.view.y, " p0 "), -1);
	screen_free(&t);
	snapshot_unref(snap);
	tracker_free(tr);

	tr = tracker_new(&cfg);
	snap = scene_big_group(tr, "crowd", 40, 80, 10, SCENE_T0);
	resize_term(24, 80);
	timeline_screen(&t, tr, snap, "crowd", false);
	page_through(&t, " %*c client-%d", 40, "members");
	screen_free(&t);
	snapshot_unref(snap);
	tracker_free(tr);
	resize_term(24, 80);
}

/* The note of a lane in width columns. */
static const char *
note_in(const kg_episode *e, const kg_episode_member *m, const ui_lane_facts *f, bool sf, int width)
{
	static char buf[512];
	sbuf b = { 0 };
	timeline_member_note(&s, e, m, f, sf, width, &b);
	util_strlcpy(buf, sbuf_str(&b), sizeof buf);
	sbuf_free(&b);
	return buf;
}

/*
 * Notes: a member gone at the end of the episode says it left, why, and
 * what it had; a lane without a record still gets a note; a note too long
 * for its column takes ranges, then compact words, then counts, and is
 * cut only after a word, with an ellipsis.
 */
static void
test_timeline_notes_fit(void **state)
{
	int32_t t = intern_topic("fit"), u = intern_topic("fit-other");
	kg_tp six[] = { { t, 0 }, { t, 1 }, { t, 2 }, { t, 3 }, { t, 4 }, { t, 5 } }, low[] = { { t, 0 }, { t, 1 }, { t, 2 } };
	kg_tp had[] = { { t, 0 }, { t, 3 } }, two[] = { { t, 4 }, { u, 1 } };
	kg_episode e;
	kg_episode_member m;
	ui_lane_facts stayed = { .during = true, .at_start = true, .at_end = true };
	ui_lane_facts gone = { .during = true, .at_start = true, .why = KG_REASON_MAX_POLL };
	ui_lane_facts f;
	kg_tp many[333];
	const char *n;
	int i;
	(void)state;
	for (i = 0; i < 333; i++)
		many[i] = (kg_tp){ t, 3 * i + 2 };
	memset(&e, 0, sizeof e);
	e.rounds = 2;
	/* incremental: in full, then ranges, then compact */
	memset(&m, 0, sizeof m);
	m.cls = KG_CLASS_INCREMENTAL;
	m.before = six;
	m.nbefore = 6;
	m.revoked = low;
	m.nrevoked = 3;
	m.round_revoked = 1;
	assert_string_equal(note_in(&e, &m, &stayed, true, 0), "kept [3 4 5], gave [0 1 2] in round 1");
	assert_string_equal(note_in(&e, &m, &stayed, true, 37), "kept [3 4 5], gave [0 1 2] in round 1");
	assert_string_equal(note_in(&e, &m, &stayed, true, 36), "kept [3-5], gave [0-2] in round 1");
	assert_string_equal(note_in(&e, &m, &stayed, true, 32), "kept [3-5] gave [0-2] r1");
	assert_string_equal(note_in(&e, &m, &stayed, true, 24), "kept [3-5] gave [0-2] r1");
	/* then whole clauses and an ellipsis, never half a word */
	assert_string_equal(note_in(&e, &m, &stayed, true, 23), "kept [3-5]\u2026");
	assert_string_equal(note_in(&e, &m, &stayed, true, 11), "kept [3-5]\u2026");
	assert_string_equal(note_in(&e, &m, &stayed, true, 10), "kept\u2026");
	/* rounds are generations: none in a KIP-848 reconciliation, none said when there was one */
	e.proto = KG_PROTO_CONSUMER;
	assert_string_equal(note_in(&e, &m, &stayed, true, 0), "kept [3 4 5], gave [0 1 2]");
	e.proto = KG_PROTO_COOPERATIVE;
	e.rounds = 1;
	assert_string_equal(note_in(&e, &m, &stayed, true, 0), "kept [3 4 5], gave [0 1 2]");
	e.rounds = 2;
	/* a set with no ranges in it: a count */
	memset(&m, 0, sizeof m);
	m.left = true;
	m.before = many;
	m.nbefore = 333;
	assert_string_equal(note_in(&e, &m, &gone, true, 32), "left (max.poll) had 333 parts");
	/* a member that left in the episode says so, why, and what it had */
	memset(&m, 0, sizeof m);
	m.left = true;
	m.before = had;
	m.nbefore = 2;
	assert_string_equal(note_in(&e, &m, &gone, true, 0), "left (max.poll.interval), had [0 3]");
	assert_string_equal(note_in(&e, &m, &gone, true, 35), "left (max.poll.interval), had [0 3]");
	assert_string_equal(note_in(&e, &m, &gone, true, 34), "left (max.poll.interval) had [0 3]");
	assert_string_equal(note_in(&e, &m, &gone, true, 33), "left (max.poll) had [0 3]");
	/* even when it gave everything first (a graceful leave revokes all) */
	m.cls = KG_CLASS_FULL;
	m.revoked = had;
	m.nrevoked = 2;
	f = gone;
	f.why = KG_REASON_GRACEFUL;
	assert_string_equal(note_in(&e, &m, &f, true, 0), "left (graceful), had [0 3]");
	/* ... also when the model kept no record of it */
	assert_string_equal(note_in(&e, NULL, &gone, true, 0), "left (max.poll.interval)");
	f = stayed;
	f.gap = true;
	f.why = KG_REASON_SESSION_TIMEOUT;
	assert_string_equal(note_in(&e, NULL, &f, true, 0), "left (session timeout), rejoined");
	f = (ui_lane_facts){ .during = true, .at_end = true, .gap = true };
	assert_string_equal(note_in(&e, NULL, &f, true, 0), "joined");
	f = (ui_lane_facts){ .later = true };
	assert_string_equal(note_in(&e, NULL, &f, true, 0), "joined after it");
	/* the reason "unknown" says nothing */
	f = gone;
	f.why = KG_REASON_UNKNOWN;
	assert_string_equal(note_in(&e, &m, &f, true, 0), "left, had [0 3]");
	/* topics named when the group has several */
	memset(&m, 0, sizeof m);
	m.assigned = two;
	m.nassigned = 2;
	m.round_assigned = 2;
	assert_string_equal(note_in(&e, &m, &stayed, false, 0), "got [fit:4 fit-other:1] in round 2");
	n = note_in(&e, &m, &stayed, false, 5);
	assert_string_equal(n, "got\u2026");
	s.ascii = true;
	assert_string_equal(note_in(&e, &m, &stayed, false, 5), "got~");
	s.ascii = false;
	/* a first word wider than the column: whole, for text_put to cut with its ellipsis */
	assert_string_equal(note_in(&e, &m, &stayed, false, 3), "got 2 parts r2");
}

/* A three-member group on "grace" [0 1 2]: members a, b, c (owning p0, p1, p2 where present) in state st. */
static kg_snapshot *
grace_snap(int64_t t, bool coop, kg_group_state st, const int *owner, int nmembers)
{
	static const char *const ids[] = { "ga-1", "gb-1", "gc-1" }, *const cids[] = { "g-a", "g-b", "g-c" };
	kg_builder *b = builder_new(t);
	kg_bgroup *bg = builder_group(b, intern_group(coop ? "grace-coop" : "grace-eager"));
	int32_t tid = intern_topic("grace");
	int k, p;
	builder_cluster(b, "grace:9092");
	builder_topic(b, tid, 3);
	bgroup_state(bg, st);
	bgroup_protocol(bg, "consumer", st == KG_STATE_STABLE ? (coop ? "cooperative-sticky" : "range") : "");
	if (coop)
		bgroup_proto(bg, KG_PROTO_COOPERATIVE);
	bgroup_topic(bg, tid);
	for (p = 0; p < 3; p++) {
		builder_partition(b, (kg_tp){ tid, p }, 1, 1000);
		bgroup_committed(bg, (kg_tp){ tid, p }, 990);
	}
	for (k = 0; k < nmembers; k++) {
		kg_bmember *bm = bgroup_member(bg, ids[k]);
		kg_tp v[3];
		int n = 0;
		bmember_ids(bm, cids[k], "/10.7.0.1", NULL);
		for (p = 0; p < 3 && st == KG_STATE_STABLE; p++) {
			if (owner[p] == k)
				v[n++] = (kg_tp){ tid, p };
		}
		bmember_assignment(bm, v, n);
	}
	return builder_finish(b);
}

/* A member's callback observation. */
static void
grace_obs(kg_obsq *q, kg_obs_kind kind, int64_t t, bool coop, int k, const int *parts, int n, kg_reason why)
{
	static const char *const ids[] = { "ga-1", "gb-1", "gc-1" }, *const cids[] = { "g-a", "g-b", "g-c" };
	kg_obs *o = obs_new(kind, t, intern_group(coop ? "grace-coop" : "grace-eager"), "demo");
	kg_tp v[3];
	int i;
	obs_member(o, ids[k], cids[k], NULL, "/10.7.0.1");
	for (i = 0; i < n; i++)
		v[i] = (kg_tp){ intern_topic("grace"), parts[i] };
	if (parts != NULL)
		obs_parts(o, v, n);
	o->reason = why;
	o->proto = coop ? KG_PROTO_COOPERATIVE : KG_PROTO_EAGER;
	obsq_push(q, o);
}

/*
 * g-c leaves gracefully (it revokes all it had, then leaves); the others
 * keep consuming (cooperative) or stop (eager).  The timeline's episode
 * line gives the model's count, as the end event says it: the leaver is
 * not one of the members stopped.
 */
static void
grace_check(bool coop, const char *want_event, const char *want_line)
{
	static const int before[] = { 0, 1, 2 }, after[] = { 0, 1, 0 };
	static const int p0[] = { 0 }, p1[] = { 1 }, p2[] = { 2 }, p02[] = { 0, 2 };
	kg_tracker_config cfg;
	kg_tracker *tr;
	kg_obsq q = { 0 };
	kg_evlist ev = { 0 };
	kg_snapshot *snap = NULL;
	ui_screen t;
	int64_t t0 = SCENE_T0 + 7200 * SEC;
	size_t j;
	int i;
	bool found = false;
	cfg = options_model_defaults();
	tr = tracker_new(&cfg);
	for (i = 0; i < 3; i++) {
		snapshot_unref(snap);
		snap = grace_snap(t0 + i * SEC, coop, KG_STATE_STABLE, before, 3);
		tracker_apply(tr, &q, snap, &ev);
	}
	/* g-c gives everything up and leaves; eager: the others revoke everything too */
	grace_obs(&q, KG_OBS_REVOKED, t0 + 3200 * 1000, coop, 2, p2, 1, KG_REASON_GRACEFUL);
	grace_obs(&q, KG_OBS_LEFT, t0 + 3210 * 1000, coop, 2, NULL, 0, KG_REASON_GRACEFUL);
	grace_obs(&q, KG_OBS_REVOKED, t0 + 3300 * 1000, coop, 0, coop ? NULL : p0, coop ? 0 : 1, KG_REASON_NONE);
	grace_obs(&q, KG_OBS_REVOKED, t0 + 3300 * 1000, coop, 1, coop ? NULL : p1, coop ? 0 : 1, KG_REASON_NONE);
	snapshot_unref(snap);
	snap = grace_snap(t0 + 4 * SEC, coop, KG_STATE_PREPARING_REBALANCE, after, 2);
	tracker_apply(tr, &q, snap, &ev);
	grace_obs(&q, KG_OBS_ASSIGNED, t0 + 4500 * 1000, coop, 0, coop ? p2 : p02, coop ? 1 : 2, KG_REASON_NONE);
	grace_obs(&q, KG_OBS_ASSIGNED, t0 + 4500 * 1000, coop, 1, coop ? NULL : p1, coop ? 0 : 1, KG_REASON_NONE);
	for (i = 5; i < 8; i++) {
		snapshot_unref(snap);
		snap = grace_snap(t0 + i * SEC, coop, KG_STATE_STABLE, after, 2);
		tracker_apply(tr, &q, snap, &ev);
	}
	for (j = 0; j < ev.n; j++) {
		if (ev.v[j]->kind == KG_EV_REBALANCE_END) {
			assert_non_null(strstr(ev.v[j]->text, want_event));
			found = true;
		}
	}
	assert_true(found);
	resize_term(40, 120);
	timeline_screen(&t, tr, snap, coop ? "grace-coop" : "grace-eager", false);
	render_frame(&t);
	assert_true(screen_has(want_line));
	assert_false(screen_has("stopped all"));
	/* the leaver's note says it left, why, and what it had */
	assert_true(screen_has("left (graceful), had [2]"));
	screen_free(&t);
	snapshot_unref(snap);
	evlist_clear(&ev);
	free(ev.v);
	obsq_clear(&q);
	free(q.v);
	tracker_free(tr);
	resize_term(24, 80);
}

/*
 * Issue 11, finding 8: g-c leaves (max.poll.interval) in one episode and
 * joins again in the next, a few seconds later.  The second episode's
 * note on g-c's lane says what that episode did (it joined, got its
 * partitions), not the leave the first episode already told.
 */
static void
test_timeline_note_not_carried(void **state)
{
	static const int before[] = { 0, 1, 2 }, after[] = { 0, 1, 0 };
	static const int p0[] = { 0 }, p1[] = { 1 }, p2[] = { 2 }, p02[] = { 0, 2 };
	kg_tracker_config cfg;
	kg_tracker *tr;
	kg_obsq q = { 0 };
	kg_evlist ev = { 0 };
	kg_snapshot *snap = NULL;
	ui_screen t;
	int64_t t0 = SCENE_T0 + 9000 * SEC;
	char row[1024];
	int i, y;
	(void)state;
	cfg = options_model_defaults();
	tr = tracker_new(&cfg);
	for (i = 0; i < 12; i++) {
		const int *own = i < 4 || i >= 9 ? before : after;
		if (i == 3)
			grace_obs(&q, KG_OBS_LEFT, t0 + 3200 * 1000, false, 2, NULL, 0, KG_REASON_MAX_POLL);
		if (i == 9) {
			/* g-c back: its callbacks time the episode, which ends before a refresh lists it */
			grace_obs(&q, KG_OBS_JOINED, t0 + 8200 * 1000, false, 2, NULL, 0, KG_REASON_JOINED);
			grace_obs(&q, KG_OBS_REVOKED, t0 + 8200 * 1000, false, 0, p02, 2, KG_REASON_NONE);
			grace_obs(&q, KG_OBS_REVOKED, t0 + 8200 * 1000, false, 1, p1, 1, KG_REASON_NONE);
			grace_obs(&q, KG_OBS_ASSIGNED, t0 + 8500 * 1000, false, 0, p0, 1, KG_REASON_NONE);
			grace_obs(&q, KG_OBS_ASSIGNED, t0 + 8500 * 1000, false, 1, p1, 1, KG_REASON_NONE);
			grace_obs(&q, KG_OBS_ASSIGNED, t0 + 8500 * 1000, false, 2, p2, 1, KG_REASON_NONE);
		}
		snapshot_unref(snap);
		snap = grace_snap(t0 + i * SEC, false, KG_STATE_STABLE, own, i < 4 || i >= 9 ? 3 : 2);
		tracker_apply(tr, &q, snap, &ev);
	}
	resize_term(40, 120);
	timeline_screen(&t, tr, snap, "grace-eager", false);
	t.t0_us = t0; /* the screen watched from the start: the scale fits both episodes */
	render_frame(&t);
	y = row_starting(t.lay.view.y, " C g-c");
	assert_true(y > 0);
	row_text(y, row, sizeof row);
	assert_null(strstr(row, "max.poll"));
	assert_non_null(strstr(row, "joined"));
	screen_free(&t);
	snapshot_unref(snap);
	evlist_clear(&ev);
	free(ev.v);
	obsq_clear(&q);
	free(q.v);
	tracker_free(tr);
	resize_term(24, 80);
}

/* The episode line's stopped count is the model's "N of M members stopped", with the members' cost. */
static void
test_timeline_stopped_count(void **state)
{
	(void)state;
	grace_check(true, "0 of 2 members stopped", "  0 of 2 stopped");
	grace_check(false, "2 of 2 members stopped", "  2 of 2 stopped 2.4 member-s"); /* and what it cost */
}

/* Per partition, every partition of the group's topics, grouped under each topic's heading as in the grid. */
static void
test_timeline_partitions_by_topic(void **state)
{
	ui_action a;
	int y;
	(void)state;
	resize_term(40, 120);
	s.view = UI_VIEW_TIMELINE;
	keys_handle(&s, 'm', &a);
	/* an Empty group: all three partitions, under their topic */
	util_strlcpy(s.selected, "audit-archiver", sizeof s.selected);
	screen_order(&s);
	render_frame(&s);
	y = row_starting(s.lay.view.y, " audit (3 partitions)");
	assert_true(y > 0);
	assert_true(row_has(y + 1, " p0 "));
	assert_true(row_has(y + 2, " p1 "));
	assert_true(row_has(y + 3, " p2 "));
	/* two topics, each under its heading, in name order */
	util_strlcpy(s.selected, "payments-ledger", sizeof s.selected);
	screen_order(&s);
	render_frame(&s);
	y = row_starting(s.lay.view.y, " ledger (2 partitions)");
	assert_true(y > 0);
	assert_true(row_has(y + 1, " p0 "));
	assert_true(row_has(y + 2, " p1 "));
	assert_int_equal(row_starting(s.lay.view.y, " payments (4 partitions)"), y + 3);
	assert_true(row_has(y + 7, " p3 "));
	assert_true(row_has(y + 8, "consuming"));
	keys_handle(&s, 'm', &a);
	s.view = UI_VIEW_GRID;
	resize_term(24, 80);
}

/* A timeline with no lanes says why instead of showing an empty strip area. */
static void
test_timeline_no_lanes(void **state)
{
	int y;
	(void)state;
	s.view = UI_VIEW_TIMELINE;
	util_strlcpy(s.selected, "audit-archiver", sizeof s.selected);
	screen_order(&s);
	render_frame(&s);
	y = row_starting(s.lay.view.y, " episodes");
	assert_true(y > 0);
	assert_true(row_has(y + 1, "no members in this window"));
	assert_true(row_has(y + 2, "consuming"));
	s.view = UI_VIEW_GRID;
}

/* An episode begun before the window comes in as a line on the marker row, without the mark of a start. */
static void
test_timeline_clipped_episode(void **state)
{
	char row[1024];
	int y, zoom = timeline_of(&s)->zoom;
	(void)state;
	s.view = UI_VIEW_TIMELINE;
	util_strlcpy(s.selected, "demo-range", sizeof s.selected);
	screen_order(&s);
	/* 100 ms a column, the window ending 8 s after the scene began: the episode (3.2 s to 5.7 s) began before it */
	timeline_of(&s)->zoom = 0;
	timeline_of(&s)->auto_zoom = false;
	s.offset_us = s.snap->time_us - (SCENE_T0 + 8 * SEC);
	render_frame(&s);
	y = row_starting(s.lay.view.y, " episodes");
	assert_true(y > 0);
	row_text(y, row, sizeof row);
	assert_null(strstr(row, "\u25b2"));
	assert_non_null(strstr(row, "\u25001\u2500"));
	/* and with the start inside the window, the mark */
	s.offset_us = s.snap->time_us - (SCENE_T0 + 7 * SEC);
	render_frame(&s);
	row_text(y, row, sizeof row);
	assert_non_null(strstr(row, "\u25b21"));
	s.offset_us = 0;
	timeline_of(&s)->zoom = zoom;
	timeline_of(&s)->auto_zoom = true;
	s.view = UI_VIEW_GRID;
}

/*
 * With 2,000 groups the paging keys move the group list, which has the
 * keys (not the view under it); shown alone, the view pages.  The mouse:
 * a click selects a group or a view's tab, the wheel moves what it is on.
 */
static void
test_keys_paging_mouse(void **state)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *tr = tracker_new(&mc);
	kg_snapshot *snap = scene_many_groups(tr, 2000, 2, SEC);
	ui_screen t;
	ui_action a;
	int sel, y;
	(void)state;
	screen_init(&t, &opts, &info, tracker_history(tr));
	screen_set_snapshot(&t, snap);
	t.now_us = snap->time_us;
	render_theme_apply(&t);
	t.view = UI_VIEW_GRID;
	render_frame(&t);
	assert_int_equal(t.sel, 0);
	keys_handle(&t, KEY_NPAGE, &a);
	assert_int_equal(t.sel, t.lay.list.h - 2);
	assert_int_equal(t.scroll, 0);
	keys_handle(&t, KEY_END, &a);
	assert_string_equal(screen_group(&t)->name, "group-1999");
	keys_handle(&t, KEY_PPAGE, &a);
	assert_int_equal(t.sel, 1999 - (t.lay.list.h - 2));
	keys_handle(&t, KEY_HOME, &a);
	assert_int_equal(t.sel, 0);
	/* the view alone has the keys: PgDn pages it, the selection stays */
	keys_handle(&t, '4', &a);
	keys_handle(&t, '\n', &a);
	render_frame(&t);
	t.view_rows = 100;
	keys_handle(&t, KEY_NPAGE, &a);
	assert_int_equal(t.sel, 0);
	assert_int_equal(t.scroll, t.lay.view.h - 2);
	keys_handle(&t, KEY_HOME, &a);
	assert_int_equal(t.scroll, 0);
	/* the wheel over the view scrolls it */
	keys_mouse(&t, t.lay.view.y + 2, 10, BUTTON5_PRESSED, &a);
	assert_int_equal(t.scroll, 3);
	keys_mouse(&t, t.lay.view.y + 2, 10, BUTTON4_PRESSED, &a);
	assert_int_equal(t.scroll, 0);
	keys_handle(&t, 27, &a);
	assert_false(t.maximized);
	/* a click on a group selects it; on a view's tab shows that view */
	render_frame(&t);
	keys_mouse(&t, t.lay.list.y + 3, 5, BUTTON1_PRESSED, &a);
	assert_int_equal(t.sel, t.list_top + 2);
	render_frame(&t);
	keys_mouse(&t, t.lay.tabs.y, t.tab_x[UI_VIEW_HEALTH] + 1, BUTTON1_PRESSED, &a);
	assert_int_equal(t.view, UI_VIEW_HEALTH);
	/* the wheel over the list moves the selection */
	sel = t.sel;
	keys_mouse(&t, t.lay.list.y + 1, 5, BUTTON5_PRESSED, &a);
	assert_int_equal(t.sel, sel + 3);
	/* under 80x24, one pane at a time: a click on the selected group, Tab or Enter shows its view, Esc the list */
	resize_term(20, 60);
	render_frame(&t);
	assert_true(t.lay.narrow);
	y = t.lay.list.y + 1 + (t.sel - t.list_top);
	keys_mouse(&t, y, 5, BUTTON1_PRESSED, &a);
	assert_true(t.maximized);
	keys_handle(&t, 27, &a);
	assert_false(t.maximized);
	keys_handle(&t, '\t', &a);
	assert_true(t.maximized);
	assert_int_equal(t.view, UI_VIEW_HEALTH); /* Tab first shows the view it was on */
	keys_handle(&t, '\t', &a);
	assert_int_equal(t.view, UI_VIEW_EVENTS);
	keys_handle(&t, 27, &a);
	keys_handle(&t, '\n', &a);
	assert_true(t.maximized);
	keys_handle(&t, 27, &a);
	resize_term(24, 80);
	screen_free(&t);
	snapshot_unref(snap);
	tracker_free(tr);
}

/* Names sort as people sort them (consumer-2 before consumer-10), S reverses, the mark says which way. */
static void
test_natural_sort(void **state)
{
	static const char *const names[] = { "consumer-10", "consumer-2", "consumer-1", "consumer-02b" };
	kg_builder *b = builder_new(SCENE_T0);
	kg_snapshot *snap;
	kg_tracker_config mc2 = options_model_defaults();
	kg_tracker *tr = tracker_new(&mc2);
	ui_screen t;
	ui_action a;
	size_t i;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(names); i++)
		bgroup_state(builder_group(b, intern_group(names[i])), KG_STATE_EMPTY);
	snap = builder_finish(b);
	screen_init(&t, &opts, &info, tracker_history(tr));
	/* none judged: worst first is by name too */
	screen_set_snapshot(&t, snap);
	assert_string_equal(snap->groups[t.order[0]].name, "consumer-1");
	assert_string_equal(snap->groups[t.order[3]].name, "consumer-10");
	t.sort = groupcol_sort_find("name");
	screen_order(&t);
	assert_string_equal(snap->groups[t.order[0]].name, "consumer-1");
	assert_string_equal(snap->groups[t.order[1]].name, "consumer-2");
	assert_string_equal(snap->groups[t.order[2]].name, "consumer-02b");
	assert_string_equal(snap->groups[t.order[3]].name, "consumer-10");
	keys_handle(&t, 'S', &a);
	assert_true(t.sort_reverse);
	assert_string_equal(snap->groups[t.order[0]].name, "consumer-10");
	render_theme_apply(&t);
	render_frame(&t);
	assert_true(screen_has("\u25b4GROUP"));
	assert_true(screen_has("sorted by name, reversed"));
	assert_true(util_natcmp("a9", "a10") < 0);
	assert_true(util_natcmp("a10", "a9") > 0);
	assert_true(util_natcmp("b", "a10") > 0);
	assert_true(util_natcmp("a01", "a1") != 0);
	assert_int_equal(util_natcmp("x", "x"), 0);
	screen_free(&t);
	snapshot_unref(snap);
	tracker_free(tr);
}

/* Run. */
/*
 * Issue 24: the names' width is measured when the list's order is made
 * (each snapshot, filter, sort), not each frame: the STATE column follows
 * the widest name the list shows, after a filter hides it and after a
 * snapshot brings a wider one.
 */
static void
test_names_width_per_order(void **state)
{
	ui_screen t;
	kg_builder *b;
	kg_snapshot *one, *two;
	int wide, narrow, wider;
	(void)state;
	b = builder_new(sc.snap->time_us);
	bgroup_state(builder_group(b, intern_group("g-a")), KG_STATE_EMPTY);
	bgroup_state(builder_group(b, intern_group("g-a-rather-long-name")), KG_STATE_EMPTY);
	one = builder_finish(b);
	b = builder_new(sc.snap->time_us + SEC);
	bgroup_state(builder_group(b, intern_group("g-a")), KG_STATE_EMPTY);
	bgroup_state(builder_group(b, intern_group("g-a-rather-long-name")), KG_STATE_EMPTY);
	bgroup_state(builder_group(b, intern_group("g-a-rather-longer-name-still")), KG_STATE_EMPTY);
	two = builder_finish(b);
	resize_term(24, 160);
	screen_init(&t, &opts, &info, s.hist);
	screen_set_snapshot(&t, one);
	render_frame(&t);
	wide = find_col(1, "STATE");
	assert_int_equal(screen_set_filter(&t, "^g-a$"), 0);
	render_frame(&t);
	narrow = find_col(1, "STATE");
	assert_true(narrow > 0);
	assert_true(narrow < wide);
	assert_int_equal(screen_set_filter(&t, NULL), 0);
	render_frame(&t);
	assert_int_equal(find_col(1, "STATE"), wide);
	screen_set_snapshot(&t, two);
	render_frame(&t);
	wider = find_col(1, "STATE");
	assert_int_equal(wider - wide, (int)(strlen("g-a-rather-longer-name-still") - strlen("g-a-rather-long-name")));
	screen_free(&t);
	resize_term(24, 80);
	render_frame(&s);
	snapshot_unref(one);
	snapshot_unref(two);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),      cmocka_unit_test(test_keys_views),  cmocka_unit_test(test_keys_select),
		cmocka_unit_test(test_keys_filter), cmocka_unit_test(test_keys_search), cmocka_unit_test(test_keys_pause),  cmocka_unit_test(test_keys_commands),
		cmocka_unit_test(test_footer_help), cmocka_unit_test(test_sanitize), cmocka_unit_test(test_frame_changed_cells),    cmocka_unit_test(test_ascii_everywhere),
		cmocka_unit_test(test_resize),      cmocka_unit_test(test_keys_walk),   cmocka_unit_test(test_status_wrap),
		cmocka_unit_test(test_demo_view),   cmocka_unit_test(test_gauge),       cmocka_unit_test(test_timeline_notes),
		cmocka_unit_test(test_events_time_order),
		cmocka_unit_test(test_sources_overlay),
		cmocka_unit_test(test_source_roles),
		cmocka_unit_test(test_view_table),
		cmocka_unit_test(test_keys_unique),
		cmocka_unit_test(test_scrub_verdicts),
		cmocka_unit_test(test_usage_views),
		cmocka_unit_test(test_help_fits),
		cmocka_unit_test(test_compare_key),
		cmocka_unit_test(test_select_later),
		cmocka_unit_test(test_timeline_note_late_sample),
		/* grid and health views */
		cmocka_unit_test(test_list_coord),
		cmocka_unit_test(test_grid_idle_member), cmocka_unit_test(test_grid_key),
		cmocka_unit_test(test_grid_status_words), cmocka_unit_test(test_lag_view), cmocka_unit_test(test_verdict_marks), cmocka_unit_test(test_health_late),
		cmocka_unit_test(test_health_last_left), cmocka_unit_test(test_health_hint),
		/* timeline */
		cmocka_unit_test(test_timeline_scroll_fixed),
		cmocka_unit_test(test_timeline_notes_fit),
		cmocka_unit_test(test_timeline_stopped_count),
		cmocka_unit_test(test_timeline_partitions_by_topic),
		cmocka_unit_test(test_timeline_no_lanes),
		cmocka_unit_test(test_timeline_clipped_episode),
		cmocka_unit_test(test_keys_paging_mouse),
		cmocka_unit_test(test_natural_sort),
		/* issue 11 */
		cmocka_unit_test(test_keys_back_never_forward),
		cmocka_unit_test(test_timeline_note_not_carried),
		cmocka_unit_test(test_trouble_count_per_snapshot),
		cmocka_unit_test(test_names_width_per_order),
	};
	setenv("TZ", "UTC", 1);
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "C.utf8");
	unsetenv("KGTOP_THEMES");
	return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * keys.c: what each key does, and the help overlay listing them.
 *
 * Keys follow top/less/vim habits.  A key only changes the screen's state
 * and fills a ui_action for what the loop must do with the outside world
 * (quit, refresh, reload the theme, send a command to the sources), so
 * the whole keyboard is testable without a terminal or a collector.
 *
 * One table holds the keys that are not a view's: each row the keys it
 * takes, what they do and its line of the help overlay, in the help's
 * order.  The views' keys are their panes' (see UI_VIEWS in screen.h):
 * a view's digit and letter show it, and its own keys are asked in any
 * view.  A new key is a row here, or in its view's pane.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

#define KEY_ESC 27

/* librdkafka 2.0.2 has no eager "sticky" assignor */
static const char *const assignors[] = { "range", "roundrobin", "cooperative-sticky" };

/* Queue a command for the sources of a role. */
static void
command(ui_action *a, kg_src_role role, const char *fmt, const char *arg)
{
	util_strlcpy(a->kind, src_role_name(role), sizeof a->kind);
	snprintf(a->cmd, sizeof a->cmd, fmt, arg);
}

/* How far one step of left/right moves: the shown view's scroll step, else 5 s. */
static int64_t
scrub_step(const ui_screen *s, bool big)
{
	const ui_pane *p = render_pane(s->view);
	int64_t st = p->scroll_step != NULL ? p->scroll_step(s) : 5000000;
	return big ? st * 10 : st;
}

/* Move the view time back (dir < 0) or forward, within the history. */
static void
scrub(ui_screen *s, int dir, bool big)
{
	int64_t max = 0;
	if (s->snap == NULL)
		return;
	if (!s->paused && render_pane(s->view)->scroll_step == NULL) {
		screen_status(s, false, "p pauses the screen; then left/right scrub through the history");
		return;
	}
	max = history_window(s->hist);
	s->offset_us += dir < 0 ? scrub_step(s, big) : -scrub_step(s, big);
	if (s->offset_us < 0)
		s->offset_us = 0;
	if (s->offset_us > max)
		s->offset_us = max;
}

/*
 * Show the previous (dir < 0) or next rebalance of the selected group from
 * the history: pause the screen and put the view time a little after the
 * episode's start.  Repeated presses walk episode by episode: the walk
 * goes on from the episode the last jump showed while the view time is
 * still where that jump put it.  Returns false when there is none.
 */
static bool
jump_episode(ui_screen *s, int dir)
{
	const kg_group *g = screen_group(s);
	int64_t ref, t, view, lead;
	if (g == NULL || s->snap == NULL)
		return false;
	view = screen_view_time(s);
	/* a little after its start: ten timeline columns, at least a second */
	lead = KG_MAX(screen_scale_us(s) * 10, 1000000);
	ref = s->jump_start_us != 0 && s->jump_group == g->id && s->jump_view_us == view ? s->jump_start_us : view;
	t = history_next_episode(s->hist, g->id, ref, dir);
	if (t == 0)
		return false;
	s->paused = true;
	/* back never shows a later moment: an episode begun less than lead before the view is shown at the view */
	if (dir < 0 && t + lead > view)
		lead = view - t;
	s->offset_us = s->snap->time_us - (t + lead);
	if (s->offset_us < 0)
		s->offset_us = 0;
	s->jump_group = g->id;
	s->jump_start_us = t;
	s->jump_view_us = screen_view_time(s);
	{
		/* the same moments as the header's PAUSED -offset: both from the snapshot's time */
		char d[32], v[32];
		util_fmt_duration(d, sizeof d, s->snap->time_us - t);
		util_fmt_duration(v, sizeof v, s->offset_us);
		screen_status(s, false, "rebalance of %s began -%s, shown at -%s ([ ] walk, p resumes live)", g->name, d, v);
	}
	return true;
}

/* Keys while typing a filter: Enter applies (empty: clears), Esc cancels and keeps the filter. */
static void
filter_key(ui_screen *s, int key, ui_action *a)
{
	size_t n = strlen(s->filter_buf);
	a->redraw = true;
	if (key == KEY_ESC) {
		s->filter_edit = false;
		s->filter_buf[0] = '\0';
	} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		s->filter_edit = false;
		if (screen_set_filter(s, s->filter_buf) == 0) {
			if (s->filter_buf[0] != '\0')
				screen_status(s, false, "filter /%s/: %d group%s", s->filter, s->norder,
					      s->norder == 1 ? "" : "s");
			else
				screen_status(s, false, "no filter");
		}
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (n > 0)
			s->filter_buf[n - 1] = '\0';
	} else if (key >= 0x20 && key < 0x7f && n + 1 < sizeof s->filter_buf) {
		s->filter_buf[n] = (char)key;
		s->filter_buf[n + 1] = '\0';
	}
}

/* True when the screen shows a replay. */
static bool
is_replay(const ui_screen *s)
{
	return s->info != NULL && s->info->replay;
}

/* True when the embedded demo runs. */
static bool
is_demo(const ui_screen *s)
{
	return s->info != NULL && s->info->demo;
}

/* Up/down, j/k, Home/End: select a group. */
static void
key_select(ui_screen *s, int key, ui_action *a)
{
	int sel = s->sel;
	(void)a;
	if (s->norder <= 0)
		return;
	if (key == 'j' || key == KEY_DOWN)
		sel++;
	else if (key == 'k' || key == KEY_UP)
		sel--;
	else
		sel = key == KEY_HOME ? 0 : s->norder - 1;
	sel = KG_MAX(0, KG_MIN(sel, s->norder - 1));
	if (sel != s->sel)
		s->scroll = 0;
	s->sel = sel;
	util_strlcpy(s->selected, s->snap->groups[s->order[sel]].name, sizeof s->selected);
}

/* Tab, S-Tab: the next or previous view. */
static void
key_cycle_view(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	s->view = (ui_view_id)((s->view + (key == '\t' ? 1 : UI_VIEW_COUNT - 1)) % UI_VIEW_COUNT);
	s->scroll = 0;
}

/* Enter: the group view on the whole screen, or back. */
static void
key_maximize(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->maximized = !s->maximized;
}

/* PgUp, PgDn, space: scroll the group view (space plays or pauses a replay). */
static void
key_page(ui_screen *s, int key, ui_action *a)
{
	if (key == ' ' && is_replay(s)) {
		command(a, KG_ROLE_REPLAY, "%s", "toggle");
	} else if (key == KEY_PPAGE) {
		s->scroll = KG_MAX(0, s->scroll - KG_MAX(1, s->lay.view.h - 2));
	} else {
		s->scroll += KG_MAX(1, s->lay.view.h - 2);
		if (s->scroll > s->view_rows - s->lay.view.h)
			s->scroll = KG_MAX(0, s->view_rows - s->lay.view.h);
	}
}

/* /: type a filter, like less and htop: a new pattern from scratch (the footer shows the one in force). */
static void
key_filter(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->filter_edit = true;
	s->filter_buf[0] = '\0';
}

/* Esc: clear the filter and the message. */
static void
key_clear(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	if (s->re_ok)
		screen_set_filter(s, NULL);
	s->status[0] = '\0';
}

/* s: the next sort order. */
static void
key_sort(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->sort = (ui_sort)(((int)s->sort + 1) % groupcol_nsorts());
	screen_order(s);
}

/* The help line of s: "sort by name, lag, state, rebalances", from the group table. */
static const char *
sort_help(void)
{
	static char line[160];
	int i, n = groupcol_nsorts();
	size_t len;
	snprintf(line, sizeof line, "sort by");
	for (i = 0; i < n; i++) {
		len = strlen(line);
		snprintf(line + len, sizeof line - len, "%s%s", i ? ", " : " ", groupcol_sort_name(i));
	}
	return line;
}

/* p: pause the screen, or resume live. */
static void
key_pause(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->paused = !s->paused;
	if (!s->paused)
		s->offset_us = 0;
}

/* Left, right (shifted: ten times as far): scrub through the history. */
static void
key_scrub(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	scrub(s, key == KEY_LEFT || key == KEY_SLEFT ? -1 : 1, key == KEY_SLEFT || key == KEY_SRIGHT);
}

/* 0: back to now. */
static void
key_now(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->offset_us = 0;
}

/* [ ]: the previous / next rebalance, from the history the dashboard keeps, live or in a replay. */
static void
key_walk(ui_screen *s, int key, ui_action *a)
{
	const kg_group *g = screen_group(s);
	if (jump_episode(s, key == '[' ? -1 : 1))
		return;
	if (key == ']' && is_replay(s)) {
		/* none later in the history: the replay plays on to the next one it recorded */
		s->paused = false;
		s->offset_us = 0;
		command(a, KG_ROLE_REPLAY, "%s", "next-rebalance");
	} else if (is_replay(s)) {
		/* none earlier in the history: the replay says where the previous one it recorded is */
		command(a, KG_ROLE_REPLAY, "%s", "prev-rebalance");
	} else {
		screen_status(s, false, "no %s rebalance of %s in the history", key == '[' ? "earlier" : "later",
			      g != NULL ? g->name : "this group");
	}
}

/* r: refresh now (a replay has nothing to refresh). */
static void
key_refresh(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	if (is_replay(s)) {
		screen_status(s, false, "a replay has nothing to refresh: space plays, < > change the speed");
		return;
	}
	a->refresh = true;
	screen_status(s, false, "refreshing");
}

/* T: the next theme. */
static void
key_theme(ui_screen *s, int key, ui_action *a)
{
	char names[32][64];
	int n = theme_list(names, 32), i, cur = -1;
	(void)key;
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], s->theme_name) == 0)
			cur = i;
	}
	util_strlcpy(s->theme_name, names[(cur + 1) % n], sizeof s->theme_name);
	a->theme = true;
}

/* ?, i: the help, or the sources' health. */
static void
key_overlay(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	s->help = true;
	s->sources = key == 'i';
	s->help_top = 0;
}

/* q: quit. */
static void
key_quit(ui_screen *s, int key, ui_action *a)
{
	(void)s;
	(void)key;
	a->quit = true;
}

/* a l c x: the demo adds a member to the selected group, or its newest one leaves, crashes, stalls. */
static void
key_demo_member(ui_screen *s, int key, ui_action *a)
{
	const kg_group *g = screen_group(s);
	if (is_demo(s) && g != NULL)
		command(a, KG_ROLE_DEMO,
			key == 'a' ? "add-member %s" : key == 'l' ? "leave %s" : key == 'c' ? "crash %s" : "stall %s", g->name);
}

/* A: the assignor of the demo's members added next. */
static void
key_demo_assignor(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	if (!is_demo(s))
		return;
	s->assignor = (s->assignor + 1) % (int)KG_ARRAY_LEN(assignors);
	command(a, KG_ROLE_DEMO, "assignor %s", assignors[s->assignor]);
	screen_status(s, false, "new members will use %s", assignors[s->assignor]);
}

/* P: pause or resume the demo's script (the footer changes when the demo confirms, see screen_reply()). */
static void
key_demo_script(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	if (is_demo(s))
		command(a, KG_ROLE_DEMO, "%s", s->demo_paused ? "resume-script" : "pause-script");
}

/* < >: the replay's speed. */
static void
key_speed(ui_screen *s, int key, ui_action *a)
{
	if (is_replay(s))
		command(a, KG_ROLE_REPLAY, "%s", key == '<' ? "slower" : "faster");
}

/* When a row's help line shows. */
typedef enum key_when {
	KW_ALWAYS,
	KW_LIVE,        /* not in a replay */
	KW_REPLAY,      /* in a replay */
	KW_DEMO,        /* with the embedded demo */
	KW_DEMO_SCRIPT, /* with a demo scenario that has a script */
	KW_VIEWS,       /* no key of its own: the views' digits and letters here */
	KW_VIEW_KEYS,   /* no key of its own: the views' own keys here */
	KW_SORTS,       /* always, its text the group table's sort orders */
	KW_COUNT
} key_when;

/* A row of the key table. */
typedef struct key_row {
	int keys[8]; /* the keys it takes, 0 ends; none: a help line only */
	void (*run)(ui_screen *s, int key, ui_action *a);
	const char *label, *help; /* its line in the help overlay */
	key_when when;
} key_row;

/* The keys that are not a view's, in the help's order. */
static const key_row key_table[] = {
	{ { 'j', KEY_DOWN, 'k', KEY_UP, KEY_HOME, KEY_END }, key_select, "up/down j/k",
	  "select a group (Home/End: first/last)", KW_ALWAYS },
	{ { 0 }, NULL, NULL, NULL, KW_VIEWS },
	{ { '\t', KEY_BTAB }, key_cycle_view, "Tab S-Tab", "next / previous view", KW_ALWAYS },
	{ { '\n', '\r', KEY_ENTER }, key_maximize, "Enter", "group view on the whole screen, or back", KW_ALWAYS },
	{ { KEY_NPAGE, KEY_PPAGE, ' ' }, key_page, "PgUp PgDn", "scroll the group view (space: down)", KW_LIVE },
	{ { 0 }, NULL, "PgUp PgDn", "scroll the group view", KW_REPLAY },
	{ { '/' }, key_filter, "/", "filter groups by regex (an empty one clears)", KW_ALWAYS },
	{ { KEY_ESC }, key_clear, "Esc", "clear the filter and the message", KW_ALWAYS },
	{ { 's' }, key_sort, "s", NULL, KW_SORTS },
	{ { 'p' }, key_pause, "p", "pause the screen (collection continues)", KW_ALWAYS },
	{ { KEY_LEFT, KEY_RIGHT, KEY_SLEFT, KEY_SRIGHT }, key_scrub, "left right",
	  "scrub history while paused; scroll the timeline", KW_ALWAYS },
	{ { 0 }, NULL, "S-left/right", "scrub ten times as far", KW_ALWAYS },
	{ { '0' }, key_now, "0", "back to now", KW_ALWAYS },
	{ { '[', ']' }, key_walk, "[ ]", "previous / next rebalance (pauses there)", KW_ALWAYS },
	{ { 0 }, NULL, NULL, NULL, KW_VIEW_KEYS },
	{ { 'r' }, key_refresh, "r", "refresh now", KW_LIVE },
	{ { 'T' }, key_theme, "T", "next theme", KW_ALWAYS },
	{ { 'i' }, key_overlay, "i", "sources: the health of each, with the whole message", KW_ALWAYS },
	{ { '?' }, key_overlay, "?", "this help", KW_ALWAYS },
	{ { 'q' }, key_quit, "q", "quit", KW_ALWAYS },
	{ { 'a' }, key_demo_member, "a", "demo: add a member to the selected group", KW_DEMO },
	{ { 'l' }, key_demo_member, "l", "demo: a member leaves gracefully", KW_DEMO },
	{ { 'c' }, key_demo_member, "c", "demo: a member crashes (session timeout)", KW_DEMO },
	{ { 'x' }, key_demo_member, "x", "demo: a member stalls (max.poll.interval)", KW_DEMO },
	{ { 'A' }, key_demo_assignor, "A", "demo: cycle the assignor of new members", KW_DEMO },
	{ { 'P' }, key_demo_script, "P", "demo: pause / resume the script", KW_DEMO_SCRIPT },
	{ { 0 }, NULL, "space", "replay: play / pause", KW_REPLAY },
	{ { '<', '>' }, key_speed, "< >", "replay: slower / faster", KW_REPLAY },
	{ { 0 }, NULL, "]", "replay: past the last one kept, play to the next", KW_REPLAY },
	{ { 0 }, NULL, "[", "replay: before the first kept, where the last was", KW_REPLAY },
};

/* The row that takes a key, NULL when none does. */
static const key_row *
key_find(int key)
{
	size_t i, k;
	for (i = 0; i < KG_ARRAY_LEN(key_table); i++) {
		for (k = 0; k < KG_ARRAY_LEN(key_table[i].keys) && key_table[i].keys[k] != 0; k++) {
			if (key_table[i].keys[k] == key)
				return &key_table[i];
		}
	}
	return NULL;
}

/* A view's digit or letter: show that view; false when the key is none. */
static bool
key_view(ui_screen *s, int key)
{
	int v;
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		if (key == '1' + v || key == render_pane((ui_view_id)v)->key) {
			s->view = (ui_view_id)v;
			s->scroll = 0;
			return true;
		}
	}
	return false;
}

/* Keys while the help or the sources' overlay is open: j/k scroll it, q quits, any other closes it. */
static void
overlay_key(ui_screen *s, int key, ui_action *a)
{
	switch (key) {
	case 'j': case KEY_DOWN: s->help_top++; break;
	case 'k': case KEY_UP: s->help_top--; break;
	case 'q': a->quit = true; break;
	case KEY_RESIZE: break;
	default: s->help = false; break;
	}
}

/* Apply a key. */
void
keys_handle(ui_screen *s, int key, ui_action *a)
{
	const key_row *row;
	int v;
	memset(a, 0, sizeof *a);
	a->redraw = true;
	if (s->filter_edit) {
		filter_key(s, key, a);
		return;
	}
	if (s->help) {
		overlay_key(s, key, a);
		return;
	}
	if (s->status_err && key != KEY_RESIZE)
		s->status[0] = '\0';
	if (key_view(s, key))
		return;
	if ((row = key_find(key)) != NULL) {
		row->run(s, key, a);
		return;
	}
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		const ui_pane *p = render_pane((ui_view_id)v);
		if (p->key_fn != NULL && p->key_fn(s, key, a))
			return;
	}
	a->redraw = key == KEY_RESIZE;
}

/* True when a help line of this kind shows now. */
static bool
key_shown(const ui_screen *s, key_when w)
{
	switch (w) {
	case KW_LIVE: return !is_replay(s);
	case KW_REPLAY: return is_replay(s);
	case KW_DEMO: return is_demo(s);
	case KW_DEMO_SCRIPT: return is_demo(s) && !s->info->demo_no_script;
	default: return true;
	}
}

/* Lines of the help overlay. */
int
keys_help(const ui_screen *s, const char *lines[][2], int max)
{
	/* the views' lines: "1 2 3 4", "views: grid, timeline, health, events", "g t h e" */
	static char digits[2 * UI_VIEW_COUNT + 1], names[256], letters[2 * UI_VIEW_COUNT + 1];
	int n = 0, v;
	size_t i, len;
	const ui_help *h;
#define H(k, t)                          \
	do {                             \
		if (n < max) {           \
			lines[n][0] = k; \
			lines[n][1] = t; \
			n++;             \
		}                        \
	} while (0)
	for (i = 0; i < KG_ARRAY_LEN(key_table); i++) {
		const key_row *r = &key_table[i];
		if (r->when == KW_VIEWS) {
			snprintf(names, sizeof names, "views:");
			for (v = 0; v < UI_VIEW_COUNT; v++) {
				const ui_pane *p = render_pane((ui_view_id)v);
				snprintf(digits + 2 * v, 3, "%d ", v + 1);
				snprintf(letters + 2 * v, 3, "%c ", p->key);
				len = strlen(names);
				snprintf(names + len, sizeof names - len, "%s%s", v ? ", " : " ", p->name);
			}
			digits[2 * UI_VIEW_COUNT - 1] = letters[2 * UI_VIEW_COUNT - 1] = '\0';
			H(digits, names);
			H(letters, "the same views by initial");
		} else if (r->when == KW_VIEW_KEYS) {
			for (v = 0; v < UI_VIEW_COUNT; v++) {
				for (h = render_pane((ui_view_id)v)->help; h != NULL && h->keys != NULL; h++)
					H(h->keys, h->text);
			}
		} else if (key_shown(s, r->when)) {
			H(r->label, r->when == KW_SORTS ? sort_help() : r->help);
		}
	}
#undef H
	return n;
}

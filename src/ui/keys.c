/*
 * keys.c: what each key and mouse click does, and the help overlay
 * listing them.
 *
 * Keys follow the habits of htop, less and k9s: F1 or ? help, F10 or q
 * quit, F3 or / search as you type (n N next, previous), F4 or \ filter
 * as you type, F6 or s sort (S reverses it), Enter into a group's view
 * and Esc back, PgUp PgDn Home End on whatever has the keys (the group
 * list, or the view shown alone), a click selects a group or a view, the
 * wheel scrolls.  A key only changes the screen's state and fills a
 * ui_action for what the loop must do with the outside world (quit,
 * refresh, reload the theme, send a command to the sources), so the
 * whole keyboard is testable without a terminal or a collector.
 *
 * One table holds the keys that are not a view's: each row the keys it
 * takes, what they do and its line of the help overlay, in the help's
 * order.  The views' keys are their panes' (see UI_VIEWS in screen.h):
 * a view's digit and letter show it, and its own keys (its pane's key
 * table) reach it only while it is shown: the pane that has the focus,
 * as a tmux window mode has the keys while it is on.  No key is claimed
 * twice among this table and the views' digits and letters, and no
 * view's own key is one of them (test_ui checks it).  A new key is a
 * row here, or in its view's pane.  While a search or a filter is typed,
 * or the help is open, the keys are theirs.
 */
#include "config.h"

#include "ui/screen.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

#define KEY_ESC 27
#define WHEEL_STEP 3 /* rows a turn of the wheel moves */

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
	int64_t st = p->scroll_step != NULL ? p->scroll_step(s, s->pane_state[s->view]) : 5000000;
	return big ? st * 10 : st;
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

/* Move the view time back (dir < 0) or forward, within the history: the screen pauses, as less stops following. */
static void
scrub(ui_screen *s, int dir, bool big)
{
	int64_t max = 0;
	if (s->snap == NULL)
		return;
	s->paused = true;
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
	lead = KG_MAX(timeline_scale_us(s) * 10, 1000000);
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
		screen_status(s, false, "rebalance of %s began -%s, shown at -%s ([ ] walk, p resumes %s)", g->name, d, v,
			      is_replay(s) ? "the replay" : "live");
	}
	return true;
}

/* Edit a line being typed: backspace, or a printable character added; false for any other key. */
static bool
edit_line(char *buf, size_t size, int key)
{
	size_t n = strlen(buf);
	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (n > 0)
			buf[n - 1] = '\0';
		return true;
	}
	if (key >= 0x20 && key < 0x7f) {
		if (n + 1 < size) {
			buf[n] = (char)key;
			buf[n + 1] = '\0';
		}
		return true;
	}
	return false;
}

/*
 * Keys while typing a filter (\ or F4): it applies as it is typed (a
 * pattern that is no regex yet shows every group until it is one), Enter
 * keeps it (empty: no filter), Esc puts back the one before.
 */
static void
filter_key(ui_screen *s, int key, ui_action *a)
{
	a->redraw = true;
	if (key == KEY_ESC) {
		s->filter_edit = false;
		util_strlcpy(s->filter_buf, s->filter_prev, sizeof s->filter_buf);
		screen_set_filter(s, s->filter_buf);
		s->status[0] = '\0';
	} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		s->filter_edit = false;
		if (screen_set_filter(s, s->filter_buf) == 0) {
			if (s->filter_buf[0] != '\0')
				screen_status(s, false, "filter %s: %d group%s", s->filter, s->norder, s->norder == 1 ? "" : "s");
			else
				screen_status(s, false, "no filter");
		}
	} else if (edit_line(s->filter_buf, sizeof s->filter_buf, key)) {
		regex_t r;
		/* as typed: a pattern that compiles applies; the prompt says when it does not yet */
		if (s->filter_buf[0] != '\0' && regcomp(&r, s->filter_buf, REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0) {
			regfree(&r);
			screen_set_filter(s, s->filter_buf);
		} else {
			screen_set_filter(s, NULL);
		}
	}
}

/* The search's target pane when the view has the keys and can search, else NULL (the group list). */
static const ui_pane *
search_pane(const ui_screen *s)
{
	const ui_pane *p = render_pane(s->view);
	return screen_view_focus(s) && p->search != NULL ? p : NULL;
}

/* Scroll the view so that its line shows, a third of the way down. */
static void
search_show(ui_screen *s, int line)
{
	s->search_hit = line;
	s->scroll = KG_MAX(0, line - KG_MAX(0, s->lay.view.h / 3));
}

/*
 * Find the search from a place: the group list from index from, or the
 * view's line from, in dir (wrapping); select or scroll there.  False
 * when nothing holds it.
 */
static bool
search_find(ui_screen *s, int from, int dir)
{
	const kg_group *g = screen_group(s);
	int hit;
	if (s->search[0] == '\0')
		return false;
	if (!s->search_in_view) {
		hit = screen_find_group(s, s->search, from, dir);
		if (hit >= 0)
			screen_select(s, hit);
		return hit >= 0;
	}
	if (g == NULL)
		return false;
	hit = render_pane(s->view)->search(s, s->pane_state[s->view], g, s->search, from, dir);
	if (hit < 0) /* wrap */
		hit = render_pane(s->view)->search(s, s->pane_state[s->view], g, s->search, dir > 0 ? 0 : INT_MAX, dir);
	if (hit < 0) {
		s->search_hit = -1;
		return false;
	}
	search_show(s, hit);
	return true;
}

/* Where a search that began at the selection (or at the view's top line) looks first. */
static int
search_origin(const ui_screen *s)
{
	int i;
	if (s->search_in_view)
		return s->search_scroll;
	for (i = 0; s->snap != NULL && i < s->norder; i++) {
		if (strcmp(s->snap->groups[s->order[i]].name, s->search_from) == 0)
			return i;
	}
	return 0;
}

/* Put back the selection and the scroll of before the search. */
static void
search_restore(ui_screen *s)
{
	util_strlcpy(s->selected, s->search_from, sizeof s->selected);
	screen_order(s);
	s->scroll = s->search_scroll;
}

/*
 * Keys while typing a search (/ or F3): each key finds the first match
 * from where the search began (a group's name in the list, a line of the
 * view that has the keys); Enter keeps it for n and N, Esc cancels and
 * goes back.
 */
static void
search_key(ui_screen *s, int key, ui_action *a)
{
	a->redraw = true;
	if (key == KEY_ESC) {
		s->search_edit = false;
		s->search[0] = '\0';
		s->search_hit = -1;
		search_restore(s);
	} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		s->search_edit = false;
		if (s->search[0] != '\0')
			screen_status(s, false, "n N: the next, the previous that holds \"%s\"", s->search);
	} else if (edit_line(s->search, sizeof s->search, key)) {
		search_restore(s);
		s->search_hit = -1;
		search_find(s, search_origin(s), 1);
	}
}

/* Up/down, j/k: select the previous or next group (whatever has the keys). */
static void
key_select(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	screen_select(s, s->sel + (key == 'j' || key == KEY_DOWN ? 1 : -1));
}

/* Scroll the view by n lines (down when positive), within what it drew last. */
static void
view_scroll(ui_screen *s, int n)
{
	s->scroll += n;
	if (s->scroll > s->view_rows - s->lay.view.h)
		s->scroll = KG_MAX(0, s->view_rows - s->lay.view.h);
	if (s->scroll < 0)
		s->scroll = 0;
}

/*
 * PgUp, PgDn, space, Home End (g G, as in less and k9s): page, or go to
 * the end of, what has the keys: the group list, or the view shown alone
 * (space plays or pauses a replay).
 */
static void
key_page(ui_screen *s, int key, ui_action *a)
{
	int page;
	if (key == ' ' && is_replay(s)) {
		command(a, KG_ROLE_REPLAY, "%s", "toggle");
		return;
	}
	if (key == 'g' && !s->told_g) {
		/* g was the grid's letter: say it once */
		screen_status(s, false, "g: the top (as in less); the grid view is o (or 1)");
		s->told_g = true;
	}
	if (screen_view_focus(s)) {
		page = KG_MAX(1, s->lay.view.h - 2);
		if (key == KEY_HOME || key == 'g')
			s->scroll = 0;
		else if (key == KEY_END || key == 'G')
			s->scroll = KG_MAX(0, s->view_rows - s->lay.view.h);
		else
			view_scroll(s, key == KEY_PPAGE ? -page : page);
		return;
	}
	page = KG_MAX(1, s->lay.list.h - 2);
	if (key == KEY_HOME || key == 'g')
		screen_select(s, 0);
	else if (key == KEY_END || key == 'G')
		screen_select(s, s->norder - 1);
	else
		screen_select(s, s->sel + (key == KEY_PPAGE ? -page : page));
}

/* Tab, S-Tab: the next or previous view. */
static void
key_cycle_view(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	if (s->lay.narrow && !s->maximized) {
		s->maximized = true; /* one pane at a time: Tab first shows the view */
		return;
	}
	s->view = (ui_view_id)((s->view + (key == '\t' ? 1 : UI_VIEW_COUNT - 1)) % UI_VIEW_COUNT);
	s->scroll = 0;
}

/* Enter: the group view on the whole screen, with the keys (under 80x24: instead of the list), or back. */
static void
key_maximize(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->maximized = !s->maximized;
}

/* \ or F4: type a filter (a regex on the names, applied as it is typed), from the one in force. */
static void
key_filter(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->filter_edit = true;
	util_strlcpy(s->filter_prev, s->filter, sizeof s->filter_prev);
	util_strlcpy(s->filter_buf, s->filter, sizeof s->filter_buf);
}

/* / or F3: search as you type: the group list, or the view that has the keys when it can search. */
static void
key_search(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->search_edit = true;
	s->search[0] = '\0';
	s->search_hit = -1;
	s->search_in_view = search_pane(s) != NULL;
	util_strlcpy(s->search_from, s->selected, sizeof s->search_from);
	s->search_scroll = s->scroll;
}

/* n N: the next or previous place that holds the search. */
static void
key_next(ui_screen *s, int key, ui_action *a)
{
	int dir = key == 'n' ? 1 : -1;
	(void)a;
	if (s->search[0] == '\0') {
		screen_status(s, false, "/ searches first; then n and N find the next and the previous");
		return;
	}
	if (s->search_in_view && search_pane(s) == NULL) {
		s->search_in_view = false; /* the view that was searched is gone: the list */
		s->search_hit = -1;
	}
	if (!search_find(s, s->search_in_view ? s->search_hit + dir : s->sel + dir, dir))
		screen_status(s, false, "nothing holds \"%s\"", s->search);
}

/* Esc: out of the view shown alone, else the search, else the filter, else the message. */
static void
key_clear(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	if (s->maximized) {
		s->maximized = false;
		return;
	}
	if (s->search[0] != '\0') {
		s->search[0] = '\0';
		s->search_hit = -1;
	} else if (s->re_ok) {
		screen_set_filter(s, NULL);
	}
	s->status[0] = '\0';
}

/* s: the next sort order (the group table's, in its order); S: the same order reversed. */
static void
key_sort(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	if (key == 'S')
		s->sort_reverse = !s->sort_reverse;
	else
		s->sort = groupcol_sort_next(s->sort);
	screen_order(s);
}

/* F6: the sort menu, as htop's, its cursor on the order in force. */
static void
key_sort_menu(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	s->sort_menu = true;
	s->sort_menu_row = s->sort;
}

/* The sort order before row (wrapping). */
static int
sort_prev(int row)
{
	int i = groupcol_sort_next(-1), prev = -1, first = i;
	do {
		if (i == row && prev >= 0)
			return prev;
		prev = i;
		i = groupcol_sort_next(i);
	} while (i != first);
	return prev; /* row is the first: the last */
}

/*
 * Keys while the sort menu is open: up down j k move, Home End g G the
 * first and the last, Enter or space sorts by the order under the cursor,
 * S reverses, Esc q F6 close it as it was; F10 quits.
 */
static void
sort_menu_key(ui_screen *s, int key, ui_action *a)
{
	int first = groupcol_sort_next(-1);
	switch (key) {
	case 'j': case KEY_DOWN: s->sort_menu_row = groupcol_sort_next(s->sort_menu_row); break;
	case 'k': case KEY_UP: s->sort_menu_row = sort_prev(s->sort_menu_row); break;
	case 'g': case KEY_HOME: s->sort_menu_row = first; break;
	case 'G': case KEY_END: s->sort_menu_row = sort_prev(first); break;
	case 'S': s->sort_reverse = !s->sort_reverse; screen_order(s); break;
	case '\n': case '\r': case KEY_ENTER: case ' ':
		s->sort = s->sort_menu_row;
		s->sort_menu = false;
		screen_order(s);
		break;
	case KEY_ESC: case 'q': case KEY_F(6): s->sort_menu = false; break;
	case KEY_F(10): a->quit = true; break;
	default: break;
	}
}

/* The help line of s: "the next sort order: name, state, lag, ...", from the group table. */
static const char *
sort_help(void)
{
	static char line[160];
	int i = groupcol_sort_next(-1), first = i;
	size_t len;
	snprintf(line, sizeof line, "the next sort order:");
	while (i >= 0) {
		len = strlen(line);
		snprintf(line + len, sizeof line - len, "%s%s", i != first ? ", " : " ", groupcol_sort_name(i));
		if ((i = groupcol_sort_next(i)) == first)
			break;
	}
	return line;
}

/* v: the timeline comparing the selected group with the next one (from any view); again, one group. */
static void
key_compare(ui_screen *s, int key, ui_action *a)
{
	(void)key;
	(void)a;
	timeline_compare_toggle(s);
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

/* Left, right (shifted: ten times as far): pause and scrub through the history. */
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

/* r, F5: refresh now (a replay has nothing to refresh). */
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

/* ?, F1, i: the help, or the sources' health. */
static void
key_overlay(ui_screen *s, int key, ui_action *a)
{
	(void)a;
	s->help = true;
	s->sources = key == 'i';
	s->help_top = 0;
}

/* q, F10: quit. */
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
	{ { 'j', KEY_DOWN, 'k', KEY_UP }, key_select, "up down j k", "select a group", KW_ALWAYS },
	{ { KEY_NPAGE, KEY_PPAGE, KEY_HOME, KEY_END, 'g', 'G', ' ' }, key_page, "PgUp PgDn",
	  "page the groups, or the view alone (space: down)", KW_LIVE },
	{ { 0 }, NULL, "PgUp PgDn", "page the groups, or the view alone", KW_REPLAY },
	{ { 0 }, NULL, "Home End g G", "the first, the last of them (as in less)", KW_ALWAYS },
	{ { 0 }, NULL, NULL, NULL, KW_VIEWS },
	{ { '\t', KEY_BTAB }, key_cycle_view, "Tab S-Tab", "next / previous view", KW_ALWAYS },
	{ { '\n', '\r', KEY_ENTER }, key_maximize, "Enter", "the group's view alone, with the keys, or back", KW_ALWAYS },
	{ { KEY_ESC }, key_clear, "Esc", "back to the groups, or clear search and filter", KW_ALWAYS },
	{ { '/', KEY_F(3) }, key_search, "/ F3", "search as you type (groups, or the view alone)", KW_ALWAYS },
	{ { 'n', 'N' }, key_next, "n N", "the next / previous match", KW_ALWAYS },
	{ { '\\', KEY_F(4) }, key_filter, "\\ F4", "filter the groups by a regex, as you type", KW_ALWAYS },
	{ { 's' }, key_sort, "s", NULL, KW_SORTS },
	{ { KEY_F(6) }, key_sort_menu, "F6", "sort menu: choose the order (Enter), as in htop", KW_ALWAYS },
	{ { 'S' }, key_sort, "S", "reverse the sort order", KW_ALWAYS },
	{ { 'p' }, key_pause, "p", "pause or resume the screen (collection goes on)", KW_ALWAYS },
	{ { KEY_LEFT, KEY_RIGHT, KEY_SLEFT, KEY_SRIGHT }, key_scrub, "left right",
	  "pause, scrub the history (shifted: 10x as far)", KW_ALWAYS },
	{ { '0' }, key_now, "0", "back to now", KW_ALWAYS },
	{ { '[', ']' }, key_walk, "[ ]", "previous / next rebalance (pauses there)", KW_ALWAYS },
	{ { 'v' }, key_compare, "v", "timeline: compare with the next groups", KW_ALWAYS },
	{ { 0 }, NULL, NULL, NULL, KW_VIEW_KEYS },
	{ { 'r', KEY_F(5) }, key_refresh, "r F5", "refresh now", KW_LIVE },
	{ { 'T' }, key_theme, "T", "next theme", KW_ALWAYS },
	{ { 'i' }, key_overlay, "i", "sources: each one's health and whole message", KW_ALWAYS },
	{ { '?', KEY_F(1) }, key_overlay, "? F1", "this help", KW_ALWAYS },
	{ { 'q', KEY_F(10) }, key_quit, "q F10", "quit", KW_ALWAYS },
	{ { 0 }, NULL, "mouse", "click a group or a view's tab; the wheel scrolls", KW_ALWAYS },
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

/*
 * Keys while the help or the sources' overlay is open, as in less: j k
 * a line, PgDn space and PgUp b a page, Home End; Esc, q, ? (F1), i close
 * it; F10 quits kgtop.  Other keys do nothing.
 */
static void
overlay_key(ui_screen *s, int key, ui_action *a)
{
	int page = KG_MAX(1, s->lay.rows - 5); /* the help's rows (overlay.c's overlay_help), less one in common */
	switch (key) {
	case 'j': case KEY_DOWN: s->help_top++; break;
	case 'k': case KEY_UP: s->help_top--; break;
	case ' ': case 'f': case KEY_NPAGE: s->help_top += page; break;
	case 'b': case KEY_PPAGE: s->help_top = KG_MAX(0, s->help_top - page); break;
	case 'g': case KEY_HOME: s->help_top = 0; break;
	case 'G': case KEY_END: s->help_top = INT_MAX / 2; break;
	case KEY_ESC: case 'q': case '?': case 'i': case KEY_F(1): s->help = false; break;
	case KEY_F(10): a->quit = true; break;
	default: break;
	}
}

/* The shown view's own key: do it (true), or false when the view has no such key or is not on the screen. */
static bool
key_pane(ui_screen *s, int key, ui_action *a)
{
	const ui_pane *p = render_pane(s->view);
	const ui_pane_key *k;
	int i;
	if (!screen_view_shown(s))
		return false;
	for (k = p->keys; k != NULL && k->run != NULL; k++) {
		for (i = 0; i < (int)KG_ARRAY_LEN(k->keys) && k->keys[i] != 0; i++) {
			if (k->keys[i] == key) {
				k->run(s, s->pane_state[s->view], key, a);
				return true;
			}
		}
	}
	return false;
}

/* Apply a key. */
void
keys_handle(ui_screen *s, int key, ui_action *a)
{
	const key_row *row;
	memset(a, 0, sizeof *a);
	a->redraw = true;
	if (key == KEY_MOUSE) {
		MEVENT ev;
		if (getmouse(&ev) == OK)
			keys_mouse(s, ev.y, ev.x, (unsigned long)ev.bstate, a);
		return;
	}
	if (s->search_edit) {
		search_key(s, key, a);
		return;
	}
	if (s->filter_edit) {
		filter_key(s, key, a);
		return;
	}
	if (s->help) {
		overlay_key(s, key, a);
		return;
	}
	if (s->sort_menu) {
		sort_menu_key(s, key, a);
		return;
	}
	if (s->status_err && key != KEY_RESIZE)
		s->status[0] = '\0';
	if (key_view(s, key))
		return;
	if ((row = key_find(key)) != NULL) {
		int64_t was = s->offset_us;
		row->run(s, key, a);
		if (s->offset_us != was)
			screen_order(s); /* the list's order is the one of the time shown */
		return;
	}
	if (key_pane(s, key, a))
		return;
	a->redraw = key == KEY_RESIZE;
}

/* True when (y, x) is in r. */
static bool
in_rect(ui_rect r, int y, int x)
{
	return r.h > 0 && y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

/*
 * A mouse event: the wheel scrolls the help, the view under it (a step of
 * lines) or the group list (the selection); a click on a group selects it
 * (on the selected one, under 80x24, shows its view), a click on a view's
 * tab shows that view.
 */
void
keys_mouse(ui_screen *s, int y, int x, unsigned long bstate, ui_action *a)
{
	const ui_layout *l = &s->lay;
	int dir = (bstate & BUTTON4_PRESSED) ? -1 : (bstate & BUTTON5_PRESSED) ? 1 : 0, v;
	memset(a, 0, sizeof *a);
	a->redraw = true;
	if (s->help) {
		s->help_top = KG_MAX(0, s->help_top + dir * WHEEL_STEP);
		return;
	}
	if (s->sort_menu) {
		s->sort_menu = false; /* a click or the wheel elsewhere: the menu closes, the order as it was */
		return;
	}
	if (dir != 0) {
		if (in_rect(l->view, y, x))
			view_scroll(s, dir * WHEEL_STEP);
		else if (in_rect(l->list, y, x))
			screen_select(s, s->sel + dir * WHEEL_STEP);
		return;
	}
	if (!(bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return;
	if (in_rect(l->list, y, x) && y > l->list.y) {
		int i = s->list_top + (y - l->list.y - 1);
		if (i < 0 || i >= s->norder)
			return;
		if (i == s->sel && l->narrow)
			s->maximized = true;
		screen_select(s, i);
		return;
	}
	if (y == l->tabs.y && l->tabs.h > 0) {
		for (v = 0; v < UI_VIEW_COUNT; v++) {
			if (s->tab_w[v] > 0 && x >= s->tab_x[v] && x < s->tab_x[v] + s->tab_w[v]) {
				s->view = (ui_view_id)v;
				s->scroll = 0;
			}
		}
	}
}

/* Put a claim at out[n] when n < max; returns n + 1. */
static int
claim(ui_key_claim *out, int n, int max, int key, int view, const char *what)
{
	if (n < max)
		out[n] = (ui_key_claim){ .key = key, .view = view, .what = what };
	return n + 1;
}

/* Every key claimed: the table's, the views' digits and letters, each view's own; returns the count. */
int
keys_claims(ui_key_claim *out, int max)
{
	int n = 0, v, k;
	size_t i;
	const ui_pane_key *pk;
	for (i = 0; i < KG_ARRAY_LEN(key_table); i++) {
		for (k = 0; k < (int)KG_ARRAY_LEN(key_table[i].keys) && key_table[i].keys[k] != 0; k++)
			n = claim(out, n, max, key_table[i].keys[k], -1, key_table[i].label);
	}
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		const ui_pane *p = render_pane((ui_view_id)v);
		n = claim(out, n, max, '1' + v, -1, p->name);
		n = claim(out, n, max, p->key, -1, p->name);
		for (pk = p->keys; pk != NULL && pk->run != NULL; pk++) {
			for (k = 0; k < (int)KG_ARRAY_LEN(pk->keys) && pk->keys[k] != 0; k++)
				n = claim(out, n, max, pk->keys[k], v, pk->help);
		}
	}
	return n;
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
	const ui_pane_key *k;
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
			/* the shown view's own: only it takes them */
			for (k = render_pane(s->view)->keys; k != NULL && k->run != NULL; k++)
				H(k->label, k->help);
		} else if (key_shown(s, r->when)) {
			H(r->label, r->when == KW_SORTS ? sort_help() : r->help);
		}
	}
	/* then what the group list's columns say, from the group table */
	H("columns", "what the group list's columns say:");
	H("GROUP", groupcol_table[groupcol_sort_find("name")].help);
	for (v = 0; v < groupcol_count; v++) {
		if (groupcol_table[v].title != NULL)
			H(groupcol_table[v].title, groupcol_table[v].help);
	}
#undef H
	return n;
}

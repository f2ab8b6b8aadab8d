/*
 * keys.c: what each key does, and the help overlay listing them.
 *
 * Keys follow top/less/vim habits.  A key only changes the screen's state
 * and fills a ui_action for what the loop must do with the outside world
 * (quit, refresh, reload the theme, send a command to the sources), so
 * the whole keyboard is testable without a terminal or a collector.
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

/* How far one step of left/right moves. */
static int64_t
scrub_step(const ui_screen *s, bool big)
{
	int64_t st = s->view == UI_VIEW_TIMELINE ? screen_scale_us(s) * 8 : 5000000;
	return big ? st * 10 : st;
}

/* Move the view time back (dir < 0) or forward, within the history. */
static void
scrub(ui_screen *s, int dir, bool big)
{
	int64_t max = 0;
	if (s->snap == NULL)
		return;
	if (!s->paused && s->view != UI_VIEW_TIMELINE) {
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
	ref = s->jump_start_us != 0 && s->jump_group == g->id && s->jump_view_us == view ? s->jump_start_us : view;
	t = history_next_episode(s->hist, g->id, ref, dir);
	if (t == 0)
		return false;
	/* a little after its start: ten timeline columns, at least a second */
	lead = KG_MAX(screen_scale_us(s) * 10, 1000000);
	s->paused = true;
	s->offset_us = s->snap->time_us - (t + lead);
	if (s->offset_us < 0)
		s->offset_us = 0;
	s->jump_group = g->id;
	s->jump_start_us = t;
	s->jump_view_us = screen_view_time(s);
	{
		char d[32];
		util_fmt_duration(d, sizeof d, s->snap->time_us - t);
		screen_status(s, false, "rebalance of %s %s ago ([ ] walk, p resumes live)", g->name, d);
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

/* Apply a key. */
void
keys_handle(ui_screen *s, int key, ui_action *a)
{
	const kg_group *g = screen_group(s);
	const char *gname = g != NULL ? g->name : "";
	bool demo = s->info != NULL && s->info->demo, replay = s->info != NULL && s->info->replay;
	memset(a, 0, sizeof *a);
	a->redraw = true;
	if (s->filter_edit) {
		filter_key(s, key, a);
		return;
	}
	if (s->help) {
		switch (key) {
		case 'j': case KEY_DOWN: s->help_top++; return;
		case 'k': case KEY_UP: s->help_top--; return;
		case 'q': a->quit = true; return;
		case KEY_RESIZE: return;
		default: s->help = false; return;
		}
	}
	if (s->status_err && key != KEY_RESIZE)
		s->status[0] = '\0';
	switch (key) {
	case 'q':
		a->quit = true;
		break;
	case '?':
	case 'i':
		s->help = true;
		s->sources = key == 'i';
		s->help_top = 0;
		break;
	case KEY_ESC:
		if (s->re_ok)
			screen_set_filter(s, NULL);
		s->status[0] = '\0';
		break;
	case '1': case 'g': s->view = UI_VIEW_GRID; s->scroll = 0; break;
	case '2': case 't': s->view = UI_VIEW_TIMELINE; s->scroll = 0; break;
	case '3': case 'h': s->view = UI_VIEW_HEALTH; s->scroll = 0; break;
	case '4': case 'e': s->view = UI_VIEW_EVENTS; s->scroll = 0; break;
	case '\t':
		s->view = (ui_view_id)((s->view + 1) % UI_VIEW_COUNT);
		s->scroll = 0;
		break;
	case KEY_BTAB:
		s->view = (ui_view_id)((s->view + UI_VIEW_COUNT - 1) % UI_VIEW_COUNT);
		s->scroll = 0;
		break;
	case 'j': case KEY_DOWN:
	case 'k': case KEY_UP:
	case KEY_HOME: case KEY_END:
		if (s->norder > 0) {
			int sel = s->sel;
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
		break;
	case KEY_NPAGE: case ' ':
		if (key == ' ' && replay) {
			command(a, KG_ROLE_REPLAY, "%s", "toggle");
			break;
		}
		s->scroll += KG_MAX(1, s->lay.view.h - 2);
		if (s->scroll > s->view_rows - s->lay.view.h)
			s->scroll = KG_MAX(0, s->view_rows - s->lay.view.h);
		break;
	case KEY_PPAGE:
		s->scroll = KG_MAX(0, s->scroll - KG_MAX(1, s->lay.view.h - 2));
		break;
	case '\n': case '\r': case KEY_ENTER:
		s->maximized = !s->maximized;
		break;
	case 's':
		s->sort = (ui_sort)((s->sort + 1) % UI_SORT_COUNT);
		screen_order(s);
		break;
	case '/':
		/* like less and htop: a new pattern from scratch (the footer shows the one in force) */
		s->filter_edit = true;
		s->filter_buf[0] = '\0';
		break;
	case 'p':
		s->paused = !s->paused;
		if (!s->paused)
			s->offset_us = 0;
		break;
	case KEY_LEFT: case KEY_SLEFT:
		scrub(s, -1, key == KEY_SLEFT);
		break;
	case KEY_RIGHT: case KEY_SRIGHT:
		scrub(s, 1, key == KEY_SRIGHT);
		break;
	case '0':
		s->offset_us = 0;
		break;
	case '+': case '=':
		if (s->zoom > 0)
			s->zoom--;
		break;
	case '-': case '_':
		if (s->zoom < screen_nscales() - 1)
			s->zoom++;
		break;
	case 'v':
		/* compare: the timeline of the selected group above the next one's */
		s->compare = s->view != UI_VIEW_TIMELINE || !s->compare;
		s->view = UI_VIEW_TIMELINE;
		s->scroll = 0;
		break;
	case 'm':
		s->by_partition = !s->by_partition;
		s->scroll = 0;
		break;
	case 'w':
		s->wall_clock = !s->wall_clock;
		break;
	case 'r':
		if (replay) {
			screen_status(s, false, "a replay has nothing to refresh: space plays, < > change the speed");
			break;
		}
		a->refresh = true;
		screen_status(s, false, "refreshing");
		break;
	case 'T': {
		char names[32][64];
		int n = theme_list(names, 32), i, cur = -1;
		for (i = 0; i < n; i++) {
			if (strcmp(names[i], s->theme_name) == 0)
				cur = i;
		}
		util_strlcpy(s->theme_name, names[(cur + 1) % n], sizeof s->theme_name);
		a->theme = true;
		break;
	}
	case '[': case ']':
		/* from the history the dashboard keeps, live or in a replay */
		if (jump_episode(s, key == '[' ? -1 : 1))
			break;
		if (key == ']' && replay) {
			/* none later in the history: the replay plays on to the next one it recorded */
			s->paused = false;
			s->offset_us = 0;
			command(a, KG_ROLE_REPLAY, "%s", "next-rebalance");
		} else if (replay) {
			/* none earlier in the history: the replay says where the previous one it recorded is */
			command(a, KG_ROLE_REPLAY, "%s", "prev-rebalance");
		} else {
			screen_status(s, false, "no %s rebalance of %s in the history", key == '[' ? "earlier" : "later",
				      g != NULL ? g->name : "this group");
		}
		break;
	case '<': case '>':
		if (replay)
			command(a, KG_ROLE_REPLAY, "%s", key == '<' ? "slower" : "faster");
		break;
	case 'a': case 'l': case 'c': case 'x':
		if (demo && g != NULL)
			command(a, KG_ROLE_DEMO,
				key == 'a' ? "add-member %s" : key == 'l' ? "leave %s" : key == 'c' ? "crash %s" : "stall %s", gname);
		break;
	case 'A':
		if (demo) {
			s->assignor = (s->assignor + 1) % (int)KG_ARRAY_LEN(assignors);
			command(a, KG_ROLE_DEMO, "assignor %s", assignors[s->assignor]);
			screen_status(s, false, "new members will use %s", assignors[s->assignor]);
		}
		break;
	case 'P':
		/* the footer changes when the demo confirms ("script paused"), see screen_reply() */
		if (demo)
			command(a, KG_ROLE_DEMO, "%s", s->demo_paused ? "resume-script" : "pause-script");
		break;
	default:
		a->redraw = key == KEY_RESIZE;
		break;
	}
}

/* Lines of the help overlay. */
int
keys_help(const ui_screen *s, const char *lines[][2], int max)
{
	int n = 0;
#define H(k, t)                          \
	do {                             \
		if (n < max) {           \
			lines[n][0] = k; \
			lines[n][1] = t; \
			n++;             \
		}                        \
	} while (0)
	bool replay = s->info != NULL && s->info->replay;
	H("up/down j/k", "select a group (Home/End: first/last)");
	H("1 2 3 4", "views: grid, timeline, health, events");
	H("g t h e", "the same views by initial");
	H("Tab S-Tab", "next / previous view");
	H("Enter", "group view on the whole screen, or back");
	H("PgUp PgDn", replay ? "scroll the group view" : "scroll the group view (space: down)");
	H("/", "filter groups by regex (an empty one clears)");
	H("Esc", "clear the filter and the message");
	H("s", "sort by name, lag, state, rebalances");
	H("p", "pause the screen (collection continues)");
	H("left right", "scrub history while paused; scroll the timeline");
	H("S-left/right", "scrub ten times as far");
	H("0", "back to now");
	H("[ ]", "previous / next rebalance (pauses there)");
	H("m", "grid and timeline: by member / by partition");
	H("+ -", "timeline: zoom in / out");
	H("v", "timeline: compare with the next group");
	H("w", "timeline and events: clock / relative times");
	if (!replay)
		H("r", "refresh now");
	H("T", "next theme");
	H("i", "sources: the health of each, with the whole message");
	H("?", "this help");
	H("q", "quit");
	if (s->info != NULL && s->info->demo) {
		H("a", "demo: add a member to the selected group");
		H("l", "demo: a member leaves gracefully");
		H("c", "demo: a member crashes (session timeout)");
		H("x", "demo: a member stalls (max.poll.interval)");
		H("A", "demo: cycle the assignor of new members");
		if (!s->info->demo_no_script)
			H("P", "demo: pause / resume the script");
	}
	if (replay) {
		H("space", "replay: play / pause");
		H("< >", "replay: slower / faster");
		H("]", "replay: past the last one kept, play to the next");
		H("[", "replay: before the first kept, where the last was");
	}
#undef H
	return n;
}

/*
 * screen.h: the dashboard's state and the pieces that draw it (internal
 * to src/ui).
 *
 * A ui_screen holds what the user chose (view, sort, filter, pause,
 * scrub offset; each view's own choices are in its pane's state), what
 * is shown (one snapshot reference, the history, a fixed or live clock)
 * and the curses attributes of the theme.  Drawing is a pure function of it: render_frame() erases stdscr
 * and draws every pane into it, so the same code draws the live terminal
 * and the golden tests' /dev/null screen.  Keys change the state and say
 * what the loop must do (keys_handle()).  Layout is computed in one place
 * (render_layout), from the terminal size, the number of groups and the
 * height of the status line.  From 80x24 up the group list and the
 * selected group's view share the screen; from 40x12 to there, one of
 * them at a time (Enter, Tab or a click shows the view, Esc the list).
 * Focus: the keys that move (up/down, PgUp/PgDn, Home/End, the wheel, n/N)
 * move the group list, or the view when it has the screen to itself
 * (maximized, or the only pane shown); a view's own keys reach it while
 * it is on the screen.
 */
#ifndef KGTOP_UI_SCREEN_H
#define KGTOP_UI_SCREEN_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/options.h"
#include "model/history.h"
#include "model/snapshot.h"
#include "report/groupcol.h"
#include "ui/glyph.h"
#include "ui/theme.h"
#include "ui/ui.h"
#include "util/util.h"

#define UI_MIN_ROWS 12  /* smaller: "terminal too small" */
#define UI_MIN_COLS 40
#define UI_FULL_ROWS 24 /* smaller: one pane at a time */
#define UI_FULL_COLS 80

/*
 * The group views in tab order, X(ID, pane): a view's digit is its place
 * here, everything else about it (name, letter, drawing, keys, footer
 * hints, help lines) is its ui_pane, defined in its view_NAME.c.  A new
 * view is that file and one row here.
 */
#define UI_VIEWS(X)                          \
	X(UI_VIEW_GRID, view_grid_pane)         \
	X(UI_VIEW_TIMELINE, view_timeline_pane) \
	X(UI_VIEW_HEALTH, view_health_pane)     \
	X(UI_VIEW_EVENTS, view_events_pane)     \
	X(UI_VIEW_LAG, view_lag_pane)

#define UI_VIEW_ID(id, pane) id,
typedef enum ui_view_id { UI_VIEWS(UI_VIEW_ID) UI_VIEW_COUNT } ui_view_id;
#undef UI_VIEW_ID

typedef struct ui_rect {
	int y, x, h, w;
} ui_rect;

/* Where each part goes; computed by render_layout() from the size alone. */
typedef struct ui_layout {
	int rows, cols;
	bool too_small;
	bool narrow;     /* under 80x24: the list or the view, one at a time */
	bool wide;       /* list on the left, view on the right */
	ui_rect header;  /* 1 or 2 lines */
	ui_rect list;    /* group list including its column titles (h 0: not shown) */
	ui_rect tabs;    /* the view names line (h 0: not shown) */
	ui_rect view;    /* the group view's body (h 0: not shown) */
	ui_rect status;  /* one line above the footer */
	ui_rect footer;
} ui_layout;

/* What the loop must do after a key. */
typedef struct ui_action {
	bool quit;
	bool refresh;
	bool redraw;
	bool theme;       /* reload the theme named in s->theme_name */
	char kind[16];    /* a collector command: the role it is for (src_role_name()), empty when none */
	char cmd[160];    /* and its text */
} ui_action;

typedef struct ui_screen {
	/* inputs */
	const kg_options *opts;
	const kg_ui_info *info;
	kg_history *hist;
	kg_snapshot *snap;      /* shown (one reference); NULL before the first frame */
	int ntrouble;           /* groups in trouble in snap, counted by screen_set_snapshot */
	int64_t now_us;         /* wall clock of this frame */
	int64_t t0_us;          /* time of the first snapshot: events count from it */
	int64_t interval_us;
	int complete;           /* sources that completed a refresh */
	bool ascii;
	bool colour;            /* the terminal shows the theme's colours */
	/* user state (each view's own is its pane's, in pane_state) */
	ui_view_id view;
	void *pane_state[UI_VIEW_COUNT]; /* each view's state, made by its pane's init (NULL: none) */
	int sort;               /* the group table's row the list is sorted by (groupcol_table) */
	bool paused;
	int64_t offset_us;      /* scrub / scroll back from the snapshot's time */
	bool help;
	int help_top;
	bool sources;   /* the overlay is the sources' health (i), not the keys (?) */
	bool maximized;         /* Enter: the group view takes the whole body, and the keys (Esc: back) */
	int scroll;             /* first row of the group view body */
	char selected[256];     /* selected group's name */
	char want[256];         /* --select's group until it appears (or a key selects another), "" none */
	int list_top;
	bool sort_reverse;      /* S: the sort order upside down */
	bool sort_menu;         /* F6: the sort menu is open (as htop's), its cursor on a row of the group table */
	int sort_menu_row;
	char filter[128];
	bool filter_edit;       /* typing a filter (\ or F4): it applies as it is typed */
	char filter_buf[128];
	char filter_prev[128];  /* the filter before the typing, which Esc puts back */
	regex_t re;
	bool re_ok;
	/* search (/ or F3): as it is typed, in the group list or the view that has the keys; n N */
	bool search_edit;
	bool search_in_view;    /* the search is the view's (its pane's search()), not the list's */
	char search[128];
	int search_hit;         /* the view's line that matched, -1 none */
	char search_from[256];  /* the group selected when the search began, which Esc selects again */
	int search_scroll;      /* and the view's scroll */
	/* where the last frame drew the view tabs, for the mouse */
	int tab_x[UI_VIEW_COUNT], tab_w[UI_VIEW_COUNT];
	bool demo_paused;       /* the demo's script is paused (as its last reply said) */
	bool told_g;            /* the status line said once that g is the top now, the grid o */
	int assignor;           /* demo: index of the assignor for new members */
	/* [ ]: the episode the last jump showed, so that the next one walks on from it */
	int32_t jump_group;
	int64_t jump_start_us;  /* its start, 0 none */
	int64_t jump_view_us;   /* the view time the jump set */
	/* status line */
	char status[256];
	bool status_err;
	int64_t status_until;   /* monotonic; 0 = until replaced */
	/* theme */
	char theme_name[512];   /* a theme's name, or a theme file's path (with a '/') */
	ui_theme theme;
	attr_t attr[UI_EL_COUNT];
	/* derived per frame */
	ui_layout lay;
	int *order;             /* indexes of shown groups, filtered and sorted */
	int norder, corder;
	int names_w;            /* the widest name of the list's groups (screen_order): not measured each frame */
	int sel;                /* index into order, -1 none */
	int view_rows;          /* rows the last drawn view needed (for scrolling) */
	int tabs_lv;            /* the tabs line's level of detail in the last frame (render.c) */
} ui_screen;

/* A group as the history saw it at the view time (scrubbed back). */
typedef struct ui_past {
	kg_group_state state;
	bool in_episode;
	int nmembers;           /* lanes that were members */
	int nparts;
	int64_t lag;            /* -1 unknown */
	int rebalances_1h;      /* episodes started in the hour before */
	bool progress;          /* the history had its verdict then */
	kg_verdict_point vp;    /* and it */
} ui_past;

/* A scrolling line cursor over a view's rect (s->scroll lines skipped). */
typedef struct ui_lines {
	struct ui_screen *s;
	ui_rect r;
	int line;
} ui_lines;

/* A footer hint: a key and what it does now. */
typedef struct ui_hint {
	const char *key;
	const char *label;
	int prio; /* 0 always shown; higher numbers give way first when the line is short */
} ui_hint;

/*
 * A key of a view's own: it reaches the view only while the view is shown
 * (the pane that has the focus), never another view.
 */
typedef struct ui_pane_key {
	int keys[4];      /* the keys it takes, 0 ends */
	/* Do it; st is the view's state. */
	void (*run)(ui_screen *s, void *st, int key, ui_action *a);
	const char *label; /* its line in the help overlay: "+ -" */
	const char *help;  /* "zoom in / out" */
} ui_pane_key;

/*
 * A group view, as tmux's window modes: its row of UI_VIEWS points to one.
 * The view owns its state (made by init when the screen is, released by
 * free, handed to each of its functions) and its keys; the screen keeps
 * only what every view shares (the selection, the view time, the scroll).
 */
typedef struct ui_pane {
	const char *name;  /* its tab and its word in the help: "grid" */
	int key;           /* the letter that shows it ('t'), besides its digit */
	/* Optional: a new state for the view, its defaults from the screen's options and info. */
	void *(*init)(const ui_screen *s);
	/* Optional: release a state init made. */
	void (*free)(void *st);
	/* Draw the group into the view's rect. */
	void (*draw)(ui_screen *s, void *st, const kg_group *g, ui_rect r);
	const ui_pane_key *keys; /* its own keys, ending with a row whose run is NULL; NULL none */
	/* Optional: its footer hints while shown; returns the count. */
	int (*hints)(const ui_screen *s, const void *st, ui_hint *h, int max);
	/* Optional: how far left/right move its time (they pause the screen), in microseconds. */
	int64_t (*scroll_step)(const ui_screen *s, const void *st);
	/*
	 * Optional: the first line at or after from (dir > 0), at or before
	 * it (dir < 0), that holds needle (case aside), as the view draws its
	 * lines for g; -1 when none.  The view scrolls there and marks it.
	 */
	int (*search)(ui_screen *s, void *st, const kg_group *g, const char *needle, int from, int dir);
} ui_pane;

#define UI_VIEW_PANE(id, pane) extern const ui_pane pane;
UI_VIEWS(UI_VIEW_PANE)
#undef UI_VIEW_PANE

/* screen.c */
/* Set defaults from options and info. */
void screen_init(ui_screen *s, const kg_options *o, const kg_ui_info *info, kg_history *h);
/* Release what the screen holds. */
void screen_free(ui_screen *s);
/* Show a new snapshot (takes a reference of its own). */
void screen_set_snapshot(ui_screen *s, kg_snapshot *snap);
/* Recompute the filtered, sorted list of groups and the selection. */
void screen_order(ui_screen *s);
/* The selected group, NULL when none. */
const kg_group *screen_group(const ui_screen *s);
/* Set the filter regex; 0, or -1 with the status line set. */
int screen_set_filter(ui_screen *s, const char *re);
/* Put a message in the status line. */
void screen_status(ui_screen *s, bool err, const char *fmt, ...) KG_PRINTF(3, 4);
/* A source's reply to a command (a frame's message): the status line, and the state it confirms. */
void screen_reply(ui_screen *s, const char *msg);
/* True when the views show the past (scrubbed or scrolled back from the snapshot). */
bool screen_scrubbed(const ui_screen *s);
/* Groups in trouble (group_in_trouble) in the snapshot shown: counted when it is set, not each frame. */
int screen_trouble(const ui_screen *s);
/* Fill p with g as the history saw it at the view time; false when live or not covered. */
bool screen_past(ui_screen *s, const kg_group *g, ui_past *p);
/* The health of the first source of a role in the shown snapshot, NULL when none. */
const kg_source_health *screen_source(const ui_screen *s, kg_src_role role);
/*
 * A viewer (--attach) whose stream broke (the serving kgtop went away, or
 * the network): how long ago its last good data came, by this screen's
 * clock; 0 when live (or no viewer).  Its recorded sources are that much
 * older than they say: the header calls them stale, the list says its age.
 */
int64_t screen_stream_age(const ui_screen *s);
/* The time the views show: the snapshot's time minus the scrub offset. */
int64_t screen_view_time(const ui_screen *s);
/* Screen row of the cursor's next line, -1 when scrolled out of its rect. */
int screen_line(ui_lines *c);
/* Theme element of a lane's colour. */
ui_element screen_owner_el(int lane);
/* Put a footer hint at h[n] when n < max; returns the new count. */
int screen_hint(ui_hint *h, int n, int max, const char *key, const char *label, int prio);
/* True when the view has the keys that move (maximized, or the only pane shown). */
bool screen_view_focus(const ui_screen *s);
/* True when the group view is on the screen (not the group list alone under 80x24): its own keys reach it. */
bool screen_view_shown(const ui_screen *s);
/* The state of a view (its pane's init made it), NULL when it has none. */
void *screen_pane_state(const ui_screen *s, ui_view_id v);
/* The group after g in the list's order (wrapping), NULL when g is alone. */
const kg_group *screen_next_group(const ui_screen *s, const kg_group *g);
/* The next group (dir 1) or previous (-1) after index from whose name holds needle, wrapping; -1 none. */
int screen_find_group(const ui_screen *s, const char *needle, int from, int dir);
/* Select the group at index i of the shown order. */
void screen_select(ui_screen *s, int i);
/* Where needle is in text (case aside), NULL when it is not. */
const char *screen_match(const char *text, const char *needle);

/* text.c: sanitized, width-aware drawing; returns the columns used. */
#define TEXT_ELLIPSIS 0x1 /* mark cut text with an ellipsis */
int text_put(ui_screen *s, int y, int x, int maxw, attr_t a, const char *str, unsigned flags);
/* Formatted text_put. */
int text_putf(ui_screen *s, int y, int x, int maxw, attr_t a, const char *fmt, ...) KG_PRINTF(6, 7);
/* text_put() with the first match of needle drawn in the match attribute (no needle: as text_put). */
int text_put_match(ui_screen *s, int y, int x, int maxw, attr_t a, const char *str, const char *needle, unsigned flags);
/* Draw a glyph n times; returns columns used. */
int text_fill(ui_screen *s, int y, int x, int n, attr_t a, ui_glyph g);
/* Columns a string takes once sanitized. */
int text_width(const ui_screen *s, const char *str);
/*
 * Where to cut str to fit maxw columns at a separator (" " for words, "  "
 * for fields): the byte offset of the last sep whose text before it is at
 * most maxw wide, 0 when none is.
 */
size_t text_cut_at(const ui_screen *s, const char *str, const char *sep, int maxw);
/* Fill a line of a rect with blanks in an attribute. */
void text_blank(int y, int x, int w, attr_t a);
/*
 * A frame: text_frame_begin() blanks the frame of cells the text_* calls
 * draw into (as large as the terminal), text_frame_end() hands curses the
 * cells of each line that differ from the frame before and puts the cursor
 * where text_cursor() said (nowhere when it did not); stdscr then holds the
 * frame.  Between an end and the next begin, text_* calls draw over the
 * frame shown (the clock's header).  text_frame_forget(): stdscr no longer
 * holds the last frame (a new screen): the next end hands every cell.
 */
void text_frame_begin(void);
void text_frame_end(void);
void text_frame_forget(void);
void text_cursor(int y, int x);
/* The cells the last text_frame_end() handed curses (the tests; make bench-idle's why). */
long text_frame_pushed(void);
/* Free the frames (the next frame makes them anew, every cell handed). */
void text_frame_free(void);

/* list.c */
/* Draw the group list. */
void list_draw(ui_screen *s);
/* The attribute of a group table's style hint. */
attr_t list_style(const ui_screen *s, groupcol_style st);

/* render.c */
/*
 * Compute the layout for a terminal size: the group list sized to ngroups
 * (its title and a row each, up to 30% of the body; -1 for the cap) and a
 * status line of status_h lines (1 or 2); full_width: the view takes the
 * whole width even where the list would be beside it (the compare form).
 */
void render_layout(ui_layout *l, int rows, int cols, bool maximized, bool full_width, int ngroups, int status_h);
/* Turn the theme into curses attributes (after start_color when colour). */
void render_theme_apply(ui_screen *s);
/* Draw everything into stdscr (werase first; the caller refreshes). */
void render_frame(ui_screen *s);
/* Draw the header alone over the last frame (its clock moved, nothing else did). */
void render_clock(ui_screen *s);
/* The pane of a view. */
const ui_pane *render_pane(ui_view_id v);
/* A group's title line at (y, x0), w wide, as the tabs line has it (name, state, protocol, members). */
void render_group_title(ui_screen *s, const kg_group *g, int y, int x0, int w);

/* view_timeline.c */
/* What the history saw of a lane over an episode, for its note. */
typedef struct ui_lane_facts {
	bool during;    /* a member at some time of the episode */
	bool at_start;  /* a member when it began */
	bool at_end;    /* a member when it ended */
	bool gap;       /* not a member at some time of it */
	bool later;     /* a member after it ended */
	kg_reason why;  /* why it left in (or just before) it; KG_REASON_NONE: not known */
} ui_lane_facts;
/*
 * What episode e did to a lane (m its record, NULL none; f what the
 * history saw), in at most width columns (0: no limit), appended to b:
 * "left (max.poll.interval), had [0 3]", "kept [3 4 5], gave [0 1 2] in
 * round 1", shortened to "kept [3-5] gave [0-2] r1" or cut after a word
 * with an ellipsis to fit.  sf: partitions without topic names.
 */
void timeline_member_note(const ui_screen *s, const kg_episode *e, const kg_episode_member *m, const ui_lane_facts *f,
			  bool sf, int width, sbuf *b);
/* The timeline's scale in microseconds per column (its zoom). */
int64_t timeline_scale_us(const ui_screen *s);
/* v: show the timeline comparing the selected group with the next one (from any view), or, on it, one group. */
void timeline_compare_toggle(ui_screen *s);

/* view_compare.c */
/*
 * The compare view's cost line: what the last rebalance of each of n
 * groups cost, side by side ("cooperative: no member stopped, 1 partition
 * unconsumed 3.0 partition-s | eager: 3 members stopped 7.8 member-s,
 * ..."), the longest form that fits width columns (<= 0: the longest).
 */
void timeline_compare_cost(const ui_screen *s, const kg_group *const *grp, int n, int width, sbuf *out);
/* True when the timeline shows its compare form (the view then takes the screen's whole width). */
bool timeline_comparing(const ui_screen *s);

/* view_health.c */
/* Blocks of a gauge of bar cells for value against limit (0 at 0). */
int health_gauge_fill(int64_t value, int64_t limit, int bar);

/* overlay.c */
/* The sources overlay (i): every source's status, since when, its last good data and its whole message. */
void overlay_sources(ui_screen *s);
/* The help overlay (?, F1): a page of the keys and of what the list's columns say. */
void overlay_help(ui_screen *s);
/* The sort menu (F6): a line per sort order with what it means, the cursor on one. */
void overlay_sort_menu(ui_screen *s);

/* keys.c */
/* Apply a key; fills what the loop must do. */
void keys_handle(ui_screen *s, int key, ui_action *a);
/* Apply a mouse event at a cell (bstate: curses button bits); fills what the loop must do. */
void keys_mouse(ui_screen *s, int y, int x, unsigned long bstate, ui_action *a);
/* The help overlay's lines: key and what it does (NULL-terminated pairs). */
int keys_help(const ui_screen *s, const char *lines[][2], int max);
/* A key and who claims it. */
typedef struct ui_key_claim {
	int key;
	int view;         /* the view whose own key it is; -1: the screen's (the key table, a view's digit or letter) */
	const char *what; /* its words in the help */
} ui_key_claim;
/*
 * Every key claimed (up to max kept; returns how many there are): the key
 * table's, each view's digit and letter, each view's own keys.  The same
 * key may be two views' own (only the view shown takes it), never twice
 * the screen's nor both the screen's and a view's.
 */
int keys_claims(ui_key_claim *out, int max);

/* dump.c */
/* Write the screen as text and an attribute map with its legend (goldens). */
void dump_screen(WINDOW *w, char **text, char **attrs);

#endif

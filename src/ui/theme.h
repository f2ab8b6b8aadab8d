/*
 * theme.h: the screen's colours and attributes, by element.
 *
 * Every element the dashboard colours is defined once in UI_ELEMENTS
 * (name, its style on a terminal of 256 colours, of 16, of 8, without
 * colour, and its help text); the enum, the built-in default theme and
 * the documentation come from it.  A theme states its palette for each
 * depth: nothing is guessed for a role by matching colours, so a grey
 * never becomes the warning's yellow on an 8-colour terminal.  A theme
 * file holds lines
 *   element = fg=COLOR,bg=COLOR,ATTR,...
 * over the built-in default, in sections [256], [16], [8] and [mono]
 * (a line before any section sets every depth whose palette has its
 * colours: "fg=colour244" only 256, "fg=green,bold" all three, "bold"
 * all four).  COLOR is a name (red, brightred, default), colourN /
 * colorN or #rrggbb (256 only; #rrggbb becomes the nearest of xterm's
 * 240 fixed colours); a section refuses a colour its terminals lack.
 * ATTR is bold, dim, underline, reverse, italic, blink or standout
 * (none clears them).  This module is plain C: render_theme_apply()
 * (render.c) picks the depth from the terminal and makes curses
 * attributes.
 */
#ifndef KGTOP_UI_THEME_H
#define KGTOP_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(ID, "name", "256 colours", "16 colours", "8 colours", "no colour", "help") */
#define UI_ELEMENTS(X) \
	X(UI_EL_NORMAL, "normal", "fg=default,bg=default", "fg=default,bg=default", "fg=default,bg=default", "", "ordinary text") \
	X(UI_EL_DIM, "dim", "fg=colour244", "fg=brightblack", "dim", "dim", "secondary text: units, hints, notes, absent lanes") \
	X(UI_EL_HEADER, "header", "fg=colour252,bg=colour237", "fg=white,bg=blue", "fg=white,bg=blue", "reverse", "the header bar") \
	X(UI_EL_HEADER_TITLE, "header-title", "fg=colour231,bg=colour237,bold", "fg=brightwhite,bg=blue,bold", "fg=white,bg=blue,bold", "reverse,bold", "the program and cluster in the header") \
	X(UI_EL_SRC_OK, "source-ok", "fg=colour114,bg=colour237", "fg=brightgreen,bg=blue", "fg=green,bg=blue,bold", "reverse", "a source whose data is fresh") \
	X(UI_EL_SRC_STALE, "source-stale", "fg=colour221,bg=colour237,bold", "fg=black,bg=brightyellow", "fg=black,bg=yellow", "reverse,bold", "a source whose data is getting old") \
	X(UI_EL_SRC_ERROR, "source-error", "fg=colour210,bg=colour237,bold", "fg=brightwhite,bg=red,bold", "fg=white,bg=red,bold", "reverse,bold,underline", "a source that fails") \
	X(UI_EL_STALE, "stale", "fg=colour221,bold", "fg=brightyellow,bold", "fg=yellow,bold", "bold,underline", "old data: the group list's age while the cluster source is stale or failing") \
	X(UI_EL_PAUSED, "paused", "fg=colour16,bg=colour221,bold", "fg=black,bg=brightyellow", "fg=black,bg=yellow", "reverse,bold", "the PAUSED marker") \
	X(UI_EL_REPLAY, "replay", "fg=colour16,bg=colour117,bold", "fg=black,bg=brightcyan", "fg=black,bg=cyan", "reverse,bold,underline", "the REPLAY marker and recorded time") \
	X(UI_EL_COLUMN, "column-header", "fg=colour250,bold", "fg=white,bold", "bold", "bold,underline", "column titles of lists") \
	X(UI_EL_SELECTED, "selected", "fg=colour16,bg=colour117", "fg=black,bg=brightcyan", "fg=black,bg=cyan", "reverse", "the selected group") \
	X(UI_EL_STATE_STABLE, "state-stable", "fg=colour114", "fg=brightgreen", "fg=green", "", "group state Stable") \
	X(UI_EL_STATE_REBAL, "state-rebalancing", "fg=colour221,bold", "fg=brightyellow,bold", "fg=yellow,bold", "bold", "group states of a rebalance in progress") \
	X(UI_EL_STATE_EMPTY, "state-empty", "fg=colour244", "fg=brightblack", "dim", "dim", "group states Empty, Dead and unknown") \
	X(UI_EL_EAGER, "eager", "fg=colour208", "fg=brightmagenta", "fg=magenta", "underline", "eager groups: every member stops in a rebalance") \
	X(UI_EL_COOP, "cooperative", "fg=colour117", "fg=brightcyan", "fg=cyan", "", "cooperative groups: only moving partitions stop") \
	X(UI_EL_LAG_UP, "lag-up", "fg=colour210,bold", "fg=brightred,bold", "fg=red,bold", "bold", "lag that grew over the last minute") \
	X(UI_EL_LAG_DOWN, "lag-down", "fg=colour114", "fg=brightgreen", "fg=green", "", "lag that shrank over the last minute") \
	X(UI_EL_VERDICT_OK, "verdict-ok", "fg=colour114", "fg=brightgreen", "fg=green", "", "a partition or group making progress (verdict OK)") \
	X(UI_EL_VERDICT_WARN, "verdict-warn", "fg=colour221,bold", "fg=brightyellow,bold", "fg=yellow,bold", "bold", "progress in doubt: verdicts SLOW and REWIND") \
	X(UI_EL_VERDICT_BAD, "verdict-bad", "fg=colour210,bold", "fg=brightred,bold", "fg=red,bold", "reverse,bold", "no progress: verdicts STALLED, STOPPED and LOST") \
	X(UI_EL_STORM, "storm", "fg=colour231,bg=colour160,bold", "fg=brightwhite,bg=red,bold", "fg=white,bg=red,bold", "reverse,bold", "the rebalance storm flag") \
	X(UI_EL_TAB, "tab", "fg=colour250", "fg=white", "fg=default", "", "names of the views not shown") \
	X(UI_EL_TAB_ACTIVE, "tab-active", "fg=colour16,bg=colour250,bold", "fg=black,bg=white,bold", "fg=black,bg=white", "reverse,bold", "the name of the view shown") \
	X(UI_EL_TITLE, "title", "bold", "bold", "bold", "bold", "titles inside a view") \
	X(UI_EL_BORDER, "border", "fg=colour240", "fg=brightblack", "dim", "", "separators between panes; the timeline's time axis") \
	X(UI_EL_MOVED, "moved", "fg=colour231,bold,underline", "fg=brightwhite,bold,underline", "fg=white,bold,underline", "bold,underline", "mark of partitions assigned in the last rebalance") \
	X(UI_EL_REVOKED, "revoked", "fg=colour210", "fg=brightred", "fg=red", "dim", "mark of partitions revoked from a member in the last rebalance") \
	X(UI_EL_ORPHAN, "orphaned", "fg=colour231,bg=colour160,bold", "fg=brightwhite,bg=red,bold", "fg=white,bg=red,bold", "reverse,bold", "partitions nobody owns") \
	X(UI_EL_IDLE, "idle", "fg=colour244", "fg=brightblack", "dim", "dim", "idle members and unconsumed partitions") \
	X(UI_EL_STATIC, "static", "fg=colour183", "fg=brightblue", "fg=blue,bold", "underline", "static members (group.instance.id)") \
	X(UI_EL_PARTIAL, "partial", "fg=colour221", "fg=brightyellow", "fg=yellow", "", "timeline: a member that gave up part of its assignment") \
	X(UI_EL_STOPPED, "stopped", "fg=colour210", "fg=brightred", "fg=red", "", "timeline: a member or partition that stopped") \
	X(UI_EL_EPISODE, "episode", "fg=colour221,bold", "fg=brightyellow,bold", "fg=yellow,bold", "bold", "rebalance episodes above the timeline") \
	X(UI_EL_NOW, "now", "fg=colour117", "fg=brightcyan", "fg=cyan", "bold", "the ends of the timeline's time axis") \
	X(UI_EL_GAUGE_OK, "gauge-ok", "fg=colour114", "fg=brightgreen", "fg=green", "", "a gauge well within its limit") \
	X(UI_EL_GAUGE_WARN, "gauge-warn", "fg=colour221,bold", "fg=brightyellow,bold", "fg=yellow,bold", "bold", "a gauge past half its limit; the mark of an idle member in the grid") \
	X(UI_EL_GAUGE_CRIT, "gauge-critical", "fg=colour210,bold", "fg=brightred,bold", "fg=red,bold", "reverse,bold", "a gauge past 80% of its limit; \"heartbeat late\", \"poll late\"") \
	X(UI_EL_GAUGE_EMPTY, "gauge-empty", "fg=colour238", "fg=brightblack", "dim", "dim", "the unused part of a gauge") \
	X(UI_EL_EV_TIME, "event-time", "fg=colour244", "fg=brightblack", "dim", "dim", "event times") \
	X(UI_EL_EV_FULL, "event-full-revoke", "fg=colour208,bold", "fg=brightmagenta,bold", "fg=magenta,bold", "bold", "full revokes (stop-the-world)") \
	X(UI_EL_EV_INCR, "event-incremental", "fg=colour117", "fg=brightcyan", "fg=cyan", "", "incremental revokes") \
	X(UI_EL_EV_ASSIGN, "event-assigned", "fg=colour114", "fg=brightgreen", "fg=green", "", "assignments") \
	X(UI_EL_EV_MEMBER, "event-member", "fg=colour183", "fg=brightblue", "fg=blue,bold", "", "members joining, leaving, away, back") \
	X(UI_EL_EV_REBAL, "event-rebalance", "fg=colour221", "fg=brightyellow", "fg=yellow", "bold", "rebalances starting, rounds, ending") \
	X(UI_EL_EV_ALERT, "event-alert", "fg=colour210,bold", "fg=brightred,bold", "fg=red,bold", "bold,underline", "storms, orphans, source errors") \
	X(UI_EL_FOOTER, "footer", "fg=colour250,bg=colour237", "fg=black,bg=cyan", "fg=black,bg=cyan", "reverse", "the footer bar") \
	X(UI_EL_FOOTER_KEY, "footer-key", "fg=colour117,bg=colour237,bold", "fg=brightwhite,bg=black,bold", "fg=white,bg=black,bold", "bold", "keys in the footer") \
	X(UI_EL_STATUS_ERR, "status-error", "fg=colour231,bg=colour160,bold", "fg=brightwhite,bg=red,bold", "fg=white,bg=red,bold", "reverse,bold", "error messages in the status line") \
	X(UI_EL_STATUS_INFO, "status-info", "fg=colour117,bold", "fg=brightcyan,bold", "fg=cyan,bold", "bold", "messages in the status line") \
	X(UI_EL_HELP, "help", "fg=colour252,bg=colour238", "fg=black,bg=white", "fg=black,bg=white", "reverse", "the help overlay") \
	X(UI_EL_HELP_KEY, "help-key", "fg=colour117,bg=colour238,bold", "fg=blue,bg=white,bold", "fg=blue,bg=white,bold", "reverse,bold", "keys in the help overlay") \
	X(UI_EL_MATCH, "match", "fg=colour16,bg=colour221", "fg=black,bg=brightyellow", "fg=black,bg=yellow", "reverse,underline", "what the search found") \
	X(UI_EL_OWNER1, "owner-1", "fg=colour214,bold", "fg=brightcyan", "fg=cyan", "bold", "first member colour (orange)") \
	X(UI_EL_OWNER2, "owner-2", "fg=colour74,bold", "fg=brightmagenta", "fg=magenta", "", "second member colour (sky blue)") \
	X(UI_EL_OWNER3, "owner-3", "fg=colour35,bold", "fg=brightgreen", "fg=green", "bold", "third member colour (green)") \
	X(UI_EL_OWNER4, "owner-4", "fg=colour134,bold", "fg=brightblue", "fg=white", "", "fourth member colour (purple)") \
	X(UI_EL_OWNER5, "owner-5", "fg=colour33,bold", "fg=cyan", "fg=cyan,bold", "bold", "fifth member colour (blue)") \
	X(UI_EL_OWNER6, "owner-6", "fg=colour154,bold", "fg=magenta", "fg=magenta,bold", "", "sixth member colour (lime)") \
	X(UI_EL_OWNER7, "owner-7", "fg=colour188,bold", "fg=green", "fg=green,bold", "bold", "seventh member colour (light grey)") \
	X(UI_EL_OWNER8, "owner-8", "fg=colour198,bold", "fg=white", "fg=blue,bold", "", "eighth member colour (pink); then the colours repeat")

#define UI_EL_ENUM_(id, name, c256, c16, c8, mono, help) id,
typedef enum ui_element {
	UI_ELEMENTS(UI_EL_ENUM_)
	UI_EL_COUNT
} ui_element;
#undef UI_EL_ENUM_

#define UI_OWNER_COLOURS 8

/* The palettes a theme states, one per depth of terminal. */
typedef enum ui_depth {
	UI_DEPTH_256,  /* 256 colours or more (xterm-256color, tmux-256color) */
	UI_DEPTH_16,   /* 16 colours (xterm-16color) */
	UI_DEPTH_8,    /* 8 colours (xterm, screen, linux) */
	UI_DEPTH_MONO, /* no colour (vt100, NO_COLOR, --no-color): attributes only */
	UI_DEPTH_COUNT
} ui_depth;

/* A colour as written: the terminal's default, an index (0-255) or RGB. */
typedef enum ui_colour_kind {
	UI_COLOUR_DEFAULT,
	UI_COLOUR_INDEX,
	UI_COLOUR_RGB,
	UI_COLOUR_KIND_COUNT
} ui_colour_kind;

typedef struct ui_colour {
	ui_colour_kind kind;
	uint32_t v; /* index, or 0xRRGGBB */
} ui_colour;

#define UI_ATTR_BOLD 0x01u
#define UI_ATTR_DIM 0x02u
#define UI_ATTR_UNDERLINE 0x04u
#define UI_ATTR_REVERSE 0x08u
#define UI_ATTR_ITALIC 0x10u
#define UI_ATTR_BLINK 0x20u
#define UI_ATTR_STANDOUT 0x40u

typedef struct ui_style {
	ui_colour fg;
	ui_colour bg;
	unsigned attrs;
} ui_style;

typedef struct ui_theme {
	char name[512];
	ui_style st[UI_DEPTH_COUNT][UI_EL_COUNT]; /* each depth's palette */
} ui_theme;

/* Name of an element ("header"). */
const char *theme_element_name(ui_element e);
/* Help text of an element. */
const char *theme_element_help(ui_element e);
/* Element by name; -1 when unknown. */
int theme_element_find(const char *name);
/* Fill t with the built-in default theme. */
void theme_default(ui_theme *t);
/* Fill t with the built-in mono theme (attributes only, at every depth). */
void theme_mono(ui_theme *t);
/* The depth of a terminal of ncolours colours (0 or less: none). */
ui_depth theme_depth(int ncolours);
/* The name of a depth as a section says it ("256", "16", "8", "mono"). */
const char *theme_depth_name(ui_depth d);
/* Parse one style ("fg=red,bg=#102030,bold") over *st; 0, or -1 with err. */
int theme_parse_style(const char *s, ui_style *st, char *err, size_t errsz);
/* Parse a colour; 0, or -1 when not a colour. */
int theme_parse_colour(const char *s, ui_colour *c);
/*
 * Parse theme text over t (sections [256] [16] [8] [mono]; lines before
 * any section set every depth whose palette has their colours); on the
 * first error returns -1 with "fname:line: message" in err and leaves t
 * unspecified.
 */
int theme_parse(ui_theme *t, const char *text, const char *fname, char *err, size_t errsz);
/*
 * Load theme name: "default" and "mono" are built in (a file of the same
 * name refines them); others are NAME.theme in the theme directories.  On
 * error t holds the default theme and err says why ("file:line: ...").
 */
int theme_load(ui_theme *t, const char *name, char *err, size_t errsz);
/*
 * The theme directories, in search order ($KGTOP_THEMES, ~/.config/kgtop/themes,
 * the data dir, themes/ beside the executable, the source tree's themes/).
 */
int theme_dirs(char dirs[][512], int max);
/* Names of every theme found (built-ins first, then files, sorted, unique); returns the count. */
int theme_list(char names[][64], int max);
/*
 * The terminal colour for c on a terminal with ncolours colours (256,
 * 16, 8): -1 for the default, the index itself when the terminal has it,
 * else (#rrggbb, or a palette used on fewer colours than it states) the
 * nearest index below ncolours.
 */
int theme_colour_index(ui_colour c, int ncolours);
/* The RGB of an xterm-256 colour index. */
uint32_t theme_index_rgb(int idx);

#endif

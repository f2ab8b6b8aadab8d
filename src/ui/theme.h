/*
 * theme.h: the screen's colours and attributes, by element.
 *
 * Every element the dashboard colours is defined once in UI_ELEMENTS
 * (name, default style, mono style, help text); the enum, the built-in
 * themes and the documentation come from it.  A theme file holds lines
 *   element = fg=COLOR,bg=COLOR,ATTR,...
 * over the built-in default; COLOR is a name (red, brightred, default),
 * colourN / colorN (0-255) or #rrggbb; ATTR is bold, dim, underline,
 * reverse, italic, blink or standout (none clears them).  Colours are
 * mapped to what the terminal has (256, 16, 8 colours: nearest match);
 * with no colour at all the mono style of each element is used.  This
 * module is plain C: render_theme_apply() (render.c) turns styles into
 * curses attributes.
 */
#ifndef KGTOP_UI_THEME_H
#define KGTOP_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(ID, "name", "default style", "mono style", "help") */
#define UI_ELEMENTS(X) \
	X(UI_EL_NORMAL, "normal", "fg=default,bg=default", "", "ordinary text") \
	X(UI_EL_DIM, "dim", "fg=colour244", "dim", "secondary text: units, hints, absent lanes") \
	X(UI_EL_HEADER, "header", "fg=colour252,bg=colour237", "reverse", "the header bar") \
	X(UI_EL_HEADER_TITLE, "header-title", "fg=colour231,bg=colour237,bold", "reverse,bold", "the program and cluster in the header") \
	X(UI_EL_SRC_OK, "source-ok", "fg=colour114,bg=colour237", "reverse", "a source whose data is fresh") \
	X(UI_EL_SRC_STALE, "source-stale", "fg=colour221,bg=colour237,bold", "reverse,bold", "a source whose data is getting old") \
	X(UI_EL_SRC_ERROR, "source-error", "fg=colour210,bg=colour237,bold", "reverse,bold,underline", "a source that fails") \
	X(UI_EL_STALE, "stale", "fg=colour221,bold", "bold,underline", "old data: the group list's age while the cluster source is stale or failing") \
	X(UI_EL_PAUSED, "paused", "fg=colour16,bg=colour221,bold", "bold", "the PAUSED marker") \
	X(UI_EL_REPLAY, "replay", "fg=colour16,bg=colour117,bold", "bold,underline", "the REPLAY marker and recorded time") \
	X(UI_EL_COLUMN, "column-header", "fg=colour250,bold", "bold,underline", "column titles of lists") \
	X(UI_EL_SELECTED, "selected", "fg=colour16,bg=colour117", "reverse", "the selected group") \
	X(UI_EL_STATE_STABLE, "state-stable", "fg=colour114", "", "group state Stable") \
	X(UI_EL_STATE_REBAL, "state-rebalancing", "fg=colour221,bold", "bold", "group states of a rebalance in progress") \
	X(UI_EL_STATE_EMPTY, "state-empty", "fg=colour244", "dim", "group states Empty, Dead and unknown") \
	X(UI_EL_EAGER, "eager", "fg=colour209", "underline", "eager groups: every member stops in a rebalance") \
	X(UI_EL_COOP, "cooperative", "fg=colour117", "", "cooperative groups: only moving partitions stop") \
	X(UI_EL_LAG_UP, "lag-up", "fg=colour210,bold", "bold", "lag that grew over the last minute") \
	X(UI_EL_LAG_DOWN, "lag-down", "fg=colour114", "", "lag that shrank over the last minute") \
	X(UI_EL_STORM, "storm", "fg=colour231,bg=colour160,bold", "reverse,bold", "the rebalance storm flag") \
	X(UI_EL_TAB, "tab", "fg=colour250", "", "names of the views not shown") \
	X(UI_EL_TAB_ACTIVE, "tab-active", "fg=colour16,bg=colour250,bold", "reverse,bold", "the name of the view shown") \
	X(UI_EL_TITLE, "title", "bold", "bold", "titles inside a view") \
	X(UI_EL_BORDER, "border", "fg=colour240", "", "separators between panes") \
	X(UI_EL_MOVED, "moved", "fg=colour231,bold,underline", "bold,underline", "mark of partitions assigned in the last rebalance") \
	X(UI_EL_REVOKED, "revoked", "fg=colour210", "dim", "mark of partitions revoked from a member in the last rebalance") \
	X(UI_EL_ORPHAN, "orphaned", "fg=colour231,bg=colour160,bold", "reverse,bold", "partitions nobody owns") \
	X(UI_EL_IDLE, "idle", "fg=colour244", "dim", "idle members and unconsumed partitions") \
	X(UI_EL_STATIC, "static", "fg=colour183", "underline", "static members (group.instance.id)") \
	X(UI_EL_PARTIAL, "partial", "fg=colour221", "", "timeline: a member that gave up part of its assignment") \
	X(UI_EL_STOPPED, "stopped", "fg=colour210", "", "timeline: a member or partition that stopped") \
	X(UI_EL_EPISODE, "episode", "fg=colour221,bold", "bold", "rebalance episodes above the timeline") \
	X(UI_EL_NOW, "now", "fg=colour117", "bold", "the time axis of the timeline") \
	X(UI_EL_GAUGE_OK, "gauge-ok", "fg=colour114", "", "a gauge well within its limit") \
	X(UI_EL_GAUGE_WARN, "gauge-warn", "fg=colour221,bold", "bold", "a gauge past half its limit; the mark of an idle member in the grid") \
	X(UI_EL_GAUGE_CRIT, "gauge-critical", "fg=colour210,bold", "reverse,bold", "a gauge past 80% of its limit; \"heartbeat late\", \"poll late\"") \
	X(UI_EL_GAUGE_EMPTY, "gauge-empty", "fg=colour238", "dim", "the unused part of a gauge") \
	X(UI_EL_EV_TIME, "event-time", "fg=colour244", "dim", "event times") \
	X(UI_EL_EV_FULL, "event-full-revoke", "fg=colour209,bold", "bold", "full revokes (stop-the-world)") \
	X(UI_EL_EV_INCR, "event-incremental", "fg=colour117", "", "incremental revokes") \
	X(UI_EL_EV_ASSIGN, "event-assigned", "fg=colour114", "", "assignments") \
	X(UI_EL_EV_MEMBER, "event-member", "fg=colour183", "", "members joining, leaving, away, back") \
	X(UI_EL_EV_REBAL, "event-rebalance", "fg=colour221", "bold", "rebalances starting, rounds, ending") \
	X(UI_EL_EV_ALERT, "event-alert", "fg=colour210,bold", "bold,underline", "storms, orphans, source errors") \
	X(UI_EL_FOOTER, "footer", "fg=colour250,bg=colour237", "reverse", "the footer bar") \
	X(UI_EL_FOOTER_KEY, "footer-key", "fg=colour117,bg=colour237,bold", "reverse,bold", "keys in the footer") \
	X(UI_EL_STATUS_ERR, "status-error", "fg=colour231,bg=colour160,bold", "reverse,bold", "error messages in the status line") \
	X(UI_EL_STATUS_INFO, "status-info", "fg=colour117,bold", "bold", "messages in the status line") \
	X(UI_EL_HELP, "help", "fg=colour252,bg=colour238", "reverse", "the help overlay") \
	X(UI_EL_HELP_KEY, "help-key", "fg=colour117,bg=colour238,bold", "reverse,bold", "keys in the help overlay") \
	X(UI_EL_OWNER1, "owner-1", "fg=#e69f00,bold", "bold", "first member colour (Okabe-Ito orange)") \
	X(UI_EL_OWNER2, "owner-2", "fg=#56b4e9,bold", "", "second member colour (sky blue)") \
	X(UI_EL_OWNER3, "owner-3", "fg=#009e73,bold", "bold", "third member colour (bluish green)") \
	X(UI_EL_OWNER4, "owner-4", "fg=#f0e442,bold", "", "fourth member colour (yellow)") \
	X(UI_EL_OWNER5, "owner-5", "fg=#0072b2,bold", "bold", "fifth member colour (blue)") \
	X(UI_EL_OWNER6, "owner-6", "fg=#d55e00,bold", "", "sixth member colour (vermillion)") \
	X(UI_EL_OWNER7, "owner-7", "fg=#cc79a7,bold", "bold", "seventh member colour (reddish purple)") \
	X(UI_EL_OWNER8, "owner-8", "fg=#999999,bold", "", "eighth member colour (grey); then the colours repeat")

#define UI_EL_ENUM_(id, name, def, mono, help) id,
typedef enum ui_element {
	UI_ELEMENTS(UI_EL_ENUM_)
	UI_EL_COUNT
} ui_element;
#undef UI_EL_ENUM_

#define UI_OWNER_COLOURS 8

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
	char name[64];
	ui_style st[UI_EL_COUNT];
	ui_style mono[UI_EL_COUNT]; /* used when the terminal shows no colour */
} ui_theme;

/* Name of an element ("header"). */
const char *theme_element_name(ui_element e);
/* Help text of an element. */
const char *theme_element_help(ui_element e);
/* Element by name; -1 when unknown. */
int theme_element_find(const char *name);
/* Fill t with the built-in default theme. */
void theme_default(ui_theme *t);
/* Fill t with the built-in mono theme (attributes only). */
void theme_mono(ui_theme *t);
/* Parse one style ("fg=red,bg=#102030,bold") over *st; 0, or -1 with err. */
int theme_parse_style(const char *s, ui_style *st, char *err, size_t errsz);
/* Parse a colour; 0, or -1 when not a colour. */
int theme_parse_colour(const char *s, ui_colour *c);
/*
 * Parse theme text over t; on the first error returns -1 with
 * "fname:line: message" in err and leaves t unspecified.
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
 * 16, 8): -1 for the default, else the nearest index below ncolours.
 */
int theme_colour_index(ui_colour c, int ncolours);
/* The RGB of an xterm-256 colour index. */
uint32_t theme_index_rgb(int idx);

#endif

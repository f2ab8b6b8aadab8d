/*
 * glyph.h: every non-letter symbol the dashboard draws, in UTF-8 and in
 * ASCII.  With --ascii, or when the locale is not UTF-8, only the ASCII
 * column is used, so nothing outside ASCII reaches the terminal.  The
 * ASCII glyphs of things that can sit side by side stay distinct:
 * consuming '#', partly stopped '+', stopped '.', in flight '~', idle '_',
 * away ':', absent and a grid cell of another member ' ', the time axis '-'.
 * '^' is only the lag rising ('v' falling): an episode's mark is '@' and the
 * list's sort mark '*'.
 * The grid's unconsumed partition ('-', ASCII '_') is not its cell of
 * another member ('\u00b7', ASCII ' ').  A steady lag has an arrow in
 * UTF-8 and no mark in ASCII ("41", not "41=", which reads as a sum).
 * The lag view's sparkline climbs eight steps: blocks in UTF-8, in ASCII
 * "_.:-=+*#" (no lag is the lowest step; no data a blank).
 */
#ifndef KGTOP_UI_GLYPH_H
#define KGTOP_UI_GLYPH_H

#include <stdbool.h>

/* X(ID, utf8, ascii) */
#define UI_GLYPHS(X) \
	X(G_CONSUMING, "\u2588", "#") \
	X(G_PARTIAL, "\u2592", "+") \
	X(G_STOPPED, "\u2591", ".") \
	X(G_ABSENT, " ", " ") \
	X(G_AWAY, "\u00b7", ":") \
	X(G_ORPHAN, "!", "!") \
	X(G_MOVED_IN, "\u2190", "<") \
	X(G_REVOKED, "\u00d7", "x") \
	X(G_UP, "\u2191", "^") \
	X(G_DOWN, "\u2193", "v") \
	X(G_FLAT, "\u2192", " ") \
	X(G_EPISODE, "\u25b2", "@") \
	X(G_HLINE, "\u2500", "-") \
	X(G_VLINE, "\u2502", "|") \
	X(G_ELLIPSIS, "\u2026", "~") \
	X(G_GAUGE_FULL, "\u25a0", "#") \
	X(G_GAUGE_EMPTY, "\u00b7", "-") \
	X(G_IDLE, "\u00b7", "_") \
	X(G_EMPTY, "\u00b7", " ") \
	X(G_INFLIGHT, "\u2591", "~") \
	X(G_UNCONSUMED, "-", "_") \
	X(G_STORM, "\u26a1", "!!") \
	X(G_SELECT, "\u25b6", ">") \
	X(G_DASH, "\u2014", "--") \
	X(G_ARROW, "\u2192", "->") \
	X(G_AXIS, "\u2508", "-") \
	X(G_SPARK0, "\u2581", "_") \
	X(G_SPARK1, "\u2582", ".") \
	X(G_SPARK2, "\u2583", ":") \
	X(G_SPARK3, "\u2584", "-") \
	X(G_SPARK4, "\u2585", "=") \
	X(G_SPARK5, "\u2586", "+") \
	X(G_SPARK6, "\u2587", "*") \
	X(G_SPARK7, "\u2588", "#")

#define UI_GLYPH_ENUM_(id, u, a) id,
typedef enum ui_glyph {
	UI_GLYPHS(UI_GLYPH_ENUM_)
	G_COUNT
} ui_glyph;
#undef UI_GLYPH_ENUM_

/* The glyph in UTF-8 or in ASCII. */
const char *glyph_get(ui_glyph g, bool ascii);

#endif

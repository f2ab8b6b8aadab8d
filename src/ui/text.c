/*
 * text.c: drawing strings that come from the cluster.
 *
 * Every string is decoded here, whatever its origin, with util's one
 * UTF-8 decoder (util_utf8_decode()): invalid UTF-8, the characters of
 * util's one output rule (util_char_unsafe(): C0, DEL, C1, bidirectional
 * formatting) and characters the terminal cannot show become '?', other
 * zero-width characters (combining marks) are dropped,
 * and in ASCII mode anything outside ASCII is a '?'.  Widths come from wcwidth(), so double-width names are cut at a
 * column boundary and nothing is drawn past maxw.
 *
 * A frame is drawn into a frame of cells of our own (fb.cur), not into
 * curses: text_frame_begin() blanks it, the text_* calls write it,
 * text_frame_end() hands curses only the cells of each line between the
 * first and the last that differ from the frame before (fb.prev, what
 * stdscr holds).  Curses costs about 20 ns a cell it is given (a 160x48
 * frame 150-170 us) whether or not the cell changed, and then compares
 * each one again; at rest a frame's change is a column of digits
 * (issue 24: idle <= htop; make bench-idle).  A double-width character
 * takes two cells, its right half marked FB_RIGHT; a cell written over
 * one half of it blanks the other, so each line holds whole characters.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/util.h"

#define RUN 512

/* The right half of a double-width character (the cell before holds it); never a drawn character. */
#define FB_RIGHT ((wchar_t)0)

typedef struct fcell {
	wchar_t ch;
	attr_t a;
} fcell;

/* The frame being drawn and the one curses holds (see the top of this file). */
static struct {
	fcell *cur, *prev;
	int rows, cols;
	bool shown;      /* prev is what stdscr holds */
	const WINDOW *win; /* the stdscr prev was shown on (a new screen shows none of it) */
	int cy, cx;      /* where the cursor goes after the frame, -1 nowhere */
	long pushed;     /* cells handed to curses by the last text_frame_end() */
} fb = { .cy = -1 };

/* Blank n cells from c. */
static void
fb_blank(fcell *c, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		c[i] = (fcell){ L' ', 0 };
}

/* The frames as large as the terminal: made (blank, none shown) when its size changed. */
static void
fb_fit(void)
{
	size_t n;
	if (fb.win != stdscr) {
		fb.win = stdscr;
		fb.shown = false;
	}
	if (fb.cur != NULL && fb.rows == LINES && fb.cols == COLS)
		return;
	fb.rows = LINES > 0 ? LINES : 0;
	fb.cols = COLS > 0 ? COLS : 0;
	n = (size_t)fb.rows * (size_t)fb.cols;
	free(fb.cur);
	free(fb.prev);
	fb.cur = xmalloc((n ? n : 1) * sizeof *fb.cur);
	fb.prev = xmalloc((n ? n : 1) * sizeof *fb.prev);
	fb_blank(fb.cur, n);
	fb.shown = false;
}

/*
 * Cells x to x + w - 1 of row are about to be written over: a
 * double-width character only one half of which is among them loses its
 * other half too, which becomes a blank in that character's attribute.
 */
static void
fb_cut_halves(fcell *row, int x, int w)
{
	if (row[x].ch == FB_RIGHT && x > 0)
		row[x - 1].ch = L' '; /* x was the right half of a character: its left half */
	if (x + w < fb.cols && row[x + w].ch == FB_RIGHT)
		row[x + w].ch = L' '; /* x + w - 1 was the left half of one: its right half */
}

/* Write one character of width w (1 or 2; the caller checked that it fits) at (y, x). */
static void
fb_set(int y, int x, wchar_t ch, int w, attr_t a)
{
	fcell *row = fb.cur + (size_t)y * (size_t)fb.cols;
	fb_cut_halves(row, x, w);
	row[x] = (fcell){ ch, a };
	if (w == 2)
		row[x + 1] = (fcell){ FB_RIGHT, a };
}

/* True when two cells show the same. */
static inline bool
fcell_eq(const fcell *a, const fcell *b)
{
	return a->ch == b->ch && a->a == b->a;
}

/* Write n characters (their widths in wd) from (y, x). */
static void
fb_put(int y, int x, const wchar_t *buf, const unsigned char *wd, int n, attr_t a)
{
	int i;
	fb_fit();
	if (y < 0 || y >= fb.rows)
		return;
	for (i = 0; i < n && x < fb.cols; i++) {
		if (wd[i] == 0 || x + wd[i] > fb.cols)
			break;
		fb_set(y, x, buf[i], wd[i], a);
		x += wd[i];
	}
}

void
text_frame_begin(void)
{
	fb_fit();
	fb_blank(fb.cur, (size_t)fb.rows * (size_t)fb.cols);
	fb.cy = fb.cx = -1;
}

void
text_frame_forget(void)
{
	fb.shown = false;
}

void
text_cursor(int y, int x)
{
	fb.cy = y;
	fb.cx = x;
}

long
text_frame_pushed(void)
{
	return fb.pushed;
}

/* Hand curses the cells [x0, x1] of line y, a run of one attribute at a time. */
static void
fb_push(int y, int x0, int x1)
{
	const fcell *row = fb.cur + (size_t)y * (size_t)fb.cols;
	wchar_t buf[RUN + 1];
	int x = x0;
	while (x <= x1) {
		attr_t a = row[x].a;
		int start = x, nb = 0;
		while (x <= x1 && row[x].a == a && nb < RUN) {
			if (row[x].ch != FB_RIGHT)
				buf[nb++] = row[x].ch;
			x++;
		}
		buf[nb] = 0;
		wattrset(stdscr, a);
		mvaddnwstr(y, start, buf, nb);
	}
	fb.pushed += x1 - x0 + 1;
}

void
text_frame_end(void)
{
	int y;
	size_t cols;
	fb_fit();
	cols = (size_t)fb.cols;
	fb.pushed = 0;
	for (y = 0; y < fb.rows && fb.cols > 0; y++) {
		const fcell *c = fb.cur + (size_t)y * cols, *p = fb.prev + (size_t)y * cols;
		int x0 = 0, x1 = fb.cols - 1;
		if (fb.shown) {
			while (x0 <= x1 && fcell_eq(&c[x0], &p[x0]))
				x0++;
			if (x0 > x1)
				continue; /* the line as it is */
			while (fcell_eq(&c[x1], &p[x1]))
				x1--;
			/* x0 is never a right half: a character's halves are written together (fb_set()),
			 * so a right half that changed has a left half before it that changed too */
		}
		fb_push(y, x0, x1);
	}
	memcpy(fb.prev, fb.cur, (size_t)fb.rows * cols * sizeof *fb.cur);
	fb.shown = true;
	if (fb.cy >= 0 && fb.cy < fb.rows && fb.cx >= 0 && fb.cx < fb.cols)
		move(fb.cy, fb.cx);
}

void
text_frame_free(void)
{
	free(fb.cur);
	free(fb.prev);
	fb.cur = fb.prev = NULL;
	fb.rows = fb.cols = 0;
	fb.shown = false;
}

/* The character to show for a decoded one and its width (0: drop it). */
static int
show(bool ascii, long cp, wchar_t *out)
{
	int w;
	if (cp < 0 || util_char_unsafe(cp) || (ascii && cp >= 0x80)) {
		*out = L'?';
		return 1;
	}
	if (cp < 0x7f) {
		*out = (wchar_t)cp;
		return 1;
	}
	w = wcwidth((wchar_t)cp);
	if (w < 0) {
		*out = L'?';
		return 1;
	}
	*out = (wchar_t)cp;
	return w;
}

/* Draw sanitized text. */
int
text_put(ui_screen *s, int y, int x, int maxw, attr_t a, const char *str, unsigned flags)
{
	wchar_t buf[RUN + 1];
	unsigned char wd[RUN + 1];
	int cols = 0, nbuf = 0;
	const unsigned char *p = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)p);
	bool cut = false;
	if (x < 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (maxw > COLS - x)
		maxw = COLS - x;
	if (maxw <= 0)
		return 0;
	while (n > 0) {
		long cp;
		wchar_t wc;
		size_t used;
		int w;
		if (*p >= 0x20 && *p < 0x7f) {
			/* printable ASCII, most of what is drawn: no decoding */
			wc = (wchar_t)*p;
			w = 1;
			used = 1;
		} else {
			used = util_utf8_decode((const char *)p, n, &cp);
			w = show(s->ascii, cp, &wc);
		}
		p += used;
		n -= used;
		if (w == 0)
			continue;
		if (cols + w > maxw || nbuf >= RUN) {
			cut = true;
			break;
		}
		wd[nbuf] = (unsigned char)w;
		buf[nbuf++] = wc;
		cols += w;
	}
	if (cut && (flags & TEXT_ELLIPSIS) && maxw >= 1) {
		/* drop characters until the ellipsis fits */
		while (nbuf > 0 && cols + 1 > maxw)
			cols -= wd[--nbuf];
		wd[nbuf] = 1;
		buf[nbuf++] = s->ascii ? L'~' : (wchar_t)0x2026;
		cols++;
	}
	fb_put(y, x, buf, wd, nbuf, a);
	return cols;
}

/* text_put() with the first match of needle in the match attribute. */
int
text_put_match(ui_screen *s, int y, int x, int maxw, attr_t a, const char *str, const char *needle, unsigned flags)
{
	int cols = text_put(s, y, x, maxw, a, str, flags), at, mw, shown;
	const char *m = screen_match(str, needle);
	char *pre, *hit;
	if (m == NULL)
		return cols;
	pre = xstrdup(str);
	pre[m - str] = '\0';
	hit = xstrdup(m);
	hit[strlen(needle)] = '\0';
	at = text_width(s, pre);
	mw = text_width(s, hit);
	/* only what the line shows: a match cut off stays cut off, the ellipsis stays */
	shown = (flags & TEXT_ELLIPSIS) && text_width(s, str) > cols ? cols - 1 : cols;
	if (at < shown)
		text_put(s, y, x + at, KG_MIN(mw, shown - at), s->attr[UI_EL_MATCH], hit, 0);
	free(pre);
	free(hit);
	return cols;
}

/* Formatted text_put. */
int
text_putf(ui_screen *s, int y, int x, int maxw, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return text_put(s, y, x, maxw, a, buf, 0);
}

/* Draw a glyph n times. */
int
text_fill(ui_screen *s, int y, int x, int n, attr_t a, ui_glyph g)
{
	const char *gs = glyph_get(g, s->ascii);
	wchar_t buf[RUN + 1], one[4];
	unsigned char wd[RUN + 1], onew[4];
	int k = 0, i, nb = 0, w = 0;
	const unsigned char *p = (const unsigned char *)gs;
	size_t left = strlen(gs);
	if (n <= 0 || y < 0 || y >= LINES || x < 0 || x >= COLS)
		return 0;
	while (left > 0 && k < 3) {
		long cp;
		size_t used = util_utf8_decode((const char *)p, left, &cp);
		int cw = show(s->ascii, cp, &one[k]);
		p += used;
		left -= used;
		if (cw == 0)
			continue; /* no column of its own (show()): dropped, as text_put() drops it */
		onew[k++] = (unsigned char)cw;
		w += cw;
	}
	if (w <= 0)
		return 0;
	if (n * w > COLS - x)
		n = (COLS - x) / w;
	for (i = 0; i < n && nb + k <= RUN; i++) {
		memcpy(buf + nb, one, (size_t)k * sizeof *one);
		memcpy(wd + nb, onew, (size_t)k);
		nb += k;
	}
	fb_put(y, x, buf, wd, nb, a);
	return i * w;
}

/* Columns a string takes. */
int
text_width(const ui_screen *s, const char *str)
{
	const unsigned char *p = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)p);
	int cols = 0;
	while (n > 0) {
		long cp;
		wchar_t wc;
		size_t used;
		if (*p >= 0x20 && *p < 0x7f) {
			/* printable ASCII: a column each, no decoding */
			cols++;
			p++;
			n--;
			continue;
		}
		used = util_utf8_decode((const char *)p, n, &cp);
		cols += show(s->ascii, cp, &wc);
		p += used;
		n -= used;
	}
	return cols;
}

/* The last separator that keeps the text before it within maxw (see screen.h). */
size_t
text_cut_at(const ui_screen *s, const char *str, const char *sep, int maxw)
{
	char *copy = xstrdup(str ? str : ""), *p;
	size_t cut = 0;
	for (p = *copy ? strstr(copy + 1, sep) : NULL; p != NULL; p = strstr(p + 1, sep)) {
		char c = *p;
		*p = '\0';
		if (text_width(s, copy) > maxw) {
			*p = c;
			break; /* widths only grow: no later separator fits either */
		}
		cut = (size_t)(p - copy);
		*p = c;
	}
	free(copy);
	return cut;
}

/* Blank a line segment. */
void
text_blank(int y, int x, int w, attr_t a)
{
	fcell *row;
	int k;
	fb_fit();
	if (y < 0 || y >= fb.rows || x < 0 || x >= fb.cols || w <= 0)
		return;
	if (w > fb.cols - x)
		w = fb.cols - x;
	row = fb.cur + (size_t)y * (size_t)fb.cols;
	fb_cut_halves(row, x, w);
	for (k = x; k < x + w; k++)
		row[k] = (fcell){ L' ', a };
}

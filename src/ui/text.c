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
		buf[nbuf++] = wc;
		cols += w;
	}
	if (cut && (flags & TEXT_ELLIPSIS) && maxw >= 1) {
		/* drop characters until the ellipsis fits */
		while (nbuf > 0 && cols + 1 > maxw) {
			wchar_t last = buf[--nbuf];
			int w = last < 0x7f ? 1 : wcwidth(last);
			cols -= w > 0 ? w : 1;
		}
		buf[nbuf++] = s->ascii ? L'~' : (wchar_t)0x2026;
		cols++;
	}
	buf[nbuf] = 0;
	wattrset(stdscr, a);
	mvaddnwstr(y, x, buf, nbuf);
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
	int k = 0, i, nb = 0, w = 0;
	const unsigned char *p = (const unsigned char *)gs;
	size_t left = strlen(gs);
	if (n <= 0 || y < 0 || y >= LINES || x < 0 || x >= COLS)
		return 0;
	while (left > 0 && k < 3) {
		long cp;
		size_t used = util_utf8_decode((const char *)p, left, &cp);
		w += show(s->ascii, cp, &one[k++]);
		p += used;
		left -= used;
	}
	if (w <= 0)
		return 0;
	if (n * w > COLS - x)
		n = (COLS - x) / w;
	for (i = 0; i < n && nb + k <= RUN; i++) {
		memcpy(buf + nb, one, (size_t)k * sizeof *one);
		nb += k;
	}
	buf[nb] = 0;
	wattrset(stdscr, a);
	mvaddnwstr(y, x, buf, nb);
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
	if (y < 0 || y >= LINES || x < 0 || x >= COLS || w <= 0)
		return;
	if (w > COLS - x)
		w = COLS - x;
	/* curses merges the window's current attributes into what it draws: set them */
	wattrset(stdscr, a);
	mvhline(y, x, (chtype)' ' | a, w);
}

/*
 * dump.c: a window as text plus an attribute map, for golden tests.
 *
 * The text is each row's characters in UTF-8 with trailing blanks cut.
 * The map has one letter per cell naming a (colour pair, attributes)
 * combination, in order of first appearance, and a legend giving each
 * letter's foreground, background and attributes, so a golden shows both
 * what is written and how it looks, independently of pair numbering.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/util.h"

#define MAX_STYLES 62

/* Append one code point as UTF-8. */
static void
put_utf8(sbuf *b, unsigned long c)
{
	char o[4];
	if (c < 0x80) {
		sbuf_addc(b, (char)c);
	} else if (c < 0x800) {
		o[0] = (char)(0xC0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3F));
		sbuf_addn(b, o, 2);
	} else if (c < 0x10000) {
		o[0] = (char)(0xE0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		o[2] = (char)(0x80 | (c & 0x3F));
		sbuf_addn(b, o, 3);
	} else {
		o[0] = (char)(0xF0 | (c >> 18));
		o[1] = (char)(0x80 | ((c >> 12) & 0x3F));
		o[2] = (char)(0x80 | ((c >> 6) & 0x3F));
		o[3] = (char)(0x80 | (c & 0x3F));
		sbuf_addn(b, o, 4);
	}
}

/* Describe a style for the legend. */
static void
describe(sbuf *b, attr_t a, int pair)
{
	static const struct {
		attr_t bit;
		const char *name;
	} names[] = {
		{ A_BOLD, "bold" }, { A_DIM, "dim" }, { A_UNDERLINE, "underline" }, { A_REVERSE, "reverse" },
		{ A_ITALIC, "italic" }, { A_BLINK, "blink" }, { A_STANDOUT, "standout" },
	};
	size_t i;
	int fg = -1, bg = -1;
	if (pair > 0)
		extended_pair_content(pair, &fg, &bg);
	sbuf_addf(b, "fg=%d bg=%d", fg, bg);
	for (i = 0; i < KG_ARRAY_LEN(names); i++) {
		if (a & names[i].bit)
			sbuf_addf(b, " %s", names[i].name);
	}
}

/* Dump a window. */
void
dump_screen(WINDOW *w, char **text, char **attrs)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	sbuf t = { 0 }, m = { 0 }, legend = { 0 };
	attr_t style_a[MAX_STYLES];
	int style_p[MAX_STYLES], nstyles = 0, rows, cols, y, x, i;
	getmaxyx(w, rows, cols);
	for (y = 0; y < rows; y++) {
		size_t last_text = t.len;
		for (x = 0; x < cols; x++) {
			cchar_t cc;
			wchar_t wch[CCHARW_MAX + 1];
			attr_t a = 0;
			short pair = 0;
			int ext = 0, k;
			char code = '?';
			memset(wch, 0, sizeof wch);
			if (mvwin_wch(w, y, x, &cc) == ERR)
				continue;
			getcchar(&cc, wch, &a, &pair, &ext);
			if (ext > 0)
				pair = (short)ext;
			a &= ~(attr_t)(A_COLOR | A_CHARTEXT);
			for (k = 0; k < nstyles; k++) {
				if (style_a[k] == a && style_p[k] == pair)
					break;
			}
			if (k == nstyles && nstyles < MAX_STYLES) {
				style_a[nstyles] = a;
				style_p[nstyles] = pair;
				nstyles++;
			}
			if (k < MAX_STYLES)
				code = letters[k];
			sbuf_addc(&m, code);
			if (wch[0] == 0)
				wch[0] = L' ';
			for (k = 0; k < CCHARW_MAX && wch[k] != 0; k++)
				put_utf8(&t, (unsigned long)wch[k]);
			if (wch[0] != L' ')
				last_text = t.len;
			if (wch[0] >= 0x80 && wcwidth(wch[0]) == 2 && x + 1 < cols) {
				/* the second cell of a wide character */
				x++;
				sbuf_addc(&m, code);
			}
		}
		t.len = last_text;
		sbuf_addc(&t, '\n');
		sbuf_addc(&m, '\n');
	}
	for (i = 0; i < nstyles; i++) {
		sbuf_addf(&legend, "%c: ", letters[i]);
		describe(&legend, style_a[i], style_p[i]);
		sbuf_addc(&legend, '\n');
	}
	sbuf_adds(&m, "--- legend\n");
	sbuf_adds(&m, sbuf_str(&legend));
	sbuf_free(&legend);
	*text = xstrdup(sbuf_str(&t));
	*attrs = xstrdup(sbuf_str(&m));
	sbuf_free(&t);
	sbuf_free(&m);
}

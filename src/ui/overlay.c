/*
 * overlay.c: what opens over the screen and takes the keys while open:
 * the help (?, F1: every key and what the list's columns say), the
 * sources' health (i: each source's whole message) and the sort menu (F6,
 * as htop's).  Their keys are keys.c's.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

/*
 * The sources overlay (i): every source with its status, since when, its
 * last good data and its whole message, wrapped; the header has room for a
 * word each, this has room for the reason.
 */
void
overlay_sources(ui_screen *s)
{
	const kg_snapshot *sn = s->snap;
	int w = KG_MIN(s->lay.cols - 4, 100), h = s->lay.rows - 2, y0, x0, i, y, line = 0, rows;
	sbuf b = { 0 };
	if (w < 20 || h < 5)
		return;
	y0 = 1;
	x0 = (s->lay.cols - w) / 2;
	rows = h - 3;
	for (i = 0; i < h; i++)
		text_blank(y0 + i, x0, w, s->attr[UI_EL_HELP]);
	text_put(s, y0, x0 + 2, w - 4, s->attr[UI_EL_HELP_KEY] | A_BOLD, "sources", 0);
	if (w >= 30)
		text_put(s, y0, x0 + w - 17, 15, s->attr[UI_EL_HELP], "i or Esc closes", 0);
	if (s->help_top < 0)
		s->help_top = 0;
	y = y0 + 2;
	for (i = 0; sn != NULL && i < sn->nsources; i++) {
		const kg_source_health *hl = &sn->sources[i];
		const char *msg;
		char d[32];
		ui_element el = hl->status == KG_SRC_OK      ? UI_EL_SRC_OK
				: hl->status == KG_SRC_ERROR ? UI_EL_SRC_ERROR
							     : UI_EL_SRC_STALE;
		sbuf_reset(&b);
		sbuf_adds(&b, src_status_name(hl->status));
		if (hl->since_us > 0 && sn->time_us >= hl->since_us) {
			util_fmt_duration(d, sizeof d, sn->time_us - hl->since_us);
			sbuf_addf(&b, " for %s", d);
		}
		if (hl->status != KG_SRC_OK && hl->last_ok_us > 0 && sn->time_us >= hl->last_ok_us) {
			util_fmt_duration(d, sizeof d, sn->time_us - hl->last_ok_us);
			sbuf_addf(&b, ", last good data %s ago", d);
		}
		if (hl->insecure)
			sbuf_adds(&b, ", TLS not verified");
		if (line++ >= s->help_top && y < y0 + 2 + rows) {
			int x = x0 + 2;
			x += text_put(s, y, x, w - 4, s->attr[UI_EL_HELP_KEY], hl->name, TEXT_ELLIPSIS);
			text_put(s, y, x + 2, x0 + w - x - 4, s->attr[el], sbuf_str(&b), TEXT_ELLIPSIS);
			y++;
		}
		/* the message, wrapped at blanks under the name */
		msg = hl->message;
		while (msg != NULL && *msg) {
			int lw = w - 8;
			size_t len = strlen(msg), cut = len;
			if (text_width(s, msg) > lw && (cut = text_cut_at(s, msg, " ", lw)) == 0)
				cut = (size_t)lw < len ? (size_t)lw : len; /* one long word */
			if (line++ >= s->help_top && y < y0 + 2 + rows) {
				char part[512];
				size_t m = KG_MIN(cut, sizeof part - 1);
				memcpy(part, msg, m);
				part[m] = '\0';
				text_put(s, y, x0 + 6, lw, s->attr[UI_EL_HELP], part, TEXT_ELLIPSIS);
				y++;
			}
			msg += cut;
			while (*msg == ' ')
				msg++;
		}
	}
	if (sn == NULL || sn->nsources == 0)
		text_put(s, y, x0 + 2, w - 4, s->attr[UI_EL_HELP], "no source has reported yet", 0);
	if (line > rows)
		text_putf(s, y0 + h - 1, x0 + 2, w - 4, s->attr[UI_EL_HELP], "j/k scroll (%d-%d of %d lines)",
			  s->help_top + 1, KG_MIN(s->help_top + rows, line), line);
	if (s->help_top > KG_MAX(0, line - rows))
		s->help_top = KG_MAX(0, line - rows);
	sbuf_free(&b);
}

/* A row of the help overlay: a key's line, or the next part of its words wrapped under them. */
typedef struct help_row {
	const char *key; /* NULL on a continued line */
	const char *text;
	size_t len;      /* bytes of text on this row */
} help_row;

/* The help's lines wrapped at blanks into rows tw columns wide (up to max); returns the count. */
static int
help_rows(const ui_screen *s, const char *lines[][2], int n, int tw, help_row *out, int max)
{
	int i, k = 0;
	for (i = 0; i < n; i++) {
		const char *t = lines[i][1];
		bool first = true;
		do {
			size_t len = strlen(t), cut = len;
			if (text_width(s, t) > tw && (cut = text_cut_at(s, t, " ", tw)) == 0)
				cut = len; /* one long word: cut with an ellipsis */
			if (k < max)
				out[k] = (help_row){ first ? lines[i][0] : NULL, t, cut };
			k++;
			first = false;
			t += cut;
			while (*t == ' ')
				t++;
		} while (*t);
	}
	return KG_MIN(k, max);
}

/*
 * The help overlay: a page of keys, their words wrapped under them so that
 * no line is cut, as wide as the screen allows (up to 80 columns); PgDn/space and PgUp page it, Esc, q or ? close
 * it, and the page counter says where it is in the words that fit.
 */
void
overlay_help(ui_screen *s)
{
	const char *lines[128][2];
	help_row rows_v[256];
	int n = keys_help(s, lines, 128), narrow = s->lay.cols < 50;
	int w = narrow ? s->lay.cols : KG_MIN(80, s->lay.cols), kw = narrow ? 13 : 14, h, y0, x0, i, rows, nr;
	char counter[64];
	nr = help_rows(s, lines, n, w - 2 - kw - 1, rows_v, (int)KG_ARRAY_LEN(rows_v));
	h = KG_MIN(nr + 2, s->lay.rows - 2);
	rows = h - 2;
	if (s->help_top > nr - rows)
		s->help_top = nr - rows;
	if (s->help_top < 0)
		s->help_top = 0;
	y0 = 1 + (s->lay.rows - 2 - h) / 2;
	x0 = (s->lay.cols - w) / 2;
	for (i = 0; i < h; i++)
		text_blank(y0 + i, x0, w, s->attr[UI_EL_HELP]);
	text_put(s, y0, x0 + 1, w - 2, s->attr[UI_EL_HELP_KEY] | A_BOLD, "kgtop keys", 0);
	text_put(s, y0, x0 + w - 15, 14, s->attr[UI_EL_HELP], "Esc q ? close", 0);
	for (i = 0; i < rows && s->help_top + i < nr; i++) {
		const help_row *r = &rows_v[s->help_top + i];
		char part[512];
		util_strlcpy(part, r->text, KG_MIN(sizeof part, r->len + 1));
		if (r->key != NULL)
			text_put(s, y0 + 1 + i, x0 + 1, kw - 1, s->attr[UI_EL_HELP_KEY], r->key, TEXT_ELLIPSIS);
		text_put(s, y0 + 1 + i, x0 + 1 + kw, w - 2 - kw, s->attr[UI_EL_HELP], part, TEXT_ELLIPSIS);
	}
	if (nr > rows) {
		/* where it is, as long as fits */
		snprintf(counter, sizeof counter, "PgDn PgUp space: page (%d-%d of %d)", s->help_top + 1,
			 KG_MIN(s->help_top + rows, nr), nr);
		if (text_width(s, counter) > w - 2)
			snprintf(counter, sizeof counter, "PgDn PgUp: %d-%d of %d", s->help_top + 1,
				 KG_MIN(s->help_top + rows, nr), nr);
		text_put(s, y0 + h - 1, x0 + 1, w - 2, s->attr[UI_EL_HELP], counter, TEXT_ELLIPSIS);
	}
}

/*
 * The sort menu (F6), as htop's: at the group list's place, a line per
 * sort order of the group table, its name and what it means; the cursor
 * on one, the order in force marked.
 */
void
overlay_sort_menu(ui_screen *s)
{
	int w = KG_MIN(s->lay.cols, 96), x0 = 0, y0 = 1, i, y, n = 0, first = groupcol_sort_next(-1);
	for (i = first; i >= 0;) {
		n++;
		if ((i = groupcol_sort_next(i)) == first)
			break;
	}
	y0 = KG_MAX(1, KG_MIN(s->lay.list.h > 0 ? s->lay.list.y : 1, s->lay.rows - n - 4));
	for (y = y0; y < y0 + n + 3 && y < s->lay.rows - 1; y++)
		text_blank(y, x0, w, s->attr[UI_EL_HELP]);
	text_put(s, y0, x0 + 1, w - 2, s->attr[UI_EL_HELP_KEY] | A_BOLD,
		 w >= 50 ? "sort by  (Enter chooses, S reverses, Esc cancels)" : "sort by (Enter, Esc)", TEXT_ELLIPSIS);
	for (i = first, y = y0 + 2; i >= 0 && y < s->lay.rows - 1; y++) {
		const groupcol *c = &groupcol_table[i];
		bool cur = i == s->sort_menu_row;
		attr_t a = cur ? s->attr[UI_EL_SELECTED] : s->attr[UI_EL_HELP];
		int x = x0 + 1;
		if (cur)
			text_blank(y, x0, w, a);
		x += text_put(s, y, x, 2, a, i == s->sort ? (s->ascii ? "*" : s->sort_reverse ? "\u25b4" : "\u25be") : " ", 0);
		x += text_put(s, y, x, 12, cur ? a : s->attr[UI_EL_HELP_KEY], c->sort_name, 0);
		if (w >= 56) /* narrower: the names alone */
			text_put(s, y, x0 + 15, w - 16, a, c->help, TEXT_ELLIPSIS);
		if ((i = groupcol_sort_next(i)) == first)
			break;
	}
}


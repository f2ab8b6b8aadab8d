/*
 * render.c: layout and the frame around the group views: header, view
 * tabs, status line, footer, "too small"; the group list is list.c's, the
 * overlays (help, sources, sort menu) overlay.c's, each view its pane's
 * (UI_VIEWS in screen.h).
 *
 * render_frame() draws every pane from the state into a blank frame of
 * text.c's; curses is handed only the cells of each line that changed
 * (text_frame_end()) and sends those (no clear(), no clearok()), which
 * keeps an idle refresh to a few bytes and a few cells.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/intern.h"
#include "util/util.h"

#define PANE_OF(id, pane) [id] = &pane,
static const ui_pane *const panes[UI_VIEW_COUNT] = { UI_VIEWS(PANE_OF) };
#undef PANE_OF


/* The pane of a view. */
const ui_pane *
render_pane(ui_view_id v)
{
	return (unsigned)v < UI_VIEW_COUNT ? panes[v] : panes[0];
}

/* Compute the layout. */
void
render_layout(ui_layout *l, int rows, int cols, bool maximized, bool full_width, int ngroups, int status_h)
{
	int body_y = 1, body_h;
	memset(l, 0, sizeof *l);
	l->rows = rows;
	l->cols = cols;
	if (rows < UI_MIN_ROWS || cols < UI_MIN_COLS) {
		l->too_small = true;
		return;
	}
	status_h = KG_MAX(1, KG_MIN(status_h, 2));
	l->header = (ui_rect){ 0, 0, 1, cols };
	l->footer = (ui_rect){ rows - 1, 0, 1, cols };
	l->status = (ui_rect){ rows - 1 - status_h, 0, status_h, cols };
	body_h = rows - 2 - status_h;
	l->narrow = rows < UI_FULL_ROWS || cols < UI_FULL_COLS;
	l->wide = !l->narrow && cols >= 150 && rows >= 30 && !maximized && !full_width;
	if (l->narrow && !maximized) {
		/* one pane at a time: the list, Enter shows the view */
		l->list = (ui_rect){ body_y, 0, body_h, cols };
		l->tabs = (ui_rect){ body_y, 0, 0, cols };
		l->view = (ui_rect){ body_y, 0, 0, cols };
	} else if (maximized) {
		l->list = (ui_rect){ body_y, 0, 0, cols };
		l->tabs = (ui_rect){ body_y, 0, 1, cols };
		l->view = (ui_rect){ body_y + 1, 0, body_h - 1, cols };
	} else if (l->wide) {
		/* as wide as the view allows while it keeps room for the timeline's notes (90) */
		int lw = cols - 91;
		if (lw < cols * 2 / 5)
			lw = cols * 2 / 5;
		if (lw > 72)
			lw = 72;
		l->list = (ui_rect){ body_y, 0, body_h, lw };
		l->tabs = (ui_rect){ body_y, lw + 1, 1, cols - lw - 1 };
		l->view = (ui_rect){ body_y + 1, lw + 1, body_h - 1, cols - lw - 1 };
	} else {
		/* as tall as its groups need, up to 30% of the body: the rest is the group's */
		int cap = KG_MAX(5, body_h * 3 / 10), lh = ngroups < 0 ? cap : ngroups + 1;
		lh = KG_MAX(2, KG_MIN(lh, cap));
		l->list = (ui_rect){ body_y, 0, lh, cols };
		l->tabs = (ui_rect){ body_y + lh, 0, 1, cols };
		l->view = (ui_rect){ body_y + lh + 1, 0, body_h - lh - 1, cols };
	}
}

/* Curses attributes of a style's attribute bits. */
static attr_t
curses_attrs(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & UI_ATTR_BOLD)
		r |= A_BOLD;
	if (a & UI_ATTR_DIM)
		r |= A_DIM;
	if (a & UI_ATTR_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & UI_ATTR_REVERSE)
		r |= A_REVERSE;
	if (a & UI_ATTR_ITALIC)
		r |= A_ITALIC;
	if (a & UI_ATTR_BLINK)
		r |= A_BLINK;
	if (a & UI_ATTR_STANDOUT)
		r |= A_STANDOUT;
	return r;
}

/*
 * Turn the theme into attributes: the palette of the terminal's depth
 * (none without colour), colour pairs allocated in element order.
 */
void
render_theme_apply(ui_screen *s)
{
	bool colour = s->colour && has_colors();
	int ncol = colour ? COLORS : 0, npairs = 0, i, k;
	short pfg[UI_EL_COUNT], pbg[UI_EL_COUNT];
	const ui_style *st = s->theme.st[theme_depth(ncol)];
	for (i = 0; i < UI_EL_COUNT; i++) {
		int fg = theme_colour_index(st[i].fg, ncol), bg = theme_colour_index(st[i].bg, ncol), pair = 0;
		s->attr[i] = curses_attrs(st[i].attrs);
		if (!colour || (fg < 0 && bg < 0))
			continue;
		for (k = 0; k < npairs; k++) {
			if (pfg[k] == fg && pbg[k] == bg)
				pair = k + 1;
		}
		if (pair == 0 && npairs + 1 < COLOR_PAIRS) {
			pfg[npairs] = (short)fg;
			pbg[npairs] = (short)bg;
			init_pair((short)(npairs + 1), (short)fg, (short)bg);
			pair = ++npairs;
		}
		s->attr[i] |= COLOR_PAIR(pair);
	}
}

/*
 * Write the local time of t (us) as HH:MM:SS, or with the date when
 * with_date is set.  The header asks for the same second several times a
 * frame: the last one is kept (the UI runs on one thread).
 */
static void
fmt_clock(char *buf, size_t n, int64_t t_us, bool with_date)
{
	static time_t last = -1;
	static char forms[2][40];
	time_t t = (time_t)(t_us / 1000000);
	if (t != last) {
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(forms[0], sizeof forms[0], "%H:%M:%S", &tm);
		strftime(forms[1], sizeof forms[1], "%Y-%m-%d %H:%M:%S", &tm);
		last = t;
	}
	util_strlcpy(buf, forms[with_date], n);
}

/* A span of time as the header says it: "16s" (no ".0"), "1.5s", "1m05s", "500ms". */
static void
fmt_span(char *buf, size_t n, int64_t us)
{
	size_t len;
	util_fmt_duration(buf, n, us);
	len = strlen(buf);
	if (len > 3 && strcmp(buf + len - 3, ".0s") == 0)
		snprintf(buf + len - 3, n - (len - 3), "s");
}

#define HDR_MIN_LABEL 24 /* the cluster's label is cut to this for the clock, never for another source */

/* What the header leaves out to fit, in the order it gives things up. */
enum {
	HDR_BRIEF_RIGHT = 0x01,   /* the refresh interval (live), the date (replay) */
	HDR_DEMO_BRIEF = 0x02,    /* the demo's word is its script step alone, no "ok: default: " */
	HDR_NO_PHASE = 0x04,      /* and without "(holding)" */
	HDR_SHORT_CLUSTER = 0x08, /* "demo" for "demo (mock cluster)", "prod" for "prod (host:9092)" */
	HDR_TINY_RIGHT = 0x10,    /* the right part's word alone: REPLAY, PAUSED; live, no clock */
};

/*
 * The refresh interval as the header says it: "every 1s", or the real
 * cadence when the cluster's refreshes take longer ("every 3.5s (1s asked)").
 */
static void
header_interval(const ui_screen *s, char *buf, size_t n)
{
	const kg_source_health *cl = s->snap != NULL ? screen_source(s, KG_ROLE_CLUSTER) : NULL;
	char iv[32], real[32];
	fmt_span(iv, sizeof iv, s->interval_us);
	if (cl != NULL && cl->cadence_us > s->interval_us + s->interval_us / 2) {
		fmt_span(real, sizeof real, cl->cadence_us);
		snprintf(buf, n, "every %.12s (%.12s asked)", real, iv);
	} else {
		snprintf(buf, n, "every %s", iv);
	}
}

/*
 * The header's right part: one clock for where the screen is.  Live, the
 * refresh interval and the clock; paused or scrolled back, PAUSED and how
 * far back; in a replay, the recorded time shown, how it plays (x4,
 * paused, ended) and how far back the screen is, and no interval.  Into
 * m; returns the element to draw it in.
 */
static ui_element
header_where(ui_screen *s, unsigned lv, char *m, size_t n)
{
	char clock[40], d[32], how[40] = "", back[40] = "", iv[40];
	if (s->offset_us > 0) {
		fmt_span(d, sizeof d, s->offset_us);
		snprintf(back, sizeof back, " -%s", d);
	}
	if ((lv & HDR_TINY_RIGHT) && s->info != NULL && s->info->replay && s->snap != NULL) {
		snprintf(m, n, " REPLAY ");
		return UI_EL_REPLAY;
	}
	if ((lv & HDR_TINY_RIGHT) && (s->paused || screen_scrubbed(s))) {
		snprintf(m, n, " PAUSED ");
		return UI_EL_PAUSED;
	}
	if (lv & HDR_TINY_RIGHT) {
		m[0] = '\0';
		return UI_EL_HEADER;
	}
	if (s->info != NULL && s->info->replay && s->snap != NULL) {
		const kg_source_health *rp = screen_source(s, KG_ROLE_REPLAY);
		const char *msg = rp != NULL && rp->message != NULL ? rp->message : "";
		if (s->paused) {
			snprintf(how, sizeof how, " paused");
		} else if (strncmp(msg, "playing ", 8) == 0) {
			/* "playing 4x at ...": x4 */
			int len = (int)strcspn(msg + 8, " ");
			if (len > 1 && msg[8 + len - 1] == 'x')
				snprintf(how, sizeof how, " x%.*s", len - 1, msg + 8);
		} else if (strncmp(msg, "paused", 6) == 0 || strncmp(msg, "ended", 5) == 0) {
			snprintf(how, sizeof how, " %.*s", (int)strcspn(msg, ", "), msg);
		}
		fmt_clock(clock, sizeof clock, screen_view_time(s), !(lv & HDR_BRIEF_RIGHT));
		snprintf(m, n, " REPLAY %s%s%s ", clock, how, back);
		return UI_EL_REPLAY;
	}
	if (s->paused || screen_scrubbed(s)) {
		snprintf(m, n, " PAUSED%s ", back);
		return UI_EL_PAUSED;
	}
	fmt_clock(clock, sizeof clock, s->now_us, false);
	header_interval(s, iv, sizeof iv);
	/* a viewer (--attach) refreshes when the serving kgtop does: no interval of its own */
	if ((lv & HDR_BRIEF_RIGHT) || screen_source(s, KG_ROLE_ATTACH) != NULL)
		snprintf(m, n, "%s ", clock);
	else
		snprintf(m, n, "%s  %s ", iv, clock);
	return UI_EL_HEADER;
}

/*
 * The marker of a viewer (--attach) left of the right part rw columns
 * wide: the attach source's own words while it reads the stream,
 * "attached to HOST, N s behind"; when it does not, the sources on the
 * left say why.  Returns rw with it.
 */
static int
header_attach(ui_screen *s, int rw)
{
	const kg_source_health *h = screen_source(s, KG_ROLE_ATTACH);
	ui_rect r = s->lay.header;
	char m[192];
	int w;
	if (h == NULL || h->status != KG_SRC_OK || h->message == NULL)
		return rw;
	snprintf(m, sizeof m, " %s ", h->message);
	w = text_width(s, m);
	rw += w + 1;
	text_put(s, r.y, r.w - rw, w, s->attr[UI_EL_SRC_OK], m, 0);
	return rw;
}

/* The count of groups in trouble, " 2 in trouble " (" 2! " when short of room), "" none or when the screen shows the past. */
static void
header_trouble_text(const ui_screen *s, unsigned lv, char *m, size_t n)
{
	int k = s->paused || screen_scrubbed(s) ? 0 : screen_trouble(s);
	if (k == 0)
		m[0] = '\0';
	else if (lv & (HDR_TINY_RIGHT | HDR_DEMO_BRIEF))
		snprintf(m, n, " %d! ", k); /* the sources' words keep their room first */
	else
		snprintf(m, n, " %d in trouble ", k);
}

/* The count of groups in trouble left of the right part rw columns wide; returns rw with it. */
static int
header_trouble(ui_screen *s, unsigned lv, int rw)
{
	ui_rect r = s->lay.header;
	char m[48];
	int w;
	header_trouble_text(s, lv, m, sizeof m);
	if (m[0] == '\0')
		return rw;
	w = text_width(s, m);
	rw += w + 1;
	text_put(s, r.y, r.w - rw, w, s->attr[UI_EL_STATUS_ERR], m, 0);
	return rw;
}

/* The columns the right part (a viewer's marker, the groups in trouble) take. */
static int
header_right_need(ui_screen *s, unsigned lv)
{
	const kg_source_health *h = screen_source(s, KG_ROLE_ATTACH);
	char m[192];
	int w;
	header_trouble_text(s, lv, m, sizeof m);
	w = m[0] != '\0' ? text_width(s, m) + 1 : 0;
	header_where(s, lv, m, sizeof m);
	w += text_width(s, m);
	if (h != NULL && h->status == KG_SRC_OK && h->message != NULL) {
		snprintf(m, sizeof m, " %s ", h->message);
		w += text_width(s, m) + 1;
	}
	return w;
}

/* The right part drawn at the header's right edge (a viewer's marker, the groups in trouble); returns its width. */
static int
header_right(ui_screen *s, unsigned lv)
{
	ui_rect r = s->lay.header;
	char m[160];
	ui_element el = header_where(s, lv, m, sizeof m);
	int w = text_width(s, m);
	text_put(s, r.y, r.w - w, w, s->attr[el], m, 0);
	return header_trouble(s, lv, header_attach(s, w));
}

/*
 * The demo's script step from its message ("default: 3/9 consumer-d joins
 * (holding); 6 consumers, ..."), into st: "ok: default: 3/9 consumer-d
 * joins (holding)", or briefly "3/9 consumer-d joins (holding)", or
 * without the phase (a paused script keeps its "(paused)").
 */
static void
header_demo_word(const char *msg, unsigned lv, char *st, size_t n)
{
	static const char *const phases[] = { " (starting)", " (settling)", " (holding)" };
	size_t len = strstr(msg, "; ") ? (size_t)(strstr(msg, "; ") - msg) : strlen(msg), i;
	const char *colon = strstr(msg, ": ");
	if (!(lv & HDR_DEMO_BRIEF)) {
		snprintf(st, n, "ok: %.*s", (int)len, msg);
		return;
	}
	if (colon != NULL && (size_t)(colon - msg) < len) {
		len -= (size_t)(colon + 2 - msg);
		msg = colon + 2;
	}
	for (i = 0; (lv & HDR_NO_PHASE) && i < KG_ARRAY_LEN(phases); i++) {
		size_t pl = strlen(phases[i]);
		if (len > pl && strncmp(msg + len - pl, phases[i], pl) == 0)
			len -= pl;
	}
	snprintf(st, n, "%.*s", (int)len, msg);
}

/*
 * A source's status as the screen has it: a viewer's (--attach) recorded
 * sources are stale while its stream is broken (their data is as old as
 * its last tick), whatever they said then.
 */
static kg_src_status
header_status(const ui_screen *s, const kg_source_health *h, int64_t *extra)
{
	*extra = h->role != KG_ROLE_ATTACH ? screen_stream_age(s) : 0;
	return *extra > 0 && h->status == KG_SRC_OK ? KG_SRC_STALE : h->status;
}

/*
 * A source's word in the header, into st: "ok" (the demo's script step,
 * see header_demo_word; "ok, 761 malformed" for a stream that reads
 * mostly garbage), "stale 12s: why", "error: why", "connecting", or
 * "loading 45%" for a source that loads what came before it (--trace
 * offsets).  Returns its element.
 */
static ui_element
header_source_word(const ui_screen *s, const kg_source_health *h, unsigned lv, char *st, size_t n)
{
	const kg_snapshot *sn = s->snap;
	char d[32];
	int64_t extra, age;
	switch (header_status(s, h, &extra)) {
	case KG_SRC_OK: {
		const char *bad = h->message ? strstr(h->message, " malformed") : NULL;
		if (bad != NULL) {
			/* a stream that reads mostly garbage is not quietly "ok": "ok, 761 malformed" */
			const char *num = bad;
			while (num > h->message && num[-1] >= '0' && num[-1] <= '9')
				num--;
			snprintf(st, n, "ok, %.*s malformed", (int)(bad - num), num);
			return UI_EL_SRC_STALE;
		}
		if (h->role == KG_ROLE_DEMO && h->message != NULL && *h->message)
			header_demo_word(h->message, lv, st, n); /* the script step, for the audience */
		else
			snprintf(st, n, "ok");
		return UI_EL_SRC_OK;
	}
	case KG_SRC_STALE:
		/* for how long (a broken stream's age added), and why */
		age = h->status == KG_SRC_STALE && h->last_ok_us > 0 && sn->time_us > h->last_ok_us ? sn->time_us - h->last_ok_us
												  : 0;
		fmt_span(d, sizeof d, extra > 0 ? (age + extra) / 1000000 * 1000000 : age); /* a viewer's: whole seconds */
		if (h->status == KG_SRC_STALE)
			snprintf(st, n, "stale %s%s%s", d, h->message && *h->message ? ": " : "", h->message ? h->message : "");
		else
			snprintf(st, n, "stale %s", d);
		return UI_EL_SRC_STALE;
	case KG_SRC_ERROR:
		snprintf(st, n, "error: %s", h->message ? h->message : "?");
		return UI_EL_SRC_ERROR;
	default:
		/* a source loading what came before it ("loading 45% (...)"): how far it is */
		if (h->message != NULL && strncmp(h->message, "loading ", 8) == 0)
			snprintf(st, n, "loading %.*s", (int)strcspn(h->message + 8, " (:;"), h->message + 8);
		else
			snprintf(st, n, "connecting");
		return UI_EL_SRC_STALE;
	}
}

/* The cluster's label: as given, or its name alone ("demo", "prod") when short. */
static void
header_cluster(const ui_screen *s, unsigned lv, char *buf, size_t n)
{
	const char *cl = s->info && s->info->cluster ? s->info->cluster : s->snap ? s->snap->cluster : "";
	const char *paren = strstr(cl, " (");
	if ((lv & HDR_SHORT_CLUSTER) && paren != NULL)
		snprintf(buf, n, "%.*s", (int)(paren - cl), cl);
	else
		snprintf(buf, n, "%s", cl ? cl : "");
}

/* True when a source has a word in the header (a replay that plays well has its REPLAY marker). */
static bool
header_shows(const kg_source_health *h)
{
	return !(h->status == KG_SRC_OK && h->role == KG_ROLE_REPLAY);
}

/*
 * The columns the whole header needs at each level of detail, into need[]
 * (one per level): each piece is measured once, in the forms the levels
 * use (the right part brief or not, the cluster short or not, the demo's
 * word in three forms), so a frame does not format the header five times.
 */
static void
header_needs(ui_screen *s, const unsigned *levels, int nlevels, int *need)
{
	static const unsigned src_forms[3] = { 0, HDR_DEMO_BRIEF, HDR_DEMO_BRIEF | HDR_NO_PHASE };
	char buf[512];
	int where_w[2], clus_w[2], src_w[3] = { 0, 0, 0 }, i, f, l;
	for (f = 0; f < 2; f++) {
		header_where(s, f ? HDR_BRIEF_RIGHT : 0, buf, sizeof buf);
		where_w[f] = text_width(s, buf);
		header_cluster(s, f ? HDR_SHORT_CLUSTER : 0, buf, sizeof buf);
		clus_w[f] = text_width(s, buf);
	}
	for (i = 0; s->snap != NULL && i < s->snap->nsources; i++) {
		const kg_source_health *h = &s->snap->sources[i];
		if (!header_shows(h))
			continue;
		for (f = 0; f < 3; f++) {
			/* only the demo's word changes with the level */
			if (f == 0 || h->role == KG_ROLE_DEMO)
				header_source_word(s, h, src_forms[f], buf, sizeof buf);
			src_w[f] += 3 + text_width(s, h->name) + text_width(s, buf) + (h->insecure ? 11 : 0);
		}
	}
	for (l = 0; l < nlevels; l++) {
		unsigned lv = levels[l];
		f = (lv & HDR_NO_PHASE) ? 2 : (lv & HDR_DEMO_BRIEF) ? 1 : 0;
		need[l] = 7 + 1 + where_w[!!(lv & HDR_BRIEF_RIGHT)] + clus_w[!!(lv & HDR_SHORT_CLUSTER)] + src_w[f];
	}
}

/* The order the header names the sources in: the cluster's first, then the troubled ones, then the rest. */
static int
header_rank(const ui_screen *s, const kg_source_health *h, const kg_source_health *cluster)
{
	int64_t extra;
	return h == cluster ? 0 : header_status(s, h, &extra) != KG_SRC_OK ? 1 : 2;
}

/* Columns the sources named after source i (of that rank) need at least: a name and a short word each. */
static int
header_after(ui_screen *s, const kg_source_health *cluster, int rank, int i, unsigned lv)
{
	const kg_snapshot *sn = s->snap;
	char st[512];
	int j, w = 0;
	for (j = 0; j < sn->nsources; j++) {
		const kg_source_health *h = &sn->sources[j];
		int rj = header_rank(s, h, cluster);
		if (rj < rank || (rj == rank && j <= i) || !header_shows(h))
			continue;
		header_source_word(s, h, lv, st, sizeof st);
		w += 3 + text_width(s, h->name) + KG_MIN(text_width(s, st), 10);
	}
	return w;
}

/*
 * One source's name and word at x, within the header's room up to end
 * (a long reason leaves room for the sources after it; "stale 12s: why"
 * keeps the why only where a few words of it fit); returns the new x.
 */
static int
header_put_source(ui_screen *s, const kg_source_health *h, int x, int end, int after, unsigned lv)
{
	ui_rect r = s->lay.header;
	char st[512];
	ui_element el = header_source_word(s, h, lv, st, sizeof st);
	x += 2;
	x += text_put(s, r.y, x, end - x - 1, s->attr[UI_EL_HEADER], h->name, TEXT_ELLIPSIS);
	if (x < end - 2) {
		int sw = end - x - 2; /* after the blank */
		char *colon = h->status == KG_SRC_STALE ? strstr(st, ": ") : NULL;
		sw = KG_MAX(KG_MIN(sw, 10), sw - after);
		if (colon != NULL && text_width(s, st) > sw && (int)(colon - st) + 10 > sw)
			*colon = '\0';
		x += 1;
		x += text_put(s, r.y, x, sw, s->attr[el], st, TEXT_ELLIPSIS);
	}
	if (h->insecure && x < end - 12)
		x += text_put(s, r.y, x, 12, s->attr[UI_EL_SRC_STALE], " (insecure)", 0);
	return x;
}

/* The columns the cluster source's name and short word take ("  kafka stale 12s"), 0 without one. */
static int
header_cluster_health_w(ui_screen *s, const kg_source_health *cl, unsigned lv)
{
	char st[512], *colon;
	if (cl == NULL || !header_shows(cl))
		return 0;
	header_source_word(s, cl, lv, st, sizeof st);
	if ((colon = strstr(st, ": ")) != NULL)
		*colon = '\0'; /* the reason may give way; the word stays */
	return 3 + text_width(s, cl->name) + KG_MIN(text_width(s, st), 24);
}

/*
 * The header: kgtop and the cluster, the cluster's health, where the
 * screen is in time, then each other source and its health (the troubled
 * ones first).  It gives up, in order, the refresh interval, the demo's
 * "ok: default: ", the script's phase and the cluster's address before it
 * cuts any word, so the demo's step shows at 80 columns; the cluster's
 * name (or address) and its health keep their place at every width, the
 * other sources and even the clock give way to them.
 */
static void
draw_header(ui_screen *s)
{
	static const unsigned levels[] = {
		0,
		HDR_BRIEF_RIGHT,
		HDR_BRIEF_RIGHT | HDR_DEMO_BRIEF,
		HDR_BRIEF_RIGHT | HDR_DEMO_BRIEF | HDR_NO_PHASE,
		HDR_BRIEF_RIGHT | HDR_DEMO_BRIEF | HDR_NO_PHASE | HDR_SHORT_CLUSTER,
	};
	ui_rect r = s->lay.header;
	const kg_snapshot *sn = s->snap;
	const kg_source_health *cl = sn != NULL ? screen_source(s, KG_ROLE_CLUSTER) : NULL;
	int x = 0, rw = 0, i, rank, hw, cw, end;
	unsigned lv = levels[KG_ARRAY_LEN(levels) - 1];
	char cluster[256];
	int need[KG_ARRAY_LEN(levels)];
	size_t l;
	header_needs(s, levels, (int)KG_ARRAY_LEN(levels), need);
	for (l = 0; l < KG_ARRAY_LEN(levels); l++) {
		if (need[l] <= r.w) {
			lv = levels[l];
			break;
		}
	}
	text_blank(r.y, r.x, r.w, s->attr[UI_EL_HEADER]);
	x += text_put(s, r.y, x, r.w, s->attr[UI_EL_HEADER_TITLE], " kgtop ", 0);
	header_cluster(s, lv, cluster, sizeof cluster);
	cw = text_width(s, cluster);
	hw = header_cluster_health_w(s, cl, lv);
	/* the right part where it fits beside the cluster (cut to HDR_MIN_LABEL at most) and its health, else its word alone */
	if (x + KG_MIN(cw, HDR_MIN_LABEL) + hw + header_right_need(s, lv) + 1 > r.w)
		lv |= HDR_TINY_RIGHT; /* and the label may be cut to 12 for its word: a replay or a pause must show */
	if (x + KG_MIN(cw, (lv & HDR_TINY_RIGHT) ? 12 : HDR_MIN_LABEL) + hw + header_right_need(s, lv) + 1 <= r.w)
		rw = header_right(s, lv);
	/* the cluster's label, cut only where it leaves its health no room */
	x += text_put(s, r.y, x, KG_MAX(8, r.w - rw - x - hw - 1), s->attr[UI_EL_HEADER_TITLE], cluster, TEXT_ELLIPSIS);
	if (sn == NULL)
		return;
	end = r.w - rw;
	for (rank = 0; rank < 3; rank++) {
		for (i = 0; i < sn->nsources && x < end - 2; i++) {
			const kg_source_health *h = &sn->sources[i];
			if (header_rank(s, h, cl) != rank || !header_shows(h))
				continue;
			if (end - x - 3 < 4)
				break;
			x = header_put_source(s, h, x, end, header_after(s, cl, rank, i, lv), lv);
		}
	}
}

/* Attribute of a group state. */
static attr_t
state_attr(const ui_screen *s, kg_group_state st)
{
	return list_style(s, groupcol_state_style(st));
}

/* What the tabs line leaves out to fit, in the order it gives things up. */
enum {
	TABS_NO_LAG = 0x01,       /* the lag (the list has it) */
	TABS_NO_ASSIGNOR = 0x02,  /* the assignor's name: "eager" / "cooperative" stay */
	TABS_SHORT_COUNTS = 0x04, /* "4 members" alone (the partitions are the grid's) */
	TABS_COMPACT = 0x08,      /* only the shown view's name, the others by number */
	TABS_SHORT_STATE = 0x10,  /* "Prep" for PreparingRebalance */
	TABS_NO_STORM = 0x20,     /* the list's FLAGS column has it */
	TABS_NO_COUNTS = 0x40,    /* no member count (narrow: the view shows the members) */
	TABS_NO_PROTO = 0x80,     /* no protocol (narrow: the list has it) */
	TABS_NO_COORD = 0x100,    /* the coordinator and its __consumer_offsets partition (health and --once have them) */
};

/* One piece of the tabs line. */
typedef struct tab_seg {
	char text[160];
	attr_t a;
	bool name;               /* the group's name: cut to fit as a last resort */
} tab_seg;

/* Build the tabs line's pieces for a level of detail; returns the count. */
static int
tabs_segs(ui_screen *s, const kg_group *g, unsigned drop, tab_seg *seg)
{
	int n = 0, v;
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		bool on = v == (int)s->view;
		if ((drop & TABS_COMPACT) && !on)
			snprintf(seg[n].text, sizeof seg[n].text, " %d ", v + 1);
		else
			snprintf(seg[n].text, sizeof seg[n].text, " %d %s ", v + 1, panes[v]->name);
		seg[n].a = s->attr[on ? UI_EL_TAB_ACTIVE : UI_EL_TAB];
		seg[n++].name = false;
	}
	if (g != NULL) {
		ui_past p;
		bool then = screen_past(s, g, &p);
		kg_group_state st = then ? p.state : g->state;
		int nm = then ? p.nmembers : g->nmembers, np = then ? p.nparts : g->nparts;
		int64_t lag = then ? p.lag : g->lag;
		attr_t pa = list_style(s, groupcol_proto_style(g->proto));
		snprintf(seg[n].text, sizeof seg[n].text, "  %s", g->name);
		seg[n].a = s->attr[UI_EL_TITLE];
		seg[n++].name = true;
		snprintf(seg[n].text, sizeof seg[n].text, " %s", (drop & TABS_SHORT_STATE) ? state_short(st) : state_name(st));
		seg[n].a = state_attr(s, st);
		seg[n++].name = false;
		if (!(drop & TABS_NO_ASSIGNOR) && *g->assignor)
			snprintf(seg[n].text, sizeof seg[n].text, " %s (%s)", g->assignor, proto_name(g->proto));
		else
			snprintf(seg[n].text, sizeof seg[n].text, " %s", (drop & TABS_NO_PROTO) ? "" : proto_name(g->proto));
		seg[n].a = pa;
		seg[n++].name = false;
		if (drop & TABS_NO_COUNTS)
			seg[n].text[0] = '\0';
		else if (drop & TABS_SHORT_COUNTS)
			snprintf(seg[n].text, sizeof seg[n].text, "  %d member%s", nm, nm == 1 ? "" : "s");
		else
			snprintf(seg[n].text, sizeof seg[n].text, "  %d member%s  %d partition%s", nm, nm == 1 ? "" : "s", np,
				 np == 1 ? "" : "s");
		seg[n].a = s->attr[UI_EL_NORMAL];
		seg[n++].name = false;
		if (g->sum.storm && !then && !(drop & TABS_NO_STORM)) {
			snprintf(seg[n].text, sizeof seg[n].text, "  ");
			seg[n].a = s->attr[UI_EL_NORMAL];
			seg[n++].name = false;
			snprintf(seg[n].text, sizeof seg[n].text, "STORM");
			seg[n].a = s->attr[UI_EL_STORM];
			seg[n++].name = false;
		}
		if (!(drop & TABS_NO_LAG)) {
			char l[16];
			util_fmt_count(l, sizeof l, lag);
			snprintf(seg[n].text, sizeof seg[n].text, "  lag %s", l);
			seg[n].a = s->attr[UI_EL_NORMAL];
			seg[n++].name = false;
		}
		if (!(drop & TABS_NO_COORD) && s->snap != NULL) {
			group_coordinator_text(seg[n].text, sizeof seg[n].text, g, s->snap->offsets_partitions);
			seg[n].a = s->attr[UI_EL_DIM];
			seg[n++].name = false;
		}
	}
	return n;
}

/* The tabs line's pieces at a level (into seg, *n of them) and the columns they take. */
static int
tabs_width(ui_screen *s, const kg_group *g, unsigned drop, tab_seg *seg, int *n)
{
	int i, w = 0;
	*n = tabs_segs(s, g, drop, seg);
	for (i = 0; i < *n; i++)
		w += text_width(s, seg[i].text);
	return w;
}

/*
 * The tabs line: view names, then the selected group's summary.  When it
 * does not fit, it drops the least useful first (the coordinator, lag, assignor name, the
 * partition count, the other views' names, the long state name, the storm
 * flag, the member count, the protocol), then cuts the name.
 */
static void
draw_tabs(ui_screen *s, const kg_group *g)
{
	static const unsigned levels[] = {
		0,
		TABS_NO_COORD,
		TABS_NO_COORD | TABS_NO_LAG,
		TABS_NO_COORD | TABS_NO_LAG | TABS_NO_ASSIGNOR,
		TABS_NO_COORD | TABS_NO_LAG | TABS_NO_ASSIGNOR | TABS_SHORT_COUNTS,
		TABS_NO_COORD | TABS_NO_LAG | TABS_NO_ASSIGNOR | TABS_SHORT_COUNTS | TABS_COMPACT,
		TABS_NO_COORD | TABS_NO_LAG | TABS_NO_ASSIGNOR | TABS_COMPACT | TABS_SHORT_COUNTS | TABS_SHORT_STATE,
		TABS_NO_COORD | TABS_NO_LAG | TABS_NO_ASSIGNOR | TABS_COMPACT | TABS_SHORT_COUNTS | TABS_SHORT_STATE | TABS_NO_STORM,
		TABS_NO_COORD | TABS_NO_LAG | TABS_NO_ASSIGNOR | TABS_COMPACT | TABS_SHORT_STATE | TABS_NO_STORM | TABS_NO_COUNTS,
		TABS_NO_COORD | TABS_NO_LAG | TABS_NO_ASSIGNOR | TABS_COMPACT | TABS_SHORT_STATE | TABS_NO_STORM | TABS_NO_COUNTS |
			TABS_NO_PROTO,
	};
	ui_rect r = s->lay.tabs;
	tab_seg seg[16];
	int n = 0, x = r.x, i, w = 0, over = 0, lv, built, last = (int)KG_ARRAY_LEN(levels) - 1;
	memset(s->tab_w, 0, sizeof s->tab_w);
	if (r.h <= 0)
		return;
	text_blank(r.y, r.x, r.w, s->attr[UI_EL_NORMAL]);
	/*
	 * The first level that fits, looked for from the last frame's (the
	 * widths only shrink level after level): a steady screen builds the
	 * line twice, not once per level.
	 */
	lv = built = KG_MAX(0, KG_MIN(s->tabs_lv, last));
	w = tabs_width(s, g, levels[lv], seg, &n);
	if (w <= r.w) {
		while (lv > 0) {
			int w2 = tabs_width(s, g, levels[lv - 1], seg, &n);
			built = lv - 1;
			if (w2 > r.w)
				break;
			lv--;
			w = w2;
		}
	} else {
		while (lv < last) {
			w = tabs_width(s, g, levels[lv + 1], seg, &n);
			built = ++lv;
			if (w <= r.w)
				break;
		}
	}
	if (built != lv)
		w = tabs_width(s, g, levels[lv], seg, &n);
	s->tabs_lv = lv;
	over = w - r.w;
	for (i = 0; i < n && x < r.x + r.w; i++) {
		int sw = text_width(s, seg[i].text);
		if (seg[i].name && over > 0)
			sw = KG_MAX(4, sw - over);
		if (i < UI_VIEW_COUNT) {
			/* where each view's tab is, for a click */
			s->tab_x[i] = x;
			s->tab_w[i] = KG_MIN(sw, r.x + r.w - x);
		}
		x += text_put(s, r.y, x, KG_MIN(sw, r.x + r.w - x), seg[i].a, seg[i].text, TEXT_ELLIPSIS);
	}
}

/*
 * Collect the footer's keys for the current state; returns the count.
 * Priorities (lower stays longer): help and quit; the demo's member keys
 * and the shown view's own keys (the view's give way first); Enter or
 * Esc, search, pause, the demo's script and assignor keys; the rest.  At
 * 80 columns the demo's a l c x stay beside the view's main keys.
 */
static int
footer_keys(const ui_screen *s, ui_hint *k, int max)
{
	int n = 0;
	const ui_pane *p = panes[s->view];
	bool replay = s->info != NULL && s->info->replay, list_only = s->lay.narrow && !s->maximized;
#define ADD(a, b, pr) (n = screen_hint(k, n, max, a, b, pr))
	ADD("?", "help", 0);
	ADD("q", "quit", 0);
	if (s->lay.narrow) /* one pane at a time: how to get to the other */
		ADD(s->maximized ? "Esc" : "Enter", s->maximized ? "groups" : "view", 0);
	if (s->info != NULL && s->info->demo) {
		/* the demo's member keys beside the view's: the view's give way first (the later of equals) */
		ADD("a", "add", 1);
		ADD("l", "leave", 1);
		ADD("c", "crash", 1);
		ADD("x", "stall", 1);
	}
	if (!list_only && p->hints != NULL)
		n += p->hints(s, s->pane_state[s->view], k + n, max - n);
	if (s->view != UI_VIEW_GRID)
		ADD("o", "grid", 2); /* its letter is o: g goes to the top */
	if (s->paused)
		ADD(s->ascii ? "<-->" : "\u2190\u2192", "scrub", 1);
	if (s->info != NULL && s->info->demo) {
		if (!s->info->demo_no_script)
			ADD("P", s->demo_paused ? "resume script" : "pause script", 3);
		ADD("A", "assignor", 5);
	}
	if (replay) {
		ADD("spc", "play", 1);
		ADD("<>", "speed", 2);
		ADD("[]", "rebalance", 3);
	}
	if (!s->lay.narrow)
		ADD("tab", "view", 3);
	ADD("/", "search", 3);
	ADD("p", s->paused ? "resume" : "pause", 3);
	ADD("s", "sort", 5);
	ADD("\\", "filter", 5);
	if (!replay)
		ADD("r", "refresh", 6); /* a replay has nothing to refresh */
	ADD("T", "theme", 6);
#undef ADD
	return n;
}

/* True when two keys differ only by case (p and P): the footer never shows them side by side. */
static bool
footer_twins(const char *a, const char *b)
{
	return strlen(a) == 1 && strlen(b) == 1 && a[0] != b[0] && (a[0] | 0x20) == (b[0] | 0x20) &&
	       ((a[0] | 0x20) >= 'a' && (a[0] | 0x20) <= 'z');
}

/*
 * Order the shown hints (prio >= 0) so that no two twins are neighbours:
 * the second of a pair moves after the next hint that is no twin of it.
 */
static void
footer_apart(ui_hint *k, int n)
{
	int i, j, prev = -1;
	for (i = 0; i < n; i++) {
		if (k[i].prio < 0)
			continue;
		if (prev >= 0 && footer_twins(k[prev].key, k[i].key)) {
			for (j = i + 1; j < n; j++) {
				if (k[j].prio >= 0 && !footer_twins(k[j].key, k[i].key)) {
					ui_hint t = k[i];
					memmove(&k[i], &k[i + 1], (size_t)(j - i) * sizeof *k);
					k[j] = t;
					break;
				}
			}
		}
		prev = i;
	}
}

/* A group's title as the tabs line has it, without the lag: name, state, protocol, members. */
void
render_group_title(ui_screen *s, const kg_group *g, int y, int x0, int w)
{
	tab_seg seg[16];
	int n = tabs_segs(s, g, TABS_NO_LAG | TABS_SHORT_COUNTS | TABS_NO_COORD, seg), i, x;
	for (i = UI_VIEW_COUNT, x = x0; i < n && x < x0 + w; i++)
		x += text_put(s, y, x, x0 + w - x, seg[i].a, seg[i].text, TEXT_ELLIPSIS);
}

/* The footer while a search or a filter is typed: the prompt, what is typed, the cursor after it. */
static void
draw_prompt(ui_screen *s)
{
	ui_rect r = s->lay.footer;
	int x = r.x;
	char tail[64] = "";
	if (s->search_edit) {
		int n = 0, i;
		for (i = 0; !s->search_in_view && s->search[0] && i < s->norder; i++)
			n += screen_match(s->snap->groups[s->order[i]].name, s->search) != NULL;
		if (s->search[0] && !s->search_in_view)
			snprintf(tail, sizeof tail, "  %d group%s", n, n == 1 ? "" : "s");
		else if (s->search[0] && s->search_hit < 0)
			snprintf(tail, sizeof tail, "  not found");
		x += text_put(s, r.y, x, r.w, s->attr[UI_EL_FOOTER_KEY],
			      s->search_in_view ? " search this view (Enter keeps, Esc cancels): /"
						: " search groups (Enter keeps, Esc cancels): /",
			      0);
		x += text_put(s, r.y, x, r.w - x - 1, s->attr[UI_EL_FOOTER], s->search, 0);
	} else {
		if (!s->re_ok && s->filter_buf[0])
			snprintf(tail, sizeof tail, "  (not a regex yet)");
		x += text_put(s, r.y, x, r.w, s->attr[UI_EL_FOOTER_KEY], " filter (regex; Enter keeps, Esc cancels): ", 0);
		x += text_put(s, r.y, x, r.w - x - 1, s->attr[UI_EL_FOOTER], s->filter_buf, 0);
	}
	text_put(s, r.y, x + 1, r.w - x - 1, s->attr[UI_EL_FOOTER], tail, 0);
	text_cursor(r.y, KG_MIN(x, r.w - 1));
}

/* The footer: key hints (the least needed give way first, twins apart), or what is being typed. */
static void
draw_footer(ui_screen *s)
{
	ui_rect r = s->lay.footer;
	ui_hint k[40];
	int n, i, x = r.x, total = 0, drop;
	text_blank(r.y, r.x, r.w, s->attr[UI_EL_FOOTER]);
	if (s->filter_edit || s->search_edit) {
		draw_prompt(s);
		return;
	}
	n = footer_keys(s, k, 40);
	for (i = 0; i < n; i++)
		total += text_width(s, k[i].key) + text_width(s, k[i].label) + 2;
	/* drop keys, least needed first (the later of equals first), until the rest fits */
	for (drop = 6; drop > 0 && total > r.w; drop--) {
		for (i = n - 1; i >= 0 && total > r.w; i--) {
			if (k[i].prio == drop) {
				total -= text_width(s, k[i].key) + text_width(s, k[i].label) + 2;
				k[i].prio = -1;
			}
		}
	}
	footer_apart(k, n);
	for (i = 0; i < n; i++) {
		int need = text_width(s, k[i].key) + text_width(s, k[i].label) + 2;
		if (k[i].prio < 0)
			continue;
		if (x + need > r.x + r.w)
			break;
		x += 1;
		x += text_put(s, r.y, x, r.w, s->attr[UI_EL_FOOTER_KEY], k[i].key, 0);
		x += text_put(s, r.y, x + 1, r.w, s->attr[UI_EL_FOOTER], k[i].label, 0) + 1;
	}
}

/*
 * Where to break a message of width w in two lines of width lw: the byte
 * offset after the last blank that leaves the first line within lw, or
 * the whole message when it fits (0 when it has no blank to break at).
 */
static size_t
status_break(const ui_screen *s, const char *msg, int lw)
{
	size_t cut;
	if (text_width(s, msg) <= lw)
		return strlen(msg);
	cut = text_cut_at(s, msg, " ", lw);
	return cut > 0 ? cut + 1 : 0;
}

/* Lines the status line needs: 2 for a message too long for one. */
static int
status_lines(const ui_screen *s, int cols)
{
	return s->status[0] != '\0' && text_width(s, s->status) > cols - 2 ? 2 : 1;
}

/* The status line: a message (on two lines when long), else what is going on. */
static void
draw_status(ui_screen *s)
{
	ui_rect r = s->lay.status;
	int i;
	for (i = 0; i < r.h; i++)
		text_blank(r.y + i, r.x, r.w, s->attr[UI_EL_NORMAL]);
	if (s->status[0] != '\0') {
		attr_t a = s->attr[s->status_err ? UI_EL_STATUS_ERR : UI_EL_STATUS_INFO];
		size_t cut = r.h > 1 ? status_break(s, s->status, r.w - 2) : strlen(s->status);
		if (r.h > 1 && cut > 0 && cut < strlen(s->status)) {
			char first[256];
			util_strlcpy(first, s->status, KG_MIN(sizeof first, cut + 1));
			text_put(s, r.y, r.x + 1, r.w - 2, a, first, 0);
			text_put(s, r.y + 1, r.x + 1, r.w - 2, a, s->status + cut, TEXT_ELLIPSIS);
		} else {
			text_put(s, r.y + r.h - 1, r.x + 1, r.w - 2, a, s->status, TEXT_ELLIPSIS);
		}
		return;
	}
	if (s->paused || screen_scrubbed(s)) {
		/* what the keys do here: a replay goes on playing under a paused screen */
		const char *m = s->info != NULL && s->info->replay
					? "paused, the replay plays on: left/right scrub, [ ] rebalances, p resumes it"
					: "paused, collecting: left/right scrub, [ ] rebalances, p resumes live";
		text_put(s, r.y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], m, TEXT_ELLIPSIS);
		return;
	}
	if (s->re_ok || s->sort != groupcol_sort_default() || s->sort_reverse || s->search[0]) {
		/* what shapes the list, and the search n and N go on with */
		sbuf b = { 0 };
		if (s->sort != groupcol_sort_default() || s->sort_reverse)
			sbuf_addf(&b, "sorted by %s%s", groupcol_sort_name(s->sort), s->sort_reverse ? ", reversed" : "");
		if (s->re_ok)
			sbuf_addf(&b, "%sfilter %s (Esc clears)", b.len ? "; " : "", s->filter);
		if (s->search[0])
			sbuf_addf(&b, "%sn N: the next, the previous \"%s\"", b.len ? "; " : "", s->search);
		text_put(s, r.y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], sbuf_str(&b), TEXT_ELLIPSIS);
		sbuf_free(&b);
	}
}

/* The "terminal too small" screen. */
static void
draw_too_small(ui_screen *s)
{
	char m[128];
	int y = LINES / 2 - 1;
	if (y < 0)
		y = 0;
	snprintf(m, sizeof m, "terminal too small: %dx%d", COLS, LINES);
	text_put(s, y, 0, COLS, s->attr[UI_EL_STATUS_ERR], m, TEXT_ELLIPSIS);
	snprintf(m, sizeof m, "kgtop needs %dx%d; q quits", UI_MIN_COLS, UI_MIN_ROWS);
	text_put(s, y + 1, 0, COLS, s->attr[UI_EL_NORMAL], m, TEXT_ELLIPSIS);
}

/* Draw the header alone over the last frame: its clock moved and nothing else did (ui.c decides). */
void
render_clock(ui_screen *s)
{
	if (!s->lay.too_small)
		draw_header(s);
	text_frame_end();
}

/* Draw everything. */
void
render_frame(ui_screen *s)
{
	const kg_group *g;
	/* the compare form takes the whole width: the list goes above it, as tall as its groups */
	render_layout(&s->lay, LINES, COLS, s->maximized, s->view == UI_VIEW_TIMELINE && timeline_comparing(s),
		      s->snap != NULL ? s->norder : -1, status_lines(s, COLS));
	text_frame_begin();
	leaveok(stdscr, TRUE);
	if (s->lay.too_small) {
		draw_too_small(s);
		text_frame_end();
		return;
	}
	g = screen_group(s);
	draw_header(s);
	list_draw(s);
	if (s->lay.wide) {
		int y;
		for (y = s->lay.list.y; y < s->lay.list.y + s->lay.list.h; y++)
			text_put(s, y, s->lay.list.w, 1, s->attr[UI_EL_BORDER], glyph_get(G_VLINE, s->ascii), 0);
	}
	draw_tabs(s, g);
	if (g != NULL && s->lay.view.h > 0) {
		panes[s->view]->draw(s, s->pane_state[s->view], g, s->lay.view);
	} else if (s->snap != NULL && s->lay.view.h > 0) {
		text_put(s, s->lay.view.y + 1, s->lay.view.x + 2, s->lay.view.w - 4, s->attr[UI_EL_DIM],
			 "no group selected", 0);
	}
	draw_status(s);
	draw_footer(s);
	if (s->help && s->sources)
		overlay_sources(s);
	else if (s->help)
		overlay_help(s);
	else if (s->sort_menu)
		overlay_sort_menu(s);
	text_frame_end();
}

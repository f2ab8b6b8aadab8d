/*
 * view_lag.c: is the selected group keeping up, partition by partition.
 *
 * One row per partition of the group, worst first (the verdict, then the
 * oldest time lag, then the largest lag): TOPIC, PARTITION, OWNER (in its
 * member's colour), CURRENT (the committed offset), LOG-END, LAG,
 * TIME-LAG ("~" an estimate from kgtop's samples of the log-end, ">" older
 * than the oldest sample, "-" not known), RATE (records consumed per
 * second over the window), VERDICT (with "since" the time its committed
 * offset froze for STALLED and STOPPED, the records lost for LOST) and a
 * sparkline of the lag over --lag-window, as high as the group's worst
 * (a blank: no sample then; the lowest step: no lag).  Above the rows, the
 * group's counts of each verdict and the window; below them a key that
 * explains only the marks drawn, and why time lags are not known.
 * Narrow, the view gives up columns, least telling first (log-end,
 * current, rate, half the sparkline, owner, the sparkline, "since");
 * wide, a NOTE column says the reason of each unknown time lag.  It
 * scrolls (a thousand partitions are a thousand rows) and, shown alone,
 * can be searched (/ n N) in each row's cells.  Scrubbed back, it says
 * that its rows are live (the history keeps no partition's offsets).
 */
#include "config.h"

#include "ui/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/defaults.h"
#include "model/intern.h"
#include "util/util.h"

/* The columns, in the order drawn. */
typedef enum lag_col {
	LC_TOPIC,
	LC_PART,
	LC_OWNER,
	LC_CURRENT,
	LC_LOGEND,
	LC_LAG,
	LC_TLAG,
	LC_RATE,
	LC_VERDICT,
	LC_SPARK,
	LC_NOTE,
	LC_COUNT
} lag_col;

#define LAG_CELL 96       /* bytes of a cell's text */
#define LAG_TOPIC_MIN 8   /* the topic's columns at least */
#define LAG_TOPIC_WANT 16 /* what columns give way for */
#define LAG_TOPIC_MAX 32  /* and at most, before the note takes the rest */
#define LAG_NOTE_MIN 12   /* the note only where it has this much */
#define LAG_SPARK_HALF (KG_SPARK / 2)
#define LAG_LEVELS 8      /* of the layout: 0 every column, 7 the fewest */

/* Titles, widths (0: as wide as it gets) and right alignment. */
#define LAG_SINCE_W 22 /* the verdict column with its since */

static const struct {
	const char *title;
	int width;
	bool right;
} lag_cols[LC_COUNT] = {
	[LC_TOPIC] = { "TOPIC", 0, false },      [LC_PART] = { "PARTITION", 9, true },
	[LC_OWNER] = { "OWNER", 12, false },     [LC_CURRENT] = { "CURRENT", 10, true },
	[LC_LOGEND] = { "LOG-END", 10, true },   [LC_LAG] = { "LAG", 7, true },
	[LC_TLAG] = { "TIME-LAG", 8, true },     [LC_RATE] = { "RATE", 7, true },
	[LC_VERDICT] = { "VERDICT", LAG_SINCE_W, false }, [LC_SPARK] = { NULL, KG_SPARK, false },
	[LC_NOTE] = { "NOTE", 0, false },
};

/* Where each column goes in this frame (width 0: not shown). */
typedef struct lag_layout {
	int x[LC_COUNT], w[LC_COUNT];
	bool part_short; /* "PART" */
	bool since;      /* the verdict's since */
	int spark;       /* cells of the sparkline: KG_SPARK, half of it, 0 */
} lag_layout;

/* One row's cells as text. */
typedef struct lag_row {
	char c[LC_COUNT][LAG_CELL];
} lag_row;

/*
 * The columns for a width, the topics' names needing topicw: the first
 * level (0 all, then without log-end, current, rate, half the sparkline,
 * the owner, the sparkline, "since") whose columns fit with the topics
 * given up to LAG_TOPIC_WANT (those at the last level regardless).
 */
static void
lag_layout_for(lag_layout *L, int width, int topicw)
{
	int lv, c, x, need;
	for (lv = 0; lv < LAG_LEVELS; lv++) {
		int w[LC_COUNT];
		for (c = 0; c < LC_COUNT; c++)
			w[c] = lag_cols[c].width;
		if (lv >= 1)
			w[LC_LOGEND] = 0;
		if (lv >= 2)
			w[LC_CURRENT] = 0;
		if (lv >= 3) {
			w[LC_RATE] = 0;
			w[LC_PART] = 4;
		}
		if (lv >= 4)
			w[LC_SPARK] = LAG_SPARK_HALF;
		if (lv >= 5)
			w[LC_OWNER] = 0;
		if (lv >= 6)
			w[LC_SPARK] = 0;
		if (lv >= 7)
			w[LC_VERDICT] = 7;
		w[LC_TOPIC] = KG_MAX(LAG_TOPIC_MIN, KG_MIN(topicw, LAG_TOPIC_WANT));
		w[LC_NOTE] = 0;
		for (need = 1, c = 0; c < LC_COUNT; c++)
			need += w[c] > 0 ? w[c] + 1 : 0;
		if (need <= width || lv == LAG_LEVELS - 1) {
			if (need > width) /* the fewest columns: the topics take what is left */
				w[LC_TOPIC] = KG_MAX(LAG_TOPIC_MIN, w[LC_TOPIC] - (need - width));
			int spare = KG_MAX(0, width - need);
			int more = KG_MIN(spare, KG_MAX(0, KG_MIN(topicw, LAG_TOPIC_MAX) - w[LC_TOPIC]));
			w[LC_TOPIC] += more;
			spare -= more;
			if (spare >= LAG_NOTE_MIN + 1)
				w[LC_NOTE] = spare - 1;
			for (x = 1, c = 0; c < LC_COUNT; c++) {
				L->x[c] = x;
				L->w[c] = w[c];
				x += w[c] > 0 ? w[c] + 1 : 0;
			}
			L->part_short = w[LC_PART] < 9;
			L->since = w[LC_VERDICT] >= LAG_SINCE_W;
			L->spark = w[LC_SPARK];
			return;
		}
	}
}

static const kg_group *sort_group;
static int64_t sort_now; /* the snapshot's time: a kept row's time lag is aged to it (rows.h) */

/* Worst first: the verdict, the oldest time lag (known first), the largest lag; then topic and partition. */
static int
lag_cmp(const void *pa, const void *pb)
{
	const kg_gpart *a = &sort_group->parts[*(const int *)pa], *b = &sort_group->parts[*(const int *)pb];
	int64_t ta = a->tlag_kind != KG_TLAG_NONE ? kg_gpart_time_lag(a, sort_now) : -1;
	int64_t tb = b->tlag_kind != KG_TLAG_NONE ? kg_gpart_time_lag(b, sort_now) : -1;
	int d;
	if (a->verdict != b->verdict)
		return (int)b->verdict - (int)a->verdict;
	if (ta != tb)
		return ta < tb ? 1 : -1;
	if (a->lag != b->lag)
		return a->lag < b->lag ? 1 : -1;
	d = strcmp(intern_topic_name(a->tp.topic), intern_topic_name(b->tp.topic));
	return d != 0 ? d : a->tp.partition - b->tp.partition;
}

/* The time of the snapshot shown, 0 none. */
static int64_t
lag_now(const ui_screen *s)
{
	return s->snap != NULL ? s->snap->time_us : 0;
}

/* The group's partitions worst first, as indexes (the caller frees). */
static int *
lag_order(const ui_screen *s, const kg_group *g)
{
	int *idx = xreallocarray(NULL, (size_t)KG_MAX(1, g->nparts), sizeof *idx), i;
	for (i = 0; i < g->nparts; i++)
		idx[i] = i;
	sort_group = g; /* qsort with a file-scope key: the UI is single-threaded */
	sort_now = lag_now(s);
	if (g->nparts > 1)
		qsort(idx, (size_t)g->nparts, sizeof *idx, lag_cmp);
	return idx;
}

/* An offset or a count: exact when it fits width, else short ("1.2M"); "-" when unknown. */
static void
lag_num(char *buf, size_t n, int64_t v, int width)
{
	if (v < 0)
		snprintf(buf, n, "-");
	else if (snprintf(buf, n, "%lld", (long long)v) > width)
		util_fmt_count(buf, n, v);
}

/* The verdict cell: "STALLED since 22:13:26" (since in its short form: a range, "before T"), "LOST 1.2k", "OK"; "-" nothing to judge. */
static void
lag_verdict_text(char *buf, size_t n, const kg_gpart *p, bool since)
{
	char t[32];
	kg_verdict v = (kg_verdict)p->verdict;
	if (v == KG_VERDICT_LOST && p->lost > 0) {
		util_fmt_count(t, sizeof t, p->lost);
		snprintf(buf, n, "LOST %s", t);
	} else if (since && (v == KG_VERDICT_STALLED || v == KG_VERDICT_STOPPED) && p->verdict_since_us > 0) {
		char sn[48];
		since_fmt(sn, sizeof sn, (kg_since_kind)p->since_kind, p->verdict_since_lo_us, p->verdict_since_us, false);
		/* "STALLED since 22:13:25"; a range without the word when it does not fit: "STALLED 22:13:24-25" */
		if (snprintf(buf, n, "%s since %s", verdict_name(v), sn) > LAG_SINCE_W)
			snprintf(buf, n, "%s %s", verdict_name(v), sn);
	} else {
		snprintf(buf, n, "%s", verdict_name(v));
	}
}

/* The owner's name: its client id (its member id when it has none); "-" none, "in flight" between rounds. */
static const char *
lag_owner(const kg_group *g, const kg_gpart *p)
{
	const kg_member *m;
	if (p->owner < 0 || p->owner >= g->nmembers)
		return p->in_flight ? "in flight" : p->orphaned ? "orphaned" : "-";
	m = &g->members[p->owner];
	return m->client_id != NULL && *m->client_id ? m->client_id : m->member_id;
}

/* Why a row's time lag is not known, or what qualifies it (clock skew); "" none. */
static const char *
lag_note(const kg_gpart *p)
{
	if (p->tlag_why != KG_TLAG_WHY_NONE && (p->tlag_kind == KG_TLAG_NONE || p->tlag_why == KG_TLAG_SKEW))
		return tlag_why_text((kg_tlag_why)p->tlag_why);
	return "";
}

/* A row's cells as the view draws them. */
static void
lag_row_text(const kg_group *g, const kg_gpart *p, int64_t now, const lag_layout *L, lag_row *row)
{
	char n[32];
	memset(row, 0, sizeof *row);
	snprintf(row->c[LC_TOPIC], LAG_CELL, "%s", intern_topic_name(p->tp.topic));
	snprintf(row->c[LC_PART], LAG_CELL, "%d", (int)p->tp.partition);
	snprintf(row->c[LC_OWNER], LAG_CELL, "%s", lag_owner(g, p));
	lag_num(row->c[LC_CURRENT], LAG_CELL, p->committed, lag_cols[LC_CURRENT].width);
	lag_num(row->c[LC_LOGEND], LAG_CELL, p->log_end, lag_cols[LC_LOGEND].width);
	lag_num(row->c[LC_LAG], LAG_CELL, p->lag, lag_cols[LC_LAG].width);
	groupcol_fmt_tlag(row->c[LC_TLAG], LAG_CELL, kg_gpart_time_lag(p, now), (kg_tlag_kind)p->tlag_kind);
	if (p->consume_rate >= 0 && p->consume_rate < 9.95f) {
		snprintf(row->c[LC_RATE], LAG_CELL, "%.1f/s", (double)p->consume_rate);
	} else if (p->consume_rate >= 0) {
		util_fmt_count(n, sizeof n, (int64_t)(p->consume_rate + 0.5f));
		snprintf(row->c[LC_RATE], LAG_CELL, "%s/s", n);
	} else {
		snprintf(row->c[LC_RATE], LAG_CELL, "-");
	}
	lag_verdict_text(row->c[LC_VERDICT], LAG_CELL, p, L->since);
	snprintf(row->c[LC_NOTE], LAG_CELL, "%s", lag_note(p));
}

/* The highest sparkline level of the group's partitions (at least 2). */
static int
lag_spark_max(const kg_group *g)
{
	int i, k, m = 2;
	for (i = 0; i < g->nparts; i++) {
		for (k = 0; k < KG_SPARK; k++)
			m = KG_MAX(m, g->parts[i].spark[k]);
	}
	return m;
}

/* The glyph of a sparkline level against the group's highest; -1 a blank (no sample). */
static int
lag_spark_step(int level, int max)
{
	if (level <= 0)
		return -1;
	if (level == 1 || max <= 2)
		return level == 1 ? 0 : 7;
	return KG_MIN(7, 1 + ((level - 2) * 6 + (max - 2) / 2) / (max - 2));
}

/* Draw a row's sparkline at x: cells cells (half: the larger of each two). */
static void
lag_spark_draw(ui_screen *s, int y, int x, const kg_gpart *p, int cells, int max, attr_t a)
{
	int k, step = KG_SPARK / KG_MAX(1, cells);
	for (k = 0; k < cells; k++) {
		int lv = p->spark[k * step], j, g;
		for (j = 1; j < step; j++)
			lv = KG_MAX(lv, p->spark[k * step + j]);
		g = lag_spark_step(lv, max);
		text_put(s, y, x + k, 1, g == 0 ? s->attr[UI_EL_DIM] : a, g < 0 ? " " : glyph_get((ui_glyph)(G_SPARK0 + g), s->ascii), 0);
	}
}

/* True when a row's cells hold needle (case aside). */
static bool
lag_row_match(const lag_row *row, const lag_layout *L, const char *needle)
{
	int c;
	for (c = 0; c < LC_COUNT; c++) {
		if ((L->w[c] > 0 || c == LC_TOPIC) && c != LC_SPARK && screen_match(row->c[c], needle) != NULL)
			return true;
	}
	return false;
}

/* The topics' width: the longest name. */
static int
lag_topic_width(const ui_screen *s, const kg_group *g)
{
	int i, w = 0;
	int32_t last = -1;
	for (i = 0; i < g->nparts; i++) {
		if (g->parts[i].tp.topic != last) {
			last = g->parts[i].tp.topic;
			w = KG_MAX(w, text_width(s, intern_topic_name(last)));
		}
	}
	return w;
}

/* The first row at or after from (dir > 0), at or before it (dir < 0), whose cells hold needle. */
static int
view_lag_search(ui_screen *s, void *st, const kg_group *g, const char *needle, int from, int dir)
{
	lag_layout L;
	lag_row row;
	int *idx = lag_order(s, g), i, hit = -1;
	(void)st;
	lag_layout_for(&L, s->lay.view.w, lag_topic_width(s, g));
	for (i = KG_MAX(0, KG_MIN(from, g->nparts - 1)); g->nparts > 0 && i >= 0 && i < g->nparts && hit < 0;
	     i += dir > 0 ? 1 : -1) {
		lag_row_text(g, &g->parts[idx[i]], lag_now(s), &L, &row);
		if (lag_row_match(&row, &L, needle))
			hit = i;
	}
	free(idx);
	return hit;
}

/* The line above the rows: how many partitions, of each verdict, lost records, the window. */
static void
lag_summary(ui_screen *s, const kg_group *g, int y, ui_rect r)
{
	sbuf b = { 0 };
	char n[32];
	int v, x = r.x + 1;
	int64_t win = s->info != NULL && s->info->lag_window_us > 0 ? s->info->lag_window_us : 0;
	if (screen_scrubbed(s)) /* the history keeps no partition's offsets: say what this is */
		x += text_put(s, y, x, r.x + r.w - x, s->attr[UI_EL_PAUSED], "live, not then:", 0) + 1;
	sbuf_addf(&b, "%d partition%s", g->nparts, g->nparts == 1 ? "" : "s");
	x += text_put(s, y, x, r.x + r.w - x, s->attr[UI_EL_TITLE], sbuf_str(&b), 0);
	for (v = KG_VERDICT_COUNT - 1; v > KG_VERDICT_NONE; v--) {
		if (g->nverdict[v] <= 0)
			continue;
		sbuf_reset(&b);
		sbuf_addf(&b, "  %d %s", g->nverdict[v], v == KG_VERDICT_PENDING ? "not judged yet" : verdict_name((kg_verdict)v));
		x += text_put(s, y, x, r.x + r.w - x, list_style(s, groupcol_verdict_style((kg_verdict)v)), sbuf_str(&b), 0);
	}
	sbuf_reset(&b);
	if (g->nverdict[KG_VERDICT_NONE] > 0)
		sbuf_addf(&b, "  %d without offsets", g->nverdict[KG_VERDICT_NONE]);
	if (g->lost > 0) {
		util_fmt_count(n, sizeof n, g->lost);
		sbuf_addf(&b, "  %s records lost", n);
	}
	if (win > 0) {
		util_fmt_duration(n, sizeof n, win);
		sbuf_addf(&b, "  over %s", n);
	}
	text_put(s, y, x, r.x + r.w - x, s->attr[UI_EL_DIM], sbuf_str(&b), TEXT_ELLIPSIS);
	sbuf_free(&b);
}

/* The column titles. */
static void
lag_titles(ui_screen *s, const lag_layout *L, int y, ui_rect r)
{
	attr_t a = s->attr[UI_EL_COLUMN];
	int c;
	char spark[48] = "LAG", d[32];
	if (s->info != NULL && s->info->lag_window_us > 0) {
		util_fmt_duration(d, sizeof d, s->info->lag_window_us);
		snprintf(spark, sizeof spark, "LAG OVER %s", d);
	}
	if ((int)strlen(spark) > L->spark)
		snprintf(spark, sizeof spark, "TREND");
	text_blank(y, r.x, r.w, a);
	for (c = 0; c < LC_COUNT; c++) {
		const char *t = c == LC_PART && L->part_short ? "PART" : c == LC_SPARK ? spark : lag_cols[c].title;
		int x = r.x + L->x[c], w = L->w[c];
		if (w <= 0)
			continue;
		if (lag_cols[c].right && (int)strlen(t) < w)
			x += w - (int)strlen(t);
		text_put(s, y, x, KG_MIN(w, r.x + r.w - x), a, t, TEXT_ELLIPSIS);
	}
}

/*
 * The key under the rows: the time lag's marks drawn, the reasons of
 * the unknown ones with their counts, the sparkline's scale.
 */
static void
lag_key(ui_screen *s, const kg_group *g, const lag_layout *L, int y, ui_rect r)
{
	int why[KG_TLAG_WHY_COUNT] = { 0 }, kinds[KG_TLAG_KIND_COUNT] = { 0 }, i, w;
	sbuf b = { 0 };
	for (i = 0; i < g->nparts; i++) {
		kinds[g->parts[i].tlag_kind < KG_TLAG_KIND_COUNT ? g->parts[i].tlag_kind : 0]++;
		if (g->parts[i].tlag_kind == KG_TLAG_NONE && g->parts[i].tlag_why < KG_TLAG_WHY_COUNT)
			why[g->parts[i].tlag_why]++;
	}
	if (kinds[KG_TLAG_ESTIMATE] > 0)
		sbuf_adds(&b, "~ estimated from kgtop's log-end samples   ");
	if (kinds[KG_TLAG_ATLEAST] > 0)
		sbuf_adds(&b, "> older than the oldest sample   ");
	if (kinds[KG_TLAG_NONE] > 0) {
		int n = 0;
		sbuf_adds(&b, "- no time lag:");
		for (w = 1; w < KG_TLAG_WHY_COUNT; w++) {
			if (why[w] > 0)
				sbuf_addf(&b, "%s %d %s", n++ ? "," : "", why[w], tlag_why_text((kg_tlag_why)w));
		}
		if (why[KG_TLAG_WHY_NONE] > 0)
			sbuf_addf(&b, "%s %d not known", n ? "," : "", why[KG_TLAG_WHY_NONE]);
		sbuf_adds(&b, "   ");
	}
	if (L->spark > 0)
		sbuf_addf(&b, "%s no lag, higher: more (the group's worst at the top)", glyph_get(G_SPARK0, s->ascii));
	text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], sbuf_str(&b), TEXT_ELLIPSIS);
	sbuf_free(&b);
}

/* Draw one partition's row at y. */
static void
lag_row_draw(ui_screen *s, const kg_group *g, const kg_gpart *p, const lag_layout *L, int y, ui_rect r, int smax,
	     bool hit)
{
	lag_row row;
	const char *mark = s->search_in_view && s->search[0] ? s->search : NULL;
	attr_t va = list_style(s, groupcol_verdict_style((kg_verdict)p->verdict));
	int c;
	lag_row_text(g, p, lag_now(s), L, &row);
	for (c = 0; c < LC_COUNT; c++) {
		int x = r.x + L->x[c], w = KG_MIN(L->w[c], r.x + r.w - x);
		attr_t a = s->attr[UI_EL_NORMAL];
		if (L->w[c] <= 0 || w <= 0)
			continue;
		if (c == LC_SPARK) {
			lag_spark_draw(s, y, x, p, L->spark, smax, va);
			continue;
		}
		if (c == LC_VERDICT)
			a = va;
		else if (c == LC_OWNER && p->owner >= 0 && p->owner < g->nmembers)
			a = s->attr[screen_owner_el(g->members[p->owner].lane)];
		else if (c == LC_OWNER || c == LC_NOTE || (c == LC_TLAG && p->tlag_kind == KG_TLAG_NONE))
			a = s->attr[p->orphaned && c == LC_OWNER ? UI_EL_ORPHAN : UI_EL_DIM];
		if (lag_cols[c].right) {
			int pad = w - text_width(s, row.c[c]);
			x += KG_MAX(0, pad);
			w -= KG_MAX(0, pad);
		}
		text_put_match(s, y, x, w, a, row.c[c], hit ? mark : NULL, TEXT_ELLIPSIS);
	}
}

/* Draw the lag view. */
static void
view_lag_draw(ui_screen *s, void *st, const kg_group *g, ui_rect r)
{
	lag_layout L;
	ui_rect rows = r;
	ui_lines lc;
	int *idx, i, y, smax, keep = r.h >= 6 ? 1 : 0;
	(void)st;
	if (r.h < 3) {
		s->view_rows = 0;
		return;
	}
	lag_layout_for(&L, r.w, lag_topic_width(s, g));
	lag_summary(s, g, r.y, r);
	lag_titles(s, &L, r.y + 1, r);
	rows.y += 2;
	rows.h -= 2 + keep;
	if (g->nparts == 0) {
		text_put(s, rows.y, r.x + 1, r.w - 2, s->attr[UI_EL_DIM], "no committed offsets for this group yet", 0);
		s->view_rows = 0;
		return;
	}
	idx = lag_order(s, g);
	smax = lag_spark_max(g);
	lc = (ui_lines){ s, rows, 0 };
	for (i = 0; i < g->nparts; i++) {
		if ((y = screen_line(&lc)) < 0)
			continue;
		lag_row_draw(s, g, &g->parts[idx[i]], &L, y, r, smax, i == s->search_hit);
	}
	if (keep)
		lag_key(s, g, &L, r.y + r.h - 1, r);
	/* the scroll's end: the last row at the bottom of the rows' rect */
	s->view_rows = g->nparts + (s->lay.view.h - rows.h);
	free(idx);
}

const ui_pane view_lag_pane = {
	.name = "lag",
	.key = 'L',
	.draw = view_lag_draw,
	.search = view_lag_search,
};

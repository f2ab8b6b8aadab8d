/*
 * view_compare.c: the timeline's compare form (v, on in the demo): the
 * selected group's timeline above the next ones' in the list (eager,
 * cooperative and the consumer protocol, on stage), each under its title,
 * and a last line saying what the last rebalance of each cost, so they
 * are seen at once.
 *
 * The groups are entries of one array (COMPARE_GROUPS of them: the
 * selected and the two after it); the layout takes them in turn.  Where
 * the three do not fit with every lane (80x24 with four members each), it
 * draws the first two that do, the selected first, and the cost line still
 * names every one of the three, so the third protocol's cost stays on
 * screen (selecting it, Tab or the arrows, brings its lanes up); only where
 * not even two fit are the lanes shared out, as before.  They share the scale (fitted to the longest history) and the
 * labels' width, so their strips line up column for column.  It uses the screen as it has it: the whole timeline of each
 * where every lane fits, the rows left over given to older episode lines
 * (the history), then the cost line right under the last group, the rest
 * blank below it; where the whole forms do not fit (80x24), the short
 * one: the time axis once at the top, one episode line and the marker row
 * per group, the lanes, one legend for all where a row is left.  The
 * strips line up: every group's labels are as wide as the widest needs.
 * Only the selected group's lanes scroll.
 */
#include "config.h"

#include "ui/view_timeline.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

#define COMPARE_GROUPS 3   /* the selected group and the two after it in the list */
#define COMPARE_EPLINES 3  /* episode lines of the whole form */
#define COMPARE_HISTORY 8  /* and at most, where rows are left over */

/* The groups compared: g and the ones after it in the list's order (wrapping); returns how many. */
static int
compare_groups(const ui_screen *s, const kg_group *g, const kg_group **out)
{
	int n = 0;
	const kg_group *o = g;
	out[n++] = g;
	while (n < COMPARE_GROUPS && (o = screen_next_group(s, o)) != NULL && o != g)
		out[n++] = o;
	return n;
}

/* True when the timeline shows its compare form (on, per member, another group to compare with). */
bool
timeline_comparing(const ui_screen *s)
{
	const ui_timeline *tl = screen_pane_state(s, UI_VIEW_TIMELINE);
	const kg_group *g = screen_group(s), *grp[COMPARE_GROUPS];
	return tl != NULL && tl->compare && !tl->by_partition && g != NULL && compare_groups(s, g, grp) > 1;
}

/*
 * The forms and heights of n groups in r.h rows less the titles and the
 * cost line: the whole ones with older episodes where rows are left over,
 * else the short ones (one legend at the end where a row is left), else
 * the short ones in what each can have.  False when not even that fits.
 */
static bool
compare_fit(ui_screen *s, ui_timeline *tl, const kg_group **grp, int n, ui_rect r, tl_form *f, int *h)
{
	int i, avail = r.h - 1 - (n - 1), total = 0, label_w = 0, lw, zoom = 0, z, more, want[COMPARE_GROUPS];
	for (i = 0; i < n; i++) {
		f[i] = (tl_form){ .axis = true, .eplines = COMPARE_EPLINES, .legend = true, .zoom = -1 };
		h[i] = timeline_rows(s, tl, grp[i], r, &f[i], &lw, &z);
		label_w = KG_MAX(label_w, lw);
		zoom = KG_MAX(zoom, z);
		total += h[i];
	}
	if (total <= avail) {
		/* the whole forms; the rows left over show older episodes, group by group */
		for (i = 0; i < n; i++) {
			tl_form deep = f[i];
			f[i].label_w = label_w;
			f[i].zoom = zoom;
			deep.eplines = COMPARE_HISTORY;
			more = KG_MIN(avail - total, timeline_rows(s, tl, grp[i], r, &deep, &lw, &z) - h[i]);
			f[i].eplines += more;
			h[i] += more;
			total += more;
		}
		return true;
	}
	for (i = 0, total = 0; i < n; i++) {
		f[i] = (tl_form){ .axis = i == 0, .eplines = 1, .legend = false, .label_w = label_w, .zoom = zoom };
		h[i] = want[i] = timeline_rows(s, tl, grp[i], r, &f[i], &lw, &z);
		total += h[i];
	}
	if (total < avail) {
		f[n - 1].legend = true; /* one legend for all, under the last */
		h[n - 1]++;
		return true;
	}
	if (total == avail)
		return true;
	if (n > 2)
		return false; /* the caller tries fewer groups, every lane of each */
	/* not every lane fits: each group its share of the rows, at least its fixed ones and a lane */
	for (i = 0; i < n; i++) {
		h[i] = KG_MAX(f[i].axis + 3, avail * want[i] / total);
		avail -= h[i];
		total -= want[i];
	}
	return avail >= 0;
}

/* Draw the compare form, when it applies. */
bool
compare_draw(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r)
{
	const kg_group *grp[COMPARE_GROUPS];
	tl_form f[COMPARE_GROUPS];
	int h[COMPARE_GROUPS], all = compare_groups(s, g, grp), n = all, i, y = r.y, scroll = s->scroll, rows = 0;
	sbuf cost = { 0 };
	if (!tl->compare || tl->by_partition || n < 2)
		return false;
	/* as many groups as fit with every lane (the cost line names them all), two at least */
	while (!compare_fit(s, tl, grp, n, r, f, h)) {
		if (n <= 2)
			return false;
		n--;
	}
	for (i = 0; i < n; i++) {
		if (i > 0) {
			/* a later group's title: its name, state, protocol and members, as the tabs line has them */
			text_blank(y, r.x, r.w, s->attr[UI_EL_NORMAL]);
			render_group_title(s, grp[i], y, r.x, r.w);
			y++;
		}
		/* the selected group's lanes scroll; the others always show their first */
		s->scroll = i == 0 ? scroll : 0;
		timeline_draw_form(s, tl, grp[i], (ui_rect){ y, r.x, h[i], r.w }, &f[i]);
		if (i == 0)
			rows = s->view_rows;
		y += h[i];
	}
	s->scroll = scroll;
	s->view_rows = rows;
	/* then what the last rebalance of each cost, side by side: of every group compared, drawn or not */
	timeline_compare_cost(s, grp, all, r.w - 2, &cost);
	if (y < r.y + r.h)
		text_put(s, y, r.x + 1, r.w - 2, s->attr[UI_EL_TITLE], sbuf_str(&cost), TEXT_ELLIPSIS);
	sbuf_free(&cost);
	return true;
}

/* An amount's figure alone, as event_fmt_amount wrote it ("15.6", "<=16.0"; "?" for "for an unknown time"). */
static const char *
amount_of(const sbuf *n)
{
	return strncmp(sbuf_str(n), "for ", 4) == 0 ? "?" : sbuf_str(n);
}

/* Its length. */
static int
amount_len(const sbuf *n)
{
	return (int)strcspn(amount_of(n), " ");
}

/*
 * One group's side of the cost line in a form (0 the longest): its
 * protocol (or its name, when the groups share one) and what its last
 * rebalance cost, in the episode line's words and units: members stopped
 * (member-s), partitions unconsumed (partition-s), these units always;
 * the short forms say the partition-s alone (the line's head names the
 * unit), with the members stopped in parentheses, then without.
 */
static void
compare_side(const ui_screen *s, const kg_group *g, bool by_name, int form, sbuf *b)
{
	const kg_group_summary *m = &g->sum;
	kg_span st = { m->last_stopped_min_us, m->last_stopped_max_us };
	kg_span un = { m->last_unconsumed_min_us, m->last_unconsumed_max_us };
	sbuf_addf(b, form < 3 ? "%s: " : "%s ", by_name ? g->name : proto_name(g->proto));
	if (form == 4 && m->last_episode_us >= 0) { /* the partition-s alone (60 columns) */
		sbuf n = { 0 };
		if (m->last_nunconsumed > 0)
			event_fmt_amount(&n, un, m->last_nunconsumed, "partition", s->ascii);
		sbuf_addf(b, "%.*s", m->last_nunconsumed > 0 ? amount_len(&n) : 1, m->last_nunconsumed > 0 ? amount_of(&n) : "0");
		sbuf_free(&n);
		return;
	}
	if (g->commit_policy != NULL) /* the commits scenario: what the commit policy cost */
		sbuf_addf(b, "%lld processed twice, ", (long long)g->reprocessed);
	if (m->last_episode_us < 0) {
		sbuf_adds(b, "no rebalance seen yet");
	} else if (form == 0) {
		event_fmt_cost(b, m->last_nstopped, st, m->last_nunconsumed, un, s->ascii);
	} else if (form == 3) {
		sbuf n = { 0 };
		if (m->last_nunconsumed > 0)
			event_fmt_amount(&n, un, m->last_nunconsumed, "partition", s->ascii);
		sbuf_addf(b, "%.*s (%d stopped)", m->last_nunconsumed > 0 ? amount_len(&n) : 1,
			  m->last_nunconsumed > 0 ? amount_of(&n) : "0", m->last_nstopped);
		sbuf_free(&n);
	} else {
		sbuf_addf(b, "%d stopped", m->last_nstopped);
		if (form == 1 && m->last_nstopped > 0) {
			sbuf_addc(b, ' ');
			event_fmt_amount(b, st, m->last_nstopped, "member", s->ascii);
		}
		if (m->last_nunconsumed > 0) {
			if (form == 1)
				sbuf_addf(b, ", %d partition%s unconsumed ", m->last_nunconsumed,
					  m->last_nunconsumed == 1 ? "" : "s");
			else
				sbuf_adds(b, ", ");
			event_fmt_amount(b, un, m->last_nunconsumed, "partition", s->ascii);
			if (form == 2)
				sbuf_adds(b, " unconsumed");
		}
	}
}

/* The compare view's cost line: the longest form that fits width. */
void
timeline_compare_cost(const ui_screen *s, const kg_group *const *grp, int n, int width, sbuf *out)
{
	bool by_name = false;
	int form, i, k;
	/* each side by its protocol, unless two share one: then by the groups' names */
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			by_name = by_name || grp[i]->proto == grp[k]->proto;
	for (form = 0; form < 5; form++) {
		sbuf_reset(out);
		sbuf_adds(out, form == 0 ? "last rebalance cost  " : form >= 3 ? "unconsumed partition-s: " : "");
		for (i = 0; i < n; i++) {
			if (i > 0)
				sbuf_adds(out, " | ");
			compare_side(s, grp[i], by_name, form, out);
		}
		if (width <= 0 || text_width(s, sbuf_str(out)) <= width)
			return;
	}
}

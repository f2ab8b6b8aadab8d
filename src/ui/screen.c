/*
 * screen.c: the dashboard's state: shown snapshot, selection, filter,
 * search and sort (see screen.h).  Names sort as people sort them
 * (util_natcmp: consumer-2 before consumer-10); S turns the order upside
 * down.
 */
#include "config.h"

#include "ui/screen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/defaults.h"
#include "util/util.h"

/* Defaults; each view's state from its pane. */
void
screen_init(ui_screen *s, const kg_options *o, const kg_ui_info *info, kg_history *h)
{
	int v;
	memset(s, 0, sizeof *s);
	s->opts = o;
	s->info = info;
	s->hist = h;
	s->interval_us = o != NULL ? o->interval_us : 0;
	s->ascii = o != NULL && o->ascii;
	s->colour = !(o != NULL && o->no_color);
	s->sort = groupcol_sort_default();
	s->sel = -1;
	s->search_hit = -1;
	s->jump_group = -1;
	/* the demo's story is told by the timeline (which compares its groups) */
	if (info != NULL && info->demo)
		s->view = UI_VIEW_TIMELINE;
	util_strlcpy(s->theme_name, o != NULL && o->theme != NULL ? o->theme : "default", sizeof s->theme_name);
	if (o != NULL && o->select_group != NULL) {
		util_strlcpy(s->selected, o->select_group, sizeof s->selected);
		util_strlcpy(s->want, o->select_group, sizeof s->want); /* kept until it appears: it may come later */
	}
	theme_default(&s->theme);
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		const ui_pane *p = render_pane((ui_view_id)v);
		s->pane_state[v] = p->init != NULL ? p->init(s) : NULL;
	}
	text_frame_forget(); /* a screen of its own: its first frame hands curses every cell */
}

/* Release. */
void
screen_free(ui_screen *s)
{
	int v;
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		const ui_pane *p = render_pane((ui_view_id)v);
		if (p->free != NULL && s->pane_state[v] != NULL)
			p->free(s->pane_state[v]);
		s->pane_state[v] = NULL;
	}
	snapshot_unref(s->snap);
	s->snap = NULL;
	free(s->order);
	s->order = NULL;
	if (s->re_ok)
		regfree(&s->re);
	s->re_ok = false;
	text_frame_free();
}

/* Groups in trouble in the snapshot shown: counted once a snapshot (screen_set_snapshot), read every frame. */
int
screen_trouble(const ui_screen *s)
{
	return s->snap != NULL ? s->ntrouble : 0;
}

/* True when the group is on screen now: the selected one, or a row of the list shown. */
static bool
screen_shows(const ui_screen *s, int32_t id)
{
	int i, rows = s->lay.list.h - 1;
	if (s->sel >= 0 && s->sel < s->norder && s->snap->groups[s->order[s->sel]].id == id)
		return true;
	for (i = s->list_top; !s->maximized && i < s->norder && i < s->list_top + rows; i++) {
		if (s->snap->groups[s->order[i]].id == id)
			return true;
	}
	return false;
}

/*
 * The groups in trouble in next (group_in_trouble: the header's count,
 * returned), and in the same walk the trouble that began off screen
 * between the snapshot shown and next (a verdict turned STALLED, STOPPED
 * or LOST, a storm began, in a group neither selected nor in the rows
 * shown): the status line names it and counts the groups in trouble,
 * until a key or another message replaces it (the list's default order,
 * worst verdict first, moves it up).  Nothing began off screen before a
 * snapshot was shown.
 */
static int
screen_trouble_of(ui_screen *s, const kg_snapshot *next)
{
	const kg_group *first = NULL;
	int i, n = 0, total = 0;
	char more[32] = "";
	for (i = 0; i < next->ngroups; i++) {
		const kg_group *g = &next->groups[i], *was;
		if (!group_in_trouble(g))
			continue;
		total++;
		if (s->snap == NULL)
			continue;
		was = snapshot_group(s->snap, g->id);
		if ((was != NULL && group_in_trouble(was) && was->verdict >= g->verdict) || screen_shows(s, g->id))
			continue;
		if (first == NULL)
			first = g;
		n++;
	}
	if (first == NULL)
		return total;
	if (n > 1)
		snprintf(more, sizeof more, " and %d more", n - 1);
	screen_status(s, true, "off screen: %s %s%s (%d group%s in trouble)", first->name,
		      first->verdict >= KG_VERDICT_STALLED ? verdict_name((kg_verdict)first->verdict) : "STORM", more, total,
		      total > 1 ? "s" : "");
	return total;
}

/* Show a snapshot. */
void
screen_set_snapshot(ui_screen *s, kg_snapshot *snap)
{
	if (snap == s->snap)
		return;
	if (snap != NULL)
		snapshot_ref(snap);
	s->ntrouble = snap != NULL ? screen_trouble_of(s, snap) : 0;
	snapshot_unref(s->snap);
	s->snap = snap;
	if (snap != NULL && s->t0_us == 0)
		s->t0_us = snap->time_us;
	screen_order(s);
}

static const kg_group *sort_groups;
static int sort_key;
static bool sort_reverse;

/* Compare two group indexes for the current sort (ties by name), reversed with S. */
static int
order_cmp(const void *pa, const void *pb)
{
	int c = groupcol_compare(sort_key, &sort_groups[*(const int *)pa], &sort_groups[*(const int *)pb]);
	return sort_reverse ? -c : c;
}

/*
 * Scrubbed back: shallow copies of the shown groups with what the history
 * says of them at the view time (state, counts, lag, rebalances,
 * verdict), so that the order is the one of the rows shown.  NULL
 * when live.
 */
static kg_group *
past_groups(ui_screen *s)
{
	const kg_snapshot *sn = s->snap;
	kg_group *v;
	int k;
	if (!screen_scrubbed(s))
		return NULL;
	v = xcalloc((size_t)sn->ngroups + 1, sizeof *v);
	for (k = 0; k < s->norder; k++) {
		int i = s->order[k];
		ui_past p;
		v[i] = sn->groups[i];
		if (!screen_past(s, &sn->groups[i], &p))
			continue;
		v[i].state = p.state;
		v[i].nmembers = p.nmembers;
		v[i].nparts = p.nparts;
		v[i].lag = p.lag;
		v[i].sum.rebalances_1h = p.rebalances_1h;
		v[i].verdict = p.progress ? p.vp.verdict : KG_VERDICT_NONE;
		v[i].tlag_kind = KG_TLAG_NONE; /* the history keeps no time lag */
	}
	return v;
}

/* Filter and sort the groups (scrubbed back: by what they were then); keep the selection by name. */
void
screen_order(ui_screen *s)
{
	const kg_snapshot *sn = s->snap;
	kg_group *past;
	int i;
	s->norder = 0;
	s->names_w = 0;
	s->sel = -1;
	if (sn == NULL)
		return;
	if (s->corder < sn->ngroups) {
		s->corder = sn->ngroups;
		s->order = xreallocarray(s->order, (size_t)s->corder, sizeof *s->order);
	}
	for (i = 0; i < sn->ngroups; i++) {
		if (s->re_ok && regexec(&s->re, sn->groups[i].name, 0, NULL, 0) != 0)
			continue;
		s->order[s->norder++] = i;
		s->names_w = KG_MAX(s->names_w, text_width(s, sn->groups[i].name));
	}
	/* qsort with a file-scope key: the UI is single-threaded */
	past = past_groups(s);
	sort_groups = past != NULL ? past : sn->groups;
	sort_key = s->sort;
	sort_reverse = s->sort_reverse;
	if (s->norder > 1)
		qsort(s->order, (size_t)s->norder, sizeof *s->order, order_cmp);
	free(past);
	for (i = 0; s->want[0] != '\0' && i < s->norder; i++) {
		if (strcmp(sn->groups[s->order[i]].name, s->want) == 0) {
			util_strlcpy(s->selected, s->want, sizeof s->selected); /* --select's group appeared */
			s->want[0] = '\0';
		}
	}
	for (i = 0; i < s->norder; i++) {
		if (strcmp(sn->groups[s->order[i]].name, s->selected) == 0)
			s->sel = i;
	}
	if (s->sel < 0 && s->norder > 0) {
		s->sel = 0;
		util_strlcpy(s->selected, sn->groups[s->order[0]].name, sizeof s->selected);
	}
}

/* The selected group. */
const kg_group *
screen_group(const ui_screen *s)
{
	if (s->snap == NULL || s->sel < 0 || s->sel >= s->norder)
		return NULL;
	return &s->snap->groups[s->order[s->sel]];
}

/* Set the filter. */
int
screen_set_filter(ui_screen *s, const char *re)
{
	regex_t r;
	int rc;
	if (re == NULL || *re == '\0') {
		if (s->re_ok)
			regfree(&s->re);
		s->re_ok = false;
		s->filter[0] = '\0';
		screen_order(s);
		return 0;
	}
	rc = regcomp(&r, re, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc != 0) {
		char msg[128];
		regerror(rc, &r, msg, sizeof msg);
		screen_status(s, true, "filter /%s/: %s", re, msg);
		return -1;
	}
	if (s->re_ok)
		regfree(&s->re);
	s->re = r;
	s->re_ok = true;
	util_strlcpy(s->filter, re, sizeof s->filter);
	screen_order(s);
	return 0;
}

/* Status line message. */
void
screen_status(ui_screen *s, bool err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->status, sizeof s->status, fmt, ap);
	va_end(ap);
	s->status_err = err;
	s->status_until = err ? 0 : util_mono_us() + 5000000;
}

/* A source's reply to a command. */
void
screen_reply(ui_screen *s, const char *msg)
{
	screen_status(s, false, "%s", msg);
	/* the demo confirms its script's state; a refusal ("... has no script") changes nothing */
	if (strcmp(msg, "script paused") == 0)
		s->demo_paused = true;
	else if (strcmp(msg, "script resumed") == 0)
		s->demo_paused = false;
}

/* True when the views show the past. */
bool
screen_scrubbed(const ui_screen *s)
{
	return s->snap != NULL && s->offset_us > 0;
}

/* The group at the view time, from the history. */
bool
screen_past(ui_screen *s, const kg_group *g, ui_past *p)
{
	int64_t t = screen_view_time(s);
	kg_hview *v;
	const kg_sample *smp;
	int i;
	bool ok = false;
	memset(p, 0, sizeof *p);
	p->lag = -1;
	if (!screen_scrubbed(s) || s->hist == NULL || g == NULL)
		return false;
	v = history_view(s->hist, g->id, t, t);
	smp = hview_sample_at(v, t);
	if (smp != NULL) {
		ok = true;
		p->state = smp->state;
		p->in_episode = smp->in_episode;
		p->nparts = smp->nparts;
		p->lag = smp->lag;
		for (i = 0; i < smp->nlanes; i++)
			p->nmembers += smp->lane_status[i] != KG_LANE_ABSENT;
	}
	hview_free(v);
	if (ok) {
		p->rebalances_1h = history_episodes_started(s->hist, g->id, t - 3600LL * 1000000, t + 1);
		p->progress = history_verdict_at(s->hist, g->id, t, &p->vp);
	}
	return ok;
}

/* The health of the first source of a role. */
const kg_source_health *
screen_source(const ui_screen *s, kg_src_role role)
{
	int i;
	for (i = 0; s->snap != NULL && i < s->snap->nsources; i++) {
		if (s->snap->sources[i].role == role)
			return &s->snap->sources[i];
	}
	return NULL;
}

/* A viewer whose stream broke: how long ago its last good data came. */
int64_t
screen_stream_age(const ui_screen *s)
{
	const kg_source_health *h = screen_source(s, KG_ROLE_ATTACH);
	if (h == NULL || h->status == KG_SRC_OK || h->last_ok_us <= 0 || s->now_us <= h->last_ok_us)
		return 0;
	return s->now_us - h->last_ok_us;
}

/* The time the views show. */
int64_t
screen_view_time(const ui_screen *s)
{
	if (s->snap == NULL)
		return s->now_us;
	return s->snap->time_us - s->offset_us;
}

/* Colour element of a lane. */
ui_element
screen_owner_el(int lane)
{
	if (lane < 0)
		return UI_EL_IDLE;
	return (ui_element)(UI_EL_OWNER1 + lane % UI_OWNER_COLOURS);
}

/* Next line of a scrolling cursor. */
int
screen_line(ui_lines *c)
{
	int y = c->r.y + c->line - c->s->scroll;
	c->line++;
	return y >= c->r.y && y < c->r.y + c->r.h ? y : -1;
}

/* Add a footer hint. */
int
screen_hint(ui_hint *h, int n, int max, const char *key, const char *label, int prio)
{
	if (n < max)
		h[n++] = (ui_hint){ key, label, prio };
	return n;
}

/* True when the view has the moving keys. */
bool
screen_view_focus(const ui_screen *s)
{
	return s->maximized;
}

/* True when the group view is on the screen. */
bool
screen_view_shown(const ui_screen *s)
{
	return !(s->lay.narrow && !s->maximized);
}

/* A view's state. */
void *
screen_pane_state(const ui_screen *s, ui_view_id v)
{
	return (unsigned)v < UI_VIEW_COUNT ? s->pane_state[v] : NULL;
}

/* The group after g in the list's order. */
const kg_group *
screen_next_group(const ui_screen *s, const kg_group *g)
{
	int i;
	for (i = 0; i < s->norder; i++) {
		if (&s->snap->groups[s->order[i]] == g)
			return s->norder > 1 ? &s->snap->groups[s->order[(i + 1) % s->norder]] : NULL;
	}
	return NULL;
}

/* Where needle is in text, case aside. */
const char *
screen_match(const char *text, const char *needle)
{
	size_t n = needle != NULL ? strlen(needle) : 0;
	const char *p;
	if (n == 0 || text == NULL)
		return NULL;
	for (p = text; *p; p++) {
		if (strncasecmp(p, needle, n) == 0)
			return p;
	}
	return NULL;
}

/* The next or previous group whose name holds needle, wrapping. */
int
screen_find_group(const ui_screen *s, const char *needle, int from, int dir)
{
	int k, i;
	if (s->snap == NULL || s->norder == 0 || needle == NULL || *needle == '\0')
		return -1;
	for (k = 0; k < s->norder; k++) {
		i = ((from + (dir < 0 ? -k : k)) % s->norder + s->norder) % s->norder;
		if (screen_match(s->snap->groups[s->order[i]].name, needle) != NULL)
			return i;
	}
	return -1;
}

/* Select a group of the shown order. */
void
screen_select(ui_screen *s, int i)
{
	if (s->snap == NULL || s->norder <= 0)
		return;
	i = KG_MAX(0, KG_MIN(i, s->norder - 1));
	if (i != s->sel)
		s->scroll = 0;
	s->sel = i;
	s->want[0] = '\0'; /* a choice of the user's: --select waits no more */
	util_strlcpy(s->selected, s->snap->groups[s->order[i]].name, sizeof s->selected);
}

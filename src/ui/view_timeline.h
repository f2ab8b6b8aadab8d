/*
 * view_timeline.h: the timeline view's state and the drawing its compare
 * form shares (internal to view_timeline.c and view_compare.c).
 *
 * The state is the pane's (see ui_pane in screen.h): made when the screen
 * is, changed by the view's own keys, read by nothing else but through
 * the functions below.
 */
#ifndef KGTOP_UI_VIEW_TIMELINE_H
#define KGTOP_UI_VIEW_TIMELINE_H

#include "ui/screen.h"

typedef struct ui_timeline {
	int zoom;          /* index into the scales (the one last used while auto) */
	bool auto_zoom;    /* the scale fits the history to the width, 500 ms a column at most (+ - end it) */
	bool by_partition; /* m: a lane per partition */
	bool compare;      /* v: the selected group's timeline above the next two's (on in the demo) */
	bool wall_clock;   /* w: episodes start at clock times, not since kgtop's start */
	int label_w;       /* the lanes' labels' width in this frame */
} ui_timeline;

/* How a group's timeline is drawn: the whole form, or the short one of a compare. */
typedef struct tl_form {
	bool axis;   /* the time axis on the first row */
	int eplines; /* episode lines, at most (newest first) */
	bool legend; /* the legend under the lanes (without: one only where the lanes do not all fit, to say which show) */
	int label_w; /* the labels' width, 0: as the names need (two groups' strips line up with the larger) */
	int zoom;    /* the scale's index, -1: the timeline's (two groups' strips share one) */
} tl_form;

/*
 * The scale of a strip ncols wide, microseconds a column: zoom's (>= 0), or
 * the timeline's own (fitting the history to the width while auto_zoom).
 */
int64_t timeline_zoom_scale(const ui_screen *s, ui_timeline *tl, int zoom, int ncols);
/* Draw one group's timeline into r. */
void timeline_draw_group(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r);
/* Draw one group's timeline into r in a form (NULL: the whole one). */
void timeline_draw_form(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r, const tl_form *f);
/*
 * The rows a form needs to show every lane of g in a rect r wide;
 * *label_w: the labels' width it would take, *zoom: the scale's index.
 */
int timeline_rows(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r, const tl_form *f, int *label_w,
		  int *zoom);
/*
 * Draw the compare form (the selected group g above the next two, or the
 * next one where three do not fit with every lane; the cost line of all
 * three under them) into r; false when it does not apply (per partition,
 * a group alone, no room), and nothing is drawn.
 */
bool compare_draw(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r);

/* view_timeline_note.c */
/* What the view's samples say about lane k over [a, b] (see ui_lane_facts); why is left to the caller. */
void timeline_lane_facts(const kg_hview *v, int k, int64_t a, int64_t b, ui_lane_facts *f);
/*
 * Why each lane left in the last episode of v, from its start (and a leave
 * just before) to its end (*lend; t1 while it is open); the caller frees it.
 */
kg_reason *timeline_note_reasons(ui_screen *s, const kg_hview *v, int64_t t1, int64_t *lend);

#endif

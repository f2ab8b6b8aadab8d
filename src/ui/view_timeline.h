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
	int zoom;          /* index into the scales */
	bool by_partition; /* m: a lane per partition */
	bool compare;      /* v: the selected group's timeline above the next one's (on in the demo) */
	bool wall_clock;   /* w: episodes start at clock times, not since kgtop's start */
	int label_w;       /* the lanes' labels' width in this frame */
} ui_timeline;

/* Draw one group's timeline into r. */
void timeline_draw_group(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r);
/*
 * Draw the compare form (the selected group g above the next one, the
 * cost line under them) into r; false when it does not apply (per
 * partition, a group alone, no room), and nothing is drawn.
 */
bool compare_draw(ui_screen *s, ui_timeline *tl, const kg_group *g, ui_rect r);

#endif

/*
 * groupcol.h: the facts of a consumer group in one table, for the
 * dashboard's group list and the --once text report.
 *
 * A row is one fact: its column in the group list (title, width,
 * alignment, a sign after it; an optional column shows only where the
 * list has room to spare), its line in the text report (a label, or on
 * the line of the label before it), its place in the sort order with a
 * comparator, and a formatter that writes the fact as text with a style
 * hint, without curses.  A formatter writes the longest form of the fact
 * that fits the width it is given ("PreparingRebalance" in the report,
 * "Prep" in the list's six columns).  A row without a title is only in
 * the report, one without a label only in the list (one with neither is
 * a sort order only: by name).  A row also says when its column gives
 * way in a narrow list and, for the help, what it means.  The sort
 * orders are the rows with a comparator, in the table's order.  A new
 * column is a row of groupcol.c.
 */
#ifndef KGTOP_REPORT_GROUPCOL_H
#define KGTOP_REPORT_GROUPCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"

/* How a cell wants to look; the dashboard turns it into a theme element, the report ignores it. */
typedef enum groupcol_style {
	GROUPCOL_NORMAL,
	GROUPCOL_DIM,
	GROUPCOL_STABLE,      /* group state Stable */
	GROUPCOL_REBALANCING, /* a rebalance in progress */
	GROUPCOL_QUIET,       /* group states Empty, Dead, unknown */
	GROUPCOL_EAGER,       /* eager protocol */
	GROUPCOL_COOPERATIVE, /* cooperative protocol */
	GROUPCOL_STORM,       /* a storm: stays loud on the selected row */
	GROUPCOL_LAG_UP,
	GROUPCOL_LAG_DOWN,
	GROUPCOL_VERDICT_OK,   /* verdict OK */
	GROUPCOL_VERDICT_WARN, /* SLOW, REWIND */
	GROUPCOL_VERDICT_BAD,  /* STALLED, STOPPED, LOST */
	GROUPCOL_STYLE_COUNT
} groupcol_style;

/* A sign drawn in the column after a cell's text (the lag's trend over a minute). */
typedef enum groupcol_sign {
	GROUPCOL_SIGN_NONE,
	GROUPCOL_SIGN_UP,
	GROUPCOL_SIGN_DOWN,
	GROUPCOL_SIGN_FLAT,
	GROUPCOL_SIGN_COUNT
} groupcol_sign;

typedef enum groupcol_align {
	GROUPCOL_LEFT,  /* the text only */
	GROUPCOL_FILL,  /* the text, and blanks in its style to the column's width */
	GROUPCOL_RIGHT, /* blanks in its style, then the text, to the column's width */
	GROUPCOL_ALIGN_COUNT
} groupcol_align;

/* A group's facts as a row shows them: now, or as the history saw them at a past time. */
typedef struct groupcol_facts {
	const kg_snapshot *snap; /* the snapshot of g (for its brokers) */
	const kg_group *g;
	bool past;               /* scrubbed back: no trend and no storm (the history keeps neither) */
	kg_group_state state;    /* these of now, or of then */
	bool in_episode;
	int nmembers;
	int nparts;
	int64_t lag;             /* -1 unknown */
	int rebalances_1h;
	bool progress;           /* the verdict is known (past: the history had it then) */
	uint8_t verdict;         /* kg_verdict */
	uint8_t tlag_kind;       /* kg_tlag_kind (past: none, the history keeps no time lag) */
	int64_t time_lag_us;
	int64_t extra_age_us;    /* how much older than its time the snapshot is (a viewer whose stream stopped) */
} groupcol_facts;

#define GROUPCOL_SPANS 2
#define GROUPCOL_TEXT 512

/* A cell: up to two spans of text, one blank column apart, and a sign. */
typedef struct groupcol_cell {
	struct {
		char text[GROUPCOL_TEXT];
		groupcol_style style;
	} span[GROUPCOL_SPANS];
	int nspans;               /* 0: nothing to say (the report leaves the line out) */
	groupcol_sign sign;
	groupcol_style sign_style;
} groupcol_cell;

typedef struct groupcol {
	/* in the group list; NULL title: not there */
	const char *title;
	int width;                /* columns of its text */
	groupcol_align align;
	bool sign;                /* one more column after the text, for the sign */
	bool optional;            /* only where the list has room to spare */
	int drop;                 /* under 80 columns: its place in giving way, 1 first; 0: it stays */
	/* in the --once report; NULL label: not there */
	const char *label;
	bool joins;               /* on the line of the label before it */
	/* sorting (s, F6); NULL cmp: not a sort order */
	const char *sort_name;    /* "lag": "sorted by lag" */
	int (*cmp)(const kg_group *a, const kg_group *b); /* < 0 when a comes first */
	bool sort_default;        /* the order the list starts with */
	const char *help;         /* what it means, for the help and the sort menu */
	/* Write the fact of f into c for width columns (<= 0: no limit, the longest form). */
	void (*cell)(const groupcol_facts *f, int width, groupcol_cell *c);
} groupcol;

extern const groupcol groupcol_table[];
extern const int groupcol_count;

/* The facts of g as the snapshot s has them now. */
void groupcol_facts_now(groupcol_facts *f, const kg_snapshot *s, const kg_group *g);
/* The sort order the list starts with: its row. */
int groupcol_sort_default(void);
/* The sort order after row in the table's order, wrapping (-1: the first); -1 when there is none. */
int groupcol_sort_next(int row);
/* The sort order named name ("lag"), -1 when none is. */
int groupcol_sort_find(const char *name);
/* The name of a sort order: "name", "lag", ... */
const char *groupcol_sort_name(int row);
/* Compare two groups for a sort order, a row of the table (ties by name). */
int groupcol_compare(int row, const kg_group *a, const kg_group *b);
/* The style of a group state: Stable, rebalancing, or quiet. */
groupcol_style groupcol_state_style(kg_group_state st);
/* The style of a protocol: eager, cooperative, or dim when unknown. */
groupcol_style groupcol_proto_style(kg_proto p);
/* The style of a verdict: OK, a warning (SLOW, REWIND), bad (STALLED, STOPPED, LOST), dim when none. */
groupcol_style groupcol_verdict_style(kg_verdict v);
/*
 * A time lag, short: "1.2s", "42s", "1m03s", "2h05m", "3d04h"; "~" before
 * an estimate, ">" before a lower bound ("> AGE": older than kgtop's oldest
 * sample); "-" when not known.
 */
void groupcol_fmt_tlag(char *buf, size_t n, int64_t us, kg_tlag_kind kind);

#endif

/*
 * ui.h: the curses dashboard (the only code that calls curses).
 *
 * ui_run() owns the terminal on the main thread: it draws the frames the
 * collector publishes (collector_fd() becomes readable), reads keys, and
 * sends commands to sources by role through collector_command():
 *   demo:   "add-member GROUP", "leave GROUP", "crash GROUP", "stall GROUP",
 *           "assignor NAME" (for members added next), "pause-script",
 *           "resume-script"
 *   replay: "toggle", "play", "pause", "speed X", "faster", "slower",
 *           "seek +S" / "seek -S" (seconds), "next-rebalance", "prev-rebalance"
 * It restores the terminal on every exit path (q, --duration's end,
 * SIGINT, SIGTERM, SIGHUP, fatal signals) and returns 0, the signal number after SIGTERM or SIGHUP, or -1 with err.
 */
#ifndef KGTOP_UI_UI_H
#define KGTOP_UI_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/options.h"

struct kg_collector; /* core/collector.h: only ui.c, which drives the loop, needs it */

typedef struct kg_ui_info {
	bool demo;             /* the embedded demo runs: show its controls */
	bool demo_static;      /* the static-membership scenario is available (real cluster) */
	bool demo_no_script;   /* a demo scenario without a script (manual): no P in the footer */
	bool replay;           /* a recording drives the model: REPLAY marker and controls */
	const char *cluster;   /* bootstrap label */
	int64_t lag_window_us; /* the progress verdicts' window (the lag view says it), 0 unknown */
} kg_ui_info;

/* The curses library's version ("ncurses 6.4.20221231"), for --version. */
const char *ui_curses_version(void);
/*
 * Check that a theme loads (a file that is not there or does not parse is
 * an error wherever the theme is named); 0, or -1 with err.
 */
int ui_theme_check(const char *name, char *err, size_t errsz);
/* Run the dashboard until the user quits (0) or a signal asks to stop (SIGTERM, SIGHUP: that signal; -1 with err on failure). */
int ui_run(struct kg_collector *c, const kg_options *o, const kg_ui_info *info, char *err, size_t errsz);

#endif

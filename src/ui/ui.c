/*
 * ui.c: ui_run(), the dashboard's loop on the main thread (see ui.h).
 *
 * The loop poll()s three descriptors: the terminal, the collector's
 * readiness pipe and a self-pipe the signal handlers write to.  A frame
 * from the collector replaces the shown snapshot (unless paused: then it
 * is kept aside until p resumes), a key changes the state, a signal ends
 * the loop; after any of these one render_frame() + wnoutrefresh() +
 * doupdate() sends what changed, and the clock's tick draws the header
 * alone when no frame came to draw its next second (ui_clock: at rest the
 * frames draw it, one draw a second).  With
 * --duration the loop also ends by itself when that time is up.
 *
 * The mouse (a click selects, the wheel scrolls) is on unless --no-mouse.
 *
 * Terminal safety: SIGINT, SIGTERM and SIGHUP only set a flag and write to
 * the self-pipe.  Fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL)
 * write the terminfo strings that end the full-screen mode, restore the
 * saved termios (both async-signal-safe) and re-raise.  Out of memory
 * calls endwin() through util_set_oom_hook() before util aborts.
 */
#include "config.h"

#include "ui/ui.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "core/collector.h"
#include "ui/screen.h"
#include "util/log.h"
#include "util/util.h"

#ifndef NCURSES_VERSION
#error "kgtop needs ncursesw"
#endif
#include <term.h>

static volatile sig_atomic_t ui_signal;   /* the signal that asked to stop, 0 none */
static volatile sig_atomic_t ui_curses_up;
static int ui_sigpipe[2] = { -1, -1 };
static struct termios ui_saved_tio;
static bool ui_have_tio;
static char ui_restore[256];              /* terminfo strings that leave full-screen mode */
static size_t ui_restore_len;

static const int ui_stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static const int ui_fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL };

/* SIGINT, SIGTERM, SIGHUP: remember and wake the loop. */
static void
ui_on_stop(int sig)
{
	int saved = errno;
	char b = 1;
	ui_signal = sig;
	if (ui_sigpipe[1] >= 0 && write(ui_sigpipe[1], &b, 1) < 0) {
		/* the pipe is full: the loop is already awake */
	}
	errno = saved;
}

/* Fatal signals: leave full-screen mode with async-signal-safe calls, then die of the signal. */
static void
ui_on_fatal(int sig)
{
	if (ui_curses_up) {
		if (ui_restore_len > 0 && write(STDOUT_FILENO, ui_restore, ui_restore_len) < 0) {
			/* nothing more can be done */
		}
		if (ui_have_tio)
			tcsetattr(STDIN_FILENO, TCSANOW, &ui_saved_tio);
		ui_curses_up = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Out of memory: end curses before util aborts. */
static void
ui_oom(void)
{
	if (ui_curses_up) {
		endwin();
		ui_curses_up = 0;
	}
}

/* Append a terminfo string capability to the restore sequence. */
static void
ui_add_cap(const char *name)
{
	char *v = tigetstr(name);
	size_t n;
	if (v == NULL || v == (char *)-1)
		return;
	n = strlen(v);
	if (ui_restore_len + n < sizeof ui_restore) {
		memcpy(ui_restore + ui_restore_len, v, n);
		ui_restore_len += n;
	}
}

/* Install the signal handlers; the old actions go to old_stop / old_fatal. */
static void
ui_signals_install(struct sigaction *old_stop, struct sigaction *old_fatal)
{
	struct sigaction sa;
	size_t i;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = ui_on_stop;
	for (i = 0; i < KG_ARRAY_LEN(ui_stop_signals); i++)
		sigaction(ui_stop_signals[i], &sa, &old_stop[i]);
	sa.sa_handler = ui_on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < KG_ARRAY_LEN(ui_fatal_signals); i++)
		sigaction(ui_fatal_signals[i], &sa, &old_fatal[i]);
}

/* Put the old handlers back. */
static void
ui_signals_restore(const struct sigaction *old_stop, const struct sigaction *old_fatal)
{
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(ui_stop_signals); i++)
		sigaction(ui_stop_signals[i], &old_stop[i], NULL);
	for (i = 0; i < KG_ARRAY_LEN(ui_fatal_signals); i++)
		sigaction(ui_fatal_signals[i], &old_fatal[i], NULL);
}

/* Load the screen's theme by name; a broken one leaves the default and a status message. */
static void
ui_load_theme(ui_screen *s, char *theme_err, size_t errsz)
{
	char err[512];
	if (theme_load(&s->theme, s->theme_name, err, sizeof err) < 0) {
		screen_status(s, true, "%s (using the default theme)", err);
		util_strlcpy(theme_err, err, errsz);
		util_strlcpy(s->theme_name, "default", sizeof s->theme_name);
	} else {
		screen_status(s, false, "theme %s%s", s->theme_name,
			      s->colour && has_colors() ? "" : " (no colour: attributes only)");
	}
	render_theme_apply(s);
}

/* True when the locale's character set is UTF-8. */
static bool
ui_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/*
 * When the header's clock is drawn.  Each draw shows the wall clock's
 * second it is made in (shown_s).  The next second is drawn at the latest
 * UI_CLOCK_LATE_MS after it begins when frames flow (the last two came at
 * most UI_FRAMES_FLOW_US apart, the last within that): the frame due in
 * that time draws it with everything else, so at rest one draw a second
 * where a clock-only draw at each second's start and a frame at the
 * refresh's own phase made two (half the dashboard thread's CPU at rest,
 * bench-idle; the refreshes begin as a second does, kafka.c's
 * next_refresh(), so the frame comes a few ms into it).  The clock then
 * reads the frame's time, at most that late, and never skips a second,
 * whatever the frames do.  Slower frames (-i 3, a cluster not answering)
 * leave the clock-only draw at each second's start.
 */
#define UI_CLOCK_LATE_MS 990
#define UI_FRAMES_FLOW_US 1500000

typedef struct ui_clock {
	int64_t shown_s;    /* the wall clock's second the last draw showed (0: none yet) */
	int64_t frame_us;   /* monotonic time of the last frame and of the one before (0: none) */
	int64_t prev_frame_us;
} ui_clock;

/* A frame came now. */
static void
ui_clock_frame(ui_clock *k)
{
	k->prev_frame_us = k->frame_us;
	k->frame_us = util_mono_us();
}

/* True when frames flow: one is likely to come before the clock's next second is late. */
static bool
ui_frames_flow(const ui_clock *k)
{
	int64_t now = util_mono_us();
	return k->prev_frame_us > 0 && k->frame_us - k->prev_frame_us <= UI_FRAMES_FLOW_US &&
	       now - k->frame_us <= UI_FRAMES_FLOW_US;
}

/* Milliseconds to wait in poll(): until the clock's next second is due, or the --duration deadline (0: none). */
static int
ui_wait_ms(const ui_clock *k, int64_t end_mono)
{
	int64_t now = util_now_us(), due, ms;
	if (k->shown_s <= 0 || k->shown_s > now / 1000000 + 1)
		due = (now / 1000000 + 1) * 1000000; /* nothing shown yet, or the wall clock went back */
	else
		due = (k->shown_s + 1) * 1000000;
	if (ui_frames_flow(k))
		due += (int64_t)UI_CLOCK_LATE_MS * 1000;
	ms = due > now ? (due - now) / 1000 + 1 : 0;
	if (end_mono > 0) {
		int64_t left = end_mono - util_mono_us();
		if (left < 0)
			left = 0;
		if (left / 1000 + 1 < ms)
			ms = left / 1000 + 1;
	}
	return (int)ms;
}

/*
 * True when the last frame stands but for the header's clock: no overlay
 * over the header, no prompt's cursor, and no viewer's broken stream
 * (its age grows in the header and the list with the clock).  Everything
 * else a frame shows comes from the snapshot, the keys and the status.
 */
static bool
ui_clock_only(const ui_screen *s)
{
	return !s->help && !s->sort_menu && !s->filter_edit && !s->search_edit && screen_stream_age(s) == 0;
}

/*
 * Draw and send what changed.  changed: a frame came or a key was read
 * since the last draw; without either (the clock's tick, ui_wait_ms())
 * only the header is drawn again, not a whole frame built to send a
 * clock's digits.
 */
static void
ui_draw(ui_screen *s, ui_clock *k, bool changed)
{
	s->now_us = util_now_us();
	k->shown_s = s->now_us / 1000000;
	if (s->status[0] != '\0' && s->status_until > 0 && util_mono_us() > s->status_until) {
		s->status[0] = '\0';
		changed = true;
	}
	changed = changed || !ui_clock_only(s);
	if (changed)
		render_frame(s);
	else
		render_clock(s);
	log_msg(KG_LOG_DEBUG, "ui: drew %s", changed ? "a frame" : "the clock"); /* tests/tmux/rest.sh counts them */
	if (s->filter_edit || s->search_edit)
		curs_set(1);
	else
		curs_set(0);
	wnoutrefresh(stdscr);
	doupdate();
}

/* Close the signal pipe. */
static void
ui_pipe_close(void)
{
	close(ui_sigpipe[0]);
	close(ui_sigpipe[1]);
	ui_sigpipe[0] = ui_sigpipe[1] = -1;
}

/* Open the self-pipe the signal handlers write to; 0, or -1 with err. */
static int
ui_pipe_open(char *err, size_t errsz)
{
	if (pipe(ui_sigpipe) < 0)
		return util_err(err, errsz, "pipe: %s", strerror(errno));
	fcntl(ui_sigpipe[0], F_SETFL, O_NONBLOCK);
	fcntl(ui_sigpipe[1], F_SETFL, O_NONBLOCK);
	fcntl(ui_sigpipe[0], F_SETFD, FD_CLOEXEC);
	fcntl(ui_sigpipe[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/*
 * Take the terminal: a curses screen on it (refused when the terminal
 * type cannot move the cursor), the strings that leave full-screen mode
 * for the fatal-signal handler, and the input modes.  NULL with err.
 */
static SCREEN *
ui_term_open(bool mouse, char *err, size_t errsz)
{
	SCREEN *scr = newterm(NULL, stdout, stdin);
	const char *cup, *term = getenv("TERM") ? getenv("TERM") : "";
	if (scr == NULL) {
		util_err(err, errsz, "cannot use the terminal type '%s' (try TERM=xterm-256color or TERM=vt100)", term);
		return NULL;
	}
	set_term(scr);
	/* a terminal that cannot move the cursor (TERM=dumb) cannot show a dashboard */
	cup = tigetstr("cup");
	if (cup == NULL || cup == (char *)-1) {
		endwin();
		delscreen(scr);
		util_err(err, errsz,
			 "the terminal type '%s' cannot move the cursor: set TERM (e.g. xterm-256color), or use --once or --json",
			 term);
		return NULL;
	}
	/*
	 * One write a frame: until its screen has been left and taken back
	 * once, ncurses (6.4) writes what it buffered at each cursor move of
	 * an update (its _nc_mvcur flushes while the screen is in its initial
	 * state), 46 writes for a frame at rest at 160x48, a system call each;
	 * after an endwin() and a refresh() it writes a frame at once.  Done
	 * before the modes and keys below are set, so none is undone.
	 * (tests/tmux/rest.sh counts the main thread's writes.)
	 */
	endwin();
	refresh();
	ui_restore_len = 0;
	ui_add_cap("sgr0");
	ui_add_cap("cnorm");
	ui_add_cap("rmkx");
	ui_add_cap("rmcup");
	if (mouse && mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL) != 0) {
		static const char off[] = "\033[?1006l\033[?1000l"; /* mouse reports off, for the fatal-signal path */
		mouseinterval(0);
		if (ui_restore_len + sizeof off - 1 < sizeof ui_restore) {
			memcpy(ui_restore + ui_restore_len, off, sizeof off - 1);
			ui_restore_len += sizeof off - 1;
		}
	}
	ui_curses_up = 1;
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/*
	 * No keyboard polls inside a frame: with typeahead on (curses'
	 * default) doupdate polls the keyboard every few lines to give up a
	 * frame when a key waits; the loop reads keys before each frame
	 * anyway, and at idle that was 10 polls for a frame whose change is a
	 * column of digits (issue 24; make bench-idle).
	 */
	typeahead(-1);
	curs_set(0);
	return scr;
}

/* Give the terminal back. */
static void
ui_term_close(SCREEN *scr)
{
	/* without an alternate screen (vt100, linux) the last frame would stay under the prompt */
	const char *smcup = tigetstr("smcup");
	if (smcup == NULL || smcup == (char *)-1) {
		erase();
		move(0, 0);
		refresh();
	}
	endwin();
	ui_curses_up = 0;
	delscreen(scr);
}

/* The screen's state from the options, the locale, NO_COLOR and the theme. */
static void
ui_screen_open(ui_screen *s, kg_collector *c, const kg_options *o, const kg_ui_info *info, char *theme_err,
	       size_t errsz)
{
	const char *nc = getenv("NO_COLOR");
	screen_init(s, o, info, collector_history(c));
	s->ascii = s->ascii || !ui_locale_utf8();
	if (nc != NULL && *nc)
		s->colour = false;
	if (s->colour && has_colors()) {
		start_color();
		use_default_colors();
	}
	ui_load_theme(s, theme_err, errsz);
	if (theme_err[0] == '\0')
		s->status[0] = '\0';
}

/* Take the collector's frame: a command's reply to the status line, the newest snapshot into *latest; true when one came. */
static bool
ui_take_frame(kg_collector *c, ui_screen *s, kg_snapshot **latest)
{
	kg_frame *f = collector_take(c);
	if (f == NULL)
		return false;
	if (f->message != NULL)
		screen_reply(s, f->message);
	if (f->snap != NULL) {
		snapshot_unref(*latest);
		*latest = snapshot_ref(f->snap);
	}
	s->complete = f->complete;
	frame_free(f);
	return true;
}

/* Apply the keys typed (*nkeys of them, a resize one), and do what they ask of the collector; true when one quits. */
static bool
ui_read_keys(kg_collector *c, ui_screen *s, char *theme_err, size_t errsz, int *nkeys)
{
	int ch;
	wint_t wc;
	while ((ch = get_wch(&wc)) != ERR) {
		ui_action a;
		(*nkeys)++;
		int key = ch == KEY_CODE_YES ? (int)wc : wc < 0x80 ? (int)wc : -1;
		if (key < 0)
			continue;
		keys_handle(s, key, &a);
		if (a.quit)
			return true;
		if (a.refresh)
			collector_refresh(c);
		if (a.kind[0] != '\0')
			collector_command(c, a.kind, a.cmd);
		if (a.theme) {
			theme_err[0] = '\0';
			ui_load_theme(s, theme_err, errsz);
		}
	}
	return false;
}

/* What the collector was last told the screen shows. */
typedef struct ui_focus {
	int32_t shown[256];
	size_t nshown;
	int32_t selected;
	bool told;
} ui_focus;

/*
 * Tell the collector which groups the list shows and which one is selected,
 * when that changed (scrolled, filtered, sorted, selected): the kafka
 * source asks about those every refresh and about the others in turn.
 */
static void
ui_tell_focus(kg_collector *c, const ui_screen *s, ui_focus *last)
{
	ui_focus now;
	int i, rows = s->lay.list.h - 1;
	const kg_group *sel = s->snap != NULL && s->sel >= 0 && s->sel < s->norder ? &s->snap->groups[s->order[s->sel]]
										 : NULL;
	if (s->snap == NULL) {
		/* a screen, before anything to show: the kafka source keeps to its pace from the first refresh */
		if (!last->told)
			collector_set_focus(c, NULL, 0, -1);
		last->told = true;
		return;
	}
	memset(&now, 0, sizeof now);
	for (i = s->list_top; i < s->norder && i < s->list_top + rows && now.nshown < KG_ARRAY_LEN(now.shown); i++)
		now.shown[now.nshown++] = s->snap->groups[s->order[i]].id;
	now.selected = sel != NULL ? sel->id : -1;
	if (last->told && now.selected == last->selected && now.nshown == last->nshown &&
	    memcmp(now.shown, last->shown, now.nshown * sizeof *now.shown) == 0)
		return;
	now.told = true;
	*last = now;
	collector_set_focus(c, now.shown, now.nshown, now.selected);
}

/* The curses library's version. */
const char *
ui_curses_version(void)
{
	return curses_version();
}

/* Check that a theme loads; a missing one is named with the themes there are. */
int
ui_theme_check(const char *name, char *err, size_t errsz)
{
	ui_theme t;
	char names[32][64];
	int n, i;
	size_t len;
	if (theme_load(&t, name, err, errsz) == 0)
		return 0;
	if (strstr(err, ".theme:") != NULL || strchr(name, '/') != NULL)
		return -1; /* a file that does not parse (its line says why), or a path that cannot be read */
	n = theme_list(names, 32);
	len = strlen(err);
	for (i = 0; i < n && len + 2 < errsz; i++) {
		snprintf(err + len, errsz - len, "%s%s", i == 0 ? " (themes: " : ", ", names[i]);
		len = strlen(err);
	}
	if (n > 0 && len + 1 < errsz)
		snprintf(err + len, errsz - len, ")");
	return -1;
}

/* Run the dashboard. */
int
ui_run(kg_collector *c, const kg_options *o, const kg_ui_info *info, char *err, size_t errsz)
{
	struct sigaction old_stop[KG_ARRAY_LEN(ui_stop_signals)], old_fatal[KG_ARRAY_LEN(ui_fatal_signals)];
	SCREEN *scr;
	ui_screen s;
	kg_snapshot *latest = NULL;
	char theme_err[512] = "";
	ui_focus focus = { .selected = -1 };
	int rc = 0;
	ui_clock clk = { 0, 0, 0 };
	int64_t end_mono = 0; /* --duration: quit by itself at this monotonic time */

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return util_err(err, errsz, "the dashboard needs a terminal: use --once or --json for output to a pipe");
	if (ui_pipe_open(err, errsz) < 0)
		return -1;
	ui_signal = 0;
	ui_have_tio = tcgetattr(STDIN_FILENO, &ui_saved_tio) == 0;
	if ((scr = ui_term_open(o == NULL || !o->no_mouse, err, errsz)) == NULL) {
		ui_pipe_close();
		return -1;
	}
	util_set_oom_hook(ui_oom);
	ui_signals_install(old_stop, old_fatal);
	ui_screen_open(&s, c, o, info, theme_err, sizeof theme_err);
	ui_draw(&s, &clk, true); /* "connecting to ..." at once, before the first refresh */
	ui_tell_focus(c, &s, &focus);
	if (o != NULL && o->duration_us > 0)
		end_mono = (o->start_mono_us > 0 ? o->start_mono_us : util_mono_us()) + o->duration_us;

	for (;;) {
		struct pollfd pfd[3];
		int n, nkeys = 0;
		bool framed = false;
		pfd[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = collector_fd(c), .events = POLLIN };
		pfd[2] = (struct pollfd){ .fd = ui_sigpipe[0], .events = POLLIN };
		n = poll(pfd, 3, ui_wait_ms(&clk, end_mono));
		if (ui_signal != 0)
			break;
		if (end_mono > 0 && util_mono_us() >= end_mono)
			break; /* --duration is over: a normal end */
		if (n < 0 && errno != EINTR) {
			rc = util_err(err, errsz, "poll: %s", strerror(errno));
			break;
		}
		if (n > 0 && (pfd[1].revents & POLLIN) && (framed = ui_take_frame(c, &s, &latest)))
			ui_clock_frame(&clk);
		if (n > 0 && (pfd[0].revents & (POLLHUP | POLLERR)) && !(pfd[0].revents & POLLIN))
			break; /* the terminal went away */
		if (ui_read_keys(c, &s, theme_err, sizeof theme_err, &nkeys))
			break;
		if (!s.paused && latest != NULL && latest != s.snap)
			screen_set_snapshot(&s, latest);
		ui_draw(&s, &clk, framed || nkeys > 0);
		ui_tell_focus(c, &s, &focus);
	}
	ui_term_close(scr);
	util_set_oom_hook(NULL);
	ui_signals_restore(old_stop, old_fatal);
	ui_pipe_close();
	snapshot_unref(latest);
	screen_free(&s);
	if (theme_err[0] != '\0')
		fprintf(stderr, "kgtop: %s\n", theme_err);
	if (ui_signal != 0 && rc == 0 && ui_signal != SIGINT && ui_signal != SIGTERM && ui_signal != SIGHUP)
		rc = util_err(err, errsz, "stopped by signal %d", (int)ui_signal);
	else if (rc == 0 && (ui_signal == SIGTERM || ui_signal == SIGHUP))
		rc = (int)ui_signal; /* the caller exits 128 + it, as a shell reports a killed program */
	return rc;
}

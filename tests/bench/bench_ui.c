/*
 * bench_ui.c: what the dashboard costs.  Prints figures and their ratio to
 * the targets of issue 3; never asserts a timing.
 *
 *  1. CPU per frame at 160x48 for a group of 64 members x 512 partitions
 *     with a minute of history, per view (target <= 2 ms);
 *  2. bytes sent to the terminal per refresh when nothing changed but the
 *     clock (target <= 200), and when a rebalance lands (seeds' scene);
 *  3. idle CPU of the real loop (ui_run over the collector, tests/tmux/
 *     ui_driver in a pseudo-terminal) at a 1 s refresh (target <= 0.5%),
 *     and its bytes per second;
 *  4. RSS and history bytes with 2,000 groups and one hour of history;
 *  5. at 80x24 and 200x60 (issue 12: unchanged or better), the seeds'
 *     scene as the demo shows it: CPU per frame and bytes per idle
 *     refresh, per view, and the narrow sizes 40x12 and 60x20.
 *
 * Rendering goes to a curses screen on a temporary file (TERM
 * xterm-256color), so byte counts are what a real terminal would receive.
 *   bench_ui [path/to/ui_driver]
 *   bench_ui --sizes      (5 alone, e.g. under a profiler)
 */
#include "config.h"

#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/options.h"
#include "../unit/test_ui_scene.h"
#include "ui/screen.h"
#include "util/util.h"

#define SEC 1000000LL

static FILE *out;
static SCREEN *scr;

/* CPU time of this process in microseconds. */
static int64_t
cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* A curses screen on a temporary file of a fixed size. */
static void
term_open(int rows, int cols)
{
	FILE *in = fopen("/dev/null", "r");
	out = tmpfile();
	scr = newterm("xterm-256color", out, in);
	if (scr == NULL) {
		fprintf(stderr, "bench_ui: no xterm-256color terminfo\n");
		exit(1);
	}
	set_term(scr);
	resize_term(rows, cols);
	start_color();
	use_default_colors();
}

/* End the screen. */
static void
term_close(void)
{
	endwin();
	delscreen(scr);
	fclose(out);
}

/* Draw a frame and send it; returns the bytes written. */
static long
frame(ui_screen *s)
{
	long before, after;
	fflush(out);
	before = ftell(out);
	render_frame(s);
	wnoutrefresh(stdscr);
	doupdate();
	fflush(out);
	after = ftell(out);
	return after - before;
}

/* Resident set size in kB. */
static long
rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = atol(line + 6);
	}
	fclose(f);
	return kb;
}

/* 1: CPU per frame. */
static void
bench_cpu(void)
{
	kg_tracker_config mc = options_model_defaults();
	kg_tracker *tr = tracker_new(&mc);
	kg_snapshot *snap = scene_big_group(tr, "bench-64x512", 64, 512, 60, SCENE_T0);
	kg_options o;
	kg_ui_info info = { .cluster = "bench:9092" };
	ui_screen s;
	int v, i, n = 200;
	memset(&o, 0, sizeof o);
	o.interval_us = SEC;
	term_open(48, 160);
	screen_init(&s, &o, &info, tracker_history(tr));
	screen_set_snapshot(&s, snap);
	s.t0_us = SCENE_T0;
	render_theme_apply(&s);
	printf("1. CPU per frame, 160x48, one group of 64 members x 512 partitions (target <= 2 ms)\n");
	for (v = 0; v < UI_VIEW_COUNT * 2; v++) {
		int64_t t;
		double ms;
		ui_action a;
		bool by_partition = v % 2;
		s.view = (ui_view_id)(v / 2);
		if (s.view >= UI_VIEW_HEALTH && by_partition)
			continue;
		if (by_partition)
			keys_handle(&s, 'm', &a); /* the view's own key: by partition */
		frame(&s);
		t = cpu_us();
		for (i = 0; i < n; i++) {
			s.now_us = snap->time_us + i * SEC;
			frame(&s);
		}
		ms = (double)(cpu_us() - t) / n / 1000.0;
		printf("   %-9s %-13s %6.3f ms/frame  (%.2f of target)\n", render_pane(s.view)->name,
		       by_partition ? "by partition" : "by member", ms, ms / 2.0);
		if (by_partition)
			keys_handle(&s, 'm', &a); /* and back */
	}
	screen_free(&s);
	term_close();
	snapshot_unref(snap);
	tracker_free(tr);
}

/* 2: bytes per refresh. */
static void
bench_bytes(void)
{
	ui_scene sc;
	kg_options o;
	kg_ui_info info = { .demo = true, .cluster = "localhost:9092" };
	ui_screen s;
	long b, total = 0;
	int v, i;
	memset(&o, 0, sizeof o);
	o.interval_us = SEC;
	term_open(48, 160);
	scene_init(&sc);
	scene_run_until(&sc, SCENE_T0 + 3000 * 1000);
	screen_init(&s, &o, &info, tracker_history(sc.tracker));
	screen_set_snapshot(&s, sc.snap);
	s.t0_us = SCENE_T0;
	render_theme_apply(&s);
	util_strlcpy(s.selected, "demo-range", sizeof s.selected);
	screen_order(&s);
	printf("2. bytes to the terminal per refresh, 160x48 (target <= 200 when nothing changed)\n");
	s.now_us = sc.snap->time_us;
	printf("   first full frame:                    %6ld bytes\n", frame(&s));
	printf("   same frame again:                    %6ld bytes\n", frame(&s));
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		s.view = (ui_view_id)v;
		frame(&s);
		total = 0;
		for (i = 1; i <= 10; i++) {
			s.now_us = sc.snap->time_us + i * SEC;
			total += frame(&s);
		}
		printf("   %-9s idle, clock ticking:       %6.1f bytes/refresh  (%.2f of target)\n", render_pane(s.view)->name,
		       (double)total / 10, (double)total / 10 / 200);
	}
	s.view = UI_VIEW_TIMELINE;
	frame(&s);
	scene_run_until(&sc, SCENE_T0 + 3300 * 1000);
	screen_set_snapshot(&s, sc.snap);
	s.now_us = sc.snap->time_us;
	b = frame(&s);
	printf("   timeline, eager revoke lands (3.3s): %6ld bytes\n", b);
	scene_run_until(&sc, SCENE_T0 + 5800 * 1000);
	screen_set_snapshot(&s, sc.snap);
	s.now_us = sc.snap->time_us;
	b = frame(&s);
	printf("   timeline, assignment lands (5.8s):   %6ld bytes\n", b);
	s.view = UI_VIEW_EVENTS;
	frame(&s);
	scene_run_until(&sc, SCENE_T0 + 12700 * 1000);
	util_strlcpy(s.selected, "demo-coop", sizeof s.selected);
	screen_set_snapshot(&s, sc.snap);
	s.now_us = sc.snap->time_us;
	frame(&s);
	scene_run_until(&sc, SCENE_T0 + 13000 * 1000);
	screen_set_snapshot(&s, sc.snap);
	s.now_us = sc.snap->time_us;
	printf("   events, cooperative round closes:    %6ld bytes\n", frame(&s));
	screen_free(&s);
	scene_free(&sc);
	term_close();
}

/* 3: idle CPU and bytes of the real loop in a pseudo-terminal. */
static void
bench_idle(const char *driver)
{
	struct winsize ws = { .ws_row = 48, .ws_col = 160 };
	int fd, status;
	pid_t pid;
	char buf[65536], path[64];
	long bytes = 0, warm = 0;
	int64_t t0, t_start, measure = 10 * SEC;
	long ticks = sysconf(_SC_CLK_TCK);
	unsigned long u0 = 0, s0 = 0, u1 = 0, s1 = 0;
	FILE *f;
	printf("3. the real loop (ui_run over the collector) idle at a 1 s refresh, 160x48 pty (target <= 0.5%% CPU)\n");
	if (driver == NULL || access(driver, X_OK) != 0) {
		printf("   skipped: no ui_driver (pass its path)\n");
		return;
	}
	pid = forkpty(&fd, NULL, NULL, &ws);
	if (pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		execl(driver, driver, "--interval", "1", "--start", "25", (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		printf("   skipped: forkpty failed\n");
		return;
	}
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	t_start = util_mono_us();
	t0 = 0;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t now = util_mono_us();
		if (t0 == 0 && now - t_start >= 3 * SEC) {
			/* warmed up: start measuring */
			f = fopen(path, "r");
			if (f != NULL) {
				if (fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &u0, &s0) != 2)
					u0 = s0 = 0;
				fclose(f);
			}
			t0 = now;
			warm = bytes;
		}
		if (t0 != 0 && now - t0 >= measure)
			break;
		if (poll(&p, 1, 100) > 0) {
			ssize_t n = read(fd, buf, sizeof buf);
			if (n <= 0)
				break;
			bytes += n;
		}
	}
	f = fopen(path, "r");
	if (f != NULL) {
		if (fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &u1, &s1) != 2)
			u1 = s1 = 0;
		fclose(f);
	}
	if (write(fd, "q", 1) < 0) {
		/* it ends with the kill below anyway */
	}
	{
		int64_t end = util_mono_us() + 2 * SEC;
		while (waitpid(pid, &status, WNOHANG) == 0 && util_mono_us() < end) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			if (poll(&p, 1, 50) > 0 && read(fd, buf, sizeof buf) <= 0)
				break;
		}
		if (waitpid(pid, &status, WNOHANG) == 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
		}
	}
	close(fd);
	{
		double secs = (double)measure / 1e6;
		double cpu = (double)((u1 + s1) - (u0 + s0)) / (double)ticks / secs * 100.0;
		printf("   CPU over %.0f s: %.2f%% (%.2f of target; clock ticks of 1/%ld s)\n", secs, cpu, cpu / 0.5, ticks);
		printf("   bytes written: %.1f per second (%.2f of the 200-byte target per refresh)\n",
		       (double)(bytes - warm) / secs, (double)(bytes - warm) / secs / 200);
	}
}

/* 4: memory with many groups. */
static void
bench_rss(void)
{
	long before = rss_kb(), after;
	kg_tracker_config cfg;
	kg_tracker *tr;
	kg_snapshot *snap;
	int64_t t = util_mono_us();
	kg_options o;
	kg_ui_info info = { .cluster = "bench:9092" };
	ui_screen s;
	double ms;
	cfg = options_model_defaults();
	tr = tracker_new(&cfg);
	printf("4. memory with 2,000 groups and one hour of history (one refresh every 10 s, 360 refreshes)\n");
	snap = scene_many_groups(tr, 2000, 360, 10 * SEC);
	memset(&o, 0, sizeof o);
	o.interval_us = SEC;
	term_open(48, 160);
	screen_init(&s, &o, &info, tracker_history(tr));
	screen_set_snapshot(&s, snap);
	render_theme_apply(&s);
	frame(&s);
	{
		int64_t c = cpu_us();
		int i;
		for (i = 0; i < 50; i++) {
			s.now_us = snap->time_us + i * SEC;
			frame(&s);
		}
		ms = (double)(cpu_us() - c) / 50 / 1000.0;
	}
	after = rss_kb();
	printf("   RSS %ld kB (%ld kB before), history %zu kB, %.1f s to build\n", after, before,
	       history_bytes(tracker_history(tr)) / 1024, (double)(util_mono_us() - t) / 1e6);
	printf("   a frame of the list of 2,000 groups: %.3f ms\n", ms);
	screen_free(&s);
	term_close();
	snapshot_unref(snap);
	tracker_free(tr);
}

/* 5: one size, per view: CPU per frame and bytes per refresh when only the clock changed. */
static void
bench_size(int rows, int cols)
{
	ui_scene sc;
	kg_options o;
	kg_ui_info info = { .demo = true, .cluster = "localhost:9092" };
	ui_screen s;
	int v, i, n = 200;
	memset(&o, 0, sizeof o);
	o.interval_us = SEC;
	term_open(rows, cols);
	scene_init(&sc);
	scene_run_until(&sc, SCENE_T0 + 20 * SEC);
	screen_init(&s, &o, &info, tracker_history(sc.tracker));
	screen_set_snapshot(&s, sc.snap);
	s.t0_us = SCENE_T0;
	render_theme_apply(&s);
	util_strlcpy(s.selected, "demo-coop", sizeof s.selected);
	screen_order(&s);
	for (v = 0; v < UI_VIEW_COUNT; v++) {
		int64_t t;
		long total = 0;
		double ms;
		s.view = (ui_view_id)v;
		s.now_us = sc.snap->time_us;
		frame(&s);
		t = cpu_us();
		for (i = 1; i <= n; i++) {
			s.now_us = sc.snap->time_us + i * SEC;
			total += frame(&s);
		}
		ms = (double)(cpu_us() - t) / n / 1000.0;
		printf("   %3dx%-3d %-9s %6.3f ms/frame  %6.1f bytes/idle refresh\n", cols, rows, render_pane(s.view)->name, ms,
		       (double)total / n);
	}
	screen_free(&s);
	scene_free(&sc);
	term_close();
}

/* 5: the sizes of issue 12. */
static void
bench_sizes(void)
{
	static const int sizes[][2] = { { 24, 80 }, { 60, 200 }, { 12, 40 }, { 20, 60 } };
	size_t i;
	printf("5. the seeds' scene as the demo shows it (demo-coop selected), 200 frames a view, the clock ticking\n");
	for (i = 0; i < KG_ARRAY_LEN(sizes); i++)
		bench_size(sizes[i][0], sizes[i][1]);
}

/* Run every benchmark. */
int
main(int argc, char **argv)
{
	setenv("TZ", "UTC", 1);
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "C.utf8");
	unsetenv("KGTOP_THEMES");
	printf("kgtop UI benchmarks (figures, not assertions)\n");
	if (argc > 1 && strcmp(argv[1], "--sizes") == 0) {
		bench_sizes();
		return 0;
	}
	bench_cpu();
	bench_bytes();
	bench_idle(argc > 1 ? argv[1] : NULL);
	bench_rss();
	bench_sizes();
	return 0;
}
